package objects

import (
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Builtins returns the object model's builtins, to merge over base (the
// runtime's, pyrt.Builtins): the helpers of lowered class statements,
// super, property, staticmethod, classmethod, and the builtins whose
// answer for an instance is a special method (len, iter, next, abs,
// callable, bool, vars, setattr, delattr, id, round, object). base is
// frozen and shared; so is the result.
func Builtins(base starlark.StringDict) starlark.StringDict {
	wrap := func(name string, fn func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple, orig starlark.Value) (starlark.Value, error)) *starlark.Builtin {
		orig := base[name]
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return fn(thread, args, kwargs, orig)
		})
	}
	callOrig := func(thread *starlark.Thread, orig starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if orig == nil {
			return nil, errorf("NameError", "name is not defined")
		}
		return starlark.Call(thread, orig, args, kwargs)
	}
	oneInstance := func(args starlark.Tuple, kwargs []starlark.Tuple) *Instance {
		if len(args) == 1 && len(kwargs) == 0 {
			in, _ := args[0].(*Instance)
			return in
		}
		return nil
	}
	obj, _ := base["object"].(*pyrt.TypeObj)
	d := starlark.StringDict{
		"__ot_class": interp.NewBuiltin("__ot_class", classHelper),
		"__ot_classcell": interp.NewBuiltin("__ot_classcell", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return &classCell{}, nil
		}),
		"__ot_super":     interp.NewBuiltin("__ot_super", zeroArgSuper),
		"__ot_unbound":   Unbound,
		"__ot_annot":     interp.NewBuiltin("__ot_annot", annotHelper),
		pyrt.TypeMaker:   interp.NewBuiltin(pyrt.TypeMaker, typeHelper),
		"NotImplemented": pyrt.NotImplemented,
		"super":          superType,
		"property":       propertyType,
		"staticmethod":   staticMethodType,
		"classmethod":    classMethodType,
		"len": wrap("len", func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple, orig starlark.Value) (starlark.Value, error) {
			if in := oneInstance(args, kwargs); in != nil {
				f := in.class.special("__len__")
				if f == nil {
					if in.base != nil {
						return callOrig(thread, orig, starlark.Tuple{in.base}, nil)
					}
					return nil, errorf("TypeError", "object of type '%s' has no len()", in.class.name)
				}
				n, err := in.length(thread, f)
				return starlark.MakeInt(n), err
			}
			return callOrig(thread, orig, args, kwargs)
		}),
		"abs": wrap("abs", func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple, orig starlark.Value) (starlark.Value, error) {
			if in := oneInstance(args, kwargs); in != nil {
				if f := in.class.special("__abs__"); f != nil {
					return in.callSpecial(thread, f)
				}
				if in.base != nil {
					return callOrig(thread, orig, starlark.Tuple{in.base}, nil)
				}
				return nil, errorf("TypeError", "bad operand type for abs(): '%s'", in.class.name)
			}
			return callOrig(thread, orig, args, kwargs)
		}),
		"round": wrap("round", func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple, orig starlark.Value) (starlark.Value, error) {
			if len(args) >= 1 {
				if in, ok := args[0].(*Instance); ok {
					if f := in.class.special("__round__"); f != nil {
						return in.callSpecial(thread, f, args[1:]...)
					}
					if in.base != nil {
						return callOrig(thread, orig, append(starlark.Tuple{in.base}, args[1:]...), kwargs)
					}
					return nil, errorf("TypeError", "type %s doesn't define __round__ method", in.class.name)
				}
			}
			return callOrig(thread, orig, args, kwargs)
		}),
		"iter": wrap("iter", func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple, orig starlark.Value) (starlark.Value, error) {
			if in := oneInstance(args, kwargs); in != nil {
				it, err := in.iter(thread)
				if err != nil {
					return nil, err
				}
				if it == nil {
					return nil, errorf("TypeError", "'%s' object is not iterable", in.class.name)
				}
				if it == in.base {
					return callOrig(thread, orig, starlark.Tuple{in.base}, nil)
				}
				return it, nil
			}
			return callOrig(thread, orig, args, kwargs)
		}),
		"reversed": wrap("reversed", func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple, orig starlark.Value) (starlark.Value, error) {
			if in := oneInstance(args, kwargs); in != nil {
				if f := in.class.special("__reversed__"); f != nil {
					v, err := in.callSpecial(thread, f)
					if it, ok := v.(*Instance); ok && err == nil && it.class.special("__next__") != nil {
						return it.asIterator(thread), nil
					}
					return v, err
				}
				if in.class.special("__getitem__") != nil && in.class.special("__len__") != nil {
					// The sequence protocol, from the last index down.
					n, err := in.length(thread, in.class.special("__len__"))
					if err != nil {
						return nil, err
					}
					get := in.class.special("__getitem__")
					return pyrt.NewIterator(thread, "reversed", func(thread *starlark.Thread) (starlark.Value, bool, error) {
						if n <= 0 {
							return nil, false, nil
						}
						n--
						v, err := in.callSpecial(thread, get, starlark.MakeInt(n))
						return v, err == nil, err
					}, in), nil
				}
				if in.base != nil {
					return callOrig(thread, orig, starlark.Tuple{in.base}, nil)
				}
				return nil, errorf("TypeError", "'%s' object is not reversible", in.class.name)
			}
			return callOrig(thread, orig, args, kwargs)
		}),
		"next": wrap("next", func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple, orig starlark.Value) (starlark.Value, error) {
			if len(args) >= 1 && len(kwargs) == 0 {
				if in, ok := args[0].(*Instance); ok {
					v, err := in.next(thread)
					if err != nil && len(args) == 2 && isClass(err, "StopIteration") {
						return args[1], nil
					}
					return v, err
				}
			}
			return callOrig(thread, orig, args, kwargs)
		}),
		"hash": wrap("hash", func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple, orig starlark.Value) (starlark.Value, error) {
			if in := oneInstance(args, kwargs); in != nil {
				h, err := in.hash(thread)
				return h, err
			}
			return callOrig(thread, orig, args, kwargs)
		}),
		"callable": wrap("callable", func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple, orig starlark.Value) (starlark.Value, error) {
			if in := oneInstance(args, kwargs); in != nil {
				return starlark.Bool(in.callable()), nil
			}
			return callOrig(thread, orig, args, kwargs)
		}),
		"vars": interp.NewBuiltin("vars", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var x starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
				return nil, errorf("TypeError", "vars() takes exactly one argument here: vars() of the current scope is not supported")
			}
			switch v := x.(type) {
			case *Instance:
				return v.dictValue(), nil
			case *Class:
				return v.dict.toDict(), nil
			case interface{ VarsDict() *starlark.Dict }: // types.SimpleNamespace
				return v.VarsDict(), nil
			case *starlarkstruct.Module:
				dd := starlark.NewDict(len(v.Members))
				for k, m := range v.Members {
					_ = dd.SetKey(starlark.String(k), m)
				}
				return dd, nil
			}
			return nil, errorf("TypeError", "vars() argument must have __dict__ attribute")
		}),
		"setattr": interp.NewBuiltin("setattr", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 3 || len(kwargs) > 0 {
				return nil, errorf("TypeError", "setattr expected 3 arguments, got %d", len(args))
			}
			name, ok := interp.AsText(args[1])
			if !ok {
				return nil, errorf("TypeError", "attribute name must be string, not '%s'", typeName(args[1]))
			}
			f, ok := args[0].(starlark.HasSetField)
			if !ok {
				return nil, errorf("AttributeError", "'%s' object has no attribute '%s'", typeName(args[0]), name)
			}
			return starlark.None, f.SetField(name, args[2])
		}),
		"delattr": interp.NewBuiltin("delattr", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 2 || len(kwargs) > 0 {
				return nil, errorf("TypeError", "delattr expected 2 arguments, got %d", len(args))
			}
			name, ok := interp.AsText(args[1])
			if !ok {
				return nil, errorf("TypeError", "attribute name must be string, not '%s'", typeName(args[1]))
			}
			if d, ok := args[0].(pyrt.AttrDeleter); ok {
				return starlark.None, d.DelAttr(thread, name)
			}
			return nil, errorf("AttributeError", "'%s' object has no attribute '%s'", typeName(args[0]), name)
		}),
		"id": wrap("id", func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple, orig starlark.Value) (starlark.Value, error) {
			if len(args) == 1 {
				if p := identity(args[0]); p != 0 {
					return starlark.MakeUint64(uint64(p)), nil
				}
			}
			return callOrig(thread, orig, args, kwargs)
		}),
	}
	if obj != nil {
		o := &ObjectType{typ: obj, methods: map[string]starlark.Value{}}
		for _, name := range []string{"__setattr__", "__delattr__", "__getattribute__", "__repr__", "__str__", "__eq__", "__ne__", "__hash__", "__format__", "__init__", "__new__", "__init_subclass__"} {
			o.methods[name] = o.method(name)
		}
		d["object"] = o
	}
	return d
}

