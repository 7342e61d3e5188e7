package pyrt

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
)

// import m, import m as n, from m import a as b (SPEC §2.7). The modules
// are values a program already has (json, math, …, predeclared by the
// runner) and typing, whose every name exists so that annotations and
// casts work; they are never evaluated as types. An unknown module is a
// ModuleNotFoundError (which a program may catch, as in `try: import
// numpy except ImportError:`) that names the modules there are and what
// to use instead.

// moduleNames are the modules a program may import when the runner
// provides them; typing and __future__ are always there.
func moduleNames() []string {
	return []string{"json", "re", "math", "statistics", "random", "collections", "heapq",
		"decimal", "fractions", "difflib", "unicodedata",
		"bisect", "copy", "datetime", "zoneinfo", "time", "itertools", "functools", "operator",
		"string", "textwrap", "csv", "io", "hashlib", "base64", "html", "urllib", "uuid", "pprint",
		"struct", "sys", "traceback", "logging", "secrets", "calendar", "hmac", "fnmatch", "shlex", "contextlib", "inspect", "abc", "dataclasses", "enum", "warnings", "types", "argparse",
		"codecs",
		// Python's own I/O (issue 31): each is there once its module is
		// predeclared, until then a ModuleNotFoundError with instead's hint.
		"os", "pathlib", "glob", "shutil", "tempfile", "zipfile", "gzip", "requests", "sqlite3", "posixpath",
		"tarfile", "bz2", "mimetypes", "xml", "configparser", "tomllib",
		// Generators and async (issue 32).
		"asyncio"}
}

// isModuleName reports whether name is one of moduleNames: every import
// line asks, so the set is made once.
func isModuleName(name string) bool { return moduleSet()[name] }

// moduleSet is moduleNames as a set, never changed once made.
var moduleSet = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	for _, n := range moduleNames() {
		set[n] = true
	}
	return set
})

// instead says what to use in place of a module onetool does not have.
func instead(name string) string {
	if name == "html.parser" {
		return "web.fetch(url=...) gives a page as Markdown or plain text; xml.etree.ElementTree parses XHTML and feeds"
	}
	root, _, _ := strings.Cut(name, ".")
	switch root {
	case "urllib3", "httpx", "aiohttp", "http", "socket", "ssl", "ftplib", "smtplib", "webbrowser":
		return "use requests or urllib.request, or fetch pages with web.fetch(url=...)"
	case "fileinput", "filecmp":
		return "read and write files with the file pack: file.read, file.write, file.list, file.glob, file.grep"
	case "dbm", "shelve":
		return "query databases with the db pack: db.query(sql=...)"
	case "subprocess", "multiprocessing", "threading", "concurrent", "signal", "sched", "queue":
		return "programs cannot start processes or threads; run independent tool calls at once with parallel([...]) or asyncio.gather"
	case "numpy", "pandas", "scipy", "sklearn", "polars", "matplotlib":
		return "compute with lists and dicts and the math and statistics modules"
	case "pickle", "marshal", "ctypes", "importlib", "builtins":
		return "not available in the sandbox"
	}
	return "use the modules there are, or a tool (ot.help() lists them)"
}

func (rt *runtime) importBuiltins() starlark.StringDict {
	return starlark.StringDict{
		"__ot_import":      interp.NewBuiltin("__ot_import", rt.importModule),
		"__ot_import_from": interp.NewBuiltin("__ot_import_from", rt.importFrom),
	}
}

// importModule is __ot_import("a.b"): the module bound by `import a.b`
// (its first part, as Python binds it) or, with a second argument True,
// the module a.b itself (for `import a.b as n`).
func (rt *runtime) importModule(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	name, _ := interp.AsText(args[0])
	whole := len(args) > 1 && args[1] == starlark.True
	root, rest, dotted := strings.Cut(name, ".")
	m, err := rt.module(thread, root)
	if err != nil {
		return nil, err
	}
	if !dotted || !whole {
		if dotted {
			if _, err := rt.submodule(m, name, rest); err != nil {
				return nil, err
			}
		}
		return m, nil
	}
	return rt.submodule(m, name, rest)
}

// importFrom is __ot_import_from("m", "name"): `from m import name`.
func (rt *runtime) importFrom(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	mod, _ := interp.AsText(args[0])
	name, _ := interp.AsText(args[1])
	root, rest, dotted := strings.Cut(mod, ".")
	m, err := rt.module(thread, root)
	if err != nil {
		return nil, err
	}
	if dotted {
		if m, err = rt.submodule(m, mod, rest); err != nil {
			return nil, err
		}
	}
	if root == "typing" || root == "__future__" {
		if v, ok := m.(*starlarkstruct.Module).Members[name]; ok {
			return v, nil
		}
		return nil, exception("ImportError", "cannot import name '%s' from '%s'", name, mod)
	}
	v, err := attrOf(m, name)
	if err != nil || v == nil {
		return nil, exception("ImportError", "cannot import name '%s' from '%s'", name, mod)
	}
	return v, nil
}

