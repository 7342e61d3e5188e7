package eventloop

import (
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Module is the asyncio module.
func Module() *starlarkstruct.Module {
	m := starlark.StringDict{
		"run":              builtin("run", runBuiltin),
		"sleep":            builtin("sleep", sleepBuiltin),
		"gather":           builtin("gather", gatherBuiltin),
		"create_task":      builtin("create_task", createTask),
		"ensure_future":    builtin("ensure_future", ensureFutureBuiltin),
		"wait_for":         builtin("wait_for", waitFor),
		"wait":             builtin("wait", waitBuiltin),
		"as_completed":     builtin("as_completed", asCompleted),
		"shield":           builtin("shield", shield),
		"timeout":          builtin("timeout", timeoutBuiltin(false)),
		"timeout_at":       builtin("timeout_at", timeoutBuiltin(true)),
		"current_task":     builtin("current_task", currentTask),
		"all_tasks":        builtin("all_tasks", allTasks),
		"get_running_loop": builtin("get_running_loop", getRunningLoop),
		"get_event_loop":   builtin("get_event_loop", getEventLoop),
		"new_event_loop":   builtin("new_event_loop", newEventLoop),
		"set_event_loop": builtin("set_event_loop", func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, nil
		}),
		"iscoroutine":         builtin("iscoroutine", isCoroutine),
		"iscoroutinefunction": builtin("iscoroutinefunction", isCoroutineFunction),
		"isfuture":            builtin("isfuture", isFuture),
		"Future": &class{name: "Future", ctor: newFutureBuiltin, is: func(v starlark.Value) bool {
			_, ok := v.(*Future)
			return ok
		}},
		"Task": &class{name: "Task", ctor: newTaskBuiltin, is: func(v starlark.Value) bool {
			f, ok := v.(*Future)
			return ok && f.task != nil
		}},
		"Lock":               builtin("Lock", newLock),
		"Event":              builtin("Event", newEvent),
		"Semaphore":          builtin("Semaphore", newSemaphore(false)),
		"BoundedSemaphore":   builtin("BoundedSemaphore", newSemaphore(true)),
		"Condition":          builtin("Condition", newCondition),
		"Barrier":            builtin("Barrier", newBarrier),
		"BrokenBarrierError": brokenBarrierClass,
		"Queue":              builtin("Queue", newQueue(fifo)),
		"LifoQueue":          builtin("LifoQueue", newQueue(lifo)),
		"PriorityQueue":      builtin("PriorityQueue", newQueue(priority)),
		"TaskGroup":          builtin("TaskGroup", newTaskGroup),
		"to_thread":          builtin("to_thread", toThread),
		"Runner":             builtin("Runner", newRunner),
		"CancelledError":     cancelledClass,
		"TimeoutError":       pyrt.BuiltinClass("TimeoutError"),
		"InvalidStateError":  invalidStateClass,
		"QueueEmpty":         queueEmptyClass,
		"QueueFull":          queueFullClass,
		"FIRST_COMPLETED":    starlark.String("FIRST_COMPLETED"),
		"FIRST_EXCEPTION":    starlark.String("FIRST_EXCEPTION"),
		"ALL_COMPLETED":      starlark.String("ALL_COMPLETED"),
		"_toplevel_await":    builtin("_toplevel_await", topLevelAwait),
		"_toplevel_setup":    builtin("_toplevel_setup", topLevelSetup),
	}
	return &starlarkstruct.Module{Name: "asyncio", Members: m}
}

// builtin is a function of the module.
func builtin(name string, fn func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) *starlark.Builtin {
	return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return fn(thread, args, kwargs)
	})
}

// coroutine is a coroutine object whose body is Go: fn runs on the
// awaiting task's thread and may await there with pyrt.Await.
func coroutine(thread *starlark.Thread, name string, fn func(thread *starlark.Thread) (starlark.Value, error)) starlark.Value {
	body := interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return fn(thread)
	})
	return pyrt.NewCoroutine(thread, name, body)
}

// noLoop is get_running_loop()'s error outside a coroutine.
func noLoop() error { return pyrt.Errorf("RuntimeError", "no running event loop") }

// runningLoop is the loop running on thread's run, or the error of code
// that needs one.
func runningLoop(thread *starlark.Thread) (*Loop, error) {
	if l := running(thread); l != nil {
		return l, nil
	}
	if interp.SessionLocal(thread, topLocal) != nil {
		// A program awaiting at its top level: its loop, as the asyncio
		// REPL's is running.
		return topLoop(thread), nil
	}
	return nil, noLoop()
}

