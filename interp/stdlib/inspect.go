package stdlib

import (
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Inspect is the inspect module, for what programs ask of their own
// functions: signature (parameters, defaults, annotations as the program
// wrote them), the is* predicates, getdoc, cleandoc, getmembers, unwrap.
// A def keeps its annotations when the program imports inspect (the
// front end then makes annotated defs pyrt.Functions).
func Inspect() *starlarkstruct.Module {
	m := starlark.StringDict{
		"signature":      interp.NewBuiltin("signature", inSignature),
		"Signature":      signatureClass,
		"Parameter":      parameterClass,
		"BoundArguments": boundArgsClass,
		"isfunction":     inPredicate("isfunction", isFunctionValue),
		"ismethod": inPredicate("ismethod", func(v starlark.Value) bool {
			m, ok := v.(*pyrt.BoundMethod)
			return ok && m.Self() != nil
		}),
		"isbuiltin":           inPredicate("isbuiltin", func(v starlark.Value) bool { _, ok := v.(*starlark.Builtin); return ok }),
		"ismodule":            inPredicate("ismodule", func(v starlark.Value) bool { _, ok := v.(*starlarkstruct.Module); return ok }),
		"isroutine":           inPredicate("isroutine", isRoutine),
		"iscoroutinefunction": inPredicate("iscoroutinefunction", funcKindIs("coroutine")),
		"isgeneratorfunction": inPredicate("isgeneratorfunction", funcKindIs("generator")),
		"isasyncgenfunction":  inPredicate("isasyncgenfunction", funcKindIs("async_generator")),
		"isgenerator":         inPredicate("isgenerator", pyrt.IsGenerator),
		"iscoroutine":         inPredicate("iscoroutine", pyrt.IsCoroutine),
		"isasyncgen":          inPredicate("isasyncgen", kindIs("async_generator")),
		"isawaitable":         inPredicate("isawaitable", isAwaitable),
		"getgeneratorstate":   interp.NewBuiltin("getgeneratorstate", genState("generator", "GEN_")),
		"getcoroutinestate":   interp.NewBuiltin("getcoroutinestate", genState("coroutine", "CORO_")),
		"isclass":             interp.NewBuiltin("isclass", inIsClass),
		"getdoc":              interp.NewBuiltin("getdoc", inGetDoc),
		"cleandoc":            interp.NewBuiltin("cleandoc", inCleanDoc),
		"getmembers":          interp.NewBuiltin("getmembers", inGetMembers),
		"unwrap":              interp.NewBuiltin("unwrap", inUnwrap),
		"getsource": interp.NewBuiltin("getsource", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return nil, pyrt.Errorf("OSError", "could not get source code")
		}),
	}
	mod := &starlarkstruct.Module{Name: "inspect", Members: m}
	mod.Freeze()
	return mod
}

// funcKindIs reports a def whose call makes kind (see pyrt.FunctionKind).
func funcKindIs(kind string) func(starlark.Value) bool {
	return func(v starlark.Value) bool {
		if m, ok := v.(*pyrt.BoundMethod); ok {
			v = m.Func()
		}
		return pyrt.FunctionKind(v) == kind
	}
}

// genState is inspect.getgeneratorstate (getcoroutinestate): the state
// of a generator (coroutine) object, as GEN_SUSPENDED.
func genState(kind, prefix string) interp.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var v starlark.Value
		if err := unpack(b.Name(), args, kwargs, "generator", &v); err != nil {
			return nil, err
		}
		g, ok := v.(*pyrt.Generator)
		if !ok || g.Kind() != kind {
			return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute '%s'", pyrt.TypeName(v), map[string]string{"generator": "gi_running", "coroutine": "cr_running"}[kind])
		}
		return starlark.String(prefix + g.State()), nil
	}
}

// kindIs reports a generator object of kind.
func kindIs(kind string) func(starlark.Value) bool {
	return func(v starlark.Value) bool {
		g, ok := v.(*pyrt.Generator)
		return ok && g.Kind() == kind
	}
}

