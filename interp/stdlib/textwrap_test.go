package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestDifferentialTextWrap checks the textwrap module against CPython
// (testdata/textwrap_cases.txt).
func TestDifferentialTextWrap(t *testing.T) {
	pydiff.Check(t, "testdata/textwrap_cases.txt", *update, eval)
}

// Wrapping, indenting and dedenting huge texts ends with the run's
// budget.
func TestTextWrapBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import textwrap\ntextwrap.wrap('word ' * 10 ** 7, 20)",
		"import textwrap\ntextwrap.fill('x' * 10 ** 6, 1)",
		"import textwrap\nt = 'word ' * 10 ** 5\nfor _ in range(10 ** 6):\n    textwrap.wrap(t, 30)",
		"import textwrap\nt = 'line\\n' * 10 ** 5\nfor _ in range(10 ** 6):\n    textwrap.indent(t, '> ')",
		"import textwrap\nt = '  line\\n' * 10 ** 5\nfor _ in range(10 ** 6):\n    textwrap.dedent(t)",
		// A long indent copied onto each of many short lines (1 GB):
		// the lines stop at the memory budget instead of being built.
		"import textwrap\ntextwrap.wrap('a ' * 10 ** 5, 5, subsequent_indent=' ' * 10 ** 4)",
		"import textwrap\ntextwrap.fill('a ' * 10 ** 5, 5, initial_indent='>', subsequent_indent='.' * 10 ** 4)",
	)
}

// The worst inputs of textwrap at a server's budgets: tabs of a huge
// tabsize, long indents over many lines, huge texts wrapped over and
// over.
func TestTextWrapStop(t *testing.T) {
	checkStops(t,
		stopCase{"textwrap.wrap('\\t' * 1000, tabsize=10**7)", wantMemory},
		stopCase{"textwrap.fill('a ' * 10**6, width=2, subsequent_indent=' ' * 10**4)", wantSpent},
		stopCase{"textwrap.indent('x\\n' * 10**6, ' ' * 10**4)", wantSpent},
		stopCase{"textwrap.wrap('x' * 10**7, width=1)", wantSpent},
		stopCase{"s = 'word ' * 10**5\nfor _ in range(10**9):\n    textwrap.fill(s)", wantTime},
		stopCase{"s = ' x\\n' * 10**6\nfor _ in range(10**9):\n    textwrap.dedent(s)", wantTime},
	)
}
