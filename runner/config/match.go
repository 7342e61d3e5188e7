package config

import "strings"

// matcher finds every occurrence of a set of needles in one pass over a
// text, however many needles there are (the Wu–Manber method): the text is
// read in windows as long as the shortest needle, and a table over
// two-byte blocks says how far the window can move before a needle could
// fit in it. In text without secrets most windows move by nearly their
// whole length.
type matcher struct {
	needles []needle
	min     int // length of the shortest needle
	win     int // window length: min, capped so that shifts fit a byte
	shift   [tableSize]uint8
	starts  [tableSize / 64]uint64 // blocks that some needle starts with
	heads   map[uint16][]int32     // needles by the block they start with
}

const tableSize = 1 << 12

func blockHash(a, b byte) uint16 { return (uint16(a)<<4 ^ uint16(b)) & (tableSize - 1) }

// newMatcher indexes needles, each at least two bytes long.
func newMatcher(needles []needle) *matcher {
	m := &matcher{needles: needles, min: len(needles[0].text), heads: map[uint16][]int32{}}
	for _, n := range needles {
		m.min = min(m.min, len(n.text))
	}
	m.win = min(m.min, 64)
	for i := range m.shift {
		m.shift[i] = uint8(m.win - 1)
	}
	for k, n := range needles {
		p := n.text[:m.win]
		for j := 0; j+1 < len(p); j++ {
			h := blockHash(p[j], p[j+1])
			m.shift[h] = min(m.shift[h], uint8(m.win-2-j))
		}
		h := blockHash(p[0], p[1])
		m.starts[h/64] |= 1 << (h % 64)
		m.heads[h] = append(m.heads[h], int32(k))
	}
	return m
}

// find appends to hits every occurrence of a needle in text, and reports
// whether an anchor occurs in it. Overlapping occurrences of one needle
// are one hit.
func (m *matcher) find(text string, hits []hit) (_ []hit, anchored bool) {
	var last map[int32]int // needle → index of its latest hit
	for pos := m.win - 2; pos+1 < len(text); {
		if s := m.shift[blockHash(text[pos], text[pos+1])]; s != 0 {
			pos += int(s)
			continue
		}
		w := pos - (m.win - 2)
		pos++
		h := blockHash(text[w], text[w+1])
		if m.starts[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		for _, k := range m.heads[h] {
			n := m.needles[k]
			if !strings.HasPrefix(text[w:], n.text) {
				continue
			}
			if n.anchor {
				anchored = true
				continue
			}
			if i, ok := last[k]; ok && hits[i].end > w {
				hits[i].end = w + len(n.text) // overlapping the previous one: "aaaaa" holds "aaaa" twice
				continue
			}
			if last == nil {
				last = map[int32]int{}
			}
			last[k] = len(hits)
			hits = append(hits, hit{w, w + len(n.text), n.name})
		}
	}
	return hits, anchored
}
