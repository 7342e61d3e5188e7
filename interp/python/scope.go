package python

import (
	"slices"
	"strings"

	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp/python/pyast"
)

// Scopes: which scope each name of a program belongs to, by Python's
// rules, and which of those names must live in a cell (see interp.Cell).
//
// Python and Starlark agree on most of this: a name assigned anywhere in
// a function is local to it, a comprehension's variables are its own, a
// nested function reads its enclosing function's variables. They differ
// where Python lets an inner function assign an outer variable (global,
// nonlocal) and where the lowering itself makes inner functions: each
// part of a try statement becomes a function of the enclosing scope, and
// := assigns from inside an expression. A name assigned in one of those
// ways is held in a cell, which every part of the program reads and
// writes in place; all other names stay plain Starlark variables at full
// speed.

type scopeKind uint8

const (
	moduleScope scopeKind = iota
	funcScope             // a def or a lambda
	compScope             // a comprehension or generator expression
	classScope            // a class body: its names are not seen by the functions in it
)

type scope struct {
	kind   scopeKind
	parent *scope
	// order lists bound in the order the names are first bound: a class
	// body's namespace keeps that order.
	order []string
	// bound holds the names local to this scope: assigned, imported,
	// defined or deleted here (not declared global or nonlocal).
	bound    map[string]bool
	global   map[string]bool // declared `global` here
	nonlocal map[string]bool // declared `nonlocal` here
	// cells are the names of bound held in cells, in the order first
	// found (so that the lowered program is the same on every run).
	cells     map[string]bool
	cellOrder []string
	// needs lists, before cells are decided, the names this scope assigns
	// in a way that needs a cell (in a try part, with :=, with del); the
	// owner of each is found once every declaration is known.
	needs []need
	// lambda marks a lambda's scope, which cannot hold statements and so
	// cannot set up cells.
	lambda bool
	// generator marks a def whose body yields (a generator function, or
	// with async an async generator); async a def written `async def`;
	// awaits a module with `await` at its top level.
	generator, async, awaits bool
	// text holds the names this scope assigns a str (a literal, an
	// f-string, str(…)): `name += x` appends to text (see appendText).
	text map[string]bool
	// sets holds the names this scope assigns a set display, a set
	// comprehension or set(…): `name -= x` changes that set in place.
	sets map[string]bool
	// nums holds the names this scope assigns a number (mask = 0): |,
	// & and ^ on them are left to the interpreter.
	nums map[string]bool
	// boolean holds the names this scope assigns a bool; notBoolean
	// those it also assigns anything else (see lowerer.isBool).
	boolean, notBoolean map[string]bool
	// boolLoops holds, for a name a for loop binds, the names of the
	// lists it walks: it is a bool when they are lists of bools.
	// boolList holds the names this scope assigns lists of bools (or an
	// empty list it appends bools to); notBoolList those it assigns
	// anything else.
	boolLoops             map[string][]pyast.Expr
	boolList, notBoolList map[string]bool
	// boolFuncs, of the module's scope, are the names of the program's
	// functions that return bools (see findBoolFuncs); defParams their
	// parameters by function name, and boolArgs the parameters some call
	// passes a bool (check(x > 0)).
	boolFuncs map[string]bool
	defParams map[string][]string
	boolArgs  map[string]map[string]bool
	// argRefs are, by function and parameter, the names and items a
	// call passes, which may be bools (check(flags[i])): the lowering
	// decides (lowerer.boolParam).
	argRefs map[string]map[string][]argRef
	// defName is the name of a def's scope; params its parameters, and
	// boolParams those annotated bool (or given one by a call).
	defName    string
	params     map[string]bool
	boolParams map[string]bool
	// binds counts the bindings of each name here, rangeBinds those that
	// are a for loop's target over range(…); a name with as many of both
	// holds only ints of a range (see lowerer.isRangeInt). notRange marks
	// names another scope assigns (global, nonlocal).
	binds, rangeBinds map[string]int
	notRange          map[string]bool
	// containerBinds counts the bindings of each name to a container
	// display, comprehension or constructor call ({}, [x for …], set(),
	// defaultdict(list)): a name with as many of them as bindings never
	// holds a str (see lowerer.isContainer).
	containerBinds map[string]int
}

// markBool records what target, a name, is assigned: a bool or not.
func (s *scope) markBool(target pyast.Expr, value pyast.Expr) {
	n, ok := target.(*pyast.Name)
	if !ok {
		return
	}
	if value != nil && isBoolExpr(value, s.module().boolFuncs) {
		if s.boolean == nil {
			s.boolean = map[string]bool{}
		}
		s.boolean[n.Id] = true
		return
	}
	if s.notBoolean == nil {
		s.notBoolean = map[string]bool{}
	}
	s.notBoolean[n.Id] = true
}

