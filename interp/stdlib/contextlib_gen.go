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
	return interp.NewBuiltin(fn.Name(), func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return &genCM{fn: fn, args: args, kwargs: kwargs}, nil
	}), nil
}

// genCM is the context manager a contextmanager function's call gives.
type genCM struct {
	cmBase
	fn     starlark.Callable
	args   starlark.Tuple
	kwargs []starlark.Tuple
	gen    *pyrt.Generator
}

func (c *genCM) String() string      { return "<contextlib._GeneratorContextManager object>" }
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
	if pyrt.SameException(thread, err, val) || pyrt.CauseIs(thread, err, val) {
		return starlark.False, nil // the same exception goes on
	}
	return nil, err
}
