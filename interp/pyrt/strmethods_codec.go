package pyrt

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"golang.org/x/text/unicode/runenames"

	"github.com/onetool-dev/onetool/interp"
)

// str.encode and bytes.decode over the codecs of codecs.go, with
// CPython's error handlers and the texts and attributes of its
// UnicodeEncodeError and UnicodeDecodeError.
//
// A program's text is always valid Unicode (interp.MakeString): it holds
// no lone surrogates. So surrogateescape and surrogatepass encode as
// strict does (there is nothing for them to pass), and decoding with them
// fails, when it meets bytes that would need a surrogate, with an error
// that says to use 'replace' or 'backslashreplace'.

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
		if !encoding {
			return "", typeError("don't know how to handle UnicodeDecodeError in error callback")
		}
		return name, nil
	}
	return "", exception("LookupError", "unknown error handler name '%s'", name)
}

// codecArgs reads (encoding='utf-8', errors='strict') of encode or decode.
func codecArgs(name string, args starlark.Tuple, kwargs []starlark.Tuple) (c *Codec, encoding, errors string, err error) {
	p, err := keywordArgs(name, args, kwargs, "encoding", "errors")
	if err != nil {
		return nil, "", "", err
	}
	texts := [2]string{"utf-8", "strict"}
	for i, param := range []string{"encoding", "errors"} {
		if p[i] == nil {
			continue
		}
		s, ok := interp.AsText(p[i])
		if !ok {
			return nil, "", "", typeError("%s() argument '%s' must be str, not %s", name, param, argName(p[i]))
		}
		texts[i] = s
	}
	c, err = LookupCodec(texts[0])
	return c, texts[0], texts[1], err
}

// EncodeWith is str.encode(encoding, errors) of text: the encoding looked
// up by name and its errors as CPython's.
func EncodeWith(b *interp.Budget, text, encoding, errors string) (string, error) {
	c, err := LookupCodec(encoding)
	if err != nil {
		return "", err
	}
	out, err := EncodeText(b, c, text, errors, true)
	return out, c.wrap(err, "encoding", encoding)
}

// DecodeWith is bytes.decode(encoding, errors) of data.
func DecodeWith(b *interp.Budget, data, encoding, errors string) (string, error) {
	c, err := LookupCodec(encoding)
	if err != nil {
		return "", err
	}
	out, err := NewDecoder(c, errors).Decode(b, data, true)
	return out, c.wrap(err, "decoding", encoding)
}

// wrap is err as CPython gives it from a codec written in Python (the
// charmap ones): a handler's LookupError or TypeError says which codec
// failed, by the name the program gave.
func (c *Codec) wrap(err error, op, name string) error {
	var ex *Exception
	if err == nil || c.kind != kindCharmap || !errors.As(err, &ex) || ex.Attrs != nil ||
		ex.Class != "LookupError" && ex.Class != "TypeError" {
		return err
	}
	return exception(ex.Class, "%s with '%s' codec failed (%s: %s)", op, name, ex.Class, ex.Msg)
}

// encodeMethod is str.encode(encoding='utf-8', errors='strict').
func encodeMethod(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	c, name, errors, err := codecArgs("encode", args, kwargs)
	if err != nil {
		return nil, err
	}
	if err := charge(b, len(t.s)); err != nil {
		return nil, err
	}
	if c.kind == kindUTF8 || t.ascii && (c.kind == kindASCII || c.kind == kindLatin1) {
		return interp.Bytes(t.s), nil
	}
	out, err := EncodeText(b, c, t.s, errors, true)
	if err != nil {
		return nil, c.wrap(err, "encoding", name)
	}
	return interp.Bytes(out), nil
}

// EncodeText is text encoded by c with the error handler errors; bom
// says whether a codec that writes a byte-order mark (utf-8-sig, utf-16,
// utf-32) writes it: at the start of a stream only. The output is
// charged to b before it is made.
func EncodeText(b *interp.Budget, c *Codec, text, errors string, bom bool) (string, error) {
	mark := ""
	if bom {
		mark = c.bom()
	}
	switch c.kind {
	case kindUTF8, kindUTF8Sig:
		if err := allocText(b, int64(len(text)+len(mark))); err != nil {
			return "", err
		}
		return mark + text, nil
	case kindUTF16, kindUTF32:
		return encodeUTF(b, c, text, mark)
	}
	return encodeBytewise(b, c, text, errors)
}

