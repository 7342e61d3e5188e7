package stdlib

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// open() and io.open (issue 31): file objects over the file pack's
// variants. A file object holds its content in the in-memory cores of
// io.StringIO (text) and io.BytesIO (binary), so their read, readline,
// seek and write are the same code; what a file adds is where the bytes
// come from and go to:
//
//   - reading pulls chunks through pyops.FileRead as the program reads
//     (the first at open, so a missing file fails on the open() line) and
//     compares the file's size, mtime and inode between chunks: a file
//     that changed under the program raises OSError rather than give a
//     mix of two versions;
//   - writing checks the path at open (pyops.FileOpen: a missing
//     directory, "x" of an existing file, read-only, the overwrite's
//     confirmation) and buffers in the object, a Holder the memory meter
//     sees; flush, close, __exit__ and the run's end (interp.AtEnd)
//     commit the buffer through pyops.FileWrite.
//
// A text file decodes with str.encode/bytes.decode's codecs (pyrt's
// codecs.go), chunk by chunk through an incremental decoder (a character
// cut by a chunk's end waits for the next; a BOM is read once, at the
// start), and translates newlines as CPython's TextIOWrapper: universal
// newlines on read by default, "\n" → newline on write. Writing puts a
// codec's BOM (utf-8-sig, utf-16, utf-32) once, at the file's start.

// readChunk is how much a lazy read asks for at a time: a line loop over
// a large file holds what it has read so far, not the whole file.
const readChunk = 256 << 10

// fileObj is a file object: io.TextIOWrapper, or io.BufferedReader,
// BufferedWriter or BufferedRandom in binary mode.
type fileObj struct {
	name   starlark.Value // the name attribute: the path as given (str or bytes)
	path   string         // the path for the host
	mode   string         // the mode attribute
	binary bool
	rd, wr bool
	app    bool // writes go to the end, and commit appends
	closed bool

	// Text only: encoding as shown, the codec's name, errors, newline.
	encoding, codec, errs string
	cdc                   *pyrt.Codec
	// hadContent: the file had bytes before an append-mode open, so
	// what is written goes on without a byte-order mark, as CPython's
	// TextIOWrapper does when it opens past the start.
	hadContent bool
	newline    starlark.Value
	universal  bool // newline=None: \r\n and \r read as \n

	bin *bytesIO  // binary content
	txt *stringIO // text content (UTF-8)

	src *source // what is still to be read; nil when all is loaded
	// dropped is how many bytes of a read-only file's content the buffer
	// no longer holds at its front (dropRead), droppedChars their
	// characters in text mode: tell() and seek() add them back.
	dropped, droppedChars int

	dirty     bool // written since the last commit
	first     bool // the next commit is this object's first
	committed int  // append modes: bytes of the buffer already in the file

	removeHook func()
	// thread is the run's thread of the latest call, for iteration
	// (starlark gives an iterator none) to read more chunks on.
	thread *starlark.Thread

	// kind is the class's name (TextIOWrapper, BufferedReader, GzipFile,
	// ZipExtFile); module is its module for repr.
	kind string
	// sink, when set, replaces the host as where commits go (gzip and
	// zipfile objects written into memory or another file object); it
	// gets the whole content at close only.
	sink func(thread *starlark.Thread, data []byte) error
	// onClose runs after a close (NamedTemporaryFile's delete).
	onClose func(thread *starlark.Thread) error
	extra   map[string]starlark.Value // attributes of a wrapper (tempfile's delete, file)
}

// source is the part of a file not read yet.
type source struct {
	offset                int64 // next byte to ask for
	size, mtime, ino, dev int64 // the file as the first chunk saw it
	started               bool
	pending               []byte        // undecoded bytes (a character cut by a chunk's end)
	dec                   *pyrt.Decoder // the codec's state, for codecs other than UTF-8
	cr                    bool          // a \r held back: a \n may follow in the next chunk
	eof                   bool
}

var (
	_ pyrt.Stepper      = (*fileObj)(nil)
	_ interp.Holder     = (*fileObj)(nil)
	_ starlark.HasAttrs = (*fileObj)(nil)
	_ starlark.Iterable = (*fileObj)(nil)
)

func (f *fileObj) Held(visit func(starlark.Value)) {
	if f.bin != nil {
		visit(heldBytes(f.bin.buf))
	}
	if f.txt != nil {
		visit(heldBytes(f.txt.buf))
	}
	if f.src != nil {
		visit(heldBytes(f.src.pending))
	}
}

func (f *fileObj) String() string {
	name, _ := interp.Repr(nil, f.name)
	if f.binary {
		if f.kind != "BufferedReader" && f.kind != "BufferedWriter" && f.kind != "BufferedRandom" {
			return fmt.Sprintf("<%s name=%s mode='%s'>", f.kind, name, f.mode)
		}
		return fmt.Sprintf("<_io.%s name=%s>", f.kind, name)
	}
	return fmt.Sprintf("<_io.TextIOWrapper name=%s mode='%s' encoding='%s'>", name, f.mode, f.encoding)
}
func (f *fileObj) Type() string          { return f.kind }
func (f *fileObj) Freeze()               {}
func (f *fileObj) Truth() starlark.Bool  { return true }
func (f *fileObj) Hash() (uint32, error) { return 0, nil }
func (f *fileObj) PyClass() starlark.Value {
	if c, ok := ioClasses[f.kind]; ok {
		return c
	}
	return nil
}

