package pyrt

import (
	"errors"
	"math"
	"math/bits"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/lowered"
)

// boolArith returns the helper of `x op y` where an operand is a bool
// (see binaryHelper): a bool takes part as the int it is in Python
// (True is 1), except as the argument of a str's % ("%s" % True).
func boolArith(op string) *starlark.Builtin {
	tok, _ := lowered.BinaryToken(op)
	var arith func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)
	arith = func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 2 || len(kwargs) != 0 {
			return nil, typeError("%s takes 2 arguments", b.Name())
		}
		x, y := args[0], args[1]
		_, text := interp.AsText(x)
		if _, ok := x.(starlark.Bool); ok {
			x = boolInt(x.(starlark.Bool))
		}
		if _, ok := y.(starlark.Bool); ok && !(op == "%" && text) {
			y = boolInt(y.(starlark.Bool))
		}
		switch op {
		case "<<":
			return lshift(interp.BudgetOf(thread), x, y)
		case "*":
			return mulHelper(thread, b, starlark.Tuple{x, y}, nil)
		case "%":
			return modHelper(thread, b, starlark.Tuple{x, y}, nil)
		case "&", "|", "^":
			// bool & bool stays a bool in Python.
			if xb, ok := args[0].(starlark.Bool); ok {
				if yb, ok := args[1].(starlark.Bool); ok {
					switch op {
					case "&":
						return xb && yb, nil
					case "|":
						return xb || yb, nil
					}
					return starlark.Bool(xb != yb), nil
				}
			}
		}
		v, err := starlark.Binary(tok, x, y)
		return v, floatZeroDiv(tok, x, y, err)
	}
	name, _ := lowered.BoolArith(op)
	return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		v, err := arith(thread, b, args, kwargs)
		if err != nil && len(args) == 2 {
			// Operands that do not combine are named as the program
			// wrote them (a bool, not the int it became).
			var ex *Exception
			if strings.HasPrefix(err.Error(), "unknown binary op") || strings.HasPrefix(err.Error(), "can't concat") ||
				errors.As(err, &ex) && ex.Class == "TypeError" && (strings.HasPrefix(ex.Msg, "unsupported operand") || strings.HasPrefix(ex.Msg, "can't multiply")) {
				if _, bytes := interp.AsBytes(args[0]); bytes && op == "+" {
					return nil, typeError("can't concat %s to bytes", pyTypeName(args[1]))
				}
				return nil, typeError("%s", binaryOpError(op, pyTypeName(args[0]), pyTypeName(args[1])))
			}
		}
		return v, err
	})
}

// divHelper is `x / y` or `x // y` (op): the interpreter's, except that
// a float divided by zero, or anything by 0.0, says "float division by
// zero" as Python does (the interpreter words it as for ints).
func divHelper(op syntax.Token) func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 2 || len(kwargs) != 0 {
			return nil, typeError("%s takes 2 arguments", b.Name())
		}
		v, err := starlark.Binary(op, args[0], args[1])
		return v, floatZeroDiv(op, args[0], args[1], err)
	}
}

// floatZeroDiv is err, the interpreter's error of x op y, in Python's
// words when it is a division of floats by zero.
func floatZeroDiv(op syntax.Token, x, y starlark.Value, err error) error {
	if err == nil {
		return nil
	}
	_, xf := x.(starlark.Float)
	_, yf := y.(starlark.Float)
	if !xf && !yf {
		return err
	}
	switch msg := err.Error(); {
	case op == syntax.SLASH && msg == "floating-point division by zero":
		return errors.New("float division by zero")
	case op == syntax.SLASHSLASH && msg == "floored division by zero":
		return errors.New("float floor division by zero")
	}
	return err
}

