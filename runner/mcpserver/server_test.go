package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/builtin/ot"
	"github.com/onetool-dev/onetool/packs/catalog"
	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
)

// Both protocol revisions go-sdk speaks: the initialize handshake and the
// 2026-07-28 discover flow.
var protocolVersions = []string{"2025-11-25", "2026-07-28"}

type progressLog struct {
	mu     sync.Mutex
	events []*mcp.ProgressNotificationParams
}

func (p *progressLog) add(ev *mcp.ProgressNotificationParams) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.events = append(p.events, ev)
}

func (p *progressLog) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.events)
}

// connect starts a server on an in-memory transport and returns a client
// session speaking the given protocol version.
func connect(t *testing.T, version string, opts Options, ropts ...runner.Option) (*mcp.ClientSession, *progressLog) {
	t.Helper()
	r, err := runner.New(ropts...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	server := New(r, opts)
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	progress := &progressLog{}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			progress.add(req.Params)
		},
	})
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, progress
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("content has %d parts, want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, want text", res.Content[0])
	}
	return tc.Text
}

func callRun(t *testing.T, cs *mcp.ClientSession, command string) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": command}})
	if err != nil {
		t.Fatalf("CallTool(%q): %v", command, err)
	}
	return res
}

func TestListTools(t *testing.T) {
	for _, v := range protocolVersions {
		t.Run(v, func(t *testing.T) {
			cs, _ := connect(t, v, Options{})
			if got := cs.InitializeResult().ProtocolVersion; got != v {
				t.Errorf("negotiated %s, want %s", got, v)
			}
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Tools) != 1 || res.Tools[0].Name != "run" {
				t.Fatalf("tools = %v, want exactly run", res.Tools)
			}
			tool := res.Tools[0]
			a := tool.Annotations
			// The built-in file pack can delete: run says so.
			if a == nil || a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint || a.OpenWorldHint == nil || !*a.OpenWorldHint {
				t.Errorf("annotations = %+v, want not read-only, destructive, open world", a)
			}
			raw, _ := json.Marshal(tool.InputSchema)
			var schema struct {
				Properties map[string]struct{ Type string }
				Required   []string
			}
			json.Unmarshal(raw, &schema)
			if len(schema.Properties) != 1 || schema.Properties["command"].Type != "string" || len(schema.Required) != 1 || schema.Required[0] != "command" {
				t.Errorf("input schema = %s, want one required string parameter, command", raw)
			}
			if n := len(tool.Description); n > 400 {
				t.Errorf("description is %d characters, want ≤ 400", n)
			}
		})
	}
}

