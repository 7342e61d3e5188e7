//go:build unix

package file

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/roots"
)

// ownSecret is the content of the secrets file: no result may hold it.
const ownSecret = "api_key: OWN-SECRET-1f2e"

// ownFixture builds, under a new temporary directory:
//
//	root/                               the allowed root (the working directory)
//	  a.txt, d/x.txt
//	  .onetool/onetool.yaml             the config file
//	  .onetool/secrets.yaml             the secrets file
//	  .onetool/toolpacks/               the toolpack directory beside it
//	  .onetool/backups/old/x.txt        a backup the pack kept
//	  cfg/inc.yaml                      an included file, outside .onetool
//	  cfg/toolpacks/p.yaml              a configured toolpack directory
//	  proj/a.txt, proj/.onetool/onetool.yaml   a project with its own config
//	  sub2/secrets.yaml                 a decoy, for swaps
//	  cfglink  -> .onetool
//	  seclink  -> .onetool/secrets.yaml
//	  dangle   -> .onetool/new.yaml     (does not exist)
//	  hard.txt                          a hard link to .onetool/secrets.yaml
//	linkroot -> root
//
// and registers the pack with the root reached through via, protecting
// what the runner protects for this layout.
func ownFixture(t *testing.T, via string, hooks *testHooks) *env {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(tmp, "root")
	j := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"d", ".onetool/toolpacks", ".onetool/backups/old", "cfg/toolpacks", "proj/.onetool", "sub2"} {
		must(os.MkdirAll(j(d), 0o755))
	}
	for f, content := range map[string]string{
		"a.txt": "a\n", "d/x.txt": "x\n",
		".onetool/onetool.yaml": "packs: {}\n", ".onetool/secrets.yaml": ownSecret + "\n",
		".onetool/backups/old/x.txt": "old\n", "cfg/inc.yaml": "aliases: {}\n",
		"cfg/toolpacks/p.yaml": "name: p\n", "proj/a.txt": "pa\n", "proj/.onetool/onetool.yaml": "packs: {}\n",
		"sub2/secrets.yaml": "decoy\n",
	} {
		must(os.WriteFile(j(f), []byte(content), 0o644))
	}
	must(os.Symlink(".onetool", j("cfglink")))
	must(os.Symlink(".onetool/secrets.yaml", j("seclink")))
	must(os.Symlink(".onetool/new.yaml", j("dangle")))
	must(os.Link(j(".onetool/secrets.yaml"), j("hard.txt")))
	must(os.Symlink(root, filepath.Join(tmp, "linkroot")))
	r, err := roots.New(filepath.Join(tmp, via))
	must(err)
	r, err = r.Protect(
		roots.Own{Path: j(".onetool"), What: "configuration directory"},
		roots.Own{Path: j(".onetool/onetool.yaml"), What: "config file"},
		roots.Own{Path: j(".onetool/secrets.yaml"), What: "secrets file"},
		roots.Own{Path: j(".onetool/toolpacks"), What: "toolpack directory"},
		roots.Own{Path: j("cfg/inc.yaml"), What: "included config file"},
		roots.Own{Path: j("cfg/toolpacks"), What: "toolpack directory"},
	)
	must(err)
	reg := packs.NewRegistry()
	must(Register(reg, Options{Roots: r, Backups: true, hooks: hooks}))
	return &env{t: t, tmp: tmp, root: root, reg: reg}
}

// ownSnapshot records onetool's own part of the tree: every entry with a
// .onetool component (any case) or under cfg/, with contents.
func ownSnapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		own := strings.HasPrefix(rel, "cfg")
		for _, c := range strings.Split(rel, string(filepath.Separator)) {
			own = own || strings.EqualFold(c, ".onetool")
		}
		if !own {
			return nil
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "-> " + target
		case d.IsDir():
			out[rel] = "dir"
		default:
			data, _ := os.ReadFile(p)
			out[rel] = string(data)
		}
		return nil
	})
	return out
}

