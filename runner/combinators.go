package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/proxy"
)

// combinators returns the globals that combine tool calls (SPEC §6).
func (r *Runner) combinators() starlark.StringDict {
	return starlark.StringDict{
		"chain":    interp.NewBuiltin("chain", r.chainBuiltin),
		"call":     interp.NewBuiltin("call", r.callBuiltin),
		"parallel": interp.NewBuiltin("parallel", r.parallelBuiltin),
		"plan":     interp.NewBuiltin("plan", r.planBuiltin),
	}
}

var chainKeys = []string{"tool", "args", "use_previous"}

// chainBuiltin is chain(steps): each step a dict {"tool": id or tool,
// "args": {...}, "use_previous": bool}, run in order; the result is the
// last step's. A failing step stops the chain with an error naming the
// step and showing the results of the steps before it.
func (r *Runner) chainBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var steps *starlark.List
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "steps", &steps); err != nil {
		return nil, err
	}
	ctx := interp.Context(thread)
	var previous any
	var done []any
	n := steps.Len()
	for i := range n {
		step, err := r.chainStep(ctx, interp.BudgetOf(thread), steps.Index(i), i+1)
		if err != nil {
			return nil, err
		}
		callArgs := step.args
		if step.usePrevious {
			callArgs["previous"] = previous
		}
		bound, err := step.tool.BindMap(callArgs)
		if err == nil {
			previous, err = r.CallTool(ctx, step.tool, bound)
		}
		if err != nil {
			return nil, &chainFailure{step: i + 1, total: n, id: step.tool.ID(), err: err, done: done}
		}
		done = append(done, previous)
	}
	return interp.FromGo(previous)
}

type chainStep struct {
	tool        *packs.Tool
	args        map[string]any
	usePrevious bool
}

// chainStep reads one step dict, with errors that say how to fix it.
func (r *Runner) chainStep(ctx context.Context, b *interp.Budget, v starlark.Value, n int) (chainStep, error) {
	d, ok := v.(*starlark.Dict)
	if !ok {
		return chainStep{}, fmt.Errorf(`chain step %d: want a dict like {"tool": "demo.foo", "args": {...}}, got %s`, n, v.Type())
	}
	var s chainStep
	for _, item := range d.Items() {
		key, ok := interp.AsText(item[0])
		if !ok || !slices.Contains(chainKeys, key) {
			msg := fmt.Sprintf("chain step %d: unknown key %s", n, item[0])
			if sg := suggest.Closest(key, chainKeys); sg != "" {
				msg += fmt.Sprintf("; did you mean '%s'?", sg)
			}
			return chainStep{}, fmt.Errorf("%s (keys: tool, args, use_previous)", msg)
		}
		switch key {
		case "tool":
			t, err := r.toolOf(ctx, item[1])
			if err != nil {
				return chainStep{}, fmt.Errorf("chain step %d: %w", n, err)
			}
			s.tool = t
		case "args":
			a, err := interp.ToGoBudget(b, item[1])
			if err != nil {
				return chainStep{}, fmt.Errorf("chain step %d: args: %w", n, err)
			}
			m, ok := a.(*ordered.Map)
			if !ok {
				return chainStep{}, fmt.Errorf("chain step %d: args: want a dict of arguments, got %s", n, item[1].Type())
			}
			s.args = make(map[string]any, m.Len())
			m.Range(func(k string, v any) bool { s.args[k] = v; return true })
		case "use_previous":
			s.usePrevious = bool(item[1].Truth())
		}
	}
	if s.tool == nil {
		return chainStep{}, fmt.Errorf(`chain step %d: missing "tool": name the tool as "pack.name" or give the tool itself`, n)
	}
	if s.args == nil {
		s.args = map[string]any{}
	}
	return s, nil
}

