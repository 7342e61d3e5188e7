// Package meter charges what tool calls receive — database rows, response
// bodies, an upstream server's result, a command's output — to the memory
// budget of the run that made the call (limits.max_memory, SPEC §8.1), as
// it arrives, so that no call holds more than the run may hold.
//
// The interpreter measures the values a program keeps, but a tool call
// runs in Go, on goroutines of its own, before its result is a value of
// the program: four parallel db.query("SELECT zeroblob(250000000)") once
// took a run to 2.1 GB at a 128 MiB budget. A pack therefore charges a
// Meter before (or as) it allocates, and stops when Charge fails:
//
//	m := meter.From(ctx)              // the call's meter; unlimited if none
//	body := meter.Reader(m, resp.Body) // counts bytes as they are read
//	if err := m.Charge(int64(len(row))); err != nil {
//		return nil, err // the run's memory-limit error, to return as is
//	}
//
// The runner puts one Meter per tool call in the call's context (With),
// drawn from one Budget per run: a Budget is shared by the run's calls,
// which may run at once (parallel(), tool.map, plan), and is safe for
// concurrent use. Code that calls a tool without a run gets an unlimited
// meter.
//
// Where other packs would call it: packs/mcpclient when it turns an
// upstream result into values (the size of each content part, before
// decoding), and around an HTTP server's response body per request;
// packs/toolpack around a command's standard output (Writer), so that a
// command that prints gigabytes stops at the budget.
package meter

import (
	"context"
	"io"
	"math"
	"sync"
)

// A Meter counts the bytes one tool call receives against its run's
// memory budget. Its methods are safe for concurrent use.
type Meter interface {
	// Charge counts n more bytes. It returns an error when the run's
	// budget cannot hold them: the run's memory-limit error, which the
	// call returns (wrapped or not) so that the run ends with it. The
	// bytes stay counted all the same, until the call ends.
	Charge(n int64) error
	// Release gives back n bytes charged before and since dropped: a
	// buffer freed, a reservation no longer needed.
	Release(n int64)
	// Available is how many more bytes Charge would accept now:
	// math.MaxInt64 when nothing is metered, 0 or less when the budget is
	// spent. A pack sizes what it lets a library allocate by it (the db
	// pack sets SQLite's longest value from it).
	Available() int64
}

type meterKey struct{}

// With returns ctx carrying m, the meter of the tool call that ctx is for.
func With(ctx context.Context, m Meter) context.Context {
	return context.WithValue(ctx, meterKey{}, m)
}

// From returns the meter of the tool call ctx is for; a meter that counts
// nothing and never refuses when there is none.
func From(ctx context.Context) Meter {
	if m, ok := ctx.Value(meterKey{}).(Meter); ok && m != nil {
		return m
	}
	return unlimited{}
}

// Unlimited reports whether m meters nothing: Available never shrinks and
// Charge never fails, so a pack may skip work done only for the meter.
func Unlimited(m Meter) bool {
	_, ok := m.(unlimited)
	return ok
}

type unlimited struct{}

func (unlimited) Charge(int64) error { return nil }
func (unlimited) Release(int64)      {}
func (unlimited) Available() int64   { return math.MaxInt64 }

// Reader returns r whose reads are charged to m as they arrive: a read
// that the budget cannot hold returns the bytes it read with m's error,
// and every later read returns that error too. Decompressing readers
// belong inside it, so that what is counted is what was unpacked.
func Reader(m Meter, r io.Reader) io.Reader {
	if Unlimited(m) {
		return r
	}
	return &reader{m: m, r: r}
}

type reader struct {
	m   Meter
	r   io.Reader
	err error
}

func (r *reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.r.Read(p)
	if n > 0 {
		if cerr := r.m.Charge(int64(n)); cerr != nil {
			r.err = cerr
			return n, cerr
		}
	}
	return n, err
}

// Writer returns w whose writes are charged to m before they are passed
// on: a write the budget cannot hold is not passed on and fails with m's
// error, as does every later one (a command's output, collected).
func Writer(m Meter, w io.Writer) io.Writer {
	if Unlimited(m) {
		return w
	}
	return &writer{m: m, w: w}
}

type writer struct {
	m   Meter
	w   io.Writer
	err error
}

func (w *writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if err := w.m.Charge(int64(len(p))); err != nil {
		w.err = err
		return 0, err
	}
	return w.w.Write(p)
}

// A Budget is a run's memory budget as its tool calls see it: the bytes
// they are receiving, against one limit, shared by calls that run at
// once. What a call received stays charged while any call of the run is
// still running — the results of a parallel() are all held until its last
// call ends, so they count together — and is let go once none is: the
// results are the program's values by then, and the interpreter's own
// measure of what the program holds takes over. A failed call's charges
// are let go when it ends (its data is dropped).
//
// A Budget is safe for concurrent use. The zero value is not usable: make
// one with NewBudget.
type Budget struct {
	limit int64
	over  func(limit int64) error

	mu      sync.Mutex
	running int   // calls started and not ended
	held    int64 // bytes charged by calls and not let go
}

// NewBudget returns the budget of a run allowed limit bytes (0 or less:
// unlimited). over makes the error a refused charge returns: the run's
// memory-limit error.
func NewBudget(limit int64, over func(limit int64) error) *Budget {
	return &Budget{limit: limit, over: over}
}

// Call starts metering one tool call. End it when the call returns.
func (b *Budget) Call() *Call {
	b.mu.Lock()
	b.running++
	b.mu.Unlock()
	return &Call{b: b}
}

// Hold keeps what the run's calls receive charged until release is
// called, as if a call were running: a combinator (parallel(), tool.map,
// plan()) holds the budget while it gathers its calls' results, so that
// calls that happen not to overlap still count together. release may be
// called more than once.
func (b *Budget) Hold() (release func()) {
	b.mu.Lock()
	b.running++
	b.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			b.running--
			if b.running == 0 {
				b.held = 0
			}
		})
	}
}

// Held reports the bytes charged now, for tests and statistics.
func (b *Budget) Held() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.held
}

// A Call is the Meter of one tool call of a run (Budget.Call).
type Call struct {
	b *Budget

	mu      sync.Mutex
	charged int64 // this call's share of b.held
	ended   bool
}

// Charge counts n bytes received by the call; see Meter.
func (c *Call) Charge(n int64) error {
	if n <= 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return nil // a straggler after the answer: nothing is held for it
	}
	c.charged += n
	b := c.b
	b.mu.Lock()
	b.held += n
	over := b.limit > 0 && b.held > b.limit
	b.mu.Unlock()
	if over {
		return b.over(b.limit)
	}
	return nil
}

// Release gives back n bytes of the call's charges.
func (c *Call) Release(n int64) {
	if n <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return
	}
	n = min(n, c.charged)
	c.charged -= n
	c.b.mu.Lock()
	c.b.held -= n
	c.b.mu.Unlock()
}

// Available is what the run's budget has left; see Meter.
func (c *Call) Available() int64 {
	b := c.b
	if b.limit <= 0 {
		return math.MaxInt64
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.limit - b.held
}

// End ends the call: a failed call's charges are let go at once, and when
// it was the last call running, every call's are (see Budget). Ending
// twice does nothing.
func (c *Call) End(failed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return
	}
	c.ended = true
	b := c.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if failed {
		b.held -= c.charged
	}
	c.charged = 0
	b.running--
	if b.running == 0 {
		b.held = 0
	}
}
