package main

// Figures and lists in README.md and docs/ that the binary can produce
// are checked against its own output here (issue 28), so that a change
// that moves one fails until the docs follow.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp/pyrt"
	"github.com/onetool-dev/onetool/interp/python"
	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/mcpserver"
)

func readDoc(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// section returns the text of a doc from the heading up to the next
// heading of the same or a higher level.
func section(t *testing.T, doc, heading string) string {
	t.Helper()
	i := strings.Index(doc, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("no section %q", heading)
	}
	rest := doc[i+len(heading)+2:]
	level := strings.Repeat("#", strings.Count(strings.Fields(heading)[0], "#"))
	if j := regexp.MustCompile(`(?m)^#{1,` + strconv.Itoa(len(level)) + `} `).FindStringIndex(rest); j != nil {
		rest = rest[:j[0]]
	}
	return rest
}

// runCLI runs onetool in this process with no configuration file.
func runCLI(t *testing.T, args ...string) (string, int) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("ONETOOL_CONFIG", "")
	var out, errOut bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errOut)
	return out.String() + errOut.String(), code
}

// The table of docs/language.md's "What is refused" is the front end's
// catalog, row for row, and each construct, run, gives the error and
// hint the table shows.
func TestDocsRefusedConstructs(t *testing.T) {
	doc := section(t, readDoc(t, "docs/language.md"), "## What is refused")
	var rows []string
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| you write") {
			rows = append(rows, line)
		}
	}
	var want []string
	for _, r := range python.Refusals() {
		want = append(want, fmt.Sprintf("| %s | `%s` | %s |", r.Construct, r.Message, r.Hint))
		out, code := runCLI(t, "run", "-e", r.Example)
		if code != exitRun || !strings.Contains(out, ": "+r.Message+"\n") || !strings.Contains(out, "\nhint: "+r.Hint) {
			t.Errorf("%q: exit %d, want the refusal %q with hint %q:\n%s", r.Example, code, r.Message, r.Hint, out)
		}
	}
	if !slices.Equal(rows, want) {
		t.Errorf("docs/language.md's table of refused constructs is stale; the front end refuses:\n%s", strings.Join(want, "\n"))
	}
}

// The builtins docs/language.md says a program cannot have are those
// that raise NameError when called.
func TestDocsUnavailableBuiltins(t *testing.T) {
	doc := readDoc(t, "docs/language.md")
	_, after, ok := strings.Cut(doc, "CPython fails on a missing name only when it is reached:")
	if !ok {
		t.Fatal("docs/language.md no longer lists the unavailable builtins")
	}
	sentence, _, _ := strings.Cut(after, " raise\n")
	var listed []string
	for _, m := range regexp.MustCompile("`(\\w+)`").FindAllStringSubmatch(sentence, -1) {
		listed = append(listed, m[1])
	}
	slices.Sort(listed)
	if want := pyrt.UnavailableBuiltins(); !slices.Equal(listed, want) {
		t.Errorf("docs/language.md lists the unavailable builtins %v; the binary's are %v", listed, want)
	}
	for _, name := range listed {
		out, _ := runCLI(t, "run", "-e", "try:\n    "+name+"()\nexcept NameError as e:\n    print(e)")
		if want := fmt.Sprintf("name '%s' is not defined", name); !strings.Contains(out, want) {
			t.Errorf("%s(): %q, want %q", name, out, want)
		}
	}
}

// The modules docs/language.md's table lists are the modules a program can
// import, and the hint of an unknown module it shows is the binary's.
func TestDocsModuleList(t *testing.T) {
	doc := readDoc(t, "docs/language.md")
	out, _ := runCLI(t, "run", "-e", "import json\nimport httpx")
	hint := ""
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "hint: ") {
			hint = line
		}
	}
	if hint == "" || !strings.Contains(doc, "\n"+hint+"\n") {
		t.Errorf("docs/language.md's example of an unknown module is stale; the binary says:\n%s", out)
	}
	_, list, _ := strings.Cut(hint, "Modules: ")
	binary := strings.Split(list, ", ")
	var table []string
	for _, line := range strings.Split(section(t, doc, "## Modules"), "\n") {
		if rest, ok := strings.CutPrefix(line, "| `"); ok {
			name, _, _ := strings.Cut(rest, "`")
			top, _, _ := strings.Cut(name, ".")
			if !slices.Contains(table, top) {
				table = append(table, top)
			}
		}
	}
	table = append(table, "typing") // all names, no functions: described below the table
	slices.Sort(table)
	if !slices.Equal(table, binary) {
		t.Errorf("docs/language.md's module table has %v; the binary has %v", table, binary)
	}
}

