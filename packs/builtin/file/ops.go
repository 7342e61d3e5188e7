package file

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs/roots"
)

// info describes a path; a missing one is {"path": p, "exists": False}.
func (p *pack) info(_ context.Context, args map[string]any) (any, error) {
	path, err := strArg(args, "path")
	if err != nil {
		return nil, err
	}
	loc, err := p.locate(path, true)
	if err != nil {
		return nil, err
	}
	root, err := openRoot(loc)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	m := ordered.NewMap(12)
	m.Set("path", path)
	st, err := lstat(root, loc.Rel, path)
	if err != nil {
		return nil, err
	}
	if st == nil {
		m.Set("exists", false)
		return m, nil
	}
	m.Set("exists", true)
	m.Set("type", kind(st.Mode()))
	target := st // what a link points to
	if st.Mode()&fs.ModeSymlink != 0 {
		if target, err = root.Stat(loc.Rel); err != nil {
			target = nil // dangling
		}
	}
	if target != nil && target.Mode().IsRegular() {
		m.Set("size", target.Size())
	} else {
		m.Set("size", nil)
	}
	m.Set("mode", fmt.Sprintf("%04o", st.Mode().Perm()))
	m.Set("modified", isoTime(st.ModTime()))
	m.Set("is_dir", target != nil && target.IsDir())
	m.Set("is_file", target != nil && target.Mode().IsRegular())
	m.Set("is_link", st.Mode()&fs.ModeSymlink != 0)
	if st.Mode()&fs.ModeSymlink != 0 {
		link, _ := root.Readlink(loc.Rel)
		m.Set("target", link)
	}
	real := loc.Path()
	if r, err := p.o.Roots.Resolve(path); err == nil {
		real = r
	}
	m.Set("real_path", real)
	return m, nil
}

// refuseRoot refuses operations on a whole allowed root.
func refuseRoot(tool string, loc roots.Location, name string) error {
	if loc.Rel == "." {
		return fmt.Errorf("%s is an allowed root (%s): file.%s does not work on a whole root; name something inside it", name, loc.Root, tool)
	}
	return nil
}

// refuseHolder refuses to move or delete the directory at loc (named
// name) when one of onetool's own files lies inside it: the protected paths are
// compared first, then the tree is walked for a .onetool entry. The walk
// is not capped by MaxScan (a delete is not either) but stops with ctx.
// An unreadable directory is passed over: nothing in it can be moved or
// deleted through the pack's walk either.
func (p *pack) refuseHolder(ctx context.Context, root *os.Root, loc roots.Location, name string) error {
	if err := p.o.Roots.CheckHolds(name, loc.Path()); err != nil {
		return err
	}
	start := filepath.ToSlash(loc.Rel)
	found := ""
	err := fs.WalkDir(root.FS(), start, func(rel string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return stopped(ctx)
		}
		if err != nil {
			if rel == start {
				return err
			}
			return nil
		}
		if rel != start && roots.IsConfigDirName(d.Name()) {
			found = rel
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		return walkErr(err, name)
	}
	if found != "" {
		own := filepath.Join(loc.Root, filepath.FromSlash(found))
		return &roots.ProtectedError{Path: name, Own: own, What: "configuration directory", How: roots.OwnHolds}
	}
	return nil
}

// delete removes a file, a link, or a directory.
func (p *pack) delete(ctx context.Context, args map[string]any) (any, error) {
	if err := p.modifying("delete"); err != nil {
		return nil, err
	}
	path, err := strArg(args, "path")
	if err != nil {
		return nil, err
	}
	recursive, err := boolArg(args, "recursive", false)
	if err != nil {
		return nil, err
	}
	loc, err := p.locate(path, true)
	if err != nil {
		return nil, err
	}
	if err := refuseRoot("delete", loc, path); err != nil {
		return nil, err
	}
	root, err := openRoot(loc)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	st, err := lstat(root, loc.Rel, path)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return nil, fmt.Errorf("%s does not exist: nothing to delete (check the name with file.list)", path)
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		if err := root.Remove(loc.Rel); err != nil {
			return nil, fsErr(err, path)
		}
		return fmt.Sprintf("deleted the link %s (what it points to is untouched)", path), nil
	case st.IsDir():
		entries, err := readDirSorted(root, loc.Rel, 1)
		if err != nil {
			return nil, fsErr(err, path)
		}
		if len(entries) == 0 {
			if err := root.Remove(loc.Rel); err != nil {
				return nil, fsErr(err, path)
			}
			return fmt.Sprintf("deleted the empty directory %s", path), nil
		}
		if !recursive {
			return nil, fmt.Errorf("%s is a directory that is not empty: pass recursive=True to delete it with everything in it%s", path, p.keptHint())
		}
		if err := p.refuseHolder(ctx, root, loc, path); err != nil {
			return nil, err
		}
	case !st.Mode().IsRegular():
		if err := root.Remove(loc.Rel); err != nil {
			return nil, fsErr(err, path)
		}
		return fmt.Sprintf("deleted %s (a %s)", path, kind(st.Mode())), nil
	}
	saved, err := p.backup(ctx, root, loc.Root, loc.Rel, path, "delete", backupMove)
	if err != nil {
		return nil, err
	}
	if saved == "" {
		if st.IsDir() {
			err = root.RemoveAll(loc.Rel)
		} else {
			err = root.Remove(loc.Rel)
		}
		if err != nil {
			return nil, fsErr(err, path)
		}
	}
	what := "deleted " + path
	if st.IsDir() {
		what = "deleted the directory " + path + " and everything in it"
	}
	return what + backupNote(saved), nil
}

