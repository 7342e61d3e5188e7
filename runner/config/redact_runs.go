package config

import "slices"

// Runs of encoded bytes (see redact.go): hex and base64. Unlike escapes,
// these encode every byte, letters included, so a secret in them has no
// anchor; but an encoded secret is a long unbroken run of the encoding's
// characters, and text without secrets has few such runs. Each run at
// least as long as the shortest needle's encoding is decoded on its own:
//
//	hex     digits of either case, with or without a separator between
//	        groups of bytes (bytes.hex(':'), bytes.hex(' ', 2), and
//	        percent-encoded: %3A): decoded
//	        from its first digit and, without separators, its second;
//	base64  the standard and URL alphabets at once, padding or not, with
//	        MIME line breaks (a real or an escaped \n next to a line of 40
//	        or more characters, a multiple of 4, as base64.encodebytes
//	        writes 76: before it, or after it when reversed), and with
//	        %2B %2F \/ as percent-encoding and JSON may write + and /:
//	        decoded from each of its first four characters, since data
//	        may be glued to the text before it.
//
// Each is decoded forwards and reversed (a program's b64encode(s)[::-1]).

// minMIMELine is the shortest line of base64 after which a line break
// continues the run: base64.encodebytes writes 76 characters a line, PEM
// 64. Shorter lines are ordinary text (a list of words, one a line).
const minMIMELine = 40

// runBuffers hold one run while it is decoded, reused from run to run.
type runBuffers struct {
	vals []byte // the run's values: 6 bits (base64) or 4 (hex) each
	// segs say where the values' characters are in the text: a new
	// segment starts after each break (a line break, a separator) and for
	// each escaped character.
	segs []segment
	tmp  []byte // values in the order decoded
	dec  []byte
	m    runMap // the map of the decoding being searched
}

// segment is a stretch of a run's characters: value val is at text[at],
// each value's character width bytes long and next to the previous one.
type segment struct {
	val, at int32
	width   uint8
}

// b64Val is the value of each base64 character, either alphabet; -1 for
// the rest.
var b64Val = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" {
		t[c] = int8(i)
	}
	t['+'], t['-'], t['/'], t['_'] = 62, 62, 63, 63
	return t
}()

// b64Ish are the bytes a base64 run can hold: its characters, and those
// of the escapes and line breaks it may contain.
var b64Ish = func() (t [256]bool) {
	for i, v := range b64Val {
		t[i] = v >= 0
	}
	t['%'], t['\\'], t['\n'], t['\r'] = true, true, true, true
	return t
}()

// hexVal is the value of each hex digit; -1 for the rest.
var hexVal = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i, c := range "0123456789abcdef" {
		t[c] = int8(i)
	}
	for i, c := range "ABCDEF" {
		t[c] = int8(10 + i)
	}
	return t
}()

// hexIsh are the bytes a hex run can hold: digits and separators.
var hexIsh = func() (t [256]bool) {
	for c := ' '; c <= '~'; c++ {
		t[c] = !isAlnum(byte(c)) || isHexDigit(byte(c))
	}
	return t
}()

func isHexDigit(c byte) bool { return hexVal[c] >= 0 }

// runMap maps a span of a decoded run back to the characters it was
// decoded from.
type runMap struct {
	run   *runBuffers
	bits  int // per value
	first int // index in the run of the first value decoded
	rev   bool
}

func (m *runMap) origin(a, b int) (int, int) {
	i, j := m.index(m.first+8*a/m.bits), m.index(m.first+(8*b-1)/m.bits)
	if i > j {
		i, j = j, i
	}
	start, _ := m.run.at(i)
	at, width := m.run.at(j)
	return start, at + width
}

func (m *runMap) index(k int) int {
	if m.rev {
		return len(m.run.vals) - 1 - k
	}
	return k
}

// at says where the character of value i is in the text, and its length.
func (b *runBuffers) at(i int) (int, int) {
	k, found := slices.BinarySearchFunc(b.segs, int32(i), func(s segment, v int32) int { return int(s.val - v) })
	if !found {
		k--
	}
	s := b.segs[k]
	return int(s.at) + (i-int(s.val))*int(s.width), int(s.width)
}

