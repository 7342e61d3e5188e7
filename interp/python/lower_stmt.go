package python

import (
	"strings"

	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp/lowered"
	"github.com/onetool-dev/onetool/interp/python/pyast"
)

// Statements: each Python statement becomes one or more Starlark
// statements.

// block lowers a list of statements.
func (l *lowerer) block(list []pyast.Stmt) []syntax.Stmt {
	var out []syntax.Stmt
	for _, st := range list {
		if l.err != nil {
			return nil
		}
		out = l.stmt(out, st)
	}
	return out
}

// body lowers the block of a compound statement, never empty.
func (l *lowerer) body(pos syntax.Position, list []pyast.Stmt) []syntax.Stmt {
	return nonEmpty(pos, l.block(list))
}

// stmt appends the lowering of st to out.
func (l *lowerer) stmt(out []syntax.Stmt, st pyast.Stmt) []syntax.Stmt {
	switch st := st.(type) {
	case *pyast.ExprStmt:
		if c, ok := st.Value.(*pyast.Constant); ok {
			if _, ok := c.Value.(pyast.Ellipsis); ok {
				return append(out, passAt(c.Start)) // def f(): ...
			}
		}
		return append(out, exprStmt(l.expr(st.Value)))
	case *pyast.Pass:
		return append(out, passAt(st.Keyword))
	case *pyast.Assign:
		return l.assignMany(out, st)
	case *pyast.AugAssign:
		return l.augAssign(out, st)
	case *pyast.AnnAssign:
		if st.Value == nil {
			return out // `x: int` declares; annotations are not evaluated
		}
		return l.assign(out, st.Target, l.expr(st.Value))
	case *pyast.If:
		return append(out, l.ifStmt(st))
	case *pyast.For:
		return l.forStmt(out, st)
	case *pyast.While:
		return l.whileStmt(out, st)
	case *pyast.Break:
		return l.breakStmt(out, st.Keyword)
	case *pyast.Continue:
		return l.continueStmt(out, st.Keyword)
	case *pyast.Return:
		var x syntax.Expr
		if st.Value != nil {
			x = l.expr(st.Value)
		}
		return append(out, l.returnStmt(st.Return, x))
	case *pyast.FunctionDef:
		return l.def(out, st)
	case *pyast.ClassDef:
		return l.class(out, st)
	case *pyast.Delete:
		return l.del(out, st)
	case *pyast.Import:
		return l.importStmt(out, st)
	case *pyast.ImportFrom:
		return l.importFrom(out, st)
	case *pyast.Global, *pyast.Nonlocal:
		return out // the scopes know
	case *pyast.Try:
		return l.try(out, st)
	case *pyast.Raise:
		return append(out, l.raise(st))
	case *pyast.Assert:
		return append(out, l.assert(st))
	case *pyast.With:
		return l.with(out, st)
	case *pyast.Match:
		return l.match(out, st)
	default:
		l.errorf(st.Pos(), "invalid syntax")
	}
	return out
}

func (l *lowerer) ifStmt(st *pyast.If) *syntax.IfStmt {
	s := &syntax.IfStmt{If: st.If, Cond: l.expr(st.Test), True: l.body(st.If, st.Body)}
	if len(st.Orelse) > 0 {
		s.ElsePos = st.Orelse[0].Pos()
		s.False = l.block(st.Orelse)
	}
	return s
}

// ---- Assignment ----

// assignMany lowers `t1 = t2 = value`: value is evaluated once and given
// to each target from left to right.
func (l *lowerer) assignMany(out []syntax.Stmt, st *pyast.Assign) []syntax.Stmt {
	if len(st.Targets) == 1 {
		// s = s + t is s += t for a text s (see augAssign).
		if n, ok := st.Targets[0].(*pyast.Name); ok {
			if b, ok := st.Value.(*pyast.BinOp); ok && b.Op == "+" && l.binaryHelper("+", b.Left, b.Right) == lowered.Add {
				if left, ok := b.Left.(*pyast.Name); ok && left.Id == n.Id && (l.isText(n) || surelyText(b.Right)) {
					value := callAt(b.OpPos, "__ot_append", l.expr(b.Left), l.expr(b.Right))
					return l.assign(out, n, value)
				}
			}
		}
	}
	value := l.expr(st.Value)
	if len(st.Targets) == 1 {
		if n, ok := plainUnpack(st.Targets[0]); ok && !knownIterable(st.Value) {
			// a, b = map(int, …): an iterator's error raised where try
			// catches it (go.starlark.net's unpacking cannot fail there).
			value = callAt(st.Value.Pos(), "__ot_unpackit", value, intLit(st.Value.Pos(), int64(n)))
		}
		return l.assign(out, st.Targets[0], value)
	}
	pos := st.Targets[0].Pos()
	var first syntax.Expr
	if n, ok := st.Targets[0].(*pyast.Name); ok {
		// a = b = v: a = v, then b = a.
		out = l.assign(out, n, value)
		first = l.name(n.NamePos, n.Id)
	} else {
		t := l.temp("t")
		out = append(out, assignStmt(pos, ident(pos, t), value))
		out = l.assign(out, st.Targets[0], ident(pos, t))
		first = ident(pos, t)
	}
	for i, target := range st.Targets[1:] {
		v := first
		if i > 0 {
			v = cloneExpr(first)
		}
		out = l.assign(out, target, v)
	}
	return out
}

