package search

import (
	"slices"
	"sync"
)

// cacheSize is how many indexes a Cache keeps: one per distinct set of
// documents in use (the whole registry, and the views of a few
// principals that see less of it).
const cacheSize = 4

// Cache keeps the indexes of the last few sets of documents it was asked
// for, so that a caller whose documents rarely change (the tools of a
// registry) pays for building an index once, not on every search: building
// one for 500 tools costs milliseconds, searching it microseconds. It is
// safe for concurrent use; a nil *Cache caches nothing.
type Cache struct {
	mu      sync.Mutex
	entries []cacheEntry // most recently used last
}

type cacheEntry struct {
	key []any
	ix  *Index
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{} }

// Index returns the index of the documents that key identifies, calling
// docs to build it when the cache has none. The key lists comparable
// values (pointers, strings) that change whenever the documents do, such
// as each tool's pointer and each pack's description; building the key
// must cost far less than docs.
func (c *Cache) Index(key []any, docs func() []Doc) *Index {
	if c == nil {
		return New(docs())
	}
	c.mu.Lock()
	for i, e := range c.entries {
		if slices.Equal(e.key, key) {
			c.entries = append(slices.Delete(c.entries, i, i+1), e)
			c.mu.Unlock()
			return e.ix
		}
	}
	c.mu.Unlock()
	// Built outside the lock: two searches that miss together build twice
	// rather than one waiting on the other.
	ix := New(docs())
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) == cacheSize {
		c.entries = slices.Delete(c.entries, 0, 1)
	}
	c.entries = append(c.entries, cacheEntry{slices.Clone(key), ix})
	return ix
}
