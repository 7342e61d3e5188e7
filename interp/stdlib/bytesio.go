package stdlib

import (
	"bytes"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// bytesIO is io.BytesIO: an in-memory binary file, as programs build
// bytes for base64, hashlib or struct. Its position is a byte offset and
// may lie past the end, where a write pads with zero bytes.
type bytesIO struct {
	buf    []byte
	pos    int
	closed bool
	frozen bool
}

// Held shows the memory meter the bytes the BytesIO holds.
func (f *bytesIO) Held(visit func(starlark.Value)) { visit(heldBytes(f.buf)) }

var (
	_ interp.Holder     = (*bytesIO)(nil)
	_ starlark.HasAttrs = (*bytesIO)(nil)
	_ starlark.Iterable = (*bytesIO)(nil)
)

func (f *bytesIO) String() string             { return "<_io.BytesIO object>" }
func (f *bytesIO) Type() string               { return "BytesIO" }
func (f *bytesIO) Freeze()                    { f.frozen = true }
func (f *bytesIO) Truth() starlark.Bool       { return true }
func (f *bytesIO) Hash() (uint32, error)      { return 0, nil }
func (*bytesIO) PyClass() starlark.Value      { return bytesIOClass }
func (f *bytesIO) Iterate() starlark.Iterator { return &bytesLineIter{f: f} }

var bytesIOClass = &pyClass{module: "_io", name: "BytesIO", is: isOf[*bytesIO], ctor: newBytesIO}

// bytesLineIter gives the lines from the position on, moving it.
type bytesLineIter struct{ f *bytesIO }

func (it *bytesLineIter) Next(p *starlark.Value) bool {
	if it.f.closed {
		return false
	}
	line := it.f.readline(-1)
	if len(line) == 0 {
		return false
	}
	*p = interp.Bytes(line)
	return true
}
func (it *bytesLineIter) Done() {}

func newBytesIO(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var initial starlark.Value = starlark.None
	if err := starlark.UnpackArgs("BytesIO", args, kwargs, "initial_bytes?", &initial); err != nil {
		return nil, err
	}
	f := &bytesIO{}
	if initial == starlark.None {
		return f, nil
	}
	b, err := bioBytes(initial)
	if err != nil {
		return nil, err
	}
	if err := interp.BudgetOf(thread).Alloc(int64(len(b))); err != nil {
		return nil, err
	}
	f.buf = []byte(b)
	return f, nil
}

// bytesLike is the data of a bytes or bytearray argument.
func bioBytes(v starlark.Value) (string, error) {
	if b, ok := interp.AsBytes(v); ok {
		return b, nil
	}
	return "", pyrt.Errorf("TypeError", "a bytes-like object is required, not '%s'", pyrt.TypeName(v))
}

func (f *bytesIO) AttrNames() []string { return fileAttrNames(bytesIOMethods) }

func (f *bytesIO) Attr(name string) (starlark.Value, error) {
	switch name {
	case "closed":
		return starlark.Bool(f.closed), nil
	case "__enter__", "__exit__":
		return memFileContext(f, name), nil
	}
	m, ok := bytesIOMethods[name]
	if !ok {
		return nil, noAttrNamed("_io.BytesIO", name)
	}
	return memFileMethod(f, name, "I/O operation on closed file.", m), nil
}

type bytesIOMethod func(thread *starlark.Thread, name string, f *bytesIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

var bytesIOMethods = map[string]bytesIOMethod{
	"write":      bioWrite,
	"writelines": bioWritelines,
	"read":       bioReader((*bytesIO).take),
	"read1":      bioReader((*bytesIO).take),
	"readline":   bioReader((*bytesIO).readline),
	"readlines":  bioReadlines,
	"getvalue":   bioGetvalue,
	"seek":       bioSeek,
	"tell":       bioTell,
	"truncate":   bioTruncate,
	"close":      bioClose,
	"readable":   bioConst(starlark.True),
	"writable":   bioConst(starlark.True),
	"seekable":   bioConst(starlark.True),
	"isatty":     bioConst(starlark.False),
	"flush":      bioConst(starlark.None),
}

func (f *bytesIO) write(thread *starlark.Thread, v starlark.Value) (int, error) {
	b, err := bioBytes(v)
	if err != nil {
		return 0, err
	}
	if f.frozen {
		return 0, pyrt.Errorf("TypeError", "cannot modify a frozen BytesIO")
	}
	end := f.pos + len(b)
	if end > len(f.buf) {
		bud := interp.BudgetOf(thread)
		grown, err := reserve(bud, f.buf, end-len(f.buf))
		if err != nil {
			return 0, err
		}
		if err := bud.Charge(uint64(end-len(f.buf))/64 + 1); err != nil {
			return 0, err
		}
		f.buf = append(grown, make([]byte, end-len(grown))...)
	}
	copy(f.buf[f.pos:], b)
	f.pos = end
	return len(b), nil
}

func bioWrite(thread *starlark.Thread, name string, f *bytesIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &v); err != nil {
		return nil, err
	}
	n, err := f.write(thread, v)
	if err != nil {
		return nil, err
	}
	return starlark.MakeInt(n), nil
}

func bioWritelines(thread *starlark.Thread, name string, f *bytesIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var lines starlark.Value
	if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &lines); err != nil {
		return nil, err
	}
	iter := starlark.Iterate(lines)
	if iter == nil {
		return nil, pyrt.Errorf("TypeError", "'%s' object is not iterable", pyrt.TypeName(lines))
	}
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		if _, err := f.write(thread, x); err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}

