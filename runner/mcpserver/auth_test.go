package mcpserver

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/config"
)

// bearerTransport sends a static bearer token with every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// With serve.auth, /mcp needs a token and each run follows its token's
// policy; /healthz stays open and /metrics needs its own token (SPEC §7.4).
func TestHTTPAuth(t *testing.T) {
	cfg := config.Default()
	cfg.Policies["dev"] = &config.Policy{Allow: []string{"*"}}
	cfg.Policies["reader"] = &config.Policy{Allow: []string{"ot.*", "demo.foo"}, ReadOnly: true}
	cfg.Serve.Auth = &config.Auth{
		Tokens:       []config.Token{{Name: "alice", Token: "alice-token", Policy: "dev"}, {Name: "ci", Token: "ci-token", Policy: "reader"}},
		MetricsToken: "metrics-token",
	}
	a, err := auth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	metrics := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "onetool_runs_total 0\n") })
	for _, stateless := range []bool{false, true} {
		srv := httptest.NewServer(HTTPHandler(New(r, Options{}), HTTPOptions{Stateless: stateless, Auth: a, Metrics: metrics}))
		defer srv.Close()

		get := func(path, token string) *http.Response {
			req, _ := http.NewRequest("GET", srv.URL+path, nil)
			if path == "/mcp" {
				req, _ = http.NewRequest("POST", srv.URL+path, strings.NewReader(initializeBody))
			}
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Content-Type", "application/json")
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			return res
		}
		for _, tt := range []struct {
			path, token string
			code        int
		}{
			{"/mcp", "", 401},
			{"/mcp", "wrong", 401},
			{"/mcp", "alice-token", 200},
			{"/healthz", "", 200},
			{"/metrics", "", 401},
			{"/metrics", "alice-token", 401},
			{"/metrics", "metrics-token", 200},
		} {
			res := get(tt.path, tt.token)
			if res.StatusCode != tt.code {
				t.Errorf("stateless=%v %s with token %q: %d, want %d", stateless, tt.path, tt.token, res.StatusCode, tt.code)
			}
			if tt.code == 401 && res.Header.Get("WWW-Authenticate") != "Bearer" {
				t.Errorf("%s: 401 with WWW-Authenticate %q", tt.path, res.Header.Get("WWW-Authenticate"))
			}
		}

		run := func(token, code string) string {
			client := mcp.NewClient(&mcp.Implementation{Name: "auth", Version: "1"}, nil)
			cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
				Endpoint: srv.URL + "/mcp", DisableStandaloneSSE: true,
				HTTPClient: &http.Client{Transport: bearerTransport{token}},
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			return text(t, callRun(t, cs, code))
		}
		if got := run("alice-token", `demo.bar(text="item1")`); got != "fox" {
			t.Errorf("alice (dev): %q", got)
		}
		if got := run("ci-token", "x = 1\ndemo.bar(text='item1')"); got != "Error: line 2: demo.bar is not allowed by policy 'reader'" {
			t.Errorf("ci (reader): %q", got)
		}
		if got := run("ci-token", `[t for t in ot.tools(info="min") if not t.startswith("ot.")]`); got != `["demo.foo"]` {
			t.Errorf("ci (reader) ot.tools: %q", got)
		}
	}
}
