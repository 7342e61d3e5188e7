package pyrt

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

// The set operations, each as CPython performs it on its tables (see
// setorder.go), so that the set it makes or changes walks its elements in
// CPython's order: a union copies its left operand and sizes the table
// once for the right; an intersection walks the smaller operand; a
// difference walks its left operand (or, when that is much larger than
// the right, copies it and frees what the right holds); a symmetric
// difference copies the right and toggles the left's elements in it.
// Every element visited is charged to the run's budget.

// setBuild is a set being made or changed, with its table (nil when the
// hash of an element is unknown: the set keeps the order of insertion).
type setBuild struct {
	b *interp.Budget
	s *starlark.Set
	t *setTable
	// pending: no table is made yet, and none is needed while only
	// elements are added (the order of insertion replays it).
	pending bool
	// replayable: the set's order of insertion replays its table (only
	// elements added to a new set), so none needs keeping.
	replayable bool
}

func newSetBuild(b *interp.Budget) *setBuild {
	return &setBuild{b: b, s: starlark.NewSet(0), pending: true, replayable: true}
}

// table makes the table of a set built so far by additions, when an
// operation other than adding needs it.
func (sb *setBuild) table() error {
	if !sb.pending {
		return nil
	}
	sb.pending = false
	t, err := tableOf(sb.b, sb.s, false)
	sb.t = t
	return err
}

// changeSet starts changing s in place.
func changeSet(b *interp.Budget, s *starlark.Set) (*setBuild, error) {
	replayable := storedTable(s) == nil
	t, err := tableOf(b, s, false)
	return &setBuild{b: b, s: s, t: t, replayable: replayable}, err
}

// done keeps the table of the set made or changed, and returns the set.
func (sb *setBuild) done() *starlark.Set {
	if sb.pending {
		return sb.s
	}
	if !sb.replayable && sb.t != nil && sb.t.replays() {
		// Its elements, added in the table's order, make the table
		// again: no table to keep.
		if err := sb.s.Clear(); err == nil {
			for _, v := range sb.t.order() {
				_ = sb.s.Insert(v)
			}
			keepTable(sb.s, nil)
			return sb.s
		}
	}
	if !sb.replayable || sb.t == nil {
		keepTable(sb.s, sb.t)
	}
	return sb.s
}

// elems is the set's elements in its order.
func (sb *setBuild) elems() ([]starlark.Value, error) {
	if sb.pending {
		return setElems(sb.b, sb.s)
	}
	if sb.t != nil {
		return sb.t.order(), nil
	}
	out := make([]starlark.Value, 0, sb.s.Len())
	for v := range sb.s.Elements() {
		out = append(out, v)
	}
	return out, nil
}

func (sb *setBuild) add(v starlark.Value) error {
	if err := sb.b.Charge(1); err != nil {
		return err
	}
	n := sb.s.Len()
	if err := tableRoom(sb.b, n); err != nil {
		return err
	}
	if err := sb.s.Insert(v); err != nil {
		return err
	}
	if n++; n&1023 == 0 {
		// A set filled from an endless iterator (set(count())) ends at
		// the memory budget: the set and the table that keeps CPython's
		// order, which no variable shows the meter yet.
		if err := sb.b.Fits(interp.TableBytes(n) + sb.t.bytes()); err != nil {
			return err
		}
	}
	if sb.t != nil && !sb.pending {
		h, ok := knownHash(v, 0)
		if !ok {
			sb.t = nil
			return nil
		}
		return sb.t.add(v, h)
	}
	return nil
}

func (sb *setBuild) discard(v starlark.Value) (bool, error) {
	if err := sb.b.Charge(1); err != nil {
		return false, err
	}
	if err := sb.table(); err != nil {
		return false, err
	}
	found, err := sb.s.Delete(v)
	if err != nil || !found {
		return found, err
	}
	sb.replayable = false
	if sb.t != nil {
		h, _ := knownHash(v, 0)
		_, err = sb.t.discard(v, h)
	}
	return true, err
}

func (sb *setBuild) clear() error {
	if err := sb.s.Clear(); err != nil {
		return err
	}
	sb.t, sb.replayable, sb.pending = newSetTable(), false, false
	return nil
}

