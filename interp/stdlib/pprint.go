package stdlib

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/objects"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// PPrint is the pprint module: CPython's PrettyPrinter layout for
// dicts, lists, tuples, sets and long strings (a value is written on
// one line when it fits, else its items one per line, indented), with
// dict keys sorted as CPython sorts them.
func PPrint() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "pprint", Members: starlark.StringDict{
		"pformat":       interp.NewBuiltin("pformat", ppPformat),
		"pprint":        interp.NewBuiltin("pprint", ppPprint),
		"pp":            interp.NewBuiltin("pp", ppPprint),
		"saferepr":      interp.NewBuiltin("saferepr", ppSaferepr),
		"isrecursive":   interp.NewBuiltin("isrecursive", ppIsrecursive),
		"isreadable":    interp.NewBuiltin("isreadable", ppIsreadable),
		"PrettyPrinter": interp.NewBuiltin("PrettyPrinter", ppNew),
	}}
}

// printer is a PrettyPrinter's settings and the run's budget.
type printer struct {
	b          *interp.Budget
	indent     int
	width      int
	depth      int // 0: no limit
	compact    bool
	sortDicts  bool
	underscore bool
	recursive  bool // a value contained itself
	unreadable bool // some part has no repr that eval reads back
}

// ppSettings reads PrettyPrinter's settings from the arguments after the
// object (and the stream, which must be None: printing goes to the
// program's output).
func ppSettings(fn string, args starlark.Tuple, kwargs []starlark.Tuple, sortDefault bool) (*printer, error) {
	p := &printer{indent: 1, width: 80, sortDicts: sortDefault}
	var depth starlark.Value = starlark.None
	var stream starlark.Value = starlark.None
	names := []any{"indent?", &p.indent, "width?", &p.width, "depth?", &depth, "compact?", &p.compact,
		"sort_dicts?", &p.sortDicts, "underscore_numbers?", &p.underscore}
	if fn == "pprint" || fn == "pp" || fn == "PrettyPrinter" {
		names = append([]any{"stream?", &stream}, names...)
	}
	// The positional parameters after the object: indent, width, depth
	// (and stream first for pprint and pp).
	if most := 3 + boolInt(fn == "pprint" || fn == "pp"); len(args) > most && fn != "PrettyPrinter" {
		return nil, pyrt.Errorf("TypeError", "%s() takes from 1 to %d positional arguments but %d were given", fn, most+1, len(args)+1)
	}
	for _, kv := range kwargs {
		key, _ := starlark.AsString(kv[0])
		known := false
		for i := 0; i < len(names); i += 2 {
			known = known || strings.TrimSuffix(names[i].(string), "?") == key
		}
		if !known {
			return nil, pyrt.Errorf("TypeError", "%s() got an unexpected keyword argument '%s'", fn, key)
		}
	}
	if err := starlark.UnpackArgs(fn, args, kwargs, names...); err != nil {
		return nil, err
	}
	if stream != starlark.None {
		return nil, pyrt.Errorf("TypeError", "%s(): stream is not supported: the text is printed to the program's output (use pformat for the text)", fn)
	}
	if p.indent < 0 {
		return nil, pyrt.Errorf("ValueError", "indent must be >= 0")
	}
	if depth != starlark.None {
		if err := starlark.AsInt(depth, &p.depth); err != nil {
			return nil, pyrt.Errorf("TypeError", "depth must be an int or None")
		}
		if p.depth <= 0 {
			return nil, pyrt.Errorf("ValueError", "depth must be > 0")
		}
	}
	if p.width == 0 {
		return nil, pyrt.Errorf("ValueError", "width must be != 0")
	}
	return p, nil
}

func ppPformat(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, pyrt.Errorf("TypeError", "pformat() missing 1 required positional argument: 'object'")
	}
	p, err := ppSettings(fn.Name(), args[1:], kwargs, true)
	if err != nil {
		return nil, err
	}
	p.b = interp.BudgetOf(thread)
	s, err := p.pformat(args[0])
	if err != nil {
		return nil, err
	}
	return interp.MakeString(s), nil
}

