package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/ratelimit"
)

// serve.rate_limit bounds each principal's runs: over the bound, 429 with
// Retry-After and a JSON-RPC error saying which bound and when to retry;
// other principals, and requests that are not runs, go on (SPEC §7.4).
func TestHTTPRateLimit(t *testing.T) {
	cfg := config.Default()
	cfg.Policies["dev"] = &config.Policy{Allow: []string{"*"}}
	cfg.Serve.Auth = &config.Auth{Tokens: []config.Token{
		{Name: "alice", Token: "alice-token", Policy: "dev"},
		{Name: "bob", Token: "bob-token", Policy: "dev"},
	}}
	a, err := auth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// The minute of the test must not turn between two runs: hold the clock.
	now := time.Date(2026, 11, 25, 12, 0, 10, 0, time.UTC)
	lim := ratelimit.New(ratelimit.Options{RunsPerMinute: 2, Concurrent: 1, Counters: r.Counters(), Now: func() time.Time { return now }})
	srv := httptest.NewServer(HTTPHandler(New(r, Options{RateLimit: lim}), HTTPOptions{Auth: a}))
	defer srv.Close()

	connect := func(token string) *mcp.ClientSession {
		client := mcp.NewClient(&mcp.Implementation{Name: "rate", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
			Endpoint: srv.URL + "/mcp", DisableStandaloneSSE: true,
			HTTPClient: &http.Client{Transport: bearerTransport{token}},
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	alice, bob := connect("alice-token"), connect("bob-token")

	// One run in flight at a time: alice's second, while her first
	// sleeps, is refused.
	done := make(chan string)
	go func() { done <- text(t, callRun(t, alice, "demo.sleep(ms=400)")) }()
	time.Sleep(100 * time.Millisecond)
	_, err = alice.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": "1"}})
	// go-sdk's client reports the status only; the body is checked below.
	if err == nil || !strings.Contains(err.Error(), "Too Many Requests") {
		t.Errorf("second run in flight: %v", err)
	}
	if got := text(t, callRun(t, bob, "1 + 1")); got != "2" {
		t.Errorf("bob while alice runs: %q", got)
	}
	if got := <-done; got != "400" {
		t.Errorf("alice's first run: %q", got)
	}
	// Her minute has room for two runs (the one refused for being in
	// flight did not start); requests that are not runs do not count.
	if _, err := alice.ListTools(context.Background(), nil); err != nil {
		t.Errorf("tools/list is not a run: %v", err)
	}
	if got := text(t, callRun(t, alice, "3")); got != "3" {
		t.Errorf("alice's second run of the minute: %q", got)
	}

	// Over the minute's bound, seen raw: status, Retry-After, body.
	rc := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client(), token: "alice-token"}
	res, body := rc.send(rc.open(), runBody(7, "1"))
	b := []byte(body)
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "50" {
		t.Fatalf("third run of a minute of 2: %d, Retry-After %q, %s; want 429 and the 50 s left", res.StatusCode, res.Header.Get("Retry-After"), b)
	}
	var answer struct {
		ID    int `json:"id"`
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	want := "Error: rate limit: principal 'alice' has started 2 runs this minute (serve.rate_limit.runs_per_minute: 2); retry in 50s"
	if err := json.Unmarshal(b, &answer); err != nil || answer.ID != 7 || answer.Error.Message != want {
		t.Errorf("429 body %s\nwant the message %q for id 7", b, want)
	}
	// Bob's minute is his own.
	if got := text(t, callRun(t, bob, "2 + 2")); got != "4" {
		t.Errorf("bob after alice's limit: %q", got)
	}
}

// The rate limit and the bound on runs in flight hold for every run go-sdk
// dispatches, however its JSON is spelt and however many a POST carries:
// a second key "Method":"x" (which encoding/json, matching keys
// case-insensitively and taking the last, read as the method) no longer
// hides a run; each run of a JSON-RPC batch counts (protocol 2025-03-26,
// or no version header, where go-sdk takes batches), and the runs over
// the bound answer in the batch with the limiter's error; from
// 2025-06-18 go-sdk refuses batches itself, and none of their runs
// counts. (On main, both bypassed serve.rate_limit.)
func TestRateLimitHoldsForWhatTheSDKDispatches(t *testing.T) {
	names := []string{"alice", "bob", "carol", "dave", "erin"}
	cfg := config.Default()
	cfg.Policies["dev"] = &config.Policy{Allow: []string{"*"}}
	cfg.Serve.Auth = &config.Auth{}
	for _, n := range names {
		cfg.Serve.Auth.Tokens = append(cfg.Serve.Auth.Tokens, config.Token{Name: n, Token: n + "-token", Policy: "dev"})
	}
	a, err := auth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	now := time.Date(2026, 11, 25, 12, 0, 10, 0, time.UTC)
	lim := ratelimit.New(ratelimit.Options{RunsPerMinute: 3, Counters: r.Counters(), Now: func() time.Time { return now }})
	srv := httptest.NewServer(HTTPHandler(New(r, Options{RateLimit: lim}), HTTPOptions{Auth: a}))
	defer srv.Close()
	client := func(name, version string) (rawClient, string) {
		rc := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client(), token: name + "-token"}
		id := rc.open()
		rc.version = version
		return rc, id
	}
	const refusal = `"error":{"code":-32000,"message":"Error: rate limit: principal '%s' has started 3 runs this minute (serve.rate_limit.runs_per_minute: 3); retry in 50s","data":{"retry_after":50}}`
	dup := func(n int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","Method":"x","params":{"name":"run","arguments":{"command":"1"}}}`, n)
	}

	t.Run("second key Method", func(t *testing.T) {
		rc, id := client("alice", "")
		for i := 1; i <= 3; i++ {
			if status, _, body := rc.post(id, dup(i)); status != 200 || !strings.Contains(body, `"text":"1"`) {
				t.Fatalf("run %d: %d %s", i, status, body)
			}
		}
		res, body := rc.send(id, dup(4))
		if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "50" ||
			res.Header.Get("Content-Type") != "application/json" || body != `{"jsonrpc":"2.0","id":4,`+fmt.Sprintf(refusal, "alice")+"}\n" {
			t.Errorf("fourth run: %d, Retry-After %q, Content-Type %q, %s", res.StatusCode, res.Header.Get("Retry-After"), res.Header.Get("Content-Type"), body)
		}
	})
	for _, tt := range []struct{ name, who, version string }{
		{"batch, protocol 2025-03-26", "bob", "2025-03-26"},
		{"batch, no protocol version", "carol", "none"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rc, id := client(tt.who, tt.version)
			batch := "[" + runBody(1, "1") + "," + runBody(2, "2") + "," + dup(3) + "," + runBody(4, "4") + "," + `{"jsonrpc":"2.0","id":5,"method":"tools/list"}` + "]"
			status, _, body := rc.post(id, batch)
			if status != 200 {
				t.Fatalf("batch: %d %s", status, body)
			}
			if n := strings.Count(body, fmt.Sprintf(refusal, tt.who)); n != 1 || !strings.Contains(body, `"tools":[`) {
				t.Errorf("a batch of four runs and tools/list under a bound of three: %d refused, want 1:\n%s", n, body)
			}
			if status, _, body := rc.post(id, runBody(6, "6")); status != http.StatusTooManyRequests {
				t.Errorf("a run after the batch: %d %s", status, body)
			}
		})
	}
	t.Run("batch, protocol 2025-11-25", func(t *testing.T) {
		rc, id := client("dave", "2025-11-25")
		batch := "[" + runBody(1, "1") + "," + runBody(2, "2") + "," + runBody(3, "3") + "," + runBody(4, "4") + "]"
		if status, _, body := rc.post(id, batch); status != http.StatusBadRequest || !strings.Contains(body, "JSON-RPC batching is not supported") {
			t.Errorf("batch: %d %s", status, body)
		}
		for i := 1; i <= 3; i++ {
			if status, _, body := rc.post(id, runBody(i, "1")); status != 200 {
				t.Errorf("run %d after a refused batch: %d %s", i, status, body)
			}
		}
	})
}

// The bound on runs in flight holds for a run whose JSON hid it from a
// parse of the body, and is given back when the run's handler returns.
func TestConcurrentBoundHoldsForWhatTheSDKDispatches(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	lim := ratelimit.New(ratelimit.Options{Concurrent: 1})
	srv := httptest.NewServer(HTTPHandler(New(r, Options{RateLimit: lim}), HTTPOptions{}))
	defer srv.Close()
	rc := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client()}
	id := rc.open()
	dup := func(n int, command string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"Method":"ping","method":"tools/call","params":{"name":"run","arguments":{"command":%q}}}`, n, command)
	}
	first := make(chan string, 1)
	go func() { _, _, body := rc.post(id, dup(1, "demo.sleep(ms=500)")); first <- body }()
	time.Sleep(150 * time.Millisecond)
	res, body := rc.send(id, dup(2, "1"))
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "1" ||
		!strings.Contains(body, `"id":2,"error":{"code":-32000,"message":"Error: rate limit: this server's clients have 1 run in flight already (serve.rate_limit.concurrent: 1); retry when one has finished"`) {
		t.Errorf("a second run in flight: %d Retry-After %q %s", res.StatusCode, res.Header.Get("Retry-After"), body)
	}
	if body := <-first; !strings.Contains(body, `"text":"500"`) {
		t.Errorf("the first run: %s", body)
	}
	if status, _, body := rc.post(id, dup(3, "2")); status != 200 || !strings.Contains(body, `"text":"2"`) {
		t.Errorf("a run after the first ended: %d %s", status, body)
	}
}

// In the stateless mode (protocol 2026-07-28), where every POST is a
// session of its own, the rate limit holds the same way.
func TestRateLimitStateless(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	now := time.Date(2026, 11, 25, 12, 0, 10, 0, time.UTC)
	lim := ratelimit.New(ratelimit.Options{RunsPerMinute: 2, Counters: r.Counters(), Now: func() time.Time { return now }})
	srv := httptest.NewServer(HTTPHandler(New(r, Options{RateLimit: lim}), HTTPOptions{Stateless: true}))
	defer srv.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "stateless", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("negotiated %s, want the stateless 2026-07-28", v)
	}
	for i := range 2 {
		if got := text(t, callRun(t, cs, "1")); got != "1" {
			t.Fatalf("run %d: %s", i+1, got)
		}
	}
	_, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": "1"}})
	if err == nil || !strings.Contains(err.Error(), "Too Many Requests") {
		t.Errorf("third run of a minute of 2: %v", err)
	}
}
