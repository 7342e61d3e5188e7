package pyrt

import (
	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// str, repr, print and fail render values with interp's bounded writer
// instead of Starlark's String methods (see interp/repr.go).

func strBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, typeError("str() takes no keyword arguments")
	}
	switch len(args) {
	case 0:
		return starlark.String(""), nil
	case 1:
	case 2, 3:
		// str(b, encoding, errors) decodes, as b.decode(encoding, errors).
		if _, ok := interp.AsBytes(args[0]); ok {
			return decodeMethod(thread, args[0], args[1:], nil)
		}
		if _, ok := interp.AsText(args[0]); ok {
			return nil, typeError("decoding str is not supported")
		}
		return nil, typeError("decoding to str: need a bytes-like object, %s found", pyTypeName(args[0]))
	default:
		return nil, typeError("str() takes at most 3 arguments (%d given)", len(args))
	}
	switch x := args[0].(type) {
	case starlark.String, *interp.Unicode:
		return x, nil
	}
	s, err := interp.Str(interp.BudgetOf(thread), args[0])
	if err != nil {
		return nil, err
	}
	return interp.MakeString(s), nil
}

func reprBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs("repr", args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	s, err := interp.Repr(interp.BudgetOf(thread), x)
	if err != nil {
		return nil, err
	}
	return interp.MakeString(s), nil
}

// printBuiltin is print(*args, sep=" ", end="\n"): Python's, with the
// text of each argument bounded by the run's budget and the whole by its
// printed-output budget.
func printBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	sep, end := " ", "\n"
	var file starlark.Value // an object with a write method: io.StringIO
	for _, kv := range kwargs {
		name, _ := starlark.AsString(kv[0])
		var target *string
		switch name {
		case "sep":
			target = &sep
		case "end":
			target = &end
		case "flush", "file":
			if name == "file" && kv[1] != starlark.None {
				if f, ok := kv[1].(starlark.HasAttrs); ok {
					if w, _ := f.Attr("write"); w != nil {
						file = w
						continue
					}
				}
				return nil, typeError("print() cannot write to a file here: printed text is the program's output (use the file pack to write files)")
			}
			continue
		default:
			return nil, typeError("'%s' is an invalid keyword argument for print()", name)
		}
		switch v := kv[1].(type) {
		case starlark.String, *interp.Unicode:
			*target, _ = interp.AsText(v)
		case starlark.NoneType:
		default:
			return nil, typeError("%s must be None or a string, not %s", name, pyTypeName(v))
		}
	}
	w := interp.TextWriter{Budget: interp.BudgetOf(thread)}
	for i, v := range args {
		if i > 0 {
			if err := w.WriteString(sep); err != nil {
				return nil, err
			}
		}
		if err := w.Str(v); err != nil {
			return nil, err
		}
	}
	if file != nil {
		if _, err := starlark.Call(thread, file, starlark.Tuple{interp.MakeString(w.String() + end)}, nil); err != nil {
			return nil, err
		}
		return starlark.None, nil
	}
	if err := interp.Print(thread, w.String()+end); err != nil {
		return nil, err
	}
	return starlark.None, nil
}

// formatBuiltin is format(value, format_spec="").
func formatBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	var spec interp.Text
	if err := starlark.UnpackPositionalArgs("format", args, kwargs, 1, &v, &spec); err != nil {
		return nil, err
	}
	s, err := formatValue(interp.BudgetOf(thread), v, string(spec))
	if err != nil {
		return nil, err
	}
	return interp.MakeString(s), nil
}

// failBuiltin is Starlark's fail(*args, sep=" "), with bounded text.
func failBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	sep := interp.Text(" ")
	if err := starlark.UnpackArgs("fail", nil, kwargs, "sep?", &sep); err != nil {
		return nil, err
	}
	w := interp.TextWriter{Budget: interp.BudgetOf(thread)}
	if err := w.WriteString("fail: "); err != nil {
		return nil, err
	}
	for i, v := range args {
		if i > 0 {
			if err := w.WriteString(string(sep)); err != nil {
				return nil, err
			}
		}
		if err := w.Str(v); err != nil {
			return nil, err
		}
	}
	return nil, failError(w.String())
}

type failError string

func (e failError) Error() string { return string(e) }
