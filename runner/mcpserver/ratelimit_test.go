package mcpserver

import (
	"context"
	"encoding/json"
	"io"
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
	srv := httptest.NewServer(HTTPHandler(New(r, Options{RateLimit: lim}), HTTPOptions{Auth: a, RateLimit: lim}))
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
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run","arguments":{"command":"1"}}}`
	req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer alice-token")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
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