// containerCalls are the classes whose call makes a container, never a
// str, unless the program binds the name itself (lowerer.isContainer).
var containerCalls = []string{"dict", "list", "set", "frozenset", "tuple", "sorted",
	"defaultdict", "Counter", "OrderedDict", "deque"}

// surelyContainer reports a container display or comprehension, or a call
// of one of containerCalls.
func surelyContainer(e pyast.Expr) bool {
	if isDisplay(e) {
		return true
	}
	if c, ok := e.(*pyast.Call); ok {
		if f, ok := c.Func.(*pyast.Name); ok {
			return slices.Contains(containerCalls, f.Id)
		}
	}
	return false
}

// containerOnly reports a name of s that only container values bind.
func (s *scope) containerOnly(name string) bool {
	n := s.containerBinds[name]
	return n > 0 && n == s.binds[name] && !s.notRange[name]
}

// markBoolLoop records a for loop's target: a bool when iter is a list
// of bools.
func (s *scope) markBoolLoop(target pyast.Expr, iter pyast.Expr) {
	if c, ok := iter.(*pyast.Call); ok && len(c.Keywords) == 0 {
		// for i, f in enumerate(flags), for a, b in zip(xs, flags): each
		// name of the tuple walks its list.
		if f, ok := c.Func.(*pyast.Name); ok {
			if t, ok := target.(*pyast.Tuple); ok {
				switch {
				case f.Id == "enumerate" && len(c.Args) == 1 && len(t.Elts) == 2:
					s.markBool(t.Elts[0], nil)
					s.markBoolList(t.Elts[0], nil)
					s.markBoolLoop(t.Elts[1], c.Args[0])
					return
				case f.Id == "zip" && len(c.Args) == len(t.Elts):
					for i, e := range t.Elts {
						s.markBoolLoop(e, c.Args[i])
					}
					return
				}
			}
		}
	}
	if c, ok := iter.(*pyast.Call); ok && len(c.Args) == 0 {
		// for v in d.values(), for k, v in d.items(): v is a value of d.
		if f, ok := c.Func.(*pyast.Attribute); ok {
			if t, ok := target.(*pyast.Tuple); ok && f.Attr == "items" && len(t.Elts) == 2 {
				target, iter = t.Elts[1], f.Value
			} else if f.Attr == "values" {
				iter = f.Value
			}
		}
	}
	n, ok := target.(*pyast.Name)
	if !ok {
		return
	}
	if it, ok := iter.(*pyast.Name); ok {
		if s.boolLoops == nil {
			s.boolLoops = map[string][]pyast.Expr{}
		}
		s.boolLoops[n.Id] = append(s.boolLoops[n.Id], it)
	} else {
		s.markBool(target, nil)
	}
	s.markBoolList(target, nil)
}

// markBoolList records what target, a name, is assigned: a list of bools
// (a display or comprehension of bools), an empty list, or anything else.
func (s *scope) markBoolList(target pyast.Expr, value pyast.Expr) {
	n, ok := target.(*pyast.Name)
	if !ok {
		return
	}
	funcs := s.module().boolFuncs
	switch v := value.(type) {
	case *pyast.List:
		all := true
		for _, e := range v.Elts {
			all = all && isBoolExpr(e, funcs)
		}
		if all && len(v.Elts) == 0 {
			return // ok = [] says nothing yet
		}
		if all {
			s.setBoolList(n.Id)
			return
		}
	case *pyast.ListComp:
		if isBoolExpr(v.Elt, funcs) {
			s.setBoolList(n.Id)
			return
		}
	case *pyast.Dict:
		// A dict whose values are bools holds them as a list does.
		all := true
		for i, e := range v.Values {
			all = all && v.Keys[i] != nil && isBoolExpr(e, funcs)
		}
		if all && len(v.Values) == 0 {
			return
		}
		if all {
			s.setBoolList(n.Id)
			return
		}
	case *pyast.DictComp:
		if isBoolExpr(v.Value, funcs) {
			s.setBoolList(n.Id)
			return
		}
	}
	if s.notBoolList == nil {
		s.notBoolList = map[string]bool{}
	}
	s.notBoolList[n.Id] = true
}

func (s *scope) setBoolList(name string) {
	if s.boolList == nil {
		s.boolList = map[string]bool{}
	}
	s.boolList[name] = true
}

