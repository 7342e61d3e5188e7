package stdlib

import (
	"math"
	"math/big"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Fractions is the fractions module: Fraction, exact rational numbers on
// math/big.Rat with CPython's constructor, arithmetic (a float operand
// makes a float), comparisons, hash and reprs. A numerator or denominator
// beyond limits.max_int_digits ends the run, as such an int does.
func Fractions() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "fractions", Members: starlark.StringDict{
		"Fraction": fractionClass,
	}}
}

// fraction is a fractions.Fraction, immutable, in lowest terms with a
// positive denominator.
type fraction struct {
	r *big.Rat
	b *interp.Budget // of the run that made it: operators are given no thread
}

var (
	_ starlark.HasBinary  = (*fraction)(nil)
	_ starlark.HasUnary   = (*fraction)(nil)
	_ starlark.Comparable = (*fraction)(nil)
	_ starlark.HasAttrs   = (*fraction)(nil)
	_ interp.HasStr       = (*fraction)(nil)
	_ interp.GoValuer     = (*fraction)(nil)
	_ pyrt.Number         = (*fraction)(nil)
)

var fractionClass = &classWithAttrs{
	pyClass: pyClass{module: "fractions", name: "Fraction", is: isOf[*fraction], ctor: newFraction},
	attrs: starlark.StringDict{
		"from_float":   interp.NewBuiltin("from_float", fracFromFloat),
		"from_decimal": interp.NewBuiltin("from_decimal", fracFromDecimal),
	},
}

func (*fraction) PyClass() starlark.Value { return fractionClass }

func (f *fraction) Type() string         { return "Fraction" }
func (f *fraction) Freeze()              {}
func (f *fraction) Truth() starlark.Bool { return f.r.Sign() != 0 }

// String is repr(f): Fraction(3, 4).
func (f *fraction) String() string {
	return "Fraction(" + f.r.Num().String() + ", " + f.r.Denom().String() + ")"
}

// Str is str(f): 3/4, or 2 for a whole number.
func (f *fraction) Str() string {
	if f.r.IsInt() {
		return f.r.Num().String()
	}
	return f.r.Num().String() + "/" + f.r.Denom().String()
}

// GoValue is the Fraction's str: a result shows it exactly.
func (f *fraction) GoValue() (any, error) { return f.Str(), nil }

func (f *fraction) Hash() (uint32, error) {
	h, err := f.PyHash()
	return uint32(h) ^ uint32(h>>32), err
}

// PyHash is hash(f): that of an equal int or float, as CPython's.
func (f *fraction) PyHash() (int64, error) { return ratHash(f.r), nil }

// ratHash is CPython's hash of a rational number: n/d modulo 2**61 - 1,
// the hash of infinity when d has no inverse.
func ratHash(r *big.Rat) int64 {
	m := decHashModulus
	inv := new(big.Int).ModInverse(new(big.Int).Mod(r.Denom(), m), m)
	var h int64
	if inv == nil {
		h = 314159
	} else {
		n := new(big.Int).Abs(r.Num())
		n.Mod(n, m)
		h = n.Mul(n, inv).Mod(n, m).Int64()
	}
	if r.Sign() < 0 {
		h = -h
	}
	if h == -1 {
		h = -2
	}
	return h
}

// checkRat refuses a fraction whose terms have more digits than
// limits.max_int_digits, and charges the work of making it.
func checkRat(b *interp.Budget, r *big.Rat) (*fraction, error) {
	bits := r.Num().BitLen() + r.Denom().BitLen()
	if err := b.Charge(uint64(bits)/64 + 1); err != nil {
		return nil, err
	}
	if err := b.CheckBits(r.Num()); err != nil {
		return nil, err
	}
	if err := b.CheckBits(r.Denom()); err != nil {
		return nil, err
	}
	return &fraction{r: r, b: b}, nil
}

// ratCharge pays, before the work is done, for making numbers of about
// bits bits: their memory, and the quadratic work of multiplying them and
// of reducing a fraction of them (a gcd).
func ratCharge(b *interp.Budget, bits int64) error {
	if err := b.Alloc(bits / 8); err != nil {
		return err
	}
	w := uint64(bits / 64)
	return b.Charge(w*w/32 + 1)
}

