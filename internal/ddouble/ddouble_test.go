package ddouble

import (
	"math"
	"math/big"
	"testing"
)

// exact is x as an exact rational, to check results against.
func exact(x DD) *big.Float {
	f := new(big.Float).SetPrec(2000).SetFloat64(x.Hi)
	return f.Add(f, new(big.Float).SetFloat64(x.Lo))
}

func TestExactSumsAndProducts(t *testing.T) {
	for _, c := range [][2]float64{{1, 1e-20}, {0.1, 0.2}, {1e150, -1e133}, {3, -3}, {1.0 / 3, 2.0 / 3}} {
		a, b := c[0], c[1]
		want := new(big.Float).SetPrec(2000).SetFloat64(a)
		want.Add(want, new(big.Float).SetFloat64(b))
		if got := exact(TwoSum(a, b)); got.Cmp(want) != 0 {
			t.Errorf("TwoSum(%g, %g) = %v, want %v", a, b, got, want)
		}
		wantP := new(big.Float).SetPrec(2000).SetFloat64(a)
		wantP.Mul(wantP, new(big.Float).SetFloat64(b))
		if got := exact(TwoProd(a, b)); got.Cmp(wantP) != 0 {
			t.Errorf("TwoProd(%g, %g) = %v, want %v", a, b, got, wantP)
		}
	}
}

// Division and square root keep about 106 bits: 1/3 * 3 and sqrt(2)^2
// come back to within 2^-100 of the exact value, far past a float's 2^-53.
func TestDivAndSqrtPrecision(t *testing.T) {
	third := DD{1, 0}.Div(DD{3, 0})
	if err := math.Abs(third.Mul(DD{3, 0}).Sub(DD{1, 0}).Float()); err > 0x1p-100 {
		t.Errorf("1/3*3 - 1 = %g", err)
	}
	r := DD{2, 0}.Sqrt()
	if err := math.Abs(r.Mul(r).Sub(DD{2, 0}).Float()); err > 0x1p-100 {
		t.Errorf("sqrt(2)^2 - 2 = %g", err)
	}
	if r.Hi != math.Sqrt2 {
		t.Errorf("sqrt(2) rounds to %v, want %v", r.Hi, math.Sqrt2)
	}
	if got := (DD{-1, 0}).Sqrt(); got != (DD{0, 0}) {
		t.Errorf("sqrt(-1) = %v, want 0", got)
	}
}
