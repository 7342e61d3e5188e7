package pyrt

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// cmValue is a context manager written in Go, as the with statement
// meets the modules' ones: cm(name, suppress=False, fail=False) prints
// what its __enter__ and __exit__ are given, as the class of
// testdata's CPython prelude does (see TestWithAsCPython).
type cmValue struct {
	name           string
	suppress, fail bool
}

func (c *cmValue) String() string        { return "<cm " + c.name + ">" }
func (c *cmValue) Type() string          { return "cm" }
func (c *cmValue) Freeze()               {}
func (c *cmValue) Truth() starlark.Bool  { return true }
func (c *cmValue) Hash() (uint32, error) { return 0, nil }
func (c *cmValue) AttrNames() []string   { return []string{"__enter__", "__exit__"} }

func (c *cmValue) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__enter__":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return starlark.String(c.name), interp.Print(thread, "enter "+c.name+"\n")
		}), nil
	case "__exit__":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			typ := "None"
			if n, ok := args[0].(starlark.HasAttrs); ok {
				v, _ := n.Attr("__name__")
				typ, _ = starlark.AsString(v)
			}
			r, err := interp.Repr(interp.BudgetOf(thread), args[1])
			if err != nil {
				return nil, err
			}
			tbNone := "False"
			if args[2] == starlark.None {
				tbNone = "True"
			}
			if err := interp.Print(thread, "exit "+c.name+" "+typ+" "+r+" "+tbNone+"\n"); err != nil {
				return nil, err
			}
			if c.fail {
				return nil, exception("RuntimeError", "exit of %s", c.name)
			}
			return starlark.Bool(c.suppress), nil
		}), nil
	}
	return nil, nil
}

func cmGlobals() starlark.StringDict {
	g := starlark.StringDict{}
	for k, v := range testGlobals() {
		g[k] = v
	}
	g["cm"] = interp.NewBuiltin("cm", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		c := &cmValue{}
		return c, starlark.UnpackArgs(b.Name(), args, kwargs, "name", &c.name, "suppress?", &c.suppress, "fail?", &c.fail)
	})
	g.Freeze()
	return g
}

// runWith runs code with cm among its globals: what it printed, then the
// error that ended it.
func runWith(t *testing.T, code string, opts interp.Options) string {
	t.Helper()
	opts.Predeclared = cmGlobals()
	if opts.Timeout == 0 {
		opts.Timeout = 5 * time.Second
	}
	opts.Explain = Explain
	res, err := run(t, code, opts)
	if err != nil {
		var ie *interp.Error
		printed := ""
		if errors.As(err, &ie) && ie.Printed != "" {
			printed = ie.Printed + "\n"
		}
		return printed + "error: " + err.Error()
	}
	return res.Printed
}

