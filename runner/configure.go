package runner

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/builtin/db"
	"github.com/onetool-dev/onetool/packs/builtin/file"
	"github.com/onetool-dev/onetool/packs/builtin/web"
	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/redaction"
	"github.com/onetool-dev/onetool/snippets"
)

// ErrConfig is the cause of every configuration problem found while
// building a Runner (alias targets, snippet templates, roots), in addition
// to those runner/config finds while loading the file.
var ErrConfig = errors.New("configuration error")

// WithConfig applies a loaded configuration: its limits (a later
// WithLimits still wins, so command-line flags override the file), pack
// switches, aliases, snippets, projects and file roots.
func WithConfig(cfg *config.Config) Option {
	return func(r *Runner) {
		r.cfg = cfg
		r.limits = ConfigLimits(cfg, r.limits)
	}
}

// ConfigLimits returns base with every limit the configuration sets.
func ConfigLimits(cfg *config.Config, base Limits) Limits {
	if cfg == nil {
		return base
	}
	return applyLimits(cfg.Limits, base)
}

// applyLimits returns base with every limit l sets.
func applyLimits(l config.Limits, base Limits) Limits {
	if l.MaxSteps != nil {
		base.MaxSteps = *l.MaxSteps
	}
	if l.Timeout != nil {
		base.Timeout = time.Duration(*l.Timeout)
	}
	if l.MaxOutput != nil {
		base.MaxOutput = int(*l.MaxOutput)
	}
	if l.MaxToolCalls != nil {
		base.MaxToolCalls = *l.MaxToolCalls
	}
	if l.MaxIOOps != nil {
		base.MaxIOOps = *l.MaxIOOps
	}
	if l.MaxParallel != nil {
		base.MaxParallel = *l.MaxParallel
	}
	if l.MaxMemory != nil {
		base.MaxMemory = int64(*l.MaxMemory)
	}
	if l.MaxIntDigits != nil {
		base.MaxIntDigits = *l.MaxIntDigits
	}
	return base
}

// compileSnippets turns the configured snippets into a compiled set.
func compileSnippets(cfg *config.Config) (*snippets.Set, error) {
	names := make([]string, 0, len(cfg.Snippets))
	for n := range cfg.Snippets {
		names = append(names, n)
	}
	slices.Sort(names)
	list := make([]snippets.Snippet, 0, len(names))
	for _, n := range names {
		s := cfg.Snippets[n]
		sn := snippets.Snippet{Name: n, Description: s.Description, Body: s.Body}
		for _, p := range s.Params {
			sn.Params = append(sn.Params, snippets.Param{
				Name: p.Name, Type: p.Type, Description: p.Description,
				Default: p.Default, HasDefault: p.HasDefault,
			})
		}
		list = append(list, sn)
	}
	set, err := snippets.Compile(list)
	if err != nil {
		var problems configErrors
		for _, e := range splitErrors(err) {
			var te *snippets.TemplateError
			if errors.As(e, &te) {
				problems.add(cfg.Problem("snippets."+te.Snippet+".body", "%s", te.Error()))
			} else {
				problems.add(cfg.Problem("snippets", "%s", e.Error()))
			}
		}
		return nil, problems
	}
	return set, nil
}

// splitErrors undoes errors.Join.
func splitErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// WithProtected adds files and directories that no program may read or
// write through any pack (SPEC §8.2) to those of the configuration (see
// ownFiles): the REPL's history file, say.
func WithProtected(own ...roots.Own) Option {
	return func(r *Runner) { r.protected = append(r.protected, own...) }
}

// Names of onetool's own files, for messages.
const (
	ownConfigDir = "configuration directory"
	ownConfig    = "config file"
	ownInclude   = "included config file"
	ownSecrets   = "secrets file"
	ownToolpacks = "toolpack directory"
	ownStats     = "stats file"
	ownAudit     = "audit log"
	ownExe       = "executable"
)

