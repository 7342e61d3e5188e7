package pyrt

import (
	"errors"
	"fmt"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

// Python's iterators: iter(x), map() and filter() make values with state
// that next(), for loops, list(), sum() and the other consumers advance,
// once, as in Python. Every element an iterator yields is charged to the
// run's budget.
//
// An iterator keeps the thread of the run that made it, to call its
// function (map, filter) from a for loop, where go.starlark.net gives it
// no thread. A failure of that function inside a for loop cannot be
// returned through go.starlark.net's iteration, so it ends the run with
// the function's error; consumed by a builtin (list(), sum(), next(), …)
// the error is raised where it can be caught.

// pyIter is an iterator value.
type pyIter struct {
	name   string // "map", "filter", "list_iterator", …
	src    source
	thread *starlark.Thread
	repr   func() string // the text of an iterator CPython prints by its state (count(3)); nil for <name object>
}

// source yields the elements of an iterator.
type source interface {
	next(thread *starlark.Thread) (starlark.Value, bool, error)
}

var _ interp.Holder = (*pyIter)(nil)

// Held visits what the iterator holds on to, for the memory meter: the
// elements of a snapshot still to give, the sequence it walks, the
// iterators and function of a map or filter.
func (it *pyIter) Held(visit func(starlark.Value)) {
	switch s := it.src.(type) {
	case *sliceSource:
		for _, x := range s.elems[s.i:] {
			visit(x)
		}
	case *indexSource:
		visit(s.seq)
	case *mapSource:
		visit(s.fn)
		for _, i := range s.iters {
			visit(i)
		}
	case *genSource:
		visit(s.it)
		visit(s.elt)
		if s.cond != nil {
			visit(s.cond)
		}
	case *funcSource:
		for _, x := range s.held {
			visit(x)
		}
	case *filterSource:
		if s.fn != nil {
			visit(s.fn)
		}
		visit(s.it)
	case *zipSource:
		for _, i := range s.iters {
			visit(i)
		}
	case *enumerateSource:
		visit(s.it)
	}
}

var (
	_ starlark.Iterable  = (*pyIter)(nil)
	_ starlark.Container = (*pyIter)(nil)
)

func (it *pyIter) String() string {
	if it.repr != nil {
		return it.repr()
	}
	return "<" + it.name + " object>"
}
func (it *pyIter) Type() string          { return it.name }
func (it *pyIter) Freeze()               {}
func (it *pyIter) Truth() starlark.Bool  { return true }
func (it *pyIter) Hash() (uint32, error) { return starlark.String(it.name).Hash() }

// next yields the iterator's next element, charged to thread's budget.
func (it *pyIter) next(thread *starlark.Thread) (starlark.Value, bool, error) {
	if thread == nil {
		thread = it.thread
	}
	if err := interp.BudgetOf(thread).Charge(1); err != nil {
		return nil, false, err
	}
	return it.src.next(thread)
}

// Iterate is how go.starlark.net consumes the iterator (a for loop, a
// comprehension, unpacking): it shares the iterator's state.
func (it *pyIter) Iterate() starlark.Iterator { return &pyIterView{it: it} }

// Has is `x in it`: it consumes the iterator up to x, as in Python.
func (it *pyIter) Has(y starlark.Value) (bool, error) {
	for {
		x, ok, err := it.next(nil)
		if err != nil || !ok {
			return false, err
		}
		eq, err := pyEqual(interp.BudgetOf(it.thread), x, y)
		if err != nil || eq {
			return eq, err
		}
	}
}

type pyIterView struct{ it *pyIter }

func (v *pyIterView) Next(p *starlark.Value) bool {
	x, ok, err := v.it.next(nil)
	if err != nil {
		// go.starlark.net's iteration has no way to fail: end the run
		// with the error rather than end the loop as if it were done.
		if !isBudget(err) && v.it.thread != nil {
			v.it.thread.Cancel(err.Error())
		}
		return false
	}
	if ok {
		*p = x
	}
	return ok
}

func (v *pyIterView) Done() {}

// indexSource walks an indexable value by position, so that the value
// stays mutable meanwhile (go.starlark.net's own iterators lock a list
// until they are done) and sees appends, as Python's list iterator does.
type indexSource struct {
	seq starlark.Indexable
	i   int
}

func (s *indexSource) next(*starlark.Thread) (starlark.Value, bool, error) {
	if s.i >= s.seq.Len() {
		return nil, false, nil
	}
	x := s.seq.Index(s.i)
	s.i++
	return x, true, nil
}

// sliceSource walks a snapshot: the keys of a dict, the elements of a
// set. A change of the size of what it was taken from (len) fails the
// iteration, as in Python.
type sliceSource struct {
	elems   []starlark.Value
	i       int
	of      starlark.Sequence // nil for a snapshot of something immutable
	changed string            // Python's complaint when of changed size
}

func (s *sliceSource) next(*starlark.Thread) (starlark.Value, bool, error) {
	if s.of != nil && s.of.Len() != len(s.elems) {
		s.i, s.of = len(s.elems), nil // Python's iterator is done after it
		return nil, false, exception("RuntimeError", "%s changed size during iteration", s.changed)
	}
	if s.i >= len(s.elems) {
		return nil, false, nil
	}
	x := s.elems[s.i]
	s.elems[s.i] = nil
	s.i++
	return x, true, nil
}

// iterSource walks any other iterable with its own iterator.
type iterSource struct {
	it starlark.Iterator
	x  starlark.Value // Next's target: a local would escape, one allocation per element
}

func (s *iterSource) next(*starlark.Thread) (starlark.Value, bool, error) {
	if s.it == nil {
		return nil, false, nil
	}
	if s.it.Next(&s.x) {
		return s.x, true, nil
	}
	s.it.Done()
	s.it = nil
	return nil, false, nil
}

// iterOf is iter(v): v itself when it is an iterator.
func iterOf(thread *starlark.Thread, v starlark.Value) (*pyIter, error) {
	if it, ok := v.(*pyIter); ok {
		return it, nil
	}
	mk := func(name string, src source) *pyIter { return &pyIter{name: name, src: src, thread: thread} }
	if d := heldDict(v); d != nil {
		// A Counter, defaultdict or OrderedDict: its keys, as a dict's.
		v = d
	}
	switch x := v.(type) {
	case starlark.String:
		return mk("str_ascii_iterator", &indexSource{seq: x}), nil
	case *interp.Unicode:
		return mk("str_iterator", &indexSource{seq: x}), nil
	case *starlark.List:
		return mk("list_iterator", &indexSource{seq: x}), nil
	case starlark.Tuple:
		return mk("tuple_iterator", &indexSource{seq: x}), nil
	case rangeValue:
		return mk("range_iterator", &indexSource{seq: x}), nil
	case interp.Bytes:
		return mk("bytes_iterator", &indexSource{seq: x}), nil
	case starlark.Bytes:
		return mk("bytes_iterator", &indexSource{seq: interp.Bytes(x)}), nil
	case *starlark.Dict:
		keys := x.Keys()
		if err := interp.BudgetOf(thread).Alloc(int64(len(keys)) * slot); err != nil {
			return nil, err
		}
		return mk("dict_keyiterator", &sliceSource{elems: keys, of: x, changed: "dictionary"}), nil
	case *starlark.Set:
		elems, err := collect(interp.BudgetOf(thread), "iter", x, slot)
		if err != nil {
			return nil, err
		}
		return mk("set_iterator", &sliceSource{elems: elems, of: x, changed: "Set"}), nil
	case *frozenSet:
		elems, err := collect(interp.BudgetOf(thread), "iter", x, slot)
		if err != nil {
			return nil, err
		}
		return mk("set_iterator", &sliceSource{elems: elems}), nil
	case Iterer:
		it, err := x.Iter(thread)
		if err != nil {
			return nil, err
		}
		if _, again := it.(Iterer); !again {
			return iterOf(thread, it)
		}
	case Stepper:
		if g, ok := x.(*Generator); ok && g.kind != kindGenerator {
			return nil, typeError("'%s' object is not iterable", g.kind)
		}
		return mk(x.Type(), stepSource{x}), nil
	case Walker:
		return mk("_"+x.Type()+"_iterator", walkSource{x.Walk()}), nil
	}
	it := starlark.Iterate(v)
	if it == nil {
		return nil, typeError("'%s' object is not iterable", pyTypeName(v))
	}
	return mk("iterator", &iterSource{it: it}), nil
}

// callableSource is iter(f, sentinel): f() until it returns sentinel.
type callableSource struct {
	fn       starlark.Callable
	sentinel starlark.Value
	done     bool
}

func (s *callableSource) next(thread *starlark.Thread) (starlark.Value, bool, error) {
	if s.done {
		return nil, false, nil
	}
	x, err := starlark.Call(thread, s.fn, nil, nil)
	if err != nil {
		if isStopIteration(err) {
			s.done = true // the callable's StopIteration ends it too
			return nil, false, nil
		}
		return nil, false, err
	}
	eq, err := pyEqual(interp.BudgetOf(thread), x, s.sentinel)
	if err != nil {
		return nil, false, err
	}
	if eq {
		s.done = true
		return nil, false, nil
	}
	return x, true, nil
}

// iterBuiltin is iter(iterable) or iter(callable, sentinel).
func iterBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("iter", args, kwargs, 1, 2); err != nil {
		return nil, err
	}
	switch len(args) {
	case 1:
		if s, ok := args[0].(Stepper); ok {
			if g, ok := s.(*Generator); !ok || g.kind == kindGenerator {
				return s, nil // its own iterator: iter(g) is g
			}
		}
		return iterOf(thread, args[0])
	case 2:
		fn, ok := args[0].(starlark.Callable)
		if !ok {
			return nil, typeError("iter(v, w): v must be callable")
		}
		return &pyIter{name: "callable_iterator", src: &callableSource{fn: fn, sentinel: args[1]}, thread: thread}, nil
	}
	return nil, nil // (arity)
}

