package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// startServeHTTP starts `onetool serve --http 127.0.0.1:0` with a config
// file holding cfg, and returns the process and its /mcp URL.
func startServeHTTP(t *testing.T, cfg string) (*exec.Cmd, string) {
	t.Helper()
	dir := t.TempDir()
	if err := writeFile(dir+"/onetool.yaml", cfg); err != nil {
		t.Fatal(err)
	}
	return serveProcess(t, os.Stderr, "--http", "127.0.0.1:0", "--log-level", "warn", "--config", dir+"/onetool.yaml")
}

// runInFlight connects to url, runs demo.foo then command, and returns
// once the progress notification of demo.foo shows the run is in flight.
func runInFlight(t *testing.T, url, command string) <-chan *mcp.CallToolResult {
	t.Helper()
	started := make(chan struct{}, 10)
	client := mcp.NewClient(&mcp.Implementation{Name: "drain", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { started <- struct{}{} },
	})
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	answer := make(chan *mcp.CallToolResult, 1)
	go func() {
		p := &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": "demo.foo(text='test')\n" + command}}
		p.SetProgressToken("drain")
		res, err := cs.CallTool(context.Background(), p)
		if err != nil {
			res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "protocol error: " + err.Error()}}}
		}
		answer <- res
	}()
	select {
	case <-started:
	case res := <-answer:
		t.Fatalf("the run ended before the test could stop the server: %+v", res)
	case <-time.After(5 * time.Second):
		t.Fatal("the run never started")
	}
	return answer
}

// exited waits for cmd to end and returns its exit code, or fails after
// within.
func exited(t *testing.T, cmd *exec.Cmd, within time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(within):
		t.Fatalf("onetool serve still running %v after SIGTERM", within)
		return -1
	}
}

// SIGTERM during a run: the run's answer still arrives, /healthz says
// draining meanwhile, and the process exits 0 once the run is done.
func TestServeHTTPDrainsOnSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and spawns the binary")
	}
	cmd, url := startServeHTTP(t, "serve:\n  drain_timeout: 10s\n")
	answer := runInFlight(t, url, "demo.sleep(ms=600)")
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	health := strings.TrimSuffix(url, "/mcp") + "/healthz"
	deadline := time.Now().Add(2 * time.Second)
	for {
		res, err := http.Get(health)
		if err != nil {
			t.Fatalf("healthz while draining: %v", err)
		}
		var body struct{ Status string }
		json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		if res.StatusCode == http.StatusServiceUnavailable && body.Status == "draining" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("healthz after SIGTERM = %d %q, want 503 draining", res.StatusCode, body.Status)
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case res := <-answer:
		if res.IsError || resultText(res) != "600" {
			t.Errorf("the run in flight answered %q (isError %v), want 600", resultText(res), res.IsError)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the run in flight never answered")
	}
	if code := exited(t, cmd, 5*time.Second); code != 0 {
		t.Errorf("exit code %d after draining, want 0", code)
	}
	if took := time.Since(sent); took > 3*time.Second {
		t.Errorf("exit %v after SIGTERM with a 600 ms run", took)
	}
}

// serve.drain_timeout bounds the drain: a run still going when it passes
// is cancelled, its client gets the cancelled error, and the process
// exits 0.
func TestServeHTTPDrainTimeoutFromConfig(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and spawns the binary")
	}
	cmd, url := startServeHTTP(t, "serve:\n  drain_timeout: 300ms\n")
	answer := runInFlight(t, url, "demo.sleep(ms=30000)")
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case res := <-answer:
		if !res.IsError || !strings.Contains(resultText(res), "cancelled") {
			t.Errorf("the run cut by drain_timeout answered %q (isError %v), want the cancelled error", resultText(res), res.IsError)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the run cut by drain_timeout never answered")
	}
	if code := exited(t, cmd, 5*time.Second); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	if took := time.Since(sent); took < 300*time.Millisecond || took > 3*time.Second {
		t.Errorf("exit %v after SIGTERM with drain_timeout 300ms", took)
	}
}

