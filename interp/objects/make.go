package objects

import (
	"slices"
	"sort"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/lowered"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Making classes: the class statement's helper, type(name, bases, ns)
// and the C3 linearization.

// unbound is the value the lowering gives a class body's names before the
// body assigns them: a name still unbound at the end is not an attribute.
type unbound struct{}

func (unbound) String() string        { return "<unbound>" }
func (unbound) Type() string          { return "unbound" }
func (unbound) Freeze()               {}
func (unbound) Truth() starlark.Bool  { return false }
func (unbound) Hash() (uint32, error) { return 0, nil }

// Unbound is the value of a class body's name not yet assigned.
var Unbound starlark.Value = unbound{}

// A classCell is the __class__ of the methods of a class statement:
// zero-argument super() reads the class from it once the class exists.
type classCell struct{ cls *Class }

func (c *classCell) String() string        { return "<cell>" }
func (c *classCell) Type() string          { return "cell" }
func (c *classCell) Freeze()               {}
func (c *classCell) Truth() starlark.Bool  { return true }
func (c *classCell) Hash() (uint32, error) { return identityHashOf(c), nil }

// classHelper is __ot_class(name, qualname, body, bases, kwargs): body()
// runs the class body and returns (cell, (name, value, …), annotations).
func classHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 5 {
		return nil, errorf("TypeError", "__ot_class takes 5 arguments")
	}
	name, _ := interp.AsText(args[0])
	qualname, _ := interp.AsText(args[1])
	bases, _ := args[3].(starlark.Tuple)
	kw, _ := args[4].(*starlark.Dict)
	// The bases are checked before the body runs, as CPython finds an
	// impossible order only after; either way nothing is made.
	out, err := starlark.Call(thread, args[2], nil, nil)
	if err != nil {
		return nil, err
	}
	res, ok := out.(starlark.Tuple)
	if !ok || len(res) != 3 {
		return nil, errorf("TypeError", "__ot_class: bad class body")
	}
	cell, _ := res[0].(*classCell)
	pairs, _ := res[1].(starlark.Tuple)
	ns := newNamespace(len(pairs)/2 + 2)
	ns.set("__module__", starlark.String("__main__"))
	ns.set("__qualname__", starlark.String(qualname))
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == Unbound {
			continue
		}
		n, _ := interp.AsText(pairs[i])
		ns.set(n, pairs[i+1])
	}
	if anns, ok := res[2].(starlark.Tuple); ok && len(anns) > 0 {
		d := starlark.NewDict(len(anns) / 2)
		for i := 0; i+1 < len(anns); i += 2 {
			_ = d.SetKey(anns[i], anns[i+1])
		}
		ns.set("__annotations__", d)
	}
	c, err := makeClass(thread, name, qualname, bases, ns, kw)
	if err != nil {
		return nil, err
	}
	if cell != nil {
		cell.cls = c
	}
	return c, nil
}

// typeHelper is type(name, bases, namespace).
func typeHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	name, ok := interp.AsText(args[0])
	if !ok {
		return nil, errorf("TypeError", "type.__new__() argument 1 must be str, not %s", typeName(args[0]))
	}
	bases, ok := args[1].(starlark.Tuple)
	if !ok {
		return nil, errorf("TypeError", "type.__new__() argument 2 must be tuple, not %s", typeName(args[1]))
	}
	d, ok := args[2].(*starlark.Dict)
	if !ok {
		return nil, errorf("TypeError", "type.__new__() argument 3 must be dict, not %s", typeName(args[2]))
	}
	ns := newNamespace(d.Len() + 2)
	ns.set("__module__", starlark.String("__main__"))
	ns.set("__qualname__", starlark.String(name))
	for _, kv := range d.Items() {
		k, ok := interp.AsText(kv[0])
		if !ok {
			return nil, errorf("TypeError", "type.__new__(): namespace keys must be str")
		}
		ns.set(k, kv[1])
	}
	return makeClass(thread, name, name, bases, ns, nil)
}

