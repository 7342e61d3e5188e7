package packs

import (
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
)

func variant(pack, name, v string) *Tool {
	return &Tool{Pack: pack, Name: name, Variant: v, Handler: nop}
}

// TestVariants: a variant is found by its VariantID, counts as its public
// tool (ID), and is never listed; it goes with its pack.
func TestVariants(t *testing.T) {
	r := NewRegistry()
	if err := r.Register(newTool("file", "read"), newTool("file", "write"), newTool("demo", "foo")); err != nil {
		t.Fatal(err)
	}
	gen := r.Generation()
	chunk, commit, x := variant("file", "read", "chunk"), variant("file", "write", "commit"), variant("demo", "foo", "x")
	if err := r.RegisterVariants(chunk, commit, x); err != nil {
		t.Fatal(err)
	}
	if r.Generation() == gen {
		t.Error("RegisterVariants did not bump the generation")
	}
	if chunk.ID() != "file.read" || chunk.VariantID() != "file.read@chunk" || newTool("a", "b").VariantID() != "a.b" {
		t.Errorf("ids: %s %s", chunk.ID(), chunk.VariantID())
	}
	if got, ok := r.Variant("file.read@chunk"); !ok || got != chunk {
		t.Error("Variant(file.read@chunk) not found")
	}
	for _, id := range []string{"file.read", "file.read@", "file.read@nope", "file:read@chunk"} {
		if _, ok := r.Variant(id); ok {
			t.Errorf("Variant(%q) found", id)
		}
	}
	if tool, _ := r.Tool("file.read"); tool == chunk {
		t.Error("Tool(file.read) is the variant")
	}
	listed := func(reg *Registry) string {
		var ids []string
		for _, tool := range reg.Tools() {
			ids = append(ids, tool.VariantID())
		}
		for _, p := range reg.Packs() {
			for _, tool := range p.Tools() {
				ids = append(ids, tool.VariantID())
			}
			ids = append(ids, p.ToolNames()...)
		}
		return strings.Join(ids, ",")
	}
	if got := listed(r); strings.Contains(got, "@") || strings.Count(got, "file.read") != 2 {
		t.Errorf("variants listed: %s", got)
	}
	if f := r.Filtered(func(*Tool) bool { return true }); len(f.Variants()) != 0 || strings.Contains(listed(f), "@") {
		t.Error("Filtered keeps variants")
	}
	ids := func() []string {
		var out []string
		for _, v := range r.Variants() {
			out = append(out, v.VariantID())
		}
		return out
	}
	if got := ids(); !slices.Equal(got, []string{"demo.foo@x", "file.read@chunk", "file.write@commit"}) {
		t.Errorf("Variants: %v", got)
	}
	// Gone with their pack, replaced or removed.
	if err := r.ReplacePack("demo", newTool("demo", "foo")); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Variant("demo.foo@x"); ok {
		t.Error("ReplacePack kept the pack's variant")
	}
	r.RemovePack("file")
	if got := ids(); len(got) != 0 {
		t.Errorf("RemovePack kept %v", got)
	}
}

func TestRegisterVariantsRefuses(t *testing.T) {
	r := NewRegistry()
	if err := r.Register(newTool("file", "read")); err != nil {
		t.Fatal(err)
	}
	if err := r.RegisterVariants(variant("file", "read", "chunk")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		err   error
		tools []*Tool
	}{
		{"no base tool", ErrInvalidTool, []*Tool{variant("file", "nope", "x")}},
		{"no base pack", ErrInvalidTool, []*Tool{variant("web", "fetch", "get")}},
		{"not a variant", ErrInvalidTool, []*Tool{newTool("file", "read")}},
		{"bad name", ErrInvalidTool, []*Tool{variant("file", "read", "a-b")}},
		{"underscore", ErrInvalidTool, []*Tool{variant("file", "read", "_x")}},
		{"no handler", ErrInvalidTool, []*Tool{{Pack: "file", Name: "read", Variant: "y"}}},
		{"again", ErrDuplicateTool, []*Tool{variant("file", "read", "chunk")}},
		{"twice", ErrDuplicateTool, []*Tool{variant("file", "read", "z"), variant("file", "read", "z")}},
		{"all or nothing", ErrInvalidTool, []*Tool{variant("file", "read", "ok"), variant("file", "nope", "x")}},
	} {
		if err := r.RegisterVariants(c.tools...); !errors.Is(err, c.err) {
			t.Errorf("%s: %v, want %v", c.name, err, c.err)
		}
	}
	if _, ok := r.Variant("file.read@ok"); ok {
		t.Error("a refused batch added a variant")
	}
	// A variant never enters a pack's listing through Register.
	if err := r.Register(variant("file", "list", "scan")); !errors.Is(err, ErrInvalidTool) {
		t.Errorf("Register(variant): %v", err)
	}
	if err := r.ReplacePack("file", variant("file", "read", "chunk")); !errors.Is(err, ErrInvalidTool) {
		t.Errorf("ReplacePack(variant): %v", err)
	}
}

type closer struct {
	name string
	log  *[]string
	err  error
}

func (c *closer) Close() error { *c.log = append(*c.log, c.name); return c.err }

// TestScope: values are made once, closed last first when the run ends
// (errors joined, every one closed), and the scratch directory goes.
func TestScope(t *testing.T) {
	if ScopeFrom(context.Background()) != nil {
		t.Fatal("a scope outside a run")
	}
	s := NewScope()
	ctx := WithScope(context.Background(), s)
	if ScopeFrom(ctx) != s {
		t.Fatal("ScopeFrom")
	}
	var log []string
	made := 0
	mk := func(name string, err error) func() (io.Closer, error) {
		return func() (io.Closer, error) { made++; return &closer{name, &log, err}, nil }
	}
	type key string
	a, _ := s.Value(key("a"), mk("a", nil))
	if again, _ := s.Value(key("a"), mk("a2", nil)); again != a || made != 1 {
		t.Error("Value made a second value for the same key")
	}
	if _, err := s.Value(key("bad"), func() (io.Closer, error) { return nil, errors.New("no") }); err == nil {
		t.Error("mk's error lost")
	}
	if _, ok := s.Lookup(key("bad")); ok {
		t.Error("a failed mk kept something")
	}
	s.Value(key("b"), mk("b", errors.New("b failed")))
	s.Value(key("c"), mk("c", nil))
	s.Value(key("d"), mk("d", nil))
	if err := s.Drop(key("d")); err != nil || !slices.Equal(log, []string{"d"}) {
		t.Errorf("Drop: %v %v", err, log)
	}
	dir, err := s.Scratch()
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := s.Scratch(); again != dir {
		t.Error("a second scratch directory")
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 || !strings.HasPrefix(fi.Name(), ScratchPrefix) {
		t.Errorf("scratch %s: %v %v", dir, fi, err)
	}
	os.WriteFile(dir+"/f", []byte("x"), 0o600)
	err = s.Close()
	if err == nil || !strings.Contains(err.Error(), "b failed") {
		t.Errorf("Close: %v", err)
	}
	if !slices.Equal(log, []string{"d", "c", "b", "a"}) {
		t.Errorf("closed in order %v, want the last made first", log)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("scratch left: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := s.Value(key("e"), mk("e", nil)); !errors.Is(err, ErrScopeClosed) {
		t.Errorf("Value after Close: %v", err)
	}
	if _, err := s.Scratch(); !errors.Is(err, ErrScopeClosed) {
		t.Errorf("Scratch after Close: %v", err)
	}
}
