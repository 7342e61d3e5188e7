package pyrt

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

// A Function is a def that carries what CPython's function objects carry
// besides their code: the attributes a program sets (f.calls = 0),
// __qualname__ (outer.<locals>.inner), __module__, __annotations__,
// __wrapped__ (functools.wraps) and a writable __name__ and __doc__.
// go.starlark.net's *starlark.Function holds none of that, so the lowering
// wraps a def in one (__ot_func) only where the program needs it: the def
// is decorated, its name is read or written with an attribute, it goes to
// setattr/vars/update_wrapper, or the program imports inspect and the def
// has annotations. Every other def stays a bare *starlark.Function and
// pays nothing.
//
// Read through an instance of a class, a Function binds as a method
// (DescriptorGet), as CPython's functions do.
type Function struct {
	fn       starlark.Callable // the def
	name     starlark.Value    // __name__
	qualname starlark.Value    // __qualname__
	module   starlark.Value    // __module__
	doc      starlark.Value    // __doc__; nil: the def's docstring
	// ann are the annotations the def wrote, in order: name, value and
	// the text the program wrote for it, three by three ("return" last).
	ann starlark.Tuple
	// annotations is __annotations__ once read or set (then ann is only
	// the display text).
	annotations *starlark.Dict
	// dict is __dict__: the attributes the program set, nil until one is.
	dict *starlark.Dict
	// kind is what calling the def makes: "generator", "coroutine",
	// "async_generator", or "" (inspect.isgeneratorfunction, …).
	kind string
}

var (
	_ starlark.Callable    = (*Function)(nil)
	_ starlark.HasAttrs    = (*Function)(nil)
	_ starlark.HasSetField = (*Function)(nil)
	_ interp.TextValue     = (*Function)(nil)
	_ interp.Holder        = (*Function)(nil)
)

// NewFunction wraps fn (a def) as a Function named qualname's last part;
// ann are its annotations (name, value, text triples).
func NewFunction(fn starlark.Callable, qualname string, ann starlark.Tuple) *Function {
	name := fn.Name()
	if name == "lambda" {
		name = "<lambda>"
	}
	if qualname == "" {
		qualname = name
	}
	return &Function{fn: fn, name: starlark.String(name), qualname: starlark.String(qualname),
		module: starlark.String("__main__"), ann: ann}
}

// funcHelper is __ot_func(f, qualname, annotations): the def f as a
// Function. A def already wrapped (a second __ot_func) is returned as it is.
func funcHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 3 && len(args) != 4 {
		return nil, typeError("__ot_func takes 3 arguments")
	}
	fn, ok := args[0].(starlark.Callable)
	if !ok {
		return args[0], nil
	}
	if f, ok := fn.(*Function); ok {
		return f, nil
	}
	q, _ := interp.AsText(args[1])
	ann, _ := args[2].(starlark.Tuple)
	if err := interp.BudgetOf(thread).Alloc(int64(128 + 16*len(ann))); err != nil {
		return nil, err
	}
	f := NewFunction(fn, q, ann)
	if len(args) == 4 {
		f.kind, _ = interp.AsText(args[3])
	}
	return f, nil
}

// FunctionKind is what calling v makes, when v is a def the lowering
// marked (every generator function and async def of a program that asks
// inspect or asyncio): "generator", "coroutine", "async_generator"; ""
// otherwise.
func FunctionKind(v starlark.Value) string {
	f, ok := v.(*Function)
	if !ok {
		return ""
	}
	return f.kind
}

// IsCoroutineFunction reports an async def (see FunctionKind).
func IsCoroutineFunction(v starlark.Value) bool { return FunctionKind(v) == "coroutine" }

// Func is the def the Function calls.
func (f *Function) Func() starlark.Callable { return f.fn }

// Annotation returns the annotation of parameter name ("return" for the
// result): its value and the text a signature shows for it.
func (f *Function) Annotation(thread *starlark.Thread, name string) (starlark.Value, string, bool) {
	if f.annotations != nil {
		v, found, _ := f.annotations.Get(starlark.String(name))
		if !found {
			return nil, "", false
		}
		return v, annotationText(thread, v, f.annText(name)), true
	}
	for i := 0; i+2 < len(f.ann); i += 3 {
		if n, _ := interp.AsText(f.ann[i]); n == name {
			return f.ann[i+1], annotationText(thread, f.ann[i+1], f.annText(name)), true
		}
	}
	return nil, "", false
}

