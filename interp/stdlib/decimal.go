package stdlib

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"

	"github.com/cockroachdb/apd/v3"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Decimal is the decimal module: CPython's decimal.Decimal on
// github.com/cockroachdb/apd, which implements the same General Decimal
// Arithmetic specification (docs/design.md says why). Arithmetic rounds
// with the run's context (decimal_context.go) and raises its trapped
// signals as CPython's exceptions.
func Decimal() *starlarkstruct.Module {
	members := starlark.StringDict{
		"Decimal":          decimalClass,
		"Context":          decContextClass,
		"DecimalTuple":     decimalTupleType,
		"getcontext":       interp.NewBuiltin("getcontext", decGetcontext),
		"setcontext":       interp.NewBuiltin("setcontext", decSetcontext),
		"localcontext":     interp.NewBuiltin("localcontext", decLocalcontext),
		"DecimalException": decExc.base,
		"MAX_PREC":         starlark.MakeInt64(decMaxPrec),
		"MAX_EMAX":         starlark.MakeInt64(decMaxEmax),
		"MIN_EMIN":         starlark.MakeInt64(decMinEmin),
		"MIN_ETINY":        starlark.MakeInt64(decMinEmin - (decMaxPrec - 1)),
	}
	for name := range roundingModes {
		members[name] = starlark.String(name)
	}
	for _, c := range decExc.bySignal {
		members[c.Name()] = c
	}
	for name, c := range map[string]*decContext{
		"DefaultContext":  defaultContext(),
		"BasicContext":    {prec: 9, rounding: "ROUND_HALF_UP", emin: -999999, emax: 999999, capitals: 1, traps: sigClamped | sigInvalid | sigDivZero | sigOverflow | sigUnderflow},
		"ExtendedContext": {prec: 9, rounding: "ROUND_HALF_EVEN", emin: -999999, emax: 999999, capitals: 1},
	} {
		c.frozen = true
		members[name] = c
	}
	return &starlarkstruct.Module{Name: "decimal", Members: members}
}

// decimalValue is a decimal.Decimal: an immutable apd.Decimal, and the
// run it was made in (whose context its arithmetic rounds with).
type decimalValue struct {
	d   apd.Decimal
	run *decRun
}

var (
	_ starlark.HasBinary  = (*decimalValue)(nil)
	_ starlark.HasUnary   = (*decimalValue)(nil)
	_ starlark.Comparable = (*decimalValue)(nil)
	_ starlark.HasAttrs   = (*decimalValue)(nil)
	_ interp.HasStr       = (*decimalValue)(nil)
	_ interp.GoValuer     = (*decimalValue)(nil)
	_ pyrt.Number         = (*decimalValue)(nil)
	_ pyrt.Formatter      = (*decimalValue)(nil)
)

// classWithAttrs is a class of a module with attributes of its own
// (Decimal.from_float, Fraction.from_decimal).
type classWithAttrs struct {
	pyClass
	attrs starlark.StringDict
}

func (c *classWithAttrs) Attr(name string) (starlark.Value, error) {
	if v, ok := c.attrs[name]; ok {
		return v, nil
	}
	return c.pyClass.Attr(name)
}

func (c *classWithAttrs) AttrNames() []string {
	names := c.pyClass.AttrNames()
	for k := range c.attrs {
		names = append(names, k)
	}
	return names
}

var (
	decimalClass = &classWithAttrs{
		pyClass: pyClass{module: "decimal", name: "Decimal", is: isOf[*decimalValue], ctor: newDecimal},
		attrs: starlark.StringDict{
			"from_float": interp.NewBuiltin("from_float", decFromFloat),
		},
	}
	decContextClass  = &pyClass{module: "decimal", name: "Context", is: isOf[*decContext], ctor: newDecContext}
	decimalTupleType = &ntType{name: "DecimalTuple", fields: []string{"sign", "digits", "exponent"}}
)

func (*decimalValue) PyClass() starlark.Value { return decimalClass }

func (r *decRun) dec(d *apd.Decimal) *decimalValue {
	v := &decimalValue{run: r}
	v.d.Set(d)
	return v
}

