package stdlib

import (
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/interp"
)

// repr of a SimpleNamespace is written under the run's depth limit and
// cycle check, as a dict's: a chain nested deeper than the limit is an
// error, not a Go stack that grows with the program's data.
func TestSimpleNamespaceReprBounded(t *testing.T) {
	_, err := run("from types import SimpleNamespace\na = SimpleNamespace()\nfor i in range(5000):\n    a = SimpleNamespace(x=a)\nrepr(a)", interp.Options{})
	if err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("a namespace 5,000 deep: %v", err)
	}
	res, err := run("from types import SimpleNamespace\na = SimpleNamespace(n=1)\na.me = [a]\nprint(repr(a))", interp.Options{})
	if err != nil || res.Printed != "namespace(n=1, me=[namespace(...)])" {
		t.Errorf("a namespace inside a list inside itself: %v %q", err, res.Printed)
	}
}
