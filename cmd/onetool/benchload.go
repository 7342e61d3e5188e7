package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/mcpserver"
)

// loadOptions configures one load test.
type loadOptions struct {
	Clients  int
	Duration time.Duration
	Command  string
	// URL is the endpoint of a running server; "" loads Handler, served
	// in-process on 127.0.0.1:0.
	URL       string
	Handler   http.Handler
	Stateless bool // reported only: the handler is already built
	// Token, when set, is sent as "Authorization: Bearer <Token>" on every
	// request, for a server with serve.auth.
	Token string
	// CallTimeout bounds one tools/call; a call that takes longer counts as
	// an error. Default 30 s.
	CallTimeout time.Duration
	// SettleTimeout is how long to wait, after the clients have closed, for
	// the goroutine count to return to where it started. Default 5 s.
	SettleTimeout time.Duration
}

// loadReport is what `onetool bench load` prints; --json prints it as it is.
type loadReport struct {
	URL       string `json:"url"`
	InProcess bool   `json:"in_process"`
	Stateless bool   `json:"stateless"`
	Clients   int    `json:"clients"`
	Command   string `json:"command"`
	Sessions  int    `json:"sessions"`
	// Dials counts the TCP connections the clients opened: about one per
	// client (two with a standalone SSE stream) when none are churned.
	Dials      int64   `json:"tcp_connections"`
	ConnectSec float64 `json:"connect_seconds"`
	ElapsedSec float64 `json:"elapsed_seconds"`
	// Runs counts completed tools/call requests, failed ones included;
	// throughput counts the successful ones only.
	Runs        int64          `json:"runs"`
	RunsPerSec  float64        `json:"runs_per_second"`
	LatencyMS   latencyReport  `json:"latency_ms"`
	Errors      int64          `json:"errors"`
	ErrorKinds  []errorCount   `json:"error_messages,omitempty"`
	Goroutines  *goroutineStat `json:"goroutines"` // nil when the server is not in this process
	Interrupted bool           `json:"interrupted"`
}

type latencyReport struct {
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
}

type errorCount struct {
	Message string `json:"message"`
	Count   int64  `json:"count"`
}

type goroutineStat struct {
	Before int `json:"before"`
	Peak   int `json:"peak"`
	After  int `json:"after"`
	// SettleMS is how long the count took to return to Before (or the
	// whole settle timeout when it did not).
	SettleMS float64 `json:"settle_ms"`
}

// maxErrorKinds is how many distinct error messages a report keeps.
const maxErrorKinds = 5

func newBenchLoadCmd(g *globalFlags) *cobra.Command {
	opts := loadOptions{}
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "load [--clients N] [--duration T] [--command CODE] [--url URL] [--stateless] [--json]",
		Short: "Load the streamable HTTP server with many concurrent MCP clients",
		Long: `Start N MCP clients, each its own session over streamable HTTP, and have
each send the run tool the same program again and again for the duration.
Report throughput (successful runs per second), latency percentiles, errors
(a result with isError counts as one), the TCP connections the clients
opened and, when the server runs in this process, the number of goroutines
before, at the peak and after the clients have closed.

By default the server is started in-process on 127.0.0.1 with the runner
built from the configuration (its serve: section included) and the same
HTTP handler as 'onetool serve --http', so the whole stack is measured. With --url the load
goes to a server that is already running.

Exit status: 0 when every run succeeded, 1 when any failed, 2 on usage
errors. Ctrl-C stops early and still reports.`,
		Example: `  onetool bench load
  onetool bench load --clients 1000 --duration 60s
  onetool bench load --stateless --command 'demo.add(a=1, b=2)' --json
  onetool bench load --url http://127.0.0.1:8080/mcp`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Clients < 1 {
				return usageErrorf("--clients must be at least 1")
			}
			if opts.Token == "" {
				opts.Token = os.Getenv("ONETOOL_TOKEN") // a flag's value shows in the process list
			}
			if opts.Duration <= 0 {
				return usageErrorf("--duration must be positive")
			}
			if opts.URL != "" && opts.Stateless {
				return usageErrorf("--stateless applies to the in-process server; with --url the server decides")
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if opts.URL == "" {
				cfg, err := g.loadConfig()
				if err != nil {
					return err
				}
				// Warnings and errors of the server reach stderr, as with serve.
				log := slog.New(cfg.Secrets.LogHandler(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelWarn})))
				traces, flush, err := startTracing(cmd)
				if err != nil {
					return err
				}
				defer flush()
				r, err := g.newRunnerFrom(cfg, nil, runner.WithLogger(log), traces)
				if err != nil {
					return err
				}
				defer r.Close()
				opts.Stateless = opts.Stateless || cfg.Serve.Stateless
				limiter := rateLimiter(cfg.Serve, r, log)
				server := mcpserver.New(r, mcpserver.Options{Structured: cfg.Serve.StructuredContent, Logger: log, RateLimit: limiter})
				// The same serve.auth and rate limits as `onetool serve`:
				// --token measures them.
				hopts, err := httpOptions(cfg, opts.Stateless)
				if err != nil {
					return err
				}
				defer hopts.Auth.Close()
				opts.Handler = mcpserver.HTTPHandler(server, hopts)
			}
			rep, err := benchLoad(ctx, opts)
			if err != nil {
				return &exitError{code: exitRun, msg: err.Error()}
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(rep); err != nil {
					return err
				}
			} else {
				rep.writeText(out)
			}
			if rep.Errors > 0 {
				return &exitError{code: exitRun, msg: fmt.Sprintf("bench load: %d errors", rep.Errors)}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&opts.Clients, "clients", 100, "number of concurrent MCP clients, each its own session")
	f.DurationVar(&opts.Duration, "duration", 10*time.Second, "how long the clients send runs")
	f.StringVar(&opts.Command, "command", `demo.foo(text="hi")`, "the program (`CODE`) every client sends to run, again and again")
	f.StringVar(&opts.URL, "url", "", "load the server at this streamable HTTP `URL` (e.g. http://127.0.0.1:8080/mcp) instead of one in-process")
	f.BoolVar(&opts.Stateless, "stateless", false, "serve the in-process server in the stateless mode of MCP 2026-07-28")
	f.StringVar(&opts.Token, "token", "", "send this bearer `TOKEN` (one of serve.auth.tokens) with every request; default: $ONETOOL_TOKEN")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

