package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/isolate"
)

// Isolation configures isolation: process (SPEC §8.5): programs run in
// pre-started worker processes, each under a hard memory limit, and their
// tool calls travel back to this process over a pipe (package isolate).
// HardMemory defaults here to isolate.HardMemoryFor the largest
// limits.max_memory a run may get (the runner's or a policy's).
type Isolation = isolate.Options

// ErrWorker is the cause of a run whose worker process died or could not
// be started.
var ErrWorker = isolate.ErrWorker

// WithIsolation runs every program in worker processes (see Isolation).
func WithIsolation(iso Isolation) Option {
	return func(r *Runner) { r.isolation = &iso }
}

// workerErrors are the runner's errors that keep errors.Is working across
// the pipe, on both sides.
var workerErrors = []isolate.Sentinel{
	{Name: "not_found", Err: ErrToolNotFound},
	{Name: "no_backends", Err: ErrNoBackends},
	{Name: "execution", Err: ErrExecution},
	{Name: "stream", Err: ErrStreamNotSupported},
	{Name: "tool_call_limit", Err: ErrToolCallLimit},
	{Name: "result_memory", Err: errResultMemory},
	{Name: "not_confirmed", Err: ErrNotConfirmed},
	{Name: "not_allowed", Err: packs.ErrNotAllowed},
	{Name: "needs_isolation", Err: ErrNeedsIsolation},
	{Name: "protected", Err: roots.ErrProtected},
	{Name: "outside", Err: roots.ErrOutside},
	{Name: "no_root", Err: roots.ErrNoRoot},
	{Name: "io_op_limit", Err: ErrIOOpsLimit},
}

// workerErrorTable is workerErrors with the kinds of errors of Python's
// own I/O APIs (package pyops), which must reach the worker's modules.
func workerErrorTable() []isolate.Sentinel {
	out := slices.Clone(workerErrors)
	for _, s := range pyops.Sentinels() {
		out = append(out, isolate.Sentinel{Name: s.Name, Err: s.Err})
	}
	return out
}

// startPool starts the worker processes of isolation: process.
func (r *Runner) startPool(iso Isolation) (*isolate.Pool, error) {
	if iso.HardMemory <= 0 {
		iso.HardMemory = isolate.HardMemoryFor(r.largestBudget())
	}
	iso.Errors = append(workerErrorTable(), iso.Errors...)
	if iso.Logger == nil {
		iso.Logger = r.log
	}
	p, err := isolate.New(poolHost{r}, iso)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return p, nil
}

// largestBudget is the largest memory budget a run may get: the runner's,
// or a policy's (policy limits replace the runner's, higher or lower);
// 0 when some run has none.
func (r *Runner) largestBudget() int64 {
	b := r.limits.MaxMemory
	for _, p := range r.cfg.Policies {
		if m := p.Limits.MaxMemory; m != nil {
			if *m <= 0 {
				return 0
			}
			b = max(b, int64(*m))
		}
	}
	if r.limits.MaxMemory <= 0 {
		return 0
	}
	return b
}

// execIsolated runs a program in a worker and fills res.
func (r *Runner) execIsolated(ctx context.Context, st *runState, command string, res *ExecResult) {
	limits, err := json.Marshal(wireRun{Limits: st.limits, Roots: runSpec(st.roots), Argv: st.argv, OrigArgv: st.origArgv})
	if err != nil {
		res.Err = fmt.Errorf("%w: %w", ErrWorker, err)
		res.Text = "Error: " + res.Err.Error()
		return
	}
	run := isolate.Run{Code: command, Limits: limits, Timeout: st.limits.Timeout}
	if st.onStep != nil {
		run.OnStep = func(b json.RawMessage) {
			var step PlanStep
			if json.Unmarshal(b, &step) == nil {
				st.onStep(step)
			}
		}
	}
	out := r.pool.Exec(ctx, run)
	res.Text, res.Printed, res.HasValue, res.Err = out.Text, out.Printed, out.HasValue, out.Err
	if len(out.Value) > 0 {
		res.Value, _ = ordered.Decode(out.Value)
	}
}

// poolHost is the runner as the server of its worker pool.
type poolHost struct{ r *Runner }

func (h poolHost) Generation() uint64 { return h.r.reg.Generation() }

func (h poolHost) Setup(gen uint64) (json.RawMessage, error) {
	return json.Marshal(h.r.workerSetup(gen))
}

