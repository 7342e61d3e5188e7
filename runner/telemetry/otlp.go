package telemetry

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"google.golang.org/protobuf/encoding/protowire"
)

// otlpExporter sends spans to a collector over OTLP/HTTP with protobuf
// encoding (the OTLP specification's default). It is written here rather
// than taken from go.opentelemetry.io/otel/exporters/otlp: that exporter
// links gRPC and its protobuf descriptors, which cost every start of
// onetool ~4 MB of memory and ~60 package inits, traces on or off
// (docs/benchmarks.md#traces). The wire format is the stable OTLP v1
// (opentelemetry/proto/collector/trace/v1), written with protowire, which
// onetool links anyway; the tests decode it with the official types.
type otlpExporter struct {
	url     string
	headers map[string]string
	gzip    bool
	timeout time.Duration
	client  *http.Client
	stopped atomic.Bool

	// Failures go to warn, at most one line per warnEvery, since a
	// collector that is down fails every batch; the SDK would print them
	// through the process-wide otel error handler otherwise.
	warn     io.Writer
	mu       sync.Mutex
	warned   time.Time
	flushing atomic.Bool           // set by Provider.Shutdown: errors are kept for it instead
	lastErr  atomic.Pointer[error] // the last failure while flushing
}

// warnEvery spaces out the warnings of a failing export.
const warnEvery = time.Minute

// defaultTimeout is OTEL_EXPORTER_OTLP_TIMEOUT's default.
const defaultTimeout = 10 * time.Second

// maxResponse bounds what is read of a collector's answer.
const maxResponse = 64 << 10

func newOTLPExporter(url string, headers map[string]string, gz bool, timeout time.Duration, tlsCfg *tls.Config, warn io.Writer) *otlpExporter {
	if timeout <= 0 {
		timeout = defaultTimeout
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = tlsCfg
	return &otlpExporter{url: url, headers: headers, gzip: gz, timeout: timeout, client: &http.Client{Transport: tr}, warn: warn}
}

// ExportSpans sends one batch. A batch the collector refuses or cannot
// take is dropped and reported (see warn); runs go on.
func (e *otlpExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if err := e.export(ctx, spans); err != nil {
		e.report(err)
	}
	return nil
}

// report says that an export failed: to Shutdown while flushing, else on
// warn unless it did so less than warnEvery ago.
func (e *otlpExporter) report(err error) {
	if e.flushing.Load() {
		e.lastErr.Store(&err)
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if time.Since(e.warned) < warnEvery {
		return
	}
	e.warned = time.Now()
	fmt.Fprintf(e.warn, "onetool: traces: %v (spans are dropped until the collector answers; this is said at most once a minute)\n", err)
}

func (e *otlpExporter) export(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if e.stopped.Load() || len(spans) == 0 {
		return nil
	}
	body := encodeRequest(spans)
	if e.gzip {
		var zb bytes.Buffer
		zw := gzip.NewWriter(&zb)
		_, _ = zw.Write(body)
		_ = zw.Close()
		body = zb.Bytes()
	}
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	// A collector that is busy or restarting (429, 502, 503, 504, or no
	// connection) gets the batch again after a pause, within the timeout
	// (OTLP/HTTP specification).
	for attempt := 1; ; attempt++ {
		wait, err := e.send(ctx, body)
		if err == nil {
			return nil
		}
		if wait < 0 || attempt == maxAttempts {
			return fmt.Errorf("exporting %d spans to %s: %w", len(spans), e.url, err)
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("exporting %d spans to %s: %w (gave up: %w)", len(spans), e.url, err, ctx.Err())
		}
	}
}

// maxAttempts bounds the tries of one batch.
const maxAttempts = 3

// send posts one request. On failure it says how long to wait before
// trying again, or -1 when trying again cannot help.
func (e *otlpExporter) send(ctx context.Context, body []byte) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url, bytes.NewReader(body))
	if err != nil {
		return -1, err
	}
	for k, v := range e.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	if e.gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := e.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return -1, err
		}
		return time.Second, err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if resp.StatusCode/100 == 2 {
		return 0, nil
	}
	err = fmt.Errorf("%s", resp.Status)
	if mt := resp.Header.Get("Content-Type"); strings.HasPrefix(mt, "text/") || strings.HasPrefix(mt, "application/json") {
		err = fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(msg)) // a collector's explanation
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		wait := time.Second
		if n, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil && n >= 0 {
			wait = min(time.Duration(n)*time.Second, 5*time.Second)
		}
		return wait, err
	}
	return -1, err
}

