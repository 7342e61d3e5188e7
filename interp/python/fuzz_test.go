package python

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

// fuzzSeeds cover the Python the front end accepts (and some it refuses).
var fuzzSeeds = []string{
	"x = 1\nprint(x)",
	"try:\n    int('x')\nexcept ValueError as e:\n    print(e)\nelse:\n    pass\nfinally:\n    print('done')",
	"try:\n    raise KeyError('k')\nexcept (KeyError, IndexError):\n    raise\n",
	"class E(Exception):\n    pass\ntry:\n    raise E('bad') from None\nexcept E as e:\n    print(e.args)",
	"class F(ValueError):\n    \"\"\"doc\"\"\"\n",
	"def f():\n    for i in range(3):\n        try:\n            if i == 1:\n                continue\n            if i == 2:\n                break\n            return i\n        finally:\n            pass\nf()",
	"w, p = 8, 2\nx = 3.14159\nprint(f\"{x:>{w}.{p}f} {x!r} {x=} {'a'!s:^5} {{}}\")",
	"d = {'k': [1, 2]}\nprint(f'{d[\"k\"][0]:+05d}', rf'\\n{1}', F'''{len(d)}''')",
	"print('{:,.2f} {:_x} {:#b} {:e} {:%}'.format(1234.5, 255, 5, 1.5, 0.25))",
	"print('%5.1f|%-4s|%03d|%r' % (2.25, 'a', 7, 'q'))",
	"xs = [i * i for i in range(10) if i % 2]\nys = {i: i for i in xs}\nzs = {i for i in xs}\ng = sum(i for i in xs)",
	"if (n := len([1, 2, 3])) > 2:\n    print(n)",
	"count = 0\ndef inc():\n    global count\n    count += 1\ninc()",
	"def outer():\n    n = 0\n    def inner():\n        nonlocal n\n        n += 1\n    inner()\n    return n",
	"first, *rest = [1, 2, 3]\n*init, last = 'abc'\na, (b, c) = 1, (2, 3)",
	"xs = [1, 2, 3, 4]\ndel xs[0]\ndel xs[::2]\nd = {'a': 1}\ndel d['a']\nx = 1\ndel x",
	"xs = [1, 2, 3]\nxs[1:2] = [7, 8, 9]\nxs[::2] = [0, 0, 0]",
	"import json\nimport math as m\nfrom re import sub, findall as fa\nfrom typing import List, Dict\n",
	"import os",
	"f = lambda x, *a, k=1, **kw: (x, a, k, kw)\nf(1, *[2], **{'k': 3})",
	"def g(a: int, b: 'str' = 'x') -> List[int]:\n    '''doc'''\n    return [a] * 2\nv: int = 3",
	"a = b = 0\nprint(0 < a <= 10 != 3, a is None, a is not b, not a)",
	"print(-2 ** 2, 2 ** -1, 10 // 3, 10 % -3, 1_000_000, 0x_ff, 0o17, 0b1, 1e3, .5)",
	"for i in range(3):\n    pass\nelse:\n    print('else')\nwhile False:\n    pass\nelse:\n    pass",
	"s = 'héllo'\nprint(len(s), s[::-1], s[1], list(s), sorted(s), [c for c in s])",
	"assert 1 + 1 == 2, 'math'\nassert isinstance(True, int)",
	"print(round(2.5), round(1.2345, 2), divmod(7, 2), hex(255), oct(8), bin(5), pow(2, 10, 7))",
	"print(min([], default=0), max([1, 3], key=lambda v: -v), list(enumerate('ab', start=1)))",
	"it = iter([1, 2])\nprint(next(it), next(it), next(it, None), list(map(str, filter(None, [0, 1]))))",
	"xs = [3, 1, 2]\nxs.sort(key=lambda v: -v, reverse=True)\nprint(xs.copy(), xs.count(1), dict.fromkeys('ab'))",
	"print('ab'.zfill(5), 'a'.center(5, '*'), 'A\\tb'.expandtabs(4), 'ß'.casefold(), 'abc'.translate(str.maketrans('a', 'b')))",
	"m = {**{'a': 1}, 'b': 2}\nl = [*range(3), *'ab']\nt = (*l,)\ns = {*l}",
	"print(1, 2, sep=', ', end='!\\n')",
	"x = [1, 2, 3]\nprint(x[-1], x[:-1], x[::2], x[1:2:1])",
	"def f(n):\n    if n <= 0:\n        raise ValueError('deep')\n    return f(n - 1)\ntry:\n    f(20)\nexcept Exception as e:\n    print(type(e).__name__, str(e))",
	"with open('x') as f:\n    pass",
	"with a() as x, b() as (y, z):\n    print(x, y)\nwith (a() as p, b() as q,):\n    pass",
	"def f(xs):\n    for x in xs:\n        with m(x) as d['k']:\n            if x:\n                continue\n            with n as o.attr:\n                return o\n        break",
	"try:\n    with a:\n        raise ValueError\nexcept ValueError:\n    with b:\n        raise",
	"with (yield_ := 1):\n    pass\nwith (a, b):\n    pass\nwith (a):\n    pass\nwith a as [x, *y]:\n    pass",
	"async with a as b:\n    pass",
	"async def f():\n    await g()",
	"def gen():\n    yield 1",
	"@decorator\ndef f():\n    pass",
	"@a.b(1)(2)\n@c\ndef f(x: int, *a: str, k: 'T' = 1, **kw) -> list[int]:\n    'doc'\n    f.n = 1\n    return f.n",
	"def outer():\n    @lambda g: g\n    def inner(*, b):\n        return inner.__qualname__\n    return inner\nprint(outer()(b=1))",
	"@d\nclass E(Exception):\n    pass",
	"class C:\n    pass",
	"x = (\n  1 +\n  2)\ny = [\n 1,\n 2,\n]\nz = \\\n 3",
	"if True:\n    x = 1\n  y = 2",
	"print(f'{x:{w}}')\n",
	"f'{'",
	"try:\n    pass\n",
	"'''unterminated",
	"x = [[[[[[[[[[1]]]]]]]]]]\nprint(x == x[:], x < [[]])",
	"e = ValueError([1])\ne.args[0].append(e)\nprint(repr(e))",
	"while True:\n    try:\n        pass\n    except:\n        break",
	"match [1, {'a': (2, 3)}]:\n    case [int(x), {'a': (y, *z)}] if x < y:\n        print(x, y, z)\n    case {**r} | [*r]:\n        pass\n    case _:\n        pass",
	"match 1:\n    case str() | bytes() as s:\n        pass\n    case x:\n        print(x)",
}

