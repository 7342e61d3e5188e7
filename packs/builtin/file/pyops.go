package file

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/meter"
	"github.com/onetool-dev/onetool/packs/roots"
)

// Python's own file APIs (issue 31): open(), os, os.path, pathlib, glob,
// shutil and tempfile reach files through the variants below, one per
// operation of internal/pyops/files.go, each counted as the public tool
// before its "@" (file.write@commit is file.write to policy, stats and
// the audit log). Each goes through the pack's own checks, never a copy
// of them: forRun (the run's roots, its scratch directory among them),
// locate (roots.Resolve, '~' refused), an os.Root for the IO, guard
// (onetool's own files left out of listings, every opened file checked),
// modifying (packs.file.read_only), backups, and visible (what is read is
// redacted). Errors keep the pack's text and carry a pyops kind, from
// which a module raises FileNotFoundError, PermissionError and their kin.
//
// No variant is annotated destructive: the runner would ask before every
// call. Each asks itself (packs.ConfirmDestructive) before it destroys
// something that exists and that this run neither made nor had
// confirmed: an overwrite (open(p, "w") of an existing file), a delete, a
// rename onto a file, an rmtree. What a run made, had confirmed, had
// redacted and backed up is kept in its packs.Scope (runFiles).

// pyops returns the pack's variants, sharing p's state.
func (p *pack) pyops() []*packs.Tool {
	v := func(name, variant string, ann packs.Annotations, props string, fn handler) *packs.Tool {
		return &packs.Tool{
			Pack: "file", Name: name, Variant: variant,
			Description: "Python's own file APIs: see internal/pyops/files.go (" + name + "@" + variant + ").",
			InputSchema: `{"type":"object","properties":{` + props + `}}`,
			Annotations: ann,
			Handler:     p.wrapOp(fn),
		}
	}
	const (
		path    = `"path":{"type":"string"}`
		srcDst  = `"src":{"type":"string"},"dst":{"type":"string"}`
		integer = `{"type":"integer"}`
		boolean = `{"type":"boolean"}`
	)
	mutating := packs.Annotations{}
	return []*packs.Tool{
		v("read", "chunk", readOnly, path+`,"offset":`+integer+`,"size":`+integer, (*pack).pyRead),
		v("info", "stat", readOnly, path+`,"follow":`+boolean, (*pack).pyStat),
		v("info", "resolve", readOnly, path+`,"strict":`+boolean, (*pack).pyResolve),
		v("list", "scan", readOnly, path, (*pack).pyList),
		v("glob", "walk", readOnly, path+`,"follow_links":`+boolean+`,"max_depth":`+integer, (*pack).pyWalk),
		v("write", "open", mutating, path+`,"mode":{"type":"string","enum":["w","a","x","r+"]}`, (*pack).pyOpen),
		v("write", "commit", mutating, path+`,"text":{"type":"string"},"b64":{"type":"string"},"content":{"type":"object"},"append":`+boolean+`,"first":`+boolean, (*pack).pyWrite),
		v("write", "mkdir", mutating, path+`,"parents":`+boolean+`,"exist_ok":`+boolean, (*pack).pyMkdir),
		v("write", "touch", mutating, path+`,"exist_ok":`+boolean, (*pack).pyTouch),
		v("write", "mkdtemp", mutating, `"dir":`+boolean+`,"prefix":{"type":"string"},"suffix":{"type":"string"}`, (*pack).pyTemp),
		v("delete", "remove", mutating, path+`,"kind":{"type":"string","enum":["file","dir","tree"]},"missing_ok":`+boolean, (*pack).pyRemove),
		v("move", "rename", mutating, srcDst, (*pack).pyRename),
		v("copy", "copy", mutating, srcDst+`,"tree":`+boolean+`,"dirs_exist_ok":`+boolean+`,"meta":`+boolean, (*pack).pyCopy),
	}
}

// wrapOp is wrap for a variant: its error gets a pyops kind.
func (p *pack) wrapOp(fn handler) packs.Handler {
	h := p.wrap(fn)
	return func(ctx context.Context, args map[string]any) (any, error) {
		v, err := h(ctx, args)
		if err != nil {
			return nil, kindOf(ctx, err)
		}
		return v, nil
	}
}

// kindOf tags err with the pyops kind of what it says: a refusal of the
// roots (outside, onetool's own, no root), of read_only or of the user
// is ErrDenied; an errno kept by fsErr its own kind. A budget's or a
// cancellation's error is left as it is: the run ends with it.
func kindOf(ctx context.Context, err error) error {
	if pyops.KindOf(err) != nil || ctx.Err() != nil {
		return err
	}
	var kind error
	switch {
	case errors.Is(err, roots.ErrOutside), errors.Is(err, roots.ErrProtected), errors.Is(err, roots.ErrNoRoot),
		errors.Is(err, fs.ErrPermission), errors.Is(err, errReadOnly):
		kind = pyops.ErrDenied
	case errors.Is(err, fs.ErrNotExist):
		kind = pyops.ErrNotFound
	case errors.Is(err, syscall.ENOTEMPTY):
		kind = pyops.ErrNotEmpty
	case errors.Is(err, fs.ErrExist):
		kind = pyops.ErrExists
	case errors.Is(err, syscall.EISDIR):
		kind = pyops.ErrIsDir
	case errors.Is(err, syscall.ENOTDIR):
		kind = pyops.ErrNotDir
	case errors.Is(err, syscall.ELOOP):
		kind = pyops.ErrLoop
	case errors.Is(err, syscall.ENAMETOOLONG):
		kind = pyops.ErrNameTooLong
	case errors.Is(err, syscall.EFBIG):
		kind = pyops.ErrTooLarge
	default:
		return err
	}
	return pyops.Tag(kind, err)
}

// errReadOnly marks modifying's refusal.
var errReadOnly = errors.New("the file pack is read-only")

// pyModifying is modifying with its refusal marked (ErrDenied).
func (p *pack) pyModifying(tool string) error {
	if err := p.modifying(tool); err != nil {
		return &worded{err.Error(), errReadOnly}
	}
	return nil
}

// denied is a refusal with the pack's words: PermissionError.
func denied(format string, a ...any) error {
	return pyops.Tag(pyops.ErrDenied, fmt.Errorf(format, a...))
}

