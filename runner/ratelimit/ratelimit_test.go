package ratelimit

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/runner/store"
	"github.com/onetool-dev/onetool/runner/store/storetest"
)

// at is 12:00:45 on the test's day: 15 s of its minute are left.
var at = time.Date(2026, 11, 25, 12, 0, 45, 0, time.UTC)

func TestRunsPerMinute(t *testing.T) {
	ctx := context.Background()
	clk := storetest.NewClock(at)
	counters := store.NewMemory(store.MemoryOptions{Now: clk.Now})
	l := New(Options{RunsPerMinute: 3, Counters: counters, Now: clk.Now})
	for i := range 3 {
		release, err := l.Acquire(ctx, "alice", "alice")
		if err != nil {
			t.Fatalf("run %d of 3: %v", i+1, err)
		}
		release()
	}
	_, err := l.Acquire(ctx, "alice", "alice")
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
	if _, err := l.Acquire(ctx, "bob", "bob"); err != nil {
		t.Errorf("bob refused for alice's runs: %v", err)
	}
	// The next minute starts afresh.
	clk.Set(at.Add(16 * time.Second))
	if _, err := l.Acquire(ctx, "alice", "alice"); err != nil {
		t.Errorf("alice in the next minute: %v", err)
	}
}

func TestConcurrent(t *testing.T) {
	ctx := context.Background()
	l := New(Options{Concurrent: 2})
	r1, err := l.Acquire(ctx, "alice", "alice")
	if err != nil {
		t.Fatal(err)
	}
	r2, err := l.Acquire(ctx, "alice", "alice")
	if err != nil {
		t.Fatal(err)
	}
	_, err = l.Acquire(ctx, "alice", "alice")
	want := "rate limit: principal 'alice' has 2 runs in flight already (serve.rate_limit.concurrent: 2); retry when one has finished"
	if err == nil || err.Error() != want {
		t.Fatalf("third run in flight: got %v\nwant %s", err, want)
	}
	if _, err := l.Acquire(ctx, "bob", "bob"); err != nil {
		t.Errorf("bob refused for alice's runs: %v", err)
	}
	r1()
	r1() // releasing twice must not free a second slot
	r3, err := l.Acquire(ctx, "alice", "alice")
	if err != nil {
		t.Fatalf("after one finished: %v", err)
	}
	if _, err := l.Acquire(ctx, "alice", "alice"); err == nil {
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
	clk := storetest.NewClock(at)
	l := New(Options{RunsPerMinute: 2, Concurrent: 1, Counters: store.NewMemory(store.MemoryOptions{Now: clk.Now}), Now: clk.Now})
	r1, err := l.Acquire(ctx, "a", "a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Acquire(ctx, "a", "a"); err == nil || !strings.Contains(err.Error(), "in flight") {
		t.Fatalf("want the concurrent refusal, got %v", err)
	}
	r1()
	r2, err := l.Acquire(ctx, "a", "a")
	if err != nil {
		t.Fatalf("second run of the minute: %v", err)
	}
	r2()
	if _, err := l.Acquire(ctx, "a", "a"); err == nil || !strings.Contains(err.Error(), "this minute") {
		t.Fatalf("third run of a minute of 2: %v", err)
	}
	// The refused run released its slot: the next minute admits one at once.
	clk.Set(at.Add(time.Minute))
	if _, err := l.Acquire(ctx, "a", "a"); err != nil {
		t.Fatalf("next minute: %v", err)
	}
}

func TestNoBoundsNoLimiter(t *testing.T) {
	var l *Limiter = New(Options{})
	if l != nil {
		t.Fatal("New without bounds must return nil")
	}
	release, err := l.Acquire(context.Background(), "x", "x")
	if err != nil {
		t.Fatal(err)
	}
	release()
}

func TestAnonymousText(t *testing.T) {
	l := New(Options{Concurrent: 1})
	if _, err := l.Acquire(context.Background(), "", ""); err != nil {
		t.Fatal(err)
	}
	_, err := l.Acquire(context.Background(), "", "")
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
	clk := storetest.NewClock(at)
	l := New(Options{RunsPerMinute: 1, Counters: failing{}, Now: clk.Now, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	for range 5 {
		if _, err := l.Acquire(context.Background(), "a", "a"); err != nil {
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
		if _, err := limiters[i%2].Acquire(ctx, "alice", "alice"); err == nil {
			admitted++
		}
	}
	// Fewer than 3 only if the calendar minute turned during the loop.
	if admitted > 3 {
		t.Errorf("two replicas admitted %d runs against a shared limit of 3", admitted)
	}
}

// Bounds count per identity, not per shown name: an OAuth subject named
// like a static token has bounds of its own; a refusal names whom it
// refused as users know them.
func TestIdentitiesApart(t *testing.T) {
	l := New(Options{Concurrent: 1})
	ctx := context.Background()
	if _, err := l.Acquire(ctx, "token:alice", "alice"); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Acquire(ctx, "oauth:https://issuer.example#alice", "oauth:alice"); err != nil {
		t.Errorf("the OAuth subject alice shares the static token's bound: %v", err)
	}
	_, err := l.Acquire(ctx, "token:alice", "alice")
	if err == nil || !strings.Contains(err.Error(), "rate limit: principal 'alice' has 1 run in flight already") {
		t.Errorf("second run of token:alice: %v", err)
	}
}
