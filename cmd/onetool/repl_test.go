package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
)

func TestReplClassify(t *testing.T) {
	for _, c := range []struct {
		src  string
		want inputState
	}{
		{"x = 1", inputComplete},
		{"demo.foo(text='hi')", inputComplete},
		{"x = )", inputComplete},   // a syntax error: running it shows the error
		{"x = 1 +", inputComplete}, // outside brackets a newline ends the statement
		{"x = 'abc", inputComplete},
		{"# only a comment", inputComplete},
		{"x = [", inputMore},
		{"x = [\n  1,", inputMore},
		{"demo.foo(", inputMore},
		{"s = '''abc", inputMore},
		{"s = '''abc\n", inputMore},
		{"def f(a):", inputBody},
		{"def f(a):\n    if a:", inputBody},
		{"if x:\n    a\nelse:", inputBody},
		{"def f(a):\n    return a", inputBlock},
		{"for i in range(3):\n    print(i)", inputBlock},
		{"while x:\n    x -= 1", inputBlock},
		{"if x: print(1)", inputBlock},
		{"x = [\n  1,\n  2]", inputComplete},
		{"for i in range(3):\n    print(i)\nprint('done')", inputComplete},
		{"def f():\nx = 1", inputComplete}, // missing indentation: an error to show
	} {
		if got := classify(c.src); got != c.want {
			t.Errorf("classify(%q) = %d, want %d", c.src, got, c.want)
		}
	}
}

func TestReplAccept(t *testing.T) {
	for _, c := range []struct {
		buffer string
		want   bool
	}{
		{"", true},
		{"   ", true},
		{":help", true},
		{":packs extra", true},
		{"x + 2", true},
		{"def f(a):", false},
		{"def f(a):\n    return a", false}, // a block waits for a blank line
		{"def f(a):\n    return a\n", true},
		{"def f(a):\n    return a\n    ", true},
		{"def f(a):\n", true}, // a header without a body runs, to show the error
		{"x = [\n", false},    // a blank line inside brackets is part of them
		{"s = '''a\n", false}, // and of a triple-quoted string
		{"x = [\n  1]", true},
		{"try:\n    x = 1", false},                     // a try waits for its handler
		{"try:\n    x = 1\nexcept ValueError:", false}, // and the handler for its body
		{"try:\n    x = 1\nexcept ValueError:\n    x = 0", false},
		{"try:\n    x = 1\nexcept ValueError:\n    x = 0\n", true},
	} {
		if got := accept(c.buffer); got != c.want {
			t.Errorf("accept(%q) = %v, want %v", c.buffer, got, c.want)
		}
	}
}