// superBuiltin is super(C, obj); super() without arguments works only
// where the front end sees the class (inside a method), which passes it.
func superBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, errorf("RuntimeError", "super(): no arguments")
	}
	c, ok := args[0].(*Class)
	if !ok {
		return nil, errorf("TypeError", "super() argument 1 must be a type, not %s", typeName(args[0]))
	}
	if len(args) < 2 {
		return nil, errorf("RuntimeError", "super() with one argument is not supported: write super(C, self)")
	}
	return newSuper(c, args[1])
}

func newSuper(c *Class, obj starlark.Value) (starlark.Value, error) {
	switch o := obj.(type) {
	case *Instance:
		if o.class.isSubclassOf(c) {
			return &superObject{start: c, obj: obj}, nil
		}
	case *Class:
		if o.isSubclassOf(c) {
			return &superObject{start: c, obj: obj}, nil
		}
	}
	return nil, errorf("TypeError", "super(type, obj): obj must be an instance or subtype of type")
}

// zeroArgSuper is __ot_super(cell, first): super() in a method, with the
// class of the class statement around it and the method's first argument.
func zeroArgSuper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	cell, _ := args[0].(*classCell)
	if cell == nil || cell.cls == nil {
		return nil, errorf("RuntimeError", "super(): __class__ cell not found")
	}
	if len(args) < 2 || args[1] == Unbound {
		return nil, errorf("RuntimeError", "super(): no arguments")
	}
	return newSuper(cell.cls, args[1])
}

