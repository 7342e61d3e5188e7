package isolate

import "syscall"

// setMemoryLimit caps this process's data memory (RLIMIT_DATA: the heap
// and every private writable mapping, which is what the Go runtime
// allocates from, goroutine stacks included). Lowering one's own limit
// needs no privilege; the Go runtime dies with "out of memory" when it
// cannot grow past it. A lower hard limit set by the operator (ulimit -d)
// is kept: raising it would fail, and it is stricter anyway.
func setMemoryLimit(n int64) error {
	var cur syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_DATA, &cur); err == nil && cur.Max < uint64(n) {
		n = int64(cur.Max)
	}
	return syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: uint64(n), Max: uint64(n)})
}
