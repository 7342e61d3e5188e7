package stdlib

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// What os, os.path, glob, shutil and pathlib.Path share over the file
// pack's variants (pyops/files.go): a stat or listing entry read from
// the Host's plain result (fsEntry), the calls themselves (hostStat,
// hostList, hostWalk), os.stat_result and the GlobFS glob and
// Path.glob read through.

// fsEntry is an entry of a stat, a listing or a walk.
type fsEntry struct {
	name, rel, typ, targetType      string
	size, mode, mtime, atime, ctime int64
	ino, dev, nlink                 int64
	hasIno                          bool
	realPath                        string
}

// isDir: a directory, or a link to one (what CPython's is_dir() and
// os.walk's classification follow).
func (e fsEntry) isDir() bool { return e.typ == "dir" || e.typ == "link" && e.targetType == "dir" }

// isFile is is_file(): a regular file, or a link to one.
func (e fsEntry) isFile() bool {
	return e.typ == "file" || e.typ == "link" && e.targetType == "file"
}

// getField is key of a result map: map[string]any in-process, an
// ordered map after the pipe of isolation: process.
func getField(v any, key string) (any, bool) {
	switch m := v.(type) {
	case map[string]any:
		x, ok := m[key]
		return x, ok
	case interface{ Get(string) (any, bool) }:
		return m.Get(key)
	}
	return nil, false
}

func fieldInt(v any, key string) int64 {
	x, _ := getField(v, key)
	switch n := x.(type) {
	case int64:
		return n
	case int:
		return int64(n)
	case float64:
		return int64(n)
	case json.Number:
		i, _ := n.Int64()
		return i
	}
	return 0
}

func fieldStr(v any, key string) string {
	x, _ := getField(v, key)
	s, _ := x.(string)
	return s
}

func fieldBool(v any, key string) bool {
	x, _ := getField(v, key)
	b, _ := x.(bool)
	return b
}

func fieldList(v any, key string) []any {
	x, _ := getField(v, key)
	l, _ := x.([]any)
	return l
}

func entryOf(v any) fsEntry {
	_, hasIno := getField(v, "ino")
	return fsEntry{
		name: fieldStr(v, "name"), rel: fieldStr(v, "rel"), typ: fieldStr(v, "type"),
		targetType: fieldStr(v, "target_type"),
		size:       fieldInt(v, "size"), mode: fieldInt(v, "mode"),
		mtime: fieldInt(v, "mtime_ns"), atime: fieldInt(v, "atime_ns"), ctime: fieldInt(v, "ctime_ns"),
		ino: fieldInt(v, "ino"), dev: fieldInt(v, "dev"), nlink: fieldInt(v, "nlink"), hasIno: hasIno,
		realPath: fieldStr(v, "real"),
	}
}

// hostPath is a path as the host reads it: "" (glob's current
// directory) is ".".
func hostPath(p string) string {
	if p == "" {
		return "."
	}
	return p
}

// hostStat is os.stat (follow) or os.lstat of path; the error is the
// Host's (pass it through pyErr).
func hostStat(thread *starlark.Thread, path string, follow bool) (fsEntry, error) {
	r, err := call(thread, pyops.FileStat, map[string]any{"path": hostPath(path), "follow": follow})
	if err != nil {
		return fsEntry{}, err
	}
	return entryOf(r), nil
}

// hostEntries reads the "entries" of a result, charging the memory they
// take to the run before it keeps them.
func hostEntries(thread *starlark.Thread, r any) ([]fsEntry, error) {
	raw := fieldList(r, "entries")
	b := interp.BudgetOf(thread)
	if err := b.Charge(uint64(len(raw)) + 1); err != nil {
		return nil, err
	}
	out := make([]fsEntry, len(raw))
	n := 0
	for i, x := range raw {
		out[i] = entryOf(x)
		n += 96 + len(out[i].name) + len(out[i].rel)
	}
	if err := b.Alloc(int64(n)); err != nil {
		return nil, err
	}
	return out, nil
}

// hostList is os.listdir of path, sorted by name.
func hostList(thread *starlark.Thread, path string) ([]fsEntry, error) {
	r, err := call(thread, pyops.FileList, map[string]any{"path": hostPath(path)})
	if err != nil {
		return nil, err
	}
	return hostEntries(thread, r)
}