// toolOf accepts a tool value (demo.foo) or its id as a string.
func (r *Runner) toolOf(ctx context.Context, v starlark.Value) (*packs.Tool, error) {
	if t, ok, err := proxy.ToolOf(ctx, v); ok {
		return t, err
	}
	id, ok := interp.AsText(v)
	if !ok {
		return nil, fmt.Errorf(`"tool" must be a tool or its id ("demo.foo"), got %s`, v.Type())
	}
	t, ok := r.reg.Tool(id)
	if !ok {
		var ids []string
		for _, t := range r.reg.Tools() {
			ids = append(ids, t.ID())
		}
		msg := fmt.Sprintf("unknown tool '%s'", id)
		if s := suggest.Closest(id, ids); s != "" {
			msg += fmt.Sprintf("; did you mean '%s'?", s)
		}
		return nil, fmt.Errorf("%s", msg)
	}
	return t, nil
}

// chainFailure names the failed step and keeps the partial results, and
// still matches the cause with errors.Is.
type chainFailure struct {
	step, total int
	id          string
	err         error
	done        []any
}

func (e *chainFailure) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "chain step %d of %d (%s) failed: %v", e.step, e.total, e.id, e.err)
	if len(e.done) > 0 {
		if data, err := ordered.Encode(e.done); err == nil {
			fmt.Fprintf(&b, "; results of the steps before: %s", data)
		}
	}
	return b.String()
}

func (e *chainFailure) Unwrap() error { return e.err }

// callBuiltin is call(tool, *args, **kwargs): a deferred call, bound now
// (so argument errors show at the line that made it) and run by parallel().
func (r *Runner) callBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf(`call: the first argument is the tool: call(demo.foo, text="x") or call("demo.foo", text="x")`)
	}
	t, err := r.toolOf(interp.Context(thread), args[0])
	if err != nil {
		return nil, fmt.Errorf("call: %w", err)
	}
	bound, err := proxy.BindKwargs(interp.BudgetOf(thread), t, args[1:], kwargs)
	if err != nil {
		return nil, err
	}
	return &proxy.DeferredCall{Call: proxy.Call{Tool: t, Args: bound}}, nil
}

// parallelBuiltin is parallel(calls, max_parallel=8, errors="raise"): the
// deferred calls of a list (or the values of a dict) run concurrently; the
// result has the same shape.
func (r *Runner) parallelBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var calls starlark.Value
	maxParallel := proxy.DefaultMaxParallel
	errorsMode := "raise"
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "calls", &calls, "max_parallel?", &maxParallel, "errors?", &errorsMode); err != nil {
		return nil, err
	}
	mode, err := proxy.ParseErrorMode(errorsMode)
	if err != nil {
		return nil, fmt.Errorf("parallel: %w", err)
	}
	var keys []starlark.Value
	var values []starlark.Value
	switch c := calls.(type) {
	case *starlark.Dict:
		for _, kv := range c.Items() {
			keys = append(keys, kv[0])
			values = append(values, kv[1])
		}
	case starlark.Indexable:
		for i := range c.Len() {
			values = append(values, c.Index(i))
		}
	default:
		return nil, fmt.Errorf("parallel: want a list or dict of call(...) values, got %s", calls.Type())
	}
	list := make([]proxy.Call, len(values))
	for i, v := range values {
		d, ok := v.(*proxy.DeferredCall)
		if !ok {
			return nil, fmt.Errorf(`parallel: item %s is a %s, not a deferred call: write call(demo.foo, text="x") instead of demo.foo(text="x")`, slotName(keys, i), v.Type())
		}
		list[i] = d.Call
	}
	outcomes := proxy.CallAll(interp.Context(thread), r, list, maxParallel)
	vals, err := proxy.Results(outcomes, list, mode, func(i int) string { return "parallel: item " + slotName(keys, i) })
	if err != nil {
		return nil, err
	}
	if keys == nil {
		return starlark.NewList(vals), nil
	}
	d := starlark.NewDict(len(keys))
	for i, k := range keys {
		d.SetKey(k, vals[i])
	}
	return d, nil
}

func slotName(keys []starlark.Value, i int) string {
	if keys != nil {
		return keys[i].String()
	}
	return fmt.Sprint(i)
}
