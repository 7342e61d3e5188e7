package proxy

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/packs"
)

// Upstream is what a pack served by an upstream MCP server needs: its tool
// set is only known once the server has connected, and tool names resolve
// by the rules of SPEC §4.5 (exact, canonical, tool prefix).
type Upstream interface {
	// Resolve returns the tool that name stands for, waiting while the
	// server connects (bounded by the server's timeout and ctx).
	Resolve(ctx context.Context, name string) (*packs.Tool, error)
	// Names lists the tools known now, for dir() and messages.
	Names() []string
}

// UpstreamPack is the Starlark value of an upstream server's pack. Its
// attributes never block: `srv.tool` is a value that resolves the tool
// when it is called (or when its .doc is read), so a program can name a
// tool of a server that is still connecting.
type UpstreamPack struct {
	name   string
	up     Upstream
	caller Caller
}

var _ starlark.HasAttrs = (*UpstreamPack)(nil)

// NewUpstreamPack returns the value of the pack name served by up.
func NewUpstreamPack(name string, up Upstream, c Caller) *UpstreamPack {
	return &UpstreamPack{name: name, up: up, caller: c}
}

func (p *UpstreamPack) String() string        { return "<pack " + p.name + ">" }
func (p *UpstreamPack) Type() string          { return "pack" }
func (p *UpstreamPack) Freeze()               {}
func (p *UpstreamPack) Truth() starlark.Bool  { return starlark.True }
func (p *UpstreamPack) Hash() (uint32, error) { return starlark.String(p.name).Hash() }
func (p *UpstreamPack) AttrNames() []string   { return p.up.Names() }

func (p *UpstreamPack) Attr(name string) (starlark.Value, error) {
	if strings.HasPrefix(name, "_") {
		return nil, fmt.Errorf("pack '%s' has no public attribute '%s': names starting with '_' are private", p.name, name)
	}
	return &upstreamTool{pack: p, name: name}, nil
}

// ResolveNow returns the tool name stands for when the server's tools are
// known now (it is connected), without waiting; known is false otherwise.
// A check before a run uses it: a server still connecting is not waited
// for.
func (p *UpstreamPack) ResolveNow(name string) (t *packs.Tool, known bool, err error) {
	now, ok := p.up.(interface {
		ResolveNow(name string) (*packs.Tool, bool, error)
	})
	if !ok || strings.HasPrefix(name, "_") {
		return nil, false, nil
	}
	return now.ResolveNow(name)
}

// upstreamTool is a tool of an upstream pack named in a program, resolved
// when used.
type upstreamTool struct {
	pack *UpstreamPack
	name string
}

var (
	_ starlark.Callable = (*upstreamTool)(nil)
	_ starlark.HasAttrs = (*upstreamTool)(nil)
)

func (t *upstreamTool) Name() string          { return t.pack.name + "." + t.name }
func (t *upstreamTool) String() string        { return "<tool " + t.Name() + ">" }
func (t *upstreamTool) Type() string          { return "tool" }
func (t *upstreamTool) Freeze()               {}
func (t *upstreamTool) Truth() starlark.Bool  { return starlark.True }
func (t *upstreamTool) Hash() (uint32, error) { return starlark.String(t.Name()).Hash() }
func (t *upstreamTool) AttrNames() []string   { return toolAttrs }

// resolve finds the registered tool, as a Tool value.
func (t *upstreamTool) resolve(ctx context.Context) (*Tool, error) {
	tool, err := t.pack.up.Resolve(ctx, t.name)
	if err != nil {
		return nil, err
	}
	return NewTool(tool, t.pack.caller), nil
}

// Tool resolves the tool without a run (for chain steps and help).
func (t *upstreamTool) Tool(ctx context.Context) (*packs.Tool, error) {
	v, err := t.resolve(ctx)
	if err != nil {
		return nil, err
	}
	return v.Tool(), nil
}

func (t *upstreamTool) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(t.name), nil
	case "pack":
		return starlark.String(t.pack.name), nil
	}
	// .id and .doc need the real tool: wait for the server, briefly.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	v, err := t.resolve(ctx)
	if err != nil {
		return nil, err
	}
	return v.Attr(name)
}

func (t *upstreamTool) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	v, err := t.resolve(interp.Context(thread))
	if err != nil {
		return nil, err
	}
	return v.CallInternal(thread, args, kwargs)
}

// ToolOf returns the tool a Starlark value stands for — a tool of a local
// pack, or one of an upstream pack (resolved, waiting while its server
// connects) — and false when the value is not a tool.
func ToolOf(ctx context.Context, v starlark.Value) (*packs.Tool, bool, error) {
	switch t := v.(type) {
	case *Tool:
		return t.Tool(), true, nil
	case *upstreamTool:
		tool, err := t.Tool(ctx)
		return tool, true, err
	}
	return nil, false, nil
}
