package stdlib

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// zipfile (issue 31): ZipFile over a path or a file object, with Go's
// archive/zip. An archive is read whole through open()'s file objects
// (every byte through the file pack's variants) and written whole at
// close. A member's bytes are charged to the memory budget as they are
// inflated, before each chunk is made, so a zip bomb stops at the budget
// whatever its headers claim. extract and extractall write through
// open(), inside the roots, with member names cleaned as CPython cleans
// them (no absolute paths, no "..").

var badZipFile = pyrt.NewModuleClass("zipfile.BadZipFile", "Exception")

// ZipFileModule is the zipfile module.
func ZipFileModule() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "zipfile", Members: starlark.StringDict{
		"ZipFile":      interp.NewBuiltin("ZipFile", newZipFile),
		"is_zipfile":   interp.NewBuiltin("is_zipfile", isZipfile),
		"BadZipFile":   badZipFile,
		"BadZipfile":   badZipFile,
		"ZIP_STORED":   starlark.MakeInt(0),
		"ZIP_DEFLATED": starlark.MakeInt(8),
		"ZIP_BZIP2":    starlark.MakeInt(12),
		"ZIP_LZMA":     starlark.MakeInt(14),
	}}
}

// zipEntry is a member: read from the archive (file), or added by the
// program (data).
type zipEntry struct {
	name     string
	file     *zip.File
	data     []byte
	method   uint16
	modified time.Time
}

// zipFile is a ZipFile.
type zipFile struct {
	target     *bytesTarget
	mode       string // r, w, a, x
	entries    []*zipEntry
	closed     bool
	compress   uint16
	removeHook func()
	filename   starlark.Value
}

func (z *zipFile) Held(visit func(starlark.Value)) {
	for _, e := range z.entries {
		visit(heldBytes(e.data))
	}
}

var _ interp.Holder = (*zipFile)(nil)

func (z *zipFile) String() string {
	name, _ := interp.Repr(nil, z.filename)
	if z.closed {
		return "<zipfile.ZipFile [closed]>"
	}
	return fmt.Sprintf("<zipfile.ZipFile filename=%s mode='%s'>", name, z.mode)
}
func (z *zipFile) Type() string          { return "ZipFile" }
func (z *zipFile) Freeze()               {}
func (z *zipFile) Truth() starlark.Bool  { return true }
func (z *zipFile) Hash() (uint32, error) { return 0, nil }
func (z *zipFile) AttrNames() []string {
	return []string{"close", "extract", "extractall", "filename", "getinfo", "infolist", "mode", "namelist", "open", "read", "testzip", "write", "writestr"}
}

func compressionOf(v int) (uint16, error) {
	switch v {
	case 0:
		return zip.Store, nil
	case 8:
		return zip.Deflate, nil
	case 12, 14:
		return 0, pyrt.Errorf("NotImplementedError", "compression method %d is not available here: use zipfile.ZIP_DEFLATED or ZIP_STORED", v)
	}
	return 0, pyrt.Errorf("NotImplementedError", "That compression method is not supported")
}

// newZipFile is ZipFile(file, mode='r', compression=ZIP_STORED,
// allowZip64=True, compresslevel=None).
func newZipFile(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var file starlark.Value
	mode := "r"
	compression := 0
	allow64 := true
	var level starlark.Value = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "file", &file, "mode?", &mode, "compression?", &compression,
		"allowZip64?", &allow64, "compresslevel?", &level); err != nil {
		return nil, err
	}
	method, err := compressionOf(compression)
	if err != nil {
		return nil, err
	}
	z := &zipFile{mode: mode, compress: method}
	var binMode string
	switch mode {
	case "r":
		binMode = "rb"
	case "w":
		binMode = "wb"
	case "x":
		binMode = "xb"
	case "a":
		binMode = "r+b"
	default:
		return nil, pyrt.Errorf("ValueError", "ZipFile requires mode 'r', 'w', 'x', or 'a'")
	}
	z.target, err = byteSource(thread, file, binMode)
	if mode == "a" && err != nil && isNotFound(err) {
		z.target, err = byteSource(thread, file, "wb")
		mode, z.mode = "w", "a"
	}
	if err != nil {
		return nil, err
	}
	z.filename = z.target.name
	if mode == "r" || mode == "a" {
		raw, err := z.target.readArchive(thread, mode == "r")
		if err != nil {
			return nil, err
		}
		if len(raw) > 0 || mode == "r" {
			r, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
			if err != nil {
				return nil, badZipFile.Raise("File is not a zip file", nil)
			}
			for _, f := range r.File {
				z.entries = append(z.entries, &zipEntry{name: f.Name, file: f, method: f.Method, modified: f.Modified})
			}
		}
	}
	if mode != "r" {
		z.removeHook = interp.AtEnd(thread, z.String(), z.close)
	}
	return z, nil
}

