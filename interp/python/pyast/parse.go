package pyast

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"go.starlark.net/syntax"
)

// maxNest bounds how deeply expressions nest (brackets, unary
// operators, lambdas, conditional expressions, f-strings…), so that
// hostile input gets an error rather than a deep Go stack. CPython's
// tokenizer allows 200 open brackets; so does this parser.
const maxNest = 200

// Parse reads a Python program (the CPython 3.11 grammar) into a Module.
// An error is a syntax.Error at a position inside src, with CPython's
// message where CPython has one.
func Parse(filename, src string) (*Module, error) {
	file := filename
	m, e := parse(&file, src)
	if e != nil {
		line, col := clamp(src, e.line, e.col)
		return nil, syntax.Error{Pos: syntax.MakePosition(&file, line, col), Msg: e.msg}
	}
	return m, nil
}

func parse(file *string, src string) (mod *Module, e *perror) {
	defer func() {
		// A last resort: the parser is written not to panic.
		if r := recover(); r != nil {
			mod, e = nil, &perror{line: 1, col: 1, msg: fmt.Sprintf("internal error in the Python parser: %v", r)}
		}
	}()
	toks, serr := scanFile(src)
	p := &parser{file: file, src: src, toks: toks, serr: serr}
	body := p.fileInput()
	if e := p.failure(); e != nil {
		return nil, e
	}
	return &Module{Body: body}, nil
}

// A parser reads tokens; the first error ends it: from then on every
// token it reads is the tError or tEOF at the end, so every loop ends.
type parser struct {
	file    *string
	src     string
	toks    []token
	i       int   // the current token
	far     int   // the furthest token read: where a generic error is
	endLine int32 // the end of the last token consumed (not NEWLINE,
	endCol  int32 // INDENT or DEDENT): where a statement ends
	serr    *scanError
	err     *perror
	depth   int
	spec    int      // > 0 while trying an alternative
	field   bool     // parsing an f-string field: messages say so
	bare    []*Yield // the yields of this statement not in parentheses
}

// perror is a parser error, resolved against the tokenizer's by failure.
type perror struct {
	line, col int32
	msg       string
	farLine   int32 // the line of the furthest token read
	scan      bool  // the tokenizer's own error, reached by the parser
	generic   bool  // "invalid syntax" at the furthest token, no rule of its own
}

// lines splits src into lines as the tokenizer does: at LF, CRLF or CR.
func lines(src string) []string {
	var out []string
	start := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			out = append(out, src[start:i])
			start = i + 1
		case '\r':
			out = append(out, src[start:i])
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	return append(out, src[start:])
}

// inside reports whether line:col is in src: on one of its lines, at
// most just past that line's last character.
func inside(src string, line, col int32) bool {
	ls := lines(src)
	return 1 <= line && int(line) <= len(ls) && 1 <= col && int(col) <= utf8.RuneCountInString(ls[line-1])+1
}

// clamp moves a position inside src (a safety net: the parser reports
// positions inside the input, which FuzzParse checks).
func clamp(src string, line, col int32) (int32, int32) {
	if inside(src, line, col) {
		return line, col
	}
	ls := lines(src)
	if line < 1 {
		line, col = 1, 1
	}
	if int(line) > len(ls) {
		line, col = int32(len(ls)), 1<<30
	}
	width := int32(utf8.RuneCountInString(ls[line-1])) + 1
	col = max(1, min(col, width))
	return line, col
}

// failure is the error to report: the parser's, unless the tokenizer
// found one that CPython would report instead (see errKind).
func (p *parser) failure() *perror {
	e := p.err
	if e == nil || e.scan || p.serr == nil {
		return e
	}
	switch p.serr.kind {
	case errStrong:
		return p.scanError()
	case errUnclosed:
		if p.serr.line < e.farLine {
			return p.scanError()
		}
	}
	return e
}

// scanError is the tokenizer's error (not prefixed "f-string: " in a
// field, as in CPython 3.11).
func (p *parser) scanError() *perror {
	return &perror{line: p.serr.line, col: p.serr.col, msg: p.serr.msg, farLine: p.serr.line, scan: true}
}

func (p *parser) ok() bool { return p.err == nil }

// peek is the current token.
func (p *parser) peek() *token {
	if p.i > p.far {
		p.far = p.i
	}
	t := &p.toks[p.i]
	if t.kind == tError && p.err == nil {
		p.err = p.scanError()
	}
	return t
}

// peekAt is the token k places ahead.
func (p *parser) peekAt(k int) *token {
	i := p.i + k
	if i >= len(p.toks) {
		i = len(p.toks) - 1
	}
	if i > p.far {
		p.far = i
	}
	t := &p.toks[i]
	if t.kind == tError && p.err == nil {
		p.err = p.scanError()
	}
	return t
}

// next consumes the current token and returns it.
func (p *parser) next() *token {
	t := p.peek()
	if p.err != nil {
		return t
	}
	if p.i < len(p.toks)-1 {
		p.i++
	}
	switch t.kind {
	case tNewline, tIndent, tDedent, tEOF:
	default:
		p.endLine, p.endCol = t.eline, t.ecol
	}
	return t
}

