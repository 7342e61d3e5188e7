package stdlib

import (
	"archive/tar"
	"bytes"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// tarfile (issue 31): TarFile over a path or a file object, with Go's
// archive/tar, compress/gzip and compress/bzip2 (read only: Go has no
// bzip2 writer and no well-kept one is served here). As zipfile, an
// archive is read whole through open()'s file objects and written whole
// at close; what a decompression makes and what a member holds is charged
// to the memory budget before it is made.
//
// Extraction applies CPython's 'data' filter (PEP 706, the default from
// Python 3.14) whatever filter is asked: a leading "/" is stripped, a
// member that would land outside the destination, a link to an absolute
// path or out of the destination, and a device or FIFO are refused with
// CPython's FilterError subclasses; the other members are still
// extracted, and the first refusal is raised at the end. Files are
// written through open(), so the file pack's roots apply as well.

var (
	tarError            = pyrt.NewModuleClass("tarfile.TarError", "Exception")
	tarReadError        = pyrt.NewModuleSubclass("tarfile.ReadError", tarError)
	tarCompressionError = pyrt.NewModuleSubclass("tarfile.CompressionError", tarError)
	tarStreamError      = pyrt.NewModuleSubclass("tarfile.StreamError", tarError)
	tarExtractError     = pyrt.NewModuleSubclass("tarfile.ExtractError", tarError)
	tarHeaderError      = pyrt.NewModuleSubclass("tarfile.HeaderError", tarError)
	tarFilterError      = pyrt.NewModuleSubclass("tarfile.FilterError", tarError)
	tarAbsolutePath     = pyrt.NewModuleSubclass("tarfile.AbsolutePathError", tarFilterError)
	tarOutside          = pyrt.NewModuleSubclass("tarfile.OutsideDestinationError", tarFilterError)
	tarSpecialFile      = pyrt.NewModuleSubclass("tarfile.SpecialFileError", tarFilterError)
	tarAbsoluteLink     = pyrt.NewModuleSubclass("tarfile.AbsoluteLinkError", tarFilterError)
	tarLinkOutside      = pyrt.NewModuleSubclass("tarfile.LinkOutsideDestinationError", tarFilterError)
)

var (
	tarInfoClass = &pyClass{module: "tarfile", name: "TarInfo", is: isOf[*tarInfo], ctor: newTarInfo}
	tarFileClass = &pyClass{module: "tarfile", name: "TarFile", is: isOf[*tarFile], ctor: newTarFileCtor,
		attrs: func(name string) starlark.Value {
			if name == "open" {
				return interp.NewBuiltin("open", tarOpen)
			}
			return nil
		}}
)

// TarFileModule is the tarfile module.
func TarFileModule() *starlarkstruct.Module {
	m := starlark.StringDict{
		"open":                        interp.NewBuiltin("open", tarOpen),
		"is_tarfile":                  interp.NewBuiltin("is_tarfile", isTarfile),
		"TarFile":                     tarFileClass,
		"TarInfo":                     tarInfoClass,
		"TarError":                    tarError,
		"ReadError":                   tarReadError,
		"CompressionError":            tarCompressionError,
		"StreamError":                 tarStreamError,
		"ExtractError":                tarExtractError,
		"HeaderError":                 tarHeaderError,
		"FilterError":                 tarFilterError,
		"AbsolutePathError":           tarAbsolutePath,
		"OutsideDestinationError":     tarOutside,
		"SpecialFileError":            tarSpecialFile,
		"AbsoluteLinkError":           tarAbsoluteLink,
		"LinkOutsideDestinationError": tarLinkOutside,
		"data_filter":                 interp.NewBuiltin("data_filter", tarFilterFunc("data")),
		"tar_filter":                  interp.NewBuiltin("tar_filter", tarFilterFunc("tar")),
		"fully_trusted_filter":        interp.NewBuiltin("fully_trusted_filter", tarFilterFunc("fully_trusted")),
		"USTAR_FORMAT":                starlark.MakeInt(0),
		"GNU_FORMAT":                  starlark.MakeInt(1),
		"PAX_FORMAT":                  starlark.MakeInt(2),
		"DEFAULT_FORMAT":              starlark.MakeInt(2),
		"ENCODING":                    starlark.String("utf-8"),
		"BLOCKSIZE":                   starlark.MakeInt(512),
		"RECORDSIZE":                  starlark.MakeInt(10240),
	}
	for name, t := range map[string]byte{"REGTYPE": '0', "AREGTYPE": 0, "LNKTYPE": '1', "SYMTYPE": '2', "CHRTYPE": '3',
		"BLKTYPE": '4', "DIRTYPE": '5', "FIFOTYPE": '6', "CONTTYPE": '7', "GNUTYPE_LONGNAME": 'L', "GNUTYPE_LONGLINK": 'K',
		"GNUTYPE_SPARSE": 'S', "XHDTYPE": 'x', "XGLTYPE": 'g', "SOLARIS_XHDTYPE": 'X'} {
		m[name] = starlark.Bytes([]byte{t})
	}
	return &starlarkstruct.Module{Name: "tarfile", Members: m}
}

// tarInfo is a TarInfo: a member read from an archive (arch set), or one
// the program made or added.
type tarInfo struct {
	name, linkname, uname, gname string
	size, mtime, mode, uid, gid  int64
	devmajor, devminor           int64
	typ                          byte
	arch                         *tarFile // the archive it was read from
	idx                          int      // its place there
	off                          int64    // its data's offset in arch.raw; -1: read it through archive/tar (sparse)
	sparse                       bool
	data                         []byte // the content of a member added by the program
	offset                       int64  // the header's offset (offset attribute)
	pax                          map[string]string
}

var (
	_ starlark.HasSetField = (*tarInfo)(nil)
	_ interp.Holder        = (*tarInfo)(nil)
)

func (t *tarInfo) Held(visit func(starlark.Value)) { visit(heldBytes(t.data)) }

func (t *tarInfo) String() string {
	name, _ := interp.Repr(nil, starlark.String(t.name))
	return fmt.Sprintf("<TarInfo %s at %p>", name, t)
}
func (t *tarInfo) Type() string            { return "TarInfo" }
func (t *tarInfo) Freeze()                 {}
func (t *tarInfo) Truth() starlark.Bool    { return true }
func (t *tarInfo) Hash() (uint32, error)   { return 0, nil }
func (t *tarInfo) PyClass() starlark.Value { return tarInfoClass }

var tarInfoFields = []string{"devmajor", "devminor", "gid", "gname", "linkname", "linkpath", "mode", "mtime", "name",
	"offset", "offset_data", "path", "pax_headers", "size", "sparse", "type", "uid", "uname"}

var tarInfoPreds = map[string]func(t *tarInfo) bool{
	"isfile":   func(t *tarInfo) bool { return t.isReg() },
	"isreg":    func(t *tarInfo) bool { return t.isReg() },
	"isdir":    func(t *tarInfo) bool { return t.typ == '5' },
	"issym":    func(t *tarInfo) bool { return t.typ == '2' },
	"islnk":    func(t *tarInfo) bool { return t.typ == '1' },
	"ischr":    func(t *tarInfo) bool { return t.typ == '3' },
	"isblk":    func(t *tarInfo) bool { return t.typ == '4' },
	"isfifo":   func(t *tarInfo) bool { return t.typ == '6' },
	"isdev":    func(t *tarInfo) bool { return t.typ == '3' || t.typ == '4' || t.typ == '6' },
	"issparse": func(t *tarInfo) bool { return t.sparse },
}

func (t *tarInfo) isReg() bool { return t.typ == '0' || t.typ == 0 || t.typ == '7' || t.typ == 'S' }

func (t *tarInfo) AttrNames() []string {
	names := append([]string{"get_info", "replace"}, tarInfoFields...)
	for k := range tarInfoPreds {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func (t *tarInfo) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name", "path":
		return starlark.String(t.name), nil
	case "linkname", "linkpath":
		return starlark.String(t.linkname), nil
	case "uname":
		return starlark.String(t.uname), nil
	case "gname":
		return starlark.String(t.gname), nil
	case "size":
		return starlark.MakeInt64(t.size), nil
	case "mtime":
		return starlark.MakeInt64(t.mtime), nil
	case "mode":
		return starlark.MakeInt64(t.mode), nil
	case "uid":
		return starlark.MakeInt64(t.uid), nil
	case "gid":
		return starlark.MakeInt64(t.gid), nil
	case "devmajor":
		return starlark.MakeInt64(t.devmajor), nil
	case "devminor":
		return starlark.MakeInt64(t.devminor), nil
	case "type":
		return starlark.Bytes([]byte{t.typ}), nil
	case "offset":
		return starlark.MakeInt64(t.offset), nil
	case "offset_data":
		return starlark.MakeInt64(max(t.off, 0)), nil
	case "sparse":
		return starlark.None, nil
	case "pax_headers":
		d := starlark.NewDict(len(t.pax))
		keys := make([]string, 0, len(t.pax))
		for k := range t.pax {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			d.SetKey(starlark.String(k), starlark.String(t.pax[k]))
		}
		return d, nil
	case "get_info":
		return interp.NewBuiltin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackArgs(b.Name(), args, kwargs); err != nil {
				return nil, err
			}
			d := starlark.NewDict(14)
			for _, k := range []string{"name", "mode", "uid", "gid", "size", "mtime", "type", "linkname", "uname", "gname", "devmajor", "devminor"} {
				v, _ := t.Attr(k)
				d.SetKey(starlark.String(k), v)
			}
			return d, nil
		}), nil
	case "replace":
		return interp.NewBuiltin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) > 0 {
				return nil, pyrt.Errorf("TypeError", "TarInfo.replace() takes 1 positional argument but %d were given", len(args)+1)
			}
			c := *t
			for _, kv := range kwargs {
				k, _ := starlark.AsString(kv[0])
				switch k {
				case "deep":
					continue
				case "name", "mtime", "mode", "linkname", "uid", "gid", "uname", "gname":
				default:
					return nil, pyrt.Errorf("TypeError", "TarInfo.replace() got an unexpected keyword argument '%s'", k)
				}
				if err := c.SetField(k, kv[1]); err != nil {
					return nil, err
				}
			}
			return &c, nil
		}), nil
	}
	if p, ok := tarInfoPreds[name]; ok {
		return interp.NewBuiltin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackArgs(b.Name(), args, kwargs); err != nil {
				return nil, err
			}
			return starlark.Bool(p(t)), nil
		}), nil
	}
	return nil, noAttrNamed("TarInfo", name)
}

