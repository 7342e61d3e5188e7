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

// AsBytes returns the content of a bytes-like value: a Bytes, a
// ByteArray or a starlark.Bytes.
func AsBytes(v starlark.Value) (string, bool) {
	switch x := v.(type) {
	case Bytes:
		return string(x), true
	case starlark.Bytes:
		return string(x), true
	case *ByteArray:
		return string(x.b), true
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
	// y may be a starlark.Bytes, whose Type is "bytes" too.
	ys, _ := AsBytes(y)
	return CompareOp(op, strings.Compare(string(b), ys), b, y)
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
		return repeat(y, func(k int) starlark.Value { return Bytes(strings.Repeat(string(b), k)) })
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

// ByteArray is Python's bytearray: bytes that change in place (item
// assignment, append, extend; the front end supplies the methods).
type ByteArray struct {
	b      []byte
	frozen bool
}

var (
	_ starlark.Indexable   = (*ByteArray)(nil)
	_ starlark.HasSetIndex = (*ByteArray)(nil)
	_ starlark.Sliceable   = (*ByteArray)(nil)
	_ starlark.HasBinary   = (*ByteArray)(nil)
	_ starlark.Container   = (*ByteArray)(nil)
	_ starlark.Comparable  = (*ByteArray)(nil)
)

// NewByteArray makes a bytearray of a copy of s.
func NewByteArray(s string) *ByteArray { return &ByteArray{b: []byte(s)} }

// NewZeroByteArray returns a bytearray of n zero bytes, as bytearray(n)
// makes: one allocation, where NewByteArray of bytes(n) makes two.
func NewZeroByteArray(n int) *ByteArray { return &ByteArray{b: make([]byte, n)} }

// Bytes is the content now.
func (a *ByteArray) Bytes() string { return string(a.b) }

func (a *ByteArray) String() string        { return "bytearray(" + QuoteBytes(string(a.b)) + ")" }
func (a *ByteArray) Type() string          { return "bytearray" }
func (a *ByteArray) Freeze()               { a.frozen = true }
func (a *ByteArray) Truth() starlark.Bool  { return len(a.b) > 0 }
func (a *ByteArray) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: 'bytearray'") }
func (a *ByteArray) Len() int              { return len(a.b) }
func (a *ByteArray) Index(i int) starlark.Value {
	return starlark.MakeInt(int(a.b[i]))
}

func (a *ByteArray) Slice(start, end, step int) starlark.Value {
	s, _ := Bytes(a.b).Slice(start, end, step).(Bytes)
	return NewByteArray(string(s))
}

// SetIndex is ba[i] = n, for an int in range(256).
func (a *ByteArray) SetIndex(i int, v starlark.Value) error {
	if err := a.CheckMutable(); err != nil {
		return err
	}
	n, err := ByteValue(v)
	if err != nil {
		return err
	}
	a.b[i] = n
	return nil
}

// CheckMutable refuses a change to a frozen bytearray (one a session
// shares).
func (a *ByteArray) CheckMutable() error {
	if a.frozen {
		return fmt.Errorf("cannot modify frozen bytearray")
	}
	return nil
}

// Set replaces the content.
func (a *ByteArray) Set(b []byte) error {
	if err := a.CheckMutable(); err != nil {
		return err
	}
	a.b = b
	return nil
}

// Append adds bytes at the end.
func (a *ByteArray) Append(s string) error {
	if err := a.CheckMutable(); err != nil {
		return err
	}
	a.b = append(a.b, s...)
	return nil
}

// ByteValue reads an int that must be one byte.
func ByteValue(v starlark.Value) (byte, error) {
	i, ok := v.(starlark.Int)
	if !ok {
		if b, isBool := v.(starlark.Bool); isBool {
			if b {
				return 1, nil
			}
			return 0, nil
		}
		return 0, fmt.Errorf("'%s' object cannot be interpreted as an integer", pyType(v))
	}
	n, ok := i.Int64()
	if !ok || n < 0 || n > 255 {
		return 0, fmt.Errorf("byte must be in range(0, 256)")
	}
	return byte(n), nil
}

// Iterate yields the values, reading the bytearray as it is at each step.
func (a *ByteArray) Iterate() starlark.Iterator { return &byteArrayIterator{a: a} }

type byteArrayIterator struct {
	a *ByteArray
	i int
}

func (it *byteArrayIterator) Next(p *starlark.Value) bool {
	if it.i >= len(it.a.b) {
		return false
	}
	*p = starlark.MakeInt(int(it.a.b[it.i]))
	it.i++
	return true
}

func (it *byteArrayIterator) Done() {}

func (a *ByteArray) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return Bytes(a.b).CompareSameType(op, Bytes(y.(*ByteArray).b), depth)
}

func (a *ByteArray) Has(y starlark.Value) (bool, error) { return Bytes(a.b).Has(y) }

// Binary is + with bytes or a bytearray (a new bytearray), and * by an
// int (sized by the front end first).
func (a *ByteArray) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	r, err := Bytes(a.b).Binary(op, y, side)
	if err != nil || r == nil {
		if err != nil && side == starlark.Left {
			return nil, fmt.Errorf("can't concat %s to bytearray", pyType(y))
		}
		return r, err
	}
	if side == starlark.Right && op == syntax.PLUS {
		if _, ok := y.(*ByteArray); !ok {
			return r, nil // bytes + bytearray is bytes
		}
	}
	s, _ := AsBytes(r)
	return NewByteArray(s), nil
}

// Attr gives the methods the front end does not route to its own
// helpers: append, clear and insert (list's own names, which it leaves
// to the values).
func (a *ByteArray) Attr(name string) (starlark.Value, error) {
	switch name {
	case "append":
		return starlark.NewBuiltin("append", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs("append", args, kwargs, 1, &v); err != nil {
				return nil, err
			}
			n, err := ByteValue(v)
			if err != nil {
				return nil, err
			}
			return starlark.None, a.Append(string([]byte{n}))
		}), nil
	case "clear":
		return starlark.NewBuiltin("clear", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs("clear", args, kwargs, 0); err != nil {
				return nil, err
			}
			return starlark.None, a.Set(nil)
		}), nil
	case "insert":
		return starlark.NewBuiltin("insert", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var i int
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs("insert", args, kwargs, 2, &i, &v); err != nil {
				return nil, err
			}
			n, err := ByteValue(v)
			if err != nil {
				return nil, err
			}
			if i < 0 {
				i = max(i+len(a.b), 0)
			}
			i = min(i, len(a.b))
			out := make([]byte, 0, len(a.b)+1)
			out = append(append(append(out, a.b[:i]...), n), a.b[i:]...)
			return starlark.None, a.Set(out)
		}), nil
	}
	return nil, nil
}

func (a *ByteArray) AttrNames() []string { return []string{"append", "clear", "insert"} }

// WriteAt replaces the bytes from off with p, which must fit: struct's
// pack_into writes a few bytes into a large bytearray in place.
func (a *ByteArray) WriteAt(off int, p []byte) error {
	if err := a.CheckMutable(); err != nil {
		return err
	}
	if off < 0 || off+len(p) > len(a.b) {
		return fmt.Errorf("bytearray write of %d bytes at %d out of range", len(p), off)
	}
	copy(a.b[off:], p)
	return nil
}
