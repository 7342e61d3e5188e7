package pyrt

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/lowered"
)

// try/except/else/finally, raise and assert (SPEC §2.7). Starlark has no
// exceptions, so the lowering turns a try statement into a function of
// the enclosing scope that runs the part its first argument names, and
// calls __ot_try, which runs the body and, when it fails, the first
// handler whose class matches; else and finally likewise. A part that ends with return, break or continue says
// so in what it returns, and the code after the call does it. Budgets and
// cancellation are never caught: they end the run whatever the handlers.

// tryBuiltins are the helpers of the lowered try, raise, assert and
// exception-class statements.
func (rt *runtime) tryBuiltins() starlark.StringDict {
	return starlark.StringDict{
		"__ot_try":      interp.NewBuiltin("__ot_try", rt.try),
		lowered.TryStar: interp.NewBuiltin(lowered.TryStar, rt.trystar),
		"__ot_raise":    interp.NewBuiltin("__ot_raise", rt.raise),
		"__ot_assert":   interp.NewBuiltin("__ot_assert", rt.assertFailed),
		"exit":          interp.NewBuiltin("exit", rt.exit),
		"quit":          interp.NewBuiltin("quit", rt.exit),
	}
}

// partArgs are the arguments that run the body, the else and the finally
// part of a try statement's function (lower_try.go); never changed.
var partArgs = [...]starlark.Tuple{
	lowered.TryBody:    {starlark.MakeInt(lowered.TryBody), starlark.None},
	lowered.TryElse:    {starlark.MakeInt(lowered.TryElse), starlark.None},
	lowered.TryFinally: {starlark.MakeInt(lowered.TryFinally), starlark.None},
	lowered.TryClasses: {starlark.MakeInt(lowered.TryClasses), starlark.None},
}

// try is __ot_try(parts, spec): parts is the try statement's function,
// which runs the part its first argument names (lower_try.go); spec is 4
// times the number of handlers, plus 1 with an else part and 2 with a
// finally. It returns what the part that ran last returned.
func (rt *runtime) try(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return rt.tryWith(thread, args, kwargs, rt.except)
}

// tryWith is a try statement whose handlers except runs.
func (rt *runtime) tryWith(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple, except func(*starlark.Thread, *starlark.Function, int, error) (starlark.Value, error)) (starlark.Value, error) {
	if len(args) != 2 || len(kwargs) > 0 {
		return nil, typeError("__ot_try takes 2 arguments")
	}
	parts, ok := args[0].(*starlark.Function) // trusted not to change partArgs
	spec, ok2 := args[1].(starlark.Int)
	n, ok3 := spec.Int64()
	if !ok || !ok2 || !ok3 {
		return nil, typeError("__ot_try takes a function and an int")
	}
	handlers, hasElse, hasFinal := int(n>>2), n&lowered.TryHasElse != 0, n&lowered.TryHasFinal != 0
	result, err := starlark.Call(thread, parts, partArgs[lowered.TryBody], nil)
	switch {
	case err != nil:
		if interp.BudgetOf(thread).Tripped() != nil {
			// The run must stop (the engine's cancellation reads as a
			// plain error): no handler, else or finally runs.
			return nil, err
		}
		if handlers > 0 && !uncatchable(err) {
			result, err = except(thread, parts, handlers, err)
		}
	case hasElse && result == starlark.None:
		// else runs when the body fell through: not after its return,
		// break or continue.
		result, err = starlark.Call(thread, parts, partArgs[lowered.TryElse], nil)
	}
	if hasFinal && !uncatchable(err) {
		r, ferr := starlark.Call(thread, parts, partArgs[lowered.TryFinally], nil)
		switch {
		case ferr != nil:
			return nil, ferr
		case r != starlark.None:
			// return, break or continue in finally wins, and drops an
			// exception on its way out, as in Python.
			return r, nil
		}
	}
	return result, err
}