func (t *tarInfo) SetField(name string, v starlark.Value) error {
	text := func(dst *string) error {
		s, ok := interp.AsText(v)
		if !ok {
			return pyrt.Errorf("TypeError", "TarInfo.%s must be str, not %s", name, pyrt.TypeName(v))
		}
		*dst = s
		return nil
	}
	num := func(dst *int64) error {
		if f, ok := v.(starlark.Float); ok {
			*dst = int64(f)
			return nil
		}
		var n int64
		if err := starlark.AsInt(v, &n); err != nil {
			return pyrt.Errorf("TypeError", "TarInfo.%s must be an int, not %s", name, pyrt.TypeName(v))
		}
		*dst = n
		return nil
	}
	switch name {
	case "name", "path":
		return text(&t.name)
	case "linkname", "linkpath":
		return text(&t.linkname)
	case "uname":
		return text(&t.uname)
	case "gname":
		return text(&t.gname)
	case "size":
		return num(&t.size)
	case "mtime":
		return num(&t.mtime)
	case "mode":
		return num(&t.mode)
	case "uid":
		return num(&t.uid)
	case "gid":
		return num(&t.gid)
	case "devmajor":
		return num(&t.devmajor)
	case "devminor":
		return num(&t.devminor)
	case "type":
		b, ok := interp.AsBytes(v)
		if !ok || len(b) != 1 {
			return pyrt.Errorf("TypeError", "TarInfo.type must be one byte (tarfile.REGTYPE, DIRTYPE, SYMTYPE, …), not %s", pyrt.TypeName(v))
		}
		t.typ = b[0]
		return nil
	case "pax_headers", "sparse", "offset", "offset_data":
		return nil // kept by CPython, unused here
	}
	return noAttrNamed("TarInfo", name)
}

// newTarInfo is TarInfo(name=”).
func newTarInfo(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	name := ""
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "name?", &name); err != nil {
		return nil, err
	}
	return &tarInfo{name: name, mode: 0o644, typ: '0', off: -1}, nil
}

func tarInfoOf(hdr *tar.Header) *tarInfo {
	t := &tarInfo{name: hdr.Name, linkname: hdr.Linkname, uname: hdr.Uname, gname: hdr.Gname, size: hdr.Size,
		mtime: hdr.ModTime.Unix(), mode: hdr.Mode, uid: int64(hdr.Uid), gid: int64(hdr.Gid),
		devmajor: hdr.Devmajor, devminor: hdr.Devminor, typ: hdr.Typeflag, pax: hdr.PAXRecords}
	if hdr.Typeflag == tar.TypeGNUSparse {
		t.sparse = true
	}
	for k := range hdr.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			t.sparse = true
		}
	}
	if t.typ == '5' && len(t.name) > 1 { // CPython drops a directory's trailing slash
		t.name = strings.TrimRight(t.name, "/")
	}
	switch t.typ { // only regular files have data in the archive
	case '1', '2', '3', '4', '5', '6':
		t.size = 0
	}
	return t
}

