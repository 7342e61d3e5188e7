package main

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeRoots drives `onetool serve` as a desktop client does: started
// in / with a clean HOME. Without --root and without client roots, file
// access is refused with how to set a root; --root sets it; a client that
// offers roots replaces --root with them for its session, and a change of
// its roots reaches the next run.
func TestServeRoots(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and spawns the binary")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(base, "home")
	for _, d := range []string{"home", "a", "b", "c"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(base, d, "f.txt"), []byte("in "+d), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start := func(client *mcp.Client, dir string, args ...string) *mcp.ClientSession {
		t.Helper()
		cmd := exec.Command(onetoolBinary(t), append([]string{"serve", "--log-level", "warn"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home, "ONETOOL_CONFIG=")
		cmd.Stderr = os.Stderr
		cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	read := func(cs *mcp.ClientSession, d string) string {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": `file.read("` + filepath.Join(base, d, "f.txt") + `")`}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	noRoots := func() *mcp.Client {
		return mcp.NewClient(&mcp.Implementation{Name: "desktop", Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	}

	for _, c := range []struct{ dir, why string }{
		{"/", "onetool was started in / (the whole disk, as desktop MCP clients do)"},
		{home, "onetool was started in your home directory " + home},
	} {
		cs := start(noRoots(), c.dir)
		got := read(cs, "a")
		for _, want := range []string{"Error: line 1: file.read failed: no root directory is set: " + c.why, "--root DIR"} {
			if !strings.Contains(got, want) {
				t.Errorf("started in %s: %q lacks %q", c.dir, got, want)
			}
		}
	}

	cs := start(noRoots(), "/", "--root", filepath.Join(base, "a"), "--root", "~/")
	if got := read(cs, "a"); got != "in a" {
		t.Errorf("--root a: %q", got)
	}
	if got := read(cs, "home"); got != "in home" {
		t.Errorf("--root ~/: %q", got)
	}
	if got := read(cs, "b"); !strings.Contains(got, "outside the allowed roots") {
		t.Errorf("outside --root: %q", got)
	}

	client := mcp.NewClient(&mcp.Implementation{Name: "ide", Version: "1"}, nil)
	client.AddRoots(&mcp.Root{URI: (&url.URL{Scheme: "file", Path: filepath.Join(base, "b")}).String()})
	cs = start(client, "/", "--root", filepath.Join(base, "a"))
	if got := read(cs, "b"); got != "in b" {
		t.Errorf("client root b: %q", got)
	}
	if got := read(cs, "a"); !strings.Contains(got, "outside the allowed roots") {
		t.Errorf("the client's roots replace --root: %q", got)
	}
	client.AddRoots(&mcp.Root{URI: (&url.URL{Scheme: "file", Path: filepath.Join(base, "c")}).String()})
	if got := read(cs, "c"); got != "in c" {
		t.Errorf("after list_changed: %q", got)
	}
}
