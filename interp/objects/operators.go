package objects

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// The special methods of operators, comparisons, iteration and indexing.

// binaryMethods are the methods of the binary operators: x op y calls
// x.__op__(y), then y.__rop__(x).
var binaryMethods = map[syntax.Token][2]string{
	syntax.PLUS:       {"__add__", "__radd__"},
	syntax.MINUS:      {"__sub__", "__rsub__"},
	syntax.STAR:       {"__mul__", "__rmul__"},
	syntax.SLASH:      {"__truediv__", "__rtruediv__"},
	syntax.SLASHSLASH: {"__floordiv__", "__rfloordiv__"},
	syntax.PERCENT:    {"__mod__", "__rmod__"},
	syntax.AMP:        {"__and__", "__rand__"},
	syntax.PIPE:       {"__or__", "__ror__"},
	syntax.CIRCUMFLEX: {"__xor__", "__rxor__"},
	syntax.LTLT:       {"__lshift__", "__rlshift__"},
	syntax.GTGT:       {"__rshift__", "__rrshift__"},
	syntax.STARSTAR:   {"__pow__", "__rpow__"},
}

// InplaceMethods maps an augmented assignment's operator to its method.
var inplaceMethods = map[string]string{
	"+": "__iadd__", "-": "__isub__", "*": "__imul__", "/": "__itruediv__",
	"//": "__ifloordiv__", "%": "__imod__", "&": "__iand__", "|": "__ior__",
	"^": "__ixor__", "<<": "__ilshift__", ">>": "__irshift__", "**": "__ipow__",
	"@": "__imatmul__",
}

// Binary is x op y with the instance on side: the class's method, else
// the builtin value's operator. (nil, nil) lets the interpreter try the
// other operand, then report the operator unsupported.
func (in *Instance) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	names, ok := binaryMethods[op]
	if !ok {
		return nil, nil
	}
	thread := in.thread()
	name := names[0]
	if side == starlark.Right {
		name = names[1]
	} else if o, ok := y.(*Instance); ok && o.class != in.class && o.class.isSubclassOf(in.class) {
		// The right operand's class derives from the left's and
		// overrides the reflected method: it goes first.
		if r := o.class.lookup(names[1]); r.found && r.v != in.class.lookup(names[1]).v {
			v, err := o.callSpecial(thread, r.v, in)
			if err != nil || v != pyrt.NotImplemented {
				return v, err
			}
		}
	}
	if f := in.class.special(name); f != nil {
		r, err := in.callSpecial(thread, f, y)
		if err != nil || r == pyrt.NotImplemented {
			return nil, err
		}
		return r, nil
	}
	if in.base != nil {
		other := unwrap(y)
		if side == starlark.Left {
			return starlark.Binary(op, in.base, other)
		}
		return starlark.Binary(op, other, in.base)
	}
	return nil, nil
}

// unwrap is the builtin value of an instance of a builtin's subclass,
// else v.
func unwrap(v starlark.Value) starlark.Value {
	if in, ok := v.(*Instance); ok && in.base != nil {
		return in.base
	}
	return v
}

// Unary is -in, +in, ~in.
func (in *Instance) Unary(op syntax.Token) (starlark.Value, error) {
	var name string
	switch op {
	case syntax.MINUS:
		name = "__neg__"
	case syntax.PLUS:
		name = "__pos__"
	case syntax.TILDE:
		name = "__invert__"
	default:
		return nil, nil
	}
	if f := in.class.special(name); f != nil {
		return in.callSpecial(in.thread(), f)
	}
	if u, ok := in.base.(starlark.HasUnary); ok {
		return u.Unary(op)
	}
	return nil, nil
}

// compareMethods are the rich comparison methods by operator.
var compareMethods = map[syntax.Token]string{
	syntax.EQL: "__eq__", syntax.NEQ: "__ne__",
	syntax.LT: "__lt__", syntax.LE: "__le__", syntax.GT: "__gt__", syntax.GE: "__ge__",
}

