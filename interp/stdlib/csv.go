package stdlib

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// The quoting modes, as CPython numbers them.
const (
	quoteMinimal = iota
	quoteAll
	quoteNonnumeric
	quoteNone
)

// csvFieldLimit is CPython's default field_size_limit().
const csvFieldLimit = 131072

// noChar marks an unset quotechar or escapechar.
const noChar rune = -1

// csvModule holds what the module's functions share: its exception
// class and the float() they convert QUOTE_NONNUMERIC fields with.
type csvModule struct {
	errClass *pyrt.ExcClass
	float    starlark.Value
}

// CSV is the csv module: reader, writer, DictReader and DictWriter with
// CPython's dialect parameters, its parsing state machine and its rules
// for quoting, over any iterable of lines (a list, str.splitlines(),
// io.StringIO) and any object with a write method.
func CSV() *starlarkstruct.Module {
	m := &csvModule{
		errClass: pyrt.NewModuleClass("_csv.Error", "Exception"),
		float:    builtins()["float"],
	}
	fn := func(name string, f func(*csvModule, *starlark.Thread, string, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)) *starlark.Builtin {
		return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return f(m, thread, b.Name(), args, kwargs)
		})
	}
	return &starlarkstruct.Module{Name: "csv", Members: starlark.StringDict{
		"reader":             fn("reader", csvReaderNew),
		"writer":             fn("writer", csvWriterNew),
		"DictReader":         fn("DictReader", csvDictReaderNew),
		"DictWriter":         fn("DictWriter", csvDictWriterNew),
		"list_dialects":      fn("list_dialects", csvListDialects),
		"field_size_limit":   fn("field_size_limit", csvFieldSizeLimit),
		"register_dialect":   fn("register_dialect", csvRegisterDialect),
		"unregister_dialect": fn("unregister_dialect", csvUnregisterDialect),
		"get_dialect":        fn("get_dialect", csvGetDialect),
		"excel":              &dialectValue{d: excelDialect, class: "excel"},
		"excel_tab":          &dialectValue{d: excelTabDialect, class: "excel_tab"},
		"unix_dialect":       &dialectValue{d: unixDialect, class: "unix_dialect"},
		"Error":              m.errClass,
		"QUOTE_MINIMAL":      starlark.MakeInt(quoteMinimal),
		"QUOTE_ALL":          starlark.MakeInt(quoteAll),
		"QUOTE_NONNUMERIC":   starlark.MakeInt(quoteNonnumeric),
		"QUOTE_NONE":         starlark.MakeInt(quoteNone),
	}}
}

func (m *csvModule) fail(format string, args ...any) error {
	v, err := m.errClass.CallInternal(nil, starlark.Tuple{interp.MakeString(fmt.Sprintf(format, args...))}, nil)
	if err != nil {
		return err
	}
	return v.(*pyrt.ExcValue).Error()
}

// dialect is the formatting parameters of a reader or writer.
type dialect struct {
	delimiter, quotechar, escapechar rune
	doublequote, skipinitialspace    bool
	strict                           bool
	lineterminator                   string
	quoting                          int
}

// csvLimitLocal is the thread-local key of a run's field size limit: each
// run starts with the default, and field_size_limit() in one run never
// changes another's.
const csvLimitLocal = "onetool.stdlib.csv.field_size_limit"

// fieldLimit is the run's field size limit.
func fieldLimit(thread *starlark.Thread) int64 {
	if thread != nil {
		if n, ok := interp.RunLocal(thread, csvLimitLocal).(int64); ok {
			return n
		}
	}
	return csvFieldLimit
}

// csvFieldSizeLimit is field_size_limit([new_limit]): the limit before,
// and the new one set when given. (A field is held in memory, so a large
// limit is bounded by the run's memory budget.)
func csvFieldSizeLimit(_ *csvModule, thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args)+len(kwargs) > 1 {
		return nil, pyrt.Errorf("TypeError", "field_size_limit() takes at most 1 argument (%d given)", len(args)+len(kwargs))
	}
	var v starlark.Value
	if len(args) == 1 {
		v = args[0]
	} else if len(kwargs) == 1 {
		if k, _ := starlark.AsString(kwargs[0][0]); k != "new_limit" {
			return nil, pyrt.Errorf("TypeError", "'%s' is an invalid keyword argument for field_size_limit()", k)
		}
		v = kwargs[0][1]
	}
	old := fieldLimit(thread)
	if v != nil {
		n, ok := v.(starlark.Int)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "limit must be an integer")
		}
		limit, ok := n.Int64()
		if !ok {
			return nil, pyrt.Errorf("OverflowError", "Python int too large to convert to C long")
		}
		interp.SetRunLocal(thread, csvLimitLocal, limit)
	}
	return starlark.MakeInt64(old), nil
}

func csvListDialects(_ *csvModule, thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
		return nil, err
	}
	names := []starlark.Value{starlark.String("excel"), starlark.String("excel-tab"), starlark.String("unix")}
	for _, n := range registry(thread).order {
		names = append(names, interp.MakeString(n))
	}
	return starlark.NewList(names), nil
}