// ensureFuture is asyncio.ensure_future: a future as it is, a coroutine
// as a new task, any other awaitable as a task that awaits it.
func ensureFuture(thread *starlark.Thread, l *Loop, x starlark.Value) (*Future, error) {
	switch v := x.(type) {
	case *Future:
		return v, nil
	case *pyrt.Generator:
		if pyrt.IsCoroutine(v) {
			return newTask(thread, l, v, "")
		}
	}
	if _, ok := x.(pyrt.Driver); !ok {
		if aw, err := pyrt.GetAttr(thread, x, "__await__"); err != nil || aw == nil {
			return nil, pyrt.Errorf("TypeError", "An asyncio.Future, a coroutine or an awaitable is required")
		}
	}
	c := coroutine(thread, "_wrap_awaitable", func(thread *starlark.Thread) (starlark.Value, error) {
		return pyrt.Await(thread, x)
	})
	return newTask(thread, l, c, "")
}

// runBuiltin is asyncio.run(main): a new loop runs main to its end;
// tasks left are cancelled, and the loop closes.
func runBuiltin(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var main starlark.Value
	var debug starlark.Value = starlark.None
	if err := starlark.UnpackArgs("run", args, kwargs, "main", &main, "debug?", &debug); err != nil {
		return nil, err
	}
	if running(thread) != nil {
		return nil, pyrt.Errorf("RuntimeError", "asyncio.run() cannot be called from a running event loop")
	}
	if !pyrt.IsCoroutine(main) {
		r, err := interp.Repr(interp.BudgetOf(thread), main)
		if err != nil {
			return nil, err
		}
		return nil, pyrt.Errorf("ValueError", "a coroutine was expected, got %s", r)
	}
	l := newLoop(thread)
	t, err := newTask(thread, l, main, "")
	if err != nil {
		return nil, err
	}
	if err := l.runUntil(thread, t.Done); err != nil {
		return nil, err
	}
	if err := l.cancelAll(thread); err != nil {
		return nil, err
	}
	l.closed = true
	return t.Result(thread)
}

// cancelAll cancels the tasks left and runs the loop until they end, as
// asyncio.run does before it closes the loop.
func (l *Loop) cancelAll(thread *starlark.Thread) error {
	if len(l.tasks) == 0 {
		return nil
	}
	var left []*Future
	for t := range l.tasks {
		left = append(left, t)
	}
	for _, t := range left {
		t.cancelTask(starlark.None)
	}
	return l.runUntil(thread, func() bool {
		for _, t := range left {
			if !t.Done() {
				return false
			}
		}
		return true
	})
}

// topLevelAwait is an await at the top level of a program: the loop of
// its top-level awaits runs until x is done.
func topLevelAwait(thread *starlark.Thread, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, pyrt.Errorf("TypeError", "_toplevel_await takes 1 argument")
	}
	if running(thread) != nil {
		return nil, pyrt.Errorf("SyntaxError", "'await' outside async function")
	}
	l := topLoop(thread)
	f, err := ensureFuture(thread, l, args[0])
	if err != nil {
		if pyrt.IsCoroutine(args[0]) {
			return nil, err
		}
		return nil, pyrt.Errorf("TypeError", "object %s can't be used in 'await' expression", pyrt.TypeName(args[0]))
	}
	if err := l.runUntil(thread, f.Done); err != nil {
		return nil, err
	}
	return f.Result(thread)
}

func topLevelSetup(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	topLoop(thread)
	return starlark.None, nil
}

// sleepBuiltin is asyncio.sleep(delay, result=None).
func sleepBuiltin(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var delay starlark.Value
	var result starlark.Value = starlark.None
	if err := starlark.UnpackArgs("sleep", args, kwargs, "delay", &delay, "result?", &result); err != nil {
		return nil, err
	}
	d, err := seconds(delay, "sleep")
	if err != nil {
		return nil, err
	}
	return coroutine(thread, "sleep", func(thread *starlark.Thread) (starlark.Value, error) {
		if d <= 0 {
			if _, err := pyrt.Await(thread, pyrt.Yield); err != nil {
				return nil, err
			}
			return result, nil
		}
		l, err := runningLoop(thread)
		if err != nil {
			return nil, err
		}
		fut := newFuture(l)
		h := l.callLater(d, func(*starlark.Thread) error {
			if fut.state == pending {
				fut.setResult(result)
			}
			return nil
		})
		defer h.Cancel()
		return pyrt.Await(thread, fut)
	}), nil
}