// header is the tar.Header written for t.
func (t *tarInfo) header() *tar.Header {
	name := t.name
	typ := t.typ
	if typ == 0 || typ == 'S' {
		typ = '0'
	}
	if typ == '5' && !strings.HasSuffix(name, "/") {
		name += "/"
	}
	size := t.size
	if typ != '0' && typ != '7' {
		size = 0
	}
	return &tar.Header{Typeflag: typ, Name: name, Linkname: t.linkname, Size: size, Mode: t.mode,
		Uid: int(t.uid), Gid: int(t.gid), Uname: t.uname, Gname: t.gname, ModTime: time.Unix(t.mtime, 0),
		Devmajor: t.devmajor, Devminor: t.devminor}
}

// tarFile is a TarFile.
type tarFile struct {
	target     *bytesTarget
	name       starlark.Value
	mode       string // r, w, a, x
	comp       string // "", "gz", "bz2"
	level      int
	raw        []byte // the decompressed archive read (modes r, a)
	members    []*tarInfo
	pos        int // next()'s place
	closed     bool
	errorlevel int
	removeHook func()
}

var (
	_ interp.Holder     = (*tarFile)(nil)
	_ starlark.Iterable = (*tarFile)(nil)
)

func (tf *tarFile) Held(visit func(starlark.Value)) {
	visit(heldBytes(tf.raw))
	for _, m := range tf.members {
		visit(heldBytes(m.data))
	}
}

func (tf *tarFile) String() string          { return fmt.Sprintf("<tarfile.TarFile object at %p>", tf) }
func (tf *tarFile) Type() string            { return "TarFile" }
func (tf *tarFile) Freeze()                 {}
func (tf *tarFile) Truth() starlark.Bool    { return true }
func (tf *tarFile) Hash() (uint32, error)   { return 0, nil }
func (tf *tarFile) PyClass() starlark.Value { return tarFileClass }
func (tf *tarFile) Iterate() starlark.Iterator {
	tf.pos = len(tf.members) // CPython's iteration reads every header: next() is then at the end
	return &tarIter{tf: tf}
}

type tarIter struct {
	tf *tarFile
	i  int
}

func (it *tarIter) Next(p *starlark.Value) bool {
	if it.i >= len(it.tf.members) {
		return false
	}
	*p = it.tf.members[it.i]
	it.i++
	return true
}
func (it *tarIter) Done() {}

// tarModes splits open's mode ("r:gz", "w|bz2", "r:*") into the action
// and the compression ("*": find out).
func tarModes(mode string) (action, comp string, err error) {
	action, comp, found := strings.Cut(mode, ":")
	if !found {
		action, comp, found = strings.Cut(mode, "|")
	}
	if !found {
		comp = "*"
		if mode != "r" {
			comp = ""
		}
	}
	switch action {
	case "r", "w", "a", "x":
	default:
		return "", "", pyrt.Errorf("ValueError", "undiscernible mode")
	}
	switch comp {
	case "", "*", "gz", "bz2", "xz", "tar":
	default:
		return "", "", tarCompressionError.Raise(fmt.Sprintf("unknown compression type '%s'", comp), nil)
	}
	if comp == "tar" {
		comp = ""
	}
	if comp == "*" && action != "r" {
		return "", "", pyrt.Errorf("ValueError", "undiscernible mode")
	}
	if action == "a" && comp != "" {
		return "", "", pyrt.Errorf("ValueError", "mode must be 'r', 'a', 'w' or 'x'")
	}
	if action != "r" && comp == "bz2" {
		return "", "", tarCompressionError.Raise("writing bz2 is not available here (no bzip2 writer): use mode 'w:gz' or 'w'", nil)
	}
	if comp == "xz" {
		return "", "", tarCompressionError.Raise("xz (lzma) archives are not available here: use .tar.gz or .tar (mode 'r:gz' / 'w:gz')", nil)
	}
	return action, comp, nil
}

// tarOpen is tarfile.open(name=None, mode='r', fileobj=None,
// bufsize=10240, **kwargs), and TarFile.open.
func tarOpen(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name, fileobj starlark.Value = starlark.None, starlark.None
	mode := "r"
	var bufsize starlark.Value = starlark.None
	level, format, errorlevel := 9, 2, 1
	var encoding, errs, deref, ignoreZeros, tarinfo, debug, pax starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "name?", &name, "mode?", &mode, "fileobj?", &fileobj, "bufsize?", &bufsize,
		"compresslevel?", &level, "format?", &format, "errorlevel?", &errorlevel, "encoding?", &encoding, "errors?", &errs,
		"dereference?", &deref, "ignore_zeros?", &ignoreZeros, "tarinfo?", &tarinfo, "debug?", &debug, "pax_headers?", &pax); err != nil {
		return nil, err
	}
	if name == starlark.None && fileobj == starlark.None {
		return nil, pyrt.Errorf("ValueError", "nothing to open")
	}
	action, comp, err := tarModes(mode)
	if err != nil {
		return nil, err
	}
	if level < 0 || level > 9 {
		return nil, pyrt.Errorf("ValueError", "Invalid initialization option")
	}
	return openTar(thread, name, fileobj, action, comp, level, errorlevel)
}

// newTarFileCtor is TarFile(name=None, mode='r', fileobj=None, ...): an
// uncompressed archive.
func newTarFileCtor(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name, fileobj starlark.Value = starlark.None, starlark.None
	mode := "r"
	format, errorlevel := 2, 1
	var encoding, errs, deref, ignoreZeros, tarinfo, debug, pax, copybufsize starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "name?", &name, "mode?", &mode, "fileobj?", &fileobj,
		"format?", &format, "tarinfo?", &tarinfo, "dereference?", &deref, "ignore_zeros?", &ignoreZeros, "encoding?", &encoding,
		"errors?", &errs, "pax_headers?", &pax, "debug?", &debug, "errorlevel?", &errorlevel, "copybufsize?", &copybufsize); err != nil {
		return nil, err
	}
	if len(mode) != 1 || !strings.Contains("rawx", mode) {
		return nil, pyrt.Errorf("ValueError", "mode must be 'r', 'a', 'w' or 'x'")
	}
	return openTar(thread, name, fileobj, mode, "", 9, errorlevel)
}

