package stdlib

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// ArgParse is the argparse module as CPython 3.11's for what scripts use:
// a parser of optionals and positionals, groups, mutually exclusive
// groups and sub-commands, the help and usage texts CPython prints (at 80
// columns, as CPython without a terminal), and error() ending the run
// with SystemExit(2) after "prog: error: …" on standard error. The
// arguments a script parses by default are sys.argv[1:] of the run:
// none, unless `onetool run FILE ARG…` gave some.
func ArgParse() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "argparse", Members: starlark.StringDict{
		"ArgumentParser":                argParserClass,
		"Namespace":                     argNamespaceClass,
		"ArgumentError":                 argumentErrorClass,
		"ArgumentTypeError":             argumentTypeErrorClass,
		"HelpFormatter":                 helpFormatterClass,
		"RawDescriptionHelpFormatter":   rawDescriptionClass,
		"RawTextHelpFormatter":          rawTextClass,
		"ArgumentDefaultsHelpFormatter": argDefaultsClass,
		"MetavarTypeHelpFormatter":      metavarTypeClass,
		"BooleanOptionalAction":         boolOptionalClass,
		"Action":                        actionClass,
		"FileType":                      interp.NewBuiltin("FileType", argFileType),
		"SUPPRESS":                      starlark.String(apSuppress),
		"OPTIONAL":                      starlark.String("?"),
		"ZERO_OR_MORE":                  starlark.String("*"),
		"ONE_OR_MORE":                   starlark.String("+"),
		"REMAINDER":                     starlark.String("..."),
		"PARSER":                        starlark.String("A..."),
	}}
}

const apSuppress = "==SUPPRESS=="

var (
	argumentErrorClass     = pyrt.NewModuleClass("argparse.ArgumentError", "Exception")
	argumentTypeErrorClass = pyrt.NewModuleClass("argparse.ArgumentTypeError", "Exception")
	argParserClass         = &pyClass{module: "argparse", name: "ArgumentParser", is: isOf[*apParser], ctor: newArgParser}
	argNamespaceClass      = &pyClass{module: "argparse", name: "Namespace", is: func(v starlark.Value) bool {
		ns, ok := v.(*simpleNamespace)
		return ok && ns.argparse
	}, ctor: newArgNamespace}
	helpFormatterClass  = &pyClass{module: "argparse", name: "HelpFormatter", is: func(starlark.Value) bool { return false }}
	rawDescriptionClass = &pyClass{module: "argparse", name: "RawDescriptionHelpFormatter", is: func(starlark.Value) bool { return false }}
	rawTextClass        = &pyClass{module: "argparse", name: "RawTextHelpFormatter", is: func(starlark.Value) bool { return false }}
	argDefaultsClass    = &pyClass{module: "argparse", name: "ArgumentDefaultsHelpFormatter", is: func(starlark.Value) bool { return false }}
	metavarTypeClass    = &pyClass{module: "argparse", name: "MetavarTypeHelpFormatter", is: func(starlark.Value) bool { return false }}
	boolOptionalClass   = &pyClass{module: "argparse", name: "BooleanOptionalAction", is: func(v starlark.Value) bool {
		a, ok := v.(*apAction)
		return ok && a.kind == "boolopt"
	}}
	actionClass = &pyClass{module: "argparse", name: "Action", is: isOf[*apAction]}
)

func newArgNamespace(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	v, err := newSimpleNamespace(thread, b, args, kwargs)
	if err != nil {
		return nil, err
	}
	ns := v.(*simpleNamespace)
	ns.argparse = true
	return ns, nil
}

func argFileType(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return nil, pyrt.Errorf("NotImplementedError", "argparse.FileType is not supported: take the path as a str (type=str) and open() it")
}

// The nargs of an action: a count >= 0, or one of these.
const (
	nargsNone     = -1
	nargsOptional = -2 // '?'
	nargsStar     = -3 // '*'
	nargsPlus     = -4 // '+'
	nargsRemain   = -5 // argparse.REMAINDER
	nargsParser   = -6 // sub-commands
	nargsSuppress = -7
)

// apAction is one argument of a parser (argparse.Action).
type apAction struct {
	kind     string // store, store_const, store_true, store_false, append, append_const, extend, count, help, version, boolopt, parsers
	opts     []string
	dest     string
	nargs    int
	konst    starlark.Value
	deflt    starlark.Value
	typ      starlark.Value
	choices  starlark.Value
	required bool
	help     starlark.Value
	metavar  starlark.Value
	version  starlark.Value
	// sub-commands (kind "parsers")
	subNames   []string
	subMap     map[string]*apParser
	subHelp    []*apAction // the pseudo-actions listed in the help
	progPrefix string
	owner      *apParser
}

