package stdlib

import (
	"math"
	"math/big"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Statistics is the statistics module. As in CPython, sums are exact
// (fractions), so mean([1, 2, 4]) is the float nearest 7/3 and the mean
// or variance of ints is an int when it is whole.
func Statistics() *starlarkstruct.Module {
	s := &statsModule{errClass: pyrt.NewModuleClass("statistics.StatisticsError", "ValueError"), sorted: builtins()["sorted"]}
	m := starlark.StringDict{"StatisticsError": s.errClass}
	add := func(name string, fn interp.BuiltinFunc) { m[name] = interp.NewBuiltin(name, fn) }
	add("mean", s.mean)
	add("fmean", s.fmean)
	add("median", s.median("median"))
	add("median_low", s.median("median_low"))
	add("median_high", s.median("median_high"))
	add("mode", s.mode)
	add("multimode", s.multimode)
	add("variance", s.variance("variance", true, false))
	add("pvariance", s.variance("pvariance", false, false))
	add("stdev", s.variance("stdev", true, true))
	add("pstdev", s.variance("pstdev", false, true))
	add("quantiles", s.quantiles)
	add("geometric_mean", s.geometricMean)
	add("harmonic_mean", s.harmonicMean)
	add("covariance", s.pairwise("covariance"))
	add("correlation", s.pairwise("correlation"))
	add("linear_regression", s.pairwise("linear_regression"))
	add("median_grouped", s.medianGrouped)
	s.ndClass = s.normalDistClass()
	m["NormalDist"] = s.ndClass
	mod := &starlarkstruct.Module{Name: "statistics", Members: m}
	mod.Freeze()
	return mod
}

type statsModule struct {
	errClass *pyrt.ExcClass
	sorted   starlark.Value
	ndClass  normalDistClass // statistics.NormalDist, type(d) of its values
}

func (s *statsModule) fail(msg string) error {
	v, err := s.errClass.CallInternal(nil, starlark.Tuple{interp.MakeString(msg)}, nil)
	if err != nil {
		return err
	}
	return v.(*pyrt.ExcValue).Error()
}

// numKind is the type of a statistic's result, as CPython's _coerce
// finds it from the data's types: int, Fraction, Decimal or float.
type numKind uint8

const (
	kindInt numKind = iota
	kindFraction
	kindDecimal
	kindFloat
)

var kindNames = [...]string{"int", "Fraction", "Decimal", "float"}

// coerceKind is the type of a result of data of kinds a and b: int gives
// way to the other, Fraction to float; Decimal mixes with neither.
func coerceKind(a, b numKind) (numKind, error) {
	switch {
	case a == b || b == kindInt:
		return a, nil
	case a == kindInt:
		return b, nil
	case a == kindDecimal || b == kindDecimal:
		return 0, pyrt.Errorf("TypeError", "don't know how to coerce %s and %s", kindNames[a], kindNames[b])
	}
	return kindFloat, nil
}

// exact is the data as fractions, and the type of a result made of them.
func exact(thread *starlark.Thread, data []starlark.Value) ([]*big.Rat, numKind, error) {
	out := make([]*big.Rat, len(data))
	kind := kindInt
	b := interp.BudgetOf(thread)
	for i, x := range data {
		if err := b.Charge(1); err != nil {
			return nil, 0, err
		}
		r := new(big.Rat)
		k := kindInt
		switch v := x.(type) {
		case starlark.Bool:
			if v {
				r.SetInt64(1)
			}
		case starlark.Int:
			r.SetInt(v.BigInt())
		case starlark.Float:
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, 0, pyrt.Errorf("ValueError", "statistics of nan or inf are not supported")
			}
			r.SetFloat64(float64(v))
			k = kindFloat
		case *fraction:
			r.Set(v.r)
			k = kindFraction
		case *decimalValue:
			d, err := decimalRat(v)
			if err != nil {
				return nil, 0, err
			}
			r, k = d, kindDecimal
		default:
			return nil, 0, pyrt.Errorf("TypeError", "can't convert type '%s' to numerator/denominator", pyrt.TypeName(x))
		}
		var err error
		if kind, err = coerceKind(kind, k); err != nil {
			return nil, 0, err
		}
		out[i] = r
	}
	return out, kind, nil
}

