package stdlib

import (
	"math"

	"github.com/onetool-dev/onetool/interp/pyrt"
)

// log10, sinh, cosh, tanh and acosh as glibc computes them, which is not
// correctly rounded: each is put together from exp, log and expm1 in the
// classic way (the formulas below), so the results agree with CPython's to
// the last digit where Go's math package, which sums its own series, is
// an ulp off for one value in ten. exp and log are the correctly rounded
// ones of package python, as glibc's are; expm1 and log1p are glibc's
// (math_expm1.go).

const (
	// log10(2) split in two: a head whose low 13 bits are zero (so
	// k·log10Of2Hi is exact for any exponent k) and the rest.
	log10Of2Hi = 0x1.34413509f6p-2
	log10Of2Lo = 0x1.9fef311f12b36p-42
	invLn10    = 0x1.bcb7b1526e50ep-2 // 1/log(10)
)

// log10 of x > 0: x = 2**k · m, and log10(x) = k·log10(2) + log(m)/log(10),
// with m in [1, 2) (in [0.5, 1) for x < 1).
func log10(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 1) || x <= 0 {
		return math.Log10(x)
	}
	_, e := math.Frexp(x)
	k := e - 1
	if k < 0 {
		k++
	}
	y := float64(k)
	z := y*log10Of2Lo + invLn10*pyrt.Log(math.Ldexp(x, -k))
	return z + y*log10Of2Hi
}

// hiWord is the upper 32 bits of |x|: C's libm picks its formula by
// comparing them with constants, so thresholds fall where its do.
func hiWord(x float64) uint32 { return uint32(math.Float64bits(math.Abs(x)) >> 32) }

// overflowExpHalf is exp(|x|/2)/2 · exp(|x|/2), for sinh and cosh of |x|
// beyond log(MaxFloat64), where exp(|x|) alone overflows.
func overflowExpHalf(ax float64) float64 {
	w := pyrt.Exp(ax / 2)
	return (w / 2) * w
}

func sinh(x float64) float64 {
	ax, ix := math.Abs(x), hiWord(x)
	h := math.Copysign(0.5, x)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return x
	case ix < 0x3e300000: // 2**-28
		return x
	case ix < 0x3ff00000: // 1
		t := expm1(ax)
		return h * (2*t - t*t/(t+1))
	case ix < 0x40360000: // 22
		t := expm1(ax)
		return h * (t + t/(t+1))
	case ix < 0x40862e42: // log(MaxFloat64)
		return h * pyrt.Exp(ax)
	}
	return math.Copysign(overflowExpHalf(ax), x)
}

func cosh(x float64) float64 {
	ax, ix := math.Abs(x), hiWord(x)
	switch {
	case math.IsNaN(x):
		return x
	case math.IsInf(x, 0):
		return ax
	case ix < 0x3c800000: // 2**-55
		return 1
	case ix < 0x3fd62e43: // log(2)/2
		t := expm1(ax)
		w := 1 + t
		return 1 + (t*t)/(w+w)
	case ix < 0x40360000: // 22
		t := pyrt.Exp(ax)
		return 0.5*t + 0.5/t
	case ix < 0x40862e42: // log(MaxFloat64)
		return 0.5 * pyrt.Exp(ax)
	}
	return overflowExpHalf(ax)
}

func tanh(x float64) float64 {
	ax, ix := math.Abs(x), hiWord(x)
	var z float64
	switch {
	case math.IsNaN(x):
		return x
	case ix < 0x3c800000: // 2**-55
		return x * (1 + x)
	case ix < 0x3ff00000: // 1
		t := expm1(-2 * ax)
		z = -t / (t + 2)
	case ix < 0x40360000: // 22
		t := expm1(2 * ax)
		z = 1 - 2/(t+2)
	default:
		z = 1
	}
	return math.Copysign(z, x)
}

// asinh: log(|x|) + log(2) far out, log(2|x| + 1/(sqrt(x²+1) + |x|))
// beyond 2, log1p(|x| + x²/(1 + sqrt(1 + x²))) below; the sign of x.
func asinh(x float64) float64 {
	ax, ix := math.Abs(x), hiWord(x)
	var w float64
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0) || ix < 0x3e300000: // 2**-28
		return x
	case ix > 0x41b00000: // 2**28
		w = pyrt.Log(ax) + math.Ln2
	case ix > 0x40000000: // 2
		w = pyrt.Log(2*ax + 1/(math.Sqrt(ax*ax+1)+ax))
	default:
		t := ax * ax
		w = log1p(ax + t/(1+math.Sqrt(1+t)))
	}
	return math.Copysign(w, x)
}

// acosh of x >= 1: log(x) + log(2) far out, log(2x - 1/(sqrt(x²-1) + x))
// beyond 2, log1p(t + sqrt(2t + t²)) with t = x - 1 below.
func acosh(x float64) float64 {
	ix := hiWord(x)
	switch {
	case math.IsNaN(x) || x < 1:
		return math.Acosh(x)
	case math.IsInf(x, 1):
		return x
	case ix >= 0x41b00000: // 2**28
		return pyrt.Log(x) + math.Ln2
	case x == 1:
		return 0
	case ix > 0x40000000: // 2
		t := x * x
		return pyrt.Log(2*x - 1/(x+math.Sqrt(t-1)))
	}
	t := x - 1
	return log1p(t + math.Sqrt(2*t+t*t))
}
