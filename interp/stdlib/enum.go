package stdlib

import (
	"fmt"
	"math/bits"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/objects"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// The enum module. Enum, IntEnum, StrEnum, Flag and IntFlag are Go base
// classes (enumBase): as objects.Meta they make the class statement's
// attributes members when the class is made (InitClass) and give the
// class its behaviour as a class (Color(1), Color["RED"], iteration,
// repr); as objects.ClassAttrs they give the members their name, value,
// repr, str, format and, for flags, their operators. Members are
// instances of the program's class (objects.Instance), so methods and
// properties of the class body bind to them; IntEnum and StrEnum
// members hold an int or a str (objects.GoBase puts int or str in the
// MRO), which arithmetic, comparison, hashing and dict keys use.

// Enum kinds.
const (
	kindEnum = iota
	kindIntEnum
	kindStrEnum
	kindFlag
	kindIntFlag
	kindReprEnum
)

// enumBase is one of the module's base classes.
type enumBase struct {
	name string
	kind int
}

var (
	enumEnum     = &enumBase{name: "Enum", kind: kindEnum}
	enumReprEnum = &enumBase{name: "ReprEnum", kind: kindReprEnum}
	enumIntEnum  = &enumBase{name: "IntEnum", kind: kindIntEnum}
	enumStrEnum  = &enumBase{name: "StrEnum", kind: kindStrEnum}
	enumFlag     = &enumBase{name: "Flag", kind: kindFlag}
	enumIntFlag  = &enumBase{name: "IntFlag", kind: kindIntFlag}
)

var (
	_ objects.Meta       = (*enumBase)(nil)
	_ objects.ClassAttrs = (*enumBase)(nil)
	_ objects.MetaAttrs  = (*enumBase)(nil)
	_ objects.GoBase     = (*enumBase)(nil)
	_ starlark.Callable  = (*enumBase)(nil)
)

// Enum is the enum module.
func Enum() *starlarkstruct.Module {
	m := &starlarkstruct.Module{Name: "enum", Members: starlark.StringDict{
		"Enum":     enumEnum,
		"ReprEnum": enumReprEnum,
		"IntEnum":  enumIntEnum,
		"StrEnum":  enumStrEnum,
		"Flag":     enumFlag,
		"IntFlag":  enumIntFlag,
		"auto": interp.NewBuiltin("auto", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) > 0 || len(kwargs) > 0 {
				return nil, pyrt.Errorf("TypeError", "auto() takes no arguments")
			}
			return &enumAuto{}, nil
		}),
		"unique":   interp.NewBuiltin("unique", enumUnique),
		"EnumMeta": enumEnum,
		"EnumType": enumEnum,
	}}
	m.Freeze()
	return m
}

func (e *enumBase) String() string        { return "<enum '" + e.name + "'>" }
func (e *enumBase) Type() string          { return "EnumType" }
func (e *enumBase) Freeze()               {}
func (e *enumBase) Truth() starlark.Bool  { return true }
func (e *enumBase) Hash() (uint32, error) { return starlark.String("enum." + e.name).Hash() }
func (e *enumBase) Name() string          { return e.name }

// BaseMRO: IntEnum derives from int and Enum, IntFlag from int and Flag.
func (e *enumBase) BaseMRO() []starlark.Value {
	b := Builtins()
	switch e.kind {
	case kindReprEnum:
		return []starlark.Value{enumEnum}
	case kindIntEnum:
		return []starlark.Value{b["int"], enumReprEnum, enumEnum}
	case kindStrEnum:
		return []starlark.Value{b["str"], enumReprEnum, enumEnum}
	case kindFlag:
		return []starlark.Value{enumEnum}
	case kindIntFlag:
		return []starlark.Value{b["int"], enumReprEnum, enumFlag, enumEnum}
	}
	return nil
}

// HasInstance: isinstance(Color.RED, Enum).
func (e *enumBase) HasInstance(v starlark.Value) bool {
	in := objects.AsInstance(v)
	return in != nil && in.Class().IsSubclassOf(e)
}

func (e *enumBase) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__name__", "__qualname__":
		return starlark.String(e.name), nil
	case "__module__":
		return starlark.String("enum"), nil
	case "__members__":
		return starlark.NewDict(0), nil
	}
	return nil, nil
}
func (e *enumBase) AttrNames() []string { return []string{"__members__", "__module__", "__name__"} }