func (a *apAction) String() string {
	names := map[string]string{"store": "_StoreAction", "store_const": "_StoreConstAction", "store_true": "_StoreTrueAction",
		"store_false": "_StoreFalseAction", "append": "_AppendAction", "append_const": "_AppendConstAction", "extend": "_ExtendAction",
		"count": "_CountAction", "help": "_HelpAction", "version": "_VersionAction", "boolopt": "BooleanOptionalAction", "parsers": "_SubParsersAction", "pseudo": "_ChoicesPseudoAction"}
	var b strings.Builder
	b.WriteString(names[a.kind])
	b.WriteByte('(')
	for i, k := range []string{"option_strings", "dest", "nargs", "const", "default", "type", "choices", "required", "help", "metavar"} {
		if i > 0 {
			b.WriteString(", ")
		}
		v, _ := a.Attr(k)
		s, _ := interp.Repr(nil, v)
		b.WriteString(k + "=" + s)
	}
	b.WriteByte(')')
	return b.String()
}
func (a *apAction) Type() string          { return "Action" }
func (a *apAction) Freeze()               {}
func (a *apAction) Truth() starlark.Bool  { return true }
func (a *apAction) Hash() (uint32, error) { return starlark.String(fmt.Sprintf("%p", a)).Hash() }
func (a *apAction) PyClass() starlark.Value {
	if a.kind == "boolopt" {
		return boolOptionalClass
	}
	return actionClass
}
func (a *apAction) AttrNames() []string {
	names := []string{"choices", "const", "default", "dest", "help", "metavar", "nargs", "option_strings", "required", "type"}
	if a.kind == "parsers" {
		names = append(names, "add_parser")
	}
	return names
}

func nargsValue(n int) starlark.Value {
	switch n {
	case nargsNone:
		return starlark.None
	case nargsOptional:
		return starlark.String("?")
	case nargsStar:
		return starlark.String("*")
	case nargsPlus:
		return starlark.String("+")
	case nargsRemain:
		return starlark.String("...")
	case nargsParser:
		return starlark.String("A...")
	case nargsSuppress:
		return starlark.String(apSuppress)
	}
	return starlark.MakeInt(n)
}

func (a *apAction) Attr(name string) (starlark.Value, error) {
	switch name {
	case "option_strings":
		l := make([]starlark.Value, len(a.opts))
		for i, o := range a.opts {
			l[i] = starlark.String(o)
		}
		return starlark.NewList(l), nil
	case "dest":
		return starlark.String(a.dest), nil
	case "nargs":
		return nargsValue(a.nargs), nil
	case "const":
		return a.konst, nil
	case "default":
		return a.deflt, nil
	case "type":
		return a.typ, nil
	case "choices":
		if a.kind == "parsers" {
			d := starlark.NewDict(len(a.subNames))
			for _, n := range a.subNames {
				_ = d.SetKey(starlark.String(n), a.subMap[n])
			}
			return d, nil
		}
		return a.choices, nil
	case "required":
		return starlark.Bool(a.required), nil
	case "help":
		return a.help, nil
	case "metavar":
		return a.metavar, nil
	case "add_parser":
		if a.kind == "parsers" {
			return interp.NewBuiltin("add_parser", a.addParser), nil
		}
	}
	return nil, nil
}

func (a *apAction) SetField(name string, v starlark.Value) error {
	switch name {
	case "default":
		a.deflt = v
	case "help":
		a.help = v
	case "required":
		a.required = bool(v.Truth())
	case "choices":
		a.choices = v
	case "metavar":
		a.metavar = v
	case "type":
		a.typ = v
	case "const":
		a.konst = v
	case "dest":
		s, ok := starlark.AsString(v)
		if !ok {
			return pyrt.Errorf("TypeError", "dest must be a str")
		}
		a.dest = s
	default:
		return pyrt.Errorf("AttributeError", "'Action' object attribute '%s' cannot be set here", name)
	}
	return nil
}

func isSuppress(v starlark.Value) bool {
	s, ok := starlark.AsString(v)
	return ok && s == apSuppress
}

func apHelpText(a *apAction) (string, bool) {
	if a.help == nil || a.help == starlark.None {
		return "", false
	}
	s, ok := starlark.AsString(a.help)
	return s, ok
}

// ---- the parser ----

// apGroup is an argument group (title, description, its actions) or a
// mutually exclusive group.
type apGroup struct {
	p           *apParser
	title       starlark.Value
	description starlark.Value
	actions     []*apAction
	mutex       bool
	required    bool
	container   *apGroup // where a mutually exclusive group's actions are listed; nil: by kind
}

type apParser struct {
	prog, usage, description, epilog  starlark.Value
	formatter                         *pyClass
	addHelp, allowAbbrev, exitOnError bool
	prefixChars                       string
	argumentDefault                   starlark.Value
	actions                           []*apAction
	optMap                            map[string]*apAction
	optOrder                          []string
	groups                            []*apGroup // positionals, options, then the program's
	mutex                             []*apGroup
	defaults                          *starlark.Dict
	subparsers                        *apAction
	hasNegNumOpt                      bool
}

