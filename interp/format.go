package interp

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.yaml.in/yaml/v3"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// Format modes for __format__.
const (
	FormatJSON     = "json"      // compact JSON (default)
	FormatJSONH    = "json_h"    // JSON indented by 2 spaces
	FormatYAML     = "yaml"      // block YAML
	FormatYAMLFlow = "yaml_flow" // flow YAML
	FormatRaw      = "raw"       // Starlark repr
)

// Format renders a result value as the text the user sees. mode "" means
// json. An unknown mode renders as json and returns a one-line note.
//
// What a value looks like (SPEC §2.4), in every mode but raw:
//
//   - a str is the text itself, unquoted: the model asked for that text;
//   - int, float, bool, None, bytes and anything without a data form
//     (functions, modules, times) print as Starlark's str() does: True, 12.5,
//     None;
//   - dict, list, tuple, set, struct and GoValuer values (tool results) are
//     data: converted with ToGo and written in the mode's syntax, dict keys in
//     insertion order, non-ASCII text and <, >, & unescaped;
//   - a GoValuer whose Go form is a string (a path object) is that string,
//     and one whose Go form is another scalar prints as that scalar would.
//
// raw is Starlark's repr for everything, strings quoted.
//
// Format never fails: data that has no JSON form (a function inside a
// list, NaN, an int beyond int64) falls back to Starlark's str(), which
// shows the model exactly what it built.
func Format(v starlark.Value, mode string) (text string, note string) {
	text, note, _ = FormatBudget(nil, v, mode)
	return text, note
}

// FormatBudget is Format under a run's budget: it fails (with a budget
// sentinel, or ErrTooDeep) instead of running unbounded on a value built
// from shared parts or nested without end.
func FormatBudget(b *Budget, v starlark.Value, mode string) (text, note string, err error) {
	text, _, note, err = render(b, v, mode)
	return text, note, err
}

// render is Format that also returns v's Go form (nil when it has none),
// so a run converts its result once for both.
func render(b *Budget, v starlark.Value, mode string) (text string, g any, note string, err error) {
	switch mode {
	case "", FormatJSON, FormatJSONH, FormatYAML, FormatYAMLFlow, FormatRaw:
	default:
		// %q keeps the note on one line whatever the program assigned.
		note = fmt.Sprintf("note: unknown __format__ %q; using json (modes: json, json_h, yaml, yaml_flow, raw)", mode)
		mode = FormatJSON
	}
	if v == nil {
		v = starlark.None
	}
	g, convErr := ToGoBudget(b, v)
	if convErr != nil {
		if isBudget(convErr) {
			return "", nil, note, convErr
		}
		g = nil // no Go form: a function, a big int, a cycle
	}
	if mode == FormatRaw {
		text, err = Repr(b, v)
		return text, g, note, err
	}
	switch x := v.(type) {
	case starlark.String:
		return string(x), g, note, nil
	case *Unicode:
		return x.s, g, note, nil
	case *starlark.Dict, *starlark.List, starlark.Tuple, *starlark.Set, *starlarkstruct.Struct, GoValuer:
		if convErr == nil {
			text, ok, err := formatData(b, v, g, mode)
			if err != nil {
				return "", g, note, err
			}
			if ok {
				return text, g, note, nil
			}
		}
	}
	if _, ok := v.(ShownByRepr); ok {
		text, err = Repr(b, v)
		return text, g, note, err
	}
	text, err = Str(b, v)
	return text, g, note, err
}

// ShownByRepr is a value a run's result shows by its repr, as Python's
// REPL shows it (an instance of a program's class), though it converts
// to JSON as something else (its fields).
type ShownByRepr interface {
	starlark.Value
	ShownByRepr()
}

// isBudget reports whether err ended the run (a budget or a cancellation)
// rather than describing a value.
func isBudget(err error) bool {
	return errors.Is(err, ErrLimit) || errors.Is(err, ErrCancelled)
}

