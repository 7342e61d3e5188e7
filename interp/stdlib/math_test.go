package stdlib

import (
	"errors"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
)

// TestDifferentialMath checks the math module against CPython
// (testdata/math_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialMath -update).
func TestDifferentialMath(t *testing.T) {
	pydiff.Check(t, "testdata/math_cases.txt", *update, eval)
}

// The names of math can be imported one by one, as programs do.
func TestMathFromImport(t *testing.T) {
	res, err := run("from math import gcd, inf, sqrt as root, isclose\n[gcd(12, 8), inf > 1e308, root(9), isclose(0.1 + 0.2, 0.3)]", interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "[4,true,3.0,true]"; res.Text != want {
		t.Errorf("got %s, want %s", res.Text, want)
	}
}

// Integer results past limits.max_int_digits are refused before they are
// computed: the run ends at once, whatever the size asked for.
func TestMathBounded(t *testing.T) {
	for _, code := range []string{
		"math.factorial(10 ** 9)",
		"math.factorial(10 ** 30)",
		"math.comb(10 ** 9, 5 * 10 ** 8)",
		"math.comb(10 ** 30, 10 ** 15)",
		"math.perm(10 ** 9, 10 ** 6)",
		"math.prod([10 ** 4000, 10 ** 4000])",
		"math.prod([2] * 100000)",
		"math.lcm(*range(1, 100000))",
		"math.floor(1e300)",
	} {
		start := time.Now()
		_, err := run(code, interp.Options{Timeout: 5 * time.Second, MaxMemory: 64 << 20, Watchdog: interp.NewWatchdog(), MaxIntDigits: 200})
		if !errors.Is(err, interp.ErrIntLimit) {
			t.Errorf("%s: %v, want the integer size limit", code, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s took %s", code, d)
		}
	}
	// At the bound exactly, the result is made.
	res, err := run("len(str(math.factorial(121)))", interp.Options{MaxIntDigits: 201})
	if err != nil || res.Text != "201" {
		t.Errorf("factorial(121) under a bound of 201 digits: %v %v", res, err)
	}
}

// The worst inputs of math at a server's budgets: ints past
// limits.max_int_digits refused before they are computed, whatever the
// size of the arguments, and endless iterables.
func TestMathStop(t *testing.T) {
	checkStops(t,
		stopCase{"math.factorial(10**6)", wantInt},
		stopCase{"math.factorial(10**18)", wantInt},
		stopCase{"math.comb(10**4000, 10**5)", wantInt},
		stopCase{"math.comb(10**6, 5 * 10**5)", wantInt},
		stopCase{"math.perm(10**4000, 10**5)", wantInt},
		stopCase{"math.perm(10**4000, 3)", wantInt},
		stopCase{"math.lcm(*range(1, 20000))", wantInt},
		stopCase{"math.prod(itertools.count(1))", wantInt},
		stopCase{"math.prod(itertools.repeat(1))", wantTime},
		stopCase{"math.fsum(itertools.count())", wantTime},
		stopCase{"math.gcd(*range(10**7))", wantSpent},
	)
}
