package pyrt

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// The format-spec mini-language of Python's format(), str.format and
// f-strings:
//
//	[[fill]align][sign]["z"]["#"]["0"][width][grouping]["." precision][type]
//
// with CPython's rules for each type of value, and its error texts. Every
// padding and every digit is charged to the run's budget first, so that
// "{:1000000000}" ends with the memory budget instead of taking it.

type spec struct {
	fill      rune
	fillSet   bool // the fill was written (or is the '0' flag's)
	zero      bool // the '0' flag: zero padding, sign-aware for numbers
	align     byte // 0 (the type's default), '<', '>', '^' or '='
	sign      byte // 0, '+', '-' or ' '
	zeroNeg   bool // 'z': a negative zero prints as zero
	alt       bool // '#'
	width     int  // -1: none
	grouping  byte // 0, ',' or '_'
	precision int  // -1: none
	typ       byte // 0: none
	raw       string
}

func isAlign(c byte) bool { return c == '<' || c == '>' || c == '^' || c == '=' }

// parseSpec reads a format spec; kind names the value's type for errors.
// Strings check the spec as if it gave type 's', as CPython does.
func parseSpec(s, kind string) (spec, error) {
	sp := spec{fill: ' ', width: -1, precision: -1, raw: s}
	i := 0
	// [[fill]align]: the fill may be any character.
	if r, size := utf8.DecodeRuneInString(s); size > 0 && size < len(s) && isAlign(s[size]) {
		sp.fill, sp.align, sp.fillSet = r, s[size], true
		i = size + 1
	} else if len(s) > 0 && isAlign(s[0]) {
		sp.align = s[0]
		i = 1
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-' || s[i] == ' ') {
		sp.sign = s[i]
		i++
	}
	if i < len(s) && s[i] == 'z' {
		sp.zeroNeg = true
		i++
	}
	if i < len(s) && s[i] == '#' {
		sp.alt = true
		i++
	}
	if i < len(s) && s[i] == '0' {
		// Zero padding: the fill, unless one was written; numbers also
		// pad after the sign when no alignment was written (see number).
		sp.zero = true
		if !sp.fillSet {
			sp.fill, sp.fillSet = '0', true
		}
		i++
	}
	var err error
	if sp.width, i, err = specNumber(s, i); err != nil {
		return sp, err
	}
	if i < len(s) && (s[i] == ',' || s[i] == '_') {
		sp.grouping = s[i]
		i++
		if i < len(s) && (s[i] == ',' || s[i] == '_') {
			return sp, valueError("Cannot specify both ',' and '_'.")
		}
	}
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		if sp.precision, i, err = specNumber(s, i); err != nil {
			return sp, err
		}
		if i == start {
			return sp, valueError("Format specifier missing precision")
		}
	}
	if i < len(s) {
		sp.typ = s[i]
		i++
	}
	if i < len(s) {
		return sp, valueError("Invalid format specifier '%s' for object of type '%s'", s, kind)
	}
	if sp.grouping != 0 {
		typ := sp.typ
		if typ == 0 && kind == "str" {
			typ = 's'
		}
		switch typ {
		case 0, 'd', 'e', 'f', 'g', 'E', 'G', '%', 'F':
		case 'b', 'o', 'x', 'X':
			if sp.grouping == ',' {
				return sp, valueError("Cannot specify ',' with '%c'.", typ)
			}
		default:
			return sp, valueError("Cannot specify '%c' with '%c'.", sp.grouping, typ)
		}
	}
	return sp, nil
}

// number applies the '0' flag's sign-aware padding, which numbers get
// when no alignment was written.
func (sp spec) number() spec {
	if sp.zero && sp.align == 0 {
		sp.align = '='
	}
	return sp
}

// specNumber reads the decimal digits at s[i:]; -1 when there are none.
func specNumber(s string, i int) (int, int, error) {
	start := i
	n := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		if n > (math.MaxInt32-9)/10 {
			return 0, i, valueError("Too many decimal digits in format string")
		}
		n = n*10 + int(s[i]-'0')
		i++
	}
	if i == start {
		return -1, i, nil
	}
	return n, i, nil
}

