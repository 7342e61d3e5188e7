// Package pyast reads the Python that programs are written in: a
// tokenizer and a parser that build the syntax tree defined here, with
// every node at the user's own line and column. It follows the grammar of
// CPython 3.11 and the shape of its ast module, so that the rest of the
// front end (package python) can give each construct Python's meaning.
//
// The parser accepts all of the language's syntax, including what onetool
// does not run (classes with bodies, async, yield, decorators): it
// is the lowering that refuses those, with a hint saying what to write
// instead, so that such a program gets a clear message rather than a
// syntax error.
//
// Positions are go.starlark.net syntax.Position values: a 1-based line
// and a 1-based column counted in runes, the convention of the Starlark
// trees the front end produces.
package pyast

import (
	"math/big"

	"go.starlark.net/syntax"
)

// Pos is a position in the source.
type Pos = syntax.Position

// A Node is any node of the tree. Pos is where it starts; End is just
// past where it ends.
type Node interface {
	Pos() Pos
	End() Pos
}

// A Stmt is a statement.
type Stmt interface {
	Node
	stmt()
}

// An Expr is an expression.
type Expr interface {
	Node
	expr()
}

// Module is a whole program.
type Module struct {
	Body []Stmt
}

// ---- Statements ----

// FunctionDef is `def name(args) -> returns: body`, with its decorators.
type FunctionDef struct {
	Def        Pos // the `def` keyword (or `async`)
	Name       *Name
	Args       *Arguments
	Returns    Expr // the annotation, or nil
	Body       []Stmt
	Decorators []Expr // each after its @
	Async      bool
	EndPos     Pos
}

// ClassDef is `class Name(bases, keywords): body`.
type ClassDef struct {
	Class      Pos
	Name       *Name
	Bases      []Expr
	Keywords   []*Keyword
	Body       []Stmt
	Decorators []Expr
	EndPos     Pos
}

// Return is `return value`; Value is nil for a bare return.
type Return struct {
	Return Pos
	Value  Expr
	EndPos Pos
}

// Delete is `del targets`.
type Delete struct {
	Del     Pos
	Targets []Expr
	EndPos  Pos
}

// Assign is `t1 = t2 = value`: Targets in source order.
type Assign struct {
	Targets []Expr
	Value   Expr
}

// AugAssign is `target op= value`; Op is the binary operator ("+", "//", …).
type AugAssign struct {
	Target Expr
	Op     string
	OpPos  Pos
	Value  Expr
}

// AnnAssign is `target: annotation = value`; Value is nil when there is
// none.
type AnnAssign struct {
	Target     Expr
	Annotation Expr
	Value      Expr
}

// For is `for target in iter: body else: orelse`.
type For struct {
	For    Pos
	Target Expr
	Iter   Expr
	Body   []Stmt
	Orelse []Stmt
	Async  bool
	EndPos Pos
}

// While is `while test: body else: orelse`.
type While struct {
	While  Pos
	Test   Expr
	Body   []Stmt
	Orelse []Stmt
	EndPos Pos
}

// If is `if test: body else: orelse`; an elif is an If alone in Orelse,
// with Elif set.
type If struct {
	If     Pos
	Test   Expr
	Body   []Stmt
	Orelse []Stmt
	Elif   bool
	EndPos Pos
}

// With is `with items: body` (async with is refused by the lowering).
type With struct {
	With   Pos
	Items  []*WithItem
	Body   []Stmt
	Async  bool
	EndPos Pos
}

// WithItem is `context as vars`; Vars is nil without `as`.
type WithItem struct {
	Context Expr
	Vars    Expr
}

// Match is a match statement: its subject (a Tuple for `match a, b:`)
// and its cases, tried in order (see match.go for the patterns).
type Match struct {
	Match   Pos
	Subject Expr
	Cases   []*MatchCase
	EndPos  Pos
}

// MatchCase is `case pattern if guard: body`; Guard is nil without if.
type MatchCase struct {
	Case    Pos
	Pattern Pattern
	Guard   Expr
	Body    []Stmt
}

// Raise is `raise exc from cause`; both nil for a bare raise.
type Raise struct {
	Raise  Pos
	Exc    Expr
	Cause  Expr
	EndPos Pos
}

// Try is try/except/else/finally; Star marks `except*` handlers (all of
// a try's handlers are of one kind).
type Try struct {
	Try       Pos
	Body      []Stmt
	Handlers  []*ExceptHandler
	Orelse    []Stmt
	Finalbody []Stmt
	EndPos    Pos
	Star      bool
}

