package stdlib

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/objects"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// The dataclasses module, as CPython's Lib/dataclasses.py builds a
// dataclass: the decorator reads the class's annotations along the MRO,
// turns them into Field values kept in __dataclass_fields__, and gives
// the class methods written in Go (objects.NewMethod) in place of the
// source text CPython compiles: __init__, __repr__, __eq__, the order
// methods, __hash__, and for frozen classes a __setattr__/__delattr__
// that raise FrozenInstanceError while __init__ sets the fields with
// object.__setattr__ (objects.Instance.SetAttr).

// Dataclasses is the dataclasses module.
func Dataclasses() *starlarkstruct.Module {
	m := &starlarkstruct.Module{Name: "dataclasses", Members: starlark.StringDict{
		"dataclass":           interp.NewBuiltin("dataclass", dcDecorator),
		"field":               interp.NewBuiltin("field", dcFieldBuiltin),
		"fields":              interp.NewBuiltin("fields", dcFields),
		"asdict":              interp.NewBuiltin("asdict", dcAsDictBuiltin(false)),
		"astuple":             interp.NewBuiltin("astuple", dcAsDictBuiltin(true)),
		"replace":             interp.NewBuiltin("replace", dcReplace),
		"is_dataclass":        interp.NewBuiltin("is_dataclass", dcIsDataclass),
		"make_dataclass":      interp.NewBuiltin("make_dataclass", dcMakeDataclass),
		"FrozenInstanceError": frozenInstanceError,
		"InitVar":             initVarType,
		"KW_ONLY":             kwOnlyMarker,
		"MISSING":             dcMissing,
		"Field": interp.NewBuiltin("Field", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return nil, pyrt.Errorf("TypeError", "use dataclasses.field() to make a Field")
		}),
	}}
	m.Freeze()
	return m
}

// frozenInstanceError is dataclasses.FrozenInstanceError, an
// AttributeError.
var frozenInstanceError = pyrt.NewModuleSubclass("dataclasses.FrozenInstanceError", pyrt.BuiltinClass("AttributeError"))

// ---- sentinels ----

// dcSentinel is MISSING, KW_ONLY and InitVar: values a program names.
type dcSentinel struct{ repr, name string }

func (s *dcSentinel) String() string        { return s.repr }
func (s *dcSentinel) Type() string          { return s.name }
func (s *dcSentinel) Freeze()               {}
func (s *dcSentinel) Truth() starlark.Bool  { return true }
func (s *dcSentinel) Hash() (uint32, error) { return starlark.String(s.repr).Hash() }
func (s *dcSentinel) Name() string          { return s.name }

var (
	dcMissing    = &dcSentinel{repr: "<dataclasses._MISSING_TYPE object>", name: "_MISSING_TYPE"}
	kwOnlyMarker = &dcSentinel{repr: "<class 'dataclasses.KW_ONLY'>", name: "KW_ONLY"}
	initVarType  = &initVar{}
)

// initVar is dataclasses.InitVar, and InitVar[T] (typ set).
type initVar struct{ typ starlark.Value }

func (v *initVar) String() string {
	if v.typ == nil {
		return "<class 'dataclasses.InitVar'>"
	}
	return "dataclasses.InitVar[" + annotationText(v.typ) + "]"
}
func (v *initVar) Type() string          { return "InitVar" }
func (v *initVar) Freeze()               {}
func (v *initVar) Truth() starlark.Bool  { return true }
func (v *initVar) Hash() (uint32, error) { return starlark.String("InitVar").Hash() }
func (v *initVar) Get(k starlark.Value) (starlark.Value, bool, error) {
	return &initVar{typ: k}, true, nil
}
func (v *initVar) Attr(name string) (starlark.Value, error) {
	if name == "type" && v.typ != nil {
		return v.typ, nil
	}
	return nil, nil
}
func (v *initVar) AttrNames() []string { return []string{"type"} }

// annotationText is an annotation as inspect writes it: a builtin class
// by its name, anything else by its repr.
func annotationText(v starlark.Value) string {
	if s, ok := interp.AsText(v); ok {
		return s
	}
	if c, ok := v.(*objects.Class); ok {
		return "__main__." + c.QualName()
	}
	s := v.String()
	if strings.HasPrefix(s, "<class '") && strings.HasSuffix(s, "'>") {
		return strings.TrimPrefix(strings.TrimSuffix(s[len("<class '"):], "'>"), "builtins.")
	}
	return s
}

// ---- Field ----

// Field kinds, as CPython's _FIELD, _FIELD_CLASSVAR, _FIELD_INITVAR.
const (
	kindField = iota
	kindClassVar
	kindInitVar
)

var fieldKindNames = [...]string{"_FIELD", "_FIELD_CLASSVAR", "_FIELD_INITVAR"}

// dcField is a dataclasses.Field: what field() returns and what the
// decorator keeps for every annotated name.
type dcField struct {
	name            string
	typ             starlark.Value
	dflt, factory   starlark.Value // nil: MISSING
	init, repr      bool
	hash            starlark.Value // None, True or False
	compare         bool
	metadata        starlark.Value
	kwOnly          starlark.Value // nil: MISSING (decided by the class); else a Bool
	kind            int
	frozenForParams bool
}

var (
	_ starlark.HasAttrs    = (*dcField)(nil)
	_ starlark.HasSetField = (*dcField)(nil)
)

