package python

import (
	"errors"
	"strconv"
	"strings"

	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/lowered"
	"github.com/onetool-dev/onetool/interp/python/pyast"
)

// The front end (SPEC §2.7): Parse reads a program as Python (package
// pyast), finds its scopes (scope.go) and lowers it to the Starlark syntax
// tree that interp resolves and runs. Most of Python maps onto Starlark
// node for node; the rest becomes calls of this package's helpers (the
// __ot_ builtins) or small patterns of Starlark:
//
//	try/except/else/finally → a function of its parts and __ot_try lower_try.go
//	with m as x: body       → a function for the body and __ot_with lower_with.go
//	raise X from Y          → __ot_raise(X, Y)
//	f"{x:>{w}}"             → __ot_f(("", x, "", __ot_f(…), ""))
//	x ** y, "…" % t, a * b  → __ot_pow, __ot_mod, __ot_mul       lower_expr.go
//	for ch in s             → for ch in __ot_iter(s)
//	a < b < c               → a < b and b < c
//	first, *rest = xs       → first, rest = __ot_unpack(xs, 1, 0)
//	import json             → json = __ot_import("json")           lower_stmt.go
//	for … else, while … else → a flag
//	def g(a): …yield x…     → def g(a): def __ot_genbody(a): …__ot_yield(x)…
//	                           return __ot_generator(__ot_genbody, "g", a)
//	await x                 → __ot_await(x)
//	(f(x) for x in a for y in b) → __ot_genexp(lambda it: [0 for x in it …
//	                           if __ot_yieldv(f(x))], a)
//
// Every node the lowering makes carries the position of the Python it
// stands for, so that errors and backtraces point at the user's line.
// What onetool refuses (Refusals: relative and star imports) is an
// interp.HintedError saying what to write instead.

// Parse reads src as Python and lowers it to a Starlark syntax tree. It
// is an interp.Parser: the tree needs Builtins among the predeclared
// names. A program that is already Starlark reads the same.
func Parse(src string) (*syntax.File, error) {
	return ParseWithCells(src, nil)
}

// ParseWithCells is Parse for an input of a session whose variables cells
// are held in cells (interp.ModuleCell): the input reads and writes them
// through the cells, so that it sees what a function of an earlier input
// does to them at once. It is interp.Options.ParseWithCells.
func ParseWithCells(src string, cells []string) (*syntax.File, error) {
	m, err := pyast.Parse(interp.Filename, src)
	if err != nil {
		return nil, plainSyntaxError(sharper(src, err))
	}
	sc, err := analyze(m, cells)
	if err != nil {
		return nil, plainSyntaxError(err)
	}
	l := &lowerer{sc: sc, scope: sc.module, numbers: mayHoldNumbers(src), subclasses: mayHoldSubclasses(src), classes: mayHoldInstances(src, cells), src: src}
	l.fn = &fnCtx{kind: moduleFn}
	doc := l.moduleDoc(src, m, cells)
	body := l.block(m.Body)
	if l.err != nil {
		return nil, plainSyntaxError(l.err)
	}
	var pre []syntax.Stmt
	pre = append(pre, l.literals...)
	if len(m.Body) > 0 {
		pre = append(pre, l.cellInits(sc.module, m.Body[0].Pos(), nil)...)
	}
	pre = append(pre, l.fn.defs...)
	pre = append(pre, doc...)
	if sc.module.awaits && len(m.Body) > 0 {
		pre = append(pre, exprStmt(callAt(m.Body[0].Pos(), lowered.TopLevelAsync)))
	}
	f := &syntax.File{Path: interp.Filename, Options: interp.FileOptions()}
	if len(m.Body) > 0 {
		f.Stmts = append(pre, body...)
	}
	return f, nil
}

// mayHoldInstances reports a program that may hold instances of its
// classes: it has a class statement (or makes classes with a module), or
// it is an input of a session, whose earlier inputs may have. Its
// comparisons and `in` go through the helpers, which call the special
// methods whatever the other operand (the engine's own == gives False
// for values of two types without asking either).
func mayHoldInstances(src string, cells []string) bool {
	return cells != nil || strings.Contains(src, "class") || strings.Contains(src, "Enum") || strings.Contains(src, "NamedTuple")
}

// mayHoldNumbers reports a program that mentions decimal or fractions
// (Decimal, Fraction, their modules): one whose comparisons may meet
// their values.
func mayHoldNumbers(src string) bool {
	return strings.Contains(src, "ecimal") || strings.Contains(src, "raction")
}

// mayHoldSubclasses reports a program that mentions collections' dicts
// (Counter, defaultdict, OrderedDict) or namedtuple: one whose == may
// compare one with a dict or a tuple, which the engine takes for values
// of two types.
func mayHoldSubclasses(src string) bool {
	for _, name := range [...]string{"Counter", "defaultdict", "OrderedDict", "namedtuple"} {
		if strings.Contains(src, name) {
			return true
		}
	}
	return false
}

