package shapes

import (
	"context"
	"fmt"
	"testing"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/runner/store"
)

// BenchmarkObserve measures what Observe adds to a tool call, with the
// configuration's secret redaction on: a young shape looks at every
// result ("learning"), a settled one at one call in stride ("settled",
// the steady state); a record, and a list of 1,000 records (of which
// sampleElems are looked at).
func BenchmarkObserve(b *testing.B) {
	secrets := testSecrets(b)
	record := func(i int) *ordered.Map {
		m := ordered.NewMap(10)
		m.Set("id", int64(i))
		m.Set("name", fmt.Sprintf("user %d", i))
		m.Set("email", fmt.Sprintf("u%d@example.com", i))
		m.Set("active", i%2 == 0)
		m.Set("score", float64(i)/3)
		m.Set("tags", []any{"a", "b"})
		addr := ordered.NewMap(3)
		addr.Set("city", "Paris")
		addr.Set("zip", "75001")
		m.Set("address", addr)
		m.Set("created_at", "2024-01-01T00:00:00Z")
		return m
	}
	rows := make([]any, 1000)
	for i := range rows {
		rows[i] = record(i)
	}
	for _, tc := range []struct {
		name   string
		result any
	}{{"record", record(1)}, {"1000 records", rows}} {
		for _, phase := range []string{"learning", "settled"} {
			b.Run(tc.name+"/"+phase, func(b *testing.B) {
				l := New(store.NewMemory(store.MemoryOptions{}), Options{Redact: secrets.Redact})
				defer l.Close()
				tl := tool("srv.fn")
				ctx := context.Background()
				if phase == "settled" {
					for range learnCalls + learnWindow + 1 {
						l.Observe(ctx, tl, tc.result)
					}
				}
				e := l.entry(tl)
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if phase == "learning" {
						e.calls.Store(0) // every call is looked at
					}
					l.Observe(ctx, tl, tc.result)
				}
			})
		}
	}
}

// BenchmarkResultType measures rendering a learned type for a stub line,
// once rendered (the common case) and with a store read.
func BenchmarkResultType(b *testing.B) {
	l := New(store.NewMemory(store.MemoryOptions{}), Options{})
	tl := tool("srv.fn")
	l.Observe(context.Background(), tl, dec(b, `[{"id": 1, "name": "a", "tags": ["x"]}, {"id": 2}]`))
	l.Flush(context.Background())
	b.ReportAllocs()
	for b.Loop() {
		l.ResultType(tl)
	}
}
