package pyrt

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// str.encode and bytes.decode, for the codecs programs meet: UTF-8,
// ASCII and Latin-1, with CPython's names for them, its error handlers
// and the texts of its UnicodeEncodeError and UnicodeDecodeError.

// codec is one of the encodings onetool has.
type codec int

const (
	utf8Codec codec = iota
	asciiCodec
	latin1Codec
)

// name is the codec's name in CPython's messages.
func (c codec) name() string {
	return [...]string{"utf-8", "ascii", "latin-1"}[c]
}

// lookupCodec finds an encoding by any of the names CPython gives it,
// spelled as CPython allows: any case, '-', ' ' or '_' between words.
func lookupCodec(name string) (codec, error) {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(r)
		} else {
			under = true
		}
	}
	switch b.String() {
	case "utf_8", "utf8", "u8", "utf", "cp65001", "utf8_ucs2", "utf8_ucs4":
		return utf8Codec, nil
	case "ascii", "us_ascii", "us", "646", "cp367", "csascii", "ibm367", "iso646_us", "iso_646.irv_1991",
		"iso_ir_6", "ansi_x3.4_1968", "ansi_x3_4_1968", "ansi_x3.4_1986":
		return asciiCodec, nil
	case "latin_1", "latin1", "latin", "l1", "iso8859_1", "iso_8859_1", "iso8859", "8859", "cp819",
		"ibm819", "csisolatin1", "iso_ir_100", "iso_8859_1_1987":
		return latin1Codec, nil
	}
	return 0, exception("LookupError", "unknown encoding: %s (onetool has utf-8, ascii and latin-1)", name)
}

// handler is an error handler of a codec, looked up (as CPython does) only
// when an error happens.
func handler(name string, encoding bool) (string, error) {
	switch name {
	case "strict", "ignore", "replace", "backslashreplace":
		return name, nil
	case "surrogateescape", "surrogatepass":
		if encoding {
			// For characters that are not surrogates (onetool's text
			// never holds any), these fail as strict does.
			return "strict", nil
		}
		return "", exception("LookupError", "error handler '%s' is not available here: text is always valid Unicode; use 'replace' or 'backslashreplace'", name)
	case "xmlcharrefreplace", "namereplace":
		switch {
		case !encoding:
			return "", typeError("don't know how to handle UnicodeDecodeError in error callback")
		case name == "namereplace":
			return "", exception("LookupError", "error handler 'namereplace' is not available here: use 'backslashreplace'")
		}
		return name, nil
	}
	return "", exception("LookupError", "unknown error handler name '%s'", name)
}

// codecArgs reads (encoding='utf-8', errors='strict') of encode or decode.
func codecArgs(name string, args starlark.Tuple, kwargs []starlark.Tuple) (codec, string, error) {
	p, err := keywordArgs(name, args, kwargs, "encoding", "errors")
	if err != nil {
		return 0, "", err
	}
	texts := [2]string{"utf-8", "strict"}
	for i, param := range []string{"encoding", "errors"} {
		if p[i] == nil {
			continue
		}
		s, ok := interp.AsText(p[i])
		if !ok {
			return 0, "", typeError("%s() argument '%s' must be str, not %s", name, param, argName(p[i]))
		}
		texts[i] = s
	}
	c, err := lookupCodec(texts[0])
	return c, texts[1], err
}

// encodeMethod is str.encode(encoding='utf-8', errors='strict').
func encodeMethod(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	c, errors, err := codecArgs("encode", args, kwargs)
	if err != nil {
		return nil, err
	}
	if err := charge(b, len(t.s)); err != nil {
		return nil, err
	}
	if c == utf8Codec || t.ascii {
		return interp.Bytes(t.s), nil
	}
	limit := rune(0x80)
	if c == latin1Codec {
		limit = 0x100
	}
	var w strings.Builder
	runes := []rune(t.s)
	for i := 0; i < len(runes); {
		if runes[i] < limit {
			w.WriteByte(byte(runes[i]))
			i++
			continue
		}
		// The run of characters the codec cannot encode.
		j := i + 1
		for j < len(runes) && runes[j] >= limit {
			j++
		}
		h, err := handler(errors, true)
		if err != nil {
			return nil, err
		}
		switch h {
		case "strict":
			return nil, encodeError(c, runes, i, j, limit)
		case "replace":
			w.WriteString(strings.Repeat("?", j-i))
		case "backslashreplace":
			for _, r := range runes[i:j] {
				w.WriteString(escapeRune(r))
			}
		case "xmlcharrefreplace":
			for _, r := range runes[i:j] {
				fmt.Fprintf(&w, "&#%d;", r)
			}
		}
		i = j
	}
	return interp.Bytes(w.String()), nil
}