// plainUnpack reports a tuple or list target without a starred element,
// and how many elements it has.
func plainUnpack(t pyast.Expr) (int, bool) {
	var elts []pyast.Expr
	switch t := t.(type) {
	case *pyast.Tuple:
		elts = t.Elts
	case *pyast.List:
		elts = t.Elts
	default:
		return 0, false
	}
	for _, e := range elts {
		if _, ok := e.(*pyast.Starred); ok {
			return 0, false
		}
	}
	return len(elts), true
}

// assign appends target = value.
func (l *lowerer) assign(out []syntax.Stmt, target pyast.Expr, value syntax.Expr) []syntax.Stmt {
	if sub, ok := target.(*pyast.Subscript); ok && l.inItemMethod() {
		if _, isSlice := sub.Index.(*pyast.Slice); !isSlice {
			// self.items[i] = v with i perhaps a slice object.
			return append(out, exprStmt(callAt(sub.Lbrack, "__ot_setsubscr", l.expr(sub.Value), l.expr(sub.Index), value)))
		}
	}
	lhs, post := l.target(target)
	if lhs == nil {
		return out
	}
	out = append(out, assignStmt(target.Pos(), lhs, value))
	return append(out, post...)
}

// target lowers an assignment target. Targets Starlark has (names,
// a[i], a.b, tuples of them) are returned as they are; the others (a
// slice, a starred element) are a temporary variable the value goes to
// first, and post the statements that then give it to the real target.
func (l *lowerer) target(t pyast.Expr) (lhs syntax.Expr, post []syntax.Stmt) {
	switch t := t.(type) {
	case *pyast.Name:
		return l.name(t.NamePos, t.Id), nil
	case *pyast.Attribute:
		return &syntax.DotExpr{X: l.expr(t.Value), Dot: t.Dot, NamePos: t.AttrPos, Name: ident(t.AttrPos, l.mangle(t.Attr))}, nil
	case *pyast.Subscript:
		if sl, ok := t.Index.(*pyast.Slice); ok {
			tmp := l.temp("t")
			pos := t.Lbrack
			set := callAt(pos, "__ot_setslice", l.expr(t.Value), l.optExpr(pos, sl.Lower), l.optExpr(pos, sl.Upper), l.optExpr(pos, sl.Step), ident(pos, tmp))
			return ident(pos, tmp), []syntax.Stmt{exprStmt(set)}
		}
		obj := l.expr(t.Value)
		return &syntax.IndexExpr{X: obj, Lbrack: t.Lbrack, Y: l.index(obj, t.Index), Rbrack: t.Rbrack}, nil
	case *pyast.Tuple:
		return l.targets(t.Pos(), t.Elts, false)
	case *pyast.List:
		return l.targets(t.Lbrack, t.Elts, true)
	case *pyast.Starred:
		l.errorf(t.Star, "starred assignment target must be in a list or tuple")
	default:
		l.errorf(t.Pos(), "cannot assign to "+describe(t))
	}
	return nil, nil
}

// targets lowers `a, b, *c = …`.
func (l *lowerer) targets(pos syntax.Position, elts []pyast.Expr, list bool) (syntax.Expr, []syntax.Stmt) {
	star := -1
	for i, e := range elts {
		if _, ok := e.(*pyast.Starred); ok {
			if star >= 0 {
				l.errorf(e.Pos(), "multiple starred expressions in assignment")
				return nil, nil
			}
			star = i
		}
	}
	var lhs []syntax.Expr
	var post []syntax.Stmt
	for _, e := range elts {
		if s, ok := e.(*pyast.Starred); ok {
			e = s.Value
		}
		x, p := l.target(e)
		if x == nil {
			return nil, nil
		}
		lhs = append(lhs, x)
		post = append(post, p...)
	}
	var group syntax.Expr
	if list {
		group = &syntax.ListExpr{Lbrack: pos, List: lhs, Rbrack: pos}
	} else {
		group = &syntax.TupleExpr{Lparen: pos, List: lhs, Rparen: pos}
	}
	if star < 0 {
		return group, post
	}
	// a, *b, c = v: v goes to a temporary, unpacked by __ot_unpack into a
	// tuple with a list in the starred place.
	tmp := l.temp("t")
	unpack := callAt(pos, "__ot_unpack", ident(pos, tmp), intLit(pos, int64(star)), intLit(pos, int64(len(elts)-star-1)))
	return ident(pos, tmp), append([]syntax.Stmt{assignStmt(pos, group, unpack)}, post...)
}