// Over stdio, the end of stdin or SIGTERM while a run is in flight: the
// answer is still written, then the process exits 0; a run longer than
// serve.drain_timeout is cancelled and answers so.
func TestServeStdioDrains(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and spawns the binary")
	}
	for _, tt := range []struct{ stop, run, answer string }{
		{"end of stdin", "demo.sleep(ms=300)", `"result":{"content":[{"type":"text","text":"300"}]`},
		{"SIGTERM", "demo.sleep(ms=300)", `"result":{"content":[{"type":"text","text":"300"}]`},
		{"end of stdin", "demo.sleep(ms=30000)", `"text":"Error: cancelled at line 2"}],"isError":true`},
		{"SIGTERM", "demo.sleep(ms=30000)", `"text":"Error: cancelled at line 2"}],"isError":true`},
	} {
		t.Run(tt.stop+" "+tt.run, func(t *testing.T) {
			cfg := t.TempDir() + "/onetool.yaml"
			if err := writeFile(cfg, "serve:\n  drain_timeout: 1s\n"); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(onetoolBinary(t), "serve", "--log-level", "error", "--config", cfg)
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			cmd.Stderr = os.Stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			lines := bufio.NewReader(stdout)
			// The run is in flight once the progress notification of its
			// first tool call arrives.
			io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`+"\n"+
				`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+
				`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"progressToken":"p"},"name":"run","arguments":{"command":"demo.foo(text='test')\n`+tt.run+`"}}}`+"\n")
			for {
				line, err := lines.ReadString('\n')
				if err != nil {
					t.Fatalf("no progress notification before %v", err)
				}
				if strings.Contains(line, "notifications/progress") {
					break
				}
				if strings.Contains(line, `"id":2,`) {
					t.Fatalf("the run ended before the test could stop the server: %s", line)
				}
			}
			start := time.Now()
			if tt.stop == "SIGTERM" {
				cmd.Process.Signal(syscall.SIGTERM)
			} else {
				stdin.Close()
			}
			out, _ := io.ReadAll(lines)
			if !strings.Contains(string(out), `{"jsonrpc":"2.0","id":2,`) || !strings.Contains(string(out), tt.answer) {
				t.Errorf("after %s the run in flight did not answer %s; stdout:\n%s", tt.stop, tt.answer, out)
			}
			if code := exited(t, cmd, 5*time.Second); code != 0 {
				t.Errorf("exit code %d, want 0", code)
			}
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("exit %v after %s with drain_timeout 1s", took, tt.stop)
			}
		})
	}
}

// Ctrl-C on serve --http when nothing is in flight exits at once, though
// someone has looked at /healthz (a person is no load balancer to wait
// for); during a run, the log says the drain waits for it and how to stop
// sooner, and a second Ctrl-C ends the drain at once: the run is
// cancelled and the process exits 0.
func TestServeHTTPInterruptAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and spawns the binary")
	}
	cmd, url := startServeHTTP(t, "serve:\n  drain_timeout: 30s\n")
	res, err := http.Get(strings.TrimSuffix(url, "/mcp") + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	sent := time.Now()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code := exited(t, cmd, 10*time.Second); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	if took := time.Since(sent); took > 3*time.Second {
		t.Errorf("exit %v after Ctrl-C with nothing in flight", took)
	}

	// The log at its default level says what the drain waits for.
	dir := t.TempDir()
	if err := writeFile(dir+"/onetool.yaml", "serve:\n  drain_timeout: 30s\n"); err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	cmd, url = serveProcess(t, &log, "--http", "127.0.0.1:0", "--config", dir+"/onetool.yaml")
	answer := runInFlight(t, url, "demo.sleep(ms=60000)")
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	const waiting = `msg="onetool draining: no new runs; waiting for 1 run in flight (up to 30s); Ctrl-C again to stop now"`
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(log.String(), waiting); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s in the log after Ctrl-C:\n%s", waiting, log.String())
		}
	}
	sent = time.Now()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code := exited(t, cmd, 10*time.Second); code != 0 {
		t.Errorf("exit code %d after a second Ctrl-C, want 0", code)
	}
	if took := time.Since(sent); took > 3*time.Second {
		t.Errorf("exit %v after a second Ctrl-C", took)
	}
	select {
	case res := <-answer:
		if !res.IsError {
			t.Errorf("the run in flight answered %q, want an error", resultText(res))
		}
	case <-time.After(5 * time.Second):
		t.Error("the run in flight never answered")
	}
}
