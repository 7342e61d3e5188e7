package stdlib

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/objects"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// JSON is the json module: Python's dumps and loads, and Starlark's
// encode, encode_indent, decode and indent, so that programs written for
// either keep working. Both directions walk values under the run's
// budget: nesting is bounded by interp.MaxDepth (the program gets an
// error, never a Go stack overflow), every element is charged, and the
// text never grows past the memory budget.
func JSON() *starlarkstruct.Module {
	return &starlarkstruct.Module{
		Name: "json",
		Members: starlark.StringDict{
			"dumps":         interp.NewBuiltin("json.dumps", jsonDumps),
			"loads":         interp.NewBuiltin("json.loads", jsonLoads),
			"dump":          interp.NewBuiltin("json.dump", jsonDump),
			"load":          interp.NewBuiltin("json.load", jsonLoad),
			"encode":        interp.NewBuiltin("json.encode", jsonEncode),
			"encode_indent": interp.NewBuiltin("json.encode_indent", jsonEncodeIndent),
			"decode":        interp.NewBuiltin("json.decode", jsonDecode),
			"indent":        interp.NewBuiltin("json.indent", jsonIndent),
			// What json.loads raises on a malformed document, a ValueError.
			"JSONDecodeError": pyrt.BuiltinClass("JSONDecodeError"),
			"JSONDecoder":     decoderClass,
			"JSONEncoder":     encoderClass,
			// The submodules where CPython defines them, for
			// `except json.decoder.JSONDecodeError` and
			// `from json.decoder import JSONDecodeError`.
			"decoder": &starlarkstruct.Module{Name: "json.decoder", Members: starlark.StringDict{
				"JSONDecodeError": pyrt.BuiltinClass("JSONDecodeError"),
				"JSONDecoder":     decoderClass,
			}},
			"encoder": &starlarkstruct.Module{Name: "json.encoder", Members: starlark.StringDict{
				"JSONEncoder": encoderClass,
			}},
		},
	}
}

// encoder writes one value as JSON. The options select Python's dumps or
// Starlark's encode.
type encoder struct {
	b           *interp.Budget
	w           textBuf
	python      bool   // dumps: keys of any scalar type, insertion order, NaN allowed
	skipKeys    bool   // dumps(skipkeys=True): leave out keys of other types
	ensureASCII bool   // \uXXXX for every character outside ASCII
	sortKeys    bool   // object keys sorted
	allowNaN    bool   // NaN, Infinity, -Infinity as JavaScript writes them
	indent      string // "" (and hasIndent false): one line
	spaces      int    // indent=n: n spaces, written from indent, a block of them made at the first line break
	hasIndent   bool
	prefix      string // before every line after the first (encode_indent)
	itemSep     string
	keySep      string
	detours     int               // levels of depth that stand in for another value (detour), not indented
	dflt        starlark.Callable // dumps(default=): called for what has no JSON form
	thread      *starlark.Thread
	path        []starlark.Value // containers being written, for cycles
}

func (e *encoder) write(s string) error { return e.w.WriteString(s) }

func (e *encoder) newline(depth int) error {
	if !e.hasIndent {
		return nil
	}
	n := depth - e.detours
	if err := e.b.Fits(int64(e.w.Len()) + 1 + int64(len(e.prefix)) + e.indentLen()*int64(n)); err != nil {
		return err // a long indent, deep: the text would pass the budget
	}
	if e.spaces > 0 && e.indent == "" {
		e.indent = strings.Repeat(" ", min(e.spaces, 1<<16))
	}
	if err := e.write("\n"); err != nil {
		return err
	}
	if err := e.write(e.prefix); err != nil {
		return err
	}
	for range n {
		if e.spaces == 0 {
			if err := e.write(e.indent); err != nil {
				return err
			}
			continue
		}
		// indent=n: n spaces, written from a block of at most 64 KB.
		for left := e.spaces; left > 0; left -= len(e.indent) {
			if err := e.write(e.indent[:min(left, len(e.indent))]); err != nil {
				return err
			}
		}
	}
	return nil
}

// indentLen is the length of one level of indentation.
func (e *encoder) indentLen() int64 {
	if e.spaces > 0 {
		return int64(e.spaces)
	}
	return int64(len(e.indent))
}

// fitsLines refuses a container of n elements at depth whose indented
// text alone would pass the memory budget, before any of it is written:
// each element takes at least a separator and a line of depth+1 indents
// (indent=10**8 with a list of a million lists is a hundred terabytes,
// refused at once, not after the first lines).
func (e *encoder) fitsLines(n, depth int) error {
	if !e.hasIndent || n == 0 {
		return nil
	}
	per := int64(len(e.itemSep)) + 1 + int64(len(e.prefix)) + e.indentLen()*int64(depth+1-e.detours)
	total := int64(e.w.Len())
	if int64(n) > (math.MaxInt64-total)/per {
		total = math.MaxInt64
	} else {
		total += int64(n) * per
	}
	return e.b.Fits(total)
}

