package objects

import (
	"slices"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// A Class is a class a program defined (a class statement, or
// type(name, bases, namespace)).
type Class struct {
	name, qualname string
	bases          []starlark.Value // as written: *Class, *pyrt.TypeObj, *pyrt.ExcClass, other classes
	mro            []starlark.Value // C3 order, the class first
	dict           *namespace
	world          *world
	// attrHint is the most attributes an instance of the class has had
	// in its small table: the room a new instance's table starts with.
	attrHint int
	// exc is the exception class instances raise as, when the class
	// derives from an exception class; nil otherwise.
	exc *pyrt.ExcClass
	// builtin is the nearest base that is a class of the runtime other
	// than object (dict, list, a namedtuple class, collections.Counter):
	// instances hold a value of it. nil for a plain class.
	builtin starlark.Value
	// abstract are the names of the abstract methods the class leaves
	// unimplemented, sorted: instantiating it is a TypeError.
	abstract []string
	// lookups caches attribute lookups along the MRO; valid while
	// cacheEpoch is the world's epoch (any class's namespace changing
	// after its creation moves the epoch).
	lookups    map[string]lookup
	cacheEpoch uint64
	// abc marks a class deriving from abc.ABC (or with metaclass
	// ABCMeta): its abstract methods must be implemented.
	abc bool
	// typedDict marks class M(TypedDict): calling it makes a dict.
	typedDict bool
	// ntFields are the fields of class P(NamedTuple).
	ntFields []string
	// meta is the metaclass behaviour a Go base gives the class (an
	// Enum's); metaData its state for the class.
	meta     Meta
	metaData any
	// export is how instances cross to JSON (SetExport); nil: their repr.
	export func(thread *starlark.Thread, in *Instance) (starlark.Value, error)
	// generic marks a class deriving from typing.Generic[T] or Protocol:
	// C[int] is C.
	generic bool
	// slots are the attributes instances may have when every class of
	// the MRO declares __slots__; nil when they may have any.
	slots map[string]bool
}

type lookup struct {
	v     starlark.Value
	owner *Class
	found bool
	// key is the name as a dict key, boxed once: reading or setting an
	// instance's own attribute would otherwise box it at every access.
	key starlark.Value
	// qual is C.m for a def found in class C: what a bound method's
	// errors name it (made once, not at every obj.m()).
	qual string
}

var (
	_ starlark.Callable    = (*Class)(nil)
	_ starlark.HasAttrs    = (*Class)(nil)
	_ starlark.HasSetField = (*Class)(nil)
	_ starlark.Comparable  = (*Class)(nil)
	_ pyrt.Class           = (*Class)(nil)
	_ pyrt.ExceptionType   = (*Class)(nil)
)

func (c *Class) Name() string          { return c.name }
func (c *Class) Type() string          { return "type" }
func (c *Class) Freeze()               {}
func (c *Class) Truth() starlark.Bool  { return true }
func (c *Class) Hash() (uint32, error) { return identityHash(c), nil }
func (c *Class) String() string {
	if c.meta != nil {
		if r := c.meta.ClassRepr(c); r != "" {
			return r
		}
	}
	return "<class '__main__." + c.qualname + "'>"
}

// Iterate is iter(C): the members of an Enum class; nil for a class that
// is not iterable.
func (c *Class) Iterate() starlark.Iterator {
	if c.meta != nil {
		if it := c.meta.ClassIterable(c); it != nil {
			return it.Iterate()
		}
	}
	return nil
}

// Len is len(C) for an iterable class (an Enum's members); -1 otherwise.
func (c *Class) Len() int {
	if c.meta == nil {
		return -1
	}
	it := c.meta.ClassIterable(c)
	if it == nil {
		return -1
	}
	if s, ok := it.(starlark.Sequence); ok {
		return s.Len()
	}
	n := 0
	iter := it.Iterate()
	defer iter.Done()
	var v starlark.Value
	for iter.Next(&v) {
		n++
	}
	return n
}

// Get is C[k]: an Enum's member by name, or __class_getitem__ (Box[int]
// in an annotation).
func (c *Class) Get(k starlark.Value) (starlark.Value, bool, error) {
	thread := c.world.thread()
	if c.meta != nil {
		if v, handled, err := c.meta.ClassItem(thread, c, k); handled || err != nil {
			return v, true, err
		}
	}
	if l := c.lookup("__class_getitem__"); l.found {
		f := l.v
		if cm, ok := f.(*classMethod); ok {
			f = cm.fn
		}
		v, err := c.world.call(thread, f, starlark.Tuple{c, k}, nil)
		return v, true, err
	}
	if c.generic {
		return c, true, nil // Typed[int]: annotations only
	}
	return nil, true, errorf("TypeError", "type '%s' is not subscriptable", c.name)
}

// Contains is x in C, for an iterable class.
func (c *Class) Contains(thread *starlark.Thread, x starlark.Value) (bool, bool, error) {
	if c.meta == nil {
		return false, true, errorf("TypeError", "argument of type 'type' is not iterable")
	}
	it := c.meta.ClassIterable(c)
	if it == nil {
		return false, true, errorf("TypeError", "argument of type 'type' is not iterable")
	}
	iter := it.Iterate()
	defer iter.Done()
	var v starlark.Value
	for iter.Next(&v) {
		if v == x {
			return true, true, nil
		}
	}
	return false, true, nil
}

// CompareSameType: classes are equal when they are the same class.
func (c *Class) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	switch op {
	case syntax.EQL:
		return starlark.Value(c) == y, nil
	case syntax.NEQ:
		return starlark.Value(c) != y, nil
	}
	return false, pyrt.Errorf("TypeError", "'%s' not supported between instances of 'type' and 'type'", op)
}

