package config

import (
	"encoding/base64"
	"html"
	"slices"
	"strings"
	"unicode/utf8"
)

// SPEC §8.3: a secret is hidden in every form a result, an error or a log
// can carry it. Two mechanisms cover the forms:
//
//   - forms that rewrite the whole value (the value itself, its reverse
//     by bytes or characters, its base64, spaces as '+') are needles, computed once per Secrets and
//     found in one pass over the text (matcher);
//   - forms that escape single characters (backslash escapes of JSON,
//     string literals and Markdown; percent-encoding; HTML and XML
//     character references) are undone on a copy of the text, where the
//     needles are searched again and each hit is mapped back to the
//     escaped text it came from. Up to two layers are undone, of the same
//     kind (JSON inside JSON) or not (a Markdown page made from HTML
//     writes \\ and &lt;). Decoding rather than listing escaped variants
//     covers every encoder's choice of which characters to escape and how
//     (\u003c or <, %2f or %2F or /, &#34; or &quot;), and mixtures of
//     them. A copy is made only when the text holds an escape that stands
//     for a character some needle has, so text without secrets pays one
//     scan per family.

const (
	// maxDecodeLevels is how many layers of escaping are undone.
	maxDecodeLevels = 2
	// minCoreLen is the shortest base64 fragment searched for a secret
	// that sits at an unknown offset inside encoded data ("user:secret"
	// in a Basic header): shorter fragments would hide ordinary base64.
	minCoreLen = 12
)

// Anchors (see needle) of minAnchorLen bytes or more are searched with the
// needles; shorter ones, down to minShortAnchorLen, each on its own, so
// that they do not shorten the needles' search window. Shorter ones still
// would be in most texts: a form without one makes every text with a
// relevant escape be decoded.
const (
	minAnchorLen      = 6
	minShortAnchorLen = 4
)

// redactor holds what Redact needs, computed once when secrets are loaded.
type redactor struct {
	match    *matcher
	relevant [256]bool // bytes that occur in some needle and that encoders escape
	markers  []string  // "[secret:NAME]" of every name, which Redact leaves alone
	short    []string  // anchors too short for the matcher
	// always is set when some needle with such bytes has no anchor, so
	// that any text may need decoding.
	always bool
}

// needle is one form of a secret. An anchor is not: it is the longest run
// of letters and digits of a form that has other bytes. Decoding never
// produces letters or digits (see unescape), so such a form can only be
// found in a decoded copy of a text that holds its anchor as it is; a text
// with no anchor needs no decoding.
type needle struct {
	text, name string
	anchor     bool
}

// hit is an occurrence of a secret: text[start:end] is hidden as name.
type hit struct {
	start, end int
	name       string
}

func newRedactor(values map[string]string) *redactor {
	byText := map[string]string{} // needle → name; one value under two names shows the first name
	add := func(text, name string) {
		if len(text) < minRedactLen {
			return
		}
		if old, ok := byText[text]; !ok || name < old {
			byText[text] = name
		}
	}
	var markers []string
	for name, v := range values {
		markers = append(markers, "[secret:"+name+"]")
		if len(v) < minRedactLen {
			continue
		}
		for _, f := range forms(v) {
			add(f, name)
		}
	}
	if len(byText) == 0 {
		return nil
	}
	r := &redactor{markers: markers}
	needles := make([]needle, 0, len(byText))
	anchors := map[string]bool{}
	for text, name := range byText {
		needles = append(needles, needle{text: text, name: name})
		escapable := false
		for i := range len(text) {
			if !isAlnum(text[i]) {
				r.relevant[text[i]], escapable = true, true
			}
		}
		if !escapable {
			continue
		}
		switch a := longestAlnumRun(text); {
		case len(a) >= minAnchorLen:
			anchors[a] = true
		case len(a) >= minShortAnchorLen:
			if !slices.Contains(r.short, a) {
				r.short = append(r.short, a)
			}
		default:
			r.always = true
		}
	}
	for a := range anchors {
		needles = append(needles, needle{text: a, anchor: true})
	}
	slices.Sort(r.short)
	slices.SortFunc(needles, func(a, b needle) int { return strings.Compare(a.text, b.text) })
	r.match = newMatcher(needles)
	return r
}