func ppPprint(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, pyrt.Errorf("TypeError", "%s() missing 1 required positional argument: 'object'", fn.Name())
	}
	p, err := ppSettings(fn.Name(), args[1:], kwargs, fn.Name() == "pprint")
	if err != nil {
		return nil, err
	}
	p.b = interp.BudgetOf(thread)
	s, err := p.pformat(args[0])
	if err != nil {
		return nil, err
	}
	return starlark.None, interp.Print(thread, s+"\n")
}

func ppSaferepr(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs(fn.Name(), args, kwargs, 1, &v); err != nil {
		return nil, err
	}
	p := &printer{b: interp.BudgetOf(thread), sortDicts: true}
	s, err := p.safeRepr(v, 0, nil)
	if err != nil {
		return nil, err
	}
	return interp.MakeString(s), nil
}

func ppIsrecursive(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs(fn.Name(), args, kwargs, 1, &v); err != nil {
		return nil, err
	}
	p := &printer{b: interp.BudgetOf(thread), sortDicts: true}
	if _, err := p.safeRepr(v, 0, nil); err != nil {
		return nil, err
	}
	return starlark.Bool(p.recursive), nil
}

func ppIsreadable(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs(fn.Name(), args, kwargs, 1, &v); err != nil {
		return nil, err
	}
	p := &printer{b: interp.BudgetOf(thread), sortDicts: true}
	if _, err := p.safeRepr(v, 0, nil); err != nil {
		return nil, err
	}
	return starlark.Bool(!p.recursive && !p.unreadable), nil
}

// container reports whether v is written item by item (a dict, list or
// tuple), and so may contain itself.
func container(v starlark.Value) bool {
	switch v.(type) {
	case *starlark.Dict, *starlark.List, starlark.Tuple:
		return true
	}
	return false
}

func recursionText(v starlark.Value) string {
	// CPython writes id(v), a decimal number; the value's address is
	// the nearest thing here.
	id, _ := strconv.ParseUint(strings.TrimPrefix(fmt.Sprintf("%p", v), "0x"), 16, 64)
	return fmt.Sprintf("<Recursion on %s with id=%d>", pyrt.TypeName(v), id)
}

// identity is a container's identity for the recursion check; nil for
// a tuple, which can hold itself only through a list or dict, checked
// there.
func identity(v starlark.Value) starlark.Value {
	if _, ok := v.(starlark.Tuple); ok {
		return nil
	}
	return v
}

func (p *printer) pathHas(path []starlark.Value, v starlark.Value) bool {
	id := identity(v)
	if id == nil {
		return false
	}
	for _, x := range path {
		if x == id {
			return true
		}
	}
	return false
}

// safeRepr is CPython's _safe_repr: the repr of v, dict keys sorted,
// containers deeper than depth written as {...}, [...] or (...), and a
// container inside itself named instead of written.
func (p *printer) safeRepr(v starlark.Value, level int, path []starlark.Value) (string, error) {
	if err := p.b.Charge(1); err != nil {
		return "", err
	}
	if level > interp.MaxDepth {
		return "", fmt.Errorf("%w in pprint", interp.ErrTooDeep)
	}
	switch x := v.(type) {
	case *starlark.Dict:
		if x.Len() == 0 {
			return "{}", nil
		}
		if p.depth > 0 && level >= p.depth {
			return "{...}", nil
		}
		if p.pathHas(path, v) {
			p.recursive, p.unreadable = true, true
			return recursionText(v), nil
		}
		items, err := p.dictItems(x)
		if err != nil {
			return "", err
		}
		path = append(path, identity(v))
		parts := make([]string, len(items))
		for i, kv := range items {
			k, err := p.safeRepr(kv[0], level+1, path)
			if err != nil {
				return "", err
			}
			val, err := p.safeRepr(kv[1], level+1, path)
			if err != nil {
				return "", err
			}
			parts[i] = k + ": " + val
		}
		return p.joined("{", parts, "}")
	case *starlark.List, starlark.Tuple:
		seq := v.(starlark.Indexable)
		open, close := "[", "]"
		if _, ok := v.(starlark.Tuple); ok {
			open, close = "(", ")"
			if seq.Len() == 1 {
				close = ",)"
			}
		}
		if seq.Len() == 0 {
			return open + strings.TrimPrefix(close, ","), nil
		}
		if p.depth > 0 && level >= p.depth {
			return open + "..." + close, nil
		}
		if p.pathHas(path, v) {
			p.recursive, p.unreadable = true, true
			return recursionText(v), nil
		}
		path = append(path, identity(v))
		parts := make([]string, seq.Len())
		for i := range parts {
			s, err := p.safeRepr(seq.Index(i), level+1, path)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return p.joined(open, parts, close)
	case starlark.Int:
		if p.underscore {
			return underscored(x.String()), nil
		}
		return x.String(), nil
	}
	switch v.(type) {
	case starlark.String, *interp.Unicode, starlark.Bytes, interp.Bytes, starlark.Float, starlark.Bool, starlark.NoneType, *starlark.Set:
	default:
		if pyrt.TypeName(v) != "frozenset" {
			p.unreadable = true
		}
	}
	return interp.Repr(p.b, v)
}

// joined is open + ", ".join(parts) + close, its copying charged: a
// deep structure's parts are joined again at every level.
func (p *printer) joined(open string, parts []string, close string) (string, error) {
	n := len(open) + len(close)
	for _, s := range parts {
		n += len(s) + 2
	}
	if err := p.b.Charge(uint64(n) / 16); err != nil {
		return "", err
	}
	if err := p.b.Alloc(int64(n)); err != nil {
		return "", err
	}
	return open + strings.Join(parts, ", ") + close, nil
}

// underscored writes an int's digits in groups of three, as format
// spec "_d" does.
func underscored(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	var sb strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			sb.WriteByte('_')
		}
		sb.WriteRune(c)
	}
	return sign + sb.String()
}

