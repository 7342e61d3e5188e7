package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// full sets every key, with awkward strings where they can hurt: things
// that look like numbers, ${ that must stay literal, multi-line text.
const full = `
version: 1
isolation: process
packs:
  file:
    allowed_dirs: [data]
    read_only: true
    backups: false
    limit: 5
    ratio: 5.0
    inf: .inf
    names: ["007", "true", "$${not_a_var}", null]
    deep: {a: {b: [1, {c: d}]}, empty: {}}
  web: false
  demo:
toolpacks: [packs]
servers:
  gh:
    url: https://api.example.com/mcp
    headers: {Authorization: "Bearer ${GH_TOKEN}", X-Plain: "yes"}
    timeout: 90
    enabled: false
    tool_prefix: gh_
    description: "GitHub: issues, PRs; cost $${x}"
  local:
    command: node
    args: [server.js, "--port", 8080, "1.0", "@scope/pkg"]
    env: {PORT: "8080", EMPTY: ""}
    cwd: work
aliases: {ws: web.search, w: ws}
snippets:
  pkg:
    description: Latest versions
    params:
      packages: {type: string, description: "names, comma-separated"}
      limit: {type: integer, default: 5}
      ratio: {type: number, default: 2}
      on: {type: boolean, default: true}
      tag: {default: "123"}
      none: {type: integer, default: null}
    body: |
      [pkg.npm(name=n) for n in {{ packages|split:"," }}][:{{ limit }}]
      # ${kept} as written
  one-line:
    body: "x"
projects: {api: ~/src/api, here: .}
limits: {max_steps: 1000, timeout: 1m30s, max_output: 1.5MB, max_tool_calls: 10, max_parallel: 2, max_memory: 256MiB}
output: {max_inline: 100, stats_file: stats.jsonl}
serve: {session_state: true, structured_content: true, http: ":8080", stateless: true, log_level: warn, drain_timeout: 45s, rate_limit: {runs_per_minute: 120, concurrent: 8}}
security: {confirm_destructive: true}
`

