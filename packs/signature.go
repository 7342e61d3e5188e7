package packs

import (
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// renderSignature writes the typed stub models see:
//
//	file.read(path: str, offset: int = 1, limit: int = 2000) -> str
//
// Optional parameters without a default show "= None": leaving them out
// (or passing None) lets the tool decide.
func renderSignature(t *Tool, st *toolState) string {
	var b strings.Builder
	b.WriteString(t.ID())
	b.WriteByte('(')
	for i, p := range st.params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.Name)
		b.WriteString(": ")
		b.WriteString(p.Type)
		switch {
		case p.Required: // a default does not make a required parameter optional
		case p.HasDefault:
			b.WriteString(" = ")
			b.WriteString(literal(p.Default))
		default:
			b.WriteString(" = None")
		}
	}
	b.WriteString(") -> ")
	b.WriteString(returnType(t, st))
	return b.String()
}

// returnType is Returns, else the output schema's type, else any.
func returnType(t *Tool, st *toolState) string {
	switch {
	case t.Returns != "":
		return t.Returns
	case st.output != nil:
		return typeStub(st.output.root, st.output.root, 0)
	}
	return "any"
}

// renderDoc writes the help text of a tool:
//
//	demo.items(count: int = 3) -> list[dict]
//
//	Return count items, each {"id": n, "name": "item<n>"}.
//
//	Parameters:
//	  count (int, default 3): How many items. Must be >= 0, <= 1000.
//
//	Examples:
//	  demo.items(count=2)
//	  # → [{"id":1,"name":"item1"},{"id":2,"name":"item2"}]
func renderDoc(t *Tool, st *toolState) string {
	var b strings.Builder
	b.WriteString(st.signature)
	if d := strings.TrimSpace(t.Description); d != "" {
		b.WriteString("\n\n")
		b.WriteString(d)
	}
	if len(st.params) > 0 {
		b.WriteString("\n\nParameters:")
		for _, p := range st.params {
			b.WriteString("\n  ")
			b.WriteString(p.Name)
			b.WriteString(" (")
			b.WriteString(p.Type)
			switch {
			case p.Required:
				b.WriteString(", required")
			case p.HasDefault:
				b.WriteString(", default ")
				b.WriteString(literal(p.Default))
			default:
				b.WriteString(", optional")
			}
			b.WriteString(")")
			var notes []string
			if d := strings.TrimSpace(p.Description); d != "" {
				notes = append(notes, strings.Join(strings.Fields(d), " "))
			}
			if len(p.Enum) > 0 {
				vals := make([]string, len(p.Enum))
				for i, v := range p.Enum {
					vals[i] = literal(v)
				}
				notes = append(notes, "One of "+strings.Join(vals, ", ")+".")
			}
			if c := constraints(p.Schema); c != "" {
				notes = append(notes, "Must be "+c+".")
			}
			if len(p.Synonyms) > 0 {
				notes = append(notes, "Also accepted as: "+strings.Join(p.Synonyms, ", ")+".")
			}
			if len(notes) > 0 {
				b.WriteString(": ")
				b.WriteString(strings.Join(notes, " "))
			}
		}
	}
	if len(t.Examples) > 0 {
		b.WriteString("\n\nExamples:")
		for i, ex := range t.Examples {
			if d := strings.TrimSpace(ex.Description); d != "" {
				if i > 0 {
					b.WriteString("\n") // set the described example apart
				}
				writeIndented(&b, d, "  # ")
			}
			writeIndented(&b, strings.TrimSpace(ex.Code), "  ")
			if r := strings.TrimSpace(ex.Result); r != "" {
				writeIndented(&b, "→ "+r, "  # ")
			}
		}
	}
	return b.String()
}

func writeIndented(b *strings.Builder, text, prefix string) {
	for _, line := range strings.Split(text, "\n") {
		b.WriteString("\n")
		b.WriteString(strings.TrimRight(prefix+line, " "))
	}
}

