package stdlib

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/objects"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// html.parser's HTMLParser: the class programs subclass, overriding
// handle_starttag, handle_data and the rest. Its scanning is CPython
// 3.11's html/parser.py and _markupbase.py step for step, so that the
// handlers are called in the same order with the same pieces of data;
// the regular expressions with lookarounds, which Go's regexp lacks,
// are written out as functions.
//
// The class is a mixinClass: a program's class deriving from it finds
// these methods after its own, bound to its instance, and super()
// reaches them (interp/objects). The parser's state lives on the
// instance as CPython's does (rawdata, lasttag, cdata_elem,
// convert_charrefs, lineno, offset are plain attributes); the handlers
// are looked up on the instance at each call, so overriding them works
// as in CPython.

// htmlParserModule is html.parser.
func htmlParserModule() *starlarkstruct.Module {
	cls := &mixinClass{pyClass: &pyClass{module: "html.parser", name: "HTMLParser", is: isHTMLParser, attrs: htmlParserAttr}}
	// HTMLParser() itself: an instance of a class deriving from it with
	// nothing of its own, whose handlers do nothing.
	cls.ctor = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		c, err := objects.MakeClass(thread, "HTMLParser", starlark.Tuple{cls}, nil, nil)
		if err != nil {
			return nil, err
		}
		return starlark.Call(thread, c, args, kwargs)
	}
	return &starlarkstruct.Module{Name: "html.parser", Members: starlark.StringDict{"HTMLParser": cls}}
}

func isHTMLParser(v starlark.Value) bool {
	in := objects.AsInstance(v)
	if in == nil {
		return false
	}
	for _, c := range in.Class().MRO() {
		// Known by name: the class itself would make an initialisation cycle.
		if m, ok := c.(*mixinClass); ok && m.module == "html.parser" && m.name == "HTMLParser" {
			return true
		}
	}
	return false
}

var htmlNoOps = map[string]bool{"handle_starttag": true, "handle_endtag": true, "handle_charref": true, "handle_entityref": true,
	"handle_data": true, "handle_comment": true, "handle_decl": true, "handle_pi": true, "unknown_decl": true}

var htmlCDATAElements = starlark.Tuple{starlark.String("script"), starlark.String("style")}

