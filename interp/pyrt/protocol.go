package pyrt

import (
	"errors"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/lowered"
)

// The protocols by which values defined above this package — the
// instances of a program's classes (package interp/objects) — take part
// in what the runtime does: comparisons, raising and catching. The
// runtime never names those types; it asks for these small interfaces.

// NotImplemented is Python's NotImplemented: what a comparison or
// arithmetic special method returns when it has no answer for the other
// operand, so that the reflected method is tried.
var NotImplemented starlark.Value = notImplemented{}

type notImplemented struct{}

func (notImplemented) String() string        { return "NotImplemented" }
func (notImplemented) Type() string          { return "NotImplementedType" }
func (notImplemented) Freeze()               {}
func (notImplemented) Truth() starlark.Bool  { return true }
func (notImplemented) Hash() (uint32, error) { return 0x4e49, nil }

// RichComparer is a value whose comparisons are its class's special
// methods (__eq__, __lt__, …). RichCompare returns NotImplemented when
// it has no answer for y.
type RichComparer interface {
	starlark.Value
	RichCompare(thread *starlark.Thread, op syntax.Token, y starlark.Value) (starlark.Value, error)
}

// reflectedOp is the comparison y must make when x has no answer for
// x op y: y > x for x < y.
func reflectedOp(op syntax.Token) syntax.Token {
	switch op {
	case syntax.LT:
		return syntax.GT
	case syntax.GT:
		return syntax.LT
	case syntax.LE:
		return syntax.GE
	case syntax.GE:
		return syntax.LE
	}
	return op
}

// RichCompare is x op y when x or y is a RichComparer, by CPython's
// rules: x's method, then y's reflected one, then identity for == and
// !=, else a TypeError. ok is false when neither is a RichComparer. The
// result is the truth of what the method returned (RichCompareValue
// gives the value itself).
func RichCompare(thread *starlark.Thread, op syntax.Token, x, y starlark.Value) (result, ok bool, err error) {
	v, ok, err := RichCompareValue(thread, op, x, y)
	if !ok || err != nil {
		return false, ok, err
	}
	if b, isBool := v.(starlark.Bool); isBool {
		return bool(b), true, nil
	}
	if c, isConv := v.(Converter); isConv {
		b, _, err := c.Convert(thread, "bool")
		if err != nil {
			return false, true, err
		}
		return b == starlark.True, true, nil
	}
	return bool(v.Truth()), true, nil
}

// RichCompareValue is RichCompare giving what the special method
// returned (a comparison may return any value: x == y is then that
// value).
func RichCompareValue(thread *starlark.Thread, op syntax.Token, x, y starlark.Value) (starlark.Value, bool, error) {
	rx, xok := x.(RichComparer)
	ry, yok := y.(RichComparer)
	if !xok && !yok {
		return nil, false, nil
	}
	if thread != nil {
		if err := interp.BudgetOf(thread).Charge(1); err != nil {
			return nil, true, err
		}
	}
	if xok {
		r, err := rx.RichCompare(thread, op, y)
		if err != nil {
			return nil, true, err
		}
		if r != NotImplemented {
			return r, true, nil
		}
	}
	if yok {
		r, err := ry.RichCompare(thread, reflectedOp(op), x)
		if err != nil {
			return nil, true, err
		}
		if r != NotImplemented {
			return r, true, nil
		}
	}
	switch op {
	case syntax.EQL:
		return starlark.Bool(x == y), true, nil
	case syntax.NEQ:
		return starlark.Bool(x != y), true, nil
	}
	return nil, true, typeError("'%s' not supported between instances of '%s' and '%s'", op, pyTypeName(x), pyTypeName(y))
}

// Raisable is a value a raise statement accepts besides the builtin
// exceptions: an instance of a program's exception class, whose
// exception state Exception gives.
type Raisable interface {
	starlark.Value
	Exception() *ExcValue
}

