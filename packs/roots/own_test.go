//go:build unix

package roots

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ownFixture builds, under a new temporary directory:
//
//	root/                      the allowed root
//	  a.txt, sub/, tpx/, .onetoolx/
//	  .onetool/onetool.yaml, .onetool/secrets.yaml (the secrets file)
//	  cfg/onetool.yaml         a config file outside .onetool (--config)
//	  cfg/inc.yaml             its include
//	  cfg/toolpacks/p.yaml     its toolpack directory
//	  cfglink   -> .onetool
//	  seclink   -> .onetool/secrets.yaml
//	  dangle    -> .onetool/new.yaml        (does not exist)
//	  hard      hard link to .onetool/secrets.yaml
//	  hardcfg   hard link to cfg/onetool.yaml
//	  dotlink   a link named .onetool in sub/, to a plain directory
//	linkroot -> root
//
// and returns the roots (through via, "root" or "linkroot") protecting
// what runner protects: the config directory, a secrets file, a config
// file with its include, secrets beside it (absent), and its toolpack
// directory.
func ownFixture(t *testing.T, via string) (*Roots, string) {
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
	for _, d := range []string{"sub/plain", "tpx", ".onetoolx", ".onetool", "cfg/toolpacks"} {
		must(os.MkdirAll(j(d), 0o755))
	}
	for _, f := range []string{"a.txt", ".onetool/onetool.yaml", ".onetool/secrets.yaml", "cfg/onetool.yaml", "cfg/inc.yaml", "cfg/toolpacks/p.yaml", "cfg/other.txt"} {
		must(os.WriteFile(j(f), []byte("x: 1\n"), 0o644))
	}
	must(os.Symlink(".onetool", j("cfglink")))
	must(os.Symlink(".onetool/secrets.yaml", j("seclink")))
	must(os.Symlink(".onetool/new.yaml", j("dangle")))
	must(os.Symlink("plain", j("sub/.onetool")))
	must(os.Link(j(".onetool/secrets.yaml"), j("hard")))
	must(os.Link(j("cfg/onetool.yaml"), j("hardcfg")))
	must(os.Symlink(root, filepath.Join(tmp, "linkroot")))
	r, err := New(filepath.Join(tmp, via))
	must(err)
	r, err = r.Protect(
		Own{Path: j(".onetool"), What: "configuration directory"},
		Own{Path: j(".onetool/secrets.yaml"), What: "secrets file"}, // --secrets
		Own{Path: j("cfg/onetool.yaml"), What: "config file"},
		Own{Path: j("cfg/inc.yaml"), What: "included config file"},
		Own{Path: j("cfg/secrets.yaml"), What: "secrets file"},
		Own{Path: j("cfg/toolpacks"), What: "toolpack directory"},
	)
	must(err)
	return r, root
}

// Every way of naming one of onetool's own files is refused by Resolve,
// Locate and LocateEntry with ErrProtected (never ErrOutside), naming
// what it is; what merely looks alike is allowed.
func TestOwnRefused(t *testing.T) {
	refused := []struct{ path, what string }{
		{".onetool", "configuration directory"},
		{".onetool/secrets.yaml", "secrets file"}, // the closest own path is named
		{".onetool/onetool.yaml", "configuration directory"},
		{".onetool/toolpacks/p.yaml", "configuration directory"}, // does not exist: cannot be created
		{".onetool/new/deep/x.yaml", "configuration directory"},
		{".ONETOOL/Secrets.yaml", "secrets file"}, // another case
		{".OneTool", "configuration directory"},
		{"sub/.onetool/onetool.yaml", "configuration directory"}, // any .onetool, even a link to a plain dir
		{"sub/.onetool", "configuration directory"},
		{"sub/plain/../../.onetool/x", "configuration directory"},
		{"cfglink/secrets.yaml", "secrets file"}, // through a link to the directory
		{"cfglink", "configuration directory"},
		{"seclink", "secrets file"},
		{"dangle", "configuration directory"}, // a dangling link into it
		{"hard", "secrets file"},              // a hard link: another name, same identity
		{"hardcfg", "config file"},
		{"cfg/onetool.yaml", "config file"},
		{"CFG/ONETOOL.YAML", "config file"}, // compared without case: on a case-insensitive FS it is the same file
		{"cfg/inc.yaml", "included config file"},
		{"cfg/secrets.yaml", "secrets file"}, // does not exist: cannot be created
		{"cfg/toolpacks", "toolpack directory"},
		{"cfg/toolpacks/p.yaml", "toolpack directory"},
		{"cfg/toolpacks/new.yaml", "toolpack directory"},
		{"cfg/Toolpacks/new.yaml", "toolpack directory"},
	}
	allowed := []string{"a.txt", "sub", "sub/plain", "tpx/p.yaml", ".onetoolx/a", "x.onetool", "cfg", "cfg/other.txt", "cfg/onetool.yaml.bak", "cfg/toolpacks2/x", "sub/onetool.yaml"}
	for _, via := range []string{"root", "linkroot"} {
		r, root := ownFixture(t, via)
		hard := 0
		for _, tt := range refused {
			for _, p := range []string{tt.path, filepath.Join(root, tt.path)} {
				for name, f := range map[string]func(string) error{
					"Resolve":     func(p string) error { _, err := r.Resolve(p); return err },
					"Locate":      func(p string) error { _, err := r.Locate(p); return err },
					"LocateEntry": func(p string) error { _, err := r.LocateEntry(p); return err },
				} {
					err := f(p)
					if !errors.Is(err, ErrProtected) || errors.Is(err, ErrOutside) {
						t.Errorf("%s/%s(%q) = %v, want ErrProtected", via, name, p, err)
						continue
					}
					if !strings.Contains(err.Error(), "'"+p+"'") || !strings.Contains(err.Error(), tt.what) {
						t.Errorf("%s/%s(%q): %q does not name the path and %q", via, name, p, err, tt.what)
					}
					if strings.HasPrefix(tt.path, "hard") && strings.Contains(err.Error(), "another name for") {
						hard++
					}
				}
			}
		}
		if hard != 12 {
			t.Errorf("%s: %d hard link refusals say 'another name for', want 12", via, hard)
		}
		for _, p := range allowed {
			if _, err := r.Resolve(p); err != nil {
				t.Errorf("%s: Resolve(%q): %v", via, p, err)
			}
		}
	}
}

