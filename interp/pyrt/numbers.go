package pyrt

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/internal/ddouble"
	"github.com/onetool-dev/onetool/interp"
)

// The numeric builtins with CPython's results and error texts: int() and
// float() parse text as CPython does, sum() adds as CPython 3.12 does,
// round() rounds correctly to the nearest even, pow() refuses a result
// beyond limits.max_int_digits before computing it.

// intCtor is int(x=0, base=10).
func intCtor(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 1 && len(kwargs) == 0 {
		if c, ok := args[0].(Converter); ok {
			if v, ok, err := c.Convert(thread, "int"); ok || err != nil {
				if err != nil {
					return nil, err
				}
				return intCtor(thread, nil, starlark.Tuple{v}, nil)
			}
		}
	}
	var x, baseArg starlark.Value
	if len(args) > 2 {
		return nil, typeError("int() takes at most 2 arguments (%d given)", len(args))
	}
	if len(args) > 0 {
		x = args[0]
	}
	if len(args) > 1 {
		baseArg = args[1]
	}
	for _, kv := range kwargs {
		name, _ := starlark.AsString(kv[0])
		if name != "base" || baseArg != nil {
			if name == "base" {
				return nil, typeError("argument for int() given by name ('base') and position (2)")
			}
			return nil, typeError("'%s' is an invalid keyword argument for int()", name)
		}
		baseArg = kv[1]
	}
	b := interp.BudgetOf(thread)
	if baseArg == nil {
		if x == nil {
			return starlark.MakeInt(0), nil
		}
		switch v := x.(type) {
		case starlark.Int:
			return v, nil
		case starlark.Bool:
			return boolInt(v), nil
		case starlark.Float:
			return floatToInt(float64(v))
		case starlark.String, *interp.Unicode, starlark.Bytes, interp.Bytes:
			return parseIntValue(b, v, 10)
		case Number:
			return v.PyInt(b)
		}
		return nil, typeError("int() argument must be a string, a bytes-like object or a real number, not '%s'", pyTypeName(x))
	}
	base, err := indexInt(baseArg)
	if err != nil {
		return nil, err
	}
	if base != 0 && (base < 2 || base > 36) {
		return nil, valueError("int() base must be >= 2 and <= 36, or 0")
	}
	switch x.(type) {
	case starlark.String, *interp.Unicode, starlark.Bytes, interp.Bytes:
		return parseIntValue(b, x, int(base))
	case nil:
		return nil, typeError("int() missing string argument")
	}
	return nil, typeError("int() can't convert non-string with explicit base")
}

// indexInt reads an argument that must be an integer (Python's
// __index__): an int or a bool, clipped to the range of int64.
func indexInt(v starlark.Value) (int64, error) {
	switch x := v.(type) {
	case starlark.Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case starlark.Int:
		if n, ok := x.Int64(); ok {
			return n, nil
		}
		if x.Sign() < 0 {
			return math.MinInt64, nil
		}
		return math.MaxInt64, nil
	}
	return 0, typeError("'%s' object cannot be interpreted as an integer", pyTypeName(v))
}

func boolInt(v starlark.Bool) starlark.Int {
	if v {
		return starlark.MakeInt(1)
	}
	return starlark.MakeInt(0)
}

// floatToInt truncates f toward zero, as int(f) does.
func floatToInt(f float64) (starlark.Value, error) {
	switch {
	case math.IsInf(f, 0):
		return nil, exception("OverflowError", "cannot convert float infinity to integer")
	case math.IsNaN(f):
		return nil, valueError("cannot convert float NaN to integer")
	}
	return starlark.NumberToInt(starlark.Float(math.Trunc(f)))
}

// parseIntValue parses the text (or bytes) v in base, refusing first a
// text of more digits than limits.max_int_digits allows (parsing is
// quadratic).
func parseIntValue(b *interp.Budget, v starlark.Value, base int) (starlark.Value, error) {
	text, isText := interp.AsText(v)
	if !isText {
		text, _ = interp.AsBytes(v)
	}
	ascii, ok := toASCIIDigits(text)
	if ok {
		// CPython 3.11's limit on int–str conversion comes first: a
		// ValueError the program may catch (sys.set_int_max_str_digits).
		if n, limited := intTextDigits(ascii, base); limited {
			if err := interp.CheckIntText(b, n); err != nil {
				return nil, err
			}
		}
	}
	if max := b.MaxIntDigits(); ok && max > 0 {
		per := digitsPerDecimal(base)
		if countDigits(ascii) > max*per {
			return nil, b.IntLimit()
		}
	}
	if err := b.Charge(uint64(len(text)) / 16); err != nil {
		return nil, err
	}
	var n *big.Int
	if ok {
		n, ok = parseInt(ascii, base)
	}
	if !ok {
		quoted := interp.QuoteBytes(text)
		if isText {
			quoted = interp.QuoteString(text)
		}
		if utf8.RuneCountInString(quoted) > 200 {
			quoted = string([]rune(quoted)[:200])
		}
		return nil, valueError("invalid literal for int() with base %d: %s", base, quoted)
	}
	i := starlark.MakeBigInt(n)
	if err := b.CheckInt(i); err != nil {
		return nil, err
	}
	return i, nil
}

// isPySpace is Python's str.isspace for one character.
func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || (0x1c <= r && r <= 0x1f)
}

