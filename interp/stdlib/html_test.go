package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestDifferentialHTML checks the html module against CPython
// (testdata/html_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialHTML -update).
func TestDifferentialHTML(t *testing.T) {
	pydiff.Check(t, "testdata/html_cases.txt", *update, eval)
}

// Escaping or unescaping a text past the memory budget, or many times
// over, ends with the budget.
func TestHTMLBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import html\ns = '<' * (4 << 20)\nhtml.escape(s)",
		"import html\ns = '&lt;' * (3 << 20)\nhtml.unescape(s)",
		"import html\ns = '&' * (1 << 20)\nfor i in range(10 ** 6):\n    html.unescape(s)",
		"import html\ns = 'x' * (1 << 20) + '<'\nfor i in range(10 ** 6):\n    html.escape(s)",
	)
}
