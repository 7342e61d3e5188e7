package packs

import (
	"context"
)

// Invoke runs t's handler (its first backend) with args (as returned by Bind), applying the
// tool's Timeout, and turns a panic into a *PanicError wrapping ErrPanic
// ("demo.panic panicked: boom"), so that one broken tool cannot take down
// the run or the server. It neither binds nor validates: see Call.
//
// Invoke waits for the handler to return; handlers must honour ctx, which
// carries the timeout.
func Invoke(ctx context.Context, t *Tool, args map[string]any) (result any, err error) {
	if t == nil {
		return nil, newToolError(ErrInvalidTool, "nil tool")
	}
	backends := t.BackendList()
	if len(backends) == 0 {
		return nil, newToolError(ErrInvalidTool, "%s: tool has no handler", t.ID())
	}
	return InvokeBackend(ctx, t, backends[0], args)
}

// Call is a whole call from Go: Bind, ValidateInput, Invoke and
// ValidateOutput, stopping at the first error.
func Call(ctx context.Context, t *Tool, positional []any, named []NamedArg) (any, error) {
	args, err := t.Bind(positional, named)
	if err != nil {
		return nil, err
	}
	if err := t.ValidateInput(args); err != nil {
		return nil, err
	}
	result, err := Invoke(ctx, t, args)
	if err != nil {
		return nil, err
	}
	if err := t.ValidateOutput(result); err != nil {
		return nil, err
	}
	return result, nil
}
