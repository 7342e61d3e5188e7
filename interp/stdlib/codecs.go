package stdlib

import (
	"encoding/hex"
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Codecs is the codecs module over the text codecs of str.encode and
// bytes.decode (pyrt's codecs.go): open, encode, decode, lookup, the
// BOM constants, and the incremental encoders and decoders that read a
// stream in pieces. codecs.encode and decode also take the bytes-to-bytes
// codecs programs use most: hex, base64 and rot13.
func Codecs() *starlarkstruct.Module {
	b64 := Base64()
	bin := b64.Members["binascii"].(*starlarkstruct.Module)
	m := &codecsModule{encodebytes: b64.Members["encodebytes"], decodebytes: b64.Members["decodebytes"],
		binErr: bin.Members["Error"].(*pyrt.ExcClass)}
	fn := func(name string, f func(*codecsModule, *starlark.Thread, string, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)) *starlark.Builtin {
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return f(m, thread, name, args, kwargs)
		})
	}
	members := starlark.StringDict{
		"open":                  fn("open", (*codecsModule).open),
		"encode":                fn("encode", (*codecsModule).encode),
		"decode":                fn("decode", (*codecsModule).decode),
		"lookup":                fn("lookup", (*codecsModule).lookup),
		"getencoder":            fn("getencoder", (*codecsModule).getCoder),
		"getdecoder":            fn("getdecoder", (*codecsModule).getCoder),
		"getincrementalencoder": fn("getincrementalencoder", (*codecsModule).getIncremental),
		"getincrementaldecoder": fn("getincrementaldecoder", (*codecsModule).getIncremental),
		"iterencode":            fn("iterencode", (*codecsModule).iterCode),
		"iterdecode":            fn("iterdecode", (*codecsModule).iterCode),
		"getreader":             fn("getreader", (*codecsModule).absent),
		"getwriter":             fn("getwriter", (*codecsModule).absent),
		"register":              fn("register", (*codecsModule).absent),
		"register_error":        fn("register_error", (*codecsModule).absent),
		"lookup_error":          fn("lookup_error", (*codecsModule).absent),
		"BOM_UTF8":              interp.Bytes("\xef\xbb\xbf"),
		"BOM_UTF16_LE":          interp.Bytes("\xff\xfe"),
		"BOM_UTF16_BE":          interp.Bytes("\xfe\xff"),
		"BOM_UTF32_LE":          interp.Bytes("\xff\xfe\x00\x00"),
		"BOM_UTF32_BE":          interp.Bytes("\x00\x00\xfe\xff"),
		"BOM_UTF16":             interp.Bytes("\xff\xfe"), // the native order: little-endian
		"BOM_UTF32":             interp.Bytes("\xff\xfe\x00\x00"),
		"BOM":                   interp.Bytes("\xff\xfe"),
		"BOM_LE":                interp.Bytes("\xff\xfe"),
		"BOM_BE":                interp.Bytes("\xfe\xff"),
		"BOM32_LE":              interp.Bytes("\xff\xfe"),
		"BOM32_BE":              interp.Bytes("\xfe\xff"),
		"BOM64_LE":              interp.Bytes("\xff\xfe\x00\x00"),
		"BOM64_BE":              interp.Bytes("\x00\x00\xfe\xff"),
	}
	return &starlarkstruct.Module{Name: "codecs", Members: members}
}

type codecsModule struct {
	encodebytes, decodebytes starlark.Value // base64's, for the base64 codec
	binErr                   *pyrt.ExcClass // binascii.Error, of the hex codec
}

func (m *codecsModule) absent(_ *starlark.Thread, name string, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	switch name {
	case "getreader", "getwriter":
		return nil, pyrt.Errorf("NotImplementedError", "codecs.%s is not available here: open the file with open(path, encoding=...) or codecs.open, or decode bytes with bytes.decode(encoding)", name)
	}
	return nil, pyrt.Errorf("NotImplementedError", "codecs.%s is not available here: programs cannot add codecs or error handlers; use the built-in handlers (strict, ignore, replace, backslashreplace, xmlcharrefreplace, namereplace)", name)
}