// TestOwnFilesRefused aims every tool at onetool's own files, as source
// and as destination, by name, another case, symbolic links, a hard link
// and a dangling link, through the root given as is and through a link to
// it. Each attempt is refused with roots.ErrProtected (never as outside
// the roots), or (walks) succeeds without showing them; onetool's part of
// the tree is compared before and after, and no result holds the secret.
func TestOwnFilesRefused(t *testing.T) {
	type attempt struct {
		tool string
		args map[string]any
		want expect // outside is not used: refused means ErrProtected here
	}
	a := func(tool string, want expect, kv ...any) attempt {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return attempt{tool, m, want}
	}
	attempts := []attempt{
		a("read", refused, "path", ".onetool/secrets.yaml"),
		a("read", refused, "path", ".ONETOOL/secrets.yaml"),
		a("read", refused, "path", "cfglink/secrets.yaml"),
		a("read", refused, "path", "seclink"),
		a("read", refused, "path", "hard.txt"),
		a("read", refused, "path", "dangle"),
		a("read", refused, "path", ".onetool/onetool.yaml"),
		a("read", refused, "path", ".onetool/backups/old/x.txt"),
		a("read", refused, "path", "cfg/inc.yaml"),
		a("read", refused, "path", "cfg/toolpacks/p.yaml"),
		a("read", refused, "path", "proj/.onetool/onetool.yaml"),
		a("write", refused, "path", ".onetool/toolpacks/p.yaml", "content", "name: p"),
		a("write", refused, "path", ".onetool/onetool.yaml", "content", "packs: {file: {allowed_dirs: [/]}}"),
		a("write", refused, "path", ".OneTool/onetool.yaml", "content", "x"),
		a("write", refused, "path", "cfglink/toolpacks/p.yaml", "content", "x"),
		a("write", refused, "path", "dangle", "content", "x"),
		a("write", refused, "path", "cfg/toolpacks/new.yaml", "content", "x"),
		a("write", refused, "path", "cfg/inc.yaml", "content", "x", "append", true),
		a("write", refused, "path", "newproj/.onetool/onetool.yaml", "content", "x"), // creating a config where none is
		a("write", refused, "path", "hard.txt", "content", "x"),
		a("write", refused, "path", "hard.txt", "content", "x", "append", true),
		a("write", refused, "path", ".onetool/backups/old/x.txt", "content", "x"),
		a("edit", refused, "path", ".onetool/onetool.yaml", "old", "{}", "new", "{x: 1}"),
		a("edit", refused, "path", "seclink", "old", "OWN", "new", "x", "dry_run", true),
		a("edit", refused, "path", "hard.txt", "old", "OWN", "new", "x", "dry_run", true),
		a("list", refused, "path", ".onetool"),
		a("list", refused, "path", "cfglink"),
		a("list", refused, "path", "cfg/toolpacks"),
		a("list", inside),
		a("list", inside, "path", "proj", "details", true),
		a("tree", inside, "depth", 10, "gitignore", false),
		a("tree", refused, "path", ".onetool"),
		a("glob", inside, "pattern", "**/*", "gitignore", false),
		a("glob", inside, "pattern", ".onetool/**"),
		a("glob", inside, "pattern", "**/*.yaml"),
		a("glob", refused, "pattern", "*", "path", ".onetool/toolpacks"),
		a("grep", inside, "pattern", "OWN-SECRET", "gitignore", false),
		a("grep", inside, "pattern", "OWN-SECRET", "include", []any{".onetool/**", "*.txt"}),
		a("grep", refused, "pattern", "OWN", "path", ".onetool/secrets.yaml"),
		a("grep", refused, "pattern", "OWN", "path", "hard.txt"),
		a("grep", refused, "pattern", "OWN", "path", "cfglink"),
		a("info", refused, "path", ".onetool"),
		a("info", refused, "path", "seclink"),
		a("info", refused, "path", "hard.txt"),
		a("copy", refused, "src", ".onetool/secrets.yaml", "dst", "stolen.txt"),
		a("copy", refused, "src", "hard.txt", "dst", "stolen.txt"),
		a("copy", refused, "src", ".onetool", "dst", "stolen"),
		a("copy", refused, "src", "a.txt", "dst", ".onetool/toolpacks/p.yaml"),
		a("copy", refused, "src", "a.txt", "dst", "cfglink/"),
		a("copy", refused, "src", "a.txt", "dst", "cfg/toolpacks/"),
		a("copy", refused, "src", "a.txt", "dst", "proj/.onetool/onetool.yaml", "overwrite", true),
		a("copy", inside, "src", "proj", "dst", "projcopy"), // copies proj without its .onetool
		a("move", refused, "src", ".onetool", "dst", "moved"),
		a("move", refused, "src", "seclink", "dst", "moved"),
		a("move", refused, "src", "a.txt", "dst", ".onetool/toolpacks/p.yaml"),
		a("move", refused, "src", "d", "dst", ".onetool/toolpacks/d"),
		a("move", refused, "src", "a.txt", "dst", "cfglink/"),
		a("move", refused, "src", "proj", "dst", "proj2"), // holds a .onetool
		a("move", refused, "src", "cfg", "dst", "cfg2"),   // holds an included file and a toolpack dir
		a("delete", refused, "path", ".onetool", "recursive", true),
		a("delete", refused, "path", ".onetool/secrets.yaml"),
		a("delete", refused, "path", "proj", "recursive", true),
		a("delete", refused, "path", "cfg", "recursive", true),
		a("delete", refused, "path", "cfg/inc.yaml"),
		a("delete", refused, "path", "seclink"),
		a("delete", refused, "path", "hard.txt"),
	}
	for _, via := range []string{"root", "linkroot"} {
		for _, at := range attempts {
			t.Run(via+"/"+at.tool, func(t *testing.T) {
				e := ownFixture(t, via, nil)
				before := ownSnapshot(t, e.root)
				v, err := e.call(at.tool, at.args)
				after := ownSnapshot(t, e.root)
				for p, c := range before {
					if after[p] != c {
						t.Errorf("%v: %s changed: %q → %q", at.args, p, c, after[p])
					}
				}
				for p, c := range after {
					if _, ok := before[p]; !ok {
						t.Errorf("%v: %s created (%q)", at.args, p, c)
					}
				}
				out, _ := ordered.Encode(v)
				// Names only a listing of onetool's own directories shows
				// (a link's target may name .onetool: it is the link's).
				for _, leak := range []string{"OWN-SECRET", "onetool.yaml", "inc.yaml", "p.yaml", "backups", "toolpacks"} {
					if strings.Contains(string(out), leak) {
						t.Errorf("%v: result shows %q: %s", at.args, leak, out)
					}
				}
				switch at.want {
				case refused:
					if !errors.Is(err, roots.ErrProtected) || errors.Is(err, roots.ErrOutside) {
						t.Errorf("%v: got %s, %v; want refused as onetool's own", at.args, out, err)
					} else if !strings.Contains(err.Error(), "onetool's own") {
						t.Errorf("%v: error %q does not say why", at.args, err)
					}
				case inside:
					if err != nil {
						t.Errorf("%v: %v", at.args, err)
					}
				}
			})
		}
	}
}

