package objects

import (
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// The abc module: ABC as a base (or ABCMeta as a metaclass) makes a
// class whose methods marked @abstractmethod must be overridden before
// it can be instantiated.

// abcMarker is abc.ABC and abc.ABCMeta.
type abcMarker struct{ name string }

func (a *abcMarker) String() string        { return "<class 'abc." + a.name + "'>" }
func (a *abcMarker) Type() string          { return "type" }
func (a *abcMarker) Freeze()               {}
func (a *abcMarker) Truth() starlark.Bool  { return true }
func (a *abcMarker) Hash() (uint32, error) { return starlark.String(a.name).Hash() }
func (a *abcMarker) Name() string          { return a.name }
func (a *abcMarker) CallInternal(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	if a.name == "ABC" {
		return nil, errorf("TypeError", "Can't instantiate abstract class ABC")
	}
	return nil, errorf("TypeError", "ABCMeta() is not supported: derive from abc.ABC")
}
func (a *abcMarker) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__name__", "__qualname__":
		return starlark.String(a.name), nil
	case "__module__":
		return starlark.String("abc"), nil
	}
	return nil, nil
}
func (a *abcMarker) AttrNames() []string { return []string{"__module__", "__name__", "__qualname__"} }

// HasInstance: isinstance(x, ABC) holds for instances of its subclasses.
func (a *abcMarker) HasInstance(v starlark.Value) bool {
	in, ok := v.(*Instance)
	return ok && in.class.IsSubclassOf(a)
}

// abstractMethod is a function @abstractmethod marked: it still runs
// when called (super().area() in an override), and binds as a method.
type abstractMethod struct{ fn starlark.Value }

func (m *abstractMethod) String() string        { return m.fn.String() }
func (m *abstractMethod) Type() string          { return m.fn.Type() }
func (m *abstractMethod) Freeze()               {}
func (m *abstractMethod) Truth() starlark.Bool  { return true }
func (m *abstractMethod) Hash() (uint32, error) { return identityHashOf(m), nil }
func (m *abstractMethod) Name() string {
	if n, ok := m.fn.(interface{ Name() string }); ok {
		return n.Name()
	}
	return "abstractmethod"
}
func (m *abstractMethod) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return starlark.Call(thread, m.fn, args, kwargs)
}
func (m *abstractMethod) DescriptorGet(thread *starlark.Thread, obj, owner starlark.Value) (starlark.Value, error) {
	if obj == starlark.None {
		return m, nil
	}
	return pyrt.NewBoundMethod(m, obj), nil
}
func (m *abstractMethod) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__isabstractmethod__":
		return starlark.True, nil
	case "__name__", "__qualname__":
		return starlark.String(m.Name()), nil
	}
	if a, ok := m.fn.(starlark.HasAttrs); ok {
		return a.Attr(name)
	}
	return nil, nil
}
func (m *abstractMethod) AttrNames() []string { return []string{"__isabstractmethod__", "__name__"} }

// ABC is the abc module.
func ABC() *starlarkstruct.Module {
	abc := &abcMarker{name: "ABC"}
	return &starlarkstruct.Module{Name: "abc", Members: starlark.StringDict{
		"ABC":     abc,
		"ABCMeta": &abcMarker{name: "ABCMeta"},
		"abstractmethod": interp.NewBuiltin("abstractmethod", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var fn starlark.Value
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &fn); err != nil {
				return nil, err
			}
			return &abstractMethod{fn: fn}, nil
		}),
	}}
}
