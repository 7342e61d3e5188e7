package packs

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kaptinlin/jsonschema"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/interp/ordered"
)

// validator checks values against one compiled schema. It has two
// engines: fast, a validator of our own for the common subset of JSON
// Schema (nil when the schema uses anything else), and slow, the
// kaptinlin/jsonschema library for the whole language. fast costs tens of
// nanoseconds where slow costs microseconds; slow also takes over for
// values fast does not know (typed Go slices, json.Number, NaN). Both
// report problems in the same words, so which one ran never shows.
type validator struct {
	root     any // the schema as decoded by decodeSchema, for messages
	rootName string
	fast     *fastSchema

	// slow caches compiled regular expressions inside the schema on first
	// use, without synchronisation: calls are serialised.
	mu   sync.Mutex
	slow *jsonschema.Schema
}

// ValidateInput checks arguments (as returned by Bind) against the input
// schema. The error is a *ValidationError wrapping ErrValidation that lists
// every failing path:
//
//	demo.items: invalid arguments: args.count: must be >= 0
//	Signature: demo.items(count: int = 3) -> list[dict]
func (t *Tool) ValidateInput(args map[string]any) error {
	st, err := t.compiled()
	if err != nil {
		return err
	}
	if args == nil {
		args = map[string]any{}
	}
	problems := st.input.check(args)
	if problems == nil {
		return nil
	}
	return &ValidationError{ToolID: t.ID(), Problems: problems, Signature: st.signature}
}

// ValidateOutput checks a handler's result against the output schema; nil
// when the tool has none. The error wraps ErrOutputValidation:
//
//	demo.items: invalid result: result[0].id: must be int, got str
func (t *Tool) ValidateOutput(v any) error {
	st, err := t.compiled()
	if err != nil {
		return err
	}
	if st.output == nil {
		return nil
	}
	problems := st.output.check(v)
	if problems == nil {
		return nil
	}
	return &ValidationError{ToolID: t.ID(), Output: true, Problems: problems}
}

// check returns the problems of x, sorted, or nil when x is valid.
func (v *validator) check(x any) []Problem {
	if v.fast != nil {
		if problems, ok := v.fastCheck(x); ok {
			return problems
		}
		// Typed Go values (a handler's []string, a caller's json.Number)
		// have a JSON form the fast engine knows.
		if c, ok := canonical(x); ok {
			if problems, ok := v.fastCheck(c); ok {
				return problems
			}
		}
	}
	return v.slowCheck(x)
}

// canonical returns x in the forms JSON decoding produces (*ordered.Map,
// []any, int64, float64, string, bool, nil), by a round trip through JSON.
// ok is false for values with no JSON form (NaN, channels).
func canonical(x any) (any, bool) {
	data, err := ordered.Encode(x)
	if err != nil {
		return nil, false
	}
	c, err := ordered.Decode(data)
	return c, err == nil
}

// fastCheck validates with the fast engine; ok is false when x holds a
// value that engine does not handle.
func (v *validator) fastCheck(x any) (problems []Problem, ok bool) {
	valid, supported := v.fast.valid(x)
	if !supported {
		return nil, false
	}
	if valid {
		return nil, true
	}
	var out []problem
	if !v.fast.explain(x, nil, &out) {
		return nil, false
	}
	return v.render(out), true
}

// slowCheck validates with the JSON Schema library.
func (v *validator) slowCheck(x any) []Problem {
	plain := forLibrary(x)
	v.mu.Lock()
	res := v.slow.Validate(plain)
	v.mu.Unlock()
	if res.IsValid() {
		return nil
	}
	w := slowWalker{root: v.root}
	w.walk(res, v.root, plain, nil, nil)
	if len(w.out) == 0 {
		// Should not happen; never report an invalid value without a reason.
		msg := "does not match the schema"
		for _, e := range res.Errors {
			msg = lowerFirst(e.Error())
			break
		}
		w.out = append(w.out, problem{msg: msg})
	}
	return v.render(w.out)
}

// forLibrary returns x in the forms the library understands: JSON forms
// (it does not look inside typed slices) with map[string]any for objects
// (it takes *ordered.Map for a struct). Values already in those forms,
// the usual case, are passed as they are.
func forLibrary(x any) any {
	hasOrdered, foreign := scan(x, 0)
	if foreign {
		if c, ok := canonical(x); ok {
			return ordered.Plain(c)
		}
	}
	if hasOrdered || foreign {
		return ordered.Plain(x)
	}
	return x
}

