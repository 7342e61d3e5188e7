package runner

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/runner/config"
)

// writeAll writes a file under dir, making its directories.
func writeAll(t *testing.T, dir, name, body string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ownWork makes a working directory with .onetool/onetool.yaml and
// secrets.yaml, makes it the current directory (the first root) with a
// clean HOME, and returns it with a function that loads the configuration
// as `onetool run` does: found, then loaded.
func ownWork(t *testing.T, yaml string) (string, func() *config.Config) {
	t.Helper()
	work, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	// Beside the working directory: one that holds the home directory is
	// never a root by itself (roots.Implicit).
	home := filepath.Join(filepath.Dir(work), "home")
	t.Setenv("HOME", home)
	writeAll(t, work, ".onetool/onetool.yaml", yaml)
	writeAll(t, work, ".onetool/secrets.yaml", "api_token: tok-9a8b7c6d5e\n")
	opts := config.LoadOptions{WorkDir: work, HomeDir: home, LookupEnv: func(string) (string, bool) { return "", false }}
	return work, func() *config.Config {
		t.Helper()
		path, err := config.Find("", opts)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := config.Load(path, opts)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
}

// The reproduction of issue 16: a program writes a command toolpack and
// its script into .onetool/toolpacks/, and a config that allows every
// directory, then reads the secrets. Every step is refused saying why;
// a runner built afterwards from the same configuration has no new tool,
// nothing ran, and its roots are as before.
func TestProgramCannotChangeConfiguration(t *testing.T) {
	work, load := ownWork(t, "limits: {timeout: 20s}\n")
	before, _ := os.ReadFile(filepath.Join(work, ".onetool", "onetool.yaml"))
	r := newRunner(t, WithConfig(load()))
	defer r.Close()
	ran := filepath.Join(work, "ran.txt")
	steps := []string{
		`file.write(".onetool/toolpacks/p.yaml", "id: p.run\ndescription: x\ninput_schema: {type: object}\nexecution: {kind: command, command: [sh, ./p.sh]}\n")`,
		`file.write(".onetool/toolpacks/p.sh", "#!/bin/sh\necho pwned > ` + ran + `\n")`,
		`file.write(".ONETOOL/toolpacks/p.yaml", "x")`,
		`file.write(".onetool/onetool.yaml", "packs: {file: {allowed_dirs: [/]}}\n")`,
		`file.write(".onetool/onetool.yaml", "\npacks: {file: {allowed_dirs: [/]}}\n", append=True)`,
		`file.edit(".onetool/onetool.yaml", old="limits", new="packs: {file: {allowed_dirs: [/]}}\nlimits")`,
		`file.copy("evil.yaml", ".onetool/onetool.yaml", overwrite=True)`,
		`file.move("evil.yaml", ".onetool/onetool.yaml", overwrite=True)`,
		`file.delete(".onetool/onetool.yaml")`,
		`file.read(".onetool/secrets.yaml")`,
		`"".join(reversed(file.read(".onetool/secrets.yaml").elems()))`,
		`file.grep("tok-", path=".onetool")`,
		`[file.read(p) for p in file.glob("**/*.yaml", gitignore=False)]`,
	}
	writeAll(t, work, "evil.yaml", "packs: {file: {allowed_dirs: [/]}}\n")
	for _, code := range steps {
		res := r.Exec(context.Background(), code)
		if strings.Contains(res.Text, "tok-9a8b") || strings.Contains(res.Text, "d6c7b8a9-kot") {
			t.Errorf("%s leaks the secret: %s", code, res.Text)
		}
		if strings.HasPrefix(code, "[file.read(p)") {
			if res.Err != nil || res.Text != `["packs: {file: {allowed_dirs: [/]}}\n"]` {
				t.Errorf("%s = %s: want only evil.yaml found", code, res.Text)
			}
			continue
		}
		if !errors.Is(res.Err, roots.ErrProtected) || !strings.Contains(res.Text, "is onetool's own") && !strings.Contains(res.Text, "is inside onetool's own") {
			t.Errorf("%s = %s, want refused as onetool's own", code, res.Text)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(work, ".onetool", "onetool.yaml")); string(got) != string(before) {
		t.Errorf("onetool.yaml changed: %q", got)
	}
	if _, err := os.Stat(filepath.Join(work, ".onetool", "toolpacks")); !os.IsNotExist(err) {
		t.Errorf(".onetool/toolpacks was created: %v", err)
	}

	// The next start loads the same configuration: nothing new.
	r2 := newRunner(t, WithConfig(load()))
	defer r2.Close()
	if _, ok := r2.Registry().Tool("p.run"); ok {
		t.Error("the planted toolpack was loaded")
	}
	if res := r2.Exec(context.Background(), `p.run()`); res.Err == nil {
		t.Errorf("p.run() ran: %s", res.Text)
	}
	if _, err := os.Stat(ran); !os.IsNotExist(err) {
		t.Error("the planted command ran")
	}
	if dirs := r2.Roots().Dirs(); !slices.Equal(dirs, []string{work}) {
		t.Errorf("roots after the attempts: %v", dirs)
	}
	if res := r2.Exec(context.Background(), `file.read("/etc/hostname")`); !errors.Is(res.Err, roots.ErrOutside) {
		t.Errorf("a path outside the roots after the attempts: %s", res.Text)
	}
}

// Every file the configuration names is onetool's own, wherever it lies:
// a config file given by --config outside any .onetool, its include, the
// secrets file named by --secrets and the one beside the config (even
// absent), configured and default toolpack directories (even absent),
// the stats file, and .onetool of the working and home directories (even
// absent). Each is refused by the runner's roots, naming what it is.
func TestOwnFilesOfTheConfiguration(t *testing.T) {
	work, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	home := filepath.Join(work, "home")
	t.Setenv("HOME", home)
	writeAll(t, work, "conf/onetool.yaml", "include: [inc.yaml]\ntoolpacks: [../tp]\noutput: {stats_file: ../stats.jsonl}\n")
	writeAll(t, work, "conf/inc.yaml", "limits: {timeout: 20s}\n")
	writeAll(t, work, "keys.yaml", "k: v-123456\n")
	writeAll(t, work, "tp/notes.txt", "not a toolpack\n")
	cfg, err := config.Load("conf/onetool.yaml", config.LoadOptions{WorkDir: work, HomeDir: home, SecretsPath: "keys.yaml", LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	// The home directory lies inside the working directory, which is
	// therefore a root only when named (roots.Implicit).
	r := newRunner(t, WithConfig(cfg), WithRoots(work), WithProtected(roots.Own{Path: "hist.txt", What: "REPL history file"}))
	defer r.Close()
	for path, what := range map[string]string{
		"conf/onetool.yaml":        "config file",
		"conf/inc.yaml":            "included config file",
		"keys.yaml":                "secrets file",
		"conf/secrets.yaml":        "secrets file",
		"conf/toolpacks/new.yaml":  "toolpack directory",
		"tp/notes.txt":             "toolpack directory",
		"tp/new.yaml":              "toolpack directory",
		"stats.jsonl":              "stats file",
		".onetool/onetool.yaml":    "configuration directory",
		"home/.onetool/x":          "configuration directory",
		"hist.txt":                 "REPL history file",
		"conf/../conf/onetool.yml": "", // allowed: not a file onetool reads
	} {
		_, err := r.Roots().Resolve(path)
		if what == "" {
			if err != nil {
				t.Errorf("%s: %v", path, err)
			}
			continue
		}
		var pe *roots.ProtectedError
		if !errors.As(err, &pe) || pe.What != what {
			t.Errorf("%s: %v, want refused as the %s", path, err, what)
		}
	}
}

// With isolation: process, a program's proj paths are pathlib Paths in
// the worker, whose I/O is a call to the server's file pack: a config file
// outside any .onetool, which only the server knows as its own, is refused
// there, and the refusal reaches the worker's caller as ErrProtected.
func TestWorkerGetsOwnFiles(t *testing.T) {
	work, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	home := filepath.Join(filepath.Dir(work), "home") // beside: see ownWork
	t.Setenv("HOME", home)
	writeAll(t, work, "conf/onetool.yaml", "projects: {conf: .}\n")
	cfg, err := config.Load("conf/onetool.yaml", config.LoadOptions{WorkDir: work, HomeDir: home, LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, WithConfig(cfg))
	defer r.Close()
	data, err := json.Marshal(r.workerSetup(1))
	if err != nil {
		t.Fatal(err)
	}
	server := poolHost{r}
	e, err := workerEngine(data, func(ctx context.Context, tool string, args any) (any, error) {
		raw, err := json.Marshal(args)
		if err != nil {
			return nil, err
		}
		return server.Call(ctx, tool, raw)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res := e.Run(context.Background(), `(proj.conf / "onetool.yaml").read_text()`, nil, nil)
	if !errors.Is(res.Err, roots.ErrProtected) || !strings.Contains(res.Text, "onetool's own config file") {
		t.Errorf("worker read the config file: %s", res.Text)
	}
}
