package roots

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestLocate(t *testing.T) {
	root, _ := fixture(t)
	if err := os.MkdirAll(filepath.Join(root, "proj", "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A nested root: locations use the outermost one.
	r, err := New(root, filepath.Join(root, "proj"))
	if err != nil {
		t.Fatal(err)
	}
	realRoot, _ := filepath.EvalSymlinks(root)
	tests := []struct {
		path, rel string
		entry     bool
	}{
		{"a.txt", "a.txt", false},
		{".", ".", false},
		{"sub/../sub/b.txt", filepath.Join("sub", "b.txt"), false},
		{"link-in/b.txt", filepath.Join("sub", "b.txt"), false},
		{"link-in", "sub", false},
		{"link-in", "link-in", true}, // the link itself
		{"link-in/b.txt", filepath.Join("sub", "b.txt"), true},
		{"sub/new.txt", filepath.Join("sub", "new.txt"), true},
		{filepath.Join(root, "proj", "src"), filepath.Join("proj", "src"), false},
		{root, ".", true},
	}
	for _, tt := range tests {
		locate := r.Locate
		if tt.entry {
			locate = r.LocateEntry
		}
		loc, err := locate(tt.path)
		if err != nil {
			t.Errorf("locate(%q, entry=%v): %v", tt.path, tt.entry, err)
			continue
		}
		if loc.Root != realRoot || loc.Rel != tt.rel {
			t.Errorf("locate(%q, entry=%v) = %+v, want {%s %s}", tt.path, tt.entry, loc, realRoot, tt.rel)
		}
		if want := filepath.Join(realRoot, tt.rel); loc.Path() != want {
			t.Errorf("Path() = %q, want %q", loc.Path(), want)
		}
	}
}

func TestLocateRefuses(t *testing.T) {
	root, outside := fixture(t)
	r, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"..", "link-out", "link-out/secret.txt", "dangling", filepath.Join(outside, "secret.txt"), "/"} {
		for _, locate := range []func(string) (Location, error){r.Locate, r.LocateEntry} {
			if loc, err := locate(p); !errors.Is(err, ErrOutside) {
				t.Errorf("locate(%q) = %+v, %v: want ErrOutside", p, loc, err)
			}
		}
	}
	if _, err := r.LocateEntry(""); err == nil {
		t.Error("LocateEntry(\"\"): no error")
	}
}

// A root configured through a link: the root itself is still located.
func TestLocateEntryLinkedRoot(t *testing.T) {
	root, _ := fixture(t)
	link := filepath.Join(filepath.Dir(root), "root-link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	r, err := New(link)
	if err != nil {
		t.Fatal(err)
	}
	realRoot, _ := filepath.EvalSymlinks(root)
	for _, p := range []string{".", link, "sub/.."} {
		loc, err := r.LocateEntry(p)
		if err != nil || loc.Root != realRoot || loc.Rel != "." {
			t.Errorf("LocateEntry(%q) = %+v, %v", p, loc, err)
		}
	}
	if loc, err := r.LocateEntry("link-in"); err != nil || loc.Rel != "link-in" {
		t.Errorf("LocateEntry(link-in) = %+v, %v", loc, err)
	}
}
