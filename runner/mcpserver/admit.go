package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner/ratelimit"
)

// Admission (SPEC §7.4): the rate limits, the bound on runs in flight and
// the drain decide on the requests go-sdk dispatches, in a middleware on
// its method handling, never on a parse of the HTTP body of their own. A
// parse of its own reads a body otherwise than the SDK does
// (encoding/json matches keys case-insensitively and takes a duplicate's
// last value, so `"Method":"x"` beside `"method":"tools/call"` hid a run
// from it) and misses the messages of a JSON-RPC batch, each of which the
// SDK dispatches, and each of which is counted here.
//
// What the client sees: a refused request gets a JSON-RPC error (code
// CodeRefused, the message saying which bound and when to retry, data
// {"retry_after": seconds}). Over HTTP, when the POST carried that one
// request, the answer is that error as the body of 429 Too Many Requests
// (rate limits) or 503 Service Unavailable (draining) with Retry-After,
// which HTTP clients, load balancers and the TypeScript SDK's client
// (StreamableHTTPError with the status and the body) report as such. The
// refused messages of a batch answer in the batch, each with its error:
// the batch's other answers must not be lost to one refusal.

// CodeRefused is the JSON-RPC error code of a request refused by a rate
// limit or by draining: the first code JSON-RPC leaves to servers.
const CodeRefused = -32000

// exchangeHeader names, in the request headers go-sdk hands to method
// handlers with each message (RequestExtra.Header), the HTTP exchange the
// message came in: how a refusal decided on the message reaches the HTTP
// answer. Whatever value a client sends is replaced.
const exchangeHeader = "Onetool-Exchange"

// exchange is one POST to /mcp, as the admission middleware sees it.
type exchange struct {
	// draining is set when the POST arrived while the server drains:
	// the requests it carries are refused (those of a POST admitted
	// before still run).
	draining bool
	body     *sniffer

	mu      sync.Mutex
	refusal *refusal // the first request refused, if any
}

// refusal is how an HTTP answer says a request was refused.
type refusal struct {
	status     int    // 429 or 503
	retryAfter string // seconds
}

func (ex *exchange) refuse(status int, retryAfter string) {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	if ex.refusal == nil {
		ex.refusal = &refusal{status, retryAfter}
	}
}

func (ex *exchange) refused() *refusal {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	return ex.refusal
}

// exchanges are the POSTs in flight of one HTTPHandler, by id.
type exchanges struct {
	prefix string // random per handler: several handlers may share a server
	seq    atomic.Uint64
	mu     sync.Mutex
	live   map[string]*exchange
}

func newExchanges() *exchanges {
	return &exchanges{prefix: rand.Text()[:8] + "-", live: map[string]*exchange{}}
}

// open records ex under a new id, and returns the id.
func (xs *exchanges) open(ex *exchange) string {
	id := xs.prefix + strconv.FormatUint(xs.seq.Add(1), 10)
	xs.mu.Lock()
	xs.live[id] = ex
	xs.mu.Unlock()
	return id
}

func (xs *exchanges) close(id string) {
	xs.mu.Lock()
	delete(xs.live, id)
	xs.mu.Unlock()
}

func (xs *exchanges) get(id string) *exchange {
	xs.mu.Lock()
	defer xs.mu.Unlock()
	return xs.live[id]
}

type exchangeKey struct{}

// exchangeFrom returns the HTTP exchange a request came in, or nil (stdio,
// in-memory transports).
func exchangeFrom(ctx context.Context) *exchange {
	ex, _ := ctx.Value(exchangeKey{}).(*exchange)
	return ex
}

// middleware ties each message go-sdk dispatches to the HTTP exchange it
// came in (see exchangeFrom).
func (xs *exchanges) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if extra := req.GetExtra(); extra != nil && extra.Header != nil {
			if ex := xs.get(extra.Header.Get(exchangeHeader)); ex != nil {
				ctx = context.WithValue(ctx, exchangeKey{}, ex)
			}
		}
		return next(ctx, method, req)
	}
}

// methodRun is the method of a run: every tools/call, since run is the
// only tool.
const methodRun = "tools/call"

// admit is the admission middleware of the server: while an HTTP exchange
// that arrived during the drain carries a request, it is refused; a run
// over its principal's rate limit is refused; an admitted run holds its
// slot of serve.rate_limit.concurrent until its handler returns.
func (h *handler) admit(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if strings.HasPrefix(method, "notifications/") {
			return next(ctx, method, req) // cancellations and the like concern work in flight
		}
		ex := exchangeFrom(ctx)
		if d := h.opts.Drain; d != nil && ex != nil && ex.draining {
			d.noteRefused()
			ex.refuse(http.StatusServiceUnavailable, DrainRetryAfter)
			return nil, refusedError(drainingHTTPText, DrainRetryAfter)
		}
		if method == methodRun && h.opts.RateLimit != nil && !resuming(req) && !asksForRoots(req) {
			pr := principalOf(req)
			name := ""
			if pr != nil {
				name = pr.Name
			}
			release, err := h.opts.RateLimit.Acquire(ctx, pr.Key(), name)
			if err != nil {
				secs := "1"
				var rf *ratelimit.Refusal
				if errors.As(err, &rf) {
					secs = strconv.Itoa(rf.Seconds())
				}
				if ex != nil {
					ex.refuse(http.StatusTooManyRequests, secs)
				}
				return nil, refusedError("Error: "+err.Error(), secs)
			}
			sl := &slot{release: release}
			defer sl.end()
			ctx = context.WithValue(ctx, slotKey{}, sl)
		}
		return next(ctx, method, req)
	}
}

