package runner

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
)

// apiRegistry holds tools that count their calls.
type apiFixture struct {
	reg   *packs.Registry
	calls map[string]*atomic.Int64
}

func newAPIFixture(t *testing.T) *apiFixture {
	t.Helper()
	f := &apiFixture{reg: packs.NewRegistry(), calls: map[string]*atomic.Int64{}}
	counted := func(name string, h packs.Handler) packs.Handler {
		n := &atomic.Int64{}
		f.calls[name] = n
		return func(ctx context.Context, args map[string]any) (any, error) {
			n.Add(1)
			return h(ctx, args)
		}
	}
	obj := `{"type":"object","properties":{"n":{"type":"integer"},"previous":{}}}`
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(f.reg.Register(
		&packs.Tool{Pack: "t", Name: "det", Deterministic: true, InputSchema: obj,
			Handler: counted("det", func(_ context.Context, a map[string]any) (any, error) {
				m := ordered.NewMap(2)
				m.Set("n", a["n"])
				m.Set("list", []any{1, 2})
				return m, nil
			})},
		&packs.Tool{Pack: "t", Name: "nondet", InputSchema: obj,
			Handler: counted("nondet", func(_ context.Context, a map[string]any) (any, error) { return a["n"], nil })},
		&packs.Tool{Pack: "t", Name: "prev", InputSchema: obj,
			Handler: counted("prev", func(_ context.Context, a map[string]any) (any, error) {
				p, ok := a["previous"]
				return fmt.Sprintf("previous=%v present=%v", p, ok), nil
			})},
		&packs.Tool{Pack: "t", Name: "fail", InputSchema: obj,
			Handler: counted("fail", func(context.Context, map[string]any) (any, error) { return nil, errBoom })},
		&packs.Tool{Pack: "t", Name: "slow", InputSchema: obj,
			Handler: counted("slow", func(ctx context.Context, _ map[string]any) (any, error) {
				<-ctx.Done()
				return nil, ctx.Err()
			})},
		&packs.Tool{Pack: "t", Name: "badout", InputSchema: obj, OutputSchema: `{"type":"string"}`,
			Handler: counted("badout", func(context.Context, map[string]any) (any, error) { return 42, nil })},
		&packs.Tool{Pack: "t", Name: "stream", InputSchema: obj,
			Backends: []packs.Backend{{Kind: packs.BackendProvider, Name: "test:stream",
				Stream: func(_ context.Context, a map[string]any, emit func(any) error) (any, error) {
					for i := range 3 {
						if err := emit(i); err != nil {
							return nil, err
						}
					}
					return "all", nil
				},
				Handler: func(context.Context, map[string]any) (any, error) { return "all", nil },
			}}},
		&packs.Tool{Pack: "t", Name: "multi", InputSchema: obj, Backends: []packs.Backend{
			{Kind: packs.BackendMCP, Name: "mcp:x", Handler: func(context.Context, map[string]any) (any, error) { return "mcp", nil }},
			{Kind: packs.BackendProvider, Name: "cmd:x", Handler: func(context.Context, map[string]any) (any, error) { return "provider", nil }},
			{Kind: packs.BackendLocal, Name: "go:x", Handler: func(context.Context, map[string]any) (any, error) { return "local", nil }},
		}},
	))
	return f
}

var errBoom = errors.New("boom")

func (f *apiFixture) runner(t *testing.T, opts ...Option) *Runner {
	return newRunner(t, append([]Option{WithRegistry(f.reg)}, opts...)...)
}

func TestRunErrors(t *testing.T) {
	f := newAPIFixture(t)
	r := f.runner(t)
	ctx := context.Background()
	tests := []struct {
		id       string
		args     map[string]any
		sentinel error
		op       string
	}{
		{"", nil, ErrInvalidToolID, OpResolve},
		{"nodot", nil, ErrInvalidToolID, OpResolve},
		{"a.b.c", nil, ErrInvalidToolID, OpResolve},
		{"t.nope", nil, ErrToolNotFound, OpResolve},
		{"t.det", map[string]any{"n": "x"}, ErrValidation, OpValidateInput},
		{"t.det", map[string]any{"zzz": 1}, ErrValidation, OpValidateInput},
		{"t.fail", nil, ErrExecution, OpExecute},
		{"t.badout", nil, ErrOutputValidation, OpValidateOutput},
	}
	for _, tt := range tests {
		_, err := r.Run(ctx, tt.id, tt.args)
		var te *ToolError
		if !errors.As(err, &te) || !errors.Is(err, tt.sentinel) || te.Op != tt.op {
			t.Errorf("Run(%q, %v) = %v; want a ToolError %s matching %v", tt.id, tt.args, err, tt.op, tt.sentinel)
		}
	}
	_, err := r.Run(ctx, "t.fail", nil)
	if !errors.Is(err, errBoom) || !errors.Is(err, ErrExecution) {
		t.Errorf("the cause and the sentinel must both match: %v", err)
	}
	if got := err.Error(); got != "t.fail: execute on go:t.fail: boom" {
		t.Errorf("message = %q", got)
	}
	tctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	_, err = r.Run(tctx, "t.slow", nil)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrExecution) {
		t.Errorf("a handler's DeadlineExceeded must stay matchable: %v", err)
	}
}