// What every conversation pays for onetool: the tools/list answer plus the
// instructions. With the built-in packs (37 tools, at most
// catalog.MaxTools) the instructions carry every tool's stub line, so that
// an agent needs no discovery call: that costs about 4,800 characters,
// where each ot.help of a pack it would otherwise read costs 300–1,200 and
// a round trip. With more tools they list packs (TestInstructionsListPacks,
// and the 2,000 characters of cmd/onetool's TestContextCostWithReferenceServers).
func TestContextCost(t *testing.T) {
	cs, _ := connect(t, "2025-11-25", Options{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	list, _ := json.Marshal(res)
	instructions := cs.InitializeResult().Instructions
	total := len(list) + len(instructions)
	t.Logf("tools/list %d + instructions %d = %d characters", len(list), len(instructions), total)
	if total > 5000 {
		t.Errorf("tools/list + instructions = %d characters, want ≤ 5000:\n%s", total, instructions)
	}
	for _, want := range []string{"ot.help", "- demo: ", "- ot: ", "Python", "try/except", "asyncio.gather", "Not there: threading",
		"\n  query(sql: str, params: list = [], max_rows: int = 1000", "\n  read(path: str, offset: int = 1, limit: int = 2000) -> str  # ",
		"\n  items(count: int = 3) -> list[{id: int, name: str}]  # "} {
		if !strings.Contains(instructions, want) {
			t.Errorf("instructions lack %q:\n%s", want, instructions)
		}
	}
	var prose []string // the instructions but the stub lines
	for _, line := range strings.Split(instructions, "\n") {
		if n := len([]rune(line)); n > 2+catalog.InstructionWidth+2 && strings.HasPrefix(line, "  ") {
			t.Errorf("a stub line of %d characters: %s", n, line)
		}
		if !strings.HasPrefix(line, "  ") {
			prose = append(prose, line)
		}
	}
	// No Starlark cheat-sheet: the client is told it writes Python.
	for _, stale := range []string{"Starlark", "fail(", "math.pow", "no f-strings"} {
		if text := strings.Join(prose, "\n"); strings.Contains(text, stale) || strings.Contains(string(list), stale) {
			t.Errorf("the listing still says %q:\n%s\n%s", stale, list, text)
		}
	}
}

// The instructions carry every stub line up to catalog.MaxTools tools in
// all, and list packs, a line each, past that; either way "Not there:"
// names what programs cannot do.
func TestInstructionsCatalog(t *testing.T) {
	withTools := func(n int) *runner.Runner {
		reg := packs.NewRegistry()
		reg.SetPackDescription("big", "Many tools. Second sentence.")
		var tools []*packs.Tool
		for i := range n {
			tools = append(tools, &packs.Tool{Pack: "big", Name: fmt.Sprintf("t%02d", i), Description: "Do thing " + fmt.Sprint(i) + ". More.",
				InputSchema: `{"type":"object","properties":{"mode":{"enum":["a","b"]},"n":{"type":"integer","default":2}},"required":["mode"]}`,
				Handler:     func(context.Context, map[string]any) (any, error) { return nil, nil }})
		}
		if err := reg.Register(tools...); err != nil {
			t.Fatal(err)
		}
		if err := ot.Register(reg, ot.Info{}); err != nil {
			t.Fatal(err)
		}
		r, err := runner.New(runner.WithRegistry(reg))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		return r
	}
	for _, tt := range []struct {
		tools int // besides ot's 11
		carry bool
	}{{29, true}, {30, false}, {200, false}} {
		text := Instructions(withTools(tt.tools))
		stub := "\n  t00(mode: Literal[\"a\", \"b\"], n: int = 2) -> any  # Do thing 0\n"
		if got := strings.Contains(text, stub); got != tt.carry {
			t.Errorf("%d+11 tools: carries stubs = %v, want %v:\n%s", tt.tools, got, tt.carry, text)
		}
		if got := strings.Count(text, "\n  "); tt.carry && got != tt.tools+11 {
			t.Errorf("%d+11 tools: %d stub lines:\n%s", tt.tools, got, text)
		}
		for _, want := range []string{"- big: Many tools\n", "- ot: Discover packs", "\nNot there: threading"} {
			if !strings.Contains(text, want) {
				t.Errorf("%d+11 tools: instructions lack %q:\n%s", tt.tools, want, text)
			}
		}
		if !tt.carry && (!strings.Contains(text, "Discover: ot.help()") || len(text) > 1500) {
			t.Errorf("%d+11 tools: want a list of packs pointing to ot.help, %d characters:\n%s", tt.tools, len(text), text)
		}
	}
}

func TestCallRun(t *testing.T) {
	for _, v := range protocolVersions {
		t.Run(v, func(t *testing.T) {
			cs, _ := connect(t, v, Options{})
			tests := []struct {
				command, want string
				isError       bool
			}{
				{`demo.foo(text="test")`, "orange", false},
				{"```python\nprint('hi')\nreturn {'b': 1, 'a': 2}\n```\nDone.", "hi\n{\"b\":1,\"a\":2}", false},
				{"x = 1", "OK (no return value)", false},
				{"x = 1\n1 // 0", "Error: line 2: division by zero", true},
				{"zzz_unknown()", "Error: line 1: 'zzz_unknown' is not defined. Available packs: db, demo, file, ot, web", true},
				{"demo.fail(message='boom')", "Error: line 1: demo.fail failed: boom", true},
			}
			for _, tt := range tests {
				res := callRun(t, cs, tt.command)
				if got := text(t, res); got != tt.want || res.IsError != tt.isError {
					t.Errorf("run(%q) = %q (isError %v), want %q (isError %v)", tt.command, got, res.IsError, tt.want, tt.isError)
				}
				if res.StructuredContent != nil {
					t.Errorf("structuredContent present without the switch")
				}
			}
		})
	}
}

func TestBadArguments(t *testing.T) {
	cs, _ := connect(t, "2025-11-25", Options{})
	for _, args := range []any{map[string]any{}, map[string]any{"command": 5}} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: args})
		if err != nil {
			t.Fatalf("%v: protocol error %v, want a tool error", args, err)
		}
		if !res.IsError || !strings.HasPrefix(text(t, res), "Error: ") {
			t.Errorf("%v: %+v", args, res)
		}
	}
}

