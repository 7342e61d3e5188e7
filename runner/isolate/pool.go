package isolate

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/ordered"
)

// Options configures a Pool.
type Options struct {
	// Command starts a worker. The default is this executable with
	// ONETOOL_WORKER=1 in its environment, which works for the onetool
	// command and for programs that call IsWorker and serve the protocol
	// first thing in main: on Linux the very file this process was
	// started from (/proc/self/exe), elsewhere a verified private copy of
	// it, never the executable's path, which a program may be able to
	// replace (see exe.go).
	Command []string
	// Workers are started ahead of need (default: GOMAXPROCS, at least 2).
	Workers int
	// MaxWorkers bounds the workers alive at once (default 4×Workers);
	// more concurrent runs wait for one. Workers beyond Workers end when
	// they fall idle.
	MaxWorkers int
	// HardMemory is each worker's memory limit in bytes (RLIMIT_DATA on
	// Linux; default DefaultHardMemory; see HardMemoryFor). The
	// in-process budget still applies inside the worker and ends most
	// runs first, with the usual message.
	HardMemory int64
	// Errors are the embedder's errors that keep errors.Is working across
	// the pipe, besides the interpreter's and the packs' (the worker side
	// must list the same).
	Errors []Sentinel `json:"-"`
	// Logger gets a warning when a worker dies, overruns or fails to
	// start. Nil discards them.
	Logger *slog.Logger `json:"-"`

	// copyExe makes the default Command a private copy even where
	// /proc/self/exe would do, so tests can try the copy on Linux.
	copyExe bool
}

// Host is the server a Pool works for.
type Host interface {
	// Generation names the current tools: a worker set up with an older
	// generation is set up again before its next run.
	Generation() uint64
	// Setup is what a worker needs to build its engine at generation gen;
	// it reaches ServeOptions.Setup as it is.
	Setup(gen uint64) (json.RawMessage, error)
	// Call makes a tool call of a worker's run, with its arguments as a
	// JSON object; the result must be encodable by package ordered.
	Call(ctx context.Context, tool string, args json.RawMessage) (any, error)
}

// Run is one program for a worker.
type Run struct {
	Code string
	// Limits are the run's budgets, for the engine (opaque here).
	Limits json.RawMessage
	// Timeout is the run's own time budget: a worker still busy a second
	// (OverrunGrace) after it is killed. Zero means none (the context's
	// deadline still applies).
	Timeout time.Duration
	// OnStep receives the progress the engine reports (opaque here).
	OnStep func(step json.RawMessage)
}

// Result is what a run gave: the same fields as the engine's answer, or
// the error of a worker that died, overran or could not be had.
type Result struct {
	Text     string
	Printed  string
	HasValue bool
	Value    json.RawMessage
	Err      error
}

// OverrunGrace is how long a worker may stay busy after its run's deadline
// or cancellation (SPEC §8.5). The worker stops the program itself at the
// next Starlark step, within milliseconds; only a program stuck in one long
// Go call (hashing or printing a huge shared structure) outlasts it.
const OverrunGrace = time.Second

// Pool holds the worker processes of a server.
type Pool struct {
	host Host
	opts Options
	exe  workerExe // the default Command's executable
	env  []string
	log  *slog.Logger
	errs []Sentinel

	idle   chan *Worker  // ready workers
	slots  chan struct{} // one token per live worker, up to MaxWorkers
	closed atomic.Bool
	wg     sync.WaitGroup

	runSeq atomic.Uint64 // run ids, unique within the pool

	mu    sync.Mutex
	setup []byte // the setup message for the registry generation in gen
	gen   uint64
	live  map[*Worker]struct{}
}

