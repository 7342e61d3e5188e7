// Package runner is onetool's single pipeline from a command to a result
// (SPEC §2): strip fences and prefixes, parse and run the Starlark code with
// the pack globals, capture and format the result. The MCP server, the
// command line, the REPL and Go programs all call Runner.Exec, so a program
// behaves the same wherever it is sent.
//
// A Runner is built once: the pack globals are made and frozen in New and
// shared by every run. It is safe for concurrent use.
package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/interp/pyrt"
	"github.com/onetool-dev/onetool/interp/python"
	"github.com/onetool-dev/onetool/interp/stdlib"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/builtin/db"
	"github.com/onetool-dev/onetool/packs/builtin/demo"
	"github.com/onetool-dev/onetool/packs/builtin/file"
	"github.com/onetool-dev/onetool/packs/builtin/ot"
	"github.com/onetool-dev/onetool/packs/builtin/web"
	"github.com/onetool-dev/onetool/packs/mcpclient"
	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/proxy"
	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/isolate"
	"github.com/onetool-dev/onetool/runner/precheck"
	"github.com/onetool-dev/onetool/runner/redaction"
	"github.com/onetool-dev/onetool/runner/results"
	"github.com/onetool-dev/onetool/runner/shapes"
	"github.com/onetool-dev/onetool/runner/store"
	"github.com/onetool-dev/onetool/snippets"
)

// Version is onetool's version, shown by `onetool version` and ot.version().
const Version = "0.1.0"

// Runner executes commands against a registry of packs.
type Runner struct {
	reg      *packs.Registry
	cfg      *config.Config
	limits   Limits
	log      *slog.Logger
	audit    *auth.Audit         // serve.auth.audit_log; nil: none
	globals  starlark.StringDict // frozen; built once in New
	modules  []ot.Module         // the Python modules' help, for ot.help and the instructions
	hint     string              // "Available packs: demo, ot"
	progs    *progCache
	snippets *snippets.Set
	aliases  map[string]string // alias → tool id
	roots    *roots.Roots
	// protected are added to onetool's own files (WithProtected).
	protected []roots.Own
	rootDirs  []string    // WithRoots: in place of the working directory
	rootsSpec *roots.Spec // a worker's: the server's roots as they are

	resolvers   []Resolver
	selector    BackendSelector
	validateIn  bool
	validateOut bool
	cache       *resultCache
	goHandlers  map[string]packs.Handler
	metrics     *metrics
	watchdog    *interp.Watchdog
	executor    *interp.Executor                                                // the goroutines programs run on
	isolation   *Isolation                                                      // set by WithIsolation or isolation: process
	pool        *isolate.Pool                                                   // worker processes; nil in-process
	remote      func(context.Context, *packs.Tool, map[string]any) (any, error) // a worker's tool calls go to its server
	db          *db.Pack                                                        // its connection pools, closed with the runner
	sinks       []StatsSink
	statsFile   *statsFile
	results     *results.Store
	shared      store.Store // where results, cache and counters live; nil: in this process
	ownsShared  bool        // opened from the configuration: closed with the runner
	counters    store.Store // rate counters (SPEC §7.4)
	maxInline   int         // characters; results longer are stored (SPEC §7.3); <= 0: never
	started     time.Time
	servers     *mcpclient.Manager // nil without upstream servers
	tracer      trace.Tracer       // nil: no spans (WithTracerProvider)
	shadowed    []string           // servers hidden by a local pack of the same name

	shapes *shapes.Learner // learned result shapes of tools that declare none (package shapes)

	// pyEnv is os.environ for programs (security.environ, secrets
	// dropped); a worker's comes from its server.
	pyEnv map[string]string
	// locals are every run's thread-locals: the pyops.Host of Python's
	// own I/O modules. Built once in New.
	locals map[string]any
	// extraGlobals are predeclared names added by tests (withGlobals).
	extraGlobals starlark.StringDict
}

// Option configures a Runner.
type Option func(*Runner)

// WithRegistry runs against reg instead of the built-in packs. The caller
// decides what reg holds; the `ot` pack is added when reg lacks one.
func WithRegistry(reg *packs.Registry) Option { return func(r *Runner) { r.reg = reg } }

// WithLimits sets the budgets of every run.
func WithLimits(l Limits) Option { return func(r *Runner) { r.limits = l } }

// WithLogger sets where the runner logs (default: discard).
func WithLogger(l *slog.Logger) Option { return func(r *Runner) { r.log = l } }

