package packs

import (
	"strings"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// The catalog's types (issue 29): richer than typeStub's, for stub lines
// an agent reads instead of a tool's whole help. An enum is
// Literal["a", "b"], an object with properties {key: type}, an object of
// data-named keys dict[str, T]. They stay short: past MaxStubType
// characters the deepest level gives way to its plain type (dict, str),
// until the type fits.

// MaxStubType is about how long a parameter's or result's type may be in
// a stub line.
const MaxStubType = 80

// Limits of one level of a catalog type.
const (
	stubMaxKeys    = 8  // an object's keys shown before "…"
	stubMaxLiteral = 8  // enum values shown as a Literal; more: the plain type
	stubMaxDepth   = 3  // nesting levels rendered; deeper ones: dict, list
	stubLiteralLen = 48 // characters of a Literal[...]; longer: the plain type
)

// catalogType renders a schema node for a stub line, within MaxStubType
// characters where it can: it gives up nesting levels, deepest first.
func catalogType(node, root any) string {
	var s string
	for depth := stubMaxDepth; depth >= 0; depth-- {
		s = richStub(node, root, 0, depth)
		if len(s) <= MaxStubType {
			return s
		}
	}
	return s
}

// richStub is typeStub with Literal, {key: type} and dict[str, T]; levels
// below max are rendered as typeStub does. refs counts $ref hops, against
// cycles.
func richStub(node, root any, level, max int) string {
	m, ok := node.(*ordered.Map)
	if !ok || level > 8 {
		return "any"
	}
	if level > max {
		return typeStub(node, root, level)
	}
	if ref, ok := get[string](m, "$ref"); ok {
		if target, ok := resolveRef(root, ref); ok {
			return richStub(target, root, level+1, max+1)
		}
		return "any"
	}
	if list, ok := get[[]any](m, "enum"); ok {
		if lit, ok := literalType(list); ok {
			return lit
		}
	}
	if c, ok := m.Get("const"); ok {
		if lit, ok := literalType([]any{c}); ok {
			return lit
		}
	}
	if t, ok := m.Get("type"); ok {
		names, isList := t.([]any)
		if !isList {
			names = []any{t}
		}
		var stubs []string
		for _, n := range names {
			s, _ := n.(string)
			stubs = append(stubs, richSimple(s, m, root, level, max))
		}
		return union(stubs)
	}
	if _, ok := get[*ordered.Map](m, "properties"); ok {
		return richSimple("object", m, root, level, max) // an object that omits "type"
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if list, ok := get[[]any](m, kw); ok {
			var stubs []string
			for _, sub := range list {
				stubs = append(stubs, splitUnion(richStub(sub, root, level+1, max+1))...)
			}
			return union(stubs)
		}
	}
	return typeStub(node, root, level)
}

// splitUnion splits "a | b" at its top level only: "{x: int | None}" is one.
func splitUnion(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '{', '(':
			depth++
		case ']', '}', ')':
			depth--
		case '|':
			if depth == 0 && i > 0 && s[i-1] == ' ' {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

func richSimple(jsonType string, m *ordered.Map, root any, level, max int) string {
	switch jsonType {
	case "array":
		if items, ok := m.Get("items"); ok {
			if inner := richStub(items, root, level+1, max); inner != "any" {
				return "list[" + inner + "]"
			}
		}
		return "list"
	case "object":
		props, _ := get[*ordered.Map](m, "properties")
		if props == nil || props.Len() == 0 {
			if ap, ok := get[*ordered.Map](m, "additionalProperties"); ok {
				if inner := richStub(ap, root, level+1, max); inner != "any" {
					return "dict[str, " + inner + "]"
				}
			}
			return "dict"
		}
		if level >= max {
			return "dict"
		}
		var b strings.Builder
		b.WriteByte('{')
		for i, k := range props.Keys() {
			if i > 0 {
				b.WriteString(", ")
			}
			if i == stubMaxKeys {
				b.WriteString("…")
				break
			}
			if IsIdentifier(k) {
				b.WriteString(k)
			} else {
				b.WriteString(quote(k))
			}
			b.WriteString(": ")
			v, _ := props.Get(k)
			b.WriteString(richStub(v, root, level+1, max))
		}
		b.WriteByte('}')
		return b.String()
	case "":
		return "any"
	}
	return starlarkType(jsonType)
}

// literalType is Literal["a", "b"] for a short list of scalar values
// (None among them becomes "| None"); ok is false for a list too long to
// read at a glance, or of other values.
func literalType(values []any) (string, bool) {
	if len(values) == 0 || len(values) > stubMaxLiteral {
		return "", false
	}
	var parts []string
	hasNone := false
	for _, v := range values {
		switch x := normalize(v).(type) {
		case nil:
			hasNone = true
		case string, int64, bool:
			parts = append(parts, literal(x))
		default:
			return "", false
		}
	}
	if len(parts) == 0 {
		return "None", true
	}
	s := "Literal[" + strings.Join(parts, ", ") + "]"
	if len(s) > stubLiteralLen {
		return "", false
	}
	if hasNone {
		s += " | None"
	}
	return s, true
}
