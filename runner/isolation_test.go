package runner

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/runner/isolate"
)

// The test binary is its own worker: started with ONETOOL_WORKER=1 it
// serves the worker protocol instead of running tests.
func TestMain(m *testing.M) {
	if IsWorker() {
		// WorkerMain, with the test-only modules the tests' servers have.
		if err := isolate.LimitMemory(); err != nil {
			fmt.Fprintf(os.Stderr, "onetool worker: memory limit: %v\n", err)
			os.Exit(1)
		}
		if err := serveWorker(context.Background(), os.Stdin, os.Stdout, withGlobals(ioTestGlobals())); err != nil {
			fmt.Fprintf(os.Stderr, "onetool worker: %v\n", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func isolated(t *testing.T, iso Isolation, opts ...Option) *Runner {
	t.Helper()
	r := newRunner(t, append(opts, WithIsolation(iso))...)
	t.Cleanup(func() { r.Close() })
	return r
}

// A program in a worker behaves as it does in-process: results, printed
// text, errors with their lines and causes, tool calls made in the server.
func TestIsolatedRunsMatchInProcess(t *testing.T) {
	in := newRunner(t)
	iso := isolated(t, Isolation{Workers: 1})
	for _, code := range []string{
		`demo.foo(text="test")`,
		"print('hi')\nreturn {'b': 1, 'a': [1, 2.5, None, True]}",
		"x = 1",
		"x = 1\n1 // 0",
		"zzz()",
		`demo.fail(message="boom")`,
		"x = 1\ndemo.panic()",
		`demo.add(a="x", b=1)`,
		`demo.foo(txt="a")`,
		`[demo.bar(text=str(i)) for i in range(20)]`,
		`parallel([call(demo.foo, text="a"), call(demo.bar, text="b")])`,
		`plan([{"id": "a", "tool": "demo.foo", "args": {"text": "x"}}, {"id": "b", "tool": "demo.bar", "args": {"text": "{{a}}"}, "after": ["a"]}])`,
		"```python\nchain([{'tool': 'demo.foo', 'args': {'text': 'x'}}])\n```",
		`ot.tools(pack="demo")`,
		"x = 0\nwhile True:\n    x += 1",
		// Classes and their instances, as the result and as an error.
		"class P:\n    def __init__(self, x):\n        self.x = x\n    def __repr__(self):\n        return f'P({self.x})'\n[P(1), P(2)]",
		"class P:\n    def __repr__(self):\n        return 'P!'\nP()",
		"class Bad(ValueError):\n    def __init__(self, code):\n        super().__init__(f'code {code}')\nraise Bad(7)",
		// Generators and coroutines, and tool calls awaited at once.
		"def g():\n    yield 1\n    yield 2\nx = g()\nnext(x)\n[next(x), list(x)]",
		"import asyncio\nasync def main():\n    return await asyncio.gather(demo.foo(text='a'), demo.bar(text='b'))\nasyncio.run(main())",
		"import asyncio\nawait asyncio.gather(demo.sleep(ms=5), demo.sleep(ms=5))",
	} {
		want := in.Exec(context.Background(), code, RunLimits(Limits{MaxSteps: 100000, MaxToolCalls: 100, MaxParallel: 4}))
		got := iso.Exec(context.Background(), code, RunLimits(Limits{MaxSteps: 100000, MaxToolCalls: 100, MaxParallel: 4}))
		if got.Text != want.Text || got.Printed != want.Printed || got.HasValue != want.HasValue || got.ToolCalls != want.ToolCalls {
			t.Errorf("%q:\nisolated   %q (printed %q, value %v, %d calls)\nin-process %q (printed %q, value %v, %d calls)",
				code, got.Text, got.Printed, got.HasValue, got.ToolCalls, want.Text, want.Printed, want.HasValue, want.ToolCalls)
		}
		for _, s := range []error{interp.ErrStepLimit, interp.ErrLimit, ErrExecution} {
			if errors.Is(got.Err, s) != errors.Is(want.Err, s) {
				t.Errorf("%q: errors.Is(%v) differs: isolated %v, in-process %v", code, s, got.Err, want.Err)
			}
		}
		var gi, wi *interp.Error
		if errors.As(want.Err, &wi) && (!errors.As(got.Err, &gi) || gi.Line != wi.Line || gi.Kind != wi.Kind) {
			t.Errorf("%q: error %#v, want %#v", code, got.Err, want.Err)
		}
	}
}

// A memory bomb in a worker ends with the memory error (the watchdog in
// the worker), and runs beside it complete.
func TestIsolatedMemoryBomb(t *testing.T) {
	l := DefaultLimits()
	l.MaxMemory = 64 << 20
	r := isolated(t, Isolation{Workers: 2}, WithLimits(l))
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if res := r.Exec(context.Background(), `[demo.foo(text=str(i)) for i in range(50)][-1]`); res.IsError() {
				t.Errorf("neighbour: %s", res.Text)
			}
		})
	}
	res := r.Exec(context.Background(), "s = 'x'\nfor i in range(40):\n    s = s + s")
	wg.Wait()
	if res.Text != "Error: memory limit of 64 MiB exceeded (set limits.max_memory to raise it)" || !errors.Is(res.Err, interp.ErrMemoryLimit) {
		t.Errorf("bomb: %q", res.Text)
	}
}

// When the hard limit strikes first (here the worker's own budget is set
// far above it), the worker dies, the run says why, and the next run gets
// a fresh worker.
func TestIsolatedHardLimitKillsWorker(t *testing.T) {
	l := DefaultLimits()
	l.MaxMemory = 8 << 30 // the watchdog would wait for 8 GiB
	r := isolated(t, Isolation{Workers: 1, MaxWorkers: 1, HardMemory: 256 << 20}, WithLimits(l))
	res := r.Exec(context.Background(), "s = 'x'\nfor i in range(40):\n    s = s + s")
	want := "Error: the worker process running this program was stopped by its hard memory limit of 256 MiB; it has been replaced"
	if res.Text != want || !errors.Is(res.Err, ErrWorker) || !errors.Is(res.Err, interp.ErrMemoryLimit) {
		t.Errorf("got %q (%v)", res.Text, res.Err)
	}
	if res := r.Exec(context.Background(), `demo.foo(text="test")`); res.Text != "orange" {
		t.Errorf("next run: %q", res.Text)
	}
}

// A worker that crashes outright (killed here from outside) is replaced and
// the run reports it.
func TestIsolatedWorkerKilled(t *testing.T) {
	r := isolated(t, Isolation{Workers: 1, MaxWorkers: 1})
	waitForPool(t, r, 1) // kill the worker serving the run, not one still starting
	go func() {
		time.Sleep(200 * time.Millisecond)
		live, _ := r.pool.Workers()
		for _, w := range live {
			if p, err := os.FindProcess(w.PID()); err == nil {
				p.Kill()
			}
		}
	}()
	res := r.Exec(context.Background(), `demo.sleep(ms=5000)`)
	if !errors.Is(res.Err, ErrWorker) || !strings.Contains(res.Text, "was killed (signal: killed)") {
		t.Errorf("got %q", res.Text)
	}
	if res := r.Exec(context.Background(), `demo.foo(text="test")`); res.Text != "orange" {
		t.Errorf("next run: %q", res.Text)
	}
}

// Cancelling the caller's context stops the program in the worker.
func TestIsolatedCancel(t *testing.T) {
	r := isolated(t, Isolation{Workers: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	res := r.Exec(ctx, "while True:\n    pass", RunLimits(Limits{})) // no budget of its own: only ctx stops it
	if !errors.Is(res.Err, interp.ErrTimeout) && !errors.Is(res.Err, interp.ErrCancelled) {
		t.Errorf("got %q", res.Text)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s", d)
	}
}

// Progress hooks fire for isolated runs as they do in-process: tool calls
// (made in the server) and plan steps (reported by the worker).
func TestIsolatedProgress(t *testing.T) {
	r := isolated(t, Isolation{Workers: 1})
	var mu sync.Mutex
	var calls, steps []string
	res := r.Exec(context.Background(),
		`plan([{"id": "a", "tool": "demo.foo", "args": {"text": "x"}}, {"id": "b", "tool": "demo.bar", "args": {"text": "y"}}])`+"\ndemo.add(a=1, b=2)",
		OnToolCall(func(c ToolCall) { mu.Lock(); calls = append(calls, c.ToolID); mu.Unlock() }),
		OnPlanStep(func(p PlanStep) { mu.Lock(); steps = append(steps, p.ID+" "+p.Status); mu.Unlock() }))
	if res.IsError() {
		t.Fatal(res.Text)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(calls)
	slices.Sort(steps)
	if !slices.Equal(calls, []string{"demo.add", "demo.bar", "demo.foo"}) || !slices.Equal(steps, []string{"a ok", "b ok"}) {
		t.Errorf("calls %v, steps %v", calls, steps)
	}
}

// dagProgram builds 2**40 leaves out of 40 shared tuples; each program
// below then spends minutes in one Go call of go.starlark.net, where no
// Starlark step boundary lets the worker's own budgets stop it.
const dagProgram = "a = (1,)\nfor i in range(40):\n    a = (a, a)\n"

var stuckPrograms = []struct{ name, code string }{
	{"hash", dagProgram + "len({a: 1})"},
	{"dict key", dagProgram + "d = {}\nd[a] = 1"},
}

// liveWorkers returns the pool's worker processes.
func liveWorkers(r *Runner) map[*isolate.Worker]bool {
	live, _ := r.pool.Workers()
	out := map[*isolate.Worker]bool{}
	for _, w := range live {
		out[w] = true
	}
	return out
}

// waitForPool waits until the pool has n workers, all set up and idle,
// and returns them.
func waitForPool(t *testing.T, r *Runner, n int) map[*isolate.Worker]bool {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		live := liveWorkers(r)
		if _, idle := r.pool.Workers(); len(live) == n && idle == n {
			return live
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pool has %d workers, want %d", len(live), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// overrunCount is ot.stats()["runs"]["overruns"].
func overrunCount(t *testing.T, r *Runner) string {
	t.Helper()
	res := r.Exec(context.Background(), `ot.stats()["runs"]["overruns"]`)
	if res.IsError() {
		t.Fatal(res.Text)
	}
	return res.Text
}

// checkKilledAndReplaced checks that exactly one worker of before, the one
// that served the stuck run, was killed, and that the pool is back to its
// size with a fresh worker in its place.
func checkKilledAndReplaced(t *testing.T, r *Runner, before map[*isolate.Worker]bool) {
	t.Helper()
	after := waitForPool(t, r, len(before))
	var gone []*isolate.Worker
	for w := range before {
		if !after[w] {
			gone = append(gone, w)
		}
	}
	if len(gone) != 1 {
		t.Fatalf("%d workers replaced, want 1", len(gone))
	}
	if st := gone[0].ExitStatus(); st != "signal: killed" {
		t.Errorf("the stuck worker ended with %v, want killed", st)
	}
}

// A program stuck in one long Go call holds its worker past the run's
// timeout: 1 s later the worker is killed and replaced, the run answers as
// a time-out does in-process, a neighbour in another worker completes, the
// pool returns to size and the overrun is counted.
func TestIsolatedOverrunKilled(t *testing.T) {
	const timeout = 300 * time.Millisecond
	for _, p := range stuckPrograms {
		t.Run(p.name, func(t *testing.T) {
			sink := &sinkLog{}
			r := isolated(t, Isolation{Workers: 2}, WithStatsSink(sink))
			before := waitForPool(t, r, 2)

			var neighbour *ExecResult
			var wg sync.WaitGroup
			wg.Go(func() {
				neighbour = r.Exec(context.Background(), "x = [demo.foo(text=str(i)) for i in range(20)]\nlen(x)")
			})
			start := time.Now()
			res := r.Exec(context.Background(), p.code, RunLimits(Limits{Timeout: timeout}))
			took := time.Since(start)
			wg.Wait()

			if res.Text != "Error: timed out after 300ms (set limits.timeout to raise it)" {
				t.Errorf("text %q", res.Text)
			}
			var ie *interp.Error
			if !errors.Is(res.Err, interp.ErrTimeout) || !errors.Is(res.Err, interp.ErrLimit) || !errors.As(res.Err, &ie) || ie.Kind != interp.KindLimit {
				t.Errorf("error %#v is not a time-out", res.Err)
			}
			if max := timeout + isolate.OverrunGrace + 700*time.Millisecond; took > max {
				t.Errorf("answered after %s, want within %s", took, max)
			}
			if neighbour.IsError() || neighbour.Text != "20" {
				t.Errorf("neighbour: %q", neighbour.Text)
			}
			checkKilledAndReplaced(t, r, before)

			// The pool serves a burst as before, then shrinks back to size.
			var burst sync.WaitGroup
			for i := range 4 {
				burst.Go(func() {
					if res := r.Exec(context.Background(), fmt.Sprintf("demo.add(a=%d, b=1)", i)); res.Text != strconv.Itoa(i+1) {
						t.Errorf("run %d after the kill: %q", i, res.Text)
					}
				})
			}
			burst.Wait()
			waitForPool(t, r, 2)

			if got := overrunCount(t, r); got != "1" {
				t.Errorf("ot.stats() runs overruns = %s, want 1", got)
			}
			sink.mu.Lock()
			defer sink.mu.Unlock()
			var overruns []string
			for _, st := range sink.runs {
				if st.Overrun {
					overruns = append(overruns, st.ErrorKind)
				}
			}
			if !slices.Equal(overruns, []string{"limit"}) {
				t.Errorf("runs handed to the sink as overruns: %v", overruns)
			}
		})
	}
}

// Cancelling a stuck run (or the caller's deadline passing) ends it within
// the 1 s grace, with the text an in-process run would have, and replaces
// the worker.
func TestIsolatedOverrunCancelled(t *testing.T) {
	for _, tc := range []struct {
		name   string
		limits Limits
		ctx    func() (context.Context, context.CancelFunc)
		want   string
		cause  error
	}{
		{"cancel", Limits{Timeout: time.Minute}, func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			return ctx, cancel
		}, "Error: cancelled", interp.ErrCancelled},
		{"caller deadline", Limits{}, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 100*time.Millisecond)
		}, "Error: timed out", interp.ErrTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := isolated(t, Isolation{Workers: 2})
			before := waitForPool(t, r, 2)
			ctx, cancel := tc.ctx()
			defer cancel()
			start := time.Now()
			res := r.Exec(ctx, stuckPrograms[0].code, RunLimits(tc.limits))
			took := time.Since(start)
			if res.Text != tc.want || !errors.Is(res.Err, tc.cause) {
				t.Errorf("got %q (%v), want %q", res.Text, res.Err, tc.want)
			}
			if max := 100*time.Millisecond + isolate.OverrunGrace + 700*time.Millisecond; took > max {
				t.Errorf("answered after %s, want within %s", took, max)
			}
			checkKilledAndReplaced(t, r, before)
			if got := overrunCount(t, r); got != "1" {
				t.Errorf("ot.stats() runs overruns = %s, want 1", got)
			}
		})
	}
}

// A worker that stops the program itself at its deadline, as it does
// whenever the program reaches Starlark steps, keeps serving: its answer
// (with the line) is the run's, and nothing is killed or counted.
func TestIsolatedTimeoutWithinGrace(t *testing.T) {
	r := isolated(t, Isolation{Workers: 2})
	before := waitForPool(t, r, 2)
	res := r.Exec(context.Background(), "x = 0\nwhile True: x += 1", RunLimits(Limits{Timeout: 300 * time.Millisecond}))
	if res.Text != "Error: timed out after 300ms at line 2 (set limits.timeout to raise it)" {
		t.Errorf("got %q", res.Text)
	}
	if after := liveWorkers(r); !maps.Equal(after, before) {
		t.Errorf("workers changed: %d before, %d after", len(before), len(after))
	}
	if got := overrunCount(t, r); got != "0" {
		t.Errorf("ot.stats() runs overruns = %s, want 0", got)
	}
}

// A worker that exits before it is set up fails the runs that wanted it
// with why, and leaves the pool usable and closable: its slot is freed
// once, not twice.
func TestIsolatedWorkerFailsSetup(t *testing.T) {
	exe, err := exec.LookPath("false")
	if err != nil {
		t.Skip("no false command")
	}
	r := isolated(t, Isolation{Workers: 1, MaxWorkers: 1, Command: []string{exe}})
	for i := range 2 {
		done := make(chan *ExecResult, 1)
		go func() { done <- r.Exec(context.Background(), "1") }()
		select {
		case res := <-done:
			if !errors.Is(res.Err, ErrWorker) || strings.Count(res.Text, "worker failed") != 1 {
				t.Errorf("run %d: %q", i, res.Text)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("run %d is still waiting for a worker", i)
		}
	}
}
