package file

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/roots"
)

// env is a temporary directory with one allowed root in it.
type env struct {
	t    *testing.T
	tmp  string // holds root, and whatever tests put outside it
	root string // the allowed root (real path)
	reg  *packs.Registry
}

func newEnv(t *testing.T, o Options) *env {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(tmp, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if o.Roots == nil {
		if o.Roots, err = roots.New(root); err != nil {
			t.Fatal(err)
		}
	}
	reg := packs.NewRegistry()
	if err := Register(reg, o); err != nil {
		t.Fatal(err)
	}
	return &env{t: t, tmp: tmp, root: root, reg: reg}
}

// files creates files under the root: "dir/" makes a directory.
func (e *env) files(m map[string]string) {
	e.t.Helper()
	for name, content := range m {
		p := filepath.Join(e.root, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				e.t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			e.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			e.t.Fatal(err)
		}
	}
}

func (e *env) read(name string) string {
	e.t.Helper()
	data, err := os.ReadFile(filepath.Join(e.root, filepath.FromSlash(name)))
	if err != nil {
		e.t.Fatal(err)
	}
	return string(data)
}

func (e *env) exists(name string) bool {
	_, err := os.Lstat(filepath.Join(e.root, filepath.FromSlash(name)))
	return err == nil
}

// call calls file.<tool> as a program would: binding, validation, the handler.
func (e *env) call(tool string, args map[string]any) (any, error) {
	return e.callCtx(context.Background(), tool, args)
}

func (e *env) callCtx(ctx context.Context, tool string, args map[string]any) (any, error) {
	e.t.Helper()
	tl, ok := e.reg.Tool("file." + tool)
	if !ok {
		e.t.Fatalf("no tool file.%s", tool)
	}
	var named []packs.NamedArg
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range args {
			if !yield(k) {
				return
			}
		}
	}) {
		v := args[k]
		if i, ok := v.(int); ok {
			v = int64(i)
		}
		named = append(named, packs.NamedArg{Name: k, Value: v})
	}
	return packs.Call(ctx, tl, nil, named)
}

// must calls and fails the test on error.
func (e *env) must(tool string, args map[string]any) any {
	e.t.Helper()
	v, err := e.call(tool, args)
	if err != nil {
		e.t.Fatalf("file.%s(%v): %v", tool, args, err)
	}
	return v
}

// fails calls and wants an error containing every one of wants.
func (e *env) fails(tool string, args map[string]any, wants ...string) error {
	e.t.Helper()
	v, err := e.call(tool, args)
	if err == nil {
		e.t.Fatalf("file.%s(%v) = %v, want an error", tool, args, v)
	}
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			e.t.Errorf("file.%s(%v) error %q does not contain %q", tool, args, err, w)
		}
	}
	return err
}

// strs turns a []any result into strings.
func strs(t *testing.T, v any) []string {
	t.Helper()
	list, ok := v.([]any)
	if !ok {
		t.Fatalf("result %T, want a list", v)
	}
	out := make([]string, len(list))
	for i, x := range list {
		s, ok := x.(string)
		if !ok {
			t.Fatalf("element %d is %T, want a string", i, x)
		}
		out[i] = s
	}
	return out
}

func dict(t *testing.T, v any) *ordered.Map {
	t.Helper()
	m, ok := v.(*ordered.Map)
	if !ok {
		t.Fatalf("result %T, want a dict", v)
	}
	return m
}

// backups returns the files kept under the root's backup directory,
// relative to it, slash-separated.
func (e *env) backups() []string {
	var out []string
	dir := filepath.Join(e.root, filepath.FromSlash(BackupDir))
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

// tree lists every entry under dir (relative, slash-separated), to check
// that nothing stray was left.
func listAll(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	return out
}

// countdown is a context that turns cancelled after n checks of Err: a
// deterministic way to cancel in the middle of a walk.
type countdown struct {
	context.Context
	n atomic.Int64
}

func newCountdown(n int64) *countdown {
	c := &countdown{Context: context.Background()}
	c.n.Store(n)
	return c
}

func (c *countdown) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

func (c *countdown) Done() <-chan struct{} { return nil }

func (c *countdown) Deadline() (time.Time, bool) { return time.Time{}, false }
