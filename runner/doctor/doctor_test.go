package doctor

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	_ "modernc.org/sqlite"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
)

// serverEnv makes the test binary an MCP server on stdio with one tool:
// the working upstream server of these tests.
const serverEnv = "DOCTOR_TEST_MCP_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) != "" {
		s := mcp.NewServer(&mcp.Implementation{Name: "doctor-test", Version: "1"}, nil)
		addEcho(s)
		if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	if runner.IsWorker() {
		os.Exit(runner.WorkerMain())
	}
	os.Exit(m.Run())
}

func addEcho(s *mcp.Server) {
	s.AddTool(&mcp.Tool{Name: "echo", Description: "Echo.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
}

// workingServer is the YAML of a stdio server that answers: this binary.
func workingServer(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return "{command: " + exe + ", args: [-test.run=^$], env: {" + serverEnv + ": '1', GORACE: atexit_sleep_ms=0}, timeout: 20s}"
}

// httpServer serves MCP over streamable HTTP: one that answers, or one
// that takes every request and never answers.
func httpServer(t *testing.T, answers bool) string {
	s := mcp.NewServer(&mcp.Implementation{Name: "doctor-http", Version: "1"}, nil)
	addEcho(s)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	stop := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !answers {
			select {
			case <-r.Context().Done():
			case <-stop:
			}
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { close(stop); ts.Close() })
	return ts.URL
}

// sqliteDB writes a SQLite database with one table at path.
func sqliteDB(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Exec("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)"); err != nil {
		t.Fatal(err)
	}
}

// setup is a directory with a configuration and what it names.
type setup struct {
	yaml  string            // onetool.yaml; $DIR is the directory
	files map[string]string // more files (name → content; "0755:" before the content makes it executable)
	dbs   []string          // SQLite databases to create
	env   map[string]string // the environment ${NAME} sees
}

func (s setup) run(t *testing.T) (Report, string) {
	t.Helper()
	dir := t.TempDir()
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	for name, content := range s.files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := fs.FileMode(0o644)
		if rest, ok := strings.CutPrefix(content, "0755:"); ok {
			content, mode = rest, 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range s.dbs {
		sqliteDB(t, filepath.Join(dir, name))
	}
	cfgFile := filepath.Join(dir, "onetool.yaml")
	if err := os.WriteFile(cfgFile, []byte(strings.ReplaceAll(s.yaml, "$DIR", dir)), 0o644); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(t.TempDir(), "home")
	os.MkdirAll(home, 0o755)
	lookup := func(name string) (string, bool) { v, ok := s.env[name]; return v, ok }
	before := snapshot(t, dir)
	t.Chdir(dir)
	rep := Run(context.Background(), Options{
		Path: cfgFile,
		Load: config.LoadOptions{WorkDir: dir, HomeDir: home, LookupEnv: lookup},
		Build: func(cfg *config.Config) (*runner.Runner, error) {
			return runner.New(runner.WithConfig(cfg), runner.WithLimits(runner.ConfigLimits(cfg, runner.DefaultLimits())))
		},
	})
	// A check never writes: not a database, not a journal, not a directory.
	if after := snapshot(t, dir); !slices.Equal(before, after) {
		t.Errorf("the checks changed the directory:\nbefore: %q\nafter:  %q", before, after)
	}
	return rep, dir
}

// snapshot lists every file under dir with its size and time.
func snapshot(t *testing.T, dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, fmt.Sprint(p, " ", fi.Mode(), " ", fi.ModTime(), " ", fi.Size()))
		return nil
	})
	return out
}

// texts are the lines of findings, $DIR for the directory.
func texts(list []Finding, dir string) []string {
	var out []string
	for _, f := range list {
		out = append(out, strings.ReplaceAll(f.Text, dir, "$DIR"))
	}
	return out
}