func (f *dcField) Type() string          { return "Field" }
func (f *dcField) Freeze()               {}
func (f *dcField) Truth() starlark.Bool  { return true }
func (f *dcField) Hash() (uint32, error) { return starlark.String("Field:" + f.name).Hash() }
func (f *dcField) String() string {
	or := func(v starlark.Value) string {
		if v == nil {
			return dcMissing.String()
		}
		s, _ := interp.Repr(nil, v)
		return s
	}
	name := "None"
	if f.name != "" {
		name = "'" + f.name + "'"
	}
	typ := "None"
	if f.typ != nil {
		typ = or(f.typ)
	}
	kw := dcMissing.String()
	if f.kwOnly != nil {
		kw = f.kwOnly.String()
	}
	return fmt.Sprintf("Field(name=%s,type=%s,default=%s,default_factory=%s,init=%s,repr=%s,hash=%s,compare=%s,metadata=mappingproxy(%s),kw_only=%s,_field_type=%s)",
		name, typ, or(f.dflt), or(f.factory), pyBool(f.init), pyBool(f.repr), or(f.hash), pyBool(f.compare), or(f.metadata), kw, fieldKindNames[f.kind])
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

func orMissing(v starlark.Value) starlark.Value {
	if v == nil {
		return dcMissing
	}
	return v
}

func (f *dcField) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		if f.name == "" {
			return starlark.None, nil
		}
		return starlark.String(f.name), nil
	case "type":
		if f.typ == nil {
			return starlark.None, nil
		}
		return f.typ, nil
	case "default":
		return orMissing(f.dflt), nil
	case "default_factory":
		return orMissing(f.factory), nil
	case "init":
		return starlark.Bool(f.init), nil
	case "repr":
		return starlark.Bool(f.repr), nil
	case "hash":
		return f.hash, nil
	case "compare":
		return starlark.Bool(f.compare), nil
	case "metadata":
		return f.metadata, nil
	case "kw_only":
		return orMissing(f.kwOnly), nil
	case "_field_type":
		return starlark.String(fieldKindNames[f.kind]), nil
	}
	return nil, nil
}

func (f *dcField) AttrNames() []string {
	return []string{"compare", "default", "default_factory", "hash", "init", "kw_only", "metadata", "name", "repr", "type"}
}

func (f *dcField) SetField(name string, v starlark.Value) error {
	switch name {
	case "name":
		s, _ := interp.AsText(v)
		f.name = s
	case "type":
		f.typ = v
	case "default":
		f.dflt = missingToNil(v)
	case "default_factory":
		f.factory = missingToNil(v)
	case "init":
		f.init = bool(v.Truth())
	case "repr":
		f.repr = bool(v.Truth())
	case "compare":
		f.compare = bool(v.Truth())
	case "hash":
		f.hash = v
	case "metadata":
		f.metadata = v
	case "kw_only":
		f.kwOnly = missingToNil(v)
	default:
		return pyrt.Errorf("AttributeError", "'Field' object has no attribute '%s'", name)
	}
	return nil
}

func missingToNil(v starlark.Value) starlark.Value {
	if v == dcMissing {
		return nil
	}
	return v
}

// dcFieldBuiltin is field(*, default=MISSING, default_factory=MISSING,
// init=True, repr=True, hash=None, compare=True, metadata=None,
// kw_only=MISSING).
func dcFieldBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 0 {
		return nil, pyrt.Errorf("TypeError", "field() takes 0 positional arguments but %d were given", len(args))
	}
	var dflt, factory, kwOnly starlark.Value = dcMissing, dcMissing, dcMissing
	var init, repr, compare starlark.Value = starlark.True, starlark.True, starlark.True
	var hash, metadata starlark.Value = starlark.None, starlark.None
	if err := unpack("field", nil, kwargs, "default?", &dflt, "default_factory?", &factory, "init?", &init,
		"repr?", &repr, "hash?", &hash, "compare?", &compare, "metadata?", &metadata, "kw_only?", &kwOnly); err != nil {
		return nil, err
	}
	if dflt != dcMissing && factory != dcMissing {
		return nil, pyrt.Errorf("ValueError", "cannot specify both default and default_factory")
	}
	if metadata == starlark.None {
		metadata = starlark.NewDict(0)
	}
	if kwOnly != dcMissing {
		kwOnly = starlark.Bool(kwOnly.Truth())
	}
	return &dcField{dflt: missingToNil(dflt), factory: missingToNil(factory), init: bool(init.Truth()), repr: bool(repr.Truth()),
		hash: hash, compare: bool(compare.Truth()), metadata: metadata, kwOnly: missingToNil(kwOnly)}, nil
}

// ---- params ----

// dcParams are the decorator's arguments; the value of
// __dataclass_params__.
type dcParams struct {
	init, repr, eq, order, unsafeHash, frozen, matchArgs, kwOnly, slots bool
}

func (p *dcParams) String() string {
	return fmt.Sprintf("_DataclassParams(init=%s,repr=%s,eq=%s,order=%s,unsafe_hash=%s,frozen=%s)",
		pyBool(p.init), pyBool(p.repr), pyBool(p.eq), pyBool(p.order), pyBool(p.unsafeHash), pyBool(p.frozen))
}
func (p *dcParams) Type() string         { return "_DataclassParams" }
func (p *dcParams) Freeze()              {}
func (p *dcParams) Truth() starlark.Bool { return true }
func (p *dcParams) Hash() (uint32, error) {
	return 0, pyrt.Errorf("TypeError", "unhashable type: '_DataclassParams'")
}
func (p *dcParams) Attr(name string) (starlark.Value, error) {
	switch name {
	case "init":
		return starlark.Bool(p.init), nil
	case "repr":
		return starlark.Bool(p.repr), nil
	case "eq":
		return starlark.Bool(p.eq), nil
	case "order":
		return starlark.Bool(p.order), nil
	case "unsafe_hash":
		return starlark.Bool(p.unsafeHash), nil
	case "frozen":
		return starlark.Bool(p.frozen), nil
	}
	return nil, nil
}
func (p *dcParams) AttrNames() []string {
	return []string{"eq", "frozen", "init", "order", "repr", "unsafe_hash"}
}

// dcParamNames are the decorator's keyword arguments.
var dcParamNames = []string{"init", "repr", "eq", "order", "unsafe_hash", "frozen", "match_args", "kw_only", "slots", "weakref_slot"}

// parseParams reads the decorator's keyword arguments.
func parseParams(fname string, kwargs []starlark.Tuple) (*dcParams, error) {
	p := &dcParams{init: true, repr: true, eq: true, matchArgs: true}
	for _, kv := range kwargs {
		k, _ := interp.AsText(kv[0])
		b := bool(kv[1].Truth())
		switch k {
		case "init":
			p.init = b
		case "repr":
			p.repr = b
		case "eq":
			p.eq = b
		case "order":
			p.order = b
		case "unsafe_hash":
			p.unsafeHash = b
		case "frozen":
			p.frozen = b
		case "match_args":
			p.matchArgs = b
		case "kw_only":
			p.kwOnly = b
		case "slots":
			p.slots = b
		case "weakref_slot":
		default:
			return nil, pyrt.Errorf("TypeError", "%s() got an unexpected keyword argument '%s'", fname, k)
		}
	}
	return p, nil
}

