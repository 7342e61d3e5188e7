// Package telemetry builds onetool's OpenTelemetry tracer provider from the
// standard OTEL_* environment variables (SPEC §7.4), and carries the W3C
// trace context in and out of MCP requests.
//
// Nothing here is global: FromEnv returns a Provider that the command line
// hands to the runner (runner.WithTracerProvider); the process-wide
// otel.SetTracerProvider is never called. Spans go over OTLP http/protobuf
// (the specification's default protocol; see otlp.go for why the exporter
// is our own and gRPC is not offered). Without an OTLP endpoint (or with
// OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none) the provider is the
// no-op one: no exporter, no goroutine, and the runner skips its spans.
package telemetry

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// TracerName is the instrumentation scope of onetool's spans.
const TracerName = "github.com/onetool-dev/onetool"

// DefaultServiceName is service.name unless OTEL_SERVICE_NAME or
// OTEL_RESOURCE_ATTRIBUTES say otherwise.
const DefaultServiceName = "onetool"

// ShutdownTimeout bounds the flush of spans on exit when the caller's
// context has no earlier deadline: a collector that is down must not hold
// up a shutdown.
const ShutdownTimeout = 5 * time.Second

// Lookup reads one environment variable; os.LookupEnv is the usual one.
// Tests pass their own, so that they can run in parallel.
type Lookup func(name string) (string, bool)

// Provider is the tracer provider of one onetool process.
type Provider struct {
	tp  trace.TracerProvider
	sdk *sdktrace.TracerProvider // nil when tracing is off
	exp *otlpExporter
	// Endpoint is the URL spans are sent to; "" when tracing is off.
	Endpoint string
}

// Off is the provider of a process that does not trace.
func Off() *Provider { return &Provider{tp: noop.NewTracerProvider()} }

// TracerProvider is what the runner and the MCP server start spans with.
func (p *Provider) TracerProvider() trace.TracerProvider { return p.tp }

// Enabled reports whether spans are recorded and exported.
func (p *Provider) Enabled() bool { return p != nil && p.sdk != nil }

// Shutdown sends the spans not yet exported and stops the exporter, within
// ShutdownTimeout or ctx's deadline, whichever comes first. It does
// nothing when tracing is off.
func (p *Provider) Shutdown(ctx context.Context) error {
	if !p.Enabled() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, ShutdownTimeout)
	defer cancel()
	p.exp.flushing.Store(true) // the last batches' errors are Shutdown's
	err := p.sdk.Shutdown(ctx)
	if last := p.exp.lastErr.Load(); err == nil && last != nil {
		err = *last
	}
	if err != nil {
		return fmt.Errorf("flushing traces to %s: %w", p.Endpoint, err)
	}
	return nil
}

// Enabled reports whether tp records spans: false for nil and for the
// no-op provider, so that callers can skip their spans altogether.
func Enabled(tp trace.TracerProvider) bool {
	switch tp.(type) {
	case nil, noop.TracerProvider, *noop.TracerProvider:
		return false
	}
	return true
}

