package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/packs/meter"
)

// checkPolicy checks a URL's host before any resolution, as checkHost
// does: an address whole, a name by the name rules.
func checkPolicy(p *policy, host string) error {
	a, isAddr, err := hostAddr(host)
	if err != nil {
		return err
	}
	if isAddr {
		return p.checkAddr(host, a, p.addrAdmission())
	}
	_, err = p.checkName(host, false)
	return err
}

// fakeDNS answers lookups from a table; a name maps to a list of answers,
// one per lookup (the last repeats), so that a test can change what a name
// resolves to between lookups (DNS rebinding).
type fakeDNS struct {
	mu      sync.Mutex
	names   map[string][][]string
	lookups map[string]int
}

func newDNS(names map[string][][]string) *fakeDNS {
	return &fakeDNS{names: names, lookups: map[string]int{}}
}

func (d *fakeDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	host = normalizeHost(host)
	answers, ok := d.names[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	n := d.lookups[host]
	d.lookups[host]++
	var out []netip.Addr
	for _, s := range answers[min(n, len(answers)-1)] {
		out = append(out, netip.MustParseAddr(s))
	}
	return out, nil
}

func (d *fakeDNS) count(host string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.lookups[host]
}

// loopbackForms are ways of writing this machine's loopback (or
// unspecified) address in a URL's host, each of which must be refused
// like 127.0.0.1 itself.
var loopbackForms = []string{
	"127.0.0.1", "127.0.0.2", "127.255.255.254",
	"0.0.0.0", "0",
	"[::]", "[::1]", "[0:0:0:0:0:0:0:1]",
	"[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[0:0:0:0:0:ffff:7f00:1]", "[::ffff:0.0.0.0]",
	"[::127.0.0.1]", "[::7f00:1]", // IPv4-compatible
	"[64:ff9b::7f00:1]", "[64:ff9b::127.0.0.1]", // NAT64
	"[2002:7f00:1::]", "[2002:7f00:1::1]", // 6to4
	"[2001:0:4136:e378:8000:63bf:80ff:fffe]", // Teredo, client 127.0.0.1
	"2130706433", "0x7f000001", "0x7f.1", "0177.0.0.1", "0177.1", "127.1", "127.0.1", "017700000001",
	"127.0.0.1.", "2130706433.",
	"[::1%25lo]", "[fe80::1%25eth0]",
}

// privateForms are other addresses that are not public.
var privateForms = []string{
	"10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", // RFC 1918
	"100.64.0.1", "100.127.255.254", // CGNAT
	"169.254.169.254", "169.254.0.1", // link-local, metadata
	"[fc00::1]", "[fd12:3456::1]", "[fe80::1]", "[fec0::1]",
	"224.0.0.1", "239.255.255.250", "255.255.255.255", "240.0.0.1",
	"192.0.2.1", "198.51.100.1", "203.0.113.1", "198.18.0.1", "192.0.0.1",
	"[ff02::1]", "[2001:db8::1]", "[100::1]", "[3fff::1]",
	"[::ffff:10.0.0.1]", "[::ffff:169.254.169.254]", "[64:ff9b::a9fe:a9fe]", "[2002:a00:1::1]",
	"0xa.1", "012.0.0.1", "167772161",
}

// TestDefaultRefusesNonPublic: with no allow_hosts, every loopback,
// private, link-local or otherwise special address is refused, in every
// form it can be written, with a message that says how to allow it.
func TestDefaultRefusesNonPublic(t *testing.T) {
	p, err := newPolicy(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range append(append([]string{}, loopbackForms...), privateForms...) {
		host := strings.ReplaceAll(h, "%25", "%") // as url.URL.Hostname gives it
		err := checkPolicy(p, host)
		if err == nil {
			t.Errorf("%s: allowed", h)
			continue
		}
		if !errors.Is(err, errRefused) {
			t.Errorf("%s: %v is not a refusal", h, err)
		}
		if msg := err.Error(); !strings.Contains(msg, "packs.web.allow_hosts") {
			t.Errorf("%s: %q does not say how to allow it", h, msg)
		}
	}
	for _, h := range []string{"93.184.216.34", "[2606:2800:220:1:248:1893:25c8:1946]", "[::ffff:93.184.216.34]", "[64:ff9b::5db8:d822]", "8.8.8.8", "example.com", "docs.go.dev."} {
		if err := checkPolicy(p, h); err != nil && !strings.Contains(h, "64:ff9b") {
			t.Errorf("%s: %v", h, err)
		}
	}
}

// TestRefusalMessages: what the user reads.
func TestRefusalMessages(t *testing.T) {
	p, _ := newPolicy(nil, nil)
	tests := []struct{ host, want string }{
		{"127.0.0.1", `host 127.0.0.1 is a loopback address: web.fetch reaches only public addresses unless packs.web.allow_hosts names the host. To allow it, add "127.0.0.1" (or the host's name) to packs.web.allow_hosts in onetool.yaml`},
		{"0.0.0.0", `host 0.0.0.0 is the unspecified address, which reaches this machine:`},
		{"::", `host :: is the unspecified address, which reaches this machine:`},
		{"::ffff:7f00:1", `host ::ffff:7f00:1 (127.0.0.1) is a loopback address:`},
		{"64:ff9b::7f00:1", `host 64:ff9b::7f00:1 is an address that embeds 127.0.0.1, a loopback address:`},
		{"10.1.2.3", `host 10.1.2.3 is a private address:`},
		{"100.64.0.1", `host 100.64.0.1 is a shared (carrier-grade NAT) address:`},
		{"169.254.169.254", `host 169.254.169.254 is a link-local address:`},
		{"0x7f.1", `host 0x7f.1 is the IPv4 address 127.0.0.1 written another way, which web.fetch does not accept: write 127.0.0.1`},
		{"2130706433", `write 127.0.0.1`},
		{"1.2.3.4.5", `host 1.2.3.4.5 is not a valid IPv4 address`},
		{"999.1.1.1", `is not a valid IPv4 address`},
	}
	for _, tt := range tests {
		err := checkPolicy(p, tt.host)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v\nwant %q", tt.host, err, tt.want)
		}
	}
}

// TestAllowHostsAdmits: allow_hosts admits what it names — by address,
// CIDR or exact name — and no alias of an address it does not name; a
// wildcard admits public addresses only.
func TestAllowHostsAdmits(t *testing.T) {
	dns := newDNS(map[string][][]string{
		"localhost":         {{"127.0.0.1", "::1"}},
		"intranet.corp":     {{"10.0.0.5"}},
		"a.example.com":     {{"10.0.0.6"}},
		"www.example.com":   {{"93.184.216.34"}},
		"mixed.example.com": {{"93.184.216.34", "127.0.0.1"}},
		"ten.example.com":   {{"10.9.9.9"}},
	})
	tests := []struct {
		allow, deny []string
		host        string
		ok          bool
	}{
		{[]string{"127.0.0.1"}, nil, "127.0.0.1", true},
		{[]string{"127.0.0.1"}, nil, "[::ffff:127.0.0.1]", true},
		{[]string{"127.0.0.1"}, nil, "127.0.0.1.", true},
		{[]string{"127.0.0.1"}, nil, "127.0.0.2", false},
		{[]string{"127.0.0.1"}, nil, "[::1]", false},
		{[]string{"127.0.0.1"}, nil, "[64:ff9b::7f00:1]", false},
		{[]string{"127.0.0.1"}, nil, "2130706433", false},
		{[]string{"127.0.0.0/8", "::1"}, nil, "[::1]", true},
		{[]string{"::ffff:127.0.0.0/104"}, nil, "127.0.0.9", true},
		{[]string{"64:ff9b::/96"}, nil, "[64:ff9b::5db8:d822]", true},
		{[]string{"64:ff9b::/96"}, nil, "[64:ff9b::7f00:1]", false},
		{[]string{"64:ff9b::/96", "127.0.0.1"}, nil, "[64:ff9b::7f00:1]", true},
		{[]string{"localhost"}, nil, "localhost", true},
		{[]string{"localhost"}, nil, "LOCALHOST.", true},
		{[]string{"intranet.corp"}, nil, "intranet.corp", true},
		{[]string{"*.example.com"}, nil, "www.example.com", true},
		{[]string{"*.example.com"}, nil, "a.example.com", false}, // a wildcard: public only
		{[]string{"*"}, nil, "www.example.com", true},
		{[]string{"*"}, nil, "intranet.corp", false},
		{[]string{"*"}, nil, "10.0.0.1", false},
		{[]string{"*", "10.0.0.0/8"}, nil, "10.0.0.1", true},
		{[]string{"*", "10.0.0.0/8"}, nil, "intranet.corp", true},
		{nil, nil, "mixed.example.com", false}, // one refused address refuses the name
		{[]string{"10.0.0.0/8"}, nil, "ten.example.com", true},
		{[]string{"localhost"}, []string{"127.0.0.0/8"}, "localhost", false}, // deny wins
		{[]string{"*"}, []string{"93.184.216.0/24"}, "[64:ff9b::5db8:d822]", false},
		{[]string{"*"}, []string{"93.184.216.0/24"}, "[::ffff:93.184.216.34]", false},
	}
	for _, tt := range tests {
		p, err := newPolicy(tt.allow, tt.deny)
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.resolve(context.Background(), dns, tt.host, false)
		if (err == nil) != tt.ok {
			t.Errorf("allow %q deny %q, %s: %v, want ok=%v", tt.allow, tt.deny, tt.host, err, tt.ok)
		}
	}
}

// refusedURLs are URLs for the test server's port written with the
// forms of loopbackForms.
func refusedURLs(port string) []string {
	var out []string
	for _, h := range loopbackForms {
		out = append(out, "http://"+h+":"+port+"/secret")
	}
	return append(out, "http://localhost:"+port+"/secret", "http://LocalHost.:"+port+"/secret", "http://127.0.0.1:"+port+"/secret?x=1#y")
}

// TestFetchRefusesLoopbackByDefault: fetching the local test server in
// any form of its address fails, without reaching it, and says how to
// allow it; naming it in allow_hosts lets it through.
func TestFetchRefusesLoopbackByDefault(t *testing.T) {
	var reached sync.Map
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Store(r.Host, true)
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "SECRET")
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	for _, custom := range []bool{false, true} {
		o := Options{}
		if custom {
			o.Client = srv.Client()
		}
		f := newFetcher(o)
		for _, u := range refusedURLs(port) {
			res, err := f.handle(context.Background(), map[string]any{"url": u})
			if err == nil {
				t.Errorf("custom=%v %s: fetched %q", custom, u, res)
				continue
			}
			if !strings.Contains(err.Error(), "packs.web.allow_hosts") || strings.Contains(err.Error(), "SECRET") {
				t.Errorf("custom=%v %s: %v", custom, u, err)
			}
		}
	}
	reached.Range(func(k, _ any) bool {
		t.Errorf("the server was reached as %v", k)
		return true
	})

	f := newFetcher(Options{AllowHosts: []string{"127.0.0.1"}})
	if res, err := f.handle(context.Background(), map[string]any{"url": srv.URL + "/x"}); err != nil || res != "SECRET" {
		t.Errorf("allowed: %v, %v", res, err)
	}
}