// augAssign lowers `target op= value`.
func (l *lowerer) augAssign(out []syntax.Stmt, st *pyast.AugAssign) []syntax.Stmt {
	pos := st.OpPos
	value := l.expr(st.Value)
	helper := l.binaryHelper(st.Op, st.Target, st.Value)
	if helper == "" {
		helper = l.divisionHelper(st.Op, st.Target, st.Value)
	}
	if st.Op == "+" && helper == lowered.Add && (surelyText(st.Value) || l.isText(st.Target)) {
		// s += t: appended in place when s is the text the last
		// append made, as CPython does for a str no one else holds;
		// a loop building a text is linear, not quadratic.
		helper = "__ot_append"
	}
	if helper == lowered.Add {
		// xs += ys extends the list xs in place, as Python's does (and
		// Starlark's, which would do it unbounded).
		helper = "__ot_iplus"
	}
	if name, ok := setOpNames[st.Op]; ok && (helper == "" || helper == name) && !l.isNumber(st.Value) && !l.isNumber(st.Target) &&
		(st.Op != "-" || helper == name) {
		// (x -= y by a small number stays the interpreter's.)
		// s |= t changes the set s in place (others holding it see the
		// change), as Python's does; Starlark's makes a new set.
		helper = "__ot_i" + strings.TrimPrefix(name, "__ot_")
	}
	tok, ok := augTokens[st.Op]
	if st.Op == "@" {
		helper = "__ot_imatmul"
	}
	if helper == "" && !ok {
		l.errorf(pos, "the "+st.Op+"= operator is not supported")
		return out
	}
	var extra []syntax.Expr // __ot_iop's arguments after the target
	if l.classes && helper != "__ot_append" && !l.isNumber(st.Target) {
		// The target may be an instance whose class defines __iadd__:
		// __ot_iop tries that first, then the operator as it was.
		var fallback syntax.Expr = noneAt(pos)
		if helper != "" {
			fallback = ident(pos, helper)
		}
		if sub, ok := st.Target.(*pyast.Subscript); ok {
			if sl, ok := sub.Index.(*pyast.Slice); ok {
				return l.augSlice(out, st, sub, sl, tuple(pos, strLit(pos, st.Op), value, fallback), "__ot_iop", tok)
			}
		}
		// __ot_iop(x, op, y, fallback): four arguments rather than x and
		// a tuple, one allocation less at each run of the statement.
		extra = []syntax.Expr{strLit(pos, st.Op), value, fallback}
		helper = "__ot_iop"
	}
	apply := func(x syntax.Expr) syntax.Expr {
		if extra != nil {
			return callAt(pos, helper, x, extra[0], extra[1], extra[2])
		}
		return callAt(pos, helper, x, value)
	}
	switch t := st.Target.(type) {
	case *pyast.Name:
		lhs := l.name(t.NamePos, t.Id)
		if helper == "" {
			return append(out, &syntax.AssignStmt{OpPos: pos, Op: tok, LHS: lhs, RHS: value})
		}
		return append(out, assignStmt(pos, lhs, apply(l.name(t.NamePos, t.Id))))
	case *pyast.Attribute, *pyast.Subscript:
		if sub, ok := t.(*pyast.Subscript); ok {
			if sl, ok := sub.Index.(*pyast.Slice); ok {
				return l.augSlice(out, st, sub, sl, value, helper, tok)
			}
		}
		if helper == "" {
			lhs, _ := l.target(t)
			return append(out, &syntax.AssignStmt{OpPos: pos, Op: tok, LHS: lhs, RHS: value})
		}
		// a[k] *= v: a and k are evaluated once, into temporaries.
		obj, key, pre := l.evalOnce(out, t)
		read := func() syntax.Expr {
			if key == nil {
				return &syntax.DotExpr{X: cloneExpr(obj), Dot: pos, NamePos: pos, Name: ident(pos, l.mangle(t.(*pyast.Attribute).Attr))}
			}
			return indexAt(pos, cloneExpr(obj), cloneExpr(key))
		}
		return append(pre, assignStmt(pos, read(), apply(read())))
	}
	l.errorf(st.Target.Pos(), "'"+describe(st.Target)+"' is an illegal expression for augmented assignment")
	return out
}

// isText reports a name that its scope assigns a str (see
// scope.markText).
func (l *lowerer) isText(target pyast.Expr) bool {
	n, ok := target.(*pyast.Name)
	if !ok {
		return false
	}
	for s := l.scope; s != nil; s = s.parent {
		if s.text[n.Id] {
			return true
		}
		if s.bound[n.Id] {
			return false
		}
	}
	return false
}

