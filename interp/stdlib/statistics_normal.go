package stdlib

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// normalDist is a statistics.NormalDist: a normal distribution of mean mu
// and standard deviation sigma, with the methods and arithmetic of
// CPython's.
type normalDist struct {
	mu, sigma float64
	s         *statsModule
}

var (
	_ starlark.HasAttrs   = (*normalDist)(nil)
	_ starlark.HasBinary  = (*normalDist)(nil)
	_ starlark.HasUnary   = (*normalDist)(nil)
	_ starlark.Comparable = (*normalDist)(nil)
)

func (d *normalDist) String() string {
	return "NormalDist(mu=" + interp.FloatRepr(d.mu) + ", sigma=" + interp.FloatRepr(d.sigma) + ")"
}
func (d *normalDist) Type() string         { return "NormalDist" }
func (d *normalDist) Freeze()              {}
func (d *normalDist) Truth() starlark.Bool { return true }
func (d *normalDist) Hash() (uint32, error) {
	return starlark.Tuple{starlark.Float(d.mu), starlark.Float(d.sigma)}.Hash()
}

func (d *normalDist) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	o := y.(*normalDist)
	eq := d.mu == o.mu && d.sigma == o.sigma
	switch op {
	case syntax.EQL:
		return eq, nil
	case syntax.NEQ:
		return !eq, nil
	}
	return false, pyrt.Errorf("TypeError", "'%s' not supported between instances of 'NormalDist' and 'NormalDist'", op)
}

func (s *statsModule) newNormal(mu, sigma float64) (*normalDist, error) {
	if sigma < 0 {
		return nil, s.fail("sigma must be non-negative")
	}
	return &normalDist{mu: mu, sigma: sigma, s: s}, nil
}

// normalDistClass is the class statistics.NormalDist: NormalDist(mu=0.0,
// sigma=1.0), NormalDist.from_samples(data).
type normalDistClass struct {
	*starlark.Builtin
	s *statsModule
}

var _ pyrt.Class = normalDistClass{}

func (c normalDistClass) String() string { return "<class 'statistics.NormalDist'>" }

// PyClass is type(d): statistics.NormalDist.
func (d *normalDist) PyClass() starlark.Value { return d.s.ndClass }
func (c normalDistClass) Type() string        { return "type" }
func (c normalDistClass) HasInstance(v starlark.Value) bool {
	_, ok := v.(*normalDist)
	return ok
}
func (c normalDistClass) AttrNames() []string { return []string{"__name__", "from_samples"} }
func (c normalDistClass) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__name__":
		return starlark.String("NormalDist"), nil
	case "from_samples":
		return interp.NewBuiltin("from_samples", c.s.normalFromSamples), nil
	}
	return nil, nil
}

func (s *statsModule) normalDistClass() normalDistClass {
	return normalDistClass{Builtin: interp.NewBuiltin("NormalDist", s.newNormalDist), s: s}
}

func (s *statsModule) newNormalDist(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var mu, sigma starlark.Value = starlark.Float(0), starlark.Float(1)
	if err := unpack("NormalDist", args, kwargs, "mu?", &mu, "sigma?", &sigma); err != nil {
		return nil, err
	}
	// As CPython 3.11: sigma < 0.0 first (a str sigma is that
	// comparison's TypeError), then float(mu) and float(sigma), so
	// NormalDist("100", 15) works.
	if neg, err := pyrt.Compare(thread, syntax.LT, sigma, starlark.Float(0)); err != nil {
		return nil, err
	} else if neg {
		return nil, s.fail("sigma must be non-negative")
	}
	m, err := pyrt.ToFloat(thread, mu)
	if err != nil {
		return nil, err
	}
	sg, err := pyrt.ToFloat(thread, sigma)
	if err != nil {
		return nil, err
	}
	return s.newNormal(m, sg)
}