// resuming reports whether req answers a run parked for the user's
// confirmation (protocol 2026-07-28): the same run, which holds its slot
// already, not a new one.
func resuming(req mcp.Request) bool {
	call, ok := req.(*mcp.CallToolRequest)
	return ok && call.Params != nil && call.Params.RequestState != ""
}

// slot is an admitted run's place in serve.rate_limit.concurrent. It is
// given back when the request's handler returns, unless the run outlives
// it (see keepSlot).
type slot struct {
	mu      sync.Mutex
	release func()
	kept    bool
}

type slotKey struct{}

func (s *slot) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.kept {
		s.release()
	}
}

// keepSlot takes over the slot of the run admitted with ctx, for a run
// that may outlive its request (one parked for the user's confirmation):
// the returned func gives it back, once the run has ended. Without a
// slot it does nothing.
func keepSlot(ctx context.Context) (release func()) {
	s, _ := ctx.Value(slotKey{}).(*slot)
	if s == nil {
		return func() {}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kept = true
	return s.release
}

// refusedError is the JSON-RPC error of a refused request.
func refusedError(msg, retryAfter string) error {
	return &jsonrpc.Error{Code: CodeRefused, Message: msg, Data: json.RawMessage(`{"retry_after":` + retryAfter + `}`)}
}

// drainingHTTPText is the error of a request refused while draining.
const drainingHTTPText = "Service Unavailable: onetool is shutting down (draining) and takes no new requests; retry, on another replica if there is one"

// sniffer is a request body that notes its first byte that is not JSON
// whitespace, the one that tells a batch ('[') from a message, as go-sdk
// reads it: a look at bytes as they pass, not a parse.
type sniffer struct {
	io.ReadCloser
	first atomic.Int32 // the byte + 1; 0 until seen
}

func (s *sniffer) Read(p []byte) (int, error) {
	n, err := s.ReadCloser.Read(p)
	if s.first.Load() == 0 {
		for _, c := range p[:n] {
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				s.first.Store(int32(c) + 1)
				break
			}
		}
	}
	return n, err
}

func (s *sniffer) batch() bool { return s != nil && s.first.Load() == '['+1 }

// answerWriter is the response writer of an exchange: when go-sdk starts
// to answer a POST whose one request was refused, it answers with the
// refusal's status, Retry-After and, as the body, the SDK's own JSON-RPC
// error (taken out of its event-stream framing).
type answerWriter struct {
	http.ResponseWriter
	ex *exchange

	started  bool // the SDK has written, and this writer has decided
	replaced bool // the SDK's answer is replaced by the refusal
	held     int  // a status the SDK set before its first byte, while undecided
}

// decide runs at the SDK's first byte (or at the end, with none).
func (w *answerWriter) decide(first []byte) {
	w.started = true
	rf := w.ex.refused()
	if rf == nil {
		if w.held != 0 {
			w.ResponseWriter.WriteHeader(w.held)
		}
		return
	}
	h := w.Header()
	h.Set("Retry-After", rf.retryAfter)
	if w.ex.body.batch() {
		if w.held != 0 {
			w.ResponseWriter.WriteHeader(w.held)
		}
		return // each refused message answers in the batch
	}
	w.replaced = true
	h.Del(sessionIDHeader) // a session refused at initialize is gone
	h.Del("Cache-Control")
	h.Set("Content-Type", "application/json")
	if rf.status == http.StatusServiceUnavailable {
		h.Set("Connection", "close") // the next try should reach a server that stays
	}
	w.ResponseWriter.WriteHeader(rf.status)
	_, _ = w.ResponseWriter.Write(append(rpcAnswer(first), '\n'))
}

func (w *answerWriter) WriteHeader(code int) {
	switch {
	case w.started:
		if !w.replaced {
			w.ResponseWriter.WriteHeader(code)
		}
	case code < 200:
		w.ResponseWriter.WriteHeader(code) // 1xx
	case w.held == 0:
		w.held = code // decided with the first byte
	}
}

func (w *answerWriter) Write(p []byte) (int, error) {
	if !w.started {
		w.decide(p)
	}
	if w.replaced {
		return len(p), nil
	}
	return w.ResponseWriter.Write(p)
}

// Flush lets the SDK's event stream go out as it is written. Before its
// first byte there is nothing to flush, and the status is not decided.
func (w *answerWriter) Flush() {
	if !w.started {
		return
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the writer below.
func (w *answerWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish decides, when the SDK wrote no byte, on its status alone.
func (w *answerWriter) finish() {
	if !w.started && (w.held != 0 || w.ex.refused() != nil) {
		w.decide(nil)
	}
}

// rpcAnswer is the JSON-RPC message in what go-sdk wrote: its event
// stream's data line, or the JSON it wrote as it is. Without one it is a
// generic refusal (id null).
func rpcAnswer(p []byte) []byte {
	p = bytes.TrimSpace(p)
	if len(p) > 0 && p[0] == '{' {
		return p
	}
	for line := range bytes.Lines(p) {
		if data, ok := bytes.CutPrefix(line, []byte("data: ")); ok && json.Valid(bytes.TrimSpace(data)) {
			return bytes.TrimSpace(data)
		}
	}
	return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Error: the request was refused; retry later"}}`)
}
