package stdlib

import (
	"errors"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// chainMap is a collections.ChainMap: a list of mappings looked up in
// order, the first one written to.
type chainMap struct {
	maps *starlark.List // the mappings, as cm.maps (a list a program may change)
	// thread is the run's that made it, whose budget its walks charge:
	// len(), iteration and lookups, which go.starlark.net calls without
	// one, visit every mapping of the chain.
	thread *starlark.Thread
}

var (
	_ starlark.IterableMapping = (*chainMap)(nil)
	_ starlark.HasSetKey       = (*chainMap)(nil)
	_ starlark.Sequence        = (*chainMap)(nil)
	_ starlark.Container       = (*chainMap)(nil)
	_ starlark.HasAttrs        = (*chainMap)(nil)
	_ starlark.HasBinary       = (*chainMap)(nil)
	_ starlark.Comparable      = (*chainMap)(nil)
	_ interp.TextValue         = (*chainMap)(nil)
	_ interp.GoValuer          = (*chainMap)(nil)
	_ interp.StarlarkValuer    = (*chainMap)(nil)
	_ interp.Holder            = (*chainMap)(nil)
)

// Held visits the mappings, for the memory meter.
func (c *chainMap) Held(visit func(starlark.Value)) { visit(c.maps) }

func newChainMap(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "ChainMap.__init__() got an unexpected keyword argument '%s'", kwargs[0][0])
	}
	maps := make([]starlark.Value, 0, len(args)+1)
	for _, m := range args {
		maps = append(maps, m)
	}
	if len(maps) == 0 {
		maps = append(maps, starlark.NewDict(0))
	}
	if err := interp.BudgetOf(thread).Alloc(int64(len(maps)) * 16); err != nil {
		return nil, err
	}
	return &chainMap{maps: starlark.NewList(maps), thread: thread}, nil
}

func (c *chainMap) String() string {
	s, err := interp.Repr(nil, c)
	if err != nil {
		return "ChainMap(...)"
	}
	return s
}
func (c *chainMap) Type() string         { return "ChainMap" }
func (c *chainMap) Freeze()              { c.maps.Freeze() }
func (c *chainMap) Truth() starlark.Bool { return c.Len() > 0 }
func (c *chainMap) Hash() (uint32, error) {
	return 0, pyrt.Errorf("TypeError", "unhashable type: 'ChainMap'")
}
func (c *chainMap) GoValue() (any, error)         { return interp.ToGo(c) }
func (c *chainMap) StarlarkValue() starlark.Value { return c.merged() }

// mapping is cm.maps[i] as a mapping (a value that is not one looks up
// nothing).
func (c *chainMap) mapping(i int) starlark.Mapping {
	m, _ := c.maps.Index(i).(starlark.Mapping)
	return m
}

// Get is cm[k]: the value of the first mapping that gives one for k (a
// Counter gives 0 for any key, a defaultdict its default, as in CPython).
func (c *chainMap) Get(k starlark.Value) (starlark.Value, bool, error) {
	if err := pyrt.CheckHashable(nil, k); err != nil {
		return nil, false, err
	}
	return c.get(k, 0, map[*chainMap]bool{})
}

// chainDepthError is what a ChainMap among whose maps it is itself (or a
// chain of them deeper than the nesting limit) gives, as CPython's
// recursion does.
func chainDepthError() error {
	return pyrt.Errorf("RecursionError", "maximum recursion depth exceeded")
}

// get is Get at a depth of ChainMaps within ChainMaps. missed are the
// ChainMaps already asked in vain: a chain that holds another twice (or
// forty chains that each hold the one before twice, 2⁴⁰ paths) asks it
// once.
func (c *chainMap) get(k starlark.Value, depth int, missed map[*chainMap]bool) (starlark.Value, bool, error) {
	if depth > interp.MaxDepth {
		return nil, false, chainDepthError()
	}
	if err := interp.BudgetOf(c.thread).Charge(uint64(c.maps.Len())); err != nil {
		return nil, false, err
	}
	for i := 0; i < c.maps.Len(); i++ {
		var v starlark.Value
		var found bool
		var err error
		switch m := c.maps.Index(i).(type) {
		case *chainMap:
			if missed[m] {
				continue
			}
			v, found, err = m.get(k, depth+1, missed)
			if err != nil {
				var ex *pyrt.Exception
				if errors.As(err, &ex) && ex.Class == "KeyError" {
					missed[m] = true
				}
			}
		case starlark.Mapping:
			v, found, err = m.Get(k)
		default:
			continue
		}
		if err != nil {
			// A mapping that does not hold k: the next one is asked.
			var ex *pyrt.Exception
			if errors.As(err, &ex) && ex.Class == "KeyError" {
				err = nil
			}
		}
		if err != nil || found {
			return v, found, err
		}
	}
	r, _ := interp.Repr(nil, k)
	return nil, false, pyrt.Errorf("KeyError", "%s", r)
}

