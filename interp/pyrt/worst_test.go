package pyrt

import (
	"errors"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/quiet"
	"github.com/onetool-dev/onetool/interp"
)

// endless is an iterator without end, as itertools.count() is: a program
// can feed it to every builtin that builds something.
func endless() *starlark.Builtin {
	return starlark.NewBuiltin("endless", func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		i := 0
		return NewIteratorRepr(thread, "endless", func() string { return "endless()" }, func(*starlark.Thread) (starlark.Value, bool, error) {
			i++
			return starlark.MakeInt(i), true, nil
		}), nil
	})
}

// worstGlobals are the builtins with endless().
func worstGlobals() starlark.StringDict {
	g := starlark.StringDict{"endless": endless()}
	for k, v := range testGlobals() {
		g[k] = v
	}
	g.Freeze()
	return g
}

// TestWorstInputsOfTheCore runs, at a 64 MiB memory budget, the worst
// inputs of the operators and builtins of the language core (issue 27,
// item 2): each must end with the error a user sees (the budget it
// reached, or CPython's ValueError for the 4,300-digit rule), by itself
// (no overrun), and afterwards the process must go quiet within a second:
// no computation left running, heap and RSS back near where they were.
// Not parallel: quiet measures the whole process.
func TestWorstInputsOfTheCore(t *testing.T) {
	if testing.Short() {
		t.Skip("fills a 64 MiB budget dozens of times")
	}
	const (
		intLimit = "integer size limit of 5000 digits exceeded"
		memLimit = "memory limit of 64 MiB exceeded"
		toText   = "ValueError: Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"
		fromText = "ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 1000000 digits"
	)
	tests := []struct{ name, code, want string }{
		// Every operation that makes an int is held to max_int_digits.
		{"int doubled by +", "v = 1\nwhile True:\n    v = v + v", intLimit},
		{"int doubled by +=", "v = 1\nwhile True:\n    v += v", intLimit},
		{"int doubled by -", "v = 1\nwhile True:\n    v = v - -v", intLimit},
		{"int doubled by -=", "v = -1\nwhile True:\n    v -= -v", intLimit},
		{"fibonacci", "a, b = 0, 1\nwhile True:\n    a, b = b, a + b", intLimit},
		{"int times 2", "v = 3\nwhile True:\n    v = v * 2", intLimit},
		{"int shifted", "v = 1\nwhile True:\n    v <<= 5", intLimit},
		{"one huge shift", "1 << 10**12", intLimit},
		{"shift by a bool loop", "v = 1\nwhile True:\n    v = v << True", intLimit},
		{"sum of big ints", "sum([10**4999] * 100)", intLimit},
		{"round up past the bound", "round(10**5000 - 1, -1)", intLimit},
		{"power", "pow(7, 10**9)", intLimit},
		{"int of a long text", `int("1" * 1000000)`, fromText},
		{"str of a long int", "str(10**4400)", toText},
		{"f-string of a long int", `f"{10**4400}"`, toText},
		{"%d of a long int", `"%d" % 10**4400`, toText},
		{"print of a long int", "print(10**4400)", toText},

		// A concatenation is sized before it is made.
		{"list doubled", "v = [0]\nwhile True:\n    v = v + v", memLimit},
		{"list doubled in place", "v = [0]\nwhile True:\n    v += v", memLimit},
		{"list doubled by * 2", "v = [0]\nwhile True:\n    v = v * 2", memLimit},
		{"tuple doubled", "v = (0,)\nwhile True:\n    v = v + v", memLimit},
		{"text doubled", "v = 'é'\nwhile True:\n    v = v + v", memLimit},
		{"bytes doubled", "v = b'x'\nwhile True:\n    v = v + v", memLimit},

		// What builtins build from an endless iterator counts as it grows.
		{"list of endless", "list(endless())", memLimit},
		{"tuple of endless", "tuple(endless())", memLimit},
		{"sorted endless", "sorted(endless())", memLimit},
		{"set of endless", "set(endless())", memLimit},
		{"frozenset of endless", "frozenset(endless())", memLimit},
		{"set updated by endless", "s = set()\ns.update(endless())", memLimit},
		{"dict of endless pairs", "dict(zip(endless(), endless()))", memLimit},
		{"dict.fromkeys of endless", "dict.fromkeys(endless())", memLimit},
		{"join of endless", `"".join(map(str, endless()))`, memLimit},
		{"star of endless", "[*endless()]", memLimit},
		{"call with endless", "def f(*a):\n    return len(a)\nf(*endless())", memLimit},
		{"unpack endless", "a, *b = endless()", memLimit},
		{"list extended by endless", "x = []\nx += endless()", memLimit},
		{"list.extend of endless", "x = []\nx.extend(endless())", memLimit},

		// A comprehension's list is seen while it is being built.
		{"comprehension of endless", "[x for x in endless()]", memLimit},
		{"comprehension of a range", "[x for x in range(10**10)]", memLimit},
		{"comprehension of texts", "[str(x) * 10 for x in range(10**10)]", memLimit},
		{"dict comprehension", "{x: x for x in range(10**10)}", memLimit},
		{"set comprehension", "{x for x in range(10**10)}", memLimit},

		// A dict filled by the interpreter, not by a builtin, is seen as
		// its table grows.
		{"dict filled by a loop", "d = {}\ni = 0\nwhile True:\n    d[i] = i\n    i += 1", memLimit},

		// The text of a value is sized before it is written: escapes
		// make the repr of bytes four times longer.
		{"bytes as the result", "bytes(2 * 10**8)", memLimit},
		{"bytearray as the result", "bytearray(2 * 10**8)", memLimit},
		{"bytes in a list as the result", "[bytes(10**8)]", memLimit},
		{"bytes in a dict as the result, json_h", "__format__ = 'json_h'\n{'k': bytes(10**8)}", memLimit},
		{"repr of long bytes", "x = repr(bytes(10**8))", memLimit},
		{"repr of control characters", "x = repr('\\x00' * 10**8)", memLimit},
		// A text that repeats one long string is far larger than the
		// values: refused before its buffer doubles past the budget.
		{"repr of one text shared", "x = repr(['x' * 10**6] * 1000)", memLimit},
		{"%s of one text shared", "x = '%s' % (['x' * 10**6] * 1000,)", memLimit},
		{"f-string of one text shared", "x = f\"{['x' * 10**6] * 1000}\"", memLimit},
		{"format of one text shared", "x = '{}'.format(['x' * 10**6] * 1000)", memLimit},
		{"one text shared as the result", "['x' * 10**6] * 1000", memLimit},

		// Deep structures are counted at what Go allocates for them.
		{"list nested without end", "x = []\nwhile True:\n    x = [x]", memLimit},
		{"dict nested without end", "x = {}\nwhile True:\n    x = {'k': x}", memLimit},
		{"tuple nested without end", "x = ()\nwhile True:\n    x = (x, 1)", memLimit},
		{"pairs nested without end", "x = []\ni = 0\nwhile True:\n    x = [x, i]\n    i += 1", memLimit},
	}
	g := worstGlobals()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := quiet.Self(t)
			start := time.Now()
			timeout := 30 * time.Second
			_, err := run(t, tt.code, interp.Options{
				Predeclared: g, Timeout: timeout, MaxSteps: 10_000_000_000, MaxMemory: 64 << 20,
				Watchdog: interp.NewWatchdog(), MaxIntDigits: 5000, MaxOutput: 1 << 20,
				OverrunGrace: time.Second,
			})
			took := time.Since(start)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want %q (after %s)", err, tt.want, took)
			}
			if errors.Is(err, interp.ErrOverrun) {
				t.Errorf("the run did not stop by itself: %v", err)
			}
			quiet.Wait(t, base, time.Second)
		})
	}
}