func longestAlnumRun(s string) string {
	best, start := "", -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) && isAlnum(s[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start > len(best) {
			best = s[start:i]
		}
		start = -1
	}
	return best
}

// forms lists the whole-value forms of v that are searched as they are.
func forms(v string) []string {
	rev := reverseBytes(v)
	out := []string{v, rev, reverseRunes(v), replaceInvalid(rev)}
	if strings.Contains(v, " ") {
		out = append(out, strings.ReplaceAll(v, " ", "+")) // form and query encoding
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		// The whole value, padded and not; the longer hit wins where both match.
		out = append(out, enc.EncodeToString([]byte(v)), enc.WithPadding(base64.NoPadding).EncodeToString([]byte(v)))
		// The value inside longer data, at each of the three offsets a
		// byte can have in a 3-byte group: only the characters that
		// depend on the value alone.
		for k := range 3 {
			e := enc.WithPadding(base64.NoPadding).EncodeToString(append(make([]byte, k), v...))
			lo, hi := (8*k+5)/6, 8*(k+len(v))/6
			if hi-lo >= minCoreLen {
				out = append(out, e[lo:hi])
			}
		}
	}
	return out
}

func reverseBytes(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

// replaceInvalid writes U+FFFD for each byte of s that is not UTF-8, as
// encoding/json does: how a program's s[::-1] of non-ASCII text reaches
// the user when its text crosses JSON before it is redacted.
func replaceInvalid(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r) // ranging yields U+FFFD for each invalid byte
	}
	return b.String()
}

func reverseRunes(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}

// redact is Secrets.Redact.
func (r *redactor) redact(text string) string {
	if r == nil || len(text) < r.match.min {
		return text
	}
	hits, anchored := r.match.find(text, nil)
	if anchored || r.always || slices.ContainsFunc(r.short, func(a string) bool { return strings.Contains(text, a) }) {
		hits = r.decoded(nil, text, hits)
	}
	if len(hits) == 0 {
		return text
	}
	return r.replace(text, hits)
}

// decoded searches the needles in every decoding of cur, the text reached
// through chain (the escapes of each decoding so far), by one family and
// then, where another layer is allowed, by each family again (a Markdown
// page escapes backslashes one way and < another), appending the hits
// mapped back to the original text.
func (r *redactor) decoded(chain [][]escape, cur string, hits []hit) []hit {
	deeper := len(chain)+1 < maxDecodeLevels
	for _, f := range []family{backslash, percent, entity} {
		if len(cur) < r.match.min || !r.needsDecoding(f, cur, deeper) {
			continue
		}
		dec, escs := f.decode(cur)
		c := append(slices.Clip(chain), escs)
		found, _ := r.match.find(dec, nil)
		for _, h := range found {
			for i := len(c) - 1; i >= 0; i-- {
				h.start, h.end = origin(c[i], h.start, h.end)
			}
			hits = append(hits, h)
		}
		if deeper {
			hits = r.decoded(c, dec, hits)
		}
	}
	return hits
}

// needsDecoding reports whether s holds an escape of family f standing for
// a byte of some needle, or, when another layer will be decoded, one that
// makes such an escape of the next layer (\\\" in JSON inside JSON,
// &amp;quot; in HTML escaped twice). Without one, every hit in the decoded
// text would be a hit in s as it is.
func (r *redactor) needsDecoding(f family, s string, deeper bool) bool {
	var buf [2 * utf8.UTFMax]byte
	intro := f.intro()
	for i := 0; ; {
		j := strings.IndexByte(s[i:], intro)
		if j < 0 {
			return false
		}
		i += j
		out, n := f.unescape(s, i, buf[:0])
		if n == 0 {
			i++
			continue
		}
		for _, b := range out {
			if r.relevant[b] {
				return true
			}
		}
		if deeper && len(out) == 1 && isIntro(out[0]) && r.makesEscape(f, out[0], s[i+n:]) {
			return true
		}
		i += n
	}
}

