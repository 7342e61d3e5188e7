package toolpack

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/onetool-dev/onetool/packs"

	"github.com/onetool-dev/onetool/internal/yamltree"
)

// Executors is what executing toolpacks needs from the program that
// embeds onetool. The command kind needs nothing: this package runs
// commands itself.
type Executors struct {
	// Starlark checks (at load) and runs `kind: starlark` toolpacks; nil
	// refuses that kind at load.
	Starlark StarlarkExecutor
	// Go maps "pkg:Callable" to handlers compiled into the binary (kind go).
	Go map[string]packs.Handler
	// MCP returns the backend for a tool of a configured upstream server
	// (kind mcp); nil refuses that kind at load with "no MCP servers are
	// configured". It is called at load time, when the server may still be
	// connecting: it should return a backend that waits for it, and an
	// error only for what is known to be wrong (no such server).
	MCP func(server, tool string) (packs.Backend, error)
	// LookupEnv reads the environment for command env allow-lists (default
	// os.LookupEnv). It is called for each call, so that a changed value
	// is seen by the next call.
	LookupEnv func(string) (string, bool)
	// Credentials, if set, is told at load the names of the environment
	// variables each command toolpack passes through (env:), but for the
	// base ones every command gets (PATH, HOME, …): credentials onetool
	// hands over, whose values the caller treats as secrets (redacted
	// wherever they could reach a program: SPEC §8.3).
	Credentials func(names []string)
}

// StarlarkExecutor runs the Starlark functions of `kind: starlark`
// toolpacks. The interpreter lives elsewhere (package interp); this
// package only needs these two operations.
type StarlarkExecutor interface {
	// Check reports, at load time, whether file (absolute) defines a
	// top-level function named function (parse errors and a missing def
	// are errors).
	Check(file, function string) error
	// Handler returns the handler that runs function of file for each call.
	Handler(file, function string) packs.Handler
}

// LoadDirs loads every toolpack file directly in each of dirs: the files
// named *.yaml, *.yml or *.json, in name order, dirs in the order given
// (a directory given twice is read once). It does not descend into
// subdirectories, so a toolpack's helper files (.star modules, scripts,
// data) can live below it. Hidden files are skipped, and so are onetool's
// own files (onetool.yaml, onetool.yml, secrets.yaml), so that a config
// may name its own directory in `toolpacks:`.
//
// LoadDirs reports every problem at once, as an errors.Join of
// *ToolpackValidationError (a missing directory is one, naming it). It
// also returns the tools that did load, compiled, so that a caller may
// choose between refusing to start and running without the broken
// toolpacks; a caller that wants all or nothing ignores them when the
// error is not nil.
func LoadDirs(dirs []string, ex Executors) ([]*packs.Tool, error) {
	l := newLoader(ex)
	seen := map[string]bool{}
	for _, dir := range dirs {
		key := dir
		if abs, err := filepath.Abs(dir); err == nil {
			key = abs
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		l.dir(dir)
	}
	return l.tools, l.errs.err()
}

// LoadFile loads the toolpacks of one file, whatever its name. Like
// LoadDirs it returns the tools that loaded along with every problem.
func LoadFile(path string, ex Executors) ([]*packs.Tool, error) {
	l := newLoader(ex)
	l.file(path)
	return l.tools, l.errs.err()
}

// loader is the state of one LoadDirs or LoadFile call.
type loader struct {
	ex    Executors
	errs  *problems
	tools []*packs.Tool
	ids   map[string]string // tool id → "file:line" of its first definition
}

func newLoader(ex Executors) *loader {
	wd, _ := os.Getwd() // only used to shorten file names in messages
	return &loader{ex: ex, errs: &problems{workDir: wd}, ids: map[string]string{}}
}

// dir loads the toolpack files of one directory.
func (l *loader) dir(dir string) {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		l.errs.add(&ToolpackValidationError{File: dir, Msg: "toolpack directory does not exist", Err: err})
		return
	case err != nil:
		l.errs.add(&ToolpackValidationError{File: dir, Msg: "cannot read toolpack directory: " + err.Error(), Err: err})
		return
	case !st.IsDir():
		l.errs.add(&ToolpackValidationError{File: dir, Msg: "not a directory; toolpacks: lists directories of toolpack files"})
		return
	}
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		l.errs.add(&ToolpackValidationError{File: dir, Msg: "cannot read toolpack directory: " + err.Error(), Err: err})
		return
	}
	for _, e := range entries {
		if !e.IsDir() && isToolpackFile(e.Name()) {
			l.file(filepath.Join(dir, e.Name()))
		}
	}
}