// ExceptionType is a class an except clause and raise accept besides the
// builtin ones: a program's exception class, standing for ExcClass.
type ExceptionType interface {
	starlark.Callable
	ExcClass() *ExcClass
}

// NewExcValue makes the exception state of an instance of class c: self
// is the value programs see (the instance of a program's class), args
// its arguments.
func NewExcValue(c *ExcClass, self starlark.Value, args starlark.Tuple) *ExcValue {
	e := &ExcValue{class: c, self: self, args: args}
	if isOSError(c) {
		e.osInit()
	}
	return e
}

// Args are the exception's arguments.
func (e *ExcValue) Args() starlark.Tuple { return e.args }

// SetArgs sets the exception's arguments (BaseException.__init__).
func (e *ExcValue) SetArgs(args starlark.Tuple) { e.args = args }

// Value is what a program sees of the exception: the instance of its
// own class when it raised one, else the exception itself.
func (e *ExcValue) Value() starlark.Value {
	if e.self != nil {
		return e.self
	}
	return e
}

// IsInstanceOf reports whether err is a Python exception of the builtin
// class name or of a subclass of it.
func IsInstanceOf(err error, name string) bool {
	c := BuiltinClass(name)
	if c == nil {
		return false
	}
	var ex *Exception
	if !errors.As(err, &ex) {
		return false
	}
	if ex.Value != nil {
		return ex.Value.class.IsSubclass(c)
	}
	if k := BuiltinClass(ex.Class); k != nil {
		return k.IsSubclass(c)
	}
	return false
}

// Equal is x == y as Python compares, on thread's budget.
func Equal(thread *starlark.Thread, x, y starlark.Value) (bool, error) {
	return pyEqual(interp.BudgetOf(thread), x, y)
}

// Container is a value whose `in` is its class's __contains__ (or its
// iteration). handled is false when it leaves the answer to its builtin
// value (BuiltinHolder).
type Container interface {
	starlark.Value
	Contains(thread *starlark.Thread, x starlark.Value) (result, handled bool, err error)
}

// AttrDeleter is a value that supports `del v.name`.
type AttrDeleter interface {
	starlark.Value
	DelAttr(thread *starlark.Thread, name string) error
}

// BuiltinHolder is an instance of a program's class that derives from a
// builtin one (class Registry(dict)): Builtin is the value of the
// builtin class it holds, nil for a plain class.
type BuiltinHolder interface {
	starlark.Value
	Builtin() starlark.Value
}

// heldBuiltin is the builtin value v holds when v is an instance of a
// class deriving from a builtin one; nil otherwise.
func heldBuiltin(v starlark.Value) starlark.Value {
	if h, ok := v.(BuiltinHolder); ok {
		return h.Builtin()
	}
	return nil
}

// delAttrHelper is __ot_delattr(x, name): `del x.name`.
func delAttrHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	name, _ := interp.AsText(args[1])
	if d, ok := args[0].(AttrDeleter); ok {
		return starlark.None, d.DelAttr(thread, name)
	}
	if _, ok := args[0].(starlark.HasAttrs); ok {
		return nil, exception("AttributeError", "'%s' object attribute '%s' is read-only", pyTypeName(args[0]), name)
	}
	return nil, exception("AttributeError", "'%s' object has no attribute '%s'", pyTypeName(args[0]), name)
}

// globalHelper is __ot_global(name): the module's variable name (else
// the builtin), read by a method whose own name it is (see method in
// lower_class.go).
func globalHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	name, _ := interp.AsText(args[0])
	if fn, ok := thread.DebugFrame(1).Callable().(*starlark.Function); ok {
		if v, ok := fn.Globals()[name]; ok {
			return v, nil
		}
	}
	if v, ok := interp.Predeclared(thread)[name]; ok {
		return v, nil
	}
	return nil, exception("NameError", "name '%s' is not defined", name)
}

