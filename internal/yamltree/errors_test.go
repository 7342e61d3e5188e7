package yamltree

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// testError is an error type of a caller: a file, a line and a text.
type testError struct {
	file string
	line int
	msg  string
}

func (e *testError) Error() string { return Where(e.file, e.line, "") + e.msg }

func byFileLine(a, b *testError) int {
	return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line))
}

func more(msg string) *testError { return &testError{msg: msg} }

// lines returns the texts of the errors an errors.Join holds.
func lines(err error) []string {
	if err == nil {
		return nil
	}
	var out []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		out = append(out, e.Error())
	}
	return out
}

func TestErrorList(t *testing.T) {
	tests := []struct {
		name  string
		add   []*testError
		dedup bool
		want  []string
	}{
		{"none", nil, false, nil},
		{"sorted by file, then line; stable within a line",
			[]*testError{{"b", 1, "b1"}, {"a", 2, "a2 first"}, {"a", 1, "a1"}, {"a", 2, "a2 second"}}, false,
			[]string{"a:1: a1", "a:2: a2 first", "a:2: a2 second", "b:1: b1"}},
		{"duplicates kept without dedup",
			[]*testError{{"a", 1, "x"}, {"a", 1, "x"}}, false,
			[]string{"a:1: x", "a:1: x"}},
		{"duplicates that meet dropped with dedup",
			[]*testError{{"a", 1, "x"}, {"a", 2, "y"}, {"a", 1, "x"}}, true,
			[]string{"a:1: x", "a:2: y"}},
		{"duplicates that do not meet kept with dedup",
			[]*testError{{"a", 1, "x"}, {"a", 1, "y"}, {"a", 1, "x"}}, true,
			[]string{"a:1: x", "a:1: y", "a:1: x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var l ErrorList[*testError]
			for _, e := range tt.add {
				l.Add(e)
			}
			if l.Len() != len(tt.add) {
				t.Errorf("Len() = %d, want %d", l.Len(), len(tt.add))
			}
			err := l.Err(byFileLine, tt.dedup, more)
			if (err == nil) != (tt.want == nil) {
				t.Fatalf("err = %v", err)
			}
			if got := lines(err); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestErrorListCapped(t *testing.T) {
	var l ErrorList[*testError]
	for i := range MaxErrors + 70 {
		l.Add(&testError{"f", MaxErrors + 70 - i, "m"})
	}
	err := l.Err(byFileLine, false, more)
	got := lines(err)
	if len(got) != MaxErrors+1 || got[0] != "f:1: m" || got[MaxErrors-1] != fmt.Sprintf("f:%d: m", MaxErrors) ||
		got[MaxErrors] != "70 more problems not shown" {
		t.Errorf("%d problems: first %q, last %q", len(got), got[0], got[len(got)-1])
	}
	var te *testError
	if !errors.As(err, &te) || te.line != 1 {
		t.Errorf("errors.As gives %+v", te)
	}
	// Err leaves the list as it was found.
	if l.Len() != MaxErrors+70 || l.errs[0].line != MaxErrors+70 {
		t.Error("Err changed the list")
	}
}

func TestWhere(t *testing.T) {
	tests := []struct {
		file string
		line int
		path string
		want string
	}{
		{"a.yaml", 3, "x.y", "a.yaml:3: x.y: "},
		{"a.yaml", 0, "x", "a.yaml: x: "},
		{"a.yaml", 3, "", "a.yaml:3: "},
		{"", 3, "x", "x: "},
		{"", 0, "", ""},
	}
	for _, tt := range tests {
		if got := Where(tt.file, tt.line, tt.path); got != tt.want {
			t.Errorf("Where(%q, %d, %q) = %q, want %q", tt.file, tt.line, tt.path, got, tt.want)
		}
	}
}

func TestShowFile(t *testing.T) {
	tests := []struct{ workDir, file, want string }{
		{"/a", "/a/b/c.yaml", "b/c.yaml"},
		{"/a/b/c/d/e/f", "/x.yaml", "/x.yaml"}, // ../../../../../../x.yaml is longer
		{"/long/b", "/long/c.yaml", "../c.yaml"},
		{"/a/b", "/a/c.yaml", "/a/c.yaml"}, // ../c.yaml is no shorter
		{"", "/a/c.yaml", "/a/c.yaml"},
		{"/a", "", ""},
		{"/a", "c.yaml", "c.yaml"}, // relative: cannot be made relative to /a
	}
	for _, tt := range tests {
		if got := ShowFile(tt.workDir, tt.file); got != tt.want {
			t.Errorf("ShowFile(%q, %q) = %q, want %q", tt.workDir, tt.file, got, tt.want)
		}
	}
}

func TestPath(t *testing.T) {
	tests := []struct {
		p    Path
		want string
	}{
		{nil, ""},
		{Path{"a"}, "a"},
		{Path{"a", "b"}, "a.b"},
		{Path{"a"}.Index(2).With("c"), "a[2].c"},
		{Path{}.Index(0).With("id"), "[0].id"},
		{Path{"a.b", "c"}, "a.b.c"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("%q.String() = %q, want %q", []string(tt.p), got, tt.want)
		}
	}
	// Siblings never share an array.
	base := make(Path, 1, 10)
	base[0] = "a"
	x, y := base.With("x"), base.With("y")
	if x.String() != "a.x" || y.String() != "a.y" || len(base) != 1 {
		t.Errorf("siblings: %s, %s", x, y)
	}
}

func TestErrorText(t *testing.T) {
	tests := []struct {
		e    *Error
		want string
	}{
		{&Error{Pos: Pos{"f.yaml", 2, 3}, Path: Path{"a"}.Index(1), Msg: "m"}, "f.yaml:2: a[1]: m"},
		{&Error{Pos: Pos{File: "f.yaml"}, Msg: "YAML syntax error: x"}, "f.yaml: YAML syntax error: x"},
		{&Error{Msg: "m"}, "m"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
	if e := (&Error{Err: ErrTooDeep}); !errors.Is(e, ErrTooDeep) || errors.Is(e, ErrTooMany) {
		t.Error("Unwrap does not give Err")
	}
}
