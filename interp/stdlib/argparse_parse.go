package stdlib

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// argErr is argparse's ArgumentError while parsing: parse_args turns it
// into error() (exit_on_error) or raises argparse.ArgumentError.
type argErr struct {
	a   *apAction
	msg string
}

func (e *argErr) Error() string {
	if e.a != nil {
		if n := actionName(e.a); n != "" {
			return "argument " + n + ": " + e.msg
		}
	}
	return e.msg
}

// actionName is _get_action_name: how messages name an argument.
func actionName(a *apAction) string {
	switch {
	case len(a.opts) > 0:
		return strings.Join(a.opts, "/")
	case a.metavar != nil && a.metavar != starlark.None && !isSuppress(a.metavar):
		s, _ := interp.Str(nil, a.metavar)
		return s
	case a.dest != "" && a.dest != apSuppress:
		return a.dest
	case a.kind == "parsers" || a.choices != nil && a.choices != starlark.None:
		strs, _ := choiceStrings(a, false)
		return "{" + strings.Join(strs, ",") + "}"
	}
	return ""
}

// choiceValues are the choices of a, in order.
func choiceValues(a *apAction) []starlark.Value {
	if a.kind == "parsers" {
		out := make([]starlark.Value, len(a.subNames))
		for i, n := range a.subNames {
			out[i] = starlark.String(n)
		}
		return out
	}
	it, ok := a.choices.(starlark.Iterable)
	if !ok {
		return nil
	}
	var out []starlark.Value
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for len(out) < 1<<16 && iter.Next(&x) {
		out = append(out, x)
	}
	return out
}

