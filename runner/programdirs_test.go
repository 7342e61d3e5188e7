package runner

import (
	"path/filepath"
	"testing"

	"github.com/onetool-dev/onetool/packs/roots"
)

// The directory of a program onetool starts is onetool's own when it lies
// below a root, where a program could plant a module the program imports;
// not when it is a root, holds one, or lies outside every root.
func TestProgramDirs(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "project")
	other := filepath.Join(base, "other")
	own := []roots.Own{
		{Path: filepath.Join(root, "srv", "server.py"), What: "program of upstream server 'a'"},
		{Path: filepath.Join(root, "srv", "helper.py"), What: "program of upstream server 'a'"},
		{Path: filepath.Join(root, "tools", "deep", "tool.py"), What: "program of toolpack tool 't.run'"},
		{Path: filepath.Join(root, "top.py"), What: "program of upstream server 'b'"},
		{Path: filepath.Join(base, "outside.py"), What: "program of upstream server 'c'"},
		{Path: filepath.Join(other, "x", "y.py"), What: "program of upstream server 'd'"},
	}
	got := programDirs([]string{root, filepath.Join(other, "x", "inner")}, own)
	want := map[string]string{
		filepath.Join(root, "srv"):           "directory of the program of upstream server 'a'",
		filepath.Join(root, "tools", "deep"): "directory of the program of toolpack tool 't.run'",
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for _, o := range got {
		if want[o.Path] != o.What {
			t.Errorf("%s: %q, want %q", o.Path, o.What, want[o.Path])
		}
	}
}
