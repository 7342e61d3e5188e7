package pyrt

import (
	"errors"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/lowered"
)

// GetAttr is x.name as a program's own attribute expression reads it:
// the special attributes (__name__, __class__, a number's real), the
// methods onetool implements for a kind (str.casefold, list.count), then
// the value's own. A missing one is CPython's AttributeError. getattr,
// hasattr and operator's attrgetter and methodcaller use it, so that
// they see what x.name sees.
func GetAttr(thread *starlark.Thread, x starlark.Value, name string) (starlark.Value, error) {
	if lowered.DunderAttr(name) {
		return dunderHelper(thread, nil, starlark.Tuple{x, starlark.String(name)}, nil)
	}
	if _, ok := lowered.Method(name); ok {
		if gm, ok := interp.Predeclared(thread)[lowered.GetMethod].(starlark.Callable); ok {
			return starlark.Call(thread, gm, starlark.Tuple{x, starlark.String(name)}, nil)
		}
	}
	v, err := attrOf(x, name)
	if err != nil || v != nil {
		return v, err
	}
	if m, ok := x.(*starlarkstruct.Module); ok {
		return nil, exception("AttributeError", "module '%s' has no attribute '%s'", m.Name, name)
	}
	return nil, exception("AttributeError", "'%s' object has no attribute '%s'", pyTypeName(x), name)
}

// isAttributeError reports an error a getattr default stands in for.
func isAttributeError(err error) bool {
	var ex *Exception
	if errors.As(err, &ex) {
		if ex.Value != nil {
			return ex.Value.class.IsSubclass(BuiltinClass("AttributeError"))
		}
		return ex.Class == "AttributeError"
	}
	return false
}

// getattrBuiltin is getattr(x, name[, default]).
func getattrBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, typeError("getattr() takes no keyword arguments")
	}
	if len(args) < 2 || len(args) > 3 {
		return nil, typeError("getattr expected 2 or 3 arguments, got %d", len(args))
	}
	name, ok := interp.AsText(args[1])
	if !ok {
		return nil, typeError("attribute name must be string, not '%s'", pyTypeName(args[1]))
	}
	v, err := GetAttr(thread, args[0], name)
	if err != nil && len(args) == 3 && isAttributeError(err) {
		return args[2], nil
	}
	return v, err
}

// hasattrBuiltin is hasattr(x, name): whether getattr finds it.
func hasattrBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, typeError("hasattr() takes no keyword arguments")
	}
	if len(args) != 2 {
		return nil, typeError("hasattr expected 2 arguments, got %d", len(args))
	}
	name, ok := interp.AsText(args[1])
	if !ok {
		return nil, typeError("attribute name must be string, not '%s'", pyTypeName(args[1]))
	}
	_, err := GetAttr(thread, args[0], name)
	switch {
	case err == nil:
		return starlark.True, nil
	case isAttributeError(err):
		return starlark.False, nil
	}
	return nil, err
}
