package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/toolpack"
	"github.com/onetool-dev/onetool/runner/config"
)

// toolpackDir writes files into a directory and returns a config that
// loads it as toolpacks.
func toolpackConfig(t *testing.T, files map[string]string) *config.Config {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := config.Load(filepath.Join(dir, writeFile(t, dir, "onetool.yaml", "toolpacks: [.]\n")), config.LoadOptions{WorkDir: dir, HomeDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

func TestExampleToolpacks(t *testing.T) {
	cfg, err := config.Load("../examples/toolpacks/onetool.yaml", config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, WithConfig(cfg))
	tests := []struct{ code, want string }{
		{`text.slugify(title="Hello World")`, `{"slug":"hello-world"}`},
		{`text.slugify(title="Don't panic, 42 tips")["slug"]`, "dont-panic-42-tips"},
		{`text.json_size(value={"a": [1, 2]})`, `{"bytes":11}`},
		{`"text.slugify(title: str)" in ot.help(query="text.slugify")`, "True"},
	}
	for _, tt := range tests {
		if res := r.Exec(context.Background(), tt.code); res.Text != tt.want {
			t.Errorf("%s = %q, want %q", tt.code, res.Text, tt.want)
		}
	}
	res, err := r.Run(context.Background(), "text.slugify", map[string]any{"title": "Go API"})
	if err != nil || !strings.HasPrefix(res.Backend, "starlark:") || !strings.HasSuffix(res.Backend, "slugify.star:slugify") {
		t.Errorf("Run = %+v, %v", res, err)
	}
}

func TestStarlarkToolpack(t *testing.T) {
	cfg := toolpackConfig(t, map[string]string{
		"calc.yaml": `
id: calc.half
description: Half of n, failing on odd numbers.
deterministic: true
input_schema: {type: object, properties: {n: {type: integer}}, required: [n]}
output_schema: {type: integer}
execution: {kind: starlark, module: "calc.star:half"}
`,
		"calc.star": `
def half(n):
    if n % 2:
        fail("odd: %d" % n)
    return n // 2 + demo.add(a=0, b=0)
`,
	})
	r := newRunner(t, WithConfig(cfg))
	if res := r.Exec(context.Background(), "calc.half(n=8)"); res.Text != "4" {
		t.Errorf("calc.half(n=8) = %q", res.Text)
	}
	res := r.Exec(context.Background(), "x = 1\ncalc.half(n=3)")
	if res.Text != "Error: line 2: calc.half failed: calc.star: line 4: fail: odd: 3 (in half)" {
		t.Errorf("error = %q", res.Text)
	}
}

func TestGoToolpackAndCache(t *testing.T) {
	var calls atomic.Int64
	cfg := toolpackConfig(t, map[string]string{
		"upper.yaml": `
id: text.upper
description: Upper-case text.
deterministic: true
input_schema: {type: object, properties: {text: {type: string}}, required: [text]}
output_schema: {type: string}
execution: {kind: go, module: "strings:Upper"}
`,
		"lying.yaml": `
id: text.lying
description: Claims to return a string.
input_schema: {type: object, properties: {}}
output_schema: {type: string}
execution: {kind: go, module: "strings:Number"}
`,
	})
	r := newRunner(t, WithConfig(cfg), WithGoHandlers(map[string]packs.Handler{
		"strings:Upper": func(_ context.Context, a map[string]any) (any, error) {
			calls.Add(1)
			return strings.ToUpper(a["text"].(string)), nil
		},
		"strings:Number": func(context.Context, map[string]any) (any, error) { return 42, nil },
	}))
	for range 3 {
		if res := r.Exec(context.Background(), `text.upper(text="abc")`); res.Text != "ABC" {
			t.Fatalf("text.upper = %q", res.Text)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("a deterministic toolpack ran %d times for the same arguments, want 1", n)
	}
	_, err := r.Run(context.Background(), "text.lying", nil)
	if !errors.Is(err, ErrOutputValidation) {
		t.Errorf("output against its schema: %v", err)
	}
	res := r.Exec(context.Background(), "text.lying()")
	if !strings.Contains(res.Text, "invalid result") {
		t.Errorf("program sees %q", res.Text)
	}
}

func TestToolpackLoadErrors(t *testing.T) {
	cfg := toolpackConfig(t, map[string]string{
		"bad.yaml": "id: x.y\ndescription: d\nexecution: {kind: go, module: nocolon}\n",
	})
	_, err := New(WithConfig(cfg))
	if !errors.Is(err, toolpack.ErrInvalidToolpack) || !strings.Contains(err.Error(), "execution.module") {
		t.Errorf("error = %v", err)
	}
}
