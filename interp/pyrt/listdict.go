package pyrt

import (
	"slices"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

// The dict, set, frozenset and bytes constructors, and the list, tuple,
// dict and set methods that Starlark lacks or has with other arguments
// or errors. Calls of these methods are lowered to helpers (see
// loweredMethod), which dispatch on the receiver's kind; every element
// they visit is charged to the run's budget.

// addContainerMethods registers the methods of this file.
func addContainerMethods(ms methodSet) {
	ms.add(kindList, "sort", listSort)
	ms.add(kindList, "copy", listCopy)
	ms.add(kindList, "count", seqCount)
	ms.add(kindTuple, "count", seqCount)
	ms.add(kindList, "index", seqIndex)
	ms.add(kindTuple, "index", seqIndex)
	ms.add(kindList, "reverse", listReverse)
	ms.add(kindList, "remove", listRemove)
	ms.add(kindList, "pop", listPop)
	ms.add(kindList, "extend", listExtend)

	ms.add(kindDict, "copy", dictCopy)
	ms.add(kindDict, "pop", dictPop)
	ms.add(kindDict, "popitem", dictPopitem)
	ms.add(kindDict, "update", dictUpdate)
	ms.add(kindDict, "keys", dictViewMethod(viewKeys))
	ms.add(kindDict, "values", dictViewMethod(viewValues))
	ms.add(kindDict, "items", dictViewMethod(viewItems))

	ms.add(kindSet, "copy", setCopy)
	ms.add(kindSet, "remove", setRemove)
	ms.add(kindSet, "pop", setPop)
	ms.add(kindSet, "add", setAddMethod)
	ms.add(kindSet, "discard", setDiscardMethod)
	ms.add(kindSet, "clear", setClearMethod)
	ms.add(kindSet, "isdisjoint", setMethod(setIsdisjoint))
	ms.add(kindSet, "issubset", setMethod(setIssubset))
	ms.add(kindSet, "issuperset", setMethod(setIssuperset))
	for name, op := range setAlgebra {
		ms.add(kindSet, name, setMethod(setAlgebraMethod(name, op, false)))
		if op != syntax.PIPE {
			ms.add(kindSet, name+"_update", setUpdateMethod(name+"_update", op))
		}
	}
	ms.add(kindSet, "update", setUpdateMethod("update", syntax.PIPE))
	// A dict has none of the set algebra: the helpers call its own
	// attribute, which fails with Python's AttributeError.
}

func listElems(l *starlark.List) []starlark.Value {
	out := make([]starlark.Value, l.Len())
	for i := range out {
		out[i] = l.Index(i)
	}
	return out
}

// setList replaces the elements of l by elems, of the same length.
func setList(l *starlark.List, elems []starlark.Value) error {
	for i, x := range elems {
		if err := l.SetIndex(i, x); err != nil {
			return err
		}
	}
	return nil
}

// listSort is list.sort(*, key=None, reverse=False): stable, in place.
func listSort(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	l := recv.(*starlark.List)
	if len(args) > 0 {
		return nil, typeError("sort() takes no positional arguments")
	}
	var key, rev starlark.Value
	if err := unpackArgs("sort", nil, kwargs, []string{"key", "reverse"}, 0, &key, &rev); err != nil {
		return nil, err
	}
	if key == nil {
		key = starlark.None
	}
	reverse := false
	if rev != nil {
		n, err := indexInt(rev)
		if err != nil {
			return nil, err
		}
		reverse = n != 0
	}
	if err := checkMutable(l); err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	if err := b.Alloc(int64(l.Len()) * 2 * slot); err != nil {
		return nil, err
	}
	values := listElems(l)
	keys := values
	if key != starlark.None {
		fn, ok := key.(starlark.Callable)
		if !ok {
			return nil, typeError("'%s' object is not callable", pyTypeName(key))
		}
		keys = make([]starlark.Value, len(values))
		var arg starlark.Tuple
		for i, v := range values {
			k, err := call1(thread, fn, &arg, v)
			if err != nil {
				return nil, err
			}
			keys[i] = k
		}
	}
	if err := pySort(b, keys, values, reverse); err != nil {
		return nil, err
	}
	if l.Len() != len(values) {
		return nil, valueError("list modified during sort")
	}
	return starlark.None, setList(l, values)
}

// checkMutable fails when l is frozen or being iterated.
func checkMutable(l *starlark.List) error {
	if l.Len() == 0 {
		if err := l.Append(starlark.None); err != nil {
			return err
		}
		return l.Clear()
	}
	return l.SetIndex(0, l.Index(0))
}

func listCopy(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("list.copy", args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	l := recv.(*starlark.List)
	if err := interp.BudgetOf(thread).Alloc(int64(l.Len()) * slot); err != nil {
		return nil, err
	}
	return starlark.NewList(listElems(l)), nil
}

// seqCount is list.count(x) and tuple.count(x).
func seqCount(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity(pyTypeName(recv)+".count", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	x := args[0]
	seq := recv.(starlark.Indexable)
	b := interp.BudgetOf(thread)
	n := 0
	for i := 0; i < seq.Len(); i++ {
		eq, err := pyEqual(b, seq.Index(i), x)
		if err != nil {
			return nil, err
		}
		if eq {
			n++
		}
	}
	return starlark.MakeInt(n), nil
}

// seqIndex is list.index(x[, start[, end]]) and tuple.index.
func seqIndex(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("index", args, kwargs, 1, 3); err != nil {
		return nil, err
	}
	seq := recv.(starlark.Indexable)
	n := seq.Len()
	start, end := 0, n
	bound := func(v starlark.Value) (int, error) {
		i, err := indexInt(v)
		if err != nil {
			return 0, typeError("slice indices must be integers or have an __index__ method")
		}
		if i < 0 {
			i += int64(n)
			if i < 0 {
				i = 0
			}
		}
		if i > int64(n) {
			i = int64(n)
		}
		return int(i), nil
	}
	var err error
	if len(args) > 1 {
		if start, err = bound(args[1]); err != nil {
			return nil, err
		}
	}
	if len(args) > 2 {
		if end, err = bound(args[2]); err != nil {
			return nil, err
		}
	}
	b := interp.BudgetOf(thread)
	for i := start; i < end && i < seq.Len(); i++ {
		eq, err := pyEqual(b, seq.Index(i), args[0])
		if err != nil {
			return nil, err
		}
		if eq {
			return starlark.MakeInt(i), nil
		}
	}
	if _, ok := recv.(starlark.Tuple); ok {
		return nil, valueError("tuple.index(x): x not in tuple")
	}
	r, err := interp.Repr(b, args[0])
	if err != nil {
		return nil, err
	}
	return nil, valueError("%s is not in list", r)
}

func listReverse(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("list.reverse", args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	l := recv.(*starlark.List)
	elems := listElems(l)
	slices.Reverse(elems)
	return starlark.None, setList(l, elems)
}

func listRemove(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("list.remove", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	x := args[0]
	l := recv.(*starlark.List)
	b := interp.BudgetOf(thread)
	for i := 0; i < l.Len(); i++ {
		eq, err := pyEqual(b, l.Index(i), x)
		if err != nil {
			return nil, err
		}
		if eq {
			return callOwn(thread, l, "pop", starlark.Tuple{starlark.MakeInt(i)}, nil)
		}
	}
	return nil, valueError("list.remove(x): x not in list")
}

// listPop is list.pop(i=-1), with Python's IndexError.
func listPop(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("pop", args, kwargs, 0, 1); err != nil {
		return nil, err
	}
	var iv starlark.Value = starlark.MakeInt(-1)
	if len(args) == 1 {
		iv = args[0]
	}
	i, err := indexInt(iv)
	if err != nil {
		return nil, err
	}
	l := recv.(*starlark.List)
	n := int64(l.Len())
	if n == 0 {
		return nil, indexError("pop from empty list")
	}
	if i < 0 {
		i += n
	}
	if i < 0 || i >= n {
		return nil, indexError("pop index out of range")
	}
	return callOwn(thread, l, "pop", starlark.Tuple{starlark.MakeInt64(i)}, nil)
}

// listExtend is list.extend(iterable): a str adds its characters, an
// iterator its elements; the length of the iterable is checked against
// the memory budget first (go.starlark.net grows a list by a whole
// iterable in one call).
func listExtend(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("list.extend", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	iterable := args[0]
	l := recv.(*starlark.List)
	if err := checkMutable(l); err != nil {
		return nil, err
	}
	// The list as it will be, refused before it grows (xs += xs doubles
	// it, as in Python).
	if n := lenHint(iterable); n > 0 {
		if err := interp.BudgetOf(thread).Alloc(int64(l.Len()+n) * slot); err != nil {
			return nil, err
		}
	}
	if iterable == l {
		return callOwn(thread, l, "extend", starlark.Tuple{starlark.NewList(listElems(l))}, nil)
	}
	elems, err := collectAll(thread, iterable)
	if err != nil {
		return nil, err
	}
	for _, x := range elems {
		if err := l.Append(x); err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}

// collectAll is the elements of any iterable, charged, with the errors of
// an iterator's function returned.
func collectAll(thread *starlark.Thread, iterable starlark.Value) ([]starlark.Value, error) {
	b := interp.BudgetOf(thread)
	if n := lenHint(iterable); n > 0 {
		if err := b.Alloc(int64(n) * slot); err != nil {
			return nil, err
		}
	}
	var out []starlark.Value
	defer b.HoldValues(&out)()
	err := forEach(thread, iterable, func(x starlark.Value) (bool, error) {
		var err error
		out, err = appendCharged(b, out, x, slot)
		return err != nil, err
	})
	return out, err
}

// dictBuiltin is dict(mapping_or_pairs=(), **kwargs).
func dictBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 1 {
		return nil, typeError("dict expected at most 1 argument, got %d", len(args))
	}
	d := starlark.NewDict(len(kwargs))
	if err := updateDict(thread, d, args, kwargs); err != nil {
		return nil, err
	}
	return d, nil
}

// keysMethod is v's keys method when v has one (and is not a str, list
// or other builtin without it), nil otherwise.
func keysMethod(v starlark.Value) starlark.Value {
	ha, ok := v.(starlark.HasAttrs)
	if !ok {
		return nil
	}
	k, err := ha.Attr("keys")
	if err != nil || k == nil {
		return nil
	}
	if _, ok := k.(starlark.Callable); !ok {
		return nil
	}
	return k
}

// updateDict adds to d the entries of a mapping or of an iterable of
// pairs, then the keyword arguments, with CPython's errors.
func updateDict(thread *starlark.Thread, d *starlark.Dict, args starlark.Tuple, kwargs []starlark.Tuple) error {
	b := interp.BudgetOf(thread)
	// d may be a new dict, in no variable yet (dict(zip(count(),
	// count()))): what it holds counts while it grows.
	defer b.Hold(func(visit func(starlark.Value)) { visit(d) })()
	if len(args) == 1 {
		if b := heldBuiltin(args[0]); b != nil {
			args = starlark.Tuple{b} // a dict's subclass: its pairs
		}
		switch src := args[0].(type) {
		case *starlark.Dict:
			if err := b.Alloc(int64(src.Len()) * 3 * slot); err != nil {
				return err
			}
			for _, kv := range src.Items() { // a copy: d.update(d) changes src
				if err := b.Charge(1); err != nil {
					return err
				}
				if err := d.SetKey(kv[0], kv[1]); err != nil {
					return err
				}
			}
		case starlark.IterableMapping:
			// The dicts of interp/stdlib's collections (Counter,
			// defaultdict, OrderedDict) copy as mappings, not as pairs.
			if n := starlark.Len(src); n > 0 {
				if err := b.Alloc(int64(n) * 3 * slot); err != nil {
					return err
				}
			}
			items := src.Items()
			for _, kv := range items {
				if err := b.Charge(1); err != nil {
					return err
				}
				if err := d.SetKey(kv[0], kv[1]); err != nil {
					return err
				}
			}
		default:
			if keys := keysMethod(src); keys != nil {
				// CPython's rule: a value with a keys() method is a
				// mapping (an sqlite3.Row, a class of the program's).
				ks, err := starlark.Call(thread, keys, nil, nil)
				if err != nil {
					return err
				}
				err = forEach(thread, ks, func(k starlark.Value) (bool, error) {
					v, err := GetItem(thread, src, k)
					if err == nil {
						err = d.SetKey(k, v)
					}
					if err == nil {
						err = dictGrew(b, d)
					}
					return err != nil, err
				})
				if err != nil {
					return err
				}
				break
			}
			if n := lenHint(src); n > 0 {
				if err := b.Alloc(int64(n) * 3 * slot); err != nil {
					return err
				}
			}
			i := 0
			err := forEach(thread, src, func(pair starlark.Value) (bool, error) {
				kv, err := dictPair(thread, pair, i)
				if err != nil {
					return true, err
				}
				if err := checkHashable(b, kv[0]); err != nil {
					return true, err
				}
				i++
				if err := d.SetKey(kv[0], kv[1]); err != nil {
					return true, err
				}
				return false, dictGrew(b, d)
			})
			if err != nil {
				return err
			}
		}
	}
	for _, kv := range kwargs {
		if err := d.SetKey(kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// dictGrew refuses a dict a builtin is filling from an iterable once its
// table alone would exceed the run's memory budget (it looks every 1024
// entries), or once the larger table the next entry makes it take would
// not fit beside everything else the run holds: an endless iterator
// (dict(zip(count(), count()))) ends at the budget, not at the deadline,
// and before its table doubles past it.
func dictGrew(b *interp.Budget, d *starlark.Dict) error {
	n := d.Len()
	if n&1023 == 0 {
		if err := b.Fits(interp.TableBytes(n)); err != nil {
			return err
		}
	}
	return tableRoom(b, n)
}

// tableRoom asks the run's budget for the room a hash table of n entries
// (a dict's or a set's) takes more when one more entry is added:
// nothing, or, when go.starlark.net is about to double the table, the
// larger table (the old one, which the meter sees, goes after the copy).
func tableRoom(b *interp.Budget, n int) error {
	if grow := interp.TableGrowth(n); grow > 0 {
		return b.Room(grow)
	}
	return nil
}

// dictPair reads element i of the pairs given to dict() or dict.update:
// any iterable of two elements.
func dictPair(thread *starlark.Thread, pair starlark.Value, i int) ([2]starlark.Value, error) {
	var elems []starlark.Value
	switch p := pair.(type) {
	case starlark.Tuple:
		elems = p
	case *starlark.List:
		elems = listElems(p)
	default:
		if starlark.Iterate(pair) == nil && !isText(pair) {
			if _, ok := ownIterator(thread, pair); !ok {
				return [2]starlark.Value{}, typeError("cannot convert dictionary update sequence element #%d to a sequence", i)
			}
		}
		var err error
		if elems, err = collectAll(thread, pair); err != nil {
			return [2]starlark.Value{}, err
		}
	}
	if len(elems) != 2 {
		return [2]starlark.Value{}, valueError("dictionary update sequence element #%d has length %d; 2 is required", i, len(elems))
	}
	return [2]starlark.Value{elems[0], elems[1]}, nil
}

func isText(v starlark.Value) bool {
	_, ok := interp.AsText(v)
	return ok
}

// dictFromkeys is dict.fromkeys(iterable, value=None).
func dictFromkeys(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("fromkeys", args, kwargs, 1, 2); err != nil {
		return nil, err
	}
	iterable := args[0]
	var value starlark.Value = starlark.None
	if len(args) == 2 {
		value = args[1]
	}
	b := interp.BudgetOf(thread)
	if n := lenHint(iterable); n > 0 {
		if err := b.Alloc(int64(n) * 3 * slot); err != nil {
			return nil, err
		}
	}
	d := starlark.NewDict(0)
	defer b.Hold(func(visit func(starlark.Value)) { visit(d) })()
	err := forEach(thread, iterable, func(k starlark.Value) (bool, error) {
		if err := checkHashable(b, k); err != nil {
			return true, err
		}
		if err := d.SetKey(k, value); err != nil {
			return true, err
		}
		return false, dictGrew(b, d)
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

func dictCopy(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("dict.copy", args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	src := recv.(*starlark.Dict)
	if err := interp.BudgetOf(thread).Alloc(int64(src.Len()) * 3 * slot); err != nil {
		return nil, err
	}
	d := starlark.NewDict(src.Len())
	for _, kv := range src.Items() {
		if err := d.SetKey(kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// dictPop is dict.pop(key[, default]), with Python's KeyError.
func dictPop(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("pop", args, kwargs, 1, 2); err != nil {
		return nil, err
	}
	k := args[0]
	var dflt starlark.Value
	if len(args) == 2 {
		dflt = args[1]
	}
	b := interp.BudgetOf(thread)
	d := recv.(*starlark.Dict)
	if d.Len() == 0 {
		// CPython looks no further than an empty dict: no hash, no error
		// for an unhashable key.
		if dflt != nil {
			return dflt, nil
		}
		return nil, keyErrorOf(b, k)
	}
	if err := checkHashable(b, k); err != nil {
		return nil, err
	}
	v, found, err := d.Delete(k)
	switch {
	case err != nil:
		return nil, err
	case found:
		return v, nil
	case dflt != nil:
		return dflt, nil
	}
	return nil, keyErrorOf(b, k)
}

// keyErrorOf is KeyError(k): its message is the key's repr.
func keyErrorOf(b *interp.Budget, k starlark.Value) error {
	r, err := interp.Repr(b, k)
	if err != nil {
		return err
	}
	return &Exception{Class: "KeyError", Msg: r}
}

// dictPopitem is dict.popitem(): the entry added last, as in Python.
func dictPopitem(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("dict.popitem", args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	d := recv.(*starlark.Dict)
	if d.Len() == 0 {
		return nil, keyError("'popitem(): dictionary is empty'")
	}
	// go.starlark.net has no way to the last entry but through them all.
	b := interp.BudgetOf(thread)
	var k starlark.Value
	it := d.Iterate()
	for i := 0; it.Next(&k); i++ {
		if i%1024 == 1023 {
			if err := b.Charge(128); err != nil {
				it.Done()
				return nil, err
			}
		}
	}
	it.Done()
	v, _, err := d.Delete(k)
	if err != nil {
		return nil, err
	}
	return starlark.Tuple{k, v}, nil
}

// dictUpdate is dict.update([other], **kwargs).
func dictUpdate(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 1 {
		return nil, typeError("update expected at most 1 argument, got %d", len(args))
	}
	if err := updateDict(thread, recv.(*starlark.Dict), args, kwargs); err != nil {
		return nil, err
	}
	return starlark.None, nil
}

// setBuiltin is set(iterable=()).
func setBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, typeError("set() takes no keyword arguments")
	}
	if len(args) > 1 {
		return nil, typeError("set expected at most 1 argument, got %d", len(args))
	}
	sb := newSetBuild(interp.BudgetOf(thread))
	if len(args) == 1 {
		if err := sb.update(thread, args[0]); err != nil {
			return nil, err
		}
	}
	return sb.done(), nil
}

// addAll adds the elements of iterable to s, refusing unhashable ones
// with Python's error and a length beyond the memory budget first.
func addAll(thread *starlark.Thread, s *starlark.Set, iterable starlark.Value) error {
	b := interp.BudgetOf(thread)
	if n := lenHint(iterable); n > 0 {
		if err := b.Alloc(int64(n) * 3 * slot); err != nil {
			return err
		}
	}
	if fs, ok := iterable.(*frozenSet); ok {
		iterable = fs.set
	}
	return forEach(thread, iterable, func(x starlark.Value) (bool, error) {
		if err := checkHashable(b, x); err != nil {
			return true, err
		}
		return false, s.Insert(x)
	})
}

// setOf is the elements of a set argument: a set's own, else a new set
// of the iterable's.
func setOf(thread *starlark.Thread, v starlark.Value) (*starlark.Set, error) {
	switch x := v.(type) {
	case *starlark.Set:
		return x, nil
	case *frozenSet:
		return x.set, nil
	}
	s := starlark.NewSet(0)
	if err := addAll(thread, s, v); err != nil {
		return nil, err
	}
	return s, nil
}

func setCopy(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("set.copy", args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	sb, err := setCopyOf(interp.BudgetOf(thread), recv.(*starlark.Set))
	if err != nil {
		return nil, err
	}
	return sb.done(), nil
}

// setRemove is set.remove(x), with Python's KeyError; setDiscardMethod
// set.discard(x).
func setRemove(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return setRemoveOrDiscard(thread, "remove", recv, args, kwargs)
}

func setDiscardMethod(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return setRemoveOrDiscard(thread, "discard", recv, args, kwargs)
}

func setRemoveOrDiscard(thread *starlark.Thread, name string, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("set."+name, args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	x := args[0]
	b := interp.BudgetOf(thread)
	if err := checkHashable(b, x); err != nil {
		return nil, err
	}
	found, err := setDiscard(b, recv.(*starlark.Set), x)
	if err != nil {
		return nil, err
	}
	if !found && name == "remove" {
		return nil, keyErrorOf(b, x)
	}
	return starlark.None, nil
}

// setAddMethod is set.add(x); its table, when it has one, takes x too.
func setAddMethod(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("set.add", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	if err := checkHashable(interp.BudgetOf(thread), args[0]); err != nil {
		return nil, err
	}
	return starlark.None, setAdd(recv.(*starlark.Set), args[0])
}

// setClearMethod is set.clear(): the set's table is back to its smallest.
func setClearMethod(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("set.clear", args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	s := recv.(*starlark.Set)
	if err := s.Clear(); err != nil {
		return nil, err
	}
	if t := storedTable(s); t != nil {
		t.clear()
	}
	return starlark.None, nil
}

// setPop is set.pop(): the element CPython's table gives first from
// where the last pop left off.
func setPop(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("set.pop", args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	s := recv.(*starlark.Set)
	if s.Len() == 0 {
		return nil, keyError("'pop from an empty set'")
	}
	t, err := tableOf(interp.BudgetOf(thread), s, true)
	if err != nil {
		return nil, err
	}
	var x starlark.Value
	if t != nil {
		x = t.pop()
	}
	if x == nil {
		it := s.Iterate()
		it.Next(&x)
		it.Done()
	}
	if _, err := s.Delete(x); err != nil {
		return nil, err
	}
	return x, nil
}

// setAlgebra are the set methods that combine sets, by the operator
// that does the same for two sets.
var setAlgebra = map[string]syntax.Token{
	"union":                syntax.PIPE,
	"intersection":         syntax.AMP,
	"difference":           syntax.MINUS,
	"symmetric_difference": syntax.CIRCUMFLEX,
}

// setFunc is a method of sets that frozensets share; qual ("set" or
// "frozenset") names the receiver's class in errors.
type setFunc func(thread *starlark.Thread, s *starlark.Set, qual string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

// setMethod adapts a setFunc for a set receiver.
func setMethod(fn setFunc) methodImpl {
	return func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return fn(thread, recv.(*starlark.Set), "set", args, kwargs)
	}
}

// setAlgebraMethod is union, intersection, difference or
// symmetric_difference with any number of iterables (one for
// symmetric_difference); frozen makes the result a frozenset.
func setAlgebraMethod(name string, op syntax.Token, frozen bool) setFunc {
	return func(thread *starlark.Thread, s *starlark.Set, qual string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(kwargs) > 0 {
			return nil, typeError("%s.%s() takes no keyword arguments", qual, name)
		}
		if op == syntax.CIRCUMFLEX {
			if err := arity(qual+"."+name, args, nil, 1, 1); err != nil {
				return nil, err
			}
		}
		b := interp.BudgetOf(thread)
		var sb *setBuild
		var err error
		switch {
		case op == syntax.PIPE:
			sb, err = setUnion(thread, s, args...)
		case len(args) == 0:
			sb, err = setCopyOf(b, s)
		case op == syntax.AMP:
			sb, err = setIntersection(thread, s, args[0])
			for _, a := range args[1:] {
				if err != nil {
					break
				}
				sb, err = setIntersection(thread, sb.done(), a)
			}
		case op == syntax.MINUS:
			sb, err = setDifference(thread, s, args[0])
			for _, a := range args[1:] {
				if err != nil {
					break
				}
				err = sb.differenceUpdate(thread, a)
			}
		default:
			sb, err = setSymmetricDifference(thread, s, args[0])
		}
		if err != nil {
			return nil, err
		}
		out := sb.done()
		if frozen {
			return newFrozenSet(b, out)
		}
		return out, nil
	}
}

// setUpdateMethod is update, intersection_update, difference_update and
// symmetric_difference_update: the receiver becomes the result.
func setUpdateMethod(name string, op syntax.Token) methodImpl {
	return func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		s := recv.(*starlark.Set)
		if len(kwargs) > 0 {
			return nil, typeError("set.%s() takes no keyword arguments", name)
		}
		if op == syntax.CIRCUMFLEX {
			if err := arity("set."+name, args, nil, 1, 1); err != nil {
				return nil, err
			}
		}
		b := interp.BudgetOf(thread)
		if op == syntax.AMP {
			if len(args) == 0 {
				return starlark.None, nil
			}
			r, err := setIntersection(thread, s, args[0])
			for _, a := range args[1:] {
				if err != nil {
					break
				}
				r, err = setIntersection(thread, r.done(), a)
			}
			if err != nil {
				return nil, err
			}
			return starlark.None, replaceWith(s, r)
		}
		sb, err := changeSet(b, s)
		if err != nil {
			return nil, err
		}
		for _, a := range args {
			switch op {
			case syntax.PIPE:
				err = sb.update(thread, a)
			case syntax.MINUS:
				err = sb.differenceUpdate(thread, a)
			default:
				err = sb.symmetricUpdate(thread, a)
			}
			if err != nil {
				break
			}
		}
		sb.done()
		if err != nil {
			return nil, err
		}
		return starlark.None, nil
	}
}

func oneSetArg(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (*starlark.Set, error) {
	if err := arity(name, args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	return setOf(thread, args[0])
}

// within reports whether every element of x is in y.
func within(b *interp.Budget, x, y *starlark.Set) (bool, error) {
	if err := b.Charge(uint64(x.Len())); err != nil {
		return false, err
	}
	for v := range x.Elements() {
		if in, err := y.Has(v); err != nil || !in {
			return false, err
		}
	}
	return true, nil
}

func setIssubset(thread *starlark.Thread, s *starlark.Set, qual string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	other, err := oneSetArg(thread, qual+".issubset", args, kwargs)
	if err != nil {
		return nil, err
	}
	ok, err := within(interp.BudgetOf(thread), s, other)
	return starlark.Bool(ok), err
}

func setIssuperset(thread *starlark.Thread, s *starlark.Set, qual string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	other, err := oneSetArg(thread, qual+".issuperset", args, kwargs)
	if err != nil {
		return nil, err
	}
	ok, err := within(interp.BudgetOf(thread), other, s)
	return starlark.Bool(ok), err
}

func setIsdisjoint(thread *starlark.Thread, s *starlark.Set, qual string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	other, err := oneSetArg(thread, qual+".isdisjoint", args, kwargs)
	if err != nil {
		return nil, err
	}
	small, big := s, other
	if big.Len() < small.Len() {
		small, big = big, small
	}
	if err := interp.BudgetOf(thread).Charge(uint64(small.Len())); err != nil {
		return nil, err
	}
	for v := range small.Elements() {
		if in, err := big.Has(v); err != nil || in {
			return starlark.False, err
		}
	}
	return starlark.True, nil
}

// frozenSet is a frozenset: an immutable set, hashable, so that it can be
// a dict key or an element of a set. It keeps the budget of the run that
// made it, to bound the text of its elements.
type frozenSet struct {
	set    *starlark.Set // frozen
	hash   uint32
	budget *interp.Budget
}

// Held visits the set, so that the memory meter counts what a frozenset
// holds.
func (f *frozenSet) Held(visit func(starlark.Value)) { visit(f.set) }

var (
	_ interp.Holder       = (*frozenSet)(nil)
	_ starlark.Iterable   = (*frozenSet)(nil)
	_ starlark.Sequence   = (*frozenSet)(nil)
	_ starlark.Container  = (*frozenSet)(nil)
	_ starlark.HasBinary  = (*frozenSet)(nil)
	_ starlark.HasAttrs   = (*frozenSet)(nil)
	_ starlark.Comparable = (*frozenSet)(nil)
	_ interp.GoValuer     = (*frozenSet)(nil)
)

// newFrozenSet freezes s (which no one else holds) into a frozenset.
func newFrozenSet(b *interp.Budget, s *starlark.Set) (*frozenSet, error) {
	// The hash of a frozenset does not depend on the order of its
	// elements: a sum of their mixed hashes.
	var h uint32
	for v := range s.Elements() {
		eh, err := v.Hash()
		if err != nil {
			return nil, err
		}
		eh ^= eh >> 16
		eh *= 0x45d9f3b
		h += eh ^ (eh >> 16)
	}
	if err := b.Charge(uint64(s.Len())); err != nil {
		return nil, err
	}
	s.Freeze()
	return &frozenSet{set: s, hash: h ^ uint32(s.Len()), budget: b}, nil
}

// frozensetBuiltin is frozenset(iterable=()).
func frozensetBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, typeError("frozenset() takes no keyword arguments")
	}
	if len(args) > 1 {
		return nil, typeError("frozenset expected at most 1 argument, got %d", len(args))
	}
	if len(args) == 1 {
		if fs, ok := args[0].(*frozenSet); ok {
			return fs, nil
		}
	}
	sb := newSetBuild(interp.BudgetOf(thread))
	if len(args) == 1 {
		if err := sb.update(thread, args[0]); err != nil {
			return nil, err
		}
	}
	return newFrozenSet(interp.BudgetOf(thread), sb.done())
}

func (f *frozenSet) String() string {
	if f.set.Len() == 0 {
		return "frozenset()"
	}
	// The text of the elements under the budget of the run that made the
	// frozenset: a spent budget ends that run (and so this text's use).
	s, err := interp.Repr(f.budget, f.set)
	if err != nil {
		return "frozenset({...})"
	}
	return "frozenset(" + s + ")"
}

func (f *frozenSet) Type() string               { return "frozenset" }
func (f *frozenSet) Freeze()                    {}
func (f *frozenSet) Truth() starlark.Bool       { return f.set.Len() > 0 }
func (f *frozenSet) Hash() (uint32, error)      { return f.hash, nil }
func (f *frozenSet) Len() int                   { return f.set.Len() }
func (f *frozenSet) Iterate() starlark.Iterator { return f.set.Iterate() }
func (f *frozenSet) Has(x starlark.Value) (bool, error) {
	if err := checkHashable(nil, x); err != nil {
		return false, err
	}
	return f.set.Has(x)
}

// GoValue is the frozenset's JSON form: a list of its elements.
func (f *frozenSet) GoValue() (any, error) { return interp.ToGo(f.set) }

func (f *frozenSet) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.CompareDepth(op, f.set, y.(*frozenSet).set, depth)
}

// Binary is the set operators with a set or frozenset on either side;
// the result has the kind of the left operand.
func (f *frozenSet) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if _, ok := setAlgebraOp(op); !ok {
		return nil, nil
	}
	if _, ok := asSet(y); !ok {
		return nil, nil
	}
	x, z := starlark.Value(f), y
	if side == starlark.Right {
		x, z = y, f
	}
	v, _, err := setBinary(f.budget.Thread(), op, x, z)
	return v, err
}

func setAlgebraOp(op syntax.Token) (syntax.Token, bool) {
	switch op {
	case syntax.PIPE, syntax.AMP, syntax.MINUS, syntax.CIRCUMFLEX:
		return op, true
	}
	return 0, false
}

// frozenMethods are the methods of a frozenset: those of a set that make
// no change.
var frozenMethods = []string{"copy", "difference", "intersection", "isdisjoint", "issubset", "issuperset", "symmetric_difference", "union"}

func (f *frozenSet) AttrNames() []string { return frozenMethods }

func (f *frozenSet) Attr(name string) (starlark.Value, error) {
	var fn setFunc
	switch name {
	case "copy":
		return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := arity("frozenset.copy", args, kwargs, 0, 0); err != nil {
				return nil, err
			}
			return f, nil
		}), nil
	case "isdisjoint":
		fn = setIsdisjoint
	case "issubset":
		fn = setIssubset
	case "issuperset":
		fn = setIssuperset
	default:
		op, ok := setAlgebra[name]
		if !ok {
			return nil, exception("AttributeError", "'frozenset' object has no attribute '%s'", name)
		}
		fn = setAlgebraMethod(name, op, true)
	}
	return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return fn(thread, f.set, "frozenset", args, kwargs)
	}), nil
}

// bytesBuiltin is bytes(): of nothing, of a count of zero bytes, of an
// iterable of ints 0-255, of bytes, or of a str with an encoding
// (UTF-8; ASCII and Latin-1 for text they can hold).
func bytesBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var src, encArg, errArg starlark.Value
	if err := unpackArgs("bytes", args, kwargs, []string{"source", "encoding", "errors"}, 0, &src, &encArg, &errArg); err != nil {
		return nil, err
	}
	encoding, errors := "", ""
	for _, a := range []struct {
		v   starlark.Value
		s   *string
		arg int
	}{{encArg, &encoding, 2}, {errArg, &errors, 3}} {
		if a.v == nil {
			continue
		}
		text, ok := interp.AsText(a.v)
		if !ok {
			return nil, typeError("bytes() argument %d must be str, not %s", a.arg, pyTypeName(a.v))
		}
		*a.s = text
	}
	b := interp.BudgetOf(thread)
	if text, ok := interp.AsText(src); ok {
		if encoding == "" {
			return nil, typeError("string argument without an encoding")
		}
		return encodeText(text, encoding, errors)
	}
	if encoding != "" {
		return nil, typeError("encoding without a string argument")
	}
	switch x := src.(type) {
	case nil:
		return interp.Bytes(""), nil
	case interp.Bytes:
		return x, nil
	case starlark.Bytes:
		return interp.Bytes(x), nil
	case *interp.ByteArray:
		return interp.Bytes(x.Bytes()), nil
	case starlark.Int, starlark.Bool:
		n, _ := indexInt(x)
		if n < 0 {
			return nil, valueError("negative count")
		}
		if err := b.Alloc(n); err != nil {
			return nil, err
		}
		return interp.Bytes(strings.Repeat("\x00", int(n))), nil // one allocation, not a slice and its copy
	}
	if it := starlark.Iterate(src); it != nil {
		it.Done()
	} else if _, ok := src.(*pyIter); !ok {
		return nil, typeError("cannot convert '%s' object to bytes", pyTypeName(src))
	}
	var out []byte
	err := forEach(thread, src, func(v starlark.Value) (bool, error) {
		n, err := indexInt(v)
		if err != nil {
			return true, err
		}
		if n < 0 || n > 255 {
			return true, valueError("bytes must be in range(0, 256)")
		}
		if len(out) == cap(out) {
			if err := b.Alloc(int64(2*cap(out) + 8)); err != nil {
				return true, err
			}
		}
		out = append(out, byte(n))
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	return interp.Bytes(out), nil
}

// encodeText is str.encode for the encodings bytes() knows.
func encodeText(text, encoding, errors string) (starlark.Value, error) {
	switch normEncoding(encoding) {
	case "utf8":
		return interp.Bytes(text), nil
	case "ascii", "latin1":
		limit := rune(127)
		name := "ascii"
		if normEncoding(encoding) == "latin1" {
			limit, name = 255, "latin-1"
		}
		out := make([]byte, 0, len(text))
		pos := 0
		for _, r := range text {
			if r > limit {
				switch errors {
				case "ignore":
					pos++
					continue
				case "replace":
					out = append(out, '?')
					pos++
					continue
				}
				return nil, exception("UnicodeEncodeError", "'%s' codec can't encode character %s in position %d: ordinal not in range(%d)", name, quoteRune(r), pos, limit+1)
			}
			out = append(out, byte(r))
			pos++
		}
		return interp.Bytes(out), nil
	}
	return nil, exception("LookupError", "unknown encoding: %s", encoding)
}

func normEncoding(e string) string {
	out := make([]byte, 0, len(e))
	for i := 0; i < len(e); i++ {
		if c := e[i]; c != '-' && c != '_' && c != ' ' {
			out = append(out, c|0x20)
		}
	}
	switch s := string(out); s {
	case "utf8", "ascii":
		return s
	case "latin1", "iso88591", "l1":
		return "latin1"
	}
	return string(out)
}

func quoteRune(r rune) string {
	const hex = "0123456789abcdef"
	switch {
	case r <= 0xff:
		return "'\\x" + string(hex[r>>4]) + string(hex[r&15]) + "'"
	case r <= 0xffff:
		return "'\\u" + string(hex[r>>12&15]) + string(hex[r>>8&15]) + string(hex[r>>4&15]) + string(hex[r&15]) + "'"
	}
	s := "'\\U"
	for shift := 28; shift >= 0; shift -= 4 {
		s += string(hex[r>>uint(shift)&15])
	}
	return s + "'"
}