func (v *decimalValue) Type() string { return "decimal.Decimal" }
func (v *decimalValue) Freeze()      {}
func (v *decimalValue) Truth() starlark.Bool {
	return starlark.Bool(!(v.d.Form == apd.Finite && v.d.IsZero()))
}

// String is repr(d): Decimal('1.10').
func (v *decimalValue) String() string { return "Decimal('" + v.Str() + "')" }

// Str is str(d): the scientific string of the specification.
func (v *decimalValue) Str() string { return sciString(&v.d, false) }

// GoValue is the Decimal's str: a result shows its digits exactly.
func (v *decimalValue) GoValue() (any, error) { return v.Str(), nil }

// digits is d's coefficient in decimal.
func digits(d *apd.Decimal) string { return d.Coeff.Text(10) }

// sciString is the to-scientific-string (eng false) or
// to-engineering-string of the specification.
func sciString(d *apd.Decimal, eng bool) string {
	sign := ""
	if d.Negative {
		sign = "-"
	}
	switch d.Form {
	case apd.Infinite:
		return sign + "Infinity"
	case apd.NaN, apd.NaNSignaling:
		s := sign + "NaN"
		if d.Form == apd.NaNSignaling {
			s = sign + "sNaN"
		}
		if d.Coeff.Sign() != 0 {
			s += digits(d)
		}
		return s
	}
	c := digits(d)
	e := int64(d.Exponent)
	adj := e + int64(len(c)) - 1
	if e <= 0 && adj >= -6 {
		if e == 0 {
			return sign + c
		}
		n := int64(len(c)) + e // digits before the point
		if n > 0 {
			return sign + c[:n] + "." + c[n:]
		}
		return sign + "0." + strings.Repeat("0", int(-n)) + c
	}
	// Exponential notation.
	dot := int64(1)
	if eng {
		if d.IsZero() {
			// 0E+4 → 0.00E+6: the exponent a multiple of three, the
			// digits after the point padded with zeros.
			dot = 1
			m := adj % 3
			if m < 0 {
				m += 3
			}
			if m != 0 {
				extra := 3 - m
				adj += extra
				c = "0." + strings.Repeat("0", int(extra))
				dot = -1
			}
		} else {
			m := adj % 3
			if m < 0 {
				m += 3
			}
			adj -= m
			dot = m + 1
			for int64(len(c)) < dot {
				c += "0"
			}
		}
	}
	var s string
	switch {
	case dot < 0:
		s = c
	case int64(len(c)) > dot:
		s = c[:dot] + "." + c[dot:]
	default:
		s = c
	}
	if adj == 0 {
		return sign + s
	}
	return fmt.Sprintf("%s%sE%+d", sign, s, adj)
}

// Hash is the hash of an equal int or float, as CPython's, folded.
func (v *decimalValue) Hash() (uint32, error) {
	h, err := v.PyHash()
	return uint32(h) ^ uint32(h>>32), err
}

// decHashModulus is CPython's modulus of numeric hashes, 2**61 - 1.
var (
	decHashModulus = big.NewInt(1<<61 - 1)
	decHashInv10   = new(big.Int).Exp(big.NewInt(10), big.NewInt(1<<61-3), decHashModulus)
)

// PyHash is hash(d): CPython's, so that hash(Decimal(1)) == hash(1) and
// hash(Decimal('0.5')) == hash(0.5).
func (v *decimalValue) PyHash() (int64, error) {
	switch v.d.Form {
	case apd.NaNSignaling:
		return 0, pyrt.Errorf("TypeError", "Cannot hash a signaling NaN value")
	case apd.NaN:
		return 0x5f3759df3, nil // CPython's is the object's address
	case apd.Infinite:
		if v.d.Negative {
			return -314159, nil
		}
		return 314159, nil
	}
	c := v.d.Coeff.MathBigInt()
	e := int64(v.d.Exponent)
	var p *big.Int
	if e >= 0 {
		p = new(big.Int).Exp(big.NewInt(10), big.NewInt(e), decHashModulus)
	} else {
		p = new(big.Int).Exp(decHashInv10, big.NewInt(-e), decHashModulus)
	}
	h := new(big.Int).Mul(c, p)
	h.Mod(h, decHashModulus)
	r := h.Int64()
	if v.d.Negative {
		r = -r
	}
	if r == -1 {
		r = -2
	}
	return r, nil
}

