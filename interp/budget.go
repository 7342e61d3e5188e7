package interp

import (
	"context"
	"math/big"

	"go.starlark.net/starlark"
)

// A Budget carries a run's budgets into Go code that works on the run's
// behalf: builtins, module functions and result formatters (SPEC §8.1:
// budgets bind inside every one of them).
//
// The interpreter counts its own steps and checks its context between
// them, but a Go builtin is one step however long it runs: str() of a
// value built from shared parts, sorted() of a long range, a regular
// expression over a large text. Such code charges its work here, in units
// of about one Starlark step (one element visited, a few bytes copied),
// and stops when Charge returns an error. The work counts against the
// step budget; every few thousand units the context (deadline,
// cancellation) and the memory watchdog are consulted, so a builtin stops
// within microseconds of its run's deadline.
//
// An error from a Budget is one of the budget sentinels (ErrStepLimit,
// ErrTimeout, ErrMemoryLimit, ErrIntLimit, ErrCancelled). Returning it
// from a builtin ends the run with the budget's message at the caller's
// line; nothing in the program can catch it.
//
// A Budget belongs to its run's goroutine: it is not safe for concurrent
// use. A nil *Budget, or the one BudgetOf returns for a thread that no run
// made, charges nothing and never fails.
type Budget struct {
	ctx    context.Context
	lim    *limits
	thread *starlark.Thread
	work   uint64 // units charged since the run began
	next   uint64 // work at which the next check is due
	ended  bool   // the run is over: charges are ignored
	// held are the values builtins are building (see Hold), which the
	// memory meter counts with the run's own.
	held []func(visit func(starlark.Value))
}

// budgetCheck is how many units of work pass between checks of the
// context and the memory watchdog: a few microseconds of Go code.
const budgetCheck = 4096

const budgetLocal = "onetool.budget"

// BudgetOf returns the budget of the run executing on thread; nil (which
// is usable, and unlimited) when the thread was not made by a run.
func BudgetOf(thread *starlark.Thread) *Budget {
	if thread == nil {
		return nil
	}
	b, _ := thread.Local(budgetLocal).(*Budget)
	return b
}

// Charge counts n units of work. It returns a budget sentinel when the
// run's time, steps or memory are spent or it was cancelled; the caller
// stops and returns that error.
func (b *Budget) Charge(n uint64) error {
	if b == nil {
		return nil
	}
	b.work += n
	if b.work < b.next {
		return nil
	}
	return b.check()
}

// Thread returns the thread of the run the budget belongs to; nil for a
// nil Budget.
func (b *Budget) Thread() *starlark.Thread {
	if b == nil {
		return nil
	}
	return b.thread
}

// Tripped returns the sentinel of the budget the run has spent (or its
// cancellation), nil while it may go on. A front end's exception handling
// asks it, so that no handler runs for a run that must stop.
func (b *Budget) Tripped() error {
	if b == nil || b.ended {
		return nil
	}
	return b.lim.tripped()
}

// check consults every budget; see Charge.
func (b *Budget) check() error {
	b.next = b.work + budgetCheck
	if b.ended {
		// A value made by an earlier input of a session (a range) is
		// used by a later one: that input charges its own budget.
		return nil
	}
	if err := b.lim.tripped(); err != nil {
		return err // tripped elsewhere: the deadline watcher, an earlier charge
	}
	if err := b.ctx.Err(); err != nil {
		return b.trip(ctxKind(b.ctx))
	}
	if max := b.lim.opts.MaxSteps; max > 0 && b.Steps() >= max {
		return b.trip(errSteps)
	}
	if b.lim.mem != nil && b.lim.mem.over(b.lim.opts.Watchdog, b.thread, b.lim.opts.session) {
		return b.trip(errMemory)
	}
	return nil
}

// end marks the run over, on its own goroutine.
func (b *Budget) end() { b.ended = true }

// Steps returns the run's computation so far: the interpreter's steps
// plus the work Go code charged.
func (b *Budget) Steps() uint64 {
	if b == nil {
		return 0
	}
	steps := b.work
	if b.thread != nil {
		steps += b.thread.ExecutionSteps()
	}
	return steps
}

func (b *Budget) trip(k limitKind) error {
	b.lim.trip(b.thread, k)
	return b.lim.tripped()
}

// Alloc refuses, before anything is allocated, a value of size bytes that
// alone would exceed the run's memory budget: "x" * 10**9 and
// list(range(10**9)) end with "memory limit of … exceeded" instead of
// taking the memory first. It also charges the work of filling that many
// bytes.
func (b *Budget) Alloc(size int64) error {
	if b == nil || size <= 0 {
		return nil
	}
	if max := b.lim.opts.MaxMemory; max > 0 && size > max {
		return b.trip(errMemory)
	}
	return b.Charge(uint64(size) / 64)
}

