package stdlib

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// format(d, spec) and f"{d:spec}" for a Decimal, as CPython's C decimal
// formats: [[fill]align][sign][z][0][width][,][.precision][type] with the
// types e E f F g G n %, or none (the str() form, rounded to a precision
// if one is given). Rounding uses the context's mode. '#' and '_' are
// invalid, as in CPython.

type decSpec struct {
	fill      string
	align     byte
	sign      byte
	noNegZero bool
	zeroPad   bool
	width     int
	grouping  bool
	prec      int // -1 when absent
	typ       byte
}

func invalidFormat() error { return pyrt.Errorf("ValueError", "invalid format string") }

func parseDecSpec(s string) (decSpec, error) {
	sp := decSpec{fill: " ", prec: -1}
	isAlign := func(c byte) bool { return c == '<' || c == '>' || c == '=' || c == '^' }
	if r, n := utf8.DecodeRuneInString(s); n > 0 && n < len(s) && isAlign(s[n]) {
		sp.fill, sp.align = string(r), s[n]
		s = s[n+1:]
	} else if s != "" && isAlign(s[0]) {
		sp.align = s[0]
		s = s[1:]
	}
	if s != "" && (s[0] == '+' || s[0] == '-' || s[0] == ' ') {
		sp.sign = s[0]
		s = s[1:]
	}
	if s != "" && s[0] == 'z' {
		sp.noNegZero = true
		s = s[1:]
	}
	if s != "" && s[0] == '0' {
		if sp.align != 0 {
			return sp, invalidFormat()
		}
		sp.zeroPad = true
		sp.fill, sp.align = "0", '='
		s = s[1:]
	}
	num := func() (int, bool) {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, false
		}
		n, err := strconv.Atoi(s[:i])
		s = s[i:]
		return n, err == nil
	}
	if n, ok := num(); ok {
		sp.width = n
	} else if len(s) > 0 && s[0] >= '0' && s[0] <= '9' {
		return sp, invalidFormat()
	}
	if s != "" && s[0] == ',' {
		sp.grouping = true
		s = s[1:]
	}
	if s != "" && s[0] == '.' {
		s = s[1:]
		n, ok := num()
		if !ok {
			return sp, invalidFormat()
		}
		sp.prec = n
	}
	if s != "" {
		switch s[0] {
		case 'e', 'E', 'f', 'F', 'g', 'G', 'n', '%':
			sp.typ = s[0]
			s = s[1:]
		}
	}
	if s != "" || sp.typ == 'n' && sp.grouping {
		return sp, invalidFormat()
	}
	if sp.align == 0 {
		sp.align = '>'
	}
	return sp, nil
}