// htmlParserAttr is the class's own attribute name: its methods take
// self first.
func htmlParserAttr(name string) starlark.Value {
	m := func(f func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) starlark.Value {
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return nil, pyrt.Errorf("TypeError", "HTMLParser.%s() missing 1 required positional argument: 'self'", name)
			}
			return f(thread, args[0], args[1:], kwargs)
		})
	}
	if htmlNoOps[name] {
		return m(func(*starlark.Thread, starlark.Value, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, nil
		})
	}
	switch name {
	case "CDATA_CONTENT_ELEMENTS":
		return htmlCDATAElements
	case "__init__":
		return m(func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) > 0 {
				return nil, pyrt.Errorf("TypeError", "HTMLParser.__init__() takes 1 positional argument but %d were given", len(args)+1)
			}
			var conv starlark.Value = starlark.True
			for _, kv := range kwargs {
				k, _ := interp.AsText(kv[0])
				if k != "convert_charrefs" {
					return nil, pyrt.Errorf("TypeError", "HTMLParser.__init__() got an unexpected keyword argument '%s'", k)
				}
				conv = kv[1]
			}
			if err := setAttr(thread, self, "convert_charrefs", conv); err != nil {
				return nil, err
			}
			return callMethod(thread, self, "reset")
		})
	case "reset":
		return m(func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := noArgs("reset", args, kwargs); err != nil {
				return nil, err
			}
			st := &htmlState{lasttag: "???", lineno: 1}
			return starlark.None, st.save(thread, self, true)
		})
	case "feed":
		return m(func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var data starlark.Value
			if err := (webParams{fn: "feed", names: []string{"data"}, required: 1, maxPos: 1, self: true}).unpack(args, kwargs, &data); err != nil {
				return nil, err
			}
			s, ok := interp.AsText(data)
			if !ok {
				return nil, pyrt.Errorf("TypeError", "can only concatenate str (not \"%s\") to str", pyrt.TypeName(data))
			}
			return starlark.None, htmlRun(thread, self, s, false)
		})
	case "close":
		return m(func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := noArgs("close", args, kwargs); err != nil {
				return nil, err
			}
			return starlark.None, htmlRun(thread, self, "", true)
		})
	case "getpos":
		return m(func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := noArgs("getpos", args, kwargs); err != nil {
				return nil, err
			}
			ln, err := pyrt.GetAttr(thread, self, "lineno")
			if err != nil {
				return nil, err
			}
			off, err := pyrt.GetAttr(thread, self, "offset")
			if err != nil {
				return nil, err
			}
			return starlark.Tuple{ln, off}, nil
		})
	case "get_starttag_text":
		return m(func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := noArgs("get_starttag_text", args, kwargs); err != nil {
				return nil, err
			}
			v, err := pyrt.GetAttr(thread, self, "_HTMLParser__starttag_text")
			if err != nil {
				return starlark.None, nil
			}
			return v, nil
		})
	case "handle_startendtag":
		return m(func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var tag, attrs starlark.Value
			if err := (webParams{fn: "handle_startendtag", names: []string{"tag", "attrs"}, required: 2, maxPos: 2, self: true}).unpack(args, kwargs, &tag, &attrs); err != nil {
				return nil, err
			}
			if _, err := callMethod(thread, self, "handle_starttag", tag, attrs); err != nil {
				return nil, err
			}
			return callMethod(thread, self, "handle_endtag", tag)
		})
	case "set_cdata_mode":
		return m(func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var elem starlark.Value
			if err := (webParams{fn: "set_cdata_mode", names: []string{"elem"}, required: 1, maxPos: 1, self: true}).unpack(args, kwargs, &elem); err != nil {
				return nil, err
			}
			s, _ := interp.AsText(elem)
			return starlark.None, setAttr(thread, self, "cdata_elem", interp.MakeString(strings.ToLower(s)))
		})
	case "clear_cdata_mode":
		return m(func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, setAttr(thread, self, "cdata_elem", starlark.None)
		})
	}
	return nil
}

func setAttr(thread *starlark.Thread, self starlark.Value, name string, v starlark.Value) error {
	if in := objects.AsInstance(self); in != nil {
		return in.SetAttr(thread, name, v)
	}
	if s, ok := self.(starlark.HasSetField); ok {
		return s.SetField(name, v)
	}
	return pyrt.Errorf("AttributeError", "'%s' object has no attribute '%s'", pyrt.TypeName(self), name)
}

// htmlState is the parser's state while feed or close runs, read from
// and written back to the instance's attributes.
type htmlState struct {
	rawdata   string
	lineno    int
	offset    int
	cdataElem string // "" for none
	lasttag   string
	convert   bool
	cdataRe   *regexp.Regexp
	thread    *starlark.Thread
	self      starlark.Value
	b         *interp.Budget
	running   bool // inside goahead: rawdata is not written back per handler
	synced    struct {
		lineno, offset     int
		lasttag, cdataElem string
	}
}

func (st *htmlState) save(thread *starlark.Thread, self starlark.Value, reset bool) error {
	var cdata starlark.Value = starlark.None
	if st.cdataElem != "" {
		cdata = interp.MakeString(st.cdataElem)
	}
	st.synced.lineno, st.synced.offset, st.synced.lasttag, st.synced.cdataElem = st.lineno, st.offset, st.lasttag, st.cdataElem
	set := []struct {
		name string
		v    starlark.Value
	}{
		{"lasttag", interp.MakeString(st.lasttag)},
		{"cdata_elem", cdata},
		{"lineno", starlark.MakeInt(st.lineno)},
		{"offset", starlark.MakeInt(st.offset)},
	}
	for _, a := range set {
		if err := setAttr(thread, self, a.name, a.v); err != nil {
			return err
		}
	}
	if reset || !st.running {
		// rawdata is written once goahead is done with it: a handler
		// sees what CPython's sees only at the end of a feed.
		return setAttr(thread, self, "rawdata", interp.MakeString(st.rawdata))
	}
	return nil
}

