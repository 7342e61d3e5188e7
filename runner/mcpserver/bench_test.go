package mcpserver

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkRoundTrip is one tools/call of run for demo.foo(text="x"),
// client to server and back over in-memory transports: the overhead MCP
// adds to the pipeline.
func BenchmarkRoundTrip(b *testing.B) {
	for _, v := range protocolVersions {
		b.Run(v, func(b *testing.B) {
			t := &testing.T{}
			cs, _ := connect(t, v, Options{})
			params := &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": `demo.foo(text="x")`}}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				res, err := cs.CallTool(ctx, params)
				if err != nil || res.IsError {
					b.Fatal(err, res)
				}
			}
		})
	}
}
