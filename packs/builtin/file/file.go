// Package file is the built-in file pack (SPEC §3.5, §8.2): read, write,
// edit, list, tree, glob, grep, info, copy, move and delete, confined to
// the allowed roots: those of the run (roots.FromContext, the roots of its
// MCP session) when it carries some, else Options.Roots.
//
// Every path goes through roots.Roots first: it is made absolute, its
// symbolic links are followed, and anything outside the roots is refused.
// The IO itself is then done through an *os.Root opened on the allowed
// root directory the path lies in, with the link-free path relative to
// it, so a symbolic link swapped in after the check still cannot lead
// outside. Walks (list, tree, glob, grep) never follow symbolic links,
// and only regular files are ever read: devices and named pipes are
// refused, never opened for reading.
//
// onetool's own files (SPEC §8.2) are refused whatever the roots say:
// roots.Roots refuses them by path and identity before any IO, walks leave
// them out (a guard compares each entry), every file is compared with them
// again once open, and on Linux the path of each file opened or created
// is read back from the kernel and checked, so that a directory swapped
// for a link after the check does not lead into them either.
//
// Writes are atomic (a temporary file in the same directory, synced, then
// renamed over the target), and overwrites, edits and deletes keep a
// backup in .onetool/backups/ under the root unless Options.Backups is
// off; programs cannot reach the backups through the pack, as they lie in
// a .onetool directory, nor make the pack remove a young one
// (backups.go). Every result is bounded.
//
// Globs (glob, list's pattern, grep's include and exclude) are matched
// with github.com/bmatcuk/doublestar/v4 (glob.go). grep, glob and tree
// leave out what .gitignore files ignore, read with
// github.com/git-pkgs/gitignore through the same os.Root (gitignore.go).
package file

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/roots"
)

// Description is the pack's one-line description.
// It is in every conversation's instructions: keep it short.
const Description = "Read, search and change files inside the allowed roots (--root or the client's, projects, allowed_dirs)"

// Limits. Every result of the pack is bounded by them.
const (
	MaxReadFile   = 32 << 20  // largest file read, edit and append load (bytes)
	MaxReadOutput = 256 << 10 // text one file.read returns (bytes)
	MaxLineLen    = 8000      // longer lines are cut in read and grep output (bytes)
	MaxWrite      = 32 << 20  // largest content file.write accepts (bytes)
	MaxGrepFile   = 8 << 20   // larger files are skipped by grep (bytes)
	MaxEntries    = 10000     // largest `limit` of list, tree, glob, grep
	MaxScan       = 200000    // directory entries one walk looks at
	MaxCopy       = 1 << 30   // bytes one copy (or cross-device move) writes
	MaxCopyItems  = 20000     // files and directories one directory copy creates
)

// BackupDir is where backups go, relative to the allowed root the file
// lies in: one timestamped directory per operation, holding the old
// file(s) at their path relative to the root. See backups.go for how long
// they are kept.
const BackupDir = ".onetool/backups"

// Options configure the pack.
type Options struct {
	// Roots is required: every path is confined to these, unless the
	// run's context carries roots of its own (roots.NewContext).
	Roots     *roots.Roots
	ReadOnly  bool      // packs.file.read_only: write, edit, copy, move and delete refuse
	Backups   bool      // keep a backup before overwrite and delete (SPEC §8.2: on unless disabled)
	Retention Retention // how long backups are kept; the zero value means DefaultRetention
	// Redact hides the values of secrets in text, as a program is handed
	// them (the runner's redaction); nil when there are none. A file's
	// text is redacted before it is searched, counted or cut (grep,
	// read), and file.edit refuses a file that holds a secret: whether a
	// pattern matches would otherwise reveal a secret a character at a
	// time, although every line shown is redacted (SPEC §8.3).
	Redact func(ctx context.Context, text string) (string, error)

	hooks *testHooks // tests only
}

// testHooks let tests act at the moments safety depends on. Nil funcs do
// nothing.
type testHooks struct {
	// located runs after a path passed the roots check, before its IO:
	// where a swapped symlink would strike.
	located func(path string)
	// beforeRename runs when a temporary file is complete, before it
	// replaces its target; an error aborts the write.
	beforeRename func(tmp string) error
	// now is the clock backups are named and aged by.
	now func() time.Time
	// maxScan, when positive, replaces MaxScan in the variants' walks.
	maxScan int
}