// markAppend records name.append(x) (or any other method call that adds
// to name): a list of bools keeps being one when x is a bool.
func (s *scope) markAppend(call *pyast.Call) {
	f, ok := call.Func.(*pyast.Attribute)
	if !ok {
		return
	}
	n, ok := f.Value.(*pyast.Name)
	if !ok {
		return
	}
	switch f.Attr {
	case "append":
		if len(call.Args) == 1 && isBoolExpr(call.Args[0], s.module().boolFuncs) {
			s.owner(n.Id).orSelf(s).setBoolList(n.Id)
			return
		}
	case "extend", "insert", "__setitem__":
	default:
		return
	}
	o := s.owner(n.Id).orSelf(s)
	if o.notBoolList == nil {
		o.notBoolList = map[string]bool{}
	}
	o.notBoolList[n.Id] = true
}

// markItem records `name[k] = value`: a list or dict of bools stays
// one when value is a bool.
func (s *scope) markItem(target pyast.Expr, value pyast.Expr) {
	sub, ok := target.(*pyast.Subscript)
	if !ok {
		return
	}
	n, ok := sub.Value.(*pyast.Name)
	if !ok {
		return
	}
	o := s.owner(n.Id).orSelf(s)
	if isBoolExpr(value, s.module().boolFuncs) {
		o.setBoolList(n.Id)
		return
	}
	if o.notBoolList == nil {
		o.notBoolList = map[string]bool{}
	}
	o.notBoolList[n.Id] = true
}

// orSelf is s, or other when s is nil.
func (s *scope) orSelf(other *scope) *scope {
	if s == nil {
		return other
	}
	return s
}

