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

// TestDifferentialStrMethods checks every str method (and bytes.decode)
// against what CPython gives for the same expressions
// (testdata/strmethods_cases.txt; regenerate the answers with
// go test ./interp/pyrt -run DifferentialStrMethods -update).
func TestDifferentialStrMethods(t *testing.T) {
	g := testGlobals()
	pydiff.Check(t, "testdata/strmethods_cases.txt", *update, func(code string) pydiff.Outcome {
		return Eval(code, g)
	})
}

// Every text a method returns is of the kind its characters call for: a
// starlark.String when all ASCII, else an *interp.Unicode, so that equal
// texts compare equal and index alike.
func TestStrMethodsResultKinds(t *testing.T) {
	g := testGlobals()
	tests := []struct {
		code    string
		unicode bool
	}{
		{`"straße".upper()`, false}, // STRASSE
		{`"é".upper()`, true},
		{`"abc".upper()`, false},
		{`"  é  ".strip()`, true},
		{`"é  x".split()[1]`, false},
		{`"é,x".partition(",")[2]`, false},
		{`"x".center(5, "é")`, true},
		{`"ﬁ".casefold()`, false},
		{`b"caf\xc3\xa9".decode()`, true},
		{`b"cafe".decode()`, false},
		{`"abc".translate({97: "é"})`, true},
		{`"é".translate({233: "e"})`, false},
	}
	for _, tt := range tests {
		res, err := interp.Exec(context.Background(), tt.code, interp.Options{Predeclared: g, Parse: python.Parse})
		if err != nil {
			t.Fatalf("%s: %v", tt.code, err)
		}
		_, isUnicode := res.Value.(*interp.Unicode)
		_, isString := res.Value.(starlark.String)
		if isUnicode != tt.unicode || isString == tt.unicode {
			t.Errorf("%s gave a %T", tt.code, res.Value)
		}
	}
}

// A method called on a value that is not text calls that value's own
// method: a list's index, a module's split.
func TestStrMethodNamesOnOtherValues(t *testing.T) {
	tests := []struct{ code, want string }{
		{`[1, 2, 3].index(2)`, "1"},
		{`struct(upper = lambda: "up").upper()`, "up"},
		{`"é".elems()[0]`, "é"},
		{`len("aé".codepoint_ords())`, "2"},
		{`"abc".elem_ords()[2]`, "99"},
		{`[1].strip()`, "AttributeError: 'list' object has no attribute 'strip'"},
	}
	g := starlark.StringDict{}
	for k, v := range testGlobals() {
		g[k] = v
	}
	g["struct"] = interp.NewBuiltin("struct", func(_ *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return structOf(kwargs), nil
	})
	for _, tt := range tests {
		got := Eval(tt.code, g)
		text := got.Text
		if got.Class != "" {
			text = got.Class + ": " + got.Msg
		}
		if text != tt.want && strings.Trim(text, "'") != tt.want {
			t.Errorf("%s = %s, want %s", tt.code, text, tt.want)
		}
	}
}

// structOf is a value with the given fields, for the test above.
type fields map[string]starlark.Value

func structOf(kwargs []starlark.Tuple) fields {
	f := fields{}
	for _, kv := range kwargs {
		k, _ := starlark.AsString(kv[0])
		f[k] = kv[1]
	}
	return f
}

func (f fields) String() string        { return "struct" }
func (f fields) Type() string          { return "struct" }
func (f fields) Freeze()               {}
func (f fields) Truth() starlark.Bool  { return true }
func (f fields) Hash() (uint32, error) { return 0, errors.New("unhashable") }
func (f fields) Attr(name string) (starlark.Value, error) {
	return f[name], nil
}
func (f fields) AttrNames() []string { return nil }

