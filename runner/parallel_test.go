package runner

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/packs"
)

// concurrencyProbe is a tool that sleeps and records the most calls it saw
// running at once.
func concurrencyProbe(t *testing.T) (*packs.Registry, *atomic.Int64) {
	t.Helper()
	var running, peak atomic.Int64
	reg := packs.NewRegistry()
	err := reg.Register(&packs.Tool{Pack: "p", Name: "probe",
		InputSchema: `{"type":"object","properties":{"ms":{"type":"integer"}}}`,
		Handler: func(ctx context.Context, a map[string]any) (any, error) {
			n := running.Add(1)
			defer running.Add(-1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			ms, _ := a["ms"].(int64)
			select {
			case <-time.After(time.Duration(ms) * time.Millisecond):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return ms, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	return reg, &peak
}

func TestParallelRunsConcurrently(t *testing.T) {
	r := newRunner(t)
	start := time.Now()
	res := r.Exec(context.Background(), "parallel([call(demo.sleep, ms=100), call(demo.sleep, ms=100), call(demo.sleep, ms=100)])")
	if res.Text != "[100,100,100]" {
		t.Fatalf("parallel = %q", res.Text)
	}
	if d := time.Since(start); d >= 250*time.Millisecond {
		t.Errorf("three 100 ms calls took %v, want well under 250 ms", d)
	}
}

func TestParallelWidth(t *testing.T) {
	reg, peak := concurrencyProbe(t)
	r := newRunner(t, WithRegistry(reg))
	res := r.Exec(context.Background(), "parallel([call(p.probe, ms=30) for i in range(8)], max_parallel=2)")
	if res.IsError() || peak.Load() != 2 {
		t.Errorf("max_parallel=2: peak %d, %q", peak.Load(), res.Text)
	}
	peak.Store(0)
	res = r.Exec(context.Background(), "p.probe.map([{\"ms\": 30} for i in range(6)], max_parallel=3)")
	if res.IsError() || peak.Load() != 3 {
		t.Errorf("map max_parallel=3: peak %d, %q", peak.Load(), res.Text)
	}
	// The run's budget caps every request.
	peak.Store(0)
	l := DefaultLimits()
	l.MaxParallel = 2
	r = newRunner(t, WithRegistry(reg), WithLimits(l))
	res = r.Exec(context.Background(), "parallel([call(p.probe, ms=30) for i in range(6)], max_parallel=6)")
	if res.IsError() || peak.Load() != 2 {
		t.Errorf("limits.MaxParallel=2: peak %d, %q", peak.Load(), res.Text)
	}
}

func TestParallelShapesAndErrors(t *testing.T) {
	r := newRunner(t)
	tests := []struct{ code, want string }{
		{`parallel({"a": call(demo.foo, text="test"), "b": call("demo.bar", text="item1")})`, `{"a":"orange","b":"fox"}`},
		{`parallel([call(demo.foo, text="test"), call(demo.fail, message="boom")])`, "Error: line 1: parallel: item 1: demo.fail failed: boom"},
		{`parallel([call(demo.foo, text="test"), call(demo.fail, message="boom")], errors="return")`, `["orange",{"error":"demo.fail failed: boom"}]`},
		{`parallel([call(demo.foo, text="x")], errors="ignore")`, `Error: line 1: parallel: errors must be "raise" or "return", got "ignore"`},
		{`parallel([demo.foo(text="x")])`, `Error: line 1: parallel: item 0 is a string, not a deferred call: write call(demo.foo, text="x") instead of demo.foo(text="x")`},
		{"f = demo.foo\ncall(f, txt=\"x\")", "Error: line 2: demo.foo: unknown parameter 'txt'. Did you mean 'text'? Signature: demo.foo(text: str) -> str"},
		{`str(call(demo.foo, text="x"))`, "<call demo.foo>"},
		{`demo.foo.map([{"text": "test"}, {"text": "item1"}])`, `["orange","teal"]`},
		{`demo.fail.map([{"message": "a"}], errors="return")`, `[{"error":"demo.fail failed: a"}]`},
		{`demo.foo.map(["test"])`, `Error: line 1: demo.foo.map: item 0: want a dict of arguments like {"text": "x"}, got string`},
		{`parallel([])`, "[]"},
	}
	for _, tt := range tests {
		if res := r.Exec(context.Background(), tt.code); res.Text != tt.want {
			t.Errorf("%s\n got %q\nwant %q", tt.code, res.Text, tt.want)
		}
	}
}

func TestParallelCancelled(t *testing.T) {
	r := newRunner(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	res := r.Exec(ctx, "parallel([call(demo.sleep, ms=5000) for i in range(4)])")
	if !res.IsError() || time.Since(start) > time.Second {
		t.Errorf("cancelled parallel: %q after %v", res.Text, time.Since(start))
	}
}

func TestToolMetrics(t *testing.T) {
	r := newRunner(t)
	r.Exec(context.Background(), `demo.foo(text="m")`)
	r.Exec(context.Background(), `demo.foo(text="m")`)
	r.Exec(context.Background(), `demo.fail(message="x")`)
	res := r.Exec(context.Background(), `s = ot.stats()["tools"]
[s["demo.foo"]["calls"], s["demo.foo"]["cache_hits"], s["demo.fail"]["failures"], s["demo.foo"]["mean_ms"] >= 0]`)
	if res.Text != "[2,1,1,true]" {
		t.Errorf("metrics = %q", res.Text)
	}
	if !strings.Contains(r.Exec(context.Background(), "ot.stats()").Text, `"retries":0`) {
		t.Error("retries are not reported")
	}
}