// dcDecorator is dataclass(cls=None, /, *, init=True, repr=True, …): the
// class made a dataclass, or (without cls) the decorator that makes one.
func dcDecorator(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 1 {
		return nil, pyrt.Errorf("TypeError", "dataclass() takes from 0 to 1 positional arguments but %d were given", len(args))
	}
	p, err := parseParams("dataclass", kwargs)
	if err != nil {
		return nil, err
	}
	if len(args) == 1 && args[0] != starlark.None {
		return dcProcess(thread, args[0], p)
	}
	return interp.NewBuiltin("dataclass.<locals>.wrap", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 1 || len(kwargs) > 0 {
			return nil, pyrt.Errorf("TypeError", "wrap() takes 1 positional argument but %d were given", len(args))
		}
		return dcProcess(thread, args[0], p)
	}), nil
}

// ---- the class ----

// dcClassOf is the dataclass v is or is an instance of; nil when v is
// none.
func dcClassOf(v starlark.Value) *objects.Class {
	c, ok := v.(*objects.Class)
	if !ok {
		in := objects.AsInstance(v)
		if in == nil {
			return nil
		}
		c = in.Class()
	}
	if _, ok := c.Lookup("__dataclass_fields__"); !ok {
		return nil
	}
	return c
}

// dcAllFields are the class's Fields (ClassVars and InitVars among
// them), in order.
func dcAllFields(c *objects.Class) []*dcField {
	v, ok := c.Lookup("__dataclass_fields__")
	if !ok {
		return nil
	}
	d, ok := v.(*starlark.Dict)
	if !ok {
		return nil
	}
	out := make([]*dcField, 0, d.Len())
	for _, kv := range d.Items() {
		if f, ok := kv[1].(*dcField); ok {
			out = append(out, f)
		}
	}
	return out
}

// dcFieldList is fields(cls): the Fields that are fields.
func dcFieldList(c *objects.Class) []*dcField {
	var out []*dcField
	for _, f := range dcAllFields(c) {
		if f.kind == kindField {
			out = append(out, f)
		}
	}
	return out
}

// isClassVar reports whether an annotation is typing.ClassVar (bare or
// subscripted, or written as a string).
func isClassVar(a starlark.Value) bool {
	return annotationIs(a, "ClassVar", func(v starlark.Value) bool {
		n, ok := v.(interface{ Name() string })
		return ok && v.Type() == "typing" && n.Name() == "ClassVar"
	})
}

// isInitVar reports whether an annotation is dataclasses.InitVar.
func isInitVar(a starlark.Value) bool {
	return annotationIs(a, "InitVar", func(v starlark.Value) bool {
		_, ok := v.(*initVar)
		return ok
	})
}

func annotationIs(a starlark.Value, name string, is func(starlark.Value) bool) bool {
	if is(a) {
		return true
	}
	if an, ok := a.(*objects.Annotation); ok {
		if o := an.Origin(); o != nil && is(o) {
			return true
		}
		a = starlark.String(an.Text())
	}
	if s, ok := interp.AsText(a); ok {
		s = strings.TrimSpace(s)
		for _, prefix := range []string{"typing.", "dataclasses.", "t.", "dc."} {
			s = strings.TrimPrefix(s, prefix)
		}
		return s == name || strings.HasPrefix(s, name+"[")
	}
	return false
}

// isUnhashableDefault is CPython's test for a mutable default: its
// class's __hash__ is None.
func isUnhashableDefault(v starlark.Value) bool {
	switch v.(type) {
	case *starlark.List, *starlark.Dict, *starlark.Set, *interp.ByteArray:
		return true
	}
	if in := objects.AsInstance(v); in != nil {
		if h, ok := in.Class().Lookup("__hash__"); ok {
			return h == starlark.None
		}
		_, eq := in.Class().Lookup("__eq__")
		return eq
	}
	if b, ok := v.(interface{ BuiltinBase() string }); ok {
		switch b.BuiltinBase() {
		case "list", "dict", "set":
			return true
		}
	}
	return false
}

// typeRepr is repr(type(v)), as CPython's messages write a class.
func typeRepr(v starlark.Value) string {
	if in := objects.AsInstance(v); in != nil {
		return in.Class().String()
	}
	return "<class '" + pyrt.TypeName(v) + "'>"
}

