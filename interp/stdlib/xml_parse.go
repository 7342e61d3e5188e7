package stdlib

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// The XML parser of xml.etree.ElementTree: a small one of our own rather
// than encoding/xml, because CPython's answers come from expat and Go's
// decoder differs from it where programs notice: it accepts several root
// elements and duplicate attributes, keeps xmlns attributes, does not
// normalise whitespace in attribute values, knows no internal DTD
// entities and reports no column. This one follows expat for
// well-formed documents (comments and processing instructions skipped
// as CPython's XMLParser skips them, CDATA as text, text kept exactly but
// for line ends) and words its errors as expat does, with its codes and
// positions (1-based line, 0-based column).
//
// Safety: no external entity is ever read (a reference to one is an
// undefined entity); internal entities expand with expat's amplification
// limit, so a billion laughs ends with its error; nesting deeper than
// xmlMaxDepth is refused; every element and every byte of text is
// charged to the run's budget before it is made.

// xmlMaxDepth is how deep elements may nest: far beyond real documents,
// low enough that every walk of a tree (serialising, copying) stays
// cheap on the Go stack.
const xmlMaxDepth = 5000

// Expat's error codes (ParseError.code) for the errors this parser
// reports.
const (
	xmlErrSyntax            = 2
	xmlErrNoElements        = 3
	xmlErrInvalidToken      = 4
	xmlErrUnclosedToken     = 5
	xmlErrTagMismatch       = 7
	xmlErrDuplicateAttr     = 8
	xmlErrJunkAfterDoc      = 9
	xmlErrUndefinedEnt      = 11
	xmlErrRecursiveEnt      = 12
	xmlErrBadCharRef        = 14
	xmlErrExternalInAttr    = 16
	xmlErrMisplacedPI       = 17
	xmlErrUnclosedCDATA     = 20
	xmlErrUnboundPrefix     = 27
	xmlErrUndeclaringPrefix = 28
	xmlErrReservedPrefix    = 38
	xmlErrReservedPrefixNS  = 39
	xmlErrAmplification     = 43
)

var xmlErrText = map[int]string{
	xmlErrSyntax:            "syntax error",
	xmlErrNoElements:        "no element found",
	xmlErrInvalidToken:      "not well-formed (invalid token)",
	xmlErrUnclosedToken:     "unclosed token",
	xmlErrTagMismatch:       "mismatched tag",
	xmlErrDuplicateAttr:     "duplicate attribute",
	xmlErrJunkAfterDoc:      "junk after document element",
	xmlErrUndefinedEnt:      "undefined entity",
	xmlErrRecursiveEnt:      "recursive entity reference",
	xmlErrBadCharRef:        "reference to invalid character number",
	xmlErrExternalInAttr:    "reference to external entity in attribute",
	xmlErrMisplacedPI:       "XML or text declaration not at start of entity",
	xmlErrUnclosedCDATA:     "unclosed CDATA section",
	xmlErrUnboundPrefix:     "unbound prefix",
	xmlErrUndeclaringPrefix: "must not undeclare prefix",
	xmlErrReservedPrefix:    "reserved prefix (xml) must not be undeclared or bound to another namespace name",
	xmlErrReservedPrefixNS:  "reserved prefix (xmlns) must not be declared or undeclared",
	xmlErrAmplification:     "limit on input amplification factor (from DTD and entities) breached",
}

// xmlSyntaxError is a document that is not well-formed: ParseError.
type xmlSyntaxError struct {
	code      int
	msg       string // "" for expat's text of code
	line, col int
}

func (e *xmlSyntaxError) Error() string {
	msg := e.msg
	if msg == "" {
		msg = xmlErrText[e.code]
	}
	return fmt.Sprintf("%s: line %d, column %d", msg, e.line, e.col)
}

// xmlEvent is one event of iterparse.
type xmlEvent struct {
	kind string // start, end, start-ns, end-ns, comment, pi
	elem *xmlElement
	ns   [2]string // prefix, uri of a start-ns
}