// except runs the first of the n handlers of parts whose class matches
// the exception err stands for; err itself when none does.
func (rt *runtime) except(thread *starlark.Thread, parts *starlark.Function, n int, err error) (starlark.Value, error) {
	exc := rt.excValue(err)
	classes, cerr := rt.handlerClasses(thread, parts, n, exc)
	if cerr != nil {
		return nil, cerr
	}
	for i, class := range classes {
		match, merr := rt.matches(class, exc)
		if merr != nil {
			return nil, merr
		}
		if !match {
			continue
		}
		if cerr := caught(thread, exc, err); cerr != nil {
			return nil, cerr
		}
		if ee := innermostEval(err); ee != nil && exc.origin == nil {
			exc.origin = ee.CallStack
		}
		result, herr := handle(thread, parts, starlark.Tuple{starlark.MakeInt(lowered.TryHandler + i), exc.Value()}, exc)
		// An exception the handler raises has the handled one as its
		// context, as in Python.
		if herr != nil {
			if raised := asException(herr); raised != nil && raised.Value != nil && raised.Value != exc && raised.Value.context == nil {
				raised.Value.context = exc
			}
		}
		return result, herr
	}
	return nil, err
}

// handlerClasses are the classes of the n handlers of parts, looked up
// now that exc was raised.
func (rt *runtime) handlerClasses(thread *starlark.Thread, parts *starlark.Function, n int, exc *ExcValue) (starlark.Tuple, error) {
	cv, cerr := starlark.Call(thread, parts, partArgs[lowered.TryClasses], nil)
	if cerr != nil {
		// Looking up a handler's class failed: that error replaces the
		// exception, which is its context, as in Python.
		if raised := asException(cerr); raised != nil && raised.Value != nil && raised.Value != exc && raised.Value.context == nil {
			raised.Value.context = exc
		}
		return nil, cerr
	}
	classes := starlark.Tuple{cv} // one handler's class comes alone
	if n > 1 {
		var ok bool
		if classes, ok = cv.(starlark.Tuple); !ok || len(classes) != n {
			return nil, typeError("__ot_try: the handlers' classes are not a tuple of %d", n)
		}
	}
	return classes, nil
}

// asException is errors.As(err, &ex) for an *Exception, without making
// ex escape to the heap when the chain is a plain one (every exception
// caught goes through here).
func asException(err error) *Exception {
	for e := err; e != nil; {
		switch x := e.(type) {
		case *Exception:
			return x
		case interface{ Unwrap() error }:
			e = x.Unwrap()
		default:
			// An error of its own As, or wrapping several: the general
			// walk.
			var ex *Exception
			if errors.As(e, &ex) {
				return ex
			}
			return nil
		}
	}
	return nil
}

// plainMessage is str(e) when it needs no formatting: the one str
// argument of an exception that is not a KeyError and not an instance of
// a program's class (whose __str__ may say otherwise).
func (e *ExcValue) plainMessage() (string, bool) {
	if e.self != nil || e.text != "" || len(e.args) != 1 {
		return "", false
	}
	s, ok := e.args[0].(starlark.String)
	if !ok || keyErrorClass(e.class) != nil {
		return "", false
	}
	return string(s), true
}

// uncatchable reports whether err must not reach a handler: a spent
// budget, a cancellation, or a run that overran its deadline.
func uncatchable(err error) bool {
	return err != nil && (isBudget(err) || errors.Is(err, interp.ErrOverrun))
}

// matches reports whether exc is an instance of spec: a class, a tuple of
// classes, or None (a bare except).
func (rt *runtime) matches(spec starlark.Value, exc *ExcValue) (bool, error) {
	switch s := spec.(type) {
	case starlark.NoneType:
		return true, nil
	case *ExcClass:
		return exc.class.IsSubclass(s), nil
	case ExceptionType:
		if c := s.ExcClass(); c != nil {
			return exc.class.IsSubclass(c), nil
		}
	case starlark.Tuple:
		for _, c := range s {
			ok, err := rt.matches(c, exc)
			if ok || err != nil {
				return ok, err
			}
		}
		return false, nil
	}
	return false, typeError("catching classes that do not inherit from BaseException is not allowed")
}

