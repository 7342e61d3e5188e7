package file

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs/roots"
)

// skipDirs are not entered by tree, glob and grep unless named: they are
// big and rarely what a search is after.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, "node_modules": true, "__pycache__": true,
	".venv": true, ".mypy_cache": true, ".pytest_cache": true, ".tox": true,
}

// skipped reports whether a walk should not enter the directory rel
// (relative to the root, slash-separated). mentioned says whether the
// search names it.
func skipped(rel string, mentioned func(string) bool) bool {
	name := lastElem(rel)
	return skipDirs[name] && (mentioned == nil || !mentioned(name))
}

// lastElem returns the last element of a slash-separated path.
func lastElem(rel string) string {
	return rel[strings.LastIndexByte(rel, '/')+1:]
}

// dirTarget locates a directory argument and opens its root.
func (p *pack) dirTarget(dir string) (roots.Location, *os.Root, fs.FileInfo, error) {
	loc, err := p.locate(dir, false)
	if err != nil {
		return loc, nil, nil, err
	}
	root, err := openRoot(loc)
	if err != nil {
		return loc, nil, nil, err
	}
	st, err := root.Stat(loc.Rel)
	if err != nil {
		root.Close()
		return loc, nil, nil, fsErr(err, dir)
	}
	return loc, root, st, nil
}

// prefixFor returns what results put before a path relative to dir.
func prefixFor(dir string) string {
	c := filepath.ToSlash(filepath.Clean(dir))
	if c == "." {
		return ""
	}
	return strings.TrimSuffix(c, "/") + "/"
}

// limitArg reads a `limit`, clamped to MaxEntries.
func limitArg(args map[string]any, def int) (int, error) {
	n, err := intArg(args, "limit", def, 1)
	return min(n, MaxEntries), err
}

// moreNote is the last element of a capped listing.
func moreNote(more int, capped bool, one, many, hint string) string {
	at := ""
	if capped {
		at = "at least "
	}
	return fmt.Sprintf("… %s%s: %s", at, plural(more, "more "+one, "more "+many), hint)
}

