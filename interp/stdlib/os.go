package stdlib

import (
	"runtime"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// The os module (issue 31): files and directories through the file
// pack's variants (os_fs.go), within the run's allowed roots; os.path is
// posixpath (os_path.go) with the functions that read the file system;
// environ is the run's allow-listed environment, read-only. What would
// leave the sandbox (processes, descriptors, the current directory,
// permissions, links) raises with a hint.

// runCwd is the current directory of the run on thread (Facts.Cwd; "/"
// without one).
func runCwd(thread *starlark.Thread) (string, error) {
	if c := facts(thread).Cwd; c != "" {
		return c, nil
	}
	return "/", nil
}

// OSModules are os and its os.path (also importable as posixpath: the
// same module).
func OSModules() (os, path starlark.Value) {
	m := OS().(*osModule)
	return m, m.Members["path"]
}

// OS is the os module.
func OS() starlark.Value {
	fn := func(name string, f interp.BuiltinFunc) starlark.Value { return interp.NewBuiltin(name, f) }
	m := starlark.StringDict{
		"listdir":  fn("listdir", osListdir),
		"scandir":  fn("scandir", osScandir),
		"walk":     fn("walk", osWalk),
		"makedirs": fn("makedirs", osMakedirs),
		"mkdir":    fn("mkdir", osMkdir),
		"remove":   fn("remove", osRemove),
		"unlink":   fn("unlink", osRemove),
		"rmdir":    fn("rmdir", osRemove),
		"rename":   fn("rename", osRename),
		"replace":  fn("replace", osRename),
		"getcwd":   fn("getcwd", osGetcwd),
		"getcwdb":  fn("getcwdb", osGetcwd),
		"stat":     fn("stat", osStat),
		"lstat":    fn("lstat", osStat),
		"getenv":   fn("getenv", osGetenv),
		"cpu_count": fn("cpu_count", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt(runtime.NumCPU()), nil
		}),
		"fspath": fn("fspath", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := (webParams{fn: "fspath", names: []string{"path"}, required: 1, maxPos: 1, builtin: true}).unpack(args, kwargs, &v); err != nil {
				return nil, err
			}
			return FSPath(thread, v)
		}),
		"path":        osPathModule(),
		"environ":     &osEnviron{},
		"PathLike":    pathLikeClass,
		"DirEntry":    dirEntryClass,
		"stat_result": statResultClass,
		"error":       Builtins()["OSError"],
		"sep":         starlark.String("/"),
		"altsep":      starlark.None,
		"extsep":      starlark.String("."),
		"pathsep":     starlark.String(":"),
		"linesep":     starlark.String("\n"),
		"curdir":      starlark.String("."),
		"pardir":      starlark.String(".."),
		"devnull":     starlark.String("/dev/null"),
		"defpath":     starlark.String("/bin:/usr/bin"),
		"name":        starlark.String("posix"),
		"F_OK":        starlark.MakeInt(0),
		"R_OK":        starlark.MakeInt(4),
		"W_OK":        starlark.MakeInt(2),
		"X_OK":        starlark.MakeInt(1),
	}
	for _, name := range osRefusedProcess {
		m[name] = osRefuser(name, "programs cannot start, signal or wait for processes here; run independent tool calls at once with parallel([...])")
	}
	for _, name := range osRefusedFS {
		m[name] = osRefuser(name, "programs cannot change permissions, owners, links, descriptors or the current directory; use the paths from the current directory, and os/pathlib/shutil to read, write, move and delete files within the allowed roots")
	}
	for _, name := range []string{"putenv", "unsetenv"} {
		m[name] = osRefuser(name, osEnvironHint)
	}
	return &osModule{Module: &starlarkstruct.Module{Name: "os", Members: m}}
}

