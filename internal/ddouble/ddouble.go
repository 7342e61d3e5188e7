// Package ddouble is double-double arithmetic: a number as the
// unevaluated sum of two float64s, about 106 bits of precision, enough
// for a result computed through several operations (a power through
// log and exp, a sine after argument reduction) to round once to the
// float64 CPython's C library gives.
package ddouble

import "math"

// DD is the unevaluated sum Hi + Lo, with |Lo| <= ulp(Hi)/2.
type DD struct{ Hi, Lo float64 }

// TwoSum is a + b exactly.
func TwoSum(a, b float64) DD {
	s := a + b
	bb := s - a
	return DD{s, (a - (s - bb)) + (b - bb)}
}

// QuickTwoSum is a + b exactly, for |a| >= |b|.
func QuickTwoSum(a, b float64) DD {
	s := a + b
	return DD{s, b - (s - a)}
}

// TwoProd is a * b exactly.
func TwoProd(a, b float64) DD {
	p := a * b
	return DD{p, math.FMA(a, b, -p)}
}

// Add is x + y with an error relative to the sum, even when x and y
// nearly cancel.
func (x DD) Add(y DD) DD {
	s := TwoSum(x.Hi, y.Hi)
	t := TwoSum(x.Lo, y.Lo)
	s.Lo += t.Hi
	s = QuickTwoSum(s.Hi, s.Lo)
	s.Lo += t.Lo
	return QuickTwoSum(s.Hi, s.Lo)
}

// Neg is -x.
func (x DD) Neg() DD { return DD{-x.Hi, -x.Lo} }

// Sub is x - y.
func (x DD) Sub(y DD) DD { return x.Add(y.Neg()) }

// Float is x rounded to a float64.
func (x DD) Float() float64 { return x.Hi + x.Lo }

// Mul is x * y.
func (x DD) Mul(y DD) DD {
	p := TwoProd(x.Hi, y.Hi)
	p.Lo += x.Hi*y.Lo + x.Lo*y.Hi
	return QuickTwoSum(p.Hi, p.Lo)
}

// MulFloat is x * f.
func (x DD) MulFloat(f float64) DD {
	p := TwoProd(x.Hi, f)
	p.Lo += x.Lo * f
	return QuickTwoSum(p.Hi, p.Lo)
}

// Div is x / y: three quotient digits, each from the remainder so far.
func (x DD) Div(y DD) DD {
	q1 := x.Hi / y.Hi
	r := x.Add(y.MulFloat(-q1))
	q2 := r.Hi / y.Hi
	r = r.Add(y.MulFloat(-q2))
	q3 := r.Hi / y.Hi
	return QuickTwoSum(q1, q2).Add(DD{q3, 0})
}

// Sqrt is the square root of x >= 0 (0 for less): one Newton step from
// the float's.
func (x DD) Sqrt() DD {
	if x.Hi <= 0 {
		return DD{0, 0}
	}
	s := math.Sqrt(x.Hi)
	r := x.Sub(TwoProd(s, s))
	return QuickTwoSum(s, r.Hi/(2*s))
}
