package pyast

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// A literal's parts: its prefix, its quotes and its body.
type literal struct {
	raw, bytes, f bool
	bodyOff       int // offset of the body in the token's text
	body          string
}

func literalOf(text string) literal {
	var l literal
	i := 0
	for ; text[i] != '"' && text[i] != '\''; i++ {
		switch text[i] | 0x20 {
		case 'r':
			l.raw = true
		case 'b':
			l.bytes = true
		case 'f':
			l.f = true
		}
	}
	q := 1
	if len(text)-i >= 6 && text[i+1] == text[i] && text[i+2] == text[i] {
		q = 3
	}
	l.bodyOff = i + q
	l.body = text[i+q : len(text)-q]
	return l
}

// posIn is the position of byte off of token t's text.
func posIn(t *token, off int) (int32, int32) {
	line, col := t.line, t.col
	text := t.text[:off]
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '\r' && i+1 < len(text) && text[i+1] == '\n':
		case r == '\n' || r == '\r':
			line, col = line+1, 1
		default:
			col++
		}
		i += n
	}
	return line, col
}

// strings reads adjacent string literals as one value: a Constant, or a
// JoinedStr when any of them is an f-string.
func (p *parser) strings() Expr {
	var toks []*token
	var lits []literal
	anyF := false
	for p.ok() && p.peek().kind == tString {
		t := p.next()
		l := literalOf(t.text)
		if len(lits) > 0 && l.bytes != lits[0].bytes {
			p.errorAtTok(t, "cannot mix bytes and nonbytes literals")
			return &Constant{Start: p.pos(toks[0]), EndPos: p.endOf(t)}
		}
		toks = append(toks, t)
		lits = append(lits, l)
		anyF = anyF || l.f
	}
	first, last := toks[0], toks[len(toks)-1]
	if !anyF {
		c := &Constant{Start: p.pos(first), EndPos: p.endOf(last), Raw: first.text}
		var b strings.Builder
		for i, t := range toks {
			s, ok := p.decodeLiteral(t, lits[i])
			if !ok {
				return c
			}
			b.WriteString(s)
		}
		if lits[0].bytes {
			c.Value = Bytes(b.String())
		} else {
			c.Value = b.String()
		}
		return c
	}
	js := &JoinedStr{Start: p.pos(first), EndPos: p.endOf(last)}
	var parts []Expr
	for i, t := range toks {
		l := lits[i]
		if !l.f {
			s, ok := p.decodeLiteral(t, l)
			if !ok {
				return js
			}
			if s != "" {
				sl, sc := posIn(t, l.bodyOff)
				el, ec := posIn(t, l.bodyOff+len(l.body))
				parts = append(parts, &Constant{Start: p.mkPos(sl, sc), EndPos: p.mkPos(el, ec), Value: s, Raw: l.body})
			}
			continue
		}
		f := &fstring{p: p, tok: t, body: l.body, base: int(t.off) + l.bodyOff, raw: l.raw}
		f.line, f.col = posIn(t, l.bodyOff)
		f.startLine, f.startCol = f.line, f.col
		parts = f.parse(0, parts)
		if !p.ok() {
			return js
		}
	}
	js.Values = joinConstants(parts)
	return js
}

