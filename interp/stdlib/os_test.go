package stdlib

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// runOS runs code with the modules and a osDirHost over dir.
func runOS(code string, h *osDirHost) (*interp.Result, error) {
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
			res, err := runOS(string(code), newOSDirHost(dir))
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

// The sandbox as these modules show it: a path outside the roots or
// among onetool's own files is not there for os.path's predicates
// (decision 10) and a PermissionError naming the roots for any other
// operation, Path's predicates included;
// processes, descriptors, permissions and the home directory are refused
// with a hint; os.environ is the allowed variables only, read-only.
// (A case's result is the program's JSON result, or its error.)
func TestOSSandbox(t *testing.T) {
	dir := t.TempDir()
	osTree(t, dir)
	if err := os.MkdirAll(filepath.Join(dir, ".onetool"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".onetool", "config.toml"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ code, want string }{
		{"import os\nos.path.exists('/etc/passwd'), os.path.isfile('../x'), os.path.isdir('/'), os.path.exists('.onetool/config.toml')", "[false,false,false,false]"},
		// Path's predicates raise what refuses to look, as CPython's raise
		// EACCES (os.path's answer False): an agent learns the roots
		// instead of taking the file for absent.
		{"from pathlib import Path\nPath('/etc/passwd').exists()", "PermissionError: [Errno 13] /etc/passwd is outside the allowed roots (" + dir + ")"},
		{"from pathlib import Path\nPath('.onetool').is_dir()", "PermissionError: [Errno 13] .onetool is onetool's own"},
		{"from pathlib import Path\nPath('/').is_dir()", "PermissionError: [Errno 13] / is outside the allowed roots (" + dir + ")"},
		{"import os\n'.onetool' in os.listdir('.')", "False"},
		{"import glob\nglob.glob('.*')", `[".hidden"]`},
		{"import os\nos.listdir('/etc')", "PermissionError: [Errno 13] /etc is outside the allowed roots (" + dir + ")"},
		{"import os\nos.stat('.onetool/config.toml')", "PermissionError: [Errno 13] .onetool/config.toml is onetool's own file"},
		{"open = None\nfrom pathlib import Path\nPath('../escape.txt').write_text('x')", "PermissionError: [Errno 13] " + filepath.Dir(dir) + "/escape.txt is outside the allowed roots (" + dir + ")"},
		{"import shutil\nshutil.copy('a.txt', '/tmp/x')", "PermissionError: [Errno 13] /tmp/x is outside the allowed roots (" + dir + ")"},
		{"import os\nos.system('ls')", "PermissionError: os.system is not available here: programs cannot start, signal or wait for processes here; run independent tool calls at once with parallel([...])"},
		{"import os\nos.chdir('/')", "PermissionError: os.chdir is not available here"},
		{"import os\nos.environ['X'] = '1'", "PermissionError: os.environ is read-only here"},
		{"import os\ndel os.environ['LANG']", "PermissionError: os.environ is read-only here"},
		{"import os\nos.environ['LANG'], os.getenv('APP_MODE'), sorted(os.environ), dict(os.environ.items())['LANG'], 'HOME' in os.environ", `["C.UTF-8","test",["APP_MODE","LANG"],"C.UTF-8",false]`},
		{"from os import environ\nlen(environ), environ.copy()", `[2,{"APP_MODE":"test","LANG":"C.UTF-8"}]`},
		{"import os\nos.path.expandvars('$APP_MODE/${LANG}/$NOPE')", "test/C.UTF-8/$NOPE"},
		{"import os\nos.path.expanduser('~/x')", "PermissionError: os.path.expanduser: a program has no home directory here"},
		{"from pathlib import Path\nPath.home()", "PermissionError: Path.home: a program has no home directory here"},
		{"from pathlib import Path\nPath('a.txt').owner()", "PermissionError: Path.owner is not available here"},
		{"import shutil\nshutil.disk_usage('.')", "PermissionError: shutil.disk_usage is not available here"},
		{"import shutil\nshutil.which('ls')", "PermissionError: shutil.which is not available here"},
		{"import os\nos.getcwd() == " + interp.QuoteString(dir), "True"},
	} {
		res, err := runOS(c.code, newOSDirHost(dir))
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = res.Text
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%s\n got: %s\nwant: %s", c.code, got, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "escape.txt")); err == nil {
		t.Error("a write outside the roots happened")
	}
}

// os.walk lists the tree with one call, however deep; pruning dirnames
// keeps the walk out of what was pruned; glob lists each directory once.
func TestOSCallCounts(t *testing.T) {
	dir := t.TempDir()
	osTree(t, dir)
	h := newOSDirHost(dir)
	if _, err := runOS("import os\nfor r, d, f in os.walk('.'):\n    d.clear()\n    print(r)", h); err != nil {
		t.Fatal(err)
	}
	if h.ops[pyops.FileWalk] != 1 || len(h.ops) != 1 {
		t.Errorf("os.walk made %v calls, want one file.glob@walk", h.ops)
	}
	h = newOSDirHost(dir)
	if _, err := runOS("import glob\nglob.glob('**/*.py', recursive=True)", h); err != nil {
		t.Fatal(err)
	}
	if n := h.ops[pyops.FileList]; n == 0 || n > 8 {
		t.Errorf("glob listed %d directories, want each of the tree's once", n)
	}
}

// Without a Host (interp alone) every operation says access is not
// available, and a predicate too (it is not a missing file).
func TestOSNoHost(t *testing.T) {
	_, err := interp.Exec(context.Background(), "import os\nos.listdir('.')", interp.Options{Predeclared: globals(), Parse: python.Parse})
	if err == nil || !strings.Contains(err.Error(), pyops.ErrNoHost.Error()) {
		t.Errorf("listdir without a host: %v", err)
	}
}

// A listing is charged to the run: a program that walks a large tree
// over and over ends with its budget, not a hang.
func TestOSBounded(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 300; i++ {
		if err := os.WriteFile(filepath.Join(dir, "f"+strings.Repeat("x", 100)+string(rune('a'+i%26))+strings.Repeat("y", i%50)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code := "import os\nkeep = []\nwhile True:\n    keep.append(os.listdir('.'))"
	_, err := interp.Exec(context.Background(), code, interp.Options{
		Predeclared: globals(), Parse: python.Parse, MaxMemory: 8 << 20, Watchdog: interp.NewWatchdog(), Timeout: 20 * time.Second,
		Locals: map[string]any{pyops.LocalKey: newOSDirHost(dir)},
	})
	if !isBudget(err) || strings.Contains(err.Error(), "timed out") {
		t.Errorf("an endless listing: %v, want the memory budget's error", err)
	}
}
