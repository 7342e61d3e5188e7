package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner"
)

// drainServer serves a runner (demo.sleep(ms) waits, cancellably) on a
// real HTTP server, with a Drain, and connects a stateful client
// that keeps its standalone GET stream open (as clients do).
func drainServer(t *testing.T) (*http.Server, *mcp.Server, *Drain, string, *mcp.ClientSession) {
	t.Helper()
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	d := NewDrain()
	s := New(r, Options{Drain: d})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: HTTPHandler(s, HTTPOptions{Drain: d})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	base := "http://" + ln.Addr().String()
	client := mcp.NewClient(&mcp.Implementation{Name: "drain", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return srv, s, d, base, cs
}

// callAsync starts a run and returns where its answer will arrive.
func callAsync(cs *mcp.ClientSession, command string) <-chan string {
	out := make(chan string, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": command}})
		switch {
		case err != nil:
			out <- "protocol error: " + err.Error()
		case res.IsError:
			out <- "isError: " + res.Content[0].(*mcp.TextContent).Text
		default:
			out <- res.Content[0].(*mcp.TextContent).Text
		}
	}()
	return out
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal(what)
		}
	}
}

// SIGTERM's drain over HTTP: a run in flight finishes and its client gets
// the answer; meanwhile a new request gets 503 with Retry-After and
// /healthz says draining; shutdown returns as soon as the run is done,
// although the client's GET stream is still open.
func TestDrainHTTPLetsRunsInFlightFinish(t *testing.T) {
	srv, s, d, base, cs := drainServer(t)
	if code, body := get(t, base+"/healthz"); code != 200 || body != "ok\n" {
		t.Fatalf("healthz before draining = %d %q, want 200 ok", code, body)
	}
	answer := callAsync(cs, "demo.sleep(ms=400)")
	waitUntil(t, "the run never started", func() bool { return d.Runs() == 1 })

	start := time.Now()
	stopped := make(chan struct{})
	go func() { ShutdownHTTP(srv, s, d, 10*time.Second, nil); close(stopped) }()
	waitUntil(t, "draining never started", d.Draining)

	code, body := get(t, base+"/healthz")
	var health struct{ Status string }
	if code != http.StatusServiceUnavailable || json.Unmarshal([]byte(body), &health) != nil || health.Status != "draining" {
		t.Errorf("healthz while draining = %d %q, want 503 {\"status\":\"draining\"}", code, body)
	}
	resp, err := http.Post(base+"/mcp", "application/json", strings.NewReader(initializeBody))
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(msg), "shutting down") {
		t.Errorf("new request while draining = %d Retry-After %q %q, want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"), msg)
	}

	select {
	case got := <-answer:
		if got != "400" {
			t.Errorf("run in flight answered %q, want 400", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the run in flight never answered")
	}
	select {
	case <-stopped:
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("shutdown took %v after a 400 ms run", took)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("shutdown did not return")
	}
}

// A run longer than the drain timeout is cancelled when it passes: its
// client gets the cancelled error, not a dropped connection, and shutdown
// returns within the bound.
func TestDrainHTTPCancelsRunsAfterTimeout(t *testing.T) {
	srv, s, d, _, cs := drainServer(t)
	answer := callAsync(cs, "demo.sleep(ms=20000)")
	waitUntil(t, "the run never started", func() bool { return d.Runs() == 1 })
	start := time.Now()
	if n := d.Finish(200*time.Millisecond, nil); n != 1 {
		t.Errorf("Finish cancelled %d runs, want 1", n)
	}
	ShutdownHTTP(srv, s, d, 200*time.Millisecond, nil)
	if took := time.Since(start); took < 200*time.Millisecond || took > 2*time.Second {
		t.Errorf("shutdown took %v with drain timeout 200ms", took)
	}
	select {
	case got := <-answer:
		if !strings.HasPrefix(got, "isError: ") || !strings.Contains(got, "cancel") {
			t.Errorf("cancelled run answered %q, want the cancelled error", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the cancelled run never answered")
	}
}

// Over any transport (stdio included), a run that arrives while draining
// is refused with an error that says why; one that started before still
// finishes.
func TestDrainRefusesNewRuns(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d := NewDrain()
	s := New(r, Options{Drain: d})
	ct, st := mcp.NewInMemoryTransports()
	if _, err := s.Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	first := callAsync(cs, "demo.sleep(ms=300)")
	waitUntil(t, "the run never started", func() bool { return d.Runs() == 1 })
	finished := make(chan int)
	go func() { finished <- d.Finish(5*time.Second, nil) }()
	waitUntil(t, "draining never started", d.Draining)
	if got := <-callAsync(cs, "1 + 1"); got != "isError: "+drainingText {
		t.Errorf("run while draining = %q, want %q", got, drainingText)
	}
	if got := <-first; got != "300" {
		t.Errorf("run in flight = %q, want 300", got)
	}
	if n := <-finished; n != 0 {
		t.Errorf("Finish cancelled %d runs, want 0", n)
	}
}

// Over HTTP, a tools/call admitted just before draining began runs: its
// POST is work in flight, and refusing the run inside an HTTP 200 would
// fail it where neither a load balancer nor a client retries it. A new
// POST meanwhile gets 503.
func TestDrainHTTPRunsWhatItAdmitted(t *testing.T) {
	d := NewDrain()
	var admitted bool
	h := d.guardMCP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.Start() // SIGTERM between the request's admission and its run
		_, done, ok := d.run(r.Context())
		if admitted = ok; ok {
			done()
		}
	}))
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run"}}`
	first := httptest.NewRecorder()
	h.ServeHTTP(first, httptest.NewRequest("POST", "/mcp", strings.NewReader(body)))
	if !admitted {
		t.Error("a run whose request was admitted before draining was refused")
	}
	admitted = false
	second := httptest.NewRecorder()
	h.ServeHTTP(second, httptest.NewRequest("POST", "/mcp", strings.NewReader(body)))
	if second.Code != http.StatusServiceUnavailable || admitted {
		t.Errorf("a request sent while draining: %d (run admitted %v), want 503", second.Code, admitted)
	}
	if err := d.Wait(context.Background()); err != nil {
		t.Error(err)
	}
}

