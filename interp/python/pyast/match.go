package pyast

// A match statement's patterns, as CPython's ast module shapes them.

// A Pattern is one pattern of a case.
type Pattern interface {
	Node
	pattern()
}

// MatchValue compares the subject with a value: a number (-1, 1.5), a
// string, or a dotted name (Color.RED).
type MatchValue struct{ Value Expr }

// MatchSingleton is None, True or False, compared with `is`.
type MatchSingleton struct {
	Start  Pos
	Value  Expr // the Constant
	EndPos Pos
}

// MatchSequence is `[p, *rest, q]` or `(p, q)` or `p, q`.
type MatchSequence struct {
	Start, EndPos Pos
	Patterns      []Pattern
}

// MatchStar is `*name` in a sequence pattern; Name is "" for `*_`.
type MatchStar struct {
	Star, EndPos Pos
	Name         string
}

// MatchMapping is `{key: p, **rest}`; Rest is "" without `**`.
type MatchMapping struct {
	Start, EndPos Pos
	Keys          []Expr
	Patterns      []Pattern
	Rest          string
}

// MatchClass is `Cls(p, attr=q)`.
type MatchClass struct {
	Cls         Expr
	EndPos      Pos
	Patterns    []Pattern
	KwdAttrs    []string
	KwdPatterns []Pattern
}

// MatchAs is `p as name`, a capture `name` (Pattern nil), or the
// wildcard `_` (both empty).
type MatchAs struct {
	Start, EndPos Pos
	Pattern       Pattern
	Name          string
}

// MatchOr is `p | q`.
type MatchOr struct {
	Patterns []Pattern
}

func (n *MatchValue) Pos() Pos     { return n.Value.Pos() }
func (n *MatchValue) End() Pos     { return n.Value.End() }
func (n *MatchSingleton) Pos() Pos { return n.Start }
func (n *MatchSingleton) End() Pos { return n.EndPos }
func (n *MatchSequence) Pos() Pos  { return n.Start }
func (n *MatchSequence) End() Pos  { return n.EndPos }
func (n *MatchStar) Pos() Pos      { return n.Star }
func (n *MatchStar) End() Pos      { return n.EndPos }
func (n *MatchMapping) Pos() Pos   { return n.Start }
func (n *MatchMapping) End() Pos   { return n.EndPos }
func (n *MatchClass) Pos() Pos     { return n.Cls.Pos() }
func (n *MatchClass) End() Pos     { return n.EndPos }
func (n *MatchAs) Pos() Pos        { return n.Start }
func (n *MatchAs) End() Pos        { return n.EndPos }
func (n *MatchOr) Pos() Pos        { return n.Patterns[0].Pos() }
func (n *MatchOr) End() Pos        { return n.Patterns[len(n.Patterns)-1].End() }

func (*MatchValue) pattern()     {}
func (*MatchSingleton) pattern() {}
func (*MatchSequence) pattern()  {}
func (*MatchStar) pattern()      {}
func (*MatchMapping) pattern()   {}
func (*MatchClass) pattern()     {}
func (*MatchAs) pattern()        {}
func (*MatchOr) pattern()        {}

// matchStmt reads a match statement, or returns nil when the statement
// starting with the soft keyword `match` is something else (`match =
// re.match(…)`, `match(x)`, `match[x]: int`); then nl is the end of the
// line when `match subject` is all the line holds.
func (p *parser) matchStmt() (s Stmt, nl *token) {
	kw := p.peek()
	var subject Expr
	if !p.try(func() bool {
		p.next()
		subject = p.subject()
		if p.ok() && p.peek().kind == tNewline {
			nl = p.peek()
		}
		return p.ok() && p.isOp(":") && p.peekAt(1).kind == tNewline
	}) {
		return nil, nl
	}
	m := &Match{Match: p.pos(kw), Subject: subject}
	p.next() // :
	p.next() // NEWLINE
	if t := p.peek(); t.kind != tIndent {
		if p.ok() {
			p.errorAtTok(t, "expected an indented block after 'match' statement on line %d", kw.line)
		}
		return nil, nil
	}
	p.next()
	for p.ok() && p.peek().kind != tDedent {
		if !p.isKw("case") {
			p.syntaxError()
			return nil, nil
		}
		if c := p.caseBlock(); c != nil {
			m.Cases = append(m.Cases, c)
		}
	}
	p.next() // DEDENT
	m.EndPos = p.lastEnd()
	return m, nil
}

