package runner

import (
	"context"
	"time"

	"github.com/onetool-dev/onetool/packs"
)

// CallTool performs one tool call made by a program: it charges the run's
// budget, validates the arguments against the tool's compiled schema and
// invokes the handler with panics recovered. It implements proxy.Caller.
func (r *Runner) CallTool(ctx context.Context, t *packs.Tool, args map[string]any) (any, error) {
	st := runStateFrom(ctx)
	if err := st.countCall(); err != nil {
		return nil, err
	}
	start := time.Now()
	v, err := r.callTool(ctx, t, args)
	if st != nil && st.onCall != nil {
		st.onCall(ToolCall{ToolID: t.ID(), N: int(st.calls.Load()), Duration: time.Since(start), Err: err})
	}
	return v, err
}

func (r *Runner) callTool(ctx context.Context, t *packs.Tool, args map[string]any) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := t.ValidateInput(args); err != nil {
		return nil, err
	}
	return packs.Invoke(ctx, t, args)
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

// OnToolCall calls f after every tool call the run makes (the MCP server
// turns these into progress notifications). f may be called from several
// goroutines at once when tools run in parallel.
func OnToolCall(f func(ToolCall)) ExecOption {
	return func(st *runState) { st.onCall = f }
}
