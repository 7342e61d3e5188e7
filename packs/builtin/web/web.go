// Package web is the built-in web pack (SPEC §3.5): web.fetch reads a URL
// and returns it as Markdown, plain text or the text as received, within
// limits on size, time and redirects, and only from the hosts the
// settings allow: public addresses by default (see hosts.go for what is
// refused and every form of an address that counts as it).
//
// Hosts are checked before the request, on every redirect hop, and — with
// the default client — when connecting: the dialler resolves the name
// once, checks every address, and dials only those, so a name that points
// into a refused network (or starts to, between a check and the
// connection) is refused too. A proxy from the environment (HTTP_PROXY,
// HTTPS_PROXY) is a host like any other: its address must be public or
// allowed, and a name sent through it must resolve here to allowed
// addresses.
//
// What a fetch reads counts against the run's memory budget as it arrives
// (package meter): the body after decompression, and the text made of it.
package web

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/meter"
)

// Description is the pack's one-line description.
const Description = "Fetch web pages and other text over HTTP(S) as Markdown, plain text or raw text"

// Defaults and bounds.
const (
	DefaultMaxBytes     = 5 << 20 // response body cap
	DefaultTimeout      = 20 * time.Second
	DefaultMaxRedirects = 5
	DefaultMaxChars     = 20000 // web.fetch max_chars

	maxMaxBytes     = 512 << 20
	maxMaxRedirects = 50
	maxMaxChars     = 1000000
	errorBodyBytes  = 64 << 10 // read of a non-2xx body, for the excerpt
	excerptChars    = 300
)

// UserAgent is sent with every request.
const UserAgent = "onetool-web/1 (+https://github.com/onetool-dev/onetool)"

const accept = "text/html,application/xhtml+xml,text/markdown;q=0.95,text/plain;q=0.9,application/json;q=0.9,application/xml;q=0.8,text/*;q=0.8,*/*;q=0.1"

// Options configure the pack. The zero value is usable: every public
// host, the defaults above.
type Options struct {
	// AllowHosts, if non-empty, are the only hosts fetched: exact names
	// ("example.com"), wildcards ("*.example.com": its subdomains, not
	// example.com itself; "*": every host), addresses ("127.0.0.1") or
	// CIDRs ("10.0.0.0/8", matched against the addresses a name resolves
	// to). Addresses that are not public (loopback, private, link-local,
	// …) are fetched only when an exact name, address or CIDR here admits
	// them, never through a wildcard or an empty list.
	AllowHosts []string
	// DenyHosts are never fetched (same forms); checked on every
	// redirect hop too, and DenyHosts wins over AllowHosts.
	DenyHosts []string
	// MaxBytes caps the response body (after decompression); reading
	// stops there and the result says it was cut. 0 means 5 MiB.
	MaxBytes int64
	// Timeout bounds the whole fetch, redirects and body included.
	// 0 means 20s.
	Timeout time.Duration
	// MaxRedirects is how many redirects are followed. 0 means 5; a
	// negative value follows none.
	MaxRedirects int
	// Client, if set, sends the requests (tests use it). Its
	// CheckRedirect and Timeout are replaced. Addresses are then checked
	// by resolving names before the request rather than when connecting.
	Client *http.Client
	// Resolver, if set, looks up host names (tests use it); nil means
	// net.DefaultResolver.
	Resolver Resolver
	// Redact hides the values of secrets in a response body that
	// web.fetch@get and @send return (urllib.request, requests), before
	// the body is encoded: one that is not UTF-8 crosses as base64, where
	// the runner's redaction of results could not find a secret. nil
	// leaves bodies as they are.
	Redact func(ctx context.Context, text string) (string, error)
}

// Register adds the web pack to r, with its description. It fails when
// a host pattern of o is invalid.
func Register(r *packs.Registry, o Options) error {
	if _, err := newPolicy(o.AllowHosts, o.DenyHosts); err != nil {
		return fmt.Errorf("web pack: %w", err)
	}
	if o.MaxBytes < 0 {
		return fmt.Errorf("web pack: MaxBytes must not be negative, got %d", o.MaxBytes)
	}
	if o.Timeout < 0 {
		return fmt.Errorf("web pack: Timeout must not be negative, got %s", o.Timeout)
	}
	r.SetPackDescription("web", Description)
	text := helpContext(o.AllowHosts)
	r.SetPackContext("web", func(context.Context) string { return text })
	f := newFetcher(o)
	if err := r.RegisterBuiltin(f.tools()...); err != nil {
		return err
	}
	return r.RegisterVariants(f.variants()...)
}

