package objects

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

// The classes of the object model's own values, as programs name them:
// property, staticmethod, classmethod and super are classes in Python
// (isinstance(x, property), type(C.p) is property), made by calling them.

// A valueType is one of those classes: immutable, shared by every run.
type valueType struct {
	name string
	ctor interp.BuiltinFunc
	is   func(starlark.Value) bool
}

var (
	_ starlark.Callable   = (*valueType)(nil)
	_ starlark.Comparable = (*valueType)(nil)
)

func (t *valueType) Name() string          { return t.name }
func (t *valueType) String() string        { return "<class '" + t.name + "'>" }
func (t *valueType) Type() string          { return "type" }
func (t *valueType) Freeze()               {}
func (t *valueType) Truth() starlark.Bool  { return true }
func (t *valueType) Hash() (uint32, error) { return starlark.String(t.name).Hash() }

// HasInstance: isinstance(x, property).
func (t *valueType) HasInstance(v starlark.Value) bool { return t.is(v) }

func (t *valueType) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	switch op {
	case syntax.EQL:
		return starlark.Value(t) == y, nil
	case syntax.NEQ:
		return starlark.Value(t) != y, nil
	}
	return false, errorf("TypeError", "'%s' not supported between instances of 'type' and 'type'", op)
}

func (t *valueType) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return starlark.Call(thread, interp.NewBuiltin(t.name, t.ctor), args, kwargs)
}

func (t *valueType) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__name__", "__qualname__":
		return starlark.String(t.name), nil
	case "__module__":
		return starlark.String("builtins"), nil
	}
	return nil, nil
}

func (t *valueType) AttrNames() []string { return []string{"__module__", "__name__", "__qualname__"} }

func isA[T any](v starlark.Value) bool { _, ok := v.(T); return ok }

// The classes, made once: type(C.p) is property.
var (
	propertyType     = &valueType{name: "property", ctor: propertyBuiltin, is: isA[*Property]}
	staticMethodType = &valueType{name: "staticmethod", ctor: newStaticMethod, is: isA[*staticMethod]}
	classMethodType  = &valueType{name: "classmethod", ctor: newClassMethod, is: isA[*classMethod]}
	superType        = &valueType{name: "super", ctor: superBuiltin, is: isA[*superObject]}
)

func newStaticMethod(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fn starlark.Value
	if err := starlark.UnpackPositionalArgs("staticmethod", args, kwargs, 1, &fn); err != nil {
		return nil, err
	}
	return &staticMethod{fn: fn}, nil
}

func newClassMethod(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fn starlark.Value
	if err := starlark.UnpackPositionalArgs("classmethod", args, kwargs, 1, &fn); err != nil {
		return nil, err
	}
	return &classMethod{fn: fn}, nil
}

// PyClass is type(x) for the object model's values.
func (p *Property) PyClass() starlark.Value     { return propertyType }
func (s *staticMethod) PyClass() starlark.Value { return staticMethodType }
func (s *classMethod) PyClass() starlark.Value  { return classMethodType }
func (s *superObject) PyClass() starlark.Value  { return superType }
