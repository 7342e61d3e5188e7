package snippets

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"go.starlark.net/syntax"
)

// Seeds in code complement the committed corpora in testdata/fuzz/.
var invocationSeeds = []string{
	"$pkg packages=react,vue limit=1",
	`$s q="v w" r='x y' n=3`,
	`$s q=hello world n=3`,
	`$s q=a\=b c="\"x\\"`,
	"$s\nq: hello\n\nn: 3",
	"$s\r\nq: \"a\" \r\n",
	`$s q="unterminated`,
	"$",
	"$ x",
	"$s foo",
}

// FuzzParseInvocation: ParseInvocation never panics; what it accepts has a
// valid name, valid unique keys, and survives a round trip through the
// canonical form; what it refuses gets a one-line error.
func FuzzParseInvocation(f *testing.F) {
	for _, s := range invocationSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		inv, err := ParseInvocation(text)
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "snippet invocation: ") || strings.Contains(msg, "\n") {
				t.Fatalf("ParseInvocation(%q): badly formed error %q", text, msg)
			}
			return
		}
		if !isValidName(inv.Name) {
			t.Fatalf("ParseInvocation(%q): invalid name %q", text, inv.Name)
		}
		seen := map[string]bool{}
		for _, a := range inv.Args {
			if !isValidName(a.Key) || seen[a.Key] {
				t.Fatalf("ParseInvocation(%q): bad or repeated key %q", text, a.Key)
			}
			seen[a.Key] = true
		}
		again, err := ParseInvocation(inv.String())
		if err != nil {
			t.Fatalf("ParseInvocation(%q) = %#v, but its String() %q does not parse: %v", text, inv, inv.String(), err)
		}
		if !reflect.DeepEqual(again, inv) {
			t.Fatalf("round trip of %q via %q:\n got %#v\nwant %#v", text, inv.String(), again, inv)
		}
	})
}

// fuzzSet is the fixed snippet set FuzzExpand runs against: each body puts
// the fuzzed text through one filter in a shape that is easy to check.
func fuzzSet(t testing.TB) *Set {
	return mustCompile(t, []Snippet{
		{Name: "lit", Params: []Param{{Name: "text"}}, Body: "{{ text|starlark }}"},
		{Name: "call", Params: []Param{
			{Name: "text"},
			{Name: "n", Type: "integer", Default: 1, HasDefault: true},
			{Name: "flag", Type: "boolean", Default: false, HasDefault: true},
			{Name: "x", Type: "number", Default: 0.5, HasDefault: true},
		}, Body: "f({{ text|starlark }}, {{ n }}, {{ flag }}, {{ x|starlark }})"},
		{Name: "list", Params: []Param{{Name: "text"}, {Name: "sep", Default: ",", HasDefault: true}}, Body: "{{ text|split:sep|starlark }}"},
		{Name: "json", Params: []Param{{Name: "text"}}, Body: "{{ text|tojson }}"},
		{Name: "raw", Params: []Param{{Name: "text", Default: "", HasDefault: true}}, Body: "# {{ text }}\n{{ text|trim|starlark }}"},
	})
}

var expandSeeds = []string{
	`$lit text="); fail("pwned`,
	`$lit text='\"""'`,
	"$lit\ntext: x\\=y",
	`$call text=hi n=3 flag=yes x=1e300`,
	`$call text="a\\" n=-1 flag=0 x=-0.0`,
	`$list text="a, b,,c" sep=" "`,
	`$json text="<&>\u2028"`,
	"$raw text=\"line\nbreak\"",
	`$call text=x n=abc`,
	`$nosuch x=1`,
}

// FuzzExpand: Expand never panics, and whenever it succeeds, user text that
// went through |starlark is exactly one string literal holding that text.
func FuzzExpand(f *testing.F) {
	for _, s := range expandSeeds {
		f.Add(s)
	}
	set := fuzzSet(f)
	f.Fuzz(func(t *testing.T, text string) {
		out, err := set.Expand(text)
		if err != nil {
			return
		}
		inv, perr := ParseInvocation(text)
		if perr != nil {
			t.Fatalf("Expand(%q) worked but ParseInvocation fails: %v", text, perr)
		}
		arg := func(key string) (string, bool) {
			for _, a := range inv.Args {
				if a.Key == key {
					return a.Value, true
				}
			}
			return "", false
		}
		text0, _ := arg("text")
		want := validUTF8(text0)
		switch inv.Name {
		case "lit":
			checkStringLiteral(t, out, out, want)
		case "call":
			e, err := syntax.ParseExpr("x.star", out, 0)
			if err != nil {
				t.Fatalf("Expand(%q) = %q: does not parse: %v", text, out, err)
			}
			call, ok := e.(*syntax.CallExpr)
			if !ok || len(call.Args) != 4 {
				t.Fatalf("Expand(%q) = %q: not a call with 4 arguments", text, out)
			}
			checkStringExpr(t, out, call.Args[0], want)
		case "list":
			e, err := syntax.ParseExpr("x.star", out, 0)
			if err != nil {
				t.Fatalf("Expand(%q) = %q: does not parse: %v", text, out, err)
			}
			list, ok := e.(*syntax.ListExpr)
			if !ok {
				t.Fatalf("Expand(%q) = %q: not a list", text, out)
			}
			for _, el := range list.List {
				if lit, ok := el.(*syntax.Literal); !ok || lit.Token != syntax.STRING {
					t.Fatalf("Expand(%q) = %q: list item is not a string literal", text, out)
				}
			}
		case "json":
			var got string
			if err := json.Unmarshal([]byte(out), &got); err != nil || got != want {
				t.Fatalf("Expand(%q) = %q: not the JSON string of %q (%v)", text, out, want, err)
			}
		case "raw":
			lines := strings.Split(out, "\n")
			checkStringLiteral(t, out, lines[len(lines)-1], strings.TrimSpace(want))
		}
	})
}

// checkStringLiteral checks that src parses as exactly one string literal
// with the given value.
func checkStringLiteral(t *testing.T, out, src, want string) {
	t.Helper()
	e, err := syntax.ParseExpr("x.star", src, 0)
	if err != nil {
		t.Fatalf("expansion %q: %q does not parse: %v", out, src, err)
	}
	checkStringExpr(t, out, e, want)
}

func checkStringExpr(t *testing.T, out string, e syntax.Expr, want string) {
	t.Helper()
	lit, ok := e.(*syntax.Literal)
	if !ok || lit.Token != syntax.STRING {
		t.Fatalf("expansion %q: %T is not one string literal", out, e)
	}
	if lit.Value != want {
		t.Fatalf("expansion %q: literal holds %q, want %q", out, lit.Value, want)
	}
}
