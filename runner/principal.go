package runner

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/redaction"
)

// ErrNeedsIsolation is the cause of a run refused because its principal's
// policy says `isolation: process` and the run cannot have a worker (a
// stateful session runs in the server's process).
var ErrNeedsIsolation = errors.New("the policy needs isolation: process")

// AsPrincipal runs on behalf of p (SPEC §7.4): its policy decides which
// tools the run may call and what ot.help, ot.tools and ot.packs show, and
// the policy's limits replace the run's, field by field, whether they are
// lower or higher (the operator wrote them for this policy). A nil p
// changes nothing: runs from stdio or an HTTP server without serve.auth.
func AsPrincipal(p *auth.Principal) ExecOption {
	return func(st *runState) {
		if p == nil {
			return
		}
		st.principal = p
		if p.Policy != nil {
			st.limits = applyLimits(p.Policy.Limits, st.limits)
		}
	}
}

// checkPolicy refuses a call the run's principal may not make, and
// remembers the refusal for the audit log: a program that catches it
// (try/except) must not turn the run into an "ok" line.
func checkPolicy(st *runState, t *packs.Tool) error {
	if st == nil {
		return nil
	}
	err := st.principal.Check(t)
	if err != nil {
		st.denied.Store(true)
	}
	return err
}

// visibleTools returns what the run of ctx may call, for the ot pack; nil
// when everything is visible.
func visibleTools(ctx context.Context) func(*packs.Tool) bool {
	st := runStateFrom(ctx)
	if st == nil || st.principal == nil || st.principal.Policy == nil {
		return nil
	}
	pol := st.principal.Policy
	return func(t *packs.Tool) bool { return pol.Check(t) == nil }
}

// needsIsolation reports whether the run's policy wants a worker process.
func (st *runState) needsIsolation() bool {
	return st.principal != nil && st.principal.Policy != nil && st.principal.Policy.Isolation == "process"
}

// maxAuditTools bounds the tool ids one audit line lists.
const maxAuditTools = 64

// WithAudit writes one line to a per run made on behalf of a principal
// (serve.auth.audit_log). Runs without a principal are not logged there.
func WithAudit(a *auth.Audit) Option { return func(r *Runner) { r.audit = a } }

// maxAuditArgs bounds the JSON of one call's arguments in the audit log.
const maxAuditArgs = 2048

// noteCall remembers a tool the run called (or tried to), for the audit
// log, with its arguments when serve.auth.audit_arguments asks for them.
func (r *Runner) noteCall(st *runState, id string, args map[string]any) {
	if st == nil || st.principal == nil {
		return
	}
	withArgs := r.audit != nil && r.cfg.Serve.Auth != nil && r.cfg.Serve.Auth.AuditArguments
	st.toolsMu.Lock()
	defer st.toolsMu.Unlock()
	if len(st.tools) < maxAuditTools && !slices.Contains(st.tools, id) {
		st.tools = append(st.tools, id)
	}
	if withArgs && len(st.auditCalls) < maxAuditTools {
		st.auditCalls = append(st.auditCalls, auth.AuditCall{Tool: id, Args: r.auditArgs(args)})
	}
}

// auditArgs is what the audit log shows of a call's arguments: their
// JSON with every secret redacted, cut at maxAuditArgs bytes.
func (r *Runner) auditArgs(args map[string]any) any {
	var v any = args
	if r.cfg.Secrets != nil {
		v = redaction.Value(context.Background(), r.cfg.Secrets, v)
	}
	b, err := ordered.Encode(v)
	if err != nil {
		return "(arguments not encodable: " + err.Error() + ")"
	}
	if len(b) <= maxAuditArgs {
		return json.RawMessage(b)
	}
	cut := maxAuditArgs
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return string(b[:cut]) + "…"
}

// recordAudit writes the audit line of a finished run.
func (r *Runner) recordAudit(start time.Time, st *runState, res *ExecResult) {
	if r.audit == nil || st.principal == nil {
		return
	}
	e := auth.AuditEntry{Time: start.UTC(), Principal: st.principal.Name, Outcome: "ok", ToolCalls: res.ToolCalls,
		Duration: float64(res.Duration.Microseconds()) / 1000}
	if st.principal.Policy != nil {
		e.Policy = st.principal.Policy.Name
	}
	st.toolsMu.Lock()
	e.Tools = slices.Clone(st.tools)
	e.Calls = slices.Clone(st.auditCalls)
	st.toolsMu.Unlock()
	if res.Err != nil {
		e.Outcome, e.ErrorKind = "error", errorKind(res.Err)
	}
	// A refused call makes the run "denied" whatever the program did
	// with the refusal, and whatever failed after it.
	if st.denied.Load() || errors.Is(res.Err, auth.ErrNotAllowed) {
		e.Outcome = "denied"
	}
	if err := r.audit.Record(e); err != nil {
		r.log.Error("writing the audit log", "err", err)
	}
}
