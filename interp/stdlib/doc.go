// Package stdlib holds the modules of Python's standard library that
// programs may use (SPEC §2.7), one file per module: each module value is
// built once, frozen, and shared by every run. Their functions follow
// CPython's names, arguments, results and errors, and charge their work
// to the run's interp.Budget like every builtin, so no module call runs
// unbounded (SPEC §8.1).
package stdlib

import (
	"errors"
	"sync"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/eventloop"
	"github.com/onetool-dev/onetool/interp/objects"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// builtins are Python's builtins (pyrt.Builtins), built once per process
// on first need and shared by the modules (sorted, float, str, abs and the
// lowering's helpers) and by every runner's globals: they are frozen and
// hold nothing a run can change. Building them costs about 150 KB and 0.4
// ms; csv, operator and statistics each built their own when a runner
// started, and string.Template.substitute one per call (issue 20).
var builtins = sync.OnceValue(func() starlark.StringDict {
	d := pyrt.Builtins()
	all := make(starlark.StringDict, len(d)+32)
	for k, v := range d {
		all[k] = v
	}
	for k, v := range objects.Builtins(d) {
		all[k] = v
	}
	all["open"] = OpenBuiltin // over the run's file pack (fileio.go)
	all.Freeze()
	return all
})

// Builtins returns pyrt.Builtins(), built once per process and shared.
// The values are frozen; callers copy the entries they need and never
// change the map.
func Builtins() starlark.StringDict { return builtins() }

// Globals returns a new dict of what a Python program of the interpreter
// alone is given — interp.StdGlobals, Builtins and Modules — with room
// for extra more entries (the runner adds its packs).
func Globals(extra int) starlark.StringDict {
	std, builtins, modules := interp.StdGlobals(), Builtins(), Modules()
	g := make(starlark.StringDict, len(std)+len(builtins)+len(modules)+extra)
	for _, part := range []starlark.StringDict{std, builtins, modules} {
		for k, v := range part {
			g[k] = v
		}
	}
	return g
}

// Modules returns the modules by the names programs use, frozen.
func Modules() starlark.StringDict {
	d := starlark.StringDict{
		"abc":          objects.ABC(),
		"argparse":     ArgParse(),
		"asyncio":      eventloop.Module(),
		"base64":       Base64(),
		"bisect":       Bisect(),
		"bz2":          BZ2(),
		"calendar":     Calendar(),
		"codecs":       Codecs(),
		"collections":  Collections(),
		"contextlib":   ContextLib(),
		"copy":         Copy(),
		"csv":          CSV(),
		"dataclasses":  Dataclasses(),
		"datetime":     DateTime(),
		"decimal":      Decimal(),
		"difflib":      DiffLib(),
		"enum":         Enum(),
		"fnmatch":      FNMatch(),
		"fractions":    Fractions(),
		"functools":    Functools(),
		"gzip":         GZip(),
		"hashlib":      HashLib(),
		"heapq":        HeapQ(),
		"hmac":         HMAC(),
		"html":         HTML(),
		"inspect":      Inspect(),
		"io":           IO(),
		"itertools":    Itertools(),
		"json":         JSON(),
		"logging":      Logging(),
		"math":         Math(),
		"mimetypes":    MimeTypes(),
		"operator":     Operator(),
		"pprint":       PPrint(),
		"random":       Random(),
		"re":           RE(),
		"requests":     Requests(),
		"secrets":      Secrets(),
		"shlex":        ShLex(),
		"sqlite3":      SQLite3(),
		"statistics":   Statistics(),
		"string":       String(),
		"tarfile":      TarFileModule(),
		"struct":       StructGlobal(),
		"sys":          Sys(),
		"tempfile":     TempFile(),
		"textwrap":     TextWrap(),
		"time":         Time(),
		"traceback":    Traceback(),
		"urllib":       URLLib(),
		"unicodedata":  UnicodeData(),
		"types":        Types(),
		"uuid":         UUID(),
		"warnings":     Warnings(),
		"xml":          XML(),
		"zipfile":      ZipFileModule(),
		"zoneinfo":     ZoneInfo(),
		"glob":         GlobModule(),
		"shutil":       Shutil(),
		"pathlib":      PathlibModule(),
		"configparser": ConfigParserModule(),
		"tomllib":      TOMLLib(),
	}
	d["os"], d["posixpath"] = OSModules() // issue 31: os, and os.path as posixpath
	setSysModules(d)
	d.Freeze()
	return d
}

// isBudget reports whether err is a spent budget or a cancellation.
func isBudget(err error) bool {
	return errors.Is(err, interp.ErrLimit) || errors.Is(err, interp.ErrCancelled)
}