func (e *encoder) value(v starlark.Value, depth int) error {
	if depth > interp.MaxDepth {
		return fmt.Errorf("%w while encoding JSON", interp.ErrTooDeep)
	}
	switch x := v.(type) {
	case starlark.NoneType:
		return e.write("null")
	case starlark.Bool:
		if x {
			return e.write("true")
		}
		return e.write("false")
	case starlark.Int:
		if err := e.b.CheckInt(x); err != nil {
			return err
		}
		return e.write(x.String())
	case starlark.Float:
		return e.float(float64(x))
	case starlark.String:
		return e.str(string(x))
	case *interp.Unicode:
		return e.str(x.Text())
	case *starlark.Dict:
		return e.object(x, x.Items(), depth)
	case *starlark.List, starlark.Tuple:
		return e.array(x, depth)
	case *ntValue:
		return e.array(x.vals, depth) // a tuple to json, an object as a result
	case *structTime, *urlResult:
		if e.python {
			return e.array(x, depth) // tuples to CPython's json
		}
	case *collDict:
		return e.detour(x.d, depth)
	case *objects.Instance:
		// An instance of a subclass of int, str, list or dict (an
		// IntEnum or StrEnum member) is written as its builtin value,
		// as CPython's encoder does.
		if b := x.Builtin(); b != nil && x.Exception() == nil {
			return e.detour(b, depth)
		}
	case *deque:
		if !e.python {
			return e.array(x, depth)
		}
	case *starlarkstruct.Struct:
		names := x.AttrNames()
		items := make([]starlark.Tuple, 0, len(names))
		for _, n := range names {
			f, err := x.Attr(n)
			if err != nil {
				return err
			}
			items = append(items, starlark.Tuple{starlark.String(n), f})
		}
		return e.object(x, items, depth)
	case interp.GoValuer:
		if _, ok := x.(jsonless); ok && e.python {
			break // as CPython: default= is asked, or it is a TypeError
		}
		if e.python && pyrt.TypeName(v) == "frozenset" {
			break
		}
		g, err := x.GoValue()
		if err != nil {
			return err
		}
		sv, err := interp.FromGo(g)
		if err != nil {
			return err
		}
		if sv != v {
			return e.detour(sv, depth)
		}
	}
	if e.dflt != nil {
		// The value default= is asked about is being written until what
		// it returns is: default returning it (or a value holding it)
		// again is CPython's circular reference.
		marked := reflect.TypeOf(v).Kind() == reflect.Pointer
		if marked {
			for _, p := range e.path {
				if p == v {
					return pyrt.Errorf("ValueError", "Circular reference detected")
				}
			}
			e.path = append(e.path, v)
			defer e.leave()
		}
		r, err := starlark.Call(e.thread, e.dflt, starlark.Tuple{v}, nil)
		if err != nil {
			return err
		}
		return e.detour(r, depth)
	}
	if e.python {
		name := className(v)
		name = name[strings.LastIndexByte(name, '.')+1:] // type(o).__name__: Decimal, not decimal.Decimal
		return pyrt.Errorf("TypeError", "Object of type %s is not JSON serializable", name)
	}
	return fmt.Errorf("cannot encode %s as JSON", v.Type())
}

// detour encodes v in place of the value at depth (a Counter's dict,
// what default= returned): one level deeper, so that a value that leads
// back to itself meets the depth limit, but indented as the value it
// stands for.
func (e *encoder) detour(v starlark.Value, depth int) error {
	e.detours++
	err := e.value(v, depth+1)
	e.detours--
	return err
}

func (e *encoder) float(f float64) error {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		if !e.allowNaN {
			if e.python {
				return pyrt.Errorf("ValueError", "Out of range float values are not JSON compliant")
			}
			return fmt.Errorf("cannot encode non-finite float %v", starlark.Float(f))
		}
		switch {
		case math.IsNaN(f):
			return e.write("NaN")
		case f > 0:
			return e.write("Infinity")
		}
		return e.write("-Infinity")
	}
	if e.python {
		return e.write(interp.FloatRepr(f))
	}
	return e.write(starlark.Float(f).String())
}

