package snippets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/flosch/pongo2/v6"
	"go.starlark.net/syntax"
)

// pongo2 v6 keeps filters in one package-level map: the parser binds a
// filter by name when it compiles a template, and there is no per-set
// registry (a TemplateSet can only ban filters). Our four filters therefore
// have to be registered globally, once, before our first template is
// parsed. registerOnce is the only package-level mutable state here, and it
// exists because of that registry.
//
// Consequences worth knowing:
//   - pongo2 already has a `split` (plain strings.Split, empty items kept);
//     ours replaces it process-wide with the trimming, empty-dropping one that
//     SPEC §5.2 defines. Nothing else in onetool uses pongo2.
//   - The map is unguarded in pongo2, so registration must not overlap any
//     parse. sync.Once makes every Compile wait until registration finished,
//     and Compile parses only after that.
var registerOnce sync.Once

func registerFilters() {
	registerOnce.Do(func() {
		setFilter("split", filterSplit)
		setFilter("trim", filterTrim)
		setFilter("tojson", filterToJSON)
		setFilter("starlark", filterStarlark)
	})
}

// setFilter registers or replaces a filter. Both pongo2 calls fail only on
// the existence check made just before, so their errors cannot happen.
func setFilter(name string, fn pongo2.FilterFunction) {
	if pongo2.FilterExists(name) {
		_ = pongo2.ReplaceFilter(name, fn)
		return
	}
	_ = pongo2.RegisterFilter(name, fn)
}

