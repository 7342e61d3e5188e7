package stdlib

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
	"golang.org/x/text/encoding/htmlindex"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// What urllib.request and requests share: one HTTP exchange is one call
// of web.fetch@get or web.fetch@send (internal/pyops/web.go), so the web
// pack's allowed hosts, SSRF guard, size and time limits, the run's
// meter, the policy (a read_only one refuses @send), stats and audit all
// apply; and the response's headers as a case-insensitive mapping.

// httpReply is a response as the web variants give it.
type httpReply struct {
	status  int
	reason  string
	url     string
	headers [][2]string
	body    interp.Bytes
	history []httpHop
	elapsed int64 // milliseconds
}

type httpHop struct {
	status int
	url    string
}

// httpRequest describes one exchange.
type httpRequest struct {
	method  string
	url     string
	headers [][2]string
	body    []byte // nil: none
	timeout float64
	follow  bool
}

// sendMethods are those of web.fetch@send; every other goes to @get,
// which refuses what it does not send.
func webOp(method string) string {
	switch method {
	case "POST", "PUT", "PATCH", "DELETE":
		return pyops.WebSend
	}
	return pyops.WebGet
}

// httpDo performs q through the run's Host. Its error is the Host's:
// each module turns the kinds into its own exceptions.
func httpDo(thread *starlark.Thread, q httpRequest) (*httpReply, error) {
	op := webOp(q.method)
	args := map[string]any{"method": q.method, "url": q.url, "follow": q.follow}
	if len(q.headers) > 0 {
		hs := make([]any, len(q.headers))
		for i, h := range q.headers {
			hs[i] = []any{h[0], h[1]}
		}
		args["headers"] = hs
	}
	if q.timeout > 0 {
		args["timeout"] = q.timeout
	}
	if op == pyops.WebSend && q.body != nil {
		pyops.PutContent(args, q.body)
	}
	v, err := call(thread, op, args)
	if err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	if m == nil {
		return nil, fmt.Errorf("%s: unexpected result %T", op, v)
	}
	body, err := pyops.GetContent(m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	r := &httpReply{status: int(num(m["status"])), reason: text(m["reason"]), url: text(m["url"]), body: interp.Bytes(body), elapsed: num(m["elapsed_ms"])}
	if hs, ok := m["headers"].([]any); ok {
		for _, h := range hs {
			if kv, ok := h.([]any); ok && len(kv) == 2 {
				r.headers = append(r.headers, [2]string{text(kv[0]), text(kv[1])})
			}
		}
	}
	if hs, ok := m["history"].([]any); ok {
		for _, h := range hs {
			if hm, ok := h.(map[string]any); ok {
				r.history = append(r.history, httpHop{int(num(hm["status"])), text(hm["url"])})
			}
		}
	}
	return r, nil
}

func num(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	case int:
		return int64(x)
	}
	return 0
}

func text(v any) string {
	s, _ := v.(string)
	return s
}

// isBudgetErr reports an error that ends the run: never converted.
func isBudgetErr(err error) bool {
	return errors.Is(err, interp.ErrLimit) || errors.Is(err, interp.ErrCancelled)
}

// checkHeaderText refuses a header that would split a request, as
// http.client's putheader does (ValueError).
func checkHeaderText(name, value string) error {
	if strings.ContainsAny(name, "\r\n\x00: \t") || name == "" {
		return pyrt.Errorf("ValueError", "Invalid header name %s", pyRepr(name))
	}
	if strings.ContainsAny(value, "\r\n\x00") {
		return pyrt.Errorf("ValueError", "Invalid header value %s", pyRepr(value))
	}
	return nil
}

// headerText is a header's name or value given by a program: str, or
// bytes read as Latin-1 (as http.client sends them); other values by
// str() (requests refuses them; http.client formats them).
func headerText(v starlark.Value) (string, bool) {
	if s, ok := interp.AsText(v); ok {
		return s, true
	}
	if b, ok := interp.AsBytes(v); ok {
		return latin1(b), true
	}
	return "", false
}

