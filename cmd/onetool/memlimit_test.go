package main

import (
	"math"
	"os"
	"runtime/debug"
	"testing"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
)

func TestMemoryLimitFor(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name             string
		budget           int64
		runs             int
		kept, base, want int64
	}{
		{"one run", 256 * mib, 1, 0, 20 * mib, 20*mib + 384*mib},
		{"a server's runs and sessions", 512 * mib, 4, 100 * mib, 30 * mib, 30*mib + 100*mib + 4*768*mib},
		{"no budget, no limit", 0, 1, 0, 20 * mib, 0},
		{"no runs, no limit", 256 * mib, 0, 0, 20 * mib, 0},
		{"a budget too large to add", math.MaxInt64 / 2, 8, 0, 20 * mib, math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := memoryLimitFor(tt.budget, tt.runs, tt.kept, tt.base); got != tt.want {
				t.Errorf("memoryLimitFor = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestSessionsKeep(t *testing.T) {
	total := config.ByteSize(64 << 20)
	tests := []struct {
		name string
		cfg  *config.Config
		want int64
	}{
		{"no configuration", nil, 0},
		{"no session state", &config.Config{}, 0},
		{"session state, default total", &config.Config{Serve: config.Serve{SessionState: true}}, int64(config.DefaultSessionMemoryTotal)},
		{"session state, configured total", &config.Config{Serve: config.Serve{SessionState: true, SessionMemoryTotal: &total}}, 64 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sessionsKeep(tt.cfg); got != tt.want {
				t.Errorf("sessionsKeep = %d, want %d", got, tt.want)
			}
		})
	}
}

// softMemoryLimit sets Go's soft limit from the runner's memory budget
// and puts back the one before; an operator's GOMEMLIMIT wins.
func TestSoftMemoryLimit(t *testing.T) {
	if _, ok := os.LookupEnv("GOMEMLIMIT"); ok {
		t.Skip("GOMEMLIMIT is set")
	}
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	before := debug.SetMemoryLimit(-1)
	restore := softMemoryLimit(r, 1)
	got := debug.SetMemoryLimit(-1)
	restore()
	if after := debug.SetMemoryLimit(-1); after != before {
		t.Errorf("limit after restore = %d, want %d", after, before)
	}
	budget := r.Limits().MaxMemory
	if least := budget + budget/2; got < least || got > least+1<<30 {
		t.Errorf("limit = %d, want %d plus what the process uses", got, least)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	softMemoryLimit(r, 1)()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("with GOMEMLIMIT set, limit = %d, want it left at %d", got, before)
	}
}
