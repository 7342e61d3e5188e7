package stdlib

import (
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/objects"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// ContextLib is the contextlib module: the context managers of CPython's
// written in Go, for the with statement (interp/pyrt/with.go), which
// looks up their __enter__ and __exit__ as it does anyone's. suppress,
// closing, nullcontext, ExitStack, redirect_stdout and redirect_stderr
// behave as CPython 3.11's; AbstractContextManager is the class that
// isinstance finds every context manager an instance of. contextmanager
// makes context managers of generator functions (contextlib_gen.go).
func ContextLib() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "contextlib", Members: starlark.StringDict{
		"suppress":               suppressClass,
		"closing":                closingClass,
		"nullcontext":            nullContextClass,
		"ExitStack":              exitStackClass,
		"redirect_stdout":        redirectStdoutClass,
		"redirect_stderr":        redirectStderrClass,
		"AbstractContextManager": abstractCMClass,
		"contextmanager":         interp.NewBuiltin("contextmanager", contextManager),
		"asynccontextmanager":    interp.NewBuiltin("asynccontextmanager", asyncContextManager),
		"aclosing":               interp.NewBuiltin("aclosing", newAClosing),
	}}
}

var (
	suppressClass       = &pyClass{module: "contextlib", name: "suppress", is: isOf[*suppress], ctor: newSuppress}
	closingClass        = &pyClass{module: "contextlib", name: "closing", is: isOf[*closing], ctor: newClosing}
	nullContextClass    = &pyClass{module: "contextlib", name: "nullcontext", is: isOf[*nullContext], ctor: newNullContext}
	exitStackClass      = &pyClass{module: "contextlib", name: "ExitStack", is: isOf[*exitStack], ctor: newExitStack}
	redirectStdoutClass = &pyClass{module: "contextlib", name: "redirect_stdout", is: isRedirect(1), ctor: newRedirect(1)}
	redirectStderrClass = &pyClass{module: "contextlib", name: "redirect_stderr", is: isRedirect(2), ctor: newRedirect(2)}
	// abstractCMClass is contextlib.AbstractContextManager: as in CPython
	// (its __subclasshook__), every value with __enter__ and __exit__ is an
	// instance. Its own __enter__ (returning self) and __exit__ (None) are
	// what a class deriving from it inherits.
	abstractCMClass = &mixinClass{pyClass: &pyClass{module: "contextlib", name: "AbstractContextManager", is: hasContextProtocol,
		ctor: func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return nil, pyrt.Errorf("TypeError", "Can't instantiate abstract class AbstractContextManager with abstract method __exit__")
		},
		attrs: func(name string) starlark.Value {
			switch name {
			case "__enter__":
				return abstractEnter
			case "__exit__":
				return abstractExit
			}
			return nil
		}}}
	abstractEnter = interp.NewBuiltin("__enter__", func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 1 || len(kwargs) > 0 {
			return nil, pyrt.Errorf("TypeError", "AbstractContextManager.__enter__() takes 1 positional argument but %d were given", len(args))
		}
		return args[0], nil
	})
	abstractExit = interp.NewBuiltin("__exit__", func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 4 || len(kwargs) > 0 {
			return nil, pyrt.Errorf("TypeError", "AbstractContextManager.__exit__() takes 4 positional arguments but %d were given", len(args))
		}
		return starlark.None, nil
	})
)

// hasContextProtocol reports a value whose attributes include __enter__
// and __exit__.
func hasContextProtocol(v starlark.Value) bool { return hasAttrs(v, "__enter__", "__exit__") }

// hasAttrs reports a value that has every attribute of names (a
// protocol's methods, for the abstract classes that match by them).
func hasAttrs(v starlark.Value, names ...string) bool {
	x, ok := v.(starlark.HasAttrs)
	if !ok {
		return false
	}
	for _, name := range names {
		if !hasAttr(x, name) {
			return false
		}
	}
	return true
}

// cmValue is what the context managers of this file share: a repr in
// CPython's words without the address, hashing by identity, and
// __enter__/__exit__ as attributes.
type cmBase struct{}