// Tools returns new web pack tools for o, ready to register. With an
// invalid host pattern in o (see Register), every call fails with the
// reason rather than fetching without the rule.
func Tools(o Options) []*packs.Tool { return newFetcher(o).tools() }

// tools are the pack's public tools over f, which Register shares with
// its variants (pyops.go).
func (f *fetcher) tools() []*packs.Tool {
	return []*packs.Tool{
		{
			Pack: "web", Name: "fetch",
			Description: "Fetch an http(s) URL (GET) and return its content as text. " +
				"format=\"markdown\" (default) converts HTML to Markdown: the page title as a heading, tables as Markdown tables, links made absolute; navigation, headers, footers, sidebars, scripts, styles and forms are left out. " +
				"format=\"text\" gives readable plain text instead; format=\"raw\" the body as received (HTML source, JSON, …). " +
				"Plain text, JSON, XML and other text types come back as they are in every format; images, PDFs and other binary types are refused. " +
				"At most max_chars characters are returned, from `start`: a longer result ends with the call for the next part, e.g. `… (31200 more characters: web.fetch(url=\"…\", start=20000))`; the next parts come from the same copy of the page (kept 10 minutes). " +
				"Redirects are followed (up to packs.web.max_redirects); a response over packs.web.max_bytes is cut, and the call gives up after packs.web.timeout. " +
				"Non-2xx statuses fail with the status and the start of the body. Only public hosts are fetched unless packs.web.allow_hosts names others: loopback, private and link-local addresses, in any form (0.0.0.0, [::], [::ffff:127.0.0.1], 2130706433, a name that resolves there), are refused; packs.web.deny_hosts refuses more. " +
				"What is read counts against the run's memory budget (limits.max_memory).",
			InputSchema: `{"type":"object","properties":{
				"url":{"type":"string","description":"The http:// or https:// URL to fetch."},
				"format":{"type":"string","enum":["markdown","text","raw"],"default":"markdown","description":"markdown: HTML converted to Markdown; text: plain text; raw: the body as received."},
				"max_chars":{"type":"integer","minimum":1,"maximum":1000000,"default":20000,"description":"Most characters to return."},
				"start":{"type":"integer","minimum":0,"default":0,"description":"Character offset to start from, to read the next part of a long result."}},
				"required":["url"],"additionalProperties":false}`,
			Returns:  "str",
			Synonyms: map[string][]string{"max_chars": {"max_length", "limit"}, "start": {"offset", "start_index"}},
			Examples: []packs.Example{
				{Code: `web.fetch("https://go.dev/doc/")`, Description: "A page as Markdown (its first 20000 characters)"},
				{Code: `web.fetch("https://go.dev/doc/", start=20000)`, Description: "The next part of a long page"},
				{Code: `json.decode(web.fetch("https://api.github.com/repos/golang/go", format="raw"))["stargazers_count"]`, Description: "JSON comes back as text: decode it"},
				{Code: `web.fetch("https://example.com", format="text", max_chars=2000)`, Description: "Plain text, short"},
			},
			Annotations: packs.Annotations{ReadOnly: true, OpenWorld: true},
			Handler:     f.handle,
		},
	}
}

// fetcher is the state calls share: options, policy, client and converter.
type fetcher struct {
	policy       *policy
	policyErr    error
	maxBytes     int64
	timeout      time.Duration
	maxRedirects int
	custom       bool // Options.Client: check addresses before the request
	client       *http.Client
	proxies      sync.Map // "host:port" of proxies used: dialled as proxies (see policy.checkName)
	dialer       *net.Dialer
	lookup       Resolver
	// connect dials a checked address (the dialer; tests record instead),
	// and envProxy is the environment's proxy for a URL (tests set their
	// own: net/http reads the environment once per process).
	connect  func(ctx context.Context, network, addr string) (net.Conn, error)
	envProxy func(*url.URL) (*url.URL, error)
	cache    *docCache
	redact   func(ctx context.Context, text string) (string, error) // Options.Redact
}