// CallInternal is Enum("Color", "RED GREEN"): the functional form.
func (e *enumBase) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) < 2 && len(kwargs) == 0 {
		if len(args) == 1 {
			r, _ := interp.Repr(interp.BudgetOf(thread), args[0])
			return nil, pyrt.Errorf("ValueError", "%s is not a valid %s", r, e.name)
		}
		return nil, pyrt.Errorf("TypeError", "%s() missing 1 required positional argument: 'value'", e.name)
	}
	return enumFunctional(thread, e, args, kwargs)
}

// ---- auto ----

// enumAuto is auto(): a value the class fills with _generate_next_value_.
type enumAuto struct{ _ byte } // not zero-size: each auto() is its own pointer

func (a *enumAuto) String() string        { return "<enum.auto object>" }
func (a *enumAuto) Type() string          { return "auto" }
func (a *enumAuto) Freeze()               {}
func (a *enumAuto) Truth() starlark.Bool  { return true }
func (a *enumAuto) Hash() (uint32, error) { return 0x61757430, nil }

// Binary is READ | WRITE in a class body where both are auto(): the
// values are known only when the class is made, so the expression waits
// (enumAutoExpr) and InitClass works it out.
func (a *enumAuto) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	return autoBinary(a, op, y, side)
}

func autoBinary(x starlark.Value, op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	switch op {
	case syntax.PIPE, syntax.AMP, syntax.CIRCUMFLEX, syntax.PLUS, syntax.MINUS, syntax.STAR:
	default:
		return nil, nil
	}
	if side == starlark.Right {
		return &enumAutoExpr{op: op, x: y, y: x}, nil
	}
	return &enumAutoExpr{op: op, x: x, y: y}, nil
}

// enumAutoExpr is an expression of auto() values in a class body.
type enumAutoExpr struct {
	op   syntax.Token
	x, y starlark.Value
}

func (e *enumAutoExpr) String() string        { return "<enum.auto expression>" }
func (e *enumAutoExpr) Type() string          { return "auto" }
func (e *enumAutoExpr) Freeze()               {}
func (e *enumAutoExpr) Truth() starlark.Bool  { return true }
func (e *enumAutoExpr) Hash() (uint32, error) { return 0x61757431, nil }
func (e *enumAutoExpr) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	return autoBinary(e, op, y, side)
}

// resolveAuto works out an auto() expression from the values the autos
// were given.
func resolveAuto(thread *starlark.Thread, v starlark.Value, given map[*enumAuto]starlark.Value, depth int) (starlark.Value, error) {
	if depth > interp.MaxDepth {
		return nil, interp.ErrTooDeep
	}
	switch x := v.(type) {
	case *enumAuto:
		if r, ok := given[x]; ok {
			return r, nil
		}
		return nil, pyrt.Errorf("TypeError", "auto() used before it has a value")
	case *enumAutoExpr:
		a, err := resolveAuto(thread, x.x, given, depth+1)
		if err != nil {
			return nil, err
		}
		b, err := resolveAuto(thread, x.y, given, depth+1)
		if err != nil {
			return nil, err
		}
		return starlark.Binary(x.op, a, b)
	}
	return v, nil
}

// ---- the class ----

// enumData is what an enum class keeps: its members.
type enumData struct {
	names   []string // the canonical members, in definition order (iteration)
	all     []string // every member name, aliases too (__members__)
	members map[string]*objects.Instance
	byValue *starlark.Dict // value → member (pseudo flag members too)
	odd     []*objects.Instance
	flag    bool
	mask    int64
}

func enumDataOf(c *objects.Class) *enumData {
	d, _ := c.MetaData().(*enumData)
	return d
}

// enumClassKind is the class's kind: the first of the module's bases in
// its MRO.
func enumClassKind(c *objects.Class) (flag, repr bool, mixin starlark.Value) {
	for _, m := range c.MRO() {
		switch x := m.(type) {
		case *enumBase:
			switch x.kind {
			case kindFlag, kindIntFlag:
				flag = true
			case kindReprEnum, kindIntEnum, kindStrEnum:
				repr = true
			}
		case *pyrt.TypeObj:
			if mixin == nil && x.Name() != "object" {
				mixin = x
			}
		}
	}
	return flag, repr, mixin
}

func enumClassRepr(c *objects.Class) string {
	if flag, _, _ := enumClassKind(c); flag {
		return "<flag '" + c.Name() + "'>"
	}
	return "<enum '" + c.Name() + "'>"
}

func (e *enumBase) ClassRepr(c *objects.Class) string { return enumClassRepr(c) }

