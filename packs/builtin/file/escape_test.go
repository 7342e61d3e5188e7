//go:build unix

package file

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/roots"
)

// Markers that must never appear in a result: the content of the files
// outside the root, the name of a file only a listing of the outside
// directory shows, and the start of /etc/passwd.
const (
	secret    = "TOP SECRET"
	outMarker = "marker-7f3a.txt"
	passwd    = "root:x:0:0"
)

// escapeFixture builds, under a new temporary directory:
//
//	root/                 the allowed root
//	  a.txt, sub/b.txt
//	  link-out  -> <tmp>/outside        (absolute)
//	  rel-out   -> ../outside           (relative)
//	  file-out  -> <tmp>/outside/secret.txt
//	  chain1 -> chain2 -> link-out
//	  loop1 <-> loop2
//	  slash     -> /
//	  dangling  -> <tmp>/outside/new.txt          (does not exist)
//	  dangling2 -> <tmp>/outside/nodir/new.txt    (nor does its directory)
//	  sub/up    -> ../../outside
//	outside/secret.txt, outside/marker-7f3a.txt
//	ROOT/secret.txt       (the root's name in capitals)
//	root2/secret.txt      (the root's name as a prefix)
//	linkroot -> root      (the root reached through a link)
func escapeFixture(t *testing.T) (tmp string, caseSensitive bool) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	j := func(p ...string) string { return filepath.Join(append([]string{tmp}, p...)...) }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(j("root", "sub"), 0o755))
	must(os.MkdirAll(j("outside"), 0o755))
	must(os.MkdirAll(j("root2"), 0o755))
	caseSensitive = os.Mkdir(j("ROOT"), 0o755) == nil
	for p, content := range map[string]string{
		j("root", "a.txt"): "inside a\n", j("root", "sub", "b.txt"): "inside b\n",
		j("outside", "secret.txt"): secret + "\n", j("outside", outMarker): secret + "\n",
		j("root2", "secret.txt"): secret + "\n",
	} {
		must(os.WriteFile(p, []byte(content), 0o644))
	}
	if caseSensitive {
		must(os.WriteFile(j("ROOT", "secret.txt"), []byte(secret+"\n"), 0o644))
	}
	for link, target := range map[string]string{
		j("root", "link-out"):  j("outside"),
		j("root", "rel-out"):   "../outside",
		j("root", "file-out"):  j("outside", "secret.txt"),
		j("root", "chain1"):    j("root", "chain2"),
		j("root", "chain2"):    j("root", "link-out"),
		j("root", "loop1"):     j("root", "loop2"),
		j("root", "loop2"):     j("root", "loop1"),
		j("root", "slash"):     "/",
		j("root", "dangling"):  j("outside", "new.txt"),
		j("root", "dangling2"): j("outside", "nodir", "new.txt"),
		j("root", "sub", "up"): "../../outside",
		j("linkroot"):          j("root"),
	} {
		must(os.Symlink(target, link))
	}
	return tmp, caseSensitive
}

// snapshot records everything under tmp but the root: names, file
// contents, link targets.
func snapshot(t *testing.T, tmp string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(tmp, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if p == filepath.Join(tmp, "root") {
			return filepath.SkipDir
		}
		switch {
		case d.Type()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[p] = "-> " + target
		case d.IsDir():
			out[p] = "dir"
		default:
			data, _ := os.ReadFile(p)
			out[p] = string(data)
		}
		return nil
	})
	return out
}

type expect int

const (
	outside expect = iota // refused with roots.ErrOutside
	refused               // refused with some error
	inside                // may succeed, but reads and writes nothing outside
)

