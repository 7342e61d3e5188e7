package runner

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The differential corpus (testdata/corpus, see its README.md): Python
// programs written the way agents and code benchmarks write them, each with
// the output CPython 3.11 gives. TestCorpus runs every one through the
// runner and compares.

// updateCorpus regenerates the expected outputs with CPython:
// go test ./runner -run TestCorpus -update
var updateCorpus = flag.Bool("update", false, "regenerate testdata/corpus/*.out with python3 (CORPUS_PYTHON names another interpreter)")

// corpusMinAgreement is the share of the corpus that must agree with
// CPython, KNOWN or not: it is the test's only gate on agreement (issue 17
// asks for 97%; docs/language.md lists the programs that differ).
const corpusMinAgreement = 0.97

const (
	corpusPython = "3.11" // error messages change between CPython versions
)

var (
	corpusName = regexp.MustCompile(`^[0-9]{3,4}_[a-z0-9_]+\.py$`)
	// A program named NNN_error_*.py ends with an uncaught exception on purpose.
	corpusErrorName = regexp.MustCompile(`^[0-9]{3,4}_error_`)
	// errLine is the position an uncaught exception's text starts with.
	errLine = regexp.MustCompile(`^line [0-9]+: `)
	// errTrace is the call chain the runner appends: " (in f, called from
	// line 9 in g, called from line 12)", with "... N more calls ..." in
	// long chains. CPython's last traceback line has neither.
	errTrace = regexp.MustCompile(` \((?:in [\w.<>]+, called from line [0-9]+|\.\.\. [0-9]+ more calls \.\.\.)(?: (?:in [\w.<>]+, called from line [0-9]+|\.\.\. [0-9]+ more calls \.\.\.))*(?: in [\w.<>]+)?\)$`)
)

func TestCorpus(t *testing.T) {
	testCorpus(t, corpusSet{dir: "../testdata/corpus", minPrograms: 220, minAgreement: corpusMinAgreement})
}

// TestDataModel runs the data-model probes (testdata/datamodel, see its
// README.md): short programs each checking one rule of CPython's object
// model, with CPython's outputs, compared as the corpus is.
func TestDataModel(t *testing.T) {
	testCorpus(t, corpusSet{dir: "../testdata/datamodel", minPrograms: 90, minAgreement: dataModelMinAgreement})
}

// dataModelMinAgreement is the share of the data-model probes that must
// agree: each probes a corner of CPython's rules on purpose, and
// testdata/datamodel/KNOWN says why each of the others differs.
const dataModelMinAgreement = 0.95

// corpusSet is a directory of programs with CPython's outputs.
type corpusSet struct {
	dir          string
	minPrograms  int
	minAgreement float64
}

func testCorpus(t *testing.T, set corpusSet) {
	corpusDir := set.dir
	progs := corpusPrograms(t, set)
	if *updateCorpus {
		regenerateCorpus(t, corpusDir, progs)
	}
	known := corpusKnown(t, corpusDir, progs)

	// A front-end bug that loops must not stall the suite for the 30 s of
	// the default budget: every corpus program finishes in milliseconds.
	limits := DefaultLimits()
	limits.Timeout = 5 * time.Second
	r := newRunner(t, WithLimits(limits))
	defer r.Close()

	var (
		mu      sync.Mutex
		results []corpusResult
	)
	// The subtests run in parallel; t.Run returns once all of them have.
	// Run one program alone with -run 'TestCorpus/programs/001_'.
	t.Run("programs", func(t *testing.T) {
		for _, name := range progs {
			t.Run(strings.TrimSuffix(name, ".py"), func(t *testing.T) {
				t.Parallel()
				src := readCorpusFile(t, corpusDir, name)
				want := strings.TrimSuffix(readCorpusFile(t, corpusDir, strings.TrimSuffix(name, ".py")+".out"), "\n")
				got := corpusOutput(r.Exec(context.Background(), src))
				res := corpusResult{name: name, same: got == want}
				res.reason, res.listed = known[name]
				if !res.same {
					res.first = corpusFirstDiff(got, want)
					t.Logf("differs from CPython:\n%s", corpusDiff(got, want))
				}
				mu.Lock()
				results = append(results, res)
				mu.Unlock()
			})
		}
	})
	if len(results) == 0 {
		return // -run picked no program
	}
	corpusReport(t, results, len(progs), set.minAgreement)
}