func (p *apParser) String() string {
	s, _ := interp.Repr(nil, p.prog)
	u, _ := interp.Repr(nil, p.usage)
	d, _ := interp.Repr(nil, p.description)
	return fmt.Sprintf("ArgumentParser(prog=%s, usage=%s, description=%s, formatter_class=<class 'argparse.%s'>, conflict_handler='error', add_help=%s)",
		s, u, d, p.formatter.name, apBool(p.addHelp))
}

func apBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

func (p *apParser) Type() string            { return "ArgumentParser" }
func (p *apParser) PyClass() starlark.Value { return argParserClass }
func (p *apParser) Freeze()                 {}
func (p *apParser) Truth() starlark.Bool    { return true }
func (p *apParser) Hash() (uint32, error)   { return starlark.String(fmt.Sprintf("%p", p)).Hash() }

var parserMethods = []string{"add_argument", "add_argument_group", "add_mutually_exclusive_group", "add_subparsers",
	"error", "exit", "format_help", "format_usage", "get_default", "parse_args", "parse_intermixed_args",
	"parse_known_args", "parse_known_intermixed_args", "print_help", "print_usage", "set_defaults"}

func (p *apParser) AttrNames() []string {
	return append([]string{"add_help", "allow_abbrev", "description", "epilog", "exit_on_error", "formatter_class", "prefix_chars", "prog", "usage"}, parserMethods...)
}

func (p *apParser) Attr(name string) (starlark.Value, error) {
	switch name {
	case "prog":
		return p.prog, nil
	case "usage":
		return p.usage, nil
	case "description":
		return p.description, nil
	case "epilog":
		return p.epilog, nil
	case "formatter_class":
		return p.formatter, nil
	case "add_help":
		return starlark.Bool(p.addHelp), nil
	case "allow_abbrev":
		return starlark.Bool(p.allowAbbrev), nil
	case "exit_on_error":
		return starlark.Bool(p.exitOnError), nil
	case "prefix_chars":
		return starlark.String(p.prefixChars), nil
	}
	for _, m := range parserMethods {
		if m == name {
			return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				return p.call(thread, name, args, kwargs)
			}), nil
		}
	}
	return nil, nil
}

func (p *apParser) SetField(name string, v starlark.Value) error {
	switch name {
	case "prog":
		p.prog = v
	case "usage":
		p.usage = v
	case "description":
		p.description = v
	case "epilog":
		p.epilog = v
	case "exit_on_error":
		p.exitOnError = bool(v.Truth())
	case "allow_abbrev":
		p.allowAbbrev = bool(v.Truth())
	case "formatter_class":
		return p.setFormatter(v)
	default:
		return pyrt.Errorf("AttributeError", "'ArgumentParser' object attribute '%s' cannot be set", name)
	}
	return nil
}

func (p *apParser) setFormatter(v starlark.Value) error {
	c, ok := v.(*pyClass)
	if ok {
		switch c {
		case helpFormatterClass, rawDescriptionClass, rawTextClass, argDefaultsClass, metavarTypeClass:
			p.formatter = c
			return nil
		}
	}
	return pyrt.Errorf("TypeError", "formatter_class must be one of argparse's: HelpFormatter, RawDescriptionHelpFormatter, RawTextHelpFormatter, ArgumentDefaultsHelpFormatter, MetavarTypeHelpFormatter (a subclass of them is not supported)")
}

// progName is os.path.basename(sys.argv[0]) of the run.
func progName(thread *starlark.Thread) string {
	if sys, ok := interp.Predeclared(thread)["sys"].(*starlarkstruct.Module); ok {
		if l, ok := sys.Members["argv"].(*starlark.List); ok && l.Len() > 0 {
			if s, ok := starlark.AsString(l.Index(0)); ok {
				return path.Base(s)
			}
		}
	}
	return "<string>"
}

// runArgs is sys.argv[1:] of the run.
func runArgs(thread *starlark.Thread) []string {
	if sys, ok := interp.Predeclared(thread)["sys"].(*starlarkstruct.Module); ok {
		if l, ok := sys.Members["argv"].(*starlark.List); ok {
			var out []string
			for i := 1; i < l.Len(); i++ {
				s, _ := starlark.AsString(l.Index(i))
				out = append(out, s)
			}
			return out
		}
	}
	return nil
}

