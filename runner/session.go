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
	r *Runner
	s *interp.Session
}

// NewSession starts a session with no globals of its own. Sessions run in
// this process even under isolation: process, since their globals must
// outlive any one run.
func (r *Runner) NewSession() *Session {
	return &Session{r: r, s: interp.NewSession(r.globals, r.hint)}
}

// Exec runs one input like Runner.Exec, in the session's globals.
func (s *Session) Exec(ctx context.Context, command string, opts ...ExecOption) *ExecResult {
	return s.r.exec(ctx, command, s.s, opts)
}

// Reset forgets every global the session's programs defined.
func (s *Session) Reset() { s.s.Reset() }

// Names returns the globals the session's programs defined, sorted, for
// completion and listing.
func (s *Session) Names() []string { return s.s.Names() }
