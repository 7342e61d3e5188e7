package python

import (
	"maps"
	"math/big"
	"math/bits"
	"slices"
	"strings"

	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/lowered"
	"github.com/onetool-dev/onetool/interp/python/pyast"
)

// Expressions.

// optExpr lowers e, or gives None where it is absent (a slice bound).
func (l *lowerer) optExpr(pos syntax.Position, e pyast.Expr) syntax.Expr {
	if e == nil {
		return noneAt(pos)
	}
	return l.expr(e)
}

func (l *lowerer) exprs(list []pyast.Expr) []syntax.Expr {
	out := make([]syntax.Expr, len(list))
	for i, e := range list {
		out[i] = l.expr(e)
	}
	return out
}

func (l *lowerer) expr(e pyast.Expr) syntax.Expr {
	switch e := e.(type) {
	case *pyast.Name:
		return l.name(e.NamePos, e.Id)
	case *pyast.Constant:
		return l.constant(e)
	case *pyast.JoinedStr:
		return l.fstring(e)
	case *pyast.BoolOp:
		op := syntax.AND
		if e.Op == "or" {
			op = syntax.OR
		}
		x := l.expr(e.Values[0])
		for _, v := range e.Values[1:] {
			x = binary(e.OpPos, op, x, l.expr(v))
		}
		return x
	case *pyast.NamedExpr:
		if l.isPlain(e.Target.Id) {
			l.errorf(e.OpPos, "':=' cannot assign to the name of an except clause")
			return noneAt(e.OpPos)
		}
		return callAt(e.OpPos, "__ot_walrus", ident(e.Target.NamePos, cellVar(e.Target.Id)), l.expr(e.Value))
	case *pyast.BinOp:
		return l.binop(e)
	case *pyast.UnaryOp:
		op, ok := unaryTokens[e.Op]
		if !ok {
			l.errorf(e.OpPos, "invalid syntax")
			return noneAt(e.OpPos)
		}
		if e.Op != "not" && l.isBool(e.Operand) {
			// -(a > b) is -1 or 0, as the int a bool is: the operator
			// applies to __ot_boolint(x), the int of a bool and any
			// other value as it is (-x of 0.0 stays -0.0).
			return &syntax.UnaryExpr{OpPos: e.OpPos, Op: op, X: callAt(e.OpPos, "__ot_boolint", l.expr(e.Operand))}
		}
		return &syntax.UnaryExpr{OpPos: e.OpPos, Op: op, X: l.expr(e.Operand)}
	case *pyast.Lambda:
		params := l.params(e.Args)
		saved := l.scope
		l.scope = l.sc.of[e]
		body := l.expr(e.Body)
		gen := l.scope.generator
		l.scope = saved
		if gen {
			// lambda x: (yield x): a lambda whose call makes a generator
			// of an inner lambda of the same parameters.
			names := paramIdents(params)
			inner := &syntax.LambdaExpr{Lambda: e.Lambda, Params: names, Body: body}
			args := []syntax.Expr{&syntax.ParenExpr{Lparen: e.Lambda, X: inner, Rparen: e.Lambda}, strLit(e.Lambda, "<lambda>")}
			args = append(args, paramIdents(params)...)
			body = callAt(e.Lambda, lowered.Generator, args...)
		}
		return &syntax.LambdaExpr{Lambda: e.Lambda, Params: params, Body: body}
	case *pyast.IfExp:
		return &syntax.CondExpr{If: e.If, Cond: l.expr(e.Test), True: l.expr(e.Body), ElsePos: e.If, False: l.expr(e.Orelse)}
	case *pyast.Dict:
		return l.dict(e)
	case *pyast.Set:
		return l.setDisplay(e, false)
	case *pyast.ListComp:
		return l.comprehension(e, e.Lbrack, e.Rbrack, e.Generators, e.Elt, nil)
	case *pyast.SetComp:
		return callAt(e.Lbrace, "__ot_set", l.comprehension(e, e.Lbrace, e.Rbrace, e.Generators, e.Elt, nil))
	case *pyast.DictComp:
		return l.comprehension(e, e.Lbrace, e.Rbrace, e.Generators, e.Key, e.Value)
	case *pyast.GeneratorExp:
		// A generator of one for clause over a name is a Go iterator of
		// lambdas; any other runs as a generator (genExp).
		if lazy := l.lazyGenerator(e); lazy != nil {
			return lazy
		}
		return l.genExp(e)
	case *pyast.Compare:
		return l.compare(e)
	case *pyast.Call:
		return l.call(e)
	case *pyast.Attribute:
		if lowered.DunderAttr(e.Attr) {
			return callAt(e.AttrPos, "__ot_dunder", l.expr(e.Value), strLit(e.AttrPos, e.Attr))
		}
		if _, ok := lowered.Method(e.Attr); ok && !l.isBuiltinType(e.Value) {
			// xs.count taken as a value (max(set(xs), key=xs.count)):
			// the method onetool implements for the receiver's kind,
			// bound to it; anything else's own attribute.
			return callAt(e.AttrPos, lowered.GetMethod, l.expr(e.Value), strLit(e.AttrPos, e.Attr))
		}
		return &syntax.DotExpr{X: l.expr(e.Value), Dot: e.Dot, NamePos: e.AttrPos, Name: ident(e.AttrPos, l.mangle(e.Attr))}
	case *pyast.Subscript:
		return l.subscript(e)
	case *pyast.List:
		return l.sequence(e.Lbrack, e.Rbrack, e.Elts)
	case *pyast.Tuple:
		if hasStarred(e.Elts) {
			return callAt(e.Pos(), "__ot_tuple", l.sequence(e.Lparen, e.Rparen, e.Elts))
		}
		return &syntax.TupleExpr{Lparen: e.Lparen, List: l.exprs(e.Elts), Rparen: e.Rparen}
	case *pyast.Starred:
		l.errorf(e.Star, "can't use starred expression here")
	case *pyast.Await:
		if l.atTopLevel() {
			// await at a program's top level: the tools called while its
			// operand is evaluated give awaitables, and no other of the
			// top level's (see pyrt.InCoroutine).
			fn := &syntax.LambdaExpr{Lambda: e.Await, Body: l.expr(e.Value)}
			return callAt(e.Await, lowered.TopLevelAwait, &syntax.ParenExpr{Lparen: e.Await, X: fn, Rparen: e.Await})
		}
		return callAt(e.Await, lowered.Await, l.expr(e.Value))
	case *pyast.Yield:
		var v syntax.Expr = noneAt(e.Yield)
		if e.Value != nil {
			v = l.expr(e.Value)
		}
		if e.From {
			return callAt(e.Yield, lowered.YieldFrom, v)
		}
		return callAt(e.Yield, lowered.Yield, v)
	case *pyast.Slice:
		l.errorf(e.Start, "invalid syntax")
	case *pyast.FormattedValue:
		l.errorf(e.Lbrace, "invalid syntax")
	default:
		l.errorf(e.Pos(), "invalid syntax")
	}
	return noneAt(e.Pos())
}

var unaryTokens = map[string]syntax.Token{"not": syntax.NOT, "-": syntax.MINUS, "+": syntax.PLUS, "~": syntax.TILDE}

// ---- Literals ----

func (l *lowerer) constant(c *pyast.Constant) syntax.Expr {
	pos := c.Start
	switch v := c.Value.(type) {
	case nil:
		return noneAt(pos)
	case bool:
		if v {
			return ident(pos, "True")
		}
		return ident(pos, "False")
	case int64:
		return &syntax.Literal{Token: syntax.INT, TokenPos: pos, Raw: c.Raw, Value: v}
	case *big.Int:
		return &syntax.Literal{Token: syntax.INT, TokenPos: pos, Raw: c.Raw, Value: v}
	case float64:
		return &syntax.Literal{Token: syntax.FLOAT, TokenPos: pos, Raw: c.Raw, Value: v}
	case string:
		return l.text(pos, v)
	case pyast.Bytes:
		return l.bytesLit(pos, c.Raw, string(v))
	case pyast.Ellipsis:
		return ident(pos, "__ot_ellipsis")
	}
	l.errorf(pos, "unsupported literal")
	return noneAt(pos)
}

