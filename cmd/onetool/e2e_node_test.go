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
	"sync"
	"testing"
	"time"
)

// TestNodeE2E drives the real onetool binary with the official TypeScript
// MCP SDK client (e2e/node/run.test.mjs): stdio and streamable HTTP, tools,
// resources, errors, progress, cancellation, DNS-rebinding protection,
// serve.auth bearer tokens with their policies, and serve.auth.oauth with
// the SDK's own OAuth flow against a real authorization server
// (oauth2-mock-server).
// It needs Node.js; with npm it installs e2e/node's pinned packages itself
// when they are missing, so a fresh clone passes with plain `go test ./...`.
func TestNodeE2E(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end tests against the TypeScript MCP SDK are skipped in -short mode")
	}
	node, dir := nodeModules(t)

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
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("node --test run.test.mjs did not finish within 3 minutes:\n%s", out.String())
	}
	if err != nil {
		t.Fatalf("node --test run.test.mjs: %v\n%s", err, out.String())
	}
	t.Logf("node --test run.test.mjs passed in %s:\n%s", time.Since(start).Round(time.Millisecond), out.String())
}

// npmCI installs e2e/node's packages at most once per test process.
var npmCI struct {
	once sync.Once
	err  error
	out  []byte
}

// nodeModules returns node and the e2e/node directory with its packages
// installed (running `npm ci` once when they are missing or older than
// package-lock.json), or skips the
// test with a message saying what is missing.
func nodeModules(t *testing.T) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found: the end-to-end tests against real MCP software need Node.js ≥ 20")
	}
	if major := nodeMajor(t, node); major > 0 && major < 20 {
		t.Skipf("node %d found: the end-to-end tests against real MCP software need Node.js ≥ 20", major)
	}
	dir, err = filepath.Abs(filepath.Join("..", "..", "e2e", "node"))
	if err != nil {
		t.Fatal(err)
	}
	npmCI.once.Do(func() {
		// npm writes node_modules/.package-lock.json when it installs: one
		// older than package-lock.json is an install of other versions.
		installed, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
		if lock, lerr := os.Stat(filepath.Join(dir, "package-lock.json")); err == nil && lerr == nil && !installed.ModTime().Before(lock.ModTime()) {
			return
		}
		npm, err := exec.LookPath("npm")
		if err != nil {
			npmCI.err = errors.New("e2e/node/node_modules is missing or out of date and npm was not found: run `npm ci --prefix e2e/node`")
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		npmCI.out, npmCI.err = cmd.CombinedOutput()
	})
	if npmCI.err != nil {
		t.Fatalf("npm ci in e2e/node: %v\n%s", npmCI.err, npmCI.out)
	}
	return node, dir
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
