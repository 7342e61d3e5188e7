package stdlib

import (
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// isExc reports whether err is an exception of class c or a subclass.
func isExc(err error, c *pyrt.ExcClass) bool {
	var ex *pyrt.Exception
	return errors.As(err, &ex) && ex.Value != nil && ex.Value.Class().IsSubclass(c)
}

// ---- interpolation ----

// interpolationValue is an instance of Interpolation, BasicInterpolation
// or ExtendedInterpolation, for interpolation=.
type interpolationValue struct{ kind int }

var interpolationNames = [...]string{interpNone: "Interpolation", interpBasic: "BasicInterpolation", interpExtended: "ExtendedInterpolation"}

var interpolationClasses = func() [3]*pyClass {
	var out [3]*pyClass
	for k := range out {
		out[k] = &pyClass{module: "configparser", name: interpolationNames[k],
			is: func(v starlark.Value) bool {
				x, ok := v.(*interpolationValue)
				return ok && (k == interpNone || x.kind == k)
			},
			ctor: func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				if len(args)+len(kwargs) > 0 {
					return nil, pyrt.Errorf("TypeError", "%s() takes no arguments", interpolationNames[k])
				}
				return &interpolationValue{kind: k}, nil
			}}
	}
	return out
}()

func (v *interpolationValue) PyClass() starlark.Value { return interpolationClasses[v.kind] }
func (v *interpolationValue) String() string {
	return fmt.Sprintf("<configparser.%s object at %p>", interpolationNames[v.kind], v)
}
func (v *interpolationValue) Type() string          { return interpolationNames[v.kind] }
func (v *interpolationValue) Freeze()               {}
func (v *interpolationValue) Truth() starlark.Bool  { return true }
func (v *interpolationValue) Hash() (uint32, error) { return uint32(v.kind) + 0x1f2e, nil }

// beforeSet is the interpolation's before_set: a value whose % (or $)
// syntax is wrong is refused.
func (p *configParser) beforeSet(value string) error {
	var esc, sign, open, close string
	switch p.interp {
	case interpBasic:
		esc, sign, open, close = "%%", "%", "%(", ")s"
	case interpExtended:
		esc, sign, open, close = "$$", "$", "${", "}"
	default:
		return nil
	}
	tmp := strings.ReplaceAll(value, esc, "")
	// Remove every well-formed reference (the _KEYCRE.sub('', …)).
	var sb strings.Builder
	for {
		i := strings.Index(tmp, open)
		if i < 0 {
			sb.WriteString(tmp)
			break
		}
		j := strings.Index(tmp[i+len(open):], close[:1])
		if j <= 0 || !strings.HasPrefix(tmp[i+len(open)+j:], close) {
			sb.WriteString(tmp[:i+1])
			tmp = tmp[i+1:]
			continue
		}
		sb.WriteString(tmp[:i])
		tmp = tmp[i+len(open)+j+len(close):]
	}
	tmp = sb.String()
	if i := strings.Index(tmp, sign); i >= 0 {
		return pyrt.Errorf("ValueError", "invalid interpolation syntax in %s at position %d", cpRepr(value), runeIndex(tmp, i))
	}
	return nil
}

func runeIndex(s string, byteIdx int) int { return len([]rune(s[:byteIdx])) }

// lookupFn finds an option's value in the map an interpolation uses.
type lookupFn func(k string) (starlark.Value, bool)

// beforeGet is the interpolation's before_get of value.
func (p *configParser) beforeGet(thread *starlark.Thread, section, option string, value starlark.Value, m lookupFn) (starlark.Value, error) {
	if p.interp == interpNone {
		return value, nil
	}
	s, ok := interp.AsText(value)
	if !ok {
		if value == starlark.None {
			return cpStr(""), nil
		}
		return value, nil
	}
	x := &interpolator{p: p, thread: thread, b: interp.BudgetOf(thread)}
	var err error
	if p.interp == interpBasic {
		err = x.basic(option, section, s, m, 1)
	} else {
		err = x.extended(option, section, s, m, 1)
	}
	if err != nil {
		return nil, err
	}
	return cpStr(x.out.String()), nil
}

// interpolator builds one interpolated value, charging what it builds:
// ten levels of references that each name another twice build 2**10
// copies, which the budget ends before they are made.
type interpolator struct {
	p      *configParser
	thread *starlark.Thread
	b      *interp.Budget
	out    strings.Builder
}

func (x *interpolator) emit(s string) error {
	n := int64(x.out.Len() + len(s))
	if err := x.b.Fits(n); err != nil {
		return err
	}
	if len(s) > 4096 {
		if err := x.b.Room(int64(len(s))); err != nil {
			return err
		}
	}
	if err := x.b.Charge(uint64(len(s))/64 + 1); err != nil {
		return err
	}
	x.out.WriteString(s)
	return nil
}

