package stdlib

import (
	"regexp/syntax"
	"unicode"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/interp"
)

// Go's regexp counts only ASCII letters, digits and _ as word characters
// for \b and \B; Python counts every letter and digit. For a pattern with
// \b or \B run over text that is not all ASCII, the pattern's RE2 program
// runs on this Pike VM instead: the same automaton, in the same linear
// time, with the same leftmost-first choice among matches, whose only
// difference is a word boundary with Python's meaning.

// isWordRune is Python's \w in Unicode mode: a letter, a digit or other
// number, or _.
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// vmThread is a thread of the VM: where it is in the program, and the
// capture positions it has seen.
type vmThread struct {
	pc  uint32
	cap []int
}

// vmQueue is a set of threads in priority order, each pc at most once.
type vmQueue struct {
	sparse []uint32
	dense  []vmThread
}

func newVMQueue(n int) *vmQueue {
	return &vmQueue{sparse: make([]uint32, n), dense: make([]vmThread, 0, n)}
}

func (q *vmQueue) has(pc uint32) bool {
	j := q.sparse[pc]
	return int(j) < len(q.dense) && q.dense[j].pc == pc
}

func (q *vmQueue) clear() { q.dense = q.dense[:0] }

// vm runs one program over one text.
type vm struct {
	prog *syntax.Prog
	text string
	ncap int
	// With nonEmpty, matches that end at or before minEnd are passed
	// over: a match anchored there must not be empty (re.go's each).
	nonEmpty bool
	minEnd   int
	// asciiWord: \b and \B with Go's (ASCII) word characters.
	asciiWord bool
}

// context is what the empty-width assertions see at byte offset pos.
func (m *vm) context(pos int) syntax.EmptyOp {
	before, after := rune(-1), rune(-1)
	if pos > 0 {
		before, _ = utf8.DecodeLastRuneInString(m.text[:pos])
	}
	if pos < len(m.text) {
		after, _ = utf8.DecodeRuneInString(m.text[pos:])
	}
	if m.asciiWord {
		return syntax.EmptyOpContext(before, after)
	}
	op := syntax.EmptyOpContext(before, after) &^ (syntax.EmptyWordBoundary | syntax.EmptyNoWordBoundary)
	if (before >= 0 && isWordRune(before)) != (after >= 0 && isWordRune(after)) {
		op |= syntax.EmptyWordBoundary
	} else {
		op |= syntax.EmptyNoWordBoundary
	}
	return op
}

// add follows the empty transitions from pc at pos, adding to q the
// threads that wait for a character or match. cap is the thread's
// captures, changed and restored around a capture instruction.
func (m *vm) add(q *vmQueue, pc uint32, pos int, cap []int, ctx syntax.EmptyOp) {
	if q.has(pc) {
		return
	}
	q.sparse[pc] = uint32(len(q.dense))
	q.dense = append(q.dense, vmThread{pc: pc})
	j := len(q.dense) - 1
	inst := &m.prog.Inst[pc]
	switch inst.Op {
	case syntax.InstFail:
	case syntax.InstAlt, syntax.InstAltMatch:
		m.add(q, inst.Out, pos, cap, ctx)
		m.add(q, inst.Arg, pos, cap, ctx)
	case syntax.InstEmptyWidth:
		if syntax.EmptyOp(inst.Arg)&^ctx == 0 {
			m.add(q, inst.Out, pos, cap, ctx)
		}
	case syntax.InstNop:
		m.add(q, inst.Out, pos, cap, ctx)
	case syntax.InstCapture:
		if int(inst.Arg) < len(cap) {
			old := cap[inst.Arg]
			cap[inst.Arg] = pos
			m.add(q, inst.Out, pos, cap, ctx)
			cap[inst.Arg] = old
		} else {
			m.add(q, inst.Out, pos, cap, ctx)
		}
	default: // InstMatch and the rune instructions wait here
		q.dense[j].cap = append([]int(nil), cap...)
	}
}

// run finds the leftmost-first match of the program in the text (at its
// start only when anchored): the byte offsets of the captures, or nil.
// Each character scanned is charged by the number of threads alive.
func (m *vm) run(b *interp.Budget) ([]int, error) {
	n := len(m.prog.Inst)
	clist, nlist := newVMQueue(n), newVMQueue(n)
	cap := make([]int, m.ncap)
	var matched []int
	anchored := m.prog.StartCond()&syntax.EmptyBeginText != 0
	for pos := 0; ; {
		if matched == nil && (pos == 0 || !anchored) {
			for i := range cap {
				cap[i] = -1
			}
			cap[0] = pos // the program has no capture for the whole match
			m.add(clist, uint32(m.prog.Start), pos, cap, m.context(pos))
		}
		if len(clist.dense) == 0 {
			break
		}
		if err := b.Charge(uint64(len(clist.dense))/8 + 1); err != nil {
			return nil, err
		}
		r, w := rune(-1), 0
		if pos < len(m.text) {
			r, w = utf8.DecodeRuneInString(m.text[pos:])
		}
		next := pos + w
		var nctx syntax.EmptyOp
		ctxDone := false
		for _, t := range clist.dense {
			if t.cap == nil {
				continue // passed through on the way to others
			}
			inst := &m.prog.Inst[t.pc]
			if inst.Op == syntax.InstMatch {
				if m.nonEmpty && pos <= m.minEnd {
					continue // empty where an empty match is not allowed
				}
				matched = t.cap
				matched[1] = pos
				break // lower-priority threads are cut off
			}
			if r >= 0 && vmMatchRune(inst, r) {
				if !ctxDone {
					nctx, ctxDone = m.context(next), true
				}
				m.add(nlist, inst.Out, next, t.cap, nctx)
			}
		}
		if r < 0 {
			break
		}
		clist, nlist = nlist, clist
		nlist.clear()
		pos = next
	}
	return matched, nil
}

func vmMatchRune(inst *syntax.Inst, r rune) bool {
	switch inst.Op {
	case syntax.InstRuneAny:
		return true
	case syntax.InstRuneAnyNotNL:
		return r != '\n'
	}
	return inst.MatchRune(r)
}
