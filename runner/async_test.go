package runner

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/packs"
)

// Tool calls in async code (issue 32): a tool called in a coroutine's
// body starts at once and the coroutine awaits its result, bounded as
// parallel() is.

func TestAsyncToolCallsRunAtOnce(t *testing.T) {
	reg, peak := concurrencyProbe(t)
	r := newRunner(t, WithRegistry(reg))
	res := r.Exec(context.Background(), `import asyncio
async def main():
    return await asyncio.gather(*(p.probe(ms=40 + i) for i in range(6)))
asyncio.run(main())`)
	if res.Text != "[40,41,42,43,44,45]" || peak.Load() != 6 {
		t.Errorf("gather of 6 calls: %q, peak %d, want the results in order and 6 at once", res.Text, peak.Load())
	}
	// At the top level of a program, as python -m asyncio runs it.
	peak.Store(0)
	res = r.Exec(context.Background(), `import asyncio
rs = await asyncio.gather(p.probe(ms=30), p.probe(ms=30), p.probe(ms=30))
sum(rs)`)
	if res.Text != "90" || peak.Load() != 3 {
		t.Errorf("top-level gather: %q, peak %d", res.Text, peak.Load())
	}
	// A plain function a coroutine calls gets values, as everywhere else.
	res = r.Exec(context.Background(), `import asyncio
def twice(n):
    return p.probe(ms=n) * 2
async def main():
    return twice(5) + await p.probe(ms=1)
asyncio.run(main())`)
	if res.Text != "11" {
		t.Errorf("a def called from a coroutine: %q, want 11", res.Text)
	}
}

func TestAsyncToolCallsWidth(t *testing.T) {
	reg, peak := concurrencyProbe(t)
	l := DefaultLimits()
	l.MaxParallel = 2
	r := newRunner(t, WithRegistry(reg), WithLimits(l))
	res := r.Exec(context.Background(), `import asyncio
async def main():
    return await asyncio.gather(*(p.probe(ms=20) for i in range(6)))
asyncio.run(main())`)
	if res.IsError() || peak.Load() != 2 {
		t.Errorf("limits.MaxParallel=2: peak %d, %q", peak.Load(), res.Text)
	}
	l.MaxToolCalls = 3
	r = newRunner(t, WithRegistry(reg), WithLimits(l))
	res = r.Exec(context.Background(), `import asyncio
async def main():
    return await asyncio.gather(*(p.probe(ms=1) for i in range(5)))
asyncio.run(main())`)
	if !res.IsError() || !strings.Contains(res.Text, "tool call") {
		t.Errorf("five calls over a budget of 3: %q, want the tool-call budget's error", res.Text)
	}
}

func TestAsyncToolCallErrors(t *testing.T) {
	r := newRunner(t)
	res := r.Exec(context.Background(), `import asyncio
async def main():
    try:
        await demo.fail(message="boom")
    except ToolError as e:
        print("caught", e)
    rs = await asyncio.gather(demo.foo(text="test"), demo.fail(message="x"), return_exceptions=True)
    return [type(x).__name__ for x in rs]
asyncio.run(main())`)
	if res.Text != "caught demo.fail failed: boom\n[\"str\",\"ToolError\"]" {
		t.Errorf("failed calls: %q", res.Text)
	}
}

// cancelProbe is a tool that waits until it is cancelled, counting the
// calls whose context ended.
func cancelProbe(t *testing.T) (*packs.Registry, *atomic.Int64) {
	t.Helper()
	var cancelled atomic.Int64
	reg := packs.NewRegistry()
	err := reg.Register(&packs.Tool{Pack: "p", Name: "hang", InputSchema: `{"type":"object"}`,
		Handler: func(ctx context.Context, a map[string]any) (any, error) {
			select {
			case <-ctx.Done():
				cancelled.Add(1)
				return nil, ctx.Err()
			case <-time.After(10 * time.Second):
				return "late", nil
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	return reg, &cancelled
}

func TestAsyncToolCallsCancelled(t *testing.T) {
	reg, cancelled := cancelProbe(t)
	r := newRunner(t, WithRegistry(reg))
	start := time.Now()
	res := r.Exec(context.Background(), `import asyncio
async def main():
    try:
        await asyncio.wait_for(p.hang(), 0.05)
    except TimeoutError:
        print("timed out")
    t = asyncio.create_task(p.hang())
    await asyncio.sleep(0.02)
    t.cancel()
    try:
        await t
    except asyncio.CancelledError:
        print("cancelled")
asyncio.run(main())`)
	if res.Text != "timed out\ncancelled\nOK (no return value)" && res.Text != "timed out\ncancelled" {
		t.Errorf("wait_for and cancel of calls: %q", res.Text)
	}
	waitFor(t, func() bool { return cancelled.Load() == 2 }, "both calls' contexts cancelled")
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	// Cancelling the run cancels the calls in flight.
	cancelled.Store(0)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	res = r.Exec(ctx, `import asyncio
await asyncio.gather(p.hang(), p.hang(), p.hang())`)
	if !res.IsError() {
		t.Errorf("a cancelled run: %q", res.Text)
	}
	waitFor(t, func() bool { return cancelled.Load() == 3 }, "the three calls cancelled with the run")
}

func TestAsyncToolCallsReported(t *testing.T) {
	r := newRunner(t)
	var mu sync.Mutex
	var calls []string
	res := r.Exec(context.Background(), `import asyncio
async def main():
    return await asyncio.gather(*(demo.sleep(ms=10) for i in range(4)))
asyncio.run(main())`, OnToolCall(func(c ToolCall) { mu.Lock(); calls = append(calls, c.ToolID); mu.Unlock() }))
	mu.Lock()
	defer mu.Unlock()
	if res.IsError() || len(calls) != 4 {
		t.Errorf("%q: %d calls reported, want 4: %v", res.Text, len(calls), calls)
	}
}

func waitFor(t *testing.T, ok func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("not so after 5 s: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A call cancelled by a timeout ends on its own goroutine while the
// coroutine that awaited it goes on: the goroutine touches nothing of
// the coroutine's thread (run with -race). Top-level lines outside an
// await get values; a call still running when a session's input ends
// fails the next input's await instead of hanging it.
func TestAsyncCancelledCallsAndTopLevel(t *testing.T) {
	reg, _ := concurrencyProbe(t)
	r := newRunner(t, WithRegistry(reg))
	res := r.Exec(context.Background(), `import asyncio
async def main():
    try:
        async with asyncio.timeout(0.005):
            await p.probe(ms=1000)
    except TimeoutError:
        print("timed out")
    s = ""
    for i in range(3000):
        s += "x"
    return len(s)
asyncio.run(main())`)
	if res.Text != "timed out\n3000" {
		t.Errorf("%q", res.Text)
	}
	res = r.Exec(context.Background(), `import asyncio
first = p.probe(ms=3)
print(first + 1)
print(await asyncio.gather(p.probe(ms=1), p.probe(ms=2)))`)
	if res.Text != "4\n[1, 2]" {
		t.Errorf("top level beside an await: %q", res.Text)
	}
	s := r.NewSession()
	defer s.Close()
	s.Exec(context.Background(), "import asyncio\nt = asyncio.ensure_future(p.probe(ms=200))\nawait asyncio.sleep(0)")
	done := make(chan *ExecResult, 1)
	go func() { done <- s.Exec(context.Background(), "await t") }()
	select {
	case res := <-done:
		if !res.IsError() {
			t.Errorf("a call whose input ended: %q, want its cancellation", res.Text)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("awaiting a call whose input ended hangs")
	}
}