// eachRun calls fn with each decoding of each run in text that is long
// enough to hold a needle, and stops when fn returns false.
func (s *search) eachRun(text string, level int, fn func(string, spanMap) bool) {
	b := &s.runs[level]
	n := s.r.minNeedle
	if !scanBase64(text, (4*n+2)/3, b, func() bool { return s.decodeRun(b, 6, 4, fn) }) {
		return
	}
	scanHex(text, 2*n, b, func(sep bool) bool {
		firsts := 2
		if sep {
			firsts = 1 // the groups fix where bytes start
		}
		return s.decodeRun(b, 4, firsts, fn)
	})
}

// scanBase64 finds the base64 runs of at least minVals characters in
// text, reads each into b and calls found, until found returns false.
// Rather than read every byte, it looks at the last byte a run that long
// would need (as Boyer–Moore does): where that byte cannot be in a run, no
// run that starts before it is long enough.
func scanBase64(text string, minVals int, b *runBuffers, found func() bool) bool {
	for i := 0; i+minVals <= len(text); {
		p := i + minVals - 1
		if !b64Ish[text[p]] {
			i = p + 1
			continue
		}
		k := p
		for k > i && b64Ish[text[k-1]] {
			k--
		}
		for k <= p {
			// Most stretches of base64 characters are words, ended by a
			// byte that cannot continue them: skip those without
			// collecting.
			j := k
			for j < len(text) && b64Val[text[j]] >= 0 {
				j++
			}
			if j-k < minVals && !joins(text, j, j-k) {
				k = j + 1
				continue
			}
			k = collectBase64(text, k, b)
			if len(b.vals) >= minVals && !found() {
				return false
			}
		}
		i = k
	}
	return true
}

// scanHex is scanBase64 for hex runs of at least minVals digits. A byte
// that is not a digit is in a run only as a separator, between digits (or
// in the %3A of one).
func scanHex(text string, minVals int, b *runBuffers, found func(sep bool) bool) bool {
	for i := 0; i+minVals <= len(text); {
		p := i + minVals - 1
		if !hexRunByte(text, p) {
			i = p + 1
			continue
		}
		k := p
		for k > i && hexRunByte(text, k-1) {
			k--
		}
		for k <= p {
			// Skip stretches of digits too short and not separated,
			// the hex letters of words.
			j := k
			for j < len(text) && isHexDigit(text[j]) {
				j++
			}
			if n := hexSeparator(text, j); j-k < minVals && (n == 0 || j+n >= len(text) || !isHexDigit(text[j+n])) {
				k = j + 1
				continue
			}
			end, sep := collectHex(text, k, b)
			if len(b.vals) >= minVals && !found(sep) {
				return false
			}
			k = end
		}
		i = k
	}
	return true
}

// hexRunByte reports whether text[p] may be in a hex run: a digit, or a
// separator between digits (or in the %3A of one).
func hexRunByte(text string, p int) bool {
	c := text[p]
	if isHexDigit(c) {
		return true
	}
	if p == 0 || p+1 >= len(text) || !hexIsh[c] {
		return false
	}
	return isHexDigit(text[p-1]) || text[p-1] == '%' || p >= 2 && text[p-2] == '%'
}

// decodeRun decodes the run in b, from each of its first firsts values,
// forwards and reversed, and calls fn with each decoding that may hold a
// needle (see textual).
func (s *search) decodeRun(b *runBuffers, bits, firsts int, fn func(string, spanMap) bool) bool {
	for _, rev := range []bool{false, true} {
		vals := b.vals
		if rev {
			b.tmp = append(b.tmp[:0], b.vals...)
			slices.Reverse(b.tmp)
			vals = b.tmp
		}
		for first := range min(firsts, len(vals)) {
			if len(vals[first:])*bits/8 < s.r.minNeedle {
				break
			}
			if !s.r.mayHoldNeedle(vals[first:], bits) {
				continue
			}
			b.dec = decodeValues(b.dec[:0], vals[first:], bits)
			b.m = runMap{run: b, bits: bits, first: first, rev: rev}
			if !fn(string(b.dec), &b.m) {
				return false
			}
		}
	}
	return true
}

