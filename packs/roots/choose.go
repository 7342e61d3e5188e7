package roots

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
)

// Which directories are roots (SPEC §8.2). The caller (the runner) puts
// them together in this order of precedence:
//
//  1. the roots a session asked for: the MCP client's, when it offers
//     some; else those of --root; else the working directory, but only
//     when Implicit allows it;
//  2. always, configured projects and packs.file.allowed_dirs.
//
// / and the home directory (and any directory that holds it) are never
// roots unless someone named them: a desktop client starts its servers in
// /, and a terminal opens in the home directory, where a root would be
// every file of the user. A Roots without a single directory refuses every
// path with a NoRootError that says how to set one.

// ErrNoRoot is the cause of every path refused because no root directory
// is set at all. errors.Is also matches ErrOutside for it: the path is
// outside every root, there being none.
var ErrNoRoot = errors.New("no root directory is set")

// NoRootError is a path refused because no root directory is set; Why
// says why (where onetool was started).
type NoRootError struct{ Why string }

func (e *NoRootError) Error() string {
	why := e.Why
	if why == "" {
		why = "no root was configured"
	}
	return fmt.Sprintf("%s: %s; set one with --root DIR (e.g. onetool serve --root ~/project), with packs.file.allowed_dirs or a project in onetool.yaml, or through your MCP client's roots", ErrNoRoot, why)
}

// Is makes errors.Is match both ErrNoRoot and ErrOutside.
func (e *NoRootError) Is(target error) bool { return target == ErrNoRoot || target == ErrOutside }

// None returns roots that hold no directory: every path is refused with a
// NoRootError saying why. base is where relative paths would start, for
// messages (the working directory).
func None(base, why string) *Roots {
	r := &Roots{none: why}
	if abs, err := filepath.Abs(base); err == nil {
		r.base = abs
		if real, err := resolve(abs); err == nil {
			r.realBase = real
		} else {
			r.realBase = abs
		}
	}
	return r
}

// Choose returns roots holding dirs, or None(base, why) when dirs is
// empty.
func Choose(base string, dirs []string, why string) (*Roots, error) {
	if len(dirs) == 0 {
		return None(base, why), nil
	}
	return New(dirs...)
}

// Implicit says whether wd, the working directory, may be a root that no
// one asked for: "" when it may, else why not, for NoRootError. It may
// not when it is the root of a file system ("/", the whole disk), the
// user's home directory home, or a directory that holds it ("/home"):
// desktop clients start their servers in /, and a shell starts in the
// home directory, so a root there would be every file of the user.
func Implicit(wd string, homes ...string) string {
	real := realOrClean(wd)
	if filepath.Dir(real) == real {
		return fmt.Sprintf("onetool was started in %s (the whole disk, as desktop MCP clients do), which is never a root unless you name it", real)
	}
	for _, home := range homes {
		if home == "" {
			continue
		}
		h := realOrClean(home)
		switch {
		case h == real:
			return fmt.Sprintf("onetool was started in your home directory %s, which is never a root unless you name it", real)
		case within(h, real):
			return fmt.Sprintf("onetool was started in %s, which holds your home directory %s and is never a root unless you name it", real, h)
		}
	}
	return ""
}

// Homes are the user's home directories: $HOME, and the one the user
// database gives, which a service started without HOME (or with another)
// still has. Either may be missing.
func Homes() []string {
	var homes []string
	if h, err := os.UserHomeDir(); err == nil && h != "" {
		homes = append(homes, h)
	}
	if u, err := user.Current(); err == nil && u.HomeDir != "" && !slices.Contains(homes, u.HomeDir) {
		homes = append(homes, u.HomeDir)
	}
	return homes
}

// realOrClean is p absolute with its links resolved, or as clean as it
// gets when it cannot be resolved.
func realOrClean(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if real, err := resolve(abs); err == nil {
		return real
	}
	return abs
}

// Clip returns what of dirs lies inside r's roots: each directory of dirs
// inside one of r's roots, and each of r's roots inside one of dirs, in
// that order, resolved and without repeats. It is how a client that may
// only narrow what the server allows (a client over HTTP, which names
// directories of its own machine) gets its roots.
func (r *Roots) Clip(dirs []string) []string {
	var out []string
	add := func(d string) {
		for _, o := range out {
			if o == d {
				return
			}
		}
		out = append(out, d)
	}
	for _, d := range dirs {
		if d == "" || strings.ContainsRune(d, 0) || !filepath.IsAbs(d) {
			continue
		}
		real := realOrClean(d)
		inside := false
		for _, s := range r.dirs {
			if within(real, s) {
				add(real)
				inside = true
				break
			}
		}
		if inside {
			continue
		}
		for _, s := range r.dirs {
			if within(s, real) {
				add(s)
			}
		}
	}
	return out
}

// WithDirs returns roots with the directories, base and reason for having
// none of o, and the own files of r (as Protect gave them to r, their
// identities not taken again): the roots of one session, made from the
// runner's.
func (r *Roots) WithDirs(o *Roots) *Roots {
	n := *o
	n.own, n.given, n.ids = r.own, r.given, r.ids
	return &n
}

// Spec is the directories of a Roots as data, for a worker process to
// make the same roots (FromSpec) and protect them with its own files.
type Spec struct {
	Base string   `json:"base,omitempty"`
	Dirs []string `json:"dirs,omitempty"`
	None string   `json:"none,omitempty"` // why there is none, when Dirs is empty
}

// Spec returns r's directories as data.
func (r *Roots) Spec() Spec { return Spec{Base: r.base, Dirs: r.show, None: r.none} }

// Key is a text that tells specs apart, for caches.
func (s Spec) Key() string {
	return s.Base + "\x00" + strings.Join(s.Dirs, "\x00") + "\x00\x00" + s.None
}

// FromSpec returns roots made from s, protecting nothing yet.
func FromSpec(s Spec) (*Roots, error) { return Choose(s.Base, s.Dirs, s.None) }

type ctxKey struct{}

// NewContext returns ctx carrying r, the roots of one run: tools that
// confine paths use them instead of the roots they were built with
// (FromContext). Pack globals are built once and shared by every run, so
// a run's own roots — those of its MCP session — travel with the run.
func NewContext(ctx context.Context, r *Roots) context.Context {
	if r == nil {
		return ctx
	}
	return context.WithValue(ctx, ctxKey{}, r)
}

// FromContext returns the roots of the run of ctx, or def when it carries
// none.
func FromContext(ctx context.Context, def *Roots) *Roots {
	if ctx != nil {
		if r, ok := ctx.Value(ctxKey{}).(*Roots); ok {
			return r
		}
	}
	return def
}
