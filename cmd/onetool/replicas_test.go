package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner/store/storetest"
)

// replica is one `onetool serve --http` process of a replicated setup.
type replica struct {
	cmd  *exec.Cmd
	addr string // host:port
}

func (r *replica) url() string { return "http://" + r.addr + "/mcp" }

// startReplica starts `onetool serve --http addr` with the configuration
// file cfg and extra arguments, and returns once it listens.
func startReplica(t *testing.T, cfg, addr string, args ...string) *replica {
	t.Helper()
	cmd, url := serveProcess(t, os.Stderr, append([]string{"--http", addr, "--log-level", "error", "--config", cfg}, args...)...)
	return &replica{cmd: cmd, addr: strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")}
}

// freeAddr is a loopback address nothing listens on (a moment ago).
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// haproxyConfig is the balancer of the test, and of docs/deploy.md: health
// checks on /healthz every 100 ms, and a request that could not reach a
// replica (connection refused) or that a draining replica refused (503)
// retried on the other one, which needs the whole request buffered.
// X-Served-By tells the test which replica answered.
const haproxyConfig = `global
  maxconn 256
defaults
  mode http
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  timeout check 2s
  retries 3
  retry-on conn-failure 503
  option redispatch 1
  option http-buffer-request
frontend mcp
  bind %s
  default_backend onetool
backend onetool
%s
  option httpchk
  http-check send meth GET uri /healthz ver HTTP/1.1 hdr Host localhost
  http-check expect status 200
  default-server check inter 100ms fall 1 rise 1
  http-response set-header X-Served-By %%[srv_name]
%s`

// haproxyPath is the haproxy program (Debian puts it in /usr/sbin, which
// a user's PATH may lack), or skips the test with how to get it.
func haproxyPath(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("haproxy"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/haproxy"); err == nil {
		return "/usr/sbin/haproxy"
	}
	t.Skip("haproxy is not installed: install it (apt-get install -y haproxy) to test replicas behind a load balancer")
	return ""
}

// Balancing for stateless replicas: any replica takes any request.
const roundRobin = "  balance roundrobin\n"

// Balancing for stateful sessions: the replica that answered initialize
// with an Mcp-Session-Id gets every later request that carries it. (A
// hash of the header would not do: the replica it picks need not be the
// one that opened the session.)
const stickToSession = `  balance roundrobin
  stick-table type string len 64 size 100k expire 30m
  stick store-response res.hdr(Mcp-Session-Id)
  stick match req.hdr(Mcp-Session-Id)
`

// startHAProxy runs haproxy in the foreground with the balancing lines
// and servers given (name → address), and returns its address once it
// answers.
func startHAProxy(t *testing.T, haproxy, balance string, servers [][2]string) string {
	t.Helper()
	addr := freeAddr(t)
	var lines strings.Builder
	for _, s := range servers {
		fmt.Fprintf(&lines, "  server %s %s\n", s[0], s[1])
	}
	cfg := filepath.Join(t.TempDir(), "haproxy.cfg")
	if err := writeFile(cfg, fmt.Sprintf(haproxyConfig, addr, balance, lines.String())); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(haproxy, "-db", "-f", cfg)
	// Its log (servers going down and up) is shown when the test fails.
	var log syncBuffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("haproxy's log:\n%s", log.String())
		}
	})
	// Up once every replica has passed its first health check.
	waitServedBy(t, addr, servers...)
	return addr
}

