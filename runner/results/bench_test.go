package results

import (
	"context"
	"strings"
	"testing"
)

// Storing a large result (encode: marks for lines and characters) and
// reading a page near its end, which the marks make cost a page, not the
// text before it. 16 MiB of short lines, and one 16 MiB line.
func BenchmarkResults(b *testing.B) {
	texts := map[string]string{
		"lines":    strings.Repeat("a line of some forty characters or so..\n", 16<<20/41),
		"one-line": strings.Repeat("0123456789,", 16<<20/11),
	}
	for _, name := range []string{"lines", "one-line"} {
		text := texts[name]
		b.Run("encode-16MiB-"+name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				encode(text)
			}
		})
		s := NewMemory(Options{})
		id, err := s.put(context.Background(), text, "")
		if err != nil {
			b.Fatal(err)
		}
		r, _ := decode(encode(text))
		last := max(1, r.lines-50)
		b.Run("page-lines-at-end-"+name, func(b *testing.B) {
			for b.Loop() {
				if _, err := read(s, Query{Handle: id, Offset: last}); err != nil {
					b.Fatal(err)
				}
			}
		})
		start := r.chars - 20000
		b.Run("page-chars-at-end-"+name, func(b *testing.B) {
			for b.Loop() {
				if _, err := read(s, Query{Handle: id, Start: &start}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
