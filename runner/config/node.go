package config

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/onetool-dev/onetool/internal/safefile"
)

// Bounds that keep a hostile file from hanging or exhausting memory.
// Real configuration files are a few kilobytes and a few hundred nodes.
const (
	maxFileSize = 1 << 20 // bytes per file
	maxNodes    = 100_000 // nodes per load, after expanding aliases and merge keys
	maxDepth    = 64      // nesting of mappings and lists
)

type nodeKind uint8

const (
	scalarNode nodeKind = iota + 1
	mapNode
	listNode
)

// Short YAML tags of the scalars a configuration may hold. Timestamps are
// read as strings; other tags are refused.
const (
	tagStr   = "!!str"
	tagInt   = "!!int"
	tagFloat = "!!float"
	tagBool  = "!!bool"
	tagNull  = "!!null"
)

// node is a YAML value with aliases expanded, carrying the file and
// position it was written at. yaml.Node cannot be used directly: after
// include merging one tree mixes nodes from several files, and errors must
// name the right one.
type node struct {
	pos
	kind   nodeKind
	tag    string // scalars only
	value  string // scalars only; after ${} expansion
	plain  bool   // an unquoted, untagged scalar: its type is re-resolved after expansion
	masked string // when value holds a secret: value with [secret:NAME] in its place
	bad    bool   // expansion failed and was reported; decoding skips it silently
	pairs  []pair // mappings, in written order
	items  []*node
}

// pair is one mapping entry.
type pair struct {
	key string
	at  pos // where the key was written
	val *node
}

func (n *node) isNull() bool { return n == nil || n.kind == scalarNode && n.tag == tagNull }

// shown is the value as it may appear in messages: secrets masked.
func (n *node) shown() string {
	if n.masked != "" {
		return n.masked
	}
	return n.value
}

// remove deletes key from a mapping and returns its pair.
func (n *node) remove(key string) (pair, bool) {
	for i, p := range n.pairs {
		if p.key == key {
			n.pairs = append(n.pairs[:i:i], n.pairs[i+1:]...)
			return p, true
		}
	}
	return pair{}, false
}

// describe says what a value is, for "want X, got Y" messages.
func describe(n *node) string {
	if n.kind != scalarNode || n.tag == tagNull {
		return kindName(n)
	}
	v := n.shown()
	if utf8.RuneCountInString(v) > 40 {
		v = string([]rune(v)[:40]) + "…"
	}
	if n.tag == tagStr {
		return strconv.Quote(v)
	}
	return v
}

// converter turns one file's yaml.Node tree into nodes.
type converter struct {
	file      string
	budget    *int // nodes left for the whole load
	errs      *errList
	expanding map[*yaml.Node]bool // anchors being expanded: one that meets itself is a loop
	fatal     bool
}

// errStop ends the conversion of a file after a problem that makes the
// rest meaningless: too big, too deep, an alias loop.
var errStop = errors.New("conversion stopped")

// parseFile parses data as one YAML document and converts it. It returns
// nil with ok=true for an empty document, and ok=false when the file could
// not be read at all (the problem is recorded in errs).
func parseFile(data []byte, file string, budget *int, errs *errList) (root *node, ok bool) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, true
		}
		syntaxError(err, file, errs)
		return nil, false
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		syntaxError(err, file, errs)
		return nil, false
	default:
		errs.add(&Error{File: file, Line: next.Line, Column: next.Column,
			Msg: "a second YAML document (after ---): a configuration file holds one"})
		return nil, false
	}
	y := &doc
	if y.Kind == yaml.DocumentNode {
		if len(y.Content) == 0 {
			return nil, true
		}
		y = y.Content[0]
	}
	c := &converter{file: file, budget: budget, errs: errs, expanding: map[*yaml.Node]bool{}}
	n, err := c.convert(y, nil, 0)
	if err != nil {
		return nil, false
	}
	return n, true
}

// syntaxError records a YAML parse error with its line when yaml.v3 gives one.
func syntaxError(err error, file string, errs *errList) {
	e := &Error{File: file, Msg: "YAML syntax error: " + err.Error()}
	// yaml.v3 says "yaml: line 3: …", or "yaml: …" when it has no line.
	yamlLine := regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Msg = "YAML syntax error: " + m[2]
	}
	errs.add(e)
}

