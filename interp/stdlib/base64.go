package stdlib

import (
	"encoding/base32"
	"encoding/base64"
	"strings"
	"unsafe"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Base64 is the base64 module: the Base64, Base32 and Base16 codecs of
// RFC 4648 and Base85, taking and returning bytes as CPython's do. Its
// decoders follow binascii's rules: what is skipped, where padding ends
// the data, and the texts of binascii.Error, a ValueError.
func Base64() *starlarkstruct.Module {
	m := &b64Module{errClass: pyrt.NewModuleClass("binascii.Error", "ValueError")}
	fn := func(name string, f func(*b64Module, *starlark.Thread, string, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)) *starlark.Builtin {
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return f(m, thread, name, args, kwargs)
		})
	}
	return &starlarkstruct.Module{Name: "base64", Members: starlark.StringDict{
		"b64encode":          fn("b64encode", (*b64Module).b64encode),
		"b64decode":          fn("b64decode", (*b64Module).b64decode),
		"standard_b64encode": fn("standard_b64encode", (*b64Module).b64encode),
		"standard_b64decode": fn("standard_b64decode", (*b64Module).b64decode),
		"urlsafe_b64encode":  fn("urlsafe_b64encode", (*b64Module).b64encode),
		"urlsafe_b64decode":  fn("urlsafe_b64decode", (*b64Module).b64decode),
		"encodebytes":        fn("encodebytes", (*b64Module).b64encode),
		"decodebytes":        fn("decodebytes", (*b64Module).b64decode),
		"b32encode":          fn("b32encode", (*b64Module).b32encode),
		"b32decode":          fn("b32decode", (*b64Module).b32decode),
		"b32hexencode":       fn("b32hexencode", (*b64Module).b32encode),
		"b32hexdecode":       fn("b32hexdecode", (*b64Module).b32decode),
		"b16encode":          fn("b16encode", (*b64Module).b16encode),
		"b16decode":          fn("b16decode", (*b64Module).b16decode),
		"b85encode":          fn("b85encode", (*b64Module).b85encode),
		"b85decode":          fn("b85decode", (*b64Module).b85decode),
		"a85encode":          fn("a85encode", (*b64Module).a85encode),
		"a85decode":          fn("a85decode", (*b64Module).a85decode),
		// binascii is reachable as base64.binascii, as in CPython, for
		// `except base64.binascii.Error`.
		"binascii": &starlarkstruct.Module{Name: "binascii", Members: starlark.StringDict{"Error": m.errClass}},
	}}
}

type b64Module struct {
	errClass *pyrt.ExcClass // binascii.Error
}

// fail is a binascii.Error raised to the program.
func (m *b64Module) fail(msg string) error {
	v, err := m.errClass.CallInternal(nil, starlark.Tuple{starlark.String(msg)}, nil)
	if err != nil {
		return err
	}
	return v.(*pyrt.ExcValue).Error()
}

// encodeInput is the bytes an encoder takes; a str is a TypeError, as
// CPython's (prefix is "memoryview: " for the encoders that call it).
func encodeInput(v starlark.Value, prefix string) (string, error) {
	if b, ok := interp.AsBytes(v); ok {
		return b, nil
	}
	return "", pyrt.Errorf("TypeError", "%sa bytes-like object is required, not '%s'", prefix, pyrt.TypeName(v))
}

// decodeInput is the bytes a decoder takes: bytes, or a str of ASCII
// characters only.
func decodeInput(v starlark.Value) (string, error) {
	if b, ok := interp.AsBytes(v); ok {
		return b, nil
	}
	switch x := v.(type) {
	case starlark.String:
		return string(x), nil
	case *interp.Unicode:
		return "", pyrt.Errorf("ValueError", "string argument should contain only ASCII characters")
	}
	return "", pyrt.Errorf("TypeError", "argument should be a bytes-like object or ASCII string, not '%s'", pyrt.TypeName(v))
}

// webGrow charges and checks an output of n bytes before it is made.
func webGrow(thread *starlark.Thread, n int) error {
	b := interp.BudgetOf(thread)
	if err := b.Alloc(int64(n)); err != nil {
		return err
	}
	return b.Charge(uint64(n) / 16)
}