// isSetName reports a name that its scope assigns a set (see
// scope.markText).
func (l *lowerer) isSetName(target pyast.Expr) bool {
	n, ok := target.(*pyast.Name)
	if !ok {
		return false
	}
	for s := l.scope; s != nil; s = s.parent {
		if s.sets[n.Id] {
			return true
		}
		if s.bound[n.Id] {
			return false
		}
	}
	return false
}

// augSlice lowers `a[i:j] op= v` as a[i:j] = a[i:j] op v.
func (l *lowerer) augSlice(out []syntax.Stmt, st *pyast.AugAssign, sub *pyast.Subscript, sl *pyast.Slice, value syntax.Expr, helper string, tok syntax.Token) []syntax.Stmt {
	pos := st.OpPos
	obj := l.expr(sub.Value)
	parts := []syntax.Expr{l.optExpr(pos, sl.Lower), l.optExpr(pos, sl.Upper), l.optExpr(pos, sl.Step)}
	if !pureExpr(obj) || !pureExpr(parts[0]) || !pureExpr(parts[1]) || !pureExpr(parts[2]) {
		l.errorf(pos, "augmented assignment to a slice of a computed value is not supported; assign the slice")
		return out
	}
	read := &syntax.SliceExpr{X: cloneExpr(obj), Lbrack: pos, Lo: sliceOpt(parts[0]), Hi: sliceOpt(parts[1]), Step: sliceOpt(parts[2]), Rbrack: pos}
	var combined syntax.Expr
	if helper != "" {
		combined = callAt(pos, helper, read, value)
	} else {
		combined = binary(pos, tok-syntax.PLUS_EQ+syntax.PLUS, read, value)
	}
	return append(out, exprStmt(callAt(pos, "__ot_setslice", obj, parts[0], parts[1], parts[2], combined)))
}

// sliceOpt turns a None from optExpr back into an absent slice bound.
func sliceOpt(x syntax.Expr) syntax.Expr {
	if id, ok := x.(*syntax.Ident); ok && id.Name == "None" {
		return nil
	}
	return cloneExpr(x)
}

// evalOnce evaluates the object (and key) of an attribute or subscript
// target into temporaries unless they are plain names or literals.
func (l *lowerer) evalOnce(out []syntax.Stmt, t pyast.Expr) (obj, key syntax.Expr, pre []syntax.Stmt) {
	keep := func(x syntax.Expr) syntax.Expr {
		if pureExpr(x) {
			return x
		}
		pos := syntax.Start(x)
		tmp := l.temp("t")
		out = append(out, assignStmt(pos, ident(pos, tmp), x))
		return ident(pos, tmp)
	}
	switch t := t.(type) {
	case *pyast.Attribute:
		obj = keep(l.expr(t.Value))
	case *pyast.Subscript:
		obj = keep(l.expr(t.Value))
		key = keep(l.index(obj, t.Index))
	}
	return obj, key, out
}

var augTokens = map[string]syntax.Token{
	"+": syntax.PLUS_EQ, "-": syntax.MINUS_EQ, "*": syntax.STAR_EQ, "/": syntax.SLASH_EQ,
	"//": syntax.SLASHSLASH_EQ, "%": syntax.PERCENT_EQ, "&": syntax.AMP_EQ, "|": syntax.PIPE_EQ,
	"^": syntax.CIRCUMFLEX_EQ, "<<": syntax.LTLT_EQ, ">>": syntax.GTGT_EQ,
}

// ---- Loops ----

// iterable lowers what a for loop or comprehension walks: a str yields
// its characters (and a list is walked live) through __ot_iter, unless
// the value is plainly something else.
func (l *lowerer) iterable(e pyast.Expr) syntax.Expr {
	x := l.expr(e)
	if knownIterable(e) {
		return x
	}
	return callAt(e.Pos(), "__ot_iter", x)
}

// knownIterable reports iterables that are neither a str nor a list that
// the loop could change: a range, a display, a comprehension, and the
// results of the builtins and methods that return fresh lists.
func knownIterable(e pyast.Expr) bool {
	switch e := e.(type) {
	case *pyast.Tuple, *pyast.Dict, *pyast.Set, *pyast.ListComp, *pyast.SetComp, *pyast.DictComp:
		return true
	case *pyast.List:
		return true
	case *pyast.Call:
		switch f := e.Func.(type) {
		case *pyast.Name:
			switch f.Id {
			case "range", "sorted", "list", "tuple", "dict", "set":
				return true
			}
		case *pyast.Attribute:
			switch f.Attr {
			case "items", "keys", "values", "split", "splitlines", "rsplit", "findall":
				return true
			}
		}
	}
	return false
}

