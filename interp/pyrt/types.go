package pyrt

import (
	"slices"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
)

// Python's builtin types as values (SPEC §2.7): `int`, `str`, `list`, …
// are classes a program calls to convert, compares with type(x), names in
// isinstance, and reads __name__ from. A TypeObj is one of them; the set
// of them belongs to one Builtins(), so type(x) returns the very value the
// name int denotes, and `type(x) is int` holds.

// TypeObj is a builtin class: a constructor that knows its instances.
type TypeObj struct {
	name string
	ctor *starlark.Builtin // nil: the class makes no instances (NoneType)
	is   func(v starlark.Value) bool
	base *TypeObj // bool's is int; nil means object
	kind receiverKind
	// attrs are the class's own attributes (dict.fromkeys). They are set
	// while Builtins builds the classes and never after: the value is
	// shared by every run.
	attrs   starlark.StringDict
	methods methodSet           // what this package implements, by name and kind
	helpers starlark.StringDict // the method helpers, for unbound methods
}

var (
	_ starlark.Callable   = (*TypeObj)(nil)
	_ starlark.HasAttrs   = (*TypeObj)(nil)
	_ starlark.Comparable = (*TypeObj)(nil)
	_ classInfo           = (*TypeObj)(nil)
)

func (t *TypeObj) Name() string { return t.name }

// Base is the builtin class t derives from (int for bool); nil for object.
func (t *TypeObj) Base() *TypeObj        { return t.base }
func (t *TypeObj) String() string        { return "<class '" + t.name + "'>" }
func (t *TypeObj) Type() string          { return "type" }
func (t *TypeObj) Freeze()               {}
func (t *TypeObj) Truth() starlark.Bool  { return true }
func (t *TypeObj) Hash() (uint32, error) { return starlark.String(t.name).Hash() }

// CompareSameType: classes are equal when they are the same class. The
// classes type(x) makes for values without a builtin class (NoneType,
// function, …) are made on demand, so equality is by name. y may be an
// *ExcClass, whose Type is "type" too.
func (t *TypeObj) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	u, ok := y.(*TypeObj)
	eq := ok && u.name == t.name
	switch op {
	case syntax.EQL:
		return eq, nil
	case syntax.NEQ:
		return !eq, nil
	}
	return false, typeError("'%s' not supported between instances of 'type' and 'type'", op)
}

func (t *TypeObj) hasInstance(v starlark.Value) bool {
	if t.is(v) {
		return true
	}
	s, ok := v.(Subclass)
	return ok && s.BuiltinBase() == t.name
}

// Subclass is implemented by values of a class that derives from a
// builtin one (collections' Counter, defaultdict and OrderedDict derive
// from dict, a namedtuple from tuple): isinstance(x, base) holds for them,
// as in CPython, while type(x) stays their own class.
type Subclass interface{ BuiltinBase() string }

// Class is a class made outside this package (collections.Counter, a
// namedtuple class): isinstance accepts it as its second argument.
type Class interface {
	starlark.Value
	HasInstance(v starlark.Value) bool
}

// otherClass lets a Class stand where isinstance wants a classInfo.
type otherClass struct{ Class }

func (c otherClass) hasInstance(v starlark.Value) bool { return c.HasInstance(v) }

// isSubclassOf reports whether t derives from base (object is the base of
// every class).
func (t *TypeObj) isSubclassOf(base *TypeObj) bool {
	if base.name == "object" {
		return true
	}
	for k := t; k != nil; k = k.base {
		if k.name == base.name {
			return true
		}
	}
	return false
}

func (t *TypeObj) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if t.ctor == nil {
		return nil, typeError("cannot create '%s' instances", t.name)
	}
	return t.ctor.CallInternal(thread, args, kwargs)
}

// setAttr gives the class an attribute (str.maketrans, dict.fromkeys).
// Only while Builtins builds the classes: they are shared by every run.
func (t *TypeObj) setAttr(name string, v starlark.Value) {
	if t.attrs == nil {
		t.attrs = starlark.StringDict{}
	}
	t.attrs[name] = v
}

