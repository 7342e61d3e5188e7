package stdlib

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

type cpMethod func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

// cpMethods are the parser's methods, by name.
var cpMethods = map[string]cpMethod{
	"__init__": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return starlark.None, p.init(thread, args, kwargs)
	},
	"optionxform": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var s starlark.Value
		if err := (webParams{fn: "optionxform", names: []string{"optionstr"}, required: 1, maxPos: 1, self: true}).unpack(args, kwargs, &s); err != nil {
			return nil, err
		}
		t, ok := interp.AsText(s)
		if !ok {
			return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'lower'", pyrt.TypeName(s))
		}
		l, err := pyLower(thread, t)
		return cpStr(l), err
	},
	"defaults": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := (webParams{fn: "defaults", self: true}).unpack(args, kwargs); err != nil {
			return nil, err
		}
		return optsDict(p.defaults), nil
	},
	"sections": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := (webParams{fn: "sections", self: true}).unpack(args, kwargs); err != nil {
			return nil, err
		}
		return cpNames(p.sections.names()), nil
	},
	"add_section": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		s, err := sectionArg("add_section", args, kwargs, !p.cls.raw)
		if err != nil {
			return nil, err
		}
		return starlark.None, p.addSection(s)
	},
	"has_section": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		s, err := sectionArg("has_section", args, kwargs, false)
		if err != nil {
			return nil, err
		}
		return starlark.Bool(p.hasSection(s)), nil
	},
	"remove_section": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		s, err := sectionArg("remove_section", args, kwargs, false)
		if err != nil {
			return nil, err
		}
		return starlark.Bool(p.sections.del(s)), nil
	},
	"options": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		s, err := sectionArg("options", args, kwargs, false)
		if err != nil {
			return nil, err
		}
		names, err := p.options(s)
		if err != nil {
			return nil, err
		}
		return cpNames(names), nil
	},
	"has_option": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var s, o starlark.Value
		if err := (webParams{fn: "has_option", names: []string{"section", "option"}, required: 2, maxPos: 2, self: true}).unpack(args, kwargs, &s, &o); err != nil {
			return nil, err
		}
		sec, _ := interp.AsText(s)
		ok, err := p.hasOption(thread, sec, o)
		return starlark.Bool(ok), err
	},
	"remove_option": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var s, o starlark.Value
		if err := (webParams{fn: "remove_option", names: []string{"section", "option"}, required: 2, maxPos: 2, self: true}).unpack(args, kwargs, &s, &o); err != nil {
			return nil, err
		}
		sec, _ := interp.AsText(s)
		opts, ok := p.sectionOpts(sec)
		if sec == "" {
			opts, ok = p.defaults, true
		}
		if !ok {
			return nil, errNoSection(sec)
		}
		k, err := p.optionxform(thread, o)
		if err != nil {
			return nil, err
		}
		return starlark.Bool(opts.del(k)), nil
	},
	"get": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return p.getConv(thread, "get", nil, args, kwargs)
	},
	"getint": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return p.getConv(thread, "getint", builtins()["int"], args, kwargs)
	},
	"getfloat": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return p.getConv(thread, "getfloat", builtins()["float"], args, kwargs)
	},
	"getboolean": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return p.getConv(thread, "getboolean", toBoolean, args, kwargs)
	},
	"items": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var s, raw, vars starlark.Value
		if err := (webParams{fn: "items", names: []string{"section", "raw", "vars"}, maxPos: 3, self: true}).unpack(args, kwargs, &s, &raw, &vars); err != nil {
			return nil, err
		}
		if s == nil {
			out := make([]starlark.Value, 0, p.Len())
			for _, n := range p.sectionNames() {
				name, _ := interp.AsText(n)
				out = append(out, starlark.Tuple{n, p.proxy(name)})
			}
			return starlark.NewList(out), nil
		}
		sec, _ := interp.AsText(s)
		return p.items(thread, sec, raw != nil && bool(raw.Truth()), vars)
	},
	"set": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var s, o starlark.Value
		var v starlark.Value = starlark.None
		if err := (webParams{fn: "set", names: []string{"section", "option", "value"}, required: 2, maxPos: 3, self: true}).unpack(args, kwargs, &s, &o, &v); err != nil {
			return nil, err
		}
		return starlark.None, p.set(thread, s, o, v)
	},
	"read": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var names starlark.Value
		var enc starlark.Value = starlark.None
		if err := (webParams{fn: "read", names: []string{"filenames", "encoding"}, required: 1, maxPos: 2, self: true}).unpack(args, kwargs, &names, &enc); err != nil {
			return nil, err
		}
		return p.readFiles(thread, names, enc)
	},
	"read_file": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var f starlark.Value
		var source starlark.Value = starlark.None
		if err := (webParams{fn: "read_file", names: []string{"f", "source"}, required: 1, maxPos: 2, self: true}).unpack(args, kwargs, &f, &source); err != nil {
			return nil, err
		}
		src := "<???>"
		if source != starlark.None {
			s, err := interp.Str(interp.BudgetOf(thread), source)
			if err != nil {
				return nil, err
			}
			src = s
		} else if h, ok := f.(starlark.HasAttrs); ok {
			if n, err := h.Attr("name"); err == nil && n != nil {
				if s, err := interp.Str(interp.BudgetOf(thread), n); err == nil {
					src = s
				}
			}
		}
		return starlark.None, p.readLines(thread, src, func(fn func(string) error) error {
			return pyrt.ForEach(thread, f, func(x starlark.Value) (bool, error) {
				s, ok := interp.AsText(x)
				if !ok {
					return true, pyrt.Errorf("TypeError", "configparser: read_file() needs lines of str, got %s (open the file in text mode)", pyrt.TypeName(x))
				}
				return false, fn(s)
			})
		})
	},
	"read_string": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var s starlark.Value
		var source starlark.Value = starlark.String("<string>")
		if err := (webParams{fn: "read_string", names: []string{"string", "source"}, required: 1, maxPos: 2, self: true}).unpack(args, kwargs, &s, &source); err != nil {
			return nil, err
		}
		str, ok := interp.AsText(s)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "initial_value must be str or None, not %s", pyrt.TypeName(s))
		}
		src, err := interp.Str(interp.BudgetOf(thread), source)
		if err != nil {
			return nil, err
		}
		return starlark.None, p.readLines(thread, src, func(fn func(string) error) error {
			for str != "" {
				i := strings.IndexByte(str, '\n')
				line := str
				if i >= 0 {
					line, str = str[:i+1], str[i+1:]
				} else {
					str = ""
				}
				if err := fn(line); err != nil {
					return err
				}
			}
			return nil
		})
	},
	"read_dict": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var d starlark.Value
		var source starlark.Value = starlark.String("<dict>")
		if err := (webParams{fn: "read_dict", names: []string{"dictionary", "source"}, required: 1, maxPos: 2, self: true}).unpack(args, kwargs, &d, &source); err != nil {
			return nil, err
		}
		src, err := interp.Str(interp.BudgetOf(thread), source)
		if err != nil {
			return nil, err
		}
		items, err := mappingItems(thread, d)
		if err != nil {
			return nil, err
		}
		return starlark.None, p.readDict(thread, items, src)
	},
	"write": func(thread *starlark.Thread, p *configParser, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var fp starlark.Value
		var space starlark.Value = starlark.True
		if err := (webParams{fn: "write", names: []string{"fp", "space_around_delimiters"}, required: 1, maxPos: 2, self: true}).unpack(args, kwargs, &fp, &space); err != nil {
			return nil, err
		}
		return starlark.None, p.write(thread, fp, bool(space.Truth()))
	},
}

