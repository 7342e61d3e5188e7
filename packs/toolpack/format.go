package toolpack

import (
	"strings"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"

	"github.com/onetool-dev/onetool/internal/yamltree"
)

// toolpackKeys are the keys of a toolpack, in the order the docs show them.
func toolpackKeys() []string {
	return []string{"id", "version", "description", "input_schema", "output_schema", "deterministic",
		"examples", "annotations", "timeout", "synonyms", "returns", "execution"}
}

// toolpack reads one toolpack, the mapping n, into a compiled tool. It
// returns nil when the toolpack has any problem; every problem is reported.
func (f *fileLoader) toolpack(n *node, at path) *packs.Tool {
	if n.Kind != yamltree.MappingNode {
		f.fail(n, at, "want a toolpack (a mapping with id, description and execution), got %s", yamltree.Describe(n))
		return nil
	}
	before := f.errs.count()
	t := &packs.Tool{}
	var (
		id, description, execution *node
		idOK                       bool
		inputRoot                  *ordered.Map
		inputOK                    = true
		lines                      schemaFieldLines
		synonyms                   []synonymEntry
	)
	f.fields(n, at, toolpackKeys(), func(p pair, kp path) {
		v := p.Val
		switch p.Key {
		case "id":
			id = v
			t.Pack, t.Name, idOK = f.id(v, kp)
		case "version":
			t.Version, _ = f.version(v, kp)
		case "description":
			description = v
			t.Description, _ = f.nonEmpty(v, kp)
		case "input_schema":
			lines.input = v.Line
			var ok bool
			if t.InputSchema, inputRoot, ok = f.schema(v, kp); !ok && !v.IsNull() {
				inputOK = false
			}
		case "output_schema":
			lines.output = v.Line
			t.OutputSchema, _, _ = f.schema(v, kp) // "" when broken: reported already
		case "deterministic":
			t.Deterministic, _ = f.boolean(v, kp)
		case "examples":
			t.Examples = f.examples(v, kp)
		case "annotations":
			t.Annotations = f.annotations(v, kp)
		case "timeout":
			t.Timeout, _ = f.duration(v, kp)
		case "synonyms":
			synonyms = f.synonyms(v, kp)
		case "returns":
			t.Returns, _ = f.nonEmpty(v, kp)
		case "execution":
			execution = v
		}
	})
	if id.IsNull() {
		f.required(n, at.With("id"), `every toolpack needs an id such as "text.slugify"`)
	}
	if description.IsNull() {
		f.required(n, at.With("description"), "say what the tool does; models read it to choose tools")
	}
	if idOK {
		f.claim(t.ID(), id.Line, at.With("id"))
	}
	if synonyms != nil && inputOK && f.checkSynonyms(synonyms, inputRoot, at.With("synonyms")) {
		t.Synonyms = map[string][]string{}
		for _, e := range synonyms {
			t.Synonyms[e.param] = e.names
		}
	}
	if execution.IsNull() {
		f.required(n, at.With("execution"), `say where the tool runs, such as {kind: starlark, module: "file.star:function"}`)
	} else if b, ok := f.execution(execution, at.With("execution"), t.Timeout); ok {
		t.Backends = []packs.Backend{b}
	}
	// Compiled here, once, so that a schema that does not compile is a
	// load error on its field rather than a failure of the first call. It
	// is compiled even when other fields are wrong, to report everything
	// at once; the schemas and synonyms it reads are known to be well
	// formed by now, or left out.
	if err := t.Compile(); err != nil {
		f.compileError(err, at, n.Line, lines)
	}
	if f.errs.count() > before {
		return nil
	}
	return t
}

// id reads "pack.name": the pack is the part before the first dot, and
// both parts must be names packs.Registry accepts.
func (f *fileLoader) id(n *node, at path) (pack, name string, ok bool) {
	s, ok := f.str(n, at)
	if !ok {
		return "", "", false
	}
	pack, name, dot := strings.Cut(s, ".")
	// packs.ParseID also accepts "pack:name"; a toolpack id is written
	// with a dot only, so that one file has one spelling.
	if _, _, err := packs.ParseID(s); err != nil || !dot || strings.Contains(s, ":") {
		f.fail(n, at, `want "pack.name" with both parts Starlark identifiers (letters, digits and _, not starting with _ or a digit, not a keyword), such as "text.slugify"; got %s`, yamltree.Describe(n))
		return "", "", false
	}
	return pack, name, true
}