// dictItems is the dict's items, sorted by key (then value) as
// CPython's _safe_tuple orders them when sort_dicts is set.
func (p *printer) dictItems(d *starlark.Dict) ([]starlark.Tuple, error) {
	items := d.Items()
	if !p.sortDicts {
		return items, nil
	}
	var err error
	sort.SliceStable(items, func(i, j int) bool {
		if err != nil {
			return false
		}
		lt, e := p.safeLess(items[i][0], items[j][0])
		if e != nil {
			err = e
			return false
		}
		if lt {
			return true
		}
		gt, e := p.safeLess(items[j][0], items[i][0])
		if e != nil {
			err = e
			return false
		}
		if gt {
			return false
		}
		lt, err = p.safeLess(items[i][1], items[j][1])
		return lt
	})
	return items, err
}

// safeLess is CPython's _safe_key ordering: x < y, or, for values that
// cannot be ordered, their types' names (values of one type that cannot
// be ordered keep their order here; CPython orders them by address).
func (p *printer) safeLess(x, y starlark.Value) (bool, error) {
	lt, err := pyrt.Less(p.b, x, y)
	if err == nil {
		return lt, nil
	}
	var ex *pyrt.Exception
	if !errors.As(err, &ex) || ex.Class != "TypeError" {
		return false, err
	}
	tx, ty := "<class '"+pyrt.TypeName(x)+"'>", "<class '"+pyrt.TypeName(y)+"'>"
	return tx < ty, nil
}

func (p *printer) pformat(v starlark.Value) (string, error) {
	sb := textBuf{b: p.b}
	defer sb.done()
	if err := p.format(&sb, v, 0, 0, 0, nil); err != nil {
		return "", err
	}
	return sb.Text()
}

// write appends s, charging it; the text is refused before it grows
// past the memory budget (a layout is longer than the repr it is made
// from: an indent on every line).
func (p *printer) write(sb *textBuf, s string) error {
	return sb.WriteString(s)
}

