package pyrt

import (
	"sync"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// For the modules' classes that derive from dict (collections' Counter,
// defaultdict, OrderedDict): the dict methods they inherit, with
// Python's arguments and errors, and their keys/values/items views.

var dictMethodImpls = sync.OnceValue(func() map[string]methodImpl {
	out := map[string]methodImpl{}
	for name, impls := range methods() {
		if impl := impls[kindDict]; impl != nil {
			out[name] = impl
		}
	}
	for i, name := range [...]string{"keys", "values", "items"} {
		out[name] = dictViewMethod(viewKind(i))
	}
	return out
})

// DictMethod is the method name of dict bound to d, the dict a value of
// a dict's subclass holds, or nil when dict has none of that name.
// A method that Python's dict and Starlark's share (get, setdefault,
// clear) is Starlark's, as for a dict. ordered names the views of
// keys(), values() and items() as OrderedDict's (odict_keys).
func DictMethod(d *starlark.Dict, name string, ordered bool) (starlark.Value, error) {
	impl := dictMethodImpls()[name]
	if impl == nil {
		return d.Attr(name)
	}
	return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		v, err := impl(thread, d, args, kwargs)
		if err != nil {
			if !isBudget(err) {
				err = methodError(name, err)
			}
			return nil, err
		}
		if view, ok := v.(*dictView); ok {
			view.ordered = ordered
		}
		return v, nil
	}), nil
}

// heldDict is the dict that v, a value of a dict's subclass, holds;
// nil for any other value.
func heldDict(v starlark.Value) *starlark.Dict {
	s, ok := v.(Subclass)
	if !ok || s.BuiltinBase() != "dict" {
		return nil
	}
	if h, ok := v.(interp.StarlarkValuer); ok {
		d, _ := h.StarlarkValue().(*starlark.Dict)
		return d
	}
	return nil
}

// dictsEqual is x == y for two dicts, a dict and a value of a dict's
// subclass, or values of two of its subclasses (a Counter and a dict):
// equal when they hold the same keys with values equal as Python
// compares them (1 == True, a Counter == a dict), in any order. ok is
// false for other values.
func dictsEqual(b *interp.Budget, x, y starlark.Value, depth int) (eq, ok bool, err error) {
	_, xd := x.(*starlark.Dict)
	_, yd := y.(*starlark.Dict)
	if x.Type() == y.Type() && !(xd && yd) {
		// Two Counters, two OrderedDicts (equal only in the same order):
		// their own ==.
		return false, false, nil
	}
	asDict := func(v starlark.Value) *starlark.Dict {
		if d, ok := v.(*starlark.Dict); ok {
			return d
		}
		return heldDict(v)
	}
	dx, dy := asDict(x), asDict(y)
	if dx == nil || dy == nil {
		return false, false, nil
	}
	if dx.Len() != dy.Len() {
		return false, true, nil
	}
	for _, kv := range dx.Items() {
		if err := b.Charge(1); err != nil {
			return false, true, err
		}
		w, found, err := dy.Get(kv[0])
		if err != nil || !found {
			return false, true, err
		}
		if eq, err := pyEqualDepth(b, kv[1], w, depth+1); err != nil || !eq {
			return false, true, err
		}
	}
	return true, true, nil
}