func TestRunTakesPackColonName(t *testing.T) {
	f := newAPIFixture(t)
	res, err := f.runner(t).Run(context.Background(), "t:nondet", map[string]any{"n": 7})
	if err != nil || res.Value != int64(7) && res.Value != 7 {
		t.Errorf("Run(t:nondet) = %+v, %v", res, err)
	}
}

func TestDeterministicCache(t *testing.T) {
	f := newAPIFixture(t)
	r := f.runner(t)
	ctx := context.Background()
	first, err := r.Run(ctx, "t.det", map[string]any{"n": 1})
	if err != nil {
		t.Fatal(err)
	}
	// Mutating a result must never change what the next caller gets.
	first.Value.(*ordered.Map).Set("n", "changed")
	lst, _ := first.Value.(*ordered.Map).Get("list")
	lst.([]any)[0] = "changed"
	second, err := r.Run(ctx, "t.det", map[string]any{"n": 1})
	if err != nil {
		t.Fatal(err)
	}
	if !second.Cached || f.calls["det"].Load() != 1 {
		t.Errorf("second call: cached %v, handler ran %d times; want a hit and 1 run", second.Cached, f.calls["det"].Load())
	}
	data, _ := ordered.Encode(second.Value)
	if string(data) != `{"n":1,"list":[1,2]}` {
		t.Errorf("cached value = %s", data)
	}
	third, _ := r.Run(ctx, "t.det", map[string]any{"n": 2})
	if third.Cached || f.calls["det"].Load() != 2 {
		t.Error("other arguments must miss the cache")
	}
	for range 3 {
		r.Run(ctx, "t.nondet", map[string]any{"n": 1})
	}
	if n := f.calls["nondet"].Load(); n != 3 {
		t.Errorf("non-deterministic tool ran %d times, want 3", n)
	}
	if s := r.CacheStats(); s.Hits != 1 || s.Misses != 2 || s.Entries != 2 {
		t.Errorf("stats = %+v", s)
	}
}

func TestCacheBounded(t *testing.T) {
	ctx := context.Background()
	c := newResultCache(2, 1<<20)
	c.put(ctx, "a", "1")
	c.put(ctx, "b", "2")
	c.get(ctx, "a")
	c.put(ctx, "c", "3")
	if _, ok := c.get(ctx, "b"); ok {
		t.Error("the least recently used entry was kept")
	}
	small := newResultCache(100, 100)
	small.put(ctx, "k1", strings.Repeat("a", 60))
	small.put(ctx, "k2", strings.Repeat("b", 60))
	if s := small.stats(); s.Entries != 1 || s.Bytes > 100 {
		t.Errorf("byte bound not kept: %+v", s)
	}
	small.put(ctx, "huge", strings.Repeat("c", 1000))
	if _, ok := small.get(ctx, "huge"); ok {
		t.Error("an entry larger than the cache was stored")
	}
}

func TestCacheKeyIgnoresArgOrder(t *testing.T) {
	f := newAPIFixture(t)
	tool, _ := f.reg.Tool("t.det")
	a := ordered.NewMap(2)
	a.Set("x", 1)
	a.Set("y", 2)
	b := ordered.NewMap(2)
	b.Set("y", 2)
	b.Set("x", 1)
	if cacheKey(tool, map[string]any{"n": a}) != cacheKey(tool, map[string]any{"n": b}) {
		t.Error("the same arguments in another order give another key")
	}
}

func TestRunDoesNotMutateArgs(t *testing.T) {
	f := newAPIFixture(t)
	r := f.runner(t)
	args := map[string]any{"n": 1}
	before := fmt.Sprint(args)
	r.Run(context.Background(), "t.det", args)
	r.RunChain(context.Background(), []ChainStep{{ToolID: "t.prev", Args: args, UsePrevious: true}})
	if fmt.Sprint(args) != before {
		t.Errorf("args changed: %v", args)
	}
}