// PyFormat is format(d, spec).
func (v *decimalValue) PyFormat(b *interp.Budget, spec string) (string, error) {
	sp, err := parseDecSpec(spec)
	if err != nil {
		return "", err
	}
	if b == nil {
		b = v.run.budget
	}
	if err := b.Alloc(int64(sp.width) + int64(max(sp.prec, 0))); err != nil {
		return "", err
	}
	ctx := v.run.ctx
	d := &v.d
	neg := d.Negative
	if d.Form != apd.Finite {
		body := sciString(&apd.Decimal{Form: d.Form, Coeff: d.Coeff}, false)
		if sp.typ == '%' {
			body += "%"
		}
		if sp.zeroPad { // no zeros before NaN or Infinity: spaces, as CPython
			sp.fill, sp.align = " ", '>'
		}
		return decAlign(formatSign(neg, sp), body, sp), nil
	}
	typ := sp.typ
	switch typ {
	case 0:
		typ = 'g'
		if ctx.capitals == 1 {
			typ = 'G'
		}
	case 'n':
		typ = 'g'
	}
	digs := digits(d)
	exp := int64(d.Exponent)
	if typ == '%' {
		exp += 2
	}
	// The output is about as long as the digits and the exponent make it.
	size := int64(len(digs)) + abs64(exp) + int64(sp.width) + int64(max(sp.prec, 0))
	if typ == 'e' || typ == 'E' || typ == 'g' || typ == 'G' {
		size = int64(len(digs)) + int64(sp.width) + int64(max(sp.prec, 0)) + 24
	}
	// The text is made in a few steps (the zeros, the fraction, the
	// grouping, the padding), each a copy of it: refused when those
	// copies would pass the memory budget, before any is made.
	if err := b.Alloc(size * decFormatCopies); err != nil {
		return "", err
	}
	prec := sp.prec
	if prec == 0 && (typ == 'g' || typ == 'G') {
		prec = 1
	}
	mode := ctx.rounding
	if prec >= 0 {
		switch typ {
		case 'e', 'E':
			digs, exp = roundSignificant(digs, exp, prec+1, neg, mode)
			if pad := prec + 1 - len(digs); pad > 0 && strings.Trim(digs, "0") != "" {
				// As many digits as the precision asks: 1E+10 is 1.00e+10.
				digs += strings.Repeat("0", pad)
				exp -= int64(pad)
			}
		case 'f', 'F', '%':
			digs, exp = rescaleDigits(digs, exp, -int64(prec), neg, mode)
		case 'g', 'G':
			if len(digs) > prec {
				digs, exp = roundSignificant(digs, exp, prec, neg, mode)
			}
		}
	}
	zero := strings.Trim(digs, "0") == ""
	if zero && (typ == 'f' || typ == 'F' || typ == '%') {
		// One zero before the point, whatever zeros the scaling made.
		if exp > 0 {
			digs, exp = "0", 0
		} else {
			digs = strings.Repeat("0", int(-exp)+1)
		}
	}
	if zero && sp.noNegZero {
		neg = false
	}
	left := exp + int64(len(digs))
	var dot int64
	switch typ {
	case 'e', 'E':
		dot = 1
		if zero && prec >= 0 {
			dot = 1 - int64(prec)
		}
	case 'f', 'F', '%':
		dot = left
	default:
		if exp <= 0 && left > -6 {
			dot = left
		} else {
			dot = 1
		}
	}
	var intPart, frac string
	switch {
	case dot < 0:
		intPart, frac = "0", strings.Repeat("0", int(-dot))+digs
	case dot > int64(len(digs)):
		intPart = digs + strings.Repeat("0", int(dot-int64(len(digs))))
	default:
		intPart, frac = digs[:dot], digs[dot:]
		if intPart == "" {
			intPart = "0"
		}
	}
	e := left - dot
	sign := formatSign(neg, sp)
	if frac != "" {
		frac = "." + frac
	}
	if e != 0 || typ == 'e' || typ == 'E' {
		echar := "e"
		if typ == 'E' || typ == 'G' {
			echar = "E"
		}
		frac += echar + strconv.FormatInt(e, 10)
		if e >= 0 {
			frac = frac[:len(frac)-len(strconv.FormatInt(e, 10))] + "+" + strconv.FormatInt(e, 10)
		}
	}
	if typ == '%' {
		frac += "%"
	}
	minWidth := 0
	if sp.zeroPad {
		minWidth = sp.width - len(frac) - len(sign)
	}
	intPart = groupDigits(intPart, sp.grouping, minWidth)
	return decAlign(sign, intPart+frac, sp), nil
}

func formatSign(neg bool, sp decSpec) string {
	switch {
	case neg:
		return "-"
	case sp.sign == '+':
		return "+"
	case sp.sign == ' ':
		return " "
	}
	return ""
}

// decFormatCopies is how many copies of its text format makes on its way.
const decFormatCopies = 5

