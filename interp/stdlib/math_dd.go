package stdlib

import (
	"math"
	"math/big"
	"sync"

	"github.com/onetool-dev/onetool/internal/ddouble"
)

// The circular functions of the math module rounded once from
// double-double values (about 106 bits), so that they agree with the C
// library CPython calls: glibc's sin, cos, tan, asin, acos, atan and atan2
// are correctly rounded for all but about one value in a thousand, while
// Go's math package is an ulp off for one value in four or so
// (math.sin(-2.0) is -0.9092974268256817 in CPython, -0.9092974268256816
// from Go's math.Sin).

// dd is a double-double number (package ddouble).
type dd = ddouble.DD

// piDigits is pi to 100 decimal places, the source of the constants below.
const piDigits = "3.1415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679"

var (
	// halfPiParts is pi/2 as the sum of four floats (about 212 bits), to
	// reduce an argument by a multiple of pi/2 without losing its bits.
	halfPiParts [4]float64
	halfPi      dd // pi/2
	piDD        dd // pi
)

func init() {
	p, _, err := big.ParseFloat(piDigits, 10, 340, big.ToNearestEven)
	if err != nil {
		panic(err)
	}
	h := new(big.Float).SetPrec(340).Quo(p, big.NewFloat(2))
	rest := new(big.Float).SetPrec(340).Set(h)
	for i := range halfPiParts {
		f, _ := rest.Float64()
		halfPiParts[i] = f
		rest.Sub(rest, big.NewFloat(f))
	}
	halfPi = ddouble.QuickTwoSum(halfPiParts[0], halfPiParts[1])
	piDD = dd{Hi: 2 * halfPi.Hi, Lo: 2 * halfPi.Lo}
}

// bigPi is pi to enough bits to reduce any float by multiples of pi/2,
// made the first time an argument beyond 2**20 needs it.
var bigPi = sync.OnceValue(func() *big.Float {
	// pi = 16·atan(1/5) - 4·atan(1/239) (Machin), each by its series.
	const prec = 1400
	atanInv := func(n int64) *big.Float {
		sum := new(big.Float).SetPrec(prec)
		x := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), new(big.Float).SetInt64(n))
		n2 := new(big.Float).SetPrec(prec).SetInt64(n * n)
		eps := new(big.Float).SetMantExp(big.NewFloat(1), -prec-8)
		for k := int64(0); ; k++ {
			t := new(big.Float).SetPrec(prec).Quo(x, new(big.Float).SetInt64(2*k+1))
			if k%2 == 0 {
				sum.Add(sum, t)
			} else {
				sum.Sub(sum, t)
			}
			if t.Cmp(eps) < 0 {
				return sum
			}
			x.Quo(x, n2)
		}
	}
	a := atanInv(5)
	a.Mul(a, big.NewFloat(16))
	b := atanInv(239)
	b.Mul(b, big.NewFloat(4))
	return a.Sub(a, b)
})

// reduce returns r and k with x = k·pi/2 + r and |r| <= pi/4 (about), r
// to double-double precision.
func reduce(x dd) (dd, int) {
	if math.Abs(x.Hi) <= math.Pi/4 {
		return x, 0
	}
	if math.Abs(x.Hi) < 1<<20 {
		k := math.Round(x.Hi / halfPiParts[0])
		r := x
		for _, p := range halfPiParts {
			r = r.Sub(ddouble.TwoProd(k, p))
		}
		return r, int(int64(k) & 3)
	}
	// Far from zero: k·pi/2 in big floats, with as many bits as x has
	// bits before its point and 150 after.
	_, e := math.Frexp(x.Hi)
	prec := uint(e + 160)
	hp := new(big.Float).SetPrec(prec).Quo(bigPi(), big.NewFloat(2))
	bx := new(big.Float).SetPrec(prec).SetFloat64(x.Hi)
	bx.Add(bx, big.NewFloat(x.Lo))
	q := new(big.Float).SetPrec(prec).Quo(bx, hp)
	kInt, _ := q.Int(nil)
	// round to the nearest whole number
	frac := new(big.Float).SetPrec(prec).Sub(q, new(big.Float).SetInt(kInt))
	if frac.Cmp(big.NewFloat(0.5)) > 0 {
		kInt.Add(kInt, big.NewInt(1))
	} else if frac.Cmp(big.NewFloat(-0.5)) < 0 {
		kInt.Sub(kInt, big.NewInt(1))
	}
	rb := new(big.Float).SetPrec(prec).Mul(new(big.Float).SetPrec(prec).SetInt(kInt), hp)
	rb.Sub(bx, rb)
	hi, _ := rb.Float64()
	rb.Sub(rb, big.NewFloat(hi))
	lo, _ := rb.Float64()
	quad := new(big.Int).And(kInt, big.NewInt(3)).Int64()
	return ddouble.QuickTwoSum(hi, lo), int(quad)
}

