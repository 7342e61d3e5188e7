package stdlib

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Logging is the logging module: loggers in a dotted hierarchy, handlers
// writing to streams, formatters and filters, with CPython's levels,
// defaults and texts. Every logger, handler and level name a program
// makes or changes belongs to its run (a thread-local state made on
// first use): basicConfig in one run leaves the next run's root logger
// unconfigured, as a new process's is. A stream handler writes to its
// stream: sys.stderr (the default) and sys.stdout both add to the run's
// printed text in order, an io.StringIO gets the text. Files are not
// written: basicConfig(filename=) and FileHandler are refused with a
// hint. logging.root is not there (the root logger is the run's): use
// logging.getLogger().
func Logging() *starlarkstruct.Module {
	members := starlark.StringDict{
		"CRITICAL": starlark.MakeInt(50), "FATAL": starlark.MakeInt(50), "ERROR": starlark.MakeInt(40),
		"WARNING": starlark.MakeInt(30), "WARN": starlark.MakeInt(30), "INFO": starlark.MakeInt(20),
		"DEBUG": starlark.MakeInt(10), "NOTSET": starlark.MakeInt(0),
		"BASIC_FORMAT":         starlark.String(basicFormat),
		"getLogger":            interp.NewBuiltin("getLogger", logGetLogger),
		"basicConfig":          interp.NewBuiltin("basicConfig", logBasicConfig),
		"getLevelName":         interp.NewBuiltin("getLevelName", logGetLevelName),
		"addLevelName":         interp.NewBuiltin("addLevelName", logAddLevelName),
		"getLevelNamesMapping": interp.NewBuiltin("getLevelNamesMapping", logGetLevelNamesMapping),
		"disable":              interp.NewBuiltin("disable", logDisable),
		"shutdown":             interp.NewBuiltin("shutdown", logNoop("shutdown")),
		"captureWarnings":      interp.NewBuiltin("captureWarnings", logNoop("captureWarnings")),
		"Logger":               loggerClass,
		"RootLogger":           rootLoggerClass,
		"LoggerAdapter":        adapterClass,
		"Handler":              handlerClass,
		"StreamHandler":        streamHandlerClass,
		"NullHandler":          nullHandlerClass,
		"FileHandler":          fileHandlerClass,
		"Formatter":            formatterClass,
		"Filter":               filterClass,
		"LogRecord":            recordClass,
	}
	for _, level := range []string{"debug", "info", "warning", "warn", "error", "critical", "fatal", "exception", "log"} {
		members[level] = interp.NewBuiltin(level, logModuleLevel(level))
	}
	return &starlarkstruct.Module{Name: "logging", Members: members}
}

const basicFormat = "%(levelname)s:%(name)s:%(message)s"

// Python's level numbers.
const (
	lvNotset   = 0
	lvDebug    = 10
	lvInfo     = 20
	lvWarning  = 30
	lvError    = 40
	lvCritical = 50
)

// logState is a run's logging: its loggers, level names and disable
// level.
type logState struct {
	root        *logger
	loggers     map[string]*logger
	levelToName map[int]string
	nameToLevel map[string]int
	disabled    int
	start       time.Time
	// made is what the loggers made hold: the state lives in the run's
	// thread, for the whole run, where the memory meter does not look
	// (a builtin's Budget.Hold ends with the builtin), and
	// getLogger(str(i)) in a loop makes a logger each time; they are
	// counted alone against the budget.
	made goBytes
}

const loggingLocal = "onetool.stdlib.logging"

// logStateOf is the run's logging state, made on first use.
func logStateOf(thread *starlark.Thread) *logState {
	if s, ok := interp.RunLocal(thread, loggingLocal).(*logState); ok {
		return s
	}
	s := &logState{
		loggers: map[string]*logger{},
		levelToName: map[int]string{lvCritical: "CRITICAL", lvError: "ERROR", lvWarning: "WARNING",
			lvInfo: "INFO", lvDebug: "DEBUG", lvNotset: "NOTSET"},
		nameToLevel: map[string]int{"CRITICAL": lvCritical, "FATAL": lvCritical, "ERROR": lvError, "WARN": lvWarning,
			"WARNING": lvWarning, "INFO": lvInfo, "DEBUG": lvDebug, "NOTSET": lvNotset},
		start: time.Now(),
	}
	s.root = newLogger(s, "root", lvWarning)
	s.root.isRoot = true
	interp.SetRunLocal(thread, loggingLocal, s)
	return s
}

// levelName is getLevelName(level) for an int.
func (s *logState) levelName(level int) string {
	if n, ok := s.levelToName[level]; ok {
		return n
	}
	return fmt.Sprintf("Level %d", level)
}

// checkLevel is CPython's _checkLevel: an int, or a level's name.
func (s *logState) checkLevel(v starlark.Value) (int, error) {
	switch x := v.(type) {
	case starlark.Int:
		n, ok := x.Int64()
		if !ok {
			return 0, pyrt.Errorf("OverflowError", "Python int too large to convert to C long")
		}
		return int(n), nil
	case starlark.Bool:
		return boolInt(bool(x)), nil
	}
	if name, ok := interp.AsText(v); ok {
		if n, ok := s.nameToLevel[name]; ok {
			return n, nil
		}
		return 0, pyrt.Errorf("ValueError", "Unknown level: %s", pyRepr(name))
	}
	r, err := interp.Repr(nil, v)
	if err != nil {
		return 0, err
	}
	return 0, pyrt.Errorf("TypeError", "Level not an integer or a valid string: %s", r)
}

// intLevel reads the level of log(level, msg): an int.
func intLevel(v starlark.Value) (int, bool) {
	switch x := v.(type) {
	case starlark.Int:
		n, ok := x.Int64()
		if !ok {
			return 0, false
		}
		return int(max(math.MinInt32, min(n, math.MaxInt32))), true
	case starlark.Bool:
		return boolInt(bool(x)), true
	}
	return 0, false
}

// ---- Loggers ----

type logger struct {
	state     *logState
	name      string
	level     int
	isRoot    bool
	detached  bool // made by Logger(name): no parent
	propagate bool
	disabled  bool
	handlers  *starlark.List
	filters   *starlark.List
}

var (
	_ starlark.HasAttrs    = (*logger)(nil)
	_ starlark.HasSetField = (*logger)(nil)
)

func newLogger(s *logState, name string, level int) *logger {
	return &logger{state: s, name: name, level: level, propagate: true,
		handlers: starlark.NewList(nil), filters: starlark.NewList(nil)}
}

func (l *logger) className() string {
	if l.isRoot {
		return "RootLogger"
	}
	return "Logger"
}

func (l *logger) String() string {
	return fmt.Sprintf("<%s %s (%s)>", l.className(), l.name, l.state.levelName(l.effectiveLevel()))
}
func (l *logger) Type() string          { return l.className() }
func (l *logger) Freeze()               {}
func (l *logger) Truth() starlark.Bool  { return true }
func (l *logger) Hash() (uint32, error) { return starlark.String(l.name).Hash() }
func (l *logger) PyClass() starlark.Value {
	if l.isRoot {
		return rootLoggerClass
	}
	return loggerClass
}
func (l *logger) Held(visit func(starlark.Value)) { visit(l.handlers); visit(l.filters) }

// parent is the nearest ancestor by the dotted name that the run made,
// else the root logger; nil for the root.
func (l *logger) parent() *logger {
	if l.isRoot || l.detached {
		return nil
	}
	name := l.name
	for {
		i := strings.LastIndexByte(name, '.')
		if i < 0 {
			return l.state.root
		}
		name = name[:i]
		if p, ok := l.state.loggers[name]; ok {
			return p
		}
	}
}

func (l *logger) effectiveLevel() int {
	for c := l; c != nil; c = c.parent() {
		if c.level != lvNotset {
			return c.level
		}
	}
	return lvNotset
}

func (l *logger) enabledFor(level int) bool {
	if l.disabled || l.state.disabled >= level {
		return false
	}
	return level >= l.effectiveLevel()
}

func (l *logger) SetField(name string, v starlark.Value) error {
	switch name {
	case "propagate":
		l.propagate = bool(v.Truth())
	case "disabled":
		l.disabled = bool(v.Truth())
	case "level":
		n, ok := intLevel(v)
		if !ok {
			return pyrt.Errorf("TypeError", "level must be an integer")
		}
		l.level = n
	case "name":
		s, ok := interp.AsText(v)
		if !ok {
			return pyrt.Errorf("TypeError", "A logger name must be a string")
		}
		l.name = s
	case "handlers", "filters":
		list, ok := v.(*starlark.List)
		if !ok {
			return pyrt.Errorf("TypeError", "%s must be a list", name)
		}
		if name == "handlers" {
			l.handlers = list
		} else {
			l.filters = list
		}
	default:
		return pyrt.Errorf("AttributeError", "'%s' object has no attribute '%s' that can be set here", l.className(), name)
	}
	return nil
}

