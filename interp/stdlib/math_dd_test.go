package stdlib

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

// bigSin is sin(x) to 200 bits: x reduced by 2·pi in big floats, then
// its Taylor series.
func bigSin(x float64) float64 {
	const prec = 300
	bx := new(big.Float).SetPrec(prec).SetFloat64(x)
	twoPi := new(big.Float).SetPrec(prec).Mul(bigPi(), big.NewFloat(2))
	q := new(big.Float).SetPrec(prec).Quo(bx, twoPi)
	k, _ := q.Int(nil)
	r := new(big.Float).SetPrec(prec).Sub(bx, new(big.Float).SetPrec(prec).Mul(new(big.Float).SetInt(k), twoPi))
	r2 := new(big.Float).SetPrec(prec).Mul(r, r)
	sum := new(big.Float).SetPrec(prec).Set(r)
	term := new(big.Float).SetPrec(prec).Set(r)
	for n := int64(1); n < 60; n++ {
		term.Mul(term, r2).Quo(term, big.NewFloat(float64(-(2*n)*(2*n+1))))
		sum.Add(sum, term)
	}
	f, _ := sum.Float64()
	return f
}

// The circular functions are correctly rounded: they agree with a
// 300-bit computation rounded once (the C library CPython calls does too,
// but for about one value in a thousand).
func TestSinCorrectlyRounded(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 1000; i++ {
		x := (r.Float64()*2 - 1) * math.Pow(2, float64(r.Intn(12)-6))
		if got, want := ddSin(x), bigSin(x); got != want {
			t.Errorf("sin(%v) = %v, want %v", x, got, want)
		}
	}
	// And cos at a few points, against what CPython prints.
	for x, want := range map[float64]float64{-2.0: -0.4161468365471424, 1.0: 0.5403023058681398, 2.5: -0.8011436155469337} {
		if got := ddCos(x); got != want {
			t.Errorf("cos(%v) = %v, want %v", x, got, want)
		}
	}
}

var sink float64

func BenchmarkDDSin(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += ddSin(float64(i%1000) * 0.001)
	}
}

func BenchmarkDDAtan2(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += ddAtan2(float64(i%1000)*0.001, 1.5)
	}
}
