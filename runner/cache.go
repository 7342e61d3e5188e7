package runner

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"sync"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner/plan"
)

// resultCache keeps results of deterministic tools (SPEC §4.4), keyed by
// the SHA-256 of the canonical JSON of {id, version, args}. Entries are
// stored and handed out as deep copies, so a caller that mutates a result
// never changes what the next caller gets. Bounded by entries and bytes
// (the size of a result's JSON), least recently used first out.
type resultCache struct {
	mu         sync.Mutex
	maxEntries int
	maxBytes   int64
	bytes      int64
	entries    map[string]*list.Element
	lru        list.List // of *cacheEntry, most recent first
	hits       int64
	misses     int64
}

type cacheEntry struct {
	key   string
	value any
	size  int64
}

// CacheStats are the counters of the result cache.
type CacheStats struct {
	Hits, Misses int64
	Entries      int
	Bytes        int64
}

func newResultCache(maxEntries int, maxBytes int64) *resultCache {
	return &resultCache{maxEntries: maxEntries, maxBytes: maxBytes, entries: make(map[string]*list.Element)}
}

// cacheKey is the key of a call, or "" when the arguments have no
// canonical JSON form (such calls are not cached).
// scalarArgs reports whether every argument is a number, a bool, null or a
// string shorter than maxKeyedArgs: the usual call, sized without a walk.
func scalarArgs(args map[string]any) bool {
	total := 0
	for _, v := range args {
		switch v := v.(type) {
		case nil, bool, int64, int, float64:
		case string:
			total += len(v)
		default:
			return false
		}
	}
	return total < maxKeyedArgs
}

// maxKeyedArgs bounds the arguments of a call that is cached.
const maxKeyedArgs = 1 << 20

func cacheKey(t *packs.Tool, args map[string]any) string {
	// Arguments larger than this are not worth a key: hashing them costs
	// as much as the call, and ones built from shared parts (a plan
	// template that repeats a result) would take exponential time.
	if !scalarArgs(args) && plan.Size(args, maxKeyedArgs) > maxKeyedArgs {
		return ""
	}
	m := ordered.NewMap(3)
	m.Set("id", t.ID())
	m.Set("version", t.EffectiveVersion())
	// Plain turns ordered maps into Go maps, which Encode writes with
	// sorted keys: the same arguments in any order give the same key.
	m.Set("args", ordered.Plain(args))
	data, err := ordered.Encode(m)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func (c *resultCache) get(key string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok {
		c.lru.MoveToFront(e)
		c.hits++
		return ordered.Clone(e.Value.(*cacheEntry).value), true
	}
	c.misses++
	return nil, false
}

func (c *resultCache) put(key string, value any) {
	data, err := ordered.Encode(value)
	if err != nil {
		return // no JSON form: not cacheable
	}
	size := int64(len(data)) + int64(len(key))
	if size > c.maxBytes {
		return
	}
	stored := ordered.Clone(value)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok {
		old := e.Value.(*cacheEntry)
		c.bytes += size - old.size
		old.value, old.size = stored, size
		c.lru.MoveToFront(e)
	} else {
		c.entries[key] = c.lru.PushFront(&cacheEntry{key: key, value: stored, size: size})
		c.bytes += size
	}
	for c.lru.Len() > c.maxEntries || c.bytes > c.maxBytes {
		old := c.lru.Remove(c.lru.Back()).(*cacheEntry)
		delete(c.entries, old.key)
		c.bytes -= old.size
	}
}

func (c *resultCache) stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return CacheStats{Hits: c.hits, Misses: c.misses, Entries: c.lru.Len(), Bytes: c.bytes}
}
