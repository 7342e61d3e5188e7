package runner

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/runner/plan"
)

func TestPlanInStarlark(t *testing.T) {
	r := newRunner(t)
	tests := []struct{ code, want string }{
		{`r = plan([{"id": "a", "tool": "demo.items", "args": {"count": 3}}, {"id": "b", "tool": demo.echo, "args": {"value": "${step[0].data.*.id}"}, "depends_on": ["a"]}])
r[1]["data"]`, "[1,2,3]"},
		{`r = plan([{"tool": "demo.items"}, {"tool": "demo.echo", "args": {"value": "first is ${steps.0.data[0].name}"}, "depends_on": [0]}])
r[1]["data"]`, "first is item1"},
		{`r = plan([{"tool": "demo.flaky", "args": {"key": "p", "failures": 2}}], retries=3, retry_delay="5ms")
[r[0]["status"], r[0]["attempts"]]`, `["ok",3]`},
		{`r = plan([{"id": "a", "tool": "demo.fail"}, {"id": "b", "tool": "demo.foo", "args": {"text": "x"}, "depends_on": ["a"]}, {"id": "c", "tool": "demo.bar", "args": {"text": "item1"}}])
[s["status"] for s in r]`, `["failed","skipped","ok"]`},
		{`r = plan([{"tool": "demo.sleep", "args": {"ms": 1000}}], timeout="100ms")
[r[0]["status"], "timed out" in r[0]["error"]]`, `["failed",true]`},
		{`t = "demo.foo" # a name the check before the run cannot see: the step fails when run
r = plan([{"tool": t, "args": {"txt": "x"}}], retries=3, retry_delay="5ms")
[r[0]["status"], r[0]["attempts"]]`, `["failed",1]`},
		{`plan([{"id": "a", "tool": "demo.foo", "depends_on": ["b"]}, {"id": "b", "tool": "demo.foo", "depends_on": ["a"]}])`, "Error: line 1: plan: cycle: a → b → a"},
		{`plan([{"id": "a", "tool": "demo.foo", "depends_on": ["zz"]}])`, "Error: line 1: plan: "},
		{`plan([{"tol": "demo.foo"}])`, `Error: line 1: plan: step 0: unknown key "tol"; did you mean 'tool'? (keys: id, tool, args, depends_on)`},
		{`plan([{"tool": "demo.foo"}], retry_delay="soon")`, `Error: line 1: plan: retry_delay: want a duration like "1s" or "250ms", got "soon"`},
	}
	for _, tt := range tests {
		res := r.Exec(context.Background(), tt.code)
		if res.Text != tt.want && !(strings.HasSuffix(tt.want, ": ") && strings.HasPrefix(res.Text, tt.want)) {
			t.Errorf("%s\n got %q\nwant %q", tt.code, res.Text, tt.want)
		}
	}
	stats := r.Exec(context.Background(), `ot.stats()["tools"]["demo.flaky"]["retries"]`)
	if stats.Text != "2" {
		t.Errorf("retries in ot.stats() = %q, want 2", stats.Text)
	}
}

func TestPlanFailFast(t *testing.T) {
	r := newRunner(t)
	start := time.Now()
	res := r.Exec(context.Background(), `r = plan([{"tool": "demo.sleep", "args": {"ms": 2000}}, {"tool": "demo.fail"}, {"tool": "demo.foo", "args": {"text": "x"}, "depends_on": [1]}], fail_fast=True)
[s["status"] for s in r]`)
	if res.Text != `["failed","failed","skipped"]` || time.Since(start) > time.Second {
		t.Errorf("fail_fast: %q after %v", res.Text, time.Since(start))
	}
}

