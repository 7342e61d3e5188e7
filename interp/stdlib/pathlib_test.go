package stdlib

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// TestPathPrograms runs whole programs over paths (loops over parents,
// paths as dict keys, a class's __rtruediv__, errors caught) and
// compares what they print with CPython's (testdata/path_programs.json:
// [program, CPython's output] pairs, made with the prelude's names).
func TestPathPrograms(t *testing.T) {
	raw, err := os.ReadFile("testdata/path_programs.json")
	if err != nil {
		t.Fatal(err)
	}
	var progs [][2]string
	if err := json.Unmarshal(raw, &progs); err != nil {
		t.Fatal(err)
	}
	for _, p := range progs {
		res, err := runPath(fsPathClass+p[0], interp.Options{})
		if err != nil {
			t.Errorf("%s\n: %v", p[0], err)
			continue
		}
		if got := res.Printed; got != p[1] && got+"\n" != p[1] {
			t.Errorf("%s\n--- got:\n%s\n--- CPython:\n%s", p[0], got, p[1])
		}
	}
}

// Work in proportion to a path's length or its number of parts is
// charged: a long path built, normalised, joined or walked part by part
// ends with a budget, not a hang.
func TestPathBounded(t *testing.T) {
	for _, code := range []string{
		"s = 'a/' * 10**6\nfor i in range(10**6):\n    os_path.normpath(s)",
		"s = 'a/' * 10**6\nfor i in range(10**6):\n    os_path.relpath(s, '/x/y')",
		"parts = ['a'] * 10**6\nfor i in range(10**6):\n    os_path.join(*parts)",
		"parts = ['a/b'] * 10**5\nfor i in range(10**6):\n    os_path.commonpath(parts)",
		"s = 'a/' * 10**6\nfor i in range(10**6):\n    PurePosixPath(s)",
		"p = PurePosixPath('a/' * 10**5)\nfor q in p.parents:\n    pass",
		"p = PurePosixPath('a/' * 10**5)\nn = len(p.parents)\nfor i in range(n):\n    p.parents[i]",
		"p = PurePosixPath('a/' * 10**5)\nx = p.parents[::1]",
		"p = PurePosixPath('a/' * 10**5)\nfor i in range(10**6):\n    p = p / 'b'",
		"p = PurePosixPath('a/' * 10**5)\nfor i in range(10**6):\n    str(p)",
		"p = PurePosixPath('/a/' * 10**5 + 'x')\nfor i in range(10**6):\n    p.match('*/' * 10**4 + '*')",
		"s = 'a' * 10**8\nos_path.join(s, s, s)",
	} {
		start := time.Now()
		_, err := runPath(code, interp.Options{Timeout: 10 * time.Second, MaxSteps: 1e7, MaxMemory: 64 << 20, Watchdog: interp.NewWatchdog()})
		if !isBudget(err) {
			t.Errorf("%s: %v, want a budget's error", code, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s took %s", code, d)
		}
	}
}

// expanduser refuses a path from "~" with the one message HomeRefused
// gives, and leaves any other path alone.
func TestExpandUserRefused(t *testing.T) {
	_, err := runPath("os_path.expanduser('~/x')", interp.Options{})
	if err == nil || !strings.Contains(err.Error(), "PermissionError") || !strings.Contains(err.Error(), "no home directory") {
		t.Errorf("expanduser('~/x'): %v", err)
	}
	res, err := runPath("os_path.expanduser('a/~b')", interp.Options{})
	if err != nil || res.Text != "a/~b" {
		t.Errorf("expanduser('a/~b') = %v, %v", res, err)
	}
}

// NewPathlib's io gives Path (and only Path) its extra attributes; the
// pure classes never see them.
func TestPathIOExtends(t *testing.T) {
	pl := NewPathlib(fakePathIO{})
	for code, want := range map[string]string{
		"Path('a/b').exists()":                       "exists a/b",
		"(Path('a') / 'b').parent.exists()":          "exists a",
		"Path.cwd()":                                 "cwd",
		"hasattr(PurePosixPath('a'), 'exists')":      "False",
		"type(PurePath('a')).__name__":               "PurePosixPath",
		"isinstance(Path('a').parents[0], Path)":     "True",
		"PurePosixPath('a') == Path('a')":            "True",
		"str(pl_path)":                               "/x/y",
		"type(pl_path).__name__ + repr(pl_path)[9:]": "PosixPath('/x/y')",
	} {
		g := starlark.StringDict{}
		for k, v := range pathGlobals() {
			g[k] = v
		}
		for k, v := range pl.Members() {
			g[k] = v
		}
		g["pl_path"] = pl.NewPath("/x//y/", true)
		g.Freeze()
		res, err := interp.Exec(t.Context(), "_r = "+code+"\n_r", interp.Options{Predeclared: g, Parse: python.Parse})
		if err != nil {
			t.Errorf("%s: %v", code, err)
			continue
		}
		if res.Text != want {
			t.Errorf("%s = %s, want %s", code, res.Text, want)
		}
	}
}

// fakePathIO stands for the file operations: Path.exists() names the
// path it was asked about, Path.cwd() answers "cwd".
type fakePathIO struct{}

func (fakePathIO) Attr(p *PurePathValue, name string) (starlark.Value, error) {
	if name != "exists" {
		return nil, nil
	}
	return interp.NewBuiltin("exists", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		return starlark.String("exists " + p.Str()), nil
	}), nil
}