// encodeUTF is UTF-16 or UTF-32, which encode every character.
func encodeUTF(b *interp.Budget, c *Codec, text, mark string) (string, error) {
	// A UTF-8 byte becomes at most two of UTF-16; a character (at least
	// one byte) four of UTF-32.
	per := 2
	if c.kind == kindUTF32 {
		per = 4
	}
	if err := allocText(b, int64(len(text))*int64(per)+int64(len(mark))); err != nil {
		return "", err
	}
	big := c.order == bigEndian
	out := make([]byte, 0, len(text)*per+len(mark))
	out = append(out, mark...)
	put := func(u uint32, size int) {
		for k := 0; k < size; k++ {
			shift := 8 * k
			if big {
				shift = 8 * (size - 1 - k)
			}
			out = append(out, byte(u>>shift))
		}
	}
	for _, r := range text {
		switch {
		case c.kind == kindUTF32:
			put(uint32(r), 4)
		case r >= 0x10000:
			r -= 0x10000
			put(uint32(0xd800+(r>>10)), 2)
			put(uint32(0xdc00+(r&0x3ff)), 2)
		default:
			put(uint32(r), 2)
		}
	}
	return string(out), nil
}

// encodeBytewise is ASCII, Latin-1 or a charmap codec: one byte per
// character, and the error handler for runs of characters the codec has
// no byte for.
func encodeBytewise(b *interp.Budget, c *Codec, text, errors string) (string, error) {
	enc, reason := c.encodeRune, "character maps to <undefined>"
	switch c.kind {
	case kindASCII:
		enc, reason = func(r rune) (byte, bool) { return byte(r), r < 0x80 }, "ordinal not in range(128)"
	case kindLatin1:
		enc, reason = func(r rune) (byte, bool) { return byte(r), r < 0x100 }, "ordinal not in range(256)"
	}
	// The output's bound: a byte per character, and what a handler
	// writes for a character of n bytes: \U0001f600 (2.5n), &#128512;
	// (3.5n); namereplace's names are measured as they are written.
	per := int64(1)
	switch errors {
	case "backslashreplace":
		per = 3
	case "xmlcharrefreplace", "namereplace":
		per = 4
	}
	if err := allocText(b, int64(len(text))*per); err != nil {
		return "", err
	}
	var w strings.Builder
	w.Grow(len(text))
	pos, steps := 0, 0 // pos counts characters
	for k := 0; k < len(text); {
		steps++
		if err := tick(b, steps); err != nil {
			return "", err
		}
		r, n := utf8.DecodeRuneInString(text[k:])
		if x, ok := enc(r); ok {
			w.WriteByte(x)
			k += n
			pos++
			continue
		}
		// The run of characters the codec cannot encode.
		start, startK := pos, k
		for k < len(text) {
			r2, n2 := utf8.DecodeRuneInString(text[k:])
			if _, ok := enc(r2); ok {
				break
			}
			k += n2
			pos++
		}
		h, err := handler(errors, true)
		if err != nil {
			return "", err
		}
		run := text[startK:k]
		switch h {
		case "strict":
			return "", encodeError(c.errName(0), text, start, pos, r, reason)
		case "replace":
			w.WriteString(strings.Repeat("?", pos-start))
		case "backslashreplace":
			for _, r := range run {
				w.WriteString(escapeRune(r))
			}
		case "xmlcharrefreplace":
			for _, r := range run {
				fmt.Fprintf(&w, "&#%d;", r)
			}
		case "namereplace":
			for _, r := range run {
				if name := CharName(r); name != "" {
					w.WriteString(`\N{` + name + `}`)
				} else {
					w.WriteString(escapeRune(r))
				}
			}
			if err := b.Fits(int64(w.Len())); err != nil {
				return "", err
			}
		}
	}
	return w.String(), nil
}