// makesEscape reports whether c, decoded by f and followed by rest, starts
// an escape of the next layer that stands for a byte of some needle. Only
// the start of rest, decoded by f, can matter, and only a window of it is
// read: escapes are short (a few named HTML references longer than the
// window, for rare symbols, are not seen in a second layer).
func (r *redactor) makesEscape(f family, c byte, rest string) bool {
	var buf [2 * utf8.UTFMax]byte
	var arr [32]byte // on the stack, as is the string made of it below
	win := f.appendDecoded(append(arr[:0], c), rest[:min(len(rest), len(arr)-1)])
	for _, g := range []family{backslash, percent, entity} {
		if g.intro() != c {
			continue
		}
		out, _ := g.unescape(string(win), 0, buf[:0])
		for _, b := range out {
			if r.relevant[b] {
				return true
			}
		}
	}
	return false
}

func isIntro(c byte) bool { return c == '\\' || c == '%' || c == '&' }

// replace writes text with every hit replaced by its marker. Where hits of
// two secrets overlap, both are hidden entirely; at one position the
// longer hit wins; overlapping hits of one secret become one marker. A hit
// that lies inside a marker already in the text is ignored, so that
// redacting twice changes nothing (a secret "secret" must not eat its own
// markers).
func (r *redactor) replace(text string, hits []hit) string {
	hits = r.dropInsideMarkers(text, hits)
	if len(hits) == 0 {
		return text
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if a.start != b.start {
			return a.start - b.start
		}
		if a.end != b.end {
			return b.end - a.end // longer first
		}
		return strings.Compare(a.name, b.name)
	})
	var b strings.Builder
	b.Grow(len(text))
	covered, last := 0, "" // text before covered is written or hidden; last is the marker just written
	for _, h := range hits {
		switch {
		case h.end <= covered:
			continue // inside what is already hidden
		case h.start < covered && h.name == last:
			covered = h.end // the same secret again, overlapping: one marker hides both
			continue
		case h.start > covered:
			b.WriteString(text[covered:h.start])
		}
		b.WriteString("[secret:" + h.name + "]")
		covered, last = h.end, h.name
	}
	b.WriteString(text[covered:])
	return b.String()
}

func (r *redactor) dropInsideMarkers(text string, hits []hit) []hit {
	var spans [][2]int
	for i := 0; ; {
		j := strings.Index(text[i:], "[secret:")
		if j < 0 {
			break
		}
		i += j
		for _, m := range r.markers {
			if strings.HasPrefix(text[i:], m) {
				spans = append(spans, [2]int{i, i + len(m)})
				break
			}
		}
		i++
	}
	if len(spans) == 0 {
		return hits
	}
	return slices.DeleteFunc(hits, func(h hit) bool {
		k, _ := slices.BinarySearchFunc(spans, h.start, func(s [2]int, x int) int {
			if s[1] <= x {
				return -1
			}
			if s[0] > x {
				return 1
			}
			return 0
		})
		return k < len(spans) && spans[k][0] <= h.start && h.end <= spans[k][1]
	})
}

// escape records one decoded escape: decoded text [d, d+dn) stands for the
// text [o, o+on) it was decoded from.
type escape struct{ d, dn, o, on int }

