package runner

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/onetool-dev/onetool/runner/config"
)

// traced returns a runner whose spans go to the returned recorder.
func traced(t *testing.T, opts ...Option) (*Runner, *tracetest.SpanRecorder) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	r := newRunner(t, append(opts, WithTracerProvider(tp))...)
	t.Cleanup(func() { r.Close() })
	return r, rec
}

// spanTree indexes the ended spans of one trace.
type spanTree struct {
	t     *testing.T
	spans []sdktrace.ReadOnlySpan
}

func (s spanTree) named(name string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, sp := range s.spans {
		if sp.Name() == name {
			out = append(out, sp)
		}
	}
	return out
}

// one is the only span called name.
func (s spanTree) one(name string) sdktrace.ReadOnlySpan {
	s.t.Helper()
	got := s.named(name)
	if len(got) != 1 {
		s.t.Fatalf("%d spans %q, want 1 (spans: %v)", len(got), name, s.names())
	}
	return got[0]
}

func (s spanTree) names() []string {
	var out []string
	for _, sp := range s.spans {
		out = append(out, sp.Name())
	}
	return out
}

// withAttr are the spans called name whose attribute key is value.
func (s spanTree) withAttr(name, key, value string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, sp := range s.named(name) {
		if attr(sp, key) == value {
			out = append(out, sp)
		}
	}
	return out
}

func attr(sp sdktrace.ReadOnlySpan, key string) string {
	for _, kv := range sp.Attributes() {
		if string(kv.Key) == key {
			return kv.Value.Emit()
		}
	}
	return ""
}

func childOf(t *testing.T, child, parent sdktrace.ReadOnlySpan) {
	t.Helper()
	if child.Parent().SpanID() != parent.SpanContext().SpanID() || child.SpanContext().TraceID() != parent.SpanContext().TraceID() {
		t.Errorf("span %s %v: parent %s, want %s (%s)", child.Name(), child.Attributes(), child.Parent().SpanID(), parent.SpanContext().SpanID(), parent.Name())
	}
}

// A run is one span; its tool calls, plan steps and the calls of parallel()
// are its children, the calls of a plan step children of the step; a
// failing call and a failing run are marked as errors.
func TestTraceSpanTree(t *testing.T) {
	r, rec := traced(t)
	res := r.Exec(context.Background(), `a = demo.foo(text="x")
p = parallel([call(demo.add, a=1, b=2), call(demo.add, a=3, b=4)])
s = plan([{"id": "first", "tool": "demo.add", "args": {"a": 1, "b": 1}}, {"id": "second", "tool": "demo.fail", "depends_on": ["first"]}])
demo.fail(message="boom")`)
	if !res.IsError() {
		t.Fatalf("run = %q, want the error of demo.fail", res.Text)
	}
	tree := spanTree{t, rec.Ended()}
	run := tree.one("onetool.run")
	if run.Parent().IsValid() {
		t.Errorf("run span has parent %v, want a root", run.Parent())
	}
	if run.Status().Code != codes.Error || attr(run, "error.type") != "runtime" || attr(run, "onetool.outcome") != "error" {
		t.Errorf("run span status %v, attributes %v", run.Status(), run.Attributes())
	}
	if attr(run, "onetool.tool_calls") != "6" || attr(run, "onetool.isolation") != "none" {
		t.Errorf("run span attributes %v, want 6 tool calls, no isolation", run.Attributes())
	}
	if foo := tree.withAttr("onetool.tool", "onetool.tool", "demo.foo"); len(foo) != 1 {
		t.Errorf("demo.foo spans: %d, want 1", len(foo))
	} else {
		childOf(t, foo[0], run)
		if foo[0].Status().Code == codes.Error {
			t.Errorf("demo.foo span is an error: %v", foo[0].Status())
		}
	}
	adds := tree.withAttr("onetool.tool", "onetool.tool", "demo.add")
	if len(adds) != 3 {
		t.Fatalf("demo.add spans: %d, want 3 (2 parallel, 1 plan step)", len(adds))
	}
	steps := tree.named("onetool.plan.step")
	if len(steps) != 2 {
		t.Fatalf("plan step spans: %v", tree.names())
	}
	for _, st := range steps {
		childOf(t, st, run)
	}
	first := tree.withAttr("onetool.plan.step", "onetool.step", "first")[0]
	second := tree.withAttr("onetool.plan.step", "onetool.step", "second")[0]
	if attr(first, "onetool.status") != "ok" || first.Status().Code == codes.Error {
		t.Errorf("step first: %v %v", first.Status(), first.Attributes())
	}
	if attr(second, "onetool.status") != "failed" || second.Status().Code != codes.Error {
		t.Errorf("step second: %v %v", second.Status(), second.Attributes())
	}
	var parallelAdds int
	for _, a := range adds {
		switch a.Parent().SpanID() {
		case run.SpanContext().SpanID():
			parallelAdds++
		case first.SpanContext().SpanID():
		default:
			t.Errorf("demo.add span parented to %s, want the run or step first", a.Parent().SpanID())
		}
	}
	if parallelAdds != 2 {
		t.Errorf("%d demo.add spans under the run, want the 2 parallel calls", parallelAdds)
	}
	fails := tree.withAttr("onetool.tool", "onetool.tool", "demo.fail")
	if len(fails) != 2 {
		t.Fatalf("demo.fail spans: %d, want 2", len(fails))
	}
	for _, f := range fails {
		if f.Status().Code != codes.Error || attr(f, "error.type") != "execution" {
			t.Errorf("demo.fail span: %v %v, want an execution error", f.Status(), f.Attributes())
		}
	}
	for _, sp := range tree.spans {
		if sp.SpanContext().TraceID() != run.SpanContext().TraceID() {
			t.Errorf("span %s in another trace", sp.Name())
		}
	}
}