// isToolpackFile reports whether LoadDirs reads the file called name.
func isToolpackFile(name string) bool {
	if strings.HasPrefix(name, ".") {
		return false
	}
	switch strings.ToLower(name) {
	case "onetool.yaml", "onetool.yml", "secrets.yaml":
		return false
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// fileLoader reads the toolpacks of one file.
type fileLoader struct {
	reader
	ex  Executors
	ids map[string]string // the loader's: tool id → where first defined
	dir string            // the file's directory, absolute: modules and commands are relative to it
}

// file loads the toolpacks of one file: a mapping is one toolpack, a list
// holds several.
func (l *loader) file(file string) {
	abs, err := filepath.Abs(file)
	if err != nil {
		l.errs.add(&ToolpackValidationError{File: file, Msg: err.Error(), Err: err})
		return
	}
	f := &fileLoader{reader: reader{file: file, errs: l.errs}, ex: l.ex, ids: l.ids, dir: filepath.Dir(abs)}
	data, err := readFile(file)
	if err != nil {
		l.errs.add(&ToolpackValidationError{File: file, Msg: "cannot read toolpack: " + err.Error(), Err: err})
		return
	}
	before := l.errs.count()
	report := func(line int, at path, format string, args ...any) {
		l.errs.at(file, line, at, format, args...)
	}
	var root *node
	if strings.EqualFold(filepath.Ext(file), ".json") {
		root, err = parseJSON(data, file, report)
	} else {
		root, err = parseYAML(data, file, report)
	}
	if err != nil {
		e := &ToolpackValidationError{File: file, Msg: err.Error()}
		var pe *parseError
		if errors.As(err, &pe) {
			e.Line = pe.line
		}
		l.errs.add(e)
		return
	}
	// Problems found while parsing (a duplicate key, an unsupported tag)
	// leave the tree readable, so decoding goes on to report the rest;
	// but no tool of the file is loaded.
	parsedClean := l.errs.count() == before
	var tools []*packs.Tool
	switch {
	case root == nil:
		l.errs.add(&ToolpackValidationError{File: file,
			Msg: "the file is empty; want a toolpack (a mapping with id, description and execution) or a list of them"})
	case root.Kind == yamltree.ListNode:
		for i, item := range root.Items {
			if t := f.toolpack(item, path{}.Index(i)); t != nil {
				tools = append(tools, t)
			}
		}
	case root.Kind == yamltree.MappingNode:
		if t := f.toolpack(root, nil); t != nil {
			tools = append(tools, t)
		}
	default:
		f.fail(root, nil, "want a toolpack (a mapping with id, description and execution) or a list of them, got %s", yamltree.Describe(root))
	}
	if parsedClean {
		l.tools = append(l.tools, tools...)
	}
}

// claim records where tool id is defined, reporting a second definition
// within the same load (across files too).
func (f *fileLoader) claim(id string, line int, at path) {
	if first, dup := f.ids[id]; dup {
		f.errs.at(f.file, line, at, "duplicate id %s: already defined at %s", quoted(id), first)
		return
	}
	f.ids[id] = f.errs.show(f.file) + ":" + strconv.Itoa(line)
}
