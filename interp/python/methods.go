package python

import (
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// The string methods the lowering routes here (see loweredMethod). Each
// helper takes the receiver first; a receiver that is not a string has its
// own method called, so a struct with a field called format still works.

type methodFunc func(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

// methodHelper makes the builtin for one method: fn for a string
// receiver (nil: none), and for any other receiver its own method, after
// growth refuses an argument whose length alone would exceed the memory
// budget at growth bytes per element (0: no check).
func methodHelper(name string, fn methodFunc, growth int64) *starlark.Builtin {
	return interp.NewBuiltin("__ot_"+name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return nil, typeError("%s needs a receiver", name)
		}
		recv := args[0]
		if s, ok := interp.AsText(recv); ok && fn != nil {
			v, err := fn(interp.BudgetOf(thread), s, args[1:], kwargs)
			if err != nil && !isBudget(err) {
				return nil, methodError(name, err)
			}
			return v, err
		}
		x, ok := recv.(starlark.HasAttrs)
		var method starlark.Value
		if ok {
			var err error
			if method, err = x.Attr(name); err != nil {
				return nil, err
			}
		}
		if method == nil {
			return nil, exception("AttributeError", "'%s' object has no attribute '%s'", typeName(recv), name)
		}
		if growth > 0 {
			b := interp.BudgetOf(thread)
			for _, a := range args[1:] {
				if n := starlark.Len(a); n > 0 {
					if err := b.Alloc(int64(n) * growth); err != nil {
						return nil, err
					}
				}
			}
		}
		return starlark.Call(thread, method, args[1:], kwargs)
	})
}

// methodError leaves an Exception as it is (its text is CPython's) and
// prefixes anything else with the method's name, as Starlark does.
func methodError(name string, err error) error {
	if _, ok := err.(*Exception); ok {
		return err
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
	var old, new string
	count := -1
	if err := starlark.UnpackPositionalArgs("replace", args, kwargs, 2, &old, &new, &count); err != nil {
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
	return interp.MakeString(strings.Replace(s, old, new, n)), nil
}

// joinMethod is str.join(iterable): every element a string, the total
// length checked against the memory budget before anything is copied.
func joinMethod(b *interp.Budget, sep string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var iterable starlark.Value
	if err := starlark.UnpackPositionalArgs("join", args, kwargs, 1, &iterable); err != nil {
		return nil, err
	}
	elems, err := collect(b, "join", iterable, slot)
	if err != nil {
		return nil, err
	}
	total := int64(len(sep)) * int64(max(len(elems)-1, 0))
	parts := make([]string, len(elems))
	for i, e := range elems {
		s, ok := interp.AsText(e)
		if !ok {
			return nil, typeError("sequence item %d: expected str instance, %s found", i, typeName(e))
		}
		parts[i] = s
		total += int64(len(s))
	}
	if err := b.Alloc(total); err != nil {
		return nil, err
	}
	return interp.MakeString(strings.Join(parts, sep)), nil
}
