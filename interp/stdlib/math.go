package stdlib

import (
	"math"
	"math/big"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Math is the math module: Python's functions and constants, with
// CPython's results and errors ("math domain error", "math range
// error"), and the names of go.starlark.net's math module that Python's
// lacks (mod, round) so that Starlark programs keep working. Results
// that are integers (factorial, comb, perm, prod, lcm, floor, ceil) are
// refused before they are computed when they would have more digits
// than limits.max_int_digits.
func Math() *starlarkstruct.Module {
	m := starlark.StringDict{
		"pi":  starlark.Float(math.Pi),
		"e":   starlark.Float(math.E),
		"tau": starlark.Float(2 * math.Pi),
		"inf": starlark.Float(math.Inf(1)),
		"nan": starlark.Float(math.NaN()),
	}
	add := func(name string, fn interp.BuiltinFunc) {
		m[name] = interp.NewBuiltin(name, fn)
	}
	// One float in, one float out; a NaN from a number is a domain error,
	// an infinity from a finite number a range error where C's function
	// overflows and a domain error where it has a pole (atanh(1)).
	for name, f := range map[string]struct {
		fn       func(float64) float64
		overflow bool
	}{
		"sqrt": {math.Sqrt, false}, "exp": {pyrt.Exp, true}, "exp2": {exp2, true},
		"expm1": {expm1, true}, "log1p": {log1p, false}, "cbrt": {cbrt, false},
		"sin": {ddSin, false}, "cos": {ddCos, false}, "tan": {ddTan, false},
		"asin": {ddAsin, false}, "acos": {ddAcos, false}, "atan": {ddAtan, false},
		"sinh": {sinh, true}, "cosh": {cosh, true}, "tanh": {tanh, false},
		"asinh": {asinh, false}, "acosh": {acosh, false}, "atanh": {math.Atanh, false},
		"erf": {erf, false}, "erfc": {erfc, false}, "fabs": {math.Abs, false},
		"degrees": {func(x float64) float64 { return x * (180 / math.Pi) }, true},
		"radians": {func(x float64) float64 { return x * (math.Pi / 180) }, false},
		"gamma":   {gamma, true}, "lgamma": {lgamma, true},
		"ulp":   {ulp, false},
		"round": {math.Round, false}, // Starlark's math.round
	} {
		add(name, unaryMath(name, f.fn, f.overflow))
	}
	for name, fn := range map[string]func(x, y float64) (float64, error){
		"copysign":  func(x, y float64) (float64, error) { return math.Copysign(x, y), nil },
		"nextafter": nextafter,
		"atan2":     func(x, y float64) (float64, error) { return ddAtan2(x, y), nil },
		"pow":       mathPow,
		"fmod":      fmod,
		"mod":       fmod, // Starlark's math.mod
		"remainder": remainder,
	} {
		add(name, binaryMath(name, fn))
	}
	add("floor", roundingMath("floor", math.Floor))
	add("ceil", roundingMath("ceil", math.Ceil))
	add("trunc", roundingMath("trunc", math.Trunc))
	add("isfinite", predicateMath("isfinite", func(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }))
	add("isinf", predicateMath("isinf", func(x float64) bool { return math.IsInf(x, 0) }))
	add("isnan", predicateMath("isnan", math.IsNaN))
	add("log", mathLog)
	add("log2", logMath("log2", pyrt.Log2))
	add("log10", logMath("log10", log10))
	add("isclose", mathIsclose)
	add("hypot", mathHypot)
	add("dist", mathDist)
	add("fsum", mathFsum)
	add("prod", mathProd)
	add("gcd", mathGcd)
	add("lcm", mathLcm)
	add("isqrt", mathIsqrt)
	add("factorial", mathFactorial)
	add("comb", mathComb)
	add("perm", mathPerm)
	add("modf", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		x, err := oneFloat("modf", args, kwargs)
		if err != nil {
			return nil, err
		}
		if math.IsInf(x, 0) {
			return starlark.Tuple{starlark.Float(math.Copysign(0, x)), starlark.Float(x)}, nil
		}
		i, f := math.Modf(x)
		return starlark.Tuple{starlark.Float(f), starlark.Float(i)}, nil
	})
	add("frexp", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		x, err := oneFloat("frexp", args, kwargs)
		if err != nil {
			return nil, err
		}
		f, e := math.Frexp(x)
		return starlark.Tuple{starlark.Float(f), starlark.MakeInt(e)}, nil
	})
	add("ldexp", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := positional("ldexp", args, kwargs, 2, 2); err != nil {
			return nil, err
		}
		x, err := toFloat(args[0])
		if err != nil {
			return nil, err
		}
		n, err := toInt(args[1])
		if err != nil {
			return nil, pyrt.Errorf("TypeError", "Expected an int as second argument to ldexp.")
		}
		e, ok := n.Int64()
		switch {
		case !ok || e > 1<<20:
			e = 1 << 20
		case e < -(1 << 20):
			e = -(1 << 20)
		}
		r := math.Ldexp(x, int(e))
		if math.IsInf(r, 0) && !math.IsInf(x, 0) {
			return nil, pyrt.Errorf("OverflowError", "math range error")
		}
		return starlark.Float(r), nil
	})
	mod := &starlarkstruct.Module{Name: "math", Members: m}
	mod.Freeze()
	return mod
}

