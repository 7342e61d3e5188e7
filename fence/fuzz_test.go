package fence_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/fence"
)

// FuzzStrip checks properties that hold for every input. The oracles below
// are written independently of the implementation, from SPEC §2.1, so that a
// shared mistake does not hide a bug. The committed corpus in
// testdata/fuzz/FuzzStrip covers each rule; run the fuzzer with
//
//	go test -fuzz=FuzzStrip -fuzztime=60s ./fence/
func FuzzStrip(f *testing.F) {
	for _, seed := range []string{
		"",
		"x = 1",
		">>> print(1)",
		"__run\n```python\nx = 1\n```\nprose",
		"!onetool x",
		"````\n```\n````",
		"```py\nx = 1```",
		"`x`",
		"\tif x:\n\t\ty = \"\t\"",
		"a\r\n\rb",
		"  \n    x\n  \n    y\n",
		"__other = 3",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := fence.Strip(in)
		if err != nil {
			checkError(t, in, out, err)
			return
		}
		checkShape(t, in, out)
		checkIdempotent(t, out)
		checkUnchanged(t, in, out)
		checkLines(t, in, out)
		checkFenced(t, in, out)
	})
}

// checkError: the only error is the !onetool rejection, with no code.
func checkError(t *testing.T, in, out string, err error) {
	if !errors.Is(err, fence.ErrBangPrefix) || out != "" {
		t.Fatalf("Strip(%q) = %q, %v; the only error is ErrBangPrefix", in, out, err)
	}
	if !strings.Contains(normalize(in), "!onetool") {
		t.Fatalf("Strip(%q) rejected input without !onetool", in)
	}
}

// checkShape: the result is LF-only, starts and ends with code, and every
// line is dedented with spaces: no whitespace-only line, no tab in
// indentation.
func checkShape(t *testing.T, in, out string) {
	if strings.Contains(out, "\r") {
		t.Fatalf("Strip(%q) = %q contains CR", in, out)
	}
	if out != strings.Trim(out, ascii) {
		t.Fatalf("Strip(%q) = %q has surrounding whitespace", in, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if line != "" && strings.Trim(line, ascii) == "" {
			t.Fatalf("Strip(%q) = %q has a whitespace-only line", in, out)
		}
		if strings.Contains(leading(line), "\t") {
			t.Fatalf("Strip(%q) = %q has a tab in indentation", in, out)
		}
	}
}

// checkIdempotent: code without backticks and without a prefix at its start
// is left as it is by a second Strip.
func checkIdempotent(t *testing.T, out string) {
	if strings.Contains(out, "`") || startsWithTrigger(out) {
		return
	}
	again, err := fence.Strip(out)
	if err != nil || again != out {
		t.Fatalf("Strip(%q) = %q, %v; want it unchanged", out, again, err)
	}
}

// checkUnchanged: input that is already clean code comes back unchanged.
func checkUnchanged(t *testing.T, in, out string) {
	if strings.ContainsAny(in, "`!\r\t") || in != strings.Trim(in, ascii) || startsWithTrigger(in) {
		return
	}
	for _, line := range strings.Split(in, "\n") {
		if line != "" && strings.Trim(line, ascii) == "" {
			return
		}
	}
	if out != in {
		t.Fatalf("Strip(%q) = %q; clean code must pass unchanged", in, out)
	}
}

// checkLines: without backticks or a prefix, Strip only changes whitespace
// before and between lines: the same lines, in the same order, remain.
func checkLines(t *testing.T, in, out string) {
	if strings.Contains(in, "`") || startsWithTrigger(in) {
		return
	}
	want := contentLines(normalize(in))
	got := contentLines(out)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("Strip(%q) = %q; lines changed:\n got %q\nwant %q", in, out, got, want)
	}
}

// checkFenced: wrapping code without backticks in a fence with a language
// tag and prose after it gives the same result as the bare code.
func checkFenced(t *testing.T, in, out string) {
	if strings.Contains(in, "`") || startsWithTrigger(in) {
		return
	}
	fenced, err := fence.Strip("```python\n" + in + "\n```\nThis prints `x`.")
	if err != nil || fenced != out {
		t.Fatalf("fenced %q gave %q, %v; bare gave %q", in, fenced, err, out)
	}
}

// ascii is the whitespace Strip trims; Unicode spaces are left to Starlark.
const ascii = " \t\n\v\f\r"

// normalize turns CRLF and CR into LF, as step 1 does.
func normalize(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// leading returns the indentation of line: its leading spaces and tabs.
func leading(line string) string {
	return line[:len(line)-len(strings.TrimLeft(line, " \t"))]
}

// startsWithTrigger reports whether s, once whitespace is trimmed, starts
// with a trigger prefix ending at whitespace or the end, or with !onetool:
// text that Strip changes beyond whitespace even without backticks.
func startsWithTrigger(s string) bool {
	s = strings.TrimLeft(normalize(s), ascii)
	if strings.HasPrefix(s, "!onetool") {
		return true
	}
	for _, p := range []string{">>>", "__run", "__ot", "__ot__run", "__onetool", "__onetool__run", "mcp__onetool__run"} {
		if rest, ok := strings.CutPrefix(s, p); ok && (rest == "" || strings.ContainsAny(rest[:1], ascii)) {
			return true
		}
	}
	return false
}

// contentLines returns the lines of s between the first and last non-blank
// line, each without surrounding whitespace: what dedenting must keep.
func contentLines(s string) []string {
	var lines []string
	for _, line := range strings.Split(s, "\n") {
		lines = append(lines, strings.Trim(line, ascii))
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