// isEnumDescriptor reports whether a class attribute is no member: a
// function, a property, a static or class method, a nested class.
func isEnumDescriptor(v starlark.Value) bool {
	switch v.(type) {
	case *starlark.Function, *starlark.Builtin, *objects.Method, *objects.Property, *objects.Class:
		return true
	}
	switch v.Type() {
	case "function", "staticmethod", "classmethod", "property", "builtin_function_or_method", "cached_property", "type":
		return true
	}
	if _, ok := v.(interface {
		DescriptorGet(*starlark.Thread, starlark.Value, starlark.Value) (starlark.Value, error)
	}); ok {
		return true
	}
	return false
}

// InitClass makes the class body's attributes members.
func (e *enumBase) InitClass(thread *starlark.Thread, c *objects.Class) error {
	for _, b := range c.MRO()[1:] {
		if bc, ok := b.(*objects.Class); ok {
			if d := enumDataOf(bc); d != nil && len(d.all) > 0 {
				return pyrt.Errorf("TypeError", "%s cannot extend %s", enumClassRepr(c), enumClassRepr(bc))
			}
		}
	}
	flag, _, mixin := enumClassKind(c)
	d := &enumData{members: map[string]*objects.Instance{}, byValue: starlark.NewDict(4), flag: flag}
	c.SetMetaData(d)
	budget := interp.BudgetOf(thread)
	ignore := map[string]bool{}
	if v, ok := c.Own("_ignore_"); ok {
		if s, ok := interp.AsText(v); ok {
			for _, n := range strings.Fields(strings.ReplaceAll(s, ",", " ")) {
				ignore[n] = true
			}
		} else if items, err := pyrt.Collect(thread, v); err == nil {
			for _, it := range items {
				if s, ok := interp.AsText(it); ok {
					ignore[s] = true
				}
			}
		}
		c.Delete("_ignore_")
	}
	_, userInit := ownedByProgram(c, "__init__")
	gnv, userGnv := ownedByProgram(c, "_generate_next_value_")
	var lastValues []starlark.Value
	autos := map[*enumAuto]starlark.Value{}
	for _, name := range c.Names() {
		if err := budget.Charge(1); err != nil {
			return err
		}
		if ignore[name] {
			c.Delete(name)
			continue
		}
		if strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") ||
			len(name) > 2 && name[0] == '_' && name[len(name)-1] == '_' ||
			strings.HasPrefix(name, "_"+strings.TrimLeft(c.Name(), "_")+"__") {
			continue
		}
		v, _ := c.Own(name)
		if isEnumDescriptor(v) {
			continue
		}
		if a, ok := v.(*enumAuto); ok {
			var err error
			if v, err = enumNextValue(thread, c, gnv, userGnv, name, len(d.all), lastValues); err != nil {
				return err
			}
			autos[a] = v
		} else if _, ok := v.(*enumAutoExpr); ok {
			var err error
			if v, err = resolveAuto(thread, v, autos, 0); err != nil {
				return err
			}
		}
		lastValues = append(lastValues, v)
		args, isTuple := v.(starlark.Tuple)
		if !isTuple {
			args = starlark.Tuple{v}
		}
		value := v
		var base starlark.Value
		if mixin != nil {
			var err error
			if base, err = starlark.Call(thread, mixin, args, nil); err != nil {
				return err
			}
			value = base
		}
		if m := d.lookup(thread, value); m != nil {
			// An alias: the name stands for the member first given value.
			d.members[name] = m
			d.all = append(d.all, name)
			c.Set(name, m)
			continue
		}
		m, err := c.NewInstance(thread)
		if err != nil {
			return err
		}
		if base != nil {
			m.SetBuiltin(base)
		}
		if err := m.SetAttr(thread, "_value_", value); err != nil {
			return err
		}
		if err := m.SetAttr(thread, "_name_", starlark.String(name)); err != nil {
			return err
		}
		if userInit {
			init, err := pyrt.GetAttr(thread, m, "__init__")
			if err != nil {
				return err
			}
			if _, err := starlark.Call(thread, init, args, nil); err != nil {
				return err
			}
		}
		d.members[name] = m
		d.all = append(d.all, name)
		c.Set(name, m)
		if flag {
			iv, ok := enumInt(value)
			if ok {
				d.mask |= iv
			}
			if ok && iv != 0 && iv&(iv-1) != 0 {
				// A combination of bits: a member, not iterated (3.11).
				_ = d.byValue.SetKey(value, m)
				continue
			}
		}
		d.names = append(d.names, name)
		if err := d.byValue.SetKey(value, m); err != nil {
			d.odd = append(d.odd, m)
		}
	}
	return nil
}