// nextafter is C's: y itself when x == y (nextafter(-0.0, 0.0) is 0.0).
func nextafter(x, y float64) (float64, error) {
	if x == y {
		return y, nil
	}
	return math.Nextafter(x, y), nil
}

// ulp is the value of the least significant bit of x: the gap from |x|
// to the next float away from zero (the largest float's is the gap below
// it).
func ulp(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return math.Abs(x)
	}
	x = math.Abs(x)
	if x == math.MaxFloat64 {
		return x - math.Nextafter(x, 0)
	}
	return math.Nextafter(x, math.Inf(1)) - x
}

// exp2 is 2**x as C's exp2 gives it, rounded once.
func exp2(x float64) float64 { return pyrt.FloatPow(2, x) }

// positional checks a call has between min and max positional arguments
// and no keywords, with CPython's texts.
func positional(name string, args starlark.Tuple, kwargs []starlark.Tuple, min, max int) error {
	if len(kwargs) > 0 {
		return pyrt.Errorf("TypeError", "math.%s() takes no keyword arguments", name)
	}
	switch {
	case min == max && len(args) != min:
		if min == 1 {
			return pyrt.Errorf("TypeError", "math.%s() takes exactly one argument (%d given)", name, len(args))
		}
		return pyrt.Errorf("TypeError", "%s expected %d arguments, got %d", name, min, len(args))
	case len(args) < min:
		return pyrt.Errorf("TypeError", "%s expected at least %d arguments, got %d", name, min, len(args))
	case len(args) > max:
		return pyrt.Errorf("TypeError", "%s expected at most %d arguments, got %d", name, max, len(args))
	}
	return nil
}

// toFloat reads a real number: a float, an int (too large for a float is
// an OverflowError) or a bool.
func toFloat(v starlark.Value) (float64, error) {
	switch x := v.(type) {
	case starlark.Float:
		return float64(x), nil
	case starlark.Int:
		f := x.Float()
		if math.IsInf(float64(f), 0) {
			return 0, pyrt.Errorf("OverflowError", "int too large to convert to float")
		}
		return float64(f), nil
	case starlark.Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case pyrt.Number: // decimal.Decimal, fractions.Fraction
		f, err := x.PyFloat()
		if err != nil {
			return 0, err
		}
		return toFloat(f)
	}
	return 0, pyrt.Errorf("TypeError", "must be real number, not %s", typeName(v))
}

// toInt reads an integer argument: an int or a bool.
func toInt(v starlark.Value) (starlark.Int, error) {
	switch x := v.(type) {
	case starlark.Int:
		return x, nil
	case starlark.Bool:
		if x {
			return starlark.MakeInt(1), nil
		}
		return starlark.MakeInt(0), nil
	}
	return starlark.Int{}, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", typeName(v))
}

// typeName is Python's name for the type of v.
func typeName(v starlark.Value) string {
	switch v.(type) {
	case starlark.String, *interp.Unicode:
		return "str"
	case starlark.NoneType:
		return "NoneType"
	}
	return v.Type()
}

func oneFloat(name string, args starlark.Tuple, kwargs []starlark.Tuple) (float64, error) {
	if err := positional(name, args, kwargs, 1, 1); err != nil {
		return 0, err
	}
	return toFloat(args[0])
}