// text is a str literal. An ASCII one is a Starlark string; any other is
// made once, at the start of the program, by __ot_u (see
// interp.MakeString), and read from a variable wherever it is used.
func (l *lowerer) text(pos syntax.Position, s string) syntax.Expr {
	if interp.IsASCII(s) {
		return strLit(pos, s)
	}
	name, ok := l.texts[s]
	if !ok {
		if l.texts == nil {
			l.texts = map[string]string{}
		}
		name = l.temp("s")
		l.texts[s] = name
		l.literals = append(l.literals, assignStmt(pos, ident(pos, name), callAt(pos, "__ot_u", strLit(pos, s))))
	}
	return ident(pos, name)
}

// bytesLit is a bytes literal, made once, at the start of the program, by
// __ot_b (Python's bytes, interp.Bytes, which Starlark's literal is not),
// and read from a variable wherever it is used.
func (l *lowerer) bytesLit(pos syntax.Position, raw, s string) syntax.Expr {
	key := "\x00b " + s // beside the texts, which are never keyed so
	name, ok := l.texts[key]
	if !ok {
		if l.texts == nil {
			l.texts = map[string]string{}
		}
		name = l.temp("b")
		l.texts[key] = name
		lit := &syntax.Literal{Token: syntax.BYTES, TokenPos: pos, Raw: raw, Value: s}
		l.literals = append(l.literals, assignStmt(pos, ident(pos, name), callAt(pos, "__ot_b", lit)))
	}
	return ident(pos, name)
}

// haystack is an ASCII str literal on the right of `in`, made once at
// the start of the program by __ot_hay (see asciiHaystack).
func (l *lowerer) haystack(pos syntax.Position, s string) syntax.Expr {
	key := "\x00in " + s // beside the texts, which are never keyed so
	name, ok := l.texts[key]
	if !ok {
		if l.texts == nil {
			l.texts = map[string]string{}
		}
		name = l.temp("h")
		l.texts[key] = name
		l.literals = append(l.literals, assignStmt(pos, ident(pos, name), callAt(pos, "__ot_hay", strLit(pos, s))))
	}
	return ident(pos, name)
}

// fstring lowers an f-string to __ot_f(parts): text, then for each field
// its value, conversion and spec, then text, and so on (see fstring in
// helpers.go).
func (l *lowerer) fstring(e *pyast.JoinedStr) syntax.Expr {
	pos := e.Start
	var parts []syntax.Expr
	text := ""
	for _, v := range e.Values {
		switch v := v.(type) {
		case *pyast.Constant:
			s, _ := v.Value.(string)
			text += s
		case *pyast.FormattedValue:
			text += v.Debug
			conv := ""
			if v.Conversion != 0 {
				conv = string(v.Conversion)
			} else if v.Debug != "" && v.FormatSpec == nil {
				conv = "r" // f"{x=}" shows repr(x)
			}
			var spec syntax.Expr = noneAt(v.Lbrace)
			if v.FormatSpec != nil {
				if s, ok := constantText(v.FormatSpec); ok {
					spec = strLit(v.Lbrace, s)
				} else {
					spec = l.fstring(v.FormatSpec)
				}
			}
			parts = append(parts, strLit(pos, text), l.expr(v.Value), strLit(v.Lbrace, conv), spec)
			text = ""
		}
	}
	if len(parts) == 0 {
		return l.text(pos, text)
	}
	parts = append(parts, strLit(pos, text))
	return callAt(pos, "__ot_f", tuple(pos, parts...))
}

// constantText returns the text of an f-string with no fields.
func constantText(e *pyast.JoinedStr) (string, bool) {
	s := ""
	for _, v := range e.Values {
		c, ok := v.(*pyast.Constant)
		if !ok {
			return "", false
		}
		t, _ := c.Value.(string)
		s += t
	}
	return s, true
}

// setDisplay lowers {a, b, …}. A display of three or more constants is
// made as CPython makes it, from a frozenset the compiler made (see
// setConst), unless it is only the haystack of `in`.
func (l *lowerer) setDisplay(e *pyast.Set, haystack bool) syntax.Expr {
	helper := "__ot_set"
	if !haystack && len(e.Elts) >= 3 {
		helper = "__ot_setconst"
		for _, x := range e.Elts {
			if !isConstant(x) {
				helper = "__ot_set"
				break
			}
		}
	}
	return callAt(e.Lbrace, helper, l.sequence(e.Lbrace, e.Rbrace, e.Elts))
}

// isConstant reports what CPython's compiler folds to a constant: a
// literal, a signed number, a tuple of constants.
func isConstant(e pyast.Expr) bool {
	switch e := e.(type) {
	case *pyast.Constant:
		return true
	case *pyast.UnaryOp:
		return (e.Op == "-" || e.Op == "+") && isNumberLiteral(e.Operand)
	case *pyast.Tuple:
		for _, x := range e.Elts {
			if !isConstant(x) {
				return false
			}
		}
		return true
	}
	return false
}

// ---- Operators ----

func (l *lowerer) binop(e *pyast.BinOp) syntax.Expr {
	x, y := l.expr(e.Left), l.expr(e.Right)
	if helper := l.binaryHelper(e.Op, e.Left, e.Right); helper != "" {
		return callAt(e.OpPos, helper, x, y)
	}
	tok, ok := lowered.BinaryToken(e.Op)
	if !ok && e.Op == "@" {
		// Matrix multiplication: only the classes that define it have it.
		return callAt(e.OpPos, "__ot_matmul", x, y)
	}
	if !ok {
		l.errorf(e.OpPos, "the "+e.Op+" operator is not supported")
		return noneAt(e.OpPos)
	}
	if name := l.divisionHelper(e.Op, e.Left, e.Right); name != "" {
		if cheapExpr(y) && clonable(x) {
			// y is tested first: a zero goes to the helper, which
			// words a float's division by zero as Python does. Only
			// one branch runs: x is evaluated once.
			return &syntax.CondExpr{If: e.OpPos, Cond: cloneExpr(y), True: binary(e.OpPos, tok, x, y),
				ElsePos: e.OpPos, False: callAt(e.OpPos, name, cloneExpr(x), cloneExpr(y))}
		}
		return callAt(e.OpPos, name, x, y)
	}
	return binary(e.OpPos, tok, x, y)
}

// divisionHelper names the helper of x / y or x // y when y may be zero
// and either side a float: 1.0 / 0 is "float division by zero" in
// Python, and the interpreter words it as 1 / 0. A divisor that is a
// number literal other than 0, or two ints plain to see, need none.
func (l *lowerer) divisionHelper(op string, x, y pyast.Expr) string {
	name, ok := lowered.ZeroDiv(op)
	if !ok || nonZeroLiteral(y) || l.surelyInt(x) && l.surelyInt(y) {
		return ""
	}
	return name
}

// nonZeroLiteral reports a number literal other than 0 (or its negation).
func nonZeroLiteral(e pyast.Expr) bool {
	if u, ok := e.(*pyast.UnaryOp); ok && (u.Op == "-" || u.Op == "+") {
		e = u.Operand
	}
	c, ok := e.(*pyast.Constant)
	if !ok {
		return false
	}
	switch v := c.Value.(type) {
	case int64:
		return v != 0
	case float64:
		return v != 0
	case *big.Int:
		return v.Sign() != 0
	}
	return false
}