// excInstance is the exception instance a raise (or a generator's
// throw, or a future's set_exception) of x raises: x itself, or x called
// with args when it is a class; nil when x is neither.
func excInstance(thread *starlark.Thread, x starlark.Value, args starlark.Tuple) (*ExcValue, error) {
	switch x := x.(type) {
	case *ExcValue:
		return x, nil
	case *ExcClass:
		return &ExcValue{class: x, args: args}, nil
	case Raisable:
		return x.Exception(), nil
	case ExceptionType:
		if x.ExcClass() == nil {
			return nil, nil
		}
		v, err := starlark.Call(thread, x, args, nil)
		if err != nil {
			return nil, err
		}
		if r, ok := v.(Raisable); ok {
			return r.Exception(), nil
		}
	}
	return nil, nil
}

// RaiseValue is the error that raises x, an exception instance or class
// (for Go code that takes one from a program: Future.set_exception).
func RaiseValue(thread *starlark.Thread, x starlark.Value) error {
	exc, err := excInstance(thread, x, nil)
	if err != nil {
		return err
	}
	if exc == nil {
		return typeError("exceptions must derive from BaseException")
	}
	return exc.raised(thread)
}

// raise is __ot_raise(exc[, cause]): exc an instance or a class (called
// with no arguments); a cause is kept for __cause__.
func (rt *runtime) raise(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 || args[0] == starlark.None {
		return nil, exception("RuntimeError", "No active exception to reraise")
	}
	exc, err := excInstance(thread, args[0], nil)
	if err != nil {
		return nil, err
	}
	if exc == nil {
		return nil, typeError("exceptions must derive from BaseException")
	}
	if len(args) > 1 {
		exc.suppress = true // raise … from …: the context is not shown
	}
	if len(args) > 1 && args[1] != starlark.None {
		c := args[1]
		if cls, ok := c.(*ExcClass); ok {
			c = &ExcValue{class: cls}
		}
		if r, ok := c.(Raisable); ok && r.Exception() != nil {
			c = r.Exception()
		}
		if _, ok := c.(*ExcValue); !ok {
			return nil, typeError("exception causes must derive from BaseException")
		}
		exc.cause = c
	}
	return nil, exc.raised(thread)
}

// exit is exit(code=None) and quit(code=None): they raise SystemExit, as
// in Python. Nothing catching it, a code of None or 0 ends the run as if
// it had reached its end (Exception.CleanExit).
func (rt *runtime) exit(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code starlark.Value = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "code?", &code); err != nil {
		return nil, err
	}
	exc := &ExcValue{class: rt.classes["SystemExit"]}
	if code != starlark.None {
		exc.args = starlark.Tuple{code}
	}
	return nil, exc.raised(thread)
}

// assertFailed is __ot_assert(msg): the failure of `assert test, msg`
// (msg None when the statement has none).
func (rt *runtime) assertFailed(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	exc := &ExcValue{class: rt.classes["AssertionError"]}
	if len(args) > 0 && args[0] != starlark.None {
		exc.args = starlark.Tuple{args[0]}
	}
	return nil, exc.raised(thread)
}

// excValue is the exception instance that err stands for: the one a
// program raised, one of the class a builtin named, or the Python class of
// an error of the interpreter, a tool or a pack.
func (rt *runtime) excValue(err error) *ExcValue {
	if ex := asException(err); ex != nil {
		if ex.Value != nil {
			return ex.Value
		}
		e := rt.instance(ex.Class, ex.Msg)
		e.attrs = ex.Attrs
		return e
	}
	var classed interface{ PythonClass() string }
	if errors.As(err, &classed) {
		class := classed.PythonClass()
		return rt.instance(class, strings.TrimPrefix(message(err), class+": "))
	}
	msg := message(err)
	class, text := classify(msg)
	return rt.instance(class, text)
}

