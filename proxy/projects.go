package proxy

import (
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/stdlib"
)

// Projects is the `proj` global (SPEC §5.3): proj.api is the path of the
// project named api, a pathlib.Path (so `proj.api / "src"`, open(),
// os.walk and Path's methods all take it, and its I/O goes through the
// file pack's checks as any Path's does); proj.path(name) and proj.list()
// are functions, and win over projects that happen to be called path or
// list.
type Projects struct {
	dirs  map[string]string
	names []string
	paths *stdlib.Pathlib
}

var _ starlark.HasAttrs = (*Projects)(nil)

// NewProjects returns the proj value for name → directory. Its paths'
// I/O is confined to the roots of the run that does it.
func NewProjects(dirs map[string]string) *Projects {
	p := &Projects{dirs: dirs, paths: stdlib.HostPathlib()}
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
				d.SetKey(starlark.String("path"), p.paths.NewPath(p.dirs[n], true))
				out[i] = d
			}
			return starlark.NewList(out), nil
		}), nil
	}
	return p.project(name)
}

func (p *Projects) project(name string) (starlark.Value, error) {
	if dir, ok := p.dirs[name]; ok {
		return p.paths.NewPath(dir, true), nil
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
