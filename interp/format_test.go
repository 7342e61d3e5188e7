package interp

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"
	"go.yaml.in/yaml/v3"

	"github.com/onetool-dev/onetool/internal/quiet"
	"github.com/onetool-dev/onetool/interp/ordered"
)

// allModes lists every mode with a short name for table rows.
var allModes = []string{FormatJSON, FormatJSONH, FormatYAML, FormatYAMLFlow, FormatRaw}

// formatCase is one value and what each mode makes of it. A mode missing
// from want renders like json.
type formatCase struct {
	name string
	src  string // an expression, or a program (containing "x =") that sets x
	want map[string]string
}

func (fc formatCase) value(t *testing.T) starlark.Value {
	if strings.Contains(fc.src, "x =") {
		return execGlobal(t, fc.src)
	}
	return evalExpr(t, fc.src)
}

// same gives text for every mode but raw.
func same(text, raw string) map[string]string {
	return map[string]string{FormatJSON: text, FormatJSONH: text, FormatYAML: text, FormatYAMLFlow: text, FormatRaw: raw}
}

func TestFormat(t *testing.T) {
	for _, fc := range []formatCase{
		// Scalars read as Starlark's str() in every mode but raw.
		{"string", `"hello"`, same("hello", `'hello'`)},
		{"string unicode", `"é ✓"`, same("é ✓", `'é ✓'`)},
		{"string multi-line", `"a\nb"`, same("a\nb", `'a\nb'`)},
		{"string like a number", `"123"`, same("123", `'123'`)},
		{"empty string", `""`, same("", `''`)},
		{"int", `12`, same("12", "12")},
		{"big int", `123456789012345678901234567890`, same("123456789012345678901234567890", "123456789012345678901234567890")},
		{"float", `12.5`, same("12.5", "12.5")},
		{"float integral", `2.0`, same("2.0", "2.0")},
		{"float nan", `float("nan")`, same("nan", "nan")},
		{"bool", `True`, same("True", "True")},
		{"None", `None`, same("None", "None")},
		{"bytes", `b"ab"`, same(`b'ab'`, `b'ab'`)},
		{"function", "def f():\n    pass\nx = f", same("<function f>", "<function f>")},
		{"builtin", `len`, same("<built-in function len>", "<built-in function len>")},
		{"module", `time`, same(`<module "time">`, `<module "time">`)},

		// Data.
		{"dict", `{"name": "test", "value": 123}`, map[string]string{
			FormatJSON:     `{"name":"test","value":123}`,
			FormatJSONH:    "{\n  \"name\": \"test\",\n  \"value\": 123\n}",
			FormatYAML:     "name: test\nvalue: 123",
			FormatYAMLFlow: `{name: test, value: 123}`,
			FormatRaw:      `{'name': 'test', 'value': 123}`,
		}},
		{"key order", `{"z": 1, "a": 2, "m": 3}`, map[string]string{
			FormatJSON:     `{"z":1,"a":2,"m":3}`,
			FormatJSONH:    "{\n  \"z\": 1,\n  \"a\": 2,\n  \"m\": 3\n}",
			FormatYAML:     "z: 1\na: 2\nm: 3",
			FormatYAMLFlow: `{z: 1, a: 2, m: 3}`,
			FormatRaw:      `{'z': 1, 'a': 2, 'm': 3}`,
		}},
		{"unicode and html", `{"s": "é 日本", "h": "<a>&</a>"}`, map[string]string{
			FormatJSON:     `{"s":"é 日本","h":"<a>&</a>"}`,
			FormatJSONH:    "{\n  \"s\": \"é 日本\",\n  \"h\": \"<a>&</a>\"\n}",
			FormatYAML:     "s: é 日本\nh: <a>&</a>",
			FormatYAMLFlow: `{s: é 日本, h: <a>&</a>}`,
			FormatRaw:      `{'s': 'é 日本', 'h': '<a>&</a>'}`,
		}},
		{"nested empties", `{"a": [], "b": {}, "c": [[], {}]}`, map[string]string{
			FormatJSON:     `{"a":[],"b":{},"c":[[],{}]}`,
			FormatJSONH:    "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    [],\n    {}\n  ]\n}",
			FormatYAML:     "a: []\nb: {}\nc:\n  - []\n  - {}",
			FormatYAMLFlow: `{a: [], b: {}, c: [[], {}]}`,
			FormatRaw:      `{'a': [], 'b': {}, 'c': [[], {}]}`,
		}},
		{"empty dict", `{}`, map[string]string{
			FormatJSON: `{}`, FormatJSONH: `{}`, FormatYAML: `{}`, FormatYAMLFlow: `{}`, FormatRaw: `{}`,
		}},
		{"empty list", `[]`, map[string]string{
			FormatJSON: `[]`, FormatJSONH: `[]`, FormatYAML: `[]`, FormatYAMLFlow: `[]`, FormatRaw: `[]`,
		}},
		{"list of scalars", `[1, "a", None, True, 2.5, 1.0]`, map[string]string{
			FormatJSON:     `[1,"a",null,true,2.5,1.0]`,
			FormatJSONH:    "[\n  1,\n  \"a\",\n  null,\n  true,\n  2.5,\n  1.0\n]",
			FormatYAML:     "- 1\n- a\n- null\n- true\n- 2.5\n- 1.0",
			FormatYAMLFlow: `[1, a, null, true, 2.5, 1.0]`,
			FormatRaw:      `[1, 'a', None, True, 2.5, 1.0]`,
		}},
		{"list of dicts", `[{"id": 1, "tags": ["x"]}, {"id": 2, "tags": []}]`, map[string]string{
			FormatJSON:     `[{"id":1,"tags":["x"]},{"id":2,"tags":[]}]`,
			FormatYAML:     "- id: 1\n  tags:\n    - x\n- id: 2\n  tags: []",
			FormatYAMLFlow: `[{id: 1, tags: [x]}, {id: 2, tags: []}]`,
			FormatRaw:      `[{'id': 1, 'tags': ['x']}, {'id': 2, 'tags': []}]`,
			FormatJSONH:    "[\n  {\n    \"id\": 1,\n    \"tags\": [\n      \"x\"\n    ]\n  },\n  {\n    \"id\": 2,\n    \"tags\": []\n  }\n]",
		}},
		{"tuple", `(1, "a")`, map[string]string{
			FormatJSON: `[1,"a"]`, FormatYAML: "- 1\n- a", FormatYAMLFlow: `[1, a]`, FormatRaw: `(1, 'a')`,
			FormatJSONH: "[\n  1,\n  \"a\"\n]",
		}},
		{"set", `set([2, 1])`, map[string]string{
			FormatJSON: `[2,1]`, FormatYAML: "- 2\n- 1", FormatYAMLFlow: `[2, 1]`, FormatRaw: `{2, 1}`,
			FormatJSONH: "[\n  2,\n  1\n]",
		}},
		{"struct", `struct(b = 1, a = "x")`, map[string]string{
			FormatJSON: `{"a":"x","b":1}`, FormatYAML: "a: x\nb: 1", FormatYAMLFlow: `{a: x, b: 1}`,
			FormatRaw: `struct(a = 'x', b = 1)`, FormatJSONH: "{\n  \"a\": \"x\",\n  \"b\": 1\n}",
		}},
		{"floats", `[1e300, -0.0, 0.1, 100000000000000000000000.0]`, map[string]string{
			FormatJSON:     `[1e+300,-0.0,0.1,1e+23]`,
			FormatYAML:     "- 1e+300\n- -0.0\n- 0.1\n- 1e+23",
			FormatYAMLFlow: `[1e+300, -0.0, 0.1, 1e+23]`,
			FormatRaw:      `[1e+300, -0.0, 0.1, 1e+23]`,
			FormatJSONH:    "[\n  1e+300,\n  -0.0,\n  0.1,\n  1e+23\n]",
		}},
		{"int64 edges", `[9223372036854775807, -9223372036854775808]`, map[string]string{
			FormatJSON:     `[9223372036854775807,-9223372036854775808]`,
			FormatYAML:     "- 9223372036854775807\n- -9223372036854775808",
			FormatYAMLFlow: `[9223372036854775807, -9223372036854775808]`,
			FormatRaw:      `[9223372036854775807, -9223372036854775808]`,
			FormatJSONH:    "[\n  9223372036854775807,\n  -9223372036854775808\n]",
		}},

		// YAML must quote strings that would read back as something else.
		{"yaml quoting", `["true", "123", "1.5", "null", "~", "", "yes", "off", "12:30", "-1e3", "0x1F", "a: b", "#c", " pad", "- x", "@at", "ok"]`, map[string]string{
			FormatYAML: strings.Join([]string{
				`- "true"`, `- "123"`, `- "1.5"`, `- "null"`, `- "~"`, `- ""`, `- "yes"`, `- "off"`, `- "12:30"`,
				`- "-1e3"`, `- "0x1F"`, `- 'a: b'`, `- '#c'`, `- ' pad'`, `- '- x'`, `- '@at'`, `- ok`,
			}, "\n"),
			FormatYAMLFlow: `["true", "123", "1.5", "null", "~", "", "yes", "off", "12:30", "-1e3", "0x1F", 'a: b', '#c', ' pad', '- x', '@at', ok]`,
			FormatJSON:     `["true","123","1.5","null","~","","yes","off","12:30","-1e3","0x1F","a: b","#c"," pad","- x","@at","ok"]`,
		}},
		{"yaml quoted keys", `{"true": 1, "1": 2, "no": 3, "": 4, "k": 5}`, map[string]string{
			FormatYAML:     "\"true\": 1\n\"1\": 2\n\"no\": 3\n\"\": 4\nk: 5",
			FormatYAMLFlow: `{"true": 1, "1": 2, "no": 3, "": 4, k: 5}`,
			FormatJSON:     `{"true":1,"1":2,"no":3,"":4,"k":5}`,
		}},
		{"multi-line strings", `{"text": "line 1\nline 2", "trail": "a\nb\n", "one": "x"}`, map[string]string{
			FormatYAML:     "text: |-\n  line 1\n  line 2\ntrail: |\n  a\n  b\none: x",
			FormatYAMLFlow: `{text: "line 1\nline 2", trail: "a\nb\n", one: x}`,
			FormatJSON:     `{"text":"line 1\nline 2","trail":"a\nb\n","one":"x"}`,
			FormatJSONH:    "{\n  \"text\": \"line 1\\nline 2\",\n  \"trail\": \"a\\nb\\n\",\n  \"one\": \"x\"\n}",
		}},
		{"multi-line key", `{"a\nb": 1}`, map[string]string{
			FormatYAML: "? \"a\\nb\"\n: 1", FormatYAMLFlow: `{? "a\nb" : 1}`, FormatJSON: `{"a\nb":1}`,
		}},
		{"multi-line in a list", `["a\nb"]`, map[string]string{
			FormatYAML: "- |-\n  a\n  b",
		}},
		{"control characters", `{"c": "tab\there\x01"}`, map[string]string{
			FormatJSON: `{"c":"tab\there\u0001"}`,
			FormatYAML: `c: "tab\there\x01"`,
		}},
		{"invalid UTF-8 from bytes", `{"b": b"ok\xff"}`, map[string]string{
			FormatJSON:     `{"b":"ok\ufffd"}`,
			FormatYAML:     "b: ok\ufffd",
			FormatYAMLFlow: "{b: ok\ufffd}",
		}},
		{"time in data", `{"at": time.time(year = 2024, month = 5, day = 6, location = "UTC"), "took": time.parse_duration("90s")}`, map[string]string{
			FormatJSON: `{"at":"2024-05-06T00:00:00Z","took":"1m30s"}`,
			FormatYAML: "at: \"2024-05-06T00:00:00Z\"\ntook: 1m30s",
		}},

		// Data with no JSON form falls back to str(), in every data mode.
		{"function in a list", `[1, len]`, map[string]string{
			FormatJSON: `[1, <built-in function len>]`, FormatJSONH: `[1, <built-in function len>]`,
			FormatYAML: `[1, <built-in function len>]`, FormatYAMLFlow: `[1, <built-in function len>]`,
			FormatRaw: `[1, <built-in function len>]`,
		}},
		{"NaN in a dict", `{"x": float("nan"), "s": "t"}`, same(`{'x': nan, 's': 't'}`, `{'x': nan, 's': 't'}`)},
		{"inf in a list", `[float("-inf")]`, same(`[-inf]`, `[-inf]`)},
		{"big int in a list", `[123456789012345678901234567890]`, same(`[123456789012345678901234567890]`, `[123456789012345678901234567890]`)},
		{"int key", `{1: "a"}`, same(`{1: 'a'}`, `{1: 'a'}`)},
		{"cycle", `x = [1]; x.append(x)`, same(`[1, [...]]`, `[1, [...]]`)},
	} {
		v := fc.value(t)
		for _, mode := range append(allModes, "") {
			want, ok := fc.want[mode]
			if mode == "" {
				want, ok = fc.want[FormatJSON] // "" means json
			}
			if !ok {
				continue
			}
			got, note := Format(v, mode)
			if note != "" {
				t.Errorf("%s: Format(%q) note = %q, want none", fc.name, mode, note)
			}
			if got != want {
				t.Errorf("%s: Format(%q) =\n%s\nwant\n%s", fc.name, mode, got, want)
			}
		}
	}
}

