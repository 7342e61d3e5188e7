package pyrt

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// The benchmarks of this file measure the speed targets of the front end
// (issue 17, item 6) that are about running a program: each is a pair of
// sub-benchmarks, "starlark" (the program written in plain Starlark, read
// by Starlark's parser, with Starlark's globals: what onetool ran before
// the front end) and "python" (the program as an agent writes it, read by
// python.Parse, with Builtins), so that benchstat shows them side by side:
//
//	go test ./interp/pyrt -run '^$' -bench 'FStringTry|StringIndex|StringIter' -cpu 1 -count 10
//
// The program is compiled once; what is timed is a run. Before timing,
// both variants must print the same text, so that the pair measures the
// same work. The cold pipeline (parse, lower, compile, run) is measured
// in package runner (BenchmarkColdPipeline).

// compileRun compiles src with parse against predeclared and runs it
// once, returning the program, the options to run it with and what it
// printed.
func compileRun(b *testing.B, src string, parse interp.Parser, predeclared starlark.StringDict) (*interp.Program, interp.Options, string) {
	b.Helper()
	prog, err := interp.CompileWith(src, parse, predeclared, "")
	if err != nil {
		b.Fatal(err)
	}
	// As the runner does: the run's goroutine is kept between runs.
	exe := interp.NewExecutor(time.Minute)
	b.Cleanup(exe.Close)
	opts := interp.Options{Predeclared: predeclared, Executor: exe}
	res, err := prog.Run(context.Background(), opts)
	if err != nil {
		b.Fatal(err)
	}
	return prog, opts, res.Printed
}

