package interp

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// How a result is captured (SPEC §2.3), done on the syntax tree so that
// every position stays the user's:
//
//   - Code without a top-level return: a final expression statement `e`
//     becomes `__ot_result__ = e`, read back from the globals.
//   - Code with a top-level return: all statements become the body of
//     `def __ot_main__(): ...` followed by `__ot_result__ = __ot_main__()`.
//     Each top-level `return x` becomes `return (x,)` and the body ends with
//     `return ()`, so an executed `return None` (a 1-tuple) is told apart
//     from falling off the end (an empty tuple: no value).
const (
	resultName = "__ot_result__"
	mainName   = "__ot_main__"
	tickName   = "__ot_tick__"
)

// markLoops gives every while loop an instruction that carries the loop's
// line. Starlark's loop jumps carry no position, so a budget that stops
// `while True: pass` would otherwise be reported at some earlier line. The
// condition `c` becomes `__ot_tick__ and c`, where __ot_tick__ is a global
// set to True by a statement added at the top: a global lookup records its
// position, costs one step, and changes nothing else.
func markLoops(f *syntax.File) {
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.WhileStmt); ok {
			found = true
			w.Cond = &syntax.BinaryExpr{
				OpPos: w.While,
				Op:    syntax.AND,
				X:     &syntax.Ident{NamePos: w.While, Name: tickName},
				Y:     w.Cond,
			}
		}
		return true
	})
	if found {
		pos := syntax.Start(f.Stmts[0])
		tick := &syntax.AssignStmt{
			OpPos: pos,
			Op:    syntax.EQ,
			LHS:   &syntax.Ident{NamePos: pos, Name: tickName},
			RHS:   &syntax.Ident{NamePos: pos, Name: "True"},
		}
		f.Stmts = append([]syntax.Stmt{tick}, f.Stmts...)
	}
}

// shape rewrites f in place and reports whether the code runs wrapped in a
// function and whether it captures its last expression.
func shape(f *syntax.File) (wrapped, captures bool) {
	if len(f.Stmts) == 0 {
		return false, false
	}
	if hasTopLevelReturn(f.Stmts) {
		wrapReturns(f.Stmts)
		start := syntax.Start(f.Stmts[0])
		end := syntax.End(f.Stmts[len(f.Stmts)-1])
		body := append(f.Stmts, &syntax.ReturnStmt{
			Return: end,
			Result: &syntax.TupleExpr{Lparen: end, Rparen: end},
		})
		def := &syntax.DefStmt{
			Def:    start,
			Name:   &syntax.Ident{NamePos: start, Name: mainName},
			Lparen: start,
			Rparen: start,
			Body:   body,
		}
		f.Stmts = []syntax.Stmt{def, assignResult(start, &syntax.CallExpr{
			Fn:     &syntax.Ident{NamePos: start, Name: mainName},
			Lparen: start,
			Rparen: start,
		})}
		markLoops(f)
		return true, false
	}
	last := len(f.Stmts) - 1
	if e, ok := f.Stmts[last].(*syntax.ExprStmt); ok {
		f.Stmts[last] = assignResult(syntax.Start(e.X), e.X)
		markLoops(f)
		return false, true
	}
	markLoops(f)
	return false, false
}

func assignResult(pos syntax.Position, rhs syntax.Expr) syntax.Stmt {
	return &syntax.AssignStmt{
		OpPos: pos,
		Op:    syntax.EQ,
		LHS:   &syntax.Ident{NamePos: pos, Name: resultName},
		RHS:   rhs,
	}
}

// result extracts the captured value from the global the rewrite assigned.
func (p *Program) result(v starlark.Value) starlark.Value {
	if !p.wrapped {
		return v // nil when the last statement was not an expression
	}
	t, _ := v.(starlark.Tuple)
	if len(t) == 1 {
		return t[0]
	}
	return nil // fell off the end: no return executed
}

// hasTopLevelReturn reports a return outside any def, including inside
// top-level if/for/while blocks. Lambdas cannot contain statements.
func hasTopLevelReturn(stmts []syntax.Stmt) bool {
	found := false
	forTopLevel(stmts, func(*syntax.ReturnStmt) { found = true })
	return found
}

func wrapReturns(stmts []syntax.Stmt) {
	forTopLevel(stmts, func(r *syntax.ReturnStmt) {
		x := r.Result
		if x == nil {
			x = &syntax.Ident{NamePos: r.Return, Name: "None"}
		}
		r.Result = &syntax.TupleExpr{List: []syntax.Expr{x}}
	})
}

func forTopLevel(stmts []syntax.Stmt, f func(*syntax.ReturnStmt)) {
	for _, s := range stmts {
		switch s := s.(type) {
		case *syntax.ReturnStmt:
			f(s)
		case *syntax.IfStmt:
			forTopLevel(s.True, f)
			forTopLevel(s.False, f)
		case *syntax.ForStmt:
			forTopLevel(s.Body, f)
		case *syntax.WhileStmt:
			forTopLevel(s.Body, f)
		}
	}
}

// literalFormat finds a top-level `__format__ = "mode"` (the last one wins),
// so the mode is known even when the code runs as a function body.
func literalFormat(stmts []syntax.Stmt) string {
	mode := ""
	for _, s := range stmts {
		a, ok := s.(*syntax.AssignStmt)
		if !ok || a.Op != syntax.EQ {
			continue
		}
		id, ok := a.LHS.(*syntax.Ident)
		if !ok || id.Name != "__format__" {
			continue
		}
		if lit, ok := a.RHS.(*syntax.Literal); ok && lit.Token == syntax.STRING {
			mode, _ = lit.Value.(string)
		}
	}
	return mode
}

// render fills in Text and GoValue: the text of SPEC §2.3 — printed text,
// then the formatted value. A None value after printed text adds nothing:
// `print("x")` as the last line shows just x.
func (res *Result) render(b *Budget) error {
	v := res.Value
	if v == nil || (v == starlark.None && res.Printed != "") {
		res.Text = res.Printed
		if res.Text == "" {
			res.Text = "OK (no return value)"
		}
		return nil
	}
	text, g, note, err := render(b, v, res.Format)
	if err != nil {
		return err
	}
	res.GoValue = g
	if res.Printed != "" {
		text = res.Printed + "\n" + text
	}
	if note != "" {
		text += "\n" + note
	}
	res.Text = text
	return nil
}