// nextBuiltin is next(iterator[, default]).
func nextBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("next", args, kwargs, 1, 2); err != nil {
		return nil, err
	}
	var x starlark.Value
	var ok bool
	var err error
	switch it := args[0].(type) {
	case *pyIter:
		x, ok, err = it.next(thread)
	case *Generator:
		if it.kind != kindGenerator {
			return nil, typeError("'%s' object is not an iterator", it.kind)
		}
		x, err = it.Next(thread)
		if err != nil && len(args) == 2 && isStopIteration(err) {
			return args[1], nil
		}
		return x, err
	case Stepper:
		x, ok, err = it.Step(thread)
	default:
		return nil, typeError("'%s' object is not an iterator", pyTypeName(args[0]))
	}
	if err != nil {
		return nil, err
	}
	if ok {
		return x, nil
	}
	if len(args) == 2 {
		return args[1], nil
	}
	return nil, &Exception{Class: "StopIteration"}
}

// genSource is a generator expression with one for clause, taken one
// element at a time: elt of each element of it for which cond (nil: no
// if) holds. The lowering makes elt and cond lambdas of the variable.
type genSource struct {
	it        *pyIter
	elt, cond starlark.Callable
	arg       starlark.Tuple // the argument of elt and cond (call1)
	closed    bool           // close() or throw() ended it
}