type xmlParser struct {
	src      string
	pos      int
	b        *interp.Budget
	ents     map[string]string // the internal DTD's general entities
	expand   int               // bytes made by entity expansion
	stack    []*xmlElement
	ns       []xmlNS // bindings in scope, innermost last
	root     *xmlElement
	events   map[string]bool // iterparse's events, nil for none
	out      []xmlEvent
	text     strings.Builder // text gathered for the current element's text or tail
	steps    int
	entBusy  map[string]bool // entities being expanded (recursion)
	extEnts  map[string]bool // external general entities: declared, never read
	extDTD   bool            // the doctype names an external subset (never read)
	tagStart int             // where the start tag being read begins
}

type xmlNS struct {
	prefix, uri string
	depth       int
}

const xmlNamespaceURI = "http://www.w3.org/XML/1998/namespace"

// parseXML parses a whole document (UTF-8 text) into its root element.
func parseXML(b *interp.Budget, src string, events map[string]bool) (*xmlElement, []xmlEvent, error) {
	p := &xmlParser{src: src, b: b, events: events}
	if err := p.document(); err != nil {
		return nil, nil, err
	}
	return p.root, p.out, nil
}

// errAt is the syntax error code at byte offset at.
func (p *xmlParser) errAt(code, at int) error {
	if at > len(p.src) {
		at = len(p.src)
	}
	line := 1 + strings.Count(p.src[:at], "\n")
	ls := strings.LastIndexByte(p.src[:at], '\n') + 1
	return &xmlSyntaxError{code: code, line: line, col: utf8.RuneCountInString(p.src[ls:at])}
}

// tick charges the budget every few thousand steps of the parse.
func (p *xmlParser) tick(n int) error {
	p.steps += n
	if p.steps < 4096 {
		return nil
	}
	p.steps = 0
	return p.b.Charge(256)
}

func (p *xmlParser) has(s string) bool { return strings.HasPrefix(p.src[p.pos:], s) }

func (p *xmlParser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *xmlParser) document() error {
	if p.has("\ufeff") {
		p.pos += 3
	}
	if p.has("<?xml") && len(p.src) > p.pos+5 && isXMLSpace(p.src[p.pos+5]) {
		end := strings.Index(p.src[p.pos:], "?>")
		if end < 0 {
			return p.errAt(xmlErrUnclosedToken, p.pos)
		}
		p.pos += end + 2
	}
	// Prolog: misc, a doctype, misc, then the root element.
	seenDoctype := false
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			return p.errAt(xmlErrNoElements, p.pos)
		}
		switch {
		case p.has("<!--"):
			if err := p.comment(); err != nil {
				return err
			}
		case p.has("<?"):
			if err := p.pi(); err != nil {
				return err
			}
		case p.has("<!DOCTYPE") && !seenDoctype:
			seenDoctype = true
			if err := p.doctype(); err != nil {
				return err
			}
		case p.has("<") && p.pos+1 < len(p.src) && isNameStart(p.src[p.pos+1:]):
			if err := p.content(); err != nil {
				return err
			}
			// Misc after the root element.
			for {
				p.skipSpace()
				if p.pos >= len(p.src) {
					return nil
				}
				switch {
				case p.has("<!--"):
					if err := p.comment(); err != nil {
						return err
					}
				case p.has("<?"):
					if err := p.pi(); err != nil {
						return err
					}
				default:
					return p.errAt(xmlErrJunkAfterDoc, p.pos)
				}
			}
		case p.has("<"):
			return p.errAt(xmlErrInvalidToken, p.pos+1)
		default:
			return p.errAt(xmlErrSyntax, p.pos)
		}
	}
}

// comment skips <!-- … -->, or reports it to iterparse.
func (p *xmlParser) comment() error {
	start := p.pos
	end := strings.Index(p.src[p.pos+4:], "--")
	if end < 0 || !strings.HasPrefix(p.src[p.pos+4+end:], "-->") && p.pos+4+end+2 >= len(p.src) {
		return p.errAt(xmlErrUnclosedToken, start)
	}
	body := p.src[p.pos+4 : p.pos+4+end]
	p.pos += 4 + end
	if !p.has("-->") {
		return p.errAt(xmlErrInvalidToken, p.pos)
	}
	p.pos += 3
	if err := p.tick(len(body)); err != nil {
		return err
	}
	if p.events["comment"] {
		e, err := p.newElement(xmlCommentTag, interp.MakeString(body))
		if err != nil {
			return err
		}
		p.out = append(p.out, xmlEvent{kind: "comment", elem: e})
	}
	return nil
}