var osRefusedProcess = []string{
	"system", "popen", "fork", "forkpty", "kill", "killpg", "abort", "_exit", "wait", "waitpid", "wait3", "wait4",
	"execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp", "execvpe",
	"spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe", "posix_spawn", "posix_spawnp",
	"getpid", "getppid", "getpgid", "setpgid", "getsid", "setsid", "nice", "pipe", "startfile",
	"getuid", "geteuid", "getgid", "getegid", "setuid", "setgid", "getlogin", "getloadavg", "times", "uname",
}

var osRefusedFS = []string{
	"chdir", "fchdir", "chroot", "chmod", "lchmod", "fchmod", "chown", "lchown", "fchown", "symlink", "link", "readlink",
	"open", "close", "read", "write", "dup", "dup2", "lseek", "fsync", "truncate", "ftruncate", "utime",
	"mkfifo", "mknod", "umask", "statvfs", "access", "removedirs", "renames", "urandom",
}

// osRefuser is a function of os that a program may not use: it raises
// PermissionError with hint.
func osRefuser(name, hint string) starlark.Value {
	return interp.NewBuiltin(name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		return nil, pyrt.Errorf("PermissionError", "os.%s is not available here: %s", name, hint)
	})
}

// osPathArg is a path argument of an os function: its text and whether
// it is bytes, with CPython's TypeError for anything else.
func osPathArg(thread *starlark.Thread, fn string, v starlark.Value) (pathText, error) {
	p, err := fsPathText(thread, v)
	if err != nil && isTypeError(err) && !strings.Contains(err.Error(), "__fspath__") {
		return pathText{}, pyrt.Errorf("TypeError", "%s: path should be string, bytes or os.PathLike, not %s", fn, pyrt.TypeName(v))
	}
	return p, err
}

// optPath is a path argument that defaults to ".".
func optPath(thread *starlark.Thread, fn string, v starlark.Value) (pathText, error) {
	if v == nil || v == starlark.None {
		return pathText{s: "."}, nil
	}
	return osPathArg(thread, fn, v)
}

func osListdir(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := (webParams{fn: "listdir", names: []string{"path"}, maxPos: 1, builtin: true}).unpack(args, kwargs, &v); err != nil {
		return nil, err
	}
	p, err := optPath(thread, "listdir", v)
	if err != nil {
		return nil, err
	}
	entries, err := hostList(thread, p.s)
	if err != nil {
		return nil, pyErr(err, p.s)
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.name
	}
	return pathStrings(thread, names, p.bytes)
}

func osScandir(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := (webParams{fn: "scandir", names: []string{"path"}, maxPos: 1, builtin: true}).unpack(args, kwargs, &v); err != nil {
		return nil, err
	}
	p, err := optPath(thread, "scandir", v)
	if err != nil {
		return nil, err
	}
	entries, err := hostList(thread, p.s)
	if err != nil {
		return nil, pyErr(err, p.s)
	}
	it := &scandirIter{thread: thread}
	for _, e := range entries {
		it.entries = append(it.entries, &dirEntry{e: e, dir: p})
	}
	return it, nil
}

// scandirIter is os.scandir's iterator: it is also a context manager,
// and close() ends it.
type scandirIter struct {
	thread  *starlark.Thread
	entries []*dirEntry
	i       int
	closed  bool
}

var (
	_                pyrt.Stepper  = (*scandirIter)(nil)
	_                interp.Holder = (*scandirIter)(nil)
	scandirIterClass               = &pyClass{module: "posix", name: "ScandirIterator", is: isOf[*scandirIter]}
)

func (it *scandirIter) PyClass() starlark.Value    { return scandirIterClass }
func (it *scandirIter) String() string             { return "<posix.ScandirIterator object>" }
func (it *scandirIter) Type() string               { return "ScandirIterator" }
func (it *scandirIter) Freeze()                    {}
func (it *scandirIter) Truth() starlark.Bool       { return true }
func (it *scandirIter) Hash() (uint32, error)      { return 0, nil }
func (it *scandirIter) Iterate() starlark.Iterator { return &stepIter{s: it, thread: it.thread} }
func (it *scandirIter) Held(visit func(starlark.Value)) {
	for _, e := range it.entries[it.i:] {
		visit(e)
	}
}

