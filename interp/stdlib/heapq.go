package stdlib

import (
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// HeapQ is the heapq module. The heap functions follow CPython's
// algorithm step by step, so that a heap's list holds its values in the
// same order as CPython's, and they order values as Python's < does.
func HeapQ() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "heapq", Members: starlark.StringDict{
		"heappush":    interp.NewBuiltin("heappush", heappush),
		"heappop":     interp.NewBuiltin("heappop", heappop),
		"heapify":     interp.NewBuiltin("heapify", heapify),
		"heappushpop": interp.NewBuiltin("heappushpop", heappushpop),
		"heapreplace": interp.NewBuiltin("heapreplace", heapreplace),
		"nlargest":    interp.NewBuiltin("nlargest", nSelect(true)),
		"nsmallest":   interp.NewBuiltin("nsmallest", nSelect(false)),
		"merge":       interp.NewBuiltin("merge", heapMerge),
	}}
}

// heap is a list being worked on as a heap under a run's budget.
type heap struct {
	b    *interp.Budget
	list *starlark.List
}

func (h heap) less(x, y starlark.Value) (bool, error) { return python.Less(h.b, x, y) }

func (h heap) siftDown(start, pos int) error {
	item := h.list.Index(pos)
	for pos > start {
		parentPos := (pos - 1) >> 1
		parent := h.list.Index(parentPos)
		lt, err := h.less(item, parent)
		if err != nil {
			return err
		}
		if !lt {
			break
		}
		if err := h.list.SetIndex(pos, parent); err != nil {
			return err
		}
		pos = parentPos
	}
	return h.list.SetIndex(pos, item)
}

func (h heap) siftUp(pos int) error {
	end, start := h.list.Len(), pos
	item := h.list.Index(pos)
	child := 2*pos + 1
	for child < end {
		if right := child + 1; right < end {
			lt, err := h.less(h.list.Index(child), h.list.Index(right))
			if err != nil {
				return err
			}
			if !lt {
				child = right
			}
		}
		if err := h.list.SetIndex(pos, h.list.Index(child)); err != nil {
			return err
		}
		pos, child = child, 2*child+1
	}
	if err := h.list.SetIndex(pos, item); err != nil {
		return err
	}
	return h.siftDown(start, pos)
}

// heapArgs reads (heap, item...) where heap must be a list.
func heapArgs(thread *starlark.Thread, fn string, args starlark.Tuple, kwargs []starlark.Tuple, items int) (heap, starlark.Tuple, error) {
	if len(kwargs) > 0 {
		return heap{}, nil, python.Errorf("TypeError", "_heapq.%s() takes no keyword arguments", fn)
	}
	if len(args) != items+1 {
		if items == 0 {
			return heap{}, nil, python.Errorf("TypeError", "_heapq.%s() takes exactly one argument (%d given)", fn, len(args))
		}
		return heap{}, nil, python.Errorf("TypeError", "%s expected %d arguments, got %d", fn, items+1, len(args))
	}
	l, ok := args[0].(*starlark.List)
	if !ok {
		if items == 0 { // heappop and heapify take the heap alone
			return heap{}, nil, python.Errorf("TypeError", "%s() argument must be list, not %s", fn, qualifiedTypeName(args[0]))
		}
		return heap{}, nil, python.Errorf("TypeError", "%s() argument 1 must be list, not %s", fn, qualifiedTypeName(args[0]))
	}
	return heap{b: interp.BudgetOf(thread), list: l}, args[1:], nil
}

// popLast removes and returns the last element of l.
func popLast(thread *starlark.Thread, l *starlark.List) (starlark.Value, error) {
	pop, err := l.Attr("pop")
	if err != nil {
		return nil, err
	}
	return starlark.Call(thread, pop, nil, nil)
}

func heappush(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	h, items, err := heapArgs(thread, "heappush", args, kwargs, 1)
	if err != nil {
		return nil, err
	}
	if err := h.b.Alloc(16); err != nil {
		return nil, err
	}
	if err := h.list.Append(items[0]); err != nil {
		return nil, err
	}
	return starlark.None, h.siftDown(0, h.list.Len()-1)
}

func heappop(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	h, _, err := heapArgs(thread, "heappop", args, kwargs, 0)
	if err != nil {
		return nil, err
	}
	if h.list.Len() == 0 {
		return nil, python.Errorf("IndexError", "index out of range")
	}
	last, err := popLast(thread, h.list)
	if err != nil {
		return nil, err
	}
	if h.list.Len() == 0 {
		return last, nil
	}
	top := h.list.Index(0)
	if err := h.list.SetIndex(0, last); err != nil {
		return nil, err
	}
	return top, h.siftUp(0)
}

func heapreplace(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	h, items, err := heapArgs(thread, "heapreplace", args, kwargs, 1)
	if err != nil {
		return nil, err
	}
	if h.list.Len() == 0 {
		return nil, python.Errorf("IndexError", "index out of range")
	}
	top := h.list.Index(0)
	if err := h.list.SetIndex(0, items[0]); err != nil {
		return nil, err
	}
	return top, h.siftUp(0)
}

func heappushpop(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	h, items, err := heapArgs(thread, "heappushpop", args, kwargs, 1)
	if err != nil {
		return nil, err
	}
	item := items[0]
	if h.list.Len() == 0 {
		return item, nil
	}
	top := h.list.Index(0)
	lt, err := h.less(top, item)
	if err != nil || !lt {
		return item, err
	}
	if err := h.list.SetIndex(0, item); err != nil {
		return nil, err
	}
	return top, h.siftUp(0)
}