func openTar(thread *starlark.Thread, name, fileobj starlark.Value, action, comp string, level, errorlevel int) (*tarFile, error) {
	tf := &tarFile{mode: action, comp: comp, level: level, errorlevel: errorlevel}
	file := fileobj
	if file == starlark.None {
		file = name
	}
	binMode := map[string]string{"r": "rb", "w": "wb", "x": "xb", "a": "r+b"}[action]
	var err error
	tf.target, err = byteSource(thread, file, binMode)
	if action == "a" && err != nil && isNotFound(err) {
		tf.target, err = byteSource(thread, file, "wb")
		action = "w"
	}
	if err != nil {
		return nil, err
	}
	tf.name = tf.target.name
	if name != starlark.None && fileobj != starlark.None {
		tf.name = name
	}
	if action == "r" || action == "a" {
		raw, err := tf.target.readArchive(thread, action == "r")
		if err != nil {
			return nil, err
		}
		if action == "r" || len(raw) > 0 {
			if err := tf.load(thread, raw); err != nil {
				if tf.target.file != nil && action == "a" {
					tf.target.file.closeFile(thread)
				}
				return nil, err
			}
		}
	}
	if tf.mode != "r" {
		tf.removeHook = interp.AtEnd(thread, tf.String(), tf.close)
	}
	return tf, nil
}

// tarMagic is the compression raw starts with.
func tarMagic(raw []byte) string {
	switch {
	case bytes.HasPrefix(raw, []byte{0x1f, 0x8b}):
		return "gz"
	case bytes.HasPrefix(raw, []byte("BZh")):
		return "bz2"
	case bytes.HasPrefix(raw, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		return "xz"
	}
	return ""
}

// load decompresses raw as tf.comp says ("*": as its first bytes say)
// and reads the members' headers.
func (tf *tarFile) load(thread *starlark.Thread, raw []byte) error {
	comp := tf.comp
	if comp == "*" {
		comp = tarMagic(raw)
		if comp == "xz" {
			return tarCompressionError.Raise("xz (lzma) archives are not available here: ask for a .tar.gz or .tar instead", nil)
		}
		if err := tf.tryLoad(thread, raw, comp); err != nil {
			var ex *pyrt.Exception
			if isBudget(err) || !errors.As(err, &ex) || ex.Class != "ReadError" {
				return err
			}
			// CPython's message when no method fits.
			methods := map[string]string{"gz": "not a gzip file", "bz2": "not a bzip2 file", "tar": ex.Msg}
			if len(raw) == 0 {
				methods["gz"] = "empty file"
			}
			if comp != "" {
				methods[comp] = ex.Msg
				methods["tar"] = tarPlainError(raw)
			}
			msg := fmt.Sprintf("file could not be opened successfully:\n- method gz: ReadError('%s')\n- method bz2: ReadError('%s')\n- method xz: ReadError('not an lzma file')\n- method tar: ReadError('%s')",
				methods["gz"], methods["bz2"], methods["tar"])
			return tarReadError.Raise(msg, nil)
		}
		return nil
	}
	return tf.tryLoad(thread, raw, comp)
}

// tarPlainError is the ReadError of raw read as an uncompressed archive.
func tarPlainError(raw []byte) string {
	switch {
	case len(raw) == 0:
		return "empty file"
	case len(raw) < 512:
		return "truncated header"
	}
	return "invalid header"
}

func (tf *tarFile) tryLoad(thread *starlark.Thread, raw []byte, comp string) error {
	switch comp {
	case "gz":
		if len(raw) == 0 {
			return tarReadError.Raise("empty file", nil)
		}
		if tarMagic(raw) != "gz" {
			return tarReadError.Raise("not a gzip file", nil)
		}
		data, err := gunzip(thread, raw)
		if err != nil {
			if isBudget(err) {
				return err
			}
			return tarReadError.Raise("not a gzip file", nil)
		}
		raw = data
	case "bz2":
		if tarMagic(raw) != "bz2" {
			return tarReadError.Raise("not a bzip2 file", nil)
		}
		data, err := bunzip(thread, raw)
		if err != nil {
			if isBudget(err) {
				return err
			}
			return tarReadError.Raise("not a bzip2 file", nil)
		}
		raw = data
	}
	tf.raw = raw
	return tf.readHeaders(thread)
}

// readHeaders reads every member's header: a broken first header is
// ReadError, a later one ends the archive there (as CPython's next()).
func (tf *tarFile) readHeaders(thread *starlark.Thread) error {
	b := interp.BudgetOf(thread)
	r := bytes.NewReader(tf.raw)
	tr := tar.NewReader(r)
	for {
		if err := b.Charge(64); err != nil {
			return err
		}
		start := r.Size() - int64(r.Len())
		hdr, err := tr.Next()
		if err == io.EOF {
			if len(tf.members) == 0 && len(tf.raw) == 0 {
				return tarReadError.Raise("empty file", nil)
			}
			return nil
		}
		if err != nil {
			if len(tf.members) == 0 {
				return tarReadError.Raise(tarPlainError(tf.raw), nil)
			}
			return nil
		}
		if hdr.Typeflag == tar.TypeXGlobalHeader {
			continue
		}
		t := tarInfoOf(hdr)
		t.arch, t.idx, t.offset = tf, len(tf.members), start
		t.off = r.Size() - int64(r.Len())
		if t.sparse {
			t.off = -1
		}
		if err := b.Alloc(int64(256 + len(t.name) + len(t.linkname))); err != nil {
			return err
		}
		tf.members = append(tf.members, t)
	}
}

// contents is a member's data, charged as it is read: a slice of the
// archive for most; a sparse member is expanded through archive/tar,
// chunk by chunk, so its holes cannot outgrow the budget.
func (tf *tarFile) contents(thread *starlark.Thread, t *tarInfo) ([]byte, error) {
	if t.arch == nil {
		return t.data, nil
	}
	if !t.isReg() {
		return nil, nil
	}
	if t.off >= 0 {
		end := t.off + t.size
		if end > int64(len(t.arch.raw)) || t.size < 0 {
			return nil, tarReadError.Raise("unexpected end of data", nil)
		}
		if err := interp.BudgetOf(thread).Charge(uint64(t.size)/64 + 1); err != nil {
			return nil, err
		}
		return t.arch.raw[t.off:end:end], nil
	}
	tr := tar.NewReader(bytes.NewReader(t.arch.raw))
	for i := 0; ; {
		hdr, err := tr.Next()
		if err != nil {
			return nil, tarReadError.Raise("unexpected end of data", nil)
		}
		if hdr.Typeflag == tar.TypeXGlobalHeader {
			continue
		}
		if i == t.idx {
			break
		}
		i++
	}
	return readCharged(thread, tr, func(err error) error { return tarReadError.Raise(err.Error(), nil) })
}

// bunzip decompresses bzip2 data (every stream), charging each chunk
// before it is made.
func bunzip(thread *starlark.Thread, data []byte) ([]byte, error) {
	return readCharged(thread, bzip2.NewReader(bytes.NewReader(data)), bz2Err)
}

func (tf *tarFile) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return tf.name, nil
	case "mode":
		return starlark.String(tf.mode), nil
	case "errorlevel":
		return starlark.MakeInt(tf.errorlevel), nil
	case "fileobj":
		if tf.target.obj != nil {
			return tf.target.obj, nil
		}
		return starlark.None, nil
	case "__enter__":
		return interp.NewBuiltin(name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return tf, nil
		}), nil
	case "__exit__", "close":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, tf.close(thread)
		}), nil
	}
	m, ok := tarMethods[name]
	if !ok {
		return nil, noAttrNamed("TarFile", name)
	}
	return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if tf.closed {
			return nil, pyrt.Errorf("OSError", "TarFile is closed")
		}
		if err := interp.BudgetOf(thread).Charge(1); err != nil {
			return nil, err
		}
		return m(thread, b.Name(), tf, args, kwargs)
	}), nil
}