// toASCIIDigits is CPython's first step of int() and float(): decimal
// digits of any script become ASCII digits and whitespace a space; any
// other character beyond ASCII makes the text invalid.
func toASCIIDigits(s string) (string, bool) {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s, true
	}
	var sb strings.Builder
	for _, r := range s {
		switch {
		case r < 127:
			sb.WriteRune(r)
		case isPySpace(r):
			sb.WriteByte(' ')
		case unicode.IsDigit(r):
			sb.WriteByte(byte('0' + digitValue(r)))
		default:
			return "", false
		}
	}
	return sb.String(), true
}

// digitValue is the value of a decimal digit (Unicode category Nd). The
// Unicode standard keeps every such digit in a run of ten, 0 to 9, so the
// value is the distance from the start of its run modulo ten.
func digitValue(r rune) int {
	start := r
	for unicode.IsDigit(start - 1) {
		start--
	}
	return int(r-start) % 10
}

// intSpace is what CPython's int() strips around the digits.
const intSpace = " \t\n\v\f\r"

// parseInt parses s (ASCII) in base as CPython's PyLong_FromString does:
// surrounding whitespace, a sign, a prefix (0x, 0o, 0b) for base 0 or
// its own base, and single underscores between digits.
func parseInt(s string, base int) (*big.Int, bool) {
	s = strings.Trim(s, intSpace)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	zerosOnly := false
	if base == 0 {
		switch {
		case len(s) < 2 || s[0] != '0':
			base = 10
		case s[1] == 'x' || s[1] == 'X':
			base = 16
		case s[1] == 'o' || s[1] == 'O':
			base = 8
		case s[1] == 'b' || s[1] == 'B':
			base = 2
		default:
			// A C-style octal literal is invalid unless it is zero.
			zerosOnly = true
			base = 10
		}
	}
	if len(s) >= 2 && s[0] == '0' {
		p := s[1] | 0x20
		if (base == 16 && p == 'x') || (base == 8 && p == 'o') || (base == 2 && p == 'b') {
			s = s[2:]
			if s != "" && s[0] == '_' {
				s = s[1:] // one underscore may follow the prefix
			}
		}
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' {
		return nil, false
	}
	digits := make([]byte, 0, len(s))
	prev := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			if prev == '_' {
				return nil, false
			}
			prev = c
			continue
		}
		if digitOf(c) >= base {
			return nil, false
		}
		if zerosOnly && c != '0' {
			return nil, false
		}
		digits = append(digits, c)
		prev = c
	}
	n, ok := new(big.Int).SetString(string(digits), base)
	if !ok {
		return nil, false
	}
	if neg {
		n.Neg(n)
	}
	return n, true
}

// intTextDigits counts the digits of s (ASCII) in base as CPython's
// PyLong_FromString does before it checks them against
// sys.int_max_str_digits: after the whitespace, sign and prefix, the run
// of digits of the base and single underscores, underscores not counted.
// limited is false for a base that is a power of two (parsed in linear
// time, so not limited) and for text whose run of digits is itself
// invalid (a doubled or trailing underscore: the parse's own error).
func intTextDigits(s string, base int) (digits int, limited bool) {
	s = strings.TrimLeft(s, intSpace)
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if len(s) >= 2 && s[0] == '0' {
		p := s[1] | 0x20
		switch {
		case base == 0 && (p == 'x' || p == 'o' || p == 'b'):
			return 0, false
		case (base == 16 && p == 'x') || (base == 8 && p == 'o') || (base == 2 && p == 'b'):
			return 0, false
		}
	}
	if base == 0 {
		base = 10
	}
	if base&(base-1) == 0 {
		return 0, false
	}
	prev := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			if prev == '_' {
				return 0, false
			}
		} else if digitOf(c) < base {
			digits++
		} else {
			break
		}
		prev = c
	}
	return digits, prev != '_'
}

// digitOf is the value of an ASCII digit or letter in bases up to 36;
// 99 for anything else.
func digitOf(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'z':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'Z':
		return int(c-'A') + 10
	}
	return 99
}

// floatBuiltin is float(x=0.0).
func floatBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, typeError("float() takes no keyword arguments")
	}
	switch len(args) {
	case 0:
		return starlark.Float(0), nil
	case 1:
	default:
		return nil, typeError("float expected at most 1 argument, got %d", len(args))
	}
	if c, ok := args[0].(Converter); ok {
		if v, ok, err := c.Convert(thread, "float"); ok || err != nil {
			if err != nil {
				return nil, err
			}
			return floatBuiltin(thread, nil, starlark.Tuple{v}, nil)
		}
	}
	switch x := args[0].(type) {
	case starlark.Float:
		return x, nil
	case starlark.Int:
		f, err := intToFloat(x)
		if err != nil {
			return nil, err
		}
		return starlark.Float(f), nil
	case starlark.Bool:
		if x {
			return starlark.Float(1), nil
		}
		return starlark.Float(0), nil
	case starlark.String, *interp.Unicode, starlark.Bytes, interp.Bytes:
		text, isText := interp.AsText(x)
		if !isText {
			text, _ = interp.AsBytes(x)
		}
		if err := interp.BudgetOf(thread).Charge(uint64(len(text)) / 16); err != nil {
			return nil, err
		}
		if f, ok := parseFloat(text); ok {
			return starlark.Float(f), nil
		}
		quoted := interp.QuoteBytes(text)
		if isText {
			quoted = interp.QuoteString(text)
		}
		return nil, valueError("could not convert string to float: %s", quoted)
	case Number:
		return x.PyFloat()
	}
	return nil, typeError("float() argument must be a string or a real number, not '%s'", pyTypeName(args[0]))
}

