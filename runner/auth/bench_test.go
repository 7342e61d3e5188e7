package auth

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/onetool-dev/onetool/runner/config"
)

// BenchmarkProtect is what checking a bearer token adds to a request
// (issue 19 item 8): the whole middleware around a handler that does
// nothing, with 1, 10 and 100 configured tokens (every one is compared,
// in constant time):
//
//	go test ./runner/auth -run '^$' -bench Protect -count 6
func BenchmarkProtect(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		cfg := config.Default()
		cfg.Policies["dev"] = &config.Policy{Allow: []string{"*"}}
		cfg.Serve.Auth = &config.Auth{}
		for i := range n {
			cfg.Serve.Auth.Tokens = append(cfg.Serve.Auth.Tokens, config.Token{Name: fmt.Sprintf("p%d", i), Token: fmt.Sprintf("token-%d-0123456789abcdef", i), Policy: "dev"})
		}
		a, err := New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		h := a.Protect(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
		req := httptest.NewRequest("POST", "/mcp", nil)
		req.Header.Set("Authorization", fmt.Sprintf("Bearer token-%d-0123456789abcdef", n-1))
		b.Run(fmt.Sprintf("tokens=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatalf("status %d", w.Code)
				}
			}
		})
	}
	b.Run("none", func(b *testing.B) {
		h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
		req := httptest.NewRequest("POST", "/mcp", nil)
		b.ReportAllocs()
		for b.Loop() {
			h.ServeHTTP(httptest.NewRecorder(), req)
		}
	})
}