// ---- Construction ----

// newDecimal is Decimal(value="0", context=None).
func newDecimal(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgs("", args, kwargs, []string{"value", "context"}, 0)
	if err != nil {
		return nil, err
	}
	r := runDecimal(thread)
	ctx, err := ctxArg(r, vals[1])
	if err != nil {
		return nil, err
	}
	if vals[0] == nil {
		return r.dec(&apd.Decimal{}), nil
	}
	d, err := r.convert(ctx, vals[0], true)
	if err != nil {
		return nil, err
	}
	return r.dec(d), nil
}

// ctxArg reads a context= argument: nil or None is the run's context.
func ctxArg(r *decRun, v starlark.Value) (*decContext, error) {
	switch c := v.(type) {
	case nil, starlark.NoneType:
		return r.ctx, nil
	case *decContext:
		return c, nil
	}
	return nil, pyrt.Errorf("TypeError", "optional argument must be a context")
}

// convert makes the value of Decimal(v): exact, whatever the context's
// precision (CPython's constructor does not round).
func (r *decRun) convert(ctx *decContext, v starlark.Value, fromFloat bool) (*apd.Decimal, error) {
	switch x := v.(type) {
	case *decimalValue:
		return &x.d, nil
	case starlark.Int, starlark.Bool:
		return intDecimal(v), nil
	case starlark.Float:
		if fromFloat {
			ctx.flags |= sigFloat
			if ctx.traps&sigFloat != 0 {
				return nil, ctx.raise(sigFloat)
			}
		}
		return floatDecimal(float64(x)), nil
	case starlark.String, *interp.Unicode:
		s, _ := interp.AsText(x)
		if err := r.budget.Charge(uint64(len(s)) / 16); err != nil {
			return nil, err
		}
		d, ok, err := r.parse(s)
		if err != nil {
			return nil, err
		}
		if !ok {
			if err := ctx.raise(condConversion); err != nil {
				return nil, err
			}
			return &apd.Decimal{Form: apd.NaN}, nil
		}
		return d, nil
	case starlark.Tuple, *starlark.List:
		return r.fromTuple(x)
	}
	return nil, pyrt.Errorf("TypeError", "conversion from %s to Decimal is not supported", pyrt.TypeName(v))
}

// intDecimal is an int (or bool) as a Decimal, exactly.
func intDecimal(v starlark.Value) *apd.Decimal {
	var n *big.Int
	switch x := v.(type) {
	case starlark.Bool:
		n = big.NewInt(0)
		if x {
			n = big.NewInt(1)
		}
	case starlark.Int:
		n = x.BigInt()
	}
	d := &apd.Decimal{}
	d.Coeff.SetMathBigInt(new(big.Int).Abs(n))
	d.Negative = n.Sign() < 0
	return d
}

// floatDecimal is f exactly: its binary value in decimal digits.
func floatDecimal(f float64) *apd.Decimal {
	d := &apd.Decimal{}
	switch {
	case math.IsNaN(f):
		d.Form = apd.NaN
		return d
	case math.IsInf(f, 0):
		d.Form = apd.Infinite
		d.Negative = f < 0
		return d
	}
	d.Negative = math.Signbit(f)
	r := new(big.Rat).SetFloat64(math.Abs(f))
	num, den := r.Num(), r.Denom()
	k := den.BitLen() - 1 // den is 2**k
	if k > 0 {
		num.Mul(num, new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(k)), nil))
	}
	d.Coeff.SetMathBigInt(num)
	d.Exponent = int32(-k)
	return d
}

