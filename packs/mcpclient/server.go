package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/trace"
)

// State is where a server is in its life cycle (see the package doc).
type State string

const (
	// StateIdle: not started yet; Manager.Start or the first use connects it.
	StateIdle State = "idle"
	// StateConnecting: a connection attempt is under way.
	StateConnecting State = "connecting"
	// StateConnected: the session is up and the tool list known.
	StateConnected State = "connected"
	// StateFailed: the last attempt failed; the next call after the
	// backoff tries again.
	StateFailed State = "failed"
	// StateExited: the process died (or the HTTP session was lost) after
	// connecting; the next call restarts it.
	StateExited State = "exited"
	// StateClosed: Manager.Close was called; the server is gone for good.
	StateClosed State = "closed"
)

// Status is a snapshot of a server, for `ot.servers()`.
type Status struct {
	Name      string
	Transport string // "stdio" or "http"
	State     State
	Tools     int    // tools known now
	LastError string // the last failure or exit, kept after a reconnect
	Restarts  int    // connection attempts after the first successful one
	Attempts  int    // connection attempts, all told
	PID       int    // the running process, stdio only; 0 when none
}

// Tool is a tool of an upstream server, from tools/list.
type Tool struct {
	Name        string
	Title       string
	Description string
	// InputSchema and OutputSchema are the JSON Schemas as the server
	// wrote them (compacted), so that the order of properties — the order
	// of positional arguments — is kept. OutputSchema is nil when the tool
	// declares none; InputSchema is at least {"type":"object"}.
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	// Annotations, with the MCP defaults when the server gives none: not
	// read-only, destructive, open world.
	ReadOnly, Destructive, OpenWorld, Idempotent bool
}

// defaultTimeout applies when Spec.Timeout is 0.
const defaultTimeout = 30 * time.Second

// Backoff between connection attempts of a server that keeps failing:
// 100 ms after the first failure, doubling up to 10 s. A server that
// exits is restarted at once the first time, then with the same backoff
// while it keeps dying before a call succeeds.
const (
	backoffMin = 100 * time.Millisecond
	backoffMax = 10 * time.Second
)

// backoff is the wait before the next attempt after n consecutive
// failures: 0 for n ≤ 0.
func backoff(n int) time.Duration {
	if n <= 0 {
		return 0
	}
	d := backoffMin
	for i := 1; i < n && d < backoffMax; i++ {
		d *= 2
	}
	return min(d, backoffMax)
}

// Server is one upstream MCP server. Its methods are safe for concurrent
// use.
type Server struct {
	spec       Spec
	urlShown   *strings.Replacer // spec.URL, as messages may quote it, → spec.ShownURL; nil when nothing is hidden
	log        *slog.Logger
	onChange   func(string)
	client     *mcp.Client
	httpClient *http.Client // HTTP servers only
	tracer     trace.Tracer // nil: no spans
	progress   progressRoutes

	// life is cancelled by close: every request derives from it, so that
	// closing never waits for a call in flight.
	life context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup // background goroutines: attempts, watchers, refreshes

	mu            sync.Mutex
	state         State
	conn          *conn         // the live session when connected
	ready         chan struct{} // closed when the current attempt ends
	tools         []Tool
	lastErr       string
	strikes       int       // failures and exits since the last successful call
	retryAt       time.Time // no new attempt before this
	attempts      int
	restarts      int
	everConnected bool
	refreshing    bool // a tools/list refresh is running
	refreshAgain  bool // … and another was asked for meanwhile
}

