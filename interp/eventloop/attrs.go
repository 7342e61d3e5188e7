package eventloop

import (
	"fmt"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp/pyrt"
)

// The methods of futures, tasks and loops, and asyncio.timeout.

var futureNames = []string{"add_done_callback", "cancel", "cancelled", "done", "exception", "get_loop", "remove_done_callback", "result", "set_exception", "set_result"}
var taskNames = append([]string{"cancelling", "get_coro", "get_name", "set_name", "uncancel"}, futureNames...)

func (f *Future) AttrNames() []string {
	if f.task != nil {
		return taskNames
	}
	return futureNames
}

func (f *Future) Attr(name string) (starlark.Value, error) {
	m := func(fn func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) (starlark.Value, error) {
		return method(name, fn), nil
	}
	none := func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) error {
		if len(args)+len(kwargs) > 0 {
			return pyrt.Errorf("TypeError", "%s() takes no arguments (%d given)", name, len(args)+len(kwargs))
		}
		return nil
	}
	switch name {
	case "done":
		return m(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bool(f.Done()), none(thread, args, kwargs)
		})
	case "cancelled":
		return m(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bool(f.state == cancelled), none(thread, args, kwargs)
		})
	case "result":
		return m(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := none(thread, args, kwargs); err != nil {
				return nil, err
			}
			return f.Result(thread)
		})
	case "exception":
		return m(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := none(thread, args, kwargs); err != nil {
				return nil, err
			}
			return f.exception(thread)
		})
	case "cancel":
		return m(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var msg starlark.Value = starlark.None
			if err := starlark.UnpackArgs("cancel", args, kwargs, "msg?", &msg); err != nil {
				return nil, err
			}
			return starlark.Bool(f.Cancel(msg)), nil
		})
	case "add_done_callback":
		return m(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var fn, ctx starlark.Value = nil, starlark.None
			if err := starlark.UnpackArgs(name, args, kwargs, "fn", &fn, "context?", &ctx); err != nil {
				return nil, err
			}
			f.addCallback(callback{py: fn})
			return starlark.None, nil
		})
	case "remove_done_callback":
		return m(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var fn starlark.Value
			if err := starlark.UnpackArgs(name, args, kwargs, "fn", &fn); err != nil {
				return nil, err
			}
			n := f.removeCallback(func(cb callback) bool {
				if cb.py == nil {
					return false
				}
				eq, err := pyrt.Compare(thread, syntax.EQL, cb.py, fn)
				return err == nil && eq
			})
			return starlark.MakeInt(n), nil
		})
	case "set_result", "set_exception":
		if f.task != nil {
			return m(func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
				return nil, pyrt.Errorf("RuntimeError", "Task does not support %s operation", name)
			})
		}
		return m(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackArgs(name, args, kwargs, "result", &v); err != nil {
				return nil, err
			}
			if f.state != pending {
				return nil, invalidState("invalid state")
			}
			if name == "set_result" {
				f.setResult(v)
				return starlark.None, nil
			}
			err, terr := raisable(thread, v)
			if terr != nil {
				return nil, terr
			}
			f.setErr(err)
			return starlark.None, nil
		})
	case "get_loop":
		return m(func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return &loopValue{l: f.loop}, nil
		})
	}
	if f.task == nil {
		return nil, nil
	}
	t := f.task
	switch name {
	case "get_name":
		return m(func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.String(t.name), nil
		})
	case "set_name":
		return m(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackArgs(name, args, kwargs, "value", &v); err != nil {
				return nil, err
			}
			if s, ok := v.(starlark.String); ok {
				t.name = string(s)
			} else {
				t.name = v.String()
			}
			return starlark.None, nil
		})
	case "get_coro":
		return m(func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return t.coro, nil
		})
	case "cancelling":
		return m(func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt(t.cancels), nil
		})
	case "uncancel":
		return m(func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			if t.cancels > 0 {
				t.cancels--
			}
			return starlark.MakeInt(t.cancels), nil
		})
	}
	return nil, nil
}

// raisable is the error raising v, an exception instance or class.
func raisable(thread *starlark.Thread, v starlark.Value) (error, error) {
	err := pyrt.RaiseValue(thread, v)
	if _, ok := pyrt.ExceptionOf(thread, err); !ok {
		return nil, err
	}
	return err, nil
}

// loopValue is an event loop as a program holds it
// (asyncio.get_running_loop()).
type loopValue struct{ l *Loop }