// New starts a pool of Workers workers for host.
func New(host Host, iso Options) (*Pool, error) {
	if iso.Workers <= 0 {
		iso.Workers = max(2, runtime.GOMAXPROCS(0))
	}
	if iso.MaxWorkers < iso.Workers {
		iso.MaxWorkers = 4 * iso.Workers
	}
	if iso.HardMemory <= 0 {
		iso.HardMemory = DefaultHardMemory
	}
	log := iso.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var exe workerExe
	if len(iso.Command) == 0 {
		var err error
		if exe, err = findWorkerExe(iso.copyExe); err != nil {
			return nil, fmt.Errorf("isolation: process: %w", err)
		}
		iso.Command = []string{exe.path}
	}
	p := &Pool{
		host: host, opts: iso, exe: exe, log: log, errs: sentinels(iso.Errors),
		idle:  make(chan *Worker, iso.MaxWorkers),
		slots: make(chan struct{}, iso.MaxWorkers),
		live:  map[*Worker]struct{}{},
		env: []string{
			Env + "=1",
			fmt.Sprintf("%s=%d", MemoryEnv, iso.HardMemory),
			"PATH=" + os.Getenv("PATH"),
			"HOME=" + os.Getenv("HOME"),
		},
	}
	for range iso.Workers {
		p.slots <- struct{}{}
		p.wg.Go(func() {
			if w, err := p.start(); err == nil {
				p.idle <- w
			} else {
				<-p.slots
				log.Warn("starting a worker failed", "error", err)
			}
		})
	}
	return p, nil
}

// worker is one worker process.
type Worker struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	wmu    sync.Mutex
	msgs   chan *msg     // from the worker, read by the run it serves
	dead   chan struct{} // closed when the worker's output ends
	gone   chan struct{} // closed when the worker is discarded: nobody reads msgs
	stderr *tail
	gen    uint64 // registry generation the worker was set up with
	ready  bool   // the worker has a setup (of generation gen)

	waitOnce sync.Once
}

// wait reaps the worker's process once, however many paths see it end: a
// run that saw it die and Close may both get here at the same time, and a
// second concurrent exec.Cmd.Wait would wait for ever for the copy of
// stderr the first one already collected.
func (w *Worker) wait() {
	w.waitOnce.Do(func() { w.cmd.Wait() })
}

// start launches a worker and sets it up.
func (p *Pool) start() (*Worker, error) {
	cmd := exec.Command(p.opts.Command[0], p.opts.Command[1:]...)
	if p.exe.argv0 != "" {
		cmd.Args[0] = p.exe.argv0 // "/proc/self/exe" says little in ps
	}
	cmd.Env = p.env
	w := &Worker{cmd: cmd, msgs: make(chan *msg, 16), dead: make(chan struct{}), gone: make(chan struct{}), stderr: &tail{max: 4 << 10}}
	cmd.Stderr = w.stderr
	// Wait copies the worker's stderr until every writer of the pipe has
	// closed it; a copy of the pipe held by some other process must not
	// keep a discard (and Close) waiting: a second after the worker is
	// gone the pipe is closed and Wait returns.
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	w.stdin = stdin
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: starting %s: %w", ErrWorker, p.opts.Command[0], err)
	}
	go w.read(stdout)
	p.mu.Lock()
	p.live[w] = struct{}{}
	p.mu.Unlock()
	if err := p.sync(w); err != nil {
		p.end(w) // the caller frees the slot it took for w
		return nil, err
	}
	return w, nil
}

// read forwards the worker's messages until its output ends.
func (w *Worker) read(stdout io.Reader) {
	defer close(w.dead)
	dec := json.NewDecoder(bufio.NewReaderSize(stdout, 64<<10))
	for {
		m := new(msg)
		if err := dec.Decode(m); err != nil {
			return
		}
		select {
		case w.msgs <- m:
		case <-w.gone: // a run that gave up on the worker reads no more
			return
		}
	}
}

func (w *Worker) send(m *msg) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	w.wmu.Lock()
	defer w.wmu.Unlock()
	_, err = w.stdin.Write(b)
	return err
}

