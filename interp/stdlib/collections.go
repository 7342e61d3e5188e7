package stdlib

import (
	"math"
	"sort"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Collections is the collections module: Counter, defaultdict and
// OrderedDict, dicts with Python's extra behaviour.
func Collections() *starlarkstruct.Module {
	c := collClasses
	return &starlarkstruct.Module{Name: "collections", Members: starlark.StringDict{
		"Counter":     c.counter,
		"OrderedDict": c.ordered,
		"defaultdict": c.dflt,
		"deque":       c.deque,
		"namedtuple":  interp.NewBuiltin("namedtuple", newNamedTuple),
		"abc":         abcModule(),
		"ChainMap":    c.chainMap,
	}}
}

// collClasses are the module's classes, made once and shared, so that
// type(x) of a value is the very class the module names (type(c) is
// Counter), however many times the module is built.
var collClasses = struct {
	counter, ordered, dflt, deque, chainMap *collClass
}{
	counter:  newCollClass("Counter", newCounter, isCollDict(kindCounter)).with("fromkeys", counterFromKeys),
	ordered:  newCollClass("OrderedDict", newOrderedDict, isCollDict(kindOrdered)).with("fromkeys", dictFromKeys(kindOrdered)),
	dflt:     newCollClass("defaultdict", newDefaultDict, isCollDict(kindDefault)).with("fromkeys", dictFromKeys(kindDefault)),
	deque:    newCollClass("deque", newDeque, func(v starlark.Value) bool { _, ok := v.(*deque); return ok }),
	chainMap: newCollClass("ChainMap", newChainMap, func(v starlark.Value) bool { _, ok := v.(*chainMap); return ok }),
}

// PyClass is type(x): the module's class.
func (c *collDict) PyClass() starlark.Value {
	switch c.kind {
	case kindCounter:
		return collClasses.counter
	case kindDefault:
		return collClasses.dflt
	}
	return collClasses.ordered
}
func (*deque) PyClass() starlark.Value     { return collClasses.deque }
func (*chainMap) PyClass() starlark.Value  { return collClasses.chainMap }
func (v *ntValue) PyClass() starlark.Value { return v.typ }

// collClass is a class of the module (Counter, deque, …): calling it
// makes an instance, and isinstance(x, Counter) knows its instances.
type collClass struct {
	*starlark.Builtin
	is    func(starlark.Value) bool
	attrs starlark.StringDict // class methods: OrderedDict.fromkeys
}

// IsSubclassOf is issubclass(c, base): Counter, OrderedDict and
// defaultdict derive from dict.
func (c *collClass) IsSubclassOf(base starlark.Value) bool {
	if t, ok := base.(*pyrt.TypeObj); ok && t.Name() == "dict" {
		switch c.Name() {
		case "Counter", "OrderedDict", "defaultdict":
			return true
		}
	}
	return false
}

// with returns c with the class method name.
func (c *collClass) with(name string, fn interp.BuiltinFunc) *collClass {
	attrs := starlark.StringDict{}
	for k, v := range c.attrs {
		attrs[k] = v
	}
	attrs[name] = interp.NewBuiltin(name, fn)
	out := *c
	out.attrs = attrs
	return &out
}

func (c *collClass) Attr(name string) (starlark.Value, error) {
	if name == "__name__" {
		return starlark.String(c.Name()), nil
	}
	return c.attrs[name], nil
}

func (c *collClass) AttrNames() []string {
	names := append([]string{"__name__"}, c.attrs.Keys()...)
	sort.Strings(names)
	return names
}

// dictFromKeys is OrderedDict.fromkeys(iterable, value=None) (and
// defaultdict's, whose default_factory is None).
func dictFromKeys(kind dictKind) interp.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var src starlark.Value
		var value starlark.Value = starlark.None
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &src, &value); err != nil {
			return nil, err
		}
		c := &collDict{kind: kind, d: starlark.NewDict(0), factory: starlark.None, thread: thread}
		bud := interp.BudgetOf(thread)
		// The dict being made is in no variable yet: shown to the meter.
		defer bud.Hold(func(visit func(starlark.Value)) { visit(c) })()
		err := pyrt.ForEach(thread, src, func(k starlark.Value) (bool, error) {
			if err := pyrt.CheckHashable(bud, k); err != nil {
				return true, err
			}
			if err := c.d.SetKey(k, value); err != nil {
				return true, err
			}
			return false, fitsTable(bud, c.d.Len())
		})
		if err != nil {
			return nil, err
		}
		return c, nil
	}
}