func domainError() error { return pyrt.Errorf("ValueError", "math domain error") }
func rangeError() error  { return pyrt.Errorf("OverflowError", "math range error") }

func unaryMath(name string, fn func(float64) float64, overflow bool) interp.BuiltinFunc {
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		x, err := oneFloat(name, args, kwargs)
		if err != nil {
			return nil, err
		}
		r := fn(x)
		switch {
		case math.IsNaN(r) && !math.IsNaN(x):
			return nil, domainError()
		case math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsNaN(x):
			if overflow {
				return nil, rangeError()
			}
			return nil, domainError()
		}
		return starlark.Float(r), nil
	}
}

func binaryMath(name string, fn func(x, y float64) (float64, error)) interp.BuiltinFunc {
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := positional(name, args, kwargs, 2, 2); err != nil {
			return nil, err
		}
		x, err := toFloat(args[0])
		if err != nil {
			return nil, err
		}
		y, err := toFloat(args[1])
		if err != nil {
			return nil, err
		}
		r, err := fn(x, y)
		if err != nil {
			return nil, err
		}
		return starlark.Float(r), nil
	}
}

// mathPow is math.pow: always a float; 0 to a negative power and a
// negative base to a fractional power are domain errors.
func mathPow(x, y float64) (float64, error) {
	switch {
	case x == 0 && y < 0 && !math.IsInf(y, 0):
		return 0, domainError()
	case x < 0 && !math.IsInf(x, 0) && y != math.Trunc(y) && !math.IsInf(y, 0):
		return 0, domainError()
	}
	r := pyrt.FloatPow(x, y)
	if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return 0, rangeError()
	}
	return r, nil
}

func fmod(x, y float64) (float64, error) {
	if y == 0 && !math.IsNaN(x) || math.IsInf(x, 0) && !math.IsNaN(y) {
		return 0, domainError()
	}
	if math.IsInf(y, 0) && !math.IsInf(x, 0) {
		return x, nil
	}
	return math.Mod(x, y), nil
}

func remainder(x, y float64) (float64, error) {
	if y == 0 && !math.IsNaN(x) || math.IsInf(x, 0) && !math.IsNaN(y) {
		return 0, domainError()
	}
	return math.Remainder(x, y), nil
}

// roundingMath is floor, ceil and trunc: an int, of any size the run
// allows.
func roundingMath(name string, fn func(float64) float64) interp.BuiltinFunc {
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := positional(name, args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		if n, err := toInt(args[0]); err == nil {
			return n, nil
		}
		if r, ok := args[0].(integralRounder); ok { // Decimal, Fraction: exactly
			return r.roundTo(interp.BudgetOf(thread), name)
		}
		x, err := toFloat(args[0])
		if err != nil {
			if name == "trunc" { // CPython's trunc looks for __trunc__ alone
				return nil, pyrt.Errorf("TypeError", "type %s doesn't define __trunc__ method", pyrt.TypeName(args[0]))
			}
			return nil, err
		}
		switch {
		case math.IsInf(x, 0):
			return nil, pyrt.Errorf("OverflowError", "cannot convert float infinity to integer")
		case math.IsNaN(x):
			return nil, pyrt.Errorf("ValueError", "cannot convert float NaN to integer")
		}
		r := fn(x)
		b := interp.BudgetOf(thread)
		if _, e := math.Frexp(r); b.IntBits() > 0 && e > b.IntBits() {
			return nil, b.IntLimit()
		}
		i, _ := big.NewFloat(r).Int(nil)
		return starlark.MakeBigInt(i), nil
	}
}

func predicateMath(name string, fn func(float64) bool) interp.BuiltinFunc {
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		x, err := oneFloat(name, args, kwargs)
		if err != nil {
			return nil, err
		}
		return starlark.Bool(fn(x)), nil
	}
}