func TestValidationSwitches(t *testing.T) {
	f := newAPIFixture(t)
	r := f.runner(t, WithValidation(false, false))
	if _, err := r.Run(context.Background(), "t.badout", nil); err != nil {
		t.Errorf("output validation off: %v", err)
	}
	if _, err := r.Run(context.Background(), "t.nondet", map[string]any{"n": "text"}); err != nil {
		t.Errorf("input validation off: %v", err)
	}
}

func TestBackendSelection(t *testing.T) {
	f := newAPIFixture(t)
	res, err := f.runner(t).Run(context.Background(), "t.multi", nil)
	if err != nil || res.Value != "local" || res.Backend != "go:x" {
		t.Errorf("default selection = %+v, %v; want local", res, err)
	}
	preferProvider := func(_ *packs.Tool, bs []packs.Backend) (packs.Backend, error) {
		for _, b := range bs {
			if b.Kind == packs.BackendProvider {
				return b, nil
			}
		}
		return bs[0], nil
	}
	res, err = f.runner(t, WithBackendSelector(preferProvider)).Run(context.Background(), "t.multi", nil)
	if err != nil || res.Value != "provider" {
		t.Errorf("custom selection = %+v, %v", res, err)
	}
}

func TestResolvers(t *testing.T) {
	f := newAPIFixture(t)
	extra := &packs.Tool{Pack: "ext", Name: "hello", Handler: func(context.Context, map[string]any) (any, error) { return "hi", nil }}
	var asked []string
	r := f.runner(t,
		WithResolver(func(_ context.Context, id string) (*packs.Tool, error) {
			asked = append(asked, "first:"+id)
			return nil, ErrToolNotFound
		}),
		WithResolver(func(_ context.Context, id string) (*packs.Tool, error) {
			asked = append(asked, "second:"+id)
			if id == "ext.hello" {
				return extra, nil
			}
			return nil, ErrToolNotFound
		}))
	res, err := r.Run(context.Background(), "ext.hello", nil)
	if err != nil || res.Value != "hi" {
		t.Fatalf("resolved tool: %+v, %v", res, err)
	}
	if _, err := r.Run(context.Background(), "t.det", map[string]any{"n": 1}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(asked, []string{"first:ext.hello", "second:ext.hello"}) {
		t.Errorf("resolvers asked %v; the registry must come first", asked)
	}
	if _, err := r.Run(context.Background(), "ext.nope", nil); !errors.Is(err, ErrToolNotFound) {
		t.Errorf("unknown to all: %v", err)
	}
}

func TestRunChain(t *testing.T) {
	f := newAPIFixture(t)
	r := f.runner(t)
	ctx := context.Background()
	var progress []string
	final, results, err := r.RunChain(ctx, []ChainStep{
		{ToolID: "t.nondet", Args: map[string]any{"n": 5}},
		{ToolID: "t.prev", UsePrevious: true},
	}, WithProgress(func(p Progress) { progress = append(progress, p.Message) }))
	if err != nil || len(results) != 2 || final.Value != "previous=5 present=true" {
		t.Fatalf("chain = %+v %v %v", final, results, err)
	}
	if len(progress) != 2 || progress[0] != "step 1 of 2: t.nondet" {
		t.Errorf("progress = %q", progress)
	}
	// previous is overwritten even when the previous result is nil, and
	// even when the step's args had their own "previous".
	r.reg.Register(&packs.Tool{Pack: "t", Name: "null", Handler: func(context.Context, map[string]any) (any, error) { return nil, nil }})
	final, _, err = r.RunChain(ctx, []ChainStep{
		{ToolID: "t.null"},
		{ToolID: "t.prev", Args: map[string]any{"previous": "mine"}, UsePrevious: true},
	})
	if err != nil || final.Value != "previous=<nil> present=false" && final.Value != "previous=<nil> present=true" {
		t.Errorf("nil previous: %+v, %v", final, err)
	}
	// The chain stops at the first error and returns the results before.
	before := f.calls["nondet"].Load()
	_, results, err = r.RunChain(ctx, []ChainStep{
		{ToolID: "t.nondet", Args: map[string]any{"n": 1}},
		{ToolID: "t.fail"},
		{ToolID: "t.nondet", Args: map[string]any{"n": 2}},
	})
	var ce *ChainError
	if !errors.As(err, &ce) || ce.Step != 2 || ce.ToolID != "t.fail" || !errors.Is(err, errBoom) || !errors.Is(err, ErrExecution) {
		t.Errorf("chain error = %v", err)
	}
	if len(results) != 1 || results[0].Value != int64(1) && results[0].Value != 1 {
		t.Errorf("partial results = %+v", results)
	}
	if got := f.calls["nondet"].Load() - before; got != 1 {
		t.Errorf("steps after the failure ran: %d calls", got)
	}
}

func TestRunStream(t *testing.T) {
	f := newAPIFixture(t)
	r := f.runner(t)
	if _, err := r.RunStream(context.Background(), "t.det", map[string]any{"n": 1}); !errors.Is(err, ErrStreamNotSupported) {
		t.Errorf("streaming a local backend: %v, want ErrStreamNotSupported", err)
	}
	events, err := r.RunStream(context.Background(), "t.stream", nil)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	var final *Result
	for ev := range events {
		kinds = append(kinds, fmt.Sprintf("%s:%v", ev.Kind, ev.Chunk))
		if ev.Kind == EventDone {
			final = ev.Result
		}
	}
	if fmt.Sprint(kinds) != "[chunk:0 chunk:1 chunk:2 done:<nil>]" || final == nil || final.Value != "all" {
		t.Errorf("events = %v, final = %+v", kinds, final)
	}
}

func TestRunConcurrent(t *testing.T) {
	f := newAPIFixture(t)
	r := f.runner(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 50 {
				n := (i + j) % 5
				res, err := r.Run(context.Background(), "t.det", map[string]any{"n": n})
				if err != nil {
					t.Error(err)
					return
				}
				res.Value.(*ordered.Map).Set("n", -1) // callers own their copies
				if _, err := r.Run(context.Background(), "t.nondet", map[string]any{"n": n}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for n := range 5 {
		res, _ := r.Run(context.Background(), "t.det", map[string]any{"n": n})
		if v, _ := res.Value.(*ordered.Map).Get("n"); v != int64(n) && v != n {
			t.Errorf("cache corrupted by a caller: n=%d gives %v", n, v)
		}
	}
}

func TestChainInStarlark(t *testing.T) {
	f := newAPIFixture(t)
	r := f.runner(t)
	tests := []struct{ code, want string }{
		{`chain([{"tool": "t.nondet", "args": {"n": 3}}, {"tool": t.prev, "use_previous": True}])`, "previous=3 present=true"},
		{`chain([{"tool": "t:nondet", "args": {"n": 3}}])`, "3"},
		{`chain([{"tool": "t.nondet", "args": {"n": 1}}, {"tool": "t.fail"}, {"tool": "t.nondet"}])`,
			`Error: line 1: chain step 2 of 3 (t.fail) failed: boom; results of the steps before: [1]`},
		{"n = \"t.nonde\"\nchain([{\"tool\": n}])", `Error: line 2: chain step 1: unknown tool 't.nonde'; did you mean 't.nondet'?`},
		{`chain([{"tool": "t.nondet", "arg": {}}])`, `Error: line 1: chain step 1: unknown key "arg"; did you mean 'args'? (keys: tool, args, use_previous)`},
		{`chain([{"args": {}}])`, `Error: line 1: chain step 1: missing "tool": name the tool as "pack.name" or give the tool itself`},
		{`chain(["t.det"])`, `Error: line 1: chain step 1: want a dict like {"tool": "demo.foo", "args": {...}}, got string`},
		{`chain([])`, "None"},
	}
	r.reg.Register(&packs.Tool{Pack: "t", Name: "null", Handler: func(context.Context, map[string]any) (any, error) { return nil, nil }})
	r = f.runner(t)
	for _, tt := range tests {
		if res := r.Exec(context.Background(), tt.code); res.Text != tt.want {
			t.Errorf("%s\n got %q\nwant %q", tt.code, res.Text, tt.want)
		}
	}
	// Chain calls count against the run's tool-call budget.
	l := DefaultLimits()
	l.MaxToolCalls = 1
	r = f.runner(t, WithLimits(l))
	res := r.Exec(context.Background(), `chain([{"tool": "t.nondet", "args": {"n": 1}}, {"tool": "t.nondet", "args": {"n": 2}}])`)
	if !errors.Is(res.Err, ErrToolCallLimit) {
		t.Errorf("budget: %q", res.Text)
	}
}
