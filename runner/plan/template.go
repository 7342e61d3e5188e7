package plan

// Templates let a step's arguments read the results of the steps it depends
// on. Grammar, inside any string of Step.Args (nested maps and lists too):
//
//	${step[N]<path>}     the result of the step at index N
//	${steps.ID<path>}    the result of the step with that id (or index)
//	${steps[N]<path>}    same as step[N]
//
// <path> is a sequence of segments: .name (a key of a map), [N] (an element
// of a list; negative N counts from the end), .* or [*] (every element of a
// list: the rest of the path applies to each one and the values come back
// as a list). The first key chooses a field of the step's result: data, id,
// tool, status or attempts. A string that is exactly one template takes the
// referenced value with its type; templates within a longer string are
// replaced by the value's text (strings as is, anything else as compact
// JSON). Text like ${HOME} that does not start with step[, steps. or steps[
// is not a template and stays as written.

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/interp/ordered"
)

type segKind uint8

const (
	segKey segKind = iota
	segIndex
	segWild
)

// segment is one step of a template path.
type segment struct {
	kind  segKind
	key   string
	index int
}

// ref is one parsed template.
type ref struct {
	raw     string // the template as written, ${...} included
	byIndex bool   // step[N] rather than steps.ID
	step    string // the id as written (steps.ID), or the index digits
	index   int    // the index when byIndex
	path    []segment
}

// piece is a run of literal text or a template.
type piece struct {
	lit string
	ref *ref
}

// resultFields are the fields a template may read from a step result.
var resultFields = []string{"data", "id", "tool", "status", "attempts"}

// parseString splits s into literal text and templates. It returns nil
// pieces when s holds no template.
func parseString(s string) ([]piece, error) {
	if !strings.Contains(s, "${") {
		return nil, nil
	}
	var pieces []piece
	found := false
	lit := strings.Builder{}
	rest := s
	for {
		open := strings.Index(rest, "${")
		if open < 0 {
			lit.WriteString(rest)
			break
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			lit.WriteString(rest)
			break
		}
		if inner := strings.LastIndex(rest[open+2:open+end], "${"); inner >= 0 {
			// "${ and ${steps.s0.data}": the template is the last "${".
			lit.WriteString(rest[:open+2+inner])
			rest = rest[open+2+inner:]
			continue
		}
		raw := rest[open : open+end+1]
		inner := strings.TrimSpace(raw[2 : len(raw)-1])
		if !isTemplate(inner) {
			lit.WriteString(rest[:open+end+1])
			rest = rest[open+end+1:]
			continue
		}
		r, err := parseRef(inner)
		if err != nil {
			return nil, fmt.Errorf("%w %s: %v", ErrBadTemplate, raw, err)
		}
		r.raw = raw
		lit.WriteString(rest[:open])
		if lit.Len() > 0 {
			pieces = append(pieces, piece{lit: lit.String()})
			lit.Reset()
		}
		pieces = append(pieces, piece{ref: r})
		found = true
		rest = rest[open+end+1:]
	}
	if !found {
		return nil, nil
	}
	if lit.Len() > 0 {
		pieces = append(pieces, piece{lit: lit.String()})
	}
	return pieces, nil
}

func isTemplate(inner string) bool {
	return strings.HasPrefix(inner, "step[") || strings.HasPrefix(inner, "steps.") || strings.HasPrefix(inner, "steps[")
}

// parseRef parses the inside of ${...}, known to start with a step reference.
func parseRef(s string) (*ref, error) {
	r := &ref{}
	switch {
	case strings.HasPrefix(s, "steps."):
		s = s[len("steps."):]
		n := strings.IndexAny(s, ".[")
		if n < 0 {
			n = len(s)
		}
		if n == 0 {
			return nil, errors.New("empty step id after steps.")
		}
		r.step, s = s[:n], s[n:]
	default: // step[ or steps[
		s = s[strings.IndexByte(s, '[')+1:]
		n := strings.IndexByte(s, ']')
		if n < 0 {
			return nil, errors.New("missing ] after step index")
		}
		i, err := strconv.Atoi(s[:n])
		if err != nil || i < 0 {
			return nil, fmt.Errorf("step index %q is not a non-negative integer", s[:n])
		}
		r.byIndex, r.step, r.index, s = true, s[:n], i, s[n+1:]
	}
	for s != "" {
		switch s[0] {
		case '.':
			s = s[1:]
			n := strings.IndexAny(s, ".[]")
			if n < 0 {
				n = len(s)
			}
			switch name := s[:n]; name {
			case "":
				return nil, errors.New("empty key after .")
			case "*":
				r.path = append(r.path, segment{kind: segWild})
			default:
				r.path = append(r.path, segment{kind: segKey, key: name})
			}
			s = s[n:]
		case '[':
			n := strings.IndexByte(s, ']')
			if n < 0 {
				return nil, errors.New("missing ]")
			}
			in := strings.TrimSpace(s[1:n])
			if in == "*" {
				r.path = append(r.path, segment{kind: segWild})
			} else {
				i, err := strconv.Atoi(in)
				if err != nil {
					return nil, fmt.Errorf("list index %q is not an integer (use .name for map keys)", in)
				}
				r.path = append(r.path, segment{kind: segIndex, index: i})
			}
			s = s[n+1:]
		default:
			return nil, fmt.Errorf("unexpected %q: path segments are .name, [N] or *", s)
		}
	}
	return r, nil
}

