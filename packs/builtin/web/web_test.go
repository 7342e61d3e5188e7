package web

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/packs"
)

const page = `<!doctype html>
<html><head><title>Widget Guide</title>
<style>body { color: red }</style>
<script>var tracking = "SCRIPT-TEXT";</script>
</head><body>
<header><div class="logo">SITE-HEADER</div></header>
<nav><a href="/">NAV-HOME</a> <a href="/about">NAV-ABOUT</a></nav>
<aside>SIDEBAR-TEXT</aside>
<h1>Widgets</h1>
<p>Read the <a href="install.html">installation notes</a>, the <a href="/faq">FAQ</a> or <a href="https://other.example/x">elsewhere</a>.</p>
<h2>Sizes</h2>
<table>
<thead><tr><th>Size</th><th>Weight</th></tr></thead>
<tbody><tr><td>Small</td><td>1 kg</td></tr><tr><td>Large</td><td>5 kg</td></tr></tbody>
</table>
<p><img src="/img/w.png" alt="a widget"></p>
<noscript>NOSCRIPT-TEXT</noscript>
<iframe src="/ad">IFRAME-TEXT</iframe>
<form action="/search"><label>Search</label><input name="q"><button>FORM-BUTTON</button></form>
<div hidden>HIDDEN-TEXT</div><div style="display: none">INVISIBLE-TEXT</div>
<footer>SITE-FOOTER</footer>
</body></html>`

func TestMarkdown(t *testing.T) {
	tests := []struct {
		name      string
		path      string // served under /docs/
		body      string
		want, not []string
	}{
		{
			name: "page",
			body: page,
			want: []string{
				"# Widget Guide\n\n# Widgets",
				"## Sizes",
				"| Size | Weight |\n|---|---|\n| Small | 1 kg |\n| Large | 5 kg |",
				"[installation notes](%s/docs/install.html)",
				"[FAQ](%s/faq)",
				"[elsewhere](https://other.example/x)",
				"![a widget](%s/img/w.png)",
			},
			not: []string{"SCRIPT-TEXT", "color: red", "NAV-HOME", "NAV-ABOUT", "SITE-HEADER", "SITE-FOOTER", "SIDEBAR-TEXT",
				"NOSCRIPT-TEXT", "IFRAME-TEXT", "FORM-BUTTON", "HIDDEN-TEXT", "INVISIBLE-TEXT", "<table", "<p>"},
		},
		{
			name: "title equal to the first heading is not repeated",
			body: `<html><head><title>Hello  World</title></head><body><h1>Hello World</h1><p>x</p></body></html>`,
			want: []string{"# Hello World\n\nx"},
			not:  []string{"# Hello  World", "# Hello World\n\n# Hello World"},
		},
		{
			name: "main is the content; header inside an article is kept",
			body: `<html><body><div class="sidebar">SIDEBAR-DIV</div><main><article><header><h1>Post</h1><p>By Ann</p></header><p>Body text.</p><footer>Tags: go</footer></article></main><div>AFTER-MAIN</div></body></html>`,
			want: []string{"# Post", "By Ann", "Body text.", "Tags: go"},
			not:  []string{"SIDEBAR-DIV", "AFTER-MAIN"},
		},
		{
			name: "base href",
			body: `<html><head><base href="https://cdn.example.net/base/"></head><body><p><a href="x.html">x</a></p></body></html>`,
			want: []string{"[x](https://cdn.example.net/base/x.html)"},
		},
		{
			name: "landmark roles and aria-hidden",
			body: `<html><body><div role="navigation">ROLE-NAV</div><div role="banner">ROLE-BANNER</div><p>Kept <span aria-hidden="true">ARIA-HIDDEN</span>text</p></body></html>`,
			want: []string{"Kept text"},
			not:  []string{"ROLE-NAV", "ROLE-BANNER", "ARIA-HIDDEN"},
		},
		{
			name: "a page-wide form with text is kept",
			body: `<html><body><form id="aspnetForm"><h1>Report</h1><p>Numbers.</p><input name="x"></form></body></html>`,
			want: []string{"# Report", "Numbers."},
		},
		{
			name: "table without header cells, code, lists",
			body: `<html><body><table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table><pre><code>x := 1
y := 2</code></pre><ul><li>one</li></ul><ul><li>two</li></ul></body></html>`,
			want: []string{"| a | b |\n|---|---|\n| 1 | 2 |", "```\nx := 1\ny := 2\n```", "- one", "- two"},
			not:  []string{"THE END"},
		},
		{
			name: "inline images are dropped",
			body: `<html><body><p>pic: <img src="data:image/png;base64,iVBORw0KGgo=" alt="inline"></p></body></html>`,
			want: []string{"pic:"},
			not:  []string{"data:", "base64"},
		},
		{
			name: "a page with no text says so",
			body: `<html><head><title>App</title><script src="app.js"></script></head><body><div id="root"></div></body></html>`,
			want: []string{"# App", "no readable text", `format="raw"`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, Options{}, true)
			e.serve("/docs/page.html", "text/html; charset=utf-8", 200, tc.body)
			got := e.fetch(map[string]any{"url": e.url("/docs/page.html")})
			var want []string
			for _, w := range tc.want {
				if strings.Contains(w, "%s") {
					w = fmt.Sprintf(w, e.srv.URL)
				}
				want = append(want, w)
			}
			contains(t, got, want, tc.not)
		})
	}
}