// After the runs have drained, a server whose /healthz a load balancer
// probes keeps answering until the balancer has been told "draining" and
// has stopped sending requests; one that nobody probes stops at once;
// either way within the timeout.
func TestDrainLingersForTheBalancer(t *testing.T) {
	probe := func(d *Drain) int {
		w := httptest.NewRecorder()
		d.healthz(w, httptest.NewRequest("GET", "/healthz", nil))
		return w.Code
	}
	lingered := func(d *Drain, timeout time.Duration) <-chan time.Duration {
		out := make(chan time.Duration, 1)
		go func() { start := time.Now(); d.Linger(timeout); out <- time.Since(start) }()
		return out
	}

	alone := NewDrain()
	alone.Start()
	if took := <-lingered(alone, 5*time.Second); took > 50*time.Millisecond {
		t.Errorf("without a balancer, Linger took %v", took)
	}

	d := NewDrain()
	probe(d) // a balancer's health check, before SIGTERM
	d.Start()
	done := lingered(d, 5*time.Second)
	// A request the balancer sends before its next check is refused.
	time.Sleep(50 * time.Millisecond)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run"}}`
	refusedAt := time.Now()
	w := httptest.NewRecorder()
	d.guardMCP(http.NotFoundHandler()).ServeHTTP(w, httptest.NewRequest("POST", "/mcp", strings.NewReader(body)))
	if w.Code != http.StatusServiceUnavailable {
		t.Fatalf("a request while draining = %d", w.Code)
	}
	time.Sleep(50 * time.Millisecond)
	select {
	case took := <-done:
		t.Fatalf("Linger returned after %v, before the balancer was told", took)
	default:
	}
	if code := probe(d); code != http.StatusServiceUnavailable {
		t.Fatalf("healthz while draining = %d", code)
	}
	select {
	case <-done:
		if quiet := time.Since(refusedAt); quiet < lingerQuiet {
			t.Errorf("Linger returned %v after the last refused request, want at least %v", quiet, lingerQuiet)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Linger did not return once the balancer was told and had stopped sending")
	}

	never := NewDrain()
	probe(never)
	never.Start()
	if took := <-lingered(never, 200*time.Millisecond); took < 200*time.Millisecond || took > 2*time.Second {
		t.Errorf("Linger with a balancer that never asks again took %v, want its 200ms timeout", took)
	}
}

// While draining, /mcp still passes what concerns work in flight and
// refuses what starts new work.
func TestDrainLetsNotificationsThrough(t *testing.T) {
	for _, tt := range []struct {
		body    string
		refused bool
	}{
		{`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`, false},
		{`{"jsonrpc":"2.0","id":7,"result":{}}`, false},
		{`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{}}`, true},
		{initializeBody, true},
		{`not json`, true},
	} {
		if got := startsWork([]byte(tt.body)); got != tt.refused {
			t.Errorf("startsWork(%s) = %v, want %v", tt.body, got, tt.refused)
		}
	}
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}
