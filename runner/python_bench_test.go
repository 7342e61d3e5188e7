package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// BenchmarkColdPipeline is the whole pipeline on code never seen before
// (strip, parse, compile, run, tool calls, format), with the code read by
// Starlark's parser ("starlark": what onetool did before the Python front
// end) and by the front end ("python": parse, scopes, lowering). The
// programs have no Python-isms, so both read them; issue 17 asks that the
// front end add at most 1 µs:
//
//	go test ./runner -run '^$' -bench ColdPipeline -cpu 1 -count 10
//
// Both variants compile the program into the runner's empty program cache
// and then Exec it, which finds it there: the only difference is the
// parser.
func BenchmarkColdPipeline(b *testing.B) {
	for _, prog := range []struct{ name, code string }{
		{"prog=onecall", `demo.foo(text="x")`},
		{"prog=40lines", program40},
	} {
		for _, v := range []struct {
			name  string
			parse interp.Parser
		}{{"front=starlark", interp.ParseStarlark}, {"front=python", python.Parse}} {
			b.Run(prog.name+"/"+v.name, func(b *testing.B) {
				r := newBenchRunner(b)
				ctx := context.Background()
				// Different texts of the same program, as in
				// BenchmarkExecOneCallCold.
				codes := make([]string, 4096)
				for i := range codes {
					codes[i] = prog.code + strings.Repeat(" ", i%7) + "\n" + strings.Repeat("\n", i/7)
				}
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					code := codes[i%len(codes)]
					i++
					r.progs = newProgCache(1)
					p, err := interp.CompileWith(code, v.parse, r.globals, r.hint)
					if err != nil {
						b.Fatal(err)
					}
					r.progs.put(code, p)
					if res := r.Exec(ctx, code); res.IsError() {
						b.Fatal(res.Text)
					}
				}
			})
		}
	}
}

// BenchmarkImport is a one-call program with and without import lines
// for five modules (issue 18: an import costs nothing when the program
// does not use the module, since every module is built once and frozen):
//
//	go test ./runner -run '^$' -bench Import -cpu 1 -count 10
func BenchmarkImport(b *testing.B) {
	for _, prog := range []struct{ name, code string }{
		{"imports=0", `demo.foo(text="x")`},
		{"imports=5", "import json, re, collections, datetime\nfrom csv import DictReader\ndemo.foo(text=\"x\")"},
	} {
		b.Run(prog.name, func(b *testing.B) {
			r := newBenchRunner(b)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if res := r.Exec(ctx, prog.code); res.IsError() {
					b.Fatal(res.Text)
				}
			}
		})
	}
}
