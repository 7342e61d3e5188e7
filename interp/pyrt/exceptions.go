package pyrt

import (
	"fmt"
	"strings"
	"sync"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// Python's exceptions (SPEC §2.7): classes that programs raise, catch and
// subclass (`class MyError(Exception): pass`), and their instances. A
// raised exception travels as a Go error, an *Exception, through every
// frame and builtin until a try statement's handler (see try.go) or the
// end of the run, where its text reads "ValueError: message".

// ExcClass is an exception class: a builtin one or one a program
// declared. Calling it makes an instance.
type ExcClass struct {
	name    string
	base    *ExcClass // nil for BaseException
	builtin bool
	// module is the module that defines the class ("statistics"), for
	// the text of an uncaught exception; "" for builtins and a program's.
	module string
	// doc is the docstring of a program's class; nil when it has none.
	doc starlark.Value
	// also are a module's class's further bases, after base (Python's
	// multiple inheritance: decimal.DivisionByZero is a ZeroDivisionError
	// too).
	also []*ExcClass
}

var (
	_ starlark.Callable = (*ExcClass)(nil)
	_ starlark.HasAttrs = (*ExcClass)(nil)
	_ classInfo         = (*ExcClass)(nil)
)

// classInfo is what isinstance and except clauses accept: a class that
// can tell its instances.
type classInfo interface {
	starlark.Value
	hasInstance(v starlark.Value) bool
}

func (c *ExcClass) Name() string { return c.name }
func (c *ExcClass) String() string {
	if c.module != "" {
		return "<class '" + c.module + "." + c.name + "'>"
	}
	return "<class '" + c.name + "'>"
}
func (c *ExcClass) Type() string          { return "type" }
func (c *ExcClass) Freeze()               {}
func (c *ExcClass) Truth() starlark.Bool  { return true }
func (c *ExcClass) Hash() (uint32, error) { return starlark.String(c.name).Hash() }

// IsSubclass reports whether c is base or derives from it. A builtin
// class is one class wherever its value was made (json.JSONDecodeError
// is built by package stdlib), so builtins match by name.
func (c *ExcClass) IsSubclass(base *ExcClass) bool {
	for k := c; k != nil; k = k.base {
		if k == base || base != nil && k.builtin && base.builtin && k.name == base.name {
			return true
		}
		for _, a := range k.also {
			if a.IsSubclass(base) {
				return true
			}
		}
	}
	return false
}

// BuiltinClass is the builtin exception class called name, or nil: for
// the modules of package stdlib to expose the classes they raise
// (json.JSONDecodeError), which except clauses then match.
func BuiltinClass(name string) *ExcClass { return sharedBaseClasses()[name] }

// sharedBaseClasses are the builtin classes that module classes derive
// from, built once: a module's classes are made as its package starts
// (decimal has fifteen), and building the whole tree for each was a tenth
// of onetool's start-up. Never changed after they are built.
var sharedBaseClasses = sync.OnceValue(baseExceptionClasses)

// NewModuleClass returns an exception class that a module defines, such
// as re.error, deriving from the builtin class base. Raise it with
// CallInternal(nil, (msg,), nil) and the instance's Error().
//
// name may be qualified by its module ("statistics.StatisticsError"):
// an uncaught exception then reads so, as CPython prints it.
func NewModuleClass(name, base string) *ExcClass {
	c := &ExcClass{name: name, base: sharedBaseClasses()[base]}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		c.module, c.name = name[:i], name[i+1:]
	}
	return c
}

// Base is the class c derives from first; nil for BaseException.
func (c *ExcClass) Base() *ExcClass { return c.base }

// Bases are the classes c derives from, in order.
func (c *ExcClass) Bases() []*ExcClass {
	if c.base == nil {
		return nil
	}
	return append([]*ExcClass{c.base}, c.also...)
}

// NewModuleSubclass is NewModuleClass for a class deriving from base,
// a class of a module, and from the classes also besides (decimal's
// DivisionByZero derives from decimal.DecimalException and from the
// builtin ZeroDivisionError).
func NewModuleSubclass(name string, base *ExcClass, also ...*ExcClass) *ExcClass {
	c := NewModuleClass(name, "")
	c.base, c.also = base, also
	return c
}

// Raise is an exception of class c with message msg whose instance has
// the attributes attrs besides args, for the classes modules define
// (re.error's msg, pattern and pos).
func (c *ExcClass) Raise(msg string, attrs starlark.StringDict) error {
	e := &ExcValue{class: c, args: starlark.Tuple{interp.MakeString(msg)}, attrs: attrs}
	return e.Error()
}

