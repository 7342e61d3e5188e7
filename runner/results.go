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

	"github.com/onetool-dev/onetool/interp"
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

// ErrResultTooLarge is the cause of a run whose result would take more
// than the whole result store to keep; it matches ErrLimit too.
var ErrResultTooLarge = fmt.Errorf("result too large to keep: %w", ErrLimit)

// lineStride is how many lines apart a stored result marks where a line
// starts: paging finds its first line by scanning at most this many, and
// the marks cost 8 bytes per stride, where a slice of lines would cost 16
// bytes per line (more than the text itself for short lines).
const lineStride = 256

type storedResult struct {
	text    string
	marks   []int // marks[k] is the byte offset of line k*lineStride (0-based)
	lines   int   // lines in text: newlines + 1
	size    int   // bytes held: text and marks
	expires time.Time
}

func newStoredResult(text string) *storedResult {
	r := &storedResult{text: text, marks: []int{0}, lines: 1}
	for off := 0; ; {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		if r.lines%lineStride == 0 {
			r.marks = append(r.marks, off)
		}
		r.lines++
	}
	r.size = len(text) + 8*len(r.marks)
	return r
}

// start is the byte offset of line n (0-based, n < r.lines).
func (r *storedResult) start(n int) int {
	off := r.marks[n/lineStride]
	for range n % lineStride {
		off += strings.IndexByte(r.text[off:], '\n') + 1
	}
	return off
}

// line returns the line that starts at off and the offset of the next.
func (r *storedResult) line(off int) (string, int) {
	i := strings.IndexByte(r.text[off:], '\n')
	if i < 0 {
		return r.text[off:], len(r.text) + 1
	}
	return r.text[off : off+i], off + i + 1
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

// put stores text and returns its handle. A text that would take more
// than the whole store is refused (SPEC §7.3: the store is bounded):
// keeping it would mean holding it past the cap, or forgetting every
// other result for one that cannot fit either.
func (s *resultStore) put(text string) (string, error) {
	if len(text) > s.maxSum {
		return "", s.tooLarge(len(text))
	}
	r := newStoredResult(text)
	if r.size > s.maxSum {
		return "", s.tooLarge(r.size)
	}
	r.expires = s.now().Add(s.ttl)
	id := "r" + strings.ToLower(rand.Text()[:10])
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	for len(s.order) > 0 && (len(s.order) >= s.maxLen || s.bytes+r.size > s.maxSum) {
		s.drop(s.order[0])
	}
	s.byID[id] = r
	s.order = append(s.order, id)
	s.bytes += r.size
	return id, nil
}

// tooLarge is the error for a result of size bytes: what happened and
// what the program can do instead.
func (s *resultStore) tooLarge(size int) error {
	return interp.NewError(interp.KindLimit, 0, 0, fmt.Sprintf(
		"the result is too large to keep: it takes %s, and results longer than output.max_inline are kept for ot.result only up to %s. "+
			"Return less: a slice (x[:100]), the items that match a filter, or a summary (len, counts); "+
			"or write it to a file with file.write (append=True adds the next part) and return the path",
		approxBytes(size), interp.FormatBytes(int64(s.maxSum))), ErrResultTooLarge)
}

// approxBytes renders a size for a message: "1000.0 MiB", "12.5 KiB".
func approxBytes(n int) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
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

// keep is the last step of a successful run with output.max_inline set
// (max > 0): a text that fits stays as it is; a longer one is stored and
// replaced by a preview; one too large to store fails the run.
func (s *resultStore) keep(res *ExecResult, max int) {
	if res.Err != nil {
		return // errors are never stored: the message must be seen whole
	}
	text, handle, err := s.shorten(res.Text, max)
	if err != nil {
		fail(res, err)
		return
	}
	res.Text, res.Handle = text, handle
}

// shorten returns text as it is when it fits in max characters, and
// otherwise stores it and returns a preview that ends with how to read on,
// and the handle.
func (s *resultStore) shorten(text string, max int) (string, string, error) {
	if max <= 0 || len(text) <= max { // bytes ≥ characters: most texts stop here
		return text, "", nil
	}
	n := utf8.RuneCountInString(text)
	if n <= max {
		return text, "", nil
	}
	id, err := s.put(text)
	if err != nil {
		return "", "", err
	}
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
		preview, n, total, id, resultTTL, id, shown+1, id), id, nil
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
	total := r.lines
	if search != "" {
		re, err := regexp.Compile(search)
		if err != nil {
			return nil, fmt.Errorf("search is not a valid regular expression: %w", err)
		}
		var out []string
		matches := 0
		if offset <= total {
			for i, off := offset-1, r.start(offset-1); i < total; i++ {
				var line string
				line, off = r.line(off)
				if !re.MatchString(line) {
					continue
				}
				matches++
				if len(out) < limit {
					if len(line) > maxSearchLine {
						line = strings.ToValidUTF8(line[:maxSearchLine], "") + "…"
					}
					out = append(out, fmt.Sprintf("%d: %s", i+1, line))
				}
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
	from := r.start(offset - 1)
	to := len(r.text)
	if end < total {
		to = r.start(end) - 1 // the newline before line end+1
	}
	text := strings.Clone(r.text[from:to]) // not a window that keeps the whole result alive
	if end < total {
		text += fmt.Sprintf("\n… (lines %d–%d of %d: next ot.result(handle=%q, offset=%d, limit=%d))", offset, end, total, handle, end+1, limit)
	}
	return text, nil
}
