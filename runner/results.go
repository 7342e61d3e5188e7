package runner

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/runner/store"
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
// the marks cost a few bytes per stride, where a slice of lines would cost
// 16 bytes per line (more than the text itself for short lines).
const lineStride = 256

// storedResult is a result as the store keeps it: encoded once by
// encodeResult, and read in place by decodeResult (the text is not
// copied out of the store's bytes, so paging costs what a page costs).
type storedResult struct {
	text  []byte
	marks []int // marks[k] is the byte offset of line k*lineStride (0-based)
	lines int   // lines in text: newlines + 1
}

// resultFormat is the first byte of an encoded result: a replica that
// meets another layout (an older or newer onetool sharing a Redis) says
// so instead of misreading it.
const resultFormat = 1

// encodeResult lays out a result as: format byte, line count, mark count,
// marks (all uvarints), then the text. A custom layout rather than JSON or
// gob: the text, up to 256 MiB, is copied once and never escaped.
func encodeResult(text string) []byte {
	marks := []int{0}
	lines := 1
	for off := 0; ; {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		if lines%lineStride == 0 {
			marks = append(marks, off)
		}
		lines++
	}
	b := make([]byte, 0, 1+binary.MaxVarintLen64*(2+len(marks))+len(text))
	b = append(b, resultFormat)
	b = binary.AppendUvarint(b, uint64(lines))
	b = binary.AppendUvarint(b, uint64(len(marks)))
	for _, m := range marks {
		b = binary.AppendUvarint(b, uint64(m))
	}
	return append(b, text...)
}

// errBadResult is the cause of stored bytes that are not a result.
var errBadResult = errors.New("the stored result is damaged or from another version of onetool")

func decodeResult(b []byte) (*storedResult, error) {
	if len(b) == 0 || b[0] != resultFormat {
		return nil, errBadResult
	}
	b = b[1:]
	next := func() (int, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > uint64(len(b))*lineStride+1 {
			return 0, false
		}
		b = b[n:]
		return int(v), true
	}
	lines, ok1 := next()
	n, ok2 := next()
	if !ok1 || !ok2 || n < 1 || n > len(b) {
		return nil, errBadResult
	}
	r := &storedResult{lines: lines, marks: make([]int, n)}
	for i := range r.marks {
		m, ok := next()
		if !ok {
			return nil, errBadResult
		}
		r.marks[i] = m
	}
	r.text = b
	for _, m := range r.marks {
		if m > len(r.text) {
			return nil, errBadResult
		}
	}
	if (lines-1)/lineStride+1 != n {
		return nil, errBadResult
	}
	return r, nil
}

// start is the byte offset of line n (0-based, n < r.lines).
func (r *storedResult) start(n int) int {
	off := r.marks[n/lineStride]
	for range n % lineStride {
		off += bytes.IndexByte(r.text[off:], '\n') + 1
	}
	return off
}

// line returns the line that starts at off and the offset of the next.
func (r *storedResult) line(off int) ([]byte, int) {
	if off > len(r.text) { // only a damaged count of lines gets here
		return nil, off
	}
	i := bytes.IndexByte(r.text[off:], '\n')
	if i < 0 {
		return r.text[off:], len(r.text) + 1
	}
	return r.text[off : off+i], off + i + 1
}

// resultStore keeps large results in a store.Store: the embedded memory
// store by default, or a Redis every replica shares. Safe for concurrent
// use.
type resultStore struct {
	st     store.Store
	maxSum int // bytes; a result that would take more is refused

	// What each principal keeps (SPEC §8.4), oldest first: a principal
	// holds at most a share of the store (1/ownerShare of its results
	// and bytes), so that one principal's results cannot push out every
	// other's. Made on first use.
	mu     sync.Mutex
	owners map[string][]ownedResult
}

// ownerShare is the part of the result store one principal may hold: a
// quarter, so that no single one can push another's results out.
const ownerShare = 4

// sweepOwners is how many principals' lists may accumulate before those
// whose results have all expired are dropped.
const sweepOwners = 1024

// ownedResult is a result a principal keeps.
type ownedResult struct {
	key  string
	size int
	at   time.Time
}

