package mcpserver

import (
	"fmt"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner"
)

// With session state, globals persist across the run calls of one
// session, are not seen by another session running at the same time, and
// are freed when their session ends. Without it, every call starts fresh.
func TestSessionState(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	server, h := newServer(r, Options{SessionState: true})
	ctx := t.Context()
	open := func() *mcp.ClientSession {
		st, ct := mcp.NewInMemoryTransports()
		if _, err := server.Connect(ctx, st, nil); err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	a, b := open(), open()
	var wg sync.WaitGroup
	for i, cs := range []*mcp.ClientSession{a, b} {
		wg.Go(func() {
			callRun(t, cs, fmt.Sprintf("count = %d\ndef bump():\n    return count + 1", i*100))
			for range 20 {
				callRun(t, cs, "count = bump()")
			}
		})
	}
	wg.Wait()
	if got := text(t, callRun(t, a, "count")); got != "20" {
		t.Errorf("session a: count = %s, want 20", got)
	}
	if got := text(t, callRun(t, b, "count")); got != "120" {
		t.Errorf("session b: count = %s, want 120", got)
	}
	if n := h.liveSessions(); n != 2 {
		t.Errorf("%d sessions hold state, want 2", n)
	}
	a.Close()
	deadline := time.Now().Add(5 * time.Second)
	for h.liveSessions() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("the state of a closed session was not freed: %d live", h.liveSessions())
		}
		time.Sleep(5 * time.Millisecond)
	}
	b.Close()

	// Off by default: each call starts fresh.
	cs, _ := connect(t, protocolVersions[0], Options{})
	callRun(t, cs, "count = 1")
	if got := text(t, callRun(t, cs, "count")); got != "Error: line 1: 'count' is not defined. Available packs: db, demo, file, ot, web" {
		t.Errorf("without session state: %s", got)
	}
}

// heapMiB is the live heap after a collection, in MiB.
func heapMiB() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc >> 20
}

// The globals of an abandoned HTTP session are freed when it has been idle
// for session_idle. (On main, six abandoned sessions held 2.49 GB.)
func TestAbandonedSessionGlobalsFreed(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	server, h := newServer(r, Options{SessionState: true})
	srv := httptest.NewServer(HTTPHandler(server, HTTPOptions{SessionIdle: 200 * time.Millisecond}))
	defer srv.Close()
	rc := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client()}
	before := heapMiB()
	id := rc.open()
	rc.run(id, `x = "ab" * (16 << 20)`)
	if held := heapMiB(); held < before+30 {
		t.Fatalf("the session should hold 32 MiB: heap %d MiB, was %d MiB", held, before)
	}
	waitFor(t, "the idle session's state is still held", func() bool { return h.liveSessions() == 0 })
	if after := heapMiB(); after > before+8 {
		t.Errorf("heap %d MiB after the session ended, was %d MiB before it", after, before)
	}
}

// A session cannot keep more than the run memory budget: the input that
// makes its globals outgrow limits.max_memory fails, and they are cleared,
// however little each input adds.
func TestSessionGlobalsWithinMemoryBudget(t *testing.T) {
	cs, _ := connect(t, protocolVersions[0], Options{SessionState: true}, runner.WithLimits(runner.Limits{MaxMemory: 18 << 20}))
	before := heapMiB()
	callRun(t, cs, "x = []")
	for i := 1; i <= 4; i++ { // 4 MiB each: 16 MiB fit
		if got := text(t, callRun(t, cs, `x.append("ab" * (2 << 20))`+"\nlen(x)")); got != fmt.Sprint(i) {
			t.Fatalf("input %d: %s", i, got)
		}
	}
	res := callRun(t, cs, `x.append("ab" * (2 << 20))`+"\nlen(x)")
	if want := "Error: memory limit of 18 MiB exceeded by the variables this session keeps; they have all been cleared (set limits.max_memory to raise it)"; !res.IsError || text(t, res) != want {
		t.Errorf("fifth input: %s\nwant %s", text(t, res), want)
	}
	if got := text(t, callRun(t, cs, "x")); !strings.HasPrefix(got, "Error: line 1: 'x' is not defined") {
		t.Errorf("after the limit, x: %s", got)
	}
	if after := heapMiB(); after > before+8 {
		t.Errorf("heap %d MiB after the session was cleared, was %d MiB", after, before)
	}
	// The session goes on.
	if got := text(t, callRun(t, cs, "y = 1\ny + 1")); got != "2" {
		t.Errorf("after clearing: %s", got)
	}
}

// Values a session keeps inside functions count too: a closure holds what
// it captured, a bound method its receiver.
func TestSessionClosuresWithinMemoryBudget(t *testing.T) {
	for _, tt := range []struct{ name, keep string }{
		{"closure", "def make():\n    big = \"ab\" * (2 << 20)\n    return lambda: big\nfs.append(make())"},
		{"default", "def make():\n    big = \"ab\" * (2 << 20)\n    def f(x = big):\n        return x\n    return f\nfs.append(make())"},
		{"bound method", "fs.append((\"ab\" * (2 << 20)).upper)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs, _ := connect(t, protocolVersions[0], Options{SessionState: true}, runner.WithLimits(runner.Limits{MaxMemory: 18 << 20}))
			callRun(t, cs, "fs = []")
			for i := 1; i <= 4; i++ {
				if res := callRun(t, cs, tt.keep); res.IsError {
					t.Fatalf("input %d: %s", i, text(t, res))
				}
			}
			if res := callRun(t, cs, tt.keep); !res.IsError || !strings.HasPrefix(text(t, res), "Error: memory limit of 18 MiB exceeded by the variables this session keeps") {
				t.Errorf("fifth input: %s", text(t, res))
			}
		})
	}
}

// A generator and an asyncio task made by one run call of a session are
// resumed by the next (issue 32), and what they hold suspended — a
// goroutine each — ends with the session.
func TestSessionKeepsGenerators(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	server, h := newServer(r, Options{SessionState: true})
	ctx := t.Context()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	callRun(t, cs, "def naturals():\n    n = 0\n    while True:\n        yield n\n        n += 1\nnums = naturals()\nnext(nums)")
	callRun(t, cs, "import asyncio\nasync def later():\n    await asyncio.sleep(0)\n    return 7\nawait asyncio.sleep(0)\nt = asyncio.create_task(later())\ngens = [naturals() for _ in range(20)]\n[next(g) for g in gens]")
	if got := text(t, callRun(t, cs, "[next(nums), next(nums)]")); got != "[1,2]" {
		t.Errorf("the generator resumed by a later call: %s, want [1,2]", got)
	}
	if got := text(t, callRun(t, cs, "await t")); got != "7" {
		t.Errorf("the task awaited by a later call: %s, want 7", got)
	}
	cs.Close()
	deadline := time.Now().Add(5 * time.Second)
	for h.liveSessions() != 0 || runtime.NumGoroutine() > before+2 {
		if time.Now().After(deadline) {
			t.Fatalf("after the session closed: %d live sessions, %d goroutines (were %d)", h.liveSessions(), runtime.NumGoroutine(), before)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