// parseFloat parses text as CPython's float() does: surrounding
// whitespace, digits of any script, underscores between digits, "inf",
// "infinity" and "nan" in any case; no hexadecimal.
func parseFloat(text string) (float64, bool) {
	s, ok := toASCIIDigits(text)
	if !ok {
		return 0, false
	}
	s = strings.Trim(s, intSpace)
	body := s
	sign := 1.0
	if body != "" && (body[0] == '+' || body[0] == '-') {
		if body[0] == '-' {
			sign = -1
		}
		body = body[1:]
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		return math.Inf(int(sign)), true
	case "nan":
		return math.Copysign(math.NaN(), sign), true
	}
	// [digits][.digits][e[sign]digits], with at least one digit before
	// the exponent; an underscore only between two digits.
	var clean strings.Builder
	digits, i := 0, 0
	isDigit := func(j int) bool { return j >= 0 && j < len(body) && '0' <= body[j] && body[j] <= '9' }
	scanDigits := func() int {
		n := 0
		for i < len(body) {
			switch {
			case isDigit(i):
				clean.WriteByte(body[i])
				n++
			case body[i] == '_' && isDigit(i-1) && isDigit(i+1):
			default:
				return n
			}
			i++
		}
		return n
	}
	digits += scanDigits()
	if i < len(body) && body[i] == '.' {
		clean.WriteByte('.')
		i++
		digits += scanDigits()
	}
	if digits == 0 {
		return 0, false
	}
	if i < len(body) && (body[i] == 'e' || body[i] == 'E') {
		clean.WriteByte('e')
		i++
		if i < len(body) && (body[i] == '+' || body[i] == '-') {
			clean.WriteByte(body[i])
			i++
		}
		if scanDigits() == 0 {
			return 0, false
		}
	}
	if i != len(body) {
		return 0, false
	}
	f, err := strconv.ParseFloat(clean.String(), 64)
	if err != nil && !math.IsInf(f, 0) && f != 0 {
		return 0, false
	}
	return sign * f, true
}

// boolBuiltin is bool(x=False).
func boolBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, typeError("bool() takes no keyword arguments")
	}
	switch len(args) {
	case 0:
		return starlark.False, nil
	case 1:
		if c, ok := args[0].(Converter); ok {
			if v, ok, err := c.Convert(thread, "bool"); ok || err != nil {
				return v, err
			}
		}
		return args[0].Truth(), nil
	}
	return nil, typeError("bool expected at most 1 argument, got %d", len(args))
}

// number reads a value of arithmetic: an int (a bool is one) or a float.
func number(v starlark.Value) (starlark.Value, bool) {
	switch x := v.(type) {
	case starlark.Int, starlark.Float:
		return x, true
	case starlark.Bool:
		return boolInt(x), true
	}
	return nil, false
}

// sumBuiltin is sum(iterable, start=0). It adds as CPython 3.11 does:
// ints exactly; floats (and ints met among them) into one running float,
// left to right; anything else with +.
func sumBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, typeError("sum() takes at least 1 positional argument (0 given)")
	}
	var iterable, start starlark.Value
	if err := unpackArgs("sum", args[1:], kwargs, []string{"start"}, 0, &start); err != nil {
		return nil, err
	}
	iterable = args[0]
	if start == nil {
		start = starlark.MakeInt(0)
	}
	switch start.(type) {
	case starlark.String, *interp.Unicode:
		return nil, typeError("sum() can't sum strings [use ''.join(seq) instead]")
	case starlark.Bytes, interp.Bytes:
		return nil, typeError("sum() can't sum bytes [use b''.join(seq) instead]")
	}
	b := interp.BudgetOf(thread)
	p, err := newPuller(thread, iterable)
	if err != nil {
		return nil, err
	}
	defer p.done()
	result := start
	if ri, ok := result.(starlark.Int); ok {
		if acc, ok := ri.Int64(); ok {
			result = nil
			for result == nil {
				x, ok, err := p.next()
				if err != nil {
					return nil, err
				}
				if !ok {
					return starlark.MakeInt64(acc), nil
				}
				if n, ok := smallInt(x); ok && !addOverflows(acc, n) {
					acc += n
					continue
				}
				if result, err = pyAdd(b, starlark.MakeInt64(acc), x); err != nil {
					return nil, err
				}
			}
		}
	}
	if rf, ok := result.(starlark.Float); ok {
		// Plain left-to-right addition, as CPython 3.11's sum adds floats
		// (sum([0.1]*10) is 0.9999999999999999); 3.12's compensated sum
		// would give 1.0.
		f := float64(rf)
		result = nil
		for result == nil {
			x, ok, err := p.next()
			if err != nil {
				return nil, err
			}
			if !ok {
				return starlark.Float(f), nil
			}
			if xf, ok := x.(starlark.Float); ok {
				f += float64(xf)
				continue
			}
			if n, ok := smallInt(x); ok {
				f += float64(n)
				continue
			}
			if result, err = pyAdd(b, starlark.Float(f), x); err != nil {
				return nil, err
			}
		}
	}
	for {
		x, ok, err := p.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return result, nil
		}
		if result, err = pyAdd(b, result, x); err != nil {
			return nil, err
		}
	}
}

