package stdlib

import (
	"testing"
	"time"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestDifferentialUnicodeData checks unicodedata against CPython
// (testdata/unicodedata_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialUnicodeData -update).
func TestDifferentialUnicodeData(t *testing.T) {
	pydiff.Check(t, "testdata/unicodedata_cases.txt", *update, eval)
}

// lookup searches the named characters: each call is charged, so a loop
// of lookups ends with the budget.
func TestUnicodeDataBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import unicodedata\nfor i in range(10 ** 9):\n    try:\n        unicodedata.lookup('NO SUCH NAME')\n    except KeyError:\n        pass",
		"import unicodedata\nx = unicodedata.normalize('NFD', '\\u00e9' * 10 ** 8)",
	)
}

// The worst inputs of unicodedata at a server's budgets: normalizing a
// long text (one uninterruptible call of x/text before), decompositions
// many times longer than their text, name lookups that search every
// character.
func TestUnicodeDataStop(t *testing.T) {
	checkStops(t,
		stopCase{"s = '\\u1e9b\\u0323' * 10**6\nfor _ in range(10**9):\n    unicodedata.normalize('NFKD', s)", wantTime},
		stopCase{"s = '\\u1e9b\\u0323' * 10**6\nfor _ in range(10**9):\n    unicodedata.is_normalized('NFC', s)", wantTime},
		stopCase{"s = '\\ufdfa' * 10**6\nfor _ in range(10**9):\n    s = unicodedata.normalize('NFKD', s)", wantSpent},
		stopCase{"for _ in range(10**9):\n    try:\n        unicodedata.lookup('NO SUCH NAME')\n    except KeyError:\n        pass", wantTime},
	)
	checkStopsAfter(t, 3*time.Second,
		stopCase{"unicodedata.normalize('NFKD', '\\ufdfa' * 10**7)", `^(memory limit of 256 MiB|timed out after 3.2s)`},
	)
}