// logOf is log(x) of a number in the given logarithm (log2 of the
// int's bits times perBit for an int too large for a float).
func logOf(v starlark.Value, fn func(float64) float64) (float64, error) {
	if n, ok := v.(starlark.Int); ok {
		bi := n.BigInt()
		if bi.Sign() <= 0 {
			return 0, domainError()
		}
		if math.IsInf(float64(n.Float()), 0) {
			// Too large for a float: n = m·2^e with m in [0.5, 1)
			// rounded to a float, and log(n) = log(m) + log(2)·e, as
			// CPython computes it.
			mant := new(big.Float)
			e := new(big.Float).SetInt(bi).MantExp(mant)
			m, _ := mant.Float64()
			if m == 1 {
				m, e = 0.5, e+1
			}
			return fn(m) + fn(2)*float64(e), nil
		}
	}
	x, err := toFloat(v)
	if err != nil {
		return 0, err
	}
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x, nil
	case x <= 0:
		return 0, domainError()
	}
	return fn(x), nil
}

func logMath(name string, fn func(float64) float64) interp.BuiltinFunc {
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := positional(name, args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		r, err := logOf(args[0], fn)
		if err != nil {
			return nil, err
		}
		return starlark.Float(r), nil
	}
}

// mathLog is log(x[, base]): log(x) / log(base), as CPython divides.
func mathLog(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "log() takes no keyword arguments")
	}
	if len(args) < 1 || len(args) > 2 {
		return nil, pyrt.Errorf("TypeError", "math.log requires 1 to 2 arguments")
	}
	x, err := logOf(args[0], pyrt.Log)
	if err != nil {
		return nil, err
	}
	if len(args) == 1 {
		return starlark.Float(x), nil
	}
	base, err := logOf(args[1], pyrt.Log)
	if err != nil {
		return nil, err
	}
	if base == 0 {
		return nil, pyrt.Errorf("ZeroDivisionError", "float division by zero")
	}
	return starlark.Float(x / base), nil
}

// mathIsclose is isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0).
func mathIsclose(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	switch {
	case len(args)+len(kwargs) > 4:
		return nil, pyrt.Errorf("TypeError", "isclose() takes at most 4 arguments (%d given)", len(args)+len(kwargs))
	case len(args) == 0:
		return nil, pyrt.Errorf("TypeError", "isclose() missing required argument 'a' (pos 1)")
	case len(args) == 1:
		return nil, pyrt.Errorf("TypeError", "isclose() missing required argument 'b' (pos 2)")
	case len(args) > 2:
		return nil, pyrt.Errorf("TypeError", "isclose() takes exactly 2 positional arguments (%d given)", len(args))
	}
	a, err := toFloat(args[0])
	if err != nil {
		return nil, err
	}
	b, err := toFloat(args[1])
	if err != nil {
		return nil, err
	}
	rel, abs := 1e-9, 0.0
	for _, kv := range kwargs {
		k, _ := starlark.AsString(kv[0])
		f, err := toFloat(kv[1])
		if err != nil {
			return nil, err
		}
		switch k {
		case "rel_tol":
			rel = f
		case "abs_tol":
			abs = f
		default:
			return nil, pyrt.Errorf("TypeError", "isclose() got an unexpected keyword argument '%s'", k)
		}
	}
	if rel < 0 || abs < 0 {
		return nil, pyrt.Errorf("ValueError", "tolerances must be non-negative")
	}
	if a == b {
		return starlark.True, nil
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return starlark.False, nil
	}
	diff := math.Abs(b - a)
	return starlark.Bool(diff <= math.Abs(rel*b) || diff <= math.Abs(rel*a) || diff <= abs), nil
}

// norm is the Euclidean norm of xs as CPython computes it: inf if any is
// infinite, else nan if any is nan.
func norm(xs []float64) float64 {
	nan := false
	for _, x := range xs {
		if math.IsInf(x, 0) {
			return math.Inf(1)
		}
		nan = nan || math.IsNaN(x)
	}
	if nan {
		return math.NaN()
	}
	return pyrt.Norm(xs)
}

func mathHypot(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "math.hypot() takes no keyword arguments")
	}
	if err := interp.BudgetOf(thread).Charge(uint64(len(args))); err != nil {
		return nil, err
	}
	xs := make([]float64, len(args))
	for i, a := range args {
		x, err := toFloat(a)
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	return starlark.Float(norm(xs)), nil
}

