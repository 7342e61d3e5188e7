package stdlib

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
)

// reEval evaluates one case as CPython's side does: a str result as
// itself, anything else as its repr.
func reEval(code string) pydiff.Outcome {
	return eval("_v = (" + code + ")\n_v if isinstance(_v, str) else repr(_v)")
}

func TestDifferentialRE(t *testing.T) {
	pydiff.Check(t, "testdata/re_cases.txt", *update, reEval)
}

// re stays within the run's budgets over a very large text: every
// search charges the text it reads, long texts are read through a reader
// that stops when the budget is spent, and results are checked against
// the memory budget before they grow.
func TestREBounded(t *testing.T) {
	for _, c := range []struct {
		name, code string
		opts       interp.Options
		want       error
	}{
		{"steps: sub over 2 MB", `re.sub("a", "bb", "a" * 2000000)`,
			interp.Options{MaxSteps: 1000000}, interp.ErrStepLimit},
		{"steps: one search over 10 MB", `re.search("(a|b)*c", "ab" * 5000000)`,
			interp.Options{MaxSteps: 1000000}, interp.ErrStepLimit},
		{"steps: \\b over 4 MB of text that is not ASCII (the VM)", `re.search(r"\bz\b", "é" * 2000000)`,
			interp.Options{MaxSteps: 1000000}, interp.ErrStepLimit},
		{"steps: a look-ahead pattern that backtracks exponentially", `re.match(r"(a+)+(?=b)", "a" * 40 + "c")`,
			interp.Options{MaxSteps: 1000000}, interp.ErrStepLimit},
		{"steps: a backreference over 4 MB", `re.search(r"(\w)\1z", "ab" * 2000000)`,
			interp.Options{MaxSteps: 1000000}, interp.ErrStepLimit},
		{"time: a backtracking pattern without end", `re.match(r"(x+x+)+(?!y)z", "x" * 60)`,
			interp.Options{Timeout: 150 * time.Millisecond}, interp.ErrTimeout},
		{"memory: sub with a huge replacement", `re.sub("a", "x" * 100000, "a" * 1000)`,
			interp.Options{MaxMemory: 4 << 20, Watchdog: interp.NewWatchdog()}, interp.ErrMemoryLimit},
		{"memory: findall over 1 MB", `re.findall(".", "x" * 1000000)`,
			interp.Options{MaxMemory: 4 << 20, Watchdog: interp.NewWatchdog()}, interp.ErrMemoryLimit},
		{"time: sub over 10 MB", `re.sub("(a|b)*c", "", "ab" * 5000000)`,
			interp.Options{Timeout: 150 * time.Millisecond}, interp.ErrTimeout},
	} {
		start := time.Now()
		_, err := run("import re\n"+c.code, c.opts)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
		if d := time.Since(start); d > 5*time.Second { // far beyond its budget, with room for a loaded machine
			t.Errorf("%s took %s", c.name, d)
		}
		if testing.Verbose() {
			t.Logf("%s: %s", c.name, time.Since(start))
		}
	}
}

// The backtracking matcher's recursion grows with the repeats of a group
// it goes through: past btMaxDepth it stops with a RecursionError, which
// a program can catch, instead of growing the Go stack without bound.
func TestREBacktrackDepth(t *testing.T) {
	_, err := run("import re\n"+`re.match(r"(?:ab|cd)*(?=e)", "ab" * 500000)`, interp.Options{})
	if err == nil || !strings.Contains(err.Error(), "RecursionError: maximum recursion depth exceeded while matching a regular expression") {
		t.Errorf("got %v, want a RecursionError", err)
	}
	res, err := run("import re\n"+`print(len(re.match(r"(?:ab|cd)*(?=e)", "ab" * 20000 + "e").group()))`, interp.Options{})
	if err != nil || res.Text != "40000" {
		t.Errorf("got %q, %v; want 40000", res.Text, err)
	}
}

