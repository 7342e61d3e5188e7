package isolate

import "math"

// The values of the isolation setting (SPEC §8.5).
const (
	// Process runs programs in worker processes.
	Process = "process"
	// None runs programs in the server's own process, even where
	// process isolation would be the default.
	None = "none"
)

// Setting is what decides where a server runs programs.
type Setting struct {
	// Configured is the isolation setting as written: "" when absent,
	// None or Process.
	Configured string
	// HTTP is true for a server of streamable HTTP; stdio and the command
	// line serve one user.
	HTTP bool
	// ManyPrincipals is true when the server authenticates more than one
	// principal: more than one static token, or OAuth (any subject the
	// issuer vouches for).
	ManyPrincipals bool
	// SessionState is true when sessions keep their globals between runs
	// (serve.session_state over stateful HTTP), which only the server's
	// process can do.
	SessionState bool
}

// Choice is where a server runs programs, and why.
type Choice struct {
	// Process is true for worker processes.
	Process bool
	// Default is true when the setting was absent and the choice is the
	// default's.
	Default bool
	// Note is one line for the server's log when the default decided
	// something the operator did not write; "" otherwise. Warn is true
	// when the default could not apply.
	Note string
	Warn bool
}

// Choose decides where a server runs programs. An explicit setting wins.
// Without one, a server of HTTP that authenticates more than one principal
// runs programs in worker processes, so that what one principal's program
// breaks in a builtin costs one worker, not everyone's server; unless
// sessions keep state, which workers cannot hold: then programs stay in
// the server's process, and the note says so. Everything else (stdio, the
// command line, one principal) runs in-process.
func Choose(s Setting) Choice {
	switch s.Configured {
	case Process:
		return Choice{Process: true}
	case None:
		return Choice{}
	}
	if !s.HTTP || !s.ManyPrincipals {
		return Choice{Default: true}
	}
	if s.SessionState {
		return Choice{Default: true, Warn: true,
			Note: "programs run in the server's process although serve.auth admits more than one principal, because serve.session_state keeps each session's globals there between runs; set serve.session_state: false to run them in worker processes (isolation: process), or isolation: none to choose this explicitly"}
	}
	return Choice{Process: true, Default: true,
		Note: "programs run in worker processes (isolation: process), the default when serve.auth admits more than one principal; set isolation: none to run them in the server's process"}
}

// HardMemoryFor is the hard memory limit of a worker whose runs may hold
// up to budget bytes (the largest limits.max_memory of any run, policies
// included): four times the budget plus 512 MiB for the runtime. A value
// just under the budget that doubles needs three times the budget at
// once, before the watchdog in the worker can see it is over, and a
// loaded machine may let it double once more; the runtime's own memory
// and thread stacks count too. Without a budget, DefaultHardMemory.
func HardMemoryFor(budget int64) int64 {
	if budget <= 0 {
		return DefaultHardMemory
	}
	const runtime = 512 << 20
	if budget > (math.MaxInt64-runtime)/4 {
		return math.MaxInt64
	}
	return 4*budget + runtime
}

// DefaultHardMemory is a worker's hard memory limit when nothing sets one.
const DefaultHardMemory = 1 << 30