// formatValue is format(v, spec).
func formatValue(b *interp.Budget, v starlark.Value, s string) (string, error) {
	switch x := v.(type) {
	case starlark.String, *interp.Unicode:
		sp, err := parseSpec(s, "str")
		if err != nil {
			return "", err
		}
		text, _ := interp.AsText(x)
		return formatString(b, text, sp)
	case starlark.Bool:
		if s == "" {
			return x.String(), nil
		}
		sp, err := parseSpec(s, "bool")
		if err != nil {
			return "", err
		}
		n := starlark.MakeInt(0)
		if x {
			n = starlark.MakeInt(1)
		}
		return formatInt(b, n, sp, "bool")
	case starlark.Int:
		sp, err := parseSpec(s, "int")
		if err != nil {
			return "", err
		}
		return formatInt(b, x, sp, "int")
	case starlark.Float:
		sp, err := parseSpec(s, "float")
		if err != nil {
			return "", err
		}
		return formatFloat(b, float64(x), sp)
	}
	if f, ok := v.(Formatter); ok {
		return f.PyFormat(b, s)
	}
	if s != "" {
		return "", typeError("unsupported format string passed to %s.__format__", pyTypeName(v))
	}
	return interp.Str(b, v)
}

func formatString(b *interp.Budget, s string, sp spec) (string, error) {
	switch {
	case sp.typ != 0 && sp.typ != 's':
		return "", unknownCode(sp.typ, "str")
	case sp.sign == ' ':
		return "", valueError("Space not allowed in string format specifier")
	case sp.sign != 0:
		return "", valueError("Sign not allowed in string format specifier")
	case sp.alt:
		return "", valueError("Alternate form (#) not allowed in string format specifier")
	case sp.zeroNeg:
		return "", valueError("Negative zero coercion (z) not allowed in string format specifier")
	case sp.align == '=':
		return "", valueError("'=' alignment not allowed in string format specifier")
	}
	if sp.precision >= 0 && utf8.RuneCountInString(s) > sp.precision {
		n := 0
		for i := range s {
			if n == sp.precision {
				s = s[:i]
				break
			}
			n++
		}
	}
	return pad(b, "", s, sp, '<')
}

func unknownCode(c byte, kind string) error {
	return valueError("Unknown format code '%c' for object of type '%s'", c, kind)
}

func formatInt(b *interp.Budget, x starlark.Int, sp spec, kind string) (string, error) {
	sp = sp.number()
	switch sp.typ {
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		f, err := intToFloat(x)
		if err != nil {
			return "", err
		}
		return formatFloat(b, f, sp)
	case 0, 'd', 'n', 'b', 'o', 'x', 'X', 'c':
	default:
		return "", unknownCode(sp.typ, kind)
	}
	if sp.precision >= 0 {
		return "", valueError("Precision not allowed in integer format specifier")
	}
	if sp.zeroNeg {
		return "", valueError("Negative zero coercion (z) not allowed in integer format specifier")
	}
	n := x.BigInt()
	if sp.typ == 'c' {
		switch {
		case sp.sign != 0:
			return "", valueError("Sign not allowed with integer format specifier 'c'")
		case sp.alt:
			return "", valueError("Alternate form (#) not allowed with integer format specifier 'c'")
		case sp.grouping != 0:
			return "", valueError("Cannot specify '%c' with 'c'.", sp.grouping)
		}
		if !n.IsInt64() {
			return "", exception("OverflowError", "Python int too large to convert to C long")
		}
		if n.Int64() < 0 || n.Int64() > utf8.MaxRune {
			return "", exception("OverflowError", "%%c arg not in range(0x110000)")
		}
		return pad(b, "", string(rune(n.Int64())), sp, '<')
	}
	digits, prefix, base, err := intDigits(b, n, sp.typ)
	if err != nil {
		return "", err
	}
	if !sp.alt {
		prefix = ""
	}
	sign := signOf(n.Sign() < 0, sp.sign)
	return padNumber(b, sign, prefix, digits, "", sp, groupEvery(base))
}

