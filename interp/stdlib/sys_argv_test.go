package stdlib

import (
	"context"
	"testing"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// WithArgv gives one run its command line wherever the program looks
// for it, read-only as CPython's is not but as every sys value here is,
// and leaves the shared globals (and so every other run) with
// ['<string>'].
func TestWithArgv(t *testing.T) {
	base := globals()
	pre := WithArgv(base, []string{"prog.py", "a", "--flag"}, []string{"onetool", "run", "prog.py", "a", "--flag"})
	for _, tc := range []struct{ code, want string }{
		{"sys.argv", `["prog.py","a","--flag"]`},
		{"import sys\nsys.argv[1:]", `["a","--flag"]`},
		{"from sys import argv\nargv", `["prog.py","a","--flag"]`},
		{"import sys\nsys.modules['sys'].argv", `["prog.py","a","--flag"]`},
		{"import sys\nsys.modules['sys'] is sys", `True`},
		{"import sys\nsys.orig_argv", `["onetool","run","prog.py","a","--flag"]`},
		{"import sys\nsys.version_info[0]", `3`},
		{"import sys\ntry:\n    sys.argv.append('x')\nexcept Exception as e:\n    r = type(e).__name__\nr", `TypeError`},
	} {
		res, err := interp.Exec(context.Background(), tc.code, interp.Options{Predeclared: pre, Parse: python.Parse})
		if err != nil {
			t.Errorf("%q: %v", tc.code, err)
			continue
		}
		if res.Text != tc.want {
			t.Errorf("%q = %s, want %s", tc.code, res.Text, tc.want)
		}
	}
	// The shared globals keep the default.
	res, err := interp.Exec(context.Background(), "import sys\n[sys.argv, sys.modules['sys'].argv]", interp.Options{Predeclared: base, Parse: python.Parse})
	if err != nil || res.Text != `[["<string>"],["<string>"]]` {
		t.Errorf("argv of the shared globals after WithArgv = %v, %v; want [\"<string>\"] twice", res, err)
	}
	if got := WithArgv(nil, []string{"x"}, nil); got != nil {
		t.Errorf("WithArgv without sys = %v, want it unchanged", got)
	}
}