// basic is BasicInterpolation._interpolate_some.
func (x *interpolator) basic(option, section, rest string, m lookupFn, depth int) error {
	orig := rest
	if depth > maxInterpolationDepth {
		return errInterpolationDepth(option, section, x.p.rawGet(x.thread, section, option, orig))
	}
	for rest != "" {
		p := strings.IndexByte(rest, '%')
		if p < 0 {
			return x.emit(rest)
		}
		if p > 0 {
			if err := x.emit(rest[:p]); err != nil {
				return err
			}
			rest = rest[p:]
		}
		switch {
		case strings.HasPrefix(rest, "%%"):
			if err := x.emit("%"); err != nil {
				return err
			}
			rest = rest[2:]
		case strings.HasPrefix(rest, "%("):
			j := strings.IndexByte(rest[2:], ')')
			if j <= 0 || !strings.HasPrefix(rest[2+j:], ")s") {
				return errInterpolationSyntax(option, section, "bad interpolation variable reference "+cpRepr(rest))
			}
			name := rest[2 : 2+j]
			rest = rest[2+j+2:]
			v, err := x.p.xform(x.thread, name)
			if err != nil {
				return err
			}
			val, ok := m(v)
			if !ok {
				return errInterpolationMissing(option, section, x.p.rawGet(x.thread, section, option, orig), v)
			}
			s, isText := interp.AsText(val)
			if !isText {
				return pyrt.Errorf("TypeError", "argument of type '%s' is not iterable", pyrt.TypeName(val))
			}
			if strings.Contains(s, "%") {
				if err := x.basic(option, section, s, m, depth+1); err != nil {
					return err
				}
			} else if err := x.emit(s); err != nil {
				return err
			}
		default:
			return errInterpolationSyntax(option, section, "'%' must be followed by '%' or '(', found: "+cpRepr(rest))
		}
	}
	return nil
}

// extended is ExtendedInterpolation._interpolate_some.
func (x *interpolator) extended(option, section, rest string, m lookupFn, depth int) error {
	rawval := func() string { return x.p.rawGet(x.thread, section, option, rest) }
	if depth > maxInterpolationDepth {
		return errInterpolationDepth(option, section, rawval())
	}
	raw := rawval()
	for rest != "" {
		p := strings.IndexByte(rest, '$')
		if p < 0 {
			return x.emit(rest)
		}
		if p > 0 {
			if err := x.emit(rest[:p]); err != nil {
				return err
			}
			rest = rest[p:]
		}
		switch {
		case strings.HasPrefix(rest, "$$"):
			if err := x.emit("$"); err != nil {
				return err
			}
			rest = rest[2:]
		case strings.HasPrefix(rest, "${"):
			j := strings.IndexByte(rest[2:], '}')
			if j <= 0 {
				return errInterpolationSyntax(option, section, "bad interpolation variable reference "+cpRepr(rest))
			}
			path := strings.Split(rest[2:2+j], ":")
			rest = rest[2+j+1:]
			sect, opt := section, option
			var val starlark.Value
			missing := func() error {
				return errInterpolationMissing(option, section, raw, strings.Join(path, ":"))
			}
			switch len(path) {
			case 1:
				o, err := x.p.xform(x.thread, path[0])
				if err != nil {
					return err
				}
				opt = o
				v, ok := m(o)
				if !ok {
					return missing()
				}
				val = v
			case 2:
				sect = path[0]
				o, err := x.p.xform(x.thread, path[1])
				if err != nil {
					return err
				}
				opt = o
				v, err := x.p.get(x.thread, sect, cpStr(o), true, nil, nil)
				if err != nil {
					if isExc(err, cpNoSection) || isExc(err, cpNoOption) {
						return missing()
					}
					return err
				}
				val = v
			default:
				return errInterpolationSyntax(option, section, "More than one ':' found: "+cpRepr(rest))
			}
			s, isText := interp.AsText(val)
			if !isText {
				return pyrt.Errorf("TypeError", "argument of type '%s' is not iterable", pyrt.TypeName(val))
			}
			if strings.Contains(s, "$") {
				lst, err := x.p.items(x.thread, sect, true, nil)
				if err != nil {
					return err
				}
				d := newOmap[*optVal]()
				for e := range lst.Elements() {
					t := e.(starlark.Tuple)
					k, _ := interp.AsText(t[0])
					d.set(k, &optVal{v: t[1]})
				}
				sub := func(k string) (starlark.Value, bool) {
					v, ok := d.get(k)
					if !ok {
						return nil, false
					}
					return v.v, true
				}
				if err := x.extended(opt, sect, s, sub, depth+1); err != nil {
					return err
				}
			} else if err := x.emit(s); err != nil {
				return err
			}
		default:
			return errInterpolationSyntax(option, section, "'$' must be followed by '$' or '{', found: "+cpRepr(rest))
		}
	}
	return nil
}

