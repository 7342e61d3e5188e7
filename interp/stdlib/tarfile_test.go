package stdlib

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// archiveTree is fileTree with CPython-made archives under fx/ (written
// by CPython's tarfile and bz2: Go has no bzip2 writer).
func archiveTree(t *testing.T, dir string) {
	t.Helper()
	writeTree(t, dir)
	fx, err := filepath.Glob("testdata/archive_fixtures/*")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "fx"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range fx {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "fx", filepath.Base(p)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkArchivePrograms runs each program of file over a fresh
// archiveTree with an osDirHost (which lists directories and refuses
// paths outside its root, as the file pack), and compares what it prints
// with what python3 printed over the same tree, prelude first (the .want
// file; -update regenerates it).
func checkArchivePrograms(t *testing.T, file, prelude string) {
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
			archiveTree(t, dir)
			cmd := exec.Command("python3", "-u", "-c", prelude+p)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PYTHONIOENCODING=utf-8")
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
		dir := t.TempDir()
		archiveTree(t, dir)
		res, err := runOS(p, newOSDirHost(dir))
		got := ""
		if res != nil {
			got = res.Printed
		}
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

// TestProgramsTarfile: tarfile and bz2 against CPython, archives written
// by each read by the other.
func TestProgramsTarfile(t *testing.T) {
	checkArchivePrograms(t, "testdata/tarfile_programs.txt", "")
}

// TestProgramsMimetypes: mimetypes against CPython's built-in tables (a
// MimeTypes() of CPython reads no system file; the module's functions
// would read /etc/mime.types where it exists).
func TestProgramsMimetypes(t *testing.T) {
	checkArchivePrograms(t, "testdata/mimetypes_cases.txt",
		"import mimetypes\nmimetypes.init()\nmimetypes._db = mimetypes.MimeTypes()\n"+
			"mimetypes.types_map, mimetypes.common_types = mimetypes._db.types_map[True], mimetypes._db.types_map[False]\n")
}

// TestTarfileInterop: an archive onetool writes is read by CPython's
// tarfile, names, contents and modes alike.
func TestTarfileInterop(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	dir := t.TempDir()
	archiveTree(t, dir)
	code := "import tarfile, io\nwith tarfile.open('o.tar.gz', 'w:gz') as t:\n    t.add('sub')\n    t.add('utf8.txt')\n" +
		"    i = tarfile.TarInfo('d/' + 'n' * 150 + '.txt')\n    i.size = 2\n    t.addfile(i, io.BytesIO(b'ok'))\n" +
		"    s = tarfile.TarInfo('lnk')\n    s.type = tarfile.SYMTYPE\n    s.linkname = 'utf8.txt'\n    t.addfile(s)\n"
	if _, err := runOS(code, newOSDirHost(dir)); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("python3", "-c", "import tarfile\nt = tarfile.open('o.tar.gz')\n"+
		"print([(m.name[:12], m.size, oct(m.mode), m.type, m.linkname) for m in t])\nprint(t.extractfile('utf8.txt').read().decode())")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := "[('sub', 0, '0o755', b'5', ''), ('sub/b.txt', 18, '0o644', b'0', ''), ('utf8.txt', 29, '0o644', b'0', ''), " +
		"('d/nnnnnnnnnn', 2, '0o644', b'0', ''), ('lnk', 0, '0o644', b'2', 'utf8.txt')]\n" + fileTree["utf8.txt"] + "\n"
	if string(out) != want {
		t.Errorf("CPython read:\n%s\nwant:\n%s", out, want)
	}
}

// TestArchiveRefusals: what onetool cannot do says what to do instead.
func TestArchiveRefusals(t *testing.T) {
	for _, c := range []struct{ code, want string }{
		{"import bz2\nbz2.compress(b'x')", "NotImplementedError: bz2.compress is not available here"},
		{"import bz2\nbz2.open('x.bz2', 'wb')", "NotImplementedError: bz2 mode 'wb' is not available here"},
		{"import bz2\nbz2.BZ2File('x.bz2', 'w')", "NotImplementedError: bz2 mode 'w' is not available here"},
		{"import tarfile\ntarfile.open('x.tar.bz2', 'w:bz2')", "CompressionError: writing bz2 is not available here"},
		{"import tarfile\ntarfile.open('x.tar.xz', 'r:xz')", "CompressionError: xz (lzma) archives are not available here"},
		{"import tarfile\ntarfile.open('x.tar', 'a:gz')", "ValueError: mode must be 'r', 'a', 'w' or 'x'"},
		{"import mimetypes\nmimetypes.init(['/etc/mime.types'])", "NotImplementedError: mimetypes.init(files=...) is not available here"},
	} {
		h := newOSDirHost(t.TempDir())
		_, err := runOS(c.code, h)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.code, err, c.want)
		}
	}
}

// TestTarfileExtractStaysInRoots: extraction into a directory outside
// the roots is the file pack's PermissionError, with the 'fully_trusted'
// filter too; a hostile member is refused and the others extracted,
// the refusal raised at the end; nothing lands outside.
func TestTarfileExtractStaysInRoots(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "tree")
	os.Mkdir(dir, 0o755)
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, m := range []struct{ name, data string }{{"ok.txt", "ok"}, {"../../escape.txt", "evil"}, {"/abs/x.txt", "abs"}, {"after.txt", "after"}} {
		tw.WriteHeader(&tar.Header{Name: m.name, Size: int64(len(m.data)), Mode: 0o4777, Typeflag: tar.TypeReg})
		tw.Write([]byte(m.data))
	}
	tw.Close()
	os.WriteFile(filepath.Join(dir, "h.tar"), buf.Bytes(), 0o644)
	for _, c := range []struct{ code, want string }{
		{"import tarfile\ntarfile.open('h.tar').extractall('" + root + "/out')", "PermissionError: [Errno 13]"},
		{"import tarfile\ntarfile.open('h.tar').extractall('/tmp', filter='fully_trusted')", "PermissionError: [Errno 13]"},
		{"import tarfile\ntarfile.open('h.tar').extractall('out')", "OutsideDestinationError: '../../escape.txt' would be extracted to"},
		{"import tarfile, os\ntarfile.open('h.tar', errorlevel=0).extractall('out0')\nsorted(os.listdir('out0'))", `["abs","after.txt","ok.txt"]`},
	} {
		res, err := runOS(c.code, newOSDirHost(dir))
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = res.Text
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: %s, want %q", c.code, got, c.want)
		}
	}
	for _, p := range []string{filepath.Join(root, "escape.txt"), filepath.Join(root, "out"), "/abs/x.txt"} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s written outside the destination", p)
		}
	}
	for _, p := range []string{"out/ok.txt", "out/after.txt", "out/abs/x.txt"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("%s not extracted: %v", p, err)
		}
	}
}

