package pyrt

import (
	"strconv"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// strFormat is Python's str.format: replacement fields
//
//	{[name][.attr | [index]]*[!r|!s|!a][:spec]}
//
// with automatic or explicit numbering, keyword names, nested fields in
// the spec ("{x:{w}.{p}f}"), and "{{" / "}}" for braces. The text grows
// under the run's budget, so a format string that repeats a huge field
// stops at the memory budget.
func strFormat(b *interp.Budget, format string, args starlark.Tuple, kwargs []starlark.Tuple) (string, error) {
	f := formatter{b: b, args: args, kwargs: kwargs}
	w := interp.TextWriter{Budget: b}
	if err := f.expand(&w, format, 2); err != nil {
		return "", err
	}
	return w.String(), nil
}

type formatter struct {
	b      *interp.Budget
	args   starlark.Tuple
	kwargs []starlark.Tuple
	auto   int // next automatic field number
	manual bool
	used   bool // an automatic number was used
}

// expand writes format with its fields replaced; depth bounds nesting of
// fields inside specs.
func (f *formatter) expand(w *interp.TextWriter, format string, depth int) error {
	if depth < 0 {
		return valueError("Max string recursion exceeded")
	}
	for i := 0; i < len(format); {
		c := format[i]
		switch {
		case c == '{' && i+1 < len(format) && format[i+1] == '{':
			if err := w.WriteString("{"); err != nil {
				return err
			}
			i += 2
		case c == '}' && i+1 < len(format) && format[i+1] == '}':
			if err := w.WriteString("}"); err != nil {
				return err
			}
			i += 2
		case c == '}':
			return valueError("Single '}' encountered in format string")
		case c == '{':
			end, err := fieldEnd(format, i)
			if err != nil {
				return err
			}
			text, err := f.field(format[i+1:end], depth)
			if err != nil {
				return err
			}
			if err := w.WriteString(text); err != nil {
				return err
			}
			i = end + 1
		default:
			j := strings.IndexAny(format[i:], "{}")
			if j < 0 {
				j = len(format) - i
			}
			if err := w.WriteString(format[i : i+j]); err != nil {
				return err
			}
			i += j
		}
	}
	return nil
}

// fieldEnd finds the '}' that closes the field opened at format[open],
// past nested braces of the spec.
func fieldEnd(format string, open int) (int, error) {
	depth := 0
	for k := open; k < len(format); k++ {
		switch format[k] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return k, nil
			}
		}
	}
	return 0, valueError("Single '{' encountered in format string")
}

// field renders one replacement field (the text between its braces).
func (f *formatter) field(field string, depth int) (string, error) {
	// The name runs to '!' or ':' — outside brackets, where a key may hold
	// either.
	nameEnd := len(field)
	for k, inBracket := 0, false; k < len(field); k++ {
		if field[k] == '[' {
			inBracket = true
		} else if field[k] == ']' {
			inBracket = false
		} else if !inBracket && (field[k] == '!' || field[k] == ':') {
			nameEnd = k
			break
		}
	}
	name, rest := field[:nameEnd], field[nameEnd:]
	conv := byte(0)
	if strings.HasPrefix(rest, "!") {
		if len(rest) < 2 {
			return "", valueError("end of string while looking for conversion specifier")
		}
		conv = rest[1]
		rest = rest[2:]
		if rest != "" && rest[0] != ':' {
			return "", valueError("expected ':' after conversion specifier")
		}
	}
	// The field's own value is looked up before the fields of its spec,
	// which matters to automatic numbering: "{:{}}".format("x", 4).
	v, err := f.lookup(name)
	if err != nil {
		return "", err
	}
	spec := strings.TrimPrefix(rest, ":")
	if strings.Contains(spec, "{") {
		var w interp.TextWriter
		w.Budget = f.b
		if err := f.expand(&w, spec, depth-1); err != nil {
			return "", err
		}
		spec = w.String()
	}
	switch conv {
	case 0:
	case 's':
		s, err := interp.Str(f.b, v)
		if err != nil {
			return "", err
		}
		v = interp.MakeString(s)
	case 'r', 'a':
		s, err := interp.Repr(f.b, v)
		if err != nil {
			return "", err
		}
		if conv == 'a' {
			s = asciiEscape(s)
		}
		v = interp.MakeString(s)
	default:
		return "", valueError("Unknown conversion specifier %c", conv)
	}
	return formatValue(f.b, v, spec)
}