// mayHoldNeedle reports whether vals, of bits each, decode to minNeedle
// textual bytes in a row. Most runs are bytes at random and fail: it reads
// single bytes where it needs to (byteAt), looking first at the last byte
// a long enough stretch would need, as scanBase64 does.
func (r *redactor) mayHoldNeedle(vals []byte, bits int) bool {
	n, m := len(vals)*bits/8, r.minNeedle
	for i := 0; i+m <= n; {
		p := i + m - 1
		if !r.textual[byteAt(vals, bits, p)] {
			i = p + 1
			continue
		}
		k := p
		for k > i && r.textual[byteAt(vals, bits, k-1)] {
			k--
		}
		q := p + 1
		for q < n && q-k < m && r.textual[byteAt(vals, bits, q)] {
			q++
		}
		if q-k >= m {
			return true
		}
		i = q + 1
	}
	return false
}

// byteAt is byte j of what vals, of bits each, decode to.
func byteAt(vals []byte, bits, j int) byte {
	if bits == 4 {
		return vals[2*j]<<4 | vals[2*j+1]
	}
	g := 4 * (j / 3)
	switch j % 3 {
	case 0:
		return vals[g]<<2 | vals[g+1]>>4
	case 1:
		return vals[g+1]<<4 | vals[g+2]>>2
	}
	return vals[g+2]<<6 | vals[g+3]
}

// decodeValues appends the bytes that vals of bits each encode, big-endian,
// dropping the bits of an incomplete last byte.
func decodeValues(dst, vals []byte, bits int) []byte {
	if bits == 6 {
		for len(vals) >= 4 {
			v := uint32(vals[0])<<18 | uint32(vals[1])<<12 | uint32(vals[2])<<6 | uint32(vals[3])
			dst = append(dst, byte(v>>16), byte(v>>8), byte(v))
			vals = vals[4:]
		}
	} else {
		for len(vals) >= 2 {
			dst = append(dst, vals[0]<<4|vals[1])
			vals = vals[2:]
		}
	}
	var acc uint32
	n := 0
	for _, v := range vals {
		acc = acc<<bits | uint32(v)
		if n += bits; n >= 8 {
			n -= 8
			dst = append(dst, byte(acc>>n))
		}
	}
	return dst
}

// reset empties b for the next run.
func (b *runBuffers) reset() {
	b.vals, b.segs = b.vals[:0], b.segs[:0]
}

// addRange appends the values of the characters text[from:to], each one
// byte long, with value table val.
func (b *runBuffers) addRange(text string, from, to int, val *[256]int8) {
	b.segs = append(b.segs, segment{val: int32(len(b.vals)), at: int32(from), width: 1})
	for _, c := range []byte(text[from:to]) {
		b.vals = append(b.vals, byte(val[c]))
	}
}

// addEscaped appends the value v of the escaped character text[at:at+width].
func (b *runBuffers) addEscaped(v byte, at, width int) {
	b.segs = append(b.segs, segment{val: int32(len(b.vals)), at: int32(at), width: uint8(width)})
	b.vals = append(b.vals, v)
}

// truncate keeps the first n values.
func (b *runBuffers) truncate(n int) {
	b.vals = b.vals[:n]
	for len(b.segs) > 0 && int(b.segs[len(b.segs)-1].val) >= n {
		b.segs = b.segs[:len(b.segs)-1]
	}
}

// collectBase64 reads the base64 run that starts at text[k] into b, and
// returns where it ends (k+1 when none starts there).
func collectBase64(text string, k int, b *runBuffers) int {
	b.reset()
	line := 0 // characters since the run's start or its last line break
	for k < len(text) {
		j := k
		for j < len(text) && b64Val[text[j]] >= 0 {
			j++
		}
		if j > k {
			b.addRange(text, k, j, &b64Val)
			line += j - k
			k = j
		}
		n, v := joiner(text, k)
		switch {
		case n == 0:
		case v >= 0:
			b.addEscaped(byte(v), k, n)
			k += n
			line++
			continue
		case continuesAfterBreak(text, k+n, line):
			k += n
			line = 0
			continue
		}
		break
	}
	if len(b.vals) == 0 {
		return k + 1
	}
	return k
}

