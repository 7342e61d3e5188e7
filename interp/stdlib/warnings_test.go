package stdlib

import (
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/interp"
)

// A run's warning filters, which the memory meter does not see: an equal
// filter replaces the one there (as CPython's), and distinct ones are
// bounded with an error that says what to do.
func TestWarningFiltersBounded(t *testing.T) {
	res, err := run("import warnings\nfor i in range(5000):\n    warnings.simplefilter('ignore')\nwarnings.warn('x')\nprint('quiet')", interp.Options{})
	if err != nil || res.Printed != "quiet" {
		t.Fatalf("%v %q", err, res.Printed)
	}
	_, err = run("import warnings\nfor i in range(20000):\n    warnings.filterwarnings('ignore', message='m%d' % i)", interp.Options{})
	if err == nil || !strings.Contains(err.Error(), "MemoryError: more than 10000 warning filters") {
		t.Errorf("20,000 distinct filters: %v", err)
	}
}