// TestWithAsCPython: the with statement as CPython 3.11 runs it, the
// wants printed by python3 for the same programs with cm a class of
// __enter__ and __exit__ that print what they are given (the traceback
// CPython passes is a traceback object, here one too: never None).
func TestWithAsCPython(t *testing.T) {
	tests := []struct{ code, want string }{
		{"with cm(\"a\") as x:\n    print(\"body\", x)\nprint(\"after\", x)\n", "enter a\nbody a\nexit a None None True\nafter a"},
		{"with cm(\"a\") as x, cm(\"b\") as y:\n    print(x, y)\n", "enter a\nenter b\na b\nexit b None None True\nexit a None None True"},
		{"with (cm(\"a\") as x, cm(\"b\")):\n    print(x)\n", "enter a\nenter b\na\nexit b None None True\nexit a None None True"},
		{"with (cm(\"a\"), cm(\"b\") as y,):\n    print(y)\n", "enter a\nenter b\nb\nexit b None None True\nexit a None None True"},
		{"with cm(\"a\") as (p, q):\n    print(q, p)\n", "enter a\nexit a ValueError ValueError('not enough values to unpack (expected 2, got 1)') False\nerror: line 1: ValueError: not enough values to unpack (expected 2, got 1)"},
		{"d = {}\nclass_ = None\nwith cm(\"k\") as d[\"key\"]:\n    pass\nprint(d)\n", "enter k\nexit k None None True\n{'key': 'k'}"},
		{"with cm(\"a\", suppress=True):\n    raise ValueError(\"v\")\nprint(\"suppressed\")\n", "enter a\nexit a ValueError ValueError('v') False\nsuppressed"},
		{"try:\n    with cm(\"a\"):\n        {}[\"missing\"]\nexcept KeyError as e:\n    print(\"caught\", repr(e))\n", "enter a\nexit a KeyError KeyError('missing') False\ncaught KeyError('missing')"},
		{"try:\n    with cm(\"a\", fail=True):\n        int(\"x\")\nexcept RuntimeError as e:\n    print(e, \"context:\", repr(e.__context__))\n", "enter a\nexit a ValueError ValueError(\"invalid literal for int() with base 10: 'x'\") False\nexit of a context: ValueError(\"invalid literal for int() with base 10: 'x'\")"},
		{"try:\n    with cm(\"a\", fail=True):\n        pass\nexcept RuntimeError as e:\n    print(e, e.__context__)\n", "enter a\nexit a None None True\nexit of a None"},
		{"def f():\n    with cm(\"a\"):\n        return \"r\"\n    print(\"not here\")\nprint(f())\n", "enter a\nexit a None None True\nr"},
		{"for i in range(3):\n    with cm(str(i)):\n        if i == 0:\n            continue\n        if i == 1:\n            break\n    print(\"unreached\")\nprint(\"loop done\")\n", "enter 0\nexit 0 None None True\nenter 1\nexit 1 None None True\nloop done"},
		{"def g():\n    for i in range(2):\n        with cm(\"o\"):\n            with cm(\"i\"):\n                if i == 1:\n                    return i\n    return -1\nprint(g())\n", "enter o\nenter i\nexit i None None True\nexit o None None True\nenter o\nenter i\nexit i None None True\nexit o None None True\n1"},
		{"with cm(\"outer\", suppress=True):\n    with cm(\"inner\"):\n        raise TypeError(\"t\")\nprint(\"outer swallowed\")\n", "enter outer\nenter inner\nexit inner TypeError TypeError('t') False\nexit outer TypeError TypeError('t') False\nouter swallowed"},
		{"def h():\n    n = 0\n    with cm(\"a\") as v:\n        n += 1\n        w = v * 2\n    return n, w, v\nprint(h())\n", "enter a\nexit a None None True\n(1, 'aa', 'a')"},
		{"try:\n    with 5:\n        pass\nexcept TypeError as e:\n    print(e)\n", "'int' object does not support the context manager protocol"},
		{"try:\n    with cm(\"a\") as (p, q, r):\n        print(\"no\")\nexcept ValueError as e:\n    print(e)\n", "enter a\nexit a ValueError ValueError('not enough values to unpack (expected 3, got 1)') False\nnot enough values to unpack (expected 3, got 1)"},
		{"try:\n    raise KeyError(\"k\")\nexcept KeyError:\n    try:\n        with cm(\"a\"):\n            raise\n    except KeyError as e:\n        print(\"reraised\", repr(e))\n", "enter a\nexit a KeyError KeyError('k') False\nreraised KeyError('k')"},
		{"x = 0\nwhile True:\n    with cm(\"w\"):\n        x += 1\n        if x == 2:\n            break\nprint(x)\n", "enter w\nexit w None None True\nenter w\nexit w None None True\n2"},
		{"def k():\n    with cm(\"a\"):\n        with cm(\"b\", suppress=True):\n            return 1 / 0\n    return \"fell\"\nprint(k())\n", "enter a\nenter b\nexit b ZeroDivisionError ZeroDivisionError('division by zero') False\nexit a None None True\nfell"},
	}
	for _, tt := range tests {
		if got := runWith(t, tt.code, interp.Options{}); got != tt.want {
			t.Errorf("%s\n got: %q\nwant: %q", tt.code, got, tt.want)
		}
	}
}

// TestWithErrorsKeepTheirLine: an error in a with body, in its target or
// of a value without the protocol names the user's line.
func TestWithErrorsKeepTheirLine(t *testing.T) {
	tests := []struct{ code, want string }{
		{"x = 1\nwith 5:\n    pass", "error: line 2: TypeError: 'int' object does not support the context manager protocol"},
		{"with cm('a'):\n    x = 1\n    int('z')", "enter a\nexit a ValueError ValueError(\"invalid literal for int() with base 10: 'z'\") False\nerror: line 3: ValueError: invalid literal for int() with base 10: 'z'"},
		{"def f():\n    with cm('a', fail=True):\n        pass\nf()", "enter a\nexit a None None True\nerror: line 2: RuntimeError: exit of a (in f, called from line 4)"},
		{"with cm('a') as (p, q):\n    pass", "enter a\nexit a ValueError ValueError('not enough values to unpack (expected 2, got 1)') False\nerror: line 1: ValueError: not enough values to unpack (expected 2, got 1)"},
		// At the top level, as `python -m asyncio` runs it: cm has no
		// __aenter__.
		{"async with cm('a'):\n    pass", "error: line 1: TypeError: 'cm' object does not support the asynchronous context manager protocol"},
	}
	for _, tt := range tests {
		if got := runWith(t, tt.code, interp.Options{}); got != tt.want {
			t.Errorf("%s\n got: %q\nwant: %q", tt.code, got, tt.want)
		}
	}
}

