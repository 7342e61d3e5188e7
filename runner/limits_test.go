package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp"
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
	if !errors.Is(bomb.Err, interp.ErrMemoryLimit) || bomb.Text != "Error: memory limit of 64 MiB exceeded" {
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
	if res := r.Exec(context.Background(), loop, RunLimits(l)); res.Text != "Error: step limit of 1000 exceeded at line 3" {
		t.Errorf("with RunLimits: %q", res.Text)
	}
	l = r.Limits()
	l.Timeout = 50 * time.Millisecond
	if res := r.Exec(context.Background(), loop, RunLimits(l)); !errors.Is(res.Err, interp.ErrTimeout) {
		t.Errorf("with a 50ms timeout: %q", res.Text)
	}
	l = r.Limits()
	l.MaxToolCalls = 2
	if res := r.Exec(context.Background(), "[demo.foo(text='a') for _ in range(3)]", RunLimits(l)); res.Text != "Error: tool call limit of 2 exceeded at line 1" {
		t.Errorf("with 2 tool calls: %q", res.Text)
	}
	if res := r.Exec(context.Background(), "[demo.foo(text='a') for _ in range(3)]"); res.Err != nil {
		t.Errorf("the runner's own budgets changed: %q", res.Text)
	}
}
