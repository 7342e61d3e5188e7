package stdlib

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
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

// tomlParse is loads(src, parse_float=pf).
func tomlParse(thread *starlark.Thread, src string, pf starlark.Value) (starlark.Value, error) {
	b := interp.BudgetOf(thread)
	// Parsing twice (checks, then the tree) and the values built: about
	// a few times the text, charged before any of it is made.
	if err := b.Alloc(int64(len(src)) * 4); err != nil {
		return nil, err
	}
	src = strings.ReplaceAll(src, "\r\n", "\n")
	data := []byte(src)
	var check map[string]any
	if err := toml.Unmarshal(data, &check); err != nil {
		return nil, tomlError(err)
	}
	check = nil
	if pf == starlark.None {
		pf = nil
	}
	tb := &tomlBuilder{thread: thread, b: b, parseFloat: pf}
	root := starlark.NewDict(8)
	cur := root
	p := unstable.Parser{}
	p.Reset(data)
	for p.NextExpression() {
		e := p.Expression()
		if err := b.Charge(1); err != nil {
			return nil, err
		}
		var err error
		switch e.Kind {
		case unstable.Table:
			cur, err = tb.table(root, keyParts(e.Key()), false)
		case unstable.ArrayTable:
			cur, err = tb.table(root, keyParts(e.Key()), true)
		case unstable.KeyValue:
			err = tb.keyValue(cur, e, 0)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := p.Error(); err != nil {
		return nil, tomlError(err)
	}
	return root, nil
}

// tomlError is TOMLDecodeError for go-toml's error, worded as CPython's
// are ("… (at line 3, column 7)").
func tomlError(err error) error {
	if strings.Contains(err.Error(), "nested more than the maximum") {
		// CPython's recursive parser gives up far sooner.
		return pyrt.Errorf("RecursionError", "maximum recursion depth exceeded")
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		return tomlDecodeError.Raise(fmt.Sprintf("%s (at line %d, column %d)", msg, line, col), nil)
	}
	var pe *unstable.ParserError
	if errors.As(err, &pe) {
		return tomlDecodeError.Raise(pe.Message, nil)
	}
	return tomlDecodeError.Raise(strings.TrimPrefix(err.Error(), "toml: "), nil)
}

func keyParts(it unstable.Iterator) []string {
	var out []string
	for it.Next() {
		out = append(out, string(it.Node().Data))
	}
	return out
}

type tomlBuilder struct {
	thread     *starlark.Thread
	b          *interp.Budget
	parseFloat starlark.Value
}

// descend is the table under key k of d, made when missing; an array of
// tables gives its last table.
func (tb *tomlBuilder) descend(d *starlark.Dict, k string) (*starlark.Dict, error) {
	key := interp.MakeString(k)
	v, found, _ := d.Get(key)
	if !found {
		nd := starlark.NewDict(4)
		return nd, d.SetKey(key, nd)
	}
	switch x := v.(type) {
	case *starlark.Dict:
		return x, nil
	case *starlark.List:
		if x.Len() > 0 {
			if last, ok := x.Index(x.Len() - 1).(*starlark.Dict); ok {
				return last, nil
			}
		}
	}
	return nil, tomlDecodeError.Raise("Cannot overwrite a value", nil)
}

// table is the table a [header] or [[header]] makes current.
func (tb *tomlBuilder) table(root *starlark.Dict, parts []string, array bool) (*starlark.Dict, error) {
	d := root
	n := len(parts)
	if array {
		n--
	}
	for _, k := range parts[:n] {
		var err error
		if d, err = tb.descend(d, k); err != nil {
			return nil, err
		}
	}
	if !array {
		return d, nil
	}
	key := interp.MakeString(parts[n])
	v, found, _ := d.Get(key)
	l, ok := v.(*starlark.List)
	if !found || !ok {
		l = starlark.NewList(nil)
		if err := d.SetKey(key, l); err != nil {
			return nil, err
		}
	}
	nd := starlark.NewDict(4)
	return nd, l.Append(nd)
}

// keyValue sets a (dotted) key of d to the node's value.
func (tb *tomlBuilder) keyValue(d *starlark.Dict, e *unstable.Node, depth int) error {
	parts := keyParts(e.Key())
	for _, k := range parts[:len(parts)-1] {
		var err error
		if d, err = tb.descend(d, k); err != nil {
			return err
		}
	}
	v, err := tb.value(e.Value(), depth)
	if err != nil {
		return err
	}
	return d.SetKey(interp.MakeString(parts[len(parts)-1]), v)
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
		return tomlInt(raw)
	case unstable.Float:
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
			return starlark.NewList(list), nil
		}
		return d, nil
	case unstable.LocalDate, unstable.LocalDateTime, unstable.DateTime:
		return tomlDateTime(raw)
	case unstable.LocalTime:
		m := tomlTimeRE.FindStringSubmatch(raw)
		if m == nil {
			return nil, tomlDecodeError.Raise("Invalid value", nil)
		}
		return &clock{us: tomlClock(m[1], m[2], m[3], m[4])}, nil
	}
	return nil, tomlDecodeError.Raise("Invalid value", nil)
}

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

// tomlInt is int(text, 0) of an integer literal: any size, as Python's.
func tomlInt(raw string) (starlark.Value, error) {
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
