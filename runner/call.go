package runner

import (
	"context"

	"github.com/onetool-dev/onetool/packs"
)

// CallTool performs one tool call made by a program: it charges the run's
// budget, validates the arguments against the tool's compiled schema and
// invokes the handler with panics recovered. It implements proxy.Caller.
func (r *Runner) CallTool(ctx context.Context, t *packs.Tool, args map[string]any) (any, error) {
	if err := runStateFrom(ctx).countCall(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := t.ValidateInput(args); err != nil {
		return nil, err
	}
	return packs.Invoke(ctx, t, args)
}