// lookup finds the value a field names: an argument by number or
// keyword, then each .attribute and [index] in turn.
func (f *formatter) lookup(name string) (starlark.Value, error) {
	first := len(name)
	if k := strings.IndexAny(name, ".["); k >= 0 {
		first = k
	}
	head, path := name[:first], name[first:]
	var v starlark.Value
	switch {
	case head == "":
		if f.manual {
			return nil, valueError("cannot switch from manual field specification to automatic field numbering")
		}
		f.used = true
		if f.auto >= len(f.args) {
			return nil, indexError("Replacement index %d out of range for positional args tuple", f.auto)
		}
		v = f.args[f.auto]
		f.auto++
	case isDecimal(head):
		if f.used {
			return nil, valueError("cannot switch from automatic field numbering to manual field specification")
		}
		f.manual = true
		n, err := strconv.Atoi(head)
		if err != nil || n >= len(f.args) {
			return nil, indexError("Replacement index %s out of range for positional args tuple", head)
		}
		v = f.args[n]
	default:
		for _, kv := range f.kwargs {
			if k, _ := starlark.AsString(kv[0]); k == head {
				v = kv[1]
				break
			}
		}
		if v == nil {
			return nil, keyError("'%s'", head)
		}
	}
	for path != "" {
		switch path[0] {
		case '.':
			end := strings.IndexAny(path[1:], ".[")
			if end < 0 {
				end = len(path) - 1
			}
			attr := path[1 : 1+end]
			path = path[1+end:]
			if attr == "" {
				return nil, valueError("Empty attribute in format string")
			}
			x, ok := v.(starlark.HasAttrs)
			var got starlark.Value
			if ok {
				var err error
				if got, err = x.Attr(attr); err != nil {
					return nil, err
				}
			}
			if got == nil {
				got = numberAttr(v, attr) // "{0.real}"
			}
			if got == nil {
				return nil, exception("AttributeError", "'%s' object has no attribute '%s'", pyTypeName(v), attr)
			}
			v = got
		case '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return nil, valueError("Missing ']' in format string")
			}
			key := path[1:end]
			path = path[end+1:]
			if key == "" {
				return nil, valueError("Empty attribute in format string")
			}
			if path != "" && path[0] != '.' && path[0] != '[' {
				return nil, valueError("Only '.' or '[' may follow ']' in format field specifier")
			}
			got, err := index(v, key)
			if err != nil {
				return nil, err
			}
			v = got
		default:
			return nil, valueError("Only '.' or '[' may follow ']' in format field specifier")
		}
	}
	return v, nil
}

// index is v[key] as a format field reads it: digits index a sequence,
// anything else is a string key.
func index(v starlark.Value, key string) (starlark.Value, error) {
	if isDecimal(key) {
		n, _ := strconv.Atoi(key)
		if seq, ok := v.(starlark.Indexable); ok {
			if n >= seq.Len() {
				return nil, indexError("%s index out of range", pyTypeName(v))
			}
			return seq.Index(n), nil
		}
		if m, ok := v.(starlark.Mapping); ok {
			got, found, err := m.Get(starlark.MakeInt(n))
			if err != nil {
				return nil, err
			}
			if !found {
				return nil, keyError("%d", n)
			}
			return got, nil
		}
	}
	if m, ok := v.(starlark.Mapping); ok {
		got, found, err := m.Get(interp.MakeString(key))
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, keyError("'%s'", key)
		}
		return got, nil
	}
	return nil, typeError("'%s' object is not subscriptable", pyTypeName(v))
}

func isDecimal(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
