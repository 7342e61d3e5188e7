package pyrt

import (
	"errors"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/lowered"
)

// Method calls of the names loweredMethod lists are routed here: the
// helper __ot_<name> receives the receiver first and calls the
// implementation for its kind (text, list, dict, set, bytes, tuple); a receiver
// of another kind, or a kind with no implementation of that name, has its
// own attribute called, so list.append, a struct's field called format and
// any other value's methods keep working.

// receiverKind is the kind of value a method implementation serves.
type receiverKind int

const (
	kindOther receiverKind = iota
	kindText               // starlark.String or *interp.Unicode
	kindList
	kindDict
	kindSet
	kindBytes
	kindTuple
	kindInt
	kindByteArray
	kindFloat
)

func kindOf(v starlark.Value) receiverKind {
	switch v.(type) {
	case starlark.String, *interp.Unicode:
		return kindText
	case *starlark.List:
		return kindList
	case *starlark.Dict:
		return kindDict
	case *starlark.Set:
		return kindSet
	case interp.Bytes, starlark.Bytes:
		return kindBytes
	case starlark.Tuple:
		return kindTuple
	case starlark.Int, starlark.Bool:
		return kindInt
	case *interp.ByteArray:
		return kindByteArray
	case starlark.Float:
		return kindFloat
	}
	return kindOther
}

// methodImpl implements one method for one kind of receiver.
type methodImpl func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

// methodSet holds the implementations by name and kind of receiver.
type methodSet map[string]map[receiverKind]methodImpl

func (ms methodSet) add(kind receiverKind, name string, impl methodImpl) {
	if ms[name] == nil {
		ms[name] = map[receiverKind]methodImpl{}
	}
	ms[name][kind] = impl
}

// textMethod adapts a method of text, which works on the receiver's text.
func textMethod(fn methodFunc) methodImpl {
	return func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		s, _ := interp.AsText(recv)
		return fn(interp.BudgetOf(thread), s, args, kwargs)
	}
}

type methodFunc func(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

// growthMethod calls the receiver's own method after refusing an argument
// whose length alone would exceed the memory budget at growth bytes per
// element: go.starlark.net grows a list or set by a whole iterable inside
// one call (list.extend(range(10**9))).
func growthMethod(name string, growth int64) methodImpl {
	return func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		b := interp.BudgetOf(thread)
		for _, a := range args {
			if n := lenHint(a); n > 0 {
				if err := b.Alloc(int64(n) * growth); err != nil {
					return nil, err
				}
			}
		}
		return callOwn(thread, recv, name, args, kwargs)
	}
}

// callOwn calls the receiver's own method.
func callOwn(thread *starlark.Thread, recv starlark.Value, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, ok := recv.(starlark.HasAttrs)
	var method starlark.Value
	if ok {
		var err error
		if method, err = x.Attr(name); err != nil {
			return nil, err
		}
	}
	if method == nil {
		return nil, exception("AttributeError", "'%s' object has no attribute '%s'", pyTypeName(recv), name)
	}
	return starlark.Call(thread, method, args, kwargs)
}

// methodHelpers makes the builtin __ot_<name> for every name of ms.
func (ms methodSet) helpers() starlark.StringDict {
	d := starlark.StringDict{}
	for name, impls := range ms {
		d["__ot_"+name] = interp.NewBuiltin("__ot_"+name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return nil, typeError("%s needs a receiver", name)
			}
			recv := args[0]
			impl := impls[kindOf(recv)]
			if impl == nil {
				return callOwn(thread, recv, name, args[1:], kwargs)
			}
			v, err := impl(thread, recv, args[1:], kwargs)
			if err != nil && !isBudget(err) {
				return nil, methodError(name, err)
			}
			return v, err
		})
	}
	return d
}

// getMethod is __ot_getmethod(x, name), x.name read as a value: the
// implementation of name for x's kind bound to x, else x's own
// attribute (a struct's field, a module's function).
func (ms methodSet) getMethod() *starlark.Builtin {
	return interp.NewBuiltin(lowered.GetMethod, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		recv := args[0]
		name, _ := interp.AsText(args[1])
		if impl := ms[name][kindOf(recv)]; impl != nil {
			// Bound as go.starlark.net binds its own methods, so that the
			// memory meter sees the receiver the method holds.
			return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, a starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
				v, err := impl(thread, b.Receiver(), a, kw)
				if err != nil && !isBudget(err) {
					return nil, methodError(name, err)
				}
				return v, err
			}).BindReceiver(recv), nil
		}
		v, err := attrOf(recv, name)
		if err != nil || v != nil {
			return v, err
		}
		return nil, exception("AttributeError", "'%s' object has no attribute '%s'", pyTypeName(recv), name)
	})
}

