package stdlib

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// osTree makes the tree the programs of testdata/os_programs run over,
// in dir: files, hidden ones, nested packages, an empty directory, links
// to a directory, to a file and to nothing.
func osTree(t *testing.T, dir string) {
	t.Helper()
	files := map[string]string{
		"a.txt": "alpha\n", "b.md": "# bee\n", ".hidden": "h\n",
		"src/main.py": "print(1)\n", "src/util.py": "x = 2\n", "src/data.json": `{"n": 3}`,
		"src/.cache/c.txt": "cached\n", "src/pkg/__init__.py": "", "src/pkg/mod.py": "y = 1\n",
		"docs/guide.md": "guide\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "docs/empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"link_to_src": "src", "link_a": "a.txt", "dangling": "nowhere"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
}

// runOS runs code with the modules and a dirHost over dir.
func runOS(code string, h *dirHost) (*interp.Result, error) {
	return interp.Exec(context.Background(), code, interp.Options{
		Predeclared: globals(), Parse: python.Parse,
		Locals: map[string]any{pyops.LocalKey: h},
	})
}

// TestOSPrograms runs each program of testdata/os_programs over a fresh
// tree and compares what it prints with what python3 printed over the
// same tree (the .want beside it; -update regenerates them).
func TestOSPrograms(t *testing.T) {
	progs, err := filepath.Glob("testdata/os_programs/*.py")
	if err != nil || len(progs) == 0 {
		t.Fatal("no programs", err)
	}
	for _, prog := range progs {
		name := strings.TrimSuffix(filepath.Base(prog), ".py")
		t.Run(name, func(t *testing.T) {
			code, err := os.ReadFile(prog)
			if err != nil {
				t.Fatal(err)
			}
			wantFile := strings.TrimSuffix(prog, ".py") + ".want"
			if *update {
				dir := t.TempDir()
				osTree(t, dir)
				cmd := exec.Command("python3", "-c", string(code))
				cmd.Dir = dir
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("python3: %v\n%s", err, out)
				}
				if err := os.WriteFile(wantFile, out, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			osTree(t, dir)
			res, err := runOS(string(code), newDirHost(dir))
			got := ""
			if res != nil {
				got = res.Printed
			}
			if err != nil {
				t.Fatalf("%v\nprinted:\n%s", err, got)
			}
			if strings.TrimRight(got, "\n") != strings.TrimRight(string(want), "\n") {
				t.Errorf("got:\n%s\n--- CPython:\n%s", got, want)
			}
		})
	}
}
