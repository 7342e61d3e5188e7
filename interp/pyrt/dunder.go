package pyrt

import (
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
)

// dunderHelper is __ot_dunder(x, name): the special attributes programs
// read for messages and dispatch (f.__name__, type(x).__name__,
// x.__class__, f.__doc__), which Starlark's functions and values do not
// have. A value that has the attribute itself (a class) answers first.
func dunderHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x := args[0]
	name, _ := interp.AsText(args[1])
	// A value whose Attr answers every name it lacks with an
	// AttributeError (a datetime) still has a __class__.
	if v, err := attrOf(x, name); (err != nil && !(name == "__class__" && isAttributeError(err))) || v != nil {
		return v, err
	}
	if v := numberAttr(x, name); v != nil {
		return v, nil
	}
	switch name {
	case "__class__":
		if t, ok := interp.Predeclared(thread)["type"].(starlark.Callable); ok {
			return starlark.Call(thread, t, starlark.Tuple{x}, nil)
		}
	case "__name__", "__qualname__":
		switch f := x.(type) {
		case *starlarkstruct.Module: // math.__name__
			return starlark.String(f.Name), nil
		case *starlark.Function:
			if f.Name() == "lambda" {
				return starlark.String("<lambda>"), nil
			}
			return starlark.String(f.Name()), nil
		case *starlark.Builtin:
			return starlark.String(f.Name()), nil
		case *pyIter:
			if _, ok := f.src.(*genSource); ok {
				return starlark.String("<genexpr>"), nil
			}
		}
	case "__doc__":
		if f, ok := x.(*starlark.Function); ok && f.Doc() != "" {
			return interp.MakeString(f.Doc()), nil
		}
		return starlark.None, nil
	}
	if f, ok := x.(*starlark.Function); ok {
		// A def the lowering left bare (function.go): what a Function
		// would answer before the program set anything.
		switch name {
		case "__module__":
			return starlark.String("__main__"), nil
		case "__defaults__":
			return Defaults(f), nil
		case "__kwdefaults__":
			return KwDefaults(f), nil
		case "__dict__", "__annotations__":
			return starlark.NewDict(0), nil
		}
	}
	return nil, exception("AttributeError", "'%s' object has no attribute '%s'", pyTypeName(x), name)
}