// surelyInt reports an expression that is an int: a bounded one (see
// boundedInt) or len(…).
func (l *lowerer) surelyInt(e pyast.Expr) bool {
	if c, ok := e.(*pyast.Call); ok {
		if f, ok := c.Func.(*pyast.Name); ok && f.Id == "len" {
			return true
		}
	}
	return l.boundedInt(e)
}

// binaryHelper names the helper that computes x op y where Starlark's
// operator would not do what Python's does, or would do it unbounded:
//
//	x ** y   always (Starlark has no **)
//	x * y    unless one side is a literal that cannot make the product
//	         bigger than the other (smallFactor), or both are bounded
//	         ints (boundedInt)
//	x + y    unless one side is a small number (smallAddend): a
//	x - y    concatenation is sized before it is made, and an int that
//	         could double (v = v + v) is held to limits.max_int_digits
//	x << y   unless a bounded int is shifted by a small literal
//	x % y    unless one side is a number literal (i % 2): the left may
//	         be a str, formatted with Python's printf rules
//
// and any arithmetic with an operand that is plainly a bool (a
// comparison, `not x`, True, isinstance(…), s.startswith(…)): Python's
// bool is an int, so `count += (x > 3)` counts; Starlark refuses it.
func (l *lowerer) binaryHelper(op string, x, y pyast.Expr) string {
	if name, ok := lowered.BoolArith(op); ok && (l.isBool(x) || l.isBool(y)) {
		return name
	}
	switch op {
	case "|", "&", "^":
		// Two sets are combined as CPython combines them (the order of
		// the result's elements is its table's); ints are left to the
		// interpreter.
		if !l.isNumber(x) && !l.isNumber(y) {
			return setOpNames[op]
		}
	case "+":
		if l.smallAddend(x) || l.smallAddend(y) {
			return ""
		}
		return lowered.Add
	case "-":
		if surelySet(x) || surelySet(y) || l.isSetName(x) || l.isSetName(y) {
			return setOpNames[op]
		}
		if l.smallAddend(x) || l.smallAddend(y) {
			return ""
		}
		return setOpNames[op] // ints checked against limits.max_int_digits, sets in CPython's order
	case "<<":
		if l.boundedInt(x) && smallShift(y) {
			return ""
		}
		return lowered.LShift
	case "**":
		return "__ot_pow"
	case "*":
		if smallFactor(x) || smallFactor(y) || l.boundedInt(x) && l.boundedInt(y) {
			return ""
		}
		return lowered.Mul
	case "%":
		if isFormatLiteral(x) || !isNumberLiteral(x) && !isNumberLiteral(y) && !l.boundedInt(x) {
			return lowered.Mod
		}
	}
	return ""
}

// setOpNames are the helpers of the set operators (setalgebra.go); the
// augmented assignments' are "__ot_i" and the same name.
var setOpNames = map[string]string{"|": "__ot_or", "&": "__ot_and", "^": "__ot_xor", "-": "__ot_sub"}

// surelyNumber reports an expression whose value is a number if it is
// anything: a number literal, arithmetic on those, a call of a builtin
// that returns a number.
func surelyNumber(e pyast.Expr) bool {
	switch e := e.(type) {
	case *pyast.Constant:
		switch e.Value.(type) {
		case int64, *big.Int, float64, bool:
			return true
		}
	case *pyast.UnaryOp:
		return e.Op != "not" && surelyNumber(e.Operand)
	case *pyast.BinOp:
		switch e.Op {
		case "<<", ">>", "//", "**", "/":
			return true // operators of numbers only (of sets, text and lists none)
		}
		return surelyNumber(e.Left) && surelyNumber(e.Right)
	case *pyast.Call:
		if f, ok := e.Func.(*pyast.Name); ok {
			switch f.Id {
			case "len", "int", "float", "abs", "round", "ord", "hash":
				return true
			}
		}
	}
	return false
}

// surelyText reports an expression whose value is a str if it is
// anything: a str literal, an f-string, str(…), a concatenation or
// %-formatting of a literal, a str method that makes a str.
func surelyText(e pyast.Expr) bool {
	switch e := e.(type) {
	case *pyast.Constant:
		_, ok := e.Value.(string)
		return ok
	case *pyast.JoinedStr:
		return true
	case *pyast.BinOp:
		switch e.Op {
		case "+":
			return surelyText(e.Left) || surelyText(e.Right)
		case "%", "*":
			return surelyText(e.Left)
		}
	case *pyast.Call:
		switch f := e.Func.(type) {
		case *pyast.Name:
			switch f.Id {
			case "str", "chr", "repr", "format", "ascii", "hex", "oct", "bin":
				return true
			}
		case *pyast.Attribute:
			switch f.Attr {
			case "join", "format", "upper", "lower", "strip", "lstrip", "rstrip", "title", "capitalize",
				"center", "ljust", "rjust", "zfill", "replace", "casefold", "swapcase", "format_map":
				return surelyText(f.Value)
			}
		}
	}
	return false
}

// isNumber reports an expression that is surely a number, or a name its
// scope assigns a number and no set.
func (l *lowerer) isNumber(e pyast.Expr) bool {
	if surelyNumber(e) {
		return true
	}
	n, ok := e.(*pyast.Name)
	if !ok {
		return false
	}
	for s := l.scope; s != nil; s = s.parent {
		if s.nums[n.Id] && !s.sets[n.Id] {
			return true
		}
		if s.bound[n.Id] {
			return false
		}
	}
	return false
}

// boundedInt reports an expression that is an int of a size the source
// bounds: an int literal, a name that only for loops over range(…) bind
// (isRangeInt), and +, -, *, //, % of those, of at most maxBoundedBits
// bits. Such a product needs no size check and such a left operand of %
// is no text to format, so both stay the interpreter's: `i * 7 % n` in a
// loop makes no helper call.
func (l *lowerer) boundedInt(e pyast.Expr) bool {
	bits, ok := l.intBits(e)
	return ok && bits <= maxBoundedBits
}

// maxBoundedBits is the most bits boundedInt lets an int have: far below
// any limits.max_int_digits (5,000 digits are 16,610 bits), so that
// adding one to an int of the bound cannot carry it further than a digit
// past it in any number of steps.
const maxBoundedBits = 256

// intBits is the most bits the int e can have, for boundedInt.
func (l *lowerer) intBits(e pyast.Expr) (int, bool) {
	switch e := e.(type) {
	case *pyast.Constant:
		switch v := e.Value.(type) {
		case int64:
			if v < 0 {
				v = -v // MinInt64 stays itself, 64 bits as uint64
			}
			return bits.Len64(uint64(v)), true
		case bool:
			return 1, true
		}
	case *pyast.Name:
		return 64, l.isRangeInt(e.Id)
	case *pyast.UnaryOp:
		if e.Op == "-" || e.Op == "+" {
			return l.intBits(e.Operand)
		}
	case *pyast.BinOp:
		x, okx := l.intBits(e.Left)
		y, oky := l.intBits(e.Right)
		if !okx || !oky {
			return 0, false
		}
		switch e.Op {
		case "+", "-":
			return max(x, y) + 1, true
		case "*":
			return x + y, true
		case "//":
			return x + 1, true // -5 // 7 is -1; otherwise |x // y| <= |x|
		case "%":
			return y, true
		}
	}
	return 0, false
}

