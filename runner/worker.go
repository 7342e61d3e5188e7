package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner/config"
)

// WorkerEnv is the environment variable that makes a program a worker of
// isolation: process. A program that embeds the runner and uses process
// isolation with its own executable as the worker calls [IsWorker] first
// thing in main, and [WorkerMain] when it is true.
const WorkerEnv = "ONETOOL_WORKER"

// workerMemoryEnv carries the worker's hard memory limit in bytes.
const workerMemoryEnv = "ONETOOL_WORKER_MEMORY"

// IsWorker reports whether this process was started as a worker.
func IsWorker() bool { return os.Getenv(WorkerEnv) == "1" }

// WorkerMain serves the worker protocol on stdin and stdout until stdin
// closes, under the hard memory limit the server set, and returns the exit
// status.
func WorkerMain() int {
	if n, err := strconv.ParseInt(os.Getenv(workerMemoryEnv), 10, 64); err == nil && n > 0 {
		if err := setMemoryLimit(n); err != nil {
			fmt.Fprintf(os.Stderr, "onetool worker: memory limit: %v\n", err)
			return 1
		}
	}
	if err := ServeWorker(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "onetool worker: %v\n", err)
		return 1
	}
	return 0
}

// ServeWorker runs programs for a server over in and out (see wire.go)
// until in ends. Runs are executed one after another or concurrently, as
// the server sends them; each tool call goes back to the server.
func ServeWorker(ctx context.Context, in io.Reader, out io.Writer) error {
	w := &workerSide{
		out:   bufio.NewWriter(out),
		runs:  map[uint64]context.CancelCauseFunc{},
		calls: map[uint64]chan *wireMsg{},
	}
	defer func() {
		if w.r != nil {
			w.r.Close()
		}
	}()
	dec := json.NewDecoder(bufio.NewReaderSize(in, 64<<10))
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		var m wireMsg
		if err := dec.Decode(&m); err != nil {
			w.cancelAll()
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("reading from the server: %w", err)
		}
		switch m.Type {
		case "setup":
			wg.Wait() // runs finish on the tools they started with
			if err := w.setup(m.Setup); err != nil {
				return err
			}
			w.send(&wireMsg{Type: "ready"})
		case "run":
			if w.r == nil {
				return errors.New("run before setup")
			}
			rctx, cancel := context.WithCancelCause(ctx)
			w.mu.Lock()
			w.runs[m.ID] = cancel
			w.mu.Unlock()
			r := w.r
			wg.Go(func() { w.run(rctx, r, m) })
		case "cancel":
			w.mu.Lock()
			if cancel := w.runs[m.ID]; cancel != nil {
				cause := context.Canceled
				if m.Reason == "deadline" {
					cause = context.DeadlineExceeded
				}
				cancel(cause)
			}
			w.mu.Unlock()
		case "reply":
			w.mu.Lock()
			ch := w.calls[m.ID]
			delete(w.calls, m.ID)
			w.mu.Unlock()
			if ch != nil {
				ch <- &m
			}
		default:
			return fmt.Errorf("unknown message %q from the server", m.Type)
		}
	}
}

// workerSide is the state of ServeWorker.
type workerSide struct {
	r *Runner

	wmu sync.Mutex // serialises writes
	out *bufio.Writer

	mu     sync.Mutex
	runs   map[uint64]context.CancelCauseFunc
	calls  map[uint64]chan *wireMsg
	nextID atomic.Uint64
}

func (w *workerSide) send(m *wireMsg) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	w.wmu.Lock()
	defer w.wmu.Unlock()
	w.out.Write(b)
	w.out.WriteByte('\n')
	return w.out.Flush()
}

func (w *workerSide) cancelAll() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, cancel := range w.runs {
		cancel(context.Canceled)
	}
}

