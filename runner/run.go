package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/onetool-dev/onetool/packs"
)

// Result is the outcome of one tool call made through the Go API.
type Result struct {
	ToolID  string
	Backend string // the backend that ran, e.g. "go:demo.foo"
	// Value is the tool's result as plain Go data (objects are
	// *ordered.Map). It belongs to the caller: mutating it changes nothing
	// inside the runner.
	Value    any
	Cached   bool // served from the deterministic-result cache
	Duration time.Duration
}

// Resolver finds tools the registry does not hold (SPEC §4.2: the
// registry first, then resolvers in order). It returns ErrToolNotFound
// (or an error wrapping it) when it does not know the id.
type Resolver func(ctx context.Context, id string) (*packs.Tool, error)

// BackendSelector chooses the backend of a call among the tool's backends
// (never empty).
type BackendSelector func(t *packs.Tool, backends []packs.Backend) (packs.Backend, error)

// WithResolver adds a resolver consulted when the registry has no tool of
// the requested id.
func WithResolver(res Resolver) Option {
	return func(r *Runner) { r.resolvers = append(r.resolvers, res) }
}

// WithBackendSelector replaces the default selection (local, then
// provider, then mcp).
func WithBackendSelector(s BackendSelector) Option {
	return func(r *Runner) { r.selector = s }
}

// WithValidation turns validation of arguments and results on or off
// (default: both on).
func WithValidation(input, output bool) Option {
	return func(r *Runner) { r.validateIn, r.validateOut = input, output }
}

// WithCache bounds the cache of deterministic results (default 1024
// entries, 16 MiB); maxEntries 0 turns it off.
func WithCache(maxEntries int, maxBytes int64) Option {
	return func(r *Runner) { r.cache = newResultCache(maxEntries, maxBytes) }
}

// DefaultSelector prefers local backends, then providers, then upstream
// MCP servers; among equals, the first declared.
func DefaultSelector(_ *packs.Tool, backends []packs.Backend) (packs.Backend, error) {
	rank := func(k packs.BackendKind) int {
		switch k {
		case packs.BackendLocal:
			return 0
		case packs.BackendProvider:
			return 1
		case packs.BackendMCP:
			return 2
		}
		return 3
	}
	best := backends[0]
	for _, b := range backends[1:] {
		if rank(b.Kind) < rank(best.Kind) {
			best = b
		}
	}
	return best, nil
}

// Progress is a coarse progress report: the step of a chain, or a tool
// call starting and finishing.
type Progress struct {
	ToolID  string
	Step    int // 1-based
	Total   int
	Message string

	stepID, stepStatus string // plan steps
}

// CallOption configures one Run, RunStream or RunChain.
type CallOption func(*callConfig)

type callConfig struct {
	progress func(Progress)
}

// WithProgress calls f with progress reports of the call.
func WithProgress(f func(Progress)) CallOption {
	return func(c *callConfig) { c.progress = f }
}

func callOptions(opts []CallOption) callConfig {
	var c callConfig
	for _, o := range opts {
		o(&c)
	}
	return c
}

func (c callConfig) report(p Progress) {
	if c.progress != nil {
		c.progress(p)
	}
}

// Run calls the tool id ("pack.name" or "pack:name") with args: it
// resolves the tool, binds and validates the arguments, selects a backend,
// serves deterministic tools from the cache, executes, and validates the
// result. args is never modified. Run is safe for concurrent use.
func (r *Runner) Run(ctx context.Context, id string, args map[string]any, opts ...CallOption) (_ *Result, err error) {
	if r.tracer != nil {
		var end func(error)
		ctx, end = r.startTool(ctx, id)
		defer func() { end(err) }()
	}
	cfg := callOptions(opts)
	t, bound, err := r.prepareCall(ctx, id, args)
	if err != nil {
		return nil, err
	}
	cfg.report(Progress{ToolID: t.ID(), Step: 1, Total: 1, Message: "calling " + t.ID()})
	res, err := r.call(ctx, t, bound)
	if err == nil {
		cfg.report(Progress{ToolID: t.ID(), Step: 1, Total: 1, Message: "done"})
	}
	return res, err
}

