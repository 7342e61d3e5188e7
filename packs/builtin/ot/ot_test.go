package ot

import (
	"context"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/builtin/demo"
)

func testRegistry(t *testing.T) *packs.Registry {
	t.Helper()
	reg := packs.NewRegistry()
	if err := demo.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := Register(reg, Info{Version: "9.9.9"}); err != nil {
		t.Fatal(err)
	}
	return reg
}

func call(t *testing.T, reg *packs.Registry, id string, named ...packs.NamedArg) any {
	t.Helper()
	tool, ok := reg.Tool(id)
	if !ok {
		t.Fatalf("no tool %s", id)
	}
	v, err := packs.Call(context.Background(), tool, nil, named)
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	return v
}

func TestHelp(t *testing.T) {
	reg := testRegistry(t)
	tests := []struct {
		query    string
		contains []string
	}{
		{"", []string{"demo — ", "ot — ", "ot.help(query=", "f-strings, try/except"}},
		{"demo.foo", []string{"demo.foo(text: str) -> str", "Examples:"}},
		{"demo:foo", []string{"demo.foo(text: str) -> str"}},
		{"demo", []string{"demo — Deterministic", "\nsleep(ms: int) -> int  # Wait ms milliseconds, then return ms\n", `ot.help(query="demo.<function>")`}},
		{"sleep", []string{`Matches for "sleep"`, "demo.sleep(ms) -> int — Wait ms milliseconds"}},
		{"colour text", []string{"demo.foo"}},
		{"zzqq", []string{`Nothing matches "zzqq". Packs: demo, ot`}},
	}
	for _, tt := range tests {
		got := call(t, reg, "ot.help", packs.NamedArg{Name: "query", Value: tt.query}).(string)
		for _, want := range tt.contains {
			if !strings.Contains(got, want) {
				t.Errorf("ot.help(%q) lacks %q:\n%s", tt.query, want, got)
			}
		}
	}
}

func TestSearchRanksNamesFirst(t *testing.T) {
	got := Help(testRegistry(t), "foo")
	lines := strings.Split(got, "\n")
	if len(lines) < 2 || !strings.Contains(lines[1], "demo.foo(") {
		t.Errorf("demo.foo is not the first match:\n%s", got)
	}
}

func TestTools(t *testing.T) {
	reg := testRegistry(t)
	ids := call(t, reg, "ot.tools", packs.NamedArg{Name: "pattern", Value: "demo.*"}, packs.NamedArg{Name: "info", Value: "min"}).([]any)
	if len(ids) != len(demo.Tools()) || ids[0] != "demo.add" {
		t.Errorf("ot.tools(demo.*, min) = %v", ids)
	}
	def := call(t, reg, "ot.tools", packs.NamedArg{Name: "pattern", Value: "sleep"}).([]any)
	if len(def) != 1 {
		t.Fatalf("ot.tools(sleep) = %v", def)
	}
	m := def[0].(*ordered.Map)
	if sig, _ := m.Get("signature"); sig != "demo.sleep(ms: int) -> int" {
		t.Errorf("signature = %v", sig)
	}
	full := call(t, reg, "ot.tools", packs.NamedArg{Name: "pattern", Value: "demo.items"}, packs.NamedArg{Name: "info", Value: "full"}).([]any)
	fm := full[0].(*ordered.Map)
	if got := strings.Join(fm.Keys(), ","); got != "id,signature,description,params,examples,annotations" {
		t.Errorf("full keys = %s", got)
	}
	if _, err := packs.Call(context.Background(), mustTool(t, reg, "ot.tools"), nil, []packs.NamedArg{{Name: "info", Value: "everything"}}); err == nil {
		t.Error("info=everything was accepted")
	}
}

func mustTool(t *testing.T, reg *packs.Registry, id string) *packs.Tool {
	tool, ok := reg.Tool(id)
	if !ok {
		t.Fatalf("no tool %s", id)
	}
	return tool
}

func TestPacksAndVersion(t *testing.T) {
	reg := testRegistry(t)
	list := call(t, reg, "ot.packs").([]any)
	if len(list) != 2 {
		t.Fatalf("ot.packs() = %v", list)
	}
	first := list[0].(*ordered.Map)
	if n, _ := first.Get("name"); n != "demo" {
		t.Errorf("first pack = %v", n)
	}
	if v := call(t, reg, "ot.version"); v != "9.9.9" {
		t.Errorf("ot.version() = %v", v)
	}
}

func TestMatchID(t *testing.T) {
	for _, tt := range []struct {
		pattern, id string
		want        bool
	}{
		{"", "a.b", true}, {"demo.*", "demo.foo", true}, {"demo:*", "demo.foo", true},
		{"demo.*", "ot.help", false}, {"FOO", "demo.foo", true}, {"*.help", "ot.help", true},
	} {
		if got := matchID(tt.pattern, tt.id); got != tt.want {
			t.Errorf("matchID(%q, %q) = %v", tt.pattern, tt.id, got)
		}
	}
}

