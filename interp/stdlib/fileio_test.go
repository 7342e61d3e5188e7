package stdlib

import (
	"archive/zip"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
)

// dirHost is a fake pyops.Host whose file ops work on a temporary
// directory, as the file pack's variants do within one root (without
// their checks: those are the pack's, tested there). calls counts the ops.
type dirHost struct {
	dir, scratch string
	calls        map[string]int
	// beforeRead, when set, runs before each FileRead (a test changes the
	// file between chunks).
	beforeRead func(offset int64)
}

func newDirHost(t *testing.T) *dirHost {
	root := t.TempDir()
	h := &dirHost{dir: filepath.Join(root, "tree"), scratch: filepath.Join(root, "scratch"), calls: map[string]int{}}
	for _, d := range []string{h.dir, h.scratch} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func (h *dirHost) Facts(context.Context) pyops.Facts {
	return pyops.Facts{Cwd: h.dir, Roots: []string{h.dir}, Env: map[string]string{}}
}

func (h *dirHost) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(h.dir, p)
}

// kindOf tags an os error with its pyops kind, as the file pack does.
func kindOf(err error) error {
	var kind error
	switch {
	case errors.Is(err, fs.ErrNotExist):
		kind = pyops.ErrNotFound
	case errors.Is(err, fs.ErrExist):
		kind = pyops.ErrExists
	case errors.Is(err, syscall.EISDIR):
		kind = pyops.ErrIsDir
	case errors.Is(err, syscall.ENOTDIR):
		kind = pyops.ErrNotDir
	case errors.Is(err, syscall.ENOTEMPTY):
		kind = pyops.ErrNotEmpty
	case errors.Is(err, fs.ErrPermission):
		kind = pyops.ErrDenied
	default:
		return err
	}
	return pyops.Tag(kind, err)
}

func str(args map[string]any, k string) string   { s, _ := args[k].(string); return s }
func flag_(args map[string]any, k string) bool   { b, _ := args[k].(bool); return b }
func argNum(args map[string]any, k string) int64 { n, _ := args[k].(int64); return n }

func entry(fi os.FileInfo) map[string]any {
	st, _ := fi.Sys().(*syscall.Stat_t)
	typ := "file"
	switch {
	case fi.IsDir():
		typ = "dir"
	case fi.Mode()&fs.ModeSymlink != 0:
		typ = "link"
	case !fi.Mode().IsRegular():
		typ = "other"
	}
	return map[string]any{"name": fi.Name(), "type": typ, "size": fi.Size(), "mtime_ns": fi.ModTime().UnixNano(),
		"ino": int64(st.Ino), "dev": int64(st.Dev), "mode": int64(st.Mode)}
}

func (h *dirHost) Call(_ context.Context, op string, args map[string]any) (any, error) {
	h.calls[op]++
	res, err := h.do(op, args)
	if err != nil {
		return nil, kindOf(err)
	}
	return res, nil
}

func (h *dirHost) do(op string, args map[string]any) (any, error) {
	p := h.abs(str(args, "path"))
	switch op {
	case pyops.FileRead:
		if h.beforeRead != nil {
			h.beforeRead(argNum(args, "offset"))
		}
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return nil, err
		}
		if fi.IsDir() {
			return nil, &fs.PathError{Op: "read", Path: p, Err: syscall.EISDIR}
		}
		size := argNum(args, "size")
		if size <= 0 || size > pyops.MaxChunk {
			size = pyops.MaxChunk
		}
		buf := make([]byte, size)
		n, _ := f.ReadAt(buf, argNum(args, "offset"))
		res := entry(fi)
		res["eof"] = argNum(args, "offset")+int64(n) >= fi.Size()
		pyops.PutContent(res, buf[:n])
		return res, nil
	case pyops.FileOpen:
		fi, err := os.Stat(p)
		switch {
		case err == nil && fi.IsDir():
			return nil, &fs.PathError{Op: "open", Path: p, Err: syscall.EISDIR}
		case err == nil && str(args, "mode") == "x":
			return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrExist}
		case err != nil && str(args, "mode") == "r+":
			return nil, err
		case err != nil:
			if _, err := os.Stat(filepath.Dir(p)); err != nil {
				return nil, err
			}
			return map[string]any{"exists": false}, nil
		}
		return map[string]any{"exists": true, "size": fi.Size()}, nil
	case pyops.FileWrite:
		data, err := pyops.GetContent(args)
		if err != nil {
			return nil, err
		}
		flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if flag_(args, "append") {
			flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		f, err := os.OpenFile(p, flags, 0o644)
		if err != nil {
			return nil, err
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return nil, err
		}
		return map[string]any{}, f.Close()
	case pyops.FileStat:
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		return entry(fi), nil
	case pyops.FileMkdir:
		if flag_(args, "parents") {
			return nil, os.MkdirAll(p, 0o755)
		}
		return nil, os.Mkdir(p, 0o755)
	case pyops.FileRemove:
		var err error
		if str(args, "kind") == "tree" {
			if _, err = os.Lstat(p); err == nil {
				err = os.RemoveAll(p)
			}
		} else {
			err = os.Remove(p)
		}
		if errors.Is(err, fs.ErrNotExist) && flag_(args, "missing_ok") {
			err = nil
		}
		return nil, err
	case pyops.FileTemp:
		pattern := str(args, "prefix") + "*" + str(args, "suffix")
		if flag_(args, "dir") {
			d, err := os.MkdirTemp(h.scratch, pattern)
			return map[string]any{"path": d}, err
		}
		f, err := os.CreateTemp(h.scratch, pattern)
		if err != nil {
			return nil, err
		}
		f.Close()
		return map[string]any{"path": f.Name()}, nil
	}
	return nil, fmt.Errorf("dirHost: no op %s", op)
}

