package stdlib

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Warnings is the warnings module as CPython 3.11's for a program run as
// `python3 -c`: warn writes "<string>:LINE: Category: message" to the
// run's standard error, once per location by default (the "default"
// action), and the filters (filterwarnings, simplefilter, resetwarnings,
// catch_warnings) choose among "default", "error", "ignore", "always",
// "module" and "once" as CPython's do. The state is the run's own.
func Warnings() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "warnings", Members: starlark.StringDict{
		"warn":           interp.NewBuiltin("warn", warningsWarn),
		"filterwarnings": interp.NewBuiltin("filterwarnings", warningsFilter),
		"simplefilter":   interp.NewBuiltin("simplefilter", warningsSimpleFilter),
		"resetwarnings":  interp.NewBuiltin("resetwarnings", warningsReset),
		"formatwarning":  interp.NewBuiltin("formatwarning", warningsFormat),
		"catch_warnings": catchWarningsClass,
		"WarningMessage": warningMessageClass,
	}}
}

// warnFilter is one entry of warnings.filters.
type warnFilter struct {
	action   string
	message  *regexp.Regexp // nil: any
	category starlark.Value
	module   *regexp.Regexp // nil: any
	lineno   int
}

// warnState is a run's warnings: its filters, where each warning was
// shown (the registries of "default", "module" and "once"), and the list
// catch_warnings(record=True) collects into.
type warnState struct {
	filters []warnFilter
	shown   map[string]bool
	record  *starlark.List
}

const warningsLocal = "onetool.stdlib.warnings"

func warningsOf(thread *starlark.Thread) *warnState {
	if s, ok := interp.RunLocal(thread, warningsLocal).(*warnState); ok {
		return s
	}
	s := &warnState{filters: defaultWarnFilters(), shown: map[string]bool{}}
	interp.SetRunLocal(thread, warningsLocal, s)
	return s
}

// defaultWarnFilters are CPython 3.11's for a release build: deprecations
// shown only for __main__, a few kinds ignored, the rest "default".
func defaultWarnFilters() []warnFilter {
	main := regexp.MustCompile(`^(?:__main__)\z`)
	return []warnFilter{
		{action: "default", category: pyrt.BuiltinClass("DeprecationWarning"), module: main},
		{action: "ignore", category: pyrt.BuiltinClass("DeprecationWarning")},
		{action: "ignore", category: pyrt.BuiltinClass("PendingDeprecationWarning")},
		{action: "ignore", category: pyrt.BuiltinClass("ImportWarning")},
		{action: "ignore", category: pyrt.BuiltinClass("ResourceWarning")},
	}
}

// maxWarnFilters bounds a run's filters, which the memory meter does
// not see (each holds a compiled pattern).
const maxWarnFilters = 10_000

// same reports an equal filter, as CPython's list compares its tuples.
func (f warnFilter) same(g warnFilter) bool {
	return f.action == g.action && f.category == g.category && f.lineno == g.lineno &&
		reText(f.message) == reText(g.message) && reText(f.module) == reText(g.module)
}

func reText(re *regexp.Regexp) string {
	if re == nil {
		return ""
	}
	return re.String()
}

var warnActions = map[string]bool{"default": true, "error": true, "ignore": true, "always": true, "module": true, "once": true}

// isSubclassOf is issubclass(c, base) as the program's builtin answers
// it (a program's own Warning classes included).
func isSubclassOf(thread *starlark.Thread, c, base starlark.Value) bool {
	if c == base {
		return true
	}
	v, err := callBuiltin(thread, "issubclass", c, base)
	return err == nil && v == starlark.True
}

// warnClassName is a category's __name__.
func warnClassName(c starlark.Value) string {
	if n, ok := c.(interface{ Name() string }); ok {
		return n.Name()
	}
	return c.String()
}