// makeClass makes a class from its namespace: its MRO, the builtin or
// exception class it derives from, __set_name__, __init_subclass__ and
// its abstract methods.
func makeClass(thread *starlark.Thread, name, qualname string, bases starlark.Tuple, ns *namespace, kw *starlark.Dict) (*Class, error) {
	w := worldOf(thread)
	object, _ := interp.Predeclared(thread)["object"].(*ObjectType)
	root := starlark.Value(nil)
	if object != nil {
		root = object.typ
	}
	c := &Class{name: name, qualname: qualname, dict: ns, world: w}
	abc := false
	var ntFields []string
	typedDict := false
	for i, b := range bases {
		for _, prev := range bases[:i] {
			if prev == b {
				return nil, errorf("TypeError", "duplicate base class %s", className(b))
			}
		}
		switch x := b.(type) {
		case *ObjectType:
			c.bases = append(c.bases, x.typ)
			continue
		case *abcMarker:
			abc = true
		case *Class:
			if x.abc {
				abc = true
			}
			if x.meta != nil && c.meta == nil {
				c.meta = x.meta
			}
			if x.generic {
				c.generic = true
			}
		case Meta:
			if c.meta == nil {
				c.meta = x
			}
		}
		if b.Type() == "typing" {
			if n, ok := b.(interface{ Name() string }); ok {
				switch n.Name() {
				case "NamedTuple":
					ntFields = annotationNames(ns)
					nt, err := namedTupleBase(thread, b, name, ns, ntFields)
					if err != nil {
						return nil, err
					}
					c.bases = append(c.bases, nt)
					continue
				case "TypedDict":
					typedDict = true
				default:
					c.generic = true
				}
			}
			c.generic = true // Stack[int] is Stack
			continue         // Generic[T], Protocol: annotations only
		}
		if _, ok := b.(starlark.Callable); !ok {
			return nil, errorf("TypeError", "bases must be types, not %s", typeName(b))
		}
		c.bases = append(c.bases, b)
	}
	if kw != nil {
		for _, kv := range kw.Items() {
			k, _ := interp.AsText(kv[0])
			if k == "metaclass" {
				if _, ok := kv[1].(*abcMarker); ok {
					abc = true
					continue
				}
				return nil, &pyrt.Exception{Class: "TypeError", Msg: "metaclasses are not supported",
					Advice: "use a class decorator or __init_subclass__ instead of metaclass="}
			}
		}
	}
	if len(c.bases) == 0 && root != nil {
		c.bases = []starlark.Value{root}
	}
	mro, err := linearize(interp.BudgetOf(thread), c, root)
	if err != nil {
		return nil, err
	}
	c.mro = mro
	c.abc = abc
	c.typedDict = typedDict
	if typedDict && !ns.has("__total__") {
		// class M(TypedDict, total=False): M.__total__
		var total starlark.Value = starlark.True
		if kw != nil {
			if v, found, _ := kw.Get(starlark.String("total")); found {
				total = v
			}
		}
		ns.set("__total__", total)
	}
	c.ntFields = ntFields
	// The exception class instances raise as derives from every
	// exception class among the bases (class NotFound(AppError, KeyError)
	// is caught by except KeyError).
	var excBases []*pyrt.ExcClass
	for _, b := range c.bases {
		switch x := b.(type) {
		case *Class:
			if x.exc != nil {
				excBases = append(excBases, x.exc)
			}
		case *pyrt.ExcClass:
			excBases = append(excBases, x)
		}
	}
	if len(excBases) > 0 {
		c.exc = pyrt.NewModuleSubclass(name, excBases[0], excBases[1:]...)
	}
	for _, m := range mro[1:] {
		switch x := m.(type) {
		case *Class:
			if c.builtin == nil && x.builtin != nil {
				c.builtin = x.builtin
			}
			if x.generic {
				c.generic = true
			}
			if x.ntFields != nil && c.ntFields == nil {
				c.ntFields = x.ntFields
			}
		case *pyrt.TypeObj:
			if c.builtin == nil && x.Name() != "object" {
				c.builtin = x
			}
		case *abcMarker, Meta, ClassAttrs:
		default:
			if c.builtin == nil {
				c.builtin = x
			}
		}
	}
	if c.exc != nil && c.builtin != nil {
		c.builtin = nil
	}
	if doc, ok := ns.get("__doc__"); ok {
		_ = doc
	}
	// A class that defines __eq__ and not __hash__ is unhashable.
	if ns.has("__eq__") && !ns.has("__hash__") {
		ns.set("__hash__", starlark.None)
	}
	if err := c.checkSlots(true); err != nil {
		return nil, err
	}
	// __set_name__: a property learns the name it is bound to.
	for _, k := range ns.keys {
		switch v := ns.vals[k].(type) {
		case *Property:
			if v.name == "" {
				v.name = k
			}
		case *Instance:
			if f := v.class.special("__set_name__"); f != nil {
				if _, err := v.callSpecial(thread, f, c, starlark.String(k)); err != nil {
					return nil, err
				}
			}
		}
	}
	if abc {
		c.abstract = abstractNames(c)
	}
	if c.meta != nil {
		if err := c.meta.InitClass(thread, c); err != nil {
			return nil, err
		}
	}
	if len(w.classes) < maxClassesKept {
		w.classes = append(w.classes, c)
	}
	// __init_subclass__ of the nearest base that defines it.
	var subKw []starlark.Tuple
	if kw != nil {
		for _, kv := range kw.Items() {
			if k, _ := interp.AsText(kv[0]); k != "metaclass" && !(typedDict && k == "total") {
				subKw = append(subKw, starlark.Tuple{kv[0], kv[1]})
			}
		}
	}
	for _, m := range mro[1:] {
		k, ok := m.(*Class)
		if !ok {
			continue
		}
		if f, ok := k.dict.get("__init_subclass__"); ok {
			if cm, ok := f.(*classMethod); ok {
				f = cm.fn
			}
			if _, err := w.call(thread, f, starlark.Tuple{c}, subKw); err != nil {
				return nil, err
			}
			subKw = nil
			break
		}
	}
	if len(subKw) > 0 {
		return nil, errorf("TypeError", "%s.__init_subclass__() takes no keyword arguments", name)
	}
	return c, nil
}

