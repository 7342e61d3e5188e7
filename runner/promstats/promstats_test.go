package promstats_test

import (
	"context"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/promstats"
)

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

	srv := httptest.NewServer(c.Handler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	text := string(body)
	for _, want := range []string{
		`onetool_runs_total{outcome="ok"} 2`,
		`onetool_runs_total{outcome="runtime"} 2`,
		`onetool_tool_calls_total{outcome="ok",tool="demo.foo"} 1`,
		`onetool_tool_calls_total{outcome="cached",tool="demo.foo"} 1`,
		`onetool_tool_calls_total{outcome="execution",tool="demo.fail"} 1`,
		`onetool_run_duration_seconds_count 4`,
		`onetool_tool_call_bytes_total{direction="in",tool="demo.foo"} 30`,
		`onetool_run_bytes_total{direction="out"} 77`,
		"go_goroutines ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("exposition lacks %q", want)
		}
	}
}