func (l *logger) AttrNames() []string {
	return []string{"addFilter", "addHandler", "critical", "debug", "disabled", "error", "exception", "fatal",
		"filter", "filters", "getChild", "getEffectiveLevel", "handle", "handlers", "hasHandlers", "info",
		"isEnabledFor", "level", "log", "name", "parent", "propagate", "removeFilter", "removeHandler",
		"setLevel", "warn", "warning"}
}

func (l *logger) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return interp.MakeString(l.name), nil
	case "level":
		return starlark.MakeInt(l.level), nil
	case "propagate":
		return starlark.Bool(l.propagate), nil
	case "disabled":
		return starlark.Bool(l.disabled), nil
	case "handlers":
		return l.handlers, nil
	case "filters":
		return l.filters, nil
	case "parent":
		if p := l.parent(); p != nil {
			return p, nil
		}
		return starlark.None, nil
	case "root":
		return l.state.root, nil
	}
	if m, ok := loggerMethods[name]; ok {
		return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return m(thread, l, args, kwargs)
		}), nil
	}
	if level, ok := levelMethods[name]; ok {
		return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return logCall(thread, l, name, level, args, kwargs, nil)
		}), nil
	}
	return nil, nil
}

// levelMethods are the methods that log at a fixed level; log takes its
// level as an argument (-1 here).
var levelMethods = map[string]int{"debug": lvDebug, "info": lvInfo, "warning": lvWarning, "warn": lvWarning,
	"error": lvError, "exception": lvError, "critical": lvCritical, "fatal": lvCritical, "log": -1}

type loggerMethod func(thread *starlark.Thread, l *logger, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

var loggerMethods map[string]loggerMethod

func init() {
	loggerMethods = map[string]loggerMethod{
		"setLevel": func(thread *starlark.Thread, l *logger, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var level starlark.Value
			if err := unpack("setLevel", args, kwargs, "level", &level); err != nil {
				return nil, err
			}
			n, err := l.state.checkLevel(level)
			if err != nil {
				return nil, err
			}
			l.level = n
			return starlark.None, nil
		},
		"getEffectiveLevel": func(thread *starlark.Thread, l *logger, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := unpack("getEffectiveLevel", args, kwargs); err != nil {
				return nil, err
			}
			return starlark.MakeInt(l.effectiveLevel()), nil
		},
		"isEnabledFor": func(thread *starlark.Thread, l *logger, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var level starlark.Value
			if err := unpack("isEnabledFor", args, kwargs, "level", &level); err != nil {
				return nil, err
			}
			n, ok := intLevel(level)
			if !ok {
				return nil, pyrt.Errorf("TypeError", "'>=' not supported between instances of '%s' and 'int'", pyrt.TypeName(level))
			}
			return starlark.Bool(l.enabledFor(n)), nil
		},
		"getChild": func(thread *starlark.Thread, l *logger, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var suffix starlark.Value
			if err := unpack("getChild", args, kwargs, "suffix", &suffix); err != nil {
				return nil, err
			}
			s, ok := interp.AsText(suffix)
			if !ok {
				return nil, pyrt.Errorf("TypeError", "can only concatenate str (not \"%s\") to str", pyrt.TypeName(suffix))
			}
			name := l.name + "." + s
			if l.isRoot {
				name = s
			}
			return getLogger(thread, name), nil
		},
		"addHandler": func(thread *starlark.Thread, l *logger, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var h starlark.Value
			if err := unpack("addHandler", args, kwargs, "hdlr", &h); err != nil {
				return nil, err
			}
			if !listHas(l.handlers, h) {
				if err := l.handlers.Append(h); err != nil {
					return nil, err
				}
			}
			return starlark.None, nil
		},
		"removeHandler": func(thread *starlark.Thread, l *logger, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var h starlark.Value
			if err := unpack("removeHandler", args, kwargs, "hdlr", &h); err != nil {
				return nil, err
			}
			return starlark.None, listRemove(l.handlers, h)
		},
		"hasHandlers": func(thread *starlark.Thread, l *logger, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := unpack("hasHandlers", args, kwargs); err != nil {
				return nil, err
			}
			for c := l; c != nil; c = c.parent() {
				if c.handlers.Len() > 0 {
					return starlark.True, nil
				}
				if !c.propagate {
					break
				}
			}
			return starlark.False, nil
		},
		"addFilter": func(thread *starlark.Thread, l *logger, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return addFilter(l.filters, args, kwargs)
		},
		"removeFilter": func(thread *starlark.Thread, l *logger, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var f starlark.Value
			if err := unpack("removeFilter", args, kwargs, "filter", &f); err != nil {
				return nil, err
			}
			return starlark.None, listRemove(l.filters, f)
		},
		"filter": func(thread *starlark.Thread, l *logger, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var r starlark.Value
			if err := unpack("filter", args, kwargs, "record", &r); err != nil {
				return nil, err
			}
			ok, err := passFilters(thread, l.filters, r)
			return starlark.Bool(ok), err
		},
		"handle": func(thread *starlark.Thread, l *logger, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var r starlark.Value
			if err := unpack("handle", args, kwargs, "record", &r); err != nil {
				return nil, err
			}
			rec, ok := r.(*logRecord)
			if !ok {
				return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'levelno'", pyrt.TypeName(r))
			}
			return starlark.None, l.handle(thread, rec)
		},
	}
}

func listHas(l *starlark.List, v starlark.Value) bool {
	for i := 0; i < l.Len(); i++ {
		if l.Index(i) == v {
			return true
		}
	}
	return false
}

func listRemove(l *starlark.List, v starlark.Value) error {
	for i := 0; i < l.Len(); i++ {
		if l.Index(i) == v {
			elems := make([]starlark.Value, 0, l.Len()-1)
			for j := 0; j < l.Len(); j++ {
				if j != i {
					elems = append(elems, l.Index(j))
				}
			}
			if err := l.Clear(); err != nil {
				return err
			}
			for _, e := range elems {
				if err := l.Append(e); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return nil
}

func addFilter(filters *starlark.List, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var f starlark.Value
	if err := unpack("addFilter", args, kwargs, "filter", &f); err != nil {
		return nil, err
	}
	if !listHas(filters, f) {
		if err := filters.Append(f); err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}

// passFilters asks each filter of filters about rec: a Filter's (or any
// object's) filter method, or the filter itself when it is a function.
func passFilters(thread *starlark.Thread, filters *starlark.List, rec starlark.Value) (bool, error) {
	for i := 0; i < filters.Len(); i++ {
		f := filters.Index(i)
		var r starlark.Value
		var err error
		if fl, ok := f.(*logFilter); ok {
			r = starlark.Bool(fl.pass(rec))
		} else if m, _ := attrOf(f, "filter"); m != nil {
			r, err = starlark.Call(thread, m, starlark.Tuple{rec}, nil)
		} else if _, ok := f.(starlark.Callable); ok {
			r, err = starlark.Call(thread, f, starlark.Tuple{rec}, nil)
		} else {
			return false, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'filter'", pyrt.TypeName(f))
		}
		if err != nil {
			return false, err
		}
		if !r.Truth() {
			return false, nil
		}
	}
	return true, nil
}

// loggerSize is about what a logger holds besides its name.
const loggerSize = 512

// getLogger is the run's logger called name, made on first use.
func getLogger(thread *starlark.Thread, name string) *logger {
	s := logStateOf(thread)
	if name == "" || name == "root" {
		return s.root
	}
	if l, ok := s.loggers[name]; ok {
		return l
	}
	l := newLogger(s, name, lvNotset)
	s.loggers[name] = l
	return l
}

func logGetLogger(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name starlark.Value = starlark.None
	if err := unpack("getLogger", args, kwargs, "name?", &name); err != nil {
		return nil, err
	}
	if name == starlark.None {
		return logStateOf(thread).root, nil
	}
	s, ok := interp.AsText(name)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "A logger name must be a string")
	}
	b := interp.BudgetOf(thread)
	if err := b.Charge(uint64(len(s))/16 + 1); err != nil {
		return nil, err
	}
	st := logStateOf(thread)
	if _, ok := st.loggers[s]; !ok {
		if err := st.made.add(b, loggerSize+2*int64(len(s))); err != nil {
			return nil, err
		}
	}
	return getLogger(thread, s), nil
}

// logCall is a call of a logging method of l: debug(msg, *args, **kw),
// …, log(level, msg, *args, **kw), exception(msg, …) (exc_info=True by
// default). extra, a LoggerAdapter's, is used when kw has none.
func logCall(thread *starlark.Thread, l *logger, method string, level int, args starlark.Tuple, kwargs []starlark.Tuple, extra starlark.Value) (starlark.Value, error) {
	if level < 0 { // log(level, msg, …)
		if len(args) == 0 {
			return nil, pyrt.Errorf("TypeError", "Logger.log() missing 2 required positional arguments: 'level' and 'msg'")
		}
		n, ok := intLevel(args[0])
		if !ok {
			return nil, pyrt.Errorf("TypeError", "level must be an integer")
		}
		level, args = n, args[1:]
	}
	if len(args) == 0 {
		return nil, pyrt.Errorf("TypeError", "Logger.%s() missing 1 required positional argument: 'msg'", method)
	}
	var excInfo, stackInfo starlark.Value = starlark.None, starlark.False
	if method == "exception" {
		excInfo = starlark.True
	}
	stacklevel := 1
	for _, kv := range kwargs {
		k, _ := starlark.AsString(kv[0])
		switch k {
		case "exc_info":
			excInfo = kv[1]
		case "extra":
			extra = kv[1]
		case "stack_info":
			stackInfo = kv[1]
		case "stacklevel":
			if n, ok := intLevel(kv[1]); ok {
				stacklevel = n
			}
		default:
			return nil, pyrt.Errorf("TypeError", "Logger._log() got an unexpected keyword argument '%s'", k)
		}
	}
	if err := interp.BudgetOf(thread).Charge(8); err != nil {
		return nil, err
	}
	if !l.enabledFor(level) {
		return starlark.None, nil
	}
	rec, err := makeRecord(thread, l, level, args[0], args[1:], excInfo, stackInfo, extra, stacklevel)
	if err != nil {
		return nil, err
	}
	return starlark.None, l.handle(thread, rec)
}

// handle passes rec to the handlers of l and of its ancestors (while
// they propagate), or to the last resort when there are none.
func (l *logger) handle(thread *starlark.Thread, rec *logRecord) error {
	if l.disabled {
		return nil
	}
	if ok, err := passFilters(thread, l.filters, rec); err != nil || !ok {
		return err
	}
	found := 0
	for c := l; c != nil; c = c.parent() {
		// A handler's handle may change the list: walk a copy.
		hs := make([]starlark.Value, c.handlers.Len())
		for i := range hs {
			hs[i] = c.handlers.Index(i)
		}
		for _, hv := range hs {
			found++
			h, ok := hv.(*handler)
			if !ok {
				return pyrt.Errorf("AttributeError", "'%s' object has no attribute 'level'", pyrt.TypeName(hv))
			}
			if rec.levelno >= h.level {
				if err := h.handle(thread, rec); err != nil {
					return err
				}
			}
		}
		if !c.propagate {
			break
		}
	}
	if found == 0 && rec.levelno >= lvWarning {
		return lastResort.handle(thread, rec)
	}
	return nil
}

// lastResort is the handler of a record no handler takes: its message
// alone, on sys.stderr, from WARNING up.
var lastResort = &handler{kind: "_StderrHandler", level: lvWarning, terminator: "\n", frozen: true}

// ---- Records ----

// logRecord is a LogRecord: its attributes in a dict, as CPython's
// __dict__ (a formatter's % mapping), and levelno for the handlers.
type logRecord struct {
	attrs   *starlark.Dict
	levelno int
}

var (
	_ starlark.HasAttrs    = (*logRecord)(nil)
	_ starlark.HasSetField = (*logRecord)(nil)
)

func (r *logRecord) get(name string) starlark.Value {
	v, _, _ := r.attrs.Get(starlark.String(name))
	if v == nil {
		return starlark.None
	}
	return v
}

func (r *logRecord) String() string {
	parts := []string{}
	for _, k := range []string{"name", "levelno", "pathname", "lineno"} {
		s, _ := interp.Str(nil, r.get(k))
		parts = append(parts, s)
	}
	msg, _ := interp.Str(nil, r.get("msg"))
	return "<LogRecord: " + strings.Join(parts, ", ") + ", \"" + msg + "\">"
}
func (r *logRecord) Type() string                    { return "LogRecord" }
func (r *logRecord) Freeze()                         {}
func (r *logRecord) Truth() starlark.Bool            { return true }
func (r *logRecord) Hash() (uint32, error)           { return 0, fmt.Errorf("unhashable: LogRecord") }
func (r *logRecord) PyClass() starlark.Value         { return recordClass }
func (r *logRecord) Held(visit func(starlark.Value)) { visit(r.attrs) }
func (r *logRecord) AttrNames() []string {
	names := []string{"getMessage", "__dict__"}
	for _, k := range r.attrs.Keys() {
		s, _ := starlark.AsString(k)
		names = append(names, s)
	}
	return names
}

func (r *logRecord) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__dict__":
		return r.attrs, nil
	case "getMessage":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := unpack("getMessage", args, kwargs); err != nil {
				return nil, err
			}
			s, err := r.message(thread)
			if err != nil {
				return nil, err
			}
			return interp.MakeString(s), nil
		}), nil
	}
	v, ok, _ := r.attrs.Get(starlark.String(name))
	if !ok {
		return nil, nil
	}
	return v, nil
}