// ExceptHandler is `except type as name: body`; Type is nil for a bare
// except, Name nil without `as`.
type ExceptHandler struct {
	Except Pos
	Type   Expr
	Name   *Name
	Body   []Stmt
	EndPos Pos
}

// Assert is `assert test, msg`; Msg may be nil.
type Assert struct {
	Assert Pos
	Test   Expr
	Msg    Expr
	EndPos Pos
}

// Import is `import a.b as c, d`.
type Import struct {
	Import Pos
	Names  []*Alias
	EndPos Pos
}

// ImportFrom is `from module import names`; Level counts leading dots,
// and a single Alias named "*" is `import *`.
type ImportFrom struct {
	From   Pos
	Module string // dotted, "" for `from . import x`
	Names  []*Alias
	Level  int
	EndPos Pos
}

// Alias is a name of an import and what it is bound to: Name is dotted
// ("os.path"), AsName "" without `as`.
type Alias struct {
	NamePos Pos
	Name    string
	AsName  string
	EndPos  Pos
}

// Global is `global names`.
type Global struct {
	Global Pos
	Names  []*Name
}

// Nonlocal is `nonlocal names`.
type Nonlocal struct {
	Nonlocal Pos
	Names    []*Name
}

// ExprStmt is an expression used as a statement.
type ExprStmt struct {
	Value Expr
}

// Pass, Break and Continue are the statements of those names.
type (
	Pass     struct{ Keyword Pos }
	Break    struct{ Keyword Pos }
	Continue struct{ Keyword Pos }
)

// ---- Expressions ----

// BoolOp is `a and b and c` or `a or b`: Op is "and" or "or".
type BoolOp struct {
	Op     string
	OpPos  Pos // the first operator
	Values []Expr
}

// NamedExpr is `target := value`.
type NamedExpr struct {
	Target *Name
	OpPos  Pos
	Value  Expr
}

// BinOp is `left op right`; Op is "+", "-", "*", "@", "/", "//", "%",
// "**", "<<", ">>", "|", "^" or "&".
type BinOp struct {
	Left  Expr
	Op    string
	OpPos Pos
	Right Expr
}

// UnaryOp is `op operand`; Op is "not", "-", "+" or "~".
type UnaryOp struct {
	OpPos   Pos
	Op      string
	Operand Expr
}

// Lambda is `lambda args: body`.
type Lambda struct {
	Lambda Pos
	Args   *Arguments
	Body   Expr
}

// IfExp is `body if test else orelse`.
type IfExp struct {
	Body   Expr
	If     Pos
	Test   Expr
	Orelse Expr
}

// Dict is `{k: v, **m}`: a nil key marks `**value`.
type Dict struct {
	Lbrace, Rbrace Pos
	Keys           []Expr
	Values         []Expr
}

// Set is `{a, b}`.
type Set struct {
	Lbrace, Rbrace Pos
	Elts           []Expr
}

// ListComp is `[elt for …]`.
type ListComp struct {
	Lbrack, Rbrack Pos
	Elt            Expr
	Generators     []*Comprehension
}

// SetComp is `{elt for …}`.
type SetComp struct {
	Lbrace, Rbrace Pos
	Elt            Expr
	Generators     []*Comprehension
}

// DictComp is `{key: value for …}`.
type DictComp struct {
	Lbrace, Rbrace Pos
	Key, Value     Expr
	Generators     []*Comprehension
}

// GeneratorExp is `(elt for …)`, also the sole argument `f(elt for …)`
// (then Lparen and Rparen are the call's).
type GeneratorExp struct {
	Lparen, Rparen Pos
	Elt            Expr
	Generators     []*Comprehension
}

// Comprehension is one `for target in iter if cond…` clause.
type Comprehension struct {
	For    Pos
	Target Expr
	Iter   Expr
	Ifs    []Expr
	Async  bool
}

// Await is `await value` (refused by the lowering).
type Await struct {
	Await Pos
	Value Expr
}

// Yield is `yield value` or, with From, `yield from value` (refused by
// the lowering); Value may be nil.
type Yield struct {
	Yield  Pos
	Value  Expr
	From   bool
	EndPos Pos
}

// Compare is `left op1 c1 op2 c2 …`: Ops are "==", "!=", "<", "<=", ">",
// ">=", "is", "is not", "in" or "not in".
type Compare struct {
	Left        Expr
	Ops         []string
	OpPos       []Pos
	Comparators []Expr
}

