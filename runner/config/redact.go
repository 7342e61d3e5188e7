package config

import (
	"context"
	"encoding/base64"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// SPEC §8.3: a secret is hidden in every form a result, an error or a log
// can carry it. Two mechanisms cover the forms:
//
//   - forms that rewrite the whole value (the value itself, its reverse
//     by bytes or characters, its base64 alone or inside longer data,
//     spaces as '+', non-ASCII characters as Latin-1 bytes as ascii()
//     writes them) are needles, computed once per Secrets and found in one
//     pass over the text (matcher);
//   - encodings that a text may hold in any mixture, and in layers, are
//     undone on copies of the text (views), where the needles are searched
//     again and each hit is mapped back to the text it came from. Two kinds
//     of view:
//   - escapes of single characters (redact_escape.go): backslash escapes of
//     JSON, string literals, ascii()/repr() and Markdown, percent-encoding,
//     HTML and XML character references, each family undone in a copy of
//     the whole text, whichever characters an encoder chose to escape;
//   - runs of encoded bytes (redact_runs.go): hex (with or without
//     separators) and base64 (either alphabet, with MIME line breaks), each
//     run decoded on its own, forwards and reversed.
//
// A view is searched for views of its own, up to maxDecodeLevels layers
// (base64 of base64 of JSON, percent-encoding of base64, hex of full
// percent-encoding…). Decoding rather than listing encoded variants covers
// every encoder's choice of which characters to escape and how (\u003c or
// <, %2f or %2F or /, &#34; or &quot; or &#034), and mixtures of them.
//
// Text without secrets pays little: a copy is made only when the text
// holds an escape that stands for a letter or digit (which only a full
// encoding writes) or for another character some secret has, next to the
// letters and digits of that secret (its anchor, see needle); and a run is
// decoded only when it is long enough to hold an encoded secret.

const (
	// maxDecodeLevels is how many layers of encoding are undone.
	maxDecodeLevels = 3
	// minCoreLen is the shortest base64 fragment searched for a secret
	// that sits at an unknown offset inside encoded data ("user:secret"
	// in a Basic header): shorter fragments would hide ordinary base64.
	minCoreLen = 12
	// decodeBudget bounds the bytes decoded for one text, as a multiple of
	// its length (plus decodeAllowance): ordinary text never comes near it
	// (a megabyte of base64 costs about 7 times its length), while a text
	// built to make every layer decode again would grow without bound.
	// A text that exhausts it is withheld (see withheld).
	decodeBudget    = 32
	decodeAllowance = 1 << 20
)

// withheld replaces a text whose encodings are too many to check: not
// knowing whether it holds a secret, Redact does not let it through.
const withheld = "[withheld: this text holds more layers of encoding than secret redaction checks]"

// minFormLen is the shortest form of a value (itself minRedactLen long or
// more) that is searched: ascii() writes "ß00", four bytes of UTF-8, as
// the three of \xdf00.
const minFormLen = 3

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
	// minNeedle is the length of the shortest needle (anchors aside): a
	// run that decodes to fewer bytes cannot hold a secret.
	minNeedle int
	// textual are the bytes of needles and of the encodings views undo
	// (printable ASCII, tabs and line breaks): a decoded run with no
	// stretch of minNeedle of them holds neither a needle nor an
	// encoding of one, and is not searched (most decodings of text that
	// only looks like an encoding are bytes at random).
	textual [256]bool
	// searches are kept for reuse with their buffers: Redact runs on
	// every result and log line.
	searches sync.Pool
}

// needle is one form of a secret. An anchor is not: it is the longest run
// of letters and digits of a form that has other bytes. Escapes that
// partial encoders write never stand for letters or digits (see
// needsUnescape), so such a form can only be found in a decoded copy of a
// text that holds its anchor as it is, or an escape of a letter or digit.
type needle struct {
	text, name string
	anchor     bool
}

// hit is an occurrence of a secret: text[start:end] is hidden as name.
type hit struct {
	start, end int
	name       string
}

