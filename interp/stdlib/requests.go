package stdlib

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// requests (issue 31) is not CPython's standard library: it is the
// common subset of the requests package that programs use by reflex
// (get/post/…, Response, Session, requests.exceptions), each exchange a
// call of the web pack's variants (httpio.go), so the allowed hosts, the
// SSRF guard, the limits, redaction, the policy (a read_only one refuses
// POST, PUT, PATCH and DELETE) and the records apply. Texts follow
// requests 2.x.

// requestsVersion is what requests.__version__ and the default
// User-Agent say.
const requestsVersion = "2.34.2"

// requests.exceptions, with requests' hierarchy.
var (
	reqException      = pyrt.NewModuleClass("requests.exceptions.RequestException", "OSError")
	reqInvalidJSON    = pyrt.NewModuleSubclass("requests.exceptions.InvalidJSONError", reqException)
	reqJSONDecode     = pyrt.NewModuleSubclass("requests.exceptions.JSONDecodeError", reqInvalidJSON, pyrt.BuiltinClass("JSONDecodeError"))
	reqHTTPError      = pyrt.NewModuleSubclass("requests.exceptions.HTTPError", reqException)
	reqConnection     = pyrt.NewModuleSubclass("requests.exceptions.ConnectionError", reqException)
	reqProxy          = pyrt.NewModuleSubclass("requests.exceptions.ProxyError", reqConnection)
	reqSSL            = pyrt.NewModuleSubclass("requests.exceptions.SSLError", reqConnection)
	reqTimeout        = pyrt.NewModuleSubclass("requests.exceptions.Timeout", reqException)
	reqConnectTimeout = pyrt.NewModuleSubclass("requests.exceptions.ConnectTimeout", reqConnection, reqTimeout)
	reqReadTimeout    = pyrt.NewModuleSubclass("requests.exceptions.ReadTimeout", reqTimeout)
	reqURLRequired    = pyrt.NewModuleSubclass("requests.exceptions.URLRequired", reqException)
	reqRedirects      = pyrt.NewModuleSubclass("requests.exceptions.TooManyRedirects", reqException)
	reqMissingSchema  = pyrt.NewModuleSubclass("requests.exceptions.MissingSchema", reqException, pyrt.BuiltinClass("ValueError"))
	reqInvalidSchema  = pyrt.NewModuleSubclass("requests.exceptions.InvalidSchema", reqException, pyrt.BuiltinClass("ValueError"))
	reqInvalidURL     = pyrt.NewModuleSubclass("requests.exceptions.InvalidURL", reqException, pyrt.BuiltinClass("ValueError"))
	reqInvalidHeader  = pyrt.NewModuleSubclass("requests.exceptions.InvalidHeader", reqException, pyrt.BuiltinClass("ValueError"))
	reqContentDecode  = pyrt.NewModuleSubclass("requests.exceptions.ContentDecodingError", reqException)

	reqResponseClass = &pyClass{module: "requests.models", name: "Response", is: isOf[*reqResponse]}
	reqSessionClass  = &pyClass{module: "requests.sessions", name: "Session", is: isOf[*reqSession], ctor: newReqSession}
)

// Requests is the requests module.
func Requests() *starlarkstruct.Module {
	exc := starlark.StringDict{}
	for _, c := range []*pyrt.ExcClass{reqException, reqInvalidJSON, reqJSONDecode, reqHTTPError, reqConnection, reqProxy, reqSSL,
		reqTimeout, reqConnectTimeout, reqReadTimeout, reqURLRequired, reqRedirects, reqMissingSchema, reqInvalidSchema,
		reqInvalidURL, reqInvalidHeader, reqContentDecode} {
		exc[c.Name()] = c
	}
	members := starlark.StringDict{
		"exceptions":  &starlarkstruct.Module{Name: "requests.exceptions", Members: exc},
		"Response":    reqResponseClass,
		"Session":     reqSessionClass,
		"session":     interp.NewBuiltin("session", newReqSession),
		"codes":       reqCodes(),
		"__version__": starlark.String(requestsVersion),
	}
	for _, c := range []*pyrt.ExcClass{reqException, reqHTTPError, reqConnection, reqConnectTimeout, reqReadTimeout, reqTimeout,
		reqURLRequired, reqRedirects, reqJSONDecode} {
		members[c.Name()] = c
	}
	for _, m := range []string{"request", "get", "post", "put", "patch", "delete", "head", "options"} {
		members[m] = interp.NewBuiltin(m, reqFunc(nil, m))
	}
	return &starlarkstruct.Module{Name: "requests", Members: members}
}

