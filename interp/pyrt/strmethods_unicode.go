package pyrt

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Character classes and case mappings as CPython defines them for str
// methods. Go's unicode tables give the categories and properties; what
// CPython reads from other Unicode data (the digit and numeric values of
// the Unicode database and Unihan, the NFKC closure of identifiers, the
// line breaks of str.splitlines) is spelled out below. Go's tables are
// Unicode 15, CPython 3.11's Unicode 14: the answers differ only for the
// characters Unicode 15 added (isLowerChar undoes its one change to
// older characters). TestStrMethodsUnicode checks every character.

// isSpace is str.isspace for one character, the whitespace of split()
// and strip(): bidirectional class WS, B or S, or category Zs. It holds
// \x1c-\x1f, which Go's unicode.IsSpace does not.
func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiSpace(byte(r))
	}
	switch r {
	case 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

func asciiSpace(c byte) bool {
	return c == ' ' || c >= '\t' && c <= '\r' || c >= 0x1c && c <= 0x1f
}

// isLineBreak is a line boundary of str.splitlines ("\r\n" is one too).
func isLineBreak(r rune) bool {
	switch r {
	case '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// isLowerChar and isUpperChar are the Lowercase and Uppercase properties
// (CPython's Py_UNICODE_ISLOWER/ISUPPER): the categories plus the
// Other_ properties (ª, ʰ, Ⓐ …).
func isLowerChar(r rune) bool {
	switch r {
	case 0x10fc, 0xa7f2, 0xa7f3, 0xa7f4, 0xab69:
		// Modifier letters Unicode 15 (Go's tables) made Other_Lowercase;
		// CPython 3.11 (Unicode 14) has them neither lower nor cased.
		return false
	}
	return unicode.IsLower(r) || r >= 0xaa && unicode.Is(unicode.Other_Lowercase, r)
}

func isUpperChar(r rune) bool {
	return unicode.IsUpper(r) || r >= 0x2160 && unicode.Is(unicode.Other_Uppercase, r)
}

// isCased is the Cased property: what title() and the final sigma look at.
func isCased(r rune) bool { return isLowerChar(r) || isUpperChar(r) || unicode.IsTitle(r) }

// isCaseIgnorable is the Case_Ignorable property: the categories Mn, Me,
// Cf, Lm and Sk and the characters Word_Break calls MidLetter, MidNumLet
// or Single_Quote.
func isCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', 0xb7, 0x387, 0x55f, 0x5f4, 0x2018, 0x2019, 0x2024, 0x2027, 0xfe13, 0xfe52, 0xfe55, 0xff07, 0xff0e, 0xff1a:
		return true
	}
	return r >= 0x5e && unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// isDecimalChar is str.isdecimal for one character: category Nd.
func isDecimalChar(r rune) bool { return unicode.IsDigit(r) }

// isDigitChar is str.isdigit: a decimal, or a character with a digit
// value that is not a decimal (superscripts, circled digits …).
func isDigitChar(r rune) bool {
	if r < 0xb2 {
		return r >= '0' && r <= '9'
	}
	switch {
	case r >= 0xB2 && r <= 0xB3, r == 0xB9, r >= 0x1369 && r <= 0x1371, r == 0x19DA, r == 0x2070,
		r >= 0x2074 && r <= 0x2079, r >= 0x2080 && r <= 0x2089, r >= 0x2460 && r <= 0x2468,
		r >= 0x2474 && r <= 0x247C, r >= 0x2488 && r <= 0x2490, r == 0x24EA, r >= 0x24F5 && r <= 0x24FD,
		r == 0x24FF, r >= 0x2776 && r <= 0x277E, r >= 0x2780 && r <= 0x2788, r >= 0x278A && r <= 0x2792,
		r >= 0x10A40 && r <= 0x10A43, r >= 0x10E60 && r <= 0x10E68, r >= 0x11052 && r <= 0x1105A,
		r >= 0x1F100 && r <= 0x1F10A:
		return true
	}
	return unicode.IsDigit(r)
}

// isNumericChar is str.isnumeric: category N, and the Han characters
// Unihan gives a numeric value (一, 二, 十, 百, 萬 …).
func isNumericChar(r rune) bool {
	if r < 0xb2 {
		return r >= '0' && r <= '9'
	}
	if unicode.IsNumber(r) {
		return true
	}
	switch r {
	case 0x3405, 0x3483, 0x382A, 0x3B4D, 0x4E00, 0x4E03, 0x4E07, 0x4E09, 0x4E5D, 0x4E8C, 0x4E94,
		0x4E96, 0x4EBF, 0x4EC0, 0x4EDF, 0x4EE8, 0x4F0D, 0x4F70, 0x5104, 0x5146, 0x5169, 0x516B,
		0x516D, 0x5341, 0x5343, 0x5344, 0x5345, 0x534C, 0x53C1, 0x53C2, 0x53C3, 0x53C4, 0x56DB,
		0x58F1, 0x58F9, 0x5E7A, 0x5EFE, 0x5EFF, 0x5F0C, 0x5F0D, 0x5F0E, 0x5F10, 0x62FE, 0x634C,
		0x67D2, 0x6F06, 0x7396, 0x767E, 0x8086, 0x842C, 0x8CAE, 0x8CB3, 0x8D30, 0x9621, 0x9646,
		0x964C, 0x9678, 0x96F6, 0xF96B, 0xF973, 0xF978, 0xF9B2, 0xF9D1, 0xF9D3, 0xF9FD, 0x20001,
		0x20064, 0x200E2, 0x20121, 0x2092A, 0x20983, 0x2098C, 0x2099C, 0x20AEA, 0x20AFD, 0x20B19,
		0x22390, 0x22998, 0x23B1B, 0x2626D, 0x2F890:
		return true
	}
	return false
}

// isAlnumChar is str.isalnum: a letter or a number (every decimal and
// digit is numeric).
func isAlnumChar(r rune) bool { return unicode.IsLetter(r) || isNumericChar(r) }

// isXIDStart and isXIDContinue are the identifier classes of
// str.isidentifier: ID_Start and ID_Continue without the few characters
// whose NFKC form is not an identifier.
func isXIDStart(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_'
	}
	switch r {
	case 0x0E33, 0x0EB3, 0xFF9E, 0xFF9F:
		return false
	}
	return !xidExcluded(r) && unicode.In(r, unicode.L, unicode.Nl, unicode.Other_ID_Start) &&
		!unicode.In(r, unicode.Pattern_Syntax, unicode.Pattern_White_Space)
}

func isXIDContinue(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
	}
	return !xidExcluded(r) &&
		unicode.In(r, unicode.L, unicode.Nl, unicode.Other_ID_Start, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue) &&
		!unicode.In(r, unicode.Pattern_Syntax, unicode.Pattern_White_Space)
}

