package stdlib

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp"
)

// TestDecoratorsAsCPython: decorators with functools and inspect, each
// with what CPython 3.11 prints.
func TestDecoratorsAsCPython(t *testing.T) {
	tests := []struct{ name, code, want string }{
		{"bare lru_cache", "from functools import lru_cache\n@lru_cache\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\nprint(fib(50), fib.cache_info())",
			"12586269025 CacheInfo(hits=48, misses=51, maxsize=128, currsize=51)"},
		{"cache_clear", "import functools\n@functools.cache\ndef f(x):\n    return x\nf(1); f(1)\nf.cache_clear()\nprint(f.cache_info())",
			"CacheInfo(hits=0, misses=0, maxsize=None, currsize=0)"},
		{"unhashable argument", "import functools\n@functools.lru_cache(maxsize=None)\ndef f(x):\n    return x\ntry:\n    f({})\nexcept TypeError as e:\n    print(e)",
			"unhashable type: 'dict'"},
		{"cache attributes", "import functools\n@functools.cache\ndef f(x):\n    'Doc.'\n    return x\nf.tag = 't'\nprint(f.__name__, f.__doc__, f.__wrapped__.__name__, f.tag)",
			"f Doc. f t"},
		{"wraps copies dict", "import functools\ndef f():\n    pass\nf.meta = 1\n@functools.wraps(f)\ndef g():\n    pass\nprint(g.__name__, g.meta, g.__wrapped__ is f, functools.WRAPPER_ASSIGNMENTS)",
			"f 1 True ('__module__', '__name__', '__qualname__', '__doc__', '__annotations__')"},
		{"update_wrapper", "import functools\ndef f():\n    'F.'\ndef g():\n    pass\nh = functools.update_wrapper(g, f)\nprint(h is g, g.__name__, g.__doc__)",
			"True f F."},
		{"singledispatch bool to int", "from functools import singledispatch\n@singledispatch\ndef f(x):\n    return 'any'\n@f.register(int)\ndef _(x):\n    return 'int'\nprint(f(True), f(1.5), f.dispatch(bool).__name__)",
			"int any _"},
		{"singledispatch bad register", "from functools import singledispatch\n@singledispatch\ndef f(x):\n    pass\ntry:\n    @f.register\n    def _(x):\n        pass\nexcept TypeError as e:\n    print(str(e).startswith('Invalid first argument to `register()`'))",
			"True"},
		{"singledispatch register call", "from functools import singledispatch\n@singledispatch\ndef f(x):\n    return 0\nf.register(str, lambda x: len(x))\nprint(f('abc'), f(None))",
			"3 0"},
		{"inspect kwonly required", "import inspect\ndef f(a, *, b, c=1) -> None:\n    pass\nprint(inspect.signature(f))",
			"(a, *, b, c=1) -> None"},
		{"inspect bound method of wraps", "import inspect, functools\ndef deco(fn):\n    @functools.wraps(fn)\n    def w(*a, **k):\n        return fn(*a, **k)\n    return w\n@deco\ndef f(x: int = 3) -> int:\n    return x\nprint(inspect.signature(f), inspect.signature(f, follow_wrapped=False))",
			"(x: int = 3) -> int (*a, **k) -> int"},
		{"unwrap", "import inspect, functools\n@functools.lru_cache\ndef f():\n    pass\nprint(inspect.unwrap(f) is f.__wrapped__, inspect.isfunction(inspect.unwrap(f)))",
			"True True"},
		{"getmembers", "import inspect\ndef f():\n    pass\nf.b = 2\nf.a = 1\nprint([n for n, v in inspect.getmembers(f) if not n.startswith('_')])",
			"['a', 'b']"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := run(tc.code, interp.Options{Timeout: 10 * time.Second})
			if err != nil {
				t.Fatalf("%v", err)
			}
			if got := strings.TrimSpace(res.Printed); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// Decorators add no way around the budgets: an unbounded @cache fills
// only the run's memory; a decorator or a wrapper that recurses without
// end stops at the recursion limit or a budget, within the deadline.
func TestDecoratorsBounded(t *testing.T) {
	start := time.Now()
	_, err := run("import functools\n@functools.lru_cache(maxsize=None)\ndef f(n):\n    return 'x' * 50 + str(n)\nfor i in range(10 ** 7):\n    f(i)",
		interp.Options{Timeout: 10 * time.Second, MaxMemory: 4 << 20, Watchdog: interp.NewWatchdog()})
	if !errors.Is(err, interp.ErrLimit) || !strings.Contains(err.Error(), "memory") {
		t.Errorf("unbounded @lru_cache: got %v, want the memory limit", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("unbounded @lru_cache took %s", d)
	}
	for _, code := range []string{
		"def d(f):\n    return d(f)\n@d\ndef g():\n    pass",
		"def d(f):\n    def w(*a):\n        return w(*a)\n    return w\n@d\ndef g():\n    pass\ng()",
		"import functools\ndef d(f):\n    @functools.wraps(f)\n    def w():\n        return g()\n    return w\n@d\n@d\ndef g():\n    pass\ng()",
	} {
		start := time.Now()
		_, err := run(code, interp.Options{Timeout: 10 * time.Second, MaxSteps: 1e7, MaxMemory: 64 << 20, Watchdog: interp.NewWatchdog()})
		if err == nil || !(isBudget(err) || strings.Contains(err.Error(), "Recursion") || strings.Contains(err.Error(), "recursion")) {
			t.Errorf("%q: got %v, want a RecursionError or a budget's error", code, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%q took %s", code, d)
		}
	}
}
