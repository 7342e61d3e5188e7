package mcpclient

import "errors"

// Sentinel errors. Errors returned by this package match one of these
// with errors.Is, and carry a message meant for the model and the user
// (the sentinel's own text is not appended to it).
var (
	// ErrNotConnected: the server is not connected — it failed to start,
	// is backing off before the next attempt, is still connecting after its
	// Timeout, or was closed. The text is `server 'x' is not connected: <reason>`.
	ErrNotConnected = errors.New("server is not connected")
	// ErrExited: the server process (or HTTP session) went away while a
	// call was in flight. The next call restarts it.
	ErrExited = errors.New("server exited")
	// ErrToolFailed: the tool ran and reported a failure (`isError: true`).
	// The error's text is the tool's own text content.
	ErrToolFailed = errors.New("tool failed")
	// ErrAmbiguous: a tool name matched several tools canonically.
	ErrAmbiguous = errors.New("ambiguous tool name")
	// ErrUnknownTool: no tool of the server matches the name.
	ErrUnknownTool = errors.New("unknown tool")
)

// classified is an error with its own text that matches a sentinel, and a
// cause when there is one: the sentinel says what kind of failure it is,
// the text says what happened.
type classified struct {
	msg  string
	errs []error
}

// newError returns an error whose text is msg, matching sentinel and, if
// not nil, cause.
func newError(sentinel, cause error, msg string) error {
	e := &classified{msg: msg, errs: []error{sentinel}}
	if cause != nil {
		e.errs = append(e.errs, cause)
	}
	return e
}

func (e *classified) Error() string { return e.msg }

func (e *classified) Unwrap() []error { return e.errs }
