package interp

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Cells are how the Python front end gives a name of one scope a value
// that nested functions can assign (nonlocal, global, a try statement's
// parts, :=, del): the name x becomes the variable __ot_c_x holding a
// *Cell, and every use of x reads or writes the cell's value with
// __ot_c_x[0]. interp knows the convention so that a program's globals
// read as the user named them: Result.Globals and a session's kept names
// show x, holding the value, and never the cell.

// CellPrefix starts the name of a variable holding a cell.
const CellPrefix = "__ot_c_"

// A Cell holds the value of one variable, or nothing. Reading it when it
// holds nothing fails as Python does (NameError, UnboundLocalError).
type Cell struct {
	name   string
	local  bool
	value  starlark.Value // nil: unbound
	frozen bool
}

var (
	_ starlark.Mapping   = (*Cell)(nil)
	_ starlark.HasSetKey = (*Cell)(nil)
)

// NewCell returns a cell for the variable name holding v (nil: nothing);
// local says whether the variable is a function's, which words the error
// of reading it unbound.
func NewCell(name string, local bool, v starlark.Value) *Cell {
	return &Cell{name: name, local: local, value: v}
}

// Value returns what the cell holds, nil when it holds nothing.
func (c *Cell) Value() starlark.Value { return c.value }

// Unbind empties the cell (del x). It fails when the cell is already
// empty, as del of an unbound name does.
func (c *Cell) Unbind() error {
	if c.value == nil {
		return c.unbound()
	}
	if c.frozen {
		return fmt.Errorf("cannot delete frozen variable %s", c.name)
	}
	c.value = nil
	return nil
}

func (c *Cell) String() string        { return "<cell " + c.name + ">" }
func (c *Cell) Type() string          { return "cell" }
func (c *Cell) Freeze()               { c.frozen = true; freeze(c.value) }
func (c *Cell) Truth() starlark.Bool  { return true }
func (c *Cell) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: cell") }

// Get is the read x, lowered to __ot_c_x[0].
func (c *Cell) Get(starlark.Value) (starlark.Value, bool, error) {
	if c.value == nil {
		return nil, false, c.unbound()
	}
	return c.value, true, nil
}

// SetKey is the assignment x = v, lowered to __ot_c_x[0] = v.
func (c *Cell) SetKey(_, v starlark.Value) error {
	if c.frozen {
		return fmt.Errorf("cannot assign to frozen variable %s", c.name)
	}
	c.value = v
	return nil
}

func (c *Cell) unbound() error { return &UnboundError{Name: c.name, Local: c.local} }

func freeze(v starlark.Value) {
	if v != nil {
		v.Freeze()
	}
}

// UnboundError is the failure to read a variable that holds nothing:
// Python's NameError, or UnboundLocalError for a function's variable.
type UnboundError struct {
	Name  string
	Local bool
}

// PythonClass names the Python exception class of the error.
func (e *UnboundError) PythonClass() string {
	if e.Local {
		return "UnboundLocalError"
	}
	return "NameError"
}

func (e *UnboundError) Error() string {
	if e.Local {
		return fmt.Sprintf("UnboundLocalError: cannot access local variable '%s' where it is not associated with a value", e.Name)
	}
	return fmt.Sprintf("NameError: name '%s' is not defined", e.Name)
}

// unwrapCells replaces every cell among globals by the name it stands
// for, holding the cell's value (a cell that holds nothing is dropped),
// and drops the other names a front end made up (they start with
// "__ot_").
func unwrapCells(globals starlark.StringDict) {
	for k, v := range globals {
		if !strings.HasPrefix(k, "__ot_") {
			continue
		}
		delete(globals, k)
		name, ok := strings.CutPrefix(k, CellPrefix)
		if c, isCell := v.(*Cell); ok && isCell && c.value != nil {
			globals[name] = c.value
		}
	}
}

const (
	predeclaredLocal = "onetool.predeclared"
	cellsLocal       = "onetool.cells"
)

// ModuleCell returns the cell of a module-level variable that a front end
// keeps in a cell (one a function rebinds with global, say), starting from
// the global's current value, if any. In a session the cell is the
// session's, shared by every input: a function an earlier input defined
// and the inputs after it then see one variable, as in Python.
func ModuleCell(thread *starlark.Thread, name string) *Cell {
	v := Predeclared(thread)[name]
	cells, _ := thread.Local(cellsLocal).(map[string]*Cell)
	if cells == nil {
		return NewCell(name, false, v)
	}
	c := cells[name]
	if c == nil {
		c = NewCell(name, false, v)
		cells[name] = c
	} else if v != nil {
		c.value = v
	}
	return c
}

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