func (rt *runtime) instance(class, msg string) *ExcValue {
	c := rt.classes[class]
	if c == nil {
		c = rt.classes["RuntimeError"]
	}
	e := &ExcValue{class: c}
	if msg != "" || class != "StopIteration" {
		e.args = starlark.Tuple{interp.MakeString(msg)}
	}
	if class == "KeyError" {
		e.text = msg // already the repr of the key
		if k := keyOfRepr(msg); k != nil {
			e.args = starlark.Tuple{k}
		}
	}
	return e
}

// keyOfRepr reads back the key of a KeyError from its repr when it is a
// str, an int or a tuple of literals (what a program mostly looks up), so that e.args[0] is the
// key, as in Python; nil for anything else.
func keyOfRepr(r string) starlark.Value {
	if n, err := strconv.ParseInt(r, 10, 64); err == nil {
		return starlark.MakeInt64(n)
	}
	if len(r) >= 2 && r[0] == '(' && r[len(r)-1] == ')' {
		// A tuple of literals (grid[(2, 3)]) is read back as the
		// Starlark expression its repr also is; anything else (a
		// datetime inside, a float('inf')) names what is not defined.
		v, err := starlark.Eval(&starlark.Thread{Name: "key"}, "key", r, nil)
		if _, ok := v.(starlark.Tuple); ok && err == nil {
			return v
		}
		return nil
	}
	if len(r) >= 2 && (r[0] == '\'' || r[0] == '"') && r[len(r)-1] == r[0] {
		// Python's repr escapes as Go's quoting does for the common cases;
		// a quote of the other kind inside stays as it is.
		body := r[1 : len(r)-1]
		if r[0] == '\'' {
			body = strings.ReplaceAll(strings.ReplaceAll(body, "\\'", "'"), `"`, `\"`)
		}
		if u, err := strconv.Unquote(`"` + body + `"`); err == nil {
			return interp.MakeString(u)
		}
	}
	return nil
}

// message is the text of an error as the program should see it: the
// innermost evaluation error's message, without the interpreter's
// backtrace.
func message(err error) string {
	var ee *starlark.EvalError
	for errors.As(err, &ee) {
		next := errors.Unwrap(ee)
		var inner *starlark.EvalError
		if next == nil || !errors.As(next, &inner) {
			return ee.Msg
		}
		err = next
	}
	return err.Error()
}

// engineError maps the interpreter's messages that re matches to a Python
// class and, where Python words them otherwise, Python's text.
type engineError struct {
	re    *regexp.Regexp
	class string
	text  func(m []string) string
}