func (s *genSource) next(thread *starlark.Thread) (starlark.Value, bool, error) {
	if s.closed {
		return nil, false, nil
	}
	for {
		x, ok, err := s.it.next(thread)
		if err != nil || !ok {
			return nil, false, err
		}
		if s.cond != nil {
			keep, err := call1(thread, s.cond, &s.arg, x)
			if err != nil {
				return nil, false, genExpEscaped(err)
			}
			if !keep.Truth() {
				continue
			}
		}
		v, err := call1(thread, s.elt, &s.arg, x)
		if err != nil {
			return nil, false, genExpEscaped(err)
		}
		return v, true, nil
	}
}

// genBuiltin is __ot_gen(iterable, elt, cond): a generator expression
// that gives its values as they are asked for, as Python's does, so that
// next(), any() and all() stop early and run nothing more.
func genBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	it, err := iterOf(thread, args[0])
	if err != nil {
		return nil, err
	}
	src := &genSource{it: it, elt: args[1].(starlark.Callable)}
	if c, ok := args[2].(starlark.Callable); ok {
		src.cond = c
	}
	return &pyIter{name: "generator", src: src, thread: thread}, nil
}

// mapSource is map(fn, *iterables): fn of an element of each, until the
// shortest ends.
type mapSource struct {
	fn    starlark.Callable
	iters []*pyIter
}