// FromEnv builds the tracer provider the OTEL_* variables describe (read
// through env; nil means os.LookupEnv). Warnings about values it ignores
// go to warn. version becomes service.version.
//
// Read here: OTEL_SDK_DISABLED, OTEL_TRACES_EXPORTER (otlp or none),
// OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT, _PROTOCOL, _HEADERS, _TIMEOUT,
// _COMPRESSION, _CERTIFICATE, _CLIENT_CERTIFICATE, _CLIENT_KEY,
// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES. The SDK itself reads the
// sampler (OTEL_TRACES_SAMPLER[_ARG]) and the batching (OTEL_BSP_*) from
// the process environment.
func FromEnv(ctx context.Context, env Lookup, warn io.Writer, version string) (*Provider, error) {
	if env == nil {
		env = os.LookupEnv
	}
	if warn == nil {
		warn = io.Discard
	}
	get := func(name string) string {
		v, _ := env(name)
		return strings.TrimSpace(v)
	}
	// The traces-specific variable wins over the general one.
	either := func(suffix string) string {
		if v := get("OTEL_EXPORTER_OTLP_TRACES_" + suffix); v != "" {
			return v
		}
		return get("OTEL_EXPORTER_OTLP_" + suffix)
	}
	if strings.EqualFold(get("OTEL_SDK_DISABLED"), "true") {
		return Off(), nil
	}
	exporter := strings.ToLower(get("OTEL_TRACES_EXPORTER"))
	switch exporter {
	case "", "otlp":
	case "none":
		return Off(), nil
	default:
		fmt.Fprintf(warn, "onetool: OTEL_TRACES_EXPORTER=%s is not supported (only otlp and none are): traces are off\n", exporter)
		return Off(), nil
	}
	endpoint, err := endpointURL(get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"), get("OTEL_EXPORTER_OTLP_ENDPOINT"))
	if err != nil {
		return nil, err
	}
	if endpoint == "" {
		if exporter == "" {
			return Off(), nil // nobody asked for traces
		}
		endpoint = "http://localhost:4318/v1/traces" // the OTLP/HTTP default
	}
	switch p := strings.ToLower(either("PROTOCOL")); p {
	case "", "http/protobuf":
	case "grpc", "http/json":
		fmt.Fprintf(warn, "onetool: OTEL_EXPORTER_OTLP_PROTOCOL=%s is not supported: onetool exports traces over OTLP http/protobuf only; "+
			"set OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf and point the endpoint at the collector's HTTP port (4318). Traces are off\n", p)
		return Off(), nil
	default:
		fmt.Fprintf(warn, "onetool: OTEL_EXPORTER_OTLP_PROTOCOL=%s is not an OTLP protocol (http/protobuf): using http/protobuf\n", p)
	}
	var headers map[string]string
	if h := either("HEADERS"); h != "" {
		if headers, err = parseList(h); err != nil {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_HEADERS: %w", err)
		}
	}
	var timeout time.Duration
	if t := either("TIMEOUT"); t != "" {
		ms, err := strconv.Atoi(t)
		if err != nil || ms <= 0 {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_TIMEOUT=%s: want a positive number of milliseconds, e.g. 10000", t)
		}
		timeout = time.Duration(ms) * time.Millisecond
	}
	gzip := false
	switch c := strings.ToLower(either("COMPRESSION")); c {
	case "", "none":
	case "gzip":
		gzip = true
	default:
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_COMPRESSION=%s: want gzip or none", c)
	}
	tlsCfg, err := tlsConfig(either)
	if err != nil {
		return nil, err
	}
	// Constructing the exporter connects to nothing: the first batch of
	// spans opens the connection, so a collector not up yet delays nothing.
	exp := newOTLPExporter(endpoint, headers, gzip, timeout, tlsCfg, warn)
	res, err := newResource(get, version)
	if err != nil {
		return nil, err
	}
	sdk := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return &Provider{tp: sdk, sdk: sdk, exp: exp, Endpoint: endpoint}, nil
}

// endpointURL is where spans go: the traces endpoint as is, or the
// general endpoint with /v1/traces appended (OTLP exporter spec).
func endpointURL(traces, general string) (string, error) {
	name, raw := "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", traces
	if raw == "" {
		name, raw = "OTEL_EXPORTER_OTLP_ENDPOINT", general
	}
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%s=%s: want an http:// or https:// URL, e.g. http://localhost:4318", name, raw)
	}
	if traces == "" {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/v1/traces"
	}
	return u.String(), nil
}

// newResource describes this process: service.name (OTEL_SERVICE_NAME,
// else OTEL_RESOURCE_ATTRIBUTES, else "onetool"), service.version and the
// other OTEL_RESOURCE_ATTRIBUTES.
func newResource(get func(string) string, version string) (*resource.Resource, error) {
	attrs := []attribute.KeyValue{
		attribute.String("service.name", DefaultServiceName),
		attribute.String("service.version", version),
		attribute.String("telemetry.sdk.language", "go"),
		attribute.String("telemetry.sdk.name", "opentelemetry"),
	}
	if ra := get("OTEL_RESOURCE_ATTRIBUTES"); ra != "" {
		kv, err := parseList(ra)
		if err != nil {
			return nil, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES: %w", err)
		}
		for k, v := range kv {
			attrs = append(attrs, attribute.String(k, v))
		}
	}
	if name := get("OTEL_SERVICE_NAME"); name != "" {
		attrs = append(attrs, attribute.String("service.name", name))
	}
	// Of equal keys the last wins: the order above is the precedence.
	return resource.NewSchemaless(attrs...), nil
}

// parseList reads "key1=value1,key2=value2" with percent-encoded values,
// the format of OTEL_EXPORTER_OTLP_HEADERS and OTEL_RESOURCE_ATTRIBUTES.
func parseList(s string) (map[string]string, error) {
	out := map[string]string{}
	for item := range strings.SplitSeq(s, ",") {
		if strings.TrimSpace(item) == "" {
			continue
		}
		k, v, ok := strings.Cut(item, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("%q is not key=value (want a comma-separated list like key1=value1,key2=value2)", item)
		}
		dv, err := url.PathUnescape(strings.TrimSpace(v))
		if err != nil {
			return nil, fmt.Errorf("the value of %s: %w", k, err)
		}
		out[k] = dv
	}
	return out, nil
}