// A run started under a caller's span context (the MCP server puts the
// request's traceparent there) continues the caller's trace.
func TestTraceRemoteParent(t *testing.T) {
	r, rec := traced(t)
	parent := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{1, 2, 3}, SpanID: trace.SpanID{4, 5, 6}, TraceFlags: trace.FlagsSampled, Remote: true,
	})
	ctx := trace.ContextWithRemoteSpanContext(context.Background(), parent)
	if res := r.Exec(ctx, `demo.foo(text="x")`); res.IsError() {
		t.Fatal(res.Text)
	}
	run := spanTree{t, rec.Ended()}.one("onetool.run")
	if run.SpanContext().TraceID() != parent.TraceID() || run.Parent().SpanID() != parent.SpanID() {
		t.Errorf("run span %v parent %v, want the caller's %v", run.SpanContext(), run.Parent(), parent)
	}
}

// With process isolation the program runs in a worker, but its tool calls
// run here: their spans are children of the run's.
func TestTraceIsolatedToolCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("starts worker processes")
	}
	r, rec := traced(t, WithIsolation(Isolation{Workers: 1}))
	if res := r.Exec(context.Background(), `[demo.foo(text="x"), parallel([call(demo.add, a=1, b=2), call(demo.add, a=3, b=4)])]`); res.IsError() {
		t.Fatal(res.Text)
	}
	tree := spanTree{t, rec.Ended()}
	run := tree.one("onetool.run")
	if attr(run, "onetool.isolation") != "process" || attr(run, "onetool.tool_calls") != "3" {
		t.Errorf("run span attributes %v", run.Attributes())
	}
	tools := tree.named("onetool.tool")
	if len(tools) != 3 {
		t.Fatalf("tool spans: %v, want 3", tree.names())
	}
	for _, sp := range tools {
		childOf(t, sp, run)
	}
}

// A principal's name and policy, and a refusal by the policy, are on the
// run span.
func TestTraceDenied(t *testing.T) {
	r, rec := traced(t)
	res := r.Exec(context.Background(), `demo.foo(text="x")`, AsPrincipal(principal("ci", "reader", config.Policy{Allow: []string{"ot.*"}})))
	if !res.IsError() {
		t.Fatalf("run = %q, want refused", res.Text)
	}
	tree := spanTree{t, rec.Ended()}
	run := tree.one("onetool.run")
	if attr(run, "onetool.principal") != "ci" || attr(run, "onetool.policy") != "reader" || attr(run, "onetool.outcome") != "denied" {
		t.Errorf("run span attributes %v", run.Attributes())
	}
	tool := tree.one("onetool.tool")
	if attr(tool, "error.type") != "not_allowed" {
		t.Errorf("tool span attributes %v", tool.Attributes())
	}
}

// The no-op provider, and none, start no span: Tracing is off.
func TestTraceOff(t *testing.T) {
	for _, opts := range [][]Option{nil, {WithTracerProvider(noop.NewTracerProvider())}, {WithTracerProvider(nil)}} {
		if r := newRunner(t, opts...); r.Tracing() {
			t.Errorf("Tracing() with %d options = true", len(opts))
		}
	}
}

// BenchmarkExecTraced is BenchmarkExecOneCall with spans recorded (to an
// in-memory recorder): what tracing adds to a run of one tool call.
func BenchmarkExecTraced(b *testing.B) {
	rec := tracetest.NewSpanRecorder()
	r, err := New(WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))))
	if err != nil {
		b.Fatal(err)
	}
	benchExec(b, r, `demo.foo(text="x")`)
}

// BenchmarkExecTracingOff is BenchmarkExecOneCall with the provider
// telemetry.FromEnv returns when no OTLP endpoint is set: it must cost
// what no provider costs.
func BenchmarkExecTracingOff(b *testing.B) {
	r, err := New(WithTracerProvider(noop.NewTracerProvider()))
	if err != nil {
		b.Fatal(err)
	}
	benchExec(b, r, `demo.foo(text="x")`)
}
