package stdlib

import (
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Operator is the operator module: Python's operators as functions, with
// the same meaning as the operators in a program (they call the same
// helpers the lowering uses for *, %, ** and the comparisons), and
// itemgetter, attrgetter and methodcaller.
func Operator() *starlarkstruct.Module {
	bi := builtins()
	m := starlark.StringDict{}
	binary := func(name string, op syntax.Token) {
		m[name] = interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := opArgs(name, args, kwargs, 2); err != nil {
				return nil, err
			}
			return arith(thread, op, args[0], args[1])
		})
	}
	helper := func(name, h string) {
		fn := bi[h]
		m[name] = interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := opArgs(name, args, kwargs, 2); err != nil {
				return nil, err
			}
			return starlark.Call(thread, fn, args, nil)
		})
	}
	// With a bool operand, the arithmetic goes through the helpers of the
	// operators in a program, which take a bool as the int it is
	// (operator.add(1, True) is 2).
	for name, op := range map[string]struct {
		tok    syntax.Token
		helper string
	}{
		"add": {syntax.PLUS, "__ot_badd"}, "sub": {syntax.MINUS, "__ot_bsub"},
		"truediv": {syntax.SLASH, "__ot_bdiv"}, "floordiv": {syntax.SLASHSLASH, "__ot_bfloordiv"},
		"and_": {syntax.AMP, "__ot_band"}, "or_": {syntax.PIPE, "__ot_bor"}, "xor": {syntax.CIRCUMFLEX, "__ot_bxor"},
		"lshift": {syntax.LTLT, "__ot_blshift"}, "rshift": {syntax.GTGT, "__ot_brshift"},
	} {
		withBool := bi[op.helper]
		m[name] = interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := opArgs(name, args, kwargs, 2); err != nil {
				return nil, err
			}
			_, xb := args[0].(starlark.Bool)
			_, yb := args[1].(starlark.Bool)
			if xb || yb {
				return starlark.Call(thread, withBool, args, nil)
			}
			return arith(thread, op.tok, args[0], args[1])
		})
	}
	binary("concat", syntax.PLUS)
	concat := m["concat"].(*starlark.Builtin)
	m["concat"] = interp.NewBuiltin("concat", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 2 && len(kwargs) == 0 {
			// CPython's concat wants a sequence first.
			if _, ok := args[0].(starlark.Indexable); !ok {
				return nil, pyrt.Errorf("TypeError", "'%s' object can't be concatenated", pyrt.TypeName(args[0]))
			}
		}
		return starlark.Call(thread, concat, args, kwargs)
	})
	// * and % with a bool operand go through the bool helpers too ("%s" %
	// True stays a str's %, which they know).
	for name, hs := range map[string][2]string{"mul": {"__ot_mul", "__ot_bmul"}, "mod": {"__ot_mod", "__ot_bmod"}} {
		plain, withBool := bi[hs[0]], bi[hs[1]]
		m[name] = interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := opArgs(name, args, kwargs, 2); err != nil {
				return nil, err
			}
			_, xb := args[0].(starlark.Bool)
			_, yb := args[1].(starlark.Bool)
			if xb || yb {
				return starlark.Call(thread, withBool, args, nil)
			}
			return starlark.Call(thread, plain, args, nil)
		})
	}
	helper("pow", "__ot_pow")
	for name, op := range map[string]syntax.Token{
		"lt": syntax.LT, "le": syntax.LE, "gt": syntax.GT, "ge": syntax.GE, "eq": syntax.EQL, "ne": syntax.NEQ,
	} {
		m[name] = interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := opArgs(name, args, kwargs, 2); err != nil {
				return nil, err
			}
			r, err := pyrt.Compare(thread, op, args[0], args[1])
			return starlark.Bool(r), err
		})
	}
	unary := func(name string, fn func(thread *starlark.Thread, x starlark.Value) (starlark.Value, error)) {
		m[name] = interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := noKwargs("_operator."+name, kwargs); err != nil {
				return nil, err
			}
			if len(args) != 1 {
				return nil, pyrt.Errorf("TypeError", "_operator.%s() takes exactly one argument (%d given)", name, len(args))
			}
			return fn(thread, args[0])
		})
	}
	// -x, +x and ~x of a bool are of the int it is.
	unaryOp := func(op syntax.Token) func(*starlark.Thread, starlark.Value) (starlark.Value, error) {
		return func(_ *starlark.Thread, x starlark.Value) (starlark.Value, error) {
			if b, ok := x.(starlark.Bool); ok {
				x = starlark.MakeInt(0)
				if b {
					x = starlark.MakeInt(1)
				}
			}
			r, err := starlark.Unary(op, x)
			if err != nil {
				return nil, pyrt.Errorf("TypeError", "bad operand type for unary %s: '%s'", op, pyrt.TypeName(x))
			}
			return r, nil
		}
	}
	unary("neg", unaryOp(syntax.MINUS))
	unary("pos", unaryOp(syntax.PLUS))
	unary("invert", unaryOp(syntax.TILDE))
	unary("inv", unaryOp(syntax.TILDE))
	unary("not_", func(_ *starlark.Thread, x starlark.Value) (starlark.Value, error) { return !x.Truth(), nil })
	unary("truth", func(_ *starlark.Thread, x starlark.Value) (starlark.Value, error) { return x.Truth(), nil })
	unary("abs", func(thread *starlark.Thread, x starlark.Value) (starlark.Value, error) {
		return starlark.Call(thread, bi["abs"], starlark.Tuple{x}, nil)
	})
	unary("index", func(_ *starlark.Thread, x starlark.Value) (starlark.Value, error) {
		if i, ok := x.(starlark.Int); ok {
			return i, nil
		}
		if b, ok := x.(starlark.Bool); ok {
			return starlark.MakeInt(map[bool]int{true: 1}[bool(b)]), nil
		}
		return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(x))
	})
	m["is_"] = interp.NewBuiltin("is_", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := nArgs("is_", args, kwargs, 2); err != nil {
			return nil, err
		}
		return starlark.Call(thread, bi["__ot_is"], args, nil)
	})
	m["is_not"] = interp.NewBuiltin("is_not", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := nArgs("is_not", args, kwargs, 2); err != nil {
			return nil, err
		}
		r, err := starlark.Call(thread, bi["__ot_is"], args, nil)
		if err != nil {
			return nil, err
		}
		return !r.Truth(), nil
	})
	m["contains"] = interp.NewBuiltin("contains", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := nArgs("contains", args, kwargs, 2); err != nil {
			return nil, err
		}
		return starlark.Call(thread, bi["__ot_in"], starlark.Tuple{args[1], args[0]}, nil)
	})
	// countOf and indexOf walk any iterable, comparing with ==.
	m["countOf"] = interp.NewBuiltin("countOf", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := nArgs("countOf", args, kwargs, 2); err != nil {
			return nil, err
		}
		if _, err := pyrt.Iterate(thread, args[0]); err != nil {
			return nil, pyrt.Errorf("TypeError", "argument of type '%s' is not iterable", pyrt.TypeName(args[0]))
		}
		n := 0
		err := pyrt.ForEach(thread, args[0], func(x starlark.Value) (bool, error) {
			eq, err := pyrt.Compare(thread, syntax.EQL, x, args[1])
			if eq {
				n++
			}
			return false, err
		})
		return starlark.MakeInt(n), err
	})
	m["indexOf"] = interp.NewBuiltin("indexOf", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := nArgs("indexOf", args, kwargs, 2); err != nil {
			return nil, err
		}
		if _, err := pyrt.Iterate(thread, args[0]); err != nil {
			return nil, pyrt.Errorf("TypeError", "argument of type '%s' is not iterable", pyrt.TypeName(args[0]))
		}
		i, found := 0, false
		err := pyrt.ForEach(thread, args[0], func(x starlark.Value) (bool, error) {
			eq, err := pyrt.Compare(thread, syntax.EQL, x, args[1])
			if eq {
				found = true
				return true, err
			}
			i++
			return false, err
		})
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, pyrt.Errorf("ValueError", "sequence.index(x): x not in sequence")
		}
		return starlark.MakeInt(i), nil
	})
	m["getitem"] = interp.NewBuiltin("getitem", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := nArgs("getitem", args, kwargs, 2); err != nil {
			return nil, err
		}
		return getItem(args[0], args[1])
	})
	// call(obj, /, *args, **kwargs) is obj(*args, **kwargs) (3.11).
	m["call"] = interp.NewBuiltin("call", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return nil, pyrt.Errorf("TypeError", "call() missing 1 required positional argument: 'obj'")
		}
		if _, ok := args[0].(starlark.Callable); !ok {
			return nil, pyrt.Errorf("TypeError", "'%s' object is not callable", pyrt.TypeName(args[0]))
		}
		return starlark.Call(thread, args[0], args[1:], kwargs)
	})
	m["setitem"] = interp.NewBuiltin("setitem", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := nArgs("setitem", args, kwargs, 3); err != nil {
			return nil, err
		}
		return starlark.None, setItem(args[0], args[1], args[2])
	})
	m["delitem"] = interp.NewBuiltin("delitem", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := nArgs("delitem", args, kwargs, 2); err != nil {
			return nil, err
		}
		return starlark.Call(thread, bi["__ot_delitem"], args, nil)
	})
	m["length_hint"] = interp.NewBuiltin("length_hint", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := noKwargs("length_hint", kwargs); err != nil {
			return nil, err
		}
		if len(args) < 1 || len(args) > 2 {
			return nil, pyrt.Errorf("TypeError", "length_hint expected at most 2 arguments, got %d", len(args))
		}
		if n := starlark.Len(args[0]); n >= 0 {
			return starlark.MakeInt(n), nil
		}
		if len(args) == 2 {
			if _, ok := args[1].(starlark.Int); !ok {
				return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(args[1]))
			}
			return args[1], nil
		}
		return starlark.MakeInt(0), nil
	})
	// The in-place operators: a list is changed in place by += (iadd,
	// iconcat), as in a program; every other value gets the result of the
	// plain operator.
	inplace := func(name, plain string) {
		fn := m[plain].(*starlark.Builtin)
		m[name] = interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := opArgs(name, args, kwargs, 2); err != nil {
				return nil, err
			}
			if l, ok := args[0].(*starlark.List); ok && (plain == "add" || plain == "concat") {
				if _, err := starlark.Call(thread, bi["__ot_extend"], args, nil); err != nil {
					return nil, err
				}
				return l, nil
			}
			return starlark.Call(thread, fn, args, nil)
		})
	}
	for _, name := range []string{"add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor", "lshift", "rshift", "concat"} {
		plain := name
		if name == "and" || name == "or" {
			plain += "_"
		}
		inplace("i"+name, plain)
	}
	m["itemgetter"] = interp.NewBuiltin("itemgetter", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := noKwargs("itemgetter", kwargs); err != nil {
			return nil, err
		}
		if len(args) == 0 {
			return nil, pyrt.Errorf("TypeError", "itemgetter expected 1 argument, got 0")
		}
		keys := append(starlark.Tuple(nil), args...)
		return newOpCallable("itemgetter", keys, nil, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := nArgs("itemgetter", args, kwargs, 1); err != nil {
				return nil, err
			}
			return getter(keys, func(k starlark.Value) (starlark.Value, error) { return getItem(args[0], k) })
		}), nil
	})
	m["attrgetter"] = interp.NewBuiltin("attrgetter", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := noKwargs("attrgetter", kwargs); err != nil {
			return nil, err
		}
		if len(args) == 0 {
			return nil, pyrt.Errorf("TypeError", "attrgetter expected 1 argument, got 0")
		}
		for _, a := range args {
			if _, ok := interp.AsText(a); !ok {
				return nil, pyrt.Errorf("TypeError", "attribute name must be a string")
			}
		}
		names := append(starlark.Tuple(nil), args...)
		return newOpCallable("attrgetter", names, nil, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := nArgs("attrgetter", args, kwargs, 1); err != nil {
				return nil, err
			}
			return getter(names, func(n starlark.Value) (starlark.Value, error) {
				// a dotted name walks attributes: attrgetter("a.b")
				name, _ := interp.AsText(n)
				v := args[0]
				for _, part := range splitDots(name) {
					var err error
					if v, err = pyrt.GetAttr(thread, v, part); err != nil {
						return nil, err
					}
				}
				return v, nil
			})
		}), nil
	})
	m["methodcaller"] = interp.NewBuiltin("methodcaller", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return nil, pyrt.Errorf("TypeError", "methodcaller needs at least one argument, the method name")
		}
		if _, ok := interp.AsText(args[0]); !ok {
			return nil, pyrt.Errorf("TypeError", "method name must be a string")
		}
		name, rest, kw := args[0], append(starlark.Tuple(nil), args[1:]...), append([]starlark.Tuple(nil), kwargs...)
		return newOpCallable("methodcaller", append(starlark.Tuple{name}, rest...), kw, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := nArgs("methodcaller", args, kwargs, 1); err != nil {
				return nil, err
			}
			n, _ := interp.AsText(name)
			fn, err := pyrt.GetAttr(thread, args[0], n)
			if err != nil {
				return nil, err
			}
			return starlark.Call(thread, fn, rest, kw)
		}), nil
	})
	mod := &starlarkstruct.Module{Name: "operator", Members: m}
	mod.Freeze()
	return mod
}