// encodeError is CPython's UnicodeEncodeError for runes[i:j].
func encodeError(c codec, runes []rune, i, j int, limit rune) error {
	why := fmt.Sprintf("ordinal not in range(%d)", limit)
	if j-i == 1 {
		return exception("UnicodeEncodeError", "'%s' codec can't encode character '%s' in position %d: %s", c.name(), escapeRune(runes[i]), i, why)
	}
	return exception("UnicodeEncodeError", "'%s' codec can't encode characters in position %d-%d: %s", c.name(), i, j-1, why)
}

// escapeRune is a character as backslashreplace writes it: \xe9, \u20ac,
// \U0001f600.
func escapeRune(r rune) string {
	switch {
	case r <= 0xff:
		return fmt.Sprintf(`\x%02x`, r)
	case r <= 0xffff:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return fmt.Sprintf(`\U%08x`, r)
}

// decodeMethod is bytes.decode(encoding='utf-8', errors='strict').
func decodeMethod(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	data, _ := interp.AsBytes(recv)
	c, errors, err := codecArgs("decode", args, kwargs)
	if err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	// Each byte becomes at most one character of at most 4 bytes (a
	// backslashreplace of it).
	if err := allocText(b, int64(len(data))*4); err != nil {
		return nil, err
	}
	if c == utf8Codec && utf8.ValidString(data) {
		return interp.MakeString(data), nil
	}
	var w strings.Builder
	for i := 0; i < len(data); {
		r, n, why := decodeStep(c, data, i)
		if why == "" {
			w.WriteRune(r)
			i += n
			continue
		}
		h, err := handler(errors, false)
		if err != nil {
			return nil, err
		}
		switch h {
		case "strict":
			return nil, decodeError(c.name(), data, i, n, why)
		case "replace":
			w.WriteRune(utf8.RuneError)
		case "backslashreplace":
			for k := i; k < i+n; k++ {
				fmt.Fprintf(&w, `\x%02x`, data[k])
			}
		}
		i += n
	}
	return interp.MakeString(w.String()), nil
}

// decodeStep decodes the character at data[i]: its rune and length, or
// why it cannot be decoded and how many bytes the error spans. For UTF-8
// these are CPython's: the longest prefix of a valid sequence, or the
// start byte alone.
func decodeStep(c codec, data string, i int) (r rune, n int, why string) {
	b0 := data[i]
	switch {
	case b0 < 0x80:
		return rune(b0), 1, ""
	case c == latin1Codec:
		return rune(b0), 1, ""
	case c == asciiCodec:
		return 0, 1, "ordinal not in range(128)"
	}
	var size int
	lo, hi := byte(0x80), byte(0xbf) // the range of the second byte
	switch {
	case b0 >= 0xc2 && b0 <= 0xdf:
		size = 2
	case b0 >= 0xe0 && b0 <= 0xef:
		size = 3
		if b0 == 0xe0 {
			lo = 0xa0
		} else if b0 == 0xed {
			hi = 0x9f // no surrogates
		}
	case b0 >= 0xf0 && b0 <= 0xf4:
		size = 4
		if b0 == 0xf0 {
			lo = 0x90
		} else if b0 == 0xf4 {
			hi = 0x8f
		}
	default:
		return 0, 1, "invalid start byte"
	}
	for k := 1; k < size; k++ {
		if i+k >= len(data) {
			return 0, k, "unexpected end of data"
		}
		cb := data[i+k]
		if k == 1 && (cb < lo || cb > hi) || cb < 0x80 || cb > 0xbf {
			return 0, k, "invalid continuation byte"
		}
	}
	r, n = utf8.DecodeRuneInString(data[i:])
	return r, n, ""
}

// decodeError is CPython's UnicodeDecodeError for the n bytes of data at
// i that the codec named could not decode, why: its text, and the
// attributes handlers read (encoding, object, start, end, reason).
func decodeError(codec string, data string, i, n int, why string) error {
	msg := fmt.Sprintf("'%s' codec can't decode bytes in position %d-%d: %s", codec, i, i+n-1, why)
	if n == 1 {
		msg = fmt.Sprintf("'%s' codec can't decode byte 0x%02x in position %d: %s", codec, data[i], i, why)
	}
	return ErrorWithAttrs("UnicodeDecodeError", msg, starlark.StringDict{
		"encoding": starlark.String(codec),
		"object":   interp.Bytes(data),
		"start":    starlark.MakeInt(i),
		"end":      starlark.MakeInt(i + n),
		"reason":   starlark.String(why),
	})
}
