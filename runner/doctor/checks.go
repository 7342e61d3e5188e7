package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs/builtin/db"
	"github.com/onetool-dev/onetool/packs/mcpclient"
	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
)

// projects checks every project directory: it exists, is a directory
// onetool can list, and is not one of onetool's own files.
func (c *checker) projects() {
	for _, name := range slices.Sorted(maps.Keys(c.cfg.Projects)) {
		key := "projects." + name
		dir := c.cfg.Projects[name]
		if c.own(key, dir, "move the project out of it and fix the path") {
			continue
		}
		fi, err := os.Stat(dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			c.problem(key, "%s does not exist; create it, or fix the path", dir)
			continue
		case err != nil:
			c.problem(key, "cannot read %s: %v; give onetool's user access to it, or fix the path", dir, cause(err))
			continue
		case !fi.IsDir():
			c.problem(key, "%s is not a directory; a project is a directory: fix the path", dir)
			continue
		}
		f, err := os.Open(dir)
		if err != nil {
			c.problem(key, "cannot read %s: %v; give onetool's user access to it, or fix the path", dir, cause(err))
			continue
		}
		f.Close()
		c.ok(key, "%s", dir)
	}
}

// own reports, as a problem at key, a path that is one of onetool's own
// files or lies inside one (any .onetool directory, the configuration,
// the secrets, toolpacks, the programs of servers): no program, and no
// pack, may reach it. fix says what to do.
func (c *checker) own(key, path, fix string) bool {
	r := c.roots
	if r == nil {
		r = roots.None(c.cfg.Dir, "") // knows .onetool directories by name
	}
	paths := []string{path}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		paths = append(paths, real)
	}
	for _, p := range paths {
		var pe *roots.ProtectedError
		if errors.As(r.CheckPath(p, p), &pe) {
			rel := "is inside"
			if pe.How == roots.OwnIs || pe.How == roots.OwnAlias {
				rel = "is"
			}
			c.problem(key, "%s %s onetool's own %s (%s), which programs can never reach; %s", path, rel, pe.What, pe.Own, fix)
			return true
		}
	}
	return false
}

// databases checks every database of packs.db.databases by opening it
// read-only through the db pack, as a call would, and listing its tables.
// A SQLite file must exist (unless the pack may write: then it is created
// at first use), be a file, and not be one of onetool's own.
func (c *checker) databases(ctx context.Context) {
	if !c.cfg.PackEnabled("db") {
		return
	}
	var settings map[string]any
	pk := c.cfg.Packs["db"]
	if pk != nil {
		settings = pk.Settings
	}
	o, err := db.ParseSettings(settings, c.cfg.Dir)
	if err != nil || len(o.Databases) == 0 {
		return // the runner reports a bad setting; nothing configured is no problem
	}
	writable := !o.ReadOnly
	if pk != nil && pk.ReadOnly != nil {
		writable = !*pk.ReadOnly
	}
	// A check never writes, whatever the configuration allows. Every
	// directory is a root: where a database may be reached depends on
	// the session (--root, the client's roots), not on the file; only
	// onetool's own files are refused everywhere.
	o.ReadOnly = true
	everywhere, err := roots.New(string(filepath.Separator))
	if err != nil {
		c.problem("packs.db", "cannot check the databases: %v", err)
		return
	}
	if c.roots != nil {
		everywhere = c.roots.WithDirs(everywhere)
	}
	o.Roots = everywhere
	pack, err := db.New(o)
	if err != nil {
		return // as above
	}
	defer pack.Close()
	tools := map[string]func(context.Context, map[string]any) (any, error){}
	for _, t := range pack.Tools() {
		tools[t.Name] = t.Handler
	}
	if tools["databases"] == nil || tools["tables"] == nil {
		c.problem("packs.db", "cannot check the databases: the db pack has no databases or tables tool")
		return
	}
	listed, err := tools["databases"](ctx, map[string]any{})
	if err != nil {
		c.problem("packs.db.databases", "cannot list the databases: %v", err)
		return
	}
	kinds := map[string]string{}
	list, _ := listed.([]any)
	for _, v := range list {
		if m, ok := v.(*ordered.Map); ok {
			name, _ := m.Get("name")
			kind, _ := m.Get("kind")
			kinds[fmt.Sprint(name)] = fmt.Sprint(kind)
		}
	}

	var wg sync.WaitGroup
	for _, name := range slices.Sorted(maps.Keys(o.Databases)) {
		key := "packs.db.databases." + name
		what := kinds[name]
		if what == "sqlite" {
			file, memory := sqliteFile(o.Databases[name])
			if memory {
				c.ok(key, "SQLite in memory")
				continue
			}
			if !c.sqliteFile(key, file, writable) {
				continue
			}
			what = file
		}
		wg.Go(func() {
			// The db pack bounds the statement by packs.db.timeout; the
			// connection of a database server is bounded here as well.
			cctx, cancel := context.WithTimeout(ctx, o.Timeout+time.Second)
			defer cancel()
			res, err := tools["tables"](cctx, map[string]any{"db": name})
			if err != nil {
				c.problem(key, "cannot be opened read-only: %v; fix the URL or the file, or give onetool's user access to it", err)
				return
			}
			tables, _ := res.([]any)
			c.ok(key, "%s opens read-only (%s)", what, plural(len(tables), "table"))
		})
	}
	wg.Wait()
}

