package roots

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEscapeAttempts tries the ways a program could reach outside the
// roots through a path. Every one must be refused with ErrOutside (or, for
// names the system cannot even represent, another error) — never resolve
// to a path outside.
func TestEscapeAttempts(t *testing.T) {
	root, outside := fixture(t)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	// More traps inside the root.
	must(os.Symlink("../outside", filepath.Join(root, "rel-out")))                   // relative link out
	must(os.Symlink(filepath.Join(root, "chain2"), filepath.Join(root, "chain1")))   // chain of links …
	must(os.Symlink(filepath.Join(root, "link-out"), filepath.Join(root, "chain2"))) // … ending outside
	must(os.Symlink(filepath.Join(root, "loop2"), filepath.Join(root, "loop1")))     // a loop
	must(os.Symlink(filepath.Join(root, "loop1"), filepath.Join(root, "loop2")))
	must(os.Symlink("/", filepath.Join(root, "slash")))                              // the whole disk
	must(os.Symlink(filepath.Join(root, "sub"), filepath.Join(root, "sub", "self"))) // harmless self link
	r, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	attempts := []string{
		"..",
		"../",
		"../..",
		"./..",
		"sub/../..",
		"sub/./../../outside",
		"../outside/secret.txt",
		"..//outside//secret.txt",
		strings.Repeat("sub/../", 20) + "../outside",
		"/",
		"/etc/passwd",
		"/etc/../etc/shadow",
		"//etc/passwd",
		filepath.Join(outside, "secret.txt"),
		outside,
		outside + "/",
		root + "/../outside/secret.txt",
		root + "-evil/x",
		root + "/link-out",
		"link-out/secret.txt",
		"link-out/../outside/secret.txt",
		"rel-out/secret.txt",
		"chain1/secret.txt",
		"slash/etc/passwd",
		"slash",
		"dangling",
		"link-out/new-file.txt",
		"loop1",
		"loop1/x",
		"sub/self/../../outside",
		"a.txt\x00/../../outside",
		"\x00",
		strings.Repeat("x", 300),            // a name longer than the system allows
		strings.Repeat("deep/", 1000) + "x", // a path longer than the system allows
	}
	if len(attempts) < 30 {
		t.Fatalf("only %d attempts", len(attempts))
	}
	realOutside, _ := filepath.EvalSymlinks(outside)
	realRoot, _ := filepath.EvalSymlinks(root)
	refused := 0
	for _, p := range attempts {
		got, err := r.Resolve(p)
		if err != nil {
			refused++
			continue
		}
		// Resolve cleans ".." lexically before following links, so
		// "link-out/../outside" names root/outside — inside the root, and
		// callers open the returned path, not the one they were given.
		// Whatever resolves must be inside the root and never outside.
		if !within(got, realRoot) || within(got, realOutside) {
			t.Errorf("Resolve(%q) = %q: outside the root", p, got)
		}
	}
	if refused < 30 {
		t.Errorf("%d of %d attempts refused, want at least 30", refused, len(attempts))
	}
	// What stays inside still works.
	for _, p := range []string{"a.txt", "sub/self/b.txt", "sub/new.txt", "./sub/../a.txt"} {
		if _, err := r.Resolve(p); err != nil {
			t.Errorf("Resolve(%q): %v", p, err)
		}
	}
}
