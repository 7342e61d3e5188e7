package stdlib

import (
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// urllib.request and urllib.error (issue 31): urlopen(url or Request)
// as CPython's, over the web pack's variants (httpio.go). Redirects are
// followed; a status that is not 2xx raises HTTPError, which is a
// response too (code, reason, headers, read()); a refused host, a
// timeout or a failed connection raise URLError with the pack's text as
// its reason.

var (
	urlErrorClass  = pyrt.NewModuleClass("urllib.error.URLError", "OSError")
	httpErrorClass = pyrt.NewModuleSubclass("urllib.error.HTTPError", urlErrorClass)

	urlRequestClass  = &pyClass{module: "urllib.request", name: "Request", is: isOf[*urlRequest], ctor: newURLRequest}
	urlResponseClass = &pyClass{module: "http.client", name: "HTTPResponse", is: isOf[*urlResponse]}
)

// urllibRequest is the urllib.request module.
func urllibRequest() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "urllib.request", Members: starlark.StringDict{
		"urlopen":   interp.NewBuiltin("urlopen", urlopen),
		"Request":   urlRequestClass,
		"URLError":  urlErrorClass,
		"HTTPError": httpErrorClass,
	}}
}

// urllibError is the urllib.error module.
func urllibError() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "urllib.error", Members: starlark.StringDict{
		"URLError":  urlErrorClass,
		"HTTPError": httpErrorClass,
	}}
}

// urlRequest is urllib.request.Request.
type urlRequest struct {
	url     string
	data    starlark.Value // None or bytes
	headers [][2]string    // names capitalized, as Request.add_header keeps them
	method  starlark.Value // None: POST with data, else GET
	frozen  bool
}

func (r *urlRequest) String() string              { return "<urllib.request.Request object>" }
func (r *urlRequest) Type() string                { return "Request" }
func (r *urlRequest) Freeze()                     { r.frozen = true }
func (r *urlRequest) Truth() starlark.Bool        { return true }
func (r *urlRequest) Hash() (uint32, error)       { return 0, errors.New("unhashable type: 'Request'") }
func (r *urlRequest) PyClass() starlark.Value     { return urlRequestClass }
func (r *urlRequest) Held(v func(starlark.Value)) { v(r.data); v(r.method) }

func (r *urlRequest) getMethod() string {
	if m, ok := interp.AsText(r.method); ok {
		return m
	}
	if r.data != starlark.None {
		return "POST"
	}
	return "GET"
}

// capitalize is str.capitalize, which Request applies to header names.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + strings.ToLower(s[1:])
}

func (r *urlRequest) setHeader(k, v string) {
	k = capitalize(k)
	for i, h := range r.headers {
		if h[0] == k {
			r.headers[i][1] = v
			return
		}
	}
	r.headers = append(r.headers, [2]string{k, v})
}

func (r *urlRequest) header(k string) (string, bool) {
	k = capitalize(k)
	for _, h := range r.headers {
		if h[0] == k {
			return h[1], true
		}
	}
	return "", false
}

// splitScheme is urllib's _splittype: the scheme before ':' and the rest.
func splitScheme(u string) (scheme string, ok bool) {
	i := strings.IndexByte(u, ':')
	if i <= 0 {
		return "", false
	}
	for _, c := range u[:i] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return "", false
		}
	}
	return strings.ToLower(u[:i]), true
}

func newURLRequest(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var url, data, headers, origin, unverifiable, method starlark.Value
	p := webParams{fn: "Request", names: []string{"url", "data", "headers", "origin_req_host", "unverifiable", "method"}, required: 1, maxPos: 6, self: true}
	if err := p.unpack(args, kwargs, &url, &data, &headers, &origin, &unverifiable, &method); err != nil {
		return nil, err
	}
	u, ok := interp.AsText(url)
	if !ok {
		return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'strip'", pyrt.TypeName(url))
	}
	u = strings.TrimSpace(u)
	if _, ok := splitScheme(u); !ok {
		return nil, pyrt.Errorf("ValueError", "unknown url type: %s", pyRepr(u))
	}
	r := &urlRequest{url: u, data: starlark.None, method: starlark.None}
	if data != nil {
		r.data = data
	}
	if method != nil {
		if _, ok := interp.AsText(method); !ok && method != starlark.None {
			return nil, pyrt.Errorf("TypeError", "method must be a str, not %s", pyrt.TypeName(method))
		}
		r.method = method
	}
	if headers != nil && headers != starlark.None {
		pairs, err := mappingPairs(headers)
		if err != nil {
			return nil, err
		}
		for _, kv := range pairs {
			k, ok1 := headerText(kv[0])
			v, ok2 := headerText(kv[1])
			if !ok1 || !ok2 {
				return nil, pyrt.Errorf("TypeError", "header names and values must be str, not %s", pyrt.TypeName(kv[1]))
			}
			r.setHeader(k, v)
		}
	}
	return r, nil
}