// convert is CPython's _convert: r as the data's type (an int only when
// it is whole, a Decimal rounded by the run's context).
func convert(thread *starlark.Thread, r *big.Rat, kind numKind) (starlark.Value, error) {
	switch {
	case kind == kindInt && r.IsInt():
		return bigResult(interp.BudgetOf(thread), r.Num())
	case kind == kindFraction:
		return checkRat(interp.BudgetOf(thread), r)
	case kind == kindDecimal:
		run := runDecimal(thread)
		return run.divide(run.ctx, intDecimal(starlark.MakeBigInt(r.Num())), intDecimal(starlark.MakeBigInt(r.Denom())), syntax.SLASH)
	}
	f, _ := r.Float64()
	if math.IsInf(f, 0) {
		// float(Fraction) is numerator / denominator.
		return nil, pyrt.Errorf("OverflowError", "integer division result too large for a float")
	}
	return starlark.Float(f), nil
}

// sumRat is the exact sum of rs, each step charged and held to ratGrew.
func sumRat(b *interp.Budget, rs []*big.Rat) (*big.Rat, error) {
	t := new(big.Rat)
	for _, r := range rs {
		t.Add(t, r)
		if err := ratGrew(b, t); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// ratGrew charges the work of a step of exact arithmetic on r and
// refuses an r whose numerator and denominator together outgrow four
// times what an int of the run may hold: the data are held to the
// limit, but a sum of fractions of many primes has a denominator of all
// of them (a mean of a million such fractions is millions of digits,
// each step slower than the last).
func ratGrew(b *interp.Budget, r *big.Rat) error {
	bits := r.Num().BitLen() + r.Denom().BitLen()
	if err := b.Charge(uint64(bits)/64 + 1); err != nil {
		return err
	}
	if max := b.IntBits(); max > 0 && bits > 4*max {
		return b.IntLimit()
	}
	return nil
}

func (s *statsModule) data(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) ([]starlark.Value, error) {
	var data starlark.Value
	if err := unpack(name, args, kwargs, "data", &data); err != nil {
		return nil, err
	}
	return pyrt.Collect(thread, data)
}

func (s *statsModule) mean(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	data, err := s.data(thread, "mean", args, kwargs)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, s.fail("mean requires at least one data point")
	}
	finite, special, has := splitSpecial(data)
	rs, ints, err := exact(thread, finite)
	if err != nil {
		return nil, err
	}
	if has {
		// An infinity or NaN: CPython's sum is theirs, a float.
		return starlark.Float(special / float64(len(data))), nil
	}
	t, err := sumRat(interp.BudgetOf(thread), rs)
	if err != nil {
		return nil, err
	}
	return convert(thread, t.Quo(t, new(big.Rat).SetInt64(int64(len(rs)))), ints)
}

// splitSpecial parts the infinities and NaNs out of data: the rest, and
// their float sum (inf + -inf is nan), which is what CPython's exact
// sums give when there are any.
func splitSpecial(data []starlark.Value) (finite []starlark.Value, special float64, has bool) {
	for i, x := range data {
		if isSpecial(x) {
			if !has {
				finite = append(finite, data[:i]...)
			}
			special += float64(x.(starlark.Float))
			has = true
			continue
		}
		if has {
			finite = append(finite, x)
		}
	}
	if !has {
		finite = data
	}
	return finite, special, has
}

// isSpecial reports an infinite or NaN float.
func isSpecial(v starlark.Value) bool {
	f, ok := v.(starlark.Float)
	return ok && (math.IsInf(float64(f), 0) || math.IsNaN(float64(f)))
}

// toFloats is each value as a float, as math.fsum takes them.
func toFloats(thread *starlark.Thread, data []starlark.Value) ([]float64, error) {
	b := interp.BudgetOf(thread)
	if err := b.Alloc(int64(len(data)) * 8); err != nil {
		return nil, err
	}
	out := make([]float64, len(data))
	for i, x := range data {
		if err := b.Charge(1); err != nil {
			return nil, err
		}
		f, err := toFloat(x)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

// fmean(data, weights=None): the float mean, or with weights
// fsum(x * w) / fsum(weights), as CPython 3.11.
func (s *statsModule) fmean(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it, weights starlark.Value = nil, starlark.None
	if err := unpack("fmean", args, kwargs, "data", &it, "weights?", &weights); err != nil {
		return nil, err
	}
	data, err := pyrt.Collect(thread, it)
	if err != nil {
		return nil, err
	}
	if weights == starlark.None {
		if len(data) == 0 {
			return nil, s.fail("fmean requires at least one data point")
		}
		xs, err := toFloats(thread, data)
		if err != nil {
			return nil, err
		}
		sum, err := fsumFloats(xs)
		if err != nil {
			return nil, err
		}
		return starlark.Float(sum / float64(len(xs))), nil
	}
	ws, err := pyrt.Collect(thread, weights)
	if err != nil {
		return nil, err
	}
	// fsum(map(mul, data, weights)) / fsum(weights): each product is
	// Python's x * w, then each sum is fsum's.
	m := min(len(data), len(ws))
	products := make([]starlark.Value, m)
	for i := range products {
		if products[i], err = numBinary(syntax.STAR, data[i], ws[i]); err != nil {
			return nil, err
		}
	}
	pf, err := toFloats(thread, products)
	if err != nil {
		return nil, err
	}
	num, err := fsumFloats(pf)
	if err != nil {
		return nil, err
	}
	if len(ws) != len(data) {
		return nil, s.fail("data and weights must be the same length")
	}
	wf, err := toFloats(thread, ws)
	if err != nil {
		return nil, err
	}
	den, err := fsumFloats(wf)
	if err != nil {
		return nil, err
	}
	if den == 0 {
		return nil, s.fail("sum of weights must be non-zero")
	}
	return starlark.Float(num / den), nil
}

func (s *statsModule) sortedData(thread *starlark.Thread, v starlark.Value) ([]starlark.Value, error) {
	l, err := starlark.Call(thread, s.sorted, starlark.Tuple{v}, nil)
	if err != nil {
		return nil, err
	}
	return pyrt.Collect(thread, l)
}

func (s *statsModule) median(name string) interp.BuiltinFunc {
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var it starlark.Value
		if err := unpack(name, args, kwargs, "data", &it); err != nil {
			return nil, err
		}
		data, err := s.sortedData(thread, it)
		if err != nil {
			return nil, err
		}
		n := len(data)
		if n == 0 {
			return nil, s.fail("no median for empty data")
		}
		switch {
		case n%2 == 1:
			return data[n/2], nil
		case name == "median_low":
			return data[n/2-1], nil
		case name == "median_high":
			return data[n/2], nil
		}
		sum, err := starlark.Binary(syntax.PLUS, boolAsInt(data[n/2-1]), boolAsInt(data[n/2]))
		if err != nil {
			return nil, pyrt.Classify(err)
		}
		r, err := starlark.Binary(syntax.SLASH, sum, starlark.MakeInt(2))
		return r, pyrt.Classify(err)
	}
}

// counts is each distinct value with how often it occurs, in the order
// values first occur.
func counts(thread *starlark.Thread, data []starlark.Value) ([]starlark.Value, []int, error) {
	idx := starlark.NewDict(0)
	var keys []starlark.Value
	var ns []int
	b := interp.BudgetOf(thread)
	for _, x := range data {
		if err := b.Charge(1); err != nil {
			return nil, nil, err
		}
		v, found, err := idx.Get(x)
		if err != nil {
			return nil, nil, pyrt.Errorf("TypeError", "unhashable type: '%s'", pyrt.TypeName(x))
		}
		if found {
			i, _ := starlark.AsInt32(v)
			ns[i]++
			continue
		}
		_ = idx.SetKey(x, starlark.MakeInt(len(keys)))
		keys, ns = append(keys, x), append(ns, 1)
	}
	return keys, ns, nil
}

func (s *statsModule) mode(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	data, err := s.data(thread, "mode", args, kwargs)
	if err != nil {
		return nil, err
	}
	keys, ns, err := counts(thread, data)
	if err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		return nil, s.fail("no mode for empty data")
	}
	best := 0
	for i, n := range ns {
		if n > ns[best] {
			best = i
		}
	}
	return keys[best], nil
}

func (s *statsModule) multimode(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	data, err := s.data(thread, "multimode", args, kwargs)
	if err != nil {
		return nil, err
	}
	keys, ns, err := counts(thread, data)
	if err != nil {
		return nil, err
	}
	most := 0
	for _, n := range ns {
		most = max(most, n)
	}
	var out []starlark.Value
	for i, n := range ns {
		if n == most {
			out = append(out, keys[i])
		}
	}
	return starlark.NewList(out), nil
}

// variance, pvariance, stdev and pstdev: the exact sum of squared
// deviations over n-1 (sample) or n, its square root for the
// deviations.
func (s *statsModule) variance(name string, sample, root bool) interp.BuiltinFunc {
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var it starlark.Value
		var center starlark.Value = starlark.None
		param := "xbar?"
		if !sample {
			param = "mu?"
		}
		if err := unpack(name, args, kwargs, "data", &it, param, &center); err != nil {
			return nil, err
		}
		data, err := pyrt.Collect(thread, it)
		if err != nil {
			return nil, err
		}
		n := len(data)
		if sample && n < 2 {
			return nil, s.fail(name + " requires at least two data points")
		}
		if !sample && n < 1 {
			return nil, s.fail(name + " requires at least one data point")
		}
		// With an infinity or NaN in the data (or the center), CPython's
		// sum of squares is the float sum of the terms that are not
		// finite: the data's own without a center, else each (x - c)**2
		// that is not finite. Its square root fails in 3.11 (the float
		// has no numerator).
		finite, special, has := splitSpecial(data)
		if center != starlark.None && (has || isSpecial(center)) {
			c, err := toFloat(center)
			if err != nil {
				return nil, err
			}
			special, has = 0, true
			for _, x := range data {
				if !isSpecial(x) && !isSpecial(center) {
					continue // a finite term, lost in the sum
				}
				f, err := toFloat(x)
				if err != nil {
					return nil, err
				}
				special += (f - c) * (f - c)
			}
		}
		rs, ints, err := exact(thread, finite)
		if err != nil {
			return nil, err
		}
		if has {
			if root {
				return nil, pyrt.Errorf("AttributeError", "'float' object has no attribute 'numerator'")
			}
			div := float64(n)
			if sample {
				div--
			}
			return starlark.Float(special / div), nil
		}
		var c *big.Rat
		if center != starlark.None {
			cs, cints, err := exact(thread, []starlark.Value{center})
			if err != nil {
				return nil, err
			}
			c = cs[0]
			if ints, err = coerceKind(ints, cints); err != nil {
				return nil, err
			}
		} else {
			if c, err = sumRat(interp.BudgetOf(thread), rs); err != nil {
				return nil, err
			}
			c.Quo(c, new(big.Rat).SetInt64(int64(n)))
		}
		ss, d := new(big.Rat), new(big.Rat)
		for _, r := range rs {
			d.Sub(r, c)
			ss.Add(ss, d.Mul(d, d))
			if err := ratGrew(interp.BudgetOf(thread), ss); err != nil {
				return nil, err
			}
		}
		div := int64(n)
		if sample {
			div--
		}
		ss.Quo(ss, new(big.Rat).SetInt64(div))
		if !root {
			return convert(thread, ss, ints)
		}
		if ints == kindDecimal { // CPython's stdev of Decimals is a Decimal
			v, err := convert(thread, ss, ints)
			if err != nil {
				return nil, err
			}
			run := runDecimal(thread)
			return decimalMethods["sqrt"].fn(run, run.ctx, v.(*decimalValue), []starlark.Value{nil})
		}
		return starlark.Float(sqrtRat(ss)), nil
	}
}

