package pyrt

import (
	"strings"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
)

// The text encodings of str.encode, bytes.decode, open(encoding=) and
// the codecs module: CPython's codecs that programs meet in real files,
// by the names and aliases CPython gives them. The single-byte tables
// are golang.org/x/text's (charmap); where CPython's tables differ from
// them (bytes CPython leaves undefined, the C1 controls of ISO-8859),
// the difference is written down here and checked against CPython's
// tables by TestCodecTables.

// codecKind is how a codec turns characters into bytes.
type codecKind uint8

const (
	kindUTF8 codecKind = iota
	kindUTF8Sig
	kindASCII
	kindLatin1
	kindUTF16
	kindUTF32
	kindCharmap
)

// Byte orders of UTF-16 and UTF-32: bomOrder reads a BOM (and writes one,
// little-endian, CPython's native order here).
const (
	bomOrder = iota
	littleEndian
	bigEndian
)

// Codec is one text encoding.
type Codec struct {
	name  string // codecs.lookup(x).name
	kind  codecKind
	order int8             // UTF-16 and UTF-32
	cm    *charmap.Charmap // kindCharmap
	c1    bool             // ISO-8859: bytes 0x80-0x9f are the C1 controls
	undef rune             // a character x/text's table has and CPython's does not (0: none)
}

// Name is the codec's name as codecs.lookup(x).name gives it.
func (c *Codec) Name() string { return c.name }

// IsUTF8 reports whether the codec is plain UTF-8 (no BOM).
func (c *Codec) IsUTF8() bool { return c.kind == kindUTF8 }

// errName is the codec's name in the texts of its errors: CPython's
// charmap codecs all say 'charmap'.
func (c *Codec) errName(order int8) string {
	switch c.kind {
	case kindUTF8, kindUTF8Sig:
		return "utf-8"
	case kindASCII:
		return "ascii"
	case kindLatin1:
		return "latin-1"
	case kindCharmap:
		return "charmap"
	}
	base := "utf-16"
	if c.kind == kindUTF32 {
		base = "utf-32"
	}
	if order == bigEndian {
		return base + "-be"
	}
	return base + "-le"
}

// bom is the byte-order mark the codec writes at the start of a stream
// ("" for none).
func (c *Codec) bom() string {
	switch {
	case c.kind == kindUTF8Sig:
		return "\xef\xbb\xbf"
	case c.kind == kindUTF16 && c.order == bomOrder:
		return "\xff\xfe"
	case c.kind == kindUTF32 && c.order == bomOrder:
		return "\xff\xfe\x00\x00"
	}
	return ""
}

// MayFail reports whether the codec has characters it cannot encode
// (ASCII, Latin-1 and the single-byte code pages).
func (c *Codec) MayFail() bool {
	return c.kind == kindASCII || c.kind == kindLatin1 || c.kind == kindCharmap
}

// WritesBOM reports whether the codec writes a byte-order mark at the
// start of what it encodes (utf-8-sig, utf-16, utf-32).
func (c *Codec) WritesBOM() bool { return c.bom() != "" }

// codecTable maps the normalised names of every codec (see
// normalizeEncoding) to it. It is built once and never changed.
var codecTable = buildCodecs()

