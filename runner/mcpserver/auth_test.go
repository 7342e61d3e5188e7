package mcpserver

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
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

// A principal's instructions and tool resources show only what its policy
// lets it call, as ot.help does; without a principal they show everything.
func TestHTTPPolicyView(t *testing.T) {
	cfg := config.Default()
	cfg.Policies["dev"] = &config.Policy{Allow: []string{"*"}}
	cfg.Policies["reader"] = &config.Policy{Allow: []string{"ot.*", "demo.foo"}}
	cfg.Serve.Auth = &config.Auth{Tokens: []config.Token{
		{Name: "alice", Token: "alice-token", Policy: "dev"},
		{Name: "ci", Token: "ci-token", Policy: "reader"},
	}}
	a, err := auth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, stateless := range []bool{false, true} {
		srv := httptest.NewServer(HTTPHandler(New(r, Options{}), HTTPOptions{Stateless: stateless, Auth: a}))
		defer srv.Close()
		connect := func(token string) *mcp.ClientSession {
			client := mcp.NewClient(&mcp.Implementation{Name: "view", Version: "1"}, nil)
			cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
				Endpoint: srv.URL + "/mcp", DisableStandaloneSSE: true,
				HTTPClient: &http.Client{Transport: bearerTransport{token}},
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			return cs
		}
		packsOf := func(instructions string) []string {
			var names []string
			for _, line := range strings.Split(instructions, "\n") {
				if name, _, ok := strings.Cut(strings.TrimPrefix(line, "- "), ":"); ok && strings.HasPrefix(line, "- ") {
					names = append(names, name)
				}
			}
			return names
		}
		tools := func(cs *mcp.ClientSession) string {
			res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: toolsURI})
			if err != nil {
				t.Fatal(err)
			}
			return res.Contents[0].Text
		}

		ci, alice := connect("ci-token"), connect("alice-token")
		if got := strings.Join(packsOf(ci.InitializeResult().Instructions), " "); got != "demo ot" {
			t.Errorf("stateless=%v: ci's instructions list packs %q, want demo ot", stateless, got)
		}
		if got := packsOf(alice.InitializeResult().Instructions); len(got) < 4 || !slices.Contains(got, "file") {
			t.Errorf("stateless=%v: alice (dev) sees packs %q, want all", stateless, got)
		}
		if list := tools(ci); !strings.Contains(list, `"demo.foo"`) || strings.Contains(list, `"demo.bar"`) || strings.Contains(list, `"file.read"`) {
			t.Errorf("stateless=%v: ci's onetool://tools:\n%s", stateless, list)
		}
		if list := tools(alice); !strings.Contains(list, `"demo.bar"`) || !strings.Contains(list, `"file.read"`) {
			t.Errorf("stateless=%v: alice's onetool://tools lacks tools", stateless)
		}
		if _, err := ci.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: toolURIPrefix + "demo.bar"}); err == nil {
			t.Errorf("stateless=%v: ci read onetool://tool/demo.bar, outside its policy", stateless)
		}
		if _, err := alice.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: toolURIPrefix + "demo.bar"}); err != nil {
			t.Errorf("stateless=%v: alice reading onetool://tool/demo.bar: %v", stateless, err)
		}
	}
}
