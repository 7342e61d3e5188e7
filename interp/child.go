package interp

import (
	"errors"

	"go.starlark.net/starlark"
)

// A Child is a thread of a run apart from the run's own: the body of a
// Python generator or of an asyncio task runs on one, on a goroutine of
// its own, because go.starlark.net keeps one call stack per thread and a
// suspended body must keep its frames while the code that resumes it goes
// on. The owner (package pyrt's generators, the event loop) hands control
// to the child and waits for it to hand control back, so that only one
// goroutine of a run computes at a time and the run's Budget keeps one
// writer.
//
// The child is the run's in all that a builtin can see: the same budget,
// output, context, host and predeclared names (the thread-locals a run
// sets), its steps charged to the run's budget at each poll and each
// handoff, and its frames counted by the memory meter while it is alive.
// Module state that lives for the whole run (random's generator, open
// files) is reached through RunLocal, which finds the run's own thread.
type Child struct {
	// Thread is where the body runs.
	Thread *starlark.Thread

	b       *Budget
	host    *Host
	charged uint64 // Thread's steps already charged to b
	stop    func()
}

// ErrTooManyChildren is returned by NewChild when the run already holds
// MaxChildren suspended generators and tasks.
var ErrTooManyChildren = errors.New("too many generators and tasks alive at once")

// MaxChildren bounds the children alive at once in one run or session:
// each holds a goroutine and its frames (the memory meter counts them
// too, where a run has a memory budget).
const MaxChildren = 100_000

// childBytes is what the memory meter counts for a child beside its
// frames: the goroutine's stack.
const childBytes = 8 << 10

const rootLocal = "onetool.root"

// NewChild makes a child thread of the run executing on parent, named
// name (the function whose body it runs). The child is registered with
// the run's Host until Done: the memory meter walks its frames, and the
// end of the run (or of the session keeping it) calls the stop function
// set with OnStop.
func NewChild(parent *starlark.Thread, name string) (*Child, error) {
	h := HostOf(parent)
	if h != nil && len(h.children) >= MaxChildren {
		return nil, ErrTooManyChildren
	}
	t := &starlark.Thread{Name: name, Print: parent.Print, Load: parent.Load}
	c := &Child{Thread: t, host: h}
	c.bind(parent)
	t.SetLocal(hostLocal, h)
	t.SetLocal(rootLocal, Root(parent))
	t.OnMaxSteps = c.poll
	if h != nil {
		if h.children == nil {
			h.children = map[*Child]struct{}{}
		}
		h.children[c] = struct{}{}
	}
	return c, nil
}

// bind gives the child the thread-locals of the run executing on parent.
func (c *Child) bind(parent *starlark.Thread) {
	t := c.Thread
	b := BudgetOf(parent)
	c.b = b
	c.charged = t.ExecutionSteps()
	for _, k := range [...]string{budgetLocal, outputLocal, ctxLocal, predeclaredLocal, cellsLocal} {
		if v := parent.Local(k); v != nil {
			t.SetLocal(k, v)
		}
	}
	if b != nil {
		for k, v := range b.lim.opts.Locals {
			t.SetLocal(k, v)
		}
	}
	t.SetMaxExecutionSteps(t.ExecutionSteps() + c.chunk())
}

// OnStop sets what ends the child when its run (or session) ends with the
// child still suspended: stop cancels its thread and waits for its
// goroutine to be gone.
func (c *Child) OnStop(stop func()) { c.stop = stop }

// Enter is called on the resumer's goroutine as control passes to the
// child: a child resumed by a later input of a session takes that input's
// budget and output, and the run's Host points at the child's thread
// (where special methods of instances run) until Leave.
func (c *Child) Enter(resumer *starlark.Thread) (leave func()) {
	if b := BudgetOf(resumer); b != c.b {
		c.bind(resumer)
		c.Thread.SetLocal(rootLocal, Root(resumer))
		if h := HostOf(resumer); h != c.host && h != nil {
			// A value made by one run and resumed by another: the
			// resumer's host keeps it from now on.
			if c.host != nil {
				delete(c.host.children, c)
			}
			c.host = h
			c.Thread.SetLocal(hostLocal, h)
			if h.children == nil {
				h.children = map[*Child]struct{}{}
			}
			h.children[c] = struct{}{}
		}
	}
	h := c.host
	if h == nil {
		return func() {}
	}
	prev := h.thread
	h.thread = c.Thread
	return func() { h.thread = prev }
}

