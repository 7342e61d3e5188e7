package stdlib

import (
	"strings"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// The matching of glob.glob/iglob and of pathlib's Path.glob/rglob
// (CPython 3.11), over a GlobFS that the module owning the file
// operations provides: the names of a pattern's components are matched
// with fnmatch's wildcards (parseGlob, globMatch), and the two functions
// follow their own rules for the rest:
//   - glob: a wildcard does not match a name that begins with "." unless
//     the pattern's component does or include_hidden; "**" is any number
//     of directories only with recursive; results are the pattern's
//     dirname joined with each name, in the listing's order, repeats kept.
//   - Path.glob: wildcards match hidden names; "**" is always recursive,
//     does not follow links to directories, and gives each path once; a
//     pattern ending in "/" selects directories.

// GlobEntry is an entry of a listed directory.
type GlobEntry struct {
	Name   string
	IsDir  bool // a directory, or a link to one
	IsLink bool
}

// GlobFS is the file system a glob reads. A path is as the pattern
// spells it, "" for the current directory. A directory that is missing
// or cannot be listed lists nothing (CPython ignores those errors);
// an error returned ends the glob (a budget, a cancellation, a refusal
// the program must see).
type GlobFS interface {
	Scan(dir string) ([]GlobEntry, error)
	Lexists(path string) (bool, error)
	IsDir(path string) (bool, error)
}

// GlobMagic is glob.has_magic: s has a *, ? or [.
func GlobMagic(s string) bool { return strings.ContainsAny(s, "*?[") }

// globHidden is glob._ishidden.
func globHidden(s string) bool { return strings.HasPrefix(s, ".") }

// globJoin is glob._join: os.path.join unless either is empty.
func globJoin(dir, name string) string {
	if dir == "" || name == "" {
		return dir + name
	}
	return joinPaths(dir, []string{name})
}

// Glob is glob.glob(pathname, root_dir=root, recursive=, include_hidden=)
// over fs: root "" is none (fs sees paths as the pattern spells them).
func Glob(b *interp.Budget, fs GlobFS, pathname, root string, recursive, includeHidden bool) ([]string, error) {
	g := &globber{b: b, fs: fs, recursive: recursive, hidden: includeHidden}
	out, err := g.iglob(pathname, root, false)
	if err != nil {
		return nil, err
	}
	if (pathname == "" || recursive && strings.HasPrefix(pathname, "**")) && len(out) > 0 && out[0] == "" {
		out = out[1:] // iglob skips the empty first result of "**"
	}
	return out, nil
}

type globber struct {
	b                 *interp.Budget
	fs                GlobFS
	recursive, hidden bool
}

// iglob is glob._iglob, collecting.
func (g *globber) iglob(pathname, root string, dirsOnly bool) ([]string, error) {
	if err := g.b.Charge(uint64(len(pathname))/16 + 1); err != nil {
		return nil, err
	}
	dirname, basename := splitPath(pathname)
	if !GlobMagic(pathname) {
		var ok bool
		var err error
		if basename != "" {
			ok, err = g.fs.Lexists(globJoin(root, pathname))
		} else {
			ok, err = g.fs.IsDir(globJoin(root, dirname))
		}
		if err != nil || !ok {
			return nil, err
		}
		return []string{pathname}, nil
	}
	if dirname == "" {
		if g.recursive && basename == "**" {
			return g.glob2(root, dirsOnly)
		}
		return g.glob1(root, basename, dirsOnly)
	}
	dirs := []string{dirname}
	if dirname != pathname && GlobMagic(dirname) {
		var err error
		if dirs, err = g.iglob(dirname, root, true); err != nil {
			return nil, err
		}
	}
	var out []string
	for _, d := range dirs {
		var names []string
		var err error
		switch {
		case !GlobMagic(basename):
			names, err = g.glob0(globJoin(root, d), basename)
		case g.recursive && basename == "**":
			names, err = g.glob2(globJoin(root, d), dirsOnly)
		default:
			names, err = g.glob1(globJoin(root, d), basename, dirsOnly)
		}
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			if err := g.b.Alloc(int64(len(d) + len(n) + 1)); err != nil {
				return nil, err
			}
			out = append(out, joinPaths(d, []string{n}))
		}
	}
	return out, nil
}

// list is glob._listdir: the names in dir, of directories only if asked.
func (g *globber) list(dir string, dirsOnly bool) ([]string, error) {
	entries, err := g.fs.Scan(dir)
	if err != nil {
		return nil, err
	}
	if err := g.b.Charge(uint64(len(entries)) + 1); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if !dirsOnly || e.IsDir {
			names = append(names, e.Name)
		}
	}
	return names, nil
}

// glob1 is glob._glob1: the names in dir that the pattern matches.
func (g *globber) glob1(dir, pattern string, dirsOnly bool) ([]string, error) {
	names, err := g.list(dir, dirsOnly)
	if err != nil {
		return nil, err
	}
	items := parseGlob(pattern)
	skipHidden := !g.hidden && !globHidden(pattern)
	var out []string
	for _, n := range names {
		if skipHidden && globHidden(n) {
			continue
		}
		ok, err := globMatch(g.b, items, n)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, n)
		}
	}
	return out, nil
}

