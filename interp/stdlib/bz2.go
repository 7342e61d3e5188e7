package stdlib

import (
	"errors"
	"io"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// bz2 (issue 31): decompress and open for reading, with Go's
// compress/bzip2. Go has no bzip2 writer and none well kept is served
// here, so compress, BZ2Compressor and the write modes raise, naming
// gzip instead. As gzip, a file is read whole through open()'s file
// objects and what decompression makes is charged to the memory budget
// before each chunk is made: a bz2 bomb stops at the budget.

var bz2FileClass = &pyClass{module: "bz2", name: "BZ2File", ctor: bz2FileCtor, is: func(v starlark.Value) bool {
	f, ok := v.(*fileObj)
	return ok && f.kind == "BZ2File"
}}

// BZ2 is the bz2 module.
func BZ2() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "bz2", Members: starlark.StringDict{
		"open":            interp.NewBuiltin("open", bz2Open),
		"compress":        interp.NewBuiltin("compress", bz2NoWriter("bz2.compress")),
		"decompress":      interp.NewBuiltin("decompress", bz2Decompress),
		"BZ2File":         bz2FileClass,
		"BZ2Compressor":   interp.NewBuiltin("BZ2Compressor", bz2NoWriter("bz2.BZ2Compressor")),
		"BZ2Decompressor": interp.NewBuiltin("BZ2Decompressor", bz2NoDecompressor),
	}}
}

func bz2NoWriter(what string) interp.BuiltinFunc {
	return func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		return nil, pyrt.Errorf("NotImplementedError", "%s is not available here (onetool reads bzip2 but cannot write it): compress with gzip.compress or gzip.open(path, 'wb'), or zipfile with ZIP_DEFLATED", what)
	}
}

func bz2NoDecompressor(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return nil, pyrt.Errorf("NotImplementedError", "bz2.BZ2Decompressor is not available here: decompress whole data with bz2.decompress(data) or read a file with bz2.open(path)")
}

func bz2Err(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return pyrt.Errorf("EOFError", "Compressed file ended before the end-of-stream marker was reached")
	}
	return pyrt.Errorf("OSError", "Invalid data stream")
}

func bz2Decompress(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var data starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "data", &data); err != nil {
		return nil, err
	}
	d, err := bioBytes(data)
	if err != nil {
		return nil, err
	}
	out, err := bz2Bytes(thread, []byte(d))
	var ex *pyrt.Exception
	if errors.As(err, &ex) && ex.Class == "EOFError" { // bz2.decompress says "data", a file "file"
		return nil, pyrt.Errorf("ValueError", "Compressed data ended before the end-of-stream marker was reached")
	}
	if err != nil {
		return nil, err
	}
	return interp.Bytes(out), nil
}

// bz2Bytes decompresses data: empty data is empty, as CPython's.
func bz2Bytes(thread *starlark.Thread, data []byte) ([]byte, error) {
	if len(data) == 0 {
		return nil, nil
	}
	if len(data) < 3 || string(data[:3]) != "BZh" {
		return nil, pyrt.Errorf("OSError", "Invalid data stream")
	}
	return bunzip(thread, data)
}

// bz2Open is bz2.open(filename, mode='rb', compresslevel=9,
// encoding=None, errors=None, newline=None), reading only.
func bz2Open(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
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
	return bz2Read(thread, file, mode, m, text, o)
}

func bz2Read(thread *starlark.Thread, file starlark.Value, mode string, m modeFlags, text bool, o openOptions) (starlark.Value, error) {
	if m.wr || m.plus {
		return nil, pyrt.Errorf("NotImplementedError", "bz2 mode '%s' is not available here (onetool reads bzip2 but cannot write it): write with gzip.open(path, 'wb') instead", mode)
	}
	src, err := byteSource(thread, file, "rb")
	if err != nil {
		return nil, err
	}
	raw, err := src.readAll(thread)
	if err != nil {
		return nil, err
	}
	data, err := bz2Bytes(thread, raw)
	if err != nil {
		return nil, err
	}
	return memFileOf(thread, src.name, data, text, o, "BZ2File", mode)
}

// bz2FileCtor is BZ2File(filename, mode='r', *, compresslevel=9).
func bz2FileCtor(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var file starlark.Value
	mode := "r"
	level := 9
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "filename", &file, "mode?", &mode, "compresslevel?", &level); err != nil {
		return nil, err
	}
	switch mode {
	case "r", "rb":
		m, _ := parseMode("rb")
		return bz2Read(thread, file, mode, m, false, openOptions{})
	case "w", "wb", "x", "xb", "a", "ab":
		return nil, pyrt.Errorf("NotImplementedError", "bz2 mode '%s' is not available here (onetool reads bzip2 but cannot write it): write with gzip.open(path, 'wb') instead", mode)
	}
	return nil, pyrt.Errorf("ValueError", "Invalid mode: %s", reprText(mode))
}
