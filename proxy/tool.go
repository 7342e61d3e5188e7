package proxy

import (
	"context"
	"errors"
	"fmt"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/packs"
)

// Tool is the Starlark value of one tool: callable, with the attributes
// .name (the tool's name, "foo"), .pack ("demo"), .id ("demo.foo") and
// .doc (signature, description, parameters and examples).
type Tool struct {
	tool   *packs.Tool
	caller Caller
}

var (
	_ starlark.Callable = (*Tool)(nil)
	_ starlark.HasAttrs = (*Tool)(nil)
)

// NewTool returns the value of t, calling through c.
func NewTool(t *packs.Tool, c Caller) *Tool { return &Tool{tool: t, caller: c} }

// Tool returns the tool this value calls.
func (t *Tool) Tool() *packs.Tool { return t.tool }

func (t *Tool) Name() string          { return t.tool.ID() }
func (t *Tool) String() string        { return "<tool " + t.tool.ID() + ">" }
func (t *Tool) Type() string          { return "tool" }
func (t *Tool) Freeze()               {} // immutable
func (t *Tool) Truth() starlark.Bool  { return starlark.True }
func (t *Tool) Hash() (uint32, error) { return starlark.String(t.tool.ID()).Hash() }

var toolAttrs = []string{"doc", "id", "map", "name", "pack"}

func (t *Tool) AttrNames() []string { return toolAttrs }

func (t *Tool) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(t.tool.Name), nil
	case "pack":
		return starlark.String(t.tool.Pack), nil
	case "id":
		return starlark.String(t.tool.ID()), nil
	case "map":
		return interp.NewBuiltin(t.tool.ID()+".map", t.mapBuiltin), nil
	case "doc":
		return starlark.String(t.tool.Doc()), nil
	}
	return nil, nil // starlark reports "tool has no .x field or method"
}

// CallInternal binds the arguments (exact name, synonym, unique prefix),
// calls the tool with the run's context and converts the result.
func (t *Tool) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (v starlark.Value, err error) {
	defer func() {
		// The caller recovers handler panics; this guards the conversion
		// code and any Caller that does not.
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("%s failed: %w: %v", t.tool.ID(), packs.ErrPanic, r)
		}
	}()
	id := t.tool.ID()
	bound, err := BindKwargs(interp.BudgetOf(thread), t.tool, args, kwargs)
	if err != nil {
		return nil, err
	}
	if a := interp.AsyncOf(thread); a != nil {
		// In a coroutine: the call starts now and the coroutine awaits
		// its result (asyncio.gather of several runs them at once).
		return a.Go(thread, id, func(ctx context.Context) (starlark.Value, error) {
			return t.call(ctx, bound)
		})
	}
	return t.call(interp.Context(thread), bound)
}

// call runs the tool with bound arguments and converts its result.
func (t *Tool) call(ctx context.Context, bound map[string]any) (starlark.Value, error) {
	id := t.tool.ID()
	result, err := t.caller.CallTool(ctx, t.tool, bound)
	if err != nil {
		return nil, callError(id, err)
	}
	out, err := interp.FromGo(result)
	if err != nil {
		return nil, fmt.Errorf("%s failed: its result cannot be used: %w", id, err)
	}
	return out, nil
}

// callError phrases a failed call: argument problems already name the tool
// and show its signature, a policy's refusal names it too (the tool never
// ran, so it did not fail); anything else is "<id> failed: <cause>".
func callError(id string, err error) error {
	if errors.Is(err, packs.ErrArgs) || errors.Is(err, packs.ErrNotAllowed) || errors.Is(err, packs.ErrValidation) || errors.Is(err, packs.ErrOutputValidation) {
		return err
	}
	return &CallError{ToolID: id, Err: err}
}

// CallError is a tool call that failed while running.
type CallError struct {
	ToolID string
	Err    error
}

func (e *CallError) Error() string {
	var pe *packs.PanicError
	if errors.As(e.Err, &pe) {
		return fmt.Sprintf("%s failed: panic: %v", e.ToolID, pe.Value)
	}
	return e.ToolID + " failed: " + e.Err.Error()
}
func (e *CallError) Unwrap() error { return e.Err }

// PythonClass is the exception class a Python program catches the failure
// as (SPEC §2.7).
func (e *CallError) PythonClass() string { return "ToolError" }

// mapBuiltin is tool.map(items, max_parallel=8, errors="raise"): the tool
// called once per item — a dict of keyword arguments — concurrently, the
// results in the order of items.
func (t *Tool) mapBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var items starlark.Iterable
	maxParallel := DefaultMaxParallel
	errorsMode := "raise"
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "items", &items, "max_parallel?", &maxParallel, "errors?", &errorsMode); err != nil {
		return nil, err
	}
	mode, err := ParseErrorMode(errorsMode)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.Name(), err)
	}
	var calls []Call
	iter := items.Iterate()
	defer iter.Done()
	var item starlark.Value
	for i := 0; iter.Next(&item); i++ {
		d, ok := item.(*starlark.Dict)
		if !ok {
			return nil, fmt.Errorf(`%s: item %d: want a dict of arguments like {"text": "x"}, got %s`, b.Name(), i, item.Type())
		}
		var kw []starlark.Tuple
		for _, kv := range d.Items() {
			if _, ok := interp.AsText(kv[0]); !ok {
				return nil, fmt.Errorf("%s: item %d: argument names must be strings, got %s", b.Name(), i, kv[0].Type())
			}
			kw = append(kw, starlark.Tuple{kv[0], kv[1]})
		}
		bound, err := BindKwargs(interp.BudgetOf(thread), t.tool, nil, kw)
		if err != nil {
			return nil, fmt.Errorf("%s: item %d: %w", b.Name(), i, err)
		}
		calls = append(calls, Call{Tool: t.tool, Args: bound})
	}
	outcomes := CallAll(interp.Context(thread), t.caller, calls, maxParallel)
	vals, err := Results(outcomes, calls, mode, func(i int) string { return fmt.Sprintf("%s: item %d", b.Name(), i) })
	if err != nil {
		return nil, err
	}
	return starlark.NewList(vals), nil
}