// parse reads a numeric string as CPython's Decimal does: surrounding
// whitespace, underscores anywhere (they are dropped), digits of any
// script, infinities and NaNs with payloads in any case. ok is false for
// a text that is not a number. A number of more digits than
// limits.max_int_digits is refused.
func (r *decRun) parse(text string) (*apd.Decimal, bool, error) {
	var sb strings.Builder
	for _, c := range strings.TrimFunc(text, unicode.IsSpace) {
		switch {
		case c == '_':
		case c < 128:
			sb.WriteRune(c)
		case unicode.IsDigit(c):
			v := digitValue(c)
			if v < 0 {
				return nil, false, nil
			}
			sb.WriteByte(byte('0' + v))
		default:
			return nil, false, nil
		}
	}
	s := sb.String()
	d := &apd.Decimal{}
	if s != "" && (s[0] == '+' || s[0] == '-') {
		d.Negative = s[0] == '-'
		s = s[1:]
	}
	lower := strings.ToLower(s)
	switch {
	case lower == "inf" || lower == "infinity":
		d.Form = apd.Infinite
		return d, true, nil
	case strings.HasPrefix(lower, "nan") || strings.HasPrefix(lower, "snan"):
		d.Form = apd.NaN
		payload := lower[3:]
		if lower[0] == 's' {
			d.Form = apd.NaNSignaling
			payload = lower[4:]
		}
		if !allDigits(payload) {
			return nil, false, nil
		}
		payload = strings.TrimLeft(payload, "0")
		if int64(len(payload)) >= r.ctx.prec-r.ctx.clamp && payload != "" {
			return nil, false, nil // a payload is at most prec - clamp - 1 digits
		}
		if payload != "" {
			d.Coeff.SetString(payload, 10)
		}
		return d, true, nil
	}
	mant, exp, hasExp := strings.Cut(lower, "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart+frac == "" || !allDigits(intPart) || !allDigits(frac) {
		return nil, false, nil
	}
	e := int64(0)
	if hasExp {
		t := exp
		if t != "" && (t[0] == '+' || t[0] == '-') {
			t = t[1:]
		}
		if t == "" || !allDigits(t) {
			return nil, false, nil
		}
		n, err := strconv.ParseInt(exp, 10, 64)
		if err != nil || n > math.MaxInt32 || n < math.MinInt32 {
			return nil, false, r.ctx.raise(sigOverflow | sigInexact | sigRounded)
		}
		e = n
	}
	coeff := strings.TrimLeft(intPart+frac, "0")
	if int64(len(coeff)) > r.maxDigits() {
		return nil, false, r.budget.IntLimit()
	}
	e -= int64(len(frac))
	if e > math.MaxInt32 || e < math.MinInt32 {
		return nil, false, r.ctx.raise(sigOverflow | sigInexact | sigRounded)
	}
	if coeff != "" {
		d.Coeff.SetString(coeff, 10)
	}
	d.Exponent = int32(e)
	return d, true, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// digitValue is the value of a decimal digit of any script, -1 if c is
// none.
func digitValue(c rune) int {
	if c >= '0' && c <= '9' {
		return int(c - '0')
	}
	if !unicode.Is(unicode.Nd, c) {
		return -1
	}
	// The digits of a script are ten consecutive code points from zero.
	for z := c; z > c-10; z-- {
		if !unicode.Is(unicode.Nd, z-1) || (z-1)%16 == 15 && !unicode.Is(unicode.Nd, z) {
			return int(c - z)
		}
	}
	return int(c-'0') % 10
}

// fromTuple is Decimal((sign, digits, exponent)).
func (r *decRun) fromTuple(v starlark.Value) (*apd.Decimal, error) {
	t := v.(starlark.Indexable)
	if t.Len() != 3 {
		return nil, pyrt.Errorf("ValueError", "argument must be a sequence of length 3")
	}
	d := &apd.Decimal{}
	sign, ok := t.Index(0).(starlark.Int)
	if s, isInt := sign.Int64(); !ok || !isInt || s != 0 && s != 1 {
		return nil, pyrt.Errorf("ValueError", "sign must be an integer with the value 0 or 1")
	} else {
		d.Negative = s == 1
	}
	special := false
	switch e := t.Index(2).(type) {
	case starlark.Int:
		n, ok := e.Int64()
		if !ok || n > math.MaxInt32 || n < math.MinInt32 {
			return nil, r.ctx.raise(sigOverflow | sigInexact | sigRounded)
		}
		d.Exponent = int32(n)
	case starlark.String, *interp.Unicode:
		s, _ := interp.AsText(e)
		switch s {
		case "F":
			d.Form = apd.Infinite
		case "n":
			d.Form = apd.NaN
		case "N":
			d.Form = apd.NaNSignaling
		default:
			return nil, pyrt.Errorf("ValueError", "string argument in the third position must be 'F', 'n' or 'N'")
		}
		special = true
	default:
		return nil, pyrt.Errorf("ValueError", "exponent must be an integer")
	}
	ds, ok := t.Index(1).(starlark.Indexable)
	if _, isStr := t.Index(1).(starlark.String); isStr || !ok {
		return nil, pyrt.Errorf("ValueError", "coefficient must be a tuple of digits")
	}
	if int64(ds.Len()) > r.maxDigits() {
		return nil, r.budget.IntLimit()
	}
	var sb strings.Builder
	for i := range ds.Len() {
		n, ok := ds.Index(i).(starlark.Int)
		k, small := n.Int64()
		if !ok || !small || k < 0 || k > 9 {
			return nil, pyrt.Errorf("ValueError", "coefficient must be a tuple of digits")
		}
		sb.WriteByte(byte('0' + k))
	}
	if d.Form == apd.Infinite {
		return d, nil
	}
	c := strings.TrimLeft(sb.String(), "0")
	if c != "" {
		d.Coeff.SetString(c, 10)
	}
	_ = special
	return d, nil
}

// decFromFloat is Decimal.from_float(f): f exactly (an int too).
func decFromFloat(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(fn.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	r := runDecimal(thread)
	switch v := x.(type) {
	case starlark.Float:
		return r.dec(floatDecimal(float64(v))), nil
	case starlark.Int, starlark.Bool:
		return r.dec(intDecimal(v)), nil
	}
	return nil, pyrt.Errorf("TypeError", "argument must be int or float")
}

// ---- Conversions ----

// PyInt is int(d), truncated toward zero.
func (v *decimalValue) PyInt(b *interp.Budget) (starlark.Value, error) {
	switch v.d.Form {
	case apd.NaN, apd.NaNSignaling:
		return nil, pyrt.Errorf("ValueError", "cannot convert NaN to integer")
	case apd.Infinite:
		return nil, pyrt.Errorf("OverflowError", "cannot convert Infinity to integer")
	}
	return decToInt(b, v.run, &v.d, apd.RoundDown)
}

// decToInt is d rounded to an integer with the rounding r, as an int,
// refused beyond limits.max_int_digits.
func decToInt(b *interp.Budget, run *decRun, d *apd.Decimal, r apd.Rounder) (starlark.Value, error) {
	if b == nil {
		b = run.budget
	}
	e := int64(d.Exponent)
	if e > 0 {
		if max := int64(b.MaxIntDigits()); max > 0 && e+d.NumDigits() > max && !d.IsZero() {
			return nil, b.IntLimit()
		}
		if err := b.Charge(decWork(e + d.NumDigits())); err != nil {
			return nil, err
		}
		n := d.Coeff.MathBigInt()
		n.Mul(n, new(big.Int).Exp(big.NewInt(10), big.NewInt(e), nil))
		if d.Negative {
			n.Neg(n)
		}
		return starlark.MakeBigInt(n), nil
	}
	c := &apd.Context{Precision: 0, Rounding: r, MaxExponent: apd.MaxExponent, MinExponent: apd.MinExponent}
	var out apd.Decimal
	if _, err := c.RoundToIntegralValue(&out, d); err != nil {
		// An exponent beyond apd's range: a value so small it is zero.
		return starlark.MakeInt(0), nil
	}
	n := out.Coeff.MathBigInt()
	if out.Exponent > 0 {
		n.Mul(n, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(out.Exponent)), nil))
	}
	if out.Negative {
		n.Neg(n)
	}
	return starlark.MakeBigInt(n), nil
}

