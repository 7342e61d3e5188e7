package pyrt

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"unsafe"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

// The helpers the lowering calls for what has no Starlark form: a text
// literal that is not ASCII, cells, :=, is, **, comparisons that mix the
// two kinds of text, del, slice assignment, starred unpacking, iteration
// of a str, f-strings and {**a}.

func (rt *runtime) helperBuiltins() starlark.StringDict {
	d := starlark.StringDict{
		"__ot_u":             interp.NewBuiltin("__ot_u", textLiteral),
		"__ot_b":             interp.NewBuiltin("__ot_b", bytesLiteral),
		"__ot_cell":          interp.NewBuiltin("__ot_cell", cellOf),
		"__ot_lcell":         interp.NewBuiltin("__ot_lcell", localCell),
		"__ot_walrus":        interp.NewBuiltin("__ot_walrus", walrus),
		"__ot_delname":       interp.NewBuiltin("__ot_delname", delName),
		"__ot_is":            interp.NewBuiltin("__ot_is", isBuiltin),
		"__ot_pow":           interp.NewBuiltin("__ot_pow", powHelper),
		"__ot_dunder":        interp.NewBuiltin("__ot_dunder", dunderHelper),
		"__ot_hay":           interp.NewBuiltin("__ot_hay", haystackOf),
		"__ot_gen":           interp.NewBuiltin("__ot_gen", genBuiltin),
		"__ot_cmp":           interp.NewBuiltin("__ot_cmp", compareHelper),
		"__ot_in":            interp.NewBuiltin("__ot_in", inHelper),
		"__ot_delitem":       interp.NewBuiltin("__ot_delitem", delItem),
		"__ot_delattr":       interp.NewBuiltin("__ot_delattr", delAttrHelper),
		"__ot_global":        interp.NewBuiltin("__ot_global", globalHelper),
		"__ot_iop":           interp.NewBuiltin("__ot_iop", iopHelper),
		"__ot_slice":         interp.NewBuiltin("__ot_slice", sliceHelper),
		"__ot_subscr":        interp.NewBuiltin("__ot_subscr", indexHelper),
		"__ot_setsubscr":     interp.NewBuiltin("__ot_setsubscr", setIndexHelper),
		"__ot_matmul":        interp.NewBuiltin("__ot_matmul", matmulHelper(false)),
		"__ot_imatmul":       interp.NewBuiltin("__ot_imatmul", matmulHelper(true)),
		"__ot_setslice":      interp.NewBuiltin("__ot_setslice", setSlice),
		"__ot_stepslice":     interp.NewBuiltin("__ot_stepslice", stepSlice),
		"__ot_unpack":        interp.NewBuiltin("__ot_unpack", unpackStarred),
		"__ot_iter":          interp.NewBuiltin("__ot_iter", iterHelper),
		"__ot_loopiter":      interp.NewBuiltin("__ot_loopiter", loopIterHelper(false)),
		"__ot_iterend":       interp.NewBuiltin("__ot_iterend", iterEnd),
		"__ot_compiter":      interp.NewBuiltin("__ot_compiter", loopIterHelper(true)),
		"__ot_compend":       interp.NewBuiltin("__ot_compend", compEnd),
		"__ot_unpackit":      interp.NewBuiltin("__ot_unpackit", unpackIt),
		"__ot_f":             interp.NewBuiltin("__ot_f", fstring),
		"__ot_merge":         interp.NewBuiltin("__ot_merge", mergeDicts),
		"__ot_iterof":        interp.NewBuiltin("__ot_iterof", genexpOf),
		"__ot_func":          interp.NewBuiltin("__ot_func", funcHelper),
		interp.SetMemoryName: setMemory{},
		// What displays are made of, by names a program cannot shadow.
		"__ot_list":     interp.NewBuiltin("list", listBuiltin),
		"__ot_star":     interp.NewBuiltin("__ot_star", starArgs),
		"__ot_tuple":    interp.NewBuiltin("tuple", tupleBuiltin),
		"__ot_set":      interp.NewBuiltin("set", setDisplay),
		"__ot_setconst": interp.NewBuiltin("__ot_setconst", setConst),
		"__ot_ellipsis": ellipsis,
		"Ellipsis":      ellipsis,
		"__ot_boolidx":  interp.NewBuiltin("__ot_boolidx", boolIndex),
		"__ot_append":   interp.NewBuiltin("__ot_append", appendText),
		"__ot_eq":       interp.NewBuiltin("__ot_eq", eqHelper),
		"__ot_boolget":  interp.NewBuiltin("__ot_boolget", boolGet),
		"__name__":      starlark.String("__main__"),
	}
	for k, v := range setOps() {
		d[k] = v
	}
	return d
}

// textLiteral is __ot_u("…"): a literal that is not ASCII, made a
// program's text (see interp.MakeString).
func textLiteral(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	s, _ := interp.AsText(args[0])
	return interp.MakeString(s), nil
}

// bytesLiteral is __ot_b(b"…"): a bytes literal made Python's bytes.
func bytesLiteral(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	s, _ := interp.AsBytes(args[0])
	return interp.Bytes(s), nil
}

// cellOf is __ot_cell("x"): the cell of a global of the program,
// holding the predeclared value of the name (a session's global of an
// earlier input) or nothing; and __ot_cell("x", value), the cell of a
// function's parameter.
func cellOf(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	name, _ := interp.AsText(args[0])
	if len(args) > 1 {
		return interp.NewCell(name, true, args[1]), nil
	}
	return interp.ModuleCell(thread, name), nil
}

// localCell is __ot_lcell("x"): the cell of a function's variable, which
// holds nothing until it is assigned.
func localCell(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	name, _ := interp.AsText(args[0])
	return interp.NewCell(name, true, nil), nil
}

// walrus is __ot_walrus(cell, value): `name := value`.
func walrus(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if err := args[0].(*interp.Cell).SetKey(nil, args[1]); err != nil {
		return nil, err
	}
	return args[1], nil
}

// delName is __ot_delname(cell): `del x`.
func delName(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	return starlark.None, args[0].(*interp.Cell).Unbind()
}

