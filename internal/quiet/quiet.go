// Package quiet tells a test whether a process has gone quiet after a
// run was answered: no goroutine still computing on the run's behalf
// (the process's CPU time stops growing) and its memory back near where
// it was before (SPEC §8.1: no work outlives its answer, no allocation
// outruns the meter).
//
// A test takes a Sample before the hostile run, runs it, and then calls
// Wait (its own process) or WaitPID (a server it started) with that
// sample. Both poll for up to the given time and fail the test with what
// they last saw. Tests that use it must not run in parallel with others
// of their process: another test's work is indistinguishable from a
// leftover computation.
package quiet

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// Sample is a process's CPU time and memory at one moment.
type Sample struct {
	CPU  time.Duration // user and system time since the process started
	RSS  uint64        // resident set size, bytes
	Heap uint64        // live Go heap after a collection, bytes; 0 for another process
}

// Slack is how much memory a quiet process may hold above its sample:
// the runtime keeps freed spans for a while and tests allocate too.
const Slack = 64 << 20

// window is how long the CPU time is watched for growth, and busy the
// share of it above which the process is still computing.
const (
	window = 100 * time.Millisecond
	busy   = 0.2
)

// Self samples this process after a collection, so that the heap it
// reports is what is live.
func Self(t testing.TB) Sample {
	t.Helper()
	settle()
	s, err := read(os.Getpid())
	if err != nil {
		t.Skipf("cannot measure this process: %v", err)
	}
	s.Heap = liveHeap()
	return s
}

// Wait fails t unless, within d, this process stops using CPU and its
// heap and RSS return to within Slack of base.
func Wait(t testing.TB, base Sample, d time.Duration) {
	t.Helper()
	wait(t, os.Getpid(), base, d, true)
}

// WaitPID is Wait for another process, a server a test started: its CPU
// time and RSS (its heap cannot be seen from outside).
func WaitPID(t testing.TB, pid int, base Sample, d time.Duration) {
	t.Helper()
	wait(t, pid, base, d, false)
}

// PID samples another process.
func PID(t testing.TB, pid int) Sample {
	t.Helper()
	s, err := read(pid)
	if err != nil {
		t.Skipf("cannot measure process %d: %v", pid, err)
	}
	return s
}

func wait(t testing.TB, pid int, base Sample, d time.Duration, self bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	var last string
	for {
		msg, err := check(pid, base, self)
		if err != nil {
			t.Fatalf("cannot measure process %d: %v", pid, err)
		}
		if msg == "" {
			return
		}
		last = msg
		if time.Now().After(deadline) {
			t.Fatalf("process not quiet %v after the answer: %s", d, last)
		}
	}
}

// check watches the process for one window and describes what is not
// quiet yet; "" when it is.
func check(pid int, base Sample, self bool) (string, error) {
	a, err := read(pid)
	if err != nil {
		return "", err
	}
	time.Sleep(window)
	b, err := read(pid)
	if err != nil {
		return "", err
	}
	if used := b.CPU - a.CPU; float64(used) > busy*float64(window) {
		return fmt.Sprintf("%v of CPU in %v", used, window), nil
	}
	if self {
		settle()
		if h := liveHeap(); h > base.Heap+Slack {
			return fmt.Sprintf("live heap %d MiB, %d MiB before", h>>20, base.Heap>>20), nil
		}
		if b, err = read(pid); err != nil {
			return "", err
		}
	}
	if b.RSS > base.RSS+Slack {
		return fmt.Sprintf("RSS %d MiB, %d MiB before", b.RSS>>20, base.RSS>>20), nil
	}
	return "", nil
}

func settle() {
	runtime.GC()
	debug.FreeOSMemory()
}

func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