func TestFormatGoValuer(t *testing.T) {
	type result struct {
		OK    bool   `json:"ok"`
		Error string `json:"error,omitempty"`
		Count int    `json:"count"`
	}
	for _, tt := range []struct {
		name string
		v    any
		err  error
		want map[string]string
	}{
		{"path", "/tmp/dir/file.txt", nil, same("/tmp/dir/file.txt", "<goValued>")},
		{"path with newline", "a\nb", nil, same("a\nb", "<goValued>")},
		{"int", int64(3), nil, same("3", "<goValued>")},
		{"float", 2.0, nil, same("2.0", "<goValued>")},
		{"bool", true, nil, same("True", "<goValued>")},
		{"nil", nil, nil, same("None", "<goValued>")},
		{"ordered map", om("b", 1, "a", []any{"x"}), nil, map[string]string{
			FormatJSON: `{"b":1,"a":["x"]}`, FormatJSONH: "{\n  \"b\": 1,\n  \"a\": [\n    \"x\"\n  ]\n}",
			FormatYAML: "b: 1\na:\n  - x", FormatYAMLFlow: `{b: 1, a: [x]}`, FormatRaw: "<goValued>",
		}},
		{"Go map", map[string]any{"b": 1, "a": "yes"}, nil, map[string]string{
			FormatJSON: `{"a":"yes","b":1}`, FormatYAML: "a: \"yes\"\nb: 1", FormatYAMLFlow: `{a: "yes", b: 1}`, FormatRaw: "<goValued>",
			FormatJSONH: "{\n  \"a\": \"yes\",\n  \"b\": 1\n}",
		}},
		{"Go struct", result{OK: true, Count: 2}, nil, map[string]string{
			FormatJSON: `{"ok":true,"count":2}`, FormatYAML: "ok: true\ncount: 2", FormatYAMLFlow: `{ok: true, count: 2}`, FormatRaw: "<goValued>",
			FormatJSONH: "{\n  \"ok\": true,\n  \"count\": 2\n}",
		}},
		{"typed slice", []string{"a", "true"}, nil, map[string]string{
			FormatJSON: `["a","true"]`, FormatYAML: "- a\n- \"true\"", FormatYAMLFlow: `[a, "true"]`, FormatRaw: "<goValued>",
			FormatJSONH: "[\n  \"a\",\n  \"true\"\n]",
		}},
		{"failing", nil, errors.New("gone"), same("<goValued>", "<goValued>")},
		{"panicking", nil, errors.New("panic"), same("<goValued>", "<goValued>")},
		{"unencodable", []any{make(chan int)}, nil, same("<goValued>", "<goValued>")},
	} {
		v := goValued{v: tt.v, err: tt.err}
		for _, mode := range allModes {
			if got, _ := Format(v, mode); got != tt.want[mode] {
				t.Errorf("%s: Format(%s) =\n%s\nwant\n%s", tt.name, mode, got, tt.want[mode])
			}
		}
	}
	// Inside data, a GoValuer is its Go form.
	list := starlark.NewList([]starlark.Value{goValued{v: "/p"}, goValued{v: int64(1)}})
	if got, _ := Format(list, FormatJSON); got != `["/p",1]` {
		t.Errorf("Format([path, 1]) = %s", got)
	}
}

