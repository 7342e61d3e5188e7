package stdlib

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/objects"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// configparser is CPython 3.11's module of that name for what programs
// use: ConfigParser and RawConfigParser with sections kept in the order
// they came, the DEFAULT section's inheritance, mapping access through
// section proxies, the three interpolations, write() in CPython's format
// and CPython's error classes with their messages and attributes.
// Reading goes through the run's open() (the file pack's checks), and
// every line read and every text interpolation builds is charged to the
// run's budget (configparser_read.go, configparser_interp.go).

// maxInterpolationDepth is configparser.MAX_INTERPOLATION_DEPTH.
const maxInterpolationDepth = 10

// The module's exception classes, as CPython derives them.
var (
	cpError              = pyrt.NewModuleClass("configparser.Error", "Exception")
	cpNoSection          = pyrt.NewModuleSubclass("configparser.NoSectionError", cpError)
	cpDuplicateSection   = pyrt.NewModuleSubclass("configparser.DuplicateSectionError", cpError)
	cpDuplicateOption    = pyrt.NewModuleSubclass("configparser.DuplicateOptionError", cpError)
	cpNoOption           = pyrt.NewModuleSubclass("configparser.NoOptionError", cpError)
	cpInterpolation      = pyrt.NewModuleSubclass("configparser.InterpolationError", cpError)
	cpInterpDepth        = pyrt.NewModuleSubclass("configparser.InterpolationDepthError", cpInterpolation)
	cpInterpMissing      = pyrt.NewModuleSubclass("configparser.InterpolationMissingOptionError", cpInterpolation)
	cpInterpSyntax       = pyrt.NewModuleSubclass("configparser.InterpolationSyntaxError", cpInterpolation)
	cpParsing            = pyrt.NewModuleSubclass("configparser.ParsingError", cpError)
	cpMissingSectionHead = pyrt.NewModuleSubclass("configparser.MissingSectionHeaderError", cpParsing)
)

// ConfigParserModule is the configparser module.
func ConfigParserModule() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "configparser", Members: starlark.StringDict{
		"ConfigParser":                    configParserClass,
		"RawConfigParser":                 rawConfigParserClass,
		"SectionProxy":                    sectionProxyClass,
		"Interpolation":                   interpolationClasses[interpNone],
		"BasicInterpolation":              interpolationClasses[interpBasic],
		"ExtendedInterpolation":           interpolationClasses[interpExtended],
		"DEFAULTSECT":                     starlark.String("DEFAULT"),
		"MAX_INTERPOLATION_DEPTH":         starlark.MakeInt(maxInterpolationDepth),
		"Error":                           cpError,
		"NoSectionError":                  cpNoSection,
		"DuplicateSectionError":           cpDuplicateSection,
		"DuplicateOptionError":            cpDuplicateOption,
		"NoOptionError":                   cpNoOption,
		"InterpolationError":              cpInterpolation,
		"InterpolationDepthError":         cpInterpDepth,
		"InterpolationMissingOptionError": cpInterpMissing,
		"InterpolationSyntaxError":        cpInterpSyntax,
		"ParsingError":                    cpParsing,
		"MissingSectionHeaderError":       cpMissingSectionHead,
	}}
}

// ---- errors, with CPython's messages, args and attributes ----

func cpRepr(s string) string { return interp.QuoteString(s) }

func cpStr(s string) starlark.Value { return interp.MakeString(s) }

func errNoSection(section string) error {
	return cpNoSection.RaiseText("No section: "+cpRepr(section), starlark.Tuple{cpStr(section)},
		starlark.StringDict{"section": cpStr(section), "message": cpStr("No section: " + cpRepr(section))})
}

func errNoOption(option, section string) error {
	msg := fmt.Sprintf("No option %s in section: %s", cpRepr(option), cpRepr(section))
	return cpNoOption.RaiseText(msg, starlark.Tuple{cpStr(option), cpStr(section)},
		starlark.StringDict{"option": cpStr(option), "section": cpStr(section), "message": cpStr(msg)})
}

// sourceValue is a source or line number of an error: None when absent.
func sourceValue(s *string) starlark.Value {
	if s == nil {
		return starlark.None
	}
	return cpStr(*s)
}

func linenoValue(n int) starlark.Value {
	if n <= 0 {
		return starlark.None
	}
	return starlark.MakeInt(n)
}

func errDuplicateSection(section string, source *string, lineno int) error {
	var msg string
	if source != nil {
		msg = "While reading from " + cpRepr(*source)
		if lineno > 0 {
			msg += fmt.Sprintf(" [line %2d]", lineno)
		}
		msg += ": section " + cpRepr(section) + " already exists"
	} else {
		msg = "Section " + cpRepr(section) + " already exists"
	}
	return cpDuplicateSection.RaiseText(msg, starlark.Tuple{cpStr(section), sourceValue(source), linenoValue(lineno)},
		starlark.StringDict{"section": cpStr(section), "source": sourceValue(source), "lineno": linenoValue(lineno), "message": cpStr(msg)})
}

