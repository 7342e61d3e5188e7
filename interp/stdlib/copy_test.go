package stdlib

import (
	"errors"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
)

// TestDifferentialCopy checks the copy module against CPython
// (testdata/copy_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialCopy -update).
func TestDifferentialCopy(t *testing.T) {
	pydiff.Check(t, "testdata/copy_cases.txt", *update, eval)
}

// A deep copy of a structure that shares its parts is charged once per
// part (the memo), a cycle ends, and a copy too large for the budget
// ends the run; one nested too deep is refused.
func TestCopyBounded(t *testing.T) {
	opts := func() interp.Options {
		return interp.Options{Timeout: 5 * time.Second, MaxSteps: 1e6, MaxMemory: 16 << 20, Watchdog: interp.NewWatchdog()}
	}
	// 2**40 paths through 40 levels of one shared list: copied once each.
	res, err := run("import copy\nx = [1]\nfor i in range(40):\n    x = [x, x]\ny = copy.deepcopy(x)\ny[0] is y[1]", opts())
	if err != nil || res.Text != "True" {
		t.Fatalf("shared structure: %q %v", res.Text, err)
	}
	checkBounded(t, 1e6,
		"import copy\nx = list(range(10 ** 5))\nfor i in range(10 ** 9):\n    copy.deepcopy(x)",
		"import copy\nx = [list(range(1000)) for i in range(1000)]\ncopy.deepcopy(x)",
	)
	_, err = run("import copy\nx = []\nfor i in range(10 ** 4):\n    x = [x]\ncopy.deepcopy(x)", opts())
	if !errors.Is(err, interp.ErrTooDeep) {
		t.Errorf("deep nesting: %v, want %v", err, interp.ErrTooDeep)
	}
}