func TestText(t *testing.T) {
	e := newEnv(t, Options{}, true)
	e.serve("/docs/page.html", "text/html", 200, page)
	got := e.fetch(map[string]any{"url": e.url("/docs/page.html"), "format": "text"})
	contains(t, got,
		[]string{"Widget Guide\n\nWidgets\n\nRead the installation notes, the FAQ or elsewhere.", "Sizes", "Size | Weight\nSmall | 1 kg\nLarge | 5 kg"},
		[]string{"#", "](", "**", "SCRIPT-TEXT", "NAV-HOME", "SITE-FOOTER", "SIDEBAR-TEXT", "\n\n\n"})

	e.serve("/list", "text/html", 200, `<ol start="3"><li>three</li><li>four<ul><li>inner</li></ul></li></ol><p>a<br>b</p><pre>  keep
    indent</pre>`)
	got = e.fetch(map[string]any{"url": e.url("/list"), "format": "text"})
	contains(t, got, []string{"3. three\n4. four\n  - inner", "a\nb", "  keep\n    indent"}, nil)
}

func TestRaw(t *testing.T) {
	e := newEnv(t, Options{}, true)
	e.serve("/p", "text/html", 200, page)
	if got := e.fetch(map[string]any{"url": e.url("/p"), "format": "raw"}); got != page {
		t.Errorf("raw = %q, want the body as received", got)
	}
	e.fails(map[string]any{"url": e.url("/p"), "format": "html"}, "format", "markdown", "text", "raw")
}

