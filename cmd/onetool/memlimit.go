package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
)

// softMemoryLimit sets the Go runtime's soft memory limit
// (debug.SetMemoryLimit) for a command that runs programs in this
// process, and returns what puts back the limit before it.
//
// The memory budget (limits.max_memory) bounds what a run's values hold;
// the collector, left to itself, lets garbage grow to as much again
// before it collects, so a run stopped at a budget of 256 MiB took the
// process to a gigabyte of RSS (the arrays a list outgrew, the tables a
// dict doubled). With the limit set to what the runs may hold at once,
// plus half again and what the process held before, the collector works
// harder only when that much is in use, and RSS stays near what runs
// really hold. It is a target, not a wall: past it Go collects more often
// (at most half the CPU), never fails an allocation.
//
// runs is how many programs may hold their budget at once: 1 for run and
// repl, the CPU count for serve (programs compute; more at once share the
// cores and grow no faster). What sessions keep (serve.session_state) is
// added. An operator's GOMEMLIMIT wins, and no budget sets no limit.
func softMemoryLimit(r *runner.Runner, runs int) (restore func()) {
	if _, ok := os.LookupEnv("GOMEMLIMIT"); ok {
		return func() {}
	}
	limit := memoryLimitFor(largestBudget(r), runs, sessionsKeep(r.Config()), inUse())
	if limit <= 0 {
		return func() {}
	}
	old := debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(old) }
}

// memoryLimitFor is the soft limit for runs programs of the given budget
// beside kept bytes of sessions, in a process already using base bytes;
// 0 when the budget is unbounded.
func memoryLimitFor(budget int64, runs int, kept, base int64) int64 {
	if budget <= 0 || runs <= 0 {
		return 0
	}
	per := budget + budget/2
	if per > (math.MaxInt64-base-kept)/int64(runs) {
		return math.MaxInt64
	}
	return base + kept + int64(runs)*per
}

// servedRuns is how many runs a server's limit allows for.
func servedRuns() int { return max(2, runtime.GOMAXPROCS(0)) }

// largestBudget is the largest limits.max_memory a run may get, policies
// included; 0 when some run has none.
func largestBudget(r *runner.Runner) int64 {
	b := r.Limits().MaxMemory
	if b <= 0 {
		return 0
	}
	if cfg := r.Config(); cfg != nil {
		for _, p := range cfg.Policies {
			if m := p.Limits.MaxMemory; m != nil {
				if *m <= 0 {
					return 0
				}
				b = max(b, int64(*m))
			}
		}
	}
	return b
}

// sessionsKeep is what sessions may keep between runs: 0 unless
// serve.session_state.
func sessionsKeep(cfg *config.Config) int64 {
	if cfg == nil || !cfg.Serve.SessionState {
		return 0
	}
	if t := cfg.Serve.SessionMemoryTotal; t != nil {
		return int64(*t)
	}
	return int64(config.DefaultSessionMemoryTotal)
}

// inUse is the memory the Go runtime holds from the system now, less what
// it has given back.
func inUse() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}
