package stdlib

import (
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// FNMatch is the fnmatch module: shell-style wildcards matched against
// names (text only; it reads no files). As on CPython's POSIX builds,
// fnmatch is case-sensitive, the same as fnmatchcase.
//
//   - everything (also / and newlines)
//     ?       any one character
//     [seq]   any character in seq (a-z ranges); [!seq] any not in seq
//
// A "[" without its "]" is itself; "]" just after "[" or "[!" is in the
// set; a backslash is an ordinary character.
func FNMatch() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "fnmatch", Members: starlark.StringDict{
		"fnmatch":     interp.NewBuiltin("fnmatch", fnmatchFn),
		"fnmatchcase": interp.NewBuiltin("fnmatchcase", fnmatchFn),
		"filter":      interp.NewBuiltin("filter", fnmatchFilter),
		"translate":   interp.NewBuiltin("translate", fnmatchTranslate),
	}}
}

// globItem is one item of a parsed wildcard pattern.
type globItem struct {
	kind   byte   // '*', '?', '[' or 0 for a literal
	r      rune   // the literal
	ranges []rune // of a set: pairs lo, hi
	negate bool
}

// parseGlob reads a wildcard pattern; consecutive stars are one.
func parseGlob(pat string) []globItem {
	p := []rune(pat)
	var items []globItem
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '*':
			if len(items) == 0 || items[len(items)-1].kind != '*' {
				items = append(items, globItem{kind: '*'})
			}
		case '?':
			items = append(items, globItem{kind: '?'})
		case '[':
			j := i + 1
			if j < len(p) && p[j] == '!' {
				j++
			}
			if j < len(p) && p[j] == ']' {
				j++
			}
			for j < len(p) && p[j] != ']' {
				j++
			}
			if j >= len(p) {
				items = append(items, globItem{r: '['})
				continue
			}
			body := p[i+1 : j]
			it := globItem{kind: '['}
			if len(body) > 0 && body[0] == '!' {
				it.negate, body = true, body[1:]
			}
			for k := 0; k < len(body); k++ {
				lo, hi := body[k], body[k]
				if k+2 < len(body) && body[k+1] == '-' {
					hi = body[k+2]
					k += 2
				}
				if lo <= hi { // a reversed range matches nothing
					it.ranges = append(it.ranges, lo, hi)
				}
			}
			items = append(items, it)
			i = j
		default:
			items = append(items, globItem{r: c})
		}
	}
	return items
}

func (it *globItem) matches(c rune) bool {
	switch it.kind {
	case '?':
		return true
	case '[':
		in := false
		for k := 0; k < len(it.ranges); k += 2 {
			if it.ranges[k] <= c && c <= it.ranges[k+1] {
				in = true
				break
			}
		}
		return in != it.negate
	}
	return c == it.r
}

// globMatch reports whether all of name matches the items: the items
// between two stars are found at the earliest place they fit, which is
// enough, as a later star can take whatever an earlier one left.
func globMatch(b *interp.Budget, items []globItem, name string) (bool, error) {
	s := []rune(name)
	if err := b.Charge(uint64(len(s)) + 1); err != nil {
		return false, err
	}
	si, pi := 0, 0
	star, starAt := -1, 0
	steps := 0
	for si < len(s) {
		if steps++; steps&1023 == 0 {
			if err := b.Charge(1024); err != nil {
				return false, err
			}
		}
		switch {
		case pi < len(items) && items[pi].kind == '*':
			star, starAt = pi, si
			pi++
		case pi < len(items) && items[pi].matches(s[si]):
			pi++
			si++
		case star >= 0:
			starAt++
			pi, si = star+1, starAt
		default:
			return false, nil
		}
	}
	for pi < len(items) && items[pi].kind == '*' {
		pi++
	}
	return pi == len(items), nil
}

func globText(v starlark.Value, fn string) (string, error) {
	s, ok := interp.AsText(v)
	if !ok {
		return "", pyrt.Errorf("TypeError", "%s() expected str, not %s", fn, pyrt.TypeName(v))
	}
	return s, nil
}