func (r *urlRequest) AttrNames() []string {
	return []string{"add_header", "data", "full_url", "get_full_url", "get_header", "get_method", "has_header",
		"header_items", "headers", "host", "method", "remove_header", "selector", "type"}
}

func (r *urlRequest) Attr(name string) (starlark.Value, error) {
	method := func(fn func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) starlark.Value {
		return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return fn(args, kwargs)
		}).BindReceiver(r)
	}
	scheme, _ := splitScheme(r.url)
	rest := strings.TrimPrefix(r.url[len(scheme)+1:], "//")
	host, path, _ := strings.Cut(rest, "/")
	switch name {
	case "full_url":
		return starlark.String(r.url), nil
	case "get_full_url":
		return method(func(starlark.Tuple, []starlark.Tuple) (starlark.Value, error) { return starlark.String(r.url), nil }), nil
	case "data":
		return r.data, nil
	case "method":
		return r.method, nil
	case "type":
		return starlark.String(scheme), nil
	case "host":
		return starlark.String(host), nil
	case "selector":
		return starlark.String("/" + path), nil
	case "headers":
		d := starlark.NewDict(len(r.headers))
		for _, h := range r.headers {
			_ = d.SetKey(starlark.String(h[0]), starlark.String(h[1]))
		}
		return d, nil
	case "header_items":
		return method(func(starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			out := make([]starlark.Value, len(r.headers))
			for i, h := range r.headers {
				out[i] = starlark.Tuple{starlark.String(h[0]), starlark.String(h[1])}
			}
			return starlark.NewList(out), nil
		}), nil
	case "get_method":
		return method(func(starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.String(r.getMethod()), nil
		}), nil
	case "add_header":
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var k, v starlark.Value
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 2, &k, &v); err != nil {
				return nil, err
			}
			ks, ok1 := headerText(k)
			vs, ok2 := headerText(v)
			if !ok1 || !ok2 {
				return nil, pyrt.Errorf("TypeError", "header names and values must be str")
			}
			if r.frozen {
				return nil, errors.New("cannot change a frozen Request")
			}
			r.setHeader(ks, vs)
			return starlark.None, nil
		}), nil
	case "has_header", "get_header", "remove_header":
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var k starlark.Value
			var dflt starlark.Value = starlark.None
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &k, &dflt); err != nil {
				return nil, err
			}
			ks, _ := interp.AsText(k)
			v, ok := r.header(ks)
			switch name {
			case "has_header":
				return starlark.Bool(ok), nil
			case "remove_header":
				for i, h := range r.headers {
					if h[0] == ks { // CPython's remove_header does not capitalize
						r.headers = append(r.headers[:i:i], r.headers[i+1:]...)
						break
					}
				}
				return starlark.None, nil
			}
			if !ok {
				return dflt, nil
			}
			return starlark.String(v), nil
		}), nil
	}
	return nil, nil
}

func (r *urlRequest) SetField(name string, v starlark.Value) error {
	if r.frozen {
		return errors.New("cannot change a frozen Request")
	}
	switch name {
	case "data":
		r.data = v
	case "method":
		r.method = v
	case "full_url":
		s, ok := interp.AsText(v)
		if !ok {
			return pyrt.Errorf("TypeError", "full_url must be a str")
		}
		r.url = s
	default:
		return pyrt.Errorf("AttributeError", "'Request' object has no attribute '%s'", name)
	}
	return nil
}