// newMemoryResults is the embedded result store: at most maxLen results
// and maxSum bytes, the oldest forgotten first.
func newMemoryResults(maxLen, maxSum int, now func() time.Time) *resultStore {
	return &resultStore{
		st:     store.NewMemory(store.MemoryOptions{MaxEntries: maxLen, MaxBytes: int64(maxSum), Now: now}),
		maxSum: maxSum,
	}
}

func newResultStore() *resultStore { return newMemoryResults(maxStoredResults, maxStoredBytes, nil) }

// A stored result belongs to the principal whose run made it (SPEC
// §8.4): it is kept under a key made of its handle and its owner's
// identity (auth.Principal.Key, "" for runs nobody authenticated), and
// read under the reader's, so another principal's handle is simply not
// found, with the same message as a handle never given out: handles
// cannot be probed.

// handleLen is the length of a handle: "r" and 10 characters of
// rand.Text, lowered.
const handleLen = 11

// resultKey is where the result handle of owner is kept; ok is false
// for a text that is no handle (it could otherwise name another owner's
// key).
func resultKey(handle, owner string) (key string, ok bool) {
	if len(handle) != handleLen || handle[0] != 'r' {
		return "", false
	}
	for _, c := range handle[1:] {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return "", false
		}
	}
	if owner == "" {
		return handle, true
	}
	sum := sha256.Sum256([]byte(owner))
	return handle + "." + hex.EncodeToString(sum[:12]), true
}

// put stores text for owner and returns its handle. A text that would
// take more than the whole store (a principal's share of it, for a
// principal) is refused (SPEC §7.3: the store is bounded): keeping it
// would mean holding it past the cap, or forgetting every other result
// for one that cannot fit either.
func (s *resultStore) put(ctx context.Context, text, owner string) (string, error) {
	limit := s.maxSum
	if owner != "" {
		limit /= ownerShare
	}
	if len(text) > limit {
		return "", s.tooLarge(len(text), owner)
	}
	id := "r" + strings.ToLower(rand.Text()[:handleLen-1])
	key, _ := resultKey(id, owner)
	value := encodeResult(text)
	size := len(key) + len(value)
	if size > limit {
		return "", s.tooLarge(size, owner)
	}
	if err := s.st.Set(ctx, key, value, resultTTL); err != nil {
		if errors.Is(err, store.ErrTooLarge) {
			return "", s.tooLarge(len(value), owner)
		}
		return "", fmt.Errorf("the result is longer than output.max_inline and could not be kept for ot.result: %w; "+
			"return less (a slice, a filter, a summary) or try again when the store is back", err)
	}
	if owner != "" {
		s.own(ctx, owner, key, size)
	}
	return id, nil
}

// own records that owner keeps key, and forgets owner's oldest results
// beyond its share of the store.
func (s *resultStore) own(ctx context.Context, owner, key string, size int) {
	now := time.Now()
	s.mu.Lock()
	if s.owners == nil {
		s.owners = map[string][]ownedResult{}
	}
	list := s.owners[owner]
	for len(list) > 0 && now.Sub(list[0].at) > resultTTL { // gone from the store already
		list = list[1:]
	}
	list = append(list, ownedResult{key, size, now})
	total := 0
	for _, o := range list {
		total += o.size
	}
	var drop []string
	for len(list) > 1 && (len(list) > maxStoredResults/ownerShare || total > s.maxSum/ownerShare) {
		drop = append(drop, list[0].key)
		total -= list[0].size
		list = list[1:]
	}
	s.owners[owner] = slices.Clone(list) // not a window that keeps what it dropped
	if len(s.owners) > sweepOwners {
		for o, l := range s.owners { // principals whose results have all expired
			if now.Sub(l[len(l)-1].at) > resultTTL {
				delete(s.owners, o)
			}
		}
	}
	s.mu.Unlock()
	for _, k := range drop {
		_ = s.st.Delete(ctx, k) // at worst it stays until its TTL
	}
}

