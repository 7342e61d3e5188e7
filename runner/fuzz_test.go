package runner

import (
	"context"
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
