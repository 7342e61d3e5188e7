package pyrt

import (
	"errors"
	"fmt"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// An Exception is a failure with a Python exception class, raised by this
// package's builtins and helpers: its text reads as CPython's does,
// "ValueError: invalid literal for int() with base 10: 'x'".
type Exception struct {
	Class string // "ValueError", "TypeError", …
	Msg   string
	// Value is the instance a program raised; nil for an exception a
	// builtin raised, which a handler gets as an instance of Class.
	Value *ExcValue
	// Advice, when set, is what to write instead; it follows the error
	// as a "hint:" line when nothing catches the exception.
	Advice string
	// Attrs are attributes of the instance beyond args (a
	// JSONDecodeError's msg, pos, lineno, colno, doc).
	Attrs starlark.StringDict
	// Module is the module that defines Class ("json.decoder"), for the
	// text of an uncaught exception, which CPython qualifies so; "" for
	// the builtin classes and a program's own.
	Module string
}

// CleanExit reports a SystemExit whose code is None or 0 (exit(),
// sys.exit(0), raise SystemExit): uncaught, the run ends as if it had
// reached its end, as CPython's process ends with status 0.
func (e *Exception) CleanExit() bool {
	if e.Value == nil {
		return e.Class == "SystemExit" && e.Msg == ""
	}
	if !e.Value.class.IsSubclass(BuiltinClass("SystemExit")) {
		return false
	}
	if len(e.Value.args) != 1 {
		return len(e.Value.args) == 0
	}
	switch code := e.Value.args[0].(type) {
	case starlark.NoneType:
		return true
	case starlark.Int:
		return code.Sign() == 0
	case starlark.Bool:
		return !bool(code)
	}
	return false
}

// Origin is the call stack where the exception was first raised, when
// it is raised again after a handler caught it; nil otherwise. interp
// reports its line, as CPython's traceback ends there.
func (e *Exception) Origin() starlark.CallStack {
	if e.Value == nil {
		return nil
	}
	return e.Value.origin
}

// Unwrap is the Go error a builtin raised the exception for, if any.
func (e *Exception) Unwrap() error {
	if e.Value == nil {
		return nil
	}
	return e.Value.goCause
}

// Hint is the advice shown under an uncaught exception (see interp).
func (e *Exception) Hint() string { return e.Advice }

func (e *Exception) Error() string {
	class := e.Class
	if e.Module != "" {
		class = e.Module + "." + class
	}
	text := class
	if e.Msg != "" {
		text += ": " + e.Msg
	}
	if e.Value != nil {
		// Notes follow the message, a line each, as CPython prints them.
		for _, n := range e.Value.Notes() {
			text += "\n" + n
		}
	}
	return text
}

func exception(class, format string, args ...any) error {
	return &Exception{Class: class, Msg: fmt.Sprintf(format, args...)}
}

// Errorf returns an *Exception of class with a formatted message, for the
// modules of package stdlib.
func Errorf(class, format string, args ...any) error { return exception(class, format, args...) }

// ErrorWithAttrs is an exception of class with message msg whose instance
// has the attributes attrs besides args, as json.JSONDecodeError has pos.
func ErrorWithAttrs(class, msg string, attrs starlark.StringDict) error {
	return &Exception{Class: class, Msg: msg, Attrs: attrs}
}

func valueError(format string, args ...any) error { return exception("ValueError", format, args...) }
func typeError(format string, args ...any) error  { return exception("TypeError", format, args...) }
func indexError(format string, args ...any) error { return exception("IndexError", format, args...) }
func keyError(format string, args ...any) error   { return exception("KeyError", format, args...) }

// isBudget reports whether err is a spent budget or a cancellation, which
// a builtin passes on unchanged: it ends the run, whatever else happens.
func isBudget(err error) bool {
	return errors.Is(err, interp.ErrLimit) || errors.Is(err, interp.ErrCancelled)
}
