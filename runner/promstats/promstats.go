// Package promstats exports the statistics of runs and tool calls as
// Prometheus metrics (SPEC §7.2): `onetool serve --http` serves them at
// /metrics. A Collector is a runner.StatsSink with its own registry, so
// several servers in one process never share or clash over metrics.
package promstats

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/onetool-dev/onetool/runner"
)

// Collector counts runs and tool calls. Runs and calls are labelled by
// principal with RunStat.PrincipalLabel, which the runner bounds (see
// runner.MaxPrincipalLabels): the label cannot grow without bound.
type Collector struct {
	reg *prometheus.Registry

	runs         *prometheus.CounterVec
	runOverruns  prometheus.Counter
	runDuration  *prometheus.HistogramVec
	runBytes     *prometheus.CounterVec
	calls        *prometheus.CounterVec
	callDuration *prometheus.HistogramVec
	callBytes    *prometheus.CounterVec
}

var _ runner.StatsSink = (*Collector)(nil)

// New returns a Collector whose registry also holds the Go runtime and
// process collectors.
func New() *Collector {
	c := &Collector{
		reg: prometheus.NewRegistry(),
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "onetool_runs_total",
			Help: "Programs run, by outcome (ok, or the kind of error: runtime, limit, syntax, …) and principal (serve.auth; empty without it).",
		}, []string{"outcome", "principal"}),
		runOverruns: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "onetool_run_overruns_total",
			Help: "Runs whose computation outlived their deadline or cancellation and was cut off from outside (under isolation: process, its worker was killed and replaced).",
		}),
		runDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "onetool_run_duration_seconds",
			Help:    "Wall-clock time of runs, by principal.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 4, 10), // 100µs … 26s
		}, []string{"principal"}),
		runBytes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "onetool_run_bytes_total",
			Help: "Bytes of programs received (in) and of texts returned (out).",
		}, []string{"direction"}),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "onetool_tool_calls_total",
			Help: "Tool calls, by tool, outcome (ok, cached, or the kind of error: validation, execution, timeout, …) and principal.",
		}, []string{"tool", "outcome", "principal"}),
		callDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "onetool_tool_call_duration_seconds",
			Help:    "Time of tool calls, by tool.",
			Buckets: prometheus.ExponentialBuckets(0.00001, 4, 11), // 10µs … 10s
		}, []string{"tool"}),
		callBytes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "onetool_tool_call_bytes_total",
			Help: "Bytes of tool arguments (in) and results (out), as JSON, by tool.",
		}, []string{"tool", "direction"}),
	}
	c.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		c.runs, c.runOverruns, c.runDuration, c.runBytes, c.calls, c.callDuration, c.callBytes,
	)
	return c
}

// RecordRun counts a finished run.
func (c *Collector) RecordRun(st runner.RunStat) {
	outcome := "ok"
	if !st.OK {
		outcome = st.ErrorKind
	}
	c.runs.WithLabelValues(outcome, st.PrincipalLabel).Inc()
	if st.Overrun {
		c.runOverruns.Inc()
	}
	c.runDuration.WithLabelValues(st.PrincipalLabel).Observe(st.Duration.Seconds())
	c.runBytes.WithLabelValues("in").Add(float64(st.BytesIn))
	c.runBytes.WithLabelValues("out").Add(float64(st.BytesOut))
}

// RecordCall counts a finished tool call.
func (c *Collector) RecordCall(st runner.CallStat) {
	outcome := "ok"
	switch {
	case !st.OK:
		outcome = st.ErrorKind
	case st.Cached:
		outcome = "cached"
	}
	c.calls.WithLabelValues(st.Tool, outcome, st.PrincipalLabel).Inc()
	c.callDuration.WithLabelValues(st.Tool).Observe(st.Duration.Seconds())
	c.callBytes.WithLabelValues(st.Tool, "in").Add(float64(st.BytesIn))
	c.callBytes.WithLabelValues(st.Tool, "out").Add(float64(st.BytesOut))
}

// Handler serves the metrics in the Prometheus text format.
func (c *Collector) Handler() http.Handler {
	return promhttp.HandlerFor(c.reg, promhttp.HandlerOpts{})
}
