package interp

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"
	gotime "time"

	starlarkjson "go.starlark.net/lib/json"
	starlarktime "go.starlark.net/lib/time"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// convTestEnv is what test programs see: a small version of the globals the
// real interpreter offers.
func convTestEnv() starlark.StringDict {
	return starlark.StringDict{
		"struct": starlark.NewBuiltin("struct", starlarkstruct.Make),
		"time":   starlarktime.Module,
		"json":   starlarkjson.Module,
	}
}

var convTestOpts = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}

// evalExpr evaluates a Starlark expression.
func evalExpr(t testing.TB, expr string) starlark.Value {
	t.Helper()
	v, err := starlark.EvalOptions(convTestOpts, &starlark.Thread{}, "test.star", expr, convTestEnv())
	if err != nil {
		t.Fatalf("eval %s: %v", expr, err)
	}
	return asProgramText(v)
}

// asProgramText makes the text in v what a program holds: Starlark's
// parser makes every literal a starlark.String, where the Python front end
// makes non-ASCII ones *Unicode (see MakeString).
func asProgramText(v starlark.Value) starlark.Value {
	switch x := v.(type) {
	case starlark.String:
		return MakeString(string(x))
	case *starlark.List:
		elems := make([]starlark.Value, x.Len())
		for i := range elems {
			elems[i] = asProgramText(x.Index(i))
		}
		return starlark.NewList(elems)
	case starlark.Tuple:
		out := make(starlark.Tuple, len(x))
		for i, e := range x {
			out[i] = asProgramText(e)
		}
		return out
	case *starlark.Dict:
		d := starlark.NewDict(x.Len())
		for _, kv := range x.Items() {
			d.SetKey(asProgramText(kv[0]), asProgramText(kv[1]))
		}
		return d
	}
	return v
}

// execGlobal runs a Starlark program and returns its global x.
func execGlobal(t testing.TB, src string) starlark.Value {
	t.Helper()
	globals, err := starlark.ExecFileOptions(convTestOpts, &starlark.Thread{}, "test.star", src, convTestEnv())
	if err != nil {
		t.Fatalf("exec %s: %v", src, err)
	}
	x, ok := globals["x"]
	if !ok {
		t.Fatalf("exec %s: no global x", src)
	}
	return x
}