// ---- section proxies ----

// sectionProxy is p["section"]: a view of one section through the
// parser (its values interpolated, the defaults inherited).
type sectionProxy struct {
	p    *configParser
	name string
}

var sectionProxyClass = &pyClass{module: "configparser", name: "SectionProxy", is: isOf[*sectionProxy],
	ctor: func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var parser, name starlark.Value
		if err := (webParams{fn: "__init__", names: []string{"parser", "name"}, required: 2, maxPos: 2, self: true}).unpack(args, kwargs, &parser, &name); err != nil {
			return nil, err
		}
		p := parserOf(parser)
		if p == nil {
			return nil, pyrt.Errorf("TypeError", "SectionProxy() needs a ConfigParser")
		}
		s, ok := interp.AsText(name)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "section names must be strings")
		}
		return &sectionProxy{p: p, name: s}, nil
	}}

var (
	_ starlark.Mapping   = (*sectionProxy)(nil)
	_ starlark.HasSetKey = (*sectionProxy)(nil)
	_ starlark.Sequence  = (*sectionProxy)(nil)
	_ starlark.Container = (*sectionProxy)(nil)
	_ starlark.HasAttrs  = (*sectionProxy)(nil)
	_ pyrt.ItemDeleter   = (*sectionProxy)(nil)
)

func (s *sectionProxy) PyClass() starlark.Value { return sectionProxyClass }
func (s *sectionProxy) String() string          { return "<Section: " + s.name + ">" }
func (s *sectionProxy) Type() string            { return "SectionProxy" }
func (s *sectionProxy) Freeze()                 {}
func (s *sectionProxy) Truth() starlark.Bool    { return s.Len() > 0 }
func (s *sectionProxy) Hash() (uint32, error)   { return starlark.String(s.name).Hash() }

// optionNames is _options(): the section's options with the defaults',
// or the defaults for the default section.
func (s *sectionProxy) optionNames() ([]string, error) {
	if s.name != s.p.defaultSection {
		return s.p.options(s.name)
	}
	return s.p.defaults.names(), nil
}

func (s *sectionProxy) Len() int {
	n, err := s.optionNames()
	if err != nil {
		return 0
	}
	return len(n)
}

func (s *sectionProxy) Iterate() starlark.Iterator {
	n, _ := s.optionNames()
	return cpNames(n).Iterate()
}

func (s *sectionProxy) Has(k starlark.Value) (bool, error) {
	return s.p.hasOption(s.p.thread, s.name, k)
}

func (s *sectionProxy) Get(k starlark.Value) (starlark.Value, bool, error) {
	thread := s.p.thread
	ok, err := s.p.hasOption(thread, s.name, k)
	if err != nil {
		return nil, false, err
	}
	if !ok {
		r, err := interp.Repr(interp.BudgetOf(thread), k)
		if err != nil {
			return nil, false, err
		}
		return nil, false, pyrt.Errorf("KeyError", "%s", r)
	}
	v, err := s.p.get(thread, s.name, k, false, nil, nil)
	return v, err == nil, err
}

func (s *sectionProxy) SetKey(k, v starlark.Value) error {
	if err := s.p.validateTypes(nil, k, v); err != nil {
		return err
	}
	return s.p.set(s.p.thread, cpStr(s.name), k, v)
}

func (s *sectionProxy) DeleteItem(thread *starlark.Thread, k starlark.Value) error {
	s.p.use(thread)
	ok, err := s.p.hasOption(thread, s.name, k)
	if err != nil {
		return err
	}
	if ok {
		opts, found := s.p.sectionOpts(s.name)
		o, err := s.p.optionxform(thread, k)
		if err != nil {
			return err
		}
		if found && opts.del(o) {
			return nil
		}
	}
	r, err := interp.Repr(interp.BudgetOf(thread), k)
	if err != nil {
		return err
	}
	return pyrt.Errorf("KeyError", "%s", r)
}

// itemList is list(proxy.items()): each option with its value.
func (s *sectionProxy) itemList(thread *starlark.Thread) ([]starlark.Tuple, error) {
	names, err := s.optionNames()
	if err != nil {
		return nil, err
	}
	out := make([]starlark.Tuple, 0, len(names))
	for _, n := range names {
		if err := interp.BudgetOf(thread).Charge(1); err != nil {
			return nil, err
		}
		v, err := s.p.get(thread, s.name, cpStr(n), false, nil, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, starlark.Tuple{cpStr(n), v})
	}
	return out, nil
}