// isAwaitable reports what await takes: a coroutine, a future, an
// object with __await__.
func isAwaitable(v starlark.Value) bool {
	switch v.(type) {
	case pyrt.Awaitable, pyrt.Driver:
		return true
	}
	return pyrt.IsCoroutine(v) || hasAttrs(v, "__await__")
}

func isFunctionValue(v starlark.Value) bool {
	switch f := v.(type) {
	case *starlark.Function, *pyrt.Function, *dispatcher:
		return true
	case *pyrt.BoundMethod:
		return f.Self() == nil // C.f: a function
	}
	return false
}

func isRoutine(v starlark.Value) bool {
	switch v.(type) {
	case *starlark.Function, *pyrt.Function, *dispatcher, *pyrt.BoundMethod, *starlark.Builtin, *cached:
		return true
	}
	return false
}

func inPredicate(name string, is func(starlark.Value) bool) *starlark.Builtin {
	return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var v starlark.Value
		if err := unpack(name, args, kwargs, "object", &v); err != nil {
			return nil, err
		}
		return starlark.Bool(is(v)), nil
	})
}

func inIsClass(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := unpack("isclass", args, kwargs, "object", &v); err != nil {
		return nil, err
	}
	return starlark.Bool(isClass(thread, v)), nil
}

// ---- Parameters and signatures ----

// The kinds of parameters, as inspect._ParameterKind.
const (
	kindPositionalOnly = iota
	kindPositionalOrKeyword
	kindVarPositional
	kindKeywordOnly
	kindVarKeyword
)

var paramKindNames = [...]string{"POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD", "VAR_POSITIONAL", "KEYWORD_ONLY", "VAR_KEYWORD"}
var paramKindDescriptions = [...]string{"positional-only", "positional or keyword", "variadic positional", "keyword-only", "variadic keyword"}

// paramKind is a value of inspect._ParameterKind, an IntEnum: equal to
// its int, printed by name.
type paramKind int

var (
	_ starlark.Comparable = paramKind(0)
	_ starlark.HasAttrs   = paramKind(0)
	_ interp.TextValue    = paramKind(0)
)

func (k paramKind) String() string        { return paramKindNames[k] }
func (k paramKind) Type() string          { return "_ParameterKind" }
func (k paramKind) Freeze()               {}
func (k paramKind) Truth() starlark.Bool  { return k != 0 }
func (k paramKind) Hash() (uint32, error) { return starlark.MakeInt(int(k)).Hash() }

// WriteText: str() is the name (IntEnum's in 3.11 for this enum), repr()
// <_ParameterKind.NAME: n>.
func (k paramKind) WriteText(w *interp.TextWriter, str bool, _ int) error {
	if str {
		return w.WriteString(paramKindNames[k])
	}
	return w.WriteString("<_ParameterKind." + paramKindNames[k] + ": " + starlark.MakeInt(int(k)).String() + ">")
}

func (k paramKind) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.CompareDepth(op, starlark.MakeInt(int(k)), starlark.MakeInt(int(y.(paramKind))), depth)
}

func (k paramKind) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(paramKindNames[k]), nil
	case "value":
		return starlark.MakeInt(int(k)), nil
	case "description":
		return starlark.String(paramKindDescriptions[k]), nil
	}
	return nil, noAttrNamed("_ParameterKind", name)
}

func (k paramKind) AttrNames() []string { return []string{"description", "name", "value"} }

// emptyClass is inspect.Parameter.empty and Signature.empty: the class
// inspect._empty, which stands for "no default", "no annotation".
var emptyClass = &pyClass{module: "inspect", name: "_empty", is: func(starlark.Value) bool { return false }}

// parameter is an inspect.Parameter.
type parameter struct {
	name       string
	kind       paramKind
	def        starlark.Value // nil: empty
	annotation starlark.Value // nil: empty
	annText    string         // how the signature shows the annotation
}

var (
	_ starlark.HasAttrs = (*parameter)(nil)
	_ interp.TextValue  = (*parameter)(nil)
	_ interp.Holder     = (*parameter)(nil)
)

