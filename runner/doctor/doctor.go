package doctor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/onetool-dev/onetool/packs/mcpclient"
	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/packs/toolpack"
	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
)

// Options say what to check and how.
type Options struct {
	// Path is the configuration file, as config.Find returns it; "" when
	// there is none (the built-in defaults name nothing to check).
	Path string
	// Load are the options of config.Load (the secrets file, the
	// environment, …).
	Load config.LoadOptions
	// Build makes the runner the commands would run with, from the
	// loaded configuration: its problems are reported with the others,
	// its roots say which files are onetool's own, and its upstream
	// servers (which it starts anyway) are the ones asked to initialize.
	// Run closes it. Nil, or an error, and the checks go on without it:
	// then only .onetool directories are known to be onetool's own, and
	// the servers are started here.
	Build func(*config.Config) (*runner.Runner, error)
	// LookPath finds a server's command as exec does; exec.LookPath when
	// nil.
	LookPath func(string) (string, error)
}

// Finding is one result of a check: a problem, or a check passed.
type Finding struct {
	File string // the configuration file the key is in, absolute; "" when unknown
	Line int    // 1-based; 0 when unknown
	Key  string // dotted key: "projects.api", "servers.gh.command"
	// Text is the line to show. For a problem it is complete, as the
	// loader's errors are: "onetool.yaml:7: projects.api: /srv/api does
	// not exist; create it, or fix the path". For a check passed it is
	// "projects.api: /srv/api".
	Text string
}

// Report is what Run found.
type Report struct {
	// Config is the file checked; "" when there is none.
	Config string
	// Problems are sorted by file and line.
	Problems []Finding
	// Passed are the checks that found nothing wrong, sorted by file
	// and line.
	Passed []Finding
}

// Run loads the configuration and runs every check on it, all of them
// whatever each finds, and returns what they found. It never writes
// anything. ctx bounds the whole; each slow check is bounded by its own
// timeout too.
func Run(ctx context.Context, o Options) Report {
	rep := Report{}
	if o.Path == "" {
		return rep
	}
	cfg, unset, err := load(o.Path, o.Load)
	if err != nil {
		// The file cannot be read as a configuration: its problems are
		// all there is to say until they are fixed.
		rep.Config = o.Path
		rep.Problems = findings(err)
		return rep
	}
	rep.Config = cfg.Path
	c := &checker{cfg: cfg, lookPath: o.LookPath}
	if c.lookPath == nil {
		c.lookPath = exec.LookPath
	}
	for _, e := range unset {
		c.problems = append(c.problems, finding(e))
	}
	var r *runner.Runner
	// The runner starts the servers as it is built: how long a server
	// took to fail counts from here.
	c.started = time.Now()
	if o.Build != nil {
		if r, err = o.Build(cfg); err != nil {
			c.problems = append(c.problems, findings(err)...)
			r = nil
		} else {
			defer r.Close()
			c.roots = r.Roots()
		}
	}
	servers := func() []*mcpclient.Server { return r.Servers() }
	if r == nil {
		m := ownServers(cfg)
		defer m.Close()
		servers = m.Servers
	} else {
		c.shadowed(r)
	}
	if len(unset) == 0 {
		c.ok("secrets", "every ${NAME} is defined")
	}

	var wg sync.WaitGroup
	wg.Go(func() { c.databases(ctx) })
	c.projects()
	failed := c.commands()
	wg.Go(func() { c.servers(ctx, servers(), failed) })
	wg.Wait()

	rep.Problems = dropAtUnset(c.problems, unset)
	rep.Passed = c.passed
	sortFindings(rep.Problems)
	sortFindings(rep.Passed)
	return rep
}

// Write shows the report: the checks passed on out, one per line
// ("ok  projects.api: /srv/api"), the problems on errOut, one per line.
func (r Report) Write(out, errOut io.Writer) {
	switch r.Config {
	case "":
		fmt.Fprintln(out, "No config file: built-in defaults, which name nothing to check.")
	default:
		fmt.Fprintln(out, "Checked "+r.Config)
	}
	for _, f := range r.Passed {
		fmt.Fprintln(out, "ok  "+f.Text)
	}
	for _, f := range r.Problems {
		fmt.Fprintln(errOut, f.Text)
	}
}

// Summary counts the problems: "3 problems found" or "no problems found
// (5 checks passed)".
func (r Report) Summary() string {
	switch n := len(r.Problems); n {
	case 0:
		return fmt.Sprintf("no problems found (%s passed)", plural(len(r.Passed), "check"))
	default:
		return plural(n, "problem") + " found"
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// checker collects what the checks find; they run in parallel.
type checker struct {
	cfg      *config.Config
	roots    *roots.Roots // onetool's own files; nil: only .onetool directories
	lookPath func(string) (string, error)
	started  time.Time // when the servers were started

	mu       sync.Mutex
	problems []Finding
	passed   []Finding
}

// problem records a problem at key, its message scrubbed of secrets.
func (c *checker) problem(key, format string, args ...any) {
	e := c.cfg.Problem(key, format, args...)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.problems = append(c.problems, finding(e))
}

// ok records a check passed at key, its message scrubbed of secrets.
func (c *checker) ok(key, format string, args ...any) {
	e := c.cfg.Problem(key, format, args...)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.passed = append(c.passed, Finding{File: e.File, Line: e.Line, Key: key, Text: key + ": " + e.Msg})
}

// finding is a configuration problem as a Finding.
func finding(e *config.Error) Finding {
	return Finding{File: e.File, Line: e.Line, Key: e.Key, Text: e.Error()}
}

// findings are the problems of a load or runner error, each placed where
// it can be: configuration problems and toolpack problems at their file
// and line.
func findings(err error) []Finding {
	var out []Finding
	for _, e := range split(err) {
		var ce *config.Error
		var te *toolpack.ToolpackValidationError
		switch {
		case errors.As(e, &ce):
			out = append(out, finding(ce))
		case errors.As(e, &te):
			out = append(out, Finding{File: te.File, Line: te.Line, Text: e.Error()})
		default:
			out = append(out, Finding{Text: e.Error()})
		}
	}
	return out
}

// dropAtUnset leaves out what was found at a key that holds an unset
// ${NAME}, or above or below one (servers.gh when servers.gh.headers
// holds it): it was found with a stand-in value and says nothing of the
// real one. The unset problems themselves stay.
func dropAtUnset(list []Finding, unset []*config.Error) []Finding {
	if len(unset) == 0 {
		return list
	}
	related := func(a, b string) bool {
		return a == b || under(a, b) || under(b, a)
	}
	return slices.DeleteFunc(list, func(f Finding) bool {
		if f.Key == "" {
			return false
		}
		for _, u := range unset {
			if f.Key == u.Key && f.Text == u.Error() {
				return false // the unset problem itself
			}
		}
		for _, u := range unset {
			if related(f.Key, u.Key) {
				return true
			}
		}
		return false
	})
}

// under reports whether key lies below parent: servers.gh.url below
// servers.gh, args[1] below args.
func under(key, parent string) bool {
	rest, ok := strings.CutPrefix(key, parent)
	return ok && rest != "" && (rest[0] == '.' || rest[0] == '[')
}

// sortFindings sorts by file and line; findings without a file come
// last, in the order found.
func sortFindings(list []Finding) {
	slices.SortStableFunc(list, func(a, b Finding) int {
		if (a.File == "") != (b.File == "") {
			if a.File == "" {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Key, b.Key))
	})
}
