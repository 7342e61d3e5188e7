package file

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/roots"
)

func TestRegister(t *testing.T) {
	r, _ := roots.New(t.TempDir())
	reg := packs.NewRegistry()
	if err := Register(reg, Options{Roots: r}); err != nil {
		t.Fatal(err)
	}
	p, ok := reg.Pack("file")
	if !ok || p.Description != Description {
		t.Fatalf("pack = %+v, %v", p, ok)
	}
	want := []string{"copy", "delete", "edit", "glob", "grep", "info", "list", "move", "read", "tree", "write"}
	var got []string
	for _, tl := range reg.Tools() {
		got = append(got, tl.Name)
		if len(tl.Examples) == 0 {
			t.Errorf("%s has no example", tl.ID())
		}
		modifies := slices.Contains([]string{"write", "edit", "copy", "move", "delete"}, tl.Name)
		if tl.Annotations.ReadOnly == modifies || tl.Annotations.Destructive != modifies {
			t.Errorf("%s annotations %+v", tl.ID(), tl.Annotations)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("tools %v, want %v", got, want)
	}
	read, _ := reg.Tool("file.read")
	if sig := read.Signature(); sig != "file.read(path: str, offset: int = 1, limit: int = 2000) -> str" {
		t.Errorf("read signature %q", sig)
	}
	if err := Register(packs.NewRegistry(), Options{}); err == nil {
		t.Error("Register without roots: no error")
	}
}

func TestRead(t *testing.T) {
	e := newEnv(t, Options{})
	var lines strings.Builder
	for i := 1; i <= 2500; i++ {
		fmt.Fprintf(&lines, "line %d\n", i)
	}
	e.files(map[string]string{
		"a.txt":      "one\ntwo\nthree\n",
		"crlf.txt":   "one\r\ntwo\r\n",
		"nonl.txt":   "one\ntwo",
		"empty.txt":  "",
		"big.txt":    lines.String(),
		"bin.dat":    "abc\x00def",
		"dir/x.txt":  "x",
		"long.txt":   strings.Repeat("é", MaxLineLen) + "\nshort\n",
		"héllo.txt":  "unicode name\n",
		"sp ace.txt": "space\n",
	})
	tests := []struct {
		name string
		args map[string]any
		want string
		err  string
	}{
		{"whole file as stored", map[string]any{"path": "a.txt"}, "one\ntwo\nthree\n", ""},
		{"line endings kept", map[string]any{"path": "crlf.txt"}, "one\r\ntwo\r\n", ""},
		{"no final newline", map[string]any{"path": "nonl.txt"}, "one\ntwo", ""},
		{"empty", map[string]any{"path": "empty.txt"}, "", ""},
		{"offset", map[string]any{"path": "a.txt", "offset": 2}, "two\nthree\n", ""},
		{"offset and limit", map[string]any{"path": "a.txt", "offset": 2, "limit": 1}, "two\n… (1 more line: file.read(path=\"a.txt\", offset=3))", ""},
		{"no newline then note", map[string]any{"path": "nonl.txt", "limit": 1}, "one\n… (1 more line: file.read(path=\"nonl.txt\", offset=2))", ""},
		{"last line", map[string]any{"path": "a.txt", "offset": 3}, "three\n", ""},
		{"absolute path", map[string]any{"path": filepath.Join(e.root, "a.txt")}, "one\ntwo\nthree\n", ""},
		{"dot path", map[string]any{"path": "./dir/../a.txt", "limit": 1}, "one\n… (2 more lines: file.read(path=\"./dir/../a.txt\", offset=2))", ""},
		{"unicode name", map[string]any{"path": "héllo.txt"}, "unicode name\n", ""},
		{"space in name", map[string]any{"path": "sp ace.txt"}, "space\n", ""},
		{"offset past end", map[string]any{"path": "a.txt", "offset": 4}, "", "a.txt has 3 lines: offset must be between 1 and 3"},
		{"binary", map[string]any{"path": "bin.dat"}, "", "binary file"},
		{"directory", map[string]any{"path": "dir"}, "", "dir is a directory, not a file: use file.list"},
		{"missing", map[string]any{"path": "nope.txt"}, "", "nope.txt does not exist"},
		{"offset 0", map[string]any{"path": "a.txt", "offset": 0}, "", "offset"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := e.call("read", tt.args)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if v != tt.want {
				t.Errorf("got %q, want %q", v, tt.want)
			}
		})
	}
	t.Run("default page of 2000 lines", func(t *testing.T) {
		v := e.must("read", map[string]any{"path": "big.txt"}).(string)
		if !strings.HasPrefix(v, "line 1\n") || !strings.Contains(v, "line 2000\n") || strings.Contains(v, "line 2001\n") {
			t.Errorf("page: %q…", v[:40])
		}
		if !strings.HasSuffix(v, "\n… (500 more lines: file.read(path=\"big.txt\", offset=2001))") {
			t.Errorf("note: %q", v[len(v)-80:])
		}
		v = e.must("read", map[string]any{"path": "big.txt", "offset": 2001}).(string)
		if !strings.HasPrefix(v, "line 2001\n") || !strings.HasSuffix(v, "line 2500\n") {
			t.Errorf("second page: %q", v)
		}
	})
	t.Run("long lines cut", func(t *testing.T) {
		v := e.must("read", map[string]any{"path": "long.txt"}).(string)
		if !strings.Contains(v, "… (line cut: ") || !strings.HasSuffix(v, ")\nshort\n") {
			t.Errorf("got %q", v[len(v)-60:])
		}
	})
	t.Run("output capped", func(t *testing.T) {
		line := strings.Repeat("x", 999) + "\n"
		e.files(map[string]string{"wide.txt": strings.Repeat(line, 1000)})
		v := e.must("read", map[string]any{"path": "wide.txt"}).(string)
		if len(v) > MaxReadOutput+200 {
			t.Errorf("read returned %d bytes", len(v))
		}
		shown := MaxReadOutput / 1000
		note := fmt.Sprintf("… (%d more lines: file.read(path=\"wide.txt\", offset=%d))", 1000-shown, shown+1)
		if !strings.HasSuffix(v, note) {
			t.Errorf("note %q, want %q", v[len(v)-80:], note)
		}
	})
	t.Run("too big", func(t *testing.T) {
		f, err := os.Create(filepath.Join(e.root, "huge.log"))
		if err != nil {
			t.Fatal(err)
		}
		f.Truncate(MaxReadFile + 1) // sparse: costs no disk
		f.Close()
		e.fails("read", map[string]any{"path": "huge.log"}, "huge.log is 32.0 MiB", "use file.grep")
	})
}

