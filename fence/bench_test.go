package fence_test

import (
	"testing"

	"github.com/onetool-dev/onetool/fence"
)

const program = `def total(items):
    sum = 0
    for item in items:
        sum += item["price"] * item["count"]
    return sum

items = [{"price": 3, "count": 2}, {"price": 5, "count": 1}]
if total(items) > 10:
    print("large order")
total(items)`

var benchInputs = []struct{ name, text string }{
	{"plain", program},
	{"fenced", "__run\n```python\n" + program + "\n```\nThis returns 11."},
	{"indented", "    " + indent(program)},
}

// indent adds four spaces after every newline, as when a model sends code
// cut from a nested context; this is the path that has to allocate.
func indent(s string) string {
	out := make([]byte, 0, len(s)+64)
	for i := 0; i < len(s); i++ {
		out = append(out, s[i])
		if s[i] == '\n' {
			out = append(out, "    "...)
		}
	}
	return string(out)
}

func BenchmarkStrip(b *testing.B) {
	for _, in := range benchInputs {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in.text)))
			for b.Loop() {
				if _, err := fence.Strip(in.text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