// The dialects every run has.
var (
	excelDialect    = dialect{delimiter: ',', quotechar: '"', escapechar: noChar, doublequote: true, lineterminator: "\r\n"}
	excelTabDialect = dialect{delimiter: '\t', quotechar: '"', escapechar: noChar, doublequote: true, lineterminator: "\r\n"}
	unixDialect     = dialect{delimiter: ',', quotechar: '"', escapechar: noChar, doublequote: true, lineterminator: "\n", quoting: quoteAll}
)

// dialectRegistry is a run's registered dialects (register_dialect in
// one run never changes another's): by name, and in the order they were
// registered. It lives in the run's thread, where the memory meter does
// not look: size counts what its dialects hold (names and line
// terminators of any length, register_dialect(str(i), ...) in a loop),
// alone against the budget.
type dialectRegistry struct {
	byName map[string]dialect
	order  []string
	size   goBytes
}

const csvDialectsLocal = "onetool.stdlib.csv.dialects"

func registry(thread *starlark.Thread) *dialectRegistry {
	if r, ok := interp.RunLocal(thread, csvDialectsLocal).(*dialectRegistry); ok {
		return r
	}
	r := &dialectRegistry{byName: map[string]dialect{}}
	interp.SetRunLocal(thread, csvDialectsLocal, r)
	return r
}

// lookupDialect finds a dialect by name: a registered one, or one every
// run has.
func lookupDialect(thread *starlark.Thread, name string) (dialect, bool) {
	if thread != nil {
		if d, ok := registry(thread).byName[name]; ok {
			return d, true
		}
	}
	switch name {
	case "excel":
		return excelDialect, true
	case "excel-tab":
		return excelTabDialect, true
	case "unix":
		return unixDialect, true
	}
	return dialect{}, false
}

// csvRegisterDialect is register_dialect(name, dialect=None, **fmtparams).
func csvRegisterDialect(m *csvModule, thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, pyrt.Errorf("TypeError", "register_dialect() expected at least 1 argument, got 0")
	}
	if len(args) > 2 {
		return nil, pyrt.Errorf("TypeError", "register_dialect() expected at most 2 arguments, got %d", len(args))
	}
	key, ok := interp.AsText(args[0])
	if !ok {
		return nil, pyrt.Errorf("TypeError", "dialect name must be a string")
	}
	var base starlark.Value
	if len(args) == 2 {
		base = args[1]
	}
	d, rest, err := m.newDialect(thread, base, kwargs)
	if err != nil {
		return nil, err
	}
	if err := noExtra(rest); err != nil {
		return nil, err
	}
	r := registry(thread)
	if old, ok := r.byName[key]; ok {
		r.size -= dialectBytes(key, old)
	}
	if err := r.size.add(interp.BudgetOf(thread), int64(dialectBytes(key, d))); err != nil {
		return nil, err
	}
	if _, ok := r.byName[key]; !ok {
		r.order = append(r.order, key)
	}
	r.byName[key] = d
	return starlark.None, nil
}

// dialectBytes is what the registry holds for d under key: its entry,
// the key twice (map and order) and the line terminator.
func dialectBytes(key string, d dialect) goBytes {
	return goBytes(128 + 2*len(key) + len(d.lineterminator))
}

// csvUnregisterDialect is unregister_dialect(name).
func csvUnregisterDialect(m *csvModule, thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var key string
	if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &key); err != nil {
		return nil, pyrt.Errorf("TypeError", "%s", err.Error())
	}
	r := registry(thread)
	if _, ok := r.byName[key]; !ok {
		return nil, m.fail("unknown dialect")
	}
	r.size -= dialectBytes(key, r.byName[key])
	delete(r.byName, key)
	for i, n := range r.order {
		if n == key {
			r.order = append(r.order[:i:i], r.order[i+1:]...)
			break
		}
	}
	return starlark.None, nil
}

// csvGetDialect is get_dialect(name): the dialect, with its parameters
// as attributes.
func csvGetDialect(m *csvModule, thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var key starlark.Value
	if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &key); err != nil {
		return nil, pyrt.Errorf("TypeError", "%s", err.Error())
	}
	s, ok := interp.AsText(key)
	if !ok {
		return nil, m.fail("unknown dialect")
	}
	d, ok := lookupDialect(thread, s)
	if !ok {
		return nil, m.fail("unknown dialect")
	}
	return &dialectValue{d: d}, nil
}

// dialectValue is a dialect as a program sees it: what get_dialect
// returns, and the classes csv.excel, csv.excel_tab and csv.unix_dialect
// (which cannot be subclassed here); its parameters are attributes, and
// it can be given as dialect= to reader, writer and register_dialect.
type dialectValue struct {
	d     dialect
	class string // "excel" for csv.excel; "" for what get_dialect returns
}

func (v *dialectValue) String() string {
	if v.class != "" {
		return "<class 'csv." + v.class + "'>"
	}
	return "<_csv.Dialect object>"
}
func (v *dialectValue) Type() string {
	if v.class != "" {
		return "type"
	}
	return "Dialect"
}
func (v *dialectValue) Freeze()               {}
func (v *dialectValue) Truth() starlark.Bool  { return true }
func (v *dialectValue) Hash() (uint32, error) { return starlark.String(v.class).Hash() }
func (v *dialectValue) AttrNames() []string {
	return []string{"delimiter", "doublequote", "escapechar", "lineterminator", "quotechar", "quoting", "skipinitialspace", "strict"}
}

