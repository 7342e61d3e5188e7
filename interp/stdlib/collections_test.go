package stdlib

import (
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
)

// TestDifferentialCollections checks the collections module against
// CPython (testdata/collections_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialCollections -update).
func TestDifferentialCollections(t *testing.T) {
	pydiff.Check(t, "testdata/collections_cases.txt", *update, eval)
}

// Counters and defaultdicts are written to and read as programs do, and
// come back as JSON objects.
func TestCollectionsStatements(t *testing.T) {
	for code, want := range map[string]string{
		"from collections import Counter\nc = Counter()\nfor w in 'a b a c a b'.split():\n    c[w] += 1\nc":                                                                                                `{"a":3,"b":2,"c":1}`,
		"from collections import Counter\nc = Counter('aab')\nc.update('bbc')\nc.subtract({'a': 5})\n[c['a'], c['b'], c.total(), c.most_common(1)]":                                                        `[-3,3,1,[["b",3]]]`,
		"from collections import defaultdict\nd = defaultdict(list)\nfor k, v in [('x', 1), ('y', 2), ('x', 3)]:\n    d[k].append(v)\nd":                                                                   `{"x":[1,3],"y":[2]}`,
		"import collections\nd = collections.defaultdict(lambda: 'n/a')\nd['a']\nd['b'] = 'B'\n[d, repr(d)[:22]]":                                                                                          `[{"a":"n/a","b":"B"},"defaultdict(<function "]`,
		"import collections\nd = collections.defaultdict(set)\nd['a'].add(1)\nd['a'].add(1)\nrepr(d)":                                                                                                      `defaultdict(<class 'set'>, {'a': {1}})`,
		"import collections\nd = collections.defaultdict(int)\nd['a'] += 2\n[len(d), 'a' in d, 'b' in d, sorted(d.items())]":                                                                               `[1,true,false,[["a",2]]]`,
		"import collections\no = collections.OrderedDict(a=1, b=2, c=3)\no.move_to_end('a')\no.move_to_end('c', last=False)\nlist(o)":                                                                      `["c","b","a"]`,
		"import collections\nc = collections.Counter('ab')\nc2 = c.copy()\nc2['a'] += 5\n[c['a'], c2['a']]":                                                                                                `[1,6]`,
		"from collections import deque\nq = deque([1])\nseen = []\nwhile q:\n    n = q.popleft()\n    seen.append(n)\n    if n < 4:\n        q.append(2 * n)\n        q.append(2 * n + 1)\nseen":           `[1,2,3,4,5,6,7]`,
		"from collections import deque\nq = deque(range(5))\nq.rotate(2)\na = list(q)\nq.rotate(-3)\nq.appendleft(9)\nq.extendleft([7, 8])\n[a, list(q), q.pop()]":                                         `[[3,4,0,1,2],[8,7,9,1,2,3,4,0],0]`,
		"from collections import deque\nlast = deque(maxlen=3)\nfor i in range(10):\n    last.append(i)\n[last, repr(last)]":                                                                               `[[7,8,9],"deque([7, 8, 9], maxlen=3)"]`,
		"from collections import namedtuple\nP = namedtuple('P', 'x y')\np = P(1, y=2)\nx, y = p\n[x + y, p.x, p[1], p, str(p), p._asdict()]":                                                              `[3,1,2,{"x":1,"y":2},"P(x=1, y=2)",{"x":1,"y":2}]`,
		"from collections import namedtuple\nP = namedtuple('P', ['name', 'n'])\nps = [P('b', 2), P('a', 2), P('c', 1)]\n[p.name for p in sorted(ps, key=lambda p: (p.n, p.name))]":                        `["c","a","b"]`,
		"from collections import deque\nq = deque([1, 2, 3, 4])\nq[0] = 9\nq[-1] = 7\ndel q[1]\ndel q[-1]\nlist(q)":                                                                                        `[9,3]`,
		"from collections import deque\nq = deque([1])\ntry:\n    del q[5]\nexcept IndexError as e:\n    r = str(e)\nr":                                                                                    "deque index out of range",
		"from collections import Counter\nc = Counter('aab')\ndel c['a']\ndel c['zz']\nc":                                                                                                                  `{"b":1}`,
		"from collections import defaultdict\nd = defaultdict(int)\ntry:\n    del d['x']\nexcept KeyError as e:\n    r = repr(e)\nr":                                                                       "KeyError('x')",
		"from collections import defaultdict\nd = defaultdict(int)\nd.default_factory = list\nd['a'].append(1)\nd.default_factory = None\ntry:\n    d['b']\nexcept KeyError as e:\n    r = [d, str(e)]\nr": `[{"a":[1]},"'b'"]`,
		"from collections import deque\nq = deque([1, 2, 3])\ntry:\n    for x in q:\n        if x == 2:\n            q.append(9)\nexcept RuntimeError as e:\n    r = [str(e), list(q)]\nr":                 `["deque mutated during iteration",[1,2,3,9]]`,
		"from collections import deque\nq = deque([1, 2, 3])\nfor x in q:\n    q[0] = x * 10\nq":                                                                                                           `[30,2,3]`,
		"from collections import Counter\nc = Counter('aab')\nfor k in c:\n    c[k] *= 10\nc":                                                                                                              `{"a":20,"b":10}`,
		"from collections import defaultdict\nd = defaultdict(int, a=1)\ntry:\n    for k in d:\n        d[k + 'x']\nexcept RuntimeError as e:\n    r = str(e)\nr":                                          "dictionary changed size during iteration",
	} {
		res, err := run(code, interp.Options{})
		if err != nil {
			t.Errorf("%s: %v", code, err)
			continue
		}
		if res.Text != want {
			t.Errorf("%s\n got %s\nwant %s", code, res.Text, want)
		}
	}
}

