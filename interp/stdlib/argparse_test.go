package stdlib

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// runArgv runs code as `python3 -c code` runs it: sys.argv is ['-c'],
// so the parsers' prog is "-c" on both sides.
func runArgv(code string, argv []string) (string, error) {
	opts := interp.Options{Predeclared: WithArgv(globals(), argv, append([]string{"python3"}, argv...)), Parse: python.Parse,
		Timeout: 10 * time.Second, MaxSteps: 5_000_000, MaxMemory: 64 << 20}
	res, err := interp.Exec(context.Background(), code, opts)
	if err != nil {
		var e *interp.Error
		if errors.As(err, &e) {
			return e.Printed, err
		}
		return "", err
	}
	return res.Printed, nil
}

// TestProgramsArgparse compares what each program of
// testdata/argparse_programs.txt prints (stdout and stderr, in order)
// with what `python3 -c` printed (the .want file; -update regenerates it).
func TestProgramsArgparse(t *testing.T) {
	const file = "testdata/argparse_programs.txt"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	progs := splitPrograms(string(data))
	wantFile := strings.TrimSuffix(file, ".txt") + ".want"
	if *update {
		var outs []string
		for _, p := range progs {
			cmd := exec.Command("python3", "-u", "-c", p)
			cmd.Env = append(os.Environ(), "PYTHONIOENCODING=utf-8", "COLUMNS=")
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
		got, err := runArgv(p, []string{"-c"})
		if err != nil {
			t.Errorf("program %d failed: %v\n%s", i+1, err, p)
			continue
		}
		if got != "" && !strings.HasSuffix(got, "\n") {
			got += "\n"
		}
		if got != wants[i] {
			t.Errorf("program %d:\n%s\n--- got:\n%s\n--- CPython:\n%s", i+1, p, got, wants[i])
		}
	}
}

// FuzzArgparse parses random argument lists with a parser of every kind
// of argument: it may print and exit, never panic or hang.
func FuzzArgparse(f *testing.F) {
	for _, s := range []string{"", "-v", "--n\x003\x00x", "--\x00-x", "-vvv\x00--mode=a", "sub\x00-q\x00--", "--n=\x00-", "-\x00--no-flag\x00--fl"} {
		f.Add(s)
	}
	const prog = `import argparse
p = argparse.ArgumentParser(prog="f", exit_on_error=False)
p.add_argument("-v", action="count")
p.add_argument("--n", type=int, nargs="?", const=1)
p.add_argument("--mode", choices=["a", "b"])
p.add_argument("--flag", action=argparse.BooleanOptionalAction)
p.add_argument("-x", nargs=2)
g = p.add_mutually_exclusive_group()
g.add_argument("--on", action="store_true")
g.add_argument("--off", action="store_true")
s = p.add_subparsers(dest="cmd")
q = s.add_parser("sub")
q.add_argument("-q", action="append")
q.add_argument("rest", nargs="*")
p.add_argument("tail", nargs=argparse.REMAINDER)
try:
    print(p.parse_known_args(ARGS))
except (SystemExit, argparse.ArgumentError) as e:
    print(type(e).__name__)
`
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 2000 {
			return
		}
		var lit []string
		for _, a := range strings.Split(s, "\x00") {
			lit = append(lit, pyStrLiteral(a))
		}
		code := strings.Replace(prog, "ARGS", "["+strings.Join(lit, ", ")+"]", 1)
		_, err := runArgv(code, []string{"-c"})
		if err != nil && !strings.Contains(err.Error(), "budget") && !strings.Contains(err.Error(), "limit") {
			t.Fatalf("%q: %v", s, err)
		}
	})
}

// pyStrLiteral is a Python str literal of s (its runes as \U escapes
// where they are not plain ASCII).
func pyStrLiteral(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		if r >= ' ' && r < 0x7f && r != '"' && r != '\\' {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "\\U%08x", r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
