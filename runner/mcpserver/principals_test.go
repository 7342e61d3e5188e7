package mcpserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/auth/authtest"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/ratelimit"
)

// teamConfig is serve.auth with a static token per name (name-token),
// policy dev for all but mallory, whose policy allows only ot.help.
func teamConfig(names ...string) *config.Config {
	cfg := config.Default()
	cfg.Policies["dev"] = &config.Policy{Allow: []string{"*"}}
	cfg.Policies["help"] = &config.Policy{Allow: []string{"ot.help"}, ReadOnly: true}
	cfg.Serve.Auth = &config.Auth{}
	for _, n := range names {
		pol := "dev"
		if n == "mallory" {
			pol = "help"
		}
		cfg.Serve.Auth.Tokens = append(cfg.Serve.Auth.Tokens, config.Token{Name: n, Token: n + "-token", Policy: pol})
	}
	return cfg
}

func authFor(t *testing.T, cfg *config.Config) *auth.Authenticator {
	t.Helper()
	a, err := auth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

// del ends session id with DELETE as token, and returns the status.
func (rc rawClient) del(id string) int {
	rc.t.Helper()
	req, _ := http.NewRequest("DELETE", rc.url, nil)
	req.Header.Set(sessionIDHeader, id)
	req.Header.Set("Authorization", "Bearer "+rc.token)
	res, err := rc.c.Do(req)
	if err != nil {
		rc.t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// runText is the text of a run's answer in session id.
func (rc rawClient) runText(id, command string) string {
	rc.t.Helper()
	body := rc.run(id, command)
	m := regexp.MustCompile(`"text":("(?:[^"\\]|\\.)*")`).FindStringSubmatch(body)
	if m == nil {
		rc.t.Fatalf("no text in %s", body)
	}
	var s string
	if err := json.Unmarshal([]byte(m[1]), &s); err != nil {
		rc.t.Fatal(err)
	}
	return s
}

// serve.max_sessions holds per principal: a principal allowed only
// ot.help that opens many sessions ends only its own, the longest idle
// first; another principal's sessions, and the state they keep, stay; it
// can neither end nor use another's session by its id. (On main such a
// principal ended everyone's sessions.)
func TestMaxSessionsPerPrincipal(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	server := New(r, Options{SessionState: true})
	srv := httptest.NewServer(HTTPHandler(server, HTTPOptions{MaxSessions: 3, Auth: authFor(t, teamConfig("alice", "mallory"))}))
	defer srv.Close()
	alice := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client(), token: "alice-token"}
	mallory := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client(), token: "mallory-token"}
	a1, a2 := alice.open(), alice.open()
	alice.runText(a1, "n = 1")
	alice.runText(a2, "n = 2")

	var ms []string
	for range 20 {
		ms = append(ms, mallory.open())
	}
	waitFor(t, "mallory has more than 3 sessions", func() bool { return countSessions(server) <= 5 })
	for i, id := range ms {
		want := http.StatusNotFound
		if i >= len(ms)-3 {
			want = 200
		}
		if got := mallory.ping(id); got != want {
			t.Errorf("mallory's session %d of %d: ping %d, want %d", i+1, len(ms), got, want)
		}
	}
	for i, id := range []string{a1, a2} {
		if got := alice.runText(id, "n"); got != []string{"1", "2"}[i] {
			t.Errorf("alice's session %d after mallory's sessions: n = %s", i+1, got)
		}
	}
	// Alice's session ids do not open to mallory.
	if st := mallory.del(a1); st != http.StatusForbidden {
		t.Errorf("mallory's DELETE of alice's session: %d, want 403", st)
	}
	if st, _, body := mallory.post(a2, `{"jsonrpc":"2.0","id":9,"method":"ping"}`); st != http.StatusForbidden {
		t.Errorf("mallory's request in alice's session: %d %s", st, body)
	}
	if got := alice.runText(a1, "n + 10"); got != "11" {
		t.Errorf("alice's session after mallory's DELETE: %s", got)
	}
	// Alice's own cap is hers: her fourth session ends her session idle
	// longest (a2: mallory's requests in it did not count as use).
	alice.open()
	alice.open()
	waitFor(t, "alice's session idle longest did not end at her 4th", func() bool { return alice.ping(a2) == http.StatusNotFound })
	if got := alice.ping(a1); got != 200 {
		t.Errorf("alice's session used last: ping %d", got)
	}
	if got := mallory.ping(ms[len(ms)-1]); got != 200 {
		t.Errorf("mallory's newest session after alice's: %d", got)
	}
}

// The variables sessions keep are bounded per principal
// (serve.session_memory) and in total (serve.session_memory_total): the
// input that would make its principal's sessions, or all, keep more
// fails and its session is cleared; the sessions of others keep theirs;
// an ended session gives its share back. The heap holds no more than the
// bounds. (On main, 12 sessions of 45 MB at max_memory 64 MiB took the
// process to 772 MB.)
func TestSessionStateBounds(t *testing.T) {
	r, err := runner.New(runner.WithLimits(runner.Limits{MaxMemory: 16 << 20}))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	server, h := newServer(r, Options{SessionState: true, SessionMemory: 20 << 20, SessionMemoryTotal: 30 << 20})
	srv := httptest.NewServer(HTTPHandler(server, HTTPOptions{Auth: authFor(t, teamConfig("alice", "bob"))}))
	defer srv.Close()
	alice := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client(), token: "alice-token"}
	bob := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client(), token: "bob-token"}
	const keep8 = `x = "ab" * (4 << 20)` + "\nlen(x)"
	before := heapMiB()

	// Alice: 12 sessions of 8 MiB, each within max_memory; two fit.
	var kept []string
	for i := range 12 {
		id := alice.open()
		got := alice.runText(id, keep8)
		if i < 2 {
			if got != "8388608" {
				t.Fatalf("alice's session %d: %s", i+1, got)
			}
			kept = append(kept, id)
			continue
		}
		if !strings.HasPrefix(got, "Error: memory limit of 20 MiB exceeded by the variables the sessions of principal 'alice' keep together (this one 8.0 MiB, the others 16.0 MiB); "+
			"this session's variables have all been cleared. Keep less (del what you no longer need), end sessions you no longer use, or set serve.session_memory to raise it") {
			t.Fatalf("alice's session %d: %s", i+1, got)
		}
		if got := alice.runText(id, "x"); !strings.Contains(got, "'x' is not defined") {
			t.Errorf("alice's session %d after the refusal: %.80s", i+1, got)
		}
	}
	if held := heapMiB(); held > before+16+12 {
		t.Errorf("heap %d MiB with 16 MiB kept, was %d MiB", held, before)
	}

	// Bob: one session fits the 30 MiB left of the total… a second does not.
	b1 := bob.open()
	if got := bob.runText(b1, keep8); got != "8388608" {
		t.Fatalf("bob's first session: %s", got)
	}
	b2 := bob.open()
	if got := bob.runText(b2, keep8); !strings.HasPrefix(got, "Error: memory limit of 30 MiB exceeded by the variables all sessions of this server keep together; this session's variables have all been cleared") {
		t.Errorf("bob's second session: %s", got)
	}
	// …and none of alice's lost anything to it.
	for i, id := range kept {
		if got := alice.runText(id, "len(x)"); got != "8388608" {
			t.Errorf("alice's session %d after bob's: %s", i+1, got)
		}
	}
	if mine, all := h.state.usage(auth.TokenID("alice")); mine < 16<<20 || mine > 17<<20 || all < 24<<20 || all > 25<<20 {
		t.Errorf("kept: alice %d bytes, all %d; want 16 and 24 MiB and a little", mine, all)
	}
	// A session that ends gives its share back.
	if st := alice.del(kept[0]); st != http.StatusNoContent {
		t.Fatalf("DELETE: %d", st)
	}
	waitFor(t, "the ended session's share was not given back", func() bool { _, all := h.state.usage(""); return all < 17<<20 })
	if got := bob.runText(b2, keep8); got != "8388608" {
		t.Errorf("bob's second session once alice ended one: %s", got)
	}
}

