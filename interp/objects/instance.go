package objects

import (
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// An Instance is an instance of a program's class.
type Instance struct {
	class *Class
	// dict is __dict__, nil until the program asks for it or the small
	// table attrs no longer serves (attrs.go): a dict the program may
	// hold and change (vars(obj), obj.__dict__). Once made, it holds all
	// the instance's attributes and attrs is nil.
	dict *starlark.Dict
	// attrs are the instance's attributes while dict is nil.
	attrs []attr
	// base is the value of the builtin class the class derives from (the
	// dict of class Registry(dict)); nil for a plain class.
	base starlark.Value
	// exc is the exception state of an exception class's instance.
	exc *pyrt.ExcValue
	// lastFn and lastMethod are the method last read through the
	// instance, bound: a loop calling obj.m() binds it once.
	lastFn     *starlark.Function
	lastMethod *pyrt.BoundMethod
}

var (
	_ starlark.HasAttrs    = (*Instance)(nil)
	_ starlark.HasSetField = (*Instance)(nil)
	_ starlark.Comparable  = (*Instance)(nil)
	_ starlark.HasBinary   = (*Instance)(nil)
	_ starlark.HasUnary    = (*Instance)(nil)
	_ starlark.Iterable    = (*Instance)(nil)
	_ starlark.Sequence    = (*Instance)(nil)
	_ starlark.Mapping     = (*Instance)(nil)
	_ starlark.HasSetKey   = (*Instance)(nil)
	_ starlark.Callable    = (*Instance)(nil)
	_ interp.TextValue     = (*Instance)(nil)
	_ interp.Holder        = (*Instance)(nil)
	_ pyrt.RichComparer    = (*Instance)(nil)
	_ pyrt.Raisable        = (*Instance)(nil)
	_ pyrt.SubclassTester  = (*Class)(nil)
)

// Class is the instance's class.
func (in *Instance) Class() *Class { return in.class }

// PyClass is type(x).
func (in *Instance) PyClass() starlark.Value { return in.class }

// Exception is the instance's exception state; nil when its class is no
// exception class.
func (in *Instance) Exception() *pyrt.ExcValue { return in.exc }

// Builtin is the value of the builtin class the instance's class derives
// from; nil for a plain class.
func (in *Instance) Builtin() starlark.Value { return in.base }

// BuiltinBase names the builtin class the instance's class derives from
// (isinstance(x, dict) holds for an instance of class R(dict)).
func (in *Instance) BuiltinBase() string {
	if in.base == nil {
		return ""
	}
	if s, ok := in.base.(pyrt.Subclass); ok {
		return s.BuiltinBase()
	}
	return typeName(in.base)
}

// Held visits the instance's attributes and values, for the memory meter.
func (in *Instance) Held(visit func(starlark.Value)) {
	if in.dict != nil {
		visit(in.dict)
	}
	for _, a := range in.attrs {
		visit(a.key)
		visit(a.v)
	}
	if in.base != nil {
		visit(in.base)
	}
	if in.exc != nil {
		visit(in.exc)
	}
}

// Type is the name of the instance's class: messages of the interpreter
// quote it ("'Point' object is not iterable").
func (in *Instance) Type() string { return in.class.name }

func (in *Instance) Freeze() {}

func (in *Instance) thread() *starlark.Thread { return in.class.world.thread() }

// callSpecial calls the special method fn of the instance's class with
// the instance first.
func (in *Instance) callSpecial(thread *starlark.Thread, fn starlark.Value, args ...starlark.Value) (starlark.Value, error) {
	return in.class.world.callSelf(thread, fn, in, args...)
}

// fail ends the run with err where go.starlark.net's interface has no
// way to report one (Truth, an iterator's Next): the interpreter stops at
// its next step with the error's text.
func (in *Instance) fail(err error) {
	if t := in.thread(); t != nil {
		t.Cancel(err.Error())
	}
}

// ---- attributes ----

// Attr is in.name, by CPython's rules (object.__getattribute__): a data
// descriptor of the class (a property) first, then the instance's own
// attributes, then the class's (functions bind to the instance), then
// the builtin value's or the exception's, then __getattr__.
func (in *Instance) Attr(name string) (starlark.Value, error) {
	thread := in.thread()
	switch name {
	case "__class__":
		return in.class, nil
	case "__dict__":
		if in.class.slots != nil {
			return nil, in.noAttr(name)
		}
		return in.dictValue(), nil
	}
	l := in.class.lookup(name)
	if l.found {
		if p, ok := l.v.(*Property); ok {
			return p.get(thread, in)
		}
		if d, ok := l.v.(*Instance); ok && d.class.special("__set__") != nil && d.class.special("__get__") != nil {
			return d.callSpecial(thread, d.class.special("__get__"), in, in.class)
		}
	}
	if v, found := in.getOwn(l.key); found {
		return v, nil
	}
	if l.found {
		if f, ok := l.v.(*starlark.Function); ok && l.qual != "" {
			if in.lastFn == f {
				return in.lastMethod, nil // obj.m() in a loop: one bound method
			}
			m := pyrt.NewMethodOf(f, in, l.qual)
			in.lastFn, in.lastMethod = f, m
			return m, nil
		}
		return bindToInstance(thread, l.v, in, l.owner)
	}
	if in.base != nil {
		if v, err := pyrt.GetAttr(thread, in.base, name); err == nil {
			switch in.base.(type) {
			case *starlark.List, *starlark.Dict, *starlark.Set:
				// list.copy() is a list, whatever the subclass.
			default:
				if name == "copy" || name == "_replace" {
					return in.keepClass(v), nil
				}
			}
			return v, nil
		}
	}
	if in.exc != nil {
		if v, err := in.exc.Attr(name); err != nil || v != nil {
			return v, err
		}
	}
	if name == "__doc__" || name == "__module__" || name == "__qualname__" && false {
		return in.class.Attr(name)
	}
	if ga := in.class.special("__getattr__"); ga != nil {
		return in.callSpecial(thread, ga, starlark.String(name))
	}
	return nil, in.noAttr(name)
}

func (in *Instance) noAttr(name string) error {
	return errorf("AttributeError", "'%s' object has no attribute '%s'", in.class.name, name)
}

func (in *Instance) AttrNames() []string {
	var names []string
	names = append(names, in.Names()...)
	return append(names, in.class.AttrNames()...)
}

// SetField is in.name = v: a property's setter, a __setattr__ the class
// defines, else the instance's own attribute.
func (in *Instance) SetField(name string, v starlark.Value) error {
	thread := in.thread()
	if sa := in.class.special("__setattr__"); sa != nil {
		_, err := in.callSpecial(thread, sa, starlark.String(name), v)
		return err
	}
	return in.setAttr(thread, name, v)
}

// setAttr is object.__setattr__(in, name, v).
func (in *Instance) setAttr(thread *starlark.Thread, name string, v starlark.Value) error {
	l := in.class.lookup(name)
	if l.found {
		if p, ok := l.v.(*Property); ok {
			return p.set(thread, in, v)
		}
		if d, ok := l.v.(*Instance); ok {
			if set := d.class.special("__set__"); set != nil {
				_, err := d.callSpecial(thread, set, in, v)
				return err
			}
		}
	}
	if in.class.slots != nil && !in.class.slots[name] && name != "__class__" {
		return in.noAttr(name)
	}
	if slices.Contains(in.class.ntFields, name) {
		// A NamedTuple's fields are read-only properties.
		return errorf("AttributeError", "can't set attribute")
	}
	if name == "__class__" {
		c, ok := v.(*Class)
		if !ok {
			return errorf("TypeError", "__class__ must be set to a class, not '%s' object", typeName(v))
		}
		in.class = c
		return nil
	}
	return in.setOwn(l.key, v)
}

// delAttr is del in.name.
func (in *Instance) delAttr(thread *starlark.Thread, name string) error {
	if da := in.class.special("__delattr__"); da != nil {
		_, err := in.callSpecial(thread, da, starlark.String(name))
		return err
	}
	return in.objectDelAttr(thread, name)
}

func (in *Instance) objectDelAttr(thread *starlark.Thread, name string) error {
	if l := in.class.lookup(name); l.found {
		if p, ok := l.v.(*Property); ok {
			return p.del(thread, in)
		}
	}
	if !in.hasOwnAttrs() {
		return in.noAttr(name)
	}
	if _, found, err := in.dictValue().Delete(starlark.String(name)); err != nil || !found {
		return in.noAttr(name)
	}
	return nil
}

// ---- text ----

func (in *Instance) String() string {
	s, err := interp.Repr(interp.BudgetOf(in.thread()), in)
	if err != nil {
		return in.defaultRepr()
	}
	return s
}

// defaultRepr is object.__repr__: <__main__.C object at 0x…>.
func (in *Instance) defaultRepr() string {
	return fmt.Sprintf("<__main__.%s object at 0x%x>", in.class.qualname, identity(in))
}

// WriteText writes str(in) (str true) or repr(in): __str__, falling back
// to __repr__, falling back to the builtin value's or the exception's
// text, or object's.
func (in *Instance) WriteText(w *interp.TextWriter, str bool, depth int) error {
	thread := in.thread()
	if str {
		if f := in.class.special("__str__"); f != nil {
			s, err := in.textOf(thread, f, "__str__")
			if err != nil {
				return err
			}
			return w.WriteString(s)
		}
	}
	if f := in.class.special("__repr__"); f != nil {
		s, err := in.textOf(thread, f, "__repr__")
		if err != nil {
			return err
		}
		return w.WriteString(s)
	}
	switch {
	case in.exc != nil:
		if str {
			return w.WriteString(in.exc.Message())
		}
		return in.exc.WriteText(w, false, depth)
	case in.base != nil:
		if str {
			s, err := interp.Str(w.Budget, in.base)
			if err != nil {
				return err
			}
			if _, text := interp.AsText(in.base); !text {
				if t := typeName(in.base); strings.HasPrefix(s, t+"(") {
					s = in.class.name + s[len(t):]
				}
			}
			return w.WriteString(s)
		}
		// A Counter's, an OrderedDict's, a namedtuple's repr names the
		// class, as CPython's take self.__class__.__name__: the
		// subclass's.
		s, err := interp.Repr(w.Budget, in.base)
		if err != nil {
			return err
		}
		if t := typeName(in.base); strings.HasPrefix(s, t+"(") {
			s = in.class.name + s[len(t):]
		}
		return w.WriteString(s)
	}
	return w.WriteString(in.defaultRepr())
}

// textOf calls __str__ or __repr__, which must return a str.
func (in *Instance) textOf(thread *starlark.Thread, f starlark.Value, method string) (string, error) {
	v, err := in.callSpecial(thread, f)
	if err != nil {
		return "", err
	}
	s, ok := interp.AsText(v)
	if !ok {
		return "", errorf("TypeError", "%s returned non-string (type %s)", method, typeName(v))
	}
	return s, nil
}

// ---- truth, hash, length ----

// Truth is bool(in): __bool__, else __len__ != 0, else the builtin
// value's truth, else True.
func (in *Instance) Truth() starlark.Bool {
	b, err := in.truth(in.thread())
	if err != nil {
		in.fail(err)
		return false
	}
	return b
}

func (in *Instance) truth(thread *starlark.Thread) (starlark.Bool, error) {
	if f := in.class.special("__bool__"); f != nil {
		v, err := in.callSpecial(thread, f)
		if err != nil {
			return false, err
		}
		b, ok := v.(starlark.Bool)
		if !ok {
			return false, errorf("TypeError", "__bool__ should return bool, returned %s", typeName(v))
		}
		return b, nil
	}
	if f := in.class.special("__len__"); f != nil {
		n, err := in.length(thread, f)
		return n != 0, err
	}
	if in.base != nil {
		return in.base.Truth(), nil
	}
	return true, nil
}

// Hash is hash(in): __hash__, else unhashable when the class defines
// __eq__ without __hash__ (or sets __hash__ = None), else the builtin
// value's hash, else by identity.
func (in *Instance) Hash() (uint32, error) {
	v, err := in.hash(in.thread())
	if err != nil {
		return 0, err
	}
	if i, ok := v.Int64(); ok {
		return uint32(uint64(i) ^ uint64(i)>>32), nil
	}
	return v.Hash()
}

// hash is hash(in) as a Python int: __hash__ (None in the namespace:
// unhashable, as a class defining __eq__ alone is), else the builtin
// value's, else by identity.
func (in *Instance) hash(thread *starlark.Thread) (starlark.Int, error) {
	l := in.class.lookup("__hash__")
	if l.found {
		if l.v == starlark.None {
			return starlark.Int{}, in.unhashable()
		}
		v, err := in.callSpecial(thread, l.v)
		if err != nil {
			return starlark.Int{}, err
		}
		switch x := v.(type) {
		case starlark.Int:
			return x, nil
		case starlark.Bool:
			if x {
				return starlark.MakeInt(1), nil
			}
			return starlark.MakeInt(0), nil
		}
		return starlark.Int{}, errorf("TypeError", "__hash__ method should return an integer")
	}
	if in.base != nil {
		h, err := in.base.Hash()
		return starlark.MakeUint64(uint64(h)), err
	}
	return starlark.MakeUint64(uint64(identityHash(in))), nil
}

func (in *Instance) unhashable() error {
	return errorf("TypeError", "unhashable type: '%s'", in.class.name)
}

// Len is len(in) for the interpreter (-1: no length). A failing __len__
// ends the run; len() itself reports the error (see lenBuiltin).
func (in *Instance) Len() int {
	f := in.class.special("__len__")
	if f == nil {
		if s, ok := in.base.(starlark.Sequence); ok {
			return s.Len()
		}
		return -1
	}
	n, err := in.length(in.thread(), f)
	if err != nil {
		in.fail(err)
		return 0
	}
	return n
}

// length calls __len__, which must return a non-negative int.
func (in *Instance) length(thread *starlark.Thread, f starlark.Value) (int, error) {
	v, err := in.callSpecial(thread, f)
	if err != nil {
		return 0, err
	}
	n, ok := v.(starlark.Int)
	if !ok {
		if b, isBool := v.(starlark.Bool); isBool {
			if b {
				return 1, nil
			}
			return 0, nil
		}
		return 0, errorf("TypeError", "'%s' object cannot be interpreted as an integer", typeName(v))
	}
	i, ok := n.Int64()
	if !ok || i > 1<<62 {
		return 0, errorf("OverflowError", "cannot fit 'int' into an index-sized integer")
	}
	if i < 0 {
		return 0, errorf("ValueError", "__len__() should return >= 0")
	}
	return int(i), nil
}

// ---- calls ----

func (in *Instance) Name() string { return in.class.name }

// CallInternal is in(args): __call__.
func (in *Instance) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	f := in.class.special("__call__")
	if f == nil {
		if c, ok := in.base.(starlark.Callable); ok {
			return starlark.Call(thread, c, args, kwargs)
		}
		return nil, errorf("TypeError", "'%s' object is not callable", in.class.name)
	}
	v, err := in.class.world.call(thread, f, append(starlark.Tuple{in}, args...), kwargs)
	in.class.qualify(err, "__call__", f)
	return v, err
}

