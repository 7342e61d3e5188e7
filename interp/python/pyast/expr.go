package pyast

import (
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The expression grammar, one function per CPython rule of the same
// name. Binary operators of one precedence level are read in a loop, so
// only nesting (brackets, unary operators, lambdas, conditional
// expressions) recurses, and enter bounds that.

// starExpressions is a star expression, or several separated by commas
// (a tuple without parentheses).
func (p *parser) starExpressions() Expr {
	first := p.starExpression()
	if !p.isOp(",") || !p.ok() {
		return first
	}
	elts := []Expr{first}
	for p.acceptOp(",") {
		if !p.startsExpr() && !p.isOp("*") {
			break
		}
		elts = append(elts, p.starExpression())
	}
	return &Tuple{Lparen: first.Pos(), Rparen: elts[len(elts)-1].Pos(), Elts: elts}
}

func (p *parser) starExpression() Expr {
	if t := p.peek(); t.kind == tOp && t.text == "*" {
		p.next()
		return &Starred{Star: p.pos(t), Value: p.bitOr()}
	}
	return p.expression()
}

func (p *parser) starNamedExpression() Expr {
	if t := p.peek(); t.kind == tOp && t.text == "*" {
		p.next()
		return &Starred{Star: p.pos(t), Value: p.bitOr()}
	}
	return p.namedExpression()
}

// walrus reads `name := value` when that is what comes.
func (p *parser) walrus() Expr {
	t := p.peek()
	if t.kind != tName || IsKeyword(t.text) {
		return nil
	}
	if op := p.peekAt(1); op.kind != tOp || op.text != ":=" {
		return nil
	}
	p.next()
	op := p.next()
	return &NamedExpr{Target: &Name{NamePos: p.pos(t), Id: t.text}, OpPos: p.pos(op), Value: p.expression()}
}

func (p *parser) namedExpression() Expr {
	if w := p.walrus(); w != nil {
		return w
	}
	x := p.expression()
	if p.ok() && p.spec == 0 {
		switch {
		case p.isOp(":="):
			p.errorAtPos(x.Pos(), "cannot use assignment expressions with %s", exprName(x))
		case p.isOp("="):
			p.meantEquals(x)
		}
	}
	return x
}

// meantEquals reports `x = y` where a comparison was likely meant, as
// CPython does, when x is a single operand.
func (p *parser) meantEquals(x Expr) {
	single := func() bool {
		return p.try(func() bool {
			p.next()
			p.bitOr()
			return p.ok() && !p.isOp("=") && !p.isOp(":=")
		})
	}
	switch e := x.(type) {
	case *Name:
		if single() {
			p.errorAtPos(x.Pos(), "invalid syntax. Maybe you meant '==' or ':=' instead of '='?")
		}
		return
	case *List, *GeneratorExp:
		return
	case *Tuple:
		if e.Paren {
			return
		}
	case *Constant:
		switch e.Value.(type) {
		case nil, bool:
			return
		}
	}
	if isBitOr(x) && single() {
		p.errorAtPos(x.Pos(), "cannot assign to %s here. Maybe you meant '==' instead of '='?", exprName(x))
	}
}

func (p *parser) expression() Expr {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	if p.isKw("lambda") {
		return p.lambda()
	}
	start := p.i
	x := p.disjunction()
	if !p.ok() {
		return x
	}
	if p.isKw("if") {
		ifTok := p.next()
		test := p.disjunction()
		if !p.ok() {
			return x
		}
		if !p.acceptKw("else") {
			if !p.isOp(":") && p.spec == 0 {
				p.errorAtPos(x.Pos(), "expected 'else' after 'if' expression")
			} else {
				p.syntaxError()
			}
			return x
		}
		orelse := p.expression()
		return &IfExp{Body: x, If: p.pos(ifTok), Test: test, Orelse: orelse}
	}
	if p.spec == 0 && p.startsExpr() {
		p.juxtaposed(start, x)
	}
	return x
}

// juxtaposed reports an expression directly followed by another as
// CPython does: `print "x"`, or a missing comma inside brackets.
func (p *parser) juxtaposed(start int, x Expr) {
	if n, ok := x.(*Name); ok && (n.Id == "print" || n.Id == "exec") {
		if p.try(func() bool { p.starExpressions(); return true }) {
			p.errorAtPos(n.Pos(), "Missing parentheses in call to '%s'. Did you mean %s(...)?", n.Id, n.Id)
		}
		return
	}
	st := &p.toks[start]
	if st.kind == tName && (isSoftKeyword(st.text) || start+1 < len(p.toks) && p.toks[start+1].kind == tString) {
		return
	}
	// CPython reads a dict or set display that follows with its error
	// rules on: `if (x) { y = 1 }` is "Maybe you meant '=='" at y.
	if p.isOp("{") && p.probe(func() { p.braceAtom() }) {
		return
	}
	if st.kind == tName && (isSoftKeyword(st.text) || start+1 < len(p.toks) && p.toks[start+1].kind == tString) {
		return
	}
	if p.i == 0 || p.toks[p.i-1].level == 0 {
		return // outside brackets: a generic error, at the second one
	}
	if p.try(func() bool {
		p.expression()
		return p.ok() && p.toks[p.i-1].level > 0
	}) {
		p.errorAtPos(x.Pos(), "invalid syntax. Perhaps you forgot a comma?")
	}
}

func isSoftKeyword(s string) bool { return s == "match" || s == "case" || s == "_" }

func (p *parser) lambda() Expr {
	kw := p.next()
	l := &Lambda{Lambda: p.pos(kw)}
	if p.isOp(":") {
		l.Args = &Arguments{}
	} else {
		l.Args = p.parameters(true)
	}
	if !p.ok() {
		return l
	}
	if p.expectOp(":") == nil {
		return l
	}
	l.Body = p.expression()
	return l
}

func (p *parser) disjunction() Expr {
	x := p.conjunction()
	if !p.isKw("or") {
		return x
	}
	b := &BoolOp{Op: "or", OpPos: p.pos(p.peek()), Values: []Expr{x}}
	for p.ok() && p.acceptKw("or") {
		b.Values = append(b.Values, p.conjunction())
	}
	return b
}

func (p *parser) conjunction() Expr {
	x := p.inversion()
	if !p.isKw("and") {
		return x
	}
	b := &BoolOp{Op: "and", OpPos: p.pos(p.peek()), Values: []Expr{x}}
	for p.ok() && p.acceptKw("and") {
		b.Values = append(b.Values, p.inversion())
	}
	return b
}

func (p *parser) inversion() Expr {
	if t := p.peek(); t.kind == tName && t.text == "not" {
		if !p.enter() {
			return nil
		}
		defer p.leave()
		p.next()
		return &UnaryOp{OpPos: p.pos(t), Op: "not", Operand: p.inversion()}
	}
	return p.comparison()
}

// compOp reads a comparison operator, or reports "".
func (p *parser) compOp() (string, *token) {
	t := p.peek()
	switch t.kind {
	case tOp:
		switch t.text {
		case "==", "!=", "<", "<=", ">", ">=":
			p.next()
			return t.text, t
		}
	case tName:
		switch t.text {
		case "in":
			p.next()
			return "in", t
		case "not":
			if n := p.peekAt(1); n.kind == tName && n.text == "in" {
				p.next()
				p.next()
				return "not in", t
			}
		case "is":
			p.next()
			if p.acceptKw("not") {
				return "is not", t
			}
			return "is", t
		}
	}
	return "", nil
}

func (p *parser) comparison() Expr {
	x := p.bitOr()
	op, t := p.compOp()
	if op == "" {
		return x
	}
	c := &Compare{Left: x}
	for op != "" && p.ok() {
		c.Ops = append(c.Ops, op)
		c.OpPos = append(c.OpPos, p.pos(t))
		c.Comparators = append(c.Comparators, p.bitOr())
		op, t = p.compOp()
	}
	return c
}

// binPrec is the precedence of a binary operator (higher binds
// tighter), 0 for a token that is not one.
func binPrec(t *token) int {
	if t.kind != tOp {
		return 0
	}
	switch t.text {
	case "|":
		return 1
	case "^":
		return 2
	case "&":
		return 3
	case "<<", ">>":
		return 4
	case "+", "-":
		return 5
	case "*", "/", "//", "%", "@":
		return 6
	}
	return 0
}

func (p *parser) bitOr() Expr { return p.binary(1) }

// binary reads operators of precedence prec and above, left to right.
func (p *parser) binary(prec int) Expr {
	x := p.factor()
	for p.ok() {
		t := p.peek()
		q := binPrec(t)
		if q < prec {
			return x
		}
		p.next()
		y := p.binary(q + 1)
		x = &BinOp{Left: x, Op: t.text, OpPos: p.pos(t), Right: y}
	}
	return x
}

func (p *parser) factor() Expr {
	t := p.peek()
	if t.kind == tOp && (t.text == "-" || t.text == "+" || t.text == "~") {
		if !p.enter() {
			return nil
		}
		defer p.leave()
		p.next()
		return &UnaryOp{OpPos: p.pos(t), Op: t.text, Operand: p.factor()}
	}
	return p.power()
}

func (p *parser) power() Expr {
	x := p.awaitPrimary()
	if t := p.peek(); t.kind == tOp && t.text == "**" {
		if !p.enter() {
			return nil
		}
		defer p.leave()
		p.next()
		return &BinOp{Left: x, Op: "**", OpPos: p.pos(t), Right: p.factor()}
	}
	return x
}

func (p *parser) awaitPrimary() Expr {
	if t := p.peek(); t.kind == tName && t.text == "await" {
		if !p.enter() {
			return nil
		}
		defer p.leave()
		p.next()
		return &Await{Await: p.pos(t), Value: p.primary()}
	}
	return p.primary()
}

func (p *parser) primary() Expr {
	x := p.atom()
	for p.ok() {
		t := p.peek()
		if t.kind != tOp {
			return x
		}
		switch t.text {
		case ".":
			p.next()
			n := p.peek()
			if n.kind != tName || IsKeyword(n.text) {
				p.syntaxError()
				return x
			}
			p.next()
			x = &Attribute{Value: x, Dot: p.pos(t), Attr: n.text, AttrPos: p.pos(n)}
		case "(":
			p.next()
			c := p.callArgs(x, t)
			if c == nil {
				return x
			}
			x = c
		case "[":
			p.next()
			idx := p.slices()
			rb := p.expectOp("]")
			if rb == nil {
				return x
			}
			x = &Subscript{Value: x, Lbrack: p.pos(t), Rbrack: p.pos(rb), Index: idx}
		default:
			return x
		}
	}
	return x
}

// callArgs reads the arguments of a call after its '('.
func (p *parser) callArgs(fn Expr, lp *token) *Call {
	c := &Call{Func: fn, Lparen: p.pos(lp)}
	var kwSeen, dstarSeen bool
	var order string // an argument out of order, reported at ')'
	var gen *GeneratorExp
	for p.ok() && !p.isOp(")") {
		t := p.peek()
		switch {
		case t.kind == tOp && t.text == "*":
			p.next()
			v := p.expression()
			if dstarSeen && p.ok() {
				p.errorAtTok(t, "iterable argument unpacking follows keyword argument unpacking")
				return nil
			}
			c.Args = append(c.Args, &Starred{Star: p.pos(t), Value: v})
		case t.kind == tOp && t.text == "**":
			p.next()
			c.Keywords = append(c.Keywords, &Keyword{ArgPos: p.pos(t), Value: p.expression()})
			dstarSeen = true
		case t.kind == tName && (!IsKeyword(t.text) || t.text == "True" || t.text == "False" || t.text == "None") &&
			p.peekAt(1).kind == tOp && p.peekAt(1).text == "=":
			if t.text == "True" || t.text == "False" || t.text == "None" {
				p.errorAtTok(t, "cannot assign to %s", t.text)
				return nil
			}
			p.next()
			p.next()
			v := p.expression()
			if p.ok() && (p.isKw("for") || p.isKw("async")) {
				p.errorAtTok(t, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?")
				return nil
			}
			c.Keywords = append(c.Keywords, &Keyword{ArgPos: p.pos(t), Arg: t.text, Value: v})
			kwSeen = true
		default:
			e := p.walrus()
			if e == nil {
				e = p.expression()
			}
			if !p.ok() {
				return nil
			}
			if p.isKw("for") || p.isKw("async") && p.peekAt(1).kind == tName && p.peekAt(1).text == "for" {
				gens := p.comprehensions()
				if !p.ok() {
					return nil
				}
				if len(c.Args)+len(c.Keywords) > 0 || !p.isOp(")") {
					p.errorAtPos(e.Pos(), "Generator expression must be parenthesized")
					return nil
				}
				gen = &GeneratorExp{Lparen: c.Lparen, Elt: e, Generators: gens}
				e = gen
			}
			if p.isOp("=") {
				p.errorAtPos(e.Pos(), "expression cannot contain assignment, perhaps you meant \"==\"?")
				return nil
			}
			if order == "" {
				if dstarSeen {
					order = "positional argument follows keyword argument unpacking"
				} else if kwSeen {
					order = "positional argument follows keyword argument"
				}
			}
			c.Args = append(c.Args, e)
		}
		if !p.ok() || !p.acceptOp(",") {
			break
		}
	}
	rp := p.expectOp(")")
	if rp == nil {
		return nil
	}
	if order != "" {
		p.errorAtTok(rp, "%s", order)
		return nil
	}
	c.Rparen = p.pos(rp)
	if gen != nil {
		gen.Rparen = c.Rparen
	}
	return c
}

// slices is what is inside a subscript's brackets.
func (p *parser) slices() Expr {
	first := p.slice()
	if !p.isOp(",") || !p.ok() {
		if st, ok := first.(*Starred); ok { // a[*i] indexes by a tuple
			return &Tuple{Lparen: st.Pos(), Rparen: st.Pos(), Elts: []Expr{st}}
		}
		return first
	}
	elts := []Expr{first}
	for p.ok() && p.acceptOp(",") {
		if p.isOp("]") {
			break
		}
		elts = append(elts, p.slice())
	}
	return &Tuple{Lparen: first.Pos(), Rparen: elts[len(elts)-1].Pos(), Elts: elts}
}

func (p *parser) slice() Expr {
	start := p.peek()
	if start.kind == tOp && start.text == "*" {
		p.next()
		return &Starred{Star: p.pos(start), Value: p.expression()}
	}
	var lower Expr
	if !p.isOp(":") {
		lower = p.namedExpression()
		if !p.isOp(":") || !p.ok() {
			return lower
		}
	}
	p.next()
	s := &Slice{Start: p.pos(start), Lower: lower}
	endOfPart := func() bool { return p.isOp(":") || p.isOp("]") || p.isOp(",") }
	if !endOfPart() {
		s.Upper = p.expression()
	}
	if p.acceptOp(":") && !p.isOp("]") && !p.isOp(",") {
		s.Step = p.expression()
	}
	s.EndPos = p.lastEnd()
	return s
}

func (p *parser) atom() Expr {
	t := p.peek()
	switch t.kind {
	case tName:
		switch t.text {
		case "True", "False", "None":
			p.next()
			var v any
			if t.text != "None" {
				v = t.text == "True"
			}
			return &Constant{Start: p.pos(t), EndPos: p.endOf(t), Value: v, Raw: t.text}
		}
		if IsKeyword(t.text) {
			break
		}
		p.next()
		return &Name{NamePos: p.pos(t), Id: t.text}
	case tNumber:
		p.next()
		return p.number(t)
	case tString:
		return p.strings()
	case tOp:
		switch t.text {
		case "(":
			return p.parenAtom()
		case "[":
			return p.listAtom()
		case "{":
			return p.braceAtom()
		case "...":
			p.next()
			return &Constant{Start: p.pos(t), EndPos: p.endOf(t), Value: Ellipsis{}, Raw: "..."}
		}
	}
	p.syntaxError()
	return &Name{NamePos: p.pos(t)}
}

// number is the value of a numeric literal.
func (p *parser) number(t *token) Expr {
	c := &Constant{Start: p.pos(t), EndPos: p.endOf(t), Raw: t.text}
	text := strings.ReplaceAll(t.text, "_", "")
	last := text[len(text)-1] | 0x20
	if last == 'j' {
		p.errorAtTok(t, "complex numbers are not supported")
		return c
	}
	base := 10
	digits := text
	if len(text) > 1 && text[0] == '0' {
		switch text[1] | 0x20 {
		case 'x':
			base, digits = 16, text[2:]
		case 'o':
			base, digits = 8, text[2:]
		case 'b':
			base, digits = 2, text[2:]
		}
	}
	if base == 10 && strings.ContainsAny(text, ".eE") {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil && f == 0 { // only a range error is possible: inf is fine
			f = 0
		}
		c.Value = f
		return c
	}
	if v, err := strconv.ParseInt(digits, base, 64); err == nil {
		c.Value = v
		return c
	}
	if base == 10 {
		// CPython's limit on decimal conversion, which also keeps it
		// from taking time quadratic in a huge literal.
		if n := len(strings.TrimLeft(digits, "0")); n > 4300 {
			p.errorAtTok(t, "Exceeds the limit (4300 digits) for integer string conversion: value has %d digits; use sys.set_int_max_str_digits() to increase the limit - Consider hexadecimal for huge integer literals to avoid decimal conversion limits.", n)
			return c
		}
		v, _ := new(big.Int).SetString(digits, 10)
		c.Value = v
		return c
	}
	c.Value = bigPow2(digits, base)
	return c
}

// bigPow2 converts digits in base 2, 8 or 16 in time linear in their
// number.
func bigPow2(digits string, base int) *big.Int {
	bits := map[int]uint{2: 1, 8: 3, 16: 4}[base]
	// Little-endian bytes, filled from the last digit.
	out := make([]byte, (uint(len(digits))*bits+7)/8)
	var acc uint
	var n uint
	k := 0
	for i := len(digits) - 1; i >= 0; i-- {
		d, _ := strconv.ParseUint(digits[i:i+1], 16, 8)
		acc |= uint(d) << n
		n += bits
		for n >= 8 {
			out[k] = byte(acc)
			k++
			acc >>= 8
			n -= 8
		}
	}
	if n > 0 {
		out[k] = byte(acc)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return new(big.Int).SetBytes(out)
}

// parenAtom is a tuple, a parenthesized expression, a generator
// expression or a parenthesized yield.
func (p *parser) parenAtom() Expr {
	lp := p.next()
	if rp := p.peek(); rp.kind == tOp && rp.text == ")" {
		p.next()
		return &Tuple{Lparen: p.pos(lp), Rparen: p.pos(rp), Paren: true}
	}
	if p.isKw("yield") {
		y := p.yieldExpr()
		if p.expectOp(")") == nil {
			return y
		}
		return y
	}
	first := p.starNamedExpression()
	if !p.ok() {
		return first
	}
	if p.isComprehension() {
		if st, ok := first.(*Starred); ok {
			p.errorAtPos(st.Pos(), "iterable unpacking cannot be used in comprehension")
			return first
		}
		g := &GeneratorExp{Lparen: p.pos(lp), Elt: first, Generators: p.comprehensions()}
		rp := p.expectOp(")")
		if rp == nil {
			return g
		}
		g.Rparen = p.pos(rp)
		return g
	}
	if p.isOp(")") {
		rp := p.next()
		if st, ok := first.(*Starred); ok {
			p.errorAtPos(st.Pos(), "cannot use starred expression here")
		}
		_ = rp
		return first
	}
	if !p.isOp(",") {
		p.syntaxError()
		return first
	}
	elts := p.displayElts(first, ")")
	rp := p.expectOp(")")
	if rp == nil {
		return first
	}
	return &Tuple{Lparen: p.pos(lp), Rparen: p.pos(rp), Elts: elts, Paren: true}
}

// displayElts reads the rest of a comma-separated display after its
// first element, up to the closing bracket.
func (p *parser) displayElts(first Expr, close string) []Expr {
	elts := []Expr{first}
	for p.ok() && p.acceptOp(",") {
		if p.isOp(close) {
			break
		}
		elts = append(elts, p.starNamedExpression())
	}
	return elts
}

func (p *parser) isComprehension() bool {
	if p.isKw("for") {
		return true
	}
	if p.isKw("async") {
		n := p.peekAt(1)
		return n.kind == tName && n.text == "for"
	}
	return false
}

func (p *parser) listAtom() Expr {
	lb := p.next()
	if rb := p.peek(); rb.kind == tOp && rb.text == "]" {
		p.next()
		return &List{Lbrack: p.pos(lb), Rbrack: p.pos(rb)}
	}
	first := p.starNamedExpression()
	if !p.ok() {
		return first
	}
	if p.isComprehension() {
		if st, ok := first.(*Starred); ok {
			p.errorAtPos(st.Pos(), "iterable unpacking cannot be used in comprehension")
			return first
		}
		l := &ListComp{Lbrack: p.pos(lb), Elt: first, Generators: p.comprehensions()}
		rb := p.expectOp("]")
		if rb == nil {
			return l
		}
		l.Rbrack = p.pos(rb)
		return l
	}
	elts := p.displayElts(first, "]")
	rb := p.expectOp("]")
	if rb == nil {
		return first
	}
	return &List{Lbrack: p.pos(lb), Rbrack: p.pos(rb), Elts: elts}
}

// braceAtom is a dict, a set, or a comprehension of either.
func (p *parser) braceAtom() Expr {
	lb := p.next()
	if rb := p.peek(); rb.kind == tOp && rb.text == "}" {
		p.next()
		return &Dict{Lbrace: p.pos(lb), Rbrace: p.pos(rb)}
	}
	var key, value Expr
	if t := p.peek(); t.kind == tOp && t.text == "**" {
		p.next()
		value = p.bitOr()
	} else {
		key = p.starNamedExpression()
		if !p.ok() {
			return key
		}
		if !p.isOp(":") {
			return p.setRest(lb, key)
		}
		if _, ok := key.(*Starred); ok {
			p.syntaxError()
			return key
		}
		if !p.dictColon() {
			return key
		}
		value = p.expression()
	}
	if !p.ok() {
		return value
	}
	if key != nil && p.isComprehension() {
		d := &DictComp{Lbrace: p.pos(lb), Key: key, Value: value, Generators: p.comprehensions()}
		rb := p.expectOp("}")
		if rb == nil {
			return d
		}
		d.Rbrace = p.pos(rb)
		return d
	}
	d := &Dict{Lbrace: p.pos(lb), Keys: []Expr{key}, Values: []Expr{value}}
	for p.ok() && p.acceptOp(",") {
		if p.isOp("}") {
			break
		}
		if t := p.peek(); t.kind == tOp && t.text == "**" {
			p.next()
			d.Keys = append(d.Keys, nil)
			d.Values = append(d.Values, p.bitOr())
			continue
		}
		kline := p.peek().line
		k := p.expression()
		if !p.ok() {
			break
		}
		if !p.isOp(":") {
			// At the key's last character, on its first line, as CPython;
			// past that line's end when the key goes on to the next.
			col := max(1, p.endCol-1)
			if p.endLine != kline {
				col = int32(utf8.RuneCountInString(lines(p.src)[kline-1])) + 1
			}
			p.errorAt(kline, col, "':' expected after dictionary key")
			break
		}
		if !p.dictColon() {
			break
		}
		d.Keys = append(d.Keys, k)
		d.Values = append(d.Values, p.expression())
	}
	rb := p.expectOp("}")
	if rb == nil {
		return d
	}
	d.Rbrace = p.pos(rb)
	return d
}

// dictColon consumes the ':' after a key, which a value must follow.
func (p *parser) dictColon() bool {
	colon := p.next()
	if p.isOp("}") || p.isOp(",") {
		p.errorAtTok(colon, "expression expected after dictionary key and ':'")
		return false
	}
	if star := p.peek(); star.kind == tOp && star.text == "*" && p.try(func() bool { p.next(); p.bitOr(); return true }) {
		p.errorAtTok(star, "cannot use a starred expression in a dictionary value")
		return false
	}
	return true
}

func (p *parser) setRest(lb *token, first Expr) Expr {
	if p.isComprehension() {
		if st, ok := first.(*Starred); ok {
			p.errorAtPos(st.Pos(), "iterable unpacking cannot be used in comprehension")
			return first
		}
		s := &SetComp{Lbrace: p.pos(lb), Elt: first, Generators: p.comprehensions()}
		rb := p.expectOp("}")
		if rb == nil {
			return s
		}
		s.Rbrace = p.pos(rb)
		return s
	}
	elts := p.displayElts(first, "}")
	rb := p.expectOp("}")
	if rb == nil {
		return first
	}
	return &Set{Lbrace: p.pos(lb), Rbrace: p.pos(rb), Elts: elts}
}

// comprehensions reads the `for … in … if …` clauses of a
// comprehension.
func (p *parser) comprehensions() []*Comprehension {
	var gens []*Comprehension
	for p.ok() && p.isComprehension() {
		c := &Comprehension{For: p.pos(p.peek())}
		if p.acceptKw("async") {
			c.Async = true
		}
		p.next() // for
		c.Target = p.targets()
		if !p.ok() {
			return gens
		}
		if !p.acceptKw("in") {
			p.syntaxError()
			return gens
		}
		c.Iter = p.disjunction()
		for p.ok() && p.acceptKw("if") {
			c.Ifs = append(c.Ifs, p.disjunction())
		}
		gens = append(gens, c)
	}
	return gens
}

func (p *parser) yieldExpr() Expr {
	kw := p.next()
	y := &Yield{Yield: p.pos(kw)}
	if p.acceptKw("from") {
		y.From = true
		y.Value = p.expression()
	} else if p.startsExpr() || p.isOp("*") {
		y.Value = p.starExpressions()
	}
	y.EndPos = p.lastEnd()
	return y
}
