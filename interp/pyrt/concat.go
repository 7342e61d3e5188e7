package pyrt

import (
	"strings"
	"unsafe"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// concatPiece is how many bytes concatBig copies between charges.
const concatPiece = 1 << 20

// concatBig is x + y for two texts (ASCII str), two bytes, two lists or
// two tuples that together take more than a few pieces: checkConcat
// refuses one past the memory budget before it is made, but one just
// inside it made in one copy is work nothing interrupts (a quarter of a
// gigabyte takes most of a second on a loaded machine, far past the
// deadline). Here the copy goes piece by piece, each charged, so the run
// stops within a piece of its deadline. ok is false for other operands.
func concatBig(b *interp.Budget, x, y starlark.Value) (_ starlark.Value, ok bool, _ error) {
	switch x := x.(type) {
	case starlark.String:
		if y, ok := y.(starlark.String); ok {
			return concatText(b, string(x), string(y), func(s string) starlark.Value { return starlark.String(s) })
		}
	case starlark.Bytes:
		if y, ok := y.(starlark.Bytes); ok {
			return concatText(b, string(x), string(y), func(s string) starlark.Value { return starlark.Bytes(s) })
		}
	case interp.Bytes:
		if y, ok := y.(interp.Bytes); ok {
			return concatText(b, string(x), string(y), func(s string) starlark.Value { return interp.Bytes(s) })
		}
	case *starlark.List:
		if y, ok := y.(*starlark.List); ok {
			return concatValues(b, x, y, func(vs []starlark.Value) starlark.Value { return starlark.NewList(vs) })
		}
	case starlark.Tuple:
		if y, ok := y.(starlark.Tuple); ok {
			return concatValues(b, x, y, func(vs []starlark.Value) starlark.Value { return starlark.Tuple(vs) })
		}
	}
	return nil, false, nil
}

func concatText(b *interp.Budget, x, y string, wrap func(string) starlark.Value) (starlark.Value, bool, error) {
	n := int64(len(x)) + int64(len(y))
	if n < 4*concatPiece || x == "" || y == "" {
		return nil, false, nil // small, or one of them: no copy to make
	}
	if err := b.Fits(n); err != nil {
		return nil, true, err
	}
	var sb strings.Builder
	sb.Grow(int(n)) // not zeroed: only the copy touches it
	sb.WriteString(x[:1])
	// The meter is shown the whole text from the start: Go made it.
	whole := unsafe.String(unsafe.StringData(sb.String()), n)
	release := b.Hold(func(visit func(starlark.Value)) { visit(starlark.String(whole)) })
	defer release()
	for _, s := range [...]string{x[1:], y} {
		for len(s) > 0 {
			k := min(len(s), concatPiece)
			if err := b.Charge(concatPiece / 64); err != nil {
				return nil, true, err
			}
			sb.WriteString(s[:k])
			s = s[k:]
		}
	}
	return wrap(sb.String()), true, nil
}

func concatValues(b *interp.Budget, x, y starlark.Indexable, wrap func([]starlark.Value) starlark.Value) (starlark.Value, bool, error) {
	n := int64(x.Len()) + int64(y.Len())
	if n*slot < 4*concatPiece {
		return nil, false, nil
	}
	if err := b.Fits(n * slot); err != nil {
		return nil, true, err
	}
	out := make([]starlark.Value, 0, n)
	release := b.HoldValues(&out)
	defer release()
	for _, seq := range [...]starlark.Indexable{x, y} {
		for i := range seq.Len() {
			if i%(concatPiece/slot) == 0 {
				if err := b.Charge(concatPiece / 64); err != nil {
					return nil, true, err
				}
			}
			out = append(out, seq.Index(i))
		}
	}
	return wrap(out), true, nil
}