// sqliteFile checks a SQLite file before it is opened; it reports false
// when there is nothing to open.
func (c *checker) sqliteFile(key, file string, writable bool) bool {
	if c.own(key, file, "keep databases out of them: move the file and fix the path") {
		return false
	}
	fi, err := os.Stat(file)
	switch {
	case errors.Is(err, fs.ErrNotExist) && writable:
		if st, err := os.Stat(filepath.Dir(file)); err != nil || !st.IsDir() {
			c.problem(key, "neither %s nor its directory exists; create the directory (the db pack creates the file, not its directory), or fix the path", file)
			return false
		}
		c.ok(key, "%s does not exist yet: the db pack creates it at first use (packs.db.read_only is false)", file)
		return false
	case errors.Is(err, fs.ErrNotExist):
		c.problem(key, "%s does not exist; fix the path (relative paths start at the directory of the configuration file): a read-only db pack never creates a database", file)
		return false
	case err != nil:
		c.problem(key, "cannot read %s: %v; give onetool's user access to it, or fix the path", file, cause(err))
		return false
	case fi.IsDir():
		c.problem(key, "%s is a directory, not a SQLite file; fix the path", file)
		return false
	}
	return true
}

// sqliteFile is the file of a SQLite URL of packs.db.databases, as the db
// pack reads it ("sqlite:PATH", "sqlite3:", "file:", "sqlite:///abs", or a
// bare path), or memory for sqlite::memory:. ParseSettings has made a
// relative path absolute.
func sqliteFile(u string) (file string, memory bool) {
	s := strings.TrimSpace(u)
	if scheme, rest, ok := strings.Cut(s, ":"); ok {
		switch strings.ToLower(scheme) {
		case "sqlite", "sqlite3", "file":
			if rest == ":memory:" || rest == "//:memory:" {
				return "", true
			}
			s = strings.TrimPrefix(rest, "//")
		}
	}
	return filepath.FromSlash(s), false
}

// commands checks the command and working directory of every enabled
// stdio server, and returns the servers with a problem, which are not
// started.
func (c *checker) commands() map[string]bool {
	failed := map[string]bool{}
	wd, _ := os.Getwd()
	for _, name := range slices.Sorted(maps.Keys(c.cfg.Servers)) {
		s := c.cfg.Servers[name]
		if !s.IsEnabled() || s.Command == "" {
			continue
		}
		dir := wd
		if s.Cwd != "" {
			dir = s.Cwd
			key := "servers." + name + ".cwd"
			switch fi, err := os.Stat(s.Cwd); {
			case errors.Is(err, fs.ErrNotExist):
				c.problem(key, "%s does not exist; create it, or fix the path", s.Cwd)
				failed[name] = true
			case err != nil:
				c.problem(key, "cannot read %s: %v; fix the path", s.Cwd, cause(err))
				failed[name] = true
			case !fi.IsDir():
				c.problem(key, "%s is not a directory; fix the path", s.Cwd)
				failed[name] = true
			}
		}
		key := "servers." + name + ".command"
		found, msg := c.findCommand(s.Command, dir)
		if msg != "" {
			c.problem(key, "%s", msg)
			failed[name] = true
			continue
		}
		c.ok(key, "%s", found)
	}
	return failed
}