func (e *encoder) str(s string) error {
	var sb strings.Builder
	sb.Grow(len(s) + 2)
	sb.WriteByte('"')
	for i, r := range s {
		if err := pace(e.b, i); err != nil {
			return err
		}
		switch {
		case r == '"':
			sb.WriteString(`\"`)
		case r == '\\':
			sb.WriteString(`\\`)
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\r':
			sb.WriteString(`\r`)
		case r == '\t':
			sb.WriteString(`\t`)
		case r == '\b':
			sb.WriteString(`\b`)
		case r == '\f':
			sb.WriteString(`\f`)
		case r < 0x20 || r == 0x7f && e.ensureASCII:
			fmt.Fprintf(&sb, `\u%04x`, r)
		case r >= 0x80 && e.ensureASCII:
			if r > 0xffff {
				hi, lo := utf16.EncodeRune(r)
				fmt.Fprintf(&sb, `\u%04x\u%04x`, hi, lo)
			} else {
				fmt.Fprintf(&sb, `\u%04x`, r)
			}
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteByte('"')
	return e.write(sb.String())
}

// enter notes a container being written; a container inside itself is
// an error. Only lists and dicts can hold themselves; tuples and structs
// are made from values that existed before them.
func (e *encoder) enter(x starlark.Value) error {
	switch x.(type) {
	case *starlark.List, *starlark.Dict:
	default:
		e.path = append(e.path, nil)
		return nil
	}
	for _, p := range e.path {
		if p == x {
			if e.python {
				return pyrt.Errorf("ValueError", "Circular reference detected")
			}
			return fmt.Errorf("cycle in JSON structure")
		}
	}
	e.path = append(e.path, x)
	return e.b.Charge(uint64(len(e.path)) / 32)
}

func (e *encoder) leave() { e.path = e.path[:len(e.path)-1] }

func (e *encoder) object(x starlark.Value, items []starlark.Tuple, depth int) error {
	if err := e.enter(x); err != nil {
		return err
	}
	defer e.leave()
	keys := make([]string, 0, len(items))
	kept := items[:0:0]
	for _, kv := range items {
		k, err := e.key(kv[0])
		if err != nil {
			var ex *pyrt.Exception
			if e.skipKeys && errors.As(err, &ex) {
				continue // skipkeys=True: a key of another type is left out
			}
			return err
		}
		keys = append(keys, k)
		kept = append(kept, kv)
	}
	items = kept
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	if e.sortKeys && e.python {
		// CPython sorts the keys themselves, before they become strings:
		// 2 before 10, and an int beside a str is a TypeError.
		var cmpErr error
		less := func(x, y starlark.Value) bool {
			if cmpErr != nil {
				return false
			}
			lt, err := pyrt.Less(e.b, x, y)
			if err != nil {
				cmpErr = err
			}
			return lt
		}
		slices.SortStableFunc(order, func(i, j int) int {
			switch {
			case less(items[i][0], items[j][0]):
				return -1
			case less(items[j][0], items[i][0]):
				return 1
			}
			return 0
		})
		if cmpErr != nil {
			return cmpErr
		}
	} else if e.sortKeys {
		slices.SortStableFunc(order, func(i, j int) int { return strings.Compare(keys[i], keys[j]) })
	}
	if err := e.fitsLines(len(items), depth); err != nil {
		return err
	}
	if err := e.write("{"); err != nil {
		return err
	}
	for n, i := range order {
		if n > 0 {
			if err := e.write(e.itemSep); err != nil {
				return err
			}
		}
		if err := e.newline(depth + 1); err != nil {
			return err
		}
		if err := e.str(keys[i]); err != nil {
			return err
		}
		if err := e.write(e.keySep); err != nil {
			return err
		}
		if err := e.value(items[i][1], depth+1); err != nil {
			return err
		}
	}
	if len(items) > 0 {
		if err := e.newline(depth); err != nil {
			return err
		}
	}
	return e.write("}")
}

// key is the text of an object key: a string, or for dumps also a number,
// bool or None, written as Python writes them.
func (e *encoder) key(k starlark.Value) (string, error) {
	switch k := k.(type) {
	case starlark.String:
		return string(k), nil
	case *interp.Unicode:
		return k.Text(), nil
	case starlark.Int:
		if e.python {
			return k.String(), nil
		}
	case starlark.Float:
		if e.python {
			switch f := float64(k); {
			case math.IsNaN(f):
				return "NaN", nil
			case math.IsInf(f, 1):
				return "Infinity", nil
			case math.IsInf(f, -1):
				return "-Infinity", nil
			}
			return interp.FloatRepr(float64(k)), nil
		}
	case starlark.Bool:
		if e.python {
			if k {
				return "true", nil
			}
			return "false", nil
		}
	case starlark.NoneType:
		if e.python {
			return "null", nil
		}
	}
	if e.python {
		return "", pyrt.Errorf("TypeError", "keys must be str, int, float, bool or None, not %s", k.Type())
	}
	return "", fmt.Errorf("dict has %s key, want string", k.Type())
}

func (e *encoder) array(x starlark.Value, depth int) error {
	seq := x.(starlark.Indexable)
	if err := e.enter(x); err != nil {
		return err
	}
	defer e.leave()
	if err := e.fitsLines(seq.Len(), depth); err != nil {
		return err
	}
	if err := e.write("["); err != nil {
		return err
	}
	for i := 0; i < seq.Len(); i++ {
		if i > 0 {
			if err := e.write(e.itemSep); err != nil {
				return err
			}
		}
		if err := e.newline(depth + 1); err != nil {
			return err
		}
		if err := e.value(seq.Index(i), depth+1); err != nil {
			return err
		}
	}
	if seq.Len() > 0 {
		if err := e.newline(depth); err != nil {
			return err
		}
	}
	return e.write("]")
}

// jsonDumps is json.dumps(obj, *, skipkeys, ensure_ascii=True,
// check_circular, allow_nan=True, cls, indent=None, separators=None,
// default=None, sort_keys=False).
func jsonDumps(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var obj, indent, separators, dflt starlark.Value = nil, starlark.None, starlark.None, starlark.None
	var skipkeys, checkCircular, cls, asciiV, nanV, sortV starlark.Value
	st := argStyle{name: "dumps", maxPos: 1, badKeyword: "JSONEncoder.__init__"}
	if b.Name() != "json.dumps" {
		st = argStyle{name: b.Name()}
	}
	if err := unpackWith(st, args, kwargs, "obj", &obj, "skipkeys?", &skipkeys, "ensure_ascii?", &asciiV,
		"check_circular?", &checkCircular, "allow_nan?", &nanV, "cls?", &cls, "indent?", &indent,
		"separators?", &separators, "default?", &dflt, "sort_keys?", &sortV); err != nil {
		return nil, err
	}
	// The flags are taken for their truth, as CPython takes them.
	ensureASCII, allowNaN, sortKeys := flagArg(asciiV, true), flagArg(nanV, true), flagArg(sortV, false)
	if cls != nil && cls != starlark.None {
		// Encoder classes cannot be defined here: default= does their work.
		return nil, pyrt.Errorf("TypeError", "json.dumps: cls= is not supported: pass default=a function that converts what JSON cannot hold")
	}
	e := &encoder{b: interp.BudgetOf(thread), python: true, ensureASCII: ensureASCII, allowNaN: allowNaN,
		sortKeys: sortKeys, itemSep: ", ", keySep: ": ", thread: thread}
	e.w.b = e.b
	defer e.w.done()
	switch x := indent.(type) {
	case starlark.NoneType:
	case starlark.Int, starlark.Bool:
		// ' ' * indent, as CPython makes it.
		var n int64
		if b, ok := x.(starlark.Bool); ok {
			if b {
				n = 1
			}
		} else if v, ok := x.(starlark.Int).Int64(); ok {
			n = v
		} else if x.(starlark.Int).Sign() > 0 {
			return nil, pyrt.Errorf("OverflowError", "cannot fit 'int' into an index-sized integer")
		}
		if err := e.b.Fits(min(n, 1<<40)); err != nil {
			return nil, err
		}
		if n > 1<<30 {
			return nil, pyrt.Errorf("MemoryError", "")
		}
		// The spaces are written from a block made when a line needs
		// them: a text that cannot fit is refused before (fitsLines).
		e.hasIndent, e.spaces = true, int(max(0, n))
		e.itemSep = ","
	case starlark.String:
		e.hasIndent, e.indent = true, string(x)
		e.itemSep = ","
	default:
		// ' ' * indent in CPython.
		return nil, pyrt.Errorf("TypeError", "can't multiply sequence by non-int of type '%s'", pyrt.TypeName(indent))
	}
	if separators != starlark.None {
		seq, ok := separators.(starlark.Indexable)
		switch {
		case !ok:
			return nil, pyrt.Errorf("TypeError", "cannot unpack non-iterable %s object", pyrt.TypeName(separators))
		case seq.Len() < 2:
			return nil, pyrt.Errorf("ValueError", "not enough values to unpack (expected 2, got %d)", seq.Len())
		case seq.Len() > 2:
			return nil, pyrt.Errorf("ValueError", "too many values to unpack (expected 2)")
		}
		i, ok1 := interp.AsText(seq.Index(0))
		k, ok2 := interp.AsText(seq.Index(1))
		if !ok1 || !ok2 {
			return nil, pyrt.Errorf("TypeError", "separators must be strings")
		}
		e.itemSep, e.keySep = i, k
	}
	if dflt != starlark.None {
		fn, ok := dflt.(starlark.Callable)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "'%s' object is not callable", dflt.Type())
		}
		e.dflt = fn
	}
	if skipkeys != nil {
		e.skipKeys = bool(skipkeys.Truth())
	}
	if err := e.value(obj, 0); err != nil {
		return nil, err
	}
	return e.w.value()
}

