package stdlib

import (
	"math"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Sys is the sys module: what a program asks of its interpreter. There is
// one interpreter and no process of the program's own, so the values are
// CPython 3.11's on Linux, read-only (argv, path and modules are frozen;
// argv is ['<string>'] unless WithArgv gives a run its command line),
// and the streams write to the run's output: sys.stdout and sys.stderr
// both add to the printed text, in the order of the writes, as a terminal
// shows the two streams of a process (an agent reads one text), unless
// the caller keeps standard error apart (onetool run does). sys.stdin
// is empty: a program has no input. exit() raises SystemExit, which
// uncaught with a code of 0 or None ends the run as its end would; any
// other code ends it with the error "SystemExit: <code>".
// setrecursionlimit is remembered for the run but bounds nothing: the
// run's own bound on nested calls is far deeper than CPython's 1000.
func Sys() *starlarkstruct.Module {
	exit := Builtins()["exit"]
	members := starlark.StringDict{
		"argv":                   frozenList(starlark.String("<string>")),
		"orig_argv":              frozenList(starlark.String("python3"), starlark.String("<string>")),
		"path":                   frozenList(starlark.String("")),
		"exit":                   exit,
		"maxsize":                starlark.MakeInt64(math.MaxInt64),
		"maxunicode":             starlark.MakeInt(utf8.MaxRune),
		"version":                starlark.String("3.11.7 (main, onetool) [Starlark on Go]"),
		"version_info":           newStructSeq("sys.version_info", []string{"major", "minor", "micro", "releaselevel", "serial"}, starlark.MakeInt(3), starlark.MakeInt(11), starlark.MakeInt(7), starlark.String("final"), starlark.MakeInt(0)),
		"hexversion":             starlark.MakeInt(0x030b07f0),
		"api_version":            starlark.MakeInt(1013),
		"platform":               starlark.String("linux"),
		"byteorder":              starlark.String("little"),
		"executable":             starlark.String(""),
		"float_repr_style":       starlark.String("short"),
		"float_info":             floatInfo(),
		"int_info":               newStructSeq("sys.int_info", []string{"bits_per_digit", "sizeof_digit", "default_max_str_digits", "str_digits_check_threshold"}, starlark.MakeInt(30), starlark.MakeInt(4), starlark.MakeInt(4300), starlark.MakeInt(640)),
		"getrecursionlimit":      interp.NewBuiltin("getrecursionlimit", sysGetRecursionLimit),
		"get_int_max_str_digits": interp.NewBuiltin("get_int_max_str_digits", sysGetIntMaxStrDigits),
		"set_int_max_str_digits": interp.NewBuiltin("set_int_max_str_digits", sysSetIntMaxStrDigits),
		"setrecursionlimit":      interp.NewBuiltin("setrecursionlimit", sysSetRecursionLimit),
		"getsizeof":              interp.NewBuiltin("getsizeof", sysGetSizeOf),
		"getdefaultencoding":     constFunc("getdefaultencoding", starlark.String("utf-8")),
		"getfilesystemencoding":  constFunc("getfilesystemencoding", starlark.String("utf-8")),
		"intern":                 interp.NewBuiltin("intern", sysIntern),
		"exc_info":               interp.NewBuiltin("exc_info", sysExcInfo),
		"exception":              interp.NewBuiltin("exception", sysException),
		"stdout":                 stdoutStream,
		"stderr":                 stderrStream,
		"stdin":                  stdinStream,
		"__stdout__":             stdoutStream,
		"__stderr__":             stderrStream,
		"__stdin__":              stdinStream,
	}
	return &starlarkstruct.Module{Name: "sys", Members: members}
}

// setSysModules makes sys.modules the modules of mods (sys among them),
// read-only, once they are all built.
func setSysModules(mods starlark.StringDict) {
	sys, ok := mods["sys"].(*starlarkstruct.Module)
	if !ok {
		return
	}
	d := starlark.NewDict(len(mods) + 1)
	for _, name := range mods.Keys() {
		_ = d.SetKey(starlark.String(name), mods[name])
		if name == "urllib" {
			if m, ok := mods[name].(*starlarkstruct.Module); ok && m.Members["parse"] != nil {
				_ = d.SetKey(starlark.String("urllib.parse"), m.Members["parse"])
			}
		}
	}
	d.Freeze()
	sys.Members["modules"] = d
}

// WithArgv returns a copy of pre, the globals of a run, whose sys module
// has argv and orig_argv as given: the command line of `onetool run FILE
// ARG…`, as CPython sets them for `python3 FILE ARG…`. The run sees that
// module wherever it looks (the global sys, import sys, from sys import
// argv, sys.modules["sys"]). pre is not changed: other runs keep
// ['<string>']. pre without a sys module is returned as it is. The copy
// costs one map of the globals, made once per run that asks for it.
func WithArgv(pre starlark.StringDict, argv, origArgv []string) starlark.StringDict {
	old, ok := pre["sys"].(*starlarkstruct.Module)
	if !ok {
		return pre
	}
	members := make(starlark.StringDict, len(old.Members))
	for k, v := range old.Members {
		members[k] = v
	}
	members["argv"] = frozenList(stringValues(argv)...)
	members["orig_argv"] = frozenList(stringValues(origArgv)...)
	sys := &starlarkstruct.Module{Name: old.Name, Members: members}
	if mods, ok := old.Members["modules"].(*starlark.Dict); ok {
		d := starlark.NewDict(mods.Len())
		for _, kv := range mods.Items() {
			v := kv[1]
			if v == starlark.Value(old) {
				v = sys
			}
			_ = d.SetKey(kv[0], v)
		}
		d.Freeze()
		members["modules"] = d
	}
	out := make(starlark.StringDict, len(pre))
	for k, v := range pre {
		out[k] = v
	}
	out["sys"] = sys
	out.Freeze()
	return out
}

func stringValues(ss []string) []starlark.Value {
	vs := make([]starlark.Value, len(ss))
	for i, s := range ss {
		vs[i] = starlark.String(s)
	}
	return vs
}

func frozenList(elems ...starlark.Value) *starlark.List {
	l := starlark.NewList(elems)
	l.Freeze()
	return l
}

func constFunc(name string, v starlark.Value) *starlark.Builtin {
	return interp.NewBuiltin(name, func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := nArgs(fn.Name(), args, kwargs, 0); err != nil {
			return nil, pyrt.Errorf("TypeError", "%s() takes no arguments (%d given)", fn.Name(), len(args)+len(kwargs))
		}
		return v, nil
	})
}