func TestWrite(t *testing.T) {
	e := newEnv(t, Options{Backups: true})
	e.files(map[string]string{"old.txt": "old\n", "dir/": ""})
	os.Chmod(filepath.Join(e.root, "old.txt"), 0o600)

	tests := []struct {
		name    string
		args    map[string]any
		want    string // result prefix
		file    string
		content string
	}{
		{"create", map[string]any{"path": "new.txt", "content": "hello\n"}, "created new.txt (6 bytes)", "new.txt", "hello\n"},
		{"create with dirs", map[string]any{"path": "a/b/c.txt", "content": "deep"}, "created a/b/c.txt (4 bytes)", "a/b/c.txt", "deep"},
		{"overwrite", map[string]any{"path": "old.txt", "content": "new\n"}, "wrote 4 bytes to old.txt (backup: .onetool/backups/", "old.txt", "new\n"},
		{"append", map[string]any{"path": "new.txt", "content": "more\n", "append": true}, "appended 5 bytes to new.txt (now 11 bytes)", "new.txt", "hello\nmore\n"},
		{"append creates", map[string]any{"path": "log.txt", "content": "1\n", "append": true}, "created log.txt", "log.txt", "1\n"},
		{"empty content", map[string]any{"path": "empty.txt", "content": ""}, "created empty.txt (0 bytes)", "empty.txt", ""},
		{"synonym text", map[string]any{"path": "syn.txt", "text": "s"}, "created syn.txt", "syn.txt", "s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := e.must("write", tt.args).(string)
			if !strings.HasPrefix(v, tt.want) {
				t.Errorf("result %q, want prefix %q", v, tt.want)
			}
			if got := e.read(tt.file); got != tt.content {
				t.Errorf("content %q, want %q", got, tt.content)
			}
		})
	}
	st, _ := os.Stat(filepath.Join(e.root, "old.txt"))
	if st.Mode().Perm() != 0o600 {
		t.Errorf("overwrite changed permissions to %v", st.Mode().Perm())
	}
	if b := e.backups(); len(b) != 1 || !strings.HasSuffix(b[0], "-write/old.txt") {
		t.Errorf("backups %v", b)
	} else if data, _ := os.ReadFile(filepath.Join(e.root, BackupDir, b[0])); string(data) != "old\n" {
		t.Errorf("backup holds %q", data)
	}
	e.fails("write", map[string]any{"path": "dir", "content": "x"}, "dir is a directory")
	e.fails("write", map[string]any{"path": "nodir/x.txt", "content": "x", "create_dirs": false}, "pass create_dirs=True")
	e.fails("write", map[string]any{"path": ".", "content": "x"}, "is a directory")
	e.fails("write", map[string]any{"path": "", "content": "x"}, "empty path")
	e.fails("write", map[string]any{"path": "x.txt"}, "content")
	if e.exists("nodir") {
		t.Error("create_dirs=False created the directory")
	}
	// Nothing but what was asked for.
	got := listAll(t, e.root)
	for _, p := range got {
		if strings.Contains(p, ".onetool-") || strings.HasSuffix(p, ".tmp") {
			t.Errorf("stray file %s", p)
		}
	}
}

func TestWriteTooBigKeepsOld(t *testing.T) {
	e := newEnv(t, Options{Backups: true})
	e.files(map[string]string{"keep.txt": "precious\n"})
	e.fails("write", map[string]any{"path": "keep.txt", "content": strings.Repeat("x", MaxWrite+1)}, "more than the 32.0 MiB", "append=True")
	if got := e.read("keep.txt"); got != "precious\n" {
		t.Errorf("content %q", got)
	}
	if got := listAll(t, e.root); !slices.Equal(got, []string{"keep.txt"}) {
		t.Errorf("files %v", got)
	}
}

// A write that fails or is cancelled after the temporary file is written
// leaves the old content and no stray file.
func TestWriteAtomic(t *testing.T) {
	for _, tt := range []struct {
		name string
		hook func(cancel context.CancelFunc) error
		want string
	}{
		{"failure before rename", func(context.CancelFunc) error { return errors.New("disk on fire") }, "disk on fire"},
		{"cancelled before rename", func(cancel context.CancelFunc) error { cancel(); return nil }, "cancelled"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hooks := &testHooks{}
			e := newEnv(t, Options{Backups: false, hooks: hooks})
			e.files(map[string]string{"f.txt": "old\n"})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			sawTemp := false
			hooks.beforeRename = func(tmp string) error {
				_, err := os.Stat(filepath.Join(e.root, tmp))
				sawTemp = err == nil
				return tt.hook(cancel)
			}
			for _, call := range []struct {
				tool string
				args map[string]any
			}{
				{"write", map[string]any{"path": "f.txt", "content": "new\n"}},
				{"edit", map[string]any{"path": "f.txt", "old": "old", "new": "new"}},
				{"write", map[string]any{"path": "f.txt", "content": "more\n", "append": true}},
				{"copy", map[string]any{"src": "f.txt", "dst": "g.txt"}},
			} {
				ctx, cancel = context.WithCancel(context.Background())
				_, err := e.callCtx(ctx, call.tool, call.args)
				cancel()
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("%s: error %v, want %q", call.tool, err, tt.want)
				}
				if !sawTemp {
					t.Errorf("%s: the hook saw no temporary file", call.tool)
				}
				if got := e.read("f.txt"); got != "old\n" {
					t.Errorf("%s: content %q", call.tool, got)
				}
				if got := listAll(t, e.root); !slices.Equal(got, []string{"f.txt"}) {
					t.Errorf("%s: files %v", call.tool, got)
				}
			}
		})
	}
}

