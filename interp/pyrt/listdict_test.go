package pyrt

import (
	"testing"
)

// TestContainerMethods: the list, dict and set methods as a program
// meets them, beyond what the differential cases show.
func TestContainerMethods(t *testing.T) {
	tests := []struct{ code, want string }{
		// sort is in place: every name of the list sees it.
		{"xs = [3, 1, 2]\nys = xs\nxs.sort()\nys", "[1,2,3]"},
		// Stable, also in reverse.
		{"xs = [('a', 2), ('b', 1), ('c', 2)]\nxs.sort(key=lambda p: p[1], reverse=True)\nxs", `[["a",2],["c",2],["b",1]]`},
		// str of both kinds sort by code point.
		{"xs = ['b', 'a' + chr(233), 'a']\nxs.sort()\nxs", `["a","aé","b"]`},
		// A key function that fails stops the sort with its error.
		{"xs = ['1', 'x']\nxs.sort(key=int)", "error: line 2: ValueError: invalid literal for int() with base 10: 'x'"},
		// copy is shallow.
		{"xs = [[1]]\nys = xs.copy()\nys[0].append(2)\nys.append(3)\n[xs, ys]", "[[[1,2]],[[1,2],3]]"},
		// popitem takes the entry added last, as in Python 3.7+.
		{"d = {'a': 1, 'b': 2, 'c': 3}\n[d.popitem(), d.popitem(), d]", `[["c",3],["b",2],{"a":1}]`},
		{"d = {'a': 1}\nd.update([('b', 2)], c=3)\nd", `{"a":1,"b":2,"c":3}`},
		// Set methods take several iterables, and any iterable.
		{"sorted(set([1, 2, 3]).intersection([2, 3], (3, 4)))", "[3]"},
		{"s = set([1])\ns.update('ab', [2])\nsorted(s, key=str)", `[1,2,"a","b"]`},
		{"set('ab').issubset('abc')", "True"},
		// A value of another kind keeps its own methods of these names.
		{"s = struct(sort=lambda: 'mine', copy=lambda: 'own')\n[s.sort(), s.copy()]", `["mine","own"]`},
		{"x = 5\nx.sort()", "error: line 2: AttributeError: 'int' object has no attribute 'sort'"},
		// A list being iterated can be sorted, as in Python: the loop walks
		// it by position.
		{"xs = [2, 1, 3]\nseen = []\nfor x in xs:\n    xs.sort()\n    seen.append(x)\nseen", "[2,2,3]"},
		// The augmented assignments of sets change the set in place:
		// every name of it, a parameter too, sees the change.
		{"a = {1, 2}\nb = a\na |= {3}\na -= {1}\na &= {2, 3, 4}\na ^= {9}\nprint(b, a is b)", "{9, 2, 3} True"},
		{"def grow(seen):\n    seen |= {5}\ns = set()\ngrow(s)\nprint(s)", "{5}"},
		{"d = {'a': 1}\ne = d\nd |= [('b', 2)]\ne", `{"a":1,"b":2}`},
		{"s = {1}\ns |= [2]", "error: line 2: TypeError: unsupported operand type(s) for |=: 'set' and 'list'"},
		{"n = 6\nm = 3\nn |= m\nn ^= 1\nn &= 14\nn -= m\nn", "3"},
		// A set is walked in CPython's order, a loop over it too, and a
		// change of its size meanwhile is Python's RuntimeError.
		{"s = {3, 1, 2}\nout = []\nfor x in s:\n    out.append(x)\nout", "[1,2,3]"},
		{"s = {3, 1, 2}\nfor x in s:\n    s.add(x + 10)", "error: line 2: RuntimeError: Set changed size during iteration"},
		{"s = {1, 2, 3}\nprint(*s, sep='-')", "1-2-3"},
	}
	for _, tt := range tests {
		if got := runText(t, tt.code); got != tt.want {
			t.Errorf("%q\n got: %s\nwant: %s", tt.code, got, tt.want)
		}
	}
}

// TestContainerMethodsStayWithinBudgets: the methods charge what they
// visit and refuse by length what would not fit the memory budget.
func TestContainerMethodsStayWithinBudgets(t *testing.T) {
	checkBounded(t, []boundCase{
		{"sort of twins", twins + "xs = [a, b]\nxs.sort()", "limit"},
		{"count of twins", twins + "[a].count(b)", "limit"},
		{"index of twins", twins + "[a].index(b)", "limit"},
		{"remove of twins", twins + "[a].remove(b)", "limit"},
		{"extend by a map of a range", "x = []\nx.extend(map(abs, range(1000000000000)))", "limit"},
		{"set update by a range", "s = set()\ns.update(range(1000000000))", "memory limit of 16 MiB exceeded"},
		{"set intersection with a range", "set([1]).intersection(range(1000000000))", "memory limit of 16 MiB exceeded"},
		{"set issubset of a range", "set([1]).issubset(range(1000000000))", "memory limit of 16 MiB exceeded"},
		{"dict update by pairs", "d = {}\nd.update(zip(range(1000000000), range(1000000000)))", "memory limit of 16 MiB exceeded"},
		{"dict popitem until empty", "d = dict.fromkeys(range(100000))\nwhile d:\n    d.popitem()", "timed out"},
		{"set of shared parts", dag + "s = set()\ns.update([a])", "limit"},
		{"dict pop of shared parts", dag + "{}.pop(a, 0)\n{1: 2}.pop(a)", "limit"},
	})
}
