package pyrt

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// TestDifferentialBuiltins checks the builtins, the type objects and the
// list, dict and set methods against what CPython gives for the same
// expressions (testdata/builtins_cases.txt; regenerate the answers with
// go test ./interp/pyrt -run DifferentialBuiltins -update).
func TestDifferentialBuiltins(t *testing.T) {
	g := testGlobals()
	pydiff.Check(t, "testdata/builtins_cases.txt", *update, func(code string) pydiff.Outcome {
		return Eval(code, g)
	})
}

// runText runs code with the package's builtins and returns what the
// user would see, or the error's text.
func runText(t *testing.T, code string) string {
	t.Helper()
	res, err := run(t, code, interp.Options{Timeout: 5 * time.Second, MaxIntDigits: 5000})
	if err != nil {
		return "error: " + err.Error()
	}
	return res.Text
}

// TestTypeObjects: what a program sees of the classes, beyond what the
// differential cases can print.
func TestTypeObjects(t *testing.T) {
	tests := []struct{ code, want string }{
		// The result of a program that is a class, and print of classes.
		{"type(1)", "<class 'int'>"},
		{"print(int, type('x'), type(None))", "<class 'int'> <class 'str'> <class 'NoneType'>"},
		{"type(1) == int and type(int) == type", "True"},
		{"type(struct(a=1)) == type(struct(b=2))", "True"},
		{"type(struct(a=1)).__name__", "struct"},
		{"isinstance(struct(a=1), object)", "True"},
		{"type(math).__name__", "module"},
		// A str that is not ASCII is a str.
		{"s = 'h' + chr(233)\n[type(s) == str, isinstance(s, str), str.upper(s), len(s)]", `[true,true,"HÉ",2]`},
		// Classes are values: keys, members of lists, arguments.
		{"{int: 'i', str: 's'}[type('x')]", "s"},
		{"[t.__name__ for t in [int, float] if isinstance(2.5, t)]", `["float"]`},
		{"list(map(int, ['1', '2']))", "[1,2]"},
		{"sorted(['b', 'C', 'a'], key=str.lower)", `["a","b","C"]`},
		// Unbound methods of onetool's own implementations and of
		// go.starlark.net's.
		{"list(map(str.strip, [' a ', 'b ']))", `["a","b"]`},
		{"str.format('{}-{}', 1, 2)", "1-2"},
		{"xs = [3, 1, 2]\nlist.sort(xs)\nxs", "[1,2,3]"},
		{"dict.fromkeys('ab', 0)", `{"a":0,"b":0}`},
		{"str.upper(1)", "error: line 1: TypeError: descriptor 'upper' for 'str' objects doesn't apply to a 'int' object"},
		{"int.nosuch", "error: line 1: AttributeError: type object 'int' has no attribute 'nosuch'"},
		{"hasattr(dict, 'fromkeys') and not hasattr(int, 'nosuch')", "True"},
		{"type('C', (), {})", "error: line 1: TypeError: type() cannot make classes here: use a dict or a struct(...) for records"},
		{"NoneType = type(None)\nNoneType()", "error: line 2: TypeError: cannot create 'NoneType' instances"},
		// object() is a sentinel equal only to itself.
		{"a = object()\nb = object()\n[a == a, a == b, a in [a], type(a).__name__]", `[true,false,true,"object"]`},
		// A frozenset is hashable; its result is a list of its elements.
		{"frozenset([2, 1])", "[1,2]"},
		{"repr(frozenset([1, 2]))", "frozenset({1, 2})"},
		{"seen = set()\nseen.add(frozenset([1, 2]))\nfrozenset([2, 1]) in seen", "True"},
		{"{frozenset('ab'): 1}[frozenset('ba')]", "1"},
		{"set([1]) == frozenset([1])", "True"},
		{"hash('abc') == hash('ab' + 'c')", "True"},
	}
	for _, tt := range tests {
		if got := runText(t, tt.code); got != tt.want {
			t.Errorf("%q\n got: %s\nwant: %s", tt.code, got, tt.want)
		}
	}
}