func TestStructuredContent(t *testing.T) {
	cs, _ := connect(t, "2025-11-25", Options{Structured: true})
	res := callRun(t, cs, "demo.items(count=1)")
	got, _ := json.Marshal(res.StructuredContent)
	if string(got) != `{"result":[{"id":1,"name":"item1"}]}` {
		t.Errorf("structuredContent = %s", got)
	}
}

func TestProgressPerToolCall(t *testing.T) {
	for _, v := range protocolVersions {
		t.Run(v, func(t *testing.T) {
			cs, progress := connect(t, v, Options{})
			params := &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": "[demo.foo(text=str(i)) for i in range(3)]"}}
			params.SetProgressToken("p1")
			if _, err := cs.CallTool(context.Background(), params); err != nil {
				t.Fatal(err)
			}
			// Notifications may arrive after the result.
			deadline := time.Now().Add(2 * time.Second)
			for progress.count() < 3 && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			if n := progress.count(); n != 3 {
				t.Fatalf("%d progress notifications, want 3", n)
			}
			progress.mu.Lock()
			defer progress.mu.Unlock()
			for i, ev := range progress.events {
				if ev.ProgressToken != "p1" || ev.Message != "demo.foo" {
					t.Errorf("event %d = %+v", i, ev)
				}
			}
			// Without a token, no notifications.
			callRun(t, cs, "demo.foo(text='x')")
			time.Sleep(50 * time.Millisecond)
			if n := len(progress.events); n != 3 {
				t.Errorf("a call without a progress token sent %d notifications", n-3)
			}
		})
	}
}

// Cancelling the request stops the Starlark thread and the tool in flight.
func TestCancellation(t *testing.T) {
	for _, v := range protocolVersions {
		t.Run(v, func(t *testing.T) {
			// No step or time budget: only the client's cancellation can
			// stop these programs.
			cs, _ := connect(t, v, Options{}, runner.WithLimits(runner.Limits{}))
			for _, program := range []string{"demo.sleep(ms=10000)", "while True:\n    pass"} {
				ctx, cancel := context.WithCancel(context.Background())
				time.AfterFunc(100*time.Millisecond, cancel)
				start := time.Now()
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": program}})
				if err == nil {
					t.Fatalf("%q: cancelled call returned no error", program)
				}
				if d := time.Since(start); d > time.Second {
					t.Errorf("%q: cancellation took %v", program, d)
				}
			}
			// The session still works.
			if got := text(t, callRun(t, cs, `demo.bar(text="item1")`)); got != "fox" {
				t.Errorf("after cancellation: %q", got)
			}
		})
	}
}