// runRepl runs `onetool repl` in-process on input that is not a terminal.
func runRepl(t *testing.T, input string) (stdout, stderr string, code int) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("ONETOOL_CONFIG", "")
	var out, errOut bytes.Buffer
	code = Main([]string{"repl"}, strings.NewReader(input), &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestReplPipedGrouping(t *testing.T) {
	for _, c := range []struct {
		name, input, want string
		code              int
	}{
		{"state", "x = 2\nx * 21\n", "42\n", 0},
		{"no trailing newline", "x = 2\nx * 21", "42\n", 0},
		{"crlf", "x = 2\r\nx * 21\r\n", "42\n", 0},
		{"block at eof", "for i in range(2):\n    print(i)", "0\n1\n", 0},
		{"brackets span lines", "x = [\n    1,\n\n    2,\n]\nx\n", "[1,2]\n", 0},
		{"triple-quoted string keeps its blank line", "s = '''a\n\nb'''\ns\n", "a\n\nb\n", 0},
		{"block then statement without blank line", "for i in range(2):\n    print(i)\nprint('done')\n", "0\n1\ndone\n", 0},
		{"blank lines between inputs", "\n\nx = 1\n\n\nx\n\n", "1\n", 0},
		{"try and its handlers are one input", "try:\n    n = int('x')\nexcept ValueError as e:\n    n = -1\nfinally:\n    print('done')\n\nn\n", "done\n-1\n", 0},
		{"a global a function rebinds is one variable across inputs", "count = 0\ndef bump():\n    global count\n    count += 1\n\nbump()\ncount\n", "1\n", 0},
		{"header without body", "def f():\n\n1\n", "", 1},
		{"failure exits 1 after running everything", "1/0\n'after'\n", "Error: line 1: division by zero\nafter\n", 1},
		{"quit stops reading", ":quit\n1/0\n", "", 0},
		{"exit", ":exit\n", "", 0},
		// exit(), quit(), exit and quit leave as in CPython: what follows
		// is not read; the status is the code.
		{"exit() stops reading", "print(1)\nexit()\nprint(2)\n", "1\n", 0},
		{"quit()", "quit()\nprint(2)\n", "", 0},
		{"bare exit", "exit\nprint(2)\n", "", 0},
		{"bare quit", "  quit  \nprint(2)\n", "", 0},
		{"exit(3)", "exit(3)\nprint(2)\n", "", 3},
		{"exit(0) after a failure", "1/0\nexit(0)\n", "Error: line 1: division by zero\n", 0},
		{"sys.exit", "import sys\nsys.exit(4)\n", "", 4},
		{"raise SystemExit", "raise SystemExit(5)\nprint(2)\n", "", 5},
		{"printed before exit", "print('a'); exit(2)\n", "a\n", 2},
		{"exit in a block", "for i in range(3):\n    print(i)\n    exit(6)\n\nprint('after')\n", "0\n", 6},
		{"a caught SystemExit goes on", "try:\n    exit(7)\nexcept SystemExit as e:\n    print('caught', e.code)\n\nprint('after')\n", "caught 7\nafter\n", 0},
		{"exit as a value", "f = exit\nprint('kept')\n", "kept\n", 0},
		// A blank line followed by an indented line continues the block:
		// a file of functions with blank lines in their bodies runs whole.
		{"blank line inside a function", "def f():\n    x = 1\n\n    return x\n\nprint(f())\n", "1\n", 0},
		{"blank lines inside a function", "def f():\n    x = 1\n\n\n    if x:\n\n        x += 1\n\n    return x\nf()\n", "2\n", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := runRepl(t, c.input)
			if c.name == "header without body" {
				if !strings.HasPrefix(out, "Error: syntax error") || !strings.HasSuffix(out, "\n1\n") {
					t.Errorf("stdout = %q, want a syntax error and then 1", out)
				}
			} else if out != c.want {
				t.Errorf("stdout = %q, want %q", out, c.want)
			}
			if code != c.code || errOut != "" {
				t.Errorf("exit %d (want %d), stderr %q", code, c.code, errOut)
			}
		})
	}
}

func TestReplOutput(t *testing.T) {
	// A statement prints nothing (no "OK (no return value)"), nor does None
	// with nothing printed; the string "None" is a value; printed text
	// shows, with a value after it unless the value is None; values are
	// formatted as onetool run does.
	out, _, code := runRepl(t, "x = 1\nNone\n'None'\nprint('a')\n[print('b'), None][1]\n[print('c'), 2][1]\n{'k': [1, 2]}\n")
	if want := "None\na\nb\nc\n2\n{\"k\":[1,2]}\n"; out != want || code != 0 {
		t.Errorf("stdout %q (exit %d), want %q", out, code, want)
	}
}

