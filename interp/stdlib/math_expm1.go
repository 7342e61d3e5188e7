package stdlib

import "math"

// expm1 and log1p as glibc computes them on x86-64, where CPython calls
// them: Sun's method, with the polynomials summed by powers in pairs as
// glibc writes them. glibc picks an expm1 compiled for FMA on processors
// that have it (every x86-64 of the last decade), where the compiler
// fuses each a + b·c whose product has no other use; expm1 below fuses
// the same ones (math.FMA). log1p has no such variant: no product fused.
// Go's Expm1 and Log1p (Horner's rule, nothing fused) differ from these
// in the last digit for a few values in a thousand.

const (
	ln2Hi  = 6.93147180369123816490e-01 // 0x3fe62e42fee00000
	ln2Lo  = 1.90821492927058770002e-10 // 0x3dea39ef35793c76
	invLn2 = 1.44269504088896338700e+00 // 0x3ff71547652b82fe
)

var expm1Q = [6]float64{1.0, -3.33333333333331316428e-02, 1.58730158725481460165e-03,
	-7.93650757867487942473e-05, 4.00821782732936239552e-06, -2.01099218183624371326e-07}

// setHigh is x with the top 32 bits of its encoding replaced by hi.
func setHigh(x float64, hi uint32) float64 {
	return math.Float64frombits(math.Float64bits(x)&0xffffffff | uint64(hi)<<32)
}

// addExponent is y·2^k by adding k to the encoded exponent (no
// rounding, no overflow check), as glibc scales.
func addExponent(y float64, k int) float64 {
	return math.Float64frombits(uint64(int64(math.Float64bits(y)) + int64(k)<<52))
}

func expm1(x float64) float64 {
	hx := uint32(math.Float64bits(x) >> 32)
	neg := hx&0x80000000 != 0
	hx &= 0x7fffffff
	if hx >= 0x4043687A { // |x| >= 56·ln2
		if hx >= 0x40862E42 { // |x| >= 709.78
			switch {
			case math.IsNaN(x):
				return x
			case math.IsInf(x, 0):
				if neg {
					return -1
				}
				return x
			case x > 7.09782712893383973096e+02:
				return math.Inf(1)
			}
		}
		if neg {
			return -1
		}
	}
	var c float64
	k := 0
	switch {
	case hx > 0x3fd62e42: // |x| > ln2/2
		var hi, lo float64
		if hx < 0x3FF0A2B2 { // and |x| < 1.5·ln2
			if !neg {
				hi, lo, k = x-ln2Hi, ln2Lo, 1
			} else {
				hi, lo, k = x+ln2Hi, -ln2Lo, -1
			}
		} else {
			half := 0.5
			if neg {
				half = -0.5
			}
			k = int(math.FMA(invLn2, x, half))
			t := float64(k)
			hi = math.FMA(-t, ln2Hi, x)
			lo = t * ln2Lo
		}
		x = hi - lo
		c = (hi - x) - lo
	case hx < 0x3c900000: // |x| < 2^-54
		return x
	}
	hfx := 0.5 * x
	hxs := x * hfx
	q := &expm1Q
	r1 := math.FMA(hxs, q[1], 1)
	h2 := hxs * hxs
	r2 := math.FMA(hxs, q[3], q[2])
	h4 := h2 * h2
	r3 := math.FMA(hxs, q[5], q[4])
	rr := math.FMA(h4, r3, math.FMA(h2, r2, r1))
	t := math.FMA(-rr, hfx, 3)
	e := hxs * ((rr - t) / math.FMA(-x, t, 6))
	if k == 0 {
		return x - math.FMA(x, e, -hxs)
	}
	e = math.FMA(x, e-c, -c)
	e -= hxs
	switch {
	case k == -1:
		return math.FMA(0.5, x-e, -0.5)
	case k == 1:
		if x < -0.25 {
			return -2 * (e - (x + 0.5))
		}
		return math.FMA(2, x-e, 1)
	case k <= -2 || k > 56:
		return addExponent(1-(e-x), k) - 1
	case k < 20:
		t := setHigh(0, 0x3ff00000-(0x200000>>k)) // 1 - 2^-k
		return addExponent(t-(e-x), k)
	}
	t = setHigh(0, uint32(0x3ff-k)<<20) // 2^-k
	y := x - (e + t)
	y++
	return addExponent(y, k)
}

var log1pLp = [8]float64{0, 6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01,
	2.222219843214978396e-01, 1.818357216161805012e-01, 1.531383769920937332e-01, 1.479819860511658591e-01}

func log1p(x float64) float64 {
	hx := int32(math.Float64bits(x) >> 32)
	ax := hx & 0x7fffffff
	k := int32(1)
	var f, c float64
	var hu int32
	if hx < 0x3FDA827A { // x < 0.41422
		if ax >= 0x3ff00000 { // x <= -1
			if x == -1 {
				return math.Inf(-1)
			}
			return math.NaN()
		}
		if ax < 0x3e200000 { // |x| < 2^-29
			if ax < 0x3c900000 {
				return x
			}
			return x - mul(mul(x, x), 0.5)
		}
		if hx > 0 || hx <= int32(-1076707645) /* 0xbfd2bec3 */ { // -0.2929 < x < 0.41422
			k, f, hu = 0, x, 1
		}
	} else if hx >= 0x7ff00000 {
		return x + x
	}
	if k != 0 {
		var u float64
		if hx < 0x43400000 {
			u = 1 + x
			hu = int32(math.Float64bits(u) >> 32)
			k = (hu >> 20) - 1023
			if k > 0 {
				c = 1 - (u - x)
			} else {
				c = x - (u - 1)
			}
			c /= u
		} else {
			u = x
			hu = int32(math.Float64bits(u) >> 32)
			k = (hu >> 20) - 1023
			c = 0
		}
		hu &= 0x000fffff
		if hu < 0x6a09e {
			u = setHigh(u, uint32(hu|0x3ff00000)) // normalise u
		} else {
			k++
			u = setHigh(u, uint32(hu|0x3fe00000)) // normalise u/2
			hu = (0x00100000 - hu) >> 2
		}
		f = u - 1
	}
	hfsq := mul(0.5*f, f)
	fk := float64(k)
	if hu == 0 { // |f| < 2^-20
		if f == 0 {
			if k == 0 {
				return 0
			}
			c += mul(fk, ln2Lo)
			return mul(fk, ln2Hi) + c
		}
		r := hfsq * (1 - mul(0.66666666666666666, f))
		if k == 0 {
			return f - r
		}
		return mul(fk, ln2Hi) - ((r - (mul(fk, ln2Lo) + c)) - f)
	}
	s := f / (2 + f)
	z := s * s
	lp := &log1pLp
	r1 := z * lp[1]
	z2 := z * z
	r2 := lp[2] + mul(z, lp[3])
	z4 := z2 * z2
	r3 := lp[4] + mul(z, lp[5])
	z6 := z4 * z2
	r4 := lp[6] + mul(z, lp[7])
	r := r1 + mul(z2, r2) + mul(z4, r3) + mul(z6, r4)
	if k == 0 {
		return f - (hfsq - mul(s, hfsq+r))
	}
	return mul(fk, ln2Hi) - ((hfsq - (mul(s, hfsq+r) + (mul(fk, ln2Lo) + c))) - f)
}
