package catalog_test

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/builtin/db"
	"github.com/onetool-dev/onetool/packs/builtin/demo"
	"github.com/onetool-dev/onetool/packs/builtin/file"
	"github.com/onetool-dev/onetool/packs/builtin/ot"
	"github.com/onetool-dev/onetool/packs/builtin/web"
	"github.com/onetool-dev/onetool/packs/catalog"
	"github.com/onetool-dev/onetool/packs/roots"
)

func nop(context.Context, map[string]any) (any, error) { return nil, nil }

// Schemas become stub lines: types from the input and output schemas
// (nested objects as {key: type}, enums as Literal[...], arrays as
// list[T]), required parameters first, defaults shown, and the first
// sentence of the description as a comment.
func TestStub(t *testing.T) {
	tests := []struct {
		name            string
		desc            string
		in, out, ret    string
		want            string
		width           int
		hookTyp         string
		hookSeen, noHit bool
	}{
		{name: "no schema", desc: "Ping the server. It answers.", want: "ping() -> any  # Ping the server"},
		{name: "no description", in: `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, want: "ping(a: str) -> any"},
		{
			name: "required first, defaults",
			in:   `{"type":"object","properties":{"db":{"type":"string","default":"main"},"max_rows":{"type":"integer","default":1000},"sql":{"type":"string"}},"required":["sql"]}`,
			ret:  "list[dict]", desc: "Run one SQL statement. Then more.",
			want: `ping(sql: str, db: str = "main", max_rows: int = 1000) -> list[dict]  # Run one SQL statement`,
		},
		{
			name: "optional without default",
			in:   `{"type":"object","properties":{"tag":{"type":["string","null"]},"n":{"type":"number"}}}`,
			want: "ping(tag: str | None = None, n: float = None) -> any",
		},
		{
			name:  "enum and const",
			in:    `{"type":"object","properties":{"mode":{"type":"string","enum":["fast","slow"],"default":"fast"},"v":{"const":2},"o":{"enum":["x",null]}}}`,
			want:  `ping(mode: Literal["fast", "slow"] = "fast", v: Literal[2] = None, o: Literal["x"] | None = None) -> any`,
			width: 140,
		},
		{
			name: "long enum: the plain type",
			in:   `{"type":"object","properties":{"c":{"type":"string","enum":["a","b","c","d","e","f","g","h","i"]}},"required":["c"]}`,
			want: `ping(c: str) -> any`,
		},
		{
			name: "nested objects and arrays",
			in:   `{"type":"object","properties":{"entities":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},"meta":{"type":"object","additionalProperties":{"type":"integer"}}}}}},"required":["entities"]}`,
			want: `ping(entities: list[{name: str, tags: list[str], meta: dict[str, int]}]) -> any`,
		},
		{
			name: "output schema",
			out:  `{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"},"state":{"enum":["open","done"]}}}},"next":{"type":["string","null"]}}}`,
			want: `ping() -> {items: list[{id: int, state: Literal["open", "done"]}], next: str | None}`,
		},
		{
			name: "an output schema too long gives up its deepest level",
			out:  `{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"},"state":{"enum":["open","closed"]}}}},"next_page":{"type":["string","null"]}}}`,
			want: `ping() -> {items: list[dict], next_page: str | None}`,
		},
		{
			name: "$ref and anyOf",
			in:   `{"type":"object","$defs":{"P":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}}}},"properties":{"at":{"$ref":"#/$defs/P"},"v":{"anyOf":[{"type":"integer"},{"type":"object","properties":{"k":{"type":"string"}}}]}},"required":["at","v"]}`,
			want: `ping(at: {x: float, y: float}, v: int | {k: str}) -> any`,
		},
		{
			name: "a deep type gives up levels",
			in:   `{"type":"object","properties":{"a":{"type":"object","properties":{"b1":{"type":"object","properties":{"c1":{"type":"string"},"c2":{"type":"string"},"c3":{"type":"string"},"c4":{"type":"string"}}},"b2":{"type":"object","properties":{"d1":{"type":"string"},"d2":{"type":"string"},"d3":{"type":"string"},"d4":{"type":"string"}}}}}},"required":["a"]}`,
			want: `ping(a: {b1: dict, b2: dict}) -> any`,
		},
		{
			name: "many keys",
			in:   `{"type":"object","properties":{"o":{"type":"object","properties":{"a":{},"b":{},"c":{},"d":{},"e":{},"f":{},"g":{},"h":{},"i":{}}}},"required":["o"]}`,
			want: `ping(o: {a: any, b: any, c: any, d: any, e: any, f: any, g: any, h: any, …}) -> any`,
		},
		{
			name: "a long default",
			in:   `{"type":"object","properties":{"sep":{"type":"string","default":"a very long default value indeed"}}}`,
			want: `ping(sep: str = ...) -> any`,
		},
		{
			name: "narrow: last optional parameters give way, the sentence is cut",
			in:   `{"type":"object","properties":{"path":{"type":"string"},"offset":{"type":"integer","default":1},"limit":{"type":"integer","default":2000}},"required":["path"]}`,
			ret:  "str", desc: "Read a text file's lines, exactly as stored, with numbers.",
			width: 66,
			want:  `ping(path: str, offset: int = 1, …) -> str  # Read a text file's…`,
		},
		{
			name: "a learned result type", desc: "List things.", hookTyp: "list[{id: int}]", hookSeen: true,
			want: `ping() -> list[{id: int}]  # (seen) List things`,
		},
		{
			name: "a hook with no idea", desc: "List things.", ret: "list[dict]", noHit: true,
			want: `ping() -> list[dict]  # List things`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := &packs.Tool{Pack: "p", Name: "ping", Description: tt.desc, InputSchema: tt.in, OutputSchema: tt.out, Returns: tt.ret, Handler: nop}
			if err := tool.Compile(); err != nil {
				t.Fatal(err)
			}
			var o catalog.Options
			if tt.hookTyp != "" || tt.noHit {
				o.Result = func(got *packs.Tool) (string, bool) {
					if got != tool {
						t.Errorf("hook called for %s", got.ID())
					}
					return tt.hookTyp, tt.hookSeen
				}
			}
			width := tt.width
			if width == 0 {
				width = catalog.Width
			}
			if got := catalog.Stub(tool, width, o); got != tt.want {
				t.Errorf("Stub =\n  %s\nwant\n  %s", got, tt.want)
			}
		})
	}
}

