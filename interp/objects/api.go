package objects

import (
	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// What the modules written in Go (dataclasses, enum, functools) use to
// read and build classes: they work on the program's classes as
// CPython's do, through the namespace, and give classes methods written
// in Go.

// QualName is the class's __qualname__.
func (c *Class) QualName() string { return c.qualname }

// Names are the class's own attribute names, in definition order.
func (c *Class) Names() []string { return append([]string(nil), c.dict.keys...) }

// Own is the class's own attribute name (not an inherited one).
func (c *Class) Own(name string) (starlark.Value, bool) { return c.dict.get(name) }

// Lookup is name found along the MRO, in the program's classes and the
// Go bases that give their subclasses attributes (ClassAttrs); unbound.
func (c *Class) Lookup(name string) (starlark.Value, bool) {
	l := c.lookup(name)
	return l.v, l.found
}

// Set gives the class an attribute, as C.name = v does, without asking
// the class's Meta (MetaAttrs): how a module puts an Enum's members in.
func (c *Class) Set(name string, v starlark.Value) {
	c.dict.set(name, v)
	c.world.epoch++
	if name == "__slots__" {
		_ = c.checkSlots(false)
	}
}

// Delete removes the class's own attribute name; false when it has none.
func (c *Class) Delete(name string) bool {
	if !c.dict.del(name) {
		return false
	}
	c.world.epoch++
	return true
}

// Annotations is the class's own __annotations__ (name → annotation, in
// order); nil when it has none. A value is the annotated class (int),
// a str, or an *Annotation.
func (c *Class) Annotations() *starlark.Dict {
	if d, ok := c.dict.get("__annotations__"); ok {
		if d, ok := d.(*starlark.Dict); ok {
			return d
		}
	}
	return nil
}

// IsSubclass reports whether c derives from base, a program's class.
func (c *Class) IsSubclass(base *Class) bool { return c.isSubclassOf(base) }

// Meta is the class's metaclass behaviour, nil for a plain class.
func (c *Class) Meta() Meta { return c.meta }

// MetaData is the state a Meta keeps for the class (an Enum's members).
func (c *Class) MetaData() any { return c.metaData }

// SetMetaData sets the state a Meta keeps for the class.
func (c *Class) SetMetaData(v any) { c.metaData = v }

// NewInstance is object.__new__(c): an instance without attributes
// (__init__ is not called).
func (c *Class) NewInstance(thread *starlark.Thread) (*Instance, error) {
	return c.newInstance(thread, nil, nil)
}

// SetAttr is object.__setattr__(in, name, v): the instance's own
// attribute, whatever __setattr__ the class defines (a frozen
// dataclass's __init__ sets its fields so).
func (in *Instance) SetAttr(thread *starlark.Thread, name string, v starlark.Value) error {
	return in.setAttr(thread, name, v)
}

// Own is the instance's own attribute name (in its __dict__).
func (in *Instance) Own(name string) (starlark.Value, bool) { return in.own(name) }

// Names are the instance's own attribute names, in the order first set.
func (in *Instance) Names() []string {
	if in.dict == nil {
		var out []string
		for i := range in.attrs {
			out = append(out, in.attrs[i].name())
		}
		return out
	}
	var out []string
	for _, k := range in.dict.Keys() {
		if s, ok := interp.AsText(k); ok {
			out = append(out, s)
		}
	}
	return out
}

// A Method is a function written in Go that a class holds: read through
// an instance it binds, as a def does.
type Method struct {
	name string
	fn   func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)
	// borrows: fn keeps nothing of args after it returns, so a special
	// method call from Go may lend it a reused tuple (world.callSelf).
	borrows bool
}

// NewMethod makes a method called name from fn, which gets the instance
// first.
func NewMethod(name string, fn func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) *Method {
	return &Method{name: name, fn: fn}
}

// NewBorrowingMethod is NewMethod for an fn that keeps neither args nor
// any part of it after it returns: called as a special method from Go
// (a dataclass's __eq__ by sorted or ==), it is lent an argument tuple
// that the next such call reuses, instead of one allocated per call.
func NewBorrowingMethod(name string, fn func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) *Method {
	return &Method{name: name, fn: fn, borrows: true}
}

var (
	_ starlark.Callable = (*Method)(nil)
	_ descriptorGetter  = (*Method)(nil)
)

func (m *Method) Name() string          { return m.name }
func (m *Method) String() string        { return "<function " + m.name + ">" }
func (m *Method) Type() string          { return "function" }
func (m *Method) Freeze()               {}
func (m *Method) Truth() starlark.Bool  { return true }
func (m *Method) Hash() (uint32, error) { return identityHashOf(m), nil }

// CallInternal calls the method with the instance as the first argument.
func (m *Method) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, errorf("TypeError", "%s() missing 1 required positional argument: 'self'", m.name)
	}
	return m.fn(thread, args[0], args[1:], kwargs)
}

// DescriptorGet binds the method to obj.
func (m *Method) DescriptorGet(_ *starlark.Thread, obj, _ starlark.Value) (starlark.Value, error) {
	if obj == starlark.None {
		return m, nil
	}
	return pyrt.NewBoundMethod(m, obj), nil
}