func floatInfo() *structSeq {
	return newStructSeq("sys.float_info",
		[]string{"max", "max_exp", "max_10_exp", "min", "min_exp", "min_10_exp", "dig", "mant_dig", "epsilon", "radix", "rounds"},
		starlark.Float(math.MaxFloat64), starlark.MakeInt(1024), starlark.MakeInt(308),
		starlark.Float(2.2250738585072014e-308), starlark.MakeInt(-1021), starlark.MakeInt(-307),
		starlark.MakeInt(15), starlark.MakeInt(53), starlark.Float(2.220446049250313e-16),
		starlark.MakeInt(2), starlark.MakeInt(1))
}

// recursionLocal is the thread-local key of the run's recursion limit.
const recursionLocal = "onetool.stdlib.sys.recursionlimit"

func sysGetRecursionLimit(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args)+len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "getrecursionlimit() takes no arguments (%d given)", len(args)+len(kwargs))
	}
	if n, ok := interp.RunLocal(thread, recursionLocal).(starlark.Int); ok {
		return n, nil
	}
	return starlark.MakeInt(1000), nil
}

func sysSetRecursionLimit(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := noKwargs("setrecursionlimit", kwargs); err != nil {
		return nil, err
	}
	if len(args) != 1 {
		return nil, pyrt.Errorf("TypeError", "setrecursionlimit() takes exactly one argument (%d given)", len(args))
	}
	var n starlark.Int
	switch x := args[0].(type) {
	case starlark.Int:
		n = x
	case starlark.Bool:
		n = starlark.MakeInt(boolInt(bool(x)))
	default:
		return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(args[0]))
	}
	v, ok := n.Int64()
	if !ok || v > math.MaxInt32 {
		return nil, pyrt.Errorf("OverflowError", "Python int too large to convert to C int")
	}
	if v < 1 {
		return nil, pyrt.Errorf("ValueError", "recursion limit must be greater or equal than 1")
	}
	interp.SetRunLocal(thread, recursionLocal, n)
	return starlark.None, nil
}