// An exception whose message is huge is answered with its start and a
// note of how much is left out, at once: classifying and sending 200 MB
// of message took a core for a minute after the answer. Inside the
// program, str(e) is whole.
func TestHugeErrorMessageClipped(t *testing.T) {
	g := worstGlobals()
	for _, code := range []string{
		`raise ValueError("x" * 3 * 10**7)`,
		`fail("x" * 3 * 10**7)`,
		`{}["x" * 3 * 10**7]`,
	} {
		t.Run(code, func(t *testing.T) {
			base := quiet.Self(t)
			_, err := run(t, code, interp.Options{Predeclared: g, Timeout: 10 * time.Second, MaxMemory: 256 << 20, Watchdog: interp.NewWatchdog()})
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if len(msg) > 70<<10 || !strings.Contains(msg, "more bytes of the message not shown)") {
				t.Errorf("error of %d bytes: %.100q…%q", len(msg), msg, msg[max(0, len(msg)-80):])
			}
			quiet.Wait(t, base, time.Second)
		})
	}
	res, err := run(t, "try:\n    raise ValueError('y' * 100000)\nexcept ValueError as e:\n    n = len(str(e))\nn", interp.Options{Predeclared: g})
	if err != nil || res.Text != "100000" {
		t.Errorf("str(e) inside the program: %v %v", res, err)
	}
}
