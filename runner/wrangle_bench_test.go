package runner

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"testing"
)

// BenchmarkWrangle runs testdata/perf/wrangle.py (rows grouped, sorted and
// counted, a word count) through the whole pipeline at a tenth of its
// size: the in-process view of the side-by-side with CPython that
// TestWrangleAgainstCPython (cmd/onetool) makes, for profiles:
//
//	go test ./runner -run '^$' -bench Wrangle -benchmem -cpuprofile cpu.out
func BenchmarkWrangle(b *testing.B) {
	code := wrangleProgram(b, 20_000, 8_000)
	r := newBenchRunner(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := r.Exec(ctx, code); res.IsError() {
			b.Fatal(res.Text)
		}
	}
}

// wrangleProgram is testdata/perf/wrangle.py with its sizes set.
func wrangleProgram(tb testing.TB, rows, words int) string {
	tb.Helper()
	src, err := os.ReadFile("../testdata/perf/wrangle.py")
	if err != nil {
		tb.Fatal(err)
	}
	s := regexp.MustCompile(`(?m)^N = .*$`).ReplaceAllString(string(src), "N = "+strconv.Itoa(rows))
	return regexp.MustCompile(`(?m)^WORDS = .*$`).ReplaceAllString(s, "WORDS = "+strconv.Itoa(words))
}
