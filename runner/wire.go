package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/runner/config"
)

// The wire protocol between a server and its workers (isolation: process,
// SPEC §8.5): one JSON object per line over the worker's stdin and stdout.
//
//	server → worker: setup (the tools and configuration), run, cancel,
//	                 reply (to a call)
//	worker → server: ready (after setup), call (a tool call of a run),
//	                 step (a plan step, for progress), done (a run's result)
//
// The worker runs the whole pipeline of a program: fences, snippets,
// Starlark, formatting. Only tool calls cross back, so every tool still runs
// in the server, with the server's validation, cache, budgets, progress
// and confirmation of destructive calls.
type wireMsg struct {
	Type string `json:"t"`
	ID   uint64 `json:"id,omitempty"` // run id (run, cancel, done, step) or call id (call, reply)
	Run  uint64 `json:"run,omitempty"`

	Setup  *wireSetup      `json:"setup,omitempty"`
	Code   string          `json:"code,omitempty"`
	Limits *Limits         `json:"limits,omitempty"`
	Tool   string          `json:"tool,omitempty"`
	Value  json.RawMessage `json:"value,omitempty"` // call arguments, reply value, run value
	Err    *wireErr        `json:"err,omitempty"`
	Step   *PlanStep       `json:"step,omitempty"`
	Result *wireResult     `json:"result,omitempty"`
	// Reason of a cancel: "deadline" when the run's time is up, so that
	// the worker answers "timed out" as the server would; else a
	// cancellation.
	Reason string `json:"reason,omitempty"`
}

// wireSetup is what a worker needs to build its runner.
type wireSetup struct {
	Generation uint64                     `json:"generation"`
	Packs      map[string]string          `json:"packs"` // name → description
	Tools      []wireTool                 `json:"tools"`
	Aliases    map[string]string          `json:"aliases,omitempty"`
	Snippets   map[string]*config.Snippet `json:"snippets,omitempty"`
	Projects   map[string]string          `json:"projects,omitempty"`
	FileDirs   []string                   `json:"file_dirs,omitempty"` // packs.file.allowed_dirs
	Own        []roots.Own                `json:"own,omitempty"`       // onetool's own files, refused to proj paths too
}

// wireTool is a tool without its handler.
type wireTool struct {
	Pack, Name, Version, Description string
	InputSchema, OutputSchema        string `json:",omitempty"`
	Returns                          string `json:",omitempty"`
	Examples                         []packs.Example
	Synonyms                         map[string][]string `json:",omitempty"`
	Deterministic                    bool
	Annotations                      packs.Annotations
	Timeout                          time.Duration `json:",omitempty"`
}

// wireResult is an ExecResult on the wire.
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

// sentinels are the errors that survive the trip by name.
var sentinels = []struct {
	name string
	err  error
}{
	{"args", packs.ErrArgs},
	{"validation", packs.ErrValidation},
	{"output_validation", packs.ErrOutputValidation},
	{"panic", packs.ErrPanic},
	{"builtin_panic", interp.ErrPanic},
	{"not_found", ErrToolNotFound},
	{"no_backends", ErrNoBackends},
	{"execution", ErrExecution},
	{"stream", ErrStreamNotSupported},
	{"tool_call_limit", ErrToolCallLimit},
	{"step_limit", interp.ErrStepLimit},
	{"timeout", interp.ErrTimeout},
	{"output_limit", interp.ErrOutputLimit},
	{"memory_limit", interp.ErrMemoryLimit},
	{"int_limit", interp.ErrIntLimit},
	{"overrun", interp.ErrOverrun},
	{"too_deep", interp.ErrTooDeep},
	{"limit", interp.ErrLimit},
	{"cancelled", interp.ErrCancelled},
	{"not_confirmed", ErrNotConfirmed},
	{"worker", ErrWorker},
	{"context_canceled", context.Canceled},
	{"deadline", context.DeadlineExceeded},
}

func toWireErr(err error) *wireErr {
	if err == nil {
		return nil
	}
	w := &wireErr{Text: err.Error()}
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			w.Sentinels = append(w.Sentinels, s.name)
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
func (w *wireErr) toolErr(id string) error {
	e := &remoteError{text: w.Text, causes: w.causes()}
	if w.Panic != nil {
		e.causes = append(e.causes, &packs.PanicError{ToolID: id, Value: *w.Panic})
	}
	return e
}

// runErr rebuilds the error of a run: an *interp.Error like the one the
// run would have had in-process.
func (w *wireErr) runErr() error {
	return interp.NewError(interp.ErrorKind(w.Kind), w.Line, w.Col, w.Text, w.causes()...)
}

func (w *wireErr) causes() []error {
	var out []error
	for _, name := range w.Sentinels {
		for _, s := range sentinels {
			if s.name == name {
				out = append(out, s.err)
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
