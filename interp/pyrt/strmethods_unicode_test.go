package pyrt

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// unicodeTables is the python3 program that writes
// testdata/strmethods_unicode.txt: for every character, what CPython's
// str methods say of it, as ranges of code points where a check holds
// and, for each case mapping, the characters it changes.
const unicodeTables = `
import sys, unicodedata
checks = [
    ("isalpha", lambda c: c.isalpha()),
    ("isalnum", lambda c: c.isalnum()),
    ("isdecimal", lambda c: c.isdecimal()),
    ("isdigit", lambda c: c.isdigit()),
    ("isnumeric", lambda c: c.isnumeric()),
    ("isspace", lambda c: c.isspace()),
    ("isprintable", lambda c: c.isprintable()),
    ("isidentifier", lambda c: c.isidentifier()),
    ("isidentifier_after_a", lambda c: ("a" + c).isidentifier()),
    ("islower", lambda c: c.islower()),
    ("isupper", lambda c: c.isupper()),
    ("istitle", lambda c: c.istitle()),
    ("title_lowers_after", lambda c: ("x" + c + "a").title().endswith("a")),
    ("final_sigma_after", lambda c: ("A" + c + "\u03a3").lower().endswith("\u03c2")),
    ("splitlines_at", lambda c: len(("a" + c + "b").splitlines()) == 2),
    ("split_at", lambda c: len(("a" + c + "b").split()) == 2),
    ("strip", lambda c: ("a" + c).strip() == "a"),
]
maps = [("upper", str.upper), ("lower", str.lower), ("title", str.title),
        ("casefold", str.casefold), ("swapcase", str.swapcase)]
chars = [chr(i) for i in range(0x110000) if not 0xD800 <= i <= 0xDFFF]
def ranges(pred):
    out, lo, prev = [], None, None
    for c in chars:
        i = ord(c)
        if pred(c):
            if lo is not None and i == prev + 1:
                prev = i
                continue
            if lo is not None:
                out.append("%x" % lo if lo == prev else "%x-%x" % (lo, prev))
            lo = prev = i
    if lo is not None:
        out.append("%x" % lo if lo == prev else "%x-%x" % (lo, prev))
    return " ".join(out)
print("# CPython %s (Unicode %s), by go test ./interp/pyrt -run StrMethodsUnicode -update"
      % (sys.version.split()[0], unicodedata.unidata_version))
print("unassigned", ranges(lambda c: unicodedata.category(c) == "Cn"))
for name, f in checks:
    print(name, ranges(f))
for name, f in maps:
    print(name, " ".join("%x:%s" % (ord(c), ".".join("%x" % ord(r) for r in f(c)))
                         for c in chars if f(c) != c))
`