// Has is k in cm: whether a mapping holds k (a Counter or defaultdict
// only its own keys).
func (c *chainMap) Has(k starlark.Value) (bool, error) {
	if err := pyrt.CheckHashable(nil, k); err != nil {
		return false, err
	}
	return c.has(k, 0, map[*chainMap]bool{})
}

// has is Has at a depth; missed as for get.
func (c *chainMap) has(k starlark.Value, depth int, missed map[*chainMap]bool) (bool, error) {
	if depth > interp.MaxDepth {
		return false, chainDepthError()
	}
	if err := interp.BudgetOf(c.thread).Charge(uint64(c.maps.Len())); err != nil {
		return false, err
	}
	for i := 0; i < c.maps.Len(); i++ {
		var in bool
		var err error
		switch m := c.maps.Index(i).(type) {
		case *chainMap:
			if missed[m] {
				continue
			}
			in, err = m.has(k, depth+1, missed)
			missed[m] = err == nil && !in
		case starlark.Container:
			in, err = m.Has(k)
		case starlark.Mapping:
			_, in, err = m.Get(k)
		}
		if err != nil || in {
			return in, err
		}
	}
	return false, nil
}

// lookup is cm[k] for a key the chain holds (merged, get).
func (c *chainMap) lookup(k starlark.Value) (starlark.Value, bool, error) {
	in, err := c.Has(k)
	if err != nil || !in {
		return nil, false, err
	}
	return c.Get(k)
}

// merged is the mappings as one dict, in CPython's order: the keys of
// the last mapping first, each with the value the chain gives it.
func (c *chainMap) merged() *starlark.Dict {
	d, err := c.mergedAt(0, map[*chainMap]bool{})
	if err != nil {
		return starlark.NewDict(0) // a ChainMap within itself: nothing more to list
	}
	return d
}

// mergedAt is merged at a depth; done are the ChainMaps whose keys are
// in already (see get).
func (c *chainMap) mergedAt(depth int, done map[*chainMap]bool) (*starlark.Dict, error) {
	if depth > interp.MaxDepth {
		return nil, chainDepthError()
	}
	b := interp.BudgetOf(c.thread)
	keys := starlark.NewDict(0)
	for i := c.maps.Len() - 1; i >= 0; i-- {
		var items []starlark.Tuple
		switch m := c.maps.Index(i).(type) {
		case *chainMap:
			if done[m] {
				continue
			}
			done[m] = true
			inner, err := m.mergedAt(depth+1, done)
			if err != nil {
				return nil, err
			}
			items = inner.Items()
		case starlark.IterableMapping:
			items = m.Items()
		default:
			continue
		}
		if err := b.Charge(uint64(len(items))); err != nil {
			return nil, err
		}
		for _, kv := range items {
			_ = keys.SetKey(kv[0], starlark.None)
		}
	}
	out := starlark.NewDict(keys.Len())
	for _, kv := range keys.Items() {
		v, _, err := c.get(kv[0], depth, map[*chainMap]bool{})
		if isBudget(err) {
			return nil, err
		}
		if v == nil {
			v = starlark.None
		}
		_ = out.SetKey(kv[0], v)
	}
	return out, nil
}

func (c *chainMap) Items() []starlark.Tuple    { return c.merged().Items() }
func (c *chainMap) Iterate() starlark.Iterator { return c.merged().Iterate() }
func (c *chainMap) Len() int                   { return c.merged().Len() }

// first is cm.maps[0], where writes go.
func (c *chainMap) first() (starlark.Value, error) {
	if c.maps.Len() == 0 {
		return nil, pyrt.Errorf("IndexError", "list index out of range")
	}
	return c.maps.Index(0), nil
}