// isBuiltin is `a is b`: the same object for values that have an
// identity (containers, functions, classes), equality for the immutable
// values whose identity CPython shares (None, bools, small ints, texts).
func isBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	return starlark.Bool(identical(args[0], args[1])), nil
}

func identical(a, b starlark.Value) bool {
	switch x := a.(type) {
	case *ExcClass:
		// A builtin class is one class, whichever table made its value
		// (asyncio.TimeoutError is TimeoutError).
		y, ok := b.(*ExcClass)
		return ok && (x == y || x.builtin && y.builtin && x.name == y.name)
	case starlark.NoneType, starlark.Bool:
		return a == b
	case starlark.Int:
		y, ok := b.(starlark.Int)
		return ok && x.BigInt().Cmp(y.BigInt()) == 0
	case starlark.String:
		y, ok := b.(starlark.String)
		return ok && x == y
	case *interp.Unicode:
		y, ok := b.(*interp.Unicode)
		return ok && (x == y || x.Text() == y.Text())
	case starlark.Float:
		y, ok := b.(starlark.Float)
		return ok && x == y
	case starlark.Tuple:
		y, ok := b.(starlark.Tuple)
		return ok && len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
	}
	return sameRef(a, b)
}

// sameRef compares values of reference types by identity, and reports
// false for values of other types, which cannot be compared so.
func sameRef(a, b starlark.Value) (same bool) {
	defer func() {
		if recover() != nil {
			same = false // values of a type that is not comparable in Go
		}
	}()
	return a == b
}

// powHelper is `a ** b` (and pow(a, b)): ints stay ints for a
// non-negative exponent, within limits.max_int_digits, refused before
// they are computed; a negative exponent or a float gives a float.
func powHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if v, ok, err := richPower(args[0], args[1]); ok || err != nil {
		return v, err
	}
	return power(interp.BudgetOf(thread), args[0], args[1])
}

// richPower is x ** y by __pow__ or __rpow__ of an instance's class.
func richPower(x, y starlark.Value) (starlark.Value, bool, error) {
	if _, ok := x.(RichComparer); ok {
		if v, err := x.(starlark.HasBinary).Binary(syntax.STARSTAR, y, starlark.Left); v != nil || err != nil {
			return v, true, err
		}
	}
	if _, ok := y.(RichComparer); ok {
		if v, err := y.(starlark.HasBinary).Binary(syntax.STARSTAR, x, starlark.Right); v != nil || err != nil {
			return v, true, err
		}
	}
	return nil, false, nil
}

// holdsRichComparer reports a sequence with an instance of a program's
// class among its first elements (a list of records), whose __eq__ then
// decides `in`.
func holdsRichComparer(xs interface {
	Len() int
	Index(int) starlark.Value
}) bool {
	for i := range min(xs.Len(), 64) {
		if _, ok := xs.Index(i).(RichComparer); ok {
			return true
		}
	}
	return false
}

func power(b *interp.Budget, x, y starlark.Value) (starlark.Value, error) {
	xi, xIsInt := asIntValue(x)
	yi, yIsInt := asIntValue(y)
	if xIsInt && yIsInt {
		if yi.Sign() >= 0 {
			return intPower(b, xi, yi)
		}
		if xi.Sign() == 0 {
			return nil, exception("ZeroDivisionError", "0.0 cannot be raised to a negative power")
		}
	}
	xn, ok1 := number(x) // a bool is the int it is
	yn, ok2 := number(y)
	var xf, yf float64
	if ok1 && ok2 {
		xf, ok1 = starlark.AsFloat(xn)
		yf, ok2 = starlark.AsFloat(yn)
	}
	if !ok1 || !ok2 {
		if z, ok, err := modulePow(x, y); ok {
			return z, err
		}
		return nil, typeError("unsupported operand type(s) for ** or pow(): '%s' and '%s'", pyTypeName(x), pyTypeName(y))
	}
	if xf == 0 && yf < 0 {
		return nil, exception("ZeroDivisionError", "0.0 cannot be raised to a negative power")
	}
	if xf < 0 && yf != math.Trunc(yf) {
		return nil, valueError("math domain error: a negative number cannot be raised to a fractional power (complex numbers are not supported)")
	}
	r := cPow(xf, yf)
	if math.IsInf(r, 0) && !math.IsInf(xf, 0) && !math.IsInf(yf, 0) {
		return nil, exception("OverflowError", "(34, 'Numerical result out of range')")
	}
	return starlark.Float(r), nil
}

// asIntValue reads an int or a bool as a big integer.
func asIntValue(v starlark.Value) (*big.Int, bool) {
	switch x := v.(type) {
	case starlark.Int:
		return x.BigInt(), true
	case starlark.Bool:
		if x {
			return big.NewInt(1), true
		}
		return big.NewInt(0), true
	}
	return nil, false
}

// intPower is x ** y for y >= 0, refused when the result would have more
// digits than the run allows.
func intPower(b *interp.Budget, x, y *big.Int) (starlark.Value, error) {
	if max := b.IntBits(); max > 0 {
		ax := new(big.Int).Abs(x)
		if ax.Cmp(big.NewInt(1)) > 0 {
			// The result has at least y*(bits(x)-1)+1 bits.
			bits := int64(ax.BitLen() - 1)
			if !y.IsInt64() || bits > 0 && y.Int64() > int64(max)/bits+1 {
				return nil, b.IntLimit()
			}
		}
	}
	r := new(big.Int).Exp(x, y, nil)
	if err := b.CheckBits(r); err != nil {
		return nil, err
	}
	return starlark.MakeBigInt(r), nil
}

// compareHelper is __ot_cmp(op, a, b): an ordered comparison that may
// involve str of both kinds (interp.Unicode and starlark.String), alone or
// inside lists and tuples, which Starlark refuses to order. Anything else
// compares as Starlark compares it (sets by inclusion, numbers by value).
// compareToken is the token of an ordering operator's text.
func compareToken(op string) syntax.Token {
	switch op {
	case "<":
		return syntax.LT
	case "<=":
		return syntax.LE
	case ">":
		return syntax.GT
	}
	return syntax.GE
}

func compareHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, y := args[1], args[2]
	if r, ok := quickOrder(args[0], x, y); ok {
		return r, nil
	}
	op, _ := interp.AsText(args[0])
	// Two ASCII texts, the common case (`c >= "0"` once per character),
	// compare at once, without boxing or a budget's bookkeeping.
	if xs, ok := x.(starlark.String); ok {
		if ys, ok := y.(starlark.String); ok {
			switch op {
			case "<":
				return starlark.Bool(xs < ys), nil
			case "<=":
				return starlark.Bool(xs <= ys), nil
			case ">":
				return starlark.Bool(xs > ys), nil
			default:
				return starlark.Bool(xs >= ys), nil
			}
		}
	}
	if v, ok, err := RichCompareValue(thread, compareToken(op), x, y); ok {
		return v, err
	}
	if orderedByElements(x, y) {
		b := interp.BudgetOf(thread)
		var ok bool
		var err error
		switch op {
		case "<":
			ok, err = pyCmp(b, syntax.LT, x, y, 0)
		case ">":
			ok, err = pyCmp(b, syntax.GT, x, y, 0)
		default: // <= and >=
			tok := syntax.LT
			if op == ">=" {
				tok = syntax.GT
			}
			if ok, err = pyCmp(b, tok, x, y, 0); err == nil && !ok {
				ok, err = pyEqualDepth(b, x, y, 0)
			}
		}
		if err != nil {
			// A budget's, or elements that do not order: those are named
			// with the operator the program wrote.
			var ex *Exception
			if (op == "<=" || op == ">=") && errors.As(err, &ex) && ex.Class == "TypeError" {
				if rest, found := strings.CutPrefix(ex.Msg, "'"+op[:1]+"' not supported"); found {
					return nil, typeError("'%s' not supported%s", op, rest)
				}
			}
			return nil, err
		}
		return starlark.Bool(ok), nil
	}
	var tok syntax.Token
	switch op {
	case "<":
		tok = syntax.LT
	case "<=":
		tok = syntax.LE
	case ">":
		tok = syntax.GT
	default:
		tok = syntax.GE
	}
	if xs, ys, ok := setLikePair(x, y); ok {
		// Sets, frozensets and the keys and items of dicts order by
		// inclusion, with one another.
		x, y = xs, ys
	}
	if nx, ok := number(x); ok {
		if ny, ok := number(y); ok {
			x, y = nx, ny // a bool orders as the int it is
		}
	}
	if r, ok, err := compareNumbers(tok, x, y); ok || err != nil {
		if err != nil {
			return nil, err
		}
		return starlark.Bool(r), nil
	}
	ok, err := starlark.Compare(tok, x, y)
	if err != nil {
		if tx, ty, isTuple := tuplePair(x, y); isTuple {
			return compareHelper(thread, nil, starlark.Tuple{args[0], tx, ty}, nil)
		}
		var ex *Exception
		if isBudget(err) || errors.As(err, &ex) { // a module's value says why, as CPython's does
			return nil, err
		}
		if err := mixedError(x, y); err != nil {
			return nil, err
		}
		return nil, typeError("'%s' not supported between instances of '%s' and '%s'", op, pyTypeName(x), pyTypeName(y))
	}
	return starlark.Bool(ok), nil
}

// orderedByElements reports two str, or two lists or two tuples, which
// pyCmp orders as Python does.
func orderedByElements(x, y starlark.Value) bool {
	if _, ok := interp.AsText(x); ok {
		_, ok := interp.AsText(y)
		return ok
	}
	switch x.(type) {
	case *starlark.List:
		_, ok := y.(*starlark.List)
		return ok
	case starlark.Tuple:
		_, ok := y.(starlark.Tuple)
		return ok
	}
	return false
}

// haystackOf is __ot_hay("aeiou"): the container an ASCII str literal on
// the right of `in` becomes.
func haystackOf(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	return asciiHaystack(args[0].(starlark.String)), nil
}

// asciiHaystack is an ASCII str literal that only ever stands on the
// right of `in`: go.starlark.net asks its Has, so a needle of either kind
// of str is answered without a call of a helper (a Starlark string would
// refuse a needle that is not ASCII).
type asciiHaystack string

var _ starlark.Container = asciiHaystack("")

func (h asciiHaystack) String() string        { return interp.QuoteString(string(h)) }
func (h asciiHaystack) Type() string          { return "str" }
func (h asciiHaystack) Freeze()               {}
func (h asciiHaystack) Truth() starlark.Bool  { return h != "" }
func (h asciiHaystack) Hash() (uint32, error) { return starlark.String(h).Hash() }

// Has is `needle in h`.
func (h asciiHaystack) Has(needle starlark.Value) (bool, error) {
	switch n := needle.(type) {
	case starlark.String:
		return strings.Contains(string(h), string(n)), nil
	case *interp.Unicode:
		return false, nil // not ASCII: not in an ASCII text
	}
	return false, typeError("'in <string>' requires string as left operand, not %s", pyTypeName(needle))
}

