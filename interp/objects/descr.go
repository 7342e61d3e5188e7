package objects

import (
	"reflect"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Descriptors: what reading a class attribute through an instance or the
// class gives. A function binds to the instance (a method); a property
// calls its getter; a staticmethod is its function; a classmethod binds
// to the class. Values of other packages take part by having the method
// DescriptorGet (a decorated function, an lru_cache wrapper).

// descriptorGetter is a value of another package that computes what
// reading it as a class attribute gives: obj is the instance (None when
// read through the class), owner the class.
type descriptorGetter interface {
	DescriptorGet(thread *starlark.Thread, obj, owner starlark.Value) (starlark.Value, error)
}

// bindToInstance is v, an attribute of in's class, read through in.
func bindToInstance(thread *starlark.Thread, v starlark.Value, in *Instance, owner *Class) (starlark.Value, error) {
	switch f := v.(type) {
	case *starlark.Function:
		if in.lastFn == f {
			return in.lastMethod, nil // obj.m() in a loop: one bound method
		}
		var m *pyrt.BoundMethod
		if owner != nil {
			m = pyrt.NewMethodOf(f, in, owner.qualname+"."+f.Name())
		} else {
			m = pyrt.NewBoundMethod(f, in)
		}
		in.lastFn, in.lastMethod = f, m
		return m, nil
	case *staticMethod:
		return f.fn, nil
	case *classMethod:
		return pyrt.NewBoundMethod(f.fn, in.class), nil
	case *Property:
		return f.get(thread, in)
	case descriptorGetter:
		return f.DescriptorGet(thread, in, in.class)
	case *Instance:
		if get := f.class.special("__get__"); get != nil {
			return f.callSpecial(thread, get, in, in.class)
		}
	}
	return v, nil
}

// bindToClass is v, an attribute of c (or of a base), read through c.
func bindToClass(thread *starlark.Thread, v starlark.Value, c *Class) (starlark.Value, error) {
	return bindToClassOf(thread, v, c, nil)
}

// bindToClassOf is bindToClass for v found in owner's namespace: a
// function is named owner.f in its errors, as CPython names it.
func bindToClassOf(thread *starlark.Thread, v starlark.Value, c, owner *Class) (starlark.Value, error) {
	switch f := v.(type) {
	case *starlark.Function:
		if owner != nil {
			return pyrt.NewMethodOf(f, nil, owner.qualname+"."+f.Name()), nil
		}
	case *staticMethod:
		if fn, ok := f.fn.(*starlark.Function); ok && owner != nil {
			return pyrt.NewMethodOf(fn, nil, owner.qualname+"."+fn.Name()), nil
		}
		return f.fn, nil
	case *classMethod:
		return pyrt.NewBoundMethod(f.fn, c), nil
	case descriptorGetter:
		return f.DescriptorGet(thread, starlark.None, c)
	case *Instance:
		if get := f.class.special("__get__"); get != nil {
			return f.callSpecial(thread, get, starlark.None, c)
		}
	}
	return v, nil
}

// ---- staticmethod, classmethod ----

type staticMethod struct{ fn starlark.Value }

func (s *staticMethod) String() string        { return "<staticmethod>" }
func (s *staticMethod) Type() string          { return "staticmethod" }
func (s *staticMethod) Freeze()               {}
func (s *staticMethod) Truth() starlark.Bool  { return true }
func (s *staticMethod) Hash() (uint32, error) { return identityHashOf(s), nil }
func (s *staticMethod) Attr(name string) (starlark.Value, error) {
	if name == "__func__" || name == "__wrapped__" {
		return s.fn, nil
	}
	return nil, nil
}
func (s *staticMethod) AttrNames() []string { return []string{"__func__"} }

// CallInternal: a staticmethod is callable itself (Python 3.10+).
func (s *staticMethod) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return starlark.Call(thread, s.fn, args, kwargs)
}
func (s *staticMethod) Name() string { return "staticmethod" }

type classMethod struct{ fn starlark.Value }

func (s *classMethod) String() string        { return "<classmethod>" }
func (s *classMethod) Type() string          { return "classmethod" }
func (s *classMethod) Freeze()               {}
func (s *classMethod) Truth() starlark.Bool  { return true }
func (s *classMethod) Hash() (uint32, error) { return identityHashOf(s), nil }
func (s *classMethod) Attr(name string) (starlark.Value, error) {
	if name == "__func__" || name == "__wrapped__" {
		return s.fn, nil
	}
	return nil, nil
}
func (s *classMethod) AttrNames() []string { return []string{"__func__"} }

