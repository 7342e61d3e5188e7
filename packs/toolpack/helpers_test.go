package toolpack

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
)

// writeFiles creates files under dir; a name ending in .sh is made
// executable.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
}

// fakeStarlark stands in for the interpreter: a function "exists" when
// the file contains "def name(", and running it returns what it was
// called with.
type fakeStarlark struct{}

func (fakeStarlark) Check(file, function string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if !strings.Contains(string(data), "def "+function+"(") {
		return fmt.Errorf("%s defines no function %s", filepath.Base(file), function)
	}
	return nil
}

func (fakeStarlark) Handler(file, function string) packs.Handler {
	return func(_ context.Context, args map[string]any) (any, error) {
		m := ordered.NewMap(3)
		m.Set("file", filepath.Base(file))
		m.Set("function", function)
		m.Set("args", args)
		return m, nil
	}
}

func upper(_ context.Context, args map[string]any) (any, error) {
	s, _ := args["text"].(string)
	return strings.ToUpper(s), nil
}

// testExecutors supports every kind.
func testExecutors() Executors {
	return Executors{
		Starlark: fakeStarlark{},
		Go: map[string]packs.Handler{"text:upper": upper, "text:lower": upper,
			"text:search": func(context.Context, map[string]any) (any, error) { return []any{"y"}, nil }},
		MCP: func(server, tool string) (packs.Backend, error) {
			if server != "github" {
				return packs.Backend{}, fmt.Errorf("no server %q (servers: github)", server)
			}
			return packs.Backend{Handler: func(context.Context, map[string]any) (any, error) {
				return server + "/" + tool, nil
			}}, nil
		},
		LookupEnv: func(name string) (string, bool) {
			v, ok := map[string]string{"PATH": os.Getenv("PATH"), "VISIBLE": "seen", "HIDDEN": "secret"}[name]
			return v, ok
		},
	}
}

// errorLines returns the lines of a load error with dir removed from
// file names, so that expectations need not know the temporary directory.
func errorLines(err error, dir string) []string {
	if err == nil {
		return nil
	}
	text := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
	return strings.Split(text, "\n")
}

// leaves returns the errors an errors.Join holds.
func leaves(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

func skipWithoutSh(t testing.TB) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("command tests use /bin/sh scripts")
	}
	if _, err := os.Stat("/bin/sh"); errors.Is(err, os.ErrNotExist) {
		t.Skip("no /bin/sh")
	}
}

// call binds named arguments, validates, runs and validates the result,
// as the runner does.
func call(t testing.TB, tool *packs.Tool, named map[string]any) (any, error) {
	t.Helper()
	var args []packs.NamedArg
	for k, v := range named {
		args = append(args, packs.NamedArg{Name: k, Value: v})
	}
	return packs.Call(context.Background(), tool, nil, args)
}

func encode(t testing.TB, v any) string {
	t.Helper()
	data, err := ordered.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