// inHelper is __ot_in(needle, haystack): `in` with a text literal that
// is not ASCII on the left, which an ASCII text does not hold.
func inHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if found, ok := quickIn(args[0], args[1]); ok {
		return starlark.Bool(found), nil
	}
	if c, ok := args[1].(Container); ok {
		if r, handled, err := c.Contains(thread, args[0]); handled || err != nil {
			return starlark.Bool(r), err
		}
		if b := heldBuiltin(args[1]); b != nil {
			return inHelper(thread, nil, starlark.Tuple{args[0], b}, nil)
		}
	}
	needle, hay := args[0], args[1]
	if _, ok := hay.(starlark.String); ok {
		if _, ok := needle.(*interp.Unicode); ok {
			return starlark.False, nil
		}
	}
	if xs, ok := elements(hay); ok {
		b := interp.BudgetOf(thread)
		if _, rich := needle.(RichComparer); rich || holdsRichComparer(xs) {
			// An instance's __eq__ decides, either side (identity first).
			for i := range xs.Len() {
				e := xs.Index(i)
				if eq, err := pyEqualDepth(b, e, needle, 1); err != nil || eq {
					return starlark.Bool(eq), err
				}
			}
			return starlark.False, nil
		}
		// A module's number (decimal.Decimal) among ints, or an int
		// among them, is found by value.
		_, isNum := needle.(Number)
		for i := range xs.Len() {
			e := xs.Index(i)
			if _, eNum := e.(Number); isNum || eNum {
				if err := b.Charge(1); err != nil {
					return nil, err
				}
				if eq, ok, err := compareNumbers(syntax.EQL, needle, e); err != nil || ok && eq {
					return starlark.True, err
				}
			}
		}
	}
	ok, err := starlark.Binary(syntax.IN, needle, hay)
	if err != nil {
		return nil, err
	}
	if n, isNum := needle.(Number); isNum && ok == starlark.False {
		// In a set or a dict, Decimal(7) is found as the int or float
		// it equals (the engine's hash and == know only those).
		return numberIn(interp.BudgetOf(thread), n, hay), nil
	}
	return ok, nil
}

// numberIn reports whether hay holds the int or the float n equals.
func numberIn(b *interp.Budget, n Number, hay starlark.Value) starlark.Value {
	var same []starlark.Value
	if v, err := n.PyInt(b); err == nil {
		same = append(same, v)
	}
	if v, err := n.PyFloat(); err == nil {
		same = append(same, v)
	}
	for _, v := range same {
		if eq, ok, err := compareNumbers(syntax.EQL, n, v); err == nil && ok && eq {
			if in, err := starlark.Binary(syntax.IN, v, hay); err == nil && in == starlark.True {
				return starlark.True
			}
		}
	}
	return starlark.False
}

// delItem is `del x[k]`: a dict key, a list index, or a list slice
// (k a tuple (lo, hi, step) from the lowering of a slice).
func delItem(thread *starlark.Thread, b0 *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, k := args[0], args[1]
	if s, ok := k.(*SliceValue); ok && len(args) == 2 {
		// del self.items[i] with i a slice object.
		return delItem(thread, b0, starlark.Tuple{x, s.start, s.stop, s.step}, kwargs)
	}
	if h, ok := x.(SliceHolder); ok && len(args) > 2 {
		if handled, err := h.DeleteSlice(thread, &SliceValue{args[1], args[2], args[3]}); handled || err != nil {
			return starlark.None, err
		}
		if b := heldBuiltin(x); b != nil {
			return delItem(thread, b0, append(starlark.Tuple{b}, args[1:]...), kwargs)
		}
	}
	switch c := x.(type) {
	case *starlark.Dict:
		_, found, err := c.Delete(k)
		if err != nil {
			return nil, err
		}
		if !found {
			s, _ := interp.Repr(nil, k)
			return nil, keyError("%s", s)
		}
		return starlark.None, nil
	case *starlark.List:
		// The list is copied: charged, so that a loop of del xs[0] over a
		// long list meets the step budget too, not only the clock.
		if err := interp.BudgetOf(thread).Charge(uint64(c.Len())); err != nil {
			return nil, err
		}
		elems := make([]starlark.Value, c.Len())
		for i := range elems {
			elems[i] = c.Index(i)
		}
		if len(args) > 2 { // a slice: del xs[lo:hi:step]
			lo, hi, step := args[1], args[2], args[3]
			keep, err := sliceKeep(len(elems), lo, hi, step)
			if err != nil {
				return nil, err
			}
			var out []starlark.Value
			for i, e := range elems {
				if !keep[i] {
					out = append(out, e)
				}
			}
			return starlark.None, replaceList(c, out)
		}
		i, err := listIndex(k, len(elems))
		if err != nil {
			return nil, err
		}
		return starlark.None, replaceList(c, append(elems[:i:i], elems[i+1:]...))
	case ItemDeleter:
		if len(args) == 2 {
			return starlark.None, c.DeleteItem(thread, k)
		}
	}
	return nil, typeError("'%s' object doesn't support item deletion", pyTypeName(x))
}

// ItemDeleter is a value of package stdlib that `del x[k]` works on (a
// Counter, a deque): DeleteItem raises Python's error for a missing key
// or an index out of range.
type ItemDeleter interface {
	DeleteItem(thread *starlark.Thread, k starlark.Value) error
}

// replaceList sets the elements of a list, as slice assignment and del
// do.
func replaceList(l *starlark.List, elems []starlark.Value) error {
	if err := l.Clear(); err != nil {
		return err
	}
	for _, e := range elems {
		if err := l.Append(e); err != nil {
			return err
		}
	}
	return nil
}

// listIndex reads a list index, from the end when negative.
func listIndex(k starlark.Value, n int) (int, error) {
	i, err := starlark.AsInt32(k)
	if err != nil {
		return 0, typeError("list indices must be integers or slices, not %s", pyTypeName(k))
	}
	if i < 0 {
		i += n
	}
	if i < 0 || i >= n {
		return 0, indexError("list assignment index out of range")
	}
	return i, nil
}

// sliceKeep marks the indexes of a list of n that a slice selects.
func sliceKeep(n int, lo, hi, step starlark.Value) ([]bool, error) {
	st := 1
	if step != starlark.None {
		s, err := clampIndex(step)
		if err != nil {
			return nil, err
		}
		if s == 0 {
			return nil, valueError("slice step cannot be zero")
		}
		st = s
	}
	start, end := sliceBounds(n, lo, hi, st)
	keep := make([]bool, n)
	if st > 0 {
		for i := start; i < end; i += st {
			keep[i] = true
		}
	} else {
		for i := start; i > end; i += st {
			keep[i] = true
		}
	}
	return keep, nil
}

