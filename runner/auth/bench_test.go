package auth

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/runner/auth/authtest"
	"github.com/onetool-dev/onetool/runner/config"
)

// BenchmarkProtect is what checking a bearer token adds to a request
// (issue 19 item 8): the whole middleware around a handler that does
// nothing, with 1, 10 and 100 configured tokens (every one is compared,
// in constant time), and for a JWT access token of serve.auth.oauth:
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
	// A JWT access token (serve.auth.oauth): parsing, an RS256 or ES256
	// signature check against the cached JWKS, and the claims.
	for _, alg := range []string{"RS256", "ES256"} {
		is := authtest.NewIssuer(b)
		kid := "k1"
		if alg == "ES256" {
			kid = "ec1"
			is.AddECKey(b, kid)
		}
		cfg := config.Default()
		cfg.Policies["dev"] = &config.Policy{Allow: []string{"*"}}
		cfg.Serve.Auth = &config.Auth{OAuth: &config.OAuth{Issuer: is.URL, Audience: "https://onetool.example.com/mcp", Scopes: []string{"onetool.run"}, DefaultPolicy: "dev"}}
		a, err := New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		defer a.Close()
		h := a.Protect(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
		req := httptest.NewRequest("POST", "/mcp", nil)
		req.Header.Set("Authorization", "Bearer "+is.Sign(b, kid, is.Claims("https://onetool.example.com/mcp", "onetool.run")))
		// The first request with a token verifies it; later ones find it
		// in the cache of verified tokens.
		raw := strings.TrimPrefix(req.Header.Get("Authorization"), "Bearer ")
		b.Run("jwt="+alg+"/verify", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := a.oauth.verify(context.Background(), raw); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("jwt="+alg+"/cached", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatalf("status %d: %s", w.Code, w.Body)
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