func TestContentTypes(t *testing.T) {
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
	tests := []struct {
		name, ctype, body string
		format            string
		want              string   // the whole result, when no error
		errs              []string // else: the error contains these
	}{
		{name: "plain text", ctype: "text/plain", body: "line <b>1</b>\n", want: "line <b>1</b>\n"},
		{name: "json", ctype: "application/json", body: `{"a": [1, 2]}`, want: `{"a": [1, 2]}`},
		{name: "problem json", ctype: "application/problem+json", body: `{"title": "x"}`, want: `{"title": "x"}`},
		{name: "xml", ctype: "application/xml", body: `<?xml version="1.0"?><a><b>1</b></a>`, want: `<?xml version="1.0"?><a><b>1</b></a>`},
		{name: "rss", ctype: "application/rss+xml", body: `<rss><channel/></rss>`, want: `<rss><channel/></rss>`},
		{name: "csv as text", ctype: "text/csv", format: "text", body: "a,b\n1,2\n", want: "a,b\n1,2\n"},
		{name: "markdown", ctype: "text/markdown; charset=utf-8", body: "# Title\n", want: "# Title\n"},
		{name: "xhtml converts", ctype: "application/xhtml+xml", body: `<html><body><p><b>x</b></p></body></html>`, want: "**x**"},
		{name: "latin-1", ctype: "text/plain; charset=ISO-8859-1", body: "caf\xe9", want: "café"},
		{name: "xml declaration encoding", ctype: "application/xml", body: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>\xe9</a>", want: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>é</a>"},
		{name: "html meta charset", ctype: "text/html", format: "text", body: "<html><head><meta charset=\"windows-1252\"></head><body><p>\x93quoted\x94</p></body></html>", want: "“quoted”"},
		{name: "no type, html sniffed", ctype: "", body: "<!DOCTYPE html><html><body><p><i>sniffed</i></p></body></html>", want: "*sniffed*"},
		{name: "no type, text sniffed", ctype: "", body: "just words", want: "just words"},
		{name: "png", ctype: "image/png", body: png, errs: []string{"image/png", "not text", "/f"}},
		{name: "pdf", ctype: "application/pdf", body: "%PDF-1.7\n", errs: []string{"application/pdf", "not text"}},
		{name: "octet-stream", ctype: "application/octet-stream", body: "abc", errs: []string{"application/octet-stream", "3 bytes"}},
		{name: "no type, binary", ctype: "", body: png, errs: []string{"no Content-Type", "image/png"}},
		{name: "text that is binary", ctype: "text/plain", body: "a\x00b\x00c", errs: []string{"declared text/plain", "binary"}},
		{name: "svg is xml text", ctype: "image/svg+xml", body: `<svg xmlns="http://www.w3.org/2000/svg"/>`, want: `<svg xmlns="http://www.w3.org/2000/svg"/>`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, Options{}, true)
			e.serve("/f", tc.ctype, 200, tc.body)
			args := map[string]any{"url": e.url("/f")}
			if tc.format != "" {
				args["format"] = tc.format
			}
			if tc.errs != nil {
				e.fails(args, tc.errs...)
				return
			}
			if got := e.fetch(args); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestGzip(t *testing.T) {
	e := newEnv(t, Options{MaxBytes: 1000}, false)
	e.mux.HandleFunc("/gz", func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			t.Errorf("Accept-Encoding = %q", r.Header.Get("Accept-Encoding"))
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		_, _ = zw.Write([]byte(strings.Repeat("z", 5000))) // 5000 bytes unpacked, a few dozen packed
		_ = zw.Close()
	})
	got := e.fetch(map[string]any{"url": e.url("/gz")})
	// The cap applies to what was unpacked.
	if !strings.HasPrefix(got, strings.Repeat("z", 1000)+"\n\n… (the response was cut at 1000 bytes") {
		t.Errorf("got %.120q…", got)
	}
}

func TestRequestHeaders(t *testing.T) {
	e := newEnv(t, Options{}, true)
	e.mux.HandleFunc("/h", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "%s %s|%s", r.Method, r.Header.Get("User-Agent"), r.Header.Get("Accept"))
	})
	got := e.fetch(map[string]any{"url": e.url("/h#fragment")})
	if !strings.HasPrefix(got, "GET "+UserAgent+"|text/html") {
		t.Errorf("got %q", got)
	}
}

func TestSizeCap(t *testing.T) {
	e := newEnv(t, Options{MaxBytes: 100}, true)
	e.serve("/exact", "text/plain", 200, strings.Repeat("a", 100))
	e.serve("/big", "text/plain", 200, strings.Repeat("b", 10000))
	// A two-byte character across the cap is dropped whole.
	e.serve("/utf8", "text/plain", 200, strings.Repeat("c", 99)+"é"+strings.Repeat("c", 50))
	e.serve("/html", "text/html", 200, "<html><body><p>"+strings.Repeat("word ", 100)+"</p><p>LATER</p></body></html>")

	if got := e.fetch(map[string]any{"url": e.url("/exact")}); got != strings.Repeat("a", 100) {
		t.Errorf("a body of exactly MaxBytes: got %q", got)
	}
	got := e.fetch(map[string]any{"url": e.url("/big")})
	want := strings.Repeat("b", 100) + "\n\n… (the response was cut at 100 bytes, packs.web.max_bytes: the rest was not read)"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	got = e.fetch(map[string]any{"url": e.url("/utf8")})
	if !utf8.ValidString(got) || !strings.HasPrefix(got, strings.Repeat("c", 99)+"\n\n… (the response was cut") {
		t.Errorf("got %q", got)
	}
	got = e.fetch(map[string]any{"url": e.url("/html")})
	contains(t, got, []string{"word word", "was cut at 100 bytes"}, []string{"LATER"})
}