// smallAddend reports an operand of + or - that keeps the other from
// growing: a bounded int (boundedInt) or a float literal. With it, x + y
// is a number or an error, never a concatenation, and an int grows by at
// most the bounded one per step: it stays the interpreter's (i + 1,
// total - 1.5, n - len(xs) make no helper call).
func (l *lowerer) smallAddend(e pyast.Expr) bool {
	if u, ok := e.(*pyast.UnaryOp); ok && (u.Op == "-" || u.Op == "+") {
		e = u.Operand
	}
	if c, ok := e.(*pyast.Constant); ok {
		if _, ok := c.Value.(float64); ok {
			return true
		}
	}
	if c, ok := e.(*pyast.Call); ok && len(c.Args) == 1 && len(c.Keywords) == 0 {
		if f, ok := c.Func.(*pyast.Name); ok && f.Id == "len" && l.scope.owner("len") == nil {
			return true
		}
	}
	return l.boundedInt(e)
}

// smallShift reports a shift count that is an int literal of at most 64.
func smallShift(e pyast.Expr) bool {
	c, ok := e.(*pyast.Constant)
	if !ok {
		return false
	}
	n, ok := c.Value.(int64)
	return ok && n >= 0 && n <= 64
}

// isRangeInt reports a name, as read from the current scope, that only
// for loops over the builtin range bind: it holds an int of a range.
func (l *lowerer) isRangeInt(name string) bool {
	if l.isPlain(name) {
		return false
	}
	for s := l.scope; s != nil; s = s.parent {
		if s.global[name] || s.nonlocal[name] {
			return false
		}
		if s.bound[name] {
			return s.rangeOnly(name) && s.owner("range") == nil
		}
	}
	return false
}

// isContainer reports a name that only container values bind (memo = {},
// seen = set()): never a str, so that `k in memo` can be the
// interpreter's own operator.
func (l *lowerer) isContainer(e pyast.Expr) bool {
	n, ok := e.(*pyast.Name)
	if !ok || l.isPlain(n.Id) {
		return false
	}
	for s := l.scope; s != nil; s = s.parent {
		if s.global[n.Id] || s.nonlocal[n.Id] {
			return false
		}
		if s.bound[n.Id] {
			return s.containerOnly(n.Id) && !l.bindsContainerCall()
		}
	}
	return false
}

// bindsContainerCall reports a program that binds a name of
// containerCalls itself (def list(…)), whose call may then make anything.
func (l *lowerer) bindsContainerCall() bool {
	if l.containerCallsBound == nil {
		bound := false
		for _, s := range append([]*scope{l.sc.module}, slices.Collect(maps.Values(l.sc.of))...) {
			for _, name := range containerCalls {
				if s.bound[name] || s.global[name] {
					bound = true
				}
			}
		}
		l.containerCallsBound = &bound
	}
	return *l.containerCallsBound
}

// surelySet reports a set display or comprehension, or a call of set or
// frozenset.
func surelySet(e pyast.Expr) bool {
	switch e := e.(type) {
	case *pyast.Set, *pyast.SetComp:
		return true
	case *pyast.Call:
		if f, ok := e.Func.(*pyast.Name); ok {
			return f.Id == "set" || f.Id == "frozenset"
		}
	}
	return false
}

// isBuiltinType reports a name of a builtin class the program does not
// rebind (str.maketrans, dict.fromkeys): its attributes are its own.
func (l *lowerer) isBuiltinType(e pyast.Expr) bool {
	n, ok := e.(*pyast.Name)
	if !ok {
		return false
	}
	switch n.Id {
	case "str", "int", "float", "bool", "list", "dict", "set", "frozenset", "tuple", "bytes", "bytearray", "object", "type":
	default:
		return false
	}
	for s := l.scope; s != nil; s = s.parent {
		if s.bound[n.Id] {
			return false
		}
	}
	return true
}

// isBool reports an expression whose value is a bool: plainly one (see
// isBoolExpr), or a name its scope assigns only bools (passed = score
// >= 50; total += passed).
func (l *lowerer) isBool(e pyast.Expr) bool {
	if isBoolExpr(e, l.sc.module.boolFuncs) {
		return true
	}
	switch e := e.(type) {
	case *pyast.Name:
		s := l.owner(e.Id)
		if s == nil {
			return false
		}
		if s.params[e.Id] && (s.boolParams[e.Id] || l.boolParam(s.defName, e.Id)) {
			// A parameter annotated bool, or one a call passes a bool.
			return true
		}
		if !(s.boolean[e.Id] || len(s.boolLoops[e.Id]) > 0) || s.notBoolean[e.Id] {
			return false
		}
		// A for loop's variable over a list of bools is a bool.
		for _, it := range s.boolLoops[e.Id] {
			if !l.isBoolList(it) {
				return false
			}
		}
		return true
	case *pyast.Subscript:
		// flags[i] of a list of bools; a slice is a list.
		if _, slice := e.Index.(*pyast.Slice); !slice {
			return l.isBoolList(e.Value)
		}
	}
	return false
}

// boolParam reports a parameter of the program's function fn that some
// call passes a bool: plainly (see markBoolArgs), or a name or an item
// that is one where the call is.
func (l *lowerer) boolParam(fn, param string) bool {
	m := l.sc.module
	if m.boolArgs[fn][param] {
		return true
	}
	refs := m.argRefs[fn][param]
	if len(refs) == 0 {
		return false
	}
	key := fn + "\x00" + param
	if done, ok := l.boolParams[key]; ok {
		return done // also false while it is being decided (recursion)
	}
	if l.boolParams == nil {
		l.boolParams = map[string]bool{}
	}
	l.boolParams[key] = false
	saved := l.scope
	found := false
	for _, r := range refs {
		l.scope = r.scope
		if l.isBool(r.expr) {
			found = true
			break
		}
	}
	l.scope = saved
	l.boolParams[key] = found
	return found
}

// owner is the scope, from the one being lowered outwards, where name is
// a variable (bound, global or nonlocal), or nil.
func (l *lowerer) owner(name string) *scope {
	for s := l.scope; s != nil; s = s.parent {
		if s.bound[name] || s.global[name] || s.nonlocal[name] {
			return s
		}
	}
	return nil
}

// isBoolList reports a name its scope assigns only lists of bools
// (flags = [x > 0 for x in xs]; ok = []; ok.append(a == b)).
func (l *lowerer) isBoolList(e pyast.Expr) bool {
	n, ok := e.(*pyast.Name)
	if !ok {
		return false
	}
	s := l.owner(n.Id)
	return s != nil && s.boolList[n.Id] && !s.notBoolList[n.Id]
}

// isBoolExpr reports an expression whose value is a bool whatever its
// operands: the cases where arithmetic on a bool is plain to see. funcs
// are the program's functions that return bools (see boolFuncs).
func isBoolExpr(e pyast.Expr, funcs map[string]bool) bool {
	switch e := e.(type) {
	case *pyast.Compare:
		return true
	case *pyast.UnaryOp:
		return e.Op == "not"
	case *pyast.Constant:
		_, ok := e.Value.(bool)
		return ok
	case *pyast.BoolOp:
		// `a > 0 and a < 9` is one of its operands: a bool when all are.
		for _, v := range e.Values {
			if !isBoolExpr(v, funcs) {
				return false
			}
		}
		return true
	case *pyast.IfExp:
		return isBoolExpr(e.Body, funcs) && isBoolExpr(e.Orelse, funcs)
	case *pyast.Call:
		switch f := e.Func.(type) {
		case *pyast.Name:
			switch f.Id {
			case "bool", "isinstance", "callable", "any", "all", "hasattr", "issubclass":
				return true
			}
			return funcs[f.Id]
		case *pyast.Attribute:
			switch f.Attr {
			case "startswith", "endswith", "isdigit", "isalpha", "isalnum", "isspace", "isupper",
				"islower", "istitle", "isdecimal", "isnumeric", "isidentifier", "isascii", "isprintable":
				return true
			}
		}
	}
	return false
}