// TestArchiveBombs: a tar.gz of a huge member of zeros, a sparse member
// whose holes are huge, and a bz2 bomb end with the memory budget's
// error.
func TestArchiveBombs(t *testing.T) {
	zeros := make([]byte, 1<<20)
	var tgz bytes.Buffer
	gw, _ := gzip.NewWriterLevel(&tgz, 1)
	tw := tar.NewWriter(gw)
	tw.WriteHeader(&tar.Header{Name: "zeros.bin", Size: 96 << 20, Mode: 0o644, Typeflag: tar.TypeReg})
	for range 96 {
		tw.Write(zeros)
	}
	tw.Close()
	gw.Close()
	// An old GNU sparse member: 1 GiB of holes around 512 bytes of data,
	// in a 2 KiB archive.
	var sparse bytes.Buffer
	sparse.Write(gnuSparseHeader(t, "holes.bin", 1<<30))
	sparse.Write(bytes.Repeat([]byte{'x'}, 512))
	sparse.Write(make([]byte, 1024))
	bomb, err := os.ReadFile("testdata/archive_fixtures/bomb.bz2")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, code string }{
		{"tar.gz of zeros", "import tarfile\ntarfile.open('z.tar.gz').extractall('out')"},
		{"tar.gz of zeros, is_tarfile", "import tarfile\ntarfile.is_tarfile('z.tar.gz')"},
		{"sparse member read", "import tarfile\nt = tarfile.open('s.tar')\nprint(t.getnames())\nt.extractfile('holes.bin').read()"},
		{"sparse member extract", "import tarfile\ntarfile.open('s.tar').extractall('out')"},
		{"bz2 bomb", "import bz2\nbz2.decompress(open('bomb.bz2', 'rb').read())"},
		{"bz2 bomb open", "import bz2\nbz2.open('bomb.bz2').read()"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "z.tar.gz"), tgz.Bytes(), 0o644)
			os.WriteFile(filepath.Join(dir, "s.tar"), sparse.Bytes(), 0o644)
			os.WriteFile(filepath.Join(dir, "bomb.bz2"), bomb, 0o644)
			start := time.Now()
			_, err := interp.Exec(context.Background(), c.code, interp.Options{
				Predeclared: globals(), Parse: python.Parse, MaxMemory: 16 << 20, Timeout: 20 * time.Second,
				Watchdog: interp.NewWatchdog(), Locals: map[string]any{pyops.LocalKey: newOSDirHost(dir)},
			})
			if !errors.Is(err, interp.ErrLimit) || !strings.Contains(err.Error(), "memory") {
				t.Fatalf("got %v, want the memory budget's error", err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %s", d)
			}
		})
	}
}