// counterFromKeys is Counter.fromkeys, which CPython refuses.
func counterFromKeys(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return nil, pyrt.Errorf("NotImplementedError", "Counter.fromkeys() is undefined.  Use Counter(iterable) instead.")
}

var _ pyrt.Class = (*collClass)(nil)

func newCollClass(name string, fn interp.BuiltinFunc, is func(starlark.Value) bool) *collClass {
	return &collClass{Builtin: interp.NewBuiltin(name, fn), is: is}
}

func (c *collClass) String() string                    { return "<class 'collections." + c.Name() + "'>" }
func (c *collClass) Type() string                      { return "type" }
func (c *collClass) HasInstance(v starlark.Value) bool { return c.is(v) }

func isCollDict(kind dictKind) func(starlark.Value) bool {
	return func(v starlark.Value) bool {
		c, ok := v.(*collDict)
		return ok && c.kind == kind
	}
}

type dictKind int

const (
	kindCounter dictKind = iota
	kindDefault
	kindOrdered
)

var dictKindNames = [...]string{"Counter", "defaultdict", "OrderedDict"}

// collDict is a Counter, a defaultdict or an OrderedDict: a Starlark
// dict with the behaviour of its kind on top.
type collDict struct {
	kind dictKind
	d    *starlark.Dict
	// factory is a defaultdict's default_factory (None for none).
	factory starlark.Value
	// thread is the run's thread the defaultdict was made on: d[k]
	// (starlark.Mapping.Get) has no thread of its own, and the factory,
	// a lambda perhaps, must run on the run's thread, under its budget.
	thread *starlark.Thread
}

var (
	_ starlark.IterableMapping = (*collDict)(nil)
	_ starlark.HasSetKey       = (*collDict)(nil)
	_ starlark.Sequence        = (*collDict)(nil)
	_ starlark.Container       = (*collDict)(nil)
	_ starlark.HasAttrs        = (*collDict)(nil)
	_ starlark.HasSetField     = (*collDict)(nil)
	_ starlark.HasBinary       = (*collDict)(nil)
	_ starlark.HasUnary        = (*collDict)(nil)
	_ starlark.Comparable      = (*collDict)(nil)
	_ interp.TextValue         = (*collDict)(nil)
	_ interp.GoValuer          = (*collDict)(nil)
	_ interp.StarlarkValuer    = (*collDict)(nil)
	_ interp.Holder            = (*collDict)(nil)
)

// Held visits the dict and the factory, for the memory meter.
func (c *collDict) Held(visit func(starlark.Value)) {
	visit(c.d)
	if c.factory != nil {
		visit(c.factory)
	}
}

func (c *collDict) String() string {
	s, err := interp.Repr(nil, c)
	if err != nil {
		return c.Type() + "(...)"
	}
	return s
}
func (c *collDict) Type() string { return dictKindNames[c.kind] }
func (c *collDict) Freeze() {
	c.d.Freeze()
	if c.factory != nil {
		c.factory.Freeze()
	}
}
func (c *collDict) Truth() starlark.Bool { return c.d.Len() > 0 }
func (c *collDict) Hash() (uint32, error) {
	return 0, pyrt.Errorf("TypeError", "unhashable type: '%s'", c.qualName())
}

// qualName is the type's name as CPython's messages write it: the C
// types with their module, Counter (written in Python) without.
func (c *collDict) qualName() string {
	if c.kind == kindCounter {
		return "Counter"
	}
	return "collections." + c.Type()
}
func (c *collDict) Len() int                         { return c.d.Len() }
func (c *collDict) Iterate() starlark.Iterator       { return c.d.Iterate() }
func (c *collDict) Items() []starlark.Tuple          { return c.d.Items() }
func (c *collDict) SetKey(k, v starlark.Value) error { return c.d.SetKey(k, v) }
func (c *collDict) GoValue() (any, error)            { return interp.ToGo(c) }
func (c *collDict) StarlarkValue() starlark.Value    { return c.d }
func (c *collDict) BuiltinBase() string              { return "dict" }