// TestEscapeAttempts tries to reach outside the root through every tool.
// Each attempt runs on a fresh fixture, once with the root configured as
// is and once through a symbolic link to it. Every one is refused, or
// succeeds without a byte read from or written outside: the outside tree
// is compared before and after, and results are searched for what only
// the outside holds.
func TestEscapeAttempts(t *testing.T) {
	_, caseSensitive := escapeFixture(t)
	type attempt struct {
		name string
		tool string
		args func(tmp string) map[string]any
		want expect
	}
	rel := func(kv ...any) func(string) map[string]any {
		return func(string) map[string]any {
			m := map[string]any{}
			for i := 0; i < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		}
	}
	// abs builds arguments holding paths under tmp: values "@x" become <tmp>/x.
	abs := func(kv ...any) func(string) map[string]any {
		return func(tmp string) map[string]any {
			m := map[string]any{}
			for i := 0; i < len(kv); i += 2 {
				v := kv[i+1]
				if s, ok := v.(string); ok && strings.HasPrefix(s, "@") {
					v = tmp + "/" + s[1:]
				}
				m[kv[i].(string)] = v
			}
			return m
		}
	}
	longName := strings.Repeat("n", 300)            // > NAME_MAX
	longPath := strings.Repeat("deep/", 1000) + "x" // > PATH_MAX
	attempts := []attempt{
		// read
		{"dotdot", "read", rel("path", "../outside/secret.txt"), outside},
		{"absolute outside", "read", abs("path", "@outside/secret.txt"), outside},
		{"double slash absolute", "read", abs("path", "@/outside//secret.txt"), outside},
		{"link to dir out", "read", rel("path", "link-out/secret.txt"), outside},
		{"link to file out", "read", rel("path", "file-out"), outside},
		{"relative link out", "read", rel("path", "rel-out/secret.txt"), outside},
		{"chain of links out", "read", rel("path", "chain1/secret.txt"), outside},
		{"loop of links", "read", rel("path", "loop1"), refused},
		{"through a loop", "read", rel("path", "loop1/x"), refused},
		{"link to /", "read", rel("path", "slash/etc/passwd"), outside},
		{"nested relative link out", "read", rel("path", "sub/up/secret.txt"), outside},
		{"long dotdot chain", "read", rel("path", strings.Repeat("../", 40)+"etc/passwd"), outside},
		{"dotdot after a dir", "read", rel("path", "sub/../../outside/secret.txt"), outside},
		{"NUL byte", "read", rel("path", "a.txt\x00/../../outside/secret.txt"), outside},
		{"name > NAME_MAX", "read", rel("path", longName), refused},
		{"path > PATH_MAX", "read", rel("path", longPath), refused},
		{"tilde home", "read", rel("path", "~/.bashrc"), refused},
		{"tilde alone", "read", rel("path", "~"), refused},
		{"empty path", "read", rel("path", ""), refused},
		{"root name as prefix", "read", rel("path", "../root2/secret.txt"), outside},
		{"root name as prefix absolute", "read", abs("path", "@root2/secret.txt"), outside},
		{"mixed case root absolute", "read", abs("path", "@Root/a.txt"), outside},
		// write and edit
		{"write dotdot", "write", rel("path", "../outside/new.txt", "content", "pwned"), outside},
		{"write absolute outside", "write", abs("path", "@outside/new2.txt", "content", "pwned"), outside},
		{"write dangling link out", "write", rel("path", "dangling", "content", "pwned"), outside},
		{"write dangling link out, no dir", "write", rel("path", "dangling2", "content", "pwned"), outside},
		{"write through dir link", "write", rel("path", "link-out/new.txt", "content", "pwned"), outside},
		{"write over file link", "write", rel("path", "file-out", "content", "pwned"), outside},
		{"append to file link", "write", rel("path", "file-out", "content", "pwned", "append", true), outside},
		{"write nested link, new dirs", "write", rel("path", "sub/up/x/y.txt", "content", "pwned"), outside},
		{"edit file link", "edit", rel("path", "file-out", "old", "TOP", "new", "pwned"), outside},
		{"edit through dir link", "edit", rel("path", "link-out/secret.txt", "old", "TOP", "new", "pwned"), outside},
		// list and tree
		{"list dotdot", "list", rel("path", ".."), outside},
		{"list link out", "list", rel("path", "link-out"), outside},
		{"list link to /", "list", rel("path", "slash"), outside},
		{"list /", "list", rel("path", "/"), outside},
		{"tree does not follow links", "tree", rel("depth", 10), inside},
		{"tree link out", "tree", rel("path", "link-out"), outside},
		{"tree link to /", "tree", rel("path", "slash"), outside},
		// glob
		{"glob pattern up", "glob", rel("pattern", "../*"), refused},
		{"glob absolute pattern", "glob", rel("pattern", "/**"), refused},
		{"glob pattern up in braces", "glob", rel("pattern", "{a,../outside}/*"), refused},
		{"glob path up", "glob", rel("pattern", "*", "path", ".."), outside},
		{"glob path link out", "glob", rel("pattern", "*", "path", "link-out"), outside},
		{"glob ** does not follow links", "glob", rel("pattern", "**/*"), inside},
		{"glob through a dir link", "glob", rel("pattern", "link-out/*"), inside},
		{"glob for the marker", "glob", rel("pattern", "**/"+outMarker), inside},
		// grep
		{"grep does not follow links", "grep", rel("pattern", secret), inside},
		{"grep file link only", "grep", rel("pattern", "TOP", "glob", "file-out"), inside},
		{"grep path link out", "grep", rel("pattern", "TOP", "path", "link-out"), outside},
		{"grep path file link", "grep", rel("pattern", "TOP", "path", "file-out"), outside},
		{"grep /", "grep", rel("pattern", "root", "path", "/"), outside},
		{"grep glob up", "grep", rel("pattern", "TOP", "glob", "../outside/*"), refused},
		// info
		{"info link out", "info", rel("path", "link-out"), outside},
		{"info dotdot", "info", rel("path", "../outside/secret.txt"), outside},
		{"info file link", "info", rel("path", "file-out"), outside},
		// copy and move
		{"copy dst dotdot", "copy", rel("src", "a.txt", "dst", "../outside/x.txt"), outside},
		{"copy dst through link", "copy", rel("src", "a.txt", "dst", "link-out/x.txt"), outside},
		{"copy dst dangling link", "copy", rel("src", "a.txt", "dst", "dangling"), outside},
		{"copy dst link dir (into)", "copy", rel("src", "a.txt", "dst", "link-out/"), outside},
		{"copy dir to absolute outside", "copy", abs("src", "sub", "dst", "@outside/sub"), outside},
		{"copy src file link", "copy", rel("src", "file-out", "dst", "stolen.txt"), outside},
		{"copy src dir link", "copy", rel("src", "link-out", "dst", "stolen"), outside},
		{"copy dir holding a link out", "copy", rel("src", "sub", "dst", "sub2"), inside},
		{"move dst dotdot", "move", rel("src", "a.txt", "dst", "../outside/a.txt"), outside},
		{"move dst nested link", "move", rel("src", "a.txt", "dst", "sub/up/"), outside},
		{"move src through link", "move", rel("src", "link-out/secret.txt", "dst", "here.txt"), outside},
		{"move src outside", "move", abs("src", "@outside/secret.txt", "dst", "here.txt"), outside},
		{"move src file link", "move", rel("src", "file-out", "dst", "here.txt"), outside},
		// delete
		{"delete through link", "delete", rel("path", "link-out/secret.txt"), outside},
		{"delete dotdot", "delete", rel("path", "../outside/secret.txt"), outside},
		{"delete file link out", "delete", rel("path", "file-out"), outside},
		{"delete dir link out", "delete", rel("path", "link-out", "recursive", true), outside},
		{"delete link to /", "delete", rel("path", "slash", "recursive", true), outside},
		{"delete the root", "delete", rel("path", ".", "recursive", true), refused},
		{"delete the root via dotdot", "delete", rel("path", "sub/..", "recursive", true), refused},
	}
	if caseSensitive {
		attempts = append(attempts,
			attempt{"capitalised root name", "read", rel("path", "../ROOT/secret.txt"), outside},
			attempt{"capitalised root absolute", "list", abs("path", "@ROOT"), outside},
		)
	}
	if len(attempts) < 30 {
		t.Fatalf("only %d attempts", len(attempts))
	}
	names := map[string]bool{}
	for _, a := range attempts {
		if names[a.name] {
			t.Fatalf("two attempts named %q", a.name)
		}
		names[a.name] = true
	}
	t.Logf("%d escape attempts, each with the root given directly and through a link", len(attempts))

	for _, via := range []string{"root", "linkroot"} {
		for _, a := range attempts {
			t.Run(via+"/"+a.name, func(t *testing.T) {
				tmp, _ := escapeFixture(t)
				r, err := roots.New(filepath.Join(tmp, via))
				if err != nil {
					t.Fatal(err)
				}
				reg := packs.NewRegistry()
				if err := Register(reg, Options{Roots: r, Backups: true}); err != nil {
					t.Fatal(err)
				}
				e := &env{t: t, tmp: tmp, root: filepath.Join(tmp, "root"), reg: reg}
				before := snapshot(t, tmp)
				v, err := e.call(a.tool, a.args(tmp))
				after := snapshot(t, tmp)
				for p, c := range before {
					if after[p] != c {
						t.Errorf("%s changed outside the root: %q → %q", p, c, after[p])
					}
				}
				for p, c := range after {
					if _, ok := before[p]; !ok {
						t.Errorf("%s created outside the root (%q)", p, c)
					}
				}
				out, _ := ordered.Encode(v)
				for _, leak := range []string{secret, outMarker, passwd} {
					if strings.Contains(string(out), leak) {
						t.Errorf("result leaks %q: %s", leak, out)
					}
				}
				switch a.want {
				case outside:
					if !errors.Is(err, roots.ErrOutside) {
						t.Errorf("got %s, %v; want refused as outside the roots", out, err)
					}
				case refused:
					if err == nil {
						t.Errorf("got %s; want an error", out)
					}
				case inside:
					if err != nil {
						t.Logf("refused: %v", err)
					}
				}
				if err != nil && strings.Contains(err.Error(), "goroutine") {
					t.Errorf("error leaks a stack: %v", err)
				}
			})
		}
	}
}

