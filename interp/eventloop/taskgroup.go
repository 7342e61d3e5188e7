package eventloop

import (
	"slices"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp/pyrt"
)

// taskGroup is asyncio.TaskGroup, as CPython 3.11's: tasks made with
// create_task are awaited as the async with block is left; the first to
// fail cancels the others and the block, and the failures are raised
// together as an ExceptionGroup.
type taskGroup struct {
	loop            *Loop
	parent          *Future
	tasks           []*Future
	errors          []error
	baseError       error
	entered         bool
	exiting         bool
	aborting        bool
	parentCancelled bool
	onCompleted     *Future
}

func newTaskGroup(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args)+len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "TaskGroup() takes no arguments")
	}
	g := &taskGroup{}
	o := &object{typ: "TaskGroup", names: []string{"create_task"}, state: g}
	o.repr = func() string {
		s := "<TaskGroup"
		if len(g.tasks) > 0 {
			s += " tasks=" + starlark.MakeInt(len(g.tasks)).String()
		}
		if len(g.errors) > 0 {
			s += " errors=" + starlark.MakeInt(len(g.errors)).String()
		}
		if g.aborting {
			s += " cancelling"
		} else if g.entered {
			s += " entered"
		}
		return s + ">"
	}
	o.held = func(visit func(starlark.Value)) {
		for _, t := range g.tasks {
			visit(t)
		}
	}
	o.attr = func(name string) (starlark.Value, error) {
		switch name {
		case "create_task":
			return method(name, func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				var coro starlark.Value
				var nm, ctx starlark.Value = starlark.None, starlark.None
				if err := starlark.UnpackArgs(name, args, kwargs, "coro", &coro, "name?", &nm, "context?", &ctx); err != nil {
					return nil, err
				}
				return g.createTask(thread, o, coro, nm)
			}), nil
		case "__aenter__":
			return method(name, func(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
				return coroutine(thread, "TaskGroup.__aenter__", func(thread *starlark.Thread) (starlark.Value, error) {
					if g.entered {
						return nil, pyrt.Errorf("RuntimeError", "TaskGroup %s has already been entered", o)
					}
					l, err := runningLoop(thread)
					if err != nil {
						return nil, err
					}
					g.loop, g.parent = l, l.current
					if g.parent == nil {
						return nil, pyrt.Errorf("RuntimeError", "TaskGroup %s cannot determine the parent task", o)
					}
					g.entered = true
					return o, nil
				}), nil
			}), nil
		case "__aexit__":
			return method(name, func(thread *starlark.Thread, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
				return coroutine(thread, "TaskGroup.__aexit__", func(thread *starlark.Thread) (starlark.Value, error) {
					return g.exit(thread, args)
				}), nil
			}), nil
		}
		return nil, nil
	}
	return o, nil
}

func (g *taskGroup) createTask(thread *starlark.Thread, o *object, coro, name starlark.Value) (starlark.Value, error) {
	fail := func(msg string) (starlark.Value, error) {
		_ = pyrt.CoroutineClose(thread, coro)
		return nil, pyrt.Errorf("RuntimeError", "TaskGroup %s %s", o, msg)
	}
	switch {
	case !g.entered:
		return fail("has not been entered")
	case g.exiting && len(g.tasks) == 0:
		return fail("is finished")
	case g.aborting:
		return fail("is shutting down")
	}
	n := ""
	if s, ok := name.(starlark.String); ok {
		n = string(s)
	}
	t, err := newTask(thread, g.loop, coro, n)
	if err != nil {
		return nil, err
	}
	t.addCallback(callback{fn: g.onTaskDone})
	g.tasks = append(g.tasks, t)
	return t, nil
}

func isBaseError(thread *starlark.Thread, err error) bool {
	return isClass(thread, err, pyrt.BuiltinClass("SystemExit")) || isClass(thread, err, pyrt.BuiltinClass("KeyboardInterrupt"))
}

func (g *taskGroup) abort() {
	g.aborting = true
	for _, t := range g.tasks {
		if !t.Done() {
			t.cancelTask(starlark.None)
		}
	}
}

func (g *taskGroup) onTaskDone(thread *starlark.Thread, t *Future) error {
	if i := slices.Index(g.tasks, t); i >= 0 {
		g.tasks = slices.Delete(g.tasks, i, i+1)
	}
	if g.onCompleted != nil && len(g.tasks) == 0 && g.onCompleted.state == pending {
		g.onCompleted.setResult(starlark.True)
	}
	if t.state == cancelled || t.err == nil {
		return nil
	}
	g.errors = append(g.errors, t.err)
	if isBaseError(thread, t.err) && g.baseError == nil {
		g.baseError = t.err
	}
	if g.parent.Done() {
		return nil
	}
	if !g.aborting && !g.parentCancelled {
		g.abort()
		g.parentCancelled = true
		g.parent.cancelTask(starlark.None)
	}
	return nil
}

// exit is __aexit__(et, exc, tb).
func (g *taskGroup) exit(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
	g.exiting = true
	var et, exc starlark.Value = starlark.None, starlark.None
	if len(args) >= 2 {
		et, exc = args[0], args[1]
	}
	var excErr error
	if exc != starlark.None {
		var terr error
		if excErr, terr = raisable(thread, exc); terr != nil {
			return nil, terr
		}
		if isBaseError(thread, excErr) && g.baseError == nil {
			g.baseError = excErr
		}
	}
	var propagate error
	if et == starlark.Value(cancelledClass) {
		propagate = excErr
	}
	if g.parentCancelled {
		t := g.parent.task
		if t.cancels > 0 {
			t.cancels--
		}
		if t.cancels == 0 {
			propagate = nil
		}
	}
	if et != starlark.None && !g.aborting {
		g.abort()
	}
	for len(g.tasks) > 0 {
		if g.onCompleted == nil {
			g.onCompleted = newFuture(g.loop)
		}
		if _, err := pyrt.Await(thread, g.onCompleted); err != nil {
			if !isCancelled(thread, err) {
				return nil, err
			}
			if !g.aborting {
				propagate = err
				g.abort()
			}
		}
		g.onCompleted = nil
	}
	if g.baseError != nil {
		return nil, g.baseError
	}
	if propagate != nil && len(g.errors) == 0 {
		return nil, propagate
	}
	if et != starlark.None && et != starlark.Value(cancelledClass) {
		g.errors = append(g.errors, excErr)
	}
	if len(g.errors) > 0 {
		var excs []*pyrt.ExcValue
		for _, e := range g.errors {
			if x, ok := pyrt.ExceptionOf(thread, e); ok {
				excs = append(excs, x)
			}
		}
		g.errors = nil
		me := pyrt.NewExceptionGroup("unhandled errors in a TaskGroup", excs, false)
		me.SetCause(nil)
		return nil, me.Error()
	}
	return starlark.None, nil
}