func cpNames(names []string) *starlark.List {
	out := make([]starlark.Value, len(names))
	for i, n := range names {
		out[i] = cpStr(n)
	}
	return starlark.NewList(out)
}

func optsDict(m *omap[*optVal]) *starlark.Dict {
	d := starlark.NewDict(m.len())
	_ = m.each(func(k string, v *optVal) error { return d.SetKey(cpStr(k), v.value()) })
	return d
}

// sectionArg is the one section argument of a method; typed checks it is
// a str as ConfigParser.add_section does.
func sectionArg(fn string, args starlark.Tuple, kwargs []starlark.Tuple, typed bool) (string, error) {
	var s starlark.Value
	if err := (webParams{fn: fn, names: []string{"section"}, required: 1, maxPos: 1, self: true}).unpack(args, kwargs, &s); err != nil {
		return "", err
	}
	t, ok := interp.AsText(s)
	if !ok && typed {
		return "", pyrt.Errorf("TypeError", "section names must be strings")
	}
	return t, nil
}

// toBoolean is RawConfigParser._convert_to_boolean.
var toBoolean = interp.NewBuiltin("_convert_to_boolean", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	s, ok := interp.AsText(args[0])
	if !ok {
		return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'lower'", pyrt.TypeName(args[0]))
	}
	l, err := pyLower(thread, s)
	if err != nil {
		return nil, err
	}
	switch l {
	case "1", "yes", "true", "on":
		return starlark.True, nil
	case "0", "no", "false", "off":
		return starlark.False, nil
	}
	return nil, pyrt.Errorf("ValueError", "Not a boolean: %s", s)
})