// normalFromSamples is NormalDist.from_samples(data): the mean and the
// sample standard deviation of data, computed exactly as mean() and
// stdev() do.
func (s *statsModule) normalFromSamples(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := nArgs("from_samples", args, kwargs, 1); err != nil {
		return nil, err
	}
	data, err := pyrt.Collect(thread, args[0])
	if err != nil {
		return nil, err
	}
	if len(data) < 2 {
		return nil, s.fail("stdev requires at least two data points")
	}
	if _, special, has := splitSpecial(data); has {
		// An infinity or NaN: CPython's mean is the sum of those, its
		// standard deviation that over itself (NaN).
		return s.newNormal(special, math.NaN())
	}
	list := starlark.NewList(data)
	mean, err := s.mean(thread, b, starlark.Tuple{list}, nil)
	if err != nil {
		return nil, err
	}
	sd, err := s.variance("stdev", true, true)(thread, b, starlark.Tuple{list}, nil)
	if err != nil {
		return nil, err
	}
	mu, err := toFloat(mean)
	if err != nil {
		return nil, err
	}
	sigma, err := toFloat(sd)
	if err != nil {
		return nil, err
	}
	return s.newNormal(mu, sigma)
}

func (d *normalDist) AttrNames() []string {
	return []string{"cdf", "inv_cdf", "mean", "median", "mode", "overlap", "pdf", "quantiles", "samples", "stdev", "variance", "zscore"}
}

func (d *normalDist) Attr(name string) (starlark.Value, error) {
	switch name {
	case "mean", "median", "mode":
		return starlark.Float(d.mu), nil
	case "stdev":
		return starlark.Float(d.sigma), nil
	case "variance":
		return starlark.Float(d.sigma * d.sigma), nil
	}
	oneFloatMethod := func(fn func(x float64) (float64, error)) (starlark.Value, error) {
		return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := nArgs("NormalDist."+name, args, kwargs, 1); err != nil {
				return nil, err
			}
			x, err := toFloat(args[0])
			if err != nil {
				return nil, err
			}
			r, err := fn(x)
			if err != nil {
				return nil, err
			}
			return starlark.Float(r), nil
		}), nil
	}
	switch name {
	case "pdf":
		return oneFloatMethod(d.pdf)
	case "cdf":
		return oneFloatMethod(d.cdf)
	case "inv_cdf":
		return oneFloatMethod(d.invCDF)
	case "zscore":
		return oneFloatMethod(func(x float64) (float64, error) {
			if d.sigma == 0 {
				return 0, d.s.fail("zscore() not defined when sigma is zero")
			}
			return (x - d.mu) / d.sigma, nil
		})
	case "quantiles":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			n := 4
			if err := unpack("quantiles", args, kwargs, "n?", &n); err != nil {
				return nil, err
			}
			if n < 1 {
				return starlark.NewList(nil), nil
			}
			if err := interp.BudgetOf(thread).Alloc(int64(n) * 16); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, 0, n-1)
			for i := 1; i < n; i++ {
				q, err := d.invCDF(float64(i) / float64(n))
				if err != nil {
					return nil, err
				}
				out = append(out, starlark.Float(q))
			}
			return starlark.NewList(out), nil
		}), nil
	case "overlap":
		return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := nArgs("NormalDist.overlap", args, kwargs, 1); err != nil {
				return nil, err
			}
			o, ok := args[0].(*normalDist)
			if !ok {
				return nil, pyrt.Errorf("TypeError", "Expected another NormalDist instance")
			}
			r, err := d.overlap(o)
			if err != nil {
				return nil, err
			}
			return starlark.Float(r), nil
		}), nil
	case "samples":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var n int
			var seed starlark.Value = starlark.None
			if len(args) > 1 {
				return nil, pyrt.Errorf("TypeError", "NormalDist.samples() takes 2 positional arguments but %d were given", len(args)+1)
			}
			if err := unpack("samples", args, kwargs, "n", &n, "seed?", &seed); err != nil {
				return nil, err
			}
			g := runGenerator(thread)
			if seed != starlark.None {
				g = &mt{gaussNext: starlark.None}
				if err := g.seed(seed); err != nil {
					return nil, err
				}
			}
			// The list and its floats, refused before they are made.
			b := interp.BudgetOf(thread)
			if err := b.Alloc(int64(max(n, 0)) * (slotSize + 8)); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, 0, max(n, 0))
			kw := []starlark.Tuple{{starlark.String("mu"), starlark.Float(d.mu)}, {starlark.String("sigma"), starlark.Float(d.sigma)}}
			for i := 0; i < n; i++ {
				if err := b.Charge(1); err != nil {
					return nil, err
				}
				v, err := randGauss(thread, "gauss", g, nil, kw)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			return starlark.NewList(out), nil
		}), nil
	}
	return nil, nil
}