func (it *scandirIter) Step(*starlark.Thread) (starlark.Value, bool, error) {
	if it.closed || it.i >= len(it.entries) {
		return nil, false, nil
	}
	it.i++
	return it.entries[it.i-1], true, nil
}

func (it *scandirIter) AttrNames() []string { return []string{"__enter__", "__exit__", "close"} }

func (it *scandirIter) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__enter__":
		return interp.NewBuiltin(name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return it, nil
		}), nil
	case "__exit__", "close":
		return interp.NewBuiltin(name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			it.closed = true
			return starlark.None, nil
		}), nil
	}
	return nil, nil
}

// dirEntry is os.DirEntry: what the listing said of a name, with stat()
// asked of the host when called (and kept).
type dirEntry struct {
	e         fsEntry
	dir       pathText
	stat, lst *statResult
}

var (
	_             interp.PathLike = (*dirEntry)(nil)
	dirEntryClass                 = &pyClass{module: "os", name: "DirEntry", is: isOf[*dirEntry]}
)

func (d *dirEntry) path() string            { return joinPaths(d.dir.s, []string{d.e.name}) }
func (d *dirEntry) FSPath() string          { return d.path() }
func (d *dirEntry) PyClass() starlark.Value { return dirEntryClass }
func (d *dirEntry) String() string          { return "<DirEntry " + interp.QuoteString(d.e.name) + ">" }
func (d *dirEntry) Type() string            { return "DirEntry" }
func (d *dirEntry) Freeze()                 {}
func (d *dirEntry) Truth() starlark.Bool    { return true }
func (d *dirEntry) Hash() (uint32, error)   { return starlark.String(d.path()).Hash() }

func (d *dirEntry) AttrNames() []string {
	return []string{"__fspath__", "inode", "is_dir", "is_file", "is_junction", "is_symlink", "name", "path", "stat"}
}

func (d *dirEntry) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return d.dir.of(d.e.name), nil
	case "path":
		return d.dir.of(d.path()), nil
	}
	method := func(f func(thread *starlark.Thread, follow bool) (starlark.Value, error)) starlark.Value {
		return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			follow := starlark.Value(starlark.True)
			if name == "is_dir" || name == "is_file" || name == "stat" {
				if err := (webParams{fn: "DirEntry." + name, names: []string{"follow_symlinks"}, builtin: true}).unpack(args, kwargs, &follow); err != nil {
					return nil, err
				}
			} else if err := (webParams{fn: "DirEntry." + name, builtin: true}).unpack(args, kwargs); err != nil {
				return nil, err
			}
			return f(thread, follow.Truth() == starlark.True)
		})
	}
	switch name {
	case "__fspath__":
		return method(func(*starlark.Thread, bool) (starlark.Value, error) { return d.dir.of(d.path()), nil }), nil
	case "is_dir":
		return method(func(_ *starlark.Thread, follow bool) (starlark.Value, error) {
			return starlark.Bool(d.e.typ == "dir" || follow && d.e.typ == "link" && d.e.targetType == "dir"), nil
		}), nil
	case "is_file":
		return method(func(_ *starlark.Thread, follow bool) (starlark.Value, error) {
			return starlark.Bool(d.e.typ == "file" || follow && d.e.typ == "link" && d.e.targetType == "file"), nil
		}), nil
	case "is_symlink":
		return method(func(*starlark.Thread, bool) (starlark.Value, error) { return starlark.Bool(d.e.typ == "link"), nil }), nil
	case "is_junction":
		return method(func(*starlark.Thread, bool) (starlark.Value, error) { return starlark.False, nil }), nil
	case "stat":
		return method(d.statOf), nil
	case "inode":
		return method(func(thread *starlark.Thread, _ bool) (starlark.Value, error) {
			st, err := d.statOf(thread, false)
			if err != nil {
				return nil, err
			}
			return starlark.MakeInt64(st.(*statResult).e.ino), nil
		}), nil
	}
	return nil, nil
}