// The message says what the path is, why it is refused and what to do,
// and is not the message of a path outside the roots.
func TestOwnMessage(t *testing.T) {
	r, _ := ownFixture(t, "root")
	_, err := r.Resolve("cfg/secrets.yaml")
	want := "path 'cfg/secrets.yaml' is onetool's own secrets file ("
	if err == nil || !strings.HasPrefix(err.Error(), want) ||
		!strings.HasSuffix(err.Error(), "programs can neither read nor change onetool's own files, whatever the allowed roots; edit it yourself, outside onetool") ||
		strings.Contains(err.Error(), "outside the allowed roots") {
		t.Errorf("got %v, want %q…", err, want)
	}
	var pe *ProtectedError
	if !errors.As(err, &pe) || pe.What != "secrets file" || pe.How != OwnIs || !strings.HasSuffix(pe.Own, filepath.Join("cfg", "secrets.yaml")) {
		t.Errorf("ProtectedError %+v", pe)
	}
}

// A link named .onetool is refused as an entry (delete, move), not only
// for what it points to.
func TestOwnEntryName(t *testing.T) {
	r, _ := ownFixture(t, "root")
	if _, err := r.LocateEntry("sub/.onetool"); !errors.Is(err, ErrProtected) {
		t.Errorf("LocateEntry of a link named .onetool: %v", err)
	}
	if _, err := r.Locate("sub/plain/x"); err != nil {
		t.Errorf("what the link points to, by its own name: %v", err)
	}
}

// Identity catches what paths miss: a protected file or directory moved
// after the roots were built (as a case-insensitive file system, a bind
// mount or a hard link would show it under another name) stays refused,
// and so does anything created in the moved directory.
func TestOwnIdentity(t *testing.T) {
	r, root := ownFixture(t, "root")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Rename(filepath.Join(root, "cfg", "inc.yaml"), filepath.Join(root, "moved.yaml")))
	must(os.Rename(filepath.Join(root, "cfg", "toolpacks"), filepath.Join(root, "tp2")))
	for _, tt := range []struct {
		path string
		how  How
	}{
		{"moved.yaml", OwnAlias},
		{"tp2", OwnAlias},
		{"tp2/p.yaml", OwnInside},
		{"tp2/new/x.yaml", OwnInside},
	} {
		_, err := r.Resolve(tt.path)
		var pe *ProtectedError
		if !errors.As(err, &pe) || pe.How != tt.how {
			t.Errorf("Resolve(%q) = %v, want refused (how %d)", tt.path, err, tt.how)
		}
	}
}

// On a file system that ignores case, another spelling of an own path
// names the same file; Resolve refuses it by path and by identity. Linux
// test machines are case-sensitive (ext4, tmpfs): there the path rule is
// what TestOwnRefused covers, and this test skips.
func TestOwnCaseInsensitiveFS(t *testing.T) {
	r, root := ownFixture(t, "root")
	if _, err := os.Stat(filepath.Join(root, "CFG", "ONETOOL.YAML")); err != nil {
		t.Skip("the temporary directory's file system is case-sensitive")
	}
	for _, p := range []string{"CFG/ONETOOL.YAML", "Cfg/Inc.Yaml", "CFG/TOOLPACKS/P.YAML", ".ONETOOL/SECRETS.YAML"} {
		if _, err := r.Resolve(p); !errors.Is(err, ErrProtected) {
			t.Errorf("Resolve(%q) = %v, want ErrProtected", p, err)
		}
	}
}