// clampIndex reads a slice bound or step, an int of any size, clamped to
// what a list can hold: xs[10**10:] is empty and del xs[::10**18] takes
// the first element, as in Python, rather than the int being misread.
func clampIndex(v starlark.Value) (int, error) {
	var i starlark.Int
	switch x := v.(type) {
	case starlark.Int:
		i = x
	case starlark.Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	default:
		return 0, typeError("slice indices must be integers or None or have an __index__ method")
	}
	if n, ok := i.Int64(); ok {
		return int(max(min(n, math.MaxInt32), math.MinInt32)), nil
	}
	if i.Sign() > 0 {
		return math.MaxInt32, nil
	}
	return math.MinInt32, nil
}

// sliceBounds clamps a slice's bounds as Python does.
func sliceBounds(n int, lo, hi starlark.Value, step int) (int, int) {
	bound := func(v starlark.Value, def int) int {
		if v == starlark.None {
			return def
		}
		i, _ := clampIndex(v)
		if i < 0 {
			i += n
		}
		if step > 0 {
			return max(0, min(i, n))
		}
		return max(-1, min(i, n-1))
	}
	if step > 0 {
		return bound(lo, 0), bound(hi, n)
	}
	return bound(lo, n-1), bound(hi, -1)
}

// setSlice is `xs[lo:hi:step] = value`. An extended slice, or a slice
// replaced by as many elements, is assigned in place, element by element;
// any other replacement rebuilds the list.
func setSlice(thread *starlark.Thread, b0 *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if h, ok := args[0].(SliceHolder); ok {
		// x[a:b] = v on an instance: its __setitem__ gets the slice.
		if handled, err := h.SetSlice(thread, &SliceValue{args[1], args[2], args[3]}, args[4]); handled || err != nil {
			return starlark.None, err
		}
		if b := heldBuiltin(args[0]); b != nil {
			return setSlice(thread, b0, append(starlark.Tuple{b}, args[1:]...), kw)
		}
	}
	l, ok := args[0].(*starlark.List)
	if !ok {
		return nil, typeError("'%s' object does not support slice assignment", pyTypeName(args[0]))
	}
	b := interp.BudgetOf(thread)
	values, err := collect(b, "slice assignment", args[4], slot)
	if err != nil {
		return nil, err
	}
	n := l.Len()
	st := 1
	if args[3] != starlark.None {
		if st, err = clampIndex(args[3]); err != nil {
			return nil, err
		}
		if st == 0 {
			return nil, valueError("slice step cannot be zero")
		}
	}
	inPlace := func(start, step, count int) (starlark.Value, error) {
		if err := b.Charge(uint64(count)); err != nil {
			return nil, err
		}
		for k, i := 0, start; k < count; k, i = k+1, i+step {
			if err := l.SetIndex(i, values[k]); err != nil {
				return nil, err
			}
		}
		return starlark.None, nil
	}
	if st != 1 {
		start, end := sliceBounds(n, args[1], args[2], st)
		count := 0
		if st > 0 && end > start {
			count = (end - start + st - 1) / st
		} else if st < 0 && start > end {
			count = (start - end - st - 1) / -st
		}
		if count != len(values) {
			return nil, valueError("attempt to assign sequence of size %d to extended slice of size %d", len(values), count)
		}
		return inPlace(start, st, count)
	}
	start, end := sliceBounds(n, args[1], args[2], 1)
	if end < start {
		end = start
	}
	if end-start == len(values) {
		return inPlace(start, 1, len(values))
	}
	// The list is rebuilt: its new length is refused before it is made
	// (xs[:0] = xs in a loop doubles it), and the copy charged.
	if err := b.Alloc(int64(n+len(values)) * slot); err != nil {
		return nil, err
	}
	if err := b.Charge(uint64(n + len(values))); err != nil {
		return nil, err
	}
	elems := make([]starlark.Value, n)
	for i := range elems {
		elems[i] = l.Index(i)
	}
	out := append(append(append([]starlark.Value{}, elems[:start]...), values...), elems[end:]...)
	return starlark.None, replaceList(l, out)
}

// unpackStarred is __ot_unpack(value, before, after): `a, *rest, z =
// value` — a tuple of before elements, a list, and after elements.
func unpackStarred(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	elems, err := collect(interp.BudgetOf(thread), "unpacking", args[0], slot)
	if err != nil {
		return nil, err
	}
	before, _ := starlark.AsInt32(args[1])
	after, _ := starlark.AsInt32(args[2])
	if len(elems) < before+after {
		return nil, valueError("not enough values to unpack (expected at least %d, got %d)", before+after, len(elems))
	}
	out := make(starlark.Tuple, 0, before+after+1)
	out = append(out, elems[:before]...)
	out = append(out, starlark.NewList(append([]starlark.Value{}, elems[before:len(elems)-after]...)))
	out = append(out, elems[len(elems)-after:]...)
	return out, nil
}

// iterHelper is __ot_iter(x), what a for loop or comprehension walks: a
// str yields its characters; a list is walked by index, so that the loop
// sees elements appended meanwhile, as Python's does (go.starlark.net
// refuses to change a list while it is walked); anything else is walked
// as it is.
func iterHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	switch x := args[0].(type) {
	case starlark.String:
		return interp.Chars(string(x)), nil
	case *starlark.List:
		return liveList{x}, nil
	case Stepper, Walker, Iterer:
		it, err := iterOf(thread, x)
		if err != nil {
			return nil, err // not a nil *pyIter in a Value
		}
		return it, nil
	case *starlark.Dict:
		// Its keys as they are when the loop begins: the loop may set
		// them (d[k] = …), as in Python, which go.starlark.net's own
		// iteration refuses; a change of its size is Python's
		// RuntimeError.
		return iterOf(thread, x)
	case *starlark.Set:
		return orderedSetIter(thread, x, x)
	case *frozenSet:
		return orderedSetIter(thread, x.set, x)
	}
	if d := heldDict(args[0]); d != nil {
		return iterOf(thread, d)
	}
	return args[0], nil
}

