//go:build linux

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestClassesAgainstCPython runs the class-heavy programs of
// testdata/perf (records with __lt__ sorted, a simulation with methods
// and properties, dataclasses grouped and compared: issue 30, item 7)
// with `onetool run` and with CPython, and checks that both print the
// same text, at a small size and with no timing by default.
//
// With ONETOOL_WRANGLE_REPS=n it is the side-by-side of
// docs/benchmarks.md ("Classes (issue 30)"): the full size, n
// alternating runs of each process, the medians of their CPU time (user
// + system) and the ratio to CPython's; ONETOOL_WRANGLE_OTHER adds
// another onetool build to the rotation:
//
//	ONETOOL_WRANGLE_REPS=5 go test ./cmd/onetool -run ClassesAgainstCPython -v
func TestClassesAgainstCPython(t *testing.T) {
	py := cpython(t)
	reps, _ := strconv.Atoi(os.Getenv("ONETOOL_WRANGLE_REPS"))
	full := reps > 0
	if !full {
		reps = 1
	}
	ot := onetoolBinary(t)
	for _, name := range []string{"classes_sort", "classes_sim", "classes_dataclass"} {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile("../../testdata/perf/" + name + ".py")
			if err != nil {
				t.Fatal(err)
			}
			code := string(src)
			if !full {
				// A small size: N a fiftieth, STEPS a tenth.
				code = scaleLine(code, "N", 50)
				code = scaleLine(code, "STEPS", 10)
			}
			prog := filepath.Join(t.TempDir(), name+".py")
			if err := os.WriteFile(prog, []byte(code), 0o644); err != nil {
				t.Fatal(err)
			}
			contenders := []struct{ name, bin string }{{"cpython", py}, {"onetool", ot}}
			if other := os.Getenv("ONETOOL_WRANGLE_OTHER"); other != "" {
				contenders = append(contenders, struct{ name, bin string }{"other", other})
			}
			cpu := make([][]time.Duration, len(contenders))
			var want string
			for range reps {
				for i, c := range contenders {
					args := []string{"-S", prog}
					if c.name != "cpython" {
						args = []string{"run", prog}
					}
					out, used, _ := measure(t, c.bin, args...)
					out = strings.TrimRight(out, "\n")
					if want == "" {
						want = out
					} else if out != want {
						t.Fatalf("%s printed\n%s\nCPython printed\n%s", c.name, out, want)
					}
					cpu[i] = append(cpu[i], used)
				}
			}
			if !full {
				return
			}
			base := median(cpu[0])
			for i, c := range contenders {
				t.Logf("%-8s CPU %6.2fs (%.2f×)  %v", c.name, median(cpu[i]).Seconds(),
					float64(median(cpu[i]))/float64(base), cpu[i])
			}
		})
	}
}

// scaleLine divides the value of the program's line `name = <int>` by div.
func scaleLine(src, name string, div int) string {
	re := regexp.MustCompile(`(?m)^` + name + ` = ([0-9_]+)$`)
	return re.ReplaceAllStringFunc(src, func(line string) string {
		n, err := strconv.Atoi(strings.ReplaceAll(re.FindStringSubmatch(line)[1], "_", ""))
		if err != nil {
			return line
		}
		return name + " = " + strconv.Itoa(max(n/div, 1))
	})
}
