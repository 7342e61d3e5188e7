package ordered

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds nesting on both encode and decode, so that hostile or
// cyclic input ends in an error rather than a Go stack overflow.
const maxDepth = 1000

// ErrDepth is returned for values nested deeper than 1000 levels (or
// cyclic ones).
var ErrDepth = errors.New("value nested too deeply (more than 1000 levels, or cyclic)")

// Decode parses one JSON value. Objects become *Map in document order,
// arrays []any, numbers int64 when they are integers that fit and float64
// otherwise, and null nil. Trailing data after the value is an error.
func Decode(data []byte) (any, error) { return decode(data, false) }

// DecodeNumbers is Decode keeping every number as a json.Number, for
// callers that need the exact text (JSON Schema bounds compare exactly).
func DecodeNumbers(data []byte) (any, error) { return decode(data, true) }

func decode(data []byte, keepNumbers bool) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0, keepNumbers)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON: data after the top-level value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, depth int, keepNumbers bool) (any, error) {
	if depth > maxDepth {
		return nil, ErrDepth
	}
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := NewMap(4)
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeValue(dec, depth+1, keepNumbers)
				if err != nil {
					return nil, err
				}
				m.Set(k, v)
			}
			_, err := dec.Token() // '}'
			return m, err
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decodeValue(dec, depth+1, keepNumbers)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token() // ']'
			return list, err
		}
		return nil, fmt.Errorf("invalid JSON: unexpected %v", t)
	case json.Number:
		if keepNumbers {
			return t, nil
		}
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return i, nil
		}
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			return nil, fmt.Errorf("invalid JSON number %s: %w", t, err)
		}
		return f, nil
	default:
		return t, nil // string, bool or nil
	}
}

// UnmarshalJSON decodes a JSON object into m, replacing its contents.
func (m *Map) UnmarshalJSON(data []byte) error {
	v, err := Decode(data)
	if err != nil {
		return err
	}
	src, ok := v.(*Map)
	if !ok {
		return fmt.Errorf("cannot decode JSON %s into an object", kind(v))
	}
	*m = *src
	return nil
}

// MarshalJSON encodes m compactly, keys in order.
func (m *Map) MarshalJSON() ([]byte, error) {
	return Encode(m)
}

// Encode returns the compact JSON form of v, with keys of *Map in order and
// of map[string]any sorted, non-ASCII text and <, >, & left unescaped, and
// floats written so that they stay floats (1.0, not 1). NaN and infinities
// have no JSON form and are an error.
func Encode(v any) ([]byte, error) { return EncodeWith(v, "", nil) }

// EncodeIndent is Encode with each element on its own line, indented by
// indent per level.
func EncodeIndent(v any, indent string) ([]byte, error) { return EncodeWith(v, indent, nil) }

// EncodeWith is EncodeIndent (compact when indent is "") that asks check,
// when it is not nil, before each value and before each string it writes,
// with the size the text will have once that string is written: the
// caller's budget. A value shared many times (one long string in a list
// a thousand times) makes text far larger than the value, so the size is
// refused before the text grows, not after. Encoding stops with check's
// error.
func EncodeWith(v any, indent string, check func(size int) error) ([]byte, error) {
	e := encoder{indent: indent, check: check}
	if err := e.value(v, 0); err != nil {
		return nil, err
	}
	return e.buf.Bytes(), nil
}

// size is what the text will take once n more bytes are written: its
// length, or, when the buffer must grow for them, the buffer it grows
// to (bytes.Buffer doubles): the check weighs the memory the text
// takes, so that a text near the budget is refused before its buffer
// doubles past it, not after (clearing a gigabyte of new buffer cannot
// be interrupted, and took seconds past the deadline).
func (e *encoder) size(n int) int {
	need := e.buf.Len() + n
	if need <= e.buf.Cap() {
		return need
	}
	return max(need, 2*e.buf.Cap()+n)
}

type encoder struct {
	buf    bytes.Buffer
	indent string
	check  func(size int) error
}

// growStr asks check whether s may be written: escapes make its text up
// to six times as long (\u0001), so it is measured, when there is a
// check, rather than taken at its length.
func (e *encoder) growStr(s string) error {
	if e.check == nil {
		return nil
	}
	n := len(s) + 4 // quotes, and a colon and space after a key
	for i := 0; i < len(s); {
		switch b := s[i]; {
		case b == '"' || b == '\\' || b == '\n' || b == '\r' || b == '\t':
			n++
		case b < 0x20:
			n += 5
		case b >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				n += 5 // \ufffd
			case r == '\u2028' || r == '\u2029':
				n += 3
			}
			i += size
			continue
		}
		i++
	}
	return e.check(e.size(n))
}

// grow asks check whether the text may grow by n more bytes.
func (e *encoder) grow(n int) error {
	if e.check == nil {
		return nil
	}
	return e.check(e.size(n))
}

func (e *encoder) newline(depth int) {
	if e.indent == "" {
		return
	}
	e.buf.WriteByte('\n')
	for range depth {
		e.buf.WriteString(e.indent)
	}
}