// translateBytes replaces the bytes of from by those of to in s, a
// byte at a time, charged every 64 KB: a text of up to the budget goes
// through here.
func translateBytes(b *interp.Budget, s, from, to string) (string, error) {
	if from == to {
		return s, nil
	}
	var table [256]byte
	for i := range table {
		table[i] = byte(i)
	}
	for i := 0; i < len(from) && i < len(to); i++ {
		table[from[i]] = to[i]
	}
	out := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		if err := pace(b, i); err != nil {
			return "", err
		}
		out[i] = table[s[i]]
	}
	return string(ownedBytes(out)), nil
}

// upperBytes is s with its ASCII letters in upper case, charged as
// translateBytes is.
func upperBytes(b *interp.Budget, s string) (string, error) {
	return translateBytes(b, s, "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
}

// altchars reads the altchars argument: two bytes replacing '+' and '/'.
func altchars(v starlark.Value, decoding bool) (string, error) {
	var s string
	var err error
	if decoding {
		s, err = decodeInput(v)
	} else {
		s, err = encodeInput(v, "")
	}
	if err != nil {
		return "", err
	}
	if len(s) != 2 {
		return "", pyrt.Errorf("AssertionError", "%s", interp.QuoteBytes(s))
	}
	return s, nil
}

func (m *b64Module) b64encode(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s starlark.Value
	alt := starlark.Value(starlark.None)
	params := webParams{fn: name, names: []string{"s"}, required: 1, maxPos: 1}
	if name == "b64encode" {
		params.names, params.maxPos = []string{"s", "altchars"}, 2
	}
	if err := params.unpack(args, kwargs, &s, &alt); err != nil {
		return nil, err
	}
	data, err := encodeInput(s, "")
	if err != nil {
		return nil, err
	}
	n := base64.StdEncoding.EncodedLen(len(data))
	if name == "encodebytes" {
		n += n/76 + 1
	}
	if err := webGrow(thread, n); err != nil {
		return nil, err
	}
	// A line of 76 characters (57 bytes of data) at a time, each charged:
	// encodebytes ends each with a newline.
	bud := interp.BudgetOf(thread)
	buf := make([]byte, 0, n)
	for i := 0; i < len(data); i += 57 {
		if err := pace(bud, i); err != nil {
			return nil, err
		}
		line := data[i:min(i+57, len(data))]
		buf = base64.StdEncoding.AppendEncode(buf, unsafe.Slice(unsafe.StringData(line), len(line)))
		if name == "encodebytes" {
			buf = append(buf, '\n')
		}
	}
	out := string(ownedBytes(buf))
	if name == "urlsafe_b64encode" {
		if out, err = translateBytes(bud, out, "+/", "-_"); err != nil {
			return nil, err
		}
	}
	if alt != starlark.None {
		a, err := altchars(alt, false)
		if err != nil {
			return nil, err
		}
		if out, err = translateBytes(bud, out, "+/", a); err != nil {
			return nil, err
		}
	}
	return interp.Bytes(out), nil
}

func (m *b64Module) b64decode(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s, validateV starlark.Value
	alt := starlark.Value(starlark.None)
	params := webParams{fn: name, names: []string{"s"}, required: 1, maxPos: 1}
	if name == "b64decode" {
		params.names, params.maxPos = []string{"s", "altchars", "validate"}, 3
	}
	if err := params.unpack(args, kwargs, &s, &alt, &validateV); err != nil {
		return nil, err
	}
	validate := flagArg(validateV, false)
	var data string
	var err error
	if name == "decodebytes" {
		bs, ok := interp.AsBytes(s)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "expected bytes-like object, not %s", pyrt.TypeName(s))
		}
		data = bs
	} else {
		data, err = decodeInput(s)
	}
	if err != nil {
		return nil, err
	}
	if alt != starlark.None {
		a, err := altchars(alt, true)
		if err != nil {
			return nil, err
		}
		if data, err = translateBytes(interp.BudgetOf(thread), data, a, "+/"); err != nil {
			return nil, err
		}
	}
	if name == "urlsafe_b64decode" {
		if data, err = translateBytes(interp.BudgetOf(thread), data, "-_", "+/"); err != nil {
			return nil, err
		}
	}
	if err := webGrow(thread, len(data)); err != nil {
		return nil, err
	}
	out, msg, err := a2bBase64(interp.BudgetOf(thread), data, validate)
	if err != nil {
		return nil, err
	}
	if msg != "" {
		return nil, m.fail(msg)
	}
	return out, nil
}