func (l *lowerer) forStmt(out []syntax.Stmt, st *pyast.For) []syntax.Stmt {
	var x, check syntax.Expr
	if knownIterable(st.Iter) && !st.Async {
		x = l.expr(st.Iter)
	} else {
		x = l.expr(st.Iter)
		if st.Async {
			// async for: each element awaited from __anext__().
			x = callAt(st.Iter.Pos(), lowered.AsyncIter, x)
		}
		if _, call := st.Iter.(*pyast.Call); call {
			// A generator made for the loop alone is closed as it ends.
			x = callAt(st.Iter.Pos(), "__ot_loopiter", x, ident(st.Iter.Pos(), "True"))
		} else {
			x = callAt(st.Iter.Pos(), "__ot_loopiter", x)
		}
		// The iterable may be an iterator whose next item fails (the
		// function of a map, a csv reader's line). go.starlark.net's loops
		// cannot fail there, so the iterator keeps the error and ends the
		// loop, and __ot_iterend raises it after the loop, before an else.
		it := l.temp("it")
		out = append(out, assignStmt(st.For, ident(st.For, it), x))
		x, check = ident(st.For, it), callAt(st.For, "__ot_iterend", ident(st.For, it))
	}
	loop := &loopCtx{}
	if len(st.Orelse) > 0 {
		loop.elseFlag = l.temp("else")
		out = append(out, assignStmt(st.For, ident(st.For, loop.elseFlag), ident(st.For, "True")))
	}
	vars, post := l.target(st.Target)
	if vars == nil {
		return out
	}
	if len(post) > 0 || !simpleLoopVars(vars) {
		// for a[0:1] in …, for a, *b in …: the loop's own variable is a
		// temporary given to the target first thing in the body.
		tmp := l.temp("v")
		pre := append([]syntax.Stmt{assignStmt(st.For, vars, ident(st.For, tmp))}, post...)
		vars = ident(st.For, tmp)
		post = pre
	}
	l.fn.loops = append(l.fn.loops, loop)
	body := append(post, l.block(st.Body)...)
	l.fn.loops = l.fn.loops[:len(l.fn.loops)-1]
	out = append(out, &syntax.ForStmt{For: st.For, Vars: vars, X: x, Body: nonEmpty(st.For, body)})
	if check != nil {
		out = append(out, exprStmt(check))
	}
	return l.loopElse(out, st.For, loop, st.Orelse)
}

// simpleLoopVars reports loop variables Starlark takes as they are.
func simpleLoopVars(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Ident, *syntax.IndexExpr, *syntax.DotExpr:
		return true
	case *syntax.TupleExpr:
		for _, e := range x.List {
			if !simpleLoopVars(e) {
				return false
			}
		}
		return true
	case *syntax.ListExpr:
		for _, e := range x.List {
			if !simpleLoopVars(e) {
				return false
			}
		}
		return true
	}
	return false
}

func (l *lowerer) whileStmt(out []syntax.Stmt, st *pyast.While) []syntax.Stmt {
	loop := &loopCtx{}
	if len(st.Orelse) > 0 {
		loop.elseFlag = l.temp("else")
		out = append(out, assignStmt(st.While, ident(st.While, loop.elseFlag), ident(st.While, "True")))
	}
	cond := l.expr(st.Test)
	l.fn.loops = append(l.fn.loops, loop)
	body := l.body(st.While, st.Body)
	l.fn.loops = l.fn.loops[:len(l.fn.loops)-1]
	out = append(out, &syntax.WhileStmt{While: st.While, Cond: cond, Body: body})
	return l.loopElse(out, st.While, loop, st.Orelse)
}

// loopElse appends the else clause of a loop: it runs unless a break left
// the loop, which cleared the flag.
func (l *lowerer) loopElse(out []syntax.Stmt, pos syntax.Position, loop *loopCtx, orelse []pyast.Stmt) []syntax.Stmt {
	if loop.elseFlag == "" {
		return out
	}
	return append(out, ifStmt(pos, ident(pos, loop.elseFlag), l.body(pos, orelse), nil))
}

// breakStmt lowers break: in a loop of this function, a break (clearing
// the loop's else flag); in a try part inside the loop, a return of the
// break code, which the code after the try statement turns into a break.
func (l *lowerer) breakStmt(out []syntax.Stmt, pos syntax.Position) []syntax.Stmt {
	if n := len(l.fn.loops); n > 0 {
		if flag := l.fn.loops[n-1].elseFlag; flag != "" {
			out = append(out, assignStmt(pos, ident(pos, flag), ident(pos, "False")))
		}
		return append(out, &syntax.BranchStmt{Token: syntax.BREAK, TokenPos: pos})
	}
	if l.fn.kind == partFn && l.fn.outerLoops > 0 {
		l.fn.codes[lowered.Break] = true
		return append(out, &syntax.ReturnStmt{Return: pos, Result: tuple(pos, intLit(pos, lowered.Break))})
	}
	l.errorf(pos, "'break' outside loop")
	return out
}