// corpusResult is how one program fared.
type corpusResult struct {
	name   string
	same   bool   // onetool's output is CPython's
	listed bool   // KNOWN lists the program
	reason string // KNOWN's reason
	first  string // where the outputs first differ, when they do
}

// corpusReport logs every disagreement, one line each, and the figure, and
// fails when too few programs agree. KNOWN is the triage of the
// disagreements, not a gate: a program that differs without being listed
// only counts against corpusMinAgreement, and one that is listed but agrees
// is reported for pruning, so that the test does not break each time the
// front end improves.
func corpusReport(t *testing.T, results []corpusResult, total int, minAgreement float64) {
	t.Helper()
	slices.SortFunc(results, func(a, b corpusResult) int { return strings.Compare(a.name, b.name) })
	agree, unlisted := 0, 0
	var diffs, prune []string
	for _, res := range results {
		switch {
		case res.same && res.listed:
			agree++
			prune = append(prune, res.name)
		case res.same:
			agree++
		case res.listed:
			diffs = append(diffs, fmt.Sprintf("%s: %s [KNOWN: %s]", res.name, res.first, res.reason))
		default:
			unlisted++
			diffs = append(diffs, fmt.Sprintf("%s: %s [not in KNOWN]", res.name, res.first))
		}
	}
	if len(diffs) > 0 {
		t.Logf("differ from CPython (-run 'TestCorpus/programs/NNN_' -v shows one in full):\n%s", strings.Join(diffs, "\n"))
	}
	if len(prune) > 0 {
		t.Logf("in KNOWN but agree with CPython now, take them off KNOWN:\n%s", strings.Join(prune, "\n"))
	}
	ran := len(results)
	share := float64(agree) / float64(ran)
	t.Logf("corpus: %d of %d agree (%.1f%%); %d differ, %d of them not in KNOWN", agree, ran, 100*share, ran-agree, unlisted)
	if ran == total && share < minAgreement {
		t.Errorf("corpus: %.1f%% agree with CPython, want at least %.1f%%", 100*share, 100*minAgreement)
	}
}

// corpusPrograms lists the programs of the corpus, checking their names
// and that every expected output has its program.
func corpusPrograms(t *testing.T, set corpusSet) []string {
	t.Helper()
	entries, err := os.ReadDir(set.dir)
	if err != nil {
		t.Fatal(err)
	}
	var progs []string
	have := map[string]bool{}
	for _, e := range entries {
		have[e.Name()] = true
	}
	for _, e := range entries {
		name := e.Name()
		switch filepath.Ext(name) {
		case ".py":
			if !corpusName.MatchString(name) {
				t.Errorf("%s: name a corpus program NNN_topic.py (lower case, digits, underscores)", name)
				continue
			}
			progs = append(progs, name)
		case ".out":
			if !have[strings.TrimSuffix(name, ".out")+".py"] {
				t.Errorf("%s has no program: remove it", name)
			}
		}
	}
	if len(progs) < set.minPrograms {
		t.Errorf("%s has %d programs, want at least %d", set.dir, len(progs), set.minPrograms)
	}
	return progs // os.ReadDir sorts by name
}

// corpusKnown reads KNOWN: the programs that still differ from CPython,
// one per line, the file name, a tab and the reason.
func corpusKnown(t *testing.T, corpusDir string, progs []string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpusDir, "KNOWN"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	exists := map[string]bool{}
	for _, p := range progs {
		exists[p] = true
	}
	known := map[string]string{}
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, reason, ok := strings.Cut(line, "\t")
		switch {
		case !ok || strings.TrimSpace(reason) == "":
			t.Errorf("KNOWN line %d: %q: want the file name, a tab, and the reason", i+1, line)
		case !exists[name]:
			t.Errorf("KNOWN line %d: no program %s in the corpus: take it off KNOWN", i+1, name)
		default:
			known[name] = reason
		}
	}
	return known
}

func readCorpusFile(t *testing.T, corpusDir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpusDir, name))
	if errors.Is(err, os.ErrNotExist) && strings.HasSuffix(name, ".out") {
		t.Fatalf("%s is missing: run go test ./runner -run TestCorpus -update", name)
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// corpusOutput is what a run shows in the shape of the .out files: what it
// printed, then, when it failed, "Error: Class: message" as CPython's last
// traceback line reads.
func corpusOutput(res *ExecResult) string {
	out := res.Printed
	if !res.IsError() {
		return out
	}
	// The text is the printed text, then the error.
	msg := strings.TrimPrefix(res.Text, res.Printed+"\n")
	msg = strings.TrimPrefix(msg, "Error: ")
	msg = errLine.ReplaceAllString(msg, "")
	msg = errTrace.ReplaceAllString(msg, "")
	if out != "" {
		out += "\n"
	}
	return out + "Error: " + msg
}

// corpusDiffLine is the index of the first line where got and want
// differ.
func corpusDiffLine(g, w []string) int {
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	return i
}

// corpusFirstDiff is the one-line summary of a disagreement: the first line
// that differs, as CPython and onetool print it.
func corpusFirstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	i := corpusDiffLine(g, w)
	line := func(l []string) string {
		if i < len(l) {
			return fmt.Sprintf("%q", l[i])
		}
		return "(no more output)"
	}
	return fmt.Sprintf("line %d: want %s, got %s", i+1, line(w), line(g))
}