// CompareSameType is how the interpreter compares two instances (sorted,
// ==, a list's comparison): pyrt.RichCompare, by the special methods.
//
// Containers test identity first, as CPython's do: x is found in [x],
// and is a key of {x: 1}, whatever its __eq__ says.
func (in *Instance) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	if y == starlark.Value(in) {
		switch op {
		case syntax.EQL:
			return true, nil
		case syntax.NEQ:
			return false, nil
		}
	}
	r, _, err := pyrt.RichCompare(in.thread(), op, in, y)
	return r, err
}

// RichCompare is in op y by the class's method; NotImplemented when it
// has none, or returned that. A class without __ne__ answers != with
// the negation of its __eq__, as object.__ne__ does.
func (in *Instance) RichCompare(thread *starlark.Thread, op syntax.Token, y starlark.Value) (starlark.Value, error) {
	if f := in.class.special(compareMethods[op]); f != nil {
		return in.callSpecial(thread, f, y)
	}
	if op == syntax.NEQ {
		if f := in.class.special("__eq__"); f != nil {
			r, err := in.callSpecial(thread, f, y)
			if err != nil || r == pyrt.NotImplemented {
				return r, err
			}
			return !r.Truth(), nil
		}
	}
	if in.base != nil {
		other := unwrap(y)
		if _, isInst := other.(*Instance); isInst {
			return pyrt.NotImplemented, nil
		}
		if op == syntax.EQL || op == syntax.NEQ {
			// As the builtin value compares: a namedtuple's with a tuple.
			eq, err := pyrt.Equal(thread, in.base, other)
			if err != nil {
				return nil, err
			}
			return starlark.Bool(eq == (op == syntax.EQL)), nil
		}
		ok, err := starlark.Compare(op, in.base, other)
		if err != nil {
			if op == syntax.EQL || op == syntax.NEQ {
				return pyrt.NotImplemented, nil
			}
			return pyrt.NotImplemented, nil
		}
		return starlark.Bool(ok), nil
	}
	return pyrt.NotImplemented, nil
}

// ---- iteration ----

// Iterate is iter(in) for the interpreter: __iter__, else __getitem__
// from index 0 until IndexError, else the builtin value's. nil when the
// instance is not iterable.
func (in *Instance) Iterate() starlark.Iterator {
	thread := in.thread()
	it, err := in.iter(thread)
	if err != nil {
		in.fail(err)
		return nil
	}
	if it == nil {
		return nil
	}
	if i, ok := it.(starlark.Iterable); ok {
		return i.Iterate()
	}
	return nil
}

// Iter is iter(in) for the runtime (pyrt.Iterer): loops and
// comprehensions take an instance's elements through it, so that an
// error of __iter__ or __next__ is an exception the program catches.
func (in *Instance) Iter(thread *starlark.Thread) (starlark.Value, error) {
	if thread == nil {
		thread = in.thread()
	}
	it, err := in.iter(thread)
	if err == nil && it == nil {
		err = errorf("TypeError", "'%s' object is not iterable", in.class.name)
	}
	return it, err
}

// iter is iter(in): an iterator value, nil when the instance is not
// iterable.
func (in *Instance) iter(thread *starlark.Thread) (starlark.Value, error) {
	if f := in.class.special("__iter__"); f != nil {
		v, err := in.callSpecial(thread, f)
		if err != nil {
			return nil, err
		}
		if it, ok := v.(*Instance); ok {
			if it.class.special("__next__") == nil {
				return nil, errorf("TypeError", "iter() returned non-iterator of type '%s'", it.class.name)
			}
			return it.asIterator(thread), nil
		}
		if _, ok := v.(starlark.Iterable); !ok {
			return nil, errorf("TypeError", "iter() returned non-iterator of type '%s'", typeName(v))
		}
		return v, nil
	}
	if in.base != nil {
		// The builtin class's own __iter__ comes before __getitem__.
		if _, ok := in.base.(starlark.Iterable); ok {
			return in.base, nil
		}
	}
	if f := in.class.special("__getitem__"); f != nil {
		i := 0
		return pyrt.NewIterator(thread, "iterator", func(thread *starlark.Thread) (starlark.Value, bool, error) {
			v, err := in.callSpecial(thread, f, starlark.MakeInt(i))
			if err != nil {
				if isClass(err, "IndexError") || isClass(err, "StopIteration") {
					return nil, false, nil
				}
				return nil, false, err
			}
			i++
			return v, true, nil
		}, in), nil
	}
	if in.base != nil {
		if _, ok := in.base.(starlark.Iterable); ok {
			return in.base, nil
		}
	}
	return nil, nil
}