// b64Value is the value of each character of the standard alphabet, -1
// for the others.
var b64Value = func() [256]int8 {
	var t [256]int8
	for i := range t {
		t[i] = -1
	}
	for i, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/" {
		t[c] = int8(i)
	}
	return t
}()

// a2bBase64 decodes Base64 as binascii.a2b_base64 does: without strict,
// characters outside the alphabet are skipped and enough padding ends
// the data; with strict (b64decode's validate), each of those is an
// error. It returns the data, or the message of binascii.Error, or the
// budget's error.
func a2bBase64(bud *interp.Budget, s string, strict bool) (interp.Bytes, string, error) {
	if strict && len(s) > 0 && s[0] == '=' {
		return "", "Leading padding not allowed", nil
	}
	out := make([]byte, 0, len(s)/4*3+3)
	quad, pads := 0, 0
	var left byte
	padding := false
	for i := 0; i < len(s); i++ {
		if err := pace(bud, i); err != nil {
			return "", "", err
		}
		c := s[i]
		if c == '=' {
			padding = true
			if quad >= 2 {
				pads++
				if quad+pads >= 4 {
					if strict && i+1 < len(s) {
						return "", "Excess data after padding", nil
					}
					return ownedBytes(out), "", nil
				}
			}
			continue
		}
		v := b64Value[c]
		if v < 0 {
			if strict {
				return "", "Only base64 data is allowed", nil
			}
			continue
		}
		if strict && padding {
			return "", "Discontinuous padding not allowed", nil
		}
		pads = 0
		b := byte(v)
		switch quad {
		case 0:
			left = b
		case 1:
			out = append(out, left<<2|b>>4)
			left = b & 0x0f
		case 2:
			out = append(out, left<<4|b>>2)
			left = b & 0x03
		case 3:
			out = append(out, left<<6|b)
		}
		quad = (quad + 1) % 4
	}
	switch quad {
	case 0:
		return ownedBytes(out), "", nil
	case 1:
		return "", "Invalid base64-encoded string: number of data characters (" +
			starlark.MakeInt(len(out)/3*4+1).String() + ") cannot be 1 more than a multiple of 4", nil
	}
	return "", "Incorrect padding", nil
}

func (m *b64Module) b32encode(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s starlark.Value
	if err := (webParams{fn: name, names: []string{"s"}, required: 1, maxPos: 1}).unpack(args, kwargs, &s); err != nil {
		return nil, err
	}
	data, err := encodeInput(s, "memoryview: ")
	if err != nil {
		return nil, err
	}
	enc := base32.StdEncoding
	if name == "b32hexencode" {
		enc = base32.HexEncoding
	}
	if err := webGrow(thread, enc.EncodedLen(len(data))); err != nil {
		return nil, err
	}
	return interp.Bytes(enc.EncodeToString([]byte(data))), nil
}

