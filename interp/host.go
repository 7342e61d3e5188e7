package interp

import "go.starlark.net/starlark"

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
}

const hostLocal = "onetool.host"

// HostOf returns the Host of thread's run (nil for a thread no run made).
func HostOf(thread *starlark.Thread) *Host {
	h, _ := thread.Local(hostLocal).(*Host)
	return h
}

// Thread returns the thread running the program now.
func (h *Host) Thread() *starlark.Thread {
	if h == nil {
		return nil
	}
	return h.thread
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
