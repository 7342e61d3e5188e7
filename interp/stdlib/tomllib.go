package stdlib

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// tomllib is CPython 3.11's module: load and loads with parse_float=,
// giving dicts in document order, lists, str, int (any size), float,
// bool and the datetime module's values (offset date-times with a
// datetime.timezone, local ones naive). go-toml/v2 checks the document
// (its decoder knows TOML's rules on redefined tables and keys); its
// syntax tree, which keeps each value's kind and text, gives the values
// (docs/design.md says why this library).

var tomlDecodeError = pyrt.NewModuleSubclass("tomllib.TOMLDecodeError", pyrt.BuiltinClass("ValueError"))

// tomlMaxDepth is about where CPython's recursive parser meets its
// recursion limit on nested arrays and inline tables.
const tomlMaxDepth = 490

// TOMLLib is the tomllib module.
func TOMLLib() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "tomllib", Members: starlark.StringDict{
		"load":            interp.NewBuiltin("load", tomlLoad),
		"loads":           interp.NewBuiltin("loads", tomlLoads),
		"TOMLDecodeError": tomlDecodeError,
	}}
}

var tomlParams = webParams{names: []string{"s", "parse_float"}, required: 1, maxPos: 1}

func tomlLoads(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s, pf starlark.Value
	p := tomlParams
	p.fn = "loads"
	if err := p.unpack(args, kwargs, &s, &pf); err != nil {
		return nil, err
	}
	src, ok := interp.AsText(s)
	if !ok {
		if _, isBytes := interp.AsBytes(s); isBytes {
			return nil, pyrt.Errorf("TypeError", "a bytes-like object is required, not 'str'")
		}
		return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'replace'", pyrt.TypeName(s))
	}
	return tomlParse(thread, src, pf)
}

func tomlLoad(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fp, pf starlark.Value
	p := tomlParams
	p.fn, p.names = "load", []string{"fp", "parse_float"}
	if err := p.unpack(args, kwargs, &fp, &pf); err != nil {
		return nil, err
	}
	read, err := pyrt.GetAttr(thread, fp, "read")
	if err != nil {
		return nil, err
	}
	data, err := starlark.Call(thread, read, nil, nil)
	if err != nil {
		return nil, err
	}
	_, ok := interp.AsBytes(data)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "File must be opened in binary mode, e.g. use `open('foo.toml', 'rb')`")
	}
	dec, err := starlark.Call(thread, mustAttr(thread, data, "decode"), nil, nil)
	if err != nil {
		return nil, err
	}
	src, _ := interp.AsText(dec)
	return tomlParse(thread, src, pf)
}

func mustAttr(thread *starlark.Thread, v starlark.Value, name string) starlark.Value {
	a, err := pyrt.GetAttr(thread, v, name)
	if err != nil || a == nil {
		return interp.NewBuiltin(name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute '%s'", pyrt.TypeName(v), name)
		})
	}
	return a
}

