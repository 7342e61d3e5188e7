package mcpclient

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// w3c writes the W3C trace context (traceparent, tracestate): into the
// HTTP headers of a call (captureTransport) and into its _meta, where
// MCP servers on any transport can read it.
var w3c propagation.TraceContext

// startSpan starts the client span of one tools/call; end records its
// outcome. The span names follow OpenTelemetry's MCP conventions.
func (s *Server) startSpan(ctx context.Context, tool string) (context.Context, func(error)) {
	transport := "stdio"
	if s.spec.URL != "" {
		transport = "http"
	}
	ctx, span := s.tracer.Start(ctx, "tools/call "+tool, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(
			attribute.String("mcp.method.name", "tools/call"),
			attribute.String("gen_ai.tool.name", tool),
			attribute.String("onetool.server", s.spec.Name),
			attribute.String("network.transport", transport),
		))
	return ctx, func(err error) {
		if err != nil {
			kind := "error"
			if errors.Is(err, ErrToolFailed) {
				kind = "tool_error" // the server answered with isError
			}
			span.SetAttributes(attribute.String("error.type", kind))
			span.SetStatus(codes.Error, kind)
		}
		span.End()
	}
}

// injectMeta puts the trace context of ctx's span into the call's _meta.
func injectMeta(ctx context.Context, params *mcp.CallToolParams) {
	c := propagation.MapCarrier{}
	w3c.Inject(ctx, c)
	if len(c) == 0 {
		return
	}
	m := params.GetMeta()
	if m == nil {
		m = map[string]any{}
		params.SetMeta(m)
	}
	for k, v := range c {
		m[k] = v
	}
}
