//go:build unix

package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// newManager starts a Manager for specs and closes it when the test ends.
func newManager(t *testing.T, opts Options, specs ...Spec) *Manager {
	t.Helper()
	m := NewManager(specs, opts)
	t.Cleanup(func() { m.Close() })
	m.Start()
	return m
}

// mustServer returns the server named name.
func mustServer(t *testing.T, m *Manager, name string) *Server {
	t.Helper()
	s, ok := m.Server(name)
	if !ok {
		t.Fatalf("no server %q", name)
	}
	return s
}

// callPID calls the pid tool.
func callPID(t *testing.T, s *Server) int {
	t.Helper()
	v, err := s.Call(context.Background(), "pid", nil)
	if err != nil {
		t.Fatal(err)
	}
	pid, ok := v.(int64)
	if !ok || pid <= 0 {
		t.Fatalf("pid = %#v", v)
	}
	return int(pid)
}

// alive reports whether pid is a live process (a zombie counts as gone:
// it has exited, only its parent has not collected it yet).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return !os.IsNotExist(err)
	}
	// pid (comm) S ...: the state follows the last ')'.
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

// waitGone fails unless every pid is gone within d.
func waitGone(t *testing.T, d time.Duration, pids ...int) {
	t.Helper()
	deadline := time.Now().Add(d)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Errorf("process %d still alive after %s", pid, d)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func TestBackgroundConnect(t *testing.T) {
	t.Parallel()
	spec := testServerSpec(t, "slow-start", "main")
	spec.Env["MCPCLIENT_TEST_DELAY"] = "300ms"
	changed := make(chan string, 4)
	m := NewManager([]Spec{spec}, Options{OnChange: func(s string) { changed <- s }})
	t.Cleanup(func() { m.Close() })
	s := mustServer(t, m, "slow-start")
	if st := s.Status(); st.State != StateIdle || st.Transport != "stdio" {
		t.Errorf("before Start: %+v", st)
	}

	start := time.Now()
	m.Start()
	if d := time.Since(start); d > 50*time.Millisecond {
		t.Errorf("Start took %s", d)
	}
	if st := s.Status(); st.State != StateConnecting {
		t.Errorf("after Start: %+v", st)
	}
	if s.ToolsNow() != nil {
		t.Error("ToolsNow before connecting is not nil")
	}
	tools, err := s.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 250*time.Millisecond {
		t.Errorf("Tools returned after %s, before the server could be up", d)
	}
	if !slices.ContainsFunc(tools, func(t Tool) bool { return t.Name == "echo" }) {
		t.Errorf("tools lack echo: %v", tools)
	}
	select {
	case name := <-changed:
		if name != "slow-start" {
			t.Errorf("OnChange(%q)", name)
		}
	case <-time.After(time.Second):
		t.Error("OnChange not called on connect")
	}
	if st := s.Status(); st.State != StateConnected || st.Tools != len(tools) || st.PID == 0 || st.Attempts != 1 {
		t.Errorf("connected: %+v", st)
	}
}

func TestToolsWaitIsBounded(t *testing.T) {
	t.Parallel()
	spec := testServerSpec(t, "sloth", "main")
	spec.Env["MCPCLIENT_TEST_DELAY"] = "5s"
	spec.Timeout = 300 * time.Millisecond
	s := mustServer(t, newManager(t, Options{}, spec), "sloth")
	start := time.Now()
	_, err := s.Tools(context.Background())
	if d := time.Since(start); d > time.Second {
		t.Errorf("Tools waited %s with a 300ms timeout", d)
	}
	if !errors.Is(err, ErrNotConnected) || !strings.HasPrefix(err.Error(), "server 'sloth' is not connected: ") {
		t.Errorf("err = %v", err)
	}
}

func TestCallResults(t *testing.T) {
	t.Parallel()
	s := mustServer(t, newManager(t, Options{}, testServerSpec(t, "test", "main")), "test")
	ctx := context.Background()
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"echo", map[string]any{"text": "hello world"}, `"hello world"`},
		{"echo", map[string]any{"text": `{"z":1,"a":{"y":2,"b":3}}`}, `{"z":1,"a":{"y":2,"b":3}}`},
		{"get-sum", map[string]any{"a": 1, "b": 2}, `{"sum":3,"inputs":[1,2]}`},
		{"get_sum", map[string]any{"a": 40, "b": 2}, `{"sum":42,"inputs":[40,2]}`}, // canonical name
		{"GetSum", map[string]any{"b": 2, "a": 1}, `{"sum":3,"inputs":[1,2]}`},
		{"image", nil, `{"type":"image","mime":"image/png","bytes":5}`},
		{"parts", nil, `["first",{"z":1,"a":2},{"type":"audio","mime":"audio/wav","bytes":3},` +
			`{"type":"resource_link","uri":"file:///r.txt","name":"r.txt"},` +
			`{"type":"resource","uri":"mem://t","mime":"text/plain","text":"inline"},` +
			`{"type":"resource","uri":"mem://b","mime":"application/octet-stream","bytes":2}]`},
		{"listItems", nil, `"listItems"`},
		{"list-items", nil, `"list-items"`},
	}
	for _, c := range cases {
		v, err := s.Call(ctx, c.tool, c.args)
		if err != nil {
			t.Errorf("%s: %v", c.tool, err)
			continue
		}
		if got := enc(t, v); got != c.want {
			t.Errorf("%s(%v) = %s, want %s", c.tool, c.args, got, c.want)
		}
	}

	// Ordered maps in the arguments travel as JSON objects, in order.
	om := ordered.NewMap(2)
	om.Set("z", int64(1))
	om.Set("a", []any{"x"})
	if v, err := s.Call(ctx, "raw-args", map[string]any{"obj": om}); err != nil || enc(t, v) != `{"obj":{"z":1,"a":["x"]}}` {
		t.Errorf("ordered map argument: %s, %v", enc(t, v), err)
	}

	r, err := s.CallResult(ctx, "image", nil)
	if err != nil || len(r.Blobs) != 1 || string(r.Blobs[0].Data) != "\x01\x02\x03\x04\x05" || r.Blobs[0].MIME != "image/png" {
		t.Errorf("image blobs: %+v, %v", r.Blobs, err)
	}

	_, err = s.Call(ctx, "fail", nil)
	if !errors.Is(err, ErrToolFailed) || err.Error() != "it broke\nbadly" {
		t.Errorf("fail: %v", err)
	}
	_, err = s.Call(ctx, "list_items", nil)
	if !errors.Is(err, ErrAmbiguous) || !strings.Contains(err.Error(), "'listItems'") || !strings.Contains(err.Error(), "'list-items'") {
		t.Errorf("list_items: %v", err)
	}
	_, err = s.Call(ctx, "ech", nil)
	if !errors.Is(err, ErrUnknownTool) || !strings.Contains(err.Error(), "did you mean 'echo'?") {
		t.Errorf("ech: %v", err)
	}
	if st := s.Status(); st.State != StateConnected || st.Restarts != 0 {
		t.Errorf("after the calls: %+v", st)
	}
}

