package ratelimit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/runner/store"
	"github.com/onetool-dev/onetool/runner/store/storetest"
)

// clock is a settable time for tests.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.t = t }

// at is 12:00:45 on the test's day: 15 s of its minute are left.
var at = time.Date(2026, 11, 25, 12, 0, 45, 0, time.UTC)

func TestRunsPerMinute(t *testing.T) {
	ctx := context.Background()
	clk := &clock{t: at}
	counters := store.NewMemory(store.MemoryOptions{Now: clk.now})
	l := New(Options{RunsPerMinute: 3, Counters: counters, Now: clk.now})
	for i := range 3 {
		release, err := l.Acquire(ctx, "alice")
		if err != nil {
			t.Fatalf("run %d of 3: %v", i+1, err)
		}
		release()
	}
	_, err := l.Acquire(ctx, "alice")
	var rf *Refusal
	if !errors.As(err, &rf) || !errors.Is(err, ErrLimited) {
		t.Fatalf("run 4 of a limit of 3: got %v, want a *Refusal", err)
	}
	if rf.RetryAfter != 15*time.Second {
		t.Errorf("RetryAfter = %v, want the 15s left of the minute", rf.RetryAfter)
	}
	want := "rate limit: principal 'alice' has started 3 runs this minute (serve.rate_limit.runs_per_minute: 3); retry in 15s"
	if err.Error() != want {
		t.Errorf("text:\n got %s\nwant %s", err, want)
	}
	// Another principal has its own count.
	if _, err := l.Acquire(ctx, "bob"); err != nil {
		t.Errorf("bob refused for alice's runs: %v", err)
	}
	// The next minute starts afresh.
	clk.set(at.Add(16 * time.Second))
	if _, err := l.Acquire(ctx, "alice"); err != nil {
		t.Errorf("alice in the next minute: %v", err)
	}
}

func TestConcurrent(t *testing.T) {
	ctx := context.Background()
	l := New(Options{Concurrent: 2})
	r1, err := l.Acquire(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	r2, err := l.Acquire(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	_, err = l.Acquire(ctx, "alice")
	want := "rate limit: principal 'alice' has 2 runs in flight already (serve.rate_limit.concurrent: 2); retry when one has finished"
	if err == nil || err.Error() != want {
		t.Fatalf("third run in flight: got %v\nwant %s", err, want)
	}
	if _, err := l.Acquire(ctx, "bob"); err != nil {
		t.Errorf("bob refused for alice's runs: %v", err)
	}
	r1()
	r1() // releasing twice must not free a second slot
	r3, err := l.Acquire(ctx, "alice")
	if err != nil {
		t.Fatalf("after one finished: %v", err)
	}
	if _, err := l.Acquire(ctx, "alice"); err == nil {
		t.Fatal("a double release freed a slot")
	}
	r2()
	r3()
	if n := len(l.inflight); n != 1 { // bob's run still holds its entry
		t.Errorf("%d principals in flight, want 1: finished ones must not stay in the map", n)
	}
}

// A run refused for being one too many in flight does not count against
// the minute, and one refused for the minute holds no slot.
func TestBoundsTogether(t *testing.T) {
	ctx := context.Background()
	clk := &clock{t: at}
	l := New(Options{RunsPerMinute: 2, Concurrent: 1, Counters: store.NewMemory(store.MemoryOptions{Now: clk.now}), Now: clk.now})
	r1, err := l.Acquire(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Acquire(ctx, "a"); err == nil || !strings.Contains(err.Error(), "in flight") {
		t.Fatalf("want the concurrent refusal, got %v", err)
	}
	r1()
	r2, err := l.Acquire(ctx, "a")
	if err != nil {
		t.Fatalf("second run of the minute: %v", err)
	}
	r2()
	if _, err := l.Acquire(ctx, "a"); err == nil || !strings.Contains(err.Error(), "this minute") {
		t.Fatalf("third run of a minute of 2: %v", err)
	}
	// The refused run released its slot: the next minute admits one at once.
	clk.set(at.Add(time.Minute))
	if _, err := l.Acquire(ctx, "a"); err != nil {
		t.Fatalf("next minute: %v", err)
	}
}

func TestNoBoundsNoLimiter(t *testing.T) {
	var l *Limiter = New(Options{})
	if l != nil {
		t.Fatal("New without bounds must return nil")
	}
	release, err := l.Acquire(context.Background(), "x")
	if err != nil {
		t.Fatal(err)
	}
	release()
	// A nil limiter's middleware passes every run, however many.
	served := 0
	h := l.Middleware(nil, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { served++ }))
	for i := range 3 {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(rpc("tools/call", i+1))))
	}
	if served != 3 {
		t.Errorf("nil limiter served %d of 3 runs", served)
	}
}

