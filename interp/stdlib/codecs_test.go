package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestProgramsCodecs: files written and read with encodings (utf-16,
// utf-8-sig, cp1252, …) give what CPython gives over the same tree:
// the same bytes written, the same text read.
func TestProgramsCodecs(t *testing.T) { checkFilePrograms(t, "testdata/codecs_programs.txt") }

// TestDifferentialCodecsModule checks the codecs module against CPython
// (testdata/codecs_module_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialCodecsModule -update).
func TestDifferentialCodecsModule(t *testing.T) {
	pydiff.CheckWith(t, "testdata/codecs_module_cases.txt", "import codecs", *update, eval)
}
