package stdlib

import (
	"fmt"
	"strings"
	"unsafe"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// XML is the xml package with xml.etree and xml.etree.ElementTree, the
// module programs use for feeds, sitemaps and XML APIs: parse, build,
// search (ElementPath) and serialise trees as CPython 3.11 does.
func XML() *starlarkstruct.Module {
	fn := func(name string, f interp.BuiltinFunc) *starlark.Builtin { return interp.NewBuiltin(name, f) }
	et := &starlarkstruct.Module{Name: "xml.etree.ElementTree", Members: starlark.StringDict{
		"Element":               xmlElementClass,
		"ElementTree":           xmlTreeClass,
		"SubElement":            fn("SubElement", xmlSubElement),
		"ParseError":            xmlParseError,
		"fromstring":            fn("fromstring", xmlFromString),
		"XML":                   fn("XML", xmlFromString),
		"fromstringlist":        fn("fromstringlist", xmlFromStringList),
		"parse":                 fn("parse", xmlParseFile),
		"iterparse":             fn("iterparse", xmlIterParse),
		"tostring":              fn("tostring", xmlToString),
		"tostringlist":          fn("tostringlist", xmlToStringList),
		"dump":                  fn("dump", xmlDump),
		"indent":                fn("indent", xmlIndent),
		"iselement":             fn("iselement", xmlIsElement),
		"register_namespace":    fn("register_namespace", xmlRegisterNamespace),
		"Comment":               xmlCommentTag,
		"ProcessingInstruction": xmlPITag,
		"PI":                    xmlPITag,
		"VERSION":               starlark.String("1.3.0"),
	}}
	etree := &starlarkstruct.Module{Name: "xml.etree", Members: starlark.StringDict{"ElementTree": et}}
	return &starlarkstruct.Module{Name: "xml", Members: starlark.StringDict{"etree": etree}}
}

var (
	xmlParseError    = pyrt.NewModuleClass("xml.etree.ElementTree.ParseError", "SyntaxError")
	xmlElementClass  = &pyClass{module: "xml.etree.ElementTree", name: "Element", is: isOf[*xmlElement], ctor: newXMLElement}
	xmlTreeClass     = &pyClass{module: "xml.etree.ElementTree", name: "ElementTree", is: isOf[*xmlTree], ctor: newXMLTree}
	xmlCommentTag    = interp.NewBuiltin("Comment", xmlComment)
	xmlPITag         = interp.NewBuiltin("ProcessingInstruction", xmlPI)
	xmlTagAttrsNames = []string{"attrib", "tag", "tail", "text"}
)

// ---- Element ----

// xmlElement is an Element: a tag (a str, or the Comment or
// ProcessingInstruction function), its attributes (a dict programs may
// change), text, tail and children.
type xmlElement struct {
	tag        starlark.Value
	attrib     *starlark.Dict
	text, tail starlark.Value
	kids       []*xmlElement
	frozen     bool
}

var (
	_ starlark.HasAttrs    = (*xmlElement)(nil)
	_ starlark.HasSetField = (*xmlElement)(nil)
	_ starlark.Indexable   = (*xmlElement)(nil)
	_ starlark.Sliceable   = (*xmlElement)(nil)
	_ starlark.HasSetIndex = (*xmlElement)(nil)
	_ starlark.Iterable    = (*xmlElement)(nil)
	_ interp.Holder        = (*xmlElement)(nil)
	_ pyrt.ItemDeleter     = (*xmlElement)(nil)
)

func (e *xmlElement) PyClass() starlark.Value { return xmlElementClass }
func (e *xmlElement) Type() string            { return "xml.etree.ElementTree.Element" }
func (e *xmlElement) Truth() starlark.Bool    { return len(e.kids) > 0 }
func (e *xmlElement) Hash() (uint32, error)   { return uint32(uintptr(unsafe.Pointer(e)) >> 4), nil }
func (e *xmlElement) Len() int                { return len(e.kids) }
func (e *xmlElement) Index(i int) starlark.Value {
	return e.kids[i]
}

// String is the repr: CPython's, the address being the Go pointer of the
// element (stable for its life, as id() is).
func (e *xmlElement) String() string {
	tag := e.tag.String()
	if t, ok := interp.AsText(e.tag); ok {
		tag = interp.QuoteString(t)
	} else if e.tag == xmlCommentTag || e.tag == xmlPITag {
		tag = fmt.Sprintf("<function %s at 0x%x>", e.tag.(*starlark.Builtin).Name(), uintptr(unsafe.Pointer(e.tag.(*starlark.Builtin))))
	}
	return fmt.Sprintf("<Element %s at 0x%x>", tag, uintptr(unsafe.Pointer(e)))
}

// Freeze freezes the element and everything under it: a tree kept in a
// session's frozen globals.
func (e *xmlElement) Freeze() {
	stack := []*xmlElement{e}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x.frozen {
			continue
		}
		x.frozen = true
		x.attrib.Freeze()
		stack = append(stack, x.kids...)
	}
}

