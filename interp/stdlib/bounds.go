package stdlib

import (
	"math/big"
	"strings"
	"unicode/utf8"
	"unsafe"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// The helpers every module uses to stay inside its run's budgets (SPEC
// §8.1) while it works in Go. The memory watchdog measures the values a
// program can reach, with interp's one sizing of values (what Go
// allocates for each); a module keeps to that one measure:
//
//   - what a module function builds for its result reaches the program
//     only when the function returns, so the function shows it to the
//     meter while it builds it (Budget.Hold, Budget.HoldValues): it
//     counts together with everything else the run holds;
//   - a value of a module that holds other values (a Counter, a deque, a
//     tee's buffer, a match's text) is an interp.Holder, so that the
//     meter counts what it holds wherever the program keeps it;
//   - one allocation that alone could pass the budget (a slice or table
//     doubling, a buffer) is refused before it is made (Budget.Fits,
//     Budget.Alloc, appendValue, fitsTable, reserve);
//   - bytes a module holds in Go rather than as values are shown to the
//     meter as a text of their size where they are buffers (textBuf,
//     io.StringIO: heldBytes, heldMem); the few that are not (copies of keys) are
//     counted by goBytes and refused alone at the budget.
//
// Work is charged as it is done (Budget.Charge, pace), so the deadline
// and the watchdog are consulted inside every long loop.

// goBytes counts bytes one module function holds in Go, outside any
// value of the program and of any buffer the meter is shown (the keys
// difflib copies, the names of a state no program can reach): add
// refuses, before they are allocated, bytes that alone would pass the
// run's memory budget, and charges the work of making them. The meter
// does not see them, so with everything else they may come to one
// budget more than the run's values; the OS limit of a process-isolation
// worker bounds the rest.
type goBytes int64

// add counts n more bytes about to be allocated.
func (g *goBytes) add(b *interp.Budget, n int64) error {
	*g += goBytes(max(n, 0))
	if err := b.Fits(int64(*g)); err != nil {
		return err
	}
	return b.Charge(uint64(max(n, 0))/64 + 1)
}

// slotSize is the size of one element of a list or tuple (an interface).
const slotSize = 16

// appendValue appends x to out, refusing first (with the memory limit's
// error) a growth of out's array that alone would pass the memory
// budget: an iterator without end must not grow a slice of gigabytes,
// copied in one step, before the watchdog looks. What out holds is the
// caller's to show the meter (Budget.HoldValues).
func appendValue(b *interp.Budget, out []starlark.Value, x starlark.Value) ([]starlark.Value, error) {
	if len(out) == cap(out) {
		if err := b.Alloc(int64(2*cap(out)+8) * slotSize); err != nil {
			return nil, err
		}
	}
	return append(out, x), nil
}

// fitsTable refuses a dict or set that a module function is filling once
// its table alone would pass the memory budget: its entries the meter
// counts (the function holds the dict with Budget.Hold), but the table
// doubles in one step. It looks every 1024 entries.
func fitsTable(b *interp.Budget, n int) error {
	if n&1023 == 0 {
		return b.Fits(interp.TableBytes(n))
	}
	return nil
}

// heldTuple is vs as a value the memory meter counts, for a Holder or a
// Hold whose values are in a slice: a tuple of them.
func heldTuple(vs []starlark.Value) starlark.Value { return starlark.Tuple(vs) }

// firstOf is at most the first n elements of iterable, taken lazily: an
// unpacking (k, v = pair) reads one more than it wants, never an
// endless iterable to its end.
func firstOf(thread *starlark.Thread, iterable starlark.Value, n int) ([]starlark.Value, error) {
	next, err := pyrt.Iterate(thread, iterable)
	if err != nil {
		return nil, err
	}
	var out []starlark.Value
	for len(out) < n {
		x, ok, err := next()
		if err != nil || !ok {
			return out, err
		}
		out = append(out, x)
	}
	return out, nil
}

// arith is x op y for operator's functions and the modules' arithmetic
// (op one of + - / // & | ^ << >>), with Python's meaning and errors:
// + is the program's own (pyrt.Add: a concatenation too large for the
// memory budget refused before it is made, an int held to
// limits.max_int_digits), a shift refused before it makes an int beyond
// limits.max_int_digits, and every int result held to it.
func arith(thread *starlark.Thread, op syntax.Token, x, y starlark.Value) (starlark.Value, error) {
	b := interp.BudgetOf(thread)
	switch op {
	case syntax.PLUS:
		if err := b.Charge(1); err != nil {
			return nil, err
		}
		z, err := pyrt.Add(thread, x, y)
		return z, pyrt.Classify(err)
	case syntax.LTLT:
		xi, ok1 := x.(starlark.Int)
		yi, ok2 := y.(starlark.Int)
		if ok1 && ok2 && xi.Sign() != 0 && yi.Sign() > 0 {
			n, ok := yi.Int64()
			if !ok {
				n = 1 << 62
			}
			if err := checkBitsAhead(b, int64(xi.BigInt().BitLen())+n); err != nil {
				return nil, err
			}
		}
	}
	if err := b.Charge(1); err != nil {
		return nil, err
	}
	z, err := starlark.Binary(op, x, y)
	if err != nil {
		return nil, pyrt.Classify(err)
	}
	return z, checkIntValue(b, z)
}

// textBuf builds a text under the budget, for a module function whose
// output may be far longer than its input (re.sub of an empty pattern,
// a85decode's 'z'): each write is charged, a text that would pass the
// memory budget alone is refused before the write that would make it so,
// and what is written is shown to the memory meter (Budget.Hold) from its
// first byte until done, so that it counts with the run's values. Past
// textPiece bytes it is kept in pieces that are never copied while it
// grows (a buffer that doubles leaves the halves it outgrew as garbage:
// a refused text took the heap to twice the budget on its way), and
// joined once, piece by piece and charged, by Text. The caller calls
// done when the text is made (deferred).
type textBuf struct {
	b      *interp.Budget
	buf    []byte   // the piece being written
	pieces [][]byte // the pieces written before it
	n      int      // their length
	joined string   // Text's result while it is made, for the meter
	// release ends the Hold that shows the pieces to the meter.
	release func()
}

// textPiece is the size of textBuf's pieces, past which it stops doubling.
const textPiece = 1 << 20

// grow makes room for n more bytes: all of them in the piece being
// written while that is small, at least one in a new piece after.
func (t *textBuf) grow(n int) error {
	need := int64(t.Len()) + int64(n)
	if limit := t.b.MaxMemory(); limit > 0 && need > limit {
		return t.b.Alloc(need) // the memory limit's error
	}
	if err := t.b.Charge(uint64(n)/64 + 1); err != nil {
		return err
	}
	if cap(t.buf)-len(t.buf) >= n {
		return nil
	}
	if c := max(2*cap(t.buf), len(t.buf)+n, 64); c <= textPiece {
		grown := make([]byte, len(t.buf), c)
		copy(grown, t.buf)
		t.buf = grown
	} else {
		if len(t.buf) > 0 {
			t.pieces = append(t.pieces, t.buf)
			t.n += len(t.buf)
		}
		t.buf = make([]byte, 0, textPiece)
	}
	if t.release == nil {
		t.release = t.b.Hold(func(visit func(starlark.Value)) {
			visit(heldMem(t.buf))
			for _, p := range t.pieces {
				visit(heldMem(p))
			}
			visit(starlark.String(t.joined))
		})
	}
	return nil
}

// done stops showing the text to the meter: it is the caller's result,
// or garbage.
func (t *textBuf) done() {
	if t.release != nil {
		t.release()
		t.release = nil
	}
}

// reserve makes room in buf for n more bytes under the budget, for a
// buffer that grows by appends (a text being built, an io.StringIO): one
// that would pass the memory budget is refused before it grows, and it
// never reserves past the budget (append doubles a buffer, so one of
// 200 MB would take 400 more to grow by a byte).
func reserve(b *interp.Budget, buf []byte, n int) ([]byte, error) {
	need := int64(len(buf)) + int64(n)
	limit := b.MaxMemory()
	if limit > 0 && need > limit {
		return nil, b.Alloc(need) // the memory limit's error
	}
	if need <= int64(cap(buf)) {
		return buf, nil
	}
	c := max(2*int64(cap(buf)), need, 64)
	if limit > 0 && c > limit {
		c = limit
	}
	if err := b.Charge(uint64(len(buf))/64 + 1); err != nil {
		return nil, err
	}
	grown := make([]byte, len(buf), c)
	copy(grown, buf)
	return grown, nil
}

// heldBytes is buf as a value the memory meter counts (its reservation,
// not a copy), for a Holder whose contents are Go bytes.
func heldBytes(buf []byte) starlark.Value { return heldMem(buf) }

// heldMem is the array of s (its whole reservation) as a value the memory
// meter counts, for a Holder or a Hold whose contents are Go's (a buffer,
// the words of a big number, a generator's state): a text over the same
// memory, which nothing reads, so the meter sizes it as Go allocated it
// and counts it once however many values share it.
func heldMem[T any](s []T) starlark.Value {
	var zero T
	s = s[:cap(s)]
	n := len(s) * int(unsafe.Sizeof(zero))
	if n == 0 {
		return starlark.String("")
	}
	return starlark.String(unsafe.String((*byte)(unsafe.Pointer(unsafe.SliceData(s))), n))
}

// WriteString appends s: a long s a piece at a time, each charged, so
// that the deadline stops the copy.
func (t *textBuf) WriteString(s string) error {
	for len(s) > textPiece {
		if err := t.WriteString(s[:textPiece]); err != nil {
			return err
		}
		s = s[textPiece:]
	}
	if err := t.grow(len(s)); err != nil {
		return err
	}
	for {
		k := min(len(s), cap(t.buf)-len(t.buf))
		t.buf = append(t.buf, s[:k]...)
		if s = s[k:]; s == "" {
			return nil
		}
		// The rest goes to a new piece: grow charged it already.
		t.pieces = append(t.pieces, t.buf)
		t.n += len(t.buf)
		t.buf = make([]byte, 0, textPiece)
	}
}

// WriteByte appends c.
func (t *textBuf) WriteByte(c byte) error {
	if len(t.buf) == cap(t.buf) {
		if err := t.grow(1); err != nil {
			return err
		}
	}
	t.buf = append(t.buf, c)
	return nil
}

// WriteRune appends r in UTF-8.
func (t *textBuf) WriteRune(r rune) error {
	if cap(t.buf)-len(t.buf) < utf8.UTFMax {
		if err := t.grow(utf8.UTFMax); err != nil {
			return err
		}
	}
	t.buf = utf8.AppendRune(t.buf, r)
	return nil
}

// Len is the length of the text so far.
func (t *textBuf) Len() int { return t.n + len(t.buf) }

// Text is the text; nothing is written after. A text in pieces is joined
// piece by piece, each charged, so that the deadline stops the copy.
func (t *textBuf) Text() (string, error) {
	if len(t.pieces) == 0 {
		return unsafe.String(unsafe.SliceData(t.buf), len(t.buf)), nil
	}
	var sb strings.Builder
	sb.Grow(t.Len()) // not zeroed: only the copy touches it
	for _, p := range append(t.pieces, t.buf) {
		if err := t.b.Charge(uint64(len(p))/64 + 1); err != nil {
			return "", err
		}
		sb.Write(p)
		t.joined = sb.String()
	}
	t.pieces, t.buf, t.n = nil, nil, 0
	return sb.String(), nil
}

// value is the text as a str of the program.
func (t *textBuf) value() (starlark.Value, error) {
	s, err := t.Text()
	if err != nil {
		return nil, err
	}
	return interp.MakeString(s), nil
}

// ownedBytes is out as a bytes value, without the copy a conversion
// makes (a decoder's output may be most of the memory budget); out is
// not written to after.
func ownedBytes(out []byte) interp.Bytes {
	return interp.Bytes(unsafe.String(unsafe.SliceData(out), len(out)))
}

// pacePiece is how many steps of a byte-by-byte loop pass between the
// charges of pace.
const pacePiece = 1 << 16

// pace charges the work of a loop over a long text at its step i, every
// pacePiece steps, so that the deadline or a cancellation stops it
// within a fraction of a millisecond.
func pace(b *interp.Budget, i int) error {
	if i == 0 || i&(pacePiece-1) != 0 {
		return nil
	}
	return b.Charge(pacePiece / 16)
}

// checkIntValue holds an int result of a module function to
// limits.max_int_digits; other values pass.
func checkIntValue(b *interp.Budget, v starlark.Value) error {
	if i, ok := v.(starlark.Int); ok {
		return b.CheckInt(i)
	}
	return nil
}

// bigResult is z as an int of the program, refused with the integer size
// limit's error when it has more digits than the run allows.
func bigResult(b *interp.Budget, z *big.Int) (starlark.Value, error) {
	if err := b.CheckBits(z); err != nil {
		return nil, err
	}
	return starlark.MakeBigInt(z), nil
}

// checkBitsAhead refuses, before it is computed, an int result that will
// have about bits bits when that is more than the run allows; near the
// bound the result is made and checked by bigResult.
func checkBitsAhead(b *interp.Budget, bits int64) error {
	if max := b.IntBits(); max > 0 && bits > int64(max)+64 {
		return b.IntLimit()
	}
	return nil
}