// FuzzFrontEnd: for any input, Parse never panics or hangs, every error
// it returns is positioned inside the input, and a program that parses
// runs to an end within small budgets without a panic.
func FuzzFrontEnd(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	g := testGlobals()
	wd := interp.NewWatchdog()
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return // the lowering is linear; long inputs only slow the search
		}
		_, err := Parse(src)
		if err != nil {
			checkPositioned(t, src, err)
			return
		}
		// Short: an input that runs to its deadline must not outlast the
		// fuzzing time CI gives the target (3 s).
		const timeout = 200 * time.Millisecond
		start := time.Now()
		_, err = interp.Exec(context.Background(), src, interp.Options{
			Parse: Parse, Predeclared: g, MaxSteps: 100_000, Timeout: timeout,
			MaxMemory: 16 << 20, Watchdog: wd, MaxIntDigits: 1000, MaxOutput: 1 << 16,
		})
		if took := time.Since(start); took > timeout+2*time.Second {
			t.Fatalf("ran for %s", took)
		}
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("internal error: %v", err)
		}
	})
}

// checkPositioned fails unless err carries a position within src: a line
// between 1 and the number of lines of src (one more for an error at its
// very end), lines ending as Python's do: \n, \r\n or \r.
func checkPositioned(t *testing.T, src string, err error) {
	t.Helper()
	var pos syntax.Position
	var se syntax.Error
	var pse *syntax.Error
	var he *interp.HintedError
	switch {
	case errors.As(err, &he):
		pos = he.Pos
	case errors.As(err, &se):
		pos = se.Pos
	case errors.As(err, &pse):
		pos = pse.Pos
	default:
		t.Fatalf("error without a position: %T %v", err, err)
	}
	norm := strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n")
	lines := int32(strings.Count(norm, "\n") + 1)
	if pos.Line < 1 || pos.Line > lines+1 {
		t.Fatalf("error at line %d of a %d-line input: %v", pos.Line, lines, err)
	}
}