func (cmBase) Freeze()               {}
func (cmBase) Truth() starlark.Bool  { return true }
func (cmBase) Hash() (uint32, error) { return 0, nil }

// cmMethod binds __enter__ or __exit__ of a context manager: exit gets
// the three values the with statement passes.
func cmMethod(name string, recv starlark.Value, enter func(thread *starlark.Thread) (starlark.Value, error),
	exit func(thread *starlark.Thread, excType, exc, tb starlark.Value) (starlark.Value, error)) starlark.Value {
	return interp.NewBuiltin(name, func(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(kwargs) > 0 {
			return nil, pyrt.Errorf("TypeError", "%s() takes no keyword arguments", name)
		}
		if name == "__enter__" {
			if len(args) > 0 {
				return nil, pyrt.Errorf("TypeError", "__enter__() takes 1 positional argument but %d were given", len(args)+1)
			}
			return enter(thread)
		}
		if len(args) != 3 {
			return nil, pyrt.Errorf("TypeError", "__exit__() takes 4 positional arguments but %d were given", len(args)+1)
		}
		return exit(thread, args[0], args[1], args[2])
	}).BindReceiver(recv)
}

// ---- suppress ----

// suppress is contextlib.suppress(*exceptions): __exit__ swallows an
// exception of one of the classes (subclasses included, as except
// matches them).
type suppress struct {
	cmBase
	exceptions starlark.Tuple
}

func newSuppress(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "suppress() got an unexpected keyword argument '%s'", kwargs[0][0].(starlark.String))
	}
	return &suppress{exceptions: append(starlark.Tuple(nil), args...)}, nil
}

func (s *suppress) String() string                  { return "<contextlib.suppress object>" }
func (s *suppress) Type() string                    { return "suppress" }
func (s *suppress) PyClass() starlark.Value         { return suppressClass }
func (s *suppress) AttrNames() []string             { return nil }
func (s *suppress) Held(visit func(starlark.Value)) { visit(s.exceptions) }

func (s *suppress) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__enter__", "__exit__":
		return cmMethod(name, s, func(*starlark.Thread) (starlark.Value, error) { return starlark.None, nil }, s.exit), nil
	}
	return nil, noAttrNamed("suppress", name)
}

func (s *suppress) exit(thread *starlark.Thread, excType, _, _ starlark.Value) (starlark.Value, error) {
	if excType == starlark.None {
		return starlark.False, nil
	}
	return callBuiltin(thread, "issubclass", excType, s.exceptions)
}

// ---- closing, nullcontext ----

// closing is contextlib.closing(thing): __exit__ calls thing.close().
type closing struct {
	cmBase
	thing starlark.Value
}

func newClosing(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var thing starlark.Value
	if err := unpack("closing", args, kwargs, "thing", &thing); err != nil {
		return nil, err
	}
	return &closing{thing: thing}, nil
}

func (c *closing) String() string                  { return "<contextlib.closing object>" }
func (c *closing) Type() string                    { return "closing" }
func (c *closing) PyClass() starlark.Value         { return closingClass }
func (c *closing) AttrNames() []string             { return []string{"thing"} }
func (c *closing) Held(visit func(starlark.Value)) { visit(c.thing) }

func (c *closing) Attr(name string) (starlark.Value, error) {
	switch name {
	case "thing":
		return c.thing, nil
	case "__enter__", "__exit__":
		return cmMethod(name, c, func(*starlark.Thread) (starlark.Value, error) { return c.thing, nil },
			func(thread *starlark.Thread, _, _, _ starlark.Value) (starlark.Value, error) {
				close, err := pyrt.GetAttr(thread, c.thing, "close")
				if err != nil {
					return nil, err
				}
				if _, err := starlark.Call(thread, close, nil, nil); err != nil {
					return nil, err
				}
				return starlark.None, nil
			}), nil
	}
	return nil, noAttrNamed("closing", name)
}

// nullContext is contextlib.nullcontext(enter_result=None).
type nullContext struct {
	cmBase
	result starlark.Value
}

