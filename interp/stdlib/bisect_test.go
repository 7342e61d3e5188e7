package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
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
	checkBounded(t, 1e6,
		"import bisect\na = []\nfor i in range(10 ** 9):\n    bisect.insort(a, -i)",
		"import bisect\na = list(range(1000))\nfor i in range(10 ** 9):\n    bisect.bisect(a, i, key=lambda x: x)",
	)
}