// roundTo is math.floor, math.ceil and math.trunc of d, exactly.
func (v *decimalValue) roundTo(b *interp.Budget, mode string) (starlark.Value, error) {
	switch v.d.Form {
	case apd.NaN, apd.NaNSignaling:
		return nil, pyrt.Errorf("ValueError", "cannot convert NaN to integer")
	case apd.Infinite:
		return nil, pyrt.Errorf("OverflowError", "cannot convert Infinity to integer")
	}
	r := apd.RoundDown
	switch mode {
	case "floor":
		r = apd.RoundFloor
	case "ceil":
		r = apd.RoundCeiling
	}
	return decToInt(b, v.run, &v.d, r)
}

// PyFloat is float(d): the nearest float.
func (v *decimalValue) PyFloat() (starlark.Value, error) {
	switch v.d.Form {
	case apd.NaNSignaling:
		return nil, pyrt.Errorf("ValueError", "cannot convert signaling NaN to float")
	case apd.NaN:
		if v.d.Negative {
			return starlark.Float(math.Copysign(math.NaN(), -1)), nil
		}
		return starlark.Float(math.NaN()), nil
	case apd.Infinite:
		return starlark.Float(math.Inf(map[bool]int{true: -1, false: 1}[v.d.Negative])), nil
	}
	return starlark.Float(decFloat(&v.d)), nil
}