// jsonEncode is Starlark's json.encode(x): compact, keys sorted, strings
// only as keys, no NaN.
func jsonEncode(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	return starlarkEncode(thread, b, x, false, "", "")
}

func jsonEncodeIndent(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	prefix, indent := "", "\t"
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "x", &x, "prefix?", &prefix, "indent?", &indent); err != nil {
		return nil, err
	}
	return starlarkEncode(thread, b, x, true, prefix, indent)
}

func starlarkEncode(thread *starlark.Thread, b *starlark.Builtin, x starlark.Value, indented bool, prefix, indent string) (starlark.Value, error) {
	e := &encoder{b: interp.BudgetOf(thread), sortKeys: true, itemSep: ",", keySep: ":", thread: thread,
		hasIndent: indented, indent: string(indent), prefix: string(prefix)}
	if indented {
		e.keySep = ": "
	}
	e.w.b = e.b
	defer e.w.done()
	if err := e.value(x, 0); err != nil {
		if isBudget(err) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", b.Name(), err)
	}
	return e.w.value()
}

// decoder reads JSON text into Starlark values, iteratively bounded in
// depth, charging every value it makes.
type decoder struct {
	b *interp.Budget
	// open are the arrays and objects being read, outermost first: what
	// they hold is in no variable of the program until loads returns,
	// so the decoder shows them to the memory meter (held).
	open   []openValue
	s      string
	i      int
	python bool // loads: NaN and Infinity accepted, CPython's messages
	hooks  *loadHooks
	lax    bool // strict=False: control characters allowed in strings
}

