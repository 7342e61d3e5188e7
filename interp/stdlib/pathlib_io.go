package stdlib

import (
	"errors"
	"sort"
	"strings"
	"sync"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// pathlib.Path's I/O (issue 31): the PathIO that NewPathlib gives Path,
// over the same calls as os (os_fs.go) and open()'s file objects
// (openFile), within the run's roots.

// PathlibModule is the pathlib module with Path's I/O.
func PathlibModule() *starlarkstruct.Module { return HostPathlib().Module() }

// HostPathlib is pathlib's classes with Path's I/O, for a host that hands
// programs paths of its own: proj.api (SPEC §5.3) is a pathlib.Path whose
// I/O is the same calls as any other Path's.
func HostPathlib() *Pathlib {
	io := &pathIO{}
	io.pl = NewPathlib(io)
	return io.pl
}

// pathIO is Path's I/O for the build pl of pathlib's classes.
type pathIO struct{ pl *Pathlib }

type pathMethod func(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

// pathIOMethods are Path's methods of I/O, by name.
var pathIOMethods = sync.OnceValue(func() map[string]pathMethod {
	m := map[string]pathMethod{
		"exists":          pathPredicate(true, func(fsEntry) bool { return true }),
		"is_file":         pathPredicate(true, func(e fsEntry) bool { return e.typ == "file" }),
		"is_dir":          pathPredicate(true, func(e fsEntry) bool { return e.typ == "dir" }),
		"is_symlink":      pathPredicate(false, func(e fsEntry) bool { return e.typ == "link" }),
		"is_mount":        pathPredicate(false, func(fsEntry) bool { return false }),
		"is_socket":       pathPredicate(true, func(e fsEntry) bool { return e.modeOf()&sIFMT == 0o140000 }),
		"is_fifo":         pathPredicate(true, func(e fsEntry) bool { return e.modeOf()&sIFMT == 0o010000 }),
		"is_block_device": pathPredicate(true, func(e fsEntry) bool { return e.modeOf()&sIFMT == 0o060000 }),
		"is_char_device":  pathPredicate(true, func(e fsEntry) bool { return e.modeOf()&sIFMT == 0o020000 }),
		"iterdir":         pathIterdir,
		"list":            pathList,
		"glob":            pathGlobMethod,
		"rglob":           pathGlobMethod,
		"stat":            pathStat,
		"lstat":           pathStat,
		"read_text":       pathReadText,
		"read_bytes":      pathReadText,
		"write_text":      pathWriteText,
		"write_bytes":     pathWriteText,
		"open":            pathOpen,
		"mkdir":           pathMkdir,
		"touch":           pathTouch,
		"unlink":          pathUnlink,
		"rmdir":           pathRmdir,
		"rename":          pathRename,
		"replace":         pathRename,
		"resolve":         pathResolve,
		"absolute":        pathAbsolute,
		"samefile":        pathSamefile,
		"expanduser":      pathExpandUser,
	}
	for _, name := range []string{"owner", "group", "chmod", "lchmod", "symlink_to", "hardlink_to", "link_to", "readlink"} {
		m[name] = pathRefused
	}
	return m
})

func (io *pathIO) AttrNames() []string {
	names := make([]string, 0, len(pathIOMethods()))
	for k := range pathIOMethods() {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func (io *pathIO) Attr(p *PurePathValue, name string) (starlark.Value, error) {
	f, ok := pathIOMethods()[name]
	if !ok {
		return nil, nil
	}
	return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return f(thread, b.Name(), b.Receiver().(*PurePathValue), args, kwargs)
	}).BindReceiver(p), nil
}

// ClassAttr is Path.cwd() and Path.home() (refused).
func (io *pathIO) ClassAttr(name string) starlark.Value {
	switch name {
	case "cwd":
		return interp.NewBuiltin("cwd", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := (webParams{fn: "Path.cwd"}).unpack(args, kwargs); err != nil {
				return nil, err
			}
			cwd, err := runCwd(thread)
			if err != nil {
				return nil, err
			}
			root, parts := parsePathParts([]string{cwd})
			return io.pl.concrete.from(interp.BudgetOf(thread), root, parts), nil
		})
	case "home":
		return interp.NewBuiltin("home", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return nil, HomeRefused("Path.home")
		})
	}
	return nil
}

