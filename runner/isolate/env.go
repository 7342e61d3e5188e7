// Package isolate runs programs in worker processes (isolation: process,
// SPEC §8.5): a Pool of pre-started workers, each under a hard memory
// limit, on the server's side, and Serve on the worker's. A program runs
// whole in a worker; only its tool calls travel back to the server over
// the pipe. A worker that dies (killed by its limit, or crashing) or that
// is still busy a second after its run's deadline is killed and replaced,
// and the run it was serving reports why.
//
// The package knows nothing of what a setup, a run's limits or a progress
// step hold: the embedder (package runner) encodes them and builds the
// engine that runs programs in the worker.
package isolate

import (
	"errors"
	"os"
	"runtime/debug"
	"strconv"
)

// Env is the environment variable that makes a program a worker: a
// program that uses its own executable as the worker calls IsWorker first
// thing in main, and serves the protocol when it is true.
const Env = "ONETOOL_WORKER"

// MemoryEnv carries the worker's hard memory limit in bytes.
const MemoryEnv = "ONETOOL_WORKER_MEMORY"

// ErrWorker is the cause of a run whose worker process died or could not
// be started.
var ErrWorker = errors.New("worker failed")

// IsWorker reports whether this process was started as a worker.
func IsWorker() bool { return os.Getenv(Env) == "1" }

// LimitMemory applies the hard memory limit the server set in MemoryEnv
// to this process, if any, and sets the Go runtime's soft limit a little
// below it: garbage is collected harder as the worker nears the hard
// limit, so that only memory a program really holds ends a worker.
func LimitMemory() error {
	n, err := strconv.ParseInt(os.Getenv(MemoryEnv), 10, 64)
	if err != nil || n <= 0 {
		return nil
	}
	if err := setMemoryLimit(n); err != nil {
		return err
	}
	debug.SetMemoryLimit(n - n/8)
	return nil
}