// decodeText is body decoded as requests' text and .decode(…, errors=
// "replace") do: a known encoding by any of its names, else UTF-8.
func decodeText(body string, encoding string) string {
	switch strings.ToLower(strings.ReplaceAll(encoding, "_", "-")) {
	case "", "utf-8", "utf8":
		return replaceInvalid(body)
	case "iso-8859-1", "latin-1", "latin1", "iso8859-1":
		return latin1(body)
	case "ascii", "us-ascii":
		var b strings.Builder
		for i := 0; i < len(body); i++ {
			if body[i] < 0x80 {
				b.WriteByte(body[i])
			} else {
				b.WriteRune(utf8.RuneError)
			}
		}
		return b.String()
	}
	if enc, err := htmlindex.Get(encoding); err == nil {
		if s, err := enc.NewDecoder().String(body); err == nil {
			return s
		}
	}
	return replaceInvalid(body)
}

// replaceInvalid is UTF-8 with each invalid byte as U+FFFD.
func replaceInvalid(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func latin1(s string) string {
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
	}
	return string(r)
}

// contentType splits a Content-Type into its media type (lower case)
// and its charset parameter.
func contentType(v string) (media, charset string) {
	parts := strings.Split(v, ";")
	media = strings.ToLower(strings.TrimSpace(parts[0]))
	for _, p := range parts[1:] {
		k, val, ok := strings.Cut(strings.TrimSpace(p), "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "charset") {
			charset = strings.Trim(strings.TrimSpace(val), `"'`)
		}
	}
	return media, charset
}

// headerMap is the headers of a response: requests' CaseInsensitiveDict
// (one value a name, repeated ones joined with ", " as urllib3 does;
// settable, for Session.headers) or, with email set, http.client's
// HTTPMessage (every header kept, a missing one None, get_all).
type headerMap struct {
	email   bool
	entries [][2]string // in order; names as last set
	frozen  bool
	// index is the position of each name's first entry, by its lower
	// case, made on first use: a response of 100,000 short headers
	// (a hostile server's megabyte) made a search per header quadratic.
	index map[string]int
}

var (
	_ starlark.IterableMapping = (*headerMap)(nil)
	_ starlark.HasSetKey       = (*headerMap)(nil)
	_ starlark.Sequence        = (*headerMap)(nil)
	_ starlark.HasAttrs        = (*headerMap)(nil)
	_ starlark.Comparable      = (*headerMap)(nil)
)

func newHeaderMap(email bool, hs [][2]string) *headerMap {
	m := &headerMap{email: email}
	var joined map[int][]string // a repeated header's values, joined once at the end
	for _, h := range hs {
		if email {
			m.add(h[0], h[1])
			continue
		}
		if i := m.find(h[0]); i >= 0 {
			if joined == nil {
				joined = map[int][]string{}
			}
			if joined[i] == nil {
				joined[i] = []string{m.entries[i][1]}
			}
			joined[i] = append(joined[i], h[1])
		} else {
			m.add(h[0], h[1])
		}
	}
	for i, vs := range joined {
		m.entries[i][1] = strings.Join(vs, ", ")
	}
	return m
}

func (m *headerMap) find(name string) int {
	if m.index == nil {
		m.index = make(map[string]int, len(m.entries))
		for i, e := range m.entries {
			if k := strings.ToLower(e[0]); !hasKey(m.index, k) {
				m.index[k] = i
			}
		}
	}
	if i, ok := m.index[strings.ToLower(name)]; ok {
		return i
	}
	return -1
}

func hasKey(m map[string]int, k string) bool { _, ok := m[k]; return ok }

// add appends an entry, keeping the index.
func (m *headerMap) add(name, value string) {
	if i := m.find(name); i < 0 {
		m.index[strings.ToLower(name)] = len(m.entries)
	}
	m.entries = append(m.entries, [2]string{name, value})
}

func (m *headerMap) lookup(name string) (string, bool) {
	if i := m.find(name); i >= 0 {
		return m.entries[i][1], true
	}
	return "", false
}

func (m *headerMap) set(name, value string) {
	if i := m.find(name); i >= 0 {
		m.entries[i] = [2]string{name, value}
		return
	}
	m.add(name, value)
}