func newFetcher(o Options) *fetcher {
	f := &fetcher{
		maxBytes:     o.MaxBytes,
		timeout:      o.Timeout,
		maxRedirects: o.MaxRedirects,
		dialer:       &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, ControlContext: lastCheck},
		lookup:       o.Resolver,
		cache:        newDocCache(),
		redact:       o.Redact,
	}
	if f.lookup == nil {
		f.lookup = net.DefaultResolver
	}
	f.connect = f.dialer.DialContext
	f.envProxy = func(u *url.URL) (*url.URL, error) { return http.ProxyFromEnvironment(&http.Request{URL: u}) }
	f.policy, f.policyErr = newPolicy(o.AllowHosts, o.DenyHosts)
	if f.policyErr != nil {
		f.policyErr = fmt.Errorf("the web pack settings are invalid: %w", f.policyErr)
	}
	if f.maxBytes <= 0 {
		f.maxBytes = DefaultMaxBytes
	}
	if f.timeout <= 0 {
		f.timeout = DefaultTimeout
	}
	switch {
	case f.maxRedirects == 0:
		f.maxRedirects = DefaultMaxRedirects
	case f.maxRedirects < 0:
		f.maxRedirects = 0
	}
	if o.Client != nil {
		c := *o.Client
		f.client = &c
		f.custom = true
	} else {
		f.client = &http.Client{Transport: &http.Transport{
			Proxy:                  f.proxy,
			DialContext:            f.dial,
			ForceAttemptHTTP2:      true,
			TLSHandshakeTimeout:    10 * time.Second,
			ExpectContinueTimeout:  time.Second,
			IdleConnTimeout:        90 * time.Second,
			MaxIdleConns:           32,
			MaxIdleConnsPerHost:    4,
			MaxResponseHeaderBytes: 1 << 20,
		}}
	}
	f.client.Timeout = 0 // the call's context bounds it
	f.client.CheckRedirect = f.checkRedirect
	return f
}

// proxy is the environment's proxy (HTTPS_PROXY, NO_PROXY, …); it
// remembers proxy addresses so that dial lets them through.
func (f *fetcher) proxy(req *http.Request) (*url.URL, error) {
	u, err := f.envProxy(req.URL)
	if u != nil && err == nil {
		f.proxies.Store(hostPort(u), true)
	}
	return u, err
}