// engineErrors are compiled on the first error a program meets, not when
// the binary starts: about 300 KB and 2 ms of start-up that a server
// answering its first request would otherwise pay (issue 20).
var engineErrors = sync.OnceValue(func() []engineError {
	return []engineError{
		{regexp.MustCompile(`(floored division|integer modulo|floating-point division|floating-point modulo|float division|float floor division|division) by zero$`), "ZeroDivisionError", func(m []string) string {
			switch m[1] {
			case "float division", "float floor division":
				return m[0]
			case "floored division":
				return "integer division or modulo by zero"
			case "floating-point division":
				return "division by zero" // 1 / 0 reads so in Python; 1.0 / 0 goes through __ot_div
			case "floating-point modulo":
				return "float modulo"
			}
			return m[1] + " by zero"
		}},
		{regexp.MustCompile(`^key (.*) not in (dict|set|OrderedDict)$`), "KeyError", func(m []string) string { return pyKey(m[1]) }},
		// A name read before the statement that assigns it has run.
		{regexp.MustCompile(`^global variable (\w+) referenced before assignment$`), "NameError", func(m []string) string {
			return "name '" + m[1] + "' is not defined"
		}},
		{regexp.MustCompile(`^local variable (\w+) referenced before assignment$`), "UnboundLocalError", func(m []string) string {
			return "cannot access local variable '" + m[1] + "' where it is not associated with a value"
		}},
		{regexp.MustCompile(`^(list|string|tuple|range|bytes) index -?\d+ out of range`), "IndexError", func(m []string) string {
			switch m[1] {
			case "string":
				return "string index out of range"
			case "bytes":
				return "index out of range"
			}
			return starlarkTypeName(m[1]) + " index out of range"
		}},
		{regexp.MustCompile(`^index -?\d+ out of range: empty (list|string|tuple|range|bytes)$`), "IndexError", func(m []string) string {
			switch m[1] {
			case "range":
				return "range object index out of range"
			case "bytes":
				return "index out of range"
			case "string":
				return "string index out of range"
			}
			return starlarkTypeName(m[1]) + " index out of range"
		}},
		{regexp.MustCompile(`deque index -?\d+ out of range`), "IndexError", func([]string) string { return "deque index out of range" }},
		// calendar.month_name and day_name index a list of their own.
		{regexp.MustCompile(`_localized_(month|day) index -?\d+ out of range`), "IndexError", func([]string) string { return "list index out of range" }},
		{regexp.MustCompile(`index -?\d+ out of range`), "IndexError", nil},
		{regexp.MustCompile(`^([\w.]+) has no \.(\w+) field or method`), "AttributeError", func(m []string) string {
			return "'" + starlarkTypeName(m[1]) + "' object has no attribute '" + m[2] + "'"
		}},
		{regexp.MustCompile(`^unknown binary op: ([\w.]+) (not in|\S+) ([\w.]+)$`), "TypeError", func(m []string) string {
			return binaryOpError(m[2], starlarkTypeName(m[1]), starlarkTypeName(m[3]))
		}},
		{regexp.MustCompile(`^unknown unary op: (\S+) ([\w.]+)$`), "TypeError", func(m []string) string {
			return fmt.Sprintf("bad operand type for unary %s: '%s'", m[1], starlarkTypeName(m[2]))
		}},
		{regexp.MustCompile(`^([\w.]+) (<|<=|>|>=) ([\w.]+) not implemented$`), "TypeError", func(m []string) string {
			return fmt.Sprintf("'%s' not supported between instances of '%s' and '%s'", m[2], starlarkTypeName(m[1]), starlarkTypeName(m[3]))
		}},
		{regexp.MustCompile(`^len: value of type ([\w.]+) has no len$`), "TypeError", func(m []string) string {
			return fmt.Sprintf("object of type '%s' has no len()", starlarkTypeName(m[1]))
		}},
		{regexp.MustCompile(`^unhandled index operation ([\w.]+)\[`), "TypeError", func(m []string) string {
			return fmt.Sprintf("'%s' object is not subscriptable", starlarkTypeName(m[1]))
		}},
		{regexp.MustCompile(`invalid slice operand ([\w.]+)$`), "TypeError", func(m []string) string {
			switch m[1] {
			case "deque":
				return "sequence index must be integer, not 'slice'"
			case "dict", "Counter", "defaultdict", "OrderedDict":
				return "unhashable type: 'slice'"
			}
			return fmt.Sprintf("'%s' object is not subscriptable", starlarkTypeName(m[1]))
		}},
		{regexp.MustCompile(`^invalid call of non-function \(([\w.]+)\)$`), "TypeError", func(m []string) string {
			return fmt.Sprintf("'%s' object is not callable", starlarkTypeName(m[1]))
		}},
		{regexp.MustCompile(`^([\w.]+) value is not iterable$`), "TypeError", func(m []string) string {
			return fmt.Sprintf("'%s' object is not iterable", starlarkTypeName(m[1]))
		}},
		{regexp.MustCompile(`unhashable type: ([\w.]+)$`), "TypeError", func(m []string) string {
			return fmt.Sprintf("unhashable type: '%s'", starlarkTypeName(m[1]))
		}},
		{regexp.MustCompile(`^got (\w+) in sequence assignment$`), "TypeError", func(m []string) string {
			return fmt.Sprintf("cannot unpack non-iterable %s object", starlarkTypeName(m[1]))
		}},
		{regexp.MustCompile(`^too many values to unpack \(got \d+, want (\d+)\)$`), "ValueError", func(m []string) string {
			return "too many values to unpack (expected " + m[1] + ")"
		}},
		{regexp.MustCompile(`^too few values to unpack \(got (\d+), want (\d+)\)$`), "ValueError", func(m []string) string {
			return "not enough values to unpack (expected " + m[2] + ", got " + m[1] + ")"
		}},
		{regexp.MustCompile(`^byte must be in range\(0, 256\)$`), "ValueError", nil},
		{regexp.MustCompile(`^a bytes-like object is required, not '\w+'$`), "TypeError", nil},
		{regexp.MustCompile(`^invalid float literal: (.*)$`), "ValueError", func(m []string) string {
			return "could not convert string to float: " + interp.QuoteString(m[1])
		}},
		{regexp.MustCompile(`invalid literal|could not convert|invalid syntax for|empty separator|not in list|substring not found|too many values to unpack|too few values to unpack|got \d+ values?, want \d+`), "ValueError", nil},
		{regexp.MustCompile(`^(recursion too deep|Starlark stack overflow)`), "RecursionError", func([]string) string {
			return "maximum recursion depth exceeded" // CPython's text, for a program that catches it
		}},
		{regexp.MustCompile(`nested more than \d+ levels`), "RecursionError", nil},
		{regexp.MustCompile(`^(list|string|tuple|bytes|range) index: got ([\w.]+), want int$`), "TypeError", func(m []string) string {
			t := starlarkTypeName(m[2])
			switch m[1] {
			case "string":
				return fmt.Sprintf("string indices must be integers, not '%s'", t)
			case "bytes":
				return fmt.Sprintf("byte indices must be integers or slices, not %s", t)
			}
			return fmt.Sprintf("%s indices must be integers or slices, not %s", m[1], t)
		}},
		{regexp.MustCompile(`^int too large to convert to float$`), "OverflowError", nil},
		{regexp.MustCompile(`^invalid (start index|end index|slice step): got \w+, want int$`), "TypeError", func([]string) string {
			return "slice indices must be integers or None or have an __index__ method"
		}},
		{regexp.MustCompile(`^zero is not a valid slice step$`), "ValueError", func([]string) string { return "slice step cannot be zero" }},
		{regexp.MustCompile(`^([\w.]+) value does not support item assignment$`), "TypeError", func(m []string) string {
			return fmt.Sprintf("'%s' object does not support item assignment", starlarkTypeName(m[1]))
		}},
		{regexp.MustCompile(`^negative shift count`), "ValueError", func([]string) string { return "negative shift count" }},
		// The calls of a program's functions, in CPython's words.
		{regexp.MustCompile(`^function (\S+) accepts no arguments \((\d+) given\)$`), "TypeError", func(m []string) string {
			return fmt.Sprintf("%s() takes 0 positional arguments but %s %s given", funcName(m[1]), m[2], wasWere(m[2]))
		}},
		{regexp.MustCompile(`^function (\S+) accepts (at most )?(\d+) positional arguments? \((\d+) given\)$`), "TypeError", func(m []string) string {
			plural := "s"
			if m[3] == "1" {
				plural = ""
			}
			// With defaults CPython says "from 1 to 2": the least is not
			// in the interpreter's message.
			return fmt.Sprintf("%s() takes %s%s positional argument%s but %s %s given", funcName(m[1]), m[2], m[3], plural, m[4], wasWere(m[4]))
		}},
		{regexp.MustCompile(`^function (\S+) got an unexpected keyword argument "([^"]*)"`), "TypeError", func(m []string) string {
			return fmt.Sprintf("%s() got an unexpected keyword argument '%s'", funcName(m[1]), m[2])
		}},
		{regexp.MustCompile(`^function (\S+) got multiple values for parameter "([^"]*)"$`), "TypeError", func(m []string) string {
			return fmt.Sprintf("%s() got multiple values for argument '%s'", funcName(m[1]), m[2])
		}},
		{regexp.MustCompile(`^function (\S+) missing (\d+) arguments? \((.*)\)$`), "TypeError", func(m []string) string {
			return missingArgs(funcName(m[1]), "positional", strings.Split(m[3], ", "))
		}},
		// The argument errors of the builtins that unpack their arguments
		// as the interpreter does, in CPython's words for such functions.
		{regexp.MustCompile(`^(\w+): got (\d+) arguments?, want (at least |at most )?(\d+)$`), "TypeError", func(m []string) string {
			return fmt.Sprintf("%s expected %s%s %s, got %s", m[1], m[3], m[4], plural(atoi(m[4]), "argument"), m[2])
		}},
		{regexp.MustCompile(`^(\w+): unexpected keyword argument "(\w+)"$`), "TypeError", func(m []string) string {
			fn := m[1]
			if fn == "sorted" {
				fn = "sort" // CPython's sorted names list.sort, which it calls
			}
			return fmt.Sprintf("'%s' is an invalid keyword argument for %s()", m[2], fn)
		}},
		{regexp.MustCompile(`^(\w+): missing argument for (\w+)$`), "TypeError", func(m []string) string {
			if m[1] == "sorted" {
				return "sorted expected 1 argument, got 0" // its iterable is positional only
			}
			return fmt.Sprintf("%s() missing required argument '%s'", m[1], m[2])
		}},
		{regexp.MustCompile(`^join: in list, want string, got (\w+)$`), "TypeError", func(m []string) string {
			// ", ".join taken as a value is Starlark's join.
			return fmt.Sprintf("sequence item: expected str instance, %s found", starlarkTypeName(m[1]))
		}},
		{regexp.MustCompile(`unknown binary op|unsupported|not iterable|not callable|unhashable|got .*, want|want \w+, got|takes (exactly|at most|at least|no)|missing (\d+ )?(argument|required)|unexpected keyword|not supported|requires|must be|can't|cannot|not implemented|invalid .*argument|for parameter`), "TypeError", nil},
	}
})

