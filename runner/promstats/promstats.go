// Package promstats exports the statistics of runs and tool calls as
// Prometheus metrics (SPEC §7.2): `onetool serve --http` serves them at
// /metrics. A Collector is a runner.StatsSink with its own set of
// metrics, so several servers in one process never share or clash over
// them.
//
// The metrics are github.com/VictoriaMetrics/metrics, not the Prometheus
// client: every start of onetool links and initialises what promstats
// imports, and the Prometheus client (with procfs, client_model and
// protobuf) cost each start about 4 ms of package init and 1.7 MB of RSS
// for an endpoint only `serve --http` has (docs/design.md, Libraries).
package promstats

import (
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/VictoriaMetrics/metrics"

	"github.com/onetool-dev/onetool/runner"
)

// Collector counts runs and tool calls. Runs and calls are labelled by
// principal with RunStat.PrincipalLabel, which the runner bounds (see
// runner.MaxPrincipalLabels): the label cannot grow without bound.
type Collector struct {
	set *metrics.Set
	// Bucket bounds of the two histograms, the same as with the
	// Prometheus client before so that dashboards keep working.
	runBuckets, callBuckets []float64

	runOverruns, runBytesIn, runBytesOut *metrics.Counter

	// The series of a label set are made once, then found with one map
	// lookup under a read lock: no name is built on the path of a run.
	mu        sync.RWMutex
	runs      map[runKey]*runSeries
	calls     map[callKey]*callSeries
	durations map[string]*metrics.PrometheusHistogram // by principal
	tools     map[string]*toolSeries
}

type runKey struct{ outcome, principal string }

type runSeries struct {
	count    *metrics.Counter
	duration *metrics.PrometheusHistogram
}

type callKey struct{ tool, outcome, principal string }

type callSeries struct {
	count *metrics.Counter
	tool  *toolSeries
}

type toolSeries struct {
	duration          *metrics.PrometheusHistogram
	bytesIn, bytesOut *metrics.Counter
}

var _ runner.StatsSink = (*Collector)(nil)

// New returns a Collector. Its Handler also serves the Go runtime and
// process metrics.
func New() *Collector {
	// # TYPE lines (and empty # HELP ones) are a process-wide switch of
	// the library, not a property of a Set. Nothing else in onetool uses
	// the library and every server wants them: turning it on here is
	// idempotent and keeps the switch out of main.
	metrics.ExposeMetadata(true)
	s := metrics.NewSet()
	return &Collector{
		set:         s,
		runBuckets:  metrics.ExponentialBuckets(0.0001, 4, 10),  // 100µs … 26s
		callBuckets: metrics.ExponentialBuckets(0.00001, 4, 11), // 10µs … 10s
		runOverruns: s.NewCounter("onetool_run_overruns_total"),
		runBytesIn:  s.NewCounter(`onetool_run_bytes_total{direction="in"}`),
		runBytesOut: s.NewCounter(`onetool_run_bytes_total{direction="out"}`),
		runs:        make(map[runKey]*runSeries),
		calls:       make(map[callKey]*callSeries),
		durations:   make(map[string]*metrics.PrometheusHistogram),
		tools:       make(map[string]*toolSeries),
	}
}

// RecordRun counts a finished run.
func (c *Collector) RecordRun(st runner.RunStat) {
	k := runKey{outcome: "ok", principal: st.PrincipalLabel}
	if !st.OK {
		k.outcome = st.ErrorKind
	}
	c.mu.RLock()
	s := c.runs[k]
	c.mu.RUnlock()
	if s == nil {
		s = c.newRunSeries(k)
	}
	s.count.Inc()
	if st.Overrun {
		c.runOverruns.Inc()
	}
	s.duration.Update(st.Duration.Seconds())
	c.runBytesIn.Add(st.BytesIn)
	c.runBytesOut.Add(st.BytesOut)
}

