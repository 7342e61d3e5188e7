package interp

import (
	"fmt"

	"go.starlark.net/starlark"
)

// Redirect makes target, a value with a write method, where the run on
// thread prints (fd 1: print, sys.stdout, pprint…) or writes its standard
// error (fd 2), as contextlib.redirect_stdout and redirect_stderr replace
// sys.stdout and sys.stderr; nil gives the run its own output back. It
// returns the target it replaces (nil for the run's own output), which
// the caller restores when its block ends, and false on a thread no run
// made (which has no output to redirect).
func Redirect(thread *starlark.Thread, fd int, target starlark.Value) (prev starlark.Value, ok bool) {
	o, ok := thread.Local(outputLocal).(*output)
	if !ok || fd < 1 || fd > 2 {
		return nil, false
	}
	prev, o.redirect[fd] = o.redirect[fd], target
	return prev, true
}

// redirected writes text with the write method of the target that
// replaces output fd. While it runs, the run's own output is fd's again:
// a write method that prints does not call itself without end.
func (o *output) redirected(thread *starlark.Thread, fd int, text string) error {
	target := o.redirect[fd]
	if target == starlark.None {
		return nil // CPython's print writes nothing when sys.stdout is None
	}
	o.redirect[fd] = nil
	defer func() { o.redirect[fd] = target }()
	var w starlark.Value
	if x, ok := target.(starlark.HasAttrs); ok {
		var err error
		if w, err = x.Attr("write"); err != nil {
			return err
		}
	}
	if w == nil {
		// The interpreter's words, which the Python front end reads as
		// CPython's AttributeError.
		return fmt.Errorf("%s has no .write field or method", target.Type())
	}
	_, err := starlark.Call(thread, w, starlark.Tuple{MakeString(text)}, nil)
	return err
}
