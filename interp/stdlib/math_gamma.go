package stdlib

import (
	"math"

	"github.com/onetool-dev/onetool/interp/pyrt"
)

// gamma and lgamma the way CPython computes them: not the C library's
// tgamma and lgamma but a Lanczos approximation of its own (N=13,
// g≈6.0247, Boost's parameters, as a rational function), and the
// reflection formula below zero. Go's math.Gamma and math.Lgamma follow
// other methods and differ from CPython's in the last digits (lgamma(10)
// 12.80182748008147 against CPython's 12.801827480081467); these repeat
// CPython's operations in its order, with exp, log, pow, sin and cos
// rounded as the C library rounds them (float64(a*b) keeps a product
// from being fused with the sum after it, which C does not do either).

// lanczosG is g, and lanczosGMinusHalf g - 0.5, both exact in binary.
const (
	lanczosG          = 6.024680040776729583740234375
	lanczosGMinusHalf = 5.524680040776729583740234375
	logPi             = 1.144729885849400174143427351353058711647
)

// The numerator's coefficients, lowest power first; the denominator is
// x(x+1)…(x+11) written out as a polynomial.
var (
	lanczosNum = [13]float64{
		23531376880.410759688572007674451636754734846804940,
		42919803642.649098768957899047001988850926355848959,
		35711959237.355668049440185451547166705960488635843,
		17921034426.037209699919755754458931112671403265390,
		6039542586.3520280050642916443072979210699388420708,
		1439720407.3117216736632230727949123939715485786772,
		248874557.86205415651146038641322942321632125127801,
		31426415.585400194380614231628318205362874684987640,
		2876370.6289353724412254090516208496135991145378768,
		186056.26539522349504029498971604569928220784236328,
		8071.6720023658162106380029022722506138218516325024,
		210.82427775157934587250973392071336271166969580291,
		2.5066282746310002701649081771338373386264310793408,
	}
	lanczosDen = [13]float64{0, 39916800, 120543840, 150917976, 105258076, 45995730,
		13339535, 2637558, 357423, 32670, 1925, 66, 1}
)

// lanczosSum is the rational function at x > 0: Horner's rule in x below
// 5, in 1/x from 5 up (no overflow, and closer for large x).
func lanczosSum(x float64) float64 {
	num, den := 0.0, 0.0
	if x < 5 {
		for i := len(lanczosNum) - 1; i >= 0; i-- {
			num = float64(num*x) + lanczosNum[i]
			den = float64(den*x) + lanczosDen[i]
		}
	} else {
		for i := range lanczosNum {
			num = num/x + lanczosNum[i]
			den = den/x + lanczosDen[i]
		}
	}
	return num / den
}

// sinPi is sin(πx) for a finite x, exact at the integers and halves.
func sinPi(x float64) float64 {
	y := math.Mod(math.Abs(x), 2)
	var r float64
	switch int(math.Round(2 * y)) {
	case 0:
		r = ddSin(math.Pi * y)
	case 1:
		r = ddCos(math.Pi * (y - 0.5))
	case 2:
		r = ddSin(math.Pi * (1 - y)) // not -sin(π(y-1)): that is -0.0 at y = 1
	case 3:
		r = -ddCos(math.Pi * (y - 1.5))
	default:
		r = ddSin(math.Pi * (y - 2))
	}
	return math.Copysign(1, x) * r
}

// gamma is Γ(x); NaN (a domain error) at the poles, 0 and the negative
// integers, and for -inf.
func gamma(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case math.IsInf(x, -1), x == 0:
		return math.NaN()
	}
	if x == math.Floor(x) {
		if x < 0 {
			return math.NaN()
		}
		if x <= 23 { // (x-1)! is exact in a float up to 22!
			f := 1.0
			for k := 2.0; k < x; k++ {
				f *= k
			}
			return f
		}
	}
	ax := math.Abs(x)
	if ax < 1e-20 {
		return 1 / x
	}
	if ax > 200 {
		if x < 0 {
			return 0 / sinPi(x)
		}
		return math.Inf(1)
	}
	y := ax + lanczosGMinusHalf
	// z is the rounding error of y, for the correction r·(1 + z·g/y).
	var z float64
	if ax > lanczosGMinusHalf {
		z = (y - ax) - lanczosGMinusHalf
	} else {
		z = (y - lanczosGMinusHalf) - ax
	}
	z = z * lanczosG / y
	var r float64
	if x < 0 {
		r = -math.Pi / sinPi(ax) / ax * pyrt.Exp(y) / lanczosSum(ax)
		r -= float64(z * r)
		if ax < 140 {
			r /= pyrt.FloatPow(y, ax-0.5)
		} else {
			sp := pyrt.FloatPow(y, ax/2-0.25)
			r /= sp
			r /= sp
		}
		return r
	}
	r = lanczosSum(ax) / pyrt.Exp(y)
	r += float64(z * r)
	if ax < 140 {
		r *= pyrt.FloatPow(y, ax-0.5)
	} else {
		sp := pyrt.FloatPow(y, ax/2-0.25)
		r *= sp
		r *= sp
	}
	return r
}

// lgamma is log|Γ(x)|; NaN (a domain error) at the poles.
func lgamma(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case math.IsInf(x, 0):
		return math.Inf(1)
	}
	if x == math.Floor(x) && x <= 2 {
		if x <= 0 {
			return math.NaN()
		}
		return 0
	}
	ax := math.Abs(x)
	if ax < 1e-20 {
		return -pyrt.Log(ax)
	}
	r := pyrt.Log(lanczosSum(ax)) - lanczosG
	r += float64((ax - 0.5) * (pyrt.Log(ax+lanczosG-0.5) - 1))
	if x < 0 {
		r = logPi - pyrt.Log(math.Abs(sinPi(ax))) - pyrt.Log(ax) - r
	}
	return r
}

// cbrt is the cube root as glibc computes it, which is not correctly
// rounded (cbrt(27) is 3.0000000000000004, as CPython prints it): a
// polynomial guess for the mantissa in [0.5, 1), one Halley step, and
// the exponent's third, its remainder by a factor 2^(±1/3 or ±2/3).
func cbrt(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x + x
	}
	xm, xe := math.Frexp(math.Abs(x))
	u := 0.354895765043919860 + float64((1.50819193781584896+
		float64((-2.11499494167371287+
			float64((2.44693122563534430+
				float64((-1.83469277483613086+
					float64((0.784932344976639262-float64(0.145263899385486377*xm))*xm))*xm))*xm))*xm))*xm)
	t2 := u * u * u
	ym := u * (t2 + float64(2*xm)) / (float64(2*t2) + xm) * cbrtFactor[2+xe%3]
	if x < 0 {
		ym = -ym
	}
	return math.Ldexp(ym, xe/3)
}

// cbrtFactor is 2^(k/3) for k in -2..2, the negative ones divided in
// float64 as C divides them (a Go constant's quotient is exact, then
// rounded once, and differs in the last bit).
var cbrtFactor = func() [5]float64 {
	c, c2 := 1.2599210498948731648, 1.5874010519681994748
	return [5]float64{1 / c2, 1 / c, 1, c, c2}
}()