// joinConstants merges adjacent constant parts of an f-string.
func joinConstants(parts []Expr) []Expr {
	out := parts[:0]
	for _, e := range parts {
		if c, ok := e.(*Constant); ok && len(out) > 0 {
			if prev, ok := out[len(out)-1].(*Constant); ok {
				out[len(out)-1] = &Constant{Start: prev.Start, EndPos: c.EndPos, Value: prev.Value.(string) + c.Value.(string), Raw: prev.Raw}
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

// decodeLiteral is the value of a literal that is not an f-string.
func (p *parser) decodeLiteral(t *token, l literal) (string, bool) {
	if l.bytes {
		for i := 0; i < len(l.body); i++ {
			if l.body[i] >= utf8.RuneSelf {
				p.errorAtTok(t, "bytes can only contain ASCII literal characters")
				return "", false
			}
		}
	}
	if l.raw {
		return normNewlines(l.body), true
	}
	s, e := decodeEscapes(l.body, l.bytes)
	if e != nil {
		line, col := posIn(t, l.bodyOff+e.off)
		p.errorAt(line, col, "%s", e.msg)
		return "", false
	}
	return s, true
}

// normNewlines turns CRLF and CR into LF, as CPython reads source.
func normNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

type escapeError struct {
	off int // of the backslash in the body
	msg string
}

// decodeEscapes decodes the backslash escapes of a literal's body, with
// CPython's errors; unknown escapes stay as written.
func decodeEscapes(s string, bytes bool) (string, *escapeError) {
	if strings.IndexByte(s, '\\') < 0 {
		return normNewlines(s), nil
	}
	var b strings.Builder
	b.Grow(len(s))
	// fail reports a malformed escape between start and end (inclusive)
	// with the byte positions CPython's decoder gives, which counts each
	// non-ASCII character as the 10 bytes of a \U escape.
	fail := func(start, end int, what string) *escapeError {
		if bytes {
			return &escapeError{off: start, msg: fmt.Sprintf("(value error) invalid \\x escape at position %d", start)}
		}
		shift := 0
		for _, r := range s[:start] {
			if r >= utf8.RuneSelf {
				shift += 10 - utf8.RuneLen(r)
			}
		}
		return &escapeError{off: start, msg: fmt.Sprintf("(unicode error) 'unicodeescape' codec can't decode bytes in position %d-%d: %s", start+shift, end+shift, what)}
	}
	hex := func(i, n int) (rune, int) {
		var v rune
		k := 0
		for ; k < n && i+k < len(s) && isHex(s[i+k]); k++ {
			c := s[i+k]
			switch {
			case c <= '9':
				v = v*16 + rune(c-'0')
			default:
				v = v*16 + rune(c|0x20-'a'+10)
			}
		}
		return v, k
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c == '\r' {
			b.WriteByte('\n')
			i++
			if i < len(s) && s[i] == '\n' {
				i++
			}
			continue
		}
		if c != '\\' {
			b.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(s) {
			b.WriteByte('\\')
			i++
			continue
		}
		start := i
		e := s[i+1]
		i += 2
		switch e {
		case '\n':
		case '\r':
			if i < len(s) && s[i] == '\n' {
				i++
			}
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte(11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := rune(e - '0')
			for k := 0; k < 2 && i < len(s) && '0' <= s[i] && s[i] <= '7'; k++ {
				v = v*8 + rune(s[i]-'0')
				i++
			}
			if bytes {
				b.WriteByte(byte(v))
			} else {
				b.WriteRune(v)
			}
		case 'x':
			v, k := hex(i, 2)
			if k < 2 {
				return "", fail(start, i+k-1, `truncated \xXX escape`)
			}
			i += 2
			if bytes {
				b.WriteByte(byte(v))
			} else {
				b.WriteRune(v)
			}
		case 'u', 'U':
			if bytes {
				b.WriteByte('\\')
				b.WriteByte(e)
				break
			}
			n := 4
			what := `truncated \uXXXX escape`
			if e == 'U' {
				n, what = 8, `truncated \UXXXXXXXX escape`
			}
			v, k := hex(i, n)
			if k < n {
				return "", fail(start, i+k-1, what)
			}
			i += n
			if v > utf8.MaxRune {
				return "", fail(start, i-1, "illegal Unicode character")
			}
			if 0xD800 <= v && v <= 0xDFFF {
				return "", &escapeError{off: start, msg: fmt.Sprintf(`\%c%0*x: a lone surrogate is not supported (strings here are UTF-8); write the character itself`, e, n, v)}
			}
			b.WriteRune(v)
		case 'N':
			if bytes {
				b.WriteString(`\N`)
				break
			}
			if i >= len(s) || s[i] != '{' {
				return "", fail(start, start+1, `malformed \N character escape`)
			}
			end := strings.IndexByte(s[i:], '}')
			if end <= 1 {
				if end < 0 {
					return "", fail(start, len(s)-1, `malformed \N character escape`)
				}
				return "", fail(start, i+end, `malformed \N character escape`)
			}
			r, ok := lookupName(s[i+1 : i+end])
			if !ok {
				return "", fail(start, i+end, "unknown Unicode character name")
			}
			b.WriteRune(r)
			i += end + 1
		default:
			// Not an escape: kept as written, as CPython does (with a
			// warning).
			b.WriteByte('\\')
			i--
		}
	}
	return b.String(), nil
}

// An fstring is the body of one f-string literal being read, with the
// position of body[i] kept as i moves forward.
type fstring struct {
	p         *parser
	tok       *token
	body      string
	base      int // offset of the body in the source
	raw       bool
	i         int
	at        int // body[at] is at line:col
	line, col int32
	startLine int32
	startCol  int32
}

// pos is the position of body[j].
func (f *fstring) pos(j int) Pos {
	if j < f.at {
		f.at, f.line, f.col = 0, f.startLine, f.startCol
	}
	for f.at < j && f.at < len(f.body) {
		r, n := utf8.DecodeRuneInString(f.body[f.at:])
		switch {
		case r == '\r' && f.at+1 < len(f.body) && f.body[f.at+1] == '\n':
		case r == '\n' || r == '\r':
			f.line, f.col = f.line+1, 1
		default:
			f.col++
		}
		f.at += n
	}
	if j > len(f.body) { // past the body: the closing quote
		return f.p.mkPos(f.line, f.col+int32(j-len(f.body)))
	}
	return f.p.mkPos(f.line, f.col)
}

func (f *fstring) fail(j int, format string, args ...any) {
	pos := f.pos(j)
	f.p.errorAt(pos.Line, pos.Col, format, args...)
}

// parse reads literal text and fields into out until the end of the body
// or, in a format spec (level > 0), a '}'.
func (f *fstring) parse(level int, out []Expr) []Expr {
	for f.p.ok() {
		out = f.literal(level, out)
		if !f.p.ok() || f.i >= len(f.body) || f.body[f.i] == '}' {
			return out
		}
		fv := f.field(level)
		if fv == nil {
			return out
		}
		out = append(out, fv)
	}
	return out
}

// literal reads text up to a field, decoding escapes and doubled braces.
func (f *fstring) literal(level int, out []Expr) []Expr {
	var b strings.Builder
	start := f.i
	seg := f.i
	flush := func(end int) bool {
		text := f.body[seg:end]
		if f.raw {
			b.WriteString(normNewlines(text))
			return true
		}
		s, e := decodeEscapes(text, false)
		if e != nil {
			f.fail(seg+e.off, "%s", e.msg)
			return false
		}
		b.WriteString(s)
		return true
	}
	body := f.body
	for f.i < len(body) {
		c := body[f.i]
		if !f.raw && c == '\\' && f.i+1 < len(body) {
			f.i++
			c = body[f.i]
			if c == 'N' {
				// \N{NAME}: its braces are not a field's.
				f.i++
				if f.i < len(body) {
					f.i++
					if body[f.i-1] == '{' {
						for f.i < len(body) && body[f.i] != '}' {
							f.i++
						}
						if f.i < len(body) {
							f.i++
						}
					}
				}
				continue
			}
		}
		if c == '{' || c == '}' {
			if level == 0 {
				if f.i+1 < len(body) && body[f.i+1] == c {
					if !flush(f.i + 1) {
						return out
					}
					f.i += 2
					seg = f.i
					continue
				}
				if c == '}' {
					f.fail(f.i, "f-string: single '}' is not allowed")
					return out
				}
			}
			break
		}
		f.i++
	}
	if !flush(f.i) {
		return out
	}
	if b.Len() > 0 {
		out = append(out, &Constant{Start: f.pos(start), EndPos: f.pos(f.i), Value: b.String(), Raw: body[start:f.i]})
	}
	return out
}

// field reads a replacement field `{expr=!c:spec}` from its '{'.
func (f *fstring) field(level int) Expr {
	p, body := f.p, f.body
	lb := f.pos(f.i)
	if level >= 2 {
		f.fail(f.i, "f-string: expressions nested too deeply")
		return nil
	}
	f.i++
	exprStart := f.i
	var quote byte
	quoteAt := 0
	triple := false
	var stack []byte
scan:
	for ; f.i < len(body); f.i++ {
		c := body[f.i]
		if c == '\\' {
			f.fail(f.i, "f-string expression part cannot include a backslash")
			return nil
		}
		if quote != 0 {
			if c == quote {
				if !triple {
					quote = 0
				} else if f.i+2 < len(body) && body[f.i+1] == c && body[f.i+2] == c {
					f.i += 2
					quote = 0
				}
			}
			continue
		}
		switch c {
		case '\'', '"':
			quoteAt = f.i
			triple = f.i+2 < len(body) && body[f.i+1] == c && body[f.i+2] == c
			if triple {
				f.i += 2
			}
			quote = c
			continue
		case '(', '[', '{':
			if len(stack) >= maxParens {
				f.fail(f.i, "f-string: too many nested parenthesis")
				return nil
			}
			stack = append(stack, c)
			continue
		case '#':
			f.fail(f.i, "f-string expression part cannot include '#'")
			return nil
		}
		if len(stack) == 0 {
			switch c {
			case '!', '=', '<', '>':
				if f.i+1 < len(body) && body[f.i+1] == '=' {
					f.i++ // != == <= >=
					continue
				}
				if c == '<' || c == '>' {
					continue
				}
				break scan
			case ':', '}':
				break scan
			}
		}
		switch c {
		case ')', ']', '}':
			if len(stack) == 0 {
				f.fail(f.i, "f-string: unmatched '%c'", c)
				return nil
			}
			open := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if closing(open) != c {
				f.fail(f.i, "f-string: closing parenthesis '%c' does not match opening parenthesis '%c'", c, open)
				return nil
			}
		}
	}
	switch {
	case quote != 0:
		f.fail(quoteAt, "f-string: unterminated string")
		return nil
	case len(stack) > 0:
		f.fail(f.i, "f-string: unmatched '%c'", stack[len(stack)-1])
		return nil
	case f.i >= len(body):
		f.fail(f.i, "f-string: expecting '}'")
		return nil
	}
	exprEnd := f.i
	if strings.Trim(body[exprStart:exprEnd], " \t\n\r\f\v") == "" {
		f.fail(exprEnd, "f-string: empty expression not allowed")
		return nil
	}
	at := f.pos(exprStart)
	toks, serr := scanField(p.src, f.base+exprStart, f.base+exprEnd, at.Line, at.Col)
	sub := &parser{file: p.file, src: p.src, toks: toks, serr: serr, depth: p.depth + 1, field: true}
	value := sub.fieldExpr()
	if e := sub.failure(); e != nil {
		if p.err == nil {
			p.err = e
		}
		return nil
	}
	fv := &FormattedValue{Lbrace: lb, Value: value}
	if body[f.i] == '=' {
		f.i++
		for f.i < len(body) && strings.IndexByte(" \t\n\r\f\v", body[f.i]) >= 0 {
			f.i++
		}
		if f.i >= len(body) {
			f.fail(f.i, "f-string: expecting '}'")
			return nil
		}
		fv.Debug = normNewlines(body[exprStart:f.i])
	}
	if body[f.i] == '!' {
		f.i++
		if f.i >= len(body) {
			f.fail(f.i, "f-string: expecting '}'")
			return nil
		}
		conv := body[f.i]
		if conv != 's' && conv != 'r' && conv != 'a' {
			f.fail(f.i, "f-string: invalid conversion character: expected 's', 'r', or 'a'")
			return nil
		}
		fv.Conversion = rune(conv)
		f.i++
	}
	if f.i < len(body) && body[f.i] == ':' {
		f.i++
		if f.i >= len(body) {
			f.fail(f.i, "f-string: expecting '}'")
			return nil
		}
		spec := &JoinedStr{Start: f.pos(f.i)}
		spec.Values = joinConstants(f.parse(level+1, nil))
		if !p.ok() {
			return nil
		}
		spec.EndPos = f.pos(f.i)
		fv.FormatSpec = spec
	}
	if f.i >= len(body) || body[f.i] != '}' {
		f.fail(f.i, "f-string: expecting '}'")
		return nil
	}
	fv.Rbrace = f.pos(f.i)
	f.i++
	if fv.Debug != "" && fv.Conversion == 0 && fv.FormatSpec == nil {
		fv.Conversion = 'r'
	}
	return fv
}

// fieldExpr is the expression of an f-string field, read as CPython 3.11
// reads it: as if it were in parentheses.
func (p *parser) fieldExpr() Expr {
	var e Expr
	if p.isKw("yield") {
		e = p.yieldExpr()
	} else {
		first := p.starNamedExpression()
		switch {
		case !p.ok():
		case p.isComprehension():
			g := &GeneratorExp{Lparen: first.Pos(), Elt: first, Generators: p.comprehensions()}
			end := p.lastEnd()
			end.Col--
			g.Rparen = end
			e = g
		case p.isOp(","):
			elts := []Expr{first}
			for p.ok() && p.acceptOp(",") {
				if p.peek().kind == tEOF {
					break
				}
				elts = append(elts, p.starNamedExpression())
			}
			e = &Tuple{Lparen: first.Pos(), Rparen: elts[len(elts)-1].Pos(), Elts: elts}
		default:
			if st, ok := first.(*Starred); ok {
				p.errorAtPos(st.Pos(), "cannot use starred expression here")
			}
			e = first
		}
	}
	if p.ok() && p.peek().kind != tEOF {
		p.syntaxError()
	}
	return e
}