// DeleteItem is del c[k]: a KeyError for a missing key, except in a
// Counter, which ignores it as CPython's does.
func (c *collDict) DeleteItem(_ *starlark.Thread, k starlark.Value) error {
	if err := pyrt.CheckHashable(nil, k); err != nil {
		return err
	}
	_, found, err := c.d.Delete(k)
	if err != nil || found || c.kind == kindCounter {
		return err
	}
	s, _ := interp.Repr(nil, k)
	return pyrt.Errorf("KeyError", "%s", s)
}
func (c *collDict) Has(k starlark.Value) (bool, error) {
	_, found, err := c.d.Get(k)
	return found, err
}

// Get is c[k]: a Counter's missing key counts 0, a defaultdict's is
// inserted as factory().
func (c *collDict) Get(k starlark.Value) (starlark.Value, bool, error) {
	if err := pyrt.CheckHashable(nil, k); err != nil {
		return nil, false, err
	}
	v, found, err := c.d.Get(k)
	if err != nil || found {
		return v, found, err
	}
	switch c.kind {
	case kindCounter:
		return starlark.MakeInt(0), true, nil
	case kindOrdered:
		s, _ := interp.Repr(nil, k)
		return nil, false, pyrt.Errorf("KeyError", "%s", s)
	case kindDefault:
		if c.factory == starlark.None || c.thread == nil {
			s, _ := interp.Repr(nil, k)
			return nil, false, pyrt.Errorf("KeyError", "%s", s)
		}
		v, err := starlark.Call(c.thread, c.factory, nil, nil)
		if err != nil {
			return nil, false, err
		}
		if err := fitsTable(interp.BudgetOf(c.thread), c.d.Len()+1); err != nil {
			return nil, false, err
		}
		if err := c.d.SetKey(k, v); err != nil {
			return nil, false, err
		}
		return v, true, nil
	}
	return nil, false, nil
}

// CompareSameType compares as dicts do: == and != only.
func (c *collDict) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	o := y.(*collDict)
	eq := func() (bool, error) {
		if c.kind == kindOrdered {
			// Two OrderedDicts are equal only in the same order, as in
			// CPython.
			a, b := c.d.Items(), o.d.Items()
			if len(a) != len(b) {
				return false, nil
			}
			for i := range a {
				if ok, err := starlark.EqualDepth(a[i], b[i], depth); err != nil || !ok {
					return false, err
				}
			}
			return true, nil
		}
		if c.kind == kindCounter {
			// A missing count is 0 (CPython 3.10+): Counter(a=1, b=0)
			// equals Counter(a=1).
			for _, pair := range [2][2]*collDict{{c, o}, {o, c}} {
				for _, kv := range pair[0].d.Items() {
					w, _, err := pair[1].Get(kv[0])
					if err != nil {
						return false, err
					}
					if ok, err := starlark.EqualDepth(kv[1], w, depth); err != nil || !ok {
						return false, err
					}
				}
			}
			return true, nil
		}
		return starlark.EqualDepth(c.d, o.d, depth)
	}
	switch op {
	case syntax.EQL:
		return eq()
	case syntax.NEQ:
		r, err := eq()
		return !r, err
	}
	if c.kind == kindCounter && o.kind == kindCounter {
		// Inclusion (CPython 3.10+): a <= b when every count of a is at
		// most b's, a missing count 0; a < b when also a != b.
		a, b := c, o
		if op == syntax.GT || op == syntax.GE {
			a, b = o, c
		}
		le, err := counterLE(a, b, depth)
		if err != nil || !le || op == syntax.LE || op == syntax.GE {
			return le, err
		}
		same, err := eq()
		return !same, err
	}
	return false, pyrt.Errorf("TypeError", "'%s' not supported between instances of '%s' and '%s'", op, c.qualName(), o.qualName())
}

