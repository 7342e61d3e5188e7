package isolate

import "syscall"

// setMemoryLimit caps this process's data memory (RLIMIT_DATA: the heap
// and every private writable mapping, which is what the Go runtime
// allocates from). Lowering one's own limit needs no privilege; the Go
// runtime dies with "out of memory" when it cannot grow past it.
func setMemoryLimit(n int64) error {
	return syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: uint64(n), Max: uint64(n)})
}
