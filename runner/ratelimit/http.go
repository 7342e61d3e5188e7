package ratelimit

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"
)

// MaxPeek bounds how much of a request body Middleware reads to see
// whether it starts a run: the MCP handler's own bound (go-sdk's
// DefaultMaxRequestBodyBytes). A longer body passes untouched, and the
// handler refuses it as too large.
const MaxPeek = 4 << 20

// Middleware applies the limiter to the MCP endpoint next: a POST whose
// JSON-RPC message is a tools/call (a run) must be admitted for the
// principal who sends it, which principal names (nil, or "": every
// client is one). A refused run gets 429 Too Many Requests, a Retry-After
// header and, as the body, a JSON-RPC error answering the call whose
// message says which bound refused it and when to retry. Every other
// request (initialize, tools/list, notifications, GET, DELETE) passes:
// only runs cost.
//
// An admitted run counts as in flight until the MCP tool handler calls
// Finish (see there), or at the latest until next returns.
func (l *Limiter) Middleware(principal func(*http.Request) string, next http.Handler) http.Handler {
	if l == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxPeek+1))
		if err != nil {
			http.Error(w, "Bad Request: reading the body: "+err.Error(), http.StatusBadRequest)
			return
		}
		rest := r.Body
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), rest), rest}
		id, isRun := runCall(body)
		if !isRun {
			r.Header.Del(SlotHeader) // only the middleware names slots
			next.ServeHTTP(w, r)
			return
		}
		name := ""
		if principal != nil {
			name = principal(r)
		}
		release, err := l.Acquire(r.Context(), name)
		if err != nil {
			refuse(w, id, err)
			return
		}
		l.mu.Lock()
		l.seq++
		slot := strconv.FormatUint(l.seq, 10)
		l.slots[slot] = release
		l.mu.Unlock()
		r.Header.Set(SlotHeader, slot) // whatever the client sent
		defer l.finish(slot)
		next.ServeHTTP(w, r)
	})
}

// SlotHeader is the request header in which Middleware names the slot of
// an admitted run, for Finish. A client's own value is replaced.
const SlotHeader = "Onetool-Run-Slot"

// Finish ends the run whose request headers h are (go-sdk hands them to
// tool handlers as req.Extra.Header): its slot is free from now on. Call
// it when the run's result is ready, before it is sent, so that a client
// that sends its next run as soon as it has an answer finds the slot
// free; the HTTP handler returns only after the answer has gone. Finish
// of a request the middleware did not admit does nothing.
func (l *Limiter) Finish(h http.Header) {
	if l == nil || h == nil {
		return
	}
	if slot := h.Get(SlotHeader); slot != "" {
		l.finish(slot)
	}
}

func (l *Limiter) finish(slot string) {
	l.mu.Lock()
	release := l.slots[slot]
	delete(l.slots, slot)
	l.mu.Unlock()
	if release != nil {
		release()
	}
}

// runCall reports whether body is a tools/call request, and its id. A
// body that is not JSON is not a run: the handler answers it.
func runCall(body []byte) (id json.RawMessage, ok bool) {
	if len(body) > MaxPeek {
		return nil, false
	}
	var msg struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &msg) != nil {
		return nil, false
	}
	return msg.ID, msg.Method == "tools/call" && len(msg.ID) > 0
}

// errorAnswer is a JSON-RPC error response.
type errorAnswer struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   rpcError        `json:"error"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// refuse answers a refused run.
func refuse(w http.ResponseWriter, id json.RawMessage, err error) {
	secs := 1
	var rf *Refusal
	if errors.As(err, &rf) {
		secs = int(rf.RetryAfter / time.Second)
	}
	// -32000 is the first code JSON-RPC leaves to servers.
	answer, _ := json.Marshal(errorAnswer{JSONRPC: "2.0", ID: id, Error: rpcError{Code: -32000, Message: "Error: " + err.Error()}})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	w.WriteHeader(http.StatusTooManyRequests)
	_, _ = w.Write(answer)
}