// pi skips a processing instruction, or reports it to iterparse.
func (p *xmlParser) pi() error {
	start := p.pos
	end := strings.Index(p.src[p.pos+2:], "?>")
	if end < 0 {
		return p.errAt(xmlErrUnclosedToken, start)
	}
	end += 2
	body := p.src[p.pos+2 : p.pos+end]
	if strings.HasPrefix(body, "xml") && (len(body) == 3 || isXMLSpace(body[3])) {
		return p.errAt(xmlErrMisplacedPI, start)
	}
	if body == "" || !isNameStart(body) {
		return p.errAt(xmlErrInvalidToken, start+2)
	}
	p.pos += end + 2
	if err := p.tick(len(body)); err != nil {
		return err
	}
	if p.events["pi"] {
		e, err := p.newElement(xmlPITag, interp.MakeString(body))
		if err != nil {
			return err
		}
		p.out = append(p.out, xmlEvent{kind: "pi", elem: e})
	}
	return nil
}

// doctype reads <!DOCTYPE name … [internal subset]>, keeping the
// internal general entities with a literal value. External ones (SYSTEM,
// PUBLIC) are never fetched: a reference to one is undefined.
func (p *xmlParser) doctype() error {
	start := p.pos
	p.pos += len("<!DOCTYPE")
	if end := strings.IndexAny(p.src[p.pos:], "[>"); end >= 0 {
		head := p.src[p.pos : p.pos+end]
		p.extDTD = strings.Contains(head, "SYSTEM") || strings.Contains(head, "PUBLIC")
	}
	for p.pos < len(p.src) {
		if err := p.tick(1); err != nil {
			return err
		}
		c := p.src[p.pos]
		switch {
		case c == '>':
			p.pos++
			return nil
		case c == '"' || c == '\'':
			end := strings.IndexByte(p.src[p.pos+1:], c)
			if end < 0 {
				return p.errAt(xmlErrUnclosedToken, start)
			}
			p.pos += end + 2
		case c == '[':
			p.pos++
			if err := p.subset(); err != nil {
				return err
			}
		default:
			p.pos++
		}
	}
	return p.errAt(xmlErrUnclosedToken, start)
}

// subset reads the internal subset up to its ']'.
func (p *xmlParser) subset() error {
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			return p.errAt(xmlErrUnclosedToken, p.pos)
		}
		if err := p.tick(1); err != nil {
			return err
		}
		switch {
		case p.src[p.pos] == ']':
			p.pos++
			return nil
		case p.has("<!--"):
			if err := p.comment(); err != nil {
				return err
			}
		case p.has("<?"):
			if err := p.pi(); err != nil {
				return err
			}
		case p.has("<!ENTITY"):
			if err := p.entityDecl(); err != nil {
				return err
			}
		case p.has("<!"):
			// ELEMENT, ATTLIST, NOTATION: skipped, quoted strings whole.
			start := p.pos
			for p.pos < len(p.src) && p.src[p.pos] != '>' {
				if q := p.src[p.pos]; q == '"' || q == '\'' {
					end := strings.IndexByte(p.src[p.pos+1:], q)
					if end < 0 {
						return p.errAt(xmlErrUnclosedToken, start)
					}
					p.pos += end + 1
				}
				p.pos++
			}
			if p.pos >= len(p.src) {
				return p.errAt(xmlErrUnclosedToken, start)
			}
			p.pos++
		case p.src[p.pos] == '%':
			end := strings.IndexByte(p.src[p.pos:], ';')
			if end < 0 {
				return p.errAt(xmlErrInvalidToken, p.pos)
			}
			p.pos += end + 1
		default:
			return p.errAt(xmlErrSyntax, p.pos)
		}
	}
}

