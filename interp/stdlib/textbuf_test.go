package stdlib

import (
	"strings"
	"testing"
)

// textBuf keeps a long text in pieces and joins them in order: writes of
// every size, across the pieces' edges, give the text a strings.Builder
// gives.
func TestTextBufPieces(t *testing.T) {
	var w textBuf
	defer w.done()
	var want strings.Builder
	for i := 0; want.Len() < 3*textPiece+12345; i++ {
		switch i % 4 {
		case 0:
			s := strings.Repeat(string(rune('a'+i%26)), i*97%(textPiece+3000))
			want.WriteString(s)
			if err := w.WriteString(s); err != nil {
				t.Fatal(err)
			}
		case 1:
			want.WriteByte(byte('0' + i%10))
			if err := w.WriteByte(byte('0' + i%10)); err != nil {
				t.Fatal(err)
			}
		case 2:
			want.WriteRune('é')
			if err := w.WriteRune('é'); err != nil {
				t.Fatal(err)
			}
		case 3:
			want.WriteString("")
			if err := w.WriteString(""); err != nil {
				t.Fatal(err)
			}
		}
		if w.Len() != want.Len() {
			t.Fatalf("after %d writes: Len %d, want %d", i+1, w.Len(), want.Len())
		}
	}
	if len(w.pieces) < 3 {
		t.Fatalf("%d pieces for %d bytes", len(w.pieces), w.Len())
	}
	got, err := w.Text()
	if err != nil {
		t.Fatal(err)
	}
	if got != want.String() {
		t.Fatalf("text of %d bytes differs from what was written (%d bytes)", len(got), want.Len())
	}
}