func TestReplCompletion(t *testing.T) {
	cfg := config.Default()
	cfg.Aliases = map[string]string{"colour": "demo.foo"}
	r, err := runner.New(runner.WithConfig(cfg))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := r.NewSession()
	if res := s.Exec(t.Context(), "my_total = 1"); res.IsError() {
		t.Fatal(res.Text)
	}
	if res := s.Exec(t.Context(), "class Acct:\n    kind = 'c'\n    def deposit(self, n):\n        self.balance += n\nacct = Acct()\nacct.balance = 0"); res.IsError() {
		t.Fatal(res.Text)
	}
	c := &completer{r: r, s: s}
	values := func(before string) (string, []string) {
		prefix, cands := c.candidates(before)
		var out []string
		for _, k := range cands {
			out = append(out, k.Value)
		}
		return prefix, out
	}
	for _, tc := range []struct {
		before, prefix string
		want           []string // all of these, in this order among the values
		not            []string
		exact          bool
	}{
		{before: "demo.fo", prefix: "demo.fo", want: []string{"demo.foo("}, exact: true},
		{before: "x = demo.fo", prefix: "demo.fo", want: []string{"demo.foo("}, exact: true},
		{before: "demo.", prefix: "demo.", want: []string{"demo.bar(", "demo.foo(", "demo.sleep("}},
		{before: "demo.foo(te", prefix: "te", want: []string{"text="}, exact: true},
		{before: "colour(te", prefix: "te", want: []string{"text="}, exact: true},                 // an alias
		{before: "demo.foo(", prefix: "demo.foo(", want: []string{"demo.foo(text="}, exact: true}, // parameters only after "("
		{before: "demo.foo(text=my", prefix: "my", want: []string{"my_total"}, exact: true},
		{before: "file.read(", prefix: "file.read(", want: []string{"file.read(path=", "file.read(offset=", "file.read(limit="}, exact: true}, // signature order
		{before: "par", prefix: "par", want: []string{"parallel"}, exact: true},
		{before: "de", prefix: "de", want: []string{"decimal", "def", "del", "delattr", "demo"}, exact: true},
		{before: "col", prefix: "col", want: []string{"collections", "colour"}, exact: true},
		{before: "my_", prefix: "my_", want: []string{"my_total"}, exact: true},
		{before: "json.enc", prefix: "json.enc", want: []string{"json.encode", "json.encode_indent"}},
		{before: "print(demo.fo", prefix: "demo.fo", want: []string{"demo.foo("}, exact: true},
		{before: "demo.foo(text=\"demo.fo", prefix: "", exact: true},            // inside a string
		{before: "x = 1  # demo.fo", prefix: "", exact: true},                   // inside a comment
		{before: "def f():\n", prefix: "", want: []string{"    "}, exact: true}, // indent
		{before: "def f():\n    ", prefix: "", want: []string{"    "}, exact: true},
		{before: "nosuchpack.x", prefix: "nosuchpack.x", exact: true},
		{before: "acct.", prefix: "acct.", want: []string{"acct.balance", "acct.deposit", "acct.kind"}}, // an instance's
		{before: "acct.de", prefix: "acct.de", want: []string{"acct.deposit"}, exact: true},
		{before: "cla", prefix: "cla", want: []string{"class", "classmethod"}, exact: true},
	} {
		prefix, got := values(tc.before)
		if prefix != tc.prefix {
			t.Errorf("%q: prefix %q, want %q", tc.before, prefix, tc.prefix)
		}
		if tc.exact && !slices.Equal(got, tc.want) {
			t.Errorf("%q: candidates %q, want %q", tc.before, got, tc.want)
			continue
		}
		last := -1
		for _, w := range tc.want {
			i := slices.Index(got, w)
			if i < 0 || i < last {
				t.Errorf("%q: candidates %q, want %q in this order", tc.before, got, tc.want)
				break
			}
			last = i
		}
	}
}

func TestReplHistoryFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "history")
	if err := openHistory(path); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", info.Mode().Perm())
	}
	// An existing file is kept as it is.
	if err := os.WriteFile(path, []byte("{\"block\":\"x\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := openHistory(path); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "{\"block\":\"x\"}\n" {
		t.Errorf("history file changed: %q", b)
	}
}

// From a pipe, a blank line after a block runs the block at once when
// nothing follows it yet: a program that drives the REPL, writing a block
// and waiting for its output, is not kept waiting by the look-ahead that
// keeps blank lines inside functions.
func TestReplPipedBlockNotKeptWaiting(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("ONETOOL_CONFIG", "")
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- Main([]string{"repl"}, inR, outW, io.Discard)
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	next := func() string {
		got := make(chan string, 1)
		go func() {
			lines.Scan()
			got <- lines.Text()
		}()
		select {
		case l := <-got:
			return l
		case <-time.After(10 * time.Second):
			t.Fatal("no output while the writer waits")
			return ""
		}
	}
	io.WriteString(inW, "for i in range(2):\n    print(i)\n\n")
	if a, b := next(), next(); a != "0" || b != "1" {
		t.Errorf("got %q %q, want 0 1", a, b)
	}
	io.WriteString(inW, "def f():\n    x = 1\n\n    return x\n\nprint(f())\n")
	if l := next(); l != "1" {
		t.Errorf("got %q, want 1", l)
	}
	inW.Close()
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
}