func (e *encoder) value(v any, depth int) error {
	if depth > maxDepth {
		return ErrDepth
	}
	// A value written takes its own text plus the indentation before it.
	if err := e.grow(len(e.indent)*depth + 8); err != nil {
		return err
	}
	switch x := v.(type) {
	case nil:
		e.buf.WriteString("null")
	case bool:
		e.buf.WriteString(strconv.FormatBool(x))
	case string:
		if err := e.growStr(x); err != nil {
			return err
		}
		e.str(x)
	case int:
		e.buf.WriteString(strconv.FormatInt(int64(x), 10))
	case int64:
		e.buf.WriteString(strconv.FormatInt(x, 10))
	case int32:
		e.buf.WriteString(strconv.FormatInt(int64(x), 10))
	case uint64:
		e.buf.WriteString(strconv.FormatUint(x, 10))
	case float64:
		return e.float(x)
	case float32:
		return e.float32(x)
	case json.Number:
		if _, err := strconv.ParseFloat(string(x), 64); err != nil || !json.Valid([]byte(x)) {
			return fmt.Errorf("invalid JSON number %q", string(x))
		}
		e.buf.WriteString(x.String())
	case *Map:
		if x.Len() == 0 {
			e.buf.WriteString("{}")
			return nil
		}
		e.buf.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				e.buf.WriteByte(',')
			}
			e.newline(depth + 1)
			if err := e.growStr(k); err != nil {
				return err
			}
			e.str(k)
			e.colon()
			if err := e.value(x.vals[k], depth+1); err != nil {
				return err
			}
		}
		e.newline(depth)
		e.buf.WriteByte('}')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		m := &Map{keys: keys, vals: x}
		return e.value(m, depth)
	case []any:
		if len(x) == 0 {
			e.buf.WriteString("[]")
			return nil
		}
		e.buf.WriteByte('[')
		for i, el := range x {
			if i > 0 {
				e.buf.WriteByte(',')
			}
			e.newline(depth + 1)
			if err := e.value(el, depth+1); err != nil {
				return err
			}
		}
		e.newline(depth)
		e.buf.WriteByte(']')
	default:
		return e.reflectValue(v, depth)
	}
	return nil
}

// reflectValue handles the remaining Go types: other integer kinds, typed
// slices and maps, and anything encoding/json knows (structs with tags,
// json.Marshaler), re-decoded so that their object keys keep their order.
func (e *encoder) reflectValue(v any, depth int) error {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf.WriteString(strconv.FormatInt(rv.Int(), 10))
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.buf.WriteString(strconv.FormatUint(rv.Uint(), 10))
		return nil
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			e.buf.WriteString("null")
			return nil
		}
		if rv.Type().Elem().Kind() == reflect.Uint8 && rv.Kind() == reflect.Slice {
			if err := e.growStr(string(rv.Bytes())); err != nil {
				return err
			}
			e.str(string(rv.Bytes())) // text, as FromGo makes it a Starlark string
			return nil
		}
		list := make([]any, rv.Len())
		for i := range list {
			list[i] = rv.Index(i).Interface()
		}
		return e.value(list, depth)
	case reflect.Map:
		if rv.Type().Key().Kind() == reflect.String {
			if rv.IsNil() {
				e.buf.WriteString("null")
				return nil
			}
			m := make(map[string]any, rv.Len())
			iter := rv.MapRange()
			for iter.Next() {
				m[iter.Key().String()] = iter.Value().Interface()
			}
			return e.value(m, depth)
		}
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			e.buf.WriteString("null")
			return nil
		}
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("cannot encode %T as JSON: %w", v, err)
	}
	dv, err := Decode(data)
	if err != nil {
		return err
	}
	return e.value(dv, depth)
}

func (e *encoder) colon() {
	e.buf.WriteByte(':')
	if e.indent != "" {
		e.buf.WriteByte(' ')
	}
}

func (e *encoder) float(f float64) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("cannot encode %v as JSON", f)
	}
	e.formatFloat(f, 64)
	return nil
}

func (e *encoder) float32(f float32) error {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return fmt.Errorf("cannot encode %v as JSON", f)
	}
	e.formatFloat(float64(f), 32)
	return nil
}

// formatFloat writes plain decimals where people expect them (1234567.0,
// 0.001) and exponents only for very large or small magnitudes, like
// JavaScript; bits keeps float32 values free of widening noise.
func (e *encoder) formatFloat(f float64, bits int) {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'g'
	}
	s := strconv.FormatFloat(f, format, -1, bits)
	e.buf.WriteString(s)
	if !strings.ContainsAny(s, ".eE") {
		e.buf.WriteString(".0")
	}
}

const hex = "0123456789abcdef"

// str writes a JSON string, escaping only what JSON requires (quote,
// backslash, control characters) and invalid UTF-8, so that text in any
// language stays readable to the model.
func (e *encoder) str(s string) {
	e.buf.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			e.buf.WriteString(s[start:i])
			switch b {
			case '"', '\\':
				e.buf.WriteByte('\\')
				e.buf.WriteByte(b)
			case '\n':
				e.buf.WriteString(`\n`)
			case '\r':
				e.buf.WriteString(`\r`)
			case '\t':
				e.buf.WriteString(`\t`)
			default:
				e.buf.WriteString(`\u00`)
				e.buf.WriteByte(hex[b>>4])
				e.buf.WriteByte(hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			e.buf.WriteString(s[start:i])
			e.buf.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		// U+2028 and U+2029 are valid JSON but break JavaScript parsers
		// that some MCP clients still use.
		if r == '\u2028' || r == '\u2029' {
			e.buf.WriteString(s[start:i])
			e.buf.WriteString(`\u202`)
			e.buf.WriteByte(hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	e.buf.WriteString(s[start:])
	e.buf.WriteByte('"')
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case int64, float64:
		return "number"
	case []any:
		return "array"
	}
	return "object"
}
