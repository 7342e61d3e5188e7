package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/runner/config"
)

// TestNoImplicitRoot: started in / (as desktop MCP clients start their
// servers) or in the home directory, with no root configured, file
// access (the file pack, proj paths) is refused with a message that says
// how to set a root; --root (WithRoots), allowed_dirs and projects still
// work there, / and the home directory included when named.
func TestNoImplicitRoot(t *testing.T) {
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(home, "proj")
	writeAll(t, home, "proj/notes.txt", "in the project\n")
	writeAll(t, home, "diary.txt", "private\n")
	t.Setenv("HOME", home)

	refused := func(t *testing.T, r *Runner, code string, where string) {
		t.Helper()
		res := r.Exec(context.Background(), code)
		for _, want := range []string{"Error: line 1: ", "no root directory is set: onetool was started in " + where, "--root DIR", "packs.file.allowed_dirs", "MCP client's roots"} {
			if !strings.Contains(res.Text, want) {
				t.Errorf("%s: %q lacks %q", code, res.Text, want)
			}
		}
	}
	for _, c := range []struct{ wd, where string }{
		{"/", "/ (the whole disk"},
		{home, "your home directory " + home},
		{filepath.Dir(home), filepath.Dir(home) + ", which holds your home directory"},
	} {
		t.Run(c.wd, func(t *testing.T) {
			t.Chdir(c.wd)
			r := newRunner(t)
			defer r.Close()
			for _, code := range []string{`file.read("diary.txt")`, `file.read("` + filepath.Join(home, "diary.txt") + `")`, `file.list(".")`, `file.write("x.txt", "x")`, `file.glob("**/*.txt")`} {
				refused(t, r, code, c.where)
			}
			if _, err := os.Stat(filepath.Join(c.wd, "x.txt")); err == nil {
				t.Error("a refused write wrote")
			}

			// Named roots work: --root, allowed_dirs, a project; / and the
			// home directory too when named.
			cfg := config.Default()
			cfg.Projects["p"] = proj
			for name, opts := range map[string][]Option{
				"--root":       {WithRoots(proj)},
				"--root home":  {WithRoots(home)},
				"--root /":     {WithRoots("/")},
				"project":      {WithConfig(cfg)},
				"allowed_dirs": {WithConfig(allowedDirs(proj))},
			} {
				r := newRunner(t, opts...)
				if res := r.Exec(context.Background(), `file.read("`+filepath.Join(proj, "notes.txt")+`")`); res.IsError() || !strings.Contains(res.Text, "in the project") {
					t.Errorf("%s: %s", name, res.Text)
				}
				r.Close()
			}
			// Relative paths start at the first named root.
			r = newRunner(t, WithRoots(proj))
			if res := r.Exec(context.Background(), `file.read("notes.txt")`); !strings.Contains(res.Text, "in the project") {
				t.Errorf("relative to --root: %s", res.Text)
			}
			if res := r.Exec(context.Background(), `file.read("../diary.txt")`); !strings.Contains(res.Text, "outside the allowed roots") {
				t.Errorf("--root keeps the rest out: %s", res.Text)
			}
			r.Close()
			// A project path and its IO.
			r = newRunner(t, WithConfig(cfg))
			if res := r.Exec(context.Background(), `(proj.p / "notes.txt").read_text()`); !strings.Contains(res.Text, "in the project") {
				t.Errorf("project path: %s", res.Text)
			}
			if res := r.Exec(context.Background(), `(proj.p / ".." / "diary.txt").read_text()`); !strings.Contains(res.Text, "outside the allowed roots") {
				t.Errorf("project path leaving it: %s", res.Text)
			}
			r.Close()
		})
	}
}

// TestNoImplicitRootIsolated: the same refusal under isolation: process,
// where proj paths are resolved in the worker (started in / too) and
// file tools in the server.
func TestNoImplicitRootIsolated(t *testing.T) {
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeAll(t, home, "proj/notes.txt", "in the project\n")
	t.Setenv("HOME", home)
	t.Chdir("/")
	cfg := config.Default()
	cfg.Projects["p"] = filepath.Join(home, "proj")
	bare := newRunner(t, WithIsolation(Isolation{Workers: 1}))
	defer bare.Close()
	for _, code := range []string{`file.read("etc/hostname")`, `file.glob("**/*.conf", path="/etc")`} {
		if got := bare.Exec(context.Background(), code).Text; !strings.Contains(got, "no root directory is set: onetool was started in / (the whole disk") {
			t.Errorf("%s = %q", code, got)
		}
	}
	// With a project, the project is the one root; relative paths start there.
	r := newRunner(t, WithConfig(cfg), WithIsolation(Isolation{Workers: 1}))
	defer r.Close()
	for code, want := range map[string]string{
		`file.read("notes.txt")`:                                        "in the project",
		`file.read("/etc/hostname")`:                                    "outside the allowed roots: " + filepath.Join(home, "proj"),
		`(proj.p / "notes.txt").read_text()`:                            "in the project",
		`(proj.p / ".." / ".." ).list()`:                                "outside the allowed roots",
		`file.read("` + filepath.Join(home, "proj", "notes.txt") + `")`: "in the project",
	} {
		if got := r.Exec(context.Background(), code).Text; !strings.Contains(got, want) {
			t.Errorf("%s = %q, want %q", code, got, want)
		}
	}
}