// mathDist is dist(p, q): the distance of two points of one dimension.
func mathDist(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := positional("dist", args, kwargs, 2, 2); err != nil {
		return nil, err
	}
	var pts [2][]float64
	for i, a := range args {
		seq, ok := a.(starlark.Indexable)
		if _, isList := a.(*starlark.List); !ok || !isList && a.Type() != "tuple" {
			return nil, pyrt.Errorf("TypeError", "dist(): argument %d must be tuple or list, not %s", i+1, typeName(a))
		}
		if err := interp.BudgetOf(thread).Charge(uint64(seq.Len())); err != nil {
			return nil, err
		}
		for j := 0; j < seq.Len(); j++ {
			x, err := toFloat(seq.Index(j))
			if err != nil {
				return nil, err
			}
			pts[i] = append(pts[i], x)
		}
	}
	if len(pts[0]) != len(pts[1]) {
		return nil, pyrt.Errorf("ValueError", "both points must have the same number of dimensions")
	}
	d := make([]float64, len(pts[0]))
	for i := range d {
		d[i] = math.Abs(pts[0][i] - pts[1][i])
	}
	return starlark.Float(norm(d)), nil
}

// mathFsum is fsum(iterable): the correctly rounded sum, by Shewchuk's
// exact partial sums as CPython keeps them.
func mathFsum(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := positional("fsum", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	var acc fsumAcc
	err := pyrt.ForEach(thread, args[0], func(v starlark.Value) (bool, error) {
		x, err := toFloat(v)
		if err == nil {
			err = acc.add(x)
		}
		return err != nil, err
	})
	if err != nil {
		return nil, err
	}
	f, err := acc.sum()
	if err != nil {
		return nil, err
	}
	return starlark.Float(f), nil
}

// fsumFloats is math.fsum of xs, with its errors.
func fsumFloats(xs []float64) (float64, error) {
	var acc fsumAcc
	for _, x := range xs {
		if err := acc.add(x); err != nil {
			return 0, err
		}
	}
	return acc.sum()
}

// fsumAcc is the state of fsum: the exact sum of the finite values as
// non-overlapping partials, and the infinities and NaNs summed apart
// (inf + -inf is an error, a NaN makes the sum a NaN).
type fsumAcc struct {
	partials     []float64
	special, inf float64
}

func (a *fsumAcc) add(x float64) error {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		if math.IsInf(x, 0) {
			a.inf += x
		}
		a.special += x
		return nil
	}
	i := 0
	for _, y := range a.partials {
		if math.Abs(x) < math.Abs(y) {
			x, y = y, x
		}
		hi := x + y
		lo := y - (hi - x)
		if lo != 0 {
			a.partials[i] = lo
			i++
		}
		x = hi
	}
	if math.IsInf(x, 0) {
		return pyrt.Errorf("OverflowError", "intermediate overflow in fsum")
	}
	a.partials = append(a.partials[:i], x)
	return nil
}

func (a *fsumAcc) sum() (float64, error) {
	if a.special != 0 || math.IsNaN(a.special) {
		if math.IsNaN(a.inf) {
			return 0, pyrt.Errorf("ValueError", "-inf + inf in fsum")
		}
		return a.special, nil
	}
	// Sum the partials from the top, rounding once (half-even fixed up
	// as CPython does).
	partials := a.partials
	hi := 0.0
	n := len(partials)
	if n > 0 {
		n--
		hi = partials[n]
		lo := 0.0
		for n > 0 {
			x := hi
			n--
			y := partials[n]
			hi = x + y
			yr := hi - x
			lo = y - yr
			if lo != 0 {
				break
			}
		}
		if n > 0 && (lo < 0 && partials[n-1] < 0 || lo > 0 && partials[n-1] > 0) {
			y := lo * 2
			x := hi + y
			if y == x-hi {
				hi = x
			}
		}
	}
	return hi, nil
}

// mathProd is prod(iterable, *, start=1): the product with Python's *,
// each step refused before it passes the run's budget.
func mathProd(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, pyrt.Errorf("TypeError", "prod() takes exactly 1 positional argument (%d given)", len(args))
	}
	var acc starlark.Value = starlark.MakeInt(1)
	for _, kv := range kwargs {
		if k, _ := starlark.AsString(kv[0]); k != "start" {
			return nil, pyrt.Errorf("TypeError", "prod() got an unexpected keyword argument '%s'", k)
		}
		acc = kv[1]
	}
	err := pyrt.ForEach(thread, args[0], func(v starlark.Value) (bool, error) {
		r, err := pyrt.Mul(thread, acc, v)
		acc = r
		return err != nil, err
	})
	if err != nil {
		return nil, err
	}
	return acc, nil
}

