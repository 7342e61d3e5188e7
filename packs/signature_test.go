package packs

import (
	"context"
	"strings"
	"testing"
)

func nop(context.Context, map[string]any) (any, error) { return nil, nil }

// mustTool compiles a tool in pack "t" for tests.
func mustTool(t testing.TB, name, input, output string) *Tool {
	t.Helper()
	tool := &Tool{Pack: "t", Name: name, InputSchema: input, OutputSchema: output, Handler: nop}
	if err := tool.Compile(); err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return tool
}

func TestSignature(t *testing.T) {
	tests := []struct {
		name, input, output, returns, want string
	}{
		{"none", ``, ``, ``, `t.f() -> any`},
		{"empty object", `{"type":"object"}`, ``, ``, `t.f() -> any`},
		{"one string", `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`, `{"type":"string"}`, ``,
			`t.f(text: str) -> str`},
		{"file.read", `{"type":"object","properties":{
			"offset":{"type":"integer","default":1},
			"path":{"type":"string"},
			"limit":{"type":"integer","default":2000}},"required":["path"]}`, ``, `str`,
			`t.f(path: str, offset: int = 1, limit: int = 2000) -> str`},
		{"required first, declared order kept", `{"type":"object","properties":{
			"z":{"type":"boolean"},"b":{"type":"number"},"a":{"type":"integer"},"y":{"type":"null"}},"required":["y","a"]}`, ``, ``,
			`t.f(a: int, y: None, z: bool = None, b: float = None) -> any`},
		{"defaults as literals", `{"type":"object","properties":{
			"s":{"type":"string","default":"x \"q\""},
			"t":{"type":"boolean","default":true},
			"f":{"type":"boolean","default":false},
			"n":{"type":["string","null"],"default":null},
			"l":{"type":"array","default":[]},
			"l2":{"type":"array","items":{"type":"integer"},"default":[1,2]},
			"d":{"type":"object","default":{"b":1,"a":[true]}},
			"x":{"type":"number","default":2.5},
			"y":{"type":"number","default":3.0},
			"big":{"type":"number","default":1e300}}}`, ``, ``,
			`t.f(s: str = "x \"q\"", t: bool = True, f: bool = False, n: str | None = None, l: list = [], l2: list[int] = [1, 2], d: dict = {"b": 1, "a": [True]}, x: float = 2.5, y: float = 3.0, big: float = 1e+300) -> any`},
		{"unions", `{"type":"object","properties":{
			"a":{"type":["string","null"]},
			"b":{"type":["null","integer","string"]},
			"c":{"type":["integer","number"]},
			"d":{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"string"}}]},
			"e":{"oneOf":[{"type":"integer"},{}]}},"required":["a","b","c","d","e"]}`, ``, ``,
			`t.f(a: str | None, b: int | str | None, c: int | float, d: str | list[str], e: any) -> any`},
		{"enums and const", `{"type":"object","properties":{
			"mode":{"type":"string","enum":["fast","slow"],"default":"fast"},
			"level":{"enum":[1,2,3]},
			"mixed":{"enum":["a",1,null]},
			"k":{"const":"x"}},"required":["level"]}`, ``, ``,
			`t.f(level: int, mode: str = "fast", mixed: str | int | None = None, k: str = None) -> any`},
		{"arrays", `{"type":"object","properties":{
			"a":{"type":"array"},
			"b":{"type":"array","items":{"type":"string"}},
			"c":{"type":"array","items":{"type":"object"}},
			"d":{"type":"array","items":{"type":"array","items":{"type":"number"}}},
			"e":{"type":"array","items":{}},
			"f":{"type":"array","items":{"type":["string","null"]}}},"required":["a","b","c","d","e","f"]}`, ``, ``,
			`t.f(a: list, b: list[str], c: list[dict], d: list[list[float]], e: list, f: list[str | None]) -> any`},
		{"missing type, true schema, refs", `{"type":"object","$defs":{"id":{"type":"integer"}},"properties":{
			"any":{"description":"x"},"t":true,"r":{"$ref":"#/$defs/id"},"bad":{"$ref":"#/$defs/id"}},"required":["any","t","r"]}`, ``, ``,
			`t.f(any: any, t: any, r: int, bad: int = None) -> any`},
		{"required with a default stays required", `{"type":"object","properties":{"a":{"type":"integer","default":1}},"required":["a"]}`, ``, ``,
			`t.f(a: int) -> any`},
		{"required without property", `{"type":"object","properties":{"a":{"type":"string"}},"required":["b","a"]}`, ``, ``,
			`t.f(a: str, b: any) -> any`},
		{"returns from output schema", ``, `{"type":"array","items":{"type":"object"}}`, ``, `t.f() -> list[dict]`},
		{"returns wins", ``, `{"type":"array"}`, `list[str]`, `t.f() -> list[str]`},
		{"draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","definitions":{"n":{"type":"string"}},
			"properties":{"n":{"$ref":"#/definitions/n"}},"required":["n"]}`, ``, ``, `t.f(n: str) -> any`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := &Tool{Pack: "t", Name: "f", InputSchema: tt.input, OutputSchema: tt.output, Returns: tt.returns, Handler: nop}
			if err := tool.Compile(); err != nil {
				t.Fatal(err)
			}
			if got := tool.Signature(); got != tt.want {
				t.Errorf("Signature:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestParams(t *testing.T) {
	tool := &Tool{Pack: "t", Name: "f", Handler: nop,
		InputSchema: `{"type":"object","properties":{
			"max_results":{"type":"integer","default":10,"description":"How many."},
			"query":{"type":"string","description":"What to find."},
			"sort":{"type":"string","enum":["new","old"]}},"required":["query"]}`,
		Synonyms: map[string][]string{"max_results": {"count", "n"}},
	}
	ps := tool.Params()
	if len(ps) != 3 {
		t.Fatalf("got %d params", len(ps))
	}
	q, mr, s := ps[0], ps[1], ps[2]
	if q.Name != "query" || !q.Required || q.Type != "str" || q.Description != "What to find." || q.HasDefault {
		t.Errorf("query: %+v", q)
	}
	if mr.Name != "max_results" || mr.Required || !mr.HasDefault || mr.Default != int64(10) ||
		strings.Join(mr.Synonyms, ",") != "count,n" {
		t.Errorf("max_results: %+v", mr)
	}
	if s.Name != "sort" || len(s.Enum) != 2 || s.Enum[0] != "new" || s.Schema == nil {
		t.Errorf("sort: %+v", s)
	}
	// Params is a copy.
	ps[0].Name = "changed"
	if tool.Params()[0].Name != "query" {
		t.Error("Params shares its slice")
	}
}

func TestDoc(t *testing.T) {
	tool := &Tool{Pack: "web", Name: "search", Handler: nop,
		Description: "Search the web.\nReturns titles and URLs.",
		InputSchema: `{"type":"object","properties":{
			"query":{"type":"string","description":"What to look for.","minLength":1},
			"max_results":{"type":"integer","default":5,"minimum":1,"maximum":50,"description":"How many\n  results."},
			"region":{"type":"string","enum":["us","eu"]},
			"safe":{"type":"boolean"}},"required":["query"]}`,
		OutputSchema: `{"type":"array","items":{"type":"object"}}`,
		Synonyms:     map[string][]string{"max_results": {"count"}},
		Examples: []Example{
			{Code: `web.search(query="starlark")`},
			{Code: "r = web.search(query=\"go\", count=2)\n[x[\"url\"] for x in r]", Description: "Just the URLs", Result: `["https://go.dev", "https://golang.org"]`},
		},
	}
	want := `web.search(query: str, max_results: int = 5, region: str = None, safe: bool = None) -> list[dict]

Search the web.
Returns titles and URLs.

Parameters:
  query (str, required): What to look for. Must be at least 1 character long.
  max_results (int, default 5): How many results. Must be >= 1, <= 50. Also accepted as: count.
  region (str, optional): One of "us", "eu".
  safe (bool, optional)

Examples:
  web.search(query="starlark")

  # Just the URLs
  r = web.search(query="go", count=2)
  [x["url"] for x in r]
  # → ["https://go.dev", "https://golang.org"]`
	if got := tool.Doc(); got != want {
		t.Errorf("Doc:\n%s\n--- want ---\n%s", got, want)
	}

	bare := mustTool(t, "bare", ``, ``)
	if got := bare.Doc(); got != "t.bare() -> any" {
		t.Errorf("bare Doc = %q", got)
	}
}

func TestLiteral(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{nil, "None"}, {true, "True"}, {"a\nb", `"a\nb"`}, {int64(-3), "-3"}, {3, "3"},
		{1.0, "1.0"}, {0.5, "0.5"}, {1e21, "1e+21"}, {[]any{}, "[]"},
		{map[string]any{"b": 1, "a": nil}, `{"a": None, "b": 1}`},
	}
	for _, tt := range tests {
		if got := literal(tt.v); got != tt.want {
			t.Errorf("literal(%#v) = %s, want %s", tt.v, got, tt.want)
		}
	}
}