func (r *logRecord) SetField(name string, v starlark.Value) error {
	if name == "levelno" {
		if n, ok := intLevel(v); ok {
			r.levelno = n
		}
	}
	return r.attrs.SetKey(starlark.String(name), v)
}

// message is getMessage(): str(msg) % args when there are args.
func (r *logRecord) message(thread *starlark.Thread) (string, error) {
	b := interp.BudgetOf(thread)
	msg, err := interp.Str(b, r.get("msg"))
	if err != nil {
		return "", err
	}
	args := r.get("args")
	if !args.Truth() {
		return msg, nil
	}
	v, err := starlark.Call(thread, Builtins()["__ot_mod"], starlark.Tuple{interp.MakeString(msg), args}, nil)
	if err != nil {
		return "", err
	}
	return interp.Str(b, v)
}

// makeRecord is the LogRecord of a call from the program: the caller's
// line and function, the time, and extra's attributes.
func makeRecord(thread *starlark.Thread, l *logger, level int, msg starlark.Value, args starlark.Tuple, excInfo, stackInfo, extra starlark.Value, stacklevel int) (*logRecord, error) {
	s := l.state
	var argsV starlark.Value = args
	if len(args) == 1 {
		// A single non-empty mapping is the mapping for %(key)s.
		if d, ok := args[0].(starlark.IterableMapping); ok && bool(d.Truth()) {
			argsV = args[0]
		}
	}
	lineno, funcName := 0, starlark.Value(starlark.String("<module>"))
	frames := pyrt.CallerFrames(thread)
	if i := len(frames) - max(1, stacklevel); i >= 0 && len(frames) > 0 {
		lineno, funcName = frames[i].Line, starlark.String(frames[i].Name)
	} else if n := len(frames); n > 0 {
		lineno, funcName = frames[0].Line, starlark.String(frames[0].Name)
	}
	now := time.Now()
	created := float64(now.UnixNano()) / 1e9
	d := starlark.NewDict(24)
	set := func(k string, v starlark.Value) { _ = d.SetKey(starlark.String(k), v) }
	set("name", interp.MakeString(l.name))
	set("msg", msg)
	set("args", argsV)
	set("levelname", interp.MakeString(s.levelName(level)))
	set("levelno", starlark.MakeInt(level))
	set("pathname", starlark.String(tbFile))
	set("filename", starlark.String(tbFile))
	set("module", starlark.String(tbFile))
	exc, err := excInfoValue(thread, excInfo)
	if err != nil {
		return nil, err
	}
	set("exc_info", exc)
	set("exc_text", starlark.None)
	var stack starlark.Value = starlark.None
	if stackInfo.Truth() {
		lines, err := formatFrames(interp.BudgetOf(thread), frames)
		if err != nil {
			return nil, err
		}
		stack = interp.MakeString(strings.TrimSuffix("Stack (most recent call last):\n"+strings.Join(lines, ""), "\n"))
	}
	set("stack_info", stack)
	set("lineno", starlark.MakeInt(lineno))
	set("funcName", funcName)
	set("created", starlark.Float(created))
	set("msecs", starlark.Float(math.Floor((created-math.Floor(created))*1000)))
	set("relativeCreated", starlark.Float(float64(now.Sub(s.start).Nanoseconds())/1e6))
	set("thread", starlark.MakeInt(1))
	set("threadName", starlark.String("MainThread"))
	set("processName", starlark.String("MainProcess"))
	set("process", starlark.MakeInt(1))
	if extra != nil && extra != starlark.None {
		m, ok := extra.(starlark.IterableMapping)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "'%s' object is not iterable", pyrt.TypeName(extra))
		}
		for _, kv := range m.Items() {
			k, _ := interp.AsText(kv[0])
			if _, found, _ := d.Get(starlark.String(k)); found || k == "message" || k == "asctime" {
				return nil, pyrt.Errorf("KeyError", "%s", pyRepr("Attempt to overwrite "+pyRepr(k)+" in LogRecord"))
			}
			if err := d.SetKey(kv[0], kv[1]); err != nil {
				return nil, err
			}
		}
	}
	return &logRecord{attrs: d, levelno: level}, nil
}

