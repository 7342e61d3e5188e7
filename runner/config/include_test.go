package config

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestIncludeMerge(t *testing.T) {
	c, dir, err := loadYAML(t, `
include: [base.yaml, more.yaml]
limits:
  timeout: 5s
servers:
  gh:
    args: [mine]
    env: {B: top}
toolpacks: [top-packs]
`, map[string]string{
		"base.yaml": `
limits:
  timeout: 60s
  max_steps: 100
servers:
  gh:
    command: gh-server
    args: [base1, base2]
    env: {A: base, B: base}
  other: {url: "http://o/mcp"}
toolpacks: [base-packs]
aliases: {ws: web.search}
`,
		"more.yaml": `
limits:
  max_steps: 200
aliases: {wf: web.fetch}
`,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Mappings merge deeply; the including file wins; a later include wins
	// over an earlier one.
	if *c.Limits.Timeout != Duration(5*time.Second) || *c.Limits.MaxSteps != 200 {
		t.Errorf("limits: timeout %v, max_steps %v", *c.Limits.Timeout, *c.Limits.MaxSteps)
	}
	gh := c.Servers["gh"]
	if gh.Command != "gh-server" || !reflect.DeepEqual(gh.Env, map[string]string{"A": "base", "B": "top"}) {
		t.Errorf("gh = %+v", gh)
	}
	// Lists are replaced, not appended.
	if !reflect.DeepEqual(gh.Args, []string{"mine"}) || !reflect.DeepEqual(c.Toolpacks, []string{filepath.Join(dir, "top-packs")}) {
		t.Errorf("args %q, toolpacks %q", gh.Args, c.Toolpacks)
	}
	if c.Servers["other"] == nil || len(c.Aliases) != 2 {
		t.Errorf("sections only in includes are lost: %v %v", c.Servers, c.Aliases)
	}
	want := []string{filepath.Join(dir, "onetool.yaml"), filepath.Join(dir, "base.yaml"), filepath.Join(dir, "more.yaml")}
	if !reflect.DeepEqual(c.Files, want) {
		t.Errorf("Files = %q", c.Files)
	}
}

func TestIncludeNullDoesNotWipe(t *testing.T) {
	c, _, err := loadYAML(t, "include: [base.yaml]\nlimits:\n  # max_steps: 1\n", map[string]string{"base.yaml": "limits: {max_steps: 7}\n"}, nil)
	if err != nil || *c.Limits.MaxSteps != 7 {
		t.Fatalf("%v %v", c, err)
	}
}

func TestIncludePathsRelativeToTheirFile(t *testing.T) {
	c, dir, err := loadYAML(t, "include: [sub/inc.yaml]\n", map[string]string{
		"sub/inc.yaml":    "include: [deeper.yaml]\nprojects: {p: src}\n",
		"sub/deeper.yaml": "output: {stats_file: stats.jsonl}\n",
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Projects["p"] != filepath.Join(dir, "sub/src") || c.Output.StatsFile != filepath.Join(dir, "sub/stats.jsonl") {
		t.Errorf("project %q, stats %q", c.Projects["p"], c.Output.StatsFile)
	}
}

func TestIncludeWithVariablesAndTilde(t *testing.T) {
	c, _, err := loadYAML(t, "include: [\"${PROFILE}.yaml\", ~/shared.yaml]\n", map[string]string{
		"work.yaml":        "limits: {max_steps: 3}\n",
		"home/shared.yaml": "limits: {max_parallel: 2}\n",
	}, env{"PROFILE": "work"})
	if err != nil {
		t.Fatal(err)
	}
	if *c.Limits.MaxSteps != 3 || *c.Limits.MaxParallel != 2 {
		t.Errorf("limits %+v", c.Limits)
	}
}

// chainFiles makes f0.yaml … fN.yaml, each including the next.
func chainFiles(n int) map[string]string {
	files := map[string]string{}
	for i := 0; i < n; i++ {
		files[fmt.Sprintf("f%d.yaml", i)] = fmt.Sprintf("include: [f%d.yaml]\n", i+1)
	}
	files[fmt.Sprintf("f%d.yaml", n)] = "limits: {max_steps: 42}\n"
	return files
}

func TestIncludeDepth(t *testing.T) {
	// onetool.yaml → f1 … f5: five levels of include, the most allowed.
	files := chainFiles(5)
	c, _, err := loadYAML(t, files["f0.yaml"], files, nil)
	if err != nil || *c.Limits.MaxSteps != 42 {
		t.Fatalf("depth 5 must load: %v", err)
	}
	// f6 is one level too deep.
	files = chainFiles(6)
	_, _, err = loadYAML(t, files["f0.yaml"], files, nil)
	wantProblems(t, err, "f5.yaml:1: include[0]: includes nested more than 5 deep: onetool.yaml → f1.yaml → f2.yaml → f3.yaml → f4.yaml → f5.yaml → f6.yaml")
}

func TestIncludeCycle(t *testing.T) {
	_, _, err := loadYAML(t, "include: [a.yaml]\n", map[string]string{
		"a.yaml": "include: [b.yaml]\n",
		"b.yaml": "include: [a.yaml]\n",
	}, nil)
	wantProblems(t, err, "b.yaml:1: include[0]: include cycle: onetool.yaml → a.yaml → b.yaml → a.yaml")

	_, _, err = loadYAML(t, "include: [onetool.yaml]\n", nil, nil)
	wantProblems(t, err, "onetool.yaml:1: include[0]: include cycle: onetool.yaml → onetool.yaml")
}

func TestIncludeDiamondIsNotACycle(t *testing.T) {
	c, _, err := loadYAML(t, "include: [a.yaml, b.yaml]\n", map[string]string{
		"a.yaml":      "include: [common.yaml]\n",
		"b.yaml":      "include: [common.yaml]\n",
		"common.yaml": "limits: {max_steps: 9}\n",
	}, nil)
	if err != nil || *c.Limits.MaxSteps != 9 || len(c.Files) != 4 {
		t.Fatalf("%v %v", c, err)
	}
}

func TestErrorsInIncludedFileNameIt(t *testing.T) {
	_, _, err := loadYAML(t, "include: [inc/base.yaml]\nlimits: {max_parallel: 2}\n", map[string]string{
		"inc/base.yaml": "limits:\n  max_parallel: 1\n  max_stepz: 10\nservers:\n  x: {url: \"${NOPE}\"}\n",
	}, nil)
	wantProblems(t, err,
		"inc/base.yaml:3: limits.max_stepz: unknown key; did you mean 'max_steps'?",
		"inc/base.yaml:5: servers.x.url: variable ${NOPE} is not set: define it in secrets.yaml or the environment, or give a default: ${NOPE:-value}",
	)
	_, _, err = loadYAML(t, "include: [bad.yaml]\n", map[string]string{"bad.yaml": "limits: [\n"}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "bad.yaml:") {
		t.Errorf("syntax error in an include: %v", err)
	}
}

func TestIncludeProblems(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"include: [missing.yaml]\n", "onetool.yaml:1: include[0]: included file missing.yaml does not exist"},
		{"include: {a: b}\n", "onetool.yaml:1: include: want a list of files to include, got a mapping"},
		{"include: [[a]]\n", "onetool.yaml:1: include[0]: want a file path, got a list"},
		{"include: [\"${X}\"]\n", "onetool.yaml:1: include[0]: variable ${X} is not set: define it in secrets.yaml or the environment, or give a default: ${X:-value}"},
		{"include: [/dev/null]\n", "onetool.yaml:1: include[0]: cannot include /dev/null: not a regular file"},
		{"include: [home]\n", "onetool.yaml:1: include[0]: cannot include home: not a regular file"},
	}
	for _, tt := range tests {
		_, _, err := loadYAML(t, tt.yaml, nil, nil)
		wantProblems(t, err, tt.want)
	}
}
