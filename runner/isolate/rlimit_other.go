//go:build !linux

package isolate

// setMemoryLimit is a no-op where RLIMIT_DATA does not bound the Go heap;
// the in-process watchdog (limits.max_memory) still applies in the worker.
func setMemoryLimit(int64) error { return nil }