// ratBits is the size of r's terms.
func ratBits(r *big.Rat) int64 { return int64(r.Num().BitLen() + r.Denom().BitLen()) }

// fracZero is Python's ZeroDivisionError for a zero denominator.
func fracZero(num *big.Int) error {
	return pyrt.Errorf("ZeroDivisionError", "Fraction(%s, 0)", num.String())
}

// parseFraction reads CPython's forms: [sign] int ["/" int], or [sign]
// decimal with an optional exponent; underscores between digits.
func parseFraction(b *interp.Budget, s string) (*big.Rat, error) {
	bad := pyrt.Errorf("ValueError", "Invalid literal for Fraction: %s", interp.QuoteString(s))
	t := strings.TrimSpace(s)
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	digitsOK := func(d string) (string, bool) {
		if d == "" || d[0] == '_' || d[len(d)-1] == '_' || strings.Contains(d, "__") {
			return "", false
		}
		d = strings.ReplaceAll(d, "_", "")
		return d, allDigits(d)
	}
	if max := b.MaxIntDigits(); max > 0 && len(t) > 2*max+16 {
		return nil, b.IntLimit()
	}
	if num, den, ok := strings.Cut(t, "/"); ok {
		n, ok1 := digitsOK(num)
		d, ok2 := digitsOK(den)
		if !ok1 || !ok2 {
			return nil, bad
		}
		nb, _ := new(big.Int).SetString(n, 10)
		db, _ := new(big.Int).SetString(d, 10)
		if db.Sign() == 0 {
			return nil, fracZero(nb)
		}
		if neg {
			nb.Neg(nb)
		}
		return new(big.Rat).SetFrac(nb, db), nil
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(t), "e")
	intPart, frac, hasDot := strings.Cut(mant, ".")
	var ok bool
	if intPart != "" {
		if intPart, ok = digitsOK(intPart); !ok {
			return nil, bad
		}
	}
	if frac != "" {
		if frac, ok = digitsOK(frac); !ok {
			return nil, bad
		}
	}
	if intPart == "" && frac == "" || !hasDot && frac != "" {
		return nil, bad
	}
	e := int64(0)
	if hasExp {
		es := exp
		eneg := false
		if es != "" && (es[0] == '+' || es[0] == '-') {
			eneg = es[0] == '-'
			es = es[1:]
		}
		if es, ok = digitsOK(es); !ok {
			return nil, bad
		}
		eb, _ := new(big.Int).SetString(es, 10)
		if !eb.IsInt64() || eb.Int64() > 1<<40 {
			return nil, b.IntLimit()
		}
		e = eb.Int64()
		if eneg {
			e = -e
		}
	}
	e -= int64(len(frac))
	if max := int64(b.MaxIntDigits()); max > 0 && abs64(e) > max {
		return nil, b.IntLimit()
	}
	if err := ratCharge(b, int64(float64(abs64(e)+int64(len(intPart)+len(frac)))*3.33)); err != nil {
		return nil, err // 10**e is made below
	}
	n, _ := new(big.Int).SetString(intPart+frac+"0", 10)
	n.Quo(n, big.NewInt(10))
	if neg {
		n.Neg(n)
	}
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(abs64(e)), nil)
	if e >= 0 {
		return new(big.Rat).SetInt(n.Mul(n, p)), nil
	}
	return new(big.Rat).SetFrac(n, p), nil
}

// floatRat is f exactly, or CPython's error for NaN and infinities.
func floatRat(f float64) (*big.Rat, error) {
	switch {
	case math.IsNaN(f):
		return nil, pyrt.Errorf("ValueError", "cannot convert NaN to integer ratio")
	case math.IsInf(f, 0):
		return nil, pyrt.Errorf("OverflowError", "cannot convert Infinity to integer ratio")
	}
	return new(big.Rat).SetFloat64(f), nil
}

