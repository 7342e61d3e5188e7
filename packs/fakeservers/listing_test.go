package fakeservers_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/packs/fakeservers"
	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/mcpserver"
)

// TestMain lets the test binary serve one generated server over stdio
// when a config starts it again with ONETOOL_FAKESERVER set.
func TestMain(m *testing.M) {
	if fakeservers.ServeIfChild() {
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// maxListing is what every conversation may pay for onetool with 500
// tools from a dozen upstream servers: tools/list plus the server
// instructions, in characters (issue 29, item 5).
const maxListing = 3000

// upstreamRunner configures every generated server as a real upstream
// MCP server — every other one a process speaking stdio (this binary,
// re-executed), the rest streamable HTTP servers — and waits until all
// their tools are registered.
func upstreamRunner(t *testing.T) (*runner.Runner, int) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	servers := fakeservers.Servers()
	var yaml strings.Builder
	yaml.WriteString("servers:\n")
	for i, s := range servers {
		fmt.Fprintf(&yaml, "  %s:\n    description: %q\n", s.Name, s.Description)
		if i%2 == 0 {
			fmt.Fprintf(&yaml, "    command: %q\n    args: [\"-test.run=^$\"]\n    env: {%s: %q, GORACE: \"atexit_sleep_ms=0\"}\n    timeout: 20s\n",
				exe, fakeservers.ServerEnv, s.Name)
			continue
		}
		ts := httptest.NewServer(s.Handler())
		t.Cleanup(ts.Close)
		fmt.Fprintf(&yaml, "    url: %s\n    timeout: 20s\n", ts.URL)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "onetool.yaml")
	if err := os.WriteFile(path, []byte(yaml.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path, config.LoadOptions{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(runner.WithConfig(cfg))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	want := fakeservers.Count(servers)
	deadline := time.Now().Add(60 * time.Second)
	for {
		upstream := 0
		for _, s := range servers {
			if p, ok := r.Registry().Pack(s.Name); ok {
				upstream += len(p.Tools())
			}
		}
		if upstream == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 60 s, %d of the %d upstream tools are registered: %s", upstream, want, r.Exec(context.Background(), "ot.servers()").Text)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return r, want
}

// TestListingWith500UpstreamTools: with a dozen upstream servers and
// their 500 tools configured, what an MCP client reads before its first
// call (tools/list and the instructions) stays within 3,000 characters,
// names every server's pack, and ot.help search finds their tools.
func TestListingWith500UpstreamTools(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a dozen MCP servers")
	}
	r, n := upstreamRunner(t)
	list, instr := mcpserver.Listing(r)
	total := len(list) + len(instr)
	t.Logf("%d upstream tools from %d servers: tools/list %d + instructions %d = %d characters", n, len(fakeservers.Servers()), len(list), len(instr), total)
	if total > maxListing {
		t.Errorf("tools/list + instructions = %d characters, over %d:\n%s\n%s", total, maxListing, list, instr)
	}
	for _, s := range fakeservers.Servers() {
		if !strings.Contains(instr, s.Name) {
			t.Errorf("the instructions do not name the pack %s:\n%s", s.Name, instr)
		}
	}
	// The tools came through MCP, among the built-in packs and modules:
	// search finds them, and a call reaches the server.
	for q, want := range map[string]string{
		"list open pull requests for a repo": "github.list_pull_requests(",
		"send a message to a channel":        "slack.chat_post_message(",
		"refund a payment":                   "payments.create_refund(",
	} {
		res := r.Exec(context.Background(), fmt.Sprintf("ot.help(query=%q)", q))
		if lines := strings.SplitN(res.Text, "\n", 3); len(lines) < 2 || !strings.HasPrefix(strings.TrimSpace(lines[1]), want) {
			t.Errorf("ot.help(query=%q) does not list %s…) first:\n%s", q, want, res.Text)
		}
	}
	res := r.Exec(context.Background(), `slack.chat_post_message(channel="C1", text="hi")["tool"]`)
	if res.IsError() || res.Text != "chat.postMessage" {
		t.Errorf("slack.chat_post_message reached %q (error %v), want chat.postMessage", res.Text, res.IsError())
	}
}
