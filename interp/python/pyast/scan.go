package pyast

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The tokenizer follows CPython 3.11's: the same tokens, the same
// INDENT/DEDENT rules (tabs to multiples of 8, checked against tabs of
// width 1 for consistency), the same errors at the same places. An
// f-string is one STRING token, as in 3.11; the parser reads its fields.

type tokKind uint8

const (
	tEOF tokKind = iota
	tNewline
	tIndent
	tDedent
	tName
	tNumber
	tString
	tOp    // an operator or delimiter, or a character that is neither
	tError // where the tokenizer stopped: reading it reports the error
)

// A token is a slice of the source with its start and end.
type token struct {
	kind        tokKind
	text        string // the source text; for a name, its NFKC form
	line, col   int32  // start (1-based, columns in runes)
	eline, ecol int32  // just past the end
	off         int32  // byte offset of the start
	level       uint8  // open brackets around (or opened by) the token
}

const (
	maxParens = 200 // open brackets, as CPython's tokenizer
	maxIndent = 100 // indentation levels, counting the first, as CPython's
)

// errKind says how a tokenizer error competes with a parser error, as in
// CPython, which tokenizes the rest of the input when the parser fails:
// errors it raises there (strong) replace the parser's; indentation and
// continuation errors (weak) count only where the parser reached them;
// an unclosed bracket replaces a parser error on a later line.
type errKind uint8

const (
	errStrong errKind = iota
	errWeak
	errUnclosed
)

type scanError struct {
	line, col int32
	msg       string
	kind      errKind
}

type paren struct {
	c         byte
	line, col int32
}

type scanner struct {
	src       string
	i, end    int
	line      int32
	lineStart int // offset of the current line's first byte
	colOff    int // colOff has column colVal (kept to count runes once)
	colVal    int32
	toks      []token
	parens    []paren
	indents   []int32 // columns, tabs to multiples of 8
	alts      []int32 // columns, tabs as 1
	fexpr     bool    // an f-string field: one bracketed expression, no lines
	base      int     // brackets around what is scanned (1 in a field)
	err       *scanError
}

// scanFile tokenizes a whole program. The tokens end with tEOF, or with
// tError when the tokenizer stopped at err.
func scanFile(src string) ([]token, *scanError) {
	s := &scanner{src: src, end: len(src), line: 1, colVal: 1}
	if strings.HasPrefix(src, "\ufeff") { // a BOM is not part of the text
		s.i, s.lineStart, s.colOff = 3, 3, 3
	}
	s.toks = make([]token, 0, len(src)/4+8)
	s.indents = append(s.indents, 0)
	s.alts = append(s.alts, 0)
	s.run()
	return s.toks, s.err
}

// scanField tokenizes src[start:end], the expression of an f-string
// field that starts at line:col, as if it were inside brackets.
func scanField(src string, start, end int, line, col int32) ([]token, *scanError) {
	s := &scanner{src: src, i: start, end: end, line: line, lineStart: -1, colOff: start, colVal: col, fexpr: true, base: 1}
	s.run()
	return s.toks, s.err
}

// col is the column of offset off on the current line; offsets asked
// for never go back, so each rune is counted once.
func (s *scanner) col(off int) int32 {
	if off < s.colOff {
		return s.colVal - int32(utf8.RuneCountInString(s.src[off:s.colOff]))
	}
	s.colVal += int32(utf8.RuneCountInString(s.src[s.colOff:off]))
	s.colOff = off
	return s.colVal
}

// newline records that a line starts at offset off.
func (s *scanner) newline(off int) {
	s.line++
	s.lineStart, s.colOff, s.colVal = off, off, 1
}

func (s *scanner) fail(line, col int32, kind errKind, format string, args ...any) {
	if s.err == nil {
		s.err = &scanError{line: line, col: col, msg: fmt.Sprintf(format, args...), kind: kind}
	}
}

// failAt reports an error at offset off of the current line.
func (s *scanner) failAt(off int, kind errKind, format string, args ...any) {
	s.fail(s.line, s.col(off), kind, format, args...)
}

func (s *scanner) emit(kind tokKind, start int, line, col int32) {
	s.toks = append(s.toks, token{
		kind: kind, text: s.src[start:s.i],
		line: line, col: col, eline: s.line, ecol: s.col(s.i), off: int32(start),
		level: uint8(min(s.base+len(s.parens), 255)),
	})
}

func (s *scanner) lastKind() tokKind {
	if len(s.toks) == 0 {
		return tNewline
	}
	return s.toks[len(s.toks)-1].kind
}

