package python

import (
	"math/big"

	"github.com/onetool-dev/onetool/interp/python/pyast"
)

// plainNumber reports an operand that is an int or a float whatever the
// program holds: an int or float literal, a name only for loops over
// range(…) bind (isRangeInt), and -, +, unary minus, *, // and % of ints
// of those kinds. Two such operands compare by the interpreter's own
// operators as Python compares them, even in a program that may hold
// instances (`i < 5` in a loop needs no call of __ot_cmp): no instance,
// bool, str or module's number can be one, and no float made by
// arithmetic (which may be NaN) is.
func (l *lowerer) plainNumber(e pyast.Expr) bool {
	if c, ok := e.(*pyast.Constant); ok {
		if _, ok := c.Value.(float64); ok {
			return true
		}
	}
	return l.plainInt(e)
}

// plainInt is plainNumber's int: a literal, a range loop's name, and
// arithmetic of ints that makes an int.
func (l *lowerer) plainInt(e pyast.Expr) bool {
	switch e := e.(type) {
	case *pyast.Constant:
		switch e.Value.(type) {
		case int64, *big.Int:
			return true
		}
	case *pyast.Name:
		// A cell may be set elsewhere: by a closure, or, in a session,
		// by an earlier input (whose variables are all cells).
		if s := l.owner(e.Id); s == nil || s.cells[e.Id] {
			return false
		}
		return l.isRangeInt(e.Id)
	case *pyast.UnaryOp:
		return (e.Op == "-" || e.Op == "+") && l.plainInt(e.Operand)
	case *pyast.BinOp:
		switch e.Op {
		case "+", "-", "*", "//", "%":
			return l.plainInt(e.Left) && l.plainInt(e.Right)
		}
	}
	return false
}