// entityDecl reads <!ENTITY name "value"> (kept) or a parameter or
// external entity (skipped: never fetched).
func (p *xmlParser) entityDecl() error {
	start := p.pos
	p.pos += len("<!ENTITY")
	p.skipSpace()
	param := false
	if p.has("%") {
		param = true
		p.pos++
		p.skipSpace()
	}
	n := nameLen(p.src[p.pos:])
	if n == 0 {
		return p.errAt(xmlErrSyntax, p.pos)
	}
	name := p.src[p.pos : p.pos+n]
	p.pos += n
	p.skipSpace()
	value, literal := "", false
	if p.pos < len(p.src) && (p.src[p.pos] == '"' || p.src[p.pos] == '\'') {
		q := p.src[p.pos]
		end := strings.IndexByte(p.src[p.pos+1:], q)
		if end < 0 {
			return p.errAt(xmlErrUnclosedToken, start)
		}
		value, literal = p.src[p.pos+1:p.pos+1+end], true
		p.pos += end + 2
	}
	for p.pos < len(p.src) && p.src[p.pos] != '>' {
		if q := p.src[p.pos]; q == '"' || q == '\'' {
			end := strings.IndexByte(p.src[p.pos+1:], q)
			if end < 0 {
				return p.errAt(xmlErrUnclosedToken, start)
			}
			p.pos += end + 1
		}
		p.pos++
	}
	if p.pos >= len(p.src) {
		return p.errAt(xmlErrUnclosedToken, start)
	}
	p.pos++
	if param {
		return nil
	}
	if _, dup := p.ents[name]; dup || p.extEnts[name] { // the first declaration binds
		return nil
	}
	if !literal {
		if p.extEnts == nil {
			p.extEnts = map[string]bool{}
		}
		p.extEnts[name] = true
		return nil
	}
	if p.ents == nil {
		p.ents = map[string]string{}
	}
	{
		if len(p.ents) >= 10000 {
			return p.errAt(xmlErrAmplification, start)
		}
		p.ents[name] = value
	}
	return nil
}

// content reads the root element and everything in it, without
// recursion: the open elements are p.stack.
func (p *xmlParser) content() error {
	for {
		if err := p.tick(1); err != nil {
			return err
		}
		if p.pos >= len(p.src) {
			if len(p.stack) == 0 {
				return nil
			}
			return p.errAt(xmlErrNoElements, p.pos)
		}
		c := p.src[p.pos]
		switch {
		case c == '<' && p.has("</"):
			if err := p.endTag(); err != nil {
				return err
			}
			if len(p.stack) == 0 {
				return nil
			}
		case c == '<' && p.has("<!--"):
			if err := p.comment(); err != nil {
				return err
			}
		case c == '<' && p.has("<![CDATA["):
			start := p.pos
			end := strings.Index(p.src[p.pos+9:], "]]>")
			if end < 0 {
				return &xmlSyntaxError{code: xmlErrUnclosedCDATA, line: 1 + strings.Count(p.src, "\n"),
					col: utf8.RuneCountInString(p.src[strings.LastIndexByte(p.src, '\n')+1:])}
			}
			if err := p.addText(p.src[p.pos+9:p.pos+9+end], start); err != nil {
				return err
			}
			p.pos += 9 + end + 3
		case c == '<' && p.has("<?"):
			if err := p.pi(); err != nil {
				return err
			}
		case c == '<':
			if err := p.startTag(); err != nil {
				return err
			}
			if len(p.stack) == 0 {
				return nil
			}
		case c == '&':
			if err := p.reference(&p.text, false, 0); err != nil {
				return err
			}
		default:
			end := strings.IndexAny(p.src[p.pos:], "<&]")
			if end < 0 {
				end = len(p.src) - p.pos
			}
			if end == 0 { // a ']'
				if p.has("]]>") {
					return p.errAt(xmlErrInvalidToken, p.pos+2)
				}
				end = 1
			}
			if err := p.addText(p.src[p.pos:p.pos+end], p.pos); err != nil {
				return err
			}
			p.pos += end
		}
	}
}

// addText appends raw character data (line ends normalised, characters
// checked) to the pending text.
func (p *xmlParser) addText(s string, at int) error {
	if err := p.b.Alloc(int64(len(s))); err != nil {
		return err
	}
	if i := invalidXMLChar(s); i >= 0 {
		return p.errAt(xmlErrInvalidToken, at+i)
	}
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	}
	p.text.WriteString(s)
	return p.growCheck()
}