// moduleDoc is `__doc__ = <the module's docstring or None>`, for a
// program that mentions __doc__ (outside a session, whose inputs are
// not modules of their own).
func (l *lowerer) moduleDoc(src string, m *pyast.Module, cells []string) []syntax.Stmt {
	if cells != nil || len(m.Body) == 0 || !strings.Contains(src, "__doc__") {
		return nil
	}
	pos := m.Body[0].Pos()
	var doc syntax.Expr = noneAt(pos)
	if st, ok := m.Body[0].(*pyast.ExprStmt); ok {
		if c, ok := st.Value.(*pyast.Constant); ok {
			if _, ok := c.Value.(string); ok {
				doc = l.expr(c)
			}
		}
	}
	return []syntax.Stmt{assignStmt(pos, ident(pos, "__doc__"), doc)}
}

// plainSyntaxError gives a syntax error of the Python front end to interp
// as a HintedError, so that interp adds no hint of its own (its hints
// are for Starlark's parser, which takes Python for an error).
func plainSyntaxError(err error) error {
	var se syntax.Error
	if errors.As(err, &se) {
		return &interp.HintedError{Pos: se.Pos, Msg: se.Msg}
	}
	return err
}

// sharper replaces Python's bare "invalid syntax" by what Starlark's
// parser says about the same line, when it fails there too: "got ')',
// want expression" tells a model what is wrong.
func sharper(src string, err error) error {
	var se syntax.Error
	if !errors.As(err, &se) || se.Msg != "invalid syntax" {
		return err
	}
	_, serr := interp.ParseStarlark(src)
	var ss syntax.Error
	if errors.As(serr, &ss) && ss.Pos.Line == se.Pos.Line {
		return ss
	}
	return err
}

// lowerer holds the state of one lowering.
type lowerer struct {
	// asyncWith marks the with statement being lowered as `async with`.
	asyncWith bool
	sc        *scopes
	scope     *scope // the Python scope of what is being lowered
	fn        *fnCtx // the Starlark function being written
	// containerCallsBound caches bindsContainerCall: nil until asked.
	containerCallsBound *bool
	// handlerVar is the variable holding the exception of the innermost
	// handler around the code being lowered ("" outside any): what a
	// bare raise raises.
	handlerVar string
	// plain are the names that stand for a handler's parameter (except E
	// as e) in the handler being lowered, whatever they are elsewhere.
	plain map[*scope]map[string]int
	// literals are the assignments of hoisted text literals, put first in
	// the module (see text).
	literals []syntax.Stmt
	texts    map[string]string // hoisted literal → its variable
	n        int               // numbers the names the lowering makes up
	err      error
	// numbers is set for a program that may hold decimal.Decimal or
	// fractions.Fraction values (it names them): its comparisons all go
	// through the helpers, which compare those with ints and floats by
	// value, as the engine's == and < cannot.
	numbers bool
	// boolParams caches lowerer.boolParam, by function and parameter.
	boolParams map[string]bool
	// subclasses is set for a program that may hold a Counter,
	// defaultdict, OrderedDict or namedtuple value: its == and != go
	// through the helper (see mayHoldSubclasses), unless an operand is a
	// literal.
	subclasses bool
	// classes is set for a program that may hold instances of its
	// classes (see mayHoldInstances).
	classes bool
	// cls is the innermost class statement around the code being
	// lowered (nil outside any): private names are mangled with its name.
	cls *classCtx
	// selfParam is the first parameter of the method being lowered, for
	// super(); methodName its name, and selfRef whether its body reads
	// that name (see method).
	selfParam, methodName string
	selfRef               bool
	// src is the program's text; lines its lines once split (sourceOf).
	src   string
	lines []string
	// attrNames caches attrBases(src): nil until a def asks.
	attrNames map[string]bool
	wantsAll  uint8 // 0 unknown, 1 no, 2 every def is a Function
	// qualPrefix is what __qualname__ of a definition being lowered
	// starts with: "outer.<locals>." in a def, "C." in a class body.
	qualPrefix string
}

type fnKind uint8

const (
	moduleFn fnKind = iota
	defFn           // a def: the user's function
	partFn          // a part of a try statement
)

// fnCtx is a Starlark function being written: the module, a def, or a
// part of a try statement.
type fnCtx struct {
	kind   fnKind
	parent *fnCtx
	// loops are the loops open in this function, innermost last.
	loops []*loopCtx
	// outerLoops counts the loops open around a try part in the function
	// it belongs to: a break there leaves the part with a control code.
	outerLoops int
	// codes records which control codes a part returns (1 return, 2
	// break, 3 continue), so that only those are dispatched.
	codes [4]bool
	// defs are the functions of try parts, put at the start of the body:
	// defined once per call of the function, not once per iteration of a
	// loop the try statement is in.
	defs []syntax.Stmt
}

type loopCtx struct {
	elseFlag string // the variable an else clause tests, or ""
}

// fail records the first error of the lowering.
func (l *lowerer) fail(err error) {
	if l.err == nil {
		l.err = err
	}
}

