package pyast

import (
	"fmt"
	"math"
	"math/big"
	"strings"
)

// dump writes a tree in the normalised form that testdata/dump.py writes
// CPython's ast in (see the comment at the top of that file): one node a
// line, CPython's node and field names, each child field on a line of its
// own (".field") with its nodes below it, and only the positions that a
// node owns (not those it takes from its children, which CPython widens
// to enclosing parentheses).
func dump(m *Module) string {
	d := &dumper{}
	d.line(0, "Module", "", "")
	d.stmts(1, "body", m.Body)
	return d.b.String()
}

type dumper struct {
	b       strings.Builder
	fstring int // inside a JoinedStr: CPython gives its parts its own span
}

func posStr(p Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// line writes a node: its kind, its span (start and end, either may be
// absent) and its scalar fields.
func (d *dumper) line(indent int, kind, start, end string, scalars ...string) {
	d.b.WriteString(strings.Repeat("  ", indent))
	d.b.WriteString(kind)
	if start != "" || end != "" {
		d.b.WriteString(" @" + start + ".." + end)
	}
	for _, s := range scalars {
		d.b.WriteString(" " + s)
	}
	d.b.WriteByte('\n')
}

func (d *dumper) field(indent int, name string) {
	d.b.WriteString(strings.Repeat("  ", indent) + "." + name + "\n")
}

func (d *dumper) stmts(indent int, name string, list []Stmt) {
	if len(list) == 0 {
		return
	}
	d.field(indent, name)
	for _, s := range list {
		d.stmt(indent+1, s)
	}
}

func (d *dumper) exprs(indent int, name string, list []Expr) {
	if len(list) == 0 {
		return
	}
	d.field(indent, name)
	for _, e := range list {
		d.expr(indent+1, e)
	}
}

func (d *dumper) child(indent int, name string, e Expr) {
	if e == nil || isNilExpr(e) {
		return
	}
	d.field(indent, name)
	d.expr(indent+1, e)
}

func isNilExpr(e Expr) bool {
	switch x := e.(type) {
	case *JoinedStr:
		return x == nil
	case *Name:
		return x == nil
	}
	return false
}

func both(n Node) (string, string) { return posStr(n.Pos()), posStr(n.End()) }

func (d *dumper) stmt(in int, s Stmt) {
	switch x := s.(type) {
	case *FunctionDef:
		kind := "FunctionDef"
		if x.Async {
			kind = "AsyncFunctionDef"
		}
		d.line(in, kind, posStr(x.Def), posStr(x.EndPos), "name="+quote(x.Name.Id))
		d.field(in+1, "args")
		d.arguments(in+2, x.Args)
		d.stmts(in+1, "body", x.Body)
		d.exprs(in+1, "decorator_list", x.Decorators)
		d.child(in+1, "returns", x.Returns)
	case *ClassDef:
		d.line(in, "ClassDef", posStr(x.Class), posStr(x.EndPos), "name="+quote(x.Name.Id))
		d.exprs(in+1, "bases", x.Bases)
		d.keywords(in+1, x.Keywords)
		d.stmts(in+1, "body", x.Body)
		d.exprs(in+1, "decorator_list", x.Decorators)
	case *Return:
		d.line(in, "Return", posStr(x.Return), posStr(x.EndPos))
		d.child(in+1, "value", x.Value)
	case *Delete:
		d.line(in, "Delete", posStr(x.Del), posStr(x.EndPos))
		d.exprs(in+1, "targets", x.Targets)
	case *Assign:
		d.line(in, "Assign", "", "")
		d.exprs(in+1, "targets", x.Targets)
		d.child(in+1, "value", x.Value)
	case *AugAssign:
		d.line(in, "AugAssign", "", "", "op="+x.Op)
		d.child(in+1, "target", x.Target)
		d.child(in+1, "value", x.Value)
	case *AnnAssign:
		d.line(in, "AnnAssign", "", "")
		d.child(in+1, "target", x.Target)
		d.child(in+1, "annotation", x.Annotation)
		d.child(in+1, "value", x.Value)
	case *For:
		kind := "For"
		if x.Async {
			kind = "AsyncFor"
		}
		d.line(in, kind, posStr(x.For), posStr(x.EndPos))
		d.child(in+1, "target", x.Target)
		d.child(in+1, "iter", x.Iter)
		d.stmts(in+1, "body", x.Body)
		d.stmts(in+1, "orelse", x.Orelse)
	case *While:
		d.line(in, "While", posStr(x.While), posStr(x.EndPos))
		d.child(in+1, "test", x.Test)
		d.stmts(in+1, "body", x.Body)
		d.stmts(in+1, "orelse", x.Orelse)
	case *If:
		d.line(in, "If", posStr(x.If), posStr(x.EndPos))
		d.child(in+1, "test", x.Test)
		d.stmts(in+1, "body", x.Body)
		d.stmts(in+1, "orelse", x.Orelse)
	case *With:
		kind := "With"
		if x.Async {
			kind = "AsyncWith"
		}
		d.line(in, kind, posStr(x.With), posStr(x.EndPos))
		d.field(in+1, "items")
		for _, it := range x.Items {
			d.line(in+2, "withitem", "", "")
			d.child(in+3, "context_expr", it.Context)
			d.child(in+3, "optional_vars", it.Vars)
		}
		d.stmts(in+1, "body", x.Body)
	case *Match:
		d.line(in, "Match", posStr(x.Match), posStr(x.EndPos))
		d.child(in+1, "subject", x.Subject)
		d.field(in+1, "cases")
		for _, c := range x.Cases {
			d.line(in+2, "match_case", "", "")
			d.field(in+3, "pattern")
			d.pattern(in+4, c.Pattern)
			d.child(in+3, "guard", c.Guard)
			d.stmts(in+3, "body", c.Body)
		}
	case *Raise:
		d.line(in, "Raise", posStr(x.Raise), posStr(x.EndPos))
		d.child(in+1, "exc", x.Exc)
		d.child(in+1, "cause", x.Cause)
	case *Try:
		kind := "Try"
		if x.Star {
			kind = "TryStar"
		}
		d.line(in, kind, posStr(x.Try), posStr(x.EndPos))
		d.stmts(in+1, "body", x.Body)
		if len(x.Handlers) > 0 {
			d.field(in+1, "handlers")
			for _, h := range x.Handlers {
				name := "name=None"
				if h.Name != nil {
					name = "name=" + quote(h.Name.Id)
				}
				d.line(in+2, "ExceptHandler", posStr(h.Except), posStr(h.EndPos), name)
				d.child(in+3, "type", h.Type)
				d.stmts(in+3, "body", h.Body)
			}
		}
		d.stmts(in+1, "orelse", x.Orelse)
		d.stmts(in+1, "finalbody", x.Finalbody)
	case *Assert:
		d.line(in, "Assert", posStr(x.Assert), posStr(x.EndPos))
		d.child(in+1, "test", x.Test)
		d.child(in+1, "msg", x.Msg)
	case *Import:
		d.line(in, "Import", posStr(x.Import), posStr(x.EndPos))
		d.aliases(in+1, x.Names)
	case *ImportFrom:
		module := "module=None"
		if x.Module != "" {
			module = "module=" + quote(x.Module)
		}
		d.line(in, "ImportFrom", posStr(x.From), posStr(x.EndPos), module, fmt.Sprintf("level=%d", x.Level))
		d.aliases(in+1, x.Names)
	case *Global:
		s, e := both(x)
		d.line(in, "Global", s, e, "names="+names(x.Names))
	case *Nonlocal:
		s, e := both(x)
		d.line(in, "Nonlocal", s, e, "names="+names(x.Names))
	case *ExprStmt:
		d.line(in, "Expr", "", "")
		d.child(in+1, "value", x.Value)
	case *Pass:
		s, e := both(x)
		d.line(in, "Pass", s, e)
	case *Break:
		s, e := both(x)
		d.line(in, "Break", s, e)
	case *Continue:
		s, e := both(x)
		d.line(in, "Continue", s, e)
	default:
		d.line(in, fmt.Sprintf("?%T", s), "", "")
	}
}

func names(list []*Name) string {
	var ids []string
	for _, n := range list {
		ids = append(ids, quote(n.Id))
	}
	return "[" + strings.Join(ids, ",") + "]"
}

func (d *dumper) aliases(in int, list []*Alias) {
	d.field(in, "names")
	for _, a := range list {
		as := "asname=None"
		if a.AsName != "" {
			as = "asname=" + quote(a.AsName)
		}
		d.line(in+1, "alias", posStr(a.NamePos), posStr(a.EndPos), "name="+quote(a.Name), as)
	}
}

func (d *dumper) keywords(in int, list []*Keyword) {
	if len(list) == 0 {
		return
	}
	d.field(in, "keywords")
	for _, k := range list {
		arg := "arg=None"
		if k.Arg != "" {
			arg = "arg=" + quote(k.Arg)
		}
		d.line(in+1, "keyword", posStr(k.ArgPos), "", arg)
		d.child(in+2, "value", k.Value)
	}
}

func (d *dumper) arguments(in int, a *Arguments) {
	d.line(in, "arguments", "", "")
	args := func(name string, list []*Arg) {
		if len(list) == 0 {
			return
		}
		d.field(in+1, name)
		for _, x := range list {
			d.arg(in+2, x)
		}
	}
	one := func(name string, x *Arg) {
		if x != nil {
			d.field(in+1, name)
			d.arg(in+2, x)
		}
	}
	args("posonlyargs", a.PosOnly)
	args("args", a.Args)
	one("vararg", a.Vararg)
	args("kwonlyargs", a.KwOnly)
	if len(a.KwDefaults) > 0 {
		d.field(in+1, "kw_defaults")
		for _, e := range a.KwDefaults {
			if e == nil {
				d.line(in+2, "None", "", "")
			} else {
				d.expr(in+2, e)
			}
		}
	}
	one("kwarg", a.Kwarg)
	d.exprs(in+1, "defaults", a.Defaults)
}

func (d *dumper) arg(in int, a *Arg) {
	d.line(in, "arg", posStr(a.NamePos), "", "arg="+quote(a.Name))
	d.child(in+1, "annotation", a.Annotation)
}

func (d *dumper) expr(in int, e Expr) {
	infield := d.fstring > 0
	switch x := e.(type) {
	case *BoolOp:
		d.line(in, "BoolOp", "", "", "op="+x.Op)
		d.exprs(in+1, "values", x.Values)
	case *NamedExpr:
		d.line(in, "NamedExpr", "", "")
		d.child(in+1, "target", x.Target)
		d.child(in+1, "value", x.Value)
	case *BinOp:
		d.line(in, "BinOp", "", "", "op="+x.Op)
		d.child(in+1, "left", x.Left)
		d.child(in+1, "right", x.Right)
	case *UnaryOp:
		d.line(in, "UnaryOp", posStr(x.OpPos), "", "op="+x.Op)
		d.child(in+1, "operand", x.Operand)
	case *Lambda:
		d.line(in, "Lambda", posStr(x.Lambda), "")
		d.field(in+1, "args")
		d.arguments(in+2, x.Args)
		d.child(in+1, "body", x.Body)
	case *IfExp:
		d.line(in, "IfExp", "", "")
		d.child(in+1, "test", x.Test)
		d.child(in+1, "body", x.Body)
		d.child(in+1, "orelse", x.Orelse)
	case *Dict:
		s, en := both(x)
		d.line(in, "Dict", s, en)
		if len(x.Keys) > 0 {
			d.field(in+1, "keys")
			for _, k := range x.Keys {
				if k == nil {
					d.line(in+2, "None", "", "")
				} else {
					d.expr(in+2, k)
				}
			}
		}
		d.exprs(in+1, "values", x.Values)
	case *Set:
		s, en := both(x)
		d.line(in, "Set", s, en)
		d.exprs(in+1, "elts", x.Elts)
	case *ListComp:
		s, en := both(x)
		d.line(in, "ListComp", s, en)
		d.child(in+1, "elt", x.Elt)
		d.generators(in+1, x.Generators)
	case *SetComp:
		s, en := both(x)
		d.line(in, "SetComp", s, en)
		d.child(in+1, "elt", x.Elt)
		d.generators(in+1, x.Generators)
	case *DictComp:
		s, en := both(x)
		d.line(in, "DictComp", s, en)
		d.child(in+1, "key", x.Key)
		d.child(in+1, "value", x.Value)
		d.generators(in+1, x.Generators)
	case *GeneratorExp:
		s, en := both(x)
		if infield {
			s, en = "", ""
		}
		d.line(in, "GeneratorExp", s, en)
		d.child(in+1, "elt", x.Elt)
		d.generators(in+1, x.Generators)
	case *Await:
		d.line(in, "Await", posStr(x.Await), "")
		d.child(in+1, "value", x.Value)
	case *Yield:
		kind := "Yield"
		if x.From {
			kind = "YieldFrom"
		}
		d.line(in, kind, posStr(x.Yield), posStr(x.EndPos))
		d.child(in+1, "value", x.Value)
	case *Compare:
		d.line(in, "Compare", "", "", "ops=["+strings.Join(x.Ops, ",")+"]")
		d.child(in+1, "left", x.Left)
		d.exprs(in+1, "comparators", x.Comparators)
	case *Call:
		d.line(in, "Call", "", posStr(x.End()))
		d.child(in+1, "func", x.Func)
		d.exprs(in+1, "args", x.Args)
		d.keywords(in+1, x.Keywords)
	case *JoinedStr:
		d.joined(in, x, true)
	case *Constant:
		s, en := both(x)
		if infield {
			s, en = "", ""
		}
		d.line(in, "Constant", s, en, "value="+constant(x.Value))
	case *Attribute:
		d.line(in, "Attribute", "", posStr(x.End()), "attr="+quote(x.Attr))
		d.child(in+1, "value", x.Value)
	case *Subscript:
		d.line(in, "Subscript", "", posStr(x.End()))
		d.child(in+1, "value", x.Value)
		d.child(in+1, "slice", x.Index)
	case *Starred:
		d.line(in, "Starred", posStr(x.Star), "")
		d.child(in+1, "value", x.Value)
	case *Name:
		s, en := both(x)
		d.line(in, "Name", s, en, "id="+quote(x.Id))
	case *List:
		s, en := both(x)
		d.line(in, "List", s, en)
		d.exprs(in+1, "elts", x.Elts)
	case *Tuple:
		s, en := "", ""
		if x.Paren && !infield {
			s, en = both(x)
		}
		d.line(in, "Tuple", s, en)
		d.exprs(in+1, "elts", x.Elts)
	case *Slice:
		s, en := both(x)
		d.line(in, "Slice", s, en)
		d.child(in+1, "lower", x.Lower)
		d.child(in+1, "upper", x.Upper)
		d.child(in+1, "step", x.Step)
	default:
		d.line(in, fmt.Sprintf("?%T", e), "", "")
	}
}

// joined writes an f-string as CPython's ast holds it: the text of a
// debug field `{x=}` as a constant before it, adjacent constants joined.
func (d *dumper) joined(in int, x *JoinedStr, top bool) {
	s, en := both(x)
	if !top || d.fstring > 0 {
		s, en = "", ""
	}
	d.line(in, "JoinedStr", s, en)
	var parts []Expr
	for _, v := range x.Values {
		if fv, ok := v.(*FormattedValue); ok && fv.Debug != "" {
			parts = append(parts, &Constant{Value: fv.Debug})
		}
		parts = append(parts, v)
	}
	parts = joinConstants(parts)
	if len(parts) == 0 {
		return
	}
	d.fstring++
	d.field(in+1, "values")
	for _, v := range parts {
		fv, ok := v.(*FormattedValue)
		if !ok {
			d.expr(in+2, v)
			continue
		}
		conv := -1
		if fv.Conversion != 0 {
			conv = int(fv.Conversion)
		}
		d.line(in+2, "FormattedValue", "", "", fmt.Sprintf("conversion=%d", conv))
		d.child(in+3, "value", fv.Value)
		if fv.FormatSpec != nil {
			d.field(in+3, "format_spec")
			d.joined(in+4, fv.FormatSpec, false)
		}
	}
	d.fstring--
}

func (d *dumper) generators(in int, list []*Comprehension) {
	d.field(in, "generators")
	for _, c := range list {
		async := 0
		if c.Async {
			async = 1
		}
		d.line(in+1, "comprehension", "", "", fmt.Sprintf("is_async=%d", async))
		d.child(in+2, "target", c.Target)
		d.child(in+2, "iter", c.Iter)
		d.exprs(in+2, "ifs", c.Ifs)
	}
}

// constant writes a constant's value as dump.py does.
func constant(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case int64:
		return fmt.Sprint(x)
	case *big.Int:
		return x.String()
	case float64:
		return fmt.Sprintf("f:%016x", math.Float64bits(x))
	case string:
		return quote(x)
	case Bytes:
		var b strings.Builder
		b.WriteString("b'")
		for i := 0; i < len(x); i++ {
			escapeRune(&b, rune(x[i]))
		}
		b.WriteString("'")
		return b.String()
	case Ellipsis:
		return "Ellipsis"
	}
	return fmt.Sprintf("?%T", v)
}

