package interp

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Strings are sequences of characters, as in Python (SPEC §2.7), not of
// bytes as in Starlark. Starlark's String is kept for text that is all
// ASCII, where a byte is a character and the interpreter's own indexing,
// slicing and length are Python's, at full speed; any other text is a
// *Unicode, whose index, slice, length and iteration count code points.
//
// The invariant that makes this work: a starlark.String a program holds is
// always ASCII. MakeString is the one way text enters a program (literals,
// tool results, every builtin that returns text), so two equal texts are
// always the same kind of value, and comparisons, dict keys and hashing
// agree. Text is always valid UTF-8: invalid bytes become U+FFFD.

// Unicode is text that is not all ASCII: a str whose characters are
// counted as code points.
type Unicode struct {
	s   string
	n   int     // characters
	off []int32 // byte offset of each character, made when first indexed
}

var (
	_ starlark.Indexable  = (*Unicode)(nil)
	_ starlark.Sliceable  = (*Unicode)(nil)
	_ starlark.Comparable = (*Unicode)(nil)
	_ starlark.HasBinary  = (*Unicode)(nil)
	_ starlark.Container  = (*Unicode)(nil)
)

// MakeString returns text as a program's value: a starlark.String when it
// is all ASCII, else a *Unicode. Invalid UTF-8 is repaired first.
func MakeString(text string) starlark.Value {
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			return makeStr(text)
		}
	}
	return starlark.String(text)
}

func makeStr(text string) starlark.Value {
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, string(utf8.RuneError))
	}
	return &Unicode{s: text, n: utf8.RuneCountInString(text)}
}

// AsText returns the text of a string value (a starlark.String or a
// *Unicode).
func AsText(v starlark.Value) (string, bool) {
	switch x := v.(type) {
	case starlark.String:
		return string(x), true
	case *Unicode:
		return x.s, true
	case StrValue:
		return x.StrValue()
	}
	return "", false
}

// A StrValue is a value of a program's class deriving from str (a
// StrEnum's member): it is a str wherever one is asked for, as in
// Python. ok is false when it holds no str after all.
type StrValue interface {
	starlark.Value
	StrValue() (string, bool)
}

// Text is the string's UTF-8 text.
func (s *Unicode) Text() string { return s.s }

// String is the string's repr, as Python writes it: quoted.
func (s *Unicode) String() string        { return QuoteString(s.s) }
func (s *Unicode) Type() string          { return "str" }
func (s *Unicode) Freeze()               {}
func (s *Unicode) Truth() starlark.Bool  { return s.n > 0 }
func (s *Unicode) Hash() (uint32, error) { return starlark.String(s.s).Hash() }
func (s *Unicode) Len() int              { return s.n }
func (s *Unicode) Index(i int) starlark.Value {
	s.offsets()
	end := len(s.s)
	if i+1 < s.n {
		end = int(s.off[i+1])
	}
	return MakeString(s.s[s.off[i]:end])
}

// Offset is the byte offset in Text of character i (0 <= i <= Len()):
// constant time once the text has been indexed.
func (s *Unicode) Offset(i int) int {
	if i >= s.n {
		return len(s.s)
	}
	s.offsets()
	return int(s.off[i])
}

func (s *Unicode) offsets() {
	if s.off != nil {
		return
	}
	s.off = make([]int32, 0, s.n)
	for i := range s.s {
		s.off = append(s.off, int32(i))
	}
}

func (s *Unicode) Slice(start, end, step int) starlark.Value {
	s.offsets()
	byteAt := func(i int) int {
		if i >= s.n {
			return len(s.s)
		}
		return int(s.off[i])
	}
	if step == 1 {
		if start >= end {
			return starlark.String("")
		}
		return MakeString(s.s[byteAt(start):byteAt(end)])
	}
	var b strings.Builder
	if step > 0 {
		for i := start; i < end; i += step {
			b.WriteString(s.s[byteAt(i):byteAt(i+1)])
		}
	} else {
		for i := start; i > end; i += step {
			b.WriteString(s.s[byteAt(i):byteAt(i+1)])
		}
	}
	return MakeString(b.String())
}