func newServer(spec Spec, opts Options, log *slog.Logger) *Server {
	if spec.Timeout <= 0 {
		spec.Timeout = defaultTimeout
	}
	s := &Server{spec: spec, log: log, onChange: opts.OnChange, state: StateIdle, tracer: opts.Tracer, urlShown: urlReplacer(spec)}
	s.life, s.stop = context.WithCancel(context.Background())
	s.client = mcp.NewClient(&mcp.Implementation{Name: "onetool", Version: version()}, &mcp.ClientOptions{
		Logger: log,
		// Explicit and empty: the go-sdk's default advertises roots, and
		// some servers then ignore stdin EOF and have to be killed.
		Capabilities: &mcp.ClientCapabilities{},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			if p := req.Params; p != nil {
				s.progress.deliver(p.ProgressToken, p.Progress, p.Total, p.Message)
			}
		},
		ToolListChangedHandler: func(_ context.Context, req *mcp.ToolListChangedRequest) {
			s.toolsChanged(req.Session)
		},
	})
	if spec.URL != "" {
		base := http.DefaultTransport.(*http.Transport).Clone()
		// One idle connection is held by the server's event stream; the
		// default of two would make parallel calls (plan, parallel, map)
		// open and close sockets on every call.
		base.MaxIdleConnsPerHost = 32
		s.httpClient = &http.Client{Transport: &captureTransport{base: base, headers: spec.Headers}}
	}
	return s
}

// Name is the server's `servers:` key.
func (s *Server) Name() string { return s.spec.Name }

// Spec is the server's configuration, Timeout filled in.
func (s *Server) Spec() Spec { return s.spec }

// Status is a snapshot of the server's state.
func (s *Server) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{
		Name:      s.spec.Name,
		Transport: transportName(s.spec),
		State:     s.state,
		Tools:     len(s.tools),
		LastError: s.lastErr,
		Restarts:  s.restarts,
		Attempts:  s.attempts,
	}
	if s.conn != nil {
		st.PID = s.conn.pid()
	}
	return st
}

// ToolsNow returns the tools known right now without waiting: nil before
// the first successful connection; the last known list while a server
// that exited waits for its restart. The slice is shared: do not modify it.
func (s *Server) ToolsNow() []Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tools
}

// Tools returns the server's tools, waiting up to the server's Timeout
// while it connects. A server that exited answers with its last known
// list without being restarted; one that failed answers with an error
// wrapping ErrNotConnected (after a new attempt, once the backoff has
// passed). The slice is shared: do not modify it.
func (s *Server) Tools(ctx context.Context) (_ []Tool, err error) {
	defer func() { err = s.shownErr(err) }()
	s.mu.Lock()
	if s.state == StateExited && s.tools != nil {
		tools := s.tools
		s.mu.Unlock()
		return tools, nil
	}
	s.mu.Unlock()
	if _, err := s.acquire(ctx); err != nil {
		return nil, err
	}
	return s.ToolsNow(), nil
}

// Call calls a tool and returns its result as plain Go data (see
// CallResult for the conversion). tool may be any spelling MatchTool
// accepts. The call waits up to the server's Timeout for a connection,
// then runs with ctx — cancelling ctx cancels the call upstream
// (notifications/cancelled) — bounded by the server's Timeout unless ctx
// has an earlier deadline. Upstream progress goes to the callback of
// WithProgress, if ctx has one.
//
// Errors wrap ErrNotConnected (no connection), ErrExited (the server died
// during the call; the next call restarts it), ErrToolFailed (the tool
// reported a failure: the error's text is the tool's), ErrUnknownTool or
// ErrAmbiguous (name resolution), context.Canceled or
// context.DeadlineExceeded.
func (s *Server) Call(ctx context.Context, tool string, args map[string]any) (any, error) {
	r, err := s.CallResult(ctx, tool, args)
	return r.Value, err
}