func warningsWarn(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var message, category starlark.Value = nil, starlark.None
	stacklevel := 1
	var source starlark.Value
	if err := unpackC("warn", args, kwargs, "message", &message, "category?", &category, "stacklevel?", &stacklevel, "source?", &source); err != nil {
		return nil, err
	}
	warning := pyrt.BuiltinClass("Warning")
	// A Warning instance is its own category; anything else is a text.
	var text string
	if isInstanceOf(thread, message, warning) {
		t, err := typeOf(thread, message)
		if err != nil {
			return nil, err
		}
		category = t
		s, err := interp.Str(interp.BudgetOf(thread), message)
		if err != nil {
			return nil, err
		}
		text = s
	} else {
		if category == starlark.None {
			category = pyrt.BuiltinClass("UserWarning")
		}
		if !isSubclassOf(thread, category, warning) {
			return nil, pyrt.Errorf("TypeError", "category must be a Warning subclass, not '%s'", pyrt.TypeName(category))
		}
		s, err := interp.Str(interp.BudgetOf(thread), message)
		if err != nil {
			return nil, err
		}
		text = s
	}
	filename, lineno := "sys", 1
	if frames := pyrt.CallerFrames(thread); stacklevel >= 1 && stacklevel <= len(frames) {
		filename, lineno = tbFile, frames[len(frames)-stacklevel].Line
	}
	st := warningsOf(thread)
	if err := interp.BudgetOf(thread).Charge(uint64(len(st.filters))); err != nil {
		return nil, err
	}
	action := "default"
	for _, f := range st.filters {
		if (f.message == nil || f.message.MatchString(text)) && isSubclassOf(thread, category, f.category) &&
			(f.module == nil || f.module.MatchString("__main__")) && (f.lineno == 0 || f.lineno == lineno) {
			action = f.action
			break
		}
	}
	switch action {
	case "ignore":
		return starlark.None, nil
	case "error":
		exc := message
		if !isInstanceOf(thread, message, warning) {
			v, err := starlark.Call(thread, category, starlark.Tuple{interp.MakeString(text)}, nil)
			if err != nil {
				return nil, err
			}
			exc = v
		}
		raise, ok := interp.Predeclared(thread)["__ot_raise"]
		if !ok {
			return nil, pyrt.Errorf(warnClassName(category), "%s", text)
		}
		return starlark.Call(thread, raise, starlark.Tuple{exc}, nil)
	case "default", "module", "once":
		key := fmt.Sprintf("%s\x00%s\x00%d", text, warnClassName(category), lineno)
		switch action {
		case "module":
			key = fmt.Sprintf("%s\x00%s\x00module", text, warnClassName(category))
		case "once":
			key = fmt.Sprintf("%s\x00%s\x00once", text, warnClassName(category))
		}
		if st.shown[key] {
			return starlark.None, nil
		}
		st.shown[key] = true
	}
	if st.record != nil {
		w := &warningMessage{message: message, category: category, filename: filename, lineno: lineno}
		if !isInstanceOf(thread, message, warning) {
			v, err := starlark.Call(thread, category, starlark.Tuple{interp.MakeString(text)}, nil)
			if err == nil {
				w.message = v
			}
		}
		return starlark.None, st.record.Append(w)
	}
	return starlark.None, interp.PrintErr(thread, formatWarning(text, warnClassName(category), filename, lineno))
}

// formatWarning is warnings.formatwarning's text: no source line follows,
// as CPython cannot read a program given with -c.
func formatWarning(text, category, filename string, lineno int) string {
	return fmt.Sprintf("%s:%d: %s: %s\n", filename, lineno, category, text)
}

func warningsFormat(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var message, category, filename starlark.Value
	var lineno int
	var line starlark.Value = starlark.None
	if err := unpackC("formatwarning", args, kwargs, "message", &message, "category", &category, "filename", &filename, "lineno", &lineno, "line?", &line); err != nil {
		return nil, err
	}
	text, err := interp.Str(interp.BudgetOf(thread), message)
	if err != nil {
		return nil, err
	}
	name, _ := interp.AsText(filename)
	out := formatWarning(text, warnClassName(category), name, lineno)
	if s, ok := interp.AsText(line); ok && strings.TrimSpace(s) != "" {
		out += "  " + strings.TrimSpace(s) + "\n"
	}
	return interp.MakeString(out), nil
}

