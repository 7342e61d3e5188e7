//go:build unix

package mcpclient

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newHTTPTestServer serves the test tools over streamable HTTP, refusing
// requests without the API key header. cancelled gets a value when the
// server sees a slow call's cancellation.
func newHTTPTestServer(t *testing.T, jsonResponse bool) (ts *httptest.Server, refusals *atomic.Int64, cancelled <-chan struct{}) {
	t.Helper()
	cancels := make(chan struct{}, 8)
	stop := make(chan struct{})
	srv := newTestMCPServer(0, testHooks{cancelled: cancels, stop: stop})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{JSONResponse: jsonResponse})
	var refused atomic.Int64
	ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Api-Key") != "sesame" {
			refused.Add(1)
			http.Error(w, "missing or wrong X-Api-Key", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	// The go-sdk server answers a session's DELETE only once its handlers
	// have returned: end slow calls first (cleanups run last-in first-out).
	t.Cleanup(ts.Close)
	t.Cleanup(func() { close(stop) })
	return ts, &refused, cancels
}

func TestHTTPServer(t *testing.T) {
	t.Parallel()
	for _, mode := range []struct {
		name string
		json bool
	}{{"sse", false}, {"json", true}} {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			ts, _, upstreamCancelled := newHTTPTestServer(t, mode.json)
			m := newManager(t, Options{}, Spec{Name: "remote", URL: ts.URL, Headers: map[string]string{"X-Api-Key": "sesame"}})
			s := mustServer(t, m, "remote")
			ctx := context.Background()

			tools, err := s.Tools(ctx)
			if err != nil {
				t.Fatal(err)
			}
			sum, err := MatchTool(tools, "get_sum", "")
			if err != nil {
				t.Fatal(err)
			}
			if want := `{"type":"object","properties":{"b":{"type":"integer"},"a":{"type":"integer"}},"required":["a","b"]}`; string(sum.InputSchema) != want {
				t.Errorf("input schema over HTTP lost its order: %s", sum.InputSchema)
			}
			v, err := s.Call(ctx, "get-sum", map[string]any{"a": 1, "b": 2})
			if err != nil || enc(t, v) != `{"sum":3,"inputs":[1,2]}` {
				t.Errorf("get-sum: %s, %v", enc(t, v), err)
			}
			if _, err := s.Call(ctx, "fail", nil); !errors.Is(err, ErrToolFailed) {
				t.Errorf("fail: %v", err)
			}

			// Progress and cancellation over HTTP.
			cctx, cancel := context.WithCancel(ctx)
			defer cancel()
			var ticks atomic.Int64
			cctx = WithProgress(cctx, func(p, total float64, msg string) {
				if ticks.Add(1) == 2 {
					cancel()
				}
			})
			start := time.Now()
			_, err = s.Call(cctx, "slow", nil)
			if !errors.Is(err, context.Canceled) || time.Since(start) > 2*time.Second {
				t.Errorf("slow: %v after %s", err, time.Since(start))
			}
			select {
			case <-upstreamCancelled:
			case <-time.After(2 * time.Second):
				t.Error("the server's handler was not cancelled (notifications/cancelled lost?)")
			}
			if st := s.Status(); st.State != StateConnected || st.Transport != "http" || st.PID != 0 {
				t.Errorf("status: %+v", st)
			}
		})
	}
}

func TestHTTPServerRefusesWithoutHeader(t *testing.T) {
	t.Parallel()
	ts, refused, _ := newHTTPTestServer(t, false)
	s := mustServer(t, newManager(t, Options{}, Spec{Name: "remote", URL: ts.URL}), "remote")
	_, err := s.Tools(context.Background())
	if !errors.Is(err, ErrNotConnected) || !strings.Contains(err.Error(), "Unauthorized") || refused.Load() == 0 {
		t.Errorf("err = %v (refused %d)", err, refused.Load())
	}
}

// everythingPath is the npm reference server installed for onetool's
// end-to-end tests.
const everythingPath = "e2e/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js"

func TestServerEverything(t *testing.T) {
	t.Parallel()
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "..", "..", everythingPath)
	if _, err := os.Stat(script); err != nil {
		t.Skipf("server-everything not installed (%s): run npm ci in e2e/node", everythingPath)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH")
	}
	s := mustServer(t, newManager(t, Options{}, Spec{Name: "everything", Command: node, Args: []string{script}, Timeout: 15 * time.Second}), "everything")
	ctx := context.Background()
	tools, err := s.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"echo", "get-sum"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools %v lack %s", names, want)
		}
	}
	v, err := s.Call(ctx, "get_sum", map[string]any{"a": 1, "b": 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := enc(t, v); !strings.Contains(got, "3") {
		t.Errorf("get-sum(1, 2) = %s", got)
	}
	if v, err := s.Call(ctx, "echo", map[string]any{"message": "hi"}); err != nil || !strings.Contains(enc(t, v), "hi") {
		t.Errorf("echo: %v, %v", v, err)
	}
	pid := s.Status().PID
	start := time.Now()
	if err := s.close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("closing server-everything took %s (does it ignore stdin EOF?)", d)
	}
	waitGone(t, time.Second, pid)
}

// A server's URL never shows as configured where Spec.ShownURL says how
// to show it: its status, its errors (which quote the URL as net/http
// writes it, escaped, the password as ***) and its logs show ShownURL.
func TestShownURL(t *testing.T) {
	t.Parallel()
	const shownURL = "http://ann:xxxxx@127.0.0.1:1/mcp/[secret:TOK]?key=xxxxx"
	var logs strings.Builder
	var mu sync.Mutex
	log := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logs.Write(p)
	}), nil))
	m := newManager(t, Options{Logger: log}, Spec{
		Name: "up", URL: `http://ann:pa55-word-1@127.0.0.1:1/mcp/tok "é" 9f8e7d?key=abc123`, ShownURL: shownURL,
		Timeout: 5 * time.Second,
	})
	s := mustServer(t, m, "up")
	_, err := s.Call(context.Background(), "echo", map[string]any{"text": "x"})
	if err == nil {
		t.Fatal("no error")
	}
	mu.Lock()
	defer mu.Unlock()
	for what, text := range map[string]string{"error": err.Error(), "last_error": s.Status().LastError, "log": logs.String()} {
		for _, form := range []string{"pa55-word-1", "tok", "9f8e7d", "abc123", "%C3%A9"} {
			if strings.Contains(text, form) {
				t.Errorf("%s shows %q: %s", what, form, text)
			}
		}
		if !strings.Contains(text, shownURL) {
			t.Errorf("%s does not show the URL as it may be shown: %s", what, text)
		}
	}
	if !errors.Is(err, ErrNotConnected) {
		t.Errorf("errors.Is lost ErrNotConnected: %v", err)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