func (f *Function) annText(name string) string {
	for i := 0; i+2 < len(f.ann); i += 3 {
		if n, _ := interp.AsText(f.ann[i]); n == name {
			t, _ := interp.AsText(f.ann[i+2])
			return t
		}
	}
	return ""
}

// annotationText is how inspect shows an annotation, as CPython's
// formatannotation: the text the program wrote (int, list[int]), a
// string literal by its repr (written is "" then), a value the program
// set through __annotations__ by its name or repr.
func annotationText(thread *starlark.Thread, v starlark.Value, written string) string {
	if written != "" {
		return written
	}
	switch v := v.(type) {
	case starlark.String, *interp.Unicode:
		s, err := interp.Repr(interp.BudgetOf(thread), v)
		if err == nil {
			return s
		}
	case *TypeObj:
		return v.name
	case *ExcClass:
		return v.name
	case starlark.NoneType:
		return "None"
	}
	s, _ := interp.Repr(interp.BudgetOf(thread), v)
	return s
}

func (f *Function) Name() string {
	s, _ := interp.AsText(f.name)
	return s
}

func (f *Function) String() string {
	q, _ := interp.AsText(f.qualname)
	return "<function " + q + ">"
}

// WriteText writes <function outer.<locals>.inner>, as a plain def's repr
// shows (without CPython's address, which no two runs share).
func (f *Function) WriteText(w *interp.TextWriter, _ bool, _ int) error {
	return w.WriteString(f.String())
}

func (f *Function) Type() string         { return "function" }
func (f *Function) Freeze()              {} // attributes stay writable, as in Python
func (f *Function) Truth() starlark.Bool { return true }
func (f *Function) Hash() (uint32, error) {
	return f.fn.Hash()
}

func (f *Function) Held(visit func(starlark.Value)) {
	visit(f.fn)
	visit(f.ann)
	if f.doc != nil {
		visit(f.doc)
	}
	if f.annotations != nil {
		visit(f.annotations)
	}
	if f.dict != nil {
		visit(f.dict)
	}
}

func (f *Function) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	v, err := starlark.Call(thread, f.fn, args, kwargs)
	if err != nil {
		// Its errors of arguments name it by __qualname__ (C.m), as
		// CPython's do.
		if q, ok := interp.AsText(f.qualname); ok {
			if n, ok := f.fn.(interface{ Name() string }); ok {
				QualifyCallError(err, n.Name(), q)
			}
		}
	}
	return v, err
}

// DescriptorGet is the function read through obj, an instance of a class
// that holds it: a bound method; read through the class (obj None), the
// function itself.
func (f *Function) DescriptorGet(_ *starlark.Thread, obj, _ starlark.Value) (starlark.Value, error) {
	if obj == nil || obj == starlark.None {
		return f, nil
	}
	return NewBoundMethod(f, obj), nil
}

func (f *Function) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__name__":
		return f.name, nil
	case "__qualname__":
		return f.qualname, nil
	case "__module__":
		return f.module, nil
	case "__doc__":
		if f.doc != nil {
			return f.doc, nil
		}
		if d, ok := f.fn.(interface{ Doc() string }); ok && d.Doc() != "" {
			return interp.MakeString(d.Doc()), nil
		}
		return starlark.None, nil
	case "__dict__":
		if f.dict == nil {
			f.dict = starlark.NewDict(0)
		}
		return f.dict, nil
	case "__annotations__":
		return f.annotationsDict(), nil
	case "__defaults__":
		return Defaults(f.fn), nil
	case "__kwdefaults__":
		return KwDefaults(f.fn), nil
	}
	if f.dict != nil {
		if v, found, _ := f.dict.Get(starlark.String(name)); found {
			return v, nil
		}
	}
	return nil, exception("AttributeError", "'function' object has no attribute '%s'", name)
}

func (f *Function) annotationsDict() *starlark.Dict {
	if f.annotations == nil {
		f.annotations = starlark.NewDict(len(f.ann) / 3)
		for i := 0; i+2 < len(f.ann); i += 3 {
			_ = f.annotations.SetKey(f.ann[i], f.ann[i+1])
		}
	}
	return f.annotations
}