// What walks and readers use: OwnEntry by path and name, CheckOpened by
// identity and (on Linux) by where the file really was opened,
// CheckHolds for a directory holding an own path.
func TestOwnHelpers(t *testing.T) {
	r, root := ownFixture(t, "root")
	j := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	for p, want := range map[string]bool{
		".onetool": true, ".onetool/secrets.yaml": true, "sub/.ONETOOL": true, "cfg/inc.yaml": true,
		"cfg/toolpacks/p.yaml": true, "cfg/other.txt": false, "a.txt": false, "hard": false, // a hard link: only identity tells
	} {
		if got := r.OwnEntry(j(p)); got != want {
			t.Errorf("OwnEntry(%s) = %v, want %v", p, got, want)
		}
	}
	open := func(p string) (*os.File, os.FileInfo) {
		t.Helper()
		f, err := os.Open(j(p))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		st, _ := f.Stat()
		return f, st
	}
	f, st := open("hard")
	if err := r.CheckOpened("hard", f, st); !errors.Is(err, ErrProtected) {
		t.Errorf("CheckOpened(hard link) = %v", err)
	}
	f, st = open("a.txt")
	if err := r.CheckOpened("a.txt", f, st); err != nil {
		t.Errorf("CheckOpened(a.txt) = %v", err)
	}
	// Opened through a link, as after a swap: only the kernel's path tells.
	f, _ = open("cfglink/onetool.yaml")
	if err := r.CheckOpened("x/onetool.yaml", f, nil); !errors.Is(err, ErrProtected) {
		if _, perr := os.Readlink("/proc/self/fd/0"); perr == nil {
			t.Errorf("CheckOpened(opened through a link into .onetool) = %v", err)
		}
	}
	for p, want := range map[string]bool{"cfg": true, "CFG": true, ".": true, "sub": false, "cfg/toolpacks": true, "tpx": false} {
		err := r.CheckHolds(p, j(p))
		if got := errors.Is(err, ErrProtected); got != want {
			t.Errorf("CheckHolds(%s) = %v, want refused %v", p, err, want)
		}
	}
	if err := r.CheckHolds("cfg", j("cfg")); err == nil || !strings.Contains(err.Error(), "path 'cfg' holds onetool's own") || !strings.Contains(err.Error(), "move or delete it yourself") {
		t.Errorf("CheckHolds message: %v", err)
	}
}

// Protect returns new roots; the old ones are unchanged (Roots are
// immutable and shared). Without Protect, .onetool is still refused.
func TestProtectCopies(t *testing.T) {
	root, _ := fixture(t)
	os.WriteFile(filepath.Join(root, "conf.yaml"), []byte("x"), 0o644)
	r, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Protect(Own{Path: "conf.yaml", What: "config file"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resolve("conf.yaml"); err != nil {
		t.Errorf("the original roots changed: %v", err)
	}
	if _, err := p.Resolve("conf.yaml"); !errors.Is(err, ErrProtected) {
		t.Errorf("relative own path not protected: %v", err)
	}
	if got := p.Own(); len(got) != 1 || got[0].Path != filepath.Join(root, "conf.yaml") {
		t.Errorf("Own() = %v", got)
	}
	if _, err := r.Resolve(".onetool/x"); !errors.Is(err, ErrProtected) {
		t.Errorf(".onetool without Protect: %v", err)
	}
	for _, bad := range []Own{{Path: "", What: "x"}, {Path: "a\x00b", What: "x"}} {
		if _, err := r.Protect(bad); err == nil {
			t.Errorf("Protect(%q) accepted", bad.Path)
		}
	}
}

// Resolve runs on every file call. Protection adds a path compare per own
// path and a stat per directory level inside the root.
func BenchmarkResolve(b *testing.B) {
	tmp, _ := filepath.EvalSymlinks(b.TempDir())
	deep := filepath.Join(tmp, "src", "pkg", "sub")
	os.MkdirAll(deep, 0o755)
	os.WriteFile(filepath.Join(deep, "f.go"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(tmp, ".onetool", "toolpacks"), 0o755)
	for _, f := range []string{"onetool.yaml", "secrets.yaml"} {
		os.WriteFile(filepath.Join(tmp, ".onetool", f), []byte("x"), 0o644)
	}
	plain, _ := New(tmp)
	prot, _ := plain.Protect(
		Own{Path: ".onetool", What: "configuration directory"},
		Own{Path: ".onetool/onetool.yaml", What: "config file"},
		Own{Path: ".onetool/secrets.yaml", What: "secrets file"},
		Own{Path: ".onetool/toolpacks", What: "toolpack directory"},
		Own{Path: filepath.Join(tmp, "home", ".onetool"), What: "configuration directory"},
	)
	for _, bc := range []struct {
		name string
		r    *Roots
	}{{"unprotected", plain}, {"protected", prot}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := bc.r.Resolve("src/pkg/sub/f.go"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
