package python

import (
	"strings"

	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp/lowered"
	"github.com/onetool-dev/onetool/interp/python/pyast"
)

// Class statements (SPEC §2.7). A class body runs once, as a function
// of the scope around it whose variables are the class's namespace; the
// object model (package interp/objects) makes the class from what it
// returns:
//
//	class C(B):                  def __ot_class1():
//	    n = 0                        __ot_cell = __ot_classcell()
//	    def inc(self):               __ot_k_n = __ot_unbound
//	        self.n += 1      →       __ot_k_n = 0
//	                                 def __ot_m2():
//	                                     def inc(self): ...
//	                                     return inc
//	                                 __ot_k_inc = __ot_m2()
//	                                 return (__ot_cell, ("n", __ot_k_n, "inc", __ot_k_inc), ())
//	                             C = __ot_class("C", "C", __ot_class1, (B,), {})
//
// The body's names are renamed (__ot_k_n) and each method is made inside
// a function of its own, so that no function of the class sees the
// class's names, as Python's scoping rules say: a method's `max(...)`
// is the builtin even in a class with a method max. (A method that names
// itself reads the module's variable of that name at its start, since
// Starlark binds a def's own name around it.)

// classCtx is a class statement being lowered.
type classCtx struct {
	name   string // for private names: __x in class C is _C__x
	parent *classCtx
}

// classVarPrefix prefixes the variables of a class body.
const classVarPrefix = "__ot_k_"

// classVar is the variable of a class body holding its name n.
func classVar(n string) string { return classVarPrefix + n }

// mangle is the attribute name as Python's compiler writes it inside a
// class: __x becomes _C__x.
func (l *lowerer) mangle(name string) string {
	if l.cls == nil {
		return name
	}
	return lowered.MangleName(l.cls.name, name)
}

// class lowers a class statement.
func (l *lowerer) class(out []syntax.Stmt, st *pyast.ClassDef) []syntax.Stmt {
	pos := st.Class
	cs := l.sc.of[st]
	name := st.Name.Id
	qual := l.qualname(name)

	var bases []syntax.Expr
	for _, b := range st.Bases {
		if s, ok := b.(*pyast.Starred); ok {
			l.errorf(s.Pos(), "*bases in a class statement are not supported: name the base classes")
			return out
		}
		bases = append(bases, l.expr(b))
	}
	var kw []*syntax.DictEntry
	for _, k := range st.Keywords {
		if k.Arg == "" {
			l.errorf(k.ArgPos, "**kwargs in a class statement are not supported: name the keywords")
			return out
		}
		kw = append(kw, &syntax.DictEntry{Key: strLit(k.ArgPos, k.Arg), Colon: k.ArgPos, Value: l.expr(k.Value)})
	}
	bodyName := l.temp("class")
	outerScope, outerFn, outerHandler, outerCls, outerSelf, outerQual := l.scope, l.fn, l.handlerVar, l.cls, l.selfParam, l.qualPrefix
	l.scope, l.fn, l.handlerVar, l.qualPrefix = cs, &fnCtx{kind: defFn}, "", qual+"."
	l.cls = &classCtx{name: name, parent: outerCls}
	l.selfParam = ""
	body := l.block(st.Body)
	pre := []syntax.Stmt{assignStmt(pos, ident(pos, "__ot_cell"), callAt(pos, "__ot_classcell"))}
	for _, n := range cs.order {
		if !cs.cells[n] {
			pre = append(pre, assignStmt(pos, ident(pos, classVar(n)), ident(pos, "__ot_unbound")))
		}
	}
	pre = append(pre, l.cellInits(cs, pos, nil)...)
	pre = append(pre, l.fn.defs...)
	var pairs []syntax.Expr
	if doc := docString(st.Body); doc != nil && !cs.bound["__doc__"] {
		pairs = append(pairs, strLit(pos, "__doc__"), l.expr(doc))
	}
	for _, n := range cs.order {
		pairs = append(pairs, strLit(pos, lowered.MangleName(name, n)), l.name(pos, n))
	}
	anns := l.classAnnotations(st.Body)
	ret := &syntax.ReturnStmt{Return: pos, Result: tuple(pos, ident(pos, "__ot_cell"), tuple(pos, pairs...), tuple(pos, anns...))}
	l.scope, l.fn, l.handlerVar, l.cls, l.selfParam, l.qualPrefix = outerScope, outerFn, outerHandler, outerCls, outerSelf, outerQual

	stmts := append(pre, body...)
	stmts = append(stmts, ret)
	out = append(out, &syntax.DefStmt{Def: pos, Name: ident(pos, bodyName), Lparen: pos, Rparen: pos, Body: stmts})
	value := callAt(pos, "__ot_class", strLit(pos, name), strLit(pos, qual), ident(pos, bodyName),
		tuple(pos, bases...), &syntax.DictExpr{Lbrace: pos, List: dictEntries(kw), Rbrace: pos})
	return l.bindDecorated(out, st.Decorators, st.Name, value)
}

func dictEntries(list []*syntax.DictEntry) []syntax.Expr {
	out := make([]syntax.Expr, len(list))
	for i, e := range list {
		out[i] = e
	}
	return out
}

