package stdlib

import (
	"testing"
	"time"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
)

// TestDifferentialBisect checks the bisect module against CPython
// (testdata/bisect_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialBisect -update).
func TestDifferentialBisect(t *testing.T) {
	pydiff.Check(t, "testdata/bisect_cases.txt", *update, eval)
}

// Each search and insertion is charged: a program that inserts without
// end stops with the run's budget.
func TestBisectBounded(t *testing.T) {
	for _, code := range []string{
		"import bisect\na = []\nfor i in range(10 ** 9):\n    bisect.insort(a, -i)",
		"import bisect\na = list(range(1000))\nfor i in range(10 ** 9):\n    bisect.bisect(a, i, key=lambda x: x)",
	} {
		start := time.Now()
		_, err := run(code, interp.Options{Timeout: 5 * time.Second, MaxSteps: 1e6, MaxMemory: 16 << 20, Watchdog: interp.NewWatchdog()})
		if !isBudget(err) {
			t.Errorf("%s: %v, want the budget's error", code, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s took %s", code, d)
		}
	}
}
