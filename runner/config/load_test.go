package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestLoadEverySection decodes one file that sets every key.
func TestLoadEverySection(t *testing.T) {
	c, dir := mustLoad(t, `
version: 1
isolation: process
packs:
  file:
    enabled: true
    allowed_dirs: [~/docs, data, /abs/../abs/x]
    read_only: true
    backups: false
    max_file_size: 1MiB
    nested: {list: [1, 2.5, x, null, true], n: 0x10}
  web: false
  db: {enabled: false}
  demo:
toolpacks: [packs, ~/shared-packs]
servers:
  gh:
    url: https://api.example.com/mcp
    headers: {Authorization: Bearer abc}
    timeout: 10
    enabled: false
    tool_prefix: gh_
    description: GitHub
  files:
    command: node
    args: [server.js, --port, 8080]
    env: {PORT: 8080, DEBUG: "1"}
    cwd: work
    timeout: 1m30s
aliases:
  ws: web.search
  w: ws
  gi: "github:get_issue"
snippets:
  pkg:
    description: Latest versions of npm packages
    params:
      packages: {type: string, description: comma-separated names}
      limit: {type: integer, default: 5}
      ratio: {type: number, default: 1}
      verbose: {type: boolean, default: false}
      tag: {default: latest}
      maybe: {type: integer, default: null}
      plain:
    body: |
      [pkg.npm(name=n) for n in {{ packages|split:","|starlark }}][:{{ limit }}]
projects:
  api: ~/src/api
  here: .
  abs: /srv/app
limits:
  max_steps: 1_000_000
  timeout: 45s
  max_output: 512KiB
  max_tool_calls: 50
  max_parallel: 4
  max_memory: 1GiB
output:
  max_inline: 5000
  stats_file: stats/stats.jsonl
serve:
  session_state: true
  structured_content: true
  http: 127.0.0.1:8080
  stateless: true
  log_level: debug
security:
  confirm_destructive: true
`)
	home := filepath.Join(dir, "home")
	if c.Path != filepath.Join(dir, "onetool.yaml") || c.Dir != dir || c.Version != 1 || c.Isolation != "process" {
		t.Errorf("Path %q Dir %q Version %d Isolation %q", c.Path, c.Dir, c.Version, c.Isolation)
	}
	wantPacks := map[string]*Pack{
		"file": {
			Enabled:     ptr(true),
			AllowedDirs: []string{filepath.Join(home, "docs"), filepath.Join(dir, "data"), "/abs/x"},
			ReadOnly:    ptr(true),
			Backups:     ptr(false),
			Settings: map[string]any{
				"max_file_size": "1MiB",
				"nested":        map[string]any{"list": []any{int64(1), 2.5, "x", nil, true}, "n": int64(16)},
			},
		},
		"web":  {Enabled: ptr(false)},
		"db":   {Enabled: ptr(false)},
		"demo": {},
	}
	if !reflect.DeepEqual(c.Packs, wantPacks) {
		for k := range wantPacks {
			t.Errorf("packs.%s = %+v\nwant %+v", k, c.Packs[k], wantPacks[k])
		}
	}
	if c.PackEnabled("web") || c.PackEnabled("db") || !c.PackEnabled("file") || !c.PackEnabled("demo") || !c.PackEnabled("other") {
		t.Error("PackEnabled is wrong")
	}
	if want := []string{filepath.Join(dir, "packs"), filepath.Join(home, "shared-packs")}; !reflect.DeepEqual(c.Toolpacks, want) {
		t.Errorf("Toolpacks = %q, want %q", c.Toolpacks, want)
	}
	wantServers := map[string]*Server{
		"gh": {URL: "https://api.example.com/mcp", Headers: map[string]string{"Authorization": "Bearer abc"},
			Timeout: Duration(10 * time.Second), Enabled: ptr(false), ToolPrefix: "gh_", Description: "GitHub"},
		"files": {Command: "node", Args: []string{"server.js", "--port", "8080"},
			Env: map[string]string{"PORT": "8080", "DEBUG": "1"}, Cwd: filepath.Join(dir, "work"),
			Timeout: Duration(90 * time.Second)},
	}
	if !reflect.DeepEqual(c.Servers, wantServers) {
		for k := range wantServers {
			t.Errorf("servers.%s = %+v\nwant %+v", k, c.Servers[k], wantServers[k])
		}
	}
	if c.Servers["gh"].IsEnabled() || !c.Servers["files"].IsEnabled() || c.Servers["gh"].Transport() != "http" || c.Servers["files"].Transport() != "stdio" {
		t.Error("Server helpers are wrong")
	}
	if want := map[string]string{"ws": "web.search", "w": "ws", "gi": "github:get_issue"}; !reflect.DeepEqual(c.Aliases, want) {
		t.Errorf("Aliases = %v", c.Aliases)
	}
	wantSnippet := &Snippet{
		Description: "Latest versions of npm packages",
		Params: []SnippetParam{
			{Name: "packages", Type: "string", Description: "comma-separated names"},
			{Name: "limit", Type: "integer", Default: int64(5), HasDefault: true},
			{Name: "ratio", Type: "number", Default: 1.0, HasDefault: true},
			{Name: "verbose", Type: "boolean", Default: false, HasDefault: true},
			{Name: "tag", Type: "string", Default: "latest", HasDefault: true},
			{Name: "maybe", Type: "integer", Default: nil, HasDefault: true},
			{Name: "plain", Type: "string"},
		},
		Body: "[pkg.npm(name=n) for n in {{ packages|split:\",\"|starlark }}][:{{ limit }}]\n",
	}
	if !reflect.DeepEqual(c.Snippets["pkg"], wantSnippet) {
		t.Errorf("snippet = %#v\nwant %#v", c.Snippets["pkg"], wantSnippet)
	}
	if want := map[string]string{"api": filepath.Join(home, "src/api"), "here": dir, "abs": "/srv/app"}; !reflect.DeepEqual(c.Projects, want) {
		t.Errorf("Projects = %v, want %v", c.Projects, want)
	}
	wantLimits := Limits{
		MaxSteps: ptr(uint64(1_000_000)), Timeout: ptr(Duration(45 * time.Second)), MaxOutput: ptr(ByteSize(512 << 10)),
		MaxToolCalls: ptr(50), MaxParallel: ptr(4), MaxMemory: ptr(ByteSize(1 << 30)),
	}
	if !reflect.DeepEqual(c.Limits, wantLimits) {
		t.Errorf("Limits = %+v", c.Limits)
	}
	if want := (Output{MaxInline: ptr(5000), StatsFile: filepath.Join(dir, "stats/stats.jsonl")}); !reflect.DeepEqual(c.Output, want) {
		t.Errorf("Output = %+v", c.Output)
	}
	if want := (Serve{SessionState: true, StructuredContent: true, HTTP: "127.0.0.1:8080", Stateless: true, LogLevel: "debug"}); c.Serve != want {
		t.Errorf("Serve = %+v", c.Serve)
	}
	if !c.Security.ConfirmDestructive {
		t.Error("Security.ConfirmDestructive not set")
	}
	if !reflect.DeepEqual(c.Files, []string{c.Path}) {
		t.Errorf("Files = %q", c.Files)
	}
}

