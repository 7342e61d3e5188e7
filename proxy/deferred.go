package proxy

import (
	"go.starlark.net/starlark"
)

// DeferredCall is call(tool, **kwargs): a tool call bound to its
// arguments that has not run. parallel() runs lists and dicts of them.
type DeferredCall struct {
	Call
}

var _ starlark.HasAttrs = (*DeferredCall)(nil)

func (d *DeferredCall) String() string        { return "<call " + d.Tool.ID() + ">" }
func (d *DeferredCall) Type() string          { return "call" }
func (d *DeferredCall) Freeze()               {}
func (d *DeferredCall) Truth() starlark.Bool  { return starlark.True }
func (d *DeferredCall) Hash() (uint32, error) { return starlark.String(d.String()).Hash() }
func (d *DeferredCall) AttrNames() []string   { return []string{"tool"} }

func (d *DeferredCall) Attr(name string) (starlark.Value, error) {
	if name == "tool" {
		return starlark.String(d.Tool.ID()), nil
	}
	return nil, nil
}
