package interp

import (
	"context"

	"go.starlark.net/starlark"
)

// Async is the event loop of a run's asyncio code (package eventloop) as
// a tool sees it: a tool called in the body of a coroutine does not block
// the loop but gives the coroutine an awaitable of its result, as an
// async client library's function would, and the call runs on a goroutine
// of its own once awaited, so that `await asyncio.gather(*(web.fetch(url=u)
// for u in urls))` runs the calls concurrently.
type Async interface {
	// Here reports whether the code calling on thread is a coroutine's
	// body (not a plain function it called, whose tool calls return
	// values as everywhere else).
	Here(thread *starlark.Thread) bool
	// Go returns the awaitable of call's result: a coroutine that, run,
	// starts call on a goroutine of its own, bounded with the run's
	// other calls, and waits for it. call must not touch the run's
	// budget or thread.
	Go(thread *starlark.Thread, name string, call func(ctx context.Context) (starlark.Value, error)) (starlark.Value, error)
}

const asyncLocal = "onetool.async"

// AsyncOf returns the event loop a tool called on thread starts its call
// on, nil when the caller is not a coroutine's body (or no loop is there):
// the tool then runs at once, as always.
func AsyncOf(thread *starlark.Thread) Async {
	if thread == nil {
		return nil
	}
	a, _ := RunLocal(thread, asyncLocal).(Async)
	if a == nil || !a.Here(thread) {
		return nil
	}
	return a
}

// SetAsync makes a the run's event loop for AsyncOf.
func SetAsync(thread *starlark.Thread, a Async) { SetRunLocal(thread, asyncLocal, a) }
