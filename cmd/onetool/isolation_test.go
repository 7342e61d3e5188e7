package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner/config"
)

// twoTokens is serve.auth with two principals; yaml is added after it.
const twoTokens = `serve:
  auth:
    tokens:
      - {name: alice, token: tok-alice-0123456789, policy: dev}
      - {name: bob, token: tok-bob-0123456789, policy: dev}
policies:
  dev: {allow: ["*"]}
`

// The isolation a server chooses from its configuration (SPEC §8.5): the
// default is process isolation only for HTTP with more than one principal
// and no session state; isolation: none and isolation: process win.
func TestChooseIsolationFromConfig(t *testing.T) {
	oauth := `serve:
  auth:
    oauth: {issuer: "https://issuer.example", audience: "https://onetool.example/mcp", default_policy: dev}
policies:
  dev: {allow: ["*"]}
`
	sessionState := strings.Replace(twoTokens, "policies:", "  session_state: true\npolicies:", 1)
	oneToken := `serve:
  auth:
    tokens:
      - {name: alice, token: tok-alice-0123456789, policy: dev}
policies:
  dev: {allow: ["*"]}
`
	for _, tc := range []struct {
		name            string
		yaml            string
		http, stateless bool
		process, warned bool
	}{
		{"no configuration, stdio", "", false, false, false, false},
		{"no configuration, HTTP", "", true, false, false, false},
		{"two tokens, stdio", twoTokens, false, false, false, false},
		{"two tokens, HTTP", twoTokens, true, false, true, false},
		{"two tokens, stateless HTTP", twoTokens, true, true, true, false},
		{"one token, HTTP", oneToken, true, false, false, false},
		{"OAuth, HTTP", oauth, true, false, true, false},
		{"two tokens, HTTP, session state", sessionState, true, false, false, true},
		{"two tokens, stateless HTTP, session state (no sessions)", sessionState, true, true, true, false},
		{"two tokens, HTTP, isolation: none", twoTokens + "isolation: none\n", true, false, false, false},
		{"two tokens, HTTP, session state, isolation: none", sessionState + "isolation: none\n", true, false, false, false},
		{"stdio, isolation: process", "isolation: process\n", false, false, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "onetool.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, err := config.Load(path, config.LoadOptions{WorkDir: dir, HomeDir: dir, LookupEnv: func(string) (string, bool) { return "", false }})
			if err != nil {
				t.Fatalf("%v\n%s", err, tc.yaml)
			}
			c := chooseIsolation(cfg, tc.http, tc.stateless)
			if c.Process != tc.process || c.Warn != tc.warned {
				t.Errorf("got %+v, want process %v, warning %v", c, tc.process, tc.warned)
			}
		})
	}
}

// isoBearer adds a isoBearer token to every request.
type isoBearer struct{ token string }

func (b isoBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// isoConnect opens an MCP session to url with token.
func isoConnect(t *testing.T, url, token string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "isolation", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: isoBearer{token}}}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// isoRun runs command in cs and returns the result's text and whether it
// is an error.
func isoRun(t *testing.T, cs *mcp.ClientSession, command string) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": command}})
	if err != nil {
		return "protocol error: " + err.Error(), true
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return text.String(), res.IsError
}

// workerPIDs are the worker processes of the server pid: its children
// started with ONETOOL_WORKER=1.
func workerPIDs(t *testing.T, pid int) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", child))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces and parentheses.
		rest := stat[bytes.LastIndexByte(stat, ')')+1:]
		f := strings.Fields(string(rest))
		if len(f) < 2 || f[1] != strconv.Itoa(pid) {
			continue
		}
		env, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", child))
		if slices.Contains(strings.Split(string(env), "\x00"), "ONETOOL_WORKER=1") {
			out = append(out, child)
		}
	}
	slices.Sort(out)
	return out
}

