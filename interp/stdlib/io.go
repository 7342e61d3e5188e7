package stdlib

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// IO is the io module: StringIO and BytesIO, in-memory files, and open()
// with the classes of its file objects (fileio.go).
func IO() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "io", Members: starlark.StringDict{
		"StringIO":             stringIOClass,
		"BytesIO":              bytesIOClass,
		"open":                 OpenBuiltin,
		"TextIOWrapper":        ioClasses["TextIOWrapper"],
		"BufferedReader":       ioClasses["BufferedReader"],
		"BufferedWriter":       ioClasses["BufferedWriter"],
		"BufferedRandom":       ioClasses["BufferedRandom"],
		"IOBase":               ioBase,
		"TextIOBase":           ioTextBase,
		"BufferedIOBase":       ioBufferedBase,
		"UnsupportedOperation": ioUnsupported,
		"DEFAULT_BUFFER_SIZE":  starlark.MakeInt(8192),
		"SEEK_SET":             starlark.MakeInt(0),
		"SEEK_CUR":             starlark.MakeInt(1),
		"SEEK_END":             starlark.MakeInt(2),
	}}
}

// stringIO is io.StringIO: its text as UTF-8 and a position counted in
// bytes, converted to and from characters where a program sees it
// (tell, seek), so that appending, the common use, costs no conversion.
type stringIO struct {
	buf    []byte
	pos    int // byte offset, may lie past the end after a seek
	extra  int // characters past the end the position lies
	closed bool
	frozen bool
	// newline is the newline argument: "\n" (no translation, the
	// default), "" (lines end at \r, \n or \r\n), "\r" or "\r\n" (what
	// a written \n becomes, and where lines end); universal (newline=None)
	// turns \r\n and \r into \n as they are written.
	newline   string
	universal bool
}

// Held shows the memory meter the text the StringIO holds.
func (f *stringIO) Held(visit func(starlark.Value)) { visit(heldBytes(f.buf)) }

var (
	_ interp.Holder     = (*stringIO)(nil)
	_ starlark.HasAttrs = (*stringIO)(nil)
	_ starlark.Iterable = (*stringIO)(nil)
	_ interp.GoValuer   = (*stringIO)(nil)
)

func (f *stringIO) String() string        { return "<_io.StringIO object>" }
func (f *stringIO) Type() string          { return "StringIO" }
func (f *stringIO) Freeze()               { f.frozen = true }
func (f *stringIO) Truth() starlark.Bool  { return true }
func (f *stringIO) Hash() (uint32, error) { return 0, nil }

// GoValue makes a StringIO a run's result as its text, what the program
// put in it.
func (f *stringIO) GoValue() (any, error) { return string(f.buf), nil }

func (f *stringIO) Iterate() starlark.Iterator { return &lineIter{f: f} }

// lineIter gives the lines from the position on, moving it, as a file's
// iteration does.
type lineIter struct{ f *stringIO }

func (it *lineIter) Next(p *starlark.Value) bool {
	if it.f.closed {
		return false
	}
	line := it.f.readline(-1)
	if line == "" {
		return false
	}
	*p = interp.MakeString(line)
	return true
}
func (it *lineIter) Done() {}

func (f *stringIO) AttrNames() []string { return fileAttrNames(stringIOMethods) }

func (f *stringIO) Attr(name string) (starlark.Value, error) {
	v, err := f.attr(name)
	if v == nil && err == nil {
		err = noAttrNamed("_io.StringIO", name)
	}
	return v, err
}

func (f *stringIO) attr(name string) (starlark.Value, error) {
	switch name {
	case "closed":
		return starlark.Bool(f.closed), nil
	case "__enter__", "__exit__":
		return memFileContext(f, name), nil
	}
	m, ok := stringIOMethods[name]
	if !ok {
		return nil, nil
	}
	return memFileMethod(f, name, "I/O operation on closed file", m), nil
}

// fileAttrNames are the attributes of an in-memory file whose methods
// are methods: closed and the methods' names, in order.
func fileAttrNames[M any](methods map[string]M) []string {
	return append([]string{"closed"}, slices.Sorted(maps.Keys(methods))...)
}

// memFile is an in-memory file: a StringIO or a BytesIO.
type memFile interface {
	starlark.Value
	isClosed() bool
	close()
}

func (f *stringIO) isClosed() bool { return f.closed }
func (f *bytesIO) isClosed() bool  { return f.closed }
func (f *stringIO) close()         { f.closed = true }
func (f *bytesIO) close()          { f.closed = true }