// fileTree is the tree each program of the differential tests starts
// from, in a new directory: the same for CPython and for onetool.
var fileTree = map[string]string{
	"a.txt":       "hello\nworld\nlast line without newline",
	"crlf.txt":    "one\r\ntwo\rthree\n",
	"latin.txt":   "caf\xe9 cr\xe8me\n",
	"bin.dat":     "\x00\x01\x02\xff\xfe\n\x80rest",
	"data.json":   `{"name": "onetool", "tags": ["a", "b"], "n": 3}`,
	"people.csv":  "name,age\nAda,36\nAlan,41\n",
	"empty.txt":   "",
	"sub/b.txt":   "in a subdirectory\n",
	"utf8.txt":    "naïve café ☕ 😀\nsecond\n",
	"numbers.txt": "1\n2\n3\n4\n5\n",
}

func writeTree(t *testing.T, dir string) {
	t.Helper()
	for name, content := range fileTree {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runOnTree runs code with a dirHost over a fresh fileTree.
func runOnTree(t *testing.T, code string, opts interp.Options) (string, *dirHost, error) {
	t.Helper()
	h := newDirHost(t)
	writeTree(t, h.dir)
	opts.Locals = map[string]any{pyops.LocalKey: h}
	res, err := run(code, opts)
	if err != nil {
		var e *interp.Error
		if errors.As(err, &e) {
			return e.Printed, h, err
		}
		return "", h, err
	}
	return res.Printed, h, nil
}

// checkFilePrograms runs each program of file over a fresh fileTree with
// a dirHost, and compares what it prints with what python3 printed over
// the same tree (the .want file; -update regenerates it).
func checkFilePrograms(t *testing.T, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	progs := splitPrograms(string(data))
	wantFile := strings.TrimSuffix(file, ".txt") + ".want"
	if *update {
		var outs []string
		for _, p := range progs {
			dir := t.TempDir()
			writeTree(t, dir)
			cmd := exec.Command("python3", "-u", "-c", p)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PYTHONIOENCODING=utf-8", "TZ=UTC", "TMPDIR="+t.TempDir())
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("python3 failed on\n%s\n%s: %v", p, out, err)
			}
			outs = append(outs, string(out))
		}
		enc, _ := json.MarshalIndent(outs, "", " ")
		if err := os.WriteFile(wantFile, append(enc, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(wantFile)
	if err != nil {
		t.Fatalf("%v: run the test with -update", err)
	}
	var wants []string
	if err := json.Unmarshal(raw, &wants); err != nil {
		t.Fatal(err)
	}
	if len(wants) != len(progs) {
		t.Fatalf("%d programs but %d answers from CPython: run the test with -update", len(progs), len(wants))
	}
	for i, p := range progs {
		got, _, err := runOnTree(t, p, interp.Options{})
		if err != nil {
			t.Errorf("program %d failed: %v\n%s", i+1, err, p)
			continue
		}
		if got != "" {
			got += "\n"
		}
		if got != wants[i] {
			t.Errorf("program %d:\n%s\n--- got:\n%s\n--- CPython:\n%s", i+1, p, got, wants[i])
		}
	}
}

func TestProgramsOpen(t *testing.T) { checkFilePrograms(t, "testdata/open_programs.txt") }

func TestProgramsArchives(t *testing.T) { checkFilePrograms(t, "testdata/archive_programs.txt") }

// TestFileLimits: what a hostile or careless program does with files
// ends at a budget or raises, never past it.
func TestFileLimits(t *testing.T) {
	// 128 MiB of zeros deflates to about 128 KiB, made once; the budget
	// is 16 MiB.
	zeros := make([]byte, 1<<20)
	var gz, zz strings.Builder
	gw, _ := gzip.NewWriterLevel(&gz, 1)
	zw := zip.NewWriter(&zz)
	fw, _ := zw.CreateHeader(&zip.FileHeader{Name: "bomb.bin", Method: zip.Deflate})
	for range 128 {
		gw.Write(zeros)
		fw.Write(zeros)
	}
	gw.Close()
	zw.Close()
	bomb := func(t *testing.T, dir string) {
		os.WriteFile(filepath.Join(dir, "bomb.gz"), []byte(gz.String()), 0o644)
		os.WriteFile(filepath.Join(dir, "bomb.zip"), []byte(zz.String()), 0o644)
	}
	cases := []struct {
		name, code string
		setup      func(t *testing.T, dir string)
		wantErr    error
	}{
		{"zip bomb", "import zipfile\nzipfile.ZipFile('bomb.zip').read('bomb.bin')", bomb, interp.ErrLimit},
		{"zip bomb extract", "import zipfile\nzipfile.ZipFile('bomb.zip').extractall('x')", bomb, interp.ErrLimit},
		{"gzip bomb", "import gzip\ngzip.open('bomb.gz').read()", bomb, interp.ErrLimit},
		{"gzip bomb in memory", "import gzip\ngzip.decompress(open('bomb.gz', 'rb').read())", bomb, interp.ErrLimit},
		{"a write without end", "f = open('big.txt', 'w')\nwhile True:\n    f.write('x' * 65536)", nil, interp.ErrLimit},
		{"a huge file read", "open('huge.bin', 'rb').read()", func(t *testing.T, dir string) {
			f, _ := os.Create(filepath.Join(dir, "huge.bin"))
			f.Truncate(200 << 20)
			f.Close()
		}, interp.ErrLimit},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newDirHost(t)
			if c.setup != nil {
				c.setup(t, h.dir)
			}
			_, err := run(c.code, interp.Options{MaxMemory: 16 << 20, Locals: map[string]any{pyops.LocalKey: h}})
			if !errors.Is(err, c.wantErr) {
				t.Fatalf("got %v, want %v", err, c.wantErr)
			}
		})
	}
}

// TestFileCommitAtEnd: a file left open is committed when the program
// ends, as CPython flushes at exit; after a budget stop nothing is.
func TestFileCommitAtEnd(t *testing.T) {
	h := newDirHost(t)
	opts := interp.Options{Locals: map[string]any{pyops.LocalKey: h}}
	if _, err := run("f = open('left.txt', 'w')\nf.write('kept')\ng = open('left.bin', 'ab')\ng.write(b'more')", opts); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(h.dir, "left.txt")); string(b) != "kept" {
		t.Errorf("left.txt = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(h.dir, "left.bin")); string(b) != "more" {
		t.Errorf("left.bin = %q", b)
	}
	opts.MaxSteps = 100000
	_, err := run("f = open('cut.txt', 'w')\nf.write('never')\nwhile True:\n    pass", opts)
	if !errors.Is(err, interp.ErrLimit) {
		t.Fatalf("got %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(h.dir, "cut.txt")); len(b) != 0 {
		t.Errorf("written after a budget stop: %q", b)
	}
}

// TestFileChunks: a line loop reads a large file in chunks as it goes,
// and a file that changes between chunks raises OSError rather than mix
// two versions.
func TestFileChunks(t *testing.T) {
	h := newDirHost(t)
	line := strings.Repeat("x", 99) + "\n"
	big := strings.Repeat(line, 10000) // 1 MB: four chunks
	os.WriteFile(filepath.Join(h.dir, "big.txt"), []byte(big), 0o644)
	opts := interp.Options{Locals: map[string]any{pyops.LocalKey: h}}
	res, err := run("f = open('big.txt')\nprint(len(f.readline()))\nn = 1\nfor l in f:\n    n += 1\nprint(n)", opts)
	if err != nil || res.Printed != "100\n10000" {
		t.Fatalf("%v %q", err, res.Printed)
	}
	if n := h.calls[pyops.FileRead]; n < 4 {
		t.Errorf("%d reads, want one per chunk", n)
	}
	h.beforeRead = func(offset int64) {
		if offset > 0 {
			os.WriteFile(filepath.Join(h.dir, "big.txt"), []byte(big+"changed\n"), 0o644)
		}
	}
	_, err = run("f = open('big.txt')\ntry:\n    for l in f:\n        pass\nexcept OSError as e:\n    print(e.errno, e)\n    raise", opts)
	if err == nil || !strings.Contains(err.Error(), "changed while it was read") {
		t.Errorf("a file changed between chunks: %v", err)
	}
}

// TestFileErrors: the host's refusals become CPython's exceptions at the
// open() line, and many open files cost no descriptor.
func TestFileErrors(t *testing.T) {
	h := newDirHost(t)
	opts := interp.Options{Locals: map[string]any{pyops.LocalKey: &deniedHost{h}}}
	res, err := run("try:\n    open('x.txt', 'w')\nexcept PermissionError as e:\n    print(e.errno, e)", opts)
	if err != nil || res.Printed != "13 [Errno 13] outside the allowed roots" {
		t.Fatalf("%v %q", err, res.Printed)
	}
	opts = interp.Options{Locals: map[string]any{pyops.LocalKey: h}}
	os.WriteFile(filepath.Join(h.dir, "f.txt"), []byte("x"), 0o644)
	res, err = run("fs = [open('f.txt') for _ in range(2000)]\nprint(sum(len(f.read()) for f in fs))", opts)
	if err != nil || res.Printed != "2000" {
		t.Fatalf("%v %q", err, res.Printed)
	}
	_, err = run("open('f.txt').fileno()", opts)
	if err == nil || !strings.Contains(err.Error(), "UnsupportedOperation: fileno") {
		t.Errorf("fileno: %v", err)
	}
	_, err = run("import tempfile\ntempfile.mkstemp()", opts)
	if err == nil || !strings.Contains(err.Error(), "NamedTemporaryFile") {
		t.Errorf("mkstemp: %v", err)
	}
	_, err = run("open('f.txt')", interp.Options{})
	if err == nil || !strings.Contains(err.Error(), pyops.ErrNoHost.Error()) {
		t.Errorf("without a host: %v", err)
	}
}

// deniedHost refuses every op as the packs refuse a path outside the
// roots.
type deniedHost struct{ *dirHost }

func (h *deniedHost) Call(context.Context, string, map[string]any) (any, error) {
	return nil, pyops.Tag(pyops.ErrDenied, errors.New("outside the allowed roots"))
}

// TestFileReadLetsGoOfWhatWasRead: a read-only file holds what is left to
// read, not all it has read, so a line loop over a file larger than the
// memory budget runs; tell() and seek() still count from the file's
// start, forward (without reading what lies between) and back (reading
// again). The expected output is CPython's for the same program.
func TestFileReadLetsGoOfWhatWasRead(t *testing.T) {
	h := newDirHost(t)
	var big strings.Builder
	for i := range 655360 {
		fmt.Fprintf(&big, "%07d\n", i) // 5 MiB
	}
	os.WriteFile(filepath.Join(h.dir, "big.txt"), []byte(big.String()), 0o644)
	prog, _ := os.ReadFile("testdata/file_drop_program.py")
	want, _ := os.ReadFile("testdata/file_drop_program.out")
	opts := interp.Options{Locals: map[string]any{pyops.LocalKey: h}, MaxMemory: 4 << 20, Watchdog: interp.NewWatchdog(), Timeout: 20 * time.Second}
	res, err := run(string(prog), opts)
	if err != nil || res.Printed != strings.TrimSuffix(string(want), "\n") {
		t.Fatalf("%v\n got: %v\nwant: %s", err, res, want)
	}
	// Read at once, the same file is over that budget.
	for _, code := range []string{"open('big.txt').read()", "open('big.txt', 'rb').read()", "open('big.txt').readlines()"} {
		if _, err := run(code, opts); !errors.Is(err, interp.ErrMemoryLimit) {
			t.Errorf("%s: %v, want the memory budget's error", code, err)
		}
	}
}