// codecText reads a str argument of fn.
func codecText(fn, param string, v starlark.Value) (string, error) {
	s, ok := interp.AsText(v)
	if !ok {
		return "", pyrt.Errorf("TypeError", "%s() argument '%s' must be str, not %s", fn, param, pyrt.TypeName(v))
	}
	return s, nil
}

// open is codecs.open(filename, mode='r', encoding=None, errors='strict',
// buffering=-1): open() with the encoding; as CPython's, its files
// translate no newlines (they are binary files under the codec).
func (m *codecsModule) open(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var file starlark.Value
	var mode, encoding, errs starlark.Value = starlark.String("r"), starlark.None, starlark.String("strict")
	buffering := -1
	if err := starlark.UnpackArgs(name, args, kwargs, "filename", &file, "mode?", &mode, "encoding?", &encoding, "errors?", &errs, "buffering?", &buffering); err != nil {
		return nil, err
	}
	md, err := codecText(name, "mode", mode)
	if err != nil {
		return nil, err
	}
	if encoding == starlark.None {
		return openFile(thread, file, md, openOptions{Buffering: buffering, Closefd: true})
	}
	enc, err := codecText(name, "encoding", encoding)
	if err != nil {
		return nil, err
	}
	e, err := codecText(name, "errors", errs)
	if err != nil {
		return nil, err
	}
	md = strings.ReplaceAll(strings.ReplaceAll(md, "b", ""), "t", "")
	return openFile(thread, file, md, openOptions{Buffering: buffering, Closefd: true, Encoding: enc, Errors: e, HasNewline: true})
}

// codecArgs reads (obj, encoding='utf-8', errors='strict').
func codecsArgs(name string, args starlark.Tuple, kwargs []starlark.Tuple) (obj starlark.Value, encoding, errors string, err error) {
	var enc, errs starlark.Value = starlark.String("utf-8"), starlark.String("strict")
	if err := starlark.UnpackArgs(name, args, kwargs, "obj", &obj, "encoding?", &enc, "errors?", &errs); err != nil {
		return nil, "", "", err
	}
	if encoding, err = codecText(name, "encoding", enc); err != nil {
		return nil, "", "", err
	}
	errors, err = codecText(name, "errors", errs)
	return obj, encoding, errors, err
}

// byteCodec is the bytes-to-bytes (or str-to-str) codec name stands for:
// "hex", "base64", "rot13", or "".
func byteCodec(name string) string {
	switch strings.ReplaceAll(strings.ReplaceAll(strings.ToLower(name), "-", "_"), " ", "_") {
	case "hex", "hex_codec":
		return "hex"
	case "base64", "base_64", "base64_codec":
		return "base64"
	case "rot13", "rot_13":
		return "rot13"
	}
	return ""
}

// encode is codecs.encode(obj, encoding='utf-8', errors='strict').
func (m *codecsModule) encode(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	obj, encoding, errs, err := codecsArgs(name, args, kwargs)
	if err != nil {
		return nil, err
	}
	return m.code(thread, obj, encoding, errs, true)
}

// decode is codecs.decode(obj, encoding='utf-8', errors='strict').
func (m *codecsModule) decode(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	obj, encoding, errs, err := codecsArgs(name, args, kwargs)
	if err != nil {
		return nil, err
	}
	return m.code(thread, obj, encoding, errs, false)
}