// New builds a Runner. Without WithRegistry it serves the built-in packs
// that the configuration (default: none) leaves enabled.
func New(opts ...Option) (*Runner, error) {
	r := &Runner{
		limits:      DefaultLimits(),
		progs:       newProgCache(256),
		selector:    DefaultSelector,
		validateIn:  true,
		validateOut: true,
		cache:       newResultCache(1024, 16<<20),
		metrics:     newMetrics(),
		watchdog:    interp.NewWatchdog(),
		executor:    interp.NewExecutor(time.Minute),
		results:     results.NewMemory(results.Options{}),
		maxInline:   -1, // from the configuration unless WithMaxInline
		started:     time.Now(),
	}
	for _, o := range opts {
		o(r)
	}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	ensureStack(r.limits.MaxMemory)
	if r.cfg == nil {
		r.cfg = config.Default()
	}
	if s := r.cfg.Secrets; s != nil {
		r.log = slog.New(s.LogHandler(r.log.Handler()))
	}
	if r.pyEnv == nil {
		r.pyEnv = environ(r.cfg)
	}
	r.locals = map[string]any{pyops.LocalKey: pyHost{r}}
	if r.maxInline < 0 {
		r.maxInline = config.DefaultMaxInline
		if n := r.cfg.Output.MaxInline; n != nil {
			r.maxInline = *n
		}
	}
	if path := r.cfg.Output.StatsFile; path != "" {
		sf, err := openStatsFile(path, r.log)
		if err != nil {
			return nil, err
		}
		r.statsFile = sf
		r.sinks = append(r.sinks, sf)
	}
	if err := r.openStore(); err != nil {
		return nil, err
	}
	if !r.cfg.PackEnabled("ot") {
		return nil, fmt.Errorf("%w: packs.ot cannot be disabled: it is how agents discover every other tool", ErrConfig)
	}
	builtins := r.reg == nil
	if builtins {
		r.reg = packs.NewRegistry()
		if r.cfg.PackEnabled("demo") {
			if err := demo.Register(r.reg); err != nil {
				return nil, fmt.Errorf("registering the demo pack: %w", err)
			}
		}
	}
	// Problems of the configuration are collected, so that one
	// `config check` shows them all.
	var problems configErrors
	var err error
	if r.snippets, err = compileSnippets(r.cfg); err != nil {
		problems.addAll(err)
	}
	// Toolpacks are read before the roots are chosen: the files their
	// commands run are onetool's own (toolpackFiles).
	tpTools, tpErr := r.readToolpacks()
	if r.roots, err = r.fileRoots(toolpackFiles(tpTools)...); err != nil {
		return nil, err
	}
	if builtins && r.cfg.PackEnabled("file") {
		if o, err := fileOptions(r.cfg, r.roots); err != nil {
			problems.addAll(packProblems(r.cfg, "file", err))
		} else if err := file.Register(r.reg, o); err != nil {
			return nil, fmt.Errorf("registering the file pack: %w", err)
		}
	}
	if builtins && r.cfg.PackEnabled("web") {
		if o, err := webOptions(r.cfg); err != nil {
			problems.addAll(packProblems(r.cfg, "web", err))
		} else if err := web.Register(r.reg, o); err != nil {
			problems.addAll(packProblems(r.cfg, "web", err))
		}
	}
	if builtins && r.cfg.PackEnabled("db") {
		if o, err := dbOptions(r.cfg, r.roots); err != nil {
			problems.addAll(packProblems(r.cfg, "db", err))
		} else if r.db, err = db.Register(r.reg, o); err != nil {
			problems.addAll(packProblems(r.cfg, "db", err))
		}
	}
	if tpErr != nil {
		problems.addAll(tpErr)
	} else if err := r.reg.Register(tpTools...); err != nil {
		problems.addAll(fmt.Errorf("%w: %w", ErrConfig, err))
	}
	problems.addAll(unknownPacks(r.cfg, r.reg))
	if problems.err() == nil {
		r.startServers()
	}
	// The ot pack shows aliases resolved to tool ids; they resolve only
	// once every pack (ot included) is registered, so ot gets the map now
	// and buildGlobals fills it.
	r.aliases = map[string]string{}
	r.modules = moduleHelp()
	if _, ok := r.reg.Pack("ot"); !ok {
		info := ot.Info{
			Version:  Version,
			Aliases:  r.aliases,
			Snippets: snippetCatalog{r.snippets},
			Config:   func() string { return string(r.cfg.Effective()) },
			Stats:    r.stats,
			Servers:  r.serverStatus,
			Wait:     r.waitServers,
			Result:   r.readResult, // reads r.results, which openStore has chosen
			Health:   r.health,
			Modules:  r.modules,
			Visible:  visibleTools,
			// Stub lines show what results have looked like for tools
			// that declare no type (runner/shapes).
			Shape: r.LearnedResult,
		}
		if err := ot.Register(r.reg, info); err != nil {
			return nil, fmt.Errorf("registering the ot pack: %w", err)
		}
	}
	if err := r.buildGlobals(); err != nil {
		problems.addAll(err)
	}
	if err := problems.err(); err != nil {
		r.Close()
		return nil, err
	}
	if r.isolation == nil && r.cfg.Isolation == "process" {
		r.isolation = &Isolation{}
	}
	if r.isolation != nil {
		if r.pool, err = r.startPool(*r.isolation); err != nil {
			r.Close()
			return nil, err
		}
	}
	return r, nil
}