func xidExcluded(r rune) bool {
	switch {
	case r == 0x037A, r == 0x309B, r == 0x309C, r >= 0xFC5E && r <= 0xFC63, r == 0xFDFA, r == 0xFDFB:
		return true
	case r >= 0xFE70 && r <= 0xFE7E:
		return r%2 == 0
	}
	return false
}

// Case mappings. CPython maps each character by its full mapping (ß →
// SS, ŉ → ʼN, İ → i̇), which for all but about a hundred characters is
// the simple one of Go's unicode package. Those hundred are spelled out
// in fullCase (strmethods_casing.go): golang.org/x/text/cases maps them
// alike, but making its casers and calling them for each such character
// made upper() of a German text several times slower. What depends on
// context (the final sigma, title case after a cased character) is
// decided here, as CPython decides it.

const (
	toUpper = iota
	toLower
	toTitle
	toFold
)

// caseMapper writes case-mapped characters.
type caseMapper struct {
	w strings.Builder
}

// multiCase reports whether some case mapping of r is more than one
// character (or, for case folding, not the simple lower case of its
// upper case): the ranges hold every such character of Unicode 15.
func multiCase(r rune) bool {
	switch {
	case r < 0xdf:
		return false
	case r == 0xdf, r == 0x130, r == 0x149, r == 0x1f0, r == 0x390, r == 0x3b0, r == 0x587, r == 0x1e9e:
		return true
	case r >= 0x1e96 && r <= 0x1e9a, r >= 0x1f50 && r <= 0x1ffc, r >= 0xfb00 && r <= 0xfb06, r >= 0xfb13 && r <= 0xfb17:
		return true
	}
	return false
}

