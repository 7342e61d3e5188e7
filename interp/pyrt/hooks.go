package pyrt

import (
	"errors"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

// The hooks the standard-library modules (interp/stdlib) need to make
// and consume Python iterators lazily, to compare and hash as Python
// does, and to raise what a program would catch.

// funcSource is a source whose elements come from a Go function.
type funcSource struct {
	fn   func(thread *starlark.Thread) (starlark.Value, bool, error)
	held []starlark.Value
}

func (s *funcSource) next(thread *starlark.Thread) (starlark.Value, bool, error) {
	return s.fn(thread)
}

// NewIterator makes a Python iterator named name (its type, as
// type(it).__name__ says) whose elements next yields, one per call, until
// it reports false. Each element is charged to the run's budget, like
// every iterator's. held are the values it keeps alive, for the memory
// meter.
func NewIterator(thread *starlark.Thread, name string, next func(thread *starlark.Thread) (starlark.Value, bool, error), held ...starlark.Value) starlark.Value {
	return &pyIter{name: name, src: &funcSource{fn: next, held: held}, thread: thread}
}

// NewIteratorRepr is NewIterator for an iterator that CPython prints by
// its state (itertools.count(3), repeat('a', 2)): repr gives that text.
func NewIteratorRepr(thread *starlark.Thread, name string, repr func() string, next func(thread *starlark.Thread) (starlark.Value, bool, error), held ...starlark.Value) starlark.Value {
	return &pyIter{name: name, src: &funcSource{fn: next, held: held}, thread: thread, repr: repr}
}

// Walker is an iterable of a module that Python iterates with checks of
// its own (a deque fails an iteration during which it changed): Walk
// gives its elements one at a time, false at the end.
type Walker interface {
	starlark.Value
	Walk() func() (starlark.Value, bool, error)
}

// walkSource walks a Walker.
type walkSource struct {
	walk func() (starlark.Value, bool, error)
}

func (s walkSource) next(*starlark.Thread) (starlark.Value, bool, error) { return s.walk() }

// Iterer is a value whose iteration runs the program's own code (an
// instance's __iter__ and __next__). go.starlark.net's Iterate cannot
// fail, so loops, comprehensions and iter() ask Iter instead: its error
// (and those of the iterator it gives, which the runtime walks) are
// exceptions the program can catch. thread may be nil where the caller
// has none: the value's own is used.
type Iterer interface {
	starlark.Value
	Iter(thread *starlark.Thread) (starlark.Value, error)
}

// Stepper is a value that is its own iterator, as a csv reader is: for
// loops and iter() take its elements through Step, and next() advances
// it. Step reports false at the end.
type Stepper interface {
	starlark.Value
	Step(thread *starlark.Thread) (starlark.Value, bool, error)
}

// stepSource walks a Stepper.
type stepSource struct{ s Stepper }

func (s stepSource) next(thread *starlark.Thread) (starlark.Value, bool, error) {
	return s.s.Step(thread)
}

// IsIterator reports whether v is one of the runtime's iterators (iter(x),
// map(), zip(), a module's iterator): a value that is its own iterator.
func IsIterator(v starlark.Value) bool {
	_, ok := v.(*pyIter)
	return ok
}

// Iterate is iter(v): a function giving the elements of any iterable one
// at a time, lazily (an iterator is advanced, shared, as in Python).
func Iterate(thread *starlark.Thread, v starlark.Value) (func() (starlark.Value, bool, error), error) {
	it, err := iterOf(thread, v)
	if err != nil {
		return nil, err
	}
	return func() (starlark.Value, bool, error) { return it.next(thread) }, nil
}

// Collect is list(v)'s elements, charged.
func Collect(thread *starlark.Thread, v starlark.Value) ([]starlark.Value, error) {
	return collectAll(thread, v)
}

// Compare is x op y with Python's ordering and equality (op is one of
// syntax.LT, LE, GT, GE, EQL, NEQ).
func Compare(thread *starlark.Thread, op syntax.Token, x, y starlark.Value) (bool, error) {
	b := interp.BudgetOf(thread)
	switch op {
	case syntax.EQL:
		return pyEqual(b, x, y)
	case syntax.NEQ:
		eq, err := pyEqual(b, x, y)
		return !eq, err
	}
	return pyCmp(b, op, x, y, 0)
}

// TypeName is Python's name for the type of v.
func TypeName(v starlark.Value) string { return pyTypeName(v) }

// Classify turns an error of the interpreter (an operator's, such as
// "unknown binary op: int + string") into the Python exception a program
// would catch for it; other errors are returned as they are.
func Classify(err error) error {
	var ex *Exception
	if err == nil || errors.As(err, &ex) || isBudget(err) {
		return err
	}
	class, text := classify(err.Error())
	if class == "RuntimeError" {
		return err
	}
	return exception(class, "%s", text)
}

// ForEach calls fn with each element of v, iterated as Python does (a
// str by characters, a generator to its end, its exception passed on),
// until fn says stop or fails. For the modules of interp/stdlib.
func ForEach(thread *starlark.Thread, v starlark.Value, fn func(x starlark.Value) (stop bool, err error)) error {
	return forEach(thread, v, fn)
}

// Less is Python's x < y, with its errors, charged to b.
func Less(b *interp.Budget, x, y starlark.Value) (bool, error) { return pyLess(b, x, y, 0) }

// CheckHashable returns Python's TypeError for a key a dict or set
// cannot hold ("unhashable type: 'list'").
func CheckHashable(b *interp.Budget, v starlark.Value) error { return checkHashable(b, v) }

// Formatter is a value of a module with its own format spec language
// (datetime's strftime codes): format(v, spec) and f"{v:spec}" ask it.
type Formatter interface {
	PyFormat(b *interp.Budget, spec string) (string, error)
}

// InstanceChecker is a class of a module (datetime.date) that
// isinstance accepts: it tells its instances. It is Class by its older
// name.
type InstanceChecker = Class

// MixedComparer is a module's value that says, in CPython's words, why it
// does not order with a value of another type ("can't compare
// datetime.datetime to datetime.date"); nil leaves the usual message.
type MixedComparer interface {
	CompareMixed(y starlark.Value) error
}

func mixedError(x, y starlark.Value) error {
	if m, ok := x.(MixedComparer); ok {
		return m.CompareMixed(y)
	}
	return nil
}

// Number is a module's number (decimal.Decimal, fractions.Fraction): int(),
// float(), round() and hash() ask it, and it compares by value with ints,
// floats, bools and the other modules' numbers, as CPython's do.
type Number interface {
	starlark.Value
	// PyInt is int(x), truncated toward zero, refused beyond
	// limits.max_int_digits.
	PyInt(b *interp.Budget) (starlark.Value, error)
	// PyFloat is float(x).
	PyFloat() (starlark.Value, error)
	// PyRound is round(x) (ndigits nil) or round(x, ndigits).
	PyRound(b *interp.Budget, ndigits starlark.Value) (starlark.Value, error)
	// CompareNumber is x op y for a y of another type; ok is false when
	// the two do not compare (the caller's TypeError, or False for ==).
	CompareNumber(op syntax.Token, y starlark.Value) (result, ok bool, err error)
	// PyHash is hash(x): an equal int's or float's hash.
	PyHash() (int64, error)
}

// compareNumbers is x op y when either is a module's Number; handled is
// false when neither is, or they do not compare.
func compareNumbers(op syntax.Token, x, y starlark.Value) (result, handled bool, err error) {
	if n, ok := x.(Number); ok {
		return n.CompareNumber(op, y)
	}
	if n, ok := y.(Number); ok {
		switch op {
		case syntax.LT:
			op = syntax.GT
		case syntax.GT:
			op = syntax.LT
		case syntax.LE:
			op = syntax.GE
		case syntax.GE:
			op = syntax.LE
		}
		return n.CompareNumber(op, x)
	}
	return false, false, nil
}

// Pow is x ** y with Python's meaning for ints, floats and the modules'
// numbers, refusing an int beyond limits.max_int_digits (charged to b).
// ToFloat is float(v), with CPython's conversions ("1.5", a Decimal)
// and errors (could not convert string to float: 'a').
func ToFloat(thread *starlark.Thread, v starlark.Value) (float64, error) {
	f, err := floatBuiltin(thread, nil, starlark.Tuple{v}, nil)
	if err != nil {
		return 0, err
	}
	x, _ := f.(starlark.Float)
	return float64(x), nil
}

func Pow(b *interp.Budget, x, y starlark.Value) (starlark.Value, error) { return powValues(b, x, y) }

// modulePow is x ** y when either is a module's Number (its Binary with
// syntax.STARSTAR answers); ok is false when neither is.
func modulePow(x, y starlark.Value) (z starlark.Value, ok bool, err error) {
	if n, isNum := x.(Number); isNum {
		if b, isBin := n.(starlark.HasBinary); isBin {
			if z, err := b.Binary(syntax.STARSTAR, y, starlark.Left); z != nil || err != nil {
				return z, true, err
			}
		}
	}
	if n, isNum := y.(Number); isNum {
		if b, isBin := n.(starlark.HasBinary); isBin {
			if z, err := b.Binary(syntax.STARSTAR, x, starlark.Right); z != nil || err != nil {
				return z, true, err
			}
		}
	}
	return nil, false, nil
}