// callable reports whether the instance can be called.
func (in *Instance) callable() bool {
	if in.class.special("__call__") != nil {
		return true
	}
	_, ok := in.base.(starlark.Callable)
	return ok
}

// DelAttr is del in.name.
func (in *Instance) DelAttr(thread *starlark.Thread, name string) error {
	return in.delAttr(thread, name)
}

// DelAttr is del C.name.
func (c *Class) DelAttr(_ *starlark.Thread, name string) error { return c.delAttr(name) }

// own is the instance's own attribute name.
func (in *Instance) own(name string) (starlark.Value, bool) {
	return in.getOwn(starlark.String(name))
}

// dictValue is __dict__, made on first need.
func (in *Instance) dictValue() *starlark.Dict {
	if in.dict == nil {
		in.dict = starlark.NewDict(max(len(in.attrs), 4))
		for _, a := range in.attrs {
			_ = in.dict.SetKey(a.key, a.v)
		}
		in.attrs = nil
	}
	return in.dict
}

// Convert is bool(in), int(in), float(in) or operator.index(in): the
// class's special method, else the builtin value's conversion.
func (in *Instance) Convert(thread *starlark.Thread, kind string) (starlark.Value, bool, error) {
	var names []string
	switch kind {
	case "bool":
		b, err := in.truth(thread)
		return b, true, err
	case "int":
		names = []string{"__int__", "__index__", "__trunc__"}
	case "float":
		names = []string{"__float__", "__index__"}
	case "index":
		names = []string{"__index__"}
	}
	for _, n := range names {
		if f := in.class.special(n); f != nil {
			v, err := in.callSpecial(thread, f)
			if err != nil {
				return nil, true, err
			}
			switch kind {
			case "int", "index":
				if _, ok := v.(starlark.Int); !ok {
					return nil, true, errorf("TypeError", "%s returned non-int (type %s)", n, typeName(v))
				}
			case "float":
				if _, ok := v.(starlark.Float); !ok && n == "__float__" {
					return nil, true, errorf("TypeError", "%s.__float__ returned non-float (type %s)", in.class.name, typeName(v))
				}
			}
			return v, true, nil
		}
	}
	if in.base != nil {
		return in.base, true, nil
	}
	return nil, false, nil
}