// tooLarge is the error for a result of size bytes that owner could not
// keep: what happened and what the program can do instead.
func (s *resultStore) tooLarge(size int, owner string) error {
	limit, whose := s.maxSum, ""
	if owner != "" {
		limit, whose = s.maxSum/ownerShare, " (each principal's share of the store)"
	}
	return interp.NewError(interp.KindLimit, 0, 0, fmt.Sprintf(
		"the result is too large to keep: it takes %s, and results longer than output.max_inline are kept for ot.result only up to %s%s. "+
			"Return less: a slice (x[:100]), the items that match a filter, or a summary (len, counts); "+
			"or write it to a file with file.write (append=True adds the next part) and return the path",
		interp.ApproxBytes(int64(size)), interp.FormatBytes(int64(limit)), whose), ErrResultTooLarge)
}

// get reads a result owner stored: ErrUnknownHandle when the store has
// none (or one of another owner), the store's error (unreachable, say)
// otherwise.
func (s *resultStore) get(ctx context.Context, id, owner string) (*storedResult, error) {
	key, ok := resultKey(id, owner)
	var b []byte
	err := store.ErrNotFound
	if ok {
		b, err = s.st.Get(ctx, key)
	}
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("%w %q: results are kept for %s and at most %d at a time; run the program again to get it anew", ErrUnknownHandle, id, resultTTL, maxStoredResults)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read result %q: %w; try again when the store is back", id, err)
	}
	r, err := decodeResult(b)
	if err != nil {
		return nil, fmt.Errorf("cannot read result %q: %w; run the program again to get it anew", id, err)
	}
	return r, nil
}

// keep is the last step of a successful run with output.max_inline set
// (max > 0): a text that fits stays as it is; a longer one is stored for
// owner (the run's principal) and replaced by a preview; one too large
// to store fails the run.
func (s *resultStore) keep(ctx context.Context, res *ExecResult, max int, owner string) {
	if res.Err != nil {
		return // errors are never stored: the message must be seen whole
	}
	text, handle, err := s.shorten(ctx, res.Text, max, owner)
	if err != nil {
		fail(res, err)
		return
	}
	res.Text, res.Handle = text, handle
}

// shorten returns text as it is when it fits in max characters, and
// otherwise stores it for owner and returns a preview that ends with how
// to read on, and the handle.
func (s *resultStore) shorten(ctx context.Context, text string, max int, owner string) (string, string, error) {
	if max <= 0 || len(text) <= max { // bytes ≥ characters: most texts stop here
		return text, "", nil
	}
	n := utf8.RuneCountInString(text)
	if n <= max {
		return text, "", nil
	}
	id, err := s.put(ctx, text, owner)
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

// page is ot.result: lines offset..offset+limit-1 of a result the run's
// principal stored, or with search the lines that match a regular
// expression.
func (s *resultStore) page(ctx context.Context, handle string, offset, limit int, search string) (any, error) {
	switch {
	case offset < 1:
		return nil, fmt.Errorf("offset must be 1 or more (the first line is 1), got %d", offset)
	case limit < 1 || limit > maxResultLimit:
		return nil, fmt.Errorf("limit must be between 1 and %d lines, got %d", maxResultLimit, limit)
	}
	var owner string
	if st := runStateFrom(ctx); st != nil {
		owner = st.principal.Key()
	}
	r, err := s.get(ctx, handle, owner)
	if err != nil {
		return nil, err
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
				var line []byte
				line, off = r.line(off)
				if !re.Match(line) {
					continue
				}
				matches++
				if len(out) < limit {
					shown := string(line)
					if len(line) > maxSearchLine {
						shown = strings.ToValidUTF8(string(line[:maxSearchLine]), "") + "…"
					}
					out = append(out, fmt.Sprintf("%d: %s", i+1, shown))
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
	if from > to {
		return nil, fmt.Errorf("cannot read result %q: %w; run the program again to get it anew", handle, errBadResult)
	}
	text := string(r.text[from:to]) // a copy, not a window that keeps the whole result alive
	if end < total {
		text += fmt.Sprintf("\n… (lines %d–%d of %d: next ot.result(handle=%q, offset=%d, limit=%d))", offset, end, total, handle, end+1, limit)
	}
	return text, nil
}
