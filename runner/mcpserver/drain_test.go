package mcpserver

import (
	"context"
	"encoding/json"
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
	resp, msg := rawClient{t: t, url: base + "/mcp", c: http.DefaultClient}.send("", initializeBody)
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
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d := NewDrain()
	s := New(r, Options{Drain: d})
	srv := httptest.NewServer(HTTPHandler(s, HTTPOptions{Drain: d}))
	defer srv.Close()
	// SIGTERM between the POST's admission and its run's dispatch.
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == methodRun {
				d.Start()
			}
			return next(ctx, method, req)
		}
	})
	rc := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client()}
	id := rc.open()
	if body := rc.run(id, "1 + 1"); !strings.Contains(body, `"text":"2"`) {
		t.Errorf("a run whose request was admitted before draining: %s", body)
	}
	res, body := rc.send(id, runBody(3, "1 + 1"))
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != DrainRetryAfter {
		t.Errorf("a request sent while draining: %d Retry-After %q %s, want 503", res.StatusCode, res.Header.Get("Retry-After"), body)
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
		go func() { start := time.Now(); d.Linger(timeout, nil); out <- time.Since(start) }()
		return out
	}

	alone := NewDrain()
	alone.Start()
	if took := <-lingered(alone, 5*time.Second); took > 50*time.Millisecond {
		t.Errorf("without a balancer, Linger took %v", took)
	}

	// A person's one look at /healthz is no balancer: Ctrl-C is at once.
	person := NewDrain()
	probe(person)
	person.Start()
	if took := <-lingered(person, 5*time.Second); took > 50*time.Millisecond {
		t.Errorf("after one probe, Linger took %v", took)
	}

	d := NewDrain()
	probe(d) // a balancer's health checks, before SIGTERM
	time.Sleep(time.Second)
	probe(d)
	d.Start()
	done := lingered(d, 5*time.Second)
	// A request the balancer sends before its next check is refused.
	time.Sleep(50 * time.Millisecond)
	refusedAt := time.Now()
	w := httptest.NewRecorder()
	intake(newExchanges(), d, 1<<20, 0, http.NotFoundHandler()).ServeHTTP(w, httptest.NewRequest("GET", "/mcp", nil))
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
	probe(never)
	never.Start()
	if took := <-lingered(never, 200*time.Millisecond); took < 200*time.Millisecond || took > 2*time.Second {
		t.Errorf("Linger with a balancer that never asks again took %v, want its 200ms timeout", took)
	}
	// A balancer that stops probing (it was taken away) is waited for
	// three of its intervals, not the whole timeout.
	gone := NewDrain()
	probe(gone)
	time.Sleep(100 * time.Millisecond)
	probe(gone)
	gone.Start()
	if took := <-lingered(gone, 10*time.Second); took < 300*time.Millisecond || took > 2*time.Second {
		t.Errorf("Linger with a balancer that stopped probing took %v, want about three of its 100ms intervals", took)
	}
}

// While draining, /mcp still passes what concerns work in flight and
// refuses what starts new work, decided on the messages go-sdk
// dispatches: a request gets 503 with Retry-After and its JSON-RPC error
// as the body, however its JSON is spelt; the requests of a batch answer
// in the batch; a cancellation, a client's answer to the server, a DELETE
// pass.
func TestDrainRefusesWhatTheSDKDispatches(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d := NewDrain()
	srv := httptest.NewServer(HTTPHandler(New(r, Options{Drain: d}), HTTPOptions{Drain: d}))
	defer srv.Close()
	rc := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client()}
	old := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client(), version: "2025-03-26"}
	id := rc.open()
	d.Start()
	for _, tt := range []struct {
		name   string
		client rawClient
		body   string
		status int
		want   string // in the body
	}{
		{"cancellation", rc, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`, http.StatusAccepted, ""},
		{"a response to the server", rc, `{"jsonrpc":"2.0","id":7,"result":{}}`, http.StatusAccepted, ""},
		{"run", rc, runBody(8, "1"), http.StatusServiceUnavailable, `"id":8,"error":{"code":-32000,"message":"Service Unavailable: onetool is shutting down`},
		{"run with a second key Method", rc, `{"jsonrpc":"2.0","id":9,"method":"tools/call","Method":"x","params":{"name":"run","arguments":{"command":"1"}}}`,
			http.StatusServiceUnavailable, `"id":9,"error":{"code":-32000`},
		{"ping", rc, `{"jsonrpc":"2.0","id":10,"method":"ping"}`, http.StatusServiceUnavailable, `"id":10,"error"`},
		{"batch of runs (2025-03-26)", old, "[" + runBody(11, "1") + "," + runBody(12, "2") + "]", http.StatusOK, `"id":12,"error":{"code":-32000`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, body := tt.client.send(id, tt.body)
			if res.StatusCode != tt.status || !strings.Contains(body, tt.want) {
				t.Errorf("%d %s\nwant %d with %s", res.StatusCode, body, tt.status, tt.want)
			}
			if tt.status == http.StatusServiceUnavailable && (res.Header.Get("Retry-After") != DrainRetryAfter || res.Header.Get("Content-Type") != "application/json") {
				t.Errorf("Retry-After %q, Content-Type %q", res.Header.Get("Retry-After"), res.Header.Get("Content-Type"))
			}
		})
	}
	if code, _ := get(t, srv.URL+"/mcp"); code != http.StatusServiceUnavailable {
		t.Errorf("GET (an event stream) while draining: %d", code)
	}
	req, _ := http.NewRequest("DELETE", srv.URL+"/mcp", nil)
	req.Header.Set(sessionIDHeader, id)
	if res, err := srv.Client().Do(req); err != nil || res.StatusCode != http.StatusNoContent {
		t.Errorf("DELETE of a session while draining: %v %v", res.Status, err)
	}
}

// runBody is a tools/call of run with id and command.
func runBody(id int, command string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run","arguments":{"command":%q}}}`, id, command)
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
