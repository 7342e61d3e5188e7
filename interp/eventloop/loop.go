// Package eventloop is asyncio for onetool's Python: the event loop,
// futures and tasks, and the module programs import (asyncio.run,
// gather, wait_for, TaskGroup, Queue, …), with the scheduling order of
// CPython 3.11's, so that the prints of tasks interleave as CPython's do.
//
// The loop is single-threaded as CPython's is: callbacks run one at a
// time on the thread that runs the loop (the run's own, or the thread of
// whatever called asyncio.run). A task drives its coroutine — whose body
// runs on a child thread of package pyrt, suspended at each await — one
// step per callback, exactly as asyncio.Task.__step does. Only tool calls
// run concurrently: a tool called in a coroutine's body starts on a
// goroutine of its own (interp.Async), bounded as parallel() is, and its
// result comes back to the loop as a completion that sets its future.
//
// Time is the machine's: asyncio.sleep(0.1) takes a tenth of a second of
// the run's deadline. A loop with nothing ready, no timer and no call in
// flight can never go on (every task waits for something no one will
// do); CPython would hang until killed, onetool raises a RuntimeError
// that says so.
package eventloop

import (
	"container/heap"
	"context"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// doneBuffer is how many ended tool calls may wait for the loop to take
// them before their goroutines wait too. How many run at once is the
// run's limits.max_parallel, which every tool call honours.
const doneBuffer = 16

// maxTasks bounds the tasks not done of one loop where the run has no
// memory budget: each may hold a child thread with its frames, which the
// memory meter counts where it has one.
const maxTasks = 1_000_000

// handle is a callback scheduled on the loop.
type handle struct {
	fn        func(thread *starlark.Thread) error
	cancelled bool
	when      time.Time
	seq       uint64
}

// Cancel drops the handle (a timer's) before it runs.
func (h *handle) Cancel() { h.cancelled = true }

type timerHeap []*handle

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if h[i].when.Equal(h[j].when) {
		return h[i].seq < h[j].seq
	}
	return h[i].when.Before(h[j].when)
}
func (h timerHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *timerHeap) Push(x any)   { *h = append(*h, x.(*handle)) }
func (h *timerHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return x
}

// completion is a tool call's end, sent by its goroutine.
type completion struct {
	fut   *Future
	value starlark.Value
	err   error
}

// Loop is an event loop.
type Loop struct {
	ready     []*handle
	timers    timerHeap
	seq       uint64
	done      chan completion
	inFlight  int // tool calls started and not yet completed
	running   bool
	closed    bool
	tasks     map[*Future]struct{} // tasks not done
	current   *Future              // the task whose step runs
	epoch     time.Time
	ctx       context.Context
	taskCount int  // tasks made, for their names (Task-1, …)
	top       bool // the loop of the program's top-level awaits
	// gone is closed when the run (or session) that made the loop ends:
	// a tool call that ends after that has no one to tell.
	gone chan struct{}
}

func newLoop(thread *starlark.Thread) *Loop {
	l := &Loop{done: make(chan completion, doneBuffer), tasks: map[*Future]struct{}{}, epoch: time.Now(), ctx: interp.Context(thread), gone: make(chan struct{})}
	interp.AtStop(thread, func() { close(l.gone) })
	return l
}

// time is loop.time(): seconds on the loop's monotonic clock.
func (l *Loop) time() float64 { return time.Since(l.epoch).Seconds() }

// callSoon schedules fn to run at the loop's next turn, after every
// callback already scheduled.
func (l *Loop) callSoon(fn func(thread *starlark.Thread) error) *handle {
	h := &handle{fn: fn}
	l.ready = append(l.ready, h)
	return h
}

// callLater schedules fn to run once delay has passed.
func (l *Loop) callLater(delay float64, fn func(thread *starlark.Thread) error) *handle {
	if delay < 0 {
		delay = 0
	}
	l.seq++
	h := &handle{fn: fn, when: time.Now().Add(time.Duration(delay * float64(time.Second))), seq: l.seq}
	heap.Push(&l.timers, h)
	return h
}

// runUntil runs the loop until done reports true.
func (l *Loop) runUntil(thread *starlark.Thread, done func() bool) error {
	if l.running {
		return pyrt.Errorf("RuntimeError", "This event loop is already running")
	}
	l.running = true
	l.ctx = interp.Context(thread) // a session's loop runs in one input, then another
	interp.SetAsync(thread, hook{})
	prev, _ := interp.RunLocal(thread, runningLocal).(*Loop)
	interp.SetRunLocal(thread, runningLocal, l)
	defer func() {
		l.running = false
		interp.SetRunLocal(thread, runningLocal, prev)
	}()
	for !done() {
		if err := l.runOnce(thread); err != nil {
			return err
		}
	}
	return nil
}

