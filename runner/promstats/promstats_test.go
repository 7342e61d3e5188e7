package promstats_test

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"strings"
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
