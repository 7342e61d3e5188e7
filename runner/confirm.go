package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner/redaction"
)

// ErrNotConfirmed is the cause of a destructive tool call that did not run
// because security.confirm_destructive is on and the user did not allow it,
// or nobody could be asked.
var ErrNotConfirmed = errors.New("not confirmed")

// ConfirmRequest is a destructive tool call waiting for the user's yes.
// What a Confirmer receives has secret values hidden (SPEC §8.3), in
// Args and Action: a question is shown, and perhaps logged.
type ConfirmRequest struct {
	Tool *packs.Tool
	Args map[string]any // bound arguments, defaults included
	// Action is what a tool not annotated destructive found, while
	// running, that it would do ("run the SQL statement `DROP TABLE t`,
	// which changes the database"); "" for a tool annotated destructive.
	Action string
	// argsHidden: Args could not be searched for secrets in time and are
	// left out.
	argsHidden bool
}

// Confirmer asks the user whether a destructive call may run. It returns
// nil to allow it and an error wrapping ErrNotConfirmed otherwise. It may
// be called from several goroutines at once (parallel calls).
type Confirmer func(ctx context.Context, req ConfirmRequest) error

// ConfirmWith sets how the run asks before a call of a tool annotated
// destructive when security.confirm_destructive is on. Without it such
// calls are refused: a front end that cannot ask must not act.
func ConfirmWith(f Confirmer) ExecOption {
	return func(st *runState) { st.confirm = f }
}

// ErrCannotAsk explains a refusal when no Confirmer was given; front ends
// may wrap it with what they know about why.
var ErrCannotAsk = fmt.Errorf("%w: the tool is marked destructive and security.confirm_destructive is on, but there is no way to ask the user here", ErrNotConfirmed)

// confirm applies security.confirm_destructive to one call.
func (r *Runner) confirm(ctx context.Context, st *runState, t *packs.Tool, args map[string]any) error {
	if !r.cfg.Security.ConfirmDestructive || !t.Annotations.Destructive {
		return nil
	}
	if st == nil || st.confirm == nil {
		return fmt.Errorf("%w: ask the user to confirm in the conversation and run it from a client that supports MCP elicitation, or set security.confirm_destructive: false", ErrCannotAsk)
	}
	return st.confirm(ctx, r.confirmRequest(ctx, t, args, ""))
}

// confirmRequest is the request a Confirmer sees: args and action with
// secrets hidden. Arguments too large to search in time are left out,
// which Question says.
func (r *Runner) confirmRequest(ctx context.Context, t *packs.Tool, args map[string]any, action string) ConfirmRequest {
	req := ConfirmRequest{Tool: t, Args: args, Action: action}
	if s := r.cfg.Secrets; s != nil {
		if len(args) > 0 {
			req.Args, _ = redaction.Value(ctx, s, args).(map[string]any)
			req.argsHidden = req.Args == nil
		}
		req.Action = s.Redact(action)
	}
	return req
}

// Question is what the user is asked about req: the call, its arguments
// (each cut to 80 characters) and why it asks.
func (req ConfirmRequest) Question() string {
	args := ArgsPreview(req.Args)
	if req.argsHidden {
		args = "arguments too large to show"
	}
	if req.Action != "" {
		return fmt.Sprintf("In %s(%s), onetool wants to %s. Allow it?", req.Tool.ID(), args, req.Action)
	}
	return fmt.Sprintf("onetool wants to run %s(%s), which is marked destructive: it may overwrite or delete. Allow it?", req.Tool.ID(), args)
}

// ArgsPreview shows the arguments of a call as keyword arguments in the
// order of their names, each value as JSON cut to 80 characters: the user
// must see what is at stake, not a wall of text.
func ArgsPreview(args map[string]any) string {
	const maxValue = 80
	var b strings.Builder
	for i, k := range slices.Sorted(maps.Keys(args)) {
		j, err := ordered.Encode(args[k])
		if err != nil {
			j, _ = json.Marshal(fmt.Sprint(args[k]))
		}
		v := string(j)
		if len(v) > maxValue {
			v = strings.ToValidUTF8(v[:maxValue], "") + "…"
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k + "=" + v)
	}
	return b.String()
}

// confirmActions lets a call that is not confirmed as a whole ask before
// an action it finds destructive only while running (packs.ConfirmDestructive:
// the db pack's statements that SQLite says write).
func (r *Runner) confirmActions(ctx context.Context, st *runState, t *packs.Tool, args map[string]any) context.Context {
	if !r.cfg.Security.ConfirmDestructive || t.Annotations.Destructive {
		return ctx
	}
	return packs.WithConfirmer(ctx, func(ctx context.Context, action string) error {
		if st.confirm == nil {
			return fmt.Errorf("%w: ask the user to confirm in the conversation and run it from a client that supports MCP elicitation, or set security.confirm_destructive: false", errCannotAskAction)
		}
		return st.confirm(ctx, r.confirmRequest(ctx, t, args, action))
	})
}

// errCannotAskAction is ErrCannotAsk for an action found while running.
var errCannotAskAction = fmt.Errorf("%w: security.confirm_destructive is on, but there is no way to ask the user here", ErrNotConfirmed)
