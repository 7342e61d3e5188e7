package promstats_test

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/promstats"
)

// The test binary is its own worker for isolation: process.
func TestMain(m *testing.M) {
	if runner.IsWorker() {
		os.Exit(runner.WorkerMain())
	}
	os.Exit(m.Run())
}

// scrape returns the exposition of c.
func scrape(t *testing.T, c *promstats.Collector) string {
	t.Helper()
	srv := httptest.NewServer(c.Handler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return string(body)
}

// Runs and tool calls of a real runner show up in the exposition, by
// outcome and by tool, beside the Go runtime's metrics.
func TestMetricsOfRuns(t *testing.T) {
	c := promstats.New()
	r, err := runner.New(runner.WithStatsSink(c))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	r.Exec(ctx, `demo.foo(text="test")`)
	r.Exec(ctx, `demo.foo(text="test")`) // deterministic: the second is cached
	r.Exec(ctx, `demo.fail(message="x")`)
	r.Exec(ctx, `1 // 0`)

	text := scrape(t, c)
	for _, want := range []string{
		`onetool_runs_total{outcome="ok",principal=""} 2`,
		`onetool_runs_total{outcome="runtime",principal=""} 2`,
		`onetool_tool_calls_total{outcome="ok",principal="",tool="demo.foo"} 1`,
		`onetool_tool_calls_total{outcome="cached",principal="",tool="demo.foo"} 1`,
		`onetool_tool_calls_total{outcome="execution",principal="",tool="demo.fail"} 1`,
		`onetool_run_duration_seconds_count{principal=""} 4`,
		`onetool_tool_call_bytes_total{direction="in",tool="demo.foo"} 30`,
		`onetool_run_bytes_total{direction="out"} 77`,
		"onetool_run_overruns_total 0",
		"go_goroutines ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("exposition lacks %q", want)
		}
	}
}

// A run whose worker had to be killed for overrunning its deadline is
// counted in onetool_run_overruns_total, and as a time-out among the runs.
func TestMetricsOfOverrun(t *testing.T) {
	c := promstats.New()
	r, err := runner.New(runner.WithStatsSink(c), runner.WithIsolation(runner.Isolation{Workers: 1}))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// Hashing 2**40 shared leaves is one long Go call: only the kill ends it.
	res := r.Exec(context.Background(), "a = (1,)\nfor i in range(40):\n    a = (a, a)\nlen({a: 1})",
		runner.RunLimits(runner.Limits{Timeout: 200 * time.Millisecond}))
	if res.Text != "Error: timed out after 200ms (set limits.timeout to raise it)" {
		t.Fatalf("run: %q", res.Text)
	}
	text := scrape(t, c)
	for _, want := range []string{
		"onetool_run_overruns_total 1",
		`onetool_runs_total{outcome="limit",principal=""} 1`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("exposition lacks %q", want)
		}
	}
}

// Runs and calls are labelled with their principal's name; names beyond
// runner.MaxPrincipalLabels share one label, so that subjects taken from
// tokens cannot grow the series without bound.
func TestMetricsByPrincipal(t *testing.T) {
	c := promstats.New()
	r, err := runner.New(runner.WithStatsSink(c))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	dev := auth.NewPolicy("dev", &config.Policy{Allow: []string{"*"}})
	as := func(name string) runner.ExecOption {
		return runner.AsPrincipal(&auth.Principal{Name: name, Policy: dev})
	}
	r.Exec(ctx, `demo.add(a=1, b=2)`, as("alice"))
	r.Exec(ctx, `1 // 0`, as("bob"))
	for i := range runner.MaxPrincipalLabels + 5 {
		r.Exec(ctx, "1", as(fmt.Sprintf("subject-%03d", i)))
	}
	text := scrape(t, c)
	for _, want := range []string{
		`onetool_runs_total{outcome="ok",principal="alice"} 1`,
		`onetool_runs_total{outcome="runtime",principal="bob"} 1`,
		`onetool_tool_calls_total{outcome="ok",principal="alice",tool="demo.add"} 1`,
		`onetool_run_duration_seconds_count{principal="alice"} 1`,
		`onetool_runs_total{outcome="ok",principal="subject-097"} 1`,
		// alice and bob took two of the labels: 98 subjects have their own.
		`onetool_runs_total{outcome="ok",principal="(other)"} 7`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("exposition lacks %q", want)
		}
	}
	if strings.Contains(text, `principal="subject-098"`) {
		t.Error("a principal beyond MaxPrincipalLabels has a label of its own")
	}
}

// Label values are escaped as the text format says: a tool id or a
// principal (an OAuth subject) holding a quote, a backslash or a newline
// cannot end its value or its line early, and bytes that are not UTF-8
// (which scrapers refuse) become U+FFFD instead of breaking the scrape.
func TestMetricsEscapeLabelValues(t *testing.T) {
	c := promstats.New()
	c.RecordRun(runner.RunStat{OK: true, PrincipalLabel: "a\"b\\c\nd\xff"})
	c.RecordCall(runner.CallStat{Tool: `up."quoted\tool"`, OK: true, PrincipalLabel: "a\"b\\c\nd\xff"})
	text := scrape(t, c)
	for _, want := range []string{
		`onetool_runs_total{outcome="ok",principal="a\"b\\c\nd` + "\uFFFD" + `"} 1`,
		`onetool_run_duration_seconds_count{principal="a\"b\\c\nd` + "\uFFFD" + `"} 1`,
		`onetool_tool_calls_total{outcome="ok",principal="a\"b\\c\nd` + "\uFFFD" + `",tool="up.\"quoted\\tool\""} 1`,
		`onetool_tool_call_bytes_total{direction="in",tool="up.\"quoted\\tool\""} 0`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("exposition lacks %q", want)
		}
	}
	// Every line is a comment or a sample: no value spilled onto a line
	// of its own.
	for line := range strings.Lines(text) {
		if !strings.HasPrefix(line, "# ") && !strings.HasPrefix(line, "go_") && !strings.HasPrefix(line, "process_") && !strings.HasPrefix(line, "onetool_") {
			t.Errorf("stray line %q", line)
		}
	}
}