func TestResources(t *testing.T) {
	cs, _ := connect(t, "2025-11-25", Options{})
	ctx := context.Background()
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "onetool://tools"})
	if err != nil {
		t.Fatal(err)
	}
	var list []struct{ ID, Signature string }
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &list); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range list {
		found = found || (e.ID == "demo.foo" && e.Signature == "demo.foo(text: str) -> str")
	}
	if !found {
		t.Errorf("onetool://tools lacks demo.foo: %s", res.Contents[0].Text)
	}
	one, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "onetool://tool/demo.items"})
	if err != nil {
		t.Fatal(err)
	}
	var tool struct {
		Signature   string
		InputSchema map[string]any `json:"input_schema"`
	}
	if err := json.Unmarshal([]byte(one.Contents[0].Text), &tool); err != nil {
		t.Fatal(err)
	}
	if tool.Signature != "demo.items(count: int = 3) -> list[dict]" || tool.InputSchema["type"] != "object" {
		t.Errorf("onetool://tool/demo.items = %s", one.Contents[0].Text)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "onetool://tool/demo.nope"}); err == nil {
		t.Error("an unknown tool resource was found")
	}
}

func TestListenAddr(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", "127.0.0.1:8080"}, {"9000", "127.0.0.1:9000"}, {":9000", "127.0.0.1:9000"},
		{"127.0.0.1:8080", "127.0.0.1:8080"}, {"0.0.0.0:80", "0.0.0.0:80"}, {"[::1]:7", "[::1]:7"},
	} {
		if got, err := ListenAddr(tt.in); err != nil || got != tt.want {
			t.Errorf("ListenAddr(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := ListenAddr("not an address"); err == nil {
		t.Error("a bad address was accepted")
	}
}

// The server side of cancellation: within 50 ms of the client's cancel,
// a blocked tool sees its context end and a busy program stops calling.
func TestCancellationStopsServerWork(t *testing.T) {
	var mu sync.Mutex
	var toolDone, lastTick time.Time
	reg := packs.NewRegistry()
	err := reg.Register(
		&packs.Tool{Pack: "probe", Name: "wait", Handler: func(ctx context.Context, _ map[string]any) (any, error) {
			<-ctx.Done()
			mu.Lock()
			toolDone = time.Now()
			mu.Unlock()
			return nil, ctx.Err()
		}},
		&packs.Tool{Pack: "probe", Name: "tick", Handler: func(context.Context, map[string]any) (any, error) {
			mu.Lock()
			lastTick = time.Now()
			mu.Unlock()
			return nil, nil
		}},
	)
	if err != nil {
		t.Fatal(err)
	}
	limits := runner.Limits{} // only the client can stop these programs
	cs, _ := connect(t, "2025-11-25", Options{}, runner.WithRegistry(reg), runner.WithLimits(limits))

	cancelRun := func(program string) time.Time {
		ctx, cancel := context.WithCancel(context.Background())
		var cancelled time.Time
		time.AfterFunc(100*time.Millisecond, func() { cancelled = time.Now(); cancel() })
		cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": program}})
		time.Sleep(150 * time.Millisecond) // let the server finish whatever it does
		return cancelled
	}

	cancelled := cancelRun("probe.wait()")
	mu.Lock()
	if toolDone.IsZero() || toolDone.Sub(cancelled) > 50*time.Millisecond {
		t.Errorf("the tool saw cancellation %v after the client cancelled", toolDone.Sub(cancelled))
	}
	mu.Unlock()

	cancelled = cancelRun("while True:\n    probe.tick()")
	mu.Lock()
	if lastTick.Sub(cancelled) > 50*time.Millisecond {
		t.Errorf("the program still ran %v after the client cancelled", lastTick.Sub(cancelled))
	}
	mu.Unlock()
}

func TestProgressPerPlanStep(t *testing.T) {
	cs, progress := connect(t, "2025-11-25", Options{})
	params := &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": `plan([{"id": "a", "tool": "demo.fail"}, {"id": "b", "tool": "demo.foo", "args": {"text": "x"}, "depends_on": ["a"]}])`}}
	params.SetProgressToken("plan")
	if _, err := cs.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	var steps []string
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline) && len(steps) < 2; time.Sleep(5 * time.Millisecond) {
		progress.mu.Lock()
		steps = steps[:0]
		for _, ev := range progress.events {
			if strings.HasPrefix(ev.Message, "plan step ") {
				steps = append(steps, ev.Message)
			}
		}
		progress.mu.Unlock()
	}
	if len(steps) != 2 || !strings.Contains(steps[1], "b (demo.foo) skipped, 2 of 2") {
		t.Errorf("plan step notifications = %q", steps)
	}
}

