package toolpack

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/packs"
)

// TestKindsLoadAndRun loads one toolpack of each kind and calls it.
func TestKindsLoadAndRun(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		args   map[string]any
		want   string // the result as JSON
		wantBE packs.Backend
	}{
		{
			name: "starlark",
			files: map[string]string{
				"slugify.yaml": `id: text.slugify
description: Turn a title into a URL slug.
input_schema: {type: object, properties: {title: {type: string}}, required: [title]}
execution: {kind: starlark, module: "slugify.star:slugify"}
`,
				"slugify.star": "def slugify(title):\n    return {\"slug\": title}\n",
			},
			args:   map[string]any{"title": "Hello"},
			want:   `{"file":"slugify.star","function":"slugify","args":{"title":"Hello"}}`,
			wantBE: packs.Backend{Kind: packs.BackendLocal, Name: "starlark:slugify.star:slugify"},
		},
		{
			name: "starlark below the directory",
			files: map[string]string{
				"t.yaml":          "id: text.t\ndescription: d\nexecution: {kind: starlark, module: \"lib/t.star:run\"}\n",
				"lib/t.star":      "def run():\n    return 1\n",
				"lib/ignored.yml": "not: loaded\n",
			},
			want:   `{"file":"t.star","function":"run","args":{}}`,
			wantBE: packs.Backend{Kind: packs.BackendLocal, Name: "starlark:lib/t.star:run"},
		},
		{
			name: "go",
			files: map[string]string{
				"upper.yaml": `id: text.upper
description: Upper-case a text.
input_schema:
  type: object
  properties:
    text: {type: string}
  required: [text]
execution:
  kind: go
  module: text:upper
`,
			},
			args:   map[string]any{"text": "abc"},
			want:   `"ABC"`,
			wantBE: packs.Backend{Kind: packs.BackendLocal, Name: "go:text:upper"},
		},
		{
			name: "command",
			files: map[string]string{
				"echo.yaml": `id: sys.echo
description: Return the arguments.
input_schema: {type: object, properties: {b: {type: integer}, a: {type: string}}}
execution: {kind: command, command: [./echo.sh]}
`,
				"echo.sh": "#!/bin/sh\nexec cat\n",
			},
			args:   map[string]any{"a": "x", "b": int64(2)},
			want:   `{"a":"x","b":2}`,
			wantBE: packs.Backend{Kind: packs.BackendProvider, Name: "command:./echo.sh"},
		},
		{
			name: "mcp",
			files: map[string]string{
				"issues.yaml": "id: gh.issues\ndescription: Search issues.\nexecution: {kind: mcp, server: github, tool: search_issues}\n",
			},
			want:   `"github/search_issues"`,
			wantBE: packs.Backend{Kind: packs.BackendMCP, Name: "mcp:github/search_issues"},
		},
		{
			name: "json file",
			files: map[string]string{
				"upper.json": `{
	"id": "text.upper",
	"description": "Upper-case a text \ud83d\ude00 \/",
	"input_schema": {"type": "object", "properties": {"text": {"type": "string"}}},
	"execution": {"kind": "go", "module": "text:upper"}
}`,
			},
			args:   map[string]any{"text": "abc"},
			want:   `"ABC"`,
			wantBE: packs.Backend{Kind: packs.BackendLocal, Name: "go:text:upper"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.HasPrefix(tt.name, "command") {
				skipWithoutSh(t)
			}
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			tools, err := LoadDirs([]string{dir}, testExecutors())
			if err != nil {
				t.Fatal(err)
			}
			if len(tools) != 1 {
				t.Fatalf("got %d tools, want 1", len(tools))
			}
			tool := tools[0]
			b := tool.BackendList()[0]
			if b.Kind != tt.wantBE.Kind || b.Name != tt.wantBE.Name {
				t.Errorf("backend = %s %s, want %s %s", b.Kind, b.Name, tt.wantBE.Kind, tt.wantBE.Name)
			}
			got, err := call(t, tool, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if s := encode(t, got); s != tt.want {
				t.Errorf("result = %s, want %s", s, tt.want)
			}
		})
	}
}

// TestFields checks that every field reaches the tool.
func TestFields(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"full.yaml": `
id: text.search
version: 1.10
description: Search texts.
deterministic: true
input_schema:
  type: object
  properties:
    query: {type: string, description: What to find.}
    max_results: {type: integer, default: 10, maximum: 1e2}
    exact: {type: boolean, default: false}
  required: [query]
output_schema: {type: array, items: {type: string}}
examples:
  - text.search(query="x")
  - code: text.search(query="y", max_results=1)
    description: One result
    result: ["y"]
annotations: {read_only: true, open_world: true}
timeout: 1.5
synonyms:
  max_results: [count, limit]
returns: list[str]
execution: {kind: go, module: "text:search"}
`})
	tools, err := LoadFile(filepath.Join(dir, "full.yaml"), testExecutors())
	if err != nil {
		t.Fatal(err)
	}
	tool := tools[0]
	if tool.Pack != "text" || tool.Name != "search" || tool.Version != "1.10" || !tool.Deterministic {
		t.Errorf("pack %q name %q version %q deterministic %v", tool.Pack, tool.Name, tool.Version, tool.Deterministic)
	}
	if tool.Timeout != 1500*time.Millisecond {
		t.Errorf("timeout = %v", tool.Timeout)
	}
	if tool.Annotations != (packs.Annotations{ReadOnly: true, OpenWorld: true}) {
		t.Errorf("annotations = %+v", tool.Annotations)
	}
	wantEx := []packs.Example{{Code: `text.search(query="x")`},
		{Code: `text.search(query="y", max_results=1)`, Description: "One result", Result: `["y"]`}}
	if !slices.Equal(tool.Examples, wantEx) {
		t.Errorf("examples = %+v", tool.Examples)
	}
	// Parameters keep the order of properties; 1e2 is written as JSON.
	const wantSchema = `{"type":"object","properties":{"query":{"type":"string","description":"What to find."},"max_results":{"type":"integer","default":10,"maximum":1e2},"exact":{"type":"boolean","default":false}},"required":["query"]}`
	if tool.InputSchema != wantSchema {
		t.Errorf("input schema =\n%s\nwant\n%s", tool.InputSchema, wantSchema)
	}
	const wantSig = "text.search(query: str, max_results: int = 10, exact: bool = False) -> list[str]"
	if got := tool.Signature(); got != wantSig {
		t.Errorf("signature = %s, want %s", got, wantSig)
	}
	if got := tool.Params()[1].Synonyms; !slices.Equal(got, []string{"count", "limit"}) {
		t.Errorf("synonyms = %v", got)
	}
	// A synonym binds.
	if _, err := packs.Call(context.Background(), tool, nil, []packs.NamedArg{{Name: "query", Value: "a"}, {Name: "count", Value: int64(2)}}); err != nil {
		t.Error(err)
	}
}

func TestDefaults(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"min.yaml": "id: a.b\ndescription: d\nexecution: {kind: go, module: \"text:upper\"}\n"})
	tools, err := LoadFile(filepath.Join(dir, "min.yaml"), testExecutors())
	if err != nil {
		t.Fatal(err)
	}
	tool := tools[0]
	if tool.Version != "" || tool.EffectiveVersion() != "1" || tool.InputSchema != "" || tool.Signature() != "a.b() -> any" {
		t.Errorf("version %q input %q signature %q", tool.Version, tool.InputSchema, tool.Signature())
	}
}