// glob0 is glob._glob0: the literal name if it exists ("" for dir
// itself when it is a directory).
func (g *globber) glob0(dir, name string) ([]string, error) {
	var ok bool
	var err error
	if name != "" {
		ok, err = g.fs.Lexists(globJoin(dir, name))
	} else {
		ok, err = g.fs.IsDir(dir)
	}
	if err != nil || !ok {
		return nil, err
	}
	return []string{name}, nil
}

// glob2 is glob._glob2: "" and every path under dir, depth first.
func (g *globber) glob2(dir string, dirsOnly bool) ([]string, error) {
	out := []string{""}
	return g.rlist(dir, "", dirsOnly, out)
}

// rlist is glob._rlistdir, appending to out the paths under dir, spelt
// from prefix.
func (g *globber) rlist(dir, prefix string, dirsOnly bool, out []string) ([]string, error) {
	names, err := g.list(dir, dirsOnly)
	if err != nil {
		return nil, err
	}
	for _, x := range names {
		if !g.hidden && globHidden(x) {
			continue
		}
		rel := globJoin(prefix, x)
		if err := g.b.Alloc(int64(len(rel))); err != nil {
			return nil, err
		}
		out = append(out, rel)
		sub := x
		if dir != "" {
			sub = globJoin(dir, x)
		}
		if out, err = g.rlist(sub, rel, dirsOnly, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// PathGlob is Path(dir).glob(pattern) (rglob: recursive, as "**/" before
// the pattern) over fs: the paths found, spelt from dir ("" for "."),
// each once.
func PathGlob(b *interp.Budget, fs GlobFS, dir, pattern string, rglob bool) ([]string, error) {
	if pattern == "" && !rglob {
		return nil, pyrt.Errorf("ValueError", "Unacceptable pattern: ''")
	}
	root, parts := parsePathParts([]string{pattern})
	if root != "" {
		return nil, pyrt.Errorf("NotImplementedError", "Non-relative patterns are unsupported")
	}
	if strings.HasSuffix(pattern, "/") {
		parts = append(parts, "")
	}
	if rglob {
		parts = append([]string{"**"}, parts...)
	}
	for _, p := range parts {
		if p != "**" && strings.Contains(p, "**") {
			return nil, pyrt.Errorf("ValueError", "Invalid pattern: '**' can only be an entire path component")
		}
	}
	ok, err := fs.IsDir(dir)
	if err != nil || !ok {
		return nil, err
	}
	s := &selector{b: b, fs: fs}
	var out []string
	err = s.from(dir, parts, func(p string) error {
		out = append(out, p)
		return b.Alloc(int64(len(p)))
	})
	return out, err
}

type selector struct {
	b  *interp.Budget
	fs GlobFS
}

// from is pathlib's _make_selector(parts)._select_from(dir), calling
// yield for each path.
func (s *selector) from(dir string, parts []string, yield func(string) error) error {
	if err := s.b.Charge(1); err != nil {
		return err
	}
	if len(parts) == 0 || parts[0] == "" {
		return yield(dir)
	}
	pat, rest := parts[0], parts[1:]
	dirsOnly := len(rest) > 0
	switch {
	case pat == "**":
		seen := map[string]bool{}
		return s.dirs(dir, func(start string) error {
			return s.from(start, rest, func(p string) error {
				if seen[p] {
					return nil
				}
				seen[p] = true
				return yield(p)
			})
		})
	case strings.ContainsAny(pat, "*?["):
		entries, err := s.fs.Scan(dir)
		if err != nil {
			return err
		}
		items := parseGlob(pat)
		for _, e := range entries {
			if dirsOnly && !e.IsDir {
				continue
			}
			ok, err := globMatch(s.b, items, e.Name)
			if err != nil {
				return err
			}
			if ok {
				if err := s.from(pathChild(dir, e.Name), rest, yield); err != nil {
					return err
				}
			}
		}
		return nil
	default:
		p := pathChild(dir, pat)
		var ok bool
		var err error
		if dirsOnly {
			ok, err = s.fs.IsDir(p)
		} else {
			ok, err = s.fs.Lexists(p)
		}
		if err != nil || !ok {
			return err
		}
		return s.from(p, rest, yield)
	}
}

// dirs is _RecursiveWildcardSelector._iterate_directories: dir and the
// directories under it, not through links.
func (s *selector) dirs(dir string, yield func(string) error) error {
	if err := yield(dir); err != nil {
		return err
	}
	entries, err := s.fs.Scan(dir)
	if err != nil {
		return err
	}
	if err := s.b.Charge(uint64(len(entries)) + 1); err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir && !e.IsLink {
			if err := s.dirs(pathChild(dir, e.Name), yield); err != nil {
				return err
			}
		}
	}
	return nil
}

// pathChild is a path's child as pathlib spells it ("." is no prefix).
func pathChild(dir, name string) string {
	if dir == "" || dir == "." {
		return name
	}
	return joinPaths(dir, []string{name})
}