func newArgParser(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	p := &apParser{prog: starlark.None, usage: starlark.None, description: starlark.None, epilog: starlark.None,
		formatter: helpFormatterClass, prefixChars: "-", argumentDefault: starlark.None,
		optMap: map[string]*apAction{}, defaults: starlark.NewDict(0)}
	var formatter, parents, conflict, fromfile starlark.Value = helpFormatterClass, starlark.None, starlark.String("error"), starlark.None
	var addHelp, allowAbbrev, exitOnError starlark.Value = starlark.True, starlark.True, starlark.True
	if err := starlark.UnpackArgs("ArgumentParser", args, kwargs, "prog?", &p.prog, "usage?", &p.usage, "description?", &p.description,
		"epilog?", &p.epilog, "parents?", &parents, "formatter_class?", &formatter, "prefix_chars?", &p.prefixChars,
		"fromfile_prefix_chars?", &fromfile, "argument_default?", &p.argumentDefault, "conflict_handler?", &conflict,
		"add_help?", &addHelp, "allow_abbrev?", &allowAbbrev, "exit_on_error?", &exitOnError); err != nil {
		return nil, pyrt.Errorf("TypeError", "%s", err.Error())
	}
	if p.prefixChars == "" {
		return nil, pyrt.Errorf("ValueError", "prefix_chars must not be empty")
	}
	if fromfile != starlark.None {
		return nil, pyrt.Errorf("NotImplementedError", "argparse: fromfile_prefix_chars is not supported: read the file and pass its lines to parse_args()")
	}
	if s, _ := starlark.AsString(conflict); s != "error" {
		return nil, pyrt.Errorf("NotImplementedError", "argparse: only conflict_handler='error' is supported")
	}
	if err := p.setFormatter(formatter); err != nil {
		return nil, err
	}
	p.addHelp, p.allowAbbrev, p.exitOnError = bool(addHelp.Truth()), bool(allowAbbrev.Truth()), bool(exitOnError.Truth())
	if p.prog == starlark.None {
		p.prog = starlark.String(progName(thread))
	}
	p.groups = []*apGroup{
		{p: p, title: starlark.String("positional arguments"), description: starlark.None},
		{p: p, title: starlark.String("options"), description: starlark.None},
	}
	if p.addHelp {
		h := "-h"
		if !strings.ContainsRune(p.prefixChars, '-') {
			h = p.prefixChars[:1] + "h"
		}
		if _, err := p.addAction(thread, nil, []starlark.Value{starlark.String(h), starlark.String(strings.Repeat(h[:1], 2) + "help")},
			[]starlark.Tuple{{starlark.String("action"), starlark.String("help")}, {starlark.String("default"), starlark.String(apSuppress)},
				{starlark.String("help"), starlark.String("show this help message and exit")}}); err != nil {
			return nil, err
		}
	}
	if parents != starlark.None {
		if err := pyrt.ForEach(thread, parents, func(v starlark.Value) (bool, error) {
			pp, ok := v.(*apParser)
			if !ok {
				return true, pyrt.Errorf("TypeError", "parents must be ArgumentParsers")
			}
			return false, p.inherit(pp)
		}); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// inherit adds the actions and groups of parent, as parents= does.
func (p *apParser) inherit(parent *apParser) error {
	for _, kv := range parent.defaults.Items() {
		_ = p.defaults.SetKey(kv[0], kv[1])
	}
	groupMap := map[*apGroup]*apGroup{}
	for i, g := range parent.groups {
		var mine *apGroup
		if i < 2 {
			mine = p.groups[i]
		} else {
			for _, own := range p.groups[2:] {
				if eq, _ := starlark.Equal(own.title, g.title); eq && g.title != starlark.None {
					mine = own
					break
				}
			}
		}
		if mine == nil {
			mine = &apGroup{p: p, title: g.title, description: g.description}
			p.groups = append(p.groups, mine)
		}
		groupMap[g] = mine
	}
	inGroup := map[*apAction]*apGroup{}
	for _, g := range parent.groups {
		for _, a := range g.actions {
			inGroup[a] = groupMap[g]
		}
	}
	mutexOf := map[*apAction]*apGroup{}
	for _, m := range parent.mutex {
		nm := &apGroup{p: p, mutex: true, required: m.required, container: groupMap[m.container]}
		p.mutex = append(p.mutex, nm)
		for _, a := range m.actions {
			mutexOf[a] = nm
		}
	}
	for _, a := range parent.actions {
		if err := p.register(a); err != nil {
			return err
		}
		g := inGroup[a]
		if g != nil {
			g.actions = append(g.actions, a)
		}
		if m := mutexOf[a]; m != nil {
			m.actions = append(m.actions, a)
		}
	}
	return nil
}

func (p *apParser) call(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	switch name {
	case "add_argument":
		return p.addAction(thread, nil, args, kwargs)
	case "add_argument_group":
		g := &apGroup{p: p, title: starlark.None, description: starlark.None}
		if err := starlark.UnpackArgs(name, args, kwargs, "title?", &g.title, "description?", &g.description); err != nil {
			return nil, pyrt.Errorf("TypeError", "%s", err.Error())
		}
		p.groups = append(p.groups, g)
		return g, nil
	case "add_mutually_exclusive_group":
		return p.newMutex(nil, args, kwargs)
	case "add_subparsers":
		return p.addSubparsers(thread, args, kwargs)
	case "set_defaults":
		if len(args) > 0 {
			return nil, pyrt.Errorf("TypeError", "set_defaults() takes 1 positional argument but %d were given", len(args)+1)
		}
		for _, kv := range kwargs {
			_ = p.defaults.SetKey(kv[0], kv[1])
			k, _ := starlark.AsString(kv[0])
			for _, a := range p.actions {
				if a.dest == k {
					a.deflt = kv[1]
				}
			}
		}
		return starlark.None, nil
	case "get_default":
		var dest string
		if err := starlark.UnpackArgs(name, args, kwargs, "dest", &dest); err != nil {
			return nil, pyrt.Errorf("TypeError", "%s", err.Error())
		}
		for _, a := range p.actions {
			if a.dest == dest && a.deflt != nil {
				return a.deflt, nil
			}
		}
		v, found, _ := p.defaults.Get(starlark.String(dest))
		if found {
			return v, nil
		}
		return starlark.None, nil
	case "format_usage", "format_help":
		if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
			return nil, pyrt.Errorf("TypeError", "%s", err.Error())
		}
		s, err := p.formatText(thread, name == "format_help")
		if err != nil {
			return nil, err
		}
		return interp.MakeString(s), nil
	case "print_usage", "print_help":
		var file starlark.Value = starlark.None
		if err := starlark.UnpackArgs(name, args, kwargs, "file?", &file); err != nil {
			return nil, pyrt.Errorf("TypeError", "%s", err.Error())
		}
		s, err := p.formatText(thread, name == "print_help")
		if err != nil {
			return nil, err
		}
		if file == starlark.None {
			file = stdoutStream
		}
		if s != "" {
			if err := writeTo(thread, file, s); err != nil {
				return nil, err
			}
		}
		return starlark.None, nil
	case "error":
		var msg string
		if err := starlark.UnpackArgs(name, args, kwargs, "message", &msg); err != nil {
			return nil, pyrt.Errorf("TypeError", "%s", err.Error())
		}
		return nil, p.fail(thread, msg)
	case "exit":
		var status starlark.Value = starlark.MakeInt(0)
		var msg starlark.Value = starlark.None
		if err := starlark.UnpackArgs(name, args, kwargs, "status?", &status, "message?", &msg); err != nil {
			return nil, pyrt.Errorf("TypeError", "%s", err.Error())
		}
		if s, ok := starlark.AsString(msg); ok && s != "" {
			if err := interp.PrintErr(thread, s); err != nil {
				return nil, err
			}
		}
		return starlark.Call(thread, Builtins()["exit"], starlark.Tuple{status}, nil)
	case "parse_args", "parse_known_args", "parse_intermixed_args", "parse_known_intermixed_args":
		var argv, ns starlark.Value = starlark.None, starlark.None
		if err := starlark.UnpackArgs(name, args, kwargs, "args?", &argv, "namespace?", &ns); err != nil {
			return nil, pyrt.Errorf("TypeError", "%s", err.Error())
		}
		var strs []string
		if argv == starlark.None {
			strs = runArgs(thread)
		} else if err := pyrt.ForEach(thread, argv, func(v starlark.Value) (bool, error) {
			s, ok := interp.AsText(v)
			if !ok {
				return true, pyrt.Errorf("TypeError", "argparse: arguments must be str, not %s", pyrt.TypeName(v))
			}
			strs = append(strs, s)
			return false, nil
		}); err != nil {
			return nil, err
		}
		intermixed := strings.Contains(name, "intermixed")
		nsv, extras, err := p.parseKnownTop(thread, strs, ns, intermixed)
		if err != nil {
			return nil, err
		}
		if strings.Contains(name, "known") {
			l := make([]starlark.Value, len(extras))
			for i, e := range extras {
				l[i] = interp.MakeString(e)
			}
			return starlark.Tuple{nsv, starlark.NewList(l)}, nil
		}
		if len(extras) > 0 {
			return nil, p.fail(thread, "unrecognized arguments: "+strings.Join(extras, " "))
		}
		return nsv, nil
	}
	return nil, fmt.Errorf("argparse: no method %s", name)
}

// fail is parser.error(msg): the usage and "prog: error: msg" on standard
// error, then SystemExit(2).
func (p *apParser) fail(thread *starlark.Thread, msg string) error {
	u, err := p.formatText(thread, false)
	if err != nil {
		return err
	}
	prog, _ := interp.Str(nil, p.prog)
	if err := interp.PrintErr(thread, u+prog+": error: "+msg+"\n"); err != nil {
		return err
	}
	_, err = starlark.Call(thread, Builtins()["exit"], starlark.Tuple{starlark.MakeInt(2)}, nil)
	return err
}

// ---- groups ----

func (g *apGroup) String() string {
	if g.mutex {
		return "<argparse._MutuallyExclusiveGroup object>"
	}
	return "<argparse._ArgumentGroup object>"
}
func (g *apGroup) Type() string          { return "_ArgumentGroup" }
func (g *apGroup) Freeze()               {}
func (g *apGroup) Truth() starlark.Bool  { return true }
func (g *apGroup) Hash() (uint32, error) { return starlark.String(fmt.Sprintf("%p", g)).Hash() }
func (g *apGroup) AttrNames() []string {
	return []string{"add_argument", "add_argument_group", "add_mutually_exclusive_group", "description", "required", "title"}
}

func (g *apGroup) Attr(name string) (starlark.Value, error) {
	switch name {
	case "title":
		return g.title, nil
	case "description":
		return g.description, nil
	case "required":
		return starlark.Bool(g.required), nil
	case "add_argument":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return g.p.addAction(thread, g, args, kwargs)
		}), nil
	case "add_mutually_exclusive_group":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return g.p.newMutex(g, args, kwargs)
		}), nil
	case "add_argument_group":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return g.p.call(thread, name, args, kwargs)
		}), nil
	}
	return nil, nil
}

