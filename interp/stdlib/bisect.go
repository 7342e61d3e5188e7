package stdlib

import (
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Bisect is the bisect module: binary search of sorted sequences with
// Python's ordering, key applied to the sequence's elements (not to x),
// as CPython's.
func Bisect() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "bisect", Members: starlark.StringDict{
		"bisect_left":  interp.NewBuiltin("bisect_left", bisectFn(false, false)),
		"bisect_right": interp.NewBuiltin("bisect_right", bisectFn(true, false)),
		"bisect":       interp.NewBuiltin("bisect_right", bisectFn(true, false)),
		"insort_left":  interp.NewBuiltin("insort_left", bisectFn(false, true)),
		"insort_right": interp.NewBuiltin("insort_right", bisectFn(true, true)),
		"insort":       interp.NewBuiltin("insort_right", bisectFn(true, true)),
	}}
}

func bisectFn(right, insert bool) interp.BuiltinFunc {
	return func(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var a, x starlark.Value
		lo := 0
		var hiArg starlark.Value = starlark.None
		var key starlark.Value = starlark.None
		if err := unpackC(fn.Name(), args, kwargs, "a", &a, "x", &x, "lo?", &lo, "hi?", &hiArg, "key?", &key); err != nil {
			return nil, err
		}
		seq, ok := a.(starlark.Indexable)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "object of type '%s' has no len()", a.Type())
		}
		if lo < 0 {
			return nil, pyrt.Errorf("ValueError", "lo must be non-negative")
		}
		hi := seq.Len()
		if hiArg != starlark.None {
			if err := starlark.AsInt(hiArg, &hi); err != nil {
				return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", hiArg.Type())
			}
		}
		b := interp.BudgetOf(thread)
		target := x
		if insert && key != starlark.None {
			var err error
			if target, err = starlark.Call(thread, key, starlark.Tuple{x}, nil); err != nil {
				return nil, err
			}
		}
		for lo < hi {
			mid := int(uint(lo+hi) / 2)
			if mid >= seq.Len() {
				return nil, pyrt.Errorf("IndexError", "list index out of range")
			}
			v := seq.Index(mid)
			if key != starlark.None {
				var err error
				if v, err = starlark.Call(thread, key, starlark.Tuple{v}, nil); err != nil {
					return nil, err
				}
			}
			var goRight bool
			if right {
				lt, err := pyrt.Less(b, target, v)
				if err != nil {
					return nil, err
				}
				goRight = !lt
			} else {
				lt, err := pyrt.Less(b, v, target)
				if err != nil {
					return nil, err
				}
				goRight = lt
			}
			if goRight {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if !insert {
			return starlark.MakeInt(lo), nil
		}
		// a.insert(lo, x): a list's, or a deque's (any sequence with an
		// insert method, as in CPython).
		h, ok := a.(starlark.HasAttrs)
		if !ok {
			return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'insert'", pyrt.TypeName(a))
		}
		ins, err := h.Attr("insert")
		if err != nil || ins == nil {
			return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'insert'", pyrt.TypeName(a))
		}
		if err := b.Alloc(int64(seq.Len()) * 8); err != nil { // insert moves the tail
			return nil, err
		}
		if _, err := starlark.Call(thread, ins, starlark.Tuple{starlark.MakeInt(lo), x}, nil); err != nil {
			return nil, err
		}
		return starlark.None, nil
	}
}