func (v *loopValue) String() string {
	return fmt.Sprintf("<_UnixSelectorEventLoop running=%s closed=%s debug=False>", pyBool(v.l.running), pyBool(v.l.closed))
}
func (v *loopValue) Type() string          { return "_UnixSelectorEventLoop" }
func (v *loopValue) Freeze()               {}
func (v *loopValue) Truth() starlark.Bool  { return true }
func (v *loopValue) Hash() (uint32, error) { return 0, nil }
func (v *loopValue) AttrNames() []string {
	return []string{"call_at", "call_later", "call_soon", "close", "create_future", "create_task", "is_closed", "is_running", "run_until_complete", "time"}
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

func (v *loopValue) Attr(name string) (starlark.Value, error) {
	l := v.l
	scheduled := func(delay func(args starlark.Tuple) (float64, starlark.Tuple, error)) (starlark.Value, error) {
		return method(name, func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			d, rest, err := delay(args)
			if err != nil {
				return nil, err
			}
			if len(rest) == 0 {
				return nil, pyrt.Errorf("TypeError", "%s() missing the callback", name)
			}
			fn, cargs := rest[0], append(starlark.Tuple(nil), rest[1:]...)
			run := func(thread *starlark.Thread) error {
				_, err := starlark.Call(thread, fn, cargs, nil)
				if err != nil {
					if _, ok := pyrt.ExceptionOf(thread, err); !ok {
						return err
					}
				}
				return nil
			}
			var h *handle
			if d < 0 {
				h = l.callSoon(run)
			} else {
				h = l.callLater(d, run)
			}
			return &handleValue{h: h}, nil
		}), nil
	}
	switch name {
	case "time":
		return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.Float(l.time()), nil
		}), nil
	case "call_soon":
		return scheduled(func(args starlark.Tuple) (float64, starlark.Tuple, error) { return -1, args, nil })
	case "call_later", "call_at":
		return scheduled(func(args starlark.Tuple) (float64, starlark.Tuple, error) {
			if len(args) == 0 {
				return 0, nil, pyrt.Errorf("TypeError", "%s() missing the delay", name)
			}
			d, err := seconds(args[0], name)
			if name == "call_at" {
				d -= l.time()
			}
			return max(d, 0), args[1:], err
		})
	case "run_in_executor":
		// No threads: func runs as a task of the loop, on its thread; its
		// future gives the result as CPython's executor's does.
		return method(name, func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) < 2 || len(kwargs) > 0 {
				return nil, pyrt.Errorf("TypeError", "run_in_executor() takes an executor, a function and its arguments")
			}
			c, err := toThread(thread, args[1:], nil)
			if err != nil {
				return nil, err
			}
			return newTask(thread, l, c, "")
		}), nil
	case "create_future":
		return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return newFuture(l), nil
		}), nil
	case "create_task":
		return method(name, func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var coro starlark.Value
			var nm starlark.Value = starlark.None
			if err := starlark.UnpackArgs(name, args, kwargs, "coro", &coro, "name?", &nm); err != nil {
				return nil, err
			}
			n := ""
			if s, ok := nm.(starlark.String); ok {
				n = string(s)
			}
			return newTask(thread, l, coro, n)
		}), nil
	case "is_running":
		return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			// The loop of a program's top-level awaits runs as the
			// asyncio REPL's does: always.
			return starlark.Bool(l.running || l.top), nil
		}), nil
	case "is_closed":
		return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bool(l.closed), nil
		}), nil
	case "close":
		return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			if l.running {
				return nil, pyrt.Errorf("RuntimeError", "Cannot close a running event loop")
			}
			l.closed = true
			return starlark.None, nil
		}), nil
	case "run_until_complete":
		return method(name, func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var x starlark.Value
			if err := starlark.UnpackArgs(name, args, kwargs, "future", &x); err != nil {
				return nil, err
			}
			if l.closed {
				return nil, pyrt.Errorf("RuntimeError", "Event loop is closed")
			}
			if running(thread) != nil {
				return nil, pyrt.Errorf("RuntimeError", "Cannot run the event loop while another loop is running")
			}
			f, err := ensureFuture(thread, l, x)
			if err != nil {
				return nil, err
			}
			if err := l.runUntil(thread, f.Done); err != nil {
				return nil, err
			}
			return f.Result(thread)
		}), nil
	}
	return nil, nil
}

// handleValue is a scheduled callback (loop.call_later's handle).
type handleValue struct{ h *handle }

func (v *handleValue) String() string        { return "<TimerHandle>" }
func (v *handleValue) Type() string          { return "TimerHandle" }
func (v *handleValue) Freeze()               {}
func (v *handleValue) Truth() starlark.Bool  { return true }
func (v *handleValue) Hash() (uint32, error) { return 0, nil }
func (v *handleValue) AttrNames() []string   { return []string{"cancel", "cancelled"} }
func (v *handleValue) Attr(name string) (starlark.Value, error) {
	switch name {
	case "cancel":
		return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			v.h.Cancel()
			return starlark.None, nil
		}), nil
	case "cancelled":
		return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bool(v.h.cancelled), nil
		}), nil
	}
	return nil, nil
}

