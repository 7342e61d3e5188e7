package stdlib

import (
	"math"

	"github.com/onetool-dev/onetool/interp/pyrt"
)

// erf and erfc as glibc computes them, which CPython calls: Sun's
// rational approximations (the coefficients Go's math.Erf has too), but
// with the polynomials split in pairs and summed by powers of x², the
// order glibc evaluates them in, and exp rounded as glibc's. Go's Horner
// form and exp give another last digit for about one value in ten.

var (
	erfPP = [5]float64{1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02,
		-5.77027029648944159157e-03, -2.37630166566501626084e-05}
	erfQQ = [6]float64{0, 3.97917223959155352819e-01, 6.50222499887672944485e-02, 5.08130628187576562776e-03,
		1.32494738004321644526e-04, -3.96022827877536812320e-06}
	erfPA = [7]float64{-2.36211856075265944077e-03, 4.14856118683748331666e-01, -3.72207876035701323847e-01,
		3.18346619901161753674e-01, -1.10894694282396677476e-01, 3.54783043256182359371e-02, -2.16637559486879084300e-03}
	erfQA = [7]float64{0, 1.06420880400844228286e-01, 5.40397917702171048937e-01, 7.18286544141962662868e-02,
		1.26171219808761642112e-01, 1.36370839120290507362e-02, 1.19844998467991074170e-02}
	erfRA = [8]float64{-9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e+01,
		-6.23753324503260060396e+01, -1.62396669462573470355e+02, -1.84605092906711035994e+02,
		-8.12874355063065934246e+01, -9.81432934416914548592e+00}
	erfSA = [9]float64{0, 1.96512716674392571292e+01, 1.37657754143519042600e+02, 4.34565877475229228821e+02,
		6.45387271733267880336e+02, 4.29008140027567833386e+02, 1.08635005541779435134e+02,
		6.57024977031928170135e+00, -6.04244152148580987438e-02}
	erfRB = [7]float64{-9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e+01,
		-1.60636384855821916062e+02, -6.37566443368389627722e+02, -1.02509513161107724954e+03,
		-4.83519191608651397019e+02}
	erfSB = [8]float64{0, 3.03380607434824582924e+01, 3.25792512996573918826e+02, 1.53672958608443695994e+03,
		3.19985821950859553908e+03, 2.55305040643316442583e+03, 4.74528541206955367215e+02,
		-2.24409524465858183362e+01}
)

const (
	erfErx  = 8.45062911510467529297e-01 // erf(1) rounded to 24 bits
	erfEfx  = 1.28379167095512586316e-01 // 2/√π - 1
	erfTiny = 1e-300
)

// mul is a·b rounded on its own, never fused with a sum after it.
func mul(a, b float64) float64 { return float64(a * b) }

// erfSmall is y with erf(x) = x + x·y for |x| < 0.84375, z = x².
func erfSmall(z float64) float64 {
	r1 := erfPP[0] + mul(z, erfPP[1])
	z2 := z * z
	r2 := erfPP[2] + mul(z, erfPP[3])
	z4 := z2 * z2
	s1 := 1 + mul(z, erfQQ[1])
	s2 := erfQQ[2] + mul(z, erfQQ[3])
	s3 := erfQQ[4] + mul(z, erfQQ[5])
	r := r1 + mul(z2, r2) + mul(z4, erfPP[4])
	s := s1 + mul(z2, s2) + mul(z4, s3)
	return r / s
}

// erfNearOne is P/Q for 0.84375 <= |x| < 1.25, s = |x| - 1.
func erfNearOne(s float64) float64 {
	p1 := erfPA[0] + mul(s, erfPA[1])
	s2 := s * s
	q1 := 1 + mul(s, erfQA[1])
	s4 := s2 * s2
	p2 := erfPA[2] + mul(s, erfPA[3])
	s6 := s4 * s2
	q2 := erfQA[2] + mul(s, erfQA[3])
	p3 := erfPA[4] + mul(s, erfPA[5])
	q3 := erfQA[4] + mul(s, erfQA[5])
	p := p1 + mul(s2, p2) + mul(s4, p3) + mul(s6, erfPA[6])
	q := q1 + mul(s2, q2) + mul(s4, q3) + mul(s6, erfQA[6])
	return p / q
}