// Each family has its # TYPE line, and the histograms keep their buckets
// (100µs … 26s for runs, 10µs … 10s for tool calls) with _sum and _count,
// so that dashboards and alerts built on them keep working.
func TestMetricsTypesAndBuckets(t *testing.T) {
	c := promstats.New()
	c.RecordRun(runner.RunStat{OK: true, Duration: 3 * time.Millisecond})
	c.RecordCall(runner.CallStat{Tool: "demo.foo", OK: true, Duration: 200 * time.Microsecond})
	text := scrape(t, c)
	for _, want := range []string{
		"# TYPE onetool_runs_total counter\n",
		"# TYPE onetool_run_overruns_total counter\n",
		"# TYPE onetool_run_bytes_total counter\n",
		"# TYPE onetool_run_duration_seconds histogram\n",
		"# TYPE onetool_tool_calls_total counter\n",
		"# TYPE onetool_tool_call_bytes_total counter\n",
		"# TYPE onetool_tool_call_duration_seconds histogram\n",
		`onetool_run_duration_seconds_bucket{principal="",le="0.0001"} 0` + "\n",
		`onetool_run_duration_seconds_bucket{principal="",le="0.0016"} 0` + "\n",
		`onetool_run_duration_seconds_bucket{principal="",le="0.0064"} 1` + "\n",
		`onetool_run_duration_seconds_bucket{principal="",le="26.2144"} 1` + "\n",
		`onetool_run_duration_seconds_bucket{principal="",le="+Inf"} 1` + "\n",
		`onetool_run_duration_seconds_sum{principal=""} 0.003` + "\n",
		`onetool_run_duration_seconds_count{principal=""} 1` + "\n",
		`onetool_tool_call_duration_seconds_bucket{tool="demo.foo",le="1e-05"} 0` + "\n",
		`onetool_tool_call_duration_seconds_bucket{tool="demo.foo",le="0.00016"} 0` + "\n",
		`onetool_tool_call_duration_seconds_bucket{tool="demo.foo",le="0.00064"} 1` + "\n",
		`onetool_tool_call_duration_seconds_bucket{tool="demo.foo",le="10.48576"} 1` + "\n",
		`onetool_tool_call_duration_seconds_bucket{tool="demo.foo",le="+Inf"} 1` + "\n",
		`onetool_tool_call_duration_seconds_count{tool="demo.foo"} 1` + "\n",
		"go_goroutines ",
		"process_resident_memory_bytes ",
		"process_cpu_seconds_total ",
		"process_open_fds ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("exposition lacks %q", want)
		}
	}
	if n := strings.Count(text, "# TYPE onetool_run_duration_seconds "); n != 1 {
		t.Errorf("# TYPE onetool_run_duration_seconds appears %d times, want once", n)
	}
}

// Scrapers that accept gzip get it, as from the Prometheus client; others
// get plain text.
func TestMetricsCompression(t *testing.T) {
	c := promstats.New()
	c.RecordRun(runner.RunStat{OK: true})
	srv := httptest.NewServer(c.Handler())
	defer srv.Close()
	for _, tc := range []struct {
		accept, encoding string
	}{
		{"gzip", "gzip"},
		{"deflate, gzip;q=0.5", "gzip"},
		{"identity", ""},
		{"gzip;q=0", ""},
		{"br, gzip; q=0.000", ""},
	} {
		req, _ := http.NewRequest("GET", srv.URL, nil)
		req.Header.Set("Accept-Encoding", tc.accept) // set: the client does not decompress
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body io.Reader = resp.Body
		if got := resp.Header.Get("Content-Encoding"); got != tc.encoding {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", tc.accept, got, tc.encoding)
		} else if got == "gzip" {
			if body, err = gzip.NewReader(resp.Body); err != nil {
				t.Fatal(err)
			}
		}
		b, err := io.ReadAll(body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `onetool_runs_total{outcome="ok",principal=""} 1`) {
			t.Errorf("Accept-Encoding %q: body lacks the runs: %.200q", tc.accept, b)
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
			t.Errorf("Content-Type %q", ct)
		}
	}
}

// Runs and calls are recorded from many goroutines at once, new label
// sets among them, while /metrics is scraped: no count is lost.
func TestMetricsConcurrent(t *testing.T) {
	c := promstats.New()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				p := fmt.Sprintf("p%d", i%4)
				c.RecordRun(runner.RunStat{OK: true, BytesIn: 1, PrincipalLabel: p})
				c.RecordCall(runner.CallStat{Tool: fmt.Sprintf("demo.t%d", g%2), OK: true, PrincipalLabel: p})
			}
		})
	}
	scrape(t, c)
	wg.Wait()
	text := scrape(t, c)
	for _, want := range []string{
		`onetool_runs_total{outcome="ok",principal="p3"} 400` + "\n",
		`onetool_run_duration_seconds_count{principal="p0"} 400` + "\n",
		`onetool_run_bytes_total{direction="in"} 1600` + "\n",
		`onetool_tool_calls_total{outcome="ok",principal="p1",tool="demo.t0"} 200` + "\n",
		`onetool_tool_call_duration_seconds_count{tool="demo.t1"} 800` + "\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("exposition lacks %q", want)
		}
	}
}
