package proxy

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/packs/roots"
)

// MaxReadText bounds Path.read_text: a program that needs more reads in
// pages with the file pack.
const MaxReadText = 4 << 20

// Path is a filesystem path value (SPEC §5.3): `proj.api / "src" / "x.go"`.
// Its pure attributes (.name, .stem, .suffix, .parent, .parts) never touch
// the disk; its IO methods (exists, is_dir, read_text, list) resolve the
// path and refuse anything outside the allowed roots, and onetool's own
// files (SPEC §8.2): list leaves them out, read_text checks the file it
// opened again.
type Path struct {
	path  string // cleaned, as built (absolute for project paths)
	roots *roots.Roots
}

var (
	_ starlark.HasAttrs   = (*Path)(nil)
	_ starlark.HasBinary  = (*Path)(nil)
	_ starlark.Comparable = (*Path)(nil)
	_ interp.GoValuer     = (*Path)(nil)
)

// NewPath returns the path p whose IO is confined to r, or to the roots
// of the run that uses it when its context carries some
// (roots.FromContext: an MCP session's).
func NewPath(p string, r *roots.Roots) *Path {
	return &Path{path: filepath.Clean(p), roots: r}
}

func (p *Path) String() string        { return p.path }
func (p *Path) Type() string          { return "path" }
func (p *Path) Freeze()               {}
func (p *Path) Truth() starlark.Bool  { return starlark.True }
func (p *Path) Hash() (uint32, error) { return starlark.String(p.path).Hash() }

// GoValue makes a path format and convert as its string.
func (p *Path) GoValue() (any, error) { return p.path, nil }

// CompareSameType supports == and != between paths.
func (p *Path) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	q := y.(*Path)
	switch op {
	case syntax.EQL:
		return p.path == q.path, nil
	case syntax.NEQ:
		return p.path != q.path, nil
	}
	return false, fmt.Errorf("paths support only == and !=, not %s", op)
}

// Binary implements p / "name" (and p / other_path).
func (p *Path) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if op != syntax.SLASH || side != starlark.Left {
		return nil, nil
	}
	var elem string
	switch y := y.(type) {
	case starlark.String:
		elem = string(y)
	case *interp.Unicode:
		elem = y.Text()
	case *Path:
		elem = y.path
	default:
		return nil, fmt.Errorf("path / %s: want a string or a path", y.Type())
	}
	if strings.ContainsRune(elem, 0) {
		return nil, fmt.Errorf("path / %q: a path cannot contain a NUL byte", elem)
	}
	if filepath.IsAbs(elem) {
		return NewPath(elem, p.roots), nil
	}
	return NewPath(filepath.Join(p.path, elem), p.roots), nil
}

var pathAttrs = []string{"exists", "is_dir", "list", "name", "parent", "parts", "read_text", "stem", "suffix"}

func (p *Path) AttrNames() []string { return pathAttrs }

func (p *Path) Attr(name string) (starlark.Value, error) {
	base := filepath.Base(p.path)
	switch name {
	case "name":
		return starlark.String(base), nil
	case "suffix":
		return starlark.String(filepath.Ext(base)), nil
	case "stem":
		return starlark.String(strings.TrimSuffix(base, filepath.Ext(base))), nil
	case "parent":
		return NewPath(filepath.Dir(p.path), p.roots), nil
	case "parts":
		return p.parts(), nil
	case "exists", "is_dir", "read_text", "list":
		return interp.NewBuiltin("path."+name, p.method(name)), nil
	}
	return nil, nil
}

func (p *Path) parts() starlark.Tuple {
	var parts starlark.Tuple
	rest := p.path
	if filepath.IsAbs(rest) {
		parts = append(parts, starlark.String(string(filepath.Separator)))
		rest = strings.TrimLeft(rest, string(filepath.Separator))
	}
	if rest == "" || rest == "." && len(parts) > 0 {
		return parts
	}
	for _, s := range strings.Split(rest, string(filepath.Separator)) {
		parts = append(parts, starlark.String(s))
	}
	return parts
}

func (p *Path) method(name string) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackArgs(b.Name(), args, kwargs); err != nil {
			return nil, err
		}
		// The run's own roots (its MCP session's) when it has some.
		r := roots.FromContext(interp.Context(thread), p.roots)
		if r == nil {
			return nil, fmt.Errorf("%s: no file access is configured", b.Name())
		}
		real, err := r.Resolve(p.path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", b.Name(), err)
		}
		switch name {
		case "exists":
			_, err := os.Stat(real)
			return starlark.Bool(err == nil), nil
		case "is_dir":
			fi, err := os.Stat(real)
			return starlark.Bool(err == nil && fi.IsDir()), nil
		case "read_text":
			return readText(b.Name(), p.path, real, r)
		default: // list
			entries, err := os.ReadDir(real)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", b.Name(), cleanPathError(err))
			}
			names := make([]string, 0, len(entries))
			for _, e := range entries {
				if !r.OwnEntry(filepath.Join(real, e.Name())) {
					names = append(names, e.Name())
				}
			}
			slices.Sort(names)
			out := make([]starlark.Value, len(names))
			for i, n := range names {
				out[i] = NewPath(filepath.Join(p.path, n), p.roots)
			}
			return starlark.NewList(out), nil
		}
	}
}

func readText(name, path, real string, r *roots.Roots) (starlark.Value, error) {
	f, err := os.Open(real)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, cleanPathError(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, cleanPathError(err))
	}
	// Checked again once open: a hard link, or a link swapped in after
	// Resolve, must not lead to onetool's own files.
	if err := r.CheckOpened(path, f, st); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxReadText+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, cleanPathError(err))
	}
	if len(data) > MaxReadText {
		return nil, fmt.Errorf("%s: the file is larger than %s: read it in pages with the file pack", name, interp.FormatBytes(MaxReadText))
	}
	return starlark.String(data), nil
}

// cleanPathError drops the Go operation name ("open /x: no such file or
// directory" stays, "read /x: is a directory" stays) but keeps the cause.
func cleanPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}