// excInfoValue is the exc_info of a record: the exception an exc_info=
// argument names (True: the one being handled; an exception; a
// sys.exc_info() tuple), None for none.
func excInfoValue(thread *starlark.Thread, v starlark.Value) (starlark.Value, error) {
	if v == nil || !v.Truth() {
		return starlark.None, nil
	}
	switch x := v.(type) {
	case *pyrt.ExcValue:
		return starlark.Tuple{x.Class(), x, pyrt.NewTraceback(x.Frames())}, nil
	case starlark.Tuple:
		return x, nil
	}
	if e := pyrt.Handling(thread); e != nil {
		return starlark.Tuple{e.Class(), e, pyrt.NewTraceback(e.Frames())}, nil
	}
	return starlark.Tuple{starlark.None, starlark.None, starlark.None}, nil
}

// newRecord is LogRecord(name, level, pathname, lineno, msg, args,
// exc_info, func=None).
func newRecord(thread *starlark.Thread, name, level, pathname, lineno, msg, args, excInfo, funcName starlark.Value) (*logRecord, error) {
	s := logStateOf(thread)
	lv, ok := intLevel(level)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(level))
	}
	if t, ok := args.(starlark.Tuple); ok && len(t) == 1 {
		if d, ok := t[0].(starlark.IterableMapping); ok && bool(d.Truth()) {
			args = t[0]
		}
	}
	now := time.Now()
	created := float64(now.UnixNano()) / 1e9
	d := starlark.NewDict(24)
	set := func(k string, v starlark.Value) { _ = d.SetKey(starlark.String(k), v) }
	path, _ := interp.AsText(pathname)
	file := path[strings.LastIndexByte(path, '/')+1:]
	module := file
	if i := strings.LastIndexByte(file, '.'); i > 0 {
		module = file[:i]
	}
	set("name", name)
	set("msg", msg)
	set("args", args)
	set("levelname", interp.MakeString(s.levelName(lv)))
	set("levelno", starlark.MakeInt(lv))
	set("pathname", pathname)
	set("filename", interp.MakeString(file))
	set("module", interp.MakeString(module))
	set("exc_info", excInfo)
	set("exc_text", starlark.None)
	set("stack_info", starlark.None)
	set("lineno", lineno)
	set("funcName", funcName)
	set("created", starlark.Float(created))
	set("msecs", starlark.Float(math.Floor((created-math.Floor(created))*1000)))
	set("relativeCreated", starlark.Float(float64(now.Sub(s.start).Nanoseconds())/1e6))
	set("thread", starlark.MakeInt(1))
	set("threadName", starlark.String("MainThread"))
	set("processName", starlark.String("MainProcess"))
	set("process", starlark.MakeInt(1))
	return &logRecord{attrs: d, levelno: lv}, nil
}

func logNewRecord(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name, level, pathname, lineno, msg, rargs, excInfo starlark.Value
	var funcName, sinfo starlark.Value = starlark.None, starlark.None
	if err := unpack("LogRecord", args, kwargs, "name", &name, "level", &level, "pathname", &pathname, "lineno", &lineno,
		"msg", &msg, "args", &rargs, "exc_info", &excInfo, "func?", &funcName, "sinfo?", &sinfo); err != nil {
		return nil, err
	}
	if _, ok := interp.AsText(pathname); !ok {
		return nil, pyrt.Errorf("TypeError", "expected str, bytes or os.PathLike object, not %s", pyrt.TypeName(pathname))
	}
	rec, err := newRecord(thread, name, level, pathname, lineno, msg, rargs, excInfo, funcName)
	if err != nil {
		return nil, err
	}
	_ = rec.attrs.SetKey(starlark.String("stack_info"), sinfo)
	return rec, nil
}

// ---- Handlers ----

// handler is a Handler, StreamHandler or NullHandler (kind).
type handler struct {
	kind       string
	stream     starlark.Value // nil: sys.stderr
	level      int
	formatter  starlark.Value // nil: the default formatter
	filters    *starlark.List
	name       starlark.Value
	terminator string
	frozen     bool // the last resort, shared by every run
}

var (
	_ starlark.HasAttrs    = (*handler)(nil)
	_ starlark.HasSetField = (*handler)(nil)
)

func newHandler(kind string, stream starlark.Value) *handler {
	return &handler{kind: kind, stream: stream, filters: starlark.NewList(nil), name: starlark.None, terminator: "\n"}
}

func (h *handler) String() string {
	name := ""
	switch {
	case h.kind != "StreamHandler" && h.kind != "_StderrHandler":
	case h.stream == nil || h.stream == stderrStream:
		name = "<stderr> "
	case h.stream == stdoutStream:
		name = "<stdout> "
	default:
		if n, _ := attrOf(h.stream, "name"); n != nil {
			if s, err := interp.Str(nil, n); err == nil && s != "" {
				name = s + " "
			}
		}
	}
	return fmt.Sprintf("<%s %s(%s)>", h.kind, name, levelNameDefault(h.level))
}

// levelNameDefault is a level's name by the default names (a handler's
// repr has no run at hand).
func levelNameDefault(level int) string {
	switch level {
	case lvCritical:
		return "CRITICAL"
	case lvError:
		return "ERROR"
	case lvWarning:
		return "WARNING"
	case lvInfo:
		return "INFO"
	case lvDebug:
		return "DEBUG"
	case lvNotset:
		return "NOTSET"
	}
	return fmt.Sprintf("Level %d", level)
}

func (h *handler) Type() string          { return h.kind }
func (h *handler) Freeze()               {}
func (h *handler) Truth() starlark.Bool  { return true }
func (h *handler) Hash() (uint32, error) { return starlark.String(h.kind).Hash() }
func (h *handler) PyClass() starlark.Value {
	switch h.kind {
	case "StreamHandler", "_StderrHandler":
		return streamHandlerClass
	case "NullHandler":
		return nullHandlerClass
	}
	return handlerClass
}
func (h *handler) Held(visit func(starlark.Value)) {
	if h.stream != nil {
		visit(h.stream)
	}
	if h.formatter != nil {
		visit(h.formatter)
	}
	if h.filters != nil {
		visit(h.filters)
	}
}

func (h *handler) AttrNames() []string {
	names := []string{"acquire", "addFilter", "close", "emit", "filter", "filters", "flush", "format", "formatter",
		"get_name", "handle", "handleError", "level", "name", "release", "removeFilter", "setFormatter", "setLevel", "set_name"}
	if h.kind == "StreamHandler" {
		names = append(names, "setStream", "stream", "terminator")
	}
	return names
}

func (h *handler) SetField(name string, v starlark.Value) error {
	if h.frozen {
		return pyrt.Errorf("AttributeError", "the last resort handler cannot be changed")
	}
	switch name {
	case "level":
		n, ok := intLevel(v)
		if !ok {
			return pyrt.Errorf("TypeError", "level must be an integer")
		}
		h.level = n
	case "formatter":
		h.formatter = v
	case "name":
		h.name = v
	case "terminator":
		s, ok := interp.AsText(v)
		if !ok {
			return pyrt.Errorf("TypeError", "terminator must be a str")
		}
		h.terminator = s
	case "stream":
		h.stream = v
	default:
		return pyrt.Errorf("AttributeError", "'%s' object has no attribute '%s' that can be set here", h.kind, name)
	}
	return nil
}