// Methods whose result an argument sizes are refused at the memory
// budget before the result is made; those whose result grows as they go
// (translate, format_map, decode) stop at it.
func TestStrMethodsStayWithinBudgets(t *testing.T) {
	const timeout = time.Second
	tests := []struct{ name, code, want string }{
		{"center", `"x".center(1000000000)`, "memory limit of 4 MiB exceeded"},
		{"center, huge width", `"x".center(1 << 62, "é")`, "MemoryError"},
		{"ljust", `"x".ljust(1000000000, "é")`, "memory limit of 4 MiB exceeded"},
		{"rjust", `"é".rjust(1000000000)`, "memory limit of 4 MiB exceeded"},
		{"zfill", `"1".zfill(1000000000)`, "memory limit of 4 MiB exceeded"},
		{"expandtabs", `("\t" * 1000).expandtabs(1000000)`, "memory limit of 4 MiB exceeded"},
		{"expandtabs, most columns", `("\t" * 1000000).expandtabs(2147483647)`, "MemoryError"},
		{"translate", `("a" * 10000).translate({97: "x" * 1000})`, "memory limit of 4 MiB exceeded"},
		{"split into many", `("a," * 1000000).split(",")`, "memory limit of 4 MiB exceeded"},
		{"split at whitespace into many", `("a " * 1000000).split()`, "memory limit of 4 MiB exceeded"},
		{"splitlines into many", `("a\n" * 1000000).splitlines()`, "memory limit of 4 MiB exceeded"},
		{"format_map repeating a field", `("{a}" * 10000).format_map({"a": "x" * 1000})`, "memory limit of 4 MiB exceeded"},
		{"decode", `(b"\xff" * 2000000).decode("utf-8", "backslashreplace")`, "memory limit of 4 MiB exceeded"},
		{"upper of a huge text", `("é" * 1000000).upper()`, "memory limit of 4 MiB exceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := run(t, tt.code, interp.Options{
				Timeout: timeout, MaxSteps: 1_000_000_000, MaxMemory: 4 << 20, Watchdog: interp.NewWatchdog(),
				MaxIntDigits: 5000, MaxOutput: 1 << 20,
			})
			took := time.Since(start)
			if err == nil {
				t.Fatalf("no error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want %q", err, tt.want)
			}
			if took > 3*timeout {
				t.Errorf("took %v", took)
			}
		})
	}
}

// Each method charges the run's step budget for the text it goes over:
// one call on a text of some 300 KB costs thousands of steps.
func TestStrMethodsChargeTheirWork(t *testing.T) {
	type call struct{ text, call string }
	var calls []call
	for _, text := range []string{`"a b,\t" * 60000`, `"é b,\t" * 50000`} {
		for _, c := range []string{
			"upper()", "lower()", "title()", "swapcase()", "casefold()", "capitalize()",
			"split()", "rsplit()", "split(',')", "rsplit(',', 1)", "splitlines()", "find('z')",
			"rfind('z')", "count('a')", "partition('z')", "islower()", "istitle()",
			"expandtabs()", "translate({})", "encode()", "encode('latin-1')", "format_map({})",
		} {
			calls = append(calls, call{text, c})
		}
	}
	calls = append(calls,
		call{`"abc" * 100000`, "isalpha()"}, call{`"aé" * 100000`, "isalnum()"},
		call{`" \t" * 150000`, "isspace()"}, call{`"123" * 100000`, "isdigit()"},
		call{`"x_1" * 100000`, "isidentifier()"}, call{`"é" * 150000`, "isprintable()"},
	)
	steps := func(code string) uint64 {
		res, err := run(t, code, interp.Options{MaxSteps: 1 << 40})
		if err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		return res.Steps
	}
	for _, c := range calls {
		base := steps("s = " + c.text + "\nlen(s)")
		if got := steps("s = "+c.text+"\ns."+c.call) - base; got < 300000/64/2 {
			t.Errorf("s.%s with s = %s: %d steps", c.call, c.text, got)
		}
	}
}

func itoa(n int) string { return starlark.MakeInt(n).String() }
