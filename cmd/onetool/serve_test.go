package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sys/unix"
)

func startStdio(t *testing.T, client *mcp.Client) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(onetoolBinary(t), "serve", "--log-level", "warn")
	cmd.Stderr = os.Stderr
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestServeStdio drives the real binary over stdio with the go-sdk client.
func TestServeStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and spawns the binary")
	}
	progress := make(chan *mcp.ProgressNotificationParams, 10)
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			progress <- req.Params
		},
	})
	cs := startStdio(t, client)
	ctx := context.Background()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != "run" {
		t.Fatalf("ListTools = %v, %v", tools, err)
	}
	call := func(ctx context.Context, command string, token any) (*mcp.CallToolResult, error) {
		p := &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": command}}
		if token != nil {
			p.SetProgressToken(token)
		}
		return cs.CallTool(ctx, p)
	}
	res, err := call(ctx, "print('a')\n[demo.foo(text='test'), demo.bar(text='item1')]", "tok")
	if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "a\n[\"orange\",\"fox\"]" {
		t.Fatalf("run = %+v, %v", res, err)
	}
	for range 2 {
		select {
		case p := <-progress:
			if p.ProgressToken != "tok" {
				t.Errorf("progress token %v", p.ProgressToken)
			}
		case <-time.After(2 * time.Second):
			t.Fatal("missing progress notification")
		}
	}
	res, err = call(ctx, "demo.fail(message='boom')", nil)
	if err != nil || !res.IsError || res.Content[0].(*mcp.TextContent).Text != "Error: line 1: demo.fail failed: boom" {
		t.Errorf("error run = %+v, %v", res, err)
	}

	cctx, cancel := context.WithCancel(ctx)
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	if _, err := call(cctx, "demo.sleep(ms=20000)", nil); err == nil {
		t.Error("cancelled run returned no error")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancellation took %v", d)
	}
	res, err = call(ctx, "1 + 1", nil)
	if err != nil || res.Content[0].(*mcp.TextContent).Text != "2" {
		t.Errorf("after cancellation: %+v, %v", res, err)
	}
}

// TestServeStdoutIsProtocolOnly reads the raw stdout of `onetool serve`
// while programs print: every line must be a JSON-RPC message.
func TestServeStdoutIsProtocolOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and spawns the binary")
	}
	cmd := exec.Command(onetoolBinary(t), "serve")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	send := func(s string) { io.WriteString(stdin, s+"\n") }
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run","arguments":{"command":"for i in range(100):\n    print('noise', i)\n'done'"}}}`)
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"run","arguments":{"command":"1/0"}}}`)
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	seen := 0
	for seen < 3 && lines.Scan() {
		var msg struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal(lines.Bytes(), &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Fatalf("stdout line is not JSON-RPC: %q", lines.Text())
		}
		if msg.ID != nil {
			seen++
		}
	}
	if seen != 3 {
		t.Fatalf("got %d responses; stderr:\n%s", seen, stderr.String())
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("serve did not exit cleanly on EOF: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "onetool serving MCP on stdio") {
		t.Errorf("logs did not reach stderr: %q", stderr.String())
	}
}

// TestReserveStdout proves the mechanism behind protocol-only stdout: after
// reserveStdout, fmt.Print and raw writes to file descriptor 1 go to stderr,
// and only the returned file reaches the real stdout. It runs in a child
// process because it rewires the process's descriptors.
func TestReserveStdout(t *testing.T) {
	if os.Getenv("ONETOOL_RESERVE_STDOUT_CHILD") == "1" {
		proto, err := reserveStdout()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		fmt.Println("noise from fmt")
		unix.Write(1, []byte("noise from fd 1\n"))
		fmt.Fprintln(proto, "protocol")
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReserveStdout$")
	cmd.Env = append(os.Environ(), "ONETOOL_RESERVE_STDOUT_CHILD=1")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v\n%s", err, stderr.String())
	}
	if stdout.String() != "protocol\n" {
		t.Errorf("stdout = %q, want only the protocol line", stdout.String())
	}
	if !strings.Contains(stderr.String(), "noise from fmt") || !strings.Contains(stderr.String(), "noise from fd 1") {
		t.Errorf("stderr = %q, want the noise", stderr.String())
	}
}

// BenchmarkColdStart measures spawn → initialize result of the real binary
// over stdio: what a client waits for before the first call.
func BenchmarkColdStart(b *testing.B) {
	bin := onetoolBinary(b)
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	for b.Loop() {
		cmd := exec.Command(bin, "serve", "--log-level", "error")
		cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cs.Close()
		b.StartTimer()
	}
}

// startHTTP starts `onetool serve --http 127.0.0.1:0` with extra arguments
// and returns the URL of its /mcp endpoint.
func startHTTP(t *testing.T, args ...string) string {
	t.Helper()
	_, url := serveProcess(t, io.Discard, append([]string{"--http", "127.0.0.1:0", "--log-level", "warn"}, args...)...)
	return url
}

// serveProcess starts `onetool serve` with args, which must include
// --http, and returns once it listens: the process (killed when the test
// ends) and its /mcp URL. What it writes on stderr afterwards goes to log.
func serveProcess(t *testing.T, log io.Writer, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(onetoolBinary(t), append([]string{"serve"}, args...)...)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		if url, ok := strings.CutPrefix(lines.Text(), "onetool: listening on "); ok {
			go io.Copy(log, stderr)
			return cmd, url
		}
	}
	t.Fatal("onetool serve --http did not say where it listens")
	return nil, ""
}

// serve.session_idle and serve.max_sessions reach the HTTP server: with
// max_sessions 2 a third session ends the first, and after session_idle
// without a request the others end too; each then answers 404.
func TestServeHTTPSessionLimitsFromConfig(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and spawns the binary")
	}
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/onetool.yaml", []byte("serve:\n  session_idle: 500ms\n  max_sessions: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	url := startHTTP(t, "--config", dir+"/onetool.yaml")
	post := func(id, body string) (int, string) {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if id != "" {
			req.Header.Set("Mcp-Session-Id", id)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode, res.Header.Get("Mcp-Session-Id")
	}
	ping := func(id string) int {
		status, _ := post(id, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
		return status
	}
	var ids []string
	for range 3 {
		status, id := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
		if status != 200 || id == "" {
			t.Fatalf("initialize: %d %q", status, id)
		}
		post(id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		ids = append(ids, id)
	}
	deadline := time.Now().Add(5 * time.Second)
	for ping(ids[0]) != http.StatusNotFound {
		if time.Now().After(deadline) {
			t.Fatal("the first of 3 sessions did not end with max_sessions 2")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st := ping(ids[2]); st != 200 {
		t.Fatalf("the newest session answered %d", st)
	}
	time.Sleep(time.Second)
	for i, id := range ids[1:] {
		if st := ping(id); st != http.StatusNotFound {
			t.Errorf("session %d answered %d after session_idle, want 404", i+2, st)
		}
	}
}