func (h *handler) Attr(name string) (starlark.Value, error) {
	switch name {
	case "level":
		return starlark.MakeInt(h.level), nil
	case "formatter":
		if h.formatter == nil {
			return starlark.None, nil
		}
		return h.formatter, nil
	case "filters":
		return h.filters, nil
	case "name":
		return h.name, nil
	case "terminator":
		if h.kind == "StreamHandler" {
			return interp.MakeString(h.terminator), nil
		}
		return nil, nil
	case "stream":
		if h.kind != "StreamHandler" {
			return nil, nil
		}
		if h.stream == nil {
			return stderrStream, nil
		}
		return h.stream, nil
	}
	m := handlerMethod(h, name)
	if m == nil {
		return nil, nil
	}
	return interp.NewBuiltin(name, m), nil
}

func handlerMethod(h *handler, name string) interp.BuiltinFunc {
	none := func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := unpack(name, args, kwargs); err != nil {
			return nil, err
		}
		return starlark.None, nil
	}
	switch name {
	case "setLevel":
		return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var level starlark.Value
			if err := unpack("setLevel", args, kwargs, "level", &level); err != nil {
				return nil, err
			}
			n, err := logStateOf(thread).checkLevel(level)
			if err != nil {
				return nil, err
			}
			return starlark.None, h.SetField("level", starlark.MakeInt(n))
		}
	case "setFormatter":
		return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var f starlark.Value
			if err := unpack("setFormatter", args, kwargs, "fmt", &f); err != nil {
				return nil, err
			}
			if f == starlark.None {
				f = nil
			}
			return starlark.None, h.SetField("formatter", f)
		}
	case "setStream":
		if h.kind != "StreamHandler" {
			return nil
		}
		return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var s starlark.Value
			if err := unpack("setStream", args, kwargs, "stream", &s); err != nil {
				return nil, err
			}
			old := h.stream
			if old == nil {
				old = stderrStream
			}
			if s == old {
				return starlark.None, nil
			}
			return old, h.SetField("stream", s)
		}
	case "set_name":
		return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var n starlark.Value
			if err := unpack("set_name", args, kwargs, "name", &n); err != nil {
				return nil, err
			}
			return starlark.None, h.SetField("name", n)
		}
	case "get_name":
		return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := unpack("get_name", args, kwargs); err != nil {
				return nil, err
			}
			return h.name, nil
		}
	case "addFilter":
		return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return addFilter(h.filters, args, kwargs)
		}
	case "removeFilter":
		return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var f starlark.Value
			if err := unpack("removeFilter", args, kwargs, "filter", &f); err != nil {
				return nil, err
			}
			return starlark.None, listRemove(h.filters, f)
		}
	case "flush", "close", "acquire", "release":
		return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return none(args, kwargs)
		}
	case "filter", "handle", "emit", "format", "handleError":
		return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var r starlark.Value
			if err := unpack(name, args, kwargs, "record", &r); err != nil {
				return nil, err
			}
			rec, ok := r.(*logRecord)
			if !ok {
				return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'levelno'", pyrt.TypeName(r))
			}
			switch name {
			case "filter":
				ok, err := passFilters(thread, h.filters, rec)
				return starlark.Bool(ok), err
			case "handle":
				return starlark.None, h.handle(thread, rec)
			case "emit":
				if h.kind == "Handler" {
					return nil, pyrt.Errorf("NotImplementedError", "emit must be implemented by Handler subclasses")
				}
				return starlark.None, h.emit(thread, rec)
			case "handleError":
				return starlark.None, nil
			}
			s, err := h.format(thread, rec)
			if err != nil {
				return nil, err
			}
			return interp.MakeString(s), nil
		}
	}
	return nil
}

// handle emits rec when the filters pass it.
func (h *handler) handle(thread *starlark.Thread, rec *logRecord) error {
	if h.filters != nil {
		if ok, err := passFilters(thread, h.filters, rec); err != nil || !ok {
			return err
		}
	}
	return h.emit(thread, rec)
}

// emit writes the formatted record and the terminator to the stream. A
// failure other than a budget's is reported as CPython's handleError
// reports it, on sys.stderr, and the program goes on.
func (h *handler) emit(thread *starlark.Thread, rec *logRecord) error {
	switch h.kind {
	case "NullHandler":
		return nil
	case "Handler":
		return h.handleError(thread, rec, pyrt.Errorf("NotImplementedError", "emit must be implemented by Handler subclasses"))
	}
	text, err := h.format(thread, rec)
	if err == nil {
		err = writeTo(thread, h.stream, text+h.terminator)
	}
	if err != nil {
		return h.handleError(thread, rec, err)
	}
	return nil
}

// handleError writes what CPython's Handler.handleError writes for a
// record that could not be emitted: the exception, the calls that logged
// it, the message and its arguments.
func (h *handler) handleError(thread *starlark.Thread, rec *logRecord, err error) error {
	if isBudget(err) || interp.BudgetOf(thread).Tripped() != nil {
		return err
	}
	b := interp.BudgetOf(thread)
	var sb strings.Builder
	sb.WriteString("--- Logging error ---\n")
	exc := pyrt.Classify(err)
	if e, ok := exc.(*pyrt.Exception); ok {
		line := e.Class
		if e.Msg != "" {
			line += ": " + e.Msg
		}
		sb.WriteString(line + "\n")
	} else {
		sb.WriteString(exc.Error() + "\n")
	}
	sb.WriteString("Call stack:\n")
	lines, ferr := formatFrames(b, pyrt.CallerFrames(thread))
	if ferr != nil {
		return ferr
	}
	sb.WriteString(strings.Join(lines, ""))
	msg, rerr := interp.Repr(b, rec.get("msg"))
	if rerr != nil {
		return rerr
	}
	args, rerr := interp.Repr(b, rec.get("args"))
	if rerr != nil {
		return rerr
	}
	sb.WriteString("Message: " + msg + "\nArguments: " + args + "\n")
	return interp.PrintErr(thread, sb.String()) // handleError writes to sys.stderr
}

// format is the record's text by the handler's formatter.
func (h *handler) format(thread *starlark.Thread, rec *logRecord) (string, error) {
	f := h.formatter
	if f == nil {
		return defaultLogFormatter.format(thread, rec)
	}
	if lf, ok := f.(*logFormatter); ok {
		return lf.format(thread, rec)
	}
	m, err := attrOf(f, "format")
	if err != nil {
		return "", err
	}
	if m == nil {
		return "", pyrt.Errorf("AttributeError", "'%s' object has no attribute 'format'", pyrt.TypeName(f))
	}
	v, err := starlark.Call(thread, m, starlark.Tuple{rec}, nil)
	if err != nil {
		return "", err
	}
	return interp.Str(interp.BudgetOf(thread), v)
}

// newHandlerFn makes StreamHandler(stream=None), NullHandler() and
// Handler(level=NOTSET).
func newHandlerFn(kind string) interp.BuiltinFunc {
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		switch kind {
		case "StreamHandler":
			var stream starlark.Value = starlark.None
			if err := unpack("StreamHandler.__init__", args, kwargs, "stream?", &stream); err != nil {
				return nil, err
			}
			if stream == starlark.None {
				stream = nil
			}
			return newHandler(kind, stream), nil
		case "NullHandler":
			var level starlark.Value = starlark.MakeInt(0)
			if err := unpack("Handler.__init__", args, kwargs, "level?", &level); err != nil {
				return nil, err
			}
			h := newHandler(kind, nil)
			n, err := logStateOf(thread).checkLevel(level)
			h.level = n
			return h, err
		}
		var level starlark.Value = starlark.MakeInt(0)
		if err := unpack("Handler.__init__", args, kwargs, "level?", &level); err != nil {
			return nil, err
		}
		h := newHandler(kind, nil)
		n, err := logStateOf(thread).checkLevel(level)
		h.level = n
		return h, err
	}
}

// fileRefused is FileHandler(...) and basicConfig(filename=...): a
// program writes no files but through the file pack.
func fileRefused(what string) error {
	return &pyrt.Exception{Class: "PermissionError", Msg: what + ": programs cannot write log files",
		Advice: "log to the output (basicConfig() without filename, or StreamHandler()), or write a file with file.write(path=..., content=...)"}
}

// ---- Formatters ----

// logFormatter is a Formatter: fmt in one of three styles, and datefmt.
type logFormatter struct {
	fmt     string
	datefmt starlark.Value // None or str
	style   byte           // '%', '{' or '$'
}

var _ starlark.HasAttrs = (*logFormatter)(nil)

