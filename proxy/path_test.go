package proxy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/packs/roots"
)

// projFixture: a project "api" with src/main.go, a symlink pointing
// outside, and a file outside every root.
func projFixture(t *testing.T) (starlark.StringDict, string, string) {
	t.Helper()
	tmp := t.TempDir()
	api := filepath.Join(tmp, "api")
	outside := filepath.Join(tmp, "outside")
	os.MkdirAll(filepath.Join(api, "src"), 0o755)
	os.MkdirAll(outside, 0o755)
	os.WriteFile(filepath.Join(api, "src", "main.go"), []byte("package main\n"), 0o644)
	os.WriteFile(filepath.Join(api, "README.md"), []byte("# api"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o644)
	os.Symlink(outside, filepath.Join(api, "escape"))
	r, err := roots.New(api)
	if err != nil {
		t.Fatal(err)
	}
	g := starlark.StringDict{"proj": NewProjects(map[string]string{"api": api, "list": "/x", "path": "/y"}, r)}
	g.Freeze()
	return g, api, outside
}

func projExec(t *testing.T, g starlark.StringDict, code string) (string, error) {
	t.Helper()
	res, err := interp.Exec(context.Background(), code, interp.Options{Predeclared: g})
	if err != nil {
		return "", err
	}
	text, _ := interp.Format(res.Value, "")
	return text, nil
}

func TestPathAttributes(t *testing.T) {
	g, api, _ := projFixture(t)
	tests := []struct{ code, want string }{
		{`proj.api`, api},
		{`str(proj.api / "src" / "main.go")`, filepath.Join(api, "src", "main.go")},
		{`(proj.api / "src" / "main.go").name`, "main.go"},
		{`(proj.api / "src" / "main.go").stem`, "main"},
		{`(proj.api / "src" / "main.go").suffix`, ".go"},
		{`(proj.api / "archive.tar.gz").suffix`, ".gz"},
		{`(proj.api / "src").parent == proj.api`, "True"},
		{`proj.api / "a" != proj.api / "b"`, "True"},
		{`(proj.api / "src" / "main.go").parts[-3:]`, `["api","src","main.go"]`},
		{`(proj.api / "src" / "main.go").exists()`, "True"},
		{`(proj.api / "nope").exists()`, "False"},
		{`(proj.api / "src").is_dir()`, "True"},
		{`(proj.api / "README.md").read_text()`, "# api"},
		{`[p.name for p in proj.api.list()]`, `["README.md","escape","src"]`},
		{`type(proj.api)`, "path"},
		{`{"p": proj.api / "src"}`, `{"p":"` + filepath.Join(api, "src") + `"}`},
		{`proj.path("api") == proj.api`, "True"},
		{`[p["name"] for p in proj.list()]`, `["api","list","path"]`},
		{`type(proj.list)`, "builtin_function_or_method"},
	}
	for _, tt := range tests {
		got, err := projExec(t, g, tt.code)
		if err != nil || got != tt.want {
			t.Errorf("%s = %q, %v; want %q", tt.code, got, err, tt.want)
		}
	}
}

func TestPathEscapes(t *testing.T) {
	g, _, outside := projFixture(t)
	for _, code := range []string{
		`(proj.api / "..").list()`,
		`(proj.api / ".." / "outside" / "secret.txt").read_text()`,
		`(proj.api / "escape" / "secret.txt").read_text()`,
		`(proj.api / "escape").exists()`,
		`(proj.api / "` + filepath.Join(outside, "secret.txt") + `").read_text()`,
		`(proj.api / "/etc/passwd").read_text()`,
		`(proj.api / "src" / ".." / ".." / "outside").is_dir()`,
	} {
		_, err := projExec(t, g, code)
		if err == nil || !errors.Is(err, roots.ErrOutside) || !strings.Contains(err.Error(), "outside the allowed roots") {
			t.Errorf("%s: %v, want a refusal", code, err)
		}
	}
	if _, err := projExec(t, g, `proj.api / "a\x00b"`); err == nil {
		t.Error("a NUL byte in a path was accepted")
	}
}

func TestUnknownProject(t *testing.T) {
	g, _, _ := projFixture(t)
	_, err := projExec(t, g, "proj.unknown")
	if err == nil || err.Error() != "line 1: unknown project 'unknown'. Functions: list, path. Projects: api, list, path" {
		t.Errorf("got %v", err)
	}
	_, err = projExec(t, g, "proj.apii")
	if err == nil || !strings.HasSuffix(err.Error(), "Did you mean 'api'?") {
		t.Errorf("got %v", err)
	}
	empty := starlark.StringDict{"proj": NewProjects(nil, nil)}
	if _, err := projExec(t, empty, "proj.x"); err == nil || !strings.HasSuffix(err.Error(), "Projects: (none)") {
		t.Errorf("got %v", err)
	}
}

func TestReadTextLimit(t *testing.T) {
	g, api, _ := projFixture(t)
	big := make([]byte, MaxReadText+1)
	os.WriteFile(filepath.Join(api, "big.bin"), big, 0o644)
	_, err := projExec(t, g, `(proj.api / "big.bin").read_text()`)
	if err == nil || !strings.Contains(err.Error(), "larger than 4 MiB") {
		t.Errorf("got %v", err)
	}
}

// onetool's own files are refused to path objects (SPEC §8.2): by name
// (.onetool in any case), through a link, and through a hard link to a
// protected file; list leaves them out.
func TestPathOwnFiles(t *testing.T) {
	_, api, _ := projFixture(t)
	os.MkdirAll(filepath.Join(api, ".onetool"), 0o755)
	os.WriteFile(filepath.Join(api, ".onetool", "secrets.yaml"), []byte("token: s3cr3t"), 0o644)
	os.WriteFile(filepath.Join(api, "onetool.yaml"), []byte("packs: {}"), 0o644)
	os.Symlink(".onetool", filepath.Join(api, "cfg"))
	os.Link(filepath.Join(api, ".onetool", "secrets.yaml"), filepath.Join(api, "hard.txt"))
	r, err := roots.New(api)
	if err != nil {
		t.Fatal(err)
	}
	r, err = r.Protect(
		roots.Own{Path: filepath.Join(api, ".onetool", "secrets.yaml"), What: "secrets file"},
		roots.Own{Path: filepath.Join(api, "onetool.yaml"), What: "config file"},
	)
	if err != nil {
		t.Fatal(err)
	}
	g := starlark.StringDict{"proj": NewProjects(map[string]string{"api": api}, r)}
	g.Freeze()
	for _, code := range []string{
		`(proj.api / ".onetool" / "secrets.yaml").read_text()`,
		`(proj.api / ".ONETOOL" / "secrets.yaml").read_text()`,
		`(proj.api / "cfg" / "secrets.yaml").read_text()`,
		`(proj.api / "hard.txt").read_text()`,
		`(proj.api / "onetool.yaml").read_text()`,
		`(proj.api / ".onetool").list()`,
		`(proj.api / ".onetool").is_dir()`,
		`(proj.api / ".onetool" / "onetool.yaml").exists()`,
	} {
		_, err := projExec(t, g, code)
		if !errors.Is(err, roots.ErrProtected) || strings.Contains(fmt.Sprint(err), "s3cr3t") || !strings.Contains(err.Error(), "onetool's own") {
			t.Errorf("%s: %v, want refused as onetool's own", code, err)
		}
	}
	got, err := projExec(t, g, `[p.name for p in proj.api.list()]`)
	if err != nil || got != `["README.md","cfg","escape","hard.txt","src"]` {
		t.Errorf("list() = %s, %v; want .onetool and onetool.yaml left out", got, err)
	}
}