func (tf *tarFile) AttrNames() []string {
	names := []string{"close", "errorlevel", "fileobj", "mode", "name"}
	for k := range tarMethods {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

type tarMethod func(thread *starlark.Thread, name string, tf *tarFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

var tarMethods = map[string]tarMethod{
	"getmembers":  tarGetmembers,
	"getnames":    tarGetnames,
	"getmember":   tarGetmember,
	"next":        tarNext,
	"extractfile": tarExtractfile,
	"extract":     tarExtract,
	"extractall":  tarExtractall,
	"add":         tarAdd,
	"addfile":     tarAddfile,
	"gettarinfo":  tarGettarinfo,
	"list":        tarList,
}

func (tf *tarFile) check(modes string) error {
	if !strings.Contains(modes, tf.mode) {
		return pyrt.Errorf("OSError", "bad operation for mode '%s'", tf.mode)
	}
	return nil
}

func tarGetmembers(_ *starlark.Thread, name string, tf *tarFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(tf.members))
	for i, m := range tf.members {
		out[i] = m
	}
	tf.pos = len(tf.members)
	return starlark.NewList(out), nil
}

func tarGetnames(_ *starlark.Thread, name string, tf *tarFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(tf.members))
	for i, m := range tf.members {
		out[i] = starlark.String(m.name)
	}
	return starlark.NewList(out), nil
}

// find is the last member named name (trailing slashes aside, as
// CPython's getmember), or nil.
func (tf *tarFile) find(name string, normalize bool, before int) *tarInfo {
	if normalize {
		name = path.Clean(name)
	} else {
		name = strings.TrimRight(name, "/")
	}
	for i := min(before, len(tf.members)) - 1; i >= 0; i-- {
		m := tf.members[i].name
		if normalize {
			m = path.Clean(m)
		}
		if m == name {
			return tf.members[i]
		}
	}
	return nil
}

func (tf *tarFile) memberArg(v starlark.Value) (*tarInfo, error) {
	if t, ok := v.(*tarInfo); ok {
		return t, nil
	}
	s, ok := interp.AsText(v)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "expected a member name or a TarInfo, not %s", pyrt.TypeName(v))
	}
	if t := tf.find(s, false, len(tf.members)); t != nil {
		return t, nil
	}
	msg, _ := interp.Repr(nil, starlark.String(fmt.Sprintf("filename %s not found", reprText(s))))
	return nil, pyrt.Errorf("KeyError", "%s", msg)
}

func reprText(s string) string {
	r, _ := interp.Repr(nil, starlark.String(s))
	return r
}

func tarGetmember(_ *starlark.Thread, name string, tf *tarFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var n starlark.Value
	if err := starlark.UnpackArgs(name, args, kwargs, "name", &n); err != nil {
		return nil, err
	}
	if _, ok := interp.AsText(n); !ok {
		return nil, pyrt.Errorf("TypeError", "getmember() expects a str, not %s", pyrt.TypeName(n))
	}
	return tf.memberArg(n)
}

func tarNext(_ *starlark.Thread, name string, tf *tarFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
		return nil, err
	}
	if err := tf.check("r"); err != nil {
		return nil, err
	}
	if tf.pos >= len(tf.members) {
		return starlark.None, nil
	}
	tf.pos++
	return tf.members[tf.pos-1], nil
}

// linkTarget is the member a link member stands for (CPython's
// _find_link_target), or nil.
func (tf *tarFile) linkTarget(t *tarInfo) *tarInfo {
	if t.typ == '2' {
		return tf.find(path.Join(path.Dir(t.name), t.linkname), true, len(tf.members))
	}
	limit := len(tf.members)
	if t.arch == tf {
		limit = t.idx
	}
	return tf.find(t.linkname, true, limit)
}

func tarExtractfile(thread *starlark.Thread, name string, tf *tarFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var member starlark.Value
	if err := starlark.UnpackArgs(name, args, kwargs, "member", &member); err != nil {
		return nil, err
	}
	if err := tf.check("r"); err != nil {
		return nil, err
	}
	t, err := tf.memberArg(member)
	if err != nil {
		return nil, err
	}
	for hops := 0; t != nil && (t.typ == '1' || t.typ == '2'); hops++ {
		next := tf.linkTarget(t)
		if next == nil || hops > 32 {
			return nil, tarStreamError.Raise("cannot extract (sym)link as file object", nil)
		}
		t = next
	}
	if !t.isReg() {
		return starlark.None, nil
	}
	data, err := tf.contents(thread, t)
	if err != nil {
		return nil, err
	}
	f, err := memFileOf(thread, starlark.String(t.name), data, false, openOptions{}, "BufferedReader", "rb")
	if err != nil {
		return nil, err
	}
	return f, nil
}

// tarFilter is an extraction filter: "data", "tar", "fully_trusted",
// or a program's callable.
type tarFilter struct {
	name string
	fn   starlark.Callable
}

func filterArg(v starlark.Value) (tarFilter, error) {
	if v == nil || v == starlark.None {
		return tarFilter{name: "data"}, nil
	}
	if s, ok := interp.AsText(v); ok {
		switch s {
		case "data", "tar", "fully_trusted":
			return tarFilter{name: s}, nil
		}
		return tarFilter{}, pyrt.Errorf("ValueError", "filter %s not found", reprText(s))
	}
	if c, ok := v.(starlark.Callable); ok {
		return tarFilter{name: "data", fn: c}, nil
	}
	return tarFilter{}, pyrt.Errorf("TypeError", "filter must be a str or a callable, not %s", pyrt.TypeName(v))
}