// ownFiles are onetool's own files and directories, refused to programs
// whatever the roots say (SPEC §8.2): what a program could read secrets
// from, or write to change the configuration the next start loads, or
// what onetool runs (its executable: a program that replaced it would
// run outside the sandbox at the next start), or what onetool keeps of
// its principals (the audit log, the stats file). Paths
// that do not exist yet count too: they must not be created. The
// .onetool directories of the working directory and of the home
// directory are the config search locations (config.Find); roots refuses
// every .onetool component anyway, and listing them here also protects
// the directories they are links to.
func ownFiles(cfg *config.Config, wd string) []roots.Own {
	var own []roots.Own
	add := func(what string, paths ...string) {
		for _, p := range paths {
			if p != "" {
				own = append(own, roots.Own{Path: p, What: what})
			}
		}
	}
	add(ownConfigDir, filepath.Join(wd, roots.ConfigDirName))
	for _, home := range roots.Homes() {
		add(ownConfigDir, filepath.Join(home, roots.ConfigDirName))
	}
	add(ownConfig, cfg.Path)
	if len(cfg.Files) > 1 {
		add(ownInclude, cfg.Files[1:]...)
	}
	add(ownSecrets, cfg.Secrets.File())
	if cfg.Dir != "" {
		// Loaded at the next start when they appear.
		add(ownSecrets, filepath.Join(cfg.Dir, "secrets.yaml"))
		add(ownToolpacks, filepath.Join(cfg.Dir, "toolpacks"))
	}
	add(ownToolpacks, cfg.Toolpacks...)
	add(ownStats, cfg.Output.StatsFile)
	if a := cfg.Serve.Auth; a != nil {
		add(ownAudit, a.AuditLog)
	}
	add(ownExe, executables()...)
	return append(own, serverPrograms(cfg, wd)...)
}

// serverPrograms are the files the upstream servers run (serverFiles),
// as onetool's own.
func serverPrograms(cfg *config.Config, wd string) []roots.Own {
	var own []roots.Own
	for _, n := range slices.Sorted(maps.Keys(cfg.Servers)) {
		for _, p := range serverFiles(cfg.Servers[n], wd) {
			if p != "" {
				own = append(own, roots.Own{Path: p, What: fmt.Sprintf("program of upstream server '%s'", n)})
			}
		}
	}
	return own
}

// serverFiles are the files an upstream server started by command runs:
// its command, found as exec will find it, and every argument that names
// an existing file (the script of `python3 server.py`, say), relative to
// its working directory. A program that rewrote one would run its own
// code outside the sandbox the next time the server starts. Directories
// are left alone: a server's argument may be the project it serves.
func serverFiles(s *config.Server, wd string) []string {
	if s == nil || s.Command == "" {
		return nil
	}
	dir := wd
	if s.Cwd != "" {
		dir = s.Cwd
	}
	file := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p
		}
		return ""
	}
	var out []string
	if strings.ContainsRune(s.Command, filepath.Separator) || strings.ContainsRune(s.Command, '/') {
		out = append(out, file(s.Command))
	} else if p, err := exec.LookPath(s.Command); err == nil {
		out = append(out, file(p))
	}
	for _, a := range s.Args {
		if a != "" && !strings.HasPrefix(a, "-") && !strings.ContainsRune(a, 0) {
			out = append(out, file(a))
		}
	}
	return out
}

// executables are the paths of the running executable: its real path,
// and the path it was started by (a link in PATH to it, say), which the
// next start would run too.
func executables() []string {
	var paths []string
	if exe, err := os.Executable(); err == nil {
		paths = append(paths, exe)
	}
	if len(os.Args) > 0 && os.Args[0] != "" {
		// The shell found a bare name in PATH; LookPath finds the same.
		if p, err := exec.LookPath(os.Args[0]); err == nil {
			if abs, err := filepath.Abs(p); err == nil && !slices.Contains(paths, abs) {
				paths = append(paths, abs)
			}
		}
	}
	return paths
}