// sqrtRat is the square root of r, from enough bits that rounding it to a
// float gives the nearest float.
func sqrtRat(r *big.Rat) float64 {
	x := new(big.Float).SetPrec(256).SetRat(r)
	f, _ := x.Sqrt(x).Float64()
	return f
}

func (s *statsModule) quantiles(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Value
	n := 4
	var method starlark.Value = starlark.String("exclusive")
	if len(args) > 1 {
		return nil, pyrt.Errorf("TypeError", "quantiles() takes 1 positional argument but %d were given", len(args))
	}
	if err := unpack("quantiles", args, kwargs, "data", &it, "n?", &n, "method?", &method); err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, s.fail("n must be at least 1")
	}
	data, err := s.sortedData(thread, it)
	if err != nil {
		return nil, err
	}
	ld := len(data)
	if ld < 2 {
		return nil, s.fail("must have at least two data points")
	}
	if err := interp.BudgetOf(thread).Alloc(int64(n) * 16); err != nil {
		return nil, err
	}
	meth, _ := interp.AsText(method)
	var m int
	switch meth {
	case "exclusive":
		m = ld + 1
	case "inclusive":
		m = ld - 1
	default:
		r, _ := interp.Repr(nil, method)
		return nil, pyrt.Errorf("ValueError", "Unknown method: %s", r)
	}
	ar := func(op syntax.Token, x, y starlark.Value) (starlark.Value, error) {
		v, err := starlark.Binary(op, boolAsInt(x), boolAsInt(y))
		return v, pyrt.Classify(err)
	}
	out := make([]starlark.Value, 0, n-1)
	for i := 1; i < n; i++ {
		j := i * m / n
		var lo, hi starlark.Value
		if meth == "exclusive" {
			j = min(max(j, 1), ld-1)
			lo, hi = data[j-1], data[j]
		} else {
			lo, hi = data[j], data[j+1]
		}
		delta := i*m - j*n
		a, err := ar(syntax.STAR, lo, starlark.MakeInt(n-delta))
		if err != nil {
			return nil, err
		}
		b, err := ar(syntax.STAR, hi, starlark.MakeInt(delta))
		if err != nil {
			return nil, err
		}
		if a, err = ar(syntax.PLUS, a, b); err != nil {
			return nil, err
		}
		if a, err = ar(syntax.SLASH, a, starlark.MakeInt(n)); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return starlark.NewList(out), nil
}