// newRedactor prepares the search for values; names of markerOnly are
// not searched for, but their markers are left alone like the others.
func newRedactor(values map[string]string, markerOnly []string) *redactor {
	byText := map[string]string{} // needle → name; one value under two names shows the first name
	add := func(text, name string) {
		if len(text) < minFormLen {
			return
		}
		if old, ok := byText[text]; !ok || name < old {
			byText[text] = name
		}
	}
	var markers []string
	for _, name := range markerOnly {
		markers = append(markers, "[secret:"+name+"]")
	}
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
	slices.Sort(markers)
	r := &redactor{markers: markers}
	for c := ' '; c <= '~'; c++ {
		r.textual[c] = true
	}
	r.textual['\t'], r.textual['\n'], r.textual['\r'] = true, true, true
	needles := make([]needle, 0, len(byText))
	anchors := map[string]bool{}
	for text, name := range byText {
		needles = append(needles, needle{text: text, name: name})
		if r.minNeedle == 0 || len(text) < r.minNeedle {
			r.minNeedle = len(text)
		}
		for i := range len(text) {
			r.textual[text[i]] = true
		}
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
	if l := latin1(v); l != v {
		// ascii() writes é as \xe9, which decodes to the byte E9; and
		// reversed, as ascii(s[::-1]) writes it.
		out = append(out, l, latin1(reverseRunes(v)))
	}
	if strings.Contains(v, " ") {
		for _, f := range slices.Clone(out) {
			out = append(out, strings.ReplaceAll(f, " ", "+")) // form and query encoding
		}
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

// latin1 writes each character of s from U+0080 to U+00FF as the one
// byte of its code (the \xe9 of Python's ascii() and repr()), and the
// others in UTF-8 (their \u and \U escapes decode to UTF-8).
func latin1(s string) string {
	var b []byte
	for _, r := range s {
		if 0x80 <= r && r <= 0xFF {
			b = append(b, byte(r))
		} else {
			b = utf8.AppendRune(b, r)
		}
	}
	return string(b)
}

// redact is Secrets.Redact.
func (r *redactor) redact(text string) string {
	out, _ := r.redactContext(context.Background(), text)
	return out
}

// A text longer than redactWindow is searched a window at a time, each
// window overlapping the next by redactOverlap, so that decoding it holds
// a few copies of one window rather than of the whole text (a result can
// be as large as the run's memory budget), and so that a deadline is seen
// between windows. An occurrence of a secret is found when one window
// holds all of it: its encodings of up to three layers are far shorter
// than the overlap, unless padded on purpose (&#000…0115;), which a
// program that means to disguise a secret can do in other ways anyway
// (docs/security.md).
const (
	redactWindow  = 1 << 20
	redactOverlap = 64 << 10
)

// redactContext is redact, stopped with ctx's error when ctx ends first.
func (r *redactor) redactContext(ctx context.Context, text string) (string, error) {
	if r == nil || len(text) < r.match.min {
		return text, nil
	}
	var hits []hit
	for start := 0; start < len(text); start += redactWindow {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		end := min(len(text), start+redactWindow+redactOverlap)
		window := text[start:end]
		found, over := r.hitsWithin(window, decodeBudget*len(window)+decodeAllowance)
		if over {
			return withheld, nil
		}
		for _, h := range found {
			h.start, h.end = h.start+start, h.end+start
			hits = append(hits, h)
		}
		if end == len(text) {
			break
		}
	}
	if len(hits) == 0 {
		return text, nil
	}
	return r.replace(text, hits), nil
}

// hitsWithin finds the occurrences of secrets in text with budget bytes
// to decode; over when the budget ran out.
func (r *redactor) hitsWithin(text string, budget int) (hits []hit, over bool) {
	s, _ := r.searches.Get().(*search)
	if s == nil {
		s = &search{r: r}
	}
	defer r.searches.Put(s)
	s.hits, s.budget, s.over = s.hits[:0], budget, false
	s.view(text, nil, 0)
	if s.over {
		return nil, true
	}
	return slices.Clone(s.hits), false
}

// search is one Redact call: the hits found so far in the text and its
// views, and what decoding has cost.
type search struct {
	r      *redactor
	hits   []hit
	budget int                         // bytes that may still be decoded
	over   bool                        // the budget ran out
	runs   [maxDecodeLevels]runBuffers // one per level: a run's view is searched while the run is decoded
}

// spanMap maps a span of a view back to the text it was decoded from.
type spanMap interface {
	origin(a, b int) (int, int)
}

// view searches text, reached from the text given to Redact through maps
// (innermost last) at depth level, and the views decoded from it.
func (s *search) view(text string, maps []spanMap, level int) {
	r := s.r
	found, anchored := r.match.find(text, nil)
	for _, h := range found {
		for i := len(maps) - 1; i >= 0; i-- {
			h.start, h.end = maps[i].origin(h.start, h.end)
		}
		s.hits = append(s.hits, h)
	}
	if level == maxDecodeLevels || len(text) < r.minNeedle || s.over {
		return
	}
	anchored = anchored || r.always || slices.ContainsFunc(r.short, func(a string) bool { return strings.Contains(text, a) })
	for _, f := range families {
		if !r.needsUnescape(f, text, anchored, maxDecodeLevels-level) {
			continue
		}
		if !s.spend(len(text)) {
			return
		}
		dec, escs := unescapeAll(f, text)
		s.view(dec, append(slices.Clip(maps), escapeMap(escs)), level+1)
	}
	s.eachRun(text, level, func(dec string, m spanMap) bool {
		if !s.spend(len(dec)) {
			return false
		}
		s.view(dec, append(slices.Clip(maps), m), level+1)
		return true
	})
}

// spend charges n decoded bytes to the budget, and says whether they
// could be paid.
func (s *search) spend(n int) bool {
	if s.budget -= n; s.budget < 0 {
		s.over = true
	}
	return !s.over
}

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

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
