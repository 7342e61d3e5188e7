package pyrt

import (
	"fmt"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/lowered"
)

// Exception groups (PEP 654): BaseExceptionGroup and ExceptionGroup,
// whose instances hold a message and a tuple of exceptions (args is
// (message, exceptions)), and the except* clauses that take them apart.

func isGroupClass(c *ExcClass) bool {
	for k := c; k != nil; k = k.base {
		if k.builtin && k.name == "BaseExceptionGroup" {
			return true
		}
	}
	return false
}

// IsGroup reports an exception group.
func (e *ExcValue) IsGroup() bool { return isGroupClass(e.class) }

// newGroup is BaseExceptionGroup(message, exceptions) or a subclass's:
// an ExceptionGroup when every exception is an Exception, as CPython
// makes it.
func newGroup(thread *starlark.Thread, c *ExcClass, args starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 {
		return nil, typeError("BaseExceptionGroup.__new__() takes exactly 2 arguments (%d given)", len(args))
	}
	msg, ok := args[0].(starlark.String)
	if !ok {
		return nil, typeError("argument 1 must be str, not %s", pyTypeName(args[0]))
	}
	seq, ok := args[1].(starlark.Indexable)
	if !ok {
		return nil, typeError("second argument (exceptions) must be a sequence")
	}
	if seq.Len() == 0 {
		return nil, valueError("second argument (exceptions) must be a non-empty sequence")
	}
	if err := interp.BudgetOf(thread).Alloc(int64(seq.Len()) * 16); err != nil {
		return nil, err
	}
	excs := make(starlark.Tuple, seq.Len()) // exceptions; args keeps seq as given
	allExceptions := true
	for i := range excs {
		x := seq.Index(i)
		v := excOfValue(x)
		if v == nil {
			return nil, valueError("Item %d of second argument (exceptions) is not an exception", i)
		}
		if !v.class.IsSubclass(BuiltinClass("Exception")) {
			allExceptions = false
		}
		excs[i] = x
	}
	if c.builtin && c.name == "BaseExceptionGroup" && allExceptions {
		c = BuiltinClass("ExceptionGroup")
	}
	if !allExceptions && c.IsSubclass(BuiltinClass("Exception")) {
		return nil, typeError("Cannot nest BaseExceptions in an ExceptionGroup")
	}
	return &ExcValue{class: c, args: starlark.Tuple{msg, args[1]}, attrs: starlark.StringDict{"exceptions": excs}}, nil
}

// excOfValue is the exception state of x, an exception instance or a
// program's exception object; nil for anything else.
func excOfValue(x starlark.Value) *ExcValue {
	switch v := x.(type) {
	case *ExcValue:
		return v
	case Raisable:
		return v.Exception()
	}
	return nil
}

// groupMembers are a group's exceptions.
func (e *ExcValue) groupMembers() starlark.Tuple {
	t, _ := e.attrs["exceptions"].(starlark.Tuple)
	return t
}

func (e *ExcValue) writeGroup(w *interp.TextWriter, str bool, depth int) error {
	msg, _ := e.args[0].(starlark.String)
	n := len(e.groupMembers())
	if str {
		s := ""
		if n != 1 {
			s = "s"
		}
		return w.WriteString(fmt.Sprintf("%s (%d sub-exception%s)", string(msg), n, s))
	}
	if err := w.WriteString(e.class.name + "("); err != nil {
		return err
	}
	if err := w.Nested(e.args[0], depth+1); err != nil {
		return err
	}
	if err := w.WriteString(", "); err != nil {
		return err
	}
	if err := w.Nested(e.args[1], depth+1); err != nil {
		return err
	}
	return w.WriteString(")")
}

// groupAttr is the attributes of a group: message, exceptions, and the
// methods subgroup, split and derive.
func (e *ExcValue) groupAttr(rt *runtime, name string) starlark.Value {
	if !e.IsGroup() || len(e.args) != 2 {
		return nil
	}
	switch name {
	case "message":
		return e.args[0]
	case "exceptions":
		return e.groupMembers()
	case "derive":
		return interp.NewBuiltin("derive", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 1 {
				return nil, typeError("derive() takes exactly one argument")
			}
			return newGroup(thread, e.class, starlark.Tuple{e.args[0], args[0]})
		})
	case "subgroup", "split":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 1 {
				return nil, typeError("%s() takes exactly one argument", name)
			}
			match, rest, err := e.split(thread, rt, args[0], 0)
			if err != nil {
				return nil, err
			}
			if name == "subgroup" {
				return valueOrNone(match), nil
			}
			return starlark.Tuple{valueOrNone(match), valueOrNone(rest)}, nil
		})
	}
	return nil
}

func valueOrNone(e *ExcValue) starlark.Value {
	if e == nil {
		return starlark.None
	}
	return e.Value()
}