// ints reads the arguments of gcd and lcm.
func ints(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) ([]*big.Int, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "math.%s() takes no keyword arguments", name)
	}
	if err := interp.BudgetOf(thread).Charge(uint64(len(args))); err != nil {
		return nil, err
	}
	out := make([]*big.Int, len(args))
	for i, a := range args {
		n, err := toInt(a)
		if err != nil {
			return nil, err
		}
		out[i] = new(big.Int).Abs(n.BigInt())
	}
	return out, nil
}

func mathGcd(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	ns, err := ints(thread, "gcd", args, kwargs)
	if err != nil {
		return nil, err
	}
	g := new(big.Int)
	for _, n := range ns {
		g.GCD(nil, nil, g, n)
	}
	return starlark.MakeBigInt(g), nil
}

// mathLcm is lcm(*ints): each step's size is known before it is made
// (a / gcd(a, b) * b has at least the bits of its factors less one).
func mathLcm(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	ns, err := ints(thread, "lcm", args, kwargs)
	if err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	l := big.NewInt(1)
	for _, n := range ns {
		if n.Sign() == 0 {
			return starlark.MakeInt(0), nil
		}
		q := new(big.Int).Quo(l, new(big.Int).GCD(nil, nil, l, n))
		if max := b.IntBits(); max > 0 && q.BitLen()+n.BitLen()-1 > max {
			return nil, b.IntLimit()
		}
		l = q.Mul(q, n)
	}
	return checked(b, l)
}

func checked(b *interp.Budget, n *big.Int) (starlark.Value, error) {
	if err := b.CheckBits(n); err != nil {
		return nil, err
	}
	return starlark.MakeBigInt(n), nil
}