func (f *fileObj) isClosed() bool { return f.closed }
func (f *fileObj) close()         { f.closed = true }

// parseMode is CPython's reading of open's mode: the flags, or its
// ValueError.
type modeFlags struct {
	rd, wr, app, create, plus, binary, trunc bool
	attr                                     string // the binary object's mode attribute
}

func parseMode(mode string) (modeFlags, error) {
	var m modeFlags
	seen := map[rune]bool{}
	kinds, text := 0, false
	for _, c := range mode {
		if !strings.ContainsRune("rwaxbt+", c) || seen[c] {
			return m, pyrt.Errorf("ValueError", "invalid mode: '%s'", mode)
		}
		seen[c] = true
		switch c {
		case 'r':
			m.rd = true
			kinds++
		case 'w':
			m.wr, m.trunc = true, true
			kinds++
		case 'a':
			m.wr, m.app = true, true
			kinds++
		case 'x':
			m.wr, m.create = true, true
			kinds++
		case '+':
			m.plus = true
		case 'b':
			m.binary = true
		case 't':
			text = true
		}
	}
	switch {
	case text && m.binary:
		return m, pyrt.Errorf("ValueError", "can't have text and binary mode at once")
	case kinds != 1:
		return m, pyrt.Errorf("ValueError", "must have exactly one of create/read/write/append mode")
	}
	if m.plus {
		m.rd, m.wr = true, true
	}
	switch {
	case m.create:
		m.attr = "xb"
	case m.app:
		m.attr = "ab"
	case m.rd && !m.wr:
		m.attr = "rb"
	case m.rd:
		m.attr = "rb"
	default:
		m.attr = "wb"
	}
	if m.plus {
		m.attr += "+"
	}
	return m, nil
}

// openBuiltin is open(file, mode='r', buffering=-1, encoding=None,
// errors=None, newline=None, closefd=True, opener=None).
func openBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var file, mode, buffering, encoding, errs, newline, closefd, opener starlark.Value = nil, starlark.String("r"), starlark.MakeInt(-1), starlark.None, starlark.None, starlark.None, starlark.True, starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "file", &file, "mode?", &mode, "buffering?", &buffering,
		"encoding?", &encoding, "errors?", &errs, "newline?", &newline, "closefd?", &closefd, "opener?", &opener); err != nil {
		return nil, err
	}
	o := openOptions{Buffering: -1, Closefd: bool(closefd.Truth())}
	m, ok := interp.AsText(mode)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "open() argument 'mode' must be str, not %s", pyrt.TypeName(mode))
	}
	if err := starlark.AsInt(buffering, &o.Buffering); err != nil {
		return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(buffering))
	}
	for _, p := range []struct {
		name string
		v    starlark.Value
		dst  *string
	}{{"encoding", encoding, &o.Encoding}, {"errors", errs, &o.Errors}} {
		if p.v == starlark.None {
			continue
		}
		s, ok := interp.AsText(p.v)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "open() argument '%s' must be str or None, not %s", p.name, pyrt.TypeName(p.v))
		}
		*p.dst = s
		if p.name == "encoding" && s == "" {
			*p.dst = "utf-8"
		}
	}
	if newline != starlark.None {
		s, ok := interp.AsText(newline)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "open() argument 'newline' must be str or None, not %s", pyrt.TypeName(newline))
		}
		o.Newline, o.HasNewline = s, true
	}
	if opener != starlark.None {
		return nil, pyrt.Errorf("ValueError", "open(opener=...) is not available here: there are no file descriptors; open the path itself")
	}
	hasEnc := encoding != starlark.None
	return openFileWith(thread, file, m, o, hasEnc, errs != starlark.None)
}

// openFile makes the file object of open(file, mode, **o): the one
// constructor of open(), io.open, Path.open and read_text/write_text,
// tempfile, gzip and zipfile.
func openFile(thread *starlark.Thread, file starlark.Value, mode string, o openOptions) (starlark.Value, error) {
	return openFileWith(thread, file, mode, o, o.Encoding != "", o.Errors != "")
}

func openFileWith(thread *starlark.Thread, file starlark.Value, mode string, o openOptions, hasEnc, hasErrs bool) (starlark.Value, error) {
	if _, ok := file.(starlark.Int); ok {
		return nil, pyrt.Errorf("OSError", "open() of a file descriptor is not available here: programs have no file descriptors; open a path")
	}
	m, err := parseMode(mode)
	if err != nil {
		return nil, err
	}
	switch {
	case m.binary && hasEnc:
		return nil, pyrt.Errorf("ValueError", "binary mode doesn't take an encoding argument")
	case m.binary && hasErrs:
		return nil, pyrt.Errorf("ValueError", "binary mode doesn't take an errors argument")
	case m.binary && o.HasNewline:
		return nil, pyrt.Errorf("ValueError", "binary mode doesn't take a newline argument")
	case !m.binary && o.Buffering == 0:
		return nil, pyrt.Errorf("ValueError", "can't have unbuffered text I/O")
	case o.HasNewline && o.Newline != "" && o.Newline != "\n" && o.Newline != "\r" && o.Newline != "\r\n":
		return nil, pyrt.Errorf("ValueError", "illegal newline value: %s", o.Newline)
	case !o.Closefd:
		return nil, pyrt.Errorf("ValueError", "Cannot use closefd=False with file name")
	}
	path, err := fsPath(thread, "", file)
	if err != nil {
		return nil, err
	}
	if err := flushOpen(thread, path); err != nil {
		return nil, err
	}
	f := &fileObj{path: path, name: starlark.String(path), binary: m.binary, rd: m.rd, wr: m.wr, app: m.app, first: true, thread: thread}
	if _, ok := file.(starlark.Bytes); ok {
		f.name = file
	}
	if m.binary {
		f.mode = m.attr
		f.bin = &bytesIO{}
		switch {
		case m.rd && m.wr:
			f.kind = "BufferedRandom"
		case m.rd:
			f.kind = "BufferedReader"
		default:
			f.kind = "BufferedWriter"
		}
	} else {
		f.mode, f.kind = mode, "TextIOWrapper"
		if err := f.setText(thread, o); err != nil {
			return nil, err
		}
	}
	if err := f.start(thread, m); err != nil {
		return nil, err
	}
	return f, nil
}

