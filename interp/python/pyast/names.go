package pyast

import (
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/unicode/runenames"
)

// lookupName is the character a \N{NAME} escape names, as Python's
// unicodedata.lookup finds it: the Unicode name in any case, the
// algorithmic names of ideographs and Hangul syllables, and the common
// aliases of control and format characters.
func lookupName(name string) (rune, bool) {
	name = strings.ToUpper(name)
	if r, ok := nameAliases[name]; ok {
		return r, true
	}
	for prefix, want := range map[string]string{"CJK UNIFIED IDEOGRAPH-": "<CJK Ideograph", "TANGUT IDEOGRAPH-": "<Tangut Ideograph"} {
		if hex, ok := strings.CutPrefix(name, prefix); ok {
			v, err := strconv.ParseUint(hex, 16, 32)
			if err != nil || len(hex) < 4 || len(hex) > 5 {
				return 0, false
			}
			if r := rune(v); strings.HasPrefix(runenames.Name(r), want) {
				return r, true
			}
			return 0, false
		}
	}
	if syl, ok := strings.CutPrefix(name, "HANGUL SYLLABLE "); ok {
		return hangul(syl)
	}
	idx := nameIndex()
	i := sort.Search(len(idx), func(i int) bool { return idx[i].name >= name })
	if i < len(idx) && idx[i].name == name {
		return idx[i].r, true
	}
	return 0, false
}

type namedRune struct {
	name string
	r    rune
}

// nameIndex is every named character sorted by name, built the first
// time a program needs it (a few milliseconds) and never changed after.
var nameIndex = sync.OnceValue(func() []namedRune {
	idx := make([]namedRune, 0, 40000)
	for r := rune(0); r <= 0x10FFFF; r++ {
		if n := runenames.Name(r); n != "" && n[0] != '<' {
			idx = append(idx, namedRune{n, r})
		}
	}
	sort.Slice(idx, func(i, j int) bool { return idx[i].name < idx[j].name })
	return idx
})

// nameAliases are the aliases of Unicode's NameAliases.txt that
// programs use: the names of control characters, which have none of
// their own, and common abbreviations.
var nameAliases = map[string]rune{
	"NULL": 0, "NUL": 0,
	"BELL": 0x1F514, "ALERT": 7, "BEL": 7,
	"BACKSPACE": 8, "BS": 8,
	"CHARACTER TABULATION": 9, "HORIZONTAL TABULATION": 9, "TAB": 9, "HT": 9,
	"LINE FEED": 10, "NEW LINE": 10, "END OF LINE": 10, "LF": 10, "NL": 10, "EOL": 10,
	"LINE TABULATION": 11, "VERTICAL TABULATION": 11, "VT": 11,
	"FORM FEED": 12, "FF": 12,
	"CARRIAGE RETURN": 13, "CR": 13,
	"ESCAPE": 27, "ESC": 27,
	"SP":     32,
	"DELETE": 127, "DEL": 127,
	"NEXT LINE": 0x85, "NEL": 0x85,
	"NBSP": 0xA0, "SHY": 0xAD,
	"ZWSP": 0x200B, "ZWNJ": 0x200C, "ZWJ": 0x200D, "LRM": 0x200E, "RLM": 0x200F,
	"NNBSP": 0x202F, "WJ": 0x2060,
	"BYTE ORDER MARK": 0xFEFF, "BOM": 0xFEFF, "ZWNBSP": 0xFEFF,
}

// hangul decodes the name of a precomposed Hangul syllable (GA, GAG…),
// whose names Unicode derives from its jamo.
func hangul(s string) (rune, bool) {
	leads := []string{"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"}
	vowels := []string{"A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI", "I"}
	tails := []string{"", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S", "SS", "NG", "J", "C", "K", "T", "P", "H"}
	for l, lead := range leads {
		rest, ok := strings.CutPrefix(s, lead)
		if !ok {
			continue
		}
		for v, vowel := range vowels {
			tail, ok := strings.CutPrefix(rest, vowel)
			if !ok {
				continue
			}
			for t, name := range tails {
				if tail == name {
					return rune(0xAC00 + (l*21+v)*28 + t), true
				}
			}
		}
	}
	return 0, false
}