// A directory copy leaves onetool's own entries out and says so; the
// rest is copied.
func TestOwnCopyLeavesOut(t *testing.T) {
	e := ownFixture(t, "root", nil)
	got := e.must("copy", map[string]any{"src": "proj", "dst": "projcopy"}).(string)
	if !strings.HasSuffix(got, "; left out 1 entry that is onetool's own (programs cannot read those))") {
		t.Errorf("copy result %q does not say what was left out", got)
	}
	if e.read("projcopy/a.txt") != "pa\n" || e.exists("projcopy/.onetool") {
		t.Errorf("copy: %v", listAll(t, filepath.Join(e.root, "projcopy")))
	}
}

// A directory checked and then swapped for a link to onetool's own
// directory, between the check and the IO, is caught once open: by the
// identity of the file, and on Linux by the path the kernel opened. (A
// rename, as file.move does, cannot be checked after the fact; see
// docs/security.md.)
func TestOwnSwappedAfterCheck(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the path an open file really has is read from /proc on Linux only")
	}
	for _, tt := range []struct {
		tool string
		args map[string]any
	}{
		{"read", map[string]any{"path": "sub2/secrets.yaml"}},
		{"grep", map[string]any{"pattern": "OWN", "path": "sub2/secrets.yaml"}},
		{"list", map[string]any{"path": "sub2"}},
		{"edit", map[string]any{"path": "sub2/secrets.yaml", "old": "OWN", "new": "x", "dry_run": true}},
		{"write", map[string]any{"path": "sub2/p.yaml", "content": "name: p"}},
		{"write", map[string]any{"path": "sub2/secrets.yaml", "content": "x", "append": true}},
		{"copy", map[string]any{"src": "a.txt", "dst": "sub2/p.yaml"}},
		{"copy", map[string]any{"src": "d", "dst": "sub2/d"}},
		{"copy", map[string]any{"src": "sub2/secrets.yaml", "dst": "stolen.txt"}},
	} {
		t.Run(tt.tool, func(t *testing.T) {
			hooks := &testHooks{}
			e := ownFixture(t, "root", hooks)
			hooks.located = func(path string) {
				if strings.HasPrefix(path, "sub2") {
					os.Rename(filepath.Join(e.root, "sub2"), filepath.Join(e.root, "sub2-old"))
					os.Symlink(".onetool", filepath.Join(e.root, "sub2"))
				}
			}
			before := ownSnapshot(t, e.root)
			v, err := e.call(tt.tool, tt.args)
			after := ownSnapshot(t, e.root)
			for p, c := range before {
				if after[p] != c {
					t.Errorf("%s changed: %q → %q", p, c, after[p])
				}
			}
			for p := range after {
				if _, ok := before[p]; !ok {
					t.Errorf("%s created", p)
				}
			}
			out, _ := ordered.Encode(v)
			if strings.Contains(string(out), "OWN-SECRET") || strings.Contains(string(out), "toolpacks") {
				t.Errorf("result shows onetool's own files: %s", out)
			}
			if !errors.Is(err, roots.ErrProtected) {
				t.Errorf("got %s, %v; want refused as onetool's own", out, err)
			}
		})
	}
}