func (st *htmlState) load(thread *starlark.Thread, self starlark.Value) error {
	get := func(name string) (starlark.Value, error) { return pyrt.GetAttr(thread, self, name) }
	raw, err := get("rawdata")
	if err != nil {
		return err
	}
	st.rawdata, _ = interp.AsText(raw)
	conv, err := get("convert_charrefs")
	if err != nil {
		return err
	}
	st.convert = bool(conv.Truth())
	if v, err := get("lasttag"); err == nil {
		st.lasttag, _ = interp.AsText(v)
	}
	if v, err := get("cdata_elem"); err == nil && v != starlark.None {
		st.cdataElem, _ = interp.AsText(v)
		st.setCDATA(st.cdataElem)
	}
	if v, err := get("lineno"); err == nil {
		n, _ := starlark.AsInt32(v)
		st.lineno = n
	}
	if v, err := get("offset"); err == nil {
		n, _ := starlark.AsInt32(v)
		st.offset = n
	}
	return nil
}

// pyS is Python's \s for str patterns (Go's \s is ASCII only).
const pyS = `\s\v\x1c-\x1f\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}`

var (
	htmlCharref       = regexp.MustCompile(`^&#(?:[0-9]+|[xX][0-9a-fA-F]+)[^0-9a-fA-F]`)
	htmlEntityref     = regexp.MustCompile(`^&([a-zA-Z][-.a-zA-Z0-9]*)[^a-zA-Z0-9]`)
	htmlIncomplete    = regexp.MustCompile(`^&[a-zA-Z#]`)
	htmlEndtagfind    = regexp.MustCompile(`^</[` + pyS + `]*([a-zA-Z][-.a-zA-Z0-9:_]*)[` + pyS + `]*>`)
	htmlCommentclose  = regexp.MustCompile(`--[` + pyS + `]*>`)
	htmlMarkedClose   = regexp.MustCompile(`][` + pyS + `]*][` + pyS + `]*>`)
	htmlMSMarkedClose = regexp.MustCompile(`][` + pyS + `]*>`)
	htmlDeclname      = regexp.MustCompile(`^[a-zA-Z][-_.a-zA-Z0-9]*[` + pyS + `]*`)
	htmlSpaceSemi     = regexp.MustCompile(`[` + pyS + `;]`)
)

func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
}

func (st *htmlState) setCDATA(elem string) {
	st.cdataElem = elem
	st.cdataRe = regexp.MustCompile(`(?i)</[` + pyS + `]*` + regexp.QuoteMeta(elem) + `[` + pyS + `]*>`)
}

func (st *htmlState) clearCDATA() {
	st.cdataElem, st.cdataRe = "", nil
}

// call calls the handler name of the instance, after bringing the
// attributes a handler may read (getpos(), self.lasttag, cdata_elem) up
// to date, as CPython's are at that point.
func (st *htmlState) call(name string, args ...starlark.Value) error {
	if err := st.b.Charge(4); err != nil {
		return err
	}
	if st.lineno != st.synced.lineno || st.offset != st.synced.offset || st.lasttag != st.synced.lasttag || st.cdataElem != st.synced.cdataElem {
		if err := st.save(st.thread, st.self, false); err != nil {
			return err
		}
	}
	_, err := callMethod(st.thread, st.self, name, args...)
	return err
}

func (st *htmlState) data(s string) error {
	return st.call("handle_data", interp.MakeString(s))
}