// Held visits what the element holds, for the memory meter (which walks
// deep trees with its own stack).
func (e *xmlElement) Held(visit func(starlark.Value)) {
	visit(e.tag)
	visit(e.attrib)
	visit(e.text)
	visit(e.tail)
	for _, k := range e.kids {
		visit(k)
	}
}

func (e *xmlElement) mutable() error {
	if e.frozen {
		return pyrt.Errorf("TypeError", "cannot modify a frozen Element")
	}
	return nil
}

func (e *xmlElement) Slice(start, end, step int) starlark.Value {
	var out []starlark.Value
	if step > 0 {
		for i := start; i < end; i += step {
			out = append(out, e.kids[i])
		}
	} else {
		for i := start; i > end; i += step {
			out = append(out, e.kids[i])
		}
	}
	return starlark.NewList(out)
}

func (e *xmlElement) SetIndex(i int, v starlark.Value) error {
	if err := e.mutable(); err != nil {
		return err
	}
	k, ok := v.(*xmlElement)
	if !ok {
		return pyrt.Errorf("TypeError", "expected an Element, not %s", pyrt.TypeName(v))
	}
	e.kids[i] = k
	return nil
}

// DeleteItem is del e[i].
func (e *xmlElement) DeleteItem(_ *starlark.Thread, k starlark.Value) error {
	if err := e.mutable(); err != nil {
		return err
	}
	i, err := starlark.AsInt32(k)
	if err != nil {
		return pyrt.Errorf("TypeError", "element indices must be integers")
	}
	if i < 0 {
		i += len(e.kids)
	}
	if i < 0 || i >= len(e.kids) {
		return pyrt.Errorf("IndexError", "child assignment index out of range")
	}
	e.kids = append(e.kids[:i:i], e.kids[i+1:]...)
	return nil
}

func (e *xmlElement) Iterate() starlark.Iterator {
	return &xmlElemIter{elems: append([]*xmlElement(nil), e.kids...)}
}

type xmlElemIter struct {
	elems []*xmlElement
	i     int
}

func (it *xmlElemIter) Next(p *starlark.Value) bool {
	if it.i >= len(it.elems) {
		return false
	}
	*p = it.elems[it.i]
	it.i++
	return true
}
func (it *xmlElemIter) Done() {}

func (e *xmlElement) AttrNames() []string {
	return []string{"append", "attrib", "clear", "extend", "find", "findall", "findtext", "get", "insert", "items", "iter",
		"iterfind", "itertext", "keys", "makeelement", "remove", "set", "tag", "tail", "text"}
}

func (e *xmlElement) SetField(name string, v starlark.Value) error {
	if err := e.mutable(); err != nil {
		return err
	}
	switch name {
	case "tag":
		e.tag = v
	case "text":
		e.text = v
	case "tail":
		e.tail = v
	case "attrib":
		d, ok := v.(*starlark.Dict)
		if !ok {
			return pyrt.Errorf("TypeError", "attrib must be dict, not %s", pyrt.TypeName(v))
		}
		e.attrib = d
	default:
		return pyrt.Errorf("AttributeError", "'xml.etree.ElementTree.Element' object has no attribute '%s'", name)
	}
	return nil
}

