package stdlib

import (
	"sort"
	"strings"
	"unsafe"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
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

func (h heap) less(x, y starlark.Value) (bool, error) { return pyrt.Less(h.b, x, y) }

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
		return heap{}, nil, pyrt.Errorf("TypeError", "_heapq.%s() takes no keyword arguments", fn)
	}
	if len(args) != items+1 {
		if items == 0 {
			return heap{}, nil, pyrt.Errorf("TypeError", "_heapq.%s() takes exactly one argument (%d given)", fn, len(args))
		}
		return heap{}, nil, pyrt.Errorf("TypeError", "%s expected %d arguments, got %d", fn, items+1, len(args))
	}
	l, ok := args[0].(*starlark.List)
	if !ok {
		if items == 0 { // heappop and heapify take the heap alone
			return heap{}, nil, pyrt.Errorf("TypeError", "%s() argument must be list, not %s", fn, qualifiedTypeName(args[0]))
		}
		return heap{}, nil, pyrt.Errorf("TypeError", "%s() argument 1 must be list, not %s", fn, qualifiedTypeName(args[0]))
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
		return nil, pyrt.Errorf("IndexError", "index out of range")
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
		return nil, pyrt.Errorf("IndexError", "index out of range")
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
		lt, err := pyrt.Less(b, x, y)
		if err != nil {
			cmpErr = err
		}
		return lt
	})
	return cmpErr
}

// ranked is an entry of the heaps of nlargest, nsmallest and merge:
// CPython's [key, order, value, …] lists, compared as lists are (keys
// by == and then <, ties by order, which is unique), so that the same
// comparisons fail with the same errors.
type ranked struct {
	key, val starlark.Value
	order    int64
	next     nextFn // merge: the rest of the value's iterable
}

func rankedLess(thread *starlark.Thread, x, y ranked) (bool, error) {
	eq, err := pyrt.Compare(thread, syntax.EQL, x.key, y.key)
	if err != nil || eq {
		return x.order < y.order, err
	}
	return pyrt.Less(interp.BudgetOf(thread), x.key, y.key)
}

// sifter is CPython's heap algorithm (_siftdown, _siftup) over a slice,
// for a min-heap by less; a max-heap (heapq's _heapify_max and kin) is
// the same with less's operands swapped.
type sifter[T any] struct {
	a    []T
	less func(x, y T) (bool, error)
}

func (h *sifter[T]) siftDown(start, pos int) error {
	item := h.a[pos]
	for pos > start {
		parent := (pos - 1) >> 1
		lt, err := h.less(item, h.a[parent])
		if err != nil {
			return err
		}
		if !lt {
			break
		}
		h.a[pos] = h.a[parent]
		pos = parent
	}
	h.a[pos] = item
	return nil
}

func (h *sifter[T]) siftUp(pos int) error {
	end, start, item := len(h.a), pos, h.a[pos]
	child := 2*pos + 1
	for child < end {
		if right := child + 1; right < end {
			lt, err := h.less(h.a[child], h.a[right])
			if err != nil {
				return err
			}
			if !lt {
				child = right
			}
		}
		h.a[pos] = h.a[child]
		pos, child = child, 2*child+1
	}
	h.a[pos] = item
	return h.siftDown(start, pos)
}

func (h *sifter[T]) heapify() error {
	for i := len(h.a)/2 - 1; i >= 0; i-- {
		if err := h.siftUp(i); err != nil {
			return err
		}
	}
	return nil
}

// replace is heapreplace: the top becomes x, sifted into place.
func (h *sifter[T]) replace(x T) error {
	h.a[0] = x
	return h.siftUp(0)
}

// pop is heappop: it removes the top.
func (h *sifter[T]) pop() error {
	last := h.a[len(h.a)-1]
	h.a = h.a[:len(h.a)-1]
	if len(h.a) == 0 {
		return nil
	}
	h.a[0] = last
	return h.siftUp(0)
}