// name is how messages spell the referenced step.
func (r *ref) name() string {
	if r.byIndex {
		return "step[" + r.step + "]"
	}
	return "steps." + r.step
}

// lookupRef finds the step a template refers to.
func lookupRef(g *graph, r *ref) (int, error) {
	if r.byIndex {
		if r.index >= len(g.ids) {
			return -1, fmt.Errorf("%w: %s, but the plan has %d steps", ErrMissingStep, r.name(), len(g.ids))
		}
		return r.index, nil
	}
	i, ok := g.lookup(r.step)
	if !ok {
		msg := fmt.Sprintf("no step has id %q", r.step)
		if s := suggest.Closest(r.step, g.ids); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		return -1, fmt.Errorf("%w: %s", ErrMissingStep, msg)
	}
	return i, nil
}

// resolveArgs returns a copy of args with every template replaced, reading
// step results through result. The error names the failing template.
func resolveArgs(args map[string]any, g *graph, result func(int) *StepResult) (map[string]any, error) {
	if args == nil {
		return nil, nil
	}
	v, err := resolveValue(args, g, result)
	if err != nil {
		return nil, err
	}
	return v.(map[string]any), nil
}

func resolveValue(v any, g *graph, result func(int) *StepResult) (any, error) {
	switch x := v.(type) {
	case string:
		return resolveString(x, g, result)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			r, err := resolveValue(e, g, result)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case *ordered.Map:
		out := ordered.NewMap(x.Len())
		var err error
		x.Range(func(k string, e any) bool {
			var r any
			r, err = resolveValue(e, g, result)
			out.Set(k, r)
			return err == nil
		})
		return out, err
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			r, err := resolveValue(e, g, result)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	case []string:
		out := make([]any, len(x))
		changed := false
		for i, e := range x {
			r, err := resolveString(e, g, result)
			if err != nil {
				return nil, err
			}
			if s, ok := r.(string); !ok || s != e {
				changed = true
			}
			out[i] = r
		}
		if !changed {
			return slices.Clone(x), nil
		}
		return out, nil
	}
	return ordered.Clone(v), nil
}

// resolveString replaces the templates of s. A string that is exactly one
// template yields the value itself, with its type.
func resolveString(s string, g *graph, result func(int) *StepResult) (any, error) {
	pieces, err := parseString(s)
	if err != nil || pieces == nil {
		return s, err
	}
	if len(pieces) == 1 && pieces[0].ref != nil {
		v, err := evalRef(pieces[0].ref, g, result)
		if err != nil {
			return nil, err
		}
		return ordered.Clone(v), nil
	}
	var b strings.Builder
	for _, p := range pieces {
		if p.ref == nil {
			b.WriteString(p.lit)
			continue
		}
		v, err := evalRef(p.ref, g, result)
		if err != nil {
			return nil, err
		}
		b.WriteString(text(v))
	}
	return b.String(), nil
}

// text is how an interpolated value reads inside a longer string.
func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if b, err := ordered.Encode(v); err == nil {
		return string(b)
	}
	return fmt.Sprint(v)
}

// evalRef returns the value a template points at.
func evalRef(r *ref, g *graph, result func(int) *StepResult) (any, error) {
	v, err := evalRefRaw(r, g, result)
	if err != nil {
		return nil, fmt.Errorf("template %s: %w", r.raw, err)
	}
	return v, nil
}