func warningsFilter(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var action, message, module string
	var category starlark.Value = pyrt.BuiltinClass("Warning")
	lineno := 0
	appendIt := false
	if err := unpackC("filterwarnings", args, kwargs, "action", &action, "message?", &message, "category?", &category, "module?", &module, "lineno?", &lineno, "append?", &appendIt); err != nil {
		return nil, err
	}
	f := warnFilter{action: action, category: category, lineno: lineno}
	if message != "" {
		re, err := regexp.Compile(`(?i)^(?:` + message + `)`)
		if err != nil {
			return nil, pyrt.Errorf("re.error", "%s", err)
		}
		f.message = re
	}
	if module != "" {
		re, err := regexp.Compile(`^(?:` + module + `)\z`)
		if err != nil {
			return nil, pyrt.Errorf("re.error", "%s", err)
		}
		f.module = re
	}
	return addWarnFilter(thread, f, appendIt)
}

func warningsSimpleFilter(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var action string
	var category starlark.Value = pyrt.BuiltinClass("Warning")
	lineno := 0
	appendIt := false
	if err := unpackC("simplefilter", args, kwargs, "action", &action, "category?", &category, "lineno?", &lineno, "append?", &appendIt); err != nil {
		return nil, err
	}
	return addWarnFilter(thread, warnFilter{action: action, category: category, lineno: lineno}, appendIt)
}

func addWarnFilter(thread *starlark.Thread, f warnFilter, appendIt bool) (starlark.Value, error) {
	if !warnActions[f.action] {
		return nil, pyrt.Errorf("AssertionError", "invalid action: %s", interp.QuoteString(f.action))
	}
	if !isSubclassOf(thread, f.category, pyrt.BuiltinClass("Warning")) {
		return nil, pyrt.Errorf("AssertionError", "category must be a Warning subclass")
	}
	if f.lineno < 0 {
		return nil, pyrt.Errorf("AssertionError", "lineno must be an int >= 0")
	}
	st := warningsOf(thread)
	// As CPython's: an equal filter already there is taken out first, so
	// a loop that adds the same filter keeps one.
	st.filters = slices.DeleteFunc(st.filters, func(g warnFilter) bool { return g.same(f) })
	if len(st.filters) >= maxWarnFilters {
		return nil, pyrt.Errorf("MemoryError", "more than %d warning filters: use fewer, broader ones (a category or a message pattern)", maxWarnFilters)
	}
	if err := interp.BudgetOf(thread).Charge(uint64(len(st.filters)) + 1); err != nil {
		return nil, err
	}
	if appendIt {
		st.filters = append(st.filters, f)
	} else {
		st.filters = append([]warnFilter{f}, st.filters...)
	}
	// As CPython's: a change of filters forgets what was shown.
	clear(st.shown)
	return starlark.None, nil
}

func warningsReset(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := unpackC("resetwarnings", args, kwargs); err != nil {
		return nil, err
	}
	st := warningsOf(thread)
	st.filters = nil
	clear(st.shown)
	return starlark.None, nil
}

func isInstanceOf(thread *starlark.Thread, v, class starlark.Value) bool {
	r, err := callBuiltin(thread, "isinstance", v, class)
	return err == nil && r == starlark.True
}

// ---- catch_warnings, WarningMessage ----

var (
	catchWarningsClass  = &pyClass{module: "warnings", name: "catch_warnings", is: isOf[*catchWarnings], ctor: newCatchWarnings}
	warningMessageClass = &pyClass{module: "warnings", name: "WarningMessage", is: isOf[*warningMessage]}
)

// catchWarnings is warnings.catch_warnings(record=False, action=None,
// category=Warning): on entry it saves the filters (and, with record,
// collects warnings into the list __enter__ returns); on exit it puts
// them back.
type catchWarnings struct {
	cmBase
	record   bool
	action   string
	category starlark.Value
	saved    *warnState
}

