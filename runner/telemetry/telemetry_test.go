package telemetry_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/telemetry"
)

// env is a fixed environment for FromEnv, so tests need not touch the
// process's and can run in parallel.
func env(kv ...string) telemetry.Lookup {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(name string) (string, bool) { v, ok := m[name]; return v, ok }
}

func TestFromEnvOff(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  telemetry.Lookup
		warn string
	}{
		{"nothing set", env(), ""},
		{"only a protocol", env("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"), ""},
		{"SDK disabled", env("OTEL_SDK_DISABLED", "true", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://localhost:4318"), ""},
		{"exporter none", env("OTEL_TRACES_EXPORTER", "none", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://localhost:4318"), ""},
		{"exporter not otlp", env("OTEL_TRACES_EXPORTER", "zipkin", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://localhost:4318"),
			"OTEL_TRACES_EXPORTER=zipkin is not supported (only otlp and none are): traces are off"},
		{"gRPC", env("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://localhost:4317"),
			"onetool: OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: onetool exports traces over OTLP http/protobuf only; set OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf and point the endpoint at the collector's HTTP port (4318). Traces are off\n"},
		{"gRPC for traces", env("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "grpc", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://localhost:4317"),
			"OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported"},
		{"JSON", env("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://localhost:4318"),
			"OTEL_EXPORTER_OTLP_PROTOCOL=http/json is not supported"},
	}
	for _, tt := range tests {
		var warn bytes.Buffer
		p, err := telemetry.FromEnv(context.Background(), tt.env, &warn, "test")
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if p.Enabled() || telemetry.Enabled(p.TracerProvider()) || p.Endpoint != "" {
			t.Errorf("%s: tracing on (endpoint %q), want off", tt.name, p.Endpoint)
		}
		if !strings.Contains(warn.String(), tt.warn) || (tt.warn == "" && warn.Len() > 0) {
			t.Errorf("%s: warning %q, want %q", tt.name, warn.String(), tt.warn)
		}
		if err := p.Shutdown(context.Background()); err != nil {
			t.Errorf("%s: Shutdown: %v", tt.name, err)
		}
	}
}

func TestFromEnvSettings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		env      telemetry.Lookup
		endpoint string // "" when FromEnv must fail with err
		err      string
		warn     string
	}{
		{"general endpoint gets the traces path", env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"), "http://collector:4318/v1/traces", "", ""},
		{"general endpoint with a path", env("OTEL_EXPORTER_OTLP_ENDPOINT", "https://otel.example.com/otlp/"), "https://otel.example.com/otlp/v1/traces", "", ""},
		{"traces endpoint used as is, and wins", env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://a:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://b:9999/custom"), "http://b:9999/custom", "", ""},
		{"exporter otlp alone: the default endpoint", env("OTEL_TRACES_EXPORTER", "otlp"), "http://localhost:4318/v1/traces", "", ""},
		{"traces protocol wins", env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf"), "http://c:4318/v1/traces", "", ""},
		{"unknown protocol", env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318", "OTEL_EXPORTER_OTLP_PROTOCOL", "thrift"), "http://c:4318/v1/traces", "",
			"OTEL_EXPORTER_OTLP_PROTOCOL=thrift is not an OTLP protocol (http/protobuf): using http/protobuf"},
		{"missing CA file", env("OTEL_EXPORTER_OTLP_ENDPOINT", "https://c:4318", "OTEL_EXPORTER_OTLP_CERTIFICATE", "/nonexistent/ca.pem"), "",
			"OTEL_EXPORTER_OTLP_CERTIFICATE: open /nonexistent/ca.pem: no such file or directory", ""},
		{"client key without certificate", env("OTEL_EXPORTER_OTLP_ENDPOINT", "https://c:4318", "OTEL_EXPORTER_OTLP_CLIENT_KEY", "/k.pem"), "",
			"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE and OTEL_EXPORTER_OTLP_CLIENT_KEY go together: set both or neither", ""},
		{"endpoint without scheme", env("OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"), "",
			"OTEL_EXPORTER_OTLP_ENDPOINT=collector:4318: want an http:// or https:// URL, e.g. http://localhost:4318", ""},
		{"bad timeout", env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318", "OTEL_EXPORTER_OTLP_TIMEOUT", "10s"), "",
			"OTEL_EXPORTER_OTLP_TIMEOUT=10s: want a positive number of milliseconds, e.g. 10000", ""},
		{"bad headers", env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318", "OTEL_EXPORTER_OTLP_HEADERS", "api-key"), "",
			`OTEL_EXPORTER_OTLP_HEADERS: "api-key" is not key=value`, ""},
		{"bad compression", env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318", "OTEL_EXPORTER_OTLP_COMPRESSION", "zstd"), "",
			"OTEL_EXPORTER_OTLP_COMPRESSION=zstd: want gzip or none", ""},
		{"bad resource attributes", env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318", "OTEL_RESOURCE_ATTRIBUTES", "a=%zz"), "",
			"OTEL_RESOURCE_ATTRIBUTES: the value of a:", ""},
	}
	for _, tt := range tests {
		var warn bytes.Buffer
		p, err := telemetry.FromEnv(context.Background(), tt.env, &warn, "test")
		if tt.endpoint == "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !p.Enabled() || p.Endpoint != tt.endpoint {
			t.Errorf("%s: enabled %v, endpoint %q, want %q", tt.name, p.Enabled(), p.Endpoint, tt.endpoint)
		}
		if !strings.Contains(warn.String(), tt.warn) || (tt.warn == "" && warn.Len() > 0) {
			t.Errorf("%s: warning %q, want %q", tt.name, warn.String(), tt.warn)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // nothing was recorded; nothing to wait for
		_ = p.Shutdown(ctx)
	}
}

// receiver is an OTLP collector in the test: what it was sent.
type receiver struct {
	mu       sync.Mutex
	requests []*collectortrace.ExportTraceServiceRequest
	headers  []http.Header
}

func (rc *receiver) add(req *collectortrace.ExportTraceServiceRequest, h http.Header) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.requests = append(rc.requests, req)
	rc.headers = append(rc.headers, h)
}

// spans are the spans received, with the resource attributes they came
// with.
func (rc *receiver) spans() (spans []*tracepb.Span, resource map[string]string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	resource = map[string]string{}
	for _, req := range rc.requests {
		for _, rs := range req.ResourceSpans {
			for _, kv := range rs.Resource.GetAttributes() {
				resource[kv.Key] = kv.Value.GetStringValue()
			}
			for _, ss := range rs.ScopeSpans {
				spans = append(spans, ss.Spans...)
			}
		}
	}
	return spans, resource
}

// ServeHTTP is the OTLP/HTTP endpoint: POST /v1/traces with a protobuf
// ExportTraceServiceRequest, gzip-compressed or not.
func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "want POST /v1/traces application/x-protobuf", http.StatusBadRequest)
		return
	}
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	data, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req := &collectortrace.ExportTraceServiceRequest{}
	if err := proto.Unmarshal(data, req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rc.add(req, r.Header.Clone())
	out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

func attrOf(kvs []*commonpb.KeyValue, key string) *commonpb.AnyValue {
	for _, kv := range kvs {
		if kv.Key == key {
			return kv.Value
		}
	}
	return nil
}

// runTraced runs a program with one tool call through a runner whose
// provider FromEnv built from vars, flushes, and returns what rc received.
func runTraced(t *testing.T, rc *receiver, vars ...string) ([]*tracepb.Span, map[string]string) {
	t.Helper()
	p, err := telemetry.FromEnv(context.Background(), env(vars...), io.Discard, runner.Version)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Enabled() {
		t.Fatal("tracing is off")
	}
	r, err := runner.New(runner.WithTracerProvider(p.TracerProvider()))
	if err != nil {
		t.Fatal(err)
	}
	res := r.Exec(context.Background(), `demo.foo(text="x")`)
	r.Close()
	if res.IsError() {
		t.Fatal(res.Text)
	}
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	return rc.spans()
}

// checkExport checks that the run's span and its tool call's arrived, in
// one trace, with the service described by the environment.
func checkExport(t *testing.T, spans []*tracepb.Span, resource map[string]string) {
	t.Helper()
	var run, tool *tracepb.Span
	for _, s := range spans {
		switch s.Name {
		case "onetool.run":
			run = s
		case "onetool.tool":
			tool = s
		}
	}
	if run == nil || tool == nil {
		t.Fatalf("received %d spans, want onetool.run and onetool.tool", len(spans))
	}
	if !bytes.Equal(tool.ParentSpanId, run.SpanId) || !bytes.Equal(tool.TraceId, run.TraceId) {
		t.Errorf("tool span's parent %x in trace %x, want %x in %x", tool.ParentSpanId, tool.TraceId, run.SpanId, run.TraceId)
	}
	if v := attrOf(tool.Attributes, "onetool.tool").GetStringValue(); v != "demo.foo" {
		t.Errorf("onetool.tool = %q", v)
	}
	if v := attrOf(run.Attributes, "onetool.tool_calls").GetIntValue(); v != 1 {
		t.Errorf("onetool.tool_calls = %d", v)
	}
	if resource["service.name"] != "gateway" || resource["deployment.environment"] != "test env" || resource["service.version"] != runner.Version {
		t.Errorf("resource %v", resource)
	}
}

// Spans reach an OTLP/HTTP collector named by OTEL_EXPORTER_OTLP_ENDPOINT,
// with the configured headers, compression and resource, when the
// provider is shut down.
func TestExportOTLPHTTP(t *testing.T) {
	t.Parallel()
	for _, compression := range []string{"none", "gzip"} {
		rc := &receiver{}
		srv := httptest.NewServer(rc)
		spans, resource := runTraced(t, rc,
			"OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL,
			"OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20s3cret,x-team=tools",
			"OTEL_EXPORTER_OTLP_COMPRESSION", compression,
			"OTEL_SERVICE_NAME", "gateway",
			"OTEL_RESOURCE_ATTRIBUTES", "service.name=ignored,deployment.environment=test%20env")
		srv.Close()
		checkExport(t, spans, resource)
		rc.mu.Lock()
		h := rc.headers[0]
		rc.mu.Unlock()
		if h.Get("Authorization") != "Bearer s3cret" || h.Get("X-Team") != "tools" {
			t.Errorf("%s: headers %v, want those of OTEL_EXPORTER_OTLP_HEADERS", compression, h)
		}
		if got := h.Get("Content-Encoding"); (compression == "gzip") != (got == "gzip") {
			t.Errorf("%s: Content-Encoding %q", compression, got)
		}
	}
}

// A collector that does not answer holds up Shutdown no longer than its
// context allows.
func TestShutdownBounded(t *testing.T) {
	t.Parallel()
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-block }))
	defer srv.Close()
	defer close(block)
	p, err := telemetry.FromEnv(context.Background(), env("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL), io.Discard, "test")
	if err != nil {
		t.Fatal(err)
	}
	_, span := p.TracerProvider().Tracer("t").Start(context.Background(), "x")
	span.End()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = p.Shutdown(ctx)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Shutdown took %v", d)
	}
	if err == nil || !strings.Contains(err.Error(), "flushing traces to "+srv.URL+"/v1/traces") {
		t.Errorf("Shutdown = %v, want a flush error naming the endpoint", err)
	}
}

// A collector that answers 503 (Retry-After: 0) gets the batch again; one
// that refuses it (400) does not, and Shutdown reports its answer.
func TestExportRetries(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		statuses []int
		requests int
		err      string
	}{
		{"busy, then ok", []int{503, 200}, 2, ""},
		{"refused", []int{400, 200}, 1, "400 Bad Request: bad batch"},
	} {
		var mu sync.Mutex
		n := 0
		rc := &receiver{}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			status := tt.statuses[n]
			n++
			mu.Unlock()
			if status != 200 {
				w.Header().Set("Retry-After", "0")
				http.Error(w, "bad batch", status)
				return
			}
			rc.ServeHTTP(w, r)
		}))
		p, err := telemetry.FromEnv(context.Background(), env("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL), io.Discard, "test")
		if err != nil {
			t.Fatal(err)
		}
		_, span := p.TracerProvider().Tracer("t").Start(context.Background(), "x")
		span.End()
		err = p.Shutdown(context.Background())
		srv.Close()
		spans, _ := rc.spans()
		if n != tt.requests || (tt.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.err)) || (tt.err == "") != (len(spans) == 1) {
			t.Errorf("%s: %d requests, %d spans received, Shutdown = %v; want %d requests, error %q", tt.name, n, len(spans), err, tt.requests, tt.err)
		}
	}
}