// setText sets the text layer: the codec (checked now, as CPython looks
// it up at open), errors and newline.
func (f *fileObj) setText(thread *starlark.Thread, o openOptions) error {
	f.encoding, f.codec, f.errs = "UTF-8", "utf-8", "strict"
	if o.Encoding != "" {
		f.encoding, f.codec = o.Encoding, o.Encoding
	}
	if o.Errors != "" {
		f.errs = o.Errors
	}
	c, err := pyrt.LookupCodec(f.codec)
	if err != nil {
		return err
	}
	f.cdc = c
	f.txt = &stringIO{newline: "\n"}
	f.newline = starlark.None
	if o.HasNewline {
		f.newline = starlark.String(o.Newline)
		if o.Newline != "\n" {
			f.txt.newline = o.Newline
		}
	} else {
		f.universal = true
	}
	return nil
}

// start does what open does to the file: check it for writing, read its
// first chunk (or all of it for "+" modes, which read and write one
// buffer), and register the commit at the run's end.
func (f *fileObj) start(thread *starlark.Thread, m modeFlags) error {
	if m.wr {
		op := "w"
		switch {
		case m.create:
			op = "x"
		case m.app:
			op = "a"
		case !m.trunc:
			op = "r+"
		}
		res, err := call(thread, pyops.FileOpen, map[string]any{"path": f.path, "mode": op})
		if err != nil {
			return pyErr(err, f.path)
		}
		f.hadContent = m.app && resultInt(res, "size") > 0
		// "w" and "x" make (and "w" empties) the file at once, as
		// CPython's open does; "a" makes it.
		f.dirty = m.trunc || m.create || m.app
	}
	if m.rd && !(m.trunc || m.create) {
		f.src = &source{}
		if m.app && !m.plus {
			f.src = nil
		} else if err := f.fill(thread, readChunk); err != nil {
			if m.app && isNotFound(err) { // "a+" of a new file
				f.src = nil
			} else {
				return err
			}
		}
		if m.wr {
			if err := f.loadAll(thread); err != nil {
				return err
			}
		}
	}
	if m.app {
		f.toEnd()
		f.committed = f.bufLen()
	}
	if f.dirty && f.sink == nil {
		if err := f.commit(thread); err != nil {
			return err
		}
	}
	if m.wr {
		f.removeHook = interp.AtEnd(thread, f.String(), func(th *starlark.Thread) error {
			return f.closeFile(th)
		})
		if f.sink == nil {
			keepOpen(thread, f)
		}
	}
	return nil
}

// openFilesLocal is the thread-local of the files a run has open for
// writing, by path (see flushOpen).
const openFilesLocal = "onetool.stdlib.openfiles"

// keepOpen notes f, open for writing, for flushOpen.
func keepOpen(thread *starlark.Thread, f *fileObj) {
	m, _ := interp.RunLocal(thread, openFilesLocal).(map[string][]*fileObj)
	if m == nil {
		m = map[string][]*fileObj{}
		interp.SetRunLocal(thread, openFilesLocal, m)
	}
	live := m[f.path][:0]
	for _, g := range m[f.path] {
		if !g.closed {
			live = append(live, g)
		}
	}
	m[f.path] = append(live, f)
}

