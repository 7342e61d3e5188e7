package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/isolate"
	"github.com/onetool-dev/onetool/runner/mcpserver"
	"github.com/onetool-dev/onetool/runner/promstats"
	"github.com/onetool-dev/onetool/runner/ratelimit"
)

func newServeCmd(g *globalFlags) *cobra.Command {
	var (
		httpAddr   string
		stateless  bool
		structured bool
		logLevel   string
		rootDirs   rootFlags
	)
	cmd := &cobra.Command{
		Use:   "serve [--root DIR]... [--http ADDR] [--stateless]",
		Short: "Serve the run tool over MCP (stdio, or streamable HTTP)",
		Long: `Serve onetool as an MCP server with one tool, run.

By default the server speaks MCP over standard input and output, which is
how MCP clients start local servers. With --http it serves streamable HTTP
at http://ADDR/mcp, with /healthz and /metrics beside it; a bare port binds
127.0.0.1. An HTTP session ends after serve.session_idle without a request
(default 30m), and at most serve.max_sessions (default 1000) live at once.
With serve.auth, every /mcp request needs a bearer token of
serve.auth.tokens or, with serve.auth.oauth, an OAuth access token (JWT)
of the issuer; runs follow the token's policy; stdio is not
authenticated. When serve.auth admits more than one principal (several
tokens, or OAuth), programs run in worker processes, each under a hard
memory limit (isolation: process), unless the configuration says
isolation: none or serve.session_state keeps globals in the server.

Files: programs reach the directories of --root (repeatable), or else
the working directory, plus configured projects and packs.file.allowed_dirs.
An MCP client that offers roots replaces --root and the working directory
with its own for its session (over HTTP only within what the server
allows). / and your home directory are never roots unless named: a
desktop client starts servers in /, so give them --root.

On SIGTERM or SIGINT (and, over stdio, at the end of standard input) the
server drains: it takes no new runs (HTTP answers 503 with Retry-After, and
/healthz answers 503 "draining"), waits up to serve.drain_timeout (default
30s) for the runs in flight, cancels those left, stops the upstream servers
and exits 0; a second SIGINT or SIGTERM over HTTP stops at once, cancelling
the runs in flight. Logs go to standard error.`,
		Example: `  onetool serve
  onetool serve --root ~/projects/api --root ~/notes
  onetool serve --http 127.0.0.1:8080
  onetool serve --http 127.0.0.1:8080 --stateless`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := g.loadConfig()
			if err != nil {
				return err
			}
			// The serve: section gives defaults; flags win.
			sc := cfg.Serve
			if !cmd.Flags().Changed("log-level") && sc.LogLevel != "" {
				logLevel = sc.LogLevel
			}
			if !cmd.Flags().Changed("http") && sc.HTTP != "" {
				httpAddr = sc.HTTP
			}
			useHTTP := cmd.Flags().Changed("http") || sc.HTTP != ""
			stateless = stateless || sc.Stateless
			structured = structured || sc.StructuredContent
			var level slog.Level
			if err := level.UnmarshalText([]byte(logLevel)); err != nil {
				return usageErrorf("invalid --log-level %q: use debug, info, warn or error", logLevel)
			}
			// Logs never show a secret's value (SPEC §8.3).
			log := slog.New(cfg.Secrets.LogHandler(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: level})))
			if stateless && !useHTTP {
				return usageErrorf("--stateless applies to --http only")
			}
			if cfg.Serve.SessionState && cfg.Isolation == isolate.Process {
				// A session's globals must outlive each run, and a worker
				// serves many sessions' runs: not isolated, not supported.
				return &exitError{code: exitRun, msg: "invalid configuration:\n" + cfg.Problem("serve.session_state",
					"cannot be combined with isolation: process (a session's globals live in one process between runs); turn one of them off").Error()}
			}
			iso := chooseIsolation(cfg, useHTTP, stateless)
			switch {
			case iso.Note == "":
			case iso.Warn:
				log.Warn(iso.Note)
			default:
				log.Info(iso.Note)
			}
			traces, flush, err := startTracing(cmd)
			if err != nil {
				return err
			}
			defer flush() // after the drain and the runner's close: the last spans go too
			ropts := []runner.Option{runner.WithLogger(log), traces}
			if iso.Process && iso.Default {
				ropts = append(ropts, runner.WithIsolation(runner.Isolation{}))
			}
			rootOpts, err := rootDirs.options()
			if err != nil {
				return err
			}
			ropts = append(ropts, rootOpts...)
			if a := cfg.Serve.Auth; a != nil && a.AuditLog != "" && useHTTP {
				audit, err := auth.OpenAudit(a.AuditLog, log)
				if err != nil {
					return &exitError{code: exitRun, msg: err.Error()}
				}
				defer audit.Close()
				ropts = append(ropts, runner.WithAudit(audit))
			}
			var metrics *promstats.Collector
			if useHTTP { // /metrics beside /mcp
				metrics = promstats.New()
				ropts = append(ropts, runner.WithStatsSink(metrics))
			}
			r, err := g.newRunnerFrom(cfg, nil, ropts...)
			if err != nil {
				return err
			}
			defer r.Close()
			if !iso.Process {
				// Programs run in this process: keep its garbage near
				// what they may hold (workers have an OS limit instead).
				defer softMemoryLimit(r, servedRuns())()
			}
			opts := mcpserver.Options{Structured: structured, Logger: log, SessionState: cfg.Serve.SessionState}
			if level <= slog.LevelDebug {
				opts.ProtocolLogger = log
			}
			drain := mcpserver.NewDrain()
			opts.Drain = drain
			if useHTTP {
				opts.RateLimit = rateLimiter(sc, r, log)
			}
			server := mcpserver.New(r, opts)
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			drainTimeout := config.DefaultDrainTimeout
			if sc.DrainTimeout != nil {
				drainTimeout = time.Duration(*sc.DrainTimeout)
			}
			if useHTTP {
				hopts, err := httpOptions(cfg, stateless)
				if err != nil {
					return err
				}
				hopts.Metrics = metrics.Handler()
				defer hopts.Auth.Close()
				hopts.Drain = drain
				return serveHTTP(ctx, server, httpAddr, hopts, drainTimeout, log, cmd)
			}
			return serveStdio(ctx, server, drain, drainTimeout, log)
		},
	}
	cmd.Flags().StringVar(&httpAddr, "http", "", "serve streamable HTTP on `ADDR` (e.g. 127.0.0.1:8080) instead of stdio")
	cmd.Flags().BoolVar(&stateless, "stateless", false, "with --http: the stateless mode of MCP 2026-07-28 (no sessions)")
	cmd.Flags().BoolVar(&structured, "structured", false, `add structuredContent {"result": value} to results`)
	cmd.Flags().StringVar(&logLevel, "log-level", "info", "log level on stderr: debug, info, warn, error")
	rootDirs.register(cmd)
	return cmd
}

