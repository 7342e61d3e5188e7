package pyrt

import (
	"errors"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// The with statement's runtime (lower_with.go lowers it): __ot_with
// calls the manager's __enter__, the body (a part of the enclosing
// scope, given what __enter__ returned) and then __exit__, with CPython's
// meaning: __exit__(None, None, None) after a body that fell through,
// returned, broke or continued (the body's control code is passed on);
// __exit__(type, value, traceback) after a body that raised, whose true
// result suppresses the exception; an exception __exit__ raises replaces
// the body's, which becomes its __context__. A spent budget, a
// cancellation or an overrun runs no __exit__: the run ends.

// withBuiltins are the helpers of the lowered with statement.
func (rt *runtime) withBuiltins() starlark.StringDict {
	return starlark.StringDict{"__ot_with": &withHelper{rt: rt}}
}

// withHelper is __ot_with(manager, body). It is a value of its own
// rather than a Builtin so that ExceptionOf finds the runtime of the
// running program through it.
type withHelper struct{ rt *runtime }

var _ starlark.Callable = (*withHelper)(nil)

func (h *withHelper) String() string        { return "<built-in function __ot_with>" }
func (h *withHelper) Type() string          { return "builtin_function_or_method" }
func (h *withHelper) Freeze()               {}
func (h *withHelper) Truth() starlark.Bool  { return true }
func (h *withHelper) Hash() (uint32, error) { return starlark.String("__ot_with").Hash() }
func (h *withHelper) Name() string          { return "__ot_with" }

func (h *withHelper) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 || len(kwargs) > 0 {
		return nil, typeError("__ot_with takes 2 arguments")
	}
	return h.rt.with(thread, args[0], args[1])
}

// ContextManager returns the __enter__ and __exit__ of x, as the with
// statement looks them up, or CPython's TypeError when x lacks one (for
// contextlib.ExitStack.enter_context and the object model).
func ContextManager(thread *starlark.Thread, x starlark.Value) (enter, exit starlark.Value, err error) {
	if s, ok := x.(SpecialLookup); ok {
		// An instance of a program's class: its class's methods, not
		// what the instance holds under those names, as in CPython.
		enter, _ = s.LookupSpecial("__enter__")
		exit, _ = s.LookupSpecial("__exit__")
		switch {
		case enter == nil:
			return nil, nil, typeError("'%s' object does not support the context manager protocol", pyTypeName(x))
		case exit == nil:
			return nil, nil, typeError("'%s' object does not support the context manager protocol (missed __exit__ method)", pyTypeName(x))
		}
		return enter, exit, nil
	}
	enter, err = GetAttr(thread, x, "__enter__")
	if err != nil {
		if isAttributeError(err) {
			return nil, nil, typeError("'%s' object does not support the context manager protocol", pyTypeName(x))
		}
		return nil, nil, err
	}
	exit, err = GetAttr(thread, x, "__exit__")
	if err != nil {
		if isAttributeError(err) {
			return nil, nil, typeError("'%s' object does not support the context manager protocol (missed __exit__ method)", pyTypeName(x))
		}
		return nil, nil, err
	}
	return enter, exit, nil
}

func (rt *runtime) with(thread *starlark.Thread, mgr, body starlark.Value) (starlark.Value, error) {
	enter, exit, err := ContextManager(thread, mgr)
	if err != nil {
		return nil, err
	}
	v, err := starlark.Call(thread, enter, nil, nil)
	if err != nil {
		return nil, err
	}
	result, err := starlark.Call(thread, body, starlark.Tuple{v}, nil)
	if err == nil {
		// Fell through, or a return, break or continue: its code goes on
		// once __exit__ has run.
		if _, err := starlark.Call(thread, exit, starlark.Tuple{starlark.None, starlark.None, starlark.None}, nil); err != nil {
			return nil, err
		}
		return result, nil
	}
	if interp.BudgetOf(thread).Tripped() != nil || uncatchable(err) {
		// The run must stop (the engine's cancellation reads as a plain
		// error): no __exit__ may swallow it.
		return nil, err
	}
	exc := rt.excValue(err)
	if cerr := caught(thread, exc, err); cerr != nil {
		return nil, cerr
	}
	if ee := innermostEval(err); ee != nil && exc.origin == nil {
		exc.origin = ee.CallStack
	}
	suppress, xerr := callExit(thread, exit, exc)
	switch {
	case xerr != nil:
		if !uncatchable(xerr) {
			rt.chain(xerr, exc)
		}
		return nil, xerr
	case suppress:
		return starlark.None, nil
	}
	return nil, err
}

// callExit calls exit(type(exc), exc, traceback) with exc the exception
// being handled (sys.exc_info() inside reads it), and reports whether
// its result is true.
func callExit(thread *starlark.Thread, exit starlark.Value, exc *ExcValue) (bool, error) {
	s, _ := thread.Local(handlingLocal).(*[]*ExcValue)
	if s == nil {
		s = new([]*ExcValue)
		thread.SetLocal(handlingLocal, s)
	}
	*s = append(*s, exc)
	defer func() {
		(*s)[len(*s)-1] = nil
		*s = (*s)[:len(*s)-1]
	}()
	r, err := starlark.Call(thread, exit, starlark.Tuple{exc.class, exc, NewTraceback(exc.frames)}, nil)
	if err != nil {
		return false, err
	}
	return bool(r.Truth()), nil
}

// chain makes prev the __context__ of the exception err raised, as
// CPython does for an exception raised while another is handled. An
// exception a builtin raised gets its instance now, so that a handler
// further out sees the context.
func (rt *runtime) chain(err error, prev *ExcValue) {
	var raised *Exception
	if !errors.As(err, &raised) {
		return
	}
	if raised.Value == nil {
		raised.Value = rt.excValue(err)
	}
	SetContext(raised.Value, prev)
}

// SetContext makes prev the __context__ of exc unless exc has one, or
// prev is exc or has exc in its own chain of contexts (which would make
// a cycle), as CPython's exception chaining does.
func SetContext(exc, prev *ExcValue) {
	if exc == nil || prev == nil || exc == prev || exc.context != nil {
		return
	}
	for c, n := prev, 0; c != nil && n < maxFrames; c, n = c.context, n+1 {
		if c == exc {
			return
		}
	}
	exc.context = prev
}

// ExceptionOf is the exception instance err stands for, as an except
// clause of the program running on thread would see it, and whether err
// may be caught at all (a spent budget, a cancellation or an overrun may
// not: then it is nil). For Go code that handles exceptions the way the
// with statement does (contextlib.ExitStack).
func ExceptionOf(thread *starlark.Thread, err error) (*ExcValue, bool) {
	if err == nil || uncatchable(err) || interp.BudgetOf(thread).Tripped() != nil {
		return nil, false
	}
	rt := &runtime{classes: sharedBaseClasses()}
	if h, ok := interp.Predeclared(thread)["__ot_with"].(*withHelper); ok {
		rt = h.rt
	}
	exc := rt.excValue(err)
	var raised *Exception
	if errors.As(err, &raised) && raised.Value == nil {
		raised.Value = exc // the same instance when err is met again
	}
	return exc, true
}

// Raised is the error that raises exc again on thread.
func (e *ExcValue) Raised(thread *starlark.Thread) error { return e.raised(thread) }
