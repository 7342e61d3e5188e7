package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/onetool-dev/onetool/packs"
)

// ErrNotConfirmed is the cause of a destructive tool call that did not run
// because security.confirm_destructive is on and the user did not allow it,
// or nobody could be asked.
var ErrNotConfirmed = errors.New("not confirmed")

// ConfirmRequest is a destructive tool call waiting for the user's yes.
type ConfirmRequest struct {
	Tool *packs.Tool
	Args map[string]any // bound arguments, defaults included
	// Action is what a tool not annotated destructive found, while
	// running, that it would do ("run the SQL statement `DROP TABLE t`,
	// which changes the database"); "" for a tool annotated destructive.
	Action string
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
	return st.confirm(ctx, ConfirmRequest{Tool: t, Args: args})
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
		return st.confirm(ctx, ConfirmRequest{Tool: t, Args: args, Action: action})
	})
}

// errCannotAskAction is ErrCannotAsk for an action found while running.
var errCannotAskAction = fmt.Errorf("%w: security.confirm_destructive is on, but there is no way to ask the user here", ErrNotConfirmed)