// ownedByProgram finds name in the program's classes along c's MRO.
func ownedByProgram(c *objects.Class, name string) (starlark.Value, bool) {
	for _, m := range c.MRO() {
		if k, ok := m.(*objects.Class); ok {
			if v, ok := k.Own(name); ok {
				return v, true
			}
		}
	}
	return nil, false
}

// enumNextValue is the value of an auto(): the class's
// _generate_next_value_(name, start, count, last_values), or the
// default for its kind.
func enumNextValue(thread *starlark.Thread, c *objects.Class, gnv starlark.Value, user bool, name string, count int, last []starlark.Value) (starlark.Value, error) {
	if user {
		if f, ok := gnv.(starlark.HasAttrs); ok && gnv.Type() == "staticmethod" {
			if fn, err := f.Attr("__func__"); err == nil && fn != nil {
				gnv = fn
			}
		}
		return starlark.Call(thread, gnv, starlark.Tuple{starlark.String(name), starlark.MakeInt(1), starlark.MakeInt(count), starlark.NewList(append([]starlark.Value(nil), last...))}, nil)
	}
	flag, _, mixin := enumClassKind(c)
	if t, ok := mixin.(*pyrt.TypeObj); ok && t.Name() == "str" {
		return starlark.String(strings.ToLower(name)), nil
	}
	if flag {
		high := int64(0)
		for _, v := range last {
			if i, ok := enumInt(v); ok && i > high {
				high = i
			}
		}
		if high == 0 {
			return starlark.MakeInt(1), nil
		}
		return starlark.MakeInt64(int64(1) << bits.Len64(uint64(high))), nil
	}
	for i := len(last) - 1; i >= 0; i-- {
		if n, ok := last[i].(starlark.Int); ok {
			return starlark.Binary(syntax.PLUS, n, starlark.MakeInt(1))
		}
	}
	return starlark.MakeInt(1), nil
}