// hostWalk lists the tree under path in walk order.
func hostWalk(thread *starlark.Thread, path string, follow bool, maxDepth int64) ([]fsEntry, error) {
	args := map[string]any{"path": hostPath(path), "follow_links": follow}
	if maxDepth > 0 {
		args["max_depth"] = maxDepth
	}
	r, err := call(thread, pyops.FileWalk, args)
	if err != nil {
		return nil, err
	}
	return hostEntries(thread, r)
}

// isFSKind reports whether err is a file error CPython's predicates
// answer False for (os.path.exists of what cannot be seen; decision 10:
// a path outside the roots or among onetool's own files is not there).
func isFSKind(err error) bool {
	var ex *pyrt.Exception
	if err == nil || isBudget(err) || errors.As(err, &ex) {
		return false
	}
	return true
}

// isUnseen reports whether a predicate (os.path.exists, Path.is_file…)
// answers False to err: a file error, or call's ValueError for a path with
// a NUL byte, which CPython's predicates answer False to as well.
func isUnseen(err error) bool {
	var ex *pyrt.Exception
	if errors.As(err, &ex) {
		return ex.Class == "ValueError"
	}
	return isFSKind(err)
}

// predicate answers a stat-based question, False where the path cannot
// be seen.
func predicate(thread *starlark.Thread, path string, follow bool, test func(fsEntry) bool) (starlark.Value, error) {
	e, err := hostStat(thread, path, follow)
	if err != nil {
		if isUnseen(err) {
			return starlark.False, nil
		}
		return nil, err
	}
	return starlark.Bool(test(e)), nil
}

// Stat modes (Linux's S_IF*), for a mode the host did not give.
const (
	sIFMT  = 0o170000
	sIFDIR = 0o040000
	sIFREG = 0o100000
	sIFLNK = 0o120000
)

// modeOf is st_mode: the host's, or one made from the type.
func (e fsEntry) modeOf() int64 {
	if e.mode&sIFMT != 0 {
		return e.mode
	}
	perm := e.mode & 0o7777
	switch e.typ {
	case "dir":
		if perm == 0 {
			perm = 0o755
		}
		return sIFDIR | perm
	case "link":
		return sIFLNK | 0o777
	}
	if perm == 0 {
		perm = 0o644
	}
	return sIFREG | perm
}

// statResult is os.stat_result: a 10-tuple (st_mode, st_ino, st_dev,
// st_nlink, st_uid, st_gid, st_size, and the three times in whole
// seconds) whose attributes have the times as floats and in ns.
type statResult struct{ e fsEntry }

var statResultClass = &pyClass{module: "os", name: "stat_result", is: isOf[*statResult]}

var (
	_ starlark.Indexable  = (*statResult)(nil)
	_ starlark.HasAttrs   = (*statResult)(nil)
	_ starlark.Comparable = (*statResult)(nil)
)

func (s *statResult) PyClass() starlark.Value { return statResultClass }

var statFields = []string{"st_mode", "st_ino", "st_dev", "st_nlink", "st_uid", "st_gid", "st_size", "st_atime", "st_mtime", "st_ctime"}

func (s *statResult) ints() []int64 {
	e := s.e
	return []int64{e.modeOf(), e.ino, e.dev, max(e.nlink, 1), 0, 0, e.size, e.atime / 1e9, e.mtime / 1e9, e.ctime / 1e9}
}

func (s *statResult) tuple() starlark.Tuple {
	t := make(starlark.Tuple, 10)
	for i, n := range s.ints() {
		t[i] = starlark.MakeInt64(n)
	}
	return t
}

func (s *statResult) String() string {
	var b strings.Builder
	b.WriteString("os.stat_result(")
	for i, n := range s.ints() {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s=%d", statFields[i], n)
	}
	b.WriteString(")")
	return b.String()
}
func (s *statResult) Type() string               { return "os.stat_result" }
func (s *statResult) Freeze()                    {}
func (s *statResult) Truth() starlark.Bool       { return true }
func (s *statResult) Hash() (uint32, error)      { return s.tuple().Hash() }
func (s *statResult) Len() int                   { return 10 }
func (s *statResult) Index(i int) starlark.Value { return starlark.MakeInt64(s.ints()[i]) }
func (s *statResult) Iterate() starlark.Iterator { return s.tuple().Iterate() }
func (s *statResult) BuiltinBase() string        { return "tuple" }
func (s *statResult) Slice(start, end, step int) starlark.Value {
	return s.tuple().Slice(start, end, step)
}
func (s *statResult) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.CompareDepth(op, s.tuple(), y.(*statResult).tuple(), depth)
}

