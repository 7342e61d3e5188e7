package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrShuttingDown is the cause given to runs cancelled because the
// server stopped waiting for them (serve.drain_timeout).
var ErrShuttingDown = errors.New("onetool is shutting down")

// DrainRetryAfter is the Retry-After, in seconds, of a request refused
// while draining: a client or load balancer retries it, elsewhere or on
// this server's successor.
const DrainRetryAfter = "1"

// Drain lets a server stop gracefully (SIGTERM): after Start, new requests
// and runs are refused, /healthz answers 503 "draining", and Wait returns
// when the work in flight has ended; CancelRuns ends what is left. Share
// one Drain between Options.Drain and HTTPOptions.Drain.
type Drain struct {
	stop   context.Context // cancelled by CancelRuns
	cancel context.CancelCauseFunc

	mu       sync.Mutex
	draining bool
	// probed is set once /healthz has been asked, toldDraining once it
	// answered "draining", refused is when a request was last refused
	// while draining: what Linger waits on.
	probed, toldDraining bool
	refused              time.Time
	// lastProbe is when /healthz was last asked, probeEvery the time
	// between its last two probes: a balancer probes at an interval; a
	// person's one curl is no balancer to wait for.
	lastProbe  time.Time
	probeEvery time.Duration
	busy       int           // runs and HTTP requests in flight
	runs       int           // runs in flight
	idle       chan struct{} // closed once draining with nothing busy
	// stopHint ends the drain's log lines: how to stop waiting (see
	// SetStopHint).
	stopHint string
}

// NewDrain returns a Drain that is not draining.
func NewDrain() *Drain {
	stop, cancel := context.WithCancelCause(context.Background())
	return &Drain{stop: stop, cancel: cancel, idle: make(chan struct{})}
}

// SetStopHint sets what the drain's log lines say about stopping it
// sooner, such as "Ctrl-C again to stop now" when a second interrupt
// ends the drain; "" says nothing.
func (d *Drain) SetStopHint(hint string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopHint = hint
}

// waitingFor says what a drain waits for, up to timeout: the runs or
// requests in flight, or nothing.
func (d *Drain) waitingFor(timeout time.Duration) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var what string
	switch {
	case d.runs > 0:
		what = plural(d.runs, "run") + " in flight"
	case d.busy > 0:
		what = plural(d.busy, "request") + " in flight"
	default:
		return "nothing in flight"
	}
	return d.withHint(fmt.Sprintf("waiting for %s (up to %s)", what, timeout))
}

// withHint is msg followed by the stop hint. d.mu is held.
func (d *Drain) withHint(msg string) string {
	if d.stopHint == "" {
		return msg
	}
	return msg + "; " + d.stopHint
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Start begins draining. It may be called more than once.
func (d *Drain) Start() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.draining {
		return
	}
	d.draining = true
	d.signalIdle()
}

// Draining reports whether Start was called.
func (d *Drain) Draining() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.draining
}

// InFlight counts the runs and HTTP requests in flight (a run over HTTP
// counts twice: its request and itself).
func (d *Drain) InFlight() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.busy
}

// Runs counts the runs in flight.
func (d *Drain) Runs() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.runs
}

// Wait returns nil once Start was called and nothing is in flight, or
// ctx's error when it ends first.
func (d *Drain) Wait(ctx context.Context) error {
	select {
	case <-d.idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// CancelRuns cancels the runs in flight, with ErrShuttingDown as cause:
// each ends as a cancelled run and its client gets that answer.
func (d *Drain) CancelRuns() { d.cancel(ErrShuttingDown) }

// enter records work starting; it is refused (false) while draining.
func (d *Drain) enter() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.draining {
		return false
	}
	d.busy++
	return true
}

func (d *Drain) leave() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.busy--
	d.signalIdle()
}

// signalIdle closes idle when draining has nothing left. d.mu is held.
func (d *Drain) signalIdle() {
	if d.draining && d.busy == 0 {
		select {
		case <-d.idle:
		default:
			close(d.idle)
		}
	}
}

// run admits a run: its context is also cancelled by CancelRuns, and done
// must be called when it ends. ok is false while draining, unless the run
// came in an HTTP exchange (overHTTP): the admission middleware refuses
// the requests of those that arrived while draining, so one that gets
// here was let in before draining began, and still runs.
func (d *Drain) run(ctx context.Context, overHTTP bool) (_ context.Context, done func(), ok bool) {
	d.mu.Lock()
	if d.draining && !overHTTP {
		d.mu.Unlock()
		return ctx, nil, false
	}
	d.busy++
	d.runs++
	d.mu.Unlock()
	ctx, cancel := context.WithCancelCause(ctx)
	unhook := context.AfterFunc(d.stop, func() { cancel(context.Cause(d.stop)) })
	return ctx, func() {
		unhook()
		cancel(nil)
		d.mu.Lock()
		d.runs--
		d.mu.Unlock()
		d.leave()
	}, true
}

// drainingText is the error a run gets when it arrives while the server
// drains over stdio (over HTTP its request is refused with 503 first).
const drainingText = "Error: onetool is shutting down and takes no new runs; send the run again (to another onetool server if there is one)"