// getting-started.md's steps are numbered in order, its first paragraph
// counts them, and every onetool command its shell blocks show, and its
// program, run without an error on the built-in defaults.
func TestDocsGettingStarted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	doc := readDoc(t, "docs/getting-started.md")
	steps := regexp.MustCompile(`(?m)^## (\d+)\. `).FindAllStringSubmatch(doc, -1)
	for i, s := range steps {
		if s[1] != strconv.Itoa(i+1) {
			t.Errorf("step %d is numbered %s", i+1, s[1])
		}
	}
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
	if n := len(steps); n >= len(words) || !strings.Contains(doc, "in "+words[n]+" steps") {
		t.Errorf("getting-started.md has %d steps; its first paragraph says otherwise", n)
	}
	bin := onetoolBinary(t)
	runBlocks(t, doc, bin)

	blocks := strings.Split(doc, "```python\n")
	if len(blocks) < 2 {
		t.Fatal("getting-started.md shows no program")
	}
	program, _, _ := strings.Cut(blocks[len(blocks)-1], "```")
	cmd := exec.Command(bin, "run", "-")
	cmd.Stdin = strings.NewReader(program)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "ONETOOL_CONFIG=")
	cmd.Dir = t.TempDir()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("getting-started.md's program fails: %v\n%s", err, out)
	}
}

// runBlocks runs every ```sh block of doc whose commands are onetool's,
// with bin as onetool, stopping a block at its first failure. Commands
// that serve or install, and those of other programs, are left out.
func runBlocks(t *testing.T, doc, bin string) {
	t.Helper()
	dir := t.TempDir()
	os.Symlink(bin, filepath.Join(dir, "onetool"))
	ran := 0
	for _, block := range strings.Split(doc, "```sh\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		block = strings.ReplaceAll(block, "go run ./cmd/onetool ", "onetool ")
		var keep []string
		lines := strings.Split(block, "\n")
		for i := 0; i < len(lines); i++ {
			line := lines[i]
			// A command whose quote spans lines runs whole.
			for strings.Count(line, "'")%2 == 1 && i+1 < len(lines) {
				i++
				line += "\n" + lines[i]
			}
			f := strings.Fields(line)
			if len(f) < 2 || f[0] != "onetool" || f[1] == "serve" {
				continue
			}
			keep = append(keep, line)
		}
		if len(keep) == 0 {
			continue
		}
		ran += len(keep)
		script := "set -e\n" + strings.Join(keep, "\n")
		cmd := exec.Command("sh", "-c", script)
		cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+t.TempDir(), "ONETOOL_CONFIG=")
		cmd.Dir = t.TempDir()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("a documented command fails: %v\n%s\n---\n%s", err, script, out)
		}
	}
	if ran == 0 {
		t.Error("no onetool command found in the doc's shell blocks")
	}
}

// The README says the first build takes a few minutes, installs the
// binary before its first `onetool …` example, and its quick-start
// commands run.
func TestDocsReadmeQuickStart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	doc := readDoc(t, "README.md")
	if !strings.Contains(doc, "few minutes") {
		t.Error("README.md does not say that the first build takes a few minutes")
	}
	install := strings.Index(doc, "go install ./cmd/onetool")
	first := regexp.MustCompile("(?m)^onetool ").FindStringIndex(doc)
	if install < 0 || first == nil || first[0] < install {
		t.Error("README.md shows an `onetool …` command before `go install ./cmd/onetool`")
	}
	runBlocks(t, section(t, doc, "## Quick start"), onetoolBinary(t))
}

// The listing size with the built-in packs is the figure README.md gives.
func TestDocsListingSize(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	list, instr := mcpserver.ListingSize(r)
	want := fmt.Sprintf("%s characters with the built-in packs", thousands(list+instr))
	if doc := readDoc(t, "README.md"); !strings.Contains(strings.Join(strings.Fields(doc), " "), want) {
		t.Errorf("README.md does not say %q", want)
	}
}

