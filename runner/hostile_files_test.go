package runner

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/packs/roots"
)

// The hostile cases of SPEC §8.2 through Python's own file APIs (issue
// 31, item 5), end to end in a runner with the real file pack: each gets
// the answer the file pack's tool gives for the same path, and nothing
// outside the roots is read or changed.

const (
	hostileSecret  = "outside-secret-5c1d"
	hostileOwnText = "tok-9a8b7c6d5e" // ownWork's secrets.yaml
)

// hostileTree is ownWork's working directory (the only root, with
// .onetool/onetool.yaml and secrets.yaml) holding a.txt, sub/s.txt, lnk →
// a directory outside, and sub/loop → .. (a loop for a walk that follows
// links); it returns the runner, the root and the outside directory.
func hostileTree(t *testing.T) (*Runner, string, string) {
	t.Helper()
	work, load := ownWork(t, "{}\n")
	outside := filepath.Join(filepath.Dir(work), "outside")
	writeAll(t, outside, "s.txt", hostileSecret)
	writeAll(t, work, "a.txt", "inside a\n")
	writeAll(t, work, "sub/s.txt", "inside s\n")
	if err := os.Symlink(outside, filepath.Join(work, "lnk")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(work, "sub", "loop")); err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, WithConfig(load()))
	t.Cleanup(func() { r.Close() })
	return r, work, outside
}

// fileBudgets are a run's budgets here: small memory, so that a huge
// read or a bomb meets it at once.
func fileBudgets() ExecOption {
	return RunLimits(Limits{Timeout: 20 * time.Second, MaxSteps: 1_000_000_000, MaxOutput: 1 << 20,
		MaxToolCalls: 100, MaxIOOps: 100_000, MaxParallel: 4, MaxMemory: 16 << 20})
}

func TestHostileFilesLikeTheFilePack(t *testing.T) {
	r, work, outside := hostileTree(t)
	abs := filepath.Join(outside, "s.txt")
	for _, c := range []struct {
		name, python, pack string
		is                 error
	}{
		{"..", `open("../outside/s.txt").read()`, `file.read(path="../outside/s.txt")`, roots.ErrOutside},
		{"absolute", `open(` + interp.QuoteString(abs) + `).read()`, `file.read(path=` + interp.QuoteString(abs) + `)`, roots.ErrOutside},
		{"link out", `import pathlib; pathlib.Path("lnk/s.txt").read_text()`, `file.read(path="lnk/s.txt")`, roots.ErrOutside},
		{"list a link out", `import os; os.listdir("lnk")`, `file.list(path="lnk")`, roots.ErrOutside},
		{"write through a link", `open("lnk/new.txt", "w").write("x")`, `file.write(path="lnk/new.txt", content="x")`, roots.ErrOutside},
		{"delete outside", `import os; os.remove("../outside/s.txt")`, `file.delete(path="../outside/s.txt")`, roots.ErrOutside},
		{"copy from outside", `import shutil; shutil.copy("lnk/s.txt", "stolen.txt")`, `file.copy(src="lnk/s.txt", dst="stolen.txt")`, roots.ErrOutside},
		{"move out", `import os; os.rename("a.txt", "lnk/a.txt")`, `file.move(src="a.txt", dst="lnk/a.txt")`, roots.ErrOutside},
		{"own secrets", `open(".onetool/secrets.yaml").read()`, `file.read(path=".onetool/secrets.yaml")`, roots.ErrProtected},
		{"own config", `import pathlib; pathlib.Path(".onetool/onetool.yaml").write_text("x")`, `file.write(path=".onetool/onetool.yaml", content="x")`, roots.ErrProtected},
		{"own directory", `import os; os.listdir(".onetool")`, `file.list(path=".onetool")`, roots.ErrProtected},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := treeOf(t, filepath.Dir(work))
			py := r.Exec(context.Background(), c.python, fileBudgets())
			pack := r.Exec(context.Background(), c.pack, fileBudgets())
			if !errors.Is(py.Err, c.is) || !errors.Is(pack.Err, c.is) {
				t.Fatalf("python: %s (%v)\npack: %s (%v)\nwant both %v", py.Text, py.Err, pack.Text, pack.Err, c.is)
			}
			_, pyWhy, _ := strings.Cut(py.Text, "PermissionError: [Errno 13] ")
			_, packWhy, _ := strings.Cut(pack.Text, " failed: ")
			if pyWhy == "" || pyWhy != packWhy {
				t.Errorf("python says %q\nthe file pack says %q", py.Text, pack.Text)
			}
			for _, s := range []string{hostileSecret, hostileOwnText} {
				if strings.Contains(py.Text, s) || strings.Contains(pack.Text, s) {
					t.Errorf("leaked %q", s)
				}
			}
			if after := treeOf(t, filepath.Dir(work)); after != before {
				t.Errorf("the tree changed:\n%s\n→\n%s", before, after)
			}
		})
	}
}