// seconds reads a delay or timeout.
func seconds(v starlark.Value, fn string) (float64, error) {
	switch x := v.(type) {
	case starlark.Int:
		f, _ := starlark.AsFloat(x)
		return f, nil
	case starlark.Float:
		return float64(x), nil
	case starlark.Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	}
	return 0, pyrt.Errorf("TypeError", "'<=' not supported between instances of '%s' and 'int'", pyrt.TypeName(v))
}

// gatherBuiltin is asyncio.gather(*aws, return_exceptions=False).
func gatherBuiltin(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	returnExceptions := false
	for _, kv := range kwargs {
		if string(kv[0].(starlark.String)) != "return_exceptions" {
			return nil, pyrt.Errorf("TypeError", "gather() got an unexpected keyword argument '%s'", kv[0].(starlark.String))
		}
		returnExceptions = bool(kv[1].Truth())
	}
	l, err := runningLoop(thread)
	if err != nil {
		l = topLoop(thread)
	}
	outer := &Future{loop: l, gather: &gathering{}}
	if len(args) == 0 {
		outer.setResult(starlark.NewList(nil))
		return outer, nil
	}
	var children []*Future
	seen := map[starlark.Value]*Future{}
	nfuts, nfinished := 0, 0
	done := func(thread *starlark.Thread, fut *Future) error {
		nfinished++
		if outer.state != pending {
			return nil
		}
		if !returnExceptions {
			if fut.state == cancelled {
				outer.setErr(fut.cancelledError())
				return nil
			}
			if fut.err != nil {
				outer.setErr(fut.err)
				return nil
			}
		}
		if nfinished < nfuts {
			return nil
		}
		results := make([]starlark.Value, len(children))
		for i, c := range children {
			switch {
			case c.state == cancelled:
				exc, _ := pyrt.ExceptionOf(thread, c.cancelledError())
				results[i] = exc.Value()
			case c.err != nil:
				v, err := c.exception(thread)
				if err != nil {
					return err
				}
				results[i] = v
			default:
				results[i] = c.result
			}
		}
		if outer.gather.cancelRequested {
			outer.setErr(cancelledError(starlark.None))
			return nil
		}
		outer.setResult(starlark.NewList(results))
		return nil
	}
	for _, a := range args {
		var f *Future
		if isHashableKey(a) {
			f = seen[a]
		}
		if f == nil {
			f, err = ensureFuture(thread, l, a)
			if err != nil {
				return nil, err
			}
			nfuts++
			if isHashableKey(a) {
				seen[a] = f
			}
			f.addCallback(callback{fn: done})
		}
		children = append(children, f)
	}
	outer.gather.children = children
	return outer, nil
}

// isHashableKey reports a value that can be a Go map key (a pointer).
func isHashableKey(v starlark.Value) bool {
	switch v.(type) {
	case *Future, *pyrt.Generator:
		return true
	}
	return false
}

// createTask is asyncio.create_task(coro, name=None).
func createTask(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var coro starlark.Value
	var name starlark.Value = starlark.None
	var ctx starlark.Value = starlark.None
	if err := starlark.UnpackArgs("create_task", args, kwargs, "coro", &coro, "name?", &name, "context?", &ctx); err != nil {
		return nil, err
	}
	l, err := runningLoop(thread)
	if err != nil {
		if pyrt.IsCoroutine(coro) {
			_ = pyrt.CoroutineClose(thread, coro)
		}
		return nil, err
	}
	n := ""
	if s, ok := name.(starlark.String); ok {
		n = string(s)
	}
	return newTask(thread, l, coro, n)
}

func ensureFutureBuiltin(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	var loop starlark.Value = starlark.None
	if err := starlark.UnpackArgs("ensure_future", args, kwargs, "coro_or_future", &x, "loop?", &loop); err != nil {
		return nil, err
	}
	l, err := runningLoop(thread)
	if err != nil {
		l = topLoop(thread)
	}
	return ensureFuture(thread, l, x)
}

func currentTask(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	l := running(thread)
	if l == nil {
		if interp.SessionLocal(thread, topLocal) == nil {
			return nil, noLoop()
		}
		l = topLoop(thread)
	}
	if l.current == nil {
		return starlark.None, nil
	}
	return l.current, nil
}

func allTasks(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	l, err := runningLoop(thread)
	if err != nil {
		return nil, err
	}
	s := starlark.NewSet(len(l.tasks))
	for t := range l.tasks {
		_ = s.Insert(t)
	}
	return s, nil
}

func isCoroutine(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, pyrt.Errorf("TypeError", "iscoroutine() takes exactly one argument (%d given)", len(args))
	}
	return starlark.Bool(pyrt.IsCoroutine(args[0])), nil
}