func (p *apParser) newMutex(container *apGroup, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var required bool
	if err := starlark.UnpackArgs("add_mutually_exclusive_group", args, kwargs, "required?", &required); err != nil {
		return nil, pyrt.Errorf("TypeError", "%s", err.Error())
	}
	if container != nil && container.mutex {
		container = container.container
	}
	g := &apGroup{p: p, mutex: true, required: required, container: container, title: starlark.None, description: starlark.None}
	p.mutex = append(p.mutex, g)
	return g, nil
}

// ---- add_argument ----

var negNumber = regexp.MustCompile(`^-\d+$|^-\d*\.\d+$`)

func (p *apParser) addAction(thread *starlark.Thread, g *apGroup, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := interp.BudgetOf(thread).Charge(uint64(1 + len(args) + len(kwargs))); err != nil {
		return nil, err
	}
	names := make([]string, len(args))
	for i, v := range args {
		s, ok := interp.AsText(v)
		if !ok || s == "" {
			return nil, pyrt.Errorf("TypeError", "add_argument(): names must be non-empty str")
		}
		names[i] = s
	}
	kw := map[string]starlark.Value{}
	for _, kv := range kwargs {
		k, _ := starlark.AsString(kv[0])
		switch k {
		case "action", "nargs", "const", "default", "type", "choices", "required", "help", "metavar", "dest", "version":
		default:
			return nil, pyrt.Errorf("TypeError", "add_argument() got an unexpected keyword argument '%s'", k)
		}
		kw[k] = kv[1]
	}
	a := &apAction{kind: "store", nargs: nargsNone, konst: starlark.None, deflt: starlark.None, typ: starlark.None,
		choices: starlark.None, help: starlark.None, metavar: starlark.None, version: starlark.None, owner: p}
	positional := len(names) == 0 || len(names) == 1 && !strings.ContainsRune(p.prefixChars, []rune(names[0])[0])
	if positional {
		if _, ok := kw["dest"]; ok && len(names) > 0 {
			return nil, pyrt.Errorf("ValueError", "dest supplied twice for positional argument")
		}
		if len(names) == 0 {
			d, ok := kw["dest"]
			s, ok2 := starlark.AsString(d)
			if !ok || !ok2 {
				return nil, pyrt.Errorf("TypeError", "add_argument() missing 1 required positional argument: 'dest'")
			}
			names = []string{s}
		}
		a.dest = names[0]
		if _, ok := kw["required"]; ok {
			return nil, pyrt.Errorf("TypeError", "'required' is an invalid argument for positionals")
		}
	} else {
		var long []string
		for _, o := range names {
			r := []rune(o)
			if !strings.ContainsRune(p.prefixChars, r[0]) {
				return nil, pyrt.Errorf("ValueError", "invalid option string '%s': must start with a character '%s'", o, p.prefixChars)
			}
			if len(r) > 1 && strings.ContainsRune(p.prefixChars, r[1]) {
				long = append(long, o)
			}
		}
		a.opts = names
		if d, ok := kw["dest"]; ok && d != starlark.None {
			s, ok := starlark.AsString(d)
			if !ok {
				return nil, pyrt.Errorf("TypeError", "dest must be a str")
			}
			a.dest = s
		} else {
			src := names[0]
			if len(long) > 0 {
				src = long[0]
			}
			d := strings.TrimLeft(src, p.prefixChars)
			if d == "" {
				return nil, pyrt.Errorf("ValueError", "dest= is required for options like '%s'", names[len(names)-1])
			}
			a.dest = strings.ReplaceAll(d, "-", "_")
		}
	}
	// the action and its own defaults
	if v, ok := kw["action"]; ok && v != starlark.None {
		switch v := v.(type) {
		case starlark.String:
			switch s := string(v); s {
			case "store", "store_const", "store_true", "store_false", "append", "append_const", "extend", "count", "help", "version":
				a.kind = s
			default:
				return nil, pyrt.Errorf("ValueError", "unknown action \"%s\"", s)
			}
		case *pyClass:
			if v != boolOptionalClass {
				return nil, pyrt.Errorf("NotImplementedError", "argparse: action=%s is not supported: use a named action (store, append, count, …) and work on the parsed value", v.name)
			}
			a.kind = "boolopt"
		default:
			return nil, pyrt.Errorf("NotImplementedError", "argparse: a custom Action class is not supported: use a named action (store, append, count, …) or type= and work on the parsed value")
		}
	}
	fixedNargs := -100
	switch a.kind {
	case "store_const", "append_const", "count", "help", "version", "store_true", "store_false", "boolopt":
		fixedNargs = 0
		if _, ok := kw["nargs"]; ok {
			return nil, pyrt.Errorf("TypeError", "%s.__init__() got an unexpected keyword argument 'nargs'", map[bool]string{true: "BooleanOptionalAction", false: "_" + a.kind + "Action"}[a.kind == "boolopt"])
		}
	}
	switch a.kind {
	case "store_true":
		a.konst, a.deflt = starlark.True, starlark.False
	case "store_false":
		a.konst, a.deflt = starlark.False, starlark.True
	case "help":
		a.deflt, a.dest = starlark.String(apSuppress), orDest(kw, "help")
	case "version":
		a.deflt, a.dest = starlark.String(apSuppress), orDest(kw, "version")
		a.help = starlark.String("show program's version number and exit")
	}
	if fixedNargs == 0 {
		a.nargs = 0
	} else if v, ok := kw["nargs"]; ok && v != starlark.None {
		switch v := v.(type) {
		case starlark.Int:
			n, ok := v.Int64()
			if !ok || n < 0 || n > 1<<20 {
				return nil, pyrt.Errorf("ValueError", "invalid nargs value")
			}
			a.nargs = int(n)
		case starlark.String:
			switch v {
			case "?":
				a.nargs = nargsOptional
			case "*":
				a.nargs = nargsStar
			case "+":
				a.nargs = nargsPlus
			case "...":
				a.nargs = nargsRemain
			case "A...":
				a.nargs = nargsParser
			case apSuppress:
				a.nargs = nargsSuppress
			default:
				return nil, pyrt.Errorf("ValueError", "invalid nargs value")
			}
		default:
			return nil, pyrt.Errorf("ValueError", "invalid nargs value")
		}
		if a.nargs == 0 {
			switch a.kind {
			case "store", "append", "extend":
				return nil, pyrt.Errorf("ValueError", "nargs for %s actions must be != 0; if you have nothing to %s, actions such as store true or store const may be more appropriate", map[bool]string{true: "store", false: a.kind}[a.kind == "store"], a.kind)
			}
		}
		if a.nargs != nargsOptional {
			if c, ok := kw["const"]; ok && c != starlark.None && (a.kind == "store" || a.kind == "append") {
				return nil, pyrt.Errorf("ValueError", "nargs must be '?' to supply const")
			}
		}
	}
	if positional {
		if a.nargs != nargsOptional && a.nargs != nargsStar {
			a.required = true
		}
		if _, ok := kw["default"]; a.nargs == nargsStar && !ok {
			a.required = true
		}
	}
	for k, v := range kw {
		switch k {
		case "const":
			a.konst = v
		case "default":
			a.deflt = v
		case "type":
			if v != starlark.None {
				if _, ok := v.(starlark.Callable); !ok {
					s, _ := interp.Repr(nil, v)
					return nil, pyrt.Errorf("ValueError", "%s is not callable", s)
				}
			}
			a.typ = v
		case "choices":
			a.choices = v
		case "required":
			a.required = bool(v.Truth())
		case "help":
			a.help = v
		case "metavar":
			a.metavar = v
		case "version":
			a.version = v
		}
	}
	if a.kind == "boolopt" {
		var opts []string
		for _, o := range a.opts {
			opts = append(opts, o)
			if strings.HasPrefix(o, "--") {
				opts = append(opts, "--no-"+o[2:])
			}
		}
		a.opts = opts
	}
	if _, ok := kw["default"]; !ok {
		if v, found, _ := p.defaults.Get(starlark.String(a.dest)); found {
			a.deflt = v
		} else if p.argumentDefault != starlark.None && a.kind != "help" && a.kind != "version" {
			a.deflt = p.argumentDefault
		}
	}
	if t, ok := a.metavar.(starlark.Tuple); ok {
		want := 1
		switch {
		case a.nargs >= 0:
			want = a.nargs
		case a.nargs == nargsStar || a.nargs == nargsPlus:
			want = 2
		}
		if len(t) != want && !(a.nargs == nargsStar && len(t) == 1) {
			return nil, pyrt.Errorf("ValueError", "length of metavar tuple does not match nargs")
		}
	}
	if err := p.register(a); err != nil {
		return nil, err
	}
	p.place(a, g)
	return a, nil
}

