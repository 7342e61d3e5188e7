package precheck_test

import (
	"errors"
	"strings"
	"testing"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
	"github.com/onetool-dev/onetool/interp/python"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/builtin/demo"
	"github.com/onetool-dev/onetool/proxy"
	"github.com/onetool-dev/onetool/runner/precheck"
)

// globals are a run's predeclared names as the runner makes them: the
// demo pack, an alias, the combinators (stand-ins with their names) and
// the Python builtins.
func globals(t testing.TB) starlark.StringDict {
	t.Helper()
	reg := packs.NewRegistry()
	if err := demo.Register(reg); err != nil {
		t.Fatal(err)
	}
	g := starlark.StringDict{}
	for k, v := range pyrt.Builtins() {
		g[k] = v
	}
	for k, v := range proxy.Globals(reg, nil) {
		g[k] = v
	}
	foo, _ := reg.Tool("demo.foo")
	g["shout"] = proxy.NewTool(foo, nil)
	for _, name := range []string{"call", "plan", "chain", "parallel"} {
		g[name] = starlark.NewBuiltin(name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, nil
		})
	}
	g.Freeze()
	return g
}

func check(t testing.TB, g starlark.StringDict, src string) error {
	t.Helper()
	_, err := interp.CompileChecked(src, python.Parse, g, "", func(f *syntax.File) error { return precheck.Check(f, g) })
	return err
}