// growCheck refuses pending text larger than the run's memory budget.
func (p *xmlParser) growCheck() error {
	if n := p.text.Len(); n > 1<<16 && n&(1<<16-1) < 64 {
		return p.b.Room(int64(n))
	}
	return nil
}

// flushText gives the pending text to the element it belongs to: the
// open element's text before its first child, else the last child's
// tail.
func (p *xmlParser) flushText() {
	if p.text.Len() == 0 {
		return
	}
	s := interp.MakeString(p.text.String())
	p.text.Reset()
	if len(p.stack) == 0 {
		return
	}
	top := p.stack[len(p.stack)-1]
	if n := len(top.kids); n > 0 {
		top.kids[n-1].tail = s
	} else {
		top.text = s
	}
}

// reference reads &name; or &#n; at p.pos into w; inAttr for an
// attribute value (whose entity text has its whitespace normalised).
func (p *xmlParser) reference(w *strings.Builder, inAttr bool, depth int) error {
	start := p.pos
	end := strings.IndexByte(p.src[p.pos:], ';')
	if end < 0 {
		return p.errAt(xmlErrInvalidToken, start)
	}
	ref := p.src[p.pos+1 : p.pos+end]
	if strings.HasPrefix(ref, "#") {
		r, ok := charRefValue(ref[1:])
		if !ok {
			if len(ref) > 1 && (ref[1] == 'x' && isHexDigits(ref[2:]) || isDigits(ref[1:])) {
				return p.errAt(xmlErrBadCharRef, start)
			}
			return p.errAt(xmlErrInvalidToken, start+2)
		}
		w.WriteRune(r)
		p.pos += end + 1
		return nil
	}
	if nameLen(ref) != len(ref) || ref == "" {
		return p.errAt(xmlErrInvalidToken, start+1)
	}
	p.pos += end + 1
	switch ref {
	case "lt":
		w.WriteByte('<')
		return nil
	case "gt":
		w.WriteByte('>')
		return nil
	case "amp":
		w.WriteByte('&')
		return nil
	case "quot":
		w.WriteByte('"')
		return nil
	case "apos":
		w.WriteByte('\'')
		return nil
	}
	val, ok := p.ents[ref]
	if !ok {
		// As CPython: expat leaves a reference it cannot resolve to
		// ElementTree, which names it, when the entity is external or
		// the DTD has an external part; expat refuses the rest itself.
		switch {
		case p.extEnts[ref] && inAttr:
			return p.errAt(xmlErrExternalInAttr, start)
		case p.extEnts[ref] || p.extDTD && !inAttr:
			se := p.errAt(xmlErrUndefinedEnt, start).(*xmlSyntaxError)
			se.msg = "undefined entity &" + ref + ";"
			return se
		}
		if inAttr { // expat places it at the start of the tag
			return p.errAt(xmlErrUndefinedEnt, p.tagStart)
		}
		return p.errAt(xmlErrUndefinedEnt, start)
	}
	return p.expandEntity(w, ref, val, inAttr, start, depth)
}

