package file

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/roots"
)

// TestRunRoots: a run whose context carries roots of its own (an MCP
// session's) is confined to them, not to those the pack was built with;
// relative paths start at the run's first root; runs without roots keep
// the pack's; onetool's own files stay refused.
func TestRunRoots(t *testing.T) {
	e := newEnv(t, Options{Backups: true})
	e.files(map[string]string{"server.txt": "server"})
	client := filepath.Join(e.tmp, "client")
	if err := os.MkdirAll(filepath.Join(client, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(client, "sub", "c.txt"), []byte("client\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cr, err := roots.New(client)
	if err != nil {
		t.Fatal(err)
	}
	own, err := roots.New(e.root)
	if err != nil {
		t.Fatal(err)
	}
	own, err = own.Protect(roots.Own{Path: filepath.Join(client, "secrets.yaml"), What: "secrets file"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := roots.NewContext(context.Background(), own.WithDirs(cr))

	if v, err := e.callCtx(ctx, "read", map[string]any{"path": "sub/c.txt"}); err != nil || !strings.Contains(v.(string), "client") {
		t.Errorf("relative path in the run's root: %v %v", v, err)
	}
	if v, err := e.callCtx(ctx, "list", map[string]any{"path": "."}); err != nil || !strings.Contains(strings.Join(strs(t, v), ","), "sub/") {
		t.Errorf("list of the run's root: %v %v", v, err)
	}
	_, err = e.callCtx(ctx, "read", map[string]any{"path": filepath.Join(e.root, "server.txt")})
	if !errors.Is(err, roots.ErrOutside) || !strings.Contains(err.Error(), client) {
		t.Errorf("the pack's root is outside the run's: %v", err)
	}
	if _, err := e.callCtx(ctx, "write", map[string]any{"path": "secrets.yaml", "content": "x"}); !errors.Is(err, roots.ErrProtected) {
		t.Errorf("own file under the run's root: %v", err)
	}
	if v, err := e.callCtx(ctx, "write", map[string]any{"path": "sub/c.txt", "content": "new"}); err != nil || !strings.Contains(v.(string), "backup: .onetool/backups/") {
		t.Errorf("write in the run's root, with its backup shown relative to it: %v %v", v, err)
	}
	// A run without roots of its own: the pack's.
	if _, err := e.call("read", map[string]any{"path": "server.txt"}); err != nil {
		t.Errorf("the pack's roots: %v", err)
	}
	if _, err := e.call("read", map[string]any{"path": filepath.Join(client, "sub", "c.txt")}); !errors.Is(err, roots.ErrOutside) {
		t.Errorf("another run's roots leaked: %v", err)
	}
}

// TestNoRoot: with no root at all (onetool started in / or the home
// directory), every tool refuses every path and says how to set a root.
func TestNoRoot(t *testing.T) {
	e := newEnv(t, Options{Backups: true, Roots: roots.None("/", roots.Implicit("/", ""))})
	for tool, args := range map[string]map[string]any{
		"read":   {"path": "etc/passwd"},
		"write":  {"path": "x.txt", "content": "x"},
		"list":   {"path": "."},
		"tree":   {"path": "/"},
		"glob":   {"pattern": "**/*.go"},
		"grep":   {"pattern": "x"},
		"info":   {"path": "/etc"},
		"copy":   {"src": "/etc/hosts", "dst": "/tmp/h"},
		"move":   {"src": "/etc/hosts", "dst": "/tmp/h"},
		"delete": {"path": "/tmp/x"},
		"edit":   {"path": "/etc/hosts", "old": "a", "new": "b"},
	} {
		err := e.fails(tool, args, "no root directory is set: onetool was started in /", "--root DIR", "packs.file.allowed_dirs", "MCP client's roots")
		if !errors.Is(err, roots.ErrNoRoot) {
			t.Errorf("%s: %v is not ErrNoRoot", tool, err)
		}
	}
}

// BenchmarkRunRoots measures what a run's own roots add to a file call:
// the context lookup and a copy of the pack's state (file.info on a small
// file, the cheapest call that touches the disk).
func BenchmarkRunRoots(b *testing.B) {
	dir, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a"), 0o644)
	def, err := roots.New(dir)
	if err != nil {
		b.Fatal(err)
	}
	run, err := roots.New(dir)
	if err != nil {
		b.Fatal(err)
	}
	reg := packs.NewRegistry()
	if err := Register(reg, Options{Roots: def}); err != nil {
		b.Fatal(err)
	}
	info, _ := reg.Tool("file.info")
	args := []packs.NamedArg{{Name: "path", Value: "a.txt"}}
	for name, ctx := range map[string]context.Context{
		"pack-roots": context.Background(),
		"run-roots":  roots.NewContext(context.Background(), run),
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := packs.Call(ctx, info, nil, args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