// WithRoots makes dirs the roots of file access in place of the working
// directory (onetool serve --root, run --root): SPEC §8.2. Relative
// directories start at the working directory. Configured projects and
// packs.file.allowed_dirs stay roots; an MCP client that offers roots
// replaces dirs for its session (Runner.ClientRoots).
func WithRoots(dirs ...string) Option {
	return func(r *Runner) { r.rootDirs = append(r.rootDirs, dirs...) }
}

// withRootsSpec makes a worker's runner use the server's roots as they
// are, rather than choosing its own.
func withRootsSpec(s *roots.Spec) Option { return func(r *Runner) { r.rootsSpec = s } }

// RunRoots confines the file access of one run (the file pack, proj
// paths, the db pack's SQLite files) to rr instead of the runner's roots:
// the roots of the MCP session the run belongs to (see ClientRoots). Nil
// keeps the runner's.
func RunRoots(rr *roots.Roots) ExecOption {
	return func(st *runState) { st.roots = rr }
}

// fileRoots are the directories file access is confined to (SPEC §8.2):
// those of --root (WithRoots), else the working directory unless it is /
// or the home directory or holds it (roots.Implicit); and always every
// project and packs.file.allowed_dirs. With none of them, every path is
// refused with a message that says how to set a root. onetool's own files
// are refused inside them (ownFiles, r.protected, and own: the files
// toolpack commands run).
func (r *Runner) fileRoots(own ...roots.Own) (*roots.Roots, error) {
	cfg := r.cfg
	wd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("%w: working directory: %w", ErrConfig, err)
	}
	var rr *roots.Roots
	if s := r.rootsSpec; s != nil {
		rr, err = roots.FromSpec(*s)
	} else {
		var dirs []string
		why := ""
		if len(r.rootDirs) > 0 {
			dirs = append(dirs, r.rootDirs...)
		} else {
			if why = roots.Implicit(wd, roots.Homes()...); why == "" {
				dirs = append(dirs, wd)
			}
		}
		rr, err = roots.Choose(wd, append(dirs, configuredRoots(cfg)...), why)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	dirs := programDirs(rr.Dirs(), slices.Concat(serverPrograms(cfg, wd), own))
	rr, err = rr.Protect(slices.Concat(ownFiles(cfg, wd), r.protected, own, dirs)...)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return rr, nil
}

// configuredRoots are the roots of every session: the projects (by name)
// and packs.file.allowed_dirs.
func configuredRoots(cfg *config.Config) []string {
	names := make([]string, 0, len(cfg.Projects))
	for n := range cfg.Projects {
		names = append(names, n)
	}
	slices.Sort(names)
	var dirs []string
	for _, n := range names {
		dirs = append(dirs, cfg.Projects[n])
	}
	if p := cfg.Packs["file"]; p != nil {
		dirs = append(dirs, p.AllowedDirs...)
	}
	return dirs
}

// ClientRoots returns the roots of an MCP session whose client offered
// dirs (absolute paths, from its file:// roots), for RunRoots: dirs in
// place of --root or the working directory, plus the projects and
// packs.file.allowed_dirs, with onetool's own files refused as in the
// runner's roots. A client root of / or the home directory is the
// client's explicit choice and is taken as it is — unless narrow is set
// (a client over HTTP, whose paths name directories of its own machine,
// and who may not widen what the server allows): then only what of dirs
// lies inside the runner's roots is taken (roots.Clip), and a client
// whose roots all lie elsewhere gets only the projects and allowed_dirs.
// An empty dirs is a client that offers no roots: the runner's roots.
func (r *Runner) ClientRoots(dirs []string, narrow bool) (*roots.Roots, error) {
	if len(dirs) == 0 {
		return r.roots, nil
	}
	use := dirs
	why := ""
	if narrow {
		if use = r.roots.Clip(dirs); len(use) == 0 {
			allowed := "none"
			if d := r.roots.Dirs(); len(d) > 0 {
				allowed = strings.Join(d, ", ")
			}
			why = fmt.Sprintf("the MCP client's roots (%s) lie outside the roots this server allows (%s), and a client over HTTP can only narrow them", strings.Join(dirs, ", "), allowed)
		}
	}
	var all []string
	for _, d := range append(use, configuredRoots(r.cfg)...) {
		if !slices.Contains(all, d) {
			all = append(all, d)
		}
	}
	cr, err := roots.Choose(r.roots.Base(), all, why)
	if err != nil {
		return nil, err
	}
	return r.roots.WithDirs(cr), nil
}

