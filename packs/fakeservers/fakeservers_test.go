package fakeservers_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/fakeservers"
)

// TestFixtureShape: a dozen servers, about 500 tools, every one
// registrable as onetool registers upstream tools (schemas compile,
// canonical names distinct within a pack).
func TestFixtureShape(t *testing.T) {
	servers := fakeservers.Servers()
	if len(servers) != 12 {
		t.Errorf("%d servers, want 12", len(servers))
	}
	if n := fakeservers.Count(servers); n < 480 || n > 540 {
		t.Errorf("%d tools, want about 500", n)
	}
	reg := packs.NewRegistry()
	if err := fakeservers.Register(reg, servers); err != nil {
		t.Fatal(err)
	}
	if got, want := len(reg.Tools()), fakeservers.Count(servers); got != want {
		t.Errorf("registered %d tools, want %d", got, want)
	}
	if tl, ok := reg.Tool("slack.chat_post_message"); !ok || tl.Params()[0].Name != "channel" {
		t.Errorf("slack.chat_post_message missing or without its channel parameter")
	}
	// Same every time: tests that count on a tool count on its place.
	if a, b := fakeservers.Servers(), fakeservers.Servers(); a[3].Tools[5].Name != b[3].Tools[5].Name || string(a[3].Tools[5].InputSchema) != string(b[3].Tools[5].InputSchema) {
		t.Error("Servers() is not deterministic")
	}
}

// TestServedOverMCP lists and calls a generated server through the
// go-sdk client over in-memory transports.
func TestServedOverMCP(t *testing.T) {
	ctx := context.Background()
	s := fakeservers.Servers()[3]
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCPServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != len(s.Tools) {
		t.Errorf("tools/list has %d tools, want %d", len(list.Tools), len(s.Tools))
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: s.Tools[0].Name, Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %v", err, res)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; text == "" {
		t.Error("empty answer")
	}
}