func newNullContext(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var result starlark.Value = starlark.None
	if err := unpack("nullcontext", args, kwargs, "enter_result?", &result); err != nil {
		return nil, err
	}
	return &nullContext{result: result}, nil
}

func (n *nullContext) String() string                  { return "<contextlib.nullcontext object>" }
func (n *nullContext) Type() string                    { return "nullcontext" }
func (n *nullContext) PyClass() starlark.Value         { return nullContextClass }
func (n *nullContext) AttrNames() []string             { return []string{"enter_result"} }
func (n *nullContext) Held(visit func(starlark.Value)) { visit(n.result) }

func (n *nullContext) Attr(name string) (starlark.Value, error) {
	switch name {
	case "enter_result":
		return n.result, nil
	case "__enter__", "__exit__":
		return cmMethod(name, n, func(*starlark.Thread) (starlark.Value, error) { return n.result, nil },
			func(*starlark.Thread, starlark.Value, starlark.Value, starlark.Value) (starlark.Value, error) {
				return starlark.None, nil
			}), nil
	}
	return nil, noAttrNamed("nullcontext", name)
}

// ---- redirect_stdout, redirect_stderr ----

// redirect is contextlib.redirect_stdout(new_target) (fd 1) or
// redirect_stderr (fd 2): inside the block, print and sys.stdout.write
// (sys.stderr's for fd 2) go to new_target's write method (an
// io.StringIO). It may be entered again while entered, as CPython's.
type redirect struct {
	cmBase
	fd     int
	target starlark.Value
	old    []starlark.Value // the targets replaced, innermost last
}

func isRedirect(fd int) func(starlark.Value) bool {
	return func(v starlark.Value) bool {
		r, ok := v.(*redirect)
		return ok && r.fd == fd
	}
}

func newRedirect(fd int) interp.BuiltinFunc {
	return func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var target starlark.Value
		if err := unpack(redirectName(fd), args, kwargs, "new_target", &target); err != nil {
			return nil, err
		}
		return &redirect{fd: fd, target: target}, nil
	}
}

func redirectName(fd int) string {
	if fd == 2 {
		return "redirect_stderr"
	}
	return "redirect_stdout"
}

func (r *redirect) String() string      { return "<contextlib." + redirectName(r.fd) + " object>" }
func (r *redirect) Type() string        { return redirectName(r.fd) }
func (r *redirect) AttrNames() []string { return nil }
func (r *redirect) PyClass() starlark.Value {
	return []*pyClass{nil, redirectStdoutClass, redirectStderrClass}[r.fd]
}
func (r *redirect) Held(visit func(starlark.Value)) {
	visit(r.target)
	for _, v := range r.old {
		if v != nil {
			visit(v)
		}
	}
}

func (r *redirect) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__enter__", "__exit__":
		return cmMethod(name, r, r.enter, r.exit), nil
	}
	return nil, noAttrNamed(redirectName(r.fd), name)
}

func (r *redirect) enter(thread *starlark.Thread) (starlark.Value, error) {
	if len(r.old) >= maxRedirectDepth {
		return nil, pyrt.Errorf("RecursionError", "%s entered more than %d times without leaving", redirectName(r.fd), maxRedirectDepth)
	}
	prev, ok := interp.Redirect(thread, r.fd, r.target)
	if !ok {
		return nil, pyrt.Errorf("RuntimeError", "%s needs a running program", redirectName(r.fd))
	}
	r.old = append(r.old, prev)
	return r.target, nil
}

// maxRedirectDepth bounds how often one redirect is entered without
// leaving (each entry keeps the target it replaced).
const maxRedirectDepth = 1000

func (r *redirect) exit(thread *starlark.Thread, _, _, _ starlark.Value) (starlark.Value, error) {
	if n := len(r.old); n > 0 {
		interp.Redirect(thread, r.fd, r.old[n-1])
		r.old = r.old[:n-1]
	}
	return starlark.None, nil
}

// ---- ExitStack ----

// exitStack is contextlib.ExitStack: callbacks run last in, first out
// when it closes or its with block ends, each given the exception the
// previous ones left (or raised), as CPython's.
type exitStack struct {
	cmBase
	callbacks []exitCallback
}