func evalRefRaw(r *ref, g *graph, result func(int) *StepResult) (any, error) {
	i, err := lookupRef(g, r)
	if err != nil {
		return nil, err
	}
	res := result(i)
	if res == nil {
		return nil, fmt.Errorf("%w: %s has not run", ErrMissingStep, r.name())
	}
	root := ordered.NewMap(len(resultFields))
	root.Set("data", res.Data)
	root.Set("id", res.ID)
	root.Set("tool", res.Tool)
	root.Set("status", string(res.Status))
	root.Set("attempts", res.Attempts)
	return walk(root, r.path, r.name())
}

// walk follows path from v; where spells the path walked so far.
func walk(v any, path []segment, where string) (any, error) {
	for n, seg := range path {
		switch seg.kind {
		case segKey:
			next, err := key(v, seg.key, where)
			if err != nil {
				return nil, err
			}
			v, where = next, where+"."+seg.key
		case segIndex:
			next, err := index(v, seg.index, where)
			if err != nil {
				return nil, err
			}
			v, where = next, where+"["+strconv.Itoa(seg.index)+"]"
		case segWild:
			list, ok := asList(v)
			if !ok {
				return nil, fmt.Errorf("%w: %s is %s", ErrWildcardNotList, where, describe(v))
			}
			out := make([]any, len(list))
			for i, e := range list {
				r, err := walk(e, path[n+1:], where+"["+strconv.Itoa(i)+"]")
				if err != nil {
					return nil, err
				}
				out[i] = r
			}
			return out, nil
		}
	}
	return v, nil
}

func key(v any, k, where string) (any, error) {
	var keys []string
	switch m := v.(type) {
	case *ordered.Map:
		if e, ok := m.Get(k); ok {
			return e, nil
		}
		keys = m.Keys()
	case map[string]any:
		if e, ok := m[k]; ok {
			return e, nil
		}
		for mk := range m {
			keys = append(keys, mk)
		}
		slices.Sort(keys)
	default:
		rv := reflect.ValueOf(v)
		if rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String {
			return nil, fmt.Errorf("%w: %s is %s, not a map: cannot read .%s", ErrMissingPath, where, describe(v), k)
		}
		if e := rv.MapIndex(reflect.ValueOf(k).Convert(rv.Type().Key())); e.IsValid() {
			return e.Interface(), nil
		}
		for _, mk := range rv.MapKeys() {
			keys = append(keys, mk.String())
		}
		slices.Sort(keys)
	}
	msg := fmt.Sprintf("%s has no key %q", where, k)
	if s := suggest.Closest(k, keys); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	if len(keys) > 10 {
		msg += fmt.Sprintf("; keys: %s, …", strings.Join(keys[:10], ", "))
	} else if len(keys) > 0 {
		msg += "; keys: " + strings.Join(keys, ", ")
	}
	return nil, fmt.Errorf("%w: %s", ErrMissingPath, msg)
}

func index(v any, i int, where string) (any, error) {
	list, ok := asList(v)
	if !ok {
		return nil, fmt.Errorf("%w: %s is %s, not a list: cannot read [%d]", ErrMissingPath, where, describe(v), i)
	}
	j := i
	if j < 0 {
		j += len(list)
	}
	if j < 0 || j >= len(list) {
		return nil, fmt.Errorf("%w: %s[%d], but the list has %d items", ErrIndexOutOfRange, where, i, len(list))
	}
	return list[j], nil
}

// asList returns v as a []any when it is a list of any element type.
func asList(v any) ([]any, bool) {
	if l, ok := v.([]any); ok {
		return l, true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return nil, false
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out, true
}

// describe names the kind of v for error messages.
func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a bool"
	case *ordered.Map, map[string]any:
		return "a map"
	case []any:
		return "a list"
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Map:
		return "a map"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an int"
	case reflect.Float32, reflect.Float64:
		return "a float"
	}
	return fmt.Sprintf("a %T", v)
}

// walkStrings calls f for every string in v (maps, lists, *ordered.Map),
// in a stable order, stopping at the first error.
func walkStrings(v any, f func(string) error) error {
	switch x := v.(type) {
	case string:
		return f(x)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if err := walkStrings(x[k], f); err != nil {
				return err
			}
		}
	case *ordered.Map:
		var err error
		x.Range(func(_ string, e any) bool {
			err = walkStrings(e, f)
			return err == nil
		})
		return err
	case []any:
		for _, e := range x {
			if err := walkStrings(e, f); err != nil {
				return err
			}
		}
	case []string:
		for _, e := range x {
			if err := f(e); err != nil {
				return err
			}
		}
	}
	return nil
}
