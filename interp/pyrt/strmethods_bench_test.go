package pyrt

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// BenchmarkStrMethods compares the str methods on 1 KiB of text with
// Starlark's own on the same ASCII text (the "starlark" runs: a plain
// Starlark program, not lowered). ns/call is the time of one method call
// in a loop of a thousand.
//
//	go test ./interp/pyrt -run '^$' -bench StrMethods
func BenchmarkStrMethods(b *testing.B) {
	ascii := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 23)[:1024]
	nonASCII := strings.Repeat("Größe über Maß: 東京 café — naïve señor. ", 20)
	for len(nonASCII) > 1024 {
		_, n := utf8.DecodeLastRuneInString(nonASCII)
		nonASCII = nonASCII[:len(nonASCII)-n]
	}
	calls := []struct{ name, call string }{
		{"split", "split()"},
		{"strip", "strip()"},
		{"find", "find('zzz')"},
		{"upper", "upper()"},
	}
	for _, c := range calls {
		for _, v := range []struct {
			name, text string
			lowered    bool
		}{
			{"starlark", ascii, false},
			{"ascii", ascii, true},
			{"nonascii", nonASCII, true},
		} {
			b.Run(c.name+"/"+v.name, func(b *testing.B) {
				text := v.text
				if c.name == "strip" {
					text = "  \t" + text + "\n  "
				}
				// The same loop in both: Builtins has its own range.
				loop := make([]starlark.Value, 1000)
				for i := range loop {
					loop[i] = starlark.None
				}
				g := starlark.StringDict{"text": interp.MakeString(text), "calls": starlark.NewList(loop)}
				opts := interp.Options{}
				if v.lowered {
					for k, x := range Builtins() {
						g[k] = x
					}
					opts.Parse = python.Parse
				}
				g.Freeze()
				opts.Predeclared = g
				code := "def f():\n    for _ in calls:\n        text." + c.call + "\nf()\n"
				b.ResetTimer()
				for range b.N {
					if _, err := interp.Exec(context.Background(), code, opts); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/call")
			})
		}
	}
}