// urlopen is urllib.request.urlopen(url, data=None, timeout=None).
func urlopen(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var url, data, timeout, cafile, capath, cadefault, context starlark.Value
	p := webParams{fn: "urlopen", names: []string{"url", "data", "timeout", "cafile", "capath", "cadefault", "context"}, required: 1, maxPos: 3}
	if err := p.unpack(args, kwargs, &url, &data, &timeout, &cafile, &capath, &cadefault, &context); err != nil {
		return nil, err
	}
	req, ok := url.(*urlRequest)
	if !ok {
		v, err := newURLRequest(thread, nil, starlark.Tuple{url}, nil)
		if err != nil {
			return nil, err
		}
		req = v.(*urlRequest)
	}
	if data != nil && data != starlark.None {
		req = &urlRequest{url: req.url, data: data, headers: req.headers, method: req.method}
	}
	var body []byte
	if req.data != starlark.None {
		if _, ok := interp.AsText(req.data); ok {
			return nil, pyrt.Errorf("TypeError", "POST data should be bytes, an iterable of bytes, or a file object. It cannot be of type str.")
		}
		b, ok := interp.AsBytes(req.data)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "POST data should be bytes, an iterable of bytes, or a file object. It cannot be of type %s.", pyrt.TypeName(req.data))
		}
		body = []byte(b)
	}
	secs, err := timeoutSeconds(timeout)
	if err != nil {
		return nil, err
	}
	scheme, _ := splitScheme(req.url)
	if scheme != "http" && scheme != "https" {
		return nil, urlErrorClass.Raise(fmt.Sprintf("<urlopen error unknown url type: %s>", scheme),
			starlark.StringDict{"reason": starlark.String("unknown url type: " + scheme)})
	}
	headers := append([][2]string(nil), req.headers...)
	if body != nil {
		if _, ok := req.header("Content-type"); !ok {
			headers = append(headers, [2]string{"Content-Type", "application/x-www-form-urlencoded"})
		}
	}
	for _, h := range headers {
		if err := checkHeaderText(h[0], h[1]); err != nil {
			return nil, err
		}
	}
	reply, err := httpDo(thread, httpRequest{method: req.getMethod(), url: req.url, headers: headers, body: body, timeout: secs, follow: true})
	if err != nil {
		return nil, urlError(err)
	}
	resp := &urlResponse{r: reply, headers: newHeaderMap(true, reply.headers)}
	if reply.status < 200 || reply.status > 299 {
		return nil, resp.httpError()
	}
	return resp, nil
}

// timeoutSeconds reads a timeout= (None, int or float seconds).
func timeoutSeconds(v starlark.Value) (float64, error) {
	switch x := v.(type) {
	case nil, starlark.NoneType:
		return 0, nil
	case starlark.Int:
		f, _ := starlark.AsFloat(x)
		if f <= 0 {
			return 0, pyrt.Errorf("ValueError", "Timeout value must be positive, got %v", x)
		}
		return f, nil
	case starlark.Float:
		if x <= 0 {
			return 0, pyrt.Errorf("ValueError", "Timeout value must be positive, got %v", x)
		}
		return float64(x), nil
	}
	return 0, pyrt.Errorf("TypeError", "timeout must be a number or None, not %s", pyrt.TypeName(v))
}

// urlError is the exception of a failed exchange: URLError with the
// pack's text as its reason (a TimeoutError for a timeout, as CPython's
// socket timeout); a policy's refusal is PermissionError; the run's own
// stop passes through.
func urlError(err error) error {
	var ex *pyrt.Exception
	if isBudgetErr(err) || errors.As(err, &ex) {
		return err
	}
	if errors.Is(err, pyops.ErrDenied) {
		return pyrt.OSError("PermissionError", 13, err.Error(), "")
	}
	if pyops.KindOf(err) == nil {
		return err
	}
	var reason starlark.Value = starlark.String(err.Error())
	if errors.Is(err, pyops.ErrTimeout) {
		if v, e := pyrt.BuiltinClass("TimeoutError").CallInternal(nil, starlark.Tuple{starlark.String(err.Error())}, nil); e == nil {
			reason = v
		}
	}
	return urlErrorClass.Raise("<urlopen error "+err.Error()+">", starlark.StringDict{"reason": reason})
}

// urlResponse is http.client.HTTPResponse as urlopen returns it: the body
// read from a position.
type urlResponse struct {
	r       *httpReply
	headers *headerMap
	pos     int
	closed  bool
}

func (r *urlResponse) String() string              { return "<http.client.HTTPResponse object>" }
func (r *urlResponse) Type() string                { return "HTTPResponse" }
func (r *urlResponse) Freeze()                     {}
func (r *urlResponse) Truth() starlark.Bool        { return true }
func (r *urlResponse) Hash() (uint32, error)       { return 0, nil }
func (r *urlResponse) PyClass() starlark.Value     { return urlResponseClass }
func (r *urlResponse) Held(v func(starlark.Value)) { v(r.r.body); v(r.headers) }

func (r *urlResponse) Iterate() starlark.Iterator { return &urlLines{r: r} }

type urlLines struct{ r *urlResponse }

func (it *urlLines) Next(p *starlark.Value) bool {
	line := it.r.readline(-1)
	if line == "" {
		return false
	}
	*p = interp.Bytes(line)
	return true
}
func (it *urlLines) Done() {}

func (r *urlResponse) rest() string {
	if r.closed || r.pos >= len(r.r.body) {
		return ""
	}
	return string(r.r.body[r.pos:])
}

func (r *urlResponse) readline(limit int) string {
	rest := r.rest()
	n := strings.IndexByte(rest, '\n') + 1
	if n == 0 {
		n = len(rest)
	}
	if limit >= 0 && n > limit {
		n = limit
	}
	r.pos += n
	return rest[:n]
}

