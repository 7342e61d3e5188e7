package toolpack

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/onetool-dev/onetool/internal/safefile"
)

// Bounds that keep a hostile file from hanging the loader or exhausting
// memory. Real toolpacks are a few kilobytes and a few hundred values.
const (
	maxFileSize = 1 << 20 // bytes per file
	maxNodes    = 100_000 // values per file, after expanding YAML aliases
	maxDepth    = 100     // nesting of mappings and lists
)

type nodeKind uint8

const (
	scalarNode nodeKind = iota + 1
	mapNode
	listNode
)

// The tags a scalar can have once read. YAML timestamps are read as
// strings; other YAML tags are refused.
const (
	tagStr   = "!!str"
	tagInt   = "!!int"
	tagFloat = "!!float"
	tagBool  = "!!bool"
	tagNull  = "!!null"
)

// node is a value of a toolpack file, from YAML or JSON, with aliases and
// merge keys expanded and the line it was written at. Both syntaxes give
// the same tree, so everything after parsing is shared.
type node struct {
	line  int
	kind  nodeKind
	tag   string // scalars only
	value string // scalars only: the text as written ("1.10", "0x1F", "yes")
	// number is the JSON form of an !!int or !!float scalar ("31" for
	// 0x1F); "" when it has none (.inf, .nan).
	number string
	pairs  []pair // mappings, in written order
	items  []*node
}

// pair is one mapping entry.
type pair struct {
	key  string
	line int // where the key was written
	val  *node
}

func (n *node) isNull() bool { return n == nil || n.kind == scalarNode && n.tag == tagNull }

// describe says what a value is, for "want X, got Y" messages.
func describe(n *node) string {
	switch {
	case n == nil:
		return "nothing"
	case n.kind == mapNode:
		return "a mapping"
	case n.kind == listNode:
		return "a list"
	case n.tag == tagNull:
		return "null"
	}
	v := n.value
	if utf8.RuneCountInString(v) > 40 {
		v = string([]rune(v)[:40]) + "…"
	}
	if n.tag == tagStr {
		return strconv.Quote(v)
	}
	return v
}

// parseError is a file that is not YAML (or JSON); line is 0 when the
// parser did not say where.
type parseError struct {
	line int
	msg  string
}

func (e *parseError) Error() string { return e.msg }

// readFile reads a regular file of at most maxFileSize bytes. Devices and
// pipes are refused: opening or reading them could block forever.
func readFile(file string) ([]byte, error) {
	return safefile.ReadRegular(file, maxFileSize, "a toolpack file")
}

// parseYAML parses data as one YAML document. It returns nil for an empty
// document. Problems inside the tree that do not stop parsing (an
// unsupported tag, a duplicate key) are reported through report.
func parseYAML(data []byte, report func(line int, field path, format string, args ...any)) (root *node, err error) {
	// yaml.v3 has panicked on hostile input in the past; a toolpack file
	// must never take the program down.
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, &parseError{msg: fmt.Sprintf("YAML parser failed: %v", r)}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, yamlSyntaxError(err)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, yamlSyntaxError(err)
	default:
		return nil, &parseError{line: next.Line,
			msg: "a second YAML document (after ---): a file holds one toolpack, or a list of them"}
	}
	y := &doc
	if y.Kind == yaml.DocumentNode {
		if len(y.Content) == 0 {
			return nil, nil
		}
		y = y.Content[0]
	}
	c := &yamlConverter{budget: maxNodes, expanding: map[*yaml.Node]bool{}, report: report}
	return c.convert(y, nil, 0)
}

// yamlLine matches yaml.v3's messages: "yaml: line 3: …", or "yaml: …"
// when it has no line.
var yamlLine = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

func yamlSyntaxError(err error) error {
	e := &parseError{msg: "YAML syntax error: " + err.Error()}
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		e.line, _ = strconv.Atoi(m[1])
		e.msg = "YAML syntax error: " + m[2]
	}
	return e
}

// yamlConverter turns a yaml.Node tree into nodes.
type yamlConverter struct {
	budget    int                 // nodes left
	expanding map[*yaml.Node]bool // anchors being expanded: one that meets itself is a loop
	report    func(line int, field path, format string, args ...any)
}

