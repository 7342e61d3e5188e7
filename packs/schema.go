package packs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kaptinlin/jsonschema"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// SchemaError reports a schema that cannot be compiled. Its text names the
// tool and which of its schemas is at fault:
//
//	text.slugify: invalid input schema: unresolved $ref "#/$defs/missing"
type SchemaError struct {
	ToolID string
	Which  string // "input" or "output"
	Detail string
	Err    error // the underlying cause, if any
}

func (e *SchemaError) Error() string {
	return fmt.Sprintf("%s: invalid %s schema: %s", e.ToolID, e.Which, e.Detail)
}

// Unwrap makes errors.Is match ErrSchema and the cause.
func (e *SchemaError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrSchema, e.Err}
	}
	return []error{ErrSchema}
}

// toolError is an error whose text is complete on its own but which still
// matches a sentinel with errors.Is.
type toolError struct {
	msg      string
	sentinel error
}

func (e *toolError) Error() string { return e.msg }
func (e *toolError) Unwrap() error { return e.sentinel }

func newToolError(sentinel error, format string, args ...any) error {
	return &toolError{msg: fmt.Sprintf(format, args...), sentinel: sentinel}
}

// noParameters is the input schema of a tool with InputSchema "": an
// object with no properties, and nothing else allowed.
const noParameters = `{"type":"object","properties":{},"additionalProperties":false}`

// errRemoteRef is what the loaders installed on every compiler return: a
// tool's schema is compiled from its own text only, never from the network.
var errRemoteRef = errors.New("remote $ref refused")

// compileValidator parses and compiles one schema of tool id. which is
// "input" or "output"; an input schema must describe an object.
func compileValidator(id, which, text string, input bool) (*validator, error) {
	fail := func(err error, format string, args ...any) error {
		return &SchemaError{ToolID: id, Which: which, Detail: fmt.Sprintf(format, args...), Err: err}
	}
	if input && strings.TrimSpace(text) == "" {
		text = noParameters
	}
	root, err := decodeSchema([]byte(text))
	if err != nil {
		return nil, fail(err, "%v", err)
	}
	switch r := root.(type) {
	case bool:
		if input && !r {
			return nil, fail(nil, "false accepts no arguments at all")
		}
	case *ordered.Map:
		if input {
			if t, ok := r.Get("type"); ok && t != "object" && !slices.Contains(asList(t), any("object")) {
				return nil, fail(nil, "the root must have type \"object\", not %s", literal(normalize(t)))
			}
		}
	default:
		return nil, fail(nil, "a schema must be a JSON object or a boolean")
	}
	if err := checkSchema(root); err != nil {
		return nil, fail(err, "%v", err)
	}

	c := jsonschema.NewCompiler()
	refuse := func(string) (io.ReadCloser, error) { return nil, errRemoteRef }
	c.RegisterLoader("http", refuse)
	c.RegisterLoader("https", refuse)
	slow, err := c.Compile([]byte(text))
	if err != nil {
		return nil, fail(err, "%v", err)
	}
	if refs := slow.UnresolvedReferenceURIs(); len(refs) > 0 {
		return nil, fail(nil, "unresolved $ref %q", refs[0])
	}

	v := &validator{root: root, slow: slow}
	if input {
		v.rootName = "args"
	} else {
		v.rootName = "result"
	}
	v.fast, _ = compileFast(root, true)
	return v, nil
}

// decodeSchema parses schema text keeping object key order (properties
// become parameters in declared order) and the exact text of numbers (so
// that bounds compare exactly as the JSON Schema library compares them).
func decodeSchema(data []byte) (any, error) {
	v, err := ordered.DecodeNumbers(data)
	if err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	return v, nil
}

// normalize returns a deep copy of a decoded schema value in which every
// json.Number is an int64 (when it is an integer that fits) or a float64,
// the forms values take everywhere else in onetool.
func normalize(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	case *ordered.Map:
		out := ordered.NewMap(x.Len())
		x.Range(func(k string, v any) bool {
			out.Set(k, normalize(v))
			return true
		})
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	}
	return v
}

func asList(v any) []any {
	list, _ := v.([]any)
	return list
}

// get returns m[key] when it is present and of type T.
func get[T any](m *ordered.Map, key string) (T, bool) {
	v, ok := m.Get(key)
	if !ok {
		var zero T
		return zero, false
	}
	t, ok := v.(T)
	return t, ok
}