// Call is `func(args, keywords)`: Args may hold *Starred; a Keyword with
// Arg "" is `**value`.
type Call struct {
	Func           Expr
	Lparen, Rparen Pos
	Args           []Expr
	Keywords       []*Keyword
}

// Keyword is `arg=value`, or `**value` when Arg is "".
type Keyword struct {
	ArgPos Pos
	Arg    string
	Value  Expr
}

// FormattedValue is one replacement field of an f-string: `{value!c:spec}`.
// Conversion is 0, 'r', 's' or 'a'; FormatSpec is nil when there is none.
// Debug holds the text of `{expr=}` up to and including the `=` (with its
// spaces), which the field prints before the value; as in CPython, such a
// field without a conversion or a spec has Conversion 'r'.
type FormattedValue struct {
	Lbrace, Rbrace Pos
	Value          Expr
	Conversion     rune
	FormatSpec     *JoinedStr
	Debug          string
}

// JoinedStr is an f-string: constant parts (*Constant holding a string)
// and *FormattedValue fields, in order. Adjacent literals are joined into
// one JoinedStr when any of them is an f-string.
type JoinedStr struct {
	Start, EndPos Pos
	Values        []Expr
}

// Constant is a literal: Value is nil (None), bool, int64, *big.Int,
// float64, string, Bytes or Ellipsis. Adjacent string literals are one
// Constant.
type Constant struct {
	Start, EndPos Pos
	Value         any
	Raw           string // the source text (the first literal's, for joined ones)
}

// Bytes is the value of a bytes literal.
type Bytes string

// Ellipsis is the value of `...`.
type Ellipsis struct{}

// Attribute is `value.attr`.
type Attribute struct {
	Value   Expr
	Dot     Pos
	Attr    string
	AttrPos Pos
}

// Subscript is `value[index]`; Index may be a *Slice, or a *Tuple of
// indexes and slices (`a[1:2, 3]`).
type Subscript struct {
	Value          Expr
	Lbrack, Rbrack Pos
	Index          Expr
}

// Starred is `*value`, in a call, a display or an assignment target.
type Starred struct {
	Star  Pos
	Value Expr
}

// Name is an identifier.
type Name struct {
	NamePos Pos
	Id      string
}

// List is `[a, b]`.
type List struct {
	Lbrack, Rbrack Pos
	Elts           []Expr
}

// Tuple is `a, b` or `(a, b)`; Paren reports the parentheses, whose
// positions are then Lparen and Rparen (else those of the first and last
// element).
type Tuple struct {
	Lparen, Rparen Pos
	Elts           []Expr
	Paren          bool
}

// Slice is `lower:upper:step` inside a subscript; each part may be nil.
type Slice struct {
	Start, EndPos      Pos
	Lower, Upper, Step Expr
}

// Arguments are the parameters of a def or lambda. Defaults belong to
// the last len(Defaults) of PosOnly followed by Args; KwDefaults has one
// entry per KwOnly, nil where that one has no default.
type Arguments struct {
	PosOnly    []*Arg
	Args       []*Arg
	Vararg     *Arg // *args, or nil
	KwOnly     []*Arg
	KwDefaults []Expr
	Kwarg      *Arg // **kwargs, or nil
	Defaults   []Expr
	// Star marks a bare `*` (keyword-only parameters follow).
	Star bool
}

// Arg is one parameter; Annotation is nil when there is none.
type Arg struct {
	NamePos    Pos
	Name       string
	Annotation Expr
}

// BigInt is the value of an integer literal beyond int64.
type BigInt = *big.Int

// ---- Positions ----