// counterLE reports whether every count of a is at most b's (a missing
// count is 0).
func counterLE(a, b *collDict, depth int) (bool, error) {
	for _, pair := range [2][2]*collDict{{a, b}, {b, a}} {
		for _, kv := range pair[0].d.Items() {
			w, _, err := pair[1].Get(kv[0])
			if err != nil {
				return false, err
			}
			x, y := kv[1], w
			if pair[0] == b {
				x, y = w, kv[1]
			}
			le, err := starlark.CompareDepth(syntax.LE, x, y, depth)
			if err != nil || !le {
				return false, err
			}
		}
	}
	return true, nil
}

// WriteText writes CPython's repr: Counter({'a': 2}) with the most
// common first, defaultdict(<class 'list'>, {...}),
// OrderedDict([('a', 1)]).
func (c *collDict) WriteText(w *interp.TextWriter, _ bool, depth int) error {
	if err := w.WriteString(c.Type() + "("); err != nil {
		return err
	}
	switch c.kind {
	case kindCounter:
		if c.d.Len() > 0 {
			items, err := mostCommon(nil, c.d, -1)
			if err != nil {
				return err
			}
			d := starlark.NewDict(len(items))
			for _, kv := range items {
				_ = d.SetKey(kv[0], kv[1])
			}
			if err := w.Nested(d, depth+1); err != nil {
				return err
			}
		}
	case kindDefault:
		if err := w.Nested(c.factory, depth+1); err != nil {
			return err
		}
		if err := w.WriteString(", "); err != nil {
			return err
		}
		if err := w.Nested(c.d, depth+1); err != nil {
			return err
		}
	case kindOrdered:
		if c.d.Len() > 0 {
			items := c.d.Items()
			l := make([]starlark.Value, len(items))
			for i, kv := range items {
				l[i] = kv
			}
			if err := w.Nested(starlark.NewList(l), depth+1); err != nil {
				return err
			}
		}
	}
	return w.WriteString(")")
}

