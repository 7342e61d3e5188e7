package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestDifferentialIO checks io.StringIO against CPython
// (testdata/io_cases.txt).
func TestDifferentialIO(t *testing.T) {
	pydiff.Check(t, "testdata/io_cases.txt", *update, eval)
}

// Writing, reading and listing huge texts ends with the run's budget.
func TestIOBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import io\nf = io.StringIO()\nwhile True:\n    f.write('x' * 1000)",
		"import io\nf = io.StringIO('ab\\n' * 10 ** 6)\nf.readlines()",
		"import io\nf = io.StringIO('ab\\n' * 10 ** 5)\nfor _ in range(10 ** 6):\n    f.seek(0)\n    f.getvalue()",
		"import io\nf = io.StringIO()\nf.writelines(['x' * 100] * 10 ** 7)",
	)
}

// The worst inputs of io at a server's budgets: a StringIO or BytesIO
// written without end (the meter sees what they hold), a write far past
// the end, readlines of a huge text.
func TestIOStop(t *testing.T) {
	checkStops(t,
		stopCase{"f = io.StringIO()\nfor _ in range(10**9):\n    f.write('x' * 10**6)", wantSpent},
		stopCase{"f = io.BytesIO()\nfor _ in range(10**9):\n    f.write(b'x' * 10**6)", wantSpent},
		stopCase{"f = io.BytesIO()\nf.seek(10**9)\nf.write(b'x')", wantMemory},
		stopCase{"f = io.StringIO()\nf.seek(10**9)\nf.write('x')", wantMemory},
		stopCase{"f = io.StringIO('x\\n' * 10**7)\nfor _ in range(10**9):\n    f.seek(0)\n    f.readlines()", wantSpent},
		stopCase{"f = io.StringIO()\nf.writelines(itertools.repeat('x' * 1000))", wantSpent},
	)
}
