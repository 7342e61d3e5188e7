package stdlib

import (
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// TestClassModules checks dataclasses, enum and functools' class tools
// by what a program prints (each answer is CPython 3.11's).
func TestClassModules(t *testing.T) {
	const dc = "from dataclasses import dataclass, field, fields, asdict, astuple, replace, make_dataclass, FrozenInstanceError\n"
	const en = "from enum import Enum, IntEnum, Flag, auto\n"
	tests := []struct{ code, want string }{
		{dc + "@dataclass\nclass P:\n  x: int\n  y: str = 'a'\nprint(P(1), P(1) == P(1, 'a'), P.__match_args__)", "P(x=1, y='a') True ('x', 'y')"},
		{dc + "@dataclass(frozen=True)\nclass P:\n  x: int\ntry:\n  P(1).x = 2\nexcept FrozenInstanceError as e:\n  print(e, isinstance(e, AttributeError))", "cannot assign to field 'x' True"},
		{dc + "@dataclass\nclass A:\n  a: int\n@dataclass\nclass B(A):\n  b: int = 2\n  a: int = 1\nprint(B(), [f.name for f in fields(B)])", "B(a=1, b=2) ['a', 'b']"},
		{dc + "@dataclass\nclass N:\n  v: int\n  nxt: object = None\nn = N(1)\nn.nxt = n\nprint(n)", "N(v=1, nxt=...)"},
		{dc + "@dataclass\nclass P:\n  x: int\n  y: list = field(default_factory=list)\nprint(asdict(P(1, [P(2)])), astuple(P(1)))", "{'x': 1, 'y': [{'x': 2, 'y': []}]} (1, [])"},
		{dc + "P = make_dataclass('P', ['a', ('b', int, field(default=3))])\nprint(P(1), replace(P(1), b=5))", "P(a=1, b=3) P(a=1, b=5)"},
		{en + "class C(Enum):\n  R = 1\n  G = 2\nprint(C(2), C['R'], list(C), repr(C.G), C.R.name, C.R.value)", "C.G C.R [<C.R: 1>, <C.G: 2>] <C.G: 2> R 1"},
		{en + "class C(Enum):\n  R = 1\ntry:\n  C(3)\nexcept ValueError as e:\n  print(e)", "3 is not a valid C"},
		{en + "class I(IntEnum):\n  A = auto()\n  B = auto()\nprint(I.B, I.A + I.B, f'{I.B:03d}', sorted([I.B, I.A]))", "2 3 002 [<I.A: 1>, <I.B: 2>]"},
		{en + "class P(Flag):\n  R = auto()\n  W = auto()\nprint(P.R | P.W, list(P.R | P.W), P.R in (P.R | P.W))", "P.R|W [<P.R: 1>, <P.W: 2>] True"},
		{en + "class C(Enum):\n  R = 1\ntry:\n  class D(C):\n    G = 2\nexcept TypeError as e:\n  print(e)", "<enum 'D'> cannot extend <enum 'C'>"},
		{"import functools\n@functools.total_ordering\nclass V:\n  def __init__(s, n): s.n = n\n  def __eq__(s, o): return s.n == o.n\n  def __lt__(s, o): return s.n < o.n\nprint(V(1) <= V(1), V(2) > V(1), V(2) >= V(3))", "True True False"},
		{"import functools\nclass C:\n  @functools.cached_property\n  def v(self):\n    print('once')\n    return 5\nc = C()\nprint(c.v, c.v)", "once\n5 5"},
		{"import copy\nclass N: pass\nn = N()\nn.me = n\nm = copy.deepcopy(n)\nprint(m.me is m, m is n)", "True False"},
	}
	for _, tt := range tests {
		got, err := printedOf(tt.code)
		if err != nil {
			t.Errorf("%s\n: %v", tt.code, err)
			continue
		}
		if got = strings.TrimSuffix(got, "\n"); got != tt.want {
			t.Errorf("%s\n got %q\nwant %q", tt.code, got, tt.want)
		}
	}
}

// TestClassModulesBounded: asdict, astuple, deepcopy and pprint walk
// structures a program built; deep ones end with the depth limit, wide
// ones with a budget, within the deadline.
func TestClassModulesBounded(t *testing.T) {
	const chain = "from dataclasses import dataclass, asdict\nimport copy, pprint\n@dataclass\nclass N:\n  nxt: object = None\nn = None\nfor i in range(5000):\n  n = N(n)\n"
	for _, call := range []string{"asdict(n)", "copy.deepcopy(n)"} {
		start := time.Now()
		_, err := run(chain+call, interp.Options{Timeout: 10 * time.Second, MaxSteps: 10_000_000, MaxMemory: 64 << 20, Watchdog: interp.NewWatchdog()})
		if err == nil || !(isBudget(err) || strings.Contains(err.Error(), "nested more than") || strings.Contains(err.Error(), "RecursionError")) {
			t.Errorf("%s of a 5000-deep chain: %v, want the depth limit", call, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s took %s", call, d)
		}
	}
	const wide = "from dataclasses import dataclass, asdict, astuple\nimport copy\n@dataclass\nclass W:\n  items: list\nrow = list(range(100000))\nw = W([row] * 200)\n"
	checkBounded(t, 2_000_000, wide+"asdict(w)", wide+"astuple(w)", wide+"copy.deepcopy(W([W(row)] * 200))")
}

// TestDataclassAsDict is the runner's view: a dataclass instance as the
// dict of its fields, anything else not.
func TestDataclassAsDict(t *testing.T) {
	res, err := run("from dataclasses import dataclass\n@dataclass\nclass P:\n  x: int\n  tags: list\np = P(1, [P(2, [])])\nq = 3\n", interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	thread := &starlark.Thread{}
	d, ok, err := DataclassAsDict(thread, res.Globals["p"])
	if err != nil || !ok {
		t.Fatalf("DataclassAsDict(p) = %v, %v, %v", d, ok, err)
	}
	if s := d.String(); s != `{"x": 1, "tags": [{"x": 2, "tags": []}]}` {
		t.Errorf("DataclassAsDict(p) = %s", s)
	}
	if _, ok, _ := DataclassAsDict(thread, res.Globals["q"]); ok {
		t.Error("DataclassAsDict(3) is ok")
	}
}