func TestRedirects(t *testing.T) {
	e := newEnv(t, Options{MaxRedirects: 2}, true)
	hop := func(from, to string) {
		e.mux.HandleFunc(from, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, to, http.StatusFound)
		})
	}
	e.serve("/docs/final.html", "text/html", 200, `<html><body><p><a href="next.html">next</a></p></body></html>`)
	hop("/one", "/two")
	hop("/two", "/docs/final.html")
	hop("/a", "/b")
	hop("/b", "/c")
	hop("/c", "/docs/final.html")
	hop("/loop", "/loop")
	hop("/ftp", "ftp://files.example.com/x")
	hop("/file", "file:///etc/passwd")

	// Two hops are within the limit; links resolve against the final URL.
	got := e.fetch(map[string]any{"url": e.url("/one")})
	contains(t, got, []string{"[next](" + e.url("/docs/next.html") + ")"}, nil)

	e.fails(map[string]any{"url": e.url("/a")}, "stopped after 2 redirects", "packs.web.max_redirects", e.url("/docs/final.html"))
	e.fails(map[string]any{"url": e.url("/loop")}, "redirect loop", e.url("/loop"))
	e.fails(map[string]any{"url": e.url("/ftp")}, "redirects to ftp://files.example.com/x", "only http and https")
	e.fails(map[string]any{"url": e.url("/file")}, "file:///etc/passwd", "only http and https")

	// max_redirects 0 (from the settings) follows none.
	opts, err := ParseSettings(map[string]any{"max_redirects": int64(0)})
	if err != nil {
		t.Fatal(err)
	}
	none := newEnv(t, opts, true)
	none.mux.HandleFunc("/one", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/two", http.StatusFound)
	})
	none.fails(map[string]any{"url": none.url("/one")}, "redirects are not followed", none.url("/two"))
}

func TestRedirectIntoDeniedHost(t *testing.T) {
	for _, custom := range []bool{true, false} {
		t.Run(fmt.Sprintf("custom=%v", custom), func(t *testing.T) {
			e := newEnv(t, Options{AllowHosts: []string{"127.0.0.1"}, DenyHosts: []string{"localhost", "127.0.0.2"}}, custom)
			port := e.srv.Listener.Addr().(interface{ String() string }).String()
			port = port[strings.LastIndexByte(port, ':')+1:]
			e.mux.HandleFunc("/to-name", func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "http://LOCALHOST.:"+port+"/secret", http.StatusMovedPermanently)
			})
			e.mux.HandleFunc("/to-addr", func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "http://127.0.0.2:"+port+"/secret", http.StatusTemporaryRedirect)
			})
			e.serve("/secret", "text/plain", 200, "SECRET")
			msg := e.fails(map[string]any{"url": e.url("/to-name")}, "redirects to http://LOCALHOST.:"+port+"/secret", "host localhost is refused by packs.web.deny_hosts (localhost)")
			if strings.Contains(msg, "SECRET") {
				t.Error(msg)
			}
			e.fails(map[string]any{"url": e.url("/to-addr")}, "host 127.0.0.2 is refused by packs.web.deny_hosts (127.0.0.2)")
		})
	}
}