var proxyGetParams = webParams{names: []string{"option", "fallback", "raw", "vars"}, required: 1, maxPos: 2, self: true}

func (s *sectionProxy) AttrNames() []string {
	names := []string{"clear", "get", "getboolean", "getfloat", "getint", "items", "keys", "name", "parser", "pop", "setdefault", "update", "values"}
	for _, n := range s.p.converterNames {
		names = append(names, "get"+n)
	}
	return names
}

func (s *sectionProxy) Attr(name string) (starlark.Value, error) {
	method := func(fn func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) starlark.Value {
		return starlark.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			s.p.use(thread)
			return fn(thread, args, kwargs)
		}).BindReceiver(s)
	}
	getter := func(conv starlark.Value) starlark.Value {
		return method(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var opt, raw, vars starlark.Value
			var fallback starlark.Value = starlark.None
			params := proxyGetParams
			params.fn = name
			if err := params.unpack(args, kwargs, &opt, &fallback, &raw, &vars); err != nil {
				return nil, err
			}
			v, err := s.p.get(thread, s.name, opt, raw != nil && bool(raw.Truth()), vars, nil)
			if err != nil {
				if isExc(err, cpNoSection) || isExc(err, cpNoOption) {
					return fallback, nil
				}
				return nil, err
			}
			if conv == nil {
				return v, nil
			}
			return starlark.Call(thread, conv, starlark.Tuple{v}, nil)
		})
	}
	switch name {
	case "name":
		return cpStr(s.name), nil
	case "parser":
		if s.p.self != nil {
			return s.p.self, nil
		}
		return s.p, nil
	case "get":
		return getter(nil), nil
	case "getint":
		return getter(builtins()["int"]), nil
	case "getfloat":
		return getter(builtins()["float"]), nil
	case "getboolean":
		return getter(toBoolean), nil
	case "keys":
		return method(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := (webParams{fn: name, self: true}).unpack(args, kwargs); err != nil {
				return nil, err
			}
			n, err := s.optionNames()
			if err != nil {
				return nil, err
			}
			return cpNames(n), nil
		}), nil
	case "items", "values":
		return method(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := (webParams{fn: name, self: true}).unpack(args, kwargs); err != nil {
				return nil, err
			}
			items, err := s.itemList(thread)
			if err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(items))
			for i, kv := range items {
				if name == "values" {
					out[i] = kv[1]
				} else {
					out[i] = kv
				}
			}
			return starlark.NewList(out), nil
		}), nil
	case "update":
		return method(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) > 1 {
				return nil, pyrt.Errorf("TypeError", "update expected at most 1 argument, got %d", len(args))
			}
			var pairs []starlark.Tuple
			if len(args) == 1 {
				items, err := mappingItems(thread, args[0])
				if err != nil {
					return nil, err
				}
				pairs = items
			}
			for _, kv := range kwargs {
				pairs = append(pairs, starlark.Tuple{kv[0], kv[1]})
			}
			for _, kv := range pairs {
				if err := s.SetKey(kv[0], kv[1]); err != nil {
					return nil, err
				}
			}
			return starlark.None, nil
		}), nil
	case "pop", "setdefault":
		return method(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var k, def starlark.Value
			if err := (webParams{fn: name, names: []string{"key", "default"}, required: 1, maxPos: 2, self: true}).unpack(args, kwargs, &k, &def); err != nil {
				return nil, err
			}
			has, err := s.Has(k)
			if err != nil {
				return nil, err
			}
			if has {
				v, _, err := s.Get(k)
				if err != nil || name == "setdefault" {
					return v, err
				}
				return v, s.DeleteItem(thread, k)
			}
			if name == "pop" {
				if def == nil {
					r, err := interp.Repr(interp.BudgetOf(thread), k)
					if err != nil {
						return nil, err
					}
					return nil, pyrt.Errorf("KeyError", "%s", r)
				}
				return def, nil
			}
			if def == nil {
				def = starlark.None
			}
			return def, s.SetKey(k, def)
		}), nil
	case "clear":
		return method(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			names, err := s.optionNames()
			if err != nil {
				return nil, err
			}
			for _, n := range names {
				if err := s.DeleteItem(thread, cpStr(n)); err != nil {
					return nil, err
				}
			}
			return starlark.None, nil
		}), nil
	}
	if conv, ok := s.p.converterFor(name); ok {
		return getter(conv), nil
	}
	return nil, noAttrNamed("SectionProxy", name)
}
