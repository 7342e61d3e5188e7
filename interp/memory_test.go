package interp

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// The memory bombs of the issue: a string doubled 40 times (a terabyte if
// nothing stopped it) and a list grown without end. Each must end with the
// memory error, not take the process down.
func TestMemoryBombs(t *testing.T) {
	w := NewWatchdog()
	for _, code := range []string{
		"s = \"x\"\nfor i in range(40):\n    s = s + s\nlen(s)",
		"def f():\n    s = \"x\"\n    for i in range(40):\n        s += s\n    return len(s)\nf()",
		"l = []\nwhile True:\n    l.append(\"%d\" % len(l) * 20)",
		"d = {}\nfor i in range(100000000):\n    d[i] = [i] * 10",
		"s = \"ab\"\nparts = [s]\nwhile True:\n    parts = parts + parts",
	} {
		t.Run(strings.SplitN(code, "\n", 2)[1], func(t *testing.T) {
			_, err := run(t, code, Options{MaxMemory: 64 << 20, Watchdog: w, Timeout: 20 * time.Second})
			if !errors.Is(err, ErrMemoryLimit) || !errors.Is(err, ErrLimit) {
				t.Fatalf("error = %v, want the memory limit", err)
			}
			if got := err.Error(); got != "memory limit of 64 MiB exceeded (set limits.max_memory to raise it)" {
				t.Errorf("message = %q", got)
			}
		})
	}
}

// A bomb ends alone: runs beside it that hold little finish normally.
func TestMemoryBombSparesOtherRuns(t *testing.T) {
	w := NewWatchdog()
	opts := Options{MaxMemory: 64 << 20, Watchdog: w, Timeout: 20 * time.Second}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var mu sync.Mutex
	var others []error
	done := 0
	for i := 0; i < 8; i++ {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				// Busy enough to be mid-run at every alarm.
				_, err := run(t, "t = 0\nfor i in range(20000):\n    t += len(str(i))\nt", opts)
				mu.Lock()
				done++
				if err != nil {
					others = append(others, err)
				}
				mu.Unlock()
			}
		})
	}
	for range 3 {
		_, err := run(t, "s = \"x\"\nfor i in range(40):\n    s = s + s", opts)
		if !errors.Is(err, ErrMemoryLimit) {
			t.Errorf("bomb: error = %v, want the memory limit", err)
		}
	}
	close(stop)
	wg.Wait()
	if len(others) > 0 {
		t.Errorf("%d of %d concurrent runs failed, first: %v", len(others), done, others[0])
	}
	if done == 0 {
		t.Error("no concurrent run finished")
	}
}

// Values that are shared count once: a list holding the same large string
// a thousand times is not a thousand strings.
func TestMemorySharedValuesCountOnce(t *testing.T) {
	w := NewWatchdog()
	code := "big = \"x\" * (8 << 20)\nl = [big] * 1000\nkeep = []\nfor i in range(300):\n    keep.append(\"y\" * (1 << 20))\nlen(l)"
	res, err := run(t, code, Options{MaxMemory: 400 << 20, Watchdog: w, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("error = %v", err)
	}
	if res.Value.String() != "1000" {
		t.Errorf("value = %s", res.Value)
	}
}

// Without a watchdog MaxMemory is not kept, and the watchdog stops its
// goroutine when no run is left.
func TestWatchdogStopsWhenIdle(t *testing.T) {
	w := NewWatchdog()
	if _, err := Exec(context.Background(), "1", Options{MaxMemory: 1 << 20, Watchdog: w}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		w.mu.Lock()
		running := w.running
		w.mu.Unlock()
		if !running {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("watchdog goroutine still running with no run")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A deep recursion holds its memory in the goroutine's stack, not in
// values: it counts against the budget all the same, so that a run cannot
// take hundreds of MiB of stack that no budget saw.
func TestMemoryCountsTheStack(t *testing.T) {
	w := NewWatchdog()
	code := "def f(n):\n    if n == 0:\n        return 0\n    return f(n - 1) + 1\nf(90000)"
	_, err := run(t, code, Options{MaxMemory: 16 << 20, Watchdog: w, Timeout: 20 * time.Second})
	if !errors.Is(err, ErrMemoryLimit) {
		t.Fatalf("error = %v, want the memory limit", err)
	}
	// The same depth within a budget that holds it runs to the end.
	res, err := run(t, code, Options{MaxMemory: 512 << 20, Watchdog: w, Timeout: 20 * time.Second})
	if err != nil || res.Value.String() != "90000" {
		t.Fatalf("= %v, %v; want 90000", res.Value, err)
	}
}