// Settle charges the run's budget with the steps the child computed since
// the last settling. The child calls it before it hands control back.
func (c *Child) Settle() error {
	steps := c.Thread.ExecutionSteps()
	n := steps - c.charged
	c.charged = steps
	return c.b.Charge(n)
}

// Done forgets the child: its body has ended.
func (c *Child) Done() {
	if c.host != nil {
		delete(c.host.children, c)
	}
}

// Root returns the thread of the run that thread belongs to: thread
// itself unless it is a Child's.
func Root(thread *starlark.Thread) *starlark.Thread {
	if r, ok := thread.Local(rootLocal).(*starlark.Thread); ok {
		return r
	}
	return thread
}

// RunLocal is thread.Local(key) for state that lives as long as the run,
// whichever of its threads asks: a module's (random's generator, the
// files open, the decimal context).
func RunLocal(thread *starlark.Thread, key string) any {
	return Root(thread).Local(key)
}

// SetRunLocal sets state RunLocal reads.
func SetRunLocal(thread *starlark.Thread, key string, v any) {
	Root(thread).SetLocal(key, v)
}

// chunk is how many steps the child computes between polls.
func (c *Child) chunk() uint64 {
	b := c.b
	if b == nil {
		return pollSteps
	}
	n := uint64(pollSteps)
	if b.lim.mem != nil {
		n = memPollSteps
	}
	if most := b.lim.opts.MaxSteps; most > 0 {
		left := most - min(most, b.Steps())
		n = min(n, max(left, 1))
	}
	return n
}

// poll is the child's OnMaxSteps: it charges the steps computed, and
// stops the child when the run is over a budget, cancelled or past its
// deadline, as the run's own thread's poll does.
func (c *Child) poll(t *starlark.Thread) {
	b := c.b
	if b == nil {
		t.SetMaxExecutionSteps(t.ExecutionSteps() + pollSteps)
		return
	}
	if b.ended {
		t.Cancel("the run has ended")
		return
	}
	if err := c.Settle(); err != nil {
		t.Cancel(err.Error())
		return
	}
	lim := b.lim
	if k := limitKind(lim.kind.Load()); k != 0 {
		t.Cancel(k.reason())
		return
	}
	if most := lim.opts.MaxSteps; most > 0 && b.Steps() >= most {
		lim.trip(b.thread, errSteps)
		t.Cancel(errSteps.reason())
		return
	}
	t.SetMaxExecutionSteps(t.ExecutionSteps() + c.chunk())
}

// stopChildren ends every child of h still suspended (see OnStop), then
// runs the AtStop hooks: the run (or session) that held them is over.
func (h *Host) stopChildren() {
	if h == nil {
		return
	}
	for len(h.children) > 0 {
		for c := range h.children {
			delete(h.children, c)
			if c.stop != nil {
				c.stop()
			}
		}
	}
	stops := h.stops
	h.stops = nil
	for _, fn := range stops {
		fn()
	}
}

// AtStop registers fn to run when what the program keeps running ends
// with its run (or its session): after its generators and tasks are
// stopped. An event loop lets go of its tool calls' goroutines so.
func AtStop(thread *starlark.Thread, fn func()) {
	if h := HostOf(thread); h != nil {
		h.stops = append(h.stops, fn)
	}
}

// Close ends the generators and tasks the session keeps suspended (each
// holds a goroutine): call it when the session is dropped. Reset does
// it too.
func (s *Session) Close() {
	s.lock()
	defer s.unlock()
	s.host.stopChildren()
}

// visitChildren calls visit with each child thread of the run executing
// on thread, for the memory meter.
func visitChildren(thread *starlark.Thread, visit func(*starlark.Thread)) {
	h := HostOf(thread)
	if h == nil {
		return
	}
	for c := range h.children {
		if c.Thread != thread {
			visit(c.Thread)
		}
	}
}
