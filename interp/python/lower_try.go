package python

import (
	"strconv"

	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp/lowered"
	"github.com/onetool-dev/onetool/interp/python/pyast"
)

// try, raise and assert. A try statement
//
//	try:
//	    body
//	except ValueError as e:
//	    handler
//	finally:
//	    final
//
// becomes functions of the enclosing scope, defined once at the start of
// the enclosing function (or module), and a call at the statement's place:
//
//	def __ot_try1(): body
//	def __ot_try1_h0(__ot_e2): e = __ot_e2; handler
//	def __ot_try1_fin(): final
//	…
//	__ot_r = __ot_try(__ot_try1, (ValueError, __ot_try1_h0), None, __ot_try1_fin)
//	if __ot_r != None: …   # only when a part returns, breaks or continues
//
// Names the parts assign live in cells (scope.go), so that they are the
// enclosing scope's. A return, break or continue that leaves a part
// returns a control code instead (see try.go), and the code after the
// call does what it says.

const resultVar = "__ot_r"

func (l *lowerer) try(out []syntax.Stmt, st *pyast.Try) []syntax.Stmt {
	pos := st.Try
	base := l.temp("try")
	var codes [4]bool
	part := func(name, param string, as *pyast.Name, stmts []pyast.Stmt, at syntax.Position) syntax.Expr {
		def := l.part(name, param, as, stmts, at, &codes)
		l.fn.defs = append(l.fn.defs, def)
		return ident(at, name)
	}
	body := part(base, "", nil, st.Body, pos)
	var handlers []syntax.Expr
	for i, h := range st.Handlers {
		var class syntax.Expr = noneAt(h.Except)
		if h.Type != nil {
			class = l.expr(h.Type)
		}
		handlers = append(handlers, class, part(base+"_h"+strconv.Itoa(i), l.temp("e"), h.Name, h.Body, h.Except))
	}
	var orelse, final syntax.Expr = noneAt(pos), noneAt(pos)
	if len(st.Orelse) > 0 {
		orelse = part(base+"_else", "", nil, st.Orelse, st.Orelse[0].Pos())
	}
	if len(st.Finalbody) > 0 {
		final = part(base+"_fin", "", nil, st.Finalbody, st.Finalbody[0].Pos())
	}
	call := callAt(pos, "__ot_try", body, tuple(pos, handlers...), orelse, final)
	if !codes[lowered.Return] && !codes[lowered.Break] && !codes[lowered.Continue] {
		return append(out, exprStmt(call))
	}
	out = append(out, assignStmt(pos, ident(pos, resultVar), call))
	return append(out, ifStmt(pos, binary(pos, syntax.NEQ, ident(pos, resultVar), noneAt(pos)), l.dispatch(pos, codes), nil))
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

// part lowers one part of a try statement to a def of the current
// function. param names the handler's parameter (the exception), "" for
// the other parts; as is the name of `except E as name`, or nil.
func (l *lowerer) part(name, param string, as *pyast.Name, stmts []pyast.Stmt, pos syntax.Position, codes *[4]bool) syntax.Stmt {
	outer := len(l.fn.loops)
	if l.fn.kind == partFn {
		outer += l.fn.outerLoops
	}
	saved, savedHandler := l.fn, l.handlerVar
	l.fn = &fnCtx{kind: partFn, parent: saved, outerLoops: outer}
	var pre []syntax.Stmt
	var params []syntax.Expr
	if param != "" {
		params = []syntax.Expr{ident(pos, param)}
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
	return &syntax.DefStmt{Def: pos, Name: ident(pos, name), Lparen: pos, Params: params, Rparen: pos, Body: nonEmpty(pos, all)}
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
