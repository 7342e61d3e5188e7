package python

import (
	"strconv"
	"strings"
	"unicode"

	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp/lowered"
	"github.com/onetool-dev/onetool/interp/python/pyast"
)

// try, raise and assert. A try statement
//
//	try:
//	    body
//	except ValueError:
//	    handler
//	except KeyError as e:
//	    handler2
//	finally:
//	    final
//
// becomes one function of the enclosing scope, defined once at the start
// of the enclosing function (or module), whose first parameter says which
// part to run, and a call at the statement's place:
//
//	def __ot_try1(__ot_k, __ot_e2):
//	    if __ot_k == 0: body
//	    elif __ot_k == 2: final
//	    elif __ot_k == 3: return (ValueError, KeyError)   # one handler: its class alone
//	    elif __ot_k == 4: handler
//	    elif __ot_k == 5:
//	        def __ot_try1_h1(__ot_e3): e = __ot_e3; handler2
//	        return __ot_try1_h1(__ot_e2)
//	…
//	__ot_r = __ot_try(__ot_try1, 2*4 + 2)   # handlers*4 + else + 2*finally
//	if __ot_r != None: …   # only when a part returns, breaks or continues
//
// One function, not one per part, so that a call of the enclosing
// function makes one closure per try statement, and the classes of the
// handlers are only looked up when the body raises (as in Python). A
// handler that binds a name (except E as e) is a function of its own,
// made only when it runs: e is its own variable, which must not be the
// enclosing scope's e that the other parts may read.
//
// Names the parts assign live in cells (scope.go), so that they are the
// enclosing scope's. A return, break or continue that leaves a part
// returns a control code instead (see try.go), and the code after the
// call does what it says.

const resultVar = "__ot_r"

func (l *lowerer) try(out []syntax.Stmt, st *pyast.Try) []syntax.Stmt {
	pos := st.Try
	base := l.temp("try")
	const kVar = "__ot_k"
	eVar := l.temp("e")
	var codes [4]bool
	type branch struct {
		code  int
		stmts []syntax.Stmt
	}
	branches := []branch{{lowered.TryBody, l.partStmts("", nil, st.Body, pos, &codes)}}
	if len(st.Orelse) > 0 {
		branches = append(branches, branch{lowered.TryElse, l.partStmts("", nil, st.Orelse, st.Orelse[0].Pos(), &codes)})
	}
	if len(st.Finalbody) > 0 {
		branches = append(branches, branch{lowered.TryFinally, l.partStmts("", nil, st.Finalbody, st.Finalbody[0].Pos(), &codes)})
	}
	if len(st.Handlers) > 0 {
		branches = append(branches, branch{lowered.TryClasses, l.handlerClasses(st.Handlers, pos)})
	}
	for i, h := range st.Handlers {
		var stmts []syntax.Stmt
		if h.Name == nil || l.onlyInHandlers(st, h.Name.Id) {
			stmts = l.partStmts(eVar, h.Name, h.Body, h.Except, &codes)
		} else {
			name := base + "_h" + strconv.Itoa(i)
			def := l.part(name, l.temp("e"), h.Name, h.Body, h.Except, &codes)
			call := &syntax.CallExpr{Fn: ident(h.Except, name), Lparen: h.Except, Args: []syntax.Expr{ident(h.Except, eVar)}, Rparen: h.Except}
			stmts = []syntax.Stmt{def, &syntax.ReturnStmt{Return: h.Except, Result: call}}
		}
		branches = append(branches, branch{lowered.TryHandler + i, stmts})
	}
	var chain []syntax.Stmt
	for i := len(branches) - 1; i >= 0; i-- {
		b := branches[i]
		test := binary(pos, syntax.EQL, ident(pos, kVar), intLit(pos, int64(b.code)))
		chain = []syntax.Stmt{ifStmt(pos, test, b.stmts, chain)}
	}
	l.fn.defs = append(l.fn.defs, &syntax.DefStmt{Def: pos, Name: ident(pos, base), Lparen: pos,
		Params: []syntax.Expr{ident(pos, kVar), ident(pos, eVar)}, Rparen: pos, Body: chain})
	spec := 4 * len(st.Handlers)
	if len(st.Orelse) > 0 {
		spec |= lowered.TryHasElse
	}
	if len(st.Finalbody) > 0 {
		spec |= lowered.TryHasFinal
	}
	helper := "__ot_try"
	if st.Star {
		helper = lowered.TryStar
	}
	call := callAt(pos, helper, ident(pos, base), intLit(pos, int64(spec)))
	if !codes[lowered.Return] && !codes[lowered.Break] && !codes[lowered.Continue] {
		return append(out, exprStmt(call))
	}
	out = append(out, assignStmt(pos, ident(pos, resultVar), call))
	return append(out, ifStmt(pos, binary(pos, syntax.NEQ, ident(pos, resultVar), noneAt(pos)), l.dispatch(pos, codes), nil))
}

