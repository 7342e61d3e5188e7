package runner

import (
	"maps"
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

	mu   sync.Mutex // guards runs
	runs runMetrics

	overruns atomic.Int64 // runs answered while their computation went on past the deadline

	principals principalLabels
}

// MaxPrincipalLabels is how many distinct principal names a runner's
// statistics and metrics keep apart; runs of later ones count under
// OtherPrincipals. Static tokens name a fixed set, but an OAuth subject
// comes from the token: without a bound, every new subject would add
// series to every metric labelled by principal.
const MaxPrincipalLabels = 100

// OtherPrincipals is the label of principals beyond MaxPrincipalLabels.
// A token's name cannot be it (names are letters, digits, _ and -).
const OtherPrincipals = "(other)"

// principalLabels hands out bounded labels for principal names.
type principalLabels struct {
	mu   sync.Mutex
	seen map[string]bool
}

// label is name, or OtherPrincipals once MaxPrincipalLabels others have
// been seen; "" stays "".
func (p *principalLabels) label(name string) string {
	if name == "" {
		return ""
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.seen[name] {
		return name
	}
	if len(p.seen) >= MaxPrincipalLabels {
		return OtherPrincipals
	}
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	p.seen[name] = true
	return name
}

// overrun counts one run that outlived its deadline or cancellation.
func (m *metrics) overrun() { m.overruns.Add(1) }

// runMetrics sum up finished runs.
type runMetrics struct {
	runs, failures, toolCalls int64
	bytesIn, bytesOut         int64
	totalNanos                int64
	byKind                    map[string]int64 // failures by error kind
	byPrincipal               map[string]*principalRuns
}

// principalRuns count the runs of one principal label.
type principalRuns struct{ runs, failures int64 }

// run counts one finished run.
func (m *metrics) run(st RunStat) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := &m.runs
	r.runs++
	r.toolCalls += int64(st.ToolCalls)
	r.bytesIn += int64(st.BytesIn)
	r.bytesOut += int64(st.BytesOut)
	r.totalNanos += int64(st.Duration)
	if !st.OK {
		r.failures++
		if r.byKind == nil {
			r.byKind = map[string]int64{}
		}
		r.byKind[st.ErrorKind]++
	}
	if st.PrincipalLabel != "" {
		if r.byPrincipal == nil {
			r.byPrincipal = map[string]*principalRuns{}
		}
		pr := r.byPrincipal[st.PrincipalLabel]
		if pr == nil {
			pr = &principalRuns{}
			r.byPrincipal[st.PrincipalLabel] = pr
		}
		pr.runs++
		if !st.OK {
			pr.failures++
		}
	}
}

// runSnapshot is the "runs" part of ot.stats().
func (m *metrics) runSnapshot() *ordered.Map {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.runs
	out := ordered.NewMap(11)
	out.Set("runs", r.runs)
	out.Set("failures", r.failures)
	kinds := make([]string, 0, len(r.byKind))
	for k := range r.byKind {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	byKind := ordered.NewMap(len(kinds))
	for _, k := range kinds {
		byKind.Set(k, r.byKind[k])
	}
	out.Set("failures_by_kind", byKind)
	out.Set("overruns", m.overruns.Load())
	out.Set("tool_calls", r.toolCalls)
	total := float64(r.totalNanos/1000) / 1000
	out.Set("total_ms", total)
	mean := 0.0
	if r.runs > 0 {
		mean = total / float64(r.runs)
	}
	out.Set("mean_ms", mean)
	out.Set("bytes_in", r.bytesIn)
	out.Set("bytes_out", r.bytesOut)
	if len(r.byPrincipal) > 0 { // only a server with serve.auth has principals
		byPrincipal := ordered.NewMap(len(r.byPrincipal))
		for _, name := range slices.Sorted(maps.Keys(r.byPrincipal)) {
			pr := ordered.NewMap(2)
			pr.Set("runs", r.byPrincipal[name].runs)
			pr.Set("failures", r.byPrincipal[name].failures)
			byPrincipal.Set(name, pr)
		}
		out.Set("by_principal", byPrincipal)
	}
	return out
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