// scan reports whether x holds an *ordered.Map, and whether it holds
// anything but JSON forms.
func scan(x any, depth int) (hasOrdered, foreign bool) {
	if depth > 1000 {
		return false, true
	}
	switch v := x.(type) {
	case nil, bool, string, int64, float64:
	case []any:
		for _, e := range v {
			o, f := scan(e, depth+1)
			hasOrdered, foreign = hasOrdered || o, foreign || f
		}
	case map[string]any:
		for _, e := range v {
			o, f := scan(e, depth+1)
			hasOrdered, foreign = hasOrdered || o, foreign || f
		}
	case *ordered.Map:
		hasOrdered = true
		v.Range(func(_ string, e any) bool {
			_, f := scan(e, depth+1)
			foreign = foreign || f
			return true
		})
	default:
		foreign = true
	}
	return hasOrdered, foreign
}

// problem is a Problem before rendering: its path is kept as segments so
// that sorting puts args.items[2] before args.items[10].
type problem struct {
	path    []seg
	keyword string
	msg     string
}

// seg is one step of a path: an object key or an array index.
type seg struct {
	key   string
	index int
	isIdx bool
}

func appendSeg(path []seg, s seg) []seg {
	return append(path[:len(path):len(path)], s) // never share a backing array
}

func (v *validator) render(in []problem) []Problem {
	slices.SortFunc(in, func(a, b problem) int {
		if c := comparePaths(a.path, b.path); c != 0 {
			return c
		}
		if c := cmp.Compare(a.keyword, b.keyword); c != 0 {
			return c
		}
		return cmp.Compare(a.msg, b.msg)
	})
	out := make([]Problem, 0, len(in))
	for i, p := range in {
		if i > 0 && comparePaths(p.path, in[i-1].path) == 0 && p.keyword == in[i-1].keyword && p.msg == in[i-1].msg {
			continue
		}
		out = append(out, Problem{Path: renderPath(v.rootName, p.path), Keyword: p.keyword, Message: p.msg})
	}
	return out
}

func comparePaths(a, b []seg) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		switch {
		case x.isIdx && y.isIdx:
			if c := cmp.Compare(x.index, y.index); c != 0 {
				return c
			}
		case x.isIdx != y.isIdx:
			if x.isIdx {
				return -1
			}
			return 1
		default:
			if c := cmp.Compare(x.key, y.key); c != 0 {
				return c
			}
		}
	}
	return cmp.Compare(len(a), len(b))
}

// renderPath writes a path the way Starlark would reach the value:
// args.opts.name, args.items[0], args["content-type"].
func renderPath(root string, path []seg) string {
	var b strings.Builder
	b.WriteString(root)
	for _, s := range path {
		switch {
		case s.isIdx:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		case IsIdentifier(s.key):
			b.WriteByte('.')
			b.WriteString(s.key)
		default:
			b.WriteByte('[')
			b.WriteString(quote(s.key))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// The words of validation messages, shared by both engines.
const (
	msgRequired = "is required"
	msgFalse    = "is not allowed"
)

// starlarkTypes maps JSON Schema type names to the names models see in
// signatures.
var starlarkTypes = map[string]string{
	"string": "str", "integer": "int", "number": "float", "boolean": "bool",
	"null": "None", "array": "list", "object": "dict", "unknown": "a value with no JSON form",
}

func starlarkType(jsonType string) string {
	if s, ok := starlarkTypes[jsonType]; ok {
		return s
	}
	return jsonType
}

func msgType(expected []string, got string) string {
	names := make([]string, len(expected))
	for i, e := range expected {
		names[i] = starlarkType(e)
	}
	return "must be " + strings.Join(names, " or ") + ", got " + starlarkType(got)
}

// msgEnum and msgConst render the allowed values from the schema node, as
// Starlark literals.
func msgEnum(values []any) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = literal(normalize(v))
	}
	return "must be one of " + strings.Join(parts, ", ")
}

func msgConst(v any) string { return "must be " + literal(normalize(v)) }

func msgBound(op, text string) string { return "must be " + op + " " + text }

func msgLength(atLeast bool, n string) string {
	return "must be " + msgCount(atLeast, n, "character", "characters") + " long"
}

func msgItems(atLeast bool, n string) string {
	return "must have " + msgCount(atLeast, n, "item", "items")
}

func msgCount(atLeast bool, n, one, many string) string {
	word := "at most"
	if atLeast {
		word = "at least"
	}
	noun := many
	if n == "1" {
		noun = one
	}
	return word + " " + n + " " + noun
}

func msgPattern(p string) string { return "must match the pattern " + quote(p) }

// msgUnknownProperty names a property an object schema does not allow,
// with the closest declared one when there is a plausible match.
func msgUnknownProperty(name string, declared []string) string {
	if s := suggest.Closest(name, declared); s != "" {
		return "unknown property (did you mean '" + s + "'?)"
	}
	return "unknown property"
}

func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}