// scanCap is MaxScan, or the tests' smaller cap.
func (h *testHooks) scanCap() int {
	if h != nil && h.maxScan > 0 {
		return h.maxScan
	}
	return MaxScan
}

func (h *testHooks) afterLocate(path string) {
	if h != nil && h.located != nil {
		h.located(path)
	}
}

func (h *testHooks) beforeReplace(tmp string) error {
	if h != nil && h.beforeRename != nil {
		return h.beforeRename(tmp)
	}
	return nil
}

// Register adds the file pack to r, with its description.
func Register(r *packs.Registry, o Options) error {
	if o.Roots == nil {
		return errors.New("file pack: Options.Roots is required")
	}
	r.SetPackDescription("file", Description)
	r.SetPackContext("file", helpContext(o.Roots, o.ReadOnly))
	// One pack state for the tools and their variants (Python's own file
	// APIs, pyops.go): they share the backups and the options.
	p := newPack(o)
	if err := r.RegisterBuiltin(p.tools()...); err != nil {
		return err
	}
	return r.RegisterVariants(p.pyops()...)
}

// pack is the state the handlers share: the options and where relative
// paths start. A run with roots of its own gets a copy (forRun) that
// shares the rest.
type pack struct {
	o         Options
	realBase  string // resolved Roots.Base, to show paths inside it relative
	retention Retention
	backups   *backupStore // shared by the copies
}

func newPack(o Options) *pack {
	p := &pack{o: o, retention: o.Retention, backups: newBackupStore()}
	if p.retention == (Retention{}) {
		p.retention = DefaultRetention()
	}
	if o.Roots != nil {
		p.realBase = o.Roots.RealBase()
	}
	return p
}

// visible is data as a program may see it: with every secret hidden.
// Whatever a tool matches, counts or cuts in a file's text is this, so
// that no answer depends on a secret's characters.
func (p *pack) visible(ctx context.Context, data []byte) ([]byte, error) {
	if p.o.Redact == nil || len(data) == 0 {
		return data, nil
	}
	text, err := p.o.Redact(ctx, string(data))
	if err != nil {
		return nil, fmt.Errorf("checking the file for secrets: %w", err)
	}
	if text == string(data) {
		return data, nil
	}
	return []byte(text), nil
}

// forRun returns the pack as the run of ctx sees it: with the run's own
// roots when its context carries some (an MCP session's), else p. Pack
// globals are built once for every run (SPEC §2.2), so the roots of a
// session travel with its runs rather than in the pack.
//
// Once the run made its scratch directory (tempfile, pyops.FileTemp), it
// is one more root of the run's, for every tool and variant.
func (p *pack) forRun(ctx context.Context) *pack {
	r := roots.FromContext(ctx, p.o.Roots)
	if rf := runFilesOf(ctx); rf != nil {
		r = rf.withScratch(r)
	}
	if r == p.o.Roots || r == nil {
		return p
	}
	q := *p
	q.o.Roots = r
	q.realBase = r.RealBase()
	return &q
}

// handler is a tool's work on the pack as its run sees it.
type handler func(p *pack, ctx context.Context, args map[string]any) (any, error)

// wrap guards a handler: no roots, a cancelled context and panics all
// become errors.
func (p *pack) wrap(fn handler) packs.Handler {
	return func(ctx context.Context, args map[string]any) (res any, err error) {
		defer func() {
			if r := recover(); r != nil {
				res, err = nil, fmt.Errorf("internal error: %v", r)
			}
		}()
		if p.o.Roots == nil {
			return nil, errors.New("no allowed roots are configured for the file pack")
		}
		if err := ctx.Err(); err != nil {
			return nil, stopped(ctx)
		}
		return fn(p.forRun(ctx), ctx, args)
	}
}

// modifying refuses when the pack is read-only.
func (p *pack) modifying(tool string) error {
	if p.o.ReadOnly {
		return fmt.Errorf("file.%s is not allowed: the file pack is read-only (packs.file.read_only: true in onetool.yaml); only read, list, tree, glob, grep and info work", tool)
	}
	return nil
}

func stopped(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("stopped: the time limit was reached (%w)", ctx.Err())
	}
	return fmt.Errorf("stopped: the call was cancelled (%w)", ctx.Err())
}