// Hold makes what a builtin is building count against the run's memory
// budget while it builds it: a list filled from an iterator is in no
// variable of the program until the builtin returns, and could otherwise
// outgrow the budget unseen. When the memory watchdog asks the run to
// measure itself (from inside a Charge or between steps, on the run's own
// goroutine), held is called with a function to call on each value the
// builtin holds. Call the returned release before returning the result.
func (b *Budget) Hold(held func(visit func(starlark.Value))) (release func()) {
	if b == nil {
		return func() {}
	}
	b.held = append(b.held, held)
	i := len(b.held) - 1
	return func() {
		// Builtins nest (a key function of sorted calls list()), and a
		// release may come late (a deferred one after a panic): drop this
		// one and anything left above it.
		if i < len(b.held) {
			clear(b.held[i:])
			b.held = b.held[:i]
		}
	}
}

// HoldValues is Hold for a builtin that builds a slice of values: *vs is
// read each time the meter looks, so it may grow.
func (b *Budget) HoldValues(vs *[]starlark.Value) (release func()) {
	return b.Hold(func(visit func(starlark.Value)) {
		// The slice's array is what the builtin holds: cap, not len.
		visit(heldSlice(*vs))
	})
}

// Fits refuses, with the memory error, a value of size bytes that alone
// would exceed the run's memory budget; unlike Alloc it charges no work,
// so a builtin may ask as its result grows.
func (b *Budget) Fits(size int64) error {
	if b == nil {
		return nil
	}
	if max := b.lim.opts.MaxMemory; max > 0 && size > max {
		return b.trip(errMemory)
	}
	return nil
}

// Room refuses, with the memory error, n more bytes than the run holds
// now: a builtin asks before it allocates something large that the
// memory meter cannot see yet (the larger array of a slice it grows, the
// table of a dict it fills, the buffer of a text it writes). Unlike Fits,
// which weighs n alone, Room weighs n with everything the run holds: a
// list built to 200 MiB cannot grow its array to 250 more at a budget of
// 256. Most calls cost a read of the process's allocation count; a walk
// of the run's values comes only when that leaves the question open, at
// most about as often as the watchdog would ask for one. Room charges no
// work.
func (b *Budget) Room(n int64) error {
	if err := b.Fits(n); err != nil || b == nil || n < roomMin || b.ended {
		return err
	}
	r := b.lim.mem
	if r == nil {
		return nil
	}
	if !r.room(b.lim.opts.Watchdog, b.thread, b.lim.opts.session, uint64(n)) {
		return b.trip(errMemory)
	}
	return nil
}

// roomMin is the least growth Room weighs against the whole run: smaller
// ones are left to the watchdog, since a read of the allocation count
// costs a quarter of a microsecond.
const roomMin = 64 << 10

// MaxMemory is the run's memory budget in bytes; 0 means none.
func (b *Budget) MaxMemory() int64 {
	if b == nil {
		return 0
	}
	return b.lim.opts.MaxMemory
}

// MaxIntDigits is the most decimal digits an integer may have; 0 means no
// bound.
func (b *Budget) MaxIntDigits() int {
	if b == nil {
		return 0
	}
	return b.lim.opts.MaxIntDigits
}

// log2of10 is the number of bits per decimal digit, slightly rounded up
// so that a number exactly at the bound is never refused.
const log2of10 = 3.3219280948873626

// IntBits is how many bits an integer of the run's digit bound may have;
// 0 means no bound. Code that is about to make a big integer (a power, a
// product, a parse) compares the bits of its result with it first.
func (b *Budget) IntBits() int {
	if d := b.MaxIntDigits(); d > 0 {
		return int(float64(d)*log2of10) + 1
	}
	return 0
}

// CheckInt fails with ErrIntLimit when x has more decimal digits than the
// run allows.
func (b *Budget) CheckInt(x starlark.Int) error {
	max := b.IntBits()
	if max == 0 {
		return nil
	}
	if _, ok := x.Int64(); ok {
		return nil
	}
	return b.CheckBits(x.BigInt())
}

// IntLimit ends the run for an integer above limits.max_int_digits that
// its caller refused before making it; it returns ErrIntLimit.
func (b *Budget) IntLimit() error {
	if b == nil {
		return ErrIntLimit
	}
	return b.trip(errInt)
}

// CheckBits is CheckInt for a *big.Int.
func (b *Budget) CheckBits(x *big.Int) error {
	max := b.IntBits()
	bits := x.BitLen()
	switch {
	case max == 0 || bits < max-4:
		return nil
	case bits > max:
		return b.trip(errInt)
	}
	// Near the bound the bits alone cannot tell; the digits are few
	// enough to count.
	digits := len(new(big.Int).Abs(x).Text(10))
	if digits > b.MaxIntDigits() {
		return b.trip(errInt)
	}
	return nil
}

// Context returns the context of the run the budget belongs to.
func (b *Budget) Context() context.Context {
	if b == nil {
		return context.Background()
	}
	return b.ctx
}

// Check consults every budget now, as a Charge that is due does: for Go
// code that waits (an event loop with nothing to run) and must stop at
// the deadline.
func (b *Budget) Check() error {
	if b == nil {
		return nil
	}
	return b.check()
}