// nSelect makes nlargest and nsmallest by CPython's algorithm: max() or
// min() for n == 1, sorted() when n covers a sized iterable, else a heap
// of the n best so far. So the input is read once and only n of its
// values are kept: nlargest(1, count()) runs until a budget stops it
// without holding what it has seen.
func nSelect(largest bool) interp.BuiltinFunc {
	return func(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var n int
		var iterable starlark.Value
		var key starlark.Value = starlark.None
		if err := unpack(fn.Name(), args, kwargs, "n", &n, "iterable", &iterable, "key?", &key); err != nil {
			return nil, err
		}
		b := interp.BudgetOf(thread)
		keyOf := func(x starlark.Value) (starlark.Value, error) {
			if key == starlark.None {
				return x, nil
			}
			return starlark.Call(thread, key, starlark.Tuple{x}, nil)
		}
		// better reports whether k is to be preferred to the top.
		better := func(k, top starlark.Value) (bool, error) {
			if largest {
				return pyrt.Less(b, top, k)
			}
			return pyrt.Less(b, k, top)
		}
		if n == 1 {
			// max() and min() keep the first of equal values.
			var best, bestKey starlark.Value
			op := syntax.LT
			if largest {
				op = syntax.GT
			}
			err := pyrt.ForEach(thread, iterable, func(x starlark.Value) (bool, error) {
				k, err := keyOf(x)
				if err != nil {
					return true, err
				}
				if best != nil {
					if ok, err := pyrt.Compare(thread, op, k, bestKey); err != nil || !ok {
						return err != nil, err
					}
				}
				best, bestKey = x, k
				return false, nil
			})
			if err != nil || best == nil {
				return starlark.NewList(nil), err
			}
			return starlark.NewList([]starlark.Value{best}), nil
		}
		if n <= 0 {
			return starlark.NewList(nil), nil
		}
		if size := starlark.Len(iterable); size >= 0 && n >= size {
			xs := make([]keyed, 0, size)
			if err := b.Alloc(int64(size) * 32); err != nil {
				return nil, err
			}
			defer b.Hold(func(visit func(starlark.Value)) {
				for _, x := range xs {
					visit(x.key)
					visit(x.val)
				}
			})()
			err := pyrt.ForEach(thread, iterable, func(x starlark.Value) (bool, error) {
				k, err := keyOf(x)
				xs = append(xs, keyed{k, x})
				return err != nil, err
			})
			if err != nil {
				return nil, err
			}
			if err := sortKeyed(b, xs, largest); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(xs))
			for i := range xs {
				out[i] = xs[i].val
			}
			return starlark.NewList(out), nil
		}
		h := &sifter[ranked]{less: func(x, y ranked) (bool, error) { return rankedLess(thread, x, y) }}
		if !largest {
			h.less = func(x, y ranked) (bool, error) { return rankedLess(thread, y, x) }
		}
		// The values kept are in no variable of the program (nsmallest(
		// 10**9, g) of a generator keeps all it makes): shown to the meter.
		defer b.Hold(func(visit func(starlark.Value)) {
			for _, r := range h.a {
				visit(r.key)
				visit(r.val)
			}
		})()
		order, step := int64(0), int64(1)
		if largest {
			step = -1
		}
		var top starlark.Value
		err := pyrt.ForEach(thread, iterable, func(x starlark.Value) (bool, error) {
			kx, err := keyOf(x)
			if err != nil {
				return true, err
			}
			if len(h.a) < n {
				if len(h.a) == cap(h.a) {
					// The heap's array doubles: refused alone first.
					if err := b.Alloc(int64(2*cap(h.a)+8) * int64(unsafe.Sizeof(ranked{}))); err != nil {
						return true, err
					}
				}
				h.a = append(h.a, ranked{key: kx, val: x, order: order})
				order += step
				if len(h.a) == n {
					if err := h.heapify(); err != nil {
						return true, err
					}
					top = h.a[0].key
				}
				return false, nil
			}
			if ok, err := better(kx, top); err != nil || !ok {
				return err != nil, err
			}
			if err := h.replace(ranked{key: kx, val: x, order: order}); err != nil {
				return true, err
			}
			order += step
			top = h.a[0].key
			return false, nil
		})
		if err != nil || len(h.a) == 0 {
			return starlark.NewList(nil), err
		}
		if len(h.a) < n {
			// Fewer values than n: CPython heapifies them all the same.
			if err := h.heapify(); err != nil {
				return nil, err
			}
		}
		var sortErr error
		sort.Slice(h.a, func(i, j int) bool {
			if sortErr != nil {
				return false
			}
			x, y := h.a[i], h.a[j]
			if largest {
				x, y = y, x
			}
			lt, err := rankedLess(thread, x, y)
			if err != nil {
				sortErr = err
			}
			return lt
		})
		if sortErr != nil {
			return nil, sortErr
		}
		out := make([]starlark.Value, len(h.a))
		for i := range h.a {
			out[i] = h.a[i].val
		}
		return starlark.NewList(out), nil
	}
}

