package pyrt

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestDifferentialCodecs checks str.encode and bytes.decode over every
// codec, its names, handlers and errors against CPython
// (testdata/codecs_cases.txt; regenerate the answers with
// go test ./interp/pyrt -run DifferentialCodecs -update).
func TestDifferentialCodecs(t *testing.T) {
	g := testGlobals()
	pydiff.Check(t, "testdata/codecs_cases.txt", *update, func(code string) pydiff.Outcome {
		return Eval(code, g)
	})
}

// Each charmap codec encodes as the inverse of its decoding table, as
// CPython's do (their encoding maps are built from the decoding tables):
// every character a byte decodes to encodes to that byte, and no other
// character encodes at all. (The decoding tables themselves are
// compared with CPython's in codecs_cases.txt.)
func TestCodecTables(t *testing.T) {
	seen := map[*Codec]bool{}
	for name, c := range codecTable {
		if c.kind != kindCharmap || seen[c] {
			continue
		}
		seen[c] = true
		inverse := map[rune]byte{}
		for x := 0; x < 256; x++ {
			if r, ok := c.decodeByte(byte(x)); ok {
				inverse[r] = byte(x)
			}
		}
		for r := rune(0); r < 0x30000; r++ {
			x, ok := c.encodeRune(r)
			want, has := inverse[r]
			if ok != has || ok && x != want {
				t.Errorf("%s: U+%04X encodes to %#x, %v; its table says %#x, %v", name, r, x, ok, want, has)
			}
		}
	}
}

// A piece-by-piece decode (a file read in chunks) gives what decoding the
// whole does, wherever the pieces are cut: no character is broken at a
// cut and a BOM is read once.
func TestDecoderPieces(t *testing.T) {
	texts := []string{"", "a", "héllo wörld € 😀 日本語\n", "\ufeffstarts with a BOM", strings.Repeat("x😀é", 20)}
	for _, name := range []string{"utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"} {
		c, err := LookupCodec(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			data, err := EncodeText(nil, c, text, "strict", true)
			if err != nil {
				t.Fatal(err)
			}
			for cut := 1; cut <= 7; cut++ {
				d := NewDecoder(c, "strict")
				var got strings.Builder
				for i := 0; i < len(data); i += cut {
					piece, err := d.Decode(nil, data[i:min(i+cut, len(data))], false)
					if err != nil {
						t.Fatalf("%s, pieces of %d: %v", name, cut, err)
					}
					got.WriteString(piece)
				}
				rest, err := d.Decode(nil, "", true)
				if err != nil {
					t.Fatalf("%s, pieces of %d, at the end: %v", name, cut, err)
				}
				got.WriteString(rest)
				if got.String() != text {
					t.Errorf("%s, pieces of %d: got %q, want %q", name, cut, got.String(), text)
				}
			}
		}
	}
}

// FuzzDecode: any bytes, by any codec and handler, decode without a
// panic; pieces decode as the whole does; what decodes strictly encodes
// back to the same bytes (for the codecs without a BOM to read).
func FuzzDecode(f *testing.F) {
	f.Add([]byte("plain"), uint8(0), uint8(3))
	f.Add([]byte("\xff\xfea\x00\x00\xd8"), uint8(4), uint8(1))
	f.Add([]byte("\x00\xd8\x00\xdc\x00\xdc"), uint8(5), uint8(2))
	f.Add([]byte("\xef\xbb\xbf\xc3\xa9\xe2\x82"), uint8(1), uint8(7))
	f.Add([]byte("\x81\x8d\xff\x00"), uint8(9), uint8(5))
	names := []string{"utf-8", "utf-8-sig", "ascii", "latin-1", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le",
		"utf-32-be", "cp1252", "cp1251", "cp437", "cp850", "koi8-r", "mac-roman", "iso8859-3", "iso8859-11", "cp1255"}
	handlers := []string{"strict", "replace", "ignore", "backslashreplace"}
	f.Fuzz(func(t *testing.T, data []byte, which, cut uint8) {
		c, err := LookupCodec(names[int(which)%len(names)])
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range handlers {
			whole, werr := NewDecoder(c, h).Decode(nil, string(data), true)
			if h != "strict" && werr != nil {
				t.Fatalf("%s/%s: %v", c.name, h, werr)
			}
			if !utf8.ValidString(whole) {
				t.Fatalf("%s/%s: invalid UTF-8 %q", c.name, h, whole)
			}
			if h == "replace" && cut > 0 {
				d := NewDecoder(c, h)
				var got strings.Builder
				for i := 0; i < len(data); i += int(cut) {
					piece, err := d.Decode(nil, string(data[i:min(i+int(cut), len(data))]), false)
					if err != nil {
						t.Fatal(err)
					}
					got.WriteString(piece)
				}
				rest, _ := d.Decode(nil, "", true)
				got.WriteString(rest)
				// Errors may fall differently across cuts only where
				// CPython's would too (a truncated tail); valid input
				// must agree.
				if werr == nil && !strings.ContainsRune(whole, utf8.RuneError) && got.String() != whole {
					t.Fatalf("%s in pieces of %d: %q, whole: %q", c.name, cut, got.String(), whole)
				}
			}
			if h == "strict" && werr == nil && !c.WritesBOM() {
				back, err := EncodeText(nil, c, whole, "strict", false)
				if err != nil || back != string(data) {
					t.Fatalf("%s: %q decodes to %q, which encodes to %q (%v)", c.name, data, whole, back, err)
				}
			}
		}
	})
}