func TestFormatUnknownMode(t *testing.T) {
	const want = `note: unknown __format__ "xyz"; using json (modes: json, json_h, yaml, yaml_flow, raw)`
	text, note := Format(evalExpr(t, `{"name": "test", "value": 123}`), "xyz")
	if text != `{"name":"test","value":123}` {
		t.Errorf("text = %s, want the json form", text)
	}
	if note != want {
		t.Errorf("note = %q, want %q", note, want)
	}
	// The note is given whatever the value, and stays on one line.
	text, note = Format(starlark.String("hi"), "YAML\nplease")
	if text != "hi" || strings.Contains(note, "\n") || !strings.Contains(note, `"YAML\nplease"`) {
		t.Errorf("Format(str, multi-line mode) = %q, %q", text, note)
	}
	// Known modes give no note, "" included.
	for _, mode := range append(allModes, "") {
		if _, note := Format(starlark.None, mode); note != "" {
			t.Errorf("Format(None, %q) note = %q", mode, note)
		}
	}
}

func TestFormatNilValue(t *testing.T) {
	for _, mode := range allModes {
		if got, _ := Format(nil, mode); got != "None" {
			t.Errorf("Format(nil, %s) = %q, want None", mode, got)
		}
	}
}

// TestFormatYAMLIsValid checks that yaml output is YAML describing the same
// data as the JSON output, by converting both back through the yaml library
// and comparing.
func TestFormatYAMLIsValid(t *testing.T) {
	tricky := []string{
		`["line1\nline2", "trail\n", "two\n\n", "\nlead", "  lead", "trail ", "tab\t", "\x00", "\u2028", "\u0085", "\ufeff"]`,
		`["a: b", "- x", "true", "False", "12:30", "1_000", ".inf", "0o17", "é", "'", "\"", "#", "*a", "&a", "!t", "%p", "|", ">", "{", "[", ",", "?", "key: value\nmore"]`,
		`{"multi\nline key": 1, "k" * 200: 2, "null": None, "- item": [{}], "": ""}`,
		`[[[["deep"]]], {"a": {"b": {"c": []}}}]`,
	}
	for _, src := range append(roundTripSources, tricky...) {
		v := evalExpr(t, src)
		switch v.(type) {
		case *starlark.Dict, *starlark.List:
		default:
			continue // scalars are shown as text, not YAML
		}
		checkYAML(t, v)
	}
}

