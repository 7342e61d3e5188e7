package stdlib

import (
	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/objects"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// functools' members that work on classes: total_ordering and
// cached_property.

// functoolsClassMembers are added to the functools module.
func functoolsClassMembers(m starlark.StringDict) {
	m["total_ordering"] = interp.NewBuiltin("total_ordering", ftTotalOrdering)
	m["cached_property"] = interp.NewBuiltin("cached_property", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 1 || len(kwargs) > 0 {
			return nil, pyrt.Errorf("TypeError", "cached_property.__init__() takes 2 positional arguments but %d were given", len(args)+1)
		}
		return &cachedProperty{fn: args[0]}, nil
	})
}

// ---- total_ordering ----

// orderRoots are CPython's _convert table: for the root method the
// class defines, how each missing one is derived from it and __eq__.
var orderRoots = []string{"__lt__", "__le__", "__gt__", "__ge__"}

// ftTotalOrdering is @total_ordering: the order methods the class does
// not define, from the one it defines (the first of __lt__, __le__,
// __gt__, __ge__ in that order that it defines, as CPython picks the max
// of the defined ones by name) and __eq__.
func ftTotalOrdering(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "total_ordering() takes 1 positional argument but %d were given", len(args))
	}
	c, ok := args[0].(*objects.Class)
	if !ok {
		return nil, pyrt.Errorf("ValueError", "must define at least one ordering operation: < > <= >=")
	}
	defined := map[string]bool{}
	for _, n := range orderRoots {
		if v, ok := c.Lookup(n); ok && v != starlark.None {
			defined[n] = true
		}
	}
	if len(defined) == 0 {
		return nil, pyrt.Errorf("ValueError", "must define at least one ordering operation: < > <= >=")
	}
	// CPython: root = max(roots) by name: __lt__ > __le__ > __gt__ > __ge__.
	root := ""
	for _, n := range []string{"__lt__", "__le__", "__gt__", "__ge__"} {
		if defined[n] {
			root = n
			break
		}
	}
	for _, n := range orderRoots {
		if n == root || defined[n] {
			continue
		}
		c.Set(n, derivedOrder(n, root))
	}
	return c, nil
}

// derivedOrder is the method name made from root, as functools'
// _gt_from_lt and its kin: root's answer, NotImplemented passed on,
// combined with ==.
func derivedOrder(name, root string) *objects.Method {
	return objects.NewMethod(name, func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 1 || len(kwargs) > 0 {
			return nil, pyrt.Errorf("TypeError", "%s() takes 2 positional arguments but %d were given", name, len(args)+1)
		}
		other := args[0]
		f, err := pyrt.GetAttr(thread, self, root)
		if err != nil {
			return nil, err
		}
		r, err := starlark.Call(thread, f, starlark.Tuple{other}, nil)
		if err != nil || r == pyrt.NotImplemented {
			return r, err
		}
		rv := bool(r.Truth())
		eq := func() (bool, error) {
			if self == other {
				return true, nil
			}
			return pyrt.Equal(thread, self, other)
		}
		switch root + name {
		case "__lt____gt__", "__gt____lt__": // not (a < b) and a != b
			if rv {
				return starlark.False, nil
			}
			e, err := eq()
			return starlark.Bool(!e), err
		case "__lt____le__", "__gt____ge__": // a < b or a == b
			if rv {
				return starlark.True, nil
			}
			e, err := eq()
			return starlark.Bool(e), err
		case "__lt____ge__", "__gt____le__", "__le____gt__", "__ge____lt__": // not (a < b)
			return starlark.Bool(!rv), nil
		case "__le____ge__", "__ge____le__": // not (a <= b) or a == b
			if !rv {
				return starlark.True, nil
			}
			e, err := eq()
			return starlark.Bool(e), err
		case "__le____lt__", "__ge____gt__": // a <= b and a != b
			if !rv {
				return starlark.False, nil
			}
			e, err := eq()
			return starlark.Bool(!e), err
		}
		return pyrt.NotImplemented, nil
	})
}

// ---- cached_property ----

// cachedProperty is functools.cached_property(fn): read through an
// instance, fn(instance) computed once and kept in the instance's dict,
// where later reads find it first (it is no data descriptor).
type cachedProperty struct {
	fn   starlark.Value
	attr string
}

var _ starlark.HasAttrs = (*cachedProperty)(nil)

func (p *cachedProperty) String() string        { return "<functools.cached_property object>" }
func (p *cachedProperty) Type() string          { return "cached_property" }
func (p *cachedProperty) Freeze()               {}
func (p *cachedProperty) Truth() starlark.Bool  { return true }
func (p *cachedProperty) Hash() (uint32, error) { return starlark.String("cached_property").Hash() }
func (p *cachedProperty) Attr(name string) (starlark.Value, error) {
	switch name {
	case "func":
		return p.fn, nil
	case "attrname":
		if p.attr == "" {
			return starlark.None, nil
		}
		return starlark.String(p.attr), nil
	case "__doc__", "__name__", "__module__", "__qualname__":
		if a, ok := p.fn.(starlark.HasAttrs); ok {
			return a.Attr(name)
		}
	}
	return nil, nil
}
func (p *cachedProperty) AttrNames() []string { return []string{"attrname", "func"} }

// name is the attribute the property is bound to: the function's name
// (CPython learns it from __set_name__, which is the same unless the
// property is bound under another name).
func (p *cachedProperty) name() string {
	if p.attr != "" {
		return p.attr
	}
	if n, ok := p.fn.(interface{ Name() string }); ok {
		return n.Name()
	}
	return "?"
}

// DescriptorGet computes the value for obj once, keeping it in obj's
// dict; read through the class it is the property itself.
func (p *cachedProperty) DescriptorGet(thread *starlark.Thread, obj, owner starlark.Value) (starlark.Value, error) {
	if obj == starlark.None {
		return p, nil
	}
	in := objects.AsInstance(obj)
	if in == nil {
		return nil, pyrt.Errorf("TypeError", "No '__dict__' attribute on '%s' instance to cache '%s' property.", pyrt.TypeName(obj), p.name())
	}
	name := p.name()
	if v, ok := in.Own(name); ok {
		return v, nil
	}
	v, err := starlark.Call(thread, p.fn, starlark.Tuple{obj}, nil)
	if err != nil {
		return nil, err
	}
	if err := in.SetAttr(thread, name, v); err != nil {
		return nil, err
	}
	return v, nil
}
