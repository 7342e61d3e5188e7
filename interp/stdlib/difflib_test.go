package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestDifferentialDiffLib checks difflib against CPython
// (testdata/difflib_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialDiffLib -update).
func TestDifferentialDiffLib(t *testing.T) {
	pydiff.Check(t, "testdata/difflib_cases.txt", *update, eval)
}

// Matching is charged by the candidates it visits: long sequences of
// repeated elements (quadratic in CPython too) end with the budget.
func TestDiffLibBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import difflib\nx = difflib.SequenceMatcher(None, 'ab' * 50000, 'ba' * 50000, autojunk=False).ratio()",
		"import difflib\nx = difflib.unified_diff([str(i % 7) for i in range(10 ** 5)], [str(i % 5) for i in range(10 ** 5)])",
		"import difflib\nfor i in range(10 ** 9):\n    difflib.get_close_matches('word', ['ward', 'wore', 'world'])",
		"import difflib\nx = difflib.ndiff(['line %d ab' % i for i in range(3000)], ['line %d ba' % i for i in range(3000)])",
	)
}