func (t *TypeObj) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__name__", "__qualname__":
		return starlark.String(t.name), nil
	case "__module__":
		return starlark.String("builtins"), nil
	}
	if v, ok := t.attrs[name]; ok {
		return v, nil
	}
	if t.hasMethod(name) {
		return t.unbound(name), nil
	}
	if d := t.dunder(name); d != nil {
		return d, nil
	}
	return nil, exception("AttributeError", "type object '%s' has no attribute '%s'", t.name, name)
}

func (t *TypeObj) AttrNames() []string {
	names := []string{"__module__", "__name__", "__qualname__"}
	for k := range t.attrs {
		names = append(names, k)
	}
	return names
}

// hasMethod reports whether instances of t have the method name: their
// own (Starlark's) or one this package implements for their kind.
func (t *TypeObj) hasMethod(name string) bool {
	if t.methods[name][t.kind] != nil {
		return true
	}
	var proto starlark.Value
	switch t.kind {
	case kindText:
		proto = starlark.String("")
	case kindList:
		proto = starlark.NewList(nil)
	case kindDict:
		proto = starlark.NewDict(0)
	case kindSet:
		proto = starlark.NewSet(0)
	default:
		return false
	}
	m, _ := proto.(starlark.HasAttrs).Attr(name)
	return m != nil
}

// unbound is the method name of t called with its receiver first:
// str.lower("ABC"), sorted(words, key=str.lower), map(str.strip, lines).
func (t *TypeObj) unbound(name string) starlark.Value {
	helper, _ := t.helpers["__ot_"+name].(*starlark.Builtin)
	return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return nil, typeError("unbound method %s.%s() needs an argument", t.name, name)
		}
		if !t.is(args[0]) {
			return nil, typeError("descriptor '%s' for '%s' objects doesn't apply to a '%s' object", name, t.name, pyTypeName(args[0]))
		}
		if helper != nil {
			return starlark.Call(thread, helper, args, kwargs)
		}
		return callOwn(thread, args[0], name, args[1:], kwargs)
	})
}

// typeTable is the classes of one Builtins().
type typeTable struct {
	byName map[string]*TypeObj
}

// newTypeTable makes the builtin classes; ms and its helpers are the
// methods this package implements (for unbound methods: str.lower).
func newTypeTable(ms methodSet, helpers starlark.StringDict) *typeTable {
	tt := &typeTable{byName: map[string]*TypeObj{}}
	add := func(name string, kind receiverKind, fn interp.BuiltinFunc, is func(starlark.Value) bool) *TypeObj {
		t := &TypeObj{name: name, kind: kind, is: is, methods: ms, helpers: helpers}
		if fn != nil {
			t.ctor = interp.NewBuiltin(name, fn)
		}
		tt.byName[name] = t
		return t
	}
	isType := func(v starlark.Value) bool {
		switch v.(type) {
		case *TypeObj, *ExcClass, Class:
			return true
		}
		return false
	}
	object := add("object", kindOther, objectBuiltin, func(starlark.Value) bool { return true })
	intT := add("int", kindInt, intCtor, func(v starlark.Value) bool {
		switch v.(type) {
		case starlark.Int, starlark.Bool:
			return true
		}
		return false
	})
	intT.setAttr("from_bytes", interp.NewBuiltin("from_bytes", fromBytesBuiltin))
	add("bool", kindOther, boolBuiltin, is[starlark.Bool]).base = intT
	add("float", kindFloat, floatBuiltin, is[starlark.Float]).setAttr("fromhex", interp.NewBuiltin("fromhex", floatFromhex))
	str := add("str", kindText, strBuiltin, func(v starlark.Value) bool { _, ok := interp.AsText(v); return ok })
	str.setAttr("maketrans", interp.NewBuiltin("maketrans", maketransBuiltin))
	add("list", kindList, listBuiltin, is[*starlark.List])
	add("tuple", kindTuple, tupleBuiltin, is[starlark.Tuple])
	dict := add("dict", kindDict, dictBuiltin, is[*starlark.Dict])
	dict.setAttr("fromkeys", interp.NewBuiltin("fromkeys", dictFromkeys))
	add("set", kindSet, setBuiltin, is[*starlark.Set])
	add("frozenset", kindOther, frozensetBuiltin, is[*frozenSet])
	bytesT := add("bytes", kindBytes, bytesBuiltin, func(v starlark.Value) bool {
		switch v.(type) {
		case interp.Bytes, starlark.Bytes:
			return true
		}
		return false
	})
	add("bytearray", kindByteArray, bytearrayBuiltin, is[*interp.ByteArray]).setAttr("fromhex",
		interp.NewBuiltin("fromhex", func(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			v, err := fromhexBuiltin(thread, fn, args, kwargs)
			if err != nil {
				return nil, err
			}
			return asByteArrays(v), nil
		}))
	bytesT.setAttr("fromhex", interp.NewBuiltin("fromhex", fromhexBuiltin))
	add("range", kindOther, rangeBuiltin, is[rangeValue])
	add("slice", kindOther, sliceBuiltin, is[*SliceValue])
	add("type", kindOther, tt.typeBuiltin, isType)
	// Classes with no constructor, for what type(x) answers.
	for _, name := range []string{"NoneType", "function", "builtin_function_or_method"} {
		name := name
		add(name, kindOther, nil, func(v starlark.Value) bool { return pyTypeName(v) == name })
	}
	for _, t := range tt.byName {
		if t.base == nil && t != object {
			t.base = object
		}
	}
	// str.maketrans is attached here by the code that implements it:
	// tt.byName["str"].setAttr("maketrans", …).
	return tt
}

