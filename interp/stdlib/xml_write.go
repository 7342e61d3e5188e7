package stdlib

import (
	"fmt"
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Serialising trees as ElementTree.write and tostring do: CPython's
// escaping, namespace prefixes (ns0, ns1, … or registered ones),
// declarations on the root sorted by prefix, and the xml, html and text
// methods.

type xmlSerial struct {
	encoding string // as given ("us-ascii" when none)
	unicode  bool   // encoding="unicode": a str
	decl     starlark.Value
	defNS    string
	method   string
	short    bool
}

func serialOptions(encoding, decl, defNS, method, short starlark.Value, dflt string, _ bool) (xmlSerial, error) {
	o := xmlSerial{encoding: dflt, decl: decl, method: "xml", short: short == nil || bool(short.Truth())}
	if encoding != nil && encoding != starlark.None {
		s, ok := interp.AsText(encoding)
		if !ok {
			return o, pyrt.Errorf("TypeError", "encoding must be str, not %s", pyrt.TypeName(encoding))
		}
		if s != "" {
			o.encoding = s
		}
	}
	o.unicode = strings.ToLower(o.encoding) == "unicode"
	if method != nil && method != starlark.None {
		s, _ := interp.AsText(method)
		switch s {
		case "xml", "html", "text":
			o.method = s
		case "":
		case "c14n":
			return o, pyrt.Errorf("ValueError", "method='c14n' is not available here: use method='xml'")
		default:
			return o, pyrt.Errorf("ValueError", "unknown method %s", interp.QuoteString(s))
		}
	}
	if defNS != nil && defNS != starlark.None {
		o.defNS, _ = interp.AsText(defNS)
	}
	return o, nil
}

// xmlNSMap is the run's namespace map (register_namespace changes it),
// kept in the thread: CPython's is the module's global.
const xmlNSMapLocal = "onetool.xml.nsmap"

func xmlNamespaceMap(thread *starlark.Thread) map[string]string {
	if thread != nil {
		if m, ok := interp.RunLocal(thread, xmlNSMapLocal).(map[string]string); ok {
			return m
		}
	}
	m := map[string]string{
		"http://www.w3.org/XML/1998/namespace":        "xml",
		"http://www.w3.org/1999/xhtml":                "html",
		"http://www.w3.org/1999/02/22-rdf-syntax-ns#": "rdf",
		"http://schemas.xmlsoap.org/wsdl/":            "wsdl",
		"http://www.w3.org/2001/XMLSchema":            "xs",
		"http://www.w3.org/2001/XMLSchema-instance":   "xsi",
		"http://purl.org/dc/elements/1.1/":            "dc",
	}
	if thread != nil {
		interp.SetRunLocal(thread, xmlNSMapLocal, m)
	}
	return m
}

// xmlRegisterNamespace is register_namespace(prefix, uri).
func xmlRegisterNamespace(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var pv, uv starlark.Value
	if err := (webParams{fn: "register_namespace", names: []string{"prefix", "uri"}, required: 2, maxPos: 2}).unpack(args, kwargs, &pv, &uv); err != nil {
		return nil, err
	}
	prefix, ok1 := interp.AsText(pv)
	uri, ok2 := interp.AsText(uv)
	if !ok1 || !ok2 {
		return nil, pyrt.Errorf("TypeError", "register_namespace() arguments must be str")
	}
	if len(prefix) >= 2 && prefix[:2] == "ns" && isDigits(prefix[2:]) {
		return nil, pyrt.Errorf("ValueError", "Prefix format reserved for internal use")
	}
	m := xmlNamespaceMap(thread)
	for k, v := range m {
		if k == uri || v == prefix {
			delete(m, k)
		}
	}
	if len(m) > 10000 {
		return nil, pyrt.Errorf("ValueError", "too many registered namespaces")
	}
	m[uri] = prefix
	return starlark.None, nil
}

// serializeError is CPython's _raise_serialization_error.
func serializeError(v starlark.Value) error {
	return pyrt.Errorf("TypeError", "cannot serialize %s (type %s)", v.String(), pyrt.TypeName(v))
}

// xmlQNames is _namespaces: the written name of each tag and attribute
// name, and the namespaces to declare (uri → prefix).
func xmlQNames(thread *starlark.Thread, root *xmlElement, defNS string) (map[string]string, map[string]string, error) {
	qnames := map[string]string{}
	namespaces := map[string]string{}
	if defNS != "" {
		namespaces[defNS] = ""
	}
	nsmap := xmlNamespaceMap(thread)
	add := func(q string) error {
		if strings.HasPrefix(q, "{") {
			i := strings.LastIndexByte(q, '}')
			if i < 0 {
				return pyrt.Errorf("ValueError", "not enough values to unpack (expected 2, got 1)")
			}
			uri, tag := q[1:i], q[i+1:]
			prefix, ok := namespaces[uri]
			if !ok {
				prefix, ok = nsmap[uri]
				if !ok {
					prefix = fmt.Sprintf("ns%d", len(namespaces))
				}
				if prefix != "xml" {
					namespaces[uri] = prefix
				}
			}
			if prefix != "" {
				qnames[q] = prefix + ":" + tag
			} else {
				qnames[q] = tag
			}
			return nil
		}
		if defNS != "" {
			return pyrt.Errorf("ValueError", "cannot use non-qualified names with default_namespace option")
		}
		qnames[q] = q
		return nil
	}
	all, err := root.iter(interp.BudgetOf(thread), starlark.None)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range all {
		if t, ok := interp.AsText(e.tag); ok {
			if _, seen := qnames[t]; !seen {
				if err := add(t); err != nil {
					return nil, nil, err
				}
			}
		} else if e.tag != starlark.None && e.tag != xmlCommentTag && e.tag != xmlPITag {
			return nil, nil, serializeError(e.tag)
		}
		for _, k := range e.attrib.Keys() {
			ks, ok := interp.AsText(k)
			if !ok {
				return nil, nil, serializeError(k)
			}
			if _, seen := qnames[ks]; !seen {
				if err := add(ks); err != nil {
					return nil, nil, err
				}
			}
		}
	}
	return qnames, namespaces, nil
}

type xmlWriter struct {
	sb     strings.Builder
	b      *interp.Budget
	qnames map[string]string
	short  bool
	html   bool
	next   int
}

func (w *xmlWriter) write(s string) error {
	w.sb.WriteString(s)
	if w.sb.Len() >= w.next {
		w.next = w.sb.Len() + 1<<16
		if err := w.b.Alloc(1 << 16); err != nil {
			return err
		}
		return w.b.Room(int64(w.sb.Len()))
	}
	return nil
}

func textOf(v starlark.Value) (string, error) {
	s, ok := interp.AsText(v)
	if !ok {
		return "", serializeError(v)
	}
	return s, nil
}

var (
	cdataEscaper      = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	attribEscaper     = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\"", "&quot;", "\r", "&#13;", "\n", "&#10;", "\t", "&#09;")
	attribHTMLEscaper = strings.NewReplacer("&", "&amp;", ">", "&gt;", "\"", "&quot;")
)

