package objects_test

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/interp"
)

// The object model's costs (issue 30, item 7), each a whole program run
// as the runner runs one (parse, lower, compile, execute), with a loop
// long enough that the program's set-up is noise. Each reports ns per
// loop iteration ("ns/call", "ns/read", ...) besides the run's time;
// docs/benchmarks.md ("Classes (issue 30)") has the numbers.
//
//	go test ./interp/objects -run '^$' -bench . -benchmem

// benchN is the iterations of each benchmark's loop.
const benchN = 20000

// runBench runs src b.N times, checking once that it prints want, and
// reports the time per loop iteration as unit.
func runBench(b *testing.B, src, want, unit string) {
	b.Helper()
	runBenchN(b, benchN, src, want, unit)
}

// runBenchN is runBench with a loop of n iterations (N_ITER in src).
func runBenchN(b *testing.B, n int, src, want, unit string) {
	b.Helper()
	src = strings.ReplaceAll(src, "N_ITER", strconv.Itoa(n))
	res, err := run(src, interp.Options{})
	if err != nil {
		b.Fatalf("%v", err)
	}
	if res.Printed != want {
		b.Fatalf("printed %q, want %q", res.Printed, want)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := run(src, interp.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), unit)
}

// A method call and the same work as a function call: obj.m(i) against
// f(obj, i). The target: the method at most 1.5x the function.
// (The program mentions a class in both, so both are lowered alike.)
const callPrelude = `
class Acc:
    def __init__(self):
        self.total = 0
    def add(self, i):
        self.total += i
        return self.total

def add(obj, i):
    obj.total += i
    return obj.total

obj = Acc()
`

func BenchmarkMethodCall(b *testing.B) {
	runBench(b, callPrelude+`
for i in range(N_ITER):
    obj.add(i)
print(obj.total)
`, strconv.Itoa(benchN*(benchN-1)/2), "ns/call")
}

func BenchmarkFunctionCall(b *testing.B) {
	runBench(b, callPrelude+`
for i in range(N_ITER):
    add(obj, i)
print(obj.total)
`, strconv.Itoa(benchN*(benchN-1)/2), "ns/call")
}

// The same pair with bodies that do nothing but return: the call's own
// overhead, where the method pays for reading obj.m (a bound method made)
// and for the bound method passing obj first.
const barePrelude = `
class K:
    def m(self, i):
        return i

def f(obj, i):
    return i

obj = K()
n = 0
`

func BenchmarkMethodCallBare(b *testing.B) {
	runBench(b, barePrelude+`
for i in range(N_ITER):
    n = obj.m(i)
print(n)
`, strconv.Itoa(benchN-1), "ns/call")
}

func BenchmarkFunctionCallBare(b *testing.B) {
	runBench(b, barePrelude+`
for i in range(N_ITER):
    n = f(obj, i)
print(n)
`, strconv.Itoa(benchN-1), "ns/call")
}

// An attribute read on instances of 1, 10 and 1000 attributes: the time
// per read must not grow with the attributes (O(1)). The loop is five
// times longer than the others', so that setting the 1000 attributes
// first is 1-2% of the run.
func BenchmarkAttrRead(b *testing.B) {
	for _, attrs := range []int{1, 10, 1000} {
		b.Run("attrs="+strconv.Itoa(attrs), func(b *testing.B) {
			runBenchN(b, 5*benchN, `
class Rec:
    pass

r = Rec()
for k in range(`+strconv.Itoa(attrs)+`):
    setattr(r, "a" + str(k), k)
r.a0 = 1
t = 0
for i in range(N_ITER):
    t += r.a0
print(t)
`, strconv.Itoa(5*benchN), "ns/read")
		})
	}
}

// A property read: the getter is a call of the program's function.
func BenchmarkPropertyRead(b *testing.B) {
	runBench(b, `
class Box:
    def __init__(self, w):
        self._w = w
    @property
    def w(self):
        return self._w

bx = Box(1)
t = 0
for i in range(N_ITER):
    t += bx.w
print(t)
`, strconv.Itoa(benchN), "ns/read")
}

// Sorting instances by their __lt__ (called from Go by sorted), reported
// per instance sorted.
func BenchmarkSpecialMethodSort(b *testing.B) {
	runBench(b, `
class Rec:
    def __init__(self, k):
        self.k = k
    def __lt__(self, other):
        return self.k < other.k

rs = [Rec((i * 7919) % N_ITER) for i in range(N_ITER)]
s = sorted(rs)
print(s[0].k, s[-1].k)
`, "0 "+strconv.Itoa(benchN-1), "ns/elem")
}

// == of two dataclass instances (the generated __eq__ compares the fields
// as tuples), per comparison.
func BenchmarkDataclassEq(b *testing.B) {
	runBench(b, `
from dataclasses import dataclass

@dataclass
class P:
    x: int
    y: str

a = P(1, "a")
c = P(1, "a")
n = 0
for i in range(N_ITER):
    if a == c:
        n += 1
print(n)
`, strconv.Itoa(benchN), "ns/eq")
}

// The class-heavy programs of testdata/perf at a tenth of their size, in
// process, for profiles (TestClassesAgainstCPython in cmd/onetool is the
// side-by-side with CPython):
//
//	go test ./interp/objects -run '^$' -bench Perf -cpuprofile cpu.out
func BenchmarkPerfPrograms(b *testing.B) {
	for _, name := range []string{"classes_sort", "classes_sim", "classes_dataclass"} {
		b.Run(name, func(b *testing.B) {
			src, err := os.ReadFile("../../testdata/perf/" + name + ".py")
			if err != nil {
				b.Fatal(err)
			}
			code := regexp.MustCompile(`(?m)^N = ([0-9_]+)$`).ReplaceAllStringFunc(string(src), func(line string) string {
				n, _ := strconv.Atoi(strings.ReplaceAll(strings.TrimPrefix(line, "N = "), "_", ""))
				return "N = " + strconv.Itoa(max(n/10, 1))
			})
			b.ReportAllocs()
			for b.Loop() {
				if _, err := run(code, interp.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// C(i): a new instance and its __init__ setting one attribute.
func BenchmarkNewInstance(b *testing.B) {
	runBench(b, `
class C:
    def __init__(self, v):
        self.v = v

for i in range(N_ITER):
    c = C(i)
print(c.v)
`, strconv.Itoa(benchN-1), "ns/new")
}

// What a program that may hold instances pays for the operators the
// lowering sends to helpers there (docs/benchmarks.md, "Classes (issue
// 30)"): a comparison, ==, in and an augmented assignment whose operands
// the lowering cannot see the type of (an item of a list), and a
// comparison of a range loop's int with a literal, per iteration.
func BenchmarkClassProgramOps(b *testing.B) {
	const prelude = `
class C:
    def __init__(self):
        self.n = 0

o = C()
xs = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3]
t = 0
r = False
`
	for _, c := range []struct{ name, body, want string }{
		{"none=item", "    r = xs[i % 10]\n", "3"},
		{"cmp=item", "    r = xs[i % 10] < 5\n", "True"},
		{"cmp=rangeint", "    r = i < 5\n", "False"},
		{"eq=item", "    r = xs[i % 10] == 5\n", "False"},
		{"in=list", "    r = i in xs\n", "False"},
		{"iadd=name", "    t += xs[i % 10]\n", "False"},
		{"iadd=attr", "    o.n += 1\n", "False"},
	} {
		b.Run(c.name, func(b *testing.B) {
			runBench(b, prelude+"for i in range(N_ITER):\n"+c.body+"print(r)\n", c.want, "ns/iter")
		})
	}
}