func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch u.Scheme {
		case "https":
			port = "443"
		case "socks5", "socks5h":
			port = "1080"
		default:
			port = "80"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// dial connects only to addresses the policy allows: the name is
// resolved here, once, and the addresses checked are the ones dialled.
func (f *fetcher) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	_, isProxy := f.proxies.Load(addr)
	addrs, err := f.policy.resolve(ctx, f.lookup, host, isProxy)
	if err != nil {
		return nil, err
	}
	var first error
	for _, a := range addrs {
		c, err := f.connect(context.WithValue(ctx, checkedKey{}, a), network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return c, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

type checkedKey struct{}

// lastCheck runs as the socket connects: the address must be the one dial
// checked, so no path that skips dial (or resolves again) reaches a
// refused address.
func lastCheck(ctx context.Context, network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", address, err)
	}
	want, ok := ctx.Value(checkedKey{}).(netip.Addr)
	if !ok || want != ap.Addr().WithZone("").Unmap() {
		return refused("connecting to %s, which was not checked against packs.web.allow_hosts and deny_hosts", address)
	}
	return nil
}

// redirectError is a redirect the fetch does not follow; cause is the
// host rule that refused its target, if one did.
type redirectError struct {
	msg   string
	cause error
}

func (e *redirectError) Error() string { return e.msg }
func (e *redirectError) Unwrap() error { return e.cause }

func (f *fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if req.Context().Value(noRedirectsKey{}) != nil {
		return http.ErrUseLastResponse // an Exchange with NoRedirects: the 3xx is its reply
	}
	if len(via) > f.maxRedirects {
		if f.maxRedirects == 0 {
			return &redirectError{msg: fmt.Sprintf("%s redirects to %s, and redirects are not followed (packs.web.max_redirects is 0): fetch that URL instead", shownURL(via[0].URL), shownURL(req.URL))}
		}
		return &redirectError{msg: fmt.Sprintf("stopped after %d %s (packs.web.max_redirects); the last one pointed to %s: fetch that URL directly, or raise the limit", f.maxRedirects, plural(f.maxRedirects, "redirect"), shownURL(req.URL))}
	}
	for _, v := range via {
		if v.URL.String() == req.URL.String() {
			return &redirectError{msg: fmt.Sprintf("redirect loop: %s leads back to %s (the site may want cookies, which are not kept)", shownURL(via[len(via)-1].URL), shownURL(req.URL))}
		}
	}
	if s := req.URL.Scheme; s != "http" && s != "https" {
		return &redirectError{msg: fmt.Sprintf("%s redirects to %s: only http and https URLs are followed", shownURL(via[len(via)-1].URL), shownURL(req.URL))}
	}
	if err := f.checkHost(req.Context(), req.URL); err != nil {
		return &redirectError{fmt.Sprintf("%s redirects to %s: %v", shownURL(via[len(via)-1].URL), shownURL(req.URL), err), err}
	}
	return nil
}

// checkHost checks a URL's host against the policy before a request and
// at every redirect. Names are resolved here when the dialler cannot see
// the connection: a custom client, or a proxy (which resolves the name
// again itself: a name that does not resolve here is refused).
func (f *fetcher) checkHost(ctx context.Context, u *url.URL) error {
	host := u.Hostname()
	if host == "" {
		return fmt.Errorf("URL %s has no host", shownURL(u))
	}
	a, isAddr, err := hostAddr(host)
	if err != nil {
		return err
	}
	if isAddr {
		return f.policy.checkAddr(host, a, f.policy.addrAdmission())
	}
	if _, err := f.policy.checkName(host, false); err != nil {
		return err
	}
	proxied := false
	if !f.custom {
		if p, err := f.envProxy(u); err == nil && p != nil {
			proxied = true
		}
	}
	if !f.custom && !proxied {
		return nil // the dialler checks what it dials
	}
	if _, err := f.policy.resolve(ctx, f.lookup, host, false); err != nil {
		if errors.Is(err, errRefused) {
			return err
		}
		if proxied {
			return fmt.Errorf("host %s cannot be checked before it is fetched through the proxy (%v): the proxy would resolve it where onetool cannot see", host, innermost(err))
		}
		return nil // the request will report the lookup failure
	}
	return nil
}

// args are web.fetch's arguments, checked.
type args struct {
	url      string
	format   string
	maxChars int
	start    int
}

func parseArgs(a map[string]any) (args, error) {
	var r args
	var ok bool
	if r.url, ok = a["url"].(string); !ok {
		return r, fmt.Errorf("url must be a string, got %s", typeName(a["url"]))
	}
	r.format = "markdown"
	if v, present := a["format"]; present && v != nil {
		if r.format, ok = v.(string); !ok {
			return r, fmt.Errorf("format must be a string, got %s", typeName(v))
		}
		r.format = strings.ToLower(strings.TrimSpace(r.format))
		switch r.format {
		case "markdown", "text", "raw":
		default:
			return r, fmt.Errorf("format %q is not one of markdown, text, raw", r.format)
		}
	}
	var err error
	if r.maxChars, err = intArg(a, "max_chars", DefaultMaxChars); err != nil {
		return r, err
	}
	if r.maxChars < 1 || r.maxChars > maxMaxChars {
		return r, fmt.Errorf("max_chars must be between 1 and %d, got %d", maxMaxChars, r.maxChars)
	}
	if r.start, err = intArg(a, "start", 0); err != nil {
		return r, err
	}
	if r.start < 0 {
		return r, fmt.Errorf("start must be 0 or more, got %d", r.start)
	}
	return r, nil
}

func intArg(a map[string]any, name string, def int) (int, error) {
	v, present := a[name]
	if !present || v == nil {
		return def, nil
	}
	switch x := v.(type) {
	case int:
		return x, nil
	case int64:
		if x > 1<<40 || x < -(1<<40) {
			return 0, fmt.Errorf("%s is out of range: %d", name, x)
		}
		return int(x), nil
	case float64:
		if x != float64(int64(x)) || x > 1<<40 || x < -(1<<40) {
			return 0, fmt.Errorf("%s must be a whole number, got %v", name, x)
		}
		return int(x), nil
	case interface{ Int64() (int64, error) }: // json.Number
		n, err := x.Int64()
		if err != nil {
			return 0, fmt.Errorf("%s must be a whole number, got %v", name, x)
		}
		return intArg(map[string]any{name: n}, name, def)
	}
	return 0, fmt.Errorf("%s must be an int, got %s", name, typeName(v))
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "None"
	case string:
		return "a string"
	case bool:
		return "a bool"
	case int, int64:
		return "an int"
	case float64:
		return "a float"
	case []any:
		return "a list"
	}
	return fmt.Sprintf("%T", v)
}

// handle is web.fetch.
func (f *fetcher) handle(ctx context.Context, a map[string]any) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("internal error: %v", r)
		}
	}()
	if f.policyErr != nil {
		return nil, f.policyErr
	}
	p, err := parseArgs(a)
	if err != nil {
		return nil, err
	}
	u, err := checkURL(p.url)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, stopped(ctx)
	}
	key := p.format + " " + u.String()
	if p.start > 0 {
		if doc, ok := f.cache.get(key); ok {
			return cut(doc, p)
		}
	}
	doc, err := f.fetch(ctx, u, p.format)
	if err != nil {
		return nil, err
	}
	if utf8.RuneCountInString(doc) > p.start+p.maxChars {
		f.cache.put(key, doc) // for the calls that read the next parts
	}
	return cut(doc, p)
}