// updatepos is _markupbase's: lineno and offset (in characters) at j.
func (st *htmlState) updatepos(i, j int) int {
	if i >= j {
		return j
	}
	seg := st.rawdata[i:j]
	if n := strings.Count(seg, "\n"); n > 0 {
		st.lineno += n
		pos := strings.LastIndexByte(seg, '\n')
		st.offset = utf8.RuneCountInString(seg[pos+1:])
	} else {
		st.offset += utf8.RuneCountInString(seg)
	}
	return j
}

// htmlRun is feed(data) (end false) and close() (end true).
func htmlRun(thread *starlark.Thread, self starlark.Value, data string, end bool) error {
	st := &htmlState{thread: thread, self: self, b: interp.BudgetOf(thread)}
	if err := st.load(thread, self); err != nil {
		return err
	}
	if err := st.b.Alloc(int64(len(st.rawdata) + len(data))); err != nil {
		return err
	}
	st.rawdata += data
	st.synced.lineno, st.synced.offset, st.synced.lasttag, st.synced.cdataElem = st.lineno, st.offset, st.lasttag, st.cdataElem
	st.running = true
	// The state is written back however goahead ends (a handler that
	// raised leaves the parser where it stopped, as CPython's does).
	err := st.goahead(end)
	st.running = false
	if serr := st.save(thread, self, false); err == nil {
		err = serr
	}
	return err
}

func (st *htmlState) unescape(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var w strings.Builder
	for {
		i := strings.IndexByte(s, '&')
		if i < 0 {
			w.WriteString(s)
			break
		}
		w.WriteString(s[:i])
		s = s[i:]
		n, text := charRef(s)
		if n == 0 {
			w.WriteByte('&')
			s = s[1:]
			continue
		}
		w.WriteString(text)
		s = s[n:]
	}
	return w.String()
}

