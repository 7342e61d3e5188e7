package toolpack

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"

	"github.com/onetool-dev/onetool/internal/yamltree"
)

// jsonValue converts the value at n to the Go form of JSON that
// ordered.Encode writes: *ordered.Map in written order, []any, string,
// bool, nil, and json.Number carrying the number's exact text (JSON
// Schema compares bounds exactly, so 0.1 must stay 0.1).
func (r *reader) jsonValue(n *node, at path) (any, bool) {
	switch n.Kind {
	case yamltree.MappingNode:
		m := ordered.NewMap(len(n.Pairs))
		ok := true
		for _, p := range n.Pairs {
			v, good := r.jsonValue(p.Val, at.With(p.Key))
			ok = ok && good
			m.Set(p.Key, v)
		}
		return m, ok
	case yamltree.ListNode:
		list := make([]any, len(n.Items))
		ok := true
		for i, item := range n.Items {
			v, good := r.jsonValue(item, at.Index(i))
			ok = ok && good
			list[i] = v
		}
		return list, ok
	}
	switch n.Tag {
	case yamltree.TagStr:
		return n.Value, true
	case yamltree.TagInt, yamltree.TagFloat:
		num := n.Number()
		if num == "" {
			r.fail(n, at, "%s is not a number JSON can hold", n.Value)
			return nil, false
		}
		return json.Number(num), true
	case yamltree.TagBool:
		b, ok := parseBool(n.Value)
		if !ok {
			r.fail(n, at, "want true or false, got %s", yamltree.Describe(n))
		}
		return b, ok
	}
	return nil, true
}

// schema reads a JSON Schema written as a YAML mapping (or JSON object) and
// returns it as JSON text with its keys in written order, which is what
// makes the order of `properties` the order of the tool's parameters. root
// is the decoded form, nil for a boolean schema. A schema that is written
// correctly but does not compile is found later, by packs.Tool.Compile.
func (r *reader) schema(n *node, at path) (text string, root *ordered.Map, ok bool) {
	if n.IsNull() {
		return "", nil, false
	}
	if n.Kind != yamltree.MappingNode && (n.Kind != yamltree.ScalarNode || n.Tag != yamltree.TagBool) {
		r.fail(n, at, "want a JSON Schema (a mapping such as {type: object, properties: {...}}), got %s", yamltree.Describe(n))
		return "", nil, false
	}
	v, ok := r.jsonValue(n, at)
	if !ok {
		return "", nil, false
	}
	data, err := ordered.Encode(v)
	if err != nil {
		// jsonValue only builds what Encode accepts; this is a guard
		// against nesting deeper than Encode allows.
		r.fail(n, at, "cannot be written as JSON: %v", err)
		return "", nil, false
	}
	root, _ = v.(*ordered.Map)
	return string(data), root, true
}

// schemaFieldLines says where each schema was written, so that an error
// from compiling it points at the right field and line.
type schemaFieldLines struct {
	input, output int
}

// compileError turns an error from packs.Tool.Compile into a load error on
// the field at fault: input_schema or output_schema for a schema that does
// not compile (its message without the tool id, which the file already
// names), the tool itself otherwise.
func (r *reader) compileError(err error, at path, toolLine int, lines schemaFieldLines) {
	var se *packs.SchemaError
	if errors.As(err, &se) {
		field, line := "input_schema", lines.input
		if se.Which == "output" {
			field, line = "output_schema", lines.output
		}
		r.errs.add(&ToolpackValidationError{File: r.file, Line: line, Field: at.With(field).String(), Msg: se.Detail, Err: err})
		return
	}
	r.errs.add(&ToolpackValidationError{File: r.file, Line: toolLine, Field: at.String(), Msg: err.Error(), Err: err})
}

// synonymEntry is one line of `synonyms:`: a parameter and the other
// names it accepts, with where each was written.
type synonymEntry struct {
	param string
	line  int
	names []string
	lines []int
}

// checkSynonyms checks synonyms against the parameters of the input
// schema (its properties and required names). packs.Tool.Compile checks
// the same, but here each problem gets its own line and a did-you-mean.
func (r *reader) checkSynonyms(entries []synonymEntry, root *ordered.Map, at path) bool {
	var params []string
	if props, ok := root.Get("properties"); ok {
		if m, ok := props.(*ordered.Map); ok {
			params = append(params, m.Keys()...)
		}
	}
	if req, ok := root.Get("required"); ok {
		if list, ok := req.([]any); ok {
			for _, v := range list {
				if s, ok := v.(string); ok && !slices.Contains(params, s) {
					params = append(params, s)
				}
			}
		}
	}
	ok := true
	owner := map[string]string{} // synonym → its parameter
	for _, e := range entries {
		kp := at.With(e.param)
		if !slices.Contains(params, e.param) {
			ok = false
			if len(params) == 0 {
				r.errs.at(r.file, e.line, kp, "input_schema declares no parameters")
				continue
			}
			r.errs.at(r.file, e.line, kp, "no parameter '%s' in input_schema%s (parameters: %s)",
				e.param, didYouMeanKey(e.param, params), describeList(params))
			continue
		}
		for i, name := range e.names {
			switch other, taken := owner[name]; {
			case slices.Contains(params, name):
				r.errs.at(r.file, e.lines[i], kp.Index(i), "'%s' is already a parameter", name)
				ok = false
			case taken:
				r.errs.at(r.file, e.lines[i], kp.Index(i), "'%s' is already a synonym of '%s'", name, other)
				ok = false
			default:
				owner[name] = e.param
			}
		}
	}
	return ok
}

// didYouMeanKey is didYouMean for names shown in single quotes (keys and
// parameters, as the rest of onetool shows them).
func didYouMeanKey(name string, candidates []string) string {
	if s := suggest.Closest(name, candidates); s != "" {
		return fmt.Sprintf("; did you mean '%s'?", s)
	}
	return ""
}