// asIterator is an instance with __next__ as the runtime's iterator:
// each element is a call of __next__, until StopIteration.
func (in *Instance) asIterator(thread *starlark.Thread) starlark.Value {
	f := in.class.special("__next__")
	return pyrt.NewIterator(thread, in.class.name, func(thread *starlark.Thread) (starlark.Value, bool, error) {
		v, err := in.callSpecial(thread, f)
		if err != nil {
			if isClass(err, "StopIteration") {
				return nil, false, nil
			}
			return nil, false, err
		}
		return v, true, nil
	}, in)
}

// next is next(in): __next__.
func (in *Instance) next(thread *starlark.Thread) (starlark.Value, error) {
	f := in.class.special("__next__")
	if f == nil {
		return nil, errorf("TypeError", "'%s' object is not an iterator", in.class.name)
	}
	return in.callSpecial(thread, f)
}

// isClass reports whether err is a Python exception of class name (or a
// subclass).
func isClass(err error, name string) bool {
	return pyrt.IsInstanceOf(err, name)
}

// ---- items ----

// Get is in[k]: __getitem__, else the builtin value's item, with
// __missing__ for a dict's subclass.
func (in *Instance) Get(k starlark.Value) (starlark.Value, bool, error) {
	thread := in.thread()
	if f := in.class.special("__getitem__"); f != nil {
		v, err := in.callSpecial(thread, f, k)
		return v, true, err
	}
	if in.base == nil {
		return nil, true, errorf("TypeError", "'%s' object is not subscriptable", in.class.name)
	}
	v, err := pyrt.GetItem(thread, in.base, k)
	if err != nil && isClass(err, "KeyError") {
		if m := in.class.special("__missing__"); m != nil {
			v, err = in.callSpecial(thread, m, k)
		}
	}
	return v, true, err
}

// SetKey is in[k] = v: __setitem__, else the builtin value's.
func (in *Instance) SetKey(k, v starlark.Value) error {
	thread := in.thread()
	if f := in.class.special("__setitem__"); f != nil {
		_, err := in.callSpecial(thread, f, k, v)
		return err
	}
	if in.base != nil {
		return pyrt.SetItem(thread, in.base, k, v)
	}
	return errorf("TypeError", "'%s' object does not support item assignment", in.class.name)
}

// DeleteItem is del in[k]: __delitem__, else the builtin value's.
func (in *Instance) DeleteItem(thread *starlark.Thread, k starlark.Value) error {
	if f := in.class.special("__delitem__"); f != nil {
		_, err := in.callSpecial(thread, f, k)
		return err
	}
	if in.base != nil {
		if del, ok := interp.Predeclared(thread)["__ot_delitem"].(starlark.Callable); ok {
			_, err := starlark.Call(thread, del, starlark.Tuple{in.base, k}, nil)
			return err
		}
	}
	return errorf("TypeError", "'%s' object doesn't support item deletion", in.class.name)
}