var htmlEmpty = map[string]bool{"area": true, "base": true, "basefont": true, "br": true, "col": true, "embed": true, "frame": true,
	"hr": true, "img": true, "input": true, "isindex": true, "link": true, "meta": true, "param": true, "source": true, "track": true, "wbr": true}

func (w *xmlWriter) elem(e *xmlElement, namespaces map[string]string, depth int) error {
	if depth > xmlMaxDepth {
		return pyrt.Errorf("RecursionError", "maximum recursion depth exceeded while serializing an Element")
	}
	if err := w.b.Charge(4); err != nil {
		return err
	}
	switch {
	case e.tag == xmlCommentTag || e.tag == xmlPITag:
		open, close := "<!--", "-->"
		if e.tag == xmlPITag {
			open, close = "<?", "?>"
		}
		t, err := textOf(e.text)
		if err != nil {
			return err
		}
		if w.html {
			t = cdataEscaper.Replace(t)
		}
		if err := w.write(open + t + close); err != nil {
			return err
		}
	case e.tag == starlark.None:
		if s, ok := interp.AsText(e.text); ok && s != "" {
			if err := w.write(cdataEscaper.Replace(s)); err != nil {
				return err
			}
		} else if !ok && e.text != starlark.None {
			return serializeError(e.text)
		}
		for _, k := range e.kids {
			if err := w.elem(k, nil, depth+1); err != nil {
				return err
			}
		}
	default:
		t, _ := interp.AsText(e.tag)
		tag := w.qnames[t]
		if err := w.write("<" + tag); err != nil {
			return err
		}
		if len(namespaces) > 0 {
			type pair struct{ uri, prefix string }
			var ps []pair
			for u, p := range namespaces {
				ps = append(ps, pair{u, p})
			}
			sort.Slice(ps, func(i, j int) bool { return ps[i].prefix < ps[j].prefix })
			for _, p := range ps {
				k := ""
				if p.prefix != "" {
					k = ":" + p.prefix
				}
				if err := w.write(" xmlns" + k + "=\"" + attribEscaper.Replace(p.uri) + "\""); err != nil {
					return err
				}
			}
		}
		for _, kv := range e.attrib.Items() {
			ks, _ := interp.AsText(kv[0])
			v, err := textOf(kv[1])
			if err != nil {
				return err
			}
			if w.html {
				v = attribHTMLEscaper.Replace(v)
			} else {
				v = attribEscaper.Replace(v)
			}
			if err := w.write(" " + w.qnames[ks] + "=\"" + v + "\""); err != nil {
				return err
			}
		}
		text := ""
		if e.text != starlark.None {
			s, err := textOf(e.text)
			if err != nil {
				return err
			}
			text = s
		}
		ltag := strings.ToLower(tag)
		if w.html || text != "" || len(e.kids) > 0 || !w.short {
			if err := w.write(">"); err != nil {
				return err
			}
			if text != "" {
				var err error
				if w.html && (ltag == "script" || ltag == "style") {
					err = w.write(text)
				} else {
					err = w.write(cdataEscaper.Replace(text))
				}
				if err != nil {
					return err
				}
			}
			for _, k := range e.kids {
				if err := w.elem(k, nil, depth+1); err != nil {
					return err
				}
			}
			if !w.html || !htmlEmpty[ltag] {
				if err := w.write("</" + tag + ">"); err != nil {
					return err
				}
			}
		} else if err := w.write(" />"); err != nil {
			return err
		}
	}
	if e.tail != starlark.None {
		s, err := textOf(e.tail)
		if err != nil {
			return err
		}
		if s != "" {
			return w.write(cdataEscaper.Replace(s))
		}
	}
	return nil
}

