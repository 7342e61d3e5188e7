package isolate

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// Engine runs programs in a worker.
type Engine interface {
	// Run runs one program under limits (as the server's Run.Limits) and
	// reports progress through onStep. Its tool calls go through the
	// CallFunc the engine was built with, under ctx or one derived from it.
	Run(ctx context.Context, code string, limits json.RawMessage, onStep func(step any)) Result
	Close()
}

// CallFunc makes a tool call in the server, with arguments as package
// ordered encodes them, and returns the result as it decodes it.
type CallFunc func(ctx context.Context, tool string, args any) (any, error)

// ServeOptions configures Serve.
type ServeOptions struct {
	// Setup builds an engine from the server's setup (Host.Setup); its
	// runs' tool calls go through call. A later setup replaces the engine
	// once the runs started on it have finished.
	Setup func(setup json.RawMessage, call CallFunc) (Engine, error)
	// Errors must be the server's Options.Errors.
	Errors []Sentinel
}

// Serve runs programs for a server over in and out until in ends. Runs are
// executed one after another or concurrently, as the server sends them;
// each tool call goes back to the server.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts ServeOptions) error {
	w := &workerSide{
		opts:  opts,
		errs:  sentinels(opts.Errors),
		out:   bufio.NewWriter(out),
		runs:  map[uint64]context.CancelCauseFunc{},
		calls: map[uint64]chan *msg{},
	}
	defer func() {
		if w.engine != nil {
			w.engine.Close()
		}
	}()
	dec := json.NewDecoder(bufio.NewReaderSize(in, 64<<10))
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		var m msg
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
			e, err := opts.Setup(m.Setup, w.call)
			if err != nil {
				return fmt.Errorf("setup: %w", err)
			}
			if w.engine != nil {
				w.engine.Close()
			}
			w.engine = e
			w.send(&msg{Type: "ready"})
		case "run":
			if w.engine == nil {
				return errors.New("run before setup")
			}
			rctx, cancel := context.WithCancelCause(ctx)
			w.mu.Lock()
			w.runs[m.ID] = cancel
			w.mu.Unlock()
			e := w.engine
			wg.Go(func() { w.run(rctx, e, m) })
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

// workerSide is the state of Serve.
type workerSide struct {
	opts   ServeOptions
	errs   []Sentinel
	engine Engine

	wmu sync.Mutex // serialises writes
	out *bufio.Writer

	mu     sync.Mutex
	runs   map[uint64]context.CancelCauseFunc
	calls  map[uint64]chan *msg
	nextID atomic.Uint64
}

func (w *workerSide) send(m *msg) error {
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

type runIDKey struct{}

// run executes one program and sends its result.
func (w *workerSide) run(ctx context.Context, e Engine, m msg) {
	defer func() {
		w.mu.Lock()
		if cancel := w.runs[m.ID]; cancel != nil {
			cancel(context.Canceled)
		}
		delete(w.runs, m.ID)
		w.mu.Unlock()
	}()
	onStep := func(step any) {
		if b, err := json.Marshal(step); err == nil {
			w.send(&msg{Type: "step", ID: m.ID, Step: b})
		}
	}
	res := e.Run(context.WithValue(ctx, runIDKey{}, m.ID), m.Code, m.Limits, onStep)
	out := &wireResult{Text: res.Text, HasValue: res.HasValue, Printed: res.Printed, Value: res.Value, Err: toWireErr(res.Err, w.errs)}
	if err := w.send(&msg{Type: "done", ID: m.ID, Result: out}); err != nil {
		// The server waits for an answer: a result that cannot be encoded
		// still gets one.
		err = fmt.Errorf("%w: the result cannot be sent: %w", ErrWorker, err)
		w.send(&msg{Type: "done", ID: m.ID, Result: &wireResult{Text: "Error: " + err.Error(), Err: toWireErr(err, w.errs)}})
	}
}

// call sends a tool call of a run to the server and waits for its reply.
func (w *workerSide) call(ctx context.Context, tool string, args any) (any, error) {
	run, _ := ctx.Value(runIDKey{}).(uint64)
	argText, err := ordered.Encode(args)
	if err != nil {
		return nil, fmt.Errorf("%s: arguments cannot be sent: %w", tool, err)
	}
	id := w.nextID.Add(1)
	ch := make(chan *msg, 1)
	w.mu.Lock()
	w.calls[id] = ch
	w.mu.Unlock()
	if err := w.send(&msg{Type: "call", ID: id, Run: run, Tool: tool, Value: argText}); err != nil {
		return nil, err
	}
	select {
	case reply := <-ch:
		if reply.Err != nil {
			return nil, reply.Err.toolErr(tool, w.errs)
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