func TestChecks(t *testing.T) {
	tests := []struct {
		name   string
		setup  setup
		bad    []string // each a whole problem line ($DIR for the directory)
		passed []string // each a whole passed line
	}{
		{
			name:   "a SQLite database that opens read-only",
			setup:  setup{yaml: "packs:\n  db:\n    databases:\n      main: sqlite:data/app.db\n", dbs: []string{"data/app.db"}},
			passed: []string{"packs.db.databases.main: $DIR/data/app.db opens read-only (1 table)"},
		},
		{
			name:  "a missing SQLite file",
			setup: setup{yaml: "packs:\n  db:\n    databases:\n      main: sqlite:nope.db\n"},
			bad:   []string{"onetool.yaml:4: packs.db.databases.main: $DIR/nope.db does not exist; fix the path (relative paths start at the directory of the configuration file): a read-only db pack never creates a database"},
		},
		{
			name:   "a missing SQLite file of a writable pack is created at first use, and not by the check",
			setup:  setup{yaml: "packs:\n  db:\n    read_only: false\n    databases:\n      main: sqlite:new.db\n"},
			passed: []string{"packs.db.databases.main: $DIR/new.db does not exist yet: the db pack creates it at first use (packs.db.read_only is false)"},
		},
		{
			name:  "a SQLite file inside .onetool/",
			setup: setup{yaml: "packs:\n  db:\n    databases:\n      main: sqlite:.onetool/app.db\n", dbs: []string{".onetool/app.db"}},
			bad:   []string{"onetool.yaml:4: packs.db.databases.main: $DIR/.onetool/app.db is inside onetool's own configuration directory ($DIR/.onetool), which programs can never reach; keep databases out of them: move the file and fix the path"},
		},
		{
			name:  "a file that is not a database",
			setup: setup{yaml: "packs:\n  db:\n    databases:\n      notes: notes.db\n", files: map[string]string{"notes.db": "not a database at all, but long enough to be read as a header"}},
			bad:   []string{"onetool.yaml:4: packs.db.databases.notes: cannot be opened read-only: file is not a database; fix the URL or the file, or give onetool's user access to it"},
		},
		{
			name:   "an in-memory database",
			setup:  setup{yaml: "packs:\n  db:\n    databases:\n      scratch: 'sqlite::memory:'\n"},
			passed: []string{"packs.db.databases.scratch: SQLite in memory"},
		},
		{
			name:   "a disabled db pack is not checked",
			setup:  setup{yaml: "packs:\n  db:\n    enabled: false\n    databases:\n      main: sqlite:nope.db\n"},
			passed: []string{"secrets: every ${NAME} is defined"},
		},
		{
			name: "projects: one that exists, one missing, one inside .onetool/, one a file",
			setup: setup{
				yaml:  "projects:\n  api: api\n  docs: docs\n  inner: .onetool/work\n  notes: notes.txt\n",
				files: map[string]string{"api/main.go": "package main", ".onetool/work/x": "x", "notes.txt": "x"},
			},
			bad: []string{
				"onetool.yaml:3: projects.docs: $DIR/docs does not exist; create it, or fix the path",
				"onetool.yaml:4: projects.inner: $DIR/.onetool/work is inside onetool's own configuration directory ($DIR/.onetool), which programs can never reach; move the project out of it and fix the path",
				"onetool.yaml:5: projects.notes: $DIR/notes.txt is not a directory; a project is a directory: fix the path",
			},
			passed: []string{"projects.api: $DIR/api"},
		},
		{
			name: "server commands: not on PATH, not executable, missing, a bad cwd, and one found",
			setup: setup{
				yaml: "servers:\n  gone: {command: no-such-program-for-doctor}\n  plain: {command: ./plain.sh}\n  lost: {command: bin/lost.sh}\n" +
					"  moved: {command: ./run.sh, cwd: elsewhere}\n  off: {command: no-such-program-either, enabled: false}\n",
				files: map[string]string{"plain.sh": "#!/bin/sh\n"},
			},
			bad: []string{
				"onetool.yaml:2: servers.gone.command: 'no-such-program-for-doctor' is not found in PATH; install it, or give its full path",
				"onetool.yaml:3: servers.plain.command: $DIR/plain.sh is not executable; chmod +x $DIR/plain.sh",
				"onetool.yaml:4: servers.lost.command: $DIR/bin/lost.sh does not exist; fix the path (a relative one starts at the server's cwd, else the directory onetool starts in)",
				"onetool.yaml:5: servers.moved.command: $DIR/elsewhere/run.sh does not exist; fix the path (a relative one starts at the server's cwd, else the directory onetool starts in)",
				"onetool.yaml:5: servers.moved.cwd: $DIR/elsewhere does not exist; create it, or fix the path",
			},
		},
		{
			name: "a stdio server that never answers initialize, within its timeout",
			setup: setup{
				yaml:  "servers:\n  mute:\n    command: ./mute.sh\n    timeout: 300ms\n",
				files: map[string]string{"mute.sh": "0755:#!/bin/sh\nwhile read -r line; do :; done\n"},
			},
			bad:    []string{"onetool.yaml:2: servers.mute: no answer to MCP initialize within 300ms; run the command by hand to see what it prints, or raise servers.mute.timeout"},
			passed: []string{"servers.mute.command: $DIR/mute.sh"},
		},
		{
			name: "a stdio server that exits at start says why",
			setup: setup{
				yaml:  "servers:\n  dies:\n    command: ./dies.sh\n",
				files: map[string]string{"dies.sh": "0755:#!/bin/sh\necho 'missing API key' >&2\nexit 3\n"},
			},
			bad: []string{"onetool.yaml:2: servers.dies: did not answer MCP initialize: the server process exited during start-up (exit status 3); stderr: missing API key; run the command by hand to see what it prints"},
		},
		{
			name: "a working stdio server",
			setup: setup{
				yaml: "servers:\n  echo: WORKING\n",
			},
			passed: []string{"servers.echo: answered initialize (1 tool)"},
		},
		{
			name:   "a working HTTP server",
			setup:  setup{yaml: "servers:\n  remote:\n    url: HTTP_OK\n"},
			passed: []string{"servers.remote: answered initialize (1 tool)"},
		},
		{
			name:  "an HTTP server that never answers",
			setup: setup{yaml: "servers:\n  remote:\n    url: HTTP_MUTE\n    timeout: 300ms\n"},
			bad:   []string{"onetool.yaml:2: servers.remote: no answer to MCP initialize within 300ms; check the URL, the headers and that the server is up, or raise servers.remote.timeout"},
		},
		{
			name:  "a server that a local pack shadows is never started",
			setup: setup{yaml: "servers:\n  web:\n    url: HTTP_OK\n"},
			bad:   []string{"onetool.yaml:2: servers.web: a local pack (built in, or a toolpack's) is named 'web' and wins, so this server is never started; rename the server"},
		},
		{
			name: "an unset secret is reported with the rest, and nothing else at its key",
			setup: setup{
				yaml: "projects:\n  docs: docs\nservers:\n  gh:\n    url: HTTP_MUTE\n    headers: {Authorization: 'Bearer ${GH_TOKEN}'}\n    timeout: 300ms\n" +
					"packs:\n  db:\n    databases:\n      main: ${DB_URL}\n",
			},
			bad: []string{
				"onetool.yaml:2: projects.docs: $DIR/docs does not exist; create it, or fix the path",
				"onetool.yaml:6: servers.gh.headers.Authorization: variable ${GH_TOKEN} is not set: define it in secrets.yaml or the environment, or give a default: ${GH_TOKEN:-value}",
				"onetool.yaml:11: packs.db.databases.main: variable ${DB_URL} is not set: define it in secrets.yaml or the environment, or give a default: ${DB_URL:-value}",
			},
		},
		{
			name: "an unset URL gets a stand-in that reads as one, so the rest is still checked",
			setup: setup{
				yaml: "servers:\n  remote:\n    url: ${MCP_URL}\nprojects:\n  docs: docs\n",
			},
			bad: []string{
				"onetool.yaml:3: servers.remote.url: variable ${MCP_URL} is not set: define it in secrets.yaml or the environment, or give a default: ${MCP_URL:-value}",
				"onetool.yaml:5: projects.docs: $DIR/docs does not exist; create it, or fix the path",
			},
		},
		{
			name: "where no stand-in fits, the unset variable is what is reported",
			setup: setup{
				yaml: "serve:\n  log_level: ${LEVEL}\nprojects:\n  docs: docs\n",
			},
			bad: []string{
				"onetool.yaml:2: serve.log_level: variable ${LEVEL} is not set: define it in secrets.yaml or the environment, or give a default: ${LEVEL:-value}",
			},
		},
		{
			name: "a problem of the configuration itself is reported with the checks",
			setup: setup{
				yaml: "aliases:\n  ws: demo.fooo\nprojects:\n  docs: docs\n",
			},
			bad: []string{
				"onetool.yaml:2: aliases.ws: alias 'ws': target 'demo.fooo' is not a tool; did you mean 'demo.foo'?",
				"onetool.yaml:4: projects.docs: $DIR/docs does not exist; create it, or fix the path",
			},
		},
		{
			name: "a project path from a secret is never shown",
			setup: setup{
				yaml:  "projects:\n  p: ${SECRET_DIR}\n",
				files: map[string]string{"secrets.yaml": "SECRET_DIR: /nowhere/hidden-by-secret\n"},
			},
			bad: []string{"onetool.yaml:2: projects.p: [secret:SECRET_DIR] does not exist; create it, or fix the path"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.setup.yaml = strings.NewReplacer("WORKING", workingServer(t), "HTTP_OK", httpServer(t, true), "HTTP_MUTE", httpServer(t, false)).Replace(tc.setup.yaml)
			rep, dir := tc.setup.run(t)
			bad, passed := texts(rep.Problems, dir), texts(rep.Passed, dir)
			if tc.bad == nil {
				tc.bad = []string{}
			}
			if bad == nil {
				bad = []string{}
			}
			if !slices.Equal(bad, tc.bad) {
				t.Errorf("problems:\n  %s\nwant:\n  %s", strings.Join(bad, "\n  "), strings.Join(tc.bad, "\n  "))
			}
			for _, want := range tc.passed {
				if !slices.Contains(passed, want) {
					t.Errorf("missing passed check %q; passed:\n  %s", want, strings.Join(passed, "\n  "))
				}
			}
		})
	}
}