// Between roots a move copies, then deletes: a directory holding a hard
// link to one of onetool's own files is refused rather than moved without
// it, and nothing is left half moved.
func TestOwnMoveAcrossRoots(t *testing.T) {
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	one, two := filepath.Join(tmp, "one"), filepath.Join(tmp, "two")
	for _, d := range []string{filepath.Join(one, "d"), two} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(one, "secrets.yaml"), []byte(ownSecret), 0o644)
	os.WriteFile(filepath.Join(one, "d", "a.txt"), []byte("a"), 0o644)
	if err := os.Link(filepath.Join(one, "secrets.yaml"), filepath.Join(one, "d", "h.txt")); err != nil {
		t.Fatal(err)
	}
	r, _ := roots.New(one, two)
	r, err := r.Protect(roots.Own{Path: filepath.Join(one, "secrets.yaml"), What: "secrets file"})
	if err != nil {
		t.Fatal(err)
	}
	reg := packs.NewRegistry()
	if err := Register(reg, Options{Roots: r, Backups: true}); err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, tmp: tmp, root: one, reg: reg}
	err = e.fails("move", map[string]any{"src": "d", "dst": filepath.Join(two, "d")}, "holds 1 entry that onetool owns")
	if !errors.Is(err, roots.ErrProtected) {
		t.Errorf("not ErrProtected: %v", err)
	}
	if !e.exists("d/a.txt") || !e.exists("d/h.txt") {
		t.Error("the source was changed")
	}
	if _, err := os.Stat(filepath.Join(two, "d")); !os.IsNotExist(err) {
		t.Error("a partial copy was left in the other root")
	}
}