// merge adds the elements of the set o as CPython's set_merge does.
func (sb *setBuild) merge(o *starlark.Set) error {
	if o == sb.s || o.Len() == 0 {
		return nil
	}
	if err := sb.b.Alloc(int64(o.Len()) * 3 * slot); err != nil {
		return err
	}
	if err := sb.table(); err != nil {
		return err
	}
	ot, err := tableOf(sb.b, o, false)
	if err != nil {
		return err
	}
	var elems []starlark.Value
	if ot != nil {
		elems = ot.order()
	} else {
		for v := range o.Elements() {
			elems = append(elems, v)
		}
	}
	if err := sb.b.Charge(uint64(len(elems))); err != nil {
		return err
	}
	for _, v := range elems {
		if err := sb.s.Insert(v); err != nil {
			return err
		}
	}
	sb.replayable = false
	if sb.t != nil {
		if ot == nil {
			sb.t = nil
			return nil
		}
		return sb.t.merge(ot)
	}
	return nil
}

// asSet is the set of a set or frozenset.
func asSet(v starlark.Value) (*starlark.Set, bool) {
	switch x := v.(type) {
	case *starlark.Set:
		return x, true
	case *frozenSet:
		return x.set, true
	}
	return nil, false
}

// update adds the elements of any iterable, as CPython's
// set_update_internal: a set merged, a dict's keys after sizing the table
// once, anything else one element at a time.
func (sb *setBuild) update(thread *starlark.Thread, other starlark.Value) error {
	if o, ok := asSet(other); ok {
		return sb.merge(o)
	}
	if n := lenHint(other); n > 0 {
		if err := sb.b.Alloc(int64(n) * 3 * slot); err != nil {
			return err
		}
	}
	if d, ok := other.(*starlark.Dict); ok {
		if err := sb.table(); err != nil {
			return err
		}
		if t := sb.t; t != nil && (t.fill+d.Len())*5 >= int(t.mask)*3 {
			t.resize((t.used + d.Len()) * 2)
			sb.replayable = false
		}
		for _, k := range d.Keys() {
			if err := sb.add(k); err != nil {
				return err
			}
		}
		return nil
	}
	// A new set (set(count())) is in no variable yet: what it holds
	// counts while it grows.
	defer sb.b.Hold(func(visit func(starlark.Value)) { visit(sb.s) })()
	return forEach(thread, other, func(x starlark.Value) (bool, error) {
		if err := checkHashable(sb.b, x); err != nil {
			return true, err
		}
		return false, sb.add(x)
	})
}

// setCopyOf is a new set with the elements of x.
func setCopyOf(b *interp.Budget, x *starlark.Set) (*setBuild, error) {
	sb := newSetBuild(b)
	return sb, sb.merge(x)
}

// has reports whether the set or dict c holds v.
func has(c starlark.Value, v starlark.Value) (bool, error) {
	if d, ok := c.(*starlark.Dict); ok {
		_, found, err := d.Get(v)
		return found, err
	}
	s, _ := asSet(c)
	return s.Has(v)
}

// setUnion is x | others[0] | …: a copy of x updated with each.
func setUnion(thread *starlark.Thread, x *starlark.Set, others ...starlark.Value) (*setBuild, error) {
	sb, err := setCopyOf(interp.BudgetOf(thread), x)
	if err != nil {
		return nil, err
	}
	for _, o := range others {
		if s, ok := asSet(o); ok && s == x {
			continue
		}
		if err := sb.update(thread, o); err != nil {
			return nil, err
		}
	}
	return sb, nil
}

// setIntersection is x & other: the elements of the smaller of two sets
// that the other holds, or those of an iterable that x holds.
func setIntersection(thread *starlark.Thread, x *starlark.Set, other starlark.Value) (*setBuild, error) {
	b := interp.BudgetOf(thread)
	y, isSet := asSet(other)
	if isSet && y == x {
		return setCopyOf(b, x)
	}
	sb := newSetBuild(b)
	if isSet {
		small, big := y, x
		if y.Len() > x.Len() {
			small, big = x, y
		}
		elems, err := setElems(b, small)
		if err != nil {
			return nil, err
		}
		for _, v := range elems {
			in, err := big.Has(v)
			if err != nil {
				return nil, err
			}
			if in {
				if err := sb.add(v); err != nil {
					return nil, err
				}
			}
		}
		return sb, nil
	}
	if n := lenHint(other); n > 0 {
		// As long as a set of them would be: refused at once if too long.
		if err := b.Alloc(int64(n) * 3 * slot); err != nil {
			return nil, err
		}
	}
	return sb, forEach(thread, other, func(v starlark.Value) (bool, error) {
		if err := checkHashable(b, v); err != nil {
			return true, err
		}
		in, err := x.Has(v)
		if err != nil || !in {
			return err != nil, err
		}
		return false, sb.add(v)
	})
}

