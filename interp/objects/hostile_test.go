package objects_test

import (
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp"
)

// Hostile classes (SPEC §8): special methods that recurse, raise, return
// the wrong type or never end, called from Go (a sort, a dict insert, a
// format, json); huge namespaces and deep hierarchies. Each program ends
// with CPython's exception, caught and printed, or with a budget's error,
// well within the deadline; none crashes the process.

// caught are programs whose hostile class raises what CPython raises: the
// program catches it and prints want.
var caught = []struct {
	name, code, want string
}{
	{"repr recurses", `
class R:
    def __repr__(self):
        return repr(self)
try:
    repr(R())
except RecursionError as e:
    print("RecursionError")`, "RecursionError"},
	{"eq recurses", `
class E:
    def __eq__(self, o):
        return self == o
    __hash__ = object.__hash__
try:
    E() == E()
except RecursionError:
    print("RecursionError")`, "RecursionError"},
	{"getattr recurses", `
class G:
    def __getattr__(self, name):
        return self.missing
try:
    G().x
except RecursionError:
    print("RecursionError")`, "RecursionError"},
	{"hash raises inside a dict insert", `
class H:
    def __hash__(self):
        raise ValueError("no hash")
try:
    {H(): 1}
except ValueError as e:
    print(e)`, "no hash"},
	{"hash of the wrong type", `
class H:
    def __hash__(self):
        return "x"
try:
    {H()}
except TypeError as e:
    print(e)`, "__hash__ method should return an integer"},
	{"lt raises inside sorted", `
class L:
    def __lt__(self, o):
        raise KeyError("cmp")
try:
    sorted([L(), L(), L()])
except KeyError as e:
    print("KeyError", e)`, "KeyError 'cmp'"},
	{"repr of the wrong type inside format", `
class F:
    def __repr__(self):
        return 42
try:
    f"{F()!r}"
except TypeError as e:
    print(e)`, "__repr__ returned non-string (type int)"},
	{"len negative", `
class N:
    def __len__(self):
        return -1
try:
    len(N())
except ValueError as e:
    print(e)`, "__len__() should return >= 0"},
	{"json default recurses", `
import json
class J:
    pass
def default(o):
    return J()
try:
    json.dumps(J(), default=default)
except (ValueError, RecursionError) as e:
    print(type(e).__name__)`, "RecursionError"},
	{"mro conflict", `
class A: pass
class B(A): pass
try:
    class C(A, B): pass
except TypeError as e:
    print(str(e).replace("\n", " ").split(" for ")[0])`, "Cannot create a consistent method resolution order (MRO)"},
	{"init returns a value", `
class I:
    def __init__(self):
        return 1
try:
    I()
except TypeError as e:
    print(e)`, "__init__() should return None, not 'int'"},
}

func TestHostileClassesRaise(t *testing.T) {
	for _, tc := range caught {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			res, err := run(tc.code, interp.Options{Timeout: 10 * time.Second, MaxMemory: 64 << 20, Watchdog: interp.NewWatchdog()})
			if err != nil {
				t.Fatalf("%v", err)
			}
			if strings.TrimSpace(res.Printed) != tc.want {
				t.Errorf("printed %q, want %q", res.Printed, tc.want)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %s", d)
			}
		})
	}
}

// bounded are programs a budget must stop.
var bounded = []struct{ name, code string }{
	{"repr never ends", `
class R:
    def __repr__(self):
        while True:
            pass
print([R()])`},
	{"hash never ends in a dict insert", `
class H:
    def __hash__(self):
        n = 0
        while True:
            n += 1
d = {H(): 1}`},
	{"lt never ends in sorted", `
class L:
    def __lt__(self, o):
        while True:
            pass
sorted([L(), L()])`},
	{"a million attributes on a class", `
class C:
    pass
for i in range(10**7):
    setattr(C, "a" + str(i), i)`},
	{"a million attributes on an instance", `
class C:
    pass
c = C()
for i in range(10**7):
    setattr(c, "a" + str(i), "x" * 100)`},
	{"a chain of ten thousand classes", `
C = object
for i in range(10000):
    C = type("C" + str(i), (C,), {})`},
	{"instances without end", `
class Node:
    def __init__(self, nxt):
        self.nxt = nxt
n = None
while True:
    n = Node(n)`},
	{"bool never ends in an if", `
class B:
    def __bool__(self):
        while True:
            pass
if B():
    pass`},
}

func TestHostileClassesBounded(t *testing.T) {
	for _, tc := range bounded {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := run(tc.code, interp.Options{Timeout: 3 * time.Second, MaxSteps: 50_000_000, MaxMemory: 64 << 20, Watchdog: interp.NewWatchdog()})
			if !isBudget(err) {
				t.Errorf("%v, want a budget's error", err)
			}
			if d := time.Since(start); d > 6*time.Second {
				t.Errorf("took %s", d)
			}
		})
	}
}
