package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/meter"
	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/runner/auth"
)

// Limits are the budgets of one run (SPEC §8.1). Zero means unlimited.
type Limits struct {
	MaxSteps     uint64        // Starlark computation steps
	Timeout      time.Duration // wall clock
	MaxOutput    int           // bytes of printed text
	MaxToolCalls int           // tool calls
	MaxIOOps     int           // file operations of Python's own APIs (open, os, pathlib: variants of the file pack)
	MaxParallel  int           // tool calls running at once (parallel, map, plan)
	MaxMemory    int64         // bytes of values a program holds (heap growth)
	MaxIntDigits int           // decimal digits of an integer a program makes
}

// DefaultLimits are the budgets of SPEC §8.1.
func DefaultLimits() Limits {
	return Limits{
		MaxSteps:     1_000_000_000,
		Timeout:      30 * time.Second,
		MaxOutput:    1 << 20,
		MaxToolCalls: 1000,
		MaxIOOps:     100_000,
		MaxParallel:  16,
		MaxMemory:    512 << 20,
		MaxIntDigits: 5000,
	}
}

// RunLimits sets the budgets of one run, in place of the runner's.
func RunLimits(l Limits) ExecOption {
	return func(st *runState) { st.limits = l }
}

// ErrToolCallLimit is the cause of a run that made more tool calls than
// its budget allows; it matches interp.ErrLimit too.
var ErrToolCallLimit = fmt.Errorf("tool call %w", interp.ErrLimit)

// ErrIOOpsLimit is the cause of a run whose file operations through
// Python's own APIs (open, os, pathlib: the file pack's variants) passed
// limits.max_io_ops; it matches interp.ErrLimit too, so no program
// catches it.
var ErrIOOpsLimit = fmt.Errorf("I/O operation %w", interp.ErrLimit)

// runState is what a run's tool calls share: the budget counters. It
// travels in the context because pack values are shared by all runs.
type runState struct {
	limits     Limits
	calls      atomic.Int64
	ioOps      atomic.Int64           // calls of the file pack's variants (limits.max_io_ops)
	parallel   chan struct{}          // one token per running tool call; nil = unbounded
	onCall     func(ToolCall)         // nil when nobody listens
	onUpstream func(UpstreamProgress) // nil when nobody listens
	onStep     func(PlanStep)         // nil when nobody listens
	confirm    Confirmer              // nil: destructive calls cannot be confirmed
	principal  *auth.Principal        // nil: nobody authenticated, everything allowed
	toolsMu    sync.Mutex
	tools      []string         // with a principal: the tool ids called, for the audit log
	auditCalls []auth.AuditCall // with serve.auth.audit_arguments: the calls with their arguments
	// denied is set once the principal's policy refused a call, caught
	// by the program or not: the audit log says "denied" (SPEC §7.4).
	denied atomic.Bool
	// sessionKept checks what a session keeps after each input (see
	// KeptCheck); nil outside sessions.
	sessionKept func(bytes uint64) error
	// separateStderr keeps the program's standard error apart (see
	// SeparateStderr).
	separateStderr bool
	roots          *roots.Roots // RunRoots: the run's own; nil: the runner's
	// argv and origArgv are the run's sys.argv and sys.orig_argv
	// (ProgramArgs); nil argv: the default ['<string>'].
	argv, origArgv []string
	// results meters what the run's tool calls receive against
	// limits.max_memory (package meter); made on the first call.
	resultsOnce sync.Once
	results     *meter.Budget
}

type runStateKey struct{}

func withRunState(ctx context.Context, st *runState) context.Context {
	return context.WithValue(ctx, runStateKey{}, st)
}

func runStateFrom(ctx context.Context) *runState {
	st, _ := ctx.Value(runStateKey{}).(*runState)
	return st
}

// countCall charges one call of t to the run's budget: a file operation
// of Python's own APIs to limits.max_io_ops (a loop of os.path.isfile
// over 2,000 files is one program's ordinary work, not 2,000 tool calls
// worth budgeting as such), any other call, web and database variants
// included, to limits.max_tool_calls.
func (st *runState) countCall(t *packs.Tool) error {
	if st == nil {
		return nil
	}
	if isIOOp(t) {
		if n := st.ioOps.Add(1); st.limits.MaxIOOps > 0 && n > int64(st.limits.MaxIOOps) {
			return ErrIOOpsLimit
		}
		return nil
	}
	n := st.calls.Add(1)
	if max := st.limits.MaxToolCalls; max > 0 && n > int64(max) {
		return ErrToolCallLimit
	}
	return nil
}

// isIOOp reports whether t is a file operation of Python's own APIs: a
// variant of the file pack, counted against limits.max_io_ops.
func isIOOp(t *packs.Tool) bool { return t.Variant != "" && t.Pack == "file" }

// resultMeter is the run's budget for what its tool calls receive.
func (st *runState) resultMeter() *meter.Budget {
	st.resultsOnce.Do(func() {
		st.results = meter.NewBudget(st.limits.MaxMemory, func(limit int64) error {
			return &resultMemoryError{limit: limit}
		})
	})
	return st.results
}

// errResultMemory marks a run stopped because what a tool call received
// (rows, a response body) passed limits.max_memory; it matches
// interp.ErrMemoryLimit too, so the program cannot catch it.
var errResultMemory = fmt.Errorf("tool result %w", interp.ErrMemoryLimit)

// resultMemoryError is the error a tool call's meter returns when the run's
// memory budget cannot hold what the call receives.
type resultMemoryError struct{ limit int64 }

func (e *resultMemoryError) Error() string { return memoryText(e.limit) }
func (e *resultMemoryError) Unwrap() error { return errResultMemory }

// memoryText is interp's text for an exceeded memory budget (SPEC §2.5).
func memoryText(limit int64) string {
	return interp.LimitMessage(fmt.Sprintf("memory limit of %s exceeded", interp.FormatBytes(limit)), "", interp.Setting(interp.ErrMemoryLimit))
}

// rephrase gives budget failures that interp cannot know about (tool
// calls, what they receive) the same shape as its own: "tool call limit
// of 1000 exceeded at line 3", "memory limit of 128 MiB exceeded (set
// limits.max_memory to raise it)".
func (st *runState) rephrase(err error) error {
	var ie *interp.Error
	if !errors.As(err, &ie) {
		return err
	}
	if errors.Is(err, errResultMemory) {
		// No line, as for the interpreter's own memory limit.
		return ie.Rephrased(interp.KindLimit, memoryText(st.limits.MaxMemory))
	}
	at := ""
	if ie.Line > 0 {
		at = fmt.Sprintf(" at line %d", ie.Line)
	}
	if errors.Is(err, ErrIOOpsLimit) {
		msg := interp.LimitMessage(fmt.Sprintf("I/O operation limit of %d exceeded (open, os, pathlib…)", st.limits.MaxIOOps), at, "limits.max_io_ops")
		return ie.Rephrased(interp.KindLimit, msg)
	}
	if !errors.Is(err, ErrToolCallLimit) {
		return err
	}
	msg := interp.LimitMessage(fmt.Sprintf("tool call limit of %d exceeded", st.limits.MaxToolCalls), at, "limits.max_tool_calls")
	return ie.Rephrased(interp.KindLimit, msg)
}