func (st *htmlState) goahead(end bool) error {
	raw := st.rawdata
	i, n := 0, len(raw)
	defer func() { st.rawdata = raw[i:] }()
	for i < n {
		if err := st.b.Charge(1); err != nil {
			return err
		}
		var j int
		if st.convert && st.cdataElem == "" {
			j = strings.IndexByte(raw[i:], '<')
			if j < 0 {
				// A reference may be cut at the end: wait for the rest.
				from := max(i, n-34)
				amp := strings.LastIndexByte(raw[from:], '&')
				if amp >= 0 && !htmlSpaceSemi.MatchString(raw[from+amp:]) {
					break
				}
				j = n
			} else {
				j += i
			}
		} else {
			var loc []int
			if st.cdataRe != nil {
				loc = st.cdataRe.FindStringIndex(raw[i:])
			} else if k := strings.IndexAny(raw[i:], "&<"); k >= 0 {
				loc = []int{k, k + 1}
			}
			if loc != nil {
				j = i + loc[0]
			} else {
				if st.cdataElem != "" {
					break
				}
				j = n
			}
		}
		if i < j {
			text := raw[i:j]
			if st.convert && st.cdataElem == "" {
				text = st.unescape(text)
			}
			if err := st.data(text); err != nil {
				return err
			}
		}
		i = st.updatepos(i, j)
		if i == n {
			break
		}
		switch {
		case raw[i] == '<':
			var k int
			var err error
			switch {
			case i+1 < n && isASCIILetter(raw[i+1]):
				k, err = st.parseStarttag(i)
			case strings.HasPrefix(raw[i:], "</"):
				k, err = st.parseEndtag(i)
			case strings.HasPrefix(raw[i:], "<!--"):
				k, err = st.parseComment(i, true)
			case strings.HasPrefix(raw[i:], "<?"):
				k, err = st.parsePI(i)
			case strings.HasPrefix(raw[i:], "<!"):
				k, err = st.parseHTMLDeclaration(i)
			case i+1 < n:
				if err := st.data("<"); err != nil {
					return err
				}
				k = i + 1
			default:
				return st.finish(end, &i)
			}
			if err != nil {
				return err
			}
			// The markup was scanned to k, or to the end when incomplete:
			// a tag fed a piece at a time is scanned again at each feed,
			// as CPython does, and each scan is charged.
			scanned := k - i
			if k < 0 {
				scanned = n - i
			}
			if err := st.b.Charge(uint64(scanned)/2 + 1); err != nil {
				return err
			}
			if k < 0 {
				if !end {
					return st.finish(end, &i)
				}
				k = strings.IndexByte(raw[i+1:], '>')
				if k < 0 {
					k = strings.IndexByte(raw[i+1:], '<')
					if k < 0 {
						k = i + 1
					} else {
						k += i + 1
					}
				} else {
					k += i + 1 + 1
				}
				text := raw[i:k]
				if st.convert && st.cdataElem == "" {
					text = st.unescape(text)
				}
				if err := st.data(text); err != nil {
					return err
				}
			}
			i = st.updatepos(i, k)
		case strings.HasPrefix(raw[i:], "&#"):
			if m := htmlCharref.FindString(raw[i:]); m != "" {
				name := m[2 : len(m)-lastRuneLen(m)]
				if err := st.call("handle_charref", interp.MakeString(name)); err != nil {
					return err
				}
				k := i + len(m)
				if raw[k-1] != ';' {
					k -= lastRuneLen(m)
				}
				i = st.updatepos(i, k)
				continue
			}
			if strings.Contains(raw[i:], ";") { // bail by consuming "&#"
				if err := st.data(raw[i : i+2]); err != nil {
					return err
				}
				i = st.updatepos(i, i+2)
			}
			return st.finish(end, &i)
		case raw[i] == '&':
			if m := htmlEntityref.FindStringSubmatch(raw[i:]); m != nil {
				if err := st.call("handle_entityref", interp.MakeString(m[1])); err != nil {
					return err
				}
				k := i + len(m[0])
				if raw[k-1] != ';' {
					k -= lastRuneLen(m[0])
				}
				i = st.updatepos(i, k)
				continue
			}
			if m := htmlIncomplete.FindString(raw[i:]); m != "" {
				if end && m == raw[i:] {
					i = st.updatepos(i, i+1)
				}
				return st.finish(end, &i)
			} else if i+1 < n {
				if err := st.data("&"); err != nil {
					return err
				}
				i = st.updatepos(i, i+1)
			} else {
				return st.finish(end, &i)
			}
		}
	}
	return st.finish(end, &i)
}

// finish is the end of goahead after its loop: at close, what is left
// (outside a CDATA element) is data.
func (st *htmlState) finish(end bool, ip *int) error {
	raw := st.rawdata
	i, n := *ip, len(raw)
	if end && i < n && st.cdataElem == "" {
		text := raw[i:n]
		if st.convert {
			text = st.unescape(text)
		}
		if err := st.data(text); err != nil {
			return err
		}
		*ip = st.updatepos(i, n)
	}
	return nil
}

func lastRuneLen(s string) int {
	_, n := utf8.DecodeLastRuneInString(s)
	return n
}

// skipPySpace is the end of \s* at k.
func skipPySpace(s string, k int) int {
	for k < len(s) {
		r, n := utf8.DecodeRuneInString(s[k:])
		if !isPySpace(r) {
			break
		}
		k += n
	}
	return k
}

// skipSpaceSlash is the end of (?:\s|/(?!>))* at k.
func skipSpaceSlash(s string, k int) int {
	for k < len(s) {
		r, n := utf8.DecodeRuneInString(s[k:])
		if isPySpace(r) || r == '/' && !strings.HasPrefix(s[k+1:], ">") {
			k += n
			continue
		}
		break
	}
	return k
}

