// Package proxy makes packs and tools into Starlark values: a pack is a
// value whose attributes are its tools, and a tool is a callable that binds
// Starlark arguments to the tool's parameters, hands the call to a Caller,
// and converts the result back (SPEC §3.2, §3.3).
//
// The values are immutable and hold no per-run state, so they are built
// once, frozen, and shared by every run; what a call needs from its run
// (deadline, budgets, progress) travels in the context.
package proxy

import (
	"context"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/packs"
)

// Caller performs one tool call with already bound arguments. The runner
// implements it to add validation, budgets, caching and statistics; ctx is
// the run's context (see interp.Context).
type Caller interface {
	CallTool(ctx context.Context, t *packs.Tool, args map[string]any) (any, error)
}

// CallerFunc adapts a function to Caller.
type CallerFunc func(ctx context.Context, t *packs.Tool, args map[string]any) (any, error)

// CallTool calls f.
func (f CallerFunc) CallTool(ctx context.Context, t *packs.Tool, args map[string]any) (any, error) {
	return f(ctx, t, args)
}

// Globals returns one frozen Starlark value per pack of reg, keyed by pack
// name, each calling its tools through c.
func Globals(reg *packs.Registry, c Caller) starlark.StringDict {
	d := make(starlark.StringDict)
	for _, p := range reg.Packs() {
		d[p.Name] = NewPack(p, c)
	}
	d.Freeze()
	return d
}
