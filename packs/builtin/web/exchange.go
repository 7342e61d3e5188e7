package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/packs/meter"
)

// An Exchange is one HTTP request as Python's urllib.request and requests
// make them (issue 31): any method, headers and a body, redirects
// followed or not, and every status a result rather than an error. It
// takes the very path web.fetch takes — the host rules checked before
// the request, at every redirect and at connect time, the size limit,
// the run's memory meter and the time limit — and differs only in what
// it gives back: the response whole (status, headers, bytes), not a
// rendered page.
type Exchange struct {
	Method string      // GET when empty
	URL    string      // http or https, checked as web.fetch checks its url
	Header [][2]string // in order; repeated names are kept
	Body   []byte      // nil: no body

	// NoRedirects returns a 3xx response as it is (requests'
	// allow_redirects=False) instead of following it.
	NoRedirects bool
	// Timeout bounds the exchange below the pack's packs.web.timeout
	// (0: the pack's; it is never raised above it).
	Timeout time.Duration
}

// A Reply is the response to an Exchange.
type Reply struct {
	Status  int
	Reason  string      // "Not Found"; the status line's text when Go knows none
	URL     string      // the final URL, after redirects
	Header  [][2]string // canonical names, in a stable order
	Body    []byte
	History []Hop // the redirects followed, first to last
}

// A Hop is one redirect an Exchange followed.
type Hop struct {
	Status int
	URL    string
}

// noRedirectsKey marks a request whose redirects are returned, not
// followed (see checkRedirect).
type noRedirectsKey struct{}

// exchange performs x. The body read counts against the call's meter as
// it arrives; a body over packs.web.max_bytes is an error of kind
// ErrBodyTooLarge, never cut (a cut JSON document would be silent
// corruption).
func (f *fetcher) exchange(parent context.Context, x Exchange) (*Reply, error) {
	if f.policyErr != nil {
		return nil, f.policyErr
	}
	u, err := checkURL(x.URL)
	if err != nil {
		return nil, pyops.Tag(pyops.ErrBadURL, err)
	}
	method := strings.ToUpper(strings.TrimSpace(x.Method))
	if method == "" {
		method = http.MethodGet
	}
	if !validMethod(method) {
		return nil, pyops.Tag(pyops.ErrBadURL, fmt.Errorf("%q is not an HTTP method", x.Method))
	}
	timeout := f.timeout
	if x.Timeout > 0 && x.Timeout < timeout {
		timeout = x.Timeout
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	if x.NoRedirects {
		ctx = context.WithValue(ctx, noRedirectsKey{}, true)
	}
	if err := f.checkHost(ctx, u); err != nil {
		return nil, f.exchangeError(parent, ctx, u, err, timeout)
	}
	var body io.Reader
	if x.Body != nil {
		body = bytes.NewReader(x.Body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, pyops.Tag(pyops.ErrBadURL, fmt.Errorf("url %q: %v", shownURL(u), err))
	}
	req.Header.Set("User-Agent", UserAgent)
	for _, h := range x.Header {
		if strings.EqualFold(h[0], "Host") {
			req.Host = h[1]
			continue
		}
		req.Header.Add(h[0], h[1])
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, f.exchangeError(parent, ctx, u, err, timeout)
	}
	defer resp.Body.Close()
	final := resp.Request.URL
	data, truncated, err := readCapped(meter.Reader(callMeter(parent), resp.Body), f.maxBytes)
	if err != nil {
		return nil, f.exchangeError(parent, ctx, final, err, timeout)
	}
	if truncated {
		return nil, pyops.Tag(pyops.ErrBodyTooLarge, fmt.Errorf("the response from %s is larger than %s (packs.web.max_bytes): raise the limit to read it", shownURL(final), sizeText(f.maxBytes)))
	}
	r := &Reply{Status: resp.StatusCode, Reason: reason(resp), URL: final.String(), Body: data}
	for _, k := range sortedKeys(resp.Header) {
		for _, v := range resp.Header[k] {
			r.Header = append(r.Header, [2]string{k, v})
		}
	}
	// The responses that redirected hang off the requests that followed.
	for q := resp.Request; q != nil && q.Response != nil; q = q.Response.Request {
		r.History = append([]Hop{{Status: q.Response.StatusCode, URL: q.Response.Request.URL.String()}}, r.History...)
	}
	return r, nil
}

// exchangeError is requestError with a kind of package pyops, for the
// exception class a program catches (requests' ConnectionError, Timeout,
// TooManyRedirects, InvalidURL; urllib's URLError).
func (f *fetcher) exchangeError(parent, ctx context.Context, u *url.URL, err error, timeout time.Duration) error {
	var re *redirectError
	var rf *refusedError
	switch {
	case parent.Err() != nil:
		return stopped(parent) // the run's own limit: not the program's to catch
	case errors.As(err, &re) && errors.As(re, &rf):
		return pyops.Tag(pyops.ErrHostRefused, re) // a redirect to a refused host
	case errors.As(err, &rf):
		return pyops.Tag(pyops.ErrHostRefused, rf)
	case errors.As(err, &re):
		return pyops.Tag(pyops.ErrRedirects, re)
	case ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded):
		return pyops.Tag(pyops.ErrTimeout, fmt.Errorf("no complete response from %s within %s: the site is slow or unreachable", shownURL(u), timeout))
	}
	err = f.requestError(parent, ctx, u, err)
	var over *overBudget
	if errors.As(err, &over) || errors.Is(err, context.Canceled) {
		return err
	}
	if strings.HasPrefix(err.Error(), "url ") || strings.Contains(err.Error(), "has no host") {
		return pyops.Tag(pyops.ErrBadURL, err)
	}
	return pyops.Tag(pyops.ErrConnect, err)
}

// sortedKeys are h's names in order, so that a reply's headers read the
// same every time.
func sortedKeys(h http.Header) []string { return slices.Sorted(maps.Keys(h)) }

func validMethod(m string) bool {
	if m == "" {
		return false
	}
	for _, c := range m {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

// reason is the status line's text without its code, as the server sent
// it ("Not Found", "File not found": CPython and requests show the
// server's), or Go's text for the code when the line has none.
func reason(resp *http.Response) string {
	if _, rest, _ := strings.Cut(strings.TrimSpace(resp.Status), " "); rest != "" {
		return rest
	}
	return http.StatusText(resp.StatusCode)
}
