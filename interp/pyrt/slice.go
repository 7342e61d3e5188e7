package pyrt

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

// Slice objects: what x[a:b:c] passes to a program's own __getitem__,
// __setitem__ and __delitem__ (a sequence class), and what slice(a, b, c)
// makes. The builtin sequences keep slicing in the subscript.

// SliceValue is slice(start, stop, step).
type SliceValue struct{ start, stop, step starlark.Value }

var (
	_ starlark.HasAttrs   = (*SliceValue)(nil)
	_ starlark.Comparable = (*SliceValue)(nil)
	_ interp.TextValue    = (*SliceValue)(nil)
)

func (s *SliceValue) String() string       { return "slice(...)" }
func (s *SliceValue) Type() string         { return "slice" }
func (s *SliceValue) Freeze()              {}
func (s *SliceValue) Truth() starlark.Bool { return true }
func (s *SliceValue) Hash() (uint32, error) {
	return 0, typeError("unhashable type: 'slice'")
}

// WriteText writes slice(1, 3, None).
func (s *SliceValue) WriteText(w *interp.TextWriter, _ bool, depth int) error {
	if err := w.WriteString("slice("); err != nil {
		return err
	}
	for i, v := range [3]starlark.Value{s.start, s.stop, s.step} {
		if i > 0 {
			if err := w.WriteString(", "); err != nil {
				return err
			}
		}
		if err := w.Nested(v, depth+1); err != nil {
			return err
		}
	}
	return w.WriteString(")")
}

func (s *SliceValue) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	t := y.(*SliceValue)
	a, b := starlark.Tuple{s.start, s.stop, s.step}, starlark.Tuple{t.start, t.stop, t.step}
	return starlark.CompareDepth(op, a, b, depth)
}

func (s *SliceValue) Attr(name string) (starlark.Value, error) {
	switch name {
	case "start":
		return s.start, nil
	case "stop":
		return s.stop, nil
	case "step":
		return s.step, nil
	case "indices":
		return interp.NewBuiltin("indices", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var n int
			if err := starlark.UnpackPositionalArgs("indices", args, kwargs, 1, &n); err != nil {
				return nil, err
			}
			if n < 0 {
				return nil, valueError("length should not be negative")
			}
			start, end, step, err := sliceIndices(n, s.start, s.stop, s.step)
			if err != nil {
				return nil, err
			}
			return starlark.Tuple{starlark.MakeInt(start), starlark.MakeInt(end), starlark.MakeInt(step)}, nil
		}), nil
	}
	return nil, nil
}

func (s *SliceValue) AttrNames() []string { return []string{"indices", "start", "step", "stop"} }

// sliceBuiltin is slice(stop) or slice(start, stop[, step]).
func sliceBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, typeError("slice() takes no keyword arguments")
	}
	switch len(args) {
	case 1:
		return &SliceValue{starlark.None, args[0], starlark.None}, nil
	case 2:
		return &SliceValue{args[0], args[1], starlark.None}, nil
	case 3:
		return &SliceValue{args[0], args[1], args[2]}, nil
	}
	return nil, typeError("slice expected at least 1 argument, got %d", len(args))
}

// SliceHolder is a value whose slices are its own: a program's sequence
// class, whose __getitem__ gets a slice object.
type SliceHolder interface {
	starlark.Value
	// GetSlice is x[s]; handled false leaves it to the builtin value.
	GetSlice(thread *starlark.Thread, s *SliceValue) (v starlark.Value, handled bool, err error)
	// SetSlice is x[s] = v.
	SetSlice(thread *starlark.Thread, s *SliceValue, v starlark.Value) (handled bool, err error)
	// DeleteSlice is del x[s].
	DeleteSlice(thread *starlark.Thread, s *SliceValue) (handled bool, err error)
}

// sliceHelper is __ot_slice(x, lo, hi, step): x[lo:hi:step] in a program
// that may hold instances. An instance's own __getitem__ gets a slice
// object; anything else is sliced as the subscript does.
func sliceHelper(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x := args[0]
	if h, ok := x.(SliceHolder); ok {
		v, handled, err := h.GetSlice(thread, &SliceValue{args[1], args[2], args[3]})
		if handled || err != nil {
			return v, err
		}
		if b := heldBuiltin(x); b != nil {
			x = b
		}
	}
	return stepSlice(thread, b, starlark.Tuple{x, args[1], args[2], args[3]}, nil)
}

// indexHelper is __ot_subscr(x, k), x[k] inside __getitem__ and its kin:
// a slice object slices.
func indexHelper(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, k := args[0], args[1]
	if s, ok := k.(*SliceValue); ok {
		return sliceHelper(thread, b, starlark.Tuple{x, s.start, s.stop, s.step}, nil)
	}
	return valueDunder(thread, x, "__getitem__", starlark.Tuple{k})
}

// setIndexHelper is __ot_setsubscr(x, k, v), x[k] = v inside __setitem__
// and its kin: a slice object assigns a slice.
func setIndexHelper(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, k, v := args[0], args[1], args[2]
	if s, ok := k.(*SliceValue); ok {
		return setSlice(thread, b, starlark.Tuple{x, s.start, s.stop, s.step, v}, nil)
	}
	if sk, ok := x.(starlark.HasSetKey); ok {
		return starlark.None, sk.SetKey(k, v)
	}
	return valueDunder(thread, x, "__setitem__", starlark.Tuple{k, v})
}
