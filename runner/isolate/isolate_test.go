package isolate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/packs"
)

// The test binary is its own worker: started with ONETOOL_WORKER=1 it
// serves the protocol with testEngine instead of running tests.
func TestMain(m *testing.M) {
	if IsWorker() {
		if err := LimitMemory(); err != nil { // as runner.WorkerMain does
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		err := Serve(context.Background(), os.Stdin, os.Stdout, ServeOptions{
			Setup: func(setup json.RawMessage, call CallFunc) (Engine, error) {
				return testEngine{string(setup), call}, nil
			},
			Errors: testErrors,
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if mode := os.Getenv(serverModeEnv); mode != "" {
		os.Exit(serverMode(mode)) // see TestWorkersStartFromTheRunningExecutable
	}
	os.Exit(m.Run())
}

var errTest = errors.New("the embedder's own error")

var testErrors = []Sentinel{{Name: "test", Err: errTest}}

// testEngine runs "programs" that say what to do: call a tool, print,
// crash, or stay in a Go call past any deadline.
type testEngine struct {
	setup string
	call  CallFunc
}

func (testEngine) Close() {}

func (e testEngine) Run(ctx context.Context, code string, limits json.RawMessage, onStep func(any)) Result {
	switch code {
	case "setup":
		var s string
		json.Unmarshal([]byte(e.setup), &s)
		return Result{Text: s}
	case "call":
		v, err := e.call(ctx, "demo.echo", map[string]any{"value": "hi"})
		if err != nil {
			return Result{Text: "Error: " + err.Error(), Err: err}
		}
		onStep(map[string]any{"id": "a"})
		b, _ := json.Marshal(v)
		return Result{Text: fmt.Sprint(v), HasValue: true, Value: b}
	case "bad value":
		return Result{Text: "x", HasValue: true, Value: json.RawMessage(`{not json`)}
	case "fail":
		_, err := e.call(ctx, "demo.fail", nil)
		return Result{Text: "Error: " + err.Error(), Err: interp.NewError(interp.KindRuntime, 3, 1, err.Error(), err)}
	case "stuck":
		time.Sleep(time.Minute) // a Go call that no budget reaches
	case "crash":
		fmt.Fprintln(os.Stderr, "panic: something broke")
		os.Exit(2)
	case "alloc":
		// A builtin that allocates without asking any budget: only the
		// worker's hard limit stops it.
		var keep [][]byte
		for {
			keep = append(keep, make([]byte, 16<<20))
		}
	}
	return Result{Text: "unknown program " + code}
}

type testHost struct{ gen uint64 }

func (h *testHost) Generation() uint64 { return h.gen }
func (h *testHost) Setup(gen uint64) (json.RawMessage, error) {
	return json.Marshal(fmt.Sprintf("setup %d", gen))
}
func (h *testHost) Call(ctx context.Context, tool string, args json.RawMessage) (any, error) {
	if tool == "demo.fail" {
		return nil, fmt.Errorf("demo.fail: %w (%w)", errTest, packs.ErrValidation)
	}
	return tool + " " + string(args), nil
}

func newPool(t *testing.T, host Host, opts Options) *Pool {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	opts.Command, opts.Errors = []string{exe}, testErrors
	p, err := New(host, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// A run's tool calls are made in the server, its progress reaches OnStep,
// and errors keep errors.Is across the pipe both ways: the embedder's own
// sentinels, the packs', and an interp.Error's kind and line.
func TestPoolRunsAndCalls(t *testing.T) {
	host := &testHost{gen: 1}
	p := newPool(t, host, Options{Workers: 1})
	var steps []string
	res := p.Exec(context.Background(), Run{Code: "call", OnStep: func(b json.RawMessage) { steps = append(steps, string(b)) }})
	if res.Text != `demo.echo {"value":"hi"}` || !res.HasValue || len(res.Value) == 0 {
		t.Errorf("call: %+v", res)
	}
	if len(steps) != 1 || steps[0] != `{"id":"a"}` {
		t.Errorf("steps %v", steps)
	}
	res = p.Exec(context.Background(), Run{Code: "fail"})
	var ie *interp.Error
	if !errors.Is(res.Err, errTest) || !errors.Is(res.Err, packs.ErrValidation) || !errors.As(res.Err, &ie) || ie.Line != 3 || ie.Kind != interp.KindRuntime {
		t.Errorf("fail: %#v", res.Err)
	}
	// A result the worker cannot send still gets an answer.
	if res := p.Exec(context.Background(), Run{Code: "bad value"}); !errors.Is(res.Err, ErrWorker) || !strings.Contains(res.Text, "the result cannot be sent") {
		t.Errorf("bad value: %q", res.Text)
	}
	// A new generation of tools sets the worker up again before its next run.
	host.gen = 2
	if res := p.Exec(context.Background(), Run{Code: "setup"}); res.Text != "setup 2" {
		t.Errorf("after a new generation the worker has %q", res.Text)
	}
}

// A worker that dies during a run is replaced, and the run says why.
func TestPoolWorkerDies(t *testing.T) {
	p := newPool(t, &testHost{}, Options{Workers: 1, MaxWorkers: 1})
	res := p.Exec(context.Background(), Run{Code: "crash"})
	if !errors.Is(res.Err, ErrWorker) || !strings.Contains(res.Text, "crashed: panic: something broke") {
		t.Errorf("got %q", res.Text)
	}
	if res := p.Exec(context.Background(), Run{Code: "setup"}); res.Text != "setup 0" {
		t.Errorf("next run: %q", res.Text)
	}
}

// A worker still busy OverrunGrace after its run's deadline is killed:
// the run answers as a time-out, and the pool gets a fresh worker.
func TestPoolOverrun(t *testing.T) {
	p := newPool(t, &testHost{}, Options{Workers: 1, MaxWorkers: 1})
	start := time.Now()
	res := p.Exec(context.Background(), Run{Code: "stuck", Timeout: 100 * time.Millisecond})
	if !errors.Is(res.Err, interp.ErrTimeout) || !errors.Is(res.Err, interp.ErrOverrun) || res.Text != "Error: timed out after 100ms (set limits.timeout to raise it)" {
		t.Errorf("got %q (%v)", res.Text, res.Err)
	}
	if d := time.Since(start); d > 100*time.Millisecond+OverrunGrace+2*time.Second {
		t.Errorf("answered after %s", d)
	}
	if res := p.Exec(context.Background(), Run{Code: "setup"}); res.Text != "setup 0" {
		t.Errorf("next run: %q", res.Text)
	}
}

// A run cancelled while it waits for a worker says so.
func TestPoolCancelledWaiting(t *testing.T) {
	p := newPool(t, &testHost{}, Options{Workers: 1, MaxWorkers: 1})
	go p.Exec(context.Background(), Run{Code: "stuck", Timeout: 2 * time.Second})
	time.Sleep(200 * time.Millisecond) // the one worker is taken
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	res := p.Exec(ctx, Run{Code: "setup"})
	if !errors.Is(res.Err, interp.ErrCancelled) || !strings.Contains(res.Text, "cancelled before a worker was free") {
		t.Errorf("got %q", res.Text)
	}
}

// Close while a run is in flight: the run sees its worker die as Close
// ends it, and both reap the process. Close returns and the run ends with
// an error instead of either waiting for ever (as once in CI, for the
// copy of stderr the other had collected).
func TestPoolCloseDuringRun(t *testing.T) {
	for i := range 5 {
		p := newPool(t, &testHost{}, Options{Workers: 1, MaxWorkers: 1})
		done := make(chan Result, 1)
		go func() { done <- p.Exec(context.Background(), Run{Code: "stuck", Timeout: time.Minute}) }()
		time.Sleep(time.Duration(50+20*i) * time.Millisecond)
		closed := make(chan struct{})
		go func() { p.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(20 * time.Second):
			t.Fatal("Close did not return while a run was in flight")
		}
		select {
		case res := <-done:
			if res.Err == nil {
				t.Errorf("a run whose worker Close ended succeeded: %q", res.Text)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("the run did not end after Close")
		}
	}
}

// A worker that dies while idle (killed from outside, or by the system's
// OOM killer) is replaced when a run would get it: the run never sees it.
func TestPoolIdleWorkerDied(t *testing.T) {
	p := newPool(t, &testHost{}, Options{Workers: 1, MaxWorkers: 1})
	if res := p.Exec(context.Background(), Run{Code: "setup"}); res.Text != "setup 0" {
		t.Fatalf("first run: %q", res.Text)
	}
	live, _ := p.Workers()
	if len(live) != 1 {
		t.Fatalf("%d workers", len(live))
	}
	if err := live[0].cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-live[0].dead:
	case <-time.After(10 * time.Second):
		t.Fatal("the killed worker's output did not end")
	}
	if res := p.Exec(context.Background(), Run{Code: "setup"}); res.Text != "setup 0" {
		t.Errorf("the run after an idle worker died: %q", res.Text)
	}
}
