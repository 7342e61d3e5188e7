package stdlib

import (
	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// contextmanager(fn): fn is a generator function; calling what
// contextmanager returns makes a context manager whose __enter__ runs the
// generator to its yield (the value `as` binds) and whose __exit__
// resumes it — with the body's exception thrown in at the yield, so that
// its try/except/finally around the yield handles it — as CPython's
// _GeneratorContextManager does.
func contextManager(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "contextmanager() takes exactly one argument (%d given)", len(args))
	}
	fn, ok := args[0].(starlark.Callable)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "contextmanager() argument must be callable, not %s", pyrt.TypeName(args[0]))
	}
	return &cmFunc{fn: fn}, nil
}

// cmFunc is what contextmanager and asynccontextmanager return: a
// function making a context manager per call, which binds to an instance
// as a method does (a def in a class body decorated with it).
type cmFunc struct {
	fn    starlark.Callable
	async bool
}

func (f *cmFunc) String() string        { return "<function " + f.fn.Name() + ">" }
func (f *cmFunc) Type() string          { return "function" }
func (f *cmFunc) Freeze()               {}
func (f *cmFunc) Truth() starlark.Bool  { return true }
func (f *cmFunc) Hash() (uint32, error) { return starlark.String(f.fn.Name()).Hash() }
func (f *cmFunc) Name() string          { return f.fn.Name() }
func (f *cmFunc) Held(visit func(starlark.Value)) {
	visit(f.fn)
}
func (f *cmFunc) AttrNames() []string { return []string{"__name__", "__wrapped__"} }
func (f *cmFunc) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__wrapped__":
		return f.fn, nil
	case "__name__", "__qualname__", "__doc__", "__module__":
		if a, ok := f.fn.(starlark.HasAttrs); ok {
			return a.Attr(name)
		}
		return starlark.String(f.fn.Name()), nil
	}
	return nil, nil
}

func (f *cmFunc) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if f.async {
		return &agenCM{fn: f.fn, args: args, kwargs: kwargs}, nil
	}
	return &genCM{fn: f.fn, args: args, kwargs: kwargs}, nil
}

// DescriptorGet binds the function to the instance it is read through.
func (f *cmFunc) DescriptorGet(_ *starlark.Thread, obj, _ starlark.Value) (starlark.Value, error) {
	if obj == nil || obj == starlark.None {
		return f, nil
	}
	return pyrt.NewBoundMethod(f, obj), nil
}

// genCM is the context manager a contextmanager function's call gives.
type genCM struct {
	cmBase
	fn     starlark.Callable
	args   starlark.Tuple
	kwargs []starlark.Tuple
	gen    *pyrt.Generator
}

func (c *genCM) String() string { return "<contextlib._GeneratorContextManager object>" }
func (c *genCM) Name() string   { return "_GeneratorContextManager" }

// CallInternal is the manager used as a decorator (ContextDecorator):
// each call of the function runs inside a fresh manager of the same
// generator function and arguments.
func (c *genCM) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "'_GeneratorContextManager' object is not callable")
	}
	fn, ok := args[0].(starlark.Callable)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "'_GeneratorContextManager' object is not callable")
	}
	return interp.NewBuiltin(fn.Name(), func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		cm := &genCM{fn: c.fn, args: c.args, kwargs: c.kwargs}
		if _, err := cm.enter(thread, nil, nil, nil); err != nil {
			return nil, err
		}
		v, err := starlark.Call(thread, fn, args, kwargs)
		if err != nil {
			exc, ok := pyrt.ExceptionOf(thread, err)
			if !ok {
				return nil, err
			}
			suppress, xerr := cm.exit(thread, nil, starlark.Tuple{exc.Class(), exc.Value(), starlark.None}, nil)
			if xerr != nil {
				return nil, xerr
			}
			if suppress.Truth() {
				return starlark.None, nil
			}
			return nil, err
		}
		if _, err := cm.exit(thread, nil, starlark.Tuple{starlark.None, starlark.None, starlark.None}, nil); err != nil {
			return nil, err
		}
		return v, nil
	}), nil
}
func (c *genCM) Type() string        { return "_GeneratorContextManager" }
func (c *genCM) AttrNames() []string { return []string{"__enter__", "__exit__"} }
func (c *genCM) Held(visit func(starlark.Value)) {
	visit(c.fn)
	for _, a := range c.args {
		visit(a)
	}
	if c.gen != nil {
		visit(c.gen)
	}
}