// module finds the module called name.
func (rt *runtime) module(thread *starlark.Thread, name string) (starlark.Value, error) {
	switch name {
	case "typing", "typing_extensions", "collections.abc":
		return rt.typing, nil
	case "__future__":
		return rt.future, nil
	}
	if isModuleName(name) {
		if m, ok := interp.Predeclared(thread)[name]; ok {
			if b, ok := m.(ThreadBinder); ok {
				return b.BindThread(thread), nil
			}
			return m, nil
		}
	}
	return nil, &Exception{Class: "ModuleNotFoundError", Msg: fmt.Sprintf("No module named '%s'", name),
		Advice: fmt.Sprintf("%s. Modules: %s", instead(name), strings.Join(rt.available(thread), ", ")),
		Attrs:  starlark.StringDict{"name": interp.MakeString(name)}}
}

// ThreadBinder is a module whose values need the importing run's thread
// where go.starlark.net's interfaces give none (os.environ, a Mapping of
// the run's environment): import binds it to the thread.
type ThreadBinder interface {
	BindThread(thread *starlark.Thread) starlark.Value
}

// submodule is m.rest, a dotted module.
func (rt *runtime) submodule(m starlark.Value, name, rest string) (starlark.Value, error) {
	for _, part := range strings.Split(rest, ".") {
		v, err := attrOf(m, part)
		if err != nil || v == nil {
			return nil, &Exception{Class: "ModuleNotFoundError", Msg: fmt.Sprintf("No module named '%s'", name), Advice: instead(name),
				Attrs: starlark.StringDict{"name": interp.MakeString(name)}}
		}
		m = v
	}
	return m, nil
}

// available lists the modules a program of this run can import.
func (rt *runtime) available(thread *starlark.Thread) []string {
	out := []string{"typing"}
	pre := interp.Predeclared(thread)
	for _, n := range moduleNames() {
		if _, ok := pre[n]; ok {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

func attrOf(v starlark.Value, name string) (starlark.Value, error) {
	x, ok := v.(starlark.HasAttrs)
	if !ok {
		return nil, nil
	}
	return x.Attr(name)
}

// typingModule has every name of typing: each a value that stands for a
// type in annotations, subscriptable (List[int]) and callable where
// typing's are (cast, NamedTuple and TypedDict aside).
func typingModule() *starlarkstruct.Module {
	members := starlark.StringDict{}
	for _, name := range strings.Fields(`Any Callable ClassVar Final Generic Literal Optional Protocol
		Tuple Type TypeVar Union List Dict Set FrozenSet DefaultDict OrderedDict Counter Deque
		ChainMap Iterable Iterator Generator Sequence MutableSequence Mapping MutableMapping
		AbstractSet MutableSet Collection Container Sized Hashable Reversible Awaitable Coroutine
		AsyncIterable AsyncIterator IO TextIO BinaryIO Pattern Match AnyStr Text NoReturn Never
		Self LiteralString TypeAlias ParamSpec Concatenate TypeGuard Annotated Required NotRequired
		SupportsInt SupportsFloat SupportsIndex SupportsAbs SupportsRound ByteString NamedTuple
		TypedDict TypeVarTuple Unpack`) {
		members[name] = &typingName{name: name}
	}
	// get_type_hints(obj): the annotations of a function, or of a class
	// and its bases (bases first), as a dict.
	members["get_type_hints"] = interp.NewBuiltin("get_type_hints", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) < 1 {
			return nil, typeError("get_type_hints() missing 1 required positional argument: 'obj'")
		}
		out := starlark.NewDict(4)
		merge := func(v starlark.Value) error {
			ann, err := GetAttr(thread, v, "__annotations__")
			if err != nil {
				return nil // a class of the MRO without annotations
			}
			d, ok := ann.(*starlark.Dict)
			if !ok {
				return nil
			}
			for _, kv := range d.Items() {
				if err := out.SetKey(kv[0], kv[1]); err != nil {
					return err
				}
			}
			return nil
		}
		if mro, err := GetAttr(thread, args[0], "__mro__"); err == nil {
			if t, ok := mro.(starlark.Tuple); ok {
				for i := len(t) - 1; i >= 0; i-- {
					if err := merge(t[i]); err != nil {
						return nil, err
					}
				}
				return out, nil
			}
		}
		return out, merge(args[0])
	})
	// NewType("UserId", int) is a function that returns its argument.
	members["NewType"] = interp.NewBuiltin("NewType", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var name, tp starlark.Value
		if err := unpackArgs("NewType", args, kwargs, []string{"name", "tp"}, 2, &name, &tp); err != nil {
			return nil, err
		}
		text, ok := interp.AsText(name)
		if !ok {
			return nil, typeError("NewType() argument 'name' must be str, not %s", pyTypeName(name))
		}
		return interp.NewBuiltin(text, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 1 || len(kwargs) > 0 {
				return nil, typeError("%s() takes exactly one argument (%d given)", text, len(args)+len(kwargs))
			}
			return args[0], nil
		}), nil
	})
	members["cast"] = interp.NewBuiltin("cast", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 2 {
			return nil, typeError("cast() takes 2 arguments")
		}
		return args[1], nil
	})
	members["TYPE_CHECKING"] = starlark.False
	for _, name := range []string{"overload", "final", "runtime_checkable", "no_type_check"} {
		members[name] = interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 1 {
				return args[0], nil
			}
			return starlark.None, nil
		})
	}
	return &starlarkstruct.Module{Name: "typing", Members: members}
}