// statOf is DirEntry.stat(): asked once of the host (the listing has no
// inode), then kept, as CPython caches it.
func (d *dirEntry) statOf(thread *starlark.Thread, follow bool) (starlark.Value, error) {
	if d.e.typ != "link" {
		follow = false // the same answer: keep one
	}
	slot := &d.lst
	if follow {
		slot = &d.stat
	}
	if *slot == nil {
		e, err := hostStat(thread, d.path(), follow)
		if err != nil {
			return nil, pyErr(err, d.path())
		}
		*slot = &statResult{e: e}
	}
	return *slot, nil
}

// osWalk is os.walk(top, topdown=True, onerror=None, followlinks=False):
// the tree is listed by one call of the host; the directories are then
// given one at a time, and, top down, only those still in dirnames
// after the program's loop body are entered.
func osWalk(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var topV, topdown, onerror, follow starlark.Value = nil, starlark.True, starlark.None, starlark.False
	if err := (webParams{fn: "walk", names: []string{"top", "topdown", "onerror", "followlinks"}, required: 1, maxPos: 4}).unpack(args, kwargs, &topV, &topdown, &onerror, &follow); err != nil {
		return nil, err
	}
	top, err := osPathArg(thread, "walk", topV)
	if err != nil {
		return nil, err
	}
	w := &walker{top: top, follow: bool(follow.Truth()), children: map[string][]fsEntry{}}
	started := false
	var order []starlark.Value // bottom up: every triple, made at the start
	next := func(thread *starlark.Thread) (starlark.Value, bool, error) {
		if !started {
			started = true
			if err := w.list(thread); err != nil {
				if !isFSKind(err) {
					return nil, false, err
				}
				if onerror != starlark.None {
					exc, ok := pyrt.ExceptionOf(thread, pyErr(err, top.s))
					if ok {
						if _, err := starlark.Call(thread, onerror, starlark.Tuple{exc}, nil); err != nil {
							return nil, false, err
						}
					}
				}
				w.done = true
			} else if topdown.Truth() {
				w.stack = []walkDir{{path: top.s, rel: ""}}
			} else {
				if err := w.bottomUp(thread, top.s, "", &order); err != nil {
					return nil, false, err
				}
			}
		}
		if w.done {
			return nil, false, nil
		}
		if !topdown.Truth() {
			if len(order) == 0 {
				return nil, false, nil
			}
			x := order[0]
			order = order[1:]
			return x, true, nil
		}
		return w.nextTopDown(thread)
	}
	return pyrt.NewIterator(thread, "generator", next), nil
}

type walkDir struct{ path, rel string }

type walker struct {
	top      pathText
	follow   bool
	children map[string][]fsEntry // by the rel of their directory ("" for top)
	stack    []walkDir
	last     *walkDir       // the directory last given, top down
	lastDirs *starlark.List // its dirnames, as the program left them
	done     bool
}

// list lists the tree. A top that is not a directory is the error
// CPython's scandir(top) gives.
func (w *walker) list(thread *starlark.Thread) error {
	entries, err := hostWalk(thread, w.top.s, w.follow, 0)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		e, err := hostStat(thread, w.top.s, true)
		if err != nil {
			return err
		}
		if e.typ != "dir" {
			return pyops.Tag(pyops.ErrNotDir, errNotDir)
		}
	}
	for _, e := range entries {
		rel := e.rel
		if rel == "" {
			rel = e.name
		}
		dir, name := splitPath(rel)
		e.name = name
		e.rel = rel
		w.children[dir] = append(w.children[dir], e)
	}
	return nil
}

var errNotDir = pyops.ErrNotDir

