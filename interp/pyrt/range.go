package pyrt

import (
	"fmt"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

// rangeValue is range(): Starlark's, except that iterating it charges the
// run that made it. A range is the one value whose length costs nothing
// to create, so it is how a few characters ask Go code for a billion
// iterations: list.extend(range(10**9)), set().union(range(10**9)), f(*range(10**9)).
// Those loops run inside go.starlark.net without steps; charging each
// element to the budget ends them at the deadline, the step budget or
// the memory watchdog.
type rangeValue struct {
	start, stop, step, len int
	budget                 *interp.Budget // the run that made it; nil charges nothing
}

var (
	_ starlark.Indexable  = rangeValue{}
	_ starlark.Sliceable  = rangeValue{}
	_ starlark.Comparable = rangeValue{}
	_ starlark.Container  = rangeValue{}
)

func rangeBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var start, stop, step int
	step = 1
	if len(kwargs) > 0 {
		return nil, typeError("range() takes no keyword arguments")
	}
	if len(args) == 0 {
		return nil, typeError("range expected at least 1 argument, got 0")
	}
	if len(args) > 3 {
		return nil, typeError("range expected at most 3 arguments, got %d", len(args))
	}
	ints := []*int{&start, &stop, &step}
	if len(args) == 1 {
		ints = []*int{&stop}
	}
	for i, a := range args {
		n, err := rangeInt(a)
		if err != nil {
			return nil, err
		}
		*ints[i] = n
	}
	if step == 0 {
		return nil, valueError("range() arg 3 must not be zero")
	}
	return rangeValue{start: start, stop: stop, step: step, len: rangeLen(start, stop, step), budget: interp.BudgetOf(thread)}, nil
}

func rangeInt(v starlark.Value) (int, error) {
	i, ok := v.(starlark.Int)
	if !ok {
		if b, ok := v.(starlark.Bool); ok {
			if b {
				return 1, nil
			}
			return 0, nil
		}
		return 0, typeError("'%s' object cannot be interpreted as an integer", pyTypeName(v))
	}
	n, ok := i.Int64()
	if !ok || n != int64(int(n)) {
		return 0, exception("OverflowError", "range() argument %s does not fit in 64 bits", i)
	}
	return int(n), nil
}

func rangeLen(start, stop, step int) int {
	switch {
	case step > 0 && stop > start:
		return int((uint64(stop)-1-uint64(start))/uint64(step) + 1)
	case step < 0 && start > stop:
		return int((uint64(start)-1-uint64(stop))/uint64(-step) + 1)
	}
	return 0
}

func (r rangeValue) Len() int                   { return r.len }
func (r rangeValue) Index(i int) starlark.Value { return starlark.MakeInt(r.start + i*r.step) }
func (r rangeValue) Iterate() starlark.Iterator { return &rangeIterator{r: r} }
func (r rangeValue) Freeze()                    {}
func (r rangeValue) Type() string               { return "range" }
func (r rangeValue) Truth() starlark.Bool       { return r.len > 0 }
func (r rangeValue) Hash() (uint32, error) {
	return starlark.Tuple{starlark.MakeInt(r.start), starlark.MakeInt(r.stop), starlark.MakeInt(r.step)}.Hash()
}

func (r rangeValue) String() string {
	if r.step != 1 {
		return fmt.Sprintf("range(%d, %d, %d)", r.start, r.stop, r.step)
	}
	// Python writes the start even when it is 0: range(0, 3).
	return fmt.Sprintf("range(%d, %d)", r.start, r.stop)
}

func (r rangeValue) Slice(start, end, step int) starlark.Value {
	newStart := r.start + r.step*start
	newStop := r.start + r.step*end
	newStep := r.step * step
	return rangeValue{start: newStart, stop: newStop, step: newStep, len: rangeLen(newStart, newStop, newStep), budget: r.budget}
}

func (r rangeValue) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	eq := rangeEqual(r, y.(rangeValue))
	switch op {
	case syntax.EQL:
		return eq, nil
	case syntax.NEQ:
		return !eq, nil
	}
	return false, typeError("'%s' not supported between instances of 'range' and 'range'", op)
}

// rangeEqual: two ranges are equal when they denote the same sequence.
func rangeEqual(x, y rangeValue) bool {
	switch {
	case x.len != y.len:
		return false
	case x.len == 0:
		return true
	case x.start != y.start:
		return false
	}
	return x.len == 1 || x.step == y.step
}

func (r rangeValue) Has(y starlark.Value) (bool, error) {
	if b, ok := y.(starlark.Bool); ok {
		y = boolInt(b) // False in range(5): a bool is the int it is
	}
	i, ok := y.(starlark.Int)
	if !ok {
		return false, nil // Python compares by ==; nothing else equals an element
	}
	x, ok := i.Int64()
	if !ok {
		return false, nil
	}
	delta := x - int64(r.start)
	step := int64(r.step)
	return delta%step == 0 && delta/step >= 0 && delta/step < int64(r.len), nil
}

type rangeIterator struct {
	r rangeValue
	i int
}

func (it *rangeIterator) Next(p *starlark.Value) bool {
	if it.i >= it.r.len {
		return false
	}
	// A spent budget ends the iteration early; the thread was cancelled
	// with it, so nothing the early end produced is ever used.
	if it.r.budget.Charge(1) != nil {
		return false
	}
	*p = it.r.Index(it.i)
	it.i++
	return true
}

func (it *rangeIterator) Done() {}

var _ starlark.HasAttrs = rangeValue{}

func (r rangeValue) AttrNames() []string { return []string{"count", "index", "start", "step", "stop"} }

// Attr is a range's start, stop and step, and its methods index and
// count.
func (r rangeValue) Attr(name string) (starlark.Value, error) {
	switch name {
	case "start":
		return starlark.MakeInt(r.start), nil
	case "stop":
		return starlark.MakeInt(r.stop), nil
	case "step":
		return starlark.MakeInt(r.step), nil
	case "index", "count":
		return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := arity("range."+name, args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			x := args[0]
			if b, ok := x.(starlark.Bool); ok {
				x = boolInt(b)
			}
			in, _ := r.Has(x)
			if name == "count" {
				if in {
					return starlark.MakeInt(1), nil
				}
				return starlark.MakeInt(0), nil
			}
			if !in {
				s, _ := interp.Repr(nil, args[0])
				return nil, valueError("%s is not in range", s)
			}
			n, _ := x.(starlark.Int).Int64()
			return starlark.MakeInt64((n - int64(r.start)) / int64(r.step)), nil
		}), nil
	}
	return nil, nil
}
