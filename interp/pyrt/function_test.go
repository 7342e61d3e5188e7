package pyrt

import (
	"strings"
	"testing"
)

// TestDecoratorsRun: decorators and function objects, with what CPython
// 3.11 prints.
func TestDecoratorsRun(t *testing.T) {
	tests := []struct{ code, want string }{
		// Decorator expressions are evaluated top-down, applied bottom-up.
		{"def d(n):\n    print('eval', n)\n    def deco(f):\n        print('apply', n)\n        return f\n    return deco\n@d(1)\n@d(2)\ndef f():\n    pass", "eval 1\neval 2\napply 2\napply 1"},
		{"def twice(f):\n    def w(x):\n        return f(f(x))\n    return w\n@twice\n@twice\ndef inc(x):\n    return x + 1\nprint(inc(0))", "4"},
		{"def outer():\n    def deco(f):\n        return f\n    @deco\n    def inner():\n        return 1\n    return inner\nprint(outer().__qualname__)", "outer.<locals>.inner"},
		// A decorated def in a function that recurses through its new name.
		{"def run():\n    memo = {}\n    def cache(f):\n        def w(n):\n            if n not in memo:\n                memo[n] = f(n)\n            return memo[n]\n        return w\n    @cache\n    def fib(n):\n        return n if n < 2 else fib(n - 1) + fib(n - 2)\n    return fib(60)\nprint(run())", "1548008755920"},
		{"def mk():\n    global g\n    @lambda f: f\n    def g():\n        pass\nmk()\nprint(g.__qualname__)", "g"},
		{"def f():\n    pass\nf.x = 1\nf.x += 1\nprint(f.x, f.__dict__, hasattr(f, 'y'), getattr(f, 'x'))", "2 {'x': 2} False 2"},
		{"def f():\n    pass\ntry:\n    f.missing\nexcept AttributeError as e:\n    print(e)", "'function' object has no attribute 'missing'"},
		{"def f():\n    pass\ntry:\n    f.__name__ = 3\nexcept TypeError as e:\n    print(e)", "__name__ must be set to a string object"},
		{"def f(a, b=1, *c, d, e=2, **g):\n    pass\nprint(f.__defaults__, f.__kwdefaults__, f.__module__)", "(1,) {'e': 2} __main__"},
	}
	for _, tc := range tests {
		if got := runExplained(t, tc.code); strings.TrimSpace(got) != tc.want {
			t.Errorf("%s\ngot  %s\nwant %s", tc.code, got, tc.want)
		}
	}
}