// waitServedBy waits until each of servers has answered a /healthz sent
// through the balancer at addr.
func waitServedBy(t *testing.T, addr string, servers ...[2]string) {
	t.Helper()
	seen := map[string]bool{}
	for deadline := time.Now().Add(5 * time.Second); len(seen) < len(servers); {
		if time.Now().After(deadline) {
			t.Fatalf("haproxy on %s: only %v answered in 5s, want all of %v", addr, seen, servers)
		}
		res, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			if res.StatusCode == http.StatusOK {
				seen[res.Header.Get("X-Served-By")] = true
			}
			res.Body.Close()
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// connect opens an MCP session with the server at url.
func connect(t *testing.T, url string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "replicas", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// runOn runs command on the server at url and returns its text; a failed
// run fails the test.
func runOn(t *testing.T, url, command string) string {
	t.Helper()
	res, err := connect(t, url).CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": command}})
	if err != nil {
		t.Fatalf("run %q on %s: %v", command, url, err)
	}
	if res.IsError {
		t.Fatalf("run %q on %s: %s", command, url, resultText(res))
	}
	return resultText(res)
}

// Two replicas share one Redis behind HAProxy, as docs/deploy.md sets them
// up: what one stored the other reads, and stopping one during a load run
// fails no run that the balancer could have retried.
func TestReplicasBehindHAProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and spawns the binary, redis-server and haproxy")
	}
	haproxy := haproxyPath(t)
	redis := storetest.StartRedis(t)
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	for name, content := range map[string]string{
		"onetool.yaml": "store: " + redis.URL(0) + "\noutput: {max_inline: 200}\ntoolpacks: [packs]\nserve: {drain_timeout: 5s}\n",
		// A deterministic tool that leaves a line in calls each time it
		// really runs, so a cache hit shows as a line that is not there.
		"packs/echo.yaml": "id: team.echo\ndescription: Return the arguments, noting the call.\ndeterministic: true\n" +
			"input_schema: {type: object, properties: {n: {type: integer}}, required: [n]}\n" +
			"execution: {kind: command, command: [./echo.sh]}\n",
		"packs/echo.sh": "#!/bin/sh\necho ran >> " + calls + "\ncat\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(dir, "onetool.yaml")
	a := startReplica(t, cfg, "127.0.0.1:0", "--stateless")
	b := startReplica(t, cfg, "127.0.0.1:0", "--stateless")
	servers := [][2]string{{"a", a.addr}, {"b", b.addr}}
	lb := startHAProxy(t, haproxy, roundRobin, servers)
	lbURL := "http://" + lb + "/mcp"

	t.Run("a large result stored through one replica pages through the other", func(t *testing.T) {
		preview := runOn(t, a.url(), `"\n".join([str(i) for i in range(1, 1001)])`)
		m := regexp.MustCompile(`stored as "([^"]+)"`).FindStringSubmatch(preview)
		if m == nil {
			t.Fatalf("replica a did not store the large result:\n%s", preview)
		}
		page := runOn(t, b.url(), fmt.Sprintf(`ot.result(handle=%q, offset=500, limit=2)`, m[1]))
		if want := "500\n501\n"; !strings.HasPrefix(page, want) {
			t.Errorf("replica b's page of a's result:\n%s\nwant it to start with %q", page, want)
		}
	})

	t.Run("a cache hit crosses replicas", func(t *testing.T) {
		first := runOn(t, a.url(), `team.echo(n=7)`)
		second := runOn(t, b.url(), `team.echo(n=7)`)
		ran, _ := os.ReadFile(calls)
		if first != `{"n":7}` || second != first || strings.Count(string(ran), "ran") != 1 {
			t.Errorf("team.echo(n=7) on a then on b: %q, %q; the tool ran %d times, want once (b's call a cache hit)",
				first, second, strings.Count(string(ran), "ran"))
		}
	})

	// A load run through the balancer while replica b is stopped. Each
	// run sleeps, so several are in flight on b when it stops.
	// stop stops b and returns the moment from which no request can reach
	// it any more.
	load := func(t *testing.T, stop func() time.Time) (stopped time.Time, runs []loadRun) {
		t.Helper()
		var mu sync.Mutex
		done := make(chan struct{})
		var wg sync.WaitGroup
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var cs *mcp.ClientSession
				for {
					select {
					case <-done:
						return
					default:
					}
					r := loadRun{sent: time.Now()}
					if cs == nil {
						// A stateless server needs no affinity: any replica
						// takes the initialize, any other the calls.
						c, err := mcp.NewClient(&mcp.Implementation{Name: "load", Version: "1"}, nil).
							Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: lbURL}, nil)
						if err != nil {
							r.err = "connect: " + err.Error()
						}
						cs = c
					}
					if cs != nil {
						res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": "demo.sleep(ms=40)"}})
						switch {
						case err != nil:
							r.err = err.Error()
							cs.Close()
							cs = nil // a client opens a new session after a broken one
						case res.IsError || resultText(res) != "40":
							r.err = "run: " + resultText(res)
						}
					}
					r.ended = time.Now()
					mu.Lock()
					runs = append(runs, r)
					mu.Unlock()
				}
			}()
		}
		time.Sleep(300 * time.Millisecond)
		stopped = stop()
		time.Sleep(500 * time.Millisecond)
		close(done)
		wg.Wait()
		var before, after int
		for _, r := range runs {
			if r.err == "" && r.sent.Before(stopped) {
				before++
			} else if r.err == "" {
				after++
			}
		}
		if before < 8 || after < 8 {
			t.Fatalf("only %d runs succeeded before b stopped and %d after; the load run is too small to show anything", before, after)
		}
		return stopped, runs
	}

	t.Run("SIGTERM during a load run fails no run", func(t *testing.T) {
		var exitedAt time.Time
		termAt, runs := load(t, func() time.Time {
			sent := time.Now()
			if err := b.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			if code := exited(t, b.cmd, 5*time.Second); code != 0 {
				t.Errorf("replica b exited %d after draining, want 0", code)
			}
			exitedAt = time.Now()
			return sent
		})
		t.Logf("b exited %v after SIGTERM", exitedAt.Sub(termAt))
		for _, r := range runs {
			if r.err != "" {
				t.Errorf("a run sent %v after SIGTERM, ended %v after, failed: %s", r.sent.Sub(termAt), r.ended.Sub(termAt), r.err)
			}
		}
	})

	// b comes back on its address, as a restarted replica does, and the
	// balancer's health check takes it into rotation again.
	b = startReplica(t, cfg, b.addr, "--stateless")
	waitServedBy(t, lb, servers...)

	t.Run("SIGKILL during a load run fails only the runs in flight on it", func(t *testing.T) {
		var signalled time.Time
		killed, runs := load(t, func() time.Time {
			signalled = time.Now()
			if err := b.cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			// Its sockets are closed once it has exited, not when the
			// signal is sent.
			b.cmd.Wait()
			return time.Now()
		})
		failed := 0
		for _, r := range runs {
			if r.err == "" {
				continue
			}
			failed++
			// Only a run that b had already taken may fail: its request
			// reached b, which may have started it, so the balancer must
			// not send it again. Every later request was refused by b's
			// closed port and retried on a.
			if !r.sent.Before(killed) || r.ended.Before(signalled) {
				t.Errorf("a run sent %v after b was gone, ended %v after SIGKILL, failed: %s; only runs in flight on b at the kill may fail",
					r.sent.Sub(killed), r.ended.Sub(signalled), r.err)
			}
		}
		// 8 clients, one run each at a time: at most 8 runs were in flight
		// when the signal was sent. A client whose run failed may send
		// its next one while b is dying (between the signal and the
		// kernel closing b's sockets), and that one may fail too, so
		// only the runs sent before the signal are bounded by 8.
		inFlight := 0
		for _, r := range runs {
			if r.err != "" && r.sent.Before(signalled) {
				inFlight++
			}
		}
		if inFlight > 8 {
			t.Errorf("%d runs sent before SIGKILL failed, more than the 8 clients could have had in flight", inFlight)
		}
		t.Logf("%d runs, %d failed (%d in flight on b when it was killed, %d sent while it died)", len(runs), failed, inFlight, failed-inFlight)
	})
}