// smallFactor reports a literal that cannot make a product bigger than
// the other operand: a float, or an int from -1 to 1. Such products (x *
// 0.5, n * -1) are left to the interpreter, which is faster by a builtin
// call.
func smallFactor(e pyast.Expr) bool {
	if u, ok := e.(*pyast.UnaryOp); ok && u.Op == "-" {
		e = u.Operand
	}
	c, ok := e.(*pyast.Constant)
	if !ok {
		return false
	}
	switch v := c.Value.(type) {
	case float64:
		return true
	case int64:
		// 0 and 1 cannot make the product bigger than the other side
		// (and a negated literal is taken without its sign): a repeated
		// doubling, v = v * 2, grows an int, a text or a list without
		// end, so 2 goes through the helper too.
		return v <= 1
	}
	return false
}

func isNumberLiteral(e pyast.Expr) bool {
	if u, ok := e.(*pyast.UnaryOp); ok && (u.Op == "-" || u.Op == "+") {
		e = u.Operand
	}
	c, ok := e.(*pyast.Constant)
	if !ok {
		return false
	}
	switch c.Value.(type) {
	case int64, *big.Int, float64:
		return true
	}
	return false
}

func isFormatLiteral(e pyast.Expr) bool {
	switch e := e.(type) {
	case *pyast.JoinedStr:
		return true
	case *pyast.Constant:
		switch e.Value.(type) {
		case string, pyast.Bytes: // b"%d" % 5 formats too
			return true
		}
	}
	return false
}

// textValue returns the text of a str literal.
func textValue(e pyast.Expr) (string, bool) {
	if c, ok := e.(*pyast.Constant); ok {
		s, ok := c.Value.(string)
		return s, ok
	}
	return "", false
}

// ---- Comparisons ----

var compareTokens = map[string]syntax.Token{
	"==": syntax.EQL, "!=": syntax.NEQ, "<": syntax.LT, "<=": syntax.LE, ">": syntax.GT, ">=": syntax.GE,
	"in": syntax.IN, "not in": syntax.NOT_IN,
}

// compare lowers a comparison; a chain a < b < c is a < b and b < c with
// b evaluated once (see chain).
func (l *lowerer) compare(e *pyast.Compare) syntax.Expr {
	operands := append([]pyast.Expr{e.Left}, e.Comparators...)
	lowered := make([]syntax.Expr, len(operands))
	for i, o := range operands {
		if set, ok := o.(*pyast.Set); ok && i > 0 && (e.Ops[i-1] == "in" || e.Ops[i-1] == "not in") {
			lowered[i] = l.setDisplay(set, true)
			continue
		}
		lowered[i] = l.expr(o)
	}
	return l.chain(e, operands, lowered, 0, lowered[0])
}

// chain lowers the comparisons of e from the i-th on, the left operand of
// the i-th being left (already lowered; evaluated once).
func (l *lowerer) chain(e *pyast.Compare, py []pyast.Expr, x []syntax.Expr, i int, left syntax.Expr) syntax.Expr {
	right := x[i+1]
	if i == len(e.Ops)-1 {
		return l.compare1(e.OpPos[i], e.Ops[i], py[i], py[i+1], left, right)
	}
	pos := e.OpPos[i]
	if pureExpr(right) {
		first := l.compare1(pos, e.Ops[i], py[i], py[i+1], left, right)
		return binary(pos, syntax.AND, first, l.chain(e, py, x, i+1, cloneExpr(right)))
	}
	// The middle operand is computed once, as the argument of a lambda
	// that makes both comparisons (the left one too, when it is not a
	// plain name or literal, so that it is still computed first).
	m := l.temp("m")
	params := []syntax.Expr{ident(pos, m)}
	args := []syntax.Expr{right}
	if !pureExpr(left) {
		lv := l.temp("m")
		params = append([]syntax.Expr{ident(pos, lv)}, params...)
		args = append([]syntax.Expr{left}, args...)
		left = ident(pos, lv)
	}
	first := l.compare1(pos, e.Ops[i], py[i], py[i+1], left, ident(pos, m))
	body := binary(pos, syntax.AND, first, l.chain(e, py, x, i+1, ident(pos, m)))
	fn := &syntax.ParenExpr{Lparen: pos, X: &syntax.LambdaExpr{Lambda: pos, Params: params, Body: body}, Rparen: pos}
	return &syntax.CallExpr{Fn: fn, Lparen: pos, Args: args, Rparen: pos}
}

// compare1 lowers one comparison x op y (px and py being the Python
// operands, to look at literals).
func (l *lowerer) compare1(pos syntax.Position, op string, px, py pyast.Expr, x, y syntax.Expr) syntax.Expr {
	switch op {
	case "<", "<=", ">", ">=", "==", "!=":
		if l.plainNumber(px) && l.plainNumber(py) {
			return binary(pos, compareTokens[op], x, y)
		}
	}
	switch op {
	case "is", "is not":
		if isSingleton(px) || isSingleton(py) {
			// x is None: None, True and False are equal only to themselves.
			tok := syntax.EQL
			if op == "is not" {
				tok = syntax.NEQ
			}
			return binary(pos, tok, x, y)
		}
		var is syntax.Expr = callAt(pos, "__ot_is", x, y)
		if op == "is not" {
			is = &syntax.UnaryExpr{OpPos: pos, Op: syntax.NOT, X: is}
		}
		return is
	case "==", "!=":
		if l.numbers || l.classes || l.subclasses && !isScalarLiteral(px) && !isScalarLiteral(py) || eqNeedsHelper(px, py) {
			var eq syntax.Expr = callAt(pos, "__ot_eq", x, y)
			if op == "!=" {
				eq = &syntax.UnaryExpr{OpPos: pos, Op: syntax.NOT, X: eq}
			}
			return eq
		}
	case "<", "<=", ">", ">=":
		if l.numbers || l.classes || !surelyNotText(px) && !surelyNotText(py) || l.isBool(px) || l.isBool(py) {
			// Two str of the two kinds (interp.Unicode and starlark.String),
			// or containers holding them, are ordered by the helper;
			// Starlark would refuse to compare them.
			return callAt(pos, "__ot_cmp", strLit(pos, op), x, y)
		}
	case "in", "not in":
		// A str haystack of Starlark's kind refuses a needle of the other
		// kind (Python answers False): the helper answers unless the
		// needle is an ASCII literal or a number, or the haystack a display.
		needle, isText := textValue(px)
		native := (isText && interp.IsASCII(needle)) || surelyNotText(px) || isDisplay(py) || l.isContainer(py)
		if hay, ok := textValue(py); ok && !native && interp.IsASCII(hay) {
			// `ch in "aeiou"`: the literal is made once into a container
			// that answers for a needle of either kind, and `in` stays
			// Starlark's own operator.
			return binary(pos, compareTokens[op], x, l.haystack(syntax.Start(y), hay))
		}
		if !native || l.numbers || l.classes {
			var in syntax.Expr = callAt(pos, "__ot_in", x, y)
			if op == "not in" {
				in = &syntax.UnaryExpr{OpPos: pos, Op: syntax.NOT, X: in}
			}
			return in
		}
	}
	return binary(pos, compareTokens[op], x, y)
}

// isScalarLiteral reports a literal number, str, bytes or None: what no
// dict equals.
func isScalarLiteral(e pyast.Expr) bool {
	if u, ok := e.(*pyast.UnaryOp); ok {
		e = u.Operand
	}
	_, ok := e.(*pyast.Constant)
	return ok
}

