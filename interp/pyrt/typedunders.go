package pyrt

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

// The special methods of the builtin classes, read from the class:
// dict.__repr__(d), list.__len__(xs), and super().__setitem__(k, v) in a
// class deriving from dict. Each takes its receiver first; an instance
// of a program's class deriving from the builtin one (BuiltinHolder)
// stands for the builtin value it holds, so that a subclass that
// overrides __setitem__ reaches dict's own.

// typeDunders are the special methods every builtin class answers.
var typeDunders = map[string]bool{
	"__repr__": true, "__str__": true, "__len__": true, "__contains__": true,
	"__getitem__": true, "__setitem__": true, "__delitem__": true, "__iter__": true,
	"__eq__": true, "__ne__": true, "__lt__": true, "__le__": true, "__gt__": true, "__ge__": true,
	"__hash__": true, "__init__": true, "__bool__": true,
}

// dunder is t's special method name, or nil.
func (t *TypeObj) dunder(name string) starlark.Value {
	if !typeDunders[name] {
		return nil
	}
	return interp.NewBuiltin(t.name+"."+name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return nil, typeError("unbound method %s.%s() needs an argument", t.name, name)
		}
		recv := args[0]
		if b := heldBuiltin(recv); b != nil {
			recv = b
		}
		if name != "__init__" && !t.is(recv) {
			return nil, typeError("descriptor '%s' requires a '%s' object but received a '%s'", name, t.name, pyTypeName(args[0]))
		}
		return valueDunder(thread, recv, name, args[1:])
	})
}

// valueDunder is x.name(args) for a builtin value x.
func valueDunder(thread *starlark.Thread, x starlark.Value, name string, args starlark.Tuple) (starlark.Value, error) {
	b := interp.BudgetOf(thread)
	want := func(n int) error {
		if len(args) != n {
			return typeError("expected %d argument(s), got %d", n, len(args))
		}
		return nil
	}
	switch name {
	case "__init__":
		return starlark.None, nil
	case "__repr__", "__str__":
		if err := want(0); err != nil {
			return nil, err
		}
		var s string
		var err error
		if name == "__repr__" {
			s, err = interp.Repr(b, x)
		} else {
			s, err = interp.Str(b, x)
		}
		return interp.MakeString(s), err
	case "__len__":
		if n := starlark.Len(x); n >= 0 {
			return starlark.MakeInt(n), nil
		}
		return nil, typeError("object of type '%s' has no len()", pyTypeName(x))
	case "__bool__":
		return x.Truth(), nil
	case "__hash__":
		h, err := x.Hash()
		return starlark.MakeUint64(uint64(h)), err
	case "__iter__":
		if it, ok := interp.Predeclared(thread)["iter"].(starlark.Callable); ok {
			return starlark.Call(thread, it, starlark.Tuple{x}, nil)
		}
	case "__contains__":
		if err := want(1); err != nil {
			return nil, err
		}
		return inHelper(thread, nil, starlark.Tuple{args[0], x}, nil)
	case "__getitem__":
		if err := want(1); err != nil {
			return nil, err
		}
		switch c := x.(type) {
		case starlark.Mapping:
			v, found, err := c.Get(args[0])
			if err != nil {
				return nil, err
			}
			if !found {
				s, _ := interp.Repr(b, args[0])
				return nil, keyError("%s", s)
			}
			return v, nil
		case starlark.Indexable:
			i, err := indexOf(c.Len(), args[0], pyTypeName(x))
			if err != nil {
				return nil, err
			}
			return c.Index(i), nil
		}
	case "__setitem__":
		if err := want(2); err != nil {
			return nil, err
		}
		switch c := x.(type) {
		case starlark.HasSetKey:
			return starlark.None, c.SetKey(args[0], args[1])
		case starlark.HasSetIndex:
			i, err := indexOf(c.Len(), args[0], pyTypeName(x))
			if err != nil {
				return nil, err
			}
			return starlark.None, c.SetIndex(i, args[1])
		}
	case "__delitem__":
		if err := want(1); err != nil {
			return nil, err
		}
		return delItem(thread, nil, starlark.Tuple{x, args[0]}, nil)
	case "__eq__", "__ne__":
		if err := want(1); err != nil {
			return nil, err
		}
		y := args[0]
		if b := heldBuiltin(y); b != nil {
			y = b
		}
		eq, err := pyEqual(b, x, y)
		if err != nil {
			return nil, err
		}
		return starlark.Bool(eq == (name == "__eq__")), nil
	case "__lt__", "__le__", "__gt__", "__ge__":
		if err := want(1); err != nil {
			return nil, err
		}
		y := args[0]
		if b := heldBuiltin(y); b != nil {
			y = b
		}
		op := map[string]syntax.Token{"__lt__": syntax.LT, "__le__": syntax.LE, "__gt__": syntax.GT, "__ge__": syntax.GE}[name]
		ok, err := starlark.Compare(op, x, y)
		if err != nil {
			return NotImplemented, nil
		}
		return starlark.Bool(ok), nil
	}
	return nil, typeError("'%s' object has no attribute '%s'", pyTypeName(x), name)
}

// GetItem is x[k] for a builtin value x (a dict, a list, a str), with
// CPython's KeyError and IndexError.
func GetItem(thread *starlark.Thread, x, k starlark.Value) (starlark.Value, error) {
	return valueDunder(thread, x, "__getitem__", starlark.Tuple{k})
}

// SetItem is x[k] = v for a builtin value x.
func SetItem(thread *starlark.Thread, x, k, v starlark.Value) error {
	_, err := valueDunder(thread, x, "__setitem__", starlark.Tuple{k, v})
	return err
}

// indexOf is the position a subscript names in a sequence of n elements.
func indexOf(n int, k starlark.Value, kind string) (int, error) {
	i, ok := k.(starlark.Int)
	if !ok {
		return 0, typeError("%s indices must be integers or slices, not %s", kind, pyTypeName(k))
	}
	v, _ := i.Int64()
	if v < 0 {
		v += int64(n)
	}
	if v < 0 || v >= int64(n) {
		return 0, indexError("%s index out of range", kind)
	}
	return int(v), nil
}