// intDigits writes the digits of |n| for the presentation typ (b, o, x, X
// or decimal), with the prefix '#' would add and the base.
func intDigits(b *interp.Budget, n *big.Int, typ byte) (digits, prefix string, base int, err error) {
	base = 10
	switch typ {
	case 'b':
		base, prefix = 2, "0b"
	case 'o':
		base, prefix = 8, "0o"
	case 'x':
		base, prefix = 16, "0x"
	case 'X':
		base, prefix = 16, "0X"
	}
	if base == 10 {
		// Decimal text is held to the run's limit on int–str conversion
		// (sys.set_int_max_str_digits), with CPython's ValueError.
		if n.IsInt64() && n.Int64() != math.MinInt64 {
			return strconv.FormatInt(abs64(n.Int64()), 10), prefix, base, nil
		}
		digits, err = interp.BigIntText(b, new(big.Int).Abs(n))
		return digits, prefix, base, err
	}
	if err := b.Charge(uint64(n.BitLen()) / 8); err != nil {
		return "", "", 0, err
	}
	digits = new(big.Int).Abs(n).Text(base)
	if typ == 'X' {
		digits = strings.ToUpper(digits)
	}
	return digits, prefix, base, nil
}

func groupEvery(base int) int {
	if base == 10 {
		return 3
	}
	return 4
}

// signOf is the sign a number shows: "-" when negative, else what the
// spec's sign asks for.
func signOf(negative bool, sign byte) string {
	switch {
	case negative:
		return "-"
	case sign == '+':
		return "+"
	case sign == ' ':
		return " "
	}
	return ""
}

func formatFloat(b *interp.Budget, f float64, sp spec) (string, error) {
	sp = sp.number()
	switch sp.typ {
	case 0, 'e', 'E', 'f', 'F', 'g', 'G', 'n', '%':
	default:
		return "", unknownCode(sp.typ, "float")
	}
	if sp.precision > 0 {
		if err := b.Alloc(int64(sp.precision)); err != nil {
			return "", err
		}
	}
	negative := math.Signbit(f) && !math.IsNaN(f)
	a := math.Abs(f)
	var body, suffix string
	prec := sp.precision
	switch {
	case math.IsInf(f, 0):
		body = "inf"
	case math.IsNaN(f):
		body = "nan"
	default:
		switch sp.typ {
		case 'f', 'F':
			if prec < 0 {
				prec = 6
			}
			body = strconv.FormatFloat(a, 'f', prec, 64)
		case '%':
			if prec < 0 {
				prec = 6
			}
			body = strconv.FormatFloat(a*100, 'f', prec, 64)
			suffix = "%"
		case 'e', 'E':
			if prec < 0 {
				prec = 6
			}
			body = strconv.FormatFloat(a, 'e', prec, 64)
		case 'g', 'G', 'n':
			if prec < 0 {
				prec = 6
			}
			body = formatG(a, prec, sp.alt, false)
		default: // no type
			if prec < 0 {
				body = interp.FloatRepr(a)
			} else {
				body = formatG(a, prec, sp.alt, true)
			}
		}
		if sp.alt && !strings.ContainsAny(body, ".") {
			// '#' keeps the decimal point: "1." and "1.e+05".
			if i := strings.IndexAny(body, "e"); i >= 0 {
				body = body[:i] + "." + body[i:]
			} else {
				body += "."
			}
		}
	}
	if sp.typ == 'E' || sp.typ == 'F' || sp.typ == 'G' {
		body = strings.ToUpper(body)
	}
	if negative && sp.zeroNeg && isZeroText(body) {
		negative = false
	}
	if sp.typ == '%' && (math.IsInf(f, 0) || math.IsNaN(f)) {
		suffix = "%"
	}
	intPart, rest := body, ""
	if i := strings.IndexAny(body, ".eE"); i >= 0 && !math.IsInf(f, 0) && !math.IsNaN(f) {
		intPart, rest = body[:i], body[i:]
	}
	return padNumber(b, signOf(negative, sp.sign), "", intPart, rest+suffix, sp, 3)
}

func isZeroText(s string) bool {
	return strings.Trim(s, "0.") == "" || strings.HasPrefix(strings.Trim(s, "0."), "e")
}