// ensureStack raises the process's limit on a goroutine's Go stack, if
// need be, to what a run's memory budget needs. go.starlark.net hashes a
// tuple, and formats a value in an error message, by recursing through
// it: each level costs about 85 bytes of stack while a program pays at
// least 48 bytes of heap for it. A run that holds at most maxMemory bytes
// therefore needs at most twice that in stack, and a Go stack overflow
// is fatal to the whole process (SPEC §8.1: no input may crash it). The
// limit is a bound, not an allocation: stacks grow only as used.
func ensureStack(maxMemory int64) {
	need := max(1<<30, 2*maxMemory+256<<20)
	if need > math.MaxInt/2 {
		need = math.MaxInt / 2
	}
	if prev := debug.SetMaxStack(int(need)); prev > int(need) {
		debug.SetMaxStack(prev) // never lower a limit set elsewhere
	}
}

// Registry returns the registry the runner calls into.
func (r *Runner) Registry() *packs.Registry { return r.reg }

// Globals returns the names every program sees — packs, aliases, proj,
// combinators, builtins and modules — frozen: for completion and listing,
// not to be modified.
func (r *Runner) Globals() starlark.StringDict { return r.globals }

// Limits returns the budgets of every run.
func (r *Runner) Limits() Limits { return r.limits }

// buildGlobals makes the frozen globals shared by all runs: one value per
// pack, the standard library, proj, and the aliases — bound to the same
// tool values as their targets, so they are values, not text rewrites.
// Packs win over library names.
func (r *Runner) buildGlobals() error {
	g := stdlib.Globals(32) // sized once, not grown entry by entry
	g["proj"] = proxy.NewProjects(r.cfg.Projects)
	for k, v := range r.extraGlobals {
		g[k] = v
	}
	for k, v := range r.combinators() {
		g[k] = v
	}
	packValues := proxy.Globals(r.reg, r)
	var names []string
	for k, v := range packValues {
		g[k] = v
		names = append(names, k)
	}
	for k, v := range r.serverGlobals() {
		if _, taken := g[k]; !taken {
			g[k] = v
			names = append(names, k)
		}
	}
	// A built-in pack turned off is still a name, which says so.
	for _, k := range builtinPacks() {
		if _, taken := g[k]; !taken && !r.cfg.PackEnabled(k) {
			g[k] = proxy.NewDisabled(k, r.cfg.Where("packs."+k))
		}
	}
	slices.Sort(names)
	aliases, err := resolveAliases(r.cfg, r.reg, g)
	if err != nil {
		return err
	}
	for name, id := range aliases {
		r.aliases[name] = id
		t, _ := r.reg.Tool(id)
		tool, err := packValues[t.Pack].(*proxy.Pack).Attr(t.Name)
		if err != nil {
			return fmt.Errorf("%w: alias '%s': %w", ErrConfig, name, err)
		}
		g[name] = tool
	}
	g.Freeze()
	r.globals = g
	r.hint = "Available packs: " + strings.Join(names, ", ")
	return nil
}

// stats is what ot.stats() shows.
func (r *Runner) stats() any {
	c := r.cache.stats()
	cache := ordered.NewMap(4)
	cache.Set("hits", c.Hits)
	cache.Set("misses", c.Misses)
	cache.Set("entries", c.Entries)
	cache.Set("bytes", c.Bytes)
	m := ordered.NewMap(3)
	m.Set("cache", cache)
	m.Set("runs", r.metrics.runSnapshot())
	m.Set("tools", r.metrics.snapshot())
	return m
}

// Roots returns the directories file access is confined to, unless a
// run has its own (RunRoots).
func (r *Runner) Roots() *roots.Roots { return r.roots }

