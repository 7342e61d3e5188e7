package pyrt

import (
	"errors"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp"
)

// dag is 40 tuples, each holding the previous twice: 2**40 leaves to
// anything that walks it without noticing the sharing.
const dag = "a = (1,)\nfor i in range(40):\n    a = (a, a)\n"

// twins are two lists built alike but distinct at every level: comparing
// them visits 2**30 leaves.
const twins = "a = [0]\nb = [0]\nfor i in range(30):\n    a, b = [a, a], [b, b]\n"

// deep is a list nested 100,000 levels.
const deep = "x = []\nfor i in range(100000):\n    x = [x]\n"

// TestBuiltinsStayWithinBudgets runs, for each builtin and helper that
// could do work out of proportion to its input, a program that asks for
// it: each must end with its budget's error (or a clear error of its own)
// well within the run's timeout, never run on or take the memory first.
func TestBuiltinsStayWithinBudgets(t *testing.T) {
	checkBoundedWithin(t, time.Second, []boundCase{
		{"string repetition", `"x" * 1000000000`, "memory limit of 16 MiB exceeded"},
		{"string repetition, count first", `1000000000 * "x"`, "memory limit of 16 MiB exceeded"},
		{"list repetition", `[0] * 100000000`, "memory limit of 16 MiB exceeded"},
		{"tuple repetition", `(1, 2) * 50000000`, "memory limit of 16 MiB exceeded"},
		{"repetition by assignment", "s = 'ab'\ns *= 100000000", "memory limit of 16 MiB exceeded"},
		{"bytearray repetition", `bytearray(b"x" * 16) * 100000000`, "memory limit of 16 MiB exceeded"},
		{"text reversed again and again", "s = 'a' * 3000000\nwhile True:\n    x = s[::-1]", "timed out after 1s"},
		{"list taken by steps again and again", "l = [0] * 400000\nwhile True:\n    x = l[::-2]", "timed out after 1s"},
		{"every character replaced again and again", "s = 'a' * 3000000\nwhile True:\n    x = s.replace('a', 'b')", "timed out after 1s"},
		{"long text upper again and again", "s = 'ab' * 1500000\nwhile True:\n    x = s.upper()", "timed out after 1s"},
		{"long text title again and again", "s = 'éa' * 500000\nwhile True:\n    x = s.title()", "timed out after 1s"},
		{"long text repr again and again", "s = 'a\\n' * 1500000\nwhile True:\n    x = repr(s)", "timed out after 1s"},
		{"long bytes hex again and again", "s = b'a' * 3000000\nwhile True:\n    x = s.hex()", "timed out after 1s"},
		{"long bytes split again and again", "s = b'a ' * 1500000\nwhile True:\n    x = s.split()", "limit"},
		{"bytearray repetition by assignment", "b = bytearray(b'x' * 16)\nb *= 100000000", "memory limit of 16 MiB exceeded"},
		{"bytearray doubled", "b = bytearray(b'x')\nwhile True:\n    b = b + b", "memory limit of 16 MiB exceeded"},
		{"list of a range", `list(range(1000000000))`, "memory limit of 16 MiB exceeded"},
		{"tuple of a range", `tuple(range(1000000000))`, "memory limit of 16 MiB exceeded"},
		{"sorted range", `sorted(range(1000000000))`, "memory limit of 16 MiB exceeded"},
		{"reversed range", `reversed(range(1000000000))`, "memory limit of 16 MiB exceeded"},
		{"enumerate range", `list(enumerate(range(1000000000)))`, "memory limit of 16 MiB exceeded"},
		{"zip ranges", `list(zip(range(1000000000), range(1000000000)))`, "memory limit of 16 MiB exceeded"},
		{"extend by a range", "x = []\nx.extend(range(1000000000))", "limit"},
		{"text appended without end", "s = ''\nwhile True:\n    s += 'abcdefgh' * 1000", "memory limit of 16 MiB exceeded"},
		{"keys view with a range", "d = {1: 2}\nd.keys() | range(1000000000)", "limit"},
		{"slice assigned from a range", "xs = [0] * 10\nxs[::2] = range(1000000000)", "limit"},
		{"set union with a range", "set().union(range(1000000000))", "limit"},
		{"all over a range", "all(range(1, 1000000000000))", "timed out after 1s"},
		{"min of a range", "min(range(1000000000000))", "timed out after 1s"},
		{"str of shared parts", dag + "str(a)", "limit"},
		{"repr of shared parts", dag + "repr(a)", "limit"},
		{"print of shared parts", dag + "print(a)", "limit"},
		{"% of shared parts", dag + `"%s" % (a,)`, "limit"},
		{"format of shared parts", dag + `"{}".format(a)`, "limit"},
		{"fail with shared parts", dag + "fail(a)", "limit"},
		{"result of shared parts", dag + "a", "limit"},
		{"str of a deep list", deep + "str(x)", "value nested more than 1000 levels deep"},
		{"result of a deep list", deep + "x", "nested more than 1000 levels"},
		{"sorting twins", twins + "sorted([a, b])", "limit"},
		{"wide padding", `"{:1000000000}".format(1)`, "memory limit of 16 MiB exceeded"},
		{"wide printf", `"%1000000000d" % 1`, "memory limit of 16 MiB exceeded"},
		{"long precision", `"%.1000000000f" % 1.5`, "memory limit of 16 MiB exceeded"},
		{"replace everywhere", `("x" * 1000000).replace("", "y" * 1000)`, "memory limit of 16 MiB exceeded"},
		{"join with a long separator", `("x" * 10000000).join(["a"] * 100)`, "memory limit of 16 MiB exceeded"},
		{"format repeating a field", `("{0}" * 10000).format("x" * 10000)`, "memory limit of 16 MiB exceeded"},
		{"parse a huge integer", `int("9" * 6000)`, "ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 6000 digits"},
		{"power beyond the digits", `10 ** 6000`, "integer size limit of 5000 digits exceeded"},
		{"square until huge", "x = 3\nfor i in range(30):\n    x = x * x", "integer size limit of 5000 digits exceeded"},
		{"square by assignment", "x = 3\nfor i in range(30):\n    x *= x", "integer size limit of 5000 digits exceeded"},
		{"print without end", "while True:\n    print('x' * 1000, end='')", "printed output limit of 1 MiB exceeded"},
	})
}