func (fakePathIO) AttrNames() []string { return []string{"exists"} }

func (fakePathIO) ClassAttr(name string) starlark.Value {
	if name != "cwd" {
		return nil
	}
	return interp.NewBuiltin("cwd", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		return starlark.String("cwd"), nil
	})
}

// joinNaive is posixpath.join as CPython writes it, for the fuzz target
// to check the one-builder joinPaths against.
func joinNaive(a string, ps []string) string {
	path := a
	for _, b := range ps {
		switch {
		case strings.HasPrefix(b, "/"):
			path = b
		case path == "" || strings.HasSuffix(path, "/"):
			path += b
		default:
			path += "/" + b
		}
	}
	return path
}

// FuzzPurePath feeds arbitrary text (segments split at NUL) to the path
// parsers and normalisers: none may panic, and their results keep
// CPython's invariants (normpath is idempotent, a parsed path's str
// parses to the same parts, split and splitext lose nothing, join agrees
// with CPython's loop), and the glob matchers run over a tree without
// failing.
func FuzzPurePath(f *testing.F) {
	for _, s := range []string{"", "/", "//", "///a//b/", "a/./b/../..", "../../x", ".bashrc", "a.tar.gz", "a\x00/b\x00c", "\x00\x00/",
		"**/*.py", "[!a-]*/?", "[[]x]/**", "a**b", "src//*.py", "é/../ü.txt", ".*/.*"} {
		f.Add(s)
	}
	fs := newMemFS(globTree)
	f.Fuzz(func(t *testing.T, s string) {
		s = strings.ToValidUTF8(s, "\uFFFD") // a program's text always is
		n := NormPath(s)
		if NormPath(n) != n {
			t.Fatalf("normpath(%q) = %q, normpath of that %q", s, n, NormPath(n))
		}
		root, parts := parsePathParts([]string{s})
		p := NewPathlib(nil).pure.from(nil, root, parts)
		root2, parts2 := parsePathParts([]string{p.Str()})
		if root2 != root || strings.Join(parts2, "\x00") != strings.Join(parts, "\x00") {
			t.Fatalf("%q parses to %q %q, its str %q to %q %q", s, root, parts, p.Str(), root2, parts2)
		}
		head, tail := splitPath(s)
		if strings.Contains(tail, "/") || !strings.HasSuffix(s, tail) || !strings.HasPrefix(s, head) {
			t.Fatalf("split(%q) = %q, %q", s, head, tail)
		}
		if r, e := splitExt(s); r+e != s {
			t.Fatalf("splitext(%q) = %q, %q", s, r, e)
		}
		segs := strings.Split(s, "\x00")
		if got, want := joinPaths(segs[0], segs[1:]), joinNaive(segs[0], segs[1:]); got != want {
			t.Fatalf("join(%q) = %q, want %q", segs, got, want)
		}
		if len(s) < 200 {
			for _, rec := range []bool{false, true} {
				if _, err := Glob(nil, fs, s, "", rec, rec); err != nil {
					t.Fatalf("glob(%q): %v", s, err)
				}
			}
			if _, err := PathGlob(nil, fs, ".", s, false); err != nil && evalErr(err).Class == "?" {
				t.Fatalf("Path.glob(%q): %v", s, err)
			}
		}
	})
}