func errDuplicateOption(section, option string, source *string, lineno int) error {
	tail := cpRepr(option) + " in section " + cpRepr(section) + " already exists"
	var msg string
	if source != nil {
		msg = "While reading from " + cpRepr(*source)
		if lineno > 0 {
			msg += fmt.Sprintf(" [line %2d]", lineno)
		}
		msg += ": option " + tail
	} else {
		msg = "Option " + tail
	}
	return cpDuplicateOption.RaiseText(msg, starlark.Tuple{cpStr(section), cpStr(option), sourceValue(source), linenoValue(lineno)},
		starlark.StringDict{"section": cpStr(section), "option": cpStr(option), "source": sourceValue(source), "lineno": linenoValue(lineno), "message": cpStr(msg)})
}

func errMissingSectionHeader(source string, lineno int, line string) error {
	msg := fmt.Sprintf("File contains no section headers.\nfile: %s, line: %d\n%s", cpRepr(source), lineno, cpRepr(line))
	return cpMissingSectionHead.RaiseText(msg, starlark.Tuple{cpStr(source), starlark.MakeInt(lineno), cpStr(line)},
		starlark.StringDict{"source": cpStr(source), "lineno": starlark.MakeInt(lineno), "line": cpStr(line), "message": cpStr(msg)})
}

// parsingError gathers the lines a read could not parse; raised at the
// end of the read, as CPython does.
type parsingError struct {
	source string
	msg    strings.Builder
	errors []starlark.Value
}

func (e *parsingError) add(lineno int, line string) {
	if e.msg.Len() == 0 {
		e.msg.WriteString("Source contains parsing errors: " + cpRepr(e.source))
	}
	fmt.Fprintf(&e.msg, "\n\t[line %2d]: %s", lineno, cpRepr(line))
	e.errors = append(e.errors, starlark.Tuple{starlark.MakeInt(lineno), cpStr(cpRepr(line))})
}

func (e *parsingError) err() error {
	msg := e.msg.String()
	return cpParsing.RaiseText(msg, starlark.Tuple{cpStr(e.source)},
		starlark.StringDict{"source": cpStr(e.source), "errors": starlark.NewList(e.errors), "message": cpStr(msg)})
}

func errInterpolationSyntax(option, section, msg string) error {
	return cpInterpSyntax.RaiseText(msg, starlark.Tuple{cpStr(option), cpStr(section), cpStr(msg)},
		starlark.StringDict{"option": cpStr(option), "section": cpStr(section), "message": cpStr(msg)})
}

func errInterpolationMissing(option, section, rawval, reference string) error {
	msg := fmt.Sprintf("Bad value substitution: option %s in section %s contains an interpolation key %s which is not a valid option name. Raw value: %s",
		cpRepr(option), cpRepr(section), cpRepr(reference), cpRepr(rawval))
	return cpInterpMissing.RaiseText(msg, starlark.Tuple{cpStr(option), cpStr(section), cpStr(rawval), cpStr(reference)},
		starlark.StringDict{"option": cpStr(option), "section": cpStr(section), "reference": cpStr(reference), "message": cpStr(msg)})
}

func errInterpolationDepth(option, section, rawval string) error {
	msg := fmt.Sprintf("Recursion limit exceeded in value substitution: option %s in section %s contains an interpolation key which cannot be substituted in %d steps. Raw value: %s",
		cpRepr(option), cpRepr(section), maxInterpolationDepth, cpRepr(rawval))
	return cpInterpDepth.RaiseText(msg, starlark.Tuple{cpStr(option), cpStr(section), cpStr(rawval)},
		starlark.StringDict{"option": cpStr(option), "section": cpStr(section), "message": cpStr(msg)})
}

// ---- an ordered map of text keys ----

// omap keeps options (or sections) in insertion order, as CPython's
// dicts do; a deletion leaves a hole that later insertions compact, so a
// loop deleting every key costs linear time, not quadratic.
type omap[V any] struct {
	keys  []string
	vals  []V
	live  []bool
	idx   map[string]int
	holes int
}

func newOmap[V any]() *omap[V] { return &omap[V]{idx: map[string]int{}} }

func (m *omap[V]) get(k string) (V, bool) {
	if i, ok := m.idx[k]; ok {
		return m.vals[i], true
	}
	var zero V
	return zero, false
}

func (m *omap[V]) has(k string) bool { _, ok := m.idx[k]; return ok }

func (m *omap[V]) set(k string, v V) {
	if i, ok := m.idx[k]; ok {
		m.vals[i] = v
		return
	}
	m.idx[k] = len(m.keys)
	m.keys = append(m.keys, k)
	m.vals = append(m.vals, v)
	m.live = append(m.live, true)
}

func (m *omap[V]) del(k string) bool {
	i, ok := m.idx[k]
	if !ok {
		return false
	}
	delete(m.idx, k)
	var zero V
	m.vals[i], m.live[i], m.keys[i] = zero, false, ""
	m.holes++
	if m.holes > 16 && m.holes > len(m.keys)/2 {
		m.compact()
	}
	return true
}

func (m *omap[V]) compact() {
	n := 0
	for i := range m.keys {
		if m.live[i] {
			m.keys[n], m.vals[n], m.live[n] = m.keys[i], m.vals[i], true
			m.idx[m.keys[n]] = n
			n++
		}
	}
	clear(m.vals[n:])
	m.keys, m.vals, m.live, m.holes = m.keys[:n], m.vals[:n], m.live[:n], 0
}

func (m *omap[V]) len() int { return len(m.idx) }

