package plan

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fake is a Call whose behaviour depends on the tool name:
//
//	sleep:N    sleeps N ms (or until ctx is done), returns the args
//	fail       returns an error at once
//	flaky:N    fails N times, then returns "ok"
//	echo       returns the args
//
// It counts calls per tool and the peak number of concurrent calls, and
// records when each call started and ended.
type fake struct {
	cur, peak atomic.Int64
	mu        sync.Mutex
	calls     map[string]int
	start     map[string]time.Time
	end       map[string]time.Time
	t0        time.Time
}

func newFake() *fake {
	return &fake{calls: map[string]int{}, start: map[string]time.Time{}, end: map[string]time.Time{}, t0: time.Now()}
}

var errBoom = errors.New("boom")

func (f *fake) call(ctx context.Context, tool string, args map[string]any) (any, error) {
	n := f.cur.Add(1)
	defer f.cur.Add(-1)
	for {
		p := f.peak.Load()
		if n <= p || f.peak.CompareAndSwap(p, n) {
			break
		}
	}
	key := tool
	if l, ok := args["label"].(string); ok {
		key = l
	}
	f.mu.Lock()
	f.calls[key]++
	count := f.calls[key]
	f.start[key] = time.Now()
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.end[key] = time.Now()
		f.mu.Unlock()
	}()
	name, param, _ := strings.Cut(tool, ":")
	switch name {
	case "sleep":
		ms, _ := strconv.Atoi(param)
		select {
		case <-time.After(time.Duration(ms) * time.Millisecond):
			return args, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	case "fail":
		return nil, errBoom
	case "flaky":
		k, _ := strconv.Atoi(param)
		if count <= k {
			return nil, fmt.Errorf("attempt %d: %w", count, errBoom)
		}
		return "ok", nil
	case "echo":
		return args, nil
	case "panic":
		panic("kaboom")
	}
	return nil, fmt.Errorf("unknown tool %q", tool)
}

func (f *fake) count(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[key]
}