// CallResult is Call returning the binary data of image, audio and blob
// parts as well (Result.Blobs), which Call's placeholders only describe.
//
// Conversion (SPEC §4.5): structuredContent when present, objects as
// *ordered.Map in the server's key order; else a single text part as the
// JSON value it holds (or the text when it is not JSON); several parts as
// a list of converted parts; image and audio parts as {"type": "image",
// "mime": …, "bytes": N}; embedded resources as {"type": "resource",
// "uri": …, "mime": …, "text": … or "bytes": N}; resource links as
// {"type": "resource_link", "uri": …, "name": …}.
func (s *Server) CallResult(ctx context.Context, tool string, args map[string]any) (res Result, err error) {
	defer func() { err = s.shownErr(err) }()
	if s.tracer != nil {
		var end func(error)
		ctx, end = s.startSpan(ctx, tool)
		defer func() { end(err) }()
	}
	c, err := s.acquire(ctx)
	if err != nil {
		return Result{}, err
	}
	name, err := s.resolve(tool)
	if err != nil {
		return Result{}, err
	}

	parent := ctx
	ctx, cancel := s.callContext(ctx)
	defer cancel()
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	if s.tracer != nil {
		injectMeta(ctx, params)
	}
	if f := progressFrom(parent); f != nil {
		token, unregister := s.progress.register(f)
		defer unregister()
		params.SetProgressToken(token)
	}
	cp := &capture{}
	ctx = withCapture(ctx, cp)
	if c.stdio != nil {
		defer c.stdio.forget(cp)
	}

	out, err := c.cs.CallTool(ctx, params)
	if err != nil {
		return Result{}, s.callError(parent, ctx, c, name, err)
	}
	s.mu.Lock()
	s.strikes = 0 // a full round trip: the server works
	s.mu.Unlock()
	return convertResult(out, cp.last())
}

// callContext derives a call's context: cancelled when the server is
// closed, and bounded by the server's Timeout unless the caller's
// deadline is earlier.
func (s *Server) callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	cancelTimeout := context.CancelFunc(func() {})
	if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > s.spec.Timeout {
		ctx, cancelTimeout = context.WithTimeout(ctx, s.spec.Timeout)
	}
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.life, cancel)
	return ctx, func() {
		stop()
		cancel()
		cancelTimeout()
	}
}

// callError explains a failed tools/call.
func (s *Server) callError(parent, ctx context.Context, c *conn, tool string, err error) error {
	name := s.spec.Name
	switch {
	case s.life.Err() != nil:
		return s.notConnected(fmt.Sprintf("it was closed during the call to '%s'", tool))
	case parent.Err() != nil:
		return fmt.Errorf("server '%s': call to '%s' stopped: %w", name, tool, context.Cause(parent))
	case ctx.Err() != nil:
		return fmt.Errorf("server '%s': call to '%s' timed out after %s: %w", name, tool, s.spec.Timeout, ctx.Err())
	}
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		return fmt.Errorf("server '%s' refused the call to '%s': %w", name, tool, err)
	}
	// Anything else is the connection failing. When the process died, its
	// session ends right after the call was retired: wait a moment for
	// that, to say why.
	select {
	case <-c.done:
	case <-time.After(250 * time.Millisecond):
	}
	if c.ended() {
		s.connLost(c)
		if ps := c.processState(); ps != nil {
			msg := fmt.Sprintf("server '%s' exited during the call to '%s' (%s)", name, tool, ps)
			return newError(ErrExited, nil, withStderr(msg, c.stderr))
		}
		return newError(ErrExited, c.endErr, fmt.Sprintf("server '%s': %s during the call to '%s'", name, c.endReason(), tool))
	}
	return fmt.Errorf("server '%s': call to '%s' failed: %w", name, tool, err)
}

// resolve maps the caller's spelling of a tool name to the server's, when
// the tool list is known; otherwise the name goes to the server as is.
func (s *Server) resolve(tool string) (string, error) {
	s.mu.Lock()
	tools := s.tools
	s.mu.Unlock()
	if tools == nil {
		return tool, nil
	}
	t, err := MatchTool(tools, tool, s.spec.ToolPrefix)
	if err != nil {
		return "", fmt.Errorf("server '%s': %w", s.spec.Name, err)
	}
	return t.Name, nil
}