func TestHostRules(t *testing.T) {
	tests := []struct {
		allow, deny []string
		host        string
		ok          bool
	}{
		{nil, nil, "example.com", true},
		{[]string{"example.com"}, nil, "example.com", true},
		{[]string{"example.com"}, nil, "EXAMPLE.com.", true},
		{[]string{"example.com"}, nil, "www.example.com", false},
		{[]string{"*.example.com"}, nil, "www.example.com", true},
		{[]string{"*.example.com"}, nil, "a.b.example.com", true},
		{[]string{"*.example.com"}, nil, "example.com", false},
		{[]string{"*.example.com"}, nil, "badexample.com", false},
		{[]string{"10.0.0.0/8"}, nil, "10.1.2.3", true},
		{[]string{"10.0.0.0/8"}, nil, "11.1.2.3", false},
		{[]string{"127.0.0.1"}, nil, "127.0.0.1", true},
		{[]string{"[::1]"}, nil, "::1", true},
		{[]string{"fd00::/8"}, nil, "[fd12::1]", true},
		{nil, []string{"example.com"}, "example.com", false},
		{nil, []string{"example.com"}, "www.example.com", true},
		{nil, []string{"*.internal"}, "db.internal", false},
		{nil, []string{"169.254.0.0/16"}, "169.254.169.254", false},
		{nil, []string{"127.0.0.0/8"}, "::ffff:127.0.0.1", false}, // mapped addresses are unmapped
		{[]string{"*.example.com"}, []string{"secret.example.com"}, "secret.example.com", false},
		{[]string{"*.example.com"}, []string{"secret.example.com"}, "docs.example.com", true},
		{[]string{"10.0.0.0/8"}, []string{"10.0.0.5"}, "10.0.0.5", false},
	}
	for _, tc := range tests {
		p, err := newPolicy(tc.allow, tc.deny)
		if err != nil {
			t.Fatal(err)
		}
		err = checkPolicy(p, tc.host)
		if (err == nil) != tc.ok {
			t.Errorf("allow %q deny %q, host %s: err = %v, want ok=%v", tc.allow, tc.deny, tc.host, err, tc.ok)
		}
		if err != nil && !errors.Is(err, errRefused) {
			t.Errorf("error %v is not errRefused", err)
		}
	}

	// A name passes checkName when an allow CIDR may match its addresses;
	// the addresses decide (checkResolved, or the dialer).
	p, _ := newPolicy([]string{"10.0.0.0/8"}, nil)
	if _, err := p.checkName("intranet.example", false); err != nil {
		t.Errorf("a name with CIDR rules: %v", err)
	}
	p, _ = newPolicy([]string{"example.com"}, nil)
	if _, err := p.checkName("other.example", false); err == nil || !strings.Contains(err.Error(), "not in packs.web.allow_hosts (example.com)") {
		t.Errorf("got %v", err)
	}
}

// TestHostsResolved checks CIDR rules against the addresses a name
// resolves to, with the default client (checked when dialling) and a
// custom one (checked before the request). localhost resolves offline.
func TestHostsResolved(t *testing.T) {
	for _, custom := range []bool{true, false} {
		t.Run(fmt.Sprintf("custom=%v", custom), func(t *testing.T) {
			deny := newEnv(t, Options{DenyHosts: []string{"127.0.0.0/8", "::1/128"}}, custom)
			deny.serve("/x", "text/plain", 200, "X")
			u := strings.Replace(deny.url("/x"), "127.0.0.1", "localhost", 1)
			deny.fails(map[string]any{"url": u}, "host localhost", "is refused by packs.web.deny_hosts")

			allow := newEnv(t, Options{AllowHosts: []string{"127.0.0.0/8"}}, custom)
			allow.serve("/x", "text/plain", 200, "X")
			u = strings.Replace(allow.url("/x"), "127.0.0.1", "localhost", 1)
			if got := allow.fetch(map[string]any{"url": u}); got != "X" {
				t.Errorf("got %q", got)
			}
			// By address, directly.
			if got := allow.fetch(map[string]any{"url": allow.url("/x")}); got != "X" {
				t.Errorf("got %q", got)
			}

			other := newEnv(t, Options{AllowHosts: []string{"10.0.0.0/8", "docs.example.com"}}, custom)
			other.serve("/x", "text/plain", 200, "X")
			other.fails(map[string]any{"url": other.url("/x")}, "host 127.0.0.1 is not in packs.web.allow_hosts (10.0.0.0/8, docs.example.com)")
			u = strings.Replace(other.url("/x"), "127.0.0.1", "localhost", 1)
			other.fails(map[string]any{"url": u}, "host localhost", "is not in packs.web.allow_hosts")
		})
	}
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	slow := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		case <-time.After(5 * time.Second):
		}
	}
	slowBody := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("start "))
		w.(http.Flusher).Flush()
		slow(w, r)
	}

	e := newEnv(t, Options{Timeout: 100 * time.Millisecond}, true)
	e.mux.HandleFunc("/slow", slow)
	e.mux.HandleFunc("/slow-body", slowBody)

	start := time.Now()
	e.fails(map[string]any{"url": e.url("/slow")}, "no complete response from", "within 100ms (packs.web.timeout)")
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s", d)
	}
	e.fails(map[string]any{"url": e.url("/slow-body")}, "within 100ms")

	// The caller's context: cancellation, and its own deadline.
	e2 := newEnv(t, Options{Timeout: 10 * time.Second}, false)
	e2.mux.HandleFunc("/slow", slow)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := e2.callCtx(ctx, map[string]any{"url": e2.url("/slow")})
	if err == nil || !strings.Contains(err.Error(), "stopped: the call was cancelled") {
		t.Errorf("cancelled: %v", err)
	}
	ctx, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	_, err = e2.callCtx(ctx, map[string]any{"url": e2.url("/slow")})
	if err == nil || !strings.Contains(err.Error(), "stopped: the time limit was reached") {
		t.Errorf("deadline: %v", err)
	}
	// Already cancelled: nothing is sent.
	ctx, cancel3 := context.WithCancel(context.Background())
	cancel3()
	if _, err := e2.callCtx(ctx, map[string]any{"url": e2.url("/slow")}); err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Errorf("pre-cancelled: %v", err)
	}
}

