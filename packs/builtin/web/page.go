package web

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// cut returns max_chars characters of doc from start; when more remain,
// a last line gives the call that returns the next part.
func cut(doc string, p args) (string, error) {
	total := utf8.RuneCountInString(doc)
	if p.start > 0 && p.start >= total {
		return "", fmt.Errorf("start=%d is past the end: the result has %d characters (start from 0 to %d)", p.start, total, max(total-1, 0))
	}
	from := byteOffset(doc, 0, p.start)
	rest := doc[from:]
	if total-p.start <= p.maxChars {
		return rest, nil
	}
	end := byteOffset(rest, 0, p.maxChars)
	end = niceCut(rest, end)
	part := rest[:end]
	next := p.start + utf8.RuneCountInString(part)
	remaining := total - next
	return strings.TrimRight(part, " \t\n") + "\n\n" + fmt.Sprintf("… (%d more characters: %s)", remaining, nextCall(p, next)), nil
}

// byteOffset is the byte offset of the n-th character of s after byte from.
func byteOffset(s string, from, n int) int {
	i := from
	for ; n > 0 && i < len(s); n-- {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

// niceCut moves a cut at byte end of s back to the end of a line, or of a
// word, when one is near (in the last fifth), so parts do not split words.
func niceCut(s string, end int) int {
	window := end / 5
	lo := end - window
	if i := strings.LastIndexByte(s[lo:end], '\n'); i >= 0 && lo+i+1 > 0 {
		return lo + i + 1
	}
	if i := strings.LastIndexByte(s[lo:end], ' '); i >= 0 && lo+i+1 > 0 {
		return lo + i + 1
	}
	return end
}

// nextCall is the web.fetch call for the part from start.
func nextCall(p args, start int) string {
	var b strings.Builder
	b.WriteString("web.fetch(url=")
	b.WriteString(strconv.Quote(strings.TrimSpace(p.url)))
	if p.format != "markdown" {
		b.WriteString(", format=")
		b.WriteString(strconv.Quote(p.format))
	}
	if p.maxChars != DefaultMaxChars {
		b.WriteString(", max_chars=")
		b.WriteString(strconv.Itoa(p.maxChars))
	}
	b.WriteString(", start=")
	b.WriteString(strconv.Itoa(start))
	b.WriteString(")")
	return b.String()
}