// reqCodes is requests.codes: the names programs use.
func reqCodes() starlark.Value {
	codes := map[string]int{
		"continue": 100, "ok": 200, "okay": 200, "all_ok": 200, "created": 201, "accepted": 202, "no_content": 204,
		"partial_content": 206, "multiple_choices": 300, "moved_permanently": 301, "moved": 301, "found": 302,
		"see_other": 303, "not_modified": 304, "temporary_redirect": 307, "permanent_redirect": 308,
		"bad_request": 400, "bad": 400, "unauthorized": 401, "payment_required": 402, "forbidden": 403,
		"not_found": 404, "method_not_allowed": 405, "not_allowed": 405, "not_acceptable": 406,
		"request_timeout": 408, "timeout": 408, "conflict": 409, "gone": 410, "precondition_failed": 412,
		"request_entity_too_large": 413, "unsupported_media_type": 415, "teapot": 418, "im_a_teapot": 418,
		"unprocessable_entity": 422, "unprocessable": 422, "too_many_requests": 429, "too_many": 429,
		"internal_server_error": 500, "server_error": 500, "not_implemented": 501, "bad_gateway": 502,
		"service_unavailable": 503, "unavailable": 503, "gateway_timeout": 504,
	}
	d := starlark.StringDict{}
	for k, v := range codes {
		d[k] = starlark.MakeInt(v)
		d[strings.ToUpper(k)] = starlark.MakeInt(v)
	}
	return starlarkstruct.FromStringDict(starlark.String("status_codes"), d)
}

// reqSession is requests.Session: headers and cookies kept between
// requests (in the program's memory only).
type reqSession struct {
	headers *headerMap
	cookies *starlark.Dict
	auth    starlark.Value
	params  *starlark.Dict
}

func defaultReqHeaders() *headerMap {
	return newHeaderMap(false, [][2]string{{"User-Agent", "python-requests/" + requestsVersion},
		{"Accept-Encoding", "gzip, deflate"}, {"Accept", "*/*"}, {"Connection", "keep-alive"}})
}

func newReqSession(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs("Session", args, kwargs, 0); err != nil {
		return nil, err
	}
	return &reqSession{headers: defaultReqHeaders(), cookies: starlark.NewDict(0), auth: starlark.None, params: starlark.NewDict(0)}, nil
}

func (s *reqSession) String() string              { return "<requests.sessions.Session object>" }
func (s *reqSession) Type() string                { return "Session" }
func (s *reqSession) Freeze()                     {}
func (s *reqSession) Truth() starlark.Bool        { return true }
func (s *reqSession) Hash() (uint32, error)       { return 0, nil }
func (s *reqSession) PyClass() starlark.Value     { return reqSessionClass }
func (s *reqSession) Held(v func(starlark.Value)) { v(s.headers); v(s.cookies); v(s.auth); v(s.params) }

func (s *reqSession) AttrNames() []string {
	return []string{"__enter__", "__exit__", "auth", "close", "cookies", "delete", "get", "head", "headers", "options",
		"params", "patch", "post", "put", "request"}
}

func (s *reqSession) Attr(name string) (starlark.Value, error) {
	switch name {
	case "headers":
		return s.headers, nil
	case "cookies":
		return s.cookies, nil
	case "auth":
		return s.auth, nil
	case "params":
		return s.params, nil
	case "request", "get", "post", "put", "patch", "delete", "head", "options":
		return interp.NewBuiltin(name, reqFunc(s, name)).BindReceiver(s), nil
	case "__enter__":
		return interp.NewBuiltin(name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return s, nil
		}).BindReceiver(s), nil
	case "close", "__exit__":
		return interp.NewBuiltin(name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, nil
		}).BindReceiver(s), nil
	}
	return nil, nil
}

