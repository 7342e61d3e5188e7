package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestDifferentialFractions checks fractions.Fraction against CPython
// (testdata/fractions_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialFractions -update).
func TestDifferentialFractions(t *testing.T) {
	pydiff.Check(t, "testdata/fractions_cases.txt", *update, eval)
}

// Exact rationals grow without bound under powers and sums: each
// operation is charged by the size of its numbers, and their digits are
// limited as an int's.
func TestFractionsBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"from fractions import Fraction\nx = Fraction(10 ** 4000) ** 100000",
		"from fractions import Fraction\nx = Fraction(3, 7) ** 10000000",
		"from fractions import Fraction\nx = Fraction(1)\nfor i in range(1, 10 ** 9):\n    x += Fraction(1, i)",
		"from fractions import Fraction\nx = Fraction('1e999999999')",
		"from fractions import Fraction\nx = Fraction(10 ** 100000 + 1, 10 ** 99999 + 7)\nfor i in range(10 ** 9):\n    y = x.limit_denominator(10 ** 99990)",
		"from fractions import Fraction\nx = Fraction(2) ** Fraction(10 ** 9)",
	)
}
