package stdlib

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
)

// TestProgramsCodecs: files written and read with encodings (utf-16,
// utf-8-sig, cp1252, …) give what CPython gives over the same tree:
// the same bytes written, the same text read.
func TestProgramsCodecs(t *testing.T) { checkFilePrograms(t, "testdata/codecs_programs.txt") }

// TestDifferentialCodecsModule checks the codecs module against CPython
// (testdata/codecs_module_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialCodecsModule -update).
func TestDifferentialCodecsModule(t *testing.T) {
	pydiff.CheckWith(t, "testdata/codecs_module_cases.txt", "import codecs", *update, eval)
}

// A file CPython wrote with encoding='utf-16' (testdata, made by
// python3) reads here as CPython reads it; a file written here with
// encoding='utf-16' reads back in CPython (when python3 is installed).
func TestCodecsCPythonFiles(t *testing.T) {
	const text = "Grüße aus Köln 😀\nзначение\r\nlast line"
	raw, err := os.ReadFile("testdata/codecs_cpython_utf16.txt")
	if err != nil {
		t.Fatal(err)
	}
	h := newDirHost(t)
	if err := os.WriteFile(filepath.Join(h.dir, "cpython.txt"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := run(`
with open("cpython.txt", encoding="utf-16", newline="") as f:
    got = f.read()
with open("onetool.txt", "w", encoding="utf-16", newline="") as f:
    f.write(got)
    f.write("\nmore 😀")
got`, interp.Options{Locals: map[string]any{pyops.LocalKey: h}})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := interp.AsText(res.Value); got != text {
		t.Errorf("read %q, want %q", got, text)
	}
	written, err := os.ReadFile(filepath.Join(h.dir, "onetool.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(written, []byte("\xff\xfe")) || bytes.Count(written, []byte("\xff\xfe")) != 1 {
		t.Errorf("written %q: want one BOM, at the start", written)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed: the CPython half is skipped")
	}
	out, err := exec.Command(py, "-c", `import sys; sys.stdout.buffer.write(open(sys.argv[1], encoding="utf-16", newline="").read().encode("utf-8"))`,
		filepath.Join(h.dir, "onetool.txt")).Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := text + "\nmore 😀"; string(out) != want {
		t.Errorf("CPython read %q, want %q", out, want)
	}
}

// Encoding and decoding past the memory budget, or many times over,
// ends with the budget before the output is made.
func TestCodecsBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"d = 'é' * (6 << 20)\nd.encode('utf-32')",
		"d = 'é' * (6 << 20)\nd.encode('ascii', 'xmlcharrefreplace')",
		"d = b'\\x81' * (6 << 20)\nd.decode('cp1252', 'backslashreplace')",
		"d = b'\\xe9' * (8 << 20)\nd.decode('latin-1')",
		"import codecs\ncodecs.encode('x' * (8 << 20), 'utf-16')",
		"d = 'é€' * (1 << 20)\nfor i in range(10 ** 6):\n    d.encode('utf-16')",
		"d = b'a\\x00' * (1 << 20)\nfor i in range(10 ** 6):\n    d.decode('utf-16')",
		"d = b'\\xe9' * (1 << 20)\nfor i in range(10 ** 6):\n    d.decode('cp1252')",
		"import codecs\ndec = codecs.getincrementaldecoder('utf-16')()\nd = b'a\\x00' * (1 << 20)\nfor i in range(10 ** 6):\n    dec.decode(d)",
	)
}

// BenchmarkFileRead reads a 4 MB text file through open(): the UTF-8
// fast path, and the incremental decoder of the other codecs.
func BenchmarkFileRead(b *testing.B) {
	root := b.TempDir()
	h := &dirHost{dir: filepath.Join(root, "tree"), scratch: filepath.Join(root, "scratch"), calls: map[string]int{}}
	for _, d := range []string{h.dir, h.scratch} {
		if err := os.Mkdir(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	line := "naïve café ☕ line of text, and a little more of it\n"
	text := strings.Repeat(line, 4<<20/len(line))
	for name, data := range map[string]string{"utf-8": text, "utf-16": "\xff\xfe" + utf16le(text), "cp1252": strings.Repeat("caf\xe9 line of text\n", 4<<20/15)} {
		if err := os.WriteFile(filepath.Join(h.dir, name+".txt"), []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, name := range []string{"utf-8", "utf-16", "cp1252"} {
		b.Run(name, func(b *testing.B) {
			code := fmt.Sprintf("n = 0\nfor line in open(%q, encoding=%q):\n    n += 1\nn", name+".txt", name)
			for i := 0; i < b.N; i++ {
				if _, err := run(code, interp.Options{Locals: map[string]any{pyops.LocalKey: h}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func utf16le(s string) string {
	var out []byte
	for _, u := range utf16.Encode([]rune(s)) {
		out = append(out, byte(u), byte(u>>8))
	}
	return string(out)
}

// The worst inputs of the codecs at a server's budgets: long texts coded
// over and over, and outputs larger than the budget.
func TestCodecsStop(t *testing.T) {
	checkStops(t,
		stopCase{"d = '😀' * (1 << 20)\nfor _ in range(10**9):\n    d = (d + d).encode('utf-32').decode('utf-32')", wantSpent},
		stopCase{"d = 'é€' * 10**7\nfor _ in range(10**9):\n    d.encode('utf-16')", wantTime},
		stopCase{"d = 'é€' * 10**7\nfor _ in range(10**9):\n    d.encode('cp1252', 'xmlcharrefreplace')", wantTime},
		stopCase{"d = b'\\x81' * 10**7\nfor _ in range(10**9):\n    d.decode('cp1252', 'replace')", wantTime},
		stopCase{"d = b'a\\x00' * 10**7\nfor _ in range(10**9):\n    d.decode('utf-16-le')", wantTime},
		stopCase{"import codecs\nd = b'\\xff' * 10**7\nfor _ in range(10**9):\n    list(codecs.iterdecode([d, d], 'utf-8', 'backslashreplace'))", wantTime},
	)
}