// loadHooks are json.loads's object_hook, object_pairs_hook, parse_float,
// parse_int and parse_constant, called on thread; nil when not given.
type loadHooks struct {
	thread                              *starlark.Thread
	object, pairs, float, int, constant starlark.Value
}

// call is hook(arg), or (v, false) when the hook is not given.
func (h *loadHooks) call(hook, arg starlark.Value) (starlark.Value, bool, error) {
	if h == nil || hook == nil || hook == starlark.None {
		return nil, false, nil
	}
	r, err := starlark.Call(h.thread, hook, starlark.Tuple{arg}, nil)
	return r, true, err
}

// parsed is v, the value of text, or what hook makes of text.
func (d *decoder) parsed(hook func(*loadHooks) starlark.Value, text string, v starlark.Value) (starlark.Value, error) {
	if d.hooks == nil {
		return v, nil
	}
	r, ok, err := d.hooks.call(hook(d.hooks), interp.MakeString(text))
	if !ok {
		return v, nil
	}
	return r, err
}

// syntaxError is a malformed document: Python's JSONDecodeError text,
// "Expecting value: line 1 column 5 (char 4)".
type syntaxError struct {
	msg string
	pos int
	doc string
}

func (e *syntaxError) Error() string {
	line, col := e.lineCol()
	return fmt.Sprintf("%s: line %d column %d (char %d)", e.msg, line, col, utf8.RuneCountInString(e.doc[:e.pos]))
}

// lineCol is where the error is, as Python counts: lines from 1, the
// column in characters from 1.
func (e *syntaxError) lineCol() (line, col int) {
	line = strings.Count(e.doc[:e.pos], "\n") + 1
	col = utf8.RuneCountInString(e.doc[strings.LastIndex(e.doc[:e.pos], "\n")+1:e.pos]) + 1
	return line, col
}

// openValue is an array being read (its elements so far) or an object's
// dict or pairs.
type openValue struct {
	elems *[]starlark.Value
	v     starlark.Value
}

// held visits the values being read, for the memory meter.
func (d *decoder) held(visit func(starlark.Value)) {
	for _, o := range d.open {
		if o.elems != nil {
			visit(heldTuple(*o.elems))
		} else {
			visit(o.v)
		}
	}
}

// closeTo ends the values opened since there were n.
func (d *decoder) closeTo(n int) {
	clear(d.open[n:])
	d.open = d.open[:n]
}

func (d *decoder) fail(msg string) error { return &syntaxError{msg: msg, pos: d.i, doc: d.s} }

func (d *decoder) space() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *decoder) decode() (starlark.Value, error) {
	defer d.b.Hold(d.held)()
	d.space()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.space()
	if d.i < len(d.s) {
		return nil, d.fail("Extra data")
	}
	return v, nil
}

// value reads one value. A value is far larger than its text ("[]," is
// 3 bytes, an empty list 32 and its slot 16): the meter counts it as it
// is made, in the array or object that holds it.
func (d *decoder) value(depth int) (starlark.Value, error) {
	if depth > interp.MaxDepth {
		return nil, fmt.Errorf("%w while decoding JSON", interp.ErrTooDeep)
	}
	if err := d.b.Charge(1); err != nil {
		return nil, err
	}
	if d.i >= len(d.s) {
		return nil, d.fail("Expecting value")
	}
	switch c := d.s[d.i]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		s, err := d.str()
		if err != nil {
			return nil, err
		}
		return interp.MakeString(s), nil
	case c == '-' || '0' <= c && c <= '9':
		return d.number()
	}
	for _, lit := range []struct {
		text   string
		v      starlark.Value
		python bool
	}{
		{"null", starlark.None, false}, {"true", starlark.True, false}, {"false", starlark.False, false},
		{"NaN", starlark.Float(math.NaN()), true}, {"Infinity", starlark.Float(math.Inf(1)), true},
		{"-Infinity", starlark.Float(math.Inf(-1)), true},
	} {
		if strings.HasPrefix(d.s[d.i:], lit.text) && (d.python || !lit.python) {
			d.i += len(lit.text)
			if lit.python {
				return d.parsed(func(h *loadHooks) starlark.Value { return h.constant }, lit.text, lit.v)
			}
			return lit.v, nil
		}
	}
	return nil, d.fail("Expecting value")
}