func (v *dialectValue) Attr(name string) (starlark.Value, error) {
	char := func(r rune) starlark.Value {
		if r == noChar {
			return starlark.None
		}
		return interp.MakeString(string(r))
	}
	switch name {
	case "delimiter":
		return char(v.d.delimiter), nil
	case "quotechar":
		return char(v.d.quotechar), nil
	case "escapechar":
		return char(v.d.escapechar), nil
	case "doublequote":
		return starlark.Bool(v.d.doublequote), nil
	case "skipinitialspace":
		return starlark.Bool(v.d.skipinitialspace), nil
	case "strict":
		return starlark.Bool(v.d.strict), nil
	case "lineterminator":
		return interp.MakeString(v.d.lineterminator), nil
	case "quoting":
		return starlark.MakeInt(v.d.quoting), nil
	case "__name__":
		if v.class != "" {
			return starlark.String(v.class), nil
		}
	}
	return nil, nil
}

// newDialect reads a dialect name (or None) and the format parameters
// among kwargs; it returns the kwargs it did not know.
func (m *csvModule) newDialect(thread *starlark.Thread, name starlark.Value, kwargs []starlark.Tuple) (dialect, []starlark.Tuple, error) {
	d := excelDialect
	if name != nil && name != starlark.None {
		if dv, ok := name.(*dialectValue); ok {
			d = dv.d
		} else if s, ok := interp.AsText(name); ok {
			found, ok := lookupDialect(thread, s)
			if !ok {
				return d, nil, m.fail("unknown dialect")
			}
			d = found
		} else {
			return d, nil, pyrt.Errorf("TypeError", "dialect must be a name ('excel', 'excel-tab', 'unix' or a registered one) or a dialect")
		}
	}
	var rest []starlark.Tuple
	for _, kv := range kwargs {
		key, _ := starlark.AsString(kv[0])
		v := kv[1]
		var err error
		switch key {
		case "delimiter":
			d.delimiter, err = csvChar(key, v, false)
		case "quotechar":
			d.quotechar, err = csvChar(key, v, true)
		case "escapechar":
			d.escapechar, err = csvChar(key, v, true)
		case "doublequote":
			d.doublequote = bool(v.Truth())
		case "skipinitialspace":
			d.skipinitialspace = bool(v.Truth())
		case "strict":
			d.strict = bool(v.Truth())
		case "lineterminator":
			s, ok := interp.AsText(v)
			if !ok {
				err = pyrt.Errorf("TypeError", "\"lineterminator\" must be a string")
			}
			d.lineterminator = s
		case "quoting":
			var q int
			if _, isInt := v.(starlark.Int); !isInt {
				err = pyrt.Errorf("TypeError", "\"quoting\" must be an integer")
			} else if starlark.AsInt(v, &q) != nil || q < 0 || q > quoteNone {
				err = pyrt.Errorf("TypeError", "bad \"quoting\" value")
			}
			d.quoting = q
		default:
			rest = append(rest, kv)
		}
		if err != nil {
			return d, nil, err
		}
	}
	return d, rest, nil
}

// csvChar reads a one-character parameter; None is allowed for some.
func csvChar(name string, v starlark.Value, noneOK bool) (rune, error) {
	if v == starlark.None && noneOK {
		return noChar, nil
	}
	s, ok := interp.AsText(v)
	if !ok {
		return 0, pyrt.Errorf("TypeError", "\"%s\" must be string, not %s", name, pyrt.TypeName(v))
	}
	r := []rune(s)
	if len(r) != 1 {
		return 0, pyrt.Errorf("TypeError", "\"%s\" must be a 1-character string", name)
	}
	return r[0], nil
}

// noExtra fails for keyword arguments a function does not take.
func noExtra(rest []starlark.Tuple) error {
	if len(rest) > 0 {
		key, _ := starlark.AsString(rest[0][0])
		return pyrt.Errorf("TypeError", "'%s' is an invalid keyword argument for this function", key)
	}
	return nil
}

// splitDialectArgs takes a dialect given by position or keyword out of
// the arguments of reader() and writer().
// csvOwnKeywords splits the keywords of DictReader or DictWriter into
// theirs and an error for the first that is neither theirs nor a
// dialect's, which reader() and writer() raise when CPython hands it on
// to them (after DictReader's own arguments are bound).
func csvOwnKeywords(kwargs []starlark.Tuple, own ...string) ([]starlark.Tuple, error) {
	var mine []starlark.Tuple
	var bad error
	for _, kv := range kwargs {
		if k, _ := starlark.AsString(kv[0]); indexOf(own, k) >= 0 {
			mine = append(mine, kv)
		} else if bad == nil {
			bad = pyrt.Errorf("TypeError", "'%s' is an invalid keyword argument for this function", k)
		}
	}
	return mine, bad
}

