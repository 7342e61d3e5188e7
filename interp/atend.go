package interp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"go.starlark.net/starlark"
)

// atEndLocal is the thread-local holding a run's end hooks (*atEnd).
const atEndLocal = "onetool.atend"

// atEnd are the hooks of one run, by the order they were added.
type atEnd struct {
	next  uint64
	hooks map[uint64]atEndHook
}

type atEndHook struct {
	what string
	fn   func(*starlark.Thread) error
}

// AtEnd registers fn to run on thread when the program ends: after its
// last statement, an uncaught exception or sys.exit, as CPython flushes
// its open files and runs atexit's functions at exit. File objects use it
// to commit what is still buffered. Hooks run the last added first, on
// the run's thread and under its budgets. After a budget stop (time,
// steps, memory, output) or a cancellation they are dropped unrun: the
// run is over and nothing may be written past its deadline.
//
// what names the object for the error CPython prints when a hook fails,
// "Exception ignored in: <_io.TextIOWrapper name='out.txt' mode='w'
// encoding='UTF-8'>", which goes to the program's standard error; the
// run's answer does not change. An error of a budget from a hook ends the
// run with that error instead.
//
// remove forgets fn (the file was closed): call it so that a program
// opening 10,000 files keeps no 10,000 hooks.
func AtEnd(thread *starlark.Thread, what string, fn func(*starlark.Thread) error) (remove func()) {
	a, _ := RunLocal(thread, atEndLocal).(*atEnd)
	if a == nil {
		a = &atEnd{hooks: map[uint64]atEndHook{}}
		SetRunLocal(thread, atEndLocal, a)
	}
	id := a.next
	a.next++
	a.hooks[id] = atEndHook{what, fn}
	return func() { delete(a.hooks, id) }
}

// runAtEnd runs the hooks AtEnd registered on thread, when the run ended
// by itself. It returns an error only for one that must end the run (a
// budget's or a cancellation); others are printed to stderr.
func runAtEnd(ctx context.Context, thread *starlark.Thread, lim *limits) error {
	a, _ := RunLocal(thread, atEndLocal).(*atEnd)
	if a == nil {
		return nil
	}
	for len(a.hooks) > 0 {
		if lim.tripped() != nil || ctx.Err() != nil {
			clear(a.hooks)
			return nil
		}
		// The last added first; a hook may add or remove others.
		id := slices.Max(slices.Collect(maps.Keys(a.hooks)))
		h := a.hooks[id]
		delete(a.hooks, id)
		err := callHook(thread, h.fn)
		if err == nil {
			continue
		}
		if lim.tripped() != nil || errors.Is(err, ErrLimit) || errors.Is(err, ErrCancelled) {
			clear(a.hooks)
			return err
		}
		msg := err.Error()
		if ee := nestedEval(err); ee != nil {
			msg = innermost(ee).Msg
		}
		if lim.opts.Explain != nil {
			msg = lim.opts.Explain(err, msg)
		}
		if perr := PrintErr(thread, "Exception ignored in: "+h.what+"\n"+msg+"\n"); perr != nil {
			clear(a.hooks)
			return perr
		}
	}
	return nil
}

// callHook runs one hook, a panic in it turned into an error.
func callHook(thread *starlark.Thread, fn func(*starlark.Thread) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	return fn(thread)
}