func (s *scanner) run() {
	atLineStart := !s.fexpr
	for s.err == nil {
		if atLineStart {
			atLineStart = false
			if !s.indentation() {
				atLineStart = true
				continue
			}
			if s.err != nil {
				break
			}
		}
		// Skip spaces between tokens.
		for s.i < s.end {
			c := s.src[s.i]
			if c != ' ' && c != '\t' && c != '\f' {
				break
			}
			s.i++
		}
		if s.i >= s.end {
			s.atEOF()
			break
		}
		c := s.src[s.i]
		switch {
		case c == '#':
			for s.i < s.end && s.src[s.i] != '\n' && s.src[s.i] != '\r' {
				s.i++
			}
		case c == '\n' || c == '\r':
			start := s.i
			line, col := s.line, s.col(start)
			s.i++
			if c == '\r' && s.i < s.end && s.src[s.i] == '\n' {
				s.i++
			}
			if len(s.parens) == 0 && !s.fexpr {
				s.toks = append(s.toks, token{kind: tNewline, text: "\n", line: line, col: col, eline: line, ecol: col + 1, off: int32(start)})
				atLineStart = true
			}
			s.newline(s.i)
		case c == '\\':
			start := s.i
			s.i++
			if s.i >= s.end {
				s.fail(s.line, s.col(s.i)+0, errWeak, "unexpected EOF while parsing")
				break
			}
			if s.src[s.i] == '\r' && s.i+1 < s.end && s.src[s.i+1] == '\n' {
				s.i++
			}
			if s.src[s.i] != '\n' && s.src[s.i] != '\r' {
				s.fail(s.line, s.col(start)+1, errWeak, "unexpected character after line continuation character")
				break
			}
			line, col := s.line, s.col(start)+1
			s.i++
			s.newline(s.i)
			if s.i >= s.end && !s.fexpr {
				s.fail(line, col, errWeak, "unexpected EOF while parsing")
			}
		case isDigit(c) || c == '.' && s.i+1 < s.end && isDigit(s.src[s.i+1]):
			s.number()
		case c == '"' || c == '\'':
			s.str(s.i)
		case c == 0:
			s.failAt(s.i, errStrong, "source code cannot contain null bytes")
		case c < utf8.RuneSelf && (isLetter(c) || c == '_') || c >= utf8.RuneSelf:
			s.name()
		default:
			s.op()
		}
	}
	if s.err != nil {
		s.toks = append(s.toks, token{kind: tError, line: s.err.line, col: s.err.col, eline: s.err.line, ecol: s.err.col, off: int32(s.i)})
	}
}

// indentation reads the indentation of a new line and emits INDENT or
// DEDENT tokens. It reports false for a blank or comment-only line,
// which it consumes.
func (s *scanner) indentation() bool {
	var col, alt int32
	i := s.i
	for ; i < s.end; i++ {
		switch s.src[i] {
		case ' ':
			col++
			alt++
		case '\t':
			col = (col/8 + 1) * 8
			alt++
		case '\f':
			col, alt = 0, 0
		default:
			goto done
		}
	}
done:
	if i >= s.end {
		s.i = i
		return true // the end: atEOF closes the blocks
	}
	switch s.src[i] {
	case '#', '\n', '\r':
		for i < s.end && s.src[i] != '\n' && s.src[i] != '\r' {
			i++
		}
		if i < s.end {
			if s.src[i] == '\r' && i+1 < s.end && s.src[i+1] == '\n' {
				i++
			}
			i++
			s.i = i
			s.newline(i)
			return false
		}
		s.i = i
		return true
	}
	s.i = i
	line, c := s.line, s.col(i)
	top := len(s.indents) - 1
	switch {
	case col == s.indents[top]:
		if alt != s.alts[top] {
			s.fail(line, 1, errWeak, "inconsistent use of tabs and spaces in indentation")
		}
	case col > s.indents[top]:
		if len(s.indents) >= maxIndent {
			s.fail(line, 1, errWeak, "too many levels of indentation")
			return true
		}
		if alt <= s.alts[top] {
			s.fail(line, 1, errWeak, "inconsistent use of tabs and spaces in indentation")
			return true
		}
		s.indents = append(s.indents, col)
		s.alts = append(s.alts, alt)
		// CPython reports an unexpected indent at the last column of
		// the indentation.
		s.toks = append(s.toks, token{kind: tIndent, line: line, col: c - 1, eline: line, ecol: c, off: int32(i)})
	default:
		for top > 0 && col < s.indents[top] {
			top--
		}
		if col != s.indents[top] {
			s.fail(line, s.lineEndCol(), errWeak, "unindent does not match any outer indentation level")
			return true
		}
		if alt != s.alts[top] {
			s.fail(line, 1, errWeak, "inconsistent use of tabs and spaces in indentation")
			return true
		}
		for len(s.indents)-1 > top {
			s.indents = s.indents[:len(s.indents)-1]
			s.alts = s.alts[:len(s.alts)-1]
			s.toks = append(s.toks, token{kind: tDedent, line: line, col: c, eline: line, ecol: c, off: int32(i)})
		}
	}
	return true
}