func (m *omap[V]) clear() { *m = *newOmap[V]() }

// names are the keys in order.
func (m *omap[V]) names() []string {
	out := make([]string, 0, m.len())
	for i, k := range m.keys {
		if m.live[i] {
			out = append(out, k)
		}
	}
	return out
}

// each visits the entries in order; the map may not change meanwhile.
func (m *omap[V]) each(fn func(k string, v V) error) error {
	for i, k := range m.keys {
		if m.live[i] {
			if err := fn(k, m.vals[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// ---- the parser ----

// optVal is an option's value: v (a str, None, or for RawConfigParser
// any value set), or while a read is under way the lines of a value that
// may continue.
type optVal struct {
	v     starlark.Value
	lines []string
	multi bool
}

type cpSection struct {
	name  string
	opts  *omap[*optVal]
	proxy *sectionProxy
}

const (
	interpNone = iota
	interpBasic
	interpExtended
)

// configParser is an instance of ConfigParser or RawConfigParser.
type configParser struct {
	cls *cpClass
	// self is the instance of the program's class deriving from ours
	// (class P(ConfigParser)), through which optionxform is looked up;
	// nil for a plain instance.
	self starlark.Value
	// thread is the run's thread the parser was last used on: p[s]
	// (starlark.Mapping.Get) has no thread of its own.
	thread *starlark.Thread

	defaults     *omap[*optVal]
	sections     *omap[*cpSection]
	defaultProxy *sectionProxy

	defaultSection  string
	delimiters      []string
	commentPrefixes []string
	inlinePrefixes  []string
	allowNoValue    bool
	strict          bool
	emptyLines      bool
	interp          int
	interpValue     starlark.Value
	// oxf is the optionxform a program assigned to the parser; nil for
	// str.lower.
	oxf starlark.Value
	// converters are the converters= given: getNAME methods.
	converters     map[string]starlark.Value
	converterNames []string
	// attrs are other attributes a program set on the parser.
	attrs starlark.StringDict
	// keyBytes is the size of the keys held, for the memory meter.
	keyBytes uint64
}

var (
	_ starlark.Mapping     = (*configParser)(nil)
	_ starlark.HasSetKey   = (*configParser)(nil)
	_ starlark.Sequence    = (*configParser)(nil)
	_ starlark.HasAttrs    = (*configParser)(nil)
	_ starlark.HasSetField = (*configParser)(nil)
	_ pyrt.ItemDeleter     = (*configParser)(nil)
	_ interp.OwnSizer      = (*configParser)(nil)
)

func (p *configParser) PyClass() starlark.Value { return p.cls }
func (p *configParser) Type() string            { return p.cls.name }
func (p *configParser) Freeze()                 {}
func (p *configParser) Truth() starlark.Bool    { return true }
func (p *configParser) Hash() (uint32, error) {
	return uint32(uintptr(fmt.Sprintf("%p", p)[2]) * 2654435761), nil
}
func (p *configParser) String() string {
	return fmt.Sprintf("<configparser.%s object at %p>", p.cls.name, p)
}

// Held visits the values the parser holds, for the memory meter.
func (p *configParser) Held(visit func(starlark.Value)) {
	visitOpts := func(m *omap[*optVal]) {
		for i, v := range m.vals {
			if m.live[i] && v.v != nil {
				visit(v.v)
			}
		}
	}
	visitOpts(p.defaults)
	for i, s := range p.sections.vals {
		if p.sections.live[i] {
			visitOpts(s.opts)
		}
	}
	for _, v := range p.attrs {
		visit(v)
	}
	if p.oxf != nil {
		visit(p.oxf)
	}
}

// OwnBytes are the keys and the tables that hold them.
func (p *configParser) OwnBytes() uint64 {
	return p.keyBytes + 64*uint64(p.sections.len()+p.defaults.len())
}

// use records the thread a method of the parser was called on.
func (p *configParser) use(thread *starlark.Thread) *interp.Budget {
	if thread != nil {
		p.thread = thread
	}
	return interp.BudgetOf(p.thread)
}

// cpClass is ConfigParser or RawConfigParser. A program's class may
// derive from it (class P(ConfigParser): def optionxform…): as a Meta it
// makes the instance hold a parser that looks its optionxform up on the
// instance.
type cpClass struct {
	name string
	raw  bool
}

var (
	configParserClass    = &cpClass{name: "ConfigParser"}
	rawConfigParserClass = &cpClass{name: "RawConfigParser", raw: true}
)

var (
	_ pyrt.Class        = (*cpClass)(nil)
	_ starlark.Callable = (*cpClass)(nil)
	_ objects.Meta      = (*cpClass)(nil)
	_ objects.GoBase    = (*cpClass)(nil)
)

func (c *cpClass) String() string        { return "<class 'configparser." + c.name + "'>" }
func (c *cpClass) Type() string          { return "type" }
func (c *cpClass) Name() string          { return c.name }
func (c *cpClass) Freeze()               {}
func (c *cpClass) Truth() starlark.Bool  { return true }
func (c *cpClass) Hash() (uint32, error) { return starlark.String("configparser." + c.name).Hash() }
func (c *cpClass) AttrNames() []string   { return []string{"BOOLEAN_STATES", "__module__", "__name__"} }

func (c *cpClass) HasInstance(v starlark.Value) bool {
	p := parserOf(v)
	return p != nil && (c.raw || !p.cls.raw)
}

func (c *cpClass) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__name__", "__qualname__":
		return starlark.String(c.name), nil
	case "__module__":
		return starlark.String("configparser"), nil
	case "BOOLEAN_STATES":
		return booleanStates(), nil
	}
	return nil, nil
}

func booleanStates() *starlark.Dict {
	d := starlark.NewDict(8)
	for _, k := range []string{"1", "yes", "true", "on"} {
		_ = d.SetKey(starlark.String(k), starlark.True)
	}
	for _, k := range []string{"0", "no", "false", "off"} {
		_ = d.SetKey(starlark.String(k), starlark.False)
	}
	return d
}

func (c *cpClass) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	p := newParser(c, thread)
	if err := p.init(thread, args, kwargs); err != nil {
		return nil, err
	}
	return p, nil
}

// InitClass lets a program's class derive from the parser classes.
func (c *cpClass) InitClass(*starlark.Thread, *objects.Class) error { return nil }

// cpPendingKey is the thread-local under which CallClass leaves the
// instance being made while its __init__ runs: super().__init__(…)
// calls the class's builtin base (cpBase), which makes the parser the
// instance holds and must know the instance to look optionxform up on.
const cpPendingKey = "configparser.instance"

// CallClass makes an instance of a program's class deriving from ours:
// it holds a parser whose optionxform is looked up on the instance.
func (c *cpClass) CallClass(thread *starlark.Thread, k *objects.Class, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, bool, error) {
	in, err := k.NewInstance(thread)
	if err != nil {
		return nil, true, err
	}
	if p := parserOf(in); p != nil {
		p.self = in
	}
	prev := thread.Local(cpPendingKey)
	thread.SetLocal(cpPendingKey, in)
	defer thread.SetLocal(cpPendingKey, prev)
	init, err := pyrt.GetAttr(thread, in, "__init__")
	if err != nil {
		return nil, true, err
	}
	r, err := starlark.Call(thread, init, args, kwargs)
	if err != nil {
		return nil, true, err
	}
	if r != starlark.None {
		return nil, true, pyrt.Errorf("TypeError", "__init__() should return None, not '%s'", pyrt.TypeName(r))
	}
	return in, true, nil
}

// BaseMRO puts cpBase after the class in the MRO of a program's class
// deriving from it: the object model makes the parser an instance holds
// by calling it, and super().__init__(…) calls it again with arguments.
func (c *cpClass) BaseMRO() []starlark.Value { return []starlark.Value{c.base()} }

func (c *cpClass) base() *cpBase {
	if c.raw {
		return rawParserBase
	}
	return parserBase
}

// cpBase makes the parser an instance of a program's class holds (see
// BaseMRO). It reads as the class CPython has next in the MRO.
type cpBase struct {
	cls  *cpClass
	name string
}

var (
	parserBase    = &cpBase{cls: configParserClass, name: "configparser.RawConfigParser"}
	rawParserBase = &cpBase{cls: rawConfigParserClass, name: "collections.abc.MutableMapping"}
)

func (b *cpBase) String() string        { return "<class '" + b.name + "'>" }
func (b *cpBase) Type() string          { return "type" }
func (b *cpBase) Name() string          { return b.name[strings.LastIndexByte(b.name, '.')+1:] }
func (b *cpBase) Freeze()               {}
func (b *cpBase) Truth() starlark.Bool  { return true }
func (b *cpBase) Hash() (uint32, error) { return starlark.String(b.name).Hash() }

func (b *cpBase) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	p := newParser(b.cls, thread)
	if in, ok := thread.Local(cpPendingKey).(*objects.Instance); ok {
		p.self = in
	}
	if err := p.init(thread, args, kwargs); err != nil {
		return nil, err
	}
	return p, nil
}

func (c *cpClass) ClassIterable(*objects.Class) starlark.Iterable { return nil }
func (c *cpClass) ClassItem(*starlark.Thread, *objects.Class, starlark.Value) (starlark.Value, bool, error) {
	return nil, false, nil
}
func (c *cpClass) ClassRepr(*objects.Class) string { return "" }

// parserOf is the parser v is or holds (an instance of a program's class
// deriving from ours); nil when none.
func parserOf(v starlark.Value) *configParser {
	switch x := v.(type) {
	case *configParser:
		return x
	case *objects.Instance:
		p, _ := x.Builtin().(*configParser)
		return p
	}
	return nil
}

func newParser(c *cpClass, thread *starlark.Thread) *configParser {
	p := &configParser{cls: c, thread: thread}
	p.reset()
	return p
}

func (p *configParser) reset() {
	p.defaults = newOmap[*optVal]()
	p.sections = newOmap[*cpSection]()
	p.defaultSection = "DEFAULT"
	p.delimiters = []string{"=", ":"}
	p.commentPrefixes = []string{"#", ";"}
	p.inlinePrefixes = nil
	p.allowNoValue, p.strict, p.emptyLines = false, true, true
	p.interp = interpBasic
	if p.cls.raw {
		p.interp = interpNone
	}
	p.interpValue = nil
	p.converters, p.converterNames = nil, nil
	p.keyBytes = 0
}

var cpInitParams = webParams{fn: "__init__", self: true, maxPos: 3,
	names: []string{"defaults", "dict_type", "allow_no_value", "delimiters", "comment_prefixes", "inline_comment_prefixes",
		"strict", "empty_lines_in_values", "default_section", "interpolation", "converters"}}

// init is RawConfigParser.__init__.
func (p *configParser) init(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) error {
	p.reset()
	p.use(thread)
	var defaults, dictType, allowNoValue, delimiters, commentPrefixes, inlinePrefixes, strict, emptyLines, defaultSection, interpolation, converters starlark.Value
	if err := cpInitParams.unpack(args, kwargs, &defaults, &dictType, &allowNoValue, &delimiters, &commentPrefixes, &inlinePrefixes,
		&strict, &emptyLines, &defaultSection, &interpolation, &converters); err != nil {
		return err
	}
	if dictType != nil && dictType != starlark.None {
		if n, ok := dictType.(interface{ Name() string }); !ok || (n.Name() != "dict" && n.Name() != "OrderedDict") {
			return pyrt.Errorf("TypeError", "configparser: dict_type other than dict is not supported here; sections and options keep their order as dict does")
		}
	}
	if allowNoValue != nil {
		p.allowNoValue = bool(allowNoValue.Truth())
	}
	if strict != nil {
		p.strict = bool(strict.Truth())
	}
	if emptyLines != nil {
		p.emptyLines = bool(emptyLines.Truth())
	}
	if defaultSection != nil {
		s, ok := interp.AsText(defaultSection)
		if !ok {
			return pyrt.Errorf("TypeError", "default_section must be a str, not %s", pyrt.TypeName(defaultSection))
		}
		p.defaultSection = s
	}
	texts := func(v starlark.Value, what string) ([]string, error) {
		if v == starlark.None {
			return nil, nil
		}
		if s, ok := interp.AsText(v); ok { // a str is a sequence of one-character prefixes
			var out []string
			for _, r := range s {
				out = append(out, string(r))
			}
			return out, nil
		}
		var out []string
		err := pyrt.ForEach(thread, v, func(x starlark.Value) (bool, error) {
			s, ok := interp.AsText(x)
			if !ok {
				return true, pyrt.Errorf("TypeError", "%s must be strings, not %s", what, pyrt.TypeName(x))
			}
			out = append(out, s)
			return false, nil
		})
		return out, err
	}
	var err error
	if delimiters != nil {
		if p.delimiters, err = texts(delimiters, "delimiters"); err != nil {
			return err
		}
		for _, d := range p.delimiters {
			if d == "" {
				return pyrt.Errorf("ValueError", "configparser: an empty delimiter is not supported")
			}
		}
		if len(p.delimiters) == 0 {
			return pyrt.Errorf("ValueError", "configparser: at least one delimiter is needed")
		}
	}
	if commentPrefixes != nil {
		if p.commentPrefixes, err = texts(commentPrefixes, "comment_prefixes"); err != nil {
			return err
		}
	}
	if inlinePrefixes != nil {
		if p.inlinePrefixes, err = texts(inlinePrefixes, "inline_comment_prefixes"); err != nil {
			return err
		}
	}
	if interpolation != nil {
		switch x := interpolation.(type) {
		case starlark.NoneType:
			p.interp = interpNone
		case *interpolationValue:
			p.interp, p.interpValue = x.kind, x
		default:
			return pyrt.Errorf("TypeError", "configparser: interpolation must be None, Interpolation(), BasicInterpolation() or ExtendedInterpolation(); a class of a program's own is not supported here")
		}
	}
	if converters != nil && converters != starlark.None {
		items, err := mappingItems(thread, converters)
		if err != nil {
			return err
		}
		p.converters = map[string]starlark.Value{}
		for _, kv := range items {
			name, ok := interp.AsText(kv[0])
			if !ok {
				return pyrt.Errorf("ValueError", "Incompatible key: %s (type: %s)", kv[0].String(), pyrt.TypeName(kv[0]))
			}
			if name == "" {
				return pyrt.Errorf("ValueError", "Incompatible key: cannot use '' as a name")
			}
			if _, dup := p.converters[name]; !dup {
				p.converterNames = append(p.converterNames, name)
			}
			p.converters[name] = kv[1]
		}
	}
	if defaults != nil && defaults != starlark.None {
		items, err := mappingItems(thread, defaults)
		if err != nil {
			return err
		}
		for _, kv := range items {
			k, err := p.optionxform(thread, kv[0])
			if err != nil {
				return err
			}
			v := kv[1]
			if v != starlark.None {
				s, err := interp.Str(interp.BudgetOf(thread), v)
				if err != nil {
					return err
				}
				v = cpStr(s)
			}
			if err := p.setOption(thread, p.defaultSection, k, v, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// mappingItems are the (key, value) pairs of a dict or of a mapping with
// items().
func mappingItems(thread *starlark.Thread, m starlark.Value) ([]starlark.Tuple, error) {
	if d, ok := m.(*starlark.Dict); ok {
		return d.Items(), nil
	}
	fn, err := pyrt.GetAttr(thread, m, "items")
	if err != nil {
		return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'items'", pyrt.TypeName(m))
	}
	it, err := starlark.Call(thread, fn, nil, nil)
	if err != nil {
		return nil, err
	}
	var out []starlark.Tuple
	b := interp.BudgetOf(thread)
	err = pyrt.ForEach(thread, it, func(x starlark.Value) (bool, error) {
		if err := b.Charge(1); err != nil {
			return true, err
		}
		t, ok := x.(starlark.Tuple)
		if !ok || len(t) != 2 {
			return true, pyrt.Errorf("ValueError", "too many values to unpack (expected 2)")
		}
		out = append(out, t)
		return false, nil
	})
	return out, err
}

// optionxform is self.optionxform(key): str.lower unless the program
// assigned its own or its class defines one.
func (p *configParser) optionxform(thread *starlark.Thread, key starlark.Value) (string, error) {
	fn := p.oxf
	if p.self != nil && fn == nil {
		v, err := pyrt.GetAttr(thread, p.self, "optionxform")
		if err != nil {
			return "", err
		}
		if b, ok := v.(*starlark.Builtin); !ok || b.Name() != "optionxform" || b.Receiver() != p {
			fn = v
		}
	}
	if fn == nil {
		s, ok := interp.AsText(key)
		if !ok {
			return "", pyrt.Errorf("AttributeError", "'%s' object has no attribute 'lower'", pyrt.TypeName(key))
		}
		return pyLower(thread, s)
	}
	r, err := starlark.Call(thread, fn, starlark.Tuple{key}, nil)
	if err != nil {
		return "", err
	}
	s, ok := interp.AsText(r)
	if !ok {
		s, err = interp.Str(interp.BudgetOf(thread), r)
		if err != nil {
			return "", err
		}
	}
	return s, nil
}

func (p *configParser) xform(thread *starlark.Thread, key string) (string, error) {
	if p.oxf == nil && p.self == nil {
		return pyLower(thread, key)
	}
	return p.optionxform(thread, cpStr(key))
}

// pyLower is str.lower(), Python's full case mapping for text beyond
// ASCII.
func pyLower(thread *starlark.Thread, s string) (string, error) {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s), nil
	}
	fn, err := pyrt.GetAttr(thread, cpStr(s), "lower")
	if err != nil {
		return "", err
	}
	r, err := starlark.Call(thread, fn, nil, nil)
	if err != nil {
		return "", err
	}
	out, _ := interp.AsText(r)
	return out, nil
}

// ---- looking values up ----

// sectionOpts is the options of section: the defaults for the default
// section; nil, false when there is no such section.
func (p *configParser) sectionOpts(section string) (*omap[*optVal], bool) {
	if section == p.defaultSection {
		return p.defaults, true
	}
	s, ok := p.sections.get(section)
	if !ok {
		return nil, false
	}
	return s.opts, true
}

func (p *configParser) hasSection(section string) bool { return p.sections.has(section) }

func (p *configParser) addSection(section string) error {
	if section == p.defaultSection {
		return pyrt.Errorf("ValueError", "Invalid section name: %s", cpRepr(section))
	}
	if p.sections.has(section) {
		return errDuplicateSection(section, nil, 0)
	}
	p.sections.set(section, &cpSection{name: section, opts: newOmap[*optVal]()})
	p.keyBytes += uint64(len(section))
	return nil
}

// hasOption is has_option(section, option).
func (p *configParser) hasOption(thread *starlark.Thread, section string, option starlark.Value) (bool, error) {
	if section == "" || section == p.defaultSection {
		o, err := p.optionxform(thread, option)
		if err != nil {
			return false, err
		}
		return p.defaults.has(o), nil
	}
	s, ok := p.sections.get(section)
	if !ok {
		return false, nil
	}
	o, err := p.optionxform(thread, option)
	if err != nil {
		return false, err
	}
	return s.opts.has(o) || p.defaults.has(o), nil
}

// options is options(section): its own, then the defaults'.
func (p *configParser) options(section string) ([]string, error) {
	s, ok := p.sections.get(section)
	if !ok {
		return nil, errNoSection(section)
	}
	out := s.opts.names()
	for _, k := range p.defaults.names() {
		if !s.opts.has(k) {
			out = append(out, k)
		}
	}
	return out, nil
}

// chain is the ChainMap a get looks values up in: vars, the section, the
// defaults.
type chain struct {
	vars, sect, defs *omap[*optVal]
}

func (c chain) get(k string) (starlark.Value, bool) {
	for _, m := range []*omap[*optVal]{c.vars, c.sect, c.defs} {
		if m == nil {
			continue
		}
		if v, ok := m.get(k); ok {
			return v.value(), true
		}
	}
	return nil, false
}

func (v *optVal) value() starlark.Value {
	if v.multi {
		return cpStr(strings.Join(v.lines, "\n"))
	}
	return v.v
}

// varsMap is vars= of get and items: keys through optionxform, values
// through str (None kept).
func (p *configParser) varsMap(thread *starlark.Thread, vars starlark.Value, strValues bool) (*omap[*optVal], error) {
	if vars == nil || vars == starlark.None {
		return nil, nil
	}
	items, err := mappingItems(thread, vars)
	if err != nil {
		return nil, err
	}
	m := newOmap[*optVal]()
	for _, kv := range items {
		k, err := p.optionxform(thread, kv[0])
		if err != nil {
			return nil, err
		}
		v := kv[1]
		if strValues && v != starlark.None {
			s, err := interp.Str(interp.BudgetOf(thread), v)
			if err != nil {
				return nil, err
			}
			v = cpStr(s)
		}
		m.set(k, &optVal{v: v})
	}
	return m, nil
}

// get is get(section, option, raw=, vars=, fallback=); fallback nil is
// no fallback.
func (p *configParser) get(thread *starlark.Thread, section string, option starlark.Value, raw bool, vars, fallback starlark.Value) (starlark.Value, error) {
	sect, ok := p.sectionOpts(section)
	if !ok {
		if fallback != nil {
			return fallback, nil
		}
		return nil, errNoSection(section)
	}
	if section == p.defaultSection {
		sect = nil
	}
	vm, err := p.varsMap(thread, vars, true)
	if err != nil {
		return nil, err
	}
	c := chain{vars: vm, sect: sect, defs: p.defaults}
	opt, err := p.optionxform(thread, option)
	if err != nil {
		return nil, err
	}
	v, found := c.get(opt)
	if !found {
		if fallback != nil {
			return fallback, nil
		}
		return nil, errNoOption(opt, section)
	}
	if raw || v == starlark.None {
		return v, nil
	}
	return p.beforeGet(thread, section, opt, v, c.get)
}

// rawGet is get(section, option, raw=True, fallback=fb) for the
// interpolations' error messages.
func (p *configParser) rawGet(thread *starlark.Thread, section, option, fb string) string {
	v, err := p.get(thread, section, cpStr(option), true, nil, cpStr(fb))
	if err != nil {
		return fb
	}
	if s, ok := interp.AsText(v); ok {
		return s
	}
	return fb
}

// setOption stores value under option (already through optionxform) in
// section, checking the interpolation's syntax first (before_set).
func (p *configParser) setOption(thread *starlark.Thread, section, option string, value starlark.Value, check bool) error {
	if check && bool(value.Truth()) {
		if s, ok := interp.AsText(value); ok {
			if err := p.beforeSet(s); err != nil {
				return err
			}
		}
	}
	var opts *omap[*optVal]
	if section == "" || section == p.defaultSection {
		opts = p.defaults
	} else {
		s, ok := p.sections.get(section)
		if !ok {
			return errNoSection(section)
		}
		opts = s.opts
	}
	if !opts.has(option) {
		p.keyBytes += uint64(len(option))
	}
	opts.set(option, &optVal{v: value})
	return nil
}

// set is ConfigParser.set (RawConfigParser.set when raw: no type checks).
func (p *configParser) set(thread *starlark.Thread, section, option, value starlark.Value) error {
	if !p.cls.raw {
		if err := p.validateTypes(section, option, value); err != nil {
			return err
		}
	}
	sec, ok := interp.AsText(section)
	if !ok && section != starlark.None {
		return pyrt.Errorf("TypeError", "section names must be strings")
	}
	o, err := p.optionxform(thread, option)
	if err != nil {
		return err
	}
	return p.setOption(thread, sec, o, value, true)
}

// validateTypes is ConfigParser._validate_value_types.
func (p *configParser) validateTypes(section, option, value starlark.Value) error {
	if section != nil {
		if _, ok := interp.AsText(section); !ok {
			return pyrt.Errorf("TypeError", "section names must be strings")
		}
	}
	if option != nil {
		if _, ok := interp.AsText(option); !ok {
			return pyrt.Errorf("TypeError", "option keys must be strings")
		}
	}
	if value != nil && (!p.allowNoValue || bool(value.Truth())) {
		if _, ok := interp.AsText(value); !ok {
			return pyrt.Errorf("TypeError", "option values must be strings")
		}
	}
	return nil
}

// items is items(section, raw=, vars=): the defaults, then the
// section's own, each interpolated unless raw.
func (p *configParser) items(thread *starlark.Thread, section string, raw bool, vars starlark.Value) (*starlark.List, error) {
	d := newOmap[*optVal]()
	_ = p.defaults.each(func(k string, v *optVal) error { d.set(k, v); return nil })
	if s, ok := p.sections.get(section); ok {
		_ = s.opts.each(func(k string, v *optVal) error { d.set(k, v); return nil })
	} else if section != p.defaultSection {
		return nil, errNoSection(section)
	}
	orig := d.names()
	if vm, err := p.varsMap(thread, vars, false); err != nil {
		return nil, err
	} else if vm != nil {
		_ = vm.each(func(k string, v *optVal) error { d.set(k, v); return nil })
	}
	lookup := func(k string) (starlark.Value, bool) {
		v, ok := d.get(k)
		if !ok {
			return nil, false
		}
		return v.value(), true
	}
	b := interp.BudgetOf(thread)
	out := make([]starlark.Value, 0, len(orig))
	for _, k := range orig {
		if err := b.Charge(1); err != nil {
			return nil, err
		}
		v, _ := lookup(k)
		if !raw {
			var err error
			if v, err = p.beforeGet(thread, section, k, v, lookup); err != nil {
				return nil, err
			}
		}
		out = append(out, starlark.Tuple{cpStr(k), v})
	}
	return starlark.NewList(out), nil
}

// ---- the mapping protocol: p["section"] ----

func (p *configParser) proxy(section string) *sectionProxy {
	if section == p.defaultSection {
		if p.defaultProxy == nil {
			p.defaultProxy = &sectionProxy{p: p, name: section}
		}
		return p.defaultProxy
	}
	s, _ := p.sections.get(section)
	if s.proxy == nil {
		s.proxy = &sectionProxy{p: p, name: section}
	}
	return s.proxy
}

func (p *configParser) Get(k starlark.Value) (starlark.Value, bool, error) {
	s, ok := interp.AsText(k)
	if !ok || (s != p.defaultSection && !p.hasSection(s)) {
		r, err := interp.Repr(interp.BudgetOf(p.thread), k)
		if err != nil {
			return nil, false, err
		}
		return nil, false, pyrt.Errorf("KeyError", "%s", r)
	}
	return p.proxy(s), true, nil
}

func (p *configParser) Has(k starlark.Value) (bool, error) {
	s, ok := interp.AsText(k)
	return ok && (s == p.defaultSection || p.hasSection(s)), nil
}

func (p *configParser) SetKey(k, v starlark.Value) error {
	s, ok := interp.AsText(k)
	if !ok {
		return pyrt.Errorf("TypeError", "section names must be strings")
	}
	if px, ok := v.(*sectionProxy); ok && px.p == p && px.name == s {
		return nil
	}
	thread := p.thread
	// The new section's content replaces the old: read it before
	// clearing, since v may be a proxy of the very section.
	items, err := mappingItems(thread, v)
	if err != nil {
		return err
	}
	if px, ok := v.(*sectionProxy); ok {
		if items, err = px.itemList(thread); err != nil {
			return err
		}
	}
	if s == p.defaultSection {
		p.defaults.clear()
	} else if sec, ok := p.sections.get(s); ok {
		sec.opts.clear()
	}
	d := starlark.NewDict(len(items))
	for _, kv := range items {
		if err := d.SetKey(kv[0], kv[1]); err != nil {
			return err
		}
	}
	return p.readDict(thread, []starlark.Tuple{{cpStr(s), d}}, "<dict>")
}

func (p *configParser) DeleteItem(thread *starlark.Thread, k starlark.Value) error {
	p.use(thread)
	s, _ := interp.AsText(k)
	if s == p.defaultSection {
		return pyrt.Errorf("ValueError", "Cannot remove the default section.")
	}
	if !p.hasSection(s) {
		r, err := interp.Repr(interp.BudgetOf(thread), k)
		if err != nil {
			return err
		}
		return pyrt.Errorf("KeyError", "%s", r)
	}
	p.sections.del(s)
	return nil
}

func (p *configParser) Len() int { return p.sections.len() + 1 }

func (p *configParser) sectionNames() []starlark.Value {
	out := []starlark.Value{cpStr(p.defaultSection)}
	for _, n := range p.sections.names() {
		out = append(out, cpStr(n))
	}
	return out
}

func (p *configParser) Iterate() starlark.Iterator {
	return starlark.NewList(p.sectionNames()).Iterate()
}

// ---- attributes ----

func (p *configParser) SetField(name string, v starlark.Value) error {
	switch name {
	case "optionxform":
		p.oxf = v
		return nil
	case "default_section":
		s, ok := interp.AsText(v)
		if !ok {
			return pyrt.Errorf("TypeError", "default_section must be a str")
		}
		p.defaultSection = s
		return nil
	}
	if _, ok := cpMethods[name]; ok {
		return pyrt.Errorf("AttributeError", "configparser: replacing the method %s on a parser is not supported here; derive a class from ConfigParser instead", name)
	}
	if p.attrs == nil {
		p.attrs = starlark.StringDict{}
	}
	p.attrs[name] = v
	return nil
}

func (p *configParser) AttrNames() []string {
	names := make([]string, 0, len(cpMethods)+8)
	for k := range cpMethods {
		names = append(names, k)
	}
	names = append(names, "BOOLEAN_STATES", "default_section")
	for _, n := range p.converterNames {
		names = append(names, "get"+n)
	}
	for k := range p.attrs {
		names = append(names, k)
	}
	return names
}

func (p *configParser) Attr(name string) (starlark.Value, error) {
	switch name {
	case "optionxform":
		if p.oxf != nil {
			return p.oxf, nil
		}
	case "default_section":
		return cpStr(p.defaultSection), nil
	case "BOOLEAN_STATES":
		return booleanStates(), nil
	case "__class__":
		return p.cls, nil
	}
	if v, ok := p.attrs[name]; ok {
		return v, nil
	}
	if m, ok := cpMethods[name]; ok {
		return starlark.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p.use(thread)
			return m(thread, p, args, kwargs)
		}).BindReceiver(p), nil
	}
	if conv, ok := p.converterFor(name); ok {
		return starlark.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p.use(thread)
			return p.getConv(thread, name, conv, args, kwargs)
		}).BindReceiver(p), nil
	}
	return nil, noAttrNamed(p.cls.name, name)
}

// converterFor is the converter of getNAME, if the parser has one.
func (p *configParser) converterFor(name string) (starlark.Value, bool) {
	if !strings.HasPrefix(name, "get") || p.converters == nil {
		return nil, false
	}
	c, ok := p.converters[name[3:]]
	return c, ok
}
