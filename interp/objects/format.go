package objects

import (
	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

var _ pyrt.Formatter = (*Instance)(nil)

// PyFormat is format(in, spec) and f"{in:spec}": the class's
// __format__, else the builtin value's format (an IntEnum member's
// int), else object.__format__ (str(in), and a TypeError for a spec).
func (in *Instance) PyFormat(b *interp.Budget, spec string) (string, error) {
	thread := b.Thread()
	if thread == nil {
		thread = in.thread()
	}
	if f := in.class.special("__format__"); f != nil {
		v, err := in.callSpecial(thread, f, interp.MakeString(spec))
		if err != nil {
			return "", err
		}
		s, ok := interp.AsText(v)
		if !ok {
			return "", errorf("TypeError", "__format__ must return a str, not %s", typeName(v))
		}
		return s, nil
	}
	if in.base != nil && in.class.special("__str__") == nil && in.class.special("__repr__") == nil {
		format := interp.Predeclared(thread)["format"]
		if format != nil {
			v, err := starlark.Call(thread, format, starlark.Tuple{in.base, interp.MakeString(spec)}, nil)
			if err != nil {
				return "", err
			}
			s, _ := interp.AsText(v)
			return s, nil
		}
	}
	if spec != "" {
		return "", errorf("TypeError", "unsupported format string passed to %s.__format__", in.class.name)
	}
	return interp.Str(b, in)
}