// A directory checked by roots and then swapped for a link that points
// outside, before the tool opens it, is still not followed out: the IO
// goes through an os.Root.
func TestSwappedAfterCheck(t *testing.T) {
	for _, tt := range []struct {
		tool string
		args map[string]any
	}{
		{"read", map[string]any{"path": "sub/b.txt"}},
		{"grep", map[string]any{"pattern": "TOP", "path": "sub/b.txt"}},
		{"grep", map[string]any{"pattern": "TOP", "path": "sub"}},
		{"list", map[string]any{"path": "sub"}},
		{"tree", map[string]any{"path": "sub"}},
		{"glob", map[string]any{"pattern": "*", "path": "sub"}},
		{"write", map[string]any{"path": "sub/secret.txt", "content": "pwned"}},
		{"write", map[string]any{"path": "sub/b.txt", "content": "pwned"}},
		{"edit", map[string]any{"path": "sub/secret.txt", "old": "TOP", "new": "pwned"}},
		{"copy", map[string]any{"src": "a.txt", "dst": "sub/secret.txt", "overwrite": true}},
		{"copy", map[string]any{"src": "sub/secret.txt", "dst": "stolen.txt"}},
		{"move", map[string]any{"src": "a.txt", "dst": "sub/secret.txt", "overwrite": true}},
		{"delete", map[string]any{"path": "sub/secret.txt"}},
		{"info", map[string]any{"path": "sub/secret.txt"}},
	} {
		t.Run(tt.tool, func(t *testing.T) {
			tmp, _ := escapeFixture(t)
			root := filepath.Join(tmp, "root")
			// sub/secret.txt must pass the check: make it exist inside.
			os.WriteFile(filepath.Join(root, "sub", "secret.txt"), []byte("inside\n"), 0o644)
			r, _ := roots.New(root)
			hooks := &testHooks{}
			reg := packs.NewRegistry()
			if err := Register(reg, Options{Roots: r, Backups: true, hooks: hooks}); err != nil {
				t.Fatal(err)
			}
			e := &env{t: t, tmp: tmp, root: root, reg: reg}
			hooks.located = func(path string) {
				// The swap, once sub/… has been checked: sub becomes a
				// link to the outside.
				if strings.HasPrefix(path, "sub") {
					os.Rename(filepath.Join(root, "sub"), filepath.Join(root, "sub-old"))
					os.Symlink(filepath.Join(tmp, "outside"), filepath.Join(root, "sub"))
				}
			}
			before := snapshot(t, tmp)
			v, err := e.call(tt.tool, tt.args)
			after := snapshot(t, tmp)
			for p, c := range before {
				if after[p] != c {
					t.Errorf("%s changed outside the root: %q → %q", p, c, after[p])
				}
			}
			for p := range after {
				if _, ok := before[p]; !ok {
					t.Errorf("%s created outside the root", p)
				}
			}
			out, _ := ordered.Encode(v)
			if strings.Contains(string(out), secret) || strings.Contains(string(out), outMarker) {
				t.Errorf("result leaks the outside: %s", out)
			}
			if err == nil && tt.tool != "glob" && tt.tool != "grep" && tt.tool != "list" && tt.tool != "tree" {
				t.Errorf("no error: %s", out)
			}
		})
	}
}