// sibling is s as a path of p's class.
func (p *PurePathValue) sibling(thread *starlark.Thread, s string) *PurePathValue {
	root, parts := parsePathParts([]string{s})
	return p.cls.from(interp.BudgetOf(thread), root, parts)
}

func pathPredicate(follow bool, test func(fsEntry) bool) pathMethod {
	return func(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := (webParams{fn: "Path." + fn, self: true}).unpack(args, kwargs); err != nil {
			return nil, err
		}
		e, err := hostStat(thread, p.Str(), follow)
		switch {
		case errors.Is(err, pyops.ErrDenied):
			// Path's predicates raise what refuses to look (a path
			// outside the roots), as CPython's raise EACCES; os.path's
			// answer False.
			return nil, pyErr(err, p.Str())
		case isUnseen(err):
			return starlark.False, nil
		case err != nil:
			return nil, err
		}
		return starlark.Bool(test(e)), nil
	}
}

func pathRefused(_ *starlark.Thread, fn string, _ *PurePathValue, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	return nil, pyrt.Errorf("PermissionError", "Path.%s is not available here: programs cannot see or change owners, permissions or links; read, write, move and delete files within the allowed roots instead", fn)
}

func pathIterdir(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := (webParams{fn: "Path.iterdir", self: true}).unpack(args, kwargs); err != nil {
		return nil, err
	}
	// CPython lists when the generator starts; here at the call, so
	// that the error is at the line that asked.
	entries, err := hostList(thread, p.Str())
	if err != nil {
		return nil, pyErr(err, p.Str())
	}
	i := 0
	return pyrt.NewIterator(thread, "generator", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		if i >= len(entries) {
			return nil, false, nil
		}
		i++
		c, err := p.child(thread, starlark.Tuple{interp.MakeString(entries[i-1].name)})
		return c, err == nil, err
	}, p), nil
}

// pathList is p.list(), onetool's own (SPEC §5.3, from before pathlib):
// the entries of a directory as paths, sorted by name — what
// sorted(p.iterdir()) gives.
func pathList(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := (webParams{fn: "Path.list", self: true}).unpack(args, kwargs); err != nil {
		return nil, err
	}
	entries, err := hostList(thread, p.Str())
	if err != nil {
		return nil, pyErr(err, p.Str())
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.name
	}
	sort.Strings(names)
	if err := interp.BudgetOf(thread).Charge(uint64(len(names)) * 16); err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(names))
	for i, n := range names {
		c, err := p.child(thread, starlark.Tuple{interp.MakeString(n)})
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return starlark.NewList(out), nil
}

func pathGlobMethod(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := (webParams{fn: "Path." + fn, names: []string{"pattern"}, required: 1, maxPos: 1, self: true}).unpack(args, kwargs, &v); err != nil {
		return nil, err
	}
	pat, ok := interp.AsText(v)
	if !ok {
		t, err := fsPathText(thread, v)
		if err != nil {
			return nil, err
		}
		pat = t.s
	}
	dir := p.Str()
	found, err := PathGlob(interp.BudgetOf(thread), newHostGlobFS(thread), dir, pat, fn == "rglob")
	if err != nil {
		return nil, pyErr(err, dir)
	}
	i := 0
	return pyrt.NewIterator(thread, "generator", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		if i >= len(found) {
			return nil, false, nil
		}
		i++
		return p.sibling(thread, found[i-1]), true, nil
	}, p), nil
}

func pathStat(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	follow := starlark.Value(starlark.Bool(fn == "stat"))
	if fn == "stat" {
		if err := (webParams{fn: "Path.stat", names: []string{"follow_symlinks"}, self: true}).unpack(args, kwargs, &follow); err != nil {
			return nil, err
		}
	} else if err := (webParams{fn: "Path.lstat", self: true}).unpack(args, kwargs); err != nil {
		return nil, err
	}
	e, err := hostStat(thread, p.Str(), bool(follow.Truth()))
	if err != nil {
		return nil, pyErr(err, p.Str())
	}
	return &statResult{e: e}, nil
}

// textOpt is an optional str argument of open's ("" for None).
func textOpt(fn, param string, v starlark.Value) (string, error) {
	if v == nil || v == starlark.None {
		return "", nil
	}
	s, ok := interp.AsText(v)
	if !ok {
		return "", pyrt.Errorf("TypeError", "%s() argument '%s' must be str or None, not %s", fn, param, pyrt.TypeName(v))
	}
	return s, nil
}