// runOnce is one turn of the loop, as BaseEventLoop._run_once: wait for
// what is due (no longer than the nearest timer), then run the callbacks
// ready now — those they schedule wait for the next turn.
func (l *Loop) runOnce(thread *starlark.Thread) error {
	b := interp.BudgetOf(thread)
	for len(l.timers) > 0 && l.timers[0].cancelled {
		heap.Pop(&l.timers)
	}
	if len(l.ready) == 0 {
		var wait <-chan time.Time
		if len(l.timers) > 0 {
			d := time.Until(l.timers[0].when)
			if d > 0 {
				t := time.NewTimer(d)
				defer t.Stop()
				wait = t.C
			}
		} else if l.inFlight == 0 {
			return pyrt.Errorf("RuntimeError", "the event loop has nothing left to run: every task waits for something no task will do (an Event never set, a Queue never filled, a future never given a result)")
		}
		if wait != nil || len(l.timers) == 0 {
			select {
			case c := <-l.done:
				l.complete(c)
			case <-wait:
			case <-l.ctx.Done():
				// The run's deadline or cancellation: the budget says which.
				if err := b.Check(); err != nil {
					return err
				}
				return l.ctx.Err()
			}
		}
	}
	// Tool calls that ended meanwhile.
	for more := true; more; {
		select {
		case c := <-l.done:
			l.complete(c)
		default:
			more = false
		}
	}
	now := time.Now()
	for len(l.timers) > 0 {
		h := l.timers[0]
		if h.cancelled {
			heap.Pop(&l.timers)
			continue
		}
		if h.when.After(now) {
			break
		}
		heap.Pop(&l.timers)
		l.ready = append(l.ready, h)
	}
	n := len(l.ready)
	for i := 0; i < n; i++ {
		h := l.ready[0]
		l.ready[0] = nil
		l.ready = l.ready[1:]
		if h.cancelled {
			continue
		}
		if err := b.Charge(1); err != nil {
			return err
		}
		if err := h.fn(thread); err != nil {
			return err
		}
	}
	return nil
}

// complete sets the future of a tool call that ended.
func (l *Loop) complete(c completion) {
	l.inFlight--
	if c.fut.state != pending {
		return // cancelled meanwhile
	}
	if c.err != nil {
		c.fut.setErr(c.err)
		return
	}
	c.fut.setResult(c.value)
}

// hook is the run's interp.Async: a tool called in a coroutine's body
// starts on the loop the coroutine runs on.
type hook struct{}

func (hook) Here(thread *starlark.Thread) bool { return pyrt.InCoroutine(thread) }

// Go gives a coroutine, as an async client library's function would:
// awaited (or made a task by gather or create_task), it starts the call
// on the loop it runs on and waits for its result.
func (hook) Go(thread *starlark.Thread, name string, call func(ctx context.Context) (starlark.Value, error)) (starlark.Value, error) {
	return coroutine(thread, name, func(thread *starlark.Thread) (starlark.Value, error) {
		l, err := runningLoop(thread)
		if err != nil {
			return nil, err
		}
		fut, err := l.start(thread, name, call)
		if err != nil {
			return nil, err
		}
		return pyrt.Await(thread, fut)
	}), nil
}

// start runs call on a goroutine of its own; the loop sets its future
// when it ends. Cancelling the future cancels the call's context.
// Several run at once as the run's limits allow (the tool runner waits
// for a slot of limits.max_parallel), as parallel()'s calls do.
func (l *Loop) start(thread *starlark.Thread, name string, call func(ctx context.Context) (starlark.Value, error)) (*Future, error) {
	fut := newFuture(l)
	ctx, cancel := context.WithCancel(interp.Context(thread))
	fut.onCancel = cancel
	l.inFlight++
	done, gone := l.done, l.gone
	// The goroutine touches nothing of the thread's: the coroutine that
	// awaits the call may run again meanwhile (cancelled by a timeout).
	go func() {
		defer cancel()
		c := completion{fut: fut}
		func() {
			defer func() {
				if r := recover(); r != nil {
					c.err = pyrt.Errorf("RuntimeError", "%s failed: panic: %v", name, r)
				}
			}()
			c.value, c.err = call(ctx)
		}()
		// Delivered even when the call was cancelled, so that the loop
		// counts it ended; dropped only once no one reads the loop.
		select {
		case done <- c:
		case <-gone:
		}
	}()
	return fut, nil
}

// runningLocal is the run-local holding the loop that is running.
const runningLocal = "onetool.eventloop.running"

// topLocal is the run-local holding the loop of the program's top-level
// awaits, made by the first.
const topLocal = "onetool.eventloop.top"

// running is the loop running on thread's run, nil when none is.
func running(thread *starlark.Thread) *Loop {
	l, _ := interp.RunLocal(thread, runningLocal).(*Loop)
	return l
}

// loopOf is the loop a future or task made now belongs to: the running
// one, else the loop of the program's top-level awaits.
func loopOf(thread *starlark.Thread) *Loop {
	if l := running(thread); l != nil {
		return l
	}
	return topLoop(thread)
}

// topLoop is the loop of the program's top-level awaits, made by the
// first: in a session, one for all its inputs, as the asyncio REPL's.
func topLoop(thread *starlark.Thread) *Loop {
	l, _ := interp.SessionLocal(thread, topLocal).(*Loop)
	if l == nil {
		l = newLoop(thread)
		l.top = true
		interp.SetSessionLocal(thread, topLocal, l)
	}
	interp.SetAsync(thread, hook{})
	return l
}
