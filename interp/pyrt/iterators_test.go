package pyrt

import (
	"errors"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp"
)

// TestIteratorsAreLazy: map(), filter() and iter() make iterators that
// compute as they are consumed, once, as in Python.
func TestIteratorsAreLazy(t *testing.T) {
	tests := []struct{ code, want string }{
		// next() calls the function once.
		{"seen = []\ndef f(x):\n    seen.append(x)\n    return x * 10\nm = map(f, [1, 2, 3])\n[next(m), seen]", "[10,[1]]"},
		// A for loop that breaks leaves the rest for later consumers.
		{"it = iter([1, 2, 3])\nfor x in it:\n    break\nlist(it)", "[2,3]"},
		{"m = map(str, [1, 2, 3])\nfor x in m:\n    break\n[x, list(m), list(m)]", `["1",["2","3"],[]]`},
		// Over a range that would take hours to walk: only what is asked.
		{"next(filter(lambda x: x > 2, range(1000000000000)))", "3"},
		{"list(zip(range(1000000000000), 'ab'))", `[[0,"a"],[1,"b"]]`},
		{"list(map(lambda a, b: a + b, range(1000000000000), [10, 20]))", "[10,21]"},
		// An iterator of a list sees what is appended meanwhile, and does
		// not lock the list.
		{"xs = [1]\nit = iter(xs)\nxs.append(2)\nlist(it)", "[1,2]"},
		// Printing one shows its kind.
		{"m = map(str, [])\nprint(m)\nm", "<map object>\n<map object>"},
		{"print(iter([1]), filter(None, []))", "<list_iterator object> <filter object>"},
		// iter(callable, sentinel).
		{"xs = [1, 2, 0, 3]\nlist(iter(lambda: xs.pop(0), 0))", "[1,2]"},
		// `in` consumes up to the element.
		{"it = iter([1, 2, 3])\n[2 in it, list(it)]", "[true,[3]]"},
		// Unpacking and star arguments consume them.
		{"a, b = map(int, '1 2'.split())\na + b", "3"},
		{"def f(*args):\n    return args\nf(*map(str, [1, 2]))", `["1","2"]`},
		// A dict or set that changes size fails its iterator, as in Python.
		{"d = {'a': 1}\nit = iter(d)\nd['b'] = 2\nlist(it)", "error: line 4: RuntimeError: dictionary changed size during iteration"},
		{"s = set([1])\nit = iter(s)\ns.add(2)\nnext(it)", "error: line 4: RuntimeError: Set changed size during iteration"},
		// A failure of the function inside a for loop is raised by the
		// loop, where try can catch it; the else does not run.
		{"for x in map(int, ['1', 'x']):\n    pass", "error: line 1: ValueError: invalid literal for int() with base 10: 'x'"},
		{"out = []\ntry:\n    for x in map(int, ['1', 'x']):\n        out.append(x)\n    else:\n        out.append('else')\nexcept ValueError as e:\n    out.append(str(e))\nout", `[1,"invalid literal for int() with base 10: 'x'"]`},
		{"out = []\ngen = (10 // n for n in [5, 0])\ntry:\n    for q in gen:\n        out.append(q)\nexcept ZeroDivisionError:\n    out.append('caught')\nout", `[2,"caught"]`},
		// So do a comprehension and an unpacking.
		{"[x for x in map(int, ['1', 'x'])]", "error: line 1: ValueError: invalid literal for int() with base 10: 'x'"},
		{"try:\n    r = [x for x in map(int, ['1', 'x'])]\nexcept ValueError:\n    r = 'caught'\nr", "caught"},
		{"try:\n    a, b = map(int, ['1', 'x'])\nexcept ValueError:\n    a = 'caught'\na", "caught"},
		// Consumed by a builtin, it is raised at the call.
		{"list(map(int, ['1', 'x']))", "error: line 1: ValueError: invalid literal for int() with base 10: 'x'"},
		{"sorted(map(int, ['1', 'x']))", "error: line 1: ValueError: invalid literal for int() with base 10: 'x'"},
		{"', '.join(map(lambda x: x.upper(), ['a', 1]))", "error: line 1: AttributeError: 'int' object has no attribute 'upper' (in lambda, called from line 1)"},
		{"next(iter([]))", "error: line 1: StopIteration"},
	}
	for _, tt := range tests {
		if got := runText(t, tt.code); got != tt.want {
			t.Errorf("%q\n got: %s\nwant: %s", tt.code, got, tt.want)
		}
	}
}

// TestIteratorErrorsAreExceptions: what next(), map() and the rest raise
// is an *Exception of Python's class, for except clauses to match.
func TestIteratorErrorsAreExceptions(t *testing.T) {
	for code, class := range map[string]string{
		"next(iter([]))":                  "StopIteration",
		"list(map(int, ['x']))":           "ValueError",
		"next(5)":                         "TypeError",
		"max([])":                         "ValueError",
		"sum(map(lambda x: 1 / x, [0]))":  "",
		"list(iter({'a': 1}.items()))[5]": "",
	} {
		_, err := run(t, code, interp.Options{Timeout: 5 * time.Second})
		var ex *Exception
		if !errors.As(err, &ex) {
			if class != "" {
				t.Errorf("%s: %v is not an *Exception", code, err)
			}
			continue
		}
		if ex.Class != class {
			t.Errorf("%s: class %s, want %s", code, ex.Class, class)
		}
	}
}

// TestIteratorsStayWithinBudgets: every element an iterator yields, and
// every element the consumers look at, is charged to the run.
func TestIteratorsStayWithinBudgets(t *testing.T) {
	checkBounded(t, []boundCase{
		{"any over a map of a range", "any(map(lambda x: False, range(1000000000000)))", "timed out"},
		{"next of a filter that never matches", "next(filter(lambda x: x < 0, range(1000000000000)))", "timed out"},
		{"list of a filter", "list(filter(None, range(1000000000000)))", "limit"},
		{"join of a map", "''.join(map(str, range(1000000000000)))", "limit"},
		{"in over an iterator", "-1 in iter(range(1000000000000))", "timed out"},
		{"zip of a map", "list(zip(map(str, range(1000000000000)), range(1000000000000)))", "limit"},
		{"for over a map", "for x in map(abs, range(1000000000000)):\n    pass", "limit"},
		{"max of twins", twins + "max([a, b])", "limit"},
		{"min of twins by key", twins + "min([1, 2], key=lambda i: [a, b][i - 1])", "limit"},
		{"iter of a huge dict snapshot", "d = dict.fromkeys(range(2000000))", "memory limit of 16 MiB exceeded"},
	})
}
