package pyrt

import (
	"errors"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

// A BoundMethod is a function read through an instance (obj.method): a
// call passes the instance first. Every function-like value a class may
// hold binds so — a def, a decorated function, an lru_cache wrapper — as
// CPython's functions do through their __get__.
type BoundMethod struct {
	fn   starlark.Value // callable
	self starlark.Value
	qual string // the function's __qualname__ (C.m), "" when unknown
}

// NewBoundMethod binds fn to self.
func NewBoundMethod(fn, self starlark.Value) *BoundMethod {
	return &BoundMethod{fn: fn, self: self}
}

// NewMethodOf binds fn, whose __qualname__ is qual (C.m), to self (nil:
// fn read through its class, called as it is): its
// errors of arguments name it so, as CPython's do ("C.m() missing 1
// required positional argument: 'x'").
func NewMethodOf(fn, self starlark.Value, qual string) *BoundMethod {
	return &BoundMethod{fn: fn, self: self, qual: qual}
}

// QualifyCallError rewrites the interpreter's error of a call of the
// function name with the wrong arguments to name it by qual (C.m), as
// CPython names methods in those errors.
func QualifyCallError(err error, name, qual string) {
	if err == nil || qual == "" || qual == name {
		return
	}
	var ee *starlark.EvalError
	for errors.As(err, &ee) {
		next := errors.Unwrap(ee)
		var inner *starlark.EvalError
		if next == nil || !errors.As(next, &inner) {
			break
		}
		err = next
	}
	if ee != nil && strings.HasPrefix(ee.Msg, "function "+name+" ") {
		ee.Msg = "function " + qual + ee.Msg[len("function "+name):]
	}
}

var (
	_ starlark.Callable   = (*BoundMethod)(nil)
	_ starlark.HasAttrs   = (*BoundMethod)(nil)
	_ starlark.Comparable = (*BoundMethod)(nil)
	_ interp.TextValue    = (*BoundMethod)(nil)
)

// Func is the function the method calls; Self the instance it passes.
func (m *BoundMethod) Func() starlark.Value { return m.fn }
func (m *BoundMethod) Self() starlark.Value { return m.self }

func (m *BoundMethod) Name() string {
	if n, ok := m.fn.(interface{ Name() string }); ok {
		return n.Name()
	}
	return "method"
}

func (m *BoundMethod) String() string { return "<bound method " + m.Name() + ">" }

// Type is "method"; a function read through its class (NewMethodOf with
// no instance) is a "function".
func (m *BoundMethod) Type() string {
	if m.self == nil {
		return "function"
	}
	return "method"
}
func (m *BoundMethod) Freeze()               {}
func (m *BoundMethod) Truth() starlark.Bool  { return true }
func (m *BoundMethod) Hash() (uint32, error) { return starlark.String(m.Name()).Hash() }

// WriteText writes <bound method C.f of <repr of self>>, as CPython does
// (<function C.f> for a function read through its class).
func (m *BoundMethod) WriteText(w *interp.TextWriter, _ bool, depth int) error {
	if m.self == nil {
		return w.WriteString("<function " + m.qual + ">")
	}
	name := m.Name()
	if m.qual != "" {
		name = m.qual
	} else if a, ok := m.fn.(starlark.HasAttrs); ok {
		if q, err := a.Attr("__qualname__"); err == nil && q != nil {
			if s, ok := interp.AsText(q); ok {
				name = s
			}
		}
	}
	if err := w.WriteString("<bound method " + name + " of "); err != nil {
		return err
	}
	if err := w.Nested(m.self, depth+1); err != nil {
		return err
	}
	return w.WriteString(">")
}

// CompareSameType: two bound methods are equal when they bind the same
// function to the same instance (identity of the instance, as CPython 3.8+).
func (m *BoundMethod) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	n := y.(*BoundMethod)
	eq := m.fn == n.fn && m.self == n.self
	switch op {
	case syntax.EQL:
		return eq, nil
	case syntax.NEQ:
		return !eq, nil
	}
	return false, typeError("'%s' not supported between instances of 'method' and 'method'", op)
}

func (m *BoundMethod) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if m.self == nil {
		// A function read through its class (C.f): called as it is.
		v, err := starlark.Call(thread, m.fn, args, kwargs)
		QualifyCallError(err, m.Name(), m.qual)
		return v, err
	}
	if f, ok := m.fn.(*starlark.Function); ok && thread != nil && len(args) < scratchWidth {
		// A def copies its arguments into its frame on entry: the tuple
		// with self first is borrowed for the call, one per depth of the
		// call stack (calls at one depth never overlap).
		if t := borrowArgs(thread, len(args)+1); t != nil {
			t[0] = m.self
			copy(t[1:], args)
			v, err := starlark.Call(thread, f, t, kwargs)
			clear(t)
			if err != nil && m.qual != "" {
				QualifyCallError(err, m.Name(), m.qual)
			}
			return v, err
		}
	}
	all := make(starlark.Tuple, 0, len(args)+1)
	all = append(all, m.self)
	all = append(all, args...)
	v, err := starlark.Call(thread, m.fn, all, kwargs)
	if err != nil && m.qual != "" {
		QualifyCallError(err, m.Name(), m.qual)
	}
	return v, err
}

func (m *BoundMethod) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__self__":
		if m.self == nil {
			return nil, exception("AttributeError", "'function' object has no attribute '__self__'")
		}
		return m.self, nil
	case "__func__":
		return m.fn, nil
	case "__name__":
		return starlark.String(m.Name()), nil
	case "__qualname__":
		if m.qual != "" {
			return starlark.String(m.qual), nil
		}
	}
	if a, ok := m.fn.(starlark.HasAttrs); ok {
		return a.Attr(name)
	}
	return nil, nil
}

func (m *BoundMethod) AttrNames() []string { return []string{"__func__", "__name__", "__self__"} }

// scratchWidth and scratchDepth bound the argument tuples borrowArgs
// keeps for a thread: deeper or wider calls allocate their own.
const (
	scratchWidth = 8
	scratchDepth = 1000
	scratchLocal = "python.argscratch"
)

// argScratch holds an argument tuple per depth of a thread's call stack.
type argScratch struct{ bufs []starlark.Tuple }

// borrowArgs lends a tuple of n elements for a call made at the thread's
// current depth, to clear after the call; nil when the call is too deep.
func borrowArgs(thread *starlark.Thread, n int) starlark.Tuple {
	d := thread.CallStackDepth()
	if d >= scratchDepth {
		return nil
	}
	s, _ := thread.Local(scratchLocal).(*argScratch)
	if s == nil {
		s = &argScratch{}
		thread.SetLocal(scratchLocal, s)
	}
	for len(s.bufs) <= d {
		s.bufs = append(s.bufs, make(starlark.Tuple, scratchWidth))
	}
	return s.bufs[d][:n]
}