// checkMember is the 'data' filter's test of t for extraction into dest
// (absolute): the name relative to dest to write, or a FilterError.
// "tar" and "fully_trusted" are held to it too (onetool extracts data
// only: it cannot make devices, links or owners), save that "tar" skips
// special files instead of refusing them.
func checkMember(t *tarInfo, dest, filter string) (string, error) {
	name := strings.TrimLeft(t.name, "/")
	target := path.Join(dest, name)
	if !within(target, dest) {
		return "", tarOutside.Raise(fmt.Sprintf("%s would be extracted to %s, which is outside the destination", reprText(t.name), reprText(target)), nil)
	}
	switch t.typ {
	case '3', '4', '6':
		if filter == "tar" || filter == "fully_trusted" {
			return "", nil
		}
		return "", tarSpecialFile.Raise(fmt.Sprintf("%s is a special file", reprText(t.name)), nil)
	case '1', '2':
		if strings.HasPrefix(t.linkname, "/") {
			return "", tarAbsoluteLink.Raise(fmt.Sprintf("%s is a link to an absolute path", reprText(t.name)), nil)
		}
		var lt string
		if t.typ == '2' {
			lt = path.Join(dest, path.Dir(name), t.linkname)
		} else {
			lt = path.Join(dest, t.linkname)
		}
		if !within(lt, dest) {
			return "", tarLinkOutside.Raise(fmt.Sprintf("%s would link to %s, which is outside the destination", reprText(t.name), reprText(lt)), nil)
		}
	}
	return name, nil
}

func within(p, dir string) bool {
	p, dir = path.Clean(p), path.Clean(dir)
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}

// tarFilterFunc is tarfile.data_filter(member, path) and its kin: the
// member to extract (a copy with CPython's safe mode and no owner, for
// data), or the FilterError.
func tarFilterFunc(kind string) interp.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var m starlark.Value
		var dest string
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "member", &m, "dest_path", &dest); err != nil {
			return nil, err
		}
		t, ok := m.(*tarInfo)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "expected a TarInfo, not %s", pyrt.TypeName(m))
		}
		if kind == "fully_trusted" {
			return t, nil
		}
		if _, err := checkMember(t, absDest(thread, dest), kind); err != nil {
			return nil, err
		}
		c := safeInfo(t, kind)
		return c, nil
	}
}

// safeInfo is t as the data (or tar) filter changes it: no high mode
// bits nor group/other write, an owner that can read and write a file,
// no owner names for data.
func safeInfo(t *tarInfo, kind string) *tarInfo {
	c := *t
	c.name = strings.TrimLeft(t.name, "/")
	c.mode &= 0o755
	if kind == "data" {
		if c.isReg() || c.typ == '1' {
			if c.mode&0o100 == 0 {
				c.mode &^= 0o111
			}
			c.mode |= 0o600
		}
		c.uid, c.gid, c.uname, c.gname = 0, 0, "", ""
	}
	return &c
}

func absDest(thread *starlark.Thread, dest string) string {
	if dest == "" {
		dest = "."
	}
	if !path.IsAbs(dest) {
		if cwd := facts(thread).Cwd; cwd != "" {
			dest = path.Join(cwd, dest)
		}
	}
	return path.Clean(dest)
}

// extractOne writes t under dir (as the program wrote it) whose absolute
// form is abs; rel is its cleaned name.
func (tf *tarFile) extractOne(thread *starlark.Thread, t *tarInfo, dir, rel string) error {
	if rel == "" || rel == "." {
		return nil
	}
	target := path.Join(dir, rel)
	mkdir := func(p string) error {
		if _, err := call(thread, pyops.FileMkdir, map[string]any{"path": p, "parents": true, "exist_ok": true}); err != nil {
			return pyErr(err, p)
		}
		return nil
	}
	switch {
	case t.typ == '5':
		return mkdir(target)
	case t.typ == '1' || t.typ == '2':
		// The file pack makes no links: as CPython where links cannot
		// be made, the member linked to is written in the link's place.
		src := tf.linkTarget(t)
		if src == nil || !src.isReg() {
			return nil // CPython's ExtractError, ignored at errorlevel 1
		}
		t = src
	case !t.isReg():
		return nil
	}
	if parent := path.Dir(target); parent != "." && parent != "/" {
		if err := mkdir(parent); err != nil {
			return err
		}
	}
	data, err := tf.contents(thread, t)
	if err != nil {
		return err
	}
	v, err := openFile(thread, starlark.String(target), "wb", openOptions{Buffering: -1, Closefd: true})
	if err != nil {
		return err
	}
	f := v.(*fileObj)
	f.bin.buf = data
	f.dirty = true
	return f.closeFile(thread)
}

// extract filters t and writes it: a refusal comes back as refused, an
// I/O error as err.
func (tf *tarFile) extract(thread *starlark.Thread, t *tarInfo, dir string, flt tarFilter) (refused, err error) {
	abs := absDest(thread, dir)
	if flt.fn != nil {
		v, err := starlark.Call(thread, flt.fn, starlark.Tuple{t, starlark.String(abs)}, nil)
		if err != nil {
			return nil, err
		}
		if v == starlark.None {
			return nil, nil
		}
		nt, ok := v.(*tarInfo)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "the filter must return a TarInfo or None, not %s", pyrt.TypeName(v))
		}
		nt.arch, nt.idx, nt.off = t.arch, t.idx, t.off
		t = nt
	}
	rel, ferr := checkMember(t, abs, flt.name)
	if ferr != nil {
		return ferr, nil
	}
	return nil, tf.extractOne(thread, t, dir, rel)
}

func tarExtract(thread *starlark.Thread, name string, tf *tarFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var member, dir, setAttrs, numeric, filter starlark.Value = nil, starlark.String(""), starlark.True, starlark.False, starlark.None
	if err := starlark.UnpackArgs(name, args, kwargs, "member", &member, "path?", &dir, "set_attrs?", &setAttrs,
		"numeric_owner?", &numeric, "filter?", &filter); err != nil {
		return nil, err
	}
	if err := tf.check("r"); err != nil {
		return nil, err
	}
	flt, err := filterArg(filter)
	if err != nil {
		return nil, err
	}
	t, err := tf.memberArg(member)
	if err != nil {
		return nil, err
	}
	d, err := dirArg(thread, dir)
	if err != nil {
		return nil, err
	}
	if d == "" {
		d = "."
	}
	refused, err := tf.extract(thread, t, d, flt)
	if err != nil {
		return nil, err
	}
	if refused != nil && tf.errorlevel > 0 {
		return nil, refused
	}
	return starlark.None, nil
}

func tarExtractall(thread *starlark.Thread, name string, tf *tarFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var dir, members, numeric, filter starlark.Value = starlark.String("."), starlark.None, starlark.False, starlark.None
	if err := starlark.UnpackArgs(name, args, kwargs, "path?", &dir, "members?", &members, "numeric_owner?", &numeric, "filter?", &filter); err != nil {
		return nil, err
	}
	if err := tf.check("r"); err != nil {
		return nil, err
	}
	flt, err := filterArg(filter)
	if err != nil {
		return nil, err
	}
	d, err := dirArg(thread, dir)
	if err != nil {
		return nil, err
	}
	if d == "" {
		d = "."
	}
	list := tf.members
	if members != starlark.None {
		list = nil
		err := pyrt.ForEach(thread, members, func(v starlark.Value) (bool, error) {
			t, err := tf.memberArg(v)
			list = append(list, t)
			return false, err
		})
		if err != nil {
			return nil, err
		}
	}
	var first error
	for _, t := range list {
		refused, err := tf.extract(thread, t, d, flt)
		if err != nil {
			return nil, err
		}
		if first == nil {
			first = refused
		}
	}
	if first != nil && tf.errorlevel > 0 {
		return nil, first
	}
	return starlark.None, nil
}