// notConnected is the error of a server without a connection.
func (s *Server) notConnected(reason string) error {
	return newError(ErrNotConnected, nil, fmt.Sprintf("server '%s' is not connected: %s", s.spec.Name, reason))
}

// acquire returns the live connection, starting an attempt when the
// server is idle, or failed or exited with its backoff over, and waiting
// up to Timeout for an attempt under way. It never starts a second
// attempt after waiting for one.
func (s *Server) acquire(ctx context.Context) (*conn, error) {
	var timer *time.Timer
	waited := false
	for {
		s.mu.Lock()
		switch s.state {
		case StateConnected:
			c := s.conn
			s.mu.Unlock()
			if !c.ended() {
				return c, nil
			}
			s.connLost(c) // died a moment ago; the watcher has not said so yet
			continue
		case StateClosed:
			s.mu.Unlock()
			return nil, s.notConnected("the server was closed")
		case StateIdle:
			s.startLocked()
		case StateFailed, StateExited:
			wait := time.Until(s.retryAt)
			if waited || wait > 0 {
				reason := s.lastErr
				if wait > 0 {
					reason += fmt.Sprintf(" (next attempt in %s)", wait.Round(time.Millisecond))
				}
				s.mu.Unlock()
				return nil, s.notConnected(reason)
			}
			s.startLocked()
		}
		ready := s.ready
		s.mu.Unlock()

		if timer == nil {
			timer = time.NewTimer(s.spec.Timeout)
			defer timer.Stop()
		}
		select {
		case <-ready:
			waited = true
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for server '%s' to connect: %w", s.spec.Name, context.Cause(ctx))
		case <-timer.C:
			return nil, s.notConnected(fmt.Sprintf("still connecting after %s", s.spec.Timeout))
		}
	}
}

// start begins connecting an idle server.
func (s *Server) start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == StateIdle {
		s.startLocked()
	}
}

// startLocked begins a connection attempt in the background. s.mu is held
// and the state is not closed.
func (s *Server) startLocked() {
	s.attempts++
	if s.everConnected {
		s.restarts++
	}
	s.state = StateConnecting
	ready := make(chan struct{})
	s.ready = ready
	s.wg.Add(1)
	go s.attempt(ready)
}

// attempt runs one connection attempt and records its outcome.
func (s *Server) attempt(ready chan struct{}) {
	defer s.wg.Done()
	defer close(ready)
	ctx, cancel := context.WithTimeout(s.life, s.spec.Timeout)
	defer cancel()
	start := time.Now()
	c, tools, err := s.dial(ctx)

	s.mu.Lock()
	if s.state == StateClosed {
		s.mu.Unlock()
		if c != nil {
			_ = c.close()
		}
		return
	}
	if err != nil {
		s.state = StateFailed
		s.lastErr = s.shown(err.Error())
		s.strikes++
		s.retryAt = time.Now().Add(backoff(s.strikes))
		s.mu.Unlock()
		s.log.Warn("upstream MCP server failed to connect", "target", describeSpec(s.spec), "error", s.lastErr)
		return
	}
	s.state = StateConnected
	s.conn = c
	s.tools = tools
	s.everConnected = true
	s.wg.Add(1)
	go s.watch(c)
	s.mu.Unlock()
	s.log.Info("upstream MCP server connected", "target", describeSpec(s.spec), "tools", len(tools), "pid", c.pid(),
		"elapsed", time.Since(start).Round(time.Millisecond))
	s.changed()
}

// watch waits for the session to end and records the loss.
func (s *Server) watch(c *conn) {
	defer s.wg.Done()
	<-c.done
	s.connLost(c)
}

