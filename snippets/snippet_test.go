package snippets

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// specPkg is the example of SPEC §5.2.
var specPkg = Snippet{
	Name:        "pkg",
	Description: "Latest versions of npm packages",
	Params: []Param{
		{Name: "packages", Type: "string", Description: "comma-separated names"},
		{Name: "limit", Type: "integer", Default: 5, HasDefault: true},
	},
	Body: "[pkg.npm(name=n) for n in {{ packages|split:\",\"|starlark }}][:{{ limit }}]\n",
}

func testSnippets() []Snippet {
	return []Snippet{
		specPkg,
		{Name: "types", Params: []Param{
			{Name: "s"}, // type defaults to string; no default: required
			{Name: "i", Type: "integer", Default: "7", HasDefault: true},
			{Name: "f", Type: "number", Default: 1, HasDefault: true},
			{Name: "b", Type: "boolean", Default: false, HasDefault: true},
			{Name: "o", HasDefault: true}, // nil default: optional, None
		}, Body: "{{ s|starlark }} {{ i|starlark }} {{ f|starlark }} {{ b|starlark }} {{ o|starlark }}"},
		{Name: "search", Description: "Search the web", Params: []Param{
			{Name: "query", Description: "what to look for"},
			{Name: "max_results", Type: "integer", Default: 10, HasDefault: true},
		}, Body: "web.search(query={{ query|starlark }}, max_results={{ max_results }})"},
		{Name: "raw", Params: []Param{{Name: "text"}}, Body: "{{ text }}"},
		{Name: "two", Params: []Param{{Name: "a"}, {Name: "b"}}, Body: "{{ a }}{{ b }}"},
		{Name: "noparams", Body: "\n\n  ot.help()  \n\n"},
		{Name: "loop", Params: []Param{{Name: "names", Default: "a,b", HasDefault: true}, {Name: "n", Type: "integer", Default: 0, HasDefault: true}}, Body: `
{% for x in names|split %}print({{ forloop.Counter }}, {{ x|starlark }})
{% endfor %}{% if n > 2 %}big = True{% else %}big = False{% endif %}`},
		{Name: "field", Params: []Param{{Name: "s"}}, Body: "a = 1\nb = {{ s.x.y }}\n"},
		{Name: "div", Params: []Param{{Name: "n", Type: "integer"}}, Body: "x = {{ 10 / n }}"},
	}
}

func mustCompile(t testing.TB, snips []Snippet) *Set {
	t.Helper()
	s, err := Compile(snips)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return s
}

