package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/fence"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/packs"
)

func newRunner(t *testing.T, opts ...Option) *Runner {
	t.Helper()
	r, err := New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestExecTexts(t *testing.T) {
	r := newRunner(t)
	tests := []struct{ code, want string }{
		{`demo.foo(text="test")`, "orange"},
		{"```python\ndemo.bar(text=\"item1\")\n```\nThat picks an animal.", "fox"},
		{"x = 1", "OK (no return value)"},
		{"None", "None"},
		{`print("a")`, "a"},
		{"print('a')\nNone", "a"},
		{"print('a')\n{'k': 1}", "a\n{\"k\":1}"},
		{"return {'name': 'test', 'value': 123}", `{"name":"test","value":123}`},
		{"__format__ = 'yaml'\n{'b': 1, 'a': [1, 2]}", "b: 1\na:\n  - 1\n  - 2"},
		{"__format__ = 'nope'\n[1]", "[1]\nnote: unknown __format__ \"nope\"; using json (modes: json, json_h, yaml, yaml_flow, raw)"},
		{"12.5", "12.5"},
		{"1 == 1", "True"},
		{`"é"`, "é"},
		{`["é", "<&>"]`, `["é","<&>"]`},
		{"!onetool demo.foo(text='x')", "Error: " + fence.ErrBangPrefix.Error()},
		{`demo.fail(message="boom")`, "Error: line 1: demo.fail failed: boom"},
		{"x = 1\ndemo.panic()", "Error: line 2: demo.panic failed: panic: demo panic"},
		// What a program printed before it failed is kept, before the error.
		{"print('step 1')\nprint('step 2')\n1 // 0", "step 1\nstep 2\nError: line 3: division by zero"},
		{"print('parsing')\nraise ValueError('bad row')", "parsing\nError: line 2: ValueError: bad row"},
	}
	for _, tt := range tests {
		res := r.Exec(context.Background(), tt.code)
		if res.Text != tt.want {
			t.Errorf("Exec(%q).Text =\n%s\nwant\n%s", tt.code, res.Text, tt.want)
		}
		if res.IsError() != (strings.HasPrefix(tt.want, "Error: ") || strings.Contains(tt.want, "\nError: ")) {
			t.Errorf("Exec(%q).IsError() = %v", tt.code, res.IsError())
		}
	}
}

// An isolated run keeps the printed text of a failed program too, and a
// failed run reports it apart as well.
func TestPrintedBeforeError(t *testing.T) {
	for name, r := range map[string]*Runner{
		"in-process": newRunner(t),
		"isolated":   isolated(t, Isolation{Workers: 1, MaxWorkers: 1}),
	} {
		res := r.Exec(context.Background(), "print('a')\n{}['k']")
		if want := "a\nError: line 2: KeyError: 'k'"; res.Text != want || res.Printed != "a" || !res.IsError() {
			t.Errorf("%s: Text %q, Printed %q, IsError %v; want %q, %q, true", name, res.Text, res.Printed, res.IsError(), want, "a")
		}
	}
}

func TestExecValue(t *testing.T) {
	r := newRunner(t)
	res := r.Exec(context.Background(), "demo.items(count=2)")
	if res.IsError() || !res.HasValue {
		t.Fatal(res.Text)
	}
	list, ok := res.Value.([]any)
	if !ok || len(list) != 2 {
		t.Fatalf("Value = %#v", res.Value)
	}
	if res.ToolCalls != 1 {
		t.Errorf("ToolCalls = %d, want 1", res.ToolCalls)
	}
	if res := r.Exec(context.Background(), "x = 1"); res.HasValue || res.Value != nil {
		t.Errorf("no value: HasValue = %v, Value = %v", res.HasValue, res.Value)
	}
	if res := r.Exec(context.Background(), "None"); !res.HasValue || res.Value != nil {
		t.Errorf("None: HasValue = %v, Value = %v", res.HasValue, res.Value)
	}
}

// Cached programs must still start from fresh globals every run.
func TestExecCachedProgramFreshState(t *testing.T) {
	r := newRunner(t)
	code := "x = []\nx.append(demo.foo(text='a'))\nlen(x)"
	for range 3 {
		if res := r.Exec(context.Background(), code); res.Text != "1" {
			t.Fatalf("got %q, want 1", res.Text)
		}
	}
}

func TestToolCallLimit(t *testing.T) {
	l := DefaultLimits()
	l.MaxToolCalls = 5
	r := newRunner(t, WithLimits(l))
	res := r.Exec(context.Background(), "for i in range(10):\n    demo.foo(text=str(i))")
	if res.Text != "Error: tool call limit of 5 exceeded at line 2 (set limits.max_tool_calls to raise it)" {
		t.Errorf("Text = %q", res.Text)
	}
	if !errors.Is(res.Err, ErrToolCallLimit) || !errors.Is(res.Err, interp.ErrLimit) {
		t.Errorf("Err = %v, want ErrToolCallLimit", res.Err)
	}
	if res := r.Exec(context.Background(), "[demo.foo(text=str(i)) for i in range(5)]"); res.IsError() {
		t.Errorf("5 calls within a budget of 5: %s", res.Text)
	}
}

func TestTimeoutReachesBlockingTool(t *testing.T) {
	l := DefaultLimits()
	l.Timeout = 50 * time.Millisecond
	r := newRunner(t, WithLimits(l))
	start := time.Now()
	res := r.Exec(context.Background(), "x = 1\ndemo.sleep(ms=5000)")
	if res.Text != "Error: timed out after 50ms at line 2 (set limits.timeout to raise it)" {
		t.Errorf("Text = %q", res.Text)
	}
	if !errors.Is(res.Err, context.DeadlineExceeded) || !errors.Is(res.Err, interp.ErrTimeout) {
		t.Errorf("Err = %v does not match the deadline", res.Err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
	}
}

func TestCancelStopsTool(t *testing.T) {
	r := newRunner(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	res := r.Exec(ctx, "demo.sleep(ms=5000)")
	if !errors.Is(res.Err, context.Canceled) || res.Text != "Error: cancelled at line 1" {
		t.Errorf("Text = %q, Err = %v", res.Text, res.Err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("cancellation took %v", d)
	}
}

func TestToolErrorsReachable(t *testing.T) {
	reg := packs.NewRegistry()
	sentinel := errors.New("upstream said no")
	if err := reg.Register(&packs.Tool{
		Pack: "x", Name: "call",
		Handler: func(context.Context, map[string]any) (any, error) {
			return nil, fmt.Errorf("wrapped: %w", sentinel)
		},
	}); err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, WithRegistry(reg))
	res := r.Exec(context.Background(), "x.call()")
	if !errors.Is(res.Err, sentinel) {
		t.Errorf("errors.Is(%v, sentinel) = false", res.Err)
	}
	if res.Text != "Error: line 1: x.call failed: wrapped: upstream said no" {
		t.Errorf("Text = %q", res.Text)
	}
	if !strings.Contains(r.Exec(context.Background(), "nope").Text, "Available packs: ot, x") {
		t.Error("ot is not added to a custom registry")
	}
}

// Runs share pack globals; nothing one run does may leak into another, and
// concurrent runs must be race-free (go test -race).
func TestConcurrentRuns(t *testing.T) {
	r := newRunner(t)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				code := fmt.Sprintf("x = %d\n[demo.add(a=x, b=%d), demo.foo(text='test')]", i, j)
				want := fmt.Sprintf(`[%d,"orange"]`, i+j)
				if res := r.Exec(context.Background(), code); res.Text != want {
					t.Errorf("got %q, want %q", res.Text, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestProgCacheBounded(t *testing.T) {
	c := newProgCache(2)
	p := &interp.Program{}
	c.put("a", p)
	c.put("b", p)
	c.get("a")
	c.put("c", p) // evicts b, the least recently used
	if c.get("b") != nil || c.get("a") == nil || c.get("c") == nil {
		t.Error("LRU eviction order wrong")
	}
	c.put(strings.Repeat("x", maxCachedCode+1), p)
	if c.lru.Len() != 2 {
		t.Error("oversized code was cached")
	}
}

func TestOnToolCall(t *testing.T) {
	r := newRunner(t)
	var mu sync.Mutex
	var seen []string
	res := r.Exec(context.Background(), "demo.foo(text='a')\ndemo.add(a=1, b=2)\ndemo.fail(message='x')",
		OnToolCall(func(c ToolCall) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, fmt.Sprintf("%d %s %v", c.N, c.ToolID, c.Err != nil))
		}))
	if !res.IsError() {
		t.Fatal("demo.fail did not fail")
	}
	if got := strings.Join(seen, "; "); got != "1 demo.foo false; 2 demo.add false; 3 demo.fail true" {
		t.Errorf("calls = %s", got)
	}
}
