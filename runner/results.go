package runner

import (
	"crypto/rand"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// Large outputs (SPEC §7.3). A result longer than output.max_inline
// characters is kept under a handle, and the run returns a preview with
// the ot.result call that pages through the rest. The store is bounded in
// entries and bytes and forgets a result after a while, so a long-lived
// server cannot be made to hold every big answer it ever gave.

// Bounds of the result store.
const (
	resultTTL        = 30 * time.Minute
	maxStoredResults = 100
	maxStoredBytes   = 256 << 20
	previewChars     = 2000 // at most; the preview ends at a line break
	maxResultLimit   = 1000 // lines per ot.result page
	maxSearchLine    = 500  // characters of a matching line shown by search
)

// WithMaxInline sets the longest text a run returns whole, in characters
// (default: output.max_inline, else 20000). Longer texts are stored and
// replaced by a preview with the ot.result call that reads on. n <= 0
// returns every text whole: the command line does, since a handle is of no
// use once the process has exited.
func WithMaxInline(n int) Option {
	return func(r *Runner) {
		r.maxInline = max(n, 0)
	}
}

// ErrUnknownHandle is the cause of ot.result calls with a handle that was
// never given out or has expired.
var ErrUnknownHandle = errors.New("unknown result handle")

type storedResult struct {
	lines   []string
	size    int
	expires time.Time
}

// resultStore keeps large results. Safe for concurrent use.
type resultStore struct {
	mu     sync.Mutex
	byID   map[string]*storedResult
	order  []string // oldest first
	bytes  int
	now    func() time.Time
	ttl    time.Duration
	maxLen int
	maxSum int
}

func newResultStore() *resultStore {
	return &resultStore{
		byID: map[string]*storedResult{}, now: time.Now, ttl: resultTTL,
		maxLen: maxStoredResults, maxSum: maxStoredBytes,
	}
}

// put stores text and returns its handle.
func (s *resultStore) put(text string) string {
	id := "r" + strings.ToLower(rand.Text()[:10])
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	for len(s.order) > 0 && (len(s.order) >= s.maxLen || s.bytes+len(text) > s.maxSum) {
		s.drop(s.order[0])
	}
	s.byID[id] = &storedResult{lines: strings.Split(text, "\n"), size: len(text), expires: s.now().Add(s.ttl)}
	s.order = append(s.order, id)
	s.bytes += len(text)
	return id
}

func (s *resultStore) get(id string) (*storedResult, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	r, ok := s.byID[id]
	return r, ok
}

// expire drops results past their time. s.mu is held.
func (s *resultStore) expire() {
	now := s.now()
	for len(s.order) > 0 && s.byID[s.order[0]].expires.Before(now) {
		s.drop(s.order[0])
	}
}

func (s *resultStore) drop(id string) {
	if r, ok := s.byID[id]; ok {
		s.bytes -= r.size
		delete(s.byID, id)
	}
	for i, x := range s.order {
		if x == id {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
}

// shorten returns text as it is when it fits in max characters, and
// otherwise stores it and returns a preview that ends with how to read on,
// and the handle.
func (s *resultStore) shorten(text string, max int) (string, string) {
	if max <= 0 || len(text) <= max { // bytes ≥ characters: most texts stop here
		return text, ""
	}
	n := utf8.RuneCountInString(text)
	if n <= max {
		return text, ""
	}
	id := s.put(text)
	preview := text
	if limit := min(previewChars, max); len(preview) > limit {
		preview = preview[:limit]
		if i := strings.LastIndexByte(preview, '\n'); i > limit/2 {
			preview = preview[:i]
		} else {
			preview = strings.ToValidUTF8(preview, "")
		}
	}
	shown := strings.Count(preview, "\n") + 1
	total := strings.Count(text, "\n") + 1
	return fmt.Sprintf("%s\n… [%d characters, %d lines in all; the rest is stored as %q for %s]\n"+
		"Read on: ot.result(handle=%q, offset=%d, limit=100) · search: ot.result(handle=%q, search=\"regex\")",
		preview, n, total, id, resultTTL, id, shown+1, id), id
}

// page is ot.result: lines offset..offset+limit-1 of a stored result, or
// with search the lines that match a regular expression.
func (s *resultStore) page(handle string, offset, limit int, search string) (any, error) {
	switch {
	case offset < 1:
		return nil, fmt.Errorf("offset must be 1 or more (the first line is 1), got %d", offset)
	case limit < 1 || limit > maxResultLimit:
		return nil, fmt.Errorf("limit must be between 1 and %d lines, got %d", maxResultLimit, limit)
	}
	r, ok := s.get(handle)
	if !ok {
		return nil, fmt.Errorf("%w %q: results are kept for %s and at most %d at a time; run the program again to get it anew", ErrUnknownHandle, handle, resultTTL, maxStoredResults)
	}
	total := len(r.lines)
	if search != "" {
		re, err := regexp.Compile(search)
		if err != nil {
			return nil, fmt.Errorf("search is not a valid regular expression: %w", err)
		}
		var out []string
		matches := 0
		for i := offset - 1; i < total; i++ {
			if !re.MatchString(r.lines[i]) {
				continue
			}
			matches++
			if len(out) < limit {
				line := r.lines[i]
				if len(line) > maxSearchLine {
					line = strings.ToValidUTF8(line[:maxSearchLine], "") + "…"
				}
				out = append(out, fmt.Sprintf("%d: %s", i+1, line))
			}
		}
		m := ordered.NewMap(3)
		m.Set("matches", int64(matches))
		lines := make([]any, len(out))
		for i, l := range out {
			lines[i] = l
		}
		m.Set("lines", lines)
		if matches > len(out) {
			m.Set("more", fmt.Sprintf("%d more matches: raise limit (at most %d) or narrow the search", matches-len(out), maxResultLimit))
		}
		return m, nil
	}
	if offset > total {
		return nil, fmt.Errorf("offset %d is past the end: the result has %d lines", offset, total)
	}
	end := min(total, offset-1+limit)
	text := strings.Join(r.lines[offset-1:end], "\n")
	if end < total {
		text += fmt.Sprintf("\n… (lines %d–%d of %d: next ot.result(handle=%q, offset=%d, limit=%d))", offset, end, total, handle, end+1, limit)
	}
	return text, nil
}