// Attr gives the string methods of Starlark's strings. The Python front
// end routes calls of string methods to its own, which count characters;
// these serve a method taken without a call (s.upper) and programs that
// are not read by the front end.
func (s *Unicode) Attr(name string) (starlark.Value, error) { return starlark.String(s.s).Attr(name) }

// AttrNames lists the string methods.
func (s *Unicode) AttrNames() []string { return starlark.String(s.s).AttrNames() }

// Iterate yields the characters.
func (s *Unicode) Iterate() starlark.Iterator { return &strIterator{s: s.s} }

type strIterator struct{ s string }

func (it *strIterator) Next(p *starlark.Value) bool {
	if it.s == "" {
		return false
	}
	_, n := utf8.DecodeRuneInString(it.s)
	*p = MakeString(it.s[:n])
	it.s = it.s[n:]
	return true
}

func (it *strIterator) Done() {}

// CompareSameType compares two *Unicode by code points (UTF-8 byte order is
// code point order). A *Unicode never equals a starlark.String: the
// invariant above makes them different texts.
func (s *Unicode) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	t := y.(*Unicode)
	return CompareOp(op, strings.Compare(s.s, t.s), s, y)
}

// CompareOp is the answer to x op y, for a comparison operator op, given
// c, the sign of x's order against y's (-1, 0 or 1): what every value
// that orders itself (CompareSameType) ends with.
func CompareOp(op syntax.Token, c int, x, y starlark.Value) (bool, error) {
	switch op {
	case syntax.EQL:
		return c == 0, nil
	case syntax.NEQ:
		return c != 0, nil
	case syntax.LT:
		return c < 0, nil
	case syntax.LE:
		return c <= 0, nil
	case syntax.GT:
		return c > 0, nil
	case syntax.GE:
		return c >= 0, nil
	}
	return false, fmt.Errorf("%s %s %s not implemented", x.Type(), op, y.Type())
}

// Has is `needle in s`, for a needle of either kind.
func (s *Unicode) Has(y starlark.Value) (bool, error) {
	needle, ok := AsText(y)
	if !ok {
		return false, fmt.Errorf("'in <string>' requires string as left operand, not %s", y.Type())
	}
	return strings.Contains(s.s, needle), nil
}

// Binary implements + with either kind of string, and * by an int (its
// size is checked by the Python front end before it gets here).
func (s *Unicode) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	switch op {
	case syntax.PLUS:
		t, ok := AsText(y)
		if !ok {
			return nil, nil
		}
		if side == starlark.Left {
			return MakeString(s.s + t), nil
		}
		return MakeString(t + s.s), nil
	case syntax.STAR:
		return repeat(y, func(k int) starlark.Value { return MakeString(strings.Repeat(s.s, k)) })
	}
	return nil, nil // unknown binary op
}

// repeat is the * of a text by y: made by rep when y is an int (a count
// below 1 repeats 0 times), nil for the engine's error otherwise. The
// Python front end has checked the size against the budget already; the
// bound here keeps a Go caller from asking for more than 2**30 copies.
func repeat(y starlark.Value, rep func(k int) starlark.Value) (starlark.Value, error) {
	n, ok := y.(starlark.Int)
	if !ok {
		return nil, nil
	}
	k, ok := n.Int64()
	if !ok || k > 1<<30 {
		return nil, fmt.Errorf("repeat count %s too large", n)
	}
	return rep(int(max(k, 0))), nil
}

// QuoteString is Python's repr() of text: single quotes unless the text
// holds a single quote and no double quote; backslash escapes for the
// quote, backslashes, \n \r \t, and characters that do not print.
func QuoteString(s string) string {
	q, _ := quoteString(nil, s)
	return q
}

// quoteString is QuoteString checking b's budget every megabyte: the
// repr of a text of hundreds of megabytes takes seconds, and its escapes
// may make it larger than the memory budget.
func quoteString(budget *Budget, s string) (string, error) {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(quote)
	n := 0
	for _, r := range s {
		if n++; n&(1<<20-1) == 0 {
			if err := budget.Charge(1 << 12); err != nil {
				return "", err
			}
			// Escapes make the text up to ten times longer than s
			// ('\x00' * 10**8 takes 400 MB): it must still fit.
			if err := budget.Fits(int64(b.Len())); err != nil {
				return "", err
			}
		}
		switch {
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			hexEscape(&b, 'x', r, 2)
		case r < utf8.RuneSelf || isPrintable(r):
			b.WriteRune(r)
		case r <= 0xff:
			hexEscape(&b, 'x', r, 2)
		case r <= 0xffff:
			hexEscape(&b, 'u', r, 4)
		default:
			hexEscape(&b, 'U', r, 8)
		}
	}
	b.WriteByte(quote)
	return b.String(), nil
}