func (p *pack) keptHint() string {
	if p.o.Backups {
		return " (a backup is kept in " + BackupDir + ")"
	}
	return ""
}

// pair is the source and destination of a copy or move.
type pair struct {
	src, dst     string // as given (dst with the source's name added when it is a directory), for messages
	sloc, dloc   roots.Location
	sroot, droot *os.Root
	sst          fs.FileInfo
	dst0         fs.FileInfo // the destination before, nil if new
	sameRoot     bool
}

func (pr *pair) close() {
	if pr.sroot != nil {
		pr.sroot.Close()
	}
	if pr.droot != nil && !pr.sameRoot {
		pr.droot.Close()
	}
}

// setDst makes loc the destination, opening its root unless it is the
// source's.
func (pr *pair) setDst(loc roots.Location) error {
	if pr.droot != nil && !pr.sameRoot {
		pr.droot.Close()
	}
	pr.droot, pr.dloc = nil, loc
	pr.sameRoot = loc.Root == pr.sloc.Root
	if pr.sameRoot {
		pr.droot = pr.sroot
		return nil
	}
	var err error
	pr.droot, err = openRoot(loc)
	return err
}

// prepare locates both paths, applies "into an existing directory", and
// checks what copy and move refuse alike. srcEntry keeps a link named as
// the source the link itself (move).
func (p *pack) prepare(tool string, args map[string]any, srcEntry bool) (*pair, error) {
	src, err := strArg(args, "src")
	if err != nil {
		return nil, err
	}
	dst, err := strArg(args, "dst")
	if err != nil {
		return nil, err
	}
	overwrite, err := boolArg(args, "overwrite", false)
	if err != nil {
		return nil, err
	}
	pr := &pair{src: src, dst: dst}
	if pr.sloc, err = p.locate(src, srcEntry); err != nil {
		return nil, err
	}
	dloc, err := p.locate(dst, false)
	if err != nil {
		return nil, err
	}
	if pr.sroot, err = openRoot(pr.sloc); err != nil {
		return nil, err
	}
	fail := func(err error) (*pair, error) {
		pr.close()
		return nil, err
	}
	if err := pr.setDst(dloc); err != nil {
		return fail(err)
	}
	if srcEntry {
		pr.sst, err = pr.sroot.Lstat(pr.sloc.Rel)
	} else {
		pr.sst, err = pr.sroot.Stat(pr.sloc.Rel)
	}
	if err != nil {
		return fail(fsErr(err, src))
	}
	// Into an existing directory, or one named with a trailing slash.
	into := strings.HasSuffix(dst, "/") || strings.HasSuffix(dst, string(filepath.Separator))
	if d, err := pr.droot.Stat(pr.dloc.Rel); err == nil && d.IsDir() {
		into = true
	}
	if into {
		base := filepath.Base(pr.sloc.Rel)
		if pr.sloc.Rel == "." {
			base = filepath.Base(pr.sloc.Root)
		}
		pr.dst = strings.TrimRight(dst, "/"+string(filepath.Separator)) + "/" + base
		loc, err := p.locate(pr.dst, false)
		if err != nil {
			return fail(err)
		}
		if err := pr.setDst(loc); err != nil {
			return fail(err)
		}
	}
	if pr.dloc.Rel == "." {
		return fail(fmt.Errorf("%s is an allowed root: file.%s cannot replace it; name a path inside it", pr.dst, tool))
	}
	if pr.sameRoot && pr.sst.IsDir() && (pr.dloc.Rel == pr.sloc.Rel || pr.sloc.Rel == "." || strings.HasPrefix(pr.dloc.Rel, pr.sloc.Rel+string(filepath.Separator))) {
		return fail(fmt.Errorf("cannot %s the directory %s into itself (%s)", tool, src, pr.dst))
	}
	if pr.dst0, err = lstat(pr.droot, pr.dloc.Rel, pr.dst); err != nil {
		return fail(err)
	}
	if d := pr.dst0; d != nil {
		caseRename := tool == "move" && pr.sameRoot && pr.dloc.Rel != pr.sloc.Rel && os.SameFile(d, pr.sst)
		switch {
		case caseRename: // a.txt → A.txt on a file system that ignores case
			pr.dst0 = nil
		case pr.sameRoot && pr.dloc.Rel == pr.sloc.Rel || os.SameFile(d, pr.sst):
			return fail(fmt.Errorf("%s and %s are the same file: nothing to %s", src, pr.dst, tool))
		case d.IsDir():
			return fail(fmt.Errorf("%s is an existing directory: file.%s does not merge or replace directories; delete it first or choose another name", pr.dst, tool))
		case !d.Mode().IsRegular() && d.Mode()&fs.ModeSymlink == 0:
			return fail(notRegular(pr.dst, d.Mode()))
		case pr.sst.IsDir():
			return fail(fmt.Errorf("%s exists and is a file: cannot replace it with the directory %s", pr.dst, src))
		case !overwrite:
			return fail(fmt.Errorf("%s already exists: pass overwrite=True to replace it%s", pr.dst, p.keptHint()))
		}
	}
	return pr, nil
}