func orDest(kw map[string]starlark.Value, d string) string {
	if v, ok := kw["dest"]; ok {
		if s, ok := starlark.AsString(v); ok {
			return s
		}
	}
	return d
}

// register adds a to the parser's actions and its option strings, or
// fails as CPython's conflict handler 'error' does.
func (p *apParser) register(a *apAction) error {
	var conflicts []string
	for _, o := range a.opts {
		if _, ok := p.optMap[o]; ok {
			conflicts = append(conflicts, o)
		}
	}
	if len(conflicts) > 0 {
		return argumentErrorClass.Raise(fmt.Sprintf("argument %s: conflicting option string%s: %s", actionName(a), map[bool]string{true: "s", false: ""}[len(conflicts) > 1], strings.Join(conflicts, ", ")),
			starlark.StringDict{"argument_name": starlark.String(actionName(a)), "message": starlark.String("conflicting option string: " + strings.Join(conflicts, ", "))})
	}
	p.actions = append(p.actions, a)
	for _, o := range a.opts {
		p.optMap[o] = a
		p.optOrder = append(p.optOrder, o)
		if negNumber.MatchString(o) {
			p.hasNegNumOpt = true
		}
	}
	return nil
}

// place lists a in the group g (nil: by its kind), as _add_action does.
func (p *apParser) place(a *apAction, g *apGroup) {
	if g != nil && g.mutex {
		g.actions = append(g.actions, a)
		g = g.container
	}
	if g == nil {
		if len(a.opts) > 0 {
			g = p.groups[1]
		} else {
			g = p.groups[0]
		}
	}
	g.actions = append(g.actions, a)
}