// httpError is HTTPError for this response: str "HTTP Error 404: Not
// Found", and the response's attributes (read() reads its body).
func (r *urlResponse) httpError() error {
	attrs := starlark.StringDict{
		"code":     starlark.MakeInt(r.r.status),
		"status":   starlark.MakeInt(r.r.status),
		"reason":   starlark.String(r.r.reason),
		"msg":      starlark.String(r.r.reason),
		"hdrs":     r.headers,
		"headers":  r.headers,
		"url":      starlark.String(r.r.url),
		"filename": starlark.String(r.r.url),
	}
	for _, name := range []string{"read", "readline", "readlines", "getcode", "geturl", "info", "close"} {
		v, _ := r.Attr(name)
		attrs[name] = v
	}
	return httpErrorClass.Raise(fmt.Sprintf("HTTP Error %d: %s", r.r.status, r.r.reason), attrs)
}

func (r *urlResponse) AttrNames() []string {
	return []string{"close", "closed", "code", "getcode", "getheader", "getheaders", "geturl", "headers", "info",
		"isclosed", "msg", "read", "read1", "readable", "readline", "readlines", "reason", "status", "url",
		"__enter__", "__exit__"}
}

func (r *urlResponse) Attr(name string) (starlark.Value, error) {
	method := func(fn func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) starlark.Value {
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return fn(thread, args, kwargs)
		}).BindReceiver(r)
	}
	noArgs := func(v func() starlark.Value) starlark.Value {
		return method(func(_ *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
				return nil, err
			}
			return v(), nil
		})
	}
	switch name {
	case "status", "code":
		return starlark.MakeInt(r.r.status), nil
	case "reason":
		return starlark.String(r.r.reason), nil
	case "headers", "msg":
		return r.headers, nil
	case "url":
		return starlark.String(r.r.url), nil
	case "closed":
		return starlark.Bool(r.closed), nil
	case "getcode":
		return noArgs(func() starlark.Value { return starlark.MakeInt(r.r.status) }), nil
	case "geturl":
		return noArgs(func() starlark.Value { return starlark.String(r.r.url) }), nil
	case "info":
		return noArgs(func() starlark.Value { return r.headers }), nil
	case "isclosed":
		return noArgs(func() starlark.Value { return starlark.Bool(r.closed) }), nil
	case "readable":
		return noArgs(func() starlark.Value { return starlark.True }), nil
	case "getheaders":
		return noArgs(func() starlark.Value {
			items := r.headers.Items()
			out := make([]starlark.Value, len(items))
			for i, t := range items {
				out[i] = t
			}
			return starlark.NewList(out)
		}), nil
	case "close", "__exit__":
		return method(func(_ *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			r.closed = true
			return starlark.None, nil
		}), nil
	case "__enter__":
		return noArgs(func() starlark.Value { return r }), nil
	case "getheader":
		return method(func(_ *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var k starlark.Value
			var dflt starlark.Value = starlark.None
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &k, &dflt); err != nil {
				return nil, err
			}
			ks, _ := interp.AsText(k)
			var vals []string
			for _, e := range r.headers.entries {
				if strings.EqualFold(e[0], ks) {
					vals = append(vals, e[1])
				}
			}
			if vals == nil {
				return dflt, nil
			}
			return starlark.String(strings.Join(vals, ", ")), nil
		}), nil
	case "read", "read1":
		return method(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var amt starlark.Value = starlark.None
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0, &amt); err != nil {
				return nil, err
			}
			rest := r.rest()
			n := len(rest)
			if amt != starlark.None {
				a, err := starlark.AsInt32(amt)
				if err != nil {
					return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(amt))
				}
				if a >= 0 && a < n {
					n = a
				}
			}
			if err := interp.BudgetOf(thread).Charge(uint64(n/4096 + 1)); err != nil {
				return nil, err
			}
			r.pos += n
			if amt == starlark.None && n == len(rest) && r.pos == len(r.r.body) && n == len(r.r.body) {
				return r.r.body, nil // the whole body, shared
			}
			return interp.Bytes(rest[:n]), nil
		}), nil
	case "readline":
		return method(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var limit starlark.Value = starlark.MakeInt(-1)
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0, &limit); err != nil {
				return nil, err
			}
			l := -1
			if limit != starlark.None {
				var err error
				if l, err = starlark.AsInt32(limit); err != nil {
					return nil, err
				}
			}
			return interp.Bytes(r.readline(l)), nil
		}), nil
	case "readlines":
		return method(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var hint starlark.Value = starlark.MakeInt(-1)
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0, &hint); err != nil {
				return nil, err
			}
			var out []starlark.Value
			for {
				if err := interp.BudgetOf(thread).Charge(1); err != nil {
					return nil, err
				}
				line := r.readline(-1)
				if line == "" {
					break
				}
				out = append(out, interp.Bytes(line))
			}
			return starlark.NewList(out), nil
		}), nil
	}
	return nil, nil
}