// TestRedirectToLoopbackRefused: an allowed host that redirects to a
// refused one (every hop is checked) does not lead there.
func TestRedirectToLoopbackRefused(t *testing.T) {
	secret := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the secret server was reached: %s", r.URL)
	}))
	defer secret.Close()
	port := secret.URL[strings.LastIndexByte(secret.URL, ':')+1:]
	// The allowed server listens on 127.0.0.2 (all of 127/8 is loopback).
	l, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("cannot listen on 127.0.0.2: %v", err)
	}
	target := ""
	allowed := &httptest.Server{Listener: l, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusFound)
	})}}
	allowed.Start()
	defer allowed.Close()
	f := newFetcher(Options{AllowHosts: []string{"127.0.0.2"}})
	for _, u := range refusedURLs(port) {
		if strings.Contains(u, "//127.0.0.2:") {
			continue // the allowed host
		}
		target = u
		_, err := f.handle(context.Background(), map[string]any{"url": allowed.URL + "/go"})
		if err == nil || !strings.Contains(err.Error(), "packs.web.allow_hosts") {
			t.Errorf("redirect to %s: %v", u, err)
		}
	}
}

// TestDNSRebinding: a name is resolved once, by the dialler, which dials
// exactly the addresses it checked: a name that resolves to a public
// address and then to loopback never reaches loopback.
func TestDNSRebinding(t *testing.T) {
	dns := newDNS(map[string][][]string{
		"rebind.test":  {{"93.184.216.34"}, {"127.0.0.1"}},
		"private.test": {{"10.0.0.5"}},
		"both.test":    {{"93.184.216.34", "10.0.0.5"}},
	})
	f := newFetcher(Options{Resolver: dns})
	var mu sync.Mutex
	var dialled []string
	f.connect = func(ctx context.Context, network, addr string) (net.Conn, error) {
		mu.Lock()
		defer mu.Unlock()
		dialled = append(dialled, addr)
		return nil, errors.New("test: not dialled")
	}
	_, err := f.handle(context.Background(), map[string]any{"url": "http://rebind.test:8080/"})
	if err == nil {
		t.Fatal("fetched")
	}
	if got := dns.count("rebind.test"); got != 1 {
		t.Errorf("rebind.test looked up %d times, want once", got)
	}
	mu.Lock()
	if len(dialled) != 1 || dialled[0] != "93.184.216.34:8080" {
		t.Errorf("dialled %q, want only the address that was checked", dialled)
	}
	dialled = nil
	mu.Unlock()
	for _, host := range []string{"private.test", "both.test"} {
		_, err := f.handle(context.Background(), map[string]any{"url": "http://" + host + "/"})
		if err == nil || !strings.Contains(err.Error(), "resolves to 10.0.0.5, a private address") {
			t.Errorf("%s: %v", host, err)
		}
	}
	if len(dialled) != 0 {
		t.Errorf("dialled %q", dialled)
	}
	// The last check, as the socket connects: only the address dial checked.
	ctx := context.WithValue(context.Background(), checkedKey{}, netip.MustParseAddr("93.184.216.34"))
	if err := lastCheck(ctx, "tcp4", "93.184.216.34:80", nil); err != nil {
		t.Error(err)
	}
	for _, c := range []context.Context{ctx, context.Background()} {
		if err := lastCheck(c, "tcp4", "127.0.0.1:80", nil); !errors.Is(err, errRefused) {
			t.Errorf("an address dial did not check: %v", err)
		}
	}
}

