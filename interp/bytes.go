package interp

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Bytes is Python's bytes (SPEC §2.7), not Starlark's: indexing and
// iteration give ints, str() and print() show the b'…' form, and mixing
// it with str is a TypeError in CPython's words. Literals, bytes(), the
// modules (base64, hashlib, …) and str.encode all make a Bytes; code that
// reads bytes should use AsBytes, which also accepts a starlark.Bytes from
// Go code that makes one.
type Bytes string

var (
	_ starlark.Indexable  = Bytes("")
	_ starlark.Sliceable  = Bytes("")
	_ starlark.Comparable = Bytes("")
	_ starlark.HasBinary  = Bytes("")
	_ starlark.Container  = Bytes("")
	_ starlark.Iterable   = Bytes("")
)

// AsBytes returns the content of a bytes value: a Bytes or a
// starlark.Bytes.
func AsBytes(v starlark.Value) (string, bool) {
	switch x := v.(type) {
	case Bytes:
		return string(x), true
	case starlark.Bytes:
		return string(x), true
	}
	return "", false
}

func (b Bytes) String() string        { return QuoteBytes(string(b)) }
func (b Bytes) Type() string          { return "bytes" }
func (b Bytes) Freeze()               {}
func (b Bytes) Truth() starlark.Bool  { return b != "" }
func (b Bytes) Hash() (uint32, error) { return starlark.Bytes(b).Hash() }
func (b Bytes) Len() int              { return len(b) }

// Index is b[i]: the byte's value, an int.
func (b Bytes) Index(i int) starlark.Value { return starlark.MakeInt(int(b[i])) }

func (b Bytes) Slice(start, end, step int) starlark.Value {
	if step == 1 {
		if start >= end {
			return Bytes("")
		}
		return b[start:end]
	}
	var out []byte
	if step > 0 {
		for i := start; i < end; i += step {
			out = append(out, b[i])
		}
	} else {
		for i := start; i > end; i += step {
			out = append(out, b[i])
		}
	}
	return Bytes(out)
}

// Iterate yields the bytes' values, ints.
func (b Bytes) Iterate() starlark.Iterator { return &bytesIterator{s: string(b)} }

type bytesIterator struct{ s string }

func (it *bytesIterator) Next(p *starlark.Value) bool {
	if it.s == "" {
		return false
	}
	*p = starlark.MakeInt(int(it.s[0]))
	it.s = it.s[1:]
	return true
}

func (it *bytesIterator) Done() {}

// CompareSameType orders bytes lexicographically by value, as Python does.
func (b Bytes) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	c := strings.Compare(string(b), string(y.(Bytes)))
	switch op {
	case syntax.EQL:
		return c == 0, nil
	case syntax.NEQ:
		return c != 0, nil
	case syntax.LT:
		return c < 0, nil
	case syntax.LE:
		return c <= 0, nil
	case syntax.GT:
		return c > 0, nil
	case syntax.GE:
		return c >= 0, nil
	}
	return false, fmt.Errorf("%s %s %s not implemented", b.Type(), op, y.Type())
}

// Has is `x in b`: an int in range(256) or a bytes needle.
func (b Bytes) Has(y starlark.Value) (bool, error) {
	if s, ok := AsBytes(y); ok {
		return strings.Contains(string(b), s), nil
	}
	if i, ok := y.(starlark.Int); ok {
		n, ok := i.Int64()
		if !ok || n < 0 || n > 255 {
			return false, fmt.Errorf("byte must be in range(0, 256)")
		}
		return strings.IndexByte(string(b), byte(n)) >= 0, nil
	}
	return false, fmt.Errorf("a bytes-like object is required, not '%s'", pyType(y))
}

// Binary implements + of two bytes, with CPython's error for anything
// else on the right (str on the left of bytes gets str's own error from
// the engine), and * by an int (its size is checked by the Python front
// end before it gets here).
func (b Bytes) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if op == syntax.STAR {
		n, ok := y.(starlark.Int)
		if !ok {
			return nil, nil
		}
		k, ok := n.Int64()
		if !ok || k > 1<<30 {
			return nil, fmt.Errorf("repeat count %s too large", n)
		}
		if k <= 0 {
			return Bytes(""), nil
		}
		return Bytes(strings.Repeat(string(b), int(k))), nil
	}
	if op != syntax.PLUS {
		return nil, nil
	}
	s, ok := AsBytes(y)
	if !ok {
		if side == starlark.Left {
			return nil, fmt.Errorf("can't concat %s to bytes", pyType(y))
		}
		return nil, nil
	}
	if side == starlark.Left {
		return b + Bytes(s), nil
	}
	return Bytes(s) + b, nil
}

// pyType is the Python name of v's type, for messages.
func pyType(v starlark.Value) string {
	switch v.(type) {
	case starlark.String, *Unicode:
		return "str"
	case *starlark.List:
		return "list"
	case *starlark.Dict:
		return "dict"
	case starlark.NoneType:
		return "NoneType"
	}
	return v.Type()
}