// enumInt is an int value as int64.
func enumInt(v starlark.Value) (int64, bool) {
	if in := objects.AsInstance(v); in != nil && in.Builtin() != nil {
		v = in.Builtin()
	}
	switch x := v.(type) {
	case starlark.Int:
		return x.Int64()
	case starlark.Bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// lookup is the member of value v; nil when none has it.
func (d *enumData) lookup(thread *starlark.Thread, v starlark.Value) *objects.Instance {
	if x, found, err := d.byValue.Get(v); err == nil && found {
		return objects.AsInstance(x)
	}
	for _, m := range d.odd {
		mv, _ := m.Own("_value_")
		if eq, err := pyrt.Equal(thread, mv, v); err == nil && eq {
			return m
		}
	}
	return nil
}

// CallClass is Color(value): the member of that value.
func (e *enumBase) CallClass(thread *starlark.Thread, c *objects.Class, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, bool, error) {
	if len(args) != 1 || len(kwargs) > 0 {
		if len(args) >= 2 || len(kwargs) > 0 {
			v, err := enumFunctional(thread, c, args, kwargs)
			return v, true, err
		}
		return nil, true, pyrt.Errorf("TypeError", "%s() missing 1 required positional argument: 'value'", c.Name())
	}
	v, err := enumByValue(thread, c, args[0])
	return v, true, err
}

func enumByValue(thread *starlark.Thread, c *objects.Class, v starlark.Value) (starlark.Value, error) {
	d := enumDataOf(c)
	if in := objects.AsInstance(v); in != nil && in.Class().IsSubclass(c) {
		return in, nil
	}
	if d != nil {
		if m := d.lookup(thread, v); m != nil {
			return m, nil
		}
		if d.flag {
			if iv, ok := enumInt(v); ok {
				m, err := enumPseudo(thread, c, d, iv)
				if err != nil || m != nil {
					return m, err
				}
			}
		}
	}
	if f, ok := ownedByProgram(c, "_missing_"); ok && f != nil {
		fn, err := pyrt.GetAttr(thread, c, "_missing_")
		if err != nil {
			return nil, err
		}
		r, err := starlark.Call(thread, fn, starlark.Tuple{v}, nil)
		if err != nil {
			return nil, err
		}
		if in := objects.AsInstance(r); in != nil && in.Class().IsSubclass(c) {
			return in, nil
		}
		if r != starlark.None {
			rr, _ := interp.Repr(interp.BudgetOf(thread), r)
			return nil, pyrt.Errorf("TypeError", "error in %s._missing_: returned %s instead of None or a valid member", c.Name(), rr)
		}
	}
	r, err := interp.Repr(interp.BudgetOf(thread), v)
	if err != nil {
		return nil, err
	}
	return nil, pyrt.Errorf("ValueError", "%s is not a valid %s", r, c.QualName())
}

// enumPseudo is the member of a combination of flags, made once.
func enumPseudo(thread *starlark.Thread, c *objects.Class, d *enumData, v int64) (*objects.Instance, error) {
	_, _, mixin := enumClassKind(c)
	if mixin == nil && (v < 0 || v&^d.mask != 0) {
		maxBits := bits.Len64(uint64(v))
		if n := bits.Len64(uint64(d.mask)); n > maxBits {
			maxBits = n
		}
		return nil, pyrt.Errorf("ValueError", "%s invalid value %d\n    given %s\n  allowed %s", enumClassRepr(c), v, enumBin(v, maxBits), enumBin(d.mask, maxBits))
	}
	if v < 0 {
		v &= d.mask
	}
	var names []string
	for _, n := range d.names {
		mv, _ := d.members[n].Own("_value_")
		if b, ok := enumInt(mv); ok && b != 0 && v&b == b {
			names = append(names, n)
		}
	}
	m, err := c.NewInstance(thread)
	if err != nil {
		return nil, err
	}
	value := starlark.Value(starlark.MakeInt64(v))
	if mixin != nil {
		m.SetBuiltin(value)
	}
	var name starlark.Value = starlark.None
	if len(names) > 0 {
		name = starlark.String(strings.Join(names, "|"))
	}
	if err := m.SetAttr(thread, "_value_", value); err != nil {
		return nil, err
	}
	if err := m.SetAttr(thread, "_name_", name); err != nil {
		return nil, err
	}
	_ = d.byValue.SetKey(value, m)
	return m, nil
}

// enumBin is enum's bin(): "0b0 1000", padded to maxBits.
func enumBin(v int64, maxBits int) string {
	digits := fmt.Sprintf("%b", v)
	if len(digits) < maxBits {
		digits = strings.Repeat("0", maxBits-len(digits)) + digits
	}
	return "0b0 " + digits
}

// ClassIterable is iter(Color): the canonical members, in order.
func (e *enumBase) ClassIterable(c *objects.Class) starlark.Iterable {
	d := enumDataOf(c)
	if d == nil {
		return starlark.Tuple{}
	}
	out := make(starlark.Tuple, len(d.names))
	for i, n := range d.names {
		out[i] = d.members[n]
	}
	return out
}

// ClassItem is Color["RED"].
func (e *enumBase) ClassItem(thread *starlark.Thread, c *objects.Class, k starlark.Value) (starlark.Value, bool, error) {
	if d := enumDataOf(c); d != nil {
		if s, ok := interp.AsText(k); ok {
			if m, ok := d.members[s]; ok {
				return m, true, nil
			}
		}
	}
	r, _ := interp.Repr(interp.BudgetOf(thread), k)
	return nil, true, pyrt.Errorf("KeyError", "%s", r)
}

// SetClassAttr: members cannot be reassigned.
func (e *enumBase) SetClassAttr(c *objects.Class, name string, _ starlark.Value) error {
	if d := enumDataOf(c); d != nil {
		if _, ok := d.members[name]; ok {
			return pyrt.Errorf("AttributeError", "cannot reassign member '%s'", name)
		}
	}
	return nil
}

// DelClassAttr: members cannot be deleted.
func (e *enumBase) DelClassAttr(c *objects.Class, name string) error {
	if d := enumDataOf(c); d != nil {
		if _, ok := d.members[name]; ok {
			return pyrt.Errorf("AttributeError", "'%s' cannot delete member '%s'.", c.Name(), name)
		}
	}
	return nil
}

// ---- the members ----

// enumDescr is a class attribute of the enum classes computed from the
// instance (name, value) or the class (__members__).
type enumDescr struct {
	name string
	get  func(thread *starlark.Thread, obj starlark.Value, owner *objects.Class) (starlark.Value, error)
}

func (d *enumDescr) String() string        { return "<enum property '" + d.name + "'>" }
func (d *enumDescr) Type() string          { return "property" }
func (d *enumDescr) Freeze()               {}
func (d *enumDescr) Truth() starlark.Bool  { return true }
func (d *enumDescr) Hash() (uint32, error) { return starlark.String(d.name).Hash() }
func (d *enumDescr) DescriptorGet(thread *starlark.Thread, obj, owner starlark.Value) (starlark.Value, error) {
	c, _ := owner.(*objects.Class)
	return d.get(thread, obj, c)
}

// memberField is name or value: the member's _name_ or _value_.
func memberField(name, own string) *enumDescr {
	return &enumDescr{name: name, get: func(_ *starlark.Thread, obj starlark.Value, _ *objects.Class) (starlark.Value, error) {
		in := objects.AsInstance(obj)
		if in == nil {
			return nil, pyrt.Errorf("AttributeError", "type object has no attribute '%s'", name)
		}
		if v, ok := in.Own(own); ok {
			return v, nil
		}
		return starlark.None, nil
	}}
}

func classField(name string, fn func(thread *starlark.Thread, c *objects.Class, d *enumData) starlark.Value) *enumDescr {
	return &enumDescr{name: name, get: func(thread *starlark.Thread, obj starlark.Value, c *objects.Class) (starlark.Value, error) {
		if in := objects.AsInstance(obj); in != nil {
			c = in.Class()
		}
		if c == nil {
			return starlark.None, nil
		}
		d := enumDataOf(c)
		if d == nil {
			d = &enumData{members: map[string]*objects.Instance{}, byValue: starlark.NewDict(0)}
		}
		return fn(thread, c, d), nil
	}}
}

func memberOf(self starlark.Value) (*objects.Instance, starlark.Value, starlark.Value) {
	in := objects.AsInstance(self)
	if in == nil {
		return nil, starlark.None, starlark.None
	}
	name, ok := in.Own("_name_")
	if !ok {
		name = starlark.None
	}
	value, ok := in.Own("_value_")
	if !ok {
		value = starlark.None
	}
	return in, name, value
}

var enumAttrs = map[string]starlark.Value{
	"name":  memberField("name", "_name_"),
	"value": memberField("value", "_value_"),
	"__members__": classField("__members__", func(_ *starlark.Thread, _ *objects.Class, d *enumData) starlark.Value {
		out := starlark.NewDict(len(d.all))
		for _, n := range d.all {
			_ = out.SetKey(starlark.String(n), d.members[n])
		}
		return out
	}),
	"_member_names_": classField("_member_names_", func(_ *starlark.Thread, _ *objects.Class, d *enumData) starlark.Value {
		out := make([]starlark.Value, len(d.names))
		for i, n := range d.names {
			out[i] = starlark.String(n)
		}
		return starlark.NewList(out)
	}),
	"_member_map_": classField("_member_map_", func(_ *starlark.Thread, _ *objects.Class, d *enumData) starlark.Value {
		out := starlark.NewDict(len(d.all))
		for _, n := range d.all {
			_ = out.SetKey(starlark.String(n), d.members[n])
		}
		return out
	}),
	"_value2member_map_": classField("_value2member_map_", func(_ *starlark.Thread, _ *objects.Class, d *enumData) starlark.Value {
		out := starlark.NewDict(d.byValue.Len())
		for _, kv := range d.byValue.Items() {
			_ = out.SetKey(kv[0], kv[1])
		}
		return out
	}),
	"__repr__": objects.NewMethod("__repr__", func(thread *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		in, name, value := memberOf(self)
		if in == nil {
			return nil, pyrt.Errorf("TypeError", "__repr__ needs an enum member")
		}
		r, err := interp.Repr(interp.BudgetOf(thread), value)
		if err != nil {
			return nil, err
		}
		if name == starlark.None {
			return interp.MakeString("<" + in.Class().Name() + ": " + r + ">"), nil
		}
		n, _ := interp.AsText(name)
		return interp.MakeString("<" + in.Class().Name() + "." + n + ": " + r + ">"), nil
	}),
	"__str__": objects.NewMethod("__str__", func(thread *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return enumStr(thread, self, false)
	}),
	"__format__": objects.NewMethod("__format__", func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return enumFormat(thread, self, args, false)
	}),
	"__dir__": objects.NewMethod("__dir__", func(thread *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return starlark.NewList([]starlark.Value{starlark.String("__class__"), starlark.String("__doc__"), starlark.String("__module__"), starlark.String("name"), starlark.String("value")}), nil
	}),
	"__reduce_ex__": objects.NewMethod("__reduce_ex__", func(thread *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		in, _, value := memberOf(self)
		return starlark.Tuple{in.Class(), starlark.Tuple{value}}, nil
	}),
}

// reprEnumAttrs: str() and format() of IntEnum, StrEnum and IntFlag
// members are their int's or str's.
var reprEnumAttrs = map[string]starlark.Value{
	"__str__": objects.NewMethod("__str__", func(thread *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return enumStr(thread, self, true)
	}),
	"__format__": objects.NewMethod("__format__", func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return enumFormat(thread, self, args, true)
	}),
}