// heapMerge is merge(*iterables, key=None, reverse=False): an iterator
// over the values of sorted iterables, in order, ties taken from the
// earlier iterable, by CPython's algorithm (a heap of the iterables'
// heads, so each value costs a logarithm of their number). As CPython's
// generator, it takes nothing from the iterables before its first value
// is asked for, then one value at a time, so merging endless or huge
// streams costs only what is read.
func heapMerge(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var key starlark.Value = starlark.None
	reverse := false
	if err := unpack("merge", nil, kwargs, "key?", &key, "reverse?", &reverse); err != nil {
		return nil, err
	}
	keyOf := func(x starlark.Value) (starlark.Value, error) {
		if key == starlark.None {
			return x, nil
		}
		return starlark.Call(thread, key, starlark.Tuple{x}, nil)
	}
	h := &sifter[ranked]{less: func(x, y ranked) (bool, error) { return rankedLess(thread, x, y) }}
	direction := int64(1)
	if reverse {
		h.less = func(x, y ranked) (bool, error) { return rankedLess(thread, y, x) }
		direction = -1
	}
	started, pending := false, false
	var last nextFn // the one iterable left
	if err := interp.BudgetOf(thread).Alloc(int64(len(args)) * slotSize); err != nil {
		return nil, err
	}
	iterables := append(starlark.Tuple(nil), args...)
	state := &mergeState{iterables: iterables, h: h}
	return pyrt.NewIterator(thread, "merge", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		b := interp.BudgetOf(thread)
		if !started {
			started = true
			if err := b.Alloc(int64(len(iterables)) * mergeEntryBytes); err != nil {
				return nil, false, err
			}
			h.a = make([]ranked, 0, len(iterables))
			for i, it := range iterables {
				next, err := pyrt.Iterate(thread, it)
				if err != nil {
					return nil, false, err
				}
				x, ok, err := next()
				if err != nil {
					return nil, false, err
				}
				if !ok {
					continue
				}
				k, err := keyOf(x)
				if err != nil {
					return nil, false, err
				}
				h.a = append(h.a, ranked{key: k, val: x, order: int64(i) * direction, next: next})
			}
			if err := h.heapify(); err != nil {
				return nil, false, err
			}
		}
		if last != nil {
			return last()
		}
		if pending {
			// The top's value was given: its iterable's next takes its place.
			pending = false
			x, ok, err := h.a[0].next()
			if err != nil {
				return nil, false, err
			}
			if !ok {
				if err := h.pop(); err != nil {
					return nil, false, err
				}
			} else {
				k, err := keyOf(x)
				if err != nil {
					return nil, false, err
				}
				if err := h.replace(ranked{key: k, val: x, order: h.a[0].order, next: h.a[0].next}); err != nil {
					return nil, false, err
				}
			}
		}
		switch len(h.a) {
		case 0:
			return nil, false, nil
		case 1:
			// CPython's fast case: the last iterable's values as they come.
			last = h.a[0].next
			v := h.a[0].val
			h.a = nil
			return v, true, nil
		}
		pending = true
		return h.a[0].val, true, nil
	}, state), nil
}

// mergeEntryBytes is what a merge holds for each iterable once started:
// its entry in the heap (48 bytes) and the iterator over it (a closure
// and the iterator, about a hundred), which the meter does not see.
const mergeEntryBytes = 160

// mergeState is what a merge holds, for the memory meter: the iterables
// and, once started, the heap of their heads (a merge of millions of
// iterables holds an entry for each).
type mergeState struct {
	iterables starlark.Tuple
	h         *sifter[ranked]
}

var _ interp.Holder = (*mergeState)(nil)

func (m *mergeState) Held(visit func(starlark.Value)) {
	visit(m.iterables)
	visit(heldMem(m.h.a))
	for _, r := range m.h.a {
		visit(r.key)
		visit(r.val)
	}
}
func (m *mergeState) String() string        { return "<merge state>" }
func (m *mergeState) Type() string          { return "merge_state" }
func (m *mergeState) Freeze()               {}
func (m *mergeState) Truth() starlark.Bool  { return true }
func (m *mergeState) Hash() (uint32, error) { return 0, nil }

// qualifiedTypeName is a value's type as CPython's C functions name it in
// their messages: with its module for a class of a module
// (collections.deque), plain for a builtin type.
func qualifiedTypeName(v starlark.Value) string {
	if c, ok := v.(interface{ PyClass() starlark.Value }); ok {
		if s := c.PyClass().String(); strings.HasPrefix(s, "<class '") {
			return strings.TrimSuffix(strings.TrimPrefix(s, "<class '"), "'>")
		}
	}
	return pyrt.TypeName(v)
}
