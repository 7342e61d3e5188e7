package promstats_test

import (
	"context"
	"io"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/runner"
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
		`onetool_runs_total{outcome="ok"} 2`,
		`onetool_runs_total{outcome="runtime"} 2`,
		`onetool_tool_calls_total{outcome="ok",tool="demo.foo"} 1`,
		`onetool_tool_calls_total{outcome="cached",tool="demo.foo"} 1`,
		`onetool_tool_calls_total{outcome="execution",tool="demo.fail"} 1`,
		`onetool_run_duration_seconds_count 4`,
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
		`onetool_runs_total{outcome="limit"} 1`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("exposition lacks %q", want)
		}
	}
}