// readArchive reads the archive's bytes; done closes a path opened only
// to read.
func (t *bytesTarget) readArchive(thread *starlark.Thread, done bool) ([]byte, error) {
	if t.file != nil && !done {
		if err := t.file.loadAll(thread); err != nil {
			return nil, err
		}
		return t.file.bin.buf, nil
	}
	if t.obj != nil {
		if seek, err := pyrt.GetAttr(thread, t.obj, "seek"); err == nil {
			if _, err := starlark.Call(thread, seek, starlark.Tuple{starlark.MakeInt(0)}, nil); err != nil {
				return nil, err
			}
		}
	}
	return t.readAll(thread)
}

func (z *zipFile) Attr(name string) (starlark.Value, error) {
	switch name {
	case "filename":
		return z.filename, nil
	case "mode":
		return starlark.String(z.mode), nil
	case "__enter__":
		return interp.NewBuiltin(name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return z, nil
		}), nil
	case "__exit__", "close":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, z.close(thread)
		}), nil
	}
	m, ok := zipMethods[name]
	if !ok {
		return nil, noAttrNamed("ZipFile", name)
	}
	return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if z.closed && name != "namelist" && name != "infolist" && name != "getinfo" {
			if name == "read" || name == "open" || name == "extract" || name == "extractall" || name == "testzip" {
				return nil, pyrt.Errorf("ValueError", "Attempt to use ZIP archive that was already closed")
			}
			return nil, pyrt.Errorf("ValueError", "Attempt to write to ZIP archive that was closed")
		}
		if err := interp.BudgetOf(thread).Charge(1); err != nil {
			return nil, err
		}
		return m(thread, b.Name(), z, args, kwargs)
	}), nil
}

type zipMethod func(thread *starlark.Thread, name string, z *zipFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

var zipMethods = map[string]zipMethod{
	"namelist":   zipNamelist,
	"infolist":   zipInfolist,
	"getinfo":    zipGetinfo,
	"read":       zipRead,
	"open":       zipOpen,
	"extract":    zipExtract,
	"extractall": zipExtractall,
	"writestr":   zipWritestr,
	"write":      zipWrite,
	"testzip":    zipTestzip,
}

func zipNamelist(_ *starlark.Thread, name string, z *zipFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(z.entries))
	for i, e := range z.entries {
		out[i] = starlark.String(e.name)
	}
	return starlark.NewList(out), nil
}

// zipInfo is a ZipInfo: a member's name, sizes, date and method.
func zipInfo(e *zipEntry) starlark.Value {
	size, csize := int64(len(e.data)), int64(len(e.data))
	if e.file != nil {
		size, csize = int64(e.file.UncompressedSize64), int64(e.file.CompressedSize64)
	}
	t := e.modified
	isDir := strings.HasSuffix(e.name, "/")
	return starlarkstruct.FromStringDict(starlark.String("ZipInfo"), starlark.StringDict{
		"filename":      starlark.String(e.name),
		"file_size":     starlark.MakeInt64(size),
		"compress_size": starlark.MakeInt64(csize),
		"compress_type": starlark.MakeInt(int(e.method)),
		"date_time": starlark.Tuple{starlark.MakeInt(t.Year()), starlark.MakeInt(int(t.Month())), starlark.MakeInt(t.Day()),
			starlark.MakeInt(t.Hour()), starlark.MakeInt(t.Minute()), starlark.MakeInt(t.Second())},
		"is_dir": interp.NewBuiltin("is_dir", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bool(isDir), nil
		}),
	})
}

func zipInfolist(_ *starlark.Thread, name string, z *zipFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(z.entries))
	for i, e := range z.entries {
		out[i] = zipInfo(e)
	}
	return starlark.NewList(out), nil
}

// member finds the entry a name or a ZipInfo names (the last of that
// name, as CPython's).
func (z *zipFile) member(v starlark.Value) (*zipEntry, error) {
	name, ok := interp.AsText(v)
	if !ok {
		if s, isStruct := v.(*starlarkstruct.Struct); isStruct {
			if fn, err := s.Attr("filename"); err == nil {
				name, ok = interp.AsText(fn)
			}
		}
	}
	if !ok {
		return nil, pyrt.Errorf("TypeError", "expected a member name or a ZipInfo, not %s", pyrt.TypeName(v))
	}
	for i := len(z.entries) - 1; i >= 0; i-- {
		if z.entries[i].name == name {
			return z.entries[i], nil
		}
	}
	msg, _ := interp.Repr(nil, starlark.String(fmt.Sprintf("There is no item named '%s' in the archive", name)))
	return nil, pyrt.Errorf("KeyError", "%s", msg)
}

func zipGetinfo(_ *starlark.Thread, name string, z *zipFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var n starlark.Value
	if err := starlark.UnpackArgs(name, args, kwargs, "name", &n); err != nil {
		return nil, err
	}
	e, err := z.member(n)
	if err != nil {
		return nil, err
	}
	return zipInfo(e), nil
}

// contents inflates a member, charging each chunk before it is made.
func (e *zipEntry) contents(thread *starlark.Thread) ([]byte, error) {
	if e.file == nil {
		return e.data, nil
	}
	r, err := e.file.Open()
	if err != nil {
		return nil, zipErr(err)
	}
	defer r.Close()
	return readCharged(thread, r, zipErr)
}

func zipErr(err error) error {
	switch {
	case errors.Is(err, zip.ErrChecksum):
		return badZipFile.Raise("Bad CRC-32 for file", nil)
	case errors.Is(err, zip.ErrAlgorithm):
		return pyrt.Errorf("NotImplementedError", "That compression method is not supported")
	}
	return badZipFile.Raise(err.Error(), nil)
}

func zipRead(thread *starlark.Thread, name string, z *zipFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var n, pwd starlark.Value = nil, starlark.None
	if err := starlark.UnpackArgs(name, args, kwargs, "name", &n, "pwd?", &pwd); err != nil {
		return nil, err
	}
	e, err := z.member(n)
	if err != nil {
		return nil, err
	}
	data, err := e.contents(thread)
	if err != nil {
		return nil, err
	}
	return interp.Bytes(data), nil
}

// zipOpen is ZipFile.open(name, mode='r'): a binary file object over the
// member ('r'), or one whose content becomes a member at its close ('w').
func zipOpen(thread *starlark.Thread, name string, z *zipFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var n, pwd starlark.Value = nil, starlark.None
	mode := "r"
	if err := starlark.UnpackArgs(name, args, kwargs, "name", &n, "mode?", &mode, "pwd?", &pwd); err != nil {
		return nil, err
	}
	switch mode {
	case "r":
		e, err := z.member(n)
		if err != nil {
			return nil, err
		}
		data, err := e.contents(thread)
		if err != nil {
			return nil, err
		}
		return memFileOf(thread, starlark.String(e.name), data, false, openOptions{}, "ZipExtFile", "r")
	case "w":
		if z.mode == "r" {
			return nil, pyrt.Errorf("ValueError", "write() requires mode 'w', 'x', or 'a'")
		}
		member, ok := interp.AsText(n)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "expected a member name, not %s", pyrt.TypeName(n))
		}
		f, err := memFileOf(thread, starlark.String(member), nil, false, openOptions{}, "ZipExtFile", "w")
		if err != nil {
			return nil, err
		}
		f.rd, f.wr, f.dirty = false, true, true
		f.sink = func(_ *starlark.Thread, data []byte) error {
			z.entries = append(z.entries, &zipEntry{name: member, data: append([]byte(nil), data...), method: z.compress, modified: time.Now()})
			return nil
		}
		return f, nil
	}
	return nil, pyrt.Errorf("ValueError", "open() requires mode \"r\" or \"w\"")
}

