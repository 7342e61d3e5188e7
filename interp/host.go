package interp

import (
	"context"
	"strings"

	"go.starlark.net/starlark"
)

// A Host is where values that outlive one call find the thread running
// their program now. A Python instance's special methods run when
// go.starlark.net calls interfaces that take no thread (a comparison, a
// hash, an iteration), and an instance made by one input of a session
// lives on into the next, which runs on a new thread: the instance's
// class holds the Host of the run or session that made it, and every run
// sets the Host's thread as it starts. A session's inputs run one at a
// time, so one thread is current at any moment.
type Host struct {
	thread *starlark.Thread
	state  any
	// children are the generators' and tasks' threads alive (see Child).
	children map[*Child]struct{}
	// locals are what SessionLocal keeps.
	locals map[string]any
	// stops are the AtStop hooks.
	stops []func()
}

// SessionLocal is thread.Local(key) for state that lives as long as the
// program's variables do: a run's, or a session's across its inputs (the
// event loop of its top-level awaits, whose tasks its variables hold).
func SessionLocal(thread *starlark.Thread, key string) any {
	if h := HostOf(thread); h != nil {
		return h.locals[key]
	}
	return RunLocal(thread, key)
}

// SetSessionLocal sets state SessionLocal reads.
func SetSessionLocal(thread *starlark.Thread, key string, v any) {
	h := HostOf(thread)
	if h == nil {
		SetRunLocal(thread, key, v)
		return
	}
	if h.locals == nil {
		h.locals = map[string]any{}
	}
	h.locals[key] = v
}

// afterRunSteps bounds what a special method may compute once its run
// has ended (a result's __repr__ as the runner renders it).
const afterRunSteps = 1_000_000

const hostLocal = "onetool.host"

// HostOf returns the Host of thread's run (nil for a thread no run made).
func HostOf(thread *starlark.Thread) *Host {
	h, _ := thread.Local(hostLocal).(*Host)
	return h
}

// Thread returns the thread running the program now. Between runs it is
// a thread of its own, bounded in steps, memory and output: the thread of
// the run that ended is let go (its frames hold what the run computed).
func (h *Host) Thread() *starlark.Thread {
	if h == nil {
		return nil
	}
	if h.thread == nil {
		var printed strings.Builder
		// No predeclared names: a session's include its globals, which the
		// Host must not keep alive.
		t, _ := newThread(context.Background(), Options{MaxSteps: afterRunSteps, MaxOutput: 1 << 16, MaxMemory: 64 << 20, host: h}, &printed)
		h.thread = t
	}
	return h.thread
}

// detach lets go of thread, whose run has ended.
func (h *Host) detach(thread *starlark.Thread) {
	if h != nil && h.thread == thread {
		h.thread = nil
	}
}

// State returns the value a package above keeps for the Host (the object
// model's bookkeeping), made by mk on first use. Only the goroutine
// running the Host's program calls it.
func (h *Host) State(mk func() any) any {
	if h.state == nil {
		h.state = mk()
	}
	return h.state
}
