package runner

import (
	"errors"
	"fmt"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/packs"
)

// Sentinel errors of the runner API (SPEC §4.3). Every failed Run, RunStream
// or RunChain returns a *ToolError that matches one of them with errors.Is,
// and also matches its cause (a handler's own error, context.Canceled,
// context.DeadlineExceeded, …).
var (
	// ErrInvalidToolID: the id is empty or not "pack.name" / "pack:name".
	ErrInvalidToolID = packs.ErrInvalidToolID
	// ErrToolNotFound: no registered tool or resolver knows the id.
	ErrToolNotFound = errors.New("tool not found")
	// ErrNoBackends: the tool exists but has no backend to run on.
	ErrNoBackends = errors.New("no backends available")
	// ErrValidation: the arguments do not fit the tool's parameters.
	ErrValidation = packs.ErrValidation
	// ErrExecution: the backend ran and failed (an upstream result with
	// isError counts too).
	ErrExecution = errors.New("execution failed")
	// ErrOutputValidation: the result does not fit the tool's output schema.
	ErrOutputValidation = packs.ErrOutputValidation
	// ErrStreamNotSupported: the selected backend cannot stream.
	ErrStreamNotSupported = errors.New("streaming not supported")
	// ErrLimit: a budget of the run was exceeded.
	ErrLimit = interp.ErrLimit
)

// Operations a ToolError names.
const (
	OpResolve        = "resolve"
	OpSelectBackend  = "select_backend"
	OpValidateInput  = "validate_input"
	OpExecute        = "execute"
	OpValidateOutput = "validate_output"
	OpStream         = "stream"
)

// ToolError is a failed tool call: which tool, which backend, which step of
// the call, and why. errors.Is matches both the sentinel of the step and
// the cause.
type ToolError struct {
	ToolID  string
	Backend string // "" before a backend was chosen
	Op      string // one of the Op constants
	Err     error  // the cause
	kind    error  // the sentinel
}

func (e *ToolError) Error() string {
	where := e.Op
	if e.Backend != "" {
		where += " on " + e.Backend
	}
	if e.ToolID == "" {
		return fmt.Sprintf("%s: %v", where, e.Err)
	}
	return fmt.Sprintf("%s: %s: %v", e.ToolID, where, e.Err)
}

// Unwrap returns the sentinel and the cause.
func (e *ToolError) Unwrap() []error { return []error{e.kind, e.Err} }

func toolError(id, backend, op string, kind, err error) *ToolError {
	return &ToolError{ToolID: id, Backend: backend, Op: op, Err: err, kind: kind}
}

// cause is what a Starlark program sees of a ToolError: the cause's own
// message (the program already knows which tool it called), still matching
// the sentinel.
type cause struct{ kind, err error }

func (c cause) Error() string   { return c.err.Error() }
func (c cause) Unwrap() []error { return []error{c.kind, c.err} }

func (e *ToolError) forStarlark() error { return cause{e.kind, e.Err} }