// constraints summarises a parameter's numeric, length and pattern
// limits: ">= 0, <= 1000".
func constraints(node *ordered.Map) string {
	var parts []string
	for _, c := range []struct{ kw, op, one, many string }{
		{kw: "minimum", op: ">="}, {kw: "exclusiveMinimum", op: ">"},
		{kw: "maximum", op: "<="}, {kw: "exclusiveMaximum", op: "<"},
		{kw: "minLength", op: "at least", one: "character long", many: "characters long"},
		{kw: "maxLength", op: "at most", one: "character long", many: "characters long"},
		{kw: "minItems", op: "at least", one: "item", many: "items"},
		{kw: "maxItems", op: "at most", one: "item", many: "items"},
		{kw: "pattern", op: "matching"},
	} {
		v, ok := node.Get(c.kw)
		if !ok {
			continue
		}
		switch v.(type) {
		case int64, float64, string:
		default:
			continue // draft-04 boolean exclusive bounds
		}
		text := c.op + " " + literal(v)
		if c.many != "" {
			text += " " + plural(int(toFloat(v)), c.one, c.many)
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, ", ")
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

// typeStub renders a schema as a Starlark type: str, int, float, bool,
// None, list[str], dict, str | None, any. root is the whole schema, for
// local $ref; depth guards against reference cycles.
func typeStub(node, root any, depth int) string {
	m, ok := node.(*ordered.Map)
	if !ok || depth > 8 {
		return "any"
	}
	if ref, ok := get[string](m, "$ref"); ok {
		if target, ok := resolveRef(root, ref); ok {
			return typeStub(target, root, depth+1)
		}
		return "any"
	}
	if t, ok := m.Get("type"); ok {
		names, isList := t.([]any)
		if !isList {
			names = []any{t}
		}
		var stubs []string
		for _, n := range names {
			s, _ := n.(string)
			stubs = append(stubs, simpleStub(s, m, root, depth))
		}
		return union(stubs)
	}
	if list, ok := get[[]any](m, "enum"); ok {
		return union(valueStubs(list))
	}
	if c, ok := m.Get("const"); ok {
		return union(valueStubs([]any{c}))
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if list, ok := get[[]any](m, kw); ok {
			var stubs []string
			for _, sub := range list {
				stubs = append(stubs, strings.Split(typeStub(sub, root, depth+1), " | ")...)
			}
			return union(stubs)
		}
	}
	return "any"
}

func simpleStub(jsonType string, m *ordered.Map, root any, depth int) string {
	switch jsonType {
	case "array":
		if items, ok := m.Get("items"); ok {
			if inner := typeStub(items, root, depth+1); inner != "any" {
				return "list[" + inner + "]"
			}
		}
		return "list"
	case "":
		return "any"
	}
	return starlarkType(jsonType)
}

// valueStubs returns the types of enum or const values.
func valueStubs(values []any) []string {
	var stubs []string
	for _, v := range values {
		switch x := normalize(v).(type) {
		case nil:
			stubs = append(stubs, "None")
		case bool:
			stubs = append(stubs, "bool")
		case string:
			stubs = append(stubs, "str")
		case int64:
			stubs = append(stubs, "int")
		case float64:
			stubs = append(stubs, "float")
		case []any:
			stubs = append(stubs, "list")
		case *ordered.Map:
			stubs = append(stubs, "dict")
		default:
			_ = x
			stubs = append(stubs, "any")
		}
	}
	return stubs
}

// union joins distinct type stubs with " | ", None last (str | None);
// any absorbs everything.
func union(stubs []string) string {
	var out []string
	hasNone := false
	for _, s := range stubs {
		switch {
		case s == "any":
			return "any"
		case s == "None":
			hasNone = true
		case !slices.Contains(out, s):
			out = append(out, s)
		}
	}
	if hasNone {
		out = append(out, "None")
	}
	if len(out) == 0 {
		return "any"
	}
	return strings.Join(out, " | ")
}

// literal renders a value as Starlark source: "x", 3, 2.5, True, None,
// [1, 2], {"a": 1}.
func literal(v any) string {
	var b strings.Builder
	writeLiteral(&b, v, 0)
	return b.String()
}

func writeLiteral(b *strings.Builder, v any, depth int) {
	if depth > 50 {
		b.WriteString("...")
		return
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case string:
		b.WriteString(quote(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(floatLiteral(x))
	case json.Number:
		writeLiteral(b, normalize(x), depth)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeLiteral(b, e, depth+1)
		}
		b.WriteByte(']')
	case *ordered.Map:
		b.WriteByte('{')
		for i, k := range x.Keys() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(quote(k))
			b.WriteString(": ")
			e, _ := x.Get(k)
			writeLiteral(b, e, depth+1)
		}
		b.WriteByte('}')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(quote(k))
			b.WriteString(": ")
			writeLiteral(b, x[k], depth+1)
		}
		b.WriteByte('}')
	default:
		data, err := ordered.Encode(x)
		if err != nil {
			b.WriteString("None")
			return
		}
		d, _ := ordered.Decode(data)
		writeLiteral(b, d, depth+1)
	}
}

// floatLiteral writes a float as Starlark's str() does: always with a
// decimal point or exponent, so that it reads back as a float.
func floatLiteral(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return `float("inf")`
	case math.IsInf(f, -1):
		return `float("-inf")`
	case math.IsNaN(f):
		return `float("nan")`
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// quote writes a Starlark string literal. Go's escapes are a subset of
// Starlark's, so strconv.Quote serves.
func quote(s string) string { return strconv.Quote(s) }

// IsIdentifier reports whether s is a Starlark (and Python) identifier of
// ASCII letters, digits and underscores: a name a stub writes bare.
func IsIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// Literal renders a value as Starlark source, as stubs show defaults:
// "x", 3, 2.5, True, None, [1, 2], {"a": 1}.
func Literal(v any) string { return literal(v) }
