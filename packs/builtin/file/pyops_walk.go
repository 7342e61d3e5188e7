package file

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/packs/meter"
	"github.com/onetool-dev/onetool/packs/roots"
)

// pyWalker lists directories for pyops.FileList and pyops.FileWalk: each
// entry Lstat'ed through the root's os.Root, onetool's own left out, the
// type a link points at found within the roots, every entry counted
// against MaxScan and charged to the call's meter.
type pyWalker struct {
	p       *pack
	ctx     context.Context
	m       meter.Meter
	scanned int
}

// pyEntry is one entry of a listing.
type pyEntry struct {
	m     map[string]any
	isDir bool // a directory (not a link to one)
	link  bool
	rel   string // in its root
}

// dir lists the directory rel of root (loc's), named name for messages.
func (w *pyWalker) dir(g *guard, root *os.Root, loc roots.Location, rel, name string) ([]pyEntry, error) {
	if err := w.ctx.Err(); err != nil {
		return nil, stopped(w.ctx)
	}
	limit := w.p.o.hooks.scanCap()
	des, err := readDirSorted(root, rel, limit-w.scanned+1)
	if err != nil && len(des) == 0 {
		return nil, fsErr(err, name)
	}
	out := make([]pyEntry, 0, len(des))
	for _, d := range des {
		if err := w.ctx.Err(); err != nil {
			return nil, stopped(w.ctx)
		}
		if w.scanned++; w.scanned > limit {
			return nil, kinded(pyops.ErrTooLarge, "%s has more than %d entries below it, more than the file pack looks at in one listing: list a smaller part", name, limit)
		}
		child := filepath.Join(rel, d.Name())
		if g.entry(child) {
			continue
		}
		if err := w.m.Charge(entryCost(d.Name())); err != nil {
			return nil, err
		}
		st, err := root.Lstat(child)
		if err != nil {
			continue // gone since the listing
		}
		e := entryOf(st)
		e["name"] = d.Name()
		pe := pyEntry{m: e, isDir: st.IsDir(), rel: child}
		if st.Mode()&fs.ModeSymlink != 0 {
			pe.link = true
			e["target_type"] = w.p.targetType(filepath.Join(loc.Root, child))
		}
		out = append(out, pe)
	}
	return out, nil
}

// pyWalk is pyops.FileWalk: the tree under a directory, top down, for
// os.walk, glob and Path.rglob. It walks what Python sees (.git and
// node_modules too) but never onetool's own files; links are followed
// only with follow_links, then each target is checked within the roots
// and each directory visited once, so a loop of links ends.
func (p *pack) pyWalk(ctx context.Context, args map[string]any) (any, error) {
	dir, err := strArg(args, "path")
	if err != nil {
		return nil, err
	}
	follow, err := boolArg(args, "follow_links", false)
	if err != nil {
		return nil, err
	}
	maxDepth, err := intArg(args, "max_depth", 0, 0)
	if err != nil {
		return nil, err
	}
	loc, root, st, err := p.dirTarget(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if !st.IsDir() {
		return nil, kinded(pyops.ErrNotDir, "%s is a file, not a directory", dir)
	}
	w := &pyWalker{p: p, ctx: ctx, m: meter.From(ctx)}
	type dirID struct{ dev, ino int64 }
	visited := map[dirID]bool{}
	idOf := func(fi fs.FileInfo) dirID {
		ino, dev, _, _, _, _ := sysStat(fi)
		return dirID{dev, ino}
	}
	visited[idOf(st)] = true
	opened := map[string]*os.Root{loc.Root: root}
	defer func() {
		for r, o := range opened {
			if r != loc.Root {
				o.Close()
			}
		}
	}()
	var out []any
	// visit lists rel (in the root of l) and what is below it, its
	// entries named below prefix ("" at the top).
	var visit func(l roots.Location, rel, prefix string, depth int) error
	visit = func(l roots.Location, rel, prefix string, depth int) error {
		r := opened[l.Root]
		g := p.guardFor(l)
		entries, err := w.dir(g, r, l, rel, dir+"/"+prefix)
		if err != nil {
			if prefix != "" && isFSError(err) {
				return nil // an unreadable directory below the top: os.walk goes on
			}
			return err // the top's, the cap's, the meter's, a cancellation
		}
		for _, e := range entries {
			sub := prefix + e.m["name"].(string)
			e.m["rel"] = sub
			out = append(out, e.m)
			if maxDepth > 0 && depth >= maxDepth {
				continue
			}
			switch {
			case e.isDir:
				fi, err := r.Lstat(e.rel)
				if err != nil {
					continue
				}
				id := idOf(fi)
				if visited[id] {
					continue
				}
				visited[id] = true
				if err := visit(l, e.rel, sub+"/", depth+1); err != nil {
					return err
				}
			case e.link && follow && e.m["target_type"] == "dir":
				// The target, within the roots (targetType said so), as a
				// root of its own location: never through the link.
				tl, err := p.o.Roots.Locate(filepath.Join(l.Root, e.rel))
				if err != nil {
					continue
				}
				tr, ok := opened[tl.Root]
				if !ok {
					if tr, err = openRoot(tl); err != nil {
						continue
					}
					opened[tl.Root] = tr
				}
				fi, err := tr.Stat(tl.Rel)
				if err != nil || !fi.IsDir() {
					continue
				}
				id := idOf(fi)
				if visited[id] {
					continue // a loop of links, or a directory seen already
				}
				visited[id] = true
				if err := visit(tl, tl.Rel, sub+"/", depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := visit(loc, loc.Rel, "", 1); err != nil {
		return nil, err
	}
	if out == nil {
		out = []any{}
	}
	return map[string]any{"entries": out}, nil
}

// isFSError reports whether err is one fsErr worded.
func isFSError(err error) bool {
	_, ok := err.(*worded)
	return ok
}
