package pyrt

import (
	"testing"

	"github.com/onetool-dev/onetool/interp"
)

// TestSumAddsAsCPython311: floats are added left to right as CPython
// 3.11 does, not compensated as 3.12 does (the python3 that regenerates
// the differential answers may be newer, so these are checked here).
func TestSumAddsAsCPython311(t *testing.T) {
	tests := []struct{ code, want string }{
		{"sum([0.1] * 10)", "0.9999999999999999"},
		{"sum([1e100, 1.0, -1e100])", "0.0"},
		{"sum([0.1, 0.2, 0.3])", "0.6000000000000001"},
		{"sum([1.5, 1e16, -1e16])", "2.0"},
		{"sum([1e100, 1.0, -1e100, 1.0])", "1.0"},
		// Ints among the floats are added to the running float.
		{"sum([0.1, 1, 0.2])", "1.3"},
		// Ints are exact, past 64 bits.
		{"sum([9223372036854775807, 9223372036854775807, 0.5])", "1.8446744073709552e+19"},
		{"sum([float('inf'), 1.0])", "inf"},
	}
	for _, tt := range tests {
		if got := runText(t, tt.code); got != tt.want {
			t.Errorf("%s = %s, want %s", tt.code, got, tt.want)
		}
	}
}

// TestNumbersStayWithinBudgets: an int result beyond limits.max_int_digits
// is refused before it is computed; modular powers and additions are
// charged as they go.
func TestNumbersStayWithinBudgets(t *testing.T) {
	checkBounded(t, []boundCase{
		{"pow to a huge int", "pow(2, 100000000)", "integer size limit of 5000 digits exceeded"},
		{"pow to a huge exponent", "pow(3, int('9' * 4000))", "integer size limit of 5000 digits exceeded"},
		{"pow of a big base", "pow(int('9' * 2000), 3)", "integer size limit of 5000 digits exceeded"},
		{"modular pow of huge numbers", `pow(3, 10**4900 - 1, 10**4900 - 1)`, "timed out"},
		{"sum of a range", "sum(range(1000000000000))", "timed out"},
		{"sum of lists", "sum([[0] * 600000] * 10, [])", "memory limit of 16 MiB exceeded"},
		{"sum of tuples", "sum([(0,) * 600000] * 10, ())", "memory limit of 16 MiB exceeded"},
		{"sum growing an int", "sum([10**4999 - 1] * 20)", "integer size limit of 5000 digits exceeded"},
		{"hash of shared parts", dag + "hash(a)", "limit"},
		{"float of a long text", `float("1" * 100000000)`, "memory limit of 16 MiB exceeded"},
	})
}

// TestAddSubAtTheEdgesOfInt64: + and - of two ints the lowering cannot
// see (the helpers __ot_plus and __ot_sub) give CPython's results where
// 64 bits overflow; the expected text is python3's.
func TestAddSubAtTheEdgesOfInt64(t *testing.T) {
	const code = `pairs = [(2**62, 2**62), (-(2**62), 2**62), (2**63-1, 1), (-(2**63), 1), (-(2**63), -1), (2**63-1, -1), (-(2**63), -(2**63)), (5, 3), (0, -(2**63)), (2**64, 2**64), (-(2**64), -1), (2**62, -(2**62)), (True, 2**63-1), (10**30, -10**30)]
def both(a, b):
    return (a + b, a - b)
str([both(a, b) for a, b in pairs])`
	const want = "[(9223372036854775808, 0), (0, -9223372036854775808), (9223372036854775808, 9223372036854775806), (-9223372036854775807, -9223372036854775809), (-9223372036854775809, -9223372036854775807), (9223372036854775806, 9223372036854775808), (-18446744073709551616, 0), (8, 2), (-9223372036854775808, 9223372036854775808), (36893488147419103232, 0), (-18446744073709551617, -18446744073709551615), (0, 9223372036854775808), (9223372036854775808, -9223372036854775806), (0, 2000000000000000000000000000000)]"
	res, err := run(t, code, interp.Options{MaxIntDigits: 5000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != want {
		t.Errorf("got  %s\nwant %s", res.Text, want)
	}
}