func (c *yamlConverter) convert(y *yaml.Node, at path, depth int) (*node, error) {
	if depth > maxDepth {
		return nil, &parseError{line: y.Line, msg: fmt.Sprintf("%s: nested more than %d levels deep", at, maxDepth)}
	}
	if c.budget--; c.budget < 0 {
		return nil, &parseError{line: y.Line, msg: fmt.Sprintf("more than %d values after expanding YAML aliases; refusing to read further", maxNodes)}
	}
	if y.Anchor != "" && y.Kind != yaml.AliasNode && !c.expanding[y] {
		// An anchored value may contain an alias to itself (&a [*a]).
		c.expanding[y] = true
		defer delete(c.expanding, y)
	}
	switch y.Kind {
	case yaml.AliasNode:
		t := y.Alias
		if t == nil {
			return nil, &parseError{line: y.Line, msg: fmt.Sprintf("alias *%s refers to no anchor", y.Value)}
		}
		if c.expanding[t] {
			return nil, &parseError{line: y.Line, msg: fmt.Sprintf("alias *%s refers to a value that contains it", y.Value)}
		}
		return c.convert(t, at, depth)
	case yaml.ScalarNode:
		return c.scalar(y, at), nil
	case yaml.SequenceNode:
		if tag := y.ShortTag(); tag != "!!seq" {
			c.report(y.Line, at, "unsupported YAML tag %s", tag)
		}
		n := &node{line: y.Line, kind: listNode, items: make([]*node, 0, len(y.Content))}
		for i, item := range y.Content {
			v, err := c.convert(item, at.index(i), depth+1)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, v)
		}
		return n, nil
	case yaml.MappingNode:
		return c.mapping(y, at, depth)
	}
	return nil, &parseError{line: y.Line, msg: "unexpected YAML node"}
}

func (c *yamlConverter) scalar(y *yaml.Node, at path) *node {
	n := &node{line: y.Line, kind: scalarNode, value: y.Value}
	switch tag := y.ShortTag(); tag {
	case tagStr, tagBool, tagNull:
		n.tag = tag
	case tagInt, tagFloat:
		n.tag = tag
		n.number = yamlNumber(y)
	case "!!timestamp":
		n.tag = tagStr
	default:
		c.report(y.Line, at, "unsupported YAML tag %s", tag)
		n.tag = tagNull
	}
	return n
}