func (n *FunctionDef) Pos() Pos {
	if len(n.Decorators) > 0 {
		return n.Decorators[0].Pos()
	}
	return n.Def
}
func (n *FunctionDef) End() Pos { return n.EndPos }
func (n *ClassDef) Pos() Pos {
	if len(n.Decorators) > 0 {
		return n.Decorators[0].Pos()
	}
	return n.Class
}
func (n *ClassDef) End() Pos       { return n.EndPos }
func (n *Return) Pos() Pos         { return n.Return }
func (n *Return) End() Pos         { return n.EndPos }
func (n *Delete) Pos() Pos         { return n.Del }
func (n *Delete) End() Pos         { return n.EndPos }
func (n *Assign) Pos() Pos         { return n.Targets[0].Pos() }
func (n *Assign) End() Pos         { return n.Value.End() }
func (n *AugAssign) Pos() Pos      { return n.Target.Pos() }
func (n *AugAssign) End() Pos      { return n.Value.End() }
func (n *AnnAssign) Pos() Pos      { return n.Target.Pos() }
func (n *AnnAssign) End() Pos      { return endOf(n.Value, n.Annotation) }
func (n *For) Pos() Pos            { return n.For }
func (n *For) End() Pos            { return n.EndPos }
func (n *While) Pos() Pos          { return n.While }
func (n *While) End() Pos          { return n.EndPos }
func (n *If) Pos() Pos             { return n.If }
func (n *If) End() Pos             { return n.EndPos }
func (n *With) Pos() Pos           { return n.With }
func (n *With) End() Pos           { return n.EndPos }
func (n *Match) Pos() Pos          { return n.Match }
func (n *Match) End() Pos          { return n.EndPos }
func (n *Raise) Pos() Pos          { return n.Raise }
func (n *Raise) End() Pos          { return n.EndPos }
func (n *Try) Pos() Pos            { return n.Try }
func (n *Try) End() Pos            { return n.EndPos }
func (n *ExceptHandler) Pos() Pos  { return n.Except }
func (n *ExceptHandler) End() Pos  { return n.EndPos }
func (n *Assert) Pos() Pos         { return n.Assert }
func (n *Assert) End() Pos         { return n.EndPos }
func (n *Import) Pos() Pos         { return n.Import }
func (n *Import) End() Pos         { return n.EndPos }
func (n *ImportFrom) Pos() Pos     { return n.From }
func (n *ImportFrom) End() Pos     { return n.EndPos }
func (n *Global) Pos() Pos         { return n.Global }
func (n *Global) End() Pos         { return n.Names[len(n.Names)-1].End() }
func (n *Nonlocal) Pos() Pos       { return n.Nonlocal }
func (n *Nonlocal) End() Pos       { return n.Names[len(n.Names)-1].End() }
func (n *ExprStmt) Pos() Pos       { return n.Value.Pos() }
func (n *ExprStmt) End() Pos       { return n.Value.End() }
func (n *Pass) Pos() Pos           { return n.Keyword }
func (n *Pass) End() Pos           { return after(n.Keyword, "pass") }
func (n *Break) Pos() Pos          { return n.Keyword }
func (n *Break) End() Pos          { return after(n.Keyword, "break") }
func (n *Continue) Pos() Pos       { return n.Keyword }
func (n *Continue) End() Pos       { return after(n.Keyword, "continue") }
func (n *BoolOp) Pos() Pos         { return n.Values[0].Pos() }
func (n *BoolOp) End() Pos         { return n.Values[len(n.Values)-1].End() }
func (n *NamedExpr) Pos() Pos      { return n.Target.Pos() }
func (n *NamedExpr) End() Pos      { return n.Value.End() }
func (n *BinOp) Pos() Pos          { return n.Left.Pos() }
func (n *BinOp) End() Pos          { return n.Right.End() }
func (n *UnaryOp) Pos() Pos        { return n.OpPos }
func (n *UnaryOp) End() Pos        { return n.Operand.End() }
func (n *Lambda) Pos() Pos         { return n.Lambda }
func (n *Lambda) End() Pos         { return n.Body.End() }
func (n *IfExp) Pos() Pos          { return n.Body.Pos() }
func (n *IfExp) End() Pos          { return n.Orelse.End() }
func (n *Dict) Pos() Pos           { return n.Lbrace }
func (n *Dict) End() Pos           { return after(n.Rbrace, "}") }
func (n *Set) Pos() Pos            { return n.Lbrace }
func (n *Set) End() Pos            { return after(n.Rbrace, "}") }
func (n *ListComp) Pos() Pos       { return n.Lbrack }
func (n *ListComp) End() Pos       { return after(n.Rbrack, "]") }
func (n *SetComp) Pos() Pos        { return n.Lbrace }
func (n *SetComp) End() Pos        { return after(n.Rbrace, "}") }
func (n *DictComp) Pos() Pos       { return n.Lbrace }
func (n *DictComp) End() Pos       { return after(n.Rbrace, "}") }
func (n *GeneratorExp) Pos() Pos   { return n.Lparen }
func (n *GeneratorExp) End() Pos   { return after(n.Rparen, ")") }
func (n *Comprehension) Pos() Pos  { return n.For }
func (n *Comprehension) End() Pos  { return endOf(lastExpr(n.Ifs), n.Iter) }
func (n *Await) Pos() Pos          { return n.Await }
func (n *Await) End() Pos          { return n.Value.End() }
func (n *Yield) Pos() Pos          { return n.Yield }
func (n *Yield) End() Pos          { return n.EndPos }
func (n *Compare) Pos() Pos        { return n.Left.Pos() }
func (n *Compare) End() Pos        { return n.Comparators[len(n.Comparators)-1].End() }
func (n *Call) Pos() Pos           { return n.Func.Pos() }
func (n *Call) End() Pos           { return after(n.Rparen, ")") }
func (n *FormattedValue) Pos() Pos { return n.Lbrace }
func (n *FormattedValue) End() Pos { return after(n.Rbrace, "}") }
func (n *JoinedStr) Pos() Pos      { return n.Start }
func (n *JoinedStr) End() Pos      { return n.EndPos }
func (n *Constant) Pos() Pos       { return n.Start }
func (n *Constant) End() Pos       { return n.EndPos }
func (n *Attribute) Pos() Pos      { return n.Value.Pos() }
func (n *Attribute) End() Pos      { return after(n.AttrPos, n.Attr) }
func (n *Subscript) Pos() Pos      { return n.Value.Pos() }
func (n *Subscript) End() Pos      { return after(n.Rbrack, "]") }
func (n *Starred) Pos() Pos        { return n.Star }
func (n *Starred) End() Pos        { return n.Value.End() }
func (n *Name) Pos() Pos           { return n.NamePos }
func (n *Name) End() Pos           { return after(n.NamePos, n.Id) }
func (n *List) Pos() Pos           { return n.Lbrack }
func (n *List) End() Pos           { return after(n.Rbrack, "]") }
func (n *Slice) Pos() Pos          { return n.Start }
func (n *Slice) End() Pos          { return n.EndPos }
func (n *Tuple) Pos() Pos {
	if n.Paren || len(n.Elts) == 0 {
		return n.Lparen
	}
	return n.Elts[0].Pos()
}
func (n *Tuple) End() Pos {
	if n.Paren || len(n.Elts) == 0 {
		return after(n.Rparen, ")")
	}
	return n.Elts[len(n.Elts)-1].End()
}