// healthz answers /healthz: what it always answered while serving, and
// 503 with {"status":"draining"} once draining, so that a readiness probe
// takes the server out of its load balancer.
func (d *Drain) healthz(w http.ResponseWriter, _ *http.Request) {
	if d != nil && d.probe() {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", DrainRetryAfter)
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, `{"status":"draining"}`)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintln(w, "ok")
}

// probe records a /healthz request and reports whether it is told
// "draining".
func (d *Drain) probe() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := time.Now()
	if d.probed {
		d.probeEvery = now.Sub(d.lastProbe)
	}
	d.probed, d.lastProbe = true, now
	d.toldDraining = d.toldDraining || d.draining
	return d.draining
}

// lingerQuiet is how long no request may have been refused before a
// drained server behind a load balancer closes its port.
const lingerQuiet = 250 * time.Millisecond

// Linger waits, after Finish, until a load balancer has stopped sending
// requests, so that none reaches the port as it closes: a connection in
// the listen queue or a kept-alive one is then reset after its request
// was sent, which no balancer may safely retry. Behind a balancer (one
// that has probed /healthz at least twice) that is once /healthz has
// answered "draining" and no request has been refused for lingerQuiet,
// or once the balancer has let three of its intervals pass without a
// probe (it is gone); without one it returns at once (a person who asked
// /healthz once is not a balancer: Ctrl-C must not wait 30 s for them),
// and in any case within timeout. When it waits, it logs for what.
func (d *Drain) Linger(timeout time.Duration, log *slog.Logger) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	start := time.Now()
	deadline := start.Add(timeout)
	for said := false; time.Now().Before(deadline); said = true {
		d.mu.Lock()
		balancer := d.probed && d.probeEvery > 0
		gone := time.Since(d.lastProbe) > 3*d.probeEvery+lingerQuiet && time.Since(start) > lingerQuiet
		done := !balancer || gone || d.toldDraining && time.Since(d.refused) >= lingerQuiet
		var msg string
		if !done && !said {
			msg = d.withHint(fmt.Sprintf("onetool draining: waiting for the load balancer that probes /healthz every %s to see \"draining\" and stop sending requests (up to %s)",
				d.probeEvery.Round(time.Millisecond), timeout))
		}
		d.mu.Unlock()
		if done {
			return
		}
		if msg != "" {
			log.Info(msg, "probe_interval", d.probeEvery, "drain_timeout", timeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// noteRefused records that a request was refused while draining, for
// Linger.
func (d *Drain) noteRefused() {
	d.mu.Lock()
	d.refused = time.Now()
	d.mu.Unlock()
}

// refuseDraining answers a request that is not a POST (a GET opening an
// event stream) while draining; the requests a POST carries are refused
// by the admission middleware (see admit).
func refuseDraining(w http.ResponseWriter) {
	w.Header().Set("Retry-After", DrainRetryAfter)
	// The connection is not reused: the next try should reach a server
	// that is not going away.
	w.Header().Set("Connection", "close")
	http.Error(w, drainingHTTPText, http.StatusServiceUnavailable)
}

// cancelGrace bounds the wait for cancelled runs to return: a run in a
// worker process is killed 1 s after cancellation (SPEC §8.5).
const cancelGrace = 5 * time.Second

// Finish drains: it starts draining, waits up to timeout for the work in
// flight, then cancels the runs left and waits (briefly) for them to
// answer. It reports how many runs it cancelled. Safe to call more than
// once and from several goroutines.
func (d *Drain) Finish(timeout time.Duration, log *slog.Logger) (cancelled int) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	d.Start()
	log.Info("onetool draining: no new runs; "+d.waitingFor(timeout), "runs_in_flight", d.Runs(), "drain_timeout", timeout)
	wait, stop := context.WithTimeout(context.Background(), timeout)
	defer stop()
	if d.Wait(wait) == nil {
		return 0
	}
	cancelled = d.Runs()
	log.Warn(fmt.Sprintf("onetool drain_timeout reached: cancelling %s still in flight", plural(cancelled, "run")), "runs", cancelled, "drain_timeout", timeout)
	d.CancelRuns()
	grace, stop2 := context.WithTimeout(context.Background(), cancelGrace)
	defer stop2()
	if d.Wait(grace) != nil {
		log.Error("onetool runs still running after cancellation; stopping anyway", "runs", d.Runs())
	}
	return cancelled
}

// ShutdownHTTP stops srv, which serves s through HTTPHandler with d as
// its HTTPOptions.Drain: Finish (new requests get 503 meanwhile, and
// /healthz says "draining"), Linger, then the MCP sessions end, which closes
// their open GET streams, and srv shuts down. It returns within timeout
// plus a few seconds.
func ShutdownHTTP(srv *http.Server, s *mcp.Server, d *Drain, timeout time.Duration, log *slog.Logger) {
	d.Finish(timeout, log)
	d.Linger(timeout, log)
	var closing sync.WaitGroup
	for ss := range s.Sessions() {
		closing.Go(func() { _ = ss.Close() })
	}
	closed := make(chan struct{})
	go func() { closing.Wait(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Second):
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if srv.Shutdown(ctx) != nil {
		_ = srv.Close()
	}
}