// sysGetIntMaxStrDigits is sys.get_int_max_str_digits(): the run's limit
// on conversions between int and decimal text (interp.IntText), 4300
// unless the program (or an earlier input of its session) changed it.
func sysGetIntMaxStrDigits(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "sys.get_int_max_str_digits() takes no keyword arguments")
	}
	if len(args) > 0 {
		return nil, pyrt.Errorf("TypeError", "sys.get_int_max_str_digits() takes no arguments (%d given)", len(args))
	}
	return starlark.MakeInt(interp.BudgetOf(thread).IntMaxStrDigits()), nil
}

// sysSetIntMaxStrDigits is sys.set_int_max_str_digits(maxdigits): it sets
// the limit for the rest of the run (of the session, when the run is an
// input of one), never for other runs; 0 removes it.
func sysSetIntMaxStrDigits(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 1 {
		return nil, pyrt.Errorf("TypeError", "set_int_max_str_digits() takes at most 1 argument (%d given)", len(args))
	}
	var arg starlark.Value
	if len(args) == 1 {
		arg = args[0]
	}
	for _, kv := range kwargs {
		if name, _ := starlark.AsString(kv[0]); name == "maxdigits" && arg == nil {
			arg = kv[1]
			continue
		}
		name, _ := starlark.AsString(kv[0])
		if name == "maxdigits" {
			return nil, pyrt.Errorf("TypeError", "argument for set_int_max_str_digits() given by name ('maxdigits') and position (1)")
		}
		return nil, pyrt.Errorf("TypeError", "set_int_max_str_digits() got an unexpected keyword argument '%s'", name)
	}
	if arg == nil {
		return nil, pyrt.Errorf("TypeError", "set_int_max_str_digits() missing required argument 'maxdigits' (pos 1)")
	}
	var n starlark.Int
	switch x := arg.(type) {
	case starlark.Int:
		n = x
	case starlark.Bool:
		n = starlark.MakeInt(boolInt(bool(x)))
	default:
		return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(arg))
	}
	v, ok := n.Int64()
	if !ok {
		v = math.MaxInt64
	}
	if err := interp.BudgetOf(thread).SetIntMaxStrDigits(v); err != nil {
		return nil, err
	}
	return starlark.None, nil
}

func sysIntern(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := nArgs("intern", args, kwargs, 1); err != nil {
		return nil, err
	}
	if _, ok := interp.AsText(args[0]); !ok {
		return nil, pyrt.Errorf("TypeError", "intern() argument must be str, not %s", pyrt.TypeName(args[0]))
	}
	return args[0], nil
}

func sysExcInfo(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args)+len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "exc_info() takes no arguments (%d given)", len(args)+len(kwargs))
	}
	e := pyrt.Handling(thread)
	if e == nil {
		return starlark.Tuple{starlark.None, starlark.None, starlark.None}, nil
	}
	return starlark.Tuple{e.Class(), e, pyrt.NewTraceback(e.Frames())}, nil
}

func sysException(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args)+len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "exception() takes no arguments (%d given)", len(args)+len(kwargs))
	}
	if e := pyrt.Handling(thread); e != nil {
		return e, nil
	}
	return starlark.None, nil
}

// sysGetSizeOf is getsizeof(object, default): an estimate of the bytes
// CPython 3.11 on a 64-bit machine would give for the object alone (not
// what it refers to): exact for None, bool, int, float, str, bytes and
// tuples, for lists as a display makes them, and for dicts and sets of
// the common table sizes; 56 for other values.
func sysGetSizeOf(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var obj, def starlark.Value
	if err := unpackC("getsizeof", args, kwargs, "object", &obj, "default?", &def); err != nil {
		return nil, err
	}
	n, err := sizeOf(interp.BudgetOf(thread), obj)
	if err != nil {
		return nil, err
	}
	return starlark.MakeInt64(n), nil
}

