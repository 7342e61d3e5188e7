package isolate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/packs"
)

// The wire protocol between a server and its workers: one JSON object per
// line over the worker's stdin and stdout.
//
//	server → worker: setup (the tools and configuration), run, cancel,
//	                 reply (to a call)
//	worker → server: ready (after setup), call (a tool call of a run),
//	                 step (a plan step, for progress), done (a run's result)
//
// The worker runs the whole pipeline of a program: fences, snippets,
// Starlark, formatting. Only tool calls cross back, so every tool still runs
// in the server, with the server's validation, cache, budgets, progress
// and confirmation of destructive calls. What a setup, a run's limits and
// a plan step hold is the engine's business: they cross as raw JSON.
type msg struct {
	Type string `json:"t"`
	ID   uint64 `json:"id,omitempty"` // run id (run, cancel, done, step) or call id (call, reply)
	Run  uint64 `json:"run,omitempty"`

	Setup  json.RawMessage `json:"setup,omitempty"`
	Code   string          `json:"code,omitempty"`
	Limits json.RawMessage `json:"limits,omitempty"`
	Tool   string          `json:"tool,omitempty"`
	Value  json.RawMessage `json:"value,omitempty"` // call arguments, reply value
	Err    *wireErr        `json:"err,omitempty"`
	Step   json.RawMessage `json:"step,omitempty"`
	Result *wireResult     `json:"result,omitempty"`
	// Reason of a cancel: "deadline" when the run's time is up, so that
	// the worker answers "timed out" as the server would; else a
	// cancellation.
	Reason string `json:"reason,omitempty"`
}

// wireResult is a Result on the wire.
type wireResult struct {
	Text     string          `json:"text"`
	Value    json.RawMessage `json:"value,omitempty"`
	HasValue bool            `json:"has_value,omitempty"`
	Printed  string          `json:"printed,omitempty"`
	Err      *wireErr        `json:"err,omitempty"`
}

// wireErr carries an error's text and what errors.Is finds in it, so the
// other side can rebuild an error that reads and matches the same.
type wireErr struct {
	Text      string   `json:"text"`
	Kind      string   `json:"kind,omitempty"` // interp.ErrorKind of a run's error
	Line      int      `json:"line,omitempty"`
	Col       int      `json:"col,omitempty"`
	Sentinels []string `json:"is,omitempty"`
	Panic     *string  `json:"panic,omitempty"` // a tool's panic value, as text
}

// Sentinel is an error that survives the trip by name: on the other side,
// errors.Is finds Err in an error that had it. Both sides must list the
// same ones (Options.Errors, ServeOptions.Errors).
type Sentinel struct {
	Name string
	Err  error
}

// sentinels are the errors every engine shares; the embedder adds its own.
func sentinels(extra []Sentinel) []Sentinel {
	return append([]Sentinel{
		{"args", packs.ErrArgs},
		{"validation", packs.ErrValidation},
		{"output_validation", packs.ErrOutputValidation},
		{"panic", packs.ErrPanic},
		{"builtin_panic", interp.ErrPanic},
		{"step_limit", interp.ErrStepLimit},
		{"timeout", interp.ErrTimeout},
		{"output_limit", interp.ErrOutputLimit},
		{"memory_limit", interp.ErrMemoryLimit},
		{"int_limit", interp.ErrIntLimit},
		{"overrun", interp.ErrOverrun},
		{"too_deep", interp.ErrTooDeep},
		{"limit", interp.ErrLimit},
		{"cancelled", interp.ErrCancelled},
		{"worker", ErrWorker},
		{"context_canceled", context.Canceled},
		{"deadline", context.DeadlineExceeded},
	}, extra...)
}

func toWireErr(err error, table []Sentinel) *wireErr {
	if err == nil {
		return nil
	}
	w := &wireErr{Text: err.Error()}
	for _, s := range table {
		if errors.Is(err, s.Err) {
			w.Sentinels = append(w.Sentinels, s.Name)
		}
	}
	var pe *packs.PanicError
	if errors.As(err, &pe) {
		v := fmt.Sprint(pe.Value)
		w.Panic = &v
	}
	var ie *interp.Error
	if errors.As(err, &ie) {
		w.Kind, w.Line, w.Col = string(ie.Kind), ie.Line, ie.Col
	}
	return w
}

// toolErr rebuilds the error of a tool call.
func (w *wireErr) toolErr(id string, table []Sentinel) error {
	e := &remoteError{text: w.Text, causes: w.causes(table)}
	if w.Panic != nil {
		e.causes = append(e.causes, &packs.PanicError{ToolID: id, Value: *w.Panic})
	}
	return e
}

// runErr rebuilds the error of a run: an *interp.Error like the one the
// run would have had in-process.
func (w *wireErr) runErr(table []Sentinel) error {
	return interp.NewError(interp.ErrorKind(w.Kind), w.Line, w.Col, w.Text, w.causes(table)...)
}

func (w *wireErr) causes(table []Sentinel) []error {
	var out []error
	for _, name := range w.Sentinels {
		for _, s := range table {
			if s.Name == name {
				out = append(out, s.Err)
			}
		}
	}
	return out
}

// remoteError is an error from the other side of the pipe.
type remoteError struct {
	text   string
	causes []error
}

func (e *remoteError) Error() string   { return e.text }
func (e *remoteError) Unwrap() []error { return e.causes }
