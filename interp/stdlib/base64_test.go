package stdlib

import (
	"testing"
	"time"

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
		"import base64\nbase64.a85decode('z' * 5 * 10**6)",
		"import base64\nbase64.a85decode('y' * 5 * 10**6, foldspaces=True)",
	)
}

// The worst inputs of base64 at a server's budgets: compressed forms that
// decode to far more than their text, long texts coded over and over.
func TestBase64Stop(t *testing.T) {
	checkStops(t,
		stopCase{"base64.a85decode('z' * 5 * 10**7)", wantSpent},
		stopCase{"d = b'x' * 10**7\nfor _ in range(10**9):\n    base64.encodebytes(d)", wantTime},
		stopCase{"d = 'QUFB' * 10**7\nfor _ in range(10**9):\n    base64.b64decode(d)", wantTime},
		stopCase{"d = b'x' * 10**7\nfor _ in range(10**9):\n    base64.a85decode(base64.a85encode(d))", wantTime},
		stopCase{"d = b'x' * 10**7\nfor _ in range(10**9):\n    base64.b85decode(base64.b85encode(d))", wantTime},
		stopCase{"d = b'x' * 10**7\nfor _ in range(10**9):\n    base64.b32decode(base64.b32encode(d))", wantTime},
		stopCase{"d = b'x' * 10**7\nfor _ in range(10**9):\n    base64.b16decode(base64.b16encode(d))", wantTime},
		stopCase{"d = b'\\xfb\\xff' * 5 * 10**6\nfor _ in range(10**9):\n    base64.urlsafe_b64decode(base64.urlsafe_b64encode(d))", wantTime},
		stopCase{"d = base64.b32encode(b'x' * 10**6).lower()\nfor _ in range(10**9):\n    base64.b32decode(d, casefold=True)", wantTime},
	)
	checkStopsAfter(t, 5*time.Second,
		stopCase{"base64.a85decode('z' * 7 * 10**7)", wantMemory},
		stopCase{"base64.a85decode(b'y' * 7 * 10**7, foldspaces=True)", wantMemory},
	)
}
