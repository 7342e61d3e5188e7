// Package termscroll makes a line editor's downward cursor moves scroll
// the terminal when they reach its bottom row.
//
// A line editor redraws its input with relative cursor moves: it goes
// down a row (CSI n B, "cursor down") to clear what is below the input,
// then up again. On the bottom row "cursor down" does nothing, while the
// "cursor up" that follows still moves, so the editor ends one row above
// where it thinks it is and its next redraw writes over the line of
// output above the prompt. Writer replaces each "cursor down" by as many
// "index" controls (ESC D), which move down the same way but scroll the
// screen at the bottom row: the rows the editor counts on then exist, and
// what was printed before the prompt scrolls up instead of being
// overwritten. Every other byte passes through unchanged.
package termscroll

import (
	"bytes"
	"io"
	"strconv"
)

// index is IND: down one row in the same column, scrolling at the bottom
// margin (VT100; every terminal emulator in use has it).
const index = "\x1bD"

// maxRows bounds the rows one "cursor down" may ask for: a terminal has
// far fewer, and a huge count must not become a huge write.
const maxRows = 1000

// Writer rewrites "cursor down" controls on their way to W. A control
// split across writes is held back until its end arrives.
type Writer struct {
	w       io.Writer
	pending []byte // the start of a control sequence, not yet complete
	out     []byte
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write rewrites p and writes it, reporting len(p) on success.
func (t *Writer) Write(p []byte) (int, error) {
	t.out = t.out[:0]
	data := p
	if len(t.pending) > 0 {
		data = append(t.pending, p...)
		t.pending = nil
	}
	for len(data) > 0 {
		i := bytes.IndexByte(data, 0x1b)
		if i < 0 {
			t.out = append(t.out, data...)
			break
		}
		t.out = append(t.out, data[:i]...)
		data = data[i:]
		n, rows, complete := cursorDown(data)
		if !complete {
			t.pending = append([]byte(nil), data...)
			break
		}
		if n == 0 { // not a cursor-down: pass the ESC on, scan after it
			t.out = append(t.out, data[0])
			data = data[1:]
			continue
		}
		for range rows {
			t.out = append(t.out, index...)
		}
		data = data[n:]
	}
	if len(t.out) > 0 {
		if _, err := t.w.Write(t.out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes a control sequence held back at the end of the stream as
// it is.
func (t *Writer) Flush() error {
	if len(t.pending) == 0 {
		return nil
	}
	_, err := t.w.Write(t.pending)
	t.pending = nil
	return err
}

// cursorDown looks at data, which starts with ESC. If it starts with
// "cursor down" (ESC [ digits B), n is its length and rows the rows it
// moves (an absent or zero count is one row); n is 0 for anything else.
// complete is false when data ends before it can tell.
func cursorDown(data []byte) (n, rows int, complete bool) {
	if len(data) < 2 {
		return 0, 0, false
	}
	if data[1] != '[' {
		return 0, 0, true
	}
	j := 2
	for j < len(data) && data[j] >= '0' && data[j] <= '9' {
		j++
	}
	if j == len(data) {
		return 0, 0, j-2 > 8 // wait for the end, unless the count is already too long to be ours
	}
	if data[j] != 'B' || j-2 > 8 {
		return 0, 0, true
	}
	rows = 1
	if j > 2 {
		rows, _ = strconv.Atoi(string(data[2:j]))
		rows = max(1, min(rows, maxRows))
	}
	return j + 1, rows, true
}