// enumStr is str(member): Color.RED, or for IntEnum, StrEnum and
// IntFlag the value's str; a flag without a name is P(0).
func enumStr(thread *starlark.Thread, self starlark.Value, mixed bool) (starlark.Value, error) {
	in, name, value := memberOf(self)
	if in == nil {
		return nil, pyrt.Errorf("TypeError", "__str__ needs an enum member")
	}
	b := interp.BudgetOf(thread)
	if mixed {
		v := value
		if in.Builtin() != nil {
			v = in.Builtin()
		}
		s, err := interp.Str(b, v)
		return interp.MakeString(s), err
	}
	if name == starlark.None {
		r, err := interp.Repr(b, value)
		return interp.MakeString(in.Class().Name() + "(" + r + ")"), err
	}
	n, _ := interp.AsText(name)
	return interp.MakeString(in.Class().Name() + "." + n), nil
}

// enumFormat is format(member, spec): str(member)'s, or the value's for
// IntEnum, StrEnum and IntFlag.
func enumFormat(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, mixed bool) (starlark.Value, error) {
	spec := starlark.Value(starlark.String(""))
	if len(args) > 0 {
		spec = args[0]
	}
	in := objects.AsInstance(self)
	var v starlark.Value
	if mixed && in != nil && in.Builtin() != nil {
		v = in.Builtin()
	} else {
		s, err := enumStr(thread, self, mixed)
		if err != nil {
			return nil, err
		}
		v = s
	}
	return starlark.Call(thread, Builtins()["format"], starlark.Tuple{v, spec}, nil)
}