func (c *Collector) newRunSeries(k runKey) *runSeries {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.runs[k]; s != nil {
		return s
	}
	s := &runSeries{
		count:    c.set.NewCounter("onetool_runs_total" + labels("outcome", k.outcome, "principal", k.principal)),
		duration: c.durations[k.principal],
	}
	if s.duration == nil {
		s.duration = c.set.NewPrometheusHistogramExt("onetool_run_duration_seconds"+labels("principal", k.principal), c.runBuckets)
		c.durations[k.principal] = s.duration
	}
	c.runs[k] = s
	return s
}

// RecordCall counts a finished tool call.
func (c *Collector) RecordCall(st runner.CallStat) {
	k := callKey{tool: st.Tool, outcome: "ok", principal: st.PrincipalLabel}
	switch {
	case !st.OK:
		k.outcome = st.ErrorKind
	case st.Cached:
		k.outcome = "cached"
	}
	c.mu.RLock()
	s := c.calls[k]
	c.mu.RUnlock()
	if s == nil {
		s = c.newCallSeries(k)
	}
	s.count.Inc()
	s.tool.duration.Update(st.Duration.Seconds())
	s.tool.bytesIn.Add(st.BytesIn)
	s.tool.bytesOut.Add(st.BytesOut)
}

func (c *Collector) newCallSeries(k callKey) *callSeries {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.calls[k]; s != nil {
		return s
	}
	s := &callSeries{
		count: c.set.NewCounter("onetool_tool_calls_total" + labels("outcome", k.outcome, "principal", k.principal, "tool", k.tool)),
		tool:  c.tools[k.tool],
	}
	if s.tool == nil {
		s.tool = &toolSeries{
			duration: c.set.NewPrometheusHistogramExt("onetool_tool_call_duration_seconds"+labels("tool", k.tool), c.callBuckets),
			bytesIn:  c.set.NewCounter("onetool_tool_call_bytes_total" + labels("direction", "in", "tool", k.tool)),
			bytesOut: c.set.NewCounter("onetool_tool_call_bytes_total" + labels("direction", "out", "tool", k.tool)),
		}
		c.tools[k.tool] = s.tool
	}
	c.calls[k] = s
	return s
}

// labels renders name/value pairs as a label set, `{a="x",b="y"}`, in
// the order given (sorted by name at every call site, as Prometheus
// clients write them). The library takes a series as its name with its
// labels, and leaves escaping the values to us: a tool id or a principal
// (an OAuth subject) may hold a quote, a backslash or a newline, which
// would otherwise end the value or the line, and bytes that are not UTF-8,
// which scrapers refuse.
func labels(kv ...string) string {
	esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(kv[i])
		b.WriteString(`="`)
		b.WriteString(esc.Replace(strings.ToValidUTF8(kv[i+1], "\uFFFD")))
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}

// Handler serves the metrics in the Prometheus text format: the
// Collector's own, then those of the Go runtime and of the process;
// gzipped when the scraper accepts it, as Prometheus does.
func (c *Collector) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		if !acceptsGzip(r.Header.Get("Accept-Encoding")) {
			c.write(w)
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Add("Vary", "Accept-Encoding")
		zw := gzip.NewWriter(w)
		c.write(zw)
		zw.Close() // the status is sent: a failed write can only be dropped
	})
}

// acceptsGzip reports whether an Accept-Encoding header names gzip
// without refusing it with q=0.
func acceptsGzip(header string) bool {
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		if !strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			continue
		}
		if k, v, ok := strings.Cut(params, "="); ok && strings.TrimSpace(k) == "q" {
			if q, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && q == 0 {
				return false
			}
		}
		return true
	}
	return false
}

func (c *Collector) write(w io.Writer) {
	c.set.WritePrometheus(w)
	metrics.WriteGoMetrics(w)
	metrics.WriteProcMetrics(w)
	metrics.WriteFDMetrics(w)
}