// list lists one directory.
func (p *pack) list(ctx context.Context, args map[string]any) (any, error) {
	dir, err := optStr(args, "path", ".")
	if err != nil {
		return nil, err
	}
	pattern, err := optStr(args, "pattern", "")
	if err != nil {
		return nil, err
	}
	details, err := boolArg(args, "details", false)
	if err != nil {
		return nil, err
	}
	limit, err := limitArg(args, 1000)
	if err != nil {
		return nil, err
	}
	var pat *globPattern
	if pattern != "" {
		if pat, err = compileGlob(pattern, "pattern"); err != nil {
			return nil, err
		}
		if !pat.baseOnly {
			return nil, fmt.Errorf("file.list's pattern matches names in one directory, like \"*.go\": use file.glob(pattern=%q, path=%q) for paths", pattern, dir)
		}
	}
	loc, root, st, err := p.dirTarget(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is a file, not a directory: use file.info or file.read", dir)
	}
	f, err := root.Open(loc.Rel)
	if err != nil {
		return nil, fsErr(err, dir)
	}
	defer f.Close()
	g := p.guardFor(loc)
	if err := g.opened(f, nil, dir); err != nil {
		return nil, err
	}
	var entries []fs.DirEntry
	capped, scanned := false, 0
	for {
		if err := ctx.Err(); err != nil {
			return nil, stopped(ctx)
		}
		batch, err := f.ReadDir(1024)
		scanned += len(batch)
		for _, e := range batch {
			if (pat == nil || pat.match(e.Name(), e.IsDir())) && !g.entry(filepath.Join(loc.Rel, e.Name())) {
				entries = append(entries, e)
			}
		}
		if err == io.EOF || len(batch) == 0 {
			break
		}
		if err != nil {
			return nil, fsErr(err, dir)
		}
		if scanned >= MaxScan {
			capped = true
			break
		}
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	out := []any{}
	for i, e := range entries {
		if i == limit {
			hint := "narrow with pattern= (e.g. \"*.go\") or raise limit"
			out = append(out, moreNote(len(entries)-limit, capped, "entry", "entries", hint))
			break
		}
		if !details {
			name := e.Name()
			if e.IsDir() {
				name += "/"
			}
			out = append(out, name)
			continue
		}
		m := ordered.NewMap(4)
		m.Set("name", e.Name())
		info, err := root.Lstat(filepath.Join(loc.Rel, e.Name()))
		if err != nil {
			m.Set("type", kind(e.Type()))
			m.Set("size", nil)
			m.Set("modified", nil)
		} else {
			m.Set("type", kind(info.Mode()))
			if info.Mode().IsRegular() {
				m.Set("size", info.Size())
			} else {
				m.Set("size", nil)
			}
			m.Set("modified", isoTime(info.ModTime()))
		}
		out = append(out, m)
	}
	return out, nil
}

func isoTime(t time.Time) string {
	return t.UTC().Format(time.RFC3339)
}

// readDirSorted reads a directory's entries, sorted, at most max of them.
func readDirSorted(root *os.Root, rel string, max int) ([]fs.DirEntry, error) {
	f, err := root.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var entries []fs.DirEntry
	for len(entries) < max {
		batch, err := f.ReadDir(min(1024, max-len(entries)))
		entries = append(entries, batch...)
		if err == io.EOF || len(batch) == 0 {
			break
		}
		if err != nil {
			return entries, err
		}
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// tree draws a directory tree as indented text.
func (p *pack) tree(ctx context.Context, args map[string]any) (any, error) {
	dir, err := optStr(args, "path", ".")
	if err != nil {
		return nil, err
	}
	depth, err := intArg(args, "depth", 3, 1)
	if err != nil {
		return nil, err
	}
	depth = min(depth, 50)
	limit, err := limitArg(args, 500)
	if err != nil {
		return nil, err
	}
	useIgnore, err := boolArg(args, "gitignore", true)
	if err != nil {
		return nil, err
	}
	loc, root, st, err := p.dirTarget(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is a file, not a directory: use file.info or file.read", dir)
	}
	w := &treeWalk{ctx: ctx, g: p.guardFor(loc), root: root, depth: depth, limit: limit}
	if useIgnore {
		w.ig = newIgnorer(ctx, w.g, root, filepath.ToSlash(loc.Rel))
	}
	top := filepath.ToSlash(filepath.Clean(dir))
	w.out.WriteString(strings.TrimSuffix(top, "/") + "/\n")
	if top == "/" {
		w.out.Reset()
		w.out.WriteString("/\n")
	}
	if err := w.walk(filepath.ToSlash(loc.Rel), 1); err != nil {
		return nil, err
	}
	if w.more > 0 {
		w.out.WriteString(moreNote(w.more, w.capped, "entry", "entries", "lower depth= or pass a subdirectory as path"))
		w.out.WriteByte('\n')
	}
	if w.hidden > 0 {
		fmt.Fprintf(&w.out, "(%s ignored by .gitignore not shown: gitignore=False shows them)\n", plural(w.hidden, "entry", "entries"))
	}
	return strings.TrimSuffix(w.out.String(), "\n"), nil
}

type treeWalk struct {
	ctx          context.Context
	g            *guard // onetool's own entries are not shown
	root         *os.Root
	depth, limit int
	out          strings.Builder
	shown, more  int
	hidden       int // left out by .gitignore
	scanned      int
	capped       bool
	ig           *ignorer // nil: .gitignore files are not read
}

func (w *treeWalk) walk(rel string, level int) error {
	if err := w.ctx.Err(); err != nil {
		return stopped(w.ctx)
	}
	entries, err := readDirSorted(w.root, filepath.FromSlash(rel), MaxScan-w.scanned)
	if err != nil && len(entries) == 0 {
		if w.shown < w.limit {
			fmt.Fprintf(&w.out, "%s(unreadable: %v)\n", strings.Repeat("  ", level), unwrapPath(err))
		}
		return nil
	}
	for _, e := range entries {
		if err := w.ctx.Err(); err != nil {
			return stopped(w.ctx)
		}
		if w.scanned++; w.scanned >= MaxScan {
			w.capped = true
			return nil
		}
		child := e.Name()
		if rel != "." {
			child = rel + "/" + e.Name()
		}
		if w.g.entry(child) {
			continue
		}
		isDir := e.IsDir()
		if w.ig.ignored(child, isDir) {
			w.hidden++
			continue
		}
		if w.shown >= w.limit {
			w.more++
		} else {
			w.shown++
			line := strings.Repeat("  ", level) + e.Name()
			switch {
			case isDir && skipped(child, nil):
				line += "/ (not shown)"
			case isDir && level >= w.depth:
				line += "/ …"
			case isDir:
				line += "/"
			case e.Type()&fs.ModeSymlink != 0:
				if target, err := w.root.Readlink(filepath.FromSlash(child)); err == nil {
					line += " -> " + target
				}
			}
			w.out.WriteString(line)
			w.out.WriteByte('\n')
		}
		if isDir && level < w.depth && !skipped(child, nil) {
			if w.ig != nil {
				w.ig.enter(child)
			}
			if err := w.walk(child, level+1); err != nil {
				return err
			}
			if w.capped {
				return nil
			}
		}
	}
	return nil
}

// walkFn is called for each entry below the start of a walk, with its
// path relative to the root and relative to the start (slash-separated).
type walkFn func(rel, sub string, d fs.DirEntry) error

// walk visits the tree under start (relative to root, slash-separated)
// without following symbolic links, checking ctx and counting entries.
// onetool's own entries (g) and those ignore (optional) names are left out
// altogether: they are neither passed to fn nor entered; enter says
// whether to go into a directory (fn still sees one it does not enter).
// It reports whether MaxScan stopped it.
func walk(ctx context.Context, g *guard, root *os.Root, start string, enter func(rel, sub string) bool, ignore func(rel string, d fs.DirEntry) bool, fn walkFn) (capped bool, err error) {
	scanned := 0
	err = fs.WalkDir(root.FS(), start, func(rel string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return stopped(ctx)
		}
		if err != nil {
			if rel == start {
				return err
			}
			return nil // an unreadable directory: go on without it
		}
		if rel == start {
			return nil
		}
		if scanned++; scanned > MaxScan {
			capped = true
			return fs.SkipAll
		}
		if g.entry(rel) || ignore != nil && ignore(rel, d) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		sub := rel
		if start != "." {
			sub = rel[len(start)+1:]
		}
		if d.IsDir() && !enter(rel, sub) {
			if err := fn(rel, sub, d); err != nil {
				return err
			}
			return fs.SkipDir
		}
		return fn(rel, sub, d)
	})
	return capped, err
}

// glob finds paths matching a pattern.
func (p *pack) glob(ctx context.Context, args map[string]any) (any, error) {
	pattern, err := strArg(args, "pattern")
	if err != nil {
		return nil, err
	}
	dir, err := optStr(args, "path", ".")
	if err != nil {
		return nil, err
	}
	limit, err := limitArg(args, 1000)
	if err != nil {
		return nil, err
	}
	useIgnore, err := boolArg(args, "gitignore", true)
	if err != nil {
		return nil, err
	}
	g, err := compileGlob(pattern, "pattern")
	if err != nil {
		return nil, err
	}
	maxDepth := g.maxDepth()
	loc, root, st, err := p.dirTarget(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if !st.IsDir() {
		return nil, fmt.Errorf("path %s is a file, not a directory: glob searches under a directory", dir)
	}
	start := filepath.ToSlash(loc.Rel)
	own := p.guardFor(loc)
	var ig *ignorer
	if useIgnore {
		ig = newIgnorer(ctx, own, root, start)
	}
	prefix := prefixFor(dir)
	var found []string
	more := 0
	enter := func(rel, sub string) bool {
		if skipped(rel, g.mentions) {
			return false
		}
		if maxDepth >= 0 && strings.Count(sub, "/")+1 >= maxDepth {
			return false
		}
		if !g.mayMatchUnder(sub) {
			return false
		}
		if ig != nil {
			ig.enter(rel)
		}
		return true
	}
	capped, err := walk(ctx, own, root, start, enter, ig.filter(), func(rel, sub string, d fs.DirEntry) error {
		if !g.match(sub, d.IsDir()) {
			return nil
		}
		if len(found) >= limit {
			more++
			return nil
		}
		name := prefix + sub
		if d.IsDir() {
			name += "/"
		}
		found = append(found, name)
		return nil
	})
	if err != nil {
		return nil, walkErr(err, dir)
	}
	slices.Sort(found)
	out := make([]any, 0, len(found)+1)
	for _, f := range found {
		out = append(out, f)
	}
	if more > 0 || capped && len(found) >= limit {
		out = append(out, moreNote(more, capped, "match", "matches", "narrow the pattern or path, or raise limit"))
	} else if capped {
		out = append(out, fmt.Sprintf("… stopped after looking at %d entries: narrow the pattern or path", MaxScan))
	}
	return out, nil
}

func walkErr(err error, dir string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fsErr(err, dir)
	}
	return err
}