func (d *decoder) object(depth int) (starlark.Value, error) {
	d.i++ // {
	dict := starlark.NewDict(0)
	defer d.closeTo(len(d.open))
	d.open = append(d.open, openValue{v: dict})
	// pairs are the members in order, duplicates kept, for
	// object_pairs_hook.
	var pairs *starlark.List
	if d.hooks != nil && d.hooks.pairs != nil && d.hooks.pairs != starlark.None {
		pairs = starlark.NewList(nil)
		d.open = append(d.open, openValue{v: pairs})
	}
	done := func() (starlark.Value, error) {
		if pairs != nil {
			r, _, err := d.hooks.call(d.hooks.pairs, pairs)
			return r, err
		}
		if d.hooks != nil {
			if r, ok, err := d.hooks.call(d.hooks.object, dict); ok {
				return r, err
			}
		}
		return dict, nil
	}
	d.space()
	if d.i < len(d.s) && d.s[d.i] == '}' {
		d.i++
		return done()
	}
	for {
		d.space()
		if d.i >= len(d.s) || d.s[d.i] != '"' {
			return nil, d.fail("Expecting property name enclosed in double quotes")
		}
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		d.space()
		if d.i >= len(d.s) || d.s[d.i] != ':' {
			return nil, d.fail("Expecting ':' delimiter")
		}
		d.i++
		d.space()
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := dict.SetKey(interp.MakeString(k), v); err != nil {
			return nil, err
		}
		if err := fitsTable(d.b, dict.Len()); err != nil {
			return nil, err
		}
		if pairs != nil {
			if err := d.b.Fits(2 * int64(pairs.Len()+1) * slotSize); err != nil {
				return nil, err
			}
			_ = pairs.Append(starlark.Tuple{interp.MakeString(k), v})
		}
		d.space()
		if d.i < len(d.s) && d.s[d.i] == ',' {
			d.i++
			continue
		}
		if d.i < len(d.s) && d.s[d.i] == '}' {
			d.i++
			return done()
		}
		return nil, d.fail("Expecting ',' delimiter")
	}
}

func (d *decoder) array(depth int) (starlark.Value, error) {
	d.i++ // [
	var elems []starlark.Value
	defer d.closeTo(len(d.open))
	d.open = append(d.open, openValue{elems: &elems})
	d.space()
	if d.i < len(d.s) && d.s[d.i] == ']' {
		d.i++
		return starlark.NewList(elems), nil
	}
	for {
		d.space()
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if elems, err = appendValue(d.b, elems, v); err != nil {
			return nil, err
		}
		d.space()
		if d.i < len(d.s) && d.s[d.i] == ',' {
			d.i++
			continue
		}
		if d.i < len(d.s) && d.s[d.i] == ']' {
			d.i++
			return starlark.NewList(elems), nil
		}
		return nil, d.fail("Expecting ',' delimiter")
	}
}

func (d *decoder) str() (string, error) {
	start := d.i
	d.i++ // "
	var sb strings.Builder
	for {
		if d.i >= len(d.s) {
			d.i = start
			return "", d.fail("Unterminated string starting at")
		}
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			if err := d.b.Charge(uint64(sb.Len()) / 64); err != nil {
				return "", err
			}
			return sb.String(), nil
		case c == '\\':
			if d.i+1 >= len(d.s) {
				d.i = start
				return "", d.fail("Unterminated string starting at")
			}
			esc := d.s[d.i+1]
			d.i += 2
			switch esc {
			case '"', '\\', '/':
				sb.WriteByte(esc)
			case 'b':
				sb.WriteByte('\b')
			case 'f':
				sb.WriteByte('\f')
			case 'n':
				sb.WriteByte('\n')
			case 'r':
				sb.WriteByte('\r')
			case 't':
				sb.WriteByte('\t')
			case 'u':
				r, ok := d.hex4()
				if !ok {
					d.i-- // CPython points at the u
					return "", d.fail("Invalid \\uXXXX escape")
				}
				if utf16.IsSurrogate(r) && strings.HasPrefix(d.s[d.i:], `\u`) {
					save := d.i
					d.i += 2
					if r2, ok := d.hex4(); ok {
						if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
							r = pair
						} else {
							d.i = save
						}
					} else {
						d.i = save
					}
				}
				sb.WriteRune(r)
			default:
				d.i -= 2
				return "", d.fail("Invalid \\escape")
			}
		case c < 0x20 && !d.lax:
			return "", d.fail("Invalid control character at")
		default:
			sb.WriteByte(c)
			d.i++
		}
	}
}

