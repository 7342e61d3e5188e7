package fence_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/fence"
)

type stripCase struct {
	name string
	in   string
	want string
	err  error
}

// run checks every case and, for results that are code, that Strip leaves
// its own output alone.
func run(t *testing.T, cases []stripCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := fence.Strip(tc.in)
			if !errors.Is(err, tc.err) {
				t.Fatalf("Strip(%q) error = %v, want %v", tc.in, err, tc.err)
			}
			if got != tc.want {
				t.Fatalf("Strip(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestPrefixes(t *testing.T) {
	var cases []stripCase
	for _, p := range []string{">>>", "__run", "__ot", "__ot__run", "__onetool", "__onetool__run", "mcp__onetool__run"} {
		cases = append(cases,
			stripCase{p + " space", p + " x = 1", "x = 1", nil},
			stripCase{p + " spaces", p + "   x = 1", "x = 1", nil},
			stripCase{p + " tab", p + "\tx = 1", "x = 1", nil},
			stripCase{p + " newline", p + "\nx = 1\ny = 2", "x = 1\ny = 2", nil},
			stripCase{p + " CRLF", p + "\r\nx = 1", "x = 1", nil},
			stripCase{p + " end", p, "", nil},
			stripCase{p + " end with spaces", "  " + p + "  \n\n", "", nil},
			stripCase{p + " then fence", p + " ```python\nx = 1\n```", "x = 1", nil},
			stripCase{p + " fence next line", p + "\n```\nx = 1\n```", "x = 1", nil},
			stripCase{p + " then indented block", p + "\n    if x:\n        y()\n    z()", "if x:\n    y()\nz()", nil},
		)
	}
	run(t, cases)
}

func TestPrefixWordBoundary(t *testing.T) {
	run(t, []stripCase{
		{"identifier", "__other = 3\n__other", "__other = 3\n__other", nil},
		{"call of __run", "__run()", "__run()", nil},
		{"call of __ot", "__ot(1)", "__ot(1)", nil},
		{"attribute", "__onetool.x", "__onetool.x", nil},
		{"longer identifier", "__runner = 1", "__runner = 1", nil},
		{"prompt glued to code", ">>>x = 1", ">>>x = 1", nil},
		{"four angle brackets", ">>>> x", ">>>> x", nil},
		{"mcp__ot__run is not a prefix", "mcp__ot__run x", "mcp__ot__run x", nil},
		{"longest match first", "__ot__run x", "x", nil},
		{"only one prefix", ">>> __run x", "__run x", nil},
		{"prefix not at start", "x = 1\n>>> y", "x = 1\n>>> y", nil},
		{"leading indentation before prefix", "   >>> x = 1", "x = 1", nil},
	})
}

func TestNewlines(t *testing.T) {
	run(t, []stripCase{
		{"CRLF", "x = 1\r\ny = 2\r\n", "x = 1\ny = 2", nil},
		{"lone CR", "x = 1\ry = 2", "x = 1\ny = 2", nil},
		{"mixed", "a\r\n\rb\nc\r", "a\n\nb\nc", nil},
		{"CRLF in fence", "```py\r\nx = 1\r\n```\r\nDone.", "x = 1", nil},
		{"CR-only blank lines", "\r\r  x\r\r", "x", nil},
	})
}

func TestBang(t *testing.T) {
	run(t, []stripCase{
		{"bare", "!onetool x = 1", "", fence.ErrBangPrefix},
		{"alone", "!onetool", "", fence.ErrBangPrefix},
		{"glued", "!onetoolrun", "", fence.ErrBangPrefix},
		{"after whitespace", "\n  !onetool x", "", fence.ErrBangPrefix},
		{"after prefix", ">>> !onetool x", "", fence.ErrBangPrefix},
		{"after prefix and newline", "__run\n!onetool x", "", fence.ErrBangPrefix},
		{"other bang", "!other", "!other", nil},
		{"not at start", "x = '!onetool'", "x = '!onetool'", nil},
		{"inside fence is code", "```\n!onetool\n```", "!onetool", nil},
	})
}

func TestBangMessage(t *testing.T) {
	_, err := fence.Strip("!onetool x")
	const want = "the !onetool prefix is not supported; send the code itself, optionally in a ``` fence"
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %q", err, want)
	}
}

func TestFences(t *testing.T) {
	run(t, []stripCase{
		{"no tag", "```\nx = 1\ny = 2\n```", "x = 1\ny = 2", nil},
		{"python tag", "```python\nx = 1\n```", "x = 1", nil},
		{"starlark tag with space", "``` starlark\nx = 1\n```", "x = 1", nil},
		{"tag with attributes", "```python title=\"demo\"\nx = 1\n```", "x = 1", nil},
		{"prose after", "```python\nx = 1\n```\nThis prints nothing.\n```\nmore\n```", "x = 1", nil},
		{"closing line with spaces", "```\nx = 1\n   ```  \nprose", "x = 1", nil},
		{"closing line with tab", "```\nx = 1\n\t```", "x = 1", nil},
		{"indented opening", "   ```py\n   x = 1\n   ```", "x = 1", nil},
		{"backticks in string kept", "```\nx = \"```\"\nprint(x)\n```", "x = \"```\"\nprint(x)", nil},
		{"backticks after code kept", "```\nx = 1 # ```\n```", "x = 1 # ```", nil},
		{"four-backtick fence holds a ``` line", "````\ns = \"\"\"\n```\n\"\"\"\n````", "s = \"\"\"\n```\n\"\"\"", nil},
		{"four-backtick fence not closed by five", "````\nx\n`````\n````", "x\n`````", nil},
		{"three-backtick fence not closed by four", "```\nx\n````\n```", "x\n````", nil},
		{"empty fence", "```\n```", "", nil},
		{"blank lines inside", "```\n\n\nx = 1\n\ny = 2\n\n```", "x = 1\n\ny = 2", nil},
		{"indented body", "```\n    def f():\n        return 1\n    f()\n```", "def f():\n    return 1\nf()", nil},
		{"unclosed", "```python\nx = 1\ny = 2", "x = 1\ny = 2", nil},
		{"unclosed tag only", "```python", "", nil},
		{"unclosed glued close", "```python\nprint(1)```", "print(1)", nil},
		{"unclosed glued close no tag", "```\nx = 1\nprint(x)```", "x = 1\nprint(x)", nil},
		{"unclosed code on opening line", "```x = 1\ny = 2```", "x = 1\ny = 2", nil},
		{"unclosed code on opening line truncated", "```print(1)\nprint(2)", "print(1)\nprint(2)", nil},
		{"unclosed glued longer run kept", "```\nx = '````", "x = '````", nil},
		{"one-line triple form", "```x = 1```", "x = 1", nil},
		{"fence with prose before is not a fence", "Here:\n```\nx\n```", "Here:\n```\nx\n```", nil},
	})
}

func TestInline(t *testing.T) {
	run(t, []stripCase{
		{"single", "`x = 1`", "x = 1", nil},
		{"double", "``x = 1``", "x = 1", nil},
		{"triple", "```x = 1```", "x = 1", nil},
		{"inner spaces", "` print(1) `", "print(1)", nil},
		{"multi-line", "``x = 1\ny = 2``", "x = 1\ny = 2", nil},
		{"single with other backtick", "`a` + `b`", "`a` + `b`", nil},
		{"three single backticks", "`x = '`'`", "`x = '`'`", nil},
		{"mismatched runs", "``x`", "``x`", nil},
		{"mismatched runs reversed", "`x``", "`x``", nil},
		{"four-backtick inline left alone", "````x````", "````x````", nil},
		{"backtick inside text", "x = '`'", "x = '`'", nil},
		{"only two backticks", "``", "``", nil},
		{"one backtick", "`", "`", nil},
		{"double short", "``x``", "x", nil},
	})
}

func TestDedent(t *testing.T) {
	run(t, []stripCase{
		{"spaces", "    x = 1\n    y = 2", "x = 1\ny = 2", nil},
		{"nested", "  if x:\n      y()\n  z()", "if x:\n    y()\nz()", nil},
		{"tabs", "\tif x:\n\t\ty()\n\tz()", "if x:\n    y()\nz()", nil},
		{"tab stops", "  \tx\n    y\n\t  z", "x\ny\n  z", nil},
		{"mixed tabs and spaces", "\tif x:\n\t    y()", "if x:\n    y()", nil},
		{"tab after spaces reaches next stop", "if x:\n   \ty()", "if x:\n    y()", nil},
		{"tab expanded at column 0", "if x:\n\ty()", "if x:\n    y()", nil},
		{"tab in string kept", "\tx = \"a\tb\"\n\ty = 1", "x = \"a\tb\"\ny = 1", nil},
		{"trailing tab kept inside", "x = 1\t# note\ny", "x = 1\t# note\ny", nil},
		{"blank lines with spaces", "    x = 1\n  \n\t\n    y = 2", "x = 1\n\n\ny = 2", nil},
		{"blank line with less indent", "    if x:\n\n        y()", "if x:\n\n    y()", nil},
		{"blank lines at ends", "\n\n   \n  x\n \n\t\n", "x", nil},
		{"leading blank keeps indentation", "\n\n    if x:\n        y()\n    z()", "if x:\n    y()\nz()", nil},
		{"stray first-line indent", "  x = 1\ny = 2", "x = 1\ny = 2", nil},
		{"first line deeper than rest", "    x = [\n  1,\n  ]", "x = [\n1,\n]", nil},
		{"interior blank kept for line numbers", "```\nx = 1\n\n\ny = 2\n```", "x = 1\n\n\ny = 2", nil},
		{"form feed line is blank", "x\n\f\ny", "x\n\ny", nil},
		{"form feed before first line", "\f0", "0", nil},
		{"form feed before prefix", "\v\f>>> x", "x", nil},
		{"multi-line string dedented too", "  s = '''\n    a\n  '''", "s = '''\n  a\n'''", nil},
	})
}

func TestEmpty(t *testing.T) {
	run(t, []stripCase{
		{"empty", "", "", nil},
		{"spaces", "   ", "", nil},
		{"whitespace", " \t\r\n\v\f\n ", "", nil},
		{"inline empty", "` `", "", nil},
	})
}

func TestUnchanged(t *testing.T) {
	for _, in := range []string{
		"x = 1",
		"def f(x):\n    return x * 2\n\nf(3)",
		"s = \"\"\"\n  keep\n\"\"\"",
		"x = \"\\t\"",
		"print('a `b` c')",
		"__other = 3",
		"",
	} {
		got, err := fence.Strip(in)
		if err != nil || got != in {
			t.Errorf("Strip(%q) = %q, %v; want the input unchanged", in, got, err)
		}
	}
}

// TestNoAllocWhenUnchanged checks that clean code and clean fenced code are
// sliced, not copied: Strip runs on every call of the run tool.
func TestNoAllocWhenUnchanged(t *testing.T) {
	for _, in := range []string{
		"x = 1\nif x:\n    print(x)",
		">>> x = 1",
		"```python\nx = 1\nprint(x)\n```\nThis prints 1.",
		"`x = 1`",
	} {
		if n := testing.AllocsPerRun(100, func() { _, _ = fence.Strip(in) }); n != 0 {
			t.Errorf("Strip(%q) allocates %v times, want 0", in, n)
		}
	}
}

func TestIdempotent(t *testing.T) {
	for _, in := range []string{
		"```python\n\tif x:\n\t\ty()\n```",
		">>>   a = 1\n\n\n   b = 2",
		"\r\n    x = 1\r\n  \r\n    y = 2\r\n",
		"``x``",
		"  x = 1\ny = 2",
		"```x = 1\ny = 2```",
	} {
		once, err := fence.Strip(in)
		if err != nil {
			t.Fatalf("Strip(%q): %v", in, err)
		}
		twice, err := fence.Strip(once)
		if err != nil || twice != once {
			t.Errorf("Strip(Strip(%q)) = %q, %v; want %q", in, twice, err, once)
		}
	}
}

// TestFirstLineIsCode pins SPEC §2.1.7: the first line of the result is the
// first line of code inside the fence, so error line numbers match.
func TestFirstLineIsCode(t *testing.T) {
	got, _ := fence.Strip("__run\n\n```starlark\n\nx = 1\n\n1 / 0\n```\nThat fails.")
	lines := strings.Split(got, "\n")
	if len(lines) != 3 || lines[0] != "x = 1" || lines[2] != "1 / 0" {
		t.Fatalf("got lines %q, want [x = 1, \"\", 1 / 0]", lines)
	}
}