// kinded is an error of kind with the pack's words.
func kinded(kind error, format string, a ...any) error {
	return pyops.Tag(kind, fmt.Errorf(format, a...))
}

// runFiles is what one run's file operations remember (in its
// packs.Scope), by real path: what it made (never asked about again),
// what the user confirmed destroying, whose read it redacted (never
// written whole again: the mask would replace the secret), what it
// backed up (once per run), and its scratch directory once made.
type runFiles struct {
	mu        sync.Mutex
	created   map[string]bool
	confirmed map[string]bool
	redacted  map[string]bool
	backedUp  map[string]bool
	clean     map[fileID]bool               // files a scan found no secret in (pyRead)
	scratch   string                        // real path; "" until FileTemp
	extended  map[*roots.Roots]*roots.Roots // the run's roots with scratch
}

// Close does nothing: the Scope removes the scratch directory itself.
func (*runFiles) Close() error { return nil }

type runFilesKey struct{}

// runFilesOf returns the run's record, nil when it has none yet (or no
// Scope: a call from Go).
func runFilesOf(ctx context.Context) *runFiles {
	s := packs.ScopeFrom(ctx)
	if s == nil {
		return nil
	}
	v, ok := s.Lookup(runFilesKey{})
	if !ok {
		return nil
	}
	return v.(*runFiles)
}

// runFilesFor returns the run's record, made on first use; nil without a
// Scope, where nothing is remembered (every destruction asks).
func runFilesFor(ctx context.Context) *runFiles {
	s := packs.ScopeFrom(ctx)
	if s == nil {
		return nil
	}
	v, err := s.Value(runFilesKey{}, func() (io.Closer, error) {
		return &runFiles{created: map[string]bool{}, confirmed: map[string]bool{}, redacted: map[string]bool{}, backedUp: map[string]bool{}, clean: map[fileID]bool{}}, nil
	})
	if err != nil {
		return nil
	}
	return v.(*runFiles)
}

func (rf *runFiles) has(set func(*runFiles) map[string]bool, real string) bool {
	if rf == nil {
		return false
	}
	rf.mu.Lock()
	defer rf.mu.Unlock()
	return set(rf)[real]
}

func (rf *runFiles) mark(set func(*runFiles) map[string]bool, real string, on bool) {
	if rf == nil {
		return
	}
	rf.mu.Lock()
	defer rf.mu.Unlock()
	if on {
		set(rf)[real] = true
	} else {
		delete(set(rf), real)
	}
}

func created(rf *runFiles) map[string]bool   { return rf.created }
func confirmed(rf *runFiles) map[string]bool { return rf.confirmed }
func redacted(rf *runFiles) map[string]bool  { return rf.redacted }
func backedUp(rf *runFiles) map[string]bool  { return rf.backedUp }

// inScratch reports whether real lies in the run's scratch directory.
func (rf *runFiles) inScratch(real string) bool {
	if rf == nil {
		return false
	}
	rf.mu.Lock()
	defer rf.mu.Unlock()
	return rf.scratch != "" && within(real, rf.scratch)
}

// ours reports whether real is the run's own to destroy without asking:
// made by it, in its scratch directory, or already confirmed.
func (rf *runFiles) ours(real string) bool {
	return rf.has(created, real) || rf.has(confirmed, real) || rf.inScratch(real)
}

// disown forgets that real and the directories above it were made by
// the run: something the run did not make now lies there (a rename), so
// removing them must ask.
func (rf *runFiles) disown(real string) {
	if rf == nil {
		return
	}
	rf.mu.Lock()
	defer rf.mu.Unlock()
	for d := real; ; d = filepath.Dir(d) {
		delete(rf.created, d)
		if filepath.Dir(d) == d {
			return
		}
	}
}

// withScratch returns r with the scratch directory as one more root,
// once there is one (made once per run and set of roots).
func (rf *runFiles) withScratch(r *roots.Roots) *roots.Roots {
	if r == nil || len(r.Dirs()) == 0 {
		return r
	}
	rf.mu.Lock()
	defer rf.mu.Unlock()
	if rf.scratch == "" {
		return r
	}
	if x, ok := rf.extended[r]; ok {
		return x
	}
	n, err := roots.New(append(append([]string{}, r.Dirs()...), rf.scratch)...)
	if err != nil {
		return r
	}
	x := r.WithDirs(n)
	if rf.extended == nil {
		rf.extended = map[*roots.Roots]*roots.Roots{}
	}
	rf.extended[r] = x
	return x
}

// within reports whether p is dir or inside it (both clean and absolute).
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

// confirm asks before destroying real (named name) unless it is the
// run's own; action completes "onetool wants to …". The answer is
// remembered. A refusal is ErrDenied, with the runner's words.
func (p *pack) confirm(ctx context.Context, rf *runFiles, real, action string) error {
	if rf.ours(real) {
		return nil
	}
	if err := packs.ConfirmDestructive(ctx, action); err != nil {
		if ctx.Err() != nil {
			return stopped(ctx)
		}
		return pyops.Tag(pyops.ErrDenied, fmt.Errorf("%s: %w", action, err))
	}
	rf.mark(confirmed, real, true)
	return nil
}

// keptNote says whether a backup is kept, for questions.
func (p *pack) keptNote(rf *runFiles, real string) string {
	if p.o.Backups && !rf.inScratch(real) {
		return "; a backup is kept"
	}
	return ""
}

// saveBackup keeps a backup of rel before it is replaced or deleted,
// unless the run made it or it lies in scratch, and (link mode) only
// once per run.
func (p *pack) saveBackup(ctx context.Context, rf *runFiles, root *os.Root, loc roots.Location, name, op string, mode backupMode) (string, error) {
	real := loc.Path()
	if rf.has(created, real) || rf.inScratch(real) || mode == backupLink && rf.has(backedUp, real) {
		return "", nil
	}
	saved, err := p.backup(ctx, root, loc.Root, loc.Rel, name, op, mode)
	if err == nil && mode == backupLink {
		rf.mark(backedUp, real, true)
	}
	return saved, err
}