func (e *xmlElement) Attr(name string) (starlark.Value, error) {
	switch name {
	case "tag":
		return e.tag, nil
	case "text":
		return e.text, nil
	case "tail":
		return e.tail, nil
	case "attrib":
		return e.attrib, nil
	}
	var f interp.BuiltinFunc
	switch name {
	case "get":
		f = e.get
	case "set":
		f = e.set
	case "keys":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := noArgs("keys", args, kwargs); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, 0, e.attrib.Len())
			for _, k := range e.attrib.Keys() {
				out = append(out, k)
			}
			return starlark.NewList(out), nil
		}
	case "items":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := noArgs("items", args, kwargs); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, 0, e.attrib.Len())
			for _, kv := range e.attrib.Items() {
				out = append(out, kv)
			}
			return starlark.NewList(out), nil
		}
	case "append":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := (webParams{fn: "append", names: []string{"subelement"}, required: 1, maxPos: 1, builtin: true}).unpack(args, kwargs, &v); err != nil {
				return nil, err
			}
			k, err := asElement("append", v)
			if err != nil {
				return nil, err
			}
			return starlark.None, e.add(thread, len(e.kids), k)
		}
	case "extend":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := (webParams{fn: "extend", names: []string{"elements"}, required: 1, maxPos: 1, builtin: true}).unpack(args, kwargs, &v); err != nil {
				return nil, err
			}
			it, ok := v.(starlark.Iterable)
			if !ok {
				return nil, pyrt.Errorf("TypeError", "expected sequence, not \"%s\"", pyrt.TypeName(v))
			}
			var add []*xmlElement
			iter := it.Iterate()
			defer iter.Done()
			var x starlark.Value
			for iter.Next(&x) {
				k, err := asElement("extend", x)
				if err != nil {
					return nil, pyrt.Errorf("TypeError", "expected an Element, not \"%s\"", pyrt.TypeName(x))
				}
				add = append(add, k)
			}
			for _, k := range add {
				if err := e.add(thread, len(e.kids), k); err != nil {
					return nil, err
				}
			}
			return starlark.None, nil
		}
	case "insert":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var iv, v starlark.Value
			if err := (webParams{fn: "insert", names: []string{"index", "subelement"}, required: 2, maxPos: 2, builtin: true}).unpack(args, kwargs, &iv, &v); err != nil {
				return nil, err
			}
			i, err := starlark.AsInt32(iv)
			if err != nil {
				return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(iv))
			}
			k, err := asElement("insert", v)
			if err != nil {
				return nil, err
			}
			n := len(e.kids)
			if i < 0 {
				i = max(i+n, 0)
			}
			return starlark.None, e.add(thread, min(i, n), k)
		}
	case "remove":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := (webParams{fn: "remove", names: []string{"subelement"}, required: 1, maxPos: 1, builtin: true}).unpack(args, kwargs, &v); err != nil {
				return nil, err
			}
			k, err := asElement("remove", v)
			if err != nil {
				return nil, err
			}
			if err := e.mutable(); err != nil {
				return nil, err
			}
			for i, x := range e.kids {
				if x == k {
					e.kids = append(e.kids[:i:i], e.kids[i+1:]...)
					return starlark.None, nil
				}
			}
			return nil, pyrt.Errorf("ValueError", "list.remove(x): x not in list")
		}
	case "clear":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := noArgs("clear", args, kwargs); err != nil {
				return nil, err
			}
			if err := e.mutable(); err != nil {
				return nil, err
			}
			e.kids, e.attrib, e.text, e.tail = nil, starlark.NewDict(0), starlark.None, starlark.None
			return starlark.None, nil
		}
	case "find", "findall", "findtext", "iterfind":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return xmlFind(thread, name, e, args, kwargs)
		}
	case "iter":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var tag starlark.Value = starlark.None
			if err := (webParams{fn: "iter", names: []string{"tag"}, maxPos: 1, builtin: true}).unpack(args, kwargs, &tag); err != nil {
				return nil, err
			}
			all, err := e.iter(interp.BudgetOf(thread), tag)
			if err != nil {
				return nil, err
			}
			return listIter(all), nil
		}
	case "itertext":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := noArgs("itertext", args, kwargs); err != nil {
				return nil, err
			}
			texts, err := e.itertext(interp.BudgetOf(thread))
			if err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(texts))
			for i, t := range texts {
				out[i] = t
			}
			return &xmlValueIter{vals: out}, nil
		}
	case "makeelement":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var tag, attrib starlark.Value
			if err := (webParams{fn: "makeelement", names: []string{"tag", "attrib"}, required: 2, maxPos: 2, builtin: true}).unpack(args, kwargs, &tag, &attrib); err != nil {
				return nil, err
			}
			return makeXMLElement(thread, tag, attrib, nil)
		}
	case "__copy__":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			c := &xmlElement{tag: e.tag, attrib: starlark.NewDict(e.attrib.Len()), text: e.text, tail: e.tail, kids: append([]*xmlElement(nil), e.kids...)}
			for _, kv := range e.attrib.Items() {
				_ = c.attrib.SetKey(kv[0], kv[1])
			}
			return c, nil
		}
	case "__deepcopy__":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return e.deepCopy(interp.BudgetOf(thread), 0)
		}
	default:
		return nil, nil
	}
	return interp.NewBuiltin(name, f).BindReceiver(e), nil
}

func asElement(fn string, v starlark.Value) (*xmlElement, error) {
	k, ok := v.(*xmlElement)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "%s() argument must be xml.etree.ElementTree.Element, not %s", fn, pyrt.TypeName(v))
	}
	return k, nil
}

// add inserts child k at i, refusing a cycle (an element inside
// itself), which CPython allows and then loops on.
func (e *xmlElement) add(thread *starlark.Thread, i int, k *xmlElement) error {
	if err := e.mutable(); err != nil {
		return err
	}
	if k == e {
		return pyrt.Errorf("ValueError", "an Element cannot be its own child")
	}
	if len(k.kids) > 0 {
		all, err := k.iter(interp.BudgetOf(thread), starlark.None)
		if err != nil {
			return err
		}
		for _, x := range all {
			if x == e {
				return pyrt.Errorf("ValueError", "an Element cannot be inside its own child")
			}
		}
	}
	if err := interp.BudgetOf(thread).Alloc(16); err != nil {
		return err
	}
	e.kids = append(e.kids, nil)
	copy(e.kids[i+1:], e.kids[i:])
	e.kids[i] = k
	return nil
}