// fileOptions are the file pack's settings: packs.file.read_only, backups
// unless packs.file.backups is false (SPEC §8.2), and how long backups
// are kept (packs.file.backups_*: file.ParseSettings).
func fileOptions(cfg *config.Config, r *roots.Roots) (file.Options, error) {
	o := file.Options{Roots: r, Backups: true, Redact: contentRedactor(cfg)}
	p := cfg.Packs["file"]
	if p == nil {
		return o, nil
	}
	o.ReadOnly = p.ReadOnly != nil && *p.ReadOnly
	if p.Backups != nil {
		o.Backups = *p.Backups
	}
	var err error
	o.Retention, err = file.ParseSettings(p.Settings)
	return o, err
}

// contentRedactor hides secrets in content a pack hands a program
// (files, and bodies the web variants return): with the secrets of the
// moment (those of toolpacks' pass-through variables included), in their
// encoded forms, and as in db results, any piece of eight characters or
// more in any case (a secret stored lower-cased in a file was shown, and
// greppable, as it was).
func contentRedactor(cfg *config.Config) func(ctx context.Context, text string) (string, error) {
	frags := redaction.NewFragments(cfg.Secrets)
	return func(ctx context.Context, text string) (string, error) {
		text, err := cfg.Secrets.RedactContext(ctx, text)
		if err == nil && frags != nil {
			text = frags.Hide(text)
		}
		return text, err
	}
}

// defaultDenyHosts keep web.fetch away from cloud metadata services unless
// packs.web.deny_hosts says otherwise: they hand out credentials to
// whatever can reach them, and a fetched page may ask the model to look.
// The web pack refuses every address that is not public anyway unless
// allow_hosts names it; these stay refused even then (deny_hosts wins),
// so that allowing a private range (100.64.0.0/10 for a VPN, say) does not
// let in the metadata service inside it.
func defaultDenyHosts() []string {
	return []string{"169.254.0.0/16", "fd00:ec2::254", "100.100.100.200", "metadata.google.internal", "instance-data.ec2.internal"}
}

// webOptions are the web pack's settings (packs.web.*): public hosts only
// unless packs.web.allow_hosts names others (package web), and the cloud
// metadata services refused unless packs.web.deny_hosts is set.
func webOptions(cfg *config.Config) (web.Options, error) {
	var settings map[string]any
	if p := cfg.Packs["web"]; p != nil {
		settings = p.Settings
	}
	o, err := web.ParseSettings(settings)
	if err != nil {
		return o, err
	}
	if _, set := settings["deny_hosts"]; !set {
		o.DenyHosts = defaultDenyHosts()
	}
	o.Redact = contentRedactor(cfg) // bodies of urllib.request and requests
	return o, nil
}

// dbOptions are the db pack's settings (packs.db.*): read-only unless
// packs.db.read_only is false, SQLite files inside the allowed roots.
func dbOptions(cfg *config.Config, r *roots.Roots) (db.Options, error) {
	var settings map[string]any
	p := cfg.Packs["db"]
	if p != nil {
		settings = p.Settings
	}
	o, err := db.ParseSettings(settings, cfg.Dir)
	if err != nil {
		return o, err
	}
	if p != nil && p.ReadOnly != nil {
		o.ReadOnly = *p.ReadOnly
	}
	o.Roots = r
	if f := redaction.NewFragments(cfg.Secrets); f != nil {
		o.Hide = f.Hide // pieces of secrets SQL cut from stored values
	}
	return o, nil
}