func (m *headerMap) del(name string) bool {
	i := m.find(name)
	if i < 0 {
		return false
	}
	m.entries = append(m.entries[:i:i], m.entries[i+1:]...)
	m.index = nil // positions moved: made again when next asked
	return true
}

func (m *headerMap) className() string {
	if m.email {
		return "HTTPMessage"
	}
	return "CaseInsensitiveDict"
}

func (m *headerMap) String() string {
	if m.email {
		var b strings.Builder
		for _, e := range m.entries {
			b.WriteString(e[0] + ": " + e[1] + "\n")
		}
		return b.String() + "\n"
	}
	return m.dict().String()
}

// dict is the mapping as a dict (its repr, dict(headers), ==).
func (m *headerMap) dict() *starlark.Dict {
	d := starlark.NewDict(len(m.entries))
	for _, e := range m.entries {
		_ = d.SetKey(starlark.String(e[0]), starlark.String(e[1]))
	}
	return d
}

func (m *headerMap) Type() string         { return m.className() }
func (m *headerMap) Freeze()              { m.frozen = true }
func (m *headerMap) Truth() starlark.Bool { return len(m.entries) > 0 }
func (m *headerMap) Hash() (uint32, error) {
	return 0, fmt.Errorf("unhashable type: '%s'", m.className())
}
func (m *headerMap) Len() int { return len(m.entries) }

func (m *headerMap) Held(visit func(starlark.Value)) {
	for _, e := range m.entries {
		visit(starlark.String(e[0]))
		visit(starlark.String(e[1]))
	}
}

func (m *headerMap) Get(k starlark.Value) (starlark.Value, bool, error) {
	name, ok := interp.AsText(k)
	if !ok {
		return nil, false, nil
	}
	if v, ok := m.lookup(name); ok {
		return starlark.String(v), true, nil
	}
	if m.email {
		return starlark.None, true, nil // msg['missing'] is None
	}
	return nil, false, nil
}

func (m *headerMap) SetKey(k, v starlark.Value) error {
	if m.frozen {
		return fmt.Errorf("cannot insert into frozen %s", m.className())
	}
	name, ok := headerText(k)
	value, ok2 := headerText(v)
	if !ok || !ok2 {
		return pyrt.Errorf("TypeError", "header names and values must be str or bytes, not %s", pyrt.TypeName(v))
	}
	if m.email {
		m.add(name, value)
		return nil
	}
	m.set(name, value)
	return nil
}

func (m *headerMap) Items() []starlark.Tuple {
	out := make([]starlark.Tuple, len(m.entries))
	for i, e := range m.entries {
		out[i] = starlark.Tuple{starlark.String(e[0]), starlark.String(e[1])}
	}
	return out
}

func (m *headerMap) Iterate() starlark.Iterator {
	keys := make([]starlark.Value, len(m.entries))
	for i, e := range m.entries {
		keys[i] = starlark.String(e[0])
	}
	return starlark.NewList(keys).Iterate()
}

func (m *headerMap) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.CompareDepth(op, m.dict(), y.(*headerMap).dict(), depth)
}

func (m *headerMap) AttrNames() []string {
	names := []string{"get", "items", "keys", "values", "copy", "update", "pop", "setdefault"}
	if m.email {
		names = append(names, "get_all", "get_content_type", "get_content_charset", "as_string")
	}
	sort.Strings(names)
	return names
}

