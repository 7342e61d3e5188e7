package runner

import (
	"context"
	"fmt"
	"maps"
)

// ChainStep is one call of a chain.
type ChainStep struct {
	ToolID string
	Args   map[string]any
	// UsePrevious puts the previous step's result at Args["previous"],
	// replacing any value there — also when that result is nil.
	UsePrevious bool
}

// ChainError is a chain that stopped: which step failed, and why.
type ChainError struct {
	Step   int // 1-based
	ToolID string
	Err    error // a *ToolError
}

func (e *ChainError) Error() string {
	return fmt.Sprintf("chain step %d (%s) failed: %v", e.Step, e.ToolID, e.Err)
}

func (e *ChainError) Unwrap() error { return e.Err }

// RunChain runs steps in order (SPEC §6.3), passing each result to the next
// step that asks for it. It stops at the first error and returns the
// results of the steps that completed, with a *ChainError naming the step.
// The final result is the last step's. Step arguments are never modified.
func (r *Runner) RunChain(ctx context.Context, steps []ChainStep, opts ...CallOption) (final *Result, results []*Result, err error) {
	cfg := callOptions(opts)
	var previous any
	for i, s := range steps {
		cfg.report(Progress{ToolID: s.ToolID, Step: i + 1, Total: len(steps), Message: fmt.Sprintf("step %d of %d: %s", i+1, len(steps), s.ToolID)})
		args := s.Args
		if s.UsePrevious {
			args = maps.Clone(args)
			if args == nil {
				args = map[string]any{}
			}
			args["previous"] = previous
		}
		res, err := r.runBound(ctx, s.ToolID, args)
		if err != nil {
			return nil, results, &ChainError{Step: i + 1, ToolID: s.ToolID, Err: err}
		}
		results = append(results, res)
		previous = res.Value
	}
	if len(results) == 0 {
		return nil, nil, nil
	}
	return results[len(results)-1], results, nil
}

// runBound is Run without options.
func (r *Runner) runBound(ctx context.Context, id string, args map[string]any) (_ *Result, err error) {
	if r.tracer != nil {
		var end func(error)
		ctx, end = r.startTool(ctx, id)
		defer func() { end(err) }()
	}
	t, bound, err := r.prepareCall(ctx, id, args)
	if err != nil {
		return nil, err
	}
	return r.call(ctx, t, bound)
}