// The modules' help: an overview names them, a module's name gives a line
// per member, "module.member" that member's line, and search finds them.
func TestHelpModules(t *testing.T) {
	reg := packs.NewRegistry()
	info := Info{Modules: []Module{{
		Name: "re", Summary: "Regular expressions",
		Entries: []ModuleEntry{
			{Names: []string{"search"}, Line: "search(pattern, string, flags=0) -> Match | None — The first match."},
			{Names: []string{"sub", "subn"}, Line: "sub(pattern, repl, string) / subn(...) — Replace matches."},
		},
		Constants: []string{"I", "M"},
	}}}
	if err := Register(reg, info); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query    string
		contains []string
	}{
		{"", []string{"Python modules (import them or use them directly): re\n"}},
		{"re", []string{"re — Regular expressions", "\nsearch(pattern, string, flags=0) -> Match | None  # The first match\n", "\nconstants: I, M"}},
		{"re.subn", []string{"re.sub(pattern, repl, string) / subn(...) — Replace matches.", `ot.help(query="re")`}},
		{"re.I", []string{"re.I is a constant of module re"}},
		{"replace", []string{"re.sub(pattern"}},
		{"regular", []string{"module re — Regular expressions"}},
		{"zzqq", []string{"Modules: re."}},
	}
	for _, tt := range tests {
		got := call(t, reg, "ot.help", packs.NamedArg{Name: "query", Value: tt.query}).(string)
		for _, want := range tt.contains {
			if !strings.Contains(got, want) {
				t.Errorf("ot.help(%q) lacks %q:\n%s", tt.query, want, got)
			}
		}
	}
}

// A pack's overview is a stub line per tool, each within about
// packs.SummaryWidth characters, whatever the tool's description.
func TestPackHelpLinesAreShort(t *testing.T) {
	reg := testRegistry(t)
	long := strings.Repeat("A very long description that goes on and on without a full stop ", 10)
	err := reg.Register(&packs.Tool{Pack: "big", Name: "tool", Description: long,
		InputSchema: `{"type":"object","properties":{` +
			`"alpha":{"type":"string"},"beta":{"type":"string","default":"bbbbbbbbbbbbbbbbbbbbbbbbbb"},` +
			`"gamma":{"type":"integer","default":1000000},"delta":{"type":"array","default":[]},` +
			`"epsilon":{"type":"boolean","default":false}},"required":["alpha"]}`,
		Handler: func(context.Context, map[string]any) (any, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	for _, pack := range []string{"demo", "ot", "big"} {
		got := call(t, reg, "ot.help", packs.NamedArg{Name: "query", Value: pack}).(string)
		for _, line := range strings.Split(got, "\n") {
			if n := len([]rune(line)); n > packs.SummaryWidth+2 {
				t.Errorf("ot.help(%q): a line of %d characters: %s", pack, n, line)
			}
		}
	}
	if got := Help(reg, "big"); !strings.Contains(got, "\ntool(alpha: str, beta: str = ..., gamma: int = 1000000, delta: list = [], …) -> any  # A very long") {
		t.Errorf("ot.help(\"big\") does not keep the required parameter and cut the rest:\n%s", got)
	}
}

func TestModuleNames(t *testing.T) {
	mods := []Module{
		{Name: "base64", Entries: []ModuleEntry{{Names: []string{"b64encode"}}}},
		{Name: "base64.binascii", Entries: []ModuleEntry{{Names: []string{"Error"}}}},
		{Name: "json", Entries: []ModuleEntry{{Names: []string{"loads"}}}},
		{Name: "urllib"},
		{Name: "urllib.parse", Entries: []ModuleEntry{{Names: []string{"quote"}}}},
	}
	if got := strings.Join(ModuleNames(mods), " "); got != "base64 json urllib.parse" {
		t.Errorf("ModuleNames = %s", got)
	}
}

// A search lists a line per match, whatever matched: a module's entry as
// long as a paragraph is cut like a tool's description, so that the
// matches stay a list an agent can scan.
func TestSearchLinesStayLines(t *testing.T) {
	long := "BytesIO(initial_bytes=b'') — Binary file in memory: " + strings.Repeat("write(bytes), read, readline, ", 8) + "truncate."
	info := Info{Modules: []Module{{
		Name:    "io",
		Summary: "In-memory text and binary files, " + strings.Repeat("and more memory, ", 10),
		Entries: []ModuleEntry{{Names: []string{"BytesIO"}, Line: long}},
	}}}
	got := search(testRegistry(t), info, "memory")
	if !strings.Contains(got, "io.BytesIO(initial_bytes=b'') — Binary file in memory") {
		t.Fatalf("the module's entry is not among the matches:\n%s", got)
	}
	for _, line := range strings.Split(got, "\n") {
		if n := len([]rune(strings.TrimSpace(line))); n > packs.SummaryWidth {
			t.Errorf("a line of %d characters, want ≤ %d: %s", n, packs.SummaryWidth, line)
		}
	}
}