// Call is CallTool for a tool named by id with JSON arguments; an id
// with "@" is a variant (Tool.VariantID), whose errors get their pyops
// kind here, where the runner's sentinels are known.
func (h poolHost) Call(ctx context.Context, id string, args json.RawMessage) (any, error) {
	var t *packs.Tool
	variant := strings.Contains(id, "@")
	if variant {
		var ok bool
		if t, ok = h.r.reg.Variant(id); !ok {
			return nil, toolError(id, "", OpResolve, ErrToolNotFound, fmt.Errorf("no operation %q", id))
		}
	} else {
		var err error
		if t, err = h.r.resolve(ctx, id); err != nil {
			return nil, err
		}
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
	v, err := h.r.CallTool(ctx, t, m)
	if variant && err != nil {
		err = classify(err)
	}
	return v, err
}

// wireSetup is what a worker needs to build its runner.
type wireSetup struct {
	Generation uint64                     `json:"generation"`
	Packs      map[string]string          `json:"packs"` // name → description
	Tools      []wireTool                 `json:"tools"`
	Aliases    map[string]string          `json:"aliases,omitempty"`
	Snippets   map[string]*config.Snippet `json:"snippets,omitempty"`
	Projects   map[string]string          `json:"projects,omitempty"`
	FileDirs   []string                   `json:"file_dirs,omitempty"` // packs.file.allowed_dirs
	Own        []roots.Own                `json:"own,omitempty"`       // onetool's own files: the worker's roots refuse them too (its file I/O runs in the server)
	Roots      *roots.Spec                `json:"roots,omitempty"`     // the server's roots, as they are
	Environ    map[string]string          `json:"environ,omitempty"`   // os.environ for programs (security.environ)
}

// wireRun is what a run needs besides its code: its limits and, when the
// run has roots of its own (an MCP session's), those, for its proj paths
// (its tool calls run in the server, with the roots on their context).
type wireRun struct {
	Limits
	Roots *roots.Spec `json:"roots,omitempty"`
	// Argv and OrigArgv are the run's sys.argv (ProgramArgs).
	Argv     []string `json:"argv,omitempty"`
	OrigArgv []string `json:"orig_argv,omitempty"`
}

// runSpec is the spec of a run's own roots; nil when it has none.
func runSpec(rr *roots.Roots) *roots.Spec {
	if rr == nil {
		return nil
	}
	s := rr.Spec()
	return &s
}

// wireTool is a tool without its handler.
type wireTool struct {
	Pack, Name, Version, Description string
	Variant                          string `json:",omitempty"` // Tool.Variant: registered with RegisterVariants
	InputSchema, OutputSchema        string `json:",omitempty"`
	Returns                          string `json:",omitempty"`
	Examples                         []packs.Example
	Synonyms                         map[string][]string `json:",omitempty"`
	Deterministic                    bool
	Annotations                      packs.Annotations
	Timeout                          time.Duration `json:",omitempty"`
}

// workerSetup describes the tools and configuration for workers.
func (r *Runner) workerSetup(gen uint64) *wireSetup {
	s := &wireSetup{
		Generation: gen,
		Packs:      map[string]string{},
		Aliases:    r.cfg.Aliases,
		Snippets:   r.cfg.Snippets,
		Projects:   r.cfg.Projects,
		Environ:    r.pyEnv,
	}
	if fp := r.cfg.Packs["file"]; fp != nil {
		s.FileDirs = fp.AllowedDirs
	}
	if r.roots != nil {
		s.Own = r.roots.Own()
		s.Roots = runSpec(r.roots)
	}
	wire := func(t *packs.Tool) wireTool {
		return wireTool{
			Pack: t.Pack, Name: t.Name, Variant: t.Variant, Version: t.Version, Description: t.Description,
			InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Returns: t.Returns,
			Examples: t.Examples, Synonyms: t.Synonyms, Deterministic: t.Deterministic,
			Annotations: t.Annotations, Timeout: t.Timeout,
		}
	}
	for _, p := range r.reg.Packs() {
		s.Packs[p.Name] = p.Description
		for _, t := range p.Tools() {
			s.Tools = append(s.Tools, wire(t))
		}
	}
	for _, t := range r.reg.Variants() { // after their tools: the worker registers those first
		s.Tools = append(s.Tools, wire(t))
	}
	return s
}