var defaultLogFormatter = &logFormatter{fmt: "%(message)s", datefmt: starlark.None, style: '%'}

func (f *logFormatter) String() string          { return "<logging.Formatter object>" }
func (f *logFormatter) Type() string            { return "Formatter" }
func (f *logFormatter) Freeze()                 {}
func (f *logFormatter) Truth() starlark.Bool    { return true }
func (f *logFormatter) Hash() (uint32, error)   { return starlark.String(f.fmt).Hash() }
func (f *logFormatter) PyClass() starlark.Value { return formatterClass }
func (f *logFormatter) AttrNames() []string {
	return []string{"datefmt", "default_msec_format", "default_time_format", "format", "formatException", "formatMessage", "formatStack", "formatTime", "usesTime"}
}

func (f *logFormatter) Attr(name string) (starlark.Value, error) {
	switch name {
	case "datefmt":
		return f.datefmt, nil
	case "default_time_format":
		return starlark.String("%Y-%m-%d %H:%M:%S"), nil
	case "default_msec_format":
		return starlark.String("%s,%03d"), nil
	case "usesTime":
		return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := unpack("usesTime", args, kwargs); err != nil {
				return nil, err
			}
			return starlark.Bool(f.usesTime()), nil
		}), nil
	case "formatException":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var ei starlark.Value
			if err := unpack("formatException", args, kwargs, "ei", &ei); err != nil {
				return nil, err
			}
			s, err := formatExcInfo(thread, ei)
			if err != nil {
				return nil, err
			}
			return interp.MakeString(s), nil
		}), nil
	case "formatStack":
		return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var si starlark.Value
			if err := unpack("formatStack", args, kwargs, "stack_info", &si); err != nil {
				return nil, err
			}
			return si, nil
		}), nil
	case "format", "formatMessage", "formatTime":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var r starlark.Value
			var datefmt starlark.Value = starlark.None
			pairs := []any{"record", &r}
			if name == "formatTime" {
				pairs = append(pairs, "datefmt?", &datefmt)
			}
			if err := unpack(name, args, kwargs, pairs...); err != nil {
				return nil, err
			}
			rec, ok := r.(*logRecord)
			if !ok {
				return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute '__dict__'", pyrt.TypeName(r))
			}
			var s string
			var err error
			switch name {
			case "format":
				s, err = f.format(thread, rec)
			case "formatMessage":
				s, err = f.formatMessage(thread, rec)
			default:
				s, err = formatTime(thread, rec, datefmt)
			}
			if err != nil {
				return nil, err
			}
			return interp.MakeString(s), nil
		}), nil
	}
	return nil, nil
}

func (f *logFormatter) usesTime() bool {
	switch f.style {
	case '{':
		return strings.Contains(f.fmt, "{asctime")
	case '$':
		return strings.Contains(f.fmt, "$asctime") || strings.Contains(f.fmt, "${asctime}")
	}
	return strings.Contains(f.fmt, "%(asctime)")
}

// format is Formatter.format(record): the message, the time when the
// format uses it, the format applied, then the exception's traceback and
// the stack when the record has them.
func (f *logFormatter) format(thread *starlark.Thread, rec *logRecord) (string, error) {
	msg, err := rec.message(thread)
	if err != nil {
		return "", err
	}
	if err := rec.attrs.SetKey(starlark.String("message"), interp.MakeString(msg)); err != nil {
		return "", err
	}
	if f.usesTime() {
		t, err := formatTime(thread, rec, f.datefmt)
		if err != nil {
			return "", err
		}
		if err := rec.attrs.SetKey(starlark.String("asctime"), interp.MakeString(t)); err != nil {
			return "", err
		}
	}
	s, err := f.formatMessage(thread, rec)
	if err != nil {
		return "", err
	}
	if ei := rec.get("exc_info"); ei.Truth() {
		text := rec.get("exc_text")
		if !text.Truth() {
			t, err := formatExcInfo(thread, ei)
			if err != nil {
				return "", err
			}
			text = interp.MakeString(t)
			if err := rec.attrs.SetKey(starlark.String("exc_text"), text); err != nil {
				return "", err
			}
		}
		t, _ := interp.AsText(text)
		if !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		s += t
	} else if text, ok := interp.AsText(rec.get("exc_text")); ok && text != "" {
		if !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		s += text
	}
	if si, ok := interp.AsText(rec.get("stack_info")); ok && si != "" {
		if !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		s += si
	}
	return s, nil
}

// formatExcInfo is the traceback text of a (type, value, tb) tuple,
// without its last newline.
func formatExcInfo(thread *starlark.Thread, ei starlark.Value) (string, error) {
	var exc starlark.Value = starlark.None
	var frames []pyrt.Frame
	if t, ok := ei.(starlark.Tuple); ok && len(t) == 3 {
		exc = t[1]
		var err error
		if frames, err = tbFrames(t[2]); err != nil {
			return "", err
		}
	}
	lines, err := formatException(interp.BudgetOf(thread), exc, frames, starlark.None, true)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(strings.Join(lines, ""), "\n"), nil
}

// formatMessage applies the format to the record's attributes.
func (f *logFormatter) formatMessage(thread *starlark.Thread, rec *logRecord) (string, error) {
	b := interp.BudgetOf(thread)
	if err := b.Charge(uint64(len(f.fmt))); err != nil {
		return "", err
	}
	var v starlark.Value
	var err error
	switch f.style {
	case '{':
		kwargs := make([]starlark.Tuple, 0, rec.attrs.Len())
		for _, kv := range rec.attrs.Items() {
			kwargs = append(kwargs, starlark.Tuple{kv[0], kv[1]})
		}
		v, err = starlark.Call(thread, Builtins()["__ot_format"], starlark.Tuple{interp.MakeString(f.fmt)}, kwargs)
	case '$':
		var s string
		s, err = substituteDollar(b, f.fmt, rec)
		v = interp.MakeString(s)
	default:
		v, err = starlark.Call(thread, Builtins()["__ot_mod"], starlark.Tuple{interp.MakeString(f.fmt), rec.attrs}, nil)
	}
	if err != nil {
		var ex *pyrt.Exception
		if ce := pyrt.Classify(err); !isBudget(err) && errors.As(ce, &ex) && ex.Class == "KeyError" {
			return "", pyrt.Errorf("ValueError", "Formatting field not found in record: %s", ex.Msg)
		}
		return "", err
	}
	return interp.Str(b, v)
}

// substituteDollar is string.Template(fmt).substitute(record's
// attributes): $name, ${name} and $$.
func substituteDollar(b *interp.Budget, format string, rec *logRecord) (string, error) {
	var sb strings.Builder
	for i := 0; i < len(format); i++ {
		if err := pace(b, i); err != nil {
			return "", err
		}
		c := format[i]
		if c != '$' || i+1 >= len(format) {
			sb.WriteByte(c)
			continue
		}
		rest := format[i+1:]
		if rest[0] == '$' {
			sb.WriteByte('$')
			i++
			continue
		}
		name, skip := "", 0
		if rest[0] == '{' {
			if j := strings.IndexByte(rest, '}'); j > 0 {
				name, skip = rest[1:j], j+1
			}
		} else {
			j := 0
			for j < len(rest) && (rest[j] == '_' || rest[j] >= 'a' && rest[j] <= 'z' || rest[j] >= 'A' && rest[j] <= 'Z' || j > 0 && rest[j] >= '0' && rest[j] <= '9') {
				j++
			}
			name, skip = rest[:j], j
		}
		if name == "" {
			sb.WriteByte(c)
			continue
		}
		v, found, _ := rec.attrs.Get(starlark.String(name))
		if !found {
			return "", pyrt.Errorf("KeyError", "%s", pyRepr(name))
		}
		s, err := interp.Str(b, v)
		if err != nil {
			return "", err
		}
		sb.WriteString(s)
		i += skip
	}
	return sb.String(), nil
}

// formatTime is Formatter.formatTime(record, datefmt): the local time
// of the record by datefmt, else as "2024-01-31 12:00:00,123".
func formatTime(thread *starlark.Thread, rec *logRecord, datefmt starlark.Value) (string, error) {
	created, _ := starlark.AsFloat(rec.get("created"))
	sec := int64(math.Floor(created))
	t := time.Unix(sec, 0).In(time.Local)
	_, off := t.Zone()
	d := &datetime{local: (sec+int64(off))*usPerSec + epochUS}
	f, ok := interp.AsText(datefmt)
	if !ok || datefmt == starlark.None {
		s, err := strftimeBudget(interp.BudgetOf(thread), d, "%Y-%m-%d %H:%M:%S")
		if err != nil {
			return "", err
		}
		msecs, _ := starlark.AsFloat(rec.get("msecs"))
		return fmt.Sprintf("%s,%03d", s, int(msecs)), nil
	}
	return strftimeBudget(interp.BudgetOf(thread), d, f)
}