// slowWalker turns the library's result tree into problems. The tree
// nests one result per schema applied, with the instance location
// relative to the parent; the leaves carry the real failures, the inner
// nodes summaries ("Properties 'a', 'b' do not match their schemas") that
// are dropped once their details have been reported.
type slowWalker struct {
	root any
	out  []problem
}

// descend lists the keywords whose subresults are real failures of the
// instance. Subresults of anyOf, oneOf, not, if and contains are
// alternatives that were allowed to fail; only their summary counts.
var descend = map[string]bool{
	"properties": true, "patternProperties": true, "additionalProperties": true,
	"unevaluatedProperties": true, "dependentSchemas": true,
	"items": true, "prefixItems": true, "additionalItems": true, "unevaluatedItems": true,
	"allOf": true, "then": true, "else": true,
	"$ref": true, "$dynamicRef": true,
}

// walk reports the failures of res, the result of applying node (which
// may be nil when it could not be located) to inst at path. declared is
// set when node was reached through additionalProperties: the parent
// object's property names, for "unknown property" messages.
func (w *slowWalker) walk(res *jsonschema.EvaluationResult, node, inst any, path []seg, declared []string) {
	m, _ := node.(*ordered.Map)
	covered := map[string]bool{}
	for _, d := range res.Details {
		if d.Valid {
			continue
		}
		kw, rest := splitEvalPath(d.EvaluationPath)
		if kw == "" { // a reference applied to the same instance
			var target any
			if ref, ok := get[string](m, "$ref"); ok {
				target, _ = resolveRef(w.root, ref)
			}
			n := len(w.out)
			w.walk(d, target, inst, path, nil)
			covered["$ref"] = covered["$ref"] || len(w.out) > n
			covered["$dynamicRef"] = covered["$ref"]
			continue
		}
		if !descend[kw] {
			continue
		}
		childInst, childPath, ok := childOf(inst, path, d.InstanceLocation)
		if !ok {
			// The library also applies a property's schema to null when a
			// required property is absent; "is required" says it better.
			covered[kw] = true
			continue
		}
		var childDeclared []string
		if kw == "additionalProperties" || kw == "unevaluatedProperties" {
			childDeclared = propertyNames(m)
		}
		n := len(w.out)
		w.walk(d, childSchema(m, kw, rest), childInst, childPath, childDeclared)
		covered[kw] = covered[kw] || len(w.out) > n
	}
	for kw, e := range res.Errors {
		if descend[kw] && covered[kw] {
			continue
		}
		w.report(kw, e, m, inst, path, declared)
	}
}

func (w *slowWalker) add(path []seg, keyword, msg string) {
	w.out = append(w.out, problem{path: path, keyword: keyword, msg: msg})
}