// connLost records that c's session ended, if c is still the server's
// connection: the state becomes exited, the next call restarts the server.
func (s *Server) connLost(c *conn) {
	reason := s.shown(c.endReason())
	s.mu.Lock()
	if s.conn != c {
		s.mu.Unlock()
		return
	}
	s.conn = nil
	s.state = StateExited
	s.lastErr = reason
	s.strikes++
	s.retryAt = time.Now().Add(backoff(s.strikes - 1))
	s.mu.Unlock()
	s.log.Warn("upstream MCP server exited", "reason", reason)
}

// toolsChanged handles notifications/tools/list_changed: it refreshes
// the tool list in the background (one refresh at a time, one more if
// notifications arrived meanwhile) and then reports the change.
func (s *Server) toolsChanged(session *mcp.ClientSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.conn
	if c == nil || c.cs != session || s.state != StateConnected {
		return
	}
	if s.refreshing {
		s.refreshAgain = true
		return
	}
	s.refreshing = true
	s.wg.Add(1)
	go s.refresh(c)
}

func (s *Server) refresh(c *conn) {
	defer s.wg.Done()
	for {
		ctx, cancel := context.WithTimeout(s.life, s.spec.Timeout)
		tools, err := s.listTools(ctx, c)
		cancel()
		s.mu.Lock()
		current := s.conn == c
		if err == nil && current {
			s.tools = tools
		}
		again := s.refreshAgain && current
		s.refreshAgain = false
		s.refreshing = again
		s.mu.Unlock()
		if err != nil {
			s.log.Warn("refreshing the tool list failed", "error", err)
		} else if current {
			s.changed()
		}
		if !again {
			return
		}
	}
}

// changed calls Options.OnChange.
func (s *Server) changed() {
	if s.onChange != nil {
		s.onChange(s.spec.Name)
	}
}

// close ends the server for good: calls in flight are cancelled, the
// session closed (the process ended), background work waited for.
func (s *Server) close() error {
	s.mu.Lock()
	if s.state == StateClosed {
		s.mu.Unlock()
		return nil
	}
	s.state = StateClosed
	c := s.conn
	s.conn = nil
	s.mu.Unlock()

	s.stop()
	var err error
	if c != nil {
		if err = c.close(); err != nil {
			err = fmt.Errorf("closing server '%s': %w", s.spec.Name, err)
		}
	}
	s.wg.Wait()
	if s.httpClient != nil {
		s.httpClient.CloseIdleConnections()
	}
	return err
}

// urlReplacer replaces spec.URL with spec.ShownURL in the forms messages
// quote it: as configured, as net/url writes it (escaped), and as
// net/http's errors write it (the password as ***).
func urlReplacer(spec Spec) *strings.Replacer {
	if spec.URL == "" || spec.ShownURL == "" || spec.ShownURL == spec.URL {
		return nil
	}
	forms := []string{spec.URL}
	if u, err := url.Parse(spec.URL); err == nil {
		forms = append(forms, u.String(), u.Redacted())
		if _, ok := u.User.Password(); ok {
			forms = append(forms, strings.Replace(u.String(), u.User.String()+"@", u.User.Username()+":***@", 1))
		}
	}
	var pairs []string
	for _, f := range forms {
		if f != "" && !slices.Contains(pairs, f) {
			pairs = append(pairs, f, spec.ShownURL)
		}
	}
	return strings.NewReplacer(pairs...)
}

// shown is msg with the server's URL as it may be shown.
func (s *Server) shown(msg string) string {
	if s.urlShown == nil {
		return msg
	}
	return s.urlShown.Replace(msg)
}

// shownErr is err reading as shown does, still matching what err matches.
func (s *Server) shownErr(err error) error {
	if err == nil || s.urlShown == nil {
		return err
	}
	if msg := s.shown(err.Error()); msg != err.Error() {
		return &shownError{msg: msg, err: err}
	}
	return err
}

// shownError reads as msg and unwraps to err.
type shownError struct {
	msg string
	err error
}

func (e *shownError) Error() string { return e.msg }
func (e *shownError) Unwrap() error { return e.err }