func (d *decoder) hex4() (rune, bool) {
	if d.i+4 > len(d.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(d.s[d.i:d.i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	d.i += 4
	return rune(n), true
}

func (d *decoder) number() (starlark.Value, error) {
	start := d.i
	if d.s[d.i] == '-' {
		d.i++
		if d.python && strings.HasPrefix(d.s[d.i:], "Infinity") {
			d.i += len("Infinity")
			return d.parsed(func(h *loadHooks) starlark.Value { return h.constant }, "-Infinity", starlark.Float(math.Inf(-1)))
		}
	}
	digits := d.i
	if d.i < len(d.s) && d.s[d.i] == '0' {
		d.i++ // a leading zero stands alone: "01" is 0, then extra data
	} else {
		for d.i < len(d.s) && '0' <= d.s[d.i] && d.s[d.i] <= '9' {
			d.i++
		}
	}
	if d.i == digits {
		d.i = start
		return nil, d.fail("Expecting value")
	}
	isFloat := false
	if d.i < len(d.s) && d.s[d.i] == '.' {
		j := d.i + 1
		for j < len(d.s) && '0' <= d.s[j] && d.s[j] <= '9' {
			j++
		}
		if j > d.i+1 {
			isFloat, d.i = true, j
		}
	}
	if d.i < len(d.s) && (d.s[d.i] == 'e' || d.s[d.i] == 'E') {
		j := d.i + 1
		if j < len(d.s) && (d.s[j] == '+' || d.s[j] == '-') {
			j++
		}
		k := j
		for k < len(d.s) && '0' <= d.s[k] && d.s[k] <= '9' {
			k++
		}
		if k > j {
			isFloat, d.i = true, k
		}
	}
	text := d.s[start:d.i]
	if isFloat {
		f, _ := strconv.ParseFloat(text, 64) // out of range: ±Inf, as Python
		return d.parsed(func(h *loadHooks) starlark.Value { return h.float }, text, starlark.Float(f))
	}
	if d.hooks != nil && d.hooks.int != nil && d.hooks.int != starlark.None {
		return d.parsed(func(h *loadHooks) starlark.Value { return h.int }, text, nil)
	}
	// CPython 3.11's limit on int–str conversion first (a ValueError a
	// program may catch), then the run's on ints.
	if err := interp.CheckIntText(d.b, d.i-digits); err != nil {
		return nil, err
	}
	if max := d.b.MaxIntDigits(); max > 0 && d.i-digits > max {
		return nil, d.b.IntLimit()
	}
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return starlark.MakeInt64(n), nil
	}
	n, ok := new(big.Int).SetString(text, 10)
	if !ok {
		return nil, d.fail("Expecting value")
	}
	return starlark.MakeBigInt(n), nil
}

// jsonDump is json.dump(obj, fp, **dumps_options): the text dumps makes,
// given to fp.write (an io.StringIO, or anything with a write method).
func jsonDump(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	switch {
	case len(args) < 2:
		missing := "2 required positional arguments: 'obj' and 'fp'"
		if len(args) == 1 {
			missing = "1 required positional argument: 'fp'"
		}
		return nil, pyrt.Errorf("TypeError", "dump() missing %s", missing)
	case len(args) > 2:
		return nil, pyrt.Errorf("TypeError", "dump() takes 2 positional arguments but %d were given", len(args))
	}
	write, err := fileMethod(args[1], "write")
	if err != nil {
		return nil, err
	}
	text, err := jsonDumps(thread, dumpsBuiltin, args[:1], kwargs)
	if err != nil {
		return nil, err
	}
	if _, err := starlark.Call(thread, write, starlark.Tuple{text}, nil); err != nil {
		return nil, err
	}
	return starlark.None, nil
}

// jsonLoad is json.load(fp, **loads_options): loads of what fp.read()
// returns.
func jsonLoad(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	switch {
	case len(args) == 0:
		return nil, pyrt.Errorf("TypeError", "load() missing 1 required positional argument: 'fp'")
	case len(args) > 1:
		return nil, pyrt.Errorf("TypeError", "load() takes 1 positional argument but %d were given", len(args))
	}
	read, err := fileMethod(args[0], "read")
	if err != nil {
		return nil, err
	}
	text, err := starlark.Call(thread, read, nil, nil)
	if err != nil {
		return nil, err
	}
	return loadsWith(thread, starlark.Tuple{text}, kwargs, nil)
}

// dumpsBuiltin stands for json.dumps when json.dump calls it, so that
// its argument errors read as dumps' do in CPython.
var dumpsBuiltin = starlark.NewBuiltin("json.dumps", jsonDumps)

// fileMethod is f's method name, or CPython's AttributeError.
func fileMethod(f starlark.Value, name string) (starlark.Value, error) {
	if h, ok := f.(starlark.HasAttrs); ok {
		if m, err := h.Attr(name); err == nil && m != nil {
			return m, nil
		}
	}
	return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute '%s'", pyrt.TypeName(f), name)
}

// jsonLoads is json.loads(s).
func jsonLoads(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return loadsWith(thread, args, kwargs, nil)
}

// loadsWith is loads, or with raw (the start position) raw_decode.
func loadsWith(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple, raw starlark.Value) (starlark.Value, error) {
	var s starlark.Value
	switch {
	case len(args) == 0:
		return nil, pyrt.Errorf("TypeError", "loads() missing 1 required positional argument: 's'")
	case len(args) > 1:
		return nil, pyrt.Errorf("TypeError", "loads() takes 1 positional argument but %d were given", len(args))
	}
	s = args[0]
	h := &loadHooks{thread: thread}
	strict := true
	for _, kv := range kwargs {
		k, _ := starlark.AsString(kv[0])
		switch k {
		case "object_hook":
			h.object = kv[1]
		case "object_pairs_hook":
			h.pairs = kv[1]
		case "parse_float":
			h.float = kv[1]
		case "parse_int":
			h.int = kv[1]
		case "parse_constant":
			h.constant = kv[1]
		case "strict":
			strict = bool(kv[1].Truth())
		case "cls":
			// cls=None is the default; other decoder classes cannot
			// exist here.
			if kv[1] != starlark.None {
				return nil, pyrt.Errorf("TypeError", "json.loads: %s=%s is not supported: decode, then convert the result", k, kv[1].Type())
			}
		default:
			return nil, pyrt.Errorf("TypeError", "JSONDecoder.__init__() got an unexpected keyword argument '%s'", k)
		}
	}
	text, ok := interp.AsText(s)
	if !ok {
		if bs, ok := interp.AsBytes(s); ok {
			// Bytes are decoded as UTF-8 with its byte order mark, if
			// any, left out (CPython's utf-8-sig).
			text = strings.TrimPrefix(bs, "\ufeff")
		} else {
			return nil, pyrt.Errorf("TypeError", "the JSON object must be str, bytes or bytearray, not %s", pyrt.TypeName(s))
		}
	} else if strings.HasPrefix(text, "\ufeff") {
		return nil, &pyrt.Exception{Class: "JSONDecodeError", Msg: "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)", Module: "json.decoder", Attrs: starlark.StringDict{
			"msg":    interp.MakeString("Unexpected UTF-8 BOM (decode using utf-8-sig)"),
			"doc":    interp.MakeString(text),
			"pos":    starlark.MakeInt(0),
			"lineno": starlark.MakeInt(1),
			"colno":  starlark.MakeInt(1),
		}}
	}
	d := &decoder{b: interp.BudgetOf(thread), s: text, python: true, lax: !strict}
	if h.object != nil || h.pairs != nil || h.float != nil || h.int != nil || h.constant != nil {
		d.hooks = h
	}
	if raw != nil {
		return d.rawDecode(raw)
	}
	v, err := d.decode()
	return v, decodeError(err)
}

// decodeError turns a malformed document into CPython's JSONDecodeError;
// other errors are returned as they are.
func decodeError(err error) error {
	se, ok := err.(*syntaxError)
	if !ok {
		return err
	}
	line, col := se.lineCol()
	// Module: uncaught, it reads "json.decoder.JSONDecodeError: …", as
	// CPython prints it.
	return &pyrt.Exception{Class: "JSONDecodeError", Msg: se.Error(), Module: "json.decoder", Attrs: starlark.StringDict{
		"msg":    interp.MakeString(se.msg),
		"doc":    interp.MakeString(se.doc),
		"pos":    starlark.MakeInt(utf8.RuneCountInString(se.doc[:se.pos])),
		"lineno": starlark.MakeInt(line),
		"colno":  starlark.MakeInt(col),
	}}
}

// rawDecode is JSONDecoder.raw_decode(s, idx=0): the value that starts at
// character idx (no white space skipped, as CPython's), and the
// character position where it ends.
func (d *decoder) rawDecode(idx starlark.Value) (starlark.Value, error) {
	n, ok := idx.(starlark.Int)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(idx))
	}
	start, ok := n.Int64()
	if !ok || start < 0 {
		return nil, pyrt.Errorf("ValueError", "idx cannot be negative")
	}
	// Character start to a byte offset.
	d.i = len(d.s)
	for b, c := 0, int64(0); b < len(d.s); c++ {
		if c == start {
			d.i = b
			break
		}
		_, w := utf8.DecodeRuneInString(d.s[b:])
		b += w
	}
	defer d.b.Hold(d.held)()
	v, err := d.value(0)
	if err != nil {
		if se, ok := err.(*syntaxError); ok && se.msg == "Expecting value" && d.i >= len(d.s) {
			se.pos = len(d.s)
		}
		return nil, decodeError(err)
	}
	return starlark.Tuple{v, starlark.MakeInt(utf8.RuneCountInString(d.s[:d.i]))}, nil
}