// flagAttrs are the operators of Flag members.
var flagAttrs = map[string]starlark.Value{
	"__or__":   flagOp("__or__", func(a, b int64) int64 { return a | b }),
	"__ror__":  flagOp("__ror__", func(a, b int64) int64 { return a | b }),
	"__and__":  flagOp("__and__", func(a, b int64) int64 { return a & b }),
	"__rand__": flagOp("__rand__", func(a, b int64) int64 { return a & b }),
	"__xor__":  flagOp("__xor__", func(a, b int64) int64 { return a ^ b }),
	"__rxor__": flagOp("__rxor__", func(a, b int64) int64 { return a ^ b }),
	"__invert__": objects.NewMethod("__invert__", func(thread *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		in, _, value := memberOf(self)
		v, _ := enumInt(value)
		d := enumDataOf(in.Class())
		return enumByValue(thread, in.Class(), starlark.MakeInt64(d.mask&^v))
	}),
	"__contains__": objects.NewMethod("__contains__", func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		in, _, value := memberOf(self)
		other := objects.AsInstance(args[0])
		if other == nil || !other.Class().IsSubclass(in.Class()) {
			return nil, pyrt.Errorf("TypeError", "unsupported operand type(s) for 'in': '%s' and '%s'", pyrt.TypeName(args[0]), in.Class().Name())
		}
		_, _, ov := memberOf(other)
		a, _ := enumInt(value)
		b, _ := enumInt(ov)
		return starlark.Bool(a&b == b), nil
	}),
	"__iter__": objects.NewMethod("__iter__", func(thread *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return flagMembers(self), nil
	}),
	"__len__": objects.NewMethod("__len__", func(thread *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return starlark.MakeInt(len(flagMembers(self))), nil
	}),
	"__bool__": objects.NewMethod("__bool__", func(thread *starlark.Thread, self starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		_, _, value := memberOf(self)
		v, _ := enumInt(value)
		return starlark.Bool(v != 0), nil
	}),
}

// flagMembers are the canonical members a flag value holds.
func flagMembers(self starlark.Value) starlark.Tuple {
	in, _, value := memberOf(self)
	v, _ := enumInt(value)
	d := enumDataOf(in.Class())
	var out starlark.Tuple
	if d == nil {
		return out
	}
	for _, n := range d.names {
		mv, _ := d.members[n].Own("_value_")
		if b, ok := enumInt(mv); ok && b != 0 && v&b == b {
			out = append(out, d.members[n])
		}
	}
	return out
}

