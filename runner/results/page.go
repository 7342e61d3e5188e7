package results

import (
	"context"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Bounds of a page.
const (
	MaxLimit         = 1000   // lines per page
	MaxPageChars     = 100000 // characters per page (max_chars)
	DefaultPageChars = 10000  // characters per page when max_chars is not given
)

// PageChars is the default characters per page under output.max_inline
// maxInline: DefaultPageChars, or half of maxInline when that is less, so
// that a page with its last line still fits inline instead of being
// stored in its turn.
func PageChars(maxInline int) int {
	if maxInline <= 0 {
		return DefaultPageChars
	}
	return max(1, min(DefaultPageChars, maxInline/2))
}

// Query is one ot.result call.
type Query struct {
	Handle string
	// Offset and Limit page by lines: Limit lines from line Offset (from
	// 1), fewer when they would take more than the page's characters.
	Offset, Limit int
	// Start, when set, pages by characters instead: from character
	// *Start (from 0, over the whole result, newlines included).
	Start *int
	// MaxChars bounds a page in characters; nil: PageDefault.
	MaxChars *int
	// PageDefault is the page's characters when MaxChars is nil;
	// 0: DefaultPageChars. The runner sets PageChars(output.max_inline).
	PageDefault int
	// Search, a regular expression, returns the matches (from line
	// Offset, or from character Start) instead of a page.
	Search string
}

// Read is ot.result for owner (the reading run's principal): a page of
// lines or characters of a stored result, or with Search its matches.
func (s *Store) Read(ctx context.Context, owner string, q Query) (any, error) {
	maxChars := q.PageDefault
	if maxChars <= 0 {
		maxChars = DefaultPageChars
	}
	if q.MaxChars != nil {
		maxChars = *q.MaxChars
		if maxChars < 1 || maxChars > MaxPageChars {
			return nil, fmt.Errorf("max_chars must be between 1 and %d characters, got %d", MaxPageChars, maxChars)
		}
	}
	switch {
	case q.Offset < 1:
		return nil, fmt.Errorf("offset must be 1 or more (the first line is 1), got %d", q.Offset)
	case q.Limit < 1 || q.Limit > MaxLimit:
		return nil, fmt.Errorf("limit must be between 1 and %d lines, got %d", MaxLimit, q.Limit)
	case q.Start != nil && *q.Start < 0:
		return nil, fmt.Errorf("start must be 0 or more (the first character is 0), got %d", *q.Start)
	case q.Start != nil && q.Offset != 1:
		return nil, fmt.Errorf("give offset (a line, from 1) or start (a character, from 0), not both")
	}
	r, err := s.get(ctx, q.Handle, owner)
	if err != nil {
		return nil, err
	}
	p := pager{r: r, q: q, maxChars: maxChars}
	switch {
	case q.Search != "":
		return p.search(ctx)
	case q.Start != nil:
		return p.chars(*q.Start)
	}
	return p.lines()
}

// pager reads one stored result for one query.
type pager struct {
	r        *stored
	q        Query
	maxChars int
}

// call is the ot.result call that reads on with args ("offset=…").
func (p *pager) call(args string) string {
	s := "ot.result(handle=" + strconv.Quote(p.q.Handle) + ", " + args
	if p.q.MaxChars != nil && p.q.Search == "" {
		s += ", max_chars=" + strconv.Itoa(p.maxChars)
	}
	return s + ")"
}

// lines is a page of whole lines from q.Offset: at most q.Limit of them
// and p.maxChars characters. A first line longer than that is paged by
// characters.
func (p *pager) lines() (any, error) {
	r, offset := p.r, p.q.Offset
	if offset > r.lines {
		msg := fmt.Sprintf("offset %d is past the end: the result has %s", offset, plural(r.lines, "line"))
		if r.chars/r.lines > p.maxChars/2 {
			msg += fmt.Sprintf(" and %s; read it by characters: %s", plural(r.chars, "character"), p.call("start=0"))
		}
		return nil, fmt.Errorf("%s", msg)
	}
	from, ok := r.lineStart(offset - 1)
	if !ok {
		return nil, fmt.Errorf("cannot read result %q: %w; run the program again to get it anew", p.q.Handle, errBadResult)
	}
	n, chars, end := 0, 0, from
	for off := from; n < p.q.Limit && off <= len(r.text); n++ {
		line, next := r.line(off)
		sep := min(n, 1) // the newline before it
		c := len(line)   // bytes ≥ characters: most lines stop here
		if chars+sep+c > p.maxChars {
			room := p.maxChars - chars - sep
			if room < 0 || advance(line, 0, room) < len(line) { // counts no further than a page
				break
			}
			c = utf8.RuneCount(line)
		}
		chars += sep + c
		end, off = off+len(line), next
	}
	if n == 0 { // the line alone is longer than a page
		_, c := r.pos(from)
		return p.chars(c)
	}
	text := string(r.text[from:end]) // a copy, not a window that keeps the whole result alive
	if last := offset - 1 + n; last < r.lines {
		text += fmt.Sprintf("\n… (lines %d–%d of %d: next %s)", offset, last, r.lines,
			p.call(fmt.Sprintf("offset=%d, limit=%d", last+1, p.q.Limit)))
	}
	return text, nil
}

// chars is a page of p.maxChars characters from character start.
func (p *pager) chars(start int) (any, error) {
	r := p.r
	if start >= r.chars {
		return nil, fmt.Errorf("start=%d is past the end: the result has %s (start from 0 to %d)", start, plural(r.chars, "character"), max(r.chars-1, 0))
	}
	from := r.charByte(start)
	to := advance(r.text, from, p.maxChars)
	text := string(r.text[from:to])
	end := start + utf8.RuneCountInString(text)
	if end >= r.chars {
		return text, nil
	}
	where := ""
	if r.lines > 1 {
		first, _ := r.pos(from)
		last, _ := r.pos(to - 1)
		if first == last {
			where = fmt.Sprintf(", in line %d of %d", first+1, r.lines)
		} else {
			where = fmt.Sprintf(", lines %d–%d of %d", first+1, last+1, r.lines)
		}
	}
	return text + fmt.Sprintf("\n… (characters %d–%d of %d%s: next %s)", start, end-1, r.chars, where,
		p.call(fmt.Sprintf("start=%d", end))), nil
}

// plural is "1 line", "2 lines".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// cutRunes returns at most n characters of s, and whether it cut.
func cutRunes(s []byte, n int) ([]byte, bool) {
	end := advance(s, 0, n)
	return s[:end], end < len(s)
}
