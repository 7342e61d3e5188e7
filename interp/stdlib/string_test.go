package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestDifferentialString checks the string module against CPython
// (testdata/string_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialString -update).
func TestDifferentialString(t *testing.T) {
	pydiff.Check(t, "testdata/string_cases.txt", *update, eval)
}