// setDifference is x - other.
func setDifference(thread *starlark.Thread, x *starlark.Set, other starlark.Value) (*setBuild, error) {
	b := interp.BudgetOf(thread)
	size := -1
	if y, ok := asSet(other); ok {
		size = y.Len()
	} else if d, ok := other.(*starlark.Dict); ok {
		size = d.Len()
	}
	if size < 0 || x.Len()>>2 > size {
		// Copied, then what other holds freed.
		sb, err := setCopyOf(b, x)
		if err != nil {
			return nil, err
		}
		return sb, sb.differenceUpdate(thread, other)
	}
	elems, err := setElems(b, x)
	if err != nil {
		return nil, err
	}
	sb := newSetBuild(b)
	for _, v := range elems {
		in, err := has(other, v)
		if err != nil {
			return nil, err
		}
		if !in {
			if err := sb.add(v); err != nil {
				return nil, err
			}
		}
	}
	return sb, nil
}

// differenceUpdate frees the elements of other, as set -= other.
func (sb *setBuild) differenceUpdate(thread *starlark.Thread, other starlark.Value) error {
	if y, ok := asSet(other); ok {
		if y == sb.s {
			return sb.clear()
		}
		var elems []starlark.Value
		if y.Len()>>3 > sb.s.Len() {
			// A much larger other: what both hold is what to free.
			common, err := setIntersection(thread, sb.s, y)
			if err != nil {
				return err
			}
			if elems, err = common.elems(); err != nil {
				return err
			}
		} else {
			var err error
			if elems, err = setElems(sb.b, y); err != nil {
				return err
			}
		}
		for _, v := range elems {
			if _, err := sb.discard(v); err != nil {
				return err
			}
		}
	} else if err := forEach(thread, other, func(v starlark.Value) (bool, error) {
		if err := checkHashable(sb.b, v); err != nil {
			return true, err
		}
		_, err := sb.discard(v)
		return err != nil, err
	}); err != nil {
		return err
	}
	// More than a quarter of the table freed: CPython rebuilds it.
	if t := sb.t; t != nil && t.fill-t.used > int(t.mask)/4 {
		grow := t.used * 4
		if t.used > 50000 {
			grow = t.used * 2
		}
		t.resize(grow)
	}
	return nil
}

// symmetricUpdate toggles the elements of other: freed when there,
// added when not, as set ^= other.
func (sb *setBuild) symmetricUpdate(thread *starlark.Thread, other starlark.Value) error {
	var elems []starlark.Value
	if y, ok := asSet(other); ok {
		if y == sb.s {
			return sb.clear()
		}
		var err error
		if elems, err = setElems(sb.b, y); err != nil {
			return err
		}
	} else if d, ok := other.(*starlark.Dict); ok {
		elems = d.Keys()
	} else {
		o := newSetBuild(sb.b)
		if err := o.update(thread, other); err != nil {
			return err
		}
		var err error
		if elems, err = o.elems(); err != nil {
			return err
		}
	}
	for _, v := range elems {
		found, err := sb.discard(v)
		if err != nil {
			return err
		}
		if !found {
			if err := sb.add(v); err != nil {
				return err
			}
		}
	}
	return nil
}

// setSymmetricDifference is x ^ other: a set of other's elements with
// x's toggled in it.
func setSymmetricDifference(thread *starlark.Thread, x *starlark.Set, other starlark.Value) (*setBuild, error) {
	sb := newSetBuild(interp.BudgetOf(thread))
	if err := sb.update(thread, other); err != nil {
		return nil, err
	}
	return sb, sb.symmetricUpdate(thread, x)
}

// replaceWith makes s hold the elements (and table) of r, as CPython's
// in-place intersection swaps the bodies of the two sets.
func replaceWith(s *starlark.Set, r *setBuild) error {
	if err := r.table(); err != nil {
		return err
	}
	elems, err := r.elems()
	if err != nil {
		return err
	}
	if err := s.Clear(); err != nil {
		return err
	}
	for _, v := range elems {
		if err := s.Insert(v); err != nil {
			return err
		}
	}
	keepTable(s, r.t)
	return nil
}

