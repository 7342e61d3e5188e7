package toolpack

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/onetool-dev/onetool/packs"
)

// TestExamples loads examples/toolpacks, the set the docs show, and runs
// its command tool for real. (Its Starlark tool runs in the end-to-end
// tests, where the interpreter is.)
func TestExamples(t *testing.T) {
	skipWithoutSh(t)
	dir := filepath.Join("..", "..", "examples", "toolpacks")
	tools, err := LoadDirs([]string{dir}, Executors{Starlark: fakeStarlark{}})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*packs.Tool{}
	var ids []string
	for _, tool := range tools {
		byID[tool.ID()] = tool
		ids = append(ids, tool.ID())
	}
	if want := []string{"text.json_size", "text.slugify"}; !slices.Equal(ids, want) {
		t.Fatalf("ids = %v, want %v", ids, want)
	}

	slug := byID["text.slugify"]
	if got, want := slug.Signature(), "text.slugify(title: str) -> dict"; got != want {
		t.Errorf("signature = %s, want %s", got, want)
	}
	if b := slug.BackendList()[0]; b.Name != "starlark:slugify.star:slugify" || !slug.Deterministic {
		t.Errorf("backend %s, deterministic %v", b.Name, slug.Deterministic)
	}
	if got := slug.Examples[0]; got.Code != `text.slugify(title="Hello World")` || got.Result != `{"slug":"hello-world"}` {
		t.Errorf("example = %+v", got)
	}

	size := byID["text.json_size"]
	for _, tt := range []struct {
		value any
		want  string
	}{
		{map[string]any{"a": []any{int64(1), int64(2)}}, `{"bytes":11}`},
		{"héllo", `{"bytes":8}`},
		{nil, `{"bytes":4}`},
	} {
		got, err := packs.Call(context.Background(), size, []any{tt.value}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s := encode(t, got); s != tt.want {
			t.Errorf("json_size(%v) = %s, want %s", tt.value, s, tt.want)
		}
	}
}