func (c *ExcClass) hasInstance(v starlark.Value) bool {
	if r, ok := v.(Raisable); ok {
		e := r.Exception()
		return e != nil && e.class.IsSubclass(c)
	}
	e, ok := v.(*ExcValue)
	return ok && e.class.IsSubclass(c)
}

func (c *ExcClass) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__name__", "__qualname__":
		return starlark.String(c.name), nil
	case "__doc__":
		if c.doc == nil || c.builtin {
			return starlark.None, nil
		}
		return c.doc, nil
	case "__mro__", "__bases__":
		var out starlark.Tuple
		if name == "__bases__" {
			for _, b := range c.Bases() {
				out = append(out, b)
			}
			return out, nil
		}
		for k := c; k != nil; k = k.base {
			out = append(out, k)
		}
		out = append(out, sharedObjectType())
		return out, nil
	case "__module__":
		if c.module != "" {
			return starlark.String(c.module), nil
		}
		if c.builtin {
			return starlark.String("builtins"), nil
		}
		return starlark.String("__main__"), nil
	}
	return nil, nil
}

func (c *ExcClass) AttrNames() []string { return []string{"__doc__", "__name__", "__qualname__"} }

// CallInternal makes an instance: ValueError("bad value", 3).
func (c *ExcClass) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, typeError("%s() takes no keyword arguments", c.name)
	}
	if isGroupClass(c) {
		return newGroup(thread, c, args)
	}
	if isOSError(c) { // errno, strerror, filename; OSError(2, …) is a FileNotFoundError
		e := &ExcValue{class: osErrorClass(c, argAt(args, 0)), args: append(starlark.Tuple(nil), args...)}
		e.osInit()
		return e, nil
	}
	return &ExcValue{class: c, args: append(starlark.Tuple(nil), args...)}, nil
}

// ExcValue is an exception instance.
type ExcValue struct {
	class *ExcClass
	args  starlark.Tuple
	cause starlark.Value // raise … from cause; nil when none
	// context is the exception being handled when this one was raised
	// (in an except clause); nil when none.
	context *ExcValue
	// suppress is __suppress_context__: raised with a from clause.
	suppress bool
	// text, when set, is str(e) as the interpreter phrased it (a KeyError
	// of the interpreter already quotes its key).
	text string
	// attrs are attributes beyond args that a builtin gave the instance.
	attrs starlark.StringDict
	// frames are its traceback's entries, recorded when a handler caught
	// it (traceback.go).
	frames []Frame
	// notes is __notes__, the texts add_note gave it; nil until the first.
	notes *starlark.List
	// origin is the call stack where it was raised, kept when a handler
	// first caught it: raised again, it reports that line (interp reads
	// Exception.Origin).
	origin starlark.CallStack
	// self is the instance of a program's class this is the exception
	// state of (see Raisable); nil for a builtin class's instance.
	self starlark.Value
	// goCause is the Go error a builtin raised this for (a refused
	// path's), so that errors.Is sees through the Python exception to
	// a Go caller; nil for a program's own.
	goCause error
}

var (
	_ starlark.HasAttrs = (*ExcValue)(nil)
	_ interp.HasStr     = (*ExcValue)(nil)
	_ interp.Holder     = (*ExcValue)(nil)
)

// Held visits the arguments and the cause, for the memory meter.
func (e *ExcValue) Held(visit func(starlark.Value)) {
	for _, a := range e.args {
		visit(a)
	}
	if e.cause != nil {
		visit(e.cause)
	}
	if e.context != nil {
		visit(e.context)
	}
	for _, v := range e.attrs {
		visit(v)
	}
	if e.notes != nil {
		visit(e.notes)
	}
	if e.self != nil {
		visit(e.self)
	}
}

// Notes are the texts add_note gave the exception, in order.
func (e *ExcValue) Notes() []string {
	if e.notes == nil {
		return nil
	}
	notes := make([]string, 0, e.notes.Len())
	for v := range e.notes.Elements() {
		if s, ok := interp.AsText(v); ok {
			notes = append(notes, s)
		}
	}
	return notes
}

// addNote is e.add_note(note): PEP 678's notes, shown after the message
// when the exception is not caught.
func (e *ExcValue) addNote(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var note starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &note); err != nil {
		return nil, err
	}
	if _, ok := interp.AsText(note); !ok {
		return nil, typeError("note must be a str, not '%s'", TypeName(note))
	}
	if e.notes == nil {
		e.notes = starlark.NewList(nil)
	}
	return starlark.None, e.notes.Append(note)
}

// Class is the instance's class.
func (e *ExcValue) Class() *ExcClass { return e.class }