// decimalRat is a Decimal exactly, or CPython's error for NaN and
// infinities.
func decimalRat(d *decimalValue) (*big.Rat, error) {
	switch d.d.Form {
	case apd.NaN, apd.NaNSignaling:
		return nil, pyrt.Errorf("ValueError", "cannot convert NaN to integer ratio")
	case apd.Infinite:
		return nil, pyrt.Errorf("OverflowError", "cannot convert Infinity to integer ratio")
	}
	if err := checkRatDigits(d.run, &d.d); err != nil {
		return nil, err
	}
	return decRat(&d.d), nil
}

// rational reads a Rational: an int, a bool or a Fraction.
func rational(v starlark.Value) (*big.Rat, bool) {
	switch x := v.(type) {
	case *fraction:
		return x.r, true
	case starlark.Int:
		return new(big.Rat).SetInt(x.BigInt()), true
	case starlark.Bool:
		if x {
			return big.NewRat(1, 1), true
		}
		return new(big.Rat), true
	}
	return nil, false
}

// newFraction is Fraction(numerator=0, denominator=None).
func newFraction(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgs("", args, kwargs, []string{"numerator", "denominator"}, 0)
	if err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	num, den := vals[0], vals[1]
	if num == nil {
		num = starlark.MakeInt(0)
	}
	if den == nil || den == starlark.None {
		var r *big.Rat
		switch x := num.(type) {
		case starlark.Float:
			r, err = floatRat(float64(x))
		case *decimalValue:
			r, err = decimalRat(x)
		case starlark.String, *interp.Unicode:
			s, _ := interp.AsText(x)
			r, err = parseFraction(b, s)
		default:
			var ok bool
			if r, ok = rational(num); !ok {
				return nil, pyrt.Errorf("TypeError", "argument should be a string or a Rational instance")
			}
			r = new(big.Rat).Set(r)
		}
		if err != nil {
			return nil, err
		}
		return checkRat(b, r)
	}
	n, ok1 := rational(num)
	d, ok2 := rational(den)
	if !ok1 || !ok2 {
		return nil, pyrt.Errorf("TypeError", "both arguments should be Rational instances")
	}
	if d.Sign() == 0 {
		// CPython names the numerator as it reduced it.
		return nil, fracZero(new(big.Int).Mul(n.Num(), d.Denom()))
	}
	return checkRat(b, new(big.Rat).Quo(n, d))
}

