package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/runner/config"
)

// projRunner: a project api (src/main.go, README.md, a link escape
// pointing outside, .onetool with secrets, a hard link to them) as the
// only root, and a directory outside it.
func projRunner(t *testing.T) (*Runner, string, string) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	api, outside := filepath.Join(tmp, "api"), filepath.Join(tmp, "outside")
	writeAll(t, api, "src/main.go", "package main\n")
	writeAll(t, api, "README.md", "# api")
	writeAll(t, api, "data.json", `{"n": 3}`)
	writeAll(t, api, ".onetool/secrets.yaml", "token: s3cr3t-77\n")
	writeAll(t, outside, "secret.txt", "outside-secret")
	os.Symlink(outside, filepath.Join(api, "escape"))
	os.Symlink(".onetool", filepath.Join(api, "cfg"))
	os.Link(filepath.Join(api, ".onetool", "secrets.yaml"), filepath.Join(api, "hard.txt"))
	cfg := config.Default()
	cfg.Projects = map[string]string{"api": api}
	r := newRunner(t, WithConfig(cfg), WithRoots(api),
		WithProtected(roots.Own{Path: filepath.Join(api, ".onetool"), What: "configuration directory"},
			roots.Own{Path: filepath.Join(api, ".onetool", "secrets.yaml"), What: "secrets file"}))
	t.Cleanup(func() { r.Close() })
	return r, api, outside
}

// SPEC §5.3 with issue 31: a project's path is a pathlib.Path, so every
// file API takes it, and its I/O is the file pack's.
func TestProjectPathsArePathlibPaths(t *testing.T) {
	r, _, _ := projRunner(t)
	for _, c := range []struct{ code, want string }{
		{`(proj.api / "src" / "main.go").exists()`, "True"},
		{`(proj.api / "nope").exists()`, "False"},
		{`(proj.api / "a\x00b").exists()`, "False"}, // as CPython's
		{`(proj.api / "src").is_dir()`, "True"},
		{`(proj.api / "README.md").read_text()`, "# api"},
		{`[p.name for p in proj.api.list()]`, `["README.md","cfg","data.json","escape","hard.txt","src"]`},
		{`sorted(p.name for p in proj.api.iterdir()) == [p.name for p in proj.api.list()]`, "True"},
		{`[str(p.relative_to(proj.api)) for p in proj.api.rglob("*.go")]`, `["src/main.go"]`},
		{"with open(proj.api / 'src' / 'main.go') as f:\n    line = f.readline()\nline", "package main\n"},
		{"import json\nwith open(proj.api / 'data.json') as f:\n    n = json.load(f)['n']\nn", "3"},
		{`(proj.api / "a\x00b").read_text()`, "Error: line 1: ValueError: embedded null byte"},
		{"import os\nsorted(os.listdir(proj.api / 'src'))", `["main.go"]`},
		{"import os\n[d for d, _, fs in os.walk(proj.api) if 'main.go' in fs] == [str(proj.api / 'src')]", "True"},
		{"import os.path\nos.path.getsize(proj.api / 'README.md')", "5"},
		{`(proj.api / "new.txt").write_text("hi")`, "2"},
		{`file.read(path=str(proj.api / "new.txt"))`, "hi"},
	} {
		res := r.Exec(context.Background(), c.code)
		if (res.Err != nil) != strings.HasPrefix(c.want, "Error:") || res.Text != c.want {
			t.Errorf("%s = %q, %v; want %q", c.code, res.Text, res.Err, c.want)
		}
	}
}

// The hostile paths of SPEC §8.2 through a project's path get the file
// pack's answer: PermissionError naming why, errors.Is the roots'
// sentinel, never the content.
func TestProjectPathsRefused(t *testing.T) {
	r, _, outside := projRunner(t)
	for _, c := range []struct {
		code string
		is   error
	}{
		{`(proj.api / "..").list()`, roots.ErrOutside},
		{`(proj.api / ".." / "outside" / "secret.txt").read_text()`, roots.ErrOutside},
		{`(proj.api / "escape" / "secret.txt").read_text()`, roots.ErrOutside},
		{`(proj.api / "escape").exists()`, roots.ErrOutside},
		{`(proj.api / "` + filepath.Join(outside, "secret.txt") + `").read_text()`, roots.ErrOutside},
		{`(proj.api / "/etc/passwd").read_text()`, roots.ErrOutside},
		{`(proj.api / "src" / ".." / ".." / "outside").is_dir()`, roots.ErrOutside},
		{`(proj.api / ".onetool" / "secrets.yaml").read_text()`, roots.ErrProtected},
		{`(proj.api / ".ONETOOL" / "secrets.yaml").read_text()`, roots.ErrProtected},
		{`(proj.api / "cfg" / "secrets.yaml").read_text()`, roots.ErrProtected},
		{`(proj.api / "hard.txt").read_text()`, roots.ErrProtected},
		{`(proj.api / ".onetool").list()`, roots.ErrProtected},
		{`(proj.api / ".onetool" / "x").write_text("x")`, roots.ErrProtected},
		{`open(proj.api / ".onetool" / "secrets.yaml").read()`, roots.ErrProtected},
	} {
		res := r.Exec(context.Background(), c.code)
		if !errors.Is(res.Err, c.is) || !strings.Contains(res.Text, "PermissionError") ||
			strings.Contains(res.Text, "s3cr3t") || strings.Contains(res.Text, "outside-secret") {
			t.Errorf("%s = %s (%v), want a PermissionError that is %v", c.code, res.Text, res.Err, c.is)
		}
	}
	// What they are refused is caught as PermissionError, as in Python.
	res := r.Exec(context.Background(), "try:\n    (proj.api / '..' / 'outside' / 'secret.txt').read_text()\nexcept PermissionError as e:\n    got = 'refused'\ngot")
	if res.Text != "refused" {
		t.Errorf("except PermissionError: %s", res.Text)
	}
	// The listing leaves onetool's own files out.
	if res := r.Exec(context.Background(), `".onetool" in [p.name for p in proj.api.list()]`); res.Text != "False" {
		t.Errorf("list() shows .onetool: %s", res.Text)
	}
}
