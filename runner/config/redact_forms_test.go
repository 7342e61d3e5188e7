package config

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// The encodings a Python program can apply to a value, written as CPython
// 3.11 writes them (checked against python3 where the test names say so).
// Each takes the text (the str, or the bytes of its UTF-8) and returns the
// encoded text.

func pyB64(s string) string     { return base64.StdEncoding.EncodeToString([]byte(s)) }
func pyB64URL(s string) string  { return base64.URLEncoding.EncodeToString([]byte(s)) }
func pyB64Bare(s string) string { return base64.RawStdEncoding.EncodeToString([]byte(s)) }

// pyEncodebytes is base64.encodebytes: lines of 76 characters, each ended
// by \n.
func pyEncodebytes(s string) string {
	e := pyB64(s)
	var b strings.Builder
	for len(e) > 76 {
		b.WriteString(e[:76] + "\n")
		e = e[76:]
	}
	b.WriteString(e + "\n")
	return b.String()
}

func pyHex(s string) string      { return hex.EncodeToString([]byte(s)) }
func pyHexUpper(s string) string { return strings.ToUpper(pyHex(s)) } // base64.b16encode

// pyHexSep is bytes.hex(sep, n): groups of |n| bytes, counted from the
// right when n > 0, from the left when n < 0.
func pyHexSep(s, sep string, n int) string {
	b := []byte(s)
	var groups []string
	if n > 0 {
		for len(b) > 0 {
			k := max(0, len(b)-n)
			groups = append([]string{hex.EncodeToString(b[k:])}, groups...)
			b = b[:k]
		}
	} else {
		for len(b) > 0 {
			k := min(len(b), -n)
			groups = append(groups, hex.EncodeToString(b[:k]))
			b = b[k:]
		}
	}
	return strings.Join(groups, sep)
}

// pyPercentAll percent-encodes every byte.
func pyPercentAll(s string, upper bool) string {
	var b strings.Builder
	for i := range len(s) {
		if upper {
			fmt.Fprintf(&b, "%%%02X", s[i])
		} else {
			fmt.Fprintf(&b, "%%%02x", s[i])
		}
	}
	return b.String()
}

