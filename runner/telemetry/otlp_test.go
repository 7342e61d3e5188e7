package telemetry

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// What encodeRequest writes is what the official OTLP types read: every
// field a span can carry, checked by decoding with them.
func TestEncodeRequest(t *testing.T) {
	t.Parallel()
	rec := tracetest.NewSpanRecorder()
	res := resource.NewSchemaless(attribute.String("service.name", "svc"), attribute.Int("n", 7))
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec), sdktrace.WithResource(res))
	ts, _ := trace.ParseTraceState("vendor=x")
	parent := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{9}, SpanID: trace.SpanID{8}, TraceFlags: trace.FlagsSampled, TraceState: ts, Remote: true})
	link := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{7}, SpanID: trace.SpanID{6}})
	start := time.Unix(1_700_000_000, 123)
	ctx := trace.ContextWithRemoteSpanContext(context.Background(), parent)
	ctx, outer := tp.Tracer("scope-a", trace.WithInstrumentationVersion("1.2")).Start(ctx, "outer",
		trace.WithSpanKind(trace.SpanKindClient), trace.WithTimestamp(start), trace.WithLinks(trace.Link{SpanContext: link, Attributes: []attribute.KeyValue{attribute.String("why", "retry")}}),
		trace.WithAttributes(attribute.String("s", "é"), attribute.Bool("b", true), attribute.Int64("i", -3), attribute.Float64("f", 1.5),
			attribute.StringSlice("ss", []string{"a", "b"}), attribute.Int64Slice("is", []int64{1, 2}), attribute.BoolSlice("bs", []bool{true}), attribute.Float64Slice("fs", []float64{0.5})))
	outer.AddEvent("ev", trace.WithTimestamp(start.Add(time.Second)), trace.WithAttributes(attribute.Int("k", 1)))
	outer.SetStatus(codes.Error, "broke")
	_, inner := tp.Tracer("scope-b").Start(ctx, "inner")
	inner.RecordError(errors.New("x"))
	inner.SetStatus(codes.Ok, "")
	inner.End()
	outer.End(trace.WithTimestamp(start.Add(2 * time.Second)))

	req := &collectortrace.ExportTraceServiceRequest{}
	if err := proto.Unmarshal(encodeRequest(rec.Ended()), req); err != nil {
		t.Fatal(err)
	}
	if len(req.ResourceSpans) != 1 {
		t.Fatalf("%d resource spans", len(req.ResourceSpans))
	}
	rs := req.ResourceSpans[0]
	if len(rs.Resource.Attributes) != 2 || rs.Resource.Attributes[0].Value.GetIntValue() != 7 || rs.Resource.Attributes[1].Value.GetStringValue() != "svc" {
		t.Errorf("resource %v", rs.Resource)
	}
	if len(rs.ScopeSpans) != 2 || rs.ScopeSpans[0].Scope.Name != "scope-b" || rs.ScopeSpans[1].Scope.Name != "scope-a" || rs.ScopeSpans[1].Scope.Version != "1.2" {
		t.Fatalf("scopes %v", rs.ScopeSpans)
	}
	in, out := rs.ScopeSpans[0].Spans[0], rs.ScopeSpans[1].Spans[0]
	oc := rec.Ended()[1].SpanContext()
	oid, tid := oc.SpanID(), parent.TraceID()
	if !bytes.Equal(out.TraceId, tid[:]) || !bytes.Equal(out.SpanId, oid[:]) || !bytes.Equal(in.ParentSpanId, oid[:]) || !bytes.Equal(in.TraceId, tid[:]) {
		t.Errorf("ids: outer %x/%x, inner %x under %x", out.TraceId, out.SpanId, in.TraceId, in.ParentSpanId)
	}
	pid := parent.SpanID()
	if !bytes.Equal(out.ParentSpanId, pid[:]) || out.TraceState != "vendor=x" || out.Flags != 0x301 || in.Flags != 0x101 {
		t.Errorf("outer parent %x, state %q, flags %#x; inner flags %#x", out.ParentSpanId, out.TraceState, out.Flags, in.Flags)
	}
	if out.Name != "outer" || out.Kind != tracepb.Span_SPAN_KIND_CLIENT || in.Kind != tracepb.Span_SPAN_KIND_INTERNAL {
		t.Errorf("name %q kind %v, inner kind %v", out.Name, out.Kind, in.Kind)
	}
	if out.StartTimeUnixNano != uint64(start.UnixNano()) || out.EndTimeUnixNano != uint64(start.Add(2*time.Second).UnixNano()) {
		t.Errorf("times %d %d", out.StartTimeUnixNano, out.EndTimeUnixNano)
	}
	if out.Status.Code != tracepb.Status_STATUS_CODE_ERROR || out.Status.Message != "broke" || in.Status.Code != tracepb.Status_STATUS_CODE_OK {
		t.Errorf("status %v, inner %v", out.Status, in.Status)
	}
	got := map[string]string{}
	for _, kv := range out.Attributes {
		got[kv.Key] = kv.Value.String()
	}
	want := map[string]string{}
	for _, kv := range []struct{ k, v string }{
		{"s", `string_value:"é"`}, {"b", "bool_value:true"}, {"i", "int_value:-3"}, {"f", "double_value:1.5"},
		{"ss", `array_value:{values:{string_value:"a"} values:{string_value:"b"}}`}, {"is", "array_value:{values:{int_value:1} values:{int_value:2}}"},
		{"bs", "array_value:{values:{bool_value:true}}"}, {"fs", "array_value:{values:{double_value:0.5}}"},
	} {
		want[kv.k] = kv.v
	}
	for k, v := range want {
		// prototext spacing is not stable: compare without spaces.
		if g := got[k]; string(bytes.ReplaceAll([]byte(g), []byte(" "), nil)) != string(bytes.ReplaceAll([]byte(v), []byte(" "), nil)) {
			t.Errorf("attribute %s = %s, want %s", k, g, v)
		}
	}
	if len(out.Events) != 1 || out.Events[0].Name != "ev" || out.Events[0].TimeUnixNano != uint64(start.Add(time.Second).UnixNano()) || out.Events[0].Attributes[0].Value.GetIntValue() != 1 {
		t.Errorf("events %v", out.Events)
	}
	lt, ls := link.TraceID(), link.SpanID()
	if len(out.Links) != 1 || !bytes.Equal(out.Links[0].TraceId, lt[:]) || !bytes.Equal(out.Links[0].SpanId, ls[:]) || out.Links[0].Attributes[0].Value.GetStringValue() != "retry" {
		t.Errorf("links %v", out.Links)
	}
	if len(in.Events) != 1 || in.Events[0].Name != "exception" {
		t.Errorf("inner events %v", in.Events)
	}
}

// While serving, a collector that cannot be reached is said once on the
// warning stream, not once per batch, and the batch is dropped.
func TestExportWarnsOnce(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL + "/v1/traces"
	srv.Close() // nothing listens there any more
	var warn bytes.Buffer
	e := newOTLPExporter(url, nil, false, 200*time.Millisecond, nil, &warn)
	rec := tracetest.NewSpanRecorder()
	_, span := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)).Tracer("t").Start(context.Background(), "x")
	span.End()
	for range 2 {
		if err := e.ExportSpans(context.Background(), rec.Ended()); err != nil {
			t.Fatalf("ExportSpans = %v: a failed batch is dropped, not an error for the SDK", err)
		}
	}
	if got := strings.Count(warn.String(), "\n"); got != 1 || !strings.HasPrefix(warn.String(), "onetool: traces: exporting 1 spans to "+url+": ") {
		t.Errorf("warnings:\n%s\nwant one line", warn.String())
	}
}
