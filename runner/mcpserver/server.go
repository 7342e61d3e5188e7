// Package mcpserver serves a runner.Runner over the Model Context Protocol
// (SPEC §7.1): one tool, run, whose command is a Python program (SPEC §2.7); server
// instructions generated from the registry; resources describing every
// tool; progress per tool call; cancellation that reaches the program.
//
// The same *mcp.Server serves stdio (Server.Run with a transport) and
// streamable HTTP (see HTTPHandler).
package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/catalog"
	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/ratelimit"
	"github.com/onetool-dev/onetool/runner/telemetry"
)

// Options configures the server.
type Options struct {
	// Structured adds structuredContent {"result": value} to successful
	// results, for clients that read structured output.
	Structured bool
	// Logger receives server logs (default: discard). In stdio mode it must
	// not write to stdout.
	Logger *slog.Logger
	// ProtocolLogger, if set, receives go-sdk's own logs of sessions and
	// messages (useful at debug level only).
	ProtocolLogger *slog.Logger
	// SessionState keeps the globals of programs across the run calls of
	// one MCP session (serve.session_state, SPEC §8.4): each session has
	// its own, freed when the session ends. Stateless HTTP has no sessions
	// to keep them in.
	SessionState bool
	// ConfirmTimeout bounds how long a run waits for the client's answer
	// to a confirmation sent as inputRequests (protocol 2026-07-28, with
	// security.confirm_destructive); the call is then refused. Default 5m.
	ConfirmTimeout time.Duration
	// Drain, when set, refuses new runs once draining has started and
	// cancels the runs in flight on Drain.CancelRuns (graceful shutdown).
	// Over HTTP give HTTPOptions.Drain the same Drain.
	Drain *Drain
	// RateLimit, when set, bounds the runs of each principal
	// (serve.rate_limit), decided on each tools/call the SDK dispatches,
	// batched or not: a run over a bound is refused (over HTTP with 429
	// Too Many Requests and Retry-After; see admit.go). Without serve.auth
	// every client counts as one. A run's slot of
	// serve.rate_limit.concurrent is given back when its handler returns.
	RateLimit *ratelimit.Limiter
	// SessionMemory bounds the variables all the sessions of one
	// principal keep together, with SessionState (serve.session_memory);
	// SessionMemoryTotal bounds those of all sessions
	// (serve.session_memory_total). 0 means the runner's configuration,
	// else config.DefaultSessionMemory and DefaultSessionMemoryTotal; a
	// negative value means no bound.
	SessionMemory, SessionMemoryTotal int64
}

// ToolName is the name of the one tool.
const ToolName = "run"

// inputSchema is the run tool's input: one required string.
var inputSchema = json.RawMessage(`{"type":"object","properties":{"command":{"type":"string","description":"Python code to run; may be wrapped in a Markdown fence"}},"required":["command"],"additionalProperties":false}`)

// New returns an MCP server with the run tool and the tool resources.
func New(r *runner.Runner, opts Options) *mcp.Server {
	s, _ := newServer(r, opts)
	return s
}

// newServer is New, also returning the handler for tests to look into.
func newServer(r *runner.Runner, opts Options) (*mcp.Server, *handler) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cr := newClientRoots(r, log) // roots.go
	s := mcp.NewServer(&mcp.Implementation{Name: "onetool", Version: runner.Version}, &mcp.ServerOptions{
		Instructions:            Instructions(r),
		Logger:                  opts.ProtocolLogger,
		InitializedHandler:      cr.initialized,
		RootsListChangedHandler: cr.listChanged,
	})
	if opts.ConfirmTimeout <= 0 {
		opts.ConfirmTimeout = 5 * time.Minute
	}
	h := &handler{r: r, opts: opts, log: log, roots: cr, parked: map[string]*confirmingRun{}, sessions: map[*mcp.ServerSession]*runner.Session{}}
	h.state = newStateBudget(stateBound(opts.SessionMemory, r.Config().Serve.SessionMemory, config.DefaultSessionMemory),
		stateBound(opts.SessionMemoryTotal, r.Config().Serve.SessionMemoryTotal, config.DefaultSessionMemoryTotal))
	s.AddTool(runTool(ToolDescription(r), mayDestroy(r)), h.run)
	addResources(s, r.Registry())
	s.AddReceivingMiddleware(instructionsPerPrincipal(r))
	// Outermost of the server's own: a refused request costs nothing.
	s.AddReceivingMiddleware(h.admit)
	return s, h
}

// stateBound is a bound of the state budget: the option, else the
// configured one, else the default; 0 for none.
func stateBound(opt int64, configured *config.ByteSize, def config.ByteSize) uint64 {
	switch {
	case opt < 0:
		return 0
	case opt > 0:
		return uint64(opt)
	case configured != nil:
		return uint64(*configured)
	}
	return uint64(def)
}