func (l *lowerer) continueStmt(out []syntax.Stmt, pos syntax.Position) []syntax.Stmt {
	if len(l.fn.loops) > 0 {
		return append(out, &syntax.BranchStmt{Token: syntax.CONTINUE, TokenPos: pos})
	}
	if l.fn.kind == partFn && l.fn.outerLoops > 0 {
		l.fn.codes[lowered.Continue] = true
		return append(out, &syntax.ReturnStmt{Return: pos, Result: tuple(pos, intLit(pos, lowered.Continue))})
	}
	l.errorf(pos, "'continue' not properly in loop")
	return out
}

// returnStmt lowers return x (x nil for a bare return): in a try part, a
// return of the return code and the value.
func (l *lowerer) returnStmt(pos syntax.Position, x syntax.Expr) syntax.Stmt {
	if l.fn.kind == partFn {
		l.fn.codes[lowered.Return] = true
		if x == nil {
			x = noneAt(pos)
		}
		return &syntax.ReturnStmt{Return: pos, Result: tuple(pos, intLit(pos, lowered.Return), x)}
	}
	return &syntax.ReturnStmt{Return: pos, Result: x}
}

// ---- Definitions ----

// defStmt is the Starlark def of st, and its __qualname__.
func (l *lowerer) defStmt(st *pyast.FunctionDef) (*syntax.DefStmt, string) {
	params := l.params(st.Args)
	if st.Args != nil {
		params = l.requireKwOnly(params, st.Args)
	}
	fs := l.sc.of[st]
	qualname := l.qualname(st.Name.Id)
	if l.scope.global[st.Name.Id] {
		qualname = st.Name.Id // a def of a global name is the module's
	}
	outerScope, outerFn, outerHandler, outerQual := l.scope, l.fn, l.handlerVar, l.qualPrefix
	l.scope, l.fn, l.handlerVar, l.qualPrefix = fs, &fnCtx{kind: defFn}, "", qualname+".<locals>."
	body := l.block(st.Body)
	pre := l.cellInits(fs, st.Def, paramNames(st.Args))
	pre = append(pre, l.fn.defs...)
	var doc []syntax.Stmt
	if len(body) > 0 {
		if d, ok := body[0].(*syntax.ExprStmt); ok {
			if lit, ok := d.X.(*syntax.Literal); ok && lit.Token == syntax.STRING {
				// The docstring stays first, where Starlark finds it.
				doc = []syntax.Stmt{d}
				body = body[1:]
			}
		}
	}
	l.scope, l.fn, l.handlerVar, l.qualPrefix = outerScope, outerFn, outerHandler, outerQual
	all := append(doc, l.kwOnlyCheck(st)...)
	if fs.generator || fs.async {
		all = append(all, l.suspendable(st, fs, params, qualname, append(pre, body...))...)
	} else {
		all = append(append(all, pre...), body...)
	}
	return &syntax.DefStmt{Def: st.Def, Name: ident(st.Name.NamePos, st.Name.Id), Lparen: st.Name.NamePos, Params: params, Rparen: st.Name.NamePos, Body: nonEmpty(st.Def, all)}, qualname
}

// paramIdents are the names of the parameters params (x=1, *args and
// **kw are x, args and kw), as fresh identifiers.
func paramIdents(params []syntax.Expr) []syntax.Expr {
	var names []syntax.Expr
	for _, p := range params {
		for {
			switch x := p.(type) {
			case *syntax.BinaryExpr: // x=default
				p = x.X
				continue
			case *syntax.UnaryExpr: // *args, **kwargs, or a bare *
				if x.X == nil {
					p = nil
				} else {
					p = x.X
				}
				continue
			}
			break
		}
		if id, ok := p.(*syntax.Ident); ok {
			names = append(names, ident(id.NamePos, id.Name))
		}
	}
	return names
}

// suspendable is the body of a generator function or an async def: the
// function's body becomes an inner def, __ot_gen, of the same parameters,
// and calling the function makes the object that runs it, suspended at
// each yield or await (package pyrt): a generator, a coroutine or an
// async generator. Every statement keeps its meaning — try, with,
// closures, super() — since the inner def is the body as it was.
func (l *lowerer) suspendable(st *pyast.FunctionDef, fs *scope, params []syntax.Expr, qualname string, body []syntax.Stmt) []syntax.Stmt {
	pos := st.Def
	names := paramIdents(params)
	inner := &syntax.DefStmt{Def: pos, Name: ident(pos, lowered.GenBody), Lparen: pos, Params: names, Rparen: pos, Body: nonEmpty(pos, body)}
	helper := lowered.Generator
	switch {
	case fs.async && fs.generator:
		helper = lowered.AsyncGenerator
	case fs.async:
		helper = lowered.Coroutine
	}
	args := []syntax.Expr{ident(pos, lowered.GenBody), strLit(pos, qualname)}
	for _, n := range names {
		args = append(args, ident(n.(*syntax.Ident).NamePos, n.(*syntax.Ident).Name))
	}
	return []syntax.Stmt{inner, &syntax.ReturnStmt{Return: pos, Result: callAt(pos, helper, args...)}}
}