func (s *reqSession) SetField(name string, v starlark.Value) error {
	switch name {
	case "headers":
		pairs, err := mappingPairs(v)
		if err != nil {
			return err
		}
		h := newHeaderMap(false, nil)
		for _, kv := range pairs {
			if err := h.SetKey(kv[0], kv[1]); err != nil {
				return err
			}
		}
		s.headers = h
	case "auth":
		s.auth = v
	case "cookies":
		d, ok := v.(*starlark.Dict)
		if !ok {
			return pyrt.Errorf("TypeError", "Session.cookies must be a dict here")
		}
		s.cookies = d
	default:
		return pyrt.Errorf("AttributeError", "'Session' object has no attribute '%s'", name)
	}
	return nil
}

// reqFunc is requests.<verb> or Session.<verb> ("request": the method is
// the first argument).
func reqFunc(s *reqSession, verb string) interp.BuiltinFunc {
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		names := []string{"method", "url", "params", "data", "headers", "cookies", "files", "auth", "timeout",
			"allow_redirects", "proxies", "hooks", "stream", "verify", "cert", "json"}
		maxPos := 16
		switch verb {
		case "request":
		case "post", "put", "patch":
			names = append([]string{"url", "data", "json"}, names[2:]...)
			names = slices3(names)
			maxPos = 3
		case "get":
			names = append([]string{"url", "params"}, without(names[2:], "params")...)
			maxPos = 2
		default:
			names = names[1:]
			maxPos = 1
		}
		vals := make([]starlark.Value, len(names))
		ptrs := make([]*starlark.Value, len(names))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		required := 1
		if verb == "request" {
			required = 2
		}
		if err := (webParams{fn: verb, names: names, required: required, maxPos: maxPos}).unpack(args, kwargs, ptrs...); err != nil {
			return nil, err
		}
		arg := map[string]starlark.Value{}
		for i, n := range names {
			if vals[i] != nil {
				arg[n] = vals[i]
			}
		}
		method := strings.ToUpper(verb)
		if verb == "request" {
			m, ok := interp.AsText(arg["method"])
			if !ok {
				return nil, pyrt.Errorf("TypeError", "method must be a str, not %s", pyrt.TypeName(arg["method"]))
			}
			method = strings.ToUpper(m)
		}
		return reqSend(thread, s, method, arg)
	}
}

