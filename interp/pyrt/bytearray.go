package pyrt

import (
	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// bytearray (interp.ByteArray): bytes that change in place. Its bytes
// methods are those of bytes, run on its content, with bytearrays for
// results where bytes would be; extend, pop, remove, reverse and copy are
// here; append, insert and clear are the value's own.

// bytearrayBuiltin is bytearray(): what bytes() takes, made mutable.
func bytearrayBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 1 && len(kwargs) == 0 {
		if _, ok := args[0].(starlark.Int); ok {
			// bytearray(n): the zeros made once, not as bytes and a copy.
			n, err := indexInt(args[0])
			if err != nil {
				return nil, err
			}
			if n < 0 {
				return nil, valueError("negative count")
			}
			if err := interp.BudgetOf(thread).Alloc(n); err != nil {
				return nil, err
			}
			return interp.NewZeroByteArray(int(n)), nil
		}
	}
	v, err := bytesBuiltin(thread, nil, args, kwargs)
	if err != nil {
		return nil, err
	}
	s, _ := interp.AsBytes(v)
	return interp.NewByteArray(s), nil
}

// addByteArrayMethods registers the bytearray methods: after the bytes
// methods, which it wraps.
func addByteArrayMethods(ms methodSet) {
	for name, impls := range ms {
		impl := impls[kindBytes]
		if impl == nil {
			continue
		}
		ms.add(kindByteArray, name, func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			s, _ := interp.AsBytes(recv)
			v, err := impl(thread, interp.Bytes(s), args, kwargs)
			if err != nil {
				return nil, err
			}
			return asByteArrays(v), nil
		})
	}
	ms.add(kindByteArray, "extend", func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("extend", args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		s, ok := interp.AsBytes(args[0])
		if !ok {
			if _, isText := interp.AsText(args[0]); isText {
				return nil, typeError("expected iterable of integers; got: 'str'")
			}
			v, err := bytesBuiltin(thread, nil, args[:1], nil)
			if err != nil {
				return nil, err
			}
			s, _ = interp.AsBytes(v)
		}
		a := recv.(*interp.ByteArray)
		if err := interp.BudgetOf(thread).Alloc(int64(a.Len() + len(s))); err != nil {
			return nil, err
		}
		return starlark.None, a.Append(s)
	})
	ms.add(kindByteArray, "pop", func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("pop", args, kwargs, 0, 1); err != nil {
			return nil, err
		}
		a := recv.(*interp.ByteArray)
		b := []byte(a.Bytes())
		if len(b) == 0 {
			return nil, indexError("pop from empty bytearray")
		}
		i := int64(len(b) - 1)
		if len(args) > 0 {
			n, err := asIndex(args[0])
			if err != nil {
				return nil, err
			}
			if n < 0 {
				n += int64(len(b))
			}
			if n < 0 || n >= int64(len(b)) {
				return nil, indexError("pop index out of range")
			}
			i = n
		}
		v := b[i]
		if err := a.Set(append(b[:i], b[i+1:]...)); err != nil {
			return nil, err
		}
		return starlark.MakeInt(int(v)), nil
	})
	ms.add(kindByteArray, "remove", func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("remove", args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		n, err := interp.ByteValue(args[0])
		if err != nil {
			return nil, typeError("%s", err)
		}
		a := recv.(*interp.ByteArray)
		b := []byte(a.Bytes())
		for i, c := range b {
			if c == n {
				return starlark.None, a.Set(append(b[:i], b[i+1:]...))
			}
		}
		return nil, valueError("value not found in bytearray")
	})
	ms.add(kindByteArray, "reverse", func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("reverse", args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		a := recv.(*interp.ByteArray)
		b := []byte(a.Bytes())
		for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
			b[i], b[j] = b[j], b[i]
		}
		return starlark.None, a.Set(b)
	})
	ms.add(kindByteArray, "copy", func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("copy", args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		return interp.NewByteArray(recv.(*interp.ByteArray).Bytes()), nil
	})
}

// asByteArrays is a bytes method's result for a bytearray: its bytes,
// also in a list or tuple, made bytearrays.
func asByteArrays(v starlark.Value) starlark.Value {
	switch x := v.(type) {
	case interp.Bytes:
		return interp.NewByteArray(string(x))
	case *starlark.List:
		for i := 0; i < x.Len(); i++ {
			_ = x.SetIndex(i, asByteArrays(x.Index(i)))
		}
	case starlark.Tuple:
		out := make(starlark.Tuple, len(x))
		for i, e := range x {
			out[i] = asByteArrays(e)
		}
		return out
	}
	return v
}
