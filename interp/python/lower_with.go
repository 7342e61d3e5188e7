package python

import (
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp/lowered"
	"github.com/onetool-dev/onetool/interp/python/pyast"
)

// The with statement. Like a try statement (lower_try.go), its body
// becomes a function of the enclosing scope, defined once at the start of
// the enclosing function, and a helper (with.go) calls it between the
// manager's __enter__ and __exit__:
//
//	with open_it() as (a, b):
//	    body
//
// becomes
//
//	def __ot_with1(__ot_v2): a, b = __ot_v2; body
//	…
//	__ot_r = __ot_with(open_it(), __ot_with1)
//	if __ot_r != None: …   # only when the body returns, breaks or continues
//
// The target is assigned inside the part, as CPython assigns it after
// __enter__ inside the protected block (an assignment that fails reaches
// __exit__). The names the body and the target assign live in cells
// (scope.go), so that they are the enclosing scope's. `with a as x, b
// as y:` is `with a as x:` around `with b as y:`, as Python defines it:
// b is evaluated after x is bound.

// with lowers a with statement (async with is refused by stmt).
func (l *lowerer) with(out []syntax.Stmt, st *pyast.With) []syntax.Stmt {
	if len(st.Items) == 0 {
		l.errorf(st.With, "invalid syntax")
		return out
	}
	l.asyncWith = st.Async
	return l.withItems(out, st.With, st.Items, st.Body)
}

// withItems lowers `with items[0], items[1:]…: body` at pos.
func (l *lowerer) withItems(out []syntax.Stmt, pos syntax.Position, items []*pyast.WithItem, body []pyast.Stmt) []syntax.Stmt {
	item := items[0]
	mgr := l.expr(item.Context)
	async := l.asyncWith
	if async {
		// async with: a manager whose enter and exit await the
		// manager's __aenter__ and __aexit__.
		mgr = callAt(pos, lowered.AsyncWith, mgr)
	}
	if len(items) > 1 {
		// The next item is a with statement of its own inside this one.
		inner := &pyast.With{With: items[1].Context.Pos(), Items: items[1:], Body: body, Async: async}
		body = []pyast.Stmt{inner}
	}
	param := l.temp("v")
	if item.Vars != nil {
		bind := &pyast.Assign{Targets: []pyast.Expr{item.Vars}, Value: &pyast.Name{NamePos: item.Vars.Pos(), Id: param}}
		body = append([]pyast.Stmt{bind}, body...)
	}
	name := l.temp("with")
	var codes [4]bool
	l.fn.defs = append(l.fn.defs, l.withPart(name, param, body, pos, &codes))
	call := callAt(pos, "__ot_with", mgr, ident(pos, name))
	if !codes[lowered.Return] && !codes[lowered.Break] && !codes[lowered.Continue] {
		return append(out, exprStmt(call))
	}
	out = append(out, assignStmt(pos, ident(pos, resultVar), call))
	return append(out, ifStmt(pos, binary(pos, syntax.NEQ, ident(pos, resultVar), noneAt(pos)), l.dispatch(pos, codes), nil))
}

// withPart is lowerer.part for the body of a with statement: its
// parameter is what __enter__ returned, not an exception, so a bare
// raise inside still raises the exception of the handler around it.
func (l *lowerer) withPart(name, param string, stmts []pyast.Stmt, pos syntax.Position, codes *[4]bool) syntax.Stmt {
	outer := len(l.fn.loops)
	if l.fn.kind == partFn {
		outer += l.fn.outerLoops
	}
	saved := l.fn
	l.fn = &fnCtx{kind: partFn, parent: saved, outerLoops: outer}
	body := l.block(stmts)
	fn := l.fn
	l.fn = saved
	for i, used := range fn.codes {
		codes[i] = codes[i] || used
	}
	all := append(fn.defs, body...)
	params := []syntax.Expr{ident(pos, param)}
	return &syntax.DefStmt{Def: pos, Name: ident(pos, name), Lparen: pos, Params: params, Rparen: pos, Body: nonEmpty(pos, all)}
}
