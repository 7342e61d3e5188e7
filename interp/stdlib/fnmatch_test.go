package stdlib

import (
	"errors"
	"testing"

	"github.com/onetool-dev/onetool/interp"
)

// fnmatch's edge cases, with what CPython 3.11 answers.
func TestFNMatch(t *testing.T) {
	for _, c := range []struct{ code, want string }{
		{`fnmatch.fnmatch("a/b.py", "*.py")`, "True"},
		{`fnmatch.fnmatch("x\ny.py", "*.py")`, "True"},
		{`fnmatch.fnmatch("Data.CSV", "*.csv")`, "False"},
		{`fnmatch.fnmatch("[", "[")`, "True"},
		{`fnmatch.fnmatch("]", "[]]")`, "True"},
		{`fnmatch.fnmatch("a", "[!]]")`, "True"},
		{`fnmatch.fnmatch("b", "[z-a]")`, "False"},
		{`fnmatch.fnmatch("-", "[a-]")`, "True"},
		{`fnmatch.fnmatch("\\x", "\\*")`, "True"},
		{`fnmatch.fnmatch("aXbYc", "*a*b*c")`, "True"},
		{`fnmatch.filter(["a.py", "b.txt", "c.py"], "*.py")`, `["a.py","c.py"]`},
		{`fnmatch.translate("*a*b?[!x-z]")`, `(?s:(?>.*?a).*b.[^x-z])\Z`},
		{`fnmatch.translate("[^&]")`, `(?s:[\^\&])\Z`},
	} {
		res, err := run("import fnmatch\n_r = "+c.code+"\n_r", interp.Options{})
		if err != nil {
			t.Errorf("%s: %v", c.code, err)
			continue
		}
		if res.Text != c.want {
			t.Errorf("%s = %s, want %s", c.code, res.Text, c.want)
		}
	}
	_, err := run("import fnmatch\nfnmatch.filter(['ab' * 100000] * 100, '*a*a*a*c')", interp.Options{MaxSteps: 100000})
	if !errors.Is(err, interp.ErrStepLimit) {
		t.Errorf("a long filter: %v, want the step limit", err)
	}
}