// httpOptions are the options of the HTTP server from the serve: section
// (SPEC §8.4: sessions end when idle, and are capped in number; §7.4:
// authentication). serve and the in-process server of bench load both use
// them.
func httpOptions(cfg *config.Config, stateless bool) (mcpserver.HTTPOptions, error) {
	sc := cfg.Serve
	hopts := mcpserver.HTTPOptions{Stateless: stateless, SessionIdle: config.DefaultSessionIdle, MaxSessions: config.DefaultMaxSessions}
	if sc.SessionIdle != nil {
		hopts.SessionIdle = time.Duration(*sc.SessionIdle)
	}
	if sc.MaxSessions != nil {
		hopts.MaxSessions = *sc.MaxSessions
	}
	if sc.ReadTimeout != nil {
		hopts.ReadTimeout = time.Duration(*sc.ReadTimeout)
	}
	if sc.IdleTimeout != nil {
		hopts.IdleTimeout = time.Duration(*sc.IdleTimeout)
	}
	if sc.MaxBody != nil {
		hopts.MaxBody = int64(*sc.MaxBody)
	}
	a, err := auth.New(cfg)
	if err != nil {
		return hopts, &exitError{code: exitRun, msg: "invalid configuration: " + err.Error()}
	}
	hopts.Auth = a
	return hopts, nil
}

// chooseIsolation decides where the server runs programs (SPEC §8.5): an
// explicit isolation setting wins; without one, an HTTP server that
// authenticates more than one principal (several static tokens, or
// OAuth, which admits every subject its issuer vouches for) uses worker
// processes, unless stateful sessions keep globals in the server.
func chooseIsolation(cfg *config.Config, useHTTP, stateless bool) isolate.Choice {
	many := false
	if a := cfg.Serve.Auth; a != nil {
		many = len(a.Tokens) > 1 || a.OAuth != nil
	}
	return isolate.Choose(isolate.Setting{
		Configured:     cfg.Isolation,
		HTTP:           useHTTP,
		ManyPrincipals: many,
		// Without sessions (stateless HTTP) no globals are kept.
		SessionState: cfg.Serve.SessionState && !stateless,
	})
}

// rateLimiter is the limiter of serve.rate_limit, counting in r's store;
// nil without one. The MCP server and its HTTP handler both need it.
func rateLimiter(sc config.Serve, r *runner.Runner, log *slog.Logger) *ratelimit.Limiter {
	rl := sc.RateLimit
	if rl == nil {
		return nil
	}
	return ratelimit.New(ratelimit.Options{RunsPerMinute: rl.RunsPerMinute, Concurrent: rl.Concurrent, Counters: r.Counters(), Log: log})
}

