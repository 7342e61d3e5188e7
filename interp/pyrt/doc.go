// Package pyrt is the Python runtime that lowered programs call (SPEC
// §2.7): Python's builtins where Starlark's differ (str, sorted, print,
// range, int and float arithmetic, str and container methods), its
// exceptions and their classes, iterators, slices, bound methods, and the
// helpers of what the front end (package python) lowers to calls: try and
// raise, with, match, imports, comparisons and operators (package lowered
// names them). The object model of user classes (package objects) builds
// on the protocols defined here (protocol.go): an instance is an ordinary
// starlark.Value that the runtime asks for its special methods.
//
// Everything here keeps the guarantees of SPEC §8.1 that the engine alone
// cannot: every helper and builtin charges its work to the run's
// interp.Budget, so that no single call (a repetition, a formatting of a
// value built from shared parts, a sort of a long range) runs unbounded
// past the run's steps, memory or deadline. Where go.starlark.net does
// such work itself, the lowering routes it here: `a * b` becomes a call
// of a helper that checks the size of what it is about to make first.
//
// Builtins returns the predeclared names the lowered trees need.
package pyrt
