package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/redaction"
)

// SPEC §8.3: a secret's value never enters a program, and never leaves a
// run, whichever tool or program put it there (package redaction).
//
// Entering: every tool call a program makes, by any path (a direct call,
// parallel, map, chain, plan, a worker's call to its server), goes
// through CallTool, which hands the program the result and error of
// enterCall. Upstream servers' tool lookups (upstream.Resolve) and plan's
// tool lookups are the other doors, and use enterError.
//
// Leaving: Exec redacts the run's value before it is formatted, so that
// no quoting of any format can hide a secret from redaction, and then
// everything it hands back, in every encoding config.Secrets.Redact
// knows: the text, the printed text, the Go value, the error, and what
// upstream servers report while the run goes on.

// enterCall is what a program gets of a tool call that returned v and
// err: both with secrets hidden.
func (r *Runner) enterCall(v any, err error) (any, error) {
	s := r.cfg.Secrets
	if err != nil {
		return nil, redaction.EnteringError(s, err)
	}
	return redaction.Entering(s, v)
}

// enterError is what a program gets of err.
func (r *Runner) enterError(err error) error { return redaction.EnteringError(r.cfg.Secrets, err) }

// redactGrace is how long the redaction of a run that ended at (or
// near) its deadline may take: a result as large as the memory budget
// takes a second or two to search.
const redactGrace = 2 * time.Second

// redactResult hides secret values in every field of res, by deadline:
// the run's own, or redactGrace from now if that is later (SPEC §8.1: the
// answer never waits long past the deadline). A result that cannot be
// searched by then is not handed out: the run fails, saying why.
func redactResult(ctx context.Context, s *config.Secrets, res *ExecResult, deadline time.Time, timeout time.Duration) {
	ctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), later(deadline, time.Now().Add(redactGrace)))
	defer cancel()
	text, err1 := s.RedactContext(ctx, res.Text)
	printed, err2 := s.RedactContext(ctx, res.Printed)
	stderr, err3 := s.RedactContext(ctx, res.Stderr)
	if err := errors.Join(err1, err2, err3); err != nil {
		size := len(res.Text) + len(res.Printed) + len(res.Stderr)
		*res = ExecResult{ToolCalls: res.ToolCalls, Duration: res.Duration}
		fail(res, &unsearchedError{size: size, timeout: timeout})
		return
	}
	res.Text, res.Printed, res.Stderr = text, printed, stderr
	res.Value = redaction.Value(ctx, s, res.Value)
	res.Err = redaction.Error(s, res.Err)
}

// unsearchedError is the end of a run whose result could not be searched
// for secrets in time.
type unsearchedError struct {
	size    int
	timeout time.Duration
}

func (e *unsearchedError) Error() string {
	return fmt.Sprintf("timed out after %v checking the result (%.1f MB) for secrets: return or print less (set limits.timeout to raise it)",
		e.timeout, float64(e.size)/1e6)
}

func (e *unsearchedError) Unwrap() error { return interp.ErrTimeout }

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// redactListeners makes what a run reports while it goes on pass through
// redaction: upstream progress messages, plan step IDs (which the program
// chooses) and tool errors.
func redactListeners(s *config.Secrets, st *runState) {
	if report := st.onUpstream; report != nil {
		st.onUpstream = func(p UpstreamProgress) {
			p.Message = s.Redact(p.Message)
			report(p)
		}
	}
	if report := st.onStep; report != nil {
		st.onStep = func(p PlanStep) {
			p.ID = s.Redact(p.ID)
			report(p)
		}
	}
	if report := st.onCall; report != nil {
		st.onCall = func(c ToolCall) {
			c.Err = redaction.Error(s, c.Err)
			report(c)
		}
	}
}