// mayDestroy reports whether a program may call a tool that deletes or
// overwrites: a registered tool annotated destructive, or any upstream
// server (MCP tools are destructive unless they say otherwise).
func mayDestroy(r *runner.Runner) bool {
	for _, s := range r.Config().Servers {
		if s.IsEnabled() {
			return true
		}
	}
	for _, t := range r.Registry().Tools() {
		if t.Annotations.Destructive {
			return true
		}
	}
	return false
}

// runTool is the definition of the one tool. Its hints are those of the
// most dangerous tool a program can reach, so that a client deciding what
// to approve is not told that run is harmless when it can delete files.
func runTool(description string, destructive bool) *mcp.Tool {
	return &mcp.Tool{
		Name:        ToolName,
		Description: description,
		InputSchema: inputSchema,
		Annotations: &mcp.ToolAnnotations{
			Title:           "Run a Python program",
			ReadOnlyHint:    false,
			DestructiveHint: new(destructive),
			OpenWorldHint:   new(true),
		},
	}
}

type handler struct {
	r     *runner.Runner
	opts  Options
	log   *slog.Logger
	roots *clientRoots // the MCP client's roots (roots.go)

	mu       sync.Mutex
	parked   map[string]*confirmingRun // runs waiting for a client's input, by request state
	sessions map[*mcp.ServerSession]*runner.Session
	state    *stateBudget // what the sessions' globals keep, per principal and in all
}

// execer runs a program: the runner, or the MCP session's own session
// when session state is on.
type execer interface {
	Exec(ctx context.Context, command string, opts ...runner.ExecOption) *runner.ExecResult
}

// execFor returns what runs the programs of ss, a session of pr (an MCP
// session over HTTP has one principal: go-sdk refuses its id to others).
// What a session's globals keep counts for pr in h.state.
func (h *handler) execFor(ss *mcp.ServerSession, pr *auth.Principal) execer {
	if !h.opts.SessionState || ss == nil {
		return h.r
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	s, ok := h.sessions[ss]
	if !ok {
		name := ""
		if pr != nil {
			name = pr.Name
		}
		sh := h.state.share(pr.Key(), name)
		s = h.r.NewSession(runner.KeptCheck(sh.check))
		h.sessions[ss] = s
		go func() { // free the globals with the session
			ss.Wait()
			h.mu.Lock()
			delete(h.sessions, ss)
			h.mu.Unlock()
			s.Close() // its suspended generators and tasks end with it
			sh.release()
		}()
	}
	return s
}

// liveSessions counts the sessions holding state.
func (h *handler) liveSessions() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.sessions)
}

// run is the handler of the run tool. A failed program is a tool result
// with isError, never a protocol error: the model must see the message.
func (h *handler) run(ctx context.Context, req *mcp.CallToolRequest) (result *mcp.CallToolResult, err error) {
	defer func() {
		// go-sdk does not recover panics; one bad run must not end the server.
		if p := recover(); p != nil {
			h.log.Error("run handler panicked", "panic", p)
			result, err = errorResult(fmt.Sprintf("Error: internal error: %v", p)), nil
		}
	}()
	var args struct {
		Command *string `json:"command"`
	}
	if len(req.Params.Arguments) > 0 {
		if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
			return errorResult("Error: the arguments of run must be an object with a string field \"command\""), nil
		}
	}
	if args.Command == nil {
		return errorResult("Error: missing argument \"command\": send the Python code to run, e.g. {\"command\": \"ot.help()\"}"), nil
	}
	if h.r.Tracing() {
		ctx = incomingTrace(ctx, req)
	}
	if d := h.opts.Drain; d != nil {
		dctx, done, ok := d.run(ctx, exchangeFrom(ctx) != nil)
		if !ok {
			return errorResult(drainingText), nil
		}
		defer done()
		ctx = dctx
	}

	if req.Params.RequestState != "" {
		return h.resume(ctx, req), nil
	}
	ctx, ask := h.roots.attach(ctx, req)
	if ask != nil {
		return ask, nil // the client's roots first
	}
	if h.r.Config().Security.ConfirmDestructive {
		return h.runConfirming(ctx, req, *args.Command), nil
	}
	return h.finish(h.execFor(req.Session, principalOf(req)).Exec(ctx, *args.Command, runOptions(ctx, req)...)), nil
}

// incomingTrace makes the caller's W3C trace context, from the request's
// _meta or else its HTTP headers, the parent of the run's span.
func incomingTrace(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	var h http.Header
	if req.Extra != nil {
		h = req.Extra.Header
	}
	return telemetry.Incoming(ctx, req.Params.Meta, h)
}

// runOptions are the options of the run a request asks for: on behalf of
// the principal its bearer token stands for (serve.auth), and with the
// run's tool calls, plan steps and upstream progress as notifications
// when the request has a progress token.
func runOptions(ctx context.Context, req *mcp.CallToolRequest) []runner.ExecOption {
	var opts []runner.ExecOption
	if req.Extra != nil {
		if p := auth.PrincipalOf(req.Extra.TokenInfo); p != nil {
			opts = append(opts, runner.AsPrincipal(p))
		}
	}
	return append(opts, progressOptions(ctx, req)...)
}