// ---- asyncio.timeout ----

// timeoutBuiltin is asyncio.timeout(delay) (at false) or
// asyncio.timeout_at(when): an async context manager that cancels the
// task at the deadline and turns the CancelledError into TimeoutError as
// the block is left, as CPython 3.11's Timeout does.
func timeoutBuiltin(at bool) func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var d starlark.Value
		name := "timeout"
		if at {
			name = "timeout_at"
		}
		if err := starlark.UnpackArgs(name, args, kwargs, "delay", &d); err != nil {
			return nil, err
		}
		l, err := runningLoop(thread)
		if err != nil {
			return nil, err
		}
		var when *float64
		if d != starlark.None {
			s, err := seconds(d, name)
			if err != nil {
				return nil, err
			}
			if !at {
				s += l.time()
			}
			when = &s
		}
		return newTimeout(l, when), nil
	}
}

const (
	tmCreated = iota
	tmEntered
	tmExpiring
	tmExpired
	tmExited
)

func newTimeout(l *Loop, when *float64) starlark.Value {
	state := tmCreated
	var task *Future
	cancelling := 0 // the task's cancel requests as the block was entered
	var h *handle
	o := &object{typ: "Timeout", names: []string{"expired", "reschedule", "when"}}
	onTimeout := func(*starlark.Thread) error {
		task.cancelTask(starlark.None)
		state = tmExpiring
		h = nil
		return nil
	}
	reschedule := func(w *float64) error {
		if state != tmEntered {
			return pyrt.Errorf("RuntimeError", "Cannot change state of %s Timeout", [...]string{"created", "active", "expiring", "expired", "finished"}[state])
		}
		when = w
		if h != nil {
			h.Cancel()
			h = nil
		}
		if w != nil {
			if *w <= l.time() {
				h = l.callSoon(onTimeout)
			} else {
				h = l.callLater(*w-l.time(), onTimeout)
			}
		}
		return nil
	}
	o.repr = func() string {
		names := [...]string{"created", "active", "expiring", "expired", "finished"}
		if state == tmEntered {
			if when == nil {
				return "<Timeout [active] when=None>"
			}
			return fmt.Sprintf("<Timeout [active] when=%s>", starlark.Float(float64(int64(*when*1000+0.5))/1000))
		}
		return fmt.Sprintf("<Timeout [%s]>", names[state])
	}
	o.attr = func(name string) (starlark.Value, error) {
		switch name {
		case "when":
			return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
				if when == nil {
					return starlark.None, nil
				}
				return starlark.Float(*when), nil
			}), nil
		case "expired":
			return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
				return starlark.Bool(state == tmExpiring || state == tmExpired), nil
			}), nil
		case "reschedule":
			return method(name, func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				var w starlark.Value
				if err := starlark.UnpackArgs(name, args, kwargs, "when", &w); err != nil {
					return nil, err
				}
				if w == starlark.None {
					return starlark.None, reschedule(nil)
				}
				s, err := seconds(w, name)
				if err != nil {
					return nil, err
				}
				return starlark.None, reschedule(&s)
			}), nil
		case "__aenter__":
			return method(name, func(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
				return coroutine(thread, "Timeout.__aenter__", func(thread *starlark.Thread) (starlark.Value, error) {
					if state != tmCreated {
						return nil, pyrt.Errorf("RuntimeError", "Timeout has already been entered")
					}
					if l.current == nil {
						return nil, pyrt.Errorf("RuntimeError", "Timeout should be used inside a task")
					}
					state, task = tmEntered, l.current
					cancelling = task.task.cancels
					return o, reschedule(when)
				}), nil
			}), nil
		case "__aexit__":
			return method(name, func(thread *starlark.Thread, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
				return coroutine(thread, "Timeout.__aexit__", func(thread *starlark.Thread) (starlark.Value, error) {
					if h != nil {
						h.Cancel()
						h = nil
					}
					switch state {
					case tmExpiring:
						state = tmExpired
						t := task.task
						if t.cancels > 0 {
							t.cancels--
						}
						if t.cancels <= cancelling && len(args) > 1 && args[0] == starlark.Value(cancelledClass) {
							exc := pyrt.NewExc(pyrt.BuiltinClass("TimeoutError"))
							if c, ok := args[1].(*pyrt.ExcValue); ok {
								exc.SetCause(c)
							}
							return nil, exc.Error()
						}
					case tmEntered:
						state = tmExited
					}
					return starlark.None, nil
				}), nil
			}), nil
		}
		return nil, nil
	}
	return o
}