// code encodes (enc) or decodes obj by the codec encoding.
func (m *codecsModule) code(thread *starlark.Thread, obj starlark.Value, encoding, errs string, enc bool) (starlark.Value, error) {
	b := interp.BudgetOf(thread)
	op := "decoding"
	if enc {
		op = "encoding"
	}
	switch byteCodec(encoding) {
	case "rot13":
		s, ok := interp.AsText(obj)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "%s with '%s' codec failed (TypeError: descriptor 'translate' for 'str' objects doesn't apply to a '%s' object)", op, encoding, pyrt.TypeName(obj))
		}
		if err := b.Alloc(int64(len(s))); err != nil {
			return nil, err
		}
		return interp.MakeString(strings.Map(rot13, s)), nil
	case "hex":
		data, ok := interp.AsBytes(obj)
		if s, isText := interp.AsText(obj); isText && !enc && isASCIIText(s) {
			data, ok = s, true // a2b_hex takes ASCII text too
		}
		if !ok {
			return nil, pyrt.Errorf("TypeError", "%s with '%s' codec failed (TypeError: a bytes-like object is required, not '%s')", op, encoding, pyrt.TypeName(obj))
		}
		if enc {
			if err := b.Alloc(2 * int64(len(data))); err != nil {
				return nil, err
			}
			return interp.Bytes(hex.EncodeToString([]byte(data))), nil
		}
		if err := b.Alloc(int64(len(data)) / 2); err != nil {
			return nil, err
		}
		out, err := hex.DecodeString(data)
		if err != nil {
			msg := "Non-hexadecimal digit found"
			if len(data)%2 == 1 {
				msg = "Odd-length string"
			}
			v, err := m.binErr.CallInternal(thread, starlark.Tuple{starlark.String(fmt.Sprintf("%s with '%s' codec failed (Error: %s)", op, encoding, msg))}, nil)
			if err != nil {
				return nil, err
			}
			return nil, v.(*pyrt.ExcValue).Error()
		}
		return interp.Bytes(out), nil
	case "base64":
		if _, ok := interp.AsBytes(obj); !ok {
			return nil, pyrt.Errorf("TypeError", "%s with '%s' codec failed (TypeError: expected bytes-like object, not %s)", op, encoding, pyrt.TypeName(obj))
		}
		f := m.decodebytes
		if enc {
			f = m.encodebytes
		}
		return starlark.Call(thread, f, starlark.Tuple{obj}, nil)
	}
	if enc {
		s, ok := interp.AsText(obj)
		if !ok {
			if _, err := pyrt.LookupCodec(encoding); err != nil {
				return nil, err
			}
			return nil, pyrt.Errorf("TypeError", "encoding with '%s' codec failed (TypeError: %s() argument 1 must be str, not %s)", encoding, coderName(encoding, "encode"), pyrt.TypeName(obj))
		}
		out, err := pyrt.EncodeWith(b, s, encoding, errs)
		if err != nil {
			return nil, err
		}
		return interp.Bytes(out), nil
	}
	data, ok := interp.AsBytes(obj)
	if !ok {
		if _, err := pyrt.LookupCodec(encoding); err != nil {
			return nil, err
		}
		return nil, pyrt.Errorf("TypeError", "decoding with '%s' codec failed (TypeError: a bytes-like object is required, not '%s')", encoding, pyrt.TypeName(obj))
	}
	out, err := pyrt.DecodeWith(b, data, encoding, errs)
	if err != nil {
		return nil, err
	}
	return interp.MakeString(out), nil
}

// coderName is the name of CPython's function that encodes (op) by the
// codec: utf_8_encode, latin_1_encode, charmap_encode.
func coderName(encoding, op string) string {
	c, err := pyrt.LookupCodec(encoding)
	if err != nil {
		return op
	}
	n := strings.ReplaceAll(c.Name(), "-", "_")
	switch {
	case n == "iso8859_1":
		n = "latin_1"
	case n == "utf_8_sig":
		n = "utf_8"
	case strings.HasPrefix(n, "utf_") || n == "ascii":
	default:
		n = "charmap"
	}
	return n + "_" + op
}

func rot13(r rune) rune {
	switch {
	case r >= 'a' && r <= 'z':
		return 'a' + (r-'a'+13)%26
	case r >= 'A' && r <= 'Z':
		return 'A' + (r-'A'+13)%26
	}
	return r
}

// lookup is codecs.lookup(encoding): its CodecInfo.
func (m *codecsModule) lookup(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var enc starlark.Value
	if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &enc); err != nil {
		return nil, err
	}
	s, ok := interp.AsText(enc)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "lookup() argument must be str, not %s", pyrt.TypeName(enc))
	}
	return m.info(s)
}