// cleanMember is where extract puts a member: CPython's cleaning (no
// leading "/", no "." or ".." parts), so a hostile archive cannot write
// outside the target directory; the roots' checks then apply as to any
// write.
func cleanMember(name string) string {
	var parts []string
	for _, p := range strings.Split(strings.ReplaceAll(name, "\\", "/"), "/") {
		if p == "" || p == "." || p == ".." {
			continue
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "/")
}

func (z *zipFile) extract(thread *starlark.Thread, e *zipEntry, dir string) (string, error) {
	rel := cleanMember(e.name)
	target := dir
	if rel != "" {
		target = path.Join(dir, rel)
	}
	if strings.HasSuffix(e.name, "/") || rel == "" {
		if _, err := call(thread, pyops.FileMkdir, map[string]any{"path": target, "parents": true, "exist_ok": true}); err != nil {
			return "", pyErr(err, target)
		}
		return target, nil
	}
	if parent := path.Dir(target); parent != "." && parent != "/" {
		if _, err := call(thread, pyops.FileMkdir, map[string]any{"path": parent, "parents": true, "exist_ok": true}); err != nil {
			return "", pyErr(err, parent)
		}
	}
	data, err := e.contents(thread)
	if err != nil {
		return "", err
	}
	v, err := openFile(thread, starlark.String(target), "wb", openOptions{Buffering: -1, Closefd: true})
	if err != nil {
		return "", err
	}
	f := v.(*fileObj)
	f.bin.buf = data
	f.dirty = true
	return target, f.closeFile(thread)
}

func dirArg(thread *starlark.Thread, v starlark.Value) (string, error) {
	if v == starlark.None {
		return ".", nil
	}
	return fsPath(thread, "path", v)
}

func zipExtract(thread *starlark.Thread, name string, z *zipFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var member, dir, pwd starlark.Value = nil, starlark.None, starlark.None
	if err := starlark.UnpackArgs(name, args, kwargs, "member", &member, "path?", &dir, "pwd?", &pwd); err != nil {
		return nil, err
	}
	e, err := z.member(member)
	if err != nil {
		return nil, err
	}
	d, err := dirArg(thread, dir)
	if err != nil {
		return nil, err
	}
	p, err := z.extract(thread, e, d)
	if err != nil {
		return nil, err
	}
	if !path.IsAbs(p) {
		if cwd := facts(thread).Cwd; cwd != "" {
			p = path.Join(cwd, p)
		}
	}
	return starlark.String(p), nil
}

func zipExtractall(thread *starlark.Thread, name string, z *zipFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var dir, members, pwd starlark.Value = starlark.None, starlark.None, starlark.None
	if err := starlark.UnpackArgs(name, args, kwargs, "path?", &dir, "members?", &members, "pwd?", &pwd); err != nil {
		return nil, err
	}
	d, err := dirArg(thread, dir)
	if err != nil {
		return nil, err
	}
	entries := z.entries
	if members != starlark.None {
		entries = nil
		err := pyrt.ForEach(thread, members, func(v starlark.Value) (bool, error) {
			e, err := z.member(v)
			entries = append(entries, e)
			return false, err
		})
		if err != nil {
			return nil, err
		}
	}
	for _, e := range entries {
		if _, err := z.extract(thread, e, d); err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}

func (z *zipFile) add(thread *starlark.Thread, name string, data []byte, method uint16) error {
	if z.mode == "r" {
		return pyrt.Errorf("ValueError", "write() requires mode 'w', 'x', or 'a'")
	}
	if err := interp.BudgetOf(thread).Alloc(int64(len(data))); err != nil {
		return err
	}
	z.entries = append(z.entries, &zipEntry{name: name, data: append([]byte(nil), data...), method: method, modified: time.Now()})
	return nil
}

func (z *zipFile) methodArg(v starlark.Value) (uint16, error) {
	if v == starlark.None {
		return z.compress, nil
	}
	var n int
	if err := starlark.AsInt(v, &n); err != nil {
		return 0, err
	}
	return compressionOf(n)
}

func zipWritestr(thread *starlark.Thread, name string, z *zipFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var arc, data, ctype, level starlark.Value = nil, nil, starlark.None, starlark.None
	if err := starlark.UnpackArgs(name, args, kwargs, "zinfo_or_arcname", &arc, "data", &data, "compress_type?", &ctype, "compresslevel?", &level); err != nil {
		return nil, err
	}
	member, ok := interp.AsText(arc)
	if !ok {
		if s, isStruct := arc.(*starlarkstruct.Struct); isStruct {
			if fn, err := s.Attr("filename"); err == nil {
				member, ok = interp.AsText(fn)
			}
		}
	}
	if !ok {
		return nil, pyrt.Errorf("TypeError", "expected an archive name or a ZipInfo, not %s", pyrt.TypeName(arc))
	}
	b, ok := interp.AsBytes(data)
	if !ok {
		s, isText := interp.AsText(data)
		if !isText {
			return nil, pyrt.Errorf("TypeError", "a bytes-like object is required, not '%s'", pyrt.TypeName(data))
		}
		b = s // str is written as UTF-8, as CPython's
	}
	method, err := z.methodArg(ctype)
	if err != nil {
		return nil, err
	}
	return starlark.None, z.add(thread, member, []byte(b), method)
}

func zipWrite(thread *starlark.Thread, name string, z *zipFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var filename, arcname, ctype, level starlark.Value = nil, starlark.None, starlark.None, starlark.None
	if err := starlark.UnpackArgs(name, args, kwargs, "filename", &filename, "arcname?", &arcname, "compress_type?", &ctype, "compresslevel?", &level); err != nil {
		return nil, err
	}
	p, err := fsPath(thread, "", filename)
	if err != nil {
		return nil, err
	}
	member := cleanMember(p)
	if arcname != starlark.None {
		s, err := fsPath(thread, "", arcname)
		if err != nil {
			return nil, err
		}
		member = cleanMember(s)
	}
	method, err := z.methodArg(ctype)
	if err != nil {
		return nil, err
	}
	v, err := openFile(thread, filename, "rb", openOptions{Buffering: -1, Closefd: true})
	if err != nil {
		return nil, err
	}
	f := v.(*fileObj)
	if err := f.loadAll(thread); err != nil {
		return nil, err
	}
	data := f.bin.buf
	f.closeFile(thread)
	return starlark.None, z.add(thread, member, data, method)
}

func zipTestzip(thread *starlark.Thread, name string, z *zipFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
		return nil, err
	}
	for _, e := range z.entries {
		if e.file == nil {
			continue
		}
		r, err := e.file.Open()
		if err == nil {
			// Inflate without keeping: the CRC check needs every byte,
			// not memory.
			_, err = io.Copy(io.Discard, &zipChargedReader{r: r, b: interp.BudgetOf(thread)})
			r.Close()
		}
		var ex *pyrt.Exception
		if errors.As(err, &ex) || isBudget(err) {
			return nil, err
		}
		if err != nil {
			return starlark.String(e.name), nil
		}
	}
	return starlark.None, nil
}

// zipChargedReader charges the work of what it reads.
type zipChargedReader struct {
	r io.Reader
	b *interp.Budget
}

func (br *zipChargedReader) Read(p []byte) (int, error) {
	n, err := br.r.Read(p)
	if cerr := br.b.Charge(uint64(n)/16 + 1); cerr != nil {
		return n, cerr
	}
	return n, err
}

// close writes the archive (modes w, x, a) and closes it.
func (z *zipFile) close(thread *starlark.Thread) error {
	if z.closed {
		return nil
	}
	z.closed = true
	if z.removeHook != nil {
		z.removeHook()
	}
	if z.mode == "r" {
		return nil
	}
	var out bytes.Buffer
	w := zip.NewWriter(&out)
	w.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, flate.DefaultCompression)
	})
	b := interp.BudgetOf(thread)
	for _, e := range z.entries {
		if err := b.Room(int64(len(e.data)) + 1024); err != nil {
			return err
		}
		if e.file != nil {
			if err := w.Copy(e.file); err != nil {
				return zipErr(err)
			}
			continue
		}
		fw, err := w.CreateHeader(&zip.FileHeader{Name: e.name, Method: e.method, Modified: e.modified})
		if err != nil {
			return zipErr(err)
		}
		if _, err := fw.Write(e.data); err != nil {
			return zipErr(err)
		}
		if err := b.Charge(uint64(len(e.data))/16 + 1); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return zipErr(err)
	}
	data := out.Bytes()
	if t := z.target; t.file != nil {
		t.file.bin.buf, t.file.bin.pos = nil, 0
		t.file.app = false
	}
	for _, e := range z.entries { // names stay for namelist(); bytes go
		e.data, e.file = nil, nil
	}
	return z.target.writeAll(thread, data)
}

// isZipfile is is_zipfile(filename): whether the file (a path or a file
// object) reads as a zip archive.
func isZipfile(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var file starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "filename", &file); err != nil {
		return nil, err
	}
	t, err := byteSource(thread, file, "rb")
	if err != nil {
		if isBudget(err) {
			return nil, err
		}
		return starlark.False, nil
	}
	raw, err := t.readArchive(thread, true)
	if err != nil {
		if isBudget(err) {
			return nil, err
		}
		return starlark.False, nil
	}
	_, err = zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	return starlark.Bool(err == nil), nil
}
