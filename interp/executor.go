package interp

import (
	"sync"
	"time"
)

// An Executor runs programs on goroutines it keeps between runs. A run
// executes on a goroutine of its own so that its answer never waits for a
// Go call past the deadline (see Program.exec); a new goroutine for every
// run would pay each time to grow a fresh stack to the depth the
// interpreter needs (about 13 µs, measured), while a kept one has grown it
// already and takes the next run in well under a microsecond.
//
// Goroutines are started as runs need them and end after idling for a
// while, so an Executor holds nothing when unused. A goroutine whose run
// overran its deadline stays busy until the Go call it is in returns; the
// runs after it start others. The zero value is not usable; a nil
// *Executor starts a new goroutine per run. Safe for concurrent use.
type Executor struct {
	work chan func()
	idle time.Duration

	mu     sync.Mutex
	closed bool
	stop   chan struct{}
}

// NewExecutor returns an Executor whose goroutines end after idling for
// idle (at least a second).
func NewExecutor(idle time.Duration) *Executor {
	return &Executor{work: make(chan func()), idle: max(idle, time.Second), stop: make(chan struct{})}
}

// Go runs f on a kept goroutine, or on a new one when none is free.
func (e *Executor) Go(f func()) {
	if e == nil {
		go f()
		return
	}
	select {
	case e.work <- f:
	default:
		go e.worker(f)
	}
}

func (e *Executor) worker(f func()) {
	f()
	// An idle goroutine must not keep the last run's closure, and through
	// it the run's values (a session's globals), from the collector.
	f = nil
	t := time.NewTimer(e.idle)
	defer t.Stop()
	for {
		select {
		case f = <-e.work:
			f()
			f = nil
			t.Reset(e.idle)
		case <-t.C:
			return
		case <-e.stop:
			return
		}
	}
}

// Close ends the idle goroutines now instead of after their idle time.
// Runs started later still run, each on a goroutine of its own.
func (e *Executor) Close() {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.closed {
		e.closed = true
		close(e.stop)
	}
}