func (*FunctionDef) stmt()    {}
func (*ClassDef) stmt()       {}
func (*Return) stmt()         {}
func (*Delete) stmt()         {}
func (*Assign) stmt()         {}
func (*AugAssign) stmt()      {}
func (*AnnAssign) stmt()      {}
func (*For) stmt()            {}
func (*While) stmt()          {}
func (*If) stmt()             {}
func (*With) stmt()           {}
func (*Match) stmt()          {}
func (*Raise) stmt()          {}
func (*Try) stmt()            {}
func (*Assert) stmt()         {}
func (*Import) stmt()         {}
func (*ImportFrom) stmt()     {}
func (*Global) stmt()         {}
func (*Nonlocal) stmt()       {}
func (*ExprStmt) stmt()       {}
func (*Pass) stmt()           {}
func (*Break) stmt()          {}
func (*Continue) stmt()       {}
func (*BoolOp) expr()         {}
func (*NamedExpr) expr()      {}
func (*BinOp) expr()          {}
func (*UnaryOp) expr()        {}
func (*Lambda) expr()         {}
func (*IfExp) expr()          {}
func (*Dict) expr()           {}
func (*Set) expr()            {}
func (*ListComp) expr()       {}
func (*SetComp) expr()        {}
func (*DictComp) expr()       {}
func (*GeneratorExp) expr()   {}
func (*Await) expr()          {}
func (*Yield) expr()          {}
func (*Compare) expr()        {}
func (*Call) expr()           {}
func (*FormattedValue) expr() {}
func (*JoinedStr) expr()      {}
func (*Constant) expr()       {}
func (*Attribute) expr()      {}
func (*Subscript) expr()      {}
func (*Starred) expr()        {}
func (*Name) expr()           {}
func (*List) expr()           {}
func (*Tuple) expr()          {}
func (*Slice) expr()          {}

// after is the position just past text written at p (on one line).
func after(p Pos, text string) Pos {
	p.Col += int32(len([]rune(text)))
	return p
}

func endOf(a, b Expr) Pos {
	if a != nil {
		return a.End()
	}
	return b.End()
}

func lastExpr(list []Expr) Expr {
	if len(list) == 0 {
		return nil
	}
	return list[len(list)-1]
}
