// Package ratelimit bounds the runs of each principal of an HTTP server
// (SPEC §7.4, serve.rate_limit): how many runs it may start per minute and
// how many it may have in flight at once. A run over either bound is
// refused before it starts; the MCP server asks for every tools/call
// go-sdk dispatches (runner/mcpserver), and its client gets 429 Too Many
// Requests with Retry-After.
//
// Runs per minute are counted in a store.Store, in fixed windows of one
// calendar minute: with a shared store (Redis) every replica sees the same
// count, so the bound holds for the whole deployment. Runs in flight are
// counted in this process: a replica that dies cannot leave a count behind
// that would lock its principal out.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/onetool-dev/onetool/runner/store"
)

// ErrLimited is the cause of every refusal: errors.Is(err, ErrLimited)
// holds for a *Refusal.
var ErrLimited = errors.New("rate limit")

// Options configure a Limiter. Zero bounds are off.
type Options struct {
	// RunsPerMinute is how many runs one principal may start in a
	// calendar minute (serve.rate_limit.runs_per_minute).
	RunsPerMinute int
	// Concurrent is how many runs one principal may have in flight in
	// this process at once (serve.rate_limit.concurrent).
	Concurrent int
	// Counters hold the per-minute counts; nil keeps them in this
	// process. Pass the runner's Counters so that replicas sharing a store
	// share the counts.
	Counters store.Store
	// Log receives a warning when the counters cannot be reached; nil
	// discards it.
	Log *slog.Logger
	// Now is the clock; nil means time.Now. For tests.
	Now func() time.Time
}

// Limiter admits or refuses runs. It is safe for concurrent use.
type Limiter struct {
	opts Options

	mu       sync.Mutex
	inflight map[string]int // principal's identity → runs in flight here

	lastWarn atomic.Int64 // unix seconds of the last "store unreachable" warning
}

// New returns a limiter, or nil when opts set no bound: a nil *Limiter
// admits every run.
func New(opts Options) *Limiter {
	if opts.RunsPerMinute <= 0 && opts.Concurrent <= 0 {
		return nil
	}
	if opts.Counters == nil && opts.RunsPerMinute > 0 {
		opts.Counters = store.NewMemory(store.MemoryOptions{})
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Limiter{opts: opts, inflight: map[string]int{}}
}

// Refusal is a run refused by the limiter. Its text says which bound, of
// whom, and when to try again.
type Refusal struct {
	// Principal is the name of who was refused, as users see it; "" for
	// a server without serve.auth, where every client counts as one.
	Principal string
	// Setting is the bound that refused: "runs_per_minute" or "concurrent".
	Setting string
	// Limit is the bound's value.
	Limit int
	// RetryAfter is when a run may be admitted again (at least 1s).
	RetryAfter time.Duration
}

func (r *Refusal) Error() string {
	who := "principal '" + r.Principal + "' has"
	if r.Principal == "" {
		who = "this server's clients have" // no serve.auth: all count as one
	}
	if r.Setting == "concurrent" {
		return fmt.Sprintf("rate limit: %s %s in flight already (serve.rate_limit.concurrent: %d); retry when one has finished", who, runs(r.Limit), r.Limit)
	}
	return fmt.Sprintf("rate limit: %s started %s this minute (serve.rate_limit.runs_per_minute: %d); retry in %ds", who, runs(r.Limit), r.Limit, int(r.RetryAfter/time.Second))
}

func runs(n int) string {
	if n == 1 {
		return "1 run"
	}
	return fmt.Sprintf("%d runs", n)
}

// Seconds is RetryAfter in whole seconds, as a Retry-After header says
// it.
func (r *Refusal) Seconds() int { return int(ceilSecond(r.RetryAfter) / time.Second) }

// Is makes errors.Is(err, ErrLimited) hold.
func (r *Refusal) Is(target error) bool { return target == ErrLimited }

// Acquire admits one run of the principal whose identity is key
// (auth.Principal.Key: "" when nobody authenticated, and all count as
// one), or refuses it with a *Refusal that names it as name. An admitted
// run must call release when it ends. A refused run still counts against
// the minute: a client that retries at once gains nothing.
//
// When the counters cannot be reached the run is admitted, and a warning
// logged: an outage of Redis must not stop every team member's work, and
// the bound on runs in flight still holds.
func (l *Limiter) Acquire(ctx context.Context, key, name string) (release func(), err error) {
	if l == nil {
		return func() {}, nil
	}
	if c := l.opts.Concurrent; c > 0 {
		l.mu.Lock()
		if l.inflight[key] >= c {
			l.mu.Unlock()
			return nil, &Refusal{Principal: name, Setting: "concurrent", Limit: c, RetryAfter: time.Second}
		}
		l.inflight[key]++
		l.mu.Unlock()
		release = sync.OnceFunc(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			if l.inflight[key]--; l.inflight[key] <= 0 {
				delete(l.inflight, key) // a map that only grows would hold every name ever seen
			}
		})
	} else {
		release = func() {}
	}
	if n := l.opts.RunsPerMinute; n > 0 {
		now := l.opts.Now()
		window := now.Truncate(time.Minute)
		left := window.Add(time.Minute).Sub(now)
		counter := "runs:" + strconv.FormatInt(window.Unix()/60, 10) + ":" + key
		// The counter outlives its window a little, so that replicas whose
		// clocks differ by a few seconds still meet the same one.
		count, err := l.opts.Counters.Incr(ctx, counter, left+10*time.Second)
		switch {
		case err != nil:
			l.warn(err)
		case count > int64(n):
			release()
			return nil, &Refusal{Principal: name, Setting: "runs_per_minute", Limit: n, RetryAfter: ceilSecond(left)}
		}
	}
	return release, nil
}

// ceilSecond rounds d up to whole seconds, at least one: what
// Retry-After can say.
func ceilSecond(d time.Duration) time.Duration {
	s := (d + time.Second - 1) / time.Second
	return max(s, 1) * time.Second
}

// warn logs an unreachable store at most once a minute.
func (l *Limiter) warn(err error) {
	if l.opts.Log == nil {
		return
	}
	now := l.opts.Now().Unix()
	last := l.lastWarn.Load()
	if now-last < 60 || !l.lastWarn.CompareAndSwap(last, now) {
		return
	}
	l.opts.Log.Warn("rate limit: the counters cannot be reached; runs are admitted without counting them per minute", "err", err)
}