func TestStatusErrors(t *testing.T) {
	e := newEnv(t, Options{}, true)
	e.serve("/missing", "text/html", 404, `<html><head><title>Not here</title><style>x{}</style></head><body><nav>NAV</nav><h1>Page not found</h1><p>Try the <a href="/">home page</a>.</p></body></html>`)
	e.serve("/boom", "text/plain", 500, "database exploded\n"+strings.Repeat("trace line\n", 200))
	e.serve("/forbidden", "text/plain", 403, "")
	e.serve("/binary", "application/octet-stream", 502, "\x00\x01\x02")
	e.mux.HandleFunc("/busy", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusTooManyRequests)
	})

	msg := e.fails(map[string]any{"url": e.url("/missing")}, "HTTP 404 Not Found from "+e.url("/missing"), "Page not found", "Try the home page.")
	contains(t, msg, nil, []string{"<h1>", "NAV", "x{}"})
	msg = e.fails(map[string]any{"url": e.url("/boom")}, "HTTP 500 Internal Server Error", "database exploded trace line", "…")
	if len(msg) > 600 {
		t.Errorf("the excerpt is long: %d bytes", len(msg))
	}
	e.fails(map[string]any{"url": e.url("/forbidden")}, "HTTP 403 Forbidden", "refuses access")
	msg = e.fails(map[string]any{"url": e.url("/binary")}, "HTTP 502 Bad Gateway")
	if strings.Contains(msg, "\x00") {
		t.Errorf("binary in the message: %q", msg)
	}
	e.fails(map[string]any{"url": e.url("/busy")}, "HTTP 429 Too Many Requests", "Retry-After: 120")
}

func TestBadURLs(t *testing.T) {
	e := newEnv(t, Options{}, true)
	tests := []struct {
		url  string
		want []string
	}{
		{"", []string{"url is empty"}},
		{"   ", []string{"url is empty"}},
		{"example.com/page", []string{`has no scheme: did you mean "https://example.com/page"?`}},
		{"localhost:8080/x", []string{`did you mean "https://localhost:8080/x"?`}},
		{"ftp://ftp.example.com/file", []string{"only http:// and https://", "not ftp:"}},
		{"file:///etc/passwd", []string{"not file:"}},
		{"javascript:alert(1)", []string{"not javascript:"}},
		{"mailto:a@example.com", []string{"not mailto:"}},
		{"http:///path", []string{"has no host"}},
		{"https://", []string{"has no host"}},
		{"http://example.com:99999/", []string{"invalid port"}},
		{"http://exa mple.com/", []string{"not a valid URL"}},
		{"https://user:hunter2@example.invalid:0/", []string{"xxxxx"}},
	}
	for _, tc := range tests {
		msg := e.fails(map[string]any{"url": tc.url}, tc.want...)
		if strings.Contains(msg, "hunter2") {
			t.Errorf("password shown: %s", msg)
		}
	}
	e.fails(map[string]any{"url": int64(3)}, "url")
}

