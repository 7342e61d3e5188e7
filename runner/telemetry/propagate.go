package telemetry

import (
	"context"
	"net/http"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// The W3C trace context (traceparent, tracestate) is the one format
// onetool reads and writes: the OTel default, and the one MCP's _meta
// proposal names.
var w3c propagation.TraceContext

// Keys of the trace context, as HTTP headers and as MCP _meta keys.
const (
	TraceparentKey = "traceparent"
	TracestateKey  = "tracestate"
)

// FromHeaders returns ctx with the remote parent named by h's traceparent
// and tracestate headers, or ctx itself when they name none.
func FromHeaders(ctx context.Context, h http.Header) context.Context {
	if h.Get(TraceparentKey) == "" {
		return ctx
	}
	return w3c.Extract(ctx, propagation.HeaderCarrier(h))
}

// FromMeta is FromHeaders for the _meta of an MCP request, whose
// "traceparent" and "tracestate" keys hold the same strings. It reports
// whether meta named a valid parent.
func FromMeta(ctx context.Context, meta map[string]any) (context.Context, bool) {
	tp, _ := meta[TraceparentKey].(string)
	if tp == "" {
		return ctx, false
	}
	c := propagation.MapCarrier{TraceparentKey: tp}
	if ts, ok := meta[TracestateKey].(string); ok && ts != "" {
		c[TracestateKey] = ts
	}
	out := w3c.Extract(ctx, c)
	if !trace.SpanContextFromContext(out).IsRemote() {
		return ctx, false
	}
	return out, true
}

// Incoming returns ctx with the caller's trace context as the remote
// parent of the spans started under it: from the request's _meta when it
// has one, else from its HTTP headers (nil for stdio).
func Incoming(ctx context.Context, meta map[string]any, h http.Header) context.Context {
	if out, ok := FromMeta(ctx, meta); ok {
		return out
	}
	if h != nil {
		return FromHeaders(ctx, h)
	}
	return ctx
}