// Message is str(e): the argument when there is one, else the tuple of
// arguments, or "" when there are none.
// A KeyError's is the repr of its key, as in CPython.
func (e *ExcValue) Message() string {
	s, err := interp.Str(nil, e)
	if err != nil {
		return e.class.name
	}
	return s
}

// Str is str(e), its message.
func (e *ExcValue) Str() string { return e.Message() }

// String is repr(e): ValueError('bad').
func (e *ExcValue) String() string {
	s, err := interp.Repr(nil, e)
	if err != nil {
		return e.class.name + "(...)"
	}
	return s
}

// WriteText writes str(e) or repr(e) through w: the arguments are walked
// with the budget, depth and cycle check of the text around them, since
// an argument may hold exceptions nested without end or the exception
// itself (a list it was given, to which it was appended).
func (e *ExcValue) WriteText(w *interp.TextWriter, str bool, depth int) error {
	if isGroupClass(e.class) && len(e.args) == 2 && e.groupMembers() != nil {
		return e.writeGroup(w, str, depth)
	}
	if str {
		if e.text != "" {
			return w.WriteString(e.text)
		}
		switch len(e.args) {
		case 0:
			return nil
		case 1:
			if s, ok := interp.AsText(e.args[0]); ok && !e.class.IsSubclass(keyErrorClass(e.class)) {
				return w.WriteString(s)
			}
			return w.Nested(e.args[0], depth+1)
		}
		return w.Nested(e.args, depth+1)
	}
	if err := w.WriteString(e.class.name); err != nil {
		return err
	}
	if len(e.args) != 1 {
		return w.Nested(e.args, depth+1)
	}
	if err := w.WriteString("("); err != nil {
		return err
	}
	if err := w.Nested(e.args[0], depth+1); err != nil {
		return err
	}
	return w.WriteString(")")
}

// keyErrorClass finds KeyError among the bases of c, or nil.
func keyErrorClass(c *ExcClass) *ExcClass {
	for ; c != nil; c = c.base {
		if c.name == "KeyError" && c.builtin {
			return c
		}
	}
	return nil
}

func (e *ExcValue) Type() string          { return e.class.name }
func (e *ExcValue) Freeze()               { e.args.Freeze() }
func (e *ExcValue) Truth() starlark.Bool  { return true }
func (e *ExcValue) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: %s", e.class.name) }

func (e *ExcValue) Attr(name string) (starlark.Value, error) {
	switch name {
	case "args":
		return e.args, nil
	case "__cause__":
		if e.cause == nil {
			return starlark.None, nil
		}
		if c, ok := e.cause.(*ExcValue); ok {
			return c.Value(), nil
		}
		return e.cause, nil
	case "__context__":
		if e.context == nil {
			return starlark.None, nil
		}
		return e.context.Value(), nil
	case "__suppress_context__":
		return starlark.Bool(e.suppress), nil
	case "message", "exceptions", "derive", "subgroup", "split":
		if v := e.groupAttr(&runtime{}, name); v != nil {
			return v, nil
		}
	case "value":
		if v, ok := e.attrs["value"]; ok {
			return v, nil
		}
		if e.class.IsSubclass(BuiltinClass("StopIteration")) {
			if len(e.args) > 0 {
				return e.args[0], nil
			}
			return starlark.None, nil
		}
	case "__traceback__":
		return NewTraceback(e.frames), nil
	case "__doc__":
		return e.class.Attr("__doc__")
	case "__class__":
		return e.class, nil
	case "__notes__":
		if e.notes != nil {
			return e.notes, nil
		}
	case "add_note":
		return starlark.NewBuiltin("add_note", e.addNote), nil
	case "with_traceback":
		// Tracebacks are recorded, not set: the exception itself, as
		// CPython returns it.
		return starlark.NewBuiltin("with_traceback", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var tb starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &tb); err != nil {
				return nil, err
			}
			return e, nil
		}), nil
	case "code":
		if e.class.IsSubclass(BuiltinClass("SystemExit")) {
			switch len(e.args) {
			case 0:
				return starlark.None, nil
			case 1:
				return e.args[0], nil
			}
			return e.args, nil
		}
	}
	if v, ok := e.attrs[name]; ok {
		return v, nil
	}
	if v := e.osAttr(name); v != nil {
		return v, nil
	}
	return nil, nil
}

func (e *ExcValue) AttrNames() []string {
	return []string{"__cause__", "__class__", "add_note", "args", "with_traceback"}
}

// Error is the Go error that carries a raised instance.
func (e *ExcValue) Error() error {
	return &Exception{Class: e.class.name, Msg: e.Message(), Value: e, Module: e.class.module}
}