// fnmatchFn is fnmatch(name, pat) and fnmatchcase(name, pat).
func fnmatchFn(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var nameV, patV starlark.Value
	if err := (webParams{fn: b.Name(), names: []string{"name", "pat"}, required: 2, maxPos: 2}).unpack(args, kwargs, &nameV, &patV); err != nil {
		return nil, err
	}
	name, err := globText(nameV, b.Name())
	if err != nil {
		return nil, err
	}
	pat, err := globText(patV, b.Name())
	if err != nil {
		return nil, err
	}
	ok, err := globMatch(interp.BudgetOf(thread), parseGlob(pat), name)
	return starlark.Bool(ok), err
}

// fnmatchFilter is filter(names, pat): the names that match, in order.
func fnmatchFilter(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var namesV, patV starlark.Value
	if err := (webParams{fn: "filter", names: []string{"names", "pat"}, required: 2, maxPos: 2}).unpack(args, kwargs, &namesV, &patV); err != nil {
		return nil, err
	}
	pat, err := globText(patV, "filter")
	if err != nil {
		return nil, err
	}
	items := parseGlob(pat)
	iter := starlark.Iterate(namesV)
	if iter == nil {
		return nil, pyrt.Errorf("TypeError", "'%s' object is not iterable", pyrt.TypeName(namesV))
	}
	defer iter.Done()
	b := interp.BudgetOf(thread)
	var out []starlark.Value
	var x starlark.Value
	for iter.Next(&x) {
		name, err := globText(x, "filter")
		if err != nil {
			return nil, err
		}
		ok, err := globMatch(b, items, name)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, x)
		}
	}
	return starlark.NewList(out), nil
}

// fnmatchTranslate is translate(pat): a regular expression for re that
// matches what the pattern matches.
func fnmatchTranslate(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var patV starlark.Value
	if err := (webParams{fn: "translate", names: []string{"pat"}, required: 1, maxPos: 1}).unpack(args, kwargs, &patV); err != nil {
		return nil, err
	}
	pat, err := globText(patV, "translate")
	if err != nil {
		return nil, err
	}
	if err := webGrow(thread, 4*len(pat)+8); err != nil {
		return nil, err
	}
	// Each star but the last takes as little as it can, in an atomic
	// group up to the fixed text that follows it, as CPython writes it.
	items := parseGlob(pat)
	var w strings.Builder
	w.WriteString("(?s:")
	lastStar := -1
	for i, it := range items {
		if it.kind == '*' {
			lastStar = i
		}
	}
	inGroup := false
	for i, it := range items {
		if it.kind == '*' {
			if inGroup {
				w.WriteString(")")
				inGroup = false
			}
			if i == lastStar {
				w.WriteString(".*")
			} else {
				w.WriteString("(?>.*?")
				inGroup = true
			}
			continue
		}
		writeGlobItem(&w, it)
	}
	w.WriteString(`)\Z`)
	return interp.MakeString(w.String()), nil
}

// writeGlobItem writes one item that is not a star as a regular
// expression.
func writeGlobItem(w *strings.Builder, it globItem) {
	switch it.kind {
	case '?':
		w.WriteString(".")
	case '[':
		if len(it.ranges) == 0 {
			if it.negate {
				w.WriteString(".")
			} else {
				w.WriteString("(?!)")
			}
			return
		}
		w.WriteString("[")
		if it.negate {
			w.WriteString("^")
		}
		for k := 0; k < len(it.ranges); k += 2 {
			writeSetRune(w, it.ranges[k], k == 0 && !it.negate)
			if it.ranges[k+1] != it.ranges[k] {
				w.WriteString("-")
				writeSetRune(w, it.ranges[k+1], false)
			}
		}
		w.WriteString("]")
	default:
		w.WriteString(reEscapeRune(it.r))
	}
}

// writeSetRune writes c inside a regular expression's [...].
func writeSetRune(w *strings.Builder, c rune, first bool) {
	switch {
	case c == '\\' || c == '&' || c == '~' || c == '|' || c == '-', first && (c == '^' || c == '['):
		w.WriteByte('\\')
	}
	w.WriteRune(c)
}

// reEscapeRune is re.escape of one character.
func reEscapeRune(c rune) string {
	if c < utf8.RuneSelf && strings.ContainsRune("()[]{}?*+-|^$\\.&~# \t\n\r\v\f", c) {
		return `\` + string(c)
	}
	return string(c)
}
