package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// logLines records the messages of a slog.Logger.
type logLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logLines) messages() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	dec := json.NewDecoder(bytes.NewReader(l.buf.Bytes()))
	for {
		var rec struct{ Msg string }
		if dec.Decode(&rec) != nil {
			return out
		}
		out = append(out, rec.Msg)
	}
}

func logger(l *logLines) *slog.Logger {
	return slog.New(slog.NewJSONHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// The drain's log line says what it waits for and until when, and how to
// stop it sooner when the server said (SetStopHint); with nothing in
// flight it says so, and promises no wait.
func TestDrainLogSaysWhatItWaitsFor(t *testing.T) {
	var l logLines
	d := NewDrain()
	d.SetStopHint("Ctrl-C again to stop now")
	var dones []func()
	for range 2 {
		_, done, ok := d.run(context.Background(), false)
		if !ok {
			t.Fatal("run refused before draining")
		}
		dones = append(dones, done)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		for _, done := range dones {
			done()
		}
	}()
	if n := d.Finish(150*time.Millisecond, logger(&l)); n != 2 {
		t.Errorf("cancelled %d runs, want 2", n)
	}
	want := []string{
		"onetool draining: no new runs; waiting for 2 runs in flight (up to 150ms); Ctrl-C again to stop now",
		"onetool drain_timeout reached: cancelling 2 runs still in flight",
	}
	if got := l.messages(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	var idle logLines
	NewDrain().Finish(30*time.Second, logger(&idle))
	if got := idle.messages(); len(got) != 1 || got[0] != "onetool draining: no new runs; nothing in flight" {
		t.Errorf("log with nothing in flight: %q", got)
	}

	var one logLines
	d = NewDrain()
	_, done, _ := d.run(context.Background(), false)
	go func() { time.Sleep(50 * time.Millisecond); done() }()
	d.Finish(30*time.Second, logger(&one))
	if got := one.messages(); len(got) != 1 || got[0] != "onetool draining: no new runs; waiting for 1 run in flight (up to 30s)" {
		t.Errorf("log with one run: %q", got)
	}
}

// Lingering for a load balancer says so once, with its probe interval
// and the deadline; without one, Linger logs nothing.
func TestDrainLingerLogSaysWhatItWaitsFor(t *testing.T) {
	probe := func(d *Drain) {
		d.healthz(httptest.NewRecorder(), httptest.NewRequest("GET", "/healthz", nil))
	}
	var l logLines
	d := NewDrain()
	d.SetStopHint("Ctrl-C again to stop now")
	probe(d)
	time.Sleep(100 * time.Millisecond)
	probe(d)
	d.Start()
	d.Linger(200*time.Millisecond, logger(&l))
	got := l.messages()
	if len(got) != 1 || !strings.HasPrefix(got[0], "onetool draining: waiting for the load balancer that probes /healthz every 1") ||
		!strings.HasSuffix(got[0], `ms to see "draining" and stop sending requests (up to 200ms); Ctrl-C again to stop now`) {
		t.Errorf("linger log: %q", got)
	}
	var quiet logLines
	alone := NewDrain()
	alone.Start()
	alone.Linger(time.Second, logger(&quiet))
	if got := quiet.messages(); len(got) != 0 {
		t.Errorf("Linger without a balancer logged %q", got)
	}
}