// eqNeedsHelper reports an == whose operands the engine would compare
// otherwise than Python: a bool literal (True == 1), a set or frozenset
// or a dict's keys or items against another kind of set, or a name
// against itself (x != x, the test for NaN).
func eqNeedsHelper(x, y pyast.Expr) bool {
	isBool := func(e pyast.Expr) bool {
		c, ok := e.(*pyast.Constant)
		if ok {
			_, ok = c.Value.(bool)
		}
		return ok
	}
	setLike := func(e pyast.Expr) bool {
		if surelySet(e) {
			return true
		}
		if c, ok := e.(*pyast.Call); ok {
			if f, ok := c.Func.(*pyast.Attribute); ok && len(c.Args) == 0 {
				return f.Attr == "keys" || f.Attr == "items"
			}
		}
		return false
	}
	maybeNaN := func(e pyast.Expr) bool { // float('nan'), math.nan
		switch e := e.(type) {
		case *pyast.Call:
			f, ok := e.Func.(*pyast.Name)
			return ok && f.Id == "float"
		case *pyast.Attribute:
			return e.Attr == "nan"
		}
		return false
	}
	// A tuple display may meet a tuple's subclass (a namedtuple,
	// sys.version_info), which Starlark takes for another type.
	_, tx := x.(*pyast.Tuple)
	_, ty := y.(*pyast.Tuple)
	if isBool(x) || isBool(y) || setLike(x) || setLike(y) || maybeNaN(x) || maybeNaN(y) || tx || ty {
		return true
	}
	nx, ok1 := x.(*pyast.Name)
	ny, ok2 := y.(*pyast.Name)
	return ok1 && ok2 && nx.Id == ny.Id
}

// surelyNotText reports an operand that is a number if it is anything
// (a numeric literal, arithmetic other than + and *, a call of a builtin
// that returns numbers): compared with it, Starlark's own ordering is
// Python's, and the comparison needs no helper.
func surelyNotText(e pyast.Expr) bool {
	switch e := e.(type) {
	case *pyast.Constant:
		switch e.Value.(type) {
		case string, pyast.Bytes, nil:
			return false
		}
		return true
	case *pyast.UnaryOp:
		return e.Op == "-" || e.Op == "+" || e.Op == "~"
	case *pyast.BinOp:
		switch e.Op {
		case "-", "/", "//", "**", "<<", ">>":
			return true
		case "+": // str + int is an error, whatever the order
			return surelyNotText(e.Left) || surelyNotText(e.Right)
		case "*": // "ab" * 2 is a str
			return surelyNotText(e.Left) && surelyNotText(e.Right)
		}
	case *pyast.Call:
		if f, ok := e.Func.(*pyast.Name); ok {
			switch f.Id {
			case "len", "int", "float", "abs", "round", "sum", "ord", "hash":
				return true
			}
		}
	}
	return false
}

// isDisplay reports a list, tuple, set or dict display or comprehension:
// a container, never a str.
func isDisplay(e pyast.Expr) bool {
	switch e.(type) {
	case *pyast.List, *pyast.Tuple, *pyast.Set, *pyast.Dict, *pyast.ListComp, *pyast.SetComp, *pyast.DictComp:
		return true
	}
	return false
}

// isSingleton reports None, True or False.
func isSingleton(e pyast.Expr) bool {
	c, ok := e.(*pyast.Constant)
	if !ok {
		return false
	}
	switch c.Value.(type) {
	case nil, bool:
		return true
	}
	return false
}

// ---- Calls ----

// lazyConsumer reports the functions that may stop early in a generator
// passed to them, or keep it: they get a generator. The builtins that
// consume all of it (sum, list, sorted, str.join, …) get a list, computed
// at once, which is faster and prints the same.
func lazyConsumer(fn pyast.Expr) bool {
	switch f := fn.(type) {
	case *pyast.Name:
		switch f.Id {
		case "sum", "list", "tuple", "set", "frozenset", "sorted", "min", "max", "dict", "len", "print":
			return false
		}
	case *pyast.Attribute:
		switch f.Attr {
		case "join", "extend", "update", "writelines", "fsum":
			return false
		}
	}
	return true
}

func (l *lowerer) call(e *pyast.Call) syntax.Expr {
	if n, ok := e.Func.(*pyast.Name); ok && n.Id == "super" && len(e.Args) == 0 && len(e.Keywords) == 0 && l.scope.owner("super") == nil {
		return l.zeroArgSuper(e.Lparen)
	}
	var fn syntax.Expr
	var args []syntax.Expr
	if at, ok := e.Func.(*pyast.Attribute); ok {
		if helper, ok := lowered.Method(at.Attr); ok {
			args = append(args, l.expr(at.Value)) // the receiver
			fn = ident(at.AttrPos, helper)
		}
	}
	if fn == nil {
		fn = l.expr(e.Func)
	}
	lazy := lazyConsumer(e.Func)
	arg := func(a pyast.Expr) syntax.Expr {
		if g, ok := a.(*pyast.GeneratorExp); ok && !lazy && !strings.Contains(l.sourceOf(g), "next(") {
			return l.comprehension(g, g.Lparen, g.Rparen, g.Generators, g.Elt, nil)
		}
		return l.expr(a)
	}
	// Positional arguments; from the first *x on (Starlark takes one *args
	// after every positional one), they are one list.
	firstStar := -1
	for i, a := range e.Args {
		if _, ok := a.(*pyast.Starred); ok {
			firstStar = i
			break
		}
	}
	for i, a := range e.Args {
		if firstStar >= 0 && i >= firstStar {
			break
		}
		args = append(args, arg(a))
	}
	var star syntax.Expr
	if firstStar >= 0 {
		rest := e.Args[firstStar:]
		if len(rest) == 1 {
			star = l.expr(rest[0].(*pyast.Starred).Value)
		} else {
			star = l.sequence(rest[0].Pos(), rest[0].Pos(), rest)
		}
		// Starlark's *args takes no str; Python's takes any iterable.
		// __ot_star also asks the memory budget for the tuple of
		// arguments the call is about to make, which no walk sees.
		star = callAt(syntax.Start(star), "__ot_star", star)
	}
	// Keyword arguments before **kwargs, several ** merged into one.
	var kwargs []syntax.Expr
	for _, k := range e.Keywords {
		if k.Arg == "" {
			kwargs = append(kwargs, l.expr(k.Value))
			continue
		}
		args = append(args, binary(k.ArgPos, syntax.EQ, ident(k.ArgPos, k.Arg), arg(k.Value)))
	}
	if star != nil {
		args = append(args, &syntax.UnaryExpr{OpPos: syntax.Start(star), Op: syntax.STAR, X: star})
	}
	switch len(kwargs) {
	case 0:
	case 1:
		args = append(args, &syntax.UnaryExpr{OpPos: syntax.Start(kwargs[0]), Op: syntax.STARSTAR, X: kwargs[0]})
	default:
		merged := callAt(syntax.Start(kwargs[0]), "__ot_merge", kwargs...)
		args = append(args, &syntax.UnaryExpr{OpPos: merged.Lparen, Op: syntax.STARSTAR, X: merged})
	}
	return &syntax.CallExpr{Fn: fn, Lparen: e.Lparen, Args: args, Rparen: e.Rparen}
}

// ---- Subscripts and displays ----

