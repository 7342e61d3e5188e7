package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/runner/store"
	"github.com/onetool-dev/onetool/runner/store/storetest"
)

// BenchmarkSharedStore is what a whole run pays for the store (SPEC §7.4),
// store: memory against a real Redis on loopback: a run whose 10 KB
// result is kept under a handle (max_inline 2,000), a run that reads a
// 20-line page of it with ot.result, and a run whose deterministic call
// is a cache hit. The Redis sub-benchmarks are skipped without
// redis-server.
func BenchmarkSharedStore(b *testing.B) {
	const large = `"a line of a large result, about sixty characters long....\n" * 170`
	for _, kind := range []string{"memory", "redis"} {
		b.Run("store="+kind, func(b *testing.B) {
			opts := []Option{WithMaxInline(2000)}
			if kind == "redis" {
				srv := storetest.StartRedis(b)
				s, err := store.NewRedis(srv.URL(0))
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { s.Close() })
				opts = append(opts, WithStore(s))
			}
			r, err := New(opts...)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { r.Close() })
			ctx := context.Background()

			kept := r.Exec(ctx, large)
			if kept.IsError() || kept.Handle == "" {
				b.Fatalf("the large result was not kept: %.200s", kept.Text)
			}
			page := fmt.Sprintf(`ot.result(handle=%q, offset=50, limit=20)`, kept.Handle)
			if res := r.Exec(ctx, page); res.IsError() || !strings.Contains(res.Text, "lines 50–69 of 171") {
				b.Fatalf("the page: %q", res.Text[max(0, len(res.Text)-300):])
			}
			hit := `demo.foo(text="x")`
			r.Exec(ctx, hit)

			for _, bb := range []struct{ name, code string }{
				{"ot.result-page", page}, // before large-result evicts its handle
				{"cache-hit", hit},
				{"large-result", large},
			} {
				b.Run(bb.name, func(b *testing.B) {
					hits := r.CacheStats().Hits
					b.ReportAllocs()
					for b.Loop() {
						if res := r.Exec(ctx, bb.code); res.IsError() {
							b.Fatal(res.Text)
						}
					}
					if bb.name == "cache-hit" && r.CacheStats().Hits-hits < int64(b.N) {
						b.Fatalf("%d runs, %d cache hits", b.N, r.CacheStats().Hits-hits)
					}
					if strings.HasPrefix(bb.name, "large") && r.Exec(ctx, large).Handle == "" {
						b.Fatal("the large result was not kept")
					}
				})
			}
		})
	}
}