// Stateful sessions through HAProxy: with the session's id in a stick
// table, every request of a session reaches the replica that opened it,
// so each of several sessions, spread over two replicas, makes several
// calls without a "session not found".
func TestStatefulSessionsBehindHAProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and spawns the binary and haproxy")
	}
	haproxy := haproxyPath(t)
	cfg := filepath.Join(t.TempDir(), "onetool.yaml")
	if err := writeFile(cfg, "{}\n"); err != nil {
		t.Fatal(err)
	}
	a := startReplica(t, cfg, "127.0.0.1:0")
	b := startReplica(t, cfg, "127.0.0.1:0")
	lb := startHAProxy(t, haproxy, stickToSession, [][2]string{{"a", a.addr}, {"b", b.addr}})
	for i := range 4 {
		cs := connect(t, "http://"+lb+"/mcp")
		for j := range 3 {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": fmt.Sprintf("%d * 10 + %d", i, j)}})
			if err != nil || res.IsError || resultText(res) != fmt.Sprint(i*10+j) {
				t.Fatalf("session %d, call %d: %v %+v", i, j, err, res)
			}
		}
	}
}

// The HAProxy configuration of docs/deploy.md is valid, has the settings
// the tests above prove, and stays so with its stick table for stateful
// sessions.
func TestDeployHAProxyConfig(t *testing.T) {
	haproxy := haproxyPath(t)
	doc, err := os.ReadFile("../../docs/deploy.md")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, part := range strings.Split(string(doc), "```haproxy\n")[1:] {
		block, _, _ := strings.Cut(part, "```")
		blocks = append(blocks, block)
	}
	if len(blocks) != 2 {
		t.Fatalf("docs/deploy.md has %d haproxy blocks, want the configuration and its stick table", len(blocks))
	}
	// The lines of a block without comments and with single spaces.
	lines := func(block string) []string {
		var out []string
		for _, l := range strings.Split(block, "\n") {
			l, _, _ = strings.Cut(l, "#")
			out = append(out, strings.Join(strings.Fields(l), " "))
		}
		return out
	}
	doc0 := lines(blocks[0])
	for _, l := range lines(fmt.Sprintf(haproxyConfig, "127.0.0.1:0", roundRobin, "")) {
		if strings.HasPrefix(l, "retr") || strings.HasPrefix(l, "timeout check") || strings.HasPrefix(l, "option") || strings.HasPrefix(l, "http-check") || strings.HasPrefix(l, "balance") {
			if !slices.Contains(doc0, l) {
				t.Errorf("docs/deploy.md's HAProxy configuration lacks %q, which the test's has", l)
			}
		}
	}
	var stick []string
	for _, l := range lines(blocks[1]) {
		if strings.HasPrefix(l, "stick") {
			stick = append(stick, "  "+l)
		}
	}
	for _, l := range lines(stickToSession) {
		if strings.HasPrefix(l, "stick ") && !slices.Contains(stick, "  "+l) {
			t.Errorf("docs/deploy.md's stick table lacks %q, which the test's has", l)
		}
	}
	for name, cfg := range map[string]string{
		"stateless": blocks[0],
		"stateful":  strings.Replace(blocks[0], "  balance roundrobin\n", "  balance roundrobin\n"+strings.Join(stick, "\n")+"\n", 1),
	} {
		path := filepath.Join(t.TempDir(), "haproxy.cfg")
		if err := writeFile(path, cfg); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(haproxy, "-c", "-f", path).CombinedOutput(); err != nil {
			t.Errorf("haproxy -c on docs/deploy.md's %s configuration: %v\n%s\n%s", name, err, out, cfg)
		}
	}
}

// loadRun is one tools/call of the load run: when it was sent and ended,
// and its error ("" when it succeeded).
type loadRun struct {
	sent, ended time.Time
	err         string
}

// syncBuffer is a bytes.Buffer that a process and the test may use at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
