package pyast

import (
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzParse checks that no input makes the parser panic or report an
// error outside the input (the safety net in Parse would hide both), and
// that what it accepts it accepts again the same (the tree does not
// depend on anything but the text). The seeds are the programs of the
// CPython tests and the hostile inputs of TestLimits.
func FuzzParse(f *testing.F) {
	for _, file := range []string{"testdata/corpus.txtar", "testdata/errors.txtar"} {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range ar.Files {
			f.Add(string(p.Data))
		}
	}
	for _, tc := range limitCases() {
		if len(tc.src) < 4096 {
			f.Add(tc.src)
		}
	}
	f.Add("x = 1\r\ny = 'a\\\r\nb'\rz = f'{x!r:>{w}}'")
	f.Fuzz(func(t *testing.T, src string) {
		name := "fuzz.py"
		m, e := parse(&name, src)
		if e != nil {
			if strings.HasPrefix(e.msg, "internal error") {
				t.Fatalf("%q: %s", src, e.msg)
			}
			if !inside(src, e.line, e.col) {
				t.Fatalf("%q: error %q at %d:%d, outside the input", src, e.msg, e.line, e.col)
			}
			return
		}
		again, e := parse(&name, src)
		if e != nil || dump(again) != dump(m) {
			t.Fatalf("%q: parsed twice, two results", src)
		}
	})
}
