package isolate

import (
	"math"
	"strings"
	"testing"
)

// Where programs run (SPEC §8.5): an explicit setting wins; without one,
// only an HTTP server with more than one principal uses workers, unless
// sessions keep state, which the note says.
func TestChoose(t *testing.T) {
	for _, tc := range []struct {
		name    string
		s       Setting
		process bool
		def     bool
		note    string // a part of the note; "" for none
		warn    bool
	}{
		{"stdio or the command line", Setting{}, false, true, "", false},
		{"stdio with many principals configured", Setting{ManyPrincipals: true}, false, true, "", false},
		{"HTTP without auth", Setting{HTTP: true}, false, true, "", false},
		{"HTTP with one token", Setting{HTTP: true}, false, true, "", false},
		{"HTTP with many principals", Setting{HTTP: true, ManyPrincipals: true}, true, true, "the default when serve.auth admits more than one principal", false},
		{"many principals and session state", Setting{HTTP: true, ManyPrincipals: true, SessionState: true}, false, true, "because serve.session_state keeps each session's globals there", true},
		{"explicit none wins", Setting{Configured: None, HTTP: true, ManyPrincipals: true}, false, false, "", false},
		{"explicit none with session state", Setting{Configured: None, HTTP: true, ManyPrincipals: true, SessionState: true}, false, false, "", false},
		{"explicit process on stdio", Setting{Configured: Process}, true, false, "", false},
		{"explicit process over HTTP", Setting{Configured: Process, HTTP: true, ManyPrincipals: true}, true, false, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Choose(tc.s)
			if c.Process != tc.process || c.Default != tc.def || c.Warn != tc.warn {
				t.Errorf("got %+v, want process %v, default %v, warn %v", c, tc.process, tc.def, tc.warn)
			}
			if (tc.note == "") != (c.Note == "") || !strings.Contains(c.Note, tc.note) {
				t.Errorf("note %q, want one with %q", c.Note, tc.note)
			}
			if strings.Contains(c.Note, "\n") {
				t.Errorf("the note is more than one line: %q", c.Note)
			}
		})
	}
}

// A worker's hard limit leaves room above the run's budget; no budget
// gets the default, and a huge one does not overflow.
func TestHardMemoryFor(t *testing.T) {
	for _, tc := range []struct{ budget, want int64 }{
		{0, DefaultHardMemory},
		{-1, DefaultHardMemory},
		{64 << 20, 768 << 20},
		{512 << 20, 2560 << 20},
		{math.MaxInt64 / 2, math.MaxInt64},
	} {
		if got := HardMemoryFor(tc.budget); got != tc.want {
			t.Errorf("HardMemoryFor(%d) = %d, want %d", tc.budget, got, tc.want)
		}
	}
}