// thousands writes n with commas between groups of three digits, as the
// docs write figures.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// checkBenchFigures compares `onetool bench tokens` with the four
// reference servers (bench, its output) with docs/servers.md's table
// and README.md's sentence.
func checkBenchFigures(t *testing.T, r *runner.Runner) {
	t.Helper()
	var out bytes.Buffer
	if err := benchTokens(context.Background(), &out, r, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	var table []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		line = strings.TrimRight(line, " ")
		if strings.HasPrefix(line, "tokens: ") {
			continue // the tokenizer's note, given in prose in the doc
		}
		table = append(table, line)
	}
	got := strings.Join(table, "\n")
	servers := readDoc(t, "docs/servers.md")
	_, block, _ := strings.Cut(section(t, servers, "## What it saves"), "```\n")
	block, _, _ = strings.Cut(block, "```")
	if strings.TrimSpace(block) != strings.TrimSpace(got) {
		t.Errorf("docs/servers.md's table is stale; onetool bench tokens prints:\n%s", got)
	}
	// README: "pays 30,105 characters (6,320 tokens) … it pays 1,594
	// characters (389 tokens), 94.7% less".
	num := func(row string, col int) int {
		for _, line := range table {
			if strings.HasPrefix(line, row) {
				f := strings.Fields(strings.TrimPrefix(line, row))
				n, _ := strconv.Atoi(f[col])
				return n
			}
		}
		t.Fatalf("no row %q in:\n%s", row, got)
		return 0
	}
	direct, directTok := num("all servers, directly", 1), num("all servers, directly", 2)
	one, oneTok := num("onetool: tools/list + instructions", 1), num("onetool: tools/list + instructions", 2)
	want := fmt.Sprintf("pays %s characters (%s tokens) of tool listings in every conversation; through onetool it pays %s characters (%s tokens), %.1f%% less",
		thousands(direct), thousands(directTok), thousands(one), thousands(oneTok), 100*(1-float64(one)/float64(direct)))
	if readme := strings.Join(strings.Fields(readDoc(t, "README.md")), " "); !strings.Contains(readme, want) {
		t.Errorf("README.md does not say %q", want)
	}
	bench := readDoc(t, "docs/benchmarks.md")
	for _, row := range []string{
		fmt.Sprintf("| context cost, four reference servers directly (`bench tokens`) | **%s characters**, %s tokens |", thousands(direct), thousands(directTok)),
		fmt.Sprintf("| context cost, onetool: tools/list + instructions | **%s characters**, %s tokens |", thousands(one), thousands(oneTok)),
	} {
		if !strings.Contains(bench, row) {
			t.Errorf("docs/benchmarks.md lacks the row %q", row)
		}
	}
}

// The defaults docs/configuration.md's tables give are the binary's.
func TestDocsConfigDefaults(t *testing.T) {
	size := func(b config.ByteSize) string {
		for _, u := range []struct {
			name string
			n    config.ByteSize
		}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
			if b%u.n == 0 {
				return fmt.Sprintf("%d%s", b/u.n, u.name)
			}
		}
		return fmt.Sprint(int64(b))
	}
	dur := func(d time.Duration) string {
		if d%time.Minute == 0 {
			return fmt.Sprintf("%dm", d/time.Minute)
		}
		return fmt.Sprintf("%ds", d/time.Second)
	}
	want := map[string]map[string]string{
		"### limits": {
			"max_steps":      fmt.Sprint(config.DefaultMaxSteps),
			"timeout":        dur(config.DefaultTimeout),
			"max_output":     size(config.DefaultMaxOutput),
			"max_tool_calls": fmt.Sprint(config.DefaultMaxToolCalls),
			"max_parallel":   fmt.Sprint(config.DefaultMaxParallel),
			"max_memory":     size(config.DefaultMaxMemory),
			"max_int_digits": fmt.Sprint(config.DefaultMaxIntDigits),
		},
		"### output": {"max_inline": fmt.Sprint(config.DefaultMaxInline)},
		"### serve": {
			"session_idle":         dur(config.DefaultSessionIdle),
			"max_sessions":         fmt.Sprint(config.DefaultMaxSessions),
			"session_memory":       size(config.DefaultSessionMemory),
			"session_memory_total": size(config.DefaultSessionMemoryTotal),
			"read_timeout":         dur(config.DefaultReadTimeout),
			"idle_timeout":         dur(config.DefaultIdleTimeout),
			"max_body":             size(config.DefaultMaxBody),
			"drain_timeout":        dur(config.DefaultDrainTimeout),
		},
	}
	doc := readDoc(t, "docs/configuration.md")
	for heading, keys := range want {
		sec := section(t, doc, heading)
		for key, def := range keys {
			row := fmt.Sprintf("| `%s` | `%s` |", key, def)
			if !strings.Contains(sec, row) {
				t.Errorf("docs/configuration.md %s: no row starting %q", heading, row)
			}
		}
	}
}
