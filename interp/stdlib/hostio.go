package stdlib

import (
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// What the modules of Python's own I/O (open, os, pathlib, glob, shutil,
// tempfile, urllib.request, requests, sqlite3; issue 31) share: every
// operation is a call of a pack tool's variant through the run's
// pyops.Host (call), paths are read as os.fspath reads them (fsPath), and
// the error kinds of package pyops become CPython's exceptions (pyErr).

// call runs the variant op ("file.read@chunk") for the run on thread
// through its Host, with the run's context. Without a Host (interp alone,
// a test) it raises OSError saying the access is not available. Errors
// come back as the Host gives them: pass them through pyErr (files) or
// the module's own mapping (web, db); a budget's or a cancellation's
// goes through those unchanged.
func call(thread *starlark.Thread, op string, args map[string]any) (any, error) {
	h := pyops.From(thread)
	if h == nil {
		return nil, pyrt.Errorf("OSError", "%s", pyops.ErrNoHost.Error())
	}
	// A path with a NUL byte is CPython's ValueError before any system
	// call; os.path.exists and Path.exists answer False to it.
	for _, k := range [...]string{"path", "src", "dst"} {
		if p, ok := args[k].(string); ok && strings.IndexByte(p, 0) >= 0 {
			return nil, pyrt.Errorf("ValueError", "embedded null byte")
		}
	}
	return h.Call(interp.Context(thread), op, args)
}

// facts are what the run's Host says of it (cwd, roots, environ); empty
// facts, with an empty environment, without a Host.
func facts(thread *starlark.Thread) pyops.Facts {
	h := pyops.From(thread)
	if h == nil {
		return pyops.Facts{Env: map[string]string{}}
	}
	return h.Facts(interp.Context(thread))
}

// fsPath is os.fspath(v) as a str for the host (bytes read as UTF-8, as
// the host's paths are): fsPathText's rules, with CPython's wording of a
// wrong type where the argument has a name (what: "path", "file").
func fsPath(thread *starlark.Thread, what string, v starlark.Value) (string, error) {
	p, err := fsPathText(thread, v)
	var ex *pyrt.Exception
	if err != nil && what != "" && errors.As(err, &ex) && ex.Class == "TypeError" && strings.HasPrefix(ex.Msg, "expected str, bytes or os.PathLike object") {
		return "", pyrt.Errorf("TypeError", "%s: path should be string, bytes or os.PathLike, not %s", what, pyrt.TypeName(v))
	}
	return p.s, err
}

// osErrno is how pyErr words each kind of file error: CPython's class,
// errno and strerror (Linux's), and whether the pack's own text follows
// the strerror (a cap or a refusal says what to do; a missing file says
// nothing CPython's words do not).
var osErrno = []struct {
	kind     error
	class    string
	errno    int
	strerror string
	detail   bool
}{
	{pyops.ErrNotFound, "FileNotFoundError", 2, "No such file or directory", false},
	{pyops.ErrExists, "FileExistsError", 17, "File exists", false},
	{pyops.ErrIsDir, "IsADirectoryError", 21, "Is a directory", false},
	{pyops.ErrNotDir, "NotADirectoryError", 20, "Not a directory", false},
	{pyops.ErrNotEmpty, "OSError", 39, "Directory not empty", false},
	{pyops.ErrLoop, "OSError", 40, "Too many levels of symbolic links", false},
	{pyops.ErrNameTooLong, "OSError", 36, "File name too long", false},
	{pyops.ErrTooLarge, "OSError", 27, "File too large", true},
	{pyops.ErrChanged, "OSError", 5, "Input/output error", true},
}

// pyErr turns the error of a file operation on filename (as the program
// wrote it; filename2 for rename, copy and move) into CPython's
// exception (docs/design.md, "Python's own I/O APIs"):
//
//	ErrNotFound → FileNotFoundError: [Errno 2] No such file or directory: 'x'
//	ErrExists, ErrIsDir, ErrNotDir → FileExistsError(17), IsADirectoryError(21), NotADirectoryError(20)
//	ErrNotEmpty, ErrLoop, ErrNameTooLong → OSError(39, 40, 36) with CPython's strerror
//	ErrDenied → PermissionError: [Errno 13] <the pack's or runner's message, which names the roots or the policy>
//	ErrTooLarge, ErrChanged, anything else → OSError(27, 5): strerror (the pack's message): 'x'
//
// An error of a budget or a cancellation (interp.ErrLimit,
// interp.ErrCancelled) and an exception already raised (a program's
// __fspath__) are returned unchanged: the first end the run, uncaught.
func pyErr(err error, filename string, filename2 ...string) error {
	if err == nil {
		return nil
	}
	var ex *pyrt.Exception
	if errors.Is(err, interp.ErrLimit) || errors.Is(err, interp.ErrCancelled) || errors.As(err, &ex) {
		return err
	}
	if errors.Is(err, pyops.ErrDenied) {
		return pyrt.OSErrorFrom(err, "PermissionError", 13, err.Error(), "")
	}
	for _, e := range osErrno {
		if errors.Is(err, e.kind) {
			strerror := e.strerror
			if e.detail {
				strerror = fmt.Sprintf("%s (%s)", strerror, err)
			}
			return pyrt.OSErrorFrom(err, e.class, e.errno, strerror, filename, filename2...)
		}
	}
	return pyrt.OSErrorFrom(err, "OSError", 5, fmt.Sprintf("Input/output error (%s)", err), filename, filename2...)
}

// openOptions are the keyword arguments of open() after mode, for the
// file objects' constructor (fileio.go, part 2 of issue 31):
//
//	func openFile(thread *starlark.Thread, file starlark.Value, mode string, o openOptions) (starlark.Value, error)
//
// open(), io.open, Path.open, Path.read_text/write_text, tempfile, gzip
// and zipfile all make their file objects through it, so that one text
// layer (encoding, errors, newline) serves them all.
type openOptions struct {
	Buffering int    // -1: the default
	Encoding  string // "": UTF-8 (onetool's locale), ignored in binary modes
	Errors    string // "": "strict"
	Newline   string // meaningful when HasNewline: None is universal newlines
	// HasNewline is false for newline=None, the default.
	HasNewline bool
	// Closefd is open's closefd; False is refused (there are no file
	// descriptors).
	Closefd bool
}
