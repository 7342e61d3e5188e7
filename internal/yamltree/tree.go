// Package yamltree reads one YAML document into a bounded tree of values
// that know the file, line and column they were written at, and keeps the
// positioned problems found in such files, reported sorted and capped.
//
// Reading expands aliases and merge keys and bounds the tree (values
// after expansion, nesting), so that a hostile file cannot hang the reader
// or exhaust memory. runner/config reads onetool.yaml with it and
// packs/toolpack reads toolpack files; each checks the tree against its
// own schema and reports through its own error type.
package yamltree

import (
	"math"
	"regexp"
	"strconv"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Kind is what a node holds.
type Kind uint8

// The kinds of node.
const (
	ScalarNode Kind = iota + 1
	MappingNode
	ListNode
)

// The short YAML tags a scalar can have once read. YAML timestamps are
// read as strings; other tags are reported and read as null.
const (
	TagStr   = "!!str"
	TagInt   = "!!int"
	TagFloat = "!!float"
	TagBool  = "!!bool"
	TagNull  = "!!null"
)

// Pos is where a value or key was written.
type Pos struct {
	File   string // as given to Parse in Options.File
	Line   int    // 1-based; 0 when unknown
	Column int    // 1-based; 0 when unknown
}

// Node is a YAML value with aliases and merge keys expanded, carrying the
// position it was written at. yaml.Node is not used directly: once trees
// of several files are merged (configuration includes) one tree mixes
// nodes from several files, and problems must name the right one.
type Node struct {
	Pos
	Kind  Kind
	Tag   string // scalars only: one of the Tag constants
	Value string // scalars only: the text as written ("1.10", "0x1F", "yes")
	// Plain is an unquoted, untagged scalar: YAML typed it by its text, so
	// a caller that rewrites Value may type it again.
	Plain bool
	// Bad marks a value whose problem has been reported (Parse sets it on
	// a scalar with an unsupported tag): checks skip it without reporting
	// it again.
	Bad bool
	// Masked, when not "", is Value as messages may show it: Value with a
	// secret replaced by [secret:NAME]. Parse never sets it.
	Masked string
	Pairs  []Pair  // mappings, in written order
	Items  []*Node // lists
}

// Pair is one mapping entry.
type Pair struct {
	Key string
	At  Pos // where the key was written
	Val *Node
}

// IsNull reports whether n is missing or null.
func (n *Node) IsNull() bool { return n == nil || n.Kind == ScalarNode && n.Tag == TagNull }

// Shown is the value of a scalar as it may appear in messages: Masked when
// set, else Value.
func (n *Node) Shown() string {
	if n.Masked != "" {
		return n.Masked
	}
	return n.Value
}

// jsonNumberText matches a number as JSON writes it.
var jsonNumberText = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$`)
})

// Number is the JSON form of an !!int or !!float scalar: its text when
// that is already JSON (so 1.10 and huge integers stay exact), else the
// value as YAML reads it (0x1F → 31, 1_000 → 1000, .5 → 0.5). It is ""
// for infinities and NaN, which JSON cannot hold, and for other values.
func (n *Node) Number() string {
	if n == nil || n.Kind != ScalarNode || n.Tag != TagInt && n.Tag != TagFloat {
		return ""
	}
	if jsonNumberText().MatchString(n.Value) {
		return n.Value
	}
	var v any
	if err := (&yaml.Node{Kind: yaml.ScalarNode, Tag: n.Tag, Value: n.Value}).Decode(&v); err != nil {
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

// Describe says what a value is, for "want X, got Y" messages: "a
// mapping", "a list", "null", a quoted string, or a number or boolean as
// written; long scalars are cut to 40 characters.
func Describe(n *Node) string {
	switch {
	case n == nil:
		return "nothing"
	case n.Kind == MappingNode:
		return "a mapping"
	case n.Kind == ListNode:
		return "a list"
	case n.Tag == TagNull:
		return "null"
	}
	v := n.Shown()
	if utf8.RuneCountInString(v) > 40 {
		v = string([]rune(v)[:40]) + "…"
	}
	if n.Tag == TagStr {
		return strconv.Quote(v)
	}
	return v
}