func newCatchWarnings(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	c := &catchWarnings{category: pyrt.BuiltinClass("Warning")}
	var action starlark.Value = starlark.None
	if len(args) > 0 {
		return nil, pyrt.Errorf("TypeError", "catch_warnings.__init__() takes 1 positional argument but %d were given", len(args)+1)
	}
	if err := unpackC("catch_warnings", nil, kwargs, "record?", &c.record, "module?", new(starlark.Value), "action?", &action, "category?", &c.category, "lineno?", new(int), "append?", new(bool)); err != nil {
		return nil, err
	}
	if s, ok := interp.AsText(action); ok {
		c.action = s
	}
	return c, nil
}

func (c *catchWarnings) String() string {
	return fmt.Sprintf("catch_warnings(record=%s)", map[bool]string{true: "True", false: "False"}[c.record])
}
func (c *catchWarnings) Type() string                    { return "catch_warnings" }
func (c *catchWarnings) PyClass() starlark.Value         { return catchWarningsClass }
func (c *catchWarnings) AttrNames() []string             { return nil }
func (c *catchWarnings) Held(visit func(starlark.Value)) { visit(c.category) }

func (c *catchWarnings) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__enter__", "__exit__":
		return cmMethod(name, c, c.enter, c.exit), nil
	}
	return nil, noAttrNamed("catch_warnings", name)
}

func (c *catchWarnings) enter(thread *starlark.Thread) (starlark.Value, error) {
	if c.saved != nil {
		return nil, pyrt.Errorf("RuntimeError", "Cannot enter %s twice", c.String())
	}
	st := warningsOf(thread)
	saved := *st
	saved.filters = append([]warnFilter(nil), st.filters...)
	c.saved = &saved
	if c.action != "" {
		if _, err := addWarnFilter(thread, warnFilter{action: c.action, category: c.category}, false); err != nil {
			return nil, err
		}
	}
	if !c.record {
		return starlark.None, nil
	}
	st.record = starlark.NewList(nil)
	clear(st.shown)
	return st.record, nil
}

func (c *catchWarnings) exit(thread *starlark.Thread, _, _, _ starlark.Value) (starlark.Value, error) {
	if c.saved == nil {
		return nil, pyrt.Errorf("RuntimeError", "Cannot exit %s without entering first", c.String())
	}
	st := warningsOf(thread)
	st.filters, st.record = c.saved.filters, c.saved.record
	return starlark.False, nil
}

// warningMessage is what catch_warnings(record=True) collects.
type warningMessage struct {
	message, category starlark.Value
	filename          string
	lineno            int
}

func (w *warningMessage) String() string {
	msg, _ := interp.Repr(nil, w.message)
	return fmt.Sprintf("{message : %s, category : '%s', filename : '%s', lineno : %d, line : None}", msg, warnClassName(w.category), w.filename, w.lineno)
}
func (w *warningMessage) Type() string         { return "WarningMessage" }
func (w *warningMessage) Freeze()              {}
func (w *warningMessage) Truth() starlark.Bool { return true }
func (w *warningMessage) Hash() (uint32, error) {
	return 0, pyrt.Errorf("TypeError", "unhashable type: 'WarningMessage'")
}
func (w *warningMessage) PyClass() starlark.Value { return warningMessageClass }
func (w *warningMessage) AttrNames() []string {
	return []string{"category", "file", "filename", "line", "lineno", "message", "source"}
}

func (w *warningMessage) Attr(name string) (starlark.Value, error) {
	switch name {
	case "message":
		return w.message, nil
	case "category":
		return w.category, nil
	case "filename":
		return interp.MakeString(w.filename), nil
	case "lineno":
		return starlark.MakeInt(w.lineno), nil
	case "line", "file", "source":
		return starlark.None, nil
	}
	return nil, noAttrNamed("WarningMessage", name)
}