func fracFromFloat(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(fn.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	switch v := x.(type) {
	case starlark.Float:
		r, err := floatRat(float64(v))
		if err != nil {
			return nil, err
		}
		return checkRat(interp.BudgetOf(thread), r)
	case starlark.Int, starlark.Bool:
		r, _ := rational(v)
		return &fraction{r: r, b: interp.BudgetOf(thread)}, nil
	}
	return nil, pyrt.Errorf("TypeError", "Fraction.from_float() only takes floats, not %s (%s)", x.String(), pyrt.TypeName(x))
}

func fracFromDecimal(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(fn.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	switch v := x.(type) {
	case *decimalValue:
		r, err := decimalRat(v)
		if err != nil {
			return nil, err
		}
		return checkRat(interp.BudgetOf(thread), r)
	case starlark.Int, starlark.Bool:
		r, _ := rational(v)
		return &fraction{r: r, b: interp.BudgetOf(thread)}, nil
	}
	return nil, pyrt.Errorf("TypeError", "Fraction.from_decimal() only takes Decimals, not %s (%s)", x.String(), pyrt.TypeName(x))
}

// ---- Arithmetic ----

func fracUnsupported(op string, x, y starlark.Value) error {
	if op == "**" {
		op = "** or pow()"
	}
	return pyrt.Errorf("TypeError", "unsupported operand type(s) for %s: '%s' and '%s'", op, pyrt.TypeName(x), pyrt.TypeName(y))
}

func ratFloat(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}

// floorRat is the floor of q, an int.
func floorRat(q *big.Rat) *big.Int {
	n, _ := new(big.Int).DivMod(q.Num(), q.Denom(), new(big.Int)) // Euclid: floor for a positive denominator
	return n
}

func (f *fraction) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	var xv, yv starlark.Value = f, y
	if side == starlark.Right {
		xv, yv = y, f
	}
	if op == syntax.IN || op == syntax.NOT_IN {
		return nil, nil
	}
	if fl, ok := y.(starlark.Float); ok {
		// With a float, the Fraction is a float.
		ff := starlark.Float(ratFloat(f.r))
		if op == syntax.STARSTAR {
			a, b := ff, fl
			if side == starlark.Right {
				a, b = fl, ff
			}
			return pyrt.Pow(f.b, a, b)
		}
		if side == starlark.Right {
			return starlark.Binary(op, fl, ff)
		}
		return starlark.Binary(op, ff, fl)
	}
	o, ok := rational(y)
	if !ok {
		if op == syntax.STARSTAR && side == starlark.Left {
			return nil, fracUnsupported("**", starlark.Float(0), y)
		}
		return nil, fracUnsupported(op.String(), xv, yv)
	}
	a, b := f.r, o
	if side == starlark.Right {
		a, b = o, f.r
	}
	budget := f.b
	if g, ok := y.(*fraction); ok && budget == nil {
		budget = g.b
	}
	if op != syntax.STARSTAR {
		if err := ratCharge(budget, ratBits(a)+ratBits(b)); err != nil {
			return nil, err
		}
	}
	switch op {
	case syntax.PLUS:
		return checkRat(budget, new(big.Rat).Add(a, b))
	case syntax.MINUS:
		return checkRat(budget, new(big.Rat).Sub(a, b))
	case syntax.STAR:
		return checkRat(budget, new(big.Rat).Mul(a, b))
	case syntax.SLASH:
		if b.Sign() == 0 {
			// CPython divides out gcd(a's numerator, 0) first: only the
			// sign is left of it.
			return nil, fracZero(big.NewInt(int64(a.Sign())))
		}
		return checkRat(budget, new(big.Rat).Quo(a, b))
	case syntax.SLASHSLASH, syntax.PERCENT:
		if b.Sign() == 0 {
			if op == syntax.PERCENT {
				return nil, pyrt.Errorf("ZeroDivisionError", "integer modulo by zero")
			}
			return nil, pyrt.Errorf("ZeroDivisionError", "integer division or modulo by zero")
		}
		q := floorRat(new(big.Rat).Quo(a, b))
		if op == syntax.SLASHSLASH {
			return starlark.MakeBigInt(q), nil
		}
		m := new(big.Rat).Sub(a, new(big.Rat).Mul(b, new(big.Rat).SetInt(q)))
		return checkRat(budget, m)
	case syntax.STARSTAR:
		return fracPow(budget, a, b, xv, yv)
	}
	return nil, fracUnsupported(op.String(), xv, yv)
}

// fracPow is a ** b for rationals: exact when b is whole (a Fraction,
// or an int when a is an int), a float otherwise.
func fracPow(budget *interp.Budget, a, b *big.Rat, xv, yv starlark.Value) (starlark.Value, error) {
	if !b.IsInt() {
		return pyrt.Pow(budget, starlark.Float(ratFloat(a)), starlark.Float(ratFloat(b)))
	}
	if bv, isBool := xv.(starlark.Bool); isBool { // True ** Fraction(2) is an int, as 1 ** 2
		n := 0
		if bv {
			n = 1
		}
		xv = starlark.MakeInt(n)
	}
	if _, isInt := xv.(starlark.Int); isInt {
		// int ** Fraction(n): CPython's answer is int ** n.
		return pyrt.Pow(budget, xv, starlark.MakeBigInt(b.Num()))
	}
	e := b.Num()
	if !e.IsInt64() || e.Int64() > 1<<32 || e.Int64() < -(1<<32) {
		if a.Sign() == 0 || a.Cmp(big.NewRat(1, 1)) == 0 {
			if e.Sign() < 0 && a.Sign() == 0 {
				return nil, fracZero(big.NewInt(1))
			}
			return &fraction{r: new(big.Rat).Set(a), b: budget}, nil
		}
		return nil, budget.IntLimit()
	}
	n := e.Int64()
	base := new(big.Rat).Set(a)
	if n < 0 {
		if base.Sign() == 0 {
			return nil, fracZero(big.NewInt(1))
		}
		base.Inv(base)
		n = -n
	}
	// Refuse a result beyond the digit bound before making it.
	if max := budget.IntBits(); max > 0 {
		bits := max64(int64(base.Num().BitLen()), int64(base.Denom().BitLen()))
		if bits > 1 && (bits-1)*n > int64(max) {
			return nil, budget.IntLimit()
		}
	}
	if err := ratCharge(budget, ratBits(base)*n); err != nil {
		return nil, err
	}
	num := new(big.Int).Exp(base.Num(), big.NewInt(n), nil)
	den := new(big.Int).Exp(base.Denom(), big.NewInt(n), nil)
	return checkRat(budget, new(big.Rat).SetFrac(num, den))
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

func (f *fraction) Unary(op syntax.Token) (starlark.Value, error) {
	switch op {
	case syntax.MINUS:
		return &fraction{r: new(big.Rat).Neg(f.r), b: f.b}, nil
	case syntax.PLUS:
		return f, nil
	}
	return nil, pyrt.Errorf("TypeError", "bad operand type for unary %s: 'Fraction'", op)
}

// Abs is abs(f).
func (f *fraction) Abs() (starlark.Value, error) {
	return &fraction{r: new(big.Rat).Abs(f.r), b: f.b}, nil
}

// ---- Conversions ----

// PyInt is int(f), truncated toward zero.
func (f *fraction) PyInt(*interp.Budget) (starlark.Value, error) {
	return starlark.MakeBigInt(new(big.Int).Quo(f.r.Num(), f.r.Denom())), nil
}

// PyFloat is float(f), correctly rounded.
func (f *fraction) PyFloat() (starlark.Value, error) {
	x, _ := f.r.Float64()
	if math.IsInf(x, 0) {
		return nil, pyrt.Errorf("OverflowError", "integer division result too large for a float")
	}
	return starlark.Float(x), nil
}

// PyRound is round(f) (an int, ties to even) or round(f, n) (a Fraction).
func (f *fraction) PyRound(b *interp.Budget, ndigits starlark.Value) (starlark.Value, error) {
	if ndigits == nil {
		return starlark.MakeBigInt(ratRoundHalfEven(f.r)), nil
	}
	n, ok := ndigits.(starlark.Int)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(ndigits))
	}
	k, small := n.Int64()
	if max := int64(b.MaxIntDigits()); !small || max > 0 && abs64(k) > max {
		return nil, b.IntLimit()
	}
	p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(abs64(k)), nil))
	q := new(big.Rat).Set(f.r)
	if k >= 0 {
		q.Mul(q, p)
	} else {
		q.Quo(q, p)
	}
	r := new(big.Rat).SetInt(ratRoundHalfEven(q))
	if k >= 0 {
		r.Quo(r, p)
	} else {
		r.Mul(r, p)
	}
	return checkRat(b, r)
}