var parameterClass = &pyClass{module: "inspect", name: "Parameter", is: isOf[*parameter], attrs: func(name string) starlark.Value {
	for i, n := range paramKindNames {
		if n == name {
			return paramKind(i)
		}
	}
	if name == "empty" {
		return emptyClass
	}
	return nil
}}

func (*parameter) PyClass() starlark.Value { return parameterClass }

func (p *parameter) String() string        { return "<Parameter \"" + p.text(nil) + "\">" }
func (p *parameter) Type() string          { return "Parameter" }
func (p *parameter) Freeze()               {}
func (p *parameter) Truth() starlark.Bool  { return true }
func (p *parameter) Hash() (uint32, error) { return starlark.String(p.name).Hash() }
func (p *parameter) Held(visit func(starlark.Value)) {
	if p.def != nil {
		visit(p.def)
	}
	if p.annotation != nil {
		visit(p.annotation)
	}
}

// text is the parameter as a signature shows it: *args, x: int = 1.
func (p *parameter) text(b *interp.Budget) string {
	s := p.name
	switch p.kind {
	case kindVarPositional:
		s = "*" + s
	case kindVarKeyword:
		s = "**" + s
	}
	if p.annotation != nil {
		s += ": " + p.annText
	}
	if p.def != nil {
		d, err := interp.Repr(b, p.def)
		if err != nil {
			d = p.def.String()
		}
		if p.annotation != nil {
			s += " = " + d
		} else {
			s += "=" + d
		}
	}
	return s
}

func (p *parameter) WriteText(w *interp.TextWriter, str bool, _ int) error {
	if str {
		return w.WriteString(p.text(nil))
	}
	return w.WriteString("<Parameter \"" + p.text(nil) + "\">")
}

func (p *parameter) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(p.name), nil
	case "kind":
		return p.kind, nil
	case "default":
		if p.def == nil {
			return emptyClass, nil
		}
		return p.def, nil
	case "annotation":
		if p.annotation == nil {
			return emptyClass, nil
		}
		return p.annotation, nil
	case "empty":
		return emptyClass, nil
	}
	// The kinds are class attributes, read through an instance too
	// (p.kind is p.VAR_POSITIONAL).
	for i, n := range paramKindNames {
		if n == name {
			return paramKind(i), nil
		}
	}
	return nil, noAttrNamed("Parameter", name)
}

func (p *parameter) AttrNames() []string {
	return []string{"annotation", "default", "empty", "kind", "name"}
}

// signature is an inspect.Signature.
type signature struct {
	params  []*parameter
	ret     starlark.Value // nil: empty
	retText string
}

var (
	_ starlark.HasAttrs = (*signature)(nil)
	_ interp.TextValue  = (*signature)(nil)
	_ interp.Holder     = (*signature)(nil)
)

var signatureClass = &pyClass{module: "inspect", name: "Signature", is: isOf[*signature], attrs: func(name string) starlark.Value {
	if name == "empty" {
		return emptyClass
	}
	return nil
}}

var boundArgsClass = &pyClass{module: "inspect", name: "BoundArguments", is: isOf[*boundArgs]}

func (*signature) PyClass() starlark.Value { return signatureClass }
func (*boundArgs) PyClass() starlark.Value { return boundArgsClass }

func (s *signature) String() string        { return "<Signature " + s.text(nil) + ">" }
func (s *signature) Type() string          { return "Signature" }
func (s *signature) Freeze()               {}
func (s *signature) Truth() starlark.Bool  { return true }
func (s *signature) Hash() (uint32, error) { return starlark.String(s.text(nil)).Hash() }
func (s *signature) Held(visit func(starlark.Value)) {
	for _, p := range s.params {
		visit(p)
	}
	if s.ret != nil {
		visit(s.ret)
	}
}

