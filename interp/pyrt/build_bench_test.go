package pyrt

import (
	"context"
	"testing"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// BenchmarkBuildWatched is the price of the memory meter on what grows
// collections (issue 27): lists, dicts and sets built by displays,
// comprehensions and constructors, in a run under a memory budget and a
// watchdog, as the runner runs programs.
//
//	go test ./interp/pyrt -run '^$' -bench BuildWatched -count 6
func BenchmarkBuildWatched(b *testing.B) {
	for _, bc := range []struct{ name, src string }{
		{"listcomp", "x = [i for i in range(200000)]"},
		{"list", "x = list(range(200000))"},
		{"append", "x = []\nfor i in range(200000):\n    x.append(i)"},
		{"dictcomp", "x = {i: i for i in range(100000)}"},
		{"dict", "x = dict(zip(range(100000), range(100000)))"},
		{"set", "x = set(range(100000))"},
		{"strings", "x = [str(i) for i in range(100000)]"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			_, py := benchGlobals(nil)
			prog, err := interp.CompileWith(bc.src, python.Parse, py, "")
			if err != nil {
				b.Fatal(err)
			}
			exe := interp.NewExecutor(0)
			b.Cleanup(exe.Close)
			opts := interp.Options{Predeclared: py, Executor: exe, MaxMemory: 256 << 20, Watchdog: interp.NewWatchdog()}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := prog.Run(ctx, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