// subject is the subject of a match: an expression, or a tuple of them.
func (p *parser) subject() Expr {
	lp := p.peek()
	first := p.starNamedExpression()
	if p.isOp(",") {
		elts := []Expr{first}
		for p.ok() && p.acceptOp(",") {
			if p.isOp(":") {
				break
			}
			elts = append(elts, p.starNamedExpression())
		}
		return &Tuple{Lparen: p.pos(lp), Rparen: p.lastEnd(), Elts: elts}
	}
	if _, ok := first.(*Starred); ok {
		p.syntaxError()
	}
	return first
}

func (p *parser) caseBlock() *MatchCase {
	kw := p.next()
	c := &MatchCase{Case: p.pos(kw)}
	start := p.peek()
	list, open := p.openPatterns(":")
	c.Pattern = list[0]
	if open {
		// `case a, b:` is a sequence pattern without brackets.
		c.Pattern = &MatchSequence{Start: p.pos(start), EndPos: p.lastEnd(), Patterns: list}
	}
	if p.acceptKw("if") {
		c.Guard = p.namedExpression()
	}
	if !p.colon(false) {
		return nil
	}
	c.Body = p.block("'case' statement", kw)
	return c
}

// openPatterns reads patterns separated by commas, up to end; open
// reports a comma (a sequence, even of one).
func (p *parser) openPatterns(end string) (list []Pattern, open bool) {
	for p.ok() {
		list = append(list, p.maybeStarPattern())
		if !p.acceptOp(",") {
			break
		}
		open = true
		if p.isOp(end) || p.isKw("if") {
			break
		}
	}
	if len(list) == 0 {
		list = append(list, &MatchAs{}) // only after an error
	}
	return list, open
}

func (p *parser) maybeStarPattern() Pattern {
	if t := p.peek(); p.acceptOp("*") {
		name := p.captureName(true)
		return &MatchStar{Star: p.pos(t), EndPos: p.lastEnd(), Name: name}
	}
	return p.pattern()
}

// captureName reads a name a pattern binds, "" for _ when wildcard.
func (p *parser) captureName(wildcard bool) string {
	t := p.peek()
	if t.kind != tName || IsKeyword(t.text) || t.text == "_" && !wildcard {
		if t.kind == tName && t.text == "_" {
			p.errorAtTok(t, "cannot use '_' as a target")
			return ""
		}
		p.syntaxError()
		return ""
	}
	p.next()
	if t.text == "_" {
		return ""
	}
	return t.text
}

func (p *parser) pattern() Pattern {
	if !p.enter() {
		return &MatchAs{}
	}
	defer p.leave()
	start := p.peek()
	pat := p.closedPattern()
	if p.isOp("|") {
		or := &MatchOr{Patterns: []Pattern{pat}}
		for p.ok() && p.acceptOp("|") {
			or.Patterns = append(or.Patterns, p.closedPattern())
		}
		pat = or
	}
	if p.acceptKw("as") {
		name := p.captureName(false)
		pat = &MatchAs{Start: p.pos(start), EndPos: p.lastEnd(), Pattern: pat, Name: name}
	}
	return pat
}

