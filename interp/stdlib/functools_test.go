package stdlib

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
)

// TestDifferentialFunctools checks the functools module against CPython
// (testdata/functools_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialFunctools -update).
func TestDifferentialFunctools(t *testing.T) {
	pydiff.Check(t, "testdata/functools_cases.txt", *update, eval)
}

// A function memoised with functools.cache as a call is called once per
// argument: the recursion of fib(80) is linear, not exponential, and
// lru_cache(maxsize=N) keeps at most N results.
func TestFunctoolsCache(t *testing.T) {
	for code, want := range map[string]string{
		"calls = []\ndef fib(n):\n    calls.append(n)\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\nfib = functools.cache(fib)\n[fib(80), len(calls)]":               "[23416728348467685,81]",
		"calls = []\ndef sq(n):\n    calls.append(n)\n    return n * n\nf = functools.lru_cache(maxsize=2)(sq)\n[f(1), f(2), f(1), f(3), f(1), len(calls), f.cache_info()]": `[1,4,1,9,1,3,{"hits":2,"misses":3,"maxsize":2,"currsize":2}]`,
		"from functools import reduce, partial\n[reduce(lambda a, b: a * b, range(1, 6)), partial(int, base=16)('ff')]":                                                     "[120,255]",
	} {
		res, err := run(code, interp.Options{})
		if err != nil {
			t.Errorf("%s: %v", code, err)
			continue
		}
		if res.Text != want {
			t.Errorf("%s:\n got %s\nwant %s", code, res.Text, want)
		}
	}
}

// An unbounded cache is held to the run's memory budget.
func TestFunctoolsCacheBounded(t *testing.T) {
	code := "f = functools.cache(lambda n: n)\nfor i in range(10 ** 7):\n    f(i)"
	start := time.Now()
	_, err := run(code, interp.Options{Timeout: 10 * time.Second, MaxMemory: 4 << 20, Watchdog: interp.NewWatchdog()})
	if !errors.Is(err, interp.ErrLimit) || !strings.Contains(err.Error(), "memory") {
		t.Errorf("got %v, want the memory limit", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s", d)
	}
}

// reduce over a huge range, by a lambda or by a builtin, ends with the
// step budget; partial and cmp_to_key add no way around it.
func TestFunctoolsReduceBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"functools.reduce(lambda a, b: a + b, range(10 ** 9))",
		"functools.reduce(operator.add, range(10 ** 9), 0)",
		"functools.reduce(functools.partial(max), range(10 ** 9))",
		"sorted(range(10 ** 7, 0, -1), key=functools.cmp_to_key(lambda a, b: a - b))",
	)
}

// An exception raised by the function of cmp_to_key reaches the program
// as itself, not as a TypeError about comparing the keys.
func TestCmpToKeyErrorPassesThrough(t *testing.T) {
	code := "def cmp(a, b):\n    raise ValueError('bad ' + a)\ntry:\n    sorted(['x', 'y'], key=functools.cmp_to_key(cmp))\nexcept ValueError as e:\n    r = str(e)\nr"
	res, err := run(code, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "bad y" { // CPython compares y with x first
		t.Errorf("got %q, want the ValueError's message", res.Text)
	}
}

// A partial that holds a list that holds it prints, bounded by the
// writer's cycle check, instead of recursing without end.
func TestPartialHoldingItself(t *testing.T) {
	res, err := run("import functools\nl = []\np = functools.partial(print, l)\nl.append(p)\nrepr(p)", interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "[...]") {
		t.Errorf("repr %q, want the cycle shown as [...]", res.Text)
	}
}

// The worst inputs of functools at a server's budgets: a reduce over an
// endless iterable, a cached function called with arguments built from
// shared tuples.
func TestFunctoolsStop(t *testing.T) {
	checkStops(t,
		stopCase{"functools.reduce(lambda a, b: b, itertools.count())", wantTime},
		stopCase{"functools.reduce(operator.add, itertools.repeat('x' * 10**6))", wantSpent},
		stopCase{"functools.reduce(operator.add, itertools.repeat(10**4999))", wantInt},
		stopCase{"t = ()\nfor _ in range(60):\n    t = (t, t)\nf = functools.cache(lambda x: 1)\nf(t)", wantTime},
	)
}