// smallInt reads an int (or bool) that fits in 64 bits.
func smallInt(v starlark.Value) (int64, bool) {
	switch x := v.(type) {
	case starlark.Int:
		return x.Int64()
	case starlark.Bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

func addOverflows(a, b int64) bool {
	s := a + b
	return (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0)
}

// pyAdd is x + y with Python's meaning and errors: a bool is an int, a
// concatenation is refused when it would exceed the memory budget, an
// int beyond limits.max_int_digits ends the run.
func pyAdd(b *interp.Budget, x, y starlark.Value) (starlark.Value, error) {
	if nx, ok := number(x); ok {
		if ny, ok := number(y); ok {
			x, y = nx, ny
		}
	}
	if xi, ok := x.(starlark.Int); ok {
		if yi, ok := y.(starlark.Int); ok {
			return addInts(b, xi, yi, false)
		}
	}
	if xs, ok := interp.AsText(x); ok {
		if ys, ok := interp.AsText(y); ok {
			if err := b.Alloc(int64(len(xs) + len(ys))); err != nil {
				return nil, err
			}
			return interp.MakeString(xs + ys), nil
		}
	}
	if err := checkConcat(b, x, y); err != nil {
		return nil, err
	}
	z, err := starlark.Binary(syntax.PLUS, x, y)
	if err != nil {
		var ex *Exception
		if isBudget(err) || errors.As(err, &ex) { // a module's value says why (decimal.InvalidOperation)
			return nil, err
		}
		if strings.Contains(err.Error(), "too large") {
			return nil, exception("OverflowError", "int too large to convert to float")
		}
		return nil, typeError("unsupported operand type(s) for +: '%s' and '%s'", pyTypeName(x), pyTypeName(y))
	}
	if i, ok := z.(starlark.Int); ok {
		if err := b.CheckInt(i); err != nil {
			return nil, err
		}
	}
	return z, nil
}

// roundBuiltin is round(number, ndigits=None): ints and floats to the
// nearest, ties to even, correctly rounded in decimal (round(2.675, 2)
// is 2.67: the float is just below 2.675).
func roundBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, nd starlark.Value
	if err := unpackArgs("round", args, kwargs, []string{"number", "ndigits"}, 1, &x, &nd); err != nil {
		return nil, err
	}
	if nd == nil {
		nd = starlark.None
	}
	if bv, ok := x.(starlark.Bool); ok {
		x = boolInt(bv)
	}
	if v, ok := x.(Number); ok { // a module's number reads ndigits itself
		if nd == starlark.None {
			nd = nil
		}
		return v.PyRound(interp.BudgetOf(thread), nd)
	}
	var n int64
	if nd != starlark.None {
		var err error
		if n, err = indexInt(nd); err != nil {
			return nil, err
		}
	}
	switch v := x.(type) {
	case starlark.Int:
		if nd == starlark.None || n >= 0 {
			return v, nil
		}
		return roundInt(interp.BudgetOf(thread), v, -n)
	case starlark.Float:
		f := float64(v)
		if nd == starlark.None {
			r := math.RoundToEven(f)
			return floatToInt(r)
		}
		return roundFloat(f, n)
	}
	return nil, typeError("type %s doesn't define __round__ method", pyTypeName(x))
}

// roundInt rounds i to a multiple of 10**k, ties to even.
func roundInt(b *interp.Budget, i starlark.Int, k int64) (starlark.Value, error) {
	x := i.BigInt()
	// 10**k beyond twice |x| rounds it to 0: no need to make 10**k.
	if float64(k) > float64(x.BitLen())*math.Log10(2)+1 {
		return starlark.MakeInt(0), nil
	}
	if err := b.Charge(uint64(k)); err != nil {
		return nil, err
	}
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(k), nil)
	q, r := new(big.Int).DivMod(x, p, new(big.Int)) // r >= 0: q is the floor
	twice := new(big.Int).Lsh(r, 1)
	if c := twice.Cmp(p); c > 0 || (c == 0 && q.Bit(0) == 1) {
		q.Add(q, big.NewInt(1))
	}
	z := starlark.MakeBigInt(q.Mul(q, p))
	// Rounding up may carry into a digit more (round(999, -1) is 1000).
	if err := b.CheckInt(z); err != nil {
		return nil, err
	}
	return z, nil
}

// roundFloat is round(f, n) for a float: f rounded to n decimal places
// (n may be negative) exactly, then to the nearest float.
func roundFloat(f float64, n int64) (starlark.Value, error) {
	const maxDigits, minDigits = 323, -308 // beyond them the result is f, or zero
	switch {
	case math.IsInf(f, 0) || math.IsNaN(f) || n > maxDigits:
		return starlark.Float(f), nil
	case n < minDigits:
		return starlark.Float(0 * f), nil
	}
	r := new(big.Rat).SetFloat64(f)
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(abs64(n)), nil))
	if n >= 0 {
		r.Mul(r, scale)
	} else {
		r.Quo(r, scale)
	}
	q, rem := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	twice := rem.Lsh(rem, 1)
	if c := twice.Cmp(r.Denom()); c > 0 || (c == 0 && q.Bit(0) == 1) {
		q.Add(q, big.NewInt(1))
	}
	out := new(big.Rat).SetInt(q)
	if n >= 0 {
		out.Quo(out, scale)
	} else {
		out.Mul(out, scale)
	}
	res, _ := out.Float64()
	if math.IsInf(res, 0) {
		return nil, exception("OverflowError", "rounded value too large to represent")
	}
	if res == 0 {
		res = math.Copysign(0, f)
	}
	return starlark.Float(res), nil
}

// divmodBuiltin is divmod(a, b): (a // b, a % b), floored.
func isHasBinary(v starlark.Value) bool {
	_, ok := v.(starlark.HasBinary)
	return ok
}

func divmodBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("divmod", args, kwargs, 2, 2); err != nil {
		return nil, err
	}
	x, y := args[0], args[1]
	nx, okx := number(x)
	ny, oky := number(y)
	if !okx || !oky {
		if _, yNum := y.(Number); yNum || !isText(x) && isHasBinary(x) {
			// A module's value with // and % of its own (datetime.timedelta),
			// or a module's number on the right (divmod(3, Fraction(1, 3))).
			q, err := starlark.Binary(syntax.SLASHSLASH, x, y)
			if err == nil {
				var r starlark.Value
				if r, err = starlark.Binary(syntax.PERCENT, x, y); err == nil {
					return starlark.Tuple{q, r}, nil
				}
			}
			var ex *Exception
			if errors.As(err, &ex) && ex.Class == "ZeroDivisionError" {
				return nil, err
			}
		}
		return nil, typeError("unsupported operand type(s) for divmod(): '%s' and '%s'", pyTypeName(x), pyTypeName(y))
	}
	xi, xInt := nx.(starlark.Int)
	yi, yInt := ny.(starlark.Int)
	if xInt && yInt {
		if yi.Sign() == 0 {
			return nil, exception("ZeroDivisionError", "integer division or modulo by zero")
		}
		q, _ := starlark.Binary(syntax.SLASHSLASH, xi, yi)
		r, _ := starlark.Binary(syntax.PERCENT, xi, yi)
		return starlark.Tuple{q, r}, nil
	}
	fx, err := toFloat(nx)
	if err != nil {
		return nil, err
	}
	fy, err := toFloat(ny)
	if err != nil {
		return nil, err
	}
	if fy == 0 {
		return nil, exception("ZeroDivisionError", "float divmod()")
	}
	div, mod := floatDivmod(fx, fy)
	return starlark.Tuple{starlark.Float(div), starlark.Float(mod)}, nil
}

func toFloat(v starlark.Value) (float64, error) {
	switch x := v.(type) {
	case starlark.Float:
		return float64(x), nil
	case starlark.Int:
		return intToFloat(x)
	}
	return 0, typeError("must be real number, not %s", pyTypeName(v))
}

// floatDivmod is CPython's float divmod: the remainder has the sign of
// the divisor, the quotient is snapped to an integral value.
func floatDivmod(vx, wx float64) (float64, float64) {
	mod := math.Mod(vx, wx)
	div := (vx - mod) / wx
	if mod != 0 {
		if (wx < 0) != (mod < 0) {
			mod += wx
			div -= 1
		}
	} else {
		mod = math.Copysign(0, wx)
	}
	var floordiv float64
	if div != 0 {
		floordiv = math.Floor(div)
		if div-floordiv > 0.5 {
			floordiv++
		}
	} else {
		floordiv = math.Copysign(0, vx/wx)
	}
	return floordiv, mod
}

// powBuiltin is pow(base, exp, mod=None).
func powBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, y, m starlark.Value
	if err := unpackArgs("pow", args, kwargs, []string{"base", "exp", "mod"}, 2, &x, &y, &m); err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	if m == nil || m == starlark.None {
		return powValues(b, x, y)
	}
	return powMod(b, x, y, m)
}

// powValues is x ** y with Python's meaning, refusing an int result
// beyond limits.max_int_digits before computing it. The lowering of **
// may call it.
func powValues(b *interp.Budget, x, y starlark.Value) (starlark.Value, error) {
	if v, ok, err := richPower(x, y); ok || err != nil {
		return v, err
	}
	nx, okx := number(x)
	ny, oky := number(y)
	if !okx || !oky {
		if z, ok, err := modulePow(x, y); ok {
			return z, err
		}
		return nil, typeError("unsupported operand type(s) for ** or pow(): '%s' and '%s'", pyTypeName(x), pyTypeName(y))
	}
	xi, xInt := nx.(starlark.Int)
	yi, yInt := ny.(starlark.Int)
	if xInt && yInt && yi.Sign() >= 0 {
		return intPow(b, xi, yi)
	}
	fx, err := toFloat(nx)
	if err != nil {
		return nil, err
	}
	fy, err := toFloat(ny)
	if err != nil {
		return nil, err
	}
	return floatPow(fx, fy)
}

// intPow is x ** y for y >= 0.
func intPow(b *interp.Budget, x, y starlark.Int) (starlark.Value, error) {
	bx := x.BigInt()
	switch {
	case y.Sign() == 0:
		return starlark.MakeInt(1), nil
	case bx.Sign() == 0 || bx.CmpAbs(big.NewInt(1)) == 0:
		if bx.Sign() < 0 && y.BigInt().Bit(0) == 0 {
			return starlark.MakeInt(1), nil
		}
		return x, nil
	}
	e, ok := y.Int64()
	// The result has more than e*(bits-1) bits.
	least := float64(e) * float64(bx.BitLen()-1)
	if max := b.IntBits(); max > 0 && (!ok || least >= float64(max)) {
		return nil, b.IntLimit()
	}
	if !ok || least > 1<<34 {
		return nil, exception("OverflowError", "exponent too large")
	}
	if err := b.Alloc(int64(float64(e)*float64(bx.BitLen())) / 8); err != nil {
		return nil, err
	}
	z := starlark.MakeBigInt(new(big.Int).Exp(bx, big.NewInt(e), nil))
	if err := b.CheckInt(z); err != nil {
		return nil, err
	}
	return z, nil
}