func TestPaging(t *testing.T) {
	e := newEnv(t, Options{}, true)
	var lines []string
	for i := range 50 {
		lines = append(lines, fmt.Sprintf("line %02d ééé", i)) // 11 characters, 14 bytes
	}
	doc := strings.Join(lines, "\n") + "\n"
	total := utf8.RuneCountInString(doc) // 600
	e.serve("/long.txt", "text/plain; charset=utf-8", 200, doc)
	u := e.url("/long.txt")

	got := e.fetch(map[string]any{"url": u, "max_chars": 100})
	// Cut at the end of a line within the limit: 8 lines of 12 characters.
	want := strings.Join(lines[:8], "\n") + "\n\n… (504 more characters: web.fetch(url=\"" + u + "\", max_chars=100, start=96))"
	if got != want {
		t.Errorf("first part:\n%q\nwant\n%q", got, want)
	}

	// Following the hints reads the whole document, nothing lost or doubled.
	var b strings.Builder
	start := 0
	for n := 0; ; n++ {
		if n > 20 {
			t.Fatal("too many parts")
		}
		part := e.fetch(map[string]any{"url": u, "max_chars": 100, "start": start, "format": "text"})
		body, hint, more := strings.Cut(part, "\n\n… (")
		if !more {
			b.WriteString(part)
			break
		}
		// The cut dropped the line break that ends the part: restore it.
		b.WriteString(body + "\n")
		if !strings.Contains(hint, `format="text", max_chars=100, start=`) {
			t.Fatalf("hint %q", hint)
		}
		var remaining int
		if _, err := fmt.Sscanf(hint[strings.Index(hint, "start=")+6:], "%d", &start); err != nil {
			t.Fatal(err)
		}
		if _, err := fmt.Sscanf(hint, "%d more characters", &remaining); err != nil || remaining != total-start {
			t.Fatalf("hint %q: remaining %d, want %d", hint, remaining, total-start)
		}
	}
	if b.String() != doc {
		t.Errorf("the parts joined:\n%q\nwant\n%q", b.String(), doc)
	}

	// The default max_chars fits the whole document.
	if got := e.fetch(map[string]any{"url": u}); got != doc {
		t.Errorf("whole: %q", got)
	}
	// A synonym, and a start in the middle of a word.
	if got := e.fetch(map[string]any{"url": u, "offset": 5, "limit": 3}); got != "00\n\n… (592 more characters: web.fetch(url=\""+u+"\", max_chars=3, start=8))" {
		t.Errorf("got %q", got)
	}
	e.fails(map[string]any{"url": u, "start": total}, "start=600 is past the end", "600 characters")
	e.fails(map[string]any{"url": u, "max_chars": 0}, "max_chars")
	e.fails(map[string]any{"url": u, "start": -1}, "start")

	// An empty body is an empty string, at start 0.
	e.serve("/empty", "text/plain", 200, "")
	if got := e.fetch(map[string]any{"url": e.url("/empty")}); got != "" {
		t.Errorf("empty: %q", got)
	}
}

