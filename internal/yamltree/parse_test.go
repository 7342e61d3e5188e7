package yamltree

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// dump renders a tree on one line: a scalar as tag:value@line:col (with
// "plain" and "bad" marks), a mapping as {key@line:col=value, …}, a list
// as […]; positions of mappings and lists follow their closing bracket.
func dump(n *Node) string {
	if n == nil {
		return "<nil>"
	}
	at := fmt.Sprintf("@%d:%d", n.Line, n.Column)
	switch n.Kind {
	case MappingNode:
		var parts []string
		for _, p := range n.Pairs {
			parts = append(parts, fmt.Sprintf("%s@%d:%d=%s", p.Key, p.At.Line, p.At.Column, dump(p.Val)))
		}
		return "{" + strings.Join(parts, ", ") + "}" + at
	case ListNode:
		var parts []string
		for _, it := range n.Items {
			parts = append(parts, dump(it))
		}
		return "[" + strings.Join(parts, ", ") + "]" + at
	}
	s := strings.TrimPrefix(n.Tag, "!!") + ":" + n.Value + at
	if n.Plain {
		s += "+plain"
	}
	if n.Bad {
		s += "+bad"
	}
	return s
}

// parse parses text as f.yaml with the given depth bound and a fresh
// budget of nodes values, and returns the tree, the problems reported
// (as "line:col path: message") and the error.
func parse(text string, depth, nodes int) (*Node, []string, error) {
	var reports []string
	root, err := Parse([]byte(text), Options{
		File:           "f.yaml",
		MaxDepth:       depth,
		Budget:         NewBudget(nodes),
		SecondDocument: "a file holds one",
		Report: func(at Pos, path Path, msg string) {
			if at.File != "f.yaml" {
				msg += " (file " + at.File + ")"
			}
			reports = append(reports, fmt.Sprintf("%d:%d %s: %s", at.Line, at.Column, path, msg))
		},
	})
	return root, reports, err
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, yaml string
		tree       string
		reports    []string
	}{
		{"empty", "", "<nil>", nil},
		{"comment only", "# nothing\n", "<nil>", nil},
		{"empty document", "---\n", "null:@2:1+plain", nil},
		{"scalars", "a: 1\nb: x\nc: true\nd: ~\ne: 1.5\n",
			"{a@1:1=int:1@1:4+plain, b@2:1=str:x@2:4+plain, c@3:1=bool:true@3:4+plain, d@4:1=null:~@4:4+plain, e@5:1=float:1.5@5:4+plain}@1:1", nil},
		{"quoted and block scalars are not plain", "a: \"1\"\nb: '2'\nc: |\n  x\nd: !!str 3\n",
			"{a@1:1=str:1@1:4, b@2:1=str:2@2:4, c@3:1=str:x\n@3:4, d@5:1=str:3@5:4}@1:1", nil},
		{"timestamp is a string", "a: 2001-12-14\n", "{a@1:1=str:2001-12-14@1:4+plain}@1:1", nil},
		{"top-level list", "- a\n- [1, {b: c}]\n",
			"[str:a@1:3+plain, [int:1@2:4+plain, {b@2:8=str:c@2:11+plain}@2:7]@2:3]@1:1", nil},
		{"alias expanded at the anchor's position", "a: &x [1]\nb: *x\n",
			"{a@1:1=[int:1@1:8+plain]@1:4, b@2:1=[int:1@1:8+plain]@1:4}@1:1", nil},
		{"alias as key", "a: &k b\n*k : 2\n", "{a@1:1=str:b@1:4+plain, b@1:4=int:2@2:6+plain}@1:1", nil},
		{"merge key", "base: &b {x: 1, y: 2}\nc:\n  <<: *b\n  x: 3\n",
			"{base@1:1={x@1:11=int:1@1:14+plain, y@1:17=int:2@1:20+plain}@1:7, c@2:1={x@4:3=int:3@4:6+plain, y@1:17=int:2@1:20+plain}@3:3}@1:1", nil},
		{"merge list: earlier wins", "a: &a {x: 1}\nb: &b {x: 2, y: 2}\nc: {<<: [*a, *b]}\n",
			"{a@1:1={x@1:8=int:1@1:11+plain}@1:4, b@2:1={x@2:8=int:2@2:11+plain, y@2:14=int:2@2:17+plain}@2:4, c@3:1={x@1:8=int:1@1:11+plain, y@2:14=int:2@2:17+plain}@3:4}@1:1", nil},
		{"merge of a scalar", "c:\n  <<: 1\n  d: 2\n", "{c@1:1={d@3:3=int:2@3:6+plain}@2:3}@1:1",
			[]string{"2:7 c.<<: a merge key (<<) takes a mapping or a list of mappings"}},
		{"duplicate key: the first stays", "a: 1\nb: 2\na: 3\n", "{a@1:1=int:1@1:4+plain, b@2:1=int:2@2:4+plain}@1:1",
			[]string{"3:1 a: duplicate key (first written at line 1)"}},
		{"list as key", "? [a]\n: b\nc: d\n", "{c@3:1=str:d@3:4+plain}@1:1",
			[]string{"1:3 : a key must be a plain name, not a list"}},
		{"mapping as key", "x:\n  ? {a: 1}\n  : b\n", "{x@1:1={}@2:3}@1:1",
			[]string{"2:5 x: a key must be a plain name, not a mapping"}},
		{"unsupported scalar tag", "a: !env x\n", "{a@1:1=null:x@1:4+bad}@1:1",
			[]string{"1:4 a: unsupported YAML tag !env"}},
		{"unsupported list and mapping tags", "a: !!set {x: 1}\nb: !l [1]\n",
			"{a@1:1={x@1:11=int:1@1:14+plain}@1:4, b@2:1=[int:1@2:8+plain]@2:4}@1:1",
			[]string{"1:4 a: unsupported YAML tag !!set", "2:4 b: unsupported YAML tag !l"}},
		{"self-referencing anchor used elsewhere", "a: &a [1]\nb: [*a, *a]\n",
			"{a@1:1=[int:1@1:8+plain]@1:4, b@2:1=[[int:1@1:8+plain]@1:4, [int:1@1:8+plain]@1:4]@2:4}@1:1", nil},
		{"deepest allowed", "a: [[1]]\n", "{a@1:1=[[int:1@1:6+plain]@1:5]@1:4}@1:1", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, reports, err := parse(tt.yaml, 3, 100)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if got := dump(root); got != tt.tree {
				t.Errorf("tree\n got: %s\nwant: %s", got, tt.tree)
			}
			if strings.Join(reports, "\n") != strings.Join(tt.reports, "\n") {
				t.Errorf("reports\n got: %q\nwant: %q", reports, tt.reports)
			}
			if root != nil && root.File != "f.yaml" {
				t.Errorf("root file %q", root.File)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       string // Error()
		line, col  int
		path       string
		bound      error // ErrTooDeep, ErrTooMany or nil
	}{
		{"syntax", "a: [\n", "f.yaml:1: YAML syntax error: did not find expected node content", 1, 0, "", nil},
		{"syntax without a line", "a: \"\\q\"\n", "f.yaml: YAML syntax error: found unknown escape character", 0, 0, "", nil},
		{"tab indenting a line", "a:\n\tb: 1\n", "f.yaml:2: YAML syntax error: a tab in the indentation; YAML allows only spaces there: indent with spaces", 2, 1, "", nil},
		{"tab after spaces, reported on the line before", "a:\n  b: 1\n  \tc: 2\n", "f.yaml:3: YAML syntax error: a tab in the indentation; YAML allows only spaces there: indent with spaces", 3, 3, "", nil},
		{"second document", "a: 1\n---\nb: 2\n", "f.yaml:2: a second YAML document (after ---): a file holds one", 2, 1, "", nil},
		{"alias loop", "a: &a [*a]\n", "f.yaml:1: a[0]: alias *a refers to a value that contains it", 1, 8, "a[0]", nil},
		{"too deep", "a: [[[1]]]\n", "f.yaml:1: a[0][0][0]: nested more than 3 levels deep", 1, 7, "a[0][0][0]", ErrTooDeep},
		{"too deep in a merged mapping", "x: &x {a: {b: {c: 1}}}\ny: {<<: *x}\n", "f.yaml:1: x.a.b.c: nested more than 3 levels deep", 1, 19, "x.a.b.c", ErrTooDeep},
		{"too many values", "a: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n", "f.yaml:1: a[8]: more than 10 values after expanding YAML aliases; refusing to read further", 1, 29, "a[8]", ErrTooMany},
		// Expanded values are counted where they expand, and named by
		// the path they expand at, at the anchored value's position.
		{"too many after aliases", "a: &a [1, 2, 3]\nb: [*a, *a]\n", "f.yaml:1: b[0][2]: more than 10 values after expanding YAML aliases; refusing to read further", 1, 14, "b[0][2]", ErrTooMany},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, _, err := parse(tt.yaml, 3, 10)
			if root != nil {
				t.Errorf("tree %s with the error", dump(root))
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v (%T), want an *Error", err, err)
			}
			if e.Line != tt.line || e.Column != tt.col || e.Path.String() != tt.path || e.File != "f.yaml" {
				t.Errorf("at %s:%d:%d %q, want line %d col %d %q", e.File, e.Line, e.Column, e.Path, tt.line, tt.col, tt.path)
			}
			if tt.bound != nil && !errors.Is(err, tt.bound) || tt.bound == nil && e.Err != nil {
				t.Errorf("Err = %v, want %v", e.Err, tt.bound)
			}
			if err.Error() != tt.want {
				t.Errorf("got  %q\nwant %q", err.Error(), tt.want)
			}
		})
	}
}