func (c *genCM) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__enter__":
		return interp.NewBuiltin("__enter__", c.enter), nil
	case "__exit__":
		return interp.NewBuiltin("__exit__", c.exit), nil
	}
	return nil, nil
}

func (c *genCM) enter(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if c.gen == nil {
		v, err := starlark.Call(thread, c.fn, c.args, c.kwargs)
		if err != nil {
			return nil, err
		}
		g, ok := v.(*pyrt.Generator)
		if !ok || !pyrt.IsGenerator(g) {
			return nil, pyrt.Errorf("TypeError", "'%s' object is not an iterator", pyrt.TypeName(v))
		}
		c.gen = g
	}
	v, done, err := c.gen.Send(thread, nil)
	if err != nil {
		return nil, err
	}
	if done {
		return nil, pyrt.Errorf("RuntimeError", "generator didn't yield")
	}
	return v, nil
}

func (c *genCM) exit(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if c.gen == nil || len(args) != 3 {
		return nil, pyrt.Errorf("TypeError", "__exit__ takes 3 arguments")
	}
	typ, val := args[0], args[1]
	if typ == starlark.None {
		_, done, err := c.gen.Send(thread, nil)
		if err != nil {
			return nil, err
		}
		if !done {
			return nil, pyrt.Errorf("RuntimeError", "generator didn't stop")
		}
		return starlark.False, nil
	}
	if val == starlark.None {
		val = typ
	}
	_, done, err := c.gen.Throw(thread, val)
	if err == nil {
		if !done {
			return nil, pyrt.Errorf("RuntimeError", "generator didn't stop after throw()")
		}
		return starlark.True, nil // the generator caught it: suppressed
	}
	if pyrt.SameException(thread, err, val) {
		return starlark.False, nil // the same exception goes on
	}
	if ex, ok := val.(*pyrt.ExcValue); ok && ex.Class().IsSubclass(pyrt.BuiltinClass("StopIteration")) && pyrt.CauseIs(thread, err, val) {
		return starlark.False, nil // PEP 479's RuntimeError of the StopIteration thrown in
	}
	return nil, err
}

// asyncContextManager is contextlib.asynccontextmanager(fn): fn is an
// async generator function; its calls make async context managers whose
// __aenter__ runs the generator to its yield and whose __aexit__ resumes
// it, the body's exception thrown in, as CPython's
// _AsyncGeneratorContextManager does.
func asyncContextManager(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "asynccontextmanager() takes exactly one argument (%d given)", len(args))
	}
	fn, ok := args[0].(starlark.Callable)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "asynccontextmanager() argument must be callable, not %s", pyrt.TypeName(args[0]))
	}
	return &cmFunc{fn: fn, async: true}, nil
}

// agenCM is the async context manager an asynccontextmanager function's
// call gives.
type agenCM struct {
	cmBase
	fn     starlark.Callable
	args   starlark.Tuple
	kwargs []starlark.Tuple
	gen    *pyrt.Generator
}

func (c *agenCM) String() string      { return "<contextlib._AsyncGeneratorContextManager object>" }
func (c *agenCM) Type() string        { return "_AsyncGeneratorContextManager" }
func (c *agenCM) AttrNames() []string { return []string{"__aenter__", "__aexit__"} }
func (c *agenCM) Held(visit func(starlark.Value)) {
	visit(c.fn)
	for _, a := range c.args {
		visit(a)
	}
	if c.gen != nil {
		visit(c.gen)
	}
}

func (c *agenCM) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__aenter__":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return goCoroutine(thread, "__aenter__", c.enter), nil
		}), nil
	case "__aexit__":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return goCoroutine(thread, "__aexit__", func(thread *starlark.Thread) (starlark.Value, error) {
				return c.exit(thread, args)
			}), nil
		}), nil
	}
	return nil, nil
}

