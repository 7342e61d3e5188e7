package results

import (
	"bytes"
	"encoding/binary"
	"sort"
	"strings"
	"unicode/utf8"
)

// A stored result marks, every lineStride lines and at least every
// chunkBytes bytes, where it is in bytes, lines and characters: a page
// finds its first line or character by scanning from the mark before it
// (at most a chunk or a stride), so paging costs what a page costs
// however long the result, and the marks cost a few bytes each, where a
// slice of lines would cost 16 bytes per line.
const (
	lineStride = 256
	chunkBytes = 16 << 10
)

// mark is a position in a result's text: byte offset (a character's
// first byte), lines before it (0-based line index) and characters before it.
type mark struct{ byte, line, char int }

// stored is a result as the store keeps it: encoded once by encode, and
// read in place by decode (the text is not copied out of the store's
// bytes).
type stored struct {
	text  []byte
	lines int    // newlines + 1
	chars int    // characters (an invalid byte counts as one, as utf8 decodes it)
	marks []mark // marks[0] is {0, 0, 0}; increasing
}

// format is the first byte of an encoded result: a replica that meets
// another layout (an older or newer onetool sharing a Redis) says so
// instead of misreading it. 1 marked lines only.
const format = 2

// encode lays out a result as: format byte, line count, character count,
// mark count, marks as differences from the one before (all uvarints),
// then the text. A custom layout rather than JSON or gob: the text, up to
// 256 MiB, is copied once and never escaped.
func encode(text string) []byte {
	marks := []mark{{}}
	last := mark{}
	line := 0
	// Characters are counted in long spans, up to each mark: counting
	// them line by line costs more than finding the lines.
	counted, char := 0, 0
	at := func(i int) {
		char += utf8.RuneCountInString(text[counted:i])
		counted = i
		last = mark{i, line, char}
		marks = append(marks, last)
	}
	for i := 0; i < len(text); {
		limit := min(len(text), last.byte+chunkBytes)
		if nl := strings.IndexByte(text[i:limit], '\n'); nl >= 0 {
			i += nl + 1
			line++
			if line-last.line >= lineStride && i < len(text) {
				at(i)
			}
			continue
		}
		i = runeStart(text, limit, i)
		if i < len(text) {
			at(i)
		}
	}
	char += utf8.RuneCountInString(text[counted:])
	b := make([]byte, 0, 1+binary.MaxVarintLen64*(3+3*len(marks))+len(text))
	b = append(b, format)
	b = binary.AppendUvarint(b, uint64(line+1))
	b = binary.AppendUvarint(b, uint64(char))
	b = binary.AppendUvarint(b, uint64(len(marks)))
	prev := mark{}
	for _, m := range marks {
		b = binary.AppendUvarint(b, uint64(m.byte-prev.byte))
		b = binary.AppendUvarint(b, uint64(m.line-prev.line))
		b = binary.AppendUvarint(b, uint64(m.char-prev.char))
		prev = m
	}
	return append(b, text...)
}

// runeStart is a position at or before j, after i, where utf8 decoding of
// text from i starts a character: a byte that is not a continuation byte
// always is (a character never takes one in), and so is a continuation
// byte with three more before it (no character is that long). When none
// is after i, the end of the character at i.
func runeStart(text string, j, i int) int {
	if j >= len(text) {
		return len(text)
	}
	for k := j; k > i && k > j-utf8.UTFMax; k-- {
		if utf8.RuneStart(text[k]) {
			return k
		}
	}
	if j-i >= utf8.UTFMax {
		return j
	}
	_, n := utf8.DecodeRuneInString(text[i:])
	return i + n
}

func decode(b []byte) (*stored, error) {
	if len(b) == 0 || b[0] != format {
		return nil, errBadResult
	}
	b = b[1:]
	next := func() (int, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > uint64(len(b))+1 { // no count or difference exceeds the text
			return 0, false
		}
		b = b[n:]
		return int(v), true
	}
	lines, ok1 := next()
	chars, ok2 := next()
	n, ok3 := next()
	if !ok1 || !ok2 || !ok3 || n < 1 || lines < 1 || n > len(b)/3 {
		return nil, errBadResult
	}
	r := &stored{lines: lines, chars: chars, marks: make([]mark, n)}
	prev := mark{}
	for i := range r.marks {
		db, ok1 := next()
		dl, ok2 := next()
		dc, ok3 := next()
		if !ok1 || !ok2 || !ok3 || (i > 0 && db == 0) || (i == 0 && db+dl+dc != 0) {
			return nil, errBadResult
		}
		prev = mark{prev.byte + db, prev.line + dl, prev.char + dc}
		r.marks[i] = prev
	}
	r.text = b
	if prev.byte > len(r.text) || prev.line >= lines || prev.char > chars || lines > len(r.text)+1 || chars > len(r.text) {
		return nil, errBadResult
	}
	return r, nil
}

// before is the last mark for which after is false (after must be false
// for marks[0] and stay true once true).
func (r *stored) before(after func(mark) bool) mark {
	i := sort.Search(len(r.marks), func(i int) bool { return after(r.marks[i]) })
	return r.marks[max(i-1, 0)]
}

// lineStart is the byte offset of line k (0-based, k < r.lines), or
// false for a damaged result whose text has fewer lines.
func (r *stored) lineStart(k int) (int, bool) {
	if k == 0 {
		return 0, true
	}
	m := r.before(func(m mark) bool { return m.line >= k })
	off := m.byte
	for range k - m.line {
		i := bytes.IndexByte(r.text[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	return off, true
}

// charByte is the byte offset of character c (c <= r.chars; r.chars is
// the end of the text).
func (r *stored) charByte(c int) int {
	m := r.before(func(m mark) bool { return m.char > c })
	return advance(r.text, m.byte, c-m.char)
}

// advance is the byte offset n characters after off in text (at most the end).
func advance(text []byte, off, n int) int {
	for ; n > 0 && off < len(text); n-- {
		if text[off] < utf8.RuneSelf {
			off++
			continue
		}
		_, size := utf8.DecodeRune(text[off:])
		off += size
	}
	return off
}

// pos is the line (0-based) and character at byte offset b.
func (r *stored) pos(b int) (line, char int) {
	m := r.before(func(m mark) bool { return m.byte > b })
	b = min(b, len(r.text))
	if b < m.byte {
		return m.line, m.char
	}
	seg := r.text[m.byte:b]
	return m.line + bytes.Count(seg, []byte{'\n'}), m.char + utf8.RuneCount(seg)
}

// line returns the line that starts at off and the offset of the next
// (past the end after the last line).
func (r *stored) line(off int) ([]byte, int) {
	if off > len(r.text) { // only a damaged count of lines gets here
		return nil, off
	}
	i := bytes.IndexByte(r.text[off:], '\n')
	if i < 0 {
		return r.text[off:], len(r.text) + 1
	}
	return r.text[off : off+i], off + i + 1
}