// A budget shared by several documents bounds them together, and the
// message names the budget's size, not what was left.
func TestBudgetShared(t *testing.T) {
	b := NewBudget(5)
	o := Options{File: "a.yaml", MaxDepth: 10, Budget: b, Report: func(Pos, Path, string) {}}
	if _, err := Parse([]byte("[1, 2]\n"), o); err != nil {
		t.Fatal(err)
	}
	o.File = "b.yaml"
	_, err := Parse([]byte("[1, 2, 3]\n"), o)
	if !errors.Is(err, ErrTooMany) || err.Error() != "b.yaml:1: [1]: more than 5 values after expanding YAML aliases; refusing to read further" {
		t.Errorf("err = %v", err)
	}
}

func TestNumber(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"1", "1"},
		{"1.10", "1.10"},
		{"-0", "-0"},
		{"99999999999999999999999", "99999999999999999999999"},
		{"0x1F", "31"},
		{"0o17", "15"},
		{"1_000", "1000"},
		{".5", "0.5"},
		{"+12", "12"},
		{"1e3", "1e3"},
		{"!!float 1", "1"},
		{".inf", ""},
		{"-.inf", ""},
		{".nan", ""},
		{"!!int x", ""},
		{"x", ""},
		{"true", ""},
		{"[1]", ""},
	}
	for _, tt := range tests {
		root, _, err := parse("v: "+tt.yaml+"\n", 3, 100)
		if err != nil {
			t.Fatal(err)
		}
		if got := root.Pairs[0].Val.Number(); got != tt.want {
			t.Errorf("%s: Number() = %q, want %q", tt.yaml, got, tt.want)
		}
	}
	if got := (*Node)(nil).Number(); got != "" {
		t.Errorf("nil Number() = %q", got)
	}
}