var percentField = regexp.MustCompile(`%\(\w+\)[#0+ -]*(\*|\d+)?(\.(\*|\d+))?[diouxefgcrsa%]`)
var dollarField = regexp.MustCompile(`\$(\{[A-Za-z_]\w*\}|[A-Za-z_]\w*)`)

// newLogFormatter is Formatter(fmt=None, datefmt=None, style='%',
// validate=True, *, defaults=None).
func newLogFormatter(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fmtV, datefmt starlark.Value = starlark.None, starlark.None
	var style starlark.Value = starlark.String("%")
	var validate starlark.Value = starlark.True
	var defaults starlark.Value = starlark.None
	if err := unpack("Formatter.__init__", args, kwargs, "fmt?", &fmtV, "datefmt?", &datefmt, "style?", &style, "validate?", &validate, "defaults?", &defaults); err != nil {
		return nil, err
	}
	return makeLogFormatter(fmtV, datefmt, style, validate.Truth())
}

func makeLogFormatter(fmtV, datefmt, style starlark.Value, validate starlark.Bool) (*logFormatter, error) {
	st, _ := interp.AsText(style)
	if st != "%" && st != "{" && st != "$" {
		return nil, pyrt.Errorf("ValueError", "Style must be one of: %%,{,$")
	}
	f := &logFormatter{datefmt: datefmt, style: st[0]}
	if fmtV == starlark.None {
		f.fmt = map[byte]string{'%': "%(message)s", '{': "{message}", '$': "${message}"}[f.style]
	} else {
		s, ok := interp.AsText(fmtV)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "expected string or bytes-like object, got '%s'", pyrt.TypeName(fmtV))
		}
		f.fmt = s
	}
	if datefmt != starlark.None {
		if _, ok := interp.AsText(datefmt); !ok {
			return nil, pyrt.Errorf("TypeError", "strftime() argument 1 must be str, not %s", pyrt.TypeName(datefmt))
		}
	}
	if validate {
		switch f.style {
		case '%':
			if !percentField.MatchString(f.fmt) {
				return nil, pyrt.Errorf("ValueError", "Invalid format %s for '%%' style", pyRepr(f.fmt))
			}
		case '{':
			if err := validateBraceFormat(f.fmt); err != nil {
				return nil, err
			}
		case '$':
			if !dollarField.MatchString(f.fmt) {
				return nil, pyrt.Errorf("ValueError", "invalid format: no fields")
			}
		}
	}
	return f, nil
}

// ---- Filters ----

// logFilter is Filter(name=”): it passes the records of the logger
// name and of its descendants.
type logFilter struct{ name string }

var _ starlark.HasAttrs = (*logFilter)(nil)

func (f *logFilter) String() string          { return "<logging.Filter object>" }
func (f *logFilter) Type() string            { return "Filter" }
func (f *logFilter) Freeze()                 {}
func (f *logFilter) Truth() starlark.Bool    { return true }
func (f *logFilter) Hash() (uint32, error)   { return starlark.String(f.name).Hash() }
func (f *logFilter) PyClass() starlark.Value { return filterClass }
func (f *logFilter) AttrNames() []string     { return []string{"filter", "name", "nlen"} }

func (f *logFilter) pass(rec starlark.Value) bool {
	if f.name == "" {
		return true
	}
	r, ok := rec.(*logRecord)
	if !ok {
		return false
	}
	name, _ := interp.AsText(r.get("name"))
	if name == f.name {
		return true
	}
	return strings.HasPrefix(name, f.name) && len(name) > len(f.name) && name[len(f.name)] == '.'
}

func (f *logFilter) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return interp.MakeString(f.name), nil
	case "nlen":
		return starlark.MakeInt(len(f.name)), nil
	case "filter":
		return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var r starlark.Value
			if err := unpack("filter", args, kwargs, "record", &r); err != nil {
				return nil, err
			}
			return starlark.Bool(f.pass(r)), nil
		}), nil
	}
	return nil, nil
}

func newFilter(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name starlark.Value = starlark.String("")
	if err := unpack("Filter.__init__", args, kwargs, "name?", &name); err != nil {
		return nil, err
	}
	s, ok := interp.AsText(name)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "object of type '%s' has no len()", pyrt.TypeName(name))
	}
	return &logFilter{name: s}, nil
}

// ---- LoggerAdapter ----

// loggerAdapter is LoggerAdapter(logger, extra=None): the logger's
// methods, each call given extra (when it names none itself).
type loggerAdapter struct {
	logger *logger
	extra  starlark.Value
}

var _ starlark.HasAttrs = (*loggerAdapter)(nil)

func (a *loggerAdapter) String() string {
	return fmt.Sprintf("<LoggerAdapter %s (%s)>", a.logger.name, a.logger.state.levelName(a.logger.effectiveLevel()))
}
func (a *loggerAdapter) Type() string                    { return "LoggerAdapter" }
func (a *loggerAdapter) Freeze()                         {}
func (a *loggerAdapter) Truth() starlark.Bool            { return true }
func (a *loggerAdapter) Hash() (uint32, error)           { return starlark.String(a.logger.name).Hash() }
func (a *loggerAdapter) PyClass() starlark.Value         { return adapterClass }
func (a *loggerAdapter) Held(visit func(starlark.Value)) { visit(a.logger); visit(a.extra) }
func (a *loggerAdapter) AttrNames() []string {
	return []string{"critical", "debug", "error", "exception", "extra", "getEffectiveLevel", "hasHandlers",
		"info", "isEnabledFor", "log", "logger", "name", "setLevel", "warning"}
}

func (a *loggerAdapter) Attr(name string) (starlark.Value, error) {
	switch name {
	case "logger":
		return a.logger, nil
	case "extra":
		return a.extra, nil
	case "name":
		return interp.MakeString(a.logger.name), nil
	case "warn", "fatal":
		return nil, nil
	}
	if level, ok := levelMethods[name]; ok {
		return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			// CPython's process() replaces the call's extra with the adapter's.
			kw := make([]starlark.Tuple, 0, len(kwargs))
			for _, kv := range kwargs {
				if k, _ := starlark.AsString(kv[0]); k != "extra" {
					kw = append(kw, kv)
				}
			}
			return logCall(thread, a.logger, name, level, args, kw, a.extra)
		}), nil
	}
	switch name {
	case "setLevel", "getEffectiveLevel", "isEnabledFor", "hasHandlers":
		return a.logger.Attr(name)
	}
	return nil, nil
}

func newAdapter(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var l starlark.Value
	var extra starlark.Value = starlark.None
	if err := unpack("LoggerAdapter.__init__", args, kwargs, "logger", &l, "extra?", &extra); err != nil {
		return nil, err
	}
	lg, ok := l.(*logger)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "LoggerAdapter needs a Logger, not %s", pyrt.TypeName(l))
	}
	return &loggerAdapter{logger: lg, extra: extra}, nil
}

// ---- Module functions ----

// logModuleLevel is logging.debug(msg, …) and the others: the root
// logger's, after basicConfig() when the root has no handler.
func logModuleLevel(method string) interp.BuiltinFunc {
	level := levelMethods[method]
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		root := logStateOf(thread).root
		if root.handlers.Len() == 0 {
			if _, err := basicConfig(thread, nil); err != nil {
				return nil, err
			}
		}
		return logCall(thread, root, method, level, args, kwargs, nil)
	}
}

func logBasicConfig(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 0 {
		return nil, pyrt.Errorf("TypeError", "basicConfig() takes 0 positional arguments but %d were given", len(args))
	}
	return basicConfig(thread, kwargs)
}

