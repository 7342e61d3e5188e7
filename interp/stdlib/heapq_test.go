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