// benchLoad runs one load test. Cancelling ctx stops it early; the report
// then covers what ran and says it was interrupted.
func benchLoad(ctx context.Context, opts loadOptions) (*loadReport, error) {
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 30 * time.Second
	}
	if opts.SettleTimeout <= 0 {
		opts.SettleTimeout = 5 * time.Second
	}
	rep := &loadReport{URL: opts.URL, Stateless: opts.Stateless, Clients: opts.Clients, Command: opts.Command}

	var srv *http.Server
	var served chan error
	if opts.URL == "" {
		if opts.Handler == nil {
			return nil, errors.New("bench load: no server to load")
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("cannot listen: %v", err)
		}
		srv = &http.Server{Handler: opts.Handler, ReadHeaderTimeout: 10 * time.Second}
		served = make(chan error, 1)
		go func() { served <- srv.Serve(ln) }()
		rep.URL = "http://" + ln.Addr().String() + "/mcp"
		rep.InProcess = true
	}

	// One transport for every client. Its idle pool must hold a connection
	// per client (plus one per standalone SSE stream): the defaults (two
	// per host; 100 in all for DefaultTransport) would close and reopen
	// sockets on almost every call once there are more than a few clients.
	var dials atomic.Int64
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	transport := &http.Transport{
		Proxy: http.ProxyFromEnvironment,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dials.Add(1)
			return dialer.DialContext(ctx, network, addr)
		},
		MaxIdleConns:          0, // no limit in all
		MaxIdleConnsPerHost:   2*opts.Clients + 16,
		IdleConnTimeout:       90 * time.Second,
		ResponseHeaderTimeout: opts.CallTimeout,
	}
	httpClient := &http.Client{Transport: replayable{base: transport, token: opts.Token}}

	var gs *goroutineStat
	var peak atomic.Int64
	stopSampling := func() {}
	if rep.InProcess {
		// The server is listening and nothing else of the test runs yet.
		gs = &goroutineStat{Before: runtime.NumGoroutine()}
		peak.Store(int64(gs.Before))
		sampleCtx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			tick := time.NewTicker(50 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-sampleCtx.Done():
					return
				case <-tick.C:
					n := int64(runtime.NumGoroutine())
					for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
					}
				}
			}
		}()
		stopSampling = func() { cancel(); <-done }
	}

	errs := newErrorTally()

	// Connect every client before the clock starts, a bounded number at a
	// time so that the handshakes do not all time out together.
	sessions := make([]*mcp.ClientSession, opts.Clients)
	connectCancels := make([]context.CancelFunc, opts.Clients)
	connectStart := time.Now()
	{
		sem := make(chan struct{}, 64)
		var wg sync.WaitGroup
		for i := range sessions {
			if ctx.Err() != nil {
				break
			}
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				client := mcp.NewClient(&mcp.Implementation{Name: "onetool-bench-load", Version: runner.Version},
					// No roots: nothing to ask the client.
					&mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
				// As for calls (see below), the context must outlive
				// Connect, or the drain of its last response closes the
				// connection: it ends when the session is closed.
				cctx, cancel := context.WithCancel(ctx)
				timer := time.AfterFunc(opts.CallTimeout, cancel)
				cs, err := client.Connect(cctx, &mcp.StreamableClientTransport{Endpoint: rep.URL, HTTPClient: httpClient, MaxRetries: -1}, nil)
				if !timer.Stop() && err == nil {
					err = fmt.Errorf("no initialize result within %v", opts.CallTimeout)
					_ = cs.Close()
				}
				if err != nil {
					cancel()
					if ctx.Err() == nil {
						errs.add("connect: " + err.Error())
					}
					return
				}
				sessions[i], connectCancels[i] = cs, cancel
			})
		}
		wg.Wait()
	}
	rep.ConnectSec = time.Since(connectStart).Seconds()

	// The load: every connected client calls run until the duration ends
	// (calls in flight then finish and count) or ctx is cancelled (calls in
	// flight are abandoned and do not count).
	var latencies [][]time.Duration
	var runs atomic.Int64
	start := time.Now()
	if ctx.Err() == nil {
		latencies = make([][]time.Duration, len(sessions))
		window, cancel := context.WithTimeout(ctx, opts.Duration)
		var wg sync.WaitGroup
		for i, cs := range sessions {
			if cs == nil {
				continue
			}
			rep.Sessions++
			wg.Go(func() {
				args := map[string]any{"command": opts.Command}
				// calls sends runs until the window closes, a call times
				// out, or ctx is cancelled. Its calls share one context,
				// which must outlive each call: go-sdk drains the rest of
				// a response in the background with the call's context,
				// and cancelling that context as soon as CallTool returns
				// (as a per-call WithTimeout does) races the drain and
				// closes the connection instead of reusing it. So a timer
				// cancels the shared context only when a call takes too
				// long, and the next calls get a new one.
				calls := func() {
					callCtx, cancelCalls := context.WithCancel(ctx)
					defer cancelCalls()
					for window.Err() == nil {
						var timedOut atomic.Bool
						timer := time.AfterFunc(opts.CallTimeout, func() { timedOut.Store(true); cancelCalls() })
						t0 := time.Now()
						res, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: mcpserver.ToolName, Arguments: args})
						d := time.Since(t0)
						timer.Stop()
						if ctx.Err() != nil {
							return // interrupted: this call does not count
						}
						latencies[i] = append(latencies[i], d)
						runs.Add(1)
						switch {
						case timedOut.Load():
							errs.add(fmt.Sprintf("no result within %v", opts.CallTimeout))
							return
						case err != nil:
							errs.add(err.Error())
						case res.IsError:
							errs.add("isError: " + resultText(res))
						}
					}
				}
				for window.Err() == nil {
					calls()
				}
			})
		}
		wg.Wait()
		cancel()
	}
	elapsed := time.Since(start)

	// Close every session (a DELETE ends it on the server), then the idle
	// connections, so that the server has nothing left of the clients.
	{
		var wg sync.WaitGroup
		for i, cs := range sessions {
			if cs != nil {
				wg.Go(func() { _ = cs.Close(); connectCancels[i]() })
			}
		}
		wg.Wait()
	}
	transport.CloseIdleConnections()

	if gs != nil {
		stopSampling()
		settle := time.Now()
		gs.After = runtime.NumGoroutine()
		for gs.After > gs.Before && time.Since(settle) < opts.SettleTimeout {
			time.Sleep(50 * time.Millisecond)
			transport.CloseIdleConnections()
			gs.After = runtime.NumGoroutine()
		}
		gs.SettleMS = float64(time.Since(settle).Microseconds()) / 1000
		gs.Peak = max(int(peak.Load()), gs.After)
		rep.Goroutines = gs
	}
	if srv != nil {
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = srv.Shutdown(shutdown)
		cancel()
		<-served
	}

	rep.Interrupted = ctx.Err() != nil
	rep.Runs = runs.Load()
	rep.Dials = dials.Load()
	rep.ElapsedSec = elapsed.Seconds()
	rep.Errors, rep.ErrorKinds = errs.summary()
	if elapsed > 0 && rep.Sessions > 0 {
		ok := rep.Runs - errs.runErrors()
		rep.RunsPerSec = float64(ok) / elapsed.Seconds()
	}
	all := slices.Concat(latencies...)
	rep.LatencyMS = latencySummary(all)
	return rep, nil
}