// raised is Error for a raise on thread: the message is made under the
// run's budget (its arguments may be built from shared parts), and an
// error of the budget ends the run instead.
func (e *ExcValue) raised(thread *starlark.Thread) error {
	b := interp.BudgetOf(thread)
	msg, ok := e.plainMessage()
	if ok {
		if err := b.Charge(uint64(len(msg)) / 64); err != nil { // as Str does
			return err
		}
	} else {
		var err error
		if msg, err = interp.Str(b, e.Value()); err != nil {
			return err
		}
	}
	return &Exception{Class: e.class.name, Msg: msg, Value: e, Module: e.class.module}
}

// baseExceptionClasses builds the builtin hierarchy, most general first.
func baseExceptionClasses() map[string]*ExcClass {
	classes := map[string]*ExcClass{}
	add := func(name, base string) {
		classes[name] = &ExcClass{name: name, base: classes[base], builtin: true}
	}
	add("BaseException", "")
	add("Exception", "BaseException")
	add("ArithmeticError", "Exception")
	add("ZeroDivisionError", "ArithmeticError")
	add("OverflowError", "ArithmeticError")
	add("LookupError", "Exception")
	add("IndexError", "LookupError")
	add("KeyError", "LookupError")
	add("ValueError", "Exception")
	add("UnicodeError", "ValueError")
	add("JSONDecodeError", "ValueError")
	classes["JSONDecodeError"].module = "json.decoder" // <class 'json.decoder.JSONDecodeError'>
	add("TypeError", "Exception")
	add("AttributeError", "Exception")
	add("NameError", "Exception")
	add("UnboundLocalError", "NameError")
	add("AssertionError", "Exception")
	add("RuntimeError", "Exception")
	add("NotImplementedError", "RuntimeError")
	add("RecursionError", "RuntimeError")
	add("StopIteration", "Exception")
	add("ImportError", "Exception")
	add("ModuleNotFoundError", "ImportError")
	add("OSError", "Exception")
	add("FileNotFoundError", "OSError")
	add("FileExistsError", "OSError")
	add("IsADirectoryError", "OSError")
	add("NotADirectoryError", "OSError")
	add("PermissionError", "OSError")
	add("TimeoutError", "OSError")
	add("InterruptedError", "OSError")
	add("BlockingIOError", "OSError")
	add("ChildProcessError", "OSError")
	add("ProcessLookupError", "OSError")
	add("ConnectionError", "OSError")
	add("BrokenPipeError", "ConnectionError")
	add("ConnectionAbortedError", "ConnectionError")
	add("ConnectionRefusedError", "ConnectionError")
	add("ConnectionResetError", "ConnectionError")
	add("UnicodeDecodeError", "UnicodeError")
	add("UnicodeEncodeError", "UnicodeError")
	add("UnicodeTranslateError", "UnicodeError")
	add("FloatingPointError", "ArithmeticError")
	add("EOFError", "Exception")
	add("MemoryError", "Exception")
	add("BufferError", "Exception")
	add("ReferenceError", "Exception")
	add("SystemError", "Exception")
	add("SyntaxError", "Exception")
	add("IndentationError", "SyntaxError")
	add("TabError", "IndentationError")
	add("StopAsyncIteration", "Exception")
	add("KeyboardInterrupt", "BaseException")
	add("SystemExit", "BaseException")
	add("GeneratorExit", "BaseException")
	add("BaseExceptionGroup", "BaseException")
	add("ExceptionGroup", "BaseExceptionGroup")
	classes["ExceptionGroup"].also = []*ExcClass{classes["Exception"]}
	add("Warning", "Exception")
	for _, w := range []string{"UserWarning", "DeprecationWarning", "PendingDeprecationWarning", "SyntaxWarning",
		"RuntimeWarning", "FutureWarning", "ImportWarning", "UnicodeWarning", "BytesWarning", "ResourceWarning"} {
		add(w, "Warning")
	}
	add("ToolError", "Exception")
	// Python 3 keeps these names as aliases of OSError.
	classes["IOError"] = classes["OSError"]
	classes["EnvironmentError"] = classes["OSError"]
	return classes
}

// sharedObjectType is the class object that ends an exception class's
// __mro__ (equal by name to every Builtins()'s object).
var sharedObjectType = sync.OnceValue(func() *TypeObj {
	return &TypeObj{name: "object", is: func(starlark.Value) bool { return true }}
})

// NewExc is an instance of class c with args, for Go code that raises
// (ExcValue.Error) or hands exceptions to a program.
func NewExc(c *ExcClass, args ...starlark.Value) *ExcValue {
	return &ExcValue{class: c, args: append(starlark.Tuple(nil), args...)}
}

// SetCause makes c the exception's __cause__ (raise … from c).
func (e *ExcValue) SetCause(c *ExcValue) {
	e.cause, e.suppress = c, true
}