// futureModule has the features of __future__, all already on.
func futureModule() *starlarkstruct.Module {
	members := starlark.StringDict{}
	for _, name := range strings.Fields("annotations division print_function generator_stop absolute_import unicode_literals with_statement nested_scopes generators barry_as_FLUFL") {
		members[name] = starlark.True
	}
	return &starlarkstruct.Module{Name: "__future__", Members: members}
}

// typingName is a name of typing: List, Optional[int], Dict[str, int].
type typingName struct{ name string }

var _ starlark.Mapping = (*typingName)(nil)

func (t *typingName) String() string        { return "typing." + t.name }
func (t *typingName) Type() string          { return "typing" }
func (t *typingName) Freeze()               {}
func (t *typingName) Truth() starlark.Bool  { return true }
func (t *typingName) Hash() (uint32, error) { return starlark.String(t.name).Hash() }

var _ starlark.Callable = (*typingName)(nil)

func (t *typingName) Name() string { return t.name }

// CallInternal is a call of a typing name: TypeVar("T"), ParamSpec("P")
// and TypeVarTuple("Ts") make a name to use in annotations (T, Generic[T]);
// the functional forms NamedTuple("P", [("x", int)]) and TypedDict("M",
// {"k": str}) make a record type (collections.namedtuple's, and dict);
// the rest stand for types that cannot be instantiated, as in Python.
func (t *typingName) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	switch t.name {
	case "NamedTuple":
		return typingNamedTuple(thread, args, kwargs)
	case "TypedDict":
		if len(args) == 0 {
			return nil, typeError("TypedDict() missing 1 required positional argument: 'typename'")
		}
		if _, ok := interp.AsText(args[0]); !ok {
			return nil, typeError("TypedDict() argument 'typename' must be str, not %s", pyTypeName(args[0]))
		}
		// Its instances are dicts: Movie(name="x") is {'name': 'x'}.
		return interp.Predeclared(thread)["dict"], nil
	case "TypeVar", "ParamSpec", "TypeVarTuple":
		if len(args) == 0 {
			return nil, typeError("%s() missing required argument: 'name'", t.name)
		}
		name, ok := interp.AsText(args[0])
		if !ok {
			return nil, typeError("%s() argument 'name' must be str, not %s", t.name, pyTypeName(args[0]))
		}
		return &typingName{name: name}, nil
	}
	return nil, typeError("Cannot instantiate typing.%s; use the builtin type (list(), dict(), …) instead", t.name)
}

// Get makes List[int] (itself, so that any use of it in code is harmless).
func (t *typingName) Get(starlark.Value) (starlark.Value, bool, error) { return t, true, nil }

// typingNamedTuple is NamedTuple("P", [("x", int), ("y", int)]) (or with
// the fields as keywords): collections.namedtuple("P", ["x", "y"]); the
// types are annotations only.
func typingNamedTuple(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, typeError("NamedTuple() missing 1 required positional argument: 'typename'")
	}
	if len(args) > 2 {
		return nil, typeError("NamedTuple() takes from 1 to 2 positional arguments but %d were given", len(args))
	}
	var fields []starlark.Value
	if len(args) == 2 {
		iter := starlark.Iterate(args[1])
		if iter == nil {
			return nil, typeError("'%s' object is not iterable", pyTypeName(args[1]))
		}
		defer iter.Done()
		budget := interp.BudgetOf(thread)
		var pair starlark.Value
		for iter.Next(&pair) {
			if err := budget.Charge(1); err != nil {
				return nil, err
			}
			tup, ok := pair.(starlark.Tuple)
			if !ok || len(tup) != 2 {
				return nil, typeError("NamedTuple('Name', [(f0, t0), (f1, t1), ...]); each field is a (name, type) pair")
			}
			fields = append(fields, tup[0])
		}
	}
	for _, kv := range kwargs {
		fields = append(fields, kv[0])
	}
	from, ok := interp.Predeclared(thread)["__ot_import_from"].(starlark.Callable)
	if !ok {
		return nil, typeError("NamedTuple() needs the collections module")
	}
	namedtuple, err := starlark.Call(thread, from, starlark.Tuple{starlark.String("collections"), starlark.String("namedtuple")}, nil)
	if err != nil {
		return nil, err
	}
	return starlark.Call(thread, namedtuple, starlark.Tuple{args[0], starlark.NewList(fields)}, nil)
}
