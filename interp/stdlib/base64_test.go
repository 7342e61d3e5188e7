package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestDifferentialBase64 checks the base64 module against CPython
// (testdata/base64_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialBase64 -update).
func TestDifferentialBase64(t *testing.T) {
	pydiff.Check(t, "testdata/base64_cases.txt", *update, eval)
}

// Encoding or decoding a value past the memory budget, or many times
// over, ends with the budget before the output is made.
func TestBase64Bounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import base64\nd = b'x' * (12 << 20)\nbase64.b64encode(d)",
		"import base64\nd = b'x' * (12 << 20)\nbase64.b16encode(d)",
		"import base64\nd = b'x' * (1 << 20)\nfor i in range(10 ** 6):\n    base64.b64encode(d)",
		"import base64\nd = 'QUFB' * (1 << 20)\nfor i in range(10 ** 6):\n    base64.b64decode(d)",
	)
}