// format is CPython's _format: v on one line when its repr fits in the
// width left, else laid out by its type.
func (p *printer) format(sb *textBuf, v starlark.Value, indent, allowance, level int, path []starlark.Value) error {
	if container(v) && p.pathHas(path, v) {
		p.recursive = true
		return p.write(sb, recursionText(v))
	}
	rep, err := p.safeRepr(v, level, path)
	if err != nil {
		return err
	}
	maxWidth := p.width - indent - allowance
	if utf8.RuneCountInString(rep) > maxWidth {
		inner := path
		if container(v) {
			inner = append(path, identity(v))
		}
		switch x := v.(type) {
		case *starlark.Dict:
			return p.pprintDict(sb, x, indent, allowance, level+1, inner)
		case *starlark.List:
			if err := p.write(sb, "["); err != nil {
				return err
			}
			if err := p.formatItems(sb, listValues(x), indent, allowance+1, level+1, inner); err != nil {
				return err
			}
			return p.write(sb, "]")
		case starlark.Tuple:
			end := ")"
			if len(x) == 1 {
				end = ",)"
			}
			if err := p.write(sb, "("); err != nil {
				return err
			}
			if err := p.formatItems(sb, x, indent, allowance+len(end), level+1, inner); err != nil {
				return err
			}
			return p.write(sb, end)
		case *starlark.Set:
			return p.pprintSet(sb, v, "", indent, allowance, level+1, inner)
		case starlark.String, *interp.Unicode:
			s, _ := interp.AsText(v)
			return p.pprintStr(sb, s, indent, allowance, level+1)
		case starlark.Bytes, interp.Bytes:
			b, _ := interp.AsBytes(v)
			return p.pprintBytes(sb, b, indent, allowance, level+1)
		case *interp.ByteArray:
			b, _ := interp.AsBytes(v)
			if err := p.write(sb, "bytearray("); err != nil {
				return err
			}
			if err := p.pprintBytes(sb, b, indent+10, allowance+1, level+2); err != nil {
				return err
			}
			return p.write(sb, ")")
		}
		if pyrt.TypeName(v) == "frozenset" {
			return p.pprintSet(sb, v, "frozenset", indent, allowance, level+1, path)
		}
		if in, ok := v.(*objects.Instance); ok {
			if done, err := p.pprintDataclass(sb, in, indent, allowance, level+1, append(path, v)); done || err != nil {
				return err
			}
		}
		if done, err := p.pprintCollection(sb, v, indent, allowance, level+1, path); done || err != nil {
			return err
		}
	}
	return p.write(sb, rep)
}

func listValues(l *starlark.List) []starlark.Value {
	out := make([]starlark.Value, l.Len())
	for i := range out {
		out[i] = l.Index(i)
	}
	return out
}

func (p *printer) pprintDict(sb *textBuf, d *starlark.Dict, indent, allowance, level int, path []starlark.Value) error {
	if err := p.write(sb, "{"); err != nil {
		return err
	}
	if p.indent > 1 {
		if err := p.write(sb, strings.Repeat(" ", p.indent-1)); err != nil {
			return err
		}
	}
	if d.Len() > 0 {
		items, err := p.dictItems(d)
		if err != nil {
			return err
		}
		if err := p.formatDictItems(sb, items, indent, allowance+1, level, path); err != nil {
			return err
		}
	}
	return p.write(sb, "}")
}

// formatDictItems is CPython's _format_dict_items: "key: value", one
// pair a line.
func (p *printer) formatDictItems(sb *textBuf, items []starlark.Tuple, indent, allowance, level int, path []starlark.Value) error {
	indent += p.indent
	delim := ",\n" + strings.Repeat(" ", indent)
	for i, kv := range items {
		last := i == len(items)-1
		rep, err := p.safeRepr(kv[0], level, path)
		if err != nil {
			return err
		}
		if err := p.write(sb, rep+": "); err != nil {
			return err
		}
		a := 1
		if last {
			a = allowance
		}
		if err := p.format(sb, kv[1], indent+utf8.RuneCountInString(rep)+2, a, level, path); err != nil {
			return err
		}
		if !last {
			if err := p.write(sb, delim); err != nil {
				return err
			}
		}
	}
	return nil
}