// report turns one library error into problems, in the words the fast
// engine uses.
func (w *slowWalker) report(kw string, e *jsonschema.EvaluationError, m *ordered.Map, inst any, path []seg, declared []string) {
	param := func(name string) string {
		switch v := e.Params[name].(type) {
		case string:
			return v
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64)
		case nil:
			return ""
		default:
			return literal(v)
		}
	}
	switch e.Code {
	case "false_schema_mismatch":
		if declared != nil && len(path) > 0 {
			w.add(path, "additionalProperties", msgUnknownProperty(path[len(path)-1].key, declared))
		} else {
			w.add(path, "false", msgFalse)
		}
	case "missing_required_property", "missing_required_properties":
		for _, name := range missingRequired(m, inst, e) {
			w.add(appendSeg(path, seg{key: name}), "required", msgRequired)
		}
	case "type_mismatch":
		w.add(path, "type", msgType(strings.Split(param("expected"), ", "), param("received")))
	case "value_not_in_enum":
		if list, ok := get[[]any](m, "enum"); ok {
			w.add(path, "enum", msgEnum(list))
		} else {
			w.add(path, "enum", "must be one of: "+param("expected"))
		}
	case "const_mismatch", "const_mismatch_null":
		if c, ok := m.Get("const"); ok {
			w.add(path, "const", msgConst(c))
		} else {
			w.add(path, "const", lowerFirst(e.Error()))
		}
	case "value_below_minimum":
		w.add(path, "minimum", msgBound(">=", param("minimum")))
	case "value_above_maximum":
		w.add(path, "maximum", msgBound("<=", param("maximum")))
	case "exclusive_minimum_mismatch":
		w.add(path, "exclusiveMinimum", msgBound(">", param("exclusive_minimum")))
	case "exclusive_maximum_mismatch":
		w.add(path, "exclusiveMaximum", msgBound("<", param("exclusive_maximum")))
	case "string_too_short":
		w.add(path, "minLength", msgLength(true, param("min_length")))
	case "string_too_long":
		w.add(path, "maxLength", msgLength(false, param("max_length")))
	case "pattern_mismatch":
		w.add(path, "pattern", msgPattern(param("pattern")))
	case "items_too_short":
		w.add(path, "minItems", msgItems(true, param("min_items")))
	case "items_too_long":
		w.add(path, "maxItems", msgItems(false, param("max_items")))
	default:
		w.add(path, kw, lowerFirst(e.Error()))
	}
}

// missingRequired lists the required properties absent from inst, from
// the schema when it could be located, else from the error's parameters.
func missingRequired(m *ordered.Map, inst any, e *jsonschema.EvaluationError) []string {
	obj, _ := inst.(map[string]any)
	var names []string
	if list, ok := get[[]any](m, "required"); ok {
		for _, r := range list {
			if name, ok := r.(string); ok {
				if _, present := obj[name]; !present {
					names = append(names, name)
				}
			}
		}
	}
	if len(names) > 0 {
		return names
	}
	text, _ := e.Params["property"].(string)
	if text == "" {
		text, _ = e.Params["properties"].(string)
	}
	for _, part := range strings.Split(text, ", ") {
		names = append(names, strings.TrimSuffix(strings.TrimPrefix(part, "'"), "'"))
	}
	return names
}

// splitEvalPath splits a subresult's relative evaluation path
// ("/properties/name", "/items/3", "") into the keyword and the rest. The
// rest is kept whole: the library does not escape "/" in property names.
func splitEvalPath(p string) (kw, rest string) {
	p = strings.TrimPrefix(p, "/")
	kw, rest, _ = strings.Cut(p, "/")
	return kw, rest
}

// childOf steps from inst into the subresult's instance location, which
// is relative: "" (the same value), "/name" or "/3". ok is false when the
// location names a property inst does not have.
func childOf(inst any, path []seg, loc string) (any, []seg, bool) {
	if loc == "" {
		return inst, path, true
	}
	step := loc[1:]
	switch x := inst.(type) {
	case map[string]any:
		v, ok := x[step]
		return v, appendSeg(path, seg{key: step}), ok
	case []any:
		i, err := strconv.Atoi(step)
		if err != nil || i < 0 || i >= len(x) {
			return nil, nil, false
		}
		return x[i], appendSeg(path, seg{index: i, isIdx: true}), true
	}
	return nil, nil, false
}

// childSchema locates the subschema a subresult applied, for messages
// that quote the schema (enum, const, required). nil when unknown.
func childSchema(m *ordered.Map, kw, rest string) any {
	v, ok := m.Get(kw)
	if !ok {
		return nil
	}
	switch kw {
	case "properties", "patternProperties", "dependentSchemas":
		sub, _ := v.(*ordered.Map)
		child, _ := sub.Get(rest)
		return child
	case "prefixItems", "allOf":
		list, _ := v.([]any)
		if i, err := strconv.Atoi(rest); err == nil && i >= 0 && i < len(list) {
			return list[i]
		}
		return nil
	case "items":
		if list, isList := v.([]any); isList { // draft-07 tuple form
			if i, err := strconv.Atoi(rest); err == nil && i >= 0 && i < len(list) {
				return list[i]
			}
			return nil
		}
		return v
	}
	return v
}

func propertyNames(m *ordered.Map) []string {
	props, _ := get[*ordered.Map](m, "properties")
	names := props.Keys()
	if names == nil {
		return []string{}
	}
	return names
}