func (d *normalDist) pdf(x float64) (float64, error) {
	v := d.sigma * d.sigma
	if v == 0 {
		return 0, d.s.fail("pdf() not defined when sigma is zero")
	}
	diff := x - d.mu
	return pyrt.Exp(diff*diff/(-2.0*v)) / math.Sqrt(2*math.Pi*v), nil
}

func (d *normalDist) cdf(x float64) (float64, error) {
	if d.sigma == 0 {
		return 0, d.s.fail("cdf() not defined when sigma is zero")
	}
	return 0.5 * (1.0 + erf((x-d.mu)/(d.sigma*math.Sqrt2))), nil
}

func (d *normalDist) invCDF(p float64) (float64, error) {
	if p <= 0 || p >= 1 || math.IsNaN(p) {
		return 0, d.s.fail("p must be in the range 0.0 < p < 1.0")
	}
	if d.sigma <= 0 {
		return 0, d.s.fail("cdf() not defined when sigma at or below zero")
	}
	return normalQuantile(p, d.mu, d.sigma), nil
}

// poly is c[0] + c[1]·r + c[2]·r² + … by Horner's rule, the highest
// coefficient first as the sum is built.
func poly(r float64, c ...float64) float64 {
	acc := c[len(c)-1]
	for i := len(c) - 2; i >= 0; i-- {
		acc = acc*r + c[i]
	}
	return acc
}

// normalQuantile is the p-quantile of the normal distribution (mu,
// sigma), by M. J. Wichura's algorithm AS 241 (PPND16, Applied
// Statistics 37, 1988), accurate to about 1e-16: rational
// approximations in three ranges of p.
func normalQuantile(p, mu, sigma float64) float64 {
	q := p - 0.5
	if math.Abs(q) <= 0.425 {
		r := 0.180625 - q*q
		num := poly(r, 3.3871328727963666080e+0, 1.3314166789178437745e+2, 1.9715909503065514427e+3,
			1.3731693765509461125e+4, 4.5921953931549871457e+4, 6.7265770927008700853e+4,
			3.3430575583588128105e+4, 2.5090809287301226727e+3) * q
		den := poly(r, 1.0, 4.2313330701600911252e+1, 6.8718700749205790830e+2, 5.3941960214247511077e+3,
			2.1213794301586595867e+4, 3.9307895800092710610e+4, 2.8729085735721942674e+4,
			5.2264952788528545610e+3)
		return mu + (num/den)*sigma
	}
	r := p
	if q > 0 {
		r = 1 - p
	}
	r = math.Sqrt(-pyrt.Log(r))
	var num, den float64
	if r <= 5 {
		r -= 1.6
		num = poly(r, 1.42343711074968357734e+0, 4.63033784615654529590e+0, 5.76949722146069140550e+0,
			3.64784832476320460504e+0, 1.27045825245236838258e+0, 2.41780725177450611770e-1,
			2.27238449892691845833e-2, 7.74545014278341407640e-4)
		den = poly(r, 1.0, 2.05319162663775882187e+0, 1.67638483018380384940e+0, 6.89767334985100004550e-1,
			1.48103976427480074590e-1, 1.51986665636164571966e-2, 5.47593808499534494600e-4,
			1.05075007164441684324e-9)
	} else {
		r -= 5
		num = poly(r, 6.65790464350110377720e+0, 5.46378491116411436990e+0, 1.78482653991729133580e+0,
			2.96560571828504891230e-1, 2.65321895265761230930e-2, 1.24266094738807843860e-3,
			2.71155556874348757815e-5, 2.01033439929228813265e-7)
		den = poly(r, 1.0, 5.99832206555887937690e-1, 1.36929880922735805310e-1, 1.48753612908506148525e-2,
			7.86869131145613259100e-4, 1.84631831751005468180e-5, 1.42151175831644588870e-7,
			2.04426310338993978564e-15)
	}
	x := num / den
	if q < 0 {
		x = -x
	}
	return mu + x*sigma
}