// checkURL parses and checks a URL argument.
func checkURL(raw string) (*url.URL, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return nil, errors.New("url is empty: give an http:// or https:// URL")
	}
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("url %q is not a valid URL (%v)", short(s), err)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		u.Scheme = strings.ToLower(u.Scheme)
	case "":
		guess := "https://" + strings.TrimPrefix(s, "//")
		return nil, fmt.Errorf("url %q has no scheme: did you mean %q?", short(s), short(guess))
	default:
		if u.Opaque != "" && u.Host == "" && !strings.Contains(s, "://") && looksLikeHostPort(s) {
			return nil, fmt.Errorf("url %q has no scheme: did you mean %q?", short(s), short("https://"+s))
		}
		return nil, fmt.Errorf("url %q: only http:// and https:// URLs can be fetched, not %s:", short(u.Redacted()), u.Scheme)
	}
	if u.Host == "" || u.Hostname() == "" {
		return nil, fmt.Errorf("url %q has no host: write it as https://host/path", short(u.Redacted()))
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("url %q has an invalid port %q", short(u.Redacted()), p)
		}
	}
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

// looksLikeHostPort: "example.com:8080/x" parses with scheme "example.com".
func looksLikeHostPort(s string) bool {
	host, rest, _ := strings.Cut(s, ":")
	if !strings.Contains(host, ".") && host != "localhost" {
		return false
	}
	digits := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		digits = rest[:i]
	}
	_, err := strconv.Atoi(digits)
	return err == nil
}

// shownURL is a URL as messages show it: no password, not too long.
func shownURL(u *url.URL) string { return short(u.Redacted()) }

func short(s string) string {
	const max = 200
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// stopped says why ctx ended: cancellation or the run's time limit.
func stopped(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("stopped: the time limit was reached (%w)", ctx.Err())
	}
	return fmt.Errorf("stopped: the call was cancelled (%w)", ctx.Err())
}

