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
	"def g(a, *b, c=1, **d):\n    x = yield from range(a)\n    y = yield x\n    return (y, b, c, d)\nclass C:\n    def __iter__(self):\n        yield self",
	"async def f(xs):\n    async with m() as v:\n        async for x in xs:\n            await x\n    return [y async for y in xs if await y], (z async for z in xs)",
	"r = await g()\nprint([await h(i) for i in range(2)])",
	"try:\n    pass\nexcept* ValueError as e:\n    pass\nexcept* (TypeError, KeyError):\n    raise",
	"def g():\n    return sum(x for x in (yield) for y in x)",
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
	// Class statements: the lowering of bodies, names, decorators, keywords.
	"class Outer:\n    class Inner:\n        class Deep:\n            x = 1\n        def m(self):\n            return Outer.Inner.Deep.x\n    y = Inner.Deep.x + 1\nprint(Outer.Inner().m(), Outer.y, Outer.Inner.Deep.__qualname__)",
	"class B:\n    def __init__(self, x):\n        self.x = x\nclass C(B):\n    def __init__(self, x, y):\n        super().__init__(x)\n        super(C, self).__init__(x)\n        B.__init__(self, x)\n        self.y = y\n    def f(self):\n        return super().__repr__()\nprint(C(1, 2).x)",
	"@dec\n@dec2(1, k=2)\nclass C(A, B, metaclass=M, flag=True):\n    @property\n    def p(self):\n        return self._p\n    @p.setter\n    def p(self, v):\n        self._p = v\n    @staticmethod\n    def s(*a, **k):\n        return a\n    @classmethod\n    def make(cls, /, x, *, y=1):\n        return cls()",
	"class C:\n    if True:\n        a = 1\n    else:\n        b = 2\n    for i in range(3):\n        a += i\n    try:\n        c = 1 / 0\n    except ZeroDivisionError as e:\n        c = str(e)\n    finally:\n        d = 4\n    with ctx() as w:\n        e = w\n    while a > 100:\n        a -= 1\n    del i",
	"class Acc:\n    __count = 0\n    def __init__(self):\n        self.__v = 1\n        Acc.__count += 1\n        self.__dict__['__raw'] = 2\n    def __get(self):\n        return self.__v, self._Acc__v, __class__\n    class __Hidden:\n        __x = 3\n        def g(self):\n            return self.__x\nprint(Acc()._Acc__get())",
	"class P:\n    x: int = 1\n    y: list[int]\n    z: 'dict[str, int]' = {}\n    w: Optional[int] = None\n    def m(self, a: int = 2) -> 'P':\n        self.q: float = 1.0\n        return self\nprint(P.__annotations__)",
	"class Base:\n    def __init_subclass__(cls, /, tag=None, **kw):\n        super().__init_subclass__(**kw)\n        cls.tag = tag\nclass A(Base, tag='a'):\n    pass\nclass G(list[int]):\n    pass",
	"def factory(n):\n    class Local:\n        k = n\n        def get(self):\n            return self.k + n\n    return Local\ndef deco(c):\n    return c\ndef g():\n    @deco\n    class In:\n        pass\n    return In.__qualname__\nprint(factory(3)().get(), g())",
	"class T:\n    xs = [i * 2 for i in range(5)]\n    ys = {k: v for k, v in zip('ab', xs)}\n    zs = [x for x in xs if x > 2]\n    n = 3\n    ws = [n for _ in range(2)]\n    gen = list(i for i in xs)\n    s = {c for c in 'aab'}\n    la = lambda self: self.n",
	"class E(Exception):\n    def __init__(self, msg, code=0):\n        super().__init__(msg)\n        self.code = code\n    def __str__(self):\n        return f'{self.args[0]} ({self.code})'\nclass F(E, KeyError):\n    pass\ntry:\n    raise F('x', 2) from ValueError()\nexcept E as e:\n    e.add_note('n')\n    print(e)",
	"class V:\n    __slots__ = ('a', 'b')\n    def __eq__(self, o):\n        return NotImplemented\n    __hash__ = None\n    def __add__(self, o):\n        return self\n    __radd__ = __add__\n    def __iadd__(self, o):\n        return self\n    def __getitem__(self, i):\n        if i > 3:\n            raise IndexError\n        return i\nv = V()\nv += 1\nprint(list(v), 1 + v)",
	"class C:\n    pass\nclass D(C, object):\n    def m(self):\n        class E(D):\n            def m(self):\n                return super().m()\n        return E\n    global G\n    nonlocal_test = 1\nG = type('G', (D,), {'a': 1})",
	"class C: x = 1; y = 2\nclass D(C): pass\nclass E(\n    D,\n    C,\n): '''doc'''",
	"class C:\n    def f(self):\n        return __class__\n    def g(self):\n        nonlocal x\nclass D:\n    return 1",
	"class C:\n    def __x(self):\n        pass\n    def call(self):\n        return [self.__x() for _ in range(2)], (lambda: self.__x)()\n    __y = [__z for __z in range(3)]",
	"class M(type):\n    pass\nclass C(metaclass=M):\n    def __new__(cls, *a):\n        return object.__new__(cls)\n    def __del__(self):\n        pass",
	"class A:\n    match 1:\n        case 1:\n            v = 'one'\n        case _:\n            v = 'other'\n    x = 1 if v else 2\n    (y := 3)\n    assert x\n    import math\n    from json import dumps",
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