func (l *lowerer) subscript(e *pyast.Subscript) syntax.Expr {
	x := l.expr(e.Value)
	switch i := e.Index.(type) {
	case *pyast.Slice:
		if l.classes {
			// An instance's __getitem__ may take the slice (__ot_slice).
			pos := e.Lbrack
			return callAt(pos, "__ot_slice", x, l.optExpr(pos, i.Lower), l.optExpr(pos, i.Upper), l.optExpr(pos, i.Step))
		}
		if i.Step != nil && !isLiteralOne(i.Step) {
			// s[::-1] and the like are sized and charged by the helper;
			// the interpreter would append a character at a time.
			pos := e.Lbrack
			return callAt(pos, "__ot_stepslice", x, l.optExpr(pos, i.Lower), l.optExpr(pos, i.Upper), l.expr(i.Step))
		}
		return &syntax.SliceExpr{X: x, Lbrack: e.Lbrack, Lo: l.optional(i.Lower), Hi: l.optional(i.Upper), Step: l.optional(i.Step), Rbrack: e.Rbrack}
	case *pyast.Tuple:
		for _, el := range i.Elts {
			if _, ok := el.(*pyast.Slice); ok {
				l.errorf(el.Pos(), "multi-dimensional slicing is not supported")
				return x
			}
		}
	}
	if l.inItemMethod() {
		// Inside __getitem__ and its kin the index may be a slice object
		// (self.items[i] with i a slice): the helper slices then.
		return callAt(e.Lbrack, "__ot_subscr", x, l.expr(e.Index))
	}
	if l.isBool(e.Index) && !pureExpr(x) {
		// ("no", "yes")[n > 10]: the sequence is made once.
		return callAt(e.Lbrack, "__ot_boolget", x, l.expr(e.Index))
	}
	return &syntax.IndexExpr{X: x, Lbrack: e.Lbrack, Y: l.index(x, e.Index), Rbrack: e.Rbrack}
}

// inItemMethod reports code inside a method __getitem__, __setitem__ or
// __delitem__, where an index may be a slice object.
func (l *lowerer) inItemMethod() bool {
	switch l.methodName {
	case "__getitem__", "__setitem__", "__delitem__":
		return true
	}
	return false
}

// index lowers the index i of obj[i]. A bool is an int in Python, so
// ["odd", "even"][n % 2 == 0] picks by position: an index that is
// plainly a bool goes through __ot_boolidx, which makes it 0 or 1 for a
// sequence (a dict keeps True as its key).
func (l *lowerer) index(obj syntax.Expr, i pyast.Expr) syntax.Expr {
	x := l.expr(i)
	if l.isBool(i) && pureExpr(obj) {
		return callAt(i.Pos(), "__ot_boolidx", cloneExpr(obj), x)
	}
	return x
}

func (l *lowerer) optional(e pyast.Expr) syntax.Expr {
	if e == nil {
		return nil
	}
	return l.expr(e)
}

// isLiteralOne reports the int literal 1.
func isLiteralOne(e pyast.Expr) bool {
	c, ok := e.(*pyast.Constant)
	if !ok {
		return false
	}
	n, ok := c.Value.(int64)
	return ok && n == 1
}

func hasStarred(list []pyast.Expr) bool {
	for _, e := range list {
		if _, ok := e.(*pyast.Starred); ok {
			return true
		}
	}
	return false
}

// sequence lowers the elements of a list display; with *x among them, it
// is the concatenation of lists: [a, *b, c] → [a] + __ot_list(b) + [c].
func (l *lowerer) sequence(lbrack, rbrack syntax.Position, elts []pyast.Expr) syntax.Expr {
	if !hasStarred(elts) {
		return &syntax.ListExpr{Lbrack: lbrack, List: l.exprs(elts), Rbrack: rbrack}
	}
	var out syntax.Expr
	add := func(x syntax.Expr) {
		if out == nil {
			out = x
		} else {
			out = binary(syntax.Start(x), syntax.PLUS, out, x)
		}
	}
	var run []syntax.Expr
	flush := func() {
		if len(run) > 0 {
			add(&syntax.ListExpr{Lbrack: syntax.Start(run[0]), List: run, Rbrack: syntax.Start(run[0])})
			run = nil
		}
	}
	for _, e := range elts {
		if s, ok := e.(*pyast.Starred); ok {
			flush()
			add(callAt(s.Star, "__ot_list", l.expr(s.Value)))
			continue
		}
		run = append(run, l.expr(e))
	}
	flush()
	return out
}

// dict lowers a dict display; with **m among its entries, it is the merge
// of the parts in order: {**a, "k": 1} → __ot_merge(a, {"k": 1}).
func (l *lowerer) dict(e *pyast.Dict) syntax.Expr {
	var parts []syntax.Expr
	var run []syntax.Expr
	merged := false
	flush := func() {
		if len(run) > 0 || len(parts) == 0 {
			parts = append(parts, &syntax.DictExpr{Lbrace: e.Lbrace, List: run, Rbrace: e.Rbrace})
			run = nil
		}
	}
	// Keys the engine cannot tell apart before the run may be equal (two
	// instances, a name and a literal): Python keeps the last value,
	// Starlark's display fails, so each such entry is a part of its own.
	apart := !distinctConstantKeys(e.Keys)
	for i, k := range e.Keys {
		v := e.Values[i]
		if k == nil {
			if len(run) > 0 {
				flush()
			}
			merged = true
			parts = append(parts, l.expr(v))
			continue
		}
		kx := l.expr(k)
		if apart && len(run) > 0 {
			flush()
			merged = true
		}
		run = append(run, &syntax.DictEntry{Key: kx, Colon: syntax.Start(kx), Value: l.expr(v)})
	}
	if !merged {
		return &syntax.DictExpr{Lbrace: e.Lbrace, List: run, Rbrace: e.Rbrace}
	}
	if len(run) > 0 {
		flush()
	}
	return callAt(e.Lbrace, "__ot_merge", parts...)
}

// distinctConstantKeys reports a dict display whose keys are literals
// (str, int) all different, or that has one key at most.
func distinctConstantKeys(keys []pyast.Expr) bool {
	if len(keys) < 2 {
		return true
	}
	seen := map[any]bool{}
	for _, k := range keys {
		c, ok := k.(*pyast.Constant)
		if !ok {
			return false
		}
		switch v := c.Value.(type) {
		case string:
			if seen[v] {
				return false
			}
			seen[v] = true
		default:
			return false
		}
	}
	return true
}

// comprehension lowers a list, dict (value non-nil) or generator
// comprehension to Starlark's.
func (l *lowerer) comprehension(n pyast.Expr, lbrack, rbrack syntax.Position, gens []*pyast.Comprehension, elt, value pyast.Expr) syntax.Expr {
	saved := l.scope
	var clauses []syntax.Node
	checked := false
	for i, g := range gens {
		// The first iterable is evaluated in the enclosing scope. One that
		// may be an iterator keeps the error of its next item for
		// __ot_compend, which raises it when the comprehension is done.
		var x syntax.Expr
		switch {
		case g.Async:
			x, checked = callAt(g.Iter.Pos(), "__ot_compiter", callAt(g.Iter.Pos(), lowered.AsyncIter, l.expr(g.Iter))), true
		case knownIterable(g.Iter):
			x = l.expr(g.Iter)
		default:
			x, checked = callAt(g.Iter.Pos(), "__ot_compiter", l.expr(g.Iter)), true
		}
		if i == 0 {
			l.scope = l.sc.of[n]
		}
		vars, post := l.target(g.Target)
		if len(post) > 0 {
			l.scope = saved
			l.errorf(g.Target.Pos(), "this target is not supported in a comprehension; unpack in the body")
			return noneAt(g.For)
		}
		clauses = append(clauses, &syntax.ForClause{For: g.For, Vars: vars, In: g.For, X: x})
		for _, cond := range g.Ifs {
			clauses = append(clauses, &syntax.IfClause{If: cond.Pos(), Cond: l.expr(cond)})
		}
	}
	var body syntax.Expr
	curly := value != nil
	if curly {
		k := l.expr(elt)
		body = &syntax.DictEntry{Key: k, Colon: syntax.Start(k), Value: l.expr(value)}
	} else {
		body = l.expr(elt)
	}
	l.scope = saved
	comp := &syntax.Comprehension{Curly: curly, Lbrack: lbrack, Body: body, Clauses: clauses, Rbrack: rbrack}
	if checked {
		return callAt(lbrack, "__ot_compend", comp)
	}
	return comp
}