// mulHelper is `x * y` (see lower.go). Products of small integers and
// floats take a fast path; a repetition of a string or sequence is refused
// when it would exceed the run's memory budget, and a product of integers
// when it would exceed limits.max_int_digits, before either is made.
func mulHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 || len(kwargs) != 0 {
		return nil, typeError("__ot_mul takes 2 arguments")
	}
	x, y := args[0], args[1]
	if xi, ok := x.(starlark.Int); ok {
		if yi, ok := y.(starlark.Int); ok {
			return mulInts(thread, xi, yi)
		}
	}
	if hasBool(x, y) {
		// A bool is the int it is: 10 * ok, True * "ab".
		v, err := mulHelper(thread, nil, starlark.Tuple{boolAsInt(x), boolAsInt(y)}, nil)
		return v, boolOpError("*", x, y, err)
	}
	// A namedtuple repeats as the tuple it is.
	if t, sub, ok := tupleOf(x); ok && sub {
		x = t
	}
	if t, sub, ok := tupleOf(y); ok && sub {
		y = t
	}
	b := interp.BudgetOf(thread)
	if n, ok := repeatCount(y); ok {
		if err := checkRepeat(b, x, n); err != nil {
			return nil, err
		}
		y = asInt(y)
	} else if n, ok := repeatCount(x); ok {
		if err := checkRepeat(b, y, n); err != nil {
			return nil, err
		}
		x = asInt(x)
	} else if isSequence(x) && !isIntLike(y) {
		return nil, typeError("can't multiply sequence by non-int of type '%s'", pyTypeName(y))
	} else if isSequence(y) && !isIntLike(x) {
		return nil, typeError("can't multiply sequence by non-int of type '%s'", pyTypeName(x))
	}
	if nx, ok := number(x); ok {
		if ny, ok := number(y); ok {
			x, y = nx, ny // a bool multiplies as the int it is
		}
	}
	return starlark.Binary(syntax.STAR, x, y)
}

// isSequence reports whether v repeats under * (str, bytes, list, tuple).
func isSequence(v starlark.Value) bool {
	switch v.(type) {
	case starlark.String, *interp.Unicode, starlark.Bytes, interp.Bytes, *starlark.List, starlark.Tuple:
		return true
	}
	return false
}

// isIntLike reports whether v is an int or a bool, a count to repeat by.
func isIntLike(v starlark.Value) bool {
	switch v.(type) {
	case starlark.Int, starlark.Bool:
		return true
	}
	return false
}

func mulInts(thread *starlark.Thread, x, y starlark.Int) (starlark.Value, error) {
	if a, ok := x.Int64(); ok {
		if c, ok := y.Int64(); ok {
			hi, lo := bits.Mul64(uint64(abs64(a)), uint64(abs64(c)))
			if hi == 0 && lo < 1<<63 && a != -1<<63 && c != -1<<63 {
				return starlark.MakeInt64(a * c), nil
			}
		}
	}
	b := interp.BudgetOf(thread)
	if max := b.IntBits(); max > 0 && x.BigInt().BitLen()+y.BigInt().BitLen()-1 > max {
		// The product has at least the sum of the sizes less one bit:
		// refused before it is computed.
		return nil, b.IntLimit()
	}
	p := x.Mul(y)
	if err := b.CheckInt(p); err != nil {
		return nil, err
	}
	return p, nil
}

