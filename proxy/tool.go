package proxy

import (
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

var toolAttrs = []string{"doc", "id", "name", "pack"}

func (t *Tool) AttrNames() []string { return toolAttrs }

func (t *Tool) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(t.tool.Name), nil
	case "pack":
		return starlark.String(t.tool.Pack), nil
	case "id":
		return starlark.String(t.tool.ID()), nil
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
	positional := make([]any, len(args))
	for i, a := range args {
		x, err := interp.ToGo(a)
		if err != nil {
			return nil, fmt.Errorf("%s: argument %d: %w", id, i+1, err)
		}
		positional[i] = x
	}
	named := make([]packs.NamedArg, len(kwargs))
	for i, kv := range kwargs {
		name := string(kv[0].(starlark.String))
		x, err := interp.ToGo(kv[1])
		if err != nil {
			return nil, fmt.Errorf("%s: argument '%s': %w", id, name, err)
		}
		named[i] = packs.NamedArg{Name: name, Value: x}
	}
	bound, err := t.tool.Bind(positional, named)
	if err != nil {
		return nil, err
	}
	result, err := t.caller.CallTool(interp.Context(thread), t.tool, bound)
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
// and show its signature; anything else is "<id> failed: <cause>".
func callError(id string, err error) error {
	if errors.Is(err, packs.ErrArgs) || errors.Is(err, packs.ErrValidation) || errors.Is(err, packs.ErrOutputValidation) {
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