func (f *Function) AttrNames() []string {
	names := []string{"__annotations__", "__defaults__", "__dict__", "__doc__", "__kwdefaults__", "__module__", "__name__", "__qualname__"}
	if f.dict != nil {
		for _, k := range f.dict.Keys() {
			if s, ok := interp.AsText(k); ok {
				names = append(names, s)
			}
		}
	}
	return names
}

// SetField is f.name = v: the special attributes CPython lets a program
// set, with its TypeErrors, else an attribute of __dict__.
func (f *Function) SetField(name string, v starlark.Value) error {
	switch name {
	case "__name__", "__qualname__":
		if _, ok := interp.AsText(v); !ok {
			return typeError("%s must be set to a string object", name)
		}
		if name == "__name__" {
			f.name = v
		} else {
			f.qualname = v
		}
		return nil
	case "__module__":
		f.module = v
		return nil
	case "__doc__":
		f.doc = v
		return nil
	case "__dict__":
		d, ok := v.(*starlark.Dict)
		if !ok {
			return typeError("__dict__ must be set to a dictionary, not a '%s'", pyTypeName(v))
		}
		f.dict = d
		return nil
	case "__annotations__":
		d, ok := v.(*starlark.Dict)
		if !ok {
			return typeError("__annotations__ must be set to a dict object")
		}
		f.annotations = d
		return nil
	case "__defaults__", "__kwdefaults__", "__code__", "__globals__", "__closure__":
		return exception("AttributeError", "setting %s of a function is not supported here", name)
	}
	if f.dict == nil {
		f.dict = starlark.NewDict(1)
	}
	return f.dict.SetKey(starlark.String(name), v)
}

// DelAttr removes an attribute the program set (del f.x).
func (f *Function) DelAttr(name string) error {
	if f.dict != nil {
		if _, found, _ := f.dict.Delete(starlark.String(name)); found {
			return nil
		}
	}
	return exception("AttributeError", "'function' object has no attribute '%s'", name)
}

// CompareSameType: functions are equal only to themselves.
func (f *Function) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	switch op {
	case syntax.EQL:
		return f == y, nil
	case syntax.NEQ:
		return f != y, nil
	}
	return false, typeError("'%s' not supported between instances of 'function' and 'function'", op)
}

// Defaults is __defaults__ of a def: the defaults of its positional
// parameters, or None.
func Defaults(fn starlark.Value) starlark.Value {
	sf := starlarkFunc(fn)
	if sf == nil {
		return starlark.None
	}
	var out starlark.Tuple
	npos := sf.NumParams() - sf.NumKwonlyParams()
	if sf.HasVarargs() {
		npos--
	}
	if sf.HasKwargs() {
		npos--
	}
	for i := 0; i < npos; i++ {
		if d := sf.ParamDefault(i); d != nil {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return starlark.None
	}
	return out
}

// KwDefaults is __kwdefaults__ of a def: its keyword-only parameters
// with a default, or None.
func KwDefaults(fn starlark.Value) starlark.Value {
	sf := starlarkFunc(fn)
	if sf == nil {
		return starlark.None
	}
	npos := sf.NumParams() - sf.NumKwonlyParams()
	if sf.HasVarargs() {
		npos--
	}
	if sf.HasKwargs() {
		npos--
	}
	d := starlark.NewDict(0)
	for i := npos; i < npos+sf.NumKwonlyParams(); i++ {
		if v := sf.ParamDefault(i); v != nil {
			if _, req := v.(required); req {
				continue
			}
			name, _ := sf.Param(i)
			_ = d.SetKey(starlark.String(name), v)
		}
	}
	if d.Len() == 0 {
		return starlark.None
	}
	return d
}

// starlarkFunc is the def behind fn (a def, a Function), or nil.
func starlarkFunc(fn starlark.Value) *starlark.Function {
	switch f := fn.(type) {
	case *starlark.Function:
		return f
	case *Function:
		return starlarkFunc(f.fn)
	}
	return nil
}

// StarlarkFunc is the def behind fn (a def, a Function), or nil.
func StarlarkFunc(fn starlark.Value) *starlark.Function { return starlarkFunc(fn) }

// IsRequired reports the lowering's stand-in default of a keyword-only
// parameter that has none.
func IsRequired(v starlark.Value) bool {
	_, ok := v.(required)
	return ok
}

// IsAttributeError reports an AttributeError (or one of its subclasses),
// the error getattr's default and hasattr stand in for.
func IsAttributeError(err error) bool { return isAttributeError(err) }
