package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The test servers are this test binary, re-executed with serverModeEnv
// set: real processes speaking MCP over stdio through the go-sdk, which
// the client under test starts, talks to, crashes and kills.
const serverModeEnv = "MCPCLIENT_TEST_SERVER"

// parentOnlyEnv is set in the test process and must not reach servers.
const parentOnlyEnv = "MCPCLIENT_TEST_PARENT_ONLY"

func TestMain(m *testing.M) {
	switch mode := os.Getenv(serverModeEnv); mode {
	case "":
		os.Setenv(parentOnlyEnv, "leaked")
		os.Exit(m.Run())
	case "main":
		runTestServer()
	case "die":
		fmt.Fprintln(os.Stderr, "boom: config file missing")
		os.Exit(2)
	case "stubborn":
		// Ignores stdin EOF and SIGTERM: only SIGKILL ends it.
		signal.Ignore(syscall.SIGTERM)
		runTestServer()
		select {}
	case "spawner":
		runTestServer()
	case "sleeper":
		time.Sleep(time.Minute)
	default:
		fmt.Fprintln(os.Stderr, "unknown test server mode", mode)
		os.Exit(1)
	}
	os.Exit(0)
}

// testServerSpec is the Spec of a test server in the given mode.
func testServerSpec(t *testing.T, name, mode string) Spec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Spec{
		Name:    name,
		Command: exe,
		Args:    []string{"-test.run=^$"},
		Env: map[string]string{
			serverModeEnv:        mode,
			"MCPCLIENT_SPEC_VAR": "from-spec",
			// Under -race a process sleeps 1 s at exit (atexit_sleep_ms),
			// which would make every server look deaf to stdin EOF.
			"GORACE": "atexit_sleep_ms=0",
		},
		Timeout: 10 * time.Second,
	}
}

// runTestServer serves the test tools over stdio until stdin ends.
func runTestServer() {
	if d, err := time.ParseDuration(os.Getenv("MCPCLIENT_TEST_DELAY")); err == nil {
		time.Sleep(d) // a slow starter
	}
	var grandchild int
	if os.Getenv(serverModeEnv) == "spawner" {
		// A helper in the server's process group that outlives it unless
		// the client ends the group. It shares our stderr, as helpers do.
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = []string{serverModeEnv + "=sleeper", "GORACE=atexit_sleep_ms=0"}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		grandchild = cmd.Process.Pid
	}
	s := newTestMCPServer(grandchild, testHooks{})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
	}
}

// testHooks let an in-process test server (HTTP tests) report and end
// its slow calls; nil channels are ignored.
type testHooks struct {
	cancelled chan<- struct{} // gets a value when a slow call sees its cancellation
	stop      <-chan struct{} // closed: slow calls end (so httptest.Server.Close never hangs)
}

// newTestMCPServer builds the test tools; the HTTP tests serve the same.
func newTestMCPServer(grandchild int, hooks testHooks) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "mcpclient-test", Version: "1"}, nil)
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	args := func(req *mcp.CallToolRequest) map[string]any {
		var m map[string]any
		_ = json.Unmarshal(req.Params.Arguments, &m)
		return m
	}
	obj := json.RawMessage(`{"type":"object"}`)
	add := func(name string, schema json.RawMessage, h mcp.ToolHandler) {
		s.AddTool(&mcp.Tool{Name: name, Description: "test tool " + name, InputSchema: schema}, h)
	}

	add("echo", json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			t, _ := args(req)["text"].(string)
			return text(t), nil
		})
	// The schema's keys are not in sorted order, nor are the result's:
	// the client must keep both as written.
	s.AddTool(&mcp.Tool{
		Name:         "get-sum",
		Description:  "Adds a and b.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"b":{"type":"integer"},"a":{"type":"integer"}},"required":["a","b"]}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"sum":{"type":"integer"},"inputs":{"type":"array"}}}`),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ A, B int64 }
		_ = json.Unmarshal(req.Params.Arguments, &in)
		sc := json.RawMessage(fmt.Sprintf(`{"sum":%d,"inputs":[%d,%d]}`, in.A+in.B, in.A, in.B))
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(sc)}},
			StructuredContent: sc,
		}, nil
	})
	add("raw-args", obj, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(string(req.Params.Arguments)), nil
	})
	add("listItems", obj, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("listItems"), nil
	})
	add("list-items", obj, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("list-items"), nil
	})
	add("image", obj, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: []byte{1, 2, 3, 4, 5}, MIMEType: "image/png"}}}, nil
	})
	add("parts", obj, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "first"},
			&mcp.TextContent{Text: `{"z":1,"a":2}`},
			&mcp.AudioContent{Data: []byte("abc"), MIMEType: "audio/wav"},
			&mcp.ResourceLink{URI: "file:///r.txt", Name: "r.txt"},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "mem://t", MIMEType: "text/plain", Text: "inline"}},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "mem://b", MIMEType: "application/octet-stream", Blob: []byte{9, 9}}},
		}}, nil
	})
	add("fail", obj, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{
			&mcp.TextContent{Text: "it broke"}, &mcp.TextContent{Text: "badly"},
		}}, nil
	})
	add("slow", obj, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		token := req.Params.GetProgressToken()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for i := 1; ; i++ {
			select {
			case <-ctx.Done():
				if hooks.cancelled != nil {
					hooks.cancelled <- struct{}{}
				}
				return nil, ctx.Err()
			case <-hooks.stop:
				return nil, errors.New("server stopping")
			case <-tick.C:
			}
			if token != nil {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token, Progress: float64(i), Total: 100, Message: fmt.Sprintf("tick %d", i),
				})
			}
		}
	})
	add("crash", obj, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "crashing now")
		time.Sleep(20 * time.Millisecond)
		os.Exit(3)
		return nil, nil
	})
	add("pid", obj, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(fmt.Sprint(os.Getpid())), nil
	})
	add("grandchild-pid", obj, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(fmt.Sprint(grandchild)), nil
	})
	add("environ", obj, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		data, _ := json.Marshal(os.Environ())
		return text(string(data)), nil
	})
	add("add-tool", obj, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		name, _ := args(req)["name"].(string)
		name = strings.TrimSpace(name)
		s.AddTool(&mcp.Tool{Name: name, InputSchema: obj}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("I am " + name), nil
		})
		return text("added " + name), nil
	})
	return s
}