func sizeOf(b *interp.Budget, v starlark.Value) (int64, error) {
	switch x := v.(type) {
	case starlark.NoneType:
		return 16, nil
	case starlark.Bool:
		return 28, nil
	case starlark.Int:
		n := x.BigInt().BitLen()
		digits := int64(max(1, (n+29)/30))
		return 24 + 4*digits, nil
	case starlark.Float:
		return 24, nil
	case starlark.Tuple:
		return 40 + 8*int64(len(x)), nil
	case *starlark.List:
		return 56 + 8*int64(x.Len()), nil
	case *starlark.Dict:
		return dictSize(x), nil
	case *starlark.Set:
		return setSize(x.Len()), nil
	case *starlark.Function:
		return 152, nil
	case *starlark.Builtin:
		return 72, nil
	case *pyrt.ExcValue:
		return 88, nil
	}
	if s, ok := interp.AsText(v); ok {
		if err := b.Charge(uint64(len(s)) / 64); err != nil {
			return 0, err
		}
		var top rune
		n := int64(0)
		for _, r := range s {
			top = max(top, r)
			n++
		}
		switch {
		case top < 0x80:
			return 49 + n, nil
		case top < 0x100:
			return 73 + n, nil
		case top < 0x10000:
			return 74 + 2*n, nil
		}
		return 76 + 4*n, nil
	}
	if s, ok := interp.AsBytes(v); ok {
		return 33 + int64(len(s)), nil
	}
	switch pyrt.TypeName(v) {
	case "bytearray":
		if n := v.(starlark.Sequence).Len(); n > 0 {
			return 57 + int64(n), nil
		}
		return 56, nil
	case "frozenset":
		return setSize(v.(starlark.Sequence).Len()), nil
	case "range":
		return 48, nil
	}
	return 56, nil
}

// dictSize is what CPython 3.11 gives a dict of d's keys when it grew by
// insertion: the object, the keys' header, the index table and the
// entries (16 bytes each when every key is a str, else 24).
func dictSize(d *starlark.Dict) int64 {
	n := d.Len()
	if n == 0 {
		return 64
	}
	size := int64(8)
	for size*2/3 < int64(n) {
		size *= 2
	}
	entry := int64(16)
	for _, k := range d.Keys() {
		if _, ok := interp.AsText(k); !ok {
			entry = 24
			break
		}
	}
	index := int64(1)
	switch {
	case size > 1<<31:
		index = 8
	case size > 1<<15:
		index = 4
	case size > 1<<7:
		index = 2
	}
	return 64 + 32 + size*index + (size*2/3)*entry
}

// setSize is what CPython 3.11 gives a set of n elements added one by
// one: the object with its table of 8, or a table it grew to.
func setSize(n int) int64 {
	table := int64(8)
	for fill := int64(1); fill <= int64(n); fill++ {
		if fill*5 >= (table-1)*3 {
			table = 8
			for table <= fill*4 {
				table *= 2
			}
		}
	}
	if table == 8 {
		return 216
	}
	return 216 + 16*table
}

// A sysStream is sys.stdout, sys.stderr or sys.stdin: the run's printed
// text and its standard error (see interp.PrintErr).
type sysStream struct {
	name string // "<stdout>"
	fd   int
}

var (
	stdoutStream = &sysStream{name: "<stdout>", fd: 1}
	stderrStream = &sysStream{name: "<stderr>", fd: 2}
	stdinStream  = &sysStream{name: "<stdin>", fd: 0}
)

var (
	_ starlark.HasAttrs = (*sysStream)(nil)
	_ starlark.Iterable = (*sysStream)(nil)
)

func (s *sysStream) mode() string {
	if s.fd == 0 {
		return "r"
	}
	return "w"
}

func (s *sysStream) String() string {
	return "<_io.TextIOWrapper name='" + s.name + "' mode='" + s.mode() + "' encoding='utf-8'>"
}
func (s *sysStream) Type() string          { return "_io.TextIOWrapper" }
func (s *sysStream) Freeze()               {}
func (s *sysStream) Truth() starlark.Bool  { return true }
func (s *sysStream) Hash() (uint32, error) { return uint32(s.fd), nil }