// getter applies get to one key (its result) or to several (a tuple).
func getter(keys starlark.Tuple, get func(starlark.Value) (starlark.Value, error)) (starlark.Value, error) {
	if len(keys) == 1 {
		return get(keys[0])
	}
	out := make(starlark.Tuple, len(keys))
	for i, k := range keys {
		v, err := get(k)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func splitDots(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// setItem is x[k] = v as a program's assignment does it, with Python's
// exceptions.
func setItem(x, k, v starlark.Value) error {
	switch c := x.(type) {
	case starlark.HasSetKey:
		if err := c.SetKey(k, v); err != nil {
			return pyrt.Classify(err)
		}
		return nil
	case starlark.HasSetIndex:
		i, ok := k.(starlark.Int)
		if !ok {
			return pyrt.Errorf("TypeError", "%s indices must be integers or slices, not %s", pyrt.TypeName(x), pyrt.TypeName(k))
		}
		n, _ := i.Int64()
		if n < 0 {
			n += int64(c.Len())
		}
		if n < 0 || n >= int64(c.Len()) {
			return pyrt.Errorf("IndexError", "%s assignment index out of range", pyrt.TypeName(x))
		}
		if err := c.SetIndex(int(n), v); err != nil {
			return pyrt.Classify(err)
		}
		return nil
	}
	return pyrt.Errorf("TypeError", "'%s' object does not support item assignment", pyrt.TypeName(x))
}

// getItem is x[k] as a program's subscript does it, with Python's
// exceptions.
func getItem(x, k starlark.Value) (starlark.Value, error) {
	switch c := x.(type) {
	case starlark.Mapping:
		v, found, err := c.Get(k)
		if err != nil {
			return nil, pyrt.Errorf("TypeError", "unhashable type: '%s'", pyrt.TypeName(k))
		}
		if !found {
			r, _ := interp.Repr(nil, k)
			return nil, pyrt.Errorf("KeyError", "%s", r)
		}
		return v, nil
	case starlark.Indexable:
		i, ok := k.(starlark.Int)
		if !ok {
			if s, ok := k.(starlark.Callable); ok && s.Name() == "slice" {
				break
			}
			return nil, pyrt.Errorf("TypeError", "%s indices must be integers or slices, not %s", pyrt.TypeName(x), pyrt.TypeName(k))
		}
		n, _ := i.Int64()
		if n < 0 {
			n += int64(c.Len())
		}
		if n < 0 || n >= int64(c.Len()) {
			return nil, pyrt.Errorf("IndexError", "%s index out of range", pyrt.TypeName(x))
		}
		return c.Index(int(n)), nil
	}
	return nil, pyrt.Errorf("TypeError", "'%s' object is not subscriptable", pyrt.TypeName(x))
}

// opCallable is what itemgetter, attrgetter and methodcaller return: a
// callable whose repr is CPython's, operator.itemgetter('a', 1).
var _ interp.TextValue = (*opCallable)(nil)

type opCallable struct {
	*starlark.Builtin
	kind string
	args starlark.Tuple
	kw   []starlark.Tuple
}

func newOpCallable(kind string, args starlark.Tuple, kw []starlark.Tuple, fn interp.BuiltinFunc) *opCallable {
	return &opCallable{Builtin: interp.NewBuiltin("operator."+kind, fn), kind: kind, args: args, kw: kw}
}

func (o *opCallable) Type() string { return "operator." + o.kind }

// Attr: they have no attributes a program would use; asking for one is
// CPython's AttributeError.
func (o *opCallable) Attr(name string) (starlark.Value, error) { return nil, noAttr(o, name) }
func (o *opCallable) AttrNames() []string                      { return nil }

// opClasses are the classes type(f) names for what itemgetter,
// attrgetter and methodcaller make.
var opClasses = map[string]*pyClass{
	"itemgetter":   {module: "operator", name: "itemgetter", is: func(v starlark.Value) bool { o, ok := v.(*opCallable); return ok && o.kind == "itemgetter" }},
	"attrgetter":   {module: "operator", name: "attrgetter", is: func(v starlark.Value) bool { o, ok := v.(*opCallable); return ok && o.kind == "attrgetter" }},
	"methodcaller": {module: "operator", name: "methodcaller", is: func(v starlark.Value) bool { o, ok := v.(*opCallable); return ok && o.kind == "methodcaller" }},
}

// PyClass is type(f): operator.itemgetter and the like.
func (o *opCallable) PyClass() starlark.Value { return opClasses[o.kind] }

func (o *opCallable) String() string {
	s, err := interp.Repr(nil, o)
	if err != nil {
		return "operator." + o.kind + "(...)"
	}
	return s
}

func (o *opCallable) WriteText(w *interp.TextWriter, _ bool, depth int) error {
	if err := w.WriteString("operator." + o.kind + "("); err != nil {
		return err
	}
	for i, a := range o.args {
		if i > 0 {
			if err := w.WriteString(", "); err != nil {
				return err
			}
		}
		if err := w.Nested(a, depth+1); err != nil {
			return err
		}
	}
	for _, kv := range o.kw {
		k, _ := interp.AsText(kv[0])
		if err := w.WriteString(", " + k + "="); err != nil {
			return err
		}
		if err := w.Nested(kv[1], depth+1); err != nil {
			return err
		}
	}
	return w.WriteString(")")
}

// opArgs checks the arguments of one of the operator functions (add,
// lt, …): n of them by position, none by keyword, in CPython's words.
func opArgs(name string, args starlark.Tuple, kwargs []starlark.Tuple, n int) error {
	if err := noKwargs("_operator."+name, kwargs); err != nil {
		return err
	}
	return nArgs(name, args, nil, n)
}
