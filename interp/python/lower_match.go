package python

import (
	"slices"
	"sort"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/lowered"
	"github.com/onetool-dev/onetool/interp/python/pyast"
)

// The match statement (PEP 634), lowered to plain statements:
//
//	match subject:                 __ot_s = subject
//	    case [x, 1] if x > 0:      __ot_d = False
//	        body                   __ot_r = __ot_match(__ot_s, <pattern>, 1)
//	    case _:                    if __ot_r != None:
//	        other                      x = __ot_r[0]
//	                                   if x > 0:
//	                                       __ot_d = True
//	                                       body
//	                               if not __ot_d:
//	                                   __ot_d = True
//	                                   other
//
// The subject is evaluated once; cases are tried in order, each one's
// names bound when its pattern matches (before its guard, as in CPython),
// and the first whose guard holds runs. The pattern's description is a
// tuple that __ot_match (match.go) reads; the values in it (a literal,
// Color.RED, a class) are evaluated where the program wrote them.

func (l *lowerer) match(out []syntax.Stmt, st *pyast.Match) []syntax.Stmt {
	pos := st.Match
	subject, done, result := l.temp("s"), l.temp("d"), l.temp("r")
	out = append(out, assignStmt(pos, ident(pos, subject), l.expr(st.Subject)))
	if len(st.Cases) > 1 {
		out = append(out, assignStmt(pos, ident(pos, done), ident(pos, "False")))
	}
	for i, c := range st.Cases {
		if i < len(st.Cases)-1 && c.Guard == nil {
			if why := irrefutable(c.Pattern); why != "" {
				l.errorf(c.Pattern.Pos(), why+" makes remaining patterns unreachable")
				return out
			}
		}
		var stmts []syntax.Stmt
		if len(st.Cases) > 1 && i < len(st.Cases)-1 {
			stmts = append(stmts, assignStmt(c.Case, ident(c.Case, done), ident(c.Case, "True")))
		}
		body := append(stmts, l.block(c.Body)...)
		if c.Guard != nil {
			body = []syntax.Stmt{ifStmt(c.Case, l.expr(c.Guard), nonEmpty(c.Case, body), nil)}
		}
		var caseStmts []syntax.Stmt
		if as, ok := c.Pattern.(*pyast.MatchAs); ok && as.Pattern == nil && as.Name == "" {
			caseStmts = body // case _: matches without a call
		} else {
			pb := &patternBuilder{l: l, slots: map[string]int{}}
			desc := pb.build(c.Pattern)
			if l.err != nil {
				return out
			}
			cpos := c.Pattern.Pos()
			call := callAt(cpos, "__ot_match", ident(cpos, subject), desc, intLit(cpos, int64(len(pb.names))))
			caseStmts = append(caseStmts, assignStmt(cpos, ident(cpos, result), call))
			var bound []syntax.Stmt
			for slot, name := range pb.names {
				bound = l.assign(bound, &pyast.Name{NamePos: pb.at[slot], Id: name}, indexAt(cpos, ident(cpos, result), intLit(cpos, int64(slot))))
			}
			bound = append(bound, body...)
			caseStmts = append(caseStmts, ifStmt(cpos, binary(cpos, syntax.NEQ, ident(cpos, result), noneAt(cpos)), nonEmpty(cpos, bound), nil))
		}
		if i > 0 {
			caseStmts = []syntax.Stmt{ifStmt(c.Case, &syntax.UnaryExpr{OpPos: c.Case, Op: syntax.NOT, X: ident(c.Case, done)}, nonEmpty(c.Case, caseStmts), nil)}
		}
		out = append(out, caseStmts...)
	}
	return out
}

// irrefutable says why a pattern matches every subject ("wildcard",
// "name capture 'x'"), or "" when it may fail.
func irrefutable(p pyast.Pattern) string {
	switch p := p.(type) {
	case *pyast.MatchAs:
		if p.Pattern != nil {
			return irrefutable(p.Pattern)
		}
		if p.Name == "" {
			return "wildcard"
		}
		return "name capture '" + p.Name + "'"
	case *pyast.MatchOr:
		for _, alt := range p.Patterns {
			if why := irrefutable(alt); why != "" {
				return why
			}
		}
	}
	return ""
}

// patternBuilder makes the description of one case's pattern and gives
// each name it captures a slot.
type patternBuilder struct {
	l     *lowerer
	slots map[string]int
	names []string // by slot
	at    []syntax.Position
	// bound are the names captured so far in the current alternative,
	// to refuse `case [a, a]`.
	bound map[string]bool
}

func (b *patternBuilder) slot(name string, pos syntax.Position) syntax.Expr {
	if b.bound == nil {
		b.bound = map[string]bool{}
	}
	if b.bound[name] {
		b.l.errorf(pos, "multiple assignments to name '"+name+"' in pattern")
	}
	b.bound[name] = true
	i, ok := b.slots[name]
	if !ok {
		i = len(b.names)
		b.slots[name] = i
		b.names = append(b.names, name)
		b.at = append(b.at, pos)
	}
	return intLit(pos, int64(i))
}

func kindLit(pos syntax.Position, k int) syntax.Expr { return intLit(pos, int64(k)) }

func (b *patternBuilder) list(pos syntax.Position, ps []pyast.Pattern) syntax.Expr {
	var out []syntax.Expr
	for _, p := range ps {
		out = append(out, b.build(p))
	}
	return tupleDisplay(pos, out)
}