// MakeClass is type(name, bases, namespace) with the namespace in order:
// a class made by a module (make_dataclass, an Enum's functional form).
func MakeClass(thread *starlark.Thread, name string, bases starlark.Tuple, names []string, values []starlark.Value) (*Class, error) {
	ns := newNamespace(len(names) + 2)
	ns.set("__module__", starlark.String("__main__"))
	ns.set("__qualname__", starlark.String(name))
	for i, n := range names {
		ns.set(n, values[i])
	}
	return makeClass(thread, name, name, bases, ns, nil)
}

// A Meta is what a metaclass is to CPython, for the base classes of
// modules written in Go (enum.Enum): a base that implements Meta gives
// the classes deriving from it behaviour of their own as classes: Color
// is iterable, Color(1) finds a member. The program itself cannot write
// metaclasses.
type Meta interface {
	starlark.Value
	// InitClass is called once the class is made, before
	// __init_subclass__: it may turn attributes into members.
	InitClass(thread *starlark.Thread, c *Class) error
	// CallClass is C(args); handled false makes an instance as usual.
	CallClass(thread *starlark.Thread, c *Class, args starlark.Tuple, kwargs []starlark.Tuple) (v starlark.Value, handled bool, err error)
	// ClassIterable is what iterating over the class walks; nil when
	// the class is not iterable.
	ClassIterable(c *Class) starlark.Iterable
	// ClassItem is C[k]; handled false when the class is not
	// subscriptable that way.
	ClassItem(thread *starlark.Thread, c *Class, k starlark.Value) (v starlark.Value, handled bool, err error)
	// ClassRepr is repr(C); "" for <class '…'>.
	ClassRepr(c *Class) string
}

// MetaAttrs is a Meta that guards the attributes of its classes: an
// Enum's members cannot be reassigned or deleted. A nil error lets C.name
// = v or del C.name go ahead.
type MetaAttrs interface {
	SetClassAttr(c *Class, name string, v starlark.Value) error
	DelClassAttr(c *Class, name string) error
}

// A GoBase is a Go base class with bases of its own: enum.IntEnum
// derives from int and enum.Enum. BaseMRO is its MRO after itself,
// object excluded; a builtin class in it (int) gives the instances of
// the classes deriving from it a value of that class (Builtin).
type GoBase interface {
	starlark.Value
	BaseMRO() []starlark.Value
}

// SetBuiltin sets the value of the builtin class an instance holds
// (an IntEnum member's int), for modules making instances with
// NewInstance.
func (in *Instance) SetBuiltin(v starlark.Value) { in.base = v }

// ClassAttrs is a Go base class (enum.Enum) that gives the classes
// deriving from it attributes: methods and properties of their
// instances, found after the program's classes in the MRO.
type ClassAttrs interface {
	starlark.Value
	ClassAttr(name string) (starlark.Value, bool)
}

// Instances is the classes' view a module needs of a value: the
// instance and its class, nil when v is none.
func AsInstance(v starlark.Value) *Instance {
	in, _ := v.(*Instance)
	return in
}

// SetExport gives the class (and the classes deriving from it) how its
// instances cross to JSON — a tool's arguments, a run's result over MCP:
// a dataclass's as its asdict. Without one, an instance crosses as its
// repr.
func (c *Class) SetExport(fn func(thread *starlark.Thread, in *Instance) (starlark.Value, error)) {
	c.export = fn
}

// StarlarkValue is what the instance converts as (interp.StarlarkValuer):
// its class's export (a dataclass's fields as a dict), else its repr.
func (in *Instance) StarlarkValue() starlark.Value {
	thread := in.thread()
	for _, m := range in.class.mro {
		if k, ok := m.(*Class); ok && k.export != nil {
			if v, err := k.export(thread, in); err == nil {
				return v
			}
			break
		}
	}
	s, err := interp.Repr(interp.BudgetOf(thread), in)
	if err != nil {
		return starlark.String(in.defaultRepr())
	}
	return starlark.String(s)
}

// ShownByRepr: a run whose result is an instance shows its repr.
func (in *Instance) ShownByRepr() {}

// StrValue is the str an instance of a str subclass holds (interp.AsText
// takes it for a str).
func (in *Instance) StrValue() (string, bool) {
	if in.base == nil {
		return "", false
	}
	return interp.AsText(in.base)
}

// LookupSpecial is the class's special method name bound to in, as
// CPython finds __enter__ and __exit__: on the class, not the instance.
func (in *Instance) LookupSpecial(name string) (starlark.Value, bool) {
	l := in.class.lookup(name)
	if !l.found || l.v == starlark.None {
		if in.base != nil {
			if v, err := pyrt.GetAttr(in.thread(), in.base, name); err == nil {
				return v, true
			}
		}
		return nil, false
	}
	v, err := bindToInstance(in.thread(), l.v, in, l.owner)
	return v, err == nil
}

// PlainAttr is in.name when reading it has no effect but the reading:
// an attribute of the instance's own that no property or data
// descriptor of its class stands in front of. ok is false otherwise
// (read it with python.GetAttr then). Go code that reads the fields of
// many instances (a dataclass's generated __eq__ and __lt__) can then
// read only the fields it needs, in any order, and make no tuple.
func (in *Instance) PlainAttr(name string) (starlark.Value, bool) {
	if name == "__class__" || name == "__dict__" {
		return nil, false
	}
	l := in.class.lookup(name)
	if l.found {
		switch d := l.v.(type) {
		case *Property:
			return nil, false
		case *Instance:
			if d.class.special("__set__") != nil {
				return nil, false
			}
		}
	}
	return in.getOwn(l.key)
}