// formatData renders g, the Go form of v, in mode; false when it cannot
// (then the caller falls back to str()). It fails only when b does: the
// text of a value shared many times (one long string in a list a
// thousand times) is far larger than the value, so writing it is charged
// and its size held to the memory budget as it grows.
func formatData(b *Budget, v starlark.Value, g any, mode string) (string, bool, error) {
	if _, ok := v.(GoValuer); ok && isScalar(g) {
		// A path object or a scalar tool result: print it as the same
		// value made by the program would print, not as JSON ("x", not
		// "\"x\""; True, not true).
		if s, ok := g.(string); ok {
			return s, true, nil
		}
		sv, err := FromGo(g)
		if err != nil {
			return "", false, nil
		}
		text, err := Str(b, sv)
		if err != nil && isBudget(err) {
			return "", false, err
		}
		return text, err == nil, nil
	}

	m := &textMeter{b: b}
	var out []byte
	var err error
	switch mode {
	case FormatJSONH:
		out, err = ordered.EncodeWith(g, "  ", m.check)
	case FormatYAML:
		out, err = encodeYAML(g, false, m)
	case FormatYAMLFlow:
		out, err = encodeYAML(g, true, m)
	default:
		out, err = ordered.EncodeWith(g, "", m.check)
	}
	if m.err != nil {
		return "", false, m.err
	}
	if err != nil {
		return "", false, nil
	}
	return string(out), true, nil
}

// textMeter holds the text of a result being written to the run's
// budget: the text alone may not exceed the memory budget, and each byte
// written is charged as work, so that writing stops at the deadline too.
// A nil budget admits everything. err keeps the first refusal, for
// encoders that report a writer's error only as text.
type textMeter struct {
	b    *Budget
	last int // size at the last check
	err  error
}

func (m *textMeter) check(size int) error {
	if m.err != nil || m.b == nil {
		return m.err
	}
	n := uint64(1)
	if size > m.last {
		n += uint64(size-m.last) / 64
		m.last = size
	}
	if err := m.b.Fits(int64(size)); err != nil {
		m.err = err
		return err
	}
	if err := m.b.Charge(n); err != nil {
		m.err = err
		return err
	}
	return nil
}

// meteredText is a strings.Builder that asks a textMeter before it grows.
type meteredText struct {
	strings.Builder
	m *textMeter
}

func (w *meteredText) Write(p []byte) (int, error) {
	if err := w.m.check(w.Len() + len(p)); err != nil {
		return 0, err
	}
	return w.Builder.Write(p)
}

// isScalar reports whether g, a GoValue result, is a single value rather
// than a list or an object.
func isScalar(g any) bool {
	switch g.(type) {
	case nil, bool, string, int64, int, float64:
		return true
	case []any, *ordered.Map, map[string]any:
		return false
	}
	switch reflect.ValueOf(g).Kind() {
	case reflect.Slice, reflect.Array, reflect.Map, reflect.Struct, reflect.Pointer, reflect.Interface:
		return false
	}
	return true
}

// encodeYAML writes g as YAML, block style or, with flow, on one line.
//
// It builds a yaml.Node tree instead of handing g to yaml.Marshal, because
// that is how insertion order survives (*ordered.Map is opaque to the
// library) and how each scalar gets the exact tag that decides its quoting.
//
// The node tree takes memory of its own (a node is some 200 bytes), so
// building it is held to m as if the tree were text; the emitter writes
// through m as it goes.
func encodeYAML(g any, flow bool, m *textMeter) ([]byte, error) {
	n, err := (&yamlBuilder{m: m}).node(g, 0)
	if err != nil {
		return nil, err
	}
	if flow {
		// Collections nested in a flow collection are flow too; the emitter
		// never wraps lines (its width is unlimited by default).
		n.Style = yaml.FlowStyle
	}
	buf := meteredText{m: m}
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, fmt.Errorf("cannot encode as YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("cannot encode as YAML: %w", err)
	}
	return []byte(strings.TrimSuffix(buf.String(), "\n")), nil
}

// yamlBuilder makes the yaml.Node tree of a value, its size held to m.
type yamlBuilder struct {
	m    *textMeter
	size int // the tree's bytes so far, and its scalars'
}

