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