// Keywords whose value is one subschema, a map of them, or a list of them.
var (
	schemaKeywords     = []string{"items", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "additionalItems", "contains", "propertyNames", "not", "if", "then", "else", "contentSchema"}
	schemaMapKeywords  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
	schemaListKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
)

// walkSchema calls f for node and every subschema below it, with the JSON
// pointer of each; it stops at the first error.
func walkSchema(node any, ptr string, f func(m *ordered.Map, ptr string) error) error {
	m, ok := node.(*ordered.Map)
	if !ok {
		return nil
	}
	if err := f(m, ptr); err != nil {
		return err
	}
	for _, k := range schemaKeywords {
		if v, ok := m.Get(k); ok {
			if err := walkSchema(v, ptr+"/"+k, f); err != nil {
				return err
			}
		}
	}
	for _, k := range schemaMapKeywords {
		if sub, ok := get[*ordered.Map](m, k); ok {
			for _, name := range sub.Keys() {
				v, _ := sub.Get(name)
				if err := walkSchema(v, ptr+"/"+k+"/"+escapePointer(name), f); err != nil {
					return err
				}
			}
		}
	}
	for _, k := range schemaListKeywords {
		if list, ok := get[[]any](m, k); ok {
			for i, v := range list {
				if err := walkSchema(v, ptr+"/"+k+"/"+strconv.Itoa(i), f); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

var jsonTypes = map[string]bool{
	"null": true, "boolean": true, "object": true, "array": true,
	"number": true, "string": true, "integer": true,
}

// checkSchema catches mistakes the JSON Schema library accepts silently
// (an unknown type name validates nothing) and refuses references to
// documents outside the schema before the library tries to fetch them.
func checkSchema(root any) error {
	ids := map[string]bool{}
	_ = walkSchema(root, "", func(m *ordered.Map, _ string) error {
		if id, ok := get[string](m, "$id"); ok {
			ids[strings.TrimSuffix(id, "#")] = true
		}
		return nil
	})
	return walkSchema(root, "", func(m *ordered.Map, ptr string) error {
		at := func(kw string) string {
			if ptr == "" {
				return kw
			}
			return ptr + "/" + kw
		}
		if t, ok := m.Get("type"); ok {
			names, isList := t.([]any)
			if !isList {
				names = []any{t}
			}
			for _, n := range names {
				s, _ := n.(string)
				if !jsonTypes[s] {
					return fmt.Errorf("%s: unknown type %s (want one of string, integer, number, boolean, null, array, object)",
						at("type"), literal(normalize(n)))
				}
			}
		}
		for _, kw := range []string{"minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"} {
			if v, ok := m.Get(kw); ok {
				if _, ok := count(v); !ok {
					return fmt.Errorf("%s: must be a non-negative integer, not %s", at(kw), literal(normalize(v)))
				}
			}
		}
		if p, ok := get[string](m, "pattern"); ok {
			if _, err := regexp.Compile(p); err != nil {
				return fmt.Errorf("%s: %w", at("pattern"), err)
			}
		}
		for _, kw := range []string{"$ref", "$dynamicRef"} {
			if ref, ok := get[string](m, kw); ok && isRemoteRef(ref, ids) {
				return fmt.Errorf("%s: remote $ref %q is not allowed: a schema may only refer to itself (\"#/$defs/...\")", at(kw), ref)
			}
		}
		return nil
	})
}

// isRemoteRef reports whether ref names another document by absolute URI
// (one not defined by an $id inside the schema itself).
func isRemoteRef(ref string, ids map[string]bool) bool {
	u, err := url.Parse(ref)
	if err != nil || u.Scheme == "" {
		return false // relative: the library resolves it or reports it unresolved
	}
	base := ref
	if i := strings.IndexByte(base, '#'); i >= 0 {
		base = base[:i]
	}
	return !ids[base]
}

// count returns a schema's non-negative integer keyword value.
func count(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil && i >= 0 && i <= math.MaxInt32 {
		return int(i), true
	}
	// 3.0 is an integer too.
	if f, err := strconv.ParseFloat(string(n), 64); err == nil && f >= 0 && f <= math.MaxInt32 && f == math.Trunc(f) {
		return int(f), true
	}
	return 0, false
}

// resolveRef returns the subschema a local reference ("#", "#/$defs/x")
// points to within root.
func resolveRef(root any, ref string) (any, bool) {
	if ref == "#" {
		return root, true
	}
	ptr, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil, false
	}
	cur := root
	for _, tok := range strings.Split(ptr, "/") {
		tok, _ = url.PathUnescape(tok)
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case *ordered.Map:
			v, ok := c.Get(tok)
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}