// joiner reads what may continue a base64 run at text[k] besides its
// characters: an escaped + or / (its length and value), or a line break,
// real or escaped (its length, and value -1); n is 0 for anything else.
func joiner(text string, k int) (n int, v int8) {
	if k >= len(text) {
		return 0, -1
	}
	switch text[k] {
	case '%':
		h, ok := hexValue(text, k+1, 2)
		switch {
		case !ok:
		case h == 0x2B:
			return 3, 62
		case h == 0x2F:
			return 3, 63
		case h == 0x0A:
			return 3, -1
		case h == 0x0D && len(text) >= k+6 && (text[k+3:k+6] == "%0A" || text[k+3:k+6] == "%0a"):
			return 6, -1
		}
	case '\\':
		switch {
		case k+1 >= len(text):
		case text[k+1] == '/':
			return 2, 63
		case text[k+1] == 'n':
			return 2, -1
		case text[k+1] == 'r' && len(text) >= k+4 && text[k+2:k+4] == `\n`:
			return 4, -1
		}
	case '\n':
		return 1, -1
	case '\r':
		if k+1 < len(text) && text[k+1] == '\n' {
			return 2, -1
		}
	}
	return 0, -1
}

// continuesAfterBreak reports whether a line break before text[k], after a
// line of line characters, is inside a run of MIME base64.
func continuesAfterBreak(text string, k, line int) bool {
	return k < len(text) && b64Val[text[k]] >= 0 && (isMIMELine(line) || isMIMELine(plainB64(text[k:])))
}

// joins reports whether what is at text[j], after a stretch of n base64
// characters, continues the run.
func joins(text string, j, n int) bool {
	l, v := joiner(text, j)
	return l > 0 && (v >= 0 || continuesAfterBreak(text, j+l, n))
}

// isMIMELine reports whether a line of n base64 characters may be one of
// many of the same length.
func isMIMELine(n int) bool { return n >= minMIMELine && n%4 == 0 }

// plainB64 counts the base64 characters at the start of s.
func plainB64(s string) int {
	for i := range len(s) {
		if b64Val[s[i]] < 0 {
			return i
		}
	}
	return len(s)
}

// collectHex reads the hex run that starts at text[k] into b, and returns
// where it ends (k+1 when none starts there) and whether its groups are
// separated. A separator is one character that is not a letter or digit,
// the same throughout, or its percent-encoding (quote(b.hex(':'))).
func collectHex(text string, k int, b *runBuffers) (int, bool) {
	b.reset()
	if !isHexDigit(text[k]) {
		return k + 1, false
	}
	group := func(k int) int { // reads digits from k, returns the end
		j := k
		for j < len(text) && isHexDigit(text[j]) {
			j++
		}
		b.addRange(text, k, j, &hexVal)
		return j
	}
	last := k // where the last group starts
	k = group(k)
	sep := ""
	for len(b.vals)%2 == 0 {
		n := hexSeparator(text, k)
		if n == 0 || k+n >= len(text) || !isHexDigit(text[k+n]) {
			break
		}
		if sep != "" && text[k:k+n] != sep {
			// Another separator: the last group may start a run of its
			// own ("&#x27;30:30" is 27 then 30:30).
			return last, true
		}
		mark := len(b.vals)
		end := group(k + n)
		if (len(b.vals)-mark)%2 != 0 {
			b.truncate(mark)
			break
		}
		sep, last, k = text[k:k+n], k+n, end
	}
	return k, sep != ""
}

// hexSeparator is the length of the separator at text[k], 0 for none.
func hexSeparator(text string, k int) int {
	if k >= len(text) {
		return 0
	}
	c := text[k]
	if c == '%' {
		if h, ok := hexValue(text, k+1, 2); ok && h >= ' ' && h <= '~' && !isAlnum(byte(h)) {
			return 3
		}
	}
	if ' ' <= c && c <= '~' && !isAlnum(c) {
		return 1
	}
	return 0
}