// split is a directory's dirnames and filenames, in the listing's order.
func (w *walker) split(rel string) (dirs, files []string) {
	for _, e := range w.children[rel] {
		if e.isDir() {
			dirs = append(dirs, e.name)
		} else {
			files = append(files, e.name)
		}
	}
	return dirs, files
}

// enters reports whether the walk goes into the directory rel (a link to
// one only with followlinks).
func (w *walker) enters(rel string) bool {
	dir, name := splitPath(rel)
	for _, e := range w.children[dir] {
		if e.name == name {
			return e.typ == "dir" || w.follow && e.isDir()
		}
	}
	return false
}

func (w *walker) triple(thread *starlark.Thread, d walkDir) (starlark.Tuple, *starlark.List, error) {
	dirs, files := w.split(d.rel)
	dl, err := pathStrings(thread, dirs, w.top.bytes)
	if err != nil {
		return nil, nil, err
	}
	fl, err := pathStrings(thread, files, w.top.bytes)
	if err != nil {
		return nil, nil, err
	}
	return starlark.Tuple{w.top.of(d.path), dl, fl}, dl, nil
}

func (w *walker) nextTopDown(thread *starlark.Thread) (starlark.Value, bool, error) {
	if w.last != nil {
		// The program may have pruned or reordered dirnames: enter
		// those left, in their order.
		n := w.lastDirs.Len()
		for i := n - 1; i >= 0; i-- {
			name, ok := interp.AsText(w.lastDirs.Index(i))
			if !ok {
				if b, isB := w.lastDirs.Index(i).(interp.Bytes); isB {
					name = string(b)
				} else {
					continue
				}
			}
			rel := joinPaths(w.last.rel, []string{name})
			if w.last.rel == "" {
				rel = name
			}
			if w.enters(rel) {
				w.stack = append(w.stack, walkDir{path: joinPaths(w.last.path, []string{name}), rel: rel})
			}
		}
		w.last, w.lastDirs = nil, nil
	}
	if len(w.stack) == 0 {
		return nil, false, nil
	}
	d := w.stack[len(w.stack)-1]
	w.stack = w.stack[:len(w.stack)-1]
	t, dl, err := w.triple(thread, d)
	if err != nil {
		return nil, false, err
	}
	w.last, w.lastDirs = &d, dl
	return t, true, nil
}

func (w *walker) bottomUp(thread *starlark.Thread, path, rel string, out *[]starlark.Value) error {
	if err := interp.BudgetOf(thread).Charge(1); err != nil {
		return err
	}
	t, dl, err := w.triple(thread, walkDir{path: path, rel: rel})
	if err != nil {
		return err
	}
	for i := 0; i < dl.Len(); i++ {
		name, _ := interp.AsText(dl.Index(i))
		if b, isB := dl.Index(i).(interp.Bytes); isB {
			name = string(b)
		}
		sub := name
		if rel != "" {
			sub = rel + "/" + name
		}
		if w.enters(sub) {
			if err := w.bottomUp(thread, joinPaths(path, []string{name}), sub, out); err != nil {
				return err
			}
		}
	}
	*out = append(*out, t)
	return nil
}

func osMakedirs(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v, mode, existOK starlark.Value = nil, nil, starlark.False
	if err := (webParams{fn: "makedirs", names: []string{"name", "mode", "exist_ok"}, required: 1, maxPos: 3}).unpack(args, kwargs, &v, &mode, &existOK); err != nil {
		return nil, err
	}
	p, err := osPathArg(thread, "makedirs", v)
	if err != nil {
		return nil, err
	}
	return fileMkdir(thread, p.s, true, bool(existOK.Truth()))
}

func fileMkdir(thread *starlark.Thread, path string, parents, existOK bool) (starlark.Value, error) {
	_, err := call(thread, pyops.FileMkdir, map[string]any{"path": path, "parents": parents, "exist_ok": existOK})
	if err != nil {
		return nil, pyErr(err, path)
	}
	return starlark.None, nil
}