// An ot.result handle belongs to the principal whose run made it:
// another principal, an OAuth subject named like its static token
// included, gets what a handle never given out gets.
func TestResultHandlesBelongToPrincipals(t *testing.T) {
	r, err := runner.New(runner.WithMaxInline(200))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	srv := httptest.NewServer(HTTPHandler(New(r, Options{}), HTTPOptions{Auth: authFor(t, teamConfig("alice", "bob"))}))
	defer srv.Close()
	alice := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client(), token: "alice-token"}
	bob := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client(), token: "bob-token"}
	ai, bi := alice.open(), bob.open()
	preview := alice.runText(ai, `"\n".join(["secret line %d" % i for i in range(300)])`)
	m := regexp.MustCompile(`ot\.result\(handle="(r[a-z0-9]+)"`).FindStringSubmatch(preview)
	if m == nil {
		t.Fatalf("no handle in %s", preview)
	}
	handle := m[1]
	read := `ot.result(handle="` + handle + `", offset=2, limit=1)`
	if got := alice.runText(ai, read); !strings.HasPrefix(got, "secret line 1") {
		t.Errorf("alice reads her result: %s", got)
	}
	got := bob.runText(bi, read)
	never := bob.runText(bi, `ot.result(handle="rzzzzzzzzzz", offset=2, limit=1)`)
	if !strings.Contains(got, "unknown result handle") || strings.ReplaceAll(got, handle, "rzzzzzzzzzz") != never || strings.Contains(got, "secret") {
		t.Errorf("bob reads alice's handle: %s\nwant what a handle never given out gets: %s", got, never)
	}
}

