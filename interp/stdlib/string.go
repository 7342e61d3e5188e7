package stdlib

import (
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// String is the string module: its constants, capwords and Template.
func String() *starlarkstruct.Module {
	const (
		lower  = "abcdefghijklmnopqrstuvwxyz"
		upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		digits = "0123456789"
		punct  = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
		white  = " \t\n\r\x0b\x0c"
	)
	m := starlark.StringDict{
		"ascii_letters":   starlark.String(lower + upper),
		"ascii_lowercase": starlark.String(lower),
		"ascii_uppercase": starlark.String(upper),
		"digits":          starlark.String(digits),
		"hexdigits":       starlark.String(digits + "abcdefABCDEF"),
		"octdigits":       starlark.String("01234567"),
		"punctuation":     starlark.String(punct),
		"whitespace":      starlark.String(white),
		"printable":       starlark.String(digits + lower + upper + punct + white),
		"capwords":        interp.NewBuiltin("capwords", capwords),
		"Template":        templateClass,
		"Formatter":       interp.NewBuiltin("Formatter", newFormatter),
	}
	mod := &starlarkstruct.Module{Name: "string", Members: m}
	mod.Freeze()
	return mod
}

// callMethod is x.name(args...) with a program's str methods.
func callMethod(thread *starlark.Thread, x starlark.Value, name string, args ...starlark.Value) (starlark.Value, error) {
	fn, err := pyrt.GetAttr(thread, x, name)
	if err != nil {
		return nil, err
	}
	return starlark.Call(thread, fn, args, nil)
}

// capwords(s, sep=None): s.split(sep), each word capitalized, joined by
// sep or a space.
func capwords(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s, sep starlark.Value = nil, starlark.None
	if err := unpack("capwords", args, kwargs, "s", &s, "sep?", &sep); err != nil {
		return nil, err
	}
	if _, ok := interp.AsText(s); !ok {
		return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'split'", pyrt.TypeName(s))
	}
	words, err := callMethod(thread, s, "split", sep)
	if err != nil {
		return nil, err
	}
	ws, err := pyrt.Collect(thread, words)
	if err != nil {
		return nil, err
	}
	for i, w := range ws {
		if ws[i], err = callMethod(thread, w, "capitalize"); err != nil {
			return nil, err
		}
	}
	joiner := sep
	if sep == starlark.None {
		joiner = starlark.String(" ")
	}
	return callMethod(thread, joiner, "join", starlark.NewList(ws))
}

// template is string.Template(s): $name, ${name} and $$ in s.
type template struct {
	text string
	src  starlark.Value
}

func newTemplate(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s starlark.Value
	if err := unpack("Template.__init__", args, kwargs, "template", &s); err != nil {
		return nil, err
	}
	text, ok := interp.AsText(s)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "expected string or bytes-like object, got '%s'", pyrt.TypeName(s))
	}
	return &template{text: text, src: s}, nil
}

func (t *template) String() string        { return "<string.Template object>" }
func (t *template) Type() string          { return "Template" }
func (t *template) Freeze()               {}
func (t *template) Truth() starlark.Bool  { return true }
func (t *template) Hash() (uint32, error) { return starlark.String(t.text).Hash() }
func (t *template) AttrNames() []string {
	return []string{"get_identifiers", "is_valid", "safe_substitute", "substitute", "template"}
}

func (t *template) Attr(name string) (starlark.Value, error) {
	switch name {
	case "template":
		return t.src, nil
	case "get_identifiers", "is_valid":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(fn.Name(), args, kwargs, 0); err != nil {
				return nil, err
			}
			names, valid, err := t.identifiers(interp.BudgetOf(thread))
			if err != nil {
				return nil, err
			}
			if name == "is_valid" {
				return starlark.Bool(valid), nil
			}
			return names, nil
		}), nil
	case "substitute", "safe_substitute":
		safe := name == "safe_substitute"
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) > 1 {
				return nil, pyrt.Errorf("TypeError", "Too many positional arguments")
			}
			var mapping starlark.Mapping
			if len(args) == 1 {
				m, ok := args[0].(starlark.Mapping)
				if !ok {
					return nil, pyrt.Errorf("TypeError", "'%s' object is not subscriptable", pyrt.TypeName(args[0]))
				}
				mapping = m
			}
			return t.substitute(thread, mapping, kwargs, safe)
		}), nil
	}
	return nil, nil
}

func isIdentStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isIdentByte(c byte) bool { return isIdentStart(c) || '0' <= c && c <= '9' }

// templatePlaceholder reads the placeholder at s[i] == '$': "$$"
// (escaped), "$name" or "${name}" (its name), or an invalid one (no
// name); end is where it ends.
func templatePlaceholder(s string, i int) (name string, end int, escaped bool) {
	end = i + 1
	switch {
	case end < len(s) && s[end] == '$':
		return "", end + 1, true
	case end < len(s) && isIdentStart(s[end]):
		k := end
		for k < len(s) && isIdentByte(s[k]) {
			k++
		}
		return s[end:k], k, false
	case end+1 < len(s) && s[end] == '{' && isIdentStart(s[end+1]):
		k := end + 1
		for k < len(s) && isIdentByte(s[k]) {
			k++
		}
		if k < len(s) && s[k] == '}' {
			return s[end+1 : k], k + 1, false
		}
	}
	return "", end, false
}

// identifiers returns the names of the template's valid placeholders,
// each once, in order, and whether every placeholder is valid.
func (t *template) identifiers(b *interp.Budget) (*starlark.List, bool, error) {
	var names []starlark.Value // shown to the meter as they are found
	defer b.HoldValues(&names)()
	seen := map[string]bool{}
	valid := true
	s := t.text
	for i := 0; i < len(s); {
		if err := b.Charge(1); err != nil {
			return nil, false, err
		}
		j := strings.IndexByte(s[i:], '$')
		if j < 0 {
			break
		}
		name, end, escaped := templatePlaceholder(s, i+j)
		switch {
		case escaped:
		case name == "":
			valid = false
		case !seen[name]:
			seen[name] = true
			var err error
			if names, err = appendValue(b, names, interp.MakeString(name)); err != nil {
				return nil, false, err
			}
		}
		i = end
	}
	return starlark.NewList(names), valid, nil
}

func (t *template) substitute(thread *starlark.Thread, mapping starlark.Mapping, kwargs []starlark.Tuple, safe bool) (starlark.Value, error) {
	lookup := func(name string) (starlark.Value, bool, error) {
		for _, kv := range kwargs {
			if k, _ := starlark.AsString(kv[0]); k == name {
				return kv[1], true, nil
			}
		}
		if mapping == nil {
			return nil, false, nil
		}
		return mapping.Get(interp.MakeString(name))
	}
	str := builtins()["str"]
	b := interp.BudgetOf(thread)
	out := textBuf{b: b}
	defer out.done()
	s := t.text
	for i := 0; i < len(s); {
		if err := b.Charge(1); err != nil {
			return nil, err
		}
		j := strings.IndexByte(s[i:], '$')
		if j < 0 {
			if err := out.WriteString(s[i:]); err != nil {
				return nil, err
			}
			break
		}
		if err := out.WriteString(s[i : i+j]); err != nil {
			return nil, err
		}
		i += j
		start := i
		name, end, escaped := templatePlaceholder(s, i)
		if escaped {
			if err := out.WriteByte('$'); err != nil {
				return nil, err
			}
			i = end
			continue
		}
		if name == "" {
			if !safe {
				line := strings.Count(s[:start], "\n") + 1
				col := start - strings.LastIndexByte(s[:start], '\n')
				return nil, pyrt.Errorf("ValueError", "Invalid placeholder in string: line %d, col %d", line, col)
			}
			if err := out.WriteByte('$'); err != nil {
				return nil, err
			}
			i = start + 1
			continue
		}
		v, found, err := lookup(name)
		if err != nil {
			return nil, err
		}
		if !found {
			if !safe {
				return nil, pyrt.Errorf("KeyError", "%s", interp.QuoteString(name))
			}
			if err := out.WriteString(s[start:end]); err != nil {
				return nil, err
			}
			i = end
			continue
		}
		sv, err := starlark.Call(thread, str, starlark.Tuple{v}, nil)
		if err != nil {
			return nil, err
		}
		text, _ := interp.AsText(sv)
		if err := out.WriteString(text); err != nil {
			return nil, err
		}
		i = end
	}
	return out.value()
}
