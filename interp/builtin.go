package interp

import (
	"errors"
	"fmt"

	"go.starlark.net/starlark"
)

// ErrPanic is the cause of a builtin's failure that was a Go panic.
var ErrPanic = errors.New("panic")

// BuiltinFunc is the Go side of a Starlark builtin.
type BuiltinFunc = func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

// NewBuiltin is starlark.NewBuiltin with a guard: a panic in fn becomes
// the builtin's failure ("chain failed: panic: …") at the caller's line,
// not a crash of the run, its neighbours or the server (SPEC §2.5). Every
// builtin onetool gives programs is made with it.
func NewBuiltin(name string, fn BuiltinFunc) *starlark.Builtin {
	return starlark.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (v starlark.Value, err error) {
		defer func() {
			if r := recover(); r != nil {
				v, err = nil, fmt.Errorf("%s failed: %w: %v", b.Name(), ErrPanic, r)
			}
		}()
		return fn(thread, b, args, kwargs)
	})
}

// Unavailable marks a predeclared value that stands for a name a front
// end's language has but a program cannot use here (Python's open()): it
// exists so that using it fails with a hint, and so it is never offered
// as a suggestion or a completion.
type Unavailable interface {
	starlark.Value
	Unavailable()
}

// IsUnavailable reports whether v is an Unavailable value.
func IsUnavailable(v starlark.Value) bool {
	_, ok := v.(Unavailable)
	return ok
}