// Contains is x in in: __contains__, else iteration comparing each
// element, else the builtin value's. ok is false when the instance
// answers nothing (the runtime then reports it not iterable).
func (in *Instance) Contains(thread *starlark.Thread, x starlark.Value) (bool, bool, error) {
	if f := in.class.special("__contains__"); f != nil {
		v, err := in.callSpecial(thread, f, x)
		if err != nil {
			return false, true, err
		}
		return bool(v.Truth()), true, nil
	}
	if in.base != nil && in.class.special("__iter__") == nil {
		return false, false, nil // the builtin value's own __contains__
	}
	if in.class.special("__iter__") != nil || in.class.special("__getitem__") != nil {
		it, err := in.iter(thread)
		if err != nil || it == nil {
			return false, true, err
		}
		found := false
		err = pyrt.ForEach(thread, it, func(e starlark.Value) (bool, error) {
			if e == x {
				found = true
				return true, nil
			}
			eq, err := pyrt.Equal(thread, e, x)
			found = eq
			return eq || err != nil, err
		})
		if err != nil || found {
			return found, true, err
		}
		return false, true, nil
	}
	if in.base != nil {
		return false, false, nil
	}
	return false, true, errorf("TypeError", "argument of type '%s' is not iterable", in.class.name)
}

// Inplace is in op= y: the class's in-place method (__iadd__); ok is
// false when it defines none or returned NotImplemented, for the binary
// operator.
func (in *Instance) Inplace(thread *starlark.Thread, op string, y starlark.Value) (starlark.Value, bool, error) {
	f := in.class.special(inplaceMethods[op])
	if f == nil {
		return nil, false, nil
	}
	v, err := in.callSpecial(thread, f, y)
	if err != nil {
		return nil, true, err
	}
	if v == pyrt.NotImplemented {
		return nil, false, nil
	}
	return v, true, nil
}

// Slice is in[start:end:step] for an instance of a builtin sequence's
// subclass: the builtin value's slice (a list, as CPython gives).
func (in *Instance) Slice(start, end, step int) starlark.Value {
	if s, ok := in.base.(starlark.Sliceable); ok {
		return s.Slice(start, end, step)
	}
	in.fail(errorf("TypeError", "'%s' object is not subscriptable", in.class.name))
	return starlark.None
}

// Index is in[i] for the interpreter's sequence walks.
func (in *Instance) Index(i int) starlark.Value {
	v, _, err := in.Get(starlark.MakeInt(i))
	if err != nil {
		in.fail(err)
		return starlark.None
	}
	return v
}

// MatMul is in @ y by the class's method (__matmul__, __rmatmul__,
// __imatmul__); ok is false when it has none or returned NotImplemented.
func (in *Instance) MatMul(thread *starlark.Thread, y starlark.Value, method string) (starlark.Value, bool, error) {
	f := in.class.special(method)
	if f == nil {
		return nil, false, nil
	}
	v, err := in.callSpecial(thread, f, y)
	if err != nil {
		return nil, true, err
	}
	return v, v != pyrt.NotImplemented, nil
}

// GetSlice is in[a:b:c]: __getitem__ with a slice object; handled false
// leaves it to the builtin value.
func (in *Instance) GetSlice(thread *starlark.Thread, s *pyrt.SliceValue) (starlark.Value, bool, error) {
	f := in.class.special("__getitem__")
	if f == nil {
		if in.base != nil {
			return nil, false, nil
		}
		return nil, true, errorf("TypeError", "'%s' object is not subscriptable", in.class.name)
	}
	v, err := in.callSpecial(thread, f, s)
	return v, true, err
}

// SetSlice is in[a:b:c] = v: __setitem__ with a slice object.
func (in *Instance) SetSlice(thread *starlark.Thread, s *pyrt.SliceValue, v starlark.Value) (bool, error) {
	f := in.class.special("__setitem__")
	if f == nil {
		if in.base != nil {
			return false, nil
		}
		return true, errorf("TypeError", "'%s' object does not support item assignment", in.class.name)
	}
	_, err := in.callSpecial(thread, f, s, v)
	return true, err
}

// DeleteSlice is del in[a:b:c]: __delitem__ with a slice object.
func (in *Instance) DeleteSlice(thread *starlark.Thread, s *pyrt.SliceValue) (bool, error) {
	f := in.class.special("__delitem__")
	if f == nil {
		if in.base != nil {
			return false, nil
		}
		return true, errorf("TypeError", "'%s' object doesn't support item deletion", in.class.name)
	}
	_, err := in.callSpecial(thread, f, s)
	return true, err
}