// integralRounder is a module's number that math.floor, math.ceil and
// math.trunc round exactly (mode is the function's name).
type integralRounder interface {
	roundTo(b *interp.Budget, mode string) (starlark.Value, error)
}

// roundTo is math.floor, math.ceil and math.trunc of f.
func (f *fraction) roundTo(_ *interp.Budget, mode string) (starlark.Value, error) {
	q := floorRat(f.r)
	switch mode {
	case "ceil":
		if !f.r.IsInt() {
			q.Add(q, big.NewInt(1))
		}
	case "trunc":
		q = new(big.Int).Quo(f.r.Num(), f.r.Denom())
	}
	return starlark.MakeBigInt(q), nil
}

// ---- Comparison ----

func (f *fraction) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	return interp.CompareOp(op, f.r.Cmp(y.(*fraction).r), f, y)
}

// CompareNumber compares f with an int or a float exactly (a NaN is
// unequal and unordered, an infinity beyond every fraction); a Decimal
// answers for itself.
func (f *fraction) CompareNumber(op syntax.Token, y starlark.Value) (bool, bool, error) {
	if d, ok := y.(*decimalValue); ok {
		rev := map[syntax.Token]syntax.Token{syntax.LT: syntax.GT, syntax.GT: syntax.LT, syntax.LE: syntax.GE, syntax.GE: syntax.LE}
		if r, ok := rev[op]; ok {
			op = r
		}
		return d.CompareNumber(op, f)
	}
	if fl, ok := y.(starlark.Float); ok {
		x := float64(fl)
		switch {
		case math.IsNaN(x):
			return op == syntax.NEQ, true, nil
		case math.IsInf(x, 0):
			c := -1
			if x < 0 {
				c = 1
			}
			r, err := interp.CompareOp(op, c, f, y)
			return r, true, err
		}
		r, err := interp.CompareOp(op, f.r.Cmp(new(big.Rat).SetFloat64(x)), f, y)
		return r, true, err
	}
	o, ok := rational(y)
	if !ok {
		return false, false, nil
	}
	r, err := interp.CompareOp(op, f.r.Cmp(o), f, y)
	return r, true, err
}