// serializeXML writes the tree under root as o says: a str for
// encoding="unicode", else bytes in the encoding, characters it cannot
// hold written as &#n;.
func serializeXML(thread *starlark.Thread, root *xmlElement, o xmlSerial) (starlark.Value, error) {
	w := &xmlWriter{b: interp.BudgetOf(thread), short: o.short, html: o.method == "html", next: 1 << 16}
	declared := o.encoding
	if o.unicode {
		declared = "utf-8"
	}
	if o.method == "xml" {
		d := o.decl != nil && o.decl != starlark.None && bool(o.decl.Truth())
		if o.decl == nil || o.decl == starlark.None {
			l := strings.ToLower(o.encoding)
			d = !o.unicode && l != "utf-8" && l != "us-ascii"
		}
		if d {
			if err := w.write("<?xml version='1.0' encoding='" + declared + "'?>\n"); err != nil {
				return nil, err
			}
		}
	}
	if o.method == "text" {
		texts, err := root.itertext(w.b)
		if err != nil {
			return nil, err
		}
		for _, t := range texts {
			s, _ := interp.AsText(t)
			if err := w.write(s); err != nil {
				return nil, err
			}
		}
		if s, ok := interp.AsText(root.tail); ok {
			if err := w.write(s); err != nil {
				return nil, err
			}
		}
	} else {
		qnames, namespaces, err := xmlQNames(thread, root, o.defNS)
		if err != nil {
			return nil, err
		}
		w.qnames = qnames
		if err := w.elem(root, namespaces, 0); err != nil {
			return nil, err
		}
	}
	out := w.sb.String()
	if o.unicode {
		return interp.MakeString(out), nil
	}
	enc, err := encodeXMLText(out, o.encoding)
	if err != nil {
		return nil, err
	}
	return interp.Bytes(enc), nil
}