// Converter is a value whose conversions are its class's special
// methods: kind "bool" (__bool__, __len__), "int" (__int__, __index__),
// "float" (__float__, __index__), "index" (__index__). ok is false when
// the class defines none, for the conversion's usual error.
type Converter interface {
	starlark.Value
	Convert(thread *starlark.Thread, kind string) (v starlark.Value, ok bool, err error)
}

// Inplace is a value whose augmented assignments are its class's
// special methods (__iadd__): ok is false when the class defines none,
// or it returned NotImplemented, for the binary operator instead.
type Inplace interface {
	starlark.Value
	Inplace(thread *starlark.Thread, op string, y starlark.Value) (v starlark.Value, ok bool, err error)
}

// iopHelper is __ot_iop(x, op, y, fallback) (or __ot_iop(x, (op, y,
// fallback)) for a slice's target): x op= y in a program
// that may hold instances. x's in-place method first (__iadd__), then
// the helper the lowering would have called (fallback, None for the
// interpreter's operator).
func iopHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, spec := args[0], args[1:]
	if len(args) == 2 {
		spec = args[1].(starlark.Tuple) // (op, y, fallback): a slice's target
	}
	op, _ := interp.AsText(spec[0])
	y, fallback := spec[1], spec[2]
	if v, ok := quickInplace(op, x, y, fallback); ok {
		return v, nil
	}
	if ip, ok := x.(Inplace); ok {
		v, ok, err := ip.Inplace(thread, op, y)
		if ok || err != nil {
			return v, err
		}
	}
	if base := heldBuiltin(x); base != nil {
		// A list's subclass: list's own += extends it in place, and the
		// name keeps the instance.
		v, err := iopHelper(thread, nil, starlark.Tuple{base, spec[0], spec[1], spec[2]}, nil)
		if err == nil && sameContainer(v, base) {
			return x, nil
		}
		return v, err
	}
	if fallback != starlark.None {
		return starlark.Call(thread, fallback, starlark.Tuple{x, y}, nil)
	}
	tok, ok := lowered.BinaryToken(op)
	if !ok {
		return nil, typeError("the %s= operator is not supported", op)
	}
	return starlark.Binary(tok, x, y)
}

// SpecialLookup is a value whose special methods are found on its class
// only (CPython's lookup of __enter__, __exit__, …), bound to it; ok is
// false when the class has none.
type SpecialLookup interface {
	starlark.Value
	LookupSpecial(name string) (v starlark.Value, ok bool)
}

// MatMuler is a value whose class defines x @ y (__matmul__,
// __rmatmul__, __imatmul__); ok is false for NotImplemented or none.
type MatMuler interface {
	starlark.Value
	MatMul(thread *starlark.Thread, y starlark.Value, method string) (v starlark.Value, ok bool, err error)
}

// matmulHelper is __ot_matmul(x, y), x @ y; with inplace, x @= y.
func matmulHelper(inplace bool) func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		x, y := args[0], args[1]
		if m, ok := x.(MatMuler); ok {
			if inplace {
				if v, ok, err := m.MatMul(thread, y, "__imatmul__"); ok || err != nil {
					return v, err
				}
			}
			if v, ok, err := m.MatMul(thread, y, "__matmul__"); ok || err != nil {
				return v, err
			}
		}
		if m, ok := y.(MatMuler); ok {
			if v, ok, err := m.MatMul(thread, x, "__rmatmul__"); ok || err != nil {
				return v, err
			}
		}
		op := "@"
		if inplace {
			op = "@="
		}
		return nil, typeError("unsupported operand type(s) for %s: '%s' and '%s'", op, pyTypeName(x), pyTypeName(y))
	}
}

// sameContainer reports whether x and y are the same mutable container.
func sameContainer(x, y starlark.Value) bool {
	switch a := x.(type) {
	case *starlark.List:
		return a == y
	case *starlark.Dict:
		return a == y
	case *starlark.Set:
		return a == y
	}
	return false
}
