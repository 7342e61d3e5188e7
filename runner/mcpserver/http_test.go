package mcpserver

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner"
)

// Over HTTP, a cancelled call — whether the client sends
// notifications/cancelled or, on 2026-07-28, simply drops the request —
// stops the tool in flight within 50 ms.
func TestHTTPCancellation(t *testing.T) {
	var mu sync.Mutex
	var done time.Time
	reg := packs.NewRegistry()
	if err := reg.Register(&packs.Tool{Pack: "probe", Name: "wait", Handler: func(ctx context.Context, _ map[string]any) (any, error) {
		<-ctx.Done()
		mu.Lock()
		done = time.Now()
		mu.Unlock()
		return nil, ctx.Err()
	}}); err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(runner.WithRegistry(reg), runner.WithLimits(runner.Limits{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		version   string
		stateless bool
	}{{"2025-11-25", false}, {"2026-07-28", true}} {
		t.Run(tt.version, func(t *testing.T) {
			srv := httptest.NewServer(HTTPHandler(New(r, Options{}), HTTPOptions{Stateless: tt.stateless}))
			defer srv.Close()
			client := mcp.NewClient(&mcp.Implementation{Name: "http", Version: "1"}, nil)
			cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", DisableStandaloneSSE: true},
				&mcp.ClientSessionOptions{ProtocolVersion: tt.version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			mu.Lock()
			done = time.Time{}
			mu.Unlock()
			ctx, cancel := context.WithCancel(context.Background())
			var cancelled time.Time
			time.AfterFunc(100*time.Millisecond, func() { cancelled = time.Now(); cancel() })
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": "probe.wait()"}}); err == nil {
				t.Fatal("cancelled call returned no error")
			}
			time.Sleep(150 * time.Millisecond)
			mu.Lock()
			defer mu.Unlock()
			if done.IsZero() || done.Sub(cancelled) > 50*time.Millisecond {
				t.Errorf("the tool saw cancellation %v after the client cancelled (done %v)", done.Sub(cancelled), done)
			}
		})
	}
}

// initializeBody is a raw initialize request, as a client's first POST.
const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

// podListener reports every connection as arriving on 10.0.0.5:8080, as on
// a pod's own IP, while the test talks to it over loopback.
type podListener struct{ net.Listener }

type podConn struct{ net.Conn }

var podAddr = &net.TCPAddr{IP: net.IPv4(10, 0, 0, 5), Port: 8080}

func (l podListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return podConn{c}, nil
}

func (podConn) LocalAddr() net.Addr { return podAddr }

// Every endpoint, and a path that does not exist, is behind the Host and
// Origin guard: on a loopback listener only a loopback Host is served, and
// a cross-origin browser request is refused whatever the address. On a
// pod IP, a probe with that IP as Host is served.
func TestGuardOnEveryEndpoint(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	metrics := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "onetool_runs_total 0\n") })
	handler := HTTPHandler(New(r, Options{}), HTTPOptions{Metrics: metrics})
	loopback := httptest.NewServer(handler)
	defer loopback.Close()
	pod := httptest.NewUnstartedServer(handler)
	pod.Listener = podListener{pod.Listener}
	pod.Start()
	defer pod.Close()

	endpoints := []struct {
		method, path string
		served       int // the status when the guard lets the request through
	}{
		{"POST", "/mcp", 200},
		{"GET", "/healthz", 200},
		{"GET", "/metrics", 200},
		{"GET", "/nothing", 404},
	}
	cases := []struct {
		name       string
		host       string // "" keeps the URL's; PORT is replaced
		header     map[string]string
		onLoopback bool // served on the loopback listener
		onPod      bool // served on the pod IP
	}{
		{name: "own host", onLoopback: true, onPod: true},
		{name: "localhost", host: "localhost:PORT", onLoopback: true, onPod: true},
		{name: "ipv6 loopback", host: "[::1]:PORT", onLoopback: true, onPod: true},
		{name: "pod IP as Host", host: "10.0.0.5:8080", onPod: true},
		{name: "rebound name", host: "evil.example:PORT", onPod: true},
		{name: "loopback-looking name", host: "localhost.evil.example", onPod: true},
		{name: "same-origin browser", header: map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "http://HOST"}, onLoopback: true, onPod: true},
		{name: "cross-site fetch", header: map[string]string{"Sec-Fetch-Site": "cross-site"}},
		{name: "same-site fetch", header: map[string]string{"Sec-Fetch-Site": "same-site"}},
		{name: "foreign Origin", header: map[string]string{"Origin": "http://evil.example"}},
		{name: "null Origin", header: map[string]string{"Origin": "null"}},
	}
	for _, srv := range []struct {
		name string
		s    *httptest.Server
	}{{"loopback", loopback}, {"pod", pod}} {
		u, _ := url.Parse(srv.s.URL)
		for _, ep := range endpoints {
			for _, tc := range cases {
				t.Run(srv.name+ep.path+"/"+tc.name, func(t *testing.T) {
					var body io.Reader
					if ep.method == "POST" {
						body = strings.NewReader(initializeBody)
					}
					req, _ := http.NewRequest(ep.method, srv.s.URL+ep.path, body)
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Accept", "application/json, text/event-stream")
					host := u.Host
					if tc.host != "" {
						host = strings.ReplaceAll(tc.host, "PORT", u.Port())
						req.Host = host
					}
					for k, v := range tc.header {
						req.Header.Set(k, strings.ReplaceAll(v, "HOST", host))
					}
					res, err := srv.s.Client().Do(req)
					if err != nil {
						t.Fatal(err)
					}
					msg, _ := io.ReadAll(res.Body)
					res.Body.Close()
					want := http.StatusForbidden
					if srv.name == "loopback" && tc.onLoopback || srv.name == "pod" && tc.onPod {
						want = ep.served
					}
					if res.StatusCode != want {
						t.Errorf("%s %s: status %d, want %d: %s", ep.method, ep.path, res.StatusCode, want, msg)
					}
				})
			}
		}
	}
}

