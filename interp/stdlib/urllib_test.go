package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestDifferentialURLLib checks urllib.parse against CPython
// (testdata/urllib_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialURLLib -update).
func TestDifferentialURLLib(t *testing.T) {
	pydiff.Check(t, "testdata/urllib_cases.txt", *update, eval)
}

// Quoting, unquoting, parsing and encoding huge texts or endless
// sequences end with the budget.
func TestURLLibBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import urllib.parse\ns = '\\u00e9' * (2 << 20)\nurllib.parse.quote(s)",
		"import urllib.parse\ns = '%41' * (2 << 20)\nfor i in range(10 ** 6):\n    urllib.parse.unquote(s)",
		"import urllib.parse\nurllib.parse.urlencode({'k': range(10 ** 9)}, doseq=True)",
		"import urllib.parse\nv = 'x' * (1 << 20)\nurllib.parse.urlencode({str(i): v for i in range(40)})",
		"import urllib.parse\ns = 'a=1&' * (2 << 20)\nurllib.parse.parse_qs(s)",
		"import urllib.parse\nu = 'http://x/' + 'a/' * (1 << 20)\nfor i in range(10 ** 6):\n    urllib.parse.urljoin(u, '../b')",
	)
}