func (m *b64Module) b32decode(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s, casefoldV starlark.Value
	map01 := starlark.Value(starlark.None)
	params := webParams{fn: name, names: []string{"s", "casefold"}, required: 1, maxPos: 2}
	if name == "b32decode" {
		params.names, params.maxPos = []string{"s", "casefold", "map01"}, 3
	}
	if err := params.unpack(args, kwargs, &s, &casefoldV, &map01); err != nil {
		return nil, err
	}
	casefold := flagArg(casefoldV, false)
	data, err := decodeInput(s)
	if err != nil {
		return nil, err
	}
	if len(data)%8 != 0 {
		return nil, m.fail("Incorrect padding")
	}
	if map01 != starlark.None {
		mp, err := decodeInput(map01)
		if err != nil {
			return nil, err
		}
		if len(mp) != 1 {
			return nil, pyrt.Errorf("AssertionError", "%s", interp.QuoteBytes(mp))
		}
		if data, err = translateBytes(interp.BudgetOf(thread), data, "01", "O"+mp); err != nil {
			return nil, err
		}
	}
	if casefold {
		if data, err = upperBytes(interp.BudgetOf(thread), data); err != nil {
			return nil, err
		}
	}
	if err := webGrow(thread, len(data)); err != nil {
		return nil, err
	}
	alphabet := "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	if name == "b32hexdecode" {
		alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUV"
	}
	body := strings.TrimRight(data, "=")
	pads := len(data) - len(body)
	out := make([]byte, 0, len(body)*5/8+5)
	var acc uint64
	bud := interp.BudgetOf(thread)
	for i := 0; i < len(body); i += 8 {
		if err := pace(bud, i); err != nil {
			return nil, err
		}
		end := min(i+8, len(body))
		acc = 0
		for _, c := range []byte(body[i:end]) {
			v := strings.IndexByte(alphabet, c)
			if v < 0 {
				return nil, m.fail("Non-base32 digit found")
			}
			acc = acc<<5 | uint64(v)
		}
		acc <<= 5 * uint(8-(end-i))
		out = append(out, byte(acc>>32), byte(acc>>24), byte(acc>>16), byte(acc>>8), byte(acc))
	}
	switch pads {
	case 0, 1, 3, 4, 6:
	default:
		return nil, m.fail("Incorrect padding")
	}
	if pads > 0 && len(out) > 0 {
		// The last quantum holds (40 - 5*pads) bits: its whole bytes.
		out = out[:len(out)-5+(43-5*pads)/8]
	}
	return ownedBytes(out), nil
}

func (m *b64Module) b16encode(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s starlark.Value
	if err := (webParams{fn: name, names: []string{"s"}, required: 1, maxPos: 1}).unpack(args, kwargs, &s); err != nil {
		return nil, err
	}
	data, err := encodeInput(s, "")
	if err != nil {
		return nil, err
	}
	if err := webGrow(thread, 2*len(data)); err != nil {
		return nil, err
	}
	// Written in place, charged as it goes: Go's hex and ToUpper would
	// make four copies of up to the budget, none of them interruptible.
	const digits = "0123456789ABCDEF"
	bud := interp.BudgetOf(thread)
	out := make([]byte, 2*len(data))
	for i := 0; i < len(data); i++ {
		if err := pace(bud, i); err != nil {
			return nil, err
		}
		c := data[i]
		out[2*i], out[2*i+1] = digits[c>>4], digits[c&15]
	}
	return ownedBytes(out), nil
}

func (m *b64Module) b16decode(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s, casefoldV starlark.Value
	if err := (webParams{fn: name, names: []string{"s", "casefold"}, required: 1, maxPos: 2}).unpack(args, kwargs, &s, &casefoldV); err != nil {
		return nil, err
	}
	casefold := flagArg(casefoldV, false)
	data, err := decodeInput(s)
	if err != nil {
		return nil, err
	}
	if casefold {
		if data, err = upperBytes(interp.BudgetOf(thread), data); err != nil {
			return nil, err
		}
	}
	bud := interp.BudgetOf(thread)
	for i := 0; i < len(data); i++ {
		if err := pace(bud, i); err != nil {
			return nil, err
		}
		if c := data[i]; !(c >= '0' && c <= '9' || c >= 'A' && c <= 'F') {
			return nil, m.fail("Non-base16 digit found")
		}
	}
	if len(data)%2 != 0 {
		return nil, m.fail("Odd-length string")
	}
	if err := webGrow(thread, len(data)/2); err != nil {
		return nil, err
	}
	// Decoded in place, charged as it goes (the digits are checked).
	unhex := func(c byte) byte {
		if c <= '9' {
			return c - '0'
		}
		return c - 'A' + 10
	}
	out := make([]byte, len(data)/2)
	for i := range out {
		if err := pace(bud, i); err != nil {
			return nil, err
		}
		out[i] = unhex(data[2*i])<<4 | unhex(data[2*i+1])
	}
	return ownedBytes(out), nil
}

// b85Alphabet is the alphabet of base64.b85encode (that of git's binary
// patches), not Ascii85's.
const b85Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"