// The refusal says what was wrong.
func TestGuardMessages(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(HTTPHandler(New(r, Options{}), HTTPOptions{}))
	defer srv.Close()
	for _, tt := range []struct {
		host, origin, want string
	}{
		{"evil.example", "", `Forbidden: Host "evil.example" is not a loopback name; a server listening on loopback answers only requests to localhost, 127.0.0.1 or [::1]` + "\n"},
		{"", "http://evil.example", "Forbidden: cross-origin request (Origin http://evil.example, Host HOST); browsers may not call this server from a web page\n"},
	} {
		req, _ := http.NewRequest("GET", srv.URL+"/healthz", nil)
		if tt.host != "" {
			req.Host = tt.host
		}
		if tt.origin != "" {
			req.Header.Set("Origin", tt.origin)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		want := strings.ReplaceAll(tt.want, "HOST", strings.TrimPrefix(srv.URL, "http://"))
		if res.StatusCode != http.StatusForbidden || string(body) != want {
			t.Errorf("status %d, body %q\nwant 403, %q", res.StatusCode, body, want)
		}
	}
}

// /metrics serves the handler given, beside /mcp and /healthz; without one
// there is none.
func TestMetricsEndpoint(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	metrics := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "onetool_runs_total 0\n") })
	srv := httptest.NewServer(HTTPHandler(New(r, Options{}), HTTPOptions{Metrics: metrics}))
	defer srv.Close()
	res, err := http.Get(srv.URL + "/metrics")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("/metrics: %v %v", res, err)
	}
	body, _ := io.ReadAll(res.Body)
	if string(body) != "onetool_runs_total 0\n" {
		t.Errorf("body %q", body)
	}
	bare := httptest.NewServer(HTTPHandler(New(r, Options{}), HTTPOptions{}))
	defer bare.Close()
	if res, err := http.Get(bare.URL + "/metrics"); err != nil || res.StatusCode != 404 {
		t.Errorf("/metrics without a handler: %v %v", res.StatusCode, err)
	}
}