// checkSlots reads __slots__: when the class and every class it derives
// from declare them, its instances may have those attributes only.
func (c *Class) checkSlots(strict bool) error {
	v, ok := c.dict.get("__slots__")
	if !ok {
		return nil
	}
	names := map[string]bool{}
	add := func(x starlark.Value) error {
		s, ok := interp.AsText(x)
		if !ok {
			return errorf("TypeError", "__slots__ items must be strings, not '%s'", typeName(x))
		}
		if strict && c.dict.has(s) {
			return errorf("ValueError", "'%s' in __slots__ conflicts with class variable", s)
		}
		names[lowered.MangleName(c.name, s)] = true
		return nil
	}
	if s, ok := interp.AsText(v); ok {
		if err := add(starlark.String(s)); err != nil {
			return err
		}
	} else if it := starlark.Iterate(v); it != nil {
		defer it.Done()
		var x starlark.Value
		for it.Next(&x) {
			if err := add(x); err != nil {
				return err
			}
		}
	}
	if names["__dict__"] {
		return nil
	}
	for _, m := range c.mro[1:] {
		switch k := m.(type) {
		case *Class:
			if k.slots == nil {
				return nil
			}
			for n := range k.slots {
				names[n] = true
			}
		case *pyrt.TypeObj:
			if k.Name() != "object" {
				return nil
			}
		default:
			return nil
		}
	}
	c.slots = names
	return nil
}