func (m *headerMap) Attr(name string) (starlark.Value, error) {
	method := func(fn func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) starlark.Value {
		return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return fn(args, kwargs)
		}).BindReceiver(m)
	}
	list := func(f func(e [2]string) starlark.Value) starlark.Value {
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(m.entries))
			for i, e := range m.entries {
				out[i] = f(e)
			}
			return starlark.NewList(out), nil
		})
	}
	switch name {
	case "get":
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var k, dflt starlark.Value = nil, starlark.None
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &k, &dflt); err != nil {
				return nil, err
			}
			if s, ok := interp.AsText(k); ok {
				if v, ok := m.lookup(s); ok {
					return starlark.String(v), nil
				}
			}
			return dflt, nil
		}), nil
	case "items":
		return list(func(e [2]string) starlark.Value { return starlark.Tuple{starlark.String(e[0]), starlark.String(e[1])} }), nil
	case "keys":
		return list(func(e [2]string) starlark.Value { return starlark.String(e[0]) }), nil
	case "values":
		return list(func(e [2]string) starlark.Value { return starlark.String(e[1]) }), nil
	case "copy":
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return &headerMap{email: m.email, entries: append([][2]string(nil), m.entries...)}, nil
		}), nil
	case "update":
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) > 1 {
				return nil, pyrt.Errorf("TypeError", "update expected at most 1 argument, got %d", len(args))
			}
			if len(args) == 1 {
				pairs, err := mappingPairs(args[0])
				if err != nil {
					return nil, err
				}
				for _, kv := range pairs {
					if err := m.SetKey(kv[0], kv[1]); err != nil {
						return nil, err
					}
				}
			}
			for _, kv := range kwargs {
				if err := m.SetKey(kv[0], kv[1]); err != nil {
					return nil, err
				}
			}
			return starlark.None, nil
		}), nil
	case "pop":
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var k, dflt starlark.Value
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &k, &dflt); err != nil {
				return nil, err
			}
			if m.frozen {
				return nil, fmt.Errorf("cannot delete from frozen %s", m.className())
			}
			s, _ := interp.AsText(k)
			if v, ok := m.lookup(s); ok {
				m.del(s)
				return starlark.String(v), nil
			}
			if dflt != nil {
				return dflt, nil
			}
			return nil, pyrt.ErrorWithAttrs("KeyError", pyRepr(s), nil)
		}), nil
	case "setdefault":
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var k, dflt starlark.Value = nil, starlark.None
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &k, &dflt); err != nil {
				return nil, err
			}
			s, _ := interp.AsText(k)
			if v, ok := m.lookup(s); ok {
				return starlark.String(v), nil
			}
			return dflt, m.SetKey(k, dflt)
		}), nil
	}
	if !m.email {
		return nil, nil
	}
	switch name {
	case "get_all":
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var k, dflt starlark.Value = nil, starlark.None
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &k, &dflt); err != nil {
				return nil, err
			}
			s, _ := interp.AsText(k)
			var out []starlark.Value
			for _, e := range m.entries {
				if strings.EqualFold(e[0], s) {
					out = append(out, starlark.String(e[1]))
				}
			}
			if out == nil {
				return dflt, nil
			}
			return starlark.NewList(out), nil
		}), nil
	case "get_content_type":
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			v, _ := m.lookup("Content-Type")
			media, _ := contentType(v)
			if strings.Count(media, "/") != 1 {
				media = "text/plain"
			}
			return starlark.String(media), nil
		}), nil
	case "get_content_charset":
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var dflt starlark.Value = starlark.None
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0, &dflt); err != nil {
				return nil, err
			}
			v, _ := m.lookup("Content-Type")
			if _, cs := contentType(v); cs != "" {
				return starlark.String(strings.ToLower(cs)), nil
			}
			return dflt, nil
		}), nil
	case "as_string":
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return starlark.String(m.String()), nil
		}), nil
	}
	return nil, nil
}

// mappingPairs are the (key, value) pairs of a dict, a mapping or a
// sequence of pairs (dict.update's argument).
func mappingPairs(v starlark.Value) ([][2]starlark.Value, error) {
	var out [][2]starlark.Value
	if m, ok := v.(starlark.IterableMapping); ok {
		for _, kv := range m.Items() {
			out = append(out, [2]starlark.Value{kv[0], kv[1]})
		}
		return out, nil
	}
	it, ok := v.(starlark.Iterable)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "'%s' object is not iterable", pyrt.TypeName(v))
	}
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		seq, ok := x.(starlark.Indexable)
		if !ok || seq.Len() != 2 {
			return nil, pyrt.Errorf("ValueError", "need a mapping or pairs of key and value, got %s", pyrt.TypeName(x))
		}
		out = append(out, [2]starlark.Value{seq.Index(0), seq.Index(1)})
	}
	return out, nil
}

// copyMap is a copy of m (a session's headers, for one request).
func (m *headerMap) copyMap() *headerMap {
	return &headerMap{email: m.email, entries: append([][2]string(nil), m.entries...)}
}
