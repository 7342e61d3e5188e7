package python

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp/python/pyast"
)

// Decorators and function objects.
//
//	@d1                      def f(x: int): ...
//	@d2(arg)          →      f = d1(d2(arg)(__ot_func(f, "f", ("x", int, "int"))))
//	def f(x: int): ...
//
// CPython evaluates the decorator expressions top-down, makes the
// function, then calls them bottom-up; d1(d2(arg)(f)) evaluates d1, then
// d2(arg), then calls — the same order (only a def's defaults, evaluated
// with the def, come first here). Each call is at its decorator's
// position, so that an error in a decorator points at its line, as
// CPython's traceback does.
//
// __ot_func wraps the def in a Function (function.go), which holds
// attributes, __qualname__ and annotations; the lowering asks for one
// only where the program needs it (wantsFunction), so that a program
// without decorators runs its defs as bare Starlark functions.

// decorate is the value bound by a definition with decorators: value (the
// function or class made) passed through each decorator, the last one
// first. Classes use it too: the lead's class lowering calls it (or
// bindDecorated) with the class value.
func (l *lowerer) decorate(decorators []pyast.Expr, value syntax.Expr) syntax.Expr {
	// The decorators' expressions are lowered first to last, so that the
	// names the lowering makes up for them come in the program's order.
	fns := make([]syntax.Expr, len(decorators))
	for i, d := range decorators {
		fns[i] = l.expr(d)
	}
	for i := len(decorators) - 1; i >= 0; i-- {
		d := decorators[i]
		value = &syntax.CallExpr{Fn: fns[i], Lparen: d.Pos(), Args: []syntax.Expr{value}, Rparen: d.End()}
	}
	return value
}

// bindDecorated appends `name = d1(d2(value))` to out: the binding of a
// def or class statement with decorators (value is the function or class
// as made, usually the Starlark name it was made under). It is the entry
// point for definitions other than defs (classes, a class body's defs).
func (l *lowerer) bindDecorated(out []syntax.Stmt, decorators []pyast.Expr, name *pyast.Name, value syntax.Expr) []syntax.Stmt {
	return l.assign(out, name, l.decorate(decorators, value))
}

// qualname is the __qualname__ of a definition named name in the code
// being lowered: outer.<locals>.name in a def, C.name in a class body
// (the class lowering sets qualPrefix to "C." around the body).
func (l *lowerer) qualname(name string) string { return l.qualPrefix + name }

// wantsFunction reports whether the def st is made a Function: it has
// decorators, or the program reads or sets an attribute of its name
// (f.calls), passes the name to setattr, getattr, hasattr, vars or
// update_wrapper, mentions __qualname__, __annotations__, __dict__ or
// __wrapped__ anywhere, or imports inspect and the def has annotations
// (which only a Function keeps).
func (l *lowerer) wantsFunction(st *pyast.FunctionDef) bool {
	if len(st.Decorators) > 0 || l.funcKind(st) != "" && strings.Contains(l.src, "function(") {
		// inspect.isgeneratorfunction(f), iscoroutinefunction(f): a
		// Function knows what kind of def it is.
		return true
	}
	if l.attrNames == nil {
		l.attrNames = attrBases(l.src)
	}
	if l.attrNames[st.Name.Id] {
		return true
	}
	if l.wantsAll == 0 {
		// A program that reads these may read them of any def, even one
		// that reaches the reader under another name.
		l.wantsAll = 1
		for _, name := range [...]string{"__qualname__", "__annotations__", "__dict__", "__wrapped__"} {
			if strings.Contains(l.src, name) {
				l.wantsAll = 2
			}
		}
	}
	return l.wantsAll == 2 || hasAnnotations(st) && strings.Contains(l.src, "inspect")
}

// wrapFunction is __ot_func(<def's name>, qualname, annotations).
func (l *lowerer) wrapFunction(st *pyast.FunctionDef, qualname string) syntax.Expr {
	pos := st.Name.NamePos
	var ann []syntax.Expr
	add := func(name string, x pyast.Expr) {
		if x == nil {
			return
		}
		text := l.sourceOf(x)
		var value syntax.Expr
		switch x := x.(type) {
		case *pyast.Name, *pyast.Attribute:
			// int, Node, typing.Any: evaluated, as CPython does.
			value = l.expr(x)
		case *pyast.Constant:
			// "Node": a string, shown quoted; None.
			value = l.expr(x)
			if _, ok := x.Value.(string); ok {
				text = ""
			}
		default:
			// list[int], int | None, Optional[int]: kept as the text the
			// program wrote, since not every type here is subscriptable
			// (the def ran before annotations were kept: it must still).
			value = strLit(x.Pos(), text)
		}
		ann = append(ann, strLit(x.Pos(), name), value, strLit(x.Pos(), text))
	}
	if a := st.Args; a != nil {
		for _, list := range [][]*pyast.Arg{a.PosOnly, a.Args} {
			for _, p := range list {
				add(p.Name, p.Annotation)
			}
		}
		if a.Vararg != nil {
			add(a.Vararg.Name, a.Vararg.Annotation)
		}
		for _, p := range a.KwOnly {
			add(p.Name, p.Annotation)
		}
		if a.Kwarg != nil {
			add(a.Kwarg.Name, a.Kwarg.Annotation)
		}
	}
	add("return", st.Returns)
	if kind := l.funcKind(st); kind != "" {
		return callAt(pos, "__ot_func", ident(pos, st.Name.Id), strLit(pos, qualname), tuple(pos, ann...), strLit(pos, kind))
	}
	return callAt(pos, "__ot_func", ident(pos, st.Name.Id), strLit(pos, qualname), tuple(pos, ann...))
}

