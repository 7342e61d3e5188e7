package pyrt

import (
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp"
)

// TestStatementsAsCPython: statements whose meaning the differential
// cases (expressions) cannot show, with what CPython prints for them.
func TestStatementsAsCPython(t *testing.T) {
	tests := []struct{ code, want string }{
		// A str unpacks into its characters.
		{"a, b = 'uv'\nprint(a, b)", "u v"},
		{"x, y, z = 'h\u00e9j'\nprint(x, y, z)", "h \u00e9 j"},
		{"p, q = 'abc'", "error: line 1: ValueError: too many values to unpack (expected 2)"},
		{"p, q, r = 'ab'", "error: line 1: ValueError: not enough values to unpack (expected 3, got 2)"},
		// A loop over a dict may set its keys; a change of its size (or
		// a set's) is Python's RuntimeError.
		{"d = {'a': 1, 'b': 2}\nfor k in d:\n    d[k] *= 10\nprint(d)", "{'a': 10, 'b': 20}"},
		{"d = {'a': 1}\nprint([d.update({k: 2}) for k in d], d)", "[None] {'a': 2}"},
		{"d = {'a': 1}\ntry:\n    for k in d:\n        d[k + '!'] = 0\nexcept RuntimeError as e:\n    print(e)", "dictionary changed size during iteration"},
		{"s = {'a', 'b'}\ntry:\n    for x in s:\n        s.discard(x)\nexcept RuntimeError as e:\n    print(e)", "Set changed size during iteration"},
		// try's else runs when its body fell through, not after a return,
		// break or continue in it.
		{"def f():\n    try:\n        return 'body'\n    except ValueError:\n        return 'handler'\n    else:\n        print('else')\n    finally:\n        print('finally')\nprint(f())", "finally\nbody"},
		{"for i in range(3):\n    try:\n        if i == 1:\n            continue\n        if i == 2:\n            break\n    except ValueError:\n        pass\n    else:\n        print('else', i)", "else 0"},
		// An exception raised while another is handled has it as its
		// __context__; raise … from sets __suppress_context__.
		{"try:\n    try:\n        1 / 0\n    except ZeroDivisionError:\n        raise RuntimeError('wrapped')\nexcept RuntimeError as e:\n    print(type(e.__context__).__name__, e.__suppress_context__)", "ZeroDivisionError False"},
		{"try:\n    raise KeyError('k') from None\nexcept KeyError as e:\n    print(e.__cause__, e.__context__, e.__suppress_context__)", "None None True"},
		// A class's docstring is its __doc__ (and its instances').
		// Appending to a text keeps every other holder of it as it was.
		{"s = ''\nfor i in range(60):\n    s += 'abcdefghij'\nt = s\ns += 'X'\nt += 'Y'\nu = s[:]\nu += 'Z' * 300\nprint(len(s), s[-2:], len(t), t[-2:], len(u), u[598:602])", "601 jX 601 jY 901 ijXZ"},
		{"s = 'x' * 300\ns = s + 'y'\nr = s\ns = s + 'z'\nprint(len(r), r[-1], len(s), s[-2:])", "301 y 302 yz"},
		// A name that holds only bools is the int a bool is in arithmetic
		// and as an index.
		{"total = 0\nfor s in [70, 40, 90]:\n    passed = s >= 50\n    total += passed\nprint(total)", "2"},
		{"flag = True\nprint(flag + 1, -flag, flag * 2.5, ['n', 'y'][flag])", "2 -1 2.5 y"},
		// A method taken as a value is the receiver's, bound to it.
		{"hours = [10, 11, 10, 12]\nprint(max(set(hours), key=hours.count), sorted('bca', key='abc'.index))", "10 ['a', 'b', 'c']"},
		{"d = {'a': 2, 'b': 1}\nf = d.items\nprint(f(), list(map(', '.join, [['x', 'y']])))", "dict_items([('a', 2), ('b', 1)]) ['x, y']"},
		{"s = struct(count=3)\nprint(s.count)", "3"},
		// A module's docstring is its __doc__.
		{"\"\"\"Report builder.\"\"\"\nprint(__doc__)", "Report builder."},
		{"def f():\n    return __doc__\nprint(f())", "None"},
		// Item assignment to what has none is a TypeError.
		{"t = (1, 2)\nt[0] = 5", "error: line 2: TypeError: 'tuple' object does not support item assignment"},
		{"s = 'ab'\ntry:\n    s[0] = 'x'\nexcept TypeError as e:\n    print(e)", "'str' object does not support item assignment"},
		// A missing module's error has its name.
		{"try:\n    import numpy\nexcept ImportError as e:\n    print(e.name, e)", "numpy No module named 'numpy'"},
		// exit() and quit() raise SystemExit; uncaught with no code or 0,
		// the run ends there, as the program's end.
		{"print(1)\nexit()\nprint(2)", "1"},
		{"def main():\n    print('ran')\n    return 0\nif __name__ == '__main__':\n    exit(main())", "ran"},
		{"raise SystemExit", "OK (no return value)"},
		{"print('a')\nquit(3)", "error: line 2: SystemExit: 3"},
		{"try:\n    exit('bye')\nexcept SystemExit as e:\n    print(e.code, e.args)", "bye ('bye',)"},
		{"try:\n    exit()\nexcept Exception:\n    print('no')\nexcept BaseException as e:\n    print(type(e).__name__, e.code)", "SystemExit None"},
		// A missing key that is a tuple reads as Python writes it, and is
		// e.args[0].
		{"try:\n    {}[('a', 1)]\nexcept KeyError as e:\n    print(e, repr(e), e.args[0][1])", "('a', 1) KeyError(('a', 1)) 1"},
		{"try:\n    {}[(b'x', None, 'it\\'s')]\nexcept KeyError as e:\n    print(e)", "(b'x', None, \"it's\")"},
		// A bool is an int: a function that returns one, a condition
		// made of comparisons, a list of bools and its loop's variable.
		{"def ok(x):\n    return x > 0\nn = 0\nfor v in [1, -2, 3]:\n    n += ok(v)\nprint(n)", "2"},
		{"def ok(x) -> bool:\n    return x.startswith('a')\nprint(ok('ab') + ok('b'))", "1"},
		{"x = 4\nmid = x > 1 and x < 9\nprint(mid + 1, (x > 9 or x < 0) * 3)", "2 0"},
		{"fl = [v > 1 for v in [1, 2, 3]]\nt = 0\nfor f in fl:\n    t += f\nprint(t, fl[1] + fl[2])", "2 2"},
		// A float divided by zero is worded as Python words it; uncaught,
		// any division by zero is SPEC's plain text.
		{"a, z = 1.0, 0\nfor f in (lambda: a / z, lambda: 2 / z, lambda: 2 // 0.0, lambda: a / len([])):\n    try:\n        f()\n    except ZeroDivisionError as e:\n        print(e)", "float division by zero\ndivision by zero\nfloat floor division by zero\nfloat division by zero"},
		{"def avg(t, n):\n    t /= n\n    return t\ntry:\n    avg(2.5, 0)\nexcept ZeroDivisionError as e:\n    print(e, avg(3, 2))", "float division by zero 1.5"},
		{"x = 1.0\ny = 0\nprint(x / y)", "error: line 3: division by zero"},
		// Unpacking what is no sequence is CPython's TypeError.
		{"def f():\n    return None\ntry:\n    a, b = f()\nexcept TypeError as e:\n    print(e)\nfor x, y in [(1, 2), 3]:\n    print(x, y)", "error: line 7: TypeError: cannot unpack non-iterable int object"},
		{"def f():\n    return None\ntry:\n    a, b = f()\nexcept TypeError as e:\n    print(e)", "cannot unpack non-iterable NoneType object"},
		// A parameter annotated bool or passed one, a dict of bools and
		// its values, and * and % of a bool are ints too.
		{"def score(ok, w: bool):\n    return 10 * ok + w * 2 + w % 2\nprint(score(3 > 1, True))", "13"},
		{"res = {'a': True, 'b': False, 'c': 1 > 0}\nn = 0\nfor k, v in res.items():\n    n += v\nfor v in res.values():\n    n = n + v\nprint(n, res['a'] + 1)", "4 2"},
		{"f = [1 > 0]\nprint(7 * f[0], f[0] * 'ab', 5 % f[0])", "7 ab 0"},
		{"def w(ok, n):\n    return n * ok + ok * 2\ndef go(x):\n    return w(x, 3)\nflags = {'a': 1 > 0}\nprint(w(flags['a'], 5), go(flags['a']))", "7 5"},
		{"fl = [x > 2 for x in range(5)]\nev = [x % 2 == 0 for x in range(5)]\nt = 0\nfor i, f in enumerate(fl):\n    t += f * i\nprint(t, sum(f * 2 for f in fl), [a + b for a, b in zip(fl, ev)])", "7 4 [1, 0, 1, 1, 2]"},
		{"def pick(rows, i):\n    return rows[0][i]\nprint(pick([[1, 2, 3]], 2 > 1), pick([[1, 2, 3]], -1), pick(['abc'], -3), pick([{'a': 5}], 'a'))", "2 3 a 5"},
		// The builtins' argument errors are CPython's words.
		{"for f in (lambda: [1].insert(1), lambda: {}.get(), lambda: sorted([1], reversed=True), lambda: enumerate()):\n    try:\n        f()\n    except TypeError as e:\n        print(e)", "insert expected 2 arguments, got 1\nget expected at least 1 argument, got 0\n'reversed' is an invalid keyword argument for sort()\nenumerate() missing required argument 'iterable'"},
		// A keyword-only parameter left out is named as one.
		{"def f(a, *, b, c=1):\n    return a\ntry:\n    f(1)\nexcept TypeError as e:\n    print(e)", "f() missing 1 required keyword-only argument: 'b'"},
		{"def f(*, a, b, c):\n    return a\ntry:\n    f(b=1)\nexcept TypeError as e:\n    print(e)", "f() missing 2 required keyword-only arguments: 'a' and 'c'"},
		{"def f(x, *, key):\n    def g():\n        return key\n    return g()\nprint(f(1, key=None))\ntry:\n    f()\nexcept TypeError as e:\n    print(e)", "None\nf() missing 1 required positional argument: 'x'"},
		{"fl = []\nfor v in 'aXbY':\n    fl.append(v.isupper())\nt = 0\nfor f in fl:\n    t = t + f\nprint(t)", "2"},
	}
	for _, tt := range tests {
		if got := runExplained(t, tt.code); got != tt.want {
			t.Errorf("%q\n got: %s\nwant: %s", tt.code, got, tt.want)
		}
	}
}

// runExplained is runText with uncaught errors phrased as the runner
// phrases them (Explain).
func runExplained(t *testing.T, code string) string {
	t.Helper()
	res, err := run(t, code, interp.Options{Timeout: 5 * time.Second, MaxIntDigits: 5000, Explain: Explain})
	if err != nil {
		return "error: " + err.Error()
	}
	return res.Text
}