// tagNameEnd is the end of [a-zA-Z][^\t\n\r\f />\x00]* at k (k is at
// the letter).
func tagNameEnd(s string, k int) int {
	k++
	for k < len(s) && strings.IndexByte("\t\n\r\f />\x00", s[k]) < 0 {
		k++
	}
	return k
}

type htmlAttr struct {
	nameStart, nameEnd int
	hasRest            bool
	value              string // with its quotes, as matched
	end                int
}

// attrAt matches attrfind_tolerant at k:
// ((?<=['"\s/])[^\s/>][^\s/=>]*)(\s*=+\s*('[^']*'|"[^"]*"|(?!['"])[^>\s]*))?(?:\s|/(?!>))*
// with the backtracking of the value part that Python's engine does.
func attrAt(s string, k int) (htmlAttr, bool) {
	var a htmlAttr
	if k <= 0 || k >= len(s) {
		return a, false
	}
	prev, _ := utf8.DecodeLastRuneInString(s[:k])
	if !(prev == '\'' || prev == '"' || prev == '/' || isPySpace(prev)) {
		return a, false
	}
	r, n := utf8.DecodeRuneInString(s[k:])
	if isPySpace(r) || r == '/' || r == '>' {
		return a, false
	}
	a.nameStart = k
	p := k + n
	for p < len(s) {
		r, n := utf8.DecodeRuneInString(s[p:])
		if isPySpace(r) || r == '/' || r == '=' || r == '>' {
			break
		}
		p += n
	}
	a.nameEnd, a.end = p, p
	p1 := skipPySpace(s, p)
	if p1 < len(s) && s[p1] == '=' {
		eqEnd := p1
		for eqEnd < len(s) && s[eqEnd] == '=' {
			eqEnd++
		}
	search:
		for e := eqEnd; e > p1; e-- {
			// \s* after the '=' signs, longest first.
			var buf [8]int
			stops := buf[:0]
			w := e
			stops = append(stops, w)
			for w < len(s) {
				r, n := utf8.DecodeRuneInString(s[w:])
				if !isPySpace(r) {
					break
				}
				w += n
				stops = append(stops, w)
			}
			for x := len(stops) - 1; x >= 0; x-- {
				if v, vend, ok := attrValueAt(s, stops[x]); ok {
					a.hasRest, a.value, a.end = true, v, vend
					break search
				}
			}
		}
	}
	a.end = skipSpaceSlash(s, a.end)
	return a, true
}

// attrValueAt matches '[^']*'|"[^"]*"|(?!['"])[^>\s]* at w.
func attrValueAt(s string, w int) (string, int, bool) {
	if w < len(s) && (s[w] == '\'' || s[w] == '"') {
		end := strings.IndexByte(s[w+1:], s[w])
		if end < 0 {
			return "", 0, false
		}
		return s[w : w+end+2], w + end + 2, true
	}
	p := w
	for p < len(s) {
		r, n := utf8.DecodeRuneInString(s[p:])
		if r == '>' || isPySpace(r) {
			break
		}
		p += n
	}
	return s[w:p], p, true
}

// locateStarttagEnd is the end of locatestarttagend_tolerant's match at i.
func locateStarttagEnd(s string, i int) int {
	j := tagNameEnd(s, i+1)
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		if !isPySpace(r) && r != '/' {
			break
		}
		j += n
	}
	for {
		a, ok := attrAt(s, j)
		if !ok {
			break
		}
		j = a.end
	}
	return skipPySpace(s, j)
}

func (st *htmlState) checkForWholeStartTag(i int) int {
	raw := st.rawdata
	j := locateStarttagEnd(raw, i)
	if j >= len(raw) {
		return -1
	}
	switch next := raw[j]; {
	case next == '>':
		return j + 1
	case next == '/':
		if strings.HasPrefix(raw[j:], "/>") {
			return j + 2
		}
		return -1 // rawdata.startswith("/", j)
	case strings.IndexByte("abcdefghijklmnopqrstuvwxyz=/ABCDEFGHIJKLMNOPQRSTUVWXYZ", next) >= 0:
		return -1
	}
	if j > i {
		return j
	}
	return i + 1
}

