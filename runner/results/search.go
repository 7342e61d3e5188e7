package results

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// Bounds of a search.
const (
	maxSearchLine = 500    // characters: a matching line this long is shown whole
	searchContext = 100    // characters shown each side of a match in a longer line
	maxMatchShown = 200    // characters of a match itself shown
	maxCounted    = 100000 // matches counted before a search stops
)

// search returns the places that match q.Search, from line q.Offset or
// character q.Start on: a matching line of at most maxSearchLine
// characters whole ("12: the line"), and in a longer line each match
// with the text around it, its character and the call that reads on from
// there. matches counts the places (a line shown whole once, a long line
// once per match); more says how to see the next ones.
func (p *pager) search(ctx context.Context) (any, error) {
	re, err := regexp.Compile(p.q.Search)
	if err != nil {
		return nil, fmt.Errorf("search is not a valid regular expression: %w", err)
	}
	r := p.r
	firstLine, startByte := p.q.Offset-1, 0
	if p.q.Start != nil {
		startByte = r.charByte(min(*p.q.Start, r.chars))
		firstLine, _ = r.pos(startByte)
	}
	var out []any
	matches := 0
	next := "" // the call that shows the first match not shown
	if firstLine < r.lines {
		off, ok := r.lineStart(firstLine)
		if !ok {
			return nil, fmt.Errorf("cannot read result %q: %w; run the program again to get it anew", p.q.Handle, errBadResult)
		}
		for i := firstLine; i < r.lines && off <= len(r.text) && matches < maxCounted; i++ {
			// A result may hold millions of lines: a run that ends (its
			// deadline, its client gone) stops its search too.
			if i%4096 == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			lineOff := off
			var line []byte
			line, off = r.line(off)
			if lineOff >= startByte && advance(line, 0, maxSearchLine) == len(line) {
				if !re.Match(line) {
					continue
				}
				matches++
				if len(out) < p.q.Limit {
					out = append(out, strconv.Itoa(i+1)+": "+string(line))
				} else if next == "" {
					next = fmt.Sprintf("offset=%d", i+1)
				}
				continue
			}
			// A long line, or the one start falls in: each match apart.
			for _, loc := range re.FindAllIndex(line, maxCounted-matches+1) {
				if lineOff+loc[0] < startByte {
					continue
				}
				if matches == maxCounted {
					break
				}
				matches++
				if len(out) < p.q.Limit {
					out = append(out, p.window(i, lineOff, line, loc))
				} else if next == "" {
					_, c := r.pos(lineOff + loc[0])
					next = fmt.Sprintf("start=%d", c)
				}
			}
		}
	}
	m := ordered.NewMap(3)
	m.Set("matches", int64(matches))
	if out == nil {
		out = []any{}
	}
	m.Set("lines", out)
	if more := matches - len(out); more > 0 {
		count := strconv.Itoa(more)
		if matches == maxCounted {
			count = "at least " + count
		}
		m.Set("more", fmt.Sprintf("%s more matches: next ot.result(handle=%q, search=%q, %s, limit=%d); or narrow the search",
			count, p.q.Handle, p.q.Search, next, p.q.Limit))
	}
	return m, nil
}

// window shows the match at loc of line i (which starts at byte lineOff)
// with searchContext characters each side, its character in the result
// and the call that reads on from the start of what is shown.
func (p *pager) window(i, lineOff int, line []byte, loc []int) string {
	from := back(line, loc[0], searchContext)
	match, cut := cutRunes(line[loc[0]:loc[1]], maxMatchShown)
	to := advance(line, loc[0]+len(match), searchContext)
	if cut {
		to = loc[0] + len(match)
	}
	s := strconv.Itoa(i+1) + ": "
	if from > 0 {
		s += "…"
	}
	s += string(line[from:loc[0]]) + string(match)
	if cut {
		s += "…"
	}
	s += string(line[loc[0]+len(match) : to])
	if to < len(line) {
		s += "…"
	}
	_, at := p.r.pos(lineOff + loc[0])
	_, shown := p.r.pos(lineOff + from)
	return s + fmt.Sprintf(" (character %d; read on: ot.result(handle=%q, start=%d))", at, p.q.Handle, shown)
}

// back is the byte offset n characters before off in s (at least 0).
func back(s []byte, off, n int) int {
	for ; n > 0 && off > 0; n-- {
		_, size := utf8.DecodeLastRune(s[:off])
		off -= size
	}
	return off
}
