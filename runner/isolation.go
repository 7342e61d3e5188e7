package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// Isolation configures isolation: process (SPEC §8.5): programs run in
// pre-started worker processes, each under a hard memory limit, and their
// tool calls travel back to this process over a pipe. A worker that dies —
// killed by its limit, or crashing — is replaced, and the run it was
// serving reports why.
type Isolation struct {
	// Command starts a worker. The default is this executable with
	// ONETOOL_WORKER=1 in its environment, which works for the onetool
	// command and for programs that call IsWorker/WorkerMain first thing.
	Command []string
	// Workers are started ahead of need (default: GOMAXPROCS, at least 2).
	Workers int
	// MaxWorkers bounds the workers alive at once (default 4×Workers);
	// more concurrent runs wait for one. Workers beyond Workers end when
	// they fall idle.
	MaxWorkers int
	// HardMemory is each worker's memory limit in bytes (RLIMIT_DATA on
	// Linux; default 4×MaxMemory + 512 MiB). The in-process budget of
	// limits.max_memory still applies inside the worker and ends most runs
	// first, with the usual message.
	HardMemory int64
}

// ErrWorker is the cause of a run whose worker process died or could not
// be started.
var ErrWorker = errors.New("worker failed")

// overrunGrace is how long a worker may stay busy after its run's deadline
// or cancellation (SPEC §8.5). The worker stops the program itself at the
// next Starlark step, within milliseconds; only a program stuck in one long
// Go call (hashing or printing a huge shared structure) outlasts it.
const overrunGrace = time.Second

// WithIsolation runs every program in worker processes (see Isolation).
func WithIsolation(iso Isolation) Option {
	return func(r *Runner) { r.isolation = &iso }
}

// pool holds the worker processes of a runner.
type pool struct {
	r    *Runner
	opts Isolation
	env  []string

	idle   chan *worker  // ready workers
	slots  chan struct{} // one token per live worker, up to MaxWorkers
	closed atomic.Bool
	wg     sync.WaitGroup

	runSeq atomic.Uint64 // run ids, unique within the pool

	mu    sync.Mutex
	setup []byte // the setup message for the registry generation in gen
	gen   uint64
	live  map[*worker]struct{}
}

func newPool(r *Runner, iso Isolation) (*pool, error) {
	if iso.Workers <= 0 {
		iso.Workers = max(2, runtime.GOMAXPROCS(0))
	}
	if iso.MaxWorkers < iso.Workers {
		iso.MaxWorkers = 4 * iso.Workers
	}
	if iso.HardMemory <= 0 {
		// A value just under the budget that doubles needs three times
		// the budget at once, before the watchdog can see it is over, and
		// a loaded machine may let it double once more; the runtime's own
		// memory and thread stacks count too.
		iso.HardMemory = 4*r.limits.MaxMemory + 512<<20
	}
	if len(iso.Command) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("%w: isolation: process needs the path of this program: %w", ErrConfig, err)
		}
		iso.Command = []string{exe}
	}
	p := &pool{
		r: r, opts: iso,
		idle:  make(chan *worker, iso.MaxWorkers),
		slots: make(chan struct{}, iso.MaxWorkers),
		live:  map[*worker]struct{}{},
		env: []string{
			WorkerEnv + "=1",
			fmt.Sprintf("%s=%d", workerMemoryEnv, iso.HardMemory),
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
				r.log.Warn("starting a worker failed", "error", err)
			}
		})
	}
	return p, nil
}

// worker is one worker process.
type worker struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	wmu    sync.Mutex
	msgs   chan *wireMsg // from the worker, read by the run it serves
	dead   chan struct{} // closed when the worker's output ends
	gone   chan struct{} // closed when the worker is discarded: nobody reads msgs
	stderr *tail
	gen    uint64 // registry generation the worker was set up with
	ready  bool   // the worker has a setup (of generation gen)
}

