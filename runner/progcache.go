package runner

import (
	"container/list"
	"sync"

	"github.com/onetool-dev/onetool/interp"
)

// progCache keeps compiled programs by their code, so that a program sent
// again (a retry, a loop in a Go caller, a REPL line) skips parsing and
// compiling, about half the cost of a small run. Compiled programs are
// immutable and safe to share. Bounded by entries and by code size.
type progCache struct {
	mu      sync.Mutex
	max     int
	entries map[string]*list.Element
	lru     list.List // of *progEntry, most recent first
}

type progEntry struct {
	code string
	prog *interp.Program
}

// maxCachedCode is the largest program kept: big programs are rarely sent
// twice and would crowd out many small ones.
const maxCachedCode = 16 << 10

func newProgCache(max int) *progCache {
	return &progCache{max: max, entries: make(map[string]*list.Element)}
}

func (c *progCache) get(code string) *interp.Program {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[code]; ok {
		c.lru.MoveToFront(e)
		return e.Value.(*progEntry).prog
	}
	return nil
}

func (c *progCache) put(code string, p *interp.Program) {
	if c.max <= 0 || len(code) > maxCachedCode {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[code]; ok {
		return
	}
	c.entries[code] = c.lru.PushFront(&progEntry{code, p})
	for c.lru.Len() > c.max {
		old := c.lru.Remove(c.lru.Back()).(*progEntry)
		delete(c.entries, old.code)
	}
}