// stMode is st_mode for m: the type bits and the permission bits.
func stMode(m fs.FileMode) int64 {
	t := int64(0o100000) // S_IFREG
	switch {
	case m.IsDir():
		t = 0o040000
	case m&fs.ModeSymlink != 0:
		t = 0o120000
	case m&fs.ModeNamedPipe != 0:
		t = 0o010000
	case m&fs.ModeSocket != 0:
		t = 0o140000
	case m&fs.ModeCharDevice != 0:
		t = 0o020000
	case m&fs.ModeDevice != 0:
		t = 0o060000
	}
	perm := int64(m.Perm())
	if m&fs.ModeSetuid != 0 {
		perm |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		perm |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		perm |= 0o1000
	}
	return t | perm
}

func fallbackStat(fi fs.FileInfo) (ino, dev, nlink, atime, ctime, mode int64) {
	t := fi.ModTime().UnixNano()
	return 0, 0, 1, t, t, stMode(fi.Mode())
}

// pyType is an entry's "type".
func pyType(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "file"
	case m.IsDir():
		return "dir"
	case m&fs.ModeSymlink != 0:
		return "link"
	}
	return "other"
}

// entryOf is the pyops entry of fi.
func entryOf(fi fs.FileInfo) map[string]any {
	ino, dev, nlink, atime, ctime, mode := sysStat(fi)
	return map[string]any{
		"name": fi.Name(), "type": pyType(fi.Mode()), "size": fi.Size(), "mode": mode,
		"mtime_ns": fi.ModTime().UnixNano(), "atime_ns": atime, "ctime_ns": ctime,
		"ino": ino, "dev": dev, "nlink": nlink,
	}
}

// entryCost is what the meter is charged for one entry of a listing.
func entryCost(name string) int64 { return 256 + int64(len(name)) }

// targetType is the type a link at real (its own path, links in its
// directories resolved) points at within the roots: "" when it dangles,
// leads outside or to onetool's own files.
func (p *pack) targetType(real string) string {
	loc, err := p.o.Roots.Locate(real)
	if err != nil {
		return ""
	}
	root, err := os.OpenRoot(loc.Root)
	if err != nil {
		return ""
	}
	defer root.Close()
	st, err := root.Stat(loc.Rel)
	if err != nil {
		return ""
	}
	return pyType(st.Mode())
}

// pyRead is pyops.FileRead: a chunk of a regular file, as the program
// may see it (redacted), charged to the call's meter before it is read.
func (p *pack) pyRead(ctx context.Context, args map[string]any) (any, error) {
	path, err := strArg(args, "path")
	if err != nil {
		return nil, err
	}
	offset, err := int64Arg(args, "offset")
	if err != nil {
		return nil, err
	}
	size, err := int64Arg(args, "size")
	if err != nil {
		return nil, err
	}
	if size <= 0 || size > pyops.MaxChunk {
		size = pyops.MaxChunk
	}
	loc, err := p.locate(path, false)
	if err != nil {
		return nil, err
	}
	root, err := openRoot(loc)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, st, err := openRegular(p.guardFor(loc), root, loc.Rel, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := meter.From(ctx)
	total := st.Size()
	var content []byte
	isRedacted := false
	switch {
	case p.o.Redact == nil:
		content, err = readAt(ctx, m, f, offset, min(size, max(total-offset, 0)), path)
	case total <= MaxReadFile && (offset > 0 || size < total) && p.holdsNoSecret(ctx, m, f, st, loc.Path()):
		// Scanned once for the run: its chunks are read as they are.
		content, err = readAt(ctx, m, f, offset, min(size, max(total-offset, 0)), path)
	case total <= MaxReadFile:
		// Redacted whole, so that a secret across two chunks is hidden
		// too and offsets are those of the text the program sees.
		var data []byte
		if data, err = readAt(ctx, m, f, 0, total, path); err != nil {
			return nil, err
		}
		var seen []byte
		if seen, err = p.visible(ctx, data); err != nil {
			return nil, err
		}
		isRedacted = !bytes.Equal(seen, data)
		total = int64(len(seen))
		lo := min(offset, total)
		content = seen[lo:min(lo+size, total)]
	default:
		// Too large to redact whole: the chunk is read with a margin on
		// each side, and a file found to hold a secret is refused (its
		// chunks would not line up once masked).
		const margin = 64 << 10
		lo := max(offset-margin, 0)
		var window []byte
		if window, err = readAt(ctx, m, f, lo, min(size+offset-lo+margin, max(total-lo, 0)), path); err != nil {
			return nil, err
		}
		if seen, err := p.visible(ctx, window); err != nil {
			return nil, err
		} else if !bytes.Equal(seen, window) {
			runFilesFor(ctx).mark(redacted, loc.Path(), true)
			return nil, denied("%s holds the value of a configured secret, and at %s it is too large to read with the secret hidden: read it with file.grep or file.read", path, formatBytes(st.Size()))
		}
		from := min(offset-lo, int64(len(window)))
		content = window[from:min(from+size, int64(len(window)))]
	}
	if err != nil {
		return nil, err
	}
	if isRedacted {
		runFilesFor(ctx).mark(redacted, loc.Path(), true)
	}
	ino, dev, _, _, _, _ := sysStat(st)
	out := map[string]any{
		"size": total, "mtime_ns": st.ModTime().UnixNano(), "ino": ino, "dev": dev,
		"eof": offset+int64(len(content)) >= total,
	}
	pyops.PutContent(out, content)
	return out, nil
}

// fileID is a file as one run's reads know it: a file changed since is
// another (and scanned again).
type fileID struct {
	path                  string
	size, mtime, ino, dev int64
}

// scanBlock is how much of a file holdsNoSecret looks at at once; each
// block overlaps the next by scanOverlap, so that a secret across a
// boundary lies whole in one of them.
const (
	scanBlock   = 1 << 20
	scanOverlap = 64 << 10
)

// holdsNoSecret reports whether f (at most MaxReadFile) holds no value
// of a configured secret: a program reading it in chunks then gets them
// as they are, instead of each chunk's read redacting the whole file (a
// line loop over a 30 MB file did that 120 times, and needed the whole
// file under the memory budget). The answer is kept for the run; the
// scan holds one block at a time against the meter.
func (p *pack) holdsNoSecret(ctx context.Context, m meter.Meter, f *os.File, st os.FileInfo, real string) bool {
	ino, dev, _, _, _, _ := sysStat(st)
	id := fileID{path: real, size: st.Size(), mtime: st.ModTime().UnixNano(), ino: ino, dev: dev}
	rf := runFilesFor(ctx)
	if rf != nil {
		rf.mu.Lock()
		clean, known := rf.clean[id]
		rf.mu.Unlock()
		if known {
			return clean
		}
	}
	clean := true
	for off := int64(0); off < id.size && clean; off += scanBlock {
		n := min(scanBlock+scanOverlap, id.size-off)
		block, err := readAt(ctx, m, f, off, n, real)
		if err != nil {
			return false // the whole-file read says why
		}
		seen, err := p.visible(ctx, block)
		clean = err == nil && bytes.Equal(seen, block)
		m.Release(n)
	}
	if rf != nil {
		rf.mu.Lock()
		rf.clean[id] = clean
		rf.mu.Unlock()
	}
	return clean
}

// readAt reads n bytes of f from off (fewer at its end), charging the
// meter before it allocates.
func readAt(ctx context.Context, m meter.Meter, f *os.File, off, n int64, name string) ([]byte, error) {
	if n <= 0 || off < 0 {
		return []byte{}, nil
	}
	if err := m.Charge(n); err != nil {
		return nil, err // the run's memory limit: returned as it is
	}
	buf := make([]byte, n)
	k, err := f.ReadAt(buf, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, readErr(ctx, err, name)
	}
	return buf[:k], nil
}

// int64Arg reads a whole-number argument, 0 when absent.
func int64Arg(args map[string]any, name string) (int64, error) {
	n, err := intArg(args, name, 0, 0)
	return int64(n), err
}

// pyStat is pyops.FileStat: os.stat (follow) or os.lstat.
func (p *pack) pyStat(_ context.Context, args map[string]any) (any, error) {
	path, err := strArg(args, "path")
	if err != nil {
		return nil, err
	}
	follow, err := boolArg(args, "follow", false)
	if err != nil {
		return nil, err
	}
	loc, err := p.locate(path, !follow)
	if err != nil {
		return nil, err
	}
	root, err := openRoot(loc)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	var st fs.FileInfo
	if follow {
		st, err = root.Stat(loc.Rel)
	} else {
		st, err = root.Lstat(loc.Rel)
	}
	if err != nil {
		return nil, fsErr(err, path)
	}
	e := entryOf(st)
	e["name"] = filepath.Base(loc.Path())
	return e, nil
}

// pyResolve is pyops.FileResolve: the real path, within the roots.
func (p *pack) pyResolve(_ context.Context, args map[string]any) (any, error) {
	path, err := strArg(args, "path")
	if err != nil {
		return nil, err
	}
	strict, err := boolArg(args, "strict", false)
	if err != nil {
		return nil, err
	}
	loc, err := p.locate(path, false)
	if err != nil {
		return nil, err
	}
	if strict {
		root, err := openRoot(loc)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		if _, err := root.Stat(loc.Rel); err != nil {
			return nil, fsErr(err, path)
		}
	}
	return map[string]any{"path": loc.Path()}, nil
}

// pyList is pyops.FileList: one directory's entries, sorted, onetool's
// own left out.
func (p *pack) pyList(ctx context.Context, args map[string]any) (any, error) {
	dir, err := strArg(args, "path")
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
	g := p.guardFor(loc)
	if d, err := root.Open(loc.Rel); err != nil {
		return nil, fsErr(err, dir)
	} else {
		err = g.opened(d, nil, dir)
		d.Close()
		if err != nil {
			return nil, err
		}
	}
	w := &pyWalker{p: p, ctx: ctx, m: meter.From(ctx)}
	entries, err := w.dir(g, root, loc, loc.Rel, dir)
	if err != nil {
		return nil, err
	}
	out := make([]any, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.m)
	}
	return map[string]any{"entries": out}, nil
}