// ---- property ----

// A Property is property(fget, fset, fdel, doc): a data descriptor.
type Property struct {
	fget, fset, fdel starlark.Value // nil when absent
	doc              starlark.Value
	name             string // the attribute it is bound to (__set_name__)
}

var (
	_ starlark.HasAttrs = (*Property)(nil)
	_ starlark.Callable = (*Property)(nil)
)

func (p *Property) String() string        { return "<property object>" }
func (p *Property) Type() string          { return "property" }
func (p *Property) Freeze()               {}
func (p *Property) Truth() starlark.Bool  { return true }
func (p *Property) Hash() (uint32, error) { return identityHashOf(p), nil }
func (p *Property) Name() string          { return "property" }

// CallInternal lets @prop.setter-less forms call a property like its
// getter: property objects are not callable in Python.
func (p *Property) CallInternal(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return nil, errorf("TypeError", "'property' object is not callable")
}

// missing is CPython's error for a property without the function an
// access needs: "property 'x' of 'C' object has no setter".
func (p *Property) missing(in starlark.Value, what string) error {
	if p.name != "" {
		return errorf("AttributeError", "property '%s' of '%s' object has no %s", p.name, typeName(in), what)
	}
	return errorf("AttributeError", "property of '%s' object has no %s", typeName(in), what)
}

func (p *Property) get(thread *starlark.Thread, in *Instance) (starlark.Value, error) {
	if p.fget == nil {
		return nil, p.missing(in, "getter")
	}
	return in.class.world.callSelf(thread, p.fget, in)
}

func (p *Property) set(thread *starlark.Thread, in *Instance, v starlark.Value) error {
	if p.fset == nil {
		return p.missing(in, "setter")
	}
	_, err := in.class.world.callSelf(thread, p.fset, in, v)
	return err
}

func (p *Property) del(thread *starlark.Thread, in *Instance) error {
	if p.fdel == nil {
		return p.missing(in, "deleter")
	}
	_, err := in.class.world.call(thread, p.fdel, starlark.Tuple{in}, nil)
	return err
}

func (p *Property) with(fget, fset, fdel starlark.Value) *Property {
	q := *p
	if fget != nil {
		q.fget = fget
	}
	if fset != nil {
		q.fset = fset
	}
	if fdel != nil {
		q.fdel = fdel
	}
	return &q
}

func (p *Property) Attr(name string) (starlark.Value, error) {
	orNone := func(v starlark.Value) starlark.Value {
		if v == nil {
			return starlark.None
		}
		return v
	}
	switch name {
	case "fget":
		return orNone(p.fget), nil
	case "fset":
		return orNone(p.fset), nil
	case "fdel":
		return orNone(p.fdel), nil
	case "__doc__":
		if p.doc != nil {
			return p.doc, nil
		}
		if f, ok := p.fget.(*starlark.Function); ok && f.Doc() != "" {
			return interp.MakeString(f.Doc()), nil
		}
		if a, ok := p.fget.(starlark.HasAttrs); ok {
			if d, err := a.Attr("__doc__"); err == nil && d != nil {
				return d, nil
			}
		}
		return starlark.None, nil
	case "__get__", "__set__", "__delete__":
		return starlark.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return nil, errorf("TypeError", "expected at least 1 argument, got 0")
			}
			in, _ := args[0].(*Instance)
			switch {
			case name == "__get__" && args[0] == starlark.None:
				return p, nil
			case name == "__get__" && p.fget == nil:
				return nil, p.missing(args[0], "getter")
			case name == "__set__" && p.fset == nil:
				return nil, p.missing(args[0], "setter")
			case name == "__delete__" && p.fdel == nil:
				return nil, p.missing(args[0], "deleter")
			case in == nil:
				fn := map[string]starlark.Value{"__get__": p.fget, "__set__": p.fset, "__delete__": p.fdel}[name]
				return starlark.Call(thread, fn, args[:len(args)-boolInt(name == "__get__" && len(args) > 1)], nil)
			case name == "__get__":
				return p.get(thread, in)
			case name == "__set__":
				if len(args) != 2 {
					return nil, errorf("TypeError", "expected 2 arguments, got %d", len(args))
				}
				return starlark.None, p.set(thread, in, args[1])
			}
			return starlark.None, p.del(thread, in)
		}), nil
	case "getter", "setter", "deleter":
		return starlark.NewBuiltin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var fn starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &fn); err != nil {
				return nil, err
			}
			switch name {
			case "getter":
				return p.with(fn, nil, nil), nil
			case "setter":
				return p.with(nil, fn, nil), nil
			}
			return p.with(nil, nil, fn), nil
		}), nil
	}
	return nil, nil
}

