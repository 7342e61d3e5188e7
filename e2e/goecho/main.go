// Command goecho is the bare go-sdk server that the side-by-side benchmark
// (e2e/node/perf.mjs, issue 20) measures onetool against: one tool, echo,
// that returns its input, served over stdio. It is kept as small as a user's
// first go-sdk server, so that what it costs is what go-sdk itself costs.
package main

import (
	"context"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoArgs struct {
	Text string `json:"text" jsonschema:"the text to return"`
}

func echo(_ context.Context, _ *mcp.CallToolRequest, args echoArgs) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: args.Text}}}, nil, nil
}

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "goecho", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Return the text."}, echo)
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