// is reports whether v is a T.
func is[T starlark.Value](v starlark.Value) bool {
	_, ok := v.(T)
	return ok
}

// pyTypeName is the name of v's class, as type(v).__name__ gives it.
func pyTypeName(v starlark.Value) string {
	switch x := v.(type) {
	case *starlark.Builtin:
		return "builtin_function_or_method"
	case *starlark.Function:
		return "function"
	case *TypeObj, *ExcClass:
		return "type"
	case *ExcValue:
		return x.class.name
	case starlark.NoneType:
		return "NoneType"
	case starlark.String, *interp.Unicode:
		return "str"
	case starlark.Bool:
		return "bool"
	case starlark.Int:
		return "int"
	case starlark.Float:
		return "float"
	case *starlark.Dict:
		return "dict"
	case *starlark.List:
		return "list"
	case starlark.Tuple:
		return "tuple"
	case *starlark.Set:
		return "set"
	case interp.Bytes, starlark.Bytes:
		return "bytes"
	}
	return v.Type()
}

// typeOf is type(v).
func (tt *typeTable) typeOf(v starlark.Value) starlark.Value {
	if e, ok := v.(*ExcValue); ok {
		return e.class
	}
	if c, ok := v.(interface{ PyClass() starlark.Value }); ok {
		return c.PyClass() // a module's class: datetime.date
	}
	name := pyTypeName(v)
	if t, ok := tt.byName[name]; ok {
		return t
	}
	// A value of onetool's own (a pack, a tool, a struct, a map object):
	// a class of its name that knows its instances.
	return &TypeObj{name: name, is: func(x starlark.Value) bool { return pyTypeName(x) == name }, base: tt.byName["object"]}
}

// TypeMaker is the predeclared name of type(name, bases, namespace),
// which the object model provides.
const TypeMaker = "__ot_type3"

// typeBuiltin is type(x). The three-argument form, which makes a class,
// is refused: classes other than exceptions are not supported.
func (tt *typeTable) typeBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, typeError("type() takes no keyword arguments")
	}
	switch len(args) {
	case 1:
		return tt.typeOf(args[0]), nil
	case 3:
		// The object model (a package above this one) makes classes.
		if mk, ok := interp.Predeclared(thread)[TypeMaker].(starlark.Callable); ok {
			return starlark.Call(thread, mk, args, nil)
		}
		return nil, typeError("type() cannot make classes here: use a dict or a struct(...) for records")
	}
	return nil, typeError("type() takes 1 or 3 arguments")
}

