package stdlib

import (
	"testing"

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