// slices3 keeps the first occurrence of each name.
func slices3(names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

func without(names []string, drop string) []string {
	var out []string
	for _, n := range names {
		if n != drop {
			out = append(out, n)
		}
	}
	return out
}

func given(v starlark.Value) bool { return v != nil && v != starlark.None }

// reqSend prepares and sends one request as requests' Session.request
// does: URL checks (MissingSchema, InvalidSchema, InvalidURL), params
// appended, a body from json= or data= (a dict as a form), headers merged
// over the session's, Basic auth, cookies.
func reqSend(thread *starlark.Thread, s *reqSession, method string, arg map[string]starlark.Value) (starlark.Value, error) {
	rawURL, ok := interp.AsText(arg["url"])
	if !ok {
		if b, isBytes := interp.AsBytes(arg["url"]); isBytes {
			rawURL = b
		} else {
			rawURL, _ = interp.Str(interp.BudgetOf(thread), arg["url"])
		}
	}
	rawURL = strings.TrimLeft(rawURL, " \t\n\r\f\v")
	if given(arg["files"]) {
		return nil, pyrt.Errorf("NotImplementedError", "requests' files= (multipart upload) is not provided here: send the body with data= or json=")
	}
	full, err := reqURL(thread, rawURL, s, arg["params"])
	if err != nil {
		return nil, err
	}
	headers := defaultReqHeaders()
	if s != nil {
		headers = s.headers.copyMap()
	}
	if given(arg["headers"]) {
		pairs, err := mappingPairs(arg["headers"])
		if err != nil {
			return nil, err
		}
		for _, kv := range pairs {
			k, _ := headerText(kv[0])
			if kv[1] == starlark.None {
				headers.del(k)
				continue
			}
			v, ok := headerText(kv[1])
			if !ok {
				return nil, reqInvalidHeader.Raise(fmt.Sprintf("Header part (%s) from ('%s', %s) must be of type str or bytes, not %s",
					reprOf(kv[1]), k, reprOf(kv[1]), pyrt.TypeName(kv[1])), nil)
			}
			headers.set(k, v)
		}
	}
	var body []byte
	switch {
	case given(arg["data"]):
		d := arg["data"]
		if t, ok := interp.AsText(d); ok {
			body = []byte(t)
		} else if b, ok := interp.AsBytes(d); ok {
			body = []byte(b)
		} else {
			form, err := reqEncodeParams(thread, d)
			if err != nil {
				return nil, err
			}
			body = []byte(form)
			if _, ok := headers.lookup("Content-Type"); !ok {
				headers.set("Content-Type", "application/x-www-form-urlencoded")
			}
		}
	case given(arg["json"]):
		v, err := jsonDumps(thread, interp.NewBuiltin("dumps", jsonDumps), starlark.Tuple{arg["json"]},
			[]starlark.Tuple{{starlark.String("allow_nan"), starlark.False}})
		if err != nil {
			var ex *pyrt.Exception
			if errors.As(err, &ex) && ex.Class == "ValueError" {
				return nil, reqInvalidJSON.Raise(fmt.Sprintf("Out of range float values are not JSON compliant: %s", ex.Msg), nil)
			}
			return nil, err
		}
		t, _ := interp.AsText(v)
		body = []byte(t)
		if _, ok := headers.lookup("Content-Type"); !ok {
			headers.set("Content-Type", "application/json")
		}
	}
	if body == nil && (method == "POST" || method == "PUT" || method == "PATCH") {
		body = []byte{} // requests sends Content-Length: 0
	}
	auth := arg["auth"]
	if !given(auth) && s != nil {
		auth = s.auth
	}
	if given(auth) {
		pair, ok := auth.(starlark.Indexable)
		if !ok || pair.Len() != 2 {
			return nil, pyrt.Errorf("TypeError", "auth= must be a (user, password) pair here")
		}
		u, _ := headerText(pair.Index(0))
		p, _ := headerText(pair.Index(1))
		headers.set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(u+":"+p)))
	}
	cookies, err := reqCookies(s, arg["cookies"])
	if err != nil {
		return nil, err
	}
	if cookies != "" {
		headers.set("Cookie", cookies)
	}
	// What the exchange does itself: decompression (an explicit
	// Accept-Encoding would stop Go's), the connection, and onetool's own
	// User-Agent unless the program chose one.
	var send [][2]string
	for _, h := range headers.entries {
		switch {
		case strings.EqualFold(h[0], "Accept-Encoding"), strings.EqualFold(h[0], "Connection"),
			strings.EqualFold(h[0], "User-Agent") && strings.HasPrefix(h[1], "python-requests/"):
			continue
		}
		if err := checkHeaderText(h[0], h[1]); err != nil {
			return nil, reqInvalidHeader.Raise(fmt.Sprintf("Invalid leading whitespace, reserved character(s), or return character(s) in header value: %s", pyRepr(h[1])), nil)
		}
		send = append(send, h)
	}
	timeout, err := reqTimeoutArg(arg["timeout"])
	if err != nil {
		return nil, err
	}
	follow := method != "HEAD"
	if v, ok := arg["allow_redirects"]; ok && v != nil {
		follow = bool(v.Truth())
	}
	reply, err := httpDo(thread, httpRequest{method: method, url: full, headers: send, body: body, timeout: timeout, follow: follow})
	if err != nil {
		return nil, reqError(err, full)
	}
	resp := newReqResponse(reply)
	if s != nil {
		for _, c := range resp.setCookies() {
			_ = s.cookies.SetKey(starlark.String(c[0]), starlark.String(c[1]))
		}
	}
	return resp, nil
}

func reprOf(v starlark.Value) string {
	s, err := interp.Repr(nil, v)
	if err != nil {
		return pyrt.TypeName(v)
	}
	return s
}