func TestToolList(t *testing.T) {
	t.Parallel()
	s := mustServer(t, newManager(t, Options{}, testServerSpec(t, "test", "main")), "test")
	tools, err := s.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sum, err := MatchTool(tools, "get_sum", "")
	if err != nil {
		t.Fatal(err)
	}
	// The server's key order, not sorted: positional arguments follow it.
	if want := `{"type":"object","properties":{"b":{"type":"integer"},"a":{"type":"integer"}},"required":["a","b"]}`; string(sum.InputSchema) != want {
		t.Errorf("input schema\n got %s\nwant %s", sum.InputSchema, want)
	}
	if want := `{"type":"object","properties":{"sum":{"type":"integer"},"inputs":{"type":"array"}}}`; string(sum.OutputSchema) != want {
		t.Errorf("output schema %s", sum.OutputSchema)
	}
	if sum.Description != "Adds a and b." || !sum.ReadOnly || sum.Destructive || !sum.OpenWorld {
		t.Errorf("get-sum: %+v", sum)
	}
	echo, _ := MatchTool(tools, "echo", "")
	if echo.ReadOnly || !echo.Destructive || echo.OutputSchema != nil {
		t.Errorf("echo (no annotations: MCP defaults): %+v", echo)
	}
}

func TestMinimalEnvironment(t *testing.T) {
	t.Parallel()
	s := mustServer(t, newManager(t, Options{}, testServerSpec(t, "test", "main")), "test")
	v, err := s.Call(context.Background(), "environ", nil)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, kv := range v.([]any) {
		k, _, _ := strings.Cut(kv.(string), "=")
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"GORACE", "MCPCLIENT_SPEC_VAR", serverModeEnv, "PATH"}
	if _, ok := os.LookupEnv("HOME"); ok {
		want = append(want, "HOME")
	}
	slices.Sort(want)
	if !slices.Equal(keys, want) {
		t.Errorf("child environment has %v, want exactly %v", keys, want)
	}
	if os.Getenv(parentOnlyEnv) == "" {
		t.Fatal("the parent-only variable is not set in the test process")
	}
}

