package roots

import (
	"context"
	"errors"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestImplicit(t *testing.T) {
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(tmp, "home", "me")
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	linkHome := filepath.Join(tmp, "h")
	if err := os.Symlink(home, linkHome); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		wd, home string
		want     string // "" allowed, else a part of why not
	}{
		{"/", home, "started in / (the whole disk"},
		{"/", "", "started in / (the whole disk"},
		{home, home, "your home directory " + home},
		{home + "/", home, "your home directory"},
		{linkHome, home, "your home directory"}, // the home directory through a link
		{home, linkHome, "your home directory"}, // $HOME itself a link
		{filepath.Dir(home), home, "holds your home directory"},
		{tmp, home, "holds your home directory"},
		{proj, home, ""},
		{proj, "", ""},
		{filepath.Join(tmp, "home"), "", ""}, // no home known: only / is refused
	} {
		got := Implicit(c.wd, c.home)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("Implicit(%q, %q) = %q, want %q", c.wd, c.home, got, c.want)
		}
	}
}

// TestNoneRefusesEveryPath: roots without a directory refuse every path,
// relative or absolute, with the reason and how to set a root, and the
// refusal is both ErrNoRoot and ErrOutside.
func TestNoneRefusesEveryPath(t *testing.T) {
	why := Implicit("/", "")
	r := None("/", why)
	for _, p := range []string{"a.txt", "/etc/passwd", "/", ".", "../x", "sub/b.txt"} {
		for name, f := range map[string]func(string) error{
			"Resolve":     func(p string) error { _, err := r.Resolve(p); return err },
			"Locate":      func(p string) error { _, err := r.Locate(p); return err },
			"LocateEntry": func(p string) error { _, err := r.LocateEntry(p); return err },
		} {
			err := f(p)
			if !errors.Is(err, ErrNoRoot) || !errors.Is(err, ErrOutside) {
				t.Fatalf("%s(%q) = %v, want ErrNoRoot and ErrOutside", name, p, err)
			}
			msg := err.Error()
			for _, part := range []string{"no root directory is set", "onetool was started in /", "--root DIR", "packs.file.allowed_dirs", "MCP client's roots"} {
				if !strings.Contains(msg, part) {
					t.Errorf("%s(%q): %q lacks %q", name, p, msg, part)
				}
			}
		}
	}
	if len(r.Dirs()) != 0 || r.Base() != "/" {
		t.Errorf("Dirs %v Base %q", r.Dirs(), r.Base())
	}
}

func TestChoose(t *testing.T) {
	root, _ := fixture(t)
	r, err := Choose("/", []string{root}, "unused")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resolve("a.txt"); err != nil {
		t.Errorf("a.txt under the chosen root: %v", err)
	}
	r, err = Choose(root, nil, "why not")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resolve("a.txt"); !errors.Is(err, ErrNoRoot) || !strings.Contains(err.Error(), "why not") {
		t.Errorf("no dirs: %v", err)
	}
}

func TestClip(t *testing.T) {
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	mk := func(p ...string) string {
		d := filepath.Join(append([]string{tmp}, p...)...)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	a, aSub, b, other := mk("a"), mk("a", "sub"), mk("b"), mk("other")
	link := filepath.Join(tmp, "link-to-other")
	if err := os.Symlink(other, link); err != nil {
		t.Fatal(err)
	}
	server, err := New(a, b)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		client, want []string
	}{
		{[]string{aSub}, []string{aSub}},             // narrower: kept
		{[]string{a}, []string{a}},                   // the same: kept
		{[]string{tmp}, []string{a, b}},              // wider: the server's roots inside it
		{[]string{"/"}, []string{a, b}},              // the whole disk: the server's roots
		{[]string{other}, nil},                       // elsewhere: nothing
		{[]string{link}, nil},                        // a link that leads elsewhere: nothing
		{[]string{aSub + "/../../other"}, nil},       // .. that leads out: nothing
		{[]string{"relative/dir", ""}, nil},          // not absolute: nothing
		{[]string{aSub, a, aSub}, []string{aSub, a}}, // no repeats
		{[]string{other, filepath.Join(b, "new")}, []string{filepath.Join(b, "new")}}, // a root not made yet
	} {
		if got := server.Clip(c.client); !slices.Equal(got, c.want) {
			t.Errorf("Clip(%v) = %v, want %v", c.client, got, c.want)
		}
	}
}