func TestDescribe(t *testing.T) {
	long := strings.Repeat("é", 45)
	tests := []struct {
		n    *Node
		want string
	}{
		{nil, "nothing"},
		{&Node{Kind: MappingNode}, "a mapping"},
		{&Node{Kind: ListNode}, "a list"},
		{&Node{Kind: ScalarNode, Tag: TagNull, Value: "~"}, "null"},
		{&Node{Kind: ScalarNode, Tag: TagStr, Value: "x\"y"}, `"x\"y"`},
		{&Node{Kind: ScalarNode, Tag: TagInt, Value: "0x1F"}, "0x1F"},
		{&Node{Kind: ScalarNode, Tag: TagBool, Value: "yes"}, "yes"},
		{&Node{Kind: ScalarNode, Tag: TagStr, Value: long}, `"` + strings.Repeat("é", 40) + `…"`},
		{&Node{Kind: ScalarNode, Tag: TagStr, Value: "tok-123", Masked: "[secret:T]"}, `"[secret:T]"`},
	}
	for _, tt := range tests {
		if got := Describe(tt.n); got != tt.want {
			t.Errorf("Describe(%+v) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestIsNull(t *testing.T) {
	tests := []struct {
		n    *Node
		want bool
	}{
		{nil, true},
		{&Node{Kind: ScalarNode, Tag: TagNull}, true},
		{&Node{Kind: ScalarNode, Tag: TagStr}, false},
		{&Node{Kind: MappingNode}, false},
	}
	for _, tt := range tests {
		if got := tt.n.IsNull(); got != tt.want {
			t.Errorf("%+v: IsNull() = %v", tt.n, got)
		}
	}
}