func isCoroutineFunction(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, pyrt.Errorf("TypeError", "iscoroutinefunction() takes exactly one argument (%d given)", len(args))
	}
	return starlark.Bool(pyrt.IsCoroutineFunction(args[0])), nil
}

func isFuture(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, pyrt.Errorf("TypeError", "isfuture() takes exactly one argument (%d given)", len(args))
	}
	_, ok := args[0].(*Future)
	return starlark.Bool(ok), nil
}

func newFutureBuiltin(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	l, err := runningLoop(thread)
	if err != nil {
		l = topLoop(thread)
	}
	return newFuture(l), nil
}

func newTaskBuiltin(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return createTask(thread, args, kwargs)
}

// toThread is asyncio.to_thread(func, *args, **kwargs): a coroutine
// that calls func. There are no threads: the call runs on the awaiting
// task's own thread when the coroutine is awaited, which gives its
// result and errors as CPython's does, without the concurrency (a
// program's own code never runs in parallel here; tool calls do).
func toThread(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, pyrt.Errorf("TypeError", "to_thread() missing 1 required positional argument: 'func'")
	}
	fn, rest := args[0], append(starlark.Tuple(nil), args[1:]...)
	return coroutine(thread, "to_thread", func(thread *starlark.Thread) (starlark.Value, error) {
		return starlark.Call(thread, fn, rest, kwargs)
	}), nil
}

// newRunner is asyncio.Runner(*, debug=None, loop_factory=None): a loop
// that several run() calls share, closed (its tasks cancelled) by
// close() or the end of a with block.
func newRunner(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var debug, factory starlark.Value = starlark.None, starlark.None
	if err := starlark.UnpackArgs("Runner", args, kwargs, "debug?", &debug, "loop_factory?", &factory); err != nil {
		return nil, err
	}
	var l *Loop
	closed := false
	get := func(thread *starlark.Thread) (*Loop, error) {
		if closed {
			return nil, pyrt.Errorf("RuntimeError", "Runner is closed")
		}
		if l == nil {
			l = newLoop(thread)
		}
		return l, nil
	}
	closeRunner := func(thread *starlark.Thread) error {
		if closed || l == nil {
			closed = true
			return nil
		}
		closed = true
		err := l.cancelAll(thread)
		l.closed = true
		return err
	}
	o := &object{typ: "Runner", names: []string{"close", "get_loop", "run"}}
	o.attr = func(name string) (starlark.Value, error) {
		switch name {
		case "run":
			return method(name, func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				var coro, ctx starlark.Value = nil, starlark.None
				if err := starlark.UnpackArgs("run", args, kwargs, "coro", &coro, "context?", &ctx); err != nil {
					return nil, err
				}
				if !pyrt.IsCoroutine(coro) {
					r, err := interp.Repr(interp.BudgetOf(thread), coro)
					if err != nil {
						return nil, err
					}
					return nil, pyrt.Errorf("ValueError", "a coroutine was expected, got %s", r)
				}
				if running(thread) != nil {
					return nil, pyrt.Errorf("RuntimeError", "Runner.run() cannot be called from a running event loop")
				}
				l, err := get(thread)
				if err != nil {
					return nil, err
				}
				t, err := newTask(thread, l, coro, "")
				if err != nil {
					return nil, err
				}
				if err := l.runUntil(thread, t.Done); err != nil {
					return nil, err
				}
				return t.Result(thread)
			}), nil
		case "get_loop":
			return method(name, func(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
				l, err := get(thread)
				if err != nil {
					return nil, err
				}
				return &loopValue{l: l}, nil
			}), nil
		case "close", "__exit__":
			return method(name, func(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
				return starlark.None, closeRunner(thread)
			}), nil
		case "__enter__":
			return method(name, func(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
				if _, err := get(thread); err != nil {
					return nil, err
				}
				return o, nil
			}), nil
		}
		return nil, nil
	}
	return o, nil
}

// class is a class of the module that isinstance knows (asyncio.Task,
// asyncio.Future), made by calling it.
type class struct {
	name string
	is   func(starlark.Value) bool
	ctor func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)
}

var _ pyrt.Class = (*class)(nil)

func (c *class) String() string                    { return "<class '_asyncio." + c.name + "'>" }
func (c *class) Type() string                      { return "type" }
func (c *class) Name() string                      { return c.name }
func (c *class) Freeze()                           {}
func (c *class) Truth() starlark.Bool              { return true }
func (c *class) Hash() (uint32, error)             { return starlark.String(c.name).Hash() }
func (c *class) HasInstance(v starlark.Value) bool { return c.is(v) }
func (c *class) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return c.ctor(thread, args, kwargs)
}