// memFileContext is __enter__ or __exit__ of the in-memory file f, which
// `with io.StringIO() as f:` calls: __enter__ returns the file (a closed
// one is IOBase's ValueError), __exit__ closes it and suppresses nothing.
func memFileContext(f memFile, name string) starlark.Value {
	return interp.NewBuiltin(name, func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if name == "__exit__" {
			f.close()
			return starlark.None, nil
		}
		if len(args)+len(kwargs) > 0 {
			return nil, pyrt.Errorf("TypeError", "%s() takes no arguments (%d given)", name, len(args)+len(kwargs))
		}
		if f.isClosed() {
			return nil, pyrt.Errorf("ValueError", "I/O operation on closed file.")
		}
		return f, nil
	}).BindReceiver(f)
}

// memFileMethod is method m of the in-memory file f bound to it: once the
// file is closed every method but close raises ValueError with closedMsg
// (CPython's two classes word it apart), and every call is charged to
// the run's budget.
func memFileMethod[F memFile](f F, name string, closedMsg string,
	m func(thread *starlark.Thread, name string, f F, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) starlark.Value {
	return interp.NewBuiltin(name, func(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if f.isClosed() && name != "close" {
			return nil, pyrt.Errorf("ValueError", "%s", closedMsg)
		}
		if err := interp.BudgetOf(thread).Charge(1); err != nil {
			return nil, err
		}
		return m(thread, fn.Name(), f, args, kwargs)
	}).BindReceiver(f)
}

type stringIOMethod func(thread *starlark.Thread, name string, f *stringIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

var stringIOMethods = map[string]stringIOMethod{
	"write":      sioWrite,
	"writelines": sioWritelines,
	"read":       sioReader((*stringIO).take),
	"readline":   sioReader((*stringIO).readline),
	"readlines":  sioReadlines,
	"getvalue":   sioGetvalue,
	"seek":       sioSeek,
	"tell":       sioTell,
	"truncate":   sioTruncate,
	"close":      sioClose,
	"readable":   sioTrue,
	"writable":   sioTrue,
	"seekable":   sioTrue,
	"isatty":     sioFalse,
	"flush":      sioFlush,
}

func newStringIO(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var initial, newline starlark.Value = starlark.String(""), starlark.String("\n")
	if err := starlark.UnpackArgs("StringIO", args, kwargs, "initial_value?", &initial, "newline?", &newline); err != nil {
		return nil, err
	}
	f := &stringIO{newline: "\n"}
	switch nl, ok := interp.AsText(newline); {
	case newline == starlark.None:
		f.universal = true
	case !ok:
		return nil, pyrt.Errorf("TypeError", "newline must be str or None, not %s", pyrt.TypeName(newline))
	case nl == "" || nl == "\n" || nl == "\r" || nl == "\r\n":
		f.newline = nl
	default:
		r, _ := interp.Repr(nil, newline)
		return nil, pyrt.Errorf("ValueError", "illegal newline value: %s", r)
	}
	if initial == starlark.None {
		return f, nil
	}
	s, ok := interp.AsText(initial)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "initial_value must be str or None, not %s", pyrt.TypeName(initial))
	}
	if err := interp.BudgetOf(thread).Alloc(int64(len(s))); err != nil {
		return nil, err
	}
	f.buf = []byte(f.translate(s))
	return f, nil
}

// translate is what writing s puts in the buffer: newlines as the
// newline argument asks.
func (f *stringIO) translate(s string) string {
	switch {
	case f.universal:
		if strings.IndexByte(s, '\r') >= 0 {
			s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
		}
	case f.newline == "\r" || f.newline == "\r\n":
		s = strings.ReplaceAll(s, "\n", f.newline)
	}
	return s
}

// write puts s at the position, over what is there, as a file does.
func (f *stringIO) write(b *interp.Budget, s string) error {
	if f.frozen {
		return pyrt.Errorf("TypeError", "cannot modify a frozen StringIO")
	}
	if err := b.Charge(uint64(len(s)) / 16); err != nil {
		return err
	}
	s = f.translate(s)
	// The buffer grows under the budget; the meter sees it (Held), so a
	// StringIO written without end ends at the memory budget.
	grown, err := reserve(b, f.buf, len(s)+f.extra)
	if err != nil {
		return err
	}
	f.buf = grown
	if f.extra > 0 { // a seek past the end: the gap holds NULs
		f.buf = append(f.buf, strings.Repeat("\x00", f.extra)...)
		f.pos, f.extra = len(f.buf), 0
	}
	if f.pos == len(f.buf) {
		f.buf = append(f.buf, s...)
		f.pos = len(f.buf)
		return nil
	}
	// Overwrite as many characters as s has.
	end := f.pos
	for n := utf8.RuneCountInString(s); n > 0 && end < len(f.buf); n-- {
		_, size := utf8.DecodeRune(f.buf[end:])
		end += size
	}
	rest := append([]byte(s), f.buf[end:]...)
	f.buf = append(f.buf[:f.pos], rest...)
	f.pos += len(s)
	return nil
}