// Named pipes and other special files are refused or skipped, and never
// block a call.
func TestSpecialFiles(t *testing.T) {
	e := newEnv(t, Options{Backups: true})
	e.files(map[string]string{"ok.txt": "needle\n"})
	fifo := filepath.Join(e.root, "pipe")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, c := range []struct {
		tool string
		args map[string]any
		err  string
	}{
		{"read", map[string]any{"path": "pipe"}, "not a regular file (it is a fifo)"},
		{"grep", map[string]any{"pattern": "x", "path": "pipe"}, "not a regular file"},
		{"edit", map[string]any{"path": "pipe", "old": "a", "new": "b"}, "not a regular file"},
		{"write", map[string]any{"path": "pipe", "content": "x"}, "not a regular file"},
		{"copy", map[string]any{"src": "pipe", "dst": "p2"}, "not a regular file"},
		{"copy", map[string]any{"src": "ok.txt", "dst": "pipe", "overwrite": true}, "not a regular file"},
	} {
		_, err := e.callCtx(ctx, c.tool, c.args)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s(%v): %v, want %q", c.tool, c.args, err, c.err)
		}
	}
	if got := strs(t, e.must("grep", map[string]any{"pattern": "needle"})); len(got) != 1 {
		t.Errorf("grep: %v", got)
	}
	if v := e.must("info", map[string]any{"path": "pipe"}); func() any { x, _ := dict(t, v).Get("type"); return x }() != "fifo" {
		t.Errorf("info: %v", v)
	}
	e.must("delete", map[string]any{"path": "pipe"})
	if ctx.Err() != nil {
		t.Error("a call blocked on the pipe")
	}
}

func mkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }
