package stdlib

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// gzip (issue 31): open, compress and decompress with Go's
// compress/gzip. Files are read and written whole through open()'s file
// objects, so every byte goes through the file pack's variants; what a
// decompression makes is charged to the memory budget before it is made,
// chunk by chunk, so a gzip bomb stops at the budget.

var badGzipFile = pyrt.NewModuleClass("gzip.BadGzipFile", "OSError")

// GZip is the gzip module.
func GZip() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "gzip", Members: starlark.StringDict{
		"open":        interp.NewBuiltin("open", gzipOpen),
		"compress":    interp.NewBuiltin("compress", gzipCompress),
		"decompress":  interp.NewBuiltin("decompress", gzipDecompress),
		"BadGzipFile": badGzipFile,
		"GzipFile":    ioClasses["GzipFile"],
	}}
}

func gzipCompress(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var data starlark.Value
	level := 9
	var mtime starlark.Value = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "data", &data, "compresslevel?", &level, "mtime?", &mtime); err != nil {
		return nil, err
	}
	d, err := bioBytes(data)
	if err != nil {
		return nil, err
	}
	out, err := gzipBytes(thread, []byte(d), level)
	if err != nil {
		return nil, err
	}
	return interp.Bytes(out), nil
}

// gzipBytes compresses data (mtime 0, as gzip.compress(mtime=0)).
func gzipBytes(thread *starlark.Thread, data []byte, level int) ([]byte, error) {
	b := interp.BudgetOf(thread)
	if err := b.Alloc(int64(len(data))/2 + 64); err != nil {
		return nil, err
	}
	if err := b.Charge(uint64(len(data))/16 + 1); err != nil {
		return nil, err
	}
	if level < -1 || level > 9 {
		return nil, pyrt.Errorf("ValueError", "Invalid initialization option")
	}
	var out bytes.Buffer
	w, err := gzip.NewWriterLevel(&out, level)
	if err != nil {
		return nil, pyrt.Errorf("ValueError", "%s", err)
	}
	w.Write(data)
	w.Close()
	return out.Bytes(), nil
}

func gzipDecompress(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var data starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "data", &data); err != nil {
		return nil, err
	}
	d, err := bioBytes(data)
	if err != nil {
		return nil, err
	}
	out, err := gunzip(thread, []byte(d))
	if err != nil {
		return nil, err
	}
	return interp.Bytes(out), nil
}

// gunzip decompresses every member of data, charging each chunk to the
// memory budget before it is read.
func gunzip(thread *starlark.Thread, data []byte) ([]byte, error) {
	if len(data) == 0 {
		return nil, nil
	}
	r, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, gzipErr(err)
	}
	return readCharged(thread, r, gzipErr)
}

// readCharged reads r to its end, asking the memory budget for room
// before each chunk it adds: what a decompressor makes cannot outgrow
// the budget however small its input.
func readCharged(thread *starlark.Thread, r io.Reader, mapErr func(error) error) ([]byte, error) {
	b := interp.BudgetOf(thread)
	var out []byte
	chunk := make([]byte, 64<<10)
	for {
		n, err := r.Read(chunk)
		if n > 0 {
			grown, rerr := reserve(b, out, n)
			if rerr != nil {
				return nil, rerr
			}
			if rerr := b.Room(int64(n)); rerr != nil {
				return nil, rerr
			}
			out = append(grown, chunk[:n]...)
			if rerr := b.Charge(uint64(n)/16 + 1); rerr != nil {
				return nil, rerr
			}
		}
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, mapErr(err)
		}
	}
}

func gzipErr(err error) error {
	switch {
	case errors.Is(err, gzip.ErrHeader):
		return badGzipFile.Raise("Not a gzipped file", nil)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return pyrt.Errorf("EOFError", "Compressed file ended before the end-of-stream marker was reached")
	}
	return badGzipFile.Raise(err.Error(), nil)
}

// gzipOpen is gzip.open(filename, mode='rb', compresslevel=9,
// encoding=None, errors=None, newline=None): filename a path or a file
// object.
func gzipOpen(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var file starlark.Value
	mode := "rb"
	level := 9
	var encoding, errs, newline starlark.Value = starlark.None, starlark.None, starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "filename", &file, "mode?", &mode, "compresslevel?", &level,
		"encoding?", &encoding, "errors?", &errs, "newline?", &newline); err != nil {
		return nil, err
	}
	m, err := parseMode(mode)
	if err != nil {
		return nil, err
	}
	text := !m.binary && containsRune(mode, 't')
	if m.plus {
		return nil, pyrt.Errorf("ValueError", "Invalid mode: '%s'", mode)
	}
	if !text && (encoding != starlark.None || errs != starlark.None || newline != starlark.None) {
		return nil, pyrt.Errorf("ValueError", "Argument 'encoding' not supported in binary mode")
	}
	o := openOptions{Buffering: -1, Closefd: true}
	if s, ok := interp.AsText(encoding); ok {
		o.Encoding = s
	}
	if s, ok := interp.AsText(errs); ok {
		o.Errors = s
	}
	if s, ok := interp.AsText(newline); ok {
		o.Newline, o.HasNewline = s, true
	}
	binMode := "rb"
	switch {
	case m.create:
		binMode = "xb"
	case m.app:
		binMode = "ab"
	case m.wr:
		binMode = "wb"
	}
	src, err := byteSource(thread, file, binMode)
	if err != nil {
		return nil, err
	}
	if m.rd {
		raw, err := src.readAll(thread)
		if err != nil {
			return nil, err
		}
		data, err := gunzip(thread, raw)
		if err != nil {
			return nil, err
		}
		return memFileOf(thread, src.name, data, text, o, "GzipFile", mode)
	}
	f, err := memFileOf(thread, src.name, nil, text, o, "GzipFile", mode)
	if err != nil {
		return nil, err
	}
	f.rd, f.wr = false, true
	f.sink = func(th *starlark.Thread, data []byte) error {
		z, err := gzipBytes(th, data, level)
		if err != nil {
			return err
		}
		return src.writeAll(th, z)
	}
	f.dirty = true
	f.removeHook = interp.AtEnd(thread, f.String(), func(th *starlark.Thread) error { return f.closeFile(th) })
	return f, nil
}

func containsRune(s string, r rune) bool {
	for _, c := range s {
		if c == r {
			return true
		}
	}
	return false
}

// memFileOf is a file object over data in memory (a decompressed
// member): binary, kind kind, or a TextIOWrapper over it.
func memFileOf(thread *starlark.Thread, name starlark.Value, data []byte, text bool, o openOptions, kind, mode string) (*fileObj, error) {
	f := &fileObj{name: name, mode: mode, rd: true, kind: kind, binary: !text, thread: thread}
	if text {
		f.kind = "TextIOWrapper"
		if err := f.setText(thread, o); err != nil {
			return nil, err
		}
		f.src = &source{eof: true}
		if err := f.appendText(thread, data); err != nil {
			return nil, err
		}
		f.src = nil
		return f, nil
	}
	f.bin = &bytesIO{buf: data}
	return f, nil
}

// bytesTarget is where an archive's bytes come from and go to: a path
// (through open()'s file objects) or a file object of the program.
type bytesTarget struct {
	name starlark.Value
	file *fileObj       // a path opened by the module
	obj  starlark.Value // a program's file object
}

// byteSource opens file (a path, or an object with read/write) in the
// binary mode.
func byteSource(thread *starlark.Thread, file starlark.Value, mode string) (*bytesTarget, error) {
	if ha, ok := file.(starlark.HasAttrs); ok {
		if _, isFile := file.(*fileObj); isFile || hasAttr(ha, "read") || hasAttr(ha, "write") {
			if _, isPath := file.(interp.PathLike); !isPath {
				name := starlark.Value(starlark.String(""))
				if v, err := ha.Attr("name"); err == nil && v != nil {
					name = v
				}
				return &bytesTarget{obj: file, name: name}, nil
			}
		}
	}
	v, err := openFile(thread, file, mode, openOptions{Buffering: -1, Closefd: true})
	if err != nil {
		return nil, err
	}
	f := v.(*fileObj)
	return &bytesTarget{file: f, name: f.name}, nil
}

func hasAttr(ha starlark.HasAttrs, name string) bool {
	v, err := ha.Attr(name)
	return err == nil && v != nil
}

func (t *bytesTarget) readAll(thread *starlark.Thread) ([]byte, error) {
	if t.file != nil {
		defer t.file.closeFile(thread)
		if err := t.file.loadAll(thread); err != nil {
			return nil, err
		}
		return t.file.bin.buf, nil
	}
	if bio, ok := t.obj.(*bytesIO); ok {
		return bio.buf[min(bio.pos, len(bio.buf)):], nil
	}
	read, err := pyrt.GetAttr(thread, t.obj, "read")
	if err != nil {
		return nil, err
	}
	v, err := starlark.Call(thread, read, nil, nil)
	if err != nil {
		return nil, err
	}
	s, ok := interp.AsBytes(v)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "a bytes-like object is required, not '%s'", pyrt.TypeName(v))
	}
	return []byte(s), nil
}

func (t *bytesTarget) writeAll(thread *starlark.Thread, data []byte) error {
	if t.file != nil {
		if _, err := t.file.bin.write(thread, interp.Bytes(data)); err != nil {
			return err
		}
		t.file.dirty = true
		return t.file.closeFile(thread)
	}
	write, err := pyrt.GetAttr(thread, t.obj, "write")
	if err != nil {
		return err
	}
	_, err = starlark.Call(thread, write, starlark.Tuple{interp.Bytes(data)}, nil)
	return err
}