// origin maps the span [a, b) of a decoded text back to the text it was
// decoded from, widened to whole escapes.
func origin(escs []escape, a, b int) (int, int) {
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

// family is one way of escaping single characters in text.
type family uint8

const (
	backslash family = iota // JSON, Go, Starlark and Python string literals, Markdown
	percent                 // URL percent-encoding, any case, any set of escaped bytes
	entity                  // HTML and XML character references
)

func (f family) intro() byte {
	switch f {
	case backslash:
		return '\\'
	case percent:
		return '%'
	}
	return '&'
}

// decode undoes every escape of family f in s, and says where each was.
func (f family) decode(s string) (string, []escape) {
	var b strings.Builder
	b.Grow(len(s))
	var escs []escape
	var buf [2 * utf8.UTFMax]byte
	intro, last := f.intro(), 0
	for i := 0; ; {
		j := strings.IndexByte(s[i:], intro)
		if j < 0 {
			break
		}
		i += j
		out, n := f.unescape(s, i, buf[:0])
		if n == 0 {
			i++
			continue
		}
		b.WriteString(s[last:i])
		escs = append(escs, escape{d: b.Len(), dn: len(out), o: i, on: n})
		b.Write(out)
		i += n
		last = i
	}
	b.WriteString(s[last:])
	return b.String(), escs
}

// appendDecoded appends s with the escapes of f undone to buf.
func (f family) appendDecoded(buf []byte, s string) []byte {
	var tmp [2 * utf8.UTFMax]byte
	intro, last := f.intro(), 0
	for i := 0; ; {
		j := strings.IndexByte(s[i:], intro)
		if j < 0 {
			break
		}
		i += j
		out, n := f.unescape(s, i, tmp[:0])
		if n == 0 {
			i++
			continue
		}
		buf = append(append(buf, s[last:i]...), out...)
		i += n
		last = i
	}
	return append(buf, s[last:]...)
}

// unescape decodes the escape starting at s[i] (the family's introducer),
// appending what it stands for to buf; n is its length, 0 when s[i:] does
// not start an escape.
//
// Escapes standing for ASCII letters or digits are not undone: no encoder
// writes them, and leaving them is what makes anchors (see needle) sound.
func (f family) unescape(s string, i int, buf []byte) (out []byte, n int) {
	switch f {
	case backslash:
		out, n = unescapeBackslash(s, i, buf)
	case percent:
		if h, ok := hexValue(s, i+1, 2); ok {
			out, n = append(buf, byte(h)), 3
		}
	default:
		out, n = unescapeEntity(s, i, buf)
	}
	if n > 0 && slices.ContainsFunc(out[len(buf):], isAlnum) {
		return buf, 0
	}
	return out, n
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
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
	case 'x': // a byte in Go and Starlark
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
	default:
		// \" \\ \/ \' of JSON and string literals, and the \< \* \_ \[ of
		// Markdown, \. of regular expressions, "\ " of shells.
		if c == ' ' || '!' <= c && c <= '~' && !isAlnum(c) {
			return append(buf, c), 2
		}
	}
	return buf, 0
}

// unescapeEntity decodes &#NN;, &#xHH; and named references such as &quot;.
func unescapeEntity(s string, i int, buf []byte) ([]byte, int) {
	const maxLen = 40 // the longest named reference is 33 bytes
	end := strings.IndexByte(s[i:min(len(s), i+maxLen)], ';')
	if end < 2 {
		return buf, 0
	}
	ref := s[i : i+end+1]
	if ref[1] == '#' {
		var r uint64
		var ok bool
		if ref[2] == 'x' || ref[2] == 'X' {
			r, ok = hexValue(ref, 3, len(ref)-4)
		} else {
			r, ok = decValue(ref[2 : len(ref)-1])
		}
		if !ok || r == 0 || r > utf8.MaxRune || (0xD800 <= r && r < 0xE000) {
			return buf, 0
		}
		return utf8.AppendRune(buf, rune(r)), len(ref)
	}
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
		if c := ref[k]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return buf, 0
		}
	}
	u := html.UnescapeString(strings.Clone(ref)) // a copy, so that s need not live on the heap
	if u == ref {
		return buf, 0
	}
	return append(buf, u...), len(ref)
}

// hexValue reads n (1 to 8) hex digits at s[i:].
func hexValue(s string, i, n int) (uint64, bool) {
	if n < 1 || n > 8 || i+n > len(s) {
		return 0, false
	}
	var v uint64
	for _, c := range []byte(s[i : i+n]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | uint64(c)
	}
	return v, true
}

// decValue reads 1 to 7 decimal digits.
func decValue(s string) (uint64, bool) {
	if len(s) < 1 || len(s) > 7 {
		return 0, false
	}
	var v uint64
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return v, true
}