// Shutdown stops sending; the SDK has flushed what was queued before.
func (e *otlpExporter) Shutdown(context.Context) error {
	e.stopped.Store(true)
	e.client.CloseIdleConnections()
	return nil
}

// tlsConfig reads the TLS files of OTEL_EXPORTER_OTLP_[TRACES_]CERTIFICATE,
// _CLIENT_CERTIFICATE and _CLIENT_KEY; nil when none is set.
func tlsConfig(either func(string) string) (*tls.Config, error) {
	ca, cert, key := either("CERTIFICATE"), either("CLIENT_CERTIFICATE"), either("CLIENT_KEY")
	if ca == "" && cert == "" && key == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_CERTIFICATE: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_CERTIFICATE: %s holds no PEM certificate", ca)
		}
	}
	if cert != "" || key != "" {
		if cert == "" || key == "" {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE and OTEL_EXPORTER_OTLP_CLIENT_KEY go together: set both or neither")
		}
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

// encodeRequest is the ExportTraceServiceRequest of spans: one
// ResourceSpans per resource, one ScopeSpans per instrumentation scope,
// in the order they first appear.
func encodeRequest(spans []sdktrace.ReadOnlySpan) []byte {
	type scopeKey struct {
		res   *resource.Resource
		scope instrumentation.Scope
	}
	var resources []*resource.Resource
	scopes := map[*resource.Resource][]instrumentation.Scope{}
	byScope := map[scopeKey][]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		res, sc := s.Resource(), s.InstrumentationScope()
		sc.Attributes = attribute.Set{} // not comparable as a key; onetool's scope has none
		k := scopeKey{res, sc}
		if _, ok := scopes[res]; !ok {
			resources = append(resources, res)
		}
		if _, ok := byScope[k]; !ok {
			scopes[res] = append(scopes[res], sc)
		}
		byScope[k] = append(byScope[k], s)
	}
	var out []byte
	for _, res := range resources {
		var rs []byte
		rs = message(rs, 1, appendAttrs(nil, 1, res.Attributes())) // resource
		for _, sc := range scopes[res] {
			var ss []byte
			var scope []byte
			scope = str(scope, 1, sc.Name)
			scope = str(scope, 2, sc.Version)
			ss = message(ss, 1, scope)
			for _, s := range byScope[scopeKey{res, sc}] {
				ss = message(ss, 2, encodeSpan(s))
			}
			ss = str(ss, 3, sc.SchemaURL)
			rs = message(rs, 2, ss)
		}
		rs = str(rs, 3, res.SchemaURL())
		out = message(out, 1, rs)
	}
	return out
}

// Span flags: the W3C trace flags, and whether the parent is remote.
const (
	flagHasIsRemote = 0x100
	flagIsRemote    = 0x200
)