func (e *xmlElement) get(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var key starlark.Value
	var dflt starlark.Value = starlark.None
	if err := (webParams{fn: "get", names: []string{"key", "default"}, required: 1, maxPos: 2, builtin: true}).unpack(args, kwargs, &key, &dflt); err != nil {
		return nil, err
	}
	v, found, err := e.attrib.Get(key)
	if err != nil {
		return nil, err
	}
	if !found {
		return dflt, nil
	}
	return v, nil
}

func (e *xmlElement) set(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var key, v starlark.Value
	if err := (webParams{fn: "set", names: []string{"key", "value"}, required: 2, maxPos: 2, builtin: true}).unpack(args, kwargs, &key, &v); err != nil {
		return nil, err
	}
	if err := e.mutable(); err != nil {
		return nil, err
	}
	return starlark.None, e.attrib.SetKey(key, v)
}

// iter lists the element and its descendants in document order whose
// tag is tag (None or "*": all), without recursion.
func (e *xmlElement) iter(b *interp.Budget, tag starlark.Value) ([]*xmlElement, error) {
	all := tag == starlark.None
	want, isText := interp.AsText(tag)
	if isText && want == "*" {
		all = true
	}
	var out []*xmlElement
	stack := []*xmlElement{e}
	for n := 0; len(stack) > 0; n++ {
		if err := b.Charge(1); err != nil {
			return nil, err
		}
		if n > 1<<24 {
			return nil, pyrt.Errorf("RecursionError", "maximum recursion depth exceeded: an Element is inside itself")
		}
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if all {
			out = append(out, x)
		} else if t, ok := interp.AsText(x.tag); ok && isText && t == want {
			out = append(out, x)
		} else if !isText && x.tag == tag {
			out = append(out, x)
		}
		for i := len(x.kids) - 1; i >= 0; i-- {
			stack = append(stack, x.kids[i])
		}
	}
	return out, nil
}

// itertext lists the texts of the element and its descendants, as
// CPython's itertext: text, then each child's texts and tail; comments
// and processing instructions give nothing but their tails.
func (e *xmlElement) itertext(b *interp.Budget) ([]starlark.Value, error) {
	var out []starlark.Value
	type frame struct {
		e    *xmlElement
		tail bool // emit e's tail (not e itself)
	}
	stack := []frame{{e: e}}
	for len(stack) > 0 {
		if err := b.Charge(1); err != nil {
			return nil, err
		}
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.tail {
			if s, ok := interp.AsText(f.e.tail); ok && s != "" {
				out = append(out, f.e.tail)
			}
			continue
		}
		if _, ok := interp.AsText(f.e.tag); !ok && f.e.tag != starlark.None {
			continue
		}
		if s, ok := interp.AsText(f.e.text); ok && s != "" {
			out = append(out, f.e.text)
		}
		for i := len(f.e.kids) - 1; i >= 0; i-- {
			stack = append(stack, frame{e: f.e.kids[i], tail: true}, frame{e: f.e.kids[i]})
		}
	}
	return out, nil
}

func (e *xmlElement) deepCopy(b *interp.Budget, depth int) (*xmlElement, error) {
	if depth > xmlMaxDepth {
		return nil, pyrt.Errorf("RecursionError", "maximum recursion depth exceeded while copying an Element")
	}
	if err := b.Alloc(int64(64 + 16*len(e.kids))); err != nil {
		return nil, err
	}
	c := &xmlElement{tag: e.tag, attrib: starlark.NewDict(e.attrib.Len()), text: e.text, tail: e.tail}
	for _, kv := range e.attrib.Items() {
		_ = c.attrib.SetKey(kv[0], kv[1])
	}
	for _, k := range e.kids {
		ck, err := k.deepCopy(b, depth+1)
		if err != nil {
			return nil, err
		}
		c.kids = append(c.kids, ck)
	}
	return c, nil
}

// listIter is an iterator over elements (iter(), iterfind()).
func listIter(elems []*xmlElement) *xmlValueIter {
	vals := make([]starlark.Value, len(elems))
	for i, x := range elems {
		vals[i] = x
	}
	return &xmlValueIter{vals: vals}
}

// xmlValueIter is the iterator iter(), itertext() and iterfind() return:
// a Python iterator (next() works on it), over a list made at the call.
type xmlValueIter struct {
	vals []starlark.Value
	i    int
}

var _ starlark.Iterable = (*xmlValueIter)(nil)

func (it *xmlValueIter) String() string        { return "<_elementtree._element_iterator object>" }
func (it *xmlValueIter) Type() string          { return "_element_iterator" }
func (it *xmlValueIter) Freeze()               {}
func (it *xmlValueIter) Truth() starlark.Bool  { return true }
func (it *xmlValueIter) Hash() (uint32, error) { return uint32(uintptr(unsafe.Pointer(it)) >> 4), nil }
func (it *xmlValueIter) Iterate() starlark.Iterator {
	return &xmlIterCursor{it: it}
}
func (it *xmlValueIter) Held(visit func(starlark.Value)) {
	for _, v := range it.vals[it.i:] {
		visit(v)
	}
}

