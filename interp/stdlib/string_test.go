package stdlib

import (
	"testing"
	"time"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
)

// TestDifferentialString checks the string module against CPython
// (testdata/string_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialString -update).
func TestDifferentialString(t *testing.T) {
	pydiff.Check(t, "testdata/string_cases.txt", *update, eval)
}

// The worst inputs of string and copy at a server's budgets: format
// strings of ten million pieces, templates whose text is far longer than
// the template, deep copies far larger than what they copy.
func TestStringCopyStop(t *testing.T) {
	checkStops(t,
		stopCase{"string.Formatter().parse('{{' * 10**7)", wantSpent},
		stopCase{"string.Template('$a' * 10**6).substitute(a='x' * 1000)", wantSpent},
		stopCase{"x = [[0] * 10**6] * 10**3\ncopy.deepcopy(x)", wantSpent},
		stopCase{"t = [([],)]\nfor _ in range(60):\n    t = [t[0], t[0]]\n    t = [(t[0], t[1])]\ncopy.deepcopy([[t] * 10**6] * 10)", wantSpent},
	)
}

// deepcopy copies a tuple once however often it is reached, as CPython's
// memo does: forty tuples that each hold the one before twice (2⁴⁰
// paths) copy at once, and the copy shares as the original does.
func TestDeepCopySharedTuples(t *testing.T) {
	code := "t = ([],)\nfor _ in range(60):\n    t = (t, t)\nc = copy.deepcopy(t)\n[c[0] is c[1], c is not t, c[0][0] is c[1][1]]"
	res, err := run(code, interp.Options{Timeout: 5 * time.Second, MaxSteps: 1_000_000})
	if err != nil || res.Text != "[true,true,true]" {
		t.Fatalf("got %v, %v", res, err)
	}
}
