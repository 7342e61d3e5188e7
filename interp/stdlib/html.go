package stdlib

import (
	"html"
	"strconv"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// HTML is the html module: escape and unescape, with CPython's rules.
// Named character references come from Go's html package, whose table
// is the HTML5 one CPython has; numeric references are read here, as
// CPython reads them (Go's differ for code points HTML forbids).
func HTML() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "html", Members: starlark.StringDict{
		"escape":   interp.NewBuiltin("escape", htmlEscape),
		"unescape": interp.NewBuiltin("unescape", htmlUnescape),
		"parser":   htmlParserModule(),
	}}
}

// htmlEscape is html.escape(s, quote=True).
func htmlEscape(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var sv, quoteV starlark.Value
	if err := (webParams{fn: "escape", names: []string{"s", "quote"}, required: 1, maxPos: 2}).unpack(args, kwargs, &sv, &quoteV); err != nil {
		return nil, err
	}
	quote := flagArg(quoteV, true)
	s, ok := interp.AsText(sv)
	if !ok {
		if _, isBytes := interp.AsBytes(sv); isBytes {
			return nil, pyrt.Errorf("TypeError", "a bytes-like object is required, not 'str'")
		}
		return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'replace'", pyrt.TypeName(sv))
	}
	// The size of the result, counted before it is made.
	b := interp.BudgetOf(thread)
	n := len(s)
	for i := 0; i < len(s); i++ {
		if err := pace(b, i); err != nil {
			return nil, err
		}
		switch s[i] {
		case '&', '"':
			n += 4
		case '<', '>':
			n += 3
		case '\'':
			n += 5
		}
	}
	if err := webGrow(thread, n); err != nil {
		return nil, err
	}
	if n == len(s) {
		return sv, nil
	}
	var w strings.Builder
	w.Grow(n)
	for i := 0; i < len(s); i++ {
		if err := pace(b, i); err != nil {
			return nil, err
		}
		switch c := s[i]; {
		case c == '&':
			w.WriteString("&amp;")
		case c == '<':
			w.WriteString("&lt;")
		case c == '>':
			w.WriteString("&gt;")
		case c == '"' && quote:
			w.WriteString("&quot;")
		case c == '\'' && quote:
			w.WriteString("&#x27;")
		default:
			w.WriteByte(c)
		}
	}
	return interp.MakeString(w.String()), nil
}

// htmlUnescape is html.unescape(s).
func htmlUnescape(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var sv starlark.Value
	if err := (webParams{fn: "unescape", names: []string{"s"}, required: 1, maxPos: 1}).unpack(args, kwargs, &sv); err != nil {
		return nil, err
	}
	s, ok := interp.AsText(sv)
	if !ok {
		if _, isBytes := interp.AsBytes(sv); isBytes {
			return nil, pyrt.Errorf("TypeError", "a bytes-like object is required, not 'str'")
		}
		return nil, pyrt.Errorf("TypeError", "argument of type '%s' is not iterable", pyrt.TypeName(sv))
	}
	if !strings.Contains(s, "&") {
		return sv, nil
	}
	// A reference never becomes longer than itself but for a few
	// two-character names (&nGt; is 5 bytes, its text 6).
	if err := webGrow(thread, 2*len(s)); err != nil {
		return nil, err
	}
	var w strings.Builder
	w.Grow(len(s))
	b := interp.BudgetOf(thread)
	for k := 0; ; k++ {
		if err := pace(b, k); err != nil {
			return nil, err
		}
		i := strings.IndexByte(s, '&')
		if i < 0 {
			w.WriteString(s)
			break
		}
		w.WriteString(s[:i])
		s = s[i:]
		n, text := charRef(s)
		if n == 0 {
			w.WriteByte('&')
			s = s[1:]
			continue
		}
		w.WriteString(text)
		s = s[n:]
	}
	return interp.MakeString(w.String()), nil
}

// charRef reads the character reference at the start of s (which begins
// with '&'): how many bytes it spans and its text, or 0 when there is
// none. What counts as a reference is CPython's: '&#' digits, '&#x' hex
// digits, or '&' and up to 32 characters other than whitespace, '<',
// '&', '#' and ';', each optionally ending in ';'.
func charRef(s string) (int, string) {
	if len(s) > 1 && s[1] == '#' {
		base, start := 10, 2
		if len(s) > 2 && (s[2] == 'x' || s[2] == 'X') {
			base, start = 16, 3
		}
		end := start
		for end < len(s) && isDigitInBase(s[end], base) {
			end++
		}
		if end == start {
			return 0, ""
		}
		text := numericRef(s[start:end], base)
		if end < len(s) && s[end] == ';' {
			end++
		}
		return end, text
	}
	end, chars := 1, 0
	for end < len(s) && chars < 32 {
		c := s[end]
		if c == '\t' || c == '\n' || c == '\f' || c == ' ' || c == '<' || c == '&' || c == '#' || c == ';' {
			break
		}
		// Whole characters: the 32 are characters, not bytes.
		if c >= 0x80 {
			end++
			for end < len(s) && s[end]&0xc0 == 0x80 {
				end++
			}
		} else {
			end++
		}
		chars++
	}
	if end == 1 {
		return 0, ""
	}
	if end < len(s) && s[end] == ';' {
		end++
	}
	if text, ok := missingFromGo[s[1:end]]; ok {
		return end, text
	}
	// Go's table holds the same names, with the same rule for the
	// legacy ones written without ';': the longest that is a prefix of
	// the name. The name holds no '&', so Go unescapes nothing after it.
	return end, html.UnescapeString(s[:end])
}

// missingFromGo are the HTML5 names Go's table lacks (checked against
// CPython's html.entities.html5).
var missingFromGo = map[string]string{"nGt;": "\u226b\u20d2", "nLt;": "\u226a\u20d2"}

func isDigitInBase(c byte, base int) bool {
	if c >= '0' && c <= '9' {
		return true
	}
	return base == 16 && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
}

// numericRef is the text of a numeric reference with these digits, as
// CPython gives it: the Windows-1252 character for 0x80-0x9F, U+FFFD for
// 0, surrogates and numbers beyond Unicode, nothing for the code points
// HTML forbids (controls, noncharacters).
func numericRef(digits string, base int) string {
	digits = strings.TrimLeft(digits, "0")
	if len(digits) > 8 {
		return "\uFFFD"
	}
	n, _ := strconv.ParseUint("0"+digits, base, 64)
	switch {
	case n == 0:
		return "\uFFFD"
	case n == 0x0d:
		return "\r"
	case n >= 0x80 && n <= 0x9f:
		// Go's html package maps these as CPython does.
		return html.UnescapeString("&#" + strconv.FormatUint(n, 10) + ";")
	case n >= 0xd800 && n <= 0xdfff || n > 0x10ffff:
		return "\uFFFD"
	case n >= 0x1 && n <= 0x8, n == 0xb, n >= 0xe && n <= 0x1f, n >= 0x7f && n <= 0x9f,
		n >= 0xfdd0 && n <= 0xfdef, n&0xfffe == 0xfffe:
		return ""
	}
	return string(rune(n))
}