// Step is next(it): the iterator is consumed as a Python iterator is.
func (it *xmlValueIter) Step(*starlark.Thread) (starlark.Value, bool, error) {
	v, ok := it.take()
	return v, ok, nil
}

func (it *xmlValueIter) take() (starlark.Value, bool) {
	if it.i >= len(it.vals) {
		return nil, false
	}
	v := it.vals[it.i]
	it.vals[it.i] = nil
	it.i++
	return v, true
}

type xmlIterCursor struct{ it *xmlValueIter }

func (c *xmlIterCursor) Next(p *starlark.Value) bool {
	v, ok := c.it.take()
	if ok {
		*p = v
	}
	return ok
}
func (c *xmlIterCursor) Done() {}

// newXMLElement is Element(tag, attrib={}, **extra).
func newXMLElement(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) < 1 {
		return nil, pyrt.Errorf("TypeError", "Element() missing required argument 'tag' (pos 1)")
	}
	if len(args) > 2 {
		return nil, pyrt.Errorf("TypeError", "Element() takes at most 2 arguments (%d given)", len(args))
	}
	var attrib starlark.Value
	if len(args) == 2 {
		attrib = args[1]
	}
	attrib, kwargs = attribKeyword(attrib, kwargs)
	return makeXMLElement(thread, args[0], attrib, kwargs)
}

func makeXMLElement(thread *starlark.Thread, tag, attrib starlark.Value, extra []starlark.Tuple) (*xmlElement, error) {
	if err := interp.BudgetOf(thread).Alloc(64); err != nil {
		return nil, err
	}
	e := &xmlElement{tag: tag, attrib: starlark.NewDict(len(extra)), text: starlark.None, tail: starlark.None}
	if attrib != nil && attrib != starlark.None {
		d, ok := attrib.(starlark.IterableMapping)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "attrib must be dict, not %s", pyrt.TypeName(attrib))
		}
		for _, kv := range d.Items() {
			if err := e.attrib.SetKey(kv[0], kv[1]); err != nil {
				return nil, err
			}
		}
	}
	for _, kv := range extra {
		if err := e.attrib.SetKey(kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// attribKeyword takes attrib= out of the keyword arguments (the rest are
// attributes).
func attribKeyword(attrib starlark.Value, kwargs []starlark.Tuple) (starlark.Value, []starlark.Tuple) {
	for i, kv := range kwargs {
		if k, _ := interp.AsText(kv[0]); k == "attrib" && attrib == nil {
			rest := append(append([]starlark.Tuple(nil), kwargs[:i]...), kwargs[i+1:]...)
			return kv[1], rest
		}
	}
	return attrib, kwargs
}

// xmlSubElement is SubElement(parent, tag, attrib={}, **extra).
func xmlSubElement(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) < 2 {
		return nil, pyrt.Errorf("TypeError", "SubElement() takes at least 2 arguments (%d given)", len(args))
	}
	if len(args) > 3 {
		return nil, pyrt.Errorf("TypeError", "SubElement() takes at most 3 arguments (%d given)", len(args))
	}
	parent, ok := args[0].(*xmlElement)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "SubElement() argument 1 must be xml.etree.ElementTree.Element, not %s", pyrt.TypeName(args[0]))
	}
	var attrib starlark.Value
	if len(args) == 3 {
		attrib = args[2]
	}
	attrib, kwargs = attribKeyword(attrib, kwargs)
	e, err := makeXMLElement(thread, args[1], attrib, kwargs)
	if err != nil {
		return nil, err
	}
	return e, parent.add(thread, len(parent.kids), e)
}

// xmlComment is Comment(text=None): an element whose tag is Comment.
func xmlComment(thread *starlark.Thread, self *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var text starlark.Value = starlark.None
	if err := (webParams{fn: "Comment", names: []string{"text"}, maxPos: 1}).unpack(args, kwargs, &text); err != nil {
		return nil, err
	}
	e, err := makeXMLElement(thread, self, nil, nil) // self is Comment
	if err != nil {
		return nil, err
	}
	e.text = text
	return e, nil
}

// xmlPI is ProcessingInstruction(target, text=None).
func xmlPI(thread *starlark.Thread, self *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var target starlark.Value
	var text starlark.Value = starlark.None
	if err := (webParams{fn: "ProcessingInstruction", names: []string{"target", "text"}, required: 1, maxPos: 2}).unpack(args, kwargs, &target, &text); err != nil {
		return nil, err
	}
	e, err := makeXMLElement(thread, self, nil, nil) // self is ProcessingInstruction
	if err != nil {
		return nil, err
	}
	e.text = target
	if text != starlark.None {
		t, _ := interp.AsText(target)
		s, _ := interp.AsText(text)
		e.text = interp.MakeString(t + " " + s)
	}
	return e, nil
}

