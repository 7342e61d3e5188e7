package stdlib

import (
	"regexp"
	"strconv"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// ElementPath, the XPath subset of find, findall, findtext and
// iterfind, as CPython's ElementPath module reads and applies it: tags
// ({uri}tag, prefix:tag with namespaces=, {*}tag), *, ., .., //, and the
// predicates [@a], [@a='v'], [@a!='v'], [tag], [tag='text'], [.='text'],
// [n], [last()], [last()-n].

var xpathTokenRe = regexp.MustCompile(`('[^']*'|"[^"]*"|::|//?|\.\.|\(\)|!=|[/.*:\[\]\(\)@=])|((?:\{[^}]+\})?[^/\[\]\(\)@!=\s]+)|\s+`)

type xpathToken struct{ op, tag string }

func xpathSyntax(format string, args ...any) error {
	return pyrt.Errorf("SyntaxError", format, args...)
}

func xpathTokens(path string, namespaces map[string]string) ([]xpathToken, error) {
	def, hasDef := namespaces[""]
	parsingAttr := false
	var out []xpathToken
	for _, m := range xpathTokenRe.FindAllStringSubmatch(path, -1) {
		t := xpathToken{op: m[1], tag: m[2]}
		if t.tag != "" && t.tag[0] != '{' {
			if prefix, local, ok := strings.Cut(t.tag, ":"); ok {
				uri, found := namespaces[prefix]
				if !found {
					return nil, xpathSyntax("prefix %s not found in prefix map", interp.QuoteString(prefix))
				}
				t.tag = "{" + uri + "}" + local
			} else if hasDef && def != "" && !parsingAttr {
				t.tag = "{" + def + "}" + t.tag
			}
			parsingAttr = false
		} else {
			parsingAttr = t.op == "@"
		}
		out = append(out, t)
	}
	return out, nil
}

// xpathCtx is a selection's context: its root and, once asked for, the
// parent of each element under it.
type xpathCtx struct {
	root    *xmlElement
	parents map[*xmlElement]*xmlElement
	b       *interp.Budget
}

func (c *xpathCtx) parentMap() (map[*xmlElement]*xmlElement, error) {
	if c.parents == nil {
		all, err := c.root.iter(c.b, starlark.None)
		if err != nil {
			return nil, err
		}
		c.parents = make(map[*xmlElement]*xmlElement, len(all))
		for _, p := range all {
			for _, k := range p.kids {
				c.parents[k] = p
			}
		}
	}
	return c.parents, nil
}

type xpathSelect func(c *xpathCtx, in []*xmlElement) ([]*xmlElement, error)

func isWildcardTag(tag string) bool {
	return strings.HasPrefix(tag, "{*}") || strings.HasSuffix(tag, "}*")
}

// tagMatcher is the test of a tag name against an element's tag.
func tagMatcher(tag string) (func(e *xmlElement) bool, error) {
	if isWildcardTag(tag) {
		switch {
		case tag == "{*}*":
			return func(e *xmlElement) bool { _, ok := interp.AsText(e.tag); return ok }, nil
		case tag == "{}*":
			return func(e *xmlElement) bool {
				t, ok := interp.AsText(e.tag)
				return ok && !strings.HasPrefix(t, "{")
			}, nil
		case strings.HasPrefix(tag, "{*}"):
			suffix, local := tag[2:], tag[3:]
			return func(e *xmlElement) bool {
				t, ok := interp.AsText(e.tag)
				return ok && (t == local || strings.HasSuffix(t, suffix))
			}, nil
		default:
			ns := tag[:len(tag)-1]
			return func(e *xmlElement) bool {
				t, ok := interp.AsText(e.tag)
				return ok && strings.HasPrefix(t, ns)
			}, nil
		}
	}
	tag = strings.TrimPrefix(tag, "{}")
	return func(e *xmlElement) bool {
		t, ok := interp.AsText(e.tag)
		return ok && t == tag
	}, nil
}

func compileXPath(path string, namespaces map[string]string) ([]xpathSelect, error) {
	if strings.HasSuffix(path, "/") {
		path += "*"
	}
	if strings.HasPrefix(path, "/") {
		return nil, xpathSyntax("cannot use absolute path on element")
	}
	toks, err := xpathTokens(path, namespaces)
	if err != nil {
		return nil, err
	}
	i := 0
	next := func() (xpathToken, bool) {
		if i >= len(toks) {
			return xpathToken{}, false
		}
		i++
		return toks[i-1], true
	}
	tok, ok := next()
	if !ok {
		return nil, nil
	}
	var sel []xpathSelect
	for {
		var s xpathSelect
		var err error
		switch tok.op {
		case "":
			s, err = xpathChild(tok)
		case "*":
			s = func(c *xpathCtx, in []*xmlElement) ([]*xmlElement, error) {
				var out []*xmlElement
				for _, e := range in {
					out = append(out, e.kids...)
				}
				return out, nil
			}
		case ".":
			s = func(c *xpathCtx, in []*xmlElement) ([]*xmlElement, error) { return in, nil }
		case "..":
			s = func(c *xpathCtx, in []*xmlElement) ([]*xmlElement, error) {
				pm, err := c.parentMap()
				if err != nil {
					return nil, err
				}
				seen := map[*xmlElement]bool{}
				var out []*xmlElement
				for _, e := range in {
					if p, ok := pm[e]; ok && !seen[p] {
						seen[p] = true
						out = append(out, p)
					}
				}
				return out, nil
			}
		case "//":
			t, ok := next()
			if !ok {
				// CPython's prepare_descendant returns None, called later.
				return nil, pyrt.Errorf("TypeError", "'NoneType' object is not callable")
			}
			s, err = xpathDescendant(t)
		case "[":
			s, err = xpathPredicate(next)
		default:
			return nil, xpathSyntax("invalid path")
		}
		if err != nil {
			return nil, err
		}
		if s == nil { // an unclosed predicate: as CPython's None selector
			return nil, pyrt.Errorf("TypeError", "'NoneType' object is not callable")
		}
		sel = append(sel, s)
		tok, ok = next()
		if !ok {
			break
		}
		if tok.op == "/" {
			if tok, ok = next(); !ok {
				return nil, xpathSyntax("invalid path")
			}
		}
	}
	return sel, nil
}

func xpathChild(tok xpathToken) (xpathSelect, error) {
	match, err := tagMatcher(tok.tag)
	if err != nil {
		return nil, err
	}
	return func(c *xpathCtx, in []*xmlElement) ([]*xmlElement, error) {
		var out []*xmlElement
		for _, e := range in {
			if err := c.b.Charge(uint64(len(e.kids))); err != nil {
				return nil, err
			}
			for _, k := range e.kids {
				if match(k) {
					out = append(out, k)
				}
			}
		}
		return out, nil
	}, nil
}

func xpathDescendant(tok xpathToken) (xpathSelect, error) {
	var tag string
	switch {
	case tok.op == "*":
		tag = "*"
	case tok.op == "":
		tag = tok.tag
	default:
		return nil, xpathSyntax("invalid descendant")
	}
	var match func(*xmlElement) bool
	if tag != "*" {
		var err error
		if match, err = tagMatcher(tag); err != nil {
			return nil, err
		}
	}
	return func(c *xpathCtx, in []*xmlElement) ([]*xmlElement, error) {
		var out []*xmlElement
		for _, e := range in {
			all, err := e.iter(c.b, starlark.None)
			if err != nil {
				return nil, err
			}
			for _, x := range all[1:] {
				if match == nil || match(x) {
					out = append(out, x)
				}
			}
		}
		return out, nil
	}, nil
}

var xpathIndexRe = regexp.MustCompile(`^-?\d+$`)

func xpathPredicate(next func() (xpathToken, bool)) (xpathSelect, error) {
	var sig strings.Builder
	var pred []string
	for {
		tok, ok := next()
		if !ok {
			return nil, nil
		}
		if tok.op == "]" {
			break
		}
		if tok.op == "" && tok.tag == "" {
			continue
		}
		if tok.op != "" && (tok.op[0] == '\'' || tok.op[0] == '"') {
			tok = xpathToken{op: "'", tag: tok.op[1 : len(tok.op)-1]}
		}
		if tok.op == "" {
			sig.WriteString("-")
		} else {
			sig.WriteString(tok.op)
		}
		pred = append(pred, tok.tag)
	}
	s := sig.String()
	get := func(e *xmlElement, key string) (string, bool) {
		v, found, _ := e.attrib.Get(interp.MakeString(key))
		if !found {
			return "", false
		}
		t, ok := interp.AsText(v)
		return t, ok
	}
	textOfAll := func(c *xpathCtx, e *xmlElement) (string, error) {
		texts, err := e.itertext(c.b)
		if err != nil {
			return "", err
		}
		var sb strings.Builder
		for _, t := range texts {
			x, _ := interp.AsText(t)
			sb.WriteString(x)
		}
		return sb.String(), nil
	}
	filter := func(keep func(c *xpathCtx, e *xmlElement) (bool, error)) xpathSelect {
		return func(c *xpathCtx, in []*xmlElement) ([]*xmlElement, error) {
			var out []*xmlElement
			for _, e := range in {
				if err := c.b.Charge(1); err != nil {
					return nil, err
				}
				ok, err := keep(c, e)
				if err != nil {
					return nil, err
				}
				if ok {
					out = append(out, e)
				}
			}
			return out, nil
		}
	}
	switch {
	case s == "@-":
		key := pred[1]
		return filter(func(_ *xpathCtx, e *xmlElement) (bool, error) {
			_, found, _ := e.attrib.Get(interp.MakeString(key))
			return found, nil
		}), nil
	case s == "@-='" || s == "@-!='":
		key, value := pred[1], pred[len(pred)-1]
		neg := s == "@-!='"
		return filter(func(_ *xpathCtx, e *xmlElement) (bool, error) {
			v, ok := get(e, key)
			if neg {
				return ok && v != value, nil
			}
			return ok && v == value, nil
		}), nil
	case s == "-" && !xpathIndexRe.MatchString(pred[0]):
		tag := pred[0]
		return filter(func(c *xpathCtx, e *xmlElement) (bool, error) {
			sel, err := compileXPath(tag, nil)
			if err != nil {
				return false, err
			}
			found, err := runXPath(c.b, e, sel)
			return len(found) > 0, err
		}), nil
	case s == ".='" || s == ".!='" || (s == "-='" || s == "-!='") && !xpathIndexRe.MatchString(pred[0]):
		tag, value := pred[0], pred[len(pred)-1]
		neg := strings.Contains(s, "!=")
		return filter(func(c *xpathCtx, e *xmlElement) (bool, error) {
			cands := []*xmlElement{e}
			if tag != "" {
				sel, err := compileXPath(tag, nil)
				if err != nil {
					return false, err
				}
				if cands, err = runXPath(c.b, e, sel); err != nil {
					return false, err
				}
			}
			for _, x := range cands {
				t, err := textOfAll(c, x)
				if err != nil {
					return false, err
				}
				if (t == value) != neg {
					return true, nil
				}
			}
			return false, nil
		}), nil
	case s == "-" || s == "-()" || s == "-()-":
		var index int
		if s == "-" {
			n, err := strconv.Atoi(pred[0])
			if err != nil {
				return nil, xpathSyntax("invalid predicate")
			}
			index = n - 1
			if index < 0 {
				return nil, xpathSyntax("XPath position >= 1 expected")
			}
		} else {
			if pred[0] != "last" {
				return nil, xpathSyntax("unsupported function")
			}
			index = -1
			if s == "-()-" {
				n, err := strconv.Atoi(pred[2])
				if err != nil {
					return nil, xpathSyntax("unsupported expression")
				}
				index = n - 1
				if index > -2 {
					return nil, xpathSyntax("XPath offset from last() must be negative")
				}
			}
		}
		return filter(func(c *xpathCtx, e *xmlElement) (bool, error) {
			pm, err := c.parentMap()
			if err != nil {
				return false, err
			}
			parent, ok := pm[e]
			if !ok {
				return false, nil
			}
			var same []*xmlElement
			for _, k := range parent.kids {
				if k.tag == e.tag || sameText(k.tag, e.tag) {
					same = append(same, k)
				}
			}
			i := index
			if i < 0 {
				i += len(same)
			}
			return i >= 0 && i < len(same) && same[i] == e, nil
		}), nil
	}
	return nil, xpathSyntax("invalid predicate")
}

func sameText(a, b starlark.Value) bool {
	x, ok1 := interp.AsText(a)
	y, ok2 := interp.AsText(b)
	return ok1 && ok2 && x == y
}

func runXPath(b *interp.Budget, e *xmlElement, sel []xpathSelect) ([]*xmlElement, error) {
	c := &xpathCtx{root: e, b: b}
	result := []*xmlElement{e}
	if len(sel) == 0 {
		return nil, nil
	}
	for _, s := range sel {
		var err error
		if result, err = s(c, result); err != nil {
			return nil, err
		}
	}
	return result, nil
}

// xmlFind is find, findall, findtext and iterfind of an element.
func xmlFind(thread *starlark.Thread, fn string, e *xmlElement, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var path, ns, dflt starlark.Value
	var err error
	if fn == "findtext" {
		dflt = starlark.None
		err = (webParams{fn: fn, names: []string{"path", "default", "namespaces"}, required: 1, maxPos: 3, builtin: true}).unpack(args, kwargs, &path, &dflt, &ns)
	} else {
		err = (webParams{fn: fn, names: []string{"path", "namespaces"}, required: 1, maxPos: 2, builtin: true}).unpack(args, kwargs, &path, &ns)
	}
	if err != nil {
		return nil, err
	}
	p, ok := interp.AsText(path)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "'%s' object is not subscriptable", pyrt.TypeName(path))
	}
	var nsmap map[string]string
	if ns != nil && ns != starlark.None {
		d, ok := ns.(starlark.IterableMapping)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "namespaces must be a dict, not %s", pyrt.TypeName(ns))
		}
		nsmap = map[string]string{}
		for _, kv := range d.Items() {
			k, _ := interp.AsText(kv[0])
			v, ok := interp.AsText(kv[1])
			if !ok {
				return nil, pyrt.Errorf("TypeError", "namespace URIs must be str, not %s", pyrt.TypeName(kv[1]))
			}
			nsmap[k] = v
		}
	}
	sel, err := compileXPath(p, nsmap)
	if err != nil {
		return nil, err
	}
	found, err := runXPath(interp.BudgetOf(thread), e, sel)
	if err != nil {
		return nil, err
	}
	switch fn {
	case "find":
		if len(found) == 0 {
			return starlark.None, nil
		}
		return found[0], nil
	case "findtext":
		if len(found) == 0 {
			return dflt, nil
		}
		if found[0].text == starlark.None {
			return starlark.String(""), nil
		}
		return found[0].text, nil
	case "iterfind":
		return listIter(found), nil
	}
	out := make([]starlark.Value, len(found))
	for i, x := range found {
		out[i] = x
	}
	return starlark.NewList(out), nil
}