// Held visits what the class holds, for the memory meter: its namespace
// and its order.
func (c *Class) Held(visit func(starlark.Value)) {
	for _, k := range c.dict.keys {
		visit(c.dict.vals[k])
	}
	for _, m := range c.mro[1:] {
		visit(m)
	}
}

// ExcClass is the exception class instances raise as; nil when the class
// is no exception.
func (c *Class) ExcClass() *pyrt.ExcClass { return c.exc }

// MRO is the class's method resolution order, the class first.
func (c *Class) MRO() []starlark.Value { return c.mro }

// HasInstance reports whether v is an instance of c or of a subclass.
func (c *Class) HasInstance(v starlark.Value) bool {
	in, ok := v.(*Instance)
	return ok && in.class.isSubclassOf(c)
}

// IsSubclassOf reports whether c derives from base: a class of the
// program, a builtin class or an exception class.
func (c *Class) IsSubclassOf(base starlark.Value) bool {
	for _, m := range c.mro {
		if m == base {
			return true
		}
		switch m := m.(type) {
		case *pyrt.ExcClass:
			if b, ok := base.(*pyrt.ExcClass); ok && m.IsSubclass(b) {
				return true
			}
		case *pyrt.TypeObj:
			if b, ok := base.(*pyrt.TypeObj); ok && b.Name() == m.Name() {
				return true
			}
		}
	}
	if b, ok := base.(*pyrt.TypeObj); ok && b.Name() == "object" {
		return true
	}
	if t, ok := c.builtin.(pyrt.SubclassTester); ok {
		return t.IsSubclassOf(base)
	}
	return false
}

func (c *Class) isSubclassOf(base *Class) bool {
	if c == base {
		return true
	}
	for _, m := range c.mro {
		if m == starlark.Value(base) {
			return true
		}
	}
	return false
}