// SetKey is cm[k] = v: in the first mapping.
func (c *chainMap) SetKey(k, v starlark.Value) error {
	m, err := c.first()
	if err != nil {
		return err
	}
	s, ok := m.(starlark.HasSetKey)
	if !ok {
		return pyrt.Errorf("TypeError", "'%s' object does not support item assignment", pyrt.TypeName(m))
	}
	return s.SetKey(k, v)
}

// DeleteItem is del cm[k]: from the first mapping only.
func (c *chainMap) DeleteItem(thread *starlark.Thread, k starlark.Value) error {
	_, err := c.popFirst(thread, k)
	return err
}

func (c *chainMap) popFirst(thread *starlark.Thread, k starlark.Value) (starlark.Value, error) {
	return c.popFirstAt(thread, k, 0)
}

func (c *chainMap) popFirstAt(thread *starlark.Thread, k starlark.Value, depth int) (starlark.Value, error) {
	if depth > interp.MaxDepth {
		return nil, chainDepthError()
	}
	m, err := c.first()
	if err != nil {
		return nil, err
	}
	missing := func() error {
		r, _ := interp.Repr(nil, k)
		return pyrt.Errorf("KeyError", "%s", interp.QuoteString("Key not found in the first mapping: "+r))
	}
	switch d := m.(type) {
	case *starlark.Dict:
		v, found, err := d.Delete(k)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, missing()
		}
		return v, nil
	case *collDict:
		v, found, err := d.d.Delete(k)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, missing()
		}
		return v, nil
	case *chainMap:
		return d.popFirstAt(thread, k, depth+1)
	}
	return nil, pyrt.Errorf("TypeError", "'%s' object does not support item deletion", pyrt.TypeName(m))
}

func (c *chainMap) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	eq, err := starlark.EqualDepth(c.merged(), y.(*chainMap).merged(), depth)
	switch op {
	case syntax.EQL:
		return eq, err
	case syntax.NEQ:
		return !eq, err
	}
	return false, pyrt.Errorf("TypeError", "'%s' not supported between instances of 'ChainMap' and 'ChainMap'", op)
}

// Binary is cm | mapping and mapping | cm (3.9+): a ChainMap whose first
// mapping is a copy of cm's first with the other's entries added.
func (c *chainMap) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	m, ok := y.(starlark.IterableMapping)
	if op != syntax.PIPE || !ok {
		return nil, nil
	}
	if side == starlark.Right {
		// mapping | cm: a copy of cm's merged entries over the mapping's.
		d := starlark.NewDict(0)
		for _, part := range [2][]starlark.Tuple{c.Items(), m.Items()} {
			for _, kv := range part {
				_ = d.SetKey(kv[0], kv[1])
			}
		}
		maps := append([]starlark.Value{d}, c.rest()...)
		return &chainMap{maps: starlark.NewList(maps), thread: c.thread}, nil
	}
	first, err := c.first()
	if err != nil {
		return nil, err
	}
	d := starlark.NewDict(0)
	var items []starlark.Tuple
	if f, ok := first.(starlark.IterableMapping); ok {
		items = f.Items()
	}
	for _, part := range [2][]starlark.Tuple{items, m.Items()} {
		for _, kv := range part {
			_ = d.SetKey(kv[0], kv[1])
		}
	}
	maps := append([]starlark.Value{d}, c.rest()...)
	return &chainMap{maps: starlark.NewList(maps), thread: c.thread}, nil
}

// rest is cm.maps[1:].
func (c *chainMap) rest() []starlark.Value {
	var out []starlark.Value
	for i := 1; i < c.maps.Len(); i++ {
		out = append(out, c.maps.Index(i))
	}
	return out
}

func (c *chainMap) WriteText(w *interp.TextWriter, _ bool, depth int) error {
	if err := w.WriteString("ChainMap("); err != nil {
		return err
	}
	for i := 0; i < c.maps.Len(); i++ {
		if i > 0 {
			if err := w.WriteString(", "); err != nil {
				return err
			}
		}
		if err := w.Nested(c.maps.Index(i), depth+1); err != nil {
			return err
		}
	}
	return w.WriteString(")")
}

func (c *chainMap) AttrNames() []string {
	return []string{"clear", "copy", "get", "items", "keys", "maps", "new_child", "parents", "pop", "popitem", "setdefault", "update", "values"}
}