var getParams = webParams{names: []string{"section", "option", "raw", "vars", "fallback"}, required: 2, maxPos: 2, self: true}

// getConv is get and the getXXX methods: conv(get(...)), with fallback
// when the section or option is missing; conv nil is plain get.
func (p *configParser) getConv(thread *starlark.Thread, fn string, conv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s, o, raw, vars, fallback starlark.Value
	params := getParams
	params.fn = fn
	if err := params.unpack(args, kwargs, &s, &o, &raw, &vars, &fallback); err != nil {
		return nil, err
	}
	sec, ok := interp.AsText(s)
	if !ok {
		r, err := interp.Repr(interp.BudgetOf(thread), s)
		if err != nil {
			return nil, err
		}
		sec = r
	}
	v, err := p.get(thread, sec, o, raw != nil && bool(raw.Truth()), vars, nil)
	if err != nil {
		if fallback != nil && (isExc(err, cpNoSection) || isExc(err, cpNoOption)) {
			return fallback, nil
		}
		return nil, err
	}
	if conv == nil {
		return v, nil
	}
	return starlark.Call(thread, conv, starlark.Tuple{v}, nil)
}

// ---- reading ----

// readFiles is read(filenames, encoding=): each through open(), a file
// that cannot be opened skipped; the names read, in order.
func (p *configParser) readFiles(thread *starlark.Thread, names, enc starlark.Value) (starlark.Value, error) {
	var list []starlark.Value
	switch names.(type) {
	case starlark.String, *interp.Unicode, starlark.Bytes:
		list = []starlark.Value{names}
	default:
		if _, ok := names.(interp.PathLike); ok {
			list = []starlark.Value{names}
			break
		}
		if err := pyrt.ForEach(thread, names, func(x starlark.Value) (bool, error) {
			list = append(list, x)
			return false, nil
		}); err != nil {
			return nil, err
		}
	}
	var ok []starlark.Value
	for _, name := range list {
		kw := []starlark.Tuple{{starlark.String("encoding"), enc}}
		if enc == starlark.None {
			kw = nil
		}
		f, err := starlark.Call(thread, OpenBuiltin, starlark.Tuple{name}, kw)
		if err != nil {
			if pyrt.IsInstanceOf(err, "OSError") {
				continue
			}
			return nil, err
		}
		src, err := fsPath(thread, "", name)
		if err != nil {
			return nil, err
		}
		err = p.readLines(thread, src, func(fn func(string) error) error {
			return pyrt.ForEach(thread, f, func(x starlark.Value) (bool, error) {
				s, _ := interp.AsText(x)
				return false, fn(s)
			})
		})
		if closer, e := pyrt.GetAttr(thread, f, "close"); e == nil {
			if _, e := starlark.Call(thread, closer, nil, nil); e != nil && err == nil {
				err = e
			}
		}
		if err != nil {
			return nil, err
		}
		if _, isText := interp.AsText(name); isText {
			ok = append(ok, name)
		} else if _, isBytes := name.(starlark.Bytes); isBytes {
			ok = append(ok, name)
		} else {
			ok = append(ok, cpStr(src))
		}
	}
	return starlark.NewList(ok), nil
}

// isSpace is str.isspace() of one character (Python's whitespace includes
// the separators U+001C..U+001F, Go's does not).
func isSpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

func pyStrip(s string) string { return strings.TrimFunc(s, isSpace) }

