package redaction

import (
	"slices"
	"strings"

	"github.com/onetool-dev/onetool/runner/config"
)

// MinFragment is the shortest run of a secret's characters that
// Fragments hides: eight bytes, so that a secret's fragments are hidden
// while the words of ordinary text, which seldom share eight characters
// in a row with a token, are left alone.
const MinFragment = 8

// minWhole is the shortest secret Fragments hides at all (the shortest
// Redact hides): one shorter than MinFragment is hidden whole, ignoring
// case.
const minWhole = 4

// minEnvFragment is the shortest value from the environment Fragments
// hides (config's minEnvRedactLen: shorter ones are ports and names).
const minEnvFragment = 8

// Fragments hides pieces of secrets, for results computed from stored
// data before any boundary sees them (SQL's substr(), lower(), replace()
// on a value a database holds): every run of MinFragment bytes or more
// that occurs in a secret's value, and every whole secret, with ASCII
// letters compared without case. It is a second line only: a program that
// computes on a stored secret can always cut it into pieces shorter than
// MinFragment or turn it into numbers (docs/security.md says so).
//
// The windows of MinFragment bytes of every secret, lower-cased, are
// kept as 64-bit words in a set, behind a 64 Kibit filter, so that a text
// is searched in one pass, a shift and a bit test per byte.
type Fragments struct {
	names  []string
	grams  map[uint64]int // a window of a secret → its name's index
	filter []uint64       // 1 << 16 bits: a window's hash is set
	short  []shortSecret  // secrets shorter than MinFragment
}

type shortSecret struct {
	lower string
	head  uint32 // its first minWhole bytes, as Hide's window holds them
	name  int
}

// NewFragments returns the Fragments of s's secrets; nil (which hides
// nothing) when none is long enough.
func NewFragments(s *config.Secrets) *Fragments {
	f := &Fragments{grams: map[uint64]int{}, filter: make([]uint64, 1<<16/64)}
	s.Values(func(name, value string, env bool) {
		if len(value) < minWhole || env && len(value) < minEnvFragment {
			return
		}
		f.names = append(f.names, name)
		at := len(f.names) - 1
		low := lowerASCII(value)
		if len(low) < MinFragment {
			f.short = append(f.short, shortSecret{low, uint32(word(low[:minWhole])), at})
			return
		}
		for i := 0; i+MinFragment <= len(low); i++ {
			w := word(low[i : i+MinFragment])
			if _, dup := f.grams[w]; !dup {
				f.grams[w] = at
			}
			h := hash(w)
			f.filter[h>>6] |= 1 << (h & 63)
		}
	})
	if len(f.names) == 0 {
		return nil
	}
	return f
}

// Hide returns text with every fragment of a secret replaced by
// [secret:NAME]: overlapping and touching fragments are one.
func (f *Fragments) Hide(text string) string {
	if f == nil || len(text) < minWhole {
		return text
	}
	type span struct{ from, to, name int }
	var spans []span
	add := func(from, to, name int) {
		if n := len(spans); n > 0 && spans[n-1].from <= from && from <= spans[n-1].to {
			spans[n-1].to = max(spans[n-1].to, to) // the usual case: the next window of one run
			return
		}
		spans = append(spans, span{from, to, name})
	}
	filter, short := f.filter, f.short
	var w uint64 // the last MinFragment bytes, lower-cased
	for i := 0; i < len(text); i++ {
		w = w<<8 | uint64(lower(text[i]))
		if i < minWhole-1 {
			continue
		}
		if i >= MinFragment-1 {
			if h := hash(w); filter[h>>6]&(1<<(h&63)) != 0 {
				if name, ok := f.grams[w]; ok {
					add(i+1-MinFragment, i+1, name)
				}
			}
		}
		// A short secret is found by its first minWhole bytes, then
		// compared whole.
		for _, s := range short {
			if s.head != uint32(w) {
				continue
			}
			from := i + 1 - minWhole
			if to := from + len(s.lower); to <= len(text) && strings.EqualFold(text[from:to], s.lower) {
				add(from, to, s.name)
			}
		}
	}
	if len(spans) == 0 {
		return text
	}
	// Short secrets' spans come after the windows that end where they
	// begin: sorted, and merged where they overlap or touch.
	slices.SortFunc(spans, func(a, b span) int { return a.from - b.from })
	merged := spans[:1]
	for _, s := range spans[1:] {
		if last := &merged[len(merged)-1]; s.from <= last.to {
			last.to = max(last.to, s.to)
			continue
		}
		merged = append(merged, s)
	}
	spans = merged
	var b strings.Builder
	b.Grow(len(text))
	at := 0
	for _, s := range spans {
		b.WriteString(text[at:s.from])
		b.WriteString("[secret:" + f.names[s.name] + "]")
		at = s.to
	}
	b.WriteString(text[at:])
	return b.String()
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lower(b[j])
			}
			return string(b)
		}
	}
	return s
}

// word packs MinFragment bytes into a word, as Hide's window holds them.
func word(s string) uint64 {
	var w uint64
	for i := 0; i < len(s); i++ {
		w = w<<8 | uint64(s[i])
	}
	return w
}

func hash(w uint64) uint64 { return (w * 0x9E3779B97F4A7C15) >> 48 }