func TestEdit(t *testing.T) {
	e := newEnv(t, Options{Backups: true})
	src := "package x\n\nfunc a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n"
	tests := []struct {
		name   string
		file   string
		args   map[string]any
		want   string
		result string
		err    []string
	}{
		{"unique", src, map[string]any{"old": "func a() {\n\treturn 1", "new": "func a() {\n\treturn 2"},
			strings.Replace(src, "return 1", "return 2", 1), "edited f.go: replaced 1 occurrence at line 3", nil},
		{"ambiguous", src, map[string]any{"old": "return 1", "new": "return 2"}, src, "",
			[]string{"occurs 2 times in f.go (lines 4, 8)", "replace_all=True"}},
		{"replace all", src, map[string]any{"old": "return 1", "new": "return 2", "replace_all": true},
			strings.ReplaceAll(src, "return 1", "return 2"), "edited f.go: replaced 2 occurrences (lines 4, 8)", nil},
		{"delete text", "a b c", map[string]any{"old": " b", "new": ""}, "a c", "replaced 1 occurrence at line 1", nil},
		{"not found", src, map[string]any{"old": "return 3", "new": "x"}, src, "",
			[]string{"'old' text not found in f.go", "read the file first"}},
		{"first line found", src, map[string]any{"old": "func a() {\n    return 1", "new": "x"}, src, "",
			[]string{"its first line is at line 3"}},
		{"whitespace differs", "a  b\n", map[string]any{"old": "a b", "new": "x"}, "a  b\n", "",
			[]string{"differs only in spaces"}},
		{"crlf file", "one\r\ntwo\r\n", map[string]any{"old": "one\ntwo", "new": "1\n2"}, "1\r\n2\r\n", "replaced 1 occurrence", nil},
		{"empty old", src, map[string]any{"old": "", "new": "x"}, src, "", []string{"'old' is empty"}},
		{"same", src, map[string]any{"old": "a", "new": "a"}, src, "", []string{"the same"}},
		{"synonyms", "x = 1", map[string]any{"old_string": "1", "new_string": "2"}, "x = 2", "edited", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.files(map[string]string{"f.go": tt.file})
			args := map[string]any{"path": "f.go"}
			for k, v := range tt.args {
				args[k] = v
			}
			if tt.err != nil {
				e.fails("edit", args, tt.err...)
			} else if v := e.must("edit", args).(string); !strings.Contains(v, tt.result) {
				t.Errorf("result %q, want %q", v, tt.result)
			}
			if got := e.read("f.go"); got != tt.want {
				t.Errorf("content %q, want %q", got, tt.want)
			}
		})
	}
	e.fails("edit", map[string]any{"path": "missing.go", "old": "a", "new": "b"}, "does not exist")
	e.files(map[string]string{"bin": "a\x00b"})
	e.fails("edit", map[string]any{"path": "bin", "old": "a", "new": "b"}, "binary")
	// Permissions survive, and each edit left a backup.
	os.Chmod(filepath.Join(e.root, "f.go"), 0o751)
	e.must("edit", map[string]any{"path": "f.go", "old": "x", "new": "y"})
	if st, _ := os.Stat(filepath.Join(e.root, "f.go")); st.Mode().Perm() != 0o751 {
		t.Errorf("permissions %v", st.Mode().Perm())
	}
	if n := len(e.backups()); n != 6 {
		t.Errorf("%d backups: %v", n, e.backups())
	}
}

func TestList(t *testing.T) {
	e := newEnv(t, Options{})
	e.files(map[string]string{"b.go": "package b", "a.md": "# a", "sub/x.go": "", ".hidden": "h", "empty/": ""})
	os.Symlink("sub", filepath.Join(e.root, "link"))
	tests := []struct {
		args map[string]any
		want []string
		err  string
	}{
		{map[string]any{}, []string{".hidden", "a.md", "b.go", "empty/", "link", "sub/"}, ""},
		{map[string]any{"path": "sub"}, []string{"x.go"}, ""},
		{map[string]any{"path": "link"}, []string{"x.go"}, ""},
		{map[string]any{"pattern": "*.go"}, []string{"b.go"}, ""},
		{map[string]any{"pattern": "*.{go,md}"}, []string{"a.md", "b.go"}, ""},
		{map[string]any{"path": "empty"}, []string{}, ""},
		{map[string]any{"limit": 2}, []string{".hidden", "a.md", "… 4 more entries: narrow with pattern= (e.g. \"*.go\") or raise limit"}, ""},
		{map[string]any{"path": "b.go"}, nil, "b.go is a file, not a directory"},
		{map[string]any{"path": "nope"}, nil, "nope does not exist"},
		{map[string]any{"pattern": "sub/*.go"}, nil, "use file.glob"},
		{map[string]any{"pattern": "[a"}, nil, "not a valid glob"},
		{map[string]any{"pattern": "*/"}, []string{"empty/", "sub/"}, ""},
		{map[string]any{"pattern": "[!ab]*"}, []string{".hidden", "empty/", "link", "sub/"}, ""},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.args), func(t *testing.T) {
			if tt.err != "" {
				e.fails("list", tt.args, tt.err)
				return
			}
			if got := strs(t, e.must("list", tt.args)); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	v := e.must("list", map[string]any{"details": true}).([]any)
	var got []string
	for _, x := range v {
		m := dict(t, x)
		name, _ := m.Get("name")
		typ, _ := m.Get("type")
		size, _ := m.Get("size")
		mod, _ := m.Get("modified")
		got = append(got, fmt.Sprintf("%v %v %v", name, typ, size))
		if s, _ := mod.(string); !strings.HasSuffix(s, "Z") {
			t.Errorf("modified %v", mod)
		}
	}
	want := []string{".hidden file 1", "a.md file 3", "b.go file 9", "empty dir <nil>", "link symlink <nil>", "sub dir <nil>"}
	if !slices.Equal(got, want) {
		t.Errorf("details %q, want %q", got, want)
	}
}

func TestTree(t *testing.T) {
	e := newEnv(t, Options{})
	e.files(map[string]string{
		"a/b/c/d.txt": "", "a/x.txt": "", "z.txt": "", ".git/config": "", "node_modules/m/i.js": "",
	})
	os.Symlink("a/x.txt", filepath.Join(e.root, "link"))
	tests := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "./\n  .git/ (not shown)\n  a/\n    b/\n      c/ …\n    x.txt\n  link -> a/x.txt\n  node_modules/ (not shown)\n  z.txt"},
		{map[string]any{"depth": 1}, "./\n  .git/ (not shown)\n  a/ …\n  link -> a/x.txt\n  node_modules/ (not shown)\n  z.txt"},
		{map[string]any{"path": "a", "depth": 5}, "a/\n  b/\n    c/\n      d.txt\n  x.txt"},
		{map[string]any{"path": "a/", "limit": 2}, "a/\n  b/\n    c/\n… 2 more entries: lower depth= or pass a subdirectory as path"},
	}
	for _, tt := range tests {
		if got := e.must("tree", tt.args); got != tt.want {
			t.Errorf("tree(%v) =\n%s\nwant\n%s", tt.args, got, tt.want)
		}
	}
	e.fails("tree", map[string]any{"path": "z.txt"}, "is a file")
}

