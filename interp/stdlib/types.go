package stdlib

import (
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Types is the types module: SimpleNamespace and MappingProxyType as
// CPython 3.11's, and the classes of functions, methods and modules for
// isinstance (types.FunctionType and the like know their instances; type(f)
// is not the same object, as it is in CPython).
func Types() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "types", Members: starlark.StringDict{
		"SimpleNamespace":     simpleNamespaceClass,
		"MappingProxyType":    mappingProxyClass,
		"FunctionType":        functionTypeClass,
		"LambdaType":          functionTypeClass,
		"BuiltinFunctionType": builtinTypeClass,
		"BuiltinMethodType":   builtinTypeClass,
		"MethodType":          methodTypeClass,
		"ModuleType":          moduleTypeClass,
		"NoneType":            noneTypeClass,
		"GeneratorType":       generatorTypeClass,
	}}
}

var (
	simpleNamespaceClass = &pyClass{module: "types", name: "SimpleNamespace", is: isOf[*simpleNamespace], ctor: newSimpleNamespace}
	mappingProxyClass    = &pyClass{module: "types", name: "MappingProxyType", is: isOf[*mappingProxy], ctor: newMappingProxy}
	functionTypeClass    = &pyClass{module: "types", name: "FunctionType", is: func(v starlark.Value) bool {
		return pyrt.TypeName(v) == "function"
	}}
	builtinTypeClass = &pyClass{module: "types", name: "BuiltinFunctionType", is: func(v starlark.Value) bool {
		b, ok := v.(*starlark.Builtin)
		return ok && b.Receiver() == nil
	}}
	methodTypeClass = &pyClass{module: "types", name: "MethodType", is: func(v starlark.Value) bool {
		return pyrt.TypeName(v) == "method"
	}}
	moduleTypeClass = &pyClass{module: "types", name: "ModuleType", is: func(v starlark.Value) bool {
		_, ok := v.(*starlarkstruct.Module)
		return ok
	}}
	noneTypeClass = &pyClass{module: "types", name: "NoneType", is: func(v starlark.Value) bool {
		return v == starlark.None
	}}
	// Generators arrive with issue 32: until then nothing is one.
	generatorTypeClass = &pyClass{module: "types", name: "GeneratorType", is: pyrt.IsGenerator}
)

// ---- SimpleNamespace ----

// simpleNamespace is types.SimpleNamespace(**kwargs): attributes in a
// dict that is its __dict__ (vars(ns) is that dict, live).
type simpleNamespace struct {
	d *starlark.Dict
	// argparse marks argparse.Namespace's (repr Namespace(...), `in`).
	argparse bool
}

// qual is the type's name in messages; head its repr's opening.
func (ns *simpleNamespace) qual() (qual, head string) {
	if ns.argparse {
		return "Namespace", "Namespace("
	}
	return "types.SimpleNamespace", "namespace("
}

var (
	_ starlark.HasSetField = (*simpleNamespace)(nil)
	_ starlark.Comparable  = (*simpleNamespace)(nil)
	_ pyrt.AttrDeleter     = (*simpleNamespace)(nil)
	_ interp.Holder        = (*simpleNamespace)(nil)
	_ interp.TextValue     = (*simpleNamespace)(nil)
)

func newSimpleNamespace(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 0 {
		return nil, pyrt.Errorf("TypeError", "no positional arguments expected")
	}
	if err := interp.BudgetOf(thread).Charge(uint64(len(kwargs))); err != nil {
		return nil, err
	}
	ns := &simpleNamespace{d: starlark.NewDict(len(kwargs))}
	for _, kv := range kwargs {
		if err := ns.d.SetKey(kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	return ns, nil
}

// VarsDict is what vars(ns) and ns.__dict__ give.
func (ns *simpleNamespace) VarsDict() *starlark.Dict { return ns.d }

func (ns *simpleNamespace) String() string {
	s, err := interp.Repr(nil, ns)
	if err != nil {
		_, head := ns.qual()
		return head + "...)"
	}
	return s
}

// WriteText writes namespace(a=1, b='x') under the writer's budget,
// depth limit and cycle check: a namespace within itself is
// namespace(...), as CPython's, and one nested a million deep stops at
// the depth limit instead of the Go stack.
func (ns *simpleNamespace) WriteText(w *interp.TextWriter, _ bool, depth int) error {
	_, head := ns.qual()
	if w.Enter(ns) {
		return w.WriteString(head + "...)")
	}
	defer w.Leave()
	if err := w.WriteString(head); err != nil {
		return err
	}
	for i, item := range ns.d.Items() {
		if i > 0 {
			if err := w.WriteString(", "); err != nil {
				return err
			}
		}
		k, _ := interp.AsText(item[0])
		if err := w.WriteString(k + "="); err != nil {
			return err
		}
		if err := w.Nested(item[1], depth+1); err != nil {
			return err
		}
	}
	return w.WriteString(")")
}

func (ns *simpleNamespace) Type() string { q, _ := ns.qual(); return q }
func (ns *simpleNamespace) PyClass() starlark.Value {
	if ns.argparse {
		return argNamespaceClass
	}
	return simpleNamespaceClass
}
func (ns *simpleNamespace) Freeze()                         { ns.d.Freeze() }
func (ns *simpleNamespace) Truth() starlark.Bool            { return starlark.True }
func (ns *simpleNamespace) Held(visit func(starlark.Value)) { visit(ns.d) }
func (ns *simpleNamespace) Hash() (uint32, error) {
	return 0, pyrt.Errorf("TypeError", "unhashable type: '%s'", ns.Type())
}

func (ns *simpleNamespace) AttrNames() []string {
	names := make([]string, 0, ns.d.Len())
	for _, k := range ns.d.Keys() {
		if s, ok := interp.AsText(k); ok {
			names = append(names, s)
		}
	}
	return names
}

func (ns *simpleNamespace) Attr(name string) (starlark.Value, error) {
	if name == "__dict__" {
		return ns.d, nil
	}
	v, found, err := ns.d.Get(starlark.String(name))
	if err != nil || found {
		return v, err
	}
	return nil, noAttrNamed(ns.Type(), name)
}

func (ns *simpleNamespace) SetField(name string, v starlark.Value) error {
	if name == "__dict__" {
		return pyrt.Errorf("AttributeError", "attribute '__dict__' of '%s' objects is not writable", ns.Type())
	}
	return ns.d.SetKey(starlark.String(name), v)
}

func (ns *simpleNamespace) DelAttr(_ *starlark.Thread, name string) error {
	if _, found, err := ns.d.Delete(starlark.String(name)); err != nil || !found {
		if err != nil {
			return err
		}
		return noAttrNamed(ns.Type(), name)
	}
	return nil
}

func (ns *simpleNamespace) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	other := y.(*simpleNamespace)
	if ns.argparse != other.argparse { // a Namespace is never a SimpleNamespace
		return op == syntax.NEQ, nil
	}
	switch op {
	case syntax.EQL, syntax.NEQ:
		eq, err := starlark.EqualDepth(ns.d, other.d, depth-1)
		return eq == (op == syntax.EQL), err
	}
	return false, pyrt.Errorf("TypeError", "'%s' not supported between instances of '%s' and '%s'", op, ns.Type(), other.Type())
}

// Binary is `name in ns` for an argparse.Namespace (its __contains__);
// a SimpleNamespace has none.
func (ns *simpleNamespace) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if op != syntax.IN || side != starlark.Right || !ns.argparse {
		return nil, nil
	}
	_, found, err := ns.d.Get(y)
	return starlark.Bool(found), err
}

