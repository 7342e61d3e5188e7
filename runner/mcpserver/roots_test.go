package mcpserver

import (
	"context"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
)

// rootsDirs makes base/{server,client,more,proj} each holding NAME.txt.
func rootsDirs(t *testing.T) (base string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"server", "client", "more", "proj", "server/inner"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(base, d, filepath.Base(d)+".txt"), []byte(d+" file"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return base
}

func fileURI(p string) string { return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String() }

// readAs runs file.read of base/d/NAME.txt and returns the text.
func readAs(t *testing.T, cs *mcp.ClientSession, base, d string) string {
	t.Helper()
	p := filepath.Join(base, d, filepath.Base(d)+".txt")
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": `file.read("` + p + `")`}})
	if err != nil {
		t.Fatalf("read %s: %v", d, err)
	}
	return text(t, res)
}

func wantRead(t *testing.T, cs *mcp.ClientSession, base string, ok map[string]bool) {
	t.Helper()
	for d, allowed := range ok {
		got := readAs(t, cs, base, d)
		switch {
		case allowed && !strings.Contains(got, d+" file"):
			t.Errorf("%s: %q, want it read", d, got)
		case !allowed && !strings.Contains(got, "outside the allowed roots"):
			t.Errorf("%s: %q, want it refused", d, got)
		}
	}
}

// TestClientRootsOverMCP: a real MCP client (go-sdk) that offers roots
// has its runs confined to them instead of --root, projects staying
// allowed; changing its roots (notifications/roots/list_changed) changes
// what the next run may read; a client without roots, or with an empty
// list, gets the server's. Both protocol revisions: 2025-11-25 asks with
// roots/list, 2026-07-28 within the call (inputRequests).
func TestClientRootsOverMCP(t *testing.T) {
	base := rootsDirs(t)
	cfg := config.Default()
	cfg.Projects["p"] = filepath.Join(base, "proj")
	for _, version := range protocolVersions {
		t.Run(version, func(t *testing.T) {
			r, err := runner.New(runner.WithConfig(cfg), runner.WithRoots(filepath.Join(base, "server")))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			connectWith := func(copts *mcp.ClientOptions, rootDirs ...string) (*mcp.Client, *mcp.ClientSession) {
				t.Helper()
				st, ct := mcp.NewInMemoryTransports()
				ss, err := New(r, Options{}).Connect(context.Background(), st, nil)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { ss.Close() })
				client := mcp.NewClient(&mcp.Implementation{Name: "roots", Version: "1"}, copts)
				for _, d := range rootDirs {
					client.AddRoots(&mcp.Root{URI: fileURI(filepath.Join(base, d))})
				}
				cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { cs.Close() })
				return client, cs
			}

			client, cs := connectWith(nil, "client")
			// The very first run already has the client's roots.
			wantRead(t, cs, base, map[string]bool{"client": true, "proj": true, "server": false, "more": false})
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": `file.read("client.txt")`}})
			if err != nil || !strings.Contains(text(t, res), "client file") {
				t.Errorf("a relative path starts at the client's first root: %v %v", res, err)
			}
			client.AddRoots(&mcp.Root{URI: fileURI(filepath.Join(base, "more"))})
			wantRead(t, cs, base, map[string]bool{"client": true, "more": true, "server": false})
			client.RemoveRoots(fileURI(filepath.Join(base, "client")))
			wantRead(t, cs, base, map[string]bool{"client": false, "more": true, "proj": true, "server": false})

			// Without the roots capability, and with an empty list: the server's.
			_, none := connectWith(&mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
			wantRead(t, none, base, map[string]bool{"server": true, "proj": true, "client": false})
			_, empty := connectWith(nil)
			wantRead(t, empty, base, map[string]bool{"server": true, "proj": true, "client": false})

			// onetool's own files stay refused under a client's roots.
			if err := os.MkdirAll(filepath.Join(base, "client", ".onetool"), 0o755); err != nil {
				t.Fatal(err)
			}
			_, own := connectWith(nil, "client")
			res, err = own.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": `file.write(".onetool/onetool.yaml", "packs: {}")`}})
			if err != nil || !strings.Contains(text(t, res), "onetool's own configuration directory") {
				t.Errorf("own files under a client root: %v %v", res, err)
			}
		})
	}
}

// TestClientRootsConcurrentFirstRuns: runs that start together as a
// session begins all wait for the client's roots; none runs with the
// server's.
func TestClientRootsConcurrentFirstRuns(t *testing.T) {
	base := rootsDirs(t)
	r, err := runner.New(runner.WithRoots(filepath.Join(base, "server")))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for range 5 {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := New(r, Options{}).Connect(context.Background(), st, nil)
		if err != nil {
			t.Fatal(err)
		}
		client := mcp.NewClient(&mcp.Implementation{Name: "roots", Version: "1"}, nil)
		client.AddRoots(&mcp.Root{URI: fileURI(filepath.Join(base, "client"))})
		cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				if got := readAs(t, cs, base, "server"); !strings.Contains(got, "outside the allowed roots") {
					t.Errorf("a first run used the server's roots: %q", got)
				}
			})
		}
		wg.Wait()
		cs.Close()
		ss.Close()
	}
}