// Counting a huge iterable, or a defaultdict filled without end, ends
// with the run's budget, not with the machine's memory.
func TestCollectionsBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import collections\ncollections.Counter(range(10 ** 9))",
		"import collections\nc = collections.Counter()\nc.update(range(10 ** 9))",
		"import collections\ncollections.Counter({'a': 10 ** 9}).elements()",
		"import collections\nd = collections.defaultdict(list)\nfor i in range(10 ** 9):\n    d[i].append(i)",
		"import collections\ncollections.OrderedDict((i, i) for i in range(10 ** 9))",
		"import collections\ncollections.deque(range(10 ** 9))",
		"import collections\nq = collections.deque(range(1000))\nfor i in range(10 ** 9):\n    q.rotate(999)",
	)
}

// A deque, Counter or namedtuple that holds itself (through a list) is
// an error when converted to JSON, as a list holding itself is, not a Go
// stack overflow that would end the process.
func TestCollectionsHoldingThemselves(t *testing.T) {
	for _, code := range []string{
		"from collections import deque\nl = []\nq = deque([l])\nl.append(q)\nq",
		"from collections import defaultdict\nd = defaultdict(list)\nd['a'].append(d)\nd",
		"from collections import namedtuple\nP = namedtuple('P', 'x')\nl = []\np = P(l)\nl.append(p)\np",
	} {
		res, err := run(code, interp.Options{})
		if err != nil {
			t.Errorf("%s: %v", code, err)
			continue
		}
		if _, err := interp.ToGo(res.Value); err == nil || !strings.Contains(err.Error(), "cannot convert to JSON") {
			t.Errorf("%s: ToGo error %v, want one saying it cannot convert", code, err)
		}
	}
}

