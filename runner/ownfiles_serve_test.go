package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/runner/config"
)

// serverOwnFixture is a working directory (the first root) holding the
// audit log and the stats file of its configuration, with links to them
// and to onetool's executable (the test binary, whose directory is an
// allowed root too, as ~/go/bin is under allowed_dirs: [~]):
//
//	audit.jsonl, stats.jsonl        onetool's own, by configuration
//	audit-sym -> audit.jsonl, exe-sym -> the executable
//	audit-hard, stats-hard          hard links to them
//	exe-hard                        a hard link to the executable, when
//	                                it lies on the same file system
//	src.txt                         a file of the user's
//
// packs.db.databases names each own file and link as a database.
type serverOwnFixture struct {
	work, exe string
	paths     map[string]string // a path programs name → what it reaches
	before    map[string][]byte // content of each own file, to compare after
	dbs       map[string]string // path → its name in packs.db.databases
	cfg       *config.Config
}

func newServerOwnFixture(t *testing.T) *serverOwnFixture {
	t.Helper()
	work, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	t.Setenv("HOME", filepath.Join(work, "home"))
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		t.Fatal(err)
	}
	f := &serverOwnFixture{work: work, exe: exe, paths: map[string]string{}, before: map[string][]byte{}}
	writeAll(t, work, "audit.jsonl", `{"principal":"alice","calls":[{"tool":"web.fetch","args":{"url":"https://intranet/secret-plan"}}]}`+"\n")
	writeAll(t, work, "stats.jsonl", `{"kind":"run","ok":true}`+"\n")
	writeAll(t, work, "src.txt", "the user's file\n")
	writeAll(t, work, "upstream.sh", "#!/bin/sh\nexec an-mcp-server\n")
	writeAll(t, work, "served/notes.txt", "a directory the upstream server serves\n")
	link := func(kind, target, name string) bool {
		p := filepath.Join(work, name)
		var err error
		if kind == "sym" {
			err = os.Symlink(target, p)
		} else {
			err = os.Link(target, p)
		}
		if err != nil {
			t.Logf("no %s link %s: %v", kind, name, err)
			return false
		}
		return true
	}
	f.paths["audit.jsonl"] = "audit log"
	f.paths["stats.jsonl"] = "stats file"
	f.paths[exe] = "executable"
	f.paths["upstream.sh"] = "program of upstream server 'up'"
	for _, l := range []struct{ kind, name, target string }{
		{"sym", "audit-sym", "audit.jsonl"},
		{"sym", "exe-sym", exe},
		{"hard", "audit-hard", "audit.jsonl"},
		{"hard", "stats-hard", "stats.jsonl"},
		{"hard", "exe-hard", exe},
		{"hard", "upstream-hard", "upstream.sh"},
	} {
		target := l.target
		if l.kind == "hard" && !filepath.IsAbs(target) {
			target = filepath.Join(work, target)
		}
		if link(l.kind, target, l.name) {
			f.paths[l.name] = f.paths[l.target]
		}
	}
	for _, p := range []string{"audit.jsonl", "stats.jsonl", "upstream.sh", exe} {
		b, err := os.ReadFile(filepath.Join(work, p))
		if filepath.IsAbs(p) {
			b, err = os.ReadFile(p)
		}
		if err != nil {
			t.Fatal(err)
		}
		f.before[p] = b
	}
	var dbs strings.Builder
	f.dbs = map[string]string{}
	for p := range f.paths {
		f.dbs[p] = fmt.Sprintf("own%d", len(f.dbs))
		fmt.Fprintf(&dbs, "      %s: %q\n", f.dbs[p], "sqlite:"+p)
	}
	yaml := fmt.Sprintf(`serve:
  auth:
    tokens:
      - {name: alice, token: tok-alice-0123456789, policy: dev}
      - {name: bob, token: tok-bob-0123456789, policy: dev}
    audit_log: audit.jsonl
policies:
  dev: {allow: ["*"]}
output: {stats_file: stats.jsonl}
servers:
  up: {command: sh, args: [upstream.sh, --verbose, served], enabled: false}
projects: {w: .}
packs:
  file: {allowed_dirs: [%q]}
  db:
    read_only: false
    databases:
%s`, filepath.Dir(exe), dbs.String())
	writeAll(t, work, "onetool.yaml", yaml)
	f.cfg, err = config.Load(filepath.Join(work, "onetool.yaml"), config.LoadOptions{WorkDir: work, HomeDir: filepath.Join(work, "home"), LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// onetool's own files of a server — its executable, the audit log, the
// stats file, and what its upstream servers run — are refused to every pack however a program names them:
// directly, through a symbolic link, or through a hard link (by identity),
// for reading, writing, copying from and onto, moving from and onto,
// deleting, editing, as a SQLite database, and through proj paths (in the
// server's process, and in a worker, where proj paths are evaluated). The
// files are unchanged afterwards, and nothing of them shows in a listing
// or a search.
func TestServerOwnFilesRefused(t *testing.T) {
	for _, mode := range []string{"in-process", "isolated"} {
		t.Run(mode, func(t *testing.T) {
			f := newServerOwnFixture(t)
			opts := []Option{WithConfig(f.cfg)}
			var r *Runner
			if mode == "isolated" {
				r = isolated(t, Isolation{Workers: 1}, opts...)
			} else {
				r = newRunner(t, opts...)
				t.Cleanup(func() { r.Close() })
			}
			for p, what := range f.paths {
				q := fmt.Sprintf("%q", p)
				for _, code := range []string{
					"file.read(" + q + ")",
					"file.info(" + q + ")",
					"file.write(" + q + `, "x")`,
					"file.write(" + q + `, "x", append=True)`,
					"file.edit(" + q + `, old="a", new="b")`,
					"file.copy(" + q + `, "copied")`,
					`file.copy("src.txt", ` + q + `, overwrite=True)`,
					"file.move(" + q + `, "moved")`,
					`file.move("src.txt", ` + q + `, overwrite=True)`,
					"file.delete(" + q + ")",
					"(proj.w / " + q + ").read_text()",
					`db.query("SELECT 1", db="` + f.dbs[p] + `")`,
					`db.execute("CREATE TABLE t (x)", db="` + f.dbs[p] + `")`,
				} {
					res := r.Exec(context.Background(), code)
					if !errors.Is(res.Err, roots.ErrProtected) || !strings.Contains(res.Text, "onetool's own "+what) {
						t.Errorf("%s = %s, want refused as onetool's own %s", code, res.Text, what)
					}
				}
			}
			for _, code := range []string{
				`file.grep("alice|secret-plan|run", path=".")`,
				`file.list(".")`,
				`file.glob("**", path=".")`,
				`file.tree(".")`,
			} {
				// Links show by their names, as links; the own files do
				// not, and nothing shows their content.
				res := r.Exec(context.Background(), code)
				if res.IsError() {
					t.Errorf("%s: %s", code, res.Text)
				}
				for _, leak := range []string{"alice", "secret-plan", `"ok"`, "an-mcp-server", `"audit.jsonl"`, `"stats.jsonl"`, `"upstream.sh"`, "  audit.jsonl", "  stats.jsonl", "  upstream.sh"} {
					if strings.Contains(res.Text, leak) {
						t.Errorf("%s shows %q: %s", code, leak, res.Text)
					}
				}
			}
			for p, b := range f.before {
				path := p
				if !filepath.IsAbs(p) {
					path = filepath.Join(f.work, p)
				}
				// onetool appends to the stats file itself.
				if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, b) && !(p == "stats.jsonl" && bytes.HasPrefix(got, b)) {
					t.Errorf("%s changed (%v)", p, err)
				}
			}
			// The directory the upstream server is given stays the user's.
			if res := r.Exec(context.Background(), `file.read("served/notes.txt")`); res.IsError() {
				t.Errorf("a file of the served directory: %s", res.Text)
			}
			for _, p := range []string{"copied", "moved"} {
				if _, err := os.Lstat(filepath.Join(f.work, p)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s was created", p)
				}
			}
		})
	}
}

// The paths onetool's executable is known by: its real path and, for a
// bare name found in PATH (or a relative path), where that leads.
func TestExecutablesAreOwn(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	link := filepath.Join(dir, "onetool")
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	args := os.Args
	t.Cleanup(func() { os.Args = args })
	os.Args = []string{"onetool"}
	got := executables()
	if len(got) != 2 || got[0] != exe || got[1] != link {
		t.Errorf("executables() = %v, want [%s %s]", got, exe, link)
	}
	r, err := New(WithConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	own := r.Roots().Own()
	found := 0
	for _, o := range own {
		if o.What == ownExe && (o.Path == exe || o.Path == link) {
			found++
		}
	}
	if found != 2 {
		t.Errorf("own files %v lack the executable's paths", own)
	}
}
