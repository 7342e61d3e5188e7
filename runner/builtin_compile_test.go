package runner

import (
	"testing"
)

// TestBuiltinToolsCompile compiles the schemas of every built-in tool. The
// registry compiles them on first use (packs.RegisterBuiltin, so that a
// server answers before paying for tools it may never call); a schema
// broken in the source would otherwise show only when a program calls it.
func TestBuiltinToolsCompile(t *testing.T) {
	r := newRunner(t)
	defer r.Close()
	seen := map[string]int{}
	for _, tool := range r.Registry().Tools() {
		if err := tool.Compile(); err != nil {
			t.Errorf("%s: %v", tool.ID(), err)
		}
		seen[tool.Pack]++
	}
	for _, pack := range []string{"db", "demo", "file", "ot", "web"} {
		if seen[pack] == 0 {
			t.Errorf("no tools of the built-in pack %s were registered: %v", pack, seen)
		}
	}
}