func TestFailedStartAndBackoff(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{}, Spec{Name: "bad", Command: "/nonexistent/mcp-server", Timeout: 5 * time.Second})
	s := mustServer(t, m, "bad")
	_, err := s.Call(context.Background(), "echo", nil)
	if !errors.Is(err, ErrNotConnected) || !strings.HasPrefix(err.Error(), "server 'bad' is not connected: cannot start the server:") ||
		!strings.Contains(err.Error(), "no such file") {
		t.Fatalf("first call: %v", err)
	}
	if st := s.Status(); st.State != StateFailed || st.Attempts != 1 || !strings.Contains(st.LastError, "no such file") {
		t.Errorf("status: %+v", st)
	}

	// During the backoff: the error at once, no new attempt.
	start := time.Now()
	_, err = s.Tools(context.Background())
	if d := time.Since(start); d > 50*time.Millisecond || !errors.Is(err, ErrNotConnected) || !strings.Contains(err.Error(), "next attempt in") {
		t.Errorf("during backoff (%s): %v", d, err)
	}
	if st := s.Status(); st.Attempts != 1 {
		t.Errorf("attempted during the backoff: %+v", st)
	}

	// After it: one new attempt, and a longer backoff.
	time.Sleep(backoff(1) + 20*time.Millisecond)
	_, err = s.Call(context.Background(), "echo", nil)
	if !errors.Is(err, ErrNotConnected) {
		t.Errorf("retry: %v", err)
	}
	if st := s.Status(); st.Attempts != 2 || st.Restarts != 0 {
		t.Errorf("after the retry: %+v", st)
	}
	failed := time.Now()                         // the second backoff began before this
	time.Sleep(backoff(1) + 20*time.Millisecond) // less than backoff(2)
	_, err = s.Call(context.Background(), "echo", nil)
	if time.Since(failed) >= backoff(2) {
		t.Skipf("the machine is too slow to look inside the second backoff (%v)", time.Since(failed))
	}
	if !errors.Is(err, ErrNotConnected) || s.Status().Attempts != 2 {
		t.Errorf("backoff did not grow: %v, %+v", err, s.Status())
	}
}

