package pyrt

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

// dict.keys(), values() and items() are Python's views: they print as
// dict_keys(['a', 'b']), follow later changes of their dict, and the
// keys and items views are set-like (d.keys() - e.keys(), d.items() &
// pairs) with results in CPython's order. Iterated, a view walks what the
// dict holds when the walk begins.

type viewKind uint8

const (
	viewKeys viewKind = iota
	viewValues
	viewItems
)

var viewNames = [...]string{"dict_keys", "dict_values", "dict_items"}

type dictView struct {
	d      *starlark.Dict
	kind   viewKind
	thread *starlark.Thread // the run that made it: budgets of its set operations
	// ordered is a view of an OrderedDict's: odict_keys, odict_values,
	// odict_items.
	ordered bool
}

var (
	_ starlark.Iterable   = (*dictView)(nil)
	_ starlark.Sequence   = (*dictView)(nil)
	_ starlark.Container  = (*dictView)(nil)
	_ starlark.HasBinary  = (*dictView)(nil)
	_ starlark.Comparable = (*dictView)(nil)
	_ starlark.HasAttrs   = (*dictView)(nil)
	_ interp.TextValue    = (*dictView)(nil)
	_ interp.GoValuer     = (*dictView)(nil)
	_ interp.Holder       = (*dictView)(nil)
)

func (v *dictView) String() string {
	s, err := interp.Repr(interp.BudgetOf(v.thread), v)
	if err != nil {
		return v.Type() + "(...)"
	}
	return s
}

func (v *dictView) Type() string {
	if v.ordered {
		return "o" + viewNames[v.kind]
	}
	return viewNames[v.kind]
}
func (v *dictView) Freeze()               { v.d.Freeze() }
func (v *dictView) Truth() starlark.Bool  { return v.d.Len() > 0 }
func (v *dictView) Hash() (uint32, error) { return 0, typeError("unhashable type: '%s'", v.Type()) }
func (v *dictView) Len() int              { return v.d.Len() }

// Held is the dict, for the memory meter.
func (v *dictView) Held(visit func(starlark.Value)) { visit(v.d) }

// elems is what the view holds now.
func (v *dictView) elems() []starlark.Value {
	switch v.kind {
	case viewKeys:
		return v.d.Keys()
	case viewValues:
		items := v.d.Items()
		out := make([]starlark.Value, len(items))
		for i, kv := range items {
			out[i] = kv[1]
		}
		return out
	}
	items := v.d.Items()
	out := make([]starlark.Value, len(items))
	for i, kv := range items {
		out[i] = kv
	}
	return out
}

func (v *dictView) Iterate() starlark.Iterator {
	if err := interp.BudgetOf(v.thread).Charge(uint64(v.d.Len())); err != nil {
		return &viewIter{}
	}
	return &viewIter{elems: v.elems()}
}

type viewIter struct {
	elems []starlark.Value
	i     int
}

func (it *viewIter) Next(p *starlark.Value) bool {
	if it.i >= len(it.elems) {
		return false
	}
	*p = it.elems[it.i]
	it.elems[it.i] = nil
	it.i++
	return true
}

func (it *viewIter) Done() {}

func (v *dictView) Has(x starlark.Value) (bool, error) {
	switch v.kind {
	case viewKeys:
		if err := checkHashable(nil, x); err != nil {
			return false, err
		}
		_, found, err := v.d.Get(x)
		return found, err
	case viewItems:
		kv, ok := x.(starlark.Tuple)
		if !ok || len(kv) != 2 {
			return false, nil
		}
		if checkHashable(nil, kv[0]) != nil {
			return false, nil
		}
		val, found, err := v.d.Get(kv[0])
		if err != nil || !found {
			return false, err
		}
		return pyEqual(interp.BudgetOf(v.thread), val, kv[1])
	}
	b := interp.BudgetOf(v.thread)
	for _, kv := range v.d.Items() {
		if err := b.Charge(1); err != nil {
			return false, err
		}
		if eq, err := pyEqual(b, kv[1], x); err != nil || eq {
			return eq, err
		}
	}
	return false, nil
}

// WriteText writes dict_keys(['a', 'b']).
func (v *dictView) WriteText(w *interp.TextWriter, _ bool, depth int) error {
	if err := w.WriteString(v.Type() + "(["); err != nil {
		return err
	}
	for i, e := range v.elems() {
		if i > 0 {
			if err := w.WriteString(", "); err != nil {
				return err
			}
		}
		if err := w.Nested(e, depth+1); err != nil {
			return err
		}
	}
	return w.WriteString("])")
}

// GoValue is the view's JSON form: a list of what it holds.
func (v *dictView) GoValue() (any, error) {
	return interp.ToGo(starlark.NewList(v.elems()))
}

// asSetOf is the view's elements as a new set, added in the dict's
// order, as CPython's set(view) makes it.
func (v *dictView) asSetOf() (*setBuild, error) {
	sb := newSetBuild(interp.BudgetOf(v.thread))
	for _, e := range v.elems() {
		if err := checkHashable(sb.b, e); err != nil {
			return nil, err
		}
		if err := sb.add(e); err != nil {
			return nil, err
		}
	}
	return sb, nil
}