// lazyGenerator lowers (elt for x in it if c) to __ot_gen(it, lambda x:
// elt, lambda x: c), a generator that computes each value when it is
// asked for; nil when e has more than one for clause or a target other
// than a name (those are computed at once).
func (l *lowerer) lazyGenerator(e *pyast.GeneratorExp) syntax.Expr {
	if len(e.Generators) != 1 || e.Generators[0].Async {
		return nil
	}
	g := e.Generators[0]
	target, ok := g.Target.(*pyast.Name)
	if !ok {
		return nil
	}
	it := l.iterable(g.Iter) // in the enclosing scope, at once
	saved := l.scope
	l.scope = l.sc.of[e]
	param := func() []syntax.Expr { return []syntax.Expr{ident(target.NamePos, target.Id)} }
	pos := e.Lparen
	elt := &syntax.LambdaExpr{Lambda: pos, Params: param(), Body: l.expr(e.Elt)}
	var cond syntax.Expr = noneAt(pos)
	if len(g.Ifs) > 0 {
		c := l.expr(g.Ifs[0])
		for _, more := range g.Ifs[1:] {
			c = binary(more.Pos(), syntax.AND, c, l.expr(more))
		}
		cond = &syntax.LambdaExpr{Lambda: pos, Params: param(), Body: c}
	}
	l.scope = saved
	paren := func(x syntax.Expr) syntax.Expr { return &syntax.ParenExpr{Lparen: pos, X: x, Rparen: pos} }
	return callAt(pos, "__ot_gen", it, paren(elt), paren(cond))
}

// ---- Copies ----

// pureExpr reports whether x can be evaluated twice with the same result
// and no effect: a name, a literal, or an index or field of those.
func pureExpr(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Ident, *syntax.Literal:
		return true
	case *syntax.ParenExpr:
		return pureExpr(x.X)
	case *syntax.DotExpr:
		return pureExpr(x.X)
	case *syntax.IndexExpr:
		return pureExpr(x.X) && pureExpr(x.Y)
	case *syntax.UnaryExpr:
		return x.Op == syntax.MINUS && pureExpr(x.X)
	}
	return false
}

// cloneExpr copies a pure expression, so that the tree never holds one
// node twice (the resolver records a binding on each name it visits).
func cloneExpr(x syntax.Expr) syntax.Expr {
	switch x := x.(type) {
	case *syntax.Ident:
		return &syntax.Ident{NamePos: x.NamePos, Name: x.Name}
	case *syntax.Literal:
		c := *x
		return &c
	case *syntax.ParenExpr:
		return &syntax.ParenExpr{Lparen: x.Lparen, X: cloneExpr(x.X), Rparen: x.Rparen}
	case *syntax.DotExpr:
		return &syntax.DotExpr{X: cloneExpr(x.X), Dot: x.Dot, NamePos: x.NamePos, Name: &syntax.Ident{NamePos: x.Name.NamePos, Name: x.Name.Name}}
	case *syntax.IndexExpr:
		return &syntax.IndexExpr{X: cloneExpr(x.X), Lbrack: x.Lbrack, Y: cloneExpr(x.Y), Rbrack: x.Rbrack}
	case *syntax.UnaryExpr:
		return &syntax.UnaryExpr{OpPos: x.OpPos, Op: x.Op, X: cloneExpr(x.X)}
	case *syntax.BinaryExpr:
		return &syntax.BinaryExpr{X: cloneExpr(x.X), OpPos: x.OpPos, Op: x.Op, Y: cloneExpr(x.Y)}
	case *syntax.CallExpr:
		args := make([]syntax.Expr, len(x.Args))
		for i, a := range x.Args {
			args[i] = cloneExpr(a)
		}
		return &syntax.CallExpr{Fn: cloneExpr(x.Fn), Lparen: x.Lparen, Args: args, Rparen: x.Rparen}
	}
	return x
}

// clonable reports an expression cloneExpr copies whole: a pure one,
// or operators and calls of clonable ones (no lambda, comprehension or
// display, which hold scopes or many nodes).
func clonable(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.ParenExpr:
		return clonable(x.X)
	case *syntax.UnaryExpr:
		return clonable(x.X)
	case *syntax.BinaryExpr:
		return clonable(x.X) && clonable(x.Y)
	case *syntax.DotExpr:
		return clonable(x.X)
	case *syntax.IndexExpr:
		return clonable(x.X) && clonable(x.Y)
	case *syntax.CallExpr:
		for _, a := range x.Args {
			if !clonable(a) {
				return false
			}
		}
		return clonable(x.Fn)
	}
	return pureExpr(x)
}

// cheapExpr reports an expression that may be evaluated twice: pure, or
// +, - and % of cheap ones (n + 1), which call nothing of the program.
func cheapExpr(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.ParenExpr:
		return cheapExpr(x.X)
	case *syntax.BinaryExpr:
		switch x.Op {
		case syntax.PLUS, syntax.MINUS, syntax.PERCENT:
			return cheapExpr(x.X) && cheapExpr(x.Y)
		}
		return false
	}
	return pureExpr(x)
}

// genExp lowers a generator expression of several clauses (or of a
// target other than a name) to __ot_genexp(lambda it: [0 for x in it …
// if __ot_yieldv(elt)], first): a generator whose body is the
// comprehension, yielding each element as it is asked for and keeping
// none. The first iterable is evaluated where the expression is, as
// Python does.
func (l *lowerer) genExp(e *pyast.GeneratorExp) syntax.Expr {
	pos := e.Lparen
	helper := lowered.GenExp
	for _, g := range e.Generators {
		if g.Async {
			// (x async for x in y) is an async generator.
			helper = lowered.AsyncGenExp
		}
	}
	x := l.comprehension(e, e.Lparen, e.Rparen, e.Generators, e.Elt, nil)
	comp, ok := x.(*syntax.Comprehension)
	if !ok {
		if call, isCall := x.(*syntax.CallExpr); isCall && len(call.Args) == 1 {
			comp, ok = call.Args[0].(*syntax.Comprehension)
		}
	}
	if !ok || len(comp.Clauses) == 0 {
		return callAt(pos, "__ot_iterof", x)
	}
	first, ok := comp.Clauses[0].(*syntax.ForClause)
	if !ok {
		return callAt(pos, "__ot_iterof", x)
	}
	it := first.X
	first.X = ident(pos, "__ot_genit")
	if call, ok := it.(*syntax.CallExpr); ok && len(call.Args) == 1 {
		if fn, ok := call.Fn.(*syntax.Ident); ok && fn.Name == "__ot_compiter" {
			// The iterable is evaluated here; the iterator that walks
			// it is made on the generator's own thread.
			it, call.Args[0] = call.Args[0], first.X
			first.X = call
		}
	}
	comp.Clauses = append(comp.Clauses, &syntax.IfClause{If: pos, Cond: callAt(pos, lowered.YieldValue, comp.Body)})
	comp.Body = intLit(pos, 0)
	fn := &syntax.LambdaExpr{Lambda: pos, Params: []syntax.Expr{ident(pos, "__ot_genit")}, Body: x}
	return callAt(pos, helper, &syntax.ParenExpr{Lparen: pos, X: fn, Rparen: pos}, it)
}

// atTopLevel reports code of the program's top level (or of a
// comprehension there), outside every def.
func (l *lowerer) atTopLevel() bool {
	s := l.scope
	for s != nil && s.kind == compScope {
		s = s.parent
	}
	return s != nil && s.kind == moduleScope
}