// checkYAML asserts that the yaml forms of v read back as its json form.
func checkYAML(t *testing.T, v starlark.Value) {
	t.Helper()
	want, _ := Format(v, FormatJSON)
	for _, mode := range []string{FormatYAML, FormatYAMLFlow} {
		text, _ := Format(v, mode)
		got, err := decodeYAMLToJSON(text)
		if err != nil {
			t.Errorf("Format(%s, %s) = %s: not valid YAML: %v", v, mode, text, err)
			continue
		}
		if got != want {
			t.Errorf("Format(%s, %s) = %s\nreads back as %s\nwant %s", v, mode, text, got, want)
		}
		if mode == FormatYAMLFlow && strings.Contains(text, "\n") {
			t.Errorf("Format(%s, yaml_flow) is not one line: %q", v, text)
		}
	}
}

// FuzzFormatYAML checks on arbitrary JSON data that both YAML modes read
// back as the same data.
func FuzzFormatYAML(f *testing.F) {
	for _, text := range roundTripJSON {
		f.Add([]byte(text))
	}
	f.Add([]byte(`{"a\nb":["yes","12:30"," x","\u0085"]}`))
	f.Fuzz(func(t *testing.T, text []byte) {
		g, err := ordered.Decode(text)
		if err != nil {
			t.Skip()
		}
		v, err := FromGo(g)
		if err != nil {
			t.Fatal(err)
		}
		switch v.(type) {
		case *starlark.Dict, *starlark.List:
			checkYAML(t, v)
		}
	})
}