// geometricMean is geometric_mean(data): exp of the mean of the logs.
func (s *statsModule) geometricMean(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	data, err := s.data(thread, "geometric_mean", args, kwargs)
	if err != nil {
		return nil, err
	}
	xs, err := toFloats(thread, data)
	if err != nil {
		return nil, err
	}
	// exp(fmean(map(log, data))), whose ValueErrors (an empty dataset, a
	// number not positive) are the one StatisticsError. A NaN passes
	// through, an infinity gives inf.
	const msg = "geometric mean requires a non-empty dataset containing positive numbers"
	if len(xs) == 0 {
		return nil, s.fail(msg)
	}
	logs := make([]float64, len(xs))
	for i, x := range xs {
		if x <= 0 {
			return nil, s.fail(msg)
		}
		if math.IsInf(x, 1) || math.IsNaN(x) {
			logs[i] = x // log(inf) is inf, log(nan) nan
		} else {
			logs[i] = pyrt.Log(x)
		}
	}
	sum, err := fsumFloats(logs)
	if err != nil {
		return nil, err
	}
	m := sum / float64(len(logs))
	if math.IsInf(m, 1) || math.IsNaN(m) {
		return starlark.Float(m), nil
	}
	return starlark.Float(pyrt.Exp(m)), nil
}

