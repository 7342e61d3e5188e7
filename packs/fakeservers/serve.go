package fakeservers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/mcpclient"
)

// ServerEnv names the server a re-executed test binary serves over stdio
// (see ServeIfChild).
const ServerEnv = "ONETOOL_FAKESERVER"

// answer is what every generated tool returns: its name and arguments,
// so a test can see which tool a call reached.
func answer(name string, args json.RawMessage) string {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	data, _ := json.Marshal(map[string]any{"ok": true, "tool": name, "args": args})
	return string(data)
}

// MCPServer is s as a go-sdk MCP server.
func (s Server) MCPServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: s.Name, Version: "1"}, nil)
	for _, t := range s.Tools {
		name := t.Name
		ro, destr := t.ReadOnly, t.Destructive
		srv.AddTool(&mcp.Tool{Name: name, Description: t.Description, InputSchema: t.InputSchema,
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: ro, DestructiveHint: &destr}},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: answer(name, req.Params.Arguments)}}}, nil
			})
	}
	return srv
}

// Handler serves s over streamable HTTP (for httptest.NewServer).
func (s Server) Handler() http.Handler {
	srv := s.MCPServer()
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
}

// ServeIfChild serves, over stdio, the server that ServerEnv names, until
// stdin ends, and reports whether it did: a test binary calls it first in
// TestMain and exits when it returns true, so a config can start the
// binary again as an upstream server (command: os.Args[0], env
// ONETOOL_FAKESERVER=github).
func ServeIfChild() bool {
	name := os.Getenv(ServerEnv)
	if name == "" {
		return false
	}
	for _, s := range Servers() {
		if s.Name == name {
			if err := s.MCPServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
				fmt.Fprintln(os.Stderr, "fakeservers:", err)
			}
			return true
		}
	}
	fmt.Fprintf(os.Stderr, "fakeservers: no server %q\n", name)
	return true
}

// Register adds the servers' tools to reg as onetool registers an
// upstream server's (runner.registerServerTools): one pack per server,
// named by mcpclient.PackName, each tool by the mcpclient.Canonical form
// of its name, with the server's description as the pack's. Calls answer
// in process, as the MCP server would.
func Register(reg *packs.Registry, servers []Server) error {
	for _, s := range servers {
		pack := mcpclient.PackName(s.Name)
		reg.SetPackDescription(pack, s.Description)
		tools := make([]*packs.Tool, 0, len(s.Tools))
		for _, t := range s.Tools {
			name := t.Name
			tools = append(tools, &packs.Tool{
				Pack:        pack,
				Name:        mcpclient.Canonical(name),
				Description: t.Description,
				InputSchema: string(t.InputSchema),
				Annotations: packs.Annotations{ReadOnly: t.ReadOnly, Destructive: t.Destructive, OpenWorld: true},
				Handler: func(_ context.Context, args map[string]any) (any, error) {
					data, err := json.Marshal(args)
					if err != nil {
						return nil, err
					}
					return answer(name, data), nil
				},
			})
		}
		if err := reg.Register(tools...); err != nil {
			return fmt.Errorf("server %s: %w", s.Name, err)
		}
	}
	return nil
}
