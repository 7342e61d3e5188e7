package runner

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp"
)

// The test binary is its own worker: started with ONETOOL_WORKER=1 it
// serves the worker protocol instead of running tests.
func TestMain(m *testing.M) {
	if IsWorker() {
		os.Exit(WorkerMain())
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
	go func() {
		time.Sleep(200 * time.Millisecond)
		r.pool.mu.Lock()
		for w := range r.pool.live {
			w.cmd.Process.Kill()
		}
		r.pool.mu.Unlock()
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
