package stdlib

import (
	"context"
	"errors"
	"testing"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
	"github.com/onetool-dev/onetool/interp/python"
)

// testCwd is the current directory the path tests give os.path, and
// CPython's through the prelude.
const testCwd = "/home/u/proj"

// pathPrelude gives CPython the names pathGlobals predeclares: os and
// pathlib are not importable here yet (their file operations come with
// another part), so the cases reach them by these names.
const pathPrelude = `import os, posixpath as os_path
from pathlib import PurePath, PurePosixPath, Path, PosixPath
os.getcwd = lambda: '/home/u/proj'
os.getcwdb = lambda: b'/home/u/proj'
class FsPath:
    def __init__(self, p): self.p = p
    def __fspath__(self): return self.p
`

// pathGlobals are the globals of the path tests: the stdlib's, os_path
// and pathlib's classes.
func pathGlobals() starlark.StringDict {
	g := starlark.StringDict{}
	for k, v := range globals() {
		g[k] = v
	}
	g["os_path"] = OSPath(func(*starlark.Thread) (string, error) { return testCwd, nil })
	for k, v := range NewPathlib(nil).Members() {
		g[k] = v
	}
	g.Freeze()
	return g
}

// fsPathClass defines FsPath, a class with __fspath__, as the prelude
// does for CPython.
const fsPathClass = "class FsPath:\n    def __init__(self, p):\n        self.p = p\n    def __fspath__(self):\n        return self.p\n"

func runPath(code string, opts interp.Options) (*interp.Result, error) {
	opts.Predeclared = pathGlobals()
	opts.Parse = python.Parse
	return interp.Exec(context.Background(), code, opts)
}

func evalPath(code string) pydiff.Outcome {
	res, err := runPath(fsPathClass+"_r = "+code+"\n_r", interp.Options{MaxIntDigits: 5000})
	if err != nil {
		var ex *pyrt.Exception
		if errors.As(pyrt.Classify(err), &ex) {
			return pydiff.Outcome{Class: ex.Class, Msg: ex.Msg}
		}
		return pydiff.Outcome{Class: "?", Msg: err.Error()}
	}
	if s, ok := interp.AsText(res.Value); ok {
		return pydiff.Outcome{Text: s}
	}
	r, err := interp.Repr(nil, res.Value)
	if err != nil {
		return pydiff.Outcome{Class: "?", Msg: err.Error()}
	}
	return pydiff.Outcome{Text: r}
}

// TestDifferentialOSPath checks os.path's pure functions against
// CPython's posixpath (testdata/os_path_cases.txt; regenerate the
// answers with go test ./interp/stdlib -run DifferentialOSPath -update).
func TestDifferentialOSPath(t *testing.T) {
	pydiff.CheckWith(t, "testdata/os_path_cases.txt", pathPrelude, *update, evalPath)
}

// TestDifferentialPathlib checks PurePath and the pure side of Path
// against CPython's pathlib (testdata/pathlib_cases.txt).
func TestDifferentialPathlib(t *testing.T) {
	pydiff.CheckWith(t, "testdata/pathlib_cases.txt", pathPrelude, *update, evalPath)
}