// A configuration that cannot be read reports its problems alone: the
// checks need a configuration.
func TestUnreadableConfigurationStopsThere(t *testing.T) {
	rep, _ := setup{yaml: "projects:\n\t- docs\n"}.run(t)
	if len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0].Text, "tab") || len(rep.Passed) != 0 {
		t.Errorf("got problems %q, passed %q", texts(rep.Problems, ""), texts(rep.Passed, ""))
	}
}

// Servers are asked at once: four that never answer, each given 1s,
// take about a second together, not four.
func TestServersAreCheckedInParallel(t *testing.T) {
	var y strings.Builder
	y.WriteString("servers:\n")
	for _, n := range []string{"a", "b", "c", "d"} {
		y.WriteString("  " + n + ": {command: ./mute.sh, timeout: 1s}\n")
	}
	start := time.Now()
	rep, _ := setup{yaml: y.String(), files: map[string]string{"mute.sh": "0755:#!/bin/sh\nwhile read -r line; do :; done\n"}}.run(t)
	elapsed := time.Since(start)
	if len(rep.Problems) != 4 {
		t.Fatalf("want 4 problems, got %q", texts(rep.Problems, ""))
	}
	if elapsed > 3500*time.Millisecond {
		t.Errorf("took %s: the servers were not checked in parallel", elapsed)
	}
}

// Summary counts the problems, or the checks passed.
func TestSummary(t *testing.T) {
	for _, tc := range []struct {
		rep  Report
		want string
	}{
		{Report{Problems: make([]Finding, 3)}, "3 problems found"},
		{Report{Problems: make([]Finding, 1)}, "1 problem found"},
		{Report{Passed: make([]Finding, 5)}, "no problems found (5 checks passed)"},
	} {
		if got := tc.rep.Summary(); got != tc.want {
			t.Errorf("Summary() = %q, want %q", got, tc.want)
		}
	}
}
