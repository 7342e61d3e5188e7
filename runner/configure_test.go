package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/runner/config"
)

// loadConfig writes yaml as onetool.yaml in a temporary directory and
// loads it.
func loadConfig(t *testing.T, yaml string) *config.Config {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "onetool.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path, config.LoadOptions{WorkDir: dir, HomeDir: dir, LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestAliases(t *testing.T) {
	cfg := loadConfig(t, `
aliases:
  color: demo.foo
  c: color
  h: "ot:help"
`)
	r := newRunner(t, WithConfig(cfg))
	tests := []struct{ code, want string }{
		{`color(text="test")`, "orange"},
		{`c(text="test")`, "orange"},
		{`"color(text='x')"`, "color(text='x')"}, // strings are never rewritten
		{`struct(color=1).color`, "1"},           // attribute names are untouched
		{`color == demo.foo`, "True"},            // the same value
		{`d = {"c": 2}` + "\n" + `d["c"]`, "2"},
		{`ot.aliases()`, `{"c":"demo.foo","color":"demo.foo","h":"ot.help"}`},
		{`"alias of demo.foo" in ot.help(query="c")`, "True"},
		{`"demo.foo(text: str)" in ot.help(query="color")`, "True"},
		{`"alias c → demo.foo" in ot.help(query="c demo")`, "True"},
	}
	for _, tt := range tests {
		if res := r.Exec(context.Background(), tt.code); res.Text != tt.want {
			t.Errorf("%s = %q, want %q", tt.code, res.Text, tt.want)
		}
	}
}

func TestAliasErrors(t *testing.T) {
	for _, tt := range []struct{ yaml, want string }{
		{"aliases:\n  ws: web.search", "alias 'ws': target 'web.search' is not a tool"},
		{"aliases:\n  f: demo.fo", "alias 'f': target 'demo.fo' is not a tool; did you mean 'demo.foo'?"},
		{"aliases:\n  demo: demo.foo", "alias 'demo' has the name of a pack"},
		{"aliases:\n  json: demo.foo", "alias 'json' would hide the global 'json'"},
		{"aliases:\n  len: demo.foo", "alias 'len' would hide the global 'len'"},
	} {
		cfg := loadConfig(t, tt.yaml)
		_, err := New(WithConfig(cfg))
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %q", tt.yaml, err, tt.want)
		}
	}
}

func TestSnippetsInPipeline(t *testing.T) {
	cfg := loadConfig(t, `
snippets:
  colors:
    description: Colours of texts
    params:
      texts: {type: string}
      limit: {type: integer, default: 5}
    body: |
      [demo.foo(text=t) for t in {{ texts|split:","|starlark }}][:{{ limit }}]
`)
	r := newRunner(t, WithConfig(cfg))
	tests := []struct{ code, want string }{
		{"$colors texts=test,item1", `["orange","teal"]`},
		{"$colors texts=test,item1 limit=1", `["orange"]`},
		{"$colors\ntexts: test\nlimit: 1", `["orange"]`},
		{"```\n$colors texts=test\n```", `["orange"]`},
		{"$colors", "Error: snippet 'colors' requires parameter 'texts'"},
		{"$nope x=1", "Error: unknown snippet 'nope'. Available: colors"},
		{`[s["name"] for s in ot.snippets()]`, `["colors"]`},
		{`ot.help(query="$colors").startswith("$colors texts=")`, "True"},
	}
	for _, tt := range tests {
		if res := r.Exec(context.Background(), tt.code); res.Text != tt.want {
			t.Errorf("%q = %q, want %q", tt.code, res.Text, tt.want)
		}
	}
}

