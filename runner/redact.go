package runner

import (
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

// redactResult hides secret values in every field of res.
func redactResult(s *config.Secrets, res *ExecResult) {
	res.Text = s.Redact(res.Text)
	res.Printed = s.Redact(res.Printed)
	res.Stderr = s.Redact(res.Stderr)
	res.Value = redaction.Value(s, res.Value)
	res.Err = redaction.Error(s, res.Err)
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
