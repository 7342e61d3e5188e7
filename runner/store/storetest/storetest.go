// Package storetest starts a real redis-server for tests of code that
// uses a Redis store.
package storetest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Server is a real redis-server started for a test on a free
// loopback port, in a temp dir, with no persistence.
type Server struct {
	cmd  *exec.Cmd
	Addr string
}

// StartRedis starts redis-server from PATH, or skips the test with how to
// get it.
func StartRedis(t testing.TB) *Server {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server is not on PATH: install it (apt-get install -y redis-server) to test the Redis store")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return RunRedis(t, addr)
}

// RunRedis starts redis-server on addr.
func RunRedis(t testing.TB, addr string) *Server {
	t.Helper()
	host, port, _ := net.SplitHostPort(addr)
	dir := t.TempDir()
	cmd := exec.Command("redis-server", "--port", port, "--bind", host, "--dir", dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", filepath.Join(dir, "redis.log"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &Server{cmd: cmd, Addr: addr}
	t.Cleanup(s.Stop)
	for deadline := time.Now().Add(5 * time.Second); ; {
		c, err := net.Dial("tcp", s.Addr)
		if err == nil {
			c.Close()
			return s
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "redis.log"))
			t.Fatalf("redis-server did not listen on %s: %v\n%s", s.Addr, err, log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop ends the server (a Redis that goes away mid-use); the test's
// cleanup does it too.
func (s *Server) Stop() {
	if s.cmd.ProcessState == nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
	}
}

// URL is the store setting that names the server's database db.
func (s *Server) URL(db int) string { return fmt.Sprintf("redis://%s/%d", s.Addr, db) }

// Clock is a time tests set by hand, for the Now options of stores and
// of what keeps state in them (TTLs, windows, refreshes).
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a Clock at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.t = t }

// Add moves the clock on by d.
func (c *Clock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }
