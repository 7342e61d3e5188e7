package runner

import (
	"context"
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// The hostile-program suite (issue 16): programs a prompt-injected model
// might send, each of which must end with a clear error (or, where noted,
// a harmless answer) within its timeout plus a second, leave the runner
// serving, and leave memory near where it was. It runs in-process and
// under isolation: process.

// hostileTimeout is every program's wall clock: short, so that the suite
// is quick, and long enough for each budget to be met first where it
// should be.
const hostileTimeout = 700 * time.Millisecond

// hostile is one program of the suite.
type hostile struct {
	name string
	code string
	// want matches the error text; "" means the program may succeed (it
	// must still finish in time and, with hide, not show hide).
	want string
	hide string
	// big runs the program with the default memory budget and a longer
	// timeout: the reproductions of the security review, as it ran them.
	big bool
}

// dagOf is a tuple of depth levels that holds the previous level twice.
func dagOf(levels int) string {
	return fmt.Sprintf("a = (1,)\nfor i in range(%d):\n    a = (a, a)\n", levels)
}

const (
	deepList    = "x = []\nfor i in range(10000):\n    x = [x]\n"
	deepMillion = "x = []\nfor i in range(1000000):\n    x = [x]\n"
	deepDict    = "d = {}\nfor i in range(10000):\n    d = {'k': d}\n"
	twinDAGs    = "a = [0]\nb = [0]\nfor i in range(30):\n    a, b = [a, a], [b, b]\n"
	limitRE     = `(timed out after 700ms|step limit|memory limit of 16 MiB exceeded)`
)

// hostilePrograms returns the suite. A time-out names its line when the
// program stops itself at its deadline; on a loaded machine the answer
// may come first, without it, so the line is optional in the patterns.
// engineLevels is the depth of the
// shared tuples given to go.starlark.net's own hashing, which nothing
// interrupts: in-process the run is answered at its deadline and the
// hashing goes on in the background, so it must end soon; a worker is
// killed instead.
func hostilePrograms(engineLevels int) []hostile {
	dag := dagOf(40)
	return []hostile{
		// Time and steps.
		{"infinite loop", "while True:\n    pass", `^timed out after 700ms( at line 1)?`, "", false},
		{"infinite recursion", "def f():\n    return f()\nf()", `(recursion too deep|^memory limit of 16 MiB exceeded|^timed out after 700ms)`, "", false},
		{"nested loops", "for i in range(100000):\n    for j in range(100000):\n        pass", `^timed out after 700ms( at line \d)?`, "", false},
		{"loop over a huge range", "t = 0\nfor i in range(1000000000000):\n    t += i", `^timed out`, "", false},
		{"all over a huge range", "all(range(1, 1000000000000))", `^timed out after 700ms( at line 1)?`, "", false},
		{"min of a huge range", "min(range(1000000000000))", `^timed out after 700ms( at line 1)?`, "", false},
		{"recursion through a builtin", "def f(x):\n    return sorted([1], key=f)\nf(1)", `(recursion too deep|^memory limit of 16 MiB exceeded|^timed out after 700ms)`, "", false},
		{"recursion through json default", "def d(o):\n    return [set([1])]\njson.dumps(set([1]), default=d)", `nested more than 1000 levels`, "", false},
		{"cycle through json default", "def d(o):\n    return [o]\njson.dumps(set([1]), default=d)", `ValueError: Circular reference detected`, "", false},

		// Memory.
		{"string doubling", "s = 'x'\nfor i in range(40):\n    s = s + s", limitRE, "", false},
		{"list doubling", "l = [0]\nfor i in range(40):\n    l = l + l", limitRE, "", false},
		{"list doubled in place", "l = [0]\nwhile True:\n    l += l", limitRE, "", false},
		{"list doubled by * 2", "l = [0]\nwhile True:\n    l = l * 2", limitRE, "", false},
		{"tuple doubling", "t = (0,)\nwhile True:\n    t = t + t", limitRE, "", false},
		{"list nested without end", "x = []\nwhile True:\n    x = [x]", limitRE, "", false},
		{"dict nested without end", "x = {}\nwhile True:\n    x = {'k': x}", limitRE, "", false},
		{"list of an endless iterator", "import itertools\nlist(itertools.count())", limitRE, "", false},
		{"dict of endless pairs", "import itertools\ndict(zip(itertools.count(), itertools.count()))", limitRE, "", false},
		{"set of an endless iterator", "import itertools\ns = set()\ns.update(itertools.count())", limitRE, "", false},
		{"comprehension of an endless iterator", "import itertools\n[x for x in itertools.count()]", limitRE, "", false},
		{"list extended by an endless iterator", "import itertools\nx = []\nx += itertools.count()", limitRE, "", false},
		{"string repetition", `"x" * 1000000000`, `memory limit of 16 MiB exceeded`, "", false},
		{"list repetition", `[0] * 1000000000`, `memory limit of 16 MiB exceeded`, "", false},
		{"bytes repetition", `b"x" * 1000000000`, `memory limit of 16 MiB exceeded`, "", false},
		{"huge range made a list", "list(range(1000000000))", `memory limit of 16 MiB exceeded`, "", false},
		{"huge range sorted", "sorted(range(1000000000))", `memory limit of 16 MiB exceeded`, "", false},
		{"huge range zipped", "list(zip(range(1000000000), range(1000000000)))", `memory limit of 16 MiB exceeded`, "", false},
		{"huge range enumerated", "list(enumerate(range(1000000000)))", `memory limit of 16 MiB exceeded`, "", false},
		{"extend by a huge range", "l = []\nl.extend(range(1000000000))", `memory limit of 16 MiB exceeded`, "", false},
		{"union with a huge range", "set().union(range(1000000000))", `memory limit of 16 MiB exceeded`, "", false},
		{"append forever", "l = []\nwhile True:\n    l.append('x' * 1000)", limitRE, "", false},
		{"dict grown in a loop", "d = {}\nfor i in range(100000000):\n    d[i] = [i] * 10", limitRE, "", false},
		{"list comprehension over a huge range", "[i for i in range(1000000000)]", limitRE, "", false},
		{"dict comprehension over a huge range", "{i: i for i in range(1000000000)}", limitRE, "", false},
		{"wide format field", `"{:1000000000}".format(1)`, `memory limit of 16 MiB exceeded`, "", false},
		{"wide printf field", `"%1000000000d" % 1`, `memory limit of 16 MiB exceeded`, "", false},
		{"long precision", `"%.1000000000f" % 1.5`, `memory limit of 16 MiB exceeded`, "", false},
		{"replace everywhere", `("x" * 1000000).replace("", "y" * 1000)`, `memory limit of 16 MiB exceeded`, "", false},
		{"join with a long separator", `("x" * 10000000).join(["a"] * 100)`, `memory limit of 16 MiB exceeded`, "", false},
		{"format repeating a field", `("{0}" * 10000).format("x" * 10000)`, limitRE, "", false},

		// Integers.
		{"parse a huge integer", `int("9" * 6000)`, `ValueError: Exceeds the limit \(4300 digits\) for integer string conversion: value has 6000 digits`, "", false},
		{"parse a huge integer, limit lifted", "import sys\nsys.set_int_max_str_digits(0)\nint('9' * 6000)", `integer size limit of 5000 digits exceeded`, "", false},
		{"str of a huge integer", "str(10 ** 4400)", `ValueError: Exceeds the limit \(4300 digits\) for integer string conversion`, "", false},
		{"int doubled by addition", "v = 1\nwhile True:\n    v = v + v", `integer size limit of 5000 digits exceeded`, "", false},
		{"int doubled in place", "v = 1\nwhile True:\n    v += v", `integer size limit of 5000 digits exceeded`, "", false},
		{"fibonacci without end", "a, b = 0, 1\nwhile True:\n    a, b = b, a + b", `integer size limit of 5000 digits exceeded`, "", false},
		{"int doubled by * 2", "v = 1\nwhile True:\n    v = v * 2", `integer size limit of 5000 digits exceeded`, "", false},
		{"int shifted without end", "v = 1\nwhile True:\n    v <<= 9", `integer size limit of 5000 digits exceeded`, "", false},
		{"square until huge", "x = 3\nfor i in range(40):\n    x = x * x", `integer size limit of 5000 digits exceeded`, "", false},
		{"square by assignment", "x = 7\nfor i in range(40):\n    x *= x", `integer size limit of 5000 digits exceeded`, "", false},
		{"huge integer in JSON", `json.loads("9" * 6000)`, `ValueError: Exceeds the limit \(4300 digits\) for integer string conversion: value has 6000 digits`, "", false},
		{"huge integer in JSON, digits allowed", "sys.set_int_max_str_digits(0)\njson.loads(\"9\" * 6000)", `integer size limit of 5000 digits exceeded`, "", false},
		{"huge shift", "1 << 100000", `integer size limit of 5000 digits exceeded`, "", false},

		// Values built from shared parts: every visit counts.
		{"str of shared parts", dag + "str(a)", limitRE, "", false},
		{"repr of shared parts", dag + "repr(a)", limitRE, "", false},
		{"print of shared parts", dag + "print(a)", limitRE, "", false},
		{"result of shared parts", dag + "a", limitRE, "", false},
		{"json.dumps of shared parts", dag + "json.dumps(a)", limitRE, "", false},
		{"json.encode of shared parts", dag + "json.encode(a)", limitRE, "", false},
		{"%s of shared parts", dag + `"%s" % (a,)`, limitRE, "", false},
		{"format of shared parts", dag + `"{}".format(a)`, limitRE, "", false},
		{"tool argument of shared parts", dag + "demo.echo(value=a)", limitRE, "", false},
		{"sorting distinct twins", twinDAGs + "sorted([a, b])", limitRE, "", false},
		{"comparing distinct twins", twinDAGs + "a == b", `comparison exceeded maximum recursion depth`, "", false},
		{"hashing shared parts", dagOf(engineLevels) + "len(set([a]))", `^timed out after 700ms`, "", false},
		{"shared parts as a dict key", dagOf(engineLevels) + "d = {}\nd[a] = 1", `^timed out after 700ms`, "", false},

		// Nesting without end.
		{"str of a deep list", deepList + "str(x)", `nested more than 1000 levels`, "", false},
		{"result of a deep list", deepList + "x", `nested more than 1000 levels`, "", false},
		{"result of a deep dict", deepDict + "d", `nested more than 1000 levels`, "", false},
		{"json of a deep list", deepList + "json.encode(x)", `nested more than 1000 levels`, "", false},
		{"json.dumps of a deep dict", deepDict + "json.dumps(d)", `nested more than 1000 levels`, "", false},
		{"deep list as a tool argument", deepList + "demo.echo(value=x)", `nested more than 1000 levels`, "", false},
		{"JSON bomb", `json.loads("[" * 1000000 + "]" * 1000000)`, `nested more than 1000 levels`, "", false},
		{"million-deep list as JSON (the review's)", deepMillion + "json.encode(x)", `nested more than 1000 levels`, "", true},
		{"million-deep list as text (the review's)", deepMillion + "str(x)", `nested more than 1000 levels`, "", true},
		{"million-deep list returned (the review's)", deepMillion + "x", `nested more than 1000 levels`, "", true},
		{"JSON bomb for decode", `json.decode("[" * 1000000)`, `nested more than 1000 levels`, "", false},

		// Printed output and tool calls.
		{"print forever", "while True:\n    print('x' * 100)", `printed output limit of 1 MiB exceeded`, "", false},
		{"print one huge line", "print('x' * 2000000)", `printed output limit of 1 MiB exceeded`, "", false},
		{"tool calls in a loop", "for i in range(100000):\n    demo.foo(text='x')", `tool call limit of 100 exceeded`, "", false},
		{"parallel bomb", "parallel([call(demo.foo, text='x') for i in range(100000)])", `tool call limit of 100 exceeded`, "", false},
		{"map bomb", "demo.foo.map([{'text': 'x'}] * 100000)", `(tool call limit of 100 exceeded|^timed out after 700ms)`, "", false},
		{"chain bomb", "chain([{'tool': 'demo.foo', 'args': {'text': 'x'}}] * 100000)", `tool call limit of 100 exceeded`, "", false},
		{"plan of many steps", "plan([{'tool': 'demo.foo', 'args': {'text': 'x'}} for i in range(20000)])", `memory limit of 16 MiB exceeded`, "", false},
		{"plan whose results double", "steps = [{'id': 's0', 'tool': 'demo.echo', 'args': {'value': 'x' * 1000}}]\n" +
			"for i in range(1, 60):\n" +
			"    p = '${steps.s%d.data}' % (i - 1)\n" +
			"    steps.append({'id': 's%d' % i, 'tool': 'demo.echo', 'args': {'value': [p, p]}, 'depends_on': ['s%d' % (i - 1)]})\n" +
			"plan(steps)", `(memory limit of 16 MiB exceeded|tool call limit of 100 exceeded|^timed out after 700ms)`, "", false},

		// The Python front end and its helpers (issue 17): budgets are
		// not exceptions, and no helper works or allocates past them.
		{"timeout caught by except Exception", "try:\n    while True:\n        pass\nexcept Exception:\n    print('caught')", `^timed out after 700ms( at line \d)?`, "caught", false},
		{"memory caught by a bare except", "try:\n    x = 'x' * 1000000000\nexcept:\n    print('caught')", `^memory limit of 16 MiB exceeded`, "caught", false},
		{"budget caught by except BaseException in a loop", "l = []\nwhile True:\n    try:\n        l.append('x' * 100000)\n    except BaseException:\n        pass", limitRE, "", false},
		{"loop in finally after the timeout", "try:\n    while True:\n        pass\nfinally:\n    while True:\n        pass", `^timed out after 700ms( at line \d)?`, "", false},
		{"raise in finally forever", "while True:\n    try:\n        try:\n            raise ValueError(1)\n        finally:\n            raise KeyError(2)\n    except Exception:\n        pass", `^timed out after 700ms( at line \d)?`, "", false},
		{"recursion through try", "def f(n):\n    try:\n        return f(n + 1)\n    finally:\n        pass\nf(0)", `(recursion too deep|^memory limit of 16 MiB exceeded|^timed out after 700ms)`, "", false},
		{"starred unpacking of a huge range", "a, *b = range(1000000000)", `memory limit of 16 MiB exceeded`, "", false},
		{"slice assignment of a huge range", "x = [1, 2]\nx[1:] = range(1000000000)", `memory limit of 16 MiB exceeded`, "", false},
		{"slice assignment of a long str", "x = [1]\nx[:] = 'x' * 10000000", `memory limit of 16 MiB exceeded`, "", false},
		{"slice assignment doubling", "x = [1]\nwhile True:\n    x[:0] = x", limitRE, "", false},
		{"list of a long str", "list('x' * 10000000)", `memory limit of 16 MiB exceeded`, "", false},
		{"dict merge doubling", "d = {0: 0}\nwhile True:\n    d = {**d, **{k + len(d): v for k, v in d.items()}}", limitRE, "", false},
		{"f-string with a huge width", "x = 1\nf'{x:>1000000000}'", `memory limit of 16 MiB exceeded`, "", false},
		{"f-string with a nested huge width", "w = 1000000000\nf'{1.5:{w}.{w}f}'", `memory limit of 16 MiB exceeded`, "", false},
		{"format with a nested huge width", `"{0:{1}}".format(1, 10**9)`, `memory limit of 16 MiB exceeded`, "", false},
		{"power tower", "10 ** 10 ** 10", `integer size limit of 5000 digits exceeded`, "", false},
		{"pow with a huge exponent", "pow(2, 10**10, None)", `integer size limit of 5000 digits exceeded`, "", false},
		{"parse a million digits", `int("9" * 10**6)`, `ValueError: Exceeds the limit \(4300 digits\) for integer string conversion: value has 1000000 digits`, "", false},
		{"iterators nested 10,000 deep", "it = iter([1, 2])\nfor i in range(5000):\n    it = filter(None, map(abs, it))\nnext(it)", "", "", false},
		{"a generator over a huge range", "next(x for x in range(10**12) if x < 0)", limitRE, "", false},
		{"sorted with a key that loops", "def k(x):\n    while True:\n        pass\nsorted([1, 2], key=k)", `^timed out after 700ms( at line \d)?`, "", false},
		{"center to a huge width", `"x".center(10**10)`, `too large|memory limit`, "", false},
		{"ljust to 2**62", `"x".ljust(2**62)`, `too large|memory limit`, "", false},
		{"expandtabs to a huge width", `("\t" * 10**6).expandtabs(10**6)`, `too large|memory limit`, "", false},
		{"isinstance with deeply nested tuples", "t = int\nfor i in range(100000):\n    t = (t,)\nisinstance(1, t)", `nested more than 1000 levels`, "", false},
		{"deep lists compared", "a = []\nfor i in range(100000):\n    a = [a]\na == a[:]", `comparison exceeded maximum recursion depth`, "", false},
		{"deep lists ordered", "a = []\nb = []\nfor i in range(100000):\n    a = [a]\n    b = [b]\na < b", `nested more than 1000 levels deep`, "", false},
		// The same inner list is equal to itself without a look, as in CPython.
		{"deep list ordered against its copy", "a = []\nfor i in range(100000):\n    a = [a]\na < a[:]", "", "", false},
		{"hash of a deep tuple", "a = ()\nfor i in range(100000):\n    a = (a,)\nhash(a)", `(nested more than 1000 levels|limit)`, "", false},
		{"set of a deep tuple", "a = ()\nfor i in range(100000):\n    a = (a,)\nset([a])", `(nested more than 1000 levels|limit)`, "", false},
		{"exception holding itself", "l = []\ne = ValueError(l)\nl.append(e)\nprint(str(e), repr(e))\nraise e", `ValueError: \[ValueError\(\[\.\.\.\]\)\]`, "", false},
		{"exceptions nested 100,000 deep", "e = ValueError()\nfor i in range(100000):\n    e = ValueError(e)\nstr(e)", `nested more than 1000 levels`, "", false},
		{"exception of shared parts", dag + "raise ValueError(a)", limitRE, "", false},
		{"exception of a deep list", deepList + "raise ValueError(x)", `nested more than 1000 levels`, "", false},

		// onetool's own files and the roots.
		{"read the secrets", `file.read(".onetool/secrets.yaml")`, `onetool's own`, "", false},
		{"read the secrets reversed", `"".join(reversed(file.read(".onetool/secrets.yaml").elems()))`, `onetool's own`, "", false},
		{"write a toolpack", `file.write(".onetool/toolpacks/p.yaml", "id: p.run")`, `onetool's own`, "", false},
		{"write the configuration", `file.write(".onetool/onetool.yaml", "packs: {file: {allowed_dirs: [/]}}")`, `onetool's own`, "", false},
		{"create a configuration below", `file.write("sub/.onetool/onetool.yaml", "x: 1")`, `onetool's own`, "", false},
		{"edit the configuration", `file.edit(".onetool/onetool.yaml", old="limits", new="x")`, `onetool's own`, "", false},
		{"read outside the roots", `file.read("/etc/passwd")`, `outside the allowed`, "", false},
		{"grep for the secret", `file.grep(pattern="tok-9a8b", path=".")`, "", "tok-9a8b7c6d5e", false},
		{"glob the secrets", `file.glob(pattern="**/*.yaml")`, "", "secrets.yaml", false},
		{"catastrophic pattern", `file.grep(pattern="(a*)*b", path="big.txt")`, "", "", false},
		{"cloud metadata", `web.fetch(url="http://169.254.169.254/latest/meta-data/")`, `refused by packs.web.deny_hosts`, "", false},
	}
}

// hostileLimits are the suite's budgets: small, so that each is met fast.
func hostileLimits() Limits {
	return Limits{Timeout: hostileTimeout, MaxSteps: 1_000_000_000, MaxOutput: 1 << 20, MaxToolCalls: 100,
		MaxParallel: 16, MaxMemory: 16 << 20, MaxIntDigits: 5000}
}

func TestHostileProgramsInProcess(t *testing.T) {
	runHostile(t, false)
}

func TestHostileProgramsIsolated(t *testing.T) {
	runHostile(t, true)
}

func runHostile(t *testing.T, isolate bool) {
	if testing.Short() {
		t.Skip("the hostile-program suite takes about a minute")
	}
	work, load := ownWork(t, "")
	writeAll(t, work, "big.txt", strings.Repeat("a", 1<<20))
	opts := []Option{WithConfig(load()), WithLimits(hostileLimits())}
	engineLevels := 26 // in-process the hashing runs on after the answer: keep it short
	if isolate {
		opts = append(opts, WithIsolation(Isolation{Workers: 2}))
		engineLevels = 40 // the worker is killed
	}
	r := newRunner(t, opts...)
	defer r.Close()
	if isolate {
		waitForPool(t, r, 2)
	}
	settle()
	baseHeap, baseGoroutines := heapInUse(), runtime.NumGoroutine()

	for _, p := range hostilePrograms(engineLevels) {
		t.Run(p.name, func(t *testing.T) {
			var opts []ExecOption
			timeout := hostileTimeout
			if p.big {
				l := hostileLimits()
				l.MaxMemory, l.Timeout = DefaultLimits().MaxMemory, 10*time.Second
				timeout = l.Timeout
				opts = append(opts, RunLimits(l))
			}
			start := time.Now()
			res := r.Exec(context.Background(), p.code, opts...)
			took := time.Since(start)
			// Under isolation a worker that does not stop is killed 1 s
			// after the deadline (SPEC §8.5): allow for the kill itself.
			if slack := time.Second + 500*time.Millisecond*time.Duration(boolInt(isolate)); took > timeout+slack {
				t.Errorf("answered after %s", took)
			}
			switch {
			case p.want == "" && res.IsError():
				t.Errorf("failed: %s", res.Text)
			case p.want != "" && !res.IsError():
				t.Errorf("succeeded: %.200s", res.Text)
			case p.want != "" && !regexp.MustCompile(p.want).MatchString(strings.TrimPrefix(res.Text, "Error: ")):
				t.Errorf("error %q, want one matching %q", res.Text, p.want)
			}
			if p.hide != "" && strings.Contains(res.Text, p.hide) {
				t.Errorf("shows %q: %.300s", p.hide, res.Text)
			}
			if strings.Contains(res.Text, "goroutine ") || strings.Contains(res.Text, ".go:") {
				t.Errorf("a Go trace reached the user: %s", res.Text)
			}
			// The runner serves on.
			if next := r.Exec(context.Background(), "demo.add(a=1, b=2)"); next.Text != "3" {
				t.Errorf("the next run: %s", next.Text)
			}
		})
	}

	// Computations answered at their deadline may still be finishing
	// (in-process only); once they have, and the goroutines kept for runs
	// have been let go, goroutines and memory are back near where the
	// suite began.
	r.executor.Close()
	deadline := time.Now().Add(20 * time.Second)
	for runtime.NumGoroutine() > baseGoroutines+8 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	settle()
	if heap := heapInUse(); heap > baseHeap+64<<20 {
		t.Errorf("heap in use %d MiB after the suite, %d MiB before", heap>>20, baseHeap>>20)
	}
	if g := runtime.NumGoroutine(); g > baseGoroutines+8 {
		t.Errorf("%d goroutines after the suite, %d before", g, baseGoroutines)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func settle() {
	runtime.GC()
	debug.FreeOSMemory()
}

func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// TestDeeplyNestedSourceThroughThePipeline: source nested far beyond what
// anyone writes reaches the front end, the lowering and the interpreter
// through runner.Exec, and ends with a clear error (or runs), never a Go
// stack overflow.
func TestDeeplyNestedSourceThroughThePipeline(t *testing.T) {
	defs := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%sdef f%d():\n", strings.Repeat(" ", i), i)
		}
		fmt.Fprintf(&b, "%spass\nprint('ok')", strings.Repeat(" ", n))
		return b.String()
	}
	tries := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%stry:\n", strings.Repeat(" ", i))
		}
		fmt.Fprintf(&b, "%sx = 1\n", strings.Repeat(" ", n))
		for i := n - 1; i >= 0; i-- {
			fmt.Fprintf(&b, "%sfinally:\n%s    pass\n", strings.Repeat(" ", i), strings.Repeat(" ", i))
		}
		return b.String() + "print(x)"
	}
	tests := []struct {
		name, code, want string // want matches the answer, error or not
	}{
		{"100,000 open brackets", strings.Repeat("[", 100000), `^syntax error at line 1, column \d+: too many nested parentheses`},
		{"100,000 closed brackets", strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000), `^syntax error at line 1, column \d+: too many nested parentheses`},
		{"100,000 nested not", strings.Repeat("not ", 100000) + "1", `^syntax error at line 1, column \d+: expression too deeply nested`},
		{"100,000 nested minus", strings.Repeat("-", 100000) + "1", `^syntax error at line 1, column \d+: expression too deeply nested`},
		{"1,000 nested defs", defs(1000), `^syntax error at line \d+, column 1: too many levels of indentation`},
		{"200 nested trys", tries(200), `^syntax error at line \d+, column 1: too many levels of indentation`},
	}
	r := newRunner(t, WithLimits(hostileLimits()))
	defer r.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			res := r.Exec(context.Background(), tt.code)
			if took := time.Since(start); took > hostileTimeout+time.Second {
				t.Errorf("answered after %s", took)
			}
			text := strings.TrimPrefix(res.Text, "Error: ")
			if !regexp.MustCompile(tt.want).MatchString(text) {
				t.Errorf("answer %.300q, want one matching %q", res.Text, tt.want)
			}
			if strings.Contains(res.Text, "goroutine ") || strings.Contains(res.Text, ".go:") {
				t.Errorf("a Go trace reached the user: %.300s", res.Text)
			}
		})
	}
}