func TestRunPlanGoAPI(t *testing.T) {
	r := newRunner(t)
	var progress []string
	results, err := r.RunPlan(context.Background(), []plan.Step{
		{ID: "a", Tool: "demo.add", Args: map[string]any{"a": 1, "b": 2}},
		{ID: "b", Tool: "demo.add", Args: map[string]any{"a": "${steps.a.data}", "b": 10}, DependsOn: []string{"a"}},
	}, plan.Options{MaxParallel: 2}, WithProgress(func(p Progress) { progress = append(progress, p.Message) }))
	if err != nil || results[1].Data != int64(13) {
		t.Fatalf("RunPlan = %+v, %v", results, err)
	}
	if len(progress) != 2 {
		t.Errorf("progress = %q, want one per finished step", progress)
	}
	res, errs := r.RunParallel(context.Background(), []ParallelCall{
		{ToolID: "demo.foo", Args: map[string]any{"text": "test"}},
		{ToolID: "demo.fail", Args: map[string]any{"message": "x"}},
	}, 2)
	if res[0] == nil || res[0].Value != "orange" || errs[1] == nil || res[1] != nil {
		t.Errorf("RunParallel = %+v, %v", res, errs)
	}
}

// BenchmarkPlan20x100ms is a plan of 20 independent 100 ms demo.sleep steps
// with max_parallel=10: the critical path is 200 ms.
func BenchmarkPlan20x100ms(b *testing.B) {
	r := newBenchRunner(b)
	code := `plan([{"tool": "demo.sleep", "args": {"ms": 100}} for i in range(20)], max_parallel=10)`
	for b.Loop() {
		if res := r.Exec(context.Background(), code); res.IsError() {
			b.Fatal(res.Text)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/plan")
}

func TestOnPlanStep(t *testing.T) {
	r := newRunner(t)
	var got []string
	r.Exec(context.Background(), `plan([{"id": "a", "tool": "demo.fail"}, {"id": "b", "tool": "demo.foo", "args": {"text": "x"}, "depends_on": ["a"]}])`,
		OnPlanStep(func(p PlanStep) { got = append(got, p.ID+":"+p.Status) }))
	if strings.Join(got, ",") != "a:failed,b:skipped" {
		t.Errorf("steps = %v", got)
	}
}

// A plan counts its steps and their results against the run's memory
// budget: one whose steps, arguments or results would hold more fails
// with interp's memory message, before the memory is spent, and ends the
// steps still running. (On main, a plan of 200,000 steps reached 695 MB
// under --max-memory 128MiB.)
func TestPlanWithinMemoryBudget(t *testing.T) {
	tests := []struct {
		name, code string
		want       string
		maxCalls   int // tool calls the plan may have made before it stopped
	}{
		{"many steps",
			// One step twenty thousand times: the list holds little, so
			// plan's own count of its steps is what refuses it.
			`s = {"tool": "demo.foo", "args": {"text": "x"}}; plan([s] * 20000)`,
			"Error: line 1: plan: memory limit of 8 MiB exceeded by its 20000 steps (about 1 KiB each before their arguments and results): run fewer steps per plan, or raise limits.max_memory (--max-memory)",
			0},
		{"large arguments", // one list, shared in Starlark, copied into each step
			"big = [\"x\" * 1000] * 10000\nplan([{\"tool\": \"demo.echo\", \"args\": {\"value\": big}} for i in range(100)])",
			"Error: line 2: plan: memory limit of 8 MiB exceeded by the arguments of its steps (52 of 100 read): pass less to each step, or run fewer steps per plan, or raise limits.max_memory (--max-memory)",
			0},
		{"large results",
			`plan([{"tool": "demo.items", "args": {"count": 1000}} for i in range(100)], max_parallel=1)`,
			"Error: line 1: plan: memory limit of 8 MiB exceeded by the results of its steps (",
			40},
	}
	r := newRunner(t, WithLimits(Limits{MaxMemory: 8 << 20}))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := r.Exec(context.Background(), tt.code)
			if !strings.HasPrefix(res.Text, tt.want) {
				t.Errorf("got  %s\nwant %s", res.Text, tt.want)
			}
			if !errors.Is(res.Err, interp.ErrMemoryLimit) {
				t.Errorf("errors.Is(%v, interp.ErrMemoryLimit) = false", res.Err)
			}
			if res.ToolCalls > tt.maxCalls {
				t.Errorf("the plan made %d tool calls before it stopped, want at most %d", res.ToolCalls, tt.maxCalls)
			}
		})
	}
	// Within the budget, the same plans run.
	res := r.Exec(context.Background(), `len(plan([{"tool": "demo.items", "args": {"count": 1000}} for i in range(5)]))`)
	if res.Text != "5" {
		t.Errorf("a plan within the budget: %s", res.Text)
	}
}