func run(t *testing.T, steps []Step, f *fake, opts Options) []StepResult {
	t.Helper()
	res, err := Run(context.Background(), steps, f.call, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != len(steps) {
		t.Fatalf("%d results for %d steps", len(res), len(steps))
	}
	return res
}

func TestIndependentStepsRunInParallel(t *testing.T) {
	f := newFake()
	steps := []Step{{Tool: "sleep:100"}, {Tool: "sleep:100"}, {Tool: "sleep:100"}}
	start := time.Now()
	res := run(t, steps, f, Options{})
	if d := time.Since(start); d >= 250*time.Millisecond {
		t.Fatalf("took %v, want < 250ms", d)
	}
	for i, r := range res {
		if r.Status != StatusOK || r.ID != strconv.Itoa(i) || r.Attempts != 1 || r.DurationMS < 90 {
			t.Fatalf("result %d = %+v", i, r)
		}
	}
}

func TestMaxParallel(t *testing.T) {
	f := newFake()
	var steps []Step
	for range 8 {
		steps = append(steps, Step{Tool: "sleep:20"})
	}
	steps = append(steps, Step{Tool: "sleep:20", DependsOn: []string{"0", "1"}})
	run(t, steps, f, Options{MaxParallel: 2})
	if p := f.peak.Load(); p != 2 {
		t.Fatalf("peak concurrency %d, want 2", p)
	}
}

// TestPoolNotLevels: with two workers, C (after the fast B) must start
// while the slow A still runs — no level-by-level batches.
func TestPoolNotLevels(t *testing.T) {
	f := newFake()
	steps := []Step{
		{ID: "A", Tool: "sleep:300", Args: map[string]any{"label": "A"}},
		{ID: "B", Tool: "sleep:50", Args: map[string]any{"label": "B"}},
		{ID: "C", Tool: "sleep:50", Args: map[string]any{"label": "C"}, DependsOn: []string{"B"}},
	}
	start := time.Now()
	res := run(t, steps, f, Options{MaxParallel: 2})
	for _, r := range res {
		if r.Status != StatusOK {
			t.Fatalf("%+v", r)
		}
	}
	if !f.start["C"].Before(f.end["A"]) {
		t.Fatalf("C started %v after A ended", f.start["C"].Sub(f.end["A"]))
	}
	if !f.end["C"].Before(f.end["A"]) {
		t.Fatal("C should finish before A")
	}
	if d := time.Since(start); d > 380*time.Millisecond {
		t.Fatalf("took %v", d)
	}
}

func TestRetries(t *testing.T) {
	f := newFake()
	res := run(t, []Step{{Tool: "flaky:2"}}, f, Options{Retries: 3, RetryDelay: time.Millisecond})
	if res[0].Status != StatusOK || res[0].Attempts != 3 || f.count("flaky:2") != 3 || res[0].Data != "ok" {
		t.Fatalf("%+v, calls %d", res[0], f.count("flaky:2"))
	}
	// Out of retries: the last error is reported.
	f = newFake()
	res = run(t, []Step{{Tool: "flaky:5"}}, f, Options{Retries: 2, RetryDelay: time.Millisecond})
	if res[0].Status != StatusFailed || res[0].Attempts != 3 || !errors.Is(res[0].Err, errBoom) || !strings.Contains(res[0].Error, "attempt 3") {
		t.Fatalf("%+v", res[0])
	}
}

func TestNonRetryable(t *testing.T) {
	f := newFake()
	res := run(t, []Step{{Tool: "fail"}}, f, Options{
		Retries: 3, RetryDelay: time.Millisecond,
		Retryable: func(err error) bool { return !errors.Is(err, errBoom) },
	})
	if res[0].Status != StatusFailed || res[0].Attempts != 1 || f.count("fail") != 1 {
		t.Fatalf("%+v", res[0])
	}
}

func TestBackoff(t *testing.T) {
	s := &scheduler{opts: Options{RetryDelay: 100 * time.Millisecond}}
	for attempt, want := range map[int]time.Duration{1: 100, 2: 200, 3: 400} {
		want *= time.Millisecond
		for range 50 {
			d := s.backoff(attempt)
			if d < want*8/10 || d > want*12/10 {
				t.Fatalf("attempt %d: %v, want %v ±20%%", attempt, d, want)
			}
		}
	}
	if d := s.backoff(1000); d <= 0 {
		t.Fatalf("overflow: %v", d)
	}
}

func TestBackoffHonoursCancel(t *testing.T) {
	f := newFake()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, _ := Run(ctx, []Step{{Tool: "fail"}}, f.call, Options{Retries: 5, RetryDelay: 10 * time.Second})
	if time.Since(start) > time.Second || res[0].Status != StatusFailed || res[0].Attempts != 1 {
		t.Fatalf("%+v after %v", res[0], time.Since(start))
	}
}

func TestTimeout(t *testing.T) {
	f := newFake()
	start := time.Now()
	res := run(t, []Step{{Tool: "sleep:1000"}}, f, Options{Timeout: 100 * time.Millisecond})
	d := time.Since(start)
	if d > 200*time.Millisecond || res[0].Status != StatusFailed || !errors.Is(res[0].Err, context.DeadlineExceeded) {
		t.Fatalf("%+v after %v", res[0], d)
	}
	if !strings.Contains(res[0].Error, "timed out after 100ms") {
		t.Fatalf("error %q", res[0].Error)
	}
}

func TestPanicIsFailure(t *testing.T) {
	res := run(t, []Step{{Tool: "panic"}, {Tool: "echo"}}, newFake(), Options{})
	if res[0].Status != StatusFailed || !strings.Contains(res[0].Error, "kaboom") || res[1].Status != StatusOK {
		t.Fatalf("%+v", res)
	}
}

func TestSkippedDependents(t *testing.T) {
	f := newFake()
	steps := []Step{
		{ID: "s0", Tool: "fail"},
		{ID: "s1", Tool: "echo", DependsOn: []string{"s0"}},
		{ID: "s2", Tool: "echo", DependsOn: []string{"s1"}},
		{ID: "s3", Tool: "sleep:30"},
		{ID: "s4", Tool: "echo", DependsOn: []string{"s3"}},
	}
	res := run(t, steps, f, Options{})
	want := []Status{StatusFailed, StatusSkipped, StatusSkipped, StatusOK, StatusOK}
	for i, r := range res {
		if r.Status != want[i] {
			t.Fatalf("step %d: %+v", i, r)
		}
	}
	if res[1].Error != "dependency s0 failed" || !errors.Is(res[1].Err, ErrDependencyFailed) || res[1].Attempts != 0 {
		t.Fatalf("%+v", res[1])
	}
	if !strings.HasPrefix(res[2].Error, "dependency s1 was skipped") || !errors.Is(res[2].Err, ErrDependencyFailed) {
		t.Fatalf("%+v", res[2])
	}
	if f.count("echo") != 1 {
		t.Fatalf("echo called %d times", f.count("echo"))
	}
}

func TestFailFast(t *testing.T) {
	f := newFake()
	steps := []Step{
		{ID: "slow", Tool: "sleep:2000"},
		{ID: "bad", Tool: "fail"},
		{ID: "after", Tool: "echo", DependsOn: []string{"bad"}},
		{ID: "queued", Tool: "echo"},
	}
	start := time.Now()
	res := run(t, steps, f, Options{FailFast: true, MaxParallel: 2})
	if d := time.Since(start); d > 200*time.Millisecond {
		t.Fatalf("took %v", d)
	}
	if res[0].Status != StatusFailed || !errors.Is(res[0].Err, context.Canceled) || !strings.Contains(res[0].Error, "step bad failed") {
		t.Fatalf("slow: %+v", res[0])
	}
	if res[1].Status != StatusFailed || res[2].Status != StatusSkipped {
		t.Fatalf("%+v", res)
	}
	if res[3].Status != StatusSkipped || !errors.Is(res[3].Err, ErrNotStarted) || f.count("echo") != 0 {
		t.Fatalf("queued: %+v", res[3])
	}
}

func TestParentCancel(t *testing.T) {
	f := newFake()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(30*time.Millisecond, cancel)
	res, err := Run(ctx, []Step{{Tool: "sleep:1000"}, {Tool: "echo", DependsOn: []string{"0"}}, {Tool: "sleep:1000"}}, f.call, Options{MaxParallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Status != StatusFailed || res[1].Status != StatusSkipped || res[2].Status != StatusSkipped || !errors.Is(res[2].Err, context.Canceled) {
		t.Fatalf("%+v", res)
	}
}

func TestOnStepDone(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	steps := []Step{
		{ID: "a", Tool: "fail"},
		{ID: "b", Tool: "echo", DependsOn: []string{"a"}},
		{ID: "c", Tool: "echo"},
		{ID: "d", Tool: "echo", DependsOn: []string{"c", "b"}},
	}
	run(t, steps, newFake(), Options{OnStepDone: func(r StepResult) {
		mu.Lock()
		seen[r.ID]++
		mu.Unlock()
	}})
	if len(seen) != 4 {
		t.Fatalf("%v", seen)
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("%s reported %d times", id, n)
		}
	}
}

func TestRunValidates(t *testing.T) {
	_, err := Run(context.Background(), []Step{{Tool: "t", DependsOn: []string{"0"}}}, newFake().call, Options{})
	if !errors.Is(err, ErrSelfDependency) {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), nil, newFake().call, Options{})
	if err != nil || len(res) != 0 {
		t.Fatal(res, err)
	}
}

func BenchmarkPlan20x100ms(b *testing.B) {
	f := newFake()
	steps := make([]Step, 20)
	for i := range steps {
		steps[i] = Step{Tool: "sleep:100"}
	}
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		if _, err := Run(context.Background(), steps, f.call, Options{MaxParallel: 10}); err != nil {
			b.Fatal(err)
		}
	}
	ms := float64(time.Since(start).Microseconds()) / 1000 / float64(b.N)
	b.ReportMetric(ms, "ms/plan")
	if ms > 220 {
		b.Fatalf("%.1f ms per plan, want ≤ 220", ms)
	}
}