// harmonicMean is harmonic_mean(data, weights=None): sum(weights) over
// the exact sum of weight / x, each quotient a float as Python's /
// makes it; 0 when some x is 0.
func (s *statsModule) harmonicMean(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it, weights starlark.Value = nil, starlark.None
	if err := unpack("harmonic_mean", args, kwargs, "data", &it, "weights?", &weights); err != nil {
		return nil, err
	}
	data, err := pyrt.Collect(thread, it)
	if err != nil {
		return nil, err
	}
	const negative = "harmonic mean does not support negative values"
	n := len(data)
	if n < 1 {
		return nil, s.fail("harmonic_mean requires at least one data point")
	}
	xs, err := toFloats(thread, data)
	if err != nil {
		return nil, err
	}
	if n == 1 && weights == starlark.None {
		if xs[0] < 0 {
			return nil, s.fail(negative)
		}
		return data[0], nil
	}
	ws := make([]float64, n)
	sumWeights := new(big.Rat).SetInt64(int64(n))
	weightsSpecial, sumWeightsF := false, 0.0 // an infinite or NaN weight: their sum
	if weights == starlark.None {
		for i := range ws {
			ws[i] = 1
		}
	} else {
		wv, err := pyrt.Collect(thread, weights)
		if err != nil {
			return nil, err
		}
		if len(wv) != n {
			return nil, s.fail("Number of weights does not match data size")
		}
		if ws, err = toFloats(thread, wv); err != nil {
			return nil, err
		}
		for _, w := range ws {
			if w < 0 {
				return nil, s.fail(negative)
			}
		}
		finite, sw, has := splitSpecial(wv)
		rs, _, err := exact(thread, finite)
		if err != nil {
			return nil, err
		}
		if sumWeights, err = sumRat(interp.BudgetOf(thread), rs); err != nil {
			return nil, err
		}
		if has {
			weightsSpecial, sumWeightsF = true, sw
		}
	}
	for _, x := range xs {
		if x < 0 {
			return nil, s.fail(negative)
		}
	}
	if v, ok, err := s.harmonicExact(thread, data, weights, sumWeights); ok || err != nil {
		return v, err
	}
	// The sum of w / x, exact for the finite quotients; an infinite or
	// NaN quotient (a NaN in the data, an infinite weight) makes it the
	// float sum of those, as CPython's exact sums do.
	total := new(big.Rat)
	special, hasSpecial := 0.0, false
	for i, x := range xs {
		if ws[i] == 0 {
			continue
		}
		if x == 0 {
			return starlark.MakeInt(0), nil
		}
		q := ws[i] / x
		if math.IsInf(q, 0) || math.IsNaN(q) {
			special, hasSpecial = special+q, true
			continue
		}
		total.Add(total, new(big.Rat).SetFloat64(q))
	}
	if hasSpecial || weightsSpecial {
		t := special
		if !hasSpecial {
			t, _ = total.Float64()
		}
		if t <= 0 {
			return nil, s.fail("Weighted sum must be positive")
		}
		if !weightsSpecial {
			sumWeightsF, _ = sumWeights.Float64()
		}
		return starlark.Float(sumWeightsF / t), nil
	}
	if total.Sign() <= 0 {
		return nil, s.fail("Weighted sum must be positive")
	}
	f, _ := new(big.Rat).Quo(sumWeights, total).Float64()
	return starlark.Float(f), nil
}