// Binary is the set operators of the keys and items views, with any
// iterable on the other side; the result is a set.
func (v *dictView) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if v.kind == viewValues {
		return nil, nil
	}
	switch op {
	case syntax.PIPE, syntax.AMP, syntax.MINUS, syntax.CIRCUMFLEX:
	default:
		return nil, nil
	}
	if it := starlark.Iterate(y); it != nil {
		it.Done()
	} else if _, ok := y.(*pyIter); !ok {
		if _, ok := interp.AsText(y); !ok {
			return nil, nil
		}
	}
	thread := v.thread
	if op == syntax.AMP {
		return v.intersect(y)
	}
	// The left operand made a set, changed by the right one.
	var sb *setBuild
	var err error
	var other starlark.Value = y
	if side == starlark.Left {
		sb, err = v.asSetOf()
	} else {
		sb = newSetBuild(interp.BudgetOf(thread))
		err = sb.update(thread, y)
		other = v
	}
	if err != nil {
		return nil, err
	}
	switch op {
	case syntax.PIPE:
		err = sb.update(thread, other)
	case syntax.MINUS:
		err = sb.differenceUpdate(thread, other)
	case syntax.CIRCUMFLEX:
		err = sb.symmetricUpdate(thread, other)
	}
	if err != nil {
		return nil, err
	}
	return sb.done(), nil
}

// intersect is view & other (either side): a set larger than the view
// intersects it as a set; otherwise the smaller of two views, or any
// other iterable, is walked and what the view holds kept.
func (v *dictView) intersect(other starlark.Value) (starlark.Value, error) {
	thread := v.thread
	b := interp.BudgetOf(thread)
	self := v
	if s, ok := other.(*starlark.Set); ok && v.Len() <= s.Len() {
		sb, err := setIntersection(thread, s, v)
		if err != nil {
			return nil, err
		}
		return sb.done(), nil
	}
	if ov, ok := other.(*dictView); ok && ov.kind != viewValues && ov.Len() > v.Len() {
		self, other = ov, v
	}
	sb := newSetBuild(b)
	err := forEach(thread, other, func(x starlark.Value) (bool, error) {
		in, err := self.Has(x)
		if err != nil || !in {
			return err != nil, err
		}
		if err := checkHashable(b, x); err != nil {
			return true, err
		}
		return false, sb.add(x)
	})
	if err != nil {
		return nil, err
	}
	return sb.done(), nil
}

// CompareSameType compares two views: keys and items as sets, values
// only by identity, as in Python.
func (v *dictView) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	w := y.(*dictView)
	if v.kind == viewValues {
		switch op {
		case syntax.EQL:
			return v == w, nil
		case syntax.NEQ:
			return v != w, nil
		}
		return false, typeError("'%s' not supported between instances of 'dict_values' and 'dict_values'", op)
	}
	within := func(a, b *dictView) (bool, error) {
		if a.Len() > b.Len() {
			return false, nil
		}
		if err := interp.BudgetOf(v.thread).Charge(uint64(a.Len())); err != nil {
			return false, err
		}
		for _, e := range a.elems() {
			if in, err := b.Has(e); err != nil || !in {
				return false, err
			}
		}
		return true, nil
	}
	switch op {
	case syntax.EQL, syntax.NEQ:
		eq := v.Len() == w.Len()
		if eq {
			var err error
			if eq, err = within(v, w); err != nil {
				return false, err
			}
		}
		return eq == (op == syntax.EQL), nil
	case syntax.LE:
		return within(v, w)
	case syntax.GE:
		return within(w, v)
	case syntax.LT:
		ok, err := within(v, w)
		return ok && v.Len() < w.Len(), err
	case syntax.GT:
		ok, err := within(w, v)
		return ok && v.Len() > w.Len(), err
	}
	return false, nil
}

func (v *dictView) AttrNames() []string {
	if v.kind == viewValues {
		return []string{"mapping"}
	}
	return []string{"isdisjoint", "mapping"}
}

func (v *dictView) Attr(name string) (starlark.Value, error) {
	switch name {
	case "mapping":
		return v.d, nil
	case "isdisjoint":
		if v.kind == viewValues {
			break
		}
		return interp.NewBuiltin("isdisjoint", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := arity(v.Type()+".isdisjoint", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			disjoint := true
			err := forEach(thread, args[0], func(x starlark.Value) (bool, error) {
				in, err := v.Has(x)
				if in {
					disjoint = false
				}
				return in || err != nil, err
			})
			return starlark.Bool(disjoint), err
		}), nil
	}
	return nil, nil
}

// dictViewMethod is dict.keys(), values() or items().
func dictViewMethod(kind viewKind) methodImpl {
	return func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		name := [...]string{"keys", "values", "items"}[kind]
		if err := arity("dict."+name, args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		return &dictView{d: recv.(*starlark.Dict), kind: kind, thread: thread}, nil
	}
}

// setLikePair is x and y as sets when both are set-like (a set, a
// frozenset, a dict's keys or items) and one is not a set of its own
// kind as the other: a view made a set of what it holds.
func setLikePair(x, y starlark.Value) (starlark.Value, starlark.Value, bool) {
	asSetLike := func(v starlark.Value) (starlark.Value, bool) {
		switch v := v.(type) {
		case *starlark.Set:
			return v, true
		case *frozenSet:
			return v.set, true
		case *dictView:
			if v.kind == viewValues {
				return nil, false
			}
			sb, err := v.asSetOf()
			if err != nil {
				return nil, false
			}
			return sb.s, true
		}
		return nil, false
	}
	if x.Type() == y.Type() {
		return nil, nil, false
	}
	xs, ok1 := asSetLike(x)
	ys, ok2 := asSetLike(y)
	if !ok1 || !ok2 {
		return nil, nil, false
	}
	return xs, ys, true
}
