package pyrt

import (
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// pySort sorts values by keys (the same slice when there is no key
// function), stably, in Python's order and with its errors (pyLess). With
// reverse, equal elements keep their order, as in Python.
//
// It is a merge sort that skips the merge of runs already in order, so
// that it makes about n·log2(n) comparisons, and fewer on data that is
// partly sorted, as CPython's does: a comparison of keys is a Go call
// here, often over tuples, and it is most of what sorting costs.
func pySort(b *interp.Budget, keys, values []starlark.Value, reverse bool) error {
	s := sorter{b: b, keys: keys, reverse: reverse}
	idx := make([]int, len(values))
	for i := range idx {
		idx[i] = i
	}
	s.sort(idx, make([]int, len(idx)/2+1))
	if s.err != nil {
		return s.err
	}
	sorted := make([]starlark.Value, len(values))
	for k, i := range idx {
		sorted[k] = values[i]
	}
	copy(values, sorted)
	return nil
}

type sorter struct {
	b       *interp.Budget
	keys    []starlark.Value
	reverse bool
	err     error // the first comparison that failed; later ones answer 0
}

// less reports whether the element at i goes strictly before the one at
// j. Only "less than" is asked of values that are not str, int, float or
// tuples, once (a program's __lt__), as CPython's sort asks it: asking
// both ways to order them made half as many calls again.
func (s *sorter) less(i, j int) bool {
	if s.err != nil {
		return false
	}
	x, y := s.keys[i], s.keys[j]
	if s.reverse {
		x, y = y, x
	}
	if _, rich := x.(RichComparer); !rich {
		if _, rich := y.(RichComparer); !rich {
			c, err := order(s.b, x, y)
			if err != nil {
				s.err = err
			}
			return c < 0
		}
	}
	lt, err := pyLess(s.b, x, y, 0)
	if err != nil {
		s.err = err
	}
	return lt
}

// sort sorts a stably; buf holds at least half of a.
func (s *sorter) sort(a, buf []int) {
	if len(a) <= 12 {
		for i := 1; i < len(a); i++ {
			for j := i; j > 0 && s.less(a[j], a[j-1]); j-- {
				a[j], a[j-1] = a[j-1], a[j]
			}
		}
		return
	}
	m := len(a) / 2
	s.sort(a[:m], buf)
	s.sort(a[m:], buf)
	if s.err != nil || !s.less(a[m], a[m-1]) {
		return // the two halves are in order already
	}
	left := buf[:m]
	copy(left, a[:m])
	i, j, k := 0, m, 0
	for i < len(left) && j < len(a) {
		// An element of the right half goes first only when strictly
		// less: equal elements keep their order.
		if s.less(a[j], left[i]) {
			a[k] = a[j]
			j++
		} else {
			a[k] = left[i]
			i++
		}
		k++
	}
	copy(a[k:], left[i:]) // what is left of the right half is in place
}

// order is a three-way pyLess: negative when x < y, positive when y < x,
// 0 when neither (equal, or unordered as NaN and sets are). The keys
// programs sort by most (str, int, float and tuples of them) are compared
// here without boxing; the rest as pyLess does, both ways.
func order(b *interp.Budget, x, y starlark.Value) (int, error) {
	if c, ok, err := orderScalar(b, x, y); ok {
		return c, err
	}
	if xt, ok := x.(starlark.Tuple); ok {
		if yt, ok := y.(starlark.Tuple); ok {
			return orderTuples(b, xt, yt)
		}
	}
	return orderSlow(b, x, y, 0)
}

// orderScalar orders two str, two int or two floats that are not NaN;
// ok is false for any other pair. For these, 0 means equal.
func orderScalar(b *interp.Budget, x, y starlark.Value) (c int, ok bool, err error) {
	switch x := x.(type) {
	case starlark.String:
		if y, ok := y.(starlark.String); ok {
			return strings.Compare(string(x), string(y)), true, b.Charge(1)
		}
	case starlark.Int:
		if y, ok := y.(starlark.Int); ok {
			c, err := x.Cmp(y, 0)
			if err == nil {
				err = b.Charge(1)
			}
			return c, true, err
		}
	case starlark.Float:
		if y, ok := y.(starlark.Float); ok && x == x && y == y {
			switch {
			case x < y:
				c = -1
			case x > y:
				c = 1
			}
			return c, true, b.Charge(1)
		}
	}
	return 0, false, nil
}

// orderTuples is Python's order of tuples: the first pair of elements that
// are not equal decides, by <; else the shorter goes first.
func orderTuples(b *interp.Budget, x, y starlark.Tuple) (int, error) {
	if err := b.Charge(1); err != nil {
		return 0, err
	}
	for i := 0; i < len(x) && i < len(y); i++ {
		c, ok, err := orderScalar(b, x[i], y[i])
		if err != nil {
			return 0, err
		}
		if ok {
			if c != 0 {
				return c, nil
			}
			continue
		}
		eq, err := pyEqualDepth(b, x[i], y[i], 1)
		if err != nil {
			return 0, err
		}
		if !eq {
			return orderSlow(b, x[i], y[i], 1)
		}
	}
	switch {
	case len(x) < len(y):
		return -1, nil
	case len(x) > len(y):
		return 1, nil
	}
	return 0, nil
}

// orderSlow asks pyLess both ways.
func orderSlow(b *interp.Budget, x, y starlark.Value, depth int) (int, error) {
	lt, err := pyLess(b, x, y, depth)
	if err != nil || lt {
		return -1, err
	}
	gt, err := pyLess(b, y, x, depth)
	if err != nil || gt {
		return 1, err
	}
	return 0, nil
}

// call1 calls fn with the one argument x. A function of the program
// copies its arguments into its frame on entry, so *arg, one tuple made on
// the first call, serves every call of a loop (a sort's key, a generator's
// expression); anything else (a builtin may keep what it is given) gets a
// tuple of its own each time.
func call1(thread *starlark.Thread, fn starlark.Callable, arg *starlark.Tuple, x starlark.Value) (starlark.Value, error) {
	if _, ok := fn.(*starlark.Function); !ok {
		return starlark.Call(thread, fn, starlark.Tuple{x}, nil)
	}
	if *arg == nil {
		*arg = make(starlark.Tuple, 1)
	}
	(*arg)[0] = x
	return starlark.Call(thread, fn, *arg, nil)
}