func (s *mapSource) next(thread *starlark.Thread) (starlark.Value, bool, error) {
	args := make(starlark.Tuple, len(s.iters))
	for i, it := range s.iters {
		x, ok, err := it.next(thread)
		if err != nil || !ok {
			return nil, false, err
		}
		args[i] = x
	}
	v, err := starlark.Call(thread, s.fn, args, nil)
	if err != nil {
		return nil, false, err
	}
	return v, true, nil
}

func mapBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, typeError("map() takes no keyword arguments")
	}
	if len(args) < 2 {
		return nil, typeError("map() must have at least two arguments.")
	}
	fn, ok := args[0].(starlark.Callable)
	if !ok {
		return nil, typeError("'%s' object is not callable", pyTypeName(args[0]))
	}
	iters := make([]*pyIter, len(args)-1)
	for i, a := range args[1:] {
		it, err := iterOf(thread, a)
		if err != nil {
			return nil, err
		}
		iters[i] = it
	}
	return &pyIter{name: "map", src: &mapSource{fn: fn, iters: iters}, thread: thread}, nil
}

// filterSource is filter(fn, iterable): the elements fn holds true, or
// the true elements when fn is None.
type filterSource struct {
	fn  starlark.Callable // nil: the elements' own truth
	it  *pyIter
	arg starlark.Tuple // fn's argument (call1)
}

func (s *filterSource) next(thread *starlark.Thread) (starlark.Value, bool, error) {
	for {
		x, ok, err := s.it.next(thread)
		if err != nil || !ok {
			return nil, false, err
		}
		keep := x
		if s.fn != nil {
			if keep, err = call1(thread, s.fn, &s.arg, x); err != nil {
				return nil, false, err
			}
		}
		if keep.Truth() {
			return x, true, nil
		}
	}
}

func filterBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("filter", args, kwargs, 2, 2); err != nil {
		return nil, err
	}
	var fn starlark.Callable
	if args[0] != starlark.None {
		var ok bool
		if fn, ok = args[0].(starlark.Callable); !ok {
			return nil, typeError("'%s' object is not callable", pyTypeName(args[0]))
		}
	}
	it, err := iterOf(thread, args[1])
	if err != nil {
		return nil, err
	}
	return &pyIter{name: "filter", src: &filterSource{fn: fn, it: it}, thread: thread}, nil
}

// puller yields the elements of any iterable one at a time, each charged
// to the run: a str gives its characters, an iterator its remaining
// elements (with errors of its function returned, not lost).
type puller struct {
	thread *starlark.Thread
	b      *interp.Budget
	py     *pyIter
	it     starlark.Iterator
	x      starlark.Value // it.Next's target: a local would escape, one allocation per element
}

func newPuller(thread *starlark.Thread, v starlark.Value) (*puller, error) {
	p := &puller{thread: thread, b: interp.BudgetOf(thread)}
	switch x := v.(type) {
	case *pyIter:
		p.py = x
		return p, nil
	case starlark.String, starlark.Bytes, interp.Bytes, *starlark.Dict, *starlark.Set, Stepper, Iterer:
		// By position or snapshot: no lock on the value meanwhile, and
		// Python's error when a dict or set changes size.
		it, err := iterOf(thread, x)
		if err != nil {
			return nil, err
		}
		p.py = it
		return p, nil
	}
	p.it = starlark.Iterate(v)
	if p.it == nil {
		return nil, typeError("'%s' object is not iterable", pyTypeName(v))
	}
	return p, nil
}

func (p *puller) next() (starlark.Value, bool, error) {
	if p.py != nil {
		return p.py.next(p.thread)
	}
	if err := p.b.Charge(1); err != nil {
		return nil, false, err
	}
	if p.it.Next(&p.x) {
		return p.x, true, nil
	}
	// An iteration a spent budget cut short (a range) is no result.
	return nil, false, p.b.Charge(0)
}

