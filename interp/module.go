package interp

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Module is a Starlark file whose top-level functions are called as tools
// (toolpacks of kind starlark, SPEC §4.1). It is compiled once; each call
// runs in a fresh thread with fresh module globals and the caller's
// budgets, so calls share nothing and may run concurrently.
type Module struct {
	name string // shown in errors, e.g. "slugify.star"
	src  string
	prog *starlark.Program
}

// CheckModule parses src and reports whether it defines a top-level
// function called function, for load-time checks of toolpacks.
func CheckModule(name, src, function string) error {
	f, err := FileOptions().Parse(Filename, src, 0)
	if err != nil {
		return fmt.Errorf("%s: %w", name, syntaxError(src, err))
	}
	var defs []string
	for _, s := range f.Stmts {
		if d, ok := s.(*syntax.DefStmt); ok {
			if d.Name.Name == function {
				return nil
			}
			defs = append(defs, d.Name.Name)
		}
	}
	if len(defs) == 0 {
		return fmt.Errorf("%s defines no function; it must define %s", name, function)
	}
	return fmt.Errorf("%s has no function %s (it defines %s)", name, function, strings.Join(defs, ", "))
}

// CompileModule compiles src against predeclared.
func CompileModule(name, src string, predeclared starlark.StringDict) (*Module, error) {
	f, err := FileOptions().Parse(Filename, src, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, syntaxError(src, err))
	}
	if err := checkLoads(src, f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	markLoops(f)
	prog, err := starlark.FileProgram(f, predeclared.Has)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, resolveError(src, err, predeclared, ""))
	}
	return &Module{name: name, src: src, prog: prog}, nil
}

// Call runs the module's top level, then calls function with args as
// keyword arguments, and returns its result as Go data. Errors name the
// module and its lines: "slugify.star: line 3: ...".
func (m *Module) Call(ctx context.Context, function string, args map[string]any, opts Options) (result any, err error) {
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	var printed strings.Builder // a tool's prints go nowhere: its result is what counts
	thread, lim := newThread(ctx, opts, &printed)
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, fmt.Errorf("%s: internal error: %v", m.name, r)
		}
	}()
	globals, err := m.prog.Init(thread, opts.Predeclared)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.name, runtimeError(m.src, err, lim, ctx))
	}
	fn, ok := globals[function].(starlark.Callable)
	if !ok {
		return nil, fmt.Errorf("%s has no function %s", m.name, function)
	}
	kwargs := make([]starlark.Tuple, 0, len(args))
	for _, k := range sortedKeys(args) {
		v, err := FromGo(args[k])
		if err != nil {
			return nil, fmt.Errorf("%s: argument %s: %w", m.name, k, err)
		}
		kwargs = append(kwargs, starlark.Tuple{starlark.String(k), v})
	}
	v, err := starlark.Call(thread, fn, nil, kwargs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.name, runtimeError(m.src, err, lim, ctx))
	}
	if t := lim.tripped(); t != nil {
		return nil, fmt.Errorf("%s: %w", m.name, runtimeError(m.src, t, lim, ctx))
	}
	out, err := ToGoBudget(&lim.budget, v)
	if err != nil {
		return nil, fmt.Errorf("%s: the result of %s: %w", m.name, function, err)
	}
	return out, nil
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }
