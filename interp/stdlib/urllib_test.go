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

// The worst inputs of urllib.parse and calendar at a server's budgets:
// query strings of a hundred million fields, endless pairs and
// components, texts far longer once quoted.
func TestURLLibStop(t *testing.T) {
	checkStops(t,
		stopCase{"urllib.parse.parse_qsl('&' * 10**8, keep_blank_values=True)", wantSpent},
		stopCase{"urllib.parse.parse_qs('a=1&' * 10**7)", wantSpent},
		stopCase{"urllib.parse.urlencode({'a': ['x' * 1000] * 10**6}, doseq=True)", wantSpent},
		stopCase{"g = (str(i) for i in itertools.count())\nurllib.parse.urlunsplit(g)", `ValueError: too many values`},
		stopCase{"s = '\\u00e9' * 10**7\nfor _ in range(10**9):\n    urllib.parse.quote(s)", wantSpent},
		stopCase{"calendar.timegm(itertools.count())", `TypeError`},
		stopCase{"calendar.timegm((1970, 1, 10**4999 * 9, 0, 0, 0))", wantInt},
	)
}
