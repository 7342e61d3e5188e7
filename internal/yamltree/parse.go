package yamltree

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Options say how Parse reads a document. Every field but File must be
// set: the bounds are each caller's to choose.
type Options struct {
	// File is recorded in every position, so that trees of several files
	// can be merged and still name the right one.
	File string
	// MaxDepth is the deepest nesting of mappings and lists allowed (the
	// top value is at depth 0).
	MaxDepth int
	// Budget bounds how many values Parse creates, counted after expanding
	// aliases and merge keys. Several Parse calls may share one, so that a
	// file and everything it includes are bounded together.
	Budget *Budget
	// SecondDocument ends the message for a file with a second document
	// (after ---): it says what a file holds, as "a configuration file
	// holds one".
	SecondDocument string
	// Report receives the problems that leave the tree readable (an
	// unsupported tag, a duplicate key, a key that is not a scalar), so
	// that the caller can go on to report problems in the rest of it: at
	// is where the problem was written, path the value it concerns.
	Report func(at Pos, path Path, msg string)
}

// A Budget is how many values a load may still create. Reading a value
// when none is left is an error naming the budget's size.
type Budget struct{ max, left int }

// NewBudget returns a budget of max values.
func NewBudget(max int) *Budget { return &Budget{max: max, left: max} }

// Error is a problem that stops reading: the text is not YAML, holds a
// second document, breaks a bound, or has an alias that cannot be
// expanded. Parse returns no tree with it.
type Error struct {
	Pos       // Line and Column are 0 when the YAML parser did not say where
	Path Path // the value at fault; nil when none applies (a syntax error)
	Msg  string
	// Err is ErrTooDeep or ErrTooMany when a bound stopped reading; nil
	// otherwise.
	Err error
}

// The bounds Parse enforces, for errors.Is on an *Error.
var (
	ErrTooDeep = errors.New("nested too deeply")
	ErrTooMany = errors.New("too many values")
)

// Error formats as "file:line: path: message", leaving out what is unknown.
func (e *Error) Error() string { return Where(e.File, e.Line, e.Path.String()) + e.Msg }

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// Parse reads data as one YAML document. It returns nil for an empty
// document, and an *Error when the document cannot be read; problems that
// leave the tree readable go to o.Report, and Parse goes on.
func Parse(data []byte, o Options) (*Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, syntaxError(err, o.File, data)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, syntaxError(err, o.File, data)
	default:
		return nil, &Error{Pos: Pos{o.File, next.Line, next.Column},
			Msg: "a second YAML document (after ---): " + o.SecondDocument}
	}
	y := &doc
	if y.Kind == yaml.DocumentNode {
		if len(y.Content) == 0 {
			return nil, nil
		}
		y = y.Content[0]
	}
	c := &converter{Options: o, expanding: map[*yaml.Node]bool{}}
	return c.convert(y, nil, 0)
}

