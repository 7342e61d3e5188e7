package mcpserver

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner"
)

// Over HTTP, a cancelled call — whether the client sends
// notifications/cancelled or, on 2026-07-28, simply drops the request —
// stops the tool in flight within 50 ms.
func TestHTTPCancellation(t *testing.T) {
	var mu sync.Mutex
	var done time.Time
	reg := packs.NewRegistry()
	if err := reg.Register(&packs.Tool{Pack: "probe", Name: "wait", Handler: func(ctx context.Context, _ map[string]any) (any, error) {
		<-ctx.Done()
		mu.Lock()
		done = time.Now()
		mu.Unlock()
		return nil, ctx.Err()
	}}); err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(runner.WithRegistry(reg), runner.WithLimits(runner.Limits{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		version   string
		stateless bool
	}{{"2025-11-25", false}, {"2026-07-28", true}} {
		t.Run(tt.version, func(t *testing.T) {
			srv := httptest.NewServer(HTTPHandler(New(r, Options{}), HTTPOptions{Stateless: tt.stateless}))
			defer srv.Close()
			client := mcp.NewClient(&mcp.Implementation{Name: "http", Version: "1"}, nil)
			cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", DisableStandaloneSSE: true},
				&mcp.ClientSessionOptions{ProtocolVersion: tt.version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			mu.Lock()
			done = time.Time{}
			mu.Unlock()
			ctx, cancel := context.WithCancel(context.Background())
			var cancelled time.Time
			time.AfterFunc(100*time.Millisecond, func() { cancelled = time.Now(); cancel() })
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": "probe.wait()"}}); err == nil {
				t.Fatal("cancelled call returned no error")
			}
			time.Sleep(150 * time.Millisecond)
			mu.Lock()
			defer mu.Unlock()
			if done.IsZero() || done.Sub(cancelled) > 50*time.Millisecond {
				t.Errorf("the tool saw cancellation %v after the client cancelled (done %v)", done.Sub(cancelled), done)
			}
		})
	}
}

func TestHealthzAndOrigin(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(HTTPHandler(New(r, Options{}), HTTPOptions{}))
	defer srv.Close()
	res, err := http.Get(srv.URL + "/healthz")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("/healthz: %v %v", res, err)
	}
	req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "http://evil.example")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-origin POST: status %d, want 403", res.StatusCode)
	}
}

// /metrics serves the handler given, beside /mcp and /healthz; without one
// there is none.
func TestMetricsEndpoint(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	metrics := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "onetool_runs_total 0\n") })
	srv := httptest.NewServer(HTTPHandler(New(r, Options{}), HTTPOptions{Metrics: metrics}))
	defer srv.Close()
	res, err := http.Get(srv.URL + "/metrics")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("/metrics: %v %v", res, err)
	}
	body, _ := io.ReadAll(res.Body)
	if string(body) != "onetool_runs_total 0\n" {
		t.Errorf("body %q", body)
	}
	bare := httptest.NewServer(HTTPHandler(New(r, Options{}), HTTPOptions{}))
	defer bare.Close()
	if res, err := http.Get(bare.URL + "/metrics"); err != nil || res.StatusCode != 404 {
		t.Errorf("/metrics without a handler: %v %v", res.StatusCode, err)
	}
}