// tomlParse is loads(src, parse_float=pf). go-toml's parser reads the
// syntax one expression at a time (the budget is asked between them);
// TOML's rules on what may be defined where (a table or key defined
// twice, a dotted key or header reopening a table it may not) are kept
// here as the tree is built: go-toml's own decoder checks them too, but
// its cost grows with the square of a table's keys (100,000 keys: 20 s
// in one call no deadline can stop).
func tomlParse(thread *starlark.Thread, src string, pf starlark.Value) (starlark.Value, error) {
	b := interp.BudgetOf(thread)
	if err := b.Alloc(int64(len(src))); err != nil {
		return nil, err
	}
	// The parser's tree takes a node of about 70 bytes for each value and
	// key, and the values built as much again: charged before it begins.
	cost, err := tomlCost(b, src)
	if err != nil {
		return nil, err
	}
	if err := b.Alloc(cost); err != nil {
		return nil, err
	}
	src = strings.ReplaceAll(src, "\r\n", "\n")
	data := []byte(src)
	if pf == starlark.None {
		pf = nil
	}
	tb := &tomlBuilder{thread: thread, b: b, parseFloat: pf, data: data, meta: map[starlark.Value]tomlFlags{}}
	root := starlark.NewDict(8)
	tb.meta[root] = tomlExplicit
	cur := root
	tb.p.Reset(data)
	for tb.p.NextExpression() {
		e := tb.p.Expression()
		if err := b.Charge(1); err != nil {
			return nil, err
		}
		var err error
		switch e.Kind {
		case unstable.Table:
			cur, err = tb.table(root, e, false)
		case unstable.ArrayTable:
			cur, err = tb.table(root, e, true)
		case unstable.KeyValue:
			err = tb.keyValue(cur, e, 0)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := tb.p.Error(); err != nil {
		return nil, tb.syntaxError(err)
	}
	return root, nil
}

// tomlCost bounds the memory the parser's tree and the values of src
// take (strings.Count is vectorized: 200 MB are counted in milliseconds).
func tomlCost(b *interp.Budget, src string) (int64, error) {
	// One pass in blocks, under the budget: a document of hundreds of
	// megabytes is counted within its deadline, and one whose cost alone
	// passes the memory budget stops as soon as that is known.
	const block = 1 << 20
	n := int64(1)
	for i := 0; i < len(src); i += block {
		part := src[i:min(i+block, len(src))]
		for j := 0; j < len(part); j++ {
			switch part[j] {
			case ',', '=', '\n', '[', '{', '.':
				n++
			}
		}
		if err := b.Charge(uint64(len(part)) / 64); err != nil {
			return 0, err
		}
		if err := b.Fits(int64(len(src)) + n*160); err != nil {
			return 0, err
		}
	}
	return int64(len(src)) + n*160, nil
}

// syntaxError is TOMLDecodeError for the parser's error, with its place
// as CPython gives it: "… (at line 3, column 7)".
func (tb *tomlBuilder) syntaxError(err error) error {
	var pe *unstable.ParserError
	if errors.As(err, &pe) {
		if strings.Contains(pe.Message, "nested more than the maximum") {
			// CPython's recursive parser gives up far sooner.
			return pyrt.Errorf("RecursionError", "maximum recursion depth exceeded")
		}
		off := len(tb.data)
		if pe.Highlight != nil && cap(pe.Highlight) <= cap(tb.data) {
			off = cap(tb.data) - cap(pe.Highlight)
		}
		return tb.errorAt(off, pe.Message)
	}
	return tomlDecodeError.Raise(err.Error(), nil)
}

// errorAt is TOMLDecodeError for msg at byte offset off of the document.
func (tb *tomlBuilder) errorAt(off int, msg string) error {
	if off > len(tb.data) {
		off = len(tb.data)
	}
	before := tb.data[:off]
	line := 1 + strings.Count(string(before), "\n")
	col := off + 1
	if i := strings.LastIndexByte(string(before), '\n'); i >= 0 {
		col = len([]rune(string(before[i+1:]))) + 1
	} else {
		col = len([]rune(string(before))) + 1
	}
	return tomlDecodeError.Raise(fmt.Sprintf("%s (at line %d, column %d)", msg, line, col), nil)
}

// errorNode is errorAt the start of node n.
func (tb *tomlBuilder) errorNode(n *unstable.Node, msg string) error {
	return tb.errorAt(int(n.Raw.Offset), msg)
}

func keyParts(it unstable.Iterator) ([]string, *unstable.Node) {
	var out []string
	var first *unstable.Node
	for it.Next() {
		if first == nil {
			first = it.Node()
		}
		out = append(out, string(it.Node().Data))
	}
	return out, first
}

// tomlFlags are what a table or array may still become.
type tomlFlags uint8

const (
	tomlExplicit tomlFlags = 1 << iota // a [header] defined it
	tomlDotted                         // a dotted key made it
	tomlFrozen                         // an inline table or a static array
	tomlAOT                            // an array of tables
)

type tomlBuilder struct {
	thread     *starlark.Thread
	b          *interp.Budget
	parseFloat starlark.Value
	data       []byte
	p          unstable.Parser
	// meta holds the flags of the tables and arrays made, by identity.
	meta map[starlark.Value]tomlFlags
}

func keyRepr(parts []string) string {
	q := make([]string, len(parts))
	for i, p := range parts {
		q[i] = interp.QuoteString(p)
	}
	if len(q) == 1 {
		return "(" + q[0] + ",)"
	}
	return "(" + strings.Join(q, ", ") + ")"
}

// header walks a [header]'s path but its last part: missing tables are
// made, an array of tables gives its last table.
func (tb *tomlBuilder) walk(d *starlark.Dict, parts []string, n *unstable.Node) (*starlark.Dict, error) {
	for i, k := range parts {
		key := interp.MakeString(k)
		v, found, _ := d.Get(key)
		if !found {
			nd := starlark.NewDict(4)
			if err := d.SetKey(key, nd); err != nil {
				return nil, err
			}
			d = nd
			continue
		}
		switch x := v.(type) {
		case *starlark.Dict:
			if tb.meta[x]&tomlFrozen != 0 {
				return nil, tb.errorNode(n, "Cannot mutate immutable namespace "+keyRepr(parts[:i+1]))
			}
			d = x
			continue
		case *starlark.List:
			if tb.meta[x]&tomlAOT != 0 && x.Len() > 0 {
				d = x.Index(x.Len() - 1).(*starlark.Dict)
				continue
			}
		}
		return nil, tb.errorNode(n, "Cannot overwrite a value")
	}
	return d, nil
}

// table is the table a [header] or [[header]] makes current.
func (tb *tomlBuilder) table(root *starlark.Dict, e *unstable.Node, array bool) (*starlark.Dict, error) {
	parts, first := keyParts(e.Key())
	if first == nil {
		first = e
	}
	d, err := tb.walk(root, parts[:len(parts)-1], first)
	if err != nil {
		return nil, err
	}
	key := interp.MakeString(parts[len(parts)-1])
	v, found, _ := d.Get(key)
	if array {
		l, ok := v.(*starlark.List)
		switch {
		case !found:
			l = starlark.NewList(nil)
			tb.meta[l] = tomlAOT
			if err := d.SetKey(key, l); err != nil {
				return nil, err
			}
		case !ok || tb.meta[l]&tomlAOT == 0:
			return nil, tb.errorNode(first, "Cannot mutate immutable namespace "+keyRepr(parts))
		}
		nd := starlark.NewDict(4)
		tb.meta[nd] = tomlExplicit
		return nd, l.Append(nd)
	}
	if !found {
		nd := starlark.NewDict(4)
		tb.meta[nd] = tomlExplicit
		return nd, d.SetKey(key, nd)
	}
	x, ok := v.(*starlark.Dict)
	if !ok || tb.meta[x]&(tomlExplicit|tomlDotted|tomlFrozen) != 0 {
		return nil, tb.errorNode(first, "Cannot declare "+keyRepr(parts)+" twice")
	}
	tb.meta[x] |= tomlExplicit
	return x, nil
}

// keyValue sets a (dotted) key of d to the node's value.
func (tb *tomlBuilder) keyValue(d *starlark.Dict, e *unstable.Node, depth int) error {
	parts, first := keyParts(e.Key())
	if first == nil {
		first = e
	}
	for i, k := range parts[:len(parts)-1] {
		key := interp.MakeString(k)
		v, found, _ := d.Get(key)
		if !found {
			nd := starlark.NewDict(4)
			tb.meta[nd] = tomlDotted
			if err := d.SetKey(key, nd); err != nil {
				return err
			}
			d = nd
			continue
		}
		x, ok := v.(*starlark.Dict)
		if !ok {
			return tb.errorNode(first, "Cannot overwrite a value")
		}
		switch f := tb.meta[x]; {
		case f&tomlFrozen != 0:
			return tb.errorNode(first, "Cannot mutate immutable namespace "+keyRepr(parts[:i+1]))
		case f&tomlExplicit != 0:
			// A table a header defined takes no dotted keys from another.
			return tb.errorNode(first, "Cannot redefine namespace "+keyRepr(parts[:i+1]))
		}
		// A header may no longer define it (CPython's pending flag).
		tb.meta[x] |= tomlDotted
		d = x
	}
	key := interp.MakeString(parts[len(parts)-1])
	if _, found, _ := d.Get(key); found {
		return tb.errorNode(first, "Cannot overwrite a value")
	}
	v, err := tb.value(e.Value(), depth)
	if err != nil {
		return err
	}
	return d.SetKey(key, v)
}

// freeze marks an inline table and the tables its dotted keys made as
// closed to later keys and headers.
func (tb *tomlBuilder) freeze(d *starlark.Dict) {
	tb.meta[d] |= tomlFrozen
	for _, kv := range d.Items() {
		if x, ok := kv[1].(*starlark.Dict); ok && tb.meta[x]&tomlDotted != 0 {
			tb.freeze(x)
		}
	}
}

// value is the Python value of a value node.
func (tb *tomlBuilder) value(n *unstable.Node, depth int) (starlark.Value, error) {
	if err := tb.b.Charge(1); err != nil {
		return nil, err
	}
	raw := string(n.Data)
	switch n.Kind {
	case unstable.String:
		return interp.MakeString(raw), nil
	case unstable.Bool:
		return starlark.Bool(raw == "true"), nil
	case unstable.Integer:
		if !tomlIntRE.MatchString(raw) {
			return nil, tb.errorNode(n, "Invalid value")
		}
		return tomlInt(tb.b, raw)
	case unstable.Float:
		if !tomlFloatRE.MatchString(raw) {
			return nil, tb.errorNode(n, "Invalid value")
		}
		return tb.float(raw)
	case unstable.Array, unstable.InlineTable:
		if depth >= tomlMaxDepth {
			return nil, pyrt.Errorf("RecursionError", "maximum recursion depth exceeded")
		}
		var list []starlark.Value
		d := starlark.NewDict(4)
		it := n.Children()
		for it.Next() {
			c := it.Node()
			switch {
			case c.Kind == unstable.Comment:
			case n.Kind == unstable.Array:
				v, err := tb.value(c, depth+1)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			case c.Kind == unstable.KeyValue:
				if err := tb.keyValue(d, c, depth+1); err != nil {
					return nil, err
				}
			}
		}
		if n.Kind == unstable.Array {
			l := starlark.NewList(list)
			tb.meta[l] = tomlFrozen
			return l, nil
		}
		tb.freeze(d)
		return d, nil
	case unstable.LocalDate, unstable.LocalDateTime, unstable.DateTime:
		v, err := tomlDateTime(raw)
		if err != nil {
			return nil, tb.errorNode(n, "Invalid date or datetime")
		}
		return v, nil
	case unstable.LocalTime:
		m := tomlTimeRE.FindStringSubmatch(raw)
		if m == nil {
			return nil, tb.errorNode(n, "Invalid value")
		}
		return &clock{us: tomlClock(m[1], m[2], m[3], m[4])}, nil
	}
	return nil, tb.errorNode(n, "Invalid value")
}

var (
	tomlIntRE   = regexp.MustCompile(`^(?:0x[0-9A-Fa-f](?:_?[0-9A-Fa-f])*|0o[0-7](?:_?[0-7])*|0b[01](?:_?[01])*|[+-]?(?:0|[1-9](?:_?[0-9])*))$`)
	tomlFloatRE = regexp.MustCompile(`^(?:[+-]?(?:inf|nan)|[+-]?(?:0|[1-9](?:_?[0-9])*)(?:\.[0-9](?:_?[0-9])*)?(?:[eE][+-]?[0-9](?:_?[0-9])*)?)$`)
)

// float is parse_float(text): float by default, else the program's
// function, which must not return a dict or a list.
func (tb *tomlBuilder) float(raw string) (starlark.Value, error) {
	if tb.parseFloat == nil {
		return starlark.Call(tb.thread, builtins()["float"], starlark.Tuple{starlark.String(raw)}, nil)
	}
	v, err := starlark.Call(tb.thread, tb.parseFloat, starlark.Tuple{starlark.String(raw)}, nil)
	if err != nil {
		return nil, err
	}
	switch v.(type) {
	case *starlark.Dict, *starlark.List:
		return nil, pyrt.Errorf("ValueError", "parse_float must not return dicts or lists")
	}
	return v, nil
}

// tomlInt is int(text, 0) of an integer literal: any size, as Python's
// (a decimal of more than 4,300 digits is CPython's ValueError).
func tomlInt(b *interp.Budget, raw string) (starlark.Value, error) {
	s := strings.ReplaceAll(raw, "_", "")
	base := 10
	neg := false
	switch {
	case strings.HasPrefix(s, "0x"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0o"):
		base, s = 8, s[2:]
	case strings.HasPrefix(s, "0b"):
		base, s = 2, s[2:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	}
	if n, err := strconv.ParseInt(s, base, 64); err == nil {
		if neg {
			n = -n
		}
		return starlark.MakeInt64(n), nil
	}
	if base == 10 && len(s) > 4300 {
		return nil, pyrt.Errorf("ValueError", "Exceeds the limit (4300 digits) for integer string conversion: value has %d digits; use sys.set_int_max_str_digits() to increase the limit", len(s))
	}
	if bits := b.IntBits(); bits > 0 && len(s)*4 > bits+64 {
		return nil, pyrt.Errorf("ValueError", "integer size limit of %d digits exceeded", b.MaxIntDigits())
	}
	z, ok := new(big.Int).SetString(s, base)
	if !ok {
		return nil, tomlDecodeError.Raise("Invalid value", nil)
	}
	if neg {
		z.Neg(z)
	}
	return starlark.MakeBigInt(z), nil
}

var (
	tomlTimeRE     = regexp.MustCompile(`^([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9])(?:\.([0-9]{1,6})[0-9]*)?$`)
	tomlDateTimeRE = regexp.MustCompile(`^([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(?:[Tt ]([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9])(?:\.([0-9]{1,6})[0-9]*)?(?:([Zz])|([+-])([01][0-9]|2[0-3]):([0-5][0-9]))?)?$`)
)

func atoi(s string) int64 { n, _ := strconv.ParseInt(s, 10, 64); return n }

// tomlClock is a time of day in microseconds; the fraction is cut to
// microseconds, as CPython's tomllib does.
func tomlClock(h, m, s, frac string) int64 {
	us := int64(0)
	if frac != "" {
		us = atoi((frac + "000000")[:6])
	}
	return ((atoi(h)*60+atoi(m))*60+atoi(s))*usPerSec + us
}

// tomlDateTime is a date, a naive datetime or one with its offset's
// datetime.timezone (timezone.utc for Z and +00:00).
func tomlDateTime(raw string) (starlark.Value, error) {
	m := tomlDateTimeRE.FindStringSubmatch(raw)
	if m == nil {
		return nil, tomlDecodeError.Raise("Invalid date or datetime", nil)
	}
	y, mo, d := atoi(m[1]), atoi(m[2]), atoi(m[3])
	if err := checkDate(y, mo, d); err != nil {
		return nil, tomlDecodeError.Raise("Invalid date or datetime", nil)
	}
	if m[4] == "" {
		return makeDate(y, mo, d)
	}
	ord := toOrdinal(int(y), int(mo), int(d))
	dt := &datetime{local: (ord-1)*usPerDay + tomlClock(m[4], m[5], m[6], m[7])}
	switch {
	case m[9] != "":
		off := (atoi(m[10])*60 + atoi(m[11])) * 60 * usPerSec
		if m[9] == "-" {
			off = -off
		}
		dt.tz = &timezone{offset: off, utc: off == 0}
	case m[8] != "":
		dt.tz = &timezone{offset: 0, utc: true}
	}
	return dt, nil
}
