package store

import (
	"bytes"
	"context"
	"testing"
	"time"
)

// BenchmarkStore compares the embedded store with a real Redis on
// loopback for what the runner does: keep and read a 100 KB result, and
// read a cached tool result (a few hundred bytes of JSON).
func BenchmarkStore(b *testing.B) {
	ctx := context.Background()
	result := bytes.Repeat([]byte("a line of a large result, about sixty characters long....\n"), 100_000/59)
	cached := []byte(`{"status":"ok","items":[{"id":1,"name":"alpha"},{"id":2,"name":"beta"}],"total":2,"next":null,"source":"example.com"}`)
	for _, k := range kinds(b) {
		b.Run(k.name, func(b *testing.B) {
			s := k.open(b, MemoryOptions{MaxEntries: 100, MaxBytes: 256 << 20})
			b.Run("set-100KB", func(b *testing.B) {
				b.SetBytes(int64(len(result)))
				for b.Loop() {
					if err := s.Set(ctx, "result", result, time.Minute); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("get-100KB", func(b *testing.B) {
				s.Set(ctx, "result", result, time.Minute)
				b.SetBytes(int64(len(result)))
				for b.Loop() {
					if _, err := s.Get(ctx, "result"); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("cache-hit", func(b *testing.B) {
				s.Set(ctx, "cache", cached, 0)
				for b.Loop() {
					if _, err := s.Get(ctx, "cache"); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("incr", func(b *testing.B) {
				for b.Loop() {
					if _, err := s.Incr(ctx, "runs", time.Minute); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