func (p *puller) done() {
	if p.it != nil {
		p.it.Done()
	}
}

// forEach calls fn with each element of v until fn says stop.
func forEach(thread *starlark.Thread, v starlark.Value, fn func(x starlark.Value) (stop bool, err error)) error {
	p, err := newPuller(thread, v)
	if err != nil {
		return err
	}
	defer p.done()
	for {
		x, ok, err := p.next()
		if err != nil || !ok {
			return err
		}
		stop, err := fn(x)
		if err != nil || stop {
			return err
		}
	}
}

// anyAllBuiltin makes any and all: they stop at the first element that
// decides, as Python's do.
func anyAllBuiltin(name string) interp.BuiltinFunc {
	want := name == "any"
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity(name, args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		iterable := args[0]
		found := false
		err := forEach(thread, iterable, func(x starlark.Value) (bool, error) {
			if bool(x.Truth()) == want {
				found = true
				return true, nil
			}
			return false, nil
		})
		if err != nil {
			return nil, err
		}
		return starlark.Bool(found == want), nil
	}
}

// minmaxBuiltin makes min and max: of an iterable or of the arguments,
// with key= and (for an iterable) default=, comparing with pyLess under
// the run's budget. Of equal elements the first wins, as in Python.
func minmaxBuiltin(name string) interp.BuiltinFunc {
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var key, dflt starlark.Value
		for _, kv := range kwargs {
			k, _ := starlark.AsString(kv[0])
			switch k {
			case "key":
				key = kv[1]
			case "default":
				dflt = kv[1]
			default:
				return nil, typeError("'%s' is an invalid keyword argument for %s()", k, name)
			}
		}
		var iterable starlark.Value
		switch {
		case len(args) == 0:
			return nil, typeError("%s expected at least 1 argument, got 0", name)
		case len(args) == 1:
			iterable = args[0]
		case dflt != nil:
			return nil, typeError("Cannot specify a default for %s() with multiple positional arguments", name)
		default:
			iterable = args
		}
		var fn starlark.Callable
		if key != nil && key != starlark.None {
			var ok bool
			if fn, ok = key.(starlark.Callable); !ok {
				return nil, typeError("'%s' object is not callable", pyTypeName(key))
			}
		}
		b := interp.BudgetOf(thread)
		var best, bestKey starlark.Value
		var arg starlark.Tuple
		err := forEach(thread, iterable, func(x starlark.Value) (bool, error) {
			k := x
			if fn != nil {
				var err error
				if k, err = call1(thread, fn, &arg, x); err != nil {
					return true, err
				}
			}
			if best == nil {
				best, bestKey = x, k
				return false, nil
			}
			var better bool
			var err error
			if name == "max" {
				better, err = pyCompare(b, syntax.GT, k, bestKey)
			} else {
				better, err = pyCompare(b, syntax.LT, k, bestKey)
			}
			if better {
				best, bestKey = x, k
			}
			return err != nil, err
		})
		if err != nil {
			return nil, err
		}
		if best == nil {
			if dflt != nil {
				return dflt, nil
			}
			return nil, valueError("%s() arg is an empty sequence", name)
		}
		return best, nil
	}
}

// pyCompare is x op y (op < or >) as Python compares: bools are ints,
// a NaN is neither less nor greater than anything, str of either kind
// compare by code points, lists and tuples element by element, under the
// budget; values that do not compare give CPython's TypeError.
func pyCompare(b *interp.Budget, op syntax.Token, x, y starlark.Value) (bool, error) {
	return pyCmp(b, op, x, y, 0)
}

// pyLess is x < y; see pyCompare.
func pyLess(b *interp.Budget, x, y starlark.Value, depth int) (bool, error) {
	return pyCmp(b, syntax.LT, x, y, depth)
}

func notSupported(op syntax.Token, x, y starlark.Value) error {
	return typeError("'%s' not supported between instances of '%s' and '%s'", op, pyTypeName(x), pyTypeName(y))
}

