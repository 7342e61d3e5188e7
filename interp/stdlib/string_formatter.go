package stdlib

import (
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// formatter is a string.Formatter(): str.format as an object, and parse,
// which splits a format string into its literal text and fields (the
// idiom that lists a template's field names).
type formatter struct{}

var _ starlark.HasAttrs = formatter{}

func newFormatter(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs("Formatter", args, kwargs, 0); err != nil {
		return nil, pyrt.Errorf("TypeError", "Formatter() takes no arguments")
	}
	return formatter{}, nil
}

func (formatter) String() string        { return "<string.Formatter object>" }
func (formatter) Type() string          { return "Formatter" }
func (formatter) Freeze()               {}
func (formatter) Truth() starlark.Bool  { return true }
func (formatter) Hash() (uint32, error) { return 0, nil }
func (formatter) AttrNames() []string {
	return []string{"check_unused_args", "convert_field", "format", "format_field", "get_field", "get_value", "parse", "vformat"}
}

func (f formatter) Attr(name string) (starlark.Value, error) {
	bi := builtins()
	var fn interp.BuiltinFunc
	switch name {
	case "format":
		fn = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return nil, pyrt.Errorf("TypeError", "Formatter.format() missing 1 required positional argument: 'format_string'")
			}
			if _, ok := interp.AsText(args[0]); !ok {
				return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'format'", pyrt.TypeName(args[0]))
			}
			return starlark.Call(thread, bi["__ot_format"], args, kwargs)
		}
	case "vformat":
		fn = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var s, pos, kw starlark.Value
			if err := starlark.UnpackPositionalArgs("vformat", args, kwargs, 3, &s, &pos, &kw); err != nil {
				return nil, err
			}
			if _, ok := interp.AsText(s); !ok {
				return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'format'", pyrt.TypeName(s))
			}
			callArgs := starlark.Tuple{s}
			items, err := pyrt.Collect(thread, pos)
			if err != nil {
				return nil, err
			}
			callArgs = append(callArgs, items...)
			m, ok := kw.(starlark.IterableMapping)
			if !ok {
				return nil, pyrt.Errorf("TypeError", "argument after ** must be a mapping, not %s", pyrt.TypeName(kw))
			}
			var kws []starlark.Tuple
			for _, kv := range m.Items() {
				kws = append(kws, kv)
			}
			return starlark.Call(thread, bi["__ot_format"], callArgs, kws)
		}
	case "parse":
		fn = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var s starlark.Value
			if err := starlark.UnpackPositionalArgs("parse", args, kwargs, 1, &s); err != nil {
				return nil, err
			}
			text, ok := interp.AsText(s)
			if !ok {
				return nil, pyrt.Errorf("TypeError", "expected str, got %s", pyrt.TypeName(s))
			}
			return parseFormat(interp.BudgetOf(thread), text)
		}
	case "format_field":
		fn = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var v, spec starlark.Value
			if err := starlark.UnpackPositionalArgs("format_field", args, kwargs, 2, &v, &spec); err != nil {
				return nil, err
			}
			return starlark.Call(thread, bi["format"], starlark.Tuple{v, spec}, nil)
		}
	case "convert_field":
		fn = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var v, conv starlark.Value
			if err := starlark.UnpackPositionalArgs("convert_field", args, kwargs, 2, &v, &conv); err != nil {
				return nil, err
			}
			c, _ := interp.AsText(conv)
			switch {
			case conv == starlark.None:
				return v, nil
			case c == "s":
				return starlark.Call(thread, bi["str"], starlark.Tuple{v}, nil)
			case c == "r":
				return starlark.Call(thread, bi["repr"], starlark.Tuple{v}, nil)
			case c == "a":
				return starlark.Call(thread, bi["ascii"], starlark.Tuple{v}, nil)
			}
			r, _ := interp.Repr(nil, conv)
			return nil, pyrt.Errorf("ValueError", "Unknown conversion specifier %s", strings.Trim(r, "'"))
		}
	case "get_value":
		fn = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var key, pos, kw starlark.Value
			if err := starlark.UnpackPositionalArgs("get_value", args, kwargs, 3, &key, &pos, &kw); err != nil {
				return nil, err
			}
			if _, ok := key.(starlark.Int); ok {
				return getItem(pos, key)
			}
			return getItem(kw, key)
		}
	case "get_field":
		fn = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var field, pos, kw starlark.Value
			if err := starlark.UnpackPositionalArgs("get_field", args, kwargs, 3, &field, &pos, &kw); err != nil {
				return nil, err
			}
			name, ok := interp.AsText(field)
			if !ok {
				return nil, pyrt.Errorf("TypeError", "expected str, got %s", pyrt.TypeName(field))
			}
			// The first part of the name picks the argument; .attr and
			// [key] parts walk into it.
			first, rest := name, ""
			if i := strings.IndexAny(name, ".["); i >= 0 {
				first, rest = name[:i], name[i:]
			}
			var key starlark.Value = interp.MakeString(first)
			if n, ok := parseIndex(first); ok {
				key = starlark.MakeInt(n)
			}
			var obj starlark.Value
			var err error
			if _, isInt := key.(starlark.Int); isInt {
				obj, err = getItem(pos, key)
			} else {
				obj, err = getItem(kw, key)
			}
			if err != nil {
				return nil, err
			}
			for rest != "" {
				switch rest[0] {
				case '.':
					end := strings.IndexAny(rest[1:], ".[")
					if end < 0 {
						end = len(rest) - 1
					}
					if obj, err = pyrt.GetAttr(thread, obj, rest[1:1+end]); err != nil {
						return nil, err
					}
					rest = rest[1+end:]
				case '[':
					end := strings.IndexByte(rest, ']')
					if end < 0 {
						return nil, pyrt.Errorf("ValueError", "Missing ']' in format string")
					}
					var k starlark.Value = interp.MakeString(rest[1:end])
					if n, ok := parseIndex(rest[1:end]); ok {
						k = starlark.MakeInt(n)
					}
					if obj, err = getItem(obj, k); err != nil {
						return nil, err
					}
					rest = rest[end+1:]
				default:
					return nil, pyrt.Errorf("ValueError", "Only '.' or '[' may follow ']' in format field specifier")
				}
			}
			return starlark.Tuple{obj, key}, nil
		}
	case "check_unused_args":
		fn = func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, nil
		}
	default:
		return nil, nil
	}
	return interp.NewBuiltin(name, fn), nil
}

