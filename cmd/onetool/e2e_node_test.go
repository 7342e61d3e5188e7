package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// TestNodeE2E drives the real onetool binary with the official TypeScript
// MCP SDK client (e2e/node/run.test.mjs): stdio and streamable HTTP, tools,
// resources, errors, progress, cancellation and DNS-rebinding protection.
// It needs Node.js; with npm it installs e2e/node's pinned packages itself
// when they are missing, so a fresh clone passes with plain `go test ./...`.
func TestNodeE2E(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests against the TypeScript MCP SDK are skipped in -short mode")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found: the end-to-end tests against the TypeScript MCP SDK need Node.js ≥ 20")
	}
	if major := nodeMajor(t, node); major > 0 && major < 20 {
		t.Skipf("node %d found: the end-to-end tests against the TypeScript MCP SDK need Node.js ≥ 20", major)
	}

	dir, err := filepath.Abs(filepath.Join("..", "..", "e2e", "node"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); errors.Is(err, os.ErrNotExist) {
		npm, err := exec.LookPath("npm")
		if err != nil {
			t.Skip("e2e/node/node_modules is missing and npm was not found: run `npm ci --prefix e2e/node`")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in e2e/node: %v\n%s", err, out)
		}
	}

	// The real binary, built once per test process (binary_test.go).
	bin := onetoolBinary(t)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "--test", "--test-reporter=spec", "run.test.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ONETOOL_BIN="+bin)
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	start := time.Now()
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("node --test run.test.mjs did not finish within 3 minutes:\n%s", out.String())
	}
	if err != nil {
		t.Fatalf("node --test run.test.mjs: %v\n%s", err, out.String())
	}
	t.Logf("node --test run.test.mjs passed in %s:\n%s", time.Since(start).Round(time.Millisecond), out.String())
}

// nodeMajor is node's major version, or 0 when it cannot be read.
func nodeMajor(t *testing.T, node string) int {
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		t.Logf("node --version: %v", err)
		return 0
	}
	m := regexp.MustCompile(`^v(\d+)\.`).FindSubmatch(bytes.TrimSpace(out))
	if m == nil {
		t.Logf("node --version: unexpected output %q", out)
		return 0
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}