// copy copies a file, or a directory with what is in it.
func (p *pack) copy(ctx context.Context, args map[string]any) (any, error) {
	if err := p.modifying("copy"); err != nil {
		return nil, err
	}
	pr, err := p.prepare("copy", args, false)
	if err != nil {
		return nil, err
	}
	defer pr.close()
	if err := mkdirParents(pr.droot, pr.dloc.Rel, pr.dst); err != nil {
		return nil, err
	}
	switch {
	case pr.sst.Mode().IsRegular():
		if pr.sst.Size() > MaxCopy {
			return nil, fmt.Errorf("%s is %s, more than the %s file.copy copies", pr.src, formatBytes(pr.sst.Size()), formatBytes(MaxCopy))
		}
		saved := ""
		if pr.dst0 != nil {
			if saved, err = p.backup(ctx, pr.droot, pr.dloc.Root, pr.dloc.Rel, pr.dst, "copy", backupLink); err != nil {
				return nil, err
			}
		}
		n, err := copyFile(ctx, p.o.hooks, p.guardFor(pr.sloc), pr.sroot, pr.sloc.Rel, pr.src, p.guardFor(pr.dloc), pr.droot, pr.dloc.Rel, pr.dst)
		if err != nil {
			return nil, err
		}
		return fmt.Sprintf("copied %s to %s (%s)%s", pr.src, pr.dst, formatBytes(n), backupNote(saved)), nil
	case pr.sst.IsDir():
		var c copyStats
		if err := copyDirAtomic(ctx, p.guardFor(pr.sloc), pr.sroot, pr.sloc.Rel, p.guardFor(pr.dloc), pr.droot, pr.dloc.Rel, pr.src, &c); err != nil {
			return nil, err
		}
		return fmt.Sprintf("copied the directory %s to %s (%s)", pr.src, pr.dst, c.String()), nil
	}
	return nil, notRegular(pr.src, pr.sst.Mode())
}