// TestTypeIdentity: type(x) returns the very value the name denotes, so
// that `type(x) is int` (lowered to identity) holds.
func TestTypeIdentity(t *testing.T) {
	g := testGlobals()
	res, err := interp.Exec(context.Background(), "[type(1), type('x'), type([]), type(True), type(None), type(int)]", interp.Options{Predeclared: g, Parse: python.Parse})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Value.(*starlark.List)
	for i, name := range []string{"int", "str", "list", "bool"} {
		if got.Index(i) != g[name] {
			t.Errorf("type(...) of a %s is not the value named %s", name, name)
		}
	}
	if none := got.Index(4).(*TypeObj); none.Name() != "NoneType" || none.ctor != nil {
		t.Errorf("type(None) = %v", none)
	}
	if got.Index(5) != g["type"] {
		t.Errorf("type(int) is not type")
	}
}

// TestTypeAttributesHook: the classes' attributes can be extended while
// Builtins is built (str.maketrans is attached so).
func TestTypeAttributesHook(t *testing.T) {
	ms := methods()
	tt := newTypeTable(ms, ms.helpers())
	tt.byName["str"].setAttr("maketrans", starlark.String("hooked"))
	d := tt.part()
	d.Freeze()
	res, err := interp.Exec(context.Background(), "str.maketrans", interp.Options{Predeclared: d, Parse: python.Parse})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "hooked" {
		t.Errorf("str.maketrans = %s", res.Text)
	}
}

// boundCase is a program that asks a builtin for work out of proportion
// to its input, and the error (a budget's, or a clear one of its own) it
// must end with.
type boundCase struct{ name, code, want string }

// checkBounded runs each case under small budgets: each must end with
// its error well within the run's timeout, stopped by the builtin itself
// (not answered at the deadline while Go code runs on).
func checkBounded(t *testing.T, tests []boundCase) {
	t.Helper()
	checkBoundedWithin(t, 500*time.Millisecond, tests)
}

// checkBoundedWithin is checkBounded with the runs' timeout.
func checkBoundedWithin(t *testing.T, timeout time.Duration, tests []boundCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			timeout := timeout
			if strings.Contains(tt.want, "memory limit") {
				// Growing to the memory limit takes longer than the run's
				// usual timeout on a loaded machine; the limit must still
				// come first.
				timeout = max(timeout, 5*time.Second)
			}
			start := time.Now()
			_, err := run(t, tt.code, interp.Options{
				Timeout: timeout, MaxSteps: 1_000_000_000, MaxMemory: 16 << 20, Watchdog: interp.NewWatchdog(),
				MaxIntDigits: 5000, MaxOutput: 1 << 20,
				// A builtin that checks its budget stops within
				// milliseconds; one that does not runs on for seconds.
				OverrunGrace: 400 * time.Millisecond,
			})
			took := time.Since(start)
			if err == nil {
				t.Fatalf("no error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want %q", err, tt.want)
			}
			if took > timeout+1500*time.Millisecond {
				t.Errorf("took %s", took)
			}
			if errors.Is(err, interp.ErrOverrun) {
				t.Errorf("the builtin did not stop itself: %v", err)
			}
		})
	}
}

// TestTypeConstructorsStayWithinBudgets: the constructors refuse a
// collection beyond the memory budget by its length, before making it,
// and walk a tuple built from shared parts under the budget.
func TestTypeConstructorsStayWithinBudgets(t *testing.T) {
	checkBounded(t, []boundCase{
		{"set of a range", "set(range(1000000000))", "memory limit of 16 MiB exceeded"},
		{"frozenset of a range", "frozenset(range(1000000000))", "memory limit of 16 MiB exceeded"},
		{"dict of pairs", "dict(zip(range(1000000000), range(1000000000)))", "memory limit of 16 MiB exceeded"},
		{"dict.fromkeys of a range", "dict.fromkeys(range(1000000000))", "memory limit of 16 MiB exceeded"},
		{"bytes of a count", "bytes(1000000000)", "memory limit of 16 MiB exceeded"},
		{"set of a tuple of shared parts", dag + "set([a])", "limit"},
		{"frozenset of a tuple of shared parts", dag + "frozenset([a])", "limit"},
		{"int of many digits", `int("1" * 10000000, 3)`, "Exceeds the limit (4300 digits) for integer string conversion: value has 10000000 digits"},
		{"int of many other digits", `int(chr(1633) * 6000)`, "Exceeds the limit (4300 digits) for integer string conversion: value has 6000 digits"},
		{"int of many binary digits", `int("1" * 20000, 2)`, "integer size limit of 5000 digits exceeded"},
		{"isinstance of nested tuples", "t = int\nfor i in range(2000):\n    t = (t,)\nisinstance(1, t)", "nested more than 1000 levels"},
	})
}
