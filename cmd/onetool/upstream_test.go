package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/mcpserver"
)

// upstreamRunner builds a runner whose config connects the four reference
// servers from npm and a crashing server written in Go (this test binary,
// re-executed), all real processes.
func upstreamRunner(t *testing.T) (*runner.Runner, string) {
	t.Helper()
	node, dir := nodeModules(t)
	tmp := t.TempDir()
	root := filepath.Join(tmp, "root")
	os.MkdirAll(root, 0o755)
	os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello from the filesystem server"), 0o644)
	mod := func(pkg string) string {
		return filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	}
	yaml := fmt.Sprintf(`
servers:
  everything:
    command: %[1]s
    args: [%[2]q]
  memory:
    command: %[1]s
    args: [%[3]q]
    env: {MEMORY_FILE_PATH: %[4]q}
  filesystem:
    command: %[1]s
    args: [%[5]q, %[6]q]
  crashy:
    command: %[7]q
    args: ["-test.run=^TestCrashServerChild$"]
    env: {ONETOOL_CRASH_SERVER: "1"}
    timeout: 10s
`, node, mod("server-everything"), mod("server-memory"), filepath.Join(tmp, "memory.jsonl"),
		mod("server-filesystem"), root, os.Args[0])
	path := filepath.Join(tmp, "onetool.yaml")
	os.WriteFile(path, []byte(yaml), 0o644)
	cfg, err := config.Load(path, config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(runner.WithConfig(cfg))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, root
}

func TestUpstreamServers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real MCP servers")
	}
	r, root := upstreamRunner(t)
	ctx := context.Background()
	run := func(code string) *runner.ExecResult {
		t.Helper()
		return r.Exec(ctx, code)
	}
	tests := []struct{ code, want string }{
		{`everything.get_sum(a=1, b=2)`, "The sum of 1 and 2 is 3."},
		{`everything.echo(message="hi")`, "Echo: hi"},
		{`everything.getSum(a=2, b=2)`, "The sum of 2 and 2 is 4."},
		{`"everything.get_sum(" in ot.help(query="everything.get_sum")`, "True"},
	}
	for _, tt := range tests {
		if res := run(tt.code); res.Text != tt.want {
			t.Errorf("%s = %q, want %q", tt.code, res.Text, tt.want)
		}
	}
	// Arguments are validated against the upstream schema before the call.
	if res := run(`everything.get_sum(a="one", b=2)`); !strings.Contains(res.Text, "args.a") {
		t.Errorf("bad argument type: %q", res.Text)
	}
	if res := run(`everything.ech(message="x")`); !strings.Contains(res.Text, "has no function 'ech'. Did you mean 'echo'?") {
		t.Errorf("unknown tool: %q", res.Text)
	}
	// Connected, a server's tools are checked before the program starts
	// (issue 29): the memory write of line 1 never happens.
	res := run(`memory.create_entities(entities=[{"name": "Bob", "entityType": "person", "observations": []}])
everything.echo(mesage="x")
everything.get_sum(a="one", b=2)`)
	if !strings.HasPrefix(res.Text, "Error: line 2: everything.echo: unknown parameter 'mesage'. Did you mean 'message'?") ||
		!strings.Contains(res.Text, "\nline 3: everything.get_sum: invalid arguments: args.a: ") ||
		!strings.HasSuffix(res.Text, "no tool ran)") {
		t.Errorf("checked before the run: %q", res.Text)
	}
	if res := run(`[e["name"] for e in memory.read_graph()["entities"]]`); strings.Contains(res.Text, "Bob") {
		t.Errorf("a call before the mistakes ran: %s", res.Text)
	}

	// memory: create, then read back.
	res = run(`memory.create_entities(entities=[{"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}])
g = memory.read_graph()
[e["name"] for e in g["entities"]]`)
	if res.Text != `["Ada"]` {
		t.Errorf("memory: %q", res.Text)
	}

	// filesystem: a temporary root; outside it the server refuses (isError).
	res = run(fmt.Sprintf(`filesystem.read_text_file(path=%q)`, filepath.Join(root, "hello.txt")))
	if !strings.Contains(res.Text, "hello from the filesystem server") {
		t.Errorf("filesystem read: %q", res.Text)
	}
	res = run(`filesystem.read_text_file(path="/etc/hostname")`)
	if !res.IsError() || !strings.HasPrefix(res.Text, "Error: line 1: filesystem.read_text_file failed: ") {
		t.Errorf("outside the root: %q", res.Text)
	}
	if !errors.Is(res.Err, runner.ErrExecution) {
		t.Errorf("an isError result must be ErrExecution: %v", res.Err)
	}

	// Upstream progress notifications reach the run's listener.
	var mu sync.Mutex
	var progress []runner.UpstreamProgress
	res = r.Exec(ctx, `everything.trigger_long_running_operation(duration=0.3, steps=3)`,
		runner.OnUpstreamProgress(func(p runner.UpstreamProgress) {
			mu.Lock()
			defer mu.Unlock()
			progress = append(progress, p)
		}))
	// The server's last notification races with its result and may be
	// dropped with the finished call; the ones before it must arrive.
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n := len(progress)
		mu.Unlock()
		if n >= 2 {
			break
		}
	}
	mu.Lock()
	if res.IsError() || len(progress) < 2 || progress[0].ToolID != "everything.trigger_long_running_operation" {
		t.Errorf("upstream progress: %q, %+v", res.Text, progress)
	}
	mu.Unlock()

	// ot.servers shows every server connected, with its tools.
	res = run(`{s["name"]: [s["state"], s["tools"] > 0] for s in ot.servers()}`)
	for _, name := range []string{"everything", "memory", "filesystem", "crashy"} {
		if !strings.Contains(res.Text, fmt.Sprintf(`"%s":["connected",true]`, name)) {
			t.Errorf("ot.servers(): %s", res.Text)
		}
	}
}

