package stdlib

import (
	"errors"
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
)

// TestDifferentialPPrint checks the pprint module against CPython
// (testdata/pprint_cases.txt).
func TestDifferentialPPrint(t *testing.T) {
	pydiff.Check(t, "testdata/pprint_cases.txt", *update, eval)
}

// Formatting a structure built from shared parts, or a huge one, ends
// with the run's budget; one nested too deep is refused.
func TestPPrintBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import pprint\nx = [1, 2]\nfor i in range(40):\n    x = [x, x]\npprint.pformat(x)",
		"import pprint\nx = [list(range(100))] * 100\nfor _ in range(10 ** 6):\n    pprint.pformat(x, width=20)",
		"import pprint\nx = []\nfor i in range(500):\n    x = [x, 'word ' * 20]\npprint.pformat(x)",
	)
	_, err := run("import pprint\nx = []\nfor i in range(10 ** 4):\n    x = [x]\npprint.pformat(x)", interp.Options{})
	if !errors.Is(err, interp.ErrTooDeep) {
		t.Errorf("deep nesting: %v, want %v", err, interp.ErrTooDeep)
	}
}

// The worst inputs of pprint at a server's budgets: values built from
// shared parts (2⁴⁰ to write), a layout far longer than its repr.
func TestPPrintStop(t *testing.T) {
	checkStops(t,
		stopCase{"x = []\nfor _ in range(40):\n    x = [x, x]\npprint.pformat(x)", wantSpent},
		stopCase{"x = [[0] * 100] * 10**5\npprint.pformat(x, width=1)", wantSpent},
		stopCase{"x = {}\nfor i in range(40):\n    x = {'k' + str(i): x, 'j': x}\npprint.pformat(x, width=1)", wantSpent},
		stopCase{"x = ['a b ' * 1000] * 10**4\npprint.pformat(x, width=3)", wantSpent},
	)
}