func (s *statResult) AttrNames() []string {
	return append(append([]string{}, statFields...), "st_atime_ns", "st_mtime_ns", "st_ctime_ns", "st_blksize", "st_blocks")
}

func (s *statResult) Attr(name string) (starlark.Value, error) {
	e := s.e
	switch name {
	case "st_atime":
		return starlark.Float(float64(e.atime) / 1e9), nil
	case "st_mtime":
		return starlark.Float(float64(e.mtime) / 1e9), nil
	case "st_ctime":
		return starlark.Float(float64(e.ctime) / 1e9), nil
	case "st_atime_ns":
		return starlark.MakeInt64(e.atime), nil
	case "st_mtime_ns":
		return starlark.MakeInt64(e.mtime), nil
	case "st_ctime_ns":
		return starlark.MakeInt64(e.ctime), nil
	case "st_blksize":
		return starlark.MakeInt(4096), nil
	case "st_blocks":
		return starlark.MakeInt64((e.size + 511) / 512), nil
	}
	for i, f := range statFields {
		if f == name {
			return s.Index(i), nil
		}
	}
	return nil, noAttrNamed("os.stat_result", name)
}

// hostGlobFS is the GlobFS of one glob or Path.glob call over the host:
// each directory is listed once (a cache of the call), and what cannot
// be listed lists nothing, as CPython ignores those errors.
type hostGlobFS struct {
	thread *starlark.Thread
	lists  map[string][]GlobEntry
}

func newHostGlobFS(thread *starlark.Thread) *hostGlobFS {
	return &hostGlobFS{thread: thread, lists: map[string][]GlobEntry{}}
}

func (fs *hostGlobFS) Scan(dir string) ([]GlobEntry, error) {
	if l, ok := fs.lists[dir]; ok {
		return l, nil
	}
	entries, err := hostList(fs.thread, dir)
	if err != nil {
		if isFSKind(err) {
			fs.lists[dir] = nil
			return nil, nil
		}
		return nil, err
	}
	out := make([]GlobEntry, len(entries))
	for i, e := range entries {
		out[i] = GlobEntry{Name: e.name, IsDir: e.isDir(), IsLink: e.typ == "link"}
	}
	fs.lists[dir] = out
	return out, nil
}

// known answers from a listing of path's directory already made.
func (fs *hostGlobFS) known(path string) (GlobEntry, bool, bool) {
	dir, name := splitPath(strings.TrimRight(path, "/"))
	if name == "" || strings.HasSuffix(path, "/") {
		return GlobEntry{}, false, false
	}
	l, ok := fs.lists[dir]
	if !ok {
		return GlobEntry{}, false, false
	}
	for _, e := range l {
		if e.Name == name {
			return e, true, true
		}
	}
	return GlobEntry{}, false, true
}

func (fs *hostGlobFS) Lexists(path string) (bool, error) {
	if _, found, ok := fs.known(path); ok {
		return found, nil
	}
	_, err := hostStat(fs.thread, path, false)
	if err != nil {
		if isFSKind(err) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

func (fs *hostGlobFS) IsDir(path string) (bool, error) {
	if e, found, ok := fs.known(path); ok {
		return found && e.IsDir, nil
	}
	e, err := hostStat(fs.thread, path, true)
	if err != nil {
		if isFSKind(err) {
			return false, nil
		}
		return false, err
	}
	return e.typ == "dir", nil
}

// pathStrings turns the strings of a result into str (or bytes) values,
// charged.
func pathStrings(thread *starlark.Thread, ss []string, bytes bool) (*starlark.List, error) {
	n := 0
	for _, s := range ss {
		n += len(s) + 16
	}
	if err := interp.BudgetOf(thread).Alloc(int64(n)); err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(ss))
	for i, s := range ss {
		out[i] = pathText{s, bytes}.value()
	}
	return starlark.NewList(out), nil
}
