package mcpserver

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/config"
)

// limitServer serves the run tool with NewHTTPServer on a real listener,
// behind serve.auth (token alice-token), with opts' limits.
func limitServer(t *testing.T, opts HTTPOptions) string {
	t.Helper()
	cfg := config.Default()
	cfg.Policies["dev"] = &config.Policy{Allow: []string{"*"}}
	cfg.Serve.Auth = &config.Auth{Tokens: []config.Token{{Name: "alice", Token: "alice-token", Policy: "dev"}}}
	a, err := auth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	opts.Auth = a
	srv := NewHTTPServer(New(r, Options{}), opts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// closedWithin reports how long the server took to close conn (reading
// and discarding whatever it answers), or fails after limit.
func closedWithin(t *testing.T, conn net.Conn, limit time.Duration) (time.Duration, string) {
	t.Helper()
	start := time.Now()
	conn.SetReadDeadline(start.Add(limit))
	b, err := io.ReadAll(conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the connection was still open after %v; the server answered %q", limit, b)
	}
	return time.Since(start), string(b)
}

// A client that trickles a request, its body or its headers, with a token
// or without, has its connection closed once serve.read_timeout has
// passed, and a connection kept alive with no request is closed after
// serve.idle_timeout. (On main only a header timeout was set: an
// unauthenticated client trickling a body held its connection for ever.)
func TestSlowClientsAreCut(t *testing.T) {
	const read = 400 * time.Millisecond
	addr := limitServer(t, HTTPOptions{ReadTimeout: read, IdleTimeout: 300 * time.Millisecond})
	trickle := func(t *testing.T, head string, each time.Duration, stop <-chan struct{}) net.Conn {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		if _, err := io.WriteString(conn, head); err != nil {
			t.Fatal(err)
		}
		go func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(each):
				}
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
			}
		}()
		return conn
	}
	post := func(token string) string {
		h := "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n"
		if token != "" {
			h += "Authorization: Bearer " + token + "\r\n"
		}
		return h + "\r\n"
	}
	for _, tt := range []struct {
		name, head string
	}{
		{"body, no token", post("")},
		{"body, a wrong token", post("nope")},
		{"body, a valid token", post("alice-token")},
		{"headers", "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stop := make(chan struct{})
			defer close(stop)
			conn := trickle(t, tt.head, 50*time.Millisecond, stop)
			took, answer := closedWithin(t, conn, 5*time.Second)
			if took > read+time.Second {
				t.Errorf("closed after %v with read_timeout %v; answered %q", took, read, answer)
			}
		})
	}
	t.Run("idle connection", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("healthz: %v %v", res, err)
		}
		res.Body.Close()
		if took, _ := closedWithin(t, conn, 5*time.Second); took > time.Second {
			t.Errorf("an idle connection closed after %v with idle_timeout 300ms", took)
		}
	})
}

// A body larger than serve.max_body gets 413, with a token or without
// (before authentication), and its connection is closed, not read on.
func TestLargeBodyRefused(t *testing.T) {
	addr := limitServer(t, HTTPOptions{MaxBody: 64 << 10})
	for _, token := range []string{"", "alice-token"} {
		body := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", 100<<10) + `"}}`
		req, _ := http.NewRequest("POST", "http://"+addr+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("token %q: %v", token, err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		want := http.StatusUnauthorized // refused before its body is read at all
		if token != "" {
			want = http.StatusRequestEntityTooLarge
		}
		if res.StatusCode != want {
			t.Errorf("token %q: %d %s, want %d", token, res.StatusCode, b, want)
		}
		if token != "" && !strings.Contains(string(b), "request body exceeds 65536 bytes") {
			t.Errorf("413 body: %s", b)
		}
	}
}

// serve.read_timeout bounds how long a request takes to arrive, not how
// long its answer takes: a run, and the session's event stream, outlast
// it.
func TestReadTimeoutSparesLongRuns(t *testing.T) {
	addr := limitServer(t, HTTPOptions{ReadTimeout: 200 * time.Millisecond})
	client := mcp.NewClient(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{
		Endpoint: "http://" + addr + "/mcp", HTTPClient: &http.Client{Transport: bearerTransport{"alice-token"}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := text(t, callRun(t, cs, "demo.sleep(ms=700)")); got != "700" {
		t.Errorf("a run of 700 ms with read_timeout 200ms: %s", got)
	}
	time.Sleep(300 * time.Millisecond) // the event stream (GET) stays open meanwhile
	if got := text(t, callRun(t, cs, "1 + 1")); got != "2" {
		t.Errorf("the session after a while: %s", got)
	}
}

// The answer of an exchange: go-sdk's own when nothing was refused; the
// refusal's status, Retry-After and the SDK's JSON-RPC error (out of its
// event-stream framing) when the one request of a POST was; the SDK's
// answer with Retry-After when a request of a batch was.
func TestAnswerWriter(t *testing.T) {
	const event = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32000,\"message\":\"Error: no\"}}\n\n"
	for _, tt := range []struct {
		name    string
		refusal *refusal
		body    string // what the request body starts with
		write   func(w http.ResponseWriter)
		status  int
		retry   string
		answer  string
	}{
		{"nothing refused", nil, "{", func(w http.ResponseWriter) { w.Write([]byte(event)) }, 200, "", event},
		{"nothing refused, status only", nil, "{", func(w http.ResponseWriter) { w.WriteHeader(http.StatusAccepted) }, http.StatusAccepted, "", ""},
		{"refused", &refusal{429, "7"}, "{", func(w http.ResponseWriter) { w.Write([]byte(event)) }, 429, "7",
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"Error: no"}}` + "\n"},
		{"refused, JSON", &refusal{503, "1"}, " \n{", func(w http.ResponseWriter) {
			w.WriteHeader(200)
			w.Write([]byte(`{"jsonrpc":"2.0","id":4,"error":{}}`))
		}, 503, "1", `{"jsonrpc":"2.0","id":4,"error":{}}` + "\n"},
		{"refused in a batch", &refusal{429, "7"}, " [", func(w http.ResponseWriter) { w.Write([]byte(event)) }, 200, "7", event},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ex := &exchange{refusal: tt.refusal, body: &sniffer{ReadCloser: io.NopCloser(strings.NewReader(tt.body))}}
			io.ReadAll(ex.body)
			rec := httptest.NewRecorder()
			w := &answerWriter{ResponseWriter: rec, ex: ex}
			tt.write(w)
			w.Flush()
			w.finish()
			if rec.Code != tt.status || rec.Header().Get("Retry-After") != tt.retry || rec.Body.String() != tt.answer {
				t.Errorf("%d Retry-After %q %q\nwant %d %q %q", rec.Code, rec.Header().Get("Retry-After"), rec.Body, tt.status, tt.retry, tt.answer)
			}
		})
	}
}