// filterSplit: "a, b,,c"|split:"," → ["a", "b", "c"]. Items are trimmed and
// empty ones dropped, because the input is typed by a model or a person
// ("react, vue,"). The separator defaults to ","; a list input is split item
// by item and flattened.
func filterSplit(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	sep := ","
	if s := param.String(); s != "" {
		sep = s
	}
	out := []string{}
	for _, s := range stringItems(in) {
		for _, part := range strings.Split(s, sep) {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return pongo2.AsValue(out), nil
}

// filterTrim: " x "|trim → "x"; with an argument, the characters to cut
// ("--x--"|trim:"-" → "x"). A list is trimmed item by item.
func filterTrim(in, param *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	cut := param.String()
	trim := func(s string) string {
		if cut == "" {
			return strings.TrimSpace(s)
		}
		return strings.Trim(s, cut)
	}
	if isList(in) {
		items := stringItems(in)
		for i := range items {
			items[i] = trim(items[i])
		}
		return pongo2.AsValue(items), nil
	}
	return pongo2.AsValue(trim(in.String())), nil
}

// filterToJSON renders a value as compact JSON without HTML escaping ("<"
// stays "<": the output is code, not HTML). Maps come out with sorted keys.
func filterToJSON(in, _ *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	v, err := normalize(in, 0)
	if err != nil {
		return nil, filterError("tojson", err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(jsonable(v)); err != nil {
		return nil, filterError("tojson", err)
	}
	return pongo2.AsSafeValue(strings.TrimSuffix(buf.String(), "\n")), nil
}

// filterStarlark renders a value as a Starlark literal; see StarlarkLiteral.
func filterStarlark(in, _ *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	s, err := starlarkLiteral(in)
	if err != nil {
		return nil, filterError("starlark", err)
	}
	return pongo2.AsSafeValue(s), nil
}

// StarlarkLiteral returns v written as a Starlark literal, as the `starlark`
// filter does: strings double-quoted with every quote, backslash, control and
// non-printable character escaped (each byte of invalid UTF-8 becomes U+FFFD), so the
// result is always exactly one string literal, whatever the text; integers;
// floats (always with a '.' or exponent; float("nan") and float("inf") for
// the non-finite ones); True/False; None for nil; lists for slices; dicts
// with sorted keys for maps. Other types are an error.
func StarlarkLiteral(v any) (string, error) { return starlarkLiteral(v) }

func starlarkLiteral(v any) (string, error) {
	n, err := normalize(v, 0)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	writeStarlark(&b, n)
	return b.String(), nil
}

func filterError(name string, err error) *pongo2.Error {
	return &pongo2.Error{Sender: "filter:" + name, OrigError: fmt.Errorf("%s filter: %w", name, err)}
}

// maxDepth bounds nesting, which also stops self-referencing maps.
const maxDepth = 64

// mapEntries is a normalised map: the key order is decided by each writer.
type mapEntries []mapEntry

type mapEntry struct{ key, value any }

// normalize reduces a template value to nil, bool, int64, uint64, float64,
// string, []byte, []any or mapEntries, unwrapping pongo2 values and pointers.
func normalize(v any, depth int) (any, error) {
	if depth > maxDepth {
		return nil, errors.New("value is nested too deeply")
	}
	switch x := v.(type) {
	case nil:
		return nil, nil
	case *pongo2.Value:
		if x == nil {
			return nil, nil
		}
		return normalize(x.Interface(), depth+1)
	case string, bool, []byte:
		return x, nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return rv.Uint(), nil
	case reflect.Float32, reflect.Float64:
		return rv.Float(), nil
	case reflect.String:
		return rv.String(), nil
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil, nil
		}
		return normalize(rv.Elem().Interface(), depth+1)
	case reflect.Slice, reflect.Array:
		out := make([]any, rv.Len())
		for i := range out {
			e, err := normalize(rv.Index(i).Interface(), depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	case reflect.Map:
		out := make(mapEntries, 0, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			k, err := normalize(it.Key().Interface(), depth+1)
			if err != nil {
				return nil, err
			}
			val, err := normalize(it.Value().Interface(), depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, mapEntry{k, val})
		}
		return out, nil
	}
	if s, ok := v.(fmt.Stringer); ok { // time.Time and friends: their text
		return s.String(), nil
	}
	return nil, fmt.Errorf("cannot write a %T as a literal", v)
}

// writeStarlark writes a normalised value as a Starlark literal.
func writeStarlark(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case uint64:
		b.WriteString(strconv.FormatUint(x, 10))
	case float64:
		b.WriteString(starlarkFloat(x))
	case string:
		// syntax.Quote escapes quotes, backslashes and every non-printable
		// rune, but writes invalid UTF-8 as \xNN, which a Starlark string
		// literal rejects; replacing those bytes first keeps it a literal.
		b.WriteString(syntax.Quote(validUTF8(x), false))
	case []byte:
		b.WriteString(syntax.Quote(string(x), true)) // bytes literals accept \xNN
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeStarlark(b, e)
		}
		b.WriteByte(']')
	case mapEntries:
		type kv struct{ key, value string }
		items := make([]kv, len(x))
		for i, e := range x {
			var k, val strings.Builder
			writeStarlark(&k, e.key)
			writeStarlark(&val, e.value)
			items[i] = kv{k.String(), val.String()}
		}
		sort.Slice(items, func(i, j int) bool { return items[i].key < items[j].key })
		b.WriteByte('{')
		for i, it := range items {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(it.key)
			b.WriteString(": ")
			b.WriteString(it.value)
		}
		b.WriteByte('}')
	}
}

// validUTF8 replaces each byte of invalid UTF-8 with U+FFFD, as ranging over
// the string does, and as encoding/json does, so that tojson and starlark
// agree on such text.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}

// starlarkFloat writes f so that Starlark reads it back as a float: "5.0",
// not "5" (an int), and expressions for the values without a literal.
func starlarkFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return `float("nan")`
	case math.IsInf(f, 1):
		return `float("inf")`
	case math.IsInf(f, -1):
		return `-float("inf")`
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// jsonable turns a normalised value into what encoding/json writes as
// intended: map keys become strings, bytes become text.
func jsonable(v any) any {
	switch x := v.(type) {
	case []byte:
		return string(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonable(e)
		}
		return out
	case mapEntries:
		out := make(map[string]any, len(x))
		for _, e := range x {
			k, ok := e.key.(string)
			if !ok {
				k = fmt.Sprint(e.key)
			}
			out[k] = jsonable(e.value)
		}
		return out
	}
	return v
}

// isList reports whether a pongo2 value is a slice or array (not a string).
func isList(v *pongo2.Value) bool {
	if v.IsNil() || v.IsString() {
		return false
	}
	k := reflect.ValueOf(v.Interface()).Kind()
	return k == reflect.Slice || k == reflect.Array
}

// stringItems returns the items of a list value as text, or a string value
// as its only item; nil has none.
func stringItems(v *pongo2.Value) []string {
	if v.IsNil() {
		return nil
	}
	if !isList(v) {
		return []string{v.String()}
	}
	items := make([]string, v.Len())
	for i := range items {
		items[i] = v.Index(i).String()
	}
	return items
}