// findBoolFuncs returns the names of the functions of body (at any depth)
// that return bools: annotated `-> bool`, or with a return of a
// comparison, `not`, True or False, or a call of such a function.
// count += is_valid(x) then counts, as in Python.
func findBoolFuncs(defs []*pyast.FunctionDef) map[string]bool {
	funcs := map[string]bool{}
	for round := 0; round < 4; round++ {
		changed := false
		for _, d := range defs {
			if funcs[d.Name.Id] {
				continue
			}
			if r, ok := d.Returns.(*pyast.Name); ok && r.Id == "bool" || returnsBool(d.Body, funcs) {
				funcs[d.Name.Id] = true
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	return funcs
}

// allDefs are the defs of body, at any depth.
func allDefs(body []pyast.Stmt) []*pyast.FunctionDef {
	var defs []*pyast.FunctionDef
	var collect func(list []pyast.Stmt)
	collect = func(list []pyast.Stmt) {
		for _, st := range list {
			forBodies(st, func(b []pyast.Stmt) { collect(b) })
			if d, ok := st.(*pyast.FunctionDef); ok {
				defs = append(defs, d)
			}
		}
	}
	collect(body)
	return defs
}

// positionalParams are the names of the parameters a def's positional
// arguments go to, by name of the def (nil for a name defined twice with
// other parameters).
func positionalParams(defs []*pyast.FunctionDef) map[string][]string {
	out := map[string][]string{}
	for _, d := range defs {
		var names []string
		if d.Args != nil {
			for _, p := range append(append([]*pyast.Arg{}, d.Args.PosOnly...), d.Args.Args...) {
				names = append(names, p.Name)
			}
		}
		if prev, ok := out[d.Name.Id]; ok && strings.Join(prev, ",") != strings.Join(names, ",") {
			names = nil
		}
		out[d.Name.Id] = names
	}
	return out
}

// argRef is an argument of a call, in the scope of the call.
type argRef struct {
	scope *scope
	expr  pyast.Expr
}

// markBoolArgs records the parameters of the program's function that a
// call passes a bool, plainly (f(x > 0), f(flag=True)).
func (s *scope) markBoolArgs(call *pyast.Call) {
	f, ok := call.Func.(*pyast.Name)
	if !ok {
		return
	}
	m := s.module()
	params, ok := m.defParams[f.Id]
	if !ok {
		return
	}
	mark := func(name string) {
		if m.boolArgs == nil {
			m.boolArgs = map[string]map[string]bool{}
		}
		if m.boolArgs[f.Id] == nil {
			m.boolArgs[f.Id] = map[string]bool{}
		}
		m.boolArgs[f.Id][name] = true
	}
	check := func(name string, arg pyast.Expr) {
		switch arg.(type) {
		case *pyast.Name, *pyast.Subscript:
			if m.argRefs == nil {
				m.argRefs = map[string]map[string][]argRef{}
			}
			if m.argRefs[f.Id] == nil {
				m.argRefs[f.Id] = map[string][]argRef{}
			}
			m.argRefs[f.Id][name] = append(m.argRefs[f.Id][name], argRef{s, arg})
			return
		}
		if isBoolExpr(arg, m.boolFuncs) {
			mark(name)
		}
	}
	for i, arg := range call.Args {
		if _, star := arg.(*pyast.Starred); star || i >= len(params) {
			break
		}
		check(params[i], arg)
	}
	for _, k := range call.Keywords {
		if k.Arg != "" {
			check(k.Arg, k.Value)
		}
	}
}

// returnsBool reports whether a return statement of body (not of a
// nested function) returns a bool.
func returnsBool(body []pyast.Stmt, funcs map[string]bool) bool {
	found := false
	var walk func(list []pyast.Stmt)
	walk = func(list []pyast.Stmt) {
		for _, st := range list {
			switch st := st.(type) {
			case *pyast.Return:
				if st.Value != nil && isBoolExpr(st.Value, funcs) {
					found = true
				}
			case *pyast.FunctionDef:
				continue
			}
			forBodies(st, walk)
		}
	}
	walk(body)
	return found
}

// forBodies calls fn with each block of statements st holds.
func forBodies(st pyast.Stmt, fn func([]pyast.Stmt)) {
	switch st := st.(type) {
	case *pyast.FunctionDef:
		fn(st.Body)
	case *pyast.If:
		fn(st.Body)
		fn(st.Orelse)
	case *pyast.For:
		fn(st.Body)
		fn(st.Orelse)
	case *pyast.While:
		fn(st.Body)
		fn(st.Orelse)
	case *pyast.With:
		fn(st.Body)
	case *pyast.Try:
		fn(st.Body)
		for _, h := range st.Handlers {
			fn(h.Body)
		}
		fn(st.Orelse)
		fn(st.Finalbody)
	case *pyast.Match:
		for _, c := range st.Cases {
			fn(c.Body)
		}
	}
}

// markText records that name is assigned a str in s when value surely
// is one, and a set when it surely is one.
func (s *scope) markText(target pyast.Expr, value pyast.Expr) {
	n, ok := target.(*pyast.Name)
	if ok && surelyContainer(value) {
		if s.containerBinds == nil {
			s.containerBinds = map[string]int{}
		}
		s.containerBinds[n.Id]++
	}
	switch {
	case !ok:
	case surelyText(value):
		if s.text == nil {
			s.text = map[string]bool{}
		}
		s.text[n.Id] = true
	case surelySet(value):
		if s.sets == nil {
			s.sets = map[string]bool{}
		}
		s.sets[n.Id] = true
	case surelyNumber(value):
		if s.nums == nil {
			s.nums = map[string]bool{}
		}
		s.nums[n.Id] = true
	}
}

type need struct {
	name string
	pos  syntax.Position
	why  string // "try", ":=", "del"
}

func newScope(kind scopeKind, parent *scope) *scope {
	return &scope{kind: kind, parent: parent}
}

func (s *scope) bind(name string) {
	if s.bound == nil {
		s.bound = map[string]bool{}
		s.binds = map[string]int{}
	}
	if !s.bound[name] {
		s.order = append(s.order, name)
	}
	s.bound[name] = true
	s.binds[name]++
}

// markRange records a for loop's target over range(…).
func (s *scope) markRange(target pyast.Expr, iter pyast.Expr) {
	n, ok := target.(*pyast.Name)
	if !ok || !isRangeCall(iter) {
		return
	}
	if s.rangeBinds == nil {
		s.rangeBinds = map[string]int{}
	}
	s.rangeBinds[n.Id]++
}

func isRangeCall(e pyast.Expr) bool {
	c, ok := e.(*pyast.Call)
	if !ok || len(c.Keywords) > 0 {
		return false
	}
	f, ok := c.Func.(*pyast.Name)
	return ok && f.Id == "range"
}

// rangeOnly reports a name of s that only for loops over range(…) bind.
func (s *scope) rangeOnly(name string) bool {
	n := s.rangeBinds[name]
	return n > 0 && n == s.binds[name] && !s.notRange[name]
}

func (s *scope) markNotRange(name string) {
	if s.notRange == nil {
		s.notRange = map[string]bool{}
	}
	s.notRange[name] = true
}

func (s *scope) addCell(name string) {
	if s.cells == nil {
		s.cells = map[string]bool{}
	}
	if !s.cells[name] {
		s.cells[name] = true
		s.cellOrder = append(s.cellOrder, name)
	}
}

// function returns the nearest scope that is not a comprehension: where
// := binds.
func (s *scope) function() *scope {
	for s.kind == compScope {
		s = s.parent
	}
	return s
}

func (s *scope) module() *scope {
	for s.parent != nil {
		s = s.parent
	}
	return s
}

// owner returns the scope whose variable name is, as seen from s, or nil
// for a builtin (or undefined) name.
func (s *scope) owner(name string) *scope {
	for sc := s; sc != nil; sc = sc.parent {
		if sc.kind == classScope && sc != s {
			continue // a class body's names are not its functions'
		}
		switch {
		case sc.global[name]:
			return sc.module()
		case sc.nonlocal[name]:
			return sc.parent.enclosing(name)
		case sc.bound[name]:
			return sc
		}
	}
	// A module variable that only functions bind (global x in them) is
	// still the module's cell wherever it is read.
	if m := s.module(); m.cells[name] {
		return m
	}
	return nil
}

// enclosing returns the nearest function scope from s outwards that binds
// name, as nonlocal resolves, or nil.
func (s *scope) enclosing(name string) *scope {
	for sc := s; sc != nil && sc.kind != moduleScope; sc = sc.parent {
		switch {
		case sc.global[name]:
			return nil
		case sc.nonlocal[name]:
			return sc.parent.enclosing(name)
		case sc.bound[name] && sc.kind == funcScope:
			return sc
		}
	}
	return nil
}

// isCell reports whether name, as seen from s, is held in a cell.
func (s *scope) isCell(name string) bool {
	o := s.owner(name)
	return o != nil && o.cells[name]
}

// scopes is the result of analyze: the scope of every node that has one.
type scopes struct {
	module *scope
	of     map[pyast.Node]*scope
}

// analyze finds the scopes of m and the names held in cells; cells are
// module variables already held in cells (a session's). Its errors are
// those CPython reports when it compiles: a nonlocal with no binding, a
// name both global and assigned before.
func analyze(m *pyast.Module, cells []string) (*scopes, error) {
	a := &analyzer{sc: &scopes{module: newScope(moduleScope, nil), of: map[pyast.Node]*scope{}}}
	defs := allDefs(m.Body)
	a.sc.module.boolFuncs = findBoolFuncs(defs)
	a.sc.module.defParams = positionalParams(defs)
	a.all = append(a.all, a.sc.module)
	a.stmts(a.sc.module, m.Body, false)
	if a.err != nil {
		return nil, a.err
	}
	for _, name := range cells {
		a.sc.module.addCell(name)
	}
	for _, s := range a.all {
		if err := a.decide(s); err != nil {
			return nil, err
		}
	}
	return a.sc, nil
}

type analyzer struct {
	sc       *scopes
	all      []*scope // every scope, the module first
	declared map[*scope]map[string]syntax.Position
	err      error
}

func (a *analyzer) fail(pos syntax.Position, msg string) {
	if a.err == nil {
		a.err = syntax.Error{Pos: pos, Msg: msg}
	}
}

// decide turns the needs of s into cells of their owners.
func (a *analyzer) decide(s *scope) error {
	for name := range s.global {
		s.module().addCell(name)
	}
	for name := range s.nonlocal {
		o := s.parent.enclosing(name)
		if o == nil {
			return syntax.Error{Pos: a.declPos(s, name), Msg: "no binding for nonlocal '" + name + "' found"}
		}
		o.addCell(name)
	}
	for _, n := range s.needs {
		o := s.owner(n.name)
		if o == nil {
			o = s.function()
		}
		if o.lambda {
			return syntax.Error{Pos: n.pos, Msg: "':=' inside a lambda is not supported; use a def"}
		}
		o.addCell(n.name)
	}
	return nil
}

// declPos is where a nonlocal declaration of name is, for its error.
func (a *analyzer) declPos(s *scope, name string) syntax.Position {
	if p, ok := a.declared[s][name]; ok {
		return p
	}
	return syntax.Position{}
}

func (a *analyzer) enter(kind scopeKind, parent *scope, n pyast.Node) *scope {
	s := newScope(kind, parent)
	a.sc.of[n] = s
	a.all = append(a.all, s)
	return s
}

// bindTarget records the names an assignment target binds in s; inTry
// says the assignment is in a part of a try statement.
func (a *analyzer) bindTarget(s *scope, t pyast.Expr, inTry bool) {
	switch t := t.(type) {
	case *pyast.Name:
		a.bindName(s, t.Id, t.NamePos, inTry, "try")
	case *pyast.Tuple:
		for _, e := range t.Elts {
			a.bindTarget(s, e, inTry)
		}
	case *pyast.List:
		for _, e := range t.Elts {
			a.bindTarget(s, e, inTry)
		}
	case *pyast.Starred:
		a.bindTarget(s, t.Value, inTry)
	default:
		a.expr(s, t) // a[i], a.b: their parts are read
	}
}

func (a *analyzer) bindName(s *scope, name string, pos syntax.Position, inTry bool, why string) {
	if !s.global[name] && !s.nonlocal[name] {
		s.bind(name)
	}
	if inTry {
		s.needs = append(s.needs, need{name: name, pos: pos, why: why})
	}
}

func (a *analyzer) stmts(s *scope, list []pyast.Stmt, inTry bool) {
	for _, st := range list {
		a.stmt(s, st, inTry)
	}
}

func (a *analyzer) stmt(s *scope, st pyast.Stmt, inTry bool) {
	switch st := st.(type) {
	case *pyast.FunctionDef:
		for _, d := range st.Decorators {
			a.expr(s, d)
		}
		a.defaults(s, st.Args)
		a.annotations(s, st)
		a.bindName(s, st.Name.Id, st.Name.NamePos, inTry, "try")
		fs := a.enter(funcScope, s, st)
		fs.defName = st.Name.Id
		fs.async = st.Async
		a.params(fs, st.Args)
		a.stmts(fs, st.Body, false)
	case *pyast.ClassDef:
		for _, d := range st.Decorators {
			a.expr(s, d)
		}
		for _, b := range st.Bases {
			a.expr(s, b)
		}
		for _, k := range st.Keywords {
			a.expr(s, k.Value)
		}
		a.bindName(s, st.Name.Id, st.Name.NamePos, inTry, "try")
		cs := a.enter(classScope, s, st)
		cs.defName = st.Name.Id
		a.stmts(cs, st.Body, false)
	case *pyast.Return:
		a.expr(s, st.Value)
	case *pyast.Delete:
		for _, t := range st.Targets {
			if n, ok := t.(*pyast.Name); ok {
				a.bindName(s, n.Id, n.NamePos, true, "del")
				continue
			}
			a.bindTarget(s, t, inTry)
		}
	case *pyast.Assign:
		a.expr(s, st.Value)
		for _, t := range st.Targets {
			a.bindTarget(s, t, inTry)
			s.markText(t, st.Value)
			s.markBool(t, st.Value)
			s.markBoolList(t, st.Value)
			s.markItem(t, st.Value)
		}
	case *pyast.AugAssign:
		a.expr(s, st.Value)
		a.bindTarget(s, st.Target, inTry)
		s.markBool(st.Target, nil)
		s.markBoolList(st.Target, nil)
	case *pyast.AnnAssign:
		if st.Value != nil {
			a.expr(s, st.Value)
			a.bindTarget(s, st.Target, inTry)
			s.markText(st.Target, st.Value)
			s.markBool(st.Target, st.Value)
			s.markBoolList(st.Target, st.Value)
		}
	case *pyast.For:
		a.expr(s, st.Iter)
		a.bindTarget(s, st.Target, inTry)
		s.markBoolLoop(st.Target, st.Iter)
		s.markRange(st.Target, st.Iter)
		a.stmts(s, st.Body, inTry)
		a.stmts(s, st.Orelse, inTry)
	case *pyast.Match:
		a.expr(s, st.Subject)
		for _, c := range st.Cases {
			a.pattern(s, c.Pattern, inTry)
			a.expr(s, c.Guard)
			a.stmts(s, c.Body, inTry)
		}
	case *pyast.While:
		a.expr(s, st.Test)
		a.stmts(s, st.Body, inTry)
		a.stmts(s, st.Orelse, inTry)
	case *pyast.If:
		a.expr(s, st.Test)
		a.stmts(s, st.Body, inTry)
		a.stmts(s, st.Orelse, inTry)
	case *pyast.With:
		// The target and the body are in a part (lower_with.go).
		for _, it := range st.Items {
			a.expr(s, it.Context)
			if it.Vars != nil {
				a.bindTarget(s, it.Vars, true)
			}
		}
		a.stmts(s, st.Body, true)
	case *pyast.Raise:
		a.expr(s, st.Exc)
		a.expr(s, st.Cause)
	case *pyast.Try:
		a.stmts(s, st.Body, true)
		for _, h := range st.Handlers {
			a.expr(s, h.Type)
			// The exception's name is the handler's parameter, not a
			// variable of s (Python deletes it when the handler ends).
			a.stmts(s, h.Body, true)
		}
		a.stmts(s, st.Orelse, true)
		a.stmts(s, st.Finalbody, true)
	case *pyast.Assert:
		a.expr(s, st.Test)
		a.expr(s, st.Msg)
	case *pyast.Import:
		for _, al := range st.Names {
			name := al.AsName
			if name == "" {
				name = al.Name
				if i := indexDot(name); i >= 0 {
					name = name[:i]
				}
			}
			a.bindName(s, name, al.NamePos, inTry, "try")
		}
	case *pyast.ImportFrom:
		for _, al := range st.Names {
			name := al.AsName
			if name == "" {
				name = al.Name
			}
			if name != "*" {
				a.bindName(s, name, al.NamePos, inTry, "try")
			}
		}
	case *pyast.Global:
		if s.kind == moduleScope {
			return // a no-op at module level
		}
		for _, n := range st.Names {
			if s.bound[n.Id] {
				a.fail(n.NamePos, "name '"+n.Id+"' is assigned to before global declaration")
			}
			if s.global == nil {
				s.global = map[string]bool{}
			}
			s.global[n.Id] = true
			s.module().markNotRange(n.Id)
		}
	case *pyast.Nonlocal:
		if s.kind == moduleScope {
			a.fail(st.Nonlocal, "nonlocal declaration not allowed at module level")
			return
		}
		for _, n := range st.Names {
			if s.bound[n.Id] {
				a.fail(n.NamePos, "name '"+n.Id+"' is assigned to before nonlocal declaration")
			}
			if s.nonlocal == nil {
				s.nonlocal = map[string]bool{}
			}
			s.nonlocal[n.Id] = true
			for o := s.parent; o != nil && o.kind != moduleScope; o = o.parent {
				o.markNotRange(n.Id) // whichever encloses it: all, to be safe
			}
			if a.declared == nil {
				a.declared = map[*scope]map[string]syntax.Position{}
			}
			if a.declared[s] == nil {
				a.declared[s] = map[string]syntax.Position{}
			}
			a.declared[s][n.Id] = n.NamePos
		}
	case *pyast.ExprStmt:
		a.expr(s, st.Value)
		if c, ok := st.Value.(*pyast.Call); ok {
			s.markAppend(c)
		}
	}
}

// pattern visits a case's pattern: the names it captures are bound in
// s, the values and classes it names are read.
func (a *analyzer) pattern(s *scope, p pyast.Pattern, inTry bool) {
	bind := func(name string, pos syntax.Position) {
		if name != "" {
			a.bindName(s, name, pos, inTry, "try")
			s.markBool(&pyast.Name{NamePos: pos, Id: name}, nil)
		}
	}
	switch p := p.(type) {
	case *pyast.MatchValue:
		a.expr(s, p.Value)
	case *pyast.MatchSequence:
		for _, q := range p.Patterns {
			a.pattern(s, q, inTry)
		}
	case *pyast.MatchStar:
		bind(p.Name, p.Pos())
	case *pyast.MatchMapping:
		a.exprs(s, p.Keys)
		for _, q := range p.Patterns {
			a.pattern(s, q, inTry)
		}
		bind(p.Rest, p.End())
	case *pyast.MatchClass:
		a.expr(s, p.Cls)
		for _, q := range p.Patterns {
			a.pattern(s, q, inTry)
		}
		for _, q := range p.KwdPatterns {
			a.pattern(s, q, inTry)
		}
	case *pyast.MatchAs:
		if p.Pattern != nil {
			a.pattern(s, p.Pattern, inTry)
		}
		bind(p.Name, p.Pos())
	case *pyast.MatchOr:
		for _, q := range p.Patterns {
			a.pattern(s, q, inTry)
		}
	}
}

func indexDot(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			return i
		}
	}
	return -1
}

// defaults visits the default values of a def or lambda, which are
// evaluated in the enclosing scope s.
func (a *analyzer) defaults(s *scope, args *pyast.Arguments) {
	if args == nil {
		return
	}
	for _, d := range args.Defaults {
		a.expr(s, d)
	}
	for _, d := range args.KwDefaults {
		a.expr(s, d)
	}
}

// annotations reads the annotations of a def, which are evaluated where
// the def is, as its defaults (when the def is made a Function, see
// lower_decorator.go).
func (a *analyzer) annotations(s *scope, st *pyast.FunctionDef) {
	a.expr(s, st.Returns)
	if st.Args == nil {
		return
	}
	for _, list := range [][]*pyast.Arg{st.Args.PosOnly, st.Args.Args, st.Args.KwOnly, {st.Args.Vararg, st.Args.Kwarg}} {
		for _, p := range list {
			if p != nil && p.Annotation != nil {
				a.expr(s, p.Annotation)
			}
		}
	}
}

func (a *analyzer) params(s *scope, args *pyast.Arguments) {
	if args == nil {
		return
	}
	for _, list := range [][]*pyast.Arg{args.PosOnly, args.Args, args.KwOnly} {
		for _, p := range list {
			s.bind(p.Name)
			if s.params == nil {
				s.params = map[string]bool{}
			}
			s.params[p.Name] = true
			if t, ok := p.Annotation.(*pyast.Name); ok && t.Id == "bool" {
				if s.boolParams == nil {
					s.boolParams = map[string]bool{}
				}
				s.boolParams[p.Name] = true
			}
		}
	}
	if args.Vararg != nil {
		s.bind(args.Vararg.Name)
	}
	if args.Kwarg != nil {
		s.bind(args.Kwarg.Name)
	}
}

func (a *analyzer) exprs(s *scope, list []pyast.Expr) {
	for _, e := range list {
		a.expr(s, e)
	}
}

func (a *analyzer) expr(s *scope, e pyast.Expr) {
	switch e := e.(type) {
	case nil, *pyast.Name, *pyast.Constant:
	case *pyast.BoolOp:
		a.exprs(s, e.Values)
	case *pyast.NamedExpr:
		a.expr(s, e.Value)
		f := s.function()
		if !f.global[e.Target.Id] && !f.nonlocal[e.Target.Id] {
			f.bind(e.Target.Id)
		}
		f.needs = append(f.needs, need{name: e.Target.Id, pos: e.Target.NamePos, why: ":="})
	case *pyast.BinOp:
		a.expr(s, e.Left)
		a.expr(s, e.Right)
	case *pyast.UnaryOp:
		a.expr(s, e.Operand)
	case *pyast.Lambda:
		a.defaults(s, e.Args)
		ls := a.enter(funcScope, s, e)
		ls.lambda = true
		a.params(ls, e.Args)
		a.expr(ls, e.Body)
	case *pyast.IfExp:
		a.expr(s, e.Test)
		a.expr(s, e.Body)
		a.expr(s, e.Orelse)
	case *pyast.Dict:
		a.exprs(s, e.Keys)
		a.exprs(s, e.Values)
	case *pyast.Set:
		a.exprs(s, e.Elts)
	case *pyast.ListComp:
		a.comp(s, e, e.Generators, e.Elt)
	case *pyast.SetComp:
		a.comp(s, e, e.Generators, e.Elt)
	case *pyast.GeneratorExp:
		a.comp(s, e, e.Generators, e.Elt)
	case *pyast.DictComp:
		a.comp(s, e, e.Generators, e.Key, e.Value)
	case *pyast.Await:
		a.await(s, e)
		a.expr(s, e.Value)
	case *pyast.Yield:
		a.yield(s, e)
		a.expr(s, e.Value)
	case *pyast.Compare:
		a.expr(s, e.Left)
		a.exprs(s, e.Comparators)
	case *pyast.Call:
		s.markBoolArgs(e)
		a.expr(s, e.Func)
		a.exprs(s, e.Args)
		for _, k := range e.Keywords {
			a.expr(s, k.Value)
		}
	case *pyast.FormattedValue:
		a.expr(s, e.Value)
		if e.FormatSpec != nil {
			a.expr(s, e.FormatSpec)
		}
	case *pyast.JoinedStr:
		a.exprs(s, e.Values)
	case *pyast.Attribute:
		a.expr(s, e.Value)
	case *pyast.Subscript:
		a.expr(s, e.Value)
		a.expr(s, e.Index)
	case *pyast.Starred:
		a.expr(s, e.Value)
	case *pyast.List:
		a.exprs(s, e.Elts)
	case *pyast.Tuple:
		a.exprs(s, e.Elts)
	case *pyast.Slice:
		a.expr(s, e.Lower)
		a.expr(s, e.Upper)
		a.expr(s, e.Step)
	}
}

// comp visits a comprehension: the first iterable belongs to s, the rest
// to the comprehension's own scope.
func (a *analyzer) comp(s *scope, n pyast.Expr, gens []*pyast.Comprehension, elts ...pyast.Expr) {
	cs := a.enter(compScope, s, n)
	for i, g := range gens {
		if i == 0 {
			a.expr(s, g.Iter)
		} else {
			a.expr(cs, g.Iter)
		}
		a.bindTarget(cs, g.Target, false)
		cs.markRange(g.Target, g.Iter)
		cs.markBoolLoop(g.Target, g.Iter)
		a.exprs(cs, g.Ifs)
	}
	a.exprs(cs, elts)
}

// yield marks the def whose body holds e a generator function, and
// refuses a yield where CPython does.
func (a *analyzer) yield(s *scope, e *pyast.Yield) {
	switch {
	case s.kind == funcScope:
		if s.async && e.From {
			a.fail(e.Yield, "'yield from' inside async function")
		}
		s.generator = true
	case s.kind == compScope:
		a.fail(e.Yield, "'yield' inside a comprehension")
	default:
		a.fail(e.Yield, "'yield' outside function")
	}
}

// await checks that e is inside an async def, or at the top level of the
// program (as `python -m asyncio` and notebooks allow: see
// lowerer.topAwait), or in a comprehension of either.
func (a *analyzer) await(s *scope, e *pyast.Await) {
	f := s
	for f.kind == compScope {
		f = f.parent
	}
	switch {
	case f.kind == funcScope && f.async && !f.lambda:
	case f.kind == moduleScope:
		f.awaits = true
	default:
		a.fail(e.Await, "'await' outside async function")
	}
}