func (l *lowerer) errorf(pos syntax.Position, msg string) {
	l.fail(syntax.Error{Pos: pos, Msg: msg})
}

// refuse records Python that onetool does not run, with its hint.
func (l *lowerer) refuse(pos syntax.Position, r refusal, module string) {
	about := r.about(module)
	l.fail(&interp.HintedError{Pos: pos, Msg: about.Message, Hint: about.Hint})
}

// temp returns a new name for a value the lowering keeps.
func (l *lowerer) temp(prefix string) string {
	l.n++
	return "__ot_" + prefix + strconv.Itoa(l.n)
}

// ---- Building Starlark nodes ----

func ident(pos syntax.Position, name string) *syntax.Ident {
	return &syntax.Ident{NamePos: pos, Name: name}
}

func strLit(pos syntax.Position, s string) *syntax.Literal {
	return &syntax.Literal{Token: syntax.STRING, TokenPos: pos, Raw: strconv.Quote(s), Value: s}
}

func intLit(pos syntax.Position, n int64) *syntax.Literal {
	return &syntax.Literal{Token: syntax.INT, TokenPos: pos, Raw: strconv.FormatInt(n, 10), Value: n}
}

func noneAt(pos syntax.Position) *syntax.Ident { return ident(pos, "None") }

// callAt is fn(args...) written at pos.
func callAt(pos syntax.Position, fn string, args ...syntax.Expr) *syntax.CallExpr {
	return &syntax.CallExpr{Fn: ident(pos, fn), Lparen: pos, Args: args, Rparen: pos}
}

func exprStmt(x syntax.Expr) *syntax.ExprStmt { return &syntax.ExprStmt{X: x} }

func assignStmt(pos syntax.Position, lhs, rhs syntax.Expr) *syntax.AssignStmt {
	return &syntax.AssignStmt{OpPos: pos, Op: syntax.EQ, LHS: lhs, RHS: rhs}
}

func tuple(pos syntax.Position, list ...syntax.Expr) *syntax.TupleExpr {
	return &syntax.TupleExpr{Lparen: pos, List: list, Rparen: pos}
}

func indexAt(pos syntax.Position, x syntax.Expr, i syntax.Expr) *syntax.IndexExpr {
	return &syntax.IndexExpr{X: x, Lbrack: pos, Y: i, Rbrack: pos}
}

func passAt(pos syntax.Position) *syntax.BranchStmt {
	return &syntax.BranchStmt{Token: syntax.PASS, TokenPos: pos}
}

func ifStmt(pos syntax.Position, cond syntax.Expr, body []syntax.Stmt, orelse []syntax.Stmt) *syntax.IfStmt {
	return &syntax.IfStmt{If: pos, Cond: cond, True: body, ElsePos: pos, False: orelse}
}

func binary(pos syntax.Position, op syntax.Token, x, y syntax.Expr) *syntax.BinaryExpr {
	return &syntax.BinaryExpr{X: x, OpPos: pos, Op: op, Y: y}
}

// nonEmpty gives an empty block the pass Starlark requires.
func nonEmpty(pos syntax.Position, list []syntax.Stmt) []syntax.Stmt {
	if len(list) == 0 {
		return []syntax.Stmt{passAt(pos)}
	}
	return list
}

// ---- Names ----

// cellVar is the variable holding the cell of name.
func cellVar(name string) string { return interp.CellPrefix + name }

// isPlain reports whether name, read or written from the current scope,
// is a handler's parameter.
func (l *lowerer) isPlain(name string) bool {
	for s := l.scope; s != nil; s = s.parent {
		if l.plain[s][name] > 0 {
			return true
		}
		if s.bound[name] || s.global[name] || s.nonlocal[name] {
			return false
		}
	}
	return false
}

// name is the expression that reads or writes the Python variable name.
func (l *lowerer) name(pos syntax.Position, name string) syntax.Expr {
	if !l.isPlain(name) && l.scope.isCell(name) {
		return indexAt(pos, ident(pos, cellVar(name)), intLit(pos, 0))
	}
	if l.scope.kind == classScope && l.scope.bound[name] {
		return ident(pos, classVar(name))
	}
	if name == l.methodName {
		if o := l.scope.owner(name); o == nil || o.kind == moduleScope {
			l.selfRef = true
		}
	}
	return ident(pos, name)
}

// cellInits are the statements that make the cells of scope s, at the
// start of its body: a parameter's cell holds the argument.
func (l *lowerer) cellInits(s *scope, pos syntax.Position, params map[string]bool) []syntax.Stmt {
	var out []syntax.Stmt
	for _, name := range s.cellOrder {
		var init syntax.Expr
		switch {
		case s.kind == moduleScope:
			init = callAt(pos, "__ot_cell", strLit(pos, name))
		case params[name]:
			init = callAt(pos, "__ot_cell", strLit(pos, name), ident(pos, name))
		default:
			init = callAt(pos, "__ot_lcell", strLit(pos, name))
		}
		out = append(out, assignStmt(pos, ident(pos, cellVar(name)), init))
	}
	return out
}
