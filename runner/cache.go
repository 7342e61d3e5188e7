package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sync/atomic"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner/plan"
	"github.com/onetool-dev/onetool/runner/store"
)

// resultCache keeps results of deterministic tools (SPEC §4.4), keyed by
// the SHA-256 of the canonical JSON of {id, version, args}. Embedded, an
// entry is a deep copy of the result, handed out as another copy, and the
// cache is bounded by entries and bytes (the size of a result's JSON and
// its key), least recently used first out. In a shared store an entry is
// the result's JSON, decoded afresh on each hit, bounded in size and kept
// for store.DefaultRedisTTL. Either way a caller that mutates a result
// never changes what the next caller gets, and a store that fails is a
// miss: the tool runs instead.
type resultCache struct {
	st         store.Store
	maxEntries int
	maxBytes   int64
	hits       atomic.Int64
	misses     atomic.Int64
}

// CacheStats are the counters of the result cache. Entries and Bytes are
// those of the embedded cache; with a shared store they stay 0.
type CacheStats struct {
	Hits, Misses int64
	Entries      int
	Bytes        int64
}

func newResultCache(maxEntries int, maxBytes int64) *resultCache {
	return &resultCache{
		st:         store.NewMemory(store.MemoryOptions{MaxEntries: maxEntries, MaxBytes: maxBytes, LRU: true}),
		maxEntries: maxEntries, maxBytes: maxBytes,
	}
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

func (c *resultCache) get(ctx context.Context, key string) (any, bool) {
	if vs, ok := c.st.(store.ValueStore); ok {
		// Embedded: the value as it was stored, copied, as fast as before
		// there was a store.
		if v, err := vs.GetValue(ctx, key); err == nil {
			c.hits.Add(1)
			return ordered.Clone(v), true
		}
		c.misses.Add(1)
		return nil, false
	}
	if data, err := c.st.Get(ctx, key); err == nil {
		if v, err := ordered.Decode(data); err == nil {
			c.hits.Add(1)
			return v, true
		}
	}
	c.misses.Add(1)
	return nil, false
}

func (c *resultCache) put(ctx context.Context, key string, value any) {
	data, err := ordered.Encode(value)
	if err != nil {
		return // no JSON form: not cacheable
	}
	if int64(len(data)+len(key)) > c.maxBytes {
		return
	}
	if vs, ok := c.st.(store.ValueStore); ok {
		_ = vs.SetValue(ctx, key, ordered.Clone(value), int64(len(data)+len(key)), 0)
		return
	}
	_ = c.st.Set(ctx, key, data, 0) // a store that fails only costs a later miss
}

func (c *resultCache) stats() CacheStats {
	s := CacheStats{Hits: c.hits.Load(), Misses: c.misses.Load()}
	if sz, ok := c.st.(store.Sizer); ok {
		s.Entries, s.Bytes = sz.Len()
	}
	return s
}