// withFile runs use over the file openFile makes, closing it after
// (and committing what was written) whatever use returns.
func withFile(thread *starlark.Thread, p *PurePathValue, mode string, o openOptions, use func(f starlark.Value) (starlark.Value, error)) (starlark.Value, error) {
	f, err := openFile(thread, p, mode, o)
	if err != nil {
		return nil, err
	}
	v, err := use(f)
	if _, cerr := callMethod(thread, f, "close"); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// pathReadText is read_text(encoding=None, errors=None) and read_bytes().
func pathReadText(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	o := openOptions{Buffering: -1, Closefd: true}
	mode := "rb"
	if fn == "read_text" {
		mode = "r"
		var enc, errs starlark.Value = starlark.None, starlark.None
		if err := (webParams{fn: "Path.read_text", names: []string{"encoding", "errors"}, maxPos: 2, self: true}).unpack(args, kwargs, &enc, &errs); err != nil {
			return nil, err
		}
		var err error
		if o.Encoding, err = textOpt("open", "encoding", enc); err != nil {
			return nil, err
		}
		if o.Errors, err = textOpt("open", "errors", errs); err != nil {
			return nil, err
		}
	} else if err := (webParams{fn: "Path.read_bytes", self: true}).unpack(args, kwargs); err != nil {
		return nil, err
	}
	return withFile(thread, p, mode, o, func(f starlark.Value) (starlark.Value, error) {
		return callMethod(thread, f, "read")
	})
}

// pathWriteText is write_text(data, encoding=None, errors=None,
// newline=None) and write_bytes(data): how much was written.
func pathWriteText(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	o := openOptions{Buffering: -1, Closefd: true}
	var data, enc, errs, nl starlark.Value = nil, starlark.None, starlark.None, starlark.None
	mode := "wb"
	if fn == "write_text" {
		mode = "w"
		if err := (webParams{fn: "Path.write_text", names: []string{"data", "encoding", "errors", "newline"}, required: 1, maxPos: 4, self: true}).unpack(args, kwargs, &data, &enc, &errs, &nl); err != nil {
			return nil, err
		}
		if _, ok := interp.AsText(data); !ok {
			return nil, pyrt.Errorf("TypeError", "data must be str, not %s", pyrt.TypeName(data))
		}
		var err error
		if o.Encoding, err = textOpt("open", "encoding", enc); err != nil {
			return nil, err
		}
		if o.Errors, err = textOpt("open", "errors", errs); err != nil {
			return nil, err
		}
		if nl != starlark.None {
			if o.Newline, err = textOpt("open", "newline", nl); err != nil {
				return nil, err
			}
			o.HasNewline = true
		}
	} else {
		if err := (webParams{fn: "Path.write_bytes", names: []string{"data"}, required: 1, maxPos: 1, self: true}).unpack(args, kwargs, &data); err != nil {
			return nil, err
		}
		if _, ok := interp.AsBytes(data); !ok {
			return nil, pyrt.Errorf("TypeError", "memoryview: a bytes-like object is required, not '%s'", pyrt.TypeName(data))
		}
	}
	return withFile(thread, p, mode, o, func(f starlark.Value) (starlark.Value, error) {
		return callMethod(thread, f, "write", data)
	})
}

// pathOpen is open(mode='r', buffering=-1, encoding=None, errors=None,
// newline=None): open()'s file object.
func pathOpen(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var mode, buffering, enc, errs, nl starlark.Value = starlark.String("r"), starlark.MakeInt(-1), starlark.None, starlark.None, starlark.None
	if err := (webParams{fn: "Path.open", names: []string{"mode", "buffering", "encoding", "errors", "newline"}, maxPos: 5, self: true}).unpack(args, kwargs, &mode, &buffering, &enc, &errs, &nl); err != nil {
		return nil, err
	}
	m, ok := interp.AsText(mode)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "open() argument 'mode' must be str, not %s", pyrt.TypeName(mode))
	}
	o := openOptions{Buffering: -1, Closefd: true}
	if err := starlark.AsInt(buffering, &o.Buffering); err != nil {
		return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(buffering))
	}
	var err error
	if o.Encoding, err = textOpt("open", "encoding", enc); err != nil {
		return nil, err
	}
	if o.Errors, err = textOpt("open", "errors", errs); err != nil {
		return nil, err
	}
	if nl != starlark.None {
		if o.Newline, err = textOpt("open", "newline", nl); err != nil {
			return nil, err
		}
		o.HasNewline = true
	}
	return openFile(thread, p, m, o)
}