// om builds an ordered map from alternating keys and values.
func om(kv ...any) *ordered.Map {
	m := ordered.NewMap(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}

// goValued is a Starlark value with a Go form, like a path object or a tool
// result.
type goValued struct {
	v   any
	err error
}

func (g goValued) String() string        { return "<goValued>" }
func (g goValued) Type() string          { return "goValued" }
func (g goValued) Freeze()               {}
func (g goValued) Truth() starlark.Bool  { return true }
func (g goValued) Hash() (uint32, error) { return 0, errors.New("unhashable") }
func (g goValued) GoValue() (any, error) {
	if g.err != nil && g.err.Error() == "panic" {
		panic("tool bug")
	}
	return g.v, g.err
}

// nestLists returns n lists, each holding the next, the innermost holding inner
// (or nothing when inner is nil).
func nestLists(n int, inner starlark.Value) starlark.Value {
	var v starlark.Value = starlark.NewList(nil)
	if inner != nil {
		v = starlark.NewList([]starlark.Value{inner})
	}
	for i := 1; i < n; i++ {
		v = starlark.NewList([]starlark.Value{v})
	}
	return v
}

func TestToGo(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want any
	}{
		{`None`, nil},
		{`True`, true},
		{`False`, false},
		{`0`, int64(0)},
		{`-1`, int64(-1)},
		{`2147483648`, int64(2147483648)}, // a big int inside Starlark
		{`9223372036854775807`, int64(math.MaxInt64)},
		{`-9223372036854775808`, int64(math.MinInt64)},
		{`1.5`, 1.5},
		{`1.0`, 1.0},
		{`1e300`, 1e300},
		{`float("inf")`, math.Inf(1)}, // JSON encoding, not ToGo, rejects it
		{`""`, ""},
		{`"é ✓ 日本"`, "é ✓ 日本"},
		{`b"ab\xff"`, "ab\xff"},
		{`[]`, []any{}},
		{`[1, "a", None, [True]]`, []any{int64(1), "a", nil, []any{true}}},
		{`()`, []any{}},
		{`(1, 2.5)`, []any{int64(1), 2.5}},
		{`set([3, 1, 2])`, []any{int64(3), int64(1), int64(2)}},
		{`set()`, []any{}},
		{`{}`, om()},
		{`{"b": 1, "a": {"y": [True], "x": 2.5}}`, om("b", int64(1), "a", om("y", []any{true}, "x", 2.5))},
		{`struct(b = 1, a = "x")`, om("a", "x", "b", int64(1))}, // struct fields are sorted
		{`struct()`, om()},
		{`[struct(l = [1])]`, []any{om("l", []any{int64(1)})}},
		{`time.time(year = 2024, month = 1, day = 2, hour = 3, minute = 4, second = 5, location = "UTC")`, "2024-01-02T03:04:05Z"},
		{`time.parse_duration("1.5s")`, "1.5s"},
	} {
		got, err := ToGo(evalExpr(t, tt.src))
		if err != nil {
			t.Errorf("ToGo(%s): %v", tt.src, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ToGo(%s) = %#v, want %#v", tt.src, got, tt.want)
		}
	}
}

func TestToGoKeyOrder(t *testing.T) {
	x := execGlobal(t, `
x = {}
for k in ["zeta", "alpha", "mid", "beta"]:
    x[k] = len(k)
x["alpha"] = 0  # keeps its place
x.pop("mid")
x["mid"] = 3    # re-added: now last
`)
	got, err := ToGo(x)
	if err != nil {
		t.Fatal(err)
	}
	if keys := strings.Join(got.(*ordered.Map).Keys(), ","); keys != "zeta,alpha,beta,mid" {
		t.Errorf("keys = %s, want zeta,alpha,beta,mid", keys)
	}
}

func TestToGoGoValuer(t *testing.T) {
	for _, want := range []any{"/tmp/x", int64(3), nil, om("k", []any{"v"}), map[string]int{"a": 1}} {
		got, err := ToGo(goValued{v: want})
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ToGo(goValued{%#v}) = %#v, %v", want, got, err)
		}
	}
	// Inside containers too.
	got, err := ToGo(starlark.NewList([]starlark.Value{goValued{v: "p"}}))
	if err != nil || !reflect.DeepEqual(got, []any{"p"}) {
		t.Errorf("ToGo([goValued]) = %#v, %v", got, err)
	}
	cause := errors.New("file vanished")
	_, err = ToGo(goValued{err: cause})
	if !errors.Is(err, cause) {
		t.Errorf("ToGo(failing GoValuer) = %v, want it to wrap the cause", err)
	}
	if err != nil && err.Error() != "cannot convert goValued to JSON: file vanished" {
		t.Errorf("error text = %q", err)
	}
	_, err = ToGo(goValued{err: errors.New("panic")})
	if err == nil || err.Error() != "cannot convert goValued to JSON: GoValue panicked: tool bug" {
		t.Errorf("ToGo(panicking GoValuer) = %v", err)
	}
}

func TestToGoErrors(t *testing.T) {
	for _, tt := range []struct {
		src  string // a program that sets x
		want string // the exact error text
	}{
		{`x = 123456789012345678901234567890`, `integer 123456789012345678901234567890 does not fit in 64 bits (JSON numbers are limited to int64)`},
		{`x = [-9223372036854775809]`, `integer -9223372036854775809 does not fit in 64 bits (JSON numbers are limited to int64)`},
		{`x = {1: "a"}`, `dict key 1 (int) is not a string`},
		{`x = {"a": {("k",): 1}}`, `dict key ("k",) (tuple) is not a string`},
		{`x = {None: 1}`, `dict key None (NoneType) is not a string`},
		{"def f():\n    pass\nx = f", `cannot convert function to JSON (a function value)`},
		{"x = {\"cb\": lambda: 1}", `cannot convert function to JSON (a function value)`},
		{`x = [len]`, `cannot convert builtin_function_or_method to JSON (a builtin_function_or_method value)`},
		{`x = time`, `cannot convert module to JSON (a module value)`},
		{`x = []; x.append(x)`, `cannot convert to JSON: a list contains itself`},
		{`x = [1, "a"]; x.append(x)`, `cannot convert to JSON: a list contains itself`},
		{`x = {}; x["self"] = x`, `cannot convert to JSON: a dict contains itself`},
		{`x = {"a": [{"b": None}]}; x["a"][0]["b"] = x`, `contains itself`},
		{`s = struct(l = []); s.l.append(s); x = s`, `contains itself`},
		{`t = ([0],); t[0].append(t); x = t`, `contains itself`},
	} {
		_, err := ToGo(execGlobal(t, tt.src))
		if err == nil {
			t.Errorf("ToGo(%s) succeeded, want error %q", tt.src, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ToGo(%s) error = %q, want %q", tt.src, err, tt.want)
		}
		if strings.Contains(tt.want, "contains itself") && !errors.Is(err, ordered.ErrDepth) {
			t.Errorf("ToGo(%s) error %v is not ordered.ErrDepth", tt.src, err)
		}
	}
}

// TestDepthLimits checks that the limits of ToGo and FromGo are exactly
// those of ordered.Decode and ordered.Encode, so that whatever one layer
// accepts the next one does too.
func TestDepthLimits(t *testing.T) {
	for _, tc := range []struct {
		lists int
		inner string // JSON of the innermost element, "" for none
	}{
		{1000, ""}, {1000, "1"}, {1001, ""}, {1001, "1"}, {1002, ""},
	} {
		text := strings.Repeat("[", tc.lists) + tc.inner + strings.Repeat("]", tc.lists)
		g, decErr := ordered.Decode([]byte(text))
		_, encErr := ordered.Encode(g)

		var inner starlark.Value
		if tc.inner != "" {
			inner = starlark.MakeInt(1)
		}
		_, toErr := ToGo(nestLists(tc.lists, inner))

		var fromErr error
		if decErr == nil {
			_, fromErr = FromGo(g)
		}
		t.Logf("%d lists + %q: Decode %v, ToGo %v", tc.lists, tc.inner, decErr, toErr)
		if (decErr == nil) != (toErr == nil) {
			t.Errorf("%d lists + %q: Decode error %v but ToGo error %v", tc.lists, tc.inner, decErr, toErr)
		}
		if decErr == nil && (fromErr != nil || encErr != nil) {
			t.Errorf("%d lists + %q: Decode accepts it but FromGo says %v, Encode %v", tc.lists, tc.inner, fromErr, encErr)
		}
		if toErr != nil {
			if !errors.Is(toErr, ordered.ErrDepth) || strings.Contains(toErr.Error(), "itself") {
				t.Errorf("deep ToGo error = %v, want a depth error that is not about a cycle", toErr)
			}
		}
	}
}

func TestFromGo(t *testing.T) {
	type tagged struct {
		Name  string   `json:"name"`
		ID    int      `json:"id"`
		Skip  string   `json:"-"`
		Opt   string   `json:"opt,omitempty"`
		Tags  []string `json:"tags"`
		Inner *tagged  `json:"inner,omitempty"`
	}
	type color string
	type level int
	five := 5
	list := starlark.NewList([]starlark.Value{starlark.MakeInt(1)})

	for _, tt := range []struct {
		in   any
		want string // Starlark repr
		typ  string // Starlark type
	}{
		{nil, `None`, "NoneType"},
		{true, `True`, "bool"},
		{int(-1), `-1`, "int"},
		{int8(-8), `-8`, "int"},
		{int16(-16), `-16`, "int"},
		{int32(math.MinInt32), `-2147483648`, "int"},
		{int64(math.MaxInt64), `9223372036854775807`, "int"},
		{int64(math.MinInt64), `-9223372036854775808`, "int"},
		{uint(7), `7`, "int"},
		{uint8(255), `255`, "int"},
		{uint16(65535), `65535`, "int"},
		{uint32(math.MaxUint32), `4294967295`, "int"},
		{uint64(math.MaxUint64), `18446744073709551615`, "int"},
		{uintptr(9), `9`, "int"},
		{float32(0.1), `0.1`, "float"},
		{float32(2), `2.0`, "float"},
		{1.0, `1.0`, "float"},
		{1e300, `1e+300`, "float"},
		{math.Inf(-1), `-inf`, "float"},
		{"é\n", `'é\n'`, "str"},
		{[]byte("hi"), `"hi"`, "string"},
		{json.Number("12"), `12`, "int"},
		{json.Number("-1.5"), `-1.5`, "float"},
		{json.Number("1e3"), `1000.0`, "float"},
		{json.Number("12345678901234567890"), `1.2345678901234567e+19`, "float"},
		{[]any{}, `[]`, "list"},
		{[]any(nil), `[]`, "list"},
		{[]any{1, "a", nil, []any{true}}, `[1, "a", None, [True]]`, "list"},
		{[]string{"a", "b"}, `["a", "b"]`, "list"},
		{[]string(nil), `[]`, "list"},
		{[]int{1, 2}, `[1, 2]`, "list"},
		{[]float64{1.5, 2}, `[1.5, 2.0]`, "list"},
		{[2]bool{true, false}, `[True, False]`, "list"},
		{[]map[string]any{{"b": 1, "a": 2}}, `[{"a": 2, "b": 1}]`, "list"},
		{map[string]any{"b": 1, "a": []int{2}, "c": map[string]any{"z": nil, "y": 1}}, `{"a": [2], "b": 1, "c": {"y": 1, "z": None}}`, "dict"},
		{map[string]any(nil), `{}`, "dict"},
		{map[string]string{"z": "1", "y": "2"}, `{"y": "2", "z": "1"}`, "dict"},
		{map[color]int{"red": 1, "blue": 2}, `{"blue": 2, "red": 1}`, "dict"},
		{map[int]string{2: "b", 10: "c", 1: "a"}, `{"1": "a", "10": "c", "2": "b"}`, "dict"},
		{om("z", 1, "a", om("y", 2, "b", []any{})), `{"z": 1, "a": {"y": 2, "b": []}}`, "dict"},
		{om(), `{}`, "dict"},
		{gotime.Date(2024, 1, 2, 3, 4, 5, 600, gotime.UTC), `"2024-01-02T03:04:05.0000006Z"`, "string"},
		{gotime.Date(2024, 1, 2, 3, 4, 5, 0, gotime.FixedZone("", 3600)), `"2024-01-02T03:04:05+01:00"`, "string"},
		{tagged{Name: "x", ID: 1, Skip: "s", Tags: []string{"a"}}, `{"name": "x", "id": 1, "tags": ["a"]}`, "dict"},
		{&tagged{Name: "x", Inner: &tagged{ID: 2}}, `{"name": "x", "id": 0, "tags": None, "inner": {"name": "", "id": 2, "tags": None}}`, "dict"},
		{(*tagged)(nil), `None`, "NoneType"},
		{color("red"), `"red"`, "string"},
		{level(3), `3`, "int"},
		{&five, `5`, "int"},
		{big.NewInt(42), `42`, "int"},
		{json.RawMessage(`{"b":1,"a":[true,null]}`), `{"b": 1, "a": [True, None]}`, "dict"},
		{[]any{map[string]any{"k": []int{1}}, om("x", []string{"y"})}, `[{"k": [1]}, {"x": ["y"]}]`, "list"},
		{starlark.String("as is"), `"as is"`, "string"},
		{list, `[1]`, "list"},
	} {
		got, err := FromGo(tt.in)
		if err != nil {
			t.Errorf("FromGo(%#v): %v", tt.in, err)
			continue
		}
		if got.String() != tt.want || got.Type() != tt.typ {
			t.Errorf("FromGo(%#v) = %s (%s), want %s (%s)", tt.in, got, got.Type(), tt.want, tt.typ)
		}
	}

	// A Starlark value passes through as the very same value.
	if got, _ := FromGo(list); got != list {
		t.Error("FromGo(*starlark.List) made a copy")
	}
	// Results are mutable, so a program can edit what a tool returned.
	d, _ := FromGo(map[string]any{"a": 1})
	if err := d.(*starlark.Dict).SetKey(starlark.String("b"), starlark.None); err != nil {
		t.Errorf("FromGo result is not mutable: %v", err)
	}
}

func TestFromGoErrors(t *testing.T) {
	type withChan struct{ C chan int }
	type node struct{ Next *node }
	cycNode := &node{}
	cycNode.Next = cycNode
	cycSlice := make([]any, 1)
	cycSlice[0] = cycSlice
	cycMap := map[string]any{}
	cycMap["self"] = cycMap
	cycOrdered := ordered.NewMap(1)
	cycOrdered.Set("self", cycOrdered)

	for _, tt := range []struct {
		name  string
		in    any
		want  string
		depth bool // want errors.Is(err, ordered.ErrDepth)
	}{
		{"chan", make(chan int), "cannot convert Go value of type chan int to Starlark", false},
		{"func", func() {}, "cannot convert Go value of type func() to Starlark", false},
		{"complex", complex(1, 2), "cannot convert Go value of type complex128 to Starlark", false},
		{"nested chan", map[string]any{"ok": 1, "bad": []any{make(chan string)}}, "chan string", false},
		{"struct with chan", withChan{}, "cannot convert Go value of type interp.withChan to Starlark: json: unsupported type: chan int", false},
		{"bad json.Number", json.Number("x1"), `invalid JSON number "x1"`, false},
		{"cyclic slice", cycSlice, "nested too deeply", true},
		{"cyclic map", cycMap, "nested too deeply", true},
		{"cyclic ordered map", cycOrdered, "nested too deeply", true},
		{"cyclic pointer", cycNode, "cycle", false},
	} {
		_, err := FromGo(tt.in)
		if err == nil {
			t.Errorf("%s: FromGo succeeded, want error %q", tt.name, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: FromGo error = %q, want %q", tt.name, err, tt.want)
		}
		if tt.depth && !errors.Is(err, ordered.ErrDepth) {
			t.Errorf("%s: FromGo error %v is not ordered.ErrDepth", tt.name, err)
		}
	}
}

// roundTripSources are Starlark values that survive Starlark→Go→Starlark
// unchanged: only types that have a JSON form of their own.
var roundTripSources = []string{
	`None`, `True`, `False`, `0`, `-7`, `9223372036854775807`, `-9223372036854775808`,
	`0.0`, `-0.0`, `1.0`, `1.5`, `1e300`, `-1e-300`, `5e-324`,
	`""`, `"é ✓ 日本 😀"`, `"<a href='x'>&amp;</a>"`, `"line1\nline2\t\"q\" \\ \x00\x1f\u2028"`,
	`[]`, `{}`, `[[], {}, [[]], {"a": {}}]`,
	`[1, "two", 3.0, None, True, [4, [5, [6]]]]`,
	`{"z": 1, "a": 2, "m": {"y": [1, {"b": None, "a": ""}], "x": {}}}`,
	`{"": "empty key", "é": "unicode key", "with space": 1}`,
}

func TestRoundTripStarlark(t *testing.T) {
	for _, src := range roundTripSources {
		v := evalExpr(t, src)
		g, err := ToGo(v)
		if err != nil {
			t.Errorf("ToGo(%s): %v", src, err)
			continue
		}
		back, err := FromGo(g)
		if err != nil {
			t.Errorf("FromGo(ToGo(%s)): %v", src, err)
			continue
		}
		eq, err := starlark.Equal(v, back)
		if err != nil || !eq {
			t.Errorf("round trip of %s = %s (equal %v, %v)", src, back, eq, err)
		}
		// Equal ignores dict order; the repr does not.
		if v.String() != back.String() {
			t.Errorf("round trip of %s = %s", v, back)
		}
		if v.Type() != back.Type() {
			t.Errorf("round trip of %s changed type %s to %s", src, v.Type(), back.Type())
		}
	}
}

// roundTripJSON is canonical JSON text as ordered.Encode writes it, so that
// a round trip must give it back byte for byte.
var roundTripJSON = []string{
	`null`, `true`, `false`, `0`, `-1`, `9223372036854775807`, `-9223372036854775808`,
	`1.0`, `-0.0`, `1.5`, `1e+300`, `1e-300`, `12345678901234567000.0`, `0.1`, `1234567.0`, `0.000001`,
	`""`, `"é ✓ 日本 😀"`, `"<>&"`, `"\"\\\n\r\t\u0000\u001f\u2028\u2029"`,
	`[]`, `{}`, `[[],{},[[]],{"a":{}}]`,
	`[1,"two",3.0,null,true,[4,[5,[6]]]]`,
	`{"z":1,"a":2,"m":{"y":[1,{"b":null,"a":""}],"x":{}}}`,
	`{"":"empty key","é":"unicode key","with space":1}`,
	`{"id":1,"name":"x","tags":["a","b"]}`,
}

func TestRoundTripJSON(t *testing.T) {
	for _, text := range roundTripJSON {
		checkJSONRoundTrip(t, []byte(text), text)
	}
}

// checkJSONRoundTrip asserts JSON→ordered.Decode→FromGo→ToGo→ordered.Encode
// gives want.
func checkJSONRoundTrip(t *testing.T, text []byte, want string) {
	t.Helper()
	g, err := ordered.Decode(text)
	if err != nil {
		t.Fatalf("Decode(%s): %v", text, err)
	}
	v, err := FromGo(g)
	if err != nil {
		t.Fatalf("FromGo(Decode(%s)): %v", text, err)
	}
	back, err := ToGo(v)
	if err != nil {
		t.Fatalf("ToGo(FromGo(Decode(%s))): %v", text, err)
	}
	got, err := ordered.Encode(back)
	if err != nil {
		t.Fatalf("Encode(…(%s)): %v", text, err)
	}
	if string(got) != want {
		t.Errorf("round trip of %s = %s, want %s", text, got, want)
	}
}

func FuzzRoundTrip(f *testing.F) {
	for _, text := range roundTripJSON {
		f.Add([]byte(text))
	}
	f.Add([]byte(` { "b" : [ 1 , 2.50 , -0 , 1E2 ] , "a" : { } , "b" : "dup" } `))
	f.Add([]byte(`"\ud800 lone surrogate"`))
	f.Add([]byte(`[12345678901234567890, 1e400]`))
	f.Fuzz(func(t *testing.T, text []byte) {
		g, err := ordered.Decode(text)
		if err != nil {
			t.Skip()
		}
		want, err := ordered.Encode(g)
		if err != nil {
			t.Fatalf("ordered.Encode(ordered.Decode(%q)): %v", text, err)
		}
		checkJSONRoundTrip(t, text, string(want))
	})
}

func TestToGoNilValue(t *testing.T) {
	// Go code can build a list with a nil hole; it reads as None rather than
	// crashing a run.
	g, err := ToGo(starlark.NewList([]starlark.Value{nil}))
	if err != nil || !reflect.DeepEqual(g, []any{nil}) {
		t.Errorf("ToGo([nil]) = %#v, %v", g, err)
	}
}

func benchValue() starlark.Value {
	d := starlark.NewDict(3)
	_ = d.SetKey(starlark.String("id"), starlark.MakeInt(1))
	_ = d.SetKey(starlark.String("name"), starlark.String("x"))
	_ = d.SetKey(starlark.String("tags"), starlark.NewList([]starlark.Value{starlark.String("a"), starlark.String("b")}))
	return d
}

func BenchmarkToGo(b *testing.B) {
	v := benchValue()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ToGo(v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFromGo(b *testing.B) {
	for _, in := range []struct {
		name string
		x    any
	}{
		// What ordered.Decode gives for a tool's JSON result.
		{"ordered", om("id", int64(1), "name", "x", "tags", []any{"a", "b"})},
		// What a Go tool typically returns.
		{"map", map[string]any{"id": 1, "name": "x", "tags": []string{"a", "b"}}},
		// A struct goes through encoding/json: the slow path.
		{"struct", struct {
			ID   int      `json:"id"`
			Name string   `json:"name"`
			Tags []string `json:"tags"`
		}{1, "x", []string{"a", "b"}}},
	} {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := FromGo(in.x); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Compile-time check that the test GoValuer is a Starlark value.
var _ starlark.Value = goValued{}
