package stdlib

import (
	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// dispatcher is a function made by singledispatch (arg 0) or
// singledispatchmethod (arg 1, after the instance): it calls the
// implementation registered for the class of that argument, or for its
// nearest base, or the function it was made from.
type dispatcher struct {
	fn    starlark.Value // the default implementation (registered for object)
	arg   int            // which argument is dispatched on
	types []starlark.Value
	impls []starlark.Value // impls[i] is registered for types[i]
	dict  *starlark.Dict   // attributes (update_wrapper's)
}

var (
	_ starlark.Callable    = (*dispatcher)(nil)
	_ starlark.HasAttrs    = (*dispatcher)(nil)
	_ starlark.HasSetField = (*dispatcher)(nil)
	_ interp.Holder        = (*dispatcher)(nil)
)

func newDispatcher(thread *starlark.Thread, name string, arg int, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fn starlark.Value
	if err := unpack(name, args, kwargs, "func", &fn); err != nil {
		return nil, err
	}
	if _, ok := fn.(starlark.Callable); !ok {
		return nil, pyrt.Errorf("TypeError", "%s() needs a callable, not '%s'", name, pyrt.TypeName(fn))
	}
	d := &dispatcher{fn: fn, arg: arg, dict: starlark.NewDict(0)}
	if obj, ok := interp.Predeclared(thread)["object"]; ok {
		d.types, d.impls = []starlark.Value{obj}, []starlark.Value{fn}
	}
	if _, err := updateWrapper(thread, d, fn, wrapperAssignments, wrapperUpdates); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *dispatcher) String() string {
	if n, ok := d.fn.(interface{ Name() string }); ok {
		return "<function " + n.Name() + ">"
	}
	return "<function singledispatch>"
}
func (d *dispatcher) Type() string          { return "function" }
func (d *dispatcher) Freeze()               {}
func (d *dispatcher) Truth() starlark.Bool  { return true }
func (d *dispatcher) Hash() (uint32, error) { return starlark.String("singledispatch").Hash() }
func (d *dispatcher) Name() string {
	if n, ok := d.fn.(interface{ Name() string }); ok {
		return n.Name()
	}
	return "singledispatch"
}

func (d *dispatcher) Held(visit func(starlark.Value)) {
	visit(d.fn)
	visit(d.dict)
	for i := range d.types {
		visit(d.types[i])
		visit(d.impls[i])
	}
}

// DescriptorGet binds a singledispatchmethod (and a singledispatch
// function held by a class) to the instance it is read through.
func (d *dispatcher) DescriptorGet(_ *starlark.Thread, obj, _ starlark.Value) (starlark.Value, error) {
	if obj == nil || obj == starlark.None {
		return d, nil
	}
	return pyrt.NewBoundMethod(d, obj), nil
}

func (d *dispatcher) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) <= d.arg {
		return nil, pyrt.Errorf("TypeError", "%s requires at least 1 positional argument", d.Name())
	}
	cls, err := typeOf(thread, args[d.arg])
	if err != nil {
		return nil, err
	}
	impl, err := d.dispatch(thread, cls)
	if err != nil {
		return nil, err
	}
	return starlark.Call(thread, impl, args, kwargs)
}

// dispatch finds the implementation for cls: its own, else the first of
// its __mro__ registered, else the most derived registered base (by
// issubclass), else the default.
func (d *dispatcher) dispatch(thread *starlark.Thread, cls starlark.Value) (starlark.Value, error) {
	if i := d.index(cls); i >= 0 {
		return d.impls[i], nil
	}
	if mro, err := pyrt.GetAttr(thread, cls, "__mro__"); err == nil {
		if t, ok := mro.(starlark.Tuple); ok {
			for _, base := range t {
				if i := d.index(base); i >= 0 {
					return d.impls[i], nil
				}
			}
		}
	}
	issub, _ := interp.Predeclared(thread)["issubclass"].(starlark.Callable)
	best := -1
	for i, t := range d.types {
		if issub == nil {
			break
		}
		if err := interp.BudgetOf(thread).Charge(1); err != nil {
			return nil, err
		}
		ok, err := starlark.Call(thread, issub, starlark.Tuple{cls, t}, nil)
		if err != nil || !ok.Truth() {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		// t is nearer when it derives from the best so far.
		if nearer, err := starlark.Call(thread, issub, starlark.Tuple{t, d.types[best]}, nil); err == nil && nearer.Truth() {
			best = i
		}
	}
	if best >= 0 {
		return d.impls[best], nil
	}
	return d.fn, nil
}

func (d *dispatcher) index(cls starlark.Value) int {
	for i, t := range d.types {
		if t == cls {
			return i
		}
		if eq, err := starlark.Equal(t, cls); err == nil && eq {
			return i
		}
	}
	return -1
}

func typeOf(thread *starlark.Thread, v starlark.Value) (starlark.Value, error) {
	t, ok := interp.Predeclared(thread)["type"].(starlark.Callable)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "type() is not available")
	}
	return starlark.Call(thread, t, starlark.Tuple{v}, nil)
}