// A ChainMap among its own maps, or a chain of ChainMaps deeper than the
// nesting limit, ends in an error (CPython's RecursionError), never in a
// Go stack overflow.
func TestChainMapWithinItself(t *testing.T) {
	for _, code := range []string{
		"from collections import ChainMap\ncm = ChainMap({'a': 1})\ncm.maps.append(cm)\nx = ('z' in cm)",
		"from collections import ChainMap\ncm = ChainMap({'a': 1})\ncm.maps.append(cm)\nx = cm['z']",
		"from collections import ChainMap\ncm = ChainMap({'a': 1})\ncm.maps[0] = cm\ncm.pop('x')",
		"from collections import ChainMap\ncm = ChainMap({'a': 1})\nfor i in range(5000):\n    cm = ChainMap({}, cm)\nx = cm['nope']",
	} {
		_, err := run(code, interp.Options{Timeout: 5 * time.Second})
		if err == nil || !strings.Contains(err.Error(), "RecursionError") {
			t.Errorf("%s: %v, want a RecursionError", code, err)
		}
	}
	// Whatever else is asked of it returns.
	for _, code := range []string{
		"from collections import ChainMap\ncm = ChainMap({'a': 1})\ncm.maps.append(cm)\n[len(cm), dict(cm), cm == cm]",
		"from collections import ChainMap\nimport copy, json\ncm = ChainMap({'a': 1})\ncm.maps.append(cm)\n[len(copy.deepcopy(cm).maps), json.dumps(cm, default=dict)]",
	} {
		if _, err := run(code, interp.Options{Timeout: 5 * time.Second}); err != nil {
			t.Errorf("%s: %v", code, err)
		}
	}
}

// q + q and q * n copy elements in an operator, which gets no thread: the
// deque charges the budget of the run that made it, so doubling a deque
// or multiplying it by a huge count ends in the memory limit.
func TestDequeGrowthCharged(t *testing.T) {
	for _, code := range []string{
		"from collections import deque\nd = deque([0])\nfor i in range(40):\n    d = d + d",
		"from collections import deque\nd = deque([0, 1]) * 10**12",
		"from collections import deque\nd = 10**12 * deque([0, 1])",
	} {
		_, err := run(code, interp.Options{Timeout: 10 * time.Second, MaxMemory: 4 << 20, Watchdog: interp.NewWatchdog()})
		if err == nil || !strings.Contains(err.Error(), "memory") {
			t.Errorf("%s: %v, want the memory limit", code, err)
		}
	}
}

// The worst inputs of collections at a server's budgets: containers built
// from endless iterables (which no watchdog sees until they are made),
// and chains that hold one another many times over.
func TestCollectionsStop(t *testing.T) {
	checkStops(t,
		stopCase{"collections.Counter(itertools.count())", wantSpent},
		stopCase{"g = ('x' * 1000 + str(i) for i in itertools.count())\ncollections.Counter(g)", wantSpent},
		stopCase{"collections.deque(itertools.count())", wantSpent},
		stopCase{"g = (str(i) * 1000 for i in itertools.count())\ncollections.deque(g)", wantSpent},
		stopCase{"collections.deque(itertools.count(), maxlen=3)", wantTime},
		stopCase{"g = ((i, i) for i in itertools.count())\ncollections.OrderedDict(g)", wantSpent},
		stopCase{"g = ((str(i) * 1000, i) for i in itertools.count())\ncollections.defaultdict(list, g)", wantSpent},
		stopCase{"g = (str(i) * 1000 for i in itertools.count())\ncollections.OrderedDict.fromkeys(g)", wantSpent},
		stopCase{"g = ('f' + str(i) for i in itertools.count())\ncollections.namedtuple('P', g)", wantSpent},
		stopCase{"c = collections.Counter({i: 10**7 for i in range(100)})\nc.elements()", wantMemory},
		stopCase{"c = collections.Counter(a=10**4990)\nfor _ in range(10**9):\n    c = c + c", wantInt},
		stopCase{"c = collections.Counter(a=10**4990)\nfor _ in range(10**9):\n    c.update(c)", wantInt},
		stopCase{"c = collections.ChainMap({1: 2})\nfor _ in range(60):\n    c = collections.ChainMap(c, c)\nfor _ in range(10**9):\n    len(c)\n    c[3] if 3 in c else 0", wantTime},
	)
}