func TestGlob(t *testing.T) {
	e := newEnv(t, Options{})
	e.files(map[string]string{
		"main.go": "", "README.md": "", "cmd/app/main.go": "", "cmd/app/main_test.go": "",
		"web/a.ts": "", "web/b.tsx": "", "web/c.css": "", ".git/x.go": "", "node_modules/y.go": "", "docs/": "",
	})
	os.Symlink(filepath.Join(e.root, "cmd"), filepath.Join(e.root, "cmdlink"))
	tests := []struct {
		args map[string]any
		want []string
		err  string
	}{
		{map[string]any{"pattern": "*.go"}, []string{"main.go"}, ""},
		{map[string]any{"pattern": "**/*.go"}, []string{"cmd/app/main.go", "cmd/app/main_test.go", "main.go"}, ""},
		{map[string]any{"pattern": "**/*_test.go"}, []string{"cmd/app/main_test.go"}, ""},
		{map[string]any{"pattern": "web/*.{ts,tsx}"}, []string{"web/a.ts", "web/b.tsx"}, ""},
		{map[string]any{"pattern": "*"}, []string{".git/", "README.md", "cmd/", "cmdlink", "docs/", "main.go", "node_modules/", "web/"}, ""},
		{map[string]any{"pattern": "*.go", "path": "cmd/app"}, []string{"cmd/app/main.go", "cmd/app/main_test.go"}, ""},
		{map[string]any{"pattern": "app/*.go", "path": "./cmd/"}, []string{"cmd/app/main.go", "cmd/app/main_test.go"}, ""},
		{map[string]any{"pattern": "node_modules/*.go"}, []string{"node_modules/y.go"}, ""},
		{map[string]any{"pattern": "**/*.go", "limit": 1}, []string{"cmd/app/main.go", "… 2 more matches: narrow the pattern or path, or raise limit"}, ""},
		{map[string]any{"pattern": "*.rs"}, []string{}, ""},
		{map[string]any{"pattern": "{a,b"}, nil, "not a valid glob"},
		{map[string]any{"pattern": "**/main*.go", "path": "cmd"}, []string{"cmd/app/main.go", "cmd/app/main_test.go"}, ""},
		{map[string]any{"pattern": "**/[a-b].ts*"}, []string{"web/a.ts", "web/b.tsx"}, ""},
		{map[string]any{"pattern": "**/[^ab].*"}, []string{"web/c.css"}, ""},
		{map[string]any{"pattern": "*/"}, []string{".git/", "cmd/", "docs/", "node_modules/", "web/"}, ""},
		{map[string]any{"pattern": "{cmd,web}/**/*.{go,css}"}, []string{"cmd/app/main.go", "cmd/app/main_test.go", "web/c.css"}, ""},
		{map[string]any{"pattern": "./cmd/**"}, []string{"cmd/", "cmd/app/", "cmd/app/main.go", "cmd/app/main_test.go"}, ""},
		{map[string]any{"pattern": "../*"}, nil, "goes up with '..'"},
		{map[string]any{"pattern": "/etc/*"}, nil, "is absolute"},
		{map[string]any{"pattern": "*.go", "path": "main.go"}, nil, "is a file"},
		{map[string]any{"pattern": "."}, nil, "matches nothing but the directory"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.args), func(t *testing.T) {
			if tt.err != "" {
				e.fails("glob", tt.args, tt.err)
				return
			}
			if got := strs(t, e.must("glob", tt.args)); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"*.go", "a.go", true},
		{"*.go", "d/a.go", true}, // no '/': the name only
		{"d/*.go", "d/a.go", true},
		{"d/*.go", "d/e/a.go", false},
		{"**/*.go", "a.go", true},
		{"**/*.go", "x/y/z/a.go", true},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a/**", "a/x/y", true},
		{"{a,b}/c", "b/c", true},
		{"{a,b{x,y}}/c", "by/c", true},
		{"[ab].txt", "c.txt", false},
		{"\\*.txt", "*.txt", true},
		{"\\*.txt", "a.txt", false},
		{"[^ab].txt", "c.txt", true},
		{"[!ab].txt", "a.txt", false},
		{"[a-c]?.go", "bx.go", true},
		{"src/**", "src", true},
		{"**", "x/y", true},
		{"*.{go,md}", "d/x.md", true},
		{"{a/b,c}/*.go", "a/b/x.go", true},
		{"{a/b,c}/*.go", "c/x.go", true},
		{"{a/b,c}/*.go", "a/x.go", false},
	}
	for _, tt := range tests {
		g, err := compileGlob(tt.pattern, "pattern")
		if err != nil {
			t.Errorf("%q: %v", tt.pattern, err)
			continue
		}
		if got := g.match(tt.path, false); got != tt.want {
			t.Errorf("%q matches %q = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
	// Too many alternatives to expand: matching still works, only the
	// walk's shortcuts are off.
	g, err := compileGlob(strings.Repeat("{a,b}", 10), "pattern")
	if err != nil || g.alts != nil || !g.match("abababbbab", false) || g.maxDepth() != -1 || !g.mayMatchUnder("x/y") {
		t.Errorf("1024 alternatives: %v %v", g, err)
	}
	if _, err := compileGlob(strings.Repeat("{a,b}", 10)+"/{x,..}/*", "pattern"); err == nil || !strings.Contains(err.Error(), "goes up") {
		t.Errorf("'..' among many alternatives: %v", err)
	}
	// A directory-only pattern matches directories.
	if g, _ := compileGlob("d*/", "pattern"); g.match("dir", false) || !g.match("dir", true) {
		t.Error("dir-only pattern")
	}
	// Pruning: directories that cannot hold a match are skipped.
	g, _ = compileGlob("{src,test}/*/x.go", "pattern")
	for dir, want := range map[string]bool{"src": true, "test/a": true, "docs": false, "src/a/b": false} {
		if got := g.mayMatchUnder(dir); got != want {
			t.Errorf("mayMatchUnder(%q) = %v, want %v", dir, got, want)
		}
	}
}