func buildCodecs() map[string]*Codec {
	t := map[string]*Codec{}
	add := func(c *Codec, names ...string) {
		for _, n := range names {
			t[n] = c
		}
	}
	// The aliases are CPython 3.11's (encodings.aliases), and each
	// codec's module name.
	add(&Codec{name: "utf-8", kind: kindUTF8}, "utf_8", "utf8", "u8", "utf", "cp65001", "utf8_ucs2", "utf8_ucs4")
	add(&Codec{name: "utf-8-sig", kind: kindUTF8Sig}, "utf_8_sig")
	add(&Codec{name: "ascii", kind: kindASCII}, "ascii", "us_ascii", "us", "646", "cp367", "csascii", "ibm367", "iso646_us",
		"iso_646.irv_1991", "iso_ir_6", "ansi_x3.4_1968", "ansi_x3_4_1968", "ansi_x3.4_1986")
	add(&Codec{name: "iso8859-1", kind: kindLatin1}, "latin_1", "latin1", "latin", "l1", "iso8859_1", "iso_8859_1", "iso8859",
		"8859", "cp819", "ibm819", "csisolatin1", "iso_ir_100", "iso_8859_1_1987")
	add(&Codec{name: "utf-16", kind: kindUTF16}, "utf_16", "utf16", "u16")
	add(&Codec{name: "utf-16-le", kind: kindUTF16, order: littleEndian}, "utf_16_le", "utf_16le", "unicodelittleunmarked")
	add(&Codec{name: "utf-16-be", kind: kindUTF16, order: bigEndian}, "utf_16_be", "utf_16be", "unicodebigunmarked")
	add(&Codec{name: "utf-32", kind: kindUTF32}, "utf_32", "utf32", "u32")
	add(&Codec{name: "utf-32-le", kind: kindUTF32, order: littleEndian}, "utf_32_le", "utf_32le")
	add(&Codec{name: "utf-32-be", kind: kindUTF32, order: bigEndian}, "utf_32_be", "utf_32be")
	cm := func(name string, m *charmap.Charmap, names ...string) {
		add(&Codec{name: name, kind: kindCharmap, cm: m, c1: strings.HasPrefix(name, "iso8859")},
			append(names, strings.ReplaceAll(name, "-", "_"))...)
	}
	cm("cp437", charmap.CodePage437, "437", "cspc8codepage437", "ibm437")
	cm("cp850", charmap.CodePage850, "850", "cspc850multilingual", "ibm850")
	cm("cp866", charmap.CodePage866, "866", "csibm866", "ibm866")
	cm("cp1250", charmap.Windows1250, "1250", "windows_1250")
	cm("cp1251", charmap.Windows1251, "1251", "windows_1251")
	cm("cp1252", charmap.Windows1252, "1252", "windows_1252")
	cm("cp1253", charmap.Windows1253, "1253", "windows_1253")
	cm("cp1254", charmap.Windows1254, "1254", "windows_1254")
	cm("cp1256", charmap.Windows1256, "1256", "windows_1256")
	cm("cp1257", charmap.Windows1257, "1257", "windows_1257")
	cm("cp1258", charmap.Windows1258, "1258", "windows_1258")
	// CPython's cp1255 leaves 0xca undefined; x/text maps it to U+05BA.
	add(&Codec{name: "cp1255", kind: kindCharmap, cm: charmap.Windows1255, undef: 0x05ba}, "cp1255", "1255", "windows_1255")
	cm("koi8-r", charmap.KOI8R, "cskoi8r")
	cm("mac-roman", charmap.Macintosh, "macintosh", "macroman")
	cm("iso8859-2", charmap.ISO8859_2, "csisolatin2", "iso_8859_2", "iso_8859_2_1987", "iso_ir_101", "l2", "latin2")
	cm("iso8859-3", charmap.ISO8859_3, "csisolatin3", "iso_8859_3", "iso_8859_3_1988", "iso_ir_109", "l3", "latin3")
	cm("iso8859-4", charmap.ISO8859_4, "csisolatin4", "iso_8859_4", "iso_8859_4_1988", "iso_ir_110", "l4", "latin4")
	cm("iso8859-5", charmap.ISO8859_5, "csisolatincyrillic", "cyrillic", "iso_8859_5", "iso_8859_5_1988", "iso_ir_144")
	cm("iso8859-6", charmap.ISO8859_6, "arabic", "asmo_708", "csisolatinarabic", "ecma_114", "iso_8859_6", "iso_8859_6_1987", "iso_ir_127")
	cm("iso8859-7", charmap.ISO8859_7, "csisolatingreek", "ecma_118", "elot_928", "greek", "greek8", "iso_8859_7", "iso_8859_7_1987", "iso_ir_126")
	cm("iso8859-8", charmap.ISO8859_8, "csisolatinhebrew", "hebrew", "iso_8859_8", "iso_8859_8_1988", "iso_ir_138")
	cm("iso8859-9", charmap.ISO8859_9, "csisolatin5", "iso_8859_9", "iso_8859_9_1989", "iso_ir_148", "l5", "latin5")
	cm("iso8859-10", charmap.ISO8859_10, "csisolatin6", "iso_8859_10", "iso_8859_10_1992", "iso_ir_157", "l6", "latin6")
	// ISO-8859-11 is Windows-874 without its additions in 0x80-0x9f.
	cm("iso8859-11", charmap.Windows874, "iso_8859_11", "iso_8859_11_2001", "thai")
	cm("iso8859-13", charmap.ISO8859_13, "iso_8859_13", "l7", "latin7")
	cm("iso8859-14", charmap.ISO8859_14, "iso_8859_14", "iso_8859_14_1998", "iso_celtic", "iso_ir_199", "l8", "latin8")
	cm("iso8859-15", charmap.ISO8859_15, "iso_8859_15", "l9", "latin9")
	cm("iso8859-16", charmap.ISO8859_16, "iso_8859_16", "iso_8859_16_2001", "iso_ir_226", "l10", "latin10")
	return t
}

// normalizeEncoding is CPython's encodings.normalize_encoding, lower
// cased: each run of characters other than letters, digits and '.'
// becomes one '_', none at the ends.
func normalizeEncoding(name string) string {
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
	return b.String()
}

// LookupCodec finds an encoding by any of the names CPython gives it,
// spelled as CPython allows: any case, '-', ' ' or '_' between words.
// An encoding onetool lacks is CPython's LookupError.
func LookupCodec(name string) (*Codec, error) {
	n := normalizeEncoding(name)
	if c, ok := codecTable[n]; ok {
		return c, nil
	}
	if _, err := htmlindex.Get(name); err == nil {
		// An encoding CPython has and onetool does not (the CJK ones).
		return nil, exception("LookupError", "unknown encoding: %s (onetool has utf-8, utf-8-sig, utf-16, utf-32, ascii, latin-1, "+
			"cp1250-cp1258, cp437, cp850, cp866, iso8859-2 to -16, koi8-r and mac-roman)", name)
	}
	return nil, exception("LookupError", "unknown encoding: %s", name)
}

// decodeByte is the character byte x stands for in a charmap codec, and
// whether it stands for one.
func (c *Codec) decodeByte(x byte) (rune, bool) {
	if x < 0x80 {
		return rune(x), true
	}
	if c.c1 && x < 0xa0 {
		return rune(x), true
	}
	r := c.cm.DecodeByte(x)
	if r == 0xfffd || r == c.undef && r != 0 {
		return 0, false
	}
	return r, true
}

// encodeRune is the byte of a charmap codec for r, and whether it has one.
func (c *Codec) encodeRune(r rune) (byte, bool) {
	if r < 0x80 {
		return byte(r), true
	}
	if c.c1 && r < 0xa0 {
		return byte(r), true
	}
	if r == 0xfffd || r == c.undef && r != 0 {
		return 0, false
	}
	x, ok := c.cm.EncodeRune(r)
	if c.c1 && x >= 0x80 && x < 0xa0 { // Windows-874's additions
		return 0, false
	}
	return x, ok
}