func abs64(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

// asInt turns a bool into the int Python takes it for ("ab" * True).
func asInt(v starlark.Value) starlark.Value {
	if b, ok := v.(starlark.Bool); ok {
		if b {
			return starlark.MakeInt(1)
		}
		return starlark.MakeInt(0)
	}
	return v
}

// repeatCount reads the count of a repetition: an int or a bool.
func repeatCount(v starlark.Value) (int64, bool) {
	switch v := v.(type) {
	case starlark.Int:
		n, ok := v.Int64()
		if !ok {
			if v.Sign() < 0 {
				return 0, true
			}
			return 1 << 62, true // far beyond any budget
		}
		return n, true
	case starlark.Bool:
		if v {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// checkRepeat refuses seq * n when the result would not fit the run's
// memory budget (or Starlark's own limit of 2**30 elements).
func checkRepeat(b *interp.Budget, seq starlark.Value, n int64) error {
	if n <= 0 {
		return nil
	}
	var unit int64
	switch s := seq.(type) {
	case starlark.String:
		unit = int64(len(s))
	case *interp.Unicode:
		unit = int64(len(s.Text()))
	case starlark.Bytes:
		unit = int64(len(s))
	case interp.Bytes:
		unit = int64(len(s))
	case *interp.ByteArray:
		unit = int64(s.Len())
	case *starlark.List:
		unit = int64(s.Len()) * slot
	case starlark.Tuple:
		unit = int64(len(s)) * slot
	default:
		return nil
	}
	if unit == 0 {
		return nil
	}
	hi, size := bits.Mul64(uint64(unit), uint64(n))
	if hi != 0 || size > 1<<62 {
		size = 1 << 62
	}
	return b.Alloc(int64(size))
}

// modHelper is `"…" % args` (see lower.go): printf-style formatting with
// Python's conversions, bounded by the run's budget.
func modHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 || len(kwargs) != 0 {
		return nil, typeError("__ot_mod takes 2 arguments")
	}
	format, ok := interp.AsText(args[0])
	if !ok {
		if format, ok := interp.AsBytes(args[0]); ok {
			return bytesPrintf(interp.BudgetOf(thread), format, args[1])
		}
		if hasBool(args[0], args[1]) {
			v, err := starlark.Binary(syntax.PERCENT, boolAsInt(args[0]), boolAsInt(args[1]))
			return v, boolOpError("%", args[0], args[1], err)
		}
		return starlark.Binary(syntax.PERCENT, args[0], args[1])
	}
	s, err := printf(interp.BudgetOf(thread), format, args[1])
	if err != nil {
		return nil, err
	}
	return interp.MakeString(s), nil
}

// digitsPerDecimal is how many digits of int()'s base may stand for one
// decimal digit, rounded up: a text in base 2 is longer than its number
// in decimal. Bases that are powers of two parse in linear time, so
// their texts are only checked once parsed.
func digitsPerDecimal(n int) int {
	switch {
	case n == 0 || n == 10 || n > 10:
		return 1
	case n&(n-1) == 0:
		return 1 << 30 // no check before parsing
	}
	return 4 // bases 3 to 9: at most log(10)/log(3) < 3 digits per decimal digit
}

// countDigits counts the characters of s that could be digits of a
// number in some base.
func countDigits(s string) int {
	n := 0
	for _, r := range strings.ToLower(s) {
		if ('0' <= r && r <= '9') || ('a' <= r && r <= 'z') {
			n++
		}
	}
	return n
}

// Mul is x * y with Python's meaning, refused before it is made when the
// result would pass the run's budget (an int beyond
// limits.max_int_digits, a repetition beyond memory): for math.prod.
func Mul(thread *starlark.Thread, x, y starlark.Value) (starlark.Value, error) {
	return mulHelper(thread, nil, starlark.Tuple{x, y}, nil)
}

// required is the default the lowering gives a keyword-only parameter
// that has none (def f(a, *, b)), so that a call without it reaches the
// function's first statement, which names what is missing as CPython
// does (see kwOnlyMissing); the interpreter would call it positional.
type required struct{}

func (required) String() string        { return "<required>" }
func (required) Type() string          { return "required" }
func (required) Freeze()               {}
func (required) Truth() starlark.Bool  { return starlark.False }
func (required) Hash() (uint32, error) { return 0, typeError("unhashable type: 'required'") }

// kwOnlyMissing is __ot_kwonly(fn, names, values): the TypeError of a
// call of fn without some of its keyword-only parameters names, whose
// values are the required sentinel.
func kwOnlyMissing(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 3 {
		return nil, typeError("__ot_kwonly takes 3 arguments")
	}
	fn, _ := interp.AsText(args[0])
	names, _ := args[1].(starlark.Tuple)
	values, _ := args[2].(starlark.Tuple)
	var missing []string
	for i, v := range values {
		if _, ok := v.(required); ok && i < len(names) {
			n, _ := interp.AsText(names[i])
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return starlark.None, nil
	}
	return nil, typeError("%s", missingArgs(fn, "keyword-only", missing))
}

// hasBool reports whether x or y is a bool.
func hasBool(x, y starlark.Value) bool {
	_, xb := x.(starlark.Bool)
	_, yb := y.(starlark.Bool)
	return xb || yb
}

// boolAsInt is v, or the int a bool is.
func boolAsInt(v starlark.Value) starlark.Value {
	if b, ok := v.(starlark.Bool); ok {
		return boolInt(b)
	}
	return v
}

// boolOpError names the operands of x op y as the program gave them (a
// bool, not the int it became) when they do not combine.
func boolOpError(op string, x, y starlark.Value, err error) error {
	if err == nil {
		return nil
	}
	var ex *Exception
	if strings.HasPrefix(err.Error(), "unknown binary op") ||
		errors.As(err, &ex) && ex.Class == "TypeError" && (strings.HasPrefix(ex.Msg, "unsupported operand") || strings.HasPrefix(ex.Msg, "can't multiply")) {
		return typeError("%s", binaryOpError(op, pyTypeName(x), pyTypeName(y)))
	}
	return err
}

// addHelper is x + y where neither side is a small number (see
// binaryHelper): Python's +, with a concatenation refused before it is
// made when the result alone would exceed the run's memory budget, and
// an int beyond limits.max_int_digits ending the run.
func addHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 || len(kwargs) != 0 {
		return nil, typeError("%s takes 2 arguments", lowered.Add)
	}
	return Add(thread, args[0], args[1])
}

// Add is x + y with Python's meaning under the run's budgets (see
// addHelper), for the lowering and for modules that add values.
func Add(thread *starlark.Thread, x, y starlark.Value) (starlark.Value, error) {
	if xi, ok := x.(starlark.Int); ok {
		if yi, ok := y.(starlark.Int); ok {
			// Two ints of 64 bits need no budget (a thread-local lookup):
			// this is the path of a loop that sums.
			if a, ok := xi.Int64(); ok {
				if c, ok := yi.Int64(); ok && !addOverflows(a, c) {
					return starlark.MakeInt64(a + c), nil
				}
			}
			return addInts(interp.BudgetOf(thread), xi, yi, false)
		}
	}
	if xf, ok := x.(starlark.Float); ok {
		if yf, ok := y.(starlark.Float); ok {
			return xf + yf, nil
		}
	}
	b := interp.BudgetOf(thread)
	if err := checkConcat(b, x, y); err != nil {
		return nil, err
	}
	if hasBool(x, y) {
		if nx, ok := number(x); ok {
			if ny, ok := number(y); ok {
				return Add(thread, nx, ny) // True + 1 is 2, as in Python
			}
		}
	}
	if z, ok, err := concatBig(b, x, y); ok {
		return z, err
	}
	// The interpreter's own error, which the front end words as CPython
	// does ("can only concatenate str (not "int") to str").
	return starlark.Binary(syntax.PLUS, x, y)
}

// addInts is x + y (x - y when sub) of two ints: the result has at most
// a bit more than the larger operand, so it is made (in time linear in
// its size) and then held to limits.max_int_digits.
func addInts(b *interp.Budget, x, y starlark.Int, sub bool) (starlark.Value, error) {
	if a, ok := x.Int64(); ok {
		if c, ok := y.Int64(); ok {
			if sub && c != math.MinInt64 && !addOverflows(a, -c) {
				return starlark.MakeInt64(a - c), nil
			}
			if !sub && !addOverflows(a, c) {
				return starlark.MakeInt64(a + c), nil
			}
		}
	}
	var z starlark.Int
	if sub {
		z = x.Sub(y)
	} else {
		z = x.Add(y)
	}
	if err := b.CheckInt(z); err != nil {
		return nil, err
	}
	return z, nil
}

// checkConcat refuses, before it is made, a concatenation x + y whose
// result alone would exceed the run's memory budget.
func checkConcat(b *interp.Budget, x, y starlark.Value) error {
	var size int64
	switch x.(type) {
	case starlark.String, *interp.Unicode:
		xs, _ := interp.AsText(x)
		ys, ok := interp.AsText(y)
		if !ok {
			return nil
		}
		size = int64(len(xs)) + int64(len(ys))
	case starlark.Bytes, interp.Bytes, *interp.ByteArray:
		n, m := bytesLen(x), bytesLen(y)
		if m < 0 {
			return nil
		}
		size = int64(n) + int64(m)
	case *starlark.List:
		if l, ok := y.(*starlark.List); ok {
			size = int64(x.(*starlark.List).Len()+l.Len()) * slot
		}
	case starlark.Tuple:
		if t, ok := y.(starlark.Tuple); ok {
			size = int64(len(x.(starlark.Tuple))+len(t)) * slot
		}
	}
	if size < 1<<16 {
		return nil
	}
	return b.Alloc(size)
}

// bytesLen is the length of bytes or a bytearray; -1 for anything else.
func bytesLen(v starlark.Value) int {
	switch v := v.(type) {
	case starlark.Bytes:
		return len(v)
	case interp.Bytes:
		return len(v)
	case *interp.ByteArray:
		return v.Len()
	}
	return -1
}

// subInts is x - y for the helpers of - (__ot_sub, __ot_isub) when both
// are ints; ok is false for anything else.
func subInts(thread *starlark.Thread, x, y starlark.Value) (starlark.Value, bool, error) {
	if hasBool(x, y) {
		// A bool is the int it is: True - 1, x - flag.
		nx, okx := number(x)
		ny, oky := number(y)
		if !okx || !oky {
			return nil, false, nil
		}
		if _, ok := nx.(starlark.Int); !ok {
			z, err := starlark.Binary(syntax.MINUS, nx, ny)
			return z, true, err
		}
		if _, ok := ny.(starlark.Int); !ok {
			z, err := starlark.Binary(syntax.MINUS, nx, ny)
			return z, true, err
		}
		x, y = nx, ny
	}
	xi, ok1 := x.(starlark.Int)
	yi, ok2 := y.(starlark.Int)
	if !ok1 || !ok2 {
		return nil, false, nil
	}
	z, err := addInts(interp.BudgetOf(thread), xi, yi, true)
	return z, true, err
}

// iaddHelper is x += y where neither side is a small number: a list is
// extended in place by any iterable, under the run's budgets, as Python
// does; anything else is x + y (addHelper).
func iaddHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 || len(kwargs) != 0 {
		return nil, typeError("__ot_iplus takes 2 arguments")
	}
	if l, ok := args[0].(*starlark.List); ok {
		if _, err := listExtend(thread, l, args[1:], nil); err != nil {
			return nil, err
		}
		return l, nil
	}
	return Add(thread, args[0], args[1])
}

// lshiftHelper is x << y with Python's meaning: any shift count (the
// interpreter's stops at 511), a negative one a ValueError, and a
// result beyond limits.max_int_digits refused before it is made.
func lshiftHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 || len(kwargs) != 0 {
		return nil, typeError("%s takes 2 arguments", lowered.LShift)
	}
	return lshift(interp.BudgetOf(thread), args[0], args[1])
}

func lshift(b *interp.Budget, x, y starlark.Value) (starlark.Value, error) {
	nx, okx := number(x)
	ny, oky := number(y)
	xi, xInt := nx.(starlark.Int)
	yi, yInt := ny.(starlark.Int)
	if !okx || !oky || !xInt || !yInt {
		if z, err := starlark.Binary(syntax.LTLT, x, y); err == nil {
			return z, nil // a module's value that shifts
		}
		return nil, typeError("%s", binaryOpError("<<", pyTypeName(x), pyTypeName(y)))
	}
	if yi.Sign() < 0 {
		return nil, valueError("negative shift count")
	}
	if xi.Sign() == 0 {
		return xi, nil
	}
	n, ok := yi.Int64()
	bx := xi.BigInt()
	size := float64(bx.BitLen()) + float64(n)
	if max := b.IntBits(); max > 0 && (!ok || size > float64(max)) {
		return nil, b.IntLimit()
	}
	if !ok || size > 1<<36 {
		return nil, exception("OverflowError", "too many digits in integer")
	}
	if err := b.Alloc(int64(size) / 8); err != nil {
		return nil, err
	}
	return starlark.MakeBigInt(bx.Lsh(bx, uint(n))), nil
}