// methodError leaves an Exception as it is (its text is CPython's) and
// prefixes anything else with the method's name, as Starlark does.
func methodError(name string, err error) error {
	if _, ok := err.(*Exception); ok {
		return err
	}
	var ex *Exception
	if _, eval := err.(*starlark.EvalError); !eval && errors.As(err, &ex) {
		return ex // an exception a value raised inside (an instance's __hash__)
	}
	if _, ok := err.(*interp.IntTextError); ok {
		return err // CPython's text, which names no method
	}
	return &wrapped{prefix: name + ": ", err: err}
}

type wrapped struct {
	prefix string
	err    error
}

func (w *wrapped) Error() string { return w.prefix + w.err.Error() }
func (w *wrapped) Unwrap() error { return w.err }

func formatMethod(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	out, err := strFormat(b, s, args, kwargs)
	if err != nil {
		return nil, err
	}
	return interp.MakeString(out), nil
}

// replaceMethod is str.replace(old, new, count=-1), refusing a result
// larger than the memory budget before making it: "x" * 10**6 with every
// character replaced by a long text.
func replaceMethod(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	// Either kind of text as old and new, with CPython's error texts
	// (replaceArgs, strmethods.go).
	old, new, count, err := replaceArgs(args, kwargs)
	if err != nil {
		return nil, err
	}
	n := 0
	if old == "" {
		n = utf8.RuneCountInString(s) + 1
	} else {
		if err := b.Charge(uint64(len(s)) / 64); err != nil {
			return nil, err
		}
		n = strings.Count(s, old)
	}
	if count >= 0 && count < n {
		n = count
	}
	if grow := int64(n) * int64(len(new)-len(old)); grow > 0 {
		if err := b.Alloc(int64(len(s)) + grow); err != nil {
			return nil, err
		}
	}
	out, err := replaceCharged(b, s, old, new, n)
	if err != nil {
		return nil, err
	}
	return interp.MakeString(out), nil
}

// replaceCharged is strings.Replace(s, old, new, n), charged every few
// thousand replacements: replacing every character of a text of hundreds
// of megabytes takes seconds, which must stop at the run's deadline.
func replaceCharged(b *interp.Budget, s, old, new string, n int) (string, error) {
	const every = 4096
	if n < every {
		return strings.Replace(s, old, new, n), nil
	}
	var sb strings.Builder
	sb.Grow(len(s) + n*(len(new)-len(old)))
	start := 0
	for i := 0; i < n; i++ {
		if i%every == every-1 {
			if err := b.Charge(every / 4); err != nil {
				return "", err
			}
		}
		var j int
		if old == "" {
			// Before each character, as CPython inserts.
			if i > 0 {
				_, size := utf8.DecodeRuneInString(s[start:])
				sb.WriteString(s[start : start+size])
				start += size
			}
			j = start
		} else {
			j = start + strings.Index(s[start:], old)
		}
		sb.WriteString(s[start:j])
		sb.WriteString(new)
		start = j + len(old)
	}
	sb.WriteString(s[start:])
	return sb.String(), nil
}

// joinMethod is str.join(iterable): every element a string, the total
// length checked against the memory budget before anything is copied.
func joinMethod(b *interp.Budget, sep string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("str.join", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	iterable := args[0]
	elems, err := collect(b, "join", iterable, slot)
	if err != nil {
		var ex *Exception
		if errors.As(err, &ex) && strings.HasSuffix(ex.Msg, "object is not iterable") {
			return nil, typeError("can only join an iterable")
		}
		return nil, err
	}
	total := int64(len(sep)) * int64(max(len(elems)-1, 0))
	parts := make([]string, len(elems))
	for i, e := range elems {
		s, ok := interp.AsText(e)
		if !ok {
			return nil, typeError("sequence item %d: expected str instance, %s found", i, pyTypeName(e))
		}
		parts[i] = s
		total += int64(len(s))
	}
	if err := b.Alloc(total); err != nil {
		return nil, err
	}
	return interp.MakeString(strings.Join(parts, sep)), nil
}