// info is the CodecInfo of the codec named s.
func (m *codecsModule) info(s string) (*codecInfo, error) {
	if bc := byteCodec(s); bc != "" {
		return &codecInfo{m: m, given: s, name: map[string]string{"hex": "hex", "base64": "base64", "rot13": "rot-13"}[bc]}, nil
	}
	c, err := pyrt.LookupCodec(s)
	if err != nil {
		return nil, err
	}
	return &codecInfo{m: m, given: s, name: c.Name(), c: c}, nil
}

// getCoder is getencoder(encoding) and getdecoder(encoding): the
// CodecInfo's encode or decode.
func (m *codecsModule) getCoder(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	ci, err := m.lookup(thread, name, args, kwargs)
	if err != nil {
		return nil, err
	}
	return ci.(*codecInfo).Attr(strings.TrimSuffix(strings.TrimPrefix(name, "get"), "r"))
}

// getIncremental is getincrementalencoder(encoding) and
// getincrementaldecoder(encoding): the class of its incremental coder.
func (m *codecsModule) getIncremental(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	ci, err := m.lookup(thread, name, args, kwargs)
	if err != nil {
		return nil, err
	}
	return ci.(*codecInfo).Attr(strings.TrimPrefix(name, "get"))
}

// iterCode is iterencode(iterator, encoding, errors='strict') and
// iterdecode: the pieces coded one by one, lazily, through an
// incremental coder.
func (m *codecsModule) iterCode(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var src, enc starlark.Value
	var errs starlark.Value = starlark.String("strict")
	if err := starlark.UnpackArgs(name, args, kwargs, "iterator", &src, "encoding", &enc, "errors?", &errs); err != nil {
		return nil, err
	}
	encoding, err := codecText(name, "encoding", enc)
	if err != nil {
		return nil, err
	}
	e, err := codecText(name, "errors", errs)
	if err != nil {
		return nil, err
	}
	c, err := pyrt.LookupCodec(encoding)
	if err != nil {
		return nil, err
	}
	next, err := pyrt.Iterate(thread, src)
	if err != nil {
		return nil, err
	}
	coder := &incCoder{c: c, given: encoding, errs: e, enc: name == "iterencode"}
	coder.reset()
	done := false
	return pyrt.NewIterator(thread, "generator", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		for !done {
			v, ok, err := next()
			if err != nil {
				return nil, false, err
			}
			final := !ok
			if final {
				done = true
				v = starlark.String("")
				if !coder.enc {
					v = interp.Bytes("")
				}
			}
			out, err := coder.code(thread, v, final)
			if err != nil {
				return nil, false, err
			}
			// As CPython's: empty pieces are not yielded.
			if s, _ := interp.AsText(out); s != "" {
				return out, true, nil
			}
			if s, _ := interp.AsBytes(out); s != "" {
				return out, true, nil
			}
		}
		return nil, false, nil
	}, src), nil
}

// codecInfo is codecs.CodecInfo: a codec's name and functions.
type codecInfo struct {
	m     *codecsModule
	given string      // the name the program gave
	name  string      // the codec's own
	c     *pyrt.Codec // nil for hex, base64 and rot13
}

func (ci *codecInfo) String() string {
	return fmt.Sprintf("<codecs.CodecInfo object for encoding %s>", ci.name)
}
func (ci *codecInfo) Type() string          { return "CodecInfo" }
func (ci *codecInfo) Freeze()               {}
func (ci *codecInfo) Truth() starlark.Bool  { return true }
func (ci *codecInfo) Hash() (uint32, error) { return starlark.String(ci.name).Hash() }
func (ci *codecInfo) AttrNames() []string {
	return []string{"decode", "encode", "incrementaldecoder", "incrementalencoder", "name"}
}

