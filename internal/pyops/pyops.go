// Package pyops is the contract between Python's own I/O APIs in the
// interpreter (open, os, pathlib, glob, shutil, tempfile, urllib,
// requests, sqlite3; issue 31) and the packs that do the work.
//
// Every operation such a module does (read a chunk of a file, commit a
// write, list a directory, send an HTTP request, run an SQL statement)
// is a tool call of a variant of the pack tool it corresponds to
// (packs.Tool.Variant: "file.read@chunk" is file.read to policy, the
// tool-call budget, confirmation, stats, metrics, traces and the audit
// log). A module reaches the variants through the Host the runner puts
// on the program's thread (From); the runner calls them exactly as it
// calls any tool, in-process or from a worker of isolation: process, so
// every check and every record applies with no second copy.
//
// The package is a leaf: interp and packs both import it, it imports
// neither (SPEC §1). What crosses is plain Go data (nil, bool, int64,
// float64, string, []any, map[string]any), the content codec for bytes
// (PutContent, GetContent) and the error kinds (ErrNotFound…, Tag), which
// keep errors.Is working across the worker pipe (Sentinels).
package pyops

import (
	"context"
	"errors"

	"go.starlark.net/starlark"
)

// LocalKey is the thread-local under which the runner puts the run's
// Host (interp.Options.Locals).
const LocalKey = "onetool.pyops"

// Host performs the operations of Python's own APIs for one run. The
// runner implements it over Runner.CallTool; tests of a module use a fake.
type Host interface {
	// Call runs the variant op ("file.read@chunk", a VariantID) with
	// plain Go args and returns its plain result: maps are
	// map[string]any, lists []any, numbers int64 or float64, bytes as
	// PutContent puts them. args are passed as given (no defaults are
	// filled: a variant reads an absent key as its zero value). An error
	// carries one of the kinds of this package when the pack or the
	// runner knows what it is (errors.Is(err, ErrNotFound)); its text is
	// the pack's own, which a module shows after CPython's words. A
	// budget or cancellation error (interp.ErrLimit, interp.ErrCancelled)
	// comes back untouched: a module must return it as it is, so that the
	// run ends and the program cannot catch it.
	Call(ctx context.Context, op string, args map[string]any) (any, error)
	// Facts are what a module may know of the run without a call.
	Facts(ctx context.Context) Facts
}

// Facts are what modules know of the run without a tool call.
type Facts struct {
	// Cwd is where relative paths start: the base of the run's roots
	// (os.getcwd(), Path.cwd(), os.path.abspath). "" when the run has no
	// root, where every file operation is refused anyway.
	Cwd string
	// Roots are the run's allowed roots as the user may be shown them,
	// for refusals made without a call (Path.home(), expanduser).
	Roots []string
	// Env holds os.environ: the variables named in security.environ
	// that are set and whose values are not secrets. Never nil.
	Env map[string]string
}

// ErrNoHost is the error of an operation on a thread without a Host (a
// program run by interp alone, or a test): "file access is not available
// here".
var ErrNoHost = errors.New("file, web and database access is not available here")

// From returns the Host of the run executing on thread, or nil when there
// is none; a module then raises ErrNoHost's text.
func From(thread *starlark.Thread) Host {
	if thread == nil {
		return nil
	}
	h, _ := thread.Local(LocalKey).(Host)
	return h
}