// expandEntity writes an internal entity's replacement text, references
// in it expanded in turn, under expat's amplification limit: past 8 MiB
// of expansion, no more than 100 bytes made per byte of the document.
func (p *xmlParser) expandEntity(w *strings.Builder, name, val string, inAttr bool, at, depth int) error {
	if p.entBusy[name] || depth > 40 {
		return p.errAt(xmlErrRecursiveEnt, at)
	}
	if p.entBusy == nil {
		p.entBusy = map[string]bool{}
	}
	p.entBusy[name] = true
	defer delete(p.entBusy, name)
	for i := 0; i < len(val); {
		if err := p.tick(1); err != nil {
			return err
		}
		j := strings.IndexByte(val[i:], '&')
		if j < 0 {
			j = len(val) - i
		}
		chunk := val[i : i+j]
		p.expand += len(chunk)
		if p.expand > 8<<20 && p.expand > 100*len(p.src) {
			return p.errAt(xmlErrAmplification, at)
		}
		if err := p.b.Alloc(int64(len(chunk))); err != nil {
			return err
		}
		if inAttr {
			chunk = strings.Map(func(r rune) rune {
				if r == '\t' || r == '\n' || r == '\r' {
					return ' '
				}
				return r
			}, chunk)
		}
		w.WriteString(chunk)
		if err := p.growCheck(); err != nil {
			return err
		}
		i += j
		if i >= len(val) {
			break
		}
		end := strings.IndexByte(val[i:], ';')
		if end < 0 {
			return p.errAt(xmlErrInvalidToken, at)
		}
		ref := val[i+1 : i+end]
		i += end + 1
		if strings.HasPrefix(ref, "#") {
			r, ok := charRefValue(ref[1:])
			if !ok {
				return p.errAt(xmlErrBadCharRef, at)
			}
			w.WriteRune(r)
			continue
		}
		switch ref {
		case "lt", "gt", "amp", "quot", "apos":
			w.WriteString(map[string]string{"lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"}[ref])
			continue
		}
		inner, ok := p.ents[ref]
		if !ok {
			return p.errAt(xmlErrUndefinedEnt, at)
		}
		if err := p.expandEntity(w, ref, inner, inAttr, at, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// charRefValue is the character of the digits of &#…; (x… for hex), if
// XML allows it.
func charRefValue(d string) (rune, bool) {
	base := 10
	if strings.HasPrefix(d, "x") {
		base, d = 16, d[1:]
	}
	if d == "" || len(d) > 8 {
		return 0, false
	}
	var v rune
	for i := 0; i < len(d); i++ {
		c := d[i]
		var x rune
		switch {
		case c >= '0' && c <= '9':
			x = rune(c - '0')
		case base == 16 && c >= 'a' && c <= 'f':
			x = rune(c-'a') + 10
		case base == 16 && c >= 'A' && c <= 'F':
			x = rune(c-'A') + 10
		default:
			return 0, false
		}
		v = v*rune(base) + x
	}
	return v, isXMLChar(v)
}

func isHexDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigitInBase(s[i], 16) {
			return false
		}
	}
	return s != ""
}

func isXMLChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// invalidXMLChar is the offset of the first character XML forbids in s,
// -1 when there is none.
func invalidXMLChar(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || !isXMLChar(r) {
			return i
		}
		i += n
	}
	return -1
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isNameStartRune(r rune) bool {
	return r == '_' || r == ':' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' ||
		r >= 0xC0 && r != 0xD7 && r != 0xF7 && (unicode.IsLetter(r) || r >= 0x2C00 && r <= 0x2FEF || r >= 0x3001 && r <= 0xD7FF || r >= 0xF900 && r <= 0xFFFD || r >= 0x10000 && r <= 0xEFFFF)
}

func isNameRune(r rune) bool {
	return isNameStartRune(r) || r == '-' || r == '.' || r >= '0' && r <= '9' || r == 0xB7 ||
		r >= 0x300 && r <= 0x36F || r == 0x203F || r == 0x2040 || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || unicode.IsDigit(r)
}

func isNameStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isNameStartRune(r)
}

// nameLen is the length in bytes of the XML name at the start of s.
func nameLen(s string) int {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if i == 0 && !isNameStartRune(r) || i > 0 && !isNameRune(r) {
			break
		}
		i += n
	}
	return i
}

// qnameLen reads the qualified name (NCName, or prefix:NCName) at the
// start of s, as expat's namespace mode reads it: its length, or bad >=
// 0, the offset of the first character that cannot continue it.
func qnameLen(s string) (n, bad int) {
	ncname := func(i int) int {
		j := i
		for j < len(s) {
			r, w := utf8.DecodeRuneInString(s[j:])
			if r == ':' || j == i && !isNameStartRune(r) || j > i && !isNameRune(r) {
				break
			}
			j += w
		}
		return j
	}
	i := ncname(0)
	if i == 0 {
		return 0, 0
	}
	if i < len(s) && s[i] == ':' {
		j := ncname(i + 1)
		if j == i+1 {
			return 0, i + 1
		}
		if j < len(s) && s[j] == ':' {
			return 0, j
		}
		return j, -1
	}
	return i, -1
}