// fetch gets u and renders it in format.
func (f *fetcher) fetch(parent context.Context, u *url.URL, format string) (string, error) {
	ctx, cancel := context.WithTimeout(parent, f.timeout)
	defer cancel()
	if err := f.checkHost(ctx, u); err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", fmt.Errorf("url %q: %v", shownURL(u), err)
	}
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", accept)
	resp, err := f.client.Do(req)
	if err != nil {
		return "", f.requestError(parent, ctx, u, err)
	}
	defer resp.Body.Close()
	final := resp.Request.URL

	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return "", f.statusError(ctx, resp, final)
	}

	ctype := resp.Header.Get("Content-Type")
	mt, params, _ := mime.ParseMediaType(ctype)
	kind := classify(mt)
	if kind == kindBinary {
		return "", binaryError(mt, resp.ContentLength, final)
	}
	m := callMeter(parent)
	body, truncated, err := readCapped(meter.Reader(m, resp.Body), f.maxBytes)
	if err != nil {
		return "", f.requestError(parent, ctx, final, err)
	}
	if kind == kindUnknown {
		sniffed, _, _ := mime.ParseMediaType(http.DetectContentType(body))
		switch kind = classify(sniffed); kind {
		case kindBinary, kindUnknown:
			shown := mt
			if shown == "" {
				shown = "no Content-Type; the content looks like " + sniffed
			}
			return "", binaryError(shown, resp.ContentLength, final)
		}
		if mt == "" {
			mt = sniffed
		}
	}
	text := decode(body, mt, params["charset"], kind == kindHTML)
	if err := m.Charge(int64(len(text))); err != nil { // the text is a copy
		return "", unwrapBudget(err)
	}
	if looksBinary(text) {
		return "", fmt.Errorf("the response from %s is declared %s but its content is binary: only text can be fetched", shownURL(final), mt)
	}

	var doc string
	switch {
	case kind == kindHTML && format != "raw":
		// The page's tree takes several times its text while it is
		// converted (renderCost); the Markdown stays.
		cost := renderCost * int64(len(text))
		if err := m.Charge(cost); err != nil {
			return "", unwrapBudget(err)
		}
		doc, err = renderCtx(parent, text, final, format)
		m.Release(cost)
		if err != nil {
			return "", err
		}
		if err := m.Charge(int64(len(doc))); err != nil {
			return "", unwrapBudget(err)
		}
	default:
		doc = text
	}
	if truncated {
		doc = strings.TrimRight(doc, "\n") + fmt.Sprintf("\n\n… (the response was cut at %s, packs.web.max_bytes: the rest was not read)", sizeText(f.maxBytes))
	}
	return doc, nil
}

// renderCtx is render, returning early when ctx ends: converting a large
// page takes seconds, and the caller's limits apply to it. (The
// conversion itself runs on to its end, in the background.)
func renderCtx(ctx context.Context, src string, page *url.URL, format string) (string, error) {
	type result struct {
		doc string
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("internal error converting the page: %v (try format=\"raw\")", r)}
			}
		}()
		doc, err := render(ctx, src, page, format)
		done <- result{doc, err}
	}()
	select {
	case r := <-done:
		return r.doc, r.err
	case <-ctx.Done():
		return "", stopped(ctx)
	}
}

// renderCost is what converting an HTML page holds at its peak, per byte
// of its text: the parsed tree and the converter's work (measured, live
// heap at the peak: 4 times a page of plain text, 23 to 27 times pages
// dense with markup — paragraphs and links, tables, spans).
const renderCost = 25

// overBudget is a refusal of the run's memory budget, told apart from the
// network's errors while a body is read.
type overBudget struct{ err error }

func (e *overBudget) Error() string { return e.err.Error() }
func (e *overBudget) Unwrap() error { return e.err }

// budgeted is a call's meter whose refusals are *overBudget.
type budgeted struct{ meter.Meter }

func (b budgeted) Charge(n int64) error {
	if err := b.Meter.Charge(n); err != nil {
		return &overBudget{err}
	}
	return nil
}

// callMeter is the meter of the call ctx is for (package meter).
func callMeter(ctx context.Context) meter.Meter {
	m := meter.From(ctx)
	if meter.Unlimited(m) {
		return m
	}
	return budgeted{m}
}

// unwrapBudget returns the run's own error for a refusal of its budget.
func unwrapBudget(err error) error {
	if over := (*overBudget)(nil); errors.As(err, &over) {
		return over.err
	}
	return err
}

// readCapped reads up to max bytes; truncated says there was more. A
// multi-byte character split at the cut is dropped.
func readCapped(r io.Reader, max int64) (data []byte, truncated bool, err error) {
	data, err = io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(data)) > max {
		data = data[:max]
		truncated = true
		// Drop a UTF-8 sequence the cut left incomplete.
		for i := len(data) - 1; i >= 0 && i >= len(data)-4; i-- {
			if utf8.RuneStart(data[i]) {
				if !utf8.FullRune(data[i:]) {
					data = data[:i]
				}
				break
			}
		}
	}
	return data, truncated, nil
}