// pprintCollection lays out a Counter, defaultdict, OrderedDict or deque
// that does not fit on a line, as CPython's printers for them do.
func (p *printer) pprintCollection(sb *textBuf, v starlark.Value, indent, allowance, level int, path []starlark.Value) (bool, error) {
	switch x := v.(type) {
	case *collDict:
		if x.d.Len() == 0 {
			return false, nil
		}
		name := x.Type()
		switch x.kind {
		case kindCounter:
			items, err := mostCommon(p.b, x.d, -1)
			if err != nil {
				return true, err
			}
			if err := p.write(sb, name+"({"); err != nil {
				return true, err
			}
			if p.indent > 1 {
				if err := p.write(sb, strings.Repeat(" ", p.indent-1)); err != nil {
					return true, err
				}
			}
			if err := p.formatDictItems(sb, items, indent+len(name)+1, allowance+2, level, path); err != nil {
				return true, err
			}
			return true, p.write(sb, "})")
		case kindDefault:
			rdf, err := p.safeRepr(x.factory, level, path)
			if err != nil {
				return true, err
			}
			indent += len(name) + 1
			if err := p.write(sb, name+"("+rdf+",\n"+strings.Repeat(" ", indent)); err != nil {
				return true, err
			}
			if err := p.pprintDict(sb, x.d, indent, allowance+1, level, path); err != nil {
				return true, err
			}
			return true, p.write(sb, ")")
		default:
			items := x.d.Items()
			l := make([]starlark.Value, len(items))
			for i, kv := range items {
				l[i] = kv
			}
			if err := p.write(sb, name+"("); err != nil {
				return true, err
			}
			if err := p.format(sb, starlark.NewList(l), indent+len(name)+1, allowance+1, level, path); err != nil {
				return true, err
			}
			return true, p.write(sb, ")")
		}
	case *chainMap:
		// ChainMap(m1,\n         m2): one mapping a line, each laid out
		// on its own.
		n := x.maps.Len()
		if n == 0 {
			return false, nil
		}
		if err := p.write(sb, "ChainMap("); err != nil {
			return true, err
		}
		indent += len("ChainMap") + 1
		for i := 0; i < n; i++ {
			if i == n-1 {
				if err := p.format(sb, x.maps.Index(i), indent, allowance+1, level, path); err != nil {
					return true, err
				}
				return true, p.write(sb, ")")
			}
			if err := p.format(sb, x.maps.Index(i), indent, 1, level, path); err != nil {
				return true, err
			}
			if err := p.write(sb, ",\n"+strings.Repeat(" ", indent)); err != nil {
				return true, err
			}
		}
	case *deque:
		if x.n == 0 {
			return false, nil
		}
		indent += len("deque") + 1
		if err := p.write(sb, "deque(["); err != nil {
			return true, err
		}
		if x.maxlen < 0 {
			if err := p.formatItems(sb, x.values(), indent, allowance+2, level, path); err != nil {
				return true, err
			}
			return true, p.write(sb, "])")
		}
		if err := p.formatItems(sb, x.values(), indent, 2, level, path); err != nil {
			return true, err
		}
		return true, p.write(sb, "],\n"+strings.Repeat(" ", indent)+"maxlen="+starlark.MakeInt(x.maxlen).String()+")")
	}
	return false, nil
}

func (p *printer) pprintSet(sb *textBuf, v starlark.Value, typeName string, indent, allowance, level int, path []starlark.Value) error {
	elems, err := pyrt.Collect(nil, v)
	if err != nil {
		return err
	}
	if err := p.b.Charge(uint64(len(elems))); err != nil {
		return err
	}
	if len(elems) == 0 {
		// set() and frozenset(), never {} (an empty dict).
		if typeName == "" {
			return p.write(sb, "set()")
		}
		return p.write(sb, typeName+"()")
	}
	end := "}"
	if typeName == "" {
		if err := p.write(sb, "{"); err != nil {
			return err
		}
	} else {
		if err := p.write(sb, typeName+"({"); err != nil {
			return err
		}
		end = "})"
		indent += len(typeName) + 1
	}
	var sortErr error
	sort.SliceStable(elems, func(i, j int) bool {
		lt, err := p.safeLess(elems[i], elems[j])
		if err != nil && sortErr == nil {
			sortErr = err
		}
		return lt
	})
	if sortErr != nil {
		return sortErr
	}
	if err := p.formatItems(sb, elems, indent, allowance+len(end), level, path); err != nil {
		return err
	}
	return p.write(sb, end)
}

// formatItems is CPython's _format_items: one item a line, or, compact,
// as many as fit.
func (p *printer) formatItems(sb *textBuf, items []starlark.Value, indent, allowance, level int, path []starlark.Value) error {
	indent += p.indent
	if p.indent > 1 {
		if err := p.write(sb, strings.Repeat(" ", p.indent-1)); err != nil {
			return err
		}
	}
	delimNL := ",\n" + strings.Repeat(" ", indent)
	delim := ""
	width := p.width - indent + 1
	maxWidth := width
	for i, ent := range items {
		last := i == len(items)-1
		if last {
			maxWidth -= allowance
			width -= allowance
		}
		if p.compact {
			rep, err := p.safeRepr(ent, level, path)
			if err != nil {
				return err
			}
			w := utf8.RuneCountInString(rep) + 2
			if width < w {
				width = maxWidth
				if delim != "" {
					delim = delimNL
				}
			}
			if width >= w {
				width -= w
				if err := p.write(sb, delim+rep); err != nil {
					return err
				}
				delim = ", "
				continue
			}
		}
		if err := p.write(sb, delim); err != nil {
			return err
		}
		delim = delimNL
		a := 1
		if last {
			a = allowance
		}
		if err := p.format(sb, ent, indent, a, level, path); err != nil {
			return err
		}
	}
	return nil
}

