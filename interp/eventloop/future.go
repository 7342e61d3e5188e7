package eventloop

import (
	"fmt"
	"unsafe"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

type futState uint8

const (
	pending futState = iota
	cancelled
	finished
)

// Future is asyncio.Future, and with task set asyncio.Task: a result
// that is not there yet, callbacks to run when it is.
type Future struct {
	loop      *Loop
	state     futState
	result    starlark.Value
	err       error          // the exception it finished with
	cancelMsg starlark.Value // cancel(msg)
	callbacks []callback
	// onCancel cancels what computes the result (a tool call's context).
	onCancel func()
	task     *task
	// cancelledErr is the CancelledError a task's coroutine ended with,
	// raised again by result().
	cancelledErr error
	// gather is set for the future asyncio.gather returns.
	gather *gathering
}

// gathering is what gather's future cancels with it.
type gathering struct {
	children        []*Future
	cancelRequested bool
}

// callback is a done callback: Go's, or a program's callable. id, when
// set, names a Go callback for removeCallback.
type callback struct {
	fn func(thread *starlark.Thread, f *Future) error
	py starlark.Value
	id *int
}

// same reports whether o is cb (for removeCallback).
func (cb callback) same(o callback) bool { return cb.id != nil && cb.id == o.id }

// now is cb as a callback of the loop's (callLater's), with no future.
func (cb callback) now() func(*starlark.Thread) error {
	return func(thread *starlark.Thread) error { return cb.fn(thread, nil) }
}

// task is what a Task has beyond its future: the coroutine it drives.
type task struct {
	coro       starlark.Value
	name       string
	waiter     *Future // the future its coroutine awaits
	mustCancel bool
	cancelMsg  starlark.Value
	cancels    int // cancel() requests not yet uncancel()ed
}

var (
	_ pyrt.Awaitable    = (*Future)(nil)
	_ starlark.HasAttrs = (*Future)(nil)
	_ interp.Holder     = (*Future)(nil)
)

func newFuture(l *Loop) *Future { return &Future{loop: l} }

func (f *Future) String() string {
	state := map[futState]string{pending: "pending", cancelled: "cancelled", finished: "finished"}[f.state]
	if f.task != nil {
		return fmt.Sprintf("<Task %s name='%s'>", state, f.task.name)
	}
	return fmt.Sprintf("<Future %s>", state)
}
func (f *Future) Type() string {
	if f.task != nil {
		return "Task"
	}
	return "Future"
}
func (f *Future) Freeze()              {}
func (f *Future) Truth() starlark.Bool { return true }
func (f *Future) Hash() (uint32, error) {
	p := uintptr(unsafe.Pointer(f))
	return uint32(p>>4) ^ uint32(p>>36), nil
}

// Held is what the future keeps alive, for the memory meter.
func (f *Future) Held(visit func(starlark.Value)) {
	if f.result != nil {
		visit(f.result)
	}
	for _, cb := range f.callbacks {
		if cb.py != nil {
			visit(cb.py)
		}
	}
	if f.task != nil {
		visit(f.task.coro)
	}
}

// Done is pyrt.Awaitable's.
func (f *Future) Done() bool { return f.state != pending }

// Result is pyrt.Awaitable's: the result, or the exception.
func (f *Future) Result(thread *starlark.Thread) (starlark.Value, error) {
	switch f.state {
	case cancelled:
		return nil, f.cancelledError()
	case pending:
		return nil, invalidState("Result is not set.")
	}
	if f.err != nil {
		return nil, f.err
	}
	return f.result, nil
}

// cancelledError is the CancelledError of a cancelled future: the one
// its task's coroutine raised, else one of its message.
func (f *Future) cancelledError() error {
	if f.cancelledErr != nil {
		return f.cancelledErr
	}
	return cancelledError(f.cancelMsg)
}

func (f *Future) setResult(v starlark.Value) {
	f.state, f.result = finished, v
	f.schedule()
}

func (f *Future) setErr(err error) {
	f.state, f.err = finished, err
	f.schedule()
}

// cancel is Future.cancel: false when it is done already.
func (f *Future) cancel(msg starlark.Value) bool {
	if f.state != pending {
		return false
	}
	f.state, f.cancelMsg = cancelled, msg
	if f.onCancel != nil {
		f.onCancel()
	}
	f.schedule()
	return true
}

// schedule runs the done callbacks at the loop's next turn, in the order
// they were added, as Future.__schedule_callbacks does.
func (f *Future) schedule() {
	if f.task != nil {
		delete(f.loop.tasks, f)
	}
	cbs := f.callbacks
	f.callbacks = nil
	for _, cb := range cbs {
		f.loop.callSoon(func(thread *starlark.Thread) error { return cb.run(thread, f) })
	}
}

func (cb callback) run(thread *starlark.Thread, f *Future) error {
	if cb.fn != nil {
		return cb.fn(thread, f)
	}
	_, err := starlark.Call(thread, cb.py, starlark.Tuple{f}, nil)
	if err != nil {
		if _, ok := pyrt.ExceptionOf(thread, err); !ok {
			return err // a budget's
		}
		// CPython logs an exception of a callback and goes on.
	}
	return nil
}

// addCallback runs fn when f is done (at the next turn if it is already).
func (f *Future) addCallback(cb callback) {
	if f.state != pending {
		f.loop.callSoon(func(thread *starlark.Thread) error { return cb.run(thread, f) })
		return
	}
	f.callbacks = append(f.callbacks, cb)
}

// removeCallback drops the callbacks fn (a Go callback, by identity of
// its id) or py.
func (f *Future) removeCallback(match func(callback) bool) int {
	n := 0
	kept := f.callbacks[:0]
	for _, cb := range f.callbacks {
		if match(cb) {
			n++
			continue
		}
		kept = append(kept, cb)
	}
	f.callbacks = kept
	return n
}

// exception is Future.exception(): the exception instance, None.
func (f *Future) exception(thread *starlark.Thread) (starlark.Value, error) {
	switch f.state {
	case cancelled:
		return nil, f.cancelledError()
	case pending:
		return nil, invalidState("Exception is not set.")
	}
	if f.err == nil {
		return starlark.None, nil
	}
	exc, ok := pyrt.ExceptionOf(thread, f.err)
	if !ok {
		return nil, f.err
	}
	return exc.Value(), nil
}

// ---- Tasks ----

// newTask wraps coro in a task of l, whose first step runs at the loop's
// next turn.
func newTask(thread *starlark.Thread, l *Loop, coro starlark.Value, name string) (*Future, error) {
	if !pyrt.IsCoroutine(coro) {
		return nil, pyrt.Errorf("TypeError", "a coroutine was expected, got %s", pyrt.TypeName(coro))
	}
	if len(l.tasks) >= maxTasks {
		return nil, pyrt.Errorf("RuntimeError", "too many tasks at once (at most %d)", maxTasks)
	}
	if err := interp.BudgetOf(thread).Alloc(taskBytes); err != nil {
		return nil, err
	}
	l.taskCount++
	if name == "" {
		name = fmt.Sprintf("Task-%d", l.taskCount)
	}
	f := &Future{loop: l, task: &task{coro: coro, name: name}}
	l.tasks[f] = struct{}{}
	l.callSoon(func(thread *starlark.Thread) error { return f.step(thread, nil) })
	return f, nil
}

// taskBytes is what a task costs the memory budget as it is made: its
// future and, once it runs, a thread (charged again by the meter).
const taskBytes = 512

// step is Task.__step: the coroutine resumed (with exc thrown in, if
// any) until its next await.
func (f *Future) step(thread *starlark.Thread, exc error) error {
	t, l := f.task, f.loop
	if f.state != pending {
		return nil
	}
	if t.mustCancel {
		if exc == nil || !isCancelled(thread, exc) {
			exc = cancelledError(t.cancelMsg)
		}
		t.mustCancel = false
	}
	t.waiter = nil
	prev := l.current
	l.current = f
	awaiting, done, err := pyrt.CoroutineSend(thread, t.coro, exc)
	l.current = prev
	if err != nil {
		if _, ok := pyrt.ExceptionOf(thread, err); !ok {
			return err // a budget's: the run ends
		}
		if isCancelled(thread, err) {
			f.cancelBase(thread, err)
			return nil
		}
		f.setErr(err)
		return nil
	}
	if done {
		if t.mustCancel {
			t.mustCancel = false
			f.cancel(t.cancelMsg)
			return nil
		}
		f.setResult(awaiting)
		return nil
	}
	switch w := awaiting.(type) {
	case *Future:
		if w.loop != l {
			l.callSoon(func(thread *starlark.Thread) error {
				return f.step(thread, pyrt.Errorf("RuntimeError", "Task %s got Future %s attached to a different loop", f, w))
			})
			return nil
		}
		if w == f {
			l.callSoon(func(thread *starlark.Thread) error {
				return f.step(thread, pyrt.Errorf("RuntimeError", "Task cannot await on itself: %s", f))
			})
			return nil
		}
		w.addCallback(callback{fn: f.wakeup})
		t.waiter = w
		if t.mustCancel && w.Cancel(t.cancelMsg) {
			t.mustCancel = false
		}
	case starlark.NoneType:
		l.callSoon(func(thread *starlark.Thread) error { return f.step(thread, nil) })
	default:
		l.callSoon(func(thread *starlark.Thread) error {
			return f.step(thread, pyrt.Errorf("RuntimeError", "Task got bad yield: %s", awaiting))
		})
	}
	return nil
}

// cancelBase ends a task whose coroutine raised CancelledError: it is
// cancelled, and result() raises that error again.
func (f *Future) cancelBase(thread *starlark.Thread, err error) {
	f.cancelledErr = err
	f.cancel(starlark.None)
}

// wakeup is the callback a task waits on its future with.
func (f *Future) wakeup(thread *starlark.Thread, w *Future) error {
	_, err := w.Result(thread)
	return f.step(thread, err)
}

// cancelTask is Task.cancel(msg).
func (f *Future) cancelTask(msg starlark.Value) bool {
	if f.state != pending {
		return false
	}
	t := f.task
	t.cancels++
	if t.waiter != nil && t.waiter.Cancel(msg) {
		return true
	}
	t.mustCancel = true
	t.cancelMsg = msg
	return true
}

// Cancel is cancel() of a future, a task or gather's future.
func (f *Future) Cancel(msg starlark.Value) bool {
	switch {
	case f.task != nil:
		return f.cancelTask(msg)
	case f.gather != nil:
		if f.state != pending {
			return false
		}
		ret := false
		for _, c := range f.gather.children {
			if c.Cancel(msg) {
				ret = true
			}
		}
		if ret {
			f.gather.cancelRequested = true
		}
		return ret
	}
	return f.cancel(msg)
}

// ---- Exceptions ----

var (
	cancelledClass     = pyrt.NewModuleClass("asyncio.exceptions.CancelledError", "BaseException")
	invalidStateClass  = pyrt.NewModuleClass("asyncio.exceptions.InvalidStateError", "Exception")
	queueEmptyClass    = pyrt.NewModuleClass("asyncio.queues.QueueEmpty", "Exception")
	queueFullClass     = pyrt.NewModuleClass("asyncio.queues.QueueFull", "Exception")
	brokenBarrierClass = pyrt.NewModuleClass("asyncio.exceptions.BrokenBarrierError", "RuntimeError")
)

func cancelledError(msg starlark.Value) error {
	if msg == nil || msg == starlark.None {
		return pyrt.NewExc(cancelledClass).Error()
	}
	return pyrt.NewExc(cancelledClass, msg).Error()
}

func invalidState(msg string) error {
	return pyrt.NewExc(invalidStateClass, starlark.String(msg)).Error()
}

func isCancelled(thread *starlark.Thread, err error) bool {
	exc, ok := pyrt.ExceptionOf(thread, err)
	return ok && exc.Class().IsSubclass(cancelledClass)
}

func isClass(thread *starlark.Thread, err error, c *pyrt.ExcClass) bool {
	exc, ok := pyrt.ExceptionOf(thread, err)
	return ok && exc.Class().IsSubclass(c)
}