func TestExpand(t *testing.T) {
	set := mustCompile(t, testSnippets())
	tests := []struct {
		name, text, want string
	}{
		{"spec example", "$pkg packages=react,vue limit=1", `[pkg.npm(name=n) for n in ["react", "vue"]][:1]`},
		{"default filled", `$pkg packages="react, vue, "`, `[pkg.npm(name=n) for n in ["react", "vue"]][:5]`},
		{"block form", "$pkg\npackages: react, vue\nlimit: 2", `[pkg.npm(name=n) for n in ["react", "vue"]][:2]`},
		{"defaults typed", "$types s=hi", `"hi" 7 1.0 False None`},
		{"all given", "$types s=hi i=-3 f=2.5 b=YES o=x", `"hi" -3 2.5 True "x"`},
		{"string stays string", "$types s=5 b=0 f=3", `"5" 7 3.0 False None`},
		{"integer padded", "$types s=x i= 42 ", `"x" 42 1.0 False None`},
		{"boolean forms", "$types s=x b=no", `"x" 7 1.0 False None`},
		{"boolean 1", "$types s=x b=1", `"x" 7 1.0 True None`},
		{"boolean True", "$types s=x b=True", `"x" 7 1.0 True None`},
		{"number exponent", "$types s=x f=1e-7", `"x" 7 1e-07 False None`},
		{"empty string param", `$types s=""`, `"" 7 1.0 False None`},
		{"output trimmed", "$noparams", "ot.help()"},
		{"for and if", "$loop names=x,y n=3", "print(1, \"x\")\nprint(2, \"y\")\nbig = True"},
		{"loop defaults", "$loop", "print(1, \"a\")\nprint(2, \"b\")\nbig = False"},
		{"autoescape off", `$raw text=<&>"' x`, `<&>"' x`},
		{"integer renders plainly", "$search query=go max_results=3", `web.search(query="go", max_results=3)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := set.Expand(tt.text)
			if err != nil {
				t.Fatalf("Expand(%q): %v", tt.text, err)
			}
			if got != tt.want {
				t.Fatalf("Expand(%q)\n got %q\nwant %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestExpandErrors(t *testing.T) {
	set := mustCompile(t, testSnippets())
	all := "div, field, loop, noparams, pkg, raw, search, two, types"
	tests := []struct {
		name, text, want string
	}{
		{"unknown snippet", "$zzzzzz", "unknown snippet 'zzzzzz'. Available: " + all},
		{"unknown snippet did you mean", "$pgk packages=x", "unknown snippet 'pgk'. Did you mean 'pkg'? Available: " + all},
		{"unknown param", "$search query=x colour=red", "snippet 'search' has no parameter 'colour'. Parameters: query, max_results"},
		{"unknown param did you mean", "$search qeury=x", "snippet 'search' has no parameter 'qeury'. Did you mean 'query'? Parameters: query, max_results"},
		{"hyphen for underscore", "$search query=x max-results=3", "snippet 'search' has no parameter 'max-results'. Did you mean 'max_results'? Parameters: query, max_results"},
		{"no params at all", "$noparams x=1", "snippet 'noparams' has no parameter 'x'. Parameters: (none)"},
		{"missing", "$pkg limit=3", "snippet 'pkg' requires parameter 'packages'"},
		{"missing several", "$two", "snippet 'two' requires parameters 'a', 'b'"},
		{"bad integer", "$pkg packages=x limit=abc", "snippet 'pkg': parameter 'limit' must be an integer, got 'abc'"},
		{"float for integer", "$pkg packages=x limit=1.5", "snippet 'pkg': parameter 'limit' must be an integer, got '1.5'"},
		{"bad number", "$types s=x f=abc", "snippet 'types': parameter 'f' must be a number, got 'abc'"},
		{"infinite number", "$types s=x f=inf", "snippet 'types': parameter 'f' must be a number, got 'inf'"},
		{"bad boolean", "$types s=x b=maybe", "snippet 'types': parameter 'b' must be a boolean (true/false, yes/no or 1/0), got 'maybe'"},
		{"duplicate key", "$pkg packages=a packages=b", "snippet invocation: parameter 'packages' is given twice"},
		{"parse error first", "$pkg foo", "snippet invocation: expected key=value after '$pkg', got 'foo'"},
		{"runtime error names line", "$field s=abc", "snippet 'field': template error at line 2: can't access a field by name on type string (variable s.x.y)"},
		{"panic recovered", "$div n=0", "snippet 'div': template error: runtime error: integer divide by zero"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := set.Expand(tt.text)
			if err == nil {
				t.Fatalf("Expand(%q) = %q, want error %q", tt.text, got, tt.want)
			}
			if err.Error() != tt.want {
				t.Fatalf("Expand(%q) error\n got %q\nwant %q", tt.text, err, tt.want)
			}
		})
	}
}

func TestTemplateErrorType(t *testing.T) {
	set := mustCompile(t, testSnippets())
	_, err := set.Expand("$field s=abc")
	var te *TemplateError
	if !errors.As(err, &te) || te.Snippet != "field" || te.Line != 2 || te.Err == nil {
		t.Fatalf("error %v: want a *TemplateError for line 2 with a cause, got %#v", err, te)
	}
}

func TestNilSet(t *testing.T) {
	var s *Set
	if _, err := s.Expand("$pkg x=1"); err == nil || err.Error() != "unknown snippet 'pkg'. Available: (none)" {
		t.Fatalf("nil Set Expand error = %v", err)
	}
	if _, err := s.Expand("$"); err == nil || !strings.HasPrefix(err.Error(), "snippet invocation:") {
		t.Fatalf("nil Set Expand($) error = %v", err)
	}
	if n := s.Names(); len(n) != 0 {
		t.Fatalf("nil Set Names() = %v", n)
	}
	if _, ok := s.Get("pkg"); ok {
		t.Fatal("nil Set Get found something")
	}
	if _, ok := s.Help("pkg"); ok {
		t.Fatal("nil Set Help found something")
	}
	empty := mustCompile(t, nil)
	if _, err := empty.Expand("$x"); err == nil || err.Error() != "unknown snippet 'x'. Available: (none)" {
		t.Fatalf("empty Set Expand error = %v", err)
	}
}

func TestCompileErrors(t *testing.T) {
	body := "x"
	tests := []struct {
		name  string
		snips []Snippet
		want  string
	}{
		{"bad name", []Snippet{{Name: "a b", Body: body}}, "snippet name 'a b' is invalid"},
		{"empty name", []Snippet{{Name: "", Body: body}}, "snippet name '' is invalid"},
		{"duplicate snippet", []Snippet{{Name: "a", Body: body}, {Name: "a", Body: body}}, "snippet 'a' is defined twice"},
		{"empty body", []Snippet{{Name: "a", Body: " \n "}}, "snippet 'a' has an empty body"},
		{"bad param name", []Snippet{{Name: "a", Body: body, Params: []Param{{Name: "max-results"}}}}, "snippet 'a': parameter name 'max-results' is invalid"},
		{"reserved param", []Snippet{{Name: "a", Body: body, Params: []Param{{Name: "forloop"}}}}, "snippet 'a': parameter name 'forloop' is reserved"},
		{"duplicate param", []Snippet{{Name: "a", Body: body, Params: []Param{{Name: "p"}, {Name: "p"}}}}, "snippet 'a': parameter 'p' is declared twice"},
		{"unknown type", []Snippet{{Name: "a", Body: body, Params: []Param{{Name: "p", Type: "int"}}}}, "snippet 'a': parameter 'p' has unknown type 'int' (use string, integer, number or boolean)"},
		{"bad default string", []Snippet{{Name: "a", Body: body, Params: []Param{{Name: "p", Type: "integer", Default: "x", HasDefault: true}}}}, "snippet 'a': default of parameter 'p' must be an integer, got 'x'"},
		{"bad default type", []Snippet{{Name: "a", Body: body, Params: []Param{{Name: "p", Type: "boolean", Default: 3, HasDefault: true}}}}, "snippet 'a': default of parameter 'p' must be a boolean, got 3"},
		{"fractional default", []Snippet{{Name: "a", Body: body, Params: []Param{{Name: "p", Type: "integer", Default: 2.5, HasDefault: true}}}}, "must be an integer, got 2.5"},
		{"syntax error line", []Snippet{{Name: "a", Body: "x = 1\ny = {% if %}"}}, "snippet 'a': template error at line 2: "},
		{"unknown filter", []Snippet{{Name: "a", Body: "x = 1\n\ny = {{ v|nosuch }}"}}, "snippet 'a': template error at line 3: Filter 'nosuch' does not exist."},
		{"unclosed block clamps to body", []Snippet{{Name: "a", Body: "{% if x %}\nx = 1\n"}}, "snippet 'a': template error at line 2: "},
		{"all errors reported", []Snippet{{Name: "a", Body: ""}, {Name: "b", Body: "{{"}}, "snippet 'a' has an empty body\nsnippet 'b': template error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Compile(tt.snips)
			if err == nil {
				t.Fatalf("Compile succeeded (%v), want error containing %q", s.Names(), tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Compile error\n got %q\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

func TestDefaultsNormalised(t *testing.T) {
	set := mustCompile(t, []Snippet{{Name: "d", Body: "x", Params: []Param{
		{Name: "i", Type: "integer", Default: int64(3), HasDefault: true},
		{Name: "j", Type: "integer", Default: 4.0, HasDefault: true},
		{Name: "u", Type: "integer", Default: uint8(5), HasDefault: true},
		{Name: "f", Type: "number", Default: 2, HasDefault: true},
		{Name: "s", Default: 12, HasDefault: true},
		{Name: "t", Default: true, HasDefault: true},
		{Name: "b", Type: "boolean", Default: "yes", HasDefault: true},
		{Name: "r"},
	}}})
	sn, _ := set.Get("d")
	got := map[string]any{}
	for _, p := range sn.Params {
		got[p.Name] = p.Default
	}
	want := map[string]any{"i": 3, "j": 4, "u": 5, "f": 2.0, "s": "12", "t": "true", "b": true, "r": nil}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("defaults = %#v, want %#v", got, want)
	}
}

func TestNamesGet(t *testing.T) {
	in := testSnippets()
	set := mustCompile(t, in)
	want := []string{"div", "field", "loop", "noparams", "pkg", "raw", "search", "two", "types"}
	if got := set.Names(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	set.Names()[0] = "mutated"
	if set.Names()[0] != "div" {
		t.Fatal("Names() exposes the Set's own slice")
	}

	sn, ok := set.Get("types")
	if !ok || sn.Params[0].Type != "string" || sn.Params[1].Default != 7 {
		t.Fatalf("Get(types) = %#v, %v: want canonical type and typed default", sn, ok)
	}
	if _, ok := set.Get("$types"); !ok {
		t.Fatal(`Get("$types") should accept the leading "$"`)
	}
	sn.Params[1].Default = 99
	in[1].Params[1].Default = "99"
	in[1].Body = "changed"
	if got, _ := set.Expand("$types s=x"); got != `"x" 7 1.0 False None` {
		t.Fatalf("the Set changed with its inputs or Get's result: %q", got)
	}
	if _, ok := set.Get("nope"); ok {
		t.Fatal("Get(nope) found something")
	}
}

func TestHelp(t *testing.T) {
	set := mustCompile(t, testSnippets())
	got, ok := set.Help("$pkg")
	want := `$pkg packages=<string> [limit=5] — Latest versions of npm packages
  packages: string, required — comma-separated names
  limit: integer, default 5
Expands to:
  [pkg.npm(name=n) for n in {{ packages|split:","|starlark }}][:{{ limit }}]`
	if !ok || got != want {
		t.Fatalf("Help($pkg) =\n%s\nwant\n%s", got, want)
	}

	got, _ = set.Help("types")
	want = `$types s=<string> [i=7] [f=1] [b=false] [o=<string>]
  s: string, required
  i: integer, default 7
  f: number, default 1
  b: boolean, default false
  o: string, optional
Expands to:
  {{ s|starlark }} {{ i|starlark }} {{ f|starlark }} {{ b|starlark }} {{ o|starlark }}`
	if got != want {
		t.Fatalf("Help(types) =\n%s\nwant\n%s", got, want)
	}
	if _, ok := set.Help("nope"); ok {
		t.Fatal("Help(nope) found something")
	}
}

// TestConcurrentExpand runs many expansions at once; run with -race. Each
// goroutine checks its own results, so shared state in a template would show
// up as wrong output as well as a race report.
func TestConcurrentExpand(t *testing.T) {
	set := mustCompile(t, testSnippets())
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 64 {
		wg.Go(func() {
			for i := range 100 {
				n := g*1000 + i
				got, err := set.Expand(fmt.Sprintf("$pkg packages=a%d,b limit=%d", n, n))
				want := fmt.Sprintf(`[pkg.npm(name=n) for n in ["a%d", "b"]][:%d]`, n, n)
				if err == nil && got != want {
					err = fmt.Errorf("got %q, want %q", got, want)
				}
				if err == nil {
					_, err = set.Expand("$loop names=x,y n=" + fmt.Sprint(i))
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestConcurrentCompile compiles sets in parallel: filter registration and
// template parsing must not race.
func TestConcurrentCompile(t *testing.T) {
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			s, err := Compile(testSnippets())
			if err != nil {
				t.Error(err)
				return
			}
			if _, err := s.Expand("$pkg packages=a"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

func BenchmarkExpand(b *testing.B) {
	set := mustCompile(b, testSnippets())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := set.Expand("$pkg packages=react,vue,svelte limit=2"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExpandParallel(b *testing.B) {
	set := mustCompile(b, testSnippets())
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := set.Expand("$pkg packages=react,vue,svelte limit=2"); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func BenchmarkParseInvocation(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseInvocation(`$search query="hello world" max_results=5 lang=en`); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompile(b *testing.B) {
	snips := testSnippets()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(snips); err != nil {
			b.Fatal(err)
		}
	}
}