func mathIsqrt(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := positional("isqrt", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	n, err := toInt(args[0])
	if err != nil {
		return nil, err
	}
	if n.Sign() < 0 {
		return nil, pyrt.Errorf("ValueError", "isqrt() argument must be nonnegative")
	}
	return starlark.MakeBigInt(new(big.Int).Sqrt(n.BigInt())), nil
}

// lnFactorial is ln(n!) (ln Γ(n+1)), to bound a result's size.
func lnFactorial(n float64) float64 {
	r, _ := math.Lgamma(n + 1)
	return r
}

// refuseDigits ends the run when a result of about lnSize (its natural
// logarithm) would pass limits.max_int_digits; the estimate is a hair
// low so that a result at the bound is still made and checked exactly.
func refuseDigits(b *interp.Budget, lnSize float64) error {
	if max := b.IntBits(); max > 0 && lnSize/math.Ln2 > float64(max)+64 {
		return b.IntLimit()
	}
	return nil
}

// nonNegative reads an int argument that must not be negative.
func nonNegative(v starlark.Value, what string) (*big.Int, error) {
	n, err := toInt(v)
	if err != nil {
		return nil, err
	}
	if n.Sign() < 0 {
		return nil, pyrt.Errorf("ValueError", "%s", what)
	}
	return n.BigInt(), nil
}

func mathFactorial(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := positional("factorial", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	if _, ok := args[0].(starlark.Float); ok {
		return nil, pyrt.Errorf("TypeError", "'float' object cannot be interpreted as an integer")
	}
	n, err := nonNegative(args[0], "factorial() not defined for negative values")
	if err != nil {
		return nil, err
	}
	return fallingProduct(thread, n, n)
}

// fallingProduct is n·(n-1)·…·(n-k+1), refused before it is computed
// when it would pass limits.max_int_digits; each factor is charged.
func fallingProduct(thread *starlark.Thread, n, k *big.Int) (starlark.Value, error) {
	b := interp.BudgetOf(thread)
	// Each of the k factors is at least n-k+1: a bound from below that
	// holds for an n of any size (ln Γ is infinite past 10**305).
	low := new(big.Int).Sub(n, k)
	low.Add(low, big.NewInt(1))
	nf, _ := new(big.Float).SetInt(n).Float64()
	kf, _ := new(big.Float).SetInt(k).Float64()
	if low.Cmp(big.NewInt(1)) > 0 {
		if err := refuseDigits(b, kf*lnBig(low)); err != nil {
			return nil, err
		}
	}
	if est := lnFactorial(nf) - lnFactorial(nf-kf); !math.IsInf(est, 0) && !math.IsNaN(est) {
		if err := refuseDigits(b, est); err != nil {
			return nil, err
		}
	}
	if !k.IsInt64() {
		return nil, pyrt.Errorf("OverflowError", "%s() argument should not exceed %d", "factorial", int64(math.MaxInt64))
	}
	if err := b.Charge(uint64(k.Int64())); err != nil {
		return nil, err
	}
	if k.Sign() == 0 {
		return starlark.MakeInt(1), nil
	}
	if n.IsInt64() {
		return checked(b, new(big.Int).MulRange(n.Int64()-k.Int64()+1, n.Int64()))
	}
	// A huge n: few factors, or the result would have been refused.
	r, f := big.NewInt(1), new(big.Int).Set(n)
	for i := int64(0); i < k.Int64(); i++ {
		if err := checkBitsAhead(b, int64(r.BitLen()+f.BitLen())); err != nil {
			return nil, err
		}
		r.Mul(r, f)
		f.Sub(f, big.NewInt(1))
	}
	return checked(b, r)
}

// lnBig is ln(n) for n > 0, for an n of any size.
func lnBig(n *big.Int) float64 {
	if n.Sign() <= 0 {
		return math.Inf(-1)
	}
	e := n.BitLen() - 53
	if e <= 0 {
		f, _ := new(big.Float).SetInt(n).Float64()
		return math.Log(f)
	}
	m, _ := new(big.Float).SetInt(new(big.Int).Rsh(n, uint(e))).Float64()
	return math.Log(m) + float64(e)*math.Ln2
}

func mathPerm(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := positional("perm", args, kwargs, 1, 2); err != nil {
		return nil, err
	}
	n, err := nonNegative(args[0], "n must be a non-negative integer")
	if err != nil {
		return nil, err
	}
	k := n
	if len(args) == 2 && args[1] != starlark.None {
		if k, err = nonNegative(args[1], "k must be a non-negative integer"); err != nil {
			return nil, err
		}
	}
	if k.Cmp(n) > 0 {
		return starlark.MakeInt(0), nil
	}
	return fallingProduct(thread, n, k)
}

// mathComb is comb(n, k): n! / (k! (n-k)!), refused by its size first.
func mathComb(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := positional("comb", args, kwargs, 2, 2); err != nil {
		return nil, err
	}
	n, err := nonNegative(args[0], "n must be a non-negative integer")
	if err != nil {
		return nil, err
	}
	k, err := nonNegative(args[1], "k must be a non-negative integer")
	if err != nil {
		return nil, err
	}
	if k.Cmp(n) > 0 {
		return starlark.MakeInt(0), nil
	}
	if nk := new(big.Int).Sub(n, k); nk.Cmp(k) < 0 {
		k = nk
	}
	b := interp.BudgetOf(thread)
	// comb(n, k) >= (n/k)**k: a bound from below for an n of any size.
	nf, _ := new(big.Float).SetInt(n).Float64()
	kf, _ := new(big.Float).SetInt(k).Float64()
	if k.Sign() > 0 {
		if err := refuseDigits(b, kf*max(0, lnBig(n)-lnBig(k))); err != nil {
			return nil, err
		}
	}
	if est := lnFactorial(nf) - lnFactorial(kf) - lnFactorial(nf-kf); !math.IsInf(est, 0) && !math.IsNaN(est) {
		if err := refuseDigits(b, est); err != nil {
			return nil, err
		}
	}
	if !k.IsInt64() {
		return nil, pyrt.Errorf("OverflowError", "min(n - k, k) must not exceed %d", int64(math.MaxInt64))
	}
	if err := b.Charge(uint64(k.Int64())); err != nil {
		return nil, err
	}
	// r·(n-i)/(i+1) is exact at every step: a binomial coefficient.
	r := big.NewInt(1)
	t := new(big.Int)
	for i := int64(0); i < k.Int64(); i++ {
		t.Sub(n, big.NewInt(i))
		r.Mul(r, t)
		r.Quo(r, t.SetInt64(i+1))
	}
	return checked(b, r)
}