// lookup finds name along the MRO, in the namespaces of the program's
// classes (the builtin classes' methods are found through the value an
// instance holds).
func (c *Class) lookup(name string) lookup {
	if c.cacheEpoch != c.world.epoch || c.lookups == nil {
		c.lookups = make(map[string]lookup, 8)
		c.cacheEpoch = c.world.epoch
	}
	if l, ok := c.lookups[name]; ok {
		return l
	}
	var l lookup
	for _, m := range c.mro {
		switch k := m.(type) {
		case *Class:
			if v, ok := k.dict.get(name); ok {
				l = lookup{v: v, owner: k, found: true}
			}
		case ClassAttrs:
			if v, ok := k.ClassAttr(name); ok {
				l = lookup{v: v, found: true}
			}
		}
		if l.found {
			break
		}
	}
	l.key = starlark.String(name)
	if f, ok := l.v.(*starlark.Function); ok && l.owner != nil {
		l.qual = l.owner.qualname + "." + f.Name()
	}
	if len(c.lookups) < 4096 {
		c.lookups[name] = l
	}
	return l
}

// special finds a special method the program's classes define; nil when
// none does (or it is set to None, as __hash__ = None).
func (c *Class) special(name string) starlark.Value {
	l := c.lookup(name)
	if !l.found || l.v == starlark.None {
		return nil
	}
	return l.v
}

func (c *Class) Attr(name string) (starlark.Value, error) {
	thread := c.world.thread()
	switch name {
	case "__name__":
		return starlark.String(c.name), nil
	case "__qualname__":
		return starlark.String(c.qualname), nil
	case "__module__":
		if v, ok := c.dict.get(name); ok {
			return v, nil
		}
		return starlark.String("__main__"), nil
	case "__doc__":
		if v, ok := c.dict.get(name); ok {
			return v, nil
		}
		return starlark.None, nil
	case "__mro__":
		return starlark.Tuple(slices.Clone(c.mro)), nil
	case "__bases__":
		return starlark.Tuple(slices.Clone(c.bases)), nil
	case "__base__":
		if len(c.bases) == 0 {
			return starlark.None, nil
		}
		return c.bases[0], nil
	case "__dict__":
		return c.dict.toDict(), nil
	case "__class__":
		if t, ok := interp.Predeclared(thread)["type"]; ok {
			return t, nil
		}
	case "__abstractmethods__":
		if !c.abc {
			break
		}
		names := make(starlark.Tuple, len(c.abstract))
		for i, a := range c.abstract {
			names[i] = starlark.String(a)
		}
		if fs, ok := interp.Predeclared(thread)["frozenset"].(starlark.Callable); ok {
			return starlark.Call(thread, fs, starlark.Tuple{names}, nil)
		}
		return starlark.NewSet(0), nil
	case "__annotations__":
		if v, ok := c.dict.get(name); ok {
			return v, nil
		}
		return starlark.NewDict(0), nil
	case "mro":
		if !c.dict.has("mro") {
			return starlark.NewBuiltin("mro", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
				return starlark.NewList(slices.Clone(c.mro)), nil
			}), nil
		}
	case "__subclasses__":
		return starlark.NewBuiltin("__subclasses__", func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if err := interp.BudgetOf(thread).Charge(uint64(len(c.world.classes))); err != nil {
				return nil, err
			}
			var out []starlark.Value
			for _, k := range c.world.classes {
				if slices.Contains(k.bases, starlark.Value(c)) {
					out = append(out, k)
				}
			}
			return starlark.NewList(out), nil
		}), nil
	}
	l := c.lookup(name)
	if l.found {
		return bindToClassOf(thread, l.v, c, l.owner)
	}
	// A builtin base's attribute: dict.fromkeys, an exception's args.
	for _, m := range c.mro[1:] {
		switch m := m.(type) {
		case *Class:
			continue
		case *pyrt.TypeObj:
			if m.Name() == "object" {
				continue // object's own, below
			}
		}
		if a, ok := m.(starlark.HasAttrs); ok {
			if v, err := a.Attr(name); err == nil && v != nil {
				return v, nil
			}
		}
	}
	// object's own (C.__hash__, C.__init__ of a class without one).
	if o, ok := interp.Predeclared(thread)["object"].(*ObjectType); ok && len(name) > 4 && name[:2] == "__" {
		if v, err := o.Attr(name); err == nil && v != nil {
			return v, nil
		}
	}
	return nil, pyrt.Errorf("AttributeError", "type object '%s' has no attribute '%s'", c.name, name)
}