// findCommand finds a server's command as exec will: a bare name in PATH,
// a path relative to the server's directory. It returns the program, or
// what is wrong and what to do.
func (c *checker) findCommand(command, dir string) (string, string) {
	if !strings.ContainsRune(command, '/') && !strings.ContainsRune(command, filepath.Separator) {
		p, err := c.lookPath(command)
		switch {
		case errors.Is(err, exec.ErrDot):
			return "", fmt.Sprintf("'%s' is found only through a relative directory in PATH, which onetool does not use; give its path", command)
		case err != nil:
			return "", fmt.Sprintf("'%s' is not found in PATH; install it, or give its full path", command)
		}
		return p, ""
	}
	p := filepath.FromSlash(command)
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Sprintf("%s does not exist; fix the path (a relative one starts at the server's cwd, else the directory onetool starts in)", p)
	case err != nil:
		return "", fmt.Sprintf("cannot read %s: %v", p, cause(err))
	case fi.IsDir():
		return "", fmt.Sprintf("%s is a directory, not a program; fix the path", p)
	}
	if _, err := c.lookPath(p); err != nil {
		return "", fmt.Sprintf("%s is not executable; chmod +x %s", p, p)
	}
	return p, ""
}

// servers asks every server but those of skip for initialize and its
// tools, all at once, each within its timeout.
func (c *checker) servers(ctx context.Context, list []*mcpclient.Server, skip map[string]bool) {
	var wg sync.WaitGroup
	for _, srv := range list {
		if skip[srv.Name()] {
			continue
		}
		wg.Go(func() { c.server(ctx, srv) })
	}
	wg.Wait()
}

func (c *checker) server(ctx context.Context, srv *mcpclient.Server) {
	spec := srv.Spec() // its Timeout filled in
	key := "servers." + srv.Name()
	// Tools waits at most the timeout for the connection; the second
	// more is a backstop.
	ctx, cancel := context.WithTimeout(ctx, spec.Timeout+time.Second)
	defer cancel()
	tools, err := srv.Tools(ctx)
	if err == nil {
		c.ok(key, "answered initialize (%s)", plural(len(tools), "tool"))
		return
	}
	todo := "run the command by hand to see what it prints"
	if spec.URL != "" {
		todo = "check the URL, the headers and that the server is up"
	}
	if time.Since(c.started) >= spec.Timeout {
		c.problem(key, "no answer to MCP initialize within %s; %s, or raise %s.timeout", spec.Timeout, todo, key)
		return
	}
	// The attempt's own reason (an exit status, the end of stderr), not
	// the wrapping a caller gets ("server 'x' is not connected: …").
	reason := err.Error()
	if last := srv.Status().LastError; last != "" {
		reason = last
	}
	c.problem(key, "did not answer MCP initialize: %s; %s", reason, todo)
}

// shadowed reports the enabled servers that the runner did not start: a
// local pack (built in, or a toolpack's) has the name of their pack, and
// wins.
func (c *checker) shadowed(r *runner.Runner) {
	started := map[string]bool{}
	for _, srv := range r.Servers() {
		started[srv.Name()] = true
	}
	for _, name := range slices.Sorted(maps.Keys(c.cfg.Servers)) {
		if !c.cfg.Servers[name].IsEnabled() || started[name] {
			continue
		}
		c.problem("servers."+name, "a local pack (built in, or a toolpack's) is named '%s' and wins, so this server is never started; rename the server", mcpclient.PackName(name))
	}
}

// ownServers prepares the enabled servers as the runner does, for when
// there is no runner.
func ownServers(cfg *config.Config) *mcpclient.Manager {
	var specs []mcpclient.Spec
	for _, n := range slices.Sorted(maps.Keys(cfg.Servers)) {
		s := cfg.Servers[n]
		if !s.IsEnabled() {
			continue
		}
		specs = append(specs, mcpclient.Spec{
			Name: n, Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd,
			URL: s.URL, Headers: s.Headers, ShownURL: cfg.ShownURL(n), Timeout: time.Duration(s.Timeout),
		})
	}
	return mcpclient.NewManager(specs, mcpclient.Options{})
}

// cause is err without the path an *fs.PathError repeats.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
