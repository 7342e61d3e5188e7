package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/mcpserver"
	"github.com/onetool-dev/onetool/runner/promstats"
)

func newServeCmd(g *globalFlags) *cobra.Command {
	var (
		httpAddr   string
		stateless  bool
		structured bool
		logLevel   string
	)
	cmd := &cobra.Command{
		Use:   "serve [--http ADDR] [--stateless]",
		Short: "Serve the run tool over MCP (stdio, or streamable HTTP)",
		Long: `Serve onetool as an MCP server with one tool, run.

By default the server speaks MCP over standard input and output, which is
how MCP clients start local servers. With --http it serves streamable HTTP
at http://ADDR/mcp, with /healthz and /metrics beside it; a bare port binds
127.0.0.1. An HTTP session ends after serve.session_idle without a request
(default 30m), and at most serve.max_sessions (default 1000) live at once.
With serve.auth, every /mcp request needs a bearer token of
serve.auth.tokens, and runs follow the token's policy; stdio is not
authenticated. Logs go to standard error.`,
		Example: `  onetool serve
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
			if cfg.Serve.SessionState && cfg.Isolation == "process" {
				// A session's globals must outlive each run, and a worker
				// serves many sessions' runs: not isolated, not supported.
				return &exitError{code: exitRun, msg: "invalid configuration:\n" + cfg.Problem("serve.session_state",
					"cannot be combined with isolation: process (a session's globals live in one process between runs); turn one of them off").Error()}
			}
			ropts := []runner.Option{runner.WithLogger(log)}
			if a := cfg.Serve.Auth; a != nil && a.AuditLog != "" && useHTTP {
				audit, f, err := auth.OpenAudit(a.AuditLog)
				if err != nil {
					return &exitError{code: exitRun, msg: err.Error()}
				}
				defer f.Close()
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
			opts := mcpserver.Options{Structured: structured, Logger: log, SessionState: cfg.Serve.SessionState}
			if level <= slog.LevelDebug {
				opts.ProtocolLogger = log
			}
			server := mcpserver.New(r, opts)
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if useHTTP {
				hopts := httpOptions(sc, stateless)
				hopts.Metrics = metrics.Handler()
				if hopts.Auth, err = auth.New(cfg); err != nil {
					return &exitError{code: exitRun, msg: "invalid configuration: " + err.Error()}
				}
				return serveHTTP(ctx, server, httpAddr, hopts, log, cmd)
			}
			return serveStdio(ctx, server, log)
		},
	}
	cmd.Flags().StringVar(&httpAddr, "http", "", "serve streamable HTTP on `ADDR` (e.g. 127.0.0.1:8080) instead of stdio")
	cmd.Flags().BoolVar(&stateless, "stateless", false, "with --http: the stateless mode of MCP 2026-07-28 (no sessions)")
	cmd.Flags().BoolVar(&structured, "structured", false, `add structuredContent {"result": value} to results`)
	cmd.Flags().StringVar(&logLevel, "log-level", "info", "log level on stderr: debug, info, warn, error")
	return cmd
}

// httpOptions are the options of the HTTP server from the serve: section
// (SPEC §8.4: sessions end when idle, and are capped in number).
func httpOptions(sc config.Serve, stateless bool) mcpserver.HTTPOptions {
	hopts := mcpserver.HTTPOptions{Stateless: stateless, SessionIdle: config.DefaultSessionIdle, MaxSessions: config.DefaultMaxSessions}
	if sc.SessionIdle != nil {
		hopts.SessionIdle = time.Duration(*sc.SessionIdle)
	}
	if sc.MaxSessions != nil {
		hopts.MaxSessions = *sc.MaxSessions
	}
	return hopts
}

// serveStdio serves MCP on stdin/stdout. Only the protocol may reach
// stdout: the process's stdout (and file descriptor 1) is pointed at
// stderr for everything else, so a stray print in a library cannot corrupt
// the stream.
func serveStdio(ctx context.Context, server *mcp.Server, log *slog.Logger) error {
	protocol, err := reserveStdout()
	if err != nil {
		return &exitError{code: exitRun, msg: err.Error()}
	}
	log.Info("onetool serving MCP on stdio", "version", runner.Version)
	err = server.Run(ctx, &mcp.IOTransport{Reader: os.Stdin, Writer: protocol})
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, mcp.ErrConnectionClosed) {
		return &exitError{code: exitRun, msg: err.Error()}
	}
	return nil
}

func serveHTTP(ctx context.Context, server *mcp.Server, addr string, hopts mcpserver.HTTPOptions, log *slog.Logger, cmd *cobra.Command) error {
	addr, err := mcpserver.ListenAddr(addr)
	if err != nil {
		return usageErrorf("%v", err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return &exitError{code: exitRun, msg: fmt.Sprintf("cannot listen on %s: %v", addr, err)}
	}
	srv := &http.Server{
		Handler:           mcpserver.HTTPHandler(server, hopts),
		ReadHeaderTimeout: 10 * time.Second,
	}
	log.Info("onetool serving MCP over HTTP", "url", "http://"+ln.Addr().String()+"/mcp", "stateless", hopts.Stateless,
		"session_idle", hopts.SessionIdle, "max_sessions", hopts.MaxSessions, "auth", hopts.Auth != nil, "version", runner.Version)
	fmt.Fprintf(cmd.ErrOrStderr(), "onetool: listening on http://%s/mcp\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return &exitError{code: exitRun, msg: err.Error()}
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
		return nil
	}
}