// docString is the docstring of a body: its first statement when that is
// a str literal.
func docString(body []pyast.Stmt) pyast.Expr {
	if len(body) == 0 {
		return nil
	}
	if e, ok := body[0].(*pyast.ExprStmt); ok {
		if c, ok := e.Value.(*pyast.Constant); ok {
			if _, ok := c.Value.(string); ok {
				return c
			}
		}
	}
	return nil
}

// classAnnotations are the annotations of a class body's variables, as
// (name, annotation, …): a name or attribute evaluated (int, typing.Any),
// a str kept, anything else (list[int]) a value that shows its text and
// names its origin (__ot_annot). A name not yet defined (a forward
// reference to the class itself) is kept as its text.
func (l *lowerer) classAnnotations(body []pyast.Stmt) []syntax.Expr {
	var out []syntax.Expr
	var walk func([]pyast.Stmt)
	walk = func(list []pyast.Stmt) {
		for _, st := range list {
			switch st := st.(type) {
			case *pyast.AnnAssign:
				n, ok := st.Target.(*pyast.Name)
				if !ok {
					continue
				}
				pos := n.NamePos
				out = append(out, strLit(pos, lowered.MangleName(l.cls.name, n.Id)), l.annotation(st.Annotation))
			case *pyast.If:
				walk(st.Body)
				walk(st.Orelse)
			}
		}
	}
	walk(body)
	return out
}

// annotation lowers an annotation to __ot_annot(text, lambda: origin).
func (l *lowerer) annotation(e pyast.Expr) syntax.Expr {
	pos := e.Pos()
	text := l.sourceOf(e)
	if c, ok := e.(*pyast.Constant); ok {
		if s, ok := c.Value.(string); ok {
			return strLit(pos, s)
		}
	}
	var origin pyast.Expr
	switch x := e.(type) {
	case *pyast.Name, *pyast.Attribute:
		origin = x
	case *pyast.Subscript:
		switch x.Value.(type) {
		case *pyast.Name, *pyast.Attribute:
			origin = x.Value
		}
	}
	var fn syntax.Expr = noneAt(pos)
	if origin != nil {
		fn = &syntax.LambdaExpr{Lambda: pos, Body: l.expr(origin)}
	}
	_, whole := e.(*pyast.Subscript)
	return callAt(pos, "__ot_annot", strLit(pos, text), fn, &syntax.Ident{NamePos: pos, Name: boolName(!whole)})
}

func boolName(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// method lowers a def directly in a class body: made inside a function
// of its own (so that no method sees the class's names), decorated, and
// bound to the class body's variable.
func (l *lowerer) method(out []syntax.Stmt, st *pyast.FunctionDef) []syntax.Stmt {
	pos := st.Def
	outerSelf, outerMethod, outerSelfRef := l.selfParam, l.methodName, l.selfRef
	l.selfParam, l.methodName, l.selfRef = firstParam(st.Args), st.Name.Id, false
	if isStaticDecorated(st.Decorators) {
		l.selfParam = ""
	}
	def, qualname := l.defStmt(st)
	selfRef := l.selfRef
	l.selfParam, l.methodName, l.selfRef = outerSelf, outerMethod, outerSelfRef
	if selfRef {
		// The method names itself: Starlark would bind that name to the
		// method; Python's is the module's.
		def.Body = append([]syntax.Stmt{assignStmt(pos, ident(pos, st.Name.Id), callAt(pos, "__ot_global", strLit(pos, st.Name.Id)))}, def.Body...)
	}
	var fn syntax.Expr = ident(pos, st.Name.Id)
	if l.wantsFunction(st) {
		fn = l.wrapFunction(st, qualname)
	}
	mk := l.temp("m")
	mkBody := []syntax.Stmt{def, &syntax.ReturnStmt{Return: pos, Result: fn}}
	out = append(out, &syntax.DefStmt{Def: pos, Name: ident(pos, mk), Lparen: pos, Rparen: pos, Body: mkBody})
	value := l.decorate(st.Decorators, callAt(pos, mk))
	return append(out, assignStmt(pos, l.name(st.Name.NamePos, st.Name.Id), value))
}

// isStaticDecorated reports a @staticmethod def, which has no self.
func isStaticDecorated(decs []pyast.Expr) bool {
	for _, d := range decs {
		if n, ok := d.(*pyast.Name); ok && n.Id == "staticmethod" {
			return true
		}
	}
	return false
}

// firstParam is the name of a def's first positional parameter: self.
func firstParam(args *pyast.Arguments) string {
	if args == nil {
		return ""
	}
	if len(args.PosOnly) > 0 {
		return args.PosOnly[0].Name
	}
	if len(args.Args) > 0 {
		return args.Args[0].Name
	}
	if args.Vararg != nil {
		return args.Vararg.Name + "[0]"
	}
	return ""
}

// zeroArgSuper lowers super() inside a method: __ot_super(__ot_cell,
// self), the class of the class statement and the method's first
// argument.
func (l *lowerer) zeroArgSuper(pos syntax.Position) syntax.Expr {
	if l.cls == nil || l.selfParam == "" {
		return callAt(pos, "super")
	}
	if p, ok := strings.CutSuffix(l.selfParam, "[0]"); ok {
		return callAt(pos, "__ot_super", ident(pos, "__ot_cell"), indexAt(pos, l.name(pos, p), intLit(pos, 0)))
	}
	return callAt(pos, "__ot_super", ident(pos, "__ot_cell"), l.name(pos, l.selfParam))
}