// TestWithBudgetsUncatchable: a spent budget, a deadline or a cancelled
// run that stops a with body runs no __exit__ (which could suppress
// it): the run ends with the budget's error, even inside a manager that
// suppresses everything and a try that catches everything.
func TestWithBudgetsUncatchable(t *testing.T) {
	loop := "while True:\n        pass"
	tests := []struct {
		name string
		code string
		opts interp.Options
		want error
	}{
		{"steps", "with cm('s', suppress=True):\n    " + loop, interp.Options{MaxSteps: 100_000}, interp.ErrLimit},
		{"steps in try", "try:\n    with cm('s', suppress=True):\n        with cm('t', suppress=True):\n            while True:\n                pass\nexcept:\n    pass", interp.Options{MaxSteps: 100_000}, interp.ErrLimit},
		{"memory", "with cm('s', suppress=True):\n    xs = []\n    while True:\n        xs.append('x' * 1000)", interp.Options{MaxMemory: 4 << 20, Watchdog: interp.NewWatchdog()}, interp.ErrLimit},
		{"timeout", "with cm('s', suppress=True):\n    " + loop, interp.Options{Timeout: 50 * time.Millisecond}, interp.ErrLimit},
		{"output", "with cm('s', suppress=True):\n    while True:\n        print('x' * 100)", interp.Options{MaxOutput: 10_000}, interp.ErrLimit},
	}
	for _, tt := range tests {
		opts := tt.opts
		opts.Parse = python.Parse
		opts.Predeclared = cmGlobals()
		if opts.Timeout == 0 {
			opts.Timeout = 10 * time.Second
		}
		start := time.Now()
		_, err := interp.Exec(context.Background(), tt.code, opts)
		var ie *interp.Error
		if err == nil || !errors.As(err, &ie) {
			t.Errorf("%s: ran to its end (%v)", tt.name, err)
			continue
		}
		if strings.Contains(ie.Printed, "exit ") {
			t.Errorf("%s: __exit__ ran after the budget stopped the body:\n%s", tt.name, ie.Printed)
		}
		if !errors.Is(err, tt.want) && !errors.Is(err, interp.ErrOutputLimit) && !errors.Is(err, interp.ErrCancelled) {
			t.Errorf("%s: %v, want a budget error", tt.name, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: took %v", tt.name, d)
		}
	}
	// A cancelled run.
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := interp.Exec(ctx, "with cm('s', suppress=True):\n    "+loop, interp.Options{Parse: python.Parse, Predeclared: cmGlobals(), Timeout: 10 * time.Second})
	var ie *interp.Error
	if !errors.As(err, &ie) || strings.Contains(ie.Printed, "exit ") {
		t.Errorf("cancelled: %v, printed %q", err, ie)
	}
}

// nopCM is a context manager that does nothing, for the benchmarks.
type nopCM struct{}

func (nopCM) String() string        { return "<nop>" }
func (nopCM) Type() string          { return "nop" }
func (nopCM) Freeze()               {}
func (nopCM) Truth() starlark.Bool  { return true }
func (nopCM) Hash() (uint32, error) { return 0, nil }

var (
	nopEnter = interp.NewBuiltin("__enter__", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		return starlark.None, nil
	})
	nopExit = interp.NewBuiltin("__exit__", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		return starlark.False, nil
	})
)

func (nopCM) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__enter__":
		return nopEnter, nil
	case "__exit__":
		return nopExit, nil
	}
	return nil, nil
}
func (nopCM) AttrNames() []string { return []string{"__enter__", "__exit__"} }

// BenchmarkWithStatement: a with statement costs about what a try
// statement does (one part and one helper call each), plus the
// manager's two calls.
func BenchmarkWithStatement(b *testing.B) {
	g := starlark.StringDict{}
	for k, v := range testGlobals() {
		g[k] = v
	}
	g["nop"] = nopCM{}
	g.Freeze()
	for _, bm := range []struct{ name, code string }{
		{"try", "def f():\n    n = 0\n    for i in range(1000):\n        try:\n            n += i\n        finally:\n            pass\n    return n\nf()"},
		{"with", "def f():\n    n = 0\n    for i in range(1000):\n        with nop:\n            n += i\n    return n\nf()"},
	} {
		b.Run(bm.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := interp.Exec(context.Background(), bm.code, interp.Options{Parse: python.Parse, Predeclared: g}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