func (c *collDict) AttrNames() []string {
	names := []string{"clear", "copy", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values"}
	switch c.kind {
	case kindCounter:
		names = append(names, "elements", "most_common", "subtract", "total")
	case kindDefault:
		names = append(names, "default_factory")
	case kindOrdered:
		names = append(names, "move_to_end")
	}
	sort.Strings(names)
	return names
}

// SetField is d.default_factory = f of a defaultdict.
func (c *collDict) SetField(name string, v starlark.Value) error {
	if c.kind != kindDefault || name != "default_factory" {
		if c.attrNamed(name) {
			return pyrt.Errorf("AttributeError", "'%s' object attribute '%s' is read-only", c.qualName(), name)
		}
		return pyrt.Errorf("AttributeError", "'%s' object has no attribute '%s'", c.qualName(), name)
	}
	c.factory = v // CPython checks it only when it calls it
	return nil
}

func (c *collDict) attrNamed(name string) bool {
	for _, n := range c.AttrNames() {
		if n == name {
			return true
		}
	}
	return false
}

func (c *collDict) Attr(name string) (starlark.Value, error) {
	v, err := c.attr(name)
	if v == nil && err == nil {
		err = noAttrNamed(c.qualName(), name)
	}
	return v, err
}

func (c *collDict) attr(name string) (starlark.Value, error) {
	method := func(fn interp.BuiltinFunc) (starlark.Value, error) {
		return interp.NewBuiltin(name, fn).BindReceiver(c), nil
	}
	switch name {
	case "copy":
		return method(func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
				return nil, err
			}
			return c.copy(thread)
		})
	case "popitem":
		return method(func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			last := true
			if c.kind == kindOrdered {
				if err := starlark.UnpackArgs(name, args, kwargs, "last?", &last); err != nil {
					return nil, err
				}
			} else if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
				return nil, err
			}
			items := c.d.Items()
			if len(items) == 0 {
				if c.kind == kindOrdered {
					return nil, pyrt.Errorf("KeyError", "'dictionary is empty'")
				}
				return nil, pyrt.Errorf("KeyError", "'popitem(): dictionary is empty'")
			}
			kv := items[0]
			if last {
				kv = items[len(items)-1]
			}
			if _, _, err := c.d.Delete(kv[0]); err != nil {
				return nil, err
			}
			return kv, nil
		})
	}
	switch c.kind {
	case kindCounter:
		switch name {
		case "most_common":
			return method(func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				var n starlark.Value = starlark.None
				if err := starlark.UnpackArgs(name, args, kwargs, "n?", &n); err != nil {
					return nil, err
				}
				limit := -1
				if n != starlark.None {
					if err := starlark.AsInt(n, &limit); err != nil {
						return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", n.Type())
					}
					if limit < 0 {
						limit = 0
					}
				}
				items, err := mostCommon(interp.BudgetOf(thread), c.d, limit)
				if err != nil {
					return nil, err
				}
				l := make([]starlark.Value, len(items))
				for i, kv := range items {
					l[i] = kv
				}
				return starlark.NewList(l), nil
			})
		case "elements":
			return method(func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
					return nil, err
				}
				// The counts first: the list they make is refused before
				// it is made when it alone would pass the memory budget.
				b := interp.BudgetOf(thread)
				items := c.d.Items()
				if err := b.Charge(uint64(len(items))); err != nil {
					return nil, err
				}
				counts := make([]int64, len(items))
				var total int64
				for i, kv := range items {
					n, ok := kv[1].(starlark.Int)
					if !ok {
						return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", kv[1].Type())
					}
					k, ok := n.Int64()
					if !ok && n.Sign() > 0 {
						k = math.MaxInt64 / slotSize
					}
					counts[i] = max(k, 0)
					total = min(total+counts[i], math.MaxInt64/slotSize)
				}
				if err := b.Alloc(total * slotSize); err != nil {
					return nil, err
				}
				out := make([]starlark.Value, 0, total)
				for i, kv := range items {
					for n := counts[i]; n > 0; n-- {
						out = append(out, kv[0])
					}
				}
				return starlark.NewList(out), nil
			})
		case "total":
			return method(func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
					return nil, err
				}
				var sum starlark.Value = starlark.MakeInt(0)
				for _, kv := range c.d.Items() {
					if err := interp.BudgetOf(thread).Charge(1); err != nil {
						return nil, err
					}
					s, err := pyrt.Add(thread, sum, kv[1])
					if err != nil {
						return nil, pyrt.Classify(err)
					}
					sum = s
				}
				return sum, nil
			})
		case "update", "subtract":
			op := syntax.PLUS
			if name == "subtract" {
				op = syntax.MINUS
			}
			return method(func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				if len(args) > 1 {
					return nil, pyrt.Errorf("TypeError", "expected at most 1 argument, got %d", len(args))
				}
				var src starlark.Value = starlark.None
				if len(args) == 1 {
					src = args[0]
				}
				return starlark.None, c.count(thread, op, src, kwargs)
			})
		}
	case kindDefault:
		if name == "default_factory" {
			return c.factory, nil
		}
	case kindOrdered:
		if name == "move_to_end" {
			return method(func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				var key starlark.Value
				last := true
				if err := starlark.UnpackArgs(name, args, kwargs, "key", &key, "last?", &last); err != nil {
					return nil, err
				}
				v, found, err := c.d.Get(key)
				if err != nil {
					return nil, err
				}
				if !found {
					s, _ := interp.Repr(nil, key)
					return nil, pyrt.Errorf("KeyError", "%s", s)
				}
				if last {
					if _, _, err := c.d.Delete(key); err != nil {
						return nil, err
					}
					return starlark.None, c.d.SetKey(key, v)
				}
				items := c.d.Items()
				if err := interp.BudgetOf(thread).Alloc(interp.TableBytes(len(items))); err != nil {
					return nil, err
				}
				c.d.Clear()
				if err := c.d.SetKey(key, v); err != nil {
					return nil, err
				}
				for _, kv := range items {
					if eq, _ := starlark.Equal(kv[0], key); !eq {
						if err := c.d.SetKey(kv[0], kv[1]); err != nil {
							return nil, err
						}
					}
				}
				return starlark.None, nil
			})
		}
	}
	switch name {
	case "clear", "get", "items", "keys", "pop", "setdefault", "update", "values":
		// dict's own, with Python's errors and views (odict_keys of an
		// OrderedDict).
		return pyrt.DictMethod(c.d, name, c.kind == kindOrdered)
	}
	return nil, nil
}

