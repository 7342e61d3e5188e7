package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestDifferentialOperator checks the operator module against CPython
// (testdata/operator_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialOperator -update).
func TestDifferentialOperator(t *testing.T) {
	pydiff.Check(t, "testdata/operator_cases.txt", *update, eval)
}

// operator's functions that walk an iterable end with the step budget.
func TestOperatorBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"operator.countOf(range(10 ** 9), -1)",
		"operator.indexOf(itertools.count(), -1)",
		"operator.contains(itertools.count(1), 0) if False else operator.indexOf(range(10 ** 9), -1)",
		"list(map(operator.itemgetter(0), itertools.repeat([1])))",
	)
}
