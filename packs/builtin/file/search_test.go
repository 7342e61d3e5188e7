package file

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestGrepIncludeExclude(t *testing.T) {
	e := newEnv(t, Options{})
	e.files(map[string]string{
		"main.go":              "needle\n",
		"main_test.go":         "needle\n",
		"vendor/v.go":          "needle\n",
		"src/a.ts":             "needle\n",
		"src/gen/b.ts":         "needle\n",
		"src/c.md":             "needle\n",
		"docs/d.md":            "needle\n",
		"node_modules/m/i.js":  "needle\n",
		"deep/er/still/x.yaml": "needle\n",
	})
	tests := []struct {
		args map[string]any
		want []string
		err  string
	}{
		{map[string]any{"include": "*.go"}, []string{"main.go", "main_test.go", "vendor/v.go"}, ""},
		{map[string]any{"glob": "*.go"}, []string{"main.go", "main_test.go", "vendor/v.go"}, ""}, // the old name
		{map[string]any{"include": []any{"*.go", "*.md"}, "exclude": []any{"*_test.go", "vendor/"}}, []string{"docs/d.md", "main.go", "src/c.md"}, ""},
		{map[string]any{"include": "src/**/*.ts"}, []string{"src/a.ts", "src/gen/b.ts"}, ""},
		{map[string]any{"include": "src/**/*.ts", "exclude": "src/gen"}, []string{"src/a.ts"}, ""},
		{map[string]any{"exclude": "gen"}, []string{"deep/er/still/x.yaml", "docs/d.md", "main.go", "main_test.go", "src/a.ts", "src/c.md", "vendor/v.go"}, ""},
		{map[string]any{"include": "*.{yml,yaml}"}, []string{"deep/er/still/x.yaml"}, ""},
		{map[string]any{"include": "[a-m]*.go", "exclude": "*_test*"}, []string{"main.go"}, ""},
		{map[string]any{"include": "node_modules/**/*.js"}, []string{"node_modules/m/i.js"}, ""},
		{map[string]any{"include": "*.ts", "path": "src"}, []string{"src/a.ts", "src/gen/b.ts"}, ""},
		{map[string]any{"include": "gen/*.ts", "path": "src"}, []string{"src/gen/b.ts"}, ""},
		{map[string]any{"include": "*.go", "path": "src/c.md"}, []string{"src/c.md"}, ""}, // a file named as path is searched
		{map[string]any{"include": "{a,b"}, nil, "'include' \"{a,b\" is not a valid glob"},
		{map[string]any{"exclude": []any{"*.go", 3}}, nil, "args.exclude[1]: must be str"},
		{map[string]any{"include": "../*"}, nil, "goes up"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.args), func(t *testing.T) {
			args := map[string]any{"pattern": "needle", "files_only": true}
			for k, v := range tt.args {
				args[k] = v
			}
			if tt.err != "" {
				e.fails("grep", args, tt.err)
				return
			}
			if got := strs(t, e.must("grep", args)); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// .gitignore files are read as git does: root and nested, negation,
// directory patterns, anchoring, and those above the start.
func TestGitignore(t *testing.T) {
	e := newEnv(t, Options{})
	e.files(map[string]string{
		".gitignore":           "# build output\n*.log\n!keep.log\nbuild/\n/top.txt\ndocs/**/*.tmp\n",
		"a.log":                "needle\n",
		"keep.log":             "needle\n",
		"top.txt":              "needle\n",
		"sub/top.txt":          "needle\n",
		"build/out.txt":        "needle\n",
		"sub/build/x.txt":      "needle\n",
		"sub/build.txt":        "needle\n",
		"docs/a/b/c.tmp":       "needle\n",
		"docs/a/b/c.txt":       "needle\n",
		"sub/.gitignore":       "secret.txt\n!a.log\nnested/\n",
		"sub/secret.txt":       "needle\n",
		"secret.txt":           "needle\n",
		"sub/a.log":            "needle\n",
		"sub/nested/n.txt":     "needle\n",
		".git/config":          "needle\n",
		"src/main.go":          "needle\n",
		"other/.gitignore":     "*\n",
		"other/hidden.txt":     "needle\n",
		"logs.log/inside.txt":  "needle\n",
		"notbuild/build":       "needle\n", // a file named build: "build/" is for directories
		"sub/deeper/secret.md": "needle\n",
	})
	all := func(args map[string]any) []string {
		t.Helper()
		a := map[string]any{"pattern": "needle", "files_only": true}
		for k, v := range args {
			a[k] = v
		}
		return strs(t, e.must("grep", a))
	}
	want := []string{"docs/a/b/c.txt", "keep.log", "notbuild/build", "secret.txt", "src/main.go", "sub/a.log", "sub/build.txt", "sub/deeper/secret.md", "sub/top.txt"}
	if got := all(nil); !slices.Equal(got, want) {
		t.Errorf("grep with .gitignore:\n got %q\nwant %q", got, want)
	}
	// Starting below the root, the root's rules still apply.
	if got := all(map[string]any{"path": "sub"}); !slices.Equal(got, []string{"sub/a.log", "sub/build.txt", "sub/deeper/secret.md", "sub/top.txt"}) {
		t.Errorf("grep in sub: %q", got)
	}
	// A directory named as path is searched even if ignored above it.
	if got := all(map[string]any{"path": "build"}); !slices.Equal(got, []string{"build/out.txt"}) {
		t.Errorf("grep in an ignored directory: %q", got)
	}
	// gitignore=False: everything but .git and the like.
	got := all(map[string]any{"gitignore": false})
	if len(got) != 18 || slices.Contains(got, ".git/config") {
		t.Errorf("grep without .gitignore (%d): %q", len(got), got)
	}
	// glob and tree follow the same rules.
	if g := strs(t, e.must("glob", map[string]any{"pattern": "**/*.log"})); !slices.Equal(g, []string{"keep.log", "sub/a.log"}) {
		t.Errorf("glob: %q", g)
	}
	if g := strs(t, e.must("glob", map[string]any{"pattern": "**/*.log", "gitignore": false})); len(g) != 4 {
		t.Errorf("glob without .gitignore: %q", g)
	}
	tree := e.must("tree", map[string]any{"path": "sub"}).(string)
	if tree != "sub/\n  .gitignore\n  a.log\n  build.txt\n  deeper/\n    secret.md\n  top.txt\n(3 entries ignored by .gitignore not shown: gitignore=False shows them)" {
		t.Errorf("tree:\n%s", tree)
	}
	if tree := e.must("tree", map[string]any{"path": "sub", "gitignore": false}).(string); strings.Contains(tree, "ignored") || !strings.Contains(tree, "secret.txt") {
		t.Errorf("tree without .gitignore:\n%s", tree)
	}
}

// A .git directory marks the top of a repository: rules above it do not
// apply inside.
func TestGitignoreRepositoryTop(t *testing.T) {
	e := newEnv(t, Options{})
	e.files(map[string]string{
		".gitignore":          "*.txt\n",
		"repo/.git/HEAD":      "",
		"repo/a.txt":          "needle\n",
		"repo/.git/info/":     "",
		"repo/b.md":           "needle\n",
		"repo/sub/c.md":       "needle\n",
		"repo/sub/.gitignore": "c.md\n",
	})
	os.WriteFile(filepath.Join(e.root, "repo/.git/info/exclude"), []byte("b.md\n"), 0o644)
	got := strs(t, e.must("grep", map[string]any{"pattern": "needle", "path": "repo/sub/..", "files_only": true}))
	if !slices.Equal(got, []string{"repo/a.txt"}) {
		t.Errorf("grep in a repository below the root: %q", got)
	}
}

// A .gitignore that is a link out of the root, or a pipe, is not read.
func TestGitignoreNotRegular(t *testing.T) {
	e := newEnv(t, Options{})
	os.WriteFile(filepath.Join(e.tmp, "outside"), []byte("*\n"), 0o644)
	e.files(map[string]string{"a.txt": "needle\n", "sub/b.txt": "needle\n"})
	os.Symlink(filepath.Join(e.tmp, "outside"), filepath.Join(e.root, ".gitignore"))
	os.Symlink("../../outside", filepath.Join(e.root, "sub/.gitignore"))
	got := strs(t, e.must("grep", map[string]any{"pattern": "needle", "files_only": true}))
	if !slices.Equal(got, []string{"a.txt", "sub/b.txt"}) {
		t.Errorf("links to an outside .gitignore were read: %q", got)
	}
}

func TestGrepLongLines(t *testing.T) {
	e := newEnv(t, Options{})
	line := strings.Repeat("x", 3<<20) + "NEEDLE" + strings.Repeat("y", 3<<20)
	e.files(map[string]string{"min.js": "before\n" + line + "\nafter\n", "end.txt": strings.Repeat("z", 1000) + "END\n"})
	got := strs(t, e.must("grep", map[string]any{"pattern": "NEEDLE", "context": 1}))
	if len(got) != 3 || got[0] != "min.js:1- before" || got[2] != "min.js:3- after" {
		t.Fatalf("got %d lines: %.300q", len(got), got)
	}
	m := got[1]
	if len(m) > 500 || !strings.HasPrefix(m, "min.js:2: …x") || !strings.Contains(m, "NEEDLE") || !strings.HasSuffix(m, "y…") {
		t.Errorf("long line shown as %d bytes: %.600q", len(m), m)
	}
	// A match at the end of a long line shows a full window before it.
	got = strs(t, e.must("grep", map[string]any{"pattern": "END", "path": "end.txt"}))
	if want := "end.txt:1: …" + strings.Repeat("z", maxShownLine-3) + "END"; len(got) != 1 || got[0] != want {
		t.Errorf("end of a long line: %q", got)
	}
	// A long context line is cut too.
	got = strs(t, e.must("grep", map[string]any{"pattern": "before", "context": 1, "path": "min.js"}))
	if len(got) != 2 || len(got[1]) > 500 || !strings.HasSuffix(got[1], "…") {
		t.Errorf("long context line: %.600q", got)
	}
}

// A result never grows past MaxGrepOutput, whatever limit says.
func TestGrepOutputBounded(t *testing.T) {
	e := newEnv(t, Options{})
	var b strings.Builder
	for range 5000 {
		b.WriteString(strings.Repeat("w", 300) + " match\n")
	}
	e.files(map[string]string{"big.txt": b.String()})
	got := strs(t, e.must("grep", map[string]any{"pattern": "match", "limit": 10000}))
	size := 0
	for _, l := range got {
		size += len(l)
	}
	last := got[len(got)-1]
	if size > MaxGrepOutput+1000 || !strings.Contains(last, "more matches: the result is full") {
		t.Errorf("%d lines, %d bytes, last %q", len(got), size, last)
	}
}