// One module value serves concurrent runs: its pattern cache is shared
// and bounded.
func TestRECacheConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			code := "out = []\nfor k in range(300):\n    out.append(len(re.findall('a{' + str(k % 40 + 1) + '}', 'a' * 50)))\n"
			if i == 3 {
				code += "re.purge()\n"
			}
			code += "out[0]"
			res, err := run(code, interp.Options{})
			if err != nil || res.Text != "50" {
				t.Errorf("run %d: %v %v", i, res, err)
			}
		}(i)
	}
	wg.Wait()
}

// FuzzRePattern: compiling any pattern with any flags, then searching
// with it, never panics and never runs long: it is a match, no match,
// or re.error.
func FuzzRePattern(f *testing.F) {
	for _, s := range []string{`a+b`, `(?P<x>\d+)-(?P=x)`, `[\w-]+@[^\s]+`, `(?x) a # c`, `(?i:a)(?-i:b)`,
		`\b\Z$^\A`, `[]a-\d]`, `a{2,1}`, `(?<=x)`, `\x4g\u12\N{x}`, `((((a*)*)*)*)*b`, `[^\W\S]`, `(?aiLmsux)`} {
		f.Add(s, 0, "aaa bb\nc")
	}
	m := RE()
	search := m.Members["search"]
	f.Fuzz(func(t *testing.T, pattern string, flags int, text string) {
		thread := &starlark.Thread{}
		start := time.Now()
		_, err := starlark.Call(thread, search, starlark.Tuple{interp.MakeString(pattern), interp.MakeString(text),
			starlark.MakeInt(flags & 0x1ff)}, nil)
		if errors.Is(err, interp.ErrPanic) {
			t.Fatalf("%q: %v", pattern, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("%q took %s", pattern, d)
		}
	})
}

// re.error has CPython's attributes: the message without its position,
// the pattern, and the position as an index, a line and a column.
func TestREErrorAttributes(t *testing.T) {
	code := "out = []\nfor p in ['(abc', 'ab\\n[z-a]']:\n    try:\n        re.compile(p)\n    except re.error as e:\n        out.append([e.msg, e.pattern == p, e.pos, e.lineno, e.colno, str(e)])\nout"
	res, err := run(code, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `[["missing ), unterminated subpattern",true,0,1,1,"missing ), unterminated subpattern at position 0"],["bad character range z-a",true,4,2,2,"bad character range z-a at position 4 (line 2, column 2)"]]`
	if res.Text != want {
		t.Errorf("got  %s\nwant %s", res.Text, want)
	}
}

// The worst inputs of re at a server's budgets: results far larger than
// the text (empty matches everywhere), searches that backtrack without
// end, huge texts.
func TestREStop(t *testing.T) {
	checkStops(t,
		stopCase{"re.sub('', 'x' * 10**4, 'a' * 10**5)", wantSpent},
		stopCase{"re.subn('', 'x' * 10**4, 'a' * 10**5)", wantSpent},
		stopCase{"re.sub('(a)', r'\\1' * 10**4, 'a' * 10**5)", wantSpent},
		stopCase{"re.sub('a', lambda m: 'x' * 10**4, 'a' * 10**5)", wantSpent},
		stopCase{"re.compile('a').sub('x' * 10**4, 'a' * 10**5)", wantSpent},
		stopCase{"re.findall('', 'a' * 10**7)", wantSpent},
		stopCase{"re.split('', 'a' * 10**7)", wantSpent},
		stopCase{"list(re.finditer('', 'a' * 10**7))", wantSpent},
		stopCase{"for m in re.finditer('', 'a' * 10**7):\n    pass", wantTime},
		stopCase{"re.match(r'(a+)+(?=b)', 'a' * 60 + 'c')", wantTime},
		stopCase{"re.search(r'(\\w+)\\1z', 'ab' * 10**6)", wantTime},
		stopCase{"for _ in range(10**9):\n    re.search('(a|b)*c', 'ab' * 10**6)", wantTime},
	)
	// Given the time, a result far larger than the text ends at the
	// memory budget, the heap below twice the budget on its way: the
	// text being built is counted as it grows.
	checkStopsAfter(t, 5*time.Second,
		stopCase{"re.sub('', 'x' * 1000, 'a' * 10**6)", wantMemory},
	)
}
