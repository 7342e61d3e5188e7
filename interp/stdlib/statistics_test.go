package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
)

// TestDifferentialStatistics checks the statistics module against CPython
// (testdata/statistics_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialStatistics -update).
func TestDifferentialStatistics(t *testing.T) {
	pydiff.Check(t, "testdata/statistics_cases.txt", *update, eval)
}

// StatisticsError is caught as itself and as a ValueError; data past the
// memory budget is refused before it is gathered.
func TestStatisticsErrorsAndBounds(t *testing.T) {
	res, err := run("out = []\nfor f in (statistics.mean, statistics.median):\n    try:\n        f([])\n    except statistics.StatisticsError as e:\n        out.append(str(e))\ntry:\n    statistics.mode([])\nexcept ValueError:\n    out.append('ValueError')\nout", interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := `["mean requires at least one data point","no median for empty data","ValueError"]`; res.Text != want {
		t.Errorf("got %s, want %s", res.Text, want)
	}
	checkBounded(t, 0, "statistics.mean(range(10 ** 9))", "statistics.median(range(10 ** 9))", "statistics.quantiles([1, 2], n=10 ** 9)")
}

// The worst inputs of statistics at a server's budgets: endless data,
// exact sums whose denominators grow with every fraction, results past
// limits.max_int_digits.
func TestStatisticsStop(t *testing.T) {
	checkStops(t,
		stopCase{"statistics.mean(itertools.count())", wantSpent},
		stopCase{"g = ('x' * 1000 + str(i) for i in itertools.count())\nstatistics.median(g)", wantSpent},
		stopCase{"statistics.mean([fractions.Fraction(1, 10**1000 + i) for i in range(1000)])", wantInt},
		stopCase{"statistics.mean([fractions.Fraction(1, 2 * i + 1) for i in range(10**5)])", wantTime},
		stopCase{"statistics.variance([10**4900, -10**4900])", wantInt},
		stopCase{"statistics.pvariance([fractions.Fraction(1, 10**1000 + i) for i in range(1000)])", wantInt},
		stopCase{"statistics.NormalDist().samples(10**9)", wantMemory},
		stopCase{"statistics.NormalDist().samples(10**7)", wantSpent},
		stopCase{"statistics.fmean(itertools.repeat(1.5))", wantSpent},
	)
}