// part is the builtins of types.go, numbers.go, iterators.go and
// listdict.go, to merge into Builtins().
func (tt *typeTable) part() starlark.StringDict {
	d := starlark.StringDict{}
	for name, t := range tt.byName {
		if t.ctor != nil {
			d[name] = t
		}
	}
	for name, fn := range map[string]interp.BuiltinFunc{
		"isinstance": isinstanceBuiltin,
		"issubclass": issubclassBuiltin,
		"callable":   callableBuiltin,
		"len":        lenBuiltin,
		"hash":       hashBuiltin,
		"abs":        absBuiltin,
		"round":      roundBuiltin,
		"divmod":     divmodBuiltin,
		"pow":        powBuiltin,
		"hex":        baseBuiltin("hex", 16, "0x"),
		"oct":        baseBuiltin("oct", 8, "0o"),
		"bin":        baseBuiltin("bin", 2, "0b"),
		"chr":        chrBuiltin,
		"ord":        ordBuiltin,
		"sum":        sumBuiltin,
		"ascii":      asciiBuiltin,
		"min":        minmaxBuiltin("min"),
		"max":        minmaxBuiltin("max"),
		"any":        anyAllBuiltin("any"),
		"all":        anyAllBuiltin("all"),
		"iter":       iterBuiltin,
		"next":       nextBuiltin,
		"map":        mapBuiltin,
		"filter":     filterBuiltin,
		"zip":        pyZip,
	} {
		d[name] = interp.NewBuiltin(name, fn)
	}
	return d
}

// objectBuiltin is object(): a value equal only to itself, the sentinel
// Python programs make with it.
func objectBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 0 || len(kwargs) > 0 {
		return nil, typeError("object() takes no arguments")
	}
	return &objectValue{}, nil
}

// ellipsis is Python's Ellipsis, the value of `...`.
type ellipsisValue struct{ _ byte }

var ellipsis = &ellipsisValue{}

func (*ellipsisValue) String() string        { return "Ellipsis" }
func (*ellipsisValue) Type() string          { return "ellipsis" }
func (*ellipsisValue) Freeze()               {}
func (*ellipsisValue) Truth() starlark.Bool  { return true }
func (*ellipsisValue) Hash() (uint32, error) { return 0x2e2e2e, nil }

type objectValue struct{ _ byte } // not zero-sized: each one is distinct

func (o *objectValue) String() string        { return "<object object>" }
func (o *objectValue) Type() string          { return "object" }
func (o *objectValue) Freeze()               {}
func (o *objectValue) Truth() starlark.Bool  { return true }
func (o *objectValue) Hash() (uint32, error) { return 0x6f626a, nil } // equal only to itself; one bucket is fine for sentinels

// classInfos walks isinstance's second argument: a class or a tuple of
// them, nested. fn is called with each class.
func classInfos(fn string, v starlark.Value, depth int, each func(classInfo) bool) (bool, error) {
	if depth > interp.MaxDepth {
		return false, interp.ErrTooDeep
	}
	switch x := v.(type) {
	case classInfo:
		return each(x), nil
	case interface{ TypeObj() *TypeObj }: // object, as the object model names it
		return each(x.TypeObj()), nil
	case Class:
		return each(otherClass{x}), nil
	case starlark.Tuple:
		for _, e := range x {
			ok, err := classInfos(fn, e, depth+1, each)
			if err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	}
	if fn == "isinstance" {
		return false, typeError("isinstance() arg 2 must be a type, a tuple of types, or a union")
	}
	return false, typeError("issubclass() arg 2 must be a class, a tuple of classes, or a union")
}

func isinstanceBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("isinstance", args, kwargs, 2, 2); err != nil {
		return nil, err
	}
	x, info := args[0], args[1]
	ok, err := classInfos("isinstance", info, 0, func(c classInfo) bool { return c.hasInstance(x) })
	if !ok && err == nil {
		// An instance of a class deriving from Counter is a Counter.
		if b := heldBuiltin(x); b != nil {
			ok, err = classInfos("isinstance", info, 0, func(c classInfo) bool { return c.hasInstance(b) })
		}
	}
	return starlark.Bool(ok), err
}

func issubclassBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("issubclass", args, kwargs, 2, 2); err != nil {
		return nil, err
	}
	c, info := args[0], args[1]
	switch c.(type) {
	case *TypeObj, *ExcClass, Class:
	default:
		return nil, typeError("issubclass() arg 1 must be a class")
	}
	ok, err := classInfos("issubclass", info, 0, func(base classInfo) bool { return isSubclass(c, base) })
	return starlark.Bool(ok), err
}