// text is (a, b=2, *args, c, d=4, **kw) -> bool, as CPython's str().
func (s *signature) text(b *interp.Budget) string {
	var parts []string
	star := false
	for _, p := range s.params {
		if p.kind == kindKeywordOnly && !star {
			parts = append(parts, "*")
		}
		if p.kind == kindVarPositional || p.kind == kindKeywordOnly {
			star = true
		}
		parts = append(parts, p.text(b))
	}
	out := "(" + strings.Join(parts, ", ") + ")"
	if s.ret != nil {
		out += " -> " + s.retText
	}
	return out
}

func (s *signature) WriteText(w *interp.TextWriter, str bool, _ int) error {
	if str {
		return w.WriteString(s.text(nil))
	}
	return w.WriteString("<Signature " + s.text(nil) + ">")
}

func (s *signature) Attr(name string) (starlark.Value, error) {
	switch name {
	case "parameters":
		d := starlark.NewDict(len(s.params))
		for _, p := range s.params {
			_ = d.SetKey(starlark.String(p.name), p)
		}
		// CPython's is a mappingproxy of an OrderedDict, shown as one.
		return &collDict{kind: kindOrdered, d: d}, nil
	case "return_annotation":
		if s.ret == nil {
			return emptyClass, nil
		}
		return s.ret, nil
	case "empty":
		return emptyClass, nil
	case "bind":
		return interp.NewBuiltin("bind", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return s.bind(thread, args, kwargs, false)
		}), nil
	case "bind_partial":
		return interp.NewBuiltin("bind_partial", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return s.bind(thread, args, kwargs, true)
		}), nil
	}
	return nil, noAttrNamed("Signature", name)
}

func (s *signature) AttrNames() []string {
	return []string{"bind", "bind_partial", "empty", "parameters", "return_annotation"}
}

// bind matches args and kwargs to the parameters as a call would, with
// the TypeErrors of CPython's Signature.bind.
func (s *signature) bind(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple, partial bool) (starlark.Value, error) {
	if err := interp.BudgetOf(thread).Charge(uint64(len(args) + len(kwargs) + len(s.params))); err != nil {
		return nil, err
	}
	out := starlark.NewDict(len(s.params))
	kw := map[string]starlark.Value{}
	var kwOrder []string
	for _, kv := range kwargs {
		k, _ := interp.AsText(kv[0])
		kw[k] = kv[1]
		kwOrder = append(kwOrder, k)
	}
	i := 0
	var varKw *parameter
	for _, p := range s.params {
		switch p.kind {
		case kindPositionalOnly, kindPositionalOrKeyword:
			if i < len(args) {
				if _, dup := kw[p.name]; dup && p.kind == kindPositionalOrKeyword {
					return nil, pyrt.Errorf("TypeError", "multiple values for argument '%s'", p.name)
				}
				_ = out.SetKey(starlark.String(p.name), args[i])
				i++
				continue
			}
			if v, ok := kw[p.name]; ok && p.kind == kindPositionalOrKeyword {
				_ = out.SetKey(starlark.String(p.name), v)
				delete(kw, p.name)
				continue
			}
			if p.def == nil && !partial {
				return nil, pyrt.Errorf("TypeError", "missing a required argument: '%s'", p.name)
			}
		case kindVarPositional:
			if i < len(args) {
				_ = out.SetKey(starlark.String(p.name), append(starlark.Tuple(nil), args[i:]...))
				i = len(args)
			}
		case kindKeywordOnly:
			if v, ok := kw[p.name]; ok {
				_ = out.SetKey(starlark.String(p.name), v)
				delete(kw, p.name)
				continue
			}
			if p.def == nil && !partial {
				return nil, pyrt.Errorf("TypeError", "missing a required argument: '%s'", p.name)
			}
		case kindVarKeyword:
			varKw = p
		}
	}
	if i < len(args) {
		return nil, pyrt.Errorf("TypeError", "too many positional arguments")
	}
	if len(kw) > 0 {
		if varKw == nil {
			for _, k := range kwOrder {
				if _, ok := kw[k]; ok {
					return nil, pyrt.Errorf("TypeError", "got an unexpected keyword argument '%s'", k)
				}
			}
		}
		d := starlark.NewDict(len(kw))
		for _, k := range kwOrder {
			if v, ok := kw[k]; ok {
				_ = d.SetKey(starlark.String(k), v)
			}
		}
		_ = out.SetKey(starlark.String(varKw.name), d)
	}
	return &boundArgs{sig: s, arguments: out}, nil
}