// dcProcess makes cls a dataclass: CPython's _process_class.
func dcProcess(thread *starlark.Thread, cls starlark.Value, p *dcParams) (starlark.Value, error) {
	c, ok := cls.(*objects.Class)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "dataclass() should be applied to a class, not %s", pyrt.TypeName(cls))
	}
	budget := interp.BudgetOf(thread)
	var order []string
	fields := map[string]*dcField{}
	put := func(f *dcField) {
		if _, ok := fields[f.name]; !ok {
			order = append(order, f.name)
		}
		fields[f.name] = f
	}
	hasBases, anyFrozen, allFrozen := false, false, true
	mro := c.MRO()
	for i := len(mro) - 1; i >= 1; i-- {
		b, ok := mro[i].(*objects.Class)
		if !ok {
			continue
		}
		if _, ok := b.Own("__dataclass_fields__"); !ok {
			continue
		}
		hasBases = true
		for _, f := range dcAllFields(b) {
			put(f)
		}
		if pv, ok := b.Lookup("__dataclass_params__"); ok {
			if bp, ok := pv.(*dcParams); ok {
				anyFrozen = anyFrozen || bp.frozen
				allFrozen = allFrozen && bp.frozen
			}
		}
	}
	// The class's own annotations.
	kwOnly := p.kwOnly
	kwSeen := false
	own := map[string]bool{}
	if anns := c.Annotations(); anns != nil {
		for _, kv := range anns.Items() {
			if err := budget.Charge(1); err != nil {
				return nil, err
			}
			name, _ := interp.AsText(kv[0])
			typ := kv[1]
			if typ == kwOnlyMarker || annotationIs(typ, "KW_ONLY", func(v starlark.Value) bool { return v == kwOnlyMarker }) {
				if kwSeen {
					return nil, pyrt.Errorf("TypeError", "'%s' is KW_ONLY, but KW_ONLY has already been specified", name)
				}
				kwSeen, kwOnly = true, true
				continue
			}
			f, err := dcGetField(c, name, typ, kwOnly)
			if err != nil {
				return nil, err
			}
			own[name] = true
			put(f)
			// The class attribute is the default, or nothing.
			if v, ok := c.Own(name); ok {
				if _, isField := v.(*dcField); isField {
					if f.dflt == nil {
						c.Delete(name)
					} else {
						c.Set(name, f.dflt)
					}
				}
			}
		}
	}
	for _, n := range c.Names() {
		if v, ok := c.Own(n); ok {
			if _, isField := v.(*dcField); isField && !own[n] {
				return nil, pyrt.Errorf("TypeError", "'%s' is a field but has no type annotation", n)
			}
		}
	}
	if hasBases {
		if anyFrozen && !p.frozen {
			return nil, pyrt.Errorf("TypeError", "cannot inherit non-frozen dataclass from a frozen one")
		}
		if !allFrozen && p.frozen {
			return nil, pyrt.Errorf("TypeError", "cannot inherit frozen dataclass from a non-frozen one")
		}
	}
	all := make([]*dcField, len(order))
	fd := starlark.NewDict(len(order))
	for i, n := range order {
		all[i] = fields[n]
		_ = fd.SetKey(starlark.String(n), fields[n])
	}
	c.Set("__dataclass_fields__", fd)
	c.Set("__dataclass_params__", p)
	// In JSON (a tool's argument, a run's structured result) an instance
	// is its fields, as asdict gives them.
	c.SetExport(func(thread *starlark.Thread, in *objects.Instance) (starlark.Value, error) {
		d, _, err := DataclassAsDict(thread, in)
		return d, err
	})

	classHash, hasHash := c.Own("__hash__")
	_, ownEq := c.Own("__eq__")
	explicitHash := hasHash && !(classHash == starlark.None && ownEq)

	if p.order && !p.eq {
		return nil, pyrt.Errorf("ValueError", "eq must be true if order is true")
	}
	var fieldList []*dcField
	for _, f := range all {
		if f.kind == kindField {
			fieldList = append(fieldList, f)
		}
	}
	setNew := func(name string, v starlark.Value) bool {
		if _, ok := c.Own(name); ok {
			return true
		}
		c.Set(name, v)
		return false
	}
	if p.init {
		seenDefault := false
		for _, f := range all {
			if f.kind == kindClassVar || !f.init || f.kwOnly == starlark.True {
				continue
			}
			if f.dflt != nil || f.factory != nil {
				seenDefault = true
			} else if seenDefault {
				return nil, pyrt.Errorf("TypeError", "non-default argument '%s' follows default argument", f.name)
			}
		}
		setNew("__init__", dcInitMethod(c, all, p.frozen))
	}
	if p.repr {
		setNew("__repr__", dcReprMethod(fieldList))
	}
	if p.eq {
		setNew("__eq__", dcCompareMethod(c, "__eq__", syntax.EQL, fieldList))
	}
	if p.order {
		for _, m := range []struct {
			name string
			op   syntax.Token
		}{{"__lt__", syntax.LT}, {"__le__", syntax.LE}, {"__gt__", syntax.GT}, {"__ge__", syntax.GE}} {
			if setNew(m.name, dcCompareMethod(c, m.name, m.op, fieldList)) {
				return nil, pyrt.Errorf("TypeError", "Cannot overwrite attribute %s in class %s. Consider using functools.total_ordering", m.name, c.Name())
			}
		}
	}
	if p.frozen {
		for _, name := range []string{"__setattr__", "__delattr__"} {
			if setNew(name, dcFrozenMethod(c, name, fieldList)) {
				return nil, pyrt.Errorf("TypeError", "Cannot overwrite attribute %s in class %s", name, c.Name())
			}
		}
	}
	// __hash__, by CPython's table of (unsafe_hash, eq, frozen, explicit).
	hashFields := func() []*dcField {
		var out []*dcField
		for _, f := range fieldList {
			if f.hash == starlark.None && f.compare || f.hash != starlark.None && bool(f.hash.Truth()) {
				out = append(out, f)
			}
		}
		return out
	}
	switch {
	case p.unsafeHash:
		if explicitHash {
			return nil, pyrt.Errorf("TypeError", "Cannot overwrite attribute __hash__ in class %s", c.Name())
		}
		c.Set("__hash__", dcHashMethod(hashFields()))
	case p.eq && p.frozen:
		if !explicitHash {
			c.Set("__hash__", dcHashMethod(hashFields()))
		}
	case p.eq:
		if !explicitHash {
			c.Set("__hash__", starlark.None)
		}
	}
	if _, ok := c.Own("__doc__"); !ok {
		c.Set("__doc__", interp.MakeString(dcDoc(c, all)))
	}
	if p.slots {
		// Attributes are not restricted: __slots__ names the fields.
		var names starlark.Tuple
		for _, f := range fieldList {
			names = append(names, starlark.String(f.name))
		}
		setNew("__slots__", names)
	}
	if p.matchArgs {
		var names starlark.Tuple
		for _, f := range fieldList {
			if f.init && f.kwOnly != starlark.True {
				names = append(names, starlark.String(f.name))
			}
		}
		setNew("__match_args__", names)
	}
	return c, nil
}