// setBinary is x op y for a set or frozenset x and y, with CPython's
// algorithm; the result is a frozenset when x is one. ok is false when
// either is not a set.
func setBinary(thread *starlark.Thread, op syntax.Token, x, y starlark.Value) (starlark.Value, bool, error) {
	xs, ok1 := asSet(x)
	_, ok2 := asSet(y)
	if !ok1 || !ok2 {
		return nil, false, nil
	}
	var sb *setBuild
	var err error
	switch op {
	case syntax.PIPE:
		sb, err = setUnion(thread, xs, y)
	case syntax.AMP:
		sb, err = setIntersection(thread, xs, y)
	case syntax.MINUS:
		sb, err = setDifference(thread, xs, y)
	case syntax.CIRCUMFLEX:
		sb, err = setSymmetricDifference(thread, xs, y)
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	out := sb.done()
	if _, frozen := x.(*frozenSet); frozen {
		fs, err := newFrozenSet(interp.BudgetOf(thread), out)
		return fs, true, err
	}
	return out, true, nil
}

// setOps are the helpers of the set operators: __ot_or(x, y) is x | y
// (and so on), CPython's algorithm for two sets, the interpreter's
// operator for anything else; __ot_ior(x, y) is x |= y, which changes a
// set (or dict) x in place, as Python does, and returns it.
func setOps() starlark.StringDict {
	d := starlark.StringDict{}
	for name, op := range map[string]syntax.Token{"or": syntax.PIPE, "and": syntax.AMP, "sub": syntax.MINUS, "xor": syntax.CIRCUMFLEX} {
		d["__ot_"+name] = interp.NewBuiltin("__ot_"+name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			x, y := args[0], args[1]
			if v, ok, err := setBinary(thread, op, x, y); ok {
				return v, err
			}
			if op == syntax.MINUS {
				if v, ok, err := subInts(thread, x, y); ok {
					return v, err
				}
			}
			return starlark.Binary(op, x, y)
		})
		d["__ot_i"+name] = interp.NewBuiltin("__ot_i"+name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			x, y := args[0], args[1]
			switch xv := x.(type) {
			case *starlark.Set:
				if _, ok := asSet(y); !ok {
					return nil, typeError("unsupported operand type(s) for %s=: 'set' and '%s'", op, pyTypeName(y))
				}
				return xv, setInPlace(thread, op, xv, y)
			case *starlark.Dict:
				if op == syntax.PIPE {
					if err := updateDict(thread, xv, starlark.Tuple{y}, nil); err != nil {
						return nil, err
					}
					return xv, nil
				}
			}
			if v, ok, err := setBinary(thread, op, x, y); ok {
				return v, err
			}
			if op == syntax.MINUS {
				if v, ok, err := subInts(thread, x, y); ok {
					return v, err
				}
			}
			return starlark.Binary(op, x, y)
		})
	}
	return d
}

// setInPlace is s op= other for a set s.
func setInPlace(thread *starlark.Thread, op syntax.Token, s *starlark.Set, other starlark.Value) error {
	b := interp.BudgetOf(thread)
	if op == syntax.AMP {
		r, err := setIntersection(thread, s, other)
		if err != nil {
			return err
		}
		return replaceWith(s, r)
	}
	sb, err := changeSet(b, s)
	if err != nil {
		return err
	}
	switch op {
	case syntax.PIPE:
		err = sb.update(thread, other)
	case syntax.MINUS:
		err = sb.differenceUpdate(thread, other)
	case syntax.CIRCUMFLEX:
		err = sb.symmetricUpdate(thread, other)
	}
	sb.done()
	return err
}

// setConst is __ot_setconst([…]), a display of three or more constants.
// CPython's compiler makes those a frozenset, which it makes again from
// the first one's elements (in its order) as it stores it with the
// program; at run time the set is a copy of it, in a table sized for
// them (not grown one element at a time).
func setConst(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	b := interp.BudgetOf(thread)
	elems, ok := args[0].(*starlark.List)
	if !ok {
		return nil, typeError("__ot_setconst takes a list")
	}
	if err := b.Charge(uint64(elems.Len())); err != nil {
		return nil, err
	}
	first := newSetTable()
	for i := range elems.Len() {
		v := elems.Index(i)
		if err := checkHashable(b, v); err != nil {
			return nil, err
		}
		h, known := knownHash(v, 0)
		if !known {
			// Text: no order to model; the set as it comes.
			s := starlark.NewSet(elems.Len())
			for i := range elems.Len() {
				if err := s.Insert(elems.Index(i)); err != nil {
					return nil, err
				}
			}
			return s, nil
		}
		if err := first.add(v, h); err != nil {
			return nil, err
		}
	}
	order := first.order()
	s := starlark.NewSet(len(order))
	if len(order) < 5 {
		// The copy takes the stored frozenset's slots as they are, and
		// the stored frozenset is made by adding the first one's
		// elements in order: adding them so to the set replays both.
		for _, v := range order {
			if err := s.Insert(v); err != nil {
				return nil, err
			}
		}
		return s, nil
	}
	stored := newSetTable()
	for _, v := range order {
		h, _ := knownHash(v, 0)
		if err := stored.add(v, h); err != nil {
			return nil, err
		}
	}
	final := newSetTable()
	if err := final.merge(stored); err != nil {
		return nil, err
	}
	for _, v := range final.order() {
		if err := s.Insert(v); err != nil {
			return nil, err
		}
	}
	keepTable(s, final)
	return s, nil
}