func pathMkdir(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var mode, parents, existOK starlark.Value = nil, starlark.False, starlark.False
	if err := (webParams{fn: "Path.mkdir", names: []string{"mode", "parents", "exist_ok"}, maxPos: 3, self: true}).unpack(args, kwargs, &mode, &parents, &existOK); err != nil {
		return nil, err
	}
	return fileMkdir(thread, p.Str(), bool(parents.Truth()), bool(existOK.Truth()))
}

func pathTouch(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var mode, existOK starlark.Value = nil, starlark.True
	if err := (webParams{fn: "Path.touch", names: []string{"mode", "exist_ok"}, maxPos: 2, self: true}).unpack(args, kwargs, &mode, &existOK); err != nil {
		return nil, err
	}
	if _, err := call(thread, pyops.FileTouch, map[string]any{"path": p.Str(), "exist_ok": bool(existOK.Truth())}); err != nil {
		return nil, pyErr(err, p.Str())
	}
	return starlark.None, nil
}

func pathUnlink(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var missingOK starlark.Value = starlark.False
	if err := (webParams{fn: "Path.unlink", names: []string{"missing_ok"}, maxPos: 1, self: true}).unpack(args, kwargs, &missingOK); err != nil {
		return nil, err
	}
	return fileRemove(thread, p.Str(), "file", bool(missingOK.Truth()))
}

func pathRmdir(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := (webParams{fn: "Path.rmdir", self: true}).unpack(args, kwargs); err != nil {
		return nil, err
	}
	return fileRemove(thread, p.Str(), "dir", false)
}

// pathRename is rename(target) and replace(target): the new Path.
func pathRename(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var target starlark.Value
	if err := (webParams{fn: "Path." + fn, names: []string{"target"}, required: 1, maxPos: 1, self: true}).unpack(args, kwargs, &target); err != nil {
		return nil, err
	}
	t, err := fsPath(thread, "", target)
	if err != nil {
		return nil, err
	}
	if _, err := fileRename(thread, p.Str(), t); err != nil {
		return nil, err
	}
	return p.sibling(thread, t), nil
}

func pathResolve(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var strict starlark.Value = starlark.False
	if err := (webParams{fn: "Path.resolve", names: []string{"strict"}, maxPos: 1, self: true}).unpack(args, kwargs, &strict); err != nil {
		return nil, err
	}
	s, err := resolvePath(thread, p.Str(), bool(strict.Truth()))
	if err != nil {
		if bool(strict.Truth()) || !isFSKind(err) {
			return nil, pyErr(err, p.Str())
		}
		if s, err = absoluteOf(thread, p.Str()); err != nil {
			return nil, err
		}
		s = NormPath(s)
	}
	return p.sibling(thread, s), nil
}

func absoluteOf(thread *starlark.Thread, s string) (string, error) {
	if strings.HasPrefix(s, "/") {
		return s, nil
	}
	cwd, err := runCwd(thread)
	if err != nil {
		return "", err
	}
	if s == "." {
		return cwd, nil
	}
	return joinPaths(cwd, []string{s}), nil
}

func pathAbsolute(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := (webParams{fn: "Path.absolute", self: true}).unpack(args, kwargs); err != nil {
		return nil, err
	}
	if p.root != "" {
		return p, nil
	}
	s, err := absoluteOf(thread, p.Str())
	if err != nil {
		return nil, err
	}
	return p.sibling(thread, s), nil
}

func pathSamefile(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var other starlark.Value
	if err := (webParams{fn: "Path.samefile", names: []string{"other_path"}, required: 1, maxPos: 1, self: true}).unpack(args, kwargs, &other); err != nil {
		return nil, err
	}
	o, err := fsPath(thread, "", other)
	if err != nil {
		return nil, err
	}
	return sameFile(thread, p.Str(), o)
}

func pathExpandUser(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := (webParams{fn: "Path.expanduser", self: true}).unpack(args, kwargs); err != nil {
		return nil, err
	}
	if p.root == "" && len(p.parts) > 0 {
		if first, _ := interp.AsText(p.parts[0]); strings.HasPrefix(first, "~") {
			return nil, HomeRefused("Path.expanduser")
		}
	}
	return p, nil
}