func splitDialectArgs(fn string, args starlark.Tuple, kwargs []starlark.Tuple, positional int) (starlark.Tuple, starlark.Value, []starlark.Tuple, error) {
	var dialectName starlark.Value
	if len(args) > positional {
		dialectName = args[positional]
		if len(args) > positional+1 {
			// CPython hands the extra ones on to reader()/writer(), which
			// says this (its name left out).
			return nil, nil, nil, pyrt.Errorf("TypeError", " expected at most 2 arguments, got %d", len(args)-positional+1)
		}
		args = args[:positional]
	}
	var rest []starlark.Tuple
	for _, kv := range kwargs {
		if key, _ := starlark.AsString(kv[0]); key == "dialect" {
			dialectName = kv[1]
			continue
		}
		rest = append(rest, kv)
	}
	return args, dialectName, rest, nil
}

// csvReader is a csv.reader: CPython's parser, fed one line at a time.
type csvReader struct {
	m       *csvModule
	d       dialect
	thread  *starlark.Thread // the run's, for float() when none is given
	src     starlark.Value   // the lines, which next reads
	next    func() (starlark.Value, bool, error)
	lineNum int
	// fields and field are the record being read and its field so far:
	// a line of a hundred million commas is a hundred million fields, so
	// Step shows them to the memory meter (held) while it reads.
	fields  []starlark.Value
	field   []byte
	flen    int   // characters in field
	limit   int64 // field_size_limit() when the reader was made
	numeric bool
	state   int
}

// held visits the record being read, for the memory meter.
func (r *csvReader) held(visit func(starlark.Value)) {
	visit(heldTuple(r.fields))
	visit(heldBytes(r.field))
}

// The parser's states, CPython's.
const (
	startRecord = iota
	startField
	escapedChar
	inField
	inQuotedField
	escapeInQuotedField
	quoteInQuotedField
	eatCRNL
	afterEscapedCRNL
)

// eol is the end of a line given to the parser.
const eol rune = -2

var (
	_ pyrt.Stepper      = (*csvReader)(nil)
	_ starlark.HasAttrs = (*csvReader)(nil)
)

func (r *csvReader) String() string        { return "<_csv.reader object>" }
func (r *csvReader) Type() string          { return "_csv.reader" }
func (r *csvReader) Freeze()               {}
func (r *csvReader) Truth() starlark.Bool  { return true }
func (r *csvReader) Hash() (uint32, error) { return 0, nil }
func (r *csvReader) AttrNames() []string   { return []string{"dialect", "line_num"} }
func (r *csvReader) Attr(name string) (starlark.Value, error) {
	switch name {
	case "line_num":
		return starlark.MakeInt(r.lineNum), nil
	case "dialect":
		return r.d.value(), nil
	}
	return nil, noAttr(r, name)
}

// value shows a dialect's parameters, as the attributes of CPython's
// Dialect object.
func (d dialect) value() starlark.Value {
	ch := func(r rune) starlark.Value {
		if r == noChar {
			return starlark.None
		}
		return interp.MakeString(string(r))
	}
	return starlarkstruct.FromStringDict(starlark.String("Dialect"), starlark.StringDict{
		"delimiter":        ch(d.delimiter),
		"quotechar":        ch(d.quotechar),
		"escapechar":       ch(d.escapechar),
		"doublequote":      starlark.Bool(d.doublequote),
		"skipinitialspace": starlark.Bool(d.skipinitialspace),
		"strict":           starlark.Bool(d.strict),
		"lineterminator":   interp.MakeString(d.lineterminator),
		"quoting":          starlark.MakeInt(d.quoting),
	})
}

func csvReaderNew(m *csvModule, thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	src, d, err := m.fileAndDialect(thread, name, args, kwargs)
	if err != nil {
		return nil, err
	}
	return m.newReader(thread, src, d)
}

// fileAndDialect reads the arguments of csv.reader and csv.writer: one
// file (or iterable of lines), then a dialect and its format parameters.
func (m *csvModule) fileAndDialect(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, dialect, error) {
	args, dialectName, kwargs, err := splitDialectArgs(name, args, kwargs, 1)
	if err != nil {
		return nil, dialect{}, err
	}
	d, rest, err := m.newDialect(thread, dialectName, kwargs)
	if err != nil {
		return nil, dialect{}, err
	}
	if err := noExtra(rest); err != nil {
		return nil, dialect{}, err
	}
	if len(args) != 1 {
		return nil, dialect{}, pyrt.Errorf("TypeError", " expected at least 1 argument, got 0")
	}
	return args[0], d, nil
}

func (m *csvModule) newReader(thread *starlark.Thread, src starlark.Value, d dialect) (*csvReader, error) {
	next, err := pyrt.Iterate(thread, src)
	if err != nil {
		return nil, err
	}
	return &csvReader{m: m, d: d, thread: thread, src: src, next: next, limit: fieldLimit(thread)}, nil
}

func (r *csvReader) saveField(thread *starlark.Thread) error {
	var v starlark.Value = interp.MakeString(string(r.field))
	if r.numeric {
		r.numeric = false
		if thread == nil {
			thread = r.thread
		}
		var err error
		if v, err = starlark.Call(thread, r.m.float, starlark.Tuple{v}, nil); err != nil {
			return err
		}
	}
	if thread == nil {
		thread = r.thread
	}
	fields, err := appendValue(interp.BudgetOf(thread), r.fields, v)
	if err != nil {
		return err
	}
	r.fields = fields
	r.field = r.field[:0]
	r.flen = 0
	return nil
}