// choiceStrings are str() (or repr()) of each choice.
func choiceStrings(a *apAction, repr bool) ([]string, error) {
	var out []string
	for _, c := range choiceValues(a) {
		var s string
		var err error
		if repr {
			s, err = interp.Repr(nil, c)
		} else {
			s, err = interp.Str(nil, c)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// ---- the namespace ----

func nsGet(ns starlark.Value, name string) (starlark.Value, bool) {
	if n, ok := ns.(*simpleNamespace); ok {
		v, found, _ := n.d.Get(starlark.String(name))
		return v, found
	}
	if h, ok := ns.(starlark.HasAttrs); ok {
		v, err := h.Attr(name)
		if err == nil && v != nil {
			return v, true
		}
	}
	return nil, false
}

func nsSet(ns starlark.Value, name string, v starlark.Value) error {
	if n, ok := ns.(*simpleNamespace); ok {
		return n.d.SetKey(starlark.String(name), v)
	}
	if h, ok := ns.(starlark.HasSetField); ok {
		return h.SetField(name, v)
	}
	return pyrt.Errorf("AttributeError", "'%s' object has no attribute '%s'", pyrt.TypeName(ns), name)
}

func nsDel(thread *starlark.Thread, ns starlark.Value, name string) {
	if n, ok := ns.(*simpleNamespace); ok {
		_, _, _ = n.d.Delete(starlark.String(name))
		return
	}
	if d, ok := ns.(pyrt.AttrDeleter); ok {
		_ = d.DelAttr(thread, name)
	}
}

// apSame is `x is y` as near as Go values tell it.
func apSame(x, y starlark.Value) bool {
	if x == nil || y == nil {
		return x == nil && y == nil
	}
	tx := reflect.TypeOf(x)
	return tx == reflect.TypeOf(y) && tx.Comparable() && x == y
}

// ---- parsing ----

// parseKnownTop is parse_known_args: the defaults into the namespace,
// then the arguments; an ArgumentError ends in error() when the parser
// exits on errors.
func (p *apParser) parseKnownTop(thread *starlark.Thread, args []string, ns starlark.Value, intermixed bool) (starlark.Value, []string, error) {
	if ns == nil || ns == starlark.None {
		ns = &simpleNamespace{d: starlark.NewDict(len(p.actions)), argparse: true}
	}
	if intermixed {
		return p.parseIntermixed(thread, args, ns)
	}
	if err := interp.BudgetOf(thread).Charge(uint64(len(args) + len(p.actions))); err != nil {
		return nil, nil, err
	}
	for _, a := range p.actions {
		if a.dest != apSuppress {
			if _, has := nsGet(ns, a.dest); !has && !isSuppress(a.deflt) {
				if err := nsSet(ns, a.dest, a.deflt); err != nil {
					return nil, nil, err
				}
			}
		}
	}
	for _, kv := range p.defaults.Items() {
		k, _ := starlark.AsString(kv[0])
		if _, has := nsGet(ns, k); !has {
			if err := nsSet(ns, k, kv[1]); err != nil {
				return nil, nil, err
			}
		}
	}
	var subExtras []string
	extras, err := p.parseKnown(thread, args, ns, &subExtras)
	if err != nil {
		var ae *argErr
		if errors.As(err, &ae) {
			if p.exitOnError {
				return nil, nil, p.fail(thread, ae.Error())
			}
			name := starlark.Value(starlark.None)
			if ae.a != nil {
				if n := actionName(ae.a); n != "" {
					name = starlark.String(n)
				}
			}
			return nil, nil, argumentErrorClass.Raise(ae.Error(), starlark.StringDict{"argument_name": name, "message": interp.MakeString(ae.msg)})
		}
		return nil, nil, err
	}
	return ns, append(extras, subExtras...), nil
}

func (p *apParser) parseIntermixed(thread *starlark.Thread, args []string, ns starlark.Value) (starlark.Value, []string, error) {
	var positionals, optionals []*apAction
	for _, a := range p.actions {
		if len(a.opts) == 0 {
			if a.nargs == nargsParser || a.nargs == nargsRemain {
				return nil, nil, pyrt.Errorf("TypeError", "parse_intermixed_args: positional arg with nargs=%s", nargsValue(a.nargs))
			}
			positionals = append(positionals, a)
		} else {
			optionals = append(optionals, a)
		}
	}
	for _, g := range p.mutex {
		for _, a := range g.actions {
			if len(a.opts) == 0 {
				return nil, nil, pyrt.Errorf("TypeError", "parse_intermixed_args: positional in mutuallyExclusiveGroup")
			}
		}
	}
	saveUsage := p.usage
	defer func() { p.usage = saveUsage }()
	if p.usage == starlark.None {
		u, err := p.formatText(thread, false)
		if err != nil {
			return nil, nil, err
		}
		p.usage = interp.MakeString(strings.TrimSuffix(strings.TrimPrefix(u, "usage: "), "\n\n"))
	}
	type saved struct {
		nargs int
		deflt starlark.Value
	}
	keep := make([]saved, len(positionals))
	for i, a := range positionals {
		keep[i] = saved{a.nargs, a.deflt}
		a.nargs, a.deflt = nargsSuppress, starlark.String(apSuppress)
	}
	ns, remaining, err := p.parseKnownTop(thread, args, ns, false)
	for i, a := range positionals {
		a.nargs, a.deflt = keep[i].nargs, keep[i].deflt
	}
	if err != nil {
		return nil, nil, err
	}
	for _, a := range positionals {
		if v, has := nsGet(ns, a.dest); has {
			if l, ok := v.(*starlark.List); ok && l.Len() == 0 {
				nsDel(thread, ns, a.dest)
			}
		}
	}
	req := make([]bool, len(optionals))
	for i, a := range optionals {
		req[i], a.required = a.required, false
	}
	greq := make([]bool, len(p.mutex))
	for i, g := range p.mutex {
		greq[i], g.required = g.required, false
	}
	ns, extras, err := p.parseKnownTop(thread, remaining, ns, false)
	for i, a := range optionals {
		a.required = req[i]
	}
	for i, g := range p.mutex {
		g.required = greq[i]
	}
	return ns, extras, err
}

type optTuple struct {
	a        *apAction
	opt      string
	explicit *string
}

func (p *apParser) isPrefix(r rune) bool { return strings.ContainsRune(p.prefixChars, r) }

// parseOptional is _parse_optional: nil for a positional argument.
func (p *apParser) parseOptional(thread *starlark.Thread, s string) (*optTuple, error) {
	if s == "" {
		return nil, nil
	}
	rs := []rune(s)
	if !p.isPrefix(rs[0]) {
		return nil, nil
	}
	if a, ok := p.optMap[s]; ok {
		return &optTuple{a: a, opt: s}, nil
	}
	if len(rs) == 1 {
		return nil, nil
	}
	if o, e, ok := strings.Cut(s, "="); ok {
		if a, ok := p.optMap[o]; ok {
			return &optTuple{a: a, opt: o, explicit: &e}, nil
		}
	}
	tuples := p.optionTuples(rs)
	if len(tuples) > 1 {
		names := make([]string, len(tuples))
		for i, t := range tuples {
			names[i] = t.opt
		}
		return nil, p.fail(thread, fmt.Sprintf("ambiguous option: %s could match %s", s, strings.Join(names, ", ")))
	}
	if len(tuples) == 1 {
		return &tuples[0], nil
	}
	if negNumber.MatchString(s) && !p.hasNegNumOpt {
		return nil, nil
	}
	if strings.Contains(s, " ") {
		return nil, nil
	}
	return &optTuple{opt: s}, nil
}

func (p *apParser) optionTuples(rs []rune) []optTuple {
	var out []optTuple
	s := string(rs)
	if p.isPrefix(rs[1]) {
		if !p.allowAbbrev {
			return nil
		}
		prefix, explicit, has := strings.Cut(s, "=")
		for _, o := range p.optOrder {
			if strings.HasPrefix(o, prefix) {
				t := optTuple{a: p.optMap[o], opt: o}
				if has {
					e := explicit
					t.explicit = &e
				}
				out = append(out, t)
			}
		}
		return out
	}
	short := string(rs[:2])
	shortExplicit := string(rs[2:])
	for _, o := range p.optOrder {
		if o == short {
			e := shortExplicit
			out = append(out, optTuple{a: p.optMap[o], opt: o, explicit: &e})
		} else if strings.HasPrefix(o, s) {
			out = append(out, optTuple{a: p.optMap[o], opt: o})
		}
	}
	return out
}

// nargsPattern is _get_nargs_pattern, over the letters A (an argument),
// O (an option) and - (a "--").
func nargsPattern(a *apAction) string {
	var pat string
	switch n := a.nargs; n {
	case nargsNone:
		pat = "(-*A-*)"
	case nargsOptional:
		pat = "(-*A?-*)"
	case nargsStar:
		pat = "(-*[A-]*)"
	case nargsPlus:
		pat = "(-*A[A-]*)"
	case nargsRemain:
		pat = "([-AO]*)"
	case nargsParser:
		pat = "(-*A[-AO]*)"
	case nargsSuppress:
		pat = "(-*-*)"
	default:
		pat = "(-*" + strings.Repeat("A-*", n)
		pat = strings.TrimSuffix(pat, "-*") + "-*)"
		if n == 0 {
			pat = "(-*-*)"
		}
	}
	if len(a.opts) > 0 {
		pat = strings.ReplaceAll(pat, "-*", "")
		pat = strings.ReplaceAll(pat, "-", "")
	}
	return pat
}

type parseState struct {
	p         *apParser
	thread    *starlark.Thread
	ns        starlark.Value
	args      []string
	pattern   string
	optAt     map[int]*optTuple
	seen      map[*apAction]bool
	nonDeflt  map[*apAction]bool
	conflicts map[*apAction][]*apAction
	extras    []string
	subExtras *[]string
	res       map[string]*regexp.Regexp
}

func (st *parseState) match(pat string, s string) []int {
	re, ok := st.res[pat]
	if !ok {
		re = regexp.MustCompile("^(?:" + pat + ")")
		st.res[pat] = re
	}
	return re.FindStringSubmatchIndex(s)
}

func (st *parseState) matchArgument(a *apAction, pat string) (int, error) {
	m := st.match(nargsPattern(a), pat)
	if m == nil {
		var msg string
		switch a.nargs {
		case nargsNone:
			msg = "expected one argument"
		case nargsOptional:
			msg = "expected at most one argument"
		case nargsPlus:
			msg = "expected at least one argument"
		default:
			if a.nargs == 1 {
				msg = "expected 1 argument"
			} else {
				msg = fmt.Sprintf("expected %d arguments", a.nargs)
			}
		}
		return 0, &argErr{a, msg}
	}
	return m[3] - m[2], nil
}

func (st *parseState) matchPartial(acts []*apAction, pat string) []int {
	for i := len(acts); i > 0; i-- {
		var b strings.Builder
		for _, a := range acts[:i] {
			b.WriteString(nargsPattern(a))
		}
		if m := st.match(b.String(), pat); m != nil {
			out := make([]int, i)
			for j := range out {
				out[j] = m[2*j+3] - m[2*j+2]
			}
			return out
		}
	}
	return nil
}

func (p *apParser) parseKnown(thread *starlark.Thread, args []string, ns starlark.Value, subExtras *[]string) ([]string, error) {
	st := &parseState{p: p, thread: thread, ns: ns, args: args, optAt: map[int]*optTuple{}, seen: map[*apAction]bool{},
		nonDeflt: map[*apAction]bool{}, conflicts: map[*apAction][]*apAction{}, subExtras: subExtras, res: map[string]*regexp.Regexp{}}
	for _, g := range p.mutex {
		for i, a := range g.actions {
			st.conflicts[a] = append(st.conflicts[a], g.actions[:i]...)
			st.conflicts[a] = append(st.conflicts[a], g.actions[i+1:]...)
		}
	}
	var pat strings.Builder
	for i := 0; i < len(args); i++ {
		if args[i] == "--" {
			pat.WriteByte('-')
			for i++; i < len(args); i++ {
				pat.WriteByte('A')
			}
			break
		}
		t, err := p.parseOptional(thread, args[i])
		if err != nil {
			return nil, err
		}
		if t == nil {
			pat.WriteByte('A')
		} else {
			st.optAt[i] = t
			pat.WriteByte('O')
		}
	}
	st.pattern = pat.String()
	var positionals []*apAction
	for _, a := range p.actions {
		if len(a.opts) == 0 {
			positionals = append(positionals, a)
		}
	}
	consumePositionals := func(start int) (int, error) {
		counts := st.matchPartial(positionals, st.pattern[start:])
		for i, n := range counts {
			if err := st.take(positionals[i], append([]string(nil), args[start:start+n]...), ""); err != nil {
				return 0, err
			}
			start += n
		}
		positionals = positionals[len(counts):]
		return start, nil
	}
	maxOpt := -1
	for i := range st.optAt {
		maxOpt = max(maxOpt, i)
	}
	start := 0
	for start <= maxOpt {
		if err := interp.BudgetOf(thread).Charge(1); err != nil {
			return nil, err
		}
		next := -1
		for i := range st.optAt {
			if i >= start && (next < 0 || i < next) {
				next = i
			}
		}
		if start != next {
			end, err := consumePositionals(start)
			if err != nil {
				return nil, err
			}
			if end > start {
				start = end
				continue
			}
			start = end
		}
		if _, ok := st.optAt[start]; !ok {
			st.extras = append(st.extras, args[start:next]...)
			start = next
		}
		var err error
		if start, err = st.consumeOptional(start); err != nil {
			return nil, err
		}
	}
	stop, err := consumePositionals(start)
	if err != nil {
		return nil, err
	}
	st.extras = append(st.extras, args[stop:]...)

	var required []string
	for _, a := range p.actions {
		if st.seen[a] {
			continue
		}
		if a.required {
			required = append(required, actionName(a))
			continue
		}
		if s, ok := interp.AsText(a.deflt); ok && a.dest != apSuppress {
			if v, has := nsGet(ns, a.dest); has && apSame(v, a.deflt) {
				conv, err := st.value(a, s)
				if err != nil {
					return nil, err
				}
				if err := nsSet(ns, a.dest, conv); err != nil {
					return nil, err
				}
			}
		}
	}
	if len(required) > 0 {
		return nil, p.fail(thread, "the following arguments are required: "+strings.Join(required, ", "))
	}
	for _, g := range p.mutex {
		if !g.required {
			continue
		}
		found := false
		for _, a := range g.actions {
			found = found || st.nonDeflt[a]
		}
		if !found {
			var names []string
			for _, a := range g.actions {
				if !isSuppress(a.help) {
					names = append(names, actionName(a))
				}
			}
			return nil, p.fail(thread, "one of the arguments "+strings.Join(names, " ")+" is required")
		}
	}
	return st.extras, nil
}

func (st *parseState) consumeOptional(start int) (int, error) {
	t := st.optAt[start]
	a, opt, explicit := t.a, t.opt, t.explicit
	type todo struct {
		a    *apAction
		args []string
		opt  string
	}
	var todos []todo
	var stop int
	for {
		if a == nil {
			st.extras = append(st.extras, st.args[start])
			return start + 1, nil
		}
		if explicit != nil {
			n, err := st.matchArgument(a, "A")
			if err != nil {
				return 0, err
			}
			ors := []rune(opt)
			if n == 0 && len(ors) > 1 && !st.p.isPrefix(ors[1]) && *explicit != "" {
				todos = append(todos, todo{a, nil, opt})
				ers := []rune(*explicit)
				opt = string(ors[0]) + string(ers[0])
				var next *string
				if len(ers) > 1 {
					s := string(ers[1:])
					next = &s
				}
				if na, ok := st.p.optMap[opt]; ok {
					a, explicit = na, next
				} else {
					return 0, &argErr{a, fmt.Sprintf("ignored explicit argument %s", apQuote(*explicit))}
				}
			} else if n == 1 {
				stop = start + 1
				todos = append(todos, todo{a, []string{*explicit}, opt})
				break
			} else {
				return 0, &argErr{a, fmt.Sprintf("ignored explicit argument %s", apQuote(*explicit))}
			}
		} else {
			s := start + 1
			n, err := st.matchArgument(a, st.pattern[s:])
			if err != nil {
				return 0, err
			}
			stop = s + n
			todos = append(todos, todo{a, append([]string(nil), st.args[s:stop]...), opt})
			break
		}
	}
	for _, td := range todos {
		if err := st.take(td.a, td.args, td.opt); err != nil {
			return 0, err
		}
	}
	return stop, nil
}

func apQuote(s string) string {
	r, _ := interp.Repr(nil, interp.MakeString(s))
	return r
}

func (st *parseState) take(a *apAction, strs []string, opt string) error {
	st.seen[a] = true
	v, err := st.values(a, strs)
	if err != nil {
		return err
	}
	if !apSame(v, a.deflt) {
		st.nonDeflt[a] = true
		for _, c := range st.conflicts[a] {
			if st.nonDeflt[c] {
				return &argErr{a, "not allowed with argument " + actionName(c)}
			}
		}
	}
	if isSuppress(v) {
		return nil
	}
	return st.act(a, v, opt)
}

func (st *parseState) values(a *apAction, strs []string) (starlark.Value, error) {
	if a.nargs != nargsParser && a.nargs != nargsRemain {
		for i, s := range strs {
			if s == "--" {
				strs = append(strs[:i:i], strs[i+1:]...)
				break
			}
		}
	}
	switch {
	case len(strs) == 0 && a.nargs == nargsOptional:
		v := a.deflt
		if len(a.opts) > 0 {
			v = a.konst
		}
		if s, ok := interp.AsText(v); ok {
			var err error
			if v, err = st.value(a, s); err != nil {
				return nil, err
			}
			if err := st.check(a, v); err != nil {
				return nil, err
			}
		}
		return v, nil
	case len(strs) == 0 && a.nargs == nargsStar && len(a.opts) == 0:
		var v starlark.Value = starlark.NewList(nil)
		if a.deflt != starlark.None {
			v = a.deflt
		}
		return v, st.check(a, v)
	case len(strs) == 1 && (a.nargs == nargsNone || a.nargs == nargsOptional):
		v, err := st.value(a, strs[0])
		if err != nil {
			return nil, err
		}
		return v, st.check(a, v)
	case a.nargs == nargsSuppress:
		return starlark.String(apSuppress), nil
	}
	l := make([]starlark.Value, len(strs))
	for i, s := range strs {
		v, err := st.value(a, s)
		if err != nil {
			return nil, err
		}
		l[i] = v
	}
	switch a.nargs {
	case nargsRemain:
	case nargsParser:
		if len(l) > 0 {
			if err := st.check(a, l[0]); err != nil {
				return nil, err
			}
		}
	default:
		for _, v := range l {
			if err := st.check(a, v); err != nil {
				return nil, err
			}
		}
	}
	return starlark.NewList(l), nil
}

// value is _get_value: the argument through type=.
func (st *parseState) value(a *apAction, s string) (starlark.Value, error) {
	if a.typ == nil || a.typ == starlark.None {
		return interp.MakeString(s), nil
	}
	v, err := starlark.Call(st.thread, a.typ, starlark.Tuple{interp.MakeString(s)}, nil)
	if err == nil {
		return v, nil
	}
	var ex *pyrt.Exception
	if !errors.As(pyrt.Classify(err), &ex) {
		return nil, err
	}
	is := func(name string, c *pyrt.ExcClass) bool {
		if ex.Value != nil {
			return ex.Value.Class().IsSubclass(c)
		}
		return ex.Class == name
	}
	switch {
	case is("ArgumentTypeError", argumentTypeErrorClass):
		msg := ex.Msg
		if ex.Value != nil {
			msg = ex.Value.Message()
		}
		return nil, &argErr{a, msg}
	case is("TypeError", pyrt.BuiltinClass("TypeError")), is("ValueError", pyrt.BuiltinClass("ValueError")):
		name := apTypeName(a.typ)
		return nil, &argErr{a, fmt.Sprintf("invalid %s value: %s", name, apQuote(s))}
	}
	return nil, err
}

// apTypeName is getattr(type, '__name__', repr(type)).
func apTypeName(v starlark.Value) string {
	if n, ok := apNameOf(v); ok {
		return n
	}
	s, _ := interp.Repr(nil, v)
	return s
}

func apNameOf(v starlark.Value) (string, bool) {
	switch f := v.(type) {
	case *starlark.Builtin:
		return f.Name(), true
	case *starlark.Function:
		return f.Name(), true
	case starlark.String, starlark.Int, starlark.Float, starlark.NoneType, starlark.Bool, *starlark.List, starlark.Tuple, *starlark.Dict:
		return "", false
	}
	if h, ok := v.(starlark.HasAttrs); ok {
		if n, err := h.Attr("__name__"); err == nil && n != nil {
			if s, ok := interp.AsText(n); ok {
				return s, true
			}
		}
	}
	return "", false
}

func (st *parseState) check(a *apAction, v starlark.Value) error {
	if a.kind != "parsers" && (a.choices == nil || a.choices == starlark.None) {
		return nil
	}
	var in bool
	if a.kind == "parsers" {
		s, _ := interp.AsText(v)
		_, in = a.subMap[s]
	} else {
		r, err := starlark.Binary(syntax.IN, v, a.choices)
		if err != nil {
			return err
		}
		in = bool(r.Truth())
	}
	if in {
		return nil
	}
	vs, err := interp.Repr(nil, v)
	if err != nil {
		return err
	}
	cs, err := choiceStrings(a, true)
	if err != nil {
		return err
	}
	return &argErr{a, fmt.Sprintf("invalid choice: %s (choose from %s)", vs, strings.Join(cs, ", "))}
}

func copyItems(v starlark.Value, has bool) []starlark.Value {
	if !has || v == starlark.None {
		return nil
	}
	if l, ok := v.(*starlark.List); ok {
		out := make([]starlark.Value, l.Len())
		for i := range out {
			out[i] = l.Index(i)
		}
		return out
	}
	return []starlark.Value{v}
}

// act is the action's __call__.
func (st *parseState) act(a *apAction, v starlark.Value, opt string) error {
	ns := st.ns
	switch a.kind {
	case "store":
		return nsSet(ns, a.dest, v)
	case "store_const", "store_true", "store_false":
		return nsSet(ns, a.dest, a.konst)
	case "append", "append_const", "extend":
		old, has := nsGet(ns, a.dest)
		items := copyItems(old, has)
		switch a.kind {
		case "append":
			items = append(items, v)
		case "append_const":
			items = append(items, a.konst)
		default:
			if err := pyrt.ForEach(st.thread, v, func(x starlark.Value) (bool, error) {
				items = append(items, x)
				return false, nil
			}); err != nil {
				return err
			}
		}
		return nsSet(ns, a.dest, starlark.NewList(items))
	case "count":
		old, has := nsGet(ns, a.dest)
		if !has || old == starlark.None {
			old = starlark.MakeInt(0)
		}
		n, err := starlark.Binary(syntax.PLUS, old, starlark.MakeInt(1))
		if err != nil {
			return err
		}
		return nsSet(ns, a.dest, n)
	case "help":
		s, err := st.p.formatText(st.thread, true)
		if err != nil {
			return err
		}
		if err := interp.Print(st.thread, s); err != nil {
			return err
		}
		_, err = starlark.Call(st.thread, Builtins()["exit"], starlark.Tuple{starlark.MakeInt(0)}, nil)
		return err
	case "version":
		f := st.p.newFormatter()
		var text string
		if a.version != starlark.None {
			text, _ = interp.Str(nil, a.version)
		}
		f.addText(st.thread, text)
		s, err := f.formatHelp()
		if err != nil {
			return err
		}
		if err := interp.Print(st.thread, s); err != nil {
			return err
		}
		_, err = starlark.Call(st.thread, Builtins()["exit"], starlark.Tuple{starlark.MakeInt(0)}, nil)
		return err
	case "boolopt":
		for _, o := range a.opts {
			if o == opt {
				return nsSet(ns, a.dest, starlark.Bool(!strings.HasPrefix(opt, "--no-")))
			}
		}
		return nil
	case "parsers":
		l := v.(*starlark.List)
		name, _ := interp.AsText(l.Index(0))
		var rest []string
		for i := 1; i < l.Len(); i++ {
			s, _ := interp.AsText(l.Index(i))
			rest = append(rest, s)
		}
		if a.dest != apSuppress {
			if err := nsSet(ns, a.dest, l.Index(0)); err != nil {
				return err
			}
		}
		sub, ok := a.subMap[name]
		if !ok {
			return &argErr{a, fmt.Sprintf("unknown parser %s (choices: %s)", apQuote(name), strings.Join(a.subNames, ", "))}
		}
		subNS, extras, err := sub.parseKnownTop(st.thread, rest, nil, false)
		if err != nil {
			return err
		}
		for _, kv := range subNS.(*simpleNamespace).d.Items() {
			k, _ := starlark.AsString(kv[0])
			if err := nsSet(ns, k, kv[1]); err != nil {
				return err
			}
		}
		*st.subExtras = append(*st.subExtras, extras...)
		return nil
	}
	return nil
}
