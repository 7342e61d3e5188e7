// Package roots confines file access to allowed directories (SPEC §8.2):
// the MCP client's roots or those of --root, else the working directory,
// plus configured projects and file.allowed_dirs. Every path is resolved —
// made absolute, cleaned, and its symbolic links followed — before it is
// compared with the roots, so neither "..", nor an absolute path, nor a
// symlink inside a root that points outside can escape.
//
// Inside the roots, onetool's own files are refused as well (own.go): every
// path with a .onetool component, and the files and directories given to
// Protect.
//
// Which directories are roots is chosen in choose.go: / and the home
// directory are never taken as roots by themselves, and a Roots with no
// directory at all refuses every path with a NoRootError that says how to
// set one. A run may carry roots of its own on its context (NewContext):
// the roots of the MCP session it belongs to.
package roots

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ErrOutside is the cause of every refused path.
var ErrOutside = errors.New("outside the allowed roots")

// Roots is an immutable set of allowed directories, safe for concurrent use.
type Roots struct {
	base     string   // where relative paths start: the first root as given
	realBase string   // base resolved
	dirs     []string // resolved roots
	show     []string // the roots as configured, for messages
	none     string   // when dirs is empty: why there is no root (NoRootError)

	own   []own // onetool's own files and directories (Protect)
	given []Own // the same, as given
	ids   int   // how many of own have an identity to compare
}

// New returns the roots dirs; relative paths are resolved against the
// first. Roots that do not exist are kept (a project may be created
// later) and resolved as far as they exist.
func New(dirs ...string) (*Roots, error) {
	if len(dirs) == 0 {
		return nil, errors.New("roots: at least one directory is required")
	}
	r := &Roots{}
	for i, d := range dirs {
		if strings.ContainsRune(d, 0) {
			return nil, fmt.Errorf("roots: directory name contains a NUL byte: %q", d)
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("roots: %s: %w", d, err)
		}
		real, err := resolve(abs)
		if err != nil {
			return nil, fmt.Errorf("roots: %s: %w", d, err)
		}
		if i == 0 {
			r.base, r.realBase = abs, real
		}
		r.dirs = append(r.dirs, real)
		r.show = append(r.show, abs)
	}
	return r, nil
}

// Dirs returns the roots as configured (absolute); none when no root is
// set (see None).
func (r *Roots) Dirs() []string { return r.show }

// Base is the directory relative paths are resolved against.
func (r *Roots) Base() string { return r.base }

// RealBase is Base with its symbolic links resolved.
func (r *Roots) RealBase() string { return r.realBase }

// Resolve returns the real absolute path of p, or an error wrapping
// ErrOutside when it lies outside every root, or ErrProtected when it is
// one of onetool's own files or lies inside one. p need not exist: the
// part that exists is resolved and the rest appended, so a new file can be
// checked before it is created.
func (r *Roots) Resolve(p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("path contains a NUL byte: %w", ErrOutside)
	}
	if p == "" {
		return "", errors.New("empty path: give a file or directory name")
	}
	if len(r.dirs) == 0 {
		return "", &NoRootError{Why: r.none}
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(r.base, abs)
	}
	abs = filepath.Clean(abs)
	real, err := resolve(abs)
	if err != nil {
		return "", err
	}
	for _, d := range r.dirs {
		if within(real, d) {
			if err := r.refuseOwn(p, abs, real, d); err != nil {
				return "", err
			}
			return real, nil
		}
	}
	return "", &OutsideError{Path: p, Roots: r.show}
}

// OutsideError is a refused path, with the roots a user may use instead.
type OutsideError struct {
	Path  string
	Roots []string
}

func (e *OutsideError) Error() string {
	return fmt.Sprintf("path '%s' is outside the allowed roots: %s (add a project or packs.file.allowed_dirs in onetool.yaml to allow more)",
		e.Path, strings.Join(e.Roots, ", "))
}

func (e *OutsideError) Unwrap() error { return ErrOutside }

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}

// resolve follows symlinks in the longest existing prefix of the absolute,
// clean path p and appends the rest. A dangling symlink is followed to
// where it points, so it cannot be used to create a file outside.
func resolve(p string) (string, error) {
	real, err := filepath.EvalSymlinks(p)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err // too long, a loop of links, a component that is a file, …
	}
	// A dangling link: resolve its target instead of the missing name.
	if target, lerr := os.Readlink(p); lerr == nil {
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		return resolveDepth(filepath.Clean(target), 1)
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p, nil
	}
	rp, err := resolve(parent)
	if err != nil {
		return "", err
	}
	return filepath.Join(rp, filepath.Base(p)), nil
}

// resolveDepth bounds chains of dangling links.
func resolveDepth(p string, depth int) (string, error) {
	if depth > 40 {
		return "", errors.New("too many levels of symbolic links")
	}
	real, err := filepath.EvalSymlinks(p)
	if err == nil {
		return real, nil
	}
	if target, lerr := os.Readlink(p); lerr == nil {
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		return resolveDepth(filepath.Clean(target), depth+1)
	}
	return resolve(p)
}

// Location is where an allowed path lies: Root is the real path of the
// allowed root directory that holds it (the outermost one when roots nest,
// so that two paths under nested roots share one), and Rel is the path
// inside Root, "." for Root itself. Neither has symbolic links in it, so
// code that opens Root as an *os.Root and works with Rel there cannot be
// led outside by a link swapped in after the check.
type Location struct {
	Root string
	Rel  string
}

// Path returns the real absolute path of the location.
func (l Location) Path() string {
	if l.Rel == "." {
		return l.Root
	}
	return filepath.Join(l.Root, l.Rel)
}

// Locate resolves p as Resolve does and returns where it lies. It refuses
// what Resolve refuses.
func (r *Roots) Locate(p string) (Location, error) {
	real, err := r.Resolve(p)
	if err != nil {
		return Location{}, err
	}
	return r.locate(p, real)
}

// LocateEntry is Locate for operations on a directory entry itself
// (delete, rename, lstat): symbolic links in the parent directories are
// followed, but a link named by the last element stays the link, so that
// deleting a link removes the link and not what it points to. The whole
// path must still resolve inside the roots, as for Resolve: a link that
// points outside is refused, not removed.
func (r *Roots) LocateEntry(p string) (Location, error) {
	real, err := r.Resolve(p)
	if err != nil {
		return Location{}, err
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(r.base, abs)
	}
	abs = filepath.Clean(abs)
	parent := filepath.Dir(abs)
	if parent == abs {
		return r.Locate(p)
	}
	rp, err := resolve(parent)
	if err != nil {
		return Location{}, err
	}
	loc, err := r.locate(p, filepath.Join(rp, filepath.Base(abs)))
	if err != nil && slices.Contains(r.dirs, real) {
		// A root reached through a link to it: the root itself.
		return r.locate(p, real)
	}
	if err == nil {
		// The entry itself (a link named .onetool, say) is checked too,
		// not only what it points to.
		if err := r.refuseOwn(p, abs, loc.Path(), loc.Root); err != nil {
			return Location{}, err
		}
	}
	return loc, err
}

// locate finds the outermost root holding the real path.
func (r *Roots) locate(p, real string) (Location, error) {
	best := ""
	for _, d := range r.dirs {
		if within(real, d) && (best == "" || len(d) < len(best)) {
			best = d
		}
	}
	if best == "" {
		return Location{}, &OutsideError{Path: p, Roots: r.show}
	}
	rel, err := filepath.Rel(best, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return Location{}, &OutsideError{Path: p, Roots: r.show}
	}
	return Location{Root: best, Rel: rel}, nil
}
