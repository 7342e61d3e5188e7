package runner

import (
	"context"

	"github.com/onetool-dev/onetool/packs/builtin/ot"
	"github.com/onetool-dev/onetool/runner/results"
)

// Large outputs (SPEC §7.3): runner/results keeps them and pages through
// them; this is the runner's side of it.

// WithMaxInline sets the longest text a run returns whole, in characters
// (default: output.max_inline, else 20000). Longer texts are stored and
// replaced by a preview with the ot.result call that reads on. n <= 0
// returns every text whole: the command line does, since a handle is of no
// use once the process has exited.
func WithMaxInline(n int) Option {
	return func(r *Runner) {
		r.maxInline = max(n, 0)
	}
}

// ErrUnknownHandle is the cause of ot.result calls with a handle that was
// never given out or has expired.
var ErrUnknownHandle = results.ErrUnknownHandle

// ErrResultTooLarge is the cause of a run whose result would take more
// than the whole result store to keep; it matches ErrLimit too.
var ErrResultTooLarge = results.ErrTooLarge

// keepResult is the last step of a successful run with output.max_inline
// set: a text that fits stays as it is; a longer one is stored for owner
// (the run's principal) and replaced by a preview; one too large to
// store fails the run.
func (r *Runner) keepResult(ctx context.Context, res *ExecResult, owner string) {
	if res.Err != nil || r.maxInline <= 0 {
		return // errors are never stored: the message must be seen whole
	}
	_, isString := res.Value.(string)
	text, handle, err := r.results.Keep(ctx, res.Text, res.HasValue && !isString, r.maxInline, owner)
	if err != nil {
		fail(res, err)
		return
	}
	res.Text, res.Handle = text, handle
}

// readResult is ot.result, for the principal of the run that calls it.
func (r *Runner) readResult(ctx context.Context, q ot.ResultQuery) (any, error) {
	var owner string
	if st := runStateFrom(ctx); st != nil {
		owner = st.principal.Key()
	}
	return r.results.Read(ctx, owner, results.Query{
		Handle: q.Handle, Offset: q.Offset, Limit: q.Limit, Start: q.Start, MaxChars: q.MaxChars, Search: q.Search,
		PageDefault: results.PageChars(r.maxInline),
	})
}