func sioWrite(thread *starlark.Thread, name string, f *stringIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackArgs(name, args, kwargs, "s", &v); err != nil {
		return nil, err
	}
	s, ok := interp.AsText(v)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "string argument expected, got '%s'", pyrt.TypeName(v))
	}
	if err := f.write(interp.BudgetOf(thread), s); err != nil {
		return nil, err
	}
	return starlark.MakeInt(utf8.RuneCountInString(s)), nil
}

func sioWritelines(thread *starlark.Thread, name string, f *stringIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var lines starlark.Value
	if err := starlark.UnpackArgs(name, args, kwargs, "lines", &lines); err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	return starlark.None, pyrt.ForEach(thread, lines, func(v starlark.Value) (bool, error) {
		s, ok := interp.AsText(v)
		if !ok {
			return true, pyrt.Errorf("TypeError", "string argument expected, got '%s'", pyrt.TypeName(v))
		}
		return false, f.write(b, s)
	})
}

// sizeArg reads an optional size: None or negative for all.
func sizeArg(v starlark.Value) (int, error) {
	if v == starlark.None {
		return -1, nil
	}
	var n int
	if err := starlark.AsInt(v, &n); err != nil {
		return 0, pyrt.Errorf("TypeError", "argument should be integer or None, not '%s'", pyrt.TypeName(v))
	}
	return n, nil
}

// take returns up to n characters (all for n < 0) from the position on,
// moving it.
func (f *stringIO) take(n int) string {
	if f.extra > 0 || f.pos >= len(f.buf) {
		return ""
	}
	end := len(f.buf)
	if n >= 0 {
		end = f.pos
		for ; n > 0 && end < len(f.buf); n-- {
			_, size := utf8.DecodeRune(f.buf[end:])
			end += size
		}
	}
	s := string(f.buf[f.pos:end])
	f.pos = end
	return s
}

// sioReader is read(size=-1) and readline(size=-1): what read takes from
// the buffer, at most size characters when size >= 0.
func sioReader(read func(f *stringIO, size int) string) stringIOMethod {
	return func(thread *starlark.Thread, name string, f *stringIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var size starlark.Value = starlark.None
		if err := starlark.UnpackArgs(name, args, kwargs, "size?", &size); err != nil {
			return nil, err
		}
		n, err := sizeArg(size)
		if err != nil {
			return nil, err
		}
		s := read(f, n)
		return interp.MakeString(s), interp.BudgetOf(thread).Charge(uint64(len(s)) / 64)
	}
}

// readline reads up to and including the next "\n", at most limit
// characters when limit >= 0.
func (f *stringIO) readline(limit int) string {
	if f.extra > 0 || f.pos >= len(f.buf) {
		return ""
	}
	end := len(f.buf)
	rest := f.buf[f.pos:]
	switch f.newline {
	case "\n":
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			end = f.pos + i + 1
		}
	case "":
		// The first \r or \n ends the line; a \r with a \n after it
		// ends it after both.
		if i := bytes.IndexAny(rest, "\r\n"); i >= 0 {
			end = f.pos + i + 1
			if rest[i] == '\r' && i+1 < len(rest) && rest[i+1] == '\n' {
				end++
			}
		}
	default:
		if i := bytes.Index(rest, []byte(f.newline)); i >= 0 {
			end = f.pos + i + len(f.newline)
		}
	}
	if limit >= 0 {
		cut := f.pos
		for n := limit; n > 0 && cut < end; n-- {
			_, size := utf8.DecodeRune(f.buf[cut:])
			cut += size
		}
		end = cut
	}
	s := string(f.buf[f.pos:end])
	f.pos = end
	return s
}

func sioReadlines(thread *starlark.Thread, name string, f *stringIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var hint starlark.Value = starlark.None
	if err := starlark.UnpackArgs(name, args, kwargs, "hint?", &hint); err != nil {
		return nil, err
	}
	n, err := sizeArg(hint)
	if err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	var lines []starlark.Value // copies of the text, shown to the meter
	defer b.HoldValues(&lines)()
	total := 0
	for {
		line := f.readline(-1)
		if line == "" {
			break
		}
		if err := b.Charge(2 + uint64(len(line))/16); err != nil {
			return nil, err
		}
		if lines, err = appendValue(b, lines, interp.MakeString(line)); err != nil {
			return nil, err
		}
		total += utf8.RuneCountInString(line)
		if n > 0 && total > n {
			break
		}
	}
	return starlark.NewList(lines), nil
}

func sioGetvalue(thread *starlark.Thread, name string, f *stringIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	if err := b.Alloc(int64(len(f.buf))); err != nil {
		return nil, err
	}
	return interp.MakeString(string(f.buf)), b.Charge(uint64(len(f.buf)) / 64)
}

// tell is the position in characters.
func (f *stringIO) tell() int {
	if f.pos >= len(f.buf) {
		return utf8.RuneCount(f.buf) + f.extra
	}
	return utf8.RuneCount(f.buf[:f.pos])
}

func sioTell(thread *starlark.Thread, name string, f *stringIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
		return nil, err
	}
	return starlark.MakeInt(f.tell()), interp.BudgetOf(thread).Charge(uint64(f.pos) / 64)
}

// seekTo moves to character n (n >= 0), past the end if need be.
func (f *stringIO) seekTo(n int) {
	f.pos, f.extra = 0, 0
	f.seekFrom(n)
}

// seekFrom moves n characters (n >= 0) on from the position, past the
// end if need be.
func (f *stringIO) seekFrom(n int) {
	for ; n > 0 && f.pos < len(f.buf); n-- {
		_, size := utf8.DecodeRune(f.buf[f.pos:])
		f.pos += size
	}
	f.extra = n
}

func sioSeek(thread *starlark.Thread, name string, f *stringIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var pos, whence int
	if err := starlark.UnpackArgs(name, args, kwargs, "pos", &pos, "whence?", &whence); err != nil {
		return nil, err
	}
	if err := interp.BudgetOf(thread).Charge(uint64(len(f.buf)) / 64); err != nil {
		return nil, err
	}
	switch {
	case whence < 0 || whence > 2:
		return nil, pyrt.Errorf("ValueError", "Invalid whence (%d, should be 0, 1 or 2)", whence)
	case whence == 0 && pos < 0:
		return nil, pyrt.Errorf("ValueError", "Negative seek position %d", pos)
	case whence == 0:
		f.seekTo(pos)
	case pos != 0: // CPython's message says cur for whence 2 too
		return nil, pyrt.Errorf("OSError", "Can't do nonzero cur-relative seeks")
	case whence == 2:
		f.pos, f.extra = len(f.buf), 0
	}
	return starlark.MakeInt(f.tell()), nil
}

func sioTruncate(thread *starlark.Thread, name string, f *stringIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var size starlark.Value = starlark.None
	if err := starlark.UnpackArgs(name, args, kwargs, "pos?", &size); err != nil {
		return nil, err
	}
	if f.frozen {
		return nil, pyrt.Errorf("TypeError", "cannot modify a frozen StringIO")
	}
	n := f.tell()
	if size != starlark.None {
		if err := starlark.AsInt(size, &n); err != nil {
			return nil, pyrt.Errorf("TypeError", "argument should be integer or None, not '%s'", pyrt.TypeName(size))
		}
		if n < 0 {
			return nil, pyrt.Errorf("ValueError", "Negative size value %d", n)
		}
	}
	// Cut at character n; the position stays where it was.
	cut := 0
	for i := n; i > 0 && cut < len(f.buf); i-- {
		_, sz := utf8.DecodeRune(f.buf[cut:])
		cut += sz
	}
	if cut < len(f.buf) {
		at := f.tell()
		f.buf = f.buf[:cut]
		f.seekTo(at)
	}
	return starlark.MakeInt(n), nil
}

func sioClose(_ *starlark.Thread, name string, f *stringIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
		return nil, err
	}
	f.closed = true
	return starlark.None, nil
}

func sioTrue(_ *starlark.Thread, name string, _ *stringIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return starlark.True, starlark.UnpackArgs(name, args, kwargs)
}

func sioFlush(_ *starlark.Thread, name string, _ *stringIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return starlark.None, starlark.UnpackArgs(name, args, kwargs)
}

func sioFalse(_ *starlark.Thread, name string, _ *stringIO, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return starlark.False, starlark.UnpackArgs(name, args, kwargs)
}
