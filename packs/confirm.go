package packs

import "context"

// A Confirmer asks the user whether a tool call may do something
// destructive that the tool found out only while running — the db pack
// before a statement SQLite says writes, in db.query — as a call of a tool
// annotated destructive asks before it starts (security.confirm_destructive,
// SPEC §8.2). action says what, for the question: "run the SQL statement
// `DROP TABLE t`, which changes the database". It returns nil to go on and
// an error to stop, which the tool returns (wrapped) as its failure. It
// may be called from several goroutines at once.
type Confirmer func(ctx context.Context, action string) error

type confirmKey struct{}

// WithConfirmer returns ctx carrying f, for the tool call ctx is for. The
// runner sets one only when security.confirm_destructive is on and the
// call was not confirmed before it started.
func WithConfirmer(ctx context.Context, f Confirmer) context.Context {
	return context.WithValue(ctx, confirmKey{}, f)
}

// ConfirmDestructive asks, through the Confirmer of ctx, whether the call
// may do action. It returns nil at once when ctx carries none: nobody
// asked for confirmations, or the call was confirmed as a whole already.
func ConfirmDestructive(ctx context.Context, action string) error {
	f, _ := ctx.Value(confirmKey{}).(Confirmer)
	if f == nil {
		return nil
	}
	return f(ctx, action)
}

// AsksConfirmation reports whether ConfirmDestructive would ask, so that a
// tool does the work of finding out (SQLite's read-only check) only then.
func AsksConfirmation(ctx context.Context) bool {
	f, _ := ctx.Value(confirmKey{}).(Confirmer)
	return f != nil
}