func (p *Property) AttrNames() []string {
	return []string{"__doc__", "deleter", "fdel", "fget", "fset", "getter", "setter"}
}

// ---- super ----

// A superObject is super(C, obj): attributes found along obj's MRO after
// C, bound to obj.
type superObject struct {
	start *Class         // C
	obj   starlark.Value // an instance, or a class (in a classmethod)
}

func (s *superObject) String() string {
	return "<super: <class '" + s.start.name + "'>, <" + typeName(s.obj) + " object>>"
}
func (s *superObject) Type() string          { return "super" }
func (s *superObject) Freeze()               {}
func (s *superObject) Truth() starlark.Bool  { return true }
func (s *superObject) Hash() (uint32, error) { return identityHashOf(s), nil }
func (s *superObject) AttrNames() []string   { return nil }

// mro is the MRO super walks: that of obj's class.
func (s *superObject) objClass() *Class {
	switch o := s.obj.(type) {
	case *Instance:
		return o.class
	case *Class:
		return o
	}
	return nil
}

func (s *superObject) Attr(name string) (starlark.Value, error) {
	c := s.objClass()
	thread := s.start.world.thread()
	if c == nil {
		return nil, errorf("TypeError", "super(type, obj): obj must be an instance or subtype of type")
	}
	mro := c.mro
	i := 0
	for i < len(mro) && mro[i] != starlark.Value(s.start) {
		i++
	}
	for _, m := range mro[i+1:] {
		switch k := m.(type) {
		case *Class:
			if v, ok := k.dict.get(name); ok {
				if in, ok := s.obj.(*Instance); ok {
					return bindToInstance(thread, v, in, k)
				}
				return bindToClass(thread, v, s.obj.(*Class))
			}
		case ClassAttrs:
			// A Go base that gives its subclasses methods
			// (AbstractContextManager's __enter__): super()
			// reaches them as it reaches a program's class.
			if v, ok := k.ClassAttr(name); ok {
				if in, ok := s.obj.(*Instance); ok {
					return bindToInstance(thread, v, in, nil)
				}
				return bindToClass(thread, v, s.obj.(*Class))
			}
			if v, ok := s.builtinAttr(thread, k, name); ok {
				return v, nil
			}
		default:
			if v, ok := s.builtinAttr(thread, k, name); ok {
				return v, nil
			}
		}
	}
	return nil, errorf("AttributeError", "'super' object has no attribute '%s'", name)
}