// TestProxyFromEnvironment: a proxy is a host like any other (a loopback
// proxy needs allow_hosts), and a name sent through it must resolve here
// to allowed addresses, since the proxy resolves it again where onetool
// cannot see.
func TestProxyFromEnvironment(t *testing.T) {
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "PROXIED %s", r.URL.Host)
	}))
	defer proxy.Close()
	proxyURL, _ := url.Parse(proxy.URL)
	dns := newDNS(map[string][][]string{"public.test": {{"93.184.216.34"}}, "private.test": {{"10.0.0.5"}}})
	fetch := func(o Options, u string) (any, error) {
		o.Resolver = dns
		f := newFetcher(o)
		f.envProxy = func(*url.URL) (*url.URL, error) { return proxyURL, nil }
		return f.handle(context.Background(), map[string]any{"url": u})
	}
	_, err := fetch(Options{}, "http://public.test/")
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1 is a loopback address") {
		t.Errorf("through a loopback proxy by default: %v", err)
	}
	allowProxy := Options{AllowHosts: []string{"*", "127.0.0.1"}}
	if res, err := fetch(allowProxy, "http://public.test/"); err != nil || res != "PROXIED public.test" {
		t.Errorf("through an allowed proxy: %v, %v", res, err)
	}
	for _, tt := range []struct{ url, want string }{
		{"http://private.test/", "resolves to 10.0.0.5, a private address"},
		{"http://unknown.test/", "cannot be checked before it is fetched through the proxy"},
		{"http://10.0.0.1/", "10.0.0.1 is a private address"},
		{"http://0x7f.1/", "written another way"},
	} {
		if res, err := fetch(allowProxy, tt.url); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s through the proxy: %v, %v", tt.url, res, err)
		}
	}
}

