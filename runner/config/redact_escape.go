package config

import (
	"html"
	"slices"
	"strings"
	"unicode/utf8"
)

// Escapes of single characters (see redact.go), in three families, each
// named by the byte that introduces its escapes:
//
//	\  backslash escapes: \" \\ \/ \n \xHH \uHHHH \UHHHHHHHH \ooo (octal) and
//	    Markdown's \< \*: JSON, Go, Starlark and Python string literals,
//	    ascii(), repr()
//	%  percent-encoding: %HH, either case, of any byte
//	&  HTML and XML character references: &quot; &#NN; &#xHH;, the ';'
//	   optional for numeric ones (as HTML reads them), leading zeros allowed
//
// One encoder writes one family, and the escapes of another family are
// then the text's own (a backslash in HTML-escaped text is a backslash),
// so each family is undone in a view of its own; a layer of another family
// below it is undone in a view of that view.

// family is the introducer of a family's escapes.
type family = byte

var families = [...]family{'\\', '%', '&'}

// escape records one decoded escape: decoded text [d, d+dn) stands for the
// text [o, o+on) it was decoded from.
type escape struct{ d, dn, o, on int }

// escapeMap maps a view made by unescapeAll back to its text.
type escapeMap []escape

// origin maps the span [a, b) of a decoded text back to the text it was
// decoded from, widened to whole escapes.
func (escs escapeMap) origin(a, b int) (int, int) {
	// The last escape starting at or before a.
	i, _ := slices.BinarySearchFunc(escs, a+1, func(e escape, x int) int { return e.d - x })
	if i--; i >= 0 {
		e := escs[i]
		if a < e.d+e.dn {
			a = e.o
		} else {
			a += e.o + e.on - (e.d + e.dn)
		}
	}
	// The last escape whose text starts before b, holding byte b-1 or before it.
	j, _ := slices.BinarySearchFunc(escs, b, func(e escape, x int) int { return e.d - x })
	if j--; j >= 0 {
		e := escs[j]
		if b <= e.d+e.dn {
			b = e.o + e.on
		} else {
			b += e.o + e.on - (e.d + e.dn)
		}
	}
	return a, b
}

func isIntro(c byte) bool { return c == '\\' || c == '%' || c == '&' }

// needsUnescape reports whether a copy of s with its escapes undone may
// hold a needle that s does not: s holds an escape that stands for a
// letter or a digit (partial encoders never escape those: only a full
// encoding, or a layer below, can have made it), or one that stands for
// another byte of some needle when anchored says a needle's letters and
// digits are in s. When levels allow more layers to be decoded after this
// one, an escape that makes an escape of the next layer counts too (\\\"
// in JSON inside JSON, &amp;quot; in HTML escaped twice, %2573 for %73).
func (r *redactor) needsUnescape(f family, s string, anchored bool, levels int) bool {
	var buf [2 * utf8.UTFMax]byte
	for i := 0; ; {
		j := strings.IndexByte(s[i:], f)
		if j < 0 {
			return false
		}
		i += j
		if !anchored && !mayMatter(f, s[i+1:]) {
			i++
			continue
		}
		out, n := unescapeAt(s, i, buf[:0])
		if n == 0 {
			i++
			continue
		}
		if r.matters(out, anchored) {
			return true
		}
		if levels > 1 && len(out) == 1 && isIntro(out[0]) && r.makesEscape(f, before(s, i), out[0], s[i+n:], anchored, levels-1) {
			return true
		}
		i += n
	}
}

// mayMatter is a quick look at the escape of family f before rest, when
// no anchor is in the text: only an escape that can stand for a letter or
// a digit, or for an introducer of the next layer, may matter then (not
// JSON's \" and \n, nor HTML's &lt;).
func mayMatter(f family, rest string) bool {
	if rest == "" {
		return false
	}
	c := rest[0]
	switch f {
	case '\\':
		return c == 'x' || c == 'u' || c == 'U' || '0' <= c && c <= '7' || isIntro(c)
	case '&':
		return c == '#' || strings.HasPrefix(rest, "amp;")
	}
	return true
}

// matters reports whether decoded bytes may complete a needle.
func (r *redactor) matters(out []byte, anchored bool) bool {
	for _, b := range out {
		if isAlnum(b) || anchored && r.relevant[b] {
			return true
		}
	}
	return false
}