// gnuSparseHeader is an old GNU sparse header (type 'S') of a file of
// realSize bytes whose only data is 512 bytes at its end; Go's
// archive/tar writes no sparse files, and CPython's tarfile neither.
func gnuSparseHeader(t *testing.T, name string, realSize int64) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if err := tw.WriteHeader(&tar.Header{Name: name, Size: 512, Mode: 0o644, Typeflag: tar.TypeReg, Format: tar.FormatGNU}); err != nil {
		t.Fatal(err)
	}
	h := buf.Bytes()[:512:512]
	h[156] = 'S'
	octal := func(b []byte, v int64) {
		s := strings.Repeat("0", len(b)-1) + strconvOct(v)
		copy(b, s[len(s)-(len(b)-1):]+"\x00")
	}
	// The first sparse entry (offset, numbytes) at 386, realsize at 483.
	octal(h[386:398], realSize-512)
	octal(h[398:410], 512)
	octal(h[483:495], realSize)
	// The checksum over the header with its field as spaces.
	copy(h[148:156], "        ")
	var sum int64
	for _, c := range h {
		sum += int64(c)
	}
	copy(h[148:156], strings.Repeat("0", 6-len(strconvOct(sum)))+strconvOct(sum)+"\x00 ")
	return append([]byte(nil), h...)
}

func strconvOct(v int64) string {
	if v == 0 {
		return "0"
	}
	var s []byte
	for ; v > 0; v /= 8 {
		s = append([]byte{byte('0' + v%8)}, s...)
	}
	return string(s)
}

// tarFuzzProgram opens s as an archive (any compression) and reads every
// member, then as bz2 data; each may raise its Python exception only.
const tarFuzzProgram = `
import tarfile, io, bz2
out = []
try:
    with tarfile.open(fileobj=io.BytesIO(s)) as t:
        for m in t:
            out.append((m.name, m.size, m.type, m.linkname))
            f = t.extractfile(m)
            if f:
                f.read()
        t.list()
except Exception as e:
    out.append(type(e).__name__)
try:
    bz2.decompress(s)
except Exception as e:
    out.append(type(e).__name__)
out
`

// FuzzTarRead feeds arbitrary bytes to tarfile and bz2: none may panic,
// raise anything but a Python exception, or run past its budget.
func FuzzTarRead(f *testing.F) {
	var plain, gz bytes.Buffer
	tw := tar.NewWriter(&plain)
	tw.WriteHeader(&tar.Header{Name: "a.txt", Size: 2, Mode: 0o644})
	tw.Write([]byte("hi"))
	tw.WriteHeader(&tar.Header{Name: "l", Linkname: "a.txt", Typeflag: tar.TypeSymlink})
	tw.Close()
	gw := gzip.NewWriter(&gz)
	gw.Write(plain.Bytes())
	gw.Close()
	f.Add(plain.Bytes())
	f.Add(gz.Bytes())
	for _, p := range []string{"hello.txt.bz2", "cpython.tar.bz2", "cpython_gnu.tar"} {
		if b, err := os.ReadFile("testdata/archive_fixtures/" + p); err == nil {
			f.Add(b)
		}
	}
	f.Add(gnuSparseHeader(&testing.T{}, "s", 1<<40))
	g := starlark.StringDict{}
	for k, v := range globals() {
		g[k] = v
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		g["s"] = starlark.Bytes(s)
		start := time.Now()
		res, err := interp.Exec(context.Background(), tarFuzzProgram, interp.Options{
			Predeclared: g, Parse: python.Parse,
			Timeout: 2 * time.Second, MaxSteps: 10_000_000, MaxMemory: 64 << 20, Watchdog: interp.NewWatchdog(),
		})
		if err != nil && !errors.Is(err, interp.ErrLimit) {
			t.Fatalf("%q: %v", s, err)
		}
		if err == nil && strings.Contains(res.Text, "panic") {
			t.Fatalf("%q: %s", s, res.Text)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("%q took %s", s, d)
		}
	})
}