func TestAnonymousText(t *testing.T) {
	l := New(Options{Concurrent: 1})
	if _, err := l.Acquire(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	_, err := l.Acquire(context.Background(), "")
	if err == nil || !strings.Contains(err.Error(), "rate limit: this server's clients have 1 run in flight already") {
		t.Errorf("anonymous refusal: %v", err)
	}
}

// failing is a store whose backend is down.
type failing struct{ store.Store }

func (failing) Incr(context.Context, string, time.Duration) (int64, error) {
	return 0, store.ErrUnavailable
}

// An unreachable store admits runs and warns, once a minute.
func TestStoreDownAdmits(t *testing.T) {
	var logs bytes.Buffer
	clk := &clock{t: at}
	l := New(Options{RunsPerMinute: 1, Counters: failing{}, Now: clk.now, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	for range 5 {
		if _, err := l.Acquire(context.Background(), "a"); err != nil {
			t.Fatalf("refused while the store is down: %v", err)
		}
	}
	if n := strings.Count(logs.String(), "cannot be reached"); n != 1 {
		t.Errorf("%d warnings in one minute, want 1:\n%s", n, logs.String())
	}
}

// Replicas that share a Redis share the count of a principal's minute.
func TestRunsPerMinuteAcrossReplicas(t *testing.T) {
	srv := storetest.StartRedis(t)
	ctx := context.Background()
	var limiters []*Limiter
	for range 2 {
		rs, err := store.NewRedis(srv.URL(0))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rs.Close() })
		limiters = append(limiters, New(Options{RunsPerMinute: 3, Counters: rs}))
	}
	admitted := 0
	for i := range 6 {
		if _, err := limiters[i%2].Acquire(ctx, "alice"); err == nil {
			admitted++
		}
	}
	// Fewer than 3 only if the calendar minute turned during the loop.
	if admitted > 3 {
		t.Errorf("two replicas admitted %d runs against a shared limit of 3", admitted)
	}
}

func rpc(method string, id int) string {
	return `{"jsonrpc":"2.0","id":` + string(rune('0'+id)) + `,"method":"` + method + `","params":{"name":"run","arguments":{"command":"1"}}}`
}

func TestMiddleware(t *testing.T) {
	l := New(Options{Concurrent: 1})
	var seen []string
	block := make(chan struct{})
	entered := make(chan struct{}, 1)
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		seen = append(seen, string(b))
		if strings.Contains(string(b), `"id":1`) {
			entered <- struct{}{}
			<-block
		}
		w.WriteHeader(http.StatusOK)
	})
	h := l.Middleware(func(*http.Request) string { return "ci" }, next)
	post := func(body string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body)))
		return w
	}
	done := make(chan *httptest.ResponseRecorder)
	go func() { done <- post(rpc("tools/call", 1)) }()
	<-entered

	// A second run of ci while the first is in flight: 429.
	w := post(rpc("tools/call", 2))
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "1" {
		t.Fatalf("second run in flight: %d, Retry-After %q; want 429 and 1", w.Code, w.Header().Get("Retry-After"))
	}
	var answer struct {
		ID    int
		Error struct{ Message string }
	}
	if err := json.Unmarshal(w.Body.Bytes(), &answer); err != nil || answer.ID != 2 ||
		!strings.HasPrefix(answer.Error.Message, "Error: rate limit: principal 'ci' has 1 run in flight already") {
		t.Errorf("429 body: %s (%v); want a JSON-RPC error answering id 2", w.Body, err)
	}
	// What is not a run passes, whole.
	list := rpc("tools/list", 3)
	if w := post(list); w.Code != http.StatusOK {
		t.Errorf("tools/list while a run is in flight: %d", w.Code)
	}
	if w := post("not json"); w.Code != http.StatusOK {
		t.Errorf("a body that is not JSON must reach the handler, which answers it: %d", w.Code)
	}
	close(block)
	if w := <-done; w.Code != http.StatusOK {
		t.Fatalf("first run: %d", w.Code)
	}
	if w := post(rpc("tools/call", 4)); w.Code != http.StatusOK {
		t.Errorf("a run after the first finished: %d", w.Code)
	}
	if len(seen) != 4 || seen[1] != list {
		t.Errorf("the handler saw %q; want every admitted body whole", seen)
	}
}

// A body beyond MaxPeek reaches the handler whole, uncounted: the MCP
// handler refuses it as too large.
func TestMiddlewareLargeBody(t *testing.T) {
	l := New(Options{Concurrent: 1})
	big := `{"method":"tools/call","id":1,"params":{"x":"` + strings.Repeat("a", MaxPeek) + `"}}`
	var got int
	h := l.Middleware(nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = len(b)
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(big)))
	if got != len(big) {
		t.Errorf("handler read %d bytes of %d", got, len(big))
	}
}

// Finish, called by the tool handler with the request's headers, frees
// the run's slot before the HTTP handler returns; a slot a client names
// itself frees nothing.
func TestFinish(t *testing.T) {
	l := New(Options{Concurrent: 1})
	var during error
	h := l.Middleware(nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.Finish(r.Header)
		// The answer is ready: the next run may start at once.
		release, err := l.Acquire(context.Background(), "")
		during = err
		if err == nil {
			release()
		}
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(rpc("tools/call", 1))))
	if during != nil {
		t.Errorf("after Finish, a run was refused: %v", during)
	}

	// A client that forges the header on another request cannot free a
	// run in flight.
	held, err := l.Acquire(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer held()
	forged := l.Middleware(nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(SlotHeader) != "" {
			t.Errorf("a request that is not a run kept the client's %s header", SlotHeader)
		}
		l.Finish(r.Header)
	}))
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(rpc("tools/list", 2)))
	for i := range 5 {
		req.Header.Set(SlotHeader, strconv.Itoa(i))
		forged.ServeHTTP(httptest.NewRecorder(), req)
	}
	if _, err := l.Acquire(context.Background(), ""); err == nil {
		t.Error("a forged slot header freed the run in flight")
	}
}