// hexEscape writes \x41, \u00e9 or \U0001f600: kind, then r in n hex
// digits (without fmt, which would cost a call per character).
func hexEscape(b *strings.Builder, kind byte, r rune, n int) {
	const digits = "0123456789abcdef"
	b.WriteByte('\\')
	b.WriteByte(kind)
	for shift := (n - 1) * 4; shift >= 0; shift -= 4 {
		b.WriteByte(digits[(r>>shift)&0xf])
	}
}

// isPrintable is Python's str.isprintable for one character: not a
// control, format, private-use, surrogate or unassigned character, and no
// space but the ASCII one (the same classes as Go's unicode.IsPrint).
func isPrintable(r rune) bool { return unicode.IsPrint(r) }

// QuoteBytes is Python's repr() of bytes: b'…' with \x escapes for what
// is not printable ASCII.
func QuoteBytes(s string) string {
	q, _ := quoteBytes(nil, s)
	return q
}

// quoteBytes is QuoteBytes under budget: escapes make the text up to four
// times longer than s (the repr of bytes(2 * 10**8) takes 800 MB), so
// its length is counted first and refused, with the memory error, when
// it alone or beside what the run holds would pass the memory budget;
// the work is charged as it goes, every megabyte.
func quoteBytes(budget *Budget, s string) (string, error) {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	n := int64(3)
	for i := 0; i < len(s); i++ {
		n += int64(byteEscapeLen(s[i], quote))
	}
	if err := budget.Alloc(n); err != nil {
		return "", err
	}
	if err := budget.Room(n); err != nil {
		return "", err
	}
	const digits = "0123456789abcdef"
	var b strings.Builder
	b.Grow(int(n))
	b.WriteByte('b')
	b.WriteByte(quote)
	for i := 0; i < len(s); i++ {
		if i&(1<<20-1) == 1<<20-1 {
			if err := budget.Charge(1 << 12); err != nil {
				return "", err
			}
		}
		c := s[i]
		switch {
		case c == quote || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c >= 0x7f:
			b.WriteString(`\x`)
			b.WriteByte(digits[c>>4])
			b.WriteByte(digits[c&0xf])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(quote)
	return b.String(), nil
}

// byteEscapeLen is how many characters byte c takes in the repr of bytes
// quoted with quote.
func byteEscapeLen(c, quote byte) int {
	switch {
	case c == quote || c == '\\' || c == '\n' || c == '\r' || c == '\t':
		return 2
	case c < 0x20 || c >= 0x7f:
		return 4
	}
	return 1
}

// Chars returns the characters of text as an iterable that yields them one
// at a time, without a list of them all: what a for loop over a str walks.
func Chars(text string) starlark.Iterable { return chars(text) }

type chars string

func (c chars) String() string        { return "<str_iterator>" }
func (c chars) Type() string          { return "str_iterator" }
func (c chars) Freeze()               {}
func (c chars) Truth() starlark.Bool  { return true }
func (c chars) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: str_iterator") }

// Iterate yields the characters.
func (c chars) Iterate() starlark.Iterator { return &strIterator{s: string(c)} }

// Text is a parameter of a builtin that takes any str, ASCII or not: use
// *Text where starlark.UnpackArgs would take *string, which accepts only
// a starlark.String.
type Text string

// Unpack implements starlark.Unpacker.
func (t *Text) Unpack(v starlark.Value) error {
	s, ok := AsText(v)
	if !ok {
		return fmt.Errorf("got %s, want str", v.Type())
	}
	*t = Text(s)
	return nil
}

// IsASCII reports whether s is all ASCII, eight bytes at a time.
func IsASCII(s string) bool {
	i := 0
	var acc uint64
	for ; i+8 <= len(s); i += 8 {
		acc |= uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
	}
	for ; i < len(s); i++ {
		acc |= uint64(s[i])
	}
	return acc&0x8080808080808080 == 0
}