func encodeSpan(s sdktrace.ReadOnlySpan) []byte {
	sc, parent := s.SpanContext(), s.Parent()
	tid, sid := sc.TraceID(), sc.SpanID()
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendBytes(b, tid[:])
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, sid[:])
	b = str(b, 3, sc.TraceState().String())
	if parent.SpanID().IsValid() {
		pid := parent.SpanID()
		b = protowire.AppendTag(b, 4, protowire.BytesType)
		b = protowire.AppendBytes(b, pid[:])
	}
	b = str(b, 5, s.Name())
	b = varint(b, 6, uint64(s.SpanKind()))
	b = fixed64(b, 7, unixNano(s.StartTime()))
	b = fixed64(b, 8, unixNano(s.EndTime()))
	b = appendAttrs(b, 9, s.Attributes())
	b = varint(b, 10, uint64(s.DroppedAttributes()))
	for _, ev := range s.Events() {
		var e []byte
		e = fixed64(e, 1, unixNano(ev.Time))
		e = str(e, 2, ev.Name)
		e = appendAttrs(e, 3, ev.Attributes)
		e = varint(e, 4, uint64(ev.DroppedAttributeCount))
		b = message(b, 11, e)
	}
	b = varint(b, 12, uint64(s.DroppedEvents()))
	for _, l := range s.Links() {
		ltid, lsid := l.SpanContext.TraceID(), l.SpanContext.SpanID()
		var e []byte
		e = protowire.AppendTag(e, 1, protowire.BytesType)
		e = protowire.AppendBytes(e, ltid[:])
		e = protowire.AppendTag(e, 2, protowire.BytesType)
		e = protowire.AppendBytes(e, lsid[:])
		e = str(e, 3, l.SpanContext.TraceState().String())
		e = appendAttrs(e, 4, l.Attributes)
		e = varint(e, 5, uint64(l.DroppedAttributeCount))
		b = message(b, 13, e)
	}
	b = varint(b, 14, uint64(s.DroppedLinks()))
	var code uint64 // OTLP numbers them Unset 0, Ok 1, Error 2
	switch s.Status().Code {
	case codes.Ok:
		code = 1
	case codes.Error:
		code = 2
	}
	var st []byte
	st = str(st, 2, s.Status().Description)
	st = varint(st, 3, code)
	b = message(b, 15, st)
	flags := uint32(sc.TraceFlags()) | flagHasIsRemote
	if parent.IsRemote() {
		flags |= flagIsRemote
	}
	b = protowire.AppendTag(b, 16, protowire.Fixed32Type)
	b = protowire.AppendFixed32(b, flags)
	return b
}

// appendAttrs appends each attribute as a KeyValue field num.
func appendAttrs(b []byte, num protowire.Number, attrs []attribute.KeyValue) []byte {
	for _, kv := range attrs {
		var e []byte
		e = str(e, 1, string(kv.Key))
		e = message(e, 2, anyValue(kv.Value))
		b = message(b, num, e)
	}
	return b
}

// anyValue is an AnyValue message.
func anyValue(v attribute.Value) []byte {
	var b []byte
	switch v.Type() {
	case attribute.BOOL:
		b = protowire.AppendTag(b, 2, protowire.VarintType)
		b = protowire.AppendVarint(b, protowire.EncodeBool(v.AsBool()))
	case attribute.INT64:
		b = protowire.AppendTag(b, 3, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(v.AsInt64()))
	case attribute.FLOAT64:
		b = protowire.AppendTag(b, 4, protowire.Fixed64Type)
		b = protowire.AppendFixed64(b, math.Float64bits(v.AsFloat64()))
	case attribute.BOOLSLICE, attribute.INT64SLICE, attribute.FLOAT64SLICE, attribute.STRINGSLICE:
		var arr []byte
		switch v.Type() {
		case attribute.BOOLSLICE:
			for _, x := range v.AsBoolSlice() {
				arr = message(arr, 1, anyValue(attribute.BoolValue(x)))
			}
		case attribute.INT64SLICE:
			for _, x := range v.AsInt64Slice() {
				arr = message(arr, 1, anyValue(attribute.Int64Value(x)))
			}
		case attribute.FLOAT64SLICE:
			for _, x := range v.AsFloat64Slice() {
				arr = message(arr, 1, anyValue(attribute.Float64Value(x)))
			}
		default:
			for _, x := range v.AsStringSlice() {
				arr = message(arr, 1, anyValue(attribute.StringValue(x)))
			}
		}
		b = message(b, 5, arr)
	default:
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendString(b, v.Emit())
	}
	return b
}

// message appends the embedded message m as field num (even when empty:
// a Status or a Resource without fields is still there).
func message(b []byte, num protowire.Number, m []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, m)
}

// str appends a string field, omitted when empty (proto3's default).
func str(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

// varint appends an unsigned or enum field, omitted when 0.
func varint(b []byte, num protowire.Number, v uint64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

func fixed64(b []byte, num protowire.Number, v uint64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.Fixed64Type)
	return protowire.AppendFixed64(b, v)
}

func unixNano(t time.Time) uint64 {
	if t.IsZero() {
		return 0
	}
	return uint64(t.UnixNano())
}

var _ sdktrace.SpanExporter = (*otlpExporter)(nil)