// propertyBuiltin is property(fget=None, fset=None, fdel=None, doc=None).
func propertyBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fget, fset, fdel, doc starlark.Value = starlark.None, starlark.None, starlark.None, starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fget?", &fget, "fset?", &fset, "fdel?", &fdel, "doc?", &doc); err != nil {
		return nil, err
	}
	p := &Property{}
	if fget != starlark.None {
		p.fget = fget
	}
	if fset != starlark.None {
		p.fset = fset
	}
	if fdel != starlark.None {
		p.fdel = fdel
	}
	if doc != starlark.None {
		p.doc = doc
	}
	return p, nil
}

// ObjectType is the builtin class object, as programs name it: a base of
// every class, and the holder of the methods every instance inherits
// (object.__setattr__(self, name, value) in a frozen dataclass's
// __post_init__).
type ObjectType struct {
	typ *pyrt.TypeObj
	// methods are object's methods, made once: object.__hash__ is
	// object.__hash__.
	methods map[string]starlark.Value
}

var (
	_ starlark.Callable = (*ObjectType)(nil)
	_ starlark.HasAttrs = (*ObjectType)(nil)
)

func (o *ObjectType) String() string        { return o.typ.String() }
func (o *ObjectType) Type() string          { return "type" }
func (o *ObjectType) Freeze()               {}
func (o *ObjectType) Truth() starlark.Bool  { return true }
func (o *ObjectType) Hash() (uint32, error) { return o.typ.Hash() }
func (o *ObjectType) Name() string          { return "object" }

// TypeObj is the runtime's class object.
func (o *ObjectType) TypeObj() *pyrt.TypeObj { return o.typ }

// HasInstance: everything is an object.
func (o *ObjectType) HasInstance(starlark.Value) bool { return true }

func (o *ObjectType) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return o.typ.CallInternal(thread, args, kwargs)
}

func (o *ObjectType) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__bases__":
		return starlark.Tuple{}, nil
	case "__mro__":
		return starlark.Tuple{o}, nil
	case "__doc__":
		return starlark.String("The base class of the class hierarchy."), nil
	}
	if m, ok := o.methods[name]; ok {
		return m, nil
	}
	return o.typ.Attr(name)
}

// method is object's method name, taking the instance first.
func (o *ObjectType) method(name string) starlark.Value {
	return interp.NewBuiltin("object."+name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return nil, errorf("TypeError", "descriptor '%s' of 'object' object needs an argument", name)
		}
		switch name {
		case "__init__", "__init_subclass__":
			return starlark.None, nil
		case "__new__":
			c, ok := args[0].(*Class)
			if !ok {
				return nil, errorf("TypeError", "object.__new__(X): X is not a type object (%s)", typeName(args[0]))
			}
			return c.newInstance(thread, nil, nil)
		}
		in, ok := args[0].(*Instance)
		if !ok {
			return nil, errorf("TypeError", "descriptor '%s' requires a 'object' object but received a '%s'", name, typeName(args[0]))
		}
		m, _ := objectMethod(in, name)
		return starlark.Call(thread, m, args[1:], kwargs)
	})
}

func (o *ObjectType) AttrNames() []string { return o.typ.AttrNames() }