func pyCmp(b *interp.Budget, op syntax.Token, x, y starlark.Value, depth int) (bool, error) {
	if depth > interp.MaxDepth {
		return false, interp.ErrTooDeep
	}
	if err := b.Charge(1); err != nil {
		return false, err
	}
	if nx, ok := number(x); ok {
		if ny, ok := number(y); ok {
			if isNaN(nx) || isNaN(ny) {
				return false, nil
			}
			return starlark.Compare(op, nx, ny)
		}
	}
	if xs, ok := interp.AsText(x); ok {
		if ys, ok := interp.AsText(y); ok {
			// UTF-8 byte order is code point order.
			if op == syntax.LT {
				return xs < ys, nil
			}
			return xs > ys, nil
		}
	}
	xs, xok := elements(x)
	ys, yok := elements(y)
	if xok && yok && x.Type() == y.Type() {
		for i := 0; i < xs.Len() && i < ys.Len(); i++ {
			xi, yi := xs.Index(i), ys.Index(i)
			eq, err := pyEqualDepth(b, xi, yi, depth+1)
			if err != nil {
				return false, err
			}
			if !eq {
				return pyCmp(b, op, xi, yi, depth+1)
			}
		}
		if op == syntax.LT {
			return xs.Len() < ys.Len(), nil
		}
		return xs.Len() > ys.Len(), nil
	}
	if x.Type() != y.Type() {
		// An instance against another type: its class's methods, or
		// its builtin value's order (an IntEnum member and an int).
		if r, ok, err := RichCompare(b.Thread(), op, x, y); ok {
			return r, err
		}
		if tx, ty, ok := tuplePair(x, y); ok {
			return pyCmp(b, op, tx, ty, depth)
		}
		if r, ok, err := compareNumbers(op, x, y); ok || err != nil {
			return r, err
		}
		if err := mixedError(x, y); err != nil {
			return false, err
		}
		return false, notSupported(op, x, y)
	}
	r, err := starlark.Compare(op, x, y)
	if err != nil {
		// A module's value says why, as CPython's does; the error of code
		// that the comparison ran (the function of functools.cmp_to_key)
		// is the program's, passed on as it is.
		var ex *Exception
		var ee *starlark.EvalError
		if isBudget(err) || errors.As(err, &ex) || errors.As(err, &ee) {
			return false, err
		}
		return false, notSupported(op, x, y)
	}
	return r, nil
}

func isNaN(v starlark.Value) bool {
	f, ok := v.(starlark.Float)
	return ok && f != f
}

func isNumber(v starlark.Value) bool {
	_, ok := number(v)
	return ok
}

// pyEqual is x == y as Python compares: a bool equals the int it stands
// for; containers element by element, under the budget.
func pyEqual(b *interp.Budget, x, y starlark.Value) (bool, error) {
	return pyEqualDepth(b, x, y, 0)
}

func pyEqualDepth(b *interp.Budget, x, y starlark.Value, depth int) (bool, error) {
	if depth > interp.MaxDepth {
		return false, interp.ErrTooDeep
	}
	if rx, ok := x.(RichComparer); ok && rx == y {
		return true, nil // containers test identity first
	}
	if r, ok, err := RichCompare(b.Thread(), syntax.EQL, x, y); ok {
		return r, err
	}
	if nx, ok := number(x); ok {
		if ny, ok := number(y); ok {
			if err := b.Charge(1); err != nil {
				return false, err
			}
			return starlark.Equal(nx, ny)
		}
	}
	xs, xok := elements(x)
	ys, yok := elements(y)
	if !xok || !yok || x.Type() != y.Type() {
		if tx, ty, ok := tuplePair(x, y); ok {
			return pyEqualDepth(b, tx, ty, depth)
		}
		return equal(b, x, y, depth)
	}
	if err := b.Charge(1); err != nil {
		return false, err
	}
	if same(x, y) {
		return true, nil
	}
	if xs.Len() != ys.Len() {
		return false, nil
	}
	for i := range xs.Len() {
		eq, err := pyEqualDepth(b, xs.Index(i), ys.Index(i), depth+1)
		if err != nil || !eq {
			return false, err
		}
	}
	return true, nil
}

