package runner

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner/plan"
	"github.com/onetool-dev/onetool/runner/telemetry"
)

// Span names and attributes (docs/observability.md lists them for
// operators). Attribute values never hold arguments, results or error
// texts: those may carry secrets or users' data.
const (
	spanRun      = "onetool.run"
	spanTool     = "onetool.tool"
	spanPlanStep = "onetool.plan.step"
)

// WithTracerProvider records an OpenTelemetry span per run, tool call,
// plan step and upstream MCP call (SPEC §7.4), started from tp; see
// package telemetry. Without it, or with a no-op provider, the runner
// starts no span at all.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(r *Runner) {
		r.tracer = nil
		if telemetry.Enabled(tp) {
			r.tracer = tp.Tracer(telemetry.TracerName, trace.WithInstrumentationVersion(Version))
		}
	}
}

// Tracing reports whether the runner records spans: the MCP server reads
// the caller's trace context only then.
func (r *Runner) Tracing() bool { return r.tracer != nil }

// startRun starts the span of a run; the returned func ends it with the
// run's outcome.
func (r *Runner) startRun(ctx context.Context, st *runState, sess bool) (context.Context, func(*ExecResult)) {
	isolation := "none"
	if r.pool != nil && !sess {
		isolation = "process"
	}
	ctx, span := r.tracer.Start(ctx, spanRun, trace.WithAttributes(
		attribute.String("onetool.isolation", isolation),
		attribute.Bool("onetool.session_state", sess),
	))
	if p := st.principal; p != nil {
		span.SetAttributes(attribute.String("onetool.principal", p.Name))
		if p.Policy != nil {
			span.SetAttributes(attribute.String("onetool.policy", p.Policy.Name))
		}
	}
	return ctx, func(res *ExecResult) {
		outcome := "ok"
		if res.Err != nil {
			outcome = "error"
			if errors.Is(res.Err, packs.ErrNotAllowed) {
				outcome = "denied"
			}
			kind := errorKind(res.Err)
			span.SetAttributes(attribute.String("error.type", kind))
			span.SetStatus(codes.Error, kind)
		}
		span.SetAttributes(
			attribute.String("onetool.outcome", outcome),
			attribute.Int("onetool.tool_calls", res.ToolCalls),
		)
		span.End()
	}
}

// startTool starts the span of one tool call; end records its error.
func (r *Runner) startTool(ctx context.Context, id string) (context.Context, func(error)) {
	ctx, span := r.tracer.Start(ctx, spanTool, trace.WithAttributes(attribute.String("onetool.tool", id)))
	return ctx, func(err error) {
		if err != nil {
			kind := toolErrorKind(err)
			span.SetAttributes(attribute.String("error.type", kind))
			span.SetStatus(codes.Error, kind)
		}
		span.End()
	}
}

// traceStep is plan.Options.Trace: a span per plan step, around its
// attempts and retries.
func (r *Runner) traceStep(ctx context.Context, id, tool string) (context.Context, func(plan.StepResult)) {
	ctx, span := r.tracer.Start(ctx, spanPlanStep, trace.WithAttributes(
		attribute.String("onetool.step", id),
		attribute.String("onetool.tool", tool),
	))
	return ctx, func(s plan.StepResult) {
		span.SetAttributes(
			attribute.String("onetool.status", string(s.Status)),
			attribute.Int("onetool.attempts", s.Attempts),
		)
		if s.Status != plan.StatusOK {
			span.SetStatus(codes.Error, string(s.Status))
		}
		span.End()
	}
}

// toolErrorKind names the class of a failed tool call, for error.type.
func toolErrorKind(err error) string {
	for _, k := range []struct {
		err  error
		kind string
	}{
		{packs.ErrNotAllowed, "not_allowed"},
		{ErrToolCallLimit, "tool_call_limit"},
		{ErrNotConfirmed, "not_confirmed"},
		{ErrToolNotFound, "not_found"},
		{ErrInvalidToolID, "not_found"},
		{ErrValidation, "validation"},
		{ErrOutputValidation, "output_validation"},
		{ErrNoBackends, "no_backends"},
		{context.DeadlineExceeded, "timeout"},
		{context.Canceled, "cancelled"},
	} {
		if errors.Is(err, k.err) {
			return k.kind
		}
	}
	return "execution"
}