// def lowers a def statement: the function, bound to its name through
// its decorators (a def in a class body is a method: see method).
func (l *lowerer) def(out []syntax.Stmt, st *pyast.FunctionDef) []syntax.Stmt {
	if l.scope.kind == classScope {
		return l.method(out, st)
	}
	def, qualname := l.defStmt(st)
	out = append(out, def)
	if l.wantsFunction(st) {
		// The def made under its own name, then bound as a Function
		// through its decorators (lower_decorator.go).
		return l.bindDecorated(out, st.Decorators, st.Name, l.wrapFunction(st, qualname))
	}
	if l.scope.isCell(st.Name.Id) && !l.isPlain(st.Name.Id) {
		// A def whose name lives in a cell (in a try part, or global):
		// the function is made under its own name, then stored.
		out = append(out, assignStmt(st.Def, l.name(st.Name.NamePos, st.Name.Id), ident(st.Name.NamePos, st.Name.Id)))
	}
	return out
}

// requiredKwOnly are the keyword-only parameters of args without a
// default.
func requiredKwOnly(args *pyast.Arguments) []*pyast.Arg {
	var out []*pyast.Arg
	if args == nil {
		return nil
	}
	for i, p := range args.KwOnly {
		if i >= len(args.KwDefaults) || args.KwDefaults[i] == nil {
			out = append(out, p)
		}
	}
	return out
}

// requireKwOnly gives each keyword-only parameter of a def without a
// default the default __ot_required, which kwOnlyCheck looks for: a call
// without it is CPython's "missing 1 required keyword-only argument".
func (l *lowerer) requireKwOnly(params []syntax.Expr, args *pyast.Arguments) []syntax.Expr {
	req := map[string]bool{}
	for _, p := range requiredKwOnly(args) {
		req[p.Name] = true
	}
	if len(req) == 0 {
		return params
	}
	seenStar := false
	for i, x := range params {
		if u, ok := x.(*syntax.UnaryExpr); ok && u.Op == syntax.STAR {
			seenStar = true
			continue
		}
		if id, ok := x.(*syntax.Ident); ok && seenStar && req[id.Name] {
			params[i] = binary(id.NamePos, syntax.EQ, id, ident(id.NamePos, "__ot_required"))
		}
	}
	return params
}

// kwOnlyCheck is the first statement of a def with keyword-only
// parameters that have no default: `if b == __ot_required or …:
// __ot_kwonly("f", ("b", …), (b, …))`.
func (l *lowerer) kwOnlyCheck(st *pyast.FunctionDef) []syntax.Stmt {
	req := requiredKwOnly(st.Args)
	if len(req) == 0 {
		return nil
	}
	pos := st.Def
	var cond syntax.Expr
	var names, values []syntax.Expr
	for _, p := range req {
		test := binary(pos, syntax.EQL, ident(pos, p.Name), ident(pos, "__ot_required"))
		if cond == nil {
			cond = test
		} else {
			cond = binary(pos, syntax.OR, cond, test)
		}
		names = append(names, strLit(pos, p.Name))
		values = append(values, ident(pos, p.Name))
	}
	call := callAt(pos, "__ot_kwonly", strLit(pos, st.Name.Id), tuple(pos, names...), tuple(pos, values...))
	return []syntax.Stmt{ifStmt(pos, cond, []syntax.Stmt{exprStmt(call)}, nil)}
}

func paramNames(args *pyast.Arguments) map[string]bool {
	m := map[string]bool{}
	if args == nil {
		return m
	}
	for _, list := range [][]*pyast.Arg{args.PosOnly, args.Args, args.KwOnly} {
		for _, p := range list {
			m[p.Name] = true
		}
	}
	if args.Vararg != nil {
		m[args.Vararg.Name] = true
	}
	if args.Kwarg != nil {
		m[args.Kwarg.Name] = true
	}
	return m
}

