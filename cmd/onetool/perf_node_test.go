package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestNodePerfHarness runs the side-by-side benchmark of issue 20
// (e2e/node/perf.mjs: onetool against the bare go-sdk server in e2e/goecho,
// driven by the TypeScript SDK client) once with tiny counts, so that the
// harness cannot rot: it must print its table, every row, and numbers that
// are measurements. Timings are never asserted; the machine may be busy.
func TestNodePerfHarness(t *testing.T) {
	if testing.Short() {
		t.Skip("the side-by-side benchmark against a go-sdk server is skipped in -short mode")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the benchmark reads peak RSS from /proc, which only Linux has")
	}
	node, dir := nodeModules(t)
	bin := onetoolBinary(t)

	goecho := filepath.Join(t.TempDir(), "goecho")
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		gobin = "go"
	}
	build := exec.Command(gobin, "build", "-o", goecho, "./e2e/goecho")
	build.Dir = filepath.Join(dir, "..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building e2e/goecho: %v\n%s", err, out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "perf.mjs", "--reps", "1", "--calls", "5", "--warmup", "2", "--cold", "1", "--json")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ONETOOL_BIN="+bin, "GOECHO_BIN="+goecho)
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node perf.mjs: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	t.Logf("node perf.mjs:\n%s", out)

	for _, row := range []string{
		"| | goecho | onetool | difference | goal | |",
		"| call p50, one tool call | ",
		"| call p99, one tool call | ",
		"| call p50, ten calls in a loop | ",
		"| call p99, ten calls in a loop | ",
		"| cold start, spawn → initialize result | ",
		"| peak RSS (VmHWM) serving | ",
	} {
		if !strings.Contains(out, row) {
			t.Errorf("the table has no row starting %q", row)
		}
	}

	lines := strings.Split(strings.TrimSpace(out), "\n")
	var res struct {
		GoEcho  map[string]float64 `json:"goecho"`
		OneTool map[string]float64 `json:"onetool"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil {
		t.Fatalf("the last line is not the --json summary: %v", err)
	}
	// Bounds that any real measurement meets and a broken one (zero, NaN, a
	// unit mixed up) does not: milliseconds for times, MiB for memory.
	check := func(server string, got map[string]float64, keys ...string) {
		for _, k := range keys {
			v, ok := got[k]
			lo, hi := 0.0, 60_000.0
			if k == "rss" {
				lo, hi = 1, 4096
			}
			if !ok || math.IsNaN(v) || v <= lo || v > hi {
				t.Errorf("%s %s = %v (present %v), want a number in (%v, %v]", server, k, v, ok, lo, hi)
			}
		}
	}
	check("goecho", res.GoEcho, "one50", "one99", "cold", "rss")
	check("onetool", res.OneTool, "one50", "one99", "ten50", "ten99", "cold", "rss")
	if res.OneTool["one99"] < res.OneTool["one50"] || res.GoEcho["one99"] < res.GoEcho["one50"] {
		t.Errorf("p99 below p50: %v %v", res.GoEcho, res.OneTool)
	}
}
