package objects_test

import (
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
	"github.com/onetool-dev/onetool/interp/stdlib"
)

// The programs of testdata/*.py each exercise a part of the object model;
// their .out files are what CPython 3.11 prints (go test -update writes
// them with python3).
var update = flag.Bool("update", false, "regenerate testdata/*.out with python3")

func globals() starlark.StringDict {
	g := stdlib.Globals(0)
	g.Freeze()
	return g
}

func run(code string, opts interp.Options) (*interp.Result, error) {
	opts.Predeclared = globals()
	opts.Parse = python.Parse
	if opts.Timeout == 0 {
		opts.Timeout = 20 * time.Second
	}
	return interp.Exec(context.Background(), code, opts)
}

func TestProgramsAsCPython(t *testing.T) {
	files, err := filepath.Glob("testdata/*.py")
	if err != nil || len(files) == 0 {
		t.Fatalf("no programs: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".py")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			outFile := strings.TrimSuffix(f, ".py") + ".out"
			if *update {
				cmd := exec.Command("python3", "-S", filepath.Base(f))
				cmd.Dir = "testdata"
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("python3 %s: %v", f, err)
				}
				if err := os.WriteFile(outFile, out, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(outFile)
			if err != nil {
				t.Fatal(err)
			}
			res, err := run(string(src), interp.Options{})
			if err != nil {
				t.Fatalf("%v", err)
			}
			if got := res.Printed; got != strings.TrimSuffix(string(want), "\n") {
				t.Errorf("differs from CPython:\n%s", lineDiff(got, strings.TrimSuffix(string(want), "\n")))
			}
		})
	}
}

// lineDiff shows the first line where got and want differ.
func lineDiff(got, want string) string {
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
			return "line " + itoa(i+1) + ":\n got  " + gl + "\n want " + wl
		}
	}
	return ""
}

func itoa(i int) string { return strconv.Itoa(i) }

// isBudget reports a budget's error: steps, memory, time.
func isBudget(err error) bool {
	return errors.Is(err, interp.ErrLimit) || errors.Is(err, interp.ErrCancelled)
}