// drain is the remaining elements of the iterator, on the thread that
// made it.
func (it *pyIter) drain() ([]starlark.Value, error) {
	b := interp.BudgetOf(it.thread)
	var out []starlark.Value
	defer b.HoldValues(&out)()
	for {
		x, ok, err := it.next(nil)
		if err != nil || !ok {
			return out, err
		}
		if out, err = appendCharged(b, out, x, slot); err != nil {
			return nil, err
		}
	}
}

// appendCharged appends x to out, refusing first a growth of out that
// alone would exceed the memory budget at unit bytes an element: an
// iterator of unknown length (a map of a huge range) must not grow a
// slice of gigabytes, copied in one uninterruptible step, before the
// memory watchdog looks.
func appendCharged(b *interp.Budget, out []starlark.Value, x starlark.Value, unit int64) ([]starlark.Value, error) {
	if len(out) == cap(out) {
		if err := b.Alloc(int64(2*cap(out)+8) * unit); err != nil {
			return nil, err
		}
		// The larger array must fit beside what the run holds (out among
		// it, with what its elements hold: a list of permutations holds
		// their tuples), or the run would pass its budget in one copy.
		if err := b.Room(int64(grownCap(cap(out))-cap(out)) * slot); err != nil {
			return nil, err
		}
	}
	return append(out, x), nil
}

// grownCap is about the capacity append gives a full slice of
// capacity c of interfaces: twice as large while small, then a quarter
// more (runtime.nextslicecap).
func grownCap(c int) int {
	if c < 256 {
		return max(2*c, 8)
	}
	return c + (c+3*256)/4
}

// ownIterator is v as an iterator of this package when go.starlark.net
// cannot iterate it as Python does: an iterator (whose function's errors
// must not be lost) or bytes (which go.starlark.net does not iterate).
func ownIterator(thread *starlark.Thread, v starlark.Value) (*pyIter, bool) {
	switch x := v.(type) {
	case *pyIter:
		return x, true
	case starlark.Bytes, interp.Bytes, Stepper:
		it, _ := iterOf(thread, x)
		return it, true
	}
	return nil, false
}

// pyZip is zip(*iterables, strict=False): an iterator of tuples, lazy
// as Python's (it takes one element of each iterable per tuple, and is
// consumed once).
func pyZip(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var strictArg starlark.Value
	if err := unpackArgs("zip", nil, kwargs, []string{"strict"}, 0, &strictArg); err != nil {
		return nil, err
	}
	iters := make([]*pyIter, len(args))
	for i, a := range args {
		it, err := iterOf(thread, a)
		if err != nil {
			return nil, err
		}
		iters[i] = it
	}
	src := &zipSource{iters: iters, strict: strictArg != nil && bool(strictArg.Truth())}
	return &pyIter{name: "zip", src: src, thread: thread}, nil
}

// zipSource is zip's tuples.
type zipSource struct {
	iters  []*pyIter
	strict bool
	done   bool
}

func (s *zipSource) next(thread *starlark.Thread) (starlark.Value, bool, error) {
	if s.done || len(s.iters) == 0 {
		return nil, false, nil
	}
	t := make(starlark.Tuple, len(s.iters))
	for i, it := range s.iters {
		x, ok, err := it.next(thread)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			s.done = true
			if s.strict {
				return nil, false, zipCheck(thread, s.iters, i)
			}
			return nil, false, nil
		}
		t[i] = x
	}
	return t, true, nil
}

// enumerateSource is enumerate's pairs.
type enumerateSource struct {
	it *pyIter
	i  int
}

func (s *enumerateSource) next(thread *starlark.Thread) (starlark.Value, bool, error) {
	x, ok, err := s.it.next(thread)
	if err != nil || !ok {
		return nil, false, err
	}
	pair := starlark.Tuple{starlark.MakeInt(s.i), x}
	s.i++
	return pair, true, nil
}