// floatPow is CPython's float power, with its errors; a negative base
// with a fractional exponent (a complex number in CPython) is refused.
func floatPow(x, y float64) (starlark.Value, error) {
	switch {
	case y == 0:
		return starlark.Float(1), nil
	case x == 0 && y < 0:
		return nil, exception("ZeroDivisionError", "0.0 cannot be raised to a negative power")
	case x < 0 && y != math.Trunc(y) && !math.IsInf(y, 0) && !math.IsInf(x, 0):
		return nil, valueError("negative number cannot be raised to a fractional power (complex numbers are not supported)")
	}
	z := cPow(x, y)
	if math.IsInf(z, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return nil, exception("OverflowError", "(34, 'Numerical result out of range')")
	}
	return starlark.Float(z), nil
}

// powMod is pow(x, y, m) for ints: y may be negative when x has an
// inverse modulo m. The result has the sign of m.
func powMod(b *interp.Budget, x, y, m starlark.Value) (starlark.Value, error) {
	var ints [3]*big.Int
	for i, v := range []starlark.Value{x, y, m} {
		n, ok := number(v)
		ni, isInt := n.(starlark.Int)
		if !ok || !isInt {
			return nil, typeError("pow() 3rd argument not allowed unless all arguments are integers")
		}
		ints[i] = ni.BigInt()
	}
	bx, by, bm := ints[0], ints[1], ints[2]
	if bm.Sign() == 0 {
		return nil, valueError("pow() 3rd argument cannot be 0")
	}
	mod := new(big.Int).Abs(bm)
	if mod.Cmp(big.NewInt(1)) == 0 {
		return starlark.MakeInt(0), nil
	}
	base := new(big.Int).Mod(bx, mod)
	e := by
	if by.Sign() < 0 {
		inv := new(big.Int).ModInverse(base, mod)
		if inv == nil {
			return nil, valueError("base is not invertible for the given modulus")
		}
		base, e = inv, new(big.Int).Neg(by)
	}
	r, err := expMod(b, base, e, mod)
	if err != nil {
		return nil, err
	}
	if bm.Sign() < 0 && r.Sign() != 0 {
		r.Add(r, bm)
	}
	return starlark.MakeBigInt(r), nil
}

// expMod is x**e mod m (e >= 0, m > 1). With an exponent and a modulus
// of thousands of digits it takes seconds, so beyond a few milliseconds
// it goes a bit of the exponent at a time, charging each, and the run's
// deadline stops it between two.
func expMod(b *interp.Budget, x, e, m *big.Int) (*big.Int, error) {
	size := uint64(len(m.Bits()))
	// About a product of two numbers the size of m per bit of the
	// exponent (one Starlark step is some ten nanoseconds).
	perBit := size*size/4 + 1
	if n := uint64(e.BitLen()); n*perBit < 1<<20 {
		if err := b.Charge(n*perBit + 1); err != nil {
			return nil, err
		}
		return new(big.Int).Exp(x, e, m), nil
	}
	r := big.NewInt(1)
	for i := e.BitLen() - 1; i >= 0; i-- {
		if err := b.Charge(2 * perBit); err != nil {
			return nil, err
		}
		r.Mul(r, r)
		r.Mod(r, m)
		if e.Bit(i) == 1 {
			r.Mul(r, x)
			r.Mod(r, m)
		}
	}
	return r, nil
}

// absBuiltin is abs(x).
func absBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("abs", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	x := args[0]
	switch v := x.(type) {
	case starlark.Bool:
		return boolInt(v), nil
	case starlark.Int:
		if v.Sign() < 0 {
			return starlark.MakeInt(0).Sub(v), nil
		}
		return v, nil
	case starlark.Float:
		return starlark.Float(math.Abs(float64(v))), nil
	case interface {
		Abs() (starlark.Value, error)
	}: // a module's value: datetime.timedelta
		return v.Abs()
	}
	return nil, typeError("bad operand type for abs(): '%s'", pyTypeName(x))
}

// baseBuiltin makes hex, oct and bin: "-0x1f" for -31.
func baseBuiltin(name string, base int, prefix string) interp.BuiltinFunc {
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity(name, args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		x := args[0]
		n, ok := number(x)
		i, isInt := n.(starlark.Int)
		if !ok || !isInt {
			return nil, typeError("'%s' object cannot be interpreted as an integer", pyTypeName(x))
		}
		bi := i.BigInt()
		sign := ""
		if bi.Sign() < 0 {
			sign = "-"
		}
		return starlark.String(sign + prefix + new(big.Int).Abs(bi).Text(base)), nil
	}
}

// chrBuiltin is chr(i). A surrogate, which valid UTF-8 cannot hold,
// becomes U+FFFD.
func chrBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("chr", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	x := args[0]
	n, ok := number(x)
	i, isInt := n.(starlark.Int)
	if !ok || !isInt {
		return nil, typeError("'%s' object cannot be interpreted as an integer", pyTypeName(x))
	}
	c, ok := i.Int64()
	if !ok || c != int64(int32(c)) {
		return nil, exception("OverflowError", "Python int too large to convert to C int")
	}
	if c < 0 || c > unicode.MaxRune {
		return nil, valueError("chr() arg not in range(0x110000)")
	}
	return interp.MakeString(string(rune(c))), nil
}

// ordBuiltin is ord(c): the code point of a one-character str, or the
// value of a one-byte bytes.
func ordBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("ord", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	x := args[0]
	if s, ok := interp.AsText(x); ok {
		if n := utf8.RuneCountInString(s); n != 1 {
			return nil, typeError("ord() expected a character, but string of length %d found", n)
		}
		r, _ := utf8.DecodeRuneInString(s)
		return starlark.MakeInt(int(r)), nil
	}
	if bs, ok := interp.AsBytes(x); ok {
		if len(bs) != 1 {
			return nil, typeError("ord() expected a character, but string of length %d found", len(bs))
		}
		return starlark.MakeInt(int(bs[0])), nil
	}
	return nil, typeError("ord() expected string of length 1, but %s found", pyTypeName(x))
}