// TestStrMethodsUnicode checks the str methods on every character
// against CPython (testdata/strmethods_unicode.txt): the is* predicates,
// the whitespace of split and strip, the line breaks of splitlines, what
// title() and the final sigma count as cased or case-ignorable, and the
// full case mappings. Characters CPython's Unicode does not assign are
// skipped: Go's tables are of a later Unicode, which assigns more.
func TestStrMethodsUnicode(t *testing.T) {
	const file = "testdata/strmethods_unicode.txt"
	if *update {
		cmd := exec.Command("python3", "-c", unicodeTables)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("python3: %v", err)
		}
		if err := os.WriteFile(file, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tables := readUnicodeTables(t, file)
	ms := methods()
	method := func(name string) func(s string) starlark.Value {
		impl := ms[name][kindText]
		return func(s string) starlark.Value {
			v, err := impl(nil, interp.MakeString(s), nil, nil)
			if err != nil {
				t.Fatalf("%q.%s(): %v", s, name, err)
			}
			return v
		}
	}
	textMethod := func(name string) func(s string) string {
		m := method(name)
		return func(s string) string {
			out, _ := interp.AsText(m(s))
			return out
		}
	}
	isidentifier, splitlines, split := method("isidentifier"), method("splitlines"), method("split")
	title, lower, strip := textMethod("title"), textMethod("lower"), textMethod("strip")
	type check struct {
		name string
		f    func(c string) bool
	}
	checks := []check{
		{"isidentifier_after_a", func(c string) bool { return isidentifier("a"+c) == starlark.True }},
		{"title_lowers_after", func(c string) bool { return strings.HasSuffix(title("x"+c+"a"), "a") }},
		{"final_sigma_after", func(c string) bool { return strings.HasSuffix(lower("A"+c+"Σ"), "ς") }},
		{"splitlines_at", func(c string) bool { return splitlines("a"+c+"b").(*starlark.List).Len() == 2 }},
		{"split_at", func(c string) bool { return split("a"+c+"b").(*starlark.List).Len() == 2 }},
		{"strip", func(c string) bool { return strip("a"+c) == "a" }},
	}
	for _, name := range strings.Fields("isalpha isalnum isdecimal isdigit isnumeric isspace isprintable isidentifier islower isupper istitle") {
		m := method(name)
		checks = append(checks, check{name, func(c string) bool { return m(c) == starlark.True }})
	}
	sets := make([]charSet, len(checks))
	for i, c := range checks {
		var ok bool
		if sets[i], ok = tables.sets[c.name]; !ok {
			t.Fatalf("%s has no %s: run the test with -update", file, c.name)
		}
	}
	type mapping struct {
		name string
		f    func(string) string
		m    map[rune]string
	}
	var mappings []mapping
	for name, m := range tables.maps {
		mappings = append(mappings, mapping{name, textMethod(name), m})
	}
	failures := 0
	fail := func(format string, args ...any) {
		if failures++; failures <= 20 {
			t.Errorf(format, args...)
		}
	}
	for r := rune(0); r <= 0x10ffff; r++ {
		if r >= 0xd800 && r <= 0xdfff || tables.sets["unassigned"].has(r) {
			continue
		}
		c := string(r)
		for i, check := range checks {
			if got, want := check.f(c), sets[i].has(r); got != want {
				fail("%U %s: got %v, CPython %v", r, check.name, got, want)
			}
		}
		for _, m := range mappings {
			want, ok := m.m[r]
			if !ok {
				want = c
			}
			if got := m.f(c); got != want {
				fail("%U %s: got %+q, CPython %+q", r, m.name, got, want)
			}
		}
	}
	if failures > 0 {
		t.Errorf("%d differences from CPython", failures)
	}
}

// charSet is a set of code points, a bit each.
type charSet []uint64

func (s charSet) has(r rune) bool { return s[r/64]&(1<<(r%64)) != 0 }

type unicodeTablesData struct {
	sets map[string]charSet
	maps map[string]map[rune]string
}

func readUnicodeTables(t *testing.T, file string) unicodeTablesData {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := unicodeTablesData{sets: map[string]charSet{}, maps: map[string]map[rune]string{}}
	hex := func(s string) rune {
		n, err := strconv.ParseUint(s, 16, 32)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		return rune(n)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		name := fields[0]
		switch name {
		case "upper", "lower", "title", "casefold", "swapcase":
			m := map[rune]string{}
			for _, e := range fields[1:] {
				from, to, _ := strings.Cut(e, ":")
				var b strings.Builder
				for _, h := range strings.Split(to, ".") {
					b.WriteRune(hex(h))
				}
				m[hex(from)] = b.String()
			}
			d.maps[name] = m
		default:
			set := make(charSet, 0x110000/64)
			for _, e := range fields[1:] {
				lo, hi, ok := strings.Cut(e, "-")
				if !ok {
					hi = lo
				}
				for r := hex(lo); r <= hex(hi); r++ {
					set[r/64] |= 1 << (r % 64)
				}
			}
			d.sets[name] = set
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(d.maps) != 5 {
		t.Fatalf("%s lacks case mappings: run the test with -update", file)
	}
	return d
}
