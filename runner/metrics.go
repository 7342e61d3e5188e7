package runner

import (
	"slices"
	"sync"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// metrics are the per-tool counters of ot.stats() (SPEC §6.4, §7.2).
type metrics struct {
	mu    sync.Mutex
	tools map[string]*toolMetrics
}

type toolMetrics struct {
	calls, failures, retries, cacheHits int64
	total                               time.Duration
}

func newMetrics() *metrics { return &metrics{tools: map[string]*toolMetrics{}} }

func (m *metrics) tool(id string) *toolMetrics {
	t, ok := m.tools[id]
	if !ok {
		t = &toolMetrics{}
		m.tools[id] = t
	}
	return t
}

// record counts one finished call.
func (m *metrics) record(id string, d time.Duration, failed, cached bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.tool(id)
	t.calls++
	t.total += d
	if failed {
		t.failures++
	}
	if cached {
		t.cacheHits++
	}
}

// retried counts attempts of a plan step beyond its first.
func (m *metrics) retried(id string, n int) {
	if n <= 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tool(id).retries += int64(n)
}

// snapshot is the "tools" part of ot.stats(), sorted by tool id.
func (m *metrics) snapshot() *ordered.Map {
	m.mu.Lock()
	defer m.mu.Unlock()
	ids := make([]string, 0, len(m.tools))
	for id := range m.tools {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := ordered.NewMap(len(ids))
	for _, id := range ids {
		t := m.tools[id]
		e := ordered.NewMap(6)
		e.Set("calls", t.calls)
		e.Set("failures", t.failures)
		e.Set("retries", t.retries)
		e.Set("cache_hits", t.cacheHits)
		total := float64(t.total.Microseconds()) / 1000
		e.Set("total_ms", total)
		mean := 0.0
		if t.calls > 0 {
			mean = total / float64(t.calls)
		}
		e.Set("mean_ms", mean)
		out.Set(id, e)
	}
	return out
}