func (r *csvReader) addChar(c rune) error {
	if int64(r.flen) >= r.limit {
		return r.m.fail("field larger than field limit (%d)", r.limit)
	}
	r.field = utf8.AppendRune(r.field, c)
	r.flen++
	return nil
}

// endField saves the field at a line's end (eol) or a newline.
func (r *csvReader) endField(thread *starlark.Thread, c rune) error {
	if err := r.saveField(thread); err != nil {
		return err
	}
	if c == eol {
		r.state = startRecord
	} else {
		r.state = eatCRNL
	}
	return nil
}

func isCRNL(c rune) bool { return c == '\n' || c == '\r' }

// process is one step of CPython's parser.
func (r *csvReader) process(thread *starlark.Thread, c rune) error {
	d := &r.d
	switch r.state {
	case startRecord:
		if c == eol {
			return nil // an empty line: no fields
		}
		if isCRNL(c) {
			r.state = eatCRNL
			return nil
		}
		r.state = startField
		return r.process(thread, c)
	case startField:
		switch {
		case isCRNL(c) || c == eol:
			return r.endField(thread, c)
		case c == d.quotechar && d.quoting != quoteNone:
			r.state = inQuotedField
		case c == d.escapechar:
			r.state = escapedChar
		case c == ' ' && d.skipinitialspace:
		case c == d.delimiter:
			return r.saveField(thread)
		default:
			if d.quoting == quoteNonnumeric {
				r.numeric = true
			}
			r.state = inField
			return r.addChar(c)
		}
	case escapedChar:
		if isCRNL(c) {
			r.state = afterEscapedCRNL
			return r.addChar(c)
		}
		if c == eol {
			c = '\n'
		}
		r.state = inField
		return r.addChar(c)
	case afterEscapedCRNL:
		if c == eol {
			return nil
		}
		r.state = inField
		return r.process(thread, c)
	case inField:
		switch {
		case isCRNL(c) || c == eol:
			return r.endField(thread, c)
		case c == d.escapechar:
			r.state = escapedChar
		case c == d.delimiter:
			r.state = startField
			return r.saveField(thread)
		default:
			return r.addChar(c)
		}
	case inQuotedField:
		switch {
		case c == eol:
		case c == d.escapechar:
			r.state = escapeInQuotedField
		case c == d.quotechar && d.quoting != quoteNone:
			if d.doublequote {
				r.state = quoteInQuotedField
			} else {
				r.state = inField
			}
		default:
			return r.addChar(c)
		}
	case escapeInQuotedField:
		if c == eol {
			c = '\n'
		}
		r.state = inQuotedField
		return r.addChar(c)
	case quoteInQuotedField:
		switch {
		case d.quoting != quoteNone && c == d.quotechar:
			r.state = inQuotedField
			return r.addChar(c)
		case c == d.delimiter:
			r.state = startField
			return r.saveField(thread)
		case isCRNL(c) || c == eol:
			return r.endField(thread, c)
		case !d.strict:
			r.state = inField
			return r.addChar(c)
		default:
			return r.m.fail("'%c' expected after '%c'", d.delimiter, d.quotechar)
		}
	case eatCRNL:
		switch {
		case isCRNL(c):
		case c == eol:
			r.state = startRecord
		default:
			return r.m.fail("new-line character seen in unquoted field - do you need to open the file in universal-newline mode?")
		}
	}
	return nil
}

func (r *csvReader) Iterate() starlark.Iterator { return &stepIter{s: r, thread: r.thread} }

// Step reads the next record: lines until the parser is back at the
// start of a record.
func (r *csvReader) Step(thread *starlark.Thread) (starlark.Value, bool, error) {
	if thread == nil {
		thread = r.thread
	}
	b := interp.BudgetOf(thread)
	r.fields, r.state = nil, startRecord
	if cap(r.field) > 4096 {
		r.field = nil // a long field's buffer is not kept between records
	}
	r.field = r.field[:0]
	r.flen, r.numeric = 0, false
	defer b.Hold(r.held)()
	for {
		line, ok, err := r.next()
		if err != nil {
			return nil, false, err
		}
		if !ok {
			if r.flen != 0 || r.state == inQuotedField {
				if r.d.strict {
					return nil, false, r.m.fail("unexpected end of data")
				}
				if err := r.saveField(thread); err != nil {
					return nil, false, err
				}
				break
			}
			return nil, false, nil
		}
		s, isText := interp.AsText(line)
		if !isText {
			return nil, false, r.m.fail("iterator should return strings, not %s (the file should be opened in text mode)", pyrt.TypeName(line))
		}
		r.lineNum++
		if err := b.Charge(1 + uint64(len(s))/4); err != nil {
			return nil, false, err
		}
		if err := b.Alloc(2*int64(len(s)) + 64); err != nil {
			return nil, false, err
		}
		for i, c := range s {
			if err := pace(b, i); err != nil {
				return nil, false, err
			}
			if err := r.process(thread, c); err != nil {
				return nil, false, err
			}
		}
		if err := r.process(thread, eol); err != nil {
			return nil, false, err
		}
		if r.state == startRecord {
			break
		}
		// A record over many lines: its field so far (field_size_limit may
		// be raised to any size) doubles as it grows.
		if err := b.Fits(2 * int64(cap(r.field))); err != nil {
			return nil, false, err
		}
	}
	fields := r.fields
	r.fields = nil
	if fields == nil {
		fields = []starlark.Value{}
	}
	return starlark.NewList(fields), true, nil
}

