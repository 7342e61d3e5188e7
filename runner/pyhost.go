package runner

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/runner/config"
)

// pyHost is the runner as the pyops.Host of its programs: Python's own
// I/O modules (open, os, pathlib, requests, sqlite3) call the packs'
// variants through it, and every call takes CallTool's path, so policy,
// budgets, confirmation, metering, redaction, stats, metrics, traces and
// the audit log apply to them as to any tool call (docs/design.md,
// "Python's own I/O APIs"). In a worker of isolation: process, CallTool
// sends the call to the server, which makes it the same way.
type pyHost struct{ r *Runner }

var _ pyops.Host = pyHost{}

// Call runs the variant op and returns its result as plain Go values,
// its error with a pyops kind where the runner knows one.
func (h pyHost) Call(ctx context.Context, op string, args map[string]any) (any, error) {
	t, ok := h.r.reg.Variant(op)
	if !ok {
		return nil, fmt.Errorf("%w: no operation %q here (its pack is off or has no such variant)", ErrToolNotFound, op)
	}
	v, err := h.r.CallTool(ctx, t, args)
	if err != nil {
		return nil, classify(err)
	}
	return plain(v), nil
}

// Facts are the run's roots (its cwd is their base) and the environment
// security.environ lets programs read.
func (h pyHost) Facts(ctx context.Context) pyops.Facts {
	f := pyops.Facts{Env: maps.Clone(h.r.pyEnv)}
	if f.Env == nil {
		f.Env = map[string]string{}
	}
	if rr := roots.FromContext(ctx, h.r.roots); rr != nil {
		f.Cwd, f.Roots = rr.Base(), rr.Dirs()
	}
	return f
}

// classify gives the refusals only the runner and the roots know the
// kind pyops.ErrDenied (a module raises PermissionError with their
// text): outside the roots, onetool's own files, no root, the policy,
// a destructive operation not confirmed. A budget's or a cancellation's
// error is returned untouched, so that the program cannot catch it, and
// so is one that already has a kind.
func classify(err error) error {
	switch {
	case errors.Is(err, interp.ErrLimit), errors.Is(err, interp.ErrCancelled), pyops.KindOf(err) != nil:
		return err
	case errors.Is(err, roots.ErrOutside), errors.Is(err, roots.ErrProtected), errors.Is(err, roots.ErrNoRoot),
		errors.Is(err, packs.ErrNotAllowed), errors.Is(err, ErrNotConfirmed):
		return pyops.Tag(pyops.ErrDenied, err)
	}
	return err
}

// plain turns what crossed the worker pipe (maps kept in order) into the
// plain values the Host promises: map[string]any and []any all the way
// down. A container that holds no ordered map is returned as it is (never
// changed: a handler may share it); one that does is copied.
func plain(v any) any {
	p, _ := plainCopy(v)
	return p
}

// plainCopy is plain(v), and whether that is a new value.
func plainCopy(v any) (any, bool) {
	switch x := v.(type) {
	case *ordered.Map:
		m := make(map[string]any, x.Len())
		x.Range(func(k string, e any) bool { m[k], _ = plainCopy(e); return true })
		return m, true
	case map[string]any:
		var out map[string]any
		for k, e := range x {
			if p, changed := plainCopy(e); changed {
				if out == nil {
					out = maps.Clone(x)
				}
				out[k] = p
			}
		}
		if out != nil {
			return out, true
		}
	case []any:
		var out []any
		for i, e := range x {
			if p, changed := plainCopy(e); changed {
				if out == nil {
					out = slices.Clone(x)
				}
				out[i] = p
			}
		}
		if out != nil {
			return out, true
		}
	}
	return v, false
}

// environ is what security.environ lets programs read of this process's
// environment: each named variable that is set, unless it is a secret of
// the configuration by name or holds a secret's value.
func environ(cfg *config.Config) map[string]string {
	if len(cfg.Security.Environ) == 0 {
		return nil
	}
	secretNames := map[string]bool{}
	var secretValues []string
	cfg.Secrets.Values(func(name, value string, _ bool) {
		secretNames[name] = true
		if value != "" {
			secretValues = append(secretValues, value)
		}
	})
	out := map[string]string{}
	for _, name := range cfg.Security.Environ {
		v, ok := os.LookupEnv(name)
		if !ok || secretNames[name] || cfg.Secrets.Redact(v) != v {
			continue
		}
		secret := false
		for _, s := range secretValues {
			if strings.Contains(v, s) {
				secret = true
				break
			}
		}
		if !secret {
			out[name] = v
		}
	}
	return out
}