func TestUpstreamCrashRestartAndShutdown(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real MCP servers")
	}
	r, _ := upstreamRunner(t)
	ctx := context.Background()
	pid := func() int {
		res := r.Exec(ctx, "crashy.pid()")
		var n int
		if _, err := fmt.Sscan(res.Text, &n); err != nil {
			t.Fatalf("crashy.pid() = %q", res.Text)
		}
		return n
	}
	first := pid()
	start := time.Now()
	res := r.Exec(ctx, "crashy.crash()")
	if !res.IsError() || time.Since(start) > 5*time.Second {
		t.Fatalf("a call to a server that dies: %q after %v", res.Text, time.Since(start))
	}
	second := pid() // the next call restarts the server
	if second == first {
		t.Errorf("the server was not restarted (pid %d)", first)
	}
	if res := r.Exec(ctx, `[s["restarts"] for s in ot.servers() if s["name"] == "crashy"]`); res.Text != "[1]" {
		t.Errorf("restarts = %s", res.Text)
	}
	// Shutdown leaves no process behind.
	closed := time.Now()
	r.Close()
	for _, p := range []int{first, second} {
		for syscall.Kill(p, 0) == nil {
			if time.Since(closed) > 3*time.Second {
				t.Fatalf("server process %d still alive %v after Close", p, time.Since(closed))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if d := time.Since(closed); d > 2500*time.Millisecond {
		t.Errorf("Close took %v", d)
	}
}

// TestCrashServerChild is not a test: run with ONETOOL_CRASH_SERVER=1 it is
// an MCP server over stdio whose crash tool kills the process mid-call.
func TestCrashServerChild(t *testing.T) {
	if os.Getenv("ONETOOL_CRASH_SERVER") != "1" {
		t.Skip("a helper process for TestUpstreamCrashRestartAndShutdown")
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "crashy", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "pid", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(os.Getpid())}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "crash", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			os.Exit(3)
			return nil, nil
		})
	s.Run(context.Background(), &mcp.StdioTransport{})
	os.Exit(0)
}

// SPEC §7.1, issue 17: what every conversation pays for onetool, tools/list
// plus instructions, stays within 2,000 characters with the four reference
// servers from npm configured, each adding its pack line.
func TestContextCostWithReferenceServers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real MCP servers")
	}
	node, dir := nodeModules(t)
	tmp := t.TempDir()
	mod := func(pkg string) string {
		return filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	}
	yaml := fmt.Sprintf(`
servers:
  everything: {command: %[1]s, args: [%[2]q]}
  memory: {command: %[1]s, args: [%[3]q], env: {MEMORY_FILE_PATH: %[4]q}}
  filesystem: {command: %[1]s, args: [%[5]q, %[6]q]}
  sequential-thinking: {command: %[1]s, args: [%[7]q]}
`, node, mod("server-everything"), mod("server-memory"), filepath.Join(tmp, "memory.jsonl"),
		mod("server-filesystem"), tmp, mod("server-sequential-thinking"))
	path := filepath.Join(tmp, "onetool.yaml")
	os.WriteFile(path, []byte(yaml), 0o644)
	cfg, err := config.Load(path, config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(runner.WithConfig(cfg))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// Wait until every server is connected and has its pack line.
	deadline := time.Now().Add(60 * time.Second)
	for {
		res := r.Exec(context.Background(), `len([s for s in ot.servers() if s["state"] == "connected"])`)
		if res.Text == "4" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("servers not connected: %s", r.Exec(context.Background(), "ot.servers()").Text)
		}
		time.Sleep(100 * time.Millisecond)
	}
	list, instructions := mcpserver.Listing(r)
	for _, pack := range []string{"everything", "memory", "filesystem", "sequential"} {
		if !strings.Contains(instructions, "- "+pack) {
			t.Errorf("instructions lack the %s pack:\n%s", pack, instructions)
		}
	}
	total := len(list) + len(instructions)
	t.Logf("tools/list %d + instructions %d = %d characters", len(list), len(instructions), total)
	if !strings.Contains(instructions, "\nPython modules: ") {
		t.Errorf("instructions do not list the modules:\n%s", instructions)
	}
	if total > 2000 {
		t.Errorf("tools/list %d + instructions %d = %d characters, want ≤ 2000:\n%s", len(list), len(instructions), total, instructions)
	}

	checkBenchFigures(t, r)

	// A pack's overview, which an agent reads before its first call, is a
	// line per tool (issue 18: the filesystem server's was 5,112
	// characters); the whole description comes with the tool's id.
	for _, pack := range []string{"filesystem", "everything", "memory", "file"} {
		res := r.Exec(context.Background(), fmt.Sprintf("ot.help(query=%q)", pack))
		t.Logf("ot.help(query=%q): %d characters", pack, len(res.Text))
		if len(res.Text) > 3000 {
			t.Errorf("ot.help(query=%q) is %d characters, want ≤ 3000:\n%s", pack, len(res.Text), res.Text)
		}
		for _, line := range strings.Split(res.Text, "\n") {
			if n := len([]rune(line)); n > 125 {
				t.Errorf("ot.help(query=%q) has a line of %d characters: %s", pack, n, line)
			}
		}
	}
	if res := r.Exec(context.Background(), `ot.help(query="filesystem.read_text_file")`); !strings.Contains(res.Text, "Parameters:") {
		t.Errorf("a tool's help lacks its parameters:\n%s", res.Text)
	}
}
