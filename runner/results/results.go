// Package results keeps the large results of runs (SPEC §7.3) and pages
// through them for ot.result.
//
// A result longer than output.max_inline characters is stored under a
// handle, and the run returns a preview that ends with the ot.result call
// that reads on: by lines when the preview ends at a line break, by
// characters when it ends inside a long line. A compact JSON value is
// laid out one member per line before it is stored, so that lines and
// search= find its items. Pages are bounded in lines and in characters:
// a line longer than a page is itself paged by characters, never
// returned whole or cut silently.
//
// The store is bounded in entries and bytes, forgets a result after a
// while, and keeps each result for the principal whose run made it: a
// long-lived server cannot be made to hold every big answer it ever gave,
// and one principal can neither read nor push out another's results.
// Results live in a store.Store: the embedded memory store, or a Redis
// that every replica shares.
package results

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/runner/store"
)

// Bounds of the store.
const (
	TTL        = 30 * time.Minute
	MaxEntries = 100
	MaxBytes   = 256 << 20
)

// ErrUnknownHandle is the cause of ot.result calls with a handle that was
// never given out, has expired, or belongs to another principal.
var ErrUnknownHandle = errors.New("unknown result handle")

// ErrTooLarge is the cause of a result that would take more than the
// whole store (a principal's share of it) to keep; it matches
// interp.ErrLimit too.
var ErrTooLarge = fmt.Errorf("result too large to keep: %w", interp.ErrLimit)

// errBadResult is the cause of stored bytes that are not a result.
var errBadResult = errors.New("the stored result is damaged or from another version of onetool")

// Options bound a Store; zero fields take the defaults above.
type Options struct {
	MaxEntries int              // results kept at most
	MaxBytes   int              // bytes kept at most; a result that would take more is refused
	Now        func() time.Time // the memory store's clock (tests)
}

// Store keeps large results in a store.Store. Safe for concurrent use.
type Store struct {
	st         store.Store
	maxEntries int
	maxSum     int

	// What each principal keeps (SPEC §8.4), oldest first: a principal
	// holds at most a share of the store (1/ownerShare of its results
	// and bytes), so that one principal's results cannot push out every
	// other's. Made on first use.
	mu     sync.Mutex
	owners map[string][]ownedResult
}

// ownerShare is the part of the store one principal may hold: a quarter,
// so that no single one can push another's results out.
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

func (o Options) withDefaults() Options {
	if o.MaxEntries <= 0 {
		o.MaxEntries = MaxEntries
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = MaxBytes
	}
	return o
}

// New keeps results in st (a shared store, its keys already prefixed):
// st enforces the TTL; the Store refuses what exceeds o.MaxBytes and
// keeps each principal to its share.
func New(st store.Store, o Options) *Store {
	o = o.withDefaults()
	return &Store{st: st, maxEntries: o.MaxEntries, maxSum: o.MaxBytes}
}

// NewMemory is the embedded store: at most o.MaxEntries results and
// o.MaxBytes bytes, the oldest forgotten first.
func NewMemory(o Options) *Store {
	o = o.withDefaults()
	return New(store.NewMemory(store.MemoryOptions{MaxEntries: o.MaxEntries, MaxBytes: int64(o.MaxBytes), Now: o.Now}), o)
}

// A stored result belongs to the principal whose run made it (SPEC
// §8.4): it is kept under a key made of its handle and its owner's
// identity (auth.Principal.Key, "" for runs nobody authenticated), and
// read under the reader's, so another principal's handle is simply not
// found, with the same message as a handle never given out: handles
// cannot be probed.

// handleLen is the length of a handle: "r" and 10 characters of
// rand.Text, lowered.
const handleLen = 11

// key is where the result handle of owner is kept; ok is false for a
// text that is no handle (it could otherwise name another owner's key).
func key(handle, owner string) (k string, ok bool) {
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
func (s *Store) put(ctx context.Context, text, owner string) (string, error) {
	limit := s.maxSum
	if owner != "" {
		limit /= ownerShare
	}
	if len(text) > limit {
		return "", s.tooLarge(len(text), owner)
	}
	id := "r" + strings.ToLower(rand.Text()[:handleLen-1])
	k, _ := key(id, owner)
	value := encode(text)
	size := len(k) + len(value)
	if size > limit {
		return "", s.tooLarge(size, owner)
	}
	if err := s.st.Set(ctx, k, value, TTL); err != nil {
		if errors.Is(err, store.ErrTooLarge) {
			return "", s.tooLarge(len(value), owner)
		}
		return "", fmt.Errorf("the result is longer than output.max_inline and could not be kept for ot.result: %w; "+
			"return less (a slice, a filter, a summary) or try again when the store is back", err)
	}
	if owner != "" {
		s.own(ctx, owner, k, size)
	}
	return id, nil
}

// own records that owner keeps k, and forgets owner's oldest results
// beyond its share of the store.
func (s *Store) own(ctx context.Context, owner, k string, size int) {
	now := time.Now()
	s.mu.Lock()
	if s.owners == nil {
		s.owners = map[string][]ownedResult{}
	}
	list := s.owners[owner]
	for len(list) > 0 && now.Sub(list[0].at) > TTL { // gone from the store already
		list = list[1:]
	}
	list = append(list, ownedResult{k, size, now})
	total := 0
	for _, o := range list {
		total += o.size
	}
	var drop []string
	for len(list) > 1 && (len(list) > s.maxEntries/ownerShare || total > s.maxSum/ownerShare) {
		drop = append(drop, list[0].key)
		total -= list[0].size
		list = list[1:]
	}
	s.owners[owner] = slices.Clone(list) // not a window that keeps what it dropped
	if len(s.owners) > sweepOwners {
		for o, l := range s.owners { // principals whose results have all expired
			if now.Sub(l[len(l)-1].at) > TTL {
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
func (s *Store) tooLarge(size int, owner string) error {
	limit, whose := s.maxSum, ""
	if owner != "" {
		limit, whose = s.maxSum/ownerShare, " (each principal's share of the store)"
	}
	return interp.NewError(interp.KindLimit, 0, 0, fmt.Sprintf(
		"the result is too large to keep: it takes %s, and results longer than output.max_inline are kept for ot.result only up to %s%s. "+
			"Return less: a slice (x[:100]), the items that match a filter, or a summary (len, counts); "+
			"or write it to a file with file.write (append=True adds the next part) and return the path",
		interp.ApproxBytes(int64(size)), interp.FormatBytes(int64(limit)), whose), ErrTooLarge)
}

// get reads a result owner stored: ErrUnknownHandle when the store has
// none (or one of another owner), the store's error (unreachable, say)
// otherwise.
func (s *Store) get(ctx context.Context, id, owner string) (*stored, error) {
	k, ok := key(id, owner)
	var b []byte
	err := store.ErrNotFound
	if ok {
		b, err = s.st.Get(ctx, k)
	}
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("%w %q: results are kept for %s and at most %d at a time; run the program again to get it anew", ErrUnknownHandle, id, TTL, s.maxEntries)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read result %q: %w; try again when the store is back", id, err)
	}
	r, err := decode(b)
	if err != nil {
		return nil, fmt.Errorf("cannot read result %q: %w; run the program again to get it anew", id, err)
	}
	return r, nil
}

// Held is what the store holds, in results and bytes, when its store.Store
// can tell (the memory store can); false otherwise.
func (s *Store) Held() (entries int, bytes int64, ok bool) {
	sz, ok := s.st.(store.Sizer)
	if !ok {
		return 0, 0, false
	}
	entries, bytes = sz.Len()
	return entries, bytes, true
}