func (st *htmlState) parseStarttag(i int) (int, error) {
	_ = setAttr(st.thread, st.self, "_HTMLParser__starttag_text", starlark.None)
	endpos := st.checkForWholeStartTag(i)
	if endpos < 0 {
		return endpos, nil
	}
	raw := st.rawdata
	if err := setAttr(st.thread, st.self, "_HTMLParser__starttag_text", interp.MakeString(raw[i:endpos])); err != nil {
		return 0, err
	}
	nameEnd := tagNameEnd(raw, i+1)
	tag := strings.ToLower(raw[i+1 : nameEnd])
	st.lasttag = tag
	k := skipSpaceSlash(raw, nameEnd)
	var attrs []starlark.Value
	for k < endpos {
		a, ok := attrAt(raw, k)
		if !ok {
			break
		}
		name := strings.ToLower(raw[a.nameStart:a.nameEnd])
		var val starlark.Value = starlark.None
		if a.hasRest {
			v := a.value
			if len(v) >= 2 && (v[0] == '\'' && v[len(v)-1] == '\'' || v[0] == '"' && v[len(v)-1] == '"') {
				v = v[1 : len(v)-1]
			}
			if v != "" {
				v = st.unescape(v)
			}
			val = interp.MakeString(v)
		}
		attrs = append(attrs, starlark.Tuple{interp.MakeString(name), val})
		k = a.end
	}
	if err := st.b.Alloc(int64(32 * (len(attrs) + 1))); err != nil {
		return 0, err
	}
	rest := strings.TrimFunc(raw[k:endpos], isPySpace)
	if rest != ">" && rest != "/>" {
		return endpos, st.data(raw[i:endpos])
	}
	tagV := interp.MakeString(tag)
	if strings.HasSuffix(rest, "/>") {
		return endpos, st.call("handle_startendtag", tagV, starlark.NewList(attrs))
	}
	if err := st.call("handle_starttag", tagV, starlark.NewList(attrs)); err != nil {
		return 0, err
	}
	cdata, err := pyrt.GetAttr(st.thread, st.self, "CDATA_CONTENT_ELEMENTS")
	if err != nil {
		return 0, err
	}
	if c, ok := cdata.(starlark.Container); ok {
		if in, _ := c.Has(tagV); in {
			st.setCDATA(tag)
		}
	} else if it, ok := cdata.(starlark.Iterable); ok {
		iter := it.Iterate()
		var x starlark.Value
		for iter.Next(&x) {
			if s, _ := interp.AsText(x); s == tag {
				st.setCDATA(tag)
				break
			}
		}
		iter.Done()
	}
	return endpos, nil
}

func (st *htmlState) parseEndtag(i int) (int, error) {
	raw := st.rawdata
	gt := strings.IndexByte(raw[i+1:], '>')
	if gt < 0 {
		return -1, nil
	}
	gtpos := i + 1 + gt + 1
	m := htmlEndtagfind.FindStringSubmatch(raw[i:])
	if m == nil {
		if st.cdataElem != "" {
			return gtpos, st.data(raw[i:gtpos])
		}
		// tagfind_tolerant at i+2
		if i+2 >= len(raw) || !isASCIILetter(raw[i+2]) {
			if strings.HasPrefix(raw[i:], "</>") {
				return i + 3, nil
			}
			return st.parseBogusComment(i)
		}
		nameEnd := tagNameEnd(raw, i+2)
		tagname := strings.ToLower(raw[i+2 : nameEnd])
		after := skipSpaceSlash(raw, nameEnd)
		g := strings.IndexByte(raw[after:], '>')
		if err := st.call("handle_endtag", interp.MakeString(tagname)); err != nil {
			return 0, err
		}
		if g < 0 {
			return 0, nil // CPython: find() gives -1, +1 is 0
		}
		return after + g + 1, nil
	}
	elem := strings.ToLower(m[1])
	if st.cdataElem != "" && elem != st.cdataElem {
		return gtpos, st.data(raw[i:gtpos])
	}
	if err := st.call("handle_endtag", interp.MakeString(elem)); err != nil {
		return 0, err
	}
	st.clearCDATA()
	return gtpos, nil
}