func (c *chainMap) Attr(name string) (starlark.Value, error) {
	method := func(fn interp.BuiltinFunc) (starlark.Value, error) {
		return interp.NewBuiltin(name, fn).BindReceiver(c), nil
	}
	switch name {
	case "maps":
		return c.maps, nil
	case "parents":
		rest := c.rest()
		if len(rest) == 0 {
			rest = []starlark.Value{starlark.NewDict(0)} // ChainMap() holds one empty dict
		}
		return &chainMap{maps: starlark.NewList(rest), thread: c.thread}, nil
	case "new_child":
		return method(func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var m starlark.Value = starlark.None
			if len(args) > 1 {
				return nil, pyrt.Errorf("TypeError", "ChainMap.new_child() takes from 1 to 2 positional arguments but %d were given", len(args)+1)
			}
			if len(args) == 1 {
				m = args[0]
			}
			if m == starlark.None {
				m = starlark.NewDict(len(kwargs))
			}
			if len(kwargs) > 0 {
				s, ok := m.(starlark.HasSetKey)
				if !ok {
					return nil, pyrt.Errorf("TypeError", "'%s' object does not support item assignment", pyrt.TypeName(m))
				}
				for _, kv := range kwargs {
					if err := s.SetKey(kv[0], kv[1]); err != nil {
						return nil, err
					}
				}
			}
			maps := make([]starlark.Value, 0, c.maps.Len()+1)
			maps = append(maps, m)
			for i := 0; i < c.maps.Len(); i++ {
				maps = append(maps, c.maps.Index(i))
			}
			if err := interp.BudgetOf(thread).Alloc(int64(len(maps)) * 16); err != nil {
				return nil, err
			}
			return &chainMap{maps: starlark.NewList(maps), thread: thread}, nil
		})
	case "get":
		return method(func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var k starlark.Value
			var dflt starlark.Value = starlark.None
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &k, &dflt); err != nil {
				return nil, err
			}
			v, found, err := c.lookup(k)
			if err != nil || !found {
				return dflt, err
			}
			return v, nil
		})
	case "keys", "values", "items":
		return method(func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
				return nil, err
			}
			items := c.Items()
			if err := interp.BudgetOf(thread).Alloc(int64(len(items)) * 16); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(items))
			for i, kv := range items {
				switch name {
				case "keys":
					out[i] = kv[0]
				case "values":
					out[i] = kv[1]
				default:
					out[i] = kv
				}
			}
			return starlark.NewList(out), nil
		})
	case "copy":
		return method(func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
				return nil, err
			}
			first, err := c.first()
			if err != nil {
				return nil, err
			}
			d := starlark.NewDict(0)
			if f, ok := first.(starlark.IterableMapping); ok {
				for _, kv := range f.Items() {
					_ = d.SetKey(kv[0], kv[1])
				}
			}
			return &chainMap{maps: starlark.NewList(append([]starlark.Value{d}, c.rest()...)), thread: thread}, nil
		})
	case "pop":
		return method(func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var k, dflt starlark.Value
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &k, &dflt); err != nil {
				return nil, err
			}
			v, err := c.popFirst(thread, k)
			if err != nil && dflt != nil {
				var ex *pyrt.Exception
				if errors.As(err, &ex) && ex.Class == "KeyError" {
					return dflt, nil
				}
			}
			return v, err
		})
	case "popitem":
		return method(func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
				return nil, err
			}
			first, err := c.first()
			if err != nil {
				return nil, err
			}
			f, ok := first.(starlark.IterableMapping)
			if !ok || len(f.Items()) == 0 {
				return nil, pyrt.Errorf("KeyError", "%s", interp.QuoteString("No keys found in the first mapping."))
			}
			items := f.Items()
			kv := items[len(items)-1]
			if _, err := c.popFirst(thread, kv[0]); err != nil {
				return nil, err
			}
			return kv, nil
		})
	case "clear", "update", "setdefault":
		// On the first mapping, as its own method.
		return method(func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if name == "setdefault" {
				var k starlark.Value
				var dflt starlark.Value = starlark.None
				if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &k, &dflt); err != nil {
					return nil, err
				}
				v, found, err := c.lookup(k)
				if err != nil || found {
					return v, err
				}
				return dflt, c.SetKey(k, dflt)
			}
			first, err := c.first()
			if err != nil {
				return nil, err
			}
			fn, err := pyrt.GetAttr(thread, first, name)
			if err != nil {
				return nil, err
			}
			return starlark.Call(thread, fn, args, kwargs)
		})
	}
	return nil, nil
}