// hashBuiltin is hash(x). Numbers hash as in CPython (equal numbers
// alike: hash(1) == hash(1.0) == hash(True), small ints to themselves,
// -1 to -2), tuples combine their elements as CPython does; text and
// other values have a hash that is stable within a run.
func hashBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("hash", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	x := args[0]
	h, err := pyHash(interp.BudgetOf(thread), x, 0)
	if err != nil {
		return nil, err
	}
	return starlark.MakeInt64(h), nil
}

// hashModulus is CPython's modulus for numeric hashes, 2**61 - 1.
const hashModulus = 1<<61 - 1

func pyHash(b *interp.Budget, v starlark.Value, depth int) (int64, error) {
	if depth > interp.MaxDepth {
		return 0, interp.ErrTooDeep
	}
	if err := b.Charge(1); err != nil {
		return 0, err
	}
	switch x := v.(type) {
	case starlark.Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case starlark.Int:
		return hashInt(x.BigInt()), nil
	case starlark.Float:
		return hashFloat(float64(x)), nil
	case starlark.Tuple:
		return hashTuple(b, x, depth)
	case *frozenSet:
		h, _ := x.Hash()
		return int64(int32(h)), nil
	case starlark.NoneType:
		// CPython's is the object's address: anything but a number's.
		return 0x5f3759df1, nil
	case Number:
		return x.PyHash()
	}
	if err := checkHashable(b, v); err != nil {
		return 0, err
	}
	h, err := v.Hash()
	if err != nil {
		return 0, typeError("unhashable type: '%s'", pyTypeName(v))
	}
	return int64(int32(h)), nil
}

func hashInt(x *big.Int) int64 {
	m := new(big.Int).Mod(new(big.Int).Abs(x), big.NewInt(hashModulus)).Int64()
	if x.Sign() < 0 {
		m = -m
	}
	if m == -1 {
		m = -2
	}
	return m
}

// HashFloat is CPython's hash() of a float (_Py_HashDouble): an integral
// float hashes as the int it equals. random.seed seeds from it.
func HashFloat(v float64) int64 { return hashFloat(v) }

// hashFloat is CPython's _Py_HashDouble: an integral float hashes as the
// int it equals.
func hashFloat(v float64) int64 {
	switch {
	case math.IsInf(v, 1):
		return 314159
	case math.IsInf(v, -1):
		return -314159
	case math.IsNaN(v):
		return 0
	}
	m, e := math.Frexp(v)
	sign := int64(1)
	if m < 0 {
		sign, m = -1, -m
	}
	var x uint64
	for m != 0 {
		x = ((x << 28) & hashModulus) | x>>(61-28)
		m *= 1 << 28
		e -= 28
		y := uint64(m)
		m -= float64(y)
		x += y
		if x >= hashModulus {
			x -= hashModulus
		}
	}
	if e >= 0 {
		e %= 61
	} else {
		e = 61 - 1 - ((-1 - e) % 61)
	}
	x = ((x << uint(e)) & hashModulus) | x>>(61-uint(e))
	h := int64(x) * sign
	if h == -1 {
		h = -2
	}
	return h
}

// hashTuple is CPython's tuple hash (xxHash's mixing of the elements'
// hashes).
func hashTuple(b *interp.Budget, t starlark.Tuple, depth int) (int64, error) {
	const (
		prime1 uint64 = 11400714785074694791
		prime2 uint64 = 14029467366897019727
		prime5 uint64 = 2870177450012600261
	)
	acc := prime5
	for _, e := range t {
		h, err := pyHash(b, e, depth+1)
		if err != nil {
			return 0, err
		}
		acc += uint64(h) * prime2
		acc = acc<<31 | acc>>33
		acc *= prime1
	}
	acc += uint64(len(t)) ^ (prime5 ^ 3527539)
	if acc == math.MaxUint64 {
		return 1546275796, nil
	}
	return int64(acc), nil
}

// checkHashable fails with Python's TypeError when v cannot be a set
// element or dict key, walking tuples under the budget first: Starlark's
// own hash of a tuple built from shared parts would visit each part at
// every use, without bound.
func checkHashable(b *interp.Budget, v starlark.Value) error {
	return hashableDepth(b, v, 0)
}

func hashableDepth(b *interp.Budget, v starlark.Value, depth int) error {
	if depth > interp.MaxDepth {
		return interp.ErrTooDeep
	}
	switch x := v.(type) {
	case starlark.Tuple:
		if err := b.Charge(uint64(len(x))); err != nil {
			return err
		}
		for _, e := range x {
			if err := hashableDepth(b, e, depth+1); err != nil {
				return err
			}
		}
		return nil
	case *starlark.List, *starlark.Dict, *starlark.Set:
		return typeError("unhashable type: '%s'", pyTypeName(v))
	case starlark.String, *interp.Unicode, starlark.Int, starlark.Float, starlark.Bool, starlark.NoneType, *frozenSet:
		return nil
	}
	if _, err := v.Hash(); err != nil {
		return typeError("unhashable type: '%s'", pyTypeName(v))
	}
	return nil
}

