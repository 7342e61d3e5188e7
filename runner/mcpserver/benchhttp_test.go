package mcpserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/ratelimit"
)

// BenchmarkHTTPRun is one tools/call of run over streamable HTTP with
// serve.auth, a rate limit and a drain: what a team server adds to a run.
func BenchmarkHTTPRun(b *testing.B) {
	cfg := config.Default()
	cfg.Policies["dev"] = &config.Policy{Allow: []string{"*"}}
	cfg.Serve.Auth = &config.Auth{Tokens: []config.Token{{Name: "alice", Token: "alice-token", Policy: "dev"}}}
	a, err := auth.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	r, err := runner.New()
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	lim := ratelimit.New(ratelimit.Options{RunsPerMinute: 1 << 30, Concurrent: 64, Counters: r.Counters()})
	d := NewDrain()
	srv := httptest.NewServer(HTTPHandler(New(r, Options{RateLimit: lim, Drain: d}), HTTPOptions{Auth: a, Drain: d}))
	defer srv.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint: srv.URL + "/mcp", DisableStandaloneSSE: true, HTTPClient: &http.Client{Transport: bearerTransport{"alice-token"}},
	}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": `demo.foo(text="x")`}}
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(context.Background(), params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}
