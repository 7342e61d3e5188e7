package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner/config"
)

// A memory bomb ends with the memory error while runs that call tools
// beside it, sharing the runner, finish with their results.
func TestMemoryBombBesideToolRuns(t *testing.T) {
	l := DefaultLimits()
	l.MaxMemory = 64 << 20
	r := newRunner(t, WithLimits(l))
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 16 {
		wg.Go(func() {
			for j := range 5 {
				code := fmt.Sprintf("[demo.foo(text=str(k)) for k in range(%d)][-1]", 200+i*5+j)
				res := r.Exec(context.Background(), code)
				if res.Err != nil {
					errs <- fmt.Errorf("%s: %w", code, res.Err)
				}
			}
		})
	}
	bomb := r.Exec(context.Background(), "s = \"x\"\nfor i in range(40):\n    s = s + s")
	wg.Wait()
	close(errs)
	if !errors.Is(bomb.Err, interp.ErrMemoryLimit) || bomb.Text != "Error: memory limit of 64 MiB exceeded (set limits.max_memory to raise it)" {
		t.Errorf("bomb: %q (%v)", bomb.Text, bomb.Err)
	}
	for err := range errs {
		t.Errorf("concurrent run failed: %v", err)
	}
}

// RunLimits replaces the runner's budgets for one run only.
func TestRunLimitsPerRun(t *testing.T) {
	r := newRunner(t)
	loop := "x = 0\nwhile True:\n    x += 1"
	l := r.Limits()
	l.MaxSteps = 1000
	if res := r.Exec(context.Background(), loop, RunLimits(l)); res.Text != "Error: step limit of 1000 exceeded at line 3 (set limits.max_steps to raise it)" {
		t.Errorf("with RunLimits: %q", res.Text)
	}
	l = r.Limits()
	l.Timeout = 50 * time.Millisecond
	if res := r.Exec(context.Background(), loop, RunLimits(l)); !errors.Is(res.Err, interp.ErrTimeout) {
		t.Errorf("with a 50ms timeout: %q", res.Text)
	}
	l = r.Limits()
	l.MaxToolCalls = 2
	if res := r.Exec(context.Background(), "[demo.foo(text='a') for _ in range(3)]", RunLimits(l)); res.Text != "Error: tool call limit of 2 exceeded at line 1 (set limits.max_tool_calls to raise it)" {
		t.Errorf("with 2 tool calls: %q", res.Text)
	}
	if res := r.Exec(context.Background(), "[demo.foo(text='a') for _ in range(3)]"); res.Err != nil {
		t.Errorf("the runner's own budgets changed: %q", res.Text)
	}
}

// With security.confirm_destructive on and no way to ask (no ConfirmWith,
// as on the command line), a destructive call is refused and never runs;
// other tools are not affected.
func TestConfirmDestructiveWithoutConfirmer(t *testing.T) {
	var ran atomic.Int32
	reg := packs.NewRegistry()
	if err := reg.Register(&packs.Tool{
		Pack: "disk", Name: "wipe", Description: "Delete everything.",
		Annotations: packs.Annotations{Destructive: true},
		Handler:     func(context.Context, map[string]any) (any, error) { ran.Add(1); return "wiped", nil },
	}); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Security.ConfirmDestructive = true
	r := newRunner(t, WithRegistry(reg), WithConfig(cfg))
	res := r.Exec(context.Background(), "disk.wipe()")
	if !errors.Is(res.Err, ErrNotConfirmed) || !strings.HasPrefix(res.Text, "Error: line 1: disk.wipe failed: not confirmed: the tool is marked destructive and security.confirm_destructive is on, but there is no way to ask the user here") {
		t.Errorf("got %q", res.Text)
	}
	if ran.Load() != 0 {
		t.Error("the tool ran")
	}
	// Allowed by a confirmer, it runs.
	allow := ConfirmWith(func(context.Context, ConfirmRequest) error { return nil })
	if res := r.Exec(context.Background(), "disk.wipe()", allow); res.Text != "wiped" || ran.Load() != 1 {
		t.Errorf("confirmed: %q, ran %d", res.Text, ran.Load())
	}
}

// The default budgets let a legitimate program do real work: grouping
// 200,000 rows (CPython takes 0.15 s) needs far more than the old default
// of 10,000,000 steps, and the wall clock, not the step count, is what such
// a program should meet first (SPEC §8.1).
func TestDefaultBudgetsFitRealWork(t *testing.T) {
	r := newRunner(t)
	code := `rows = [{"region": "r%d" % (i % 7), "amount": i % 100} for i in range(200000)]
totals = {}
counts = {}
for row in rows:
    k = row["region"]
    totals[k] = totals.get(k, 0) + row["amount"]
    counts[k] = counts.get(k, 0) + 1
top = sorted(totals.items(), key=lambda kv: -kv[1])
[top[0][0], counts["r0"], len(rows)]`
	res := r.Exec(context.Background(), code)
	if res.IsError() {
		t.Fatalf("the default budgets stop a 200,000-row grouping: %s", res.Text)
	}
	if res.Text != `["r0",28572,200000]` {
		t.Errorf("result %s", res.Text)
	}
	if steps := DefaultLimits().MaxSteps; steps != 1_000_000_000 {
		t.Errorf("default step budget %d, want SPEC's 1,000,000,000", steps)
	}
}