// Iterate is `for line in sys.stdin`: no lines. An output stream is not
// readable.
func (s *sysStream) Iterate() starlark.Iterator { return starlark.Tuple{}.Iterate() }

func (s *sysStream) AttrNames() []string {
	names := []string{"closed", "encoding", "errors", "fileno", "flush", "isatty", "line_buffering", "mode", "name",
		"readable", "reconfigure", "seekable", "writable"}
	if s.fd == 0 {
		return append(names, "read", "readline", "readlines")
	}
	return append(names, "write", "writelines")
}

func (s *sysStream) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(s.name), nil
	case "mode":
		return starlark.String(s.mode()), nil
	case "encoding":
		return starlark.String("utf-8"), nil
	case "errors":
		if s.fd == 2 {
			return starlark.String("backslashreplace"), nil
		}
		return starlark.String("strict"), nil
	case "closed":
		return starlark.False, nil
	case "line_buffering":
		return starlark.Bool(s.fd != 1), nil
	case "fileno":
		return s.method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt(s.fd), nil
		}), nil
	case "isatty", "seekable":
		return s.method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.False, nil
		}), nil
	case "readable":
		return s.method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bool(s.fd == 0), nil
		}), nil
	case "writable":
		return s.method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bool(s.fd != 0), nil
		}), nil
	case "flush":
		return s.method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, nil
		}), nil
	case "reconfigure":
		// reconfigure(encoding="utf-8", …): the output is UTF-8 text already.
		return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) > 0 {
				return nil, pyrt.Errorf("TypeError", "reconfigure() takes no positional arguments")
			}
			for _, kv := range kwargs {
				k, _ := starlark.AsString(kv[0])
				switch k {
				case "encoding", "errors", "newline", "line_buffering", "write_through":
				default:
					return nil, pyrt.Errorf("TypeError", "'%s' is an invalid keyword argument for reconfigure()", k)
				}
			}
			return starlark.None, nil
		}), nil
	}
	if s.fd == 0 {
		switch name {
		case "read", "readline":
			return interp.NewBuiltin(name, func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				var size starlark.Value = starlark.None
				if err := unpackC(fn.Name(), args, kwargs, "size?", &size); err != nil {
					return nil, err
				}
				return starlark.String(""), nil
			}), nil
		case "readlines":
			return interp.NewBuiltin(name, func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				var hint starlark.Value = starlark.None
				if err := unpackC(fn.Name(), args, kwargs, "hint?", &hint); err != nil {
					return nil, err
				}
				return starlark.NewList(nil), nil
			}), nil
		}
		return nil, nil
	}
	switch name {
	case "write":
		return s.method(name, func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := nArgs("write", args, kwargs, 1); err != nil {
				return nil, err
			}
			text, ok := interp.AsText(args[0])
			if !ok {
				return nil, pyrt.Errorf("TypeError", "write() argument must be str, not %s", pyrt.TypeName(args[0]))
			}
			if err := s.print(thread, text); err != nil {
				return nil, err
			}
			return starlark.MakeInt(utf8.RuneCountInString(text)), nil
		}), nil
	case "writelines":
		return s.method(name, func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := nArgs("writelines", args, kwargs, 1); err != nil {
				return nil, err
			}
			return starlark.None, pyrt.ForEach(thread, args[0], func(x starlark.Value) (bool, error) {
				text, ok := interp.AsText(x)
				if !ok {
					return true, pyrt.Errorf("TypeError", "write() argument must be str, not %s", pyrt.TypeName(x))
				}
				return false, s.print(thread, text)
			})
		}), nil
	}
	return nil, nil
}

// print writes text to the run's standard output or standard error.
func (s *sysStream) print(thread *starlark.Thread, text string) error {
	if s.fd == 2 {
		return interp.PrintErr(thread, text)
	}
	return interp.Print(thread, text)
}

// method is a method of the stream: name(*args) with fn's meaning.
func (s *sysStream) method(name string, fn func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) *starlark.Builtin {
	return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		switch name {
		case "write", "writelines":
		default:
			if len(args)+len(kwargs) > 0 {
				return nil, pyrt.Errorf("TypeError", "%s() takes no arguments (%d given)", name, len(args)+len(kwargs))
			}
		}
		return fn(thread, args, kwargs)
	})
}

