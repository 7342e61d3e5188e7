package stdlib

import (
	"path"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// The shutil module (issue 31): copies, moves and tree removal through
// the file pack's file.copy, file.move and file.delete, within the run's
// roots, asking before what destroys as those tools do.

var (
	shutilError    = pyrt.NewModuleClass("shutil.Error", "OSError")
	shutilSameFile = pyrt.NewModuleSubclass("shutil.SameFileError", shutilError)
)

// Shutil is the shutil module.
func Shutil() *starlarkstruct.Module {
	fn := func(name string, f interp.BuiltinFunc) starlark.Value { return interp.NewBuiltin(name, f) }
	refuse := func(name, hint string) starlark.Value {
		return fn(name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return nil, pyrt.Errorf("PermissionError", "shutil.%s is not available here: %s", name, hint)
		})
	}
	m := starlark.StringDict{
		"copy":          fn("copy", shutilCopy),
		"copy2":         fn("copy2", shutilCopy),
		"copyfile":      fn("copyfile", shutilCopy),
		"copytree":      fn("copytree", shutilCopytree),
		"move":          fn("move", shutilMove),
		"rmtree":        fn("rmtree", shutilRmtree),
		"copyfileobj":   fn("copyfileobj", shutilCopyfileobj),
		"disk_usage":    refuse("disk_usage", "a program cannot see the disk beyond the allowed roots"),
		"which":         refuse("which", "programs cannot run commands here; run independent tool calls at once with parallel([...])"),
		"Error":         shutilError,
		"SameFileError": shutilSameFile,
	}
	for _, name := range []string{"chown", "copymode", "copystat", "make_archive", "unpack_archive", "get_terminal_size"} {
		m[name] = refuse(name, "permissions, owners, archives and terminals are out of a program's reach; zipfile and gzip read and write archives")
	}
	return &starlarkstruct.Module{Name: "shutil", Members: m}
}

// copyDest is where copy and move put src given dst: inside dst when it
// is a directory.
func copyDest(thread *starlark.Thread, src, dst string) (string, error) {
	e, err := hostStat(thread, dst, true)
	if err != nil {
		if isFSKind(err) {
			return dst, nil
		}
		return "", err
	}
	if e.typ == "dir" {
		_, name := splitPath(trimSlashes(src))
		return joinPaths(dst, []string{name}), nil
	}
	return dst, nil
}

func trimSlashes(s string) string {
	for len(s) > 1 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	return s
}

// shutilCopy is copy(src, dst, *, follow_symlinks=True), copy2 (the
// modification time kept) and copyfile (dst must not be a directory):
// the destination written.
func shutilCopy(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var srcV, dstV, follow starlark.Value = nil, nil, starlark.True
	if err := (webParams{fn: b.Name(), names: []string{"src", "dst", "follow_symlinks"}, required: 2, maxPos: 2}).unpack(args, kwargs, &srcV, &dstV, &follow); err != nil {
		return nil, err
	}
	src, err := osPathArg(thread, b.Name(), srcV)
	if err != nil {
		return nil, err
	}
	dst, err := osPathArg(thread, b.Name(), dstV)
	if err != nil {
		return nil, err
	}
	to := dst.s
	if b.Name() != "copyfile" {
		if to, err = copyDest(thread, src.s, dst.s); err != nil {
			return nil, pyErr(err, dst.s)
		}
	}
	if _, err := call(thread, pyops.FileCopy, map[string]any{"src": src.s, "dst": to, "meta": b.Name() == "copy2"}); err != nil {
		return nil, pyErr(err, src.s, to)
	}
	return dst.of(to), nil
}

// shutilCopytree is copytree(src, dst, symlinks=False, ignore=None,
// copy_function=copy2, ignore_dangling_symlinks=False,
// dirs_exist_ok=False): dst.
func shutilCopytree(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var srcV, dstV, symlinks, ignore, copyFn, dangling, existOK starlark.Value = nil, nil, starlark.False, starlark.None, starlark.None, starlark.False, starlark.False
	if err := (webParams{fn: "copytree", names: []string{"src", "dst", "symlinks", "ignore", "copy_function", "ignore_dangling_symlinks", "dirs_exist_ok"}, required: 2, maxPos: 7}).unpack(args, kwargs, &srcV, &dstV, &symlinks, &ignore, &copyFn, &dangling, &existOK); err != nil {
		return nil, err
	}
	if ignore != starlark.None {
		return nil, pyrt.Errorf("NotImplementedError", "copytree(ignore=...) is not supported here: copy the tree, then remove what you do not want, or copy the files you want one by one with shutil.copy2")
	}
	src, err := osPathArg(thread, "copytree", srcV)
	if err != nil {
		return nil, err
	}
	dst, err := osPathArg(thread, "copytree", dstV)
	if err != nil {
		return nil, err
	}
	if parent := path.Dir(strings.TrimRight(dst.s, "/")); parent != "." && parent != "/" {
		// copytree makes dst with os.makedirs: its missing parents too.
		if _, err := call(thread, pyops.FileMkdir, map[string]any{"path": parent, "parents": true, "exist_ok": true}); err != nil {
			return nil, pyErr(err, parent)
		}
	}
	if _, err := call(thread, pyops.FileCopy, map[string]any{"src": src.s, "dst": dst.s, "tree": true, "dirs_exist_ok": bool(existOK.Truth()), "meta": true}); err != nil {
		return nil, pyErr(err, dst.s)
	}
	return dst.value(), nil
}

