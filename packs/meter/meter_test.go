package meter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"testing"
)

var errOver = errors.New("over")

func newBudget(limit int64) *Budget {
	return NewBudget(limit, func(limit int64) error { return fmt.Errorf("%w: %d", errOver, limit) })
}

// TestFromWithoutMeter: a call made outside a run is not metered.
func TestFromWithoutMeter(t *testing.T) {
	m := From(context.Background())
	if !Unlimited(m) || m.Available() != math.MaxInt64 || m.Charge(1<<62) != nil {
		t.Errorf("From(Background) = %#v, want an unlimited meter", m)
	}
	c := newBudget(10).Call()
	if got := From(With(context.Background(), c)); got != c {
		t.Errorf("From(With(c)) = %v", got)
	}
}

// TestChargeOverTheLimit: the charge that passes the limit fails with the
// run's error, and so does every later one until bytes are let go.
func TestChargeOverTheLimit(t *testing.T) {
	b := newBudget(100)
	c := b.Call()
	if err := c.Charge(60); err != nil {
		t.Fatal(err)
	}
	if got := c.Available(); got != 40 {
		t.Errorf("Available = %d, want 40", got)
	}
	if err := c.Charge(41); !errors.Is(err, errOver) || !strings.Contains(err.Error(), "100") {
		t.Errorf("Charge over the limit = %v", err)
	}
	if err := c.Charge(1); !errors.Is(err, errOver) {
		t.Errorf("Charge after the limit = %v", err)
	}
	c.Release(60)
	if err := c.Charge(10); err != nil {
		t.Errorf("Charge after a release = %v", err)
	}
}

// TestHeldWhileAnyCallRuns: results of calls that ran together count
// together until the last ends; a failed call's go at once.
func TestHeldWhileAnyCallRuns(t *testing.T) {
	b := newBudget(100)
	a, c := b.Call(), b.Call()
	if err := a.Charge(60); err != nil {
		t.Fatal(err)
	}
	a.End(false) // its result waits in parallel() for c
	if err := c.Charge(50); !errors.Is(err, errOver) {
		t.Errorf("the second result of a parallel() over the budget together: %v", err)
	}
	c.End(true)
	if got := b.Held(); got != 0 {
		t.Errorf("held %d after every call ended", got)
	}

	// One call after another: each may use the whole budget.
	for range 3 {
		d := b.Call()
		if err := d.Charge(90); err != nil {
			t.Errorf("a call after the others ended: %v", err)
		}
		d.End(false)
	}

	// A failed call's bytes are let go while others still run.
	x, y := b.Call(), b.Call()
	_ = x.Charge(90)
	x.End(true)
	if err := y.Charge(90); err != nil {
		t.Errorf("after a failed call: %v", err)
	}
	y.End(false)
	x.End(false) // twice: nothing
	if got := b.Held(); got != 0 {
		t.Errorf("held %d", got)
	}
	if err := x.Charge(1000); err != nil {
		t.Errorf("a charge after the end: %v", err)
	}
}

// TestUnlimitedBudget: a limit of 0 never refuses.
func TestUnlimitedBudget(t *testing.T) {
	c := NewBudget(0, nil).Call()
	if err := c.Charge(1 << 62); err != nil || c.Available() != math.MaxInt64 {
		t.Errorf("Charge = %v, Available = %d", err, c.Available())
	}
}

// TestConcurrentCalls: the calls of a parallel() charge one budget at
// once; the total they were allowed never passes the limit by more than
// the one charge that failed.
func TestConcurrentCalls(t *testing.T) {
	const limit, calls, chunk = 1 << 20, 16, 1024
	b := newBudget(limit)
	release := b.Hold() // parallel() holds the budget while it gathers
	var wg sync.WaitGroup
	var mu sync.Mutex
	accepted := int64(0)
	for range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := b.Call()
			defer c.End(false)
			for {
				if err := c.Charge(chunk); err != nil {
					return
				}
				mu.Lock()
				accepted += chunk
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if accepted > limit {
		t.Errorf("accepted %d bytes at a limit of %d", accepted, limit)
	}
	if b.Held() == 0 {
		t.Error("the results were let go while parallel() still held them")
	}
	release()
	release()
	if b.Held() != 0 {
		t.Errorf("held %d after all ended", b.Held())
	}
}

// TestReader: bytes are charged as they are read, and the read that
// passes the budget fails with its error, as do later ones.
func TestReader(t *testing.T) {
	b := newBudget(10)
	c := b.Call()
	r := Reader(c, strings.NewReader(strings.Repeat("x", 100)))
	got, err := io.ReadAll(r)
	if !errors.Is(err, errOver) {
		t.Fatalf("ReadAll = %d bytes, %v", len(got), err)
	}
	if len(got) > 100 {
		t.Errorf("read %d", len(got))
	}
	if _, err := r.Read(make([]byte, 1)); !errors.Is(err, errOver) {
		t.Errorf("a read after the failure: %v", err)
	}
	// Unmetered: the reader itself.
	plain := strings.NewReader("x")
	if Reader(From(context.Background()), plain) != io.Reader(plain) {
		t.Error("an unlimited meter wraps the reader")
	}
}

// TestWriter: a write the budget cannot hold is not passed on.
func TestWriter(t *testing.T) {
	c := newBudget(10).Call()
	var buf bytes.Buffer
	w := Writer(c, &buf)
	if _, err := w.Write([]byte("12345")); err != nil {
		t.Fatal(err)
	}
	if n, err := w.Write([]byte("123456")); n != 0 || !errors.Is(err, errOver) {
		t.Errorf("Write over the budget = %d, %v", n, err)
	}
	if _, err := w.Write([]byte("1")); !errors.Is(err, errOver) {
		t.Errorf("a write after the failure: %v", err)
	}
	if buf.String() != "12345" {
		t.Errorf("passed on %q", buf.String())
	}
}

func BenchmarkCharge(b *testing.B) {
	c := newBudget(math.MaxInt64).Call()
	for b.Loop() {
		_ = c.Charge(100)
	}
}