// TestClientRootsStdioTakesWholeDisk: over stdio the client is the user
// who started onetool, so a root of / is its explicit choice.
func TestClientRootsStdioTakesWholeDisk(t *testing.T) {
	base := rootsDirs(t)
	r, err := runner.New(runner.WithRoots(filepath.Join(base, "server")))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(r, Options{}).Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "roots", Version: "1"}, nil)
	client.AddRoots(&mcp.Root{URI: "file:///"}, &mcp.Root{URI: "https://example.com/not-a-dir"}, &mcp.Root{URI: "file://otherhost/x"})
	cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	wantRead(t, cs, base, map[string]bool{"client": true, "server": true, "more": true})
}

// TestClientRootsOverHTTP: over HTTP a client's roots only narrow the
// server's: a root of / gives the server's roots, a root inside one of
// them confines the session to it, a root elsewhere gives nothing but
// the projects. Stateful sessions (2025-11-25) and stateless requests
// (2026-07-28) alike.
func TestClientRootsOverHTTP(t *testing.T) {
	base := rootsDirs(t)
	cfg := config.Default()
	cfg.Projects["p"] = filepath.Join(base, "proj")
	r, err := runner.New(runner.WithConfig(cfg), runner.WithRoots(filepath.Join(base, "server")))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, tt := range []struct {
		version   string
		stateless bool
	}{{"2025-11-25", false}, {"2026-07-28", true}} {
		t.Run(tt.version, func(t *testing.T) {
			srv := httptest.NewServer(HTTPHandler(New(r, Options{}), HTTPOptions{Stateless: tt.stateless}))
			defer srv.Close()
			session := func(dirs ...string) *mcp.ClientSession {
				client := mcp.NewClient(&mcp.Implementation{Name: "http-roots", Version: "1"}, nil)
				for _, d := range dirs {
					client.AddRoots(&mcp.Root{URI: fileURI(d)})
				}
				cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", DisableStandaloneSSE: true},
					&mcp.ClientSessionOptions{ProtocolVersion: tt.version})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { cs.Close() })
				return cs
			}
			wantRead(t, session("/"), base, map[string]bool{"server": true, "server/inner": true, "proj": true, "client": false})
			// A change reaches the next run.
			client := mcp.NewClient(&mcp.Implementation{Name: "http-roots", Version: "1"}, nil)
			client.AddRoots(&mcp.Root{URI: fileURI(filepath.Join(base, "server", "inner"))})
			changing, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", DisableStandaloneSSE: true},
				&mcp.ClientSessionOptions{ProtocolVersion: tt.version})
			if err != nil {
				t.Fatal(err)
			}
			defer changing.Close()
			wantRead(t, changing, base, map[string]bool{"server/inner": true, "server": false})
			client.AddRoots(&mcp.Root{URI: fileURI(filepath.Join(base, "server"))})
			wantRead(t, changing, base, map[string]bool{"server/inner": true, "server": true})
			client.RemoveRoots(fileURI(filepath.Join(base, "server")))
			wantRead(t, changing, base, map[string]bool{"server/inner": true, "server": false})
			wantRead(t, session(filepath.Join(base, "server", "inner")), base, map[string]bool{"server/inner": true, "server": false, "proj": true, "client": false})
			cs := session(filepath.Join(base, "client"))
			wantRead(t, cs, base, map[string]bool{"client": false, "server": false, "proj": true})
			if got := readAs(t, cs, base, "client"); !strings.Contains(got, "the MCP client's roots") && !strings.Contains(got, "outside the allowed roots") {
				t.Errorf("refusal: %s", got)
			}
		})
	}
}

func TestRootDir(t *testing.T) {
	for uri, want := range map[string]string{
		"file:///home/me/proj":       "/home/me/proj",
		"file://localhost/srv/x":     "/srv/x",
		"file:///a%20b/c":            "/a b/c",
		"file:///a/../b/":            "/b",
		"FILE:///x":                  "/x",
		"file:///":                   "/",
		"file://otherhost/x":         "",
		"file:relative/x":            "",
		"https://example.com/x":      "",
		"file:///with%00nul":         "",
		"":                           "",
		"not a uri at all \x7f%zz":   "",
		"file://localhost:8080/path": "/path",
	} {
		got, ok := rootDir(uri)
		if ok != (want != "") || got != want {
			t.Errorf("rootDir(%q) = %q, %v; want %q", uri, got, ok, want)
		}
	}
}