// split divides a group by cond (a class, a tuple of classes, or a
// predicate): the group of what matches, and of the rest, each nil when
// empty, keeping the nesting, message, cause, context and notes.
func (e *ExcValue) split(thread *starlark.Thread, rt *runtime, cond starlark.Value, depth int) (match, rest *ExcValue, err error) {
	if depth > maxGroupDepth {
		// Groups nested in a loop a million deep would grow the Go
		// stack without bound: CPython's recursion limit stops them too.
		return nil, nil, exception("RecursionError", "maximum recursion depth exceeded while splitting an exception group")
	}
	if err := interp.BudgetOf(thread).Charge(1); err != nil {
		return nil, nil, err
	}
	test := func(x *ExcValue) (bool, error) {
		switch cond.(type) {
		case *ExcClass, starlark.Tuple, ExceptionType:
			return rt.matches(cond, x)
		}
		if fn, ok := cond.(starlark.Callable); ok {
			r, err := starlark.Call(thread, fn, starlark.Tuple{x.Value()}, nil)
			if err != nil {
				return false, err
			}
			return bool(r.Truth()), nil
		}
		return false, typeError("expected a function, exception type or tuple of exception types")
	}
	if ok, err := test(e); err != nil || ok {
		return e, nil, err
	}
	var ms, rs []starlark.Value
	for _, x := range e.groupMembers() {
		sub := excOfValue(x)
		if sub == nil {
			continue
		}
		if sub.IsGroup() {
			m, r, err := sub.split(thread, rt, cond, depth+1)
			if err != nil {
				return nil, nil, err
			}
			if m != nil {
				ms = append(ms, m.Value())
			}
			if r != nil {
				rs = append(rs, r.Value())
			}
			continue
		}
		ok, err := test(sub)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			ms = append(ms, x)
		} else {
			rs = append(rs, x)
		}
	}
	switch {
	case len(rs) == 0 && !modified(ms, e.groupMembers()):
		return e, nil, nil // all of it, as it is
	case len(ms) == 0 && !modified(rs, e.groupMembers()):
		return nil, e, nil
	}
	return e.derived(thread, ms), e.derived(thread, rs), nil
}

// maxGroupDepth is how deep split follows groups nested in groups.
const maxGroupDepth = 1000

// modified reports whether split made parts differ from the members.
func modified(parts []starlark.Value, members starlark.Tuple) bool {
	if len(parts) != len(members) {
		return true
	}
	for i := range parts {
		if parts[i] != members[i] {
			return true
		}
	}
	return false
}

// derived is a group like e of excs, nil when there are none.
func (e *ExcValue) derived(thread *starlark.Thread, excs []starlark.Value) *ExcValue {
	if len(excs) == 0 {
		return nil
	}
	v, err := newGroup(thread, e.class, starlark.Tuple{e.args[0], starlark.NewList(excs)})
	if err != nil {
		return nil
	}
	d := v.(*ExcValue)
	d.cause, d.context, d.suppress, d.notes, d.frames = e.cause, e.context, e.suppress, e.notes, e.frames
	return d
}

// NewExceptionGroup is ExceptionGroup(msg, excs) (BaseExceptionGroup if
// any is not an Exception), for Go code (asyncio.TaskGroup): excs as a
// list, or as a tuple (the group except* wraps a lone exception in).
func NewExceptionGroup(msg string, excs []*ExcValue, tuple bool) *ExcValue {
	return newExceptionGroup(nil, msg, excs, tuple)
}

func newExceptionGroup(thread *starlark.Thread, msg string, excs []*ExcValue, tuple bool) *ExcValue {
	vals := make([]starlark.Value, len(excs))
	for i, x := range excs {
		vals[i] = x.Value()
	}
	var seq starlark.Value = starlark.NewList(vals)
	if tuple {
		seq = starlark.Tuple(vals)
	}
	v, err := newGroup(thread, BuiltinClass("BaseExceptionGroup"), starlark.Tuple{starlark.String(msg), seq})
	if err != nil {
		return nil
	}
	return v.(*ExcValue)
}

// trystar is __ot_trystar(parts, spec): a try statement whose handlers
// are except* clauses. The exception (wrapped in a group when it is not
// one) is split by each handler's class in turn; each handler runs once
// with the group of what it matched; what no handler matched is raised
// again, with what the handlers raised, as a group.
func (rt *runtime) trystar(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return rt.tryWith(thread, args, kwargs, rt.exceptStar)
}

func (rt *runtime) exceptStar(thread *starlark.Thread, parts *starlark.Function, n int, err error) (starlark.Value, error) {
	exc := rt.excValue(err)
	classes, cerr := rt.handlerClasses(thread, parts, n, exc)
	if cerr != nil {
		return nil, cerr
	}
	naked := !exc.IsGroup()
	rest := exc
	if naked {
		rest = NewExceptionGroup("", []*ExcValue{exc}, true)
	}
	var raised []*ExcValue
	reraised := false
	for i, class := range classes {
		if rest == nil {
			break
		}
		if c, ok := class.(*ExcClass); ok && isGroupClass(c) {
			return nil, typeError("catching ExceptionGroup with except* is not allowed. Use except instead.")
		}
		match, r, serr := rest.split(thread, rt, class, 0)
		if serr != nil {
			return nil, serr
		}
		if match == nil {
			continue
		}
		rest = r
		if cerr := caught(thread, match, err); cerr != nil {
			return nil, cerr
		}
		_, herr := handle(thread, parts, starlark.Tuple{starlark.MakeInt(lowered.TryHandler + i), match.Value()}, match)
		if herr != nil {
			if uncatchable(herr) {
				return nil, herr
			}
			hx := rt.excValue(herr)
			if hx == match {
				reraised = true
				raised = append(raised, match)
				continue
			}
			if hx.context == nil && hx != exc {
				hx.context = match
			}
			raised = append(raised, hx)
		}
	}
	switch {
	case len(raised) == 0 && rest == nil:
		return starlark.None, nil
	case len(raised) == 0:
		if naked || len(rest.groupMembers()) == len(exc.groupMembers()) && rest.args[0] == exc.args[0] {
			return nil, err // nothing was handled: the exception as it was
		}
		return nil, rest.Error()
	}
	if naked && rest != nil {
		raised = append(raised, exc)
	} else if rest != nil {
		raised = append(raised, rest)
	}
	if reraised && len(raised) == 1 {
		return nil, raised[0].Error()
	}
	return nil, NewExceptionGroup("", raised, false).Error()
}