func (p *parser) closedPattern() Pattern {
	t := p.peek()
	switch t.kind {
	case tNumber:
		return &MatchValue{Value: p.signedNumber()}
	case tString:
		return &MatchValue{Value: p.strings()}
	case tName:
		switch t.text {
		case "None", "True", "False":
			p.next()
			var v any
			if t.text != "None" {
				v = t.text == "True"
			}
			return &MatchSingleton{Start: p.pos(t), EndPos: p.endOf(t), Value: &Constant{Start: p.pos(t), EndPos: p.endOf(t), Value: v, Raw: t.text}}
		}
		if IsKeyword(t.text) {
			break
		}
		p.next()
		var x Expr = &Name{NamePos: p.pos(t), Id: t.text}
		dotted := false
		for p.ok() && p.isOp(".") {
			dot := p.next()
			attr := p.ident()
			if attr == nil {
				return &MatchAs{}
			}
			x = &Attribute{Value: x, Dot: p.pos(dot), Attr: attr.Id, AttrPos: attr.NamePos}
			dotted = true
		}
		if p.isOp("(") {
			return p.classPatternArgs(x)
		}
		if dotted {
			return &MatchValue{Value: x}
		}
		if p.isOp("=") {
			p.syntaxError()
		}
		if t.text == "_" {
			return &MatchAs{Start: p.pos(t), EndPos: p.endOf(t)}
		}
		return &MatchAs{Start: p.pos(t), EndPos: p.endOf(t), Name: t.text}
	case tOp:
		switch t.text {
		case "-":
			return &MatchValue{Value: p.signedNumber()}
		case "(", "[":
			p.next()
			close := ")"
			if t.text == "[" {
				close = "]"
			}
			var list []Pattern
			open := t.text == "["
			if !p.isOp(close) {
				var comma bool
				list, comma = p.openPatterns(close)
				open = open || comma
			}
			p.expectOp(close)
			if !open && len(list) == 1 {
				return list[0] // (p) is p
			}
			return &MatchSequence{Start: p.pos(t), EndPos: p.lastEnd(), Patterns: list}
		case "{":
			return p.mappingPattern()
		}
	}
	p.syntaxError()
	return &MatchAs{}
}

// signedNumber is a number pattern: -1, 1.5 (a complex 1 + 2j is
// refused by number).
func (p *parser) signedNumber() Expr {
	minus := p.peek()
	neg := p.acceptOp("-")
	t := p.peek()
	if t.kind != tNumber {
		p.syntaxError()
		return &Constant{Start: p.pos(t), EndPos: p.pos(t)}
	}
	p.next()
	x := p.number(t)
	if neg {
		x = &UnaryOp{OpPos: p.pos(minus), Op: "-", Operand: x}
	}
	if p.isOp("+") || p.isOp("-") {
		p.next()
		t := p.peek()
		if t.kind != tNumber {
			p.syntaxError()
			return x
		}
		p.next()
		p.number(t)
	}
	return x
}

func (p *parser) classPatternArgs(cls Expr) Pattern {
	c := &MatchClass{Cls: cls}
	p.next() // (
	keywords := false
	for p.ok() && !p.isOp(")") {
		if t := p.peek(); t.kind == tName && p.peekAt(1).kind == tOp && p.peekAt(1).text == "=" {
			p.next()
			p.next()
			keywords = true
			c.KwdAttrs = append(c.KwdAttrs, t.text)
			c.KwdPatterns = append(c.KwdPatterns, p.pattern())
		} else if keywords {
			p.errorAtTok(t, "positional patterns follow keyword patterns")
			return c
		} else {
			c.Patterns = append(c.Patterns, p.pattern())
		}
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	c.EndPos = p.lastEnd()
	return c
}

func (p *parser) mappingPattern() Pattern {
	m := &MatchMapping{Start: p.pos(p.next())} // {
	for p.ok() && !p.isOp("}") {
		if p.acceptOp("**") {
			m.Rest = p.captureName(false)
			if p.acceptOp(",") && !p.isOp("}") {
				p.syntaxError()
				return m
			}
			break
		}
		// A key: a literal or a dotted name.
		t := p.peek()
		var key Expr
		switch {
		case t.kind == tNumber || t.kind == tOp && t.text == "-":
			key = p.signedNumber()
		case t.kind == tString:
			key = p.strings()
		case t.kind == tName && (t.text == "None" || t.text == "True" || t.text == "False"):
			p.next()
			var v any
			if t.text != "None" {
				v = t.text == "True"
			}
			key = &Constant{Start: p.pos(t), EndPos: p.endOf(t), Value: v, Raw: t.text}
		case t.kind == tName && !IsKeyword(t.text):
			p.next()
			key = &Name{NamePos: p.pos(t), Id: t.text}
			dot := p.expectOp(".")
			if dot == nil {
				return m
			}
			for {
				attr := p.ident()
				if attr == nil {
					return m
				}
				key = &Attribute{Value: key, Dot: p.pos(dot), Attr: attr.Id, AttrPos: attr.NamePos}
				if !p.isOp(".") {
					break
				}
				dot = p.next()
			}
		default:
			p.syntaxError()
			return m
		}
		if p.expectOp(":") == nil {
			return m
		}
		m.Keys = append(m.Keys, key)
		m.Patterns = append(m.Patterns, p.pattern())
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp("}")
	m.EndPos = p.lastEnd()
	return m
}