// basicConfig configures the root logger when it has no handler (or
// with force=True): a handler on the stream (sys.stderr by default) or
// the handlers given, a formatter of format, datefmt and style, and the
// level.
func basicConfig(thread *starlark.Thread, kwargs []starlark.Tuple) (starlark.Value, error) {
	root := logStateOf(thread).root
	opts := map[string]starlark.Value{}
	var unknown []string
	for _, kv := range kwargs {
		k, _ := starlark.AsString(kv[0])
		switch k {
		case "filename", "filemode", "format", "datefmt", "style", "level", "stream", "handlers", "force", "encoding", "errors":
			opts[k] = kv[1]
		default:
			unknown = append(unknown, k)
		}
	}
	get := func(k string) starlark.Value {
		if v, ok := opts[k]; ok {
			return v
		}
		return starlark.None
	}
	if force := get("force"); force.Truth() {
		if err := root.handlers.Clear(); err != nil {
			return nil, err
		}
	}
	if root.handlers.Len() > 0 {
		return starlark.None, nil
	}
	handlers := get("handlers")
	stream, filename := get("stream"), get("filename")
	if handlers == starlark.None {
		if stream != starlark.None && filename != starlark.None {
			return nil, pyrt.Errorf("ValueError", "'stream' and 'filename' should not be specified together")
		}
	} else if stream != starlark.None || filename != starlark.None {
		return nil, pyrt.Errorf("ValueError", "'stream' or 'filename' should not be specified together with 'handlers'")
	}
	var hs []starlark.Value
	if handlers == starlark.None {
		if filename != starlark.None {
			return nil, fileRefused("basicConfig(filename=...)")
		}
		if stream == starlark.None {
			stream = nil
		}
		hs = []starlark.Value{newHandler("StreamHandler", stream)}
	} else {
		var err error
		if hs, err = pyrt.Collect(thread, handlers); err != nil {
			return nil, err
		}
		for _, h := range hs {
			if _, ok := h.(*handler); !ok {
				return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'formatter'", pyrt.TypeName(h))
			}
		}
	}
	style := get("style")
	if style == starlark.None {
		style = starlark.String("%")
	}
	st, _ := interp.AsText(style)
	if st != "%" && st != "{" && st != "$" {
		return nil, pyrt.Errorf("ValueError", "Style must be one of: %%,{,$")
	}
	format := get("format")
	if format == starlark.None {
		format = starlark.String(map[string]string{"%": basicFormat, "{": "{levelname}:{name}:{message}", "$": "${levelname}:${name}:${message}"}[st])
	}
	f, err := makeLogFormatter(format, get("datefmt"), style, true)
	if err != nil {
		return nil, err
	}
	for _, hv := range hs {
		h := hv.(*handler)
		if h.formatter == nil {
			h.formatter = f
		}
		if err := root.handlers.Append(h); err != nil {
			return nil, err
		}
	}
	if level := get("level"); level != starlark.None {
		n, err := root.state.checkLevel(level)
		if err != nil {
			return nil, err
		}
		root.level = n
	}
	if len(unknown) > 0 {
		return nil, pyrt.Errorf("ValueError", "Unrecognised argument(s): %s", strings.Join(unknown, ", "))
	}
	return starlark.None, nil
}

func logGetLevelName(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var level starlark.Value
	if err := unpack("getLevelName", args, kwargs, "level", &level); err != nil {
		return nil, err
	}
	s := logStateOf(thread)
	if n, ok := intLevel(level); ok {
		if name, ok := s.levelToName[n]; ok {
			return interp.MakeString(name), nil
		}
	}
	if name, ok := interp.AsText(level); ok {
		if n, ok := s.nameToLevel[name]; ok {
			return starlark.MakeInt(n), nil
		}
	}
	text, err := interp.Str(interp.BudgetOf(thread), level)
	if err != nil {
		return nil, err
	}
	return interp.MakeString("Level " + text), nil
}

func logAddLevelName(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var level, name starlark.Value
	if err := unpack("addLevelName", args, kwargs, "level", &level, "levelName", &name); err != nil {
		return nil, err
	}
	n, ok := intLevel(level)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "level must be an integer")
	}
	text, ok := interp.AsText(name)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "levelName must be a str")
	}
	s := logStateOf(thread)
	if len(s.levelToName) > 1000 {
		return nil, pyrt.Errorf("ValueError", "too many level names")
	}
	s.levelToName[n] = text
	s.nameToLevel[text] = n
	return starlark.None, nil
}

func logGetLevelNamesMapping(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := unpack("getLevelNamesMapping", args, kwargs); err != nil {
		return nil, err
	}
	s := logStateOf(thread)
	// CPython's order: the defaults as its module lists them, then the
	// names a program added.
	order := []string{"CRITICAL", "FATAL", "ERROR", "WARN", "WARNING", "INFO", "DEBUG", "NOTSET"}
	var added []string
	for name := range s.nameToLevel {
		if indexOf(order, name) < 0 {
			added = append(added, name)
		}
	}
	sort.Strings(added)
	d := starlark.NewDict(len(s.nameToLevel))
	for _, name := range append(order, added...) {
		_ = d.SetKey(interp.MakeString(name), starlark.MakeInt(s.nameToLevel[name]))
	}
	return d, nil
}

func logDisable(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var level starlark.Value = starlark.MakeInt(lvCritical)
	if err := unpack("disable", args, kwargs, "level?", &level); err != nil {
		return nil, err
	}
	s := logStateOf(thread)
	n, err := s.checkLevel(level)
	if err != nil {
		return nil, err
	}
	s.disabled = n
	return starlark.None, nil
}

func logNoop(name string) interp.BuiltinFunc {
	return func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		return starlark.None, nil
	}
}

// newLoggerFn is Logger(name, level=NOTSET): a logger outside the
// run's hierarchy (getLogger does not know it, it has no parent), as
// CPython's.
func newLoggerFn(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name starlark.Value
	var level starlark.Value = starlark.MakeInt(0)
	if err := unpack("Logger.__init__", args, kwargs, "name", &name, "level?", &level); err != nil {
		return nil, err
	}
	s := logStateOf(thread)
	n, err := s.checkLevel(level)
	if err != nil {
		return nil, err
	}
	text, ok := interp.AsText(name)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "A logger name must be a string")
	}
	l := newLogger(s, text, n)
	l.detached = true
	return l, nil
}

func fileHandlerFn(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return nil, fileRefused("logging.FileHandler")
}

// The classes of logging's values.
var (
	loggerClass        = &pyClass{module: "logging", name: "Logger", is: isOf[*logger], ctor: newLoggerFn}
	rootLoggerClass    = &pyClass{module: "logging", name: "RootLogger", is: func(v starlark.Value) bool { l, ok := v.(*logger); return ok && l.isRoot }}
	adapterClass       = &pyClass{module: "logging", name: "LoggerAdapter", is: isOf[*loggerAdapter], ctor: newAdapter}
	handlerClass       = &pyClass{module: "logging", name: "Handler", is: isOf[*handler], ctor: newHandlerFn("Handler")}
	streamHandlerClass = &pyClass{module: "logging", name: "StreamHandler", is: func(v starlark.Value) bool { h, ok := v.(*handler); return ok && h.kind == "StreamHandler" }, ctor: newHandlerFn("StreamHandler")}
	nullHandlerClass   = &pyClass{module: "logging", name: "NullHandler", is: func(v starlark.Value) bool { h, ok := v.(*handler); return ok && h.kind == "NullHandler" }, ctor: newHandlerFn("NullHandler")}
	fileHandlerClass   = &pyClass{module: "logging", name: "FileHandler", is: func(starlark.Value) bool { return false }, ctor: fileHandlerFn}
	formatterClass     = &pyClass{module: "logging", name: "Formatter", is: isOf[*logFormatter], ctor: newLogFormatter}
	filterClass        = &pyClass{module: "logging", name: "Filter", is: isOf[*logFilter], ctor: newFilter}
	recordClass        = &pyClass{module: "logging", name: "LogRecord", is: isOf[*logRecord], ctor: logNewRecord}
)

// validateBraceFormat is the check of a "{" style format, as CPython's
// StrFormatStyle.validate makes it: the format must parse (its error
// prefixed with "invalid format: "), conversions be r, s or a, and some
// field be named.
func validateBraceFormat(format string) error {
	parsed, err := parseFormat(nil, format)
	if err != nil {
		var ex *pyrt.Exception
		if errors.As(err, &ex) && ex.Class == "ValueError" {
			return pyrt.Errorf("ValueError", "invalid format: %s", ex.Msg)
		}
		return err
	}
	fields := 0
	l := parsed.(*starlark.List)
	for i := range l.Len() {
		t := l.Index(i).(starlark.Tuple)
		if name, _ := interp.AsText(t[1]); name != "" {
			fields++
		}
		if conv, _ := interp.AsText(t[3]); conv != "" && !strings.Contains("rsa", conv) {
			return pyrt.Errorf("ValueError", "invalid format: invalid conversion: %s", pyRepr(conv))
		}
	}
	if fields == 0 {
		return pyrt.Errorf("ValueError", "invalid format: no fields")
	}
	return nil
}