// csvWriter is a csv.writer.
type csvWriter struct {
	m     *csvModule
	d     dialect
	write starlark.Value
}

var _ starlark.HasAttrs = (*csvWriter)(nil)

func (w *csvWriter) String() string        { return "<_csv.writer object>" }
func (w *csvWriter) Type() string          { return "_csv.writer" }
func (w *csvWriter) Freeze()               {}
func (w *csvWriter) Truth() starlark.Bool  { return true }
func (w *csvWriter) Hash() (uint32, error) { return 0, nil }
func (w *csvWriter) AttrNames() []string   { return []string{"dialect", "writerow", "writerows"} }
func (w *csvWriter) Attr(name string) (starlark.Value, error) {
	switch name {
	case "dialect":
		return w.d.value(), nil
	case "writerow":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var row starlark.Value
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &row); err != nil {
				return nil, err
			}
			return w.writerow(thread, row)
		}).BindReceiver(w), nil
	case "writerows":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var rows starlark.Value
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &rows); err != nil {
				return nil, err
			}
			return starlark.None, pyrt.ForEach(thread, rows, func(row starlark.Value) (bool, error) {
				_, err := w.writerow(thread, row)
				return false, err
			})
		}).BindReceiver(w), nil
	}
	return nil, noAttr(w, name)
}

func csvWriterNew(m *csvModule, thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	dst, d, err := m.fileAndDialect(thread, name, args, kwargs)
	if err != nil {
		return nil, err
	}
	return m.newWriter(dst, d)
}

func (m *csvModule) newWriter(f starlark.Value, d dialect) (*csvWriter, error) {
	var write starlark.Value
	if h, ok := f.(starlark.HasAttrs); ok {
		write, _ = h.Attr("write")
	}
	if write == nil {
		return nil, pyrt.Errorf("TypeError", "argument 1 must have a \"write\" method")
	}
	return &csvWriter{m: m, d: d, write: write}, nil
}

// writerow writes one record and returns what the file's write returned.
func (w *csvWriter) writerow(thread *starlark.Thread, row starlark.Value) (starlark.Value, error) {
	b := interp.BudgetOf(thread)
	next, err := pyrt.Iterate(thread, row)
	if err != nil {
		return nil, w.m.fail("iterable expected, not %s", pyrt.TypeName(row))
	}
	d := &w.d
	var line strings.Builder
	n := 0
	for {
		field, ok, err := next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if err := b.Charge(1); err != nil {
			return nil, err
		}
		var quoted bool
		switch d.quoting {
		case quoteNonnumeric:
			// CPython leaves out the quotes around what is a number to it:
			// ints, floats, bools, and a UUID (which has __int__).
			switch field.(type) {
			case starlark.Int, starlark.Float, starlark.Bool, *uuidValue:
			default:
				quoted = true
			}
		case quoteAll:
			quoted = true
		}
		text := ""
		if field != starlark.None {
			if text, err = interp.Str(b, field); err != nil {
				return nil, err
			}
		}
		if n > 0 {
			line.WriteRune(d.delimiter)
		}
		if err := b.Fits(int64(line.Len() + len(text) + 2)); err != nil {
			return nil, err // the line would pass the memory budget
		}
		if err := w.appendField(b, &line, text, quoted); err != nil {
			return nil, err
		}
		n++
		if err := b.Alloc(int64(len(text)) + 2); err != nil {
			return nil, err
		}
	}
	if n == 1 && line.Len() == 0 {
		// A record of one empty field must be told from an empty one.
		if d.quoting == quoteNone || d.quotechar == noChar {
			return nil, w.m.fail("single empty field record must be quoted")
		}
		line.WriteRune(d.quotechar)
		line.WriteRune(d.quotechar)
	}
	line.WriteString(d.lineterminator)
	return starlark.Call(thread, w.write, starlark.Tuple{interp.MakeString(line.String())}, nil)
}

// appendField writes a field as CPython does: quoted when it holds the
// delimiter, the quotechar, the escapechar or a character of the line
// terminator (or always, by the quoting mode); quotes doubled or
// escaped.
func (w *csvWriter) appendField(b *interp.Budget, line *strings.Builder, field string, quoted bool) error {
	d := &w.d
	var body strings.Builder
	for i, c := range field {
		if err := pace(b, i); err != nil {
			return err
		}
		if c == d.delimiter || c == d.escapechar || c == d.quotechar || strings.ContainsRune(d.lineterminator, c) {
			escape := false
			if d.quoting == quoteNone || d.quotechar == noChar {
				escape = true
			} else {
				if c == d.quotechar {
					if d.doublequote {
						body.WriteRune(d.quotechar)
					} else {
						escape = true
					}
				} else if c == d.escapechar {
					escape = true
				}
				if !escape {
					quoted = true
				}
			}
			if escape {
				if d.escapechar == noChar {
					return w.m.fail("need to escape, but no escapechar set")
				}
				body.WriteRune(d.escapechar)
			}
		}
		body.WriteRune(c)
	}
	quoted = quoted && d.quotechar != noChar
	if quoted {
		line.WriteRune(d.quotechar)
	}
	line.WriteString(body.String())
	if quoted {
		line.WriteRune(d.quotechar)
	}
	return nil
}