// isSubclass reports whether the class c derives from base.
func isSubclass(c starlark.Value, base classInfo) bool {
	switch b := base.(type) {
	case *TypeObj:
		switch c := c.(type) {
		case *TypeObj:
			return c.isSubclassOf(b)
		case *ExcClass:
			return b.name == "object"
		case SubclassTester: // collections.Counter derives from dict
			if c.IsSubclassOf(b) {
				return true
			}
		}
	case *ExcClass:
		switch c := c.(type) {
		case *ExcClass:
			return c.IsSubclass(b)
		case SubclassTester: // a program's exception class
			return c.IsSubclassOf(b)
		}
	case otherClass:
		if c == starlark.Value(b.Class) {
			return true
		}
		if sc, ok := c.(SubclassTester); ok {
			return sc.IsSubclassOf(b.Class)
		}
	}
	if b, ok := base.(*TypeObj); ok && b.name == "object" {
		_, isClass := c.(Class)
		return isClass
	}
	return false
}

// SubclassTester is a module's class that knows its bases, for
// issubclass (datetime.datetime derives from datetime.date).
type SubclassTester interface {
	IsSubclassOf(base starlark.Value) bool
}

func callableBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("callable", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	_, ok := args[0].(starlark.Callable)
	return starlark.Bool(ok), nil
}

// lenBuiltin is len(x), with Python's error for a value without length.
// A str counts its characters (interp.Unicode's Len).
func lenBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("len", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	if n := starlark.Len(args[0]); n >= 0 {
		return starlark.MakeInt(n), nil
	}
	return nil, typeError("object of type '%s' has no len()", pyTypeName(args[0]))
}

// arity checks the count of positional arguments as CPython's builtins
// do, in their words; name is how CPython names the function there
// ("isinstance", "list.copy"). max < 0 means no maximum.
func arity(name string, args starlark.Tuple, kwargs []starlark.Tuple, min, max int) error {
	if len(kwargs) > 0 {
		return typeError("%s() takes no keyword arguments", name)
	}
	n := len(args)
	switch {
	case min == 0 && max == 0 && n > 0:
		return typeError("%s() takes no arguments (%d given)", name, n)
	case min == 1 && max == 1 && n != 1:
		return typeError("%s() takes exactly one argument (%d given)", name, n)
	case min == max && n != min:
		return typeError("%s expected %d arguments, got %d", name, min, n)
	case n < min:
		return typeError("%s expected at least %d %s, got %d", name, min, plural(min, "argument"), n)
	case max >= 0 && n > max:
		return typeError("%s expected at most %d %s, got %d", name, max, plural(max, "argument"), n)
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// unpackArgs reads the arguments of a builtin whose parameters may also
// be named, with CPython's errors: params are the names in order, the
// first required of them must be given; out receives each (nil when not
// given).
func unpackArgs(fn string, args starlark.Tuple, kwargs []starlark.Tuple, params []string, required int, out ...*starlark.Value) error {
	if len(args) > len(params) {
		return typeError("%s() takes at most %d %s (%d given)", fn, len(params), plural(len(params), "argument"), len(args))
	}
	for i, a := range args {
		*out[i] = a
	}
	for _, kv := range kwargs {
		name, _ := starlark.AsString(kv[0])
		i := slices.Index(params, name)
		switch {
		case i < 0:
			return typeError("'%s' is an invalid keyword argument for %s()", name, fn)
		case *out[i] != nil:
			return typeError("argument for %s() given by name ('%s') and position (%d)", fn, name, i+1)
		}
		*out[i] = kv[1]
	}
	for i := range required {
		if *out[i] == nil {
			return typeError("%s() missing required argument '%s' (pos %d)", fn, params[i], i+1)
		}
	}
	return nil
}

// asciiBuiltin is ascii(x): repr(x) with every character outside ASCII
// escaped as \xNN, \uNNNN or \UNNNNNNNN.
func asciiBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, typeError("ascii() takes no keyword arguments")
	}
	if len(args) != 1 {
		return nil, typeError("ascii() takes exactly one argument (%d given)", len(args))
	}
	s, err := interp.Repr(interp.BudgetOf(thread), args[0])
	if err != nil {
		return nil, err
	}
	return interp.MakeString(asciiEscape(s)), nil
}