// packProblems turns the errors a pack found in its settings ("packs.web.
// max_bytes: want a size …", possibly joined) into configuration problems
// at the line of each key.
func packProblems(cfg *config.Config, pack string, err error) configErrors {
	var problems configErrors
	for _, e := range splitErrors(err) {
		msg, key := e.Error(), "packs."+pack
		if rest, ok := strings.CutPrefix(msg, key+"."); ok {
			if k, m, ok := strings.Cut(rest, ": "); ok {
				key, msg = key+"."+k, m
			}
		}
		problems.add(cfg.Problem(key, "%s", msg))
	}
	return problems
}

// snippetCatalog adapts a snippet set to what the ot pack shows.
type snippetCatalog struct{ set *snippets.Set }

func (c snippetCatalog) Names() []string                 { return c.set.Names() }
func (c snippetCatalog) Help(name string) (string, bool) { return c.set.Help(name) }
func (c snippetCatalog) Description(name string) string {
	s, _ := c.set.Get(name)
	return s.Description
}

// builtinPacks are the packs onetool itself provides: packs.<name> may
// name one even when it disables it (then it is not registered).
func builtinPacks() []string { return []string{"db", "demo", "file", "ot", "web"} }

// unknownPacks are the keys under packs: that name no pack — a built-in
// one, one of the registry (toolpacks), or an upstream server's — each a
// problem with a did-you-mean: a typo (packs.fil: {read_only: true})
// would otherwise leave the pack it meant unconfigured without a word.
func unknownPacks(cfg *config.Config, reg *packs.Registry) configErrors {
	known := builtinPacks()
	for _, p := range reg.Packs() {
		known = append(known, p.Name)
	}
	for name := range cfg.Servers {
		known = append(known, name)
	}
	var problems configErrors
	for _, name := range slices.Sorted(maps.Keys(cfg.Packs)) {
		if slices.Contains(known, name) {
			continue
		}
		msg := fmt.Sprintf("no pack named '%s'", name)
		if s := suggest.Closest(name, known); s != "" {
			msg += fmt.Sprintf("; did you mean '%s'?", s)
		} else {
			msg += fmt.Sprintf(" (packs: %s)", strings.Join(slices.Compact(slices.Sorted(slices.Values(known))), ", "))
		}
		problems.add(cfg.Problem("packs."+name, "%s", msg))
	}
	return problems
}

// programDirs are the directories of programs, the files onetool starts (an
// upstream server's script, a toolpack command's), as onetool's own when
// they lie inside a root, below it: Python imports from a script's
// directory before its standard library (and Node resolves from it), so a
// program that wrote json.py beside tool.py ran its code outside the
// sandbox at the tool's next call. A program that lies directly in a
// root is left to the warning of docs/security.md: the root would be
// refused whole.
func programDirs(rootDirs []string, programs []roots.Own) []roots.Own {
	real := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return filepath.Clean(p)
	}
	var rootReals []string
	for _, d := range rootDirs {
		rootReals = append(rootReals, real(d))
	}
	var out []roots.Own
	seen := map[string]bool{}
	for _, o := range programs {
		if !filepath.IsAbs(o.Path) {
			continue
		}
		dir := real(filepath.Dir(o.Path))
		inside := false
		for _, root := range rootReals {
			if dir == root || isBelow(root, dir) {
				inside = false // a root, or holds one: not refused whole
				break
			}
			if isBelow(dir, root) {
				inside = true
			}
		}
		if inside && !seen[dir] {
			seen[dir] = true
			out = append(out, roots.Own{Path: dir, What: "directory of the " + o.What})
		}
	}
	return out
}

// isBelow reports whether p lies strictly below dir.
func isBelow(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
