package python

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	osexecpkg "os/exec"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// update regenerates the expected outputs of the differential tests with
// CPython: go test ./interp/python -run Differential -update
var update = flag.Bool("update", false, "regenerate testdata/*.want with python3")

// pyEval evaluates each expression of a cases file and writes, per case,
// one JSON line: ["ok", text] or ["err", class, message]. It is CPython's
// answer, the expectation for onetool's.
const pyEval = `
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.rstrip("\n")
    if not line or line.startswith("#"):
        continue
    try:
        v = eval(line)
        out = ["ok", v if isinstance(v, str) else repr(v)]
    except Exception as e:
        out = ["err", type(e).__name__, str(e)]
    print(json.dumps(out, ensure_ascii=False))
`

// testGlobals are the names a program sees in these tests: the library
// and this package's builtins.
func testGlobals() starlark.StringDict {
	g := starlark.StringDict{}
	for k, v := range interp.StdGlobals() {
		g[k] = v
	}
	for k, v := range Builtins() {
		g[k] = v
	}
	g.Freeze()
	return g
}

// run runs code as the runner does: read by Parse, with Builtins.
func run(t testing.TB, code string, opts interp.Options) (*interp.Result, error) {
	t.Helper()
	if opts.Predeclared == nil {
		opts.Predeclared = testGlobals()
	}
	opts.Parse = Parse
	return interp.Exec(context.Background(), code, opts)
}

// TestDifferentialFormat checks format(), % and str.format against what
// CPython gives for the same expressions (testdata/format_cases.txt).
func TestDifferentialFormat(t *testing.T) {
	differential(t, "testdata/format_cases.txt", "testdata/format_cases.want")
}

// known lists the cases that still differ from CPython, each with the
// reason; a known case that starts to agree must be taken off the list.
func known(t *testing.T, file string) map[string]string {
	out := map[string]string{}
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		code, why, ok := strings.Cut(line, "\t")
		if !ok || why == "" {
			t.Fatalf("%s: %q: want the case, a tab, and the reason", file, line)
		}
		out[code] = why
	}
	return out
}

func differential(t *testing.T, casesFile, wantFile string) {
	if *update {
		py, err := osexec("python3", "-c", pyEval, casesFile)
		if err != nil {
			t.Fatalf("python3: %v", err)
		}
		if err := os.WriteFile(wantFile, py, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := readLines(t, casesFile)
	wants := readLines(t, wantFile)
	if len(cases) != len(wants) {
		t.Fatalf("%d cases but %d expectations: run go test -run Differential -update", len(cases), len(wants))
	}
	g := testGlobals()
	knownFile := strings.TrimSuffix(wantFile, ".want") + ".known"
	differs := known(t, knownFile)
	failed := 0
	for i, code := range cases {
		var want []string
		if err := json.Unmarshal([]byte(wants[i]), &want); err != nil {
			t.Fatalf("%s line %d: %v", wantFile, i+1, err)
		}
		got := evalCase(t, code, g)
		_, isKnown := differs[code]
		switch {
		case got == strings.Join(want, " | ") && isKnown:
			t.Errorf("%s now agrees with CPython: take it off %s", code, knownFile)
		case got != strings.Join(want, " | ") && !isKnown:
			failed++
			t.Errorf("%s\n got: %s\nwant: %s", code, got, strings.Join(want, " | "))
		}
	}
	if failed > 0 {
		t.Logf("%d of %d cases differ from CPython", failed, len(cases))
	}
}

// evalCase runs one expression and describes its outcome as the
// expectations do: "ok | text" or "err | Class | message".
func evalCase(t *testing.T, code string, g starlark.StringDict) string {
	res, err := run(t, code, interp.Options{Predeclared: g})
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "line 1: ")
		var ex *Exception
		if errors.As(err, &ex) {
			return "err | " + ex.Class + " | " + ex.Msg
		}
		return "err | ? | " + msg
	}
	if s, ok := res.Value.(starlark.String); ok {
		return "ok | " + string(s)
	}
	return "ok | " + res.Text
}

func readLines(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func osexec(name string, args ...string) ([]byte, error) {
	cmd := osexecpkg.Command(name, args...)
	cmd.Stderr = os.Stderr
	return cmd.Output()
}