// write writes the full mapping of r.
func (m *caseMapper) write(kind int, r rune) {
	if multiCase(r) {
		if full := fullCase(kind, r); full != "" {
			m.w.WriteString(full)
			return
		}
	}
	switch kind {
	case toUpper:
		r = unicode.ToUpper(r)
	case toLower:
		r = unicode.ToLower(r)
	case toTitle:
		r = unicode.ToTitle(r)
	case toFold:
		r = simpleFold(r)
	}
	m.w.WriteRune(r)
}

// simpleFold is the case folding of a character whose folding is one
// character: the lower case of its upper case (µ → μ, ſ → s, ς → σ),
// except that ı stays itself and Cherokee folds to its upper case.
func simpleFold(r rune) rune {
	switch {
	case r == 0x131, r >= 0x13a0 && r <= 0x13f5:
		return r
	case r >= 0x13f8 && r <= 0x13fd, r >= 0xab70 && r <= 0xabbf:
		return unicode.ToUpper(r)
	}
	return unicode.ToLower(unicode.ToUpper(r))
}

// lower writes the lower case of the character r at byte i of s: Σ
// becomes ς at the end of a word (after a cased character, and not
// before one, case-ignorable characters between), else σ.
func (m *caseMapper) lower(s string, i int, r rune) {
	if r != 0x3a3 {
		m.write(toLower, r)
		return
	}
	if finalSigma(s, i, i+utf8.RuneLen(r)) {
		m.w.WriteRune(0x3c2)
	} else {
		m.w.WriteRune(0x3c3)
	}
}

// finalSigma reports whether the Σ at s[i:j] is in the Final_Sigma
// context. Each scan stops at the first character that is not
// case-ignorable, so a text is scanned at most twice over.
func finalSigma(s string, i, j int) bool {
	cased := false
	for k := i; k > 0; {
		r, n := utf8.DecodeLastRuneInString(s[:k])
		if !isCaseIgnorable(r) {
			cased = isCased(r)
			break
		}
		k -= n
	}
	if !cased {
		return false
	}
	for k := j; k < len(s); {
		r, n := utf8.DecodeRuneInString(s[k:])
		if !isCaseIgnorable(r) {
			return !isCased(r)
		}
		k += n
	}
	return true
}

func mapUpper(s string) string      { return mapRange("upper", s, 0, len(s)) }
func mapLower(s string) string      { return mapRange("lower", s, 0, len(s)) }
func mapFold(s string) string       { return mapRange("casefold", s, 0, len(s)) }
func mapTitle(s string) string      { return mapRange("title", s, 0, len(s)) }
func mapCapitalize(s string) string { return mapRange("capitalize", s, 0, len(s)) }
func mapSwapcase(s string) string   { return mapRange("swapcase", s, 0, len(s)) }

// mapRange maps the case of s[from:to] as the method name does to the
// whole of s, which it reads for context (a final sigma, the character
// before a title's word): a long text is mapped a range at a time, and
// the ranges joined are the whole text mapped.
//
//   - upper, casefold: each character on its own;
//   - lower: a Σ at the end of a word becomes ς;
//   - title: a character after a cased one is lowered, any other is
//     title-cased ("they're" → "They'Re", as CPython has it);
//   - capitalize: the first character of s title-cased, the rest lowered;
//   - swapcase: upper case lowered, lower case raised.
func mapRange(name, s string, from, to int) string {
	const (
		upper = iota
		fold
		lower
		title
		capitalize
		swapcase
	)
	kind := map[string]int{"upper": upper, "casefold": fold, "lower": lower, "title": title, "capitalize": capitalize, "swapcase": swapcase}[name]
	var m caseMapper
	m.w.Grow(to - from)
	prevCased := false
	if from > 0 {
		r, _ := utf8.DecodeLastRuneInString(s[:from])
		prevCased = isCased(r)
	}
	for k, r := range s[from:to] {
		i := from + k
		switch kind {
		case upper:
			m.write(toUpper, r)
		case fold:
			m.write(toFold, r)
		case lower:
			m.lower(s, i, r)
		case title:
			if prevCased {
				m.lower(s, i, r)
			} else {
				m.write(toTitle, r)
			}
			prevCased = isCased(r)
		case capitalize:
			if i == 0 {
				m.write(toTitle, r)
			} else {
				m.lower(s, i, r)
			}
		case swapcase:
			switch {
			case isUpperChar(r):
				m.lower(s, i, r)
			case isLowerChar(r):
				m.write(toUpper, r)
			default:
				m.w.WriteRune(r)
			}
		}
	}
	return m.w.String()
}
