package stdlib

import (
	"testing"
	"time"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
)

// TestDifferentialItertools checks the itertools module against CPython
// (testdata/itertools_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialItertools -update).
func TestDifferentialItertools(t *testing.T) {
	pydiff.Check(t, "testdata/itertools_cases.txt", *update, eval)
}

// Endless iterators and huge products end with a budget's error, quickly,
// never a hang and never a result built first.
func TestItertoolsBounded(t *testing.T) {
	checkBounded(t, 5_000_000,
		"list(itertools.count())",
		"list(itertools.cycle([1, 2]))",
		"list(itertools.repeat(0))",
		"list(itertools.product(range(1000), repeat=4))",
		"list(itertools.permutations(range(100)))",
		"list(itertools.combinations(range(1000), 5))",
		"sum(1 for _ in itertools.product(range(1000), repeat=4))",
		"for x in itertools.count():\n    pass",
		"list(itertools.dropwhile(lambda x: True, itertools.count()))",
		// product takes in its pools whole first, as CPython does: huge
		// ranges end with the memory budget before the first tuple.
		"next(itertools.product(range(10 ** 9), range(10 ** 9)))",
		"for t in itertools.product(range(10 ** 4), range(10 ** 4), range(10 ** 4)):\n    pass",
	)
}

// Lazy consumers stop at what they need: the first match of an endless
// count, the first group of groupby.
func TestItertoolsLazy(t *testing.T) {
	for code, want := range map[string]string{
		"next(x for x in itertools.count(1) if x * x > 50)":                                    "8",
		"from itertools import groupby\nk, g = next(groupby(itertools.count()))\n[k, next(g)]": "[0,0]",
		"from itertools import islice, cycle\nlist(islice(cycle('ab'), 3))":                    `["a","b","a"]`,
	} {
		res, err := run(code, interp.Options{Timeout: 5 * time.Second, MaxSteps: 1_000_000})
		if err != nil {
			t.Errorf("%s: %v", code, err)
			continue
		}
		if res.Text != want {
			t.Errorf("%s: got %s, want %s", code, res.Text, want)
		}
	}
}

// The worst inputs of itertools at a server's budgets: results far larger
// than their input, endless iterators held or consumed.
func TestItertoolsStop(t *testing.T) {
	checkStops(t,
		stopCase{"next(itertools.product('ab', repeat=10**9))", wantMemory},
		// list() keeps the tuples: ends at the budget it meets first.
		stopCase{"list(itertools.permutations(range(12)))", wantSpent},
		stopCase{"next(itertools.combinations_with_replacement('a', 10**9))", wantMemory},
		stopCase{"for x in itertools.cycle(itertools.count()):\n    pass", wantSpent},
		stopCase{"a, b = itertools.tee(itertools.count())\nfor x in a:\n    pass", wantSpent},
		stopCase{"next(itertools.batched(itertools.repeat(1), 10**12))", wantSpent},
		stopCase{"next(itertools.batched(itertools.repeat('x' * 10**6, 10**6), 10**6))", wantSpent},
		stopCase{"g = (str(i) * 1000 for i in itertools.count())\nfor x in itertools.cycle(g):\n    pass", wantSpent},
		stopCase{"for x in itertools.accumulate(itertools.repeat('x' * 10**6)):\n    pass", wantSpent},
		stopCase{"for x in itertools.accumulate(itertools.repeat('x' * 10**7)):\n    pass", wantSpent},
		stopCase{"for x in itertools.count(9 * 10**4999, 10**4999):\n    pass", wantInt},
		stopCase{"for x in itertools.accumulate(itertools.repeat(10**4999)):\n    pass", wantInt},
		stopCase{"next(itertools.chain.from_iterable(itertools.repeat([])))", wantTime},
		stopCase{"k, g = next(itertools.groupby(itertools.count(), key=lambda x: 0))\nnext(itertools.groupby(itertools.count(), key=lambda x: 0))\nlist(g)", wantSpent},
		stopCase{"a = itertools.tee(range(10**6), 10**6)\nfor x in a[0]:\n    pass", wantSpent},
		stopCase{"x = list(itertools.repeat('y' * 10**6, 10**4))\nfor a, b in itertools.pairwise(itertools.cycle(x)):\n    pass", wantTime},
	)
}
