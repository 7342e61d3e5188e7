package pyrt

import "testing"

// What exceptions and iterators hold counts against the memory budget:
// a program cannot hide its data from the meter inside them.
func TestHeldValuesCountAgainstMemory(t *testing.T) {
	checkBounded(t, []boundCase{
		{"text kept in exceptions", "errs = []\nfor i in range(100000):\n    errs.append(ValueError('x' * 10000 + str(i)))", "memory limit of 16 MiB exceeded"},
		{"text kept in a cause", "e = None\nfor i in range(100000):\n    c = ValueError('x' * 10000 + str(i))\n    e = RuntimeError(e, c)", "memory limit of 16 MiB exceeded"},
		{"text kept in iterators", "its = []\nfor i in range(100000):\n    its.append(iter(['x' * 10000 + str(i)]))", "memory limit of 16 MiB exceeded"},
		{"text kept by a map", "its = []\nfor i in range(100000):\n    its.append(map(len, ['x' * 10000 + str(i)]))", "memory limit of 16 MiB exceeded"},
	})
}

// What frozensets hold counts against the memory budget too.
func TestFrozenSetsCountAgainstMemory(t *testing.T) {
	checkBounded(t, []boundCase{
		{"frozensets kept in a list", "keep = []\nfor i in range(100000):\n    keep.append(frozenset(['x' * 1000 + str(i)]))", "memory limit of 16 MiB exceeded"},
		{"frozensets of many elements", "keep = []\nfor i in range(100000):\n    keep.append(frozenset(range(i, i + 1000)))", "memory limit of 16 MiB exceeded"},
	})
}