// harmonicExact is harmonic_mean of data that holds Fractions or
// Decimals, with int or Fraction weights (or none): CPython sums the
// quotients w / x as they come, a Fraction's exact, a Decimal's rounded
// by the context, an int over an int a float, and gives the result in
// their type (a Fraction of Fractions, a Decimal of Decimals, a float
// of Fractions and floats). ok is false for the data the float
// computation serves.
func (s *statsModule) harmonicExact(thread *starlark.Thread, data []starlark.Value, weights starlark.Value, sumWeights *big.Rat) (v starlark.Value, ok bool, err error) {
	ratOf := func(x starlark.Value) (*big.Rat, bool) {
		switch x := x.(type) {
		case starlark.Int:
			return new(big.Rat).SetInt(x.BigInt()), true
		case starlark.Bool:
			return new(big.Rat).SetInt64(int64(boolInt(bool(x)))), true
		case *fraction:
			return x.r, true
		}
		return nil, false
	}
	n := len(data)
	ws := make([]starlark.Value, n)
	for i := range ws {
		ws[i] = starlark.MakeInt(1)
	}
	if weights != starlark.None {
		if ws, err = pyrt.Collect(thread, weights); err != nil {
			return nil, false, err
		}
	}
	hasFrac, hasDec := false, false
	for i, x := range data {
		_, wFrac := ws[i].(*fraction)
		if _, isRat := ratOf(ws[i]); !isRat {
			return nil, false, nil
		}
		switch x.(type) {
		case *fraction:
			hasFrac = true
		case *decimalValue:
			if wFrac {
				return nil, false, nil
			}
			hasDec = true
		default:
			if _, isRat := ratOf(x); !isRat {
				return nil, false, nil
			}
		}
	}
	if !hasFrac && !hasDec {
		return nil, false, nil
	}
	hasFloat := false
	total := new(big.Rat)
	for i, x := range data {
		w, _ := ratOf(ws[i])
		if w.Sign() == 0 {
			continue
		}
		var q *big.Rat
		switch x := x.(type) {
		case *decimalValue:
			if x.d.IsZero() {
				return starlark.MakeInt(0), true, nil
			}
			run := runDecimal(thread)
			d, err := run.divide(run.ctx, intDecimal(starlark.MakeBigInt(w.Num())), &x.d, syntax.SLASH)
			if err != nil {
				return nil, true, err
			}
			if q, err = decimalRat(d); err != nil {
				return nil, true, err
			}
		default:
			r, _ := ratOf(x)
			if r.Sign() == 0 {
				return starlark.MakeInt(0), true, nil
			}
			q = new(big.Rat).Quo(w, r)
			_, xFrac := x.(*fraction)
			_, wFrac := ws[i].(*fraction)
			if !xFrac && !wFrac { // int / int
				f, _ := q.Float64()
				q.SetFloat64(f)
				hasFloat = true
			}
		}
		total.Add(total, q)
		if err := ratGrew(interp.BudgetOf(thread), total); err != nil {
			return nil, true, err
		}
	}
	if hasDec && hasFloat {
		return nil, false, nil // CPython cannot mix them: the float path's error
	}
	if total.Sign() <= 0 {
		return nil, true, s.fail("Weighted sum must be positive")
	}
	kind := kindFraction
	switch {
	case hasDec:
		kind = kindDecimal
	case hasFloat:
		kind = kindFloat
	}
	r, err := convert(thread, new(big.Rat).Quo(sumWeights, total), kind)
	return r, true, err
}

