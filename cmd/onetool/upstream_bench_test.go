package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
)

// reportP50 adds the median of the timed calls as a metric: medians are
// what the target of a proxied call is stated in.
func reportP50(b *testing.B, d []time.Duration) {
	slices.Sort(d)
	if len(d) > 0 {
		b.ReportMetric(float64(d[len(d)/2].Microseconds()), "p50-µs")
	}
}

// BenchmarkUpstreamEcho compares everything.echo called through a whole
// run (strip, parse, run, bind, validate against the upstream schema, MCP
// call, convert, format) with the same MCP call made directly with the
// go-sdk client, against the real server-everything from npm.
func BenchmarkUpstreamEcho(b *testing.B) {
	node, err := exec.LookPath("node")
	server, _ := filepath.Abs(filepath.Join("..", "..", "e2e", "node", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	if _, serr := os.Stat(server); err != nil || serr != nil {
		b.Skip("node or server-everything is missing: run `npm ci --prefix e2e/node`")
	}
	ctx := context.Background()

	b.Run("direct", func(b *testing.B) {
		client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(node, server), TerminateDuration: time.Second}, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		params := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "x"}}
		var times []time.Duration
		for b.Loop() {
			start := time.Now()
			if _, err := cs.CallTool(ctx, params); err != nil {
				b.Fatal(err)
			}
			times = append(times, time.Since(start))
		}
		reportP50(b, times)
	})

	b.Run("run", func(b *testing.B) {
		path := filepath.Join(b.TempDir(), "onetool.yaml")
		writeConfig(b, path, "servers:\n  everything:\n    command: "+node+"\n    args: ["+server+"]\n")
		cfg, err := config.Load(path, config.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		r, err := runner.New(runner.WithConfig(cfg))
		if err != nil {
			b.Fatal(err)
		}
		defer r.Close()
		if res := r.Exec(ctx, `everything.echo(message="x")`); res.IsError() {
			b.Fatal(res.Text)
		}
		var times []time.Duration
		for b.Loop() {
			start := time.Now()
			if res := r.Exec(ctx, `everything.echo(message="x")`); res.IsError() {
				b.Fatal(res.Text)
			}
			times = append(times, time.Since(start))
		}
		reportP50(b, times)
	})
}

func writeConfig(b *testing.B, path, yaml string) {
	b.Helper()
	if err := writeFile(path, yaml); err != nil {
		b.Fatal(err)
	}
}