// progressOptions reports the run's tool calls, plan steps and upstream
// progress as notifications when the request has a progress token.
func progressOptions(ctx context.Context, req *mcp.CallToolRequest) []runner.ExecOption {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return nil
	}
	// One notification per finished tool call, plus those an upstream
	// server sends during a call; progress must only grow, so every
	// notification of the run takes the next number.
	session := req.Session
	var mu sync.Mutex
	var sent float64
	notify := func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		sent++
		_ = session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: sent, Message: msg})
	}
	return []runner.ExecOption{
		runner.OnToolCall(func(c runner.ToolCall) {
			msg := c.ToolID
			if c.Err != nil {
				msg += " failed"
			}
			notify(msg)
		}),
		runner.OnPlanStep(func(p runner.PlanStep) {
			notify(fmt.Sprintf("plan step %s (%s) %s, %d of %d", p.ID, p.Tool, p.Status, p.Step, p.Total))
		}),
		runner.OnUpstreamProgress(func(p runner.UpstreamProgress) {
			msg := p.ToolID
			if p.Message != "" {
				msg += ": " + p.Message
			}
			notify(msg)
		}),
	}
}

// finish turns a run's result into the tool result.
func (h *handler) finish(res *runner.ExecResult) *mcp.CallToolResult {
	h.log.Debug("run", "duration", res.Duration, "tool_calls", res.ToolCalls, "error", res.IsError())
	if res.IsError() {
		return errorResult(res.Text)
	}
	out := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Text}}}
	if h.opts.Structured {
		out.StructuredContent = map[string]any{"result": structuredValue(res)}
	}
	return out
}

func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: true}
}

// structuredValue is the run's value as JSON-ready data; a run without a
// value reports its text.
func structuredValue(res *runner.ExecResult) any {
	if !res.HasValue || res.Handle != "" { // a stored result stays stored
		return res.Text
	}
	return res.Value
}

// Instructions are the server instructions: one line per pack (the
// first sentence of its description) and, when there are at most
// catalog.MaxTools tools in all, each pack's tools as stub lines, so that
// an agent calls them without a discovery round trip; then the Python
// modules in one line, how to discover tools, and the little of Python
// that is not there. Every conversation pays for them, so they stay short.
func Instructions(r *runner.Runner) string { return instructions(r, nil) }

// instructions are those a principal of pol sees: only the packs and
// tools it may call (all with a nil policy).
func instructions(r *runner.Runner, pol *auth.Policy) string {
	reg := r.Registry()
	if pol != nil {
		reg = reg.Filtered(func(t *packs.Tool) bool { return pol.Check(t) == nil })
	}
	var entries []catalog.Entry
	for _, p := range r.PackSummaries() {
		if !packVisible(pol, r.Registry(), p.Name) {
			continue
		}
		e := catalog.Entry{Name: p.Name, Description: p.Description}
		e.Pack, _ = reg.Pack(p.Name)
		entries = append(entries, e)
	}
	carry := catalog.Carries(entries)
	var b strings.Builder
	b.WriteString("Packs (call as pack.function(arg=value) in run's Python):\n")
	// Stub lines show a learned shape for a tool that declares no result.
	b.WriteString(catalog.Instructions(entries, carry, catalog.Options{Result: r.LearnedResult}))
	if len(r.ModuleNames()) > 0 {
		// Named one by one they outgrew the 2,000 characters every
		// conversation pays (TestContextCostWithReferenceServers); what
		// an agent needs is what is missing, on the Not there line.
		b.WriteString("Python modules: the standard library's, and requests (ot.help() lists them).\n")
	}
	if carry {
		b.WriteString(`More: ot.help(query=…): "pack.fn" for all of one, a module, or search words.`)
	} else {
		b.WriteString(`Discover: ot.help(); ot.help(query=…): a pack, module, "pack.fn" or search words.`)
	}
	b.WriteString(`
Combine calls in one program (loops, try/except ToolError, asyncio.gather runs awaited calls at once); return what you need.
Not there: threading, subprocess, numpy, pandas.`)
	return b.String()
}

// Listing is what every conversation pays for onetool: the JSON of its
// tools/list result and its instructions.
func Listing(r *runner.Runner) (toolsList, instructions string) {
	data, _ := json.Marshal(&mcp.ListToolsResult{Tools: []*mcp.Tool{runTool(ToolDescription(r), mayDestroy(r))}})
	return string(data), Instructions(r)
}

// ListingSize is Listing in characters.
func ListingSize(r *runner.Runner) (toolsList, instructions int) {
	l, i := Listing(r)
	return len(l), len(i)
}