var errBudget = errors.New("memory limit of the test exceeded")

func meteredCtx(limit int64) (context.Context, *meter.Call) {
	c := meter.NewBudget(limit, func(int64) error { return errBudget }).Call()
	return meter.With(context.Background(), c), c
}

// TestBodyMetered: the body counts against the run's budget as it is
// read — after decompression, so a gzip bomb stops at the budget — and so
// does converting HTML.
func TestBodyMetered(t *testing.T) {
	e := newEnv(t, Options{MaxBytes: 256 << 20}, false)
	e.serve("/big.txt", "text/plain", 200, strings.Repeat("x", 8<<20))
	e.serve("/page.html", "text/html", 200, "<html><body>"+strings.Repeat("<p>a <b>b</b> <a href='/x'>c</a></p>", 20000)+"</body></html>")
	var bomb bytes.Buffer // 32 MB unpacked, about 32 KB sent
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	chunk := bytes.Repeat([]byte{'z'}, 1<<20)
	for range 32 {
		_, _ = zw.Write(chunk)
	}
	_ = zw.Close()
	e.mux.HandleFunc("/bomb", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(bomb.Bytes())
	})
	e.mux.HandleFunc("/big-error", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(500)
		fmt.Fprint(w, strings.Repeat("e", 60000))
	})
	for _, path := range []string{"/big.txt", "/bomb", "/page.html", "/big-error"} {
		limit := int64(1 << 20)
		if path == "/big-error" {
			limit = 10000
		}
		ctx, call := meteredCtx(limit)
		start := time.Now()
		_, err := e.callCtx(ctx, map[string]any{"url": e.url(path)})
		call.End(true)
		if !errors.Is(err, errBudget) {
			t.Errorf("%s: %v, want the budget's error", path, err)
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("%s took %s", path, took)
		}
	}
	// Within the budget, the page is whole.
	ctx, call := meteredCtx(64 << 20)
	if res, err := e.callCtx(ctx, map[string]any{"url": e.url("/page.html"), "max_chars": int64(100)}); err != nil || !strings.Contains(res.(string), "a **b** [c]") {
		t.Errorf("within the budget: %v, %v", res, err)
	}
	call.End(false)
}