// TestWithDirsKeepsOwnFiles: a session's roots, made from the runner's,
// still refuse onetool's own files, by path and by identity.
func TestWithDirsKeepsOwnFiles(t *testing.T) {
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	conf := filepath.Join(tmp, "client", "conf.yaml")
	if err := os.MkdirAll(filepath.Dir(conf), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(conf, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	base, err := New(filepath.Join(tmp, "server"))
	if err != nil {
		t.Fatal(err)
	}
	base, err = base.Protect(Own{Path: conf, What: "config file"})
	if err != nil {
		t.Fatal(err)
	}
	client, err := New(filepath.Join(tmp, "client"))
	if err != nil {
		t.Fatal(err)
	}
	s := base.WithDirs(client)
	if _, err := s.Resolve(conf); !errors.Is(err, ErrProtected) {
		t.Errorf("config file under a client's root: %v", err)
	}
	hard := filepath.Join(tmp, "client", "hard")
	if err := os.Link(conf, hard); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Resolve(hard); !errors.Is(err, ErrProtected) {
		t.Errorf("hard link to the config file: %v", err)
	}
	if _, err := s.Resolve(filepath.Join(tmp, "client", ".onetool", "x")); !errors.Is(err, ErrProtected) {
		t.Errorf(".onetool under a client's root: %v", err)
	}
	if _, err := s.Resolve(filepath.Join(tmp, "server", "x")); !errors.Is(err, ErrOutside) {
		t.Errorf("the runner's root is not the session's: %v", err)
	}
	if _, err := s.Resolve(filepath.Join(tmp, "client", "ok.txt")); err != nil {
		t.Errorf("inside the client's root: %v", err)
	}
	if len(s.Own()) != 1 || len(base.Dirs()) != 1 || base.Dirs()[0] != filepath.Join(tmp, "server") {
		t.Errorf("WithDirs changed its receiver or lost own files: %v %v", s.Own(), base.Dirs())
	}
}

func TestSpecRoundTrip(t *testing.T) {
	root, _ := fixture(t)
	for _, r := range []*Roots{mustNew(t, root, filepath.Join(root, "sub")), None("/", "started in /")} {
		back, err := FromSpec(r.Spec())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(back.Dirs(), r.Dirs()) || back.Base() != r.Base() || back.Spec().Key() != r.Spec().Key() {
			t.Errorf("round trip: %+v → %+v", r.Spec(), back.Spec())
		}
	}
	if (Spec{Dirs: []string{"/a"}}).Key() == (Spec{Dirs: []string{"/a", ""}}).Key() ||
		(Spec{None: "x"}).Key() == (Spec{Base: "x"}).Key() {
		t.Error("different specs share a key")
	}
}

func TestContext(t *testing.T) {
	root, _ := fixture(t)
	def, run := mustNew(t, root), None("/", "x")
	ctx := context.Background()
	if FromContext(ctx, def) != def || FromContext(NewContext(ctx, nil), def) != def {
		t.Error("a context without roots gives the default")
	}
	if FromContext(NewContext(ctx, run), def) != run {
		t.Error("a run's roots win over the default")
	}
}

func mustNew(t *testing.T, dirs ...string) *Roots {
	t.Helper()
	r, err := New(dirs...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The home directory is known without $HOME too: a service started with
// HOME unset, empty or pointing elsewhere, in the user's home, must not
// take the home as a root (red-team finding F4).
func TestHomesWithoutHOME(t *testing.T) {
	u, err := user.Current()
	if err != nil || u.HomeDir == "" {
		t.Skipf("no user database entry: %v", err)
	}
	for _, home := range []string{"", "/nonexistent"} {
		t.Setenv("HOME", home)
		if !slices.Contains(Homes(), u.HomeDir) {
			t.Errorf("HOME=%q: Homes() = %q, want %q among them", home, Homes(), u.HomeDir)
		}
		if why := Implicit(u.HomeDir, Homes()...); why == "" {
			t.Errorf("HOME=%q: started in %s, the home is taken as a root", home, u.HomeDir)
		}
	}
}