// Listings, walks and globs show neither onetool's own files nor what a
// link outside holds; a walk that follows links ends at a loop.
func TestHostileFilesListings(t *testing.T) {
	r, _, _ := hostileTree(t)
	for _, code := range []string{
		"import os\n[(d, sorted(ds), sorted(fs)) for d, ds, fs in os.walk('.', followlinks=True)]",
		"import os\n[(d, sorted(ds), sorted(fs)) for d, ds, fs in os.walk('.')]",
		"import glob\nsorted(glob.glob('**', recursive=True))",
		"import glob\nsorted(glob.glob('.*'))",
		"import pathlib\nsorted(str(p) for p in pathlib.Path('.').rglob('*'))",
		"import os\nsorted(e.name for e in os.scandir('.'))",
		`file.glob(pattern="**")`,
	} {
		res := r.Exec(context.Background(), code, fileBudgets())
		if res.Err != nil {
			if !errors.Is(res.Err, roots.ErrOutside) {
				t.Errorf("%s: %s", code, res.Text)
			}
			continue
		}
		if strings.Contains(res.Text, ".onetool") || strings.Contains(res.Text, "secrets") || strings.Contains(res.Text, "s.txt\", \"lnk") {
			t.Errorf("%s shows onetool's own files: %s", code, res.Text)
		}
		if strings.Contains(res.Text, "loop/loop") {
			t.Errorf("%s went round the loop: %.300s", code, res.Text)
		}
	}
}

// A huge file read at once meets the memory budget, at once and without
// harm to the process; read in pieces, it is fine. A zip bomb and a gzip
// bomb meet the budget as they inflate.
func TestHostileFilesHugeAndBombs(t *testing.T) {
	r, work, _ := hostileTree(t)
	line := strings.Repeat("x", 1023) + "\n"
	writeAll(t, work, "big.txt", strings.Repeat(line, 24<<10)) // 24 MiB
	var zz bytes.Buffer
	zw := zip.NewWriter(&zz)
	fw, _ := zw.Create("bomb.bin")
	fw.Write(make([]byte, 64<<20))
	zw.Close()
	writeAll(t, work, "bomb.zip", zz.String())
	for _, code := range []string{
		"open('big.txt').read()",
		"import pathlib\npathlib.Path('big.txt').read_bytes()",
		"open('big.txt').readlines()",
		"import zipfile\nzipfile.ZipFile('bomb.zip').read('bomb.bin')",
		"import zipfile\nzipfile.ZipFile('bomb.zip').extractall('out')",
	} {
		start := time.Now()
		res := r.Exec(context.Background(), code, fileBudgets())
		if !errors.Is(res.Err, interp.ErrLimit) || !strings.Contains(res.Text, "memory") {
			t.Errorf("%s: %.300s, want the memory budget's error", code, res.Text)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s took %s", code, d)
		}
	}
	res := r.Exec(context.Background(), "n = 0\nwith open('big.txt') as f:\n    for l in f:\n        n += len(l)\nn", fileBudgets())
	if res.Err != nil || res.Text != fmt.Sprint(24<<20) {
		t.Errorf("reading by lines: %.300s", res.Text)
	}
	if _, err := os.Stat(filepath.Join(work, "out", "bomb.bin")); err == nil {
		if fi, _ := os.Stat(filepath.Join(work, "out", "bomb.bin")); fi.Size() > 32<<20 {
			t.Errorf("extractall wrote %d bytes past the budget", fi.Size())
		}
	}
}

// 10,000 files open at once cost no descriptor of the process (each is
// read by calls, not held open), and all are closed when the run ends.
func TestHostileFilesTenThousandOpen(t *testing.T) {
	r, _, _ := hostileTree(t)
	fds := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip("no /proc/self/fd here")
		}
		return len(ents)
	}
	before := fds()
	res := r.Exec(context.Background(), "fs = [open('a.txt') for _ in range(10000)]\nsum(len(f.read()) for f in fs)", fileBudgets())
	if res.Err != nil || res.Text != fmt.Sprint(10000*len("inside a\n")) {
		t.Fatalf("%.300s", res.Text)
	}
	res = r.Exec(context.Background(), "fs = [open('w%d.txt' % (i % 50), 'a') for i in range(10000)]\nfor f in fs:\n    f.write('x')", fileBudgets())
	if res.Err != nil {
		t.Fatalf("%.300s", res.Text)
	}
	// Every appending file was flushed and closed at the run's end.
	res = r.Exec(context.Background(), "sum(len(open('w%d.txt' % i).read()) for i in range(50))", fileBudgets())
	if res.Text != "10000" {
		t.Errorf("appended %s bytes, want 10000", res.Text)
	}
	if after := fds(); after > before+8 {
		t.Errorf("descriptors: %d before, %d after", before, after)
	}
}

// A directory swapped for a link out while a program reads through it
// (a TOCTOU rename) never yields what is outside.
func TestHostileFilesSwappedWhileRead(t *testing.T) {
	r, work, outside := hostileTree(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sub, old := filepath.Join(work, "sub"), filepath.Join(work, "sub-old")
		for {
			select {
			case <-stop:
				os.Remove(sub)
				os.Rename(old, sub)
				return
			default:
			}
			os.Rename(sub, old)
			os.Symlink(outside, sub)
			time.Sleep(50 * time.Microsecond)
			os.Remove(sub)
			os.Rename(old, sub)
		}
	}()
	res := r.Exec(context.Background(), `
import os, pathlib
seen = set()
for i in range(3000):
    for read in (lambda: open("sub/s.txt").read(), lambda: pathlib.Path("sub/s.txt").read_text(), lambda: str(os.listdir("sub"))):
        try:
            seen.add(read())
        except OSError as e:
            seen.add(type(e).__name__)
sorted(seen)`, fileBudgets())
	close(stop)
	wg.Wait()
	if res.Err != nil || strings.Contains(res.Text, hostileSecret) || !strings.Contains(res.Text, "inside s") {
		t.Errorf("%.500s", res.Text)
	}
	t.Logf("seen: %.300s", res.Text)
}

// treeOf lists dir's entries with their sizes, for before/after checks.
func treeOf(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil {
			fmt.Fprintf(&b, "%s %d %v\n", p, fi.Size(), fi.Mode())
		}
		return nil
	})
	return b.String()
}