// TestWildcardSettings: "*" is a host rule of its own; it cannot deny.
func TestWildcardSettings(t *testing.T) {
	if _, err := ParseSettings(map[string]any{"allow_hosts": []any{"*", "10.0.0.0/8"}}); err != nil {
		t.Errorf("allow *: %v", err)
	}
	if _, err := newPolicy(nil, []string{"*"}); err == nil || !strings.Contains(err.Error(), "would deny every host") {
		t.Errorf("deny *: %v", err)
	}
	if _, err := ParseSettings(map[string]any{"allow_hosts": []any{"0x7f.1"}}); err == nil || !strings.Contains(err.Error(), "write 127.0.0.1") {
		t.Errorf("allow 0x7f.1: %v", err)
	}
}

// FuzzHostAddr: reading a URL's host never panics, and whatever it reads
// as an address that is not public is refused by the default policy
// however it was written.
func FuzzHostAddr(f *testing.F) {
	for _, h := range append(append([]string{"example.com", "1.2.3.4", "", ".", "0x", "1..2", "[::1", "::ffff:1.2.3.4%x"}, loopbackForms...), privateForms...) {
		f.Add(h)
	}
	p, _ := newPolicy(nil, nil)
	f.Fuzz(func(t *testing.T, host string) {
		a, isAddr, err := hostAddr(host)
		if err != nil {
			if !errors.Is(err, errRefused) {
				t.Errorf("%q: %v is not a refusal", host, err)
			}
			return
		}
		if !isAddr {
			if ip := net.ParseIP(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")); ip != nil {
				t.Errorf("%q: Go reads it as %s, hostAddr as a name", host, ip)
			}
			return
		}
		if special(a) != "" && checkPolicy(p, host) == nil {
			t.Errorf("%q (%s, %s) is allowed by default", host, a, special(a))
		}
	})
}
