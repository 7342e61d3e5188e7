package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// reEval evaluates one case as CPython's side does: a str result as
// itself, anything else as its repr.
func reEval(code string) pydiff.Outcome {
	return eval("_v = (" + code + ")\n_v if isinstance(_v, str) else repr(_v)")
}

func TestDifferentialRE(t *testing.T) {
	pydiff.Check(t, "testdata/re_cases.txt", *update, reEval)
}