// exitCallback is one entry of an ExitStack: an exit function called
// with (type, value, traceback) whose true result suppresses the
// exception, or (plain) a callback called with its own arguments.
type exitCallback struct {
	fn     starlark.Value
	args   starlark.Tuple
	kwargs []starlark.Tuple
	plain  bool
}

func newExitStack(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := noArgs("ExitStack", args, kwargs); err != nil {
		return nil, err
	}
	return &exitStack{}, nil
}

func (s *exitStack) String() string          { return "<contextlib.ExitStack object>" }
func (s *exitStack) Type() string            { return "ExitStack" }
func (s *exitStack) PyClass() starlark.Value { return exitStackClass }
func (s *exitStack) AttrNames() []string {
	return []string{"callback", "close", "enter_context", "pop_all", "push"}
}

func (s *exitStack) Held(visit func(starlark.Value)) {
	visit(heldMem(s.callbacks))
	for _, c := range s.callbacks {
		visit(c.fn)
		if c.args != nil {
			visit(c.args)
		}
		for _, kv := range c.kwargs {
			visit(kv)
		}
	}
}

func (s *exitStack) Attr(name string) (starlark.Value, error) {
	var m func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)
	switch name {
	case "__enter__", "__exit__":
		return cmMethod(name, s, func(*starlark.Thread) (starlark.Value, error) { return s, nil }, s.exit), nil
	case "enter_context":
		m = s.enterContext
	case "callback":
		m = s.callback
	case "push":
		m = s.push
	case "pop_all":
		m = func(_ *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := noArgs("pop_all", args, kwargs); err != nil {
				return nil, err
			}
			n := &exitStack{callbacks: s.callbacks}
			s.callbacks = nil
			return n, nil
		}
	case "close":
		m = func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := noArgs("close", args, kwargs); err != nil {
				return nil, err
			}
			_, err := s.exit(thread, starlark.None, starlark.None, starlark.None)
			return starlark.None, err
		}
	default:
		return nil, noAttrNamed("ExitStack", name)
	}
	return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return m(thread, args, kwargs)
	}).BindReceiver(s), nil
}

// add pushes c, charged to the run's budget: a loop that pushes without
// end ends at the memory limit.
func (s *exitStack) add(thread *starlark.Thread, c exitCallback) error {
	b := interp.BudgetOf(thread)
	if err := b.Charge(1); err != nil {
		return err
	}
	if len(s.callbacks) == cap(s.callbacks) {
		if err := b.Alloc(int64(2*cap(s.callbacks)+8) * int64(4*slotSize)); err != nil {
			return err
		}
	}
	s.callbacks = append(s.callbacks, c)
	return nil
}

func (s *exitStack) enterContext(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var cm starlark.Value
	if err := unpack("enter_context", args, kwargs, "cm", &cm); err != nil {
		return nil, err
	}
	var methods [2]starlark.Value // __enter__, __exit__
	for i, name := range [...]string{"__enter__", "__exit__"} {
		m, err := pyrt.GetAttr(thread, cm, name)
		if err != nil {
			if pyrt.IsAttributeError(err) {
				return nil, pyrt.Errorf("TypeError", "'%s' object does not support the context manager protocol", qualifiedType(thread, cm))
			}
			return nil, err
		}
		methods[i] = m
	}
	enter, exit := methods[0], methods[1]
	v, err := starlark.Call(thread, enter, nil, nil)
	if err != nil {
		return nil, err
	}
	return v, s.add(thread, exitCallback{fn: exit})
}

