package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestDifferentialOperator checks the operator module against CPython
// (testdata/operator_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialOperator -update).
func TestDifferentialOperator(t *testing.T) {
	pydiff.Check(t, "testdata/operator_cases.txt", *update, eval)
}