// benchRun times runs of prog.
func benchRun(b *testing.B, prog *interp.Program, opts interp.Options) {
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := prog.Run(ctx, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// benchGlobals returns the globals of a plain Starlark run and those of a
// Python one (Starlark's plus the front end's builtins), frozen, with
// extra in both.
func benchGlobals(extra starlark.StringDict) (star, py starlark.StringDict) {
	star, py = starlark.StringDict{}, starlark.StringDict{}
	for k, v := range interp.StdGlobals() {
		star[k], py[k] = v, v
	}
	for k, v := range Builtins() {
		py[k] = v
	}
	for k, v := range extra {
		star[k], py[k] = v, v
	}
	star.Freeze()
	py.Freeze()
	return star, py
}

// benchPair runs the two variants of one program as sub-benchmarks,
// after checking that both print the same text, and want unless it is "".
func benchPair(b *testing.B, starSrc, pySrc string, extra starlark.StringDict, want string) {
	star, py := benchGlobals(extra)
	starProg, starOpts, starOut := compileRun(b, starSrc, interp.ParseStarlark, star)
	pyProg, pyOpts, pyOut := compileRun(b, pySrc, python.Parse, py)
	if starOut != pyOut {
		star, py := strings.Split(starOut, "\n"), strings.Split(pyOut, "\n")
		for i := 0; i < len(star) && i < len(py); i++ {
			if star[i] != py[i] {
				b.Fatalf("line %d: Starlark printed %q, Python %q", i+1, star[i], py[i])
			}
		}
		b.Fatalf("Starlark printed %d lines, Python %d", len(star), len(py))
	}
	if want != "" && pyOut != want {
		b.Fatalf("printed %q, want %q", pyOut, want)
	}
	b.Run("front=starlark", func(b *testing.B) { benchRun(b, starProg, starOpts) })
	b.Run("front=python", func(b *testing.B) { benchRun(b, pyProg, pyOpts) })
}

// fstringTryRows are the lines an agent's program parses: 300 CSV rows,
// one in ten with a quantity that is not a number.
func fstringTryRows() starlark.Value {
	names := []string{"widget", "gadget", "bolt", "nut", "washer", "spring", "gear"}
	rows := make([]starlark.Value, 300)
	for i := range rows {
		qty := fmt.Sprint(i%17 + 1)
		if i%10 == 7 {
			qty = "n/a"
		}
		rows[i] = starlark.String(fmt.Sprintf("%s-%d,%s,%d.%02d", names[i%len(names)], i, qty, i%40+1, i*7%100))
	}
	l := starlark.NewList(rows)
	l.Freeze()
	return l
}

// fstringTryPython is a report over rows as an agent writes it: a try
// per row around int() and float(), f-strings with format specs.
const fstringTryPython = `def parse(line):
    """Split one row into (name, qty, price), or an error message."""
    name, qty, price = line.split(",")
    try:
        q = int(qty)
        p = float(price)
    except ValueError as e:
        return None, f"skipped {name!r}: {e}"
    return (name.strip(), q, p), None

def report(rows):
    lines = []
    errors = []
    total = 0.0
    count = 0
    for line in rows:
        item, err = parse(line)
        if err != None:
            errors.append(err)
            continue
        name, q, p = item
        amount = q * p
        total += amount
        count += q
        lines.append(f"{name:<12} {q:>4} x {p:>6.2f} = {amount:>9.2f}")
    lines.append(f"{'TOTAL':<12} {count:>4}   {'':>6} = {total:>9.2f}")
    for err in errors:
        lines.append(f"warning: {err}")
    return lines

print("\n".join(report(rows)))
`

// fstringTryStarlark is the same report in plain Starlark: the row is
// checked before it is converted, and since Starlark's % and format()
// know no widths or precisions, the padding and the two decimals are
// functions of the program.
const fstringTryStarlark = `def is_number(s):
    return s.replace(".", "", 1).isdigit()

def ljust(s, w):
    return s + " " * (w - len(s))

def rjust(s, w):
    return " " * (w - len(s)) + s

def fixed2(x):
    c = int(x * 100 + 0.5)
    return "%d.%s" % (c // 100, str(100 + c % 100)[1:])

def parse(line):
    """Split one row into (name, qty, price), or an error message."""
    name, qty, price = line.split(",")
    if not qty.isdigit():
        return None, "skipped '%s': invalid literal for int() with base 10: '%s'" % (name, qty)
    if not is_number(price):
        return None, "skipped '%s': could not convert string to float: '%s'" % (name, price)
    return (name.strip(), int(qty), float(price)), None

def report(rows):
    lines = []
    errors = []
    total = 0.0
    count = 0
    for line in rows:
        item, err = parse(line)
        if err != None:
            errors.append(err)
            continue
        name, q, p = item
        amount = q * p
        total += amount
        count += q
        lines.append("%s %s x %s = %s" % (ljust(name, 12), rjust(str(q), 4), rjust(fixed2(p), 6), rjust(fixed2(amount), 9)))
    lines.append("%s %s   %s = %s" % (ljust("TOTAL", 12), rjust(str(count), 4), rjust("", 6), rjust(fixed2(total), 9)))
    for err in errors:
        lines.append("warning: %s" % err)
    return lines

print("\n".join(report(rows)))
`

// BenchmarkFStringTry is a program with f-strings and a try statement
// (fstringTryPython) against the same logic in plain Starlark
// (fstringTryStarlark): issue 17 asks for at most 1.3×.
func BenchmarkFStringTry(b *testing.B) {
	rows := fstringTryRows()
	benchPair(b, fstringTryStarlark, fstringTryPython, starlark.StringDict{"rows": rows}, "")
}

// benchText is 4 KiB of ASCII: the text of log lines an agent scans.
var benchText = strings.Repeat("2026-11-25 12:00:01 INFO served GET /api/items in 12ms ", 80)[:4096]

// benchTextGlobals are the globals of the string benchmarks.
func benchTextGlobals() starlark.StringDict {
	return starlark.StringDict{"text": interp.MakeString(benchText)}
}

// countIn counts the characters of benchText that are in set.
func countIn(set string) int {
	n := 0
	for _, c := range benchText {
		if strings.ContainsRune(set, c) {
			n++
		}
	}
	return n
}

// BenchmarkStringIndex is s[i] over 4 KiB of ASCII text, the same
// program read by Starlark's parser and by Parse: issue 17 asks for at
// most 1.2×. body=eq compares each character with ==, which both run
// natively; body=cmp orders it against text literals (c >= "0"), which
// the front end routes through __ot_cmp so that ASCII and non-ASCII text
// compare.
func BenchmarkStringIndex(b *testing.B) {
	b.Run("body=eq", func(b *testing.B) {
		const src = `def count(s, ch):
    n = 0
    for i in range(len(s)):
        if s[i] == ch:
            n += 1
    return n

print(count(text, " "), count(text, "1"))
`
		benchPair(b, src, src, benchTextGlobals(), fmt.Sprint(countIn(" "), " ", countIn("1")))
	})
	b.Run("body=cmp", func(b *testing.B) {
		const src = `def digits(s):
    n = 0
    for i in range(len(s)):
        c = s[i]
        if c >= "0" and c <= "9":
            n += 1
    return n

print(digits(text))
`
		benchPair(b, src, src, benchTextGlobals(), fmt.Sprint(countIn("0123456789")))
	})
}

// BenchmarkStringIter is for ch in s (a loop and a comprehension) over 4
// KiB of ASCII text, against s.elems() in Starlark: issue 17 asks for at
// most 1.2×. body=eq compares each character with ==; body=in tests it
// with `in` a text literal, which the front end routes through __ot_in.
func BenchmarkStringIter(b *testing.B) {
	b.Run("body=eq", func(b *testing.B) {
		const star = `def count(s, ch):
    n = 0
    for c in s.elems():
        if c == ch:
            n += 1
    return n

print(count(text, " "), len([c for c in text.elems() if c == "1"]))
`
		py := strings.ReplaceAll(star, ".elems()", "")
		benchPair(b, star, py, benchTextGlobals(), fmt.Sprint(countIn(" "), " ", countIn("1")))
	})
	b.Run("body=in", func(b *testing.B) {
		const star = `def vowels(s):
    n = 0
    for ch in s.elems():
        if ch in "aeiou":
            n += 1
    return n

print(vowels(text), len([c for c in text.elems() if c in "0123456789"]))
`
		py := strings.ReplaceAll(star, ".elems()", "")
		benchPair(b, star, py, benchTextGlobals(), fmt.Sprint(countIn("aeiou"), " ", countIn("0123456789")))
	})
}

// BenchmarkParseStage is the one stage the front end changes in the
// cold pipeline: reading a program without Python-isms into the syntax
// tree that is compiled, by Starlark's parser and by python.Parse (pyast's
// parser, scopes and lowering). BenchmarkColdPipeline in package runner
// measures the whole pipeline, where a difference this small is within
// the noise of a loaded machine.
func BenchmarkParseStage(b *testing.B) {
	for _, prog := range []struct{ name, src string }{
		{"prog=onecall", `demo.foo(text="x")`},
		{"prog=report", fstringTryStarlark},
	} {
		for _, v := range []struct {
			name  string
			parse interp.Parser
		}{{"front=starlark", interp.ParseStarlark}, {"front=python", python.Parse}} {
			b.Run(prog.name+"/"+v.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := v.parse(prog.src); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkAccumulate is the price of holding + to limits.max_int_digits
// and sizing concatenations (issue 27): a sum of values the lowering
// cannot see the type of (total += x) goes through a helper (__ot_iplus)
// in Python, where Starlark's += is the interpreter's; a sum of a loop's
// own counter (total += i) stays the interpreter's in both.
func BenchmarkAccumulate(b *testing.B) {
	xs := make([]starlark.Value, 10000)
	for i := range xs {
		xs[i] = starlark.MakeInt(i % 97)
	}
	l := starlark.NewList(xs)
	l.Freeze()
	extra := starlark.StringDict{"xs": l}
	b.Run("operand=unknown", func(b *testing.B) {
		const src = "def total(xs):\n    t = 0\n    for x in xs:\n        t += x\n    return t\n\nprint(total(xs))\n"
		benchPair(b, src, src, extra, "")
	})
	b.Run("operand=counter", func(b *testing.B) {
		const src = "def total(n):\n    t = 0\n    for i in range(n):\n        t += i\n    return t\n\nprint(total(10000))\n"
		benchPair(b, src, src, extra, "")
	})
}

// BenchmarkDefCall: calls of a bare def (what every program without
// decorators runs) and of the same def made a Function (f.tag = 1): the
// first is the engine's call, unchanged; the second shows what a
// Function adds per call.
func BenchmarkDefCall(b *testing.B) {
	const body = "def f(x):\n    return x + 1\n%s\nt = 0\nfor i in range(20000):\n    t = f(t)\nprint(t)\n"
	_, py := benchGlobals(nil)
	for _, v := range []struct{ name, extra string }{{"bare", ""}, {"function", "f.tag = 1"}} {
		prog, opts, out := compileRun(b, strings.Replace(body, "%s", v.extra, 1), python.Parse, py)
		if strings.TrimSpace(out) != "20000" {
			b.Fatalf("printed %q", out)
		}
		b.Run(v.name, func(b *testing.B) { benchRun(b, prog, opts) })
	}
}