// parseIndex reads a field name made of digits as an index.
func parseIndex(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// parseFormat is Formatter().parse(s): (literal_text, field_name,
// format_spec, conversion) for each piece of s, as CPython's
// formatter_parser splits it (an escaped brace ends a piece of literal
// text, and belongs to it).
func parseFormat(b *interp.Budget, s string) (starlark.Value, error) {
	// The pieces ('{{' * 10**7 is ten million tuples), shown to the meter.
	var out []starlark.Value
	defer b.HoldValues(&out)()
	var lit strings.Builder
	str := func(t string) starlark.Value { return interp.MakeString(t) }
	flush := func(field, spec, conv starlark.Value) error {
		var err error
		out, err = appendValue(b, out, starlark.Tuple{str(lit.String()), field, spec, conv})
		lit.Reset()
		return err
	}
	for i := 0; i < len(s); {
		if err := b.Charge(1); err != nil {
			return nil, err
		}
		c := s[i]
		switch {
		case c == '}':
			if i+1 < len(s) && s[i+1] == '}' {
				lit.WriteByte('}')
				if err := flush(starlark.None, starlark.None, starlark.None); err != nil {
					return nil, err
				}
				i += 2
				continue
			}
			return nil, pyrt.Errorf("ValueError", "Single '}' encountered in format string")
		case c == '{':
			if i+1 < len(s) && s[i+1] == '{' {
				lit.WriteByte('{')
				if err := flush(starlark.None, starlark.None, starlark.None); err != nil {
					return nil, err
				}
				i += 2
				continue
			}
			if i+1 >= len(s) {
				return nil, pyrt.Errorf("ValueError", "Single '{' encountered in format string")
			}
			// The field runs to its matching '}'.
			depth, j := 1, i+1
			for ; j < len(s) && depth > 0; j++ {
				switch s[j] {
				case '{':
					depth++
				case '}':
					depth--
				}
			}
			if depth > 0 {
				return nil, pyrt.Errorf("ValueError", "expected '}' before end of string")
			}
			field := s[i+1 : j-1]
			// The name ends at the first ':' or '!' outside brackets.
			k, bracket := 0, false
			for ; k < len(field); k++ {
				if field[k] == '[' {
					bracket = true
				} else if field[k] == ']' {
					bracket = false
				} else if !bracket && (field[k] == ':' || field[k] == '!') {
					break
				}
			}
			name, spec := field[:k], ""
			var conv starlark.Value = starlark.None
			if k < len(field) && field[k] == '!' {
				switch {
				case k+1 >= len(field):
					return nil, pyrt.Errorf("ValueError", "unmatched '{' in format spec")
				case k+2 < len(field) && field[k+2] != ':':
					return nil, pyrt.Errorf("ValueError", "expected ':' after conversion specifier")
				}
				conv = str(field[k+1 : k+2])
				k += 2
			}
			if k < len(field) {
				spec = field[k+1:]
			}
			if err := flush(str(name), str(spec), conv); err != nil {
				return nil, err
			}
			i = j
		default:
			lit.WriteByte(c)
			i++
		}
	}
	if lit.Len() > 0 {
		if err := flush(starlark.None, starlark.None, starlark.None); err != nil {
			return nil, err
		}
	}
	return starlark.NewList(out), nil
}
