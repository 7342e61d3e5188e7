package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"
)

// collector is an OTLP/HTTP collector in the test: the names of the spans
// it received, and the service they came from.
type collector struct {
	mu      sync.Mutex
	names   map[string]int
	service string
}

func newCollector(t *testing.T) (*collector, string) {
	t.Helper()
	c := &collector{names: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req := &collectortrace.ExportTraceServiceRequest{}
		if r.URL.Path != "/v1/traces" || proto.Unmarshal(body, req) != nil {
			http.Error(w, "want an OTLP/HTTP protobuf export on /v1/traces", http.StatusBadRequest)
			return
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, rs := range req.ResourceSpans {
			for _, kv := range rs.Resource.GetAttributes() {
				if kv.Key == "service.name" {
					c.service = kv.Value.GetStringValue()
				}
			}
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					c.names[s.Name]++
				}
			}
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	t.Cleanup(srv.Close)
	return c, srv.URL
}

// check says whether the collector got runs spans onetool.run and as many
// onetool.tool, from the service onetool.
func (c *collector) check(t *testing.T, runs int) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.names["onetool.run"] != runs || c.names["onetool.tool"] != runs || c.service != "onetool" {
		t.Errorf("collector got spans %v from service %q, want %d onetool.run and onetool.tool from onetool", c.names, c.service, runs)
	}
}

// `onetool run` with OTEL_EXPORTER_OTLP_ENDPOINT set sends its spans to
// the collector before it exits: the run's, and its tool call's.
func TestRunExportsTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and spawns the binary")
	}
	c, url := newCollector(t)
	dir := t.TempDir()
	cmd := exec.Command(onetoolBinary(t), "run", "-e", `demo.foo(text="test")`)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "OTEL_EXPORTER_OTLP_ENDPOINT="+url, "OTEL_SERVICE_NAME=")
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != "orange\n" {
		t.Fatalf("onetool run: %v\n%s", err, out)
	}
	c.check(t, 1)
}

// `onetool serve` flushes the spans of its runs when it stops (here: the
// end of standard input, after the drain), well before the SDK's 5 s
// batching delay would have sent them.
func TestServeExportsTracesOnExit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and spawns the binary")
	}
	c, url := newCollector(t)
	dir := t.TempDir()
	cmd := exec.Command(onetoolBinary(t), "serve", "--log-level", "warn")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "OTEL_EXPORTER_OTLP_ENDPOINT="+url, "OTEL_SERVICE_NAME=")
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd, TerminateDuration: 10 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": `demo.foo(text="test")`}})
		if err != nil || res.IsError {
			t.Fatalf("run: %v %+v", err, res)
		}
	}
	start := time.Now()
	if err := cs.Close(); err != nil { // closes stdin and waits for the process
		t.Logf("close: %v", err)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("serve took %v to exit", d)
	}
	c.check(t, 2)
}