// ---- MappingProxyType ----

// mappingProxy is types.MappingProxyType(mapping): a read-only view of a
// dict, which changes as the dict does.
type mappingProxy struct {
	d *starlark.Dict
}

var (
	_ starlark.Mapping    = (*mappingProxy)(nil)
	_ starlark.Iterable   = (*mappingProxy)(nil)
	_ starlark.Sequence   = (*mappingProxy)(nil)
	_ starlark.HasAttrs   = (*mappingProxy)(nil)
	_ starlark.Comparable = (*mappingProxy)(nil)
	_ interp.TextValue    = (*mappingProxy)(nil)
)

func newMappingProxy(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "mappingproxy() takes no keyword arguments")
	}
	if len(args) != 1 {
		return nil, pyrt.Errorf("TypeError", "mappingproxy() takes exactly one argument (%d given)", len(args))
	}
	d, ok := args[0].(*starlark.Dict)
	if !ok {
		if mp, ok := args[0].(*mappingProxy); ok {
			return mp, nil
		}
		return nil, pyrt.Errorf("TypeError", "mappingproxy() argument must be a mapping, not %s", pyrt.TypeName(args[0]))
	}
	return &mappingProxy{d: d}, nil
}

func (m *mappingProxy) String() string {
	s, _ := interp.Repr(nil, m)
	return s
}

// WriteText is repr(mp), mappingproxy({...}), or str(mp), the dict's
// text, as CPython's; the dict is written under the writer's budget.
func (m *mappingProxy) WriteText(w *interp.TextWriter, str bool, depth int) error {
	if str {
		return w.Nested(m.d, depth)
	}
	if err := w.WriteString("mappingproxy("); err != nil {
		return err
	}
	if err := w.Nested(m.d, depth+1); err != nil {
		return err
	}
	return w.WriteString(")")
}

func (m *mappingProxy) Type() string            { return "mappingproxy" }
func (m *mappingProxy) PyClass() starlark.Value { return mappingProxyClass }
func (m *mappingProxy) Freeze()                 {}
func (m *mappingProxy) Truth() starlark.Bool    { return m.d.Truth() }
func (m *mappingProxy) Hash() (uint32, error) {
	return 0, pyrt.Errorf("TypeError", "unhashable type: 'mappingproxy'")
}
func (m *mappingProxy) Held(visit func(starlark.Value))                    { visit(m.d) }
func (m *mappingProxy) Len() int                                           { return m.d.Len() }
func (m *mappingProxy) Iterate() starlark.Iterator                         { return m.d.Iterate() }
func (m *mappingProxy) Get(k starlark.Value) (starlark.Value, bool, error) { return m.d.Get(k) }
func (m *mappingProxy) AttrNames() []string {
	return []string{"copy", "get", "items", "keys", "values"}
}

func (m *mappingProxy) Attr(name string) (starlark.Value, error) {
	switch name {
	case "copy", "get", "items", "keys", "values":
		return m.d.Attr(name)
	}
	return nil, noAttrNamed("mappingproxy", name)
}

func (m *mappingProxy) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.CompareDepth(op, m.d, y.(*mappingProxy).d, depth)
}

// SetKey refuses, as CPython's mappingproxy does.
func (m *mappingProxy) SetKey(k, v starlark.Value) error {
	return pyrt.Errorf("TypeError", "'mappingproxy' object does not support item assignment")
}
