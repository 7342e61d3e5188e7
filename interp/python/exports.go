package python

import (
	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// ForEach calls fn with each element of v, iterated as Python does (a
// str by characters, a generator to its end, its exception passed on),
// until fn says stop or fails. For the modules of interp/stdlib.
func ForEach(thread *starlark.Thread, v starlark.Value, fn func(x starlark.Value) (stop bool, err error)) error {
	return forEach(thread, v, fn)
}

// Less is Python's x < y, with its errors, charged to b.
func Less(b *interp.Budget, x, y starlark.Value) (bool, error) { return pyLess(b, x, y, 0) }

// CheckHashable returns Python's TypeError for a key a dict or set
// cannot hold ("unhashable type: 'list'").
func CheckHashable(b *interp.Budget, v starlark.Value) error { return checkHashable(b, v) }