// decodeYAMLToJSON reads YAML and writes it as ordered JSON.
func decodeYAMLToJSON(text string) (string, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return "", err
	}
	g, err := yamlToGo(&doc)
	if err != nil {
		return "", err
	}
	b, err := ordered.Encode(g)
	return string(b), err
}

// yamlToGo turns a parsed YAML node into Go data in the form ToGo gives.
func yamlToGo(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		return yamlToGo(n.Content[0])
	case yaml.SequenceNode:
		out := []any{}
		for _, c := range n.Content {
			g, err := yamlToGo(c)
			if err != nil {
				return nil, err
			}
			out = append(out, g)
		}
		return out, nil
	case yaml.MappingNode:
		m := ordered.NewMap(len(n.Content) / 2)
		for i := 0; i < len(n.Content); i += 2 {
			g, err := yamlToGo(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m.Set(n.Content[i].Value, g)
		}
		return m, nil
	case yaml.ScalarNode:
		var x any
		if err := n.Decode(&x); err != nil {
			return nil, err
		}
		if i, ok := x.(int); ok {
			return int64(i), nil
		}
		return x, nil
	}
	return nil, fmt.Errorf("unexpected YAML node kind %v", n.Kind)
}

func BenchmarkFormatJSON(b *testing.B) {
	d := starlark.NewDict(10)
	for i := range 10 {
		var v starlark.Value
		switch i % 4 {
		case 0:
			v = starlark.MakeInt(i * 1000)
		case 1:
			v = starlark.String(fmt.Sprintf("value number %d, é", i))
		case 2:
			v = starlark.Float(float64(i) + 0.5)
		case 3:
			v = starlark.NewList([]starlark.Value{starlark.True, starlark.None})
		}
		_ = d.SetKey(starlark.String(fmt.Sprintf("key_%d", i)), v)
	}
	b.ReportAllocs()
	for b.Loop() {
		if text, _ := Format(d, FormatJSON); text == "" {
			b.Fatal("empty")
		}
	}
}

