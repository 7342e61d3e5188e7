package python

import (
	"math"
	"math/big"
	"math/bits"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

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
	}
	return starlark.Binary(syntax.STAR, x, y)
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
		return starlark.Binary(syntax.PERCENT, args[0], args[1])
	}
	s, err := printf(interp.BudgetOf(thread), format, args[1])
	if err != nil {
		return nil, err
	}
	return interp.MakeString(s), nil
}

// intBuiltin is int(x, base=10) with Python's rules (see parseInt), refusing
// a text of more digits than limits.max_int_digits before parsing it
// (parsing is quadratic).
func intBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, base starlark.Value
	if err := starlark.UnpackArgs("int", args, kwargs, "x?", &x, "base?", &base); err != nil {
		return nil, typeError("%s", strings.TrimPrefix(err.Error(), "int: "))
	}
	budget := interp.BudgetOf(thread)
	text, isText := interp.AsText(x)
	if bs, ok := x.(starlark.Bytes); ok {
		text, isText = string(bs), true
	}
	if base != nil {
		if !isText {
			return nil, typeError("int() can't convert non-string with explicit base")
		}
	}
	switch v := x.(type) {
	case nil:
		return starlark.MakeInt(0), nil
	case starlark.Int:
		return v, nil
	case starlark.Bool:
		if v {
			return starlark.MakeInt(1), nil
		}
		return starlark.MakeInt(0), nil
	case starlark.Float:
		f := float64(v)
		switch {
		case math.IsNaN(f):
			return nil, valueError("cannot convert float NaN to integer")
		case math.IsInf(f, 0):
			return nil, exception("OverflowError", "cannot convert float infinity to integer")
		}
		i, err := starlark.NumberToInt(v)
		if err != nil {
			return nil, err
		}
		return i, budget.CheckInt(i)
	}
	if !isText {
		return nil, typeError("int() argument must be a string, a bytes-like object or a real number, not '%s'", typeName(x))
	}
	n := 10
	if base != nil {
		b, err := starlark.AsInt32(base)
		if err != nil {
			return nil, typeError("'%s' object cannot be interpreted as an integer", typeName(base))
		}
		if b != 0 && (b < 2 || b > 36) {
			return nil, valueError("int() base must be >= 2 and <= 36, or 0")
		}
		n = b
	}
	if max := budget.MaxIntDigits(); max > 0 && countDigits(text) > max*digitsPerDecimal(n) {
		return nil, budget.IntLimit()
	}
	i, ok := parseInt(text, n)
	if !ok {
		return nil, valueError("invalid literal for int() with base %d: %s", n, repr(x))
	}
	v := starlark.MakeBigInt(i)
	return v, budget.CheckInt(v)
}

// parseInt reads an integer as Python's int(text, base) does: spaces
// around it, a sign, a prefix (0x, 0o, 0b) that base 0 requires and
// bases 16, 8 and 2 allow, and single underscores between digits.
func parseInt(text string, base int) (*big.Int, bool) {
	s := strings.TrimSpace(text)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	prefixed := false
	if len(s) >= 2 && s[0] == '0' {
		p := 0
		switch s[1] {
		case 'x', 'X':
			p = 16
		case 'o', 'O':
			p = 8
		case 'b', 'B':
			p = 2
		}
		if p != 0 && (base == 0 || base == p) {
			base, s, prefixed = p, s[2:], true
		}
	}
	if base == 0 {
		base = 10
		// Base 0 reads decimal as Python source does: no leading zeros.
		if t := strings.TrimLeft(strings.ReplaceAll(s, "_", ""), "0"); t != "" && s != "" && s[0] == '0' {
			return nil, false
		}
	}
	if prefixed && strings.HasPrefix(s, "_") {
		s = s[1:] // 0x_ff
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return nil, false
	}
	s = strings.ReplaceAll(s, "_", "")
	for _, r := range s {
		d := digitValue(r)
		if d < 0 || d >= base {
			return nil, false
		}
	}
	i, ok := new(big.Int).SetString(s, base)
	if !ok {
		return nil, false
	}
	if neg {
		i.Neg(i)
	}
	return i, true
}

func digitValue(r rune) int {
	switch {
	case '0' <= r && r <= '9':
		return int(r - '0')
	case 'a' <= r && r <= 'z':
		return int(r-'a') + 10
	case 'A' <= r && r <= 'Z':
		return int(r-'A') + 10
	}
	return -1
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