// pyOpen is pyops.FileOpen: the checks CPython's open() fails at, before
// the program writes anything; it asks before an overwrite.
func (p *pack) pyOpen(ctx context.Context, args map[string]any) (any, error) {
	if err := p.pyModifying("write"); err != nil {
		return nil, err
	}
	path, err := strArg(args, "path")
	if err != nil {
		return nil, err
	}
	mode, err := optStr(args, "mode", "w")
	if err != nil {
		return nil, err
	}
	switch mode {
	case "w", "a", "x", "r+":
	default:
		return nil, fmt.Errorf("mode %q: want \"w\", \"a\", \"x\" or \"r+\"", mode)
	}
	loc, root, st, err := p.writeTarget(path)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	rf := runFilesFor(ctx)
	real := loc.Path()
	if st == nil {
		if mode == "r+" {
			return nil, kinded(pyops.ErrNotFound, "%s does not exist", path)
		}
		return map[string]any{"exists": false, "size": int64(0)}, nil
	}
	// An existing file: never one of onetool's own by another name.
	f, st, err := openRegular(p.guardFor(loc), root, loc.Rel, path)
	if err != nil {
		return nil, err
	}
	f.Close()
	switch mode {
	case "x":
		return nil, kinded(pyops.ErrExists, "%s already exists", path)
	case "w", "r+":
		if err := refuseRedacted(rf, real, path); err != nil {
			return nil, err
		}
		if err := p.confirm(ctx, rf, real, fmt.Sprintf("overwrite %s (%s%s)", path, formatBytes(st.Size()), p.keptNote(rf, real))); err != nil {
			return nil, err
		}
	}
	return map[string]any{"exists": true, "size": st.Size()}, nil
}

// writeTarget locates a file to write: its directory must exist, and it
// must not be a directory. st is nil when the file does not exist.
func (p *pack) writeTarget(path string) (roots.Location, *os.Root, fs.FileInfo, error) {
	loc, err := p.locate(path, false)
	if err != nil {
		return loc, nil, nil, err
	}
	root, err := openRoot(loc)
	if err != nil {
		return loc, nil, nil, err
	}
	fail := func(err error) (roots.Location, *os.Root, fs.FileInfo, error) {
		root.Close()
		return loc, nil, nil, err
	}
	if loc.Rel == "." {
		return fail(notRegular(path, fs.ModeDir))
	}
	if d, err := root.Stat(filepath.Dir(loc.Rel)); err != nil {
		return fail(fsErr(err, path))
	} else if !d.IsDir() {
		return fail(kinded(pyops.ErrNotDir, "%s: a part of the path is a file, not a directory", path))
	}
	st, err := lstat(root, loc.Rel, path)
	if err != nil {
		return fail(err)
	}
	if st != nil && !st.Mode().IsRegular() {
		return fail(notRegular(path, st.Mode()))
	}
	return loc, root, st, nil
}