// TestBackupFloodProgram: the attack as a program sends it — destroy a
// file, then overwrite another 201 times — leaves the destroyed file's
// backup in place, in process and under isolation.
func TestBackupFloodProgram(t *testing.T) {
	for _, isolated := range []bool{false, true} {
		dir, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		writeAll(t, dir, "victim.txt", "precious\n")
		opts := []Option{WithRoots(dir)}
		if isolated {
			opts = append(opts, WithIsolation(Isolation{Workers: 1}))
		}
		r := newRunner(t, opts...)
		res := r.Exec(context.Background(), `
file.write("victim.txt", "gone")
for i in range(201):
    file.write("dummy.txt", str(i))
"flooded"`)
		r.Close()
		if res.Text != "flooded" {
			t.Fatalf("isolated %v: %s", isolated, res.Text)
		}
		found := 0
		filepath.WalkDir(filepath.Join(dir, ".onetool", "backups"), func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Name() == "victim.txt" {
				if b, _ := os.ReadFile(p); string(b) == "precious\n" {
					found++
				}
			}
			return nil
		})
		if found != 1 {
			t.Errorf("isolated %v: %d backups of the destroyed file, want 1", isolated, found)
		}
	}
}

func allowedDirs(dirs ...string) *config.Config {
	cfg := config.Default()
	cfg.Packs["file"] = &config.Pack{AllowedDirs: dirs}
	return cfg
}

