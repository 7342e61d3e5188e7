package mcpserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
)

// traceHeader adds a traceparent header to every request, as an
// instrumented client does.
type traceHeader struct {
	traceparent string
}

func (h traceHeader) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("traceparent", h.traceparent)
	return http.DefaultTransport.RoundTrip(req)
}

// upstreamSeen is what the upstream server's tool was called with.
type upstreamSeen struct {
	mu                  sync.Mutex
	header, meta, state []string
}

// newTracedUpstream serves one tool, probe, over streamable HTTP, and
// records the trace context of each call.
func newTracedUpstream(t *testing.T) (*httptest.Server, *upstreamSeen) {
	t.Helper()
	seen := &upstreamSeen{}
	s := mcp.NewServer(&mcp.Implementation{Name: "up", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "probe", InputSchema: map[string]any{"type": "object"}}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		seen.mu.Lock()
		defer seen.mu.Unlock()
		seen.header = append(seen.header, req.Extra.Header.Get("traceparent"))
		tp, _ := req.Params.Meta["traceparent"].(string)
		seen.meta = append(seen.meta, tp)
		ts, _ := req.Params.Meta["tracestate"].(string)
		seen.state = append(seen.state, ts)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(srv.Close)
	return srv, seen
}

// The trace context of an MCP request (its traceparent header, or
// traceparent in params._meta, which wins) becomes the parent of the run's
// span; the run's upstream call to an HTTP server is a client span in the
// same trace, passed on in the traceparent header and in _meta.
func TestTraceContextInAndOut(t *testing.T) {
	const (
		clientTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
		clientSpan  = "00f067aa0ba902b7"
		metaTrace   = "0af7651916cd43dd8448eb211c80319c"
		metaSpan    = "b7ad6b7169203331"
	)
	up, seen := newTracedUpstream(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte("version: 1\nservers:\n  up:\n    url: "+up.URL+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(filepath.Join(dir, "onetool.yaml"), config.LoadOptions{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	rec := tracetest.NewSpanRecorder()
	r, err := runner.New(runner.WithConfig(cfg), runner.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	srv := httptest.NewServer(HTTPHandler(New(r, Options{}), HTTPOptions{Stateless: true}))
	defer srv.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "traced", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint:             srv.URL + "/mcp",
		HTTPClient:           &http.Client{Transport: traceHeader{"00-" + clientTrace + "-" + clientSpan + "-01"}},
		DisableStandaloneSSE: true,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	for _, tt := range []struct {
		name              string
		meta              mcp.Meta
		wantTrace, parent string
	}{
		{"header", nil, clientTrace, clientSpan},
		{"_meta wins", mcp.Meta{"traceparent": "00-" + metaTrace + "-" + metaSpan + "-01", "tracestate": "vendor=x"}, metaTrace, metaSpan},
	} {
		rec.Reset()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Meta: tt.meta, Name: "run", Arguments: map[string]any{"command": "up.probe()"}})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", tt.name, err, res)
		}
		var run, tool, upstream sdktrace.ReadOnlySpan
		for _, sp := range rec.Ended() {
			switch sp.Name() {
			case "onetool.run":
				run = sp
			case "onetool.tool":
				tool = sp
			case "tools/call probe":
				upstream = sp
			}
		}
		if run == nil || tool == nil || upstream == nil {
			t.Fatalf("%s: spans %d, want onetool.run, onetool.tool and tools/call probe", tt.name, len(rec.Ended()))
		}
		if tool.Parent().SpanID() != run.SpanContext().SpanID() || upstream.Parent().SpanID() != tool.SpanContext().SpanID() {
			t.Errorf("%s: the upstream call is not under the tool call under the run", tt.name)
		}
		if run.SpanContext().TraceID().String() != tt.wantTrace || run.Parent().SpanID().String() != tt.parent || !run.Parent().IsRemote() {
			t.Errorf("%s: run span in trace %s under %s, want %s under %s", tt.name, run.SpanContext().TraceID(), run.Parent().SpanID(), tt.wantTrace, tt.parent)
		}
		if upstream.SpanKind().String() != "client" || upstream.SpanContext().TraceID().String() != tt.wantTrace {
			t.Errorf("%s: upstream span kind %s in trace %s", tt.name, upstream.SpanKind(), upstream.SpanContext().TraceID())
		}
		want := "00-" + tt.wantTrace + "-" + upstream.SpanContext().SpanID().String() + "-01"
		seen.mu.Lock()
		header, meta, state := seen.header[len(seen.header)-1], seen.meta[len(seen.meta)-1], seen.state[len(seen.state)-1]
		seen.mu.Unlock()
		if header != want || meta != want {
			t.Errorf("%s: upstream got traceparent header %q, _meta %q; want %q", tt.name, header, meta, want)
		}
		if tt.meta != nil && state != "vendor=x" {
			t.Errorf("%s: upstream got tracestate %q, want the caller's", tt.name, state)
		}
	}
}

// Without tracing the caller's traceparent is not read, and nothing is
// sent upstream.
func TestTraceContextOff(t *testing.T) {
	up, seen := newTracedUpstream(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte("version: 1\nservers:\n  up:\n    url: "+up.URL+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(filepath.Join(dir, "onetool.yaml"), config.LoadOptions{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(runner.WithConfig(cfg))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	srv := httptest.NewServer(HTTPHandler(New(r, Options{}), HTTPOptions{Stateless: true}))
	defer srv.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "traced", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint:             srv.URL + "/mcp",
		HTTPClient:           &http.Client{Transport: traceHeader{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}},
		DisableStandaloneSSE: true,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": "up.probe()"}})
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	seen.mu.Lock()
	defer seen.mu.Unlock()
	if strings.Join(seen.header, "")+strings.Join(seen.meta, "") != "" {
		t.Errorf("upstream got traceparent %q / %q with tracing off", seen.header, seen.meta)
	}
}