// Explain phrases an error of the interpreter as CPython reports an
// uncaught exception, "KeyError: 'k'", when its message maps to one of the
// classes a program most often meets (see engineErrors). Division by zero
// and the recursion and nesting limits keep the plain texts SPEC §2.5
// shows; raised exceptions and errors that name their class (tool
// failures) are left as they are. It is interp.Options.Explain.
func Explain(err error, msg string) string {
	var ex *Exception
	var classed interface{ PythonClass() string }
	if errors.As(err, &ex) || errors.As(err, &classed) {
		return msg
	}
	class, text := classify(msg)
	switch {
	case strings.HasPrefix(msg, class+":"):
	case class == "KeyError", class == "IndexError", class == "AttributeError", class == "OverflowError",
		class == "NameError", class == "UnboundLocalError",
		class == "TypeError" && (text != msg || plainTypeError().MatchString(msg)),
		class == "ValueError" && text != msg:
		return class + ": " + text
	}
	return msg
}

// plainTypeError are the interpreter's messages that are surely a
// TypeError in Python too, besides those engineErrors rephrase (the rest
// of its TypeErrors are guesses good enough for except, not for naming
// the class).
var plainTypeError = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(unsupported|.* not iterable|.* not callable|unhashable|can't concat)`)
})

// classify maps an interpreter message to its Python class and text.
func classify(msg string) (class, text string) {
	// "get: TypeError: unhashable type: 'P'": the interpreter's builtin
	// method named, before an exception a value of the program raised
	// (its __hash__) in the form Error gives it.
	if method, rest, ok := strings.Cut(msg, ": "); ok && isIdentifier(method) {
		if cls, text, ok := strings.Cut(rest, ": "); ok && BuiltinClass(cls) != nil {
			return cls, text
		}
	}
	for _, e := range engineErrors() {
		if m := e.re.FindStringSubmatch(msg); m != nil {
			if e.text != nil {
				return e.class, e.text(m)
			}
			return e.class, msg
		}
	}
	return "RuntimeError", msg
}