// orderedSetIter is what a loop walks for the set s (v being s or the
// frozenset holding it): an iterator of its elements in CPython's order,
// as they are when the loop begins (the loop may change the set; a
// change of its size is Python's RuntimeError); a frozenset that CPython
// walks in the order of insertion is walked as it is.
func orderedSetIter(thread *starlark.Thread, s *starlark.Set, v starlark.Value) (starlark.Value, error) {
	order, err := setOrder(interp.BudgetOf(thread), s)
	if err != nil {
		return nil, err
	}
	if order == nil {
		if v != s {
			return v, nil
		}
		if order, err = collect(interp.BudgetOf(thread), "iter", s, slot); err != nil {
			return nil, err
		}
	}
	src := &sliceSource{elems: order}
	if v == s { // a frozenset never changes
		src.of, src.changed = s, "Set"
	}
	return &pyIter{name: "set_iterator", src: src, thread: thread}, nil
}

// loopIterHelper is __ot_loopiter(x), the iterable of a for statement,
// and (inComp) __ot_compiter(x), that of a comprehension's clause:
// __ot_iter's, with iterators made loopIters that keep the error of
// their next item for __ot_iterend, or leave it on the thread for
// __ot_compend.
func loopIterHelper(inComp bool) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		v, err := iterHelper(thread, b, args, kwargs)
		if err != nil {
			return nil, err
		}
		if it, ok := v.(*pyIter); ok {
			l := &loopIter{it: it}
			if inComp {
				l.thread = thread
			}
			if g, ok := args[0].(*Generator); ok && len(args) == 2 && args[1] == starlark.True && g.state == genCreated {
				l.own = g
			}
			return l, nil
		}
		return v, err
	}
}

// loopIter is an iterator that a for loop walks (see forStmt): an error
// of its next item ends the loop and waits for __ot_iterend, after the
// loop, to raise it where the program can catch it. In a comprehension
// (thread set), the error waits on the thread for __ot_compend.
type loopIter struct {
	it     *pyIter
	err    error
	thread *starlark.Thread
	// own is the generator the loop's iterable expression made (a call
	// gave it, not yet started): the loop closes it as it ends.
	own *Generator
}

// compErrLocal is the thread-local where a comprehension's iterator
// leaves the error of its next item.
const compErrLocal = "onetool.python.comperr"

// unpackIt is __ot_unpackit(x, n), the value of `a, b = x` with n
// targets: an iterator's first n+1 items as a tuple (so that a failure
// of its next item is raised here, and a wrong count is the unpacking's
// error); any other value as it is.
func unpackIt(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if s, ok := interp.AsText(args[0]); ok {
		// a, b = "xy": a str unpacks into its characters (one more than
		// the targets is enough for the count's error).
		n, _ := starlark.AsInt32(args[1])
		var chars starlark.Tuple
		for _, r := range s {
			if len(chars) > n {
				break
			}
			chars = append(chars, interp.MakeString(string(r)))
		}
		return chars, nil
	}
	it, ok := args[0].(*pyIter)
	if x, isIterer := args[0].(Iterer); isIterer {
		var err error
		if it, err = iterOf(thread, x); err != nil {
			return nil, err
		}
		ok = true
	}
	if !ok {
		return args[0], nil
	}
	n, _ := starlark.AsInt32(args[1])
	var items starlark.Tuple
	for len(items) <= n {
		x, ok, err := it.next(thread)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		items = append(items, x)
	}
	return items, nil
}

// compEnd is __ot_compend(value): value, or the error that ended one of
// its comprehension's iterators.
func compEnd(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if err, ok := thread.Local(compErrLocal).(error); ok && err != nil {
		thread.SetLocal(compErrLocal, nil)
		return nil, err
	}
	return args[0], nil
}

// Held visits the iterator, so that the memory meter counts what it
// holds.
func (l *loopIter) Held(visit func(starlark.Value)) { visit(l.it) }

func (l *loopIter) String() string        { return l.it.String() }
func (l *loopIter) Type() string          { return l.it.Type() }
func (l *loopIter) Freeze()               {}
func (l *loopIter) Truth() starlark.Bool  { return true }
func (l *loopIter) Hash() (uint32, error) { return l.it.Hash() }
func (l *loopIter) Iterate() starlark.Iterator {
	return &loopIterView{l}
}

type loopIterView struct{ l *loopIter }

func (v *loopIterView) Next(p *starlark.Value) bool {
	x, ok, err := v.l.it.next(nil)
	if err != nil {
		if isBudget(err) {
			return false // the run ends at its next step
		}
		if t := v.l.thread; t != nil {
			if prev, _ := t.Local(compErrLocal).(error); prev == nil {
				t.SetLocal(compErrLocal, err)
			}
			return false
		}
		v.l.err = err
		return false
	}
	if ok {
		*p = x
	}
	return ok
}

func (v *loopIterView) Done() {}

// iterEnd is __ot_iterend(it): the error that ended a for loop over it.
func iterEnd(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	l, ok := args[0].(*loopIter)
	if !ok {
		return starlark.None, nil
	}
	if l.err != nil {
		err := l.err
		l.err = nil
		return nil, err
	}
	if g := l.own; g != nil && g.state == genSuspended {
		// A generator only the loop held, left by break: CPython's
		// reference counting closes it at once, running its finally
		// blocks; so does this.
		l.own = nil
		return starlark.None, g.Close(thread)
	}
	return starlark.None, nil
}

// liveList walks a list by index.
type liveList struct{ l *starlark.List }

func (w liveList) String() string                  { return "<list_iterator>" }
func (w liveList) Type() string                    { return "list_iterator" }
func (w liveList) Freeze()                         {}
func (w liveList) Truth() starlark.Bool            { return true }
func (w liveList) Hash() (uint32, error)           { return 0, typeError("unhashable type: 'list_iterator'") }
func (w liveList) Held(visit func(starlark.Value)) { visit(w.l) }
func (w liveList) Iterate() starlark.Iterator {
	return &liveListIterator{l: w.l}
}

type liveListIterator struct {
	l *starlark.List
	i int
}

func (it *liveListIterator) Next(p *starlark.Value) bool {
	if it.i >= it.l.Len() {
		return false
	}
	*p = it.l.Index(it.i)
	it.i++
	return true
}

func (it *liveListIterator) Done() {}