func (c *converter) at(y *yaml.Node) pos { return pos{c.file, y.Line, y.Column} }

// fail records a problem that makes the rest of the file meaningless.
func (c *converter) fail(y *yaml.Node, key keyPath, format string, args ...any) error {
	if !c.fatal {
		c.errs.at(c.at(y), key, format, args...)
	}
	c.fatal = true
	return errStop
}

// convert converts y (the value at key) and everything under it.
func (c *converter) convert(y *yaml.Node, key keyPath, depth int) (*node, error) {
	if depth > maxDepth {
		return nil, c.fail(y, key, "nested more than %d levels deep", maxDepth)
	}
	if *c.budget--; *c.budget < 0 {
		return nil, c.fail(y, key, "more than %d values after expanding YAML aliases; refusing to read further", maxNodes)
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
			return nil, c.fail(y, key, "alias *%s refers to no anchor", y.Value)
		}
		if c.expanding[t] {
			return nil, c.fail(y, key, "alias *%s refers to a value that contains it", y.Value)
		}
		return c.convert(t, key, depth)
	case yaml.ScalarNode:
		return c.scalar(y, key), nil
	case yaml.SequenceNode:
		if tag := y.ShortTag(); tag != "!!seq" {
			c.errs.at(c.at(y), key, "unsupported YAML tag %s", tag)
		}
		n := &node{pos: c.at(y), kind: listNode, items: make([]*node, 0, len(y.Content))}
		for i, item := range y.Content {
			v, err := c.convert(item, key.index(i), depth+1)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, v)
		}
		return n, nil
	case yaml.MappingNode:
		return c.mapping(y, key, depth)
	}
	return nil, c.fail(y, key, "unexpected YAML node")
}

func (c *converter) scalar(y *yaml.Node, key keyPath) *node {
	n := &node{pos: c.at(y), kind: scalarNode, value: y.Value}
	n.plain = y.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle|yaml.TaggedStyle) == 0
	switch tag := y.ShortTag(); tag {
	case tagStr, tagInt, tagFloat, tagBool, tagNull:
		n.tag = tag
	case "!!timestamp":
		n.tag = tagStr
	default:
		c.errs.at(n.pos, key, "unsupported YAML tag %s", tag)
		n.tag, n.bad = tagNull, true
	}
	return n
}

// mapping converts a mapping: keys must be scalars and unique; YAML merge
// keys (<<: *base) add the keys of the merged mappings that are not written
// explicitly.
func (c *converter) mapping(y *yaml.Node, key keyPath, depth int) (*node, error) {
	if tag := y.ShortTag(); tag != "!!map" {
		c.errs.at(c.at(y), key, "unsupported YAML tag %s", tag)
	}
	n := &node{pos: c.at(y), kind: mapNode, pairs: make([]pair, 0, len(y.Content)/2)}
	seen := map[string]int{} // key → line first written
	var merges []*yaml.Node
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			c.errs.at(c.at(k), key, "a key must be a plain name, not %s", map[yaml.Kind]string{
				yaml.MappingNode: "a mapping", yaml.SequenceNode: "a list"}[k.Kind])
			continue
		}
		if k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		name := k.Value
		kp := key.with(name)
		if line, dup := seen[name]; dup {
			c.errs.at(c.at(k), kp, "duplicate key (first written at line %d)", line)
			continue
		}
		seen[name] = k.Line
		val, err := c.convert(v, kp, depth+1)
		if err != nil {
			return nil, err
		}
		n.pairs = append(n.pairs, pair{key: name, at: c.at(k), val: val})
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
				c.errs.at(c.at(s), key.with("<<"), "a merge key (<<) takes a mapping or a list of mappings")
				continue
			}
			mv, err := c.convert(s, key, depth)
			if err != nil {
				return nil, err
			}
			for _, p := range mv.pairs {
				if _, dup := seen[p.key]; !dup {
					seen[p.key] = p.at.line
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

// readLimited reads a regular file of at most maxFileSize bytes. Devices
// and pipes are refused: opening or reading them could block forever.
func readLimited(file string) ([]byte, error) {
	return safefile.ReadRegular(file, maxFileSize, "a configuration file")
}