// dcGetField is the Field of an annotated name: field() given as its
// default, or one made from the default.
func dcGetField(c *objects.Class, name string, typ starlark.Value, kwOnly bool) (*dcField, error) {
	var f *dcField
	dflt, has := c.Own(name)
	if ff, ok := dflt.(*dcField); has && ok {
		f = ff
	} else {
		f = &dcField{init: true, repr: true, compare: true, hash: starlark.None, metadata: starlark.NewDict(0)}
		if has {
			f.dflt = dflt
		}
	}
	f.name, f.typ = name, typ
	switch {
	case isClassVar(typ):
		f.kind = kindClassVar
	case isInitVar(typ):
		f.kind = kindInitVar
	}
	if f.kind != kindField && f.factory != nil {
		return nil, pyrt.Errorf("TypeError", "field %s cannot have a default factory", name)
	}
	if f.kind != kindClassVar {
		if f.kwOnly == nil {
			f.kwOnly = starlark.Bool(kwOnly)
		}
	} else if f.kwOnly != nil {
		return nil, pyrt.Errorf("TypeError", "field %s is a ClassVar but specifies kw_only", name)
	}
	if f.kind == kindField && f.dflt != nil && isUnhashableDefault(f.dflt) {
		return nil, pyrt.Errorf("ValueError", "mutable default %s for field %s is not allowed: use default_factory", typeRepr(f.dflt), name)
	}
	return f, nil
}

// dcDoc is the __doc__ CPython gives: the class's name and signature.
func dcDoc(c *objects.Class, all []*dcField) string {
	var params []string
	kwStarted := false
	for _, f := range all {
		if f.kind == kindClassVar || !f.init {
			continue
		}
		if f.kwOnly == starlark.True && !kwStarted {
			kwStarted = true
		}
	}
	var std, kw []string
	for _, f := range all {
		if f.kind == kindClassVar || !f.init {
			continue
		}
		s := f.name
		if f.typ != nil {
			s += ": " + annotationText(f.typ)
		}
		switch {
		case f.dflt != nil:
			r, _ := interp.Repr(nil, f.dflt)
			s += " = " + r
		case f.factory != nil:
			s += " = <factory>"
		}
		if f.kwOnly == starlark.True {
			kw = append(kw, s)
		} else {
			std = append(std, s)
		}
	}
	params = append(params, std...)
	if kwStarted {
		params = append(params, "*")
		params = append(params, kw...)
	}
	return c.Name() + "(" + strings.Join(params, ", ") + ")"
}

// ---- generated methods ----

// dcInitMethod is the generated __init__(self, a, b=…, *, c=…).
func dcInitMethod(c *objects.Class, all []*dcField, frozen bool) *objects.Method {
	var pos, kw, initFields []*dcField
	for _, f := range all {
		if f.kind == kindClassVar || !f.init {
			continue
		}
		initFields = append(initFields, f)
		if f.kwOnly == starlark.True {
			kw = append(kw, f)
		} else {
			pos = append(pos, f)
		}
	}
	qual := c.QualName() + ".__init__"
	return objects.NewMethod("__init__", func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		in := objects.AsInstance(self)
		if in == nil {
			return nil, pyrt.Errorf("TypeError", "%s() needs an instance", qual)
		}
		given := make(map[string]starlark.Value, len(initFields))
		if len(args) > len(pos) {
			return nil, tooManyPositional(qual, pos, len(args))
		}
		for i, a := range args {
			given[pos[i].name] = a
		}
		for _, kv := range kwargs {
			k, _ := interp.AsText(kv[0])
			known := false
			for _, f := range initFields {
				if f.name == k {
					known = true
					break
				}
			}
			if !known {
				return nil, pyrt.Errorf("TypeError", "%s() got an unexpected keyword argument '%s'", qual, k)
			}
			if _, dup := given[k]; dup {
				return nil, pyrt.Errorf("TypeError", "%s() got multiple values for argument '%s'", qual, k)
			}
			given[k] = kv[1]
		}
		if err := missingArgs(qual, pos, given, "positional"); err != nil {
			return nil, err
		}
		if err := missingArgs(qual, kw, given, "keyword-only"); err != nil {
			return nil, err
		}
		set := func(name string, v starlark.Value) error {
			if frozen {
				return in.SetAttr(thread, name, v)
			}
			return in.SetField(name, v)
		}
		var initVars starlark.Tuple
		for _, f := range all {
			if f.kind == kindClassVar {
				continue
			}
			var v starlark.Value
			switch {
			case f.init && given[f.name] != nil:
				v = given[f.name]
			case f.factory != nil && f.kind == kindField:
				var err error
				if v, err = starlark.Call(thread, f.factory, nil, nil); err != nil {
					return nil, err
				}
			case f.init:
				v = f.dflt
			}
			if f.kind == kindInitVar {
				if v == nil {
					v = starlark.None
				}
				initVars = append(initVars, v)
				continue
			}
			if v == nil {
				continue // init=False without a factory: the class attribute serves
			}
			if err := set(f.name, v); err != nil {
				return nil, err
			}
		}
		if _, ok := in.Class().Lookup("__post_init__"); ok {
			pi, err := pyrt.GetAttr(thread, in, "__post_init__")
			if err != nil {
				return nil, err
			}
			if _, err := starlark.Call(thread, pi, initVars, nil); err != nil {
				return nil, err
			}
		}
		return starlark.None, nil
	})
}

// tooManyPositional is CPython's message for too many positional
// arguments to a method (self counted).
func tooManyPositional(qual string, pos []*dcField, given int) error {
	required := 0
	for _, f := range pos {
		if f.dflt == nil && f.factory == nil {
			required++
		}
	}
	takes := fmt.Sprint(len(pos) + 1)
	if required < len(pos) {
		takes = fmt.Sprintf("from %d to %d", required+1, len(pos)+1)
	}
	s := "s"
	if takes == "1" {
		s = ""
	}
	was := "were"
	if given+1 == 1 {
		was = "was"
	}
	return pyrt.Errorf("TypeError", "%s() takes %s positional argument%s but %d %s given", qual, takes, s, given+1, was)
}

// missingArgs is CPython's message for required arguments not given.
func missingArgs(qual string, fs []*dcField, given map[string]starlark.Value, kind string) error {
	var missing []string
	for _, f := range fs {
		if given[f.name] == nil && f.dflt == nil && f.factory == nil {
			missing = append(missing, "'"+f.name+"'")
		}
	}
	if len(missing) == 0 {
		return nil
	}
	s := "s"
	if len(missing) == 1 {
		s = ""
	}
	return pyrt.Errorf("TypeError", "%s() missing %d required %s argument%s: %s", qual, len(missing), kind, s, joinNames(missing))
}