func TestLoadEmptyFiles(t *testing.T) {
	for _, text := range []string{"", "{}", "# only a comment\n", "---\n", "limits:\n  # max_steps: 5\n", "packs: {}\nservers: ~\n"} {
		c, _ := mustLoad(t, text)
		if c.Limits.MaxSteps != nil || len(c.Servers) != 0 || c.Packs == nil {
			t.Errorf("%q: want an empty config, got %+v", text, c)
		}
	}
}

func TestToolpacksBesideConfig(t *testing.T) {
	dir, o := testDir(t, map[string]string{
		"onetool.yaml":        "toolpacks: [extra]\n",
		"toolpacks/x.yaml":    "id: x.y\n",
		"extra/readme.txt":    "",
		"other/onetool.yaml":  "toolpacks: [../toolpacks]\n",
		"empty/onetool.yaml":  "{}\n",
		"empty/toolpacks.txt": "a file, not a directory\n",
	}, nil)
	c, err := Load(filepath.Join(dir, "onetool.yaml"), o)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, "extra"), filepath.Join(dir, "toolpacks")}; !reflect.DeepEqual(c.Toolpacks, want) {
		t.Errorf("Toolpacks = %q, want %q", c.Toolpacks, want)
	}
	c, err = Load(filepath.Join(dir, "empty", "onetool.yaml"), o)
	if err != nil || len(c.Toolpacks) != 0 {
		t.Errorf("no toolpacks/ directory: Toolpacks = %q, %v", c.Toolpacks, err)
	}
	// Reloading a list that already names toolpacks/ adds it once.
	if err := os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte("toolpacks: [toolpacks]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = Load(filepath.Join(dir, "onetool.yaml"), o)
	if err != nil || len(c.Toolpacks) != 1 {
		t.Errorf("Toolpacks = %q, %v", c.Toolpacks, err)
	}
}