// ---- Attributes ----

func (f *fraction) AttrNames() []string {
	return []string{"as_integer_ratio", "conjugate", "denominator", "from_decimal", "from_float", "imag", "limit_denominator", "numerator", "real"}
}

func (f *fraction) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__class__":
		return nil, nil // x.__class__ is type(x), which the front end answers
	case "numerator":
		return starlark.MakeBigInt(f.r.Num()), nil
	case "denominator":
		return starlark.MakeBigInt(f.r.Denom()), nil
	case "real":
		return f, nil
	case "imag":
		return starlark.MakeInt(0), nil
	case "from_float", "from_decimal":
		return fractionClass.attrs[name], nil
	case "as_integer_ratio", "conjugate":
		return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := noArgs(name, args, kwargs); err != nil {
				return nil, err
			}
			if name == "conjugate" {
				return f, nil
			}
			return starlark.Tuple{starlark.MakeBigInt(f.r.Num()), starlark.MakeBigInt(f.r.Denom())}, nil
		}), nil
	case "limit_denominator":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			vals, err := bindArgs(name, args, kwargs, []string{"max_denominator"}, 0)
			if err != nil {
				return nil, err
			}
			max := big.NewInt(1000000)
			if vals[0] != nil {
				m, ok := vals[0].(starlark.Int)
				if !ok {
					return nil, pyrt.Errorf("TypeError", "'<' not supported between instances of '%s' and 'int'", pyrt.TypeName(vals[0]))
				}
				max = m.BigInt()
			}
			return limitDenominator(interp.BudgetOf(thread), f.r, max)
		}), nil
	}
	return nil, numNoAttr("Fraction", name)
}

// limitDenominator is the closest fraction to r with a denominator of at
// most max: the better of the last two convergents of r's continued
// fraction (the nearer to r, the later one on a tie).
func limitDenominator(b *interp.Budget, r *big.Rat, max *big.Int) (starlark.Value, error) {
	if max.Sign() < 1 {
		return nil, pyrt.Errorf("ValueError", "max_denominator should be at least 1")
	}
	if r.Denom().Cmp(max) <= 0 {
		return &fraction{r: r, b: b}, nil
	}
	p0, q0, p1, q1 := big.NewInt(0), big.NewInt(1), big.NewInt(1), big.NewInt(0)
	n, d := new(big.Int).Set(r.Num()), new(big.Int).Set(r.Denom())
	for {
		if err := b.Charge(uint64(n.BitLen()+d.BitLen())/64 + 1); err != nil {
			return nil, err
		}
		a, m := new(big.Int).DivMod(n, d, new(big.Int))
		q2 := new(big.Int).Add(q0, new(big.Int).Mul(a, q1))
		if q2.Cmp(max) > 0 {
			break
		}
		p0, q0, p1, q1 = p1, q1, new(big.Int).Add(p0, new(big.Int).Mul(a, p1)), q2
		n, d = d, m
	}
	k := new(big.Int).Quo(new(big.Int).Sub(max, q0), q1)
	bound1 := new(big.Rat).SetFrac(new(big.Int).Add(p0, new(big.Int).Mul(k, p1)), new(big.Int).Add(q0, new(big.Int).Mul(k, q1)))
	bound2 := new(big.Rat).SetFrac(p1, q1)
	d1 := new(big.Rat).Abs(new(big.Rat).Sub(bound1, r))
	d2 := new(big.Rat).Abs(new(big.Rat).Sub(bound2, r))
	if d2.Cmp(d1) <= 0 {
		return &fraction{r: bound2, b: b}, nil
	}
	return &fraction{r: bound1, b: b}, nil
}