// pprintStr is CPython's _pprint_str: a long string cut into pieces at
// line ends and after runs of whitespace, each piece's repr on a line
// of its own (in parentheses at the top level), which Python joins back.
func (p *printer) pprintStr(sb *textBuf, s string, indent, allowance, level int) error {
	if s == "" {
		return p.write(sb, "''")
	}
	repr := func(x string) (string, error) { return interp.Repr(p.b, interp.MakeString(x)) }
	lines := splitLinesKeep(s)
	if level == 1 {
		indent++
		allowance++
	}
	maxWidth := p.width - indent
	maxWidth1 := maxWidth
	var chunks []string
	var rep string
	for i, line := range lines {
		var err error
		if rep, err = repr(line); err != nil {
			return err
		}
		if i == len(lines)-1 {
			maxWidth1 -= allowance
		}
		if utf8.RuneCountInString(rep) <= maxWidth1 {
			chunks = append(chunks, rep)
			continue
		}
		parts := wordParts(line)
		maxWidth2 := maxWidth
		current := ""
		for j, part := range parts {
			candidate := current + part
			if j == len(parts)-1 && i == len(lines)-1 {
				maxWidth2 -= allowance
			}
			r, err := repr(candidate)
			if err != nil {
				return err
			}
			if utf8.RuneCountInString(r) > maxWidth2 {
				if current != "" {
					cr, err := repr(current)
					if err != nil {
						return err
					}
					chunks = append(chunks, cr)
				}
				current = part
			} else {
				current = candidate
			}
		}
		if current != "" {
			cr, err := repr(current)
			if err != nil {
				return err
			}
			chunks = append(chunks, cr)
		}
	}
	if len(chunks) == 1 {
		return p.write(sb, rep)
	}
	if level == 1 {
		if err := p.write(sb, "("); err != nil {
			return err
		}
	}
	for i, c := range chunks {
		if i > 0 {
			if err := p.write(sb, "\n"+strings.Repeat(" ", indent)); err != nil {
				return err
			}
		}
		if err := p.write(sb, c); err != nil {
			return err
		}
	}
	if level == 1 {
		return p.write(sb, ")")
	}
	return nil
}

// pprintBytes writes bytes too long for the line as CPython's pprint
// does: reprs of runs of whole 4-byte groups, each as long as fits, one a
// line (in parentheses at the top level).
func (p *printer) pprintBytes(sb *textBuf, b string, indent, allowance, level int) error {
	if len(b) <= 4 {
		return p.write(sb, interp.QuoteBytes(b))
	}
	parens := level == 1
	if parens {
		indent++
		allowance++
		if err := p.write(sb, "("); err != nil {
			return err
		}
	}
	width := p.width - indent
	last := len(b) / 4 * 4
	current := ""
	var chunks []string
	for i := 0; i < len(b); i += 4 {
		if err := p.b.Charge(1); err != nil {
			return err
		}
		part := b[i:min(i+4, len(b))]
		candidate := current + part
		if i == last {
			width -= allowance
		}
		if len(interp.QuoteBytes(candidate)) > width {
			if current != "" {
				chunks = append(chunks, interp.QuoteBytes(current))
			}
			current = part
		} else {
			current = candidate
		}
	}
	if current != "" {
		chunks = append(chunks, interp.QuoteBytes(current))
	}
	for i, c := range chunks {
		if i > 0 {
			if err := p.write(sb, "\n"+strings.Repeat(" ", indent)); err != nil {
				return err
			}
		}
		if err := p.write(sb, c); err != nil {
			return err
		}
	}
	if parens {
		return p.write(sb, ")")
	}
	return nil
}