// zipCheck is zip(strict=True)'s complaint when argument i (from 0) ran
// out first, in CPython's words.
func zipCheck(thread *starlark.Thread, iters []*pyIter, i int) error {
	args := func(n int) string {
		if n == 1 {
			return "argument 1"
		}
		return fmt.Sprintf("arguments 1-%d", n)
	}
	if i > 0 {
		return valueError("zip() argument %d is shorter than %s", i+1, args(i))
	}
	for j, it := range iters[1:] {
		_, ok, err := it.next(thread)
		if err != nil {
			return err
		}
		if ok {
			return valueError("zip() argument %d is longer than %s", j+2, args(j+1))
		}
	}
	return nil
}

// lenHint is how many elements v will give when that is known exactly:
// its length, or what an iterator of this package has left (of a list,
// a range, a zip or enumerate of those); -1 when it is not known. The
// constructors refuse at once, by it, a collection beyond the memory
// budget.
func lenHint(v starlark.Value) int {
	if it, ok := v.(*pyIter); ok {
		return sourceHint(it.src)
	}
	return starlark.Len(v)
}

func sourceHint(src source) int {
	switch s := src.(type) {
	case *indexSource:
		return max(s.seq.Len()-s.i, 0)
	case *sliceSource:
		return len(s.elems) - s.i
	case *enumerateSource:
		return sourceHint(s.it.src)
	case *zipSource:
		if s.done {
			return 0
		}
		return minHint(s.iters)
	case *mapSource:
		return minHint(s.iters)
	case *genSource:
		if s.cond == nil {
			return sourceHint(s.it.src)
		}
	}
	return -1
}

// minHint is the least hint of its, -1 when one is unknown.
func minHint(its []*pyIter) int {
	n := -1
	for _, it := range its {
		h := sourceHint(it.src)
		if h < 0 {
			return -1
		}
		if n < 0 || h < n {
			n = h
		}
	}
	return n
}

// genExpEscaped is an error of a generator expression's element as its
// consumer sees it: a StopIteration is PEP 479's RuntimeError.
func genExpEscaped(err error) error {
	if !isStopIteration(err) {
		return err
	}
	return (&Generator{}).escaped(err)
}

// Attr gives an iterator its __next__ and __iter__, and a generator
// expression of one clause (a Go generator, genSource) the rest of a
// generator's methods: send (its yields take no value: send is next),
// throw (raised where it stands, which ends it), close, gi_running.
func (it *pyIter) Attr(name string) (starlark.Value, error) {
	method := func(fn func(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error)) (starlark.Value, error) {
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(kwargs) > 0 {
				return nil, typeError("%s() takes no keyword arguments", name)
			}
			return fn(thread, args)
		}), nil
	}
	next := func(thread *starlark.Thread, _ starlark.Tuple) (starlark.Value, error) {
		x, ok, err := it.next(thread)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &Exception{Class: "StopIteration"}
		}
		return x, nil
	}
	switch name {
	case "__next__":
		return method(next)
	case "__iter__":
		return method(func(*starlark.Thread, starlark.Tuple) (starlark.Value, error) { return it, nil })
	}
	g, ok := it.src.(*genSource)
	if !ok {
		return nil, nil
	}
	switch name {
	case "send":
		return method(func(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
			if len(args) != 1 {
				return nil, typeError("send() takes exactly one argument (%d given)", len(args))
			}
			return next(thread, nil)
		})
	case "throw":
		return method(func(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
			err, terr := thrown(thread, args)
			if terr != nil {
				return nil, terr
			}
			g.closed = true
			return nil, err
		})
	case "close":
		return method(func(*starlark.Thread, starlark.Tuple) (starlark.Value, error) {
			g.closed = true
			return starlark.None, nil
		})
	case "gi_running":
		return starlark.False, nil
	case "gi_frame":
		if g.closed {
			return starlark.None, nil
		}
		return starlarkstruct.FromStringDict(starlark.String("frame"), starlark.StringDict{"f_lineno": starlark.MakeInt(0)}), nil
	case "gi_yieldfrom":
		return starlark.None, nil
	}
	return nil, nil
}

// AttrNames are the attributes Attr gives.
func (it *pyIter) AttrNames() []string {
	if _, ok := it.src.(*genSource); ok {
		return []string{"__iter__", "__next__", "close", "gi_frame", "gi_running", "gi_yieldfrom", "send", "throw"}
	}
	return []string{"__iter__", "__next__"}
}