// start launches a worker and sets it up.
func (p *pool) start() (*worker, error) {
	cmd := exec.Command(p.opts.Command[0], p.opts.Command[1:]...)
	cmd.Env = p.env
	w := &worker{cmd: cmd, msgs: make(chan *wireMsg, 16), dead: make(chan struct{}), gone: make(chan struct{}), stderr: &tail{max: 4 << 10}}
	cmd.Stderr = w.stderr
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
func (w *worker) read(stdout io.Reader) {
	defer close(w.dead)
	dec := json.NewDecoder(bufio.NewReaderSize(stdout, 64<<10))
	for {
		m := new(wireMsg)
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

func (w *worker) send(m *wireMsg) error {
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
func (p *pool) sync(w *worker) error {
	gen := p.r.reg.Generation()
	if w.ready && w.gen == gen {
		return nil
	}
	p.mu.Lock()
	if p.setup == nil || p.gen != gen {
		s, err := json.Marshal(&wireMsg{Type: "setup", Setup: p.r.workerSetup(gen)})
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
func (p *pool) acquire(ctx context.Context) (*worker, error) {
	for {
		select {
		case w := <-p.idle:
			return w, nil
		default:
		}
		select {
		case w := <-p.idle:
			return w, nil
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

// release returns a worker that finished a run to the idle set. Workers
// started for a burst beyond Workers end once they would only wait: the
// pool shrinks back as the load falls.
func (p *pool) release(w *worker) {
	if p.closed.Load() || len(p.idle) >= p.opts.Workers {
		p.discard(w)
		return
	}
	p.idle <- w
}

// discard ends a worker and frees its slot.
func (p *pool) discard(w *worker) {
	if p.end(w) {
		<-p.slots
	}
}

// end ends a live worker's process and reports whether it was live.
func (p *pool) end(w *worker) bool {
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
	w.cmd.Wait()
	return true
}

// replace discards a dead worker and starts another in its place, so the
// pool stays warm.
func (p *pool) replace(w *worker) {
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
			p.r.log.Warn("replacing a worker failed", "error", err)
			return
		}
		p.release(nw)
	})
}

// close ends every worker.
func (p *pool) close() {
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
			rest := make([]*worker, 0, len(p.live))
			for w := range p.live {
				rest = append(rest, w)
			}
			p.mu.Unlock()
			for _, w := range rest {
				p.discard(w)
			}
			return
		}
	}
}

// exec runs one program on a worker and fills res. Tool calls the worker
// sends are made here, under ctx (which carries the run's state: budgets,
// progress, confirmation).
func (p *pool) exec(ctx context.Context, st *runState, command string, res *ExecResult) {
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
		return
	}
	id := p.runSeq.Add(1)
	limits := st.limits
	if err := w.send(&wireMsg{Type: "run", ID: id, Code: command, Limits: &limits}); err != nil {
		p.died(w, res)
		return
	}
	callCtx, cancelCalls := context.WithCancel(ctx)
	defer cancelCalls()
	var calls sync.WaitGroup
	// The worker keeps the run's budgets itself, but only at Starlark step
	// boundaries: one long Go call never reaches one. So the wall clock is
	// kept here too, and a worker still busy overrunGrace after the
	// deadline or the cancellation is killed.
	kill := time.NewTimer(time.Hour)
	kill.Stop()
	defer kill.Stop()
	var killC <-chan time.Time
	var killAt time.Time
	stop := interp.ErrTimeout // what a kill reports: the first of deadline and cancellation
	if t := limits.Timeout; t > 0 {
		killAt = time.Now().Add(t + overrunGrace)
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
				if st.onStep != nil && m.Step != nil {
					st.onStep(*m.Step)
				}
			case "done":
				cancelCalls()
				calls.Wait()
				fill(res, m.Result)
				if errors.Is(res.Err, interp.ErrOverrun) {
					// The worker answered at the deadline, but the Go call
					// its program was in still runs there: retire it.
					p.replace(w)
				} else {
					p.release(w)
				}
				return
			}
		case <-w.dead:
			cancelCalls()
			calls.Wait()
			p.died(w, res)
			return
		case <-done:
			// Ask the worker to stop the program. The send runs apart: a
			// worker too busy to drain its input must not stall the kill.
			reason := ""
			if ctxStop(ctx) == interp.ErrTimeout {
				reason = "deadline"
			}
			go w.send(&wireMsg{Type: "cancel", ID: id, Reason: reason})
			done = nil
			if at := time.Now().Add(overrunGrace); killC == nil || at.Before(killAt) {
				killAt, stop = at, ctxStop(ctx)
				kill.Reset(time.Until(at))
				killC = kill.C
			}
		case <-killC:
			// Tool calls still running are cancelled but not awaited: the
			// answer is due now, and their replies go nowhere.
			cancelCalls()
			p.overran(ctx, w, res, stop, limits.Timeout)
			return
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
func (p *pool) overran(ctx context.Context, w *worker, res *ExecResult, stop error, timeout time.Duration) {
	p.r.log.Warn("a worker was still busy after its run's deadline or cancellation; killing and replacing it",
		"grace", overrunGrace, "reason", stop.Error())
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
func (p *pool) call(ctx context.Context, w *worker, m *wireMsg) {
	reply := &wireMsg{Type: "reply", ID: m.ID}
	v, err := p.r.remoteCall(ctx, m.Tool, m.Value)
	if err == nil {
		reply.Value, err = ordered.Encode(v)
	}
	reply.Err = toWireErr(err)
	w.send(reply)
}

// remoteCall is CallTool for a tool named by id with JSON arguments.
func (r *Runner) remoteCall(ctx context.Context, id string, args json.RawMessage) (any, error) {
	t, err := r.resolve(ctx, id)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if len(args) > 0 {
		v, err := ordered.Decode(args)
		if err != nil {
			return nil, err
		}
		if om, ok := v.(*ordered.Map); ok {
			m = make(map[string]any, om.Len())
			om.Range(func(k string, x any) bool { m[k] = x; return true })
		}
	}
	return r.CallTool(ctx, t, m)
}

// died reports the death of the worker that served a run and replaces it.
func (p *pool) died(w *worker, res *ExecResult) {
	w.cmd.Wait() // the exit status says how it died
	why := w.deathReason(p.opts.HardMemory)
	p.r.log.Warn("a worker died during a run; replacing it", "reason", why)
	res.Err = interp.NewError(interp.KindInternal, 0, 0, "the worker process running this program "+why+"; it has been replaced", ErrWorker)
	if strings.Contains(why, "memory limit") {
		res.Err = interp.NewError(interp.KindLimit, 0, 0, "the worker process running this program "+why+"; it has been replaced", ErrWorker, interp.ErrMemoryLimit, interp.ErrLimit)
	}
	res.Text = "Error: " + res.Err.Error()
	p.replace(w)
}

// deathReason tells from the exit status and the last words on stderr why
// a worker died.
func (w *worker) deathReason(hard int64) string {
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

// fill copies a worker's result into res.
func fill(res *ExecResult, r *wireResult) {
	if r == nil {
		res.Err = fmt.Errorf("%w: a result without content", ErrWorker)
		res.Text = "Error: " + res.Err.Error()
		return
	}
	res.Text, res.Printed, res.HasValue = r.Text, r.Printed, r.HasValue
	if len(r.Value) > 0 {
		res.Value, _ = ordered.Decode(r.Value)
	}
	if r.Err != nil {
		res.Err = r.Err.runErr()
	}
}

// workerSetup describes the tools and configuration for workers.
func (r *Runner) workerSetup(gen uint64) *wireSetup {
	s := &wireSetup{
		Generation: gen,
		Packs:      map[string]string{},
		Aliases:    r.cfg.Aliases,
		Snippets:   r.cfg.Snippets,
		Projects:   r.cfg.Projects,
	}
	if fp := r.cfg.Packs["file"]; fp != nil {
		s.FileDirs = fp.AllowedDirs
	}
	if r.roots != nil {
		s.Own = r.roots.Own()
	}
	for _, p := range r.reg.Packs() {
		s.Packs[p.Name] = p.Description
		for _, t := range p.Tools() {
			s.Tools = append(s.Tools, wireTool{
				Pack: t.Pack, Name: t.Name, Version: t.Version, Description: t.Description,
				InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Returns: t.Returns,
				Examples: t.Examples, Synonyms: t.Synonyms, Deterministic: t.Deterministic,
				Annotations: t.Annotations, Timeout: t.Timeout,
			})
		}
	}
	return s
}

// tail keeps what a worker wrote on stderr, for the reason it died: the
// first bytes, where a Go crash says why ("fatal error: …", "panic: …"),
// and the last ones. A worker writes nothing there until it dies.
type tail struct {
	mu   sync.Mutex
	max  int
	head []byte
	b    []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n := min(len(p), 2*t.max-len(t.head)); n > 0 {
		t.head = append(t.head, p[:n]...)
	}
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

// outOfMemory reports whether the runtime said it ran out of memory.
func (t *tail) outOfMemory() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	h := string(t.head)
	// A thread stack is a private mapping too: at the limit, creating a
	// thread fails before the heap does.
	return strings.Contains(h, "out of memory") || strings.Contains(h, "cannot allocate memory") ||
		strings.Contains(h, "pthread_create failed")
}

// lastLine is the line that explains a Go crash, or else the last line
// written.
func (t *tail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, l := range strings.Split(string(t.head), "\n") {
		if strings.HasPrefix(l, "fatal error: ") || strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "runtime: ") {
			return strings.TrimSpace(l)
		}
	}
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