func (m *b64Module) b85encode(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s, padV starlark.Value
	if err := (webParams{fn: name, names: []string{"b", "pad"}, required: 1, maxPos: 2}).unpack(args, kwargs, &s, &padV); err != nil {
		return nil, err
	}
	pad := flagArg(padV, false)
	data, err := encodeInput(s, "memoryview: ")
	if err != nil {
		return nil, err
	}
	if err := webGrow(thread, (len(data)+3)/4*5); err != nil {
		return nil, err
	}
	extra := (4 - len(data)%4) % 4
	padded := data + strings.Repeat("\x00", extra)
	out := make([]byte, 0, len(padded)/4*5)
	bud := interp.BudgetOf(thread)
	for i := 0; i < len(padded); i += 4 {
		if err := pace(bud, i); err != nil {
			return nil, err
		}
		v := uint32(padded[i])<<24 | uint32(padded[i+1])<<16 | uint32(padded[i+2])<<8 | uint32(padded[i+3])
		var chunk [5]byte
		for k := 4; k >= 0; k-- {
			chunk[k] = b85Alphabet[v%85]
			v /= 85
		}
		out = append(out, chunk[:]...)
	}
	if !pad && extra > 0 {
		out = out[:len(out)-extra]
	}
	return ownedBytes(out), nil
}

func (m *b64Module) b85decode(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s starlark.Value
	if err := (webParams{fn: name, names: []string{"b"}, required: 1, maxPos: 1}).unpack(args, kwargs, &s); err != nil {
		return nil, err
	}
	data, err := decodeInput(s)
	if err != nil {
		return nil, err
	}
	if err := webGrow(thread, len(data)); err != nil {
		return nil, err
	}
	extra := (5 - len(data)%5) % 5
	padded := data + strings.Repeat("~", extra)
	out := make([]byte, 0, len(padded)/5*4)
	bud := interp.BudgetOf(thread)
	for i := 0; i < len(padded); i += 5 {
		if err := pace(bud, i); err != nil {
			return nil, err
		}
		var acc uint64
		for k, c := range []byte(padded[i : i+5]) {
			v := strings.IndexByte(b85Alphabet, c)
			if v < 0 {
				return nil, pyrt.Errorf("ValueError", "bad base85 character at position %d", i+k)
			}
			acc = acc*85 + uint64(v)
		}
		if acc > 0xffffffff {
			return nil, pyrt.Errorf("ValueError", "base85 overflow in hunk starting at byte %d", i)
		}
		out = append(out, byte(acc>>24), byte(acc>>16), byte(acc>>8), byte(acc))
	}
	return ownedBytes(out[:len(out)-extra]), nil
}

// a85encode is a85encode(b, *, foldspaces=False, wrapcol=0, pad=False,
// adobe=False): Ascii85 ('!' to 'u'), a group of four zero bytes as 'z'
// (and of four spaces as 'y' with foldspaces); a last partial group is
// cut to its length unless pad; adobe frames the text with <~ and ~>;
// wrapcol breaks it into lines of at most that many characters.
func (m *b64Module) a85encode(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s, foldV, wrapV, padV, adobeV starlark.Value
	if err := (webParams{fn: name, names: []string{"b", "foldspaces", "wrapcol", "pad", "adobe"}, required: 1, maxPos: 1}).unpack(args, kwargs, &s, &foldV, &wrapV, &padV, &adobeV); err != nil {
		return nil, err
	}
	fold, pad, adobe := flagArg(foldV, false), flagArg(padV, false), flagArg(adobeV, false)
	wrap := 0
	if wrapV != nil {
		if err := starlark.AsInt(wrapV, &wrap); err != nil {
			return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(wrapV))
		}
	}
	data, err := encodeInput(s, "memoryview: ")
	if err != nil {
		return nil, err
	}
	if err := webGrow(thread, (len(data)+3)/4*5*2+8); err != nil {
		return nil, err
	}
	extra := (4 - len(data)%4) % 4
	padded := data + strings.Repeat("\x00", extra)
	out := make([]byte, 0, (len(padded)/4)*5+4)
	if adobe {
		out = append(out, "<~"...)
	}
	bud := interp.BudgetOf(thread)
	for i := 0; i < len(padded); i += 4 {
		if err := pace(bud, i); err != nil {
			return nil, err
		}
		v := uint32(padded[i])<<24 | uint32(padded[i+1])<<16 | uint32(padded[i+2])<<8 | uint32(padded[i+3])
		last := i+4 == len(padded)
		switch {
		case v == 0 && !(last && extra > 0 && !pad):
			out = append(out, 'z')
			continue
		case fold && v == 0x20202020:
			out = append(out, 'y')
			continue
		}
		var chunk [5]byte
		for k := 4; k >= 0; k-- {
			chunk[k] = byte('!' + v%85)
			v /= 85
		}
		if last && !pad {
			out = append(out, chunk[:5-extra]...)
		} else {
			out = append(out, chunk[:]...)
		}
	}
	if wrap > 0 {
		if adobe {
			wrap = max(2, wrap)
		}
		var lines []string
		for i := 0; i < len(out); i += wrap {
			lines = append(lines, string(out[i:min(i+wrap, len(out))]))
		}
		if adobe && len(lines) > 0 && len(lines[len(lines)-1])+2 > wrap {
			lines = append(lines, "") // ~> on a line of its own
		}
		out = []byte(strings.Join(lines, "\n"))
	}
	if adobe {
		out = append(out, "~>"...)
	}
	return interp.Bytes(out), nil
}

