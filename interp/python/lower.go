package python

import (
	"go.starlark.net/syntax"
)

// Lowering rewrites, on the syntax tree, what go.starlark.net would do
// unbounded or differently from Python into calls of this package's
// helpers. Positions are kept: a helper call sits where the operator or
// method call was, so errors point at the user's line.
//
//	a * b            → __ot_mul(a, b)       repetition and big products are checked first
//	x *= y           → x = __ot_mul(x, y)   (x a name, or a[i] / a.f of plain names)
//	"..." % args     → __ot_mod("...", args) printf-style formatting, bounded
//	s.format(…)      → __ot_format(s, …)    likewise replace, join, … (see loweredMethod)
//
// A call of a method this package replaces falls back to the value's own
// method when the receiver is not a string, so user structs with such
// fields keep working.

// Names of the helpers the lowered tree calls; Builtins provides them.
const (
	mulName = "__ot_mul"
	modName = "__ot_mod"
)

// loweredMethod reports whether a call of the method name is routed to
// its helper, and its name. The helper calls onetool's implementation for
// the receiver's kind (methods in builtins.go): every str method, which
// must count characters; the list, dict and set methods Starlark lacks or
// has with other arguments; and the methods that add a whole iterable to a
// collection (go.starlark.net grows it inside one call, so a range of a
// billion is refused by its length first). A switch, not a map, so that
// nothing global can be changed; TestLoweredMethodsHaveHelpers checks it
// against the implementations.
func loweredMethod(name string) (helper string, ok bool) {
	switch name {
	case "format", "replace", "join", "extend", "union", "update",
		"intersection", "difference", "symmetric_difference":
		return "__ot_" + name, true
	}
	return "", false
}

// lower rewrites f in place.
func lower(f *syntax.File) {
	lowerStmts(f.Stmts)
}

func lowerStmts(stmts []syntax.Stmt) {
	for i, s := range stmts {
		stmts[i] = lowerStmt(s)
	}
}

func lowerStmt(s syntax.Stmt) syntax.Stmt {
	switch s := s.(type) {
	case *syntax.AssignStmt:
		s.RHS = lowerExpr(s.RHS)
		if s.Op == syntax.STAR_EQ && pure(s.LHS) {
			// x *= y is x = x * y: the helper checks the product.
			return &syntax.AssignStmt{
				OpPos: s.OpPos,
				Op:    syntax.EQ,
				LHS:   s.LHS,
				RHS:   call(mulName, s.OpPos, s.OpPos, clone(s.LHS), s.RHS),
			}
		}
		s.LHS = lowerExpr(s.LHS)
	case *syntax.ExprStmt:
		s.X = lowerExpr(s.X)
	case *syntax.ReturnStmt:
		if s.Result != nil {
			s.Result = lowerExpr(s.Result)
		}
	case *syntax.IfStmt:
		s.Cond = lowerExpr(s.Cond)
		lowerStmts(s.True)
		lowerStmts(s.False)
	case *syntax.ForStmt:
		s.X = lowerExpr(s.X)
		s.Vars = lowerExpr(s.Vars)
		lowerStmts(s.Body)
	case *syntax.WhileStmt:
		s.Cond = lowerExpr(s.Cond)
		lowerStmts(s.Body)
	case *syntax.DefStmt:
		lowerParams(s.Params)
		lowerStmts(s.Body)
	}
	return s
}

// lowerParams lowers default values (`x=e`) and nothing else: parameter
// names stay as they are.
func lowerParams(params []syntax.Expr) {
	for _, p := range params {
		if b, ok := p.(*syntax.BinaryExpr); ok && b.Op == syntax.EQ {
			b.Y = lowerExpr(b.Y)
		}
	}
}