// reqURL checks rawURL as requests' prepare_url does and appends params
// (the session's, then the call's).
func reqURL(thread *starlark.Thread, rawURL string, s *reqSession, params starlark.Value) (string, error) {
	scheme, ok := splitScheme(rawURL)
	if !ok || !strings.Contains(rawURL, "://") && scheme != "http" && scheme != "https" {
		return "", reqMissingSchema.Raise(fmt.Sprintf("Invalid URL %s: No scheme supplied. Perhaps you meant https://%s?", pyRepr(rawURL), rawURL), nil)
	}
	if scheme != "http" && scheme != "https" {
		return "", reqInvalidSchema.Raise(fmt.Sprintf("No connection adapters were found for %s", pyRepr(rawURL)), nil)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", reqInvalidURL.Raise(fmt.Sprintf("Invalid URL %s: %s", pyRepr(rawURL), err), nil)
	}
	if u.Host == "" {
		return "", reqInvalidURL.Raise(fmt.Sprintf("Invalid URL %s: No host supplied", pyRepr(rawURL)), nil)
	}
	var enc []string
	if s != nil && s.params.Len() > 0 {
		e, err := reqEncodeParams(thread, s.params)
		if err != nil {
			return "", err
		}
		enc = append(enc, e)
	}
	if given(params) {
		e, err := reqEncodeParams(thread, params)
		if err != nil {
			return "", err
		}
		if e != "" {
			enc = append(enc, e)
		}
	}
	full := rawURL
	if u.Path == "" && u.RawQuery == "" && u.Fragment == "" && !strings.HasSuffix(full, "/") {
		full += "/" // requests' urlunparse gives an empty path "/"
	}
	if len(enc) > 0 {
		q := strings.Join(enc, "&")
		frag := ""
		if i := strings.IndexByte(full, '#'); i >= 0 {
			full, frag = full[:i], full[i:]
		}
		if u.RawQuery != "" {
			full += "&" + q
		} else if strings.HasSuffix(full, "?") {
			full += q
		} else {
			full += "?" + q
		}
		full += frag
	}
	return requote(full), nil
}

// requote is requests' requote_uri: characters that may not appear in a
// URL are percent-encoded, what is already encoded is left.
func requote(s string) string {
	const keep = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!#$%&'()*+,/:;=?@[]"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if strings.IndexByte(keep, c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// reqEncodeParams is requests' _encode_params: str and bytes as they
// are; a mapping or pairs urlencoded, a list value repeating its key,
// None values left out.
func reqEncodeParams(thread *starlark.Thread, v starlark.Value) (string, error) {
	if t, ok := interp.AsText(v); ok {
		return t, nil
	}
	if b, ok := interp.AsBytes(v); ok {
		return b, nil
	}
	pairs, err := mappingPairs(v)
	if err != nil {
		return "", err
	}
	var flat []starlark.Value
	for _, kv := range pairs {
		vals := []starlark.Value{kv[1]}
		switch x := kv[1].(type) {
		case *starlark.List, starlark.Tuple:
			vals = nil
			it := x.(starlark.Iterable).Iterate()
			var e starlark.Value
			for it.Next(&e) {
				vals = append(vals, e)
			}
			it.Done()
		}
		for _, e := range vals {
			if e != starlark.None {
				flat = append(flat, starlark.Tuple{kv[0], e})
			}
		}
	}
	out, err := urlEncode(thread, nil, starlark.Tuple{starlark.NewList(flat)}, nil)
	if err != nil {
		return "", err
	}
	t, _ := interp.AsText(out)
	return t, nil
}

// reqCookies is the Cookie header: the session's cookies, then the call's.
func reqCookies(s *reqSession, call starlark.Value) (string, error) {
	m := map[string]string{}
	var order []string
	add := func(d starlark.Value) error {
		pairs, err := mappingPairs(d)
		if err != nil {
			return err
		}
		for _, kv := range pairs {
			k, _ := headerText(kv[0])
			v, _ := headerText(kv[1])
			if _, seen := m[k]; !seen {
				order = append(order, k)
			}
			m[k] = v
		}
		return nil
	}
	if s != nil {
		if err := add(s.cookies); err != nil {
			return "", err
		}
	}
	if given(call) {
		if err := add(call); err != nil {
			return "", err
		}
	}
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = k + "=" + m[k]
	}
	return strings.Join(parts, "; "), nil
}

