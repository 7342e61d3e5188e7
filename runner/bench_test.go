package runner

import (
	"context"
	"strings"
	"testing"
)

func newBenchRunner(b *testing.B) *Runner {
	b.Helper()
	r, err := New()
	if err != nil {
		b.Fatal(err)
	}
	return r
}

func benchExec(b *testing.B, r *Runner, code string) {
	b.Helper()
	ctx := context.Background()
	if res := r.Exec(ctx, code); res.IsError() {
		b.Fatal(res.Text)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r.Exec(ctx, code)
	}
}

// BenchmarkExecOneCall is the whole pipeline — strip, parse, compile, run,
// one tool call with validation, format — for the smallest useful program.
func BenchmarkExecOneCall(b *testing.B) {
	benchExec(b, newBenchRunner(b), `demo.foo(text="x")`)
}

// BenchmarkToolCalls measures the cost of one tool call from Starlark
// (binding, validation, handler, conversion) in a loop of 1,000 calls;
// the per-call figure is reported as ns/call.
func BenchmarkToolCalls(b *testing.B) {
	r := newBenchRunner(b)
	code := "t = 0\nfor i in range(1000):\n    t += demo.add(a=i, b=1)\nt"
	benchExec(b, r, code)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/call")
}

// BenchmarkExec40Lines runs a 40-line program of ordinary Starlark with a
// few tool calls: parse and compile dominate.
func BenchmarkExec40Lines(b *testing.B) {
	benchExec(b, newBenchRunner(b), program40)
}

var program40 = strings.TrimSpace(`
def slug(s):
    out = []
    for ch in s.lower().elems():
        if ch.isalnum():
            out.append(ch)
        elif out and out[-1] != "-":
            out.append("-")
    return "".join(out).strip("-")

def summarize(items):
    names = [it["name"] for it in items]
    return {"count": len(items), "first": names[0], "last": names[-1]}

titles = ["Hello World", "Starlark is fun", "One tool to run them"]
slugs = [slug(t) for t in titles]
colors = {}
for s in slugs:
    colors[s] = demo.foo(text=s)

items = demo.items(count=5)
summary = summarize(items)

totals = {"even": 0, "odd": 0}
for i in range(50):
    if i % 2 == 0:
        totals["even"] += i
    else:
        totals["odd"] += i

animal = demo.bar(text=slugs[0])
words = " ".join(titles).split(" ")
longest = ""
for w in words:
    if len(w) > len(longest):
        longest = w

result = {
    "slugs": slugs,
    "colors": colors,
    "summary": summary,
    "totals": totals,
    "animal": animal,
    "longest": longest,
}
result
`)

// BenchmarkExecOneCallCold is BenchmarkExecOneCall with code never seen
// before, so every run parses and compiles.
func BenchmarkExecOneCallCold(b *testing.B) {
	r := newBenchRunner(b)
	ctx := context.Background()
	codes := make([]string, 4096)
	for i := range codes {
		codes[i] = `demo.foo(text="x")` + strings.Repeat(" ", i%7) + "\n" + strings.Repeat("\n", i/7)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r.progs = newProgCache(0)
		r.Exec(ctx, codes[i%len(codes)])
		i++
	}
}

// BenchmarkRun is one Go API call of a local tool, validation on and off.
func BenchmarkRun(b *testing.B) {
	args := map[string]any{"a": 1, "b": 2}
	for _, tt := range []struct {
		name string
		in   bool
	}{{"validation", true}, {"novalidation", false}} {
		b.Run(tt.name, func(b *testing.B) {
			// demo.add is deterministic: turn the cache off to measure a call.
			r, err := New(WithValidation(tt.in, tt.in), WithCache(0, 0))
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Run(ctx, "demo.add", args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRunCacheHit is a deterministic call served from the cache.
func BenchmarkRunCacheHit(b *testing.B) {
	r := newBenchRunner(b)
	ctx := context.Background()
	args := map[string]any{"text": "x"}
	r.Run(ctx, "demo.foo", args)
	b.ReportAllocs()
	for b.Loop() {
		res, err := r.Run(ctx, "demo.foo", args)
		if err != nil || !res.Cached {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkRunChain3 is a chain of three calls.
func BenchmarkRunChain3(b *testing.B) {
	r, err := New(WithCache(0, 0))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	steps := []ChainStep{
		{ToolID: "demo.add", Args: map[string]any{"a": 1, "b": 2}},
		{ToolID: "demo.foo", Args: map[string]any{"text": "x"}},
		{ToolID: "demo.bar", Args: map[string]any{"text": "y"}},
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := r.RunChain(ctx, steps); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIsolation measures what isolation: process adds to a run: the
// same programs in-process and in a worker (one tool call, and none).
func BenchmarkIsolation(b *testing.B) {
	for _, code := range []struct{ name, src string }{
		{"nocall", "1 + 1"},
		{"onecall", `demo.foo(text="x")`},
	} {
		b.Run(code.name+"/inprocess", func(b *testing.B) {
			benchExec(b, newBenchRunner(b), code.src)
		})
		b.Run(code.name+"/worker", func(b *testing.B) {
			r, err := New(WithIsolation(Isolation{Workers: 1, MaxWorkers: 1}))
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			benchExec(b, r, code.src)
		})
	}
}

// BenchmarkLoop100k is a tight Starlark loop with a product: the cost of
// budgets per iteration (range charging its elements, * checked by a
// helper that sizes repetitions and big products first).
func BenchmarkLoop100k(b *testing.B) {
	benchExec(b, newBenchRunner(b), "t = 0\nfor i in range(100000):\n    t += i * 2\nt")
}