func osMkdir(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v, mode, dirFD starlark.Value
	if err := (webParams{fn: "mkdir", names: []string{"path", "mode", "dir_fd"}, required: 1, maxPos: 2, builtin: true}).unpack(args, kwargs, &v, &mode, &dirFD); err != nil {
		return nil, err
	}
	p, err := osPathArg(thread, "mkdir", v)
	if err != nil {
		return nil, err
	}
	return fileMkdir(thread, p.s, false, false)
}

// osRemove is remove, unlink (a file) and rmdir (an empty directory).
func osRemove(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v, dirFD starlark.Value
	if err := (webParams{fn: b.Name(), names: []string{"path", "dir_fd"}, required: 1, maxPos: 1, builtin: true}).unpack(args, kwargs, &v, &dirFD); err != nil {
		return nil, err
	}
	p, err := osPathArg(thread, b.Name(), v)
	if err != nil {
		return nil, err
	}
	kind := "file"
	if b.Name() == "rmdir" {
		kind = "dir"
	}
	return fileRemove(thread, p.s, kind, false)
}

func fileRemove(thread *starlark.Thread, path, kind string, missingOK bool) (starlark.Value, error) {
	_, err := call(thread, pyops.FileRemove, map[string]any{"path": path, "kind": kind, "missing_ok": missingOK})
	if err != nil {
		return nil, pyErr(err, path)
	}
	return starlark.None, nil
}

// osRename is rename and replace: POSIX's rename, which replaces a file.
func osRename(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var src, dst, fd1, fd2 starlark.Value
	if err := (webParams{fn: b.Name(), names: []string{"src", "dst", "src_dir_fd", "dst_dir_fd"}, required: 2, maxPos: 2, builtin: true}).unpack(args, kwargs, &src, &dst, &fd1, &fd2); err != nil {
		return nil, err
	}
	s, err := osPathArg(thread, b.Name(), src)
	if err != nil {
		return nil, err
	}
	d, err := osPathArg(thread, b.Name(), dst)
	if err != nil {
		return nil, err
	}
	return fileRename(thread, s.s, d.s)
}

func fileRename(thread *starlark.Thread, src, dst string) (starlark.Value, error) {
	if _, err := call(thread, pyops.FileRename, map[string]any{"src": src, "dst": dst}); err != nil {
		return nil, pyErr(err, src, dst)
	}
	return starlark.None, nil
}

func osGetcwd(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := (webParams{fn: b.Name(), builtin: true}).unpack(args, kwargs); err != nil {
		return nil, err
	}
	cwd, err := runCwd(thread)
	if err != nil {
		return nil, err
	}
	return pathText{cwd, b.Name() == "getcwdb"}.value(), nil
}

// osStat is stat(path, *, dir_fd=None, follow_symlinks=True) and lstat.
func osStat(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v, dirFD starlark.Value
	follow := starlark.Value(starlark.Bool(b.Name() == "stat"))
	names := []string{"path", "dir_fd", "follow_symlinks"}
	if b.Name() == "lstat" {
		names = names[:2]
	}
	out := []*starlark.Value{&v, &dirFD, &follow}
	if err := (webParams{fn: b.Name(), names: names, required: 1, maxPos: 1, builtin: true}).unpack(args, kwargs, out[:len(names)]...); err != nil {
		return nil, err
	}
	p, err := osPathArg(thread, b.Name(), v)
	if err != nil {
		return nil, err
	}
	e, err := hostStat(thread, p.s, bool(follow.Truth()))
	if err != nil {
		return nil, pyErr(err, p.s)
	}
	return &statResult{e: e}, nil
}