func (c *Class) AttrNames() []string {
	seen := map[string]bool{}
	var names []string
	for _, m := range c.mro {
		if k, ok := m.(*Class); ok {
			for _, n := range k.dict.keys {
				if !seen[n] {
					seen[n] = true
					names = append(names, n)
				}
			}
		}
	}
	return names
}

// SetField is C.name = v: the class's namespace changes, and every
// cached lookup with it.
func (c *Class) SetField(name string, v starlark.Value) error {
	if m, ok := c.meta.(MetaAttrs); ok {
		if err := m.SetClassAttr(c, name, v); err != nil {
			return err
		}
	}
	if !c.dict.has(name) {
		if err := interp.BudgetOf(c.world.thread()).Alloc(int64(len(name)) + 48); err != nil {
			return err
		}
	}
	c.dict.set(name, v)
	c.world.epoch++
	if name == "__slots__" {
		return c.checkSlots(false) // dataclass(slots=True) sets them after
	}
	return nil
}

func (c *Class) delAttr(name string) error {
	if m, ok := c.meta.(MetaAttrs); ok {
		if err := m.DelClassAttr(c, name); err != nil {
			return err
		}
	}
	if !c.dict.del(name) {
		return pyrt.Errorf("AttributeError", "type object '%s' has no attribute '%s'", c.name, name)
	}
	c.world.epoch++
	return nil
}

// CallInternal makes an instance: C(args) runs __init__ on a new
// instance, as type.__call__ does.
func (c *Class) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if c.meta != nil {
		if v, handled, err := c.meta.CallClass(thread, c, args, kwargs); handled || err != nil {
			return v, err
		}
	}
	if c.typedDict {
		return starlark.Call(thread, interp.Predeclared(thread)["dict"], args, kwargs)
	}
	if len(c.abstract) > 0 {
		s := ""
		if len(c.abstract) > 1 {
			s = "s"
		}
		return nil, pyrt.Errorf("TypeError", "Can't instantiate abstract class %s with abstract method%s %s", c.name, s, strings.Join(c.abstract, ", "))
	}
	if f := c.special("__new__"); f != nil {
		return c.callNew(thread, f, args, kwargs)
	}
	in, err := c.newInstance(thread, args, kwargs)
	if err != nil {
		return nil, err
	}
	return in, c.initialize(thread, in, args, kwargs)
}

