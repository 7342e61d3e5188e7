package snippets

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/flosch/pongo2/v6"
	"go.starlark.net/syntax"
)

// expandOne compiles a one-parameter snippet "t" with body and expands it
// with v as the parameter's text.
func expandOne(t *testing.T, typ, body, v string) string {
	t.Helper()
	set := mustCompile(t, []Snippet{{Name: "t", Params: []Param{{Name: "v", Type: typ}}, Body: body}})
	out, err := set.ExpandInvocation(Invocation{Name: "t", Args: []Arg{{"v", v}}})
	if err != nil {
		t.Fatalf("expand %q with v=%q: %v", body, v, err)
	}
	return out
}

func TestFilters(t *testing.T) {
	tests := []struct {
		name, typ, body, v, want string
	}{
		{"split trims and drops empties", "", `{{ v|split:","|starlark }}`, " a, b ,,c , ", `["a", "b", "c"]`},
		{"split default separator", "", `{{ v|split|starlark }}`, "a,b", `["a", "b"]`},
		{"split on spaces", "", `{{ v|split:" "|starlark }}`, "a  b   c", `["a", "b", "c"]`},
		{"split other separator", "", `{{ v|split:";"|starlark }}`, "a,b;c", `["a,b", "c"]`},
		{"split nothing", "", `{{ v|split|starlark }}`, " , ,", `[]`},
		{"split integer", "integer", `{{ v|split|starlark }}`, "5", `["5"]`},
		{"split then join", "", `{{ v|split|join:"|" }}`, "a, b", `a|b`},
		{"split list flattens", "", `{{ v|split:";"|split|starlark }}`, "a,b;c", `["a", "b", "c"]`},
		{"split loop", "", `{% for x in v|split %}[{{ x }}]{% endfor %}`, "a, b", `[a][b]`},
		{"trim", "", `<{{ v|trim }}>`, " \t x y \n", `<x y>`},
		{"trim cutset", "", `<{{ v|trim:"-" }}>`, "--x-y--", `<x-y>`},
		{"trim list", "", `{{ v|split:";"|trim|starlark }}`, " a ; b ", `["a", "b"]`},
		{"tojson string", "", `{{ v|tojson }}`, `<&>"x`, `"<&>\"x"`},
		{"tojson list", "", `{{ v|split|tojson }}`, "a, b", `["a","b"]`},
		{"tojson unicode", "", `{{ v|tojson }}`, "héllo ✓", `"héllo ✓"`},
		{"tojson integer", "integer", `{{ v|tojson }}`, "5", `5`},
		{"tojson number", "number", `{{ v|tojson }}`, "2.5", `2.5`},
		{"tojson boolean", "boolean", `{{ v|tojson }}`, "yes", `true`},
		{"starlark string", "", `{{ v|starlark }}`, `a "b" \c`, `"a \"b\" \\c"`},
		{"starlark control chars", "", `{{ v|starlark }}`, "a\nb\tc\x00\x7f\u2028", `"a\nb\tc\x00\x7f\u2028"`},
		{"starlark invalid utf8", "", `{{ v|starlark }}`, "a\xffb", "\"a\uFFFDb\""},
		{"starlark integer", "integer", `{{ v|starlark }}`, "-12", `-12`},
		{"starlark number whole", "number", `{{ v|starlark }}`, "3", `3.0`},
		{"starlark number", "number", `{{ v|starlark }}`, "0.1", `0.1`},
		{"starlark boolean", "boolean", `{{ v|starlark }}`, "false", `False`},
		{"autoescape off after filters", "", `{{ v|upper }}{{ v|split|join:"," }}`, `<&>"'`, `<&>"'<&>"'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := expandOne(t, tt.typ, tt.body, tt.v); got != tt.want {
				t.Fatalf("%s with v=%q\n got %s\nwant %s", tt.body, tt.v, got, tt.want)
			}
		})
	}
}

func TestFilterErrorsNameTheSnippet(t *testing.T) {
	set := mustCompile(t, []Snippet{{Name: "j", Params: []Param{{Name: "v", Type: "number"}}, Body: "a\n{{ v|date:\"2006\" }}"}})
	_, err := set.Expand("$j v=1")
	if err == nil || !strings.HasPrefix(err.Error(), "snippet 'j': template error at line 2: ") {
		t.Fatalf("error = %v", err)
	}
}

func TestStarlarkLiteral(t *testing.T) {
	type point struct{ X int }
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	s := "pointed"
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"nil", nil, "None"},
		{"true", true, "True"},
		{"int64", int64(math.MinInt64), "-9223372036854775808"},
		{"uint64", uint64(math.MaxUint64), "18446744073709551615"},
		{"float", 1.5, "1.5"},
		{"float whole", float32(2), "2.0"},
		{"float large", 1e21, "1e+21"},
		{"float small", 1e-7, "1e-07"},
		{"negative zero", math.Copysign(0, -1), "-0.0"},
		{"nan", math.NaN(), `float("nan")`},
		{"inf", math.Inf(1), `float("inf")`},
		{"-inf", math.Inf(-1), `-float("inf")`},
		{"string", `"); fail("pwned`, `"\"); fail(\"pwned"`},
		{"triple quotes", `"""x'''`, `"\"\"\"x'''"`},
		{"bytes", []byte("a\xff\""), `b"a\xff\""`},
		{"pointer", &s, `"pointed"`},
		{"nil pointer", (*string)(nil), "None"},
		{"list", []any{1, "a", nil, []string{"b"}}, `[1, "a", None, ["b"]]`},
		{"nil slice", []string(nil), "[]"},
		{"array", [2]int{1, 2}, "[1, 2]"},
		{"dict sorted", map[string]any{"b": 1, "a": []int{2}}, `{"a": [2], "b": 1}`},
		{"dict int keys", map[int]bool{2: true, 1: false}, `{1: False, 2: True}`},
		{"stringer", stringer{}, `"stringer text"`},
		{"duration is an integer", 1500 * time.Millisecond, "1500000000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := StarlarkLiteral(tt.in)
			if err != nil {
				t.Fatalf("StarlarkLiteral(%#v): %v", tt.in, err)
			}
			if got != tt.want {
				t.Fatalf("StarlarkLiteral(%#v)\n got %s\nwant %s", tt.in, got, tt.want)
			}
			if _, err := syntax.ParseExpr("lit.star", got, 0); err != nil {
				t.Fatalf("%s is not a Starlark expression: %v", got, err)
			}
		})
	}
	for _, bad := range []any{point{1}, cyclic, func() {}, make(chan int)} {
		if got, err := StarlarkLiteral(bad); err == nil {
			t.Errorf("StarlarkLiteral(%T) = %s, want an error", bad, got)
		}
	}
}

type stringer struct{}

func (stringer) String() string { return "stringer text" }

// TestStarlarkFilterInjection feeds hostile text to a snippet that builds a
// call: whatever the text, the expansion must parse as the one intended call
// whose argument is a string literal holding exactly that text.
func TestStarlarkFilterInjection(t *testing.T) {
	set := mustCompile(t, testSnippets())
	attacks := []string{
		`"); fail("pwned`,
		`'); fail('pwned`,
		`"""); fail("pwned"); x = ("""`,
		`\"); fail(\"pwned`,
		`\`,
		`\\`,
		"x\")\nfail(\"pwned\")\n#",
		"x\r\nfail(1)",
		"\x00\x01\x1b[31m",
		"a\u2028b\u2029c\u0085d",
		"\xff\xfe\"); fail(1) #",
		"{{ query }}{% if 1 %}",
		"' + fail('x') + '",
		`" + fail("x") + "`,
	}
	for _, a := range attacks {
		out, err := set.ExpandInvocation(Invocation{Name: "search", Args: []Arg{{"query", a}}})
		if err != nil {
			t.Fatalf("expand with %q: %v", a, err)
		}
		call := parseCall(t, out)
		if len(call.Args) != 2 {
			t.Fatalf("input %q broke out of its string: %s", a, out)
		}
		lit, ok := call.Args[0].(*syntax.BinaryExpr).Y.(*syntax.Literal)
		if !ok || lit.Token != syntax.STRING {
			t.Fatalf("input %q: first argument is not a string literal: %s", a, out)
		}
		if want := validUTF8(a); lit.Value != want {
			t.Fatalf("input %q came back as %q", a, lit.Value)
		}
	}
}

func parseCall(t *testing.T, code string) *syntax.CallExpr {
	t.Helper()
	e, err := syntax.ParseExpr("x.star", code, 0)
	if err != nil {
		t.Fatalf("expansion %q does not parse: %v", code, err)
	}
	call, ok := e.(*syntax.CallExpr)
	if !ok {
		t.Fatalf("expansion %q is not a call", code)
	}
	return call
}

func TestFilterErrors(t *testing.T) {
	for _, f := range []string{"starlark", "tojson"} {
		set := mustCompile(t, []Snippet{{Name: "e", Params: []Param{{Name: "v"}},
			Body: "x = 1\n{% for x in v|split %}{{ forloop|" + f + " }}{% endfor %}"}})
		_, err := set.Expand("$e v=a")
		want := "snippet 'e': template error at line 2: " + f + " filter: cannot write a pongo2.tagForLoopInformation as a literal"
		if err == nil || err.Error() != want {
			t.Fatalf("%s: error\n got %v\nwant %s", f, err, want)
		}
		var te *TemplateError
		if !errors.As(err, &te) || errors.Unwrap(te) == nil {
			t.Fatalf("%s: the filter's error is not wrapped: %#v", f, err)
		}
	}
}

func TestToJSONShapes(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{map[int]any{2: []byte("b<"), 1: nil}, `{"1":null,"2":"b<"}`},
		{[]any{1, 2.5, true, "x", []string{"y"}}, `[1,2.5,true,"x",["y"]]`},
		{map[string]any{"z": map[string]int{"a": 1}}, `{"z":{"a":1}}`},
	}
	for _, tt := range tests {
		got, err := filterToJSON(pongo2.AsValue(tt.in), pongo2.AsValue(nil))
		if err != nil || got.String() != tt.want {
			t.Errorf("tojson(%#v) = %v, %v; want %s", tt.in, got, err, tt.want)
		}
	}
	if _, err := filterToJSON(pongo2.AsValue(math.NaN()), pongo2.AsValue(nil)); err == nil {
		t.Error("tojson(NaN) should fail: JSON has no NaN")
	}
}