func TestCheck(t *testing.T) {
	g := globals(t)
	const sig = " Signature: demo.foo(text: str) -> str"
	for _, tc := range []struct {
		name, src string
		want      []string // the lines of the error, without the final note; none: no error
	}{
		{"a program without mistakes", "x = demo.foo(text='a')\nprint(demo.add(a=1, b=2), demo.items(count=2))\n", nil},
		{"every mistake at once, in line order",
			"print('start')\ndemo.foo(txt='hi')\ndemo.fo(text='x')\ndemo.items(count='3')\ndemo.foo('a', 'b')\ndemo.foo()\n",
			[]string{
				"line 2: demo.foo: unknown parameter 'txt'. Did you mean 'text'?" + sig,
				"line 3: pack 'demo' has no function 'fo'. Did you mean 'foo'? Available: add, bar, echo, fail, flaky, foo, items, panic, sleep",
				"line 4: demo.items: invalid arguments: args.count: must be int, got str",
				"Signature: demo.items(count: int = 3) -> list[dict]",
				"line 5: demo.foo: takes 1 positional argument but 2 were given." + sig,
				"line 6: demo.foo: missing required parameter 'text'." + sig,
			}},
		{"a literal out of range", "demo.items(count=-1)", []string{
			"line 1: demo.items: invalid arguments: args.count: must be >= 0",
			"Signature: demo.items(count: int = 3) -> list[dict]"}},
		{"a list literal of the wrong type", "demo.foo(text=[1, 2])", []string{
			"line 1: demo.foo: invalid arguments: args.text: must be str, got list", "Signature: demo.foo(text: str) -> str"}},
		{"inside a function, a loop and a comprehension",
			"def f():\n    for i in range(2):\n        demo.foo(txet='a')\n[demo.bar(x=1) for _ in range(2)]\n",
			[]string{
				"line 3: demo.foo: unknown parameter 'txet'. Did you mean 'text'?" + sig,
				"line 4: demo.bar: unknown parameter 'x'. Signature: demo.bar(text: str) -> str",
			}},
		{"an alias", "shout(txt='a')", []string{"line 1: demo.foo: unknown parameter 'txt'. Did you mean 'text'?" + sig}},
		{"call(pack.fn, ...)", "parallel([call(demo.foo, tetx='a')])", []string{"line 1: demo.foo: unknown parameter 'tetx'. Did you mean 'text'?" + sig}},
		{"a plan's steps", "plan([{'id': 'a', 'tool': 'demo.itms', 'args': {}}, {'id': 'b', 'tool': 'demo.foo', 'args': {'txt': '${steps.a}'}}])",
			[]string{
				"line 1: plan step 'a': pack 'demo' has no function 'itms'. Did you mean 'items'? Available: add, bar, echo, fail, flaky, foo, items, panic, sleep",
				"line 1: plan step 'b': demo.foo: unknown parameter 'txt'. Did you mean 'text'?" + sig,
			}},
		{"a plan's references and a chain's previous result are left to the run",
			"plan([{'id': 'a', 'tool': 'demo.items', 'args': {'count': '${x}'}}])\nchain([{'tool': 'demo.foo', 'args': {}, 'use_previous': True}])\n", nil},
		{"a chain's steps", "chain([{'tool': 'demo.fooo'}, {'tool': 'demo.foo', 'args': {'txt': 'a'}}])",
			[]string{
				"line 1: chain step 1: pack 'demo' has no function 'fooo'. Did you mean 'foo'? Available: add, bar, echo, fail, flaky, foo, items, panic, sleep",
				"line 1: chain step 2: demo.foo: unknown parameter 'txt'. Did you mean 'text'?" + sig,
			}},
		{"a tool named like a method of Python's values", "demo.items(cont=2)",
			[]string{"line 1: demo.items: unknown parameter 'cont'. Did you mean 'count'? Signature: demo.items(count: int = 3) -> list[dict]"}},
		{"*args: only the keywords written", "args = ['a', 'b']\ndemo.foo(*args)\ndemo.foo(*args, txt=1)\n",
			[]string{"line 3: demo.foo: unknown parameter 'txt'. Did you mean 'text'?" + sig}},
		{"values not known before the run are not judged", "n = '3'\ndemo.items(count=n)\ndemo.foo(text=str(1))\n", nil},
		{"a pack's name the program binds is not the pack", "demo = {'fo': 1}\ndemo.fo()\n", nil},
		{"a parameter named like a pack", "def f(demo):\n    return demo.fo()\n", nil},
		{"a tool held in a variable is checked when called", "f = demo.foo\nf(txt=1)\n", nil},
		{"a name nothing defines", "nothere.foo(x=1)", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := check(t, g, tc.src)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("error %v, want none", err)
				}
				return
			}
			var pe *precheck.Error
			if !errors.As(err, &pe) || !errors.Is(err, packs.ErrArgs) {
				t.Fatalf("error %#v, want a *precheck.Error that is packs.ErrArgs", err)
			}
			want := strings.Join(tc.want, "\n") + "\n(the program did not start: its tool calls were checked first, and no tool ran)"
			if got := err.Error(); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// One error lists a bounded number of problems, whatever the program.
func TestCheckBounded(t *testing.T) {
	src := strings.Repeat("demo.foo(txt='a')\n", 1000)
	err := check(t, globals(t), src)
	var pe *precheck.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v", err)
	}
	if n := len(pe.Problems); n != 20 {
		t.Errorf("%d problems listed, want 20", n)
	}
}

// The check of a 50-line program costs at most 20 µs (issue 29).
func BenchmarkCheck50Lines(b *testing.B) {
	g := globals(b)
	var src strings.Builder
	for i := range 50 {
		switch i % 5 {
		case 0:
			src.WriteString("x = demo.foo(text='a')\n")
		case 1:
			src.WriteString("for i in range(3):\n")
		case 2:
			src.WriteString("    y = demo.items(count=i)\n")
		case 3:
			src.WriteString("print(parallel([call(demo.bar, text=str(j)) for j in range(3)]))\n")
		case 4:
			src.WriteString("z = {'a': [1, 2, 3], 'b': demo.add(a=1, b=2)}\n")
		}
	}
	var file *syntax.File
	if _, err := interp.CompileChecked(src.String(), python.Parse, g, "", func(f *syntax.File) error { file = f; return nil }); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := precheck.Check(file, g); err != nil {
			b.Fatal(err)
		}
	}
}