// boundArgs is an inspect.BoundArguments.
type boundArgs struct {
	sig       *signature
	arguments *starlark.Dict
}

var (
	_ starlark.HasAttrs = (*boundArgs)(nil)
	_ interp.TextValue  = (*boundArgs)(nil)
	_ interp.Holder     = (*boundArgs)(nil)
)

func (a *boundArgs) String() string       { return "<BoundArguments>" }
func (a *boundArgs) Type() string         { return "BoundArguments" }
func (a *boundArgs) Freeze()              {}
func (a *boundArgs) Truth() starlark.Bool { return true }
func (a *boundArgs) Hash() (uint32, error) {
	return 0, pyrt.Errorf("TypeError", "unhashable type: 'BoundArguments'")
}
func (a *boundArgs) Held(visit func(starlark.Value)) {
	visit(a.sig)
	visit(a.arguments)
}

// WriteText writes <BoundArguments (a=1, c=3)>.
func (a *boundArgs) WriteText(w *interp.TextWriter, _ bool, depth int) error {
	if err := w.WriteString("<BoundArguments ("); err != nil {
		return err
	}
	for i, kv := range a.arguments.Items() {
		if i > 0 {
			if err := w.WriteString(", "); err != nil {
				return err
			}
		}
		k, _ := interp.AsText(kv[0])
		if err := w.WriteString(k + "="); err != nil {
			return err
		}
		if err := w.Nested(kv[1], depth+1); err != nil {
			return err
		}
	}
	return w.WriteString(")>")
}

func (a *boundArgs) param(name string) *parameter {
	for _, p := range a.sig.params {
		if p.name == name {
			return p
		}
	}
	return nil
}

func (a *boundArgs) Attr(name string) (starlark.Value, error) {
	switch name {
	case "arguments":
		return a.arguments, nil
	case "signature":
		return a.sig, nil
	case "args", "kwargs":
		var pos starlark.Tuple
		kw := starlark.NewDict(0)
		for _, kv := range a.arguments.Items() {
			k, _ := interp.AsText(kv[0])
			p := a.param(k)
			if p == nil {
				continue
			}
			switch p.kind {
			case kindPositionalOnly, kindPositionalOrKeyword:
				if kw.Len() == 0 {
					pos = append(pos, kv[1])
				} else {
					_ = kw.SetKey(kv[0], kv[1])
				}
			case kindVarPositional:
				if t, ok := kv[1].(starlark.Tuple); ok {
					pos = append(pos, t...)
				}
			case kindKeywordOnly:
				_ = kw.SetKey(kv[0], kv[1])
			case kindVarKeyword:
				if d, ok := kv[1].(*starlark.Dict); ok {
					for _, e := range d.Items() {
						_ = kw.SetKey(e[0], e[1])
					}
				}
			}
		}
		if name == "args" {
			if pos == nil {
				pos = starlark.Tuple{}
			}
			return pos, nil
		}
		return kw, nil
	case "apply_defaults":
		return interp.NewBuiltin("apply_defaults", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			out := starlark.NewDict(len(a.sig.params))
			for _, p := range a.sig.params {
				v, found, _ := a.arguments.Get(starlark.String(p.name))
				switch {
				case found:
				case p.def != nil:
					v = p.def
				case p.kind == kindVarPositional:
					v = starlark.Tuple{}
				case p.kind == kindVarKeyword:
					v = starlark.NewDict(0)
				default:
					continue
				}
				_ = out.SetKey(starlark.String(p.name), v)
			}
			a.arguments = out
			return starlark.None, nil
		}), nil
	}
	return nil, noAttrNamed("BoundArguments", name)
}