// overlap is the area shared by the two densities: 1 minus the mass
// between the points where they cross, from the two cdfs.
func (d *normalDist) overlap(o *normalDist) (float64, error) {
	x, y := d, o
	if y.sigma < x.sigma || (y.sigma == x.sigma && y.mu < x.mu) {
		x, y = y, x // the same answer whichever way round
	}
	xv, yv := x.sigma*x.sigma, y.sigma*y.sigma
	if xv == 0 || yv == 0 {
		return 0, d.s.fail("overlap() not defined when sigma is zero")
	}
	dv := yv - xv
	dm := math.Abs(y.mu - x.mu)
	if dv == 0 {
		return 1.0 - erf(dm/(2.0*x.sigma*math.Sqrt2)), nil
	}
	a := x.mu*yv - y.mu*xv
	b := x.sigma * y.sigma * math.Sqrt(dm*dm+dv*pyrt.Log(yv/xv))
	x1, x2 := (a+b)/dv, (a-b)/dv
	cdfs := func(t float64) float64 {
		cy, _ := y.cdf(t)
		cx, _ := x.cdf(t)
		return math.Abs(cy - cx)
	}
	return 1.0 - (cdfs(x1) + cdfs(x2)), nil
}

// Binary is the arithmetic of CPython's NormalDist: with a number, a
// shift (+, -) or a scaling (*, /); with another NormalDist, the
// distribution of the sum or difference of independent variables.
func (d *normalDist) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if o, ok := y.(*normalDist); ok {
		x, z := d, o
		if side == starlark.Right {
			x, z = o, d
		}
		switch op {
		case syntax.PLUS:
			return d.s.newNormal(x.mu+z.mu, pyrt.Norm([]float64{x.sigma, z.sigma}))
		case syntax.MINUS:
			return d.s.newNormal(x.mu-z.mu, pyrt.Norm([]float64{x.sigma, z.sigma}))
		}
		return nil, nil
	}
	c, err := toFloat(y)
	if err != nil {
		return nil, nil
	}
	switch {
	case op == syntax.PLUS:
		return d.s.newNormal(d.mu+c, d.sigma)
	case op == syntax.MINUS && side == starlark.Left:
		return d.s.newNormal(d.mu-c, d.sigma)
	case op == syntax.MINUS: // c - d is -(d - c)
		return d.s.newNormal(-(d.mu - c), d.sigma)
	case op == syntax.STAR:
		return d.s.newNormal(d.mu*c, d.sigma*math.Abs(c))
	case op == syntax.SLASH && side == starlark.Left:
		if c == 0 {
			return nil, pyrt.Errorf("ZeroDivisionError", "float division by zero")
		}
		return d.s.newNormal(d.mu/c, d.sigma/math.Abs(c))
	}
	return nil, nil
}

func (d *normalDist) Unary(op syntax.Token) (starlark.Value, error) {
	switch op {
	case syntax.MINUS:
		return d.s.newNormal(-d.mu, d.sigma)
	case syntax.PLUS:
		return d.s.newNormal(d.mu, d.sigma)
	}
	return nil, nil
}

// medianGrouped is median_grouped(data, interval=1): the median of data
// taken as the midpoints of classes interval wide, interpolated within
// the class that holds the middle.
func (s *statsModule) medianGrouped(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Value
	var interval starlark.Value = starlark.MakeInt(1)
	if err := unpack("median_grouped", args, kwargs, "data", &it, "interval?", &interval); err != nil {
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
	x := data[n/2]
	b := interp.BudgetOf(thread)
	// The first and last places where x is, by bisection.
	var cmpErr error
	less := func(a, c starlark.Value) bool {
		lt, err := pyrt.Less(b, a, c)
		if err != nil && cmpErr == nil {
			cmpErr = err
		}
		return lt
	}
	l1 := sort.Search(n, func(i int) bool { return !less(data[i], x) })
	l2 := sort.Search(n, func(i int) bool { return less(x, data[i]) }) - 1
	if cmpErr != nil {
		return nil, cmpErr
	}
	// float() of each, as CPython: a str that reads as a number works.
	asFloat := func(v starlark.Value) (float64, error) {
		if t, ok := interp.AsText(v); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
			if err != nil {
				return 0, pyrt.Errorf("TypeError", "Value cannot be converted to a float")
			}
			return f, nil
		}
		return toFloat(v)
	}
	w, err := asFloat(interval)
	if err != nil {
		return nil, err
	}
	xf, err := asFloat(x)
	if err != nil {
		return nil, err
	}
	lower := xf - w/2
	cf, f := float64(l1), float64(l2-l1+1)
	return starlark.Float(lower + w*(float64(n)/2-cf)/f), nil
}