// yamlNodeBytes is what one yaml.Node takes, rounded up to the
// allocator's size class.
const yamlNodeBytes = 208

// node builds the node for g, which is normally a ToGo result; other Go
// data (from a GoValuer) is first normalised through ordered's JSON.
func (y *yamlBuilder) node(g any, depth int) (*yaml.Node, error) {
	if depth > maxDepth {
		return nil, ordered.ErrDepth
	}
	y.size += yamlNodeBytes + 2*depth
	if s, ok := g.(string); ok {
		y.size += 2 * len(s) // its value, and its text when emitted
	}
	if err := y.m.check(y.size); err != nil {
		return nil, err
	}
	switch x := g.(type) {
	case nil:
		return scalarNode("!!null", "null"), nil
	case bool:
		return scalarNode("!!bool", strconv.FormatBool(x)), nil
	case int64:
		return scalarNode("!!int", strconv.FormatInt(x, 10)), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			// Same rule as JSON, so that a value renders (or falls back)
			// alike in every mode.
			return nil, fmt.Errorf("cannot encode %v as YAML", x)
		}
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return scalarNode("!!float", s), nil
	case string:
		// Invalid UTF-8 (from bytes) is replaced as ordered.Encode does;
		// yaml would otherwise refuse a !!str with it.
		n := scalarNode("!!str", strings.ToValidUTF8(x, string(utf8.RuneError)))
		if isYAML11Special(n.Value) {
			// YAML 1.2 reads these as strings and so the library leaves
			// them plain, but YAML 1.1 readers (PyYAML, and many models'
			// habits) read yes/no/on/off as booleans and 12:30 as a number.
			n.Style = yaml.DoubleQuotedStyle
		}
		return n, nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: make([]*yaml.Node, len(x))}
		for i, e := range x {
			c, err := y.node(e, depth+1)
			if err != nil {
				return nil, err
			}
			n.Content[i] = c
		}
		return n, nil
	case *ordered.Map:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: make([]*yaml.Node, 0, 2*x.Len())}
		var err error
		x.Range(func(k string, e any) bool {
			var c *yaml.Node
			if c, err = y.node(e, depth+1); err == nil {
				var key *yaml.Node
				if key, err = y.node(k, depth+1); err != nil {
					return false
				}
				if strings.Contains(k, "\n") {
					// Such a key needs YAML's "? key" form whatever its
					// style; quoted, it stays on one line.
					key.Style = yaml.DoubleQuotedStyle
				}
				n.Content = append(n.Content, key, c)
			}
			return err == nil
		})
		if err != nil {
			return nil, err
		}
		return n, nil
	}
	data, err := ordered.EncodeWith(g, "", y.m.check)
	if err != nil {
		return nil, err
	}
	norm, err := ordered.Decode(data)
	if err != nil {
		return nil, err
	}
	return y.node(norm, depth)
}

func scalarNode(tag, value string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
}

// isYAML11Special reports whether a YAML 1.1 reader would take plain s for
// a boolean (yes, off, …) or a sexagesimal number (12:30, 1:20:00.5).
func isYAML11Special(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON",
		"n", "N", "no", "No", "NO", "off", "Off", "OFF":
		return true
	}
	// [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i == len(s) || !isASCIIDigit(s[i]) {
		return false
	}
	for i < len(s) && (isASCIIDigit(s[i]) || s[i] == '_') {
		i++
	}
	groups := 0
	for i < len(s) && s[i] == ':' {
		i++
		j := i
		for i < len(s) && isASCIIDigit(s[i]) && i-j < 2 {
			i++
		}
		switch {
		case i == j:
			return false
		case i-j == 2 && s[j] > '5':
			return false
		}
		groups++
	}
	if groups == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && (isASCIIDigit(s[i]) || s[i] == '_') {
			i++
		}
	}
	return i == len(s)
}

func isASCIIDigit(c byte) bool { return '0' <= c && c <= '9' }