// addMember appends t (a copy) with data to an archive being written.
func (tf *tarFile) addMember(thread *starlark.Thread, t *tarInfo, data []byte) error {
	if err := interp.BudgetOf(thread).Alloc(int64(len(data)) + 512); err != nil {
		return err
	}
	c := *t
	c.arch, c.off, c.idx = nil, -1, len(tf.members)
	c.data = data
	c.size = int64(len(data))
	if !c.isReg() {
		c.size = 0
	}
	tf.members = append(tf.members, &c)
	return nil
}

func tarAddfile(thread *starlark.Thread, name string, tf *tarFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var info, fileobj starlark.Value = nil, starlark.None
	if err := starlark.UnpackArgs(name, args, kwargs, "tarinfo", &info, "fileobj?", &fileobj); err != nil {
		return nil, err
	}
	if err := tf.check("awx"); err != nil {
		return nil, err
	}
	t, ok := info.(*tarInfo)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "addfile() expects a TarInfo, not %s", pyrt.TypeName(info))
	}
	var data []byte
	if t.isReg() {
		if fileobj == starlark.None {
			if t.size != 0 {
				return nil, pyrt.Errorf("ValueError", "fileobj not provided for non zero-size regular file")
			}
		} else {
			if t.size < 0 {
				return nil, pyrt.Errorf("ValueError", "negative size")
			}
			if err := interp.BudgetOf(thread).Alloc(t.size); err != nil {
				return nil, err
			}
			read, err := pyrt.GetAttr(thread, fileobj, "read")
			if err != nil {
				return nil, err
			}
			v, err := starlark.Call(thread, read, starlark.Tuple{starlark.MakeInt64(t.size)}, nil)
			if err != nil {
				return nil, err
			}
			s, ok := interp.AsBytes(v)
			if !ok {
				return nil, pyrt.Errorf("TypeError", "a bytes-like object is required, not '%s'", pyrt.TypeName(v))
			}
			if int64(len(s)) < t.size {
				return nil, pyrt.Errorf("OSError", "unexpected end of data")
			}
			data = []byte(s)
		}
	}
	return starlark.None, tf.addMember(thread, t, data)
}

// statInfo is gettarinfo's TarInfo for the entry e of the file at p.
func statInfo(e fsEntry, arcname string) *tarInfo {
	t := &tarInfo{name: arcname, mode: e.modeOf() & 0o7777, mtime: e.mtime / 1e9, typ: '0', off: -1}
	switch {
	case e.typ == "dir":
		t.typ = '5'
	case e.typ == "file":
		t.size = e.size
	default:
		return nil
	}
	return t
}

// arcName is CPython's cleaning of an archive name: "/" separators, no
// leading "/".
func arcName(s string) string {
	return strings.TrimLeft(strings.ReplaceAll(s, "\\", "/"), "/")
}

func tarGettarinfo(thread *starlark.Thread, name string, tf *tarFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var file, arcname, fileobj starlark.Value = starlark.None, starlark.None, starlark.None
	if err := starlark.UnpackArgs(name, args, kwargs, "name?", &file, "arcname?", &arcname, "fileobj?", &fileobj); err != nil {
		return nil, err
	}
	if file == starlark.None && fileobj != starlark.None {
		if v, err := pyrt.GetAttr(thread, fileobj, "name"); err == nil {
			file = v
		}
	}
	p, err := fsPath(thread, "name", file)
	if err != nil {
		return nil, err
	}
	arc := p
	if arcname != starlark.None {
		if arc, err = fsPath(thread, "arcname", arcname); err != nil {
			return nil, err
		}
	}
	e, err := hostStat(thread, p, true)
	if err != nil {
		return nil, pyErr(err, p)
	}
	t := statInfo(e, arcName(arc))
	if t == nil {
		return starlark.None, nil
	}
	return t, nil
}

func tarAdd(thread *starlark.Thread, name string, tf *tarFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var file, arcname, recursive, filter starlark.Value = nil, starlark.None, starlark.True, starlark.None
	if err := starlark.UnpackArgs(name, args, kwargs, "name", &file, "arcname?", &arcname, "recursive?", &recursive, "filter?", &filter); err != nil {
		return nil, err
	}
	if err := tf.check("awx"); err != nil {
		return nil, err
	}
	p, err := fsPath(thread, "name", file)
	if err != nil {
		return nil, err
	}
	arc := p
	if arcname != starlark.None {
		if arc, err = fsPath(thread, "arcname", arcname); err != nil {
			return nil, err
		}
	}
	var fn starlark.Callable
	if filter != starlark.None {
		c, ok := filter.(starlark.Callable)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "'%s' object is not callable", pyrt.TypeName(filter))
		}
		fn = c
	}
	self := ""
	if tf.target.file != nil {
		self = absDest(thread, tf.target.file.path)
	}
	return starlark.None, tf.addPath(thread, p, arc, bool(recursive.Truth()), fn, self, map[[2]int64]bool{})
}

// addPath is add() of p as arc: a link is followed (the file pack makes
// and reads no links), a directory's entries are added sorted by name,
// each directory once.
func (tf *tarFile) addPath(thread *starlark.Thread, p, arc string, recursive bool, fn starlark.Callable, self string, seen map[[2]int64]bool) error {
	if err := interp.BudgetOf(thread).Charge(16); err != nil {
		return err
	}
	if self != "" && absDest(thread, p) == self {
		return nil // CPython skips the archive itself
	}
	e, err := hostStat(thread, p, true)
	if err != nil {
		return pyErr(err, p)
	}
	t := statInfo(e, arcName(arc))
	if t == nil {
		return nil
	}
	if fn != nil {
		v, err := starlark.Call(thread, fn, starlark.Tuple{t}, nil)
		if err != nil {
			return err
		}
		if v == starlark.None {
			return nil
		}
		nt, ok := v.(*tarInfo)
		if !ok {
			return pyrt.Errorf("TypeError", "the filter must return a TarInfo or None, not %s", pyrt.TypeName(v))
		}
		t = nt
	}
	if t.isReg() {
		v, err := openFile(thread, starlark.String(p), "rb", openOptions{Buffering: -1, Closefd: true})
		if err != nil {
			return err
		}
		f := v.(*fileObj)
		if err := f.loadAll(thread); err != nil {
			return err
		}
		data := f.bin.buf
		f.closeFile(thread)
		return tf.addMember(thread, t, data)
	}
	if err := tf.addMember(thread, t, nil); err != nil {
		return err
	}
	if t.typ != '5' || !recursive {
		return nil
	}
	if e.hasIno {
		key := [2]int64{e.dev, e.ino}
		if seen[key] {
			return nil
		}
		seen[key] = true
	}
	entries, err := hostList(thread, p)
	if err != nil {
		return pyErr(err, p)
	}
	for _, c := range entries {
		if err := tf.addPath(thread, path.Join(p, c.name), path.Join(arc, c.name), recursive, fn, self, seen); err != nil {
			return err
		}
	}
	return nil
}