// shutilMove is move(src, dst, copy_function=copy2): a rename, into dst
// when it is a directory; the destination.
func shutilMove(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var srcV, dstV, copyFn starlark.Value = nil, nil, starlark.None
	if err := (webParams{fn: "move", names: []string{"src", "dst", "copy_function"}, required: 2, maxPos: 3}).unpack(args, kwargs, &srcV, &dstV, &copyFn); err != nil {
		return nil, err
	}
	src, err := osPathArg(thread, "move", srcV)
	if err != nil {
		return nil, err
	}
	dst, err := osPathArg(thread, "move", dstV)
	if err != nil {
		return nil, err
	}
	to, err := copyDest(thread, src.s, dst.s)
	if err != nil {
		return nil, pyErr(err, dst.s)
	}
	if to != dst.s {
		// CPython refuses to move into a directory that already has the
		// name, rather than replace it.
		if _, err := hostStat(thread, to, false); err == nil {
			return nil, shutilError.Raise("Destination path '"+to+"' already exists", nil)
		}
	}
	if _, err := fileRename(thread, src.s, to); err != nil {
		return nil, err
	}
	return dst.of(to), nil
}

// shutilRmtree is rmtree(path, ignore_errors=False, onerror=None).
func shutilRmtree(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var pathV, ignoreErrors, onerror, dirFD starlark.Value = nil, starlark.False, starlark.None, starlark.None
	if err := (webParams{fn: "rmtree", names: []string{"path", "ignore_errors", "onerror", "dir_fd"}, required: 1, maxPos: 3}).unpack(args, kwargs, &pathV, &ignoreErrors, &onerror, &dirFD); err != nil {
		return nil, err
	}
	p, err := osPathArg(thread, "rmtree", pathV)
	if err != nil {
		return nil, err
	}
	// CPython refuses a link (it would delete where it points).
	if e, err := hostStat(thread, p.s, false); err == nil && e.typ == "link" {
		err := pyrt.OSError("OSError", 0, "Cannot call rmtree on a symbolic link", "")
		if ignoreErrors.Truth() {
			return starlark.None, nil
		}
		return nil, err
	}
	_, err = fileRemove(thread, p.s, "tree", false)
	if err == nil || isBudget(err) {
		return starlark.None, err
	}
	if ignoreErrors.Truth() {
		return starlark.None, nil
	}
	if onerror != starlark.None {
		exc, ok := pyrt.ExceptionOf(thread, err)
		if !ok {
			return nil, err
		}
		info := starlark.Tuple{exc.Class(), exc, starlark.None}
		if _, err := starlark.Call(thread, onerror, starlark.Tuple{interp.NewBuiltin("rmtree", osRemove), p.value(), info}, nil); err != nil {
			return nil, err
		}
		return starlark.None, nil
	}
	return nil, err
}

// shutilCopyfileobj is copyfileobj(fsrc, fdst, length=0): fsrc.read in
// chunks written to fdst, for any file-like objects.
func shutilCopyfileobj(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var src, dst, length starlark.Value = nil, nil, starlark.MakeInt(0)
	if err := (webParams{fn: "copyfileobj", names: []string{"fsrc", "fdst", "length"}, required: 2, maxPos: 3}).unpack(args, kwargs, &src, &dst, &length); err != nil {
		return nil, err
	}
	n, err := starlark.AsInt32(length)
	if err != nil || n <= 0 {
		n = 64 << 10
	}
	read, err := pyrt.GetAttr(thread, src, "read")
	if err != nil {
		return nil, err
	}
	write, err := pyrt.GetAttr(thread, dst, "write")
	if err != nil {
		return nil, err
	}
	for {
		if err := interp.BudgetOf(thread).Charge(1); err != nil {
			return nil, err
		}
		buf, err := starlark.Call(thread, read, starlark.Tuple{starlark.MakeInt(n)}, nil)
		if err != nil {
			return nil, err
		}
		if !buf.Truth() {
			return starlark.None, nil
		}
		if _, err := starlark.Call(thread, write, starlark.Tuple{buf}, nil); err != nil {
			return nil, err
		}
	}
}
