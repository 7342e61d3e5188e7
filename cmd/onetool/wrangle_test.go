//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWrangleAgainstCPython runs testdata/perf/wrangle.py (rows grouped,
// sorted and counted, a word count: issue 20, item 4) with `onetool run`
// and with CPython, and checks that both print the same text. By default
// it does so once, at a small size, and asserts no timing.
//
// With ONETOOL_WRANGLE_REPS=n it is the side-by-side of
// docs/benchmarks.md: the full size, n repetitions of each process,
// alternating, and the medians of their CPU time (user + system) and peak
// RSS, with the ratios:
//
//	ONETOOL_WRANGLE_REPS=5 go test ./cmd/onetool -run WrangleAgainstCPython -v
//
// ONETOOL_WRANGLE_OTHER=/path/to/onetool adds another build to the
// rotation (before and after a change, in one sitting);
// ONETOOL_WRANGLE_PYTHON names the interpreter (default: the one python3
// resolves to, not a version manager's shim, which costs a start of its
// own).
func TestWrangleAgainstCPython(t *testing.T) {
	py := cpython(t)
	reps, _ := strconv.Atoi(os.Getenv("ONETOOL_WRANGLE_REPS"))
	rows, words := 2000, 800
	if reps > 0 {
		rows, words = 200_000, 80_000
	} else {
		reps = 1
	}
	src, err := os.ReadFile("../../testdata/perf/wrangle.py")
	if err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(t.TempDir(), "wrangle.py")
	if err := os.WriteFile(prog, []byte(wrangleSize(string(src), rows, words)), 0o644); err != nil {
		t.Fatal(err)
	}
	contenders := []struct{ name, bin string }{{"cpython", py}, {"onetool", onetoolBinary(t)}}
	if other := os.Getenv("ONETOOL_WRANGLE_OTHER"); other != "" {
		contenders = append(contenders, struct{ name, bin string }{"other", other})
	}
	cpu := make([][]time.Duration, len(contenders))
	rss := make([][]int64, len(contenders))
	var want string
	for range reps {
		for i, c := range contenders {
			args := []string{prog}
			if c.name != "cpython" {
				args = []string{"run", prog}
			}
			out, used, maxRSS := measure(t, c.bin, args...)
			out = strings.TrimRight(out, "\n")
			if want == "" {
				want = out
			} else if out != want {
				t.Fatalf("%s printed\n%s\nCPython printed\n%s", c.name, out, want)
			}
			cpu[i] = append(cpu[i], used)
			rss[i] = append(rss[i], maxRSS)
		}
	}
	if !strings.Contains(want, fmt.Sprintf("rows: %d", rows)) {
		t.Fatalf("unexpected output:\n%s", want)
	}
	if reps == 1 {
		return
	}
	t.Logf("%d rows, %d words, medians of %d alternating runs (%s)", rows, words, reps, py)
	base := median(cpu[0])
	baseRSS := median(rss[0])
	for i, c := range contenders {
		t.Logf("%-8s CPU %6.2fs (%.2f×)  peak RSS %6.1f MiB (%.2f×)   CPU %v  RSS KiB %v",
			c.name, median(cpu[i]).Seconds(), float64(median(cpu[i]))/float64(base),
			float64(median(rss[i]))/1024, float64(median(rss[i]))/float64(baseRSS), cpu[i], rss[i])
	}
}

// measure runs bin and returns what it printed, its CPU time (user +
// system) and its peak RSS in KiB, from the rusage wait4 returns.
func measure(t *testing.T, bin string, args ...string) (string, time.Duration, int64) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s%s", bin, args, err, out.String(), errb.String())
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	used := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return out.String(), used, ru.Maxrss
}

// cpython is the interpreter python3 resolves to (sys.executable), or
// ONETOOL_WRANGLE_PYTHON; the test is skipped without one.
func cpython(t *testing.T) string {
	t.Helper()
	if py := os.Getenv("ONETOOL_WRANGLE_PYTHON"); py != "" {
		return py
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable if sys.version_info >= (3, 8) else '')").Output()
	if err != nil {
		t.Skipf("python3: %v", err)
	}
	py := strings.TrimSpace(string(out))
	if py == "" {
		t.Skip("python3 is older than 3.8")
	}
	return py
}

// wrangleSize sets the program's N and WORDS.
func wrangleSize(src string, rows, words int) string {
	src = regexp.MustCompile(`(?m)^N = .*$`).ReplaceAllString(src, "N = "+strconv.Itoa(rows))
	return regexp.MustCompile(`(?m)^WORDS = .*$`).ReplaceAllString(src, "WORDS = "+strconv.Itoa(words))
}

func median[T int64 | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