// reqTimeoutArg reads timeout=: seconds, or a (connect, read) pair (the
// larger bounds the exchange).
func reqTimeoutArg(v starlark.Value) (float64, error) {
	if t, ok := v.(starlark.Tuple); ok {
		if len(t) != 2 {
			return 0, pyrt.Errorf("ValueError", "Invalid timeout %s. Pass a (connect, read) timeout tuple, or a single float to set both timeouts to the same value.", reprOf(t))
		}
		a, err := timeoutSeconds(t[0])
		if err != nil {
			return 0, err
		}
		b, err := timeoutSeconds(t[1])
		if err != nil {
			return 0, err
		}
		if a == 0 || b == 0 {
			return 0, nil
		}
		return max(a, b), nil
	}
	return timeoutSeconds(v)
}

// reqError is the requests exception of a failed exchange; the run's
// own stop passes through, a policy's refusal is PermissionError.
func reqError(err error, u string) error {
	var ex *pyrt.Exception
	if isBudgetErr(err) || errors.As(err, &ex) {
		return err
	}
	attrs := starlark.StringDict{"response": starlark.None, "request": starlark.None}
	switch {
	case errors.Is(err, pyops.ErrDenied):
		return pyrt.OSError("PermissionError", 13, err.Error(), "")
	case errors.Is(err, pyops.ErrTimeout):
		return reqReadTimeout.Raise(err.Error(), attrs)
	case errors.Is(err, pyops.ErrRedirects):
		return reqRedirects.Raise(err.Error(), attrs)
	case errors.Is(err, pyops.ErrBadURL):
		return reqInvalidURL.Raise(err.Error(), attrs)
	case errors.Is(err, pyops.ErrBodyTooLarge):
		return reqException.Raise(err.Error(), attrs)
	case errors.Is(err, pyops.ErrHostRefused), errors.Is(err, pyops.ErrConnect):
		return reqConnection.Raise(err.Error(), attrs)
	}
	return err
}

// reqResponse is requests.Response.
type reqResponse struct {
	r        *httpReply
	headers  *headerMap
	encoding starlark.Value // None or str
	history  *starlark.List
	cookies  *starlark.Dict

	// text is the body decoded with textEnc, kept: a program reads
	// r.text in a loop, and decoding a body of megabytes each time would
	// be work the budget does not see.
	text_   starlark.Value
	textEnc starlark.Value
}

func newReqResponse(r *httpReply) *reqResponse {
	resp := &reqResponse{r: r, headers: newHeaderMap(false, r.headers)}
	resp.encoding = starlark.None
	if ct, ok := resp.headers.lookup("Content-Type"); ok {
		media, cs := contentType(ct)
		switch {
		case cs != "":
			resp.encoding = starlark.String(cs)
		case strings.HasPrefix(media, "text/"):
			resp.encoding = starlark.String("ISO-8859-1")
		case media == "application/json":
			resp.encoding = starlark.String("utf-8")
		}
	}
	var hist []starlark.Value
	for _, h := range r.history {
		hr := &reqResponse{r: &httpReply{status: h.status, url: h.url, reason: statusReason(h.status)}, headers: newHeaderMap(false, nil), encoding: starlark.None}
		hr.history = starlark.NewList(nil)
		hr.cookies = starlark.NewDict(0)
		hist = append(hist, hr)
	}
	resp.history = starlark.NewList(hist)
	resp.cookies = starlark.NewDict(0)
	for _, c := range resp.setCookies() {
		_ = resp.cookies.SetKey(starlark.String(c[0]), starlark.String(c[1]))
	}
	return resp
}

// statusReason is the reason phrase of the common redirect statuses.
func statusReason(code int) string {
	switch code {
	case 301:
		return "Moved Permanently"
	case 302:
		return "Found"
	case 303:
		return "See Other"
	case 307:
		return "Temporary Redirect"
	case 308:
		return "Permanent Redirect"
	}
	return ""
}