func (a *boundArgs) AttrNames() []string {
	return []string{"apply_defaults", "args", "arguments", "kwargs", "signature"}
}

// inSignature is inspect.signature(callable, *, follow_wrapped=True).
func inSignature(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fn starlark.Value
	var follow starlark.Value = starlark.True
	if err := unpack("signature", args, kwargs, "obj", &fn, "follow_wrapped?", &follow); err != nil {
		return nil, err
	}
	return signatureOf(thread, fn, bool(follow.Truth()), 0)
}

func signatureOf(thread *starlark.Thread, fn starlark.Value, follow bool, depth int) (starlark.Value, error) {
	if depth > 100 {
		return nil, pyrt.Errorf("ValueError", "wrapper loop when unwrapping %s", reprOr(thread, fn))
	}
	if _, ok := fn.(starlark.Callable); !ok {
		return nil, pyrt.Errorf("TypeError", "%s is not a callable object", reprOr(thread, fn))
	}
	if follow {
		if w, err := pyrt.GetAttr(thread, fn, "__wrapped__"); err == nil {
			return signatureOf(thread, w, follow, depth+1)
		}
	}
	switch f := fn.(type) {
	case *pyrt.BoundMethod:
		s, err := signatureOf(thread, f.Func(), follow, depth+1)
		if err != nil {
			return nil, err
		}
		sig := *s.(*signature)
		if f.Self() == nil {
			return &sig, nil // a function read through its class: unbound
		}
		if len(sig.params) > 0 && sig.params[0].kind <= kindPositionalOrKeyword {
			sig.params = sig.params[1:]
		}
		return &sig, nil
	case *dispatcher:
		return signatureOf(thread, f.fn, follow, depth+1)
	case *partial:
		return nil, pyrt.Errorf("ValueError", "no signature found for %s", reprOr(thread, fn))
	}
	sf := pyrt.StarlarkFunc(fn)
	if sf == nil {
		if _, ok := fn.(*starlark.Builtin); ok {
			return nil, pyrt.Errorf("ValueError", "no signature found for builtin %s", reprOr(thread, fn))
		}
		return nil, pyrt.Errorf("ValueError", "no signature found for %s", reprOr(thread, fn))
	}
	pf, _ := fn.(*pyrt.Function)
	annotate := func(p *parameter, name string) {
		if pf == nil {
			return
		}
		if v, text, ok := pf.Annotation(thread, name); ok {
			p.annotation, p.annText = v, text
		}
	}
	n := sf.NumParams()
	npos := n - sf.NumKwonlyParams()
	if sf.HasVarargs() {
		npos--
	}
	if sf.HasKwargs() {
		npos--
	}
	sig := &signature{}
	add := func(i int, kind paramKind) {
		name, _ := sf.Param(i)
		p := &parameter{name: name, kind: kind}
		if kind != kindVarPositional && kind != kindVarKeyword {
			if d := sf.ParamDefault(i); d != nil && !pyrt.IsRequired(d) {
				p.def = d
			}
		}
		annotate(p, name)
		sig.params = append(sig.params, p)
	}
	for i := 0; i < npos; i++ {
		add(i, kindPositionalOrKeyword)
	}
	next := npos + sf.NumKwonlyParams()
	if sf.HasVarargs() {
		add(next, kindVarPositional)
		next++
	}
	for i := npos; i < npos+sf.NumKwonlyParams(); i++ {
		add(i, kindKeywordOnly)
	}
	if sf.HasKwargs() {
		add(next, kindVarKeyword)
	}
	if pf != nil {
		if v, text, ok := pf.Annotation(thread, "return"); ok {
			sig.ret, sig.retText = v, text
		}
	}
	return sig, nil
}

// ---- Docs and members ----

func inGetDoc(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := unpack("getdoc", args, kwargs, "object", &v); err != nil {
		return nil, err
	}
	doc, err := pyrt.GetAttr(thread, v, "__doc__")
	if err != nil {
		return starlark.None, nil
	}
	s, ok := interp.AsText(doc)
	if !ok {
		return starlark.None, nil
	}
	return interp.MakeString(cleanDoc(s)), nil
}