func flagOp(name string, op func(a, b int64) int64) *objects.Method {
	return objects.NewMethod(name, func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		in, _, value := memberOf(self)
		if in == nil || len(args) != 1 {
			return pyrt.NotImplemented, nil
		}
		_, _, mixin := enumClassKind(in.Class())
		var b int64
		if other := objects.AsInstance(args[0]); other != nil && other.Class().IsSubclass(in.Class()) {
			_, _, ov := memberOf(other)
			b, _ = enumInt(ov)
		} else if n, ok := args[0].(starlark.Int); ok && mixin != nil {
			var fits bool
			if b, fits = n.Int64(); !fits {
				return pyrt.NotImplemented, nil
			}
		} else {
			return pyrt.NotImplemented, nil
		}
		a, _ := enumInt(value)
		return enumByValue(thread, in.Class(), starlark.MakeInt64(op(a, b)))
	})
}

// ClassAttr gives members their attributes: after the program's classes
// in the MRO, IntEnum's before Enum's.
func (e *enumBase) ClassAttr(name string) (starlark.Value, bool) {
	switch e.kind {
	case kindEnum:
		v, ok := enumAttrs[name]
		return v, ok
	case kindReprEnum, kindIntEnum, kindStrEnum, kindIntFlag:
		v, ok := reprEnumAttrs[name]
		return v, ok
	case kindFlag:
		v, ok := flagAttrs[name]
		return v, ok
	}
	return nil, false
}

// enumUnique is @unique: no aliases allowed.
func enumUnique(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "unique() takes exactly one argument")
	}
	c, ok := args[0].(*objects.Class)
	d := (*enumData)(nil)
	if ok {
		d = enumDataOf(c)
	}
	if d == nil {
		return args[0], nil
	}
	var dups []string
	for _, n := range d.all {
		_, name, _ := memberOf(d.members[n])
		if s, _ := interp.AsText(name); s != n {
			dups = append(dups, n+" -> "+s)
		}
	}
	if len(dups) > 0 {
		return nil, pyrt.Errorf("ValueError", "duplicate values found in %s: %s", enumClassRepr(c), strings.Join(dups, ", "))
	}
	return c, nil
}

// enumFunctional is Enum("Color", "RED GREEN") (names as a str, a list
// of names or of (name, value) pairs, or a mapping).
func enumFunctional(thread *starlark.Thread, base starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var value, names, module, qualname, typ, start, boundary starlark.Value
	start = starlark.MakeInt(1)
	if err := unpack("Enum", args, kwargs, "value", &value, "names?", &names, "module?", &module, "qualname?", &qualname, "type?", &typ, "start?", &start, "boundary?", &boundary); err != nil {
		return nil, err
	}
	cname, ok := interp.AsText(value)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "Enum() class name must be a str")
	}
	var keys []string
	var vals []starlark.Value
	flag := false
	if b, ok := base.(*enumBase); ok {
		flag = b.kind == kindFlag || b.kind == kindIntFlag
	} else if c, ok := base.(*objects.Class); ok {
		flag, _, _ = enumClassKind(c)
	}
	next := func(i int) starlark.Value {
		s, _ := start.(starlark.Int)
		n, _ := s.Int64()
		if flag {
			return starlark.MakeInt64(int64(1) << i)
		}
		return starlark.MakeInt64(n + int64(i))
	}
	if s, ok := interp.AsText(names); ok {
		for i, n := range strings.Fields(strings.ReplaceAll(s, ",", " ")) {
			keys = append(keys, n)
			vals = append(vals, next(i))
		}
	} else if d, ok := names.(*starlark.Dict); ok {
		for _, kv := range d.Items() {
			k, _ := interp.AsText(kv[0])
			keys = append(keys, k)
			vals = append(vals, kv[1])
		}
	} else if names != nil && names != starlark.None {
		items, err := pyrt.Collect(thread, names)
		if err != nil {
			return nil, err
		}
		for i, it := range items {
			if s, ok := interp.AsText(it); ok {
				keys = append(keys, s)
				vals = append(vals, next(i))
			} else if t, ok := it.(starlark.Tuple); ok && len(t) == 2 {
				k, _ := interp.AsText(t[0])
				keys = append(keys, k)
				vals = append(vals, t[1])
			} else {
				return nil, pyrt.Errorf("TypeError", "Enum() names must be strings or (name, value) pairs")
			}
		}
	}
	bases := starlark.Tuple{base}
	if typ != nil && typ != starlark.None {
		bases = starlark.Tuple{typ, base}
	}
	c, err := objects.MakeClass(thread, cname, bases, keys, vals)
	if err != nil {
		return nil, err
	}
	if q, ok := interp.AsText(qualname); ok {
		_ = q
	}
	return c, nil
}
