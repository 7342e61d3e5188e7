package pyrt

import (
	"testing"

	"github.com/onetool-dev/onetool/interp"
)

// The helpers' quick paths (quickcompare.go) answer as the general path
// and as CPython do: ints of 64 bits and beyond, NaN, -0.0, a float
// against an int, str of both kinds, a bool against an int, and x op= y
// that overflows 64 bits or meets a list, a set or a str. The word
// "class" in each program makes the lowering send its comparisons and
// augmented assignments to the helpers (mayHoldInstances). The expected
// outputs are CPython 3.11's.
func TestHelperQuickPathsAsCPython(t *testing.T) {
	tests := []struct{ code, want string }{
		{"# class\nxs = [1, 2]\nx = xs[0]\ny = xs[1]\nprint(x < y, x <= y, x > y, x >= y, x == y, x != y)", "True True False False False True"},
		{"# class\nxs = [2**70, 2**70 + 1]\nx = xs[0]\ny = xs[1]\nprint(x < y, x <= y, x > y, x >= y, x == y, x != y)", "True True False False False True"},
		{"# class\nxs = [2**63 - 1, -2**63]\nx = xs[0]\ny = xs[1]\nprint(x < y, x <= y, x > y, x >= y, x == y, x != y)", "False False True True False True"},
		{"# class\nxs = [float('nan'), float('nan')]\nx = xs[0]\ny = xs[1]\nprint(x < y, x <= y, x > y, x >= y, x == y, x != y)", "False False False False False True"},
		{"# class\nxs = [1.5, 1]\nx = xs[0]\ny = xs[1]\nprint(x < y, x <= y, x > y, x >= y, x == y, x != y)", "False False True True False True"},
		{"# class\nxs = [1, 1.0]\nx = xs[0]\ny = xs[1]\nprint(x < y, x <= y, x > y, x >= y, x == y, x != y)", "False True False True True False"},
		{"# class\nxs = ['ab', 'b']\nx = xs[0]\ny = xs[1]\nprint(x < y, x <= y, x > y, x >= y, x == y, x != y)", "True True False False False True"},
		{"# class\nxs = ['é', 'e']\nx = xs[0]\ny = xs[1]\nprint(x < y, x <= y, x > y, x >= y, x == y, x != y)", "False False True True False True"},
		{"# class\nxs = [True, 1]\nx = xs[0]\ny = xs[1]\nprint(x < y, x <= y, x > y, x >= y, x == y, x != y)", "False True False True True False"},
		{"# class\nxs = [-0.0, 0.0]\nx = xs[0]\ny = xs[1]\nprint(x < y, x <= y, x > y, x >= y, x == y, x != y)", "False True False True True False"},
		{"# class\nxs = ['a', 'a']\nx = xs[0]\ny = xs[1]\nprint(x < y, x <= y, x > y, x >= y, x == y, x != y)", "False True False True True False"},
		{"# class\nxs = [2**62, 2**62]\nt = xs[0]\nt += xs[1]\nprint(t)", "9223372036854775808"},
		{"# class\nxs = [-2**63, 1]\nt = xs[0]\nt -= xs[1]\nprint(t)", "-9223372036854775809"},
		{"# class\nxs = [0, -2**63]\nt = xs[0]\nt -= xs[1]\nprint(t)", "9223372036854775808"},
		{"# class\nxs = [0.5, 0.25]\nt = xs[0]\nt += xs[1]\nprint(t)", "0.75"},
		{"# class\nxs = [0.5, 2]\nt = xs[0]\nt -= xs[1]\nprint(t)", "-1.5"},
		{"# class\nxs = [[1], (2,)]\nt = xs[0]\nt += xs[1]\nprint(t)", "[1, 2]"},
		{"# class\nxs = ['a', 'é']\nt = xs[0]\nt += xs[1]\nprint(t)", "aé"},
		{"# class\nxs = [{1, 2}, {2}]\nt = xs[0]\nt -= xs[1]\nprint(sorted(t))", "[1]"},
		{"# class\nxs = [True, 1]\nt = xs[0]\nt += xs[1]\nprint(t)", "2"},
		// in: a list or tuple of plain values, an int against a float.
		{"# class\nxs = [1, 2.0, 'a', (1,), [2]]\nprint(1 in xs, 2 in xs, 'a' in xs, 3 in xs, 1.0 in tuple(xs), 'b' not in xs, [2] in xs)", "True True True False True True True"},
	}
	for _, tt := range tests {
		res, err := run(t, tt.code, interp.Options{})
		if err != nil {
			t.Errorf("%q: %v", tt.code, err)
			continue
		}
		if got := res.Printed; got != tt.want {
			t.Errorf("%q printed %q, want %q", tt.code, got, tt.want)
		}
	}
}