// jsonNumberText matches a number as JSON writes it.
var jsonNumberText = regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$`)

// yamlNumber gives the JSON form of a YAML number: its text when that is
// already JSON (so 1.10 and huge integers stay exact), else the value as
// yaml.v3 reads it (0x1F → 31, 1_000 → 1000, .5 → 0.5); "" for infinities
// and NaN, which JSON cannot hold.
func yamlNumber(y *yaml.Node) string {
	if jsonNumberText.MatchString(y.Value) {
		return y.Value
	}
	var v any
	if err := y.Decode(&v); err != nil {
		return ""
	}
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return ""
}

// mapping converts a mapping: keys must be scalars and unique; YAML merge
// keys (<<: *base) add the keys of the merged mappings that are not
// written explicitly.
func (c *yamlConverter) mapping(y *yaml.Node, at path, depth int) (*node, error) {
	if tag := y.ShortTag(); tag != "!!map" {
		c.report(y.Line, at, "unsupported YAML tag %s", tag)
	}
	n := &node{line: y.Line, kind: mapNode, pairs: make([]pair, 0, len(y.Content)/2)}
	seen := map[string]int{} // key → line first written
	var merges []*yaml.Node
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			c.report(k.Line, at, "a key must be a plain name, not a %s", map[yaml.Kind]string{
				yaml.MappingNode: "mapping", yaml.SequenceNode: "list"}[k.Kind])
			continue
		}
		if k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		name := k.Value
		if line, dup := seen[name]; dup {
			c.report(k.Line, at.with(name), "duplicate key (first written at line %d)", line)
			continue
		}
		seen[name] = k.Line
		val, err := c.convert(v, at.with(name), depth+1)
		if err != nil {
			return nil, err
		}
		n.pairs = append(n.pairs, pair{key: name, line: k.Line, val: val})
	}
	for _, m := range merges {
		// The sources of "<<": a mapping, or a list of mappings of which
		// the earlier win.
		srcs := []*yaml.Node{m}
		if r := resolveAlias(m); r.Kind == yaml.SequenceNode {
			srcs = r.Content
		}
		for _, s := range srcs {
			if r := resolveAlias(s); r.Kind != yaml.MappingNode {
				c.report(s.Line, at.with("<<"), "a merge key (<<) takes a mapping or a list of mappings")
				continue
			}
			mv, err := c.convert(s, at, depth)
			if err != nil {
				return nil, err
			}
			for _, p := range mv.pairs {
				if _, dup := seen[p.key]; !dup {
					seen[p.key] = p.line
					n.pairs = append(n.pairs, p)
				}
			}
		}
	}
	return n, nil
}

// resolveAlias follows an alias to its anchor (once: an anchor is never an alias).
func resolveAlias(y *yaml.Node) *yaml.Node {
	if y.Kind == yaml.AliasNode && y.Alias != nil {
		return y.Alias
	}
	return y
}

// parseJSON parses data as one JSON value into the same tree as YAML
// gives. JSON is YAML, but yaml.v3 refuses some valid JSON ("\/" and
// surrogate-pair escapes such as "\ud83d\ude00", which Python's json
// module writes for every emoji), so .json files get a JSON parser.
func parseJSON(data []byte, report func(line int, field path, format string, args ...any)) (*node, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	p := &jsonParser{data: data, dec: json.NewDecoder(bytes.NewReader(data)), line: 1, budget: maxNodes, report: report}
	p.dec.UseNumber()
	n, err := p.value(nil, 0)
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); err != io.EOF {
		return nil, &parseError{line: p.lineAt(p.dec.InputOffset()), msg: "JSON syntax error: data after the top-level value"}
	}
	return n, nil
}

// jsonParser reads tokens and keeps track of lines: json.Decoder gives
// byte offsets only.
type jsonParser struct {
	data   []byte
	dec    *json.Decoder
	off    int // offset up to which lines are counted
	line   int // line at off
	budget int
	report func(line int, field path, format string, args ...any)
}

// lineAt returns the line of offset, which never moves backwards.
func (p *jsonParser) lineAt(offset int64) int {
	end := min(int(offset), len(p.data))
	if end > p.off {
		p.line += bytes.Count(p.data[p.off:end], []byte{'\n'})
		p.off = end
	}
	return p.line
}

// token reads the next token and the line it starts at.
func (p *jsonParser) token() (json.Token, int, error) {
	// InputOffset is the end of the previous token; the next one starts
	// after whitespace and separators.
	start := int(p.dec.InputOffset())
	for start < len(p.data) && strings.IndexByte(" \t\r\n,:", p.data[start]) >= 0 {
		start++
	}
	line := p.lineAt(int64(start))
	tok, err := p.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			// Counted afresh: lineAt may already be past the offset, having
			// skipped the separators that made the error.
			line := 1 + bytes.Count(p.data[:min(int(se.Offset), len(p.data))], []byte{'\n'})
			return nil, 0, &parseError{line: line, msg: "JSON syntax error: " + se.Error()}
		}
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, 0, &parseError{line: line, msg: "JSON syntax error: " + err.Error()}
	}
	return tok, line, nil
}

// value reads one value and everything in it.
func (p *jsonParser) value(at path, depth int) (*node, error) {
	tok, line, err := p.token()
	if err != nil {
		return nil, err
	}
	if depth > maxDepth {
		return nil, &parseError{line: line, msg: fmt.Sprintf("%s: nested more than %d levels deep", at, maxDepth)}
	}
	if p.budget--; p.budget < 0 {
		return nil, &parseError{line: line, msg: fmt.Sprintf("more than %d values; refusing to read further", maxNodes)}
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &node{line: line, kind: mapNode}
			seen := map[string]int{}
			for p.dec.More() {
				kt, kline, err := p.token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := p.value(at.with(k), depth+1)
				if err != nil {
					return nil, err
				}
				if first, dup := seen[k]; dup {
					p.report(kline, at.with(k), "duplicate key (first written at line %d)", first)
					continue
				}
				seen[k] = kline
				n.pairs = append(n.pairs, pair{key: k, line: kline, val: v})
			}
			_, _, err := p.token() // '}'
			return n, err
		case '[':
			n := &node{line: line, kind: listNode}
			for p.dec.More() {
				v, err := p.value(at.index(len(n.items)), depth+1)
				if err != nil {
					return nil, err
				}
				n.items = append(n.items, v)
			}
			_, _, err := p.token() // ']'
			return n, err
		}
		return nil, &parseError{line: line, msg: fmt.Sprintf("JSON syntax error: unexpected %v", t)}
	case json.Number:
		tag := tagInt
		if strings.ContainsAny(string(t), ".eE") {
			tag = tagFloat
		}
		return &node{line: line, kind: scalarNode, tag: tag, value: string(t), number: string(t)}, nil
	case string:
		return &node{line: line, kind: scalarNode, tag: tagStr, value: t}, nil
	case bool:
		return &node{line: line, kind: scalarNode, tag: tagBool, value: strconv.FormatBool(t)}, nil
	case nil:
		return &node{line: line, kind: scalarNode, tag: tagNull, value: "null"}, nil
	}
	return nil, &parseError{line: line, msg: fmt.Sprintf("JSON syntax error: unexpected %v", tok)}
}