func TestServerDiesAtStartup(t *testing.T) {
	t.Parallel()
	s := mustServer(t, newManager(t, Options{}, testServerSpec(t, "dies", "die")), "dies")
	_, err := s.Tools(context.Background())
	if !errors.Is(err, ErrNotConnected) {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{"server 'dies' is not connected: ", "exit status 2", "stderr: boom: config file missing"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
}

func TestCrashMidCallAndRestart(t *testing.T) {
	t.Parallel()
	s := mustServer(t, newManager(t, Options{}, testServerSpec(t, "crashy", "main")), "crashy")
	pid1 := callPID(t, s)

	start := time.Now()
	_, err := s.Call(context.Background(), "crash", nil)
	if d := time.Since(start); d > time.Second {
		t.Errorf("the crashed call took %s", d)
	}
	if !errors.Is(err, ErrExited) {
		t.Fatalf("crash: %v", err)
	}
	for _, want := range []string{"server 'crashy' exited during the call to 'crash'", "exit status 3", "stderr: crashing now"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	if st := s.Status(); st.State != StateExited || st.PID != 0 || !strings.Contains(st.LastError, "exit status 3") {
		t.Errorf("after the crash: %+v", st)
	}
	if tools, err := s.Tools(context.Background()); err != nil || len(tools) == 0 || s.Status().State != StateExited {
		t.Errorf("Tools of an exited server: %d tools, %v (it should not restart it)", len(tools), err)
	}
	waitGone(t, time.Second, pid1)

	pid2 := callPID(t, s)
	if pid2 == pid1 {
		t.Error("same pid after the restart")
	}
	if st := s.Status(); st.State != StateConnected || st.Restarts != 1 || st.PID != pid2 {
		t.Errorf("after the restart: %+v", st)
	}
}

func TestCancelSlowCall(t *testing.T) {
	t.Parallel()
	s := mustServer(t, newManager(t, Options{}, testServerSpec(t, "test", "main")), "test")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var events []string
	ticks := make(chan struct{}, 100)
	ctx = WithProgress(ctx, func(p, total float64, msg string) {
		mu.Lock()
		events = append(events, fmt.Sprintf("%g/%g %s", p, total, msg))
		mu.Unlock()
		ticks <- struct{}{}
	})

	var cancelled atomic.Int64
	go func() {
		for range 3 {
			<-ticks
		}
		cancelled.Store(time.Now().UnixNano())
		cancel()
	}()
	_, err := s.Call(ctx, "slow", nil)
	took := time.Since(time.Unix(0, cancelled.Load()))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if took > 500*time.Millisecond {
		t.Errorf("the call returned %s after its cancellation", took)
	}
	mu.Lock()
	if len(events) < 3 || events[0] != "1/100 tick 1" {
		t.Errorf("progress: %v", events)
	}
	mu.Unlock()

	// The server is still there, same process.
	if v, err := s.Call(context.Background(), "echo", map[string]any{"text": "still here"}); err != nil || v != "still here" {
		t.Errorf("after the cancellation: %v, %v", v, err)
	}
	if st := s.Status(); st.State != StateConnected || st.Restarts != 0 {
		t.Errorf("status: %+v", st)
	}
}

func TestCallTimeout(t *testing.T) {
	t.Parallel()
	spec := testServerSpec(t, "test", "main")
	spec.Timeout = 300 * time.Millisecond
	s := mustServer(t, newManager(t, Options{}, spec), "test")
	// The timeout bounds each wait for the connection too: on a loaded
	// machine starting the server may take longer, which is not what this
	// test is about. Ask again until it is up.
	for deadline := time.Now().Add(10 * time.Second); ; {
		_, err := s.Tools(context.Background())
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
	}
	start := time.Now()
	_, err := s.Call(context.Background(), "slow", nil)
	d := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "timed out after 300ms") {
		t.Errorf("err = %v", err)
	}
	if d < 250*time.Millisecond || d > 800*time.Millisecond {
		t.Errorf("the call took %s with a 300ms timeout", d)
	}
	// An earlier deadline of the caller wins.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start = time.Now()
	if _, err := s.Call(ctx, "slow", nil); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 250*time.Millisecond {
		t.Errorf("caller deadline: %v after %s", err, time.Since(start))
	}
}

func TestToolListChanged(t *testing.T) {
	t.Parallel()
	changed := make(chan string, 8)
	m := newManager(t, Options{OnChange: func(s string) { changed <- s }}, testServerSpec(t, "test", "main"))
	s := mustServer(t, m, "test")
	if _, err := s.Tools(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-changed // connected
	if _, err := s.Call(context.Background(), "add-tool", map[string]any{"name": "lateArrival"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-time.After(2 * time.Second):
		t.Fatal("OnChange not called after tools/list_changed")
	}
	if _, err := MatchTool(s.ToolsNow(), "late_arrival", ""); err != nil {
		t.Fatal(err)
	}
	if v, err := s.Call(context.Background(), "late_arrival", nil); err != nil || v != "I am lateArrival" {
		t.Errorf("late tool: %v, %v", v, err)
	}
}

func TestConcurrentCalls(t *testing.T) {
	t.Parallel()
	s := mustServer(t, newManager(t, Options{}, testServerSpec(t, "test", "main")), "test")
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Go(func() {
			want := fmt.Sprintf("call %d", i)
			v, err := s.Call(context.Background(), "echo", map[string]any{"text": want})
			if err != nil || v != want {
				t.Errorf("%s: %v, %v", want, v, err)
			}
			_ = s.Status()
			_ = s.ToolsNow()
		})
	}
	wg.Wait()
	if st := s.Status(); st.Attempts != 1 {
		t.Errorf("concurrent first calls started %d attempts", st.Attempts)
	}
}

func TestCloseEndsEveryProcess(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{},
		testServerSpec(t, "plain", "main"),
		testServerSpec(t, "stubborn", "stubborn"),
		testServerSpec(t, "spawner", "spawner"),
		testServerSpec(t, "crashy", "main"),
	)
	var pids []int
	for _, name := range []string{"plain", "stubborn", "spawner"} {
		pids = append(pids, callPID(t, mustServer(t, m, name)))
	}
	v, err := mustServer(t, m, "spawner").Call(context.Background(), "grandchild-pid", nil)
	if err != nil {
		t.Fatal(err)
	}
	pids = append(pids, int(v.(int64)))

	// A crashed and restarted server: its first process is gone, its
	// second must go with Close.
	crashy := mustServer(t, m, "crashy")
	old := callPID(t, crashy)
	_, _ = crashy.Call(context.Background(), "crash", nil)
	pids = append(pids, callPID(t, crashy))
	waitGone(t, time.Second, old)

	// A call in flight must not hold Close up.
	callErr := make(chan error, 1)
	go func() {
		_, err := mustServer(t, m, "plain").Call(context.Background(), "slow", nil)
		callErr <- err
	}()
	time.Sleep(50 * time.Millisecond)

	for _, pid := range pids {
		if !alive(pid) {
			t.Fatalf("process %d is not running before Close", pid)
		}
	}
	start := time.Now()
	if err := m.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if d := time.Since(start); d > 2500*time.Millisecond {
		t.Errorf("Close took %s", d)
	}
	waitGone(t, 2*time.Second-time.Since(start), pids...)

	select {
	case err := <-callErr:
		if !errors.Is(err, ErrNotConnected) {
			t.Errorf("call in flight during Close: %v", err)
		}
	case <-time.After(time.Second):
		t.Error("the call in flight did not return")
	}
	for _, s := range m.Servers() {
		if st := s.Status(); st.State != StateClosed {
			t.Errorf("%s: %+v", s.Name(), st)
		}
	}
	if _, err := mustServer(t, m, "plain").Call(context.Background(), "echo", nil); !errors.Is(err, ErrNotConnected) {
		t.Errorf("call after Close: %v", err)
	}
	if err := m.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestCloseSpawner(t *testing.T) {
	t.Parallel()
	// A helper that outlives the server and holds its stderr: Close must
	// neither wait for it nor report an error, and must end it.
	m := newManager(t, Options{}, testServerSpec(t, "spawner", "spawner"))
	s := mustServer(t, m, "spawner")
	pid := callPID(t, s)
	v, err := s.Call(context.Background(), "grandchild-pid", nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := m.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	// Waiting for the grandchild would last until killDeadline (1.9 s);
	// an orderly close takes about waitDelay, more on a loaded machine.
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Errorf("Close took %s", d)
	}
	waitGone(t, time.Second, pid, int(v.(int64)))
}

func TestCloseWhileConnecting(t *testing.T) {
	t.Parallel()
	spec := testServerSpec(t, "sloth", "main")
	spec.Env["MCPCLIENT_TEST_DELAY"] = "4s" // unlike the other tests' slow starters
	m := NewManager([]Spec{spec}, Options{})
	m.Start()
	var pids []int
	for deadline := time.Now().Add(2 * time.Second); len(pids) == 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		pids = childrenWithEnv("MCPCLIENT_TEST_DELAY=4s")
	}
	if len(pids) != 1 {
		t.Fatalf("the starting server process: found %v", pids)
	}
	// The process runs but has not answered yet; Close must end it.
	start := time.Now()
	if err := m.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if d := time.Since(start); d > 2500*time.Millisecond {
		t.Errorf("Close took %s", d)
	}
	waitGone(t, time.Second, pids...)
	if st := mustServer(t, m, "sloth").Status(); st.State != StateClosed {
		t.Errorf("status: %+v", st)
	}
}

// childrenWithEnv lists this process's children whose environment holds
// kv (Linux /proc; nil elsewhere).
func childrenWithEnv(kv string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		s := string(stat)
		var ppid int
		if i := strings.LastIndexByte(s, ')'); i < 0 || len(s) < i+4 {
			continue
		} else if _, err := fmt.Sscan(s[i+4:], &ppid); err != nil || ppid != os.Getpid() {
			continue
		}
		env, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if slices.Contains(strings.Split(string(env), "\x00"), kv) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func TestManagerServers(t *testing.T) {
	m := NewManager([]Spec{{Name: "b", Command: "x"}, {Name: "a", URL: "http://127.0.0.1:1/mcp"}, {Name: "b", Command: "y"}}, Options{})
	defer m.Close()
	var names []string
	for _, s := range m.Servers() {
		names = append(names, s.Name())
	}
	if !slices.Equal(names, []string{"a", "b"}) {
		t.Errorf("servers: %v", names)
	}
	if s, _ := m.Server("b"); s.Spec().Command != "x" || s.Spec().Timeout != defaultTimeout {
		t.Errorf("spec: %+v", s.Spec())
	}
	if s, _ := m.Server("a"); s.Status().Transport != "http" {
		t.Errorf("transport: %+v", s.Status())
	}
	if _, ok := m.Server("c"); ok {
		t.Error("server c exists")
	}
}
