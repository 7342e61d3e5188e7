package interp

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"go.starlark.net/starlark"
)

// ErrLimit is matched (errors.Is) by every exceeded budget; the specific
// sentinels below tell which one.
var ErrLimit = errors.New("limit exceeded")

// Budget sentinels. A run that exceeds one ends with an *Error whose cause
// is the sentinel (and, for timeouts and cancellation, the context error).
var (
	ErrStepLimit   = fmt.Errorf("step %w", ErrLimit)
	ErrTimeout     = fmt.Errorf("time %w", ErrLimit)
	ErrOutputLimit = fmt.Errorf("printed output %w", ErrLimit)
	ErrMemoryLimit = fmt.Errorf("memory %w", ErrLimit)
	ErrIntLimit    = fmt.Errorf("integer size %w", ErrLimit)
	ErrCancelled   = errors.New("cancelled")
)

// ErrOverrun is among the causes of a run answered at its deadline (or
// cancellation) while Go code it called was still running: the answer did
// not wait, and that code goes on until it returns (SPEC §8.1). Statistics
// count such runs; a worker process whose run overran is replaced.
var ErrOverrun = errors.New("overran its deadline")

type limitKind int

const (
	errSteps limitKind = iota + 1
	errTimeout
	errCancelled
	errOutput
	errMemory
	errInt
)

// limits records which budget, if any, stopped the thread. The first trip
// wins: a timeout that fires while the output budget is being reported does
// not change the story.
type limits struct {
	opts   Options
	kind   atomic.Int32
	mem    *memRun      // nil unless a Watchdog keeps MaxMemory
	ctxAt  uint64       // step count of the next context check
	budget Budget       // the work Go code charged counts as steps
	out    output       // where printed text goes
	line   atomic.Int32 // the user's line at the latest context check
	// strDigits is the limit on int–str conversion (see IntText): the
	// run's own, or its session's.
	strDigits *intStrDigits
}

func (l *limits) trip(thread *starlark.Thread, k limitKind) {
	if l.kind.CompareAndSwap(0, int32(k)) {
		thread.Cancel(k.reason())
	}
}

func (k limitKind) reason() string {
	switch k {
	case errSteps:
		return "too many steps"
	case errTimeout:
		return "timeout"
	case errOutput:
		return "printed output limit"
	case errMemory:
		return "memory limit"
	case errInt:
		return "integer size limit"
	}
	return "cancelled"
}

// pollSteps is how often (in Starlark steps) a running thread checks its
// context: about a millisecond of computation.
const pollSteps = 50_000

// nextCheck returns the step count at which the thread next stops to
// check its budgets: the next poll (sooner when memory is watched), or the
// step budget if that is sooner still.
func (l *limits) nextCheck(steps uint64) uint64 {
	next := steps + pollSteps
	if l.mem != nil {
		next = steps + memPollSteps
	}
	if max := l.opts.MaxSteps; max > 0 {
		// Work charged by Go code counts too, so the interpreter may
		// take only what is left.
		max -= min(max, l.budget.work)
		if next > max {
			next = max
		}
	}
	return next
}

// poll runs when the thread reaches the step count of nextCheck: it ends
// the run if a budget is spent or the context is done, and otherwise sets
// the next check.
func (l *limits) poll(thread *starlark.Thread, ctx context.Context) {
	steps := thread.ExecutionSteps()
	switch {
	case l.opts.MaxSteps > 0 && steps+l.budget.work >= l.opts.MaxSteps:
		l.trip(thread, errSteps)
		return
	case l.mem != nil && l.mem.over(l.opts.Watchdog, thread, l.opts.session):
		l.trip(thread, errMemory)
		return
	case steps >= l.ctxAt:
		if ctx.Err() != nil {
			l.trip(thread, ctxKind(ctx))
			return
		}
		l.ctxAt = steps + pollSteps
		// Where the program is, for an answer given at the deadline
		// without waiting for the thread (see exec): a busy loop
		// starved of CPU is still reported at its line.
		if fr := thread.CallFrame(0); fr.Pos.Filename() == Filename {
			l.line.Store(fr.Pos.Line)
		}
	}
	thread.SetMaxExecutionSteps(l.nextCheck(steps))
}

// ctxKind tells a deadline from a cancellation.
func ctxKind(ctx context.Context) limitKind {
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		return errTimeout
	}
	return errCancelled
}

// tripped returns the sentinel of the budget that stopped the run, or nil.
func (l *limits) tripped() error {
	switch limitKind(l.kind.Load()) {
	case errSteps:
		return ErrStepLimit
	case errTimeout:
		return ErrTimeout
	case errOutput:
		return ErrOutputLimit
	case errMemory:
		return ErrMemoryLimit
	case errInt:
		return ErrIntLimit
	case errCancelled:
		return ErrCancelled
	}
	return nil
}

// message is the user's text for an exceeded budget, without its position
// or the setting that raises it (see LimitMessage).
func (l *limits) message(err error) string {
	return budgetText(err, l.opts)
}

// setting names what raises the budget err reports, or "" when no
// setting does (a deadline that came from the caller, not limits.timeout).
func (l *limits) setting(err error) string {
	if errors.Is(err, ErrTimeout) && l.opts.Timeout <= 0 {
		return ""
	}
	return Setting(err)
}

func budgetText(err error, opts Options) string {
	switch {
	case errors.Is(err, ErrStepLimit):
		return fmt.Sprintf("step limit of %d exceeded", opts.MaxSteps)
	case errors.Is(err, ErrTimeout):
		if opts.Timeout > 0 {
			return fmt.Sprintf("timed out after %s", opts.Timeout)
		}
		return "timed out"
	case errors.Is(err, ErrOutputLimit):
		return fmt.Sprintf("printed output limit of %s exceeded", FormatBytes(int64(opts.MaxOutput)))
	case errors.Is(err, ErrMemoryLimit):
		return fmt.Sprintf("memory limit of %s exceeded", FormatBytes(opts.MaxMemory))
	case errors.Is(err, ErrIntLimit):
		return fmt.Sprintf("integer size limit of %d digits exceeded", opts.MaxIntDigits)
	}
	return "cancelled"
}

// Setting names the configuration key that raises the budget whose
// sentinel err matches (SPEC §8.1), or "" for a cancellation.
func Setting(err error) string {
	switch {
	case errors.Is(err, ErrStepLimit):
		return "limits.max_steps"
	case errors.Is(err, ErrTimeout):
		return "limits.timeout"
	case errors.Is(err, ErrOutputLimit):
		return "limits.max_output"
	case errors.Is(err, ErrMemoryLimit):
		return "limits.max_memory"
	case errors.Is(err, ErrIntLimit):
		return "limits.max_int_digits"
	}
	return ""
}

// LimitMessage is the whole text of an exceeded budget: what was
// exceeded, where (at, such as " at line 2", may be empty), and the
// setting that raises it — "step limit of 1000 exceeded at line 2 (set
// limits.max_steps to raise it)". A cancellation is just "cancelled".
// Callers that count budgets of their own (tool calls) use it too, so
// every budget reads alike.
func LimitMessage(text, at, setting string) string {
	msg := text + at
	if setting != "" {
		msg += " (set " + setting + " to raise it)"
	}
	return msg
}

// FormatBytes renders a size the way limits are written in messages:
// "1 MiB", "512 KiB", "100 bytes".
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n == 1:
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// ApproxBytes renders a measured size for a message, to a tenth of its
// unit: "1000.0 MiB", "12.5 KiB", "300 bytes". FormatBytes is for limits,
// which are round.
func ApproxBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n == 1:
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}