// refuseRedacted refuses to replace a file whose read this run showed
// with its secrets hidden: the mask would replace the secret.
func refuseRedacted(rf *runFiles, real, path string) error {
	if rf.has(redacted, real) {
		return denied("%s holds the value of a configured secret, which reading it in this run showed as [secret:NAME]: writing it back would replace the secret with that mask, so it is not written. Write to another file, or change it outside onetool", path)
	}
	return nil
}

// pyWrite is pyops.FileWrite: a commit of what the program wrote, the
// whole new content atomically (a backup kept once per run) or bytes
// appended through the root.
func (p *pack) pyWrite(ctx context.Context, args map[string]any) (any, error) {
	if err := p.pyModifying("write"); err != nil {
		return nil, err
	}
	path, err := strArg(args, "path")
	if err != nil {
		return nil, err
	}
	// The bytes are in args itself (PutContent(args, b)); a "content"
	// map holding them is read too.
	holder := any(args)
	if c, ok := args["content"]; ok {
		holder = c
	}
	data, err := pyops.GetContent(holder)
	if err != nil {
		return nil, err
	}
	appendMode, err := boolArg(args, "append", false)
	if err != nil {
		return nil, err
	}
	first, err := boolArg(args, "first", false)
	if err != nil {
		return nil, err
	}
	if len(data) > MaxWrite {
		return nil, kinded(pyops.ErrTooLarge, "one write of %s is more than the %s the file pack writes at once: write it in parts", formatBytes(int64(len(data))), formatBytes(MaxWrite))
	}
	loc, root, st, err := p.writeTarget(path)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	rf := runFilesFor(ctx)
	real := loc.Path()
	g := p.guardFor(loc)
	if appendMode {
		f, err := root.OpenFile(loc.Rel, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
		if err != nil {
			return nil, fsErr(err, path)
		}
		defer f.Close()
		fi, err := f.Stat()
		if err == nil && !fi.Mode().IsRegular() {
			err = notRegular(path, fi.Mode())
		}
		if err == nil {
			err = g.opened(f, fi, path)
		}
		if err != nil {
			if st == nil {
				root.Remove(loc.Rel)
			}
			return nil, err
		}
		if st == nil {
			rf.mark(created, real, true)
		}
		if _, err := f.Write(data); err != nil {
			return nil, writeErr(ctx, err, path)
		}
		if err := f.Close(); err != nil {
			return nil, fsErr(err, path)
		}
		return p.sizeOf(root, loc, path)
	}
	var perm fs.FileMode
	if st != nil {
		if err := refuseRedacted(rf, real, path); err != nil {
			return nil, err
		}
		if err := p.confirm(ctx, rf, real, fmt.Sprintf("overwrite %s (%s%s)", path, formatBytes(st.Size()), p.keptNote(rf, real))); err != nil {
			return nil, err
		}
		if first {
			if _, err := p.saveBackup(ctx, rf, root, loc, path, "write", backupLink); err != nil {
				return nil, err
			}
		}
		perm = st.Mode().Perm()
	}
	if _, err := atomicWrite(ctx, p.o.hooks, g, root, loc.Rel, path, bytes.NewReader(data), perm, st != nil); err != nil {
		return nil, err
	}
	if st == nil {
		rf.mark(created, real, true)
	}
	return map[string]any{"size": int64(len(data))}, nil
}

// sizeOf is the result {"size": n} of a file after a write.
func (p *pack) sizeOf(root *os.Root, loc roots.Location, path string) (any, error) {
	st, err := root.Stat(loc.Rel)
	if err != nil {
		return nil, fsErr(err, path)
	}
	return map[string]any{"size": st.Size()}, nil
}

// pyMkdir is pyops.FileMkdir: os.mkdir, os.makedirs, Path.mkdir.
func (p *pack) pyMkdir(ctx context.Context, args map[string]any) (any, error) {
	if err := p.pyModifying("write"); err != nil {
		return nil, err
	}
	path, err := strArg(args, "path")
	if err != nil {
		return nil, err
	}
	parents, err := boolArg(args, "parents", false)
	if err != nil {
		return nil, err
	}
	existOK, err := boolArg(args, "exist_ok", false)
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
	if st, err := root.Lstat(loc.Rel); err == nil {
		if existOK && st.IsDir() {
			return map[string]any{}, nil
		}
		return nil, kinded(pyops.ErrExists, "%s already exists", path)
	}
	rf := runFilesFor(ctx)
	// The directories this makes are the run's: removing them later does
	// not ask.
	var made []string
	for rel := loc.Rel; rel != "."; rel = filepath.Dir(rel) {
		if _, err := root.Lstat(rel); err == nil {
			break
		}
		made = append(made, filepath.Join(loc.Root, rel))
		if !parents {
			break
		}
	}
	if parents {
		err = root.MkdirAll(loc.Rel, 0o777)
	} else {
		err = root.Mkdir(loc.Rel, 0o777)
	}
	if err != nil {
		return nil, fsErr(err, path)
	}
	for _, d := range made {
		rf.mark(created, d, true)
	}
	return map[string]any{}, nil
}

// pyTouch is pyops.FileTouch: create an empty file, or set its times.
func (p *pack) pyTouch(ctx context.Context, args map[string]any) (any, error) {
	if err := p.pyModifying("write"); err != nil {
		return nil, err
	}
	path, err := strArg(args, "path")
	if err != nil {
		return nil, err
	}
	existOK, err := boolArg(args, "exist_ok", true)
	if err != nil {
		return nil, err
	}
	loc, err := p.locate(path, false)
	if err != nil {
		return nil, err
	}
	root, err := openRoot(loc)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.OpenFile(loc.Rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	switch {
	case err == nil:
		err = p.guardFor(loc).opened(f, nil, path)
		f.Close()
		if err != nil {
			root.Remove(loc.Rel)
			return nil, err
		}
		runFilesFor(ctx).mark(created, loc.Path(), true)
		return map[string]any{}, nil
	case !errors.Is(err, fs.ErrExist):
		return nil, fsErr(err, path)
	case !existOK:
		return nil, kinded(pyops.ErrExists, "%s already exists", path)
	}
	now := time.Now()
	if err := root.Chtimes(loc.Rel, now, now); err != nil {
		return nil, fsErr(err, path)
	}
	return map[string]any{}, nil
}

// pyTemp is pyops.FileTemp: a new directory or empty file in the run's
// scratch directory, which then is one of the run's roots (forRun) and
// is removed when the run ends (packs.Scope).
func (p *pack) pyTemp(ctx context.Context, args map[string]any) (any, error) {
	if err := p.pyModifying("write"); err != nil {
		return nil, err
	}
	dir, err := boolArg(args, "dir", false)
	if err != nil {
		return nil, err
	}
	prefix, err := optStr(args, "prefix", "tmp")
	if err != nil {
		return nil, err
	}
	suffix, err := optStr(args, "suffix", "")
	if err != nil {
		return nil, err
	}
	if strings.ContainsAny(prefix+suffix, "/\x00"+string(filepath.Separator)) {
		return nil, fmt.Errorf("prefix %q and suffix %q must not hold a path separator", prefix, suffix)
	}
	if _, err := p.o.Roots.Resolve("."); errors.Is(err, roots.ErrNoRoot) {
		return nil, err // no root, no scratch either
	}
	s := packs.ScopeFrom(ctx)
	rf := runFilesFor(ctx)
	if s == nil || rf == nil {
		return nil, errors.New("temporary files need a run: there is none here")
	}
	scratch, err := s.Scratch()
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(scratch); err == nil {
		scratch = real
	}
	rf.mu.Lock()
	rf.scratch = scratch
	rf.mu.Unlock()
	var made string
	if dir {
		made, err = os.MkdirTemp(scratch, prefix+"*"+suffix)
	} else {
		var f *os.File
		if f, err = os.CreateTemp(scratch, prefix+"*"+suffix); err == nil {
			made = f.Name()
			err = f.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("making a temporary %s: %w", map[bool]string{true: "directory", false: "file"}[dir], err)
	}
	rf.mark(created, made, true)
	return map[string]any{"path": made}, nil
}

// pyRemove is pyops.FileRemove: os.remove (a file or link), os.rmdir (an
// empty directory), shutil.rmtree (a tree). It asks before destroying
// what the run did not make, and keeps a backup.
func (p *pack) pyRemove(ctx context.Context, args map[string]any) (any, error) {
	if err := p.pyModifying("delete"); err != nil {
		return nil, err
	}
	path, err := strArg(args, "path")
	if err != nil {
		return nil, err
	}
	what, err := optStr(args, "kind", "file")
	if err != nil {
		return nil, err
	}
	missingOK, err := boolArg(args, "missing_ok", false)
	if err != nil {
		return nil, err
	}
	loc, err := p.locate(path, true)
	if err != nil {
		return nil, err
	}
	if err := refuseRoot("delete", loc, path); err != nil {
		return nil, &worded{err.Error(), fs.ErrPermission}
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
		if missingOK {
			return map[string]any{}, nil
		}
		return nil, kinded(pyops.ErrNotFound, "%s does not exist: nothing to delete", path)
	}
	rf := runFilesFor(ctx)
	real := loc.Path()
	isDir := st.IsDir()
	var action string
	switch what {
	case "file":
		if isDir {
			return nil, kinded(pyops.ErrIsDir, "%s is a directory: remove it with os.rmdir or shutil.rmtree", path)
		}
		action = fmt.Sprintf("delete %s (%s%s)", path, formatBytes(st.Size()), p.keptNote(rf, real))
		if !st.Mode().IsRegular() {
			action = fmt.Sprintf("delete %s (a %s)", path, kind(st.Mode()))
		}
	case "dir":
		if !isDir {
			return nil, kinded(pyops.ErrNotDir, "%s is not a directory", path)
		}
		entries, err := readDirSorted(root, loc.Rel, 1)
		if err != nil {
			return nil, fsErr(err, path)
		}
		if len(entries) > 0 {
			return nil, kinded(pyops.ErrNotEmpty, "%s is a directory that is not empty", path)
		}
		action = "delete the empty directory " + path
	case "tree":
		if !isDir {
			if st.Mode()&fs.ModeSymlink != 0 {
				return nil, fmt.Errorf("%s is a symbolic link: shutil.rmtree does not remove links (os.remove does)", path)
			}
			return nil, kinded(pyops.ErrNotDir, "%s is not a directory", path)
		}
		if err := p.refuseHolder(ctx, root, loc, path); err != nil {
			return nil, err
		}
		action = fmt.Sprintf("delete the directory %s and everything in it%s", path, p.keptNote(rf, real))
	default:
		return nil, fmt.Errorf("kind %q: want \"file\", \"dir\" or \"tree\"", what)
	}
	if err := p.confirm(ctx, rf, real, action); err != nil {
		return nil, err
	}
	saved := ""
	if st.Mode().IsRegular() || what == "tree" {
		if saved, err = p.saveBackup(ctx, rf, root, loc, path, "delete", backupMove); err != nil {
			return nil, err
		}
	}
	if saved == "" {
		if what == "tree" {
			err = root.RemoveAll(loc.Rel)
		} else {
			err = root.Remove(loc.Rel)
		}
		if err != nil {
			return nil, fsErr(err, path)
		}
	}
	rf.mark(created, real, false)
	return map[string]any{}, nil
}

// pyRename is pyops.FileRename, with POSIX rename's meaning: an existing
// file at dst is replaced (asked, backed up), an empty directory too.
func (p *pack) pyRename(ctx context.Context, args map[string]any) (any, error) {
	if err := p.pyModifying("move"); err != nil {
		return nil, err
	}
	src, err := strArg(args, "src")
	if err != nil {
		return nil, err
	}
	dst, err := strArg(args, "dst")
	if err != nil {
		return nil, err
	}
	sloc, err := p.locate(src, true)
	if err != nil {
		return nil, err
	}
	dloc, err := p.locate(dst, true)
	if err != nil {
		return nil, err
	}
	for _, x := range []struct {
		loc  roots.Location
		name string
	}{{sloc, src}, {dloc, dst}} {
		if err := refuseRoot("move", x.loc, x.name); err != nil {
			return nil, &worded{err.Error(), fs.ErrPermission}
		}
	}
	pr := &pair{src: src, dst: dst, sloc: sloc}
	if pr.sroot, err = openRoot(sloc); err != nil {
		return nil, err
	}
	defer pr.close()
	if err := pr.setDst(dloc); err != nil {
		return nil, err
	}
	if pr.sst, err = pr.sroot.Lstat(sloc.Rel); err != nil {
		return nil, fsErr(err, src)
	}
	if d, err := pr.droot.Stat(filepath.Dir(dloc.Rel)); err != nil {
		return nil, fsErr(err, dst)
	} else if !d.IsDir() {
		return nil, kinded(pyops.ErrNotDir, "%s: a part of the path is a file, not a directory", dst)
	}
	if pr.dst0, err = lstat(pr.droot, dloc.Rel, dst); err != nil {
		return nil, err
	}
	rf := runFilesFor(ctx)
	sreal, dreal := sloc.Path(), dloc.Path()
	if sreal == dreal {
		return map[string]any{}, nil // renaming to itself changes nothing
	}
	srcDir := pr.sst.IsDir()
	if srcDir {
		if err := p.refuseHolder(ctx, pr.sroot, sloc, src); err != nil {
			return nil, err
		}
		if within(dreal, sreal) {
			return nil, fmt.Errorf("cannot move the directory %s into itself (%s)", src, dst)
		}
	}
	if d := pr.dst0; d != nil && !os.SameFile(d, pr.sst) {
		switch {
		case srcDir && !d.IsDir():
			return nil, kinded(pyops.ErrNotDir, "%s is not a directory, and %s is one", dst, src)
		case !srcDir && d.IsDir():
			return nil, kinded(pyops.ErrIsDir, "%s is a directory", dst)
		case d.IsDir():
			entries, err := readDirSorted(pr.droot, dloc.Rel, 1)
			if err != nil {
				return nil, fsErr(err, dst)
			}
			if len(entries) > 0 {
				return nil, kinded(pyops.ErrNotEmpty, "%s is a directory that is not empty", dst)
			}
		default:
			if err := p.confirm(ctx, rf, dreal, fmt.Sprintf("replace %s with %s (%s%s)", dst, src, formatBytes(d.Size()), p.keptNote(rf, dreal))); err != nil {
				return nil, err
			}
			if d.Mode().IsRegular() {
				if _, err := p.saveBackup(ctx, rf, pr.droot, dloc, dst, "move", backupLink); err != nil {
					return nil, err
				}
			}
		}
	}
	if pr.dst0 != nil && pr.dst0.IsDir() && !os.SameFile(pr.dst0, pr.sst) {
		// An empty directory replaced: os.Root's rename does not replace
		// one.
		if err := pr.droot.Remove(dloc.Rel); err != nil {
			return nil, fsErr(err, dst)
		}
		pr.dst0 = nil
	}
	moved := false
	if pr.sameRoot {
		err := pr.sroot.Rename(sloc.Rel, dloc.Rel)
		if err == nil {
			moved = true
		} else if !errors.Is(err, syscall.EXDEV) {
			return nil, fsErr(err, src)
		}
	}
	if !moved {
		if err := p.moveAcross(ctx, pr); err != nil {
			return nil, err
		}
	}
	// What the run knew of src it now knows of dst.
	if rf.has(created, sreal) {
		rf.mark(created, dreal, true)
	} else {
		rf.disown(dreal)
	}
	rf.mark(created, sreal, false)
	if rf.has(redacted, sreal) {
		rf.mark(redacted, dreal, true)
	}
	return map[string]any{}, nil
}

// moveAcross moves pr's source to another root or file system: a copy,
// then the source removed, as file.move does.
func (p *pack) moveAcross(ctx context.Context, pr *pair) error {
	switch {
	case pr.sst.Mode().IsRegular():
		if pr.sst.Size() > MaxCopy {
			return kinded(pyops.ErrTooLarge, "%s is %s, more than the %s a move copies between file systems", pr.src, formatBytes(pr.sst.Size()), formatBytes(MaxCopy))
		}
		if _, err := copyFile(ctx, p.o.hooks, p.guardFor(pr.sloc), pr.sroot, pr.sloc.Rel, pr.src, p.guardFor(pr.dloc), pr.droot, pr.dloc.Rel, pr.dst); err != nil {
			return err
		}
	case pr.sst.IsDir():
		var c copyStats
		if err := copyDirAtomic(ctx, p.guardFor(pr.sloc), pr.sroot, pr.sloc.Rel, p.guardFor(pr.dloc), pr.droot, pr.dloc.Rel, pr.src, &c); err != nil {
			return err
		}
		if c.skipped > 0 || c.own > 0 {
			pr.droot.RemoveAll(pr.dloc.Rel)
			return fmt.Errorf("%s holds links, special files or onetool's own files, which cannot be moved to another root or file system: move its files instead", pr.src)
		}
	default:
		return fmt.Errorf("%s is a %s: it is moved only within one root and file system", pr.src, kind(pr.sst.Mode()))
	}
	if err := pr.sroot.RemoveAll(pr.sloc.Rel); err != nil {
		return fmt.Errorf("copied %s to %s, but could not delete the source: %w", pr.src, pr.dst, fsErr(err, pr.src))
	}
	return nil
}

// pyCopy is pyops.FileCopy: shutil.copy/copy2 (into dst when it is a
// directory) and copytree. Links in a tree are skipped, as file.copy
// skips them; onetool's own files are left out.
func (p *pack) pyCopy(ctx context.Context, args map[string]any) (any, error) {
	if err := p.pyModifying("copy"); err != nil {
		return nil, err
	}
	src, err := strArg(args, "src")
	if err != nil {
		return nil, err
	}
	dst, err := strArg(args, "dst")
	if err != nil {
		return nil, err
	}
	tree, err := boolArg(args, "tree", false)
	if err != nil {
		return nil, err
	}
	existOK, err := boolArg(args, "dirs_exist_ok", false)
	if err != nil {
		return nil, err
	}
	meta, err := boolArg(args, "meta", false)
	if err != nil {
		return nil, err
	}
	sloc, err := p.locate(src, false)
	if err != nil {
		return nil, err
	}
	pr := &pair{src: src, dst: dst, sloc: sloc}
	if pr.sroot, err = openRoot(sloc); err != nil {
		return nil, err
	}
	defer pr.close()
	if pr.sst, err = pr.sroot.Stat(sloc.Rel); err != nil {
		return nil, fsErr(err, src)
	}
	dloc, err := p.locate(dst, false)
	if err != nil {
		return nil, err
	}
	if err := pr.setDst(dloc); err != nil {
		return nil, err
	}
	if !tree {
		if !pr.sst.Mode().IsRegular() {
			return nil, notRegular(src, pr.sst.Mode())
		}
		if d, err := pr.droot.Stat(dloc.Rel); err == nil && d.IsDir() { // into a directory
			pr.dst = strings.TrimRight(dst, "/") + "/" + filepath.Base(sloc.Path())
			if dloc, err = p.locate(pr.dst, false); err != nil {
				return nil, err
			}
			if err := pr.setDst(dloc); err != nil {
				return nil, err
			}
		}
	}
	if pr.dloc.Rel == "." {
		return nil, kinded(pyops.ErrExists, "%s is an allowed root: name a path inside it", pr.dst)
	}
	if d, err := pr.droot.Stat(filepath.Dir(pr.dloc.Rel)); err != nil {
		return nil, fsErr(err, pr.dst)
	} else if !d.IsDir() {
		return nil, kinded(pyops.ErrNotDir, "%s: a part of the path is a file, not a directory", pr.dst)
	}
	if pr.dst0, err = lstat(pr.droot, pr.dloc.Rel, pr.dst); err != nil {
		return nil, err
	}
	rf := runFilesFor(ctx)
	dreal := pr.dloc.Path()
	if tree {
		return p.copyTreeTo(ctx, rf, pr, existOK)
	}
	if pr.sst.Size() > MaxCopy {
		return nil, kinded(pyops.ErrTooLarge, "%s is %s, more than the %s the file pack copies", src, formatBytes(pr.sst.Size()), formatBytes(MaxCopy))
	}
	if d := pr.dst0; d != nil {
		switch {
		case os.SameFile(d, pr.sst):
			return nil, fmt.Errorf("%s and %s are the same file", src, pr.dst)
		case d.IsDir():
			return nil, kinded(pyops.ErrIsDir, "%s is a directory", pr.dst)
		case !d.Mode().IsRegular():
			return nil, notRegular(pr.dst, d.Mode())
		}
		if err := p.confirm(ctx, rf, dreal, fmt.Sprintf("overwrite %s with a copy of %s (%s%s)", pr.dst, src, formatBytes(d.Size()), p.keptNote(rf, dreal))); err != nil {
			return nil, err
		}
		if _, err := p.saveBackup(ctx, rf, pr.droot, pr.dloc, pr.dst, "copy", backupLink); err != nil {
			return nil, err
		}
	}
	if _, err := copyFile(ctx, p.o.hooks, p.guardFor(pr.sloc), pr.sroot, pr.sloc.Rel, src, p.guardFor(pr.dloc), pr.droot, pr.dloc.Rel, pr.dst); err != nil {
		return nil, err
	}
	if meta {
		pr.droot.Chtimes(pr.dloc.Rel, time.Now(), pr.sst.ModTime())
	}
	if pr.dst0 == nil {
		rf.mark(created, dreal, true)
	}
	return map[string]any{"path": pr.dst}, nil
}

// copyTreeTo is copytree: into a new directory atomically, or with
// dirs_exist_ok merged into an existing one, asking once before the
// first file it overwrites.
func (p *pack) copyTreeTo(ctx context.Context, rf *runFiles, pr *pair, existOK bool) (any, error) {
	if !pr.sst.IsDir() {
		return nil, kinded(pyops.ErrNotDir, "%s is not a directory", pr.src)
	}
	dreal := pr.dloc.Path()
	if pr.sameRoot && within(dreal, pr.sloc.Path()) {
		return nil, fmt.Errorf("cannot copy the directory %s into itself (%s)", pr.src, pr.dst)
	}
	var c copyStats
	if pr.dst0 == nil {
		if err := copyDirAtomic(ctx, p.guardFor(pr.sloc), pr.sroot, pr.sloc.Rel, p.guardFor(pr.dloc), pr.droot, pr.dloc.Rel, pr.src, &c); err != nil {
			return nil, err
		}
		rf.mark(created, dreal, true)
		return map[string]any{"path": pr.dst}, nil
	}
	if !existOK || !pr.dst0.IsDir() {
		return nil, kinded(pyops.ErrExists, "%s already exists", pr.dst)
	}
	sg, dg := p.guardFor(pr.sloc), p.guardFor(pr.dloc)
	asked := false
	items := 0
	capped, err := walk(ctx, sg, pr.sroot, filepath.ToSlash(pr.sloc.Rel), func(string, string) bool { return true }, nil, func(rel, sub string, d fs.DirEntry) error {
		if items++; items > MaxCopyItems {
			return kinded(pyops.ErrTooLarge, "%s has more than %d files and directories: copy its parts", pr.src, MaxCopyItems)
		}
		target := filepath.Join(pr.dloc.Rel, filepath.FromSlash(sub))
		name := pr.dst + "/" + sub
		switch {
		case d.IsDir():
			if err := pr.droot.Mkdir(target, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
				return fsErr(err, name)
			}
		case d.Type().IsRegular():
			old, err := lstat(pr.droot, target, name)
			if err != nil {
				return err
			}
			if old != nil {
				if old.IsDir() {
					return kinded(pyops.ErrIsDir, "%s is a directory", name)
				}
				if !asked {
					if err := p.confirm(ctx, rf, dreal, fmt.Sprintf("overwrite files in %s with those of %s%s", pr.dst, pr.src, p.keptNote(rf, dreal))); err != nil {
						return err
					}
					asked = true
				}
				tloc := roots.Location{Root: pr.dloc.Root, Rel: target}
				if _, err := p.saveBackup(ctx, rf, pr.droot, tloc, name, "copy", backupLink); err != nil {
					return err
				}
			}
			if _, err := copyFile(ctx, p.o.hooks, sg, pr.sroot, filepath.FromSlash(rel), pr.src+"/"+sub, dg, pr.droot, target, name); err != nil {
				if errors.Is(err, roots.ErrProtected) {
					return nil // a hard link to onetool's own: left out
				}
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, walkErr(err, pr.src)
	}
	if capped {
		return nil, kinded(pyops.ErrTooLarge, "%s has too many entries to copy: copy its parts", pr.src)
	}
	return map[string]any{"path": pr.dst}, nil
}
