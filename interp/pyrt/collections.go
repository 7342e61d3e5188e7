package pyrt

import (
	"slices"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

// The builtins that build a collection from an iterable. Starlark's
// preallocate the iterable's length at once, so list(range(10**9)) asks
// for 16 GB in one step; these refuse a collection larger than the run's
// memory budget before allocating it, and charge each element.

// slot is the size of one element of a list or tuple: an interface.
const slot = 16

// maxPrealloc bounds what is allocated ahead from a length alone; beyond
// it, the collection grows as elements arrive (and are charged).
const maxPrealloc = 1 << 16

// collect returns the elements of iterable, charged one by one, refusing
// at once a length that exceeds the memory budget at perSlot bytes each.
func collect(b *interp.Budget, fn string, iterable starlark.Value, perSlot int64) ([]starlark.Value, error) {
	if x, ok := iterable.(Iterer); ok {
		// An instance: its iterator, whose errors are the program's.
		it, err := x.Iter(nil)
		if err != nil {
			return nil, err
		}
		if _, again := it.(Iterer); !again {
			return collect(b, fn, it, perSlot)
		}
	}
	if it, ok := ownIterator(nil, iterable); ok {
		if n := sourceHint(it.src); n > 0 {
			if err := b.Alloc(int64(n) * perSlot); err != nil {
				return nil, err
			}
		}
		return it.drain() // an iterator's errors are returned, not lost; bytes give ints
	}
	if s, ok := iterable.(starlark.String); ok {
		// A str is a sequence of characters, as in Python: each a value
		// of its own (its slot and a boxed header), refused before any
		// is made, since chars makes them all at once.
		if err := b.Alloc(int64(len(s)) * (perSlot + 16)); err != nil {
			return nil, err
		}
		iterable = chars(string(s))
	}
	switch x := iterable.(type) {
	case *frozenSet:
		iterable = x.set
	}
	if s, ok := iterable.(*starlark.Set); ok {
		// CPython's order (see setOrder), when it is not insertion's.
		if err := b.Alloc(int64(s.Len()) * perSlot); err != nil {
			return nil, err
		}
		order, err := setOrder(b, s)
		if err != nil || order != nil {
			return order, err
		}
	}
	iter := starlark.Iterate(iterable)
	if iter == nil {
		return nil, typeError("'%s' object is not iterable", pyTypeName(iterable))
	}
	defer iter.Done()
	var elems []starlark.Value
	defer b.HoldValues(&elems)()
	if n := starlark.Len(iterable); n > 0 {
		if err := b.Alloc(int64(n) * perSlot); err != nil {
			return nil, err
		}
		elems = make([]starlark.Value, 0, min(n, maxPrealloc))
	}
	var x starlark.Value
	for iter.Next(&x) {
		if err := b.Charge(1); err != nil {
			return nil, err
		}
		elems = append(elems, x)
	}
	// An iteration a spent budget cut short is no result.
	if err := b.Charge(0); err != nil {
		return nil, err
	}
	return elems, nil
}

func listBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var iterable starlark.Value
	if err := starlark.UnpackPositionalArgs("list", args, kwargs, 0, &iterable); err != nil {
		return nil, err
	}
	if iterable == nil {
		return starlark.NewList(nil), nil
	}
	elems, err := collect(interp.BudgetOf(thread), "list", iterable, slot)
	if err != nil {
		return nil, err
	}
	return starlark.NewList(elems), nil
}

// starArgs is what f(*x) passes: x itself when it is a list or a tuple,
// else its elements in a list (a str's characters, an iterator's values).
// The call then copies them into its tuple of arguments, which lives in
// Go until the function returns, where the memory meter cannot see it:
// the room for it is asked for here, beside everything the run holds.
func starArgs(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kwargs) != 0 {
		return nil, typeError("__ot_star takes 1 argument")
	}
	b := interp.BudgetOf(thread)
	x := args[0]
	switch x.(type) {
	case *starlark.List, starlark.Tuple:
	default:
		elems, err := collect(b, "list", x, slot)
		if err != nil {
			return nil, err
		}
		x = starlark.NewList(elems)
	}
	n := starlark.Len(x)
	return x, b.Room(int64(grownCap(n)) * slot)
}

func tupleBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var iterable starlark.Value
	if err := starlark.UnpackPositionalArgs("tuple", args, kwargs, 0, &iterable); err != nil {
		return nil, err
	}
	if iterable == nil {
		return starlark.Tuple(nil), nil
	}
	if t, ok := iterable.(starlark.Tuple); ok {
		return t, nil
	}
	elems, err := collect(interp.BudgetOf(thread), "tuple", iterable, slot)
	if err != nil {
		return nil, err
	}
	return starlark.Tuple(elems), nil
}

func reversedBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var iterable starlark.Value
	if err := starlark.UnpackPositionalArgs("reversed", args, kwargs, 1, &iterable); err != nil {
		return nil, err
	}
	switch iterable.(type) {
	case *starlark.Set, *frozenSet, *pyIter, *Generator, starlark.Int, starlark.Float, starlark.Bool, starlark.NoneType:
		// Neither a sequence nor a mapping: Python has no order to
		// reverse.
		return nil, typeError("'%s' object is not reversible", pyTypeName(iterable))
	}
	elems, err := collect(interp.BudgetOf(thread), "reversed", iterable, slot)
	if err != nil {
		return nil, err
	}
	slices.Reverse(elems)
	name := "reversed"
	switch iterable.(type) {
	case *starlark.List:
		name = "list_reverseiterator"
	case rangeValue:
		name = "range_iterator"
	case *starlark.Dict:
		name = "dict_reversekeyiterator"
	}
	return &pyIter{name: name, src: &sliceSource{elems: elems}, thread: thread}, nil
}

// enumerate(iterable, start=0): an iterator of (count, element) pairs,
// lazy as Python's; the start may be given by name.
func enumerateBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var iterable starlark.Value
	start := 0
	if err := starlark.UnpackArgs("enumerate", args, kwargs, "iterable", &iterable, "start?", &start); err != nil {
		return nil, err
	}
	it, err := iterOf(thread, iterable)
	if err != nil {
		return nil, err
	}
	return &pyIter{name: "enumerate", src: &enumerateSource{it: it, i: start}, thread: thread}, nil
}

// sortedBuiltin is sorted(iterable, *, key=None, reverse=False), stable,
// comparing with lessThan under the run's budget: comparisons of long or
// nested values (a list of the same long list a thousand times) count
// every element they look at.
func sortedBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var iterable starlark.Value
	var key starlark.Value = starlark.None
	reverse := false
	if err := starlark.UnpackArgs("sorted", args, kwargs, "iterable", &iterable, "key?", &key, "reverse?", &reverse); err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	values, err := collect(b, "sorted", iterable, slot)
	if err != nil {
		return nil, err
	}
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
				return nil, err // keeps the backtrace of the key function
			}
			keys[i] = k
		}
	}
	// pySort: Python's order (str of both kinds, bools among ints) and errors.
	if err := pySort(b, keys, values, reverse); err != nil {
		return nil, err
	}
	return starlark.NewList(values), nil
}

// equal is x == y, bounded: sequences compare element by element (the
// same container, by identity, equals itself without a look).
func equal(b *interp.Budget, x, y starlark.Value, depth int) (bool, error) {
	if depth > interp.MaxDepth {
		return false, interp.ErrTooDeep
	}
	if err := b.Charge(1); err != nil {
		return false, err
	}
	if same(x, y) {
		return true, nil
	}
	if r, ok, err := RichCompare(b.Thread(), syntax.EQL, x, y); ok {
		return r, err
	}
	xs, xok := elements(x)
	ys, yok := elements(y)
	if !xok || !yok || x.Type() != y.Type() {
		if r, ok, err := compareNumbers(syntax.EQL, x, y); ok || err != nil {
			return r, err
		}
		if r, ok, err := dictsEqual(b, x, y, depth); ok || err != nil {
			return r, err
		}
		return starlark.Equal(x, y)
	}
	if xs.Len() != ys.Len() {
		return false, nil
	}
	for i := range xs.Len() {
		eq, err := equal(b, xs.Index(i), ys.Index(i), depth+1)
		if err != nil || !eq {
			return false, err
		}
	}
	return true, nil
}

// elements returns a list or tuple as an indexable sequence. A seq, not
// a starlark.Indexable: a tuple in an interface is a slice boxed on the
// heap, and comparisons (a sort by tuple keys) ask this for every pair.
func elements(v starlark.Value) (seq, bool) {
	switch v := v.(type) {
	case starlark.Tuple:
		return seq{t: v}, true
	case *starlark.List:
		return seq{l: v}, true
	}
	return seq{}, false
}

// seq is a tuple or a list.
type seq struct {
	t starlark.Tuple
	l *starlark.List
}

func (s seq) Len() int {
	if s.l != nil {
		return s.l.Len()
	}
	return len(s.t)
}

func (s seq) Index(i int) starlark.Value {
	if s.l != nil {
		return s.l.Index(i)
	}
	return s.t[i]
}

// same reports whether x and y are the same container, which Python's
// comparisons take as equal without looking inside.
func same(x, y starlark.Value) bool {
	switch x := x.(type) {
	case *starlark.List, *starlark.Dict, *starlark.Set:
		return x == y
	case starlark.Tuple:
		yt, ok := y.(starlark.Tuple)
		return ok && len(x) > 0 && len(x) == len(yt) && &x[0] == &yt[0]
	}
	return false
}

// chars is the characters of ASCII text, as a tuple of one-character
// strings (a *interp.Unicode iterates its own).
func chars(s string) starlark.Tuple {
	out := make(starlark.Tuple, len(s))
	for i := range out {
		out[i] = starlark.String(s[i : i+1])
	}
	return out
}