// The text of a result is held to the run's budgets as it is written
// (SPEC §8.1: budgets bind inside every result formatter): a value shared
// many times, or one whose YAML tree is many times its size, is refused
// with the memory error instead of being written unbounded after the
// program ended. Each ends well within its deadline, and the process
// goes quiet.
func TestResultTextWithinBudgets(t *testing.T) {
	cases := []struct{ name, code string }{
		{"json of one string shared", "s = 'x' * 1000000\n[s] * 3000"},
		{"json_h of one string shared", "__format__ = 'json_h'\ns = 'x' * 1000000\n[s] * 3000"},
		{"yaml of one string shared", "__format__ = 'yaml'\ns = 'x' * 1000000\n[s] * 3000"},
		{"yaml of many small values", "__format__ = 'yaml'\n[[0] * 1000] * 10000"},
		{"yaml_flow of many small values", "__format__ = 'yaml_flow'\n[[0] * 1000] * 10000"},
		{"json of control characters", "s = '\\x01' * 10000000\n[s, s]"},
		{"json keys shared", "k = 'k' * 1000000\n[{k: 1}] * 3000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := quiet.Self(t)
			start := time.Now()
			_, err := run(t, c.code, Options{MaxMemory: 64 << 20, Watchdog: NewWatchdog(), Timeout: 20 * time.Second})
			if !errors.Is(err, ErrMemoryLimit) {
				t.Fatalf("err = %v, want the memory limit", err)
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("took %v", took)
			}
			quiet.Wait(t, base, time.Second)
		})
	}
	// What fits is written as before.
	res, err := run(t, "__format__ = 'yaml'\ns = 'x' * 1000\n[s] * 10", Options{MaxMemory: 64 << 20, Watchdog: NewWatchdog(), Timeout: 20 * time.Second})
	if err != nil || strings.Count(res.Text, "- xxx") != 10 {
		t.Errorf("a small result: %v %.80q", err, res.Text)
	}
}