// jsonDecode is Starlark's json.decode(x, default=…): on a malformed
// document it returns default when one is given.
func jsonDecode(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s interp.Text
	var dflt starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "x", &s, "default?", &dflt); err != nil {
		return nil, err
	}
	d := &decoder{b: interp.BudgetOf(thread), s: string(s)}
	v, err := d.decode()
	if se, ok := err.(*syntaxError); ok {
		if dflt != nil {
			return dflt, nil
		}
		return nil, fmt.Errorf("%s: %s", b.Name(), se.Error())
	}
	return v, err
}

// jsonIndent is json.indent(str, *, prefix="", indent="\t"): the document
// re-encoded with indentation.
func jsonIndent(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s interp.Text
	prefix, indent := interp.Text(""), interp.Text("\t")
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "str", &s, "prefix?", &prefix, "indent?", &indent); err != nil {
		return nil, err
	}
	d := &decoder{b: interp.BudgetOf(thread), s: string(s)}
	v, err := d.decode()
	if err != nil {
		if se, ok := err.(*syntaxError); ok {
			return nil, fmt.Errorf("%s: %s", b.Name(), se.Error())
		}
		return nil, err
	}
	// Key order as written: decode keeps it; do not sort.
	e := &encoder{b: d.b, itemSep: ",", keySep: ": ", thread: thread, hasIndent: true, indent: string(indent), prefix: string(prefix)}
	e.w.b = e.b
	defer e.w.done()
	if err := e.value(v, 0); err != nil {
		return nil, err
	}
	return e.w.value()
}

// className is type(v).__name__, as CPython's messages that use the
// class's own name write it (Match, not re.Match).
func className(v starlark.Value) string {
	if pc, ok := v.(interface{ PyClass() starlark.Value }); ok {
		if c, ok := pc.PyClass().(interface{ Name() string }); ok {
			return c.Name()
		}
	}
	return pyrt.TypeName(v)
}