// A tool that panics fails its run with a tool failure; the server, and
// runs going on beside it, carry on.
func TestPanickingToolServerSurvives(t *testing.T) {
	cs, _ := connect(t, protocolVersions[len(protocolVersions)-1], Options{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			res := callRun(t, cs, "demo.sleep(ms=50)\ndemo.foo(text='test')")
			if got := text(t, res); got != "orange" || res.IsError {
				t.Errorf("neighbour run: %q", got)
			}
		})
	}
	for range 3 {
		res := callRun(t, cs, "x = 1\ndemo.panic(message='kaboom')")
		if got := text(t, res); got != "Error: line 2: demo.panic failed: panic: kaboom" || !res.IsError {
			t.Errorf("panicking run: %q (isError %v)", got, res.IsError)
		}
	}
	wg.Wait()
	if got := text(t, callRun(t, cs, `demo.bar(text="item1")`)); got != "fox" {
		t.Errorf("after the panics: %q", got)
	}
}

// With only harmless packs, run does not claim to be destructive.
func TestRunToolHarmlessWithoutDestructiveTools(t *testing.T) {
	cfg := config.Default()
	cfg.Packs["file"] = &config.Pack{Enabled: new(false)}
	cfg.Packs["db"] = &config.Pack{Enabled: new(false)} // db.execute may write
	cs, _ := connect(t, protocolVersions[0], Options{}, runner.WithConfig(cfg))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if a := res.Tools[0].Annotations; a.DestructiveHint == nil || *a.DestructiveHint {
		t.Errorf("destructiveHint = %v, want false", a.DestructiveHint)
	}
}

// A result above output.max_inline comes back as a preview naming a
// handle, and a later call pages through it with ot.result; the
// structured content is the preview too, not the whole value.
func TestLargeOutputOverMCP(t *testing.T) {
	cs, _ := connect(t, protocolVersions[0], Options{Structured: true}, runner.WithMaxInline(500))
	res := callRun(t, cs, `"\n".join(["row %d" % i for i in range(1000)])`)
	preview := text(t, res)
	m := regexp.MustCompile(`ot\.result\(handle="(r[a-z0-9]+)", offset=(\d+)`).FindStringSubmatch(preview)
	if m == nil || len(preview) > 1000 {
		t.Fatalf("preview (%d bytes) without a handle:\n%s", len(preview), preview)
	}
	if sc, _ := res.StructuredContent.(map[string]any); sc == nil || sc["result"] != preview {
		t.Errorf("structuredContent = %v, want the preview", res.StructuredContent)
	}
	next := text(t, callRun(t, cs, fmt.Sprintf(`ot.result(handle=%q, offset=%s, limit=2)`, m[1], m[2])))
	if !strings.HasPrefix(next, "row ") || strings.Count(next, "\n") != 2 {
		t.Errorf("next page: %q", next)
	}
}

// ot.health reports the server as well.
func TestHealthTool(t *testing.T) {
	cs, _ := connect(t, protocolVersions[0], Options{})
	if got := text(t, callRun(t, cs, `h = ot.health()
[h["status"], h["version"], h["runs"] >= 0]`)); got != `["ok","`+runner.Version+`",true]` {
		t.Errorf("ot.health: %s", got)
	}
}
