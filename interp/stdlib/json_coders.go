package stdlib

import (
	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// jsonCoder is a json.JSONDecoder or json.JSONEncoder: the keyword
// arguments of loads or dumps kept for its decode/raw_decode or
// encode/iterencode. (They cannot be subclassed: there are no classes.)
type jsonCoder struct {
	encoder bool
	kwargs  []starlark.Tuple
}

var (
	decoderClass = &pyClass{module: "json.decoder", name: "JSONDecoder", ctor: newJSONCoder(false),
		is: func(v starlark.Value) bool { c, ok := v.(*jsonCoder); return ok && !c.encoder }}
	encoderClass = &pyClass{module: "json.encoder", name: "JSONEncoder", ctor: newJSONCoder(true),
		is: func(v starlark.Value) bool { c, ok := v.(*jsonCoder); return ok && c.encoder }}
)

func newJSONCoder(encoder bool) interp.BuiltinFunc {
	names := []string{"object_hook", "parse_float", "parse_int", "parse_constant", "strict", "object_pairs_hook"}
	class := "JSONDecoder"
	if encoder {
		names = []string{"skipkeys", "ensure_ascii", "check_circular", "allow_nan", "sort_keys", "indent", "separators", "default"}
		class = "JSONEncoder"
	}
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) > 0 {
			return nil, pyrt.Errorf("TypeError", "%s.__init__() takes 1 positional argument but %d were given", class, len(args)+1)
		}
		for _, kv := range kwargs {
			if k, _ := starlark.AsString(kv[0]); indexOf(names, k) < 0 {
				return nil, pyrt.Errorf("TypeError", "%s.__init__() got an unexpected keyword argument '%s'", class, k)
			}
		}
		return &jsonCoder{encoder: encoder, kwargs: append([]starlark.Tuple(nil), kwargs...)}, nil
	}
}

func (c *jsonCoder) String() string {
	if c.encoder {
		return "<json.encoder.JSONEncoder object>"
	}
	return "<json.decoder.JSONDecoder object>"
}
func (c *jsonCoder) Type() string {
	if c.encoder {
		return "JSONEncoder"
	}
	return "JSONDecoder"
}
func (c *jsonCoder) Freeze()               {}
func (c *jsonCoder) Truth() starlark.Bool  { return true }
func (c *jsonCoder) Hash() (uint32, error) { return 0, nil }
func (c *jsonCoder) PyClass() starlark.Value {
	if c.encoder {
		return encoderClass
	}
	return decoderClass
}

func (c *jsonCoder) AttrNames() []string {
	if c.encoder {
		return []string{"default", "encode", "iterencode"}
	}
	return []string{"decode", "raw_decode"}
}

func (c *jsonCoder) Attr(name string) (starlark.Value, error) {
	var fn interp.BuiltinFunc
	switch {
	case c.encoder && (name == "encode" || name == "iterencode"):
		fn = func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var o starlark.Value
			if err := unpackWith(argStyle{name: "JSONEncoder." + name, self: true}, args, kwargs, "o", &o); err != nil {
				return nil, err
			}
			s, err := jsonDumps(thread, interp.NewBuiltin("json.dumps", jsonDumps), starlark.Tuple{o}, c.kwargs)
			if err != nil || name == "encode" {
				return s, err
			}
			return starlark.NewList([]starlark.Value{s}), nil // the chunks: here, one
		}
	case c.encoder && name == "default":
		fn = func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var o starlark.Value
			if err := unpackWith(argStyle{name: "JSONEncoder.default", self: true}, args, kwargs, "o", &o); err != nil {
				return nil, err
			}
			return nil, pyrt.Errorf("TypeError", "Object of type %s is not JSON serializable", className(o))
		}
	case !c.encoder && name == "decode":
		fn = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var s starlark.Value
			if err := unpackWith(argStyle{name: "JSONDecoder.decode", self: true}, args, kwargs, "s", &s); err != nil {
				return nil, err
			}
			return loadsWith(thread, starlark.Tuple{s}, c.kwargs, nil)
		}
	case !c.encoder && name == "raw_decode":
		fn = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var s starlark.Value
			var idx starlark.Value = starlark.MakeInt(0)
			if err := unpackWith(argStyle{name: "JSONDecoder.raw_decode", self: true}, args, kwargs, "s", &s, "idx?", &idx); err != nil {
				return nil, err
			}
			if _, ok := interp.AsText(s); !ok {
				return nil, pyrt.Errorf("TypeError", "first argument must be a string, not %s", pyrt.TypeName(s))
			}
			return loadsWith(thread, starlark.Tuple{s}, c.kwargs, idx)
		}
	default:
		return nil, nil
	}
	return interp.NewBuiltin(name, fn), nil
}