// builtinAttr is super().name resolved at a builtin class of the MRO: an
// exception's or a builtin value's __init__, object's defaults, a
// builtin method acting on the instance's value.
func (s *superObject) builtinAttr(thread *starlark.Thread, base starlark.Value, name string) (starlark.Value, bool) {
	in, _ := s.obj.(*Instance)
	cls := s.objClass()
	method := func(fn func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) starlark.Value {
		return starlark.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return fn(thread, args, kwargs)
		})
	}
	isObject := false
	if t, ok := base.(*pyrt.TypeObj); ok && t.Name() == "object" {
		isObject = true
	}
	switch name {
	case "__init__":
		if in == nil {
			break
		}
		switch {
		case in.exc != nil:
			if _, ok := base.(*pyrt.ExcClass); ok {
				return method(func(_ *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
					if len(kwargs) > 0 {
						return nil, errorf("TypeError", "%s() takes no keyword arguments", cls.name)
					}
					in.exc.SetArgs(append(starlark.Tuple(nil), args...))
					return starlark.None, nil
				}), true
			}
		case in.base != nil && in.class.builtin != nil && !isObject:
			// An instance a module gave a held value (SetBuiltin)
			// under a class with no builtin base has nothing to
			// initialise here: super().__init__ found a nil callable.
			return method(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				v, err := starlark.Call(thread, in.class.builtin, args, kwargs)
				if err != nil {
					return nil, err
				}
				if in.class.mutableBuiltin(thread) {
					in.base = v
				}
				return starlark.None, nil
			}), true
		}
		if isObject || in.exc != nil {
			return method(func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
				return starlark.None, nil
			}), true
		}
	case "__init_subclass__":
		if isObject {
			return method(func(_ *starlark.Thread, _ starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				if len(kwargs) > 0 {
					return nil, errorf("TypeError", "%s.__init_subclass__() takes no keyword arguments", cls.name)
				}
				return starlark.None, nil
			}), true
		}
	case "__new__":
		if isObject {
			return method(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				c, ok := args[0].(*Class)
				if len(args) == 0 || !ok {
					return nil, errorf("TypeError", "object.__new__(X): X is not a type object")
				}
				return c.newInstance(thread, args[1:], kwargs)
			}), true
		}
	}
	if in == nil {
		if a, ok := base.(starlark.HasAttrs); ok {
			if v, err := a.Attr(name); err == nil && v != nil {
				return v, true
			}
		}
		return nil, false
	}
	if isObject {
		if v, ok := objectMethod(in, name); ok {
			return v, true
		}
		return nil, false
	}
	if in.exc != nil {
		if _, ok := base.(*pyrt.ExcClass); ok {
			switch name {
			case "__str__":
				return method(func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
					return interp.MakeString(in.exc.Message()), nil
				}), true
			case "__repr__":
				return method(func(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
					w := interp.TextWriter{Budget: interp.BudgetOf(thread)}
					if err := in.exc.WriteText(&w, false, 0); err != nil {
						return nil, err
					}
					return interp.MakeString(w.String()), nil
				}), true
			}
			if v, err := in.exc.Attr(name); err == nil && v != nil {
				return v, true
			}
		}
	}
	if in.base != nil {
		if t, ok := base.(*pyrt.TypeObj); ok && len(name) > 4 && name[:2] == "__" {
			// dict's own __setitem__, acting on the dict the instance holds.
			if d, err := t.Attr(name); err == nil && d != nil {
				return pyrt.NewBoundMethod(d, in), true
			}
		}
		if v, err := pyrt.GetAttr(thread, in.base, name); err == nil {
			return v, true
		}
	}
	return nil, false
}

// objectMethod is object's method name bound to in: what super() and
// object.name(in, …) reach at the root of every class.
func objectMethod(in *Instance, name string) (starlark.Value, bool) {
	bi := func(fn func(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error)) starlark.Value {
		return starlark.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return fn(thread, args)
		})
	}
	switch name {
	case "__setattr__":
		return bi(func(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
			if len(args) != 2 {
				return nil, errorf("TypeError", "expected 2 arguments, got %d", len(args))
			}
			n, ok := interp.AsText(args[0])
			if !ok {
				return nil, errorf("TypeError", "attribute name must be string, not '%s'", typeName(args[0]))
			}
			return starlark.None, in.setAttr(thread, n, args[1])
		}), true
	case "__delattr__":
		return bi(func(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
			n, _ := interp.AsText(args[0])
			return starlark.None, in.objectDelAttr(thread, n)
		}), true
	case "__getattribute__":
		return bi(func(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
			n, _ := interp.AsText(args[0])
			return in.Attr(n)
		}), true
	case "__repr__", "__str__":
		return bi(func(*starlark.Thread, starlark.Tuple) (starlark.Value, error) {
			return starlark.String(in.defaultRepr()), nil
		}), true
	case "__eq__":
		return bi(func(_ *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
			if args[0] == starlark.Value(in) {
				return starlark.True, nil
			}
			return pyrt.NotImplemented, nil
		}), true
	case "__ne__":
		return bi(func(_ *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
			if args[0] == starlark.Value(in) {
				return starlark.False, nil
			}
			return pyrt.NotImplemented, nil
		}), true
	case "__hash__":
		return bi(func(*starlark.Thread, starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt64(int64(identityHash(in))), nil
		}), true
	case "__format__":
		return bi(func(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
			if len(args) == 1 {
				if s, _ := interp.AsText(args[0]); s != "" {
					return nil, errorf("TypeError", "unsupported format string passed to %s.__format__", in.class.name)
				}
			}
			s, err := interp.Str(interp.BudgetOf(thread), in)
			return interp.MakeString(s), err
		}), true
	case "__dict__":
		return in.dictValue(), true
	case "__class__":
		return in.class, true
	}
	return nil, false
}

// identityHashOf hashes a descriptor by identity.
func identityHashOf(v any) uint32 {
	return uint32(reflect.ValueOf(v).Pointer() >> 4)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