func TestLoadRelativePathAndTilde(t *testing.T) {
	dir, o := testDir(t, map[string]string{"cfg/onetool.yaml": "projects: {p: src}\n", "home/.onetool/onetool.yaml": "{}\n"}, nil)
	c, err := Load("cfg/onetool.yaml", o)
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != filepath.Join(dir, "cfg/onetool.yaml") || c.Projects["p"] != filepath.Join(dir, "cfg/src") {
		t.Errorf("Path %q, project %q", c.Path, c.Projects["p"])
	}
	if c, err = Load("~/.onetool/onetool.yaml", o); err != nil || c.Dir != filepath.Join(dir, "home/.onetool") {
		t.Errorf("tilde: %v %v", c, err)
	}
}

func TestDurationsAndSizesInYAML(t *testing.T) {
	tests := []struct {
		yaml    string
		timeout time.Duration
		size    ByteSize
	}{
		{"timeout: 30\nmax_output: 1048576", 30 * time.Second, 1 << 20},
		{"timeout: 1.5\nmax_output: 1.5MB", 1500 * time.Millisecond, 1_500_000},
		{"timeout: 1m30s\nmax_output: 100B", 90 * time.Second, 100},
		{"timeout: '250ms'\nmax_output: 512 KiB", 250 * time.Millisecond, 512 << 10},
		{"timeout: 2h\nmax_output: 1e6", 2 * time.Hour, 1_000_000},
	}
	for _, tt := range tests {
		c, _ := mustLoad(t, "limits:\n  "+indent(tt.yaml)+"\n")
		if time.Duration(*c.Limits.Timeout) != tt.timeout || *c.Limits.MaxOutput != tt.size {
			t.Errorf("%q: timeout %v, size %v", tt.yaml, *c.Limits.Timeout, *c.Limits.MaxOutput)
		}
	}
}

func indent(s string) string {
	out := []byte{}
	for i := 0; i < len(s); i++ {
		out = append(out, s[i])
		if s[i] == '\n' {
			out = append(out, ' ', ' ')
		}
	}
	return string(out)
}

func TestYAMLAnchorsAndMergeKeys(t *testing.T) {
	c, _ := mustLoad(t, `
x-common: &common
  timeout: 20s
  env: {LOG: debug}
servers:
  a:
    <<: *common
    command: a
  b:
    <<: *common
    command: b
    timeout: 5s
x-unused: ${NOT_SET_ANYWHERE}
`)
	a, b := c.Servers["a"], c.Servers["b"]
	if a.Command != "a" || a.Timeout != Duration(20*time.Second) || a.Env["LOG"] != "debug" {
		t.Errorf("a = %+v", a)
	}
	if b.Command != "b" || b.Timeout != Duration(5*time.Second) || b.Env["LOG"] != "debug" {
		t.Errorf("b = %+v: explicit keys must win over merged ones", b)
	}
}
