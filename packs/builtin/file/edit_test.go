package file

import (
	"strings"
	"testing"
)

func TestEditCount(t *testing.T) {
	e := newEnv(t, Options{Backups: true})
	src := "a = 1\nb = 1\nc = 1\n"
	tests := []struct {
		name   string
		args   map[string]any
		want   string // content after
		result string
		err    []string
	}{
		{"count matches", map[string]any{"old": "= 1", "new": "= 2", "count": 3},
			"a = 2\nb = 2\nc = 2\n", "replaced 3 occurrences (lines 1, 2, 3)", nil},
		{"count too low", map[string]any{"old": "= 1", "new": "= 2", "count": 2}, src, "",
			[]string{"occurs 3 times in f.py (lines 1, 2, 3), not 2 as count=2 expects", "nothing was changed", "count=3"}},
		{"count too high", map[string]any{"old": "b = 1", "new": "b = 2", "count": 2}, src, "",
			[]string{"occurs once in f.py (line 2), not 2 as count=2 expects"}},
		{"count one", map[string]any{"old": "b = 1", "new": "b = 2", "count": 1}, "a = 1\nb = 2\nc = 1\n", "replaced 1 occurrence at line 2", nil},
		{"count with replace_all", map[string]any{"old": "= 1", "new": "= 2", "count": 2, "replace_all": true}, src, "", []string{"occurs 3 times"}},
		{"count not found", map[string]any{"old": "d = 1", "new": "x", "count": 1}, src, "", []string{"not found"}},
		{"ambiguous names count", map[string]any{"old": "= 1", "new": "= 2"}, src, "", []string{"occurs 3 times", "pass count=3"}},
		{"synonym", map[string]any{"old": "= 1", "new": "= 2", "expected_replacements": 3}, "a = 2\nb = 2\nc = 2\n", "replaced 3", nil},
		{"negative", map[string]any{"old": "= 1", "new": "= 2", "count": -1}, src, "", []string{"count"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.files(map[string]string{"f.py": src})
			args := map[string]any{"path": "f.py"}
			for k, v := range tt.args {
				args[k] = v
			}
			if tt.err != nil {
				e.fails("edit", args, tt.err...)
			} else if v := e.must("edit", args).(string); !strings.Contains(v, tt.result) {
				t.Errorf("result %q, want %q", v, tt.result)
			}
			if got := e.read("f.py"); got != tt.want {
				t.Errorf("content %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEditDryRun(t *testing.T) {
	e := newEnv(t, Options{Backups: true})
	src := "package x\n\nfunc a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n"
	e.files(map[string]string{"f.go": src})
	got := e.must("edit", map[string]any{"path": "f.go", "old": "return 1", "new": "return 2", "count": 2, "dry_run": true})
	want := "dry run: would replace 2 occurrences (lines 4, 8) in f.go; nothing was written\n" +
		"--- f.go\n+++ f.go (after the edit)\n@@ -4 +4 @@\n-\treturn 1\n+\treturn 2\n@@ -8 +8 @@\n-\treturn 1\n+\treturn 2"
	if got != want {
		t.Errorf("dry run =\n%s\nwant\n%s", got, want)
	}
	if e.read("f.go") != src || len(e.backups()) != 0 {
		t.Errorf("dry run changed something: %q, backups %v", e.read("f.go"), e.backups())
	}
	// Errors are the same as for a real edit.
	e.fails("edit", map[string]any{"path": "f.go", "old": "return 1", "new": "x", "dry_run": true}, "occurs 2 times")
	e.fails("edit", map[string]any{"path": "f.go", "old": "return 3", "new": "x", "dry_run": true}, "not found")
	// A read-only pack allows a dry run, and only that.
	ro := newEnv(t, Options{ReadOnly: true})
	ro.files(map[string]string{"f.go": src})
	if v := ro.must("edit", map[string]any{"path": "f.go", "old": "func a", "new": "func c", "preview": true}).(string); !strings.HasPrefix(v, "dry run:") {
		t.Errorf("read-only dry run: %q", v)
	}
	ro.fails("edit", map[string]any{"path": "f.go", "old": "func a", "new": "func c"}, "read-only")
}

func TestEditDiff(t *testing.T) {
	tests := []struct {
		name, text, old, repl, want string
	}{
		{"one line", "a\nb\nc\n", "b", "B", "@@ -2 +2 @@\n-b\n+B"},
		{"two on one line", "x x\ny\n", "x", "z", "@@ -1 +1 @@\n-x x\n+z z"},
		{"adds lines", "a\nb\nc\nb\n", "b", "b1\nb2", "@@ -2 +2,2 @@\n-b\n+b1\n+b2\n@@ -4 +5,2 @@\n-b\n+b1\n+b2"},
		{"removes a line", "a\nb\nc\n", "b\n", "", "@@ -2 +1,0 @@\n-b"},
		{"spans lines", "a\nb\nc\nd\n", "b\nc", "X", "@@ -2,2 +2 @@\n-b\n-c\n+X"},
		{"last line without newline", "a\nb", "b", "c", "@@ -2 +2 @@\n-b\n+c"},
		{"crlf", "a\r\nb\r\n", "b", "c", "@@ -2 +2 @@\n-b\n+c"},
		{"adjacent lines stay apart", "b\nb\n", "b\n", "c\n", "@@ -1 +1 @@\n-b\n+c\n@@ -2 +2 @@\n-b\n+c"},
	}
	for _, tt := range tests {
		got := editDiff(tt.text, tt.old, tt.repl, "f")
		got = strings.TrimPrefix(got, "--- f\n+++ f (after the edit)\n")
		if got != tt.want {
			t.Errorf("%s:\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
	// A long line is cut around the change.
	long := strings.Repeat("a", 5000) + "OLD" + strings.Repeat("b", 5000) + "\n"
	d := editDiff(long, "OLD", "NEW", "f")
	if len(d) > 1000 || !strings.Contains(d, "-…"+strings.Repeat("a", 50)+"OLD") || !strings.Contains(d, "+…"+strings.Repeat("a", 50)+"NEW") {
		t.Errorf("long line diff (%d bytes):\n%s", len(d), d)
	}
	// Many places: the excerpt stops and counts the rest.
	many := strings.Repeat("x\n", 100)
	d = editDiff(many, "x", "y", "f")
	if strings.Count(d, "@@ -") != maxDiffHunks || !strings.HasSuffix(d, "… 80 more changed places not shown") {
		t.Errorf("many places:\n%s", d)
	}
}