// erfcTail is erfc(x) for 1.25 <= x < 28 (x > 0); mid chooses the
// approximation of [1.25, 1/0.35).
func erfcTail(x float64, mid bool) float64 {
	s := 1 / (x * x)
	var r, q float64
	if mid {
		r1 := erfRA[0] + mul(s, erfRA[1])
		s2 := s * s
		q1 := 1 + mul(s, erfSA[1])
		s4 := s2 * s2
		r2 := erfRA[2] + mul(s, erfRA[3])
		s6 := s4 * s2
		q2 := erfSA[2] + mul(s, erfSA[3])
		s8 := s4 * s4
		r3 := erfRA[4] + mul(s, erfRA[5])
		q3 := erfSA[4] + mul(s, erfSA[5])
		r4 := erfRA[6] + mul(s, erfRA[7])
		q4 := erfSA[6] + mul(s, erfSA[7])
		r = r1 + mul(s2, r2) + mul(s4, r3) + mul(s6, r4)
		q = q1 + mul(s2, q2) + mul(s4, q3) + mul(s6, q4) + mul(s8, erfSA[8])
	} else {
		r1 := erfRB[0] + mul(s, erfRB[1])
		s2 := s * s
		q1 := 1 + mul(s, erfSB[1])
		s4 := s2 * s2
		r2 := erfRB[2] + mul(s, erfRB[3])
		s6 := s4 * s2
		q2 := erfSB[2] + mul(s, erfSB[3])
		r3 := erfRB[4] + mul(s, erfRB[5])
		q3 := erfSB[4] + mul(s, erfSB[5])
		q4 := erfSB[6] + mul(s, erfSB[7])
		r = r1 + mul(s2, r2) + mul(s4, r3) + mul(s6, erfRB[6])
		q = q1 + mul(s2, q2) + mul(s4, q3) + mul(s6, q4)
	}
	// exp(-x² - 0.5625 + R/S) in two factors: z is x with its low 32
	// bits cleared, so z·z is exact.
	z := math.Float64frombits(math.Float64bits(x) &^ 0xffffffff)
	return pyrt.Exp(mul(-z, z)-0.5625) * pyrt.Exp(mul(z-x, z+x)+r/q) / x
}

// highWord is the top 32 bits of x's encoding, less the sign.
func highWord(x float64) uint32 { return uint32(math.Float64bits(x)>>32) & 0x7fffffff }

func erf(x float64) float64 {
	ix := highWord(x)
	switch {
	case math.IsNaN(x):
		return x
	case math.IsInf(x, 0):
		return math.Copysign(1, x)
	case ix < 0x3feb0000: // |x| < 0.84375
		if ix < 0x3e300000 { // |x| < 2^-28
			if ix < 0x00800000 {
				return 0.0625 * (16*x + mul(16*erfEfx, x))
			}
			return x + mul(erfEfx, x)
		}
		return x + mul(x, erfSmall(x*x))
	case ix < 0x3ff40000: // |x| < 1.25
		if x >= 0 {
			return erfErx + erfNearOne(math.Abs(x)-1)
		}
		return -erfErx - erfNearOne(math.Abs(x)-1)
	case ix >= 0x40180000: // |x| >= 6
		if x >= 0 {
			return 1 - erfTiny
		}
		return erfTiny - 1
	}
	r := erfcTail(math.Abs(x), ix < 0x4006DB6E)
	if x >= 0 {
		return 1 - r
	}
	return r - 1
}

func erfc(x float64) float64 {
	ix := highWord(x)
	switch {
	case math.IsNaN(x):
		return x
	case math.IsInf(x, 0):
		if x > 0 {
			return 0
		}
		return 2
	case ix < 0x3feb0000: // |x| < 0.84375
		if ix < 0x3c700000 { // |x| < 2^-56
			return 1 - x
		}
		y := erfSmall(x * x)
		if x < 0.25 {
			return 1 - (x + mul(x, y))
		}
		r := mul(x, y)
		r += x - 0.5
		return 0.5 - r
	case ix < 0x3ff40000: // |x| < 1.25
		p := erfNearOne(math.Abs(x) - 1)
		if x >= 0 {
			return (1 - erfErx) - p
		}
		return 1 + (erfErx + p)
	case ix < 0x403c0000: // |x| < 28
		if x < 0 && ix >= 0x40180000 {
			return 2 - erfTiny
		}
		r := erfcTail(math.Abs(x), ix < 0x4006DB6D)
		if x > 0 {
			return r
		}
		return 2 - r
	}
	if x > 0 {
		return 0 // tiny·tiny
	}
	return 2 - erfTiny
}