// resultText is the text of a tool result, for error reports.
func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// errorTally counts errors and keeps the first few distinct messages.
type errorTally struct {
	mu       sync.Mutex
	total    int64
	connects int64
	kinds    []errorCount
}

func newErrorTally() *errorTally { return &errorTally{} }

func (t *errorTally) add(msg string) {
	const maxLen = 300
	if len(msg) > maxLen {
		msg = msg[:maxLen] + "…"
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total++
	if strings.HasPrefix(msg, "connect: ") {
		t.connects++
	}
	for i := range t.kinds {
		if t.kinds[i].Message == msg {
			t.kinds[i].Count++
			return
		}
	}
	if len(t.kinds) < maxErrorKinds {
		t.kinds = append(t.kinds, errorCount{Message: msg, Count: 1})
	}
}

func (t *errorTally) summary() (int64, []errorCount) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total, slices.Clone(t.kinds)
}

// runErrors are the errors of calls, not of connecting.
func (t *errorTally) runErrors() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total - t.connects
}

// latencySummary gives nearest-rank percentiles in milliseconds.
func latencySummary(d []time.Duration) latencyReport {
	if len(d) == 0 {
		return latencyReport{}
	}
	slices.Sort(d)
	ms := func(x time.Duration) float64 { return math.Round(float64(x.Microseconds())) / 1000 }
	at := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(d)))) - 1
		return ms(d[min(max(i, 0), len(d)-1)])
	}
	var sum time.Duration
	for _, x := range d {
		sum += x
	}
	return latencyReport{P50: at(0.50), P90: at(0.90), P99: at(0.99), Max: ms(d[len(d)-1]), Mean: ms(sum / time.Duration(len(d)))}
}