// csvDictReader is a csv.DictReader: each record as a dict keyed by the
// field names (the first record unless given).
type csvDictReader struct {
	r              *csvReader
	fieldnames     starlark.Value // None until read
	namesRead      bool
	restkey        starlark.Value
	restval        starlark.Value
	readingStarted bool
}

var (
	_ pyrt.Stepper      = (*csvDictReader)(nil)
	_ starlark.HasAttrs = (*csvDictReader)(nil)
)

func (r *csvDictReader) String() string        { return "<csv.DictReader object>" }
func (r *csvDictReader) Type() string          { return "DictReader" }
func (r *csvDictReader) Freeze()               {}
func (r *csvDictReader) Truth() starlark.Bool  { return true }
func (r *csvDictReader) Hash() (uint32, error) { return 0, nil }
func (r *csvDictReader) AttrNames() []string {
	return []string{"dialect", "fieldnames", "line_num", "reader", "restkey", "restval"}
}

func (r *csvDictReader) Attr(name string) (starlark.Value, error) {
	switch name {
	case "fieldnames":
		// Reading the names needs a thread only for QUOTE_NONNUMERIC's
		// float(), which works without one.
		if err := r.readNames(nil); err != nil {
			return nil, err
		}
		return r.fieldnames, nil
	case "line_num":
		return starlark.MakeInt(r.r.lineNum), nil
	case "dialect":
		return r.r.d.value(), nil
	case "reader":
		return r.r, nil
	case "restkey":
		return r.restkey, nil
	case "restval":
		return r.restval, nil
	}
	return nil, nil
}

// readNames reads the header record when no field names were given.
func (r *csvDictReader) readNames(thread *starlark.Thread) error {
	if r.namesRead {
		return nil
	}
	r.namesRead = true
	row, ok, err := r.r.Step(thread)
	if err != nil {
		return err
	}
	if ok {
		r.fieldnames = row
	}
	return nil
}

func (r *csvDictReader) Iterate() starlark.Iterator { return &stepIter{s: r, thread: r.r.thread} }

func (r *csvDictReader) Step(thread *starlark.Thread) (starlark.Value, bool, error) {
	if thread == nil {
		thread = r.r.thread
	}
	if r.r.lineNum == 0 {
		if err := r.readNames(thread); err != nil {
			return nil, false, err
		}
	}
	var row *starlark.List
	for {
		v, ok, err := r.r.Step(thread)
		if err != nil || !ok {
			return nil, false, err
		}
		row = v.(*starlark.List)
		if row.Len() > 0 { // blank lines are skipped
			break
		}
	}
	var names []starlark.Value
	if r.fieldnames != starlark.None {
		var err error
		if names, err = pyrt.Collect(thread, r.fieldnames); err != nil {
			return nil, false, err
		}
	}
	d := starlark.NewDict(len(names))
	n := min(len(names), row.Len())
	for i := 0; i < n; i++ {
		if err := d.SetKey(names[i], row.Index(i)); err != nil {
			return nil, false, pyrt.Classify(err)
		}
	}
	if len(names) < row.Len() {
		rest := make([]starlark.Value, 0, row.Len()-len(names))
		for i := len(names); i < row.Len(); i++ {
			rest = append(rest, row.Index(i))
		}
		if err := d.SetKey(r.restkey, starlark.NewList(rest)); err != nil {
			return nil, false, pyrt.Classify(err)
		}
	} else {
		for _, k := range names[n:] {
			if err := d.SetKey(k, r.restval); err != nil {
				return nil, false, pyrt.Classify(err)
			}
		}
	}
	return d, true, nil
}

func csvDictReaderNew(m *csvModule, thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	args, dialectName, kwargs, err := splitDialectArgs(name, args, kwargs, 4)
	if err != nil {
		return nil, err
	}
	d, rest, err := m.newDialect(thread, dialectName, kwargs)
	if err != nil {
		return nil, err
	}
	rest, bad := csvOwnKeywords(rest, "f", "fieldnames", "restkey", "restval")
	var f starlark.Value
	var fieldnames, restkey, restval starlark.Value = starlark.None, starlark.None, starlark.None
	if err := unpackWith(argStyle{name: "DictReader.__init__", self: true}, args, rest, "f", &f, "fieldnames?", &fieldnames, "restkey?", &restkey, "restval?", &restval); err != nil {
		return nil, err
	}
	if bad != nil {
		return nil, bad
	}
	r, err := m.newReader(thread, f, d)
	if err != nil {
		return nil, err
	}
	return &csvDictReader{r: r, fieldnames: fieldnames, namesRead: fieldnames != starlark.None, restkey: restkey, restval: restval}, nil
}