// keepClass wraps a method of the builtin value that makes a copy of it
// (Counter.copy, a namedtuple's _replace), so that the copy is an
// instance of the instance's class, as CPython's self.__class__(...)
// makes it.
func (in *Instance) keepClass(method starlark.Value) starlark.Value {
	fn, ok := method.(starlark.Callable)
	if !ok {
		return method
	}
	return starlark.NewBuiltin(fn.Name(), func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		v, err := starlark.Call(thread, fn, args, kwargs)
		if err != nil || v == nil || v.Type() != in.base.Type() {
			return v, err
		}
		out := &Instance{class: in.class, base: v}
		if in.attrs != nil {
			if err := interp.BudgetOf(thread).Alloc(int64(len(in.attrs))*32 + instanceSize); err != nil {
				return nil, err
			}
			out.attrs = append(make([]attr, 0, cap(in.attrs)), in.attrs...)
		}
		if in.dict != nil {
			if err := interp.BudgetOf(thread).Alloc(int64(in.dict.Len())*48 + instanceSize); err != nil {
				return nil, err
			}
			out.dict = starlark.NewDict(in.dict.Len())
			for _, kv := range in.dict.Items() {
				_ = out.dict.SetKey(kv[0], kv[1])
			}
		}
		return out, nil
	})
}
