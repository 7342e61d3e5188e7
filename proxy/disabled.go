package proxy

import (
	"fmt"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// Disabled is the value of a pack the configuration turns off
// (packs.file: false): the name still exists, so that a program using it
// learns why it has no tools — and is not told it may have meant
// FileExistsError — while it is never offered as a pack, a suggestion or
// a completion (interp.Unavailable).
type Disabled struct {
	name  string
	where string // where it is disabled: "packs.file in /path/onetool.yaml"
}

// NewDisabled returns the value of pack name, disabled at where.
func NewDisabled(name, where string) *Disabled { return &Disabled{name: name, where: where} }

var (
	_ starlark.HasAttrs  = (*Disabled)(nil)
	_ interp.Unavailable = (*Disabled)(nil)
)

func (d *Disabled) Unavailable()          {}
func (d *Disabled) String() string        { return "<pack " + d.name + " (disabled)>" }
func (d *Disabled) Type() string          { return "pack" }
func (d *Disabled) Freeze()               {}
func (d *Disabled) Truth() starlark.Bool  { return false }
func (d *Disabled) Hash() (uint32, error) { return starlark.String(d.name).Hash() }
func (d *Disabled) AttrNames() []string   { return nil }

// Attr fails for every name, saying where the pack is turned off.
func (d *Disabled) Attr(name string) (starlark.Value, error) {
	return nil, fmt.Errorf("%s.%s: the %s pack is disabled in the configuration (%s); enable it there to use its tools", d.name, name, d.name, d.where)
}
