package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"sync"
	"testing"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"
)

// `onetool run` with OTEL_EXPORTER_OTLP_ENDPOINT set sends its spans to
// the collector before it exits: the run's, and its tool call's.
func TestRunExportsTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and spawns the binary")
	}
	var mu sync.Mutex
	names := map[string]int{}
	service := ""
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req := &collectortrace.ExportTraceServiceRequest{}
		if r.URL.Path != "/v1/traces" || proto.Unmarshal(body, req) != nil {
			http.Error(w, "want an OTLP/HTTP protobuf export on /v1/traces", http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		for _, rs := range req.ResourceSpans {
			for _, kv := range rs.Resource.GetAttributes() {
				if kv.Key == "service.name" {
					service = kv.Value.GetStringValue()
				}
			}
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					names[s.Name]++
				}
			}
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer collector.Close()
	dir := t.TempDir()
	cmd := exec.Command(onetoolBinary(t), "run", "-e", `demo.foo(text="test")`)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "OTEL_EXPORTER_OTLP_ENDPOINT="+collector.URL, "OTEL_SERVICE_NAME=")
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != "orange\n" {
		t.Fatalf("onetool run: %v\n%s", err, out)
	}
	mu.Lock()
	defer mu.Unlock()
	if names["onetool.run"] != 1 || names["onetool.tool"] != 1 || service != "onetool" {
		t.Errorf("collector got spans %v from service %q, want one onetool.run and one onetool.tool from onetool", names, service)
	}
}
