package runner

import (
	"context"

	"github.com/onetool-dev/onetool/interp"
)

// A Session runs programs that share their globals (SPEC §8.4): what one
// input defines, the next can use. The REPL keeps one for its life;
// `onetool serve` with serve.session_state keeps one per MCP session.
// Inputs of a session run one at a time; sessions are independent of each
// other. A Session costs only the values its programs keep.
type Session struct {
	r    *Runner
	s    *interp.Session
	kept func(bytes uint64) error
}

// SessionOption configures a Session.
type SessionOption func(*Session)

// KeptCheck is told, after each input, how many bytes the session's
// globals keep (as limits.max_memory measures them), so that a bound over
// many sessions (all those of a principal, all of a server) can be kept:
// an error refuses them, the session forgets every global, as when they
// outgrow limits.max_memory, and the input fails with that error. After
// such a clearing, and whenever they are cleared for limits.max_memory,
// check is told 0. Inputs of one session call it one at a time.
func KeptCheck(check func(bytes uint64) error) SessionOption {
	return func(s *Session) { s.kept = check }
}

// NewSession starts a session with no globals of its own. Sessions run in
// this process even under isolation: process, since their globals must
// outlive any one run.
func (r *Runner) NewSession(opts ...SessionOption) *Session {
	s := &Session{r: r, s: interp.NewSession(r.globals, r.hint)}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Exec runs one input like Runner.Exec, in the session's globals.
func (s *Session) Exec(ctx context.Context, command string, opts ...ExecOption) *ExecResult {
	if s.kept != nil {
		opts = append(opts, func(st *runState) { st.sessionKept = s.kept })
	}
	return s.r.exec(ctx, command, s.s, opts)
}

// Close ends what the session keeps running: the generators and tasks
// its variables hold suspended, each on a goroutine of its own. Call it
// when the session is dropped (Reset does it too).
func (s *Session) Close() { s.s.Close() }

// Reset forgets every global the session's programs defined.
func (s *Session) Reset() {
	s.s.Reset()
	if s.kept != nil {
		_ = s.kept(0)
	}
}

// Names returns the globals the session's programs defined, sorted, for
// completion and listing.
func (s *Session) Names() []string { return s.s.Names() }

// AttrNames returns the attributes of the session's global name (an
// instance's), for completion.
func (s *Session) AttrNames(name string) []string { return s.s.AttrNames(name) }
