package stdlib

import (
	"testing"
	"time"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
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
	for _, code := range []string{
		"import heapq\nheapq.nlargest(3, range(10 ** 9))",
		"import heapq\nheapq.nsmallest(3, range(10 ** 9), key=lambda x: -x)",
		"import heapq\nheapq.merge(range(10 ** 9), range(10 ** 9))",
		"import heapq\nh = []\nfor i in range(10 ** 9):\n    heapq.heappush(h, -i)",
	} {
		start := time.Now()
		_, err := run(code, interp.Options{Timeout: 5 * time.Second, MaxSteps: 1e6, MaxMemory: 16 << 20, Watchdog: interp.NewWatchdog()})
		if !isBudget(err) {
			t.Errorf("%s: %v, want the budget's error", code, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s took %s", code, d)
		}
	}
}