// TestListAndOrder: a file may hold a list; files load in name order,
// directories in the order given; hidden files, other extensions,
// subdirectories and onetool's own files are skipped.
func TestListAndOrder(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	tp := func(id string) string {
		return "id: " + id + "\ndescription: d\nexecution: {kind: go, module: \"text:upper\"}\n"
	}
	writeFiles(t, a, map[string]string{
		"2.yml":         tp("p.second"),
		"1.yaml":        "- " + strings.ReplaceAll(tp("p.first_a"), "\n", "\n  ") + "\n- " + strings.ReplaceAll(tp("p.first_b"), "\n", "\n  "),
		"3.JSON":        `{"id": "p.third", "description": "d", "execution": {"kind": "go", "module": "text:upper"}}`,
		".hidden.yaml":  "broken: [",
		"notes.txt":     "broken: [",
		"sub/x.yaml":    "broken: [",
		"onetool.yaml":  "toolpacks: [.]\n",
		"secrets.yaml":  "TOKEN: x\n",
		"onetool.yml":   "toolpacks: [.]\n",
		"dir.yaml/x.md": "a directory named like a toolpack",
	})
	writeFiles(t, b, map[string]string{"0.yaml": tp("q.zero")})
	tools, err := LoadDirs([]string{a, b, a}, testExecutors())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, tool := range tools {
		ids = append(ids, tool.ID())
	}
	if want := []string{"p.first_a", "p.first_b", "p.second", "p.third", "q.zero"}; !slices.Equal(ids, want) {
		t.Errorf("ids = %v, want %v", ids, want)
	}
}