// tarList is list(verbose=True, *, members=None), printed as CPython's.
func tarList(thread *starlark.Thread, name string, tf *tarFile, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var verbose, members starlark.Value = starlark.True, starlark.None
	if err := starlark.UnpackArgs(name, args, kwargs, "verbose?", &verbose, "members?", &members); err != nil {
		return nil, err
	}
	list := tf.members
	if members != starlark.None {
		list = nil
		err := pyrt.ForEach(thread, members, func(v starlark.Value) (bool, error) {
			t, ok := v.(*tarInfo)
			if !ok {
				return true, pyrt.Errorf("TypeError", "members must be TarInfo objects, not %s", pyrt.TypeName(v))
			}
			list = append(list, t)
			return false, nil
		})
		if err != nil {
			return nil, err
		}
	}
	var sb strings.Builder
	for _, t := range list {
		if verbose.Truth() {
			sb.WriteString(fileModeString(t.mode) + " ")
			owner := t.uname
			if owner == "" {
				owner = fmt.Sprint(t.uid)
			}
			group := t.gname
			if group == "" {
				group = fmt.Sprint(t.gid)
			}
			fmt.Fprintf(&sb, "%s/%s ", owner, group)
			if t.typ == '3' || t.typ == '4' {
				fmt.Fprintf(&sb, "%10s ", fmt.Sprintf("%d,%d", t.devmajor, t.devminor))
			} else {
				fmt.Fprintf(&sb, "%10d ", t.size)
			}
			sb.WriteString(time.Unix(t.mtime, 0).In(time.Local).Format("2006-01-02 15:04:05") + " ")
		}
		sb.WriteString(t.name)
		if t.typ == '5' {
			sb.WriteString("/")
		}
		sb.WriteString(" ")
		if verbose.Truth() {
			if t.typ == '2' {
				sb.WriteString("-> " + t.linkname + " ")
			}
			if t.typ == '1' {
				sb.WriteString("link to " + t.linkname + " ")
			}
		}
		sb.WriteString("\n")
		if err := interp.BudgetOf(thread).Charge(uint64(sb.Len())/64 + 1); err != nil {
			return nil, err
		}
	}
	return starlark.None, interp.Print(thread, sb.String())
}

// fileModeString is stat.filemode(mode): a mode of permission bits alone
// (as tar keeps them) has "?" for its type.
func fileModeString(mode int64) string {
	var sb strings.Builder
	switch mode & 0o170000 {
	case 0o040000:
		sb.WriteByte('d')
	case 0o100000:
		sb.WriteByte('-')
	case 0o120000:
		sb.WriteByte('l')
	case 0o020000:
		sb.WriteByte('c')
	case 0o060000:
		sb.WriteByte('b')
	case 0o010000:
		sb.WriteByte('p')
	case 0o140000:
		sb.WriteByte('s')
	default:
		sb.WriteByte('?')
	}
	perm := func(bit int64, c byte) {
		if mode&bit != 0 {
			sb.WriteByte(c)
		} else {
			sb.WriteByte('-')
		}
	}
	special := func(x, special int64, lower, upper byte) {
		switch {
		case mode&x != 0 && mode&special != 0:
			sb.WriteByte(lower)
		case mode&special != 0:
			sb.WriteByte(upper)
		case mode&x != 0:
			sb.WriteByte('x')
		default:
			sb.WriteByte('-')
		}
	}
	perm(0o400, 'r')
	perm(0o200, 'w')
	special(0o100, 0o4000, 's', 'S')
	perm(0o040, 'r')
	perm(0o020, 'w')
	special(0o010, 0o2000, 's', 'S')
	perm(0o004, 'r')
	perm(0o002, 'w')
	special(0o001, 0o1000, 't', 'T')
	return sb.String()
}

// close writes the archive (modes w, x, a) and closes it.
func (tf *tarFile) close(thread *starlark.Thread) error {
	if tf.closed {
		return nil
	}
	tf.closed = true
	if tf.removeHook != nil {
		tf.removeHook()
	}
	if tf.mode == "r" {
		return nil
	}
	b := interp.BudgetOf(thread)
	var out bytes.Buffer
	w := tar.NewWriter(&out)
	for _, t := range tf.members {
		data, err := tf.contents(thread, t)
		if err != nil {
			return err
		}
		if err := b.Room(int64(len(data)) + 1024); err != nil {
			return err
		}
		hdr := t.header()
		hdr.Size = int64(len(data))
		if !t.isReg() {
			hdr.Size = 0
		}
		if err := w.WriteHeader(hdr); err != nil {
			return tarHeaderError.Raise(fmt.Sprintf("cannot write %s: %v", reprText(t.name), err), nil)
		}
		if _, err := w.Write(data); err != nil {
			return tarHeaderError.Raise(err.Error(), nil)
		}
		if err := b.Charge(uint64(len(data))/16 + 1); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return tarHeaderError.Raise(err.Error(), nil)
	}
	// CPython pads an archive to a whole record (20 blocks).
	if rem := out.Len() % 10240; rem != 0 {
		out.Write(make([]byte, 10240-rem))
	}
	data := out.Bytes()
	if tf.comp == "gz" {
		z, err := gzipBytes(thread, data, tf.level)
		if err != nil {
			return err
		}
		data = z
	}
	if t := tf.target; t.file != nil {
		t.file.bin.buf, t.file.bin.pos = nil, 0
		t.file.app = false
	}
	tf.raw = nil
	for _, m := range tf.members { // names stay for getnames(); bytes go
		m.data = nil
	}
	return tf.target.writeAll(thread, data)
}

// isTarfile is is_tarfile(name): whether the file (a path or a file
// object) opens as a tar archive.
func isTarfile(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var file starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "name", &file); err != nil {
		return nil, err
	}
	t, err := byteSource(thread, file, "rb")
	if err != nil {
		return nil, err // CPython's is_tarfile raises what open raises
	}
	raw, err := t.readArchive(thread, true)
	if err != nil {
		return nil, err
	}
	tf := &tarFile{mode: "r", comp: "*"}
	if err := tf.load(thread, raw); err != nil {
		if isBudget(err) {
			return nil, err
		}
		return starlark.False, nil
	}
	return starlark.True, nil
}