// TestBudgetsAreNotCaughtAsValues: a budget error stays a budget error
// through the helpers (errors.Is reaches the sentinel).
func TestBudgetErrorsKeepTheirCause(t *testing.T) {
	for code, sentinel := range map[string]error{
		`"x" * 1000000000`:          interp.ErrMemoryLimit,
		`10 ** 6000`:                interp.ErrIntLimit,
		dag + "str(a)":              interp.ErrLimit,
		`"{:1000000000}".format(1)`: interp.ErrMemoryLimit,
	} {
		_, err := run(t, code, interp.Options{Timeout: time.Second, MaxSteps: 10_000_000, MaxMemory: 16 << 20,
			Watchdog: interp.NewWatchdog(), MaxIntDigits: 5000})
		if !errors.Is(err, sentinel) {
			t.Errorf("%q: %v does not match %v", code, err, sentinel)
		}
	}
}

// TestWithinBudgetsUnchanged: the same builtins on ordinary inputs give
// what Starlark gives.
func TestWithinBudgetsUnchanged(t *testing.T) {
	tests := []struct{ code, want string }{
		{`"ab" * 3`, "ababab"},
		{`3 * "ab"`, "ababab"},
		{`[1] * 3`, "[1,1,1]"},
		{`(1,) * 2`, "[1,1]"},
		{`2 * 3`, "6"},
		{`2.5 * 2`, "5.0"},
		{`9223372036854775807 * 2`, "18446744073709551614"},
		{`-9223372036854775808 * -1`, "9223372036854775808"},
		{`"ab" * 0`, ""},
		{`"ab" * -1`, ""},
		{`"ab" * True`, "ab"},
		{"x = 'a'\nx *= 3\nx", "aaa"},
		{"d = {'k': 2}\nd['k'] *= 5\nd['k']", "10"},
		{`list(range(3))`, "[0,1,2]"},
		{`list(range(10, 0, -3))`, "[10,7,4,1]"},
		{`len(range(0, 1000000000000, 7))`, "142857142858"},
		{`range(5)[1:4]`, "range(1, 4)"},
		{`3 in range(0, 10, 3)`, "True"},
		{`range(3) == range(0, 3)`, "True"},
		{`sorted([3, 1, 2], reverse=True)`, "[3,2,1]"},
		{`sorted(["b", "A", "c"], key=lambda s: s.lower())`, `["A","b","c"]`},
		{`sorted([[2, 1], [1, 5], [1, 2]])`, "[[1,2],[1,5],[2,1]]"},
		{`sorted([(1, "b"), (1, "a")])`, `[[1,"a"],[1,"b"]]`},
		{`list(enumerate("ab".elems(), start=1))`, `[[1,"a"],[2,"b"]]`},
		{`list(zip([1, 2, 3], "ab".elems()))`, `[[1,"a"],[2,"b"]]`},
		{`list(reversed([1, 2, 3]))`, "[3,2,1]"},
		{`str([1, "a", None])`, `[1, 'a', None]`},
		{`"-".join(["a", "b"])`, "a-b"},
		{`"aXbX".replace("X", "-")`, "a-b-"},
		{`"aXbX".replace("X", "-", 1)`, "a-bX"},
		{`"%s=%d" % ("a", 1)`, "a=1"},
		{`"{}-{}".format(1, 2)`, "1-2"},
		{`int("42")`, "42"},
		{`int("ff", 16)`, "255"},
		{"s = struct(format=lambda: 'mine')\ns.format()", "mine"},
	}
	for _, tt := range tests {
		res, err := run(t, tt.code, interp.Options{MaxIntDigits: 5000})
		if err != nil {
			t.Errorf("%q: %v", tt.code, err)
			continue
		}
		if res.Text != tt.want {
			t.Errorf("%q = %s, want %s", tt.code, res.Text, tt.want)
		}
	}
}
