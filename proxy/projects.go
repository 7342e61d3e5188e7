package proxy

import (
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/packs/roots"
)

// Projects is the `proj` global (SPEC §5.3): proj.api is the Path of the
// project named api; proj.path(name) and proj.list() are functions, and win
// over projects that happen to be called path or list.
type Projects struct {
	dirs  map[string]string
	names []string
	roots *roots.Roots
}

var _ starlark.HasAttrs = (*Projects)(nil)

// NewProjects returns the proj value for name → directory, with path IO
// confined to r.
func NewProjects(dirs map[string]string, r *roots.Roots) *Projects {
	p := &Projects{dirs: dirs, roots: r}
	for n := range dirs {
		p.names = append(p.names, n)
	}
	slices.Sort(p.names)
	return p
}

func (p *Projects) String() string        { return "<proj>" }
func (p *Projects) Type() string          { return "projects" }
func (p *Projects) Freeze()               {}
func (p *Projects) Truth() starlark.Bool  { return starlark.True }
func (p *Projects) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: projects") }

func (p *Projects) AttrNames() []string {
	return append([]string{"list", "path"}, p.names...)
}

func (p *Projects) Attr(name string) (starlark.Value, error) {
	switch name {
	case "path":
		return interp.NewBuiltin("proj.path", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var n string
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "name", &n); err != nil {
				return nil, err
			}
			return p.project(n)
		}), nil
	case "list":
		return interp.NewBuiltin("proj.list", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackArgs(b.Name(), args, kwargs); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(p.names))
			for i, n := range p.names {
				d := starlark.NewDict(2)
				d.SetKey(starlark.String("name"), starlark.String(n))
				d.SetKey(starlark.String("path"), NewPath(p.dirs[n], p.roots))
				out[i] = d
			}
			return starlark.NewList(out), nil
		}), nil
	}
	return p.project(name)
}

func (p *Projects) project(name string) (starlark.Value, error) {
	if dir, ok := p.dirs[name]; ok {
		return NewPath(dir, p.roots), nil
	}
	projects := "(none)"
	if len(p.names) > 0 {
		projects = strings.Join(p.names, ", ")
	}
	msg := fmt.Sprintf("unknown project '%s'. Functions: list, path. Projects: %s", name, projects)
	if s := suggest.Closest(name, p.names); s != "" {
		msg += fmt.Sprintf(". Did you mean '%s'?", s)
	}
	return nil, fmt.Errorf("%s", msg)
}
