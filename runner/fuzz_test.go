package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// FuzzExec feeds arbitrary commands to the whole pipeline (fences,
// snippets, parsing, running with tool calls, formatting). Whatever the
// input, a run ends — within its budgets — with a text, and a failure is
// one text starting with "Error: " that leaks no Go internals.
func FuzzExec(f *testing.F) {
	for _, seed := range []string{
		`demo.foo(text="x")`,
		"```python\nx = [demo.add(a=i, b=1) for i in range(3)]\nreturn x\n```",
		">>> print('hi')\n1",
		"$nope x=1",
		"def f(n):\n    return f(n+1)\nf(0)",
		"while True:\n    pass",
		`parallel([call(demo.foo, text="a"), call(demo.fail)], errors="return")`,
		`plan([{"tool": "demo.echo", "args": {"value": "${step[0].data}"}}])`,
		"__format__ = 'yaml'\n{'a': [1, {'b': None}]}",
		"x = 1 +",
		"`demo.bar(text=\"item1\")`",
		"chain([{\"tool\": \"demo.items\"}, {\"tool\": \"demo.echo\", \"use_previous\": True}])",
		"file.write(path=\"a/b.txt\", content=\"x\")\nfile.edit(path=\"a/b.txt\", old=\"x\", new=\"y\")\nfile.read(path=\"a/b.txt\")",
		"[file.glob(pattern=\"**/*\"), file.grep(pattern=\"y\"), file.tree(), file.info(path=\"../..\")]",
		"file.delete(path=\"a\", recursive=True)",
	} {
		f.Add(seed)
	}
	// The file pack works in the working directory: fuzzed programs may
	// write and delete there, so give them a scratch one.
	f.Chdir(f.TempDir())
	l := DefaultLimits()
	l.MaxSteps = 100_000
	l.Timeout = 200 * time.Millisecond
	l.MaxOutput = 64 << 10
	l.MaxToolCalls = 50
	r, err := New(WithLimits(l))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, command string) {
		start := time.Now()
		res := r.Exec(context.Background(), command)
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("a run took %v", d)
		}
		if res.Text == "" && res.Printed == "" && !res.HasValue {
			t.Fatalf("no text for %q", command)
		}
		if res.IsError() {
			if !strings.HasPrefix(res.Text, "Error: ") {
				t.Fatalf("error text without prefix: %q", res.Text)
			}
			for _, leak := range []string{"goroutine ", ".go:", "__ot_", "<run>"} {
				if strings.Contains(res.Text, leak) {
					t.Fatalf("error leaks %q: %q", leak, res.Text)
				}
			}
		}
	})
}

// deepWraps build one level of a value around x: every container a
// program can nest, alone or sharing x twice (a DAG whose text, copy or
// comparison has 2**levels parts).
var deepWraps = []struct {
	code   string
	shared bool
}{
	{"[x]", false}, {"(x,)", false}, {`{"k": x}`, false}, {"struct(k=x)", false},
	{"[x, x]", true}, {"(x, x)", true}, {`{"a": x, "b": x}`, true},
	{"[1, (x,), {'k': [x]}]", true},
}

// deepOps do something with a deep value x: every walker of values a
// program can reach, in onetool's code or the engine's.
var deepOps = []string{
	"str(x)", "repr(x)", "print(x)", "x", "json.encode(x)", "json.dumps(x)", "json.dumps(x, indent=2)",
	"json.decode(json.encode(x))", `"%s" % (x,)`, `"{}".format(x)`, `"{!r:>10}".format(x)`,
	"sorted([x, x])", "x == x", "x in [x]", "demo.echo(value=x)", "[x] * 3", "list([x])",
	"reversed([x])", "len(set([(x,)]))", "d = {}\nd[(x,)] = 1", "fail(x)",
	"call(demo.echo, value=x)", "parallel([call(demo.echo, value=x)])",
	"plan([{'tool': 'demo.echo', 'args': {'value': x}}])",
	"chain([{'tool': 'demo.echo', 'args': {'value': x}}])",
}

// FuzzDeepValues builds values nested and shared without end, of every
// kind, and hands them to every walker (issue 16, item 3). Whatever the
// shape, the run ends within its budgets with a text, and the process
// survives: no walker may overflow the Go stack or run unbounded.
func FuzzDeepValues(f *testing.F) {
	for wrap := range deepWraps {
		for op := range deepOps {
			f.Add(uint8(wrap), uint8(op), uint32(100000))
		}
	}
	f.Add(uint8(4), uint8(0), uint32(40))
	f.Add(uint8(5), uint8(18), uint32(20))
	l := DefaultLimits()
	l.MaxSteps = 100_000_000
	l.Timeout = 300 * time.Millisecond
	l.MaxOutput = 64 << 10
	l.MaxMemory = 64 << 20
	r, err := New(WithLimits(l))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, wrap, op uint8, levels uint32) {
		w := deepWraps[int(wrap)%len(deepWraps)]
		o := deepOps[int(op)%len(deepOps)]
		levels %= 200_001
		if w.shared {
			// go.starlark.net hashes a tuple without bound and nothing can
			// interrupt it: in-process the run is answered at its deadline
			// but the hashing goes on, so keep that work short here (a
			// worker would be killed; see TestIsolatedOverrunKilled).
			levels %= 41
			if strings.Contains(o, "set(") || strings.Contains(o, "d[") {
				levels %= 21
			}
		}
		code := fmt.Sprintf("x = 1\nfor i in range(%d):\n    x = %s\n%s", levels, w.code, o)
		start := time.Now()
		res := r.Exec(context.Background(), code)
		if d := time.Since(start); d > l.Timeout+time.Second {
			t.Fatalf("%q took %v", code, d)
		}
		if res.Text == "" {
			t.Fatalf("no text for %q", code)
		}
		for _, leak := range []string{"goroutine ", ".go:", "__ot_", "<run>", "panic"} {
			if strings.Contains(res.Text, leak) {
				t.Fatalf("%q: the answer shows %q: %.300s", code, leak, res.Text)
			}
		}
	})
}