func TestGrep(t *testing.T) {
	e := newEnv(t, Options{})
	e.files(map[string]string{
		"a.go":                 "package a\n\nfunc Main() {}\n// TODO: more\n",
		"b.txt":                "todo list\nnothing\n",
		"sub/c.go":             "one\ntwo\nthree TODO\nfour\nfive\nsix\nseven TODO\n",
		"bin.dat":              "TODO\x00binary",
		"node_modules/m.js":    "TODO in deps",
		".git/HEAD":            "TODO in git",
		"crlf.txt":             "win TODO\r\n",
		"re.txt":               "a.b\naxb\n",
		strings.Repeat("l", 5): strings.Repeat("y", 1000) + "TODO" + strings.Repeat("z", 1000) + "\n",
	})
	os.Symlink(filepath.Join(e.root, "sub"), filepath.Join(e.root, "sublink"))
	long := strings.Repeat("l", 5) + ":1: …" + strings.Repeat("y", 100) + "TODO" + strings.Repeat("z", 296) + "…"
	tests := []struct {
		args map[string]any
		want []string
		err  string
	}{
		{map[string]any{"pattern": "TODO"}, []string{"a.go:4: // TODO: more", "crlf.txt:1: win TODO", long, "sub/c.go:3: three TODO", "sub/c.go:7: seven TODO"}, ""},
		{map[string]any{"pattern": "todo", "ignore_case": true, "glob": "*.txt"}, []string{"b.txt:1: todo list", "crlf.txt:1: win TODO"}, ""},
		{map[string]any{"pattern": "TODO", "path": "sub"}, []string{"sub/c.go:3: three TODO", "sub/c.go:7: seven TODO"}, ""},
		{map[string]any{"pattern": "TODO", "path": "sub/c.go"}, []string{"sub/c.go:3: three TODO", "sub/c.go:7: seven TODO"}, ""},
		{map[string]any{"pattern": "TODO", "glob": "sub/**/*.go"}, []string{"sub/c.go:3: three TODO", "sub/c.go:7: seven TODO"}, ""},
		{map[string]any{"pattern": "TODO", "files_only": true}, []string{"a.go", "crlf.txt", strings.Repeat("l", 5), "sub/c.go"}, ""},
		{map[string]any{"pattern": "TODO", "path": "sub", "context": 1}, []string{
			"sub/c.go:2- two", "sub/c.go:3: three TODO", "sub/c.go:4- four", "--", "sub/c.go:6- six", "sub/c.go:7: seven TODO"}, ""},
		{map[string]any{"pattern": "TODO", "path": "sub", "context": 3}, []string{
			"sub/c.go:1- one", "sub/c.go:2- two", "sub/c.go:3: three TODO", "sub/c.go:4- four", "sub/c.go:5- five", "sub/c.go:6- six", "sub/c.go:7: seven TODO"}, ""},
		{map[string]any{"pattern": "a.b", "path": "re.txt"}, []string{"re.txt:1: a.b", "re.txt:2: axb"}, ""},
		{map[string]any{"pattern": "a.b", "path": "re.txt", "literal": true}, []string{"re.txt:1: a.b"}, ""},
		{map[string]any{"pattern": "TODO", "limit": 2}, []string{"a.go:4: // TODO: more", "crlf.txt:1: win TODO", "… 3 more matches: narrow the pattern, path, include= or exclude=, or raise limit"}, ""},
		{map[string]any{"pattern": "TODO", "glob": "node_modules/*.js"}, []string{"node_modules/m.js:1: TODO in deps"}, ""},
		{map[string]any{"pattern": "absent"}, []string{}, ""},
		{map[string]any{"pattern": "(?<=x)"}, nil, "invalid regular expression"},
		{map[string]any{"pattern": ""}, nil, "'pattern' is empty"},
		{map[string]any{"pattern": "x", "path": "bin.dat"}, nil, "binary file"},
		{map[string]any{"pattern": "x", "path": "missing"}, nil, "missing does not exist"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.args), func(t *testing.T) {
			if tt.err != "" {
				e.fails("grep", tt.args, tt.err)
				return
			}
			if got := strs(t, e.must("grep", tt.args)); !slices.Equal(got, tt.want) {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestInfo(t *testing.T) {
	e := newEnv(t, Options{})
	e.files(map[string]string{"f.txt": "12345", "d/": ""})
	os.Chmod(filepath.Join(e.root, "f.txt"), 0o640)
	os.Symlink("f.txt", filepath.Join(e.root, "link"))
	get := func(v any, k string) any {
		x, _ := dict(t, v).Get(k)
		return x
	}
	v := e.must("info", map[string]any{"path": "f.txt"})
	keys := dict(t, v).Keys()
	if want := []string{"path", "exists", "type", "size", "mode", "modified", "is_dir", "is_file", "is_link", "real_path"}; !slices.Equal(keys, want) {
		t.Errorf("keys %v, want %v", keys, want)
	}
	for k, want := range map[string]any{"path": "f.txt", "exists": true, "type": "file", "size": int64(5), "mode": "0640", "is_dir": false, "is_file": true, "is_link": false, "real_path": filepath.Join(e.root, "f.txt")} {
		if got := get(v, k); got != want {
			t.Errorf("info(f.txt)[%s] = %v, want %v", k, got, want)
		}
	}
	v = e.must("info", map[string]any{"path": "d"})
	if get(v, "type") != "dir" || get(v, "is_dir") != true || get(v, "size") != nil {
		t.Errorf("info(d) = %v", v)
	}
	v = e.must("info", map[string]any{"path": "link"})
	if get(v, "type") != "symlink" || get(v, "is_link") != true || get(v, "is_file") != true || get(v, "target") != "f.txt" || get(v, "size") != int64(5) {
		t.Errorf("info(link) = %v", v)
	}
	v = e.must("info", map[string]any{"path": "nope"})
	if m := dict(t, v); m.Len() != 2 || get(v, "exists") != false {
		t.Errorf("info(nope) = %v", v)
	}
}

func TestCopy(t *testing.T) {
	e := newEnv(t, Options{Backups: true})
	e.files(map[string]string{"a.txt": "A", "b.txt": "B", "tpl/x.txt": "X", "tpl/in/y.txt": "Y", "out/": ""})
	os.Chmod(filepath.Join(e.root, "a.txt"), 0o700)
	os.Symlink("x.txt", filepath.Join(e.root, "tpl", "link"))
	steps := []struct {
		args map[string]any
		want string
		err  string
	}{
		{map[string]any{"src": "a.txt", "dst": "c.txt"}, "copied a.txt to c.txt (1 bytes)", ""},
		{map[string]any{"src": "a.txt", "dst": "out"}, "copied a.txt to out/a.txt", ""},
		{map[string]any{"src": "a.txt", "dst": "new/"}, "copied a.txt to new/a.txt", ""},
		{map[string]any{"src": "a.txt", "dst": "deep/er/a.txt"}, "copied a.txt to deep/er/a.txt", ""},
		{map[string]any{"src": "a.txt", "dst": "b.txt"}, "", "b.txt already exists: pass overwrite=True to replace it (a backup is kept in .onetool/backups)"},
		{map[string]any{"src": "a.txt", "dst": "b.txt", "overwrite": true}, "copied a.txt to b.txt (1 bytes) (backup: .onetool/backups/", ""},
		{map[string]any{"src": "a.txt", "dst": "a.txt", "overwrite": true}, "", "are the same file"},
		{map[string]any{"src": "tpl", "dst": "tpl2"}, "copied the directory tpl to tpl2 (2 files, 1 directory, 2 bytes; skipped 1 link or special file)", ""},
		{map[string]any{"src": "tpl", "dst": "out"}, "copied the directory tpl to out/tpl", ""},
		{map[string]any{"src": "tpl", "dst": "tpl2"}, "copied the directory tpl to tpl2/tpl", ""},
		{map[string]any{"src": "tpl", "dst": "tpl"}, "", "copy the directory tpl into itself"},
		{map[string]any{"src": "tpl", "dst": "tpl/in"}, "", "into itself"},
		{map[string]any{"src": "tpl", "dst": "b.txt"}, "", "is a file: cannot replace it with the directory"},
		{map[string]any{"src": "nope", "dst": "x"}, "", "nope does not exist"},
	}
	for _, s := range steps {
		if s.err != "" {
			e.fails("copy", s.args, s.err)
			continue
		}
		if got := e.must("copy", s.args).(string); !strings.HasPrefix(got, s.want) {
			t.Errorf("copy(%v) = %q, want %q", s.args, got, s.want)
		}
	}
	for name, want := range map[string]string{"c.txt": "A", "out/a.txt": "A", "new/a.txt": "A", "deep/er/a.txt": "A", "b.txt": "A", "tpl2/x.txt": "X", "tpl2/in/y.txt": "Y", "out/tpl/in/y.txt": "Y"} {
		if got := e.read(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	// Permissions are kept, but not the right to execute: a program
	// cannot make a new program by copying one (then rewriting it).
	if st, _ := os.Stat(filepath.Join(e.root, "c.txt")); st.Mode().Perm() != 0o600 {
		t.Errorf("copy permissions %v, want 0600 (0700 without execute)", st.Mode().Perm())
	}
	if e.exists("tpl2/link") {
		t.Error("a link was copied")
	}
	if b := e.backups(); len(b) != 1 || !strings.HasSuffix(b[0], "-copy/b.txt") {
		t.Errorf("backups %v", b)
	}
}

func TestMove(t *testing.T) {
	e := newEnv(t, Options{Backups: true})
	e.files(map[string]string{"a.txt": "A", "b.txt": "B", "c.txt": "C", "d/x.txt": "X", "into/": ""})
	os.Symlink("c.txt", filepath.Join(e.root, "link"))
	steps := []struct {
		args map[string]any
		want string
		err  string
	}{
		{map[string]any{"src": "a.txt", "dst": "a2.txt"}, "moved a.txt to a2.txt", ""},
		{map[string]any{"src": "a2.txt", "dst": "into"}, "moved a2.txt to into/a2.txt", ""},
		{map[string]any{"src": "b.txt", "dst": "c.txt"}, "", "c.txt already exists: pass overwrite=True"},
		{map[string]any{"src": "b.txt", "dst": "c.txt", "overwrite": true}, "moved b.txt to c.txt (backup: .onetool/backups/", ""},
		{map[string]any{"src": "d", "dst": "new/place/d2"}, "moved d to new/place/d2", ""},
		{map[string]any{"src": "link", "dst": "link2"}, "moved link to link2", ""},
		{map[string]any{"src": "into", "dst": "into/sub"}, "", "into itself"},
		{map[string]any{"src": "c.txt", "dst": "c.txt"}, "", "same file"},
		{map[string]any{"src": ".", "dst": "x"}, "", "into itself"},
		{map[string]any{"src": "nope", "dst": "x"}, "", "nope does not exist"},
	}
	for _, s := range steps {
		if s.err != "" {
			e.fails("move", s.args, s.err)
			continue
		}
		if got := e.must("move", s.args).(string); !strings.HasPrefix(got, s.want) {
			t.Errorf("move(%v) = %q, want %q", s.args, got, s.want)
		}
	}
	for name, want := range map[string]string{"into/a2.txt": "A", "c.txt": "B", "new/place/d2/x.txt": "X", "link2": "B"} {
		if got := e.read(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	for _, gone := range []string{"a.txt", "a2.txt", "b.txt", "d", "link"} {
		if e.exists(gone) {
			t.Errorf("%s still exists", gone)
		}
	}
	if target, _ := os.Readlink(filepath.Join(e.root, "link2")); target != "c.txt" {
		t.Errorf("the link was not moved as a link: %q", target)
	}
	if b := e.backups(); len(b) != 1 || !strings.HasSuffix(b[0], "-move/c.txt") {
		t.Errorf("backups %v", b)
	} else if data, _ := os.ReadFile(filepath.Join(e.root, BackupDir, b[0])); string(data) != "C" {
		t.Errorf("backup holds %q", data)
	}
}

// Moves and copies between two roots copy through both os.Roots.
func TestBetweenRoots(t *testing.T) {
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	one, two := filepath.Join(tmp, "one"), filepath.Join(tmp, "two")
	os.MkdirAll(filepath.Join(one, "d"), 0o755)
	os.MkdirAll(two, 0o755)
	os.WriteFile(filepath.Join(one, "f.txt"), []byte("F"), 0o644)
	os.WriteFile(filepath.Join(one, "d", "g.txt"), []byte("G"), 0o644)
	r, _ := roots.New(one, two)
	e := &env{t: t, tmp: tmp, root: one, reg: packs.NewRegistry()}
	if err := Register(e.reg, Options{Roots: r, Backups: true}); err != nil {
		t.Fatal(err)
	}
	e.must("copy", map[string]any{"src": "f.txt", "dst": filepath.Join(two, "f.txt")})
	e.must("move", map[string]any{"src": "d", "dst": two})
	e.must("move", map[string]any{"src": filepath.Join(two, "f.txt"), "dst": filepath.Join(two, "f2.txt")})
	for p, want := range map[string]string{filepath.Join(two, "f2.txt"): "F", filepath.Join(two, "d", "g.txt"): "G", filepath.Join(one, "f.txt"): "F"} {
		if data, err := os.ReadFile(p); string(data) != want {
			t.Errorf("%s = %q, %v", p, data, err)
		}
	}
	if _, err := os.Stat(filepath.Join(one, "d")); !os.IsNotExist(err) {
		t.Error("the moved directory is still in its first root")
	}
}

func TestDelete(t *testing.T) {
	e := newEnv(t, Options{Backups: true})
	e.files(map[string]string{"f.txt": "F", "empty/": "", "full/a.txt": "A", "full/b/c.txt": "C", "target.txt": "T"})
	os.Symlink("target.txt", filepath.Join(e.root, "link"))
	steps := []struct {
		path      string
		recursive bool
		want      string
		err       string
	}{
		{"f.txt", false, "deleted f.txt (backup: .onetool/backups/", ""},
		{"empty", false, "deleted the empty directory empty", ""},
		{"full", false, "", "not empty: pass recursive=True"},
		{"full", true, "deleted the directory full and everything in it (backup: .onetool/backups/", ""},
		{"link", false, "deleted the link link (what it points to is untouched)", ""},
		{"f.txt", false, "", "f.txt does not exist"},
		{".", true, "", "is an allowed root"},
		{".onetool", true, "", "is onetool's own configuration directory"},
	}
	for _, s := range steps {
		args := map[string]any{"path": s.path, "recursive": s.recursive}
		if s.err != "" {
			e.fails("delete", args, s.err)
			continue
		}
		if got := e.must("delete", args).(string); !strings.HasPrefix(got, s.want) {
			t.Errorf("delete(%s) = %q, want %q", s.path, got, s.want)
		}
	}
	for _, gone := range []string{"f.txt", "empty", "full", "link"} {
		if e.exists(gone) {
			t.Errorf("%s still exists", gone)
		}
	}
	if e.read("target.txt") != "T" {
		t.Error("deleting a link touched its target")
	}
	b := e.backups()
	slices.Sort(b)
	if len(b) != 3 || !strings.HasSuffix(b[0], "-delete/f.txt") || !strings.HasSuffix(b[1], "-delete/full/a.txt") || !strings.HasSuffix(b[2], "-delete/full/b/c.txt") {
		t.Errorf("backups %v", b)
	}
	// Backups lie in .onetool: programs can neither restore nor delete
	// them through the pack (the user does, outside onetool).
	e.fails("move", map[string]any{"src": BackupDir + "/" + b[0], "dst": "f.txt"}, "onetool's own configuration directory")
	e.fails("delete", map[string]any{"path": BackupDir + "/" + b[1]}, "onetool's own configuration directory")
	e.fails("read", map[string]any{"path": BackupDir + "/" + b[0]}, "onetool's own configuration directory")
	if e.exists("f.txt") || len(e.backups()) != 3 {
		t.Errorf("f.txt restored or backups changed: %v", e.backups())
	}
}

func TestNoBackups(t *testing.T) {
	e := newEnv(t, Options{Backups: false})
	e.files(map[string]string{"a.txt": "A", "b.txt": "B", "d/x": "X"})
	e.must("write", map[string]any{"path": "a.txt", "content": "A2"})
	e.must("edit", map[string]any{"path": "a.txt", "old": "2", "new": "3"})
	e.must("move", map[string]any{"src": "a.txt", "dst": "b.txt", "overwrite": true})
	e.must("delete", map[string]any{"path": "b.txt"})
	e.must("delete", map[string]any{"path": "d", "recursive": true})
	if got := listAll(t, e.root); len(got) != 0 {
		t.Errorf("left %v", got)
	}
}

func TestReadOnly(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true, Backups: true})
	e.files(map[string]string{"a.txt": "A"})
	for tool, args := range map[string]map[string]any{
		"write":  {"path": "b.txt", "content": "x"},
		"edit":   {"path": "a.txt", "old": "A", "new": "B"},
		"copy":   {"src": "a.txt", "dst": "c.txt"},
		"move":   {"src": "a.txt", "dst": "c.txt"},
		"delete": {"path": "a.txt"},
	} {
		e.fails(tool, args, "file."+tool+" is not allowed", "packs.file.read_only")
	}
	if got := listAll(t, e.root); !slices.Equal(got, []string{"a.txt"}) || e.read("a.txt") != "A" {
		t.Errorf("read-only pack changed files: %v", got)
	}
	for tool, args := range map[string]map[string]any{
		"read": {"path": "a.txt"}, "list": {}, "tree": {}, "glob": {"pattern": "*"}, "grep": {"pattern": "A"}, "info": {"path": "a.txt"},
	} {
		if _, err := e.call(tool, args); err != nil {
			t.Errorf("%s: %v", tool, err)
		}
	}
}

// Walks and reads stop when the context is cancelled part way.
func TestCancelled(t *testing.T) {
	e := newEnv(t, Options{})
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("d%d/f%d.txt", i%10, i)] = "needle\n"
	}
	e.files(files)
	for tool, args := range map[string]map[string]any{
		"grep": {"pattern": "needle"},
		"tree": {"depth": 5},
		"glob": {"pattern": "**/*.txt"},
	} {
		_, err := e.callCtx(newCountdown(20), tool, args)
		if err == nil || !strings.Contains(err.Error(), "cancelled") || !errors.Is(err, context.Canceled) {
			t.Errorf("%s: error %v, want cancelled", tool, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.callCtx(ctx, "read", map[string]any{"path": "d1/f1.txt"}); !errors.Is(err, context.Canceled) {
		t.Errorf("read with a cancelled context: %v", err)
	}
}

// Handlers called directly with bad arguments fail; they never panic.
func TestBadArguments(t *testing.T) {
	r, _ := roots.New(t.TempDir())
	sets := []map[string]any{
		{"path": 5, "pattern": 5, "src": 5, "dst": 5, "content": 5, "old": 5, "new": 5}, // fails everywhere
		nil, // fails where something is required
		{"path": "x", "pattern": "x", "src": "x", "dst": "y", "content": "c", "old": "a", "new": "b", "offset": "one", "limit": 1.5, "depth": -1, "context": true, "append": "yes", "recursive": 1},
		{"path": "x", "pattern": "x", "src": "x", "dst": "y", "content": "c", "old": "a", "new": "b", "limit": int64(-5), "offset": int64(-1)},
	}
	for _, tl := range Tools(Options{Roots: r, Backups: true}) {
		for i, args := range sets {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s(%v) panicked: %v", tl.ID(), args, r)
					}
				}()
				_, err := tl.Handler(context.Background(), args)
				optional := tl.Name == "list" || tl.Name == "tree"
				if err == nil && (i == 0 || i == 1 && !optional) {
					t.Errorf("%s(%v): no error", tl.ID(), args)
				}
			}()
		}
	}
	// No roots: every tool fails with a clear error.
	for _, tl := range Tools(Options{}) {
		if _, err := tl.Handler(context.Background(), map[string]any{"path": "x"}); err == nil || !strings.Contains(err.Error(), "no allowed roots") {
			t.Errorf("%s without roots: %v", tl.ID(), err)
		}
	}
}

// A root configured through a symbolic link works like any other.
func TestLinkedRoot(t *testing.T) {
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	real := filepath.Join(tmp, "real")
	os.Mkdir(real, 0o755)
	os.WriteFile(filepath.Join(real, "a.txt"), []byte("A\n"), 0o644)
	link := filepath.Join(tmp, "link")
	os.Symlink(real, link)
	r, err := roots.New(link)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, tmp: tmp, root: real, reg: packs.NewRegistry()}
	if err := Register(e.reg, Options{Roots: r, Backups: true}); err != nil {
		t.Fatal(err)
	}
	if v := e.must("info", map[string]any{"path": "."}); func() any { x, _ := dict(t, v).Get("type"); return x }() != "dir" {
		t.Errorf("info(.) = %v", v)
	}
	e.must("write", map[string]any{"path": filepath.Join(link, "a.txt"), "content": "B\n"})
	if got := e.must("read", map[string]any{"path": "a.txt"}); got != "B\n" {
		t.Errorf("read = %q", got)
	}
	if b := e.backups(); len(b) != 1 {
		t.Errorf("backups %v", b)
	}
	e.fails("delete", map[string]any{"path": ".", "recursive": true}, "is an allowed root")
	e.fails("delete", map[string]any{"path": link, "recursive": true}, "is an allowed root")
	e.fails("move", map[string]any{"src": ".", "dst": "x"}, "into itself")
}