func (ci *codecInfo) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(ci.name), nil
	case "encode", "decode":
		// f(input, errors='strict') -> (output, length consumed)
		enc := name == "encode"
		return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var in starlark.Value
			var errs starlark.Value = starlark.String("strict")
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &in, &errs); err != nil {
				return nil, err
			}
			e, err := codecText(b.Name(), "errors", errs)
			if err != nil {
				return nil, err
			}
			out, err := ci.m.code(thread, in, ci.given, e, enc)
			if err != nil {
				return nil, err
			}
			n := 0
			if s, ok := interp.AsText(in); ok {
				n = starlark.Len(interp.MakeString(s))
			} else if s, ok := interp.AsBytes(in); ok {
				n = len(s)
			}
			return starlark.Tuple{out, starlark.MakeInt(n)}, nil
		}), nil
	case "incrementalencoder", "incrementaldecoder":
		if ci.c == nil {
			return nil, pyrt.Errorf("NotImplementedError", "codecs: an incremental %s of %s is not available here: use codecs.%s", strings.TrimPrefix(name, "incremental"), ci.name, strings.TrimSuffix(strings.TrimPrefix(name, "incremental"), "r"))
		}
		enc := name == "incrementalencoder"
		cls := "IncrementalDecoder"
		if enc {
			cls = "IncrementalEncoder"
		}
		return interp.NewBuiltin(cls, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var errs starlark.Value = starlark.String("strict")
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "errors?", &errs); err != nil {
				return nil, err
			}
			e, err := codecText(b.Name(), "errors", errs)
			if err != nil {
				return nil, err
			}
			coder := &incCoder{c: ci.c, given: ci.given, errs: e, enc: enc}
			coder.reset()
			return coder, nil
		}), nil
	}
	return nil, nil
}

// incCoder is an IncrementalEncoder or IncrementalDecoder: encode(input,
// final=False) or decode(input, final=False) of a stream in pieces, a
// BOM written or read once at its start.
type incCoder struct {
	c     *pyrt.Codec
	given string
	errs  string
	enc   bool
	dec   *pyrt.Decoder
	encr  *pyrt.Encoder
}

func (ic *incCoder) reset() {
	if ic.enc {
		ic.encr = pyrt.NewEncoder(ic.c, ic.errs, false)
	} else {
		ic.dec = pyrt.NewDecoder(ic.c, ic.errs)
	}
}

func (ic *incCoder) kind() string {
	if ic.enc {
		return "IncrementalEncoder"
	}
	return "IncrementalDecoder"
}

func (ic *incCoder) String() string {
	return fmt.Sprintf("<encodings.%s.%s object>", strings.ReplaceAll(ic.c.Name(), "-", "_"), ic.kind())
}
func (ic *incCoder) Type() string          { return ic.kind() }
func (ic *incCoder) Freeze()               {}
func (ic *incCoder) Truth() starlark.Bool  { return true }
func (ic *incCoder) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: %s", ic.kind()) }
func (ic *incCoder) AttrNames() []string {
	if ic.enc {
		return []string{"encode", "errors", "reset"}
	}
	return []string{"decode", "errors", "reset"}
}

func (ic *incCoder) Attr(name string) (starlark.Value, error) {
	switch name {
	case "errors":
		return starlark.String(ic.errs), nil
	case "reset":
		return interp.NewBuiltin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
				return nil, err
			}
			ic.reset()
			return starlark.None, nil
		}), nil
	case "encode", "decode":
		if (name == "encode") != ic.enc {
			return nil, nil
		}
		return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var in starlark.Value
			final := false
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "input", &in, "final?", &final); err != nil {
				return nil, err
			}
			return ic.code(thread, in, final)
		}), nil
	}
	return nil, nil
}

// code is the next piece of the stream, coded.
func (ic *incCoder) code(thread *starlark.Thread, in starlark.Value, final bool) (starlark.Value, error) {
	b := interp.BudgetOf(thread)
	if ic.enc {
		s, ok := interp.AsText(in)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "%s() argument 1 must be str, not %s", coderName(ic.given, "encode"), pyrt.TypeName(in))
		}
		out, err := ic.encr.Encode(b, s)
		if err != nil {
			return nil, err
		}
		return interp.Bytes(out), nil
	}
	data, ok := interp.AsBytes(in)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "a bytes-like object is required, not '%s'", pyrt.TypeName(in))
	}
	out, err := ic.dec.Decode(b, data, final)
	if err != nil {
		return nil, err
	}
	return interp.MakeString(out), nil
}

func isASCIIText(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
