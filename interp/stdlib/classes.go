package stdlib

import (
	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// pyClass is a class of a module that programs cannot subclass:
// re.Pattern, string.Template, random.Random, …. It is what type(x) of
// its values is (their PyClass), isinstance knows its instances, it
// prints as CPython's (<class 're.Pattern'>), and calling it makes a value
// when the module's function of its name would (ctor), or fails as
// CPython's does for a class programs cannot instantiate.
type pyClass struct {
	module, name string
	is           func(starlark.Value) bool
	ctor         interp.BuiltinFunc               // nil: cannot be called
	attrs        func(name string) starlark.Value // the class's own attributes, if any
}

var (
	_ pyrt.Class        = (*pyClass)(nil)
	_ starlark.Callable = (*pyClass)(nil)
	_ starlark.HasAttrs = (*pyClass)(nil)
)

func (c *pyClass) String() string                    { return "<class '" + c.module + "." + c.name + "'>" }
func (c *pyClass) Type() string                      { return "type" }
func (c *pyClass) Name() string                      { return c.name }
func (c *pyClass) Freeze()                           {}
func (c *pyClass) Truth() starlark.Bool              { return true }
func (c *pyClass) Hash() (uint32, error)             { return starlark.String(c.module + "." + c.name).Hash() }
func (c *pyClass) HasInstance(v starlark.Value) bool { return c.is(v) }
func (c *pyClass) AttrNames() []string               { return []string{"__module__", "__name__"} }

func (c *pyClass) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__name__":
		return starlark.String(c.name), nil
	case "__module__":
		return starlark.String(c.module), nil
	}
	if c.attrs != nil {
		if v := c.attrs(name); v != nil {
			return v, nil
		}
	}
	return nil, nil
}

func (c *pyClass) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if c.ctor == nil {
		return nil, pyrt.Errorf("TypeError", "cannot create '%s.%s' instances", c.module, c.name)
	}
	return c.ctor(thread, interp.NewBuiltin(c.name, c.ctor), args, kwargs)
}

// callBuiltin calls the program's builtin name (issubclass, isinstance,
// the object model's versions that know its classes), or this package's
// where the run has none.
func callBuiltin(thread *starlark.Thread, name string, args ...starlark.Value) (starlark.Value, error) {
	fn, ok := interp.Predeclared(thread)[name]
	if !ok {
		fn = Builtins()[name]
	}
	return starlark.Call(thread, fn, starlark.Tuple(args), nil)
}

func isOf[T starlark.Value](v starlark.Value) bool {
	_, ok := v.(T)
	return ok
}

// The classes of the modules' values, made once and shared by every
// build of a module.
var (
	patternClass  = &pyClass{module: "re", name: "Pattern", is: isOf[*Pattern]}
	matchClass    = &pyClass{module: "re", name: "Match", is: isOf[*Match]}
	hashClass     = &pyClass{module: "_hashlib", name: "HASH", is: isOf[*hashObject]}
	randomClass   = &pyClass{module: "random", name: "Random", is: isOf[*randomValue], ctor: newRandom}
	structClass   = &pyClass{module: "time", name: "struct_time", is: isOf[*structTime], ctor: newStructTime}
	templateClass = &pyClass{module: "string", name: "Template", is: isOf[*template], ctor: newTemplate}
	partialClass  = &pyClass{module: "functools", name: "partial", is: isOf[*partial], ctor: ftPartial}
	stringIOClass = &pyClass{module: "_io", name: "StringIO", is: isOf[*stringIO], ctor: newStringIO}
)

func (*Pattern) PyClass() starlark.Value    { return patternClass }
func (*Match) PyClass() starlark.Value      { return matchClass }
func (*hashObject) PyClass() starlark.Value { return hashClass }
func (*randomValue) PyClass() starlark.Value {
	return randomClass
}
func (*structTime) PyClass() starlark.Value { return structClass }
func (*template) PyClass() starlark.Value   { return templateClass }
func (*partial) PyClass() starlark.Value    { return partialClass }
func (*stringIO) PyClass() starlark.Value   { return stringIOClass }
func (*uuidValue) PyClass() starlark.Value  { return theUUIDClass }

// noAttr is the AttributeError of a value whose type name has a dot
// (re.Pattern, _hashlib.HASH…), raised by its Attr itself: the
// interpreter's own "has no .x field or method", which the python
// package turns into an AttributeError, expects a plain name.
func noAttr(v starlark.Value, name string) error {
	return pyrt.Errorf("AttributeError", "'%s' object has no attribute '%s'", v.Type(), name)
}

// noAttrNamed is the AttributeError of a value of the type CPython names
// qual in its messages ('datetime.timedelta' object has no attribute…).
func noAttrNamed(qual, name string) error {
	return pyrt.Errorf("AttributeError", "'%s' object has no attribute '%s'", qual, name)
}

// objectFormat is object.__format__, which CPython's C types without a
// format language of their own inherit: str(v) for an empty spec, else
// the TypeError naming the type as CPython does.
func objectFormat(b *interp.Budget, v starlark.Value, qual, spec string) (string, error) {
	if spec != "" {
		return "", pyrt.Errorf("TypeError", "unsupported format string passed to %s.__format__", qual)
	}
	return interp.Str(b, v)
}

func (td *timedelta) PyFormat(b *interp.Budget, spec string) (string, error) {
	return objectFormat(b, td, "datetime.timedelta", spec)
}

func (tz *timezone) PyFormat(b *interp.Budget, spec string) (string, error) {
	return objectFormat(b, tz, "datetime.timezone", spec)
}

func (q *deque) PyFormat(b *interp.Budget, spec string) (string, error) {
	return objectFormat(b, q, "collections.deque", spec)
}

func (c *collDict) PyFormat(b *interp.Budget, spec string) (string, error) {
	return objectFormat(b, c, c.qualName(), spec)
}

func (z *zoneInfo) PyFormat(b *interp.Budget, spec string) (string, error) {
	return objectFormat(b, z, "zoneinfo.ZoneInfo", spec)
}

func (f *stringIO) PyFormat(b *interp.Budget, spec string) (string, error) {
	return objectFormat(b, f, "_io.StringIO", spec)
}