// a85decode is a85decode(b, *, foldspaces=False, adobe=False,
// ignorechars=b' \t\n\r\x0b').
func (m *b64Module) a85decode(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s, foldV, adobeV, ignoreV starlark.Value
	if err := (webParams{fn: name, names: []string{"b", "foldspaces", "adobe", "ignorechars"}, required: 1, maxPos: 1}).unpack(args, kwargs, &s, &foldV, &adobeV, &ignoreV); err != nil {
		return nil, err
	}
	fold, adobe := flagArg(foldV, false), flagArg(adobeV, false)
	ignore := " \t\n\r\x0b"
	if ignoreV != nil {
		var err error
		if ignore, err = decodeInput(ignoreV); err != nil {
			return nil, err
		}
	}
	data, err := decodeInput(s)
	if err != nil {
		return nil, err
	}
	// What the text decodes to at most, refused before it is made: each
	// 'z' (and 'y' with foldspaces) is four bytes, any five other
	// characters four.
	short := strings.Count(data, "z")
	if fold {
		short += strings.Count(data, "y")
	}
	size := 4*short + (len(data)-short)/5*4 + 4
	if err := webGrow(thread, size); err != nil {
		return nil, err
	}
	if adobe {
		if !strings.HasSuffix(data, "~>") {
			return nil, pyrt.Errorf("ValueError", "Ascii85 encoded byte sequences must end with b'~>'")
		}
		data = strings.TrimPrefix(data, "<~")
		data = data[:len(data)-2]
	}
	out := make([]byte, 0, size)
	group := make([]byte, 0, 5)
	bud := interp.BudgetOf(thread)
	word := func(g []byte) (uint64, error) {
		var acc uint64
		for _, c := range g {
			acc = acc*85 + uint64(c-'!')
		}
		if acc > 0xffffffff {
			return 0, pyrt.Errorf("ValueError", "Ascii85 overflow")
		}
		return acc, nil
	}
	for i := 0; i < len(data); i++ {
		if err := pace(bud, i); err != nil {
			return nil, err
		}
		c := data[i]
		switch {
		case '!' <= c && c <= 'u':
			group = append(group, c)
			if len(group) == 5 {
				v, err := word(group)
				if err != nil {
					return nil, err
				}
				out = append(out, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
				group = group[:0]
			}
		case c == 'z':
			if len(group) > 0 {
				return nil, pyrt.Errorf("ValueError", "z inside Ascii85 5-tuple")
			}
			out = append(out, 0, 0, 0, 0)
		case fold && c == 'y':
			if len(group) > 0 {
				return nil, pyrt.Errorf("ValueError", "y inside Ascii85 5-tuple")
			}
			out = append(out, "    "...)
		case strings.IndexByte(ignore, c) >= 0:
		default:
			return nil, pyrt.Errorf("ValueError", "Non-Ascii85 digit found: %c", c)
		}
	}
	if len(group) > 0 {
		n := len(group)
		for len(group) < 5 {
			group = append(group, 'u')
		}
		v, err := word(group)
		if err != nil {
			return nil, err
		}
		b := []byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}
		out = append(out, b[:n-1]...)
	}
	return ownedBytes(out), nil
}