// wordParts is re.findall(r'\S*\s*', line) without its final empty
// match: runs of non-space, each with the spaces after it.
func wordParts(line string) []string {
	var parts []string
	rs := []rune(line)
	for i := 0; i < len(rs); {
		j := i
		for j < len(rs) && !unicode.IsSpace(rs[j]) {
			j++
		}
		for j < len(rs) && unicode.IsSpace(rs[j]) {
			j++
		}
		parts = append(parts, string(rs[i:j]))
		i = j
	}
	return parts
}

// prettyPrinter is a pprint.PrettyPrinter: settings, with pformat and
// pprint.
type prettyPrinter struct{ p printer }

var _ starlark.HasAttrs = (*prettyPrinter)(nil)

func (pp *prettyPrinter) String() string        { return "<pprint.PrettyPrinter object>" }
func (pp *prettyPrinter) Type() string          { return "PrettyPrinter" }
func (pp *prettyPrinter) Freeze()               {}
func (pp *prettyPrinter) Truth() starlark.Bool  { return true }
func (pp *prettyPrinter) Hash() (uint32, error) { return 0, nil }
func (pp *prettyPrinter) AttrNames() []string {
	return []string{"isreadable", "isrecursive", "pformat", "pprint"}
}

func (pp *prettyPrinter) Attr(name string) (starlark.Value, error) {
	switch name {
	case "pformat", "pprint", "isreadable", "isrecursive":
	default:
		return nil, nil
	}
	return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var v starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &v); err != nil {
			return nil, err
		}
		p := pp.p
		p.b = interp.BudgetOf(thread)
		switch name {
		case "isreadable", "isrecursive":
			if _, err := p.safeRepr(v, 0, nil); err != nil {
				return nil, err
			}
			if name == "isrecursive" {
				return starlark.Bool(p.recursive), nil
			}
			return starlark.Bool(!p.recursive && !p.unreadable), nil
		}
		s, err := p.pformat(v)
		if err != nil {
			return nil, err
		}
		if name == "pformat" {
			return interp.MakeString(s), nil
		}
		return starlark.None, interp.Print(thread, s+"\n")
	}).BindReceiver(pp), nil
}

func ppNew(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	// PrettyPrinter(indent=1, width=80, depth=None, stream=None, *, ...)
	// takes the stream fourth; ppSettings reads it first.
	if len(args) > 3 {
		args = append(starlark.Tuple{args[3]}, args[:3]...)
	} else if len(args) > 0 {
		args = append(starlark.Tuple{starlark.None}, args...)
	}
	p, err := ppSettings(fn.Name(), args, kwargs, true)
	if err != nil {
		return nil, err
	}
	return &prettyPrinter{p: *p}, nil
}

// pprintDataclass is CPython 3.11's _pprint_dataclass: a dataclass
// instance whose repr is the generated one, as Name(field=value, …) with
// one field a line, each value laid out in the width left.
func (p *printer) pprintDataclass(sb *textBuf, in *objects.Instance, indent, allowance, level int, path []starlark.Value) (bool, error) {
	c := dcClassOf(in)
	if c == nil {
		return false, nil
	}
	if pv, ok := c.Lookup("__dataclass_params__"); !ok || !pv.(*dcParams).repr {
		return false, nil
	}
	if r, _ := c.Lookup("__repr__"); r == nil {
		return false, nil
	} else if _, generated := r.(*objects.Method); !generated {
		return false, nil
	}
	thread := p.b.Thread()
	name := c.Name()
	indent += len(name) + 1
	if err := p.write(sb, name+"("); err != nil {
		return true, err
	}
	var fs []*dcField
	for _, f := range dcFieldList(c) {
		if f.repr {
			fs = append(fs, f)
		}
	}
	delim := ",\n" + strings.Repeat(" ", indent)
	for i, f := range fs {
		last := i == len(fs)-1
		v, err := pyrt.GetAttr(thread, in, f.name)
		if err != nil {
			return true, err
		}
		if err := p.write(sb, f.name+"="); err != nil {
			return true, err
		}
		if _, isInst := v.(*objects.Instance); isInst && slices.Contains(path, v) {
			if err := p.write(sb, "..."); err != nil {
				return true, err
			}
		} else {
			a := 1
			if last {
				a = allowance
			}
			if err := p.format(sb, v, indent+len(f.name)+1, a, level, path); err != nil {
				return true, err
			}
		}
		if !last {
			if err := p.write(sb, delim); err != nil {
				return true, err
			}
		}
	}
	return true, p.write(sb, ")")
}