func heapify(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	h, _, err := heapArgs(thread, "heapify", args, kwargs, 0)
	if err != nil {
		return nil, err
	}
	for i := h.list.Len()/2 - 1; i >= 0; i-- {
		if err := h.siftUp(i); err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}

// keyed is a value with its key, and its place among the values given.
type keyed struct {
	key, val starlark.Value
}

// collectKeyed reads the values of iterable with their keys (the values
// themselves when key is None).
func collectKeyed(thread *starlark.Thread, iterable, key starlark.Value) ([]keyed, error) {
	b := interp.BudgetOf(thread)
	var out []keyed
	err := python.ForEach(thread, iterable, func(x starlark.Value) (bool, error) {
		if err := b.Alloc(32); err != nil {
			return true, err
		}
		k := x
		if key != starlark.None {
			var err error
			if k, err = starlark.Call(thread, key, starlark.Tuple{x}, nil); err != nil {
				return true, err
			}
		}
		out = append(out, keyed{k, x})
		return false, nil
	})
	return out, err
}

// sortKeyed sorts stably by key, descending if reverse, as sorted()
// does; it charges the comparisons.
func sortKeyed(b *interp.Budget, xs []keyed, reverse bool) error {
	var cmpErr error
	sort.SliceStable(xs, func(i, j int) bool {
		if cmpErr != nil {
			return false
		}
		x, y := xs[i].key, xs[j].key
		if reverse {
			x, y = y, x
		}
		lt, err := python.Less(b, x, y)
		if err != nil {
			cmpErr = err
		}
		return lt
	})
	return cmpErr
}

// nSelect makes nlargest and nsmallest, whose results are those of
// sorted(iterable, key=key, reverse=largest)[:n], as CPython documents.
func nSelect(largest bool) interp.BuiltinFunc {
	return func(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var n int
		var iterable starlark.Value
		var key starlark.Value = starlark.None
		if err := unpack(fn.Name(), args, kwargs, "n", &n, "iterable", &iterable, "key?", &key); err != nil {
			return nil, err
		}
		xs, err := collectKeyed(thread, iterable, key)
		if err != nil {
			return nil, err
		}
		if err := sortKeyed(interp.BudgetOf(thread), xs, largest); err != nil {
			return nil, err
		}
		n = max(0, min(n, len(xs)))
		out := make([]starlark.Value, n)
		for i := range out {
			out[i] = xs[i].val
		}
		return starlark.NewList(out), nil
	}
}

// heapMerge is merge(*iterables, key=None, reverse=False): an iterator
// over the values of sorted iterables, in order, ties taken from the
// earlier iterable. As CPython's generator, it takes nothing from the
// iterables before its first value is asked for, then one value at a
// time, so merging endless or huge streams costs only what is read.
func heapMerge(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var key starlark.Value = starlark.None
	reverse := false
	if err := unpack("merge", nil, kwargs, "key?", &key, "reverse?", &reverse); err != nil {
		return nil, err
	}
	// heads[i] is the next value of args[i]; next[i] is nil once it is
	// done.
	var heads []keyed
	var nexts []func() (starlark.Value, bool, error)
	advance := func(i int) error {
		x, ok, err := nexts[i]()
		if err != nil || !ok {
			nexts[i] = nil
			return err
		}
		k := x
		if key != starlark.None {
			if k, err = starlark.Call(thread, key, starlark.Tuple{x}, nil); err != nil {
				return err
			}
		}
		heads[i] = keyed{k, x}
		return nil
	}
	started := false
	iterables := append(starlark.Tuple(nil), args...)
	return python.NewIterator(thread, "merge", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		b := interp.BudgetOf(thread)
		if !started {
			started = true
			heads = make([]keyed, len(iterables))
			nexts = make([]func() (starlark.Value, bool, error), len(iterables))
			for i, it := range iterables {
				next, err := python.Iterate(thread, it)
				if err != nil {
					return nil, false, err
				}
				nexts[i] = next
				if err := advance(i); err != nil {
					return nil, false, err
				}
			}
		}
		if err := b.Charge(uint64(len(nexts))); err != nil {
			return nil, false, err
		}
		best := -1
		for i := range nexts {
			if nexts[i] == nil {
				continue
			}
			if best < 0 {
				best = i
				continue
			}
			x, y := heads[i].key, heads[best].key
			if reverse {
				x, y = y, x
			}
			lt, err := python.Less(b, x, y)
			if err != nil {
				return nil, false, err
			}
			if lt {
				best = i
			}
		}
		if best < 0 {
			return nil, false, nil
		}
		v := heads[best].val
		if err := advance(best); err != nil {
			return nil, false, err
		}
		return v, true, nil
	}, iterables...), nil
}

// qualifiedTypeName is a value's type as CPython's C functions name it in
// their messages: with its module for a class of a module
// (collections.deque), plain for a builtin type.
func qualifiedTypeName(v starlark.Value) string {
	if c, ok := v.(interface{ PyClass() starlark.Value }); ok {
		if s := c.PyClass().String(); strings.HasPrefix(s, "<class '") {
			return strings.TrimSuffix(strings.TrimPrefix(s, "<class '"), "'>")
		}
	}
	return python.TypeName(v)
}