// ---- sub-commands ----

func (p *apParser) addSubparsers(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if p.subparsers != nil {
		return nil, p.fail(thread, "cannot have multiple subparser arguments")
	}
	var title, description, prog, dest, help, metavar, action, parserClass starlark.Value = starlark.None, starlark.None, starlark.None, starlark.String(apSuppress), starlark.None, starlark.None, starlark.None, starlark.None
	var required bool
	if err := starlark.UnpackArgs("add_subparsers", args, kwargs, "title?", &title, "description?", &description, "prog?", &prog,
		"parser_class?", &parserClass, "action?", &action, "dest?", &dest, "required?", &required, "help?", &help, "metavar?", &metavar); err != nil {
		return nil, pyrt.Errorf("TypeError", "%s", err.Error())
	}
	a := &apAction{kind: "parsers", nargs: nargsParser, konst: starlark.None, deflt: starlark.None, typ: starlark.None, choices: starlark.None,
		help: help, metavar: metavar, version: starlark.None, required: required, subMap: map[string]*apParser{}, owner: p}
	a.dest, _ = starlark.AsString(dest)
	if prog != starlark.None {
		a.progPrefix, _ = interp.Str(nil, prog)
	} else {
		f := p.newFormatter()
		var pos []*apAction
		for _, x := range p.actions {
			if len(x.opts) == 0 {
				pos = append(pos, x)
			}
		}
		u, err := f.formatUsage(thread, p.usage, pos, p.mutex, "")
		if err != nil {
			return nil, err
		}
		a.progPrefix = strings.TrimSpace(u)
	}
	var g *apGroup
	if title != starlark.None || description != starlark.None {
		if title == starlark.None {
			title = starlark.String("subcommands")
		}
		g = &apGroup{p: p, title: title, description: description}
		p.groups = append(p.groups, g)
	}
	p.subparsers = a
	_ = p.register(a)
	p.place(a, g)
	return a, nil
}