// encodeError is CPython's UnicodeEncodeError for the characters
// start..end-1 of text (first is the one at start).
func encodeError(codec, text string, start, end int, first rune, why string) error {
	msg := fmt.Sprintf("'%s' codec can't encode characters in position %d-%d: %s", codec, start, end-1, why)
	if end-start == 1 {
		msg = fmt.Sprintf("'%s' codec can't encode character '%s' in position %d: %s", codec, escapeRune(first), start, why)
	}
	return ErrorWithAttrs("UnicodeEncodeError", msg, starlark.StringDict{
		"encoding": starlark.String(codec),
		"object":   interp.MakeString(text),
		"start":    starlark.MakeInt(start),
		"end":      starlark.MakeInt(end),
		"reason":   starlark.String(why),
	})
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

// The parts of a Hangul syllable's name, by its algorithm (Unicode §3.12).
var (
	hangulL = [...]string{"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"}
	hangulV = [...]string{"A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI", "I"}
	hangulT = [...]string{"", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S", "SS", "NG", "J", "C", "K", "T", "P", "H"}
)

// CharName is r's name as CPython's unicodedata.name has it (namereplace
// writes it); "" when it has none (controls, private use, unassigned).
func CharName(r rune) string {
	n := runenames.Name(r)
	switch {
	case strings.HasPrefix(n, "<CJK Ideograph"):
		return fmt.Sprintf("CJK UNIFIED IDEOGRAPH-%04X", r)
	case n == "<Hangul Syllable>":
		s := int(r - 0xac00)
		return "HANGUL SYLLABLE " + hangulL[s/588] + hangulV[s%588/28] + hangulT[s%28]
	case strings.HasPrefix(n, "<"):
		return ""
	}
	return n
}

// decodeMethod is bytes.decode(encoding='utf-8', errors='strict').
func decodeMethod(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	data, _ := interp.AsBytes(recv)
	c, name, errors, err := codecArgs("decode", args, kwargs)
	if err != nil {
		return nil, err
	}
	s, err := NewDecoder(c, errors).Decode(interp.BudgetOf(thread), data, true)
	if err != nil {
		return nil, c.wrap(err, "decoding", name)
	}
	return interp.MakeString(s), nil
}

// Decoder decodes a stream of bytes in pieces, as CPython's incremental
// decoders do: a character cut by a piece's end waits for the next
// piece, and a byte-order mark is read once, at the stream's start.
type Decoder struct {
	c       *Codec
	errors  string
	order   int8   // UTF-16 and UTF-32: the byte order, once a BOM decided it
	started bool   // the start of the stream (its BOM) has been read
	pending string // bytes of a character not complete yet
}

// NewDecoder is a decoder for c with the error handler errors.
func NewDecoder(c *Codec, errors string) *Decoder {
	return &Decoder{c: c, errors: errors, order: c.order}
}

// Reset starts the decoder over, at the start of a new stream.
func (d *Decoder) Reset() { d.order, d.started, d.pending = d.c.order, false, "" }

// Pending is the bytes the decoder holds back (a character cut short).
func (d *Decoder) Pending() string { return d.pending }

// Decode decodes input after what the decoder held back; final says
// the stream ends with it (an incomplete character is then an error).
// The text is charged to b before it is made.
func (d *Decoder) Decode(b *interp.Budget, input string, final bool) (string, error) {
	data := input
	if d.pending != "" {
		data, d.pending = d.pending+input, ""
	}
	c := d.c
	i := 0
	if !d.started {
		switch {
		case c.kind == kindUTF8Sig:
			if len(data) < 3 && !final && strings.HasPrefix(c.bom(), data) {
				d.pending = data
				return "", nil
			}
			// Positions in errors count from after the BOM, as CPython's.
			data = strings.TrimPrefix(data, c.bom())
		case (c.kind == kindUTF16 || c.kind == kindUTF32) && c.order == bomOrder:
			size := 2
			if c.kind == kindUTF32 {
				size = 4
			}
			if len(data) < size && !final {
				d.pending = data
				return "", nil
			}
			d.order = littleEndian
			switch {
			case size == 2 && strings.HasPrefix(data, "\xff\xfe"), size == 4 && strings.HasPrefix(data, "\xff\xfe\x00\x00"):
				i = size
			case size == 2 && strings.HasPrefix(data, "\xfe\xff"), size == 4 && strings.HasPrefix(data, "\x00\x00\xfe\xff"):
				i, d.order = size, bigEndian
			}
		}
		d.started = true
	}
	if err := allocText(b, int64(len(data))*d.perByte()); err != nil {
		return "", err
	}
	if (c.kind == kindUTF8 || c.kind == kindUTF8Sig) && utf8.ValidString(data) ||
		c.kind == kindASCII && isASCII(data) {
		return data, nil
	}
	var w strings.Builder
	w.Grow(len(data) - i)
	for steps := 0; i < len(data); steps++ {
		if err := tick(b, steps); err != nil {
			return "", err
		}
		r, n, why, short := d.step(data, i)
		if why == "" {
			w.WriteRune(r)
			i += n
			continue
		}
		if short && !final {
			d.pending = data[i:]
			break
		}
		h, err := handler(d.errors, false)
		if err != nil {
			return "", err
		}
		switch h {
		case "strict":
			return "", decodeError(c.errName(d.order), data, i, n, why)
		case "replace":
			w.WriteRune(utf8.RuneError)
		case "backslashreplace":
			for k := i; k < i+n; k++ {
				w.WriteString(`\x`)
				w.WriteByte(hexDigits[data[k]>>4])
				w.WriteByte(hexDigits[data[k]&15])
			}
		}
		i += n
	}
	return w.String(), nil
}

const hexDigits = "0123456789abcdef"

// perByte bounds the UTF-8 bytes of text one input byte decodes to: a
// handler writes up to four (\xff) per byte, U+FFFD three.
func (d *Decoder) perByte() int64 {
	switch {
	case d.errors != "strict" && d.errors != "ignore":
		return 4
	case d.c.kind == kindLatin1 || d.c.kind == kindCharmap:
		return 3
	case d.c.kind == kindUTF16:
		return 2
	}
	return 1
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// step decodes the character at data[i]: its rune and length, or why it
// cannot be decoded and how many bytes the error spans (CPython's spans),
// and whether the reason is only that data ends too soon.
func (d *Decoder) step(data string, i int) (r rune, n int, why string, short bool) {
	b0 := data[i]
	switch d.c.kind {
	case kindUTF8, kindUTF8Sig:
		r, n, why = utf8Step(data, i)
		return r, n, why, why == "unexpected end of data"
	case kindASCII:
		if b0 < 0x80 {
			return rune(b0), 1, "", false
		}
		return 0, 1, "ordinal not in range(128)", false
	case kindLatin1:
		return rune(b0), 1, "", false
	case kindCharmap:
		if r, ok := d.c.decodeByte(b0); ok {
			return r, 1, "", false
		}
		return 0, 1, "character maps to <undefined>", false
	case kindUTF32:
		if len(data)-i < 4 {
			return 0, len(data) - i, "truncated data", true
		}
		u := d.unit(data, i, 4)
		switch {
		case u > 0x10ffff:
			return 0, 4, "code point not in range(0x110000)", false
		case u >= 0xd800 && u < 0xe000:
			return 0, 4, "code point in surrogate code point range(0xd800, 0xe000)", false
		}
		return rune(u), 4, "", false
	}
	// UTF-16.
	if len(data)-i < 2 {
		return 0, len(data) - i, "truncated data", true
	}
	u := d.unit(data, i, 2)
	switch {
	case u < 0xd800 || u >= 0xe000:
		return rune(u), 2, "", false
	case u >= 0xdc00:
		return 0, 2, "illegal encoding", false
	case len(data)-i < 4:
		return 0, len(data) - i, "unexpected end of data", true
	}
	u2 := d.unit(data, i+2, 2)
	if u2 < 0xdc00 || u2 >= 0xe000 {
		return 0, 2, "illegal UTF-16 surrogate", false
	}
	return 0x10000 + rune(u-0xd800)<<10 + rune(u2-0xdc00), 4, "", false
}

// unit is the size-byte code unit at data[i] in the decoder's byte order.
func (d *Decoder) unit(data string, i, size int) uint32 {
	var u uint32
	for k := 0; k < size; k++ {
		if d.order == bigEndian {
			u = u<<8 | uint32(data[i+k])
		} else {
			u |= uint32(data[i+k]) << (8 * k)
		}
	}
	return u
}

// utf8Step decodes the UTF-8 character at data[i]: its rune and length,
// or why it cannot be decoded and how many bytes the error spans. These
// are CPython's: the longest prefix of a valid sequence, or the start
// byte alone.
func utf8Step(data string, i int) (r rune, n int, why string) {
	b0 := data[i]
	if b0 < 0x80 {
		return rune(b0), 1, ""
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

// Encoder encodes a stream of text in pieces: the byte-order mark (of
// utf-8-sig, utf-16, utf-32) comes once, before the first piece.
type Encoder struct {
	c       *Codec
	errors  string
	started bool
}

// NewEncoder is an encoder for c with the error handler errors; started
// says the stream already has content (no BOM is written).
func NewEncoder(c *Codec, errors string, started bool) *Encoder {
	return &Encoder{c: c, errors: errors, started: started}
}

// Reset starts the encoder over: the next piece begins a stream.
func (e *Encoder) Reset() { e.started = false }

// Encode encodes the next piece of the stream.
func (e *Encoder) Encode(b *interp.Budget, text string) (string, error) {
	out, err := EncodeText(b, e.c, text, e.errors, !e.started)
	if err != nil {
		return "", err
	}
	e.started = true
	return out, nil
}