// forgetOpen drops f, closed, from what keepOpen noted, so that a run
// opening many files holds only the open ones.
func forgetOpen(thread *starlark.Thread, f *fileObj) {
	m, _ := interp.RunLocal(thread, openFilesLocal).(map[string][]*fileObj)
	list := m[f.path]
	for i, g := range list {
		if g == f {
			list = append(list[:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(m, f.path)
	} else {
		m[f.path] = list
	}
}

// flushOpen commits what the run wrote to path through file objects it
// has not closed, before the path is opened again. CPython closes, and
// so flushes, a file object the moment nothing refers to it any more, so
// programs write `json.dump(x, open(p, "w"))` and read p back at once;
// here a file is committed when it is closed or the run ends, and this
// gives the reader what CPython's would see.
func flushOpen(thread *starlark.Thread, path string) error {
	m, _ := interp.RunLocal(thread, openFilesLocal).(map[string][]*fileObj)
	for _, f := range m[path] {
		if !f.closed && f.dirty {
			if err := f.commit(thread); err != nil {
				return err
			}
		}
	}
	return nil
}

func isNotFound(err error) bool {
	var ex *pyrt.Exception
	return errors.As(err, &ex) && ex.Class == "FileNotFoundError"
}

func (f *fileObj) bufLen() int {
	if f.binary {
		return len(f.bin.buf)
	}
	return len(f.txt.buf)
}

// toEnd moves the position to the end of what is buffered.
func (f *fileObj) toEnd() {
	if f.binary {
		f.bin.pos = len(f.bin.buf)
	} else {
		f.txt.pos, f.txt.extra = len(f.txt.buf), 0
	}
}

// dropMin is how much a read-only file's buffer must hold before the
// position for dropRead to let it go.
const dropMin = 1 << 20

// dropRead lets go of what a read-only file's program has read past,
// once that is dropMin bytes or more: a line loop over a file larger than
// the memory budget holds a chunk or two, not all it has read. (A file
// also written keeps its whole content: it is committed whole.)
func (f *fileObj) dropRead() {
	if !f.rd || f.wr || f.src == nil {
		return
	}
	if f.binary {
		n := f.bin.pos
		if n < dropMin || n > len(f.bin.buf) {
			return
		}
		f.bin.buf = append([]byte(nil), f.bin.buf[n:]...) // a new array: the old one is freed
		f.bin.pos = 0
		f.dropped += n
		return
	}
	n := f.txt.pos
	if n < dropMin || n > len(f.txt.buf) || f.txt.extra > 0 {
		return
	}
	f.droppedChars += utf8.RuneCount(f.txt.buf[:n])
	f.txt.buf = append([]byte(nil), f.txt.buf[n:]...)
	f.txt.pos = 0
	f.dropped += n
}

// rewind starts a read-only file again from its beginning, for a seek
// before what dropRead let go; the next read asks the host again.
func (f *fileObj) rewind() {
	f.src = &source{}
	f.dropped, f.droppedChars = 0, 0
	if f.binary {
		f.bin.buf, f.bin.pos = nil, 0
	} else {
		f.txt.buf, f.txt.pos, f.txt.extra = nil, 0, 0
	}
}

// fill reads the next chunk of at most size bytes into the buffer.
func (f *fileObj) fill(thread *starlark.Thread, size int64) error {
	s := f.src
	if s == nil || s.eof {
		return nil
	}
	f.dropRead()
	b := interp.BudgetOf(thread)
	if err := b.Room(size); err != nil {
		return err
	}
	res, err := call(thread, pyops.FileRead, map[string]any{"path": f.path, "offset": s.offset, "size": size})
	if err != nil {
		return pyErr(err, f.path)
	}
	data, err := pyops.GetContent(res)
	if err != nil {
		return pyErr(err, f.path)
	}
	id := [4]int64{resultInt(res, "size"), resultInt(res, "mtime_ns"), resultInt(res, "ino"), resultInt(res, "dev")}
	if !s.started {
		s.size, s.mtime, s.ino, s.dev, s.started = id[0], id[1], id[2], id[3], true
	} else if id != [4]int64{s.size, s.mtime, s.ino, s.dev} {
		return pyErr(pyops.Tag(pyops.ErrChanged, fmt.Errorf("the file changed while it was read; open it again")), f.path)
	}
	s.offset += int64(len(data))
	s.eof = resultBool(res, "eof") || len(data) == 0 || s.offset >= s.size
	if f.binary {
		grown, err := reserve(b, f.bin.buf, len(data))
		if err != nil {
			return err
		}
		f.bin.buf = append(grown, data...)
	} else if err := f.appendText(thread, data); err != nil {
		return err
	}
	if s.eof {
		f.src = nil
	}
	return b.Charge(uint64(len(data))/64 + 1)
}

// appendText decodes data (after what an earlier chunk left undecoded)
// and appends it to the text, newlines translated.
func (f *fileObj) appendText(thread *starlark.Thread, data []byte) error {
	s := f.src
	var text string
	if f.cdc.IsUTF8() {
		raw := append(s.pending, data...)
		s.pending = nil
		if !s.eof {
			cut := utf8Cut(raw)
			s.pending = append([]byte(nil), raw[cut:]...)
			raw = raw[:cut]
		}
		var err error
		if text, err = f.decode(thread, raw); err != nil {
			return err
		}
	} else {
		if s.dec == nil {
			s.dec = pyrt.NewDecoder(f.cdc, f.errs)
		}
		var err error
		if text, err = s.dec.Decode(interp.BudgetOf(thread), string(data), s.eof); err != nil {
			return err
		}
	}
	if s.cr {
		text, s.cr = "\r"+text, false
	}
	if f.universal && text != "" {
		if !s.eof && text[len(text)-1] == '\r' {
			text, s.cr = text[:len(text)-1], true
		}
		if strings.IndexByte(text, '\r') >= 0 {
			text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
		}
	}
	grown, err := reserve(interp.BudgetOf(thread), f.txt.buf, len(text))
	if err != nil {
		return err
	}
	f.txt.buf = append(grown, text...)
	return nil
}

// utf8Cut is where a chunk's complete characters end: a character cut
// by the chunk's end waits for the next.
func utf8Cut(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		c := b[i]
		if c < 0x80 {
			return len(b)
		}
		if c >= 0xc0 { // a start byte: is its sequence whole?
			need := 2
			if c >= 0xf0 {
				need = 4
			} else if c >= 0xe0 {
				need = 3
			}
			if len(b)-i < need {
				return i
			}
			return len(b)
		}
	}
	return len(b)
}

// decode is bytes.decode("utf-8", errors) of raw (whole characters).
func (f *fileObj) decode(thread *starlark.Thread, raw []byte) (string, error) {
	if utf8.Valid(raw) {
		return string(raw), nil
	}
	return pyrt.DecodeWith(interp.BudgetOf(thread), string(raw), f.codec, f.errs)
}

// encode is str.encode(codec, errors) of the text; atStart says it goes
// at the file's start, where a codec's BOM goes (with the first text:
// an empty file stays empty, as CPython's).
func (f *fileObj) encode(thread *starlark.Thread, text []byte, atStart bool) ([]byte, error) {
	if f.cdc.IsUTF8() || len(text) == 0 {
		return text, nil
	}
	out, err := pyrt.NewEncoder(f.cdc, f.errs, !atStart).Encode(interp.BudgetOf(thread), string(text))
	if err != nil {
		return nil, err
	}
	return []byte(out), nil
}

// loadAll reads the rest of the file.
func (f *fileObj) loadAll(thread *starlark.Thread) error {
	for f.src != nil {
		if err := f.fill(thread, pyops.MaxChunk); err != nil {
			return err
		}
	}
	return nil
}

// ensure reads until n bytes lie past the position (n < 0: all), or
// until a line ends past it (line).
func (f *fileObj) ensure(thread *starlark.Thread, n int, line bool) error {
	for f.src != nil {
		buf, pos := f.cur()
		rest := []byte(nil)
		if pos < len(buf) {
			rest = buf[pos:]
		}
		switch {
		case n < 0 && !line:
		case line && f.lineEnds(rest):
			return nil
		case !line && len(rest) >= n:
			return nil
		}
		if err := f.fill(thread, readChunk); err != nil {
			return err
		}
	}
	return nil
}

func (f *fileObj) cur() ([]byte, int) {
	if f.binary {
		return f.bin.buf, f.bin.pos
	}
	return f.txt.buf, f.txt.pos
}

// lineEnds reports whether rest holds the end of a line (a \r at its very
// end may be the first half of \r\n).
func (f *fileObj) lineEnds(rest []byte) bool {
	if f.binary {
		return bytes.IndexByte(rest, '\n') >= 0
	}
	switch nl := f.txt.newline; nl {
	case "":
		i := bytes.IndexAny(rest, "\r\n")
		return i >= 0 && i < len(rest)-1
	default:
		return bytes.Contains(rest, []byte(nl))
	}
}

// commit writes what was written since the last commit: the whole
// content (replaced), or in append modes the bytes added. Content over
// pyops.MaxChunk goes in pieces, the first replacing and the rest
// appended.
func (f *fileObj) commit(thread *starlark.Thread) error {
	if !f.dirty {
		return nil
	}
	var data []byte
	from := 0
	if f.app {
		from = f.committed
	}
	if f.binary {
		data = f.bin.buf[from:]
	} else {
		var err error
		if data, err = f.encode(thread, f.txt.buf[from:], from == 0 && !f.hadContent); err != nil {
			return err
		}
	}
	if f.sink != nil {
		return nil // written whole at close
	}
	for i := 0; ; i += pyops.MaxChunk {
		piece := data[i:min(i+pyops.MaxChunk, len(data))]
		args := map[string]any{"path": f.path, "append": f.app || i > 0, "first": f.first && i == 0}
		pyops.PutContent(args, piece)
		if _, err := call(thread, pyops.FileWrite, args); err != nil {
			return pyErr(err, f.path)
		}
		f.first = false
		if i+pyops.MaxChunk >= len(data) {
			break
		}
	}
	f.dirty = false
	if f.app {
		f.committed = f.bufLen()
	}
	return nil
}

// content is what the object holds, encoded.
func (f *fileObj) content(thread *starlark.Thread) ([]byte, error) {
	if f.binary {
		return f.bin.buf, nil
	}
	return f.encode(thread, f.txt.buf, true)
}

// closeFile commits and closes; the object is closed even when the
// commit fails, as CPython's close is.
func (f *fileObj) closeFile(thread *starlark.Thread) error {
	if f.closed {
		return nil
	}
	var err error
	if f.sink != nil && f.wr {
		var data []byte
		if data, err = f.content(thread); err == nil {
			err = f.sink(thread, data)
		}
	} else {
		err = f.commit(thread)
	}
	f.closed = true
	forgetOpen(thread, f)
	if f.removeHook != nil {
		f.removeHook()
		f.removeHook = nil
	}
	f.bin, f.txt, f.src = emptyBin(f.bin), emptyText(f.txt), nil
	if err == nil && f.onClose != nil {
		err = f.onClose(thread)
	}
	return err
}

func emptyBin(b *bytesIO) *bytesIO {
	if b == nil {
		return nil
	}
	return &bytesIO{closed: true}
}

func emptyText(t *stringIO) *stringIO {
	if t == nil {
		return nil
	}
	return &stringIO{closed: true, newline: t.newline}
}

var ioUnsupported = pyrt.NewModuleSubclass("io.UnsupportedOperation", pyrt.BuiltinClass("OSError"), pyrt.BuiltinClass("ValueError"))

func notReadable() error { return ioUnsupported.Raise("not readable", nil) }
func notWritable() error { return ioUnsupported.Raise("not writable", nil) }

func (f *fileObj) Iterate() starlark.Iterator { return &fileLines{f: f} }

// Step is the next line, read as the loop goes (a file is its own
// iterator: for loops and next() take lines through it).
func (f *fileObj) Step(thread *starlark.Thread) (starlark.Value, bool, error) {
	if f.closed {
		return nil, false, pyrt.Errorf("ValueError", "I/O operation on closed file.")
	}
	if !f.rd {
		return nil, false, notReadable()
	}
	f.thread = thread
	if err := f.ensure(thread, 0, true); err != nil {
		return nil, false, err
	}
	if f.binary {
		line := f.bin.readline(-1)
		return interp.Bytes(line), len(line) > 0, interp.BudgetOf(thread).Charge(uint64(len(line))/64 + 1)
	}
	line := f.txt.readline(-1)
	return interp.MakeString(line), line != "", interp.BudgetOf(thread).Charge(uint64(len(line))/64 + 1)
}

// fileLines is Iterate's iterator, for Go code that iterates without a
// thread (the run's for loops use Step): it reads on the thread of the
// object's latest call and stops at a read error.
type fileLines struct{ f *fileObj }

func (it *fileLines) Next(p *starlark.Value) bool {
	if it.f.thread == nil {
		return false
	}
	v, ok, err := it.f.Step(it.f.thread)
	if err != nil || !ok {
		return false
	}
	*p = v
	return true
}
func (it *fileLines) Done() {}

func (f *fileObj) AttrNames() []string {
	names := []string{"close", "closed", "fileno", "flush", "isatty", "mode", "name", "read", "readable", "readline",
		"readlines", "seek", "seekable", "tell", "truncate", "writable", "write", "writelines"}
	if !f.binary {
		names = append(names, "encoding", "errors", "newlines", "line_buffering")
	}
	for k := range f.extra {
		names = append(names, k)
	}
	return names
}

func (f *fileObj) Attr(name string) (starlark.Value, error) {
	switch name {
	case "closed":
		return starlark.Bool(f.closed), nil
	case "name":
		return f.name, nil
	case "mode":
		return starlark.String(f.mode), nil
	case "__enter__", "__exit__":
		return fileContext(f, name), nil
	case "__iter__":
		return interp.NewBuiltin(name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return f, nil
		}), nil
	}
	if v, ok := f.extra[name]; ok {
		return v, nil
	}
	if !f.binary {
		switch name {
		case "encoding":
			return starlark.String(f.encoding), nil
		case "errors":
			return starlark.String(f.errs), nil
		case "newlines", "buffer":
			return starlark.None, nil
		case "line_buffering":
			return starlark.False, nil
		}
	}
	m, ok := fileMethods[name]
	if !ok {
		return nil, noAttrNamed(f.kind, name)
	}
	return memFileMethod(f, name, "I/O operation on closed file.", func(thread *starlark.Thread, name string, f *fileObj, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		f.thread = thread
		return m(thread, name, f, args, kwargs)
	}), nil
}

// fileContext is __enter__ (the file) and __exit__ (close, suppressing
// nothing) of a file object.
func fileContext(f *fileObj, name string) starlark.Value {
	return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if name == "__exit__" {
			return starlark.None, f.closeFile(thread)
		}
		if f.closed {
			return nil, pyrt.Errorf("ValueError", "I/O operation on closed file.")
		}
		return f, nil
	}).BindReceiver(f)
}

