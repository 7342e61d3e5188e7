package stdlib

import (
	"sort"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// os.environ and os.getenv: the variables the operator allowed
// (security.environ, Facts.Env), read-only.

const osEnvironHint = "os.environ is read-only here: it holds only the variables the operator allowed (security.environ); pass values to functions instead of through the environment"

// osEnviron is os.environ of the run on thread (nil: os reached other
// than by import, where only its methods, which have a thread, work).
type osEnviron struct{ thread *starlark.Thread }

var (
	_            starlark.Mapping   = (*osEnviron)(nil)
	_            starlark.HasSetKey = (*osEnviron)(nil)
	_            starlark.Iterable  = (*osEnviron)(nil)
	_            starlark.Sequence  = (*osEnviron)(nil)
	_            pyrt.ItemDeleter   = (*osEnviron)(nil)
	environClass                    = &pyClass{module: "os", name: "_Environ", is: isOf[*osEnviron]}
)

func (e *osEnviron) env(thread *starlark.Thread) map[string]string {
	if thread == nil {
		thread = e.thread
	}
	return facts(thread).Env
}

func (e *osEnviron) keys(thread *starlark.Thread) []string {
	env := e.env(thread)
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (e *osEnviron) PyClass() starlark.Value { return environClass }
func (e *osEnviron) Type() string            { return "_Environ" }
func (e *osEnviron) Freeze()                 {}
func (e *osEnviron) Truth() starlark.Bool    { return len(e.env(nil)) > 0 }
func (e *osEnviron) Hash() (uint32, error) {
	return 0, pyrt.Errorf("TypeError", "unhashable type: '_Environ'")
}
func (e *osEnviron) Len() int { return len(e.env(nil)) }

func (e *osEnviron) String() string {
	var b strings.Builder
	b.WriteString("environ({")
	env := e.env(nil)
	for i, k := range e.keys(nil) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(interp.QuoteString(k) + ": " + interp.QuoteString(env[k]))
	}
	b.WriteString("})")
	return b.String()
}

func (e *osEnviron) Get(k starlark.Value) (starlark.Value, bool, error) {
	s, ok := interp.AsText(k)
	if !ok {
		return nil, false, pyrt.Errorf("TypeError", "str expected, not %s", pyrt.TypeName(k))
	}
	v, found := e.env(nil)[s]
	if !found {
		return nil, false, pyrt.Errorf("KeyError", "%s", interp.QuoteString(s))
	}
	return interp.MakeString(v), true, nil
}

func (e *osEnviron) Iterate() starlark.Iterator {
	keys := e.keys(nil)
	vals := make([]starlark.Value, len(keys))
	for i, k := range keys {
		vals[i] = interp.MakeString(k)
	}
	return starlark.NewList(vals).Iterate()
}

func (e *osEnviron) SetKey(k, v starlark.Value) error {
	return pyrt.Errorf("PermissionError", "%s", osEnvironHint)
}

func (e *osEnviron) DeleteItem(*starlark.Thread, starlark.Value) error {
	return pyrt.Errorf("PermissionError", "%s", osEnvironHint)
}

func (e *osEnviron) AttrNames() []string {
	return []string{"clear", "copy", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values"}
}

func (e *osEnviron) Attr(name string) (starlark.Value, error) {
	switch name {
	case "clear", "pop", "popitem", "setdefault", "update":
		return interp.NewBuiltin(name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return nil, pyrt.Errorf("PermissionError", "%s", osEnvironHint)
		}), nil
	case "copy", "get", "items", "keys", "values":
	default:
		return nil, nil
	}
	return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		env := e.env(thread)
		keys := e.keys(thread)
		if name == "get" {
			var k, def starlark.Value = nil, starlark.None
			if err := (webParams{fn: "Mapping.get", names: []string{"key", "default"}, required: 1, maxPos: 2, self: true}).unpack(args, kwargs, &k, &def); err != nil {
				return nil, err
			}
			s, _ := interp.AsText(k)
			if v, ok := env[s]; ok {
				return interp.MakeString(v), nil
			}
			return def, nil
		}
		if err := (webParams{fn: "Mapping." + name, self: true}).unpack(args, kwargs); err != nil {
			return nil, err
		}
		out := make([]starlark.Value, len(keys))
		for i, k := range keys {
			switch name {
			case "keys":
				out[i] = interp.MakeString(k)
			case "values":
				out[i] = interp.MakeString(env[k])
			default:
				out[i] = starlark.Tuple{interp.MakeString(k), interp.MakeString(env[k])}
			}
		}
		if name == "copy" {
			d := starlark.NewDict(len(keys))
			for _, k := range keys {
				_ = d.SetKey(interp.MakeString(k), interp.MakeString(env[k]))
			}
			return d, nil
		}
		return starlark.NewList(out), nil
	}), nil
}

// osGetenv is getenv(key, default=None).
func osGetenv(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var k, def starlark.Value = nil, starlark.None
	if err := (webParams{fn: "getenv", names: []string{"key", "default"}, required: 1, maxPos: 2}).unpack(args, kwargs, &k, &def); err != nil {
		return nil, err
	}
	s, ok := interp.AsText(k)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "str expected, not %s", pyrt.TypeName(k))
	}
	if v, ok := facts(thread).Env[s]; ok {
		return interp.MakeString(v), nil
	}
	return def, nil
}