// encodeXMLText encodes s with errors="xmlcharrefreplace".
func encodeXMLText(s, name string) (string, error) {
	switch strings.ToLower(strings.ReplaceAll(name, "_", "-")) {
	case "utf-8", "utf8":
		return s, nil
	case "us-ascii", "ascii":
		var sb strings.Builder
		for _, r := range s {
			if r < 0x80 {
				sb.WriteRune(r)
			} else {
				fmt.Fprintf(&sb, "&#%d;", r)
			}
		}
		return sb.String(), nil
	}
	e, err := xmlEncoding(name)
	if err != nil {
		return "", err
	}
	return encoding.HTMLEscapeUnsupported(e.NewEncoder()).String(s)
}

// xmlEncoding finds an encoding by Python's name for it. Latin-1 is
// ISO 8859-1 itself (the WHATWG names it takes for windows-1252).
func xmlEncoding(name string) (encoding.Encoding, error) {
	switch strings.ToLower(strings.ReplaceAll(name, "_", "-")) {
	case "latin-1", "latin1", "iso-8859-1", "iso8859-1", "l1", "8859", "cp819":
		return charmap.ISO8859_1, nil
	}
	e, err := htmlindex.Get(name)
	if err != nil || e == nil {
		return nil, pyrt.Errorf("LookupError", "unknown encoding: %s", name)
	}
	return e, nil
}

// xmlToString is tostring(element, encoding="us-ascii", method="xml", *,
// xml_declaration=None, default_namespace=None, short_empty_elements=True).
func xmlToString(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var elem, encoding, method, decl, defNS, short starlark.Value
	if err := (webParams{fn: "tostring", names: []string{"element", "encoding", "method", "xml_declaration", "default_namespace", "short_empty_elements"}, required: 1, maxPos: 3}).unpack(args, kwargs, &elem, &encoding, &method, &decl, &defNS, &short); err != nil {
		return nil, err
	}
	e, ok := elem.(*xmlElement)
	if !ok {
		if t, isTree := elem.(*xmlTree); isTree && t.root != nil {
			e = t.root
		} else {
			return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'iter'", pyrt.TypeName(elem))
		}
	}
	o, err := serialOptions(encoding, decl, defNS, method, short, "us-ascii", true)
	if err != nil {
		return nil, err
	}
	return serializeXML(thread, e, o)
}

// xmlToStringList is tostringlist(...): the same text in a list.
func xmlToStringList(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	v, err := xmlToString(thread, fn, args, kwargs)
	if err != nil {
		return nil, err
	}
	return starlark.NewList([]starlark.Value{v}), nil
}