func inCleanDoc(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := unpack("cleandoc", args, kwargs, "doc", &v); err != nil {
		return nil, err
	}
	s, ok := interp.AsText(v)
	if !ok {
		return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'expandtabs'", pyrt.TypeName(v))
	}
	return interp.MakeString(cleanDoc(s)), nil
}

// cleanDoc is CPython's inspect.cleandoc: tabs expanded, the common
// indentation of the lines after the first removed, leading and trailing
// blank lines dropped.
func cleanDoc(doc string) string {
	lines := strings.Split(strings.ReplaceAll(docExpandTabs(doc), "\r\n", "\n"), "\n")
	margin := -1
	for _, line := range lines[1:] {
		content := len(strings.TrimLeft(line, " "))
		if content > 0 {
			indent := len(line) - content
			if margin < 0 || indent < margin {
				margin = indent
			}
		}
	}
	lines[0] = strings.TrimLeft(lines[0], " ")
	if margin >= 0 {
		for i := 1; i < len(lines); i++ {
			if len(lines[i]) >= margin {
				lines[i] = lines[i][margin:]
			} else {
				lines[i] = strings.TrimLeft(lines[i], " ")
			}
		}
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	return strings.Join(lines, "\n")
}

// docExpandTabs expands tabs to columns of 8, as str.expandtabs().
func docExpandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case '\n', '\r':
			b.WriteRune(r)
			col = 0
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}

// getmembers(object, predicate=None): (name, value) pairs of dir(object),
// sorted by name.
func inGetMembers(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v, pred starlark.Value = nil, starlark.None
	if err := unpack("getmembers", args, kwargs, "object", &v, "predicate?", &pred); err != nil {
		return nil, err
	}
	var names []string
	if dir, ok := interp.Predeclared(thread)["dir"].(starlark.Callable); ok {
		list, err := starlark.Call(thread, dir, starlark.Tuple{v}, nil)
		if err != nil {
			return nil, err
		}
		if names, err = attrNameList(thread, list); err != nil {
			return nil, err
		}
	} else if a, ok := v.(starlark.HasAttrs); ok {
		names = a.AttrNames()
	}
	sort.Strings(names)
	var out []starlark.Value
	for _, name := range names {
		if err := interp.BudgetOf(thread).Charge(1); err != nil {
			return nil, err
		}
		x, err := pyrt.GetAttr(thread, v, name)
		if err != nil {
			if pyrt.IsAttributeError(err) {
				continue
			}
			return nil, err
		}
		if pred != starlark.None {
			ok, err := starlark.Call(thread, pred, starlark.Tuple{x}, nil)
			if err != nil {
				return nil, err
			}
			if !ok.Truth() {
				continue
			}
		}
		out = append(out, starlark.Tuple{starlark.String(name), x})
	}
	return starlark.NewList(out), nil
}

// unwrap(func, *, stop=None): func's __wrapped__ chain to its end.
func inUnwrap(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fn, stop starlark.Value = nil, starlark.None
	if err := unpack("unwrap", args, kwargs, "func", &fn, "stop?", &stop); err != nil {
		return nil, err
	}
	start := fn
	for n := 0; ; n++ {
		if stop != starlark.None {
			ok, err := starlark.Call(thread, stop, starlark.Tuple{fn}, nil)
			if err != nil {
				return nil, err
			}
			if ok.Truth() {
				return fn, nil
			}
		}
		w, err := pyrt.GetAttr(thread, fn, "__wrapped__")
		if err != nil {
			if pyrt.IsAttributeError(err) {
				return fn, nil
			}
			return nil, err
		}
		// CPython stops at a wrapper seen before; a chain as long as
		// the recursion limit is one too.
		if w == start || n >= 1000 {
			return nil, pyrt.Errorf("ValueError", "wrapper loop when unwrapping %s", reprOr(thread, start))
		}
		fn = w
	}
}
