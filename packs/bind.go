package packs

import (
	"slices"
	"strings"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/interp/ordered"
)

// NamedArg is one keyword argument of a call, in the order written.
type NamedArg struct {
	Name  string
	Value any
}

// Bind matches a call's arguments to the tool's parameters and returns the
// arguments map a handler receives: a new map (the inputs are never
// modified) with defaults filled in for absent optional parameters that
// declare one.
//
// Positional arguments bind in signature order. A keyword resolves to a
// parameter by exact name, then by a declared synonym, then as the unique
// prefix of a parameter name (lim= for limit=). An explicit None for an
// optional parameter whose schema does not accept null counts as absent,
// as "= None" in the signature promises.
//
// Errors are *ArgError values wrapping ErrArgs, written for the model:
//
//	file.read: unknown parameter 'filepath'. Did you mean 'path'? Signature: file.read(path: str, ...) -> str
//
// Bind does not validate values; ValidateInput does.
func (t *Tool) Bind(positional []any, named []NamedArg) (map[string]any, error) {
	st, err := t.compiled()
	if err != nil {
		return nil, err
	}
	if len(positional) > len(st.params) {
		return nil, st.argError(t, &ArgError{Kind: ArgTooMany, Max: len(st.params), Given: len(positional)})
	}
	out := make(map[string]any, len(st.params))
	for i, v := range positional {
		out[st.params[i].Name] = v
	}
	for _, a := range named {
		name, err := st.resolve(t, a.Name)
		if err != nil {
			return nil, err
		}
		if _, dup := out[name]; dup {
			return nil, st.argError(t, &ArgError{Kind: ArgDuplicate, Name: name})
		}
		out[name] = a.Value
	}
	return st.finish(t, out)
}

// BindMap is Bind for keyword arguments given as a map, as Go callers
// have them. Arguments that all use exact parameter names (the usual
// case) bind without sorting or conversion; otherwise they bind like
// Bind with the keys in sorted order, so errors are deterministic.
func (t *Tool) BindMap(args map[string]any) (map[string]any, error) {
	st, err := t.compiled()
	if err != nil {
		return nil, err
	}
	out := make(map[string]any, len(st.params))
	for k, v := range args {
		if _, ok := st.index[k]; !ok {
			return t.bindSorted(args)
		}
		out[k] = v
	}
	return st.finish(t, out)
}

func (t *Tool) bindSorted(args map[string]any) (map[string]any, error) {
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	named := make([]NamedArg, len(keys))
	for i, k := range keys {
		named[i] = NamedArg{Name: k, Value: args[k]}
	}
	return t.Bind(nil, named)
}

// finish drops None for parameters where None means "absent", fills
// defaults and reports missing required parameters.
func (st *toolState) finish(t *Tool, out map[string]any) (map[string]any, error) {
	var missing []string
	for i := range st.params {
		p := &st.params[i]
		v, present := out[p.Name]
		if present && v == nil && !p.Required && p.noneIsAbsent {
			delete(out, p.Name)
			present = false
		}
		switch {
		case present:
		case p.Required:
			missing = append(missing, p.Name)
		case p.HasDefault:
			out[p.Name] = cloneDefault(p.Default)
		}
	}
	if missing != nil {
		return nil, st.argError(t, &ArgError{Kind: ArgMissing, Missing: missing})
	}
	return out, nil
}

// resolve finds the parameter a keyword names.
func (st *toolState) resolve(t *Tool, name string) (string, error) {
	if _, ok := st.index[name]; ok {
		return name, nil
	}
	if i, ok := st.synonyms[name]; ok {
		return st.params[i].Name, nil
	}
	var matches []string
	for i := range st.params {
		if strings.HasPrefix(st.params[i].Name, name) && name != "" {
			matches = append(matches, st.params[i].Name)
		}
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		if st.open {
			return name, nil // the schema takes undeclared properties
		}
		e := &ArgError{Kind: ArgUnknown, Name: name}
		if s := suggest.Closest(name, st.candidates); s != "" {
			e.Suggestion = st.owner[s]
		}
		return "", st.argError(t, e)
	}
	slices.Sort(matches)
	return "", st.argError(t, &ArgError{Kind: ArgAmbiguous, Name: name, Candidates: matches})
}

func (st *toolState) argError(t *Tool, e *ArgError) error {
	e.ToolID = t.ID()
	e.Signature = st.signature
	return e
}

// cloneDefault gives each call its own copy of a list or dict default, so
// that a handler that modifies it cannot change the next call's default.
func cloneDefault(v any) any {
	switch v.(type) {
	case []any, *ordered.Map, map[string]any:
		return ordered.Clone(v)
	}
	return v
}

// BindsExactly reports whether a call with n positional arguments and the
// keywords named binds by exact names alone, gives no parameter two
// values and leaves no required one without: the usual call, which a
// check before a run confirms without building the arguments (Bind says
// what is wrong with the others). When it does, each is called with every
// argument's index (positional ones first, then named in order) and the
// parameter it binds to.
func (t *Tool) BindsExactly(n int, named []string, each func(arg int, param string)) bool {
	st, err := t.compiled()
	if err != nil || n > len(st.params) {
		return false
	}
	missing := 0
	for i := n; i < len(st.params); i++ {
		if st.params[i].Required {
			missing++
		}
	}
	for j, k := range named {
		i, ok := st.index[k]
		if !ok || i < n || slices.Contains(named[:j], k) {
			return false
		}
		if st.params[i].Required {
			missing--
		}
	}
	if missing != 0 {
		return false
	}
	for i := range n {
		each(i, st.params[i].Name)
	}
	for j, k := range named {
		each(n+j, k)
	}
	return true
}