// quote writes a string with printable ASCII as it is and everything
// else escaped, so that the dump is plain ASCII.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		escapeRune(&b, r)
	}
	b.WriteByte('\'')
	return b.String()
}

func escapeRune(b *strings.Builder, r rune) {
	switch {
	case r == '\\' || r == '\'':
		b.WriteByte('\\')
		b.WriteRune(r)
	case 0x20 <= r && r < 0x7f:
		b.WriteRune(r)
	case r < 0x100:
		fmt.Fprintf(b, "\\x%02x", r)
	case r < 0x10000:
		fmt.Fprintf(b, "\\u%04x", r)
	default:
		fmt.Fprintf(b, "\\U%08x", r)
	}
}

// pattern writes a pattern as dump.py does: no positions.
func (d *dumper) pattern(in int, p Pattern) {
	patterns := func(name string, list []Pattern) {
		if len(list) == 0 {
			return
		}
		d.field(in+1, name)
		for _, q := range list {
			d.pattern(in+2, q)
		}
	}
	name := func(s string) string {
		if s == "" {
			return "name=None"
		}
		return "name=" + quote(s)
	}
	switch x := p.(type) {
	case *MatchValue:
		d.line(in, "MatchValue", "", "")
		d.field(in+1, "value")
		d.expr(in+2, x.Value)
	case *MatchSingleton:
		c := x.Value.(*Constant)
		if c.Value == nil {
			d.line(in, "MatchSingleton", "", "")
		} else {
			d.line(in, "MatchSingleton", "", "", "value="+constant(c.Value))
		}
	case *MatchSequence:
		d.line(in, "MatchSequence", "", "")
		patterns("patterns", x.Patterns)
	case *MatchStar:
		d.line(in, "MatchStar", "", "", name(x.Name))
	case *MatchMapping:
		var scalars []string
		if x.Rest != "" {
			scalars = append(scalars, "rest="+quote(x.Rest))
		}
		d.line(in, "MatchMapping", "", "", scalars...)
		d.exprs(in+1, "keys", x.Keys)
		patterns("patterns", x.Patterns)
	case *MatchClass:
		var scalars []string
		if len(x.KwdAttrs) > 0 {
			q := make([]string, len(x.KwdAttrs))
			for i, a := range x.KwdAttrs {
				q[i] = quote(a)
			}
			scalars = append(scalars, "kwd_attrs=["+strings.Join(q, ",")+"]")
		}
		d.line(in, "MatchClass", "", "", scalars...)
		d.child(in+1, "cls", x.Cls)
		patterns("patterns", x.Patterns)
		patterns("kwd_patterns", x.KwdPatterns)
	case *MatchAs:
		d.line(in, "MatchAs", "", "", name(x.Name))
		if x.Pattern != nil {
			d.field(in+1, "pattern")
			d.pattern(in+2, x.Pattern)
		}
	case *MatchOr:
		d.line(in, "MatchOr", "", "")
		patterns("patterns", x.Patterns)
	default:
		d.line(in, fmt.Sprintf("%T", p), "", "")
	}
}