func hasAnnotations(st *pyast.FunctionDef) bool {
	if st.Returns != nil {
		return true
	}
	a := st.Args
	if a == nil {
		return false
	}
	for _, list := range [][]*pyast.Arg{a.PosOnly, a.Args, a.KwOnly} {
		for _, p := range list {
			if p.Annotation != nil {
				return true
			}
		}
	}
	return (a.Vararg != nil && a.Vararg.Annotation != nil) || (a.Kwarg != nil && a.Kwarg.Annotation != nil)
}

// attrBases are the names a program's text uses as name.attr, or passes
// first to setattr, getattr, hasattr, delattr, vars or update_wrapper: the
// names whose defs must carry attributes. Read from the text (a name
// mentioned in a string or comment counts too: the cost is only a
// wrapper).
func attrBases(src string) map[string]bool {
	out := map[string]bool{}
	var prev string // the identifier just read, while only spaces follow it
	var call string // setattr etc. read, while "(" and spaces follow it
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRuneInString(src[i:])
		if isIdentStart(r) {
			j := i + n
			for j < len(src) {
				r2, n2 := utf8.DecodeRuneInString(src[j:])
				if !isIdentStart(r2) && !unicode.IsDigit(r2) {
					break
				}
				j += n2
			}
			word := src[i:j]
			if call == "(" {
				out[word] = true
			}
			call = ""
			switch word {
			case "setattr", "getattr", "hasattr", "delattr", "vars", "update_wrapper":
				call = word
			}
			prev = word
			i = j
			continue
		}
		switch {
		case r == '.' && prev != "":
			// name.attr: the next character must start a name.
			k := i + 1
			for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
				k++
			}
			if k < len(src) {
				if r2, _ := utf8.DecodeRuneInString(src[k:]); isIdentStart(r2) && !bareAttr(src[k:]) {
					out[prev] = true
				}
			}
			prev = ""
		case r == ' ' || r == '\t':
		case r == '(' && call != "":
			call = "("
			prev = ""
		default:
			prev, call = "", ""
		}
		i += n
	}
	return out
}

// bareAttr reports text starting with an attribute a bare def answers
// as a Function would (dunder.go), read: f.__name__ needs no Function.
func bareAttr(text string) bool {
	for _, name := range [...]string{"__name__", "__doc__", "__module__", "__defaults__", "__kwdefaults__"} {
		if rest, ok := strings.CutPrefix(text, name); ok {
			if r, _ := utf8.DecodeRuneInString(rest); rest == "" || !isIdentStart(r) && !unicode.IsDigit(r) {
				// f.__name__ = "x" sets it: only a Function can.
				rest = strings.TrimLeft(rest, " \t")
				return !strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "==")
			}
		}
	}
	return false
}

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }

// sourceOf is the program's text of node n, as inspect shows an
// annotation; "" when it spans lines it cannot find.
func (l *lowerer) sourceOf(n pyast.Node) string {
	if c, ok := n.(*pyast.Constant); ok && c.Raw != "" {
		return c.Raw
	}
	if l.lines == nil {
		l.lines = strings.Split(l.src, "\n")
	}
	start, end := n.Pos(), n.End()
	if start.Line < 1 || int(start.Line) > len(l.lines) || end.Line < start.Line || int(end.Line) > len(l.lines) {
		return ""
	}
	var b strings.Builder
	for line := start.Line; line <= end.Line; line++ {
		text := []rune(l.lines[line-1])
		from, to := 0, len(text)
		if line == start.Line {
			from = int(start.Col) - 1
		}
		if line == end.Line {
			to = int(end.Col) - 1
		}
		if from < 0 || to > len(text) || from > to {
			return ""
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strings.TrimSpace(string(text[from:to])))
	}
	return b.String()
}

// funcKind is "generator", "coroutine" or "async_generator" for a def
// whose call makes one, "" for a plain def.
func (l *lowerer) funcKind(st *pyast.FunctionDef) string {
	fs := l.sc.of[st]
	switch {
	case fs == nil:
		return ""
	case fs.async && fs.generator:
		return "async_generator"
	case fs.async:
		return "coroutine"
	case fs.generator:
		return "generator"
	}
	return ""
}