// version reads a string or a number, keeping a number's text as written
// (`version: 1.10` is "1.10", not "1.1").
func (f *fileLoader) version(n *node, at path) (string, bool) {
	if n.IsNull() {
		return "", false
	}
	if n.Kind != yamltree.ScalarNode || (n.Tag != yamltree.TagStr && n.Tag != yamltree.TagInt && n.Tag != yamltree.TagFloat) {
		f.fail(n, at, `want a version such as "1.0.0", got %s`, yamltree.Describe(n))
		return "", false
	}
	if strings.TrimSpace(n.Value) == "" {
		f.fail(n, at, "must not be empty")
		return "", false
	}
	return n.Value, true
}

// examples reads a list whose items are Starlark code, or mappings with
// code, description and result.
func (f *fileLoader) examples(n *node, at path) []packs.Example {
	if n.IsNull() {
		return nil
	}
	if n.Kind != yamltree.ListNode {
		f.fail(n, at, "want a list of examples (Starlark code, or mappings with code, description and result), got %s", yamltree.Describe(n))
		return nil
	}
	out := make([]packs.Example, 0, len(n.Items))
	for i, item := range n.Items {
		ip := at.Index(i)
		if item.Kind != yamltree.MappingNode {
			if item.IsNull() || item.Tag != yamltree.TagStr {
				f.fail(item, ip, "want Starlark code (a string) or a mapping with code, description and result, got %s", yamltree.Describe(item))
				continue
			}
			if code, ok := f.nonEmpty(item, ip); ok {
				out = append(out, packs.Example{Code: code})
			}
			continue
		}
		var ex packs.Example
		var code *node
		f.fields(item, ip, []string{"code", "description", "result"}, func(p pair, kp path) {
			switch p.Key {
			case "code":
				code = p.Val
				ex.Code, _ = f.nonEmpty(p.Val, kp)
			case "description":
				ex.Description, _ = f.str(p.Val, kp)
			case "result":
				ex.Result, _ = f.result(p.Val, kp)
			}
		})
		if code.IsNull() {
			f.required(item, ip.With("code"), `the Starlark code of the example, such as 'text.slugify(title="Hello")'`)
			continue
		}
		out = append(out, ex)
	}
	return out
}

// result reads the expected result of an example as help shows it: a
// scalar as written, a mapping or list as JSON.
func (f *fileLoader) result(n *node, at path) (string, bool) {
	if n.Kind == yamltree.ScalarNode {
		return n.Value, true
	}
	v, ok := f.jsonValue(n, at)
	if !ok {
		return "", false
	}
	data, err := ordered.Encode(v)
	if err != nil {
		f.fail(n, at, "cannot be written as JSON: %v", err)
		return "", false
	}
	return string(data), true
}

func (f *fileLoader) annotations(n *node, at path) packs.Annotations {
	var a packs.Annotations
	if n.IsNull() {
		return a
	}
	f.fields(n, at, []string{"read_only", "destructive", "open_world"}, func(p pair, kp path) {
		switch p.Key {
		case "read_only":
			a.ReadOnly, _ = f.boolean(p.Val, kp)
		case "destructive":
			a.Destructive, _ = f.boolean(p.Val, kp)
		case "open_world":
			a.OpenWorld, _ = f.boolean(p.Val, kp)
		}
	})
	return a
}

// synonyms reads a mapping from parameter names to lists of other names.
// It returns nil when there is nothing to check.
func (f *fileLoader) synonyms(n *node, at path) []synonymEntry {
	if n.IsNull() {
		return nil
	}
	if n.Kind != yamltree.MappingNode {
		f.fail(n, at, "want a mapping from parameter names to lists of other names, such as {max_results: [count, limit]}, got %s", yamltree.Describe(n))
		return nil
	}
	out := []synonymEntry{}
	for _, p := range n.Pairs {
		kp := at.With(p.Key)
		v := p.Val
		if v.Kind != yamltree.ListNode {
			f.fail(v, kp, "want a list of names, such as [count, limit], got %s", yamltree.Describe(v))
			continue
		}
		e := synonymEntry{param: p.Key, line: p.At.Line}
		for i, item := range v.Items {
			if name, ok := f.nonEmpty(item, kp.Index(i)); ok {
				e.names = append(e.names, name)
				e.lines = append(e.lines, item.Line)
			} else if item.IsNull() {
				f.fail(item, kp.Index(i), "want a name, got null")
			}
		}
		out = append(out, e)
	}
	return out
}
