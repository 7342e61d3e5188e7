package runner

import (
	"context"
	"testing"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner/store"
)

// The results a program's calls receive teach the runner their shape
// (package shapes), by every path a program calls a tool; a replica on
// the same store sees it; a key holding a secret, and the keys of a dict
// keyed by emails, never show.
func TestShapesLearnedFromCalls(t *testing.T) {
	registry := func() *packs.Registry {
		reg := packs.NewRegistry()
		err := reg.Register(&packs.Tool{
			Pack: "crm", Name: "find", Description: "Find people.",
			InputSchema: `{"type":"object","properties":{"n":{"type":"integer"}}}`,
			Handler: func(_ context.Context, args map[string]any) (any, error) {
				p := ordered.NewMap(3)
				p.Set("id", int64(1))
				p.Set("name", "Ann")
				p.Set(secretValue, true) // a key that is a secret
				if n, _ := args["n"].(int64); n > 1 {
					p.Set("phone", "+33 6 12 34 56 78")
				}
				byEmail := ordered.NewMap(2)
				byEmail.Set("ann@example.com", int64(3))
				byEmail.Set("bob@example.com", int64(4))
				out := ordered.NewMap(2)
				out.Set("people", []any{p})
				out.Set("visits", byEmail)
				return out, nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		return reg
	}
	shared := store.NewMemory(store.MemoryOptions{})
	cfg := secretConfig(t, "")
	r := newRunner(t, WithRegistry(registry()), WithConfig(cfg), WithStore(shared))
	defer r.Close()
	res := r.Exec(context.Background(), "crm.find(n=1)\nparallel([call(crm.find, n=2)])\nlen(crm.find.map([{'n': 1}]))")
	if res.IsError() {
		t.Fatal(res.Text)
	}
	tl, _ := r.Registry().Tool("crm.find")
	want := "{people: list[{id: int, name: str, phone?: str, ...}], visits: dict[str, int]}"
	if typ, seen := r.Shapes().ResultType(tl); typ != want || !seen {
		t.Errorf("got %q, %v; want %q, true", typ, seen, want)
	}
	r.Shapes().Flush(context.Background())
	replica := newRunner(t, WithRegistry(registry()), WithConfig(cfg), WithStore(shared))
	defer replica.Close()
	tl2, _ := replica.Registry().Tool("crm.find")
	if typ, seen := replica.Shapes().ResultType(tl2); typ != want || !seen {
		t.Errorf("a replica got %q, %v; want %q, true", typ, seen, want)
	}
}