// binaryOpError is CPython's TypeError text for l op r, operands of the
// Python types l and r that do not combine.
func binaryOpError(op, l, r string) string {
	seq := func(t string) bool { return t == "str" || t == "list" || t == "tuple" || t == "bytes" }
	switch op {
	case "in", "not in":
		return fmt.Sprintf("argument of type '%s' is not iterable", r)
	case "+":
		if l == "str" || l == "list" || l == "tuple" {
			return fmt.Sprintf("can only concatenate %s (not \"%s\") to %s", l, r, l)
		}
	case "*":
		switch {
		case seq(l) && r != "int" && r != "bool":
			return fmt.Sprintf("can't multiply sequence by non-int of type '%s'", r)
		case seq(r) && l != "int" && l != "bool":
			return fmt.Sprintf("can't multiply sequence by non-int of type '%s'", l)
		}
	case "**":
		op = "** or pow()"
	}
	return fmt.Sprintf("unsupported operand type(s) for %s: '%s' and '%s'", op, l, r)
}

// funcName is Python's name of a function the interpreter names: a
// lambda is "<lambda>".
func funcName(name string) string {
	if name == "lambda" {
		return "<lambda>"
	}
	return name
}

// missingArgs is CPython's TypeError text for a call of fn without the
// parameters names, of kind "positional" or "keyword-only".
func missingArgs(fn, kind string, names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "'" + n + "'"
	}
	var list string
	switch len(quoted) {
	case 1:
		list = quoted[0]
	case 2:
		list = quoted[0] + " and " + quoted[1]
	default:
		list = strings.Join(quoted[:len(quoted)-1], ", ") + ", and " + quoted[len(quoted)-1]
	}
	plural := "s"
	if len(quoted) == 1 {
		plural = ""
	}
	return fmt.Sprintf("%s() missing %d required %s argument%s: %s", fn, len(quoted), kind, plural, list)
}