// withoutComments drops comment lines, which name the file loaded.
func withoutComments(b []byte) string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") || strings.HasPrefix(l, " ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func TestEffectiveRoundTrip(t *testing.T) {
	c, dir, err := loadYAML(t, full, map[string]string{"secrets.yaml": "GH_TOKEN: ghp_0123456789\n"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	eff := c.Effective()
	if strings.Contains(string(eff), "ghp_0123456789") {
		t.Fatalf("secret in Effective:\n%s", eff)
	}
	if !strings.Contains(string(eff), "Authorization: Bearer [secret:GH_TOKEN]") {
		t.Errorf("the header must show [secret:GH_TOKEN]:\n%s", eff)
	}
	if !strings.Contains(string(eff), "# Secrets (values hidden) from "+filepath.Join(dir, "secrets.yaml")+": GH_TOKEN") {
		t.Errorf("secret names are listed in a comment:\n%s", eff)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(eff, &doc); err != nil {
		t.Fatalf("not valid YAML: %v\n%s", err, eff)
	}

	// Load it again, from elsewhere and without secrets: every value is the
	// same except the masked one.
	other := t.TempDir()
	p := filepath.Join(other, "effective.yaml")
	if err := os.WriteFile(p, eff, 0o644); err != nil {
		t.Fatal(err)
	}
	c2, err := Load(p, LoadOptions{HomeDir: filepath.Join(dir, "home"), WorkDir: other, LookupEnv: env{}.lookup})
	if err != nil {
		t.Fatalf("Load(Effective()): %v\n%s", err, eff)
	}
	if got := withoutComments(c2.Effective()); got != withoutComments(eff) {
		t.Errorf("second Effective differs:\n%s\nfirst:\n%s", got, withoutComments(eff))
	}
	c2.Servers["gh"].Headers["Authorization"] = "Bearer ghp_0123456789"
	for _, pair := range [][2]any{
		{c.Packs, c2.Packs}, {c.Toolpacks, c2.Toolpacks}, {c.Servers, c2.Servers}, {c.Aliases, c2.Aliases},
		{c.Snippets, c2.Snippets}, {c.Projects, c2.Projects}, {c.Limits, c2.Limits}, {c.Output, c2.Output},
		{c.Serve, c2.Serve}, {c.Security, c2.Security}, {c.Isolation, c2.Isolation}, {c.Version, c2.Version},
	} {
		if !reflect.DeepEqual(pair[0], pair[1]) {
			t.Errorf("round trip changed a value:\n%#v\n%#v", pair[0], pair[1])
		}
	}
}

func TestEffectiveShape(t *testing.T) {
	c, dir, err := loadYAML(t, "include: [base.yaml]\nservers:\n  b: {command: b}\n  a: {url: \"http://a/mcp\"}\nlimits: {timeout: 30}\n",
		map[string]string{"base.yaml": "limits: {max_memory: 1073741824}\n"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `# Effective configuration of ` + filepath.Join(dir, "onetool.yaml") + `, with:
#   ` + filepath.Join(dir, "base.yaml") + `
servers:
  a:
    url: http://a/mcp
  b:
    command: b
limits:
  timeout: 30s
  max_memory: 1GiB
`
	if got := string(c.Effective()); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestEffectiveRedactsLiteralSecrets(t *testing.T) {
	c, _, err := loadYAML(t, "servers:\n  x:\n    command: run --token=literal-secret\n",
		map[string]string{"secrets.yaml": "T: literal-secret\n"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if eff := string(c.Effective()); strings.Contains(eff, "literal-secret") || !strings.Contains(eff, "--token=[secret:T]") {
		t.Errorf("Effective:\n%s", eff)
	}
}

func TestEffectiveOfDefaults(t *testing.T) {
	if got := string(Default().Effective()); got != "# No config file: built-in defaults.\n{}\n" {
		t.Errorf("got %q", got)
	}
	var nilConfig *Config
	if len(nilConfig.Effective()) == 0 || !nilConfig.PackEnabled("x") {
		t.Error("nil Config")
	}
}

// TestEffectiveAwkwardStrings: strings YAML finds hard to write read back
// unchanged.
func TestEffectiveAwkwardStrings(t *testing.T) {
	values := []string{
		"a\n", "a\nb", " lead\nx", "trail \nx", "x\n\n", "\n", "\n\n", "a\r\nb", "tab\tx\ny", "\u2028\nx",
		"x\n ", "  \n", "# not a comment\n", "- item\n", "key: value\n", "'quoted'\n", "\"dq\"\n", "---\n...", "\ufeffbom\n",
		"true", "null", "~", "0x10", "1e3", "<<", "*x", "&a", "!tag", "@at", "`tick", "%pct", "[a]", "{a}", ": x", "? x", "- x",
		"${x}", "$${x}", "$", "a: b", "a #b", "", " ", "é\n", "\x7f", "\u0085x\nx",
	}
	var b strings.Builder
	b.WriteString("packs:\n  p:\n")
	for i, v := range values {
		b.WriteString("    k" + strings.Repeat("x", i) + ": " + strconvQuote(escapeDollar(v)) + "\n")
	}
	c, _ := mustLoad(t, b.String())
	for i, v := range values {
		if got := c.Packs["p"].Settings["k"+strings.Repeat("x", i)]; got != v {
			t.Fatalf("%q loaded as %q", v, got)
		}
	}
	eff := c.Effective()
	p := filepath.Join(t.TempDir(), "onetool.yaml")
	if err := os.WriteFile(p, eff, 0o644); err != nil {
		t.Fatal(err)
	}
	c2, err := Load(p, LoadOptions{WorkDir: "/", HomeDir: "/h", LookupEnv: env{}.lookup})
	if err != nil {
		t.Fatalf("%v\n%s", err, eff)
	}
	for i, v := range values {
		if got := c2.Packs["p"].Settings["k"+strings.Repeat("x", i)]; got != v {
			t.Errorf("%q read back as %q from:\n%s", v, got, eff)
		}
	}
}

// strconvQuote writes s as a YAML double-quoted string, escaping every
// character YAML does not allow raw.
func strconvQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString("\\" + string(r))
		case r < 0x20 || r >= 0x7f && r <= 0x9f || r == 0x2028 || r == 0x2029 || r == 0xfeff:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// The store setting is shown with any password hidden, whether it was
// written in the file or came from secrets.yaml.
func TestEffectiveStoreHidesPassword(t *testing.T) {
	for yaml, want := range map[string]string{
		"store: redis://:hunter2@redis:6379/1\n":           "store: redis://:xxxxx@redis:6379/1\n",
		"store: redis://:${REDIS_PASSWORD}@redis:6379/1\n": "store: redis://:[secret:REDIS_PASSWORD]@redis:6379/1\n",
		"store: memory\n":                 "store: memory\n",
		"store: redis://redis.internal\n": "store: redis://redis.internal\n",
	} {
		c, _, err := loadYAML(t, yaml, map[string]string{"secrets.yaml": "REDIS_PASSWORD: s3cr3t-pw\n"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		eff := string(c.Effective())
		if strings.Contains(eff, "hunter2") || strings.Contains(eff, "s3cr3t-pw") {
			t.Errorf("%s: the password is shown:\n%s", yaml, eff)
		}
		if !strings.Contains(eff, want) {
			t.Errorf("%s: want %q in\n%s", yaml, want, eff)
		}
	}
}