// corpusDiff shows where got first departs from want, with a little
// context, quoting lines so that invisible differences show.
func corpusDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	i := corpusDiffLine(g, w)
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d (onetool %d lines, CPython %d lines)\n", i+1, len(g), len(w))
	for j := max(0, i-2); j < i; j++ {
		fmt.Fprintf(&b, "      %q\n", w[j])
	}
	for j := i; j < min(i+3, len(w)); j++ {
		fmt.Fprintf(&b, "want: %q\n", w[j])
	}
	for j := i; j < min(i+3, len(g)); j++ {
		fmt.Fprintf(&b, " got: %q\n", g[j])
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// regenerateCorpus rewrites every .out file with what CPython prints.
func regenerateCorpus(t *testing.T, corpusDir string, progs []string) {
	t.Helper()
	python := os.Getenv("CORPUS_PYTHON")
	if python == "" {
		python = "python3"
	}
	if _, err := exec.LookPath(python); err != nil {
		t.Skipf("-update needs %s to regenerate the expected outputs: %v", python, err)
	}
	// Ask the interpreter where it lives: a pyenv shim costs half a
	// second a program.
	out, err := exec.Command(python, "-c", "import sys; print(sys.executable); print('%d.%d' % sys.version_info[:2])").Output()
	if err != nil {
		t.Fatalf("%s: %v", python, err)
	}
	exe, version, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	if version != corpusPython {
		t.Fatalf("the corpus holds CPython %s's output and %s is %s: set CORPUS_PYTHON to a python%s", corpusPython, python, version, corpusPython)
	}

	// Starting a process dominates, not the CPU: run more than one a core.
	sem := make(chan struct{}, 2*runtime.NumCPU())
	var wg sync.WaitGroup
	for _, name := range progs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := runCPython(exe, corpusDir, name); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
}

// runCPython runs one program and writes its .out file. It runs the
// program under two hash seeds: an output that depends on the seed (a set
// of strings printed or iterated unsorted) is no expectation.
func runCPython(python, corpusDir, name string) error {
	text, err := cpythonOutput(python, corpusDir, name, "1")
	if err != nil {
		return err
	}
	again, err := cpythonOutput(python, corpusDir, name, "2")
	if err != nil {
		return err
	}
	if again != text {
		return fmt.Errorf("%s prints differently from one PYTHONHASHSEED to another: sort what it prints of sets and dicts built from them:\n%s", name, corpusDiff(again, text))
	}
	return os.WriteFile(filepath.Join(corpusDir, strings.TrimSuffix(name, ".py")+".out"), []byte(text), 0o644)
}

// cpythonOutput is what CPython shows of a program, in the shape of the
// .out files. -S skips site: the programs need only the standard
// library, and a site-packages .pth can cost a third of a second a
// program.
func cpythonOutput(python, corpusDir, name, hashSeed string) (string, error) {
	return cpythonRun(python, []string{"-S", name}, corpusDir, name, "PYTHONHASHSEED="+hashSeed)
}

// cpythonRun runs python with args in dir (env added to the process's)
// and returns what it showed of the program name in the shape of the
// .out files: what it printed, and for a NNN_error_* program, "Error: "
// and the last line of the traceback.
func cpythonRun(python string, args []string, dir, name string, env ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "PYTHONIOENCODING=utf-8", "PYTHONDONTWRITEBYTECODE=1"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	wantErr := corpusErrorName.MatchString(name)
	switch {
	case err == nil && wantErr:
		return "", fmt.Errorf("%s ended normally under CPython: a program named NNN_error_* must end with an uncaught exception", name)
	case errors.As(err, &exit) && !wantErr:
		return "", fmt.Errorf("%s failed under CPython (only NNN_error_* programs may):\n%s", name, stderr.String())
	case err != nil && !errors.As(err, &exit):
		return "", fmt.Errorf("%s: %w", name, err)
	}
	text := stdout.String()
	if wantErr {
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += "Error: " + lines[len(lines)-1] + "\n"
	}
	return text, nil
}

// The comparison must read an uncaught exception as CPython's last
// traceback line, whatever position and call chain the runner adds.
func TestCorpusOutput(t *testing.T) {
	fail := errors.New("failed")
	tests := []struct {
		res  ExecResult
		want string
	}{
		{ExecResult{Printed: "a\nb", Text: "a\nb"}, "a\nb"},
		{ExecResult{Text: "OK (no return value)"}, ""},
		{ExecResult{Printed: "x", Text: "x\nError: line 3: ValueError: invalid literal for int() with base 10: 'x'", Err: fail},
			"x\nError: ValueError: invalid literal for int() with base 10: 'x'"},
		{ExecResult{Text: "Error: line 2: KeyError: 'timeout' (in get_setting, called from line 12)", Err: fail},
			"Error: KeyError: 'timeout'"},
		{ExecResult{Text: "Error: line 5: ZeroDivisionError: division by zero (in average, called from line 9 in report, called from line 12)", Err: fail},
			"Error: ZeroDivisionError: division by zero"},
		{ExecResult{Text: "Error: line 9: RuntimeError: deep (in a, called from line 8 in b, called from line 7 in c, called from line 6 ... 3 more calls ... in z, called from line 1)", Err: fail},
			"Error: RuntimeError: deep"},
		{ExecResult{Text: "Error: line 4: AssertionError", Err: fail}, "Error: AssertionError"},
		// Parentheses of the message itself stay.
		{ExecResult{Text: "Error: line 1: ValueError: bad value (in header)", Err: fail}, "Error: ValueError: bad value (in header)"},
	}
	for _, tt := range tests {
		if got := corpusOutput(&tt.res); got != tt.want {
			t.Errorf("corpusOutput(%q) = %q, want %q", tt.res.Text, got, tt.want)
		}
	}
}