// An OAuth subject named like a static token is another principal: its
// own rate limit, its own results, and its own line in the audit log.
// (On main a JWT whose sub was a static token's name shared them.)
func TestOAuthSubjectIsAnotherPrincipal(t *testing.T) {
	is := authtest.NewIssuer(t)
	const audience = "https://onetool.example.com/mcp"
	cfg := teamConfig("alice")
	cfg.Serve.Auth.OAuth = &config.OAuth{Issuer: is.URL, Audience: audience, Scopes: []string{"onetool.run"}, DefaultPolicy: "dev"}
	var audit bytes.Buffer
	r, err := runner.New(runner.WithMaxInline(200), runner.WithAudit(auth.NewAudit(&audit)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	now := time.Date(2026, 11, 25, 12, 0, 10, 0, time.UTC)
	lim := ratelimit.New(ratelimit.Options{RunsPerMinute: 2, Counters: r.Counters(), Now: func() time.Time { return now }})
	srv := httptest.NewServer(HTTPHandler(New(r, Options{RateLimit: lim}), HTTPOptions{Auth: authFor(t, cfg)}))
	defer srv.Close()
	static := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client(), token: "alice-token"}
	jwtAlice := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client(), token: is.Sign(t, "k1", is.Claims(audience, "onetool.run"))} // sub: alice
	si, ji := static.open(), jwtAlice.open()

	preview := static.runText(si, `"\n".join(["line %d" % i for i in range(300)])`)
	handle := regexp.MustCompile(`handle="(r[a-z0-9]+)"`).FindStringSubmatch(preview)[1]
	if got := jwtAlice.runText(ji, `ot.result(handle="`+handle+`")`); !strings.Contains(got, "unknown result handle") {
		t.Errorf("the OAuth subject alice reads the static alice's result: %.100s", got)
	}
	if got := static.runText(si, "1"); got != "1" {
		t.Errorf("static alice's second run: %s", got)
	}
	if st, _, body := static.post(si, runBody(5, "1")); st != http.StatusTooManyRequests || !strings.Contains(body, "principal 'alice' has started 2 runs") {
		t.Errorf("static alice's third run: %d %s", st, body)
	}
	if got := jwtAlice.runText(ji, "2"); got != "2" {
		t.Errorf("the OAuth subject's second run, after static alice's limit: %s", got)
	}
	if st, _, body := jwtAlice.post(ji, runBody(5, "1")); st != http.StatusTooManyRequests || !strings.Contains(body, "principal 'oauth:alice' has started 2 runs") {
		t.Errorf("the OAuth subject's third run: %d %s", st, body)
	}
	var principals []string
	for line := range strings.Lines(audit.String()) {
		var e auth.AuditEntry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		principals = append(principals, e.Principal)
	}
	if strings.Join(principals, " ") != "alice oauth:alice alice oauth:alice" { // the refused runs never ran
		t.Errorf("audit principals: %q", principals)
	}
}

// Over HTTP too, a run whose refused call the program caught is audited
// "denied", not "ok".
func TestAuditDeniedOverHTTP(t *testing.T) {
	var audit bytes.Buffer
	r, err := runner.New(runner.WithAudit(auth.NewAudit(&audit)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	srv := httptest.NewServer(HTTPHandler(New(r, Options{}), HTTPOptions{Auth: authFor(t, teamConfig("mallory"))}))
	defer srv.Close()
	mallory := rawClient{t: t, url: srv.URL + "/mcp", c: srv.Client(), token: "mallory-token"}
	id := mallory.open()
	if got := mallory.runText(id, "try:\n    demo.bar(text='a')\nexcept Exception:\n    pass\n'quiet'"); got != "quiet" {
		t.Fatalf("run: %s", got)
	}
	var e auth.AuditEntry
	if err := json.Unmarshal(audit.Bytes(), &e); err != nil || e.Principal != "mallory" || e.Outcome != "denied" || len(e.Tools) != 1 || e.Tools[0] != "demo.bar" {
		t.Errorf("audit: %v %s", err, audit.String())
	}
}

// A run parked for the user's confirmation (protocol 2026-07-28) is
// resumed only by its own principal: another that presents its request
// state is told it is unknown, and the run stays parked for its own.
func TestParkedRunBelongsToPrincipal(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, h := newServer(r, Options{})
	cr := &confirmingRun{owner: auth.TokenID("alice"), state: "state-1", timer: time.NewTimer(time.Hour)}
	h.parked[cr.state] = cr
	as := func(name string) *mcp.CallToolRequest {
		pr := &auth.Principal{Name: name, ID: auth.TokenID(name)}
		ti := &sdkauth.TokenInfo{UserID: pr.ID, Extra: map[string]any{"onetool.principal": pr}}
		if auth.PrincipalOf(ti) != pr {
			t.Fatal("the test's TokenInfo does not carry its principal")
		}
		return &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "run", RequestState: "state-1"}, Extra: &mcp.RequestExtra{TokenInfo: ti}}
	}
	res := h.resume(t.Context(), as("bob"))
	if !res.IsError || text(t, res) != "Error: this confirmation is unknown or has expired: send the program again" {
		t.Errorf("bob resumes alice's run: %+v", res)
	}
	if h.parked["state-1"] != cr {
		t.Error("bob's attempt removed alice's parked run")
	}
}
