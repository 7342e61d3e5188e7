package web

import (
	"sync"
	"time"
)

// docCache keeps documents that were returned in parts, so that the calls
// for the next parts (start > 0) read the same text without fetching and
// converting the page again. A call from start 0 always fetches.
type docCache struct {
	mu      sync.Mutex
	entries []cacheEntry // oldest first
	size    int
	now     func() time.Time
}

type cacheEntry struct {
	key, doc string
	at       time.Time
}

const (
	cacheTTL        = 10 * time.Minute
	cacheMaxEntries = 16
	cacheMaxBytes   = 64 << 20
)

func newDocCache() *docCache { return &docCache{now: time.Now} }

func (c *docCache) get(key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.expire()
	for _, e := range c.entries {
		if e.key == key {
			return e.doc, true
		}
	}
	return "", false
}

func (c *docCache) put(key, doc string) {
	if len(doc) > cacheMaxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.remove(key)
	c.entries = append(c.entries, cacheEntry{key: key, doc: doc, at: c.now()})
	c.size += len(doc)
	for len(c.entries) > cacheMaxEntries || c.size > cacheMaxBytes {
		c.size -= len(c.entries[0].doc)
		c.entries = c.entries[1:]
	}
}

func (c *docCache) remove(key string) {
	for i, e := range c.entries {
		if e.key == key {
			c.size -= len(e.doc)
			c.entries = append(c.entries[:i:i], c.entries[i+1:]...)
			return
		}
	}
}

// expire drops entries older than cacheTTL (they are in age order).
func (c *docCache) expire() {
	cutoff := c.now().Add(-cacheTTL)
	n := 0
	for n < len(c.entries) && c.entries[n].at.Before(cutoff) {
		c.size -= len(c.entries[n].doc)
		n++
	}
	if n > 0 {
		c.entries = append([]cacheEntry(nil), c.entries[n:]...)
	}
}