// builtins registers every built-in pack as a small configuration has
// them: one root, two hosts, one database.
func builtins(t testing.TB) *packs.Registry {
	t.Helper()
	dir := t.TempDir()
	rs, err := roots.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg := packs.NewRegistry()
	if err := demo.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := file.Register(reg, file.Options{Roots: rs}); err != nil {
		t.Fatal(err)
	}
	if err := web.Register(reg, web.Options{AllowHosts: []string{"example.com", "*.example.org"}}); err != nil {
		t.Fatal(err)
	}
	d, err := db.Register(reg, db.Options{Databases: map[string]string{"main": "sqlite::memory:"}, ReadOnly: true, Roots: rs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if err := ot.Register(reg, ot.Info{}); err != nil {
		t.Fatal(err)
	}
	return reg
}

// The help of every built-in pack fits in catalog.PackBudget characters,
// a stub line per tool; each line stays one short line.
func TestBuiltinPackHelpBudget(t *testing.T) {
	reg := builtins(t)
	for _, p := range reg.Packs() {
		text := catalog.PackHelp(context.Background(), p, catalog.Options{})
		n := utf8.RuneCountInString(text)
		t.Logf("%s: %d characters", p.Name, n)
		if n > catalog.PackBudget {
			t.Errorf("help of %s is %d characters, want ≤ %d:\n%s", p.Name, n, catalog.PackBudget, text)
		}
		for _, tool := range p.Tools() {
			if !strings.Contains(text, "\n"+tool.Name+"(") {
				t.Errorf("help of %s lacks %s's stub:\n%s", p.Name, tool.Name, text)
			}
		}
		for _, line := range strings.Split(text, "\n")[1:] {
			if n := utf8.RuneCountInString(line); n > catalog.Width+2 {
				t.Errorf("help of %s has a line of %d characters: %s", p.Name, n, line)
			}
		}
	}
}

// A pack of many tools gets ToolBudget characters a tool; when even
// MinWidth does not fit, lines narrow no further: every tool keeps its
// line and its required parameters.
func TestPackHelpOfManyTools(t *testing.T) {
	for _, tt := range []struct {
		param string
		width int // the widest line
	}{
		{"first", catalog.ToolBudget},
		{strings.Repeat("a_very_long_name_", 8), 8*17 + 50}, // cannot fit: as narrow as it gets
	} {
		reg := packs.NewRegistry()
		var tools []*packs.Tool
		for _, n := range strings.Fields("a b c d e f g h i j k l m n o p q r s t u v w x y z") {
			tools = append(tools, &packs.Tool{Pack: "big", Name: "tool_" + n, Handler: nop,
				Description: "A long description of what this tool does, which goes on and on. Second.",
				InputSchema: `{"type":"object","properties":{"` + tt.param + `":{"type":"string"},"optional_one":{"type":"integer","default":1}},"required":["` + tt.param + `"]}`})
		}
		if err := reg.Register(tools...); err != nil {
			t.Fatal(err)
		}
		p, _ := reg.Pack("big")
		text := catalog.PackHelp(context.Background(), p, catalog.Options{})
		lines := strings.Split(text, "\n")
		for _, l := range lines[2 : 2+len(tools)] {
			if !strings.Contains(l, "("+tt.param+": str") || utf8.RuneCountInString(l) > tt.width {
				t.Errorf("a line of %d characters, want ≤ %d with the required parameter: %s", utf8.RuneCountInString(l), tt.width, l)
			}
		}
		if n := utf8.RuneCountInString(text); tt.param == "first" && n > len(tools)*catalog.ToolBudget {
			t.Errorf("help of %d characters, want ≤ %d:\n%s", n, len(tools)*catalog.ToolBudget, text)
		}
	}
}

// A pack's context is bounded in size (at a line, saying how many were
// left out) and in time (a slow function is not waited for); a panic in
// one is an answer, not a crash.
func TestPackContextBounds(t *testing.T) {
	reg := packs.NewRegistry()
	if err := reg.Register(&packs.Tool{Pack: "x", Name: "f", Handler: nop}); err != nil {
		t.Fatal(err)
	}
	pack := func() *packs.Pack { p, _ := reg.Pack("x"); return p }

	reg.SetPackContext("x", func(context.Context) string { return strings.Repeat("a line of context\n", 200) })
	got := catalog.PackContext(context.Background(), pack())
	if n := utf8.RuneCountInString(got); n > catalog.ContextMax || !strings.HasSuffix(got, "more lines") {
		t.Errorf("context of %d characters, ends %q; want ≤ %d, ending with what was left out", n, got[max(0, len(got)-30):], catalog.ContextMax)
	}

	release := make(chan struct{})
	defer close(release)
	reg.SetPackContext("x", func(ctx context.Context) string {
		select {
		case <-release: // ignores ctx: help must not wait anyway
		}
		return "late"
	})
	start := time.Now()
	got = catalog.PackHelp(context.Background(), pack(), catalog.Options{})
	if d := time.Since(start); d > catalog.ContextTimeout+time.Second || !strings.Contains(got, "(not available: took longer than") {
		t.Errorf("after %v: %s", d, got)
	}

	reg.SetPackContext("x", func(context.Context) string { panic("boom") })
	if got := catalog.PackContext(context.Background(), pack()); got != "(not available: internal error)" {
		t.Errorf("panicking context = %q", got)
	}
	reg.SetPackContext("x", nil)
	if got := catalog.PackContext(context.Background(), pack()); got != "" {
		t.Errorf("no context = %q", got)
	}
}

// A pack's context survives Filtered (a principal's view) and changes of
// its tools.
func TestPackContextKeptAcrossSnapshots(t *testing.T) {
	reg := packs.NewRegistry()
	reg.SetPackContext("x", func(context.Context) string { return "ctx" })
	if err := reg.Register(&packs.Tool{Pack: "x", Name: "f", Handler: nop}, &packs.Tool{Pack: "x", Name: "g", Handler: nop}); err != nil {
		t.Fatal(err)
	}
	reg.SetPackDescription("x", "X.")
	view := reg.Filtered(func(t *packs.Tool) bool { return t.Name == "f" })
	for _, r := range []*packs.Registry{reg, view} {
		p, _ := r.Pack("x")
		if got := catalog.PackContext(context.Background(), p); got != "ctx" {
			t.Errorf("context = %q", got)
		}
	}
}

// A module's help is a stub line per entry, "sig  # sentence".
func TestModuleHelp(t *testing.T) {
	got := catalog.ModuleHelp(catalog.Module{Name: "re", Summary: "Regular expressions",
		Entries: []catalog.ModuleEntry{
			{Names: []string{"search"}, Line: "search(pattern, string, flags=0) -> Match | None — The first match anywhere in string."},
			{Names: []string{"purge"}, Line: "purge()"},
		},
		Constants: []string{"I", "M"}})
	want := "re — Regular expressions (Python's module: import re, or use re.… directly)\n\n" +
		"search(pattern, string, flags=0) -> Match | None  # The first match anywhere in string\n" +
		"purge()\nconstants: I, M"
	if got != want {
		t.Errorf("ModuleHelp =\n%s\nwant\n%s", got, want)
	}
}

// ot.help of a pack renders its lines at several widths until they fit:
// help is not on a call's hot path, but it stays cheap.
func BenchmarkPackHelp(b *testing.B) {
	reg := builtins(b)
	p, _ := reg.Pack("file")
	ctx := context.Background()
	for b.Loop() {
		catalog.PackHelp(ctx, p, catalog.Options{})
	}
}
