package stdlib

import (
	"math/big"
	"strings"
	"unicode/utf8"
	"unsafe"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// The helpers every module uses to stay inside its run's budgets (SPEC
// §8.1) while it works in Go: the memory watchdog sees only the values a
// program can reach, never what a module function holds while it builds
// a result, and the deadline is seen only where work is charged. So a
// module function counts what it holds (held), consumes iterables
// through drain or each, and checks a result's size before it makes it.

// held is the memory one module function (or one iterator, across its
// steps) holds for a result it is building: Go memory no watchdog can
// see until the result reaches the program. add refuses, before it is
// allocated, growth that would take it past the run's memory budget, and
// charges the work of filling it.
type held int64

// add counts n more bytes about to be allocated.
func (h *held) add(b *interp.Budget, n int64) error {
	if n < 0 {
		n = 0
	}
	*h += held(n)
	if max := b.MaxMemory(); max > 0 && int64(*h) > max {
		return b.Alloc(int64(*h)) // the memory limit's error
	}
	return b.Charge(uint64(n)/64 + 1)
}

// release counts n bytes let go of.
func (h *held) release(n int64) { *h = max(0, *h-held(n)) }

// slotSize is the size of one element of a list or tuple (an interface).
const slotSize = 16

// heldSize estimates the bytes v holds by itself: its header and what it
// points to directly (a string's bytes, a tuple's slots), not the values
// it contains.
func heldSize(v starlark.Value) int64 {
	switch x := v.(type) {
	case starlark.NoneType, starlark.Bool:
		return 0
	case starlark.Int:
		if _, ok := x.Int64(); ok {
			return 8
		}
		return 32 + int64(x.BigInt().BitLen()/8)
	case starlark.Float:
		return 8
	case starlark.String:
		return 16 + int64(len(x))
	case *interp.Unicode:
		return 48 + 2*int64(len(x.Text()))
	case starlark.Bytes:
		return 16 + int64(len(x))
	case interp.Bytes:
		return 16 + int64(len(x))
	case starlark.Tuple:
		return 24 + slotSize*int64(len(x))
	case *starlark.List:
		return 32 + slotSize*int64(x.Len())
	case *starlark.Dict:
		return 64 + 48*int64(x.Len())
	case *starlark.Set:
		return 64 + 32*int64(x.Len())
	}
	if s, ok := v.(starlark.Sequence); ok {
		return 32 + slotSize*int64(max(s.Len(), 0))
	}
	return 32
}

// valueIdentity is what makes v the value it is, for a value that can be
// large (a string's bytes, a tuple's slots, a list); nil for others.
func valueIdentity(v starlark.Value) unsafe.Pointer {
	switch x := v.(type) {
	case starlark.String:
		return unsafe.Pointer(unsafe.StringData(string(x)))
	case starlark.Bytes:
		return unsafe.Pointer(unsafe.StringData(string(x)))
	case interp.Bytes:
		return unsafe.Pointer(unsafe.StringData(string(x)))
	case *interp.Unicode:
		return unsafe.Pointer(x)
	case starlark.Tuple:
		return unsafe.Pointer(unsafe.SliceData(x))
	case *starlark.List:
		return unsafe.Pointer(x)
	case *starlark.Dict:
		return unsafe.Pointer(x)
	case *starlark.Set:
		return unsafe.Pointer(x)
	}
	return nil
}

// bigValue is the size from which kept values are counted once however
// often they come (repeat(text, n) yields the same text n times): a
// smaller one is counted at each coming, which overstates what is kept
// at most (slotSize+bigValue)/slotSize-fold.
const bigValue = 128

// keep counts the values a module function or an iterator keeps, made
// by an iterator it consumes: each one's slot, and its own size the
// first time it comes.
type keep struct {
	held
	seen map[unsafe.Pointer]struct{}
}

// value counts x, about to be kept.
func (k *keep) value(b *interp.Budget, x starlark.Value) error {
	return k.taken(b, x, slotSize, true)
}

// taken counts x, about to be kept in a place of extra bytes (a slot, a
// dict's entry), and its own size when fresh: when it was made for the
// keeping (by an iterator, as a str's character), not taken from a
// collection that holds it already.
func (k *keep) taken(b *interp.Budget, x starlark.Value, extra int64, fresh bool) error {
	if !fresh {
		return k.add(b, extra)
	}
	n := heldSize(x)
	if n >= bigValue {
		if p := valueIdentity(x); p != nil {
			if _, ok := k.seen[p]; ok {
				n = 0
			} else {
				if k.seen == nil {
					k.seen = map[unsafe.Pointer]struct{}{}
				}
				k.seen[p] = struct{}{}
				n += 32 // the entry in seen
			}
		}
	}
	return k.add(b, extra+n)
}

// forget counts x as no longer kept (a value counted once stays counted).
func (k *keep) forget(x starlark.Value) {
	n := heldSize(x)
	if n >= bigValue && valueIdentity(x) != nil {
		n = 0
	}
	k.release(slotSize + n)
}

// holdsElements reports whether v holds its elements already (a list, a
// tuple, a dict, a set), so that taking them makes nothing new but their
// slots; an iterator makes each element it yields, often anew, and a str
// or bytes makes each character or byte.
func holdsElements(v starlark.Value) bool {
	switch v.(type) {
	case *starlark.List, starlark.Tuple, *starlark.Dict, *starlark.Set:
		return true
	}
	return false
}

// drain returns the elements of iterable, iterated as Python does (a
// generator to its end, its exception passed on), each charged, and
// refuses with the memory limit's error, before it grows past the run's
// memory budget, a result whose slots and fresh elements (those an
// iterator made) would: drain(count()) ends at the budget instead of
// taking the heap.
func drain(thread *starlark.Thread, iterable starlark.Value) ([]starlark.Value, error) {
	return drainKept(thread, iterable, new(keep))
}

// drainKept is drain counting into k, for a function that keeps more
// than the elements.
func drainKept(thread *starlark.Thread, iterable starlark.Value, k *keep) ([]starlark.Value, error) {
	b := interp.BudgetOf(thread)
	var out []starlark.Value
	if holdsElements(iterable) {
		// Only the slots are new.
		n := starlark.Len(iterable)
		if err := k.add(b, int64(n)*slotSize); err != nil {
			return nil, err
		}
		out = make([]starlark.Value, 0, n)
		err := python.ForEach(thread, iterable, func(x starlark.Value) (bool, error) {
			out = append(out, x)
			return false, nil
		})
		return out, err
	}
	err := python.ForEach(thread, iterable, func(x starlark.Value) (bool, error) {
		if err := k.value(b, x); err != nil {
			return true, err
		}
		out = append(out, x)
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	// An iteration a spent budget cut short is no result.
	if err := b.Charge(0); err != nil {
		return nil, err
	}
	return out, nil
}

// firstOf is at most the first n elements of iterable, taken lazily: an
// unpacking (k, v = pair) reads one more than it wants, never an
// endless iterable to its end.
func firstOf(thread *starlark.Thread, iterable starlark.Value, n int) ([]starlark.Value, error) {
	next, err := python.Iterate(thread, iterable)
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

// each calls fn with each element of iterable, iterated as Python does
// and charged, until fn fails; what fn keeps, it counts itself.
func each(thread *starlark.Thread, iterable starlark.Value, fn func(x starlark.Value) error) error {
	err := python.ForEach(thread, iterable, func(x starlark.Value) (bool, error) {
		return false, fn(x)
	})
	if err != nil {
		return err
	}
	// An iteration a spent budget cut short is no result.
	return interp.BudgetOf(thread).Charge(0)
}

// plus is x + y with Python's meaning for the values modules add up
// (accumulate, count, sums): a str, bytes, list or tuple too large for
// the memory budget is refused before it is made, and a long one is
// copied a piece at a time under the budget, so that the deadline can
// stop it; an int is held to limits.max_int_digits.
func plus(thread *starlark.Thread, x, y starlark.Value) (starlark.Value, error) {
	b := interp.BudgetOf(thread)
	if starlark.Len(x) >= 0 && starlark.Len(y) >= 0 {
		if err := b.Alloc(heldSize(x) + heldSize(y)); err != nil {
			return nil, err
		}
		switch xs := x.(type) {
		case starlark.String:
			if ys, ok := y.(starlark.String); ok && len(xs)+len(ys) > copyPiece {
				s, err := concatText(b, string(xs), string(ys))
				return starlark.String(s), err
			}
		case starlark.Bytes:
			if ys, ok := y.(starlark.Bytes); ok && len(xs)+len(ys) > copyPiece {
				s, err := concatText(b, string(xs), string(ys))
				return starlark.Bytes(s), err
			}
		case *starlark.List:
			if ys, ok := y.(*starlark.List); ok && xs.Len()+ys.Len() > copyPiece/slotSize {
				elems, err := concatElems(b, xs, ys)
				if err != nil {
					return nil, err
				}
				return starlark.NewList(elems), nil
			}
		case starlark.Tuple:
			if ys, ok := y.(starlark.Tuple); ok && len(xs)+len(ys) > copyPiece/slotSize {
				return concatElems(b, xs, ys)
			}
		}
	}
	if err := b.Charge(1); err != nil {
		return nil, err
	}
	z, err := numBinary(syntax.PLUS, x, y)
	if err != nil {
		return nil, err
	}
	return z, checkIntValue(b, z)
}

// arith is x op y for operator's functions and the modules' arithmetic
// (op one of + - / // & | ^ << >>), with Python's meaning and errors:
// a concatenation is bounded as plus's, a shift refused before it makes
// an int beyond limits.max_int_digits, and every int result held to it.
func arith(thread *starlark.Thread, op syntax.Token, x, y starlark.Value) (starlark.Value, error) {
	b := interp.BudgetOf(thread)
	switch op {
	case syntax.PLUS:
		return plus(thread, x, y)
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
		return nil, python.Classify(err)
	}
	return z, checkIntValue(b, z)
}

// textBuf builds a text under the budget, for a module function whose
// output may be far longer than its input (re.sub of an empty pattern,
// a85decode's 'z'): each write is charged, and a text that would pass
// the memory budget is refused before the write that would make it so.
// Unlike a strings.Builder, it never reserves room past the budget, so a
// refused text has held at most one and a half budgets on its way.
type textBuf struct {
	b   *interp.Budget
	buf []byte
}

func (t *textBuf) grow(n int) error {
	buf, err := reserve(t.b, t.buf, n)
	if err != nil {
		return err
	}
	t.buf = buf
	return t.b.Charge(uint64(n)/64 + 1)
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
func heldBytes(buf []byte) starlark.Value {
	return starlark.String(unsafe.String(unsafe.SliceData(buf[:cap(buf)]), cap(buf)))
}

// WriteString appends s.
func (t *textBuf) WriteString(s string) error {
	if err := t.grow(len(s)); err != nil {
		return err
	}
	t.buf = append(t.buf, s...)
	return nil
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
func (t *textBuf) Len() int { return len(t.buf) }

// String is the text; the buffer is not written to after.
func (t *textBuf) String() string { return unsafe.String(unsafe.SliceData(t.buf), len(t.buf)) }

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

// copyPiece is how many bytes a long copy moves between charges: about a
// tenth of a millisecond.
const copyPiece = 1 << 20

// concatElems is the elements of x and then y, copied a piece at a time
// under the budget.
func concatElems(b *interp.Budget, x, y starlark.Indexable) (starlark.Tuple, error) {
	out := make(starlark.Tuple, 0, x.Len()+y.Len())
	for _, s := range [2]starlark.Indexable{x, y} {
		for i := 0; i < s.Len(); i++ {
			if i%(copyPiece/slotSize) == 0 {
				if err := b.Charge(copyPiece / 64); err != nil {
					return nil, err
				}
			}
			out = append(out, s.Index(i))
		}
	}
	return out, nil
}

// concatText is x + y, copied a piece at a time under the budget.
func concatText(b *interp.Budget, x, y string) (string, error) {
	var sb strings.Builder
	sb.Grow(len(x) + len(y))
	for _, s := range [2]string{x, y} {
		for len(s) > 0 {
			n := min(len(s), copyPiece)
			if err := b.Charge(uint64(n) / 64); err != nil {
				return "", err
			}
			sb.WriteString(s[:n])
			s = s[n:]
		}
	}
	return sb.String(), nil
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
