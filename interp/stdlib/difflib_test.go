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

// The worst inputs of difflib at a server's budgets: quadratic matching,
// texts as characters (a value per character), ndiff of long similar
// lines (a sequence of characters per pair of lines).
func TestDiffLibStop(t *testing.T) {
	checkStops(t,
		stopCase{"difflib.SequenceMatcher(None, 'ab' * 10**5, 'ba' * 10**5, autojunk=False).ratio()", wantTime},
		stopCase{"difflib.SequenceMatcher(None, 'x' * 10**7, 'y')", wantMemory},
		stopCase{"a = ['x' * 10**4 + str(i) for i in range(300)]\nb = ['y' + s for s in a]\nlist(difflib.ndiff(a, b))", wantTime},
		stopCase{"a = [str(i) for i in range(10**5)]\nb = [str(i * 7) for i in range(10**5)]\ndifflib.unified_diff(a, b, n=10**9)", wantSpent},
		stopCase{"difflib.get_close_matches('x' * 1000, ['y' * 1000] * 10**5)", wantTime},
	)
}
