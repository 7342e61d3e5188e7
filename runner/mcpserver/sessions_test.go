package mcpserver

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner"
)

// rawClient speaks streamable HTTP by hand, so that abandoning a session
// leaves nothing behind on the client side of the test process, and so
// that a test can send what no SDK client would.
type rawClient struct {
	t   *testing.T
	url string
	c   *http.Client
	// token, when set, is sent as a bearer token.
	token string
	// version is the MCP-Protocol-Version header: "" sends 2025-11-25,
	// "none" sends none.
	version string
}

// post sends one JSON-RPC message (or batch) in session id ("" for
// none) and returns the status, the session id of the answer and its
// body.
func (rc rawClient) post(id, body string) (int, string, string) {
	rc.t.Helper()
	res, b := rc.send(id, body)
	return res.StatusCode, res.Header.Get(sessionIDHeader), b
}

// send is post with the whole response (its body read).
func (rc rawClient) send(id, body string) (*http.Response, string) {
	rc.t.Helper()
	req, _ := http.NewRequest("POST", rc.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	switch rc.version {
	case "":
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	case "none":
	default:
		req.Header.Set("MCP-Protocol-Version", rc.version)
	}
	if rc.token != "" {
		req.Header.Set("Authorization", "Bearer "+rc.token)
	}
	if id != "" {
		req.Header.Set(sessionIDHeader, id)
	}
	res, err := rc.c.Do(req)
	if err != nil {
		rc.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// open initializes a session and returns its id.
func (rc rawClient) open() string {
	rc.t.Helper()
	status, id, body := rc.post("", initializeBody)
	if status != 200 || id == "" {
		rc.t.Fatalf("initialize: %d %q %s", status, id, body)
	}
	if status, _, body := rc.post(id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); status != 202 {
		rc.t.Fatalf("initialized: %d %s", status, body)
	}
	return id
}

// run calls the run tool in session id and returns the body of the answer.
func (rc rawClient) run(id, command string) string {
	rc.t.Helper()
	status, _, body := rc.post(id, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run","arguments":{"command":%q}}}`, command))
	if status != 200 {
		rc.t.Fatalf("tools/call: %d %s", status, body)
	}
	return body
}

// ping returns the status of a ping in session id.
func (rc rawClient) ping(id string) int {
	rc.t.Helper()
	status, _, _ := rc.post(id, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	return status
}

func countSessions(s *mcp.Server) int {
	n := 0
	for range s.Sessions() {
		n++
	}
	return n
}

// waitFor polls cond for up to 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after 5s: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Abandoned sessions end: 200 clients that each open a session, keep
// state in it and go away leave at most max_sessions alive at any time,
// and once session_idle has passed none, with the goroutines and kept
// globals back to where they were. (On main, 9,400 such sessions held
// 9,417 goroutines for ever.)
func TestAbandonedSessionsEnd(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	server, h := newServer(r, Options{SessionState: true})
	srv := httptest.NewServer(HTTPHandler(server, HTTPOptions{SessionIdle: 300 * time.Millisecond, MaxSessions: 50}))
	defer srv.Close()
	rc := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client()}
	runtime.GC()
	baseline := runtime.NumGoroutine()

	var first string
	most := 0
	for i := range 200 {
		id := rc.open()
		if i == 0 {
			first = id
		}
		if body := rc.run(id, fmt.Sprintf("n = %d", i)); !strings.Contains(body, "OK (no return value)") {
			t.Fatalf("run: %s", body)
		}
		most = max(most, countSessions(server))
	}
	// Surplus sessions are closed in the background: allow a few in flight.
	if most > 55 {
		t.Errorf("%d sessions were alive at once, want at most 50 (+ a few closing)", most)
	}
	waitFor(t, "more than 50 sessions alive", func() bool { return countSessions(server) <= 50 })
	if st := rc.ping(first); st != http.StatusNotFound {
		t.Errorf("the first session, ended for the cap, answered %d, want 404", st)
	}

	waitFor(t, "sessions still alive after session_idle", func() bool { return countSessions(server) == 0 })
	waitFor(t, "session state still held", func() bool { return h.liveSessions() == 0 })
	srv.Client().CloseIdleConnections()
	var now int
	waitFor(t, "goroutines not back to the baseline", func() bool {
		now = runtime.NumGoroutine()
		return now <= baseline+5
	})
	t.Logf("goroutines: %d before, %d after 200 sessions", baseline, now)
}

// Beyond max_sessions the session idle longest ends, not the oldest: one
// that keeps making requests stays.
func TestMaxSessionsEndsLongestIdle(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	server := New(r, Options{})
	srv := httptest.NewServer(HTTPHandler(server, HTTPOptions{MaxSessions: 3}))
	defer srv.Close()
	rc := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client()}
	a, b, c := rc.open(), rc.open(), rc.open()
	if st := rc.ping(a); st != 200 {
		t.Fatalf("ping a: %d", st)
	}
	d := rc.open()
	// Pinging b does not make it less idle once it has ended.
	waitFor(t, "session b, idle longest, did not end", func() bool { return rc.ping(b) == http.StatusNotFound })
	if n := countSessions(server); n != 3 {
		t.Errorf("%d sessions alive with max_sessions 3", n)
	}
	for _, tt := range []struct {
		name, id string
		want     int
	}{{"a (used last)", a, 200}, {"c", c, 200}, {"d (new)", d, 200}} {
		if st := rc.ping(tt.id); st != tt.want {
			t.Errorf("session %s: ping answered %d, want %d", tt.name, st, tt.want)
		}
	}
}

// A client whose session was ended gets go-sdk's "session not found" and
// can initialize a new one.
func TestEndedSessionReinitializes(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	server := New(r, Options{})
	srv := httptest.NewServer(HTTPHandler(server, HTTPOptions{SessionIdle: 100 * time.Millisecond}))
	defer srv.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	connect := func() *mcp.ClientSession {
		cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", DisableStandaloneSSE: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	cs := connect()
	defer cs.Close()
	callRun(t, cs, "1")
	rc := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client()}
	waitFor(t, "the idle session did not end", func() bool { return countSessions(server) == 0 })
	// go-sdk forgets the id just after the session has closed.
	waitFor(t, "the ended session is still found", func() bool { return rc.ping(cs.ID()) == http.StatusNotFound })
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": "1"}}); err == nil || !strings.Contains(err.Error(), "session not found") {
		t.Errorf("a call in the ended session: %v, want session not found", err)
	}
	again := connect()
	defer again.Close()
	if got := text(t, callRun(t, again, "1 + 1")); got != "2" {
		t.Errorf("new session: %s", got)
	}
}