// groupDigits puts a comma between groups of three digits (when grouping)
// and pads with zeros, grouped alike, to minWidth.
func groupDigits(digs string, grouping bool, minWidth int) string {
	if !grouping {
		if n := minWidth - len(digs); n > 0 {
			return strings.Repeat("0", n) + digs
		}
		return digs
	}
	// Written from the right into one text (a group a string would be ten
	// times the text).
	buf := make([]byte, 4*((len(digs)+max(minWidth, 0))/3+2))
	pos, end := len(buf), len(digs)
	for {
		l := min(max(end, minWidth, 1), 3)
		n := min(l, end)
		pos -= n
		copy(buf[pos:], digs[end-n:end])
		for range l - n {
			pos--
			buf[pos] = '0'
		}
		end -= n
		minWidth -= l
		if end == 0 && minWidth <= 0 {
			break
		}
		minWidth--
		pos--
		buf[pos] = ','
	}
	return string(buf[pos:])
}

// decAlign pads sign+body to the width with the fill, as align says ('='
// puts the padding between the sign and the digits).
func decAlign(sign, body string, sp decSpec) string {
	n := sp.width - utf8.RuneCountInString(sign+body)
	if n <= 0 {
		return sign + body
	}
	switch sp.align {
	case '<':
		return sign + body + strings.Repeat(sp.fill, n)
	case '^':
		return strings.Repeat(sp.fill, n/2) + sign + body + strings.Repeat(sp.fill, n-n/2)
	case '=':
		return sign + strings.Repeat(sp.fill, n) + body
	}
	return strings.Repeat(sp.fill, n) + sign + body
}

// roundSignificant rounds the digits digs (of exponent exp) to keep
// significant digits with the rounding mode.
func roundSignificant(digs string, exp int64, keep int, neg bool, mode string) (string, int64) {
	if len(digs) <= keep {
		return digs, exp
	}
	cut := len(digs) - keep
	r := roundDigits(digs, keep, neg, mode)
	exp += int64(cut)
	if len(r) > keep { // 999 → 1000
		r = r[:keep]
		exp++
	}
	return r, exp
}

// rescaleDigits makes the digits digs (of exponent exp) have the exponent
// newExp, rounding with the mode when digits go.
func rescaleDigits(digs string, exp, newExp int64, neg bool, mode string) (string, int64) {
	if newExp <= exp {
		return digs + strings.Repeat("0", int(exp-newExp)), newExp
	}
	drop := newExp - exp
	if drop > int64(len(digs)) {
		digs = strings.Repeat("0", int(drop-int64(len(digs)))) + digs
	}
	keep := len(digs) - int(drop)
	r := roundDigits(digs, keep, neg, mode)
	if t := strings.TrimLeft(r, "0"); t != "" {
		r = t
	} else {
		r = "0"
	}
	return r, newExp
}

// roundDigits keeps the first keep digits of digs, rounded by what
// follows them with the rounding mode (neg is the sign of the value); it
// may return keep+1 digits ("999" up is "1000"), or "0" when keep is 0.
func roundDigits(digs string, keep int, neg bool, mode string) string {
	kept, rest := digs[:keep], digs[keep:]
	nonzero := strings.Trim(rest, "0") != ""
	if kept == "" {
		kept = "0"
	}
	if !nonzero {
		return kept
	}
	// half: -1 below one half of the last kept digit's unit, 0 at it, 1 above.
	half := -1
	switch {
	case rest[0] > '5':
		half = 1
	case rest[0] == '5':
		half = 0
		if strings.Trim(rest[1:], "0") != "" {
			half = 1
		}
	}
	last := kept[len(kept)-1]
	up := false
	switch mode {
	case "ROUND_UP":
		up = true
	case "ROUND_DOWN":
	case "ROUND_CEILING":
		up = !neg
	case "ROUND_FLOOR":
		up = neg
	case "ROUND_HALF_UP":
		up = half >= 0
	case "ROUND_HALF_DOWN":
		up = half > 0
	case "ROUND_05UP":
		up = last == '0' || last == '5'
	default: // ROUND_HALF_EVEN
		up = half > 0 || half == 0 && (last-'0')%2 == 1
	}
	if !up {
		return kept
	}
	b := []byte(kept)
	i := len(b) - 1
	for ; i >= 0 && b[i] == '9'; i-- {
		b[i] = '0'
	}
	if i < 0 {
		return "1" + string(b)
	}
	b[i]++
	return string(b)
}