func (st *htmlState) parseComment(i int, report bool) (int, error) {
	raw := st.rawdata
	loc := htmlCommentclose.FindStringIndex(raw[i+4:])
	if loc == nil {
		return -1, nil
	}
	if report {
		if err := st.call("handle_comment", interp.MakeString(raw[i+4:i+4+loc[0]])); err != nil {
			return 0, err
		}
	}
	return i + 4 + loc[1], nil
}

func (st *htmlState) parseBogusComment(i int) (int, error) {
	raw := st.rawdata
	pos := strings.IndexByte(raw[i+2:], '>')
	if pos < 0 {
		return -1, nil
	}
	pos += i + 2
	return pos + 1, st.call("handle_comment", interp.MakeString(raw[i+2:pos]))
}

func (st *htmlState) parsePI(i int) (int, error) {
	raw := st.rawdata
	j := strings.IndexByte(raw[i+2:], '>')
	if j < 0 {
		return -1, nil
	}
	j += i + 2
	return j + 1, st.call("handle_pi", interp.MakeString(raw[i+2:j]))
}

func (st *htmlState) parseHTMLDeclaration(i int) (int, error) {
	raw := st.rawdata
	switch {
	case strings.HasPrefix(raw[i:], "<!--"):
		return st.parseComment(i, true)
	case strings.HasPrefix(raw[i:], "<!["):
		return st.parseMarkedSection(i)
	case len(raw) >= i+9 && strings.ToLower(raw[i:i+9]) == "<!doctype":
		gt := strings.IndexByte(raw[i+9:], '>')
		if gt < 0 {
			return -1, nil
		}
		gtpos := i + 9 + gt
		return gtpos + 1, st.call("handle_decl", interp.MakeString(raw[i+2:gtpos]))
	}
	return st.parseBogusComment(i)
}

// scanName is _markupbase's _scan_name: the lowered name at i and the
// end of it with its trailing space; -1 at the end of the buffer.
func (st *htmlState) scanName(i, declstart int) (string, int, error) {
	raw := st.rawdata
	if i == len(raw) {
		return "", -1, nil
	}
	m := htmlDeclname.FindString(raw[i:])
	if m == "" {
		st.updatepos(declstart, i)
		end := min(len(raw), declstart+20)
		return "", 0, pyrt.Errorf("AssertionError", "expected name token at %s", interp.QuoteString(raw[declstart:end]))
	}
	if i+len(m) == len(raw) {
		return "", -1, nil
	}
	return strings.ToLower(strings.TrimFunc(m, isPySpace)), i + len(m), nil
}

func (st *htmlState) parseMarkedSection(i int) (int, error) {
	raw := st.rawdata
	name, j, err := st.scanName(i+3, i)
	if err != nil || j < 0 {
		return j, err
	}
	var loc []int
	switch name {
	case "temp", "cdata", "ignore", "include", "rcdata":
		loc = htmlMarkedClose.FindStringIndex(raw[i+3:])
	case "if", "else", "endif":
		loc = htmlMSMarkedClose.FindStringIndex(raw[i+3:])
	default:
		return 0, pyrt.Errorf("AssertionError", "unknown status keyword %s in marked section", interp.QuoteString(raw[i+3:j]))
	}
	if loc == nil {
		return -1, nil
	}
	return i + 3 + loc[1], st.call("unknown_decl", interp.MakeString(raw[i+3:i+3+loc[0]]))
}