// pyQuote is urllib.parse.quote(s, safe) (plus: quote_plus, spaces as +).
func pyQuote(s, safe string, plus bool) string {
	var b strings.Builder
	for i := range len(s) {
		c := s[i]
		switch {
		case isAlnum(c) || strings.IndexByte("_.-~", c) >= 0 || strings.IndexByte(safe, c) >= 0:
			b.WriteByte(c)
		case plus && c == ' ':
			b.WriteByte('+')
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// pyHTMLEscape is html.escape(s).
func pyHTMLEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;").Replace(s)
}

// htmlNumericAll writes every character as a numeric reference.
func htmlNumericAll(s string, hexa, semi bool, zeros int) string {
	var b strings.Builder
	for _, r := range s {
		pad := strings.Repeat("0", zeros)
		if hexa {
			fmt.Fprintf(&b, "&#x%s%x", pad, r)
		} else {
			fmt.Fprintf(&b, "&#%s%d", pad, r)
		}
		if semi {
			b.WriteByte(';')
		}
	}
	return b.String()
}

// pyJSON is json.dumps(s) (ensure_ascii true) or json.dumps(s,
// ensure_ascii=False).
func pyJSON(s string, ascii bool) string {
	if ascii {
		return pythonJSON(s)
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// pyRepr is repr(s), or ascii(s) when ascii is set.
func pyRepr(s string, ascii bool) string {
	q := "'"
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = `"`
	}
	var b strings.Builder
	b.WriteString(q)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case string(r) == q:
			b.WriteString(`\` + q)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && unicode.IsPrint(r) || r >= 0x80 && !ascii && unicode.IsPrint(r):
			b.WriteRune(r)
		case r <= 0xFF:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xFFFF:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteString(q)
	return b.String()
}

// pyReprBytes is repr(s.encode()).
func pyReprBytes(s string) string {
	q := "'"
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = `"`
	}
	var b strings.Builder
	b.WriteString("b" + q)
	for i := range len(s) {
		c := s[i]
		switch {
		case c == '\\':
			b.WriteString(`\\`)
		case string(c) == q:
			b.WriteString(`\` + q)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	b.WriteString(q)
	return b.String()
}

// escapeAll writes every byte or character as a backslash escape, as a
// program can by hand: \xHH per byte, \uHHHH or \UHHHHHHHH per
// character, \ooo per byte.
func escapeAll(s, kind string) string {
	var b strings.Builder
	switch kind {
	case "x", "X":
		for i := range len(s) {
			if kind == "x" {
				fmt.Fprintf(&b, `\x%02x`, s[i])
			} else {
				fmt.Fprintf(&b, `\x%02X`, s[i])
			}
		}
	case "o":
		for i := range len(s) {
			fmt.Fprintf(&b, `\%03o`, s[i])
		}
	case "u":
		for _, r := range s {
			if r > 0xFFFF {
				fmt.Fprintf(&b, `\U%08x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		}
	case "U":
		for _, r := range s {
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	return b.String()
}

// pyEncoding is one encoding a program can apply.
type pyEncoding struct {
	name string
	enc  func(string) string
}

// pyEncodings are the encodings FuzzRedactEncodings chains. Reversal is
// recognised of the value itself and of a hex or base64 text, so it comes
// only first or right after those (see revOK).
func pyEncodings() []pyEncoding {
	return []pyEncoding{
		{"b64encode", pyB64},
		{"urlsafe_b64encode", pyB64URL},
		{"b64encode, padding stripped", pyB64Bare},
		{"encodebytes (MIME, 76-character lines)", pyEncodebytes},
		{".hex()", pyHex},
		{"b16encode", pyHexUpper},
		{".hex(':')", func(s string) string { return pyHexSep(s, ":", 1) }},
		{".hex(' ', 2)", func(s string) string { return pyHexSep(s, " ", 2) }},
		{".hex('-', -4)", func(s string) string { return pyHexSep(s, "-", -4) }},
		{"every byte %XX", func(s string) string { return pyPercentAll(s, true) }},
		{"every byte %xx", func(s string) string { return pyPercentAll(s, false) }},
		{"quote", func(s string) string { return pyQuote(s, "/", false) }},
		{"quote_plus", func(s string) string { return pyQuote(s, "", true) }},
		{"html.escape", pyHTMLEscape},
		{"&#NN; every character", func(s string) string { return htmlNumericAll(s, false, true, 0) }},
		{"&#NN every character, no ';'", func(s string) string { return htmlNumericAll(s, false, false, 0) }},
		{"&#xHH; every character", func(s string) string { return htmlNumericAll(s, true, true, 0) }},
		{"&#xHH every character, no ';'", func(s string) string { return htmlNumericAll(s, true, false, 0) }},
		{"&#000NN; leading zeros", func(s string) string { return htmlNumericAll(s, false, true, 3) }},
		{"json.dumps", func(s string) string { return pyJSON(s, true) }},
		{"json.dumps, ensure_ascii=False", func(s string) string { return pyJSON(s, false) }},
		{"repr", func(s string) string { return pyRepr(s, false) }},
		{"ascii", func(s string) string { return pyRepr(s, true) }},
		{"repr of bytes", pyReprBytes},
		{`\xhh every byte`, func(s string) string { return escapeAll(s, "x") }},
		{`\xHH every byte`, func(s string) string { return escapeAll(s, "X") }},
		{`\ooo every byte`, func(s string) string { return escapeAll(s, "o") }},
		{`\uHHHH every character`, func(s string) string { return escapeAll(s, "u") }},
		{`\UHHHHHHHH every character`, func(s string) string { return escapeAll(s, "U") }},
		{"reversed", reverseRunes},
	}
}

// revOK reports whether reversal may follow the encoding called prev (""
// at the start): it is recognised of the value and of hex and base64.
func revOK(prev string) bool {
	return prev == "" || strings.Contains(prev, "b64") || strings.Contains(prev, "hex") || strings.Contains(prev, "b16") || strings.Contains(prev, "encodebytes")
}

// formSecrets are values of each kind: a token, one with every escaped
// character, Latin-1 and beyond, the shortest redacted, one long enough to
// be broken over MIME lines.
var formSecrets = map[string]string{
	"TOKEN":  "sk-live-0123456789abcdef",
	"HARD":   hardSecret,
	"PHRASE": "grüße aus köln",
	"PIN":    "9f3Q",
	"JWT":    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
}

// hides reports whether Redact hides form of secret name in text around
// it, keeping the text around it.
func hides(t *testing.T, s *Secrets, name, form string) bool {
	t.Helper()
	in := "<< " + form + " >>"
	got := s.Redact(in)
	if strings.Contains(got, "[secret:"+name+"]") && !strings.Contains(got, form) &&
		strings.HasPrefix(got, "<< ") && strings.HasSuffix(got, " >>") {
		return true
	}
	t.Errorf("in:  %q\nout: %q", in, got)
	return false
}

// Every encoding a program can apply, once, to every kind of secret, is
// hidden (SPEC §8.3; docs/security.md lists them).
func TestRedactProgramEncodings(t *testing.T) {
	s := newSecrets("", formSecrets)
	for _, e := range pyEncodings() {
		for name, v := range formSecrets {
			t.Run(e.name+"/"+name, func(t *testing.T) { hides(t, s, name, e.enc(v)) })
		}
	}
}

// The same, inside longer data: a JSON document, a Basic header, a line
// of a MIME body long enough to break the secret over two lines.
func TestRedactProgramEncodingsInsideData(t *testing.T) {
	s := newSecrets("", formSecrets)
	wraps := map[string]func(string) string{
		"json document": func(v string) string { return `{"user": "ann", "token": ` + pyJSON(v, true) + `, "n": 1}` },
		"basic header":  func(v string) string { return "user:" + v },
		"after 70 bytes": func(v string) string {
			return strings.Repeat("x", 70) + v + strings.Repeat("y", 70)
		},
	}
	for wname, wrap := range wraps {
		for _, e := range pyEncodings() {
			if e.name == "reversed" {
				continue
			}
			for name, v := range formSecrets {
				t.Run(wname+"/"+e.name+"/"+name, func(t *testing.T) {
					form := e.enc(wrap(v))
					got := s.Redact("<< " + form + " >>")
					if !strings.Contains(got, "[secret:"+name+"]") {
						t.Errorf("in:  %q\nout: %q", form, got)
					}
					assertNoneLeft(t, got, v)
				})
			}
		}
	}
}

// assertNoneLeft fails when decoding what Redact left, in the ways it
// undoes, finds the secret again.
func assertNoneLeft(t *testing.T, got, v string) {
	t.Helper()
	probe := newSecrets("", map[string]string{"PROBE": v})
	if out := probe.Redact(strings.ReplaceAll(got, "[secret:", "[x:")); strings.Contains(out, "[secret:PROBE]") {
		t.Errorf("left a form of the secret: %q", got)
	}
}

// Nested encodings the issue names, and their neighbours: each is
// hidden.
func TestRedactNestedEncodings(t *testing.T) {
	s := newSecrets("", formSecrets)
	b64 := pyB64
	tests := []struct {
		name string
		enc  func(string) string
	}{
		{"b64 of b64", func(v string) string { return b64(b64(v)) }},
		{"b64 of json.dumps", func(v string) string { return b64(pyJSON(v, true)) }},
		{"quote of b64", func(v string) string { return pyQuote(b64(v), "", false) }},
		{"quote of encodebytes", func(v string) string { return pyQuote(pyEncodebytes(v), "", false) }},
		{"json.dumps of encodebytes", func(v string) string { return pyJSON(pyEncodebytes(v), true) }},
		{"repr of encodebytes", func(v string) string { return pyReprBytes(pyEncodebytes(v)) }},
		{"hex of b64", func(v string) string { return pyHex(b64(v)) }},
		{"b64 of hex", func(v string) string { return b64(pyHex(v)) }},
		{"hex of every byte %XX", func(v string) string { return pyHex(pyPercentAll(v, true)) }},
		{"every byte %XX of every byte %XX", func(v string) string { return pyPercentAll(pyPercentAll(v, true), true) }},
		{"json.dumps of \\x every byte", func(v string) string { return pyJSON(escapeAll(v, "x"), true) }},
		{"quote of &#NN; every character", func(v string) string { return pyQuote(htmlNumericAll(v, false, true, 0), "", false) }},
		{"html.escape of repr", func(v string) string { return pyHTMLEscape(pyRepr(v, false)) }},
		{"b64 of ascii", func(v string) string { return b64(pyRepr(v, true)) }},
		{"quote of .hex(':')", func(v string) string { return pyQuote(pyHexSep(v, ":", 1), "", false) }},
		{"b64 of reversed b64", func(v string) string { return b64(reverseRunes(b64(v))) }},
		{"reversed hex of b64", func(v string) string { return reverseRunes(pyHex(b64(v))) }},
		{"b64 of b64 of b64", func(v string) string { return b64(b64(b64(v))) }},
		{"json.dumps of b64 of json.dumps", func(v string) string { return pyJSON(b64(pyJSON(v, true)), true) }},
		{"b64 glued to letters before it", func(v string) string { return "abc" + b64(b64(v)) }},
	}
	for _, tt := range tests {
		for name, v := range formSecrets {
			t.Run(tt.name+"/"+name, func(t *testing.T) { hides(t, s, name, tt.enc(v)) })
		}
	}
}

// Text without secrets comes out as it went in, whatever encodings it
// holds, and so does text a nested decoding makes nothing of.
func TestRedactKeepsEncodedText(t *testing.T) {
	s := newSecrets("", formSecrets)
	for _, in := range []string{
		pyEncodebytes(strings.Repeat("not a secret at all; ", 20)),
		pyHexSep("some other bytes entirely", ":", 1),
		pyPercentAll("another value, every byte escaped", false),
		htmlNumericAll("neither is this one", false, false, 2),
		escapeAll("nor this", "o"),
		`{"id":"550e8400-e29b-41d4-a716-446655440000","sha256":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08","ts":1700000000123}`,
		`C:\Users\ann\x41\101 &#65 %41 \u0041`,
		pyB64(pyB64(pyHex("and this, three layers down"))),
	} {
		if got := s.Redact(in); got != in {
			t.Errorf("Redact(%q) = %q", in, got)
		}
	}
}

// A text whose decoding would cost more than its budget is withheld
// rather than let through unchecked; ordinary text, even a megabyte of
// base64, is within it.
func TestRedactWithholdsBottomlessText(t *testing.T) {
	s := newSecrets("", formSecrets)
	big := pyEncodebytes(strings.Repeat("\x00\x01binary-ish data \xff\xfe", 40000))
	if got := s.Redact(big); got != big {
		t.Errorf("a megabyte of base64 was changed (%d bytes → %d)", len(big), len(got))
	}
	if _, over := s.red.hitsWithin(big, 10); !over {
		t.Error("a text over its decoding budget was searched")
	}
}

// A text larger than one window is searched a window at a time: a
// secret, plain or encoded, is found wherever it lies, across the edge
// of two windows too; and a search whose context ends is stopped, not
// finished, so that a caller can withhold what it could not check.
func TestRedactLargeTextByWindows(t *testing.T) {
	s := newSecrets("", map[string]string{"API_KEY": "sk-SuperSecretValue1234"})
	filler := strings.Repeat("QUJD6162%61", 3*redactWindow/11)
	forms := []string{
		"sk-SuperSecretValue1234",
		base64.StdEncoding.EncodeToString([]byte("sk-SuperSecretValue1234")),
		hex.EncodeToString([]byte("sk-SuperSecretValue1234")),
		"%" + strings.ReplaceAll(fmt.Sprintf("% X", []byte("sk-SuperSecretValue1234")), " ", "%"), // every byte percent-encoded
	}
	for _, at := range []int{0, redactWindow - 5, redactWindow + redactOverlap - 10, 2*redactWindow - 20, len(filler)} {
		for _, f := range forms {
			text := filler[:at] + " " + f + " " + filler[at:]
			got, err := s.RedactContext(context.Background(), text)
			if err != nil || strings.Contains(got, f) || !strings.Contains(got, "[secret:API_KEY]") {
				t.Errorf("%q at %d of %d bytes: not hidden (err %v)", f, at, len(text), err)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.RedactContext(ctx, filler); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled search of %d bytes: %v", len(filler), err)
	}
}

// FuzzRedactEncodings chains up to maxDecodeLevels of the encodings a
// Python program can apply (ops picks them), to any secret, and checks
// that the result is hidden.
func FuzzRedactEncodings(f *testing.F) {
	n := len(pyEncodings())
	for _, seed := range []struct {
		secret string
		ops    []byte
	}{
		{hardSecret, []byte{0, 0}},
		{"sk-live-0123456789abcdef", []byte{3, 19}},
		{"grüße aus köln", []byte{22}},
		{"9f3Q", []byte{4, 0, 11}},
		{formSecrets["JWT"], []byte{3, 12}},
		{"p@ss w0rd!", []byte{byte(n - 1), 6, 13}},
	} {
		f.Add(seed.secret, seed.ops)
	}
	encs := pyEncodings()
	f.Fuzz(func(t *testing.T, secret string, ops []byte) {
		if len(secret) < minRedactLen || utf8.RuneCountInString(secret) < minFormLen || len(secret) > 200 ||
			!utf8.ValidString(secret) || len(ops) > maxDecodeLevels {
			return // ascii() writes two characters of Latin-1 as two bytes: too short a form to search
		}
		if strings.ContainsFunc(secret, func(r rune) bool { return unicode.IsControl(r) || r == utf8.RuneError }) {
			return // control characters: see the fuzz target of the escapes
		}
		form, prev := secret, ""
		var names []string
		for _, op := range ops {
			e := encs[int(op)%len(encs)]
			if e.name == "reversed" && !revOK(prev) {
				return
			}
			form, prev = e.enc(form), e.name
			names = append(names, e.name)
		}
		s := newSecrets("", map[string]string{"S": secret})
		got := s.Redact("<< " + form + " >>")
		if !strings.Contains(got, "[secret:S]") || strings.Contains(got, form) {
			t.Errorf("%q through %s: %q → %q", secret, strings.Join(names, ", "), form, got)
		}
	})
}

func TestPyEncodingsNamesAreUnique(t *testing.T) {
	var names []string
	for _, e := range pyEncodings() {
		names = append(names, e.name)
	}
	slices.Sort(names)
	if len(slices.Compact(names)) != len(pyEncodings()) {
		t.Error("two encodings share a name")
	}
}