// yamlLine matches yaml.v3's messages: "yaml: line 3: …", or "yaml: …"
// when it has no line.
var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`) })

func syntaxError(err error, file string, data []byte) *Error {
	e := &Error{Pos: Pos{File: file}, Msg: "YAML syntax error: " + err.Error()}
	if m := yamlLine().FindStringSubmatch(err.Error()); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Msg = "YAML syntax error: " + m[2]
	}
	// yaml.v3 names a tab in indentation only as a character "that cannot
	// start any token": say what it is, and where.
	if e.Line > 0 {
		if line, col, ok := tabIndent(data, e.Line); ok {
			e.Line, e.Column = line, col
			e.Msg = "YAML syntax error: a tab in the indentation; YAML allows only spaces there: indent with spaces"
		}
	}
	return e
}

// tabIndent reports whether line n of data, or a line next to it (yaml.v3
// counts some errors from a neighbouring token), is indented with a tab,
// and where that tab is.
func tabIndent(data []byte, n int) (line, col int, ok bool) {
	lines := bytes.Split(data, []byte("\n"))
	for _, l := range []int{n, n + 1, n - 1} {
		if l < 1 || l > len(lines) {
			continue
		}
		text := lines[l-1]
		indent := text[:len(text)-len(bytes.TrimLeft(text, " \t"))]
		if i := bytes.IndexByte(indent, '\t'); i >= 0 && len(bytes.TrimSpace(text)) > 0 {
			return l, i + 1, true
		}
	}
	return 0, 0, false
}

// converter turns one document's yaml.Node tree into Nodes.
type converter struct {
	Options
	expanding map[*yaml.Node]bool // anchors being expanded: one that meets itself is a loop
}

func (c *converter) at(y *yaml.Node) Pos { return Pos{c.File, y.Line, y.Column} }

func (c *converter) fail(y *yaml.Node, path Path, bound error, format string, args ...any) error {
	return &Error{Pos: c.at(y), Path: path, Msg: fmt.Sprintf(format, args...), Err: bound}
}

func (c *converter) report(at Pos, path Path, format string, args ...any) {
	c.Report(at, path, fmt.Sprintf(format, args...))
}

// convert converts y (the value at path) and everything under it.
func (c *converter) convert(y *yaml.Node, path Path, depth int) (*Node, error) {
	if depth > c.MaxDepth {
		return nil, c.fail(y, path, ErrTooDeep, "nested more than %d levels deep", c.MaxDepth)
	}
	if c.Budget.left--; c.Budget.left < 0 {
		return nil, c.fail(y, path, ErrTooMany, "more than %d values after expanding YAML aliases; refusing to read further", c.Budget.max)
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
			return nil, c.fail(y, path, nil, "alias *%s refers to no anchor", y.Value)
		}
		if c.expanding[t] {
			return nil, c.fail(y, path, nil, "alias *%s refers to a value that contains it", y.Value)
		}
		return c.convert(t, path, depth)
	case yaml.ScalarNode:
		return c.scalar(y, path), nil
	case yaml.SequenceNode:
		if tag := y.ShortTag(); tag != "!!seq" {
			c.report(c.at(y), path, "unsupported YAML tag %s", tag)
		}
		n := &Node{Pos: c.at(y), Kind: ListNode, Items: make([]*Node, 0, len(y.Content))}
		for i, item := range y.Content {
			v, err := c.convert(item, path.Index(i), depth+1)
			if err != nil {
				return nil, err
			}
			n.Items = append(n.Items, v)
		}
		return n, nil
	case yaml.MappingNode:
		return c.mapping(y, path, depth)
	}
	return nil, c.fail(y, path, nil, "unexpected YAML node")
}

func (c *converter) scalar(y *yaml.Node, path Path) *Node {
	n := &Node{Pos: c.at(y), Kind: ScalarNode, Value: y.Value}
	n.Plain = y.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle|yaml.TaggedStyle) == 0
	switch tag := y.ShortTag(); tag {
	case TagStr, TagInt, TagFloat, TagBool, TagNull:
		n.Tag = tag
	case "!!timestamp":
		n.Tag = TagStr
	default:
		c.report(n.Pos, path, "unsupported YAML tag %s", tag)
		n.Tag, n.Bad = TagNull, true
	}
	return n
}

// mapping converts a mapping: keys must be scalars and unique; YAML merge
// keys (<<: *base) add the keys of the merged mappings that are not
// written explicitly.
func (c *converter) mapping(y *yaml.Node, path Path, depth int) (*Node, error) {
	if tag := y.ShortTag(); tag != "!!map" {
		c.report(c.at(y), path, "unsupported YAML tag %s", tag)
	}
	n := &Node{Pos: c.at(y), Kind: MappingNode, Pairs: make([]Pair, 0, len(y.Content)/2)}
	seen := map[string]int{} // key → line first written
	var merges []*yaml.Node
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		k = resolveAlias(k)
		if k.Kind != yaml.ScalarNode {
			c.report(c.at(k), path, "a key must be a plain name, not %s", map[yaml.Kind]string{
				yaml.MappingNode: "a mapping", yaml.SequenceNode: "a list"}[k.Kind])
			continue
		}
		if k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		name := k.Value
		kp := path.With(name)
		if line, dup := seen[name]; dup {
			c.report(c.at(k), kp, "duplicate key (first written at line %d)", line)
			continue
		}
		seen[name] = k.Line
		val, err := c.convert(v, kp, depth+1)
		if err != nil {
			return nil, err
		}
		n.Pairs = append(n.Pairs, Pair{Key: name, At: c.at(k), Val: val})
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
				c.report(c.at(s), path.With("<<"), "a merge key (<<) takes a mapping or a list of mappings")
				continue
			}
			mv, err := c.convert(s, path, depth)
			if err != nil {
				return nil, err
			}
			for _, p := range mv.Pairs {
				if _, dup := seen[p.Key]; !dup {
					seen[p.Key] = p.At.Line
					n.Pairs = append(n.Pairs, p)
				}
			}
		}
	}
	return n, nil
}

// resolveAlias follows an alias to its anchor (once: an anchor is never an
// alias); an alias to no anchor is returned as it is.
func resolveAlias(y *yaml.Node) *yaml.Node {
	if y.Kind == yaml.AliasNode && y.Alias != nil {
		return y.Alias
	}
	return y
}
