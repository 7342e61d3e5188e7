package proxy

import (
	"context"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
	"github.com/onetool-dev/onetool/interp/stdlib"
)

// projGlobals: projects api, and two named like proj's functions, with
// pathlib importable to compare against.
func projGlobals(dirs map[string]string) starlark.StringDict {
	g := starlark.StringDict{"proj": NewProjects(dirs), "pathlib": stdlib.PathlibModule()}
	for k, v := range interp.StdGlobals() {
		g[k] = v
	}
	for k, v := range stdlib.Builtins() {
		g[k] = v
	}
	g.Freeze()
	return g
}

func projExec(t *testing.T, g starlark.StringDict, code string) (string, error) {
	t.Helper()
	res, err := interp.Exec(context.Background(), code, interp.Options{Predeclared: g, Parse: python.Parse})
	if err != nil {
		return "", err
	}
	text, _ := interp.Format(res.Value, "")
	return text, nil
}

// A project's path is a pathlib.Path: its pure parts need no file
// access (I/O is tested in runner, where the file pack answers it).
func TestProjectPaths(t *testing.T) {
	g := projGlobals(map[string]string{"api": "/w/api", "list": "/x", "path": "/y"})
	tests := []struct{ code, want string }{
		{`proj.api`, "/w/api"},
		{`str(proj.api / "src" / "main.go")`, "/w/api/src/main.go"},
		{`(proj.api / "src" / "main.go").name`, "main.go"},
		{`(proj.api / "src" / "main.go").stem`, "main"},
		{`(proj.api / "src" / "main.go").suffix`, ".go"},
		{`(proj.api / "archive.tar.gz").suffix`, ".gz"},
		{`(proj.api / "src").parent == proj.api`, "True"},
		{`proj.api / "a" != proj.api / "b"`, "True"},
		{`(proj.api / "src" / "main.go").parts[-3:]`, `["api","src","main.go"]`},
		{`proj.api.parts[0]`, "/"},
		{`type(proj.api).__name__`, "PosixPath"},
		{`isinstance(proj.api, pathlib.Path)`, "True"},
		{`pathlib.Path(proj.api) / "x" == proj.api / "x"`, "True"},
		{`pathlib.Path("/w") / "api" == proj.api`, "True"},
		{`(proj.api / "/etc").parts`, `["/","etc"]`},
		{`{"p": proj.api / "src"}`, `{"p":"/w/api/src"}`},
		{`proj.path("api") == proj.api`, "True"},
		{`proj.path("path")`, "/y"},
		{`[p["name"] for p in proj.list()]`, `["api","list","path"]`},
		{`type(proj.list()[0]["path"]).__name__`, "PosixPath"},
		{`type(proj.list).__name__`, "builtin_function_or_method"},
	}
	for _, tt := range tests {
		got, err := projExec(t, g, tt.code)
		if err != nil || got != tt.want {
			t.Errorf("%s = %q, %v; want %q", tt.code, got, err, tt.want)
		}
	}
}

func TestUnknownProject(t *testing.T) {
	g := projGlobals(map[string]string{"api": "/w/api", "list": "/x", "path": "/y"})
	_, err := projExec(t, g, "proj.unknown")
	if err == nil || err.Error() != "line 1: unknown project 'unknown'. Functions: list, path. Projects: api, list, path" {
		t.Errorf("got %v", err)
	}
	_, err = projExec(t, g, "proj.apii")
	if err == nil || !strings.HasSuffix(err.Error(), "Did you mean 'api'?") {
		t.Errorf("got %v", err)
	}
	empty := projGlobals(nil)
	if _, err := projExec(t, empty, "proj.x"); err == nil || !strings.HasSuffix(err.Error(), "Projects: (none)") {
		t.Errorf("got %v", err)
	}
}
