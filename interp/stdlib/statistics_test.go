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
