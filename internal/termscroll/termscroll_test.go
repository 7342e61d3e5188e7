package termscroll

import (
	"bytes"
	"strings"
	"testing"
)

func TestWriter(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text\r\n", "plain text\r\n"},
		{"\x1b[B", "\x1bD"},
		{"\x1b[1B", "\x1bD"},
		{"\x1b[0B", "\x1bD"},
		{"\x1b[3B", "\x1bD\x1bD\x1bD"},
		{"a\x1b[1Bb\x1b[0J\x1b[1Ac", "a\x1bDb\x1b[0J\x1b[1Ac"},
		{"\x1b[2A\x1b[4C\x1b[?25l\x1b[38;5;242m", "\x1b[2A\x1b[4C\x1b[?25l\x1b[38;5;242m"}, // other controls pass
		{"\x1b[1;2B", "\x1b[1;2B"}, // not a plain cursor-down
		{"\x1bD\x1b7\x1b8", "\x1bD\x1b7\x1b8"},
		{"\x1b[99999999999B", "\x1b[99999999999B"}, // absurd count: passed as it is
		{"\x1b[5000B", strings.Repeat("\x1bD", maxRows)},
		{"\x1b\x1b[1B", "\x1b\x1bD"},
	} {
		var out bytes.Buffer
		w := NewWriter(&out)
		if n, err := w.Write([]byte(c.in)); err != nil || n != len(c.in) {
			t.Errorf("Write(%q) = %d, %v", c.in, n, err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if out.String() != c.want {
			t.Errorf("%q: wrote %q, want %q", c.in, out.String(), c.want)
		}
	}
}

// A control split across writes is rewritten whole, at every split point.
func TestWriterSplit(t *testing.T) {
	in := "ab\x1b[12Bcd\x1b[Be\x1b[1Af\x1b"
	want := "ab" + strings.Repeat("\x1bD", 12) + "cd\x1bDe\x1b[1Af\x1b"
	for i := range len(in) + 1 {
		var out bytes.Buffer
		w := NewWriter(&out)
		w.Write([]byte(in[:i]))
		w.Write([]byte(in[i:]))
		w.Flush()
		if out.String() != want {
			t.Errorf("split at %d: wrote %q, want %q", i, out.String(), want)
		}
	}
}

func FuzzWriter(f *testing.F) {
	f.Add([]byte("a\x1b[2Bb"), 3)
	f.Fuzz(func(t *testing.T, data []byte, split int) {
		if split < 0 || split > len(data) {
			split = len(data)
		}
		var whole, parts bytes.Buffer
		w := NewWriter(&whole)
		w.Write(data)
		w.Flush()
		p := NewWriter(&parts)
		p.Write(data[:split])
		p.Write(data[split:])
		p.Flush()
		if whole.String() != parts.String() {
			t.Fatalf("split at %d: %q vs %q", split, whole.String(), parts.String())
		}
		if bytes.Count(data, []byte{0x1b}) == 0 && whole.String() != string(data) {
			t.Fatalf("text without controls changed: %q -> %q", data, whole.String())
		}
	})
}