// TestClientRoots: an MCP session's roots replace --root and the working
// directory for its runs (the file pack, proj paths); projects and
// allowed_dirs stay; onetool's own files stay refused; narrowed (a client
// over HTTP), they keep only what lies inside the server's roots. In
// process and under isolation.
func TestClientRoots(t *testing.T) {
	for _, isolated := range []bool{false, true} {
		name := "in-process"
		if isolated {
			name = "isolated"
		}
		t.Run(name, func(t *testing.T) {
			base, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			server, client, proj, other := filepath.Join(base, "server"), filepath.Join(base, "client"), filepath.Join(base, "proj"), filepath.Join(base, "other")
			writeAll(t, server, "s.txt", "server file\n")
			writeAll(t, client, "c.txt", "client file\n")
			writeAll(t, client, "secrets.yaml", "k: v\n")
			writeAll(t, proj, "p.txt", "project file\n")
			writeAll(t, other, "o.txt", "other file\n")
			cfg := config.Default()
			cfg.Projects["p"] = proj
			cfg.Packs["file"] = &config.Pack{AllowedDirs: []string{other}}
			opts := []Option{WithConfig(cfg), WithRoots(server), WithProtected(roots.Own{Path: filepath.Join(client, "secrets.yaml"), What: "secrets file"})}
			if isolated {
				opts = append(opts, WithIsolation(Isolation{Workers: 1}))
			}
			r := newRunner(t, opts...)
			defer r.Close()

			session, err := r.ClientRoots([]string{client}, false)
			if err != nil {
				t.Fatal(err)
			}
			run := func(rr *roots.Roots, code string) string {
				t.Helper()
				return r.Exec(context.Background(), code, RunRoots(rr)).Text
			}
			for code, want := range map[string]string{
				`file.read("c.txt")`:                                                                   "client file", // relative to the client's first root
				`parallel([call(file.read, path="c.txt")])[0]`:                                         "client file",
				`plan([{"tool": "file.read", "args": {"path": "c.txt"}}])[0]["data"]`:                  "client file",
				`file.read.map([{"path": "` + filepath.Join(server, "s.txt") + `"}], errors="return")`: "outside the allowed roots",
				`file.read("` + filepath.Join(proj, "p.txt") + `")`:                                    "project file",
				`file.read("` + filepath.Join(other, "o.txt") + `")`:                                   "other file",
				`file.read("` + filepath.Join(server, "s.txt") + `")`:                                  "outside the allowed roots",
				`file.read("secrets.yaml")`:                                                            "onetool's own secrets file",
				`(proj.p / "p.txt").read_text()`:                                                       "project file",
				`(proj.p / ".." / "client" / "c.txt").read_text()`:                                     "client file",
				`(proj.p / ".." / "server" / "s.txt").read_text()`:                                     "outside the allowed roots",
				`(proj.p / ".." / "client" / "secrets.yaml").exists()`:                                 "onetool's own secrets file",
			} {
				if got := run(session, code); !strings.Contains(got, want) {
					t.Errorf("session: %s = %q, want %q", code, got, want)
				}
			}
			// Runs without the session's roots keep the runner's.
			if got := r.Exec(context.Background(), `file.read("s.txt")`).Text; !strings.Contains(got, "server file") {
				t.Errorf("runner's roots: %q", got)
			}
			if got := r.Exec(context.Background(), `file.read("`+filepath.Join(client, "c.txt")+`")`).Text; !strings.Contains(got, "outside the allowed roots") {
				t.Errorf("a session's roots leaked into another run: %q", got)
			}
			// A client with no roots: the runner's.
			if none, _ := r.ClientRoots(nil, false); none != r.Roots() {
				t.Error("no client roots should mean the runner's")
			}
			// The client's / is its explicit choice; own files still refused.
			all, err := r.ClientRoots([]string{"/"}, false)
			if err != nil {
				t.Fatal(err)
			}
			if got := run(all, `file.read("`+filepath.Join(server, "s.txt")+`")`); !strings.Contains(got, "server file") {
				t.Errorf("client root /: %q", got)
			}
			if got := run(all, `file.read("`+filepath.Join(client, "secrets.yaml")+`")`); !strings.Contains(got, "onetool's own") {
				t.Errorf("client root / and an own file: %q", got)
			}
			// Narrowed: / becomes the server's roots; a narrower root stays;
			// a root elsewhere gives only the projects and allowed_dirs.
			wide, err := r.ClientRoots([]string{"/"}, true)
			if err != nil {
				t.Fatal(err)
			}
			if got := run(wide, `file.read("/etc/hostname")`); !strings.Contains(got, "outside the allowed roots") {
				t.Errorf("narrowed /: %q", got)
			}
			if got := run(wide, `file.read("`+filepath.Join(server, "s.txt")+`")`); !strings.Contains(got, "server file") {
				t.Errorf("narrowed / keeps the server's roots: %q", got)
			}
			elsewhere, err := r.ClientRoots([]string{client}, true)
			if err != nil {
				t.Fatal(err)
			}
			if got := run(elsewhere, `file.read("`+filepath.Join(client, "c.txt")+`")`); !strings.Contains(got, "outside the allowed roots") {
				t.Errorf("narrowed, a client root outside the server's: %q", got)
			}
			if got := run(elsewhere, `file.read("`+filepath.Join(proj, "p.txt")+`")`); !strings.Contains(got, "project file") {
				t.Errorf("narrowed keeps the projects: %q", got)
			}
		})
	}
}

// TestClientRootsOutsideEverything: a narrowed client whose roots all lie
// outside a server that has no project or allowed_dirs gets no root at
// all, and the refusal says why.
func TestClientRootsOutsideEverything(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, WithRoots(filepath.Join(base, "server")))
	defer r.Close()
	rr, err := r.ClientRoots([]string{filepath.Join(base, "client")}, true)
	if err != nil {
		t.Fatal(err)
	}
	got := r.Exec(context.Background(), `file.read("c.txt")`, RunRoots(rr)).Text
	for _, want := range []string{"no root directory is set", "the MCP client's roots (" + filepath.Join(base, "client") + ") lie outside the roots this server allows (" + filepath.Join(base, "server") + ")"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
}

// TestFileSettings: packs.file.backups_* are read, and a wrong one is a
// configuration error at its key.
func TestFileSettings(t *testing.T) {
	cfg := config.Default()
	cfg.Packs["file"] = &config.Pack{Settings: map[string]any{"backups_versions": int64(-2), "backup_keep_for": "1h"}}
	_, err := New(WithConfig(cfg))
	if err == nil {
		t.Fatal("bad settings accepted")
	}
	for _, want := range []string{"packs.file.backups_versions: want a number of versions from 0 to 1000, got -2", "packs.file.backup_keep_for: unknown setting: did you mean backups_keep_for?"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v lacks %q", err, want)
		}
	}
	cfg.Packs["file"] = &config.Pack{Settings: map[string]any{"backups_versions": int64(2), "backups_keep_for": "1h", "backups_max_size": "10MiB"}}
	r := newRunner(t, WithConfig(cfg))
	defer r.Close()
	tool, _ := r.Registry().Tool("file.write")
	if !strings.Contains(tool.Description, "younger than 1 hour, and the last 2 of each file") {
		t.Errorf("file.write's description: %s", tool.Description)
	}
}