// take returns up to n bytes (all for n < 0) from the position on.
func (f *bytesIO) take(n int) []byte {
	if f.pos >= len(f.buf) {
		return nil
	}
	end := len(f.buf)
	if n >= 0 && f.pos+n < end {
		end = f.pos + n
	}
	b := f.buf[f.pos:end]
	f.pos = end
	return b
}

// readline reads up to and including the next b"\n", at most limit bytes
// when limit >= 0.
func (f *bytesIO) readline(limit int) []byte {
	if f.pos >= len(f.buf) {
		return nil
	}
	end := len(f.buf)
	if i := bytes.IndexByte(f.buf[f.pos:], '\n'); i >= 0 {
		end = f.pos + i + 1
	}
	if limit >= 0 && f.pos+limit < end {
		end = f.pos + limit
	}
	b := f.buf[f.pos:end]
	f.pos = end
	return b
}

func bioReader(read func(f *bytesIO, size int) []byte) bytesIOMethod {
	return func(thread *starlark.Thread, name string, f *bytesIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var size starlark.Value = starlark.None
		if err := starlark.UnpackArgs(name, args, kwargs, "size?", &size); err != nil {
			return nil, err
		}
		n, err := sizeArg(size)
		if err != nil {
			return nil, err
		}
		b := read(f, n)
		return interp.Bytes(b), interp.BudgetOf(thread).Charge(uint64(len(b)) / 64)
	}
}

func bioReadlines(thread *starlark.Thread, name string, f *bytesIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var hint starlark.Value = starlark.None
	if err := starlark.UnpackArgs(name, args, kwargs, "hint?", &hint); err != nil {
		return nil, err
	}
	n, err := sizeArg(hint)
	if err != nil {
		return nil, err
	}
	var lines []starlark.Value
	total := 0
	for {
		line := f.readline(-1)
		if len(line) == 0 {
			break
		}
		lines = append(lines, interp.Bytes(line))
		if err := interp.BudgetOf(thread).Charge(uint64(len(line))/64 + 1); err != nil {
			return nil, err
		}
		if total += len(line); n > 0 && total >= n {
			break
		}
	}
	return starlark.NewList(lines), nil
}

func bioGetvalue(thread *starlark.Thread, name string, f *bytesIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
		return nil, err
	}
	return interp.Bytes(f.buf), interp.BudgetOf(thread).Charge(uint64(len(f.buf)) / 64)
}

func bioTell(_ *starlark.Thread, name string, f *bytesIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
		return nil, err
	}
	return starlark.MakeInt(f.pos), nil
}

func bioSeek(_ *starlark.Thread, name string, f *bytesIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var pos, whence int
	if err := starlark.UnpackArgs(name, args, kwargs, "pos", &pos, "whence?", &whence); err != nil {
		return nil, err
	}
	switch whence {
	case 0:
		if pos < 0 {
			return nil, pyrt.Errorf("ValueError", "negative seek value %d", pos)
		}
	case 1:
		pos += f.pos
	case 2:
		pos += len(f.buf)
	default:
		return nil, pyrt.Errorf("ValueError", "invalid whence (%d, should be 0, 1 or 2)", whence)
	}
	f.pos = max(pos, 0)
	return starlark.MakeInt(f.pos), nil
}

func bioTruncate(_ *starlark.Thread, name string, f *bytesIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var size starlark.Value = starlark.None
	if err := starlark.UnpackArgs(name, args, kwargs, "size?", &size); err != nil {
		return nil, err
	}
	if f.frozen {
		return nil, pyrt.Errorf("TypeError", "cannot modify a frozen BytesIO")
	}
	n := f.pos
	if size != starlark.None {
		if err := starlark.AsInt(size, &n); err != nil {
			return nil, pyrt.Errorf("TypeError", "argument should be integer or None, not '%s'", pyrt.TypeName(size))
		}
		if n < 0 {
			return nil, pyrt.Errorf("ValueError", "negative size value %d", n)
		}
	}
	if n < len(f.buf) {
		f.buf = f.buf[:n]
	}
	return starlark.MakeInt(n), nil
}

func bioClose(_ *starlark.Thread, name string, f *bytesIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
		return nil, err
	}
	f.closed = true
	return starlark.None, nil
}

func bioConst(v starlark.Value) bytesIOMethod {
	return func(_ *starlark.Thread, name string, _ *bytesIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return v, starlark.UnpackArgs(name, args, kwargs)
	}
}
