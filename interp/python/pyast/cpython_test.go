package pyast

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"go.starlark.net/syntax"
)

// update regenerates what CPython makes of the test programs:
// go test ./interp/python/pyast -run CPython -update (needs python3.11).
var update = flag.Bool("update", false, "regenerate testdata/*.want with python3")

// regenerate runs testdata/dump.py in the given mode over archive and
// writes its output to want.
func regenerate(t *testing.T, mode, archive, want string) {
	t.Helper()
	cmd := exec.Command("python3", "testdata/dump.py", mode, archive)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3 testdata/dump.py: %v", err)
	}
	if err := os.WriteFile(want, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCPythonTrees parses every program of testdata/corpus.txtar and
// compares the tree with the one CPython's ast module gives
// (testdata/corpus.want, in the form testdata/dump.py describes).
func TestCPythonTrees(t *testing.T) {
	if *update {
		regenerate(t, "trees", "testdata/corpus.txtar", "testdata/corpus.want")
	}
	ar, err := txtar.ParseFile("testdata/corpus.txtar")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/corpus.want")
	if err != nil {
		t.Fatal(err)
	}
	wants := map[string]string{}
	for _, block := range strings.Split(string(data), "== ")[1:] {
		name, tree, _ := strings.Cut(block, "\n")
		wants[name] = tree
	}
	if len(wants) != len(ar.Files) {
		t.Fatalf("%d programs but %d trees from CPython: run the test with -update", len(ar.Files), len(wants))
	}
	for _, f := range ar.Files {
		want, ok := wants[f.Name]
		if !ok {
			t.Errorf("%s: no tree from CPython: run the test with -update", f.Name)
			continue
		}
		m, err := Parse("x.py", string(f.Data))
		if err != nil {
			t.Errorf("%s: %v\n%s", f.Name, err, f.Data)
			continue
		}
		if got := dump(m); got != want {
			t.Errorf("%s:\n%s\n%s", f.Name, f.Data, diff(got, want))
		}
	}
}

// diff shows the first lines where got and want differ.
func diff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			lo := max(0, i-3)
			return fmt.Sprintf("line %d:\n   got: %q\n  want: %q\ncontext (got):\n%s", i+1, gl, wl, strings.Join(g[lo:min(len(g), i+4)], "\n"))
		}
	}
	return ""
}

// TestCPythonErrors parses every program of testdata/errors.txtar and
// compares the error with CPython's SyntaxError (message, line and
// column; testdata/errors.want). The differences that are meant are in
// testdata/errors.known, each with its reason.
func TestCPythonErrors(t *testing.T) {
	if *update {
		regenerate(t, "errors", "testdata/errors.txtar", "testdata/errors.want")
	}
	ar, err := txtar.ParseFile("testdata/errors.txtar")
	if err != nil {
		t.Fatal(err)
	}
	wants := readTabbed(t, "testdata/errors.want", 2)
	known := readTabbed(t, "testdata/errors.known", 1)
	if len(wants) != len(ar.Files) {
		t.Fatalf("%d programs but %d answers from CPython: run the test with -update", len(ar.Files), len(wants))
	}
	for name := range known {
		if _, ok := wants[name]; !ok {
			t.Errorf("errors.known lists %s, which is not in errors.txtar", name)
		}
	}
	for _, f := range ar.Files {
		want := strings.Join(wants[f.Name], "\t")
		got := "ok"
		_, err := Parse("x.py", string(f.Data))
		var se syntax.Error
		if errors.As(err, &se) {
			got = fmt.Sprintf("%d:%d\t%s", se.Pos.Line, se.Pos.Col, se.Msg)
		} else if err != nil {
			got = "not a syntax.Error: " + err.Error()
		}
		_, isKnown := known[f.Name]
		switch {
		case got == want && isKnown:
			t.Errorf("%s now agrees with CPython: take it off errors.known", f.Name)
		case got != want && !isKnown:
			t.Errorf("%s:\n%s\n   got: %s\n  want: %s", f.Name, f.Data, got, want)
		}
	}
}

// readTabbed reads lines "name<TAB>field<TAB>…" with at least n fields
// after the name; a missing file is empty.
func readTabbed(t *testing.T, file string, n int) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	f, err := os.Open(file)
	if errors.Is(err, os.ErrNotExist) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) < 2 || len(parts) < n+1 && parts[1] != "ok" {
			t.Fatalf("%s: %q: want the name, a tab and %d fields", file, line, n)
		}
		out[parts[0]] = parts[1:]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