// locate checks a path argument and finds where it lies. entry keeps a
// symbolic link named by the last element as the link itself.
func (p *pack) locate(path string, entry bool) (roots.Location, error) {
	if path == "" {
		return roots.Location{}, fmt.Errorf("empty path: give a file or directory name, relative to %s or absolute inside the allowed roots", p.o.Roots.Base())
	}
	if path == "~" || strings.HasPrefix(path, "~/") || strings.HasPrefix(path, "~"+string(filepath.Separator)) {
		return roots.Location{}, fmt.Errorf("path '%s': '~' is not expanded; give an absolute path, or one relative to %s", path, p.o.Roots.Base())
	}
	locate := p.o.Roots.Locate
	if entry {
		locate = p.o.Roots.LocateEntry
	}
	loc, err := locate(path)
	if err != nil {
		return loc, resolveErr(err, path)
	}
	p.o.hooks.afterLocate(path)
	return loc, nil
}

// resolveErr words a failure to resolve a path; refusals (ErrOutside)
// are already worded by roots.
func resolveErr(err error, path string) error {
	msg := err.Error()
	switch {
	case errors.Is(err, roots.ErrProtected), errors.Is(err, roots.ErrNoRoot):
		return err // worded by roots
	case errors.Is(err, roots.ErrOutside):
		if len(path) > maxShown {
			return fmt.Errorf("path '%s' is outside the allowed roots: %w", short(path), roots.ErrOutside)
		}
		return err
	case errors.Is(err, syscall.ELOOP) || strings.Contains(msg, "too many links") || strings.Contains(msg, "too many levels of symbolic links"):
		return &worded{fmt.Sprintf("path '%s': too many levels of symbolic links (a loop of links?): look at the links with file.info or file.list", short(path)), syscall.ELOOP}
	case errors.Is(err, syscall.ENAMETOOLONG):
		return &worded{fmt.Sprintf("path '%s' is too long (%d bytes, or a name in it is): use shorter names", short(path), len(path)), err}
	case errors.Is(err, syscall.ENOTDIR):
		return &worded{fmt.Sprintf("path '%s': a part of it is a file, not a directory", short(path)), err}
	case strings.HasPrefix(msg, "empty path"):
		return err
	}
	return &worded{fmt.Sprintf("path '%s': %v", short(path), unwrapPath(err)), err}
}

// worded is an error worded for people that keeps the error it was
// worded from (an errno, fs.ErrNotExist…), so that errors.Is still finds
// it: Python's own file APIs turn it into FileNotFoundError and its kin
// (pyops.go).
type worded struct {
	text  string
	cause error
}

func (e *worded) Error() string { return e.text }
func (e *worded) Unwrap() error { return e.cause }

// guard keeps onetool's own files out of the IO done through one os.Root
// (SPEC §8.2): walks ask entry for each entry, and every file is passed to
// opened once open. It counts what it left out.
type guard struct {
	r       *roots.Roots // nil: nothing is protected (tests of helpers)
	root    string       // the real path of the os.Root in use
	skipped int          // entries left out
}

// guardFor returns the guard of IO under loc's root.
func (p *pack) guardFor(loc roots.Location) *guard {
	return &guard{r: p.o.Roots, root: loc.Root}
}

// entry reports whether rel (relative to the root, either separator) is
// onetool's own, counting it.
func (g *guard) entry(rel string) bool {
	if g == nil || g.r == nil {
		return false
	}
	if g.r.OwnEntry(filepath.Join(g.root, filepath.FromSlash(rel))) {
		g.skipped++
		return true
	}
	return false
}

// opened refuses the open file f, named name, when it is one of onetool's
// own files: by identity (a hard link, or a file swapped in after the
// check) and, where the system tells, by the path it was really opened at.
func (g *guard) opened(f *os.File, st fs.FileInfo, name string) error {
	if g == nil || g.r == nil {
		return nil
	}
	return g.r.CheckOpened(name, f, st)
}

// maxShown bounds how much of a path messages repeat.
const maxShown = 200

// short cuts a very long path for messages.
func short(path string) string {
	if len(path) <= maxShown {
		return path
	}
	return path[:maxShown/2] + "…" + path[len(path)-maxShown/4:]
}