// onlyInHandlers reports whether name appears in the source of st only
// in handlers that bind it (except E as name), from the name on: then
// those handlers can bind it in the try statement's function, as no other
// part there reads a variable of that name of the enclosing scope. A
// mention in a string or a comment only costs a handler of its own.
func (l *lowerer) onlyInHandlers(st *pyast.Try, name string) bool {
	if l.lines == nil {
		l.lines = strings.Split(l.src, "\n")
	}
	before := func(a, b syntax.Position) bool { return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col }
	if st.Try.Line < 1 || st.EndPos.Line < st.Try.Line || int(st.EndPos.Line) > len(l.lines) {
		return false
	}
	for line := st.Try.Line; line <= st.EndPos.Line; line++ {
		text := []rune(l.lines[line-1])
		for col := 0; col+len(name) <= len(text); col++ {
			if string(text[col:col+len(name)]) != name || col > 0 && isWordRune(text[col-1]) ||
				col+len(name) < len(text) && isWordRune(text[col+len(name)]) {
				continue
			}
			at := syntax.Position{Line: line, Col: int32(col + 1)}
			inside := false
			for _, h := range st.Handlers {
				if h.Name != nil && h.Name.Id == name && !before(at, h.Name.NamePos) && before(at, h.EndPos) {
					inside = true
					break
				}
			}
			if !inside {
				return false
			}
		}
	}
	return true
}

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// handlerClasses is the part that returns the tuple of the handlers'
// classes (None for a bare except), evaluated when the body has raised.
func (l *lowerer) handlerClasses(handlers []*pyast.ExceptHandler, pos syntax.Position) []syntax.Stmt {
	saved := l.fn
	l.fn = &fnCtx{kind: partFn, parent: saved}
	var classes []syntax.Expr
	for _, h := range handlers {
		var class syntax.Expr = noneAt(h.Except)
		if h.Type != nil {
			class = l.expr(h.Type)
		}
		classes = append(classes, class)
	}
	defs := l.fn.defs
	l.fn = saved
	var result syntax.Expr = tuple(pos, classes...)
	if len(classes) == 1 {
		result = classes[0] // no tuple to build: try.go knows there is one
	}
	return append(defs, &syntax.ReturnStmt{Return: pos, Result: result})
}

// dispatch does what the control code in __ot_r says.
func (l *lowerer) dispatch(pos syntax.Position, codes [4]bool) []syntax.Stmt {
	code := func() syntax.Expr { return indexAt(pos, ident(pos, resultVar), intLit(pos, 0)) }
	var branches [][2]any // (code, statements)
	if codes[lowered.Return] {
		branches = append(branches, [2]any{lowered.Return, []syntax.Stmt{l.returnStmt(pos, indexAt(pos, ident(pos, resultVar), intLit(pos, 1)))}})
	}
	if codes[lowered.Break] {
		branches = append(branches, [2]any{lowered.Break, l.breakStmt(nil, pos)})
	}
	if codes[lowered.Continue] {
		branches = append(branches, [2]any{lowered.Continue, l.continueStmt(nil, pos)})
	}
	// The last branch needs no test: one of the codes it is.
	stmts := branches[len(branches)-1][1].([]syntax.Stmt)
	for i := len(branches) - 2; i >= 0; i-- {
		test := binary(pos, syntax.EQL, code(), intLit(pos, int64(branches[i][0].(int))))
		stmts = []syntax.Stmt{ifStmt(pos, test, branches[i][1].([]syntax.Stmt), stmts)}
	}
	return stmts
}

