package interp

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"go.starlark.net/starlark"
)

func TestSessionKeepsGlobals(t *testing.T) {
	s := NewSession(StdGlobals(), "Available packs: none")
	ctx := context.Background()
	steps := []struct{ code, want, err string }{
		{"x = 2", "", ""},
		{"# only a comment", "", ""},
		{"", "", ""},
		{"x * 21", "42", ""},
		{"x = x + 1\nx", "3", ""},
		{"def double(n):\n    return n * 2", "", ""},
		{"double(x)", "6", ""},
		{"items = []", "", ""},
		{"items.append(1)\nitems.append(2)", "None", ""},
		{"items", "[1, 2]", ""},
		{"y = 1\n1 // 0", "", "line 2: division by zero"},
		{"y", "1", ""}, // set before the error: kept
		{"zz", "", "line 1: 'zz' is not defined. Available packs: none"},
		{"return x * 100", "300", ""},
		{"def f():\n    return undefined_name\nf()", "", "line 2: 'undefined_name' is not defined. Available packs: none"},
	}
	for _, st := range steps {
		res, err := s.Run(ctx, st.code, Options{})
		if st.err != "" {
			if err == nil || err.Error() != st.err {
				t.Errorf("%q: error %v, want %q", st.code, err, st.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", st.code, err)
		}
		got := ""
		if res.Value != nil {
			got = res.Value.String()
		}
		if got != st.want {
			t.Errorf("%q = %q, want %q", st.code, got, st.want)
		}
	}
	if names := s.Names(); !slices.Equal(names, []string{"double", "items", "x", "y"}) {
		t.Errorf("Names() = %v", names)
	}
	s.Reset()
	if _, err := s.Run(ctx, "x", Options{}); err == nil {
		t.Error("x survived Reset")
	}
	if res, err := s.Run(ctx, "math.floor(1.5)", Options{}); err != nil || res.Value.String() != `1` {
		t.Errorf("predeclared lost by Reset: %v %v", res, err)
	}
}

// Budgets apply per input; a timed-out input leaves the session usable.
func TestSessionBudgets(t *testing.T) {
	s := NewSession(starlark.StringDict{}, "")
	_, err := s.Run(context.Background(), "n = 0\nwhile True:\n    n += 1", Options{Timeout: 50 * time.Millisecond})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("error = %v", err)
	}
	res, err := s.Run(context.Background(), "n > 0", Options{})
	if err != nil || res.Value != starlark.True {
		t.Errorf("after the timeout: %v %v", res, err)
	}
}

// Values a session keeps count against the memory budget: a list grown
// across inputs ends with the memory error.
func TestSessionMemory(t *testing.T) {
	s := NewSession(starlark.StringDict{}, "")
	w := NewWatchdog()
	opts := Options{MaxMemory: 32 << 20, Watchdog: w, Timeout: 20 * time.Second}
	if _, err := s.Run(context.Background(), "rows = []", opts); err != nil {
		t.Fatal(err)
	}
	_, err := s.Run(context.Background(), "while True:\n    rows.append(\"row %d \" % len(rows) + \"-\" * 200)", opts)
	if !errors.Is(err, ErrMemoryLimit) {
		t.Errorf("error = %v, want the memory limit", err)
	}
}

// Functions see the current value of session globals, whichever input
// assigned them; augmented and tuple assignments are session assignments
// too, and a failed input keeps what it assigned before failing.
func TestSessionLiveGlobals(t *testing.T) {
	s := NewSession(starlark.StringDict{}, "")
	ctx := context.Background()
	run := func(code string) string {
		t.Helper()
		res, err := s.Run(ctx, code, Options{})
		if err != nil {
			return "error: " + err.Error()
		}
		if res.Value == nil {
			return ""
		}
		return res.Value.String()
	}
	for _, st := range []struct{ code, want string }{
		{"count = 0\ndef bump():\n    return count + 1", ""},
		{"count = 5", ""},
		{"bump()", "6"},
		{"count += 10\nbump()", "16"},
		{"a, b = 1, 2\n(a, b)", "(1, 2)"},
		{"a, b = [1]", "error: line 1: too few values to unpack (got 1, want 2)"},
		{"if True:\n    flag = 'set'\nflag", `"set"`},
		{"for i in range(3):\n    last = i\n[i, last]", "[2, 2]"},
		{"z = 1\nfail('stop')", "error: line 2: fail: stop"},
		{"z", "1"},
		{"never_set = undefined_thing", "error: line 1: 'undefined_thing' is not defined."},
		{"never_set", "error: line 1: 'never_set' is not defined.\ndid you mean 'reversed'?"},
	} {
		if got := run(st.code); got != st.want {
			t.Errorf("%q = %q, want %q", st.code, got, st.want)
		}
	}
}
