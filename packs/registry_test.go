package packs

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

func newTool(pack, name string) *Tool {
	return &Tool{Pack: pack, Name: name, Handler: nop}
}

func TestRegistry(t *testing.T) {
	r := NewRegistry()
	r.SetPackDescription("file", "Files")
	if err := r.Register(newTool("file", "read"), newTool("file", "write"), newTool("demo", "foo")); err != nil {
		t.Fatal(err)
	}
	if err := r.Register(newTool("file", "copy")); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range r.Packs() {
		names = append(names, p.Name+"="+p.Description)
	}
	if got := strings.Join(names, ","); got != "demo=,file=Files" {
		t.Errorf("Packs: %s", got)
	}
	var ids []string
	for _, tool := range r.Tools() {
		ids = append(ids, tool.ID())
	}
	if got := strings.Join(ids, ","); got != "demo.foo,file.copy,file.read,file.write" {
		t.Errorf("Tools: %s", got)
	}
	p, ok := r.Pack("file")
	if !ok || strings.Join(p.ToolNames(), ",") != "copy,read,write" || len(p.Tools()) != 3 {
		t.Fatalf("Pack(file): %v %v", p, ok)
	}
	if tool, ok := p.Tool("read"); !ok || tool.ID() != "file.read" {
		t.Error("Pack.Tool")
	}
	for _, id := range []string{"file.read", "file:read"} {
		if tool, ok := r.Tool(id); !ok || tool.ID() != "file.read" {
			t.Errorf("Tool(%q) = %v, %v", id, tool, ok)
		}
	}
	for _, id := range []string{"file.nope", "nope.read", "file", "", "file.read.x"} {
		if _, ok := r.Tool(id); ok {
			t.Errorf("Tool(%q) found", id)
		}
	}

	// The description can come later, and snapshots do not change.
	r.SetPackDescription("demo", "Demo")
	if p, _ := r.Pack("demo"); p.Description != "Demo" {
		t.Error("late description not applied")
	}
	old, _ := r.Pack("file")
	if err := r.Register(newTool("file", "move")); err != nil {
		t.Fatal(err)
	}
	if len(old.ToolNames()) != 3 {
		t.Error("snapshot changed")
	}
	if p, _ := r.Pack("file"); len(p.ToolNames()) != 4 {
		t.Error("new tool missing")
	}
}

func TestRegisterErrors(t *testing.T) {
	r := NewRegistry()
	if err := r.Register(newTool("demo", "foo")); err != nil {
		t.Fatal(err)
	}
	gen := r.Generation()
	tests := []struct {
		name  string
		tools []*Tool
		is    error
		text  string
	}{
		{"duplicate", []*Tool{newTool("demo", "foo")}, ErrDuplicateTool, "demo.foo: a tool with this id is already registered"},
		{"duplicate in batch", []*Tool{newTool("x", "a"), newTool("x", "a")}, ErrDuplicateTool, "x.a: tool given twice"},
		{"empty pack", []*Tool{newTool("", "a")}, ErrInvalidTool, ".a: pack name is empty"},
		{"bad pack", []*Tool{newTool("my-pack", "a")}, ErrInvalidTool, `my-pack.a: pack name "my-pack" is not an identifier (letters, digits, _)`},
		{"underscore", []*Tool{newTool("x", "_a")}, ErrInvalidTool, `x._a: tool name "_a" starts with _`},
		{"digit first", []*Tool{newTool("x", "1a")}, ErrInvalidTool, `x.1a: tool name "1a" is not an identifier (letters, digits, _)`},
		{"keyword", []*Tool{newTool("for", "a")}, ErrInvalidTool, `for.a: pack name "for" is a Starlark keyword`},
		{"no handler", []*Tool{{Pack: "x", Name: "a"}}, ErrInvalidTool, "x.a: tool has no handler"},
		{"bad schema", []*Tool{{Pack: "x", Name: "a", Handler: nop, InputSchema: "{"}}, ErrSchema, "x.a: invalid input schema"},
		{"all or nothing", []*Tool{newTool("x", "ok"), newTool("demo", "foo")}, ErrDuplicateTool, "demo.foo"},
		{"nil", []*Tool{nil}, ErrInvalidTool, "nil tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := r.Register(tt.tools...)
			if !errors.Is(err, tt.is) || !strings.HasPrefix(err.Error(), tt.text) {
				t.Errorf("got %v, want %v: %s", err, tt.is, tt.text)
			}
		})
	}
	if _, ok := r.Tool("x.ok"); ok || r.Generation() != gen {
		t.Error("a failed Register changed the registry")
	}
}

func TestReplaceAndRemovePack(t *testing.T) {
	r := NewRegistry()
	if err := r.Register(newTool("up", "a"), newTool("up", "b")); err != nil {
		t.Fatal(err)
	}
	if err := r.ReplacePack("up", newTool("up", "c")); err != nil {
		t.Fatal(err)
	}
	if p, _ := r.Pack("up"); strings.Join(p.ToolNames(), ",") != "c" {
		t.Errorf("after replace: %v", p.ToolNames())
	}
	if err := r.ReplacePack("up", newTool("other", "c")); !errors.Is(err, ErrInvalidTool) {
		t.Errorf("wrong pack: %v", err)
	}
	if !r.RemovePack("up") || r.RemovePack("up") {
		t.Error("RemovePack")
	}
	if err := r.ReplacePack("gone"); err != nil {
		t.Error(err)
	}
	if len(r.Packs()) != 0 {
		t.Error("packs left")
	}
}