// decFloat is a finite d as the nearest float.
func decFloat(d *apd.Decimal) float64 {
	adj := int64(d.Exponent) + d.NumDigits() - 1
	var f float64
	switch {
	case d.IsZero():
		f = 0
	case adj > 400:
		f = math.Inf(1)
	case adj < -400:
		f = 0
	default:
		f, _ = strconv.ParseFloat(digits(d)+"e"+strconv.Itoa(int(d.Exponent)), 64)
	}
	if d.Negative {
		f = -f
	}
	return f
}

// PyRound is round(d) (an int, half to even) or round(d, n) (a Decimal
// quantized to n places with the context's rounding).
func (v *decimalValue) PyRound(b *interp.Budget, ndigits starlark.Value) (starlark.Value, error) {
	if ndigits == nil {
		switch v.d.Form {
		case apd.NaN, apd.NaNSignaling:
			return nil, pyrt.Errorf("ValueError", "cannot convert NaN to integer")
		case apd.Infinite:
			return nil, pyrt.Errorf("OverflowError", "cannot convert Infinity to integer")
		}
		return decToInt(b, v.run, &v.d, apd.RoundHalfEven)
	}
	if bv, ok := ndigits.(starlark.Bool); ok {
		ndigits = starlark.MakeInt(map[bool]int{true: 1, false: 0}[bool(bv)])
	}
	n, ok := ndigits.(starlark.Int)
	k, small := n.Int64()
	if !ok || !small || k > math.MaxInt32 || k < math.MinInt32 {
		if !ok {
			return nil, pyrt.Errorf("TypeError", "optional arg must be an integer")
		}
		return nil, pyrt.Errorf("OverflowError", "Python int too large to convert to C ssize_t")
	}
	return v.run.quantize(v.run.ctx, &v.d, -k, "")
}

// ---- Comparison ----

// rat is a finite d as an exact fraction.
func decRat(d *apd.Decimal) *big.Rat {
	n := d.Coeff.MathBigInt()
	if d.Negative {
		n.Neg(n)
	}
	e := int64(d.Exponent)
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(abs64(e)), nil)
	if e >= 0 {
		return new(big.Rat).SetInt(n.Mul(n, p))
	}
	return new(big.Rat).SetFrac(n, p)
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// isNaN reports a NaN, quiet or signaling.
func decIsNaN(d *apd.Decimal) bool { return d.Form == apd.NaN || d.Form == apd.NaNSignaling }