// annotationNames are the names annotated in a class body, in order.
func annotationNames(ns *namespace) []string {
	d, ok := ns.get("__annotations__")
	if !ok {
		return nil
	}
	var out []string
	for _, k := range d.(*starlark.Dict).Keys() {
		s, _ := interp.AsText(k)
		out = append(out, s)
	}
	return out
}

// namedTupleBase makes the tuple class of class P(NamedTuple): its
// fields are the annotated names; their values in the body are defaults.
func namedTupleBase(thread *starlark.Thread, nt starlark.Value, name string, ns *namespace, fields []string) (starlark.Value, error) {
	pairs := make([]starlark.Value, 0, len(fields))
	anns, _ := ns.get("__annotations__")
	for _, f := range fields {
		t, _, _ := anns.(*starlark.Dict).Get(starlark.String(f))
		pairs = append(pairs, starlark.Tuple{starlark.String(f), t})
	}
	base, err := starlark.Call(thread, nt, starlark.Tuple{starlark.String(name), starlark.NewList(pairs)}, nil)
	if err != nil {
		return nil, err
	}
	var defaults starlark.Tuple
	seenDefault := false
	for _, f := range fields {
		if v, ok := ns.get(f); ok {
			defaults = append(defaults, v)
			seenDefault = true
			ns.del(f)
		} else if seenDefault {
			return nil, errorf("TypeError", "Non-default namedtuple field %s cannot follow default field %s", f, fields[len(defaults)-1])
		}
	}
	if len(defaults) == 0 {
		return base, nil
	}
	return &defaultsCtor{ctor: base, fields: fields, defaults: defaults}, nil
}

// defaultsCtor calls a namedtuple class, filling the fields a call leaves
// out from defaults.
type defaultsCtor struct {
	ctor     starlark.Value
	fields   []string
	defaults starlark.Tuple
}

func (d *defaultsCtor) String() string        { return d.ctor.String() }
func (d *defaultsCtor) Type() string          { return d.ctor.Type() }
func (d *defaultsCtor) Freeze()               {}
func (d *defaultsCtor) Truth() starlark.Bool  { return true }
func (d *defaultsCtor) Hash() (uint32, error) { return d.ctor.Hash() }
func (d *defaultsCtor) Name() string          { return "namedtuple" }
func (d *defaultsCtor) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	given := map[string]bool{}
	for _, kv := range kwargs {
		k, _ := interp.AsText(kv[0])
		given[k] = true
	}
	first := len(d.fields) - len(d.defaults)
	all := append(starlark.Tuple(nil), args...)
	kw := append([]starlark.Tuple(nil), kwargs...)
	for i := len(args); i < len(d.fields); i++ {
		if i >= first && !given[d.fields[i]] {
			kw = append(kw, starlark.Tuple{starlark.String(d.fields[i]), d.defaults[i-first]})
		}
	}
	return starlark.Call(thread, d.ctor, all, kw)
}
func (d *defaultsCtor) Attr(name string) (starlark.Value, error) {
	if name == "_field_defaults" {
		dd := starlark.NewDict(len(d.defaults))
		first := len(d.fields) - len(d.defaults)
		for i, v := range d.defaults {
			_ = dd.SetKey(starlark.String(d.fields[first+i]), v)
		}
		return dd, nil
	}
	if a, ok := d.ctor.(starlark.HasAttrs); ok {
		return a.Attr(name)
	}
	return nil, nil
}
func (d *defaultsCtor) AttrNames() []string { return nil }