// waitWorkers waits until the server has n workers, or fails.
func waitWorkers(t *testing.T, pid, n int) []int {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		w := workerPIDs(t, pid)
		if len(w) == n || time.Now().After(deadline) {
			if len(w) != n {
				t.Fatalf("the server has %d workers %v, want %d", len(w), w, n)
			}
			return w
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A server of HTTP with two tokens runs programs in worker processes by
// default, each under its hard memory limit: a worker that dies under a
// run (killed here from outside, as a crashing builtin would end it) costs
// that run only; the server answers why, replaces the worker, and both
// principals' next runs work. A runaway allocation (the issue's
// itertools.product) ends as an error while the server lives on.
func TestServeHTTPManyPrincipalsIsolatedByDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and spawns the binary")
	}
	if runtime.GOOS != "linux" {
		t.Skip("finds workers through /proc")
	}
	dir := t.TempDir()
	yaml := twoTokens + "limits: {max_memory: 64MiB, timeout: 5s}\n"
	if err := os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	cmd, url := isoServe(t, &log, "--http", "127.0.0.1:0", "--config", filepath.Join(dir, "onetool.yaml"))
	server := cmd.Process.Pid
	alice := isoConnect(t, url, "tok-alice-0123456789")
	bob := isoConnect(t, url, "tok-bob-0123456789")
	if text, isErr := isoRun(t, alice, `demo.foo(text="test")`); isErr || text != "orange" {
		t.Fatalf("alice's first run: %q", text)
	}
	workers := workerPIDs(t, server)
	var err error
	if len(workers) < 2 {
		t.Fatalf("workers of the server: %v", workers)
	}
	// Each worker is under the hard limit of limits.max_memory: 4×64 MiB
	// + 512 MiB.
	// (A worker sets it first thing, a moment after it starts.)
	for _, w := range workers {
		var limits []byte
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if limits, err = os.ReadFile(fmt.Sprintf("/proc/%d/limits", w)); err != nil || bytes.Contains(limits, []byte(strconv.Itoa(768<<20))) {
				break
			}
		}
		if !bytes.Contains(limits, []byte(strconv.Itoa(768<<20))) {
			t.Errorf("worker %d's limits lack RLIMIT_DATA of 768 MiB:\n%s", w, limits)
		}
	}

	// A worker dies under bob's run: only that run fails.
	answer := make(chan string, 1)
	go func() {
		text, _ := isoRun(t, bob, "x = 0\nwhile True:\n    x += 1")
		answer <- text
	}()
	time.Sleep(500 * time.Millisecond)
	for _, w := range workerPIDs(t, server) {
		syscall.Kill(w, syscall.SIGKILL)
	}
	select {
	case text := <-answer:
		if !strings.Contains(text, "the worker process running this program was killed (signal: killed); it has been replaced") {
			t.Errorf("bob's run whose worker died: %q", text)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("bob's run did not end when its worker died")
	}
	// The pool finds an idle worker dead when it hands it a run, by the
	// end of its output; a run handed over within moments of a kill from
	// outside can still meet the dead worker (a documented limit), so the
	// next runs come a moment later, as a person's would.
	time.Sleep(300 * time.Millisecond)
	for who, cs := range map[string]*mcp.ClientSession{"alice": alice, "bob": bob} {
		if text, isErr := isoRun(t, cs, `demo.add(a=1, b=2)`); isErr || text != "3" {
			t.Errorf("%s's run after the worker died: %q", who, text)
		}
	}

	// A runaway allocation in a builtin ends as an error; the server
	// lives on and serves the next run.
	start := time.Now()
	text, isErr := isoRun(t, alice, "import itertools\nnext(itertools.product('ab', repeat=10**9))")
	if !isErr || time.Since(start) > 15*time.Second {
		t.Errorf("runaway allocation: %q after %s", text, time.Since(start))
	}
	t.Logf("runaway allocation: %q after %s", text, time.Since(start))
	if err := cmd.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("the server died: %v\n%s", err, log.String())
	}
	if text, isErr := isoRun(t, bob, `demo.add(a=2, b=2)`); isErr || text != "4" {
		t.Errorf("the run after the runaway: %q", text)
	}
	if !strings.Contains(log.String(), "programs run in worker processes (isolation: process), the default when serve.auth admits more than one principal") {
		t.Errorf("the server's log does not say why programs run in workers:\n%s", log.String())
	}
	if !strings.Contains(log.String(), "a worker died during a run; replacing it") {
		t.Errorf("the server's log does not tell of the worker's death:\n%s", log.String())
	}
}

// The in-process default stays where one principal (or none) is served,
// and where serve.session_state keeps globals in the server: the latter
// says so in one line of the log. isolation: process, and isolation:
// none, say what they say.
func TestServeHTTPIsolationDefaultOff(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and spawns the binary")
	}
	if runtime.GOOS != "linux" {
		t.Skip("finds workers through /proc")
	}
	for _, tc := range []struct {
		name, yaml string
		workers    bool
		note       string
	}{
		{"no auth", "", false, ""},
		{"one token", "serve:\n  auth:\n    tokens:\n      - {name: alice, token: tok-alice-0123456789, policy: dev}\npolicies:\n  dev: {allow: [\"*\"]}\n", false, ""},
		{"two tokens, isolation: none", twoTokens + "isolation: none\n", false, ""},
		{"two tokens, session state", strings.Replace(twoTokens, "policies:", "  session_state: true\npolicies:", 1), false,
			"programs run in the server's process although serve.auth admits more than one principal, because serve.session_state keeps each session's globals there between runs"},
		{"no auth, isolation: process", "isolation: process\n", true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			var log syncBuffer
			cmd, url := isoServe(t, &log, "--http", "127.0.0.1:0", "--config", filepath.Join(dir, "onetool.yaml"))
			cs := isoConnect(t, url, "tok-alice-0123456789")
			if text, isErr := isoRun(t, cs, `demo.foo(text="test")`); isErr || text != "orange" {
				t.Fatalf("run: %q", text)
			}
			if got := len(workerPIDs(t, cmd.Process.Pid)) > 0; got != tc.workers {
				t.Errorf("workers: %v, want %v", got, tc.workers)
			}
			deadline := time.Now().Add(5 * time.Second)
			for tc.note != "" && !strings.Contains(log.String(), tc.note) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if tc.note != "" && strings.Count(log.String(), tc.note) != 1 {
				t.Errorf("the log does not say once why programs stay in the server:\n%s", log.String())
			}
		})
	}
}

// isoServe is serveProcess that keeps every line of the server's
// stderr in log, those before it listens too.
func isoServe(t *testing.T, log *syncBuffer, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(onetoolBinary(t), append([]string{"serve"}, args...)...)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		fmt.Fprintln(log, lines.Text())
		if url, ok := strings.CutPrefix(lines.Text(), "onetool: listening on "); ok {
			go io.Copy(log, stderr)
			return cmd, url
		}
	}
	t.Fatalf("onetool serve --http did not say where it listens:\n%s", log.String())
	return nil, ""
}