func (r *loadReport) writeText(w io.Writer) {
	mode := "stateful"
	if r.Stateless {
		mode = "stateless"
	}
	where := "in-process"
	if !r.InProcess {
		where = "external"
	}
	fmt.Fprintf(w, "server:      %s (%s, %s)\n", r.URL, where, mode)
	fmt.Fprintf(w, "command:     %s\n", r.Command)
	fmt.Fprintf(w, "clients:     %d, %d sessions connected in %.2fs\n", r.Clients, r.Sessions, r.ConnectSec)
	fmt.Fprintf(w, "connections: %d TCP connections opened\n", r.Dials)
	fmt.Fprintf(w, "runs:        %d in %.2fs\n", r.Runs, r.ElapsedSec)
	fmt.Fprintf(w, "throughput:  %.1f runs/s\n", r.RunsPerSec)
	l := r.LatencyMS
	fmt.Fprintf(w, "latency:     p50 %s  p90 %s  p99 %s  max %s  (mean %s)\n",
		fmtMS(l.P50), fmtMS(l.P90), fmtMS(l.P99), fmtMS(l.Max), fmtMS(l.Mean))
	fmt.Fprintf(w, "errors:      %d\n", r.Errors)
	for _, k := range r.ErrorKinds {
		fmt.Fprintf(w, "  %d× %s\n", k.Count, strings.ReplaceAll(k.Message, "\n", "\n     "))
	}
	if g := r.Goroutines; g != nil {
		fmt.Fprintf(w, "goroutines:  before %d, peak %d, after %d (settled in %s)\n", g.Before, g.Peak, g.After, fmtMS(g.SettleMS))
	} else {
		fmt.Fprintln(w, "goroutines:  n/a (the server is not in this process)")
	}
	if r.Interrupted {
		fmt.Fprintln(w, "interrupted: the report covers the runs before the interrupt")
	}
}

// fmtMS prints milliseconds as a duration: 0.412 → 412µs, 12.5 → 12.5ms.
func fmtMS(ms float64) string {
	return time.Duration(ms * float64(time.Millisecond)).Round(time.Microsecond).String()
}

// replayable marks every request replayable (an Idempotency-Key header),
// so that net/http resends a POST on a kept-alive connection that the
// server had closed before reading it — the keep-alive race every HTTP
// client meets under load, which Go retries only for replayable requests.
// A resent call can only run twice if the server read it and then broke
// the connection; the bench's programs are harmless if it does.
type replayable struct {
	base  http.RoundTripper
	token string // sent as a bearer token when set
}

func (t replayable) RoundTrip(req *http.Request) (*http.Response, error) {
	post := req.Method == http.MethodPost && req.Header.Get("Idempotency-Key") == ""
	if post || t.token != "" {
		req = req.Clone(req.Context())
	}
	if post {
		req.Header.Set("Idempotency-Key", rand.Text())
	}
	if t.token != "" {
		req.Header.Set("Authorization", "Bearer "+t.token)
	}
	return t.base.RoundTrip(req)
}