type fileObjMethod = func(thread *starlark.Thread, name string, f *fileObj, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

var fileMethods = map[string]fileObjMethod{
	"read":       fileRead,
	"read1":      fileRead,
	"readline":   fileReadline,
	"readlines":  fileReadlines,
	"write":      fileWrite,
	"writelines": fileWritelines,
	"seek":       fileSeek,
	"tell":       fileTell,
	"truncate":   fileTruncate,
	"flush":      fileFlush,
	"close":      fileClose,
	"readable": func(_ *starlark.Thread, n string, f *fileObj, a starlark.Tuple, k []starlark.Tuple) (starlark.Value, error) {
		return starlark.Bool(f.rd), starlark.UnpackArgs(n, a, k)
	},
	"writable": func(_ *starlark.Thread, n string, f *fileObj, a starlark.Tuple, k []starlark.Tuple) (starlark.Value, error) {
		return starlark.Bool(f.wr), starlark.UnpackArgs(n, a, k)
	},
	"seekable": func(_ *starlark.Thread, n string, f *fileObj, a starlark.Tuple, k []starlark.Tuple) (starlark.Value, error) {
		return starlark.True, starlark.UnpackArgs(n, a, k)
	},
	"isatty": func(_ *starlark.Thread, n string, f *fileObj, a starlark.Tuple, k []starlark.Tuple) (starlark.Value, error) {
		return starlark.False, starlark.UnpackArgs(n, a, k)
	},
	"fileno": func(*starlark.Thread, string, *fileObj, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		return nil, ioUnsupported.Raise("fileno: programs have no file descriptors here; pass the file object itself, or its name", nil)
	},
}

// readSizeArg reads read's and readline's optional size.
func readSizeArg(name string, args starlark.Tuple, kwargs []starlark.Tuple) (int, error) {
	var size starlark.Value = starlark.None
	if err := starlark.UnpackArgs(name, args, kwargs, "size?", &size); err != nil {
		return 0, err
	}
	return sizeArg(size)
}

func fileRead(thread *starlark.Thread, name string, f *fileObj, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if !f.rd {
		return nil, notReadable()
	}
	n, err := readSizeArg(name, args, kwargs)
	if err != nil {
		return nil, err
	}
	need := n
	if !f.binary && n > 0 {
		need = 4 * n // a character is at most 4 bytes
	}
	if err := f.ensure(thread, need, false); err != nil {
		return nil, err
	}
	if f.binary {
		return bytesIOMethods["read"](thread, name, f.bin, args, kwargs)
	}
	return stringIOMethods["read"](thread, name, f.txt, args, kwargs)
}

func fileReadline(thread *starlark.Thread, name string, f *fileObj, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if !f.rd {
		return nil, notReadable()
	}
	if _, err := readSizeArg(name, args, kwargs); err != nil {
		return nil, err
	}
	if err := f.ensure(thread, 0, true); err != nil {
		return nil, err
	}
	if f.binary {
		return bytesIOMethods["readline"](thread, name, f.bin, args, kwargs)
	}
	return stringIOMethods["readline"](thread, name, f.txt, args, kwargs)
}

func fileReadlines(thread *starlark.Thread, name string, f *fileObj, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if !f.rd {
		return nil, notReadable()
	}
	if err := f.loadAll(thread); err != nil {
		return nil, err
	}
	if f.binary {
		return bytesIOMethods["readlines"](thread, name, f.bin, args, kwargs)
	}
	return stringIOMethods["readlines"](thread, name, f.txt, args, kwargs)
}

func fileWrite(thread *starlark.Thread, name string, f *fileObj, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if !f.wr {
		return nil, notWritable()
	}
	if !f.binary && len(args) == 1 {
		s, ok := interp.AsText(args[0])
		if !ok {
			return nil, pyrt.Errorf("TypeError", "write() argument must be str, not %s", pyrt.TypeName(args[0]))
		}
		// CPython encodes at write: a character the codec has no byte
		// for fails here, not at the commit.
		if f.cdc.MayFail() && !isASCIIText(s) {
			if _, err := pyrt.EncodeWith(interp.BudgetOf(thread), s, f.codec, f.errs); err != nil {
				return nil, err
			}
		}
	}
	if f.app {
		f.toEnd()
	}
	f.dirty = true
	if f.binary {
		return bytesIOMethods["write"](thread, name, f.bin, args, kwargs)
	}
	return stringIOMethods["write"](thread, name, f.txt, args, kwargs)
}

func fileWritelines(thread *starlark.Thread, name string, f *fileObj, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if !f.wr {
		return nil, notWritable()
	}
	if f.app {
		f.toEnd()
	}
	f.dirty = true
	if f.binary {
		return bytesIOMethods["writelines"](thread, name, f.bin, args, kwargs)
	}
	return stringIOMethods["writelines"](thread, name, f.txt, args, kwargs)
}

func fileSeek(thread *starlark.Thread, name string, f *fileObj, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var pos, whence int
	if err := starlark.UnpackArgs(name, args, kwargs, "pos", &pos, "whence?", &whence); err != nil {
		return nil, err
	}
	if f.binary {
		return f.seekBytes(thread, pos, whence)
	}
	switch {
	case whence < 0 || whence > 2:
		return nil, pyrt.Errorf("ValueError", "invalid whence (%d, should be 0, 1 or 2)", whence)
	case whence == 1 && pos != 0:
		return nil, ioUnsupported.Raise("can't do nonzero cur-relative seeks", nil)
	case whence == 2 && pos != 0:
		return nil, ioUnsupported.Raise("can't do nonzero end-relative seeks", nil)
	case whence == 0 && pos < 0:
		return nil, pyrt.Errorf("ValueError", "negative seek position %d", pos)
	}
	switch whence {
	case 0:
		if pos < f.droppedChars {
			f.rewind()
		}
		if err := f.seekChars(thread, pos-f.droppedChars); err != nil {
			return nil, err
		}
	case 2:
		if err := f.ensure(thread, -1, false); err != nil {
			return nil, err
		}
		f.txt.pos, f.txt.extra = len(f.txt.buf), 0
	}
	return starlark.MakeInt(f.droppedChars + f.txt.tell()), interp.BudgetOf(thread).Charge(uint64(f.txt.pos) / 64)
}

// seekChars moves a text file to character n of its buffer, reading on
// as far as that needs: chunk by chunk, counting characters as it goes,
// so that what a read-only file passes is let go (dropRead).
func (f *fileObj) seekChars(thread *starlark.Thread, n int) error {
	f.txt.pos, f.txt.extra = 0, 0
	for {
		rest := f.txt.buf[f.txt.pos:]
		if f.src == nil || utf8.RuneCount(rest) >= n {
			f.txt.seekFrom(n)
			return nil
		}
		n -= utf8.RuneCount(rest)
		f.txt.pos = len(f.txt.buf)
		if err := f.fill(thread, readChunk); err != nil {
			return err
		}
	}
}

// seekBytes is seek in binary mode: to a byte offset of the file, which
// a read-only file reaches without reading what lies before it.
func (f *fileObj) seekBytes(thread *starlark.Thread, pos, whence int) (starlark.Value, error) {
	// A read-only file reaches an offset past what it buffers without
	// reading what lies between.
	skip := f.rd && !f.wr && f.src != nil
	switch whence {
	case 0:
	case 1:
		pos += f.dropped + f.bin.pos
	case 2:
		if skip && !f.src.started {
			if err := f.fill(thread, readChunk); err != nil {
				return nil, err
			}
			skip = f.src != nil
		}
		if skip {
			pos += int(f.src.size)
		} else {
			if err := f.ensure(thread, -1, false); err != nil {
				return nil, err
			}
			pos += f.dropped + len(f.bin.buf)
		}
	default:
		return nil, pyrt.Errorf("ValueError", "whence value %d unsupported", whence)
	}
	if pos < 0 {
		return nil, pyrt.OSError("OSError", 22, "Invalid argument", "")
	}
	if pos < f.dropped {
		f.rewind()
		skip = true // rewind leaves a read-only file with a source
	}
	if end := f.dropped + len(f.bin.buf); pos > end && skip {
		f.dropped, f.bin.buf, f.src.offset = pos, nil, int64(pos)
		if f.src.started && f.src.offset >= f.src.size {
			f.src = nil
		}
	} else if pos > end {
		f.bin.pos = len(f.bin.buf)
		if err := f.ensure(thread, pos-end, false); err != nil {
			return nil, err
		}
	}
	f.bin.pos = pos - f.dropped
	return starlark.MakeInt(pos), nil
}

// fileTell is the position: bytes in binary mode, an opaque number in
// text mode (the characters before it) that seek takes back.
func fileTell(thread *starlark.Thread, name string, f *fileObj, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if f.binary {
		v, err := bytesIOMethods["tell"](thread, name, f.bin, args, kwargs)
		if err != nil || !f.app || f.rd {
			if n, ok := v.(starlark.Int); ok && f.dropped > 0 {
				v = n.Add(starlark.MakeInt(f.dropped))
			}
			return v, err
		}
		return starlark.MakeInt(f.bin.pos), nil
	}
	v, err := stringIOMethods["tell"](thread, name, f.txt, args, kwargs)
	if n, ok := v.(starlark.Int); ok && f.droppedChars > 0 {
		v = n.Add(starlark.MakeInt(f.droppedChars))
	}
	return v, err
}

func fileTruncate(thread *starlark.Thread, name string, f *fileObj, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if !f.wr {
		return nil, ioUnsupported.Raise("File not open for writing", nil)
	}
	if err := f.loadAll(thread); err != nil {
		return nil, err
	}
	f.dirty = true
	if f.binary {
		return bytesIOMethods["truncate"](thread, name, f.bin, args, kwargs)
	}
	return stringIOMethods["truncate"](thread, name, f.txt, args, kwargs)
}

func fileFlush(thread *starlark.Thread, name string, f *fileObj, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
		return nil, err
	}
	return starlark.None, f.commit(thread)
}

