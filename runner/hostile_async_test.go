package runner

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Hostile generators and coroutines (issue 32, SPEC §8): each ends with
// CPython's exception or a budget's error within the deadline, nothing
// is left behind, and the runner goes on serving.

func TestHostileGeneratorsAndTasks(t *testing.T) {
	l := DefaultLimits()
	l.Timeout = 10 * time.Second
	l.MaxMemory = 32 << 20
	l.MaxSteps = 4_000_000
	r := newRunner(t, WithLimits(l))
	tests := []struct{ name, code, want string }{
		{"yields forever into list", "def g():\n    while True:\n        yield 'x' * 100\nlist(g())", "limit of"},
		{"coroutine that never awaits", "import asyncio\nasync def f():\n    while True:\n        pass\nasyncio.run(f())", "step limit"},
		{"100,000 pending tasks", "import asyncio\nasync def f():\n    await asyncio.sleep(10)\nasync def main():\n    ts = [asyncio.create_task(f()) for _ in range(100000)]\n    await asyncio.sleep(0)\nasyncio.run(main())", "memory limit"},
		{"deep yield from chain", "def g(n):\n    if n:\n        yield from g(n - 1)\n    else:\n        yield 0\nprint(list(g(200000)))", "limit of|RecursionError"},
		{"deep chain of started generators", "def g(n):\n    it = iter(g(n - 1)) if n else iter([0])\n    next(it, None)\n    yield from it\nlist(g(100000))", "limit"},
		{"generator resumes itself", "def g():\n    yield next(me)\nme = g()\ntry:\n    next(me)\nexcept ValueError as e:\n    print(e)", "generator already executing"},
		{"budget uncatchable in a generator", "def g():\n    try:\n        while True:\n            pass\n    except BaseException:\n        yield 'caught'\nprint(next(g()))", "step limit"},
		{"budget uncatchable in a task", "import asyncio\nasync def f():\n    try:\n        while True:\n            await asyncio.sleep(0)\n    except BaseException:\n        print('caught')\n    finally:\n        print('finally')\nasyncio.run(f())", "step limit"},
		{"suspended generators holding memory", "def g(i):\n    big = str(i) * (8 << 20)\n    yield len(big)\ngs = []\nfor i in range(10):\n    it = g(i)\n    next(it)\n    gs.append(it)\nprint(len(gs))", "memory limit"},
		{"an __await__ generator that swallows the run's end", "import asyncio\nclass Ticker:\n    def __await__(self):\n        while True:\n            try:\n                yield\n            except Exception:\n                pass\nasync def f():\n    await Ticker()\nasync def main():\n    asyncio.create_task(f())\n    await asyncio.sleep(0.01)\n    return 'end'\nprint(asyncio.new_event_loop().run_until_complete(main()))", "end"},
		{"exception groups nested 100,000 deep", "eg = ExceptionGroup('', [ValueError(1)])\nfor _ in range(100000):\n    eg = ExceptionGroup('', [eg])\ntry:\n    eg.split(ValueError)\nexcept RecursionError as e:\n    print('split:', e)\ntry:\n    raise eg\nexcept* ValueError:\n    pass\n", "split: maximum recursion depth exceeded"},
		{"an error rising through 1,000 started generators", "def g(n):\n    if n == 0:\n        yield 0\n        raise ValueError('deep')\n    it = g(n - 1)\n    yield next(it)\n    yield from it\nx = g(1000)\nnext(x)\ntry:\n    next(x)\nexcept ValueError as e:\n    print('rose', e)", "rose deep"},
		{"deadlock", "import asyncio\nasync def main():\n    await asyncio.Event().wait()\nasyncio.run(main())", "nothing left to run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			res := r.Exec(context.Background(), tt.code)
			if !containsAny(res.Text, strings.Split(tt.want, "|")) || strings.Contains(res.Text, "caught") {
				t.Errorf("%q: want %q", res.Text, tt.want)
			}
			if d := time.Since(start); d > l.Timeout+2*time.Second {
				t.Errorf("took %v, past the deadline", d)
			}
		})
	}
	if res := r.Exec(context.Background(), "def g():\n    yield 1\nlist(g())"); res.Text != "[1]" {
		t.Errorf("after the hostile runs: %q", res.Text)
	}
}

// TestSuspendedLeaveNothing: runs that end with generators, coroutines
// and async generators suspended (and tool calls in flight) leave no
// goroutine behind.
func TestSuspendedLeaveNothing(t *testing.T) {
	r := newRunner(t)
	code := `import asyncio
def gen():
    try:
        yield 1
        yield 2
    finally:
        print("never")
g = gen()
next(g)
gs = [gen() for _ in range(3)]
for x in gs:
    next(x)
async def agen():
    yield 1
    await asyncio.sleep(10)
    yield 2
async def sleeper():
    await asyncio.sleep(10)
async def main():
    a = agen()
    await a.__anext__()
    asyncio.create_task(sleeper())
    asyncio.create_task(demo.sleep(ms=10000))
    await asyncio.sleep(0)
    return "done"
t = asyncio.create_task(sleeper())
await asyncio.sleep(0)
asyncio.run(main())`
	res := r.Exec(context.Background(), code)
	if res.Text != "done" {
		t.Fatalf("%q", res.Text)
	}
	runtime.GC()
	before := runtime.NumGoroutine()
	for i := range 1000 {
		if res := r.Exec(context.Background(), code); res.Text != "done" {
			t.Fatalf("run %d: %q", i, res.Text)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		n := runtime.NumGoroutine()
		if n <= before+5 {
			break
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("goroutines: %d before 1,000 runs, %d after:\n%s", before, n, firstStacks(string(buf), 3))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func firstStacks(s string, n int) string {
	parts := strings.SplitN(s, "\n\n", n+1)
	if len(parts) > n {
		parts = parts[:n]
	}
	return strings.Join(parts, "\n\n") + fmt.Sprintf("\n(%d goroutines in all)", strings.Count(s, "goroutine "))
}