// xmlDump is dump(elem): the element written to sys.stdout (print's
// output), with a newline unless its tail ends in one.
func xmlDump(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var elem starlark.Value
	if err := (webParams{fn: "dump", names: []string{"elem"}, required: 1, maxPos: 1}).unpack(args, kwargs, &elem); err != nil {
		return nil, err
	}
	e, ok := elem.(*xmlElement)
	if !ok {
		t, isTree := elem.(*xmlTree)
		if !isTree || t.root == nil {
			return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'iter'", pyrt.TypeName(elem))
		}
		e = t.root
	}
	out, err := serializeXML(thread, e, xmlSerial{encoding: "unicode", unicode: true, method: "xml", short: true})
	if err != nil {
		return nil, err
	}
	s, _ := interp.AsText(out)
	end := "\n"
	if t, ok := interp.AsText(e.tail); ok && strings.HasSuffix(t, "\n") {
		end = ""
	}
	print, ok := interp.Predeclared(thread)["print"]
	if !ok {
		print = Builtins()["print"]
	}
	_, err = starlark.Call(thread, print, starlark.Tuple{interp.MakeString(s)}, []starlark.Tuple{{starlark.String("end"), starlark.String(end)}})
	if err != nil {
		return nil, err
	}
	return starlark.None, nil
}

// xmlIndent is indent(tree, space="  ", level=0): whitespace added in
// place so that the tree prints one element a line, as CPython's.
func xmlIndent(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var tree, space, level starlark.Value
	if err := (webParams{fn: "indent", names: []string{"tree", "space", "level"}, required: 1, maxPos: 3}).unpack(args, kwargs, &tree, &space, &level); err != nil {
		return nil, err
	}
	var root *xmlElement
	switch t := tree.(type) {
	case *xmlElement:
		root = t
	case *xmlTree:
		root = t.root
	}
	if root == nil {
		return nil, pyrt.Errorf("TypeError", "indent() argument must be an Element or an ElementTree, not %s", pyrt.TypeName(tree))
	}
	sp := "  "
	if space != nil {
		s, ok := interp.AsText(space)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "can only concatenate str (not \"%s\") to str", pyrt.TypeName(space))
		}
		sp = s
	}
	lv := 0
	if level != nil {
		n, err := starlark.AsInt32(level)
		if err != nil {
			return nil, pyrt.Errorf("TypeError", "'<' not supported between instances of '%s' and 'int'", pyrt.TypeName(level))
		}
		lv = n
	}
	if lv < 0 {
		return nil, pyrt.Errorf("ValueError", "Initial indentation level must be >= 0, got %d", lv)
	}
	if len(root.kids) == 0 {
		return starlark.None, nil
	}
	if err := root.mutable(); err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	if err := b.Alloc(int64(len(sp)) * int64(lv+1)); err != nil {
		return nil, err
	}
	indentations := []string{"\n" + strings.Repeat(sp, lv)}
	blank := func(v starlark.Value) bool {
		s, ok := interp.AsText(v)
		return v == starlark.None || ok && strings.TrimSpace(s) == ""
	}
	var walk func(e *xmlElement, level int) error
	walk = func(e *xmlElement, level int) error {
		if level > xmlMaxDepth {
			return pyrt.Errorf("RecursionError", "maximum recursion depth exceeded in indent()")
		}
		if err := b.Charge(uint64(1 + len(e.kids))); err != nil {
			return err
		}
		child := level + 1
		if child >= len(indentations) {
			if err := b.Alloc(int64(len(indentations[level]) + len(sp))); err != nil {
				return err
			}
			indentations = append(indentations, indentations[level]+sp)
		}
		ci := interp.MakeString(indentations[child])
		if blank(e.text) {
			e.text = ci
		}
		for _, k := range e.kids {
			if len(k.kids) > 0 {
				if err := walk(k, child); err != nil {
					return err
				}
			}
			if blank(k.tail) {
				k.tail = ci
			}
		}
		last := e.kids[len(e.kids)-1]
		if blank(last.tail) {
			last.tail = interp.MakeString(indentations[level])
		}
		return nil
	}
	return starlark.None, walk(root, 0)
}