func (c *collDict) copy(thread *starlark.Thread) (*collDict, error) {
	if err := interp.BudgetOf(thread).Alloc(interp.TableBytes(c.d.Len())); err != nil {
		return nil, err
	}
	d := starlark.NewDict(c.d.Len())
	for _, kv := range c.d.Items() {
		_ = d.SetKey(kv[0], kv[1])
	}
	return &collDict{kind: c.kind, d: d, factory: c.factory, thread: thread}, nil
}

// count adds (op PLUS) or subtracts the counts of src, a mapping or an
// iterable of elements that count 1 each, then those of kwargs.
func (c *collDict) count(thread *starlark.Thread, op syntax.Token, src starlark.Value, kwargs []starlark.Tuple) error {
	b := interp.BudgetOf(thread)
	one := starlark.MakeInt(1)
	// Counter(count()) fills a dict in no variable yet: shown to the
	// meter while it grows.
	defer b.Hold(func(visit func(starlark.Value)) { visit(c) })()
	add := func(k, n starlark.Value) error {
		if err := b.Charge(1); err != nil {
			return err
		}
		if err := pyrt.CheckHashable(b, k); err != nil {
			return err
		}
		old, found, err := c.d.Get(k)
		if err != nil {
			return err
		}
		if !found {
			if err := fitsTable(b, c.d.Len()+1); err != nil {
				return err
			}
			old = starlark.MakeInt(0)
		}
		// CPython adds count + self.get(elem, 0) for a mapping's counts
		// (the order shows in a TypeError) and subtracts
		// self.get(elem, 0) - count; for 1 (an element) the order does
		// not matter. Counts are ints of the program: update() of a
		// Counter with itself, again and again, doubles them past the
		// digit limit.
		var v starlark.Value
		if op == syntax.PLUS {
			v, err = pyrt.Add(thread, n, old)
			err = pyrt.Classify(err)
		} else if v, err = numBinary(op, old, n); err == nil {
			err = checkIntValue(b, v)
		}
		if err != nil {
			return err
		}
		return c.d.SetKey(k, v)
	}
	// update(mapping) of an empty Counter is dict.update in CPython: the
	// counts are kept as they are (Counter(a=True) holds True).
	set := func(k, n starlark.Value) error {
		if err := b.Charge(1); err != nil {
			return err
		}
		if err := pyrt.CheckHashable(b, k); err != nil {
			return err
		}
		if err := fitsTable(b, c.d.Len()+1); err != nil {
			return err
		}
		return c.d.SetKey(k, n)
	}
	switch s := src.(type) {
	case starlark.NoneType:
	case starlark.IterableMapping:
		put := add
		if op == syntax.PLUS && c.d.Len() == 0 {
			put = set
		}
		for _, kv := range s.Items() {
			if err := put(kv[0], kv[1]); err != nil {
				return err
			}
		}
	default:
		if err := pyrt.ForEach(thread, src, func(x starlark.Value) (bool, error) {
			return false, add(x, one)
		}); err != nil {
			return err
		}
	}
	put := add
	if op == syntax.PLUS && c.d.Len() == 0 {
		put = set
	}
	for _, kv := range kwargs {
		if err := put(kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// mostCommon returns the items by count, highest first, ties in
// insertion order (a stable sort, as CPython's); the first n when n >= 0.
func mostCommon(b *interp.Budget, d *starlark.Dict, n int) ([]starlark.Tuple, error) {
	items := d.Items()
	if err := b.Charge(uint64(len(items)) * 4); err != nil {
		return nil, err
	}
	var cmpErr error
	sort.SliceStable(items, func(i, j int) bool {
		lt, err := numCompare(syntax.GT, items[i][1], items[j][1])
		if err != nil && cmpErr == nil {
			cmpErr = err
		}
		return lt
	})
	if cmpErr != nil {
		return nil, cmpErr
	}
	if n >= 0 && n < len(items) {
		items = items[:n]
	}
	return items, nil
}

// Binary is + - | & of two Counters, keeping positive counts, as
// CPython's, and | of an OrderedDict or defaultdict with a dict (the
// entries of both, the right one's winning, in a value of their kind).
func (c *collDict) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if c.kind != kindCounter && op == syntax.PIPE {
		m, ok := y.(starlark.IterableMapping)
		if !ok {
			return nil, nil
		}
		if o, ok := y.(*collDict); ok && o.kind == kindCounter {
			return nil, nil
		}
		out := &collDict{kind: c.kind, d: starlark.NewDict(c.d.Len()), factory: c.factory, thread: c.thread}
		first, second := c.d.Items(), m.Items()
		if side == starlark.Right {
			first, second = second, first
		}
		for _, items := range [2][]starlark.Tuple{first, second} {
			for _, kv := range items {
				if err := out.d.SetKey(kv[0], kv[1]); err != nil {
					return nil, err
				}
			}
		}
		return out, nil
	}
	if d, ok := y.(*starlark.Dict); ok && c.kind == kindCounter && op == syntax.PIPE {
		// A Counter | a dict (either side) is dict's |: a dict of the
		// entries of both, the right one's winning.
		out := starlark.NewDict(c.d.Len() + d.Len())
		first, second := c.d.Items(), d.Items()
		if side == starlark.Right {
			first, second = second, first
		}
		for _, items := range [2][]starlark.Tuple{first, second} {
			for _, kv := range items {
				if err := out.SetKey(kv[0], kv[1]); err != nil {
					return nil, err
				}
			}
		}
		return out, nil
	}
	o, ok := y.(*collDict)
	if !ok || c.kind != kindCounter || o.kind != kindCounter {
		return nil, nil
	}
	x := c
	if side == starlark.Right {
		x, o = o, c
	}
	switch op {
	case syntax.PLUS, syntax.MINUS, syntax.PIPE, syntax.AMP:
	default:
		return nil, nil
	}
	zero := starlark.MakeInt(0)
	out := starlark.NewDict(x.d.Len())
	var cmpErr error
	positive := func(v starlark.Value) bool {
		gt, err := numCompare(syntax.GT, v, zero)
		if err != nil && cmpErr == nil {
			// A count that is not a number: CPython's count > 0 fails.
			cmpErr = pyrt.Errorf("TypeError", "'>' not supported between instances of '%s' and 'int'", pyrt.TypeName(v))
		}
		return err == nil && gt
	}
	for _, kv := range x.d.Items() {
		other, found, err := o.d.Get(kv[0])
		if err != nil {
			return nil, err
		}
		if !found {
			other = zero
		}
		var v starlark.Value
		switch op {
		case syntax.PLUS:
			// c = c + c in a loop doubles the counts past the digit limit.
			if v, err = pyrt.Add(c.thread, kv[1], other); err != nil {
				return nil, pyrt.Classify(err)
			}
		case syntax.MINUS:
			if v, err = numBinary(op, kv[1], other); err != nil {
				return nil, err
			}
			if err := checkIntValue(interp.BudgetOf(c.thread), v); err != nil {
				return nil, err
			}
		case syntax.PIPE, syntax.AMP:
			lt, err := numCompare(syntax.LT, kv[1], other)
			if err != nil {
				return nil, err
			}
			v = kv[1]
			if lt == (op == syntax.PIPE) {
				v = other
			}
		}
		if positive(v) {
			_ = out.SetKey(kv[0], v)
		}
	}
	if op != syntax.AMP {
		for _, kv := range o.d.Items() {
			if _, found, _ := x.d.Get(kv[0]); found {
				continue
			}
			v := kv[1]
			if op == syntax.MINUS {
				neg, err := numBinary(syntax.MINUS, zero, v)
				if err != nil {
					return nil, err
				}
				v = neg
			}
			if positive(v) {
				_ = out.SetKey(kv[0], v)
			}
		}
	}
	if cmpErr != nil {
		return nil, cmpErr
	}
	return &collDict{kind: kindCounter, d: out, thread: c.thread}, nil
}

// Unary is +c (the positive counts) and -c (the negated negative
// counts) of a Counter, as CPython's.
func (c *collDict) Unary(op syntax.Token) (starlark.Value, error) {
	if c.kind != kindCounter || (op != syntax.PLUS && op != syntax.MINUS) {
		return nil, nil
	}
	zero := starlark.MakeInt(0)
	out := starlark.NewDict(0)
	for _, kv := range c.d.Items() {
		v := kv[1]
		if op == syntax.MINUS {
			neg, err := numBinary(syntax.MINUS, zero, v)
			if err != nil {
				return nil, err
			}
			v = neg
		}
		if gt, err := numCompare(syntax.GT, v, zero); err == nil && gt {
			_ = out.SetKey(kv[0], v)
		}
	}
	return &collDict{kind: kindCounter, d: out, thread: c.thread}, nil
}

func newCounter(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 1 {
		return nil, pyrt.Errorf("TypeError", "Counter.__init__() takes from 1 to 2 positional arguments but %d were given", len(args)+1)
	}
	c := &collDict{kind: kindCounter, d: starlark.NewDict(0), thread: thread}
	var src starlark.Value = starlark.None
	if len(args) == 1 {
		src = args[0]
	}
	if err := c.count(thread, syntax.PLUS, src, kwargs); err != nil {
		return nil, err
	}
	return c, nil
}

// fill adds to c the entries of a mapping or of an iterable of pairs,
// then kwargs, as dict() does.
func (c *collDict) fill(thread *starlark.Thread, fn string, args starlark.Tuple, kwargs []starlark.Tuple) error {
	b := interp.BudgetOf(thread)
	if len(args) > 1 {
		return pyrt.Errorf("TypeError", "%s expected at most 1 argument, got %d", fn, len(args))
	}
	if len(args) == 1 {
		switch s := args[0].(type) {
		case starlark.IterableMapping:
			items := s.Items()
			if err := b.Alloc(interp.TableBytes(len(items))); err != nil {
				return err
			}
			for _, kv := range items {
				if err := c.d.SetKey(kv[0], kv[1]); err != nil {
					return err
				}
			}
		default:
			i := 0
			// The dict being made is in no variable yet: shown to the
			// meter while it grows.
			defer b.Hold(func(visit func(starlark.Value)) { visit(c) })()
			err := pyrt.ForEach(thread, s, func(x starlark.Value) (bool, error) {
				if err := fitsTable(b, c.d.Len()+1); err != nil {
					return true, err
				}
				pair, ok := x.(starlark.Indexable)
				if !ok {
					return true, pyrt.Errorf("TypeError", "cannot convert dictionary update sequence element #%d to a sequence", i)
				}
				if pair.Len() != 2 {
					return true, pyrt.Errorf("ValueError", "dictionary update sequence element #%d has length %d; 2 is required", i, pair.Len())
				}
				if err := pyrt.CheckHashable(b, pair.Index(0)); err != nil {
					return true, err
				}
				i++
				return false, c.d.SetKey(pair.Index(0), pair.Index(1))
			})
			if err != nil {
				return err
			}
		}
	}
	for _, kv := range kwargs {
		if err := c.d.SetKey(kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

func newDefaultDict(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	c := &collDict{kind: kindDefault, d: starlark.NewDict(0), factory: starlark.None, thread: thread}
	if len(args) > 0 {
		if _, ok := args[0].(starlark.Callable); !ok && args[0] != starlark.None {
			return nil, pyrt.Errorf("TypeError", "first argument must be callable or None")
		}
		c.factory = args[0]
		args = args[1:]
	}
	if err := c.fill(thread, "defaultdict", args, kwargs); err != nil {
		return nil, err
	}
	return c, nil
}

func newOrderedDict(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	c := &collDict{kind: kindOrdered, d: starlark.NewDict(0)}
	if err := c.fill(thread, "OrderedDict", args, kwargs); err != nil {
		return nil, err
	}
	return c, nil
}