// setCookies are the name=value pairs of the Set-Cookie headers.
func (r *reqResponse) setCookies() [][2]string {
	var out [][2]string
	for _, h := range r.r.headers {
		if !strings.EqualFold(h[0], "Set-Cookie") {
			continue
		}
		first, _, _ := strings.Cut(h[1], ";")
		if k, v, ok := strings.Cut(first, "="); ok {
			out = append(out, [2]string{strings.TrimSpace(k), strings.Trim(strings.TrimSpace(v), `"`)})
		}
	}
	return out
}

func (r *reqResponse) String() string          { return fmt.Sprintf("<Response [%d]>", r.r.status) }
func (r *reqResponse) Type() string            { return "Response" }
func (r *reqResponse) Freeze()                 {}
func (r *reqResponse) Truth() starlark.Bool    { return starlark.Bool(r.r.status < 400) }
func (r *reqResponse) Hash() (uint32, error)   { return 0, nil }
func (r *reqResponse) PyClass() starlark.Value { return reqResponseClass }
func (r *reqResponse) Held(v func(starlark.Value)) {
	v(r.r.body)
	v(r.headers)
	v(r.encoding)
	v(r.history)
	v(r.cookies)
	if r.text_ != nil {
		v(r.text_) // the kept decoded text counts too
	}
}

func (r *reqResponse) text() string {
	s, _ := interp.AsText(r.textValue())
	return s
}

// textValue is r.text, decoded once per encoding.
func (r *reqResponse) textValue() starlark.Value {
	if r.text_ == nil || r.textEnc != r.encoding {
		enc, _ := interp.AsText(r.encoding)
		r.text_, r.textEnc = interp.MakeString(decodeText(string(r.r.body), enc)), r.encoding
	}
	return r.text_
}

func (r *reqResponse) AttrNames() []string {
	names := []string{"__enter__", "__exit__", "apparent_encoding", "close", "content", "cookies", "elapsed", "encoding",
		"headers", "history", "is_redirect", "iter_content", "iter_lines", "json", "ok", "raise_for_status", "reason",
		"status_code", "text", "url"}
	sort.Strings(names)
	return names
}