// move renames a file, link or directory; across roots or devices it
// copies, then deletes the source.
func (p *pack) move(ctx context.Context, args map[string]any) (any, error) {
	if err := p.modifying("move"); err != nil {
		return nil, err
	}
	pr, err := p.prepare("move", args, true)
	if err != nil {
		return nil, err
	}
	defer pr.close()
	if err := refuseRoot("move", pr.sloc, pr.src); err != nil {
		return nil, err
	}
	if pr.sst.IsDir() {
		if err := p.refuseHolder(ctx, pr.sroot, pr.sloc, pr.src); err != nil {
			return nil, err
		}
	}
	if err := mkdirParents(pr.droot, pr.dloc.Rel, pr.dst); err != nil {
		return nil, err
	}
	saved := ""
	if pr.dst0 != nil {
		if saved, err = p.backup(ctx, pr.droot, pr.dloc.Root, pr.dloc.Rel, pr.dst, "move", backupLink); err != nil {
			return nil, err
		}
	}
	done := fmt.Sprintf("moved %s to %s%s", pr.src, pr.dst, backupNote(saved))
	if pr.sameRoot {
		err := pr.sroot.Rename(pr.sloc.Rel, pr.dloc.Rel)
		if err == nil {
			return done, nil
		}
		if !errors.Is(err, syscall.EXDEV) {
			return nil, fsErr(err, pr.src)
		}
	}
	// Another root or another file system: copy, then delete the source.
	switch {
	case pr.sst.Mode().IsRegular():
		if pr.sst.Size() > MaxCopy {
			return nil, fmt.Errorf("%s is %s, more than the %s file.move copies between file systems", pr.src, formatBytes(pr.sst.Size()), formatBytes(MaxCopy))
		}
		if _, err := copyFile(ctx, p.o.hooks, p.guardFor(pr.sloc), pr.sroot, pr.sloc.Rel, pr.src, p.guardFor(pr.dloc), pr.droot, pr.dloc.Rel, pr.dst); err != nil {
			return nil, err
		}
	case pr.sst.IsDir():
		var c copyStats
		if err := copyDirAtomic(ctx, p.guardFor(pr.sloc), pr.sroot, pr.sloc.Rel, p.guardFor(pr.dloc), pr.droot, pr.dloc.Rel, pr.src, &c); err != nil {
			return nil, err
		}
		if c.skipped > 0 {
			pr.droot.RemoveAll(pr.dloc.Rel)
			return nil, fmt.Errorf("%s holds %s that cannot be moved to another root or file system: move its files instead", pr.src, plural(c.skipped, "link or special file", "links or special files"))
		}
		if c.own > 0 { // hard links to onetool's own files: not copied, so not moved
			pr.droot.RemoveAll(pr.dloc.Rel)
			return nil, fmt.Errorf("%s holds %s that onetool owns (hard links to its files), which programs cannot move: move its other files instead (%w)", pr.src, plural(c.own, "entry", "entries"), roots.ErrProtected)
		}
	default:
		return nil, fmt.Errorf("%s is a %s: file.move moves it only within one root and file system", pr.src, kind(pr.sst.Mode()))
	}
	if err := pr.sroot.RemoveAll(pr.sloc.Rel); err != nil {
		return nil, fmt.Errorf("copied %s to %s, but could not delete the source: %v", pr.src, pr.dst, fsErr(err, pr.src))
	}
	return done, nil
}

// copyFile copies the regular file srel to drel atomically, keeping its
// permission bits but the executable ones: a program must not make new
// programs (a copy of any script, rewritten, as .git/hooks/pre-commit or
// as python3 in a directory on PATH, ran outside the sandbox). sg and dg
// guard the source and destination roots.
func copyFile(ctx context.Context, h *testHooks, sg *guard, sroot *os.Root, srel, sname string, dg *guard, droot *os.Root, drel, dname string) (int64, error) {
	f, st, err := openRegular(sg, sroot, srel, sname)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return atomicWrite(ctx, h, dg, droot, drel, dname, f, st.Mode().Perm()&^0o111, true)
}

// copyStats counts what a directory copy did.
type copyStats struct {
	files, dirs, skipped int
	own                  int // onetool's own files and directories left out
	bytes                int64
}

func (c *copyStats) String() string {
	s := plural(c.files, "file", "files") + ", " + plural(c.dirs, "directory", "directories") + ", " + formatBytes(c.bytes)
	if c.skipped > 0 {
		s += "; skipped " + plural(c.skipped, "link or special file", "links or special files")
	}
	if c.own == 1 {
		s += "; left out 1 entry that is onetool's own (programs cannot read those)"
	} else if c.own > 1 {
		s += fmt.Sprintf("; left out %d entries that are onetool's own (programs cannot read those)", c.own)
	}
	return s
}