func fileClose(thread *starlark.Thread, name string, f *fileObj, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
		return nil, err
	}
	return starlark.None, f.closeFile(thread)
}

// resultInt and resultBool read a key of a host's result map (an
// in-process map or one that crossed the worker pipe).
func resultInt(res any, key string) int64 {
	switch x := resultGet(res, key).(type) {
	case int64:
		return x
	case int:
		return int64(x)
	case float64:
		return int64(x)
	}
	return 0
}

func resultBool(res any, key string) bool {
	b, _ := resultGet(res, key).(bool)
	return b
}

func resultString(res any, key string) string {
	s, _ := resultGet(res, key).(string)
	return s
}

func resultGet(res any, key string) any {
	switch m := res.(type) {
	case map[string]any:
		return m[key]
	case interface{ Get(string) (any, bool) }:
		v, _ := m.Get(key)
		return v
	}
	return nil
}

// ioClasses are the classes of file objects, by kind, for isinstance
// and type(); programs cannot make one but through open().
var ioClasses = map[string]*pyClass{
	"TextIOWrapper":  fileClass("_io", "TextIOWrapper"),
	"BufferedReader": fileClass("_io", "BufferedReader"),
	"BufferedWriter": fileClass("_io", "BufferedWriter"),
	"BufferedRandom": fileClass("_io", "BufferedRandom"),
	"GzipFile":       fileClass("gzip", "GzipFile"),
	"ZipExtFile":     fileClass("zipfile", "ZipExtFile"),
}

func fileClass(module, kind string) *pyClass {
	return &pyClass{module: module, name: kind, is: func(v starlark.Value) bool {
		f, ok := v.(*fileObj)
		return ok && f.kind == kind
	}}
}

// ioBaseClass is io.IOBase, io.TextIOBase or io.BufferedIOBase: is
// tells its instances.
func ioBaseClass(name string, is func(starlark.Value) bool) *pyClass {
	return &pyClass{module: "_io", name: name, is: is}
}

var (
	ioTextBase = ioBaseClass("_TextIOBase", func(v starlark.Value) bool {
		f, ok := v.(*fileObj)
		_, sio := v.(*stringIO)
		return sio || ok && !f.binary
	})
	ioBufferedBase = ioBaseClass("_BufferedIOBase", func(v starlark.Value) bool {
		f, ok := v.(*fileObj)
		_, bio := v.(*bytesIO)
		return bio || ok && f.binary
	})
	ioBase = ioBaseClass("_IOBase", func(v starlark.Value) bool {
		return ioTextBase.is(v) || ioBufferedBase.is(v)
	})
)

// OpenBuiltin is the builtin open(), for the builtins of a run.
var OpenBuiltin = interp.NewBuiltin("open", openBuiltin)
