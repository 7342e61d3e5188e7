package stdlib

import (
	"context"
	"errors"
	"flag"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
	"github.com/onetool-dev/onetool/interp/python"
)

// update regenerates testdata/*.want with python3:
// go test ./interp/stdlib -run Differential -update
var update = flag.Bool("update", false, "regenerate testdata/*.want with python3")

func globals() starlark.StringDict {
	g := Globals(0)
	g.Freeze()
	return g
}

func run(code string, opts interp.Options) (*interp.Result, error) {
	opts.Predeclared = globals()
	opts.Parse = python.Parse
	return interp.Exec(context.Background(), code, opts)
}

// checkBounded runs each program under small budgets (maxSteps steps, 16
// MiB, 10 s): each must end with a budget's error, well within the time.
func checkBounded(t *testing.T, maxSteps uint64, codes ...string) {
	t.Helper()
	for _, code := range codes {
		start := time.Now()
		_, err := run(code, interp.Options{Timeout: 10 * time.Second, MaxSteps: maxSteps, MaxMemory: 16 << 20, Watchdog: interp.NewWatchdog()})
		if !isBudget(err) {
			t.Errorf("%s: %v, want a budget's error", code, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s took %s", code, d)
		}
	}
}

func eval(code string) pydiff.Outcome {
	res, err := run(code, interp.Options{MaxIntDigits: 5000})
	if err != nil {
		var ex *pyrt.Exception
		if errors.As(pyrt.Classify(err), &ex) { // an error of the engine as a program catches it
			return pydiff.Outcome{Class: ex.Class, Msg: ex.Msg}
		}
		return pydiff.Outcome{Class: "?", Msg: strings.TrimPrefix(err.Error(), "line 1: ")}
	}
	if s, ok := interp.AsText(res.Value); ok {
		return pydiff.Outcome{Text: s}
	}
	r, err := interp.Repr(nil, res.Value)
	if err != nil {
		return pydiff.Outcome{Class: "?", Msg: err.Error()}
	}
	return pydiff.Outcome{Text: r}
}

func TestDifferentialJSON(t *testing.T) {
	pydiff.Check(t, "testdata/json_cases.txt", *update, eval)
}

// Starlark's own json functions keep their meaning: encode sorts keys and
// writes no spaces, decode returns a default for bad input, indent
// re-indents.
func TestStarlarkJSON(t *testing.T) {
	for code, want := range map[string]string{
		`json.encode({"b": 1, "a": [1, "x", None, True]})`: `{"a":[1,"x",null,true],"b":1}`,
		`json.encode(struct(z=1, a=2))`:                    `{"a":2,"z":1}`,
		`json.decode('{"a": [1, 2.5]}')["a"][1]`:           `2.5`,
		`json.decode('nope', default="d")`:                 `d`,
		`json.indent('{"a":[1,2]}')`:                       "{\n\t\"a\": [\n\t\t1,\n\t\t2\n\t]\n}",
		`json.encode_indent({"a": 1}, indent="  ")`:        "{\n  \"a\": 1\n}",
		`json.encode("<&>")`:                               `"<&>"`,
	} {
		res, err := run(code, interp.Options{})
		if err != nil {
			t.Errorf("%s: %v", code, err)
			continue
		}
		if res.Text != want {
			t.Errorf("%s = %s, want %s", code, res.Text, want)
		}
	}
	for code, want := range map[string]string{
		`json.encode({1: 2})`:                 "json.encode: dict has int key, want string",
		`json.encode(float("nan"))`:           "json.encode: cannot encode non-finite float nan",
		`json.decode("[1,")`:                  "json.decode: Expecting value: line 1 column 4 (char 3)",
		"l = []\nl.append(l)\njson.encode(l)": "json.encode: cycle in JSON structure",
		"l = []\nl.append(l)\njson.dumps(l)":  "ValueError: Circular reference detected",
	} {
		_, err := run(code, interp.Options{})
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", code, err, want)
		}
	}
}

