package interp

import (
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Cells are how the Python front end gives a name of one scope a value
// that nested functions can assign (nonlocal, global, a try statement's
// body, :=): the name x becomes the global or local __ot_c_x, a list of
// one element, and every use of x reads or writes that element. interp
// knows the convention so that a program's globals read as the user
// named them: Result.Globals and a session's kept names show x, holding
// the element, and never the cell.

// CellPrefix starts the name of a cell.
const CellPrefix = "__ot_c_"

// unbound is the value of a cell (or a name deleted with del) that holds
// nothing yet.
type unbound struct{}

// Unbound returns the value of a name that holds nothing yet.
func Unbound() starlark.Value { return unbound{} }

// IsUnbound reports whether v is the value of a name that holds nothing.
func IsUnbound(v starlark.Value) bool {
	_, ok := v.(unbound)
	return ok
}

func (unbound) String() string        { return "<unbound>" }
func (unbound) Type() string          { return "unbound" }
func (unbound) Freeze()               {}
func (unbound) Truth() starlark.Bool  { return false }
func (unbound) Hash() (uint32, error) { return 0, nil }

// unwrapCells replaces every cell among globals by the name it stands
// for, holding the cell's element; a cell that holds nothing is dropped.
func unwrapCells(globals starlark.StringDict) {
	for k, v := range globals {
		name, ok := strings.CutPrefix(k, CellPrefix)
		if !ok {
			continue
		}
		delete(globals, k)
		if l, ok := v.(*starlark.List); ok && l.Len() == 1 && !IsUnbound(l.Index(0)) {
			globals[name] = l.Index(0)
		}
	}
	for k, v := range globals {
		if IsUnbound(v) {
			delete(globals, k)
		}
	}
}

const predeclaredLocal = "onetool.predeclared"

// Predeclared returns the names predeclared for the run executing on
// thread (a session's globals, in a session), so that a front end's
// helpers can start a cell from a global of an earlier input.
func Predeclared(thread *starlark.Thread) starlark.StringDict {
	d, _ := thread.Local(predeclaredLocal).(starlark.StringDict)
	return d
}

// HintedError is a syntax error with a hint saying what to write instead:
// a Parser returns one for Python that onetool refuses (a class, with,
// yield, a decorator), and interp shows the hint on a line of its own.
type HintedError struct {
	Pos  syntax.Position
	Msg  string
	Hint string
}

func (e *HintedError) Error() string { return e.Pos.String() + ": " + e.Msg }
