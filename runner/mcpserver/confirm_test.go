package mcpserver

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/ratelimit"
)

// confirmSetup serves a registry with one destructive tool (which counts
// its calls) and one harmless one, with security.confirm_destructive on,
// to a client whose elicitation handler answers with action ("" = the
// client does not support elicitation).
func confirmSetup(t *testing.T, version, action string) (*mcp.ClientSession, *atomic.Int32, *atomic.Value) {
	t.Helper()
	var deletes atomic.Int32
	reg := packs.NewRegistry()
	err := reg.Register(
		&packs.Tool{
			Pack: "disk", Name: "wipe", Description: "Delete a file.",
			InputSchema: `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`,
			Annotations: packs.Annotations{Destructive: true},
			Handler: func(context.Context, map[string]any) (any, error) {
				deletes.Add(1)
				return "wiped", nil
			},
		},
		&packs.Tool{
			Pack: "disk", Name: "stat", Description: "Look at a file.",
			InputSchema: `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`,
			Annotations: packs.Annotations{ReadOnly: true},
			Handler:     func(context.Context, map[string]any) (any, error) { return "fine", nil },
		},
	)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Security.ConfirmDestructive = true
	r, err := runner.New(runner.WithRegistry(reg), runner.WithConfig(cfg))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(r, Options{}).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	var asked atomic.Value
	opts := &mcp.ClientOptions{}
	if action != "" {
		opts.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Store(req.Params.Message)
			return &mcp.ElicitResult{Action: action}, nil
		}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, &deletes, &asked
}

func TestConfirmDestructive(t *testing.T) {
	for _, tt := range []struct {
		action, want string
		isError      bool
		calls        int32
	}{
		{"accept", "wiped", false, 1},
		{"decline", "Error: line 1: disk.wipe failed: not confirmed: the user declined disk.wipe; do not retry it unless the user asks", true, 0},
		{"cancel", "Error: line 1: disk.wipe failed: not confirmed: the user dismissed the confirmation of disk.wipe", true, 0},
		{"", "Error: line 1: disk.wipe failed: not confirmed: the tool is marked destructive and security.confirm_destructive is on, but there is no way to ask the user here: this MCP client does not support elicitation", true, 0},
	} {
		for _, v := range protocolVersions {
			t.Run(v+"/action="+tt.action, func(t *testing.T) {
				cs, deletes, asked := confirmSetup(t, v, tt.action)
				res := callRun(t, cs, `disk.wipe(path="notes.txt")`)
				if got := text(t, res); !strings.HasPrefix(got, tt.want) || res.IsError != tt.isError {
					t.Errorf("run = %q (isError %v), want prefix %q", got, res.IsError, tt.want)
				}
				if n := deletes.Load(); n != tt.calls {
					t.Errorf("the tool ran %d times, want %d", n, tt.calls)
				}
				msg, _ := asked.Load().(string)
				if tt.action != "" && !strings.Contains(msg, `disk.wipe(path="notes.txt")`) {
					t.Errorf("the user was asked %q: it must name the call", msg)
				}
				// Tools not marked destructive never ask.
				asked.Store("")
				if got := text(t, callRun(t, cs, `disk.stat(path="notes.txt")`)); got != "fine" {
					t.Errorf("read-only tool: %q", got)
				}
				if msg, _ := asked.Load().(string); msg != "" {
					t.Errorf("a read-only call asked the user: %q", msg)
				}
			})
		}
	}
}

// A program that makes several destructive calls asks once per call, in
// order, and goes on between the answers: on 2026-07-28 that is one round
// trip per question with the run parked in between.
func TestConfirmSeveralCalls(t *testing.T) {
	for _, v := range protocolVersions {
		t.Run(v, func(t *testing.T) {
			cs, deletes, _ := confirmSetup(t, v, "accept")
			res := callRun(t, cs, "out = []\nfor p in ['a', 'b', 'c']:\n    out.append(disk.wipe(path=p) + ' ' + p)\nout")
			if got := text(t, res); got != `["wiped a","wiped b","wiped c"]` {
				t.Errorf("run = %q", got)
			}
			if n := deletes.Load(); n != 3 {
				t.Errorf("the tool ran %d times, want 3", n)
			}
		})
	}
}