// rationalOf is an int, bool or Fraction as an exact rational.
func rationalOf(v starlark.Value) (*big.Rat, bool) {
	switch v := v.(type) {
	case starlark.Int:
		return new(big.Rat).SetInt(v.BigInt()), true
	case starlark.Bool:
		return new(big.Rat).SetInt64(int64(boolInt(bool(v)))), true
	case *fraction:
		return v.r, true
	}
	return nil, false
}

// linearRegressionType is the namedtuple class linear_regression returns.
var linearRegressionType = &ntType{name: "LinearRegression", fields: []string{"slope", "intercept"}}

// pairwise is covariance(x, y), correlation(x, y) and
// linear_regression(x, y, *, proportional=False), computed as CPython
// 3.11 does: float means by fsum, then fsums of the products.
func (s *statsModule) pairwise(name string) interp.BuiltinFunc {
	words := map[string]string{"covariance": "covariance", "correlation": "correlation", "linear_regression": "linear regression"}[name]
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		proportional := false
		var kw []starlark.Tuple
		for _, kv := range kwargs {
			if k, _ := starlark.AsString(kv[0]); k == "proportional" && name == "linear_regression" {
				proportional = bool(kv[1].Truth())
				continue
			}
			if name == "linear_regression" {
				k, _ := starlark.AsString(kv[0])
				return nil, pyrt.Errorf("TypeError", "linear_regression() got an unexpected keyword argument '%s'", k)
			}
			kw = append(kw, kv)
		}
		if err := nArgs(name, args, kw, 2); err != nil {
			return nil, err
		}
		xv, err := pyrt.Collect(thread, args[0])
		if err != nil {
			return nil, err
		}
		yv, err := pyrt.Collect(thread, args[1])
		if err != nil {
			return nil, err
		}
		n := len(xv)
		if len(yv) != n {
			return nil, s.fail(words + " requires that both inputs have same number of data points")
		}
		if n < 2 {
			return nil, s.fail(words + " requires at least two data points")
		}
		x, err := toFloats(thread, xv)
		if err != nil {
			return nil, err
		}
		y, err := toFloats(thread, yv)
		if err != nil {
			return nil, err
		}
		// fsum as math.fsum, its first error kept (-inf + inf in fsum
		// when an infinity meets its negative).
		var fsumErr error
		fsum := func(t []float64) float64 {
			v, err := fsumFloats(t)
			if err != nil && fsumErr == nil {
				fsumErr = err
			}
			return v
		}
		prod := func(a, b []float64) float64 {
			t := make([]float64, n)
			for i := range t {
				t[i] = a[i] * b[i]
			}
			return fsum(t)
		}
		// The products of proportional are Python's: two ints or
		// Fractions multiply exactly and round once (float(Fraction(1, 3)
		// * Fraction(1, 3)), not float(1/3) ** 2).
		exactProd := func(av, bv []starlark.Value, a, b []float64) float64 {
			t := make([]float64, n)
			for i := range t {
				ra, okA := rationalOf(av[i])
				rb, okB := rationalOf(bv[i])
				if okA && okB {
					t[i], _ = new(big.Rat).Mul(ra, rb).Float64()
				} else {
					t[i] = a[i] * b[i]
				}
			}
			return fsum(t)
		}
		if proportional {
			sxx := exactProd(xv, xv, x, x)
			if sxx == 0 {
				return nil, s.fail("x is constant")
			}
			sxy := exactProd(xv, yv, x, y)
			if fsumErr != nil {
				return nil, fsumErr
			}
			return &ntValue{typ: linearRegressionType, vals: starlark.Tuple{starlark.Float(sxy / sxx), starlark.Float(0)}}, nil
		}
		xbar, ybar := fsum(x)/float64(n), fsum(y)/float64(n)
		dx, dy := make([]float64, n), make([]float64, n)
		for i := range x {
			dx[i], dy[i] = x[i]-xbar, y[i]-ybar
		}
		sxy := prod(dx, dy)
		if fsumErr != nil {
			return nil, fsumErr
		}
		switch name {
		case "covariance":
			return starlark.Float(sxy / float64(n-1)), nil
		case "correlation":
			d := math.Sqrt(prod(dx, dx) * prod(dy, dy))
			if fsumErr != nil {
				return nil, fsumErr
			}
			if d == 0 {
				return nil, s.fail("at least one of the inputs is constant")
			}
			return starlark.Float(sxy / d), nil
		}
		sxx := prod(dx, dx)
		if fsumErr != nil {
			return nil, fsumErr
		}
		if sxx == 0 {
			return nil, s.fail("x is constant")
		}
		slope := sxy / sxx
		return &ntValue{typ: linearRegressionType, vals: starlark.Tuple{starlark.Float(slope), starlark.Float(ybar - slope*xbar)}}, nil
	}
}

// numBinary is x op y with bools taken as the ints they are in Python
// (True + True is 2; Starlark has no arithmetic on bools).
func numBinary(op syntax.Token, x, y starlark.Value) (starlark.Value, error) {
	v, err := starlark.Binary(op, boolAsInt(x), boolAsInt(y))
	return v, pyrt.Classify(err)
}

// numCompare is x op y with bools taken as ints (True > 0).
func numCompare(op syntax.Token, x, y starlark.Value) (bool, error) {
	return starlark.Compare(op, boolAsInt(x), boolAsInt(y))
}

// boolAsInt is a bool as the int it is in Python's arithmetic (True + True
// is 2); other values are returned as they are.
func boolAsInt(v starlark.Value) starlark.Value {
	if b, ok := v.(starlark.Bool); ok {
		if b {
			return starlark.MakeInt(1)
		}
		return starlark.MakeInt(0)
	}
	return v
}