// TestRefusals: each problem is found at load time, with its exact text.
func TestRefusals(t *testing.T) {
	const ok = "description: d\nexecution: {kind: go, module: \"text:upper\"}\n"
	tests := []struct {
		name  string
		files map[string]string
		ex    func(*Executors)
		want  []string
	}{
		{"duplicate id across files",
			map[string]string{"a.yaml": "id: t.x\n" + ok, "b.yaml": "id: t.x\n" + ok},
			nil,
			[]string{`b.yaml:1: id: duplicate id "t.x": already defined at a.yaml:1`}},
		{"duplicate id within a list",
			map[string]string{"a.yaml": "- {id: t.x, description: d, execution: {kind: go, module: \"text:upper\"}}\n- {id: t.x, description: d, execution: {kind: go, module: \"text:upper\"}}\n"},
			nil,
			[]string{`a.yaml:2: [1].id: duplicate id "t.x": already defined at a.yaml:1`}},
		{"bad starlark module",
			map[string]string{"slugify.yaml": "id: text.slugify\ndescription: d\nexecution:\n  kind: starlark\n  module: slugify.star\n", "slugify.star": "def slugify(): pass\n"},
			nil,
			[]string{`slugify.yaml:5: execution.module: want "file.star:function", got "slugify.star"`}},
		{"starlark function not a name",
			map[string]string{"s.yaml": "id: t.s\ndescription: d\nexecution: {kind: starlark, module: \"s.star:my-fn\"}\n"},
			nil,
			[]string{`s.yaml:3: execution.module: want "file.star:function", got "s.star:my-fn": "my-fn" is not a function name`}},
		{"bad go module",
			map[string]string{"u.yaml": "id: text.upper\ndescription: d\nexecution: {kind: go, module: upper}\n"},
			nil,
			[]string{`u.yaml:3: execution.module: want "pkg:Callable", got "upper"`}},
		{"unknown kind",
			map[string]string{"p.yaml": "id: t.p\ndescription: d\nexecution: {kind: python, module: \"x:y\"}\n"},
			nil,
			[]string{`p.yaml:3: execution.kind: unknown kind "python" (kinds: starlark, go, command, mcp)`}},
		{"misspelt kind",
			map[string]string{"p.yaml": "id: t.p\ndescription: d\nexecution: {kind: comand, command: [ls]}\n"},
			nil,
			[]string{`p.yaml:3: execution.kind: unknown kind "comand"; did you mean "command"? (kinds: starlark, go, command, mcp)`}},
		{"schema that does not compile",
			map[string]string{"s.yaml": "id: t.s\ndescription: d\ninput_schema:\n  type: object\n  properties:\n    n: {type: integr}\nexecution: {kind: go, module: \"text:upper\"}\n"},
			nil,
			[]string{`s.yaml:4: input_schema: /properties/n/type: unknown type "integr" (want one of string, integer, number, boolean, null, array, object)`}},
		{"input schema not an object",
			map[string]string{"s.yaml": "id: t.s\ndescription: d\ninput_schema: {type: string}\nexecution: {kind: go, module: \"text:upper\"}\n"},
			nil,
			[]string{`s.yaml:3: input_schema: the root must have type "object", not "string"`}},
		{"unresolved $ref",
			map[string]string{"s.yaml": "id: t.s\ndescription: d\noutput_schema: {$ref: \"#/$defs/missing\"}\nexecution: {kind: go, module: \"text:upper\"}\n"},
			nil,
			[]string{`s.yaml:3: output_schema: unresolved $ref "#/$defs/missing"`}},
		{"remote $ref",
			map[string]string{"s.yaml": "id: t.s\ndescription: d\ninput_schema:\n  type: object\n  properties:\n    x: {$ref: \"https://example.com/x.json\"}\nexecution: {kind: go, module: \"text:upper\"}\n"},
			nil,
			[]string{`s.yaml:4: input_schema: /properties/x/$ref: remote $ref "https://example.com/x.json" is not allowed: a schema may only refer to itself ("#/$defs/...")`}},
		{"missing .star",
			map[string]string{"s.yaml": "id: t.s\ndescription: d\nexecution: {kind: starlark, module: \"missing.star:run\"}\n"},
			nil,
			[]string{`s.yaml:3: execution.module: "missing.star" not found beside the toolpack (looked for missing.star)`}},
		{".star outside the directory",
			map[string]string{"s.yaml": "id: t.s\ndescription: d\nexecution: {kind: starlark, module: \"../x.star:run\"}\n"},
			nil,
			[]string{`s.yaml:3: execution.module: "../x.star" is outside the toolpack's directory; the .star file must be in that directory or below it`}},
		{".star with an absolute path",
			map[string]string{"s.yaml": "id: t.s\ndescription: d\nexecution: {kind: starlark, module: \"/etc/x.star:run\"}\n"},
			nil,
			[]string{`s.yaml:3: execution.module: "/etc/x.star" is outside the toolpack's directory; the .star file must be in that directory or below it`}},
		{"starlark function missing",
			map[string]string{"s.yaml": "id: t.s\ndescription: d\nexecution: {kind: starlark, module: \"s.star:run\"}\n", "s.star": "def other(): pass\n"},
			nil,
			[]string{`s.yaml:3: execution.module: s.star defines no function run`}},
		{"starlark without an executor",
			map[string]string{"s.yaml": "id: t.s\ndescription: d\nexecution: {kind: starlark, module: \"s.star:run\"}\n", "s.star": "def run(): pass\n"},
			func(ex *Executors) { ex.Starlark = nil },
			[]string{`s.yaml:3: execution.kind: kind starlark is not available: this program runs no Starlark toolpacks`}},
		{"missing go callable",
			map[string]string{"u.yaml": "id: t.u\ndescription: d\nexecution: {kind: go, module: \"text:uper\"}\n"},
			nil,
			[]string{`u.yaml:3: execution.module: no Go handler "text:uper" is compiled into this program; did you mean "text:upper"? (registered: text:lower, text:search, text:upper)`}},
		{"no go callables at all",
			map[string]string{"u.yaml": "id: t.u\ndescription: d\nexecution: {kind: go, module: \"text:upper\"}\n"},
			func(ex *Executors) { ex.Go = nil },
			[]string{`u.yaml:3: execution.module: no Go handler "text:upper" is compiled into this program (none is registered)`}},
		{"command not found in PATH",
			map[string]string{"c.yaml": "id: t.c\ndescription: d\nexecution: {kind: command, command: [no-such-program-xyz, --flag]}\n"},
			nil,
			[]string{`c.yaml:3: execution.command[0]: "no-such-program-xyz" not found in PATH`}},
		{"command not found beside the toolpack",
			map[string]string{"c.yaml": "id: t.c\ndescription: d\nexecution:\n  kind: command\n  command:\n    - ./missing.sh\n"},
			nil,
			[]string{`c.yaml:6: execution.command[0]: "./missing.sh" not found (looked for missing.sh)`}},
		{"command not executable",
			map[string]string{"c.yaml": "id: t.c\ndescription: d\nexecution: {kind: command, command: [./run.txt]}\n", "run.txt": "#!/bin/sh\n"},
			nil,
			[]string{`c.yaml:3: execution.command[0]: "./run.txt" is not executable (chmod +x ./run.txt)`}},
		{"command as a string",
			map[string]string{"c.yaml": "id: t.c\ndescription: d\nexecution: {kind: command, command: \"./run.sh --x\"}\n"},
			nil,
			[]string{`c.yaml:3: execution.command: want a list of strings (the program and its arguments; no shell), such as ["./run.sh", "--json"], got "./run.sh --x"`}},
		{"no MCP servers",
			map[string]string{"m.yaml": "id: t.m\ndescription: d\nexecution:\n  kind: mcp\n  server: github\n  tool: search\n"},
			func(ex *Executors) { ex.MCP = nil },
			[]string{`m.yaml:5: execution.server: no MCP servers are configured`}},
		{"unknown MCP server",
			map[string]string{"m.yaml": "id: t.m\ndescription: d\nexecution: {kind: mcp, server: gitlab, tool: search}\n"},
			nil,
			[]string{`m.yaml:3: execution.server: no server "gitlab" (servers: github)`}},
		{"unknown key with did-you-mean",
			map[string]string{"k.yaml": "id: t.k\ndescripton: d\nexecution: {kind: go, module: \"text:upper\"}\n"},
			nil,
			[]string{
				`k.yaml:1: description: required, but missing; say what the tool does; models read it to choose tools`,
				`k.yaml:2: descripton: unknown key; did you mean 'description'?`}},
		{"unknown nested key",
			map[string]string{"k.yaml": "id: t.k\ndescription: d\nannotations:\n  readonly: true\nexecution: {kind: go, module: \"text:upper\", modul: x}\n"},
			nil,
			[]string{
				`k.yaml:4: annotations.readonly: unknown key; did you mean 'read_only'?`,
				`k.yaml:5: execution.modul: unknown key; did you mean 'module'?`}},
		{"unknown key without a close match",
			map[string]string{"k.yaml": "id: t.k\nzzzzzz: 1\n" + ok},
			nil,
			[]string{`k.yaml:2: zzzzzz: unknown key; valid keys here: annotations, description, deterministic, examples, execution, id, input_schema, output_schema, returns, synonyms, timeout, version`}},
		{"key of another kind",
			map[string]string{"k.yaml": "id: t.k\ndescription: d\nexecution: {kind: go, module: \"text:upper\", timeout: 5s}\n"},
			nil,
			[]string{`k.yaml:3: execution.timeout: not used by kind go (only by kind command)`}},
		{"wrong types",
			map[string]string{"w.yaml": "id: t.w\ndescription: 42\ndeterministic: \"yes\"\ntimeout: soon\nversion: true\nexamples: x\nsynonyms: {a: b}\nexecution: {kind: go, module: \"text:upper\"}\n"},
			nil,
			[]string{
				`w.yaml:2: description: want a string, got 42`,
				`w.yaml:3: deterministic: want true or false, got "yes"`,
				`w.yaml:4: timeout: want a duration such as "10s", "1m30s" or a number of seconds, got "soon"`,
				`w.yaml:5: version: want a version such as "1.0.0", got true`,
				`w.yaml:6: examples: want a list of examples (Starlark code, or mappings with code, description and result), got "x"`,
				`w.yaml:7: synonyms.a: want a list of names, such as [count, limit], got "b"`}},
		{"bad id",
			map[string]string{"i.yaml": "id: my-pack.x\n" + ok, "j.yaml": "id: nodot\n" + ok},
			nil,
			[]string{
				`i.yaml:1: id: want "pack.name" with both parts Starlark identifiers (letters, digits and _, not starting with _ or a digit, not a keyword), such as "text.slugify"; got "my-pack.x"`,
				`j.yaml:1: id: want "pack.name" with both parts Starlark identifiers (letters, digits and _, not starting with _ or a digit, not a keyword), such as "text.slugify"; got "nodot"`}},
		{"all problems at once",
			map[string]string{"m.yaml": "id: my-pack.x\ndescription: d\ninput_schema: {type: object, properties: {x: {$ref: \"#/nope\"}}}\nexecution: {kind: go, module: \"zz:qq\"}\n"},
			nil,
			[]string{
				`m.yaml:1: id: want "pack.name" with both parts Starlark identifiers (letters, digits and _, not starting with _ or a digit, not a keyword), such as "text.slugify"; got "my-pack.x"`,
				`m.yaml:3: input_schema: unresolved $ref "#/nope"`,
				`m.yaml:4: execution.module: no Go handler "zz:qq" is compiled into this program (registered: text:lower, text:search, text:upper)`}},
		{"missing required fields",
			map[string]string{"e.yaml": "version: 2\n"},
			nil,
			[]string{
				`e.yaml:1: id: required, but missing; every toolpack needs an id such as "text.slugify"`,
				`e.yaml:1: description: required, but missing; say what the tool does; models read it to choose tools`,
				`e.yaml:1: execution: required, but missing; say where the tool runs, such as {kind: starlark, module: "file.star:function"}`}},
		{"synonym for an unknown parameter",
			map[string]string{"s.yaml": "id: t.s\ndescription: d\ninput_schema: {type: object, properties: {query: {type: string}, limit: {type: integer}}}\nsynonyms:\n  qeury: [q]\n  limit: [query]\nexecution: {kind: go, module: \"text:upper\"}\n"},
			nil,
			[]string{
				`s.yaml:5: synonyms.qeury: no parameter 'qeury' in input_schema; did you mean 'query'? (parameters: query, limit)`,
				`s.yaml:6: synonyms.limit[0]: 'query' is already a parameter`}},
		{"YAML syntax error",
			map[string]string{"y.yaml": "id: t.y\ndescription: [\n"},
			nil,
			[]string{`y.yaml:2: YAML syntax error: did not find expected node content`}},
		{"JSON syntax error",
			map[string]string{"y.json": "{\n  \"id\": \"t.y\",\n  \"description\": \"d\",,\n}\n"},
			nil,
			[]string{`y.json:3: JSON syntax error: invalid character ',' looking for beginning of object key string`}},
		{"JSON file with a bad field",
			map[string]string{"y.json": "{\n  \"id\": \"t.y\",\n  \"description\": \"d\",\n  \"execution\": {\n    \"kind\": \"go\",\n    \"module\": \"upper\"\n  }\n}\n"},
			nil,
			[]string{`y.json:6: execution.module: want "pkg:Callable", got "upper"`}},
		{"duplicate key",
			map[string]string{"d.yaml": "id: t.d\nid: t.e\n" + ok},
			nil,
			[]string{`d.yaml:2: id: duplicate key (first written at line 1)`}},
		{"empty file",
			map[string]string{"e.yaml": "# nothing yet\n"},
			nil,
			[]string{`e.yaml: the file is empty; want a toolpack (a mapping with id, description and execution) or a list of them`}},
		{"scalar file",
			map[string]string{"e.yaml": "hello\n"},
			nil,
			[]string{`e.yaml:1: want a toolpack (a mapping with id, description and execution) or a list of them, got "hello"`}},
		{"two documents",
			map[string]string{"e.yaml": "id: t.a\n" + ok + "---\nid: t.b\n" + ok},
			nil,
			[]string{`e.yaml:4: a second YAML document (after ---): a file holds one toolpack, or a list of them`}},
		{"env names",
			map[string]string{"c.yaml": "id: t.c\ndescription: d\nexecution: {kind: command, command: [ls], env: [A=B, \"\"]}\n"},
			nil,
			[]string{
				`c.yaml:3: execution.env[0]: "A=B" is not an environment variable name`,
				`c.yaml:3: execution.env[1]: "" is not an environment variable name`}},
		{"non-positive timeout",
			map[string]string{"c.yaml": "id: t.c\ndescription: d\ntimeout: 0\nexecution: {kind: command, command: [ls], timeout: -1s}\n"},
			nil,
			[]string{
				`c.yaml:3: timeout: must be more than 0, got 0`,
				`c.yaml:4: execution.timeout: must be more than 0, got "-1s"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.HasPrefix(tt.name, "command") {
				skipWithoutSh(t)
			}
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			ex := testExecutors()
			if tt.ex != nil {
				tt.ex(&ex)
			}
			tools, err := LoadDirs([]string{dir}, ex)
			got := errorLines(err, dir)
			if !slices.Equal(got, tt.want) {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if !errors.Is(err, ErrInvalidToolpack) {
				t.Errorf("errors.Is(err, ErrInvalidToolpack) = false")
			}
			for _, e := range leaves(err) {
				var tve *ToolpackValidationError
				if !errors.As(e, &tve) {
					t.Errorf("%v is not a *ToolpackValidationError", e)
				}
			}
			// Only the first of two duplicates loads; nothing else does.
			if n := len(tools); n != 0 && !strings.HasPrefix(tt.name, "duplicate id") || n > 1 {
				t.Errorf("%d tools loaded despite their problems", n)
			}
		})
	}
}

// TestPartialLoad: a broken file does not stop the others; its tools are
// not returned.
func TestPartialLoad(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"good.yaml": "id: t.good\ndescription: d\nexecution: {kind: go, module: \"text:upper\"}\n",
		"bad.yaml":  "- {id: t.fine, description: d, execution: {kind: go, module: \"text:upper\"}}\n- {id: t.bad, description: d, execution: {kind: go, module: nope}}\n",
	})
	tools, err := LoadDirs([]string{dir}, testExecutors())
	if err == nil {
		t.Fatal("no error")
	}
	var ids []string
	for _, tool := range tools {
		ids = append(ids, tool.ID())
	}
	if want := []string{"t.fine", "t.good"}; !slices.Equal(ids, want) {
		t.Errorf("loaded %v, want %v", ids, want)
	}
}

func TestMissingDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nope")
	_, err := LoadDirs([]string{dir}, testExecutors())
	if want := dir + ": toolpack directory does not exist"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, ErrInvalidToolpack) {
		t.Errorf("errors.Is: %v", err)
	}
	file := filepath.Join(t.TempDir(), "f.yaml")
	if err := os.WriteFile(file, []byte("x: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = LoadDirs([]string{file}, testExecutors())
	if want := file + ": not a directory; toolpacks: lists directories of toolpack files"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

// TestErrorFields checks the structure of an error, not just its text.
func TestErrorFields(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"s.yaml": "id: t.s\ndescription: d\ninput_schema: {type: object, properties: {x: {$ref: \"#/nope\"}}}\nexecution: {kind: go, module: \"text:upper\"}\n"})
	_, err := LoadFile(filepath.Join(dir, "s.yaml"), testExecutors())
	var tve *ToolpackValidationError
	if !errors.As(err, &tve) {
		t.Fatalf("err = %v", err)
	}
	if tve.File != filepath.Join(dir, "s.yaml") || tve.Line != 3 || tve.Field != "input_schema" {
		t.Errorf("file %q line %d field %q", tve.File, tve.Line, tve.Field)
	}
	if !errors.Is(err, packs.ErrSchema) {
		t.Errorf("errors.Is(err, packs.ErrSchema) = false: %v", err)
	}
}

// TestShownRelative: files under the working directory are shown relative
// to it, as the config loader shows its files.
func TestShownRelative(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"packs/k.yaml": "id: t.k\n"})
	t.Chdir(dir)
	_, err := LoadDirs([]string{filepath.Join(dir, "packs")}, testExecutors())
	if err == nil || !strings.HasPrefix(err.Error(), filepath.Join("packs", "k.yaml")+":1: description:") {
		t.Errorf("err = %v", err)
	}
}