func (r *reqResponse) Attr(name string) (starlark.Value, error) {
	method := func(fn func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) starlark.Value {
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return fn(thread, args, kwargs)
		}).BindReceiver(r)
	}
	switch name {
	case "status_code":
		return starlark.MakeInt(r.r.status), nil
	case "ok":
		return r.Truth(), nil
	case "reason":
		return starlark.String(r.r.reason), nil
	case "url":
		return starlark.String(r.r.url), nil
	case "headers":
		return r.headers, nil
	case "content":
		return r.r.body, nil
	case "text":
		return r.textValue(), nil
	case "encoding":
		return r.encoding, nil
	case "apparent_encoding":
		return starlark.String("utf-8"), nil
	case "history":
		return r.history, nil
	case "cookies":
		return r.cookies, nil
	case "is_redirect":
		_, loc := r.headers.lookup("Location")
		s := r.r.status
		return starlark.Bool(loc && (s == 301 || s == 302 || s == 303 || s == 307 || s == 308)), nil
	case "elapsed":
		return reqElapsed(r.r.elapsed), nil
	case "__enter__":
		return method(func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) { return r, nil }), nil
	case "close", "__exit__":
		return method(func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, nil
		}), nil
	case "raise_for_status":
		return method(func(_ *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
				return nil, err
			}
			kind := ""
			switch s := r.r.status; {
			case s >= 400 && s < 500:
				kind = "Client Error"
			case s >= 500 && s < 600:
				kind = "Server Error"
			default:
				return starlark.None, nil
			}
			msg := fmt.Sprintf("%d %s: %s for url: %s", r.r.status, kind, r.r.reason, r.r.url)
			return nil, reqHTTPError.Raise(msg, starlark.StringDict{"response": r, "request": starlark.None})
		}), nil
	case "json":
		return method(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) > 0 {
				return nil, pyrt.Errorf("TypeError", "Response.json() takes 1 positional argument but %d were given", len(args)+1)
			}
			v, err := jsonLoads(thread, interp.NewBuiltin("loads", jsonLoads), starlark.Tuple{interp.MakeString(r.text())}, kwargs)
			var ex *pyrt.Exception
			if err != nil && errors.As(err, &ex) && ex.Class == "JSONDecodeError" {
				return nil, reqJSONDecode.Raise(ex.Msg, ex.Attrs)
			}
			return v, err
		}), nil
	case "iter_content":
		return method(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var size starlark.Value = starlark.MakeInt(1)
			var decode starlark.Value = starlark.False
			if err := starlark.UnpackArgs(name, args, kwargs, "chunk_size?", &size, "decode_unicode?", &decode); err != nil {
				return nil, err
			}
			n := len(r.r.body)
			if size != starlark.None {
				c, err := starlark.AsInt32(size)
				if err != nil || c <= 0 {
					return nil, pyrt.Errorf("TypeError", "chunk_size must be an int, it is instead a %s.", pyrt.TypeName(size))
				}
				n = c
			}
			body := string(r.r.body)
			if decode.Truth() && r.encoding != starlark.None {
				body = r.text()
				var out []starlark.Value
				runes := []rune(body)
				for i := 0; i < len(runes); i += n {
					if err := interp.BudgetOf(thread).Charge(1); err != nil {
						return nil, err
					}
					out = append(out, interp.MakeString(string(runes[i:min(i+n, len(runes))])))
				}
				return pyIterOver(out), nil
			}
			var out []starlark.Value
			for i := 0; i < len(body); i += n {
				if err := interp.BudgetOf(thread).Charge(1); err != nil {
					return nil, err
				}
				out = append(out, interp.Bytes(body[i:min(i+n, len(body))]))
			}
			return pyIterOver(out), nil
		}), nil
	case "iter_lines":
		return method(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var size starlark.Value = starlark.MakeInt(512)
			var decode starlark.Value = starlark.False
			var delim starlark.Value = starlark.None
			if err := starlark.UnpackArgs(name, args, kwargs, "chunk_size?", &size, "decode_unicode?", &decode, "delimiter?", &delim); err != nil {
				return nil, err
			}
			text := decode.Truth() && r.encoding != starlark.None
			body := string(r.r.body)
			if text {
				body = r.text()
			}
			var lines []string
			if d, ok := interp.AsText(delim); ok {
				lines = strings.Split(body, d)
			} else if d, ok := interp.AsBytes(delim); ok {
				lines = strings.Split(body, d)
			} else {
				lines = splitLines(body)
			}
			out := make([]starlark.Value, 0, len(lines))
			for _, l := range lines {
				if err := interp.BudgetOf(thread).Charge(1); err != nil {
					return nil, err
				}
				if text {
					out = append(out, interp.MakeString(l))
				} else {
					out = append(out, interp.Bytes(l))
				}
			}
			return pyIterOver(out), nil
		}), nil
	}
	return nil, nil
}

func (r *reqResponse) SetField(name string, v starlark.Value) error {
	if name == "encoding" {
		if _, ok := interp.AsText(v); !ok && v != starlark.None {
			return pyrt.Errorf("TypeError", "encoding must be a str or None")
		}
		r.encoding = v
		return nil
	}
	return pyrt.Errorf("AttributeError", "'Response' object attribute '%s' cannot be set here", name)
}

// splitLines is bytes.splitlines(): \n, \r\n and \r end lines, which are
// left out; no empty last line.
func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i])
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
	}
	return out
}

// pyIterOver is an iterator over vals, as a generator of requests
// yields them (iter_content, iter_lines).
func pyIterOver(vals []starlark.Value) starlark.Value {
	v, err := builtins()["iter"].(starlark.Callable).CallInternal(nil, starlark.Tuple{starlark.NewList(vals)}, nil)
	if err != nil {
		return starlark.NewList(vals)
	}
	return v
}

// reqElapsed is Response.elapsed, a datetime.timedelta.
func reqElapsed(ms int64) starlark.Value {
	td, ok := DateTime().Members["timedelta"].(starlark.Callable)
	if !ok {
		return starlark.None
	}
	v, err := td.CallInternal(nil, nil, []starlark.Tuple{{starlark.String("milliseconds"), starlark.MakeInt64(ms)}})
	if err != nil {
		return starlark.None
	}
	return v
}