func TestParallel(t *testing.T) {
	e := newEnv(t, Options{AllowHosts: []string{"127.0.0.1"}, DenyHosts: []string{"10.0.0.0/8"}}, false)
	e.serve("/p", "text/html", 200, page)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Go(func() {
			v, err := e.call(map[string]any{"url": e.url("/p")})
			if err == nil && !strings.Contains(v.(string), "| Small | 1 kg |") {
				err = fmt.Errorf("got %q", v)
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestToolDeclaration(t *testing.T) {
	reg := packs.NewRegistry()
	if err := Register(reg, Options{}); err != nil {
		t.Fatal(err)
	}
	tl, ok := reg.Tool("web.fetch")
	if !ok {
		t.Fatal("no web.fetch")
	}
	if !tl.Annotations.ReadOnly || !tl.Annotations.OpenWorld || tl.Annotations.Destructive {
		t.Errorf("annotations %+v", tl.Annotations)
	}
	if len(tl.Examples) < 2 {
		t.Errorf("%d examples", len(tl.Examples))
	}
	want := `web.fetch(url: str, format: str = "markdown", max_chars: int = 20000, start: int = 0) -> str`
	if got := tl.Signature(); got != want {
		t.Errorf("signature\n%s\nwant\n%s", got, want)
	}
	if p, ok := reg.Pack("web"); !ok || p.Description != Description {
		t.Errorf("pack description %v", p)
	}

	// Invalid options: Register refuses, Tools' handler explains.
	if err := Register(packs.NewRegistry(), Options{DenyHosts: []string{"http://x.com/"}}); err == nil || !strings.Contains(err.Error(), "deny_hosts[0]") {
		t.Errorf("Register: %v", err)
	}
	bad := Tools(Options{AllowHosts: []string{"a*b"}})[0]
	if _, err := bad.Handler(context.Background(), map[string]any{"url": "http://127.0.0.1:1/"}); err == nil || !strings.Contains(err.Error(), "settings are invalid") {
		t.Errorf("handler with bad options: %v", err)
	}
}

func TestCheckURLKeepsQuery(t *testing.T) {
	u, err := checkURL(" HTTPS://Example.com/a b?q=1&r=%20#frag ")
	if err == nil {
		// Go accepts a space in the path; what matters is the rest.
		if u.Scheme != "https" || u.RawQuery != "q=1&r=%20" || u.Fragment != "" {
			t.Errorf("got %#v", u)
		}
	}
	if _, err := checkURL("http://[::1]:8080/"); err != nil {
		t.Error(err)
	}
}

func TestReadCapped(t *testing.T) {
	tests := []struct {
		in   string
		max  int64
		want string
		cut  bool
	}{
		{"abc", 3, "abc", false},
		{"abcd", 3, "abc", true},
		{"aé", 3, "aé", false},
		{"aéb", 3, "aé", true}, // the cut falls after a whole character
		{"aaé", 3, "aa", true}, // inside one: dropped
		{"a€b", 3, "a", true},  // inside a three-byte one
		{"😀x", 4, "😀", true},   // after a four-byte one
	}
	for _, tc := range tests {
		got, cut, err := readCapped(strings.NewReader(tc.in), tc.max)
		if err != nil || string(got) != tc.want || cut != tc.cut {
			t.Errorf("readCapped(%q, %d) = %q, %v, %v; want %q, %v", tc.in, tc.max, got, cut, err, tc.want, tc.cut)
		}
	}
}

// TestPagingReadsOneSnapshot: the calls for the next parts read the
// document the first call fetched; a call from start 0 fetches again.
func TestPagingReadsOneSnapshot(t *testing.T) {
	e := newEnv(t, Options{}, true)
	var mu sync.Mutex
	hits := 0
	e.mux.HandleFunc("/changing", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits++
		n := hits
		mu.Unlock()
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "version %d\n%s", n, strings.Repeat("x", 100))
	})
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return hits
	}
	u := e.url("/changing")
	first := e.fetch(map[string]any{"url": u, "max_chars": 50})
	second := e.fetch(map[string]any{"url": u, "max_chars": 50, "start": 50})
	if !strings.HasPrefix(first, "version 1\n") || strings.Contains(second, "version") || count() != 1 {
		t.Errorf("hits %d, parts %q, %q", count(), first, second)
	}
	// Another format is another document.
	e.fetch(map[string]any{"url": u, "max_chars": 50, "start": 50, "format": "raw"})
	if again := e.fetch(map[string]any{"url": u, "max_chars": 50}); !strings.HasPrefix(again, "version 3\n") || count() != 3 {
		t.Errorf("hits %d, start 0 again: %q", count(), again)
	}
}

func TestDocCache(t *testing.T) {
	c := newDocCache()
	now := time.Unix(1000, 0)
	c.now = func() time.Time { return now }
	c.put("a", "A")
	c.put("b", "B")
	if d, ok := c.get("a"); !ok || d != "A" {
		t.Errorf("get a: %q %v", d, ok)
	}
	now = now.Add(cacheTTL + time.Second)
	c.put("c", "C")
	if _, ok := c.get("a"); ok {
		t.Error("a did not expire")
	}
	if d, ok := c.get("c"); !ok || d != "C" || c.size != 1 {
		t.Errorf("c: %q %v size %d", d, ok, c.size)
	}
	for i := range cacheMaxEntries + 3 {
		c.put(fmt.Sprint(i), "0123456789")
	}
	if len(c.entries) != cacheMaxEntries || c.size != 10*cacheMaxEntries {
		t.Errorf("%d entries, %d bytes", len(c.entries), c.size)
	}
	if _, ok := c.get("0"); ok {
		t.Error("the oldest entry was kept")
	}
}