// isClass reports a class: a value type() says is a type.
func isClass(thread *starlark.Thread, v starlark.Value) bool {
	t, err := typeOf(thread, v)
	if err != nil {
		return false
	}
	n, err := pyrt.GetAttr(thread, t, "__name__")
	if err != nil {
		return false
	}
	s, _ := interp.AsText(n)
	return s == "type"
}

// register(cls, func=None): with func, registers it; with a class alone,
// a decorator that does; with a function alone, registers it for the
// class its first parameter's annotation names.
func (d *dispatcher) register(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var cls, fn starlark.Value = nil, starlark.None
	if err := unpack("register", args, kwargs, "cls", &cls, "func?", &fn); err != nil {
		return nil, err
	}
	if fn == starlark.None {
		if isClass(thread, cls) {
			return interp.NewBuiltin("register", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				var f starlark.Value
				if err := unpack("register", args, kwargs, "func", &f); err != nil {
					return nil, err
				}
				d.add(cls, f)
				return f, nil
			}), nil
		}
		// @f.register on a def: the class is its first annotation.
		fn = cls
		pf, ok := fn.(*pyrt.Function)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "Invalid first argument to `register()`. %s is not a class or union type.", reprOr(thread, fn))
		}
		sf := pyrt.StarlarkFunc(pf)
		if sf == nil || sf.NumParams() == 0 {
			return nil, pyrt.Errorf("TypeError", "Invalid first argument to `register()`: %s. Use either `@register(some_class)` or plain `@register` on an annotated function.", reprOr(thread, fn))
		}
		first, _ := sf.Param(0)
		ann, _, found := pf.Annotation(thread, first)
		if !found {
			return nil, pyrt.Errorf("TypeError", "Invalid first argument to `register()`: %s. Use either `@register(some_class)` or plain `@register` on an annotated function.", reprOr(thread, fn))
		}
		if !isClass(thread, ann) {
			return nil, pyrt.Errorf("TypeError", "Invalid annotation for '%s'. %s is not a class.", first, reprOr(thread, ann))
		}
		d.add(ann, fn)
		return fn, nil
	}
	d.add(cls, fn)
	return fn, nil
}

func (d *dispatcher) add(cls, fn starlark.Value) {
	if i := d.index(cls); i >= 0 {
		d.impls[i] = fn
		return
	}
	d.types = append(d.types, cls)
	d.impls = append(d.impls, fn)
}

func reprOr(thread *starlark.Thread, v starlark.Value) string {
	s, err := interp.Repr(interp.BudgetOf(thread), v)
	if err != nil {
		return v.String()
	}
	return s
}

func (d *dispatcher) Attr(name string) (starlark.Value, error) {
	switch name {
	case "register":
		return interp.NewBuiltin("register", d.register), nil
	case "dispatch":
		return interp.NewBuiltin("dispatch", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var cls starlark.Value
			if err := unpack("dispatch", args, kwargs, "cls", &cls); err != nil {
				return nil, err
			}
			return d.dispatch(thread, cls)
		}), nil
	case "registry":
		r := starlark.NewDict(len(d.types))
		for i := range d.types {
			if err := r.SetKey(d.types[i], d.impls[i]); err != nil {
				return nil, err
			}
		}
		return r, nil
	case "func":
		return d.fn, nil
	case "__dict__":
		return d.dict, nil
	}
	if v, found, _ := d.dict.Get(starlark.String(name)); found {
		return v, nil
	}
	return nil, pyrt.Errorf("AttributeError", "'function' object has no attribute '%s'", name)
}

func (d *dispatcher) AttrNames() []string { return []string{"dispatch", "register", "registry"} }

func (d *dispatcher) SetField(name string, v starlark.Value) error {
	return d.dict.SetKey(starlark.String(name), v)
}
