package runner

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/mcpclient"
	"github.com/onetool-dev/onetool/packs/meter"
)

// CallTool performs one tool call made by a program (it implements
// proxy.Caller): it charges the run's budget, then takes the same path as
// Run. Errors keep their sentinels but read as the cause, since the
// program knows which tool it called. Every path by which a program calls
// a tool comes here, so this is where a tool's result and error enter the
// program, with every secret hidden (enterCall).
func (r *Runner) CallTool(ctx context.Context, t *packs.Tool, args map[string]any) (any, error) {
	v, err := r.enterCall(r.callTool(ctx, t, args))
	// A worker's calls are observed by its server; a variant's result is
	// no shape of its public tool's.
	if err == nil && r.remote == nil && t.Variant == "" {
		r.shapes.Observe(ctx, t, v) // what the program gets, secrets hidden (package shapes)
	}
	return v, err
}

func (r *Runner) callTool(ctx context.Context, t *packs.Tool, args map[string]any) (_ any, err error) {
	if r.remote != nil {
		return r.remote(ctx, t, args) // in a worker: the server does all the rest
	}
	if r.tracer != nil {
		var end func(error)
		ctx, end = r.startTool(ctx, t.ID())
		defer func() { end(err) }()
	}
	st := runStateFrom(ctx)
	r.noteCall(st, t.ID(), args)
	if err := checkPolicy(st, t); err != nil {
		return nil, err
	}
	if err := st.countCall(t); err != nil {
		return nil, err
	}
	if err := r.confirm(ctx, st, t, args); err != nil {
		return nil, err
	}
	// The run's parallel width bounds every concurrent path at once
	// (parallel, tool.map, plan), whatever each asked for.
	// Not Python's own I/O: it runs on the program's own thread, one at a
	// time, and a file read holding a token would only slow parallel().
	if st != nil && st.parallel != nil && t.Variant == "" {
		select {
		case st.parallel <- struct{}{}:
			defer func() { <-st.parallel }()
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if st != nil {
		// What the call receives counts against the run's memory budget
		// as it arrives (package meter), and a statement it finds
		// destructive only while running asks too.
		call := st.resultMeter().Call()
		defer func() { call.End(err != nil) }()
		ctx = meter.With(ctx, call)
		ctx = r.confirmActions(ctx, st, t, args)
	}
	start := time.Now()
	if st != nil && st.onUpstream != nil {
		id := t.ID()
		ctx = mcpclient.WithProgress(ctx, func(progress, total float64, message string) {
			st.onUpstream(UpstreamProgress{ToolID: id, Progress: progress, Total: total, Message: message})
		})
	}
	res, err := r.call(ctx, t, args)
	if st != nil && st.onCall != nil {
		st.onCall(ToolCall{ToolID: t.ID(), N: int(st.calls.Load()), Duration: time.Since(start), Err: err})
	}
	if err != nil {
		var te *ToolError
		if errors.As(err, &te) {
			return nil, te.forStarlark()
		}
		return nil, err
	}
	return res.Value, nil
}

// HoldResults keeps what the run's tool calls receive charged to its
// memory budget until release is called (proxy.ResultHolder): parallel()
// and tool.map gather their results under it, so that calls which happen
// not to overlap still count together.
func (r *Runner) HoldResults(ctx context.Context) (release func()) {
	st := runStateFrom(ctx)
	if st == nil || r.remote != nil {
		return func() {} // in a worker the server's calls are metered there
	}
	return st.resultMeter().Hold()
}

// ToolCall describes a finished tool call, for progress reporting.
type ToolCall struct {
	ToolID   string        // "demo.foo"
	N        int           // calls made by the run so far, this one included
	Duration time.Duration // time spent in the call
	Err      error         // nil on success
}

// ExecOption configures one run.
type ExecOption func(*runState)

// SeparateStderr keeps what the program writes to its standard error
// (sys.stderr, logging, traceback.print_exc) in ExecResult.Stderr instead
// of its printed text, for a caller with a stderr of its own: onetool run
// writes it there, as CPython does. A run in a worker process
// (isolation: process) keeps the two together.
func SeparateStderr() ExecOption {
	return func(st *runState) { st.separateStderr = true }
}

// ProgramArgs sets the run's sys.argv and sys.orig_argv, as `onetool run
// FILE ARG…` passes them (argv is [FILE, ARG…], as CPython's); without it
// a run sees ['<string>'] (an MCP run has no command line). A session's
// inputs keep their session's globals and ignore it. It costs a copy of
// the globals per run (stdlib.WithArgv).
func ProgramArgs(argv, origArgv []string) ExecOption {
	return func(st *runState) {
		st.argv = slices.Clone(argv)
		st.origArgv = slices.Clone(origArgv)
	}
}

// UpstreamProgress is a progress notification an upstream MCP server sent
// during a tool call.
type UpstreamProgress struct {
	ToolID          string
	Progress, Total float64
	Message         string
}

// OnUpstreamProgress calls f with the progress notifications upstream
// servers send during the run's tool calls.
func OnUpstreamProgress(f func(UpstreamProgress)) ExecOption {
	return func(st *runState) { st.onUpstream = f }
}

// PlanStep is a finished step of a plan() in a program.
type PlanStep struct {
	ID, Tool, Status string
	Step, Total      int
}

// OnPlanStep calls f once per finished step (ok, failed or skipped) of
// every plan() the run makes.
func OnPlanStep(f func(PlanStep)) ExecOption {
	return func(st *runState) { st.onStep = f }
}

// OnToolCall calls f after every tool call the run makes (the MCP server
// turns these into progress notifications). f may be called from several
// goroutines at once when tools run in parallel.
func OnToolCall(f func(ToolCall)) ExecOption {
	return func(st *runState) { st.onCall = f }
}