func xmlIsElement(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := (webParams{fn: "iselement", names: []string{"element"}, required: 1, maxPos: 1}).unpack(args, kwargs, &v); err != nil {
		return nil, err
	}
	_, ok := v.(*xmlElement)
	return starlark.Bool(ok), nil
}

// ---- parsing ----

// xmlText is the document of fromstring's text argument as UTF-8: str
// as it is, bytes decoded by their BOM or XML declaration as expat
// decodes them.
func xmlText(v starlark.Value) (string, error) {
	if s, ok := interp.AsText(v); ok {
		return s, nil
	}
	raw, ok := interp.AsBytes(v)
	if !ok {
		return "", pyrt.Errorf("TypeError", "a bytes-like object is required, not '%s'", pyrt.TypeName(v))
	}
	switch {
	case strings.HasPrefix(raw, "\xef\xbb\xbf"):
		return raw[3:], nil
	case strings.HasPrefix(raw, "\xff\xfe") || strings.HasPrefix(raw, "\xfe\xff") || strings.HasPrefix(raw, "<\x00?\x00") || strings.HasPrefix(raw, "\x00<\x00?"):
		name := "utf-16le"
		if raw[0] == '\xfe' || raw[0] == 0 {
			name = "utf-16be"
		}
		return decodeWith(name, raw)
	}
	if strings.HasPrefix(raw, "<?xml") {
		end := strings.Index(raw, "?>")
		if end > 0 {
			decl := raw[:end]
			if i := strings.Index(decl, "encoding"); i >= 0 {
				rest := strings.TrimLeft(decl[i+8:], " \t\r\n")
				if strings.HasPrefix(rest, "=") {
					rest = strings.TrimLeft(rest[1:], " \t\r\n")
					if len(rest) > 1 && (rest[0] == '"' || rest[0] == '\'') {
						if j := strings.IndexByte(rest[1:], rest[0]); j >= 0 {
							enc := strings.ToLower(rest[1 : 1+j])
							switch enc {
							case "utf-8", "utf8":
							default:
								return decodeWith(enc, raw)
							}
						}
					}
				}
			}
		}
	}
	return raw, nil
}

func decodeWith(name, raw string) (string, error) {
	if name == "us-ascii" || name == "ascii" {
		for i := 0; i < len(raw); i++ {
			if raw[i] >= 0x80 {
				return "", xmlParseError.Raise(fmt.Sprintf("not well-formed (invalid token): line 1, column %d", i), starlark.StringDict{
					"code": starlark.MakeInt(xmlErrInvalidToken), "position": starlark.Tuple{starlark.MakeInt(1), starlark.MakeInt(i)}})
			}
		}
		return raw, nil
	}
	enc, err := xmlEncoding(name)
	if err != nil {
		return "", err
	}
	out, err := enc.NewDecoder().String(raw)
	if err != nil {
		return "", xmlParseError.Raise("not well-formed (invalid token): line 1, column 0", starlark.StringDict{
			"code": starlark.MakeInt(xmlErrInvalidToken), "position": starlark.Tuple{starlark.MakeInt(1), starlark.MakeInt(0)}})
	}
	return out, nil
}

// parseDocument parses text into a tree, turning a syntax error into
// ParseError with CPython's code and position.
func parseDocument(thread *starlark.Thread, src string, events map[string]bool) (*xmlElement, []xmlEvent, error) {
	b := interp.BudgetOf(thread)
	if err := b.Alloc(int64(len(src))); err != nil {
		return nil, nil, err
	}
	root, evs, err := parseXML(b, src, events)
	if err != nil {
		if se, ok := err.(*xmlSyntaxError); ok {
			return nil, nil, xmlParseError.Raise(se.Error(), starlark.StringDict{
				"code":     starlark.MakeInt(se.code),
				"position": starlark.Tuple{starlark.MakeInt(se.line), starlark.MakeInt(se.col)},
			})
		}
		return nil, nil, err
	}
	return root, evs, nil
}

// xmlFromString is fromstring(text, parser=None) and XML(text, parser=None).
func xmlFromString(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var text, parser starlark.Value
	if err := (webParams{fn: fn.Name(), names: []string{"text", "parser"}, required: 1, maxPos: 2}).unpack(args, kwargs, &text, &parser); err != nil {
		return nil, err
	}
	if parser != nil && parser != starlark.None {
		return nil, pyrt.Errorf("NotImplementedError", "%s(parser=...) is not available: custom XMLParser targets are left out; parse with the default parser", fn.Name())
	}
	src, err := xmlText(text)
	if err != nil {
		return nil, err
	}
	root, _, err := parseDocument(thread, src, nil)
	if err != nil {
		return nil, err
	}
	return root, nil
}

