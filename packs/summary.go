package packs

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// SummaryWidth is about how long a tool's overview line may be (issue 18:
// an agent reads a pack's overview in full before its first call, so it
// pays for every character of every tool's line).
const SummaryWidth = 120

// Summary returns the tool's line in an overview (ot.help of its pack):
// a short signature and the first sentence of its description, within
// about SummaryWidth characters:
//
//	file.read(path, offset=1, limit=2000) -> str — Read a text file's lines, exactly as stored.
//
// The short signature has names and defaults but no types; when it is
// long, the last optional parameters become "…". The whole signature,
// description, parameters and examples are in Doc.
func (t *Tool) Summary() string {
	st, err := t.compiled()
	if err != nil {
		return t.ID() + "(...) — " + Clip(FirstSentence(t.Description), SummaryWidth-len(t.ID())-8)
	}
	return st.summary
}

// renderSummary builds Summary's line once per tool. The sentence gets
// the room it needs up to half the line; the signature gives up its last
// optional parameters for it.
func renderSummary(t *Tool, st *toolState) string {
	sentence := FirstSentence(t.Description)
	room := SummaryWidth - 3 - utf8.RuneCountInString(sentence)
	room = max(room, SummaryWidth/2)
	sig := shortSignature(t, st, room)
	if sentence == "" {
		return sig
	}
	return sig + " — " + Clip(sentence, SummaryWidth-utf8.RuneCountInString(sig)-3)
}

// shortSignature is the signature without types, dropping trailing
// optional parameters (shown as "…") to stay within width.
func shortSignature(t *Tool, st *toolState, width int) string {
	parts := make([]string, len(st.params))
	required := 0
	for i, p := range st.params {
		switch {
		case p.Required:
			parts[i] = p.Name
			required = i + 1
		case p.HasDefault:
			parts[i] = p.Name + "=" + literal(p.Default)
		default:
			parts[i] = p.Name + "=None"
		}
	}
	ret := ") -> " + returnType(t, st)
	build := func(n int) string {
		s := t.ID() + "(" + strings.Join(parts[:n], ", ")
		if n < len(parts) {
			if n > 0 {
				s += ", "
			}
			s += "…"
		}
		return s + ret
	}
	n := len(parts)
	s := build(n)
	// Required parameters are always shown: a call needs them.
	for n > required && utf8.RuneCountInString(s) > width {
		n--
		s = build(n)
	}
	return s
}

// FirstSentence is the first sentence of a description, on one line: the
// text of its first paragraph up to the first full stop that ends a
// sentence (not the one in "e.g." or "1.5"), or up to a colon, which
// introduces detail.
func FirstSentence(desc string) string {
	desc, _, _ = strings.Cut(strings.TrimSpace(desc), "\n\n")
	desc = strings.Join(strings.Fields(desc), " ")
	depth := 0 // inside parentheses, brackets or quotes a stop ends no sentence
	for i := 0; i < len(desc); i++ {
		switch c := desc[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth = max(depth-1, 0)
		case '.', '!', '?', ':', ';':
			if depth > 0 || (i+1 < len(desc) && desc[i+1] != ' ') {
				continue // "1.5", "e.g", "file.read", "(a; b)"
			}
			if c == '.' && abbreviation(desc[:i]) {
				continue
			}
			if c == ':' || c == ';' {
				// What follows is detail: the sentence so far says what the tool does.
				return desc[:i] + "."
			}
			return desc[:i+1]
		}
	}
	return desc
}

// abbreviation reports whether s ends in an abbreviation whose full stop
// does not end a sentence.
func abbreviation(s string) bool {
	for _, a := range []string{"e.g", "i.e", "etc", "vs", "cf", "approx"} {
		if strings.HasSuffix(s, a) && (len(s) == len(a) || !unicode.IsLetter(rune(s[len(s)-len(a)-1]))) {
			return true
		}
	}
	return false
}

// Clip shortens s to at most n characters, ending in "…" when cut, at a
// word boundary where one is near: a line of an overview stays one line.
func Clip(s string, n int) string {
	if n < 12 {
		n = 12
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)*2/3 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}