// osPathModule is os.path: posixpath's pure functions and those that ask
// the file system.
func osPathModule() *starlarkstruct.Module {
	m := OSPath(runCwd)
	fn := func(name string, f interp.BuiltinFunc) starlark.Value { return interp.NewBuiltin(name, f) }
	pred := func(name string, follow bool, test func(fsEntry) bool) starlark.Value {
		return fn(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := (webParams{fn: name, names: []string{"path"}, required: 1, maxPos: 1}).unpack(args, kwargs, &v); err != nil {
				return nil, err
			}
			p, err := fsPathText(thread, v)
			if err != nil {
				if isTypeError(err) {
					return starlark.False, nil // CPython's exists(3) asks fd 3: none here
				}
				return nil, err
			}
			return predicate(thread, p.s, follow, test)
		})
	}
	statOf := func(name string, get func(fsEntry) starlark.Value) starlark.Value {
		return fn(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := (webParams{fn: name, names: []string{"filename"}, required: 1, maxPos: 1}).unpack(args, kwargs, &v); err != nil {
				return nil, err
			}
			p, err := osPathArg(thread, "stat", v)
			if err != nil {
				return nil, err
			}
			e, err := hostStat(thread, p.s, true)
			if err != nil {
				return nil, pyErr(err, p.s)
			}
			return get(e), nil
		})
	}
	add := starlark.StringDict{
		"exists":     pred("exists", true, func(fsEntry) bool { return true }),
		"lexists":    pred("lexists", false, func(fsEntry) bool { return true }),
		"isfile":     pred("isfile", true, func(e fsEntry) bool { return e.typ == "file" }),
		"isdir":      pred("isdir", true, func(e fsEntry) bool { return e.typ == "dir" }),
		"islink":     pred("islink", false, func(e fsEntry) bool { return e.typ == "link" }),
		"ismount":    pred("ismount", false, func(fsEntry) bool { return false }),
		"getsize":    statOf("getsize", func(e fsEntry) starlark.Value { return starlark.MakeInt64(e.size) }),
		"getmtime":   statOf("getmtime", func(e fsEntry) starlark.Value { return starlark.Float(float64(e.mtime) / 1e9) }),
		"getatime":   statOf("getatime", func(e fsEntry) starlark.Value { return starlark.Float(float64(e.atime) / 1e9) }),
		"getctime":   statOf("getctime", func(e fsEntry) starlark.Value { return starlark.Float(float64(e.ctime) / 1e9) }),
		"realpath":   fn("realpath", osRealpath),
		"samefile":   fn("samefile", osSamefile),
		"expandvars": fn("expandvars", osExpandVars),
	}
	for k, v := range add {
		m.Members[k] = v
	}
	return m
}

// resolvePath is the path with every link followed, absolute (the host's
// answer); strict: a missing path is an error.
func resolvePath(thread *starlark.Thread, path string, strict bool) (string, error) {
	r, err := call(thread, pyops.FileResolve, map[string]any{"path": hostPath(path), "strict": strict})
	if err != nil {
		return "", err
	}
	return fieldStr(r, "path"), nil
}

// osRealpath is realpath(path, *, strict=False). A path the host cannot
// resolve (outside the roots) is only made absolute, as CPython's
// non-strict realpath does not fail.
func osRealpath(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v, strict starlark.Value = nil, starlark.False
	if err := (webParams{fn: "realpath", names: []string{"filename", "strict"}, required: 1, maxPos: 1}).unpack(args, kwargs, &v, &strict); err != nil {
		return nil, err
	}
	p, err := fsPathText(thread, v)
	if err != nil {
		return nil, err
	}
	s, err := resolvePath(thread, p.s, bool(strict.Truth()))
	if err != nil {
		if bool(strict.Truth()) || !isFSKind(err) {
			return nil, pyErr(err, p.s)
		}
		s = p.s
		if !strings.HasPrefix(s, "/") {
			cwd, _ := runCwd(thread)
			s = joinPaths(cwd, []string{s})
		}
		s = NormPath(s)
	}
	return p.of(s), nil
}

// sameFile compares two stats as samefile does: device and inode.
func sameFile(thread *starlark.Thread, a, b string) (starlark.Value, error) {
	ea, err := hostStat(thread, a, true)
	if err != nil {
		return nil, pyErr(err, a)
	}
	eb, err := hostStat(thread, b, true)
	if err != nil {
		return nil, pyErr(err, b)
	}
	return starlark.Bool(ea.dev == eb.dev && ea.ino == eb.ino), nil
}

