// Package plan runs a plan: a small DAG of tool calls (SPEC §6.4).
//
// A plan is a list of [Step]s. Each step names a tool, its arguments and the
// steps it depends on. [Validate] rejects a malformed plan before anything
// runs (unknown, self or duplicate ids, cycles, templates that read a step
// the step does not depend on). [Run] then executes the plan on a bounded
// worker pool: a step starts as soon as every step it depends on has
// finished ok, never waiting for unrelated steps, and never more than
// Options.MaxParallel calls run at once.
//
// Arguments may read earlier results through templates such as
// ${step[0].data.items[0].id} or ${steps.s0.data.*.id}; see the template
// grammar in template.go. A failing step fails alone: its dependents are
// skipped and independent steps go on, unless Options.FailFast asks to stop
// the whole plan at the first failure.
//
// The package knows nothing of the runner, Starlark or MCP: tools are
// reached through the [Call] function the caller passes to Run.
package plan

import (
	"context"
	"errors"
	"time"
)

// Step is one node of a plan.
type Step struct {
	ID        string         // optional; "" means its index as a string ("0", "1", …)
	Tool      string         // tool id, passed to Call as is
	Args      map[string]any // may contain templates (strings), nested in maps/lists/*ordered.Map
	DependsOn []string       // ids (or indexes as strings) of steps that must finish first
}

// Options tune how Run executes a plan. The zero value is usable.
type Options struct {
	MaxParallel int              // worker pool size; <= 0 means 5
	FailFast    bool             // on the first failure, cancel running steps and start no more
	Retries     int              // extra attempts after a failure (not for errors Retryable reports false)
	RetryDelay  time.Duration    // base delay; attempt n waits RetryDelay * 2^(n-1) with ±20% jitter (0 = 1s)
	Timeout     time.Duration    // per attempt of each step; 0 = none
	Retryable   func(error) bool // nil = every error is retryable
	OnStepDone  func(StepResult) // called once per finished (ok, failed or skipped) step; calls are serialized
	// Trace, when set, is called as a step starts (not for skipped
	// steps): the context it returns is the one the step's calls get,
	// and end is called with the step's result (for tracing spans).
	Trace func(ctx context.Context, id, tool string) (_ context.Context, end func(StepResult))
}

// Call runs one tool with resolved args; ctx carries the step timeout and
// cancellation. Call must return promptly once ctx is done: Run relies on it
// both for Options.Timeout and for FailFast cancellation. Call may be
// invoked from several goroutines at once.
type Call func(ctx context.Context, tool string, args map[string]any) (any, error)

// Status is the outcome of one step.
type Status string

// The three outcomes of a step.
const (
	StatusOK      Status = "ok"
	StatusFailed  Status = "failed"
	StatusSkipped Status = "skipped"
)

// StepResult is what Run reports for one step.
type StepResult struct {
	ID, Tool   string
	Status     Status
	Data       any    // the tool's result when ok
	Error      string // when failed or skipped: why
	Attempts   int    // calls made to the tool (0 when skipped or when a template failed)
	DurationMS int64  // wall time of the step, all attempts and backoff waits included
	Err        error  // the Go error (not shown to users; for errors.Is)
}

// Errors of Validate, matchable with errors.Is.
var (
	ErrUnknownDependency = errors.New("unknown dependency")
	ErrSelfDependency    = errors.New("self dependency")
	ErrDuplicateID       = errors.New("duplicate step id")
	ErrCycle             = errors.New("cycle")
	ErrNoTool            = errors.New("missing tool")
	ErrBadTemplate       = errors.New("bad template")
	ErrNotDependency     = errors.New("not a dependency")
)

// Errors of a step, matchable with errors.Is on StepResult.Err.
var (
	ErrMissingStep      = errors.New("missing step")
	ErrMissingPath      = errors.New("missing path")
	ErrIndexOutOfRange  = errors.New("index out of range")
	ErrWildcardNotList  = errors.New("wildcard on a non-list")
	ErrDependencyFailed = errors.New("dependency failed")
	ErrNotStarted       = errors.New("not started")
)

// Run validates steps, then executes them with call and returns one result
// per step, in step order. The error is non-nil only when Validate fails (or
// call is nil); failures of individual steps are reported in the results.
// Cancelling ctx cancels running steps; steps not yet started are skipped.
func Run(ctx context.Context, steps []Step, call Call, opts Options) ([]StepResult, error) {
	g, err := build(steps)
	if err != nil {
		return nil, err
	}
	if call == nil {
		return nil, errors.New("plan: nil Call")
	}
	if opts.MaxParallel <= 0 {
		opts.MaxParallel = 5
	}
	if opts.RetryDelay <= 0 {
		opts.RetryDelay = time.Second
	}
	if opts.Retries < 0 {
		opts.Retries = 0
	}
	s := &scheduler{steps: steps, g: g, call: call, opts: opts}
	return s.run(ctx), nil
}