// startTag reads <name attr="v" …> or <name …/> at p.pos.
func (p *xmlParser) startTag() error {
	start := p.pos
	p.tagStart = start
	p.pos++
	n, bad := qnameLen(p.src[p.pos:])
	if bad >= 0 {
		return p.errAt(xmlErrInvalidToken, p.pos+bad)
	}
	qname := p.src[p.pos : p.pos+n]
	p.pos += n
	type rawAttr struct {
		name, value string
		at          int
	}
	var attrs []rawAttr
	empty := false
	for {
		sp := p.pos
		p.skipSpace()
		if p.pos >= len(p.src) {
			return p.errAt(xmlErrUnclosedToken, start)
		}
		if p.src[p.pos] == '>' {
			p.pos++
			break
		}
		if p.has("/>") {
			p.pos += 2
			empty = true
			break
		}
		if sp == p.pos { // an attribute needs space before it
			return p.errAt(xmlErrInvalidToken, p.pos)
		}
		an, bad := qnameLen(p.src[p.pos:])
		if bad >= 0 {
			return p.errAt(xmlErrInvalidToken, p.pos+bad)
		}
		attr := rawAttr{name: p.src[p.pos : p.pos+an], at: p.pos}
		for _, a := range attrs {
			if a.name == attr.name {
				return p.errAt(xmlErrDuplicateAttr, attr.at)
			}
		}
		p.pos += an
		p.skipSpace()
		if p.pos >= len(p.src) {
			return p.errAt(xmlErrUnclosedToken, start)
		}
		if p.src[p.pos] != '=' {
			return p.errAt(xmlErrInvalidToken, p.pos)
		}
		p.pos++
		p.skipSpace()
		if p.pos >= len(p.src) {
			return p.errAt(xmlErrUnclosedToken, start)
		}
		q := p.src[p.pos]
		if q != '"' && q != '\'' {
			return p.errAt(xmlErrInvalidToken, p.pos)
		}
		p.pos++
		var w strings.Builder
		for {
			if p.pos >= len(p.src) {
				return p.errAt(xmlErrUnclosedToken, start)
			}
			c := p.src[p.pos]
			if c == q {
				p.pos++
				break
			}
			switch c {
			case '<':
				return p.errAt(xmlErrInvalidToken, p.pos)
			case '&':
				if err := p.reference(&w, true, 0); err != nil {
					return err
				}
				continue
			case '\r':
				if p.has("\r\n") {
					p.pos++
				}
				w.WriteByte(' ')
				p.pos++
				continue
			case '\n', '\t':
				w.WriteByte(' ')
				p.pos++
				continue
			}
			end := strings.IndexAny(p.src[p.pos:], "<&\r\n\t"+string(q))
			if end < 0 {
				end = len(p.src) - p.pos
			}
			seg := p.src[p.pos : p.pos+end]
			if i := invalidXMLChar(seg); i >= 0 {
				return p.errAt(xmlErrInvalidToken, p.pos+i)
			}
			w.WriteString(seg)
			p.pos += end
		}
		attr.value = w.String()
		attrs = append(attrs, attr)
	}
	if err := p.b.Alloc(int64(64 + 64*len(attrs) + len(qname))); err != nil {
		return err
	}
	if err := p.tick(8 + len(attrs)); err != nil {
		return err
	}
	depth := len(p.stack) + 1
	if depth > xmlMaxDepth {
		return &xmlSyntaxError{code: xmlErrSyntax, msg: fmt.Sprintf("elements nested more than %d deep", xmlMaxDepth),
			line: 1 + strings.Count(p.src[:start], "\n"), col: utf8.RuneCountInString(p.src[strings.LastIndexByte(p.src[:start], '\n')+1 : start])}
	}
	// Namespace declarations first: they apply to this element's name
	// and attributes.
	nsBefore := len(p.ns)
	for _, a := range attrs {
		switch {
		case a.name == "xmlns":
			p.ns = append(p.ns, xmlNS{prefix: "", uri: a.value, depth: depth})
		case strings.HasPrefix(a.name, "xmlns:"):
			switch prefix := a.name[6:]; {
			case prefix == "xml" && a.value != xmlNamespaceURI || prefix != "xml" && a.value == xmlNamespaceURI:
				return p.errAt(xmlErrReservedPrefix, start)
			case prefix == "xmlns":
				return p.errAt(xmlErrReservedPrefixNS, start)
			case a.value == "":
				return p.errAt(xmlErrUndeclaringPrefix, start)
			}
			p.ns = append(p.ns, xmlNS{prefix: a.name[6:], uri: a.value, depth: depth})
		default:
			continue
		}
		if p.events["start-ns"] {
			last := p.ns[len(p.ns)-1]
			p.out = append(p.out, xmlEvent{kind: "start-ns", ns: [2]string{last.prefix, last.uri}})
		}
	}
	tag, ok := p.resolve(qname, true)
	if !ok {
		return p.errAt(xmlErrUnboundPrefix, start)
	}
	attrib := starlark.NewDict(len(attrs))
	for _, a := range attrs {
		if a.name == "xmlns" || strings.HasPrefix(a.name, "xmlns:") {
			continue
		}
		key, ok := p.resolve(a.name, false)
		if !ok {
			return p.errAt(xmlErrUnboundPrefix, start)
		}
		if _, found, _ := attrib.Get(interp.MakeString(key)); found {
			return p.errAt(xmlErrDuplicateAttr, start) // after resolution: at the tag
		}
		_ = attrib.SetKey(interp.MakeString(key), interp.MakeString(a.value))
	}
	p.flushText()
	e := &xmlElement{tag: interp.MakeString(tag), attrib: attrib, text: starlark.None, tail: starlark.None}
	if len(p.stack) > 0 {
		parent := p.stack[len(p.stack)-1]
		parent.kids = append(parent.kids, e)
	} else {
		p.root = e
	}
	p.stack = append(p.stack, e)
	if p.events["start"] {
		p.out = append(p.out, xmlEvent{kind: "start", elem: e})
	}
	_ = nsBefore
	if empty {
		p.closeElement()
	}
	return nil
}