// fstring is __ot_f(parts): an f-string. parts is a flat tuple: text,
// then for each field its value, its conversion ("", "r", "s" or "a") and
// its spec (a text, or None), then text, and so on.
func fstring(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	parts := args[0].(starlark.Tuple)
	b := interp.BudgetOf(thread)
	w := interp.TextWriter{Budget: b}
	for i := 0; i < len(parts); i += 4 {
		text, _ := interp.AsText(parts[i])
		if err := w.WriteString(text); err != nil {
			return nil, err
		}
		if i+3 >= len(parts) {
			break
		}
		v := parts[i+1]
		conv, _ := interp.AsText(parts[i+2])
		spec := ""
		if parts[i+3] != starlark.None {
			spec, _ = interp.AsText(parts[i+3])
		}
		switch conv {
		case "r", "a":
			s, err := interp.Repr(b, v)
			if err != nil {
				return nil, err
			}
			if conv == "a" {
				s = asciiEscape(s)
			}
			v = interp.MakeString(s)
		case "s":
			s, err := interp.Str(b, v)
			if err != nil {
				return nil, err
			}
			v = interp.MakeString(s)
		}
		if spec == "" {
			if err := w.Str(v); err != nil {
				return nil, err
			}
			continue
		}
		s, err := formatValue(b, v, spec)
		if err != nil {
			return nil, err
		}
		if err := w.WriteString(s); err != nil {
			return nil, err
		}
	}
	return interp.MakeString(w.String()), nil
}