// JSON stays within the run's budgets: a document nested a million deep,
// a value built from shared parts, a huge integer.
func TestJSONBounded(t *testing.T) {
	dag := "a = [1]\nfor i in range(40):\n    a = [a, a]\n"
	for code, want := range map[string]error{
		`json.loads("[" * 1000000)`:                                 interp.ErrTooDeep,
		`json.decode("{\"a\":" * 100000)`:                           interp.ErrTooDeep,
		"x = []\nfor i in range(5000):\n    x = [x]\njson.dumps(x)": interp.ErrTooDeep,
		dag + "json.dumps(a)":                                       interp.ErrLimit,
		dag + "json.encode(a)":                                      interp.ErrLimit,
		"sys.set_int_max_str_digits(0)\njson.loads('9' * 6000)":     interp.ErrIntLimit,
		// Wide documents: the decoded values are charged as they are made.
		"s = '[' + '0,' * 1500000 + '0]'\njson.loads(s)":                                         interp.ErrLimit,
		"xs = []\nfor i in range(100):\n    xs.append(json.loads('[' + '{},' * 100000 + '{}]'))": interp.ErrLimit,
		`json.dumps(int("9" * 4000) * int("9" * 4000))`:                                          interp.ErrIntLimit,
		// A long indent repeated on every line, deeper on each level: the
		// text stops at the memory budget instead of being written first.
		"json.dumps([0] * 10 ** 5, indent=10 ** 4)":                                       interp.ErrLimit,
		"x = [0]\nfor i in range(200):\n    x = [x]\njson.dumps(x, indent=' ' * 10 ** 4)": interp.ErrLimit,
		"json.dumps([0], indent=10 ** 9)":                                                 interp.ErrLimit,
	} {
		start := time.Now()
		_, err := run(code, interp.Options{Timeout: time.Second, MaxMemory: 16 << 20, Watchdog: interp.NewWatchdog(), MaxIntDigits: 5000})
		if !errors.Is(err, want) {
			t.Errorf("%.60s: %v, want %v", code, err, want)
		}
		if d := time.Since(start); d > 1500*time.Millisecond {
			t.Errorf("%.60s took %s", code, d)
		}
	}
}

// json.JSONDecodeError is the class json.loads raises: a handler for it
// (or for ValueError) catches a malformed document, one for another
// class does not.
func TestJSONDecodeErrorIsCaught(t *testing.T) {
	tests := []struct{ code, want string }{
		{"try:\n    json.loads('{')\nexcept json.JSONDecodeError as e:\n    r = 'caught: ' + str(e)\nr", "caught: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"},
		{"try:\n    json.loads('[1,')\nexcept ValueError as e:\n    r = type(e).__name__\nr", "JSONDecodeError"},
		{"from json import JSONDecodeError\ntry:\n    json.loads('x')\nexcept JSONDecodeError:\n    r = 'caught'\nr", "caught"},
		{"try:\n    json.loads('x')\nexcept (KeyError, json.JSONDecodeError):\n    r = 'caught'\nr", "caught"},
		{"try:\n    int('x')\nexcept json.JSONDecodeError:\n    r = 'wrong'\nexcept ValueError:\n    r = 'right'\nr", "right"},
		// The attributes of CPython's JSONDecodeError, positions in characters.
		{"try:\n    json.loads('{\"a\": 1,\\n  \"é\": x}')\nexcept json.JSONDecodeError as e:\n    r = [e.msg, e.pos, e.lineno, e.colno, len(e.doc)]\nr", `["Expecting value",16,2,8,18]`},
	}
	for _, tt := range tests {
		res, err := run(tt.code, interp.Options{})
		if err != nil {
			t.Errorf("%s: %v", tt.code, err)
			continue
		}
		if res.Text != tt.want {
			t.Errorf("%s = %q, want %q", tt.code, res.Text, tt.want)
		}
	}
}

// The worst inputs of json at a server's budgets: a document far larger
// than its text, values built from shared parts (2⁴⁰ to write), huge
// indents, ints past limits.max_int_digits.
func TestJSONStop(t *testing.T) {
	checkStops(t,
		stopCase{"x = []\nfor _ in range(40):\n    x = [x, x]\njson.dumps(x)", wantSpent},
		stopCase{"x = {}\nfor _ in range(40):\n    x = {'a': x, 'b': x}\njson.dumps(x, indent=100)", wantSpent},
		stopCase{"json.dumps([[1] * 10] * 10**6, indent=10**6)", wantSpent},
		stopCase{"json.loads('[' + '[],' * 10**7 + '[]]')", wantSpent},
		stopCase{"json.loads('{' + ','.join('\"%d\": {}' % i for i in range(10**6)) + '}')", wantSpent},
		stopCase{"sys.set_int_max_str_digits(0)\njson.loads('1' * 6000)", wantInt},
		stopCase{"json.loads('1' * 6000)", `^line 1: ValueError: Exceeds the limit \(4300 digits\)`},
		stopCase{"json.dumps(10**4999 * 10)", wantInt},
		stopCase{"s = json.dumps(list(range(10**5)))\nfor _ in range(10**9):\n    json.loads(s)", wantTime},
		// An indented text that cannot fit is refused before its first
		// line (and before indent=n's spaces are made).
		stopCase{"json.JSONEncoder(indent=10**8).encode([[1]] * 10)", wantMemory},
		stopCase{"json.dumps([1] * 10**5, indent=' ' * 10**4)", wantMemory},
		// One line of 200 MB, which fits: written a piece at a time.
		stopCase{"json.dumps([1], indent=2 * 10**8)", wantSpent},
	)
	// Their values take a while to make on a loaded machine.
	checkStopsAfter(t, time.Second,
		stopCase{"json.dumps([[1] * 10] * 10**6, indent=10**8)", wantMemory},
		stopCase{"json.dumps({i: [1] for i in range(10**5)}, indent=10**5)", wantMemory},
	)
}
