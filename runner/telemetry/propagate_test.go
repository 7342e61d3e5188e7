package telemetry_test

import (
	"context"
	"net/http"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/onetool-dev/onetool/runner/telemetry"
)

func TestIncoming(t *testing.T) {
	t.Parallel()
	const (
		a = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
		b = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	)
	header := http.Header{"Traceparent": {a}}
	tests := []struct {
		name      string
		meta      map[string]any
		h         http.Header
		wantTrace string // "" for no parent
	}{
		{"nothing", nil, nil, ""},
		{"header", nil, header, "4bf92f3577b34da6a3ce929d0e0e4736"},
		{"_meta", map[string]any{"traceparent": b}, nil, "0af7651916cd43dd8448eb211c80319c"},
		{"_meta wins over the header", map[string]any{"traceparent": b}, header, "0af7651916cd43dd8448eb211c80319c"},
		{"a bad _meta falls back to the header", map[string]any{"traceparent": "00-zz-yy-01"}, header, "4bf92f3577b34da6a3ce929d0e0e4736"},
		{"a traceparent that is not a string", map[string]any{"traceparent": 7}, nil, ""},
		{"a bad header", nil, http.Header{"Traceparent": {"junk"}}, ""},
	}
	for _, tt := range tests {
		sc := trace.SpanContextFromContext(telemetry.Incoming(context.Background(), tt.meta, tt.h))
		if got := sc.TraceID(); (tt.wantTrace == "" && sc.IsValid()) || (tt.wantTrace != "" && (got.String() != tt.wantTrace || !sc.IsRemote())) {
			t.Errorf("%s: trace %s (valid %v), want %q", tt.name, got, sc.IsValid(), tt.wantTrace)
		}
	}
}
