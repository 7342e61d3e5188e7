package runner

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// metrics are the per-tool counters of ot.stats() (SPEC §6.4, §7.2).
// Counting is on every call's path, so counters are atomics in a
// sync.Map: no lock once a tool has been seen.
type metrics struct {
	tools sync.Map // tool id → *toolMetrics
}

type toolMetrics struct {
	calls, failures, retries, cacheHits atomic.Int64
	totalNanos                          atomic.Int64
}

func newMetrics() *metrics { return &metrics{} }

func (m *metrics) tool(id string) *toolMetrics {
	if t, ok := m.tools.Load(id); ok {
		return t.(*toolMetrics)
	}
	t, _ := m.tools.LoadOrStore(id, &toolMetrics{})
	return t.(*toolMetrics)
}

// record counts one finished call.
func (m *metrics) record(id string, d time.Duration, failed, cached bool) {
	t := m.tool(id)
	t.calls.Add(1)
	t.totalNanos.Add(int64(d))
	if failed {
		t.failures.Add(1)
	}
	if cached {
		t.cacheHits.Add(1)
	}
}

// retried counts attempts of a plan step beyond its first.
func (m *metrics) retried(id string, n int) {
	if n > 0 {
		m.tool(id).retries.Add(int64(n))
	}
}

// snapshot is the "tools" part of ot.stats(), sorted by tool id.
func (m *metrics) snapshot() *ordered.Map {
	var ids []string
	m.tools.Range(func(k, _ any) bool {
		ids = append(ids, k.(string))
		return true
	})
	slices.Sort(ids)
	out := ordered.NewMap(len(ids))
	for _, id := range ids {
		t := m.tool(id)
		calls := t.calls.Load()
		e := ordered.NewMap(6)
		e.Set("calls", calls)
		e.Set("failures", t.failures.Load())
		e.Set("retries", t.retries.Load())
		e.Set("cache_hits", t.cacheHits.Load())
		total := float64(t.totalNanos.Load()/1000) / 1000
		e.Set("total_ms", total)
		mean := 0.0
		if calls > 0 {
			mean = total / float64(calls)
		}
		e.Set("mean_ms", mean)
		out.Set(id, e)
	}
	return out
}
