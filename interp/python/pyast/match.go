package pyast

// A match statement is read whole, its patterns checked against the
// grammar, but only its span is kept: the lowering refuses it.

// matchStmt reads a match statement, or returns nil when the statement
// starting with the soft keyword `match` is something else (`match =
// re.match(…)`, `match(x)`, `match[x]: int`); then nl is the end of the
// line when `match subject` is all the line holds.
func (p *parser) matchStmt() (s Stmt, nl *token) {
	kw := p.peek()
	if !p.try(func() bool {
		p.next()
		p.subject()
		if p.ok() && p.peek().kind == tNewline {
			nl = p.peek()
		}
		return p.ok() && p.isOp(":") && p.peekAt(1).kind == tNewline
	}) {
		return nil, nl
	}
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
		p.caseBlock()
	}
	p.next() // DEDENT
	return &Match{Match: p.pos(kw), EndPos: p.lastEnd()}, nil
}

func (p *parser) subject() {
	first := p.starNamedExpression()
	if p.isOp(",") {
		for p.ok() && p.acceptOp(",") {
			if p.isOp(":") {
				break
			}
			p.starNamedExpression()
		}
		return
	}
	if _, ok := first.(*Starred); ok {
		p.syntaxError()
	}
}

func (p *parser) caseBlock() {
	kw := p.next()
	p.openPatterns(":")
	if p.acceptKw("if") {
		p.namedExpression()
	}
	if !p.colon(false) {
		return
	}
	p.block("'case' statement", kw)
}

// openPatterns reads patterns separated by commas, up to end.
func (p *parser) openPatterns(end string) {
	for p.ok() {
		p.maybeStarPattern()
		if !p.acceptOp(",") || p.isOp(end) || p.isKw("if") {
			return
		}
	}
}

func (p *parser) maybeStarPattern() {
	if p.acceptOp("*") {
		p.captureName(true)
		return
	}
	p.pattern()
}

// captureName reads a name a pattern binds (or _).
func (p *parser) captureName(wildcard bool) {
	t := p.peek()
	if t.kind != tName || IsKeyword(t.text) || t.text == "_" && !wildcard {
		if t.kind == tName && t.text == "_" {
			p.errorAtTok(t, "cannot use '_' as a target")
			return
		}
		p.syntaxError()
		return
	}
	p.next()
}

func (p *parser) pattern() {
	if !p.enter() {
		return
	}
	defer p.leave()
	p.closedPattern()
	for p.ok() && p.acceptOp("|") {
		p.closedPattern()
	}
	if p.acceptKw("as") {
		p.captureName(false)
	}
}

func (p *parser) closedPattern() {
	t := p.peek()
	switch t.kind {
	case tNumber:
		p.signedNumber()
		return
	case tString:
		p.strings()
		return
	case tName:
		switch t.text {
		case "None", "True", "False":
			p.next()
			return
		}
		if IsKeyword(t.text) {
			break
		}
		p.next()
		dotted := false
		for p.ok() && p.acceptOp(".") {
			p.ident()
			dotted = true
		}
		if p.isOp("(") {
			p.classPatternArgs()
		} else if !dotted && p.isOp("=") {
			p.syntaxError()
		}
		return
	case tOp:
		switch t.text {
		case "-":
			p.signedNumber()
			return
		case "(", "[":
			p.next()
			close := ")"
			if t.text == "[" {
				close = "]"
			}
			if !p.isOp(close) {
				p.openPatterns(close)
			}
			p.expectOp(close)
			return
		case "{":
			p.mappingPattern()
			return
		}
	}
	p.syntaxError()
}

// signedNumber is a number pattern: -1, 1.5, or a complex 1 + 2j.
func (p *parser) signedNumber() {
	p.acceptOp("-")
	t := p.peek()
	if t.kind != tNumber {
		p.syntaxError()
		return
	}
	p.next()
	p.number(t)
	if p.isOp("+") || p.isOp("-") {
		p.next()
		t := p.peek()
		if t.kind != tNumber {
			p.syntaxError()
			return
		}
		p.next()
		p.number(t)
	}
}

func (p *parser) classPatternArgs() {
	p.next() // (
	keywords := false
	for p.ok() && !p.isOp(")") {
		if t := p.peek(); t.kind == tName && p.peekAt(1).kind == tOp && p.peekAt(1).text == "=" {
			p.next()
			p.next()
			keywords = true
		} else if keywords {
			p.errorAtTok(t, "positional patterns follow keyword patterns")
			return
		}
		p.pattern()
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
}

func (p *parser) mappingPattern() {
	p.next() // {
	for p.ok() && !p.isOp("}") {
		if p.acceptOp("**") {
			p.captureName(false)
			if p.acceptOp(",") && !p.isOp("}") {
				p.syntaxError()
				return
			}
			break
		}
		// A key: a literal or a dotted name.
		t := p.peek()
		switch {
		case t.kind == tNumber || t.kind == tOp && t.text == "-":
			p.signedNumber()
		case t.kind == tString:
			p.strings()
		case t.kind == tName && (t.text == "None" || t.text == "True" || t.text == "False"):
			p.next()
		case t.kind == tName && !IsKeyword(t.text):
			p.next()
			if p.expectOp(".") == nil {
				return
			}
			p.ident()
			for p.ok() && p.acceptOp(".") {
				p.ident()
			}
		default:
			p.syntaxError()
			return
		}
		if p.expectOp(":") == nil {
			return
		}
		p.pattern()
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp("}")
}
