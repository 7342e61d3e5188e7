package pyrt

import "go.starlark.net/starlark"

// CopiesArgs reports whether a call of f copies its arguments on entry
// and keeps nothing of the tuple it was given: f wraps a def, which
// does (go.starlark.net copies a def's arguments into its frame). A
// caller from Go may then lend it a tuple it reuses (the object model's
// special methods and property accessors, @property's getter being a
// decorated def).
func (f *Function) CopiesArgs() bool {
	_, ok := f.fn.(*starlark.Function)
	return ok
}