// sync sends the current setup when the worker has an older one.
func (p *Pool) sync(w *Worker) error {
	gen := p.host.Generation()
	if w.ready && w.gen == gen {
		return nil
	}
	p.mu.Lock()
	if p.setup == nil || p.gen != gen {
		setup, err := p.host.Setup(gen)
		var s []byte
		if err == nil {
			s, err = json.Marshal(&msg{Type: "setup", Setup: setup})
		}
		if err != nil {
			p.mu.Unlock()
			return err
		}
		p.setup, p.gen = append(s, '\n'), gen
	}
	setup := p.setup
	p.mu.Unlock()
	w.wmu.Lock()
	_, err := w.stdin.Write(setup)
	w.wmu.Unlock()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrWorker, err)
	}
	select {
	case m := <-w.msgs:
		if m.Type != "ready" {
			return fmt.Errorf("%w: unexpected %q instead of ready", ErrWorker, m.Type)
		}
	case <-w.dead:
		return fmt.Errorf("%w: the worker exited during setup: %s", ErrWorker, w.stderr.lastLine())
	case <-time.After(10 * time.Second):
		return fmt.Errorf("%w: no answer to setup within 10s", ErrWorker)
	}
	w.gen, w.ready = gen, true
	return nil
}

// acquire returns a ready worker, starting one when none is idle and the
// pool may grow.
func (p *Pool) acquire(ctx context.Context) (*Worker, error) {
	for {
		select {
		case w := <-p.idle:
			if p.alive(w) {
				return w, nil
			}
			continue
		default:
		}
		select {
		case w := <-p.idle:
			if p.alive(w) {
				return w, nil
			}
		case p.slots <- struct{}{}:
			w, err := p.start()
			if err != nil {
				<-p.slots
				return nil, err
			}
			return w, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// alive reports whether an idle worker is still there; one that died
// while idle (killed from outside, or by the system's OOM killer) is
// replaced instead of failing the run that would have got it.
func (p *Pool) alive(w *Worker) bool {
	select {
	case <-w.dead:
		w.wait()
		p.log.Warn("an idle worker died; replacing it", "reason", w.deathReason(p.opts.HardMemory))
		p.replace(w)
		return false
	default:
		return true
	}
}

// release returns a worker that finished a run to the idle set. Workers
// started for a burst beyond Workers end once they would only wait: the
// pool shrinks back as the load falls.
func (p *Pool) release(w *Worker) {
	if p.closed.Load() || len(p.idle) >= p.opts.Workers {
		p.discard(w)
		return
	}
	p.idle <- w
}

// discard ends a worker and frees its slot.
func (p *Pool) discard(w *Worker) {
	if p.end(w) {
		<-p.slots
	}
}

// end ends a live worker's process and reports whether it was live.
func (p *Pool) end(w *Worker) bool {
	p.mu.Lock()
	_, ok := p.live[w]
	delete(p.live, w)
	p.mu.Unlock()
	if !ok {
		return false
	}
	close(w.gone)
	if w.cmd.Process != nil {
		w.cmd.Process.Kill()
	}
	w.stdin.Close()
	w.wait()
	return true
}

// replace discards a dead worker and starts another in its place, so the
// pool stays warm.
func (p *Pool) replace(w *Worker) {
	p.discard(w)
	if p.closed.Load() {
		return
	}
	p.wg.Go(func() {
		select {
		case p.slots <- struct{}{}:
		default:
			return // the pool is full anyway
		}
		nw, err := p.start()
		if err != nil {
			<-p.slots
			p.log.Warn("replacing a worker failed", "error", err)
			return
		}
		p.release(nw)
	})
}

// Close ends every worker.
func (p *Pool) Close() {
	if !p.closed.CompareAndSwap(false, true) {
		return
	}
	p.wg.Wait()
	for {
		select {
		case w := <-p.idle:
			p.discard(w)
		default:
			p.mu.Lock()
			rest := make([]*Worker, 0, len(p.live))
			for w := range p.live {
				rest = append(rest, w)
			}
			p.mu.Unlock()
			for _, w := range rest {
				p.discard(w)
			}
			p.exe.remove()
			return
		}
	}
}

// Exec runs one program on a worker. Tool calls the worker sends are made
// here, through Host.Call under ctx (which carries the run's state:
// budgets, progress, confirmation).
func (p *Pool) Exec(ctx context.Context, run Run) Result {
	var res Result
	w, err := p.acquire(ctx)
	if err == nil {
		err = p.sync(w)
		if err != nil {
			p.replace(w)
		}
	}
	if err != nil {
		res.Err = err
		if !errors.Is(err, ErrWorker) {
			res.Err = fmt.Errorf("%w: %w", ErrWorker, err)
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			res.Err = interp.NewError(interp.KindCancelled, 0, 0, "cancelled before a worker was free", interp.ErrCancelled, err)
		}
		res.Text = "Error: " + res.Err.Error()
		return res
	}
	id := p.runSeq.Add(1)
	if err := w.send(&msg{Type: "run", ID: id, Code: run.Code, Limits: run.Limits}); err != nil {
		p.died(w, &res)
		return res
	}
	callCtx, cancelCalls := context.WithCancel(ctx)
	defer cancelCalls()
	var calls sync.WaitGroup
	// The worker keeps the run's budgets itself, but only at Starlark step
	// boundaries: one long Go call never reaches one. So the wall clock is
	// kept here too, and a worker still busy OverrunGrace after the
	// deadline or the cancellation is killed.
	kill := time.NewTimer(time.Hour)
	kill.Stop()
	defer kill.Stop()
	var killC <-chan time.Time
	var killAt time.Time
	stop := interp.ErrTimeout // what a kill reports: the first of deadline and cancellation
	if t := run.Timeout; t > 0 {
		killAt = time.Now().Add(t + OverrunGrace)
		kill.Reset(time.Until(killAt))
		killC = kill.C
	}
	done := ctx.Done()
	for {
		select {
		case m := <-w.msgs:
			switch m.Type {
			case "call":
				calls.Go(func() { p.call(callCtx, w, m) })
			case "step":
				if run.OnStep != nil && m.Step != nil {
					run.OnStep(m.Step)
				}
			case "done":
				cancelCalls()
				calls.Wait()
				p.fill(&res, m.Result)
				if errors.Is(res.Err, interp.ErrOverrun) {
					// The worker answered at the deadline, but the Go call
					// its program was in still runs there: retire it.
					p.replace(w)
				} else {
					p.release(w)
				}
				return res
			}
		case <-w.dead:
			cancelCalls()
			calls.Wait()
			p.died(w, &res)
			return res
		case <-done:
			// Ask the worker to stop the program. The send runs apart: a
			// worker too busy to drain its input must not stall the kill.
			reason := ""
			if ctxStop(ctx) == interp.ErrTimeout {
				reason = "deadline"
			}
			go w.send(&msg{Type: "cancel", ID: id, Reason: reason})
			done = nil
			if at := time.Now().Add(OverrunGrace); killC == nil || at.Before(killAt) {
				killAt, stop = at, ctxStop(ctx)
				kill.Reset(time.Until(at))
				killC = kill.C
			}
		case <-killC:
			// Tool calls still running are cancelled but not awaited: the
			// answer is due now, and their replies go nowhere.
			cancelCalls()
			p.overran(ctx, w, &res, stop, run.Timeout)
			return res
		}
	}
}

// ctxStop tells, like the interpreter does, whether a done context means a
// time-out or a cancellation.
func ctxStop(ctx context.Context) error {
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		return interp.ErrTimeout
	}
	return interp.ErrCancelled
}

// overran kills and replaces a worker that outlived its run's deadline or
// cancellation, and answers the run as the interpreter would have: stop is
// interp.ErrTimeout or interp.ErrCancelled.
func (p *Pool) overran(ctx context.Context, w *Worker, res *Result, stop error, timeout time.Duration) {
	p.log.Warn("a worker was still busy after its run's deadline or cancellation; killing and replacing it",
		"grace", OverrunGrace, "reason", stop.Error())
	p.replace(w)
	res.Err = overrunError(stop, timeout, ctx.Err())
	res.Text = "Error: " + res.Err.Error()
}

// overrunError is the error of a run whose worker was killed for
// overrunning: the text and causes of the in-process time-out ("timed out
// after 2s", interp.ErrTimeout, interp.ErrLimit) or cancellation, plus
// interp.ErrOverrun, by which the statistics count it.
func overrunError(stop error, timeout time.Duration, ctxErr error) error {
	if stop == interp.ErrCancelled {
		causes := []error{interp.ErrCancelled, interp.ErrOverrun}
		if ctxErr != nil {
			causes = append(causes, ctxErr)
		}
		return interp.NewError(interp.KindCancelled, 0, 0, "cancelled", causes...)
	}
	msg := "timed out"
	if timeout > 0 {
		// A deadline of the caller's own has no setting to name.
		msg = interp.LimitMessage(fmt.Sprintf("timed out after %s", timeout), "", interp.Setting(interp.ErrTimeout))
	}
	return interp.NewError(interp.KindLimit, 0, 0, msg, interp.ErrTimeout, context.DeadlineExceeded, interp.ErrOverrun)
}

// call makes one tool call for the worker and sends the reply.
func (p *Pool) call(ctx context.Context, w *Worker, m *msg) {
	reply := &msg{Type: "reply", ID: m.ID}
	v, err := p.host.Call(ctx, m.Tool, m.Value)
	if err == nil {
		reply.Value, err = ordered.Encode(v)
	}
	reply.Err = toWireErr(err, p.errs)
	w.send(reply)
}

// died reports the death of the worker that served a run and replaces it.
func (p *Pool) died(w *Worker, res *Result) {
	w.wait() // the exit status says how it died
	why := w.deathReason(p.opts.HardMemory)
	p.log.Warn("a worker died during a run; replacing it", "reason", why)
	res.Err = interp.NewError(interp.KindInternal, 0, 0, "the worker process running this program "+why+"; it has been replaced", ErrWorker)
	if strings.Contains(why, "memory limit") {
		res.Err = interp.NewError(interp.KindLimit, 0, 0, "the worker process running this program "+why+"; it has been replaced", ErrWorker, interp.ErrMemoryLimit, interp.ErrLimit)
	}
	res.Text = "Error: " + res.Err.Error()
	p.replace(w)
}

// deathReason tells from the exit status and the last words on stderr why
// a worker died.
func (w *Worker) deathReason(hard int64) string {
	switch {
	case w.stderr.outOfMemory():
		return fmt.Sprintf("was stopped by its hard memory limit of %s", interp.FormatBytes(hard))
	case w.cmd.ProcessState != nil && !w.cmd.ProcessState.Exited():
		return "was killed (" + w.cmd.ProcessState.String() + ")"
	}
	if line := w.stderr.lastLine(); line != "" {
		return "crashed: " + line
	}
	if w.cmd.ProcessState != nil {
		return "exited (" + w.cmd.ProcessState.String() + ")"
	}
	return "stopped answering"
}

// fill copies a worker's answer into res.
func (p *Pool) fill(res *Result, r *wireResult) {
	if r == nil {
		res.Err = fmt.Errorf("%w: a result without content", ErrWorker)
		res.Text = "Error: " + res.Err.Error()
		return
	}
	res.Text, res.Printed, res.HasValue, res.Value = r.Text, r.Printed, r.HasValue, r.Value
	if r.Err != nil {
		res.Err = r.Err.runErr(p.errs)
	}
}

// Workers returns the live workers and the number of idle ones.
func (p *Pool) Workers() (live []*Worker, idle int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for w := range p.live {
		live = append(live, w)
	}
	return live, len(p.idle)
}

// Executable is the file workers start from: /proc/self/exe, a private
// copy, or the first word of Options.Command.
func (p *Pool) Executable() string { return p.opts.Command[0] }

// HardMemory is each worker's hard memory limit in bytes.
func (p *Pool) HardMemory() int64 { return p.opts.HardMemory }

// PID is the worker's process id.
func (w *Worker) PID() int { return w.cmd.Process.Pid }

// ExitStatus says how the worker's process ended ("signal: killed"), or
// "" while it runs.
func (w *Worker) ExitStatus() string {
	if w.cmd.ProcessState == nil {
		return ""
	}
	return w.cmd.ProcessState.String()
}