// goCoroutine is a coroutine object whose body is fn.
func goCoroutine(thread *starlark.Thread, name string, fn func(*starlark.Thread) (starlark.Value, error)) starlark.Value {
	body := interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return fn(thread)
	})
	return pyrt.NewCoroutine(thread, name, body)
}

func (c *agenCM) enter(thread *starlark.Thread) (starlark.Value, error) {
	if c.gen == nil {
		v, err := starlark.Call(thread, c.fn, c.args, c.kwargs)
		if err != nil {
			return nil, err
		}
		if !pyrt.IsAsyncGenerator(v) {
			return nil, pyrt.Errorf("TypeError", "'%s' object is not an async iterator", pyrt.TypeName(v))
		}
		c.gen = v.(*pyrt.Generator)
	}
	v, err := pyrt.Await(thread, pyrt.AsyncGenSend(c.gen, nil))
	if err != nil {
		if pyrt.IsStopAsyncIteration(err) {
			return nil, pyrt.Errorf("RuntimeError", "generator didn't yield")
		}
		return nil, err
	}
	return v, nil
}

func (c *agenCM) exit(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
	if c.gen == nil || len(args) != 3 {
		return nil, pyrt.Errorf("TypeError", "__aexit__ takes 3 arguments")
	}
	typ, val := args[0], args[1]
	if typ == starlark.None {
		_, err := pyrt.Await(thread, pyrt.AsyncGenSend(c.gen, nil))
		if err == nil {
			return nil, pyrt.Errorf("RuntimeError", "generator didn't stop")
		}
		if pyrt.IsStopAsyncIteration(err) {
			return starlark.False, nil
		}
		return nil, err
	}
	if val == starlark.None {
		val = typ
	}
	step, err := pyrt.AsyncGenThrow(thread, c.gen, val)
	if err != nil {
		return nil, err
	}
	_, err = pyrt.Await(thread, step)
	if err == nil {
		return nil, pyrt.Errorf("RuntimeError", "generator didn't stop after athrow()")
	}
	if pyrt.IsStopAsyncIteration(err) {
		return starlark.Bool(!pyrt.SameException(thread, err, val)), nil
	}
	if pyrt.SameException(thread, err, val) {
		return starlark.False, nil
	}
	if ex, ok := val.(*pyrt.ExcValue); ok && (ex.Class().IsSubclass(pyrt.BuiltinClass("StopIteration")) || ex.Class().IsSubclass(pyrt.BuiltinClass("StopAsyncIteration"))) && pyrt.CauseIs(thread, err, val) {
		return starlark.False, nil
	}
	return nil, err
}

// newAClosing is contextlib.aclosing(thing): an async context manager
// whose exit awaits thing.aclose().
func newAClosing(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var thing starlark.Value
	if err := unpack("aclosing", args, kwargs, "thing", &thing); err != nil {
		return nil, err
	}
	return &aclosing{thing: thing}, nil
}

type aclosing struct {
	cmBase
	thing starlark.Value
}

func (a *aclosing) String() string                  { return "<contextlib.aclosing object>" }
func (a *aclosing) Type() string                    { return "aclosing" }
func (a *aclosing) AttrNames() []string             { return []string{"thing"} }
func (a *aclosing) Held(visit func(starlark.Value)) { visit(a.thing) }
func (a *aclosing) Attr(name string) (starlark.Value, error) {
	switch name {
	case "thing":
		return a.thing, nil
	case "__aenter__":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return goCoroutine(thread, name, func(*starlark.Thread) (starlark.Value, error) { return a.thing, nil }), nil
		}), nil
	case "__aexit__":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return goCoroutine(thread, name, func(thread *starlark.Thread) (starlark.Value, error) {
				closer, err := pyrt.GetAttr(thread, a.thing, "aclose")
				if err != nil {
					return nil, err
				}
				aw, err := starlark.Call(thread, closer, nil, nil)
				if err != nil {
					return nil, err
				}
				if _, err := pyrt.Await(thread, aw); err != nil {
					return nil, err
				}
				return starlark.None, nil
			}), nil
		}), nil
	}
	return nil, nil
}