// lineEndCol is the column just past the last character of the current
// line.
func (s *scanner) lineEndCol() int32 {
	j := s.i
	for j < s.end && s.src[j] != '\n' && s.src[j] != '\r' {
		j++
	}
	return s.col(s.i) + int32(utf8.RuneCountInString(s.src[s.i:j]))
}

func (s *scanner) atEOF() {
	if s.fexpr {
		s.toks = append(s.toks, token{kind: tEOF, line: s.line, col: s.col(s.i), eline: s.line, ecol: s.col(s.i), off: int32(s.i)})
		return
	}
	if n := len(s.parens); n > 0 {
		p := s.parens[n-1]
		s.fail(p.line, p.col, errUnclosed, "'%c' was never closed", p.c)
		return
	}
	line, col := s.line, s.col(s.i)
	if k := s.lastKind(); k != tNewline && k != tDedent && k != tIndent {
		s.toks = append(s.toks, token{kind: tNewline, line: line, col: col, eline: line, ecol: col, off: int32(s.i)})
	}
	for len(s.indents) > 1 {
		s.indents = s.indents[:len(s.indents)-1]
		s.toks = append(s.toks, token{kind: tDedent, line: line, col: col, eline: line, ecol: col, off: int32(s.i)})
	}
	s.toks = append(s.toks, token{kind: tEOF, line: line, col: col, eline: line, ecol: col, off: int32(s.i)})
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isHex(c byte) bool    { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// isNameByte reports whether c may continue a name as far as the
// tokenizer is concerned (any non-ASCII byte may: the name is checked
// afterwards).
func isNameByte(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_' || c >= utf8.RuneSelf
}

// name reads a name, or a string literal with a prefix.
func (s *scanner) name() {
	start := s.i
	line, col := s.line, s.col(start)
	ascii := true
	for s.i < s.end && isNameByte(s.src[s.i]) {
		if s.src[s.i] >= utf8.RuneSelf {
			ascii = false
		}
		s.i++
	}
	if s.i < s.end && (s.src[s.i] == '"' || s.src[s.i] == '\'') && isStringPrefix(s.src[start:s.i]) {
		s.i = start
		s.str(start)
		return
	}
	text := s.src[start:s.i]
	if !ascii {
		if !s.checkName(start) {
			return
		}
		text = norm.NFKC.String(text)
	}
	s.toks = append(s.toks, token{kind: tName, text: text, line: line, col: col, eline: s.line, ecol: s.col(s.i), off: int32(start), level: uint8(min(s.base+len(s.parens), 255))})
}

// checkName reports the first character of the name at start..s.i that
// cannot be part of an identifier.
func (s *scanner) checkName(start int) bool {
	for j, r := range s.src[start:s.i] {
		ok := r == '_' || isIDStart(r) || j > 0 && isIDContinue(r)
		if r == utf8.RuneError {
			s.failAt(start+j, errStrong, "invalid UTF-8 in the source")
			return false
		}
		if !ok {
			if !unicode.IsPrint(r) {
				s.failAt(start+j, errStrong, "invalid non-printable character U+%04X", r)
			} else {
				s.failAt(start+j, errStrong, "invalid character '%c' (U+%04X)", r, r)
			}
			return false
		}
	}
	return true
}

func isIDStart(r rune) bool {
	if r < utf8.RuneSelf {
		return isLetter(byte(r)) || r == '_'
	}
	return unicode.In(r, unicode.L, unicode.Nl, unicode.Other_ID_Start) &&
		!unicode.In(r, unicode.Pattern_Syntax, unicode.Pattern_White_Space)
}

func isIDContinue(r rune) bool {
	if r < utf8.RuneSelf {
		return isLetter(byte(r)) || isDigit(byte(r)) || r == '_'
	}
	return isIDStart(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)
}

// isStringPrefix reports whether p may prefix a string literal: r, u,
// b, br, rb, f, fr, rf in any case.
func isStringPrefix(p string) bool {
	switch len(p) {
	case 1:
		switch p[0] | 0x20 {
		case 'r', 'u', 'b', 'f':
			return true
		}
	case 2:
		a, b := p[0]|0x20, p[1]|0x20
		return a == 'r' && (b == 'b' || b == 'f') || b == 'r' && (a == 'b' || a == 'f')
	}
	return false
}

// str reads a string literal whose prefix starts at start.
func (s *scanner) str(start int) {
	line, col := s.line, s.col(start)
	for s.src[s.i] != '"' && s.src[s.i] != '\'' {
		s.i++
	}
	q := s.src[s.i]
	triple := s.i+2 < s.end && s.src[s.i+1] == q && s.src[s.i+2] == q
	if triple {
		s.i += 3
	} else {
		s.i++
	}
	for {
		if s.i >= s.end {
			// The line of the last character: CPython does not count
			// the empty line after a final newline.
			detected := s.line
			if s.i > 0 && (s.src[s.i-1] == '\n' || s.src[s.i-1] == '\r') && detected > line {
				detected--
			}
			if triple {
				s.fail(line, col, errStrong, "unterminated triple-quoted string literal (detected at line %d)", detected)
			} else {
				s.fail(line, col, errStrong, "unterminated string literal (detected at line %d)", detected)
			}
			return
		}
		c := s.src[s.i]
		switch {
		case c == q:
			if !triple {
				s.i++
				s.emitString(start, line, col)
				return
			}
			if s.i+2 < s.end && s.src[s.i+1] == q && s.src[s.i+2] == q {
				s.i += 3
				s.emitString(start, line, col)
				return
			}
			s.i++
		case c == '\\':
			s.i++
			if s.i < s.end {
				c := s.src[s.i]
				s.i++
				if c == '\r' && s.i < s.end && s.src[s.i] == '\n' {
					s.i++
				}
				if c == '\n' || c == '\r' {
					s.newline(s.i)
				}
			}
		case c == '\n' || c == '\r':
			if !triple {
				s.fail(line, col, errStrong, "unterminated string literal (detected at line %d)", s.line)
				return
			}
			s.i++
			if c == '\r' && s.i < s.end && s.src[s.i] == '\n' {
				s.i++
			}
			s.newline(s.i)
		default:
			s.i++
		}
	}
}

func (s *scanner) emitString(start int, line, col int32) {
	s.emit(tString, start, line, col)
}

// number reads a numeric literal with CPython's checks and error
// positions (an error's column is that of the last character read).
func (s *scanner) number() {
	start := s.i
	line, col := s.line, s.col(start)
	src := s.src
	at := func(i int) byte {
		if i < s.end {
			return src[i]
		}
		return 0
	}
	// digits reads a run of digits with single underscores between them.
	digits := func(ok func(byte) bool) bool {
		for {
			for ok(at(s.i)) {
				s.i++
			}
			if at(s.i) != '_' {
				return true
			}
			s.i++
			if !ok(at(s.i)) {
				s.failAt(s.i-1, errStrong, "invalid decimal literal")
				return false
			}
		}
	}
	isOct := func(c byte) bool { return '0' <= c && c <= '7' }
	isBin := func(c byte) bool { return c == '0' || c == '1' }
	radix := func(ok func(byte) bool, kind string) {
		s.i += 2
		for {
			if at(s.i) == '_' {
				s.i++
			}
			if !ok(at(s.i)) {
				if isDigit(at(s.i)) && kind != "hexadecimal" {
					s.failAt(s.i, errStrong, "invalid digit '%c' in %s literal", at(s.i), kind)
				} else {
					s.failAt(s.i-1, errStrong, "invalid %s literal", kind)
				}
				return
			}
			for ok(at(s.i)) {
				s.i++
			}
			if at(s.i) != '_' {
				break
			}
		}
		if isDigit(at(s.i)) && kind != "hexadecimal" {
			s.failAt(s.i, errStrong, "invalid digit '%c' in %s literal", at(s.i), kind)
			return
		}
		if s.endOfNumber(kind) {
			s.emit(tNumber, start, line, col)
		}
	}
	if at(s.i) == '0' {
		switch at(s.i+1) | 0x20 {
		case 'x':
			radix(isHex, "hexadecimal")
			return
		case 'o':
			radix(isOct, "octal")
			return
		case 'b':
			radix(isBin, "binary")
			return
		}
		// Zeros, maybe more digits: only 0 may have leading zeros.
		nonzero := false
		for {
			s.i++
			if at(s.i) == '_' {
				s.i++
				if !isDigit(at(s.i)) {
					s.failAt(s.i-1, errStrong, "invalid decimal literal")
					return
				}
			}
			if at(s.i) != '0' {
				break
			}
		}
		zerosEnd := s.i
		if isDigit(at(s.i)) {
			nonzero = true
			if !digits(isDigit) {
				return
			}
		}
		switch c := at(s.i); {
		case c == '.' || c|0x20 == 'e' || c|0x20 == 'j':
		case nonzero:
			s.fail(line, col, errStrong, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers")
			_ = zerosEnd
			return
		default:
			if s.endOfNumber("decimal") {
				s.emit(tNumber, start, line, col)
			}
			return
		}
	} else if at(s.i) != '.' {
		if !digits(isDigit) {
			return
		}
	}
	if at(s.i) == '.' {
		s.i++
		if isDigit(at(s.i)) && !digits(isDigit) {
			return
		}
	}
	if c := at(s.i); c|0x20 == 'e' {
		e := s.i
		s.i++
		switch c := at(s.i); {
		case c == '+' || c == '-':
			s.i++
			if !isDigit(at(s.i)) {
				s.failAt(s.i-1, errStrong, "invalid decimal literal")
				return
			}
		case !isDigit(c):
			// "1else": the number ends before the e.
			s.i = e
			if s.endOfNumber("decimal") {
				s.emit(tNumber, start, line, col)
			}
			return
		}
		if !digits(isDigit) {
			return
		}
	}
	if at(s.i)|0x20 == 'j' {
		s.i++
		if s.endOfNumber("imaginary") {
			s.emit(tNumber, start, line, col)
		}
		return
	}
	if s.endOfNumber("decimal") {
		s.emit(tNumber, start, line, col)
	}
}

// endOfNumber checks what follows a number: a name may not (1abc),
// except the keywords that may follow a number in valid code (1if x
// else 2), as CPython allows.
func (s *scanner) endOfNumber(kind string) bool {
	// A non-ASCII character ends the number: the tokenizer then reports
	// it, as CPython does.
	if s.i >= s.end || !isNameByte(s.src[s.i]) || s.src[s.i] >= utf8.RuneSelf {
		return true
	}
	rest := s.src[s.i:s.end]
	for _, kw := range [...]string{"and", "else", "for", "if", "in", "is", "not", "or"} {
		if strings.HasPrefix(rest, kw) {
			return true
		}
	}
	s.fail(s.line, s.col(s.i-1), errStrong, "invalid %s literal", kind)
	return false
}

// op reads an operator or delimiter; any other character becomes a
// token of its own that the parser rejects.
func (s *scanner) op() {
	start := s.i
	line, col := s.line, s.col(start)
	c := s.src[s.i]
	n := 1
	{
		at := func(k int) byte {
			if s.i+k < s.end {
				return s.src[s.i+k]
			}
			return 0
		}
		c1, c2 := at(1), at(2)
		switch c {
		case '*', '/', '<', '>':
			switch {
			case c1 == c: // ** // << >>, maybe with =
				n = 2
				if c2 == '=' {
					n = 3
				}
			case c1 == '=' || c == '<' && c1 == '>':
				n = 2
			}
		case '.':
			if c1 == '.' && c2 == '.' {
				n = 3
			}
		case '-':
			if c1 == '=' || c1 == '>' {
				n = 2
			}
		case ':', '+', '%', '&', '|', '^', '@', '=', '!':
			if c1 == '=' {
				n = 2
			}
		}
	}
	s.i += n
	switch c {
	case '(', '[', '{':
		if len(s.parens) >= maxParens {
			s.fail(line, col, errStrong, "too many nested parentheses")
			return
		}
		s.parens = append(s.parens, paren{c: c, line: line, col: col})
	case ')', ']', '}':
		if len(s.parens) == 0 {
			if s.fexpr {
				s.fail(line, col, errStrong, "f-string: unmatched '%c'", c)
			} else {
				s.fail(line, col, errStrong, "unmatched '%c'", c)
			}
			return
		}
		p := s.parens[len(s.parens)-1]
		if want := closing(p.c); c != want {
			if p.line != line {
				s.fail(line, col, errStrong, "closing parenthesis '%c' does not match opening parenthesis '%c' on line %d", c, p.c, p.line)
			} else {
				s.fail(line, col, errStrong, "closing parenthesis '%c' does not match opening parenthesis '%c'", c, p.c)
			}
			return
		}
		s.parens = s.parens[:len(s.parens)-1]
	}
	s.emit(tOp, start, line, col)
}

func closing(c byte) byte {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}