// newInstance is object.__new__(C): an instance without attributes, with
// the value of its builtin base made from args when that value cannot
// change later (a tuple, a str, a number).
func (c *Class) newInstance(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (*Instance, error) {
	if err := interp.BudgetOf(thread).Alloc(instanceSize); err != nil {
		return nil, err
	}
	in := &Instance{class: c}
	if c.exc != nil {
		in.exc = pyrt.NewExcValue(c.exc, in, append(starlark.Tuple(nil), args...))
	}
	if c.builtin != nil {
		init := c.special("__init__")
		var err error
		if init == nil || !c.mutableBuiltin(thread) {
			in.base, err = starlark.Call(thread, c.builtin, args, kwargs)
		} else {
			in.base, err = starlark.Call(thread, c.builtin, nil, nil)
		}
		if err != nil {
			return nil, err
		}
	}
	return in, nil
}

// mutableBuiltin reports whether the builtin base's value is filled by
// __init__ (a dict, a list) rather than made once by __new__ (a tuple).
func (c *Class) mutableBuiltin(thread *starlark.Thread) bool {
	switch b := c.builtin.(type) {
	case *pyrt.TypeObj:
		switch b.Name() {
		case "dict", "list", "set", "bytearray":
			return true
		}
		return false
	}
	v, err := starlark.Call(thread, c.builtin, nil, nil)
	if err != nil {
		return false
	}
	switch v.(type) {
	case starlark.HasSetKey, starlark.HasSetIndex:
		return true
	}
	return false
}

// initialize calls __init__ on a new instance.
func (c *Class) initialize(thread *starlark.Thread, in *Instance, args starlark.Tuple, kwargs []starlark.Tuple) error {
	init := c.special("__init__")
	if init == nil {
		if (len(args) > 0 || len(kwargs) > 0) && c.builtin == nil && c.exc == nil {
			return pyrt.Errorf("TypeError", "%s() takes no arguments", c.name)
		}
		return nil
	}
	var r starlark.Value
	var err error
	if len(kwargs) == 0 {
		r, err = c.world.callSelf(thread, init, in, args...)
	} else {
		r, err = c.world.call(thread, init, append(starlark.Tuple{in}, args...), kwargs)
	}
	if err != nil {
		c.qualify(err, "__init__", init)
		return err
	}
	if r != starlark.None {
		return pyrt.Errorf("TypeError", "__init__() should return None, not '%s'", typeName(r))
	}
	return nil
}

// callNew runs a __new__ the class defines: __new__(cls, *args), then
// __init__ when it returned an instance of the class.
func (c *Class) callNew(thread *starlark.Thread, f starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if s, ok := f.(*staticMethod); ok {
		f = s.fn
	}
	v, err := c.world.call(thread, f, append(starlark.Tuple{c}, args...), kwargs)
	if err != nil {
		return nil, err
	}
	if in, ok := v.(*Instance); ok && in.class.isSubclassOf(c) {
		return in, in.class.initialize(thread, in, args, kwargs)
	}
	return v, nil
}

// namespace is a class's or an instance's attributes, in the order they
// were first set (vars(), __dict__ and dataclass fields show that order).
type namespace struct {
	keys []string
	vals map[string]starlark.Value
}

func newNamespace(n int) *namespace {
	return &namespace{vals: make(map[string]starlark.Value, n)}
}

func (ns *namespace) get(name string) (starlark.Value, bool) {
	if ns == nil {
		return nil, false
	}
	v, ok := ns.vals[name]
	return v, ok
}

func (ns *namespace) has(name string) bool { _, ok := ns.get(name); return ok }

func (ns *namespace) set(name string, v starlark.Value) {
	if _, ok := ns.vals[name]; !ok {
		ns.keys = append(ns.keys, name)
	}
	ns.vals[name] = v
}

func (ns *namespace) del(name string) bool {
	if _, ok := ns.vals[name]; !ok {
		return false
	}
	delete(ns.vals, name)
	ns.keys = slices.DeleteFunc(ns.keys, func(k string) bool { return k == name })
	return true
}

func (ns *namespace) len() int {
	if ns == nil {
		return 0
	}
	return len(ns.keys)
}

// toDict is a copy of the namespace as a dict.
func (ns *namespace) toDict() *starlark.Dict {
	d := starlark.NewDict(ns.len())
	if ns != nil {
		for _, k := range ns.keys {
			_ = d.SetKey(starlark.String(k), ns.vals[k])
		}
	}
	return d
}

// typeName is the name of v's class, as messages quote it.
func typeName(v starlark.Value) string { return pyrt.TypeName(v) }

// errorf is pyrt.Errorf, named for brevity.
func errorf(class, format string, args ...any) error { return pyrt.Errorf(class, format, args...) }

// qualify names the method name of the class in err, an error of its
// call with the wrong arguments (C.__init__() missing 1 required…).
func (c *Class) qualify(err error, name string, fn starlark.Value) {
	if err == nil {
		return
	}
	if f, ok := fn.(*starlark.Function); ok {
		owner := c
		if l := c.lookup(name); l.owner != nil {
			owner = l.owner
		}
		pyrt.QualifyCallError(err, f.Name(), owner.qualname+"."+f.Name())
	}
}