func TestConfigLimitsAndPacks(t *testing.T) {
	cfg := loadConfig(t, "limits:\n  max_steps: 500\n  timeout: 2s\n  max_tool_calls: 2\npacks:\n  demo:\n    enabled: false\n")
	l := ConfigLimits(cfg, DefaultLimits())
	if l.MaxSteps != 500 || l.Timeout != 2*time.Second || l.MaxToolCalls != 2 || l.MaxOutput != DefaultLimits().MaxOutput {
		t.Errorf("ConfigLimits = %+v", l)
	}
	r := newRunner(t, WithConfig(cfg))
	if res := r.Exec(context.Background(), "while True:\n    pass"); res.Text != "Error: step limit of 500 exceeded at line 1 (set limits.max_steps to raise it)" {
		t.Errorf("config step limit: %q", res.Text)
	}
	if res := r.Exec(context.Background(), "demo.foo(text='x')"); !strings.Contains(res.Text, "demo.foo: the demo pack is disabled in the configuration (onetool.yaml:6: packs.demo)") {
		t.Errorf("disabled demo pack: %q", res.Text)
	}
	if res := r.Exec(context.Background(), "dmo.foo(text='x')"); !strings.Contains(res.Text, "'dmo' is not defined. Available packs: db, file, ot, web") {
		t.Errorf("a name near the disabled pack: %q", res.Text)
	}
	// A later WithLimits (the command line) wins over the file.
	flags := l
	flags.MaxSteps = 0
	r = newRunner(t, WithConfig(cfg), WithLimits(flags))
	if res := r.Exec(context.Background(), "x = 0\nfor i in range(1000):\n    x += i\nx"); res.Text != "499500" {
		t.Errorf("flag override: %q", res.Text)
	}
	if _, err := New(WithConfig(loadConfig(t, "packs:\n  ot: {enabled: false}\n"))); !errors.Is(err, ErrConfig) {
		t.Errorf("disabling ot: %v", err)
	}
}

func TestProjectsAndRoots(t *testing.T) {
	dir := t.TempDir()
	api := filepath.Join(dir, "api")
	os.MkdirAll(api, 0o755)
	os.WriteFile(filepath.Join(api, "x.txt"), []byte("hello"), 0o644)
	cfg := loadConfig(t, "projects:\n  api: "+api+"\n")
	r := newRunner(t, WithConfig(cfg))
	if res := r.Exec(context.Background(), `(proj.api / "x.txt").read_text()`); res.Text != "hello" {
		t.Errorf("read_text: %q", res.Text)
	}
	if res := r.Exec(context.Background(), `(proj.api / ".." / "..").list()`); !strings.Contains(res.Text, "outside the allowed roots") {
		t.Errorf("escape: %q", res.Text)
	}
	if res := r.Exec(context.Background(), `proj.nope`); res.Text != "Error: line 1: unknown project 'nope'. Functions: list, path. Projects: api" {
		t.Errorf("unknown project: %q", res.Text)
	}
}

func TestOtConfigMasksSecrets(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secrets.yaml"), []byte("TOKEN: s3cr3t-value\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte("servers:\n  gh:\n    url: https://example.invalid/mcp\n    headers:\n      Authorization: Bearer ${TOKEN}\n"), 0o644)
	cfg, err := config.Load(filepath.Join(dir, "onetool.yaml"), config.LoadOptions{WorkDir: dir, HomeDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, WithConfig(cfg))
	res := r.Exec(context.Background(), "ot.config()")
	if strings.Contains(res.Text, "s3cr3t") || !strings.Contains(res.Text, "Bearer [secret:TOKEN]") {
		t.Errorf("ot.config() = %s", res.Text)
	}
}

func TestSecretsRedacted(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secrets.yaml"), []byte("TOKEN: s3cr3t-value\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte("projects:\n  p: ${TOKEN}\n"), 0o644)
	cfg, err := config.Load(filepath.Join(dir, "onetool.yaml"), config.LoadOptions{WorkDir: dir, HomeDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, WithConfig(cfg))
	for _, code := range []string{
		`"token is s3cr3t-value"`,
		`print("s3cr3t-value")`,
		`fail("bad s3cr3t-value")`,
		`demo.echo(value={"k": "s3cr3t-value"})`,
	} {
		res := r.Exec(context.Background(), code)
		if strings.Contains(res.Text, "s3cr3t") || !strings.Contains(res.Text, "[secret:TOKEN]") {
			t.Errorf("%s: %q", code, res.Text)
		}
	}
}

func TestConfigProblemsNameTheLine(t *testing.T) {
	cfg := loadConfig(t, "limits:\n  max_steps: 10\naliases:\n  ok: demo.foo\n  ws: demo.fooo\nsnippets:\n  s:\n    body: |\n      {% include \"/etc/passwd\" %}\n")
	_, err := New(WithConfig(cfg))
	if !errors.Is(err, ErrConfig) {
		t.Fatalf("error %v does not match ErrConfig", err)
	}
	for _, want := range []string{
		"onetool.yaml:5: aliases.ws: alias 'ws': target 'demo.fooo' is not a tool; did you mean 'demo.foo'?",
		"onetool.yaml:8: snippets.s.body: snippet 's': template error",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%s", want, err)
		}
	}
}
