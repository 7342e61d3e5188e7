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

// operator's arithmetic is held to the budgets as a program's operators
// are: a shift or a sum past limits.max_int_digits, a concatenation past
// the memory budget.
func TestOperatorStop(t *testing.T) {
	checkStops(t,
		stopCase{"operator.lshift(1, 10**9)", wantInt},
		stopCase{"operator.ilshift(3, 20000)", wantInt},
		stopCase{"x = 10**4990\nfor _ in range(10**9):\n    x = operator.add(x, x)", wantInt},
		stopCase{"x = 'x' * 10**6\nfor _ in range(10**9):\n    x = operator.concat(x, x)", wantSpent},
		stopCase{"x = [0] * 10**6\nfor _ in range(10**9):\n    x = operator.add(x, x)", wantSpent},
		stopCase{"x = (0,) * 10**6\nfor _ in range(10**9):\n    x = operator.add(x, x)", wantSpent},
		stopCase{"x = b'x' * 10**6\nfor _ in range(10**9):\n    x = operator.concat(x, x)", wantSpent},
		stopCase{"x = 'x' * 10**6\nfor _ in range(10**9):\n    x = operator.iconcat(x, x)", wantSpent},
		stopCase{"x = 10**4999\nx = operator.or_(x, x << 5)", wantInt},
	)
}