// display returns how results name a real path: relative to the working
// directory when inside it, else absolute.
func (p *pack) display(real string) string {
	if rel, err := filepath.Rel(p.realBase, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return real
}

// openRoot opens the allowed root directory of loc.
func openRoot(loc roots.Location) (*os.Root, error) {
	r, err := os.OpenRoot(loc.Root)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("the allowed root %s does not exist: create it first", loc.Root)
		}
		return nil, fmt.Errorf("cannot open the allowed root %s: %v", loc.Root, unwrapPath(err))
	}
	return r, nil
}

// fsErr turns an error of an os.Root operation on the path the user
// called name into a readable one.
func fsErr(err error, name string) error {
	name = short(name)
	var text string
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		text = fmt.Sprintf("%s does not exist: check the name with file.list or file.glob", name)
	case errors.Is(err, fs.ErrPermission):
		text = fmt.Sprintf("permission denied: %s", name)
	case strings.Contains(err.Error(), "path escapes from parent"):
		return fmt.Errorf("path '%s' leads outside its allowed root (a symbolic link on the way points out): %w", name, roots.ErrOutside)
	case errors.Is(err, syscall.ENAMETOOLONG):
		text = fmt.Sprintf("%s: file name too long", name)
	case errors.Is(err, syscall.ELOOP):
		text = fmt.Sprintf("%s: too many levels of symbolic links", name)
	case errors.Is(err, syscall.ENOTDIR):
		text = fmt.Sprintf("%s: a part of the path is a file, not a directory", name)
	case errors.Is(err, syscall.ENOSPC):
		text = fmt.Sprintf("%s: no space left on the device", name)
	default:
		text = fmt.Sprintf("%s: %v", name, unwrapPath(err))
	}
	return &worded{text, err} // the errno stays for errors.Is
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// kind names the type of a file mode for messages and info.
func kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "file"
	case m.IsDir():
		return "dir"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m&fs.ModeNamedPipe != 0:
		return "fifo"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "other"
}

// notRegular explains why a non-regular file is refused.
func notRegular(name string, m fs.FileMode) error {
	if m.IsDir() {
		return &worded{fmt.Sprintf("%s is a directory, not a file: use file.list or file.tree to see inside", name), syscall.EISDIR}
	}
	return fmt.Errorf("%s is not a regular file (it is a %s): the file pack reads and writes regular files only", name, kind(m))
}

// Arguments. Handlers get what the binder passed: strings, int64 (or
// float64, json.Number from Go callers), bools, defaults filled in.

func strArg(args map[string]any, name string) (string, error) {
	v, ok := args[name]
	if !ok || v == nil {
		return "", fmt.Errorf("'%s' is required", name)
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("'%s' must be a string, got %T", name, v)
	}
	return s, nil
}

func optStr(args map[string]any, name, def string) (string, error) {
	v, ok := args[name]
	if !ok || v == nil {
		return def, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("'%s' must be a string, got %T", name, v)
	}
	return s, nil
}

func intArg(args map[string]any, name string, def, lo int) (int, error) {
	v, ok := args[name]
	if !ok || v == nil {
		return def, nil
	}
	var n int64
	switch x := v.(type) {
	case int:
		n = int64(x)
	case int64:
		n = x
	case float64:
		if x != float64(int64(x)) {
			return 0, fmt.Errorf("'%s' must be a whole number, got %v", name, x)
		}
		n = int64(x)
	case interface{ Int64() (int64, error) }: // json.Number
		i, err := x.Int64()
		if err != nil {
			return 0, fmt.Errorf("'%s' must be a whole number, got %v", name, x)
		}
		n = i
	default:
		return 0, fmt.Errorf("'%s' must be an int, got %T", name, v)
	}
	if n < int64(lo) {
		return 0, fmt.Errorf("'%s' must be at least %d, got %d", name, lo, n)
	}
	if n > 1<<31 {
		n = 1 << 31
	}
	return int(n), nil
}

func boolArg(args map[string]any, name string, def bool) (bool, error) {
	v, ok := args[name]
	if !ok || v == nil {
		return def, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("'%s' must be True or False, got %T", name, v)
	}
	return b, nil
}

// formatBytes writes a size for people: 512 bytes, 4.0 KiB, 32.0 MiB.
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}

// plural writes "1 file", "2 files".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
