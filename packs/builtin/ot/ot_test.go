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
		{"", []string{"demo — ", "ot — ", "ot.help(query=", "no f-strings"}},
		{"demo.foo", []string{"demo.foo(text: str) -> str", "Examples:"}},
		{"demo:foo", []string{"demo.foo(text: str) -> str"}},
		{"demo", []string{"demo — Deterministic", "demo.sleep(ms: int) -> int"}},
		{"sleep", []string{`Matches for "sleep"`, "demo.sleep(ms: int) -> int"}},
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