// serveStdio serves MCP on stdin/stdout. Only the protocol may reach
// stdout: the process's stdout (and file descriptor 1) is pointed at
// stderr for everything else, so a stray print in a library cannot corrupt
// the stream.
//
// A signal (ctx's end) or the end of stdin drains first: the runs in
// flight get up to drainTimeout to finish and answer.
func serveStdio(ctx context.Context, server *mcp.Server, drain *mcpserver.Drain, drainTimeout time.Duration, log *slog.Logger) error {
	protocol, err := reserveStdout()
	if err != nil {
		return &exitError{code: exitRun, msg: err.Error()}
	}
	log.Info("onetool serving MCP on stdio", "version", runner.Version)
	if term.IsTerminal(int(os.Stdin.Fd())) {
		// A person typed `onetool serve`: say what it is for, then go on
		// waiting, as a client may still be attached this way.
		fmt.Fprintln(os.Stderr, "onetool serve speaks MCP on stdin and stdout: MCP clients start it. To run programs yourself, use `onetool repl` or `onetool run -e CODE`; Ctrl-C to leave.")
	}
	out := &quietWriter{w: protocol}
	finish := func() {
		drain.Finish(drainTimeout, log)
		// go-sdk writes a run's answer just after the handler returns and
		// says nothing when it has: wait for the output to go quiet.
		out.waitQuiet(50*time.Millisecond, time.Second)
	}
	// go-sdk ends the session, and cancels the runs in flight, as soon as
	// ctx ends or stdin does: both wait for the drain first.
	runCtx, cancelRun := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelRun()
	stopOnSignal := context.AfterFunc(ctx, func() { finish(); cancelRun() })
	defer stopOnSignal()
	stdin := &drainAtEOF{r: os.Stdin, finish: finish}
	err = server.Run(runCtx, &mcp.IOTransport{Reader: stdin, Writer: out})
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, mcp.ErrConnectionClosed) {
		return &exitError{code: exitRun, msg: err.Error()}
	}
	return nil
}

// drainAtEOF is stdin that, at its end, drains before it reports the end.
type drainAtEOF struct {
	r      io.ReadCloser
	finish func()
}

func (d *drainAtEOF) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if errors.Is(err, io.EOF) {
		d.finish()
	}
	return n, err
}

func (d *drainAtEOF) Close() error { return d.r.Close() }

// quietWriter is the protocol output, which knows when it was last
// written to.
type quietWriter struct {
	w       io.WriteCloser
	mu      sync.Mutex
	writing int
	last    time.Time
}

func (q *quietWriter) Write(p []byte) (int, error) {
	q.mu.Lock()
	q.writing++
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		q.writing--
		q.last = time.Now()
		q.mu.Unlock()
	}()
	return q.w.Write(p)
}

func (q *quietWriter) Close() error { return q.w.Close() }

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// waitQuiet returns once nothing was written for quiet since it was
// called, or after at most.
func (q *quietWriter) waitQuiet(quiet, at time.Duration) {
	start := time.Now()
	for end := start.Add(at); time.Now().Before(end); time.Sleep(quiet / 5) {
		q.mu.Lock()
		done := q.writing == 0 && time.Since(later(q.last, start)) >= quiet
		q.mu.Unlock()
		if done {
			return
		}
	}
}

// serveHTTP serves until ctx ends (a signal), then drains: see
// mcpserver.ShutdownHTTP.
func serveHTTP(ctx context.Context, server *mcp.Server, addr string, hopts mcpserver.HTTPOptions, drainTimeout time.Duration, log *slog.Logger, cmd *cobra.Command) error {
	addr, err := mcpserver.ListenAddr(addr)
	if err != nil {
		return usageErrorf("%v", err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return &exitError{code: exitRun, msg: fmt.Sprintf("cannot listen on %s: %v", addr, err)}
	}
	srv := mcpserver.NewHTTPServer(server, hopts)
	log.Info("onetool serving MCP over HTTP", "url", "http://"+ln.Addr().String()+"/mcp", "stateless", hopts.Stateless,
		"session_idle", hopts.SessionIdle, "max_sessions", hopts.MaxSessions, "auth", hopts.Auth != nil, "version", runner.Version)
	fmt.Fprintf(cmd.ErrOrStderr(), "onetool: listening on http://%s/mcp\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return &exitError{code: exitRun, msg: err.Error()}
	case <-ctx.Done():
		// A second Ctrl-C (or SIGTERM) ends the drain at once: the runs
		// still in flight are cancelled and the port closes.
		again := make(chan os.Signal, 1)
		signal.Notify(again, os.Interrupt, syscall.SIGTERM)
		defer signal.Stop(again)
		// The drain's log lines say what it waits for, and how to stop it.
		hopts.Drain.SetStopHint("Ctrl-C again to stop now")
		done := make(chan struct{})
		go func() {
			mcpserver.ShutdownHTTP(srv, server, hopts.Drain, drainTimeout, log)
			close(done)
		}()
		select {
		case <-done:
		case <-again:
			log.Warn("onetool: second interrupt: stopping now", "runs_cancelled", hopts.Drain.Runs())
			hopts.Drain.CancelRuns()
			_ = srv.Close()
		}
		log.Info("onetool stopped")
		return nil
	}
}
