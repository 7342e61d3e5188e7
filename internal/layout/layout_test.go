// Package layout holds a test that keeps the dependency direction of
// SPEC §1: cmd → runner → {interp, proxy, packs, fence, snippets};
// proxy → packs; interp knows nothing about packs; nothing imports cmd.
// Inside interp, the Python front end and its runtime never meet.
package layout

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/onetool-dev/onetool/"

// forbidden lists, per package prefix, the packages it must not import
// (directly or not).
var forbidden = map[string][]string{
	"fence":    {"interp", "proxy", "packs", "runner", "snippets", "cmd"},
	"snippets": {"interp", "proxy", "packs", "runner", "cmd"},
	"interp":   {"proxy", "packs", "runner", "fence", "snippets", "cmd"},
	"packs":    {"proxy", "runner", "cmd"},
	"proxy":    {"runner", "fence", "snippets", "cmd"},
	"runner":   {"cmd"},
	// internal packages serve the others and import none of them.
	"internal": {"fence", "snippets", "interp", "proxy", "packs", "runner", "cmd"},
	// Python: the front end and the runtime share only interp/lowered
	// (docs/design.md); the object model builds on the runtime; the
	// standard library on both.
	"interp/python": {"interp/pyrt", "interp/objects", "interp/stdlib"},
	"interp/pyrt":   {"interp/python", "interp/objects", "interp/stdlib", "interp/eventloop"},
	// The event loop builds on the runtime's coroutines; the modules use it.
	"interp/eventloop": {"interp/python", "interp/objects", "interp/stdlib"},
	"interp/lowered":   {"interp"},
	"interp/objects":   {"interp/python", "interp/stdlib"},
}

func TestDependencyDirection(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps=false", "-json", module+"...").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			ImportPath string
			Deps       []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		rel := strings.TrimPrefix(p.ImportPath, module)
		for prefix, bad := range forbidden {
			if rel != prefix && !strings.HasPrefix(rel, prefix+"/") {
				continue
			}
			for _, dep := range p.Deps {
				drel, ok := strings.CutPrefix(dep, module)
				if !ok {
					continue
				}
				for _, b := range bad {
					if drel == b || strings.HasPrefix(drel, b+"/") {
						t.Errorf("%s imports %s: against SPEC §1", rel, drel)
					}
				}
			}
		}
	}
}