// sinCosTable holds sin(j/64) and cos(j/64) for j = 0 … 51 to
// double-double precision, made the first time a sine or cosine is asked
// for: the kernel below reduces its argument to within 1/128 of one of
// them, where a few terms of each series suffice.
var sinCosTable = sync.OnceValue(func() *[52][2]dd {
	const prec = 200
	var t [52][2]dd
	toDD := func(f *big.Float) dd {
		hi, _ := f.Float64()
		rest := new(big.Float).SetPrec(prec).Sub(f, big.NewFloat(hi))
		lo, _ := rest.Float64()
		return ddouble.QuickTwoSum(hi, lo)
	}
	for j := range t {
		x := new(big.Float).SetPrec(prec).Quo(big.NewFloat(float64(j)), big.NewFloat(64))
		x2 := new(big.Float).SetPrec(prec).Mul(x, x)
		sin := new(big.Float).SetPrec(prec).Set(x)
		cos := new(big.Float).SetPrec(prec).SetInt64(1)
		st := new(big.Float).SetPrec(prec).Set(x)
		ct := new(big.Float).SetPrec(prec).SetInt64(1)
		for n := int64(1); n < 40; n++ {
			st.Mul(st, x2).Quo(st, big.NewFloat(float64(-(2*n)*(2*n+1))))
			ct.Mul(ct, x2).Quo(ct, big.NewFloat(float64(-(2*n-1)*(2*n))))
			sin.Add(sin, st)
			cos.Add(cos, ct)
		}
		t[j] = [2]dd{toDD(sin), toDD(cos)}
	}
	return &t
})

// Coefficients of the two series that need double-double precision.
var (
	inv6   = dd{Hi: 1, Lo: 0}.Div(dd{Hi: 6, Lo: 0})
	inv120 = dd{Hi: 1, Lo: 0}.Div(dd{Hi: 120, Lo: 0})
	inv24  = dd{Hi: 1, Lo: 0}.Div(dd{Hi: 24, Lo: 0})
)

// sinCosKernel returns sin(r) and cos(r) for |r| <= pi/4 (a little
// more): r = j/64 + t with |t| <= 1/128, the series of sin(t) and cos(t)
// (their first terms in double-double, the rest, below 2^-100 of the
// result, in floats), and the angle-sum formulas with the table.
func sinCosKernel(r dd) (dd, dd) {
	j := int(math.Round(r.Hi * 64))
	a := float64(j) / 64
	t := ddouble.QuickTwoSum(r.Hi-a, r.Lo) // r.Hi - a is exact
	t2 := t.Mul(t)
	x := t2.Hi
	// sin(t) = t - t³/6 + t⁵/120 - …
	fs := ((x/6227020800-1.0/39916800)*x+1.0/362880)*x - 1.0/5040
	ps := inv120.Add(dd{Hi: x * fs, Lo: 0})
	ps = t2.Mul(ps).Sub(inv6)
	sinT := t.Add(t.Mul(t2).Mul(ps))
	// cos(t) = 1 - t²/2 + t⁴/24 - …
	fc := ((x/479001600-1.0/3628800)*x+1.0/40320)*x - 1.0/720
	pc := inv24.Add(dd{Hi: x * fc, Lo: 0})
	pc = t2.Mul(pc).Sub(dd{Hi: 0.5, Lo: 0})
	cosT := dd{Hi: 1, Lo: 0}.Add(t2.Mul(pc))
	if j == 0 {
		return sinT, cosT
	}
	k := j
	if k < 0 {
		k = -k
	}
	e := sinCosTable()[k]
	sa, ca := e[0], e[1]
	if j < 0 {
		sa = sa.Neg()
	}
	return sa.Mul(cosT).Add(ca.Mul(sinT)), ca.Mul(cosT).Sub(sa.Mul(sinT))
}

// sinCosDD returns sin(x) and cos(x) for a finite x.
func sinCosDD(x dd) (dd, dd) {
	r, k := reduce(x)
	s, c := sinCosKernel(r)
	switch k {
	case 1:
		return c, s.Neg()
	case 2:
		return s.Neg(), c.Neg()
	case 3:
		return c.Neg(), s
	}
	return s, c
}

// sinCos returns sin(x) and cos(x), each rounded once.
func sinCos(x float64) (float64, float64) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.NaN(), math.NaN()
	}
	if x == 0 {
		return x, 1
	}
	s, c := sinCosDD(dd{Hi: x, Lo: 0})
	return s.Float(), c.Float()
}

