package store

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrTooLarge is the cause of a Set whose value alone exceeds a Memory
// store's byte bound: keeping it would mean holding more than the bound,
// or forgetting everything else for it.
var ErrTooLarge = errors.New("value larger than the whole store")

// MemoryOptions bound a Memory store.
type MemoryOptions struct {
	MaxEntries int   // at most this many values; <= 0: no bound
	MaxBytes   int64 // at most this many bytes of keys and values; <= 0: no bound
	// LRU makes a Get count as a use, so the least recently used value
	// goes first when full; otherwise the oldest stored goes first.
	LRU bool
	Now func() time.Time // the clock (tests); nil: time.Now
}

// MemoryStore is the embedded Store: a map in this process, bounded in
// entries and bytes, that never fails for lack of a network.
type MemoryStore struct {
	opts     MemoryOptions
	mu       sync.Mutex
	entries  map[string]*list.Element
	order    list.List // of *memEntry, most recent first
	bytes    int64
	counters map[string]*memCounter
}

type memEntry struct {
	key     string
	value   []byte
	obj     any       // set by SetValue instead of value
	expires time.Time // zero: never
	size    int64
}

type memCounter struct {
	n       int64
	expires time.Time
}

// sweepCounters is how many counters may accumulate before expired ones
// are dropped: counters are per principal and window, so few live at once.
const sweepCounters = 4096

// NewMemory returns an empty Memory store with the given bounds.
func NewMemory(o MemoryOptions) *MemoryStore {
	if o.Now == nil {
		o.Now = time.Now
	}
	return &MemoryStore{opts: o, entries: map[string]*list.Element{}, counters: map[string]*memCounter{}}
}

// Get implements Store. It returns the stored slice itself, not a copy:
// callers must not modify it (the runner only reads), which keeps paging
// through a large result as cheap as it was before the store existed.
func (m *MemoryStore) Get(ctx context.Context, key string) ([]byte, error) {
	e, err := m.lookup(ctx, key)
	if err != nil {
		return nil, err
	}
	if e.obj != nil {
		return nil, fmt.Errorf("%q holds a Go value (SetValue), not bytes", key)
	}
	return e.value, nil
}

// GetValue implements ValueStore.
func (m *MemoryStore) GetValue(ctx context.Context, key string) (any, error) {
	e, err := m.lookup(ctx, key)
	if err != nil {
		return nil, err
	}
	if e.obj == nil {
		return nil, fmt.Errorf("%q holds bytes (Set), not a Go value", key)
	}
	return e.obj, nil
}

// lookup finds a live entry and marks its use.
func (m *MemoryStore) lookup(ctx context.Context, key string) (*memEntry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.opts.Now()
	m.expireOldest(now)
	el, ok := m.entries[key]
	if !ok {
		return nil, fmt.Errorf("%q: %w", key, ErrNotFound)
	}
	e := el.Value.(*memEntry)
	if expired(e.expires, now) {
		m.remove(el)
		return nil, fmt.Errorf("%q: %w", key, ErrNotFound)
	}
	if m.opts.LRU {
		m.order.MoveToFront(el)
	}
	return e, nil
}

// Set implements Store. A value larger than MaxBytes is refused with
// ErrTooLarge; otherwise the oldest (or least recently used) values make
// room.
func (m *MemoryStore) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	return m.set(ctx, &memEntry{key: key, value: value, size: int64(len(key) + len(value))}, ttl)
}

// SetValue implements ValueStore; v must not be nil.
func (m *MemoryStore) SetValue(ctx context.Context, key string, v any, size int64, ttl time.Duration) error {
	if v == nil {
		return fmt.Errorf("%q: SetValue of nil", key)
	}
	return m.set(ctx, &memEntry{key: key, obj: v, size: size}, ttl)
}

func (m *MemoryStore) set(ctx context.Context, e *memEntry, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	key, size := e.key, e.size
	if m.opts.MaxBytes > 0 && size > m.opts.MaxBytes {
		return fmt.Errorf("%q takes %d bytes, the store at most %d: %w", key, size, m.opts.MaxBytes, ErrTooLarge)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.opts.Now()
	if ttl > 0 {
		e.expires = now.Add(ttl)
	}
	m.expireOldest(now)
	if el, ok := m.entries[key]; ok {
		m.remove(el)
	}
	for m.order.Len() > 0 && ((m.opts.MaxEntries > 0 && m.order.Len() >= m.opts.MaxEntries) ||
		(m.opts.MaxBytes > 0 && m.bytes+size > m.opts.MaxBytes)) {
		m.remove(m.order.Back())
	}
	m.entries[key] = m.order.PushFront(e)
	m.bytes += size
	return nil
}

// Delete implements Store.
func (m *MemoryStore) Delete(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if el, ok := m.entries[key]; ok {
		m.remove(el)
	}
	delete(m.counters, key)
	return nil
}

// Incr implements Store.
func (m *MemoryStore) Incr(ctx context.Context, key string, ttl time.Duration) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.opts.Now()
	c, ok := m.counters[key]
	if !ok || expired(c.expires, now) {
		if len(m.counters) >= sweepCounters {
			for k, c := range m.counters {
				if expired(c.expires, now) {
					delete(m.counters, k)
				}
			}
		}
		c = &memCounter{}
		if ttl > 0 {
			c.expires = now.Add(ttl)
		}
		m.counters[key] = c
	}
	c.n++
	return c.n, nil
}

// Close implements Store; a Memory store holds nothing to release.
func (m *MemoryStore) Close() error { return nil }

// Len implements Sizer: the values held (expired ones not yet dropped
// included) and their bytes.
func (m *MemoryStore) Len() (int, int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.order.Len(), m.bytes
}

// expireOldest drops expired values from the oldest end. With one TTL for
// every value (how the runner uses a store) that is all of them; others
// are dropped when read. m.mu is held.
func (m *MemoryStore) expireOldest(now time.Time) {
	for m.order.Len() > 0 && expired(m.order.Back().Value.(*memEntry).expires, now) {
		m.remove(m.order.Back())
	}
}

func (m *MemoryStore) remove(el *list.Element) {
	e := m.order.Remove(el).(*memEntry)
	delete(m.entries, e.key)
	m.bytes -= e.size
}

func expired(t, now time.Time) bool { return !t.IsZero() && t.Before(now) }
