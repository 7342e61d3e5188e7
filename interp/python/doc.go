// Package python is onetool's Python front end (SPEC §2.7): it reads the
// programs models write and lowers them to the Starlark syntax trees that
// package interp compiles, with every position the user's own, and it
// provides the runtime those trees call: builtins with Python's behaviour
// and helpers for what has no Starlark form.
//
// Everything here also keeps the guarantees of SPEC §8.1 that the engine
// alone cannot: every helper and builtin charges its work to the run's
// interp.Budget, so that no single call (a repetition, a formatting of a
// value built from shared parts, a sort of a long range) runs unbounded
// past the run's steps, memory or deadline. Where go.starlark.net does
// such work itself, the lowering routes it here: `a * b` becomes a call
// of a helper that checks the size of what it is about to make first.
//
// Parse is the interp.Parser to use, and Builtins the predeclared names
// its trees need.
package python