// xmlFromStringList is fromstringlist(sequence, parser=None).
func xmlFromStringList(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var seq, parser starlark.Value
	if err := (webParams{fn: "fromstringlist", names: []string{"sequence", "parser"}, required: 1, maxPos: 2}).unpack(args, kwargs, &seq, &parser); err != nil {
		return nil, err
	}
	it, ok := seq.(starlark.Iterable)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "'%s' object is not iterable", pyrt.TypeName(seq))
	}
	var sb strings.Builder
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		s, err := xmlText(x)
		if err != nil {
			return nil, err
		}
		if err := interp.BudgetOf(thread).Alloc(int64(sb.Len() + len(s))); err != nil {
			return nil, err
		}
		sb.WriteString(s)
	}
	root, _, err := parseDocument(thread, sb.String(), nil)
	if err != nil {
		return nil, err
	}
	return root, nil
}

// readSource reads parse()'s source: a path (opened through open(), so
// through the file pack) or a file object (its read()).
func readSource(thread *starlark.Thread, source starlark.Value) (string, error) {
	var f starlark.Value
	opened := false
	if _, ok := interp.AsText(source); ok || isPathLike(source) {
		var err error
		f, err = openFile(thread, source, "rb", openOptions{Buffering: -1, Closefd: true})
		if err != nil {
			return "", err
		}
		opened = true
	} else if _, ok := interp.AsBytes(source); ok {
		var err error
		f, err = openFile(thread, source, "rb", openOptions{Buffering: -1, Closefd: true})
		if err != nil {
			return "", err
		}
		opened = true
	} else {
		f = source
	}
	read, err := pyrt.GetAttr(thread, f, "read")
	if err != nil {
		return "", pyrt.Errorf("TypeError", "parse() source must be a file name or a file object, not %s", pyrt.TypeName(source))
	}
	data, err := starlark.Call(thread, read, nil, nil)
	if opened {
		if cl, cerr := pyrt.GetAttr(thread, f, "close"); cerr == nil {
			_, _ = starlark.Call(thread, cl, nil, nil)
		}
	}
	if err != nil {
		return "", err
	}
	return xmlText(data)
}

// isPathLike reports a pathlib path (anything with __fspath__).
func isPathLike(v starlark.Value) bool {
	if h, ok := v.(starlark.HasAttrs); ok {
		if a, err := h.Attr("__fspath__"); err == nil && a != nil {
			return true
		}
	}
	return false
}

// xmlParseFile is parse(source, parser=None): an ElementTree.
func xmlParseFile(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var source, parser starlark.Value
	if err := (webParams{fn: "parse", names: []string{"source", "parser"}, required: 1, maxPos: 2}).unpack(args, kwargs, &source, &parser); err != nil {
		return nil, err
	}
	if parser != nil && parser != starlark.None {
		return nil, pyrt.Errorf("NotImplementedError", "parse(parser=...) is not available: custom XMLParser targets are left out; parse with the default parser")
	}
	src, err := readSource(thread, source)
	if err != nil {
		return nil, err
	}
	root, _, err := parseDocument(thread, src, nil)
	if err != nil {
		return nil, err
	}
	return &xmlTree{root: root}, nil
}

// xmlIterParse is iterparse(source, events=None): the document is parsed
// whole, then its events are given in order (clearing elements as they
// end saves no memory here; the run's budget bounds the document).
func xmlIterParse(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var source, events, parser starlark.Value
	if err := (webParams{fn: "iterparse", names: []string{"source", "events", "parser"}, required: 1, maxPos: 3}).unpack(args, kwargs, &source, &events, &parser); err != nil {
		return nil, err
	}
	want := map[string]bool{"end": true}
	if events != nil && events != starlark.None {
		want = map[string]bool{}
		it, ok := events.(starlark.Iterable)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "'%s' object is not iterable", pyrt.TypeName(events))
		}
		iter := it.Iterate()
		defer iter.Done()
		var x starlark.Value
		for iter.Next(&x) {
			s, _ := interp.AsText(x)
			switch s {
			case "start", "end", "start-ns", "end-ns", "comment", "pi":
				want[s] = true
			default:
				return nil, pyrt.Errorf("ValueError", "unknown event %s", x.String())
			}
		}
	}
	src, err := readSource(thread, source)
	if err != nil {
		return nil, err
	}
	_, evs, err := parseDocument(thread, src, want)
	if err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(evs))
	for i, ev := range evs {
		var v starlark.Value
		switch ev.kind {
		case "start-ns":
			v = starlark.Tuple{interp.MakeString(ev.ns[0]), interp.MakeString(ev.ns[1])}
		case "end-ns":
			v = starlark.None
		default:
			v = ev.elem
		}
		out[i] = starlark.Tuple{starlark.String(ev.kind), v}
	}
	return &xmlValueIter{vals: out}, nil
}

// ---- ElementTree ----

// xmlTree is an ElementTree: a root element and the methods that act on
// the whole document.
type xmlTree struct {
	root *xmlElement // nil for ElementTree() without one
}

var _ starlark.HasAttrs = (*xmlTree)(nil)

