package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// The go-sdk decodes results into Go structs whose JSON-object fields are
// map[string]any: a tool's inputSchema and a call's structuredContent lose
// the order of their keys there. onetool promises that order (a schema's
// property order is the order of positional arguments; a result's keys
// come back as the server wrote them), so this file keeps a copy of the
// raw JSON result of the requests that need it.
//
// A caller puts a *capture in the context of its request. The context
// travels with the request down to the transport: the stdio connection
// wrapper (captureConn) sees it in Write and remembers the request's id,
// then records the response with that id in Read; the HTTP round tripper
// (captureTransport) sees it as the HTTP request's context and records the
// JSON-RPC response in the body, plain JSON or server-sent events. Both
// record before the go-sdk gets the message, so the result is there when
// the call returns. When nothing was captured (a result served from the
// go-sdk's cache, say) callers fall back to re-encoding the decoded value,
// with sorted keys.

type captureKey struct{}

// capture collects the raw results of the responses to the requests sent
// with its context, in arrival order.
type capture struct {
	mu      sync.Mutex
	results []json.RawMessage
}

func withCapture(ctx context.Context, c *capture) context.Context {
	return context.WithValue(ctx, captureKey{}, c)
}

func captureFrom(ctx context.Context) *capture {
	c, _ := ctx.Value(captureKey{}).(*capture)
	return c
}

func (c *capture) add(raw json.RawMessage) {
	c.mu.Lock()
	c.results = append(c.results, bytes.Clone(raw))
	c.mu.Unlock()
}

// all returns the results captured so far.
func (c *capture) all() []json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.results
}

// last returns the last result captured, or nil.
func (c *capture) last() json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.results) == 0 {
		return nil
	}
	return c.results[len(c.results)-1]
}

// captureConn wraps the connection of a stdio transport. Besides
// capturing results it makes Close idempotent and observable: the go-sdk
// closes the connection itself when the server's stdout ends, and once
// closed is closed, the process has been waited for (exec.Cmd.ProcessState
// may be read) and its process group ended.
type captureConn struct {
	mcp.Connection
	pending sync.Map // jsonrpc.ID → *capture

	afterClose func()
	once       sync.Once
	closed     chan struct{}
	closeErr   error
}

func newCaptureConn(c mcp.Connection, afterClose func()) *captureConn {
	return &captureConn{Connection: c, afterClose: afterClose, closed: make(chan struct{})}
}

func (c *captureConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		if cp := captureFrom(ctx); cp != nil {
			c.pending.Store(req.ID, cp)
		}
	}
	return c.Connection.Write(ctx, msg)
}

func (c *captureConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		if cp, ok := c.pending.LoadAndDelete(resp.ID); ok && resp.Error == nil {
			cp.(*capture).add(resp.Result)
		}
	}
	return msg, err
}

// forget drops the pending entries of cp: a cancelled call never gets its
// response, and its id must not stay here forever.
func (c *captureConn) forget(cp *capture) {
	c.pending.Range(func(k, v any) bool {
		if v == cp {
			c.pending.Delete(k)
		}
		return true
	})
}

// Close closes the connection once; every caller waits for that one close
// to finish and gets its result.
func (c *captureConn) Close() error {
	c.once.Do(func() {
		c.closeErr = c.Connection.Close()
		if c.afterClose != nil {
			c.afterClose()
		}
		close(c.closed)
	})
	<-c.closed
	return c.closeErr
}

// isClosed reports whether Close has finished.
func (c *captureConn) isClosed() bool {
	select {
	case <-c.closed:
		return true
	default:
		return false
	}
}

// captureTransport is the http.RoundTripper of an HTTP server: it adds the
// configured headers to every request and captures results for requests
// whose context carries a *capture.
type captureTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

func (t *captureTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	traced := trace.SpanContextFromContext(req.Context()).IsValid()
	if len(t.headers) > 0 || traced {
		req = req.Clone(req.Context())
		if traced { // a call made under a span: the server continues its trace
			w3c.Inject(req.Context(), propagation.HeaderCarrier(req.Header))
		}
		for k, v := range t.headers {
			if http.CanonicalHeaderKey(k) == "Host" {
				req.Host = v
				continue
			}
			req.Header.Set(k, v)
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil || req.Method != http.MethodPost || resp.Body == nil {
		return resp, err
	}
	if cp := captureFrom(req.Context()); cp != nil {
		mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		resp.Body = &bodyCapture{rc: resp.Body, sse: mt == "text/event-stream", cp: cp}
	}
	return resp, err
}

// maxCapture bounds what bodyCapture buffers for one message; a larger
// result is simply not captured (callers fall back to sorted keys).
const maxCapture = 32 << 20

// bodyCapture passes an HTTP response body through unchanged while
// picking out the JSON-RPC responses in it: the whole body for
// application/json, each event's data for text/event-stream. It records a
// message as soon as its last byte has been read, before handing those
// bytes on, so the record precedes the go-sdk's delivery of the message.
type bodyCapture struct {
	rc  io.ReadCloser
	sse bool
	cp  *capture

	mu sync.Mutex // Close may race with a Read

	line     []byte // SSE: the current, incomplete line
	data     []byte // SSE: the data of the current event; JSON: the body
	overflow bool
	finished bool
}

func (b *bodyCapture) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.mu.Lock()
	if n > 0 && !b.overflow && !b.finished {
		b.feed(p[:n])
	}
	if err == io.EOF {
		b.finish()
	}
	b.mu.Unlock()
	return n, err
}

// Close records nothing more: a body closed before its end holds no
// complete response that was not already recorded.
func (b *bodyCapture) Close() error {
	b.mu.Lock()
	b.finished = true
	b.mu.Unlock()
	return b.rc.Close()
}

func (b *bodyCapture) feed(p []byte) {
	if !b.sse {
		b.data = append(b.data, p...)
		b.overflow = len(b.data) > maxCapture
		return
	}
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			b.line = append(b.line, p...)
			b.overflow = len(b.line) > maxCapture
			return
		}
		b.line = append(b.line, p[:i]...)
		p = p[i+1:]
		b.sseLine(bytes.TrimSuffix(b.line, []byte("\r")))
		b.line = b.line[:0]
	}
}

// sseLine handles one line of an event stream: data lines accumulate, a
// blank line ends the event.
func (b *bodyCapture) sseLine(line []byte) {
	switch {
	case len(line) == 0:
		b.dispatch(b.data)
		b.data = b.data[:0]
	case bytes.HasPrefix(line, []byte("data:")):
		v := bytes.TrimPrefix(line[len("data:"):], []byte(" "))
		if len(b.data) > 0 {
			b.data = append(b.data, '\n')
		}
		b.data = append(b.data, v...)
		b.overflow = len(b.data) > maxCapture
	}
}

func (b *bodyCapture) finish() {
	if b.finished || b.overflow {
		return
	}
	b.finished = true
	if b.sse {
		if len(b.line) > 0 {
			b.sseLine(b.line)
		}
		b.dispatch(b.data)
		return
	}
	b.dispatch(b.data)
}

// dispatch records msg when it is a successful JSON-RPC response.
func (b *bodyCapture) dispatch(msg []byte) {
	if len(bytes.TrimSpace(msg)) == 0 {
		return
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(msg, &m) != nil || len(m.ID) == 0 || len(m.Result) == 0 {
		return
	}
	b.cp.add(m.Result)
}