// cPow is x ** y for floats as CPython computes it: C's pow, which on
// the platforms CPython is built for returns the correctly rounded
// result in all but the rarest cases. Go's math.Pow is off by an ulp
// often enough to show (27 ** (1/3) is 2.9999999999999996, CPython's
// 3.0), so finite positive bases go through exp(y·log x) carried in
// double-double arithmetic (about 104 bits) and rounded once; the
// special cases (zeros, infinities, NaN, a negative base) keep
// math.Pow's answers, which follow C's.
func cPow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) || x == 0:
		return math.Pow(x, y)
	case y == 1:
		return x
	case x < 0:
		if y != math.Trunc(y) {
			return math.NaN()
		}
		r := cPow(-x, y)
		if math.Mod(y, 2) != 0 {
			return -r
		}
		return r
	}
	return ddExp(ddLog(x).MulFloat(y))
}

// dd is a double-double number (package ddouble).
type dd = ddouble.DD

// ln2DD is log(2) to double-double precision.
var ln2DD = dd{Hi: 0.6931471805599453, Lo: 2.3190468138462996e-17}

// ddLog is log(x) for a finite x > 0: x = m·2^k with m near 1, and
// log(m) = 2·atanh(s), s = (m-1)/(m+1), |s| < 0.172, by its series.
func ddLog(x float64) dd {
	m, k := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m *= 2
		k--
	}
	s := dd{Hi: m - 1, Lo: 0}.Div(ddouble.TwoSum(m, 1)) // m-1 is exact for m in [0.7, 1.42)
	s2 := s.Mul(s)
	// Terms up to s^45 leave less than 2^-110 of log(m).
	acc := dd{Hi: 1.0 / 45, Lo: 0}
	for n := 21; n >= 0; n-- {
		acc = acc.Mul(s2).Add(dd{Hi: 1, Lo: 0}.Div(dd{Hi: float64(2*n + 1), Lo: 0}))
	}
	return ln2DD.MulFloat(float64(k)).Add(s.Mul(acc).MulFloat(2))
}

// ddExp is exp(t) rounded to a float64: t = n·log(2) + r, and exp(r) by
// its series at r/1024, squared ten times.
func ddExp(t dd) float64 {
	switch {
	case t.Hi > 710:
		return math.Inf(1)
	case t.Hi < -746:
		return 0
	}
	n := math.Round(t.Hi / ln2DD.Hi)
	r := t.Add(ln2DD.MulFloat(-n))
	r = dd{Hi: r.Hi / 1024, Lo: r.Lo / 1024}
	// expm1(r) for |r| < 3.4e-4: terms up to r^12/12! suffice.
	p := dd{Hi: 0, Lo: 0}
	for i := 12; i >= 1; i-- {
		p = p.Add(dd{Hi: 1, Lo: 0}).Mul(r).Div(dd{Hi: float64(i), Lo: 0})
	}
	for range 10 {
		p = p.MulFloat(2).Add(p.Mul(p)) // expm1(2r) = 2·expm1(r) + expm1(r)²
	}
	e := dd{Hi: 1, Lo: 0}.Add(p)
	if n > 1000 || n < -1000 {
		// Scale in two steps so that neither overflows or flushes early.
		h := math.Trunc(n / 2)
		return math.Ldexp(math.Ldexp(e.Hi+e.Lo, int(h)), int(n-h))
	}
	return math.Ldexp(e.Hi+e.Lo, int(n))
}

// FloatPow is x ** y for floats as CPython computes it (C's pow), for
// math.pow: NaN for a negative base with a fractional exponent, ±Inf
// past the range of a float.
func FloatPow(x, y float64) float64 { return cPow(x, y) }

// ln10DD is log(10) to double-double precision.
var ln10DD = dd{Hi: 2.302585092994046, Lo: -2.1707562233822494e-16}

// Log, Log2 and Log10 are the logarithms of a finite x > 0 rounded once
// from double-double values, as C's log, log2 and log10 give them
// (math.log10(1000) is 3.0; Go's math.Log10 gives 2.9999999999999996).
func Log(x float64) float64 {
	l := ddLog(x)
	return l.Hi + l.Lo
}

// Log2 is log2(x); see Log.
func Log2(x float64) float64 {
	l := ddLog(x).Div(ln2DD)
	return l.Hi + l.Lo
}

// Log10 is log10(x); see Log.
func Log10(x float64) float64 {
	l := ddLog(x).Div(ln10DD)
	return l.Hi + l.Lo
}

// Exp is e ** x, rounded once from a double-double value as C's exp.
func Exp(x float64) float64 {
	if math.IsNaN(x) {
		return x
	}
	return ddExp(dd{Hi: x, Lo: 0})
}

// Norm is sqrt(sum of x*x for x in xs) for finite xs, rounded once, as
// CPython's math.hypot and math.dist compute it: the squares are scaled
// by a power of two (no overflow or underflow) and summed in
// double-double.
func Norm(xs []float64) float64 {
	maxAbs := 0.0
	for _, x := range xs {
		maxAbs = math.Max(maxAbs, math.Abs(x))
	}
	if maxAbs == 0 {
		return 0
	}
	_, e := math.Frexp(maxAbs)
	sum := dd{Hi: 0, Lo: 0}
	for _, x := range xs {
		y := math.Ldexp(x, -e)
		sum = sum.Add(ddouble.TwoProd(y, y))
	}
	s := math.Sqrt(sum.Hi)
	// One Newton step in double-double: s + (sum - s²) / 2s.
	r := sum.Add(ddouble.TwoProd(s, s).MulFloat(-1))
	root := dd{Hi: s, Lo: 0}.Add(dd{Hi: (r.Hi + r.Lo) / (2 * s), Lo: 0})
	return math.Ldexp(root.Hi+root.Lo, e)
}