func (p *parser) isOp(op string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == op
}

func (p *parser) isKw(kw string) bool {
	t := p.peek()
	return t.kind == tName && t.text == kw
}

// acceptOp and acceptKw consume op or kw; after an error, nothing, so
// that no loop over them can go on for ever at the token that failed.
func (p *parser) acceptOp(op string) bool {
	if p.isOp(op) && p.ok() {
		p.next()
		return true
	}
	return false
}

func (p *parser) acceptKw(kw string) bool {
	if p.isKw(kw) && p.ok() {
		p.next()
		return true
	}
	return false
}

// expectOp consumes op, or fails with a generic error.
func (p *parser) expectOp(op string) *token {
	if p.isOp(op) {
		return p.next()
	}
	p.syntaxError()
	return nil
}

func (p *parser) pos(t *token) Pos     { return syntax.MakePosition(p.file, t.line, t.col) }
func (p *parser) endOf(t *token) Pos   { return syntax.MakePosition(p.file, t.eline, t.ecol) }
func (p *parser) mkPos(l, c int32) Pos { return syntax.MakePosition(p.file, l, c) }
func (p *parser) lastEnd() Pos         { return syntax.MakePosition(p.file, p.endLine, p.endCol) }

// errorAt records the first error.
func (p *parser) errorAt(line, col int32, format string, args ...any) {
	if p.err != nil {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if p.field && !strings.HasPrefix(msg, "f-string") {
		msg = "f-string: " + msg
	}
	p.err = &perror{line: line, col: col, msg: msg, farLine: p.toks[p.far].line}
}

func (p *parser) errorAtPos(pos Pos, format string, args ...any) {
	p.errorAt(pos.Line, pos.Col, format, args...)
}

// errorAtTok reports an error at a token; at the end of the input, at
// the end of the last line, as CPython does.
func (p *parser) errorAtTok(t *token, format string, args ...any) {
	t = p.atEndOfInput(t)
	p.errorAt(t.line, t.col, format, args...)
}

// atEndOfInput is t, or the last NEWLINE when t is the end of the input
// or a DEDENT before it.
func (p *parser) atEndOfInput(t *token) *token {
	last := &p.toks[len(p.toks)-1]
	if t.kind != tEOF && t.kind != tDedent || last.kind != tEOF || t.off != last.off {
		return t
	}
	for j := len(p.toks) - 1; j >= 0; j-- {
		if p.toks[j].kind == tNewline {
			return &p.toks[j]
		}
	}
	return t
}

// syntaxError is CPython's generic error, at the furthest token read.
func (p *parser) syntaxError() {
	if p.err != nil {
		return
	}
	t := p.atEndOfInput(&p.toks[p.far])
	switch t.kind {
	case tError:
		p.err = p.scanError()
	case tIndent:
		p.errorAtTok(t, "unexpected indent")
	case tDedent:
		p.errorAtTok(t, "unexpected unindent")
	default:
		p.errorAtTok(t, "invalid syntax")
		p.err.generic = true
	}
}

// enter counts one more level of nesting; false when that is too many.
func (p *parser) enter() bool {
	p.depth++
	if p.depth > maxNest+1 {
		if p.err == nil {
			t := p.peek()
			p.errorAtTok(t, "expression too deeply nested (more than %d levels)", maxNest)
		}
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

// try runs an alternative; when it fails, the parser is put back as it
// was (the furthest token read stays, as in CPython).
func (p *parser) try(alt func() bool) bool {
	i, endLine, endCol, depth := p.i, p.endLine, p.endCol, p.depth
	p.spec++
	ok := alt() && p.err == nil
	p.spec--
	if !ok {
		p.i, p.endLine, p.endCol, p.depth = i, endLine, endCol, depth
		p.err = nil
	}
	return ok
}

// probe runs alt with every error rule on and keeps the error it
// reports when that error is one of a rule's own; otherwise it goes back
// as if alt had not run (the furthest token too, where a generic error
// is reported, as CPython reports it where its first pass stopped).
func (p *parser) probe(alt func()) bool {
	i, endLine, endCol, depth, far := p.i, p.endLine, p.endCol, p.depth, p.far
	alt()
	if p.err != nil && !p.err.generic && !p.err.scan {
		return true
	}
	p.i, p.endLine, p.endCol, p.depth, p.far = i, endLine, endCol, depth, far
	p.err = nil
	return false
}

// IsKeyword reports Python's hard keywords.
func IsKeyword(s string) bool {
	switch s {
	case "False", "None", "True", "and", "as", "assert", "async", "await",
		"break", "class", "continue", "def", "del", "elif", "else", "except",
		"finally", "for", "from", "global", "if", "import", "in", "is",
		"lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
		"while", "with", "yield":
		return true
	}
	return false
}

// ---- Statements ----

func (p *parser) fileInput() []Stmt {
	var body []Stmt
	for p.ok() {
		t := p.peek()
		if t.kind == tEOF || t.kind == tError {
			break
		}
		if t.kind == tNewline {
			p.next()
			continue
		}
		body = p.statement(body)
	}
	return body
}

// statement appends one statement (several for `a; b`) to out.
func (p *parser) statement(out []Stmt) []Stmt {
	t := p.peek()
	switch t.kind {
	case tIndent, tDedent:
		p.syntaxError()
		return out
	case tName:
		switch t.text {
		case "if":
			return append(out, p.ifStmt())
		case "while":
			return append(out, p.whileStmt())
		case "for":
			return append(out, p.forStmt(nil))
		case "try":
			return append(out, p.tryStmt())
		case "with":
			return append(out, p.withStmt(nil))
		case "def":
			return append(out, p.funcDef(nil, nil))
		case "class":
			return append(out, p.classDef(nil))
		case "async":
			return append(out, p.asyncStmt(nil))
		case "match":
			s, nl := p.matchStmt()
			if s != nil {
				return append(out, s)
			}
			if nl != nil {
				// `match x` and a newline: a match statement without its
				// colon, unless it reads as something else.
				out = p.simpleStmts(out)
				if p.err != nil && !p.err.scan {
					p.err = nil
					p.errorAtTok(nl, "expected ':'")
				}
				return out
			}
		}
	case tOp:
		if t.text == "@" {
			return append(out, p.decorated())
		}
	}
	return p.simpleStmts(out)
}

func (p *parser) simpleStmts(out []Stmt) []Stmt {
	for p.ok() {
		s := p.simpleStmt()
		if s == nil || !p.ok() {
			return out
		}
		out = append(out, s)
		if !p.acceptOp(";") || p.peek().kind == tNewline {
			break
		}
	}
	if p.peek().kind != tNewline {
		p.syntaxError()
		return out
	}
	p.next()
	return out
}

func (p *parser) simpleStmt() Stmt {
	t := p.peek()
	if t.kind == tName {
		switch t.text {
		case "pass":
			p.next()
			return &Pass{Keyword: p.pos(t)}
		case "break":
			p.next()
			return &Break{Keyword: p.pos(t)}
		case "continue":
			p.next()
			return &Continue{Keyword: p.pos(t)}
		case "return":
			p.next()
			s := &Return{Return: p.pos(t)}
			if p.startsExpr() || p.isOp("*") {
				s.Value = p.starExpressions()
			}
			s.EndPos = p.lastEnd()
			return s
		case "import":
			return p.importStmt()
		case "from":
			return p.fromStmt()
		case "raise":
			return p.raiseStmt()
		case "global", "nonlocal":
			return p.globalStmt()
		case "del":
			return p.delStmt()
		case "assert":
			return p.assertStmt()
		}
	}
	return p.exprStmt()
}

// startsExpr reports whether the current token can start an expression.
func (p *parser) startsExpr() bool {
	t := p.peek()
	switch t.kind {
	case tName:
		if !IsKeyword(t.text) {
			return true
		}
		switch t.text {
		case "not", "lambda", "await", "True", "False", "None":
			return true
		}
	case tNumber, tString:
		return true
	case tOp:
		switch t.text {
		case "(", "[", "{", "-", "+", "~", "...":
			return true
		}
	}
	return false
}

var augOps = map[string]string{
	"+=": "+", "-=": "-", "*=": "*", "@=": "@", "/=": "/", "%=": "%",
	"&=": "&", "|=": "|", "^=": "^", "<<=": "<<", ">>=": ">>", "**=": "**",
	"//=": "//",
}

// exprStmt is an expression, an assignment, an augmented assignment or
// an annotated one.
func (p *parser) exprStmt() Stmt {
	p.bare = p.bare[:0]
	first := p.rhs()
	if !p.ok() {
		return nil
	}
	t := p.peek()
	if t.kind != tOp {
		return &ExprStmt{Value: first}
	}
	switch t.text {
	case ":":
		return p.annAssign(first)
	case "=":
		return p.assign(first)
	}
	if op, ok := augOps[t.text]; ok {
		switch first.(type) {
		case *Name, *Attribute, *Subscript:
		default:
			p.errorAtPos(first.Pos(), "'%s' is an illegal expression for augmented assignment", exprName(first))
			return nil
		}
		p.next()
		v := p.rhs()
		return &AugAssign{Target: first, Op: op, OpPos: p.pos(t), Value: v}
	}
	return &ExprStmt{Value: first}
}

// rhs is what may follow `=`: a yield expression or star expressions.
func (p *parser) rhs() Expr {
	if p.isKw("yield") {
		y := p.yieldExpr().(*Yield)
		p.bare = append(p.bare, y)
		return y
	}
	return p.starExpressions()
}

func (p *parser) annAssign(target Expr) Stmt {
	switch x := target.(type) {
	case *Name, *Attribute, *Subscript:
	case *Tuple:
		p.errorAtPos(annTargetPos(target), "only single target (not tuple) can be annotated")
		return nil
	case *List:
		p.errorAtPos(x.Pos(), "only single target (not list) can be annotated")
		return nil
	default:
		p.errorAtPos(target.Pos(), "illegal target for annotation")
		return nil
	}
	p.next()
	s := &AnnAssign{Target: target, Annotation: p.expression()}
	if p.acceptOp("=") {
		s.Value = p.rhs()
	}
	return s
}

// annTargetPos is where CPython reports a tuple annotated: its first
// element when the tuple is bare.
func annTargetPos(e Expr) Pos {
	if t, ok := e.(*Tuple); ok && !t.Paren && len(t.Elts) > 0 {
		return t.Elts[0].Pos()
	}
	return e.Pos()
}

func (p *parser) assign(first Expr) Stmt {
	s := &Assign{Targets: []Expr{first}}
	var value Expr
	for p.isOp("=") {
		p.next()
		value = p.rhs()
		if !p.ok() {
			return nil
		}
		if p.isOp("=") {
			s.Targets = append(s.Targets, value)
		}
	}
	for i, t := range s.Targets {
		if y, ok := t.(*Yield); ok && slices.Contains(p.bare, y) {
			p.errorAtPos(y.Pos(), "assignment to yield expression not possible")
			return nil
		}
		if bad := invalidTarget(t, storeTarget); bad != nil {
			if i == 0 && len(s.Targets) == 1 && assignHere(t, bad, value) {
				p.errorAtPos(bad.Pos(), "cannot assign to %s here. Maybe you meant '==' instead of '='?", exprName(bad))
			} else {
				p.errorAtPos(bad.Pos(), "cannot assign to %s", exprName(bad))
			}
			return nil
		}
	}
	s.Value = value
	return s
}

// assignHere reports whether CPython would take `t = value` for a
// comparison miswritten: a single operand on each side.
func assignHere(t, bad, value Expr) bool {
	if tu, ok := t.(*Tuple); ok && !tu.Paren {
		if len(tu.Elts) == 0 || tu.Elts[len(tu.Elts)-1] != bad {
			return false
		}
		t = bad
	}
	if t != bad {
		return false
	}
	if c, ok := t.(*Constant); ok {
		switch c.Value.(type) {
		case nil, bool:
			return false
		}
	}
	switch t.(type) {
	case *List, *Tuple, *GeneratorExp, *Compare, *BoolOp, *Lambda, *IfExp, *NamedExpr, *Starred:
		return false
	case *UnaryOp:
		if t.(*UnaryOp).Op == "not" {
			return false
		}
	}
	return isBitOr(value)
}

// isBitOr reports whether e is at most a bitwise-or expression (no
// comparison, not, and/or, conditional, lambda, tuple or star).
func isBitOr(e Expr) bool {
	switch x := e.(type) {
	case *Compare, *BoolOp, *Lambda, *IfExp, *NamedExpr, *Starred, *Yield:
		return false
	case *Tuple:
		return x.Paren
	case *UnaryOp:
		return x.Op != "not"
	}
	return true
}

type targetKind int

const (
	storeTarget targetKind = iota
	delTarget
	forTarget
)

// invalidTarget is the part of e that cannot be assigned to (or
// deleted), or nil.
func invalidTarget(e Expr, kind targetKind) Expr {
	switch x := e.(type) {
	case *Name, *Attribute, *Subscript:
		return nil
	case *Tuple:
		for _, el := range x.Elts {
			if bad := invalidTarget(el, kind); bad != nil {
				return bad
			}
		}
		return nil
	case *List:
		for _, el := range x.Elts {
			if bad := invalidTarget(el, kind); bad != nil {
				return bad
			}
		}
		return nil
	case *Starred:
		if kind == delTarget {
			return x
		}
		return invalidTarget(x.Value, kind)
	case *Compare:
		if kind == forTarget {
			if x.Ops[0] == "in" {
				return invalidTarget(x.Left, kind)
			}
			return nil
		}
	}
	return e
}

// exprName names an expression as CPython's messages do.
func exprName(e Expr) string {
	switch x := e.(type) {
	case *Attribute:
		return "attribute"
	case *Subscript:
		return "subscript"
	case *Starred:
		return "starred"
	case *Name:
		return "name"
	case *List:
		return "list"
	case *Tuple:
		return "tuple"
	case *Lambda:
		return "lambda"
	case *Call:
		return "function call"
	case *BoolOp, *BinOp, *UnaryOp:
		return "expression"
	case *GeneratorExp:
		return "generator expression"
	case *Yield:
		return "yield expression"
	case *Await:
		return "await expression"
	case *ListComp:
		return "list comprehension"
	case *SetComp:
		return "set comprehension"
	case *DictComp:
		return "dict comprehension"
	case *Dict:
		return "dict literal"
	case *Set:
		return "set display"
	case *JoinedStr, *FormattedValue:
		return "f-string expression"
	case *Constant:
		switch v := x.Value.(type) {
		case nil:
			return "None"
		case bool:
			if v {
				return "True"
			}
			return "False"
		case Ellipsis:
			return "ellipsis"
		}
		return "literal"
	case *Compare:
		return "comparison"
	case *IfExp:
		return "conditional expression"
	case *NamedExpr:
		return "named expression"
	}
	return "expression"
}

func (p *parser) importStmt() Stmt {
	kw := p.next()
	s := &Import{Import: p.pos(kw)}
	for p.ok() {
		a := p.dottedAlias()
		if a == nil {
			return nil
		}
		s.Names = append(s.Names, a)
		if !p.acceptOp(",") {
			break
		}
	}
	s.EndPos = p.lastEnd()
	return s
}

// dottedAlias is `a.b.c [as d]`.
func (p *parser) dottedAlias() *Alias {
	t := p.peek()
	if t.kind != tName || IsKeyword(t.text) {
		p.syntaxError()
		return nil
	}
	a := &Alias{NamePos: p.pos(t)}
	name := p.dottedName()
	if name == "" {
		return nil
	}
	a.Name = name
	if p.acceptKw("as") {
		n := p.ident()
		if n == nil {
			return nil
		}
		a.AsName = n.Id
	}
	a.EndPos = p.lastEnd()
	return a
}

func (p *parser) dottedName() string {
	var b strings.Builder
	for {
		n := p.ident()
		if n == nil {
			return ""
		}
		b.WriteString(n.Id)
		if !p.isOp(".") {
			return b.String()
		}
		p.next()
		b.WriteByte('.')
	}
}

// ident is a NAME token that is not a keyword.
func (p *parser) ident() *Name {
	t := p.peek()
	if t.kind != tName || IsKeyword(t.text) {
		p.syntaxError()
		return nil
	}
	p.next()
	return &Name{NamePos: p.pos(t), Id: t.text}
}

func (p *parser) fromStmt() Stmt {
	kw := p.next()
	s := &ImportFrom{From: p.pos(kw)}
	for {
		if p.acceptOp(".") {
			s.Level++
		} else if p.acceptOp("...") {
			s.Level += 3
		} else {
			break
		}
	}
	if !p.isKw("import") || s.Level == 0 {
		s.Module = p.dottedName()
		if s.Module == "" {
			return nil
		}
	}
	if !p.acceptKw("import") {
		p.syntaxError()
		return nil
	}
	if t := p.peek(); t.kind == tOp && t.text == "*" {
		p.next()
		s.Names = []*Alias{{NamePos: p.pos(t), Name: "*", EndPos: p.endOf(t)}}
		s.EndPos = p.lastEnd()
		return s
	}
	paren := p.acceptOp("(")
	for p.ok() {
		t := p.peek()
		if paren && t.kind == tOp && t.text == ")" && len(s.Names) > 0 {
			break
		}
		n := p.ident()
		if n == nil {
			return nil
		}
		a := &Alias{NamePos: n.NamePos, Name: n.Id}
		if p.acceptKw("as") {
			as := p.ident()
			if as == nil {
				return nil
			}
			a.AsName = as.Id
		}
		a.EndPos = p.lastEnd()
		s.Names = append(s.Names, a)
		if !p.isOp(",") {
			break
		}
		p.next()
		if nl := p.peek(); !paren && nl.kind == tNewline {
			p.errorAtTok(nl, "trailing comma not allowed without surrounding parentheses")
			return nil
		}
	}
	if paren && p.expectOp(")") == nil {
		return nil
	}
	s.EndPos = p.lastEnd()
	return s
}

func (p *parser) raiseStmt() Stmt {
	kw := p.next()
	s := &Raise{Raise: p.pos(kw)}
	if p.startsExpr() {
		s.Exc = p.expression()
		if p.acceptKw("from") {
			s.Cause = p.expression()
		}
	}
	s.EndPos = p.lastEnd()
	return s
}

func (p *parser) globalStmt() Stmt {
	kw := p.next()
	var names []*Name
	for p.ok() {
		n := p.ident()
		if n == nil {
			return nil
		}
		names = append(names, n)
		if !p.acceptOp(",") {
			break
		}
	}
	if kw.text == "global" {
		return &Global{Global: p.pos(kw), Names: names}
	}
	return &Nonlocal{Nonlocal: p.pos(kw), Names: names}
}

func (p *parser) delStmt() Stmt {
	kw := p.next()
	s := &Delete{Del: p.pos(kw)}
	e := p.starExpressions()
	if !p.ok() {
		return nil
	}
	if t, ok := e.(*Tuple); ok && !t.Paren {
		s.Targets = t.Elts
	} else {
		s.Targets = []Expr{e}
	}
	for _, t := range s.Targets {
		if bad := invalidTarget(t, delTarget); bad != nil {
			p.errorAtPos(bad.Pos(), "cannot delete %s", exprName(bad))
			return nil
		}
	}
	s.EndPos = p.lastEnd()
	return s
}

func (p *parser) assertStmt() Stmt {
	kw := p.next()
	s := &Assert{Assert: p.pos(kw), Test: p.expression()}
	if p.acceptOp(",") {
		s.Msg = p.expression()
	}
	s.EndPos = p.lastEnd()
	return s
}

// ---- Compound statements ----

// colon expects the ':' of a compound statement. With forced, anything
// else is "expected ':'" (CPython's &&':'); without, only the end of the
// line is, anything else a generic error.
func (p *parser) colon(forced bool) bool {
	t := p.peek()
	if t.kind == tOp && t.text == ":" {
		p.next()
		return true
	}
	if p.ok() && (forced || t.kind == tNewline) {
		p.errorAtTok(t, "expected ':'")
	} else {
		p.syntaxError()
	}
	return false
}

// block is the body after a ':': an indented block or simple statements
// on the same line. what and kw name the statement for the error that
// an indented block is missing.
func (p *parser) block(what string, kw *token) []Stmt {
	if p.peek().kind != tNewline {
		return p.simpleStmts(nil)
	}
	p.next()
	t := p.peek()
	if t.kind != tIndent {
		if p.ok() {
			p.errorAtTok(t, "expected an indented block after %s on line %d", what, kw.line)
		}
		return nil
	}
	p.next()
	var body []Stmt
	for p.ok() {
		k := p.peek().kind
		if k == tDedent || k == tEOF {
			break
		}
		body = p.statement(body)
	}
	if p.ok() {
		p.next() // the DEDENT
	}
	return body
}

func (p *parser) ifStmt() Stmt {
	kw := p.next()
	s := &If{If: p.pos(kw), Elif: kw.text == "elif"}
	s.Test = p.namedExpression()
	if !p.colon(false) {
		return s
	}
	s.Body = p.block("'"+kw.text+"' statement", kw)
	if p.isKw("elif") {
		s.Orelse = []Stmt{p.ifStmt()}
	} else if p.isKw("else") {
		s.Orelse = p.elseBlock()
	}
	s.EndPos = p.lastEnd()
	return s
}

func (p *parser) elseBlock() []Stmt {
	kw := p.next()
	if !p.colon(true) {
		return nil
	}
	return p.block("'else' statement", kw)
}

func (p *parser) whileStmt() Stmt {
	kw := p.next()
	s := &While{While: p.pos(kw), Test: p.namedExpression()}
	if !p.colon(false) {
		return s
	}
	s.Body = p.block("'while' statement", kw)
	if p.isKw("else") {
		s.Orelse = p.elseBlock()
	}
	s.EndPos = p.lastEnd()
	return s
}

func (p *parser) forStmt(async *token) Stmt {
	kw := p.next()
	s := &For{For: p.pos(kw), Async: async != nil}
	if async != nil {
		s.For = p.pos(async)
	}
	s.Target = p.targets()
	if !p.ok() {
		return s
	}
	if !p.acceptKw("in") {
		p.forTargetError(s.Target)
		return s
	}
	s.Iter = p.starExpressions()
	if !p.colon(false) {
		return s
	}
	s.Body = p.block("'for' statement", kw)
	if p.isKw("else") {
		s.Orelse = p.elseBlock()
	}
	s.EndPos = p.lastEnd()
	return s
}

// targets reads the targets of a for loop or a comprehension clause:
// what may be assigned, up to `in`.
func (p *parser) targets() Expr {
	var elts []Expr
	comma := false
	for p.ok() {
		var e Expr
		if t := p.peek(); t.kind == tOp && t.text == "*" {
			p.next()
			e = &Starred{Star: p.pos(t), Value: p.bitOr()}
		} else {
			e = p.bitOr()
		}
		elts = append(elts, e)
		if !p.isOp(",") {
			break
		}
		p.next()
		comma = true
		if p.isKw("in") || p.isOp("=") {
			break
		}
	}
	if !p.ok() {
		return nil
	}
	var target Expr = elts[0]
	if comma {
		target = &Tuple{Lparen: elts[0].Pos(), Rparen: elts[len(elts)-1].Pos(), Elts: elts}
	}
	if bad := invalidTarget(target, forTarget); bad != nil {
		p.errorAtPos(bad.Pos(), "cannot assign to %s", exprName(bad))
		return nil
	}
	return target
}

// forTargetError is the error for a for loop without `in` after its
// targets.
func (p *parser) forTargetError(target Expr) {
	p.syntaxError()
}

func (p *parser) tryStmt() Stmt {
	kw := p.next()
	s := &Try{Try: p.pos(kw)}
	if !p.colon(true) {
		return s
	}
	s.Body = p.block("'try' statement", kw)
	for p.ok() && p.isKw("except") {
		h := p.exceptHandler(s)
		if h == nil {
			return s
		}
		s.Handlers = append(s.Handlers, h)
	}
	if len(s.Handlers) > 0 && p.isKw("else") {
		s.Orelse = p.elseBlock()
	}
	if p.isKw("finally") {
		fk := p.next()
		if p.colon(true) {
			s.Finalbody = p.block("'finally' statement", fk)
		}
	} else if len(s.Handlers) == 0 && p.ok() {
		p.errorAtTok(p.peek(), "expected 'except' or 'finally' block")
	}
	s.EndPos = p.lastEnd()
	return s
}

func (p *parser) exceptHandler(s *Try) *ExceptHandler {
	kw := p.next()
	h := &ExceptHandler{Except: p.pos(kw)}
	star := false
	if t := p.peek(); t.kind == tOp && t.text == "*" {
		p.next()
		star = true
	}
	if len(s.Handlers) == 0 {
		s.Star = star
	} else if star != s.Star {
		p.errorAtTok(kw, "cannot have both 'except' and 'except*' on the same 'try'")
		return nil
	}
	what := "'except' statement"
	if star {
		what = "'except*' statement"
	}
	if !p.isOp(":") || star {
		if star && (p.isOp(":") || p.peek().kind == tNewline) {
			p.errorAtTok(p.peek(), "expected one or more exception types")
			return nil
		}
		h.Type = p.expression()
		if p.isOp(",") {
			// except A, B: the types must be in parentheses.
			first := h.Type
			p.next()
			p.expression()
			for p.acceptOp(",") {
				p.expression()
			}
			if p.ok() {
				if p.isKw("as") || p.isOp(":") {
					p.errorAtPos(first.Pos(), "multiple exception types must be parenthesized")
				} else {
					p.syntaxError()
				}
			}
			return nil
		}
		if p.acceptKw("as") {
			h.Name = p.ident()
		}
	}
	if !p.colon(false) {
		return nil
	}
	h.Body = p.block(what, kw)
	h.EndPos = p.lastEnd()
	return h
}

func (p *parser) withStmt(async *token) Stmt {
	kw := p.next()
	s := &With{With: p.pos(kw), Async: async != nil}
	if async != nil {
		s.With = p.pos(async)
	}
	// with (a as b, c): items in parentheses, else a parenthesized
	// expression starts the first item.
	if p.isOp("(") {
		var items []*WithItem
		if p.try(func() bool {
			p.next()
			for p.ok() {
				items = append(items, p.withItem())
				if !p.acceptOp(",") || p.isOp(")") {
					break
				}
			}
			return p.acceptOp(")") && p.isOp(":")
		}) {
			s.Items = items
		}
	}
	if s.Items == nil {
		for p.ok() {
			s.Items = append(s.Items, p.withItem())
			if !p.isOp(",") {
				break
			}
			p.next()
		}
	}
	if !p.colon(true) {
		return s
	}
	s.Body = p.block("'with' statement", kw)
	s.EndPos = p.lastEnd()
	return s
}

func (p *parser) withItem() *WithItem {
	it := &WithItem{Context: p.expression()}
	if p.acceptKw("as") {
		it.Vars = p.expression()
		if p.ok() {
			if bad := invalidTarget(it.Vars, storeTarget); bad != nil {
				p.errorAtPos(bad.Pos(), "cannot assign to %s", exprName(bad))
			}
		}
	}
	return it
}

func (p *parser) decorated() Stmt {
	var decos []Expr
	for p.ok() && p.isOp("@") {
		p.next()
		decos = append(decos, p.namedExpression())
		if p.ok() && p.peek().kind != tNewline {
			p.syntaxError()
			return nil
		}
		p.next()
	}
	switch {
	case p.isKw("def"):
		return p.funcDef(nil, decos)
	case p.isKw("class"):
		return p.classDef(decos)
	case p.isKw("async") && p.peekAt(1).kind == tName && p.peekAt(1).text == "def":
		a := p.next()
		return p.funcDef(a, decos)
	}
	p.syntaxError()
	return nil
}

func (p *parser) asyncStmt(decos []Expr) Stmt {
	a := p.next()
	switch {
	case p.isKw("def"):
		return p.funcDef(a, decos)
	case p.isKw("for"):
		return p.forStmt(a)
	case p.isKw("with"):
		return p.withStmt(a)
	}
	p.syntaxError()
	return nil
}

func (p *parser) funcDef(async *token, decos []Expr) Stmt {
	kw := p.next()
	s := &FunctionDef{Def: p.pos(kw), Decorators: decos, Async: async != nil}
	if async != nil {
		s.Def = p.pos(async)
	}
	s.Name = p.ident()
	if !p.ok() {
		return s
	}
	if !p.isOp("(") {
		p.errorAtTok(p.peek(), "expected '('")
		return s
	}
	p.next()
	s.Args = p.parameters(false)
	if !p.ok() {
		return s
	}
	if p.expectOp(")") == nil {
		return s
	}
	if p.acceptOp("->") {
		s.Returns = p.expression()
	}
	if !p.colon(true) {
		return s
	}
	s.Body = p.block("function definition", kw)
	s.EndPos = p.lastEnd()
	return s
}

func (p *parser) classDef(decos []Expr) Stmt {
	kw := p.next()
	s := &ClassDef{Class: p.pos(kw), Decorators: decos}
	s.Name = p.ident()
	if p.isOp("(") {
		lp := p.next()
		c := p.callArgs(nil, lp)
		if c == nil {
			return s
		}
		s.Bases, s.Keywords = c.Args, c.Keywords
	}
	if !p.colon(false) {
		return s
	}
	s.Body = p.block("class definition", kw)
	s.EndPos = p.lastEnd()
	return s
}

// parenthesizedParams reports whether `(a, b)` comes, as if to put
// parameters in parentheses.
func (p *parser) parenthesizedParams() bool {
	k := 1
	for {
		t := p.peekAt(k)
		if t.kind != tName || IsKeyword(t.text) {
			return false
		}
		k++
		if t := p.peekAt(k); t.kind == tOp && t.text == "," {
			k++
		}
		if t := p.peekAt(k); t.kind == tOp && t.text == ")" {
			return true
		}
	}
}

// parameters reads the parameters of a def (up to ')') or of a lambda
// (up to ':').
func (p *parser) parameters(lambda bool) *Arguments {
	a := &Arguments{}
	end := ")"
	if lambda {
		end = ":"
	}
	const (
		posArgs = iota
		afterStar
		afterKwarg
	)
	state := posArgs
	slash := false
	sawDefault := false
	param := func() *Arg {
		n := p.ident()
		if n == nil {
			return nil
		}
		arg := &Arg{NamePos: n.NamePos, Name: n.Id}
		if !lambda && p.acceptOp(":") {
			if state == afterStar && a.Vararg == nil && p.isOp("*") {
				// *args: *Ts
				st := p.next()
				arg.Annotation = &Starred{Star: p.pos(st), Value: p.expression()}
			} else {
				arg.Annotation = p.expression()
			}
		}
		return arg
	}
	for p.ok() && !p.isOp(end) {
		t := p.peek()
		switch {
		case t.kind == tOp && t.text == "/":
			if state != posArgs {
				p.errorAtTok(t, "/ must be ahead of *")
				return nil
			}
			if slash {
				p.errorAtTok(t, "/ may appear only once")
				return nil
			}
			if len(a.Args) == 0 {
				p.errorAtTok(t, "at least one argument must precede /")
				return nil
			}
			p.next()
			slash = true
			a.PosOnly, a.Args = a.Args, nil
		case t.kind == tOp && t.text == "*":
			if state != posArgs {
				if state == afterKwarg {
					p.errorAtTok(t, "arguments cannot follow var-keyword argument")
				} else {
					p.errorAtTok(t, "* argument may appear only once")
				}
				return nil
			}
			p.next()
			state = afterStar
			if p.isOp(",") {
				a.Star = true
				if next := p.peekAt(1); next.kind == tOp && (next.text == end || next.text == "**") {
					p.errorAtTok(t, "named arguments must follow bare *")
					return nil
				}
			} else if p.isOp(end) {
				p.errorAtTok(t, "named arguments must follow bare *")
				return nil
			} else {
				a.Vararg = param()
				if p.isOp("=") {
					p.errorAtTok(p.peek(), "var-positional argument cannot have default value")
					return nil
				}
			}
		case t.kind == tOp && t.text == "**":
			if state == afterKwarg {
				p.errorAtTok(t, "arguments cannot follow var-keyword argument")
				return nil
			}
			p.next()
			a.Kwarg = param()
			if p.isOp("=") {
				p.errorAtTok(p.peek(), "var-keyword argument cannot have default value")
				return nil
			}
			state = afterKwarg
		case t.kind == tOp && t.text == "(" && p.parenthesizedParams():
			if lambda {
				p.errorAtTok(t, "Lambda expression parameters cannot be parenthesized")
			} else {
				p.errorAtTok(t, "Function parameters cannot be parenthesized")
			}
			return nil
		default:
			if state == afterKwarg {
				p.errorAtTok(t, "arguments cannot follow var-keyword argument")
				return nil
			}
			arg := param()
			if arg == nil {
				return nil
			}
			var def Expr
			if p.isOp("=") {
				eq := p.next()
				if p.isOp(",") || p.isOp(end) {
					p.errorAtTok(eq, "expected default value expression")
					return nil
				}
				def = p.expression()
			}
			if state == afterStar {
				a.KwOnly = append(a.KwOnly, arg)
				a.KwDefaults = append(a.KwDefaults, def)
			} else {
				if def != nil {
					sawDefault = true
					a.Defaults = append(a.Defaults, def)
				} else if sawDefault {
					p.errorAtPos(arg.NamePos, "non-default argument follows default argument")
					return nil
				}
				a.Args = append(a.Args, arg)
			}
		}
		if !p.ok() {
			return nil
		}
		if !p.acceptOp(",") {
			break
		}
	}
	if p.ok() && !p.isOp(end) {
		if lambda || !p.isOp("(") {
			p.syntaxError()
			return nil
		}
		p.syntaxError()
		return nil
	}
	return a
}