// Databases names the databases programs may open (packs.db.databases),
// sorted; none when the db pack is off or has none.
func (r *Runner) Databases() []string {
	if r.db == nil {
		return nil
	}
	return r.db.Names()
}

// Config returns the configuration the runner was built from.
func (r *Runner) Config() *config.Config { return r.cfg }

// ExecResult is the outcome of one run of a program.
type ExecResult struct {
	// Text is what the user sees: the text of SPEC §2.3 on success, or a
	// message starting with "Error: ".
	Text string
	// Value is the captured value as Go data (see interp.ToGo); nil when
	// there was none or it has no Go form.
	Value any
	// HasValue reports whether the code produced a value (None counts).
	HasValue bool
	// Exited is set when the code ended with exit(), sys.exit(0) or raise
	// SystemExit, from anywhere (a REPL leaves). Runs in a worker process
	// leave it unset.
	Exited bool
	// Printed is the text the code printed.
	Printed string
	// Stderr is what the code wrote to its standard error (sys.stderr,
	// logging), kept apart only with SeparateStderr; else it is in Printed
	// and Text, in the order written.
	Stderr string
	// Err is nil on success. It is an *interp.Error for failures of the
	// code, or a fence error; errors.Is reaches causes such as
	// interp.ErrTimeout, context.Canceled or a tool's own error.
	Err error
	// ToolCalls counts the tool calls the run made.
	ToolCalls int
	// Handle is set when the text was longer than output.max_inline: Text
	// is then a preview, and ot.result(handle=Handle) pages through the
	// whole (SPEC §7.3). Value still holds the whole value.
	Handle string
	// Duration is the wall-clock time of the run.
	Duration time.Duration
}

// IsError reports whether the run failed.
func (res *ExecResult) IsError() bool { return res.Err != nil }

// ErrorKind names how the run failed, as statistics and the audit log
// do: an interp.ErrorKind (syntax, undefined, runtime, limit, cancelled,
// internal), "worker", or "input" (a fence or snippet the runner could not
// read); "" when it did not fail.
func (res *ExecResult) ErrorKind() string {
	if res.Err == nil {
		return ""
	}
	return errorKind(res.Err)
}

// Exec runs one command through the whole pipeline. It never panics and
// never returns without a Text.
func (r *Runner) Exec(ctx context.Context, command string, opts ...ExecOption) *ExecResult {
	return r.exec(ctx, command, nil, opts)
}

