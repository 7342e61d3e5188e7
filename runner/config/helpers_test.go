package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// env is an injected environment.
type env map[string]string

func (e env) lookup(k string) (string, bool) { v, ok := e[k]; return v, ok }

// testDir makes a directory holding files (name → content; names may hold
// slashes) and returns it with options that read nothing from the real
// process: home is dir/home, the working directory is dir.
func testDir(t *testing.T, files map[string]string, e env) (string, LoadOptions) {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, files)
	if err := os.MkdirAll(filepath.Join(dir, "home"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, LoadOptions{HomeDir: filepath.Join(dir, "home"), WorkDir: dir, LookupEnv: e.lookup}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// loadYAML loads text as dir/onetool.yaml, with other files beside it.
func loadYAML(t *testing.T, text string, others map[string]string, e env) (*Config, string, error) {
	t.Helper()
	files := map[string]string{"onetool.yaml": text}
	for k, v := range others {
		files[k] = v
	}
	dir, o := testDir(t, files, e)
	c, err := Load(filepath.Join(dir, "onetool.yaml"), o)
	return c, dir, err
}

func mustLoad(t *testing.T, text string) (*Config, string) {
	t.Helper()
	c, dir, err := loadYAML(t, text, nil, nil)
	if err != nil {
		t.Fatalf("Load:\n%v\nfile:\n%s", err, text)
	}
	return c, dir
}

// problems splits a load error into its *Error lines.
func problems(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var out []string
	var joined interface{ Unwrap() []error }
	if errors.As(err, &joined) {
		for _, e := range joined.Unwrap() {
			var ce *Error
			if !errors.As(e, &ce) {
				t.Errorf("not a *config.Error: %T %v", e, e)
			}
			out = append(out, e.Error())
		}
		return out
	}
	return []string{err.Error()}
}

// wantProblems checks that err holds every line of want exactly.
func wantProblems(t *testing.T, err error, want ...string) {
	t.Helper()
	got := problems(t, err)
	if len(got) == 0 {
		t.Fatalf("no error; want %q", want)
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("missing problem\n  want: %s\n  got:\n    %s", w, strings.Join(got, "\n    "))
		}
	}
}

func ptr[T any](v T) *T { return &v }