// linearize is the C3 method resolution order of c: c, then the merge of
// its bases' orders and the list of its bases, as CPython computes it.
func linearize(b *interp.Budget, c *Class, root starlark.Value) ([]starlark.Value, error) {
	var seqs [][]starlark.Value
	total := 0
	for _, base := range c.bases {
		seqs = append(seqs, mroOf(base, root))
		total += len(seqs[len(seqs)-1])
	}
	// The order costs its length in memory, and its merge up to the
	// square of it in steps: a chain of ten thousand classes meets the
	// budgets instead of running unbounded.
	if err := b.Alloc(int64(total+1) * 16); err != nil {
		return nil, err
	}
	seqs = append(seqs, slices.Clone(c.bases))
	out := []starlark.Value{c}
	for {
		seqs = slices.DeleteFunc(seqs, func(s []starlark.Value) bool { return len(s) == 0 })
		if len(seqs) == 0 {
			return out, nil
		}
		n := 0
		for _, s := range seqs {
			n += len(s)
		}
		if err := b.Charge(uint64(n*len(seqs)) / 8); err != nil {
			return nil, err
		}
		var next starlark.Value
		for _, s := range seqs {
			head := s[0]
			inTail := false
			for _, t := range seqs {
				if slices.ContainsFunc(t[1:], func(v starlark.Value) bool { return same(v, head) }) {
					inTail = true
					break
				}
			}
			if !inTail {
				next = head
				break
			}
		}
		if next == nil {
			var names []string
			seen := map[string]bool{}
			for _, s := range seqs {
				n := className(s[0])
				if !seen[n] {
					seen[n] = true
					names = append(names, n)
				}
			}
			// CPython's message has its line break.
			return nil, errorf("TypeError", "Cannot create a consistent method resolution\norder (MRO) for bases %s", strings.Join(names, ", "))
		}
		out = append(out, next)
		for i, s := range seqs {
			if same(s[0], next) {
				seqs[i] = s[1:]
			}
		}
	}
}

// same reports whether two classes of an MRO are one class (the runtime
// makes some class values on demand, equal by name).
func same(x, y starlark.Value) bool {
	if x == y {
		return true
	}
	tx, ok1 := x.(*pyrt.TypeObj)
	ty, ok2 := y.(*pyrt.TypeObj)
	return ok1 && ok2 && tx.Name() == ty.Name()
}

// mroOf is the MRO of a base.
func mroOf(b starlark.Value, root starlark.Value) []starlark.Value {
	switch x := b.(type) {
	case *Class:
		return slices.Clone(x.mro)
	case *pyrt.ExcClass:
		var out []starlark.Value
		for k := x; k != nil; k = k.Base() {
			out = append(out, k)
		}
		if root != nil {
			out = append(out, root)
		}
		return out
	case *pyrt.TypeObj:
		if x.Name() == "object" {
			return []starlark.Value{x}
		}
		out := []starlark.Value{x}
		if x.Name() == "bool" {
			out = append(out, interpInt(x))
		}
		if root != nil {
			out = append(out, root)
		}
		return out
	case GoBase:
		out := append([]starlark.Value{b}, x.BaseMRO()...)
		if root != nil {
			out = append(out, root)
		}
		return out
	}
	if root != nil {
		return []starlark.Value{b, root}
	}
	return []starlark.Value{b}
}

// interpInt is the int class, bool's base.
func interpInt(bool *pyrt.TypeObj) starlark.Value { return bool.Base() }

// className is a class's name, for messages.
func className(v starlark.Value) string {
	if n, ok := v.(interface{ Name() string }); ok {
		return n.Name()
	}
	return v.String()
}

// abstractNames are the abstract methods c leaves unimplemented, sorted.
func abstractNames(c *Class) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range c.mro {
		k, ok := m.(*Class)
		if !ok {
			continue
		}
		for _, n := range k.dict.keys {
			if seen[n] {
				continue
			}
			seen[n] = true
			if isAbstract(k.dict.vals[n]) {
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// isAbstract reports a value @abstractmethod marked (a property or
// static/class method of one too).
func isAbstract(v starlark.Value) bool {
	switch x := v.(type) {
	case *abstractMethod:
		return true
	case *Property:
		return isAbstract(x.fget) || isAbstract(x.fset) || isAbstract(x.fdel)
	case *staticMethod:
		return isAbstract(x.fn)
	case *classMethod:
		return isAbstract(x.fn)
	case interface{ IsAbstract() bool }:
		return x.IsAbstract()
	}
	return false
}