// part lowers one part of a try statement to a def named name. param
// names the handler's parameter (the exception), "" for the other parts;
// as is the name of `except E as name`, or nil.
func (l *lowerer) part(name, param string, as *pyast.Name, stmts []pyast.Stmt, pos syntax.Position, codes *[4]bool) syntax.Stmt {
	var params []syntax.Expr
	if param != "" {
		params = []syntax.Expr{ident(pos, param)}
	}
	body := l.partStmts(param, as, stmts, pos, codes)
	return &syntax.DefStmt{Def: pos, Name: ident(pos, name), Lparen: pos, Params: params, Rparen: pos, Body: body}
}

// partStmts lowers one part of a try statement to the statements of a
// function of the current one. param names the variable holding the
// exception in a handler, "" in the other parts; as is the name of
// `except E as name`, or nil.
func (l *lowerer) partStmts(param string, as *pyast.Name, stmts []pyast.Stmt, pos syntax.Position, codes *[4]bool) []syntax.Stmt {
	outer := len(l.fn.loops)
	if l.fn.kind == partFn {
		outer += l.fn.outerLoops
	}
	saved, savedHandler := l.fn, l.handlerVar
	l.fn = &fnCtx{kind: partFn, parent: saved, outerLoops: outer}
	var pre []syntax.Stmt
	if param != "" {
		l.handlerVar = param
		if as != nil {
			// except E as e: e is the handler's own variable.
			l.addPlain(as.Id, 1)
			defer l.addPlain(as.Id, -1)
			pre = append(pre, assignStmt(as.NamePos, ident(as.NamePos, as.Id), ident(as.NamePos, param)))
		}
	}
	body := l.block(stmts)
	fn := l.fn
	l.fn, l.handlerVar = saved, savedHandler
	for i, used := range fn.codes {
		codes[i] = codes[i] || used
	}
	all := append(append(fn.defs, pre...), body...)
	return nonEmpty(pos, all)
}

// addPlain counts a handler's parameter name in or out of the names that
// stand for themselves in the current scope.
func (l *lowerer) addPlain(name string, delta int) {
	if l.plain == nil {
		l.plain = map[*scope]map[string]int{}
	}
	m := l.plain[l.scope]
	if m == nil {
		m = map[string]int{}
		l.plain[l.scope] = m
	}
	m[name] += delta
}

// raise lowers raise X [from Y] to __ot_raise(X[, Y]); a bare raise
// raises the exception of the handler it is in.
func (l *lowerer) raise(st *pyast.Raise) syntax.Stmt {
	pos := st.Raise
	var args []syntax.Expr
	switch {
	case st.Exc != nil:
		args = append(args, l.expr(st.Exc))
		if st.Cause != nil {
			args = append(args, l.expr(st.Cause))
		}
	case l.handlerVar != "":
		args = append(args, ident(pos, l.handlerVar))
	}
	return exprStmt(callAt(pos, "__ot_raise", args...))
}

// assert lowers assert test, msg to if not test: __ot_assert(msg); the
// message is evaluated only when the test fails, as in Python.
func (l *lowerer) assert(st *pyast.Assert) syntax.Stmt {
	pos := st.Assert
	var msg syntax.Expr = noneAt(pos)
	if st.Msg != nil {
		msg = l.expr(st.Msg)
	}
	cond := &syntax.UnaryExpr{OpPos: pos, Op: syntax.NOT, X: l.expr(st.Test)}
	return ifStmt(pos, cond, []syntax.Stmt{exprStmt(callAt(pos, "__ot_assert", msg))}, nil)
}