func lowerExpr(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case nil:
		return nil
	case *syntax.BinaryExpr:
		e.X = lowerExpr(e.X)
		e.Y = lowerExpr(e.Y)
		switch {
		case e.Op == syntax.STAR && !smallFactor(e.X) && !smallFactor(e.Y):
			return call(mulName, e.OpPos, e.OpPos, e.X, e.Y)
		case e.Op == syntax.PERCENT && isString(e.X):
			return call(modName, e.OpPos, e.OpPos, e.X, e.Y)
		}
	case *syntax.CallExpr:
		e.Fn = lowerExpr(e.Fn)
		for i, a := range e.Args {
			e.Args[i] = lowerArg(a)
		}
		if dot, ok := e.Fn.(*syntax.DotExpr); ok {
			if helper, ok := loweredMethod(dot.Name.Name); ok {
				args := append([]syntax.Expr{dot.X}, e.Args...)
				return &syntax.CallExpr{
					Fn:     &syntax.Ident{NamePos: dot.Name.NamePos, Name: helper},
					Lparen: e.Lparen,
					Args:   args,
					Rparen: e.Rparen,
				}
			}
		}
	case *syntax.Comprehension:
		e.Body = lowerExpr(e.Body)
		for _, c := range e.Clauses {
			switch c := c.(type) {
			case *syntax.ForClause:
				c.Vars = lowerExpr(c.Vars)
				c.X = lowerExpr(c.X)
			case *syntax.IfClause:
				c.Cond = lowerExpr(c.Cond)
			}
		}
	case *syntax.CondExpr:
		e.Cond = lowerExpr(e.Cond)
		e.True = lowerExpr(e.True)
		e.False = lowerExpr(e.False)
	case *syntax.DictExpr:
		for _, x := range e.List {
			if d, ok := x.(*syntax.DictEntry); ok {
				d.Key = lowerExpr(d.Key)
				d.Value = lowerExpr(d.Value)
			}
		}
	case *syntax.DotExpr:
		e.X = lowerExpr(e.X)
	case *syntax.IndexExpr:
		e.X = lowerExpr(e.X)
		e.Y = lowerExpr(e.Y)
	case *syntax.LambdaExpr:
		lowerParams(e.Params)
		e.Body = lowerExpr(e.Body)
	case *syntax.ListExpr:
		lowerList(e.List)
	case *syntax.TupleExpr:
		lowerList(e.List)
	case *syntax.ParenExpr:
		e.X = lowerExpr(e.X)
	case *syntax.SliceExpr:
		e.X = lowerExpr(e.X)
		e.Lo = lowerExpr(e.Lo)
		e.Hi = lowerExpr(e.Hi)
		e.Step = lowerExpr(e.Step)
	case *syntax.UnaryExpr:
		e.X = lowerExpr(e.X)
	}
	return e
}

// lowerArg lowers a call argument: `k=v` keeps its name, `*a` and `**k`
// their operator.
func lowerArg(a syntax.Expr) syntax.Expr {
	switch a := a.(type) {
	case *syntax.BinaryExpr:
		if a.Op == syntax.EQ {
			a.Y = lowerExpr(a.Y)
			return a
		}
	case *syntax.UnaryExpr:
		if a.Op == syntax.STAR || a.Op == syntax.STARSTAR {
			a.X = lowerExpr(a.X)
			return a
		}
	}
	return lowerExpr(a)
}

func lowerList(list []syntax.Expr) {
	for i, x := range list {
		list[i] = lowerExpr(x)
	}
}

// call is the expression fn(args...) with the call's parentheses at
// lparen and rparen.
func call(fn string, lparen, rparen syntax.Position, args ...syntax.Expr) *syntax.CallExpr {
	return &syntax.CallExpr{
		Fn:     &syntax.Ident{NamePos: syntax.Start(args[0]), Name: fn},
		Lparen: lparen,
		Args:   args,
		Rparen: rparen,
	}
}

// smallFactor reports whether e is a literal that cannot make a product
// more than twice the size of the other operand: a float, or an int from
// -1 to 2. Such products (`i * 2`, `x * 0.5`, `n * -1`) are left to the
// interpreter, which is faster by a builtin call; they grow a value no
// more than `a + a` does, which the memory watchdog already bounds.
func smallFactor(e syntax.Expr) bool {
	if u, ok := e.(*syntax.UnaryExpr); ok && u.Op == syntax.MINUS {
		e = u.X
	}
	lit, ok := e.(*syntax.Literal)
	if !ok {
		return false
	}
	switch v := lit.Value.(type) {
	case float64:
		return true
	case int64:
		return v <= 2
	}
	return false
}

func isString(e syntax.Expr) bool {
	if p, ok := e.(*syntax.ParenExpr); ok {
		e = p.X
	}
	lit, ok := e.(*syntax.Literal)
	return ok && lit.Token == syntax.STRING
}

// pure reports whether e can be evaluated twice with the same result and
// no effect: a name, or an index or field of names and literals. Only
// such targets of `x *= y` are rewritten to `x = __ot_mul(x, y)`.
func pure(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.Ident, *syntax.Literal:
		return true
	case *syntax.ParenExpr:
		return pure(e.X)
	case *syntax.DotExpr:
		return pure(e.X)
	case *syntax.IndexExpr:
		return pure(e.X) && pure(e.Y)
	}
	return false
}

// clone copies a pure expression, so that the tree never holds one node
// twice (the resolver records a binding on each name it visits).
func clone(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.Ident:
		return &syntax.Ident{NamePos: e.NamePos, Name: e.Name}
	case *syntax.Literal:
		c := *e
		return &c
	case *syntax.ParenExpr:
		return &syntax.ParenExpr{Lparen: e.Lparen, X: clone(e.X), Rparen: e.Rparen}
	case *syntax.DotExpr:
		return &syntax.DotExpr{X: clone(e.X), Dot: e.Dot, NamePos: e.NamePos, Name: &syntax.Ident{NamePos: e.Name.NamePos, Name: e.Name.Name}}
	case *syntax.IndexExpr:
		return &syntax.IndexExpr{X: clone(e.X), Lbrack: e.Lbrack, Y: clone(e.Y), Rbrack: e.Rbrack}
	}
	return e
}
