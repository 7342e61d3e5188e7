package pyast

import (
	"fmt"
	"strings"
	"testing"

	"go.starlark.net/syntax"
)

// benchProgram is 40 lines that are both Python and Starlark, so that
// the two parsers can be compared on the same text.
const benchProgram = `def summarize(rows, key = "total"):
    """Sum one column of rows, grouped by their name."""
    groups = {}
    for row in rows:
        name = row["name"].strip().lower()
        if name not in groups:
            groups[name] = []
        groups[name].append(row.get(key, 0))
    out = []
    for name, values in sorted(groups.items()):
        total = 0
        for v in values:
            if v == None:
                continue
            elif v < 0:
                total -= v
            else:
                total += v * 2 + 1
        out.append({"name": name, "total": total, "count": len(values)})
    return out

def report(items, width = 20):
    lines = []
    for i, item in enumerate(items):
        label = "%s: %d" % (item["name"], item["total"])
        if len(label) > width and not item.get("keep", False):
            label = label[:width - 3] + "..."
        lines.append(label)
    return "\n".join(lines)

data = [
    {"name": "Alpha", "total": 3, "flag": True},
    {"name": "beta ", "total": -4, "flag": False},
    {"name": "ALPHA", "total": 5},
]
result = summarize(data)
text = report(result, width = 12)
best = max([r["total"] for r in result if r["count"] > 1] + [0])
count = len(result)
print(text, best, count)
`

// bigProgram is benchProgram 50 times over (2,000 lines), each copy with
// names of its own.
func bigProgram() string {
	var b strings.Builder
	for i := 0; i < 50; i++ {
		p := strings.NewReplacer("summarize", fmt.Sprintf("summarize%d", i), "report", fmt.Sprintf("report%d", i)).Replace(benchProgram)
		b.WriteString(p)
	}
	return b.String()
}

// BenchmarkParse compares Parse with go.starlark.net's parser on the same
// text: go test ./interp/python/pyast -run '^$' -bench Parse -benchmem
func BenchmarkParse(b *testing.B) {
	for _, prog := range []struct {
		name, src string
	}{{"40lines", benchProgram}, {"2000lines", bigProgram()}} {
		if n := strings.Count(prog.src, "\n"); n != 40 && n != 2000 {
			b.Fatalf("%s has %d lines", prog.name, n)
		}
		b.Run("python/"+prog.name, func(b *testing.B) {
			b.SetBytes(int64(len(prog.src)))
			for i := 0; i < b.N; i++ {
				if _, err := Parse("x.py", prog.src); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("starlark/"+prog.name, func(b *testing.B) {
			b.SetBytes(int64(len(prog.src)))
			for i := 0; i < b.N; i++ {
				if _, err := (&syntax.FileOptions{}).Parse("x.star", prog.src, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