// writeTo writes text to stream: the run's standard error when it is
// sys.stderr or None (logging's and traceback's default), its standard
// output for sys.stdout, else through the stream's write method (an
// io.StringIO).
func writeTo(thread *starlark.Thread, stream starlark.Value, text string) error {
	switch stream {
	case nil, starlark.None, stderrStream: // the default of logging and traceback
		return interp.PrintErr(thread, text)
	case stdoutStream:
		return interp.Print(thread, text)
	}
	w, err := attrOf(stream, "write")
	if err != nil {
		return err
	}
	if w == nil {
		return pyrt.Errorf("AttributeError", "'%s' object has no attribute 'write'", pyrt.TypeName(stream))
	}
	_, err = starlark.Call(thread, w, starlark.Tuple{interp.MakeString(text)}, nil)
	return err
}

func attrOf(v starlark.Value, name string) (starlark.Value, error) {
	x, ok := v.(starlark.HasAttrs)
	if !ok {
		return nil, nil
	}
	return x.Attr(name)
}

// structSeq is a read-only tuple whose elements are also attributes, as
// CPython's sys.version_info and sys.float_info are: it compares, indexes,
// slices and unpacks as the tuple of its values.
type structSeq struct {
	name   string // "sys.version_info"
	fields []string
	vals   starlark.Tuple
}

var (
	_ starlark.Indexable    = (*structSeq)(nil)
	_ starlark.Sliceable    = (*structSeq)(nil)
	_ starlark.HasAttrs     = (*structSeq)(nil)
	_ starlark.Comparable   = (*structSeq)(nil)
	_ starlark.Container    = (*structSeq)(nil)
	_ pyrt.Subclass         = (*structSeq)(nil)
	_ interp.StarlarkValuer = (*structSeq)(nil)
)

func newStructSeq(name string, fields []string, vals ...starlark.Value) *structSeq {
	t := starlark.Tuple(vals)
	t.Freeze()
	return &structSeq{name: name, fields: fields, vals: t}
}

func (s *structSeq) String() string {
	var b strings.Builder
	b.WriteString(s.name + "(")
	for i, f := range s.fields {
		if i > 0 {
			b.WriteString(", ")
		}
		r, _ := interp.Repr(nil, s.vals[i])
		b.WriteString(f + "=" + r)
	}
	return b.String() + ")"
}
func (s *structSeq) Type() string                       { return s.name[strings.LastIndexByte(s.name, '.')+1:] }
func (s *structSeq) BuiltinBase() string                { return "tuple" }
func (s *structSeq) Freeze()                            {}
func (s *structSeq) Truth() starlark.Bool               { return len(s.vals) > 0 }
func (s *structSeq) Hash() (uint32, error)              { return s.vals.Hash() }
func (s *structSeq) Len() int                           { return len(s.vals) }
func (s *structSeq) Index(i int) starlark.Value         { return s.vals[i] }
func (s *structSeq) Iterate() starlark.Iterator         { return s.vals.Iterate() }
func (s *structSeq) Has(x starlark.Value) (bool, error) { return s.vals.Has(x) }
func (s *structSeq) Slice(start, end, step int) starlark.Value {
	return s.vals.Slice(start, end, step)
}
func (s *structSeq) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.CompareDepth(op, s.vals, y.(*structSeq).vals, depth)
}

// StarlarkValue is the value as a run's result: the object of its
// fields, as a namedtuple's.
func (s *structSeq) StarlarkValue() starlark.Value {
	d := starlark.NewDict(len(s.vals))
	for i, f := range s.fields {
		_ = d.SetKey(starlark.String(f), s.vals[i])
	}
	return d
}

func (s *structSeq) Attr(name string) (starlark.Value, error) {
	if i := indexOf(s.fields, name); i >= 0 {
		return s.vals[i], nil
	}
	switch name {
	case "n_fields", "n_sequence_fields":
		return starlark.MakeInt(len(s.fields)), nil
	}
	return nil, nil
}

func (s *structSeq) AttrNames() []string {
	return append(append([]string(nil), s.fields...), "n_fields", "n_sequence_fields")
}
