package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestDifferentialHeapQ checks the heapq module against CPython
// (testdata/heapq_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialHeapQ -update).
func TestDifferentialHeapQ(t *testing.T) {
	pydiff.Check(t, "testdata/heapq_cases.txt", *update, eval)
}

// Selecting from or merging huge iterables, or sifting a huge heap, ends
// with the run's budget.
func TestHeapQBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import heapq\nheapq.nlargest(3, range(10 ** 9))",
		"import heapq\nheapq.nsmallest(3, range(10 ** 9), key=lambda x: -x)",
		"import heapq\nlist(heapq.merge(range(10 ** 9), range(10 ** 9)))",
		"import heapq\nh = []\nfor i in range(10 ** 9):\n    heapq.heappush(h, -i)",
	)
}

// The worst inputs of heapq at a server's budgets: endless or huge
// inputs are read once and only n values kept; merging ten million
// iterables costs a logarithm of their number per value.
func TestHeapQStop(t *testing.T) {
	checkStops(t,
		stopCase{"heapq.nlargest(1, itertools.count())", wantTime},
		stopCase{"heapq.nsmallest(5, itertools.count())", wantTime},
		stopCase{"heapq.nlargest(10**9, itertools.count())", wantSpent},
		stopCase{"g = ('x' * 1000 + str(i) for i in itertools.count())\nheapq.nsmallest(10**9, g)", wantSpent},
		stopCase{"heapq.nlargest(3, itertools.count(), key=lambda x: -x)", wantTime},
		stopCase{"list(heapq.merge(*[[1]]*10**6))", wantSpent},
		stopCase{"list(heapq.merge(itertools.count(), itertools.count()))", wantSpent},
		stopCase{"h = list(range(10**6, 0, -1))\nfor _ in range(10**9):\n    heapq.heapify(h)", wantSpent},
	)
}