func ddSin(x float64) float64 { s, _ := sinCos(x); return s }
func ddCos(x float64) float64 { _, c := sinCos(x); return c }

func ddTan(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.NaN()
	}
	if x == 0 {
		return x
	}
	s, c := sinCosDD(dd{Hi: x, Lo: 0})
	return s.Div(c).Float()
}

// atanDD is atan(t) for |t| <= 1: Newton's method on tan(y) = t from Go's
// value, two steps in double-double.
func atanDD(t dd) dd {
	y := dd{Hi: math.Atan(t.Hi), Lo: 0}
	for range 1 {
		s, c := sinCosKernel(y)
		// y' = y + (t·cos y - sin y) / (cos y + t·sin y)
		y = y.Add(t.Mul(c).Sub(s).Div(c.Add(t.Mul(s))))
	}
	return y
}

func ddAtan(x float64) float64 {
	switch {
	case math.IsNaN(x) || x == 0:
		return x
	case math.IsInf(x, 0):
		return math.Copysign(halfPi.Float(), x)
	case math.Abs(x) < 0x1p-27:
		return x // atan(x) = x - x³/3…, which rounds to x
	case math.Abs(x) > 0x1p60:
		return math.Copysign(halfPi.Float(), x)
	case math.Abs(x) <= 1:
		return atanDD(dd{Hi: x, Lo: 0}).Float()
	}
	a := halfPi.Sub(atanDD(dd{Hi: 1, Lo: 0}.Div(dd{Hi: math.Abs(x), Lo: 0})))
	return math.Copysign(a.Float(), x)
}

func ddAtan2(y, x float64) float64 {
	if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) || x == 0 || y == 0 {
		return math.Atan2(y, x) // C's special cases
	}
	ay, ax := math.Abs(y), math.Abs(x)
	var a dd
	if ay <= ax {
		if ay < ax*0x1p-30 {
			// atan(t) = t - t³/3…, which rounds as t does: the quotient,
			// divided once (a double-double one would lose its low bits
			// to underflow).
			if x > 0 {
				return y / x
			}
			return math.Copysign(piDD.Sub(dd{Hi: ay / ax, Lo: 0}).Float(), y)
		}
		a = atanDD(dd{Hi: ay, Lo: 0}.Div(dd{Hi: ax, Lo: 0}))
	} else {
		t := dd{Hi: ax, Lo: 0}.Div(dd{Hi: ay, Lo: 0})
		if t.Hi < 0x1p-900 {
			a = halfPi
		} else {
			a = halfPi.Sub(atanDD(t))
		}
	}
	if x < 0 {
		a = piDD.Sub(a)
	}
	return math.Copysign(a.Float(), y)
}

// asinDD is asin(t) for |t| <= 0.5: Newton's method on sin(y) = t.
func asinDD(t dd) dd {
	y := dd{Hi: math.Asin(t.Hi), Lo: 0}
	for range 1 {
		s, c := sinCosKernel(y)
		y = y.Add(t.Sub(s).Div(c))
	}
	return y
}

// halfOneMinus is sqrt((1 - |x|)/2), exactly enough for asin and acos
// of 0.5 <= |x| <= 1 (1 - |x| is exact there).
func halfOneMinus(x float64) dd {
	return dd{Hi: (1 - math.Abs(x)) / 2, Lo: 0}.Sqrt()
}

func ddAsin(x float64) float64 {
	switch {
	case math.IsNaN(x) || x == 0:
		return x
	case math.Abs(x) > 1:
		return math.NaN()
	case math.Abs(x) < 0x1p-26:
		return x
	case math.Abs(x) <= 0.5:
		return asinDD(dd{Hi: x, Lo: 0}).Float()
	}
	// asin(x) = pi/2 - 2·asin(sqrt((1-x)/2))
	a := asinDD(halfOneMinus(x))
	r := halfPi.Sub(dd{Hi: 2 * a.Hi, Lo: 2 * a.Lo})
	return math.Copysign(r.Float(), x)
}

func ddAcos(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case math.Abs(x) > 1:
		return math.NaN()
	case math.Abs(x) <= 0.5:
		return halfPi.Sub(asinDD(dd{Hi: x, Lo: 0})).Float()
	}
	// acos(x) = 2·asin(sqrt((1-x)/2)); acos(-x) = pi - acos(x)
	a := asinDD(halfOneMinus(x))
	a = dd{Hi: 2 * a.Hi, Lo: 2 * a.Lo}
	if x < 0 {
		a = piDD.Sub(a)
	}
	return a.Float()
}
