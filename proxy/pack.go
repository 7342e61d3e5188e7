package proxy

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/packs"
)

// Pack is the Starlark value of a pack: `demo.foo` is an attribute lookup
// that yields the Tool value for demo.foo.
type Pack struct {
	name  string
	tools map[string]*Tool
	names []string // sorted, for dir() and error messages
}

var (
	_ starlark.HasAttrs = (*Pack)(nil)
	_ starlark.Value    = (*Pack)(nil)
)

// NewPack builds the value of p, with one Tool value per tool.
func NewPack(p *packs.Pack, c Caller) *Pack {
	tools := p.Tools()
	v := &Pack{name: p.Name, tools: make(map[string]*Tool, len(tools))}
	for _, t := range tools {
		v.tools[t.Name] = NewTool(t, c)
		v.names = append(v.names, t.Name)
	}
	return v
}

func (p *Pack) String() string        { return "<pack " + p.name + ">" }
func (p *Pack) Type() string          { return "pack" }
func (p *Pack) Freeze()               {} // immutable
func (p *Pack) Truth() starlark.Bool  { return starlark.True }
func (p *Pack) Hash() (uint32, error) { return starlark.String(p.name).Hash() }
func (p *Pack) AttrNames() []string   { return p.names }

// Name is the pack's name.
func (p *Pack) Name() string { return p.name }

// Attr returns the tool called name. Private names and unknown names are
// errors that list what the pack offers.
func (p *Pack) Attr(name string) (starlark.Value, error) {
	if t, ok := p.tools[name]; ok {
		return t, nil
	}
	if strings.HasPrefix(name, "_") {
		return nil, fmt.Errorf("pack '%s' has no public attribute '%s': names starting with '_' are private. Available: %s",
			p.name, name, strings.Join(p.names, ", "))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "pack '%s' has no function '%s'.", p.name, name)
	if s := suggest.Closest(name, p.names); s != "" {
		fmt.Fprintf(&b, " Did you mean '%s'?", s)
	}
	fmt.Fprintf(&b, " Available: %s", strings.Join(p.names, ", "))
	return nil, fmt.Errorf("%s", b.String())
}