// prepareCall resolves id and binds args (names, synonyms, prefixes,
// defaults) into a new map.
func (r *Runner) prepareCall(ctx context.Context, id string, args map[string]any) (*packs.Tool, map[string]any, error) {
	t, err := r.resolve(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	bound, err := t.BindMap(args)
	if err != nil {
		return nil, nil, toolError(t.ID(), "", OpValidateInput, ErrValidation, err)
	}
	return t, bound, nil
}

// resolve finds the tool of id: the registry first, then the resolvers.
func (r *Runner) resolve(ctx context.Context, id string) (*packs.Tool, error) {
	if t, ok := r.reg.Tool(id); ok {
		return t, nil
	}
	if _, _, err := packs.ParseID(id); err != nil {
		return nil, toolError(id, "", OpResolve, ErrInvalidToolID, err)
	}
	for _, res := range r.resolvers {
		t, err := res(ctx, id)
		if errors.Is(err, ErrToolNotFound) {
			continue
		}
		if err != nil {
			return nil, toolError(id, "", OpResolve, ErrToolNotFound, err)
		}
		if t == nil {
			continue
		}
		if err := t.Compile(); err != nil {
			return nil, toolError(id, "", OpResolve, ErrToolNotFound, err)
		}
		return t, nil
	}
	return nil, toolError(id, "", OpResolve, ErrToolNotFound, fmt.Errorf("no tool %q", id))
}

// call is the one path every tool call takes, from Go or from a program:
// validate input, select a backend, consult the cache, execute, validate
// the result. args must be bound and are not modified.
func (r *Runner) call(ctx context.Context, t *packs.Tool, args map[string]any) (res *Result, err error) {
	start := time.Now()
	id := t.ID()
	defer func() { r.recordCall(ctx, id, start, args, res, err) }()
	if err := ctx.Err(); err != nil {
		return nil, toolError(id, "", OpExecute, ErrExecution, err)
	}
	if r.validateIn {
		if err := t.ValidateInput(args); err != nil {
			return nil, toolError(id, "", OpValidateInput, ErrValidation, err)
		}
	}
	b, err := r.selectBackend(t)
	if err != nil {
		return nil, err
	}
	key := ""
	if t.Deterministic && t.Variant == "" && r.cache.maxEntries > 0 { // a variant's key would be its tool's
		if key = cacheKey(t, args); key != "" {
			if v, ok := r.cache.get(ctx, key); ok {
				return &Result{ToolID: id, Backend: b.Name, Value: v, Cached: true, Duration: time.Since(start)}, nil
			}
		}
	}
	v, err := packs.InvokeBackend(ctx, t, b, args)
	if err != nil {
		return nil, toolError(id, b.Name, OpExecute, ErrExecution, err)
	}
	if r.validateOut {
		if err := t.ValidateOutput(v); err != nil {
			return nil, toolError(id, b.Name, OpValidateOutput, ErrOutputValidation, err)
		}
	}
	if key != "" {
		r.cache.put(ctx, key, v) // the cache keeps its own copy (or JSON): the caller keeps v
	}
	return &Result{ToolID: id, Backend: b.Name, Value: v, Duration: time.Since(start)}, nil
}

func (r *Runner) selectBackend(t *packs.Tool) (packs.Backend, error) {
	backends := t.BackendList()
	if len(backends) == 0 {
		return packs.Backend{}, toolError(t.ID(), "", OpSelectBackend, ErrNoBackends, errors.New("the tool has no backend"))
	}
	b, err := r.selector(t, backends)
	if err != nil {
		return packs.Backend{}, toolError(t.ID(), "", OpSelectBackend, ErrNoBackends, err)
	}
	return b, nil
}

// CacheStats reports the counters of the deterministic-result cache.
func (r *Runner) CacheStats() CacheStats { return r.cache.stats() }
