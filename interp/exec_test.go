package interp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"
)

// testGlobals are predeclared names for tests: a blocking builtin that
// honours the run's context, and one that fails.
func testGlobals() starlark.StringDict {
	d := StdGlobals()
	g := starlark.StringDict{}
	for k, v := range d {
		g[k] = v
	}
	g["block"] = starlark.NewBuiltin("block", func(th *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		<-Context(th).Done()
		return nil, Context(th).Err()
	})
	g["boom"] = starlark.NewBuiltin("boom", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		return nil, errors.New("boom failed: 404 Not Found")
	})
	g["__ot_pow"] = starlark.NewBuiltin("__ot_pow", nil) // a front end's helper: never suggested
	g["crash"] = starlark.NewBuiltin("crash", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		panic("kaboom")
	})
	g.Freeze()
	return g
}

func run(t *testing.T, code string, opts Options) (*Result, error) {
	t.Helper()
	if opts.Predeclared == nil {
		opts.Predeclared = testGlobals()
	}
	return Exec(context.Background(), code, opts)
}

func TestCapture(t *testing.T) {
	tests := []struct {
		name, code string
		want       string // Starlark repr of the value, "<none>" for no value
		printed    string
	}{
		{"last expression", "x = 2\nx * 21", "42", ""},
		{"single expression", `"hi"`, `"hi"`, ""},
		{"no value", "x = 1", "<none>", ""},
		{"empty", "", "<none>", ""},
		{"None value", "None", "None", ""},
		{"return", "x = 5\nreturn x + 1", "6", ""},
		{"return None", "return None", "None", ""},
		{"bare return", "return", "None", ""},
		{"return disables capture", "if False:\n    return 1\n2", "<none>", ""},
		{"return in if taken", "x = 3\nif x > 2:\n    return 'big'\nreturn 'small'", `"big"`, ""},
		{"return in for", "for i in range(10):\n    if i == 4:\n        return i", "4", ""},
		{"return in while", "i = 0\nwhile True:\n    i += 1\n    if i == 3:\n        return i", "3", ""},
		{"def return is not top level", "def f():\n    return 1\nf() + 1", "2", ""},
		{"nested defs in return mode", "def f(n):\n    return n if n < 2 else f(n-1) + f(n-2)\nreturn f(10)", "55", ""},
		{"closures in return mode", "k = 10\ndef add(x):\n    return x + k\nreturn [add(i) for i in range(2)]", "[10, 11]", ""},
		{"print only", `print("hello")`, "None", "hello"},
		{"print lines", "print('a')\nprint('b')\n1", "1", "a\nb"},
		{"set and while", "s = set([1, 2, 2])\ni = 0\nwhile i < 3:\n    i += 1\nlen(s) + i", "5", ""},
		{"reassign global", "x = 1\nx = 2\nx", "2", ""},
		{"top-level for", "t = 0\nfor i in range(4):\n    t += i\nt", "6", ""},
		{"recursion", "def f(n):\n    return 1 if n == 0 else n * f(n - 1)\nf(5)", "120", ""},
		{"libraries", `str(math.floor(1.5)) + struct(x=1).x * "!"`, `"1!"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := run(t, tt.code, Options{})
			if err != nil {
				t.Fatalf("Exec: %v", err)
			}
			got := "<none>"
			if res.Value != nil {
				got = res.Value.String()
			}
			if got != tt.want {
				t.Errorf("value = %s, want %s", got, tt.want)
			}
			if res.Printed != tt.printed {
				t.Errorf("printed = %q, want %q", res.Printed, tt.printed)
			}
		})
	}
}

func TestFormatDirective(t *testing.T) {
	for _, tt := range []struct{ code, want string }{
		{`__format__ = "yaml"` + "\n{}", "yaml"},
		{`__format__ = "json_h"` + "\nreturn 1", "json_h"},
		{"m = 'raw'\n__format__ = m\n1", "raw"},
		{"1", ""},
	} {
		res, err := run(t, tt.code, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Format != tt.want {
			t.Errorf("%q: format = %q, want %q", tt.code, res.Format, tt.want)
		}
	}
}

func TestGlobalsAreFresh(t *testing.T) {
	prog, err := Compile("x = [1]\nx.append(2)\nx", testGlobals(), "")
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		res, err := prog.Run(context.Background(), Options{Predeclared: testGlobals()})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Value.String(); got != "[1, 2]" {
			t.Fatalf("run sees state of an earlier run: %s", got)
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, code string
		kind       ErrorKind
		want       string // the full message
	}{
		{"syntax", "x = 1\ny = 2\nz = (1 +)", KindSyntax,
			"syntax error at line 3, column 9: got ')', want expression\n    z = (1 +)\n            ^"},
		{"runtime", "x = 1\ny = 0\nx // y", KindRuntime, "line 3: division by zero"},
		{"backtrace", "def helper(a):\n    return a // 0\n\nx = 1\n\nhelper(x)", KindRuntime,
			"line 2: division by zero (in helper, called from line 6)"},
		{"backtrace two levels", "def inner():\n    return 1 // 0\ndef outer():\n    return inner()\nouter()", KindRuntime,
			"line 2: division by zero (in inner, called from line 4 in outer, called from line 5)"},
		{"backtrace in return mode", "def helper():\n    return 1 // 0\nreturn helper()", KindRuntime,
			"line 2: division by zero (in helper, called from line 3)"},
		{"runtime in return mode", "x = 0\nif True:\n    return 1 // x", KindRuntime, "line 3: division by zero"},
		{"builtin failure", "x = 1\nboom()", KindRuntime, "line 2: boom failed: 404 Not Found"},
		{"builtin failure in function", "def f():\n    boom()\nf()", KindRuntime, "line 2: boom failed: 404 Not Found (in f, called from line 3)"},
		{"undefined", "brave.search(q=1)", KindUndefined, "line 1: 'brave' is not defined. Packs: x"},
		{"undefined with suggestion", "\nmth.floor(1)", KindUndefined, "line 2: 'mth' is not defined. Packs: x\ndid you mean 'math'?"},
		{"undefined near a helper", "pow(2, 3)", KindUndefined, "line 1: 'pow' is not defined. Packs: x"},
		{"undefined in return mode", "return nothing_here", KindUndefined, "line 1: 'nothing_here' is not defined. Packs: x"},
		{"undefined in a function", "def f():\n    return nothing_here\nx = 1\nf()", KindUndefined,
			"line 2: 'nothing_here' is not defined. Packs: x (in f, called from line 4)"},
		{"load", `load("x.star", "y")`, KindSyntax,
			"syntax error at line 1, column 1: load() is not available: every pack is already a global (see ot.packs())\n    load(\"x.star\", \"y\")\n    ^"},
		{"fail", `fail("bad input")`, KindRuntime, "line 1: fail: bad input"},
		{"panic", "x = 1\ncrash()", KindInternal, "internal error: kaboom"},
		{"deep recursion", "def f(n):\n    return f(n + 1)\nf(0)", KindRuntime, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run(t, tt.code, Options{UndefinedHint: "Packs: x"})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error = %v (%T), want *Error", err, err)
			}
			if e.Kind != tt.kind {
				t.Errorf("kind = %s, want %s", e.Kind, tt.kind)
			}
			if tt.want != "" && e.Error() != tt.want {
				t.Errorf("message =\n%s\nwant\n%s", e.Error(), tt.want)
			}
			for _, leak := range []string{"__ot_", "<run>", ".go:", "goroutine"} {
				if strings.Contains(e.Error(), leak) {
					t.Errorf("message leaks %q: %s", leak, e.Error())
				}
			}
		})
	}
}

// A name nothing defines fails when a line that reads it runs, as in
// CPython: what ran before it ran, and a line that never runs is no error.
func TestUndefinedWhenReached(t *testing.T) {
	_, err := run(t, "print('before')\nx = 2\nbrave.search(q=x)", Options{UndefinedHint: "Packs: x"})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindUndefined || e.Line != 3 || e.Printed != "before" ||
		e.Error() != "line 3: 'brave' is not defined. Packs: x" {
		t.Errorf("got %#v", err)
	}
	res, err := run(t, "x = 1\nif x > 5:\n    print(nowhere)\nx + 1", Options{})
	if err != nil || res.Value != starlark.MakeInt(2) {
		t.Errorf("a line that does not run failed: %v, %v", res, err)
	}
}

func TestDeepRecursionMessage(t *testing.T) {
	_, err := run(t, "def f(n):\n    return f(n + 1)\nf(0)", Options{})
	want := "line 2: recursion too deep (more than 100000 nested calls) (in f, called from line 2 in f, called from line 2 in f, called from line 2 ... "
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "in f, called from line 3)") {
		t.Errorf("got %v", err)
	}
}

// Recursion a million deep is an error with the usual text, never a Go
// stack overflow (which no recover can catch).
func TestMillionDeepRecursion(t *testing.T) {
	_, err := run(t, "def f(n):\n    return 0 if n == 0 else f(n - 1)\nf(1000000)", Options{})
	if err == nil || !strings.Contains(err.Error(), "recursion too deep (more than 100000 nested calls)") {
		t.Errorf("got %v", err)
	}
}

func TestPythonHints(t *testing.T) {
	for _, tt := range []struct{ code, hint string }{
		{`x = f"hi {y}"`, "f-strings"},
		{"try:\n    x = 1\nexcept:\n    pass", "no exceptions"},
		{"import os", "no import"},
		{"from os import path", "no import"},
		{"class A:\n    pass", "no classes"},
		{"x = None\nif x is None:\n    pass", "no 'is'"},
		{"2 ** 8", "math.pow"},
		{`raise ValueError("x")`, `fail("message")`},
	} {
		_, err := run(t, tt.code, Options{})
		if err == nil || !strings.Contains(err.Error(), "\nhint: ") || !strings.Contains(err.Error(), tt.hint) {
			t.Errorf("%q: error %v, want a hint containing %q", tt.code, err, tt.hint)
		}
	}
}

func TestStepLimit(t *testing.T) {
	_, err := run(t, "x = 0\nwhile True:\n    x += 1", Options{MaxSteps: 1000})
	if !errors.Is(err, ErrStepLimit) || !errors.Is(err, ErrLimit) {
		t.Fatalf("error = %v, want ErrStepLimit", err)
	}
	if got := err.Error(); !strings.HasPrefix(got, "step limit of 1000 exceeded at line ") {
		t.Errorf("message = %q", got)
	}
}

func TestTimeout(t *testing.T) {
	for _, code := range []string{"while True:\n    pass", "x = 1\nblock()"} {
		start := time.Now()
		_, err := run(t, code, Options{Timeout: 50 * time.Millisecond})
		if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%q: error = %v, want ErrTimeout and DeadlineExceeded", code, err)
		}
		if !strings.HasPrefix(err.Error(), "timed out after 50ms at line ") {
			t.Errorf("%q: message = %q", code, err.Error())
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%q: took %v to stop", code, d)
		}
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	_, err := Exec(ctx, "block()", Options{Predeclared: testGlobals()})
	if !errors.Is(err, ErrCancelled) || !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want cancellation", err)
	}
	var e *Error
	if errors.As(err, &e); e.Kind != KindCancelled || e.Error() != "cancelled at line 1" {
		t.Errorf("got %s %q", e.Kind, e.Error())
	}
}

func TestOutputLimit(t *testing.T) {
	res, err := run(t, "print('x' * 10)\nprint('y' * 10)", Options{MaxOutput: 15})
	if !errors.Is(err, ErrOutputLimit) {
		t.Fatalf("error = %v, res = %+v; want ErrOutputLimit", err, res)
	}
	if got := err.Error(); got != "printed output limit of 15 bytes exceeded at line 2 (set limits.max_output to raise it)" {
		t.Errorf("message = %q", got)
	}
	// What was printed up to the limit is kept, cut at a character and
	// marked, before the error.
	var e *Error
	if !errors.As(err, &e) || e.Printed != "xxxxxxxxxx\nyyyy\n"+OutputCutMark {
		t.Errorf("printed = %q", e.Printed)
	}
	_, err = run(t, "print('ab' + 'é' * 10)", Options{MaxOutput: 5})
	if !errors.As(err, &e) || e.Printed != "abé\n"+OutputCutMark {
		t.Errorf("cut inside a character: printed = %q", e.Printed)
	}
	if _, err := run(t, "for i in range(300000):\n    print(i)", Options{MaxOutput: 1 << 20}); !errors.Is(err, ErrOutputLimit) ||
		!strings.HasPrefix(err.Error(), "printed output limit of 1 MiB exceeded at line 2") {
		t.Errorf("loop: %v", err)
	}
}

// A pure Starlark loop has no tool to notice the context: the thread's own
// polling must stop it promptly.
func TestCancelPureLoop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	_, err := Exec(ctx, "x = 0\nwhile True:\n    x += 1", Options{Predeclared: testGlobals()})
	if !errors.Is(err, ErrCancelled) {
		t.Fatalf("error = %v, want cancellation", err)
	}
	// The bound leaves room for a loaded machine (CI's two cores run the
	// packages' tests at once): the poll itself takes microseconds.
	if d := time.Since(start) - 20*time.Millisecond; d > 250*time.Millisecond {
		t.Errorf("stopped %v after the cancel, want < 250ms", d)
	}
}

// The step budget is exact even though the thread also polls its context.
func TestStepLimitExact(t *testing.T) {
	for _, max := range []uint64{1, 49_999, 50_000, 50_001, 120_000} {
		_, err := run(t, "while True:\n    pass", Options{MaxSteps: max})
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindLimit || !strings.HasPrefix(e.Msg, fmt.Sprintf("step limit of %d exceeded", max)) {
			t.Errorf("MaxSteps %d: %v", max, err)
		}
	}
	res, err := run(t, "x = 0\nfor i in range(30000):\n    x += i\nx", Options{MaxSteps: 10_000_000})
	if err != nil || res.Value.String() != "449985000" {
		t.Errorf("a run under budget failed: %v", err)
	}
}

// Budgets stop a loop at the loop's own lines, whatever instruction the
// last step was, at top level, in return mode and inside functions.
func TestLimitLineInLoops(t *testing.T) {
	for _, tt := range []struct {
		code  string
		lines []int
	}{
		{"x = 0\nwhile True: pass", []int{2}},
		{"x = 0\nwhile True: x += 1", []int{2}},
		{"x = 0\nwhile True:\n    x += 1", []int{2, 3}},
		{"def spin():\n    while True: pass\nspin()", []int{2}},
		{"x = 0\nwhile True: pass\nreturn 1", []int{2}},
	} {
		for max := uint64(1000); max < 1012; max++ {
			_, err := run(t, tt.code, Options{MaxSteps: max})
			var e *Error
			if !errors.As(err, &e) || !slices.Contains(tt.lines, e.Line) {
				t.Errorf("%q with MaxSteps %d: %v, want a line in %v", tt.code, max, err, tt.lines)
			}
		}
	}
	res, err := run(t, "i = 0\nwhile i < 3:\n    i += 1\ni", Options{})
	if err != nil || res.Value.String() != "3" || res.Globals.Has(tickName) {
		t.Errorf("a marked loop changed behaviour: %v %v", res, err)
	}
}

// A builtin that panics fails at the caller's line like any failing
// builtin; the next run on the same globals is unaffected.
func TestBuiltinPanicRecovered(t *testing.T) {
	pre := starlark.StringDict{
		"boom": NewBuiltin("boom", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			var m map[string]int
			m["x"] = 1 // a nil-map write: a real runtime panic
			return starlark.None, nil
		}),
	}
	pre.Freeze()
	_, err := run(t, "x = 1\nboom()", Options{Predeclared: pre})
	if !errors.Is(err, ErrPanic) || err.Error() != "line 2: boom failed: panic: assignment to entry in nil map" {
		t.Errorf("error = %v", err)
	}
	if res, err := run(t, "1 + 1", Options{Predeclared: pre}); err != nil || res.Value.String() != "2" {
		t.Errorf("next run: %v, %v", res, err)
	}
}