// tupleDisplay is a tuple display, (x,) for one element.
func tupleDisplay(pos syntax.Position, list []syntax.Expr) syntax.Expr {
	if len(list) == 0 {
		return &syntax.TupleExpr{Lparen: pos, Rparen: pos}
	}
	return &syntax.ParenExpr{Lparen: pos, X: &syntax.TupleExpr{List: list}, Rparen: pos}
}

func (b *patternBuilder) build(p pyast.Pattern) syntax.Expr {
	pos := p.Pos()
	l := b.l
	switch p := p.(type) {
	case *pyast.MatchAs:
		if p.Pattern == nil {
			if p.Name == "" {
				return tupleDisplay(pos, []syntax.Expr{kindLit(pos, lowered.PatWild)})
			}
			return tupleDisplay(pos, []syntax.Expr{kindLit(pos, lowered.PatCapture), b.slot(p.Name, pos)})
		}
		sub := b.build(p.Pattern)
		return tupleDisplay(pos, []syntax.Expr{kindLit(pos, lowered.PatAs), sub, b.slot(p.Name, p.End())})
	case *pyast.MatchValue:
		return tupleDisplay(pos, []syntax.Expr{kindLit(pos, lowered.PatValue), l.expr(p.Value)})
	case *pyast.MatchSingleton:
		return tupleDisplay(pos, []syntax.Expr{kindLit(pos, lowered.PatSingle), l.expr(p.Value)})
	case *pyast.MatchSequence:
		star, starSlot := -1, syntax.Expr(intLit(pos, -1))
		var subs []syntax.Expr
		for i, q := range p.Patterns {
			if s, ok := q.(*pyast.MatchStar); ok {
				if star >= 0 {
					l.errorf(s.Pos(), "multiple starred names in sequence pattern")
					return noneAt(pos)
				}
				star = i
				if s.Name != "" {
					starSlot = b.slot(s.Name, s.Pos())
				}
				subs = append(subs, tupleDisplay(pos, []syntax.Expr{kindLit(pos, lowered.PatWild)}))
				continue
			}
			subs = append(subs, b.build(q))
		}
		return tupleDisplay(pos, []syntax.Expr{kindLit(pos, lowered.PatSeq), tupleDisplay(pos, subs), intLit(pos, int64(star)), starSlot})
	case *pyast.MatchStar:
		l.errorf(pos, "can't use starred name here")
		return noneAt(pos)
	case *pyast.MatchMapping:
		var keys []syntax.Expr
		seen := map[string]bool{}
		for _, k := range p.Keys {
			// Literal keys repeated are CPython's compile-time error;
			// Color.RED twice is found when the case is tried.
			if r, ok := literalKey(k); ok {
				if seen[r] {
					l.errorf(p.Pos(), "mapping pattern checks duplicate key ("+r+")")
					return noneAt(pos)
				}
				seen[r] = true
			}
			keys = append(keys, l.expr(k))
		}
		rest := syntax.Expr(intLit(pos, -1))
		subs := b.list(pos, p.Patterns)
		if p.Rest != "" {
			rest = b.slot(p.Rest, p.End())
		}
		return tupleDisplay(pos, []syntax.Expr{kindLit(pos, lowered.PatMap), tupleDisplay(pos, keys), subs, rest})
	case *pyast.MatchClass:
		var names []syntax.Expr
		for i, n := range p.KwdAttrs {
			if slices.Contains(p.KwdAttrs[:i], n) {
				l.errorf(p.KwdPatterns[i].Pos(), "attribute name repeated in class pattern: "+n)
				return noneAt(pos)
			}
			names = append(names, strLit(pos, n))
		}
		return tupleDisplay(pos, []syntax.Expr{kindLit(pos, lowered.PatClass), l.expr(p.Cls), b.list(pos, p.Patterns), tupleDisplay(pos, names), b.list(pos, p.KwdPatterns)})
	case *pyast.MatchOr:
		// Each alternative binds the same names, into the same slots.
		outer := b.bound
		var alts []syntax.Expr
		var first []string
		for i, q := range p.Patterns {
			if i < len(p.Patterns)-1 {
				if why := irrefutable(q); why != "" {
					l.errorf(q.Pos(), why+" makes remaining patterns unreachable")
					return noneAt(pos)
				}
			}
			b.bound = map[string]bool{}
			for k := range outer {
				b.bound[k] = true
			}
			alts = append(alts, b.build(q))
			var names []string
			for k := range b.bound {
				if !outer[k] {
					names = append(names, k)
				}
			}
			sort.Strings(names)
			if i == 0 {
				first = names
			} else if !slices.Equal(first, names) {
				l.errorf(q.Pos(), "alternative patterns bind different names")
				return noneAt(pos)
			}
		}
		return tupleDisplay(pos, []syntax.Expr{kindLit(pos, lowered.PatOr), tupleDisplay(pos, alts)})
	}
	l.errorf(pos, "invalid pattern")
	return noneAt(pos)
}

// literalKey is the repr of a literal key of a mapping pattern.
func literalKey(k pyast.Expr) (string, bool) {
	neg := ""
	if u, ok := k.(*pyast.UnaryOp); ok && u.Op == "-" {
		neg, k = "-", u.Operand
	}
	c, ok := k.(*pyast.Constant)
	if !ok {
		return "", false
	}
	var v starlark.Value
	switch x := c.Value.(type) {
	case nil:
		v = starlark.None
	case bool:
		v = starlark.Bool(x)
	case string:
		v = starlark.String(x)
	case int64:
		v = starlark.MakeInt64(x)
	case float64:
		v = starlark.Float(x)
	default:
		return "", false
	}
	r, err := interp.Repr(nil, v)
	return neg + r, err == nil
}