// compareNaN is the answer of a comparison involving a NaN: == is False,
// != True; an ordering signals InvalidOperation (raised when trapped),
// and so does == with a signaling NaN.
func (r *decRun) compareNaN(op syntax.Token, x, y *apd.Decimal) (bool, error) {
	signaling := x.Form == apd.NaNSignaling || y.Form == apd.NaNSignaling
	if op == syntax.EQL || op == syntax.NEQ {
		if signaling {
			if err := r.ctx.raise(sigInvalid); err != nil {
				return false, err
			}
		}
		return op == syntax.NEQ, nil
	}
	return false, r.ctx.raise(sigInvalid)
}

func (v *decimalValue) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	w := y.(*decimalValue)
	if decIsNaN(&v.d) || decIsNaN(&w.d) {
		return v.run.compareNaN(op, &v.d, &w.d)
	}
	if err := v.run.budget.Charge(decWork(max(v.d.NumDigits(), w.d.NumDigits()))); err != nil {
		return false, err
	}
	return interp.CompareOp(op, v.d.Cmp(&w.d), v, y)
}

// CompareNumber compares d with an int, a float or a Fraction, exactly.
func (v *decimalValue) CompareNumber(op syntax.Token, y starlark.Value) (bool, bool, error) {
	var other *apd.Decimal
	switch w := y.(type) {
	case starlark.Int, starlark.Bool:
		other = intDecimal(w)
	case starlark.Float:
		if op != syntax.EQL && op != syntax.NEQ {
			v.run.ctx.flags |= sigFloat
			if v.run.ctx.traps&sigFloat != 0 {
				return false, true, v.run.ctx.raise(sigFloat)
			}
		}
		other = floatDecimal(float64(w))
	case *fraction:
		if decIsNaN(&v.d) {
			r, err := v.run.compareNaN(op, &v.d, &v.d)
			return r, true, err
		}
		if v.d.Form == apd.Infinite {
			c := 1
			if v.d.Negative {
				c = -1
			}
			r, err := interp.CompareOp(op, c, v, y)
			return r, true, err
		}
		// The exact fraction has a power of ten of the exponent's size.
		if err := v.run.budget.Charge(decWork(v.d.NumDigits() + abs64(int64(v.d.Exponent)))); err != nil {
			return false, true, err
		}
		r, err := interp.CompareOp(op, decRat(&v.d).Cmp(w.r), v, y)
		return r, true, err
	default:
		return false, false, nil
	}
	if decIsNaN(&v.d) || decIsNaN(other) {
		r, err := v.run.compareNaN(op, &v.d, other)
		return r, true, err
	}
	if err := v.run.budget.Charge(decWork(max(v.d.NumDigits(), other.NumDigits()))); err != nil {
		return false, true, err
	}
	r, err := interp.CompareOp(op, v.d.Cmp(other), v, y)
	return r, true, err
}

// ---- Context functions ----

func decGetcontext(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := noArgs(fn.Name(), args, kwargs); err != nil {
		return nil, err
	}
	return runDecimal(thread).ctx, nil
}

// decSetcontext is setcontext(ctx): the run's current context becomes
// ctx (a copy of the module's templates, as CPython copies them).
func decSetcontext(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var c starlark.Value
	if err := starlark.UnpackPositionalArgs(fn.Name(), args, kwargs, 1, &c); err != nil {
		return nil, err
	}
	ctx, ok := c.(*decContext)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "argument must be a context")
	}
	if ctx.frozen {
		ctx = ctx.copy()
	}
	runDecimal(thread).ctx = ctx
	return starlark.None, nil
}

// newDecContext is Context(prec=None, rounding=None, Emin=None,
// Emax=None, capitals=None, clamp=None, flags=None, traps=None).
func newDecContext(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgs("", args, kwargs, contextFields, 0)
	if err != nil {
		return nil, err
	}
	c := defaultContext()
	c.traps = sigInvalid | sigDivZero | sigOverflow
	for i, v := range vals {
		if v == nil || v == starlark.None {
			continue
		}
		if err := c.SetField(contextFields[i], v); err != nil {
			return nil, err
		}
	}
	return c, nil
}