func TestParseID(t *testing.T) {
	tests := []struct {
		id, pack, name string
		ok             bool
	}{
		{"file.read", "file", "read", true},
		{"file:read", "file", "read", true},
		{"my_pack.tool_2", "my_pack", "tool_2", true},
		{"", "", "", false},
		{"x", "", "", false},
		{".x", "", "", false},
		{"x.", "", "", false},
		{"a.b.c", "", "", false},
		{"a:b.c", "", "", false},
		{"a b.c", "", "", false},
		{"_a.b", "", "", false},
		{"a._b", "", "", false},
		{"a-b.c", "", "", false},
	}
	for _, tt := range tests {
		pack, name, err := ParseID(tt.id)
		if tt.ok {
			if err != nil || pack != tt.pack || name != tt.name {
				t.Errorf("ParseID(%q) = %q, %q, %v", tt.id, pack, name, err)
			}
			continue
		}
		if !errors.Is(err, ErrInvalidToolID) {
			t.Errorf("ParseID(%q): got %v, want ErrInvalidToolID", tt.id, err)
		} else if want := fmt.Sprintf("invalid tool id %q: want pack.name", tt.id); err.Error() != want {
			t.Errorf("ParseID(%q): %v", tt.id, err)
		}
	}
}

// Register in one goroutine while others read; run with -race.
func TestRegistryConcurrent(t *testing.T) {
	r := NewRegistry()
	if err := r.Register(newTool("base", "t")); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				for _, p := range r.Packs() {
					for _, tool := range p.Tools() {
						if _, ok := r.Tool(tool.ID()); !ok && p.Name == "base" {
							t.Error("base tool vanished")
						}
						_ = tool.Signature()
					}
					if !slices.IsSorted(p.ToolNames()) {
						t.Error("unsorted")
					}
				}
				_ = r.Tools()
				_ = r.Generation()
			}
		}()
	}
	for i := range 200 {
		tool := &Tool{Pack: fmt.Sprintf("p%d", i%7), Name: fmt.Sprintf("t%d", i), Handler: nop,
			InputSchema: `{"type":"object","properties":{"a":{"type":"string"}}}`}
		if err := r.Register(tool); err != nil {
			t.Error(err)
		}
		if i%10 == 0 {
			r.SetPackDescription("base", fmt.Sprint(i))
		}
		if i%50 == 0 {
			_ = r.ReplacePack("p3", &Tool{Pack: "p3", Name: fmt.Sprintf("r%d", i), Handler: nop})
		}
	}
	close(stop)
	wg.Wait()
	if got := len(r.Tools()); got < 150 {
		t.Errorf("only %d tools", got)
	}
}

// One tool compiled from many goroutines at once.
func TestCompileConcurrent(t *testing.T) {
	tool := &Tool{Pack: "c", Name: "c", Handler: nop, InputSchema: richSchema}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := tool.ValidateInput(map[string]any{"count": int64(2), "name": "x1"}); err == nil {
				t.Error("expected an error")
			}
			_ = tool.Doc()
		}()
	}
	wg.Wait()
}

// The library path validates from many goroutines at once; the library
// caches compiled patterns lazily, so calls must not race (run with -race).
func TestValidateLibraryConcurrent(t *testing.T) {
	tool := &Tool{Pack: "c", Name: "lib", Handler: nop, InputSchema: `{"type":"object","properties":{
		"a":{"anyOf":[{"type":"string","pattern":"^x"},{"type":"integer"}]},
		"m":{"type":"object","patternProperties":{"^p":{"type":"string","pattern":"y$"}}}}}`}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 50 {
				err := tool.ValidateInput(map[string]any{"a": fmt.Sprint("x", i, j), "m": map[string]any{"p1": "ay"}})
				if err != nil {
					t.Error(err)
				}
				if err := tool.ValidateInput(map[string]any{"a": "z", "m": map[string]any{"p1": "a"}}); err == nil {
					t.Error("invalid accepted")
				}
			}
		}()
	}
	wg.Wait()
}

// RegisterBuiltin checks names as Register does but leaves compiling to
// the tool's first use, where a broken schema is the error of that use;
// Register refuses the same tool at once.
func TestRegisterBuiltinDefersCompiling(t *testing.T) {
	r := NewRegistry()
	broken := func(pack string) *Tool {
		return &Tool{Pack: pack, Name: "a", Handler: nop, InputSchema: "{"}
	}
	lazy := broken("lazy")
	if err := r.RegisterBuiltin(lazy); err != nil {
		t.Fatalf("RegisterBuiltin compiled the schema: %v", err)
	}
	if _, ok := r.Tool("lazy.a"); !ok {
		t.Fatal("lazy.a was not registered")
	}
	if err := lazy.Compile(); !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), "lazy.a: invalid input schema") {
		t.Errorf("first use of lazy.a: %v, want its schema error", err)
	}
	if err := r.Register(broken("eager")); !errors.Is(err, ErrSchema) {
		t.Errorf("Register(eager.a) = %v, want ErrSchema", err)
	}
	if err := r.RegisterBuiltin(&Tool{Pack: "bad name", Name: "a", Handler: nop}); !errors.Is(err, ErrInvalidTool) {
		t.Errorf("RegisterBuiltin with a bad pack name = %v, want ErrInvalidTool", err)
	}
}