// params lowers the parameters of a def or lambda; their defaults are
// evaluated in the enclosing scope, which is the current one. Positional-
// only markers (/) are dropped: such parameters are ordinary ones.
func (l *lowerer) params(args *pyast.Arguments) []syntax.Expr {
	if args == nil {
		return nil
	}
	var out []syntax.Expr
	positional := append(append([]*pyast.Arg{}, args.PosOnly...), args.Args...)
	firstDefault := len(positional) - len(args.Defaults)
	for i, p := range positional {
		var x syntax.Expr = ident(p.NamePos, p.Name)
		if i >= firstDefault {
			x = binary(p.NamePos, syntax.EQ, x, l.expr(args.Defaults[i-firstDefault]))
		}
		out = append(out, x)
	}
	if args.Vararg != nil {
		out = append(out, &syntax.UnaryExpr{OpPos: args.Vararg.NamePos, Op: syntax.STAR, X: ident(args.Vararg.NamePos, args.Vararg.Name)})
	} else if len(args.KwOnly) > 0 {
		pos := args.KwOnly[0].NamePos
		out = append(out, &syntax.UnaryExpr{OpPos: pos, Op: syntax.STAR})
	}
	for i, p := range args.KwOnly {
		var x syntax.Expr = ident(p.NamePos, p.Name)
		if i < len(args.KwDefaults) && args.KwDefaults[i] != nil {
			x = binary(p.NamePos, syntax.EQ, x, l.expr(args.KwDefaults[i]))
		}
		out = append(out, x)
	}
	if args.Kwarg != nil {
		out = append(out, &syntax.UnaryExpr{OpPos: args.Kwarg.NamePos, Op: syntax.STARSTAR, X: ident(args.Kwarg.NamePos, args.Kwarg.Name)})
	}
	return out
}

// ---- del ----

func (l *lowerer) del(out []syntax.Stmt, st *pyast.Delete) []syntax.Stmt {
	for _, t := range st.Targets {
		out = l.delTarget(out, t)
	}
	return out
}

func (l *lowerer) delTarget(out []syntax.Stmt, t pyast.Expr) []syntax.Stmt {
	switch t := t.(type) {
	case *pyast.Name:
		if l.isPlain(t.Id) {
			return append(out, assignStmt(t.NamePos, ident(t.NamePos, t.Id), noneAt(t.NamePos)))
		}
		return append(out, exprStmt(callAt(t.NamePos, "__ot_delname", ident(t.NamePos, cellVar(t.Id)))))
	case *pyast.Subscript:
		pos := t.Lbrack
		if sl, ok := t.Index.(*pyast.Slice); ok {
			return append(out, exprStmt(callAt(pos, "__ot_delitem", l.expr(t.Value), l.optExpr(pos, sl.Lower), l.optExpr(pos, sl.Upper), l.optExpr(pos, sl.Step))))
		}
		return append(out, exprStmt(callAt(pos, "__ot_delitem", l.expr(t.Value), l.expr(t.Index))))
	case *pyast.Tuple:
		for _, e := range t.Elts {
			out = l.delTarget(out, e)
		}
		return out
	case *pyast.List:
		for _, e := range t.Elts {
			out = l.delTarget(out, e)
		}
		return out
	case *pyast.Attribute:
		pos := t.Dot
		return append(out, exprStmt(callAt(pos, "__ot_delattr", l.expr(t.Value), strLit(pos, l.mangle(t.Attr)))))
	default:
		l.errorf(t.Pos(), "cannot delete "+describe(t))
	}
	return out
}

// ---- import ----

func (l *lowerer) importStmt(out []syntax.Stmt, st *pyast.Import) []syntax.Stmt {
	for _, al := range st.Names {
		pos := al.NamePos
		name, whole := al.AsName, true
		if name == "" {
			name, _, _ = strings.Cut(al.Name, ".")
			whole = false
		}
		args := []syntax.Expr{strLit(pos, al.Name)}
		if whole && strings.Contains(al.Name, ".") {
			args = append(args, ident(pos, "True"))
		}
		out = l.assign(out, &pyast.Name{NamePos: pos, Id: name}, callAt(pos, "__ot_import", args...))
	}
	return out
}

func (l *lowerer) importFrom(out []syntax.Stmt, st *pyast.ImportFrom) []syntax.Stmt {
	if st.Level > 0 {
		l.refuse(st.From, refusedRelativeImport, "")
		return out
	}
	for _, al := range st.Names {
		pos := al.NamePos
		if al.Name == "*" {
			l.refuse(pos, refusedStarImport, st.Module)
			return out
		}
		name := al.AsName
		if name == "" {
			name = al.Name
		}
		value := callAt(pos, "__ot_import_from", strLit(pos, st.Module), strLit(pos, al.Name))
		out = l.assign(out, &pyast.Name{NamePos: pos, Id: name}, value)
	}
	return out
}

// describe names an expression as CPython's messages do.
func describe(e pyast.Expr) string {
	switch e.(type) {
	case *pyast.Call:
		return "function call"
	case *pyast.Constant:
		return "literal"
	case *pyast.BinOp, *pyast.UnaryOp, *pyast.BoolOp:
		return "expression"
	case *pyast.Compare:
		return "comparison"
	case *pyast.Lambda:
		return "lambda"
	case *pyast.JoinedStr:
		return "f-string expression"
	case *pyast.Dict:
		return "dict literal"
	case *pyast.Set:
		return "set display"
	case *pyast.ListComp:
		return "list comprehension"
	case *pyast.GeneratorExp:
		return "generator expression"
	case *pyast.IfExp:
		return "conditional expression"
	case *pyast.NamedExpr:
		return "named expression"
	}
	return "expression"
}