// exec is Exec, in the globals of sess when it is not nil.
func (r *Runner) exec(ctx context.Context, command string, sess *interp.Session, opts []ExecOption) (res *ExecResult) {
	start := time.Now()
	st := &runState{limits: r.limits}
	for _, o := range opts {
		o(st)
	}
	if st.limits.MaxParallel > 0 {
		st.parallel = make(chan struct{}, st.limits.MaxParallel)
	}
	// The run's roots reach its tools (and, under isolation, its tool
	// calls made from the worker) through its context; a context that
	// already carries some (the MCP server's, for a session) is a way to
	// give them too.
	if st.roots == nil {
		st.roots = roots.FromContext(ctx, nil)
	}
	ctx = roots.NewContext(ctx, st.roots)
	// What the run's operations of Python's own APIs keep (held
	// connections, scratch files) is given back when it ends; under
	// isolation its tool calls are made here, with this context.
	scope := packs.NewScope()
	ctx = packs.WithScope(ctx, scope)
	if st.limits.MaxMemory > r.limits.MaxMemory {
		ensureStack(st.limits.MaxMemory) // a run allowed more than the runner's budget
	}
	res = &ExecResult{}
	var endSpan func(*ExecResult)
	if r.tracer != nil {
		ctx, endSpan = r.startRun(ctx, st, sess != nil)
	}
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("run panicked", "panic", p)
			res.Err = fmt.Errorf("internal error: %v", p)
			res.Text = "Error: " + res.Err.Error()
		}
		if err := scope.Close(); err != nil {
			r.log.Warn("closing what the run kept", "err", err)
		}
		res.ToolCalls = int(st.calls.Load())
		res.Duration = time.Since(start)
		if secrets := r.cfg.Secrets; secrets != nil {
			redactResult(ctx, secrets, res, start.Add(st.limits.Timeout), st.limits.Timeout)
		}
		r.keepResult(context.WithoutCancel(ctx), res, st.principal.Key()) // a finished run's result is kept even as its caller goes
		r.recordRun(start, command, st, res)
		r.recordAudit(start, st, res)
		if endSpan != nil {
			endSpan(res)
		}
	}()
	if secrets := r.cfg.Secrets; secrets != nil {
		redactListeners(secrets, st)
	}

	if st.needsIsolation() && (r.pool == nil || sess != nil) {
		return fail(res, fmt.Errorf("%w: policy '%s' runs programs only in worker processes, and this run cannot have one (set isolation: process at the top level, and serve.session_state: false)", ErrNeedsIsolation, st.principal.Policy.Name))
	}
	if r.pool != nil && sess == nil {
		r.execIsolated(withRunState(ctx, st), st, command, res)
		return res
	}
	code, err := r.prepare(command)
	if err != nil {
		return fail(res, err)
	}
	iopts := interp.Options{
		Predeclared: r.globals,
		MaxSteps:    st.limits.MaxSteps,
		Timeout:     st.limits.Timeout,
		MaxOutput:   st.limits.MaxOutput,
		MaxMemory:   st.limits.MaxMemory,
		Watchdog:    r.watchdog,

		MaxIntDigits:   st.limits.MaxIntDigits,
		SeparateStderr: st.separateStderr,
		Parse:          python.Parse,
		ParseWithCells: python.ParseWithCells,
		Explain:        pyrt.Explain,
		Executor:       r.executor,
		SessionKept:    st.sessionKept,
		Locals:         r.locals,
	}
	if st.argv != nil {
		iopts.Predeclared = stdlib.WithArgv(r.globals, st.argv, st.origArgv)
	}
	if secrets := r.cfg.Secrets; secrets != nil {
		// Before any format escapes it (SPEC §8.3).
		iopts.Redact = func(v starlark.Value) starlark.Value { return redaction.Starlark(secrets, v) }
	}
	var out *interp.Result
	if sess != nil {
		out, err = sess.Run(withRunState(ctx, st), code, iopts)
	} else {
		var prog *interp.Program
		if prog, err = r.compile(code); err != nil {
			return fail(res, err)
		}
		out, err = prog.Run(withRunState(ctx, st), iopts)
	}
	if err != nil {
		return fail(res, st.rephrase(err))
	}
	res.Printed = out.Printed
	res.Stderr = out.Stderr
	res.HasValue = out.Value != nil
	res.Value = out.GoValue
	res.Text = out.Text
	res.Exited = out.Exited
	return res
}

// compile returns the compiled program for code, from the cache when the
// same code ran before.
func (r *Runner) compile(code string) (*interp.Program, error) {
	if p := r.progs.get(code); p != nil {
		return p, nil
	}
	// Its tool calls are checked before it runs (runner/precheck): a
	// program that would fail at a bad call after others took effect
	// never starts.
	p, err := interp.CompileChecked(code, python.Parse, r.globals, r.hint, func(f *syntax.File) error {
		return precheck.Check(f, r.globals)
	})
	if err != nil {
		return nil, err
	}
	r.progs.put(code, p)
	return p, nil
}

func fail(res *ExecResult, err error) *ExecResult {
	res.Err = err
	res.Text = "Error: " + err.Error()
	// What the program printed before it failed comes first, as Python
	// shows a program's output before its traceback.
	var ie *interp.Error
	if errors.As(err, &ie) {
		res.Stderr = ie.Stderr
	}
	if ie != nil && ie.Printed != "" {
		res.Printed = ie.Printed
		res.Text = ie.Printed + "\n" + res.Text
	}
	return res
}

// health is what ot.health() shows.
func (r *Runner) health() any {
	status := "ok"
	servers := r.serverStatus().([]any)
	for _, s := range servers {
		if st, _ := s.(*ordered.Map).Get("state"); st == "failed" || st == "exited" {
			status = "degraded"
		}
	}
	r.metrics.mu.Lock()
	runs := r.metrics.runs.runs
	r.metrics.mu.Unlock()
	m := ordered.NewMap(5)
	m.Set("status", status)
	m.Set("version", Version)
	m.Set("uptime_s", int64(time.Since(r.started).Seconds()))
	m.Set("runs", runs)
	m.Set("servers", servers)
	return m
}

// moduleHelp is the Python modules' help for the ot pack.
func moduleHelp() []ot.Module {
	docs := stdlib.Docs()
	mods := make([]ot.Module, len(docs))
	for i, d := range docs {
		mods[i] = ot.Module{Name: d.Name, Summary: d.Summary, Constants: d.Constants}
		for _, e := range d.Entries {
			mods[i].Entries = append(mods[i].Entries, ot.ModuleEntry{Names: e.Names, Line: e.Line})
		}
	}
	return mods
}
