package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
)

// Issue 31, item 4: the run tool's description names the roots and the
// databases that open(), os, pathlib and sqlite3 reach, as a client lists
// it.
func TestDescriptionNamesRootsAndDatabases(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	os.Mkdir(data, 0o755)
	yaml := "packs:\n  db:\n    databases:\n      shop: sqlite:shop.db\n      logs: sqlite:logs.db\n"
	if err := os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(filepath.Join(dir, "onetool.yaml"), config.LoadOptions{WorkDir: dir, HomeDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, protocolVersions[0], Options{}, runner.WithConfig(cfg), runner.WithRoots(data))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	desc := res.Tools[0].Description
	want := "within the allowed roots (" + data + "), hosts and databases (logs, shop)."
	if !strings.Contains(desc, want) {
		t.Errorf("description %q\nlacks %q", desc, want)
	}

	// Without databases it says so rather than leaving an agent to guess.
	cs, _ = connect(t, protocolVersions[0], Options{}, runner.WithRoots(data))
	if res, err = cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if desc := res.Tools[0].Description; !strings.Contains(desc, "databases (none).") {
		t.Errorf("description %q does not say there is no database", desc)
	}
}

func TestShowDirs(t *testing.T) {
	for _, c := range []struct {
		dirs []string
		want string
	}{
		{nil, "none"},
		{[]string{"/w/proj"}, "."}, // the working directory, where relative paths start
		{[]string{"/srv/a", "/w/proj"}, "/srv/a, /w/proj"},           // "." only for the first root
		{[]string{"/home/u"}, "~"},                                   // the home directory
		{[]string{"/home/u/src/x", "/home/uv"}, "~/src/x, /home/uv"}, // a sibling is not under home
		{[]string{"/a", "/b", "/c", "/d", "/e"}, "/a, /b, /c, +2 more"},
	} {
		if got := showDirs(c.dirs, "/w/proj", "/home/u"); got != c.want {
			t.Errorf("showDirs(%q) = %q, want %q", c.dirs, got, c.want)
		}
	}
}