// An answer with a request state the server does not know is refused,
// and no tool runs.
func TestConfirmUnknownState(t *testing.T) {
	cs, deletes, _ := confirmSetup(t, "2026-07-28", "accept")
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{
		Name: "run", Arguments: map[string]any{"command": `disk.wipe(path="x")`},
		RequestState: "forged", InputResponses: mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := text(t, res); !res.IsError || got != "Error: this confirmation is unknown or has expired: send the program again" {
		t.Errorf("run = %q", got)
	}
	if deletes.Load() != 0 {
		t.Error("the tool ran")
	}
}

// A client that never answers a confirmation sent as inputRequests: after
// ConfirmTimeout the parked run is refused and ends, and the late answer
// is told the confirmation expired. The tool never runs.
func TestConfirmTimeout(t *testing.T) {
	var deletes atomic.Int32
	reg := packs.NewRegistry()
	if err := reg.Register(&packs.Tool{
		Pack: "disk", Name: "wipe", Description: "Delete everything.",
		Annotations: packs.Annotations{Destructive: true},
		Handler:     func(context.Context, map[string]any) (any, error) { deletes.Add(1); return "wiped", nil },
	}); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Security.ConfirmDestructive = true
	r, err := runner.New(runner.WithRegistry(reg), runner.WithConfig(cfg))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := New(r, Options{ConfirmTimeout: 50 * time.Millisecond}).Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		// Handle the round trip by hand, to be able to not answer.
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		// No roots: onetool would ask for them first (roots.go).
		Capabilities: &mcp.ClientCapabilities{},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
	})
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": "disk.wipe()"}}
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.InputRequests) != 1 || res.RequestState == "" {
		t.Fatalf("want one input request and a state, got %+v", res)
	}
	time.Sleep(200 * time.Millisecond)
	params.RequestState = res.RequestState
	params.InputResponses = mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept"}}
	late, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got := text(t, late); got != "Error: this confirmation is unknown or has expired: send the program again" {
		t.Errorf("late answer: %q", got)
	}
	if deletes.Load() != 0 {
		t.Error("the tool ran")
	}
}

// A run parked for the user's confirmation (protocol 2026-07-28) keeps its
// place in serve.rate_limit.concurrent until it ends, though the request
// that started it has returned: parked runs, each holding what it
// allocated, cannot pile up past the bound. Its resumption takes no
// second place.
func TestParkedRunKeepsItsSlot(t *testing.T) {
	reg := packs.NewRegistry()
	if err := reg.Register(&packs.Tool{
		Pack: "disk", Name: "wipe", Description: "Delete a file.",
		InputSchema: `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`,
		Annotations: packs.Annotations{Destructive: true},
		Handler:     func(context.Context, map[string]any) (any, error) { return "wiped", nil },
	}); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Security.ConfirmDestructive = true
	r, err := runner.New(runner.WithRegistry(reg), runner.WithConfig(cfg))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	lim := ratelimit.New(ratelimit.Options{Concurrent: 1})
	ctx := t.Context()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(r, Options{RateLimit: lim}).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	asked, answer := make(chan struct{}), make(chan struct{})
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			close(asked)
			<-answer
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
	}).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	first := make(chan string, 1)
	go func() { first <- text(t, callRun(t, cs, `disk.wipe(path="a")`)) }()
	<-asked // the run is parked, its request answered with the question
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": "1"}})
	if err == nil || !strings.Contains(err.Error(), "rate limit: this server's clients have 1 run in flight already") {
		t.Errorf("a second run while the first is parked: %v", err)
	}
	close(answer)
	if got := <-first; got != "wiped" {
		t.Errorf("the parked run, confirmed: %s", got)
	}
	if got := text(t, callRun(t, cs, "2")); got != "2" {
		t.Errorf("a run once the parked one ended: %s", got)
	}
}

// TestConfirmParamsAction: a call that asks about an action it found while
// running (db.query before SQL that writes) shows that action, not the
// wording for a tool marked destructive.
func TestConfirmParamsAction(t *testing.T) {
	tool := &packs.Tool{Pack: "db", Name: "query"}
	p := confirmParams(runner.ConfirmRequest{Tool: tool, Args: map[string]any{"sql": "DROP TABLE t"},
		Action: "run the SQL statement `DROP TABLE t` on database 'main', which SQLite says writes to it"})
	want := "In db.query(sql=\"DROP TABLE t\"), onetool wants to run the SQL statement `DROP TABLE t` on database 'main', which SQLite says writes to it. Allow it?"
	if p.Message != want {
		t.Errorf("message %q\nwant %q", p.Message, want)
	}
	p = confirmParams(runner.ConfirmRequest{Tool: tool, Args: map[string]any{}})
	if !strings.Contains(p.Message, "which is marked destructive") {
		t.Errorf("without an action: %q", p.Message)
	}
}