// joinNames is 'a', 'a' and 'b', or 'a', 'b', and 'c'.
func joinNames(names []string) string {
	switch len(names) {
	case 1:
		return names[0]
	case 2:
		return names[0] + " and " + names[1]
	}
	return strings.Join(names[:len(names)-1], ", ") + ", and " + names[len(names)-1]
}

// dcReprKey is the thread-local set of instances whose __repr__ runs:
// reprlib.recursive_repr's guard, which shows a cycle as "...".
const dcReprKey = "onetool.dataclasses.repr"

func dcReprMethod(fields []*dcField) *objects.Method {
	return objects.NewMethod("__repr__", func(thread *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		in := objects.AsInstance(self)
		if in == nil {
			return nil, pyrt.Errorf("TypeError", "__repr__() needs a dataclass instance")
		}
		running, _ := thread.Local(dcReprKey).(map[*objects.Instance]bool)
		if running == nil {
			running = map[*objects.Instance]bool{}
			thread.SetLocal(dcReprKey, running)
		}
		if running[in] {
			return starlark.String("..."), nil
		}
		running[in] = true
		defer delete(running, in)
		b := interp.BudgetOf(thread)
		var sb strings.Builder
		sb.WriteString(in.Class().QualName())
		sb.WriteByte('(')
		first := true
		for _, f := range fields {
			if !f.repr {
				continue
			}
			v, err := pyrt.GetAttr(thread, in, f.name)
			if err != nil {
				return nil, err
			}
			r, err := interp.Repr(b, v)
			if err != nil {
				return nil, err
			}
			if !first {
				sb.WriteString(", ")
			}
			first = false
			sb.WriteString(f.name)
			sb.WriteByte('=')
			sb.WriteString(r)
		}
		sb.WriteByte(')')
		return interp.MakeString(sb.String()), nil
	})
}

// dcPlainValues appends to buf the values of all of fs when self is an
// instance whose fields are plain attributes (objects.Instance.PlainAttr)
// and buf has room for them; nil otherwise.
func dcPlainValues(self starlark.Value, fs []*dcField, buf starlark.Tuple) starlark.Tuple {
	in := objects.AsInstance(self)
	if in == nil || len(fs) > cap(buf) {
		return nil
	}
	for _, f := range fs {
		v, ok := in.PlainAttr(f.name)
		if !ok {
			return nil
		}
		buf = append(buf, v)
	}
	return buf
}

// dcValues is the tuple of the instance's fields in fs.
func dcValues(thread *starlark.Thread, in starlark.Value, fs []*dcField, keep func(*dcField) bool) (starlark.Tuple, error) {
	out := make(starlark.Tuple, 0, len(fs))
	for _, f := range fs {
		if keep != nil && !keep(f) {
			continue
		}
		v, err := pyrt.GetAttr(thread, in, f.name)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// dcCompareMethod is __eq__ or an order method: the compared fields as
// tuples, between instances of the same class; NotImplemented for any
// other operand.
func dcCompareMethod(c *objects.Class, name string, op syntax.Token, fields []*dcField) *objects.Method {
	compared := func(f *dcField) bool { return f.compare }
	return objects.NewBorrowingMethod(name, func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 1 || len(kwargs) > 0 {
			return nil, pyrt.Errorf("TypeError", "%s.%s() takes 2 positional arguments but %d were given", c.QualName(), name, len(args)+1)
		}
		x, y := objects.AsInstance(self), objects.AsInstance(args[0])
		if x == nil || y == nil || x.Class() != y.Class() {
			return pyrt.NotImplemented, nil
		}
		if r, ok, err := dcComparePlain(thread, op, x, y, fields); ok {
			return starlark.Bool(r), err
		}
		tx, err := dcValues(thread, x, fields, compared)
		if err != nil {
			return nil, err
		}
		ty, err := dcValues(thread, y, fields, compared)
		if err != nil {
			return nil, err
		}
		r, err := compareTuples(thread, op, tx, ty)
		return starlark.Bool(r), err
	})
}

// dcComparePlain is dcCompareMethod's comparison when every compared
// field of x and y is a plain attribute (objects.Instance.PlainAttr:
// reading it runs nothing): the fields are compared pair by pair, as
// compareTuples compares the tuples CPython's method makes, without
// making the tuples, and reading only up to the first pair that
// differs. ok is false when a field is not plain (a property, a
// descriptor, a missing attribute): then nothing was compared.
func dcComparePlain(thread *starlark.Thread, op syntax.Token, x, y *objects.Instance, fields []*dcField) (r, ok bool, err error) {
	// The values, read first as CPython's tuples are made (reading has
	// no effect here), in arrays on the stack: a class of more compared
	// fields takes the general path.
	var xs, ys [8]starlark.Value
	n := 0
	for _, f := range fields {
		if !f.compare {
			continue
		}
		if n == len(xs) {
			return false, false, nil
		}
		var okx, oky bool
		xs[n], okx = x.PlainAttr(f.name)
		ys[n], oky = y.PlainAttr(f.name)
		if !okx || !oky {
			return false, false, nil
		}
		n++
	}
	for i := range n {
		xv, yv := xs[i], ys[i]
		if identical(xv, yv) {
			continue
		}
		eq, err := pyrt.Equal(thread, xv, yv)
		if err != nil {
			return false, true, err
		}
		if eq {
			continue
		}
		switch op {
		case syntax.EQL:
			return false, true, nil
		case syntax.NEQ:
			return true, true, nil
		}
		r, err := pyrt.Compare(thread, op, xv, yv)
		return r, true, err
	}
	switch op {
	case syntax.EQL, syntax.LE, syntax.GE:
		return true, true, nil
	}
	return false, true, nil
}

// compareTuples is x op y for two tuples of one length, as CPython
// compares tuples: the first pair of elements that differ decides.
func compareTuples(thread *starlark.Thread, op syntax.Token, x, y starlark.Tuple) (bool, error) {
	for i := range x {
		if identical(x[i], y[i]) {
			continue
		}
		eq, err := pyrt.Equal(thread, x[i], y[i])
		if err != nil {
			return false, err
		}
		if eq {
			continue
		}
		switch op {
		case syntax.EQL:
			return false, nil
		case syntax.NEQ:
			return true, nil
		}
		return pyrt.Compare(thread, op, x[i], y[i])
	}
	switch op {
	case syntax.EQL, syntax.LE, syntax.GE:
		return true, nil
	}
	return false, nil
}

// dcHashMethod is __hash__: the hash of the tuple of the fields.
func dcHashMethod(fields []*dcField) *objects.Method {
	return objects.NewBorrowingMethod("__hash__", func(thread *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		// The fields' tuple on the stack when they are plain attributes
		// (a frozen key's hash at every dict lookup).
		var a [8]starlark.Value
		t := dcPlainValues(self, fields, a[:0])
		if t == nil {
			var err error
			if t, err = dcValues(thread, self, fields, nil); err != nil {
				return nil, err
			}
		}
		h, err := t.Hash()
		if err != nil {
			return nil, err
		}
		return starlark.MakeInt64(int64(int32(h))), nil
	})
}

// dcFrozenMethod is a frozen class's __setattr__ or __delattr__: a
// field, or any attribute of an instance of the class itself, cannot
// change.
func dcFrozenMethod(c *objects.Class, name string, fields []*dcField) *objects.Method {
	isField := map[string]bool{}
	for _, f := range fields {
		isField[f.name] = true
	}
	verb := "assign to"
	if name == "__delattr__" {
		verb = "delete"
	}
	return objects.NewMethod(name, func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		in := objects.AsInstance(self)
		want := 2
		if name == "__delattr__" {
			want = 1
		}
		if in == nil || len(args) != want {
			return nil, pyrt.Errorf("TypeError", "%s() takes %d arguments", name, want+1)
		}
		attr, _ := interp.AsText(args[0])
		if in.Class() == c || isField[attr] {
			return nil, frozenInstanceError.Raise(fmt.Sprintf("cannot %s field '%s'", verb, attr), nil)
		}
		if name == "__delattr__" {
			del, err := pyrt.GetAttr(thread, interp.Predeclared(thread)["object"], "__delattr__")
			if err != nil {
				return nil, err
			}
			return starlark.Call(thread, del, starlark.Tuple{in, args[0]}, nil)
		}
		return starlark.None, in.SetAttr(thread, attr, args[1])
	})
}

// ---- module functions ----

// dcFields is fields(class_or_instance).
func dcFields(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := unpack("fields", args, kwargs, "class_or_instance", &x); err != nil {
		return nil, err
	}
	c := dcClassOf(x)
	if c == nil {
		return nil, pyrt.Errorf("TypeError", "must be called with a dataclass type or instance")
	}
	fs := dcFieldList(c)
	out := make(starlark.Tuple, len(fs))
	for i, f := range fs {
		out[i] = f
	}
	return out, nil
}

func dcIsDataclass(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := unpack("is_dataclass", args, kwargs, "obj", &x); err != nil {
		return nil, err
	}
	return starlark.Bool(dcClassOf(x) != nil), nil
}

// dcReplace is replace(obj, /, **changes).
func dcReplace(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, pyrt.Errorf("TypeError", "replace() takes 1 positional argument but %d were given", len(args))
	}
	in := objects.AsInstance(args[0])
	if in == nil || dcClassOf(in) == nil {
		return nil, pyrt.Errorf("TypeError", "replace() should be called on dataclass instances")
	}
	changes := map[string]starlark.Value{}
	for _, kv := range kwargs {
		k, _ := interp.AsText(kv[0])
		changes[k] = kv[1]
	}
	var kw []starlark.Tuple
	for _, f := range dcAllFields(in.Class()) {
		if f.kind == kindClassVar {
			continue
		}
		if !f.init {
			if _, ok := changes[f.name]; ok {
				return nil, pyrt.Errorf("ValueError", "field %s is declared with init=False, it cannot be specified with replace()", f.name)
			}
			continue
		}
		if _, ok := changes[f.name]; !ok {
			if f.kind == kindInitVar && f.dflt == nil {
				return nil, pyrt.Errorf("ValueError", "InitVar '%s' must be specified with replace()", f.name)
			}
			if f.kind == kindInitVar {
				continue
			}
			v, err := pyrt.GetAttr(thread, in, f.name)
			if err != nil {
				return nil, err
			}
			kw = append(kw, starlark.Tuple{starlark.String(f.name), v})
		}
	}
	kw = append(kw, kwargs...)
	return starlark.Call(thread, in.Class(), nil, kw)
}

// dcAsDictBuiltin is asdict(obj, *, dict_factory=dict) or astuple(obj,
// *, tuple_factory=tuple).
func dcAsDictBuiltin(tuple bool) interp.BuiltinFunc {
	name, factoryName := "asdict", "dict_factory"
	if tuple {
		name, factoryName = "astuple", "tuple_factory"
	}
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var obj, factory starlark.Value
		if err := unpack(name, args, kwargs, "obj", &obj, factoryName+"?", &factory); err != nil {
			return nil, err
		}
		if in := objects.AsInstance(obj); in == nil || dcClassOf(in) == nil {
			return nil, pyrt.Errorf("TypeError", "%s() should be called on dataclass instances", name)
		}
		if factory == starlark.None {
			factory = nil
		}
		a := &dcAsDict{thread: thread, b: interp.BudgetOf(thread), tuple: tuple, factory: factory}
		a.copier = &copier{thread: thread, b: a.b, deep: true, memo: map[starlark.Value]starlark.Value{}}
		defer a.b.Hold(a.copier.held)()
		return a.inner(obj, 0)
	}
}

// DataclassAsDict is asdict(v) for the runner: a dataclass instance as
// the dict of its fields (recursively), for an MCP result's structured
// content and a tool's argument. ok is false when v is no dataclass
// instance.
func DataclassAsDict(thread *starlark.Thread, v starlark.Value) (d starlark.Value, ok bool, err error) {
	in := objects.AsInstance(v)
	if in == nil || dcClassOf(in) == nil {
		return nil, false, nil
	}
	a := &dcAsDict{thread: thread, b: interp.BudgetOf(thread)}
	a.copier = &copier{thread: thread, b: a.b, deep: true, memo: map[starlark.Value]starlark.Value{}}
	defer a.b.Hold(a.copier.held)()
	d, err = a.inner(v, 0)
	return d, true, err
}

