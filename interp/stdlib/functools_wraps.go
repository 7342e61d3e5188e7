package stdlib

import (
	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// functools' decorators for decorators: update_wrapper and wraps, which
// copy a function's identity onto its wrapper, and singledispatch.

// wrapperAssignments and wrapperUpdates are functools.WRAPPER_ASSIGNMENTS
// and WRAPPER_UPDATES.
var (
	wrapperAssignments = starlark.Tuple{starlark.String("__module__"), starlark.String("__name__"),
		starlark.String("__qualname__"), starlark.String("__doc__"), starlark.String("__annotations__")}
	wrapperUpdates = starlark.Tuple{starlark.String("__dict__")}
)

// update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS,
// updated=WRAPPER_UPDATES), as CPython's: the attributes wrapped lacks
// are skipped, __dict__ is merged, and __wrapped__ is set last.
func ftUpdateWrapper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var wrapper, wrapped starlark.Value
	var assigned, updated starlark.Value = wrapperAssignments, wrapperUpdates
	if err := unpack("update_wrapper", args, kwargs, "wrapper", &wrapper, "wrapped", &wrapped, "assigned?", &assigned, "updated?", &updated); err != nil {
		return nil, err
	}
	return updateWrapper(thread, wrapper, wrapped, assigned, updated)
}

func updateWrapper(thread *starlark.Thread, wrapper, wrapped, assigned, updated starlark.Value) (starlark.Value, error) {
	set, ok := wrapper.(starlark.HasSetField)
	if !ok {
		return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute '__wrapped__' (update_wrapper needs a def or a decorated function as the wrapper)", pyrt.TypeName(wrapper))
	}
	names, err := attrNameList(thread, assigned)
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		v, err := pyrt.GetAttr(thread, wrapped, name)
		if err != nil {
			if isAttrErr(err) {
				continue
			}
			return nil, err
		}
		if err := set.SetField(name, v); err != nil {
			return nil, err
		}
	}
	names, err = attrNameList(thread, updated)
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		dst, err := pyrt.GetAttr(thread, wrapper, name)
		if err != nil {
			return nil, err
		}
		src, err := pyrt.GetAttr(thread, wrapped, name)
		if err != nil {
			if isAttrErr(err) {
				continue
			}
			return nil, err
		}
		d, ok1 := dst.(*starlark.Dict)
		s, ok2 := src.(*starlark.Dict)
		if !ok1 || !ok2 {
			continue
		}
		if err := interp.BudgetOf(thread).Charge(uint64(s.Len())); err != nil {
			return nil, err
		}
		for _, kv := range s.Items() {
			if err := d.SetKey(kv[0], kv[1]); err != nil {
				return nil, err
			}
		}
	}
	if err := set.SetField("__wrapped__", wrapped); err != nil {
		return nil, err
	}
	return wrapper, nil
}

func isAttrErr(err error) bool {
	return pyrt.IsAttributeError(err)
}

// attrNameList is the strings of an iterable of attribute names.
func attrNameList(thread *starlark.Thread, v starlark.Value) ([]string, error) {
	next, err := pyrt.Iterate(thread, v)
	if err != nil {
		return nil, err
	}
	var out []string
	for {
		x, ok, err := next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		s, ok := interp.AsText(x)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "attribute name must be string, not '%s'", pyrt.TypeName(x))
		}
		out = append(out, s)
	}
}

// wraps(wrapped, assigned=..., updated=...): a decorator that applies
// update_wrapper with wrapped; as CPython's, a functools.partial of
// update_wrapper.
func ftWraps(updateWrapper *starlark.Builtin) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var wrapped starlark.Value
		var assigned, updated starlark.Value = wrapperAssignments, wrapperUpdates
		if err := unpack("wraps", args, kwargs, "wrapped", &wrapped, "assigned?", &assigned, "updated?", &updated); err != nil {
			return nil, err
		}
		kw := starlark.NewDict(3)
		_ = kw.SetKey(starlark.String("wrapped"), wrapped)
		_ = kw.SetKey(starlark.String("assigned"), assigned)
		_ = kw.SetKey(starlark.String("updated"), updated)
		return &partial{fn: updateWrapper, kw: kw}, nil
	}
}