// formatG is the 'g' presentation with precision p: fixed-point when the
// exponent x has -4 <= x < p, scientific otherwise, trailing zeros (and a
// bare point) removed unless alt; with addDotZero (no type given) a fixed
// result keeps ".0", as Python's float.__format__ does.
func formatG(a float64, p int, alt, addDotZero bool) string {
	// With no type, the exponent form starts one digit earlier than
	// with 'g', as CPython does, so that a fixed result has room for its
	// ".0": format(2.5, ".1") is "2e+00", format(100.0, ".3") "1e+02";
	// precision 0 still shows one digit (format(3.1, ".0") is "3e+00").
	if p == 0 {
		p = 1
	}
	limit := p
	if addDotZero {
		limit = p - 1
	}
	e := strconv.FormatFloat(a, 'e', p-1, 64) // d.ddde±XX, rounded to p digits
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	var s string
	if -4 <= exp && exp < limit {
		s = strconv.FormatFloat(a, 'f', p-1-exp, 64)
	} else {
		s = mant + "e" + expText
	}
	if !alt {
		s = trimZeros(s)
	}
	if addDotZero && !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// trimZeros removes trailing zeros of the fraction, and the point when
// nothing is left after it.
func trimZeros(s string) string {
	mant, exp, hasExp := strings.Cut(s, "e")
	if strings.Contains(mant, ".") {
		mant = strings.TrimRight(mant, "0")
		mant = strings.TrimSuffix(mant, ".")
	}
	if hasExp {
		return mant + "e" + exp
	}
	return mant
}

// padNumber lays out sign, prefix, the integer digits (grouped every n
// when the spec asks), the rest (fraction, exponent, '%') and padding.
// With '=' alignment, padding goes between the sign and prefix and the
// digits; zero padding is grouped like the digits, as in CPython.
func padNumber(b *interp.Budget, sign, prefix, digits, rest string, sp spec, every int) (string, error) {
	if sp.width > 0 {
		if err := b.Alloc(int64(sp.width)); err != nil {
			return "", err
		}
	}
	sep := string(sp.grouping)
	grouped := digits
	if sp.grouping != 0 && isDigits(digits) {
		grouped = group(digits, sep, every)
	}
	if sp.align == '=' && sp.fill == '0' && sp.grouping != 0 && isDigits(digits) {
		// Zero padding takes separators too: format(1234, "010,") is
		// "00,001,234".
		room := sp.width - len(sign) - len(prefix) - len(rest)
		for len(grouped) < room {
			digits = "0" + digits
			grouped = group(digits, sep, every)
		}
		return sign + prefix + grouped + rest, nil
	}
	return pad(b, sign+prefix, grouped+rest, sp, '>')
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return s != ""
}

// group inserts sep every n digits from the right.
func group(digits, sep string, n int) string {
	if len(digits) <= n {
		return digits
	}
	var sb strings.Builder
	first := len(digits) % n
	if first == 0 {
		first = n
	}
	sb.WriteString(digits[:first])
	for i := first; i < len(digits); i += n {
		sb.WriteString(sep)
		sb.WriteString(digits[i : i+n])
	}
	return sb.String()
}

// pad fills head+body out to the spec's width with its fill character:
// '=' puts the padding between head (sign, prefix) and body; the default
// alignment is def.
func pad(b *interp.Budget, head, body string, sp spec, def byte) (string, error) {
	n := utf8.RuneCountInString(head) + utf8.RuneCountInString(body)
	if sp.width <= n {
		return head + body, nil
	}
	if err := b.Alloc(int64(sp.width) * int64(utf8.RuneLen(sp.fill))); err != nil {
		return "", err
	}
	fill := strings.Repeat(string(sp.fill), sp.width-n)
	align := sp.align
	if align == 0 {
		align = def
	}
	switch align {
	case '<':
		return head + body + fill, nil
	case '^':
		left := (sp.width - n) / 2
		f := []rune(fill)
		return string(f[:left]) + head + body + string(f[left:]), nil
	case '=':
		return head + fill + body, nil
	}
	return fill + head + body, nil
}

// intToFloat is float(x), failing as Python does for an int beyond the
// floats.
func intToFloat(x starlark.Int) (float64, error) {
	f := float64(x.Float())
	if math.IsInf(f, 0) {
		return 0, exception("OverflowError", "int too large to convert to float")
	}
	return f, nil
}