func (t *xmlTree) PyClass() starlark.Value { return xmlTreeClass }
func (t *xmlTree) String() string {
	return fmt.Sprintf("<xml.etree.ElementTree.ElementTree object at 0x%x>", uintptr(unsafe.Pointer(t)))
}
func (t *xmlTree) Type() string          { return "xml.etree.ElementTree.ElementTree" }
func (t *xmlTree) Freeze()               {}
func (t *xmlTree) Truth() starlark.Bool  { return true }
func (t *xmlTree) Hash() (uint32, error) { return uint32(uintptr(unsafe.Pointer(t)) >> 4), nil }
func (t *xmlTree) Held(visit func(starlark.Value)) {
	if t.root != nil {
		visit(t.root)
	}
}
func (t *xmlTree) AttrNames() []string {
	return []string{"find", "findall", "findtext", "getroot", "iter", "iterfind", "parse", "write"}
}

func newXMLTree(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var element, file starlark.Value
	if err := (webParams{fn: "ElementTree", names: []string{"element", "file"}, maxPos: 2}).unpack(args, kwargs, &element, &file); err != nil {
		return nil, err
	}
	t := &xmlTree{}
	if element != nil && element != starlark.None {
		e, ok := element.(*xmlElement)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "expected an Element, not %s", pyrt.TypeName(element))
		}
		t.root = e
	}
	if file != nil && file != starlark.None {
		src, err := readSource(thread, file)
		if err != nil {
			return nil, err
		}
		root, _, err := parseDocument(thread, src, nil)
		if err != nil {
			return nil, err
		}
		t.root = root
	}
	return t, nil
}

func (t *xmlTree) Attr(name string) (starlark.Value, error) {
	var f interp.BuiltinFunc
	switch name {
	case "getroot":
		f = func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			if t.root == nil {
				return starlark.None, nil
			}
			return t.root, nil
		}
	case "find", "findall", "findtext", "iterfind":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if t.root == nil {
				return nil, pyrt.Errorf("AttributeError", "'NoneType' object has no attribute '%s'", name)
			}
			// An absolute path is taken from the root, as CPython does
			// (with a FutureWarning).
			if len(args) > 0 {
				if p, ok := interp.AsText(args[0]); ok && strings.HasPrefix(p, "/") {
					args = append(starlark.Tuple{interp.MakeString("." + p)}, args[1:]...)
				}
			}
			return xmlFind(thread, name, t.root, args, kwargs)
		}
	case "iter":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if t.root == nil {
				return nil, pyrt.Errorf("AttributeError", "'NoneType' object has no attribute 'iter'")
			}
			it, _ := t.root.Attr("iter")
			return starlark.Call(thread, it, args, kwargs)
		}
	case "parse":
		f = func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var source, parser starlark.Value
			if err := (webParams{fn: "parse", names: []string{"source", "parser"}, required: 1, maxPos: 2}).unpack(args, kwargs, &source, &parser); err != nil {
				return nil, err
			}
			src, err := readSource(thread, source)
			if err != nil {
				return nil, err
			}
			root, _, err := parseDocument(thread, src, nil)
			if err != nil {
				return nil, err
			}
			t.root = root
			return root, nil
		}
	case "write":
		f = t.write
	default:
		return nil, nil
	}
	return interp.NewBuiltin(name, f).BindReceiver(t), nil
}

// write is ElementTree.write(file, encoding=None, xml_declaration=None,
// default_namespace=None, method=None, *, short_empty_elements=True): a
// path is opened through open() (the file pack), a file object written.
func (t *xmlTree) write(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var file, encoding, decl, defNS, method, short starlark.Value
	if err := (webParams{fn: "write", names: []string{"file_or_filename", "encoding", "xml_declaration", "default_namespace", "method", "short_empty_elements"}, required: 1, maxPos: 5}).unpack(args, kwargs, &file, &encoding, &decl, &defNS, &method, &short); err != nil {
		return nil, err
	}
	if t.root == nil {
		return nil, pyrt.Errorf("AssertionError", "")
	}
	o, err := serialOptions(encoding, decl, defNS, method, short, "us-ascii", false)
	if err != nil {
		return nil, err
	}
	out, err := serializeXML(thread, t.root, o)
	if err != nil {
		return nil, err
	}
	var f starlark.Value
	opened := false
	if _, ok := interp.AsText(file); ok || isPathLike(file) {
		mode := "wb"
		if o.unicode {
			mode = "w"
		}
		opts := openOptions{Buffering: -1, Closefd: true}
		if o.unicode {
			opts.Encoding = "utf-8"
		}
		f, err = openFile(thread, file, mode, opts)
		if err != nil {
			return nil, err
		}
		opened = true
	} else {
		f = file
	}
	w, err := pyrt.GetAttr(thread, f, "write")
	if err != nil {
		return nil, err
	}
	if _, err := starlark.Call(thread, w, starlark.Tuple{out}, nil); err != nil {
		return nil, err
	}
	if opened {
		cl, err := pyrt.GetAttr(thread, f, "close")
		if err != nil {
			return nil, err
		}
		if _, err := starlark.Call(thread, cl, nil, nil); err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}
