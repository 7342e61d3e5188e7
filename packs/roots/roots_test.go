package roots

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture builds:
//
//	root/            (allowed)
//	  a.txt
//	  sub/b.txt
//	  link-out -> outside/
//	  link-in  -> sub/
//	  dangling -> outside/new.txt (does not exist yet)
//	outside/secret.txt
func fixture(t *testing.T) (root, outside string) {
	t.Helper()
	tmp := t.TempDir()
	root = filepath.Join(tmp, "root")
	outside = filepath.Join(tmp, "outside")
	for _, d := range []string{filepath.Join(root, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "a.txt"))
	write(filepath.Join(root, "sub", "b.txt"))
	write(filepath.Join(outside, "secret.txt"))
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(outside, filepath.Join(root, "link-out")))
	must(os.Symlink(filepath.Join(root, "sub"), filepath.Join(root, "link-in")))
	must(os.Symlink(filepath.Join(outside, "new.txt"), filepath.Join(root, "dangling")))
	return root, outside
}

func TestResolve(t *testing.T) {
	root, outside := fixture(t)
	r, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	realRoot, _ := filepath.EvalSymlinks(root)
	allowed := map[string]string{
		"a.txt":                          "a.txt",
		"sub/b.txt":                      "sub/b.txt",
		"sub/../a.txt":                   "a.txt",
		"./sub/./b.txt":                  "sub/b.txt",
		"new-file.txt":                   "new-file.txt",
		"sub/new/deeper.txt":             "sub/new/deeper.txt",
		"link-in/b.txt":                  "sub/b.txt",
		filepath.Join(root, "a.txt"):     "a.txt",
		root:                             "",
		filepath.Join(root, "sub", ".."): "",
	}
	for in, want := range allowed {
		got, err := r.Resolve(in)
		if err != nil {
			t.Errorf("Resolve(%q): %v", in, err)
			continue
		}
		if want := filepath.Join(realRoot, want); got != want {
			t.Errorf("Resolve(%q) = %q, want %q", in, got, want)
		}
	}
	refused := []string{
		"..",
		"../outside/secret.txt",
		"sub/../../outside/secret.txt",
		filepath.Join(outside, "secret.txt"),
		"/etc/passwd",
		"/",
		"link-out/secret.txt",
		"link-out",
		"link-out/new.txt",
		"dangling",
		"a.txt\x00.png",
		root + "-sibling/x",
		strings.Repeat("../", 50) + "etc/passwd",
	}
	for _, in := range refused {
		if got, err := r.Resolve(in); err == nil || !errors.Is(err, ErrOutside) {
			t.Errorf("Resolve(%q) = %q, %v; want ErrOutside", in, got, err)
		}
	}
	if _, err := r.Resolve(""); err == nil {
		t.Error("empty path accepted")
	}
	long := strings.Repeat("a", 5000)
	if _, err := r.Resolve(long); err == nil {
		t.Error("a 5000-byte name was accepted")
	}
}

func TestOutsideErrorListsRoots(t *testing.T) {
	root, _ := fixture(t)
	other := t.TempDir()
	r, err := New(root, other)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Resolve("/etc/passwd")
	var oe *OutsideError
	if !errors.As(err, &oe) {
		t.Fatalf("error %v is not an *OutsideError", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "path '/etc/passwd' is outside the allowed roots: "+root+", "+other) {
		t.Errorf("message = %q", msg)
	}
	if got, err := r.Resolve(filepath.Join(other, "x")); err != nil || !strings.HasSuffix(got, "x") {
		t.Errorf("second root refused: %v", err)
	}
}

// A root that is itself a symlink is resolved, so paths inside it match.
func TestSymlinkedRoot(t *testing.T) {
	root, _ := fixture(t)
	link := filepath.Join(t.TempDir(), "root-link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	r, err := New(link)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resolve("a.txt"); err != nil {
		t.Errorf("a file inside a symlinked root: %v", err)
	}
	if _, err := r.Resolve("link-out/secret.txt"); !errors.Is(err, ErrOutside) {
		t.Errorf("escape through a symlinked root: %v", err)
	}
}