// readLines is RawConfigParser._read over the lines each gives.
func (p *configParser) readLines(thread *starlark.Thread, source string, each func(fn func(string) error) error) error {
	b := interp.BudgetOf(thread)
	type key struct {
		sect, opt string
		isOpt     bool
	}
	added := map[key]bool{}
	var cursect *omap[*optVal]
	var sectname, optname string
	haveOpt := false
	indentLevel := 0
	lineno := 0
	const maxIndent = int(^uint(0) >> 1)
	var perr *parsingError
	var fatal error
	err := each(func(line string) error {
		lineno++
		if err := b.Charge(uint64(len(line))/16 + 1); err != nil {
			return err
		}
		commentStart := -1
		if len(p.inlinePrefixes) > 0 {
			idx := make(map[string]int, len(p.inlinePrefixes))
			live := append([]string(nil), p.inlinePrefixes...)
			for _, pr := range live {
				idx[pr] = -1
			}
			for commentStart < 0 && len(live) > 0 {
				next := live[:0]
				for _, pr := range live {
					from := idx[pr] + 1
					if from > len(line) {
						continue
					}
					j := strings.Index(line[from:], pr)
					if j < 0 {
						continue
					}
					j += from
					idx[pr] = j
					next = append(next, pr)
					if j == 0 {
						commentStart = minStart(commentStart, j)
					} else if r, _ := utf8.DecodeLastRuneInString(line[:j]); isSpace(r) {
						commentStart = minStart(commentStart, j)
					}
				}
				live = next
			}
		}
		stripped := pyStrip(line)
		for _, pr := range p.commentPrefixes {
			if strings.HasPrefix(stripped, pr) {
				commentStart = 0
				break
			}
		}
		value := stripped
		if commentStart >= 0 {
			value = pyStrip(line[:commentStart])
		}
		if value == "" {
			if p.emptyLines {
				if commentStart < 0 && cursect != nil && haveOpt && optname != "" {
					if v, ok := cursect.get(optname); ok && v.v != starlark.None {
						v.lines = append(v.lines, "")
					}
				}
			} else {
				indentLevel = maxIndent
			}
			return nil
		}
		cur := 0
		for _, r := range line {
			if !isSpace(r) {
				break
			}
			cur++
		}
		if cursect != nil && optname != "" && haveOpt && cur > indentLevel {
			v, _ := cursect.get(optname)
			if v == nil || !v.multi {
				fatal = pyrt.Errorf("AttributeError", "'NoneType' object has no attribute 'append'")
				return fatal
			}
			v.lines = append(v.lines, value)
			return nil
		}
		indentLevel = cur
		if hdr, ok := sectionHeader(value); ok {
			sectname = hdr
			if s, exists := p.sections.get(hdr); exists {
				if p.strict && added[key{sect: hdr}] {
					fatal = errDuplicateSection(hdr, &source, lineno)
					return fatal
				}
				cursect = s.opts
				added[key{sect: hdr}] = true
			} else if hdr == p.defaultSection {
				cursect = p.defaults
			} else {
				p.sections.set(hdr, &cpSection{name: hdr, opts: newOmap[*optVal]()})
				p.keyBytes += uint64(len(hdr))
				s, _ := p.sections.get(hdr)
				cursect = s.opts
				added[key{sect: hdr}] = true
			}
			optname, haveOpt = "", false
			return nil
		}
		if cursect == nil {
			fatal = errMissingSectionHeader(source, lineno, line)
			return fatal
		}
		opt, val, hasVal, ok := p.splitOption(value)
		if !ok {
			if perr == nil {
				perr = &parsingError{source: source}
			}
			perr.add(lineno, line)
			return nil
		}
		if opt == "" {
			if perr == nil {
				perr = &parsingError{source: source}
			}
			perr.add(lineno, line)
		}
		o, err := p.xform(thread, strings.TrimRightFunc(opt, isSpace))
		if err != nil {
			return err
		}
		optname, haveOpt = o, true
		k := key{sect: sectname, opt: o, isOpt: true}
		if p.strict && added[k] {
			fatal = errDuplicateOption(sectname, o, &source, lineno)
			return fatal
		}
		added[k] = true
		if !cursect.has(o) {
			p.keyBytes += uint64(len(o))
		}
		if hasVal {
			cursect.set(o, &optVal{lines: []string{pyStrip(val)}, multi: true})
		} else {
			cursect.set(o, &optVal{v: starlark.None})
		}
		return nil
	})
	p.joinMultiline()
	if err != nil {
		return err
	}
	if perr != nil {
		return perr.err()
	}
	return nil
}

func minStart(cur, j int) int {
	if cur < 0 || j < cur {
		return j
	}
	return cur
}

// sectionHeader matches SECTCRE, \[(?P<header>.+)\], at the start of a
// stripped line: the header runs to the last ']'.
func sectionHeader(value string) (string, bool) {
	if !strings.HasPrefix(value, "[") {
		return "", false
	}
	j := strings.LastIndexByte(value, ']')
	if j < 2 {
		return "", false
	}
	h := value[1:j]
	if strings.ContainsAny(h, "\n") {
		return "", false
	}
	return h, true
}