// mergeDicts is __ot_merge(parts): `{**a, "k": 1, **b}`, where parts is
// a list of dicts (or mappings) merged in order, later keys winning.
func mergeDicts(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	out := starlark.NewDict(0)
	b := interp.BudgetOf(thread)
	for _, part := range args {
		m, ok := part.(starlark.IterableMapping)
		if !ok {
			return nil, typeError("'%s' object is not a mapping", pyTypeName(part))
		}
		items := m.Items()
		if err := b.Charge(uint64(len(items))); err != nil {
			return nil, err
		}
		for _, kv := range items {
			if err := out.SetKey(kv[0], kv[1]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// genexpOf is __ot_iterof(list): a generator expression that is not
// consumed at once, an iterator over the list of its values.
func genexpOf(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	l := args[0].(*starlark.List)
	elems := make([]starlark.Value, l.Len())
	for i := range elems {
		elems[i] = l.Index(i)
	}
	return &pyIter{name: "generator", src: &sliceSource{elems: elems}}, nil
}

// boolIndex is __ot_boolidx(x, i), the index of x[i] where i is plainly a
// bool: 0 or 1 when x is a sequence (Python's bool is an int), i itself
// for anything else (a dict's key True).
func boolIndex(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	i, ok := args[1].(starlark.Bool)
	if !ok {
		return args[1], nil
	}
	switch args[0].(type) {
	case *starlark.List, starlark.Tuple, starlark.String, *interp.Unicode, interp.Bytes, starlark.Bytes, rangeValue, *interp.ByteArray:
		if i {
			return starlark.MakeInt(1), nil
		}
		return starlark.MakeInt(0), nil
	}
	return i, nil
}

// boolGet is __ot_boolget(x, i), x[i] where i is plainly a bool and x is
// not a plain name.
func boolGet(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	i, err := boolIndex(thread, b, args, kwargs)
	if err != nil {
		return nil, err
	}
	switch x := args[0].(type) {
	case starlark.Indexable:
		n, ok := i.(starlark.Int)
		if !ok {
			break
		}
		k, _ := n.Int64()
		if k < 0 {
			// An int where a bool was expected (a parameter some call
			// passes a bool, another an index): Python's negative index.
			k += int64(x.Len())
		}
		if k < 0 || int(k) >= x.Len() {
			name := pyTypeName(x)
			if name == "str" {
				name = "string"
			}
			return nil, indexError("%s index out of range", name)
		}
		return x.Index(int(k)), nil
	case starlark.Mapping:
		v, found, err := x.Get(i)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, keyErrorOf(interp.BudgetOf(thread), i)
		}
		return v, nil
	}
	return nil, typeError("'%s' object is not subscriptable", pyTypeName(args[0]))
}

// textBuffer is where a run's last text append left its bytes: a buffer
// with room after them, which the next append to that text fills in place.
type textBuffer struct {
	buf  []byte
	used int // bytes of buf that texts hold; those after are free
}

const textBufferLocal = "onetool.python.textbuf"

// appendText is __ot_append(s, t), s + t for `s += t` where s is text
// (see augAssign). CPython appends to a str in place when nothing else
// holds it, so a loop that builds a text with += is linear; go.starlark.net
// copies s every time. Here the text the last append made lives at the
// start of a buffer with room to spare: appending to that text again
// writes after it and returns a longer text of the same buffer. No text's
// bytes ever change (the room written was no text's), so a text kept from
// before, or appended to twice, is still what it was.
func appendText(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, ok1 := args[0].(starlark.String)
	y, ok2 := args[1].(starlark.String)
	if !ok1 || !ok2 {
		return Add(thread, args[0], args[1])
	}
	n := len(x) + len(y)
	if n < 256 || len(y) == 0 {
		return x + y, nil
	}
	tb, _ := thread.Local(textBufferLocal).(*textBuffer)
	if tb != nil && len(x) == tb.used && len(x) > 0 && unsafe.StringData(string(x)) == &tb.buf[0] && n <= cap(tb.buf) {
		tb.buf = append(tb.buf[:tb.used], y...) // within its capacity: in place
		tb.used = n
		return starlark.String(unsafe.String(&tb.buf[0], n)), nil
	}
	size := 2 * n
	if err := interp.BudgetOf(thread).Alloc(int64(size)); err != nil {
		return nil, err
	}
	buf := make([]byte, n, size)
	copy(buf, x)
	copy(buf[len(x):], y)
	thread.SetLocal(textBufferLocal, &textBuffer{buf: buf, used: n})
	return starlark.String(unsafe.String(&buf[0], n)), nil
}

// eqHelper is __ot_eq(x, y), x == y where the engine's == is not
// Python's (see eqNeedsHelper): a bool equals the int it is, a set, a
// frozenset and a dict's keys or items compare as sets, and NaN equals
// nothing, itself included.
func eqHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, y := args[0], args[1]
	if eq, ok := quickEqual(x, y); ok {
		return eq, nil
	}
	if v, ok, err := RichCompareValue(thread, syntax.EQL, x, y); ok {
		return v, err
	}
	if xs, ys, ok := setLikePair(x, y); ok {
		x, y = xs, ys
	}
	for _, v := range [2]starlark.Value{x, y} {
		if f, ok := v.(starlark.Float); ok && math.IsNaN(float64(f)) {
			return starlark.False, nil
		}
	}
	eq, err := pyEqual(interp.BudgetOf(thread), x, y)
	return starlark.Bool(eq), err
}

// stepSlice is __ot_stepslice(x, lo, hi, step), x[lo:hi:step] with a
// step: go.starlark.net makes such a slice of a str, bytes, list or tuple
// an element at a time in one call, growing its result by appending,
// so that ("a" * 250_000_000)[::-1] took ten seconds no budget saw. Here
// the result is sized first (refused if it alone exceeds the memory
// budget), made in place, and charged as it is filled. The indices and
// errors are the interpreter's.
func stepSlice(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 4 {
		return nil, typeError("__ot_stepslice takes 4 arguments")
	}
	x, lo, hi, stepV := args[0], args[1], args[2], args[3]
	sliceable, ok := x.(starlark.Sliceable)
	if !ok {
		return nil, fmt.Errorf("invalid slice operand %s", x.Type())
	}
	start, end, step, err := sliceIndices(sliceable.Len(), lo, hi, stepV)
	if err != nil {
		return nil, err
	}
	var count int
	switch {
	case step > 0 && end > start:
		count = (end - start + step - 1) / step
	case step < 0 && start > end:
		count = (start - end - step - 1) / -step
	}
	b := interp.BudgetOf(thread)
	charge := func(i int) error {
		if i&0xffff == 0xffff {
			return b.Charge(1 << 12)
		}
		return nil
	}
	switch s := x.(type) {
	case starlark.String, starlark.Bytes, interp.Bytes, *interp.ByteArray:
		text, _ := interp.AsText(s)
		if t, ok := interp.AsBytes(s); ok {
			text = t
		}
		if a, ok := s.(*interp.ByteArray); ok {
			text = a.Bytes()
		}
		if err := b.Alloc(int64(count)); err != nil {
			return nil, err
		}
		out := make([]byte, count)
		for i, j := 0, start; i < count; i, j = i+1, j+step {
			if err := charge(i); err != nil {
				return nil, err
			}
			out[i] = text[j]
		}
		switch s.(type) {
		case starlark.String:
			return starlark.String(out), nil // an ASCII text's bytes are its characters
		case starlark.Bytes:
			return starlark.Bytes(out), nil
		case *interp.ByteArray:
			return interp.NewByteArray(string(out)), nil
		}
		return interp.Bytes(out), nil
	case *starlark.List, starlark.Tuple:
		seq := s.(starlark.Indexable)
		if err := b.Alloc(int64(count) * slot); err != nil {
			return nil, err
		}
		out := make([]starlark.Value, count)
		for i, j := 0, start; i < count; i, j = i+1, j+step {
			if err := charge(i); err != nil {
				return nil, err
			}
			out[i] = seq.Index(j)
		}
		if _, ok := s.(starlark.Tuple); ok {
			return starlark.Tuple(out), nil
		}
		return starlark.NewList(out), nil
	}
	return sliceable.Slice(start, end, step), nil
}

// sliceIndices resolves lo:hi:step over n elements as go.starlark.net
// does, with its errors.
func sliceIndices(n int, lo, hi, stepV starlark.Value) (start, end, step int, err error) {
	step = 1
	if stepV != starlark.None {
		if step, err = starlark.AsInt32(stepV); err != nil {
			return 0, 0, 0, fmt.Errorf("invalid slice step: %s", err)
		}
		if step == 0 {
			return 0, 0, 0, fmt.Errorf("zero is not a valid slice step")
		}
	}
	index := func(v starlark.Value, def int, what string) (int, error) {
		if v == starlark.None {
			return def, nil
		}
		i, err := starlark.AsInt32(v)
		if err != nil {
			return 0, fmt.Errorf("invalid %s index: %s", what, err)
		}
		if i < 0 {
			i += n
		}
		return i, nil
	}
	if step > 0 {
		if start, err = index(lo, 0, "start"); err != nil {
			return 0, 0, 0, err
		}
		if end, err = index(hi, n, "end"); err != nil {
			return 0, 0, 0, err
		}
		start, end = min(max(start, 0), n), min(max(end, 0), n)
		if end < start {
			end = start
		}
		return start, end, step, nil
	}
	if start, err = index(lo, n-1, "start"); err != nil {
		return 0, 0, 0, err
	}
	if start >= n {
		start = n - 1
	}
	if end, err = index(hi, -1, "end"); err != nil {
		return 0, 0, 0, err
	}
	if end < -1 {
		end = -1
	}
	if start < end {
		start = end
	}
	return start, end, step, nil
}

// setDisplay is __ot_set(elements): a set display or comprehension. An
// element that cannot be hashed fails with its own error (an instance's
// __hash__ may raise anything), not one the engine's set() rewords.
func setDisplay(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	iter := starlark.Iterate(args[0])
	if iter == nil {
		return nil, typeError("'%s' object is not iterable", pyTypeName(args[0]))
	}
	defer iter.Done()
	b := interp.BudgetOf(thread)
	s := new(starlark.Set)
	defer b.Hold(func(visit func(starlark.Value)) { visit(s) })()
	var x starlark.Value
	for iter.Next(&x) {
		if err := b.Charge(1); err != nil {
			return nil, err
		}
		if err := tableRoom(b, s.Len()); err != nil {
			return nil, err
		}
		if err := s.Insert(x); err != nil {
			var ex *Exception
			if errors.As(err, &ex) {
				return nil, ex
			}
			return nil, err
		}
	}
	return s, nil
}