// dcAsDict walks a value for asdict/astuple: CPython's _asdict_inner.
type dcAsDict struct {
	thread  *starlark.Thread
	b       *interp.Budget
	tuple   bool
	factory starlark.Value
	copier  *copier
}

func (a *dcAsDict) inner(v starlark.Value, depth int) (starlark.Value, error) {
	if depth > interp.MaxDepth {
		return nil, interp.ErrTooDeep
	}
	if err := a.b.Charge(1); err != nil {
		return nil, err
	}
	if in := objects.AsInstance(v); in != nil && dcClassOf(in) != nil {
		fs := dcFieldList(in.Class())
		if err := a.b.Alloc(int64(len(fs)) * slotSize * 2); err != nil {
			return nil, err
		}
		pairs := make([]starlark.Value, 0, len(fs))
		for _, f := range fs {
			fv, err := pyrt.GetAttr(a.thread, in, f.name)
			if err != nil {
				return nil, err
			}
			cv, err := a.inner(fv, depth+1)
			if err != nil {
				return nil, err
			}
			if a.tuple {
				pairs = append(pairs, cv)
			} else {
				pairs = append(pairs, starlark.Tuple{starlark.String(f.name), cv})
			}
		}
		if a.factory != nil {
			return starlark.Call(a.thread, a.factory, starlark.Tuple{starlark.NewList(pairs)}, nil)
		}
		if a.tuple {
			return starlark.Tuple(pairs), nil
		}
		d := starlark.NewDict(len(pairs))
		for _, p := range pairs {
			kv := p.(starlark.Tuple)
			if err := d.SetKey(kv[0], kv[1]); err != nil {
				return nil, err
			}
		}
		return d, nil
	}
	switch x := v.(type) {
	case *ntValue:
		vals, err := a.seq(x.vals, depth)
		if err != nil {
			return nil, err
		}
		return &ntValue{typ: x.typ, vals: vals}, nil
	case starlark.Tuple:
		return a.seq(x, depth)
	case *starlark.List:
		vals := make([]starlark.Value, x.Len())
		for i := range vals {
			vals[i] = x.Index(i)
		}
		out, err := a.seq(vals, depth)
		if err != nil {
			return nil, err
		}
		return starlark.NewList(out), nil
	case *starlark.Dict:
		if err := a.b.Alloc(interp.TableBytes(x.Len())); err != nil {
			return nil, err
		}
		out := starlark.NewDict(x.Len())
		for _, kv := range x.Items() {
			k, err := a.inner(kv[0], depth+1)
			if err != nil {
				return nil, err
			}
			val, err := a.inner(kv[1], depth+1)
			if err != nil {
				return nil, err
			}
			if err := out.SetKey(k, val); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return a.copier.copy(v, depth)
}

func (a *dcAsDict) seq(vals []starlark.Value, depth int) (starlark.Tuple, error) {
	if err := a.b.Alloc(int64(len(vals)) * slotSize); err != nil {
		return nil, err
	}
	out := make(starlark.Tuple, len(vals))
	for i, e := range vals {
		c, err := a.inner(e, depth+1)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// dcMakeDataclass is make_dataclass(cls_name, fields, *, bases=(),
// namespace=None, **dataclass arguments).
func dcMakeDataclass(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name, specs starlark.Value
	var bases starlark.Value = starlark.Tuple{}
	var namespace starlark.Value = starlark.None
	var dcKw []starlark.Tuple
	var own []starlark.Tuple
	for _, kv := range kwargs {
		k, _ := interp.AsText(kv[0])
		switch k {
		case "bases", "namespace", "module", "cls_name", "fields":
			own = append(own, kv)
		default:
			dcKw = append(dcKw, kv)
		}
	}
	var module starlark.Value
	if err := unpack("make_dataclass", args, own, "cls_name", &name, "fields", &specs, "bases?", &bases, "namespace?", &namespace, "module?", &module); err != nil {
		return nil, err
	}
	p, err := parseParams("make_dataclass", dcKw)
	if err != nil {
		return nil, err
	}
	cname, ok := interp.AsText(name)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "make_dataclass() argument 'cls_name' must be str")
	}
	baseTuple, ok := bases.(starlark.Tuple)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "make_dataclass() argument 'bases' must be a tuple")
	}
	var names []string
	var values []starlark.Value
	if d, ok := namespace.(*starlark.Dict); ok {
		for _, kv := range d.Items() {
			k, _ := interp.AsText(kv[0])
			names = append(names, k)
			values = append(values, kv[1])
		}
	}
	anns := starlark.NewDict(4)
	seen := map[string]bool{}
	items, err := pyrt.Collect(thread, specs)
	if err != nil {
		return nil, err
	}
	for _, item := range items {
		var fname string
		var typ starlark.Value = starlark.String("typing.Any")
		var spec starlark.Value
		if s, ok := interp.AsText(item); ok {
			fname = s
		} else if t, ok := item.(starlark.Tuple); ok && (len(t) == 2 || len(t) == 3) {
			fname, _ = interp.AsText(t[0])
			typ = t[1]
			if len(t) == 3 {
				spec = t[2]
			}
		} else {
			r, _ := interp.Repr(interp.BudgetOf(thread), item)
			return nil, pyrt.Errorf("TypeError", "Invalid field: %s", r)
		}
		if !isIdent(fname) {
			return nil, pyrt.Errorf("TypeError", "Field names must be valid identifiers: %s", quoted(fname))
		}
		if seen[fname] {
			return nil, pyrt.Errorf("TypeError", "Field name duplicated: %s", quoted(fname))
		}
		seen[fname] = true
		_ = anns.SetKey(starlark.String(fname), typ)
		if spec != nil {
			names = append(names, fname)
			values = append(values, spec)
		}
	}
	names = append(names, "__annotations__")
	values = append(values, anns)
	c, err := objects.MakeClass(thread, cname, baseTuple, names, values)
	if err != nil {
		return nil, err
	}
	if module != nil && module != starlark.None {
		c.Set("__module__", module)
	}
	return dcProcess(thread, c, p)
}

func quoted(s string) string { r, _ := interp.Repr(nil, starlark.String(s)); return r }