// atoi is the number a regular expression matched as digits.
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// wasWere is the verb of "1 was given", "2 were given".
func wasWere(n string) string {
	if n == "1" {
		return "was"
	}
	return "were"
}

// pyKey turns the interpreter's text of a key ("x" quoted as Starlark
// quotes it) into Python's repr, the text of a KeyError.
func pyKey(s string) string {
	if strings.IndexByte(s, '"') < 0 {
		return s
	}
	// The interpreter shows the key as Starlark does, its str with
	// double quotes also inside a tuple: ("a", 1) is Python's ('a', 1).
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '"' {
			b.WriteByte(s[i])
			i++
			continue
		}
		end := i + 1
		for end < len(s) && s[end] != '"' {
			if s[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(s) {
			return s
		}
		u, err := strconv.Unquote(s[i : end+1])
		if err != nil {
			return s
		}
		if prev := b.String(); strings.HasSuffix(prev, "b") && (len(prev) == 1 || strings.ContainsRune("(, [{", rune(prev[len(prev)-2]))) {
			b.Reset()
			b.WriteString(prev[:len(prev)-1])
			b.WriteString(interp.QuoteBytes(u))
		} else {
			b.WriteString(interp.QuoteString(u))
		}
		i = end + 1
	}
	return b.String()
}

// starlarkTypeName is Python's name for one of the interpreter's type names.
func starlarkTypeName(t string) string {
	if t == "string" {
		return "str" // the one Starlark type name Python spells otherwise
	}
	return t
}

// isIdentifier reports a name of letters, digits and underscores.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
