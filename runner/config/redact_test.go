package config

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// hardSecret has a character of every kind some encoder escapes: quotes,
// a backslash, <>&, a slash, spaces, non-ASCII and a character beyond
// U+FFFF (a surrogate pair in JSON).
const hardSecret = `k3y "q" \ <é> & /p 🔑'`

// encodings are the forms a value takes in results, errors and logs, each
// made by the encoder that writes it.
func encodings() []struct {
	name string
	enc  func(string) string
} {
	return []struct {
		name string
		enc  func(string) string
	}{
		{"raw", func(s string) string { return s }},
		{"JSON, Go's encoding/json (<>& as \\u003c…)", goJSON},
		{"JSON, <>& and non-ASCII as they are (interp/ordered)", jsonNoHTML},
		{"JSON, Python's json.dumps (non-ASCII as \\uXXXX)", pythonJSON},
		{"JSON, PHP's json_encode (/ as \\/)", func(s string) string { return strings.ReplaceAll(pythonJSON(s), "/", `\/`) }},
		{"Go and Starlark quoting", func(s string) string { return strconv.Quote(s) }},
		{"Go quoting, ASCII only", func(s string) string { return strconv.QuoteToASCII(s) }},
		{"JSON inside JSON", func(s string) string { return goJSON(goJSON(s)) }},
		{"url.QueryEscape", url.QueryEscape},
		{"url.PathEscape", url.PathEscape},
		{"url.QueryEscape, lower-case hex", func(s string) string { return lowerHex(url.QueryEscape(s)) }},
		{"url.PathEscape, lower-case hex", func(s string) string { return lowerHex(url.PathEscape(s)) }},
		{"a URL's path", func(s string) string { return (&url.URL{Scheme: "https", Host: "h", Path: "/a/" + s}).String() }},
		{"a URL in a query", func(s string) string { return url.QueryEscape("https://h/?t=" + url.QueryEscape(s)) }},
		{"html.EscapeString", html.EscapeString},
		{"HTML with &quot; and &#39;", func(s string) string {
			return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;").Replace(s)
		}},
		{"HTML with &quot; and &apos;", func(s string) string {
			return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;").Replace(s)
		}},
		{"HTML, Python's html.escape (&#x27;)", func(s string) string {
			return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;").Replace(s)
		}},
		{"HTML, numeric references for non-ASCII", func(s string) string {
			var b strings.Builder
			for _, r := range html.EscapeString(s) {
				if r < 0x80 {
					b.WriteRune(r)
				} else {
					fmt.Fprintf(&b, "&#%d;", r)
				}
			}
			return b.String()
		}},
		{"encoding/xml", func(s string) string {
			var b bytes.Buffer
			xml.EscapeText(&b, []byte(s))
			return b.String()
		}},
		{"HTML escaped twice", func(s string) string { return html.EscapeString(html.EscapeString(s)) }},
		{"Markdown made from HTML (\\ and &lt;)", func(s string) string {
			return strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "[", `\[`, "<", "&lt;", ">", "&gt;").Replace(s)
		}},
		{"a JSON string in an HTML attribute", func(s string) string { return html.EscapeString(goJSON(s)) }},
		{"reversed bytes (s[::-1])", reverseBytes},
		{"reversed characters", reverseRunes},
		{"reversed bytes, then JSON", func(s string) string { return jsonNoHTML(reverseBytes(s)) }},
		{"base64", func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }},
		{"base64, no padding", func(s string) string { return base64.RawStdEncoding.EncodeToString([]byte(s)) }},
		{"base64, URL alphabet", func(s string) string { return base64.URLEncoding.EncodeToString([]byte(s)) }},
		{"base64, URL alphabet, no padding", func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }},
		{"base64 in a URL query", func(s string) string { return url.QueryEscape(base64.StdEncoding.EncodeToString([]byte(s))) }},
	}
}

func goJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func jsonNoHTML(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// pythonJSON writes s as Python's json.dumps does by default.
func pythonJSON(s string) string {
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
		case r < 0x80:
			b.WriteRune(r)
		default:
			for _, u := range utf16.Encode([]rune{r}) {
				fmt.Fprintf(&b, `\u%04x`, u)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

var pctHex = regexp.MustCompile(`%[0-9A-F]{2}`)

func lowerHex(s string) string { return pctHex.ReplaceAllStringFunc(s, strings.ToLower) }

// Every form of a secret is hidden, and only the secret: what surrounds it
// is kept as it was.
func TestRedactEveryEncoding(t *testing.T) {
	secrets := map[string]string{
		"HARD":  hardSecret,
		"TOKEN": "sk-live-0123456789abcdef",
		"LINES": "line one\nline\ttwo",
	}
	s := newSecrets("", secrets)
	for _, e := range encodings() {
		for name, v := range secrets {
			form := e.enc(v)
			in := "before " + form + " after"
			got := s.Redact(in)
			if strings.Contains(got, "[secret:"+name+"]") && !strings.Contains(got, form) &&
				strings.HasPrefix(got, "before ") && strings.HasSuffix(got, " after") {
				continue
			}
			t.Errorf("%s of %s:\n in:  %s\n out: %s", e.name, name, in, got)
		}
	}
}

// A secret inside longer data that is base64-encoded as a whole (the
// user:password of a Basic Authorization header) is hidden at whatever
// offset it starts: what remains are the few characters that mix it with
// its neighbours.
func TestRedactBase64InsideLongerData(t *testing.T) {
	const secret = "hunter2-but-much-longer"
	s := newSecrets("", map[string]string{"PASS": secret})
	for _, user := range []string{"ann", "bob1", "carol"} { // three offsets in a 3-byte group
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			in := "Authorization: Basic " + enc.EncodeToString([]byte(user+":"+secret+"@x"))
			got := s.Redact(in)
			if !strings.Contains(got, "[secret:PASS]") {
				t.Errorf("%q → %q", in, got)
				continue
			}
			// No run of the text that is left decodes to 4 bytes of the secret.
			rest := strings.TrimPrefix(got, "Authorization: Basic ")
			for _, part := range strings.Split(rest, "[secret:PASS]") {
				for i := 0; i+6 <= len(part); i++ {
					if b, err := enc.WithPadding(base64.NoPadding).DecodeString(part[i : i+6]); err == nil && strings.Contains(secret, string(b[:4])) {
						t.Errorf("%q leaves %q", got, part)
					}
				}
			}
		}
	}
}

func TestRedactKeepsOrdinaryText(t *testing.T) {
	s := newSecrets("", map[string]string{"HARD": hardSecret, "TOKEN": "sk-live-0123456789abcdef", "PIN": "0042"})
	for _, in := range []string{
		`{"title":"a \"quoted\" word\nnext line","html":"&lt;b&gt; &amp; &#34;x&#34;"}`,
		`https://example.com/a%20b?q=%2B1&r=%zz&t=%`,
		`C:\path\to\file \u00 \uZZZZ \x \U0010FFFF0`,
		`k3y "q" \ <é> & /p`, // most of a secret is not the secret
		`sk-live-0123456789abcde`,
		`&unknown; &#0; &#xD800; &#99999999; &`,
		`0041 4200`,
	} {
		if got := s.Redact(in); got != in {
			t.Errorf("Redact(%q) = %q", in, got)
		}
	}
}

// Redacting text that is already redacted changes nothing, even for a
// secret whose value is part of its own marker.
func TestRedactTwiceIsOnce(t *testing.T) {
	s := newSecrets("", map[string]string{"secret": "secret", "NAME": "[secret:secret]x", "T": "cret:sec"})
	for _, in := range []string{"a secret b", "secret secret", `"secret\"`, "[secret:secret]", "[secret:NAME]"} {
		once := s.Redact(in)
		if twice := s.Redact(once); twice != once {
			t.Errorf("Redact(%q) = %q, then %q", in, once, twice)
		}
	}
	if got := s.Redact("[secret:secret]x"); got != "[secret:NAME]" {
		t.Errorf("a secret that spells a marker: %q", got)
	}
}

// Hits in escaped text are widened to whole escapes, and overlap with raw
// hits of the same secret as one marker.
func TestRedactEscapeBoundaries(t *testing.T) {
	s := newSecrets("", map[string]string{"Q": `a"b"c`, "E": "é-é-é"})
	for _, tt := range []struct{ in, want string }{
		{`x\"a\"b\"c\"y`, `x\"[secret:Q]\"y`},
		{`a"b"c a\"b\"c a%22b%22c a&quot;b&#34;c`, `[secret:Q] [secret:Q] [secret:Q] [secret:Q]`},
		{`\u00e9-\u00E9-\u00e9!`, `[secret:E]!`},
		{`%c3%a9-%C3%A9-é`, `[secret:E]`},
		{`&#233;-&eacute;-&#xE9;`, `[secret:E]`},
	} {
		if got := s.Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestOrigin(t *testing.T) {
	// `a\"b\u00e9c` decodes to `a"béc`: escapes at 1 (2 bytes → 1) and 4 (6 bytes → 2).
	_, escs := unescapeAll('\\', `a\"b\u00e9c`)
	want := []escape{{d: 1, dn: 1, o: 1, on: 2}, {d: 3, dn: 2, o: 4, on: 6}}
	if !slices.Equal(escs, want) {
		t.Fatalf("escapes %v", escs)
	}
	for _, tt := range []struct{ a, b, oa, ob int }{
		{0, 1, 0, 1},   // a
		{1, 2, 1, 3},   // \"
		{0, 3, 0, 4},   // a\"b
		{3, 4, 4, 10},  // half of é: the whole escape
		{2, 6, 3, 11},  // b\u00e9c
		{6, 6, 11, 11}, // the end
	} {
		if a, b := escapeMap(escs).origin(tt.a, tt.b); a != tt.oa || b != tt.ob {
			t.Errorf("origin(%d, %d) = %d, %d, want %d, %d", tt.a, tt.b, a, b, tt.oa, tt.ob)
		}
	}
}

// FuzzRedact checks, for any secret, that every encoding of it is hidden.
func FuzzRedact(f *testing.F) {
	for _, seed := range []string{hardSecret, "sk-live-0123456789abcdef", "aaaa", `\\\\`, "%41%", "&amp;", "\x00\x01\x7f\u2028", "🔑🔑"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, secret string) {
		if len(secret) < minRedactLen || !utf8.ValidString(secret) {
			return
		}
		s := newSecrets("", map[string]string{"S": secret})
		for _, e := range encodings() {
			if e.name == "encoding/xml" && strings.ContainsFunc(secret, func(r rune) bool { return r < 0x20 && r != '\t' && r != '\n' && r != '\r' }) {
				continue // XML cannot hold these: they become U+FFFD
			}
			form := e.enc(secret)
			got := s.Redact("<< " + form + " >>")
			if !strings.Contains(got, "[secret:S]") || strings.Contains(got, form) {
				t.Errorf("%s: %q → %q", e.name, form, got)
			}
		}
	})
}

// FuzzRedactText runs Redact on any text: it never panics, and redacting
// its output again changes nothing.
func FuzzRedactText(f *testing.F) {
	for _, seed := range []string{
		`{"a":"k3y \"q\" \\ \u003c\u00e9\u003e \u0026 /p \ud83d\udd11'"}`,
		"k3y+%22q%22+%5C+%3C%C3%A9%3E+%26+%2Fp+%F0%9F%94%91%27",
		"&#34;aaaa&amp;quot;&#x27;", `\\\"\\u0026`, "[secret:A]aaaa[secret:", "%%%%2525",
	} {
		f.Add(seed)
	}
	s := newSecrets("", map[string]string{"HARD": hardSecret, "A": "aaaa", "T": "sk-live-0123456789abcdef", "Q": `"'"'`})
	f.Fuzz(func(t *testing.T, text string) {
		once := s.Redact(text)
		if twice := s.Redact(once); twice != once {
			t.Errorf("Redact(%q) = %q, then %q", text, once, twice)
		}
	})
}