// resolve is the {uri}local form of a qualified name; ok false for an
// unbound prefix. An element without a prefix takes the default
// namespace; an attribute without one has none.
func (p *xmlParser) resolve(qname string, element bool) (string, bool) {
	prefix, local, hasPrefix := strings.Cut(qname, ":")
	if !hasPrefix {
		if !element {
			return qname, true
		}
		prefix, local = "", qname
	}
	if prefix == "xml" {
		return "{" + xmlNamespaceURI + "}" + local, true
	}
	for i := len(p.ns) - 1; i >= 0; i-- {
		if p.ns[i].prefix == prefix {
			if p.ns[i].uri == "" {
				if prefix == "" {
					return local, true
				}
				return "", false
			}
			return "{" + p.ns[i].uri + "}" + local, true
		}
	}
	if prefix == "" {
		return local, true
	}
	return "", false
}

// endTag reads </name> and closes the open element of that name.
func (p *xmlParser) endTag() error {
	p.pos += 2
	nameAt := p.pos
	n, bad := qnameLen(p.src[p.pos:])
	if bad >= 0 {
		return p.errAt(xmlErrInvalidToken, p.pos+bad)
	}
	name := p.src[p.pos : p.pos+n]
	p.pos += n
	p.skipSpace()
	if p.pos >= len(p.src) {
		return p.errAt(xmlErrUnclosedToken, nameAt-2)
	}
	if p.src[p.pos] != '>' {
		return p.errAt(xmlErrInvalidToken, p.pos)
	}
	p.pos++
	top := p.stack[len(p.stack)-1]
	want, ok := p.resolve(name, true)
	if got, _ := interp.AsText(top.tag); !ok || got != want {
		return p.errAt(xmlErrTagMismatch, nameAt)
	}
	p.closeElement()
	return nil
}

func (p *xmlParser) closeElement() {
	p.flushText()
	depth := len(p.stack)
	e := p.stack[depth-1]
	p.stack = p.stack[:depth-1]
	if p.events["end"] {
		p.out = append(p.out, xmlEvent{kind: "end", elem: e})
	}
	for len(p.ns) > 0 && p.ns[len(p.ns)-1].depth == depth {
		p.ns = p.ns[:len(p.ns)-1]
		if p.events["end-ns"] {
			p.out = append(p.out, xmlEvent{kind: "end-ns"})
		}
	}
}

func (p *xmlParser) newElement(tag, text starlark.Value) (*xmlElement, error) {
	if err := p.b.Alloc(64); err != nil {
		return nil, err
	}
	return &xmlElement{tag: tag, attrib: starlark.NewDict(0), text: text, tail: starlark.None}, nil
}