// copyDirAtomic copies the directory srel to drel (which must not exist)
// through a temporary directory beside it, so that drel appears whole or
// not at all.
func copyDirAtomic(ctx context.Context, sg *guard, sroot *os.Root, srel string, dg *guard, droot *os.Root, drel, name string, c *copyStats) error {
	dir, base := filepath.Split(drel)
	if len(base) > 100 {
		base = base[:100]
	}
	tmp := filepath.Join(dir, "."+base+".onetool-"+randHex(6)+".tmp")
	if err := droot.Mkdir(tmp, 0o777); err != nil {
		return fsErr(err, name)
	}
	// Checked where it really is before it is filled: the rename below
	// only finds it there.
	if d, err := droot.Open(tmp); err == nil {
		err = dg.opened(d, nil, name)
		d.Close()
		if err != nil {
			droot.RemoveAll(tmp)
			return err
		}
	}
	if err := copyTree(ctx, sg, sroot, srel, droot, tmp, name, c); err != nil {
		droot.RemoveAll(tmp)
		return err
	}
	if err := droot.Rename(tmp, drel); err != nil {
		droot.RemoveAll(tmp)
		return fsErr(err, name)
	}
	return nil
}

// copyTree copies what is in the directory srel into the existing
// directory drel. Symbolic links and special files are skipped (a link
// copied elsewhere could point somewhere else), and so are onetool's own
// files (sg).
func copyTree(ctx context.Context, sg *guard, sroot *os.Root, srel string, droot *os.Root, drel, name string, c *copyStats) error {
	if sg != nil {
		defer func(before int) { c.own += sg.skipped - before }(sg.skipped)
	}
	capped, err := walk(ctx, sg, sroot, filepath.ToSlash(srel), func(string, string) bool { return true }, nil, func(rel, sub string, d fs.DirEntry) error {
		if c.files+c.dirs >= MaxCopyItems {
			return fmt.Errorf("%s has more than %d files and directories: file.copy copies smaller trees; copy its parts", name, MaxCopyItems)
		}
		target := filepath.Join(drel, filepath.FromSlash(sub))
		src := filepath.FromSlash(rel)
		switch {
		case d.IsDir():
			if err := droot.Mkdir(target, 0o777); err != nil {
				return fsErr(err, name+"/"+sub)
			}
			c.dirs++
		case d.Type().IsRegular():
			f, st, err := openRegular(sg, sroot, src, name+"/"+sub)
			if errors.Is(err, roots.ErrProtected) {
				c.own++ // a hard link to one of them: left out like them
				return nil
			}
			if err != nil {
				return err
			}
			defer f.Close()
			if c.bytes+st.Size() > MaxCopy {
				return fmt.Errorf("%s holds more than %s: file.copy copies smaller trees; copy its parts", name, formatBytes(MaxCopy))
			}
			out, err := droot.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
			if err != nil {
				return fsErr(err, name+"/"+sub)
			}
			n, err := copyCtx(ctx, out, f)
			if err == nil {
				err = out.Chmod(st.Mode().Perm())
			}
			if cerr := out.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return writeErr(ctx, err, name+"/"+sub)
			}
			c.files++
			c.bytes += n
		default:
			c.skipped++
		}
		return nil
	})
	if err != nil {
		return walkErr(err, name)
	}
	if capped {
		return fmt.Errorf("%s has too many entries to copy: copy its parts", name)
	}
	return nil
}

// copyEntry copies a file or directory for a backup; g guards both roots
// (nil: no checks).
func copyEntry(ctx context.Context, g *guard, sroot *os.Root, srel string, droot *os.Root, drel, name string) error {
	st, err := sroot.Lstat(srel)
	if err != nil {
		return err
	}
	switch {
	case st.Mode().IsRegular():
		_, err := copyFile(ctx, nil, g, sroot, srel, name, g, droot, drel, name)
		return err
	case st.IsDir():
		if err := droot.Mkdir(drel, 0o777); err != nil {
			return err
		}
		var c copyStats
		return copyTree(ctx, g, sroot, srel, droot, drel, name, &c)
	}
	return nil // a link or special file: nothing worth keeping
}