func osSamefile(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var a, b starlark.Value
	if err := (webParams{fn: "samefile", names: []string{"f1", "f2"}, required: 2, maxPos: 2}).unpack(args, kwargs, &a, &b); err != nil {
		return nil, err
	}
	pa, err := osPathArg(thread, "stat", a)
	if err != nil {
		return nil, err
	}
	pb, err := osPathArg(thread, "stat", b)
	if err != nil {
		return nil, err
	}
	return sameFile(thread, pa.s, pb.s)
}

// osExpandVars is expandvars(path): $name and ${name} from os.environ;
// an unknown name is left as it is.
func osExpandVars(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := (webParams{fn: "expandvars", names: []string{"path"}, required: 1, maxPos: 1}).unpack(args, kwargs, &v); err != nil {
		return nil, err
	}
	p, err := fsPathText(thread, v)
	if err != nil {
		return nil, err
	}
	if !strings.Contains(p.s, "$") {
		return p.value(), nil
	}
	if err := pathCharge(thread, 2*len(p.s)); err != nil {
		return nil, err
	}
	env := facts(thread).Env
	s := p.s
	var out strings.Builder
	isName := func(c byte) bool {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	for i := 0; i < len(s); {
		if s[i] != '$' {
			out.WriteByte(s[i])
			i++
			continue
		}
		var name string
		end := i + 1
		if end < len(s) && s[end] == '{' {
			close := strings.IndexByte(s[end:], '}')
			if close < 0 {
				out.WriteString(s[i:])
				break
			}
			name, end = s[end+1:end+close], end+close+1
		} else {
			for end < len(s) && isName(s[end]) {
				end++
			}
			name = s[i+1 : end]
		}
		if val, ok := env[name]; ok && name != "" {
			out.WriteString(val)
		} else {
			out.WriteString(s[i:end])
			if end == i+1 {
				end = i + 1
			}
		}
		if end <= i {
			end = i + 1
		}
		i = end
	}
	if err := pathCharge(thread, out.Len()); err != nil {
		return nil, err
	}
	return p.of(out.String()), nil
}

// pathLikeClass is os.PathLike: isinstance knows paths, DirEntry and any
// value whose class defines __fspath__.
var pathLikeClass = &pyClass{module: "os", name: "PathLike", is: func(v starlark.Value) bool {
	if _, ok := v.(interp.PathLike); ok {
		return true
	}
	if ha, ok := v.(starlark.HasAttrs); ok {
		if f, err := ha.Attr("__fspath__"); err == nil && f != nil {
			return true
		}
	}
	return false
}}

// osModule is the os module as `import os` gives it to a run
// (ThreadBinder): os.environ, a Mapping whose Get has no thread, reads
// the environment of the input running now, which the run's interp.Host
// knows — a module kept in a session follows its later inputs, and holds
// no thread of an input that ended.
type osModule struct {
	*starlarkstruct.Module
	host   *interp.Host
	thread *starlark.Thread // only without a Host (a thread no run made)
}

var _ pyrt.ThreadBinder = (*osModule)(nil)

// BindThread is the module as `import os` gives it to the run on thread.
func (m *osModule) BindThread(thread *starlark.Thread) starlark.Value {
	if h := interp.HostOf(thread); h != nil {
		return &osModule{Module: m.Module, host: h}
	}
	return &osModule{Module: m.Module, thread: thread}
}

func (m *osModule) Attr(name string) (starlark.Value, error) {
	if name == "environ" {
		thread := m.thread
		if m.host != nil {
			thread = m.host.Thread()
		}
		return &osEnviron{thread: thread}, nil
	}
	return m.Module.Attr(name)
}

func (m *osModule) AttrNames() []string {
	return append(m.Module.AttrNames(), "environ")
}