// joinsRun reports whether a decoded escape between the bytes b and a
// joins a run (redact_runs.go): it stands for a separator between hex
// digits, or a character or line break of base64 between base64
// characters. The run scanners read one layer of such escapes themselves
// (%3A, %2B, \/); this finds those of the next layers (%253A).
func joinsRun(b byte, out []byte, a byte) bool {
	if len(out) != 1 {
		return false
	}
	c := out[0]
	switch {
	case isHexDigit(b) && isHexDigit(a) && ' ' <= c && c <= '~' && !isAlnum(c):
		return true
	case b64Val[b] >= 0 && b64Val[a] >= 0:
		return b64Val[c] >= 0 || c == '\n' || c == '\r'
	}
	return false
}

// startsEscape reports whether an escape introduced by c can go on with
// the byte d.
func startsEscape(c, d byte) bool {
	switch c {
	case '%':
		return isHexDigit(d)
	case '&':
		return d == '#' || isAlnum(d)
	}
	return d > ' '
}

func before(s string, i int) byte {
	if i > 0 {
		return s[i-1]
	}
	return 0
}

func after(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// makesEscape reports whether c, decoded by f from the escape after the
// byte b and followed by rest, starts an escape of the next layer that
// matters, or (levels allowing) one that makes such an escape of the layer
// after it (%2526%2523115%253B). Only the start of rest, decoded by f, can
// matter, and only a window of it is read: escapes are short (a few named
// HTML references longer than the window, for rare symbols, are not seen
// below the first layer).
func (r *redactor) makesEscape(f family, b, c byte, rest string, anchored bool, levels int) bool {
	if len(rest) == 0 || rest[0] != f && !startsEscape(c, rest[0]) {
		return false // "&amp; " and "%25 " start nothing
	}
	var buf [2 * utf8.UTFMax]byte
	var arr [64]byte // on the stack, as is the string made of it below
	win := string(appendUnescaped(f, append(arr[:0], c), rest[:min(len(rest), len(arr)-1)]))
	out, n := unescapeAt(win, 0, buf[:0])
	switch {
	case n == 0:
		return false
	case r.matters(out, anchored) || joinsRun(b, out, after(win, n)):
		return true
	}
	return levels > 1 && len(out) == 1 && isIntro(out[0]) && r.makesEscape(c, b, out[0], win[n:], anchored, levels-1)
}

// unescapeAll undoes every escape of family f in s, and says where each
// was.
func unescapeAll(f family, s string) (string, []escape) {
	var escs []escape
	out := unescapeInto(f, make([]byte, 0, len(s)), s, &escs)
	return string(out), escs
}

// appendUnescaped appends s with its escapes of family f undone to buf.
func appendUnescaped(f family, buf []byte, s string) []byte {
	return unescapeInto(f, buf, s, nil)
}

// unescapeInto appends s with its escapes of family f undone to buf and,
// when escs is not nil, records where each escape was (offsets in the
// output counted from where s begins in buf).
func unescapeInto(f family, buf []byte, s string, escs *[]escape) []byte {
	var tmp [2 * utf8.UTFMax]byte
	base := len(buf)
	last := 0
	for i := 0; ; {
		j := strings.IndexByte(s[i:], f)
		if j < 0 {
			break
		}
		i += j
		out, n := unescapeAt(s, i, tmp[:0])
		if n == 0 {
			i++
			continue
		}
		buf = append(buf, s[last:i]...)
		if escs != nil {
			*escs = append(*escs, escape{d: len(buf) - base, dn: len(out), o: i, on: n})
		}
		buf = append(buf, out...)
		i += n
		last = i
	}
	return append(buf, s[last:]...)
}

// unescapeAt decodes the escape starting at s[i] (an introducer: \ % &),
// appending what it stands for to buf; n is its length, 0 when s[i:] does
// not start an escape.
func unescapeAt(s string, i int, buf []byte) (out []byte, n int) {
	switch s[i] {
	case '\\':
		return unescapeBackslash(s, i, buf)
	case '%':
		if h, ok := hexValue(s, i+1, 2); ok {
			return append(buf, byte(h)), 3
		}
	case '&':
		return unescapeEntity(s, i, buf)
	}
	return buf, 0
}

func unescapeBackslash(s string, i int, buf []byte) ([]byte, int) {
	if i+1 >= len(s) {
		return buf, 0
	}
	switch c := s[i+1]; c {
	case 'a':
		return append(buf, '\a'), 2
	case 'b':
		return append(buf, '\b'), 2
	case 'f':
		return append(buf, '\f'), 2
	case 'n':
		return append(buf, '\n'), 2
	case 'r':
		return append(buf, '\r'), 2
	case 't':
		return append(buf, '\t'), 2
	case 'v':
		return append(buf, '\v'), 2
	case 'x': // a byte in Go, Starlark and Python bytes; see latin1 for Python str
		if h, ok := hexValue(s, i+2, 2); ok {
			return append(buf, byte(h)), 4
		}
	case 'U':
		if h, ok := hexValue(s, i+2, 8); ok && utf8.ValidRune(rune(h)) {
			return utf8.AppendRune(buf, rune(h)), 10
		}
	case 'u':
		h, ok := hexValue(s, i+2, 4)
		if !ok {
			break
		}
		r := rune(h)
		if 0xD800 <= r && r < 0xDC00 && strings.HasPrefix(s[i+6:], `\u`) {
			// A UTF-16 surrogate pair, as JSON writes characters beyond U+FFFF.
			if lo, ok := hexValue(s, i+8, 4); ok && 0xDC00 <= lo && lo < 0xE000 {
				return utf8.AppendRune(buf, 0x10000+(r-0xD800)<<10+rune(lo-0xDC00)), 12
			}
		}
		return utf8.AppendRune(buf, r), 6 // a lone surrogate becomes U+FFFD
	case '0', '1', '2', '3', '4', '5', '6', '7':
		// Octal, one to three digits, as C and Python write a byte.
		v, n := 0, 1
		for n <= 3 && i+n < len(s) && '0' <= s[i+n] && s[i+n] <= '7' && v*8+int(s[i+n]-'0') <= 0xFF {
			v = v*8 + int(s[i+n]-'0')
			n++
		}
		return append(buf, byte(v)), n
	default:
		// \" \\ \/ \' of JSON and string literals, and the \< \* \_ \[ of
		// Markdown, \. of regular expressions, "\ " of shells.
		if c == ' ' || '!' <= c && c <= '~' && !isAlnum(c) {
			return append(buf, c), 2
		}
	}
	return buf, 0
}

// unescapeEntity decodes &#NN;, &#xHH; (the ';' optional, as HTML reads
// them, any number of leading zeros) and named references such as &quot;.
func unescapeEntity(s string, i int, buf []byte) ([]byte, int) {
	if i+2 < len(s) && s[i+1] == '#' {
		return unescapeNumeric(s, i, buf)
	}
	const maxLen = 40 // the longest named reference is 33 bytes
	end := strings.IndexByte(s[i:min(len(s), i+maxLen)], ';')
	if end < 2 {
		return buf, 0
	}
	ref := s[i : i+end+1]
	switch ref {
	case "&amp;":
		return append(buf, '&'), 5
	case "&lt;":
		return append(buf, '<'), 4
	case "&gt;":
		return append(buf, '>'), 4
	case "&quot;":
		return append(buf, '"'), 6
	case "&apos;":
		return append(buf, '\''), 6
	}
	for k := 1; k < len(ref)-1; k++ {
		if !isAlnum(ref[k]) {
			return buf, 0
		}
	}
	u := html.UnescapeString(strings.Clone(ref)) // a copy, so that s need not live on the heap
	if u == ref {
		return buf, 0
	}
	return append(buf, u...), len(ref)
}

// unescapeNumeric decodes a numeric character reference at s[i] ("&#").
func unescapeNumeric(s string, i int, buf []byte) ([]byte, int) {
	j, base, maxDigits := i+2, 10, 7
	if s[j] == 'x' || s[j] == 'X' {
		j, base, maxDigits = j+1, 16, 6
	}
	start := j
	for j < len(s) && s[j] == '0' {
		j++
	}
	var v uint64
	digits := 0
	for ; j < len(s); j++ {
		d, ok := digitValue(s[j], base)
		if !ok {
			break
		}
		if digits++; digits > maxDigits {
			return buf, 0
		}
		v = v*uint64(base) + d
	}
	if j == start || v == 0 || v > utf8.MaxRune || (0xD800 <= v && v < 0xE000) {
		return buf, 0
	}
	if j < len(s) && s[j] == ';' {
		j++
	}
	return utf8.AppendRune(buf, rune(v)), j - i
}

func digitValue(c byte, base int) (uint64, bool) {
	switch {
	case '0' <= c && c <= '9':
		return uint64(c - '0'), true
	case base == 16 && 'a' <= c && c <= 'f':
		return uint64(c-'a') + 10, true
	case base == 16 && 'A' <= c && c <= 'F':
		return uint64(c-'A') + 10, true
	}
	return 0, false
}

// hexValue reads n (1 to 8) hex digits at s[i:].
func hexValue(s string, i, n int) (uint64, bool) {
	if n < 1 || n > 8 || i+n > len(s) {
		return 0, false
	}
	var v uint64
	for _, c := range []byte(s[i : i+n]) {
		d, ok := digitValue(c, 16)
		if !ok {
			return 0, false
		}
		v = v<<4 | d
	}
	return v, true
}