// requestError words a failed request or body read.
func (f *fetcher) requestError(parent, ctx context.Context, u *url.URL, err error) error {
	if parent.Err() != nil {
		return stopped(parent)
	}
	if over := (*overBudget)(nil); errors.As(err, &over) {
		return over.err
	}
	var re *redirectError
	if errors.As(err, &re) {
		return re
	}
	var rf *refusedError
	if errors.As(err, &rf) {
		return rf
	}
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("no complete response from %s within %s (packs.web.timeout): the site is slow or unreachable", shownURL(u), f.timeout)
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		if dnsErr.IsNotFound {
			return fmt.Errorf("host %s not found: check the URL for typos", dnsErr.Name)
		}
		return fmt.Errorf("cannot look up host %s: %s (is the network reachable?)", dnsErr.Name, dnsErr.Err)
	}
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalid x509.CertificateInvalidError
	if errors.As(err, &certErr) || errors.As(err, &unknownAuth) || errors.As(err, &hostErr) || errors.As(err, &invalid) {
		return fmt.Errorf("the TLS certificate of %s is not valid: %v", u.Host, innermost(err))
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return fmt.Errorf("cannot connect to %s: %v", u.Host, innermost(err))
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("the connection to %s closed before the response was complete", u.Host)
	}
	return fmt.Errorf("cannot fetch %s: %v", shownURL(u), innermost(err))
}

// innermost drops the *url.Error and *net.OpError wrappers, whose text
// repeats the method, URL and addresses.
func innermost(err error) error {
	for {
		var ue *url.Error
		var oe *net.OpError
		var se *os.SyscallError
		switch {
		case errors.As(err, &ue) && ue.Err != nil && ue.Err != err:
			err = ue.Err
		case errors.As(err, &oe) && oe.Err != nil && oe.Err != err:
			err = oe.Err
		case errors.As(err, &se) && se.Err != nil && se.Err != err:
			err = se.Err
		default:
			return err
		}
	}
}

// statusError is a non-2xx response: its status and the start of its body.
func (f *fetcher) statusError(ctx context.Context, resp *http.Response, u *url.URL) error {
	msg := fmt.Sprintf("HTTP %s from %s", statusText(resp), shownURL(u))
	switch resp.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		msg += " (the site refuses access: it may need a login, or block automated clients)"
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		if ra := resp.Header.Get("Retry-After"); ra != "" {
			msg += fmt.Sprintf(" (Retry-After: %s)", short(ra))
		}
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		if loc := resp.Header.Get("Location"); loc != "" {
			msg += fmt.Sprintf(" (Location: %s)", short(loc))
		}
	}
	limit := min(int64(errorBodyBytes), f.maxBytes)
	body, _, err := readCapped(meter.Reader(callMeter(ctx), resp.Body), limit)
	if over := (*overBudget)(nil); errors.As(err, &over) {
		return over.err
	}
	if err != nil || len(body) == 0 {
		return errors.New(msg)
	}
	mt, params, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	kind := classify(mt)
	if kind == kindUnknown {
		sniffed, _, _ := mime.ParseMediaType(http.DetectContentType(body))
		kind = classify(sniffed)
	}
	if kind == kindBinary || kind == kindUnknown {
		return errors.New(msg)
	}
	text := decode(body, mt, params["charset"], kind == kindHTML)
	if looksBinary(text) {
		return errors.New(msg)
	}
	if kind == kindHTML {
		if t, err := render(ctx, text, u, "text"); err == nil {
			text = t
		}
	}
	if ex := excerpt(text, excerptChars); ex != "" {
		msg += ": " + ex
	}
	return errors.New(msg)
}

func statusText(resp *http.Response) string {
	if t := http.StatusText(resp.StatusCode); t != "" {
		return fmt.Sprintf("%d %s", resp.StatusCode, t)
	}
	if s := strings.TrimSpace(resp.Status); s != "" {
		return s
	}
	return strconv.Itoa(resp.StatusCode)
}

// excerpt collapses whitespace and keeps the first n characters.
func excerpt(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func binaryError(mt string, length int64, u *url.URL) error {
	size := ""
	if length >= 0 {
		size = ", " + sizeText(length)
	}
	return fmt.Errorf("the response from %s is %s%s, not text: only HTML, text, JSON and XML can be fetched", shownURL(u), mt, size)
}

// sizeText shows a byte count: "5 MiB", "12.5 KiB", "300 bytes".
func sizeText(n int64) string {
	units := []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}}
	for _, u := range units {
		if n >= u.size {
			v := float64(n) / float64(u.size)
			s := strconv.FormatFloat(v, 'f', 1, 64)
			s = strings.TrimSuffix(s, ".0")
			return s + " " + u.name
		}
	}
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}
