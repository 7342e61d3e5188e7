package pyrt

import (
	"math"

	"go.starlark.net/starlark"
)

// quickOrder answers x op y (op the helper's "<", "<=", ">" or ">=")
// for the operands whose order needs no dispatch and no budget: two
// ints of 64 bits, two floats, two str of Starlark's kind. Every
// comparison of a program that may hold instances is a call of
// __ot_cmp; most of them compare such values (a loop's counter, an
// attribute in an __lt__), and answering them before the helper's
// search for special methods, sets, numbers of modules and containers
// is most of what can be saved inside the helper. ok is false for
// anything else, which the helper's general path answers.
func quickOrder(opv, x, y starlark.Value) (starlark.Value, bool) {
	op, ok := opv.(starlark.String)
	if !ok || len(op) == 0 {
		return nil, false
	}
	var c int
	switch x := x.(type) {
	case starlark.Int:
		y, ok := y.(starlark.Int)
		if !ok {
			return nil, false
		}
		a, ok1 := x.Int64()
		b, ok2 := y.Int64()
		if !ok1 || !ok2 {
			return nil, false
		}
		c = cmp3(a < b, a > b)
	case starlark.Float:
		y, ok := y.(starlark.Float)
		if !ok {
			return nil, false
		}
		// NaN orders with nothing: every comparison is false, as Go's.
		switch op {
		case "<":
			return starlark.Bool(x < y), true
		case "<=":
			return starlark.Bool(x <= y), true
		case ">":
			return starlark.Bool(x > y), true
		case ">=":
			return starlark.Bool(x >= y), true
		}
		return nil, false
	case starlark.String:
		y, ok := y.(starlark.String)
		if !ok {
			return nil, false
		}
		c = cmp3(x < y, x > y)
	default:
		return nil, false
	}
	switch op {
	case "<":
		return starlark.Bool(c < 0), true
	case "<=":
		return starlark.Bool(c <= 0), true
	case ">":
		return starlark.Bool(c > 0), true
	case ">=":
		return starlark.Bool(c >= 0), true
	}
	return nil, false
}

// cmp3 is -1, 0 or 1 from less and greater.
func cmp3(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}

// quickEqual answers x == y, as quickOrder answers an order, for two
// ints of 64 bits, two floats (NaN equal to nothing) or two str of
// Starlark's kind; ok is false for anything else.
func quickEqual(x, y starlark.Value) (starlark.Value, bool) {
	switch x := x.(type) {
	case starlark.Int:
		y, ok := y.(starlark.Int)
		if !ok {
			return nil, false
		}
		a, ok1 := x.Int64()
		b, ok2 := y.Int64()
		if !ok1 || !ok2 {
			return nil, false
		}
		return starlark.Bool(a == b), true
	case starlark.Float:
		y, ok := y.(starlark.Float)
		if !ok {
			return nil, false
		}
		return starlark.Bool(x == y), true
	case starlark.String:
		y, ok := y.(starlark.String)
		if !ok {
			return nil, false
		}
		return starlark.Bool(x == y), true
	}
	return nil, false
}

// quickInplace answers __ot_iop's x op= y for x += y and x -= y of two
// ints of 64 bits whose result fits in one (the counters of a program's
// instances, self.moves += 1) and of two floats, when what the helper
// would do is the interpreter's operator, __ot_iplus or __ot_isub: an
// int and a float have no __iadd__, and all of those answer x + y and
// x - y as Go does here. ok is false for anything else, which the helper's general path
// answers.
func quickInplace(op string, x, y, fallback starlark.Value) (starlark.Value, bool) {
	if op != "+" && op != "-" {
		return nil, false
	}
	if fallback != starlark.None {
		// The helpers that add or subtract two small ints or two floats
		// as Go does (addInts, subInts; setBinary only takes sets).
		b, ok := fallback.(*starlark.Builtin)
		if !ok {
			return nil, false
		}
		switch b.Name() {
		case "__ot_iplus":
			ok = op == "+"
		case "__ot_isub", "__ot_sub":
			ok = op == "-"
		default:
			ok = false
		}
		if !ok {
			return nil, false
		}
	}
	switch x := x.(type) {
	case starlark.Int:
		y, ok := y.(starlark.Int)
		if !ok {
			return nil, false
		}
		a, ok1 := x.Int64()
		c, ok2 := y.Int64()
		if !ok1 || !ok2 {
			return nil, false
		}
		if op == "-" {
			if c == math.MinInt64 {
				return nil, false
			}
			c = -c
		}
		if addOverflows(a, c) {
			return nil, false
		}
		return starlark.MakeInt64(a + c), true
	case starlark.Float:
		y, ok := y.(starlark.Float)
		if !ok {
			return nil, false
		}
		if op == "-" {
			return x - y, true
		}
		return x + y, true
	}
	return nil, false
}

// quickIn answers needle in hay for an int, float or str needle and a
// list or tuple haystack, in one pass where the general path makes three
// (a search for instances, one for modules' numbers, then the
// interpreter's own `in`): what that path answers when no element is an
// instance or a module's number, which is then the interpreter's
// answer. Comparing such a needle with any element runs no program code
// (an element of another type is unequal at once). ok is false when an
// element is one of those, or for any other needle or haystack.
func quickIn(needle, hay starlark.Value) (found, ok bool) {
	switch needle.(type) {
	case starlark.Int, starlark.Float, starlark.String:
	default:
		return false, false
	}
	xs, isSeq := elements(hay)
	if !isSeq {
		return false, false
	}
	for i := range xs.Len() {
		e := xs.Index(i)
		if _, rich := e.(RichComparer); rich {
			return false, false
		}
		if _, num := e.(Number); num {
			return false, false
		}
		// The general path stops at the first element equal to the
		// needle too, whatever comes after it.
		if eq, err := starlark.Equal(e, needle); err != nil || eq {
			return eq, err == nil
		}
	}
	return false, true
}
