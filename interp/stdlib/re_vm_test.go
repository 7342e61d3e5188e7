package stdlib

import (
	"math/rand"
	"regexp"
	"regexp/syntax"
	"slices"
	"testing"
)

// The VM finds the match Go's regexp finds, captures included, wherever
// the two agree on word characters (ASCII text): the same automaton with
// the same leftmost-first choice.
func TestVMAgreesWithRegexp(t *testing.T) {
	patterns := []string{
		`a+`, `(a|ab)(c|bcd)(d*)`, `\b\w+\b`, `(\w+)\s+(\w+)?`, `x*`, `(a*)*`, `(a|b)*?c`, `\Bb\B`,
		`^(\d+)-(\d+)$`, `(?m)^\w+$`, `(?i)hello`, `(?s)a.b`, `a.b`, `(a)|(b)|(c)`, `((a)(b))?c`,
		`[^,]+`, `\b`, `(?:ab|a)(?:bc|c)`, `a{2,3}?`, `(\w)(\w)?\b`, `\A\w+`, `\w+\z`, `(x+x+)+y`,
	}
	r := rand.New(rand.NewSource(1))
	alphabet := []byte("abcxyd01 -,\n_")
	for _, pat := range patterns {
		re := regexp.MustCompile(pat)
		sre, err := syntax.Parse(pat, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := syntax.Compile(sre.Simplify())
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 300; i++ {
			b := make([]byte, r.Intn(12))
			for j := range b {
				b[j] = alphabet[r.Intn(len(alphabet))]
			}
			text := string(b)
			want := re.FindStringSubmatchIndex(text)
			got, err := (&vm{prog: prog, text: text, ncap: 2 * (sre.MaxCap() + 1)}).run(nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%q on %q: VM %v, regexp %v", pat, text, got, want)
			}
		}
	}
}