// splitOption matches OPTCRE (OPTCRE_NV with allow_no_value): the
// option runs to the first delimiter, the value follows it.
func (p *configParser) splitOption(value string) (opt, val string, hasVal, ok bool) {
	best, bestLen := -1, 0
	for i := 0; i < len(value) && best < 0; i++ {
		for _, d := range p.delimiters {
			if strings.HasPrefix(value[i:], d) {
				best, bestLen = i, len(d)
				break
			}
		}
	}
	if best < 0 {
		if p.allowNoValue {
			return value, "", false, true
		}
		return "", "", false, false
	}
	return value[:best], strings.TrimLeftFunc(value[best+bestLen:], isSpace), true, true
}

// joinMultiline is _join_multiline_values: the lines of each value read
// become one text, trailing whitespace removed.
func (p *configParser) joinMultiline() {
	join := func(m *omap[*optVal]) {
		for i, v := range m.vals {
			if m.live[i] && v.multi {
				m.vals[i] = &optVal{v: cpStr(strings.TrimRightFunc(strings.Join(v.lines, "\n"), isSpace))}
			}
		}
	}
	join(p.defaults)
	for i, s := range p.sections.vals {
		if p.sections.live[i] {
			join(s.opts)
		}
	}
}

// readDict is read_dict(dictionary, source).
func (p *configParser) readDict(thread *starlark.Thread, items []starlark.Tuple, source string) error {
	b := interp.BudgetOf(thread)
	type key struct {
		sect, opt string
		isOpt     bool
	}
	added := map[key]bool{}
	for _, kv := range items {
		section, err := interp.Str(b, kv[0])
		if err != nil {
			return err
		}
		if err := p.addSection(section); err != nil {
			if !isExc(err, cpDuplicateSection) && !pyrt.IsInstanceOf(err, "ValueError") {
				return err
			}
			if p.strict && added[key{sect: section}] {
				return err
			}
		}
		added[key{sect: section}] = true
		opts, err := mappingItems(thread, kv[1])
		if err != nil {
			return err
		}
		for _, o := range opts {
			if err := b.Charge(1); err != nil {
				return err
			}
			ks, err := interp.Str(b, o[0])
			if err != nil {
				return err
			}
			k, err := p.optionxform(thread, cpStr(ks))
			if err != nil {
				return err
			}
			v := o[1]
			if v != starlark.None {
				s, err := interp.Str(b, v)
				if err != nil {
					return err
				}
				v = cpStr(s)
			}
			if p.strict && added[key{section, k, true}] {
				return errDuplicateOption(section, k, &source, 0)
			}
			added[key{section, k, true}] = true
			if !p.cls.raw {
				if err := p.validateTypes(nil, nil, v); err != nil {
					return err
				}
			}
			if err := p.setOption(thread, section, k, v, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// ---- writing ----

// write is write(fp, space_around_delimiters): the text is made whole,
// charged, and handed to fp.write once.
func (p *configParser) write(thread *starlark.Thread, fp starlark.Value, space bool) error {
	b := interp.BudgetOf(thread)
	d := p.delimiters[0]
	if space {
		d = " " + d + " "
	}
	var sb strings.Builder
	section := func(name string, m *omap[*optVal]) error {
		sb.WriteString("[" + name + "]\n")
		err := m.each(func(k string, v *optVal) error {
			val := v.value()
			line := k
			if val != starlark.None || !p.allowNoValue {
				s, err := interp.Str(b, val)
				if err != nil {
					return err
				}
				line += d + strings.ReplaceAll(s, "\n", "\n\t")
			}
			if err := b.Alloc(int64(sb.Len() + len(line))); err != nil {
				return err
			}
			sb.WriteString(line + "\n")
			return nil
		})
		sb.WriteString("\n")
		return err
	}
	if p.defaults.len() > 0 {
		if err := section(p.defaultSection, p.defaults); err != nil {
			return err
		}
	}
	for i, s := range p.sections.vals {
		if !p.sections.live[i] {
			continue
		}
		if err := section(s.name, s.opts); err != nil {
			return err
		}
	}
	w, err := pyrt.GetAttr(thread, fp, "write")
	if err != nil {
		return pyrt.Errorf("AttributeError", "'%s' object has no attribute 'write'", pyrt.TypeName(fp))
	}
	_, err = starlark.Call(thread, w, starlark.Tuple{cpStr(sb.String())}, nil)
	return err
}
