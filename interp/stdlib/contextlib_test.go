package stdlib

import (
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// A budget that stops the body of a with statement, or an __exit__ of
// contextlib's, ends the run: suppress(Exception) and suppress(BaseException)
// swallow no budget; an ExitStack or a redirect that grows without end
// meets the memory limit; an exit callback that never ends meets the
// deadline. Each ends in time and leaves the process quiet.
func TestContextlibStops(t *testing.T) {
	checkStops(t,
		stopCase{"import contextlib\nwith contextlib.suppress(Exception):\n    while True:\n        pass", wantTime},
		stopCase{"import contextlib\ntry:\n    with contextlib.suppress(BaseException):\n        xs = []\n        while True:\n            xs.append('x' * 100000)\nexcept BaseException:\n    pass", wantSpent},
		stopCase{"import contextlib\ns = contextlib.ExitStack()\nwhile True:\n    s.callback(print, 'x' * 1000)", wantSpent},
		stopCase{"import contextlib\ndef spin(*a):\n    while True:\n        pass\nwith contextlib.ExitStack() as s:\n    s.push(spin)\n    s.callback(spin)", wantTime},
		stopCase{"import contextlib, io\nbuf = io.StringIO()\nwith contextlib.redirect_stdout(buf):\n    while True:\n        print('x' * 10000)", wantSpent},
		stopCase{"import decimal\nwith decimal.localcontext() as c:\n    c.prec = 5000\n    x = decimal.Decimal(1)\n    while True:\n        x = x / 7 + 1", wantTime},
	)
}

// After a redirect ends (normally or by an exception), print writes to
// the run's output again; a redirect to sys.stdout itself prints once; a
// target without write is CPython's AttributeError.
func TestRedirectRestored(t *testing.T) {
	tests := []struct{ code, want string }{
		{"import contextlib, io\nb = io.StringIO()\ntry:\n    with contextlib.redirect_stdout(b):\n        print('in')\n        raise ValueError('v')\nexcept ValueError:\n    pass\nprint('out', repr(b.getvalue()))", "out 'in\\n'"},
		{"import contextlib, sys\nwith contextlib.redirect_stdout(sys.stdout):\n    print('once')", "once"},
		{"import contextlib, io\nr = contextlib.redirect_stdout(io.StringIO())\nwith r:\n    with r:\n        print('x')\nprint('back')", "back"},
		{"import contextlib\ntry:\n    with contextlib.redirect_stdout(5):\n        print(1)\nexcept AttributeError as e:\n    print(e)", "'int' object has no attribute 'write'"},
		{"import contextlib, io, sys\ne = io.StringIO()\nwith contextlib.redirect_stderr(e):\n    print('err', file=sys.stderr)\n    print('out')\nprint(repr(e.getvalue()))", "out\n'err\\n'"},
	}
	for _, tt := range tests {
		res, err := run(tt.code, interp.Options{Timeout: 5 * time.Second, Explain: pyrt.Explain})
		if err != nil {
			t.Errorf("%s: %v", tt.code, err)
			continue
		}
		if res.Printed != tt.want {
			t.Errorf("%s\n got: %q\nwant: %q", tt.code, res.Printed, tt.want)
		}
	}
}
