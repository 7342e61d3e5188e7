package pyrt

import (
	"context"
	"testing"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// Inputs of one session share their variables as a Python module does,
// also the ones the front end keeps in cells: a global a function rebinds,
// names a try assigns, := and del.
func TestSessionPython(t *testing.T) {
	s := interp.NewSession(testGlobals(), "")
	ctx := context.Background()
	run := func(code string) string {
		t.Helper()
		res, err := s.Run(ctx, code, interp.Options{Parse: python.Parse, ParseWithCells: python.ParseWithCells, Explain: Explain})
		if err != nil {
			return "error: " + err.Error()
		}
		return res.Text
	}
	for _, st := range []struct{ code, want string }{
		{"count = 0\ndef bump():\n    global count\n    count += 1", "OK (no return value)"},
		{"bump()", "None"},
		{"count", "1"},
		{"count = 10", "OK (no return value)"},
		{"bump()\nbump()", "None"},
		{"count", "12"},
		{"try:\n    n = int('7')\nexcept ValueError:\n    n = -1\nn", "7"},
		{"n + 1", "8"},
		{"try:\n    n = int('x')\nexcept ValueError as e:\n    msg = str(e)\nmsg", "invalid literal for int() with base 10: 'x'"},
		{"n", "7"},
		{"if (m := len('abc')) > 2:\n    big = True\n[m, big]", "[3,true]"},
		{"m", "3"},
		{"del m\nm", "error: line 2: NameError: name 'm' is not defined"},
		{"def reset():\n    global count\n    count = 0\nreset()\ncount", "0"},
		{"bump()\ncount", "1"},
	} {
		if got := run(st.code); got != st.want {
			t.Errorf("%q = %q, want %q", st.code, got, st.want)
		}
	}
}