// setup builds the worker's runner: the server's tools, each calling back
// to the server, and the configuration programs see (aliases, snippets,
// projects). No server, toolpack or built-in pack starts here.
func (w *workerSide) setup(s *wireSetup) error {
	if s == nil {
		return errors.New("setup without content")
	}
	reg := packs.NewRegistry()
	for name, d := range s.Packs {
		reg.SetPackDescription(name, d)
	}
	tools := make([]*packs.Tool, 0, len(s.Tools))
	for _, t := range s.Tools {
		tools = append(tools, &packs.Tool{
			Pack: t.Pack, Name: t.Name, Version: t.Version, Description: t.Description,
			InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Returns: t.Returns,
			Examples: t.Examples, Synonyms: t.Synonyms, Deterministic: t.Deterministic,
			Annotations: t.Annotations, Timeout: t.Timeout,
			Handler: func(context.Context, map[string]any) (any, error) {
				return nil, errors.New("runs in the server") // calls go through remoteCall
			},
		})
	}
	if err := reg.Register(tools...); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	cfg := config.Default()
	for k, v := range s.Aliases {
		cfg.Aliases[k] = v
	}
	for k, v := range s.Snippets {
		cfg.Snippets[k] = v
	}
	for k, v := range s.Projects {
		cfg.Projects[k] = v
	}
	if len(s.FileDirs) > 0 {
		cfg.Packs["file"] = &config.Pack{AllowedDirs: s.FileDirs}
	}
	r, err := New(WithRegistry(reg), WithConfig(cfg), WithValidation(false, false), WithCache(0, 0), WithProtected(s.Own...))
	if err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	r.remote = w.call
	r.maxInline = 0                                        // the server stores large results, where ot.result reads them
	r.watchdog = interp.NewWatchdogEvery(time.Millisecond) // one run per worker: look often
	if w.r != nil {
		w.r.Close()
	}
	w.r = r
	return nil
}

type runIDKey struct{}

// run executes one program and sends its result.
func (w *workerSide) run(ctx context.Context, r *Runner, m wireMsg) {
	defer func() {
		w.mu.Lock()
		if cancel := w.runs[m.ID]; cancel != nil {
			cancel(context.Canceled)
		}
		delete(w.runs, m.ID)
		w.mu.Unlock()
	}()
	opts := []ExecOption{OnPlanStep(func(p PlanStep) {
		w.send(&wireMsg{Type: "step", ID: m.ID, Step: &p})
	})}
	if m.Limits != nil {
		opts = append(opts, RunLimits(*m.Limits))
	}
	res := r.Exec(context.WithValue(ctx, runIDKey{}, m.ID), m.Code, opts...)
	out := &wireResult{Text: res.Text, HasValue: res.HasValue, Printed: res.Printed, Err: toWireErr(res.Err)}
	if res.HasValue {
		if b, err := ordered.Encode(res.Value); err == nil {
			out.Value = b
		}
	}
	w.send(&wireMsg{Type: "done", ID: m.ID, Result: out})
}

// call sends a tool call of a run to the server and waits for its reply.
func (w *workerSide) call(ctx context.Context, t *packs.Tool, args map[string]any) (any, error) {
	run, _ := ctx.Value(runIDKey{}).(uint64)
	argText, err := ordered.Encode(args)
	if err != nil {
		return nil, fmt.Errorf("%s: arguments cannot be sent: %w", t.ID(), err)
	}
	id := w.nextID.Add(1)
	ch := make(chan *wireMsg, 1)
	w.mu.Lock()
	w.calls[id] = ch
	w.mu.Unlock()
	if err := w.send(&wireMsg{Type: "call", ID: id, Run: run, Tool: t.ID(), Value: argText}); err != nil {
		return nil, err
	}
	select {
	case reply := <-ch:
		if reply.Err != nil {
			return nil, reply.Err.toolErr(t.ID())
		}
		if len(reply.Value) == 0 {
			return nil, nil
		}
		return ordered.Decode(reply.Value)
	case <-ctx.Done():
		// The server cancels its side of the call with the run.
		w.mu.Lock()
		delete(w.calls, id)
		w.mu.Unlock()
		return nil, ctx.Err()
	}
}