func (a *apAction) addParser(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, pyrt.Errorf("TypeError", "add_parser() takes 2 positional arguments but %d were given", len(args)+1)
	}
	name, ok := interp.AsText(args[0])
	if !ok {
		return nil, pyrt.Errorf("TypeError", "add_parser() name must be a str")
	}
	var rest []starlark.Tuple
	var aliases []string
	var help starlark.Value
	hasProg := false
	for _, kv := range kwargs {
		switch k, _ := starlark.AsString(kv[0]); k {
		case "aliases":
			if err := pyrt.ForEach(thread, kv[1], func(v starlark.Value) (bool, error) {
				s, _ := interp.AsText(v)
				aliases = append(aliases, s)
				return false, nil
			}); err != nil {
				return nil, err
			}
		case "help":
			help = kv[1]
		case "prog":
			hasProg = true
			rest = append(rest, kv)
		default:
			rest = append(rest, kv)
		}
	}
	if !hasProg {
		rest = append(rest, starlark.Tuple{starlark.String("prog"), starlark.String(a.progPrefix + " " + name)})
	}
	for _, n := range append([]string{name}, aliases...) {
		if _, dup := a.subMap[n]; dup {
			return nil, pyrt.Errorf("argparse.ArgumentError", "argument %s: conflicting subparser: %s", actionName(a), n)
		}
	}
	v, err := newArgParser(thread, nil, nil, rest)
	if err != nil {
		return nil, err
	}
	sub := v.(*apParser)
	if help != nil {
		mv := name
		if len(aliases) > 0 {
			mv += " (" + strings.Join(aliases, ", ") + ")"
		}
		a.subHelp = append(a.subHelp, &apAction{kind: "pseudo", dest: name, metavar: starlark.String(mv), help: help, nargs: 0,
			konst: starlark.None, deflt: starlark.None, typ: starlark.None, choices: starlark.None, version: starlark.None})
	}
	for _, n := range append([]string{name}, aliases...) {
		a.subMap[n] = sub
		a.subNames = append(a.subNames, n)
	}
	return sub, nil
}
