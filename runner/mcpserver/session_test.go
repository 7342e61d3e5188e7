package mcpserver

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner"
)

// With session state, globals persist across the run calls of one
// session, are not seen by another session running at the same time, and
// are freed when their session ends. Without it, every call starts fresh.
func TestSessionState(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	server, h := newServer(r, Options{SessionState: true})
	ctx := t.Context()
	open := func() *mcp.ClientSession {
		st, ct := mcp.NewInMemoryTransports()
		if _, err := server.Connect(ctx, st, nil); err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	a, b := open(), open()
	var wg sync.WaitGroup
	for i, cs := range []*mcp.ClientSession{a, b} {
		wg.Go(func() {
			callRun(t, cs, fmt.Sprintf("count = %d\ndef bump():\n    return count + 1", i*100))
			for range 20 {
				callRun(t, cs, "count = bump()")
			}
		})
	}
	wg.Wait()
	if got := text(t, callRun(t, a, "count")); got != "20" {
		t.Errorf("session a: count = %s, want 20", got)
	}
	if got := text(t, callRun(t, b, "count")); got != "120" {
		t.Errorf("session b: count = %s, want 120", got)
	}
	if n := h.liveSessions(); n != 2 {
		t.Errorf("%d sessions hold state, want 2", n)
	}
	a.Close()
	deadline := time.Now().Add(5 * time.Second)
	for h.liveSessions() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("the state of a closed session was not freed: %d live", h.liveSessions())
		}
		time.Sleep(5 * time.Millisecond)
	}
	b.Close()

	// Off by default: each call starts fresh.
	cs, _ := connect(t, protocolVersions[0], Options{})
	callRun(t, cs, "count = 1")
	if got := text(t, callRun(t, cs, "count")); got != "Error: line 1: 'count' is not defined. Available packs: db, demo, file, ot, web" {
		t.Errorf("without session state: %s", got)
	}
}