// csvDictWriter is a csv.DictWriter.
type csvDictWriter struct {
	w          *csvWriter
	fieldnames starlark.Value
	restval    starlark.Value
	raise      bool
}

var _ starlark.HasAttrs = (*csvDictWriter)(nil)

func (w *csvDictWriter) String() string        { return "<csv.DictWriter object>" }
func (w *csvDictWriter) Type() string          { return "DictWriter" }
func (w *csvDictWriter) Freeze()               {}
func (w *csvDictWriter) Truth() starlark.Bool  { return true }
func (w *csvDictWriter) Hash() (uint32, error) { return 0, nil }
func (w *csvDictWriter) AttrNames() []string {
	return []string{"fieldnames", "restval", "writeheader", "writer", "writerow", "writerows"}
}

func (w *csvDictWriter) Attr(name string) (starlark.Value, error) {
	method := func(fn func(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error), arity int) starlark.Value {
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(kwargs) > 0 || len(args) != arity {
				return nil, pyrt.Errorf("TypeError", "DictWriter.%s() takes %d positional arguments but %d were given", name, arity+1, len(args)+1)
			}
			return fn(thread, args)
		}).BindReceiver(w)
	}
	switch name {
	case "fieldnames":
		return w.fieldnames, nil
	case "restval":
		return w.restval, nil
	case "writer":
		return w.w, nil
	case "writeheader":
		return method(func(thread *starlark.Thread, _ starlark.Tuple) (starlark.Value, error) {
			return w.w.writerow(thread, w.fieldnames)
		}, 0), nil
	case "writerow":
		return method(func(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
			return w.writerow(thread, args[0])
		}, 1), nil
	case "writerows":
		return method(func(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
			return starlark.None, pyrt.ForEach(thread, args[0], func(row starlark.Value) (bool, error) {
				_, err := w.writerow(thread, row)
				return false, err
			})
		}, 1), nil
	}
	return nil, nil
}

func (w *csvDictWriter) writerow(thread *starlark.Thread, rowdict starlark.Value) (starlark.Value, error) {
	d, ok := rowdict.(starlark.IterableMapping)
	if !ok {
		return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'keys'", pyrt.TypeName(rowdict))
	}
	names, err := pyrt.Collect(thread, w.fieldnames)
	if err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	if w.raise {
		var wrong []string
		for _, item := range d.Items() {
			found := false
			for _, n := range names {
				if err := b.Charge(1); err != nil {
					return nil, err
				}
				if eq, err := starlark.Equal(item[0], n); err == nil && eq {
					found = true
					break
				}
			}
			if !found {
				r, err := interp.Repr(b, item[0])
				if err != nil {
					return nil, err
				}
				wrong = append(wrong, r)
			}
		}
		if len(wrong) > 0 {
			// CPython lists them from a set, in an order that changes
			// from run to run; here they come in the dict's order.
			return nil, pyrt.Errorf("ValueError", "dict contains fields not in fieldnames: %s", strings.Join(wrong, ", "))
		}
	}
	row := make(starlark.Tuple, len(names))
	for i, n := range names {
		v, found, err := d.Get(n)
		if err != nil {
			return nil, pyrt.Classify(err)
		}
		if !found {
			v = w.restval
		}
		row[i] = v
	}
	return w.w.writerow(thread, row)
}

func csvDictWriterNew(m *csvModule, thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	args, dialectName, kwargs, err := splitDialectArgs(name, args, kwargs, 4)
	if err != nil {
		return nil, err
	}
	d, rest, err := m.newDialect(thread, dialectName, kwargs)
	if err != nil {
		return nil, err
	}
	var f, fieldnames starlark.Value
	var restval starlark.Value = starlark.String("")
	extrasaction := "raise"
	rest, bad := csvOwnKeywords(rest, "f", "fieldnames", "restval", "extrasaction")
	if err := unpackWith(argStyle{name: "DictWriter.__init__", self: true}, args, rest, "f", &f, "fieldnames", &fieldnames, "restval?", &restval, "extrasaction?", &extrasaction); err != nil {
		return nil, err
	}
	if bad != nil {
		return nil, bad
	}
	action := strings.ToLower(extrasaction)
	if action != "raise" && action != "ignore" {
		return nil, pyrt.Errorf("ValueError", "extrasaction (%s) must be 'raise' or 'ignore'", extrasaction)
	}
	w, err := m.newWriter(f, d)
	if err != nil {
		return nil, err
	}
	if _, err := pyrt.Iterate(thread, fieldnames); err != nil {
		return nil, err
	}
	return &csvDictWriter{w: w, fieldnames: fieldnames, restval: restval, raise: action == "raise"}, nil
}

// stepIter walks a Stepper for the code that iterates with
// go.starlark.net's iterators, which cannot fail: an error ends the run
// with its message (the Python front end's own loops use Step and keep
// the exception catchable).
type stepIter struct {
	s      pyrt.Stepper
	thread *starlark.Thread
}

func (it *stepIter) Next(p *starlark.Value) bool {
	x, ok, err := it.s.Step(it.thread)
	if err != nil {
		if !isBudget(err) {
			it.thread.Cancel(err.Error())
		}
		return false
	}
	if ok {
		*p = x
	}
	return ok
}

func (it *stepIter) Done() {}