// qualifiedType is the module and name of v's class, as ExitStack's
// messages name it ('builtins.int', 'collections.deque', '__main__.C').
func qualifiedType(thread *starlark.Thread, v starlark.Value) string {
	name := pyrt.TypeName(v)
	if cls, err := pyrt.GetAttr(thread, v, "__class__"); err == nil {
		if m, err := pyrt.GetAttr(thread, cls, "__module__"); err == nil {
			if mod, ok := starlark.AsString(m); ok && mod != "" {
				if q, err := pyrt.GetAttr(thread, cls, "__qualname__"); err == nil {
					if qn, ok := starlark.AsString(q); ok && qn != "" {
						name = qn
					}
				}
				return mod + "." + name
			}
		}
	}
	if pc, ok := v.(interface{ PyClass() starlark.Value }); ok {
		if c, ok := pc.PyClass().(*pyClass); ok {
			return c.module + "." + c.name
		}
	}
	if strings.Contains(name, ".") {
		return name
	}
	switch name {
	case "deque", "Counter", "OrderedDict", "defaultdict":
		return "collections." + name
	}
	return "builtins." + name
}

func (s *exitStack) callback(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, pyrt.Errorf("TypeError", "ExitStack.callback() missing 1 required positional argument: 'callback'")
	}
	fn := args[0]
	c := exitCallback{fn: fn, args: append(starlark.Tuple(nil), args[1:]...), kwargs: append([]starlark.Tuple(nil), kwargs...), plain: true}
	return fn, s.add(thread, c)
}

func (s *exitStack) push(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var exit starlark.Value
	if err := unpack("push", args, kwargs, "exit", &exit); err != nil {
		return nil, err
	}
	// A context manager gives its __exit__; anything else is the exit
	// function itself.
	fn := exit
	if m, err := pyrt.GetAttr(thread, exit, "__exit__"); err == nil {
		fn = m
	}
	return exit, s.add(thread, exitCallback{fn: fn})
}

// exit unwinds the stack: each callback gets the exception the ones
// after it left. One that returns true suppresses it; one that raises
// replaces it (the one it replaces its __context__); the last exception
// left is raised. It returns whether the exception it was given is
// suppressed.
func (s *exitStack) exit(thread *starlark.Thread, excType, exc, tb starlark.Value) (starlark.Value, error) {
	received := excType != starlark.None
	suppressed := false
	var pending error // the exception a callback raised, to raise at the end
	details := starlark.Tuple{excType, exc, tb}
	for len(s.callbacks) > 0 {
		c := s.callbacks[len(s.callbacks)-1]
		s.callbacks[len(s.callbacks)-1] = exitCallback{}
		s.callbacks = s.callbacks[:len(s.callbacks)-1]
		var r starlark.Value
		var err error
		if c.plain {
			_, err = starlark.Call(thread, c.fn, c.args, c.kwargs)
			r = starlark.False
		} else {
			r, err = starlark.Call(thread, c.fn, details, nil)
		}
		if err != nil {
			raised, ok := pyrt.ExceptionOf(thread, err)
			if !ok {
				return nil, err // a budget or a cancellation: the run ends
			}
			if prev, ok := details[1].(*pyrt.ExcValue); ok {
				pyrt.SetContext(raised, prev)
			}
			pending = err
			details = starlark.Tuple{raised.Class(), raised, pyrt.NewTraceback(raised.Frames())}
			continue
		}
		if r.Truth() {
			suppressed, pending = true, nil
			details = starlark.Tuple{starlark.None, starlark.None, starlark.None}
		}
	}
	if pending != nil {
		return nil, pending
	}
	return starlark.Bool(received && suppressed), nil
}

// A mixinClass is a class of a module that a program's class may derive
// from to inherit its methods (AbstractContextManager's __enter__ and
// __exit__): the object model finds them through ClassAttr, bound to the
// instance, and makes instances of the program's class, not of it.
type mixinClass struct{ *pyClass }

var _ objects.ClassAttrs = (*mixinClass)(nil)

// ClassAttr is the class's method name, as a method of the classes
// deriving from it.
func (c *mixinClass) ClassAttr(name string) (starlark.Value, bool) {
	if c.attrs == nil {
		return nil, false
	}
	v := c.attrs(name)
	if v == nil {
		return nil, false
	}
	if fn, ok := v.(starlark.Callable); ok {
		return objects.NewMethod(name, func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return starlark.Call(thread, fn, append(starlark.Tuple{self}, args...), kwargs)
		}), true
	}
	return v, true
}
