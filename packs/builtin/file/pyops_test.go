//go:build unix

package file

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/meter"
	"github.com/onetool-dev/onetool/packs/roots"
)

// run is one run's context for the variants, as the runner makes it: a
// packs.Scope (closed at the end of the test) and a Confirmer that
// records what it is asked and answers yes unless told otherwise.
type run struct {
	ctx     context.Context
	scope   *packs.Scope
	asked   []string
	decline bool
}

func newRun(t *testing.T) *run {
	r := &run{scope: packs.NewScope()}
	t.Cleanup(func() { r.scope.Close() })
	r.ctx = packs.WithConfirmer(packs.WithScope(context.Background(), r.scope), func(_ context.Context, action string) error {
		r.asked = append(r.asked, action)
		if r.decline {
			return errors.New("not confirmed: the user declined")
		}
		return nil
	})
	return r
}

// op calls a variant as the runner does: found by its id, input
// validated, the handler invoked.
func (e *env) op(ctx context.Context, id string, args map[string]any) (map[string]any, error) {
	e.t.Helper()
	tl, ok := e.reg.Variant(id)
	if !ok {
		e.t.Fatalf("no variant %s", id)
	}
	if tl.ID() != strings.Split(id, "@")[0] || tl.Annotations.Destructive {
		e.t.Fatalf("%s: counted as %s, destructive %v", id, tl.ID(), tl.Annotations.Destructive)
	}
	for k, v := range args {
		if i, ok := v.(int); ok {
			args[k] = int64(i)
		}
	}
	if err := tl.ValidateInput(args); err != nil {
		return nil, err
	}
	v, err := packs.Invoke(ctx, tl, args)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		e.t.Fatalf("%s: result %T", id, v)
	}
	return m, nil
}

func contentOf(t *testing.T, m map[string]any) string {
	t.Helper()
	b, err := pyops.GetContent(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func text(s string) map[string]any { m := map[string]any{}; pyops.PutContent(m, []byte(s)); return m }

func names(m map[string]any, key string) []string {
	var out []string
	for _, e := range m["entries"].([]any) {
		out = append(out, e.(map[string]any)[key].(string))
	}
	return out
}

// kindName names err's kind for messages.
func kindName(err error) string {
	k := pyops.KindOf(err)
	for _, s := range pyops.Sentinels() {
		if s.Err == k {
			return s.Name
		}
	}
	if err == nil {
		return "ok"
	}
	return "untagged"
}

// TestPyOpsVariants runs each variant of internal/pyops/files.go against
// a real temporary tree: what it returns, what it changes, and the kind
// of its errors (from which a module raises FileNotFoundError and kin).
func TestPyOpsVariants(t *testing.T) {
	tree := map[string]string{
		"a.txt": "hello\nworld\n", "bin.dat": "\xff\x00\x01", "d/b.txt": "b\n", "d/e/c.txt": "c\n",
		"empty/": "", ".git/HEAD": "ref\n", "node_modules/m.js": "m\n",
	}
	for _, tt := range []struct {
		name  string
		op    string
		args  map[string]any
		kind  error // nil: success
		check func(t *testing.T, e *env, m map[string]any)
	}{
		{"read whole", pyops.FileRead, map[string]any{"path": "a.txt"}, nil, func(t *testing.T, e *env, m map[string]any) {
			if contentOf(t, m) != "hello\nworld\n" || m["size"] != int64(12) || m["eof"] != true || m["ino"] == int64(0) {
				t.Errorf("%v", m)
			}
		}},
		{"read chunk", pyops.FileRead, map[string]any{"path": "a.txt", "offset": 6, "size": 3}, nil, func(t *testing.T, e *env, m map[string]any) {
			if contentOf(t, m) != "wor" || m["eof"] != false {
				t.Errorf("%v", m)
			}
		}},
		{"read past the end", pyops.FileRead, map[string]any{"path": "a.txt", "offset": 100}, nil, func(t *testing.T, e *env, m map[string]any) {
			if contentOf(t, m) != "" || m["eof"] != true {
				t.Errorf("%v", m)
			}
		}},
		{"read binary", pyops.FileRead, map[string]any{"path": "bin.dat"}, nil, func(t *testing.T, e *env, m map[string]any) {
			if _, ok := m[pyops.ContentB64]; !ok || contentOf(t, m) != "\xff\x00\x01" {
				t.Errorf("%v", m)
			}
		}},
		{"read missing", pyops.FileRead, map[string]any{"path": "nope.txt"}, pyops.ErrNotFound, nil},
		{"read a directory", pyops.FileRead, map[string]any{"path": "d"}, pyops.ErrIsDir, nil},
		{"read through a file", pyops.FileRead, map[string]any{"path": "a.txt/x"}, pyops.ErrNotDir, nil},
		{"read a long name", pyops.FileRead, map[string]any{"path": strings.Repeat("n", 300)}, pyops.ErrNameTooLong, nil},
		{"stat", pyops.FileStat, map[string]any{"path": "d/b.txt", "follow": true}, nil, func(t *testing.T, e *env, m map[string]any) {
			if m["type"] != "file" || m["size"] != int64(2) || m["mode"].(int64)&0o170000 != 0o100000 || m["nlink"] != int64(1) {
				t.Errorf("%v", m)
			}
		}},
		{"lstat a link", pyops.FileStat, map[string]any{"path": "link-a"}, nil, func(t *testing.T, e *env, m map[string]any) {
			if m["type"] != "link" || m["mode"].(int64)&0o170000 != 0o120000 {
				t.Errorf("%v", m)
			}
		}},
		{"stat a link", pyops.FileStat, map[string]any{"path": "link-a", "follow": true}, nil, func(t *testing.T, e *env, m map[string]any) {
			if m["type"] != "file" {
				t.Errorf("%v", m)
			}
		}},
		{"stat missing", pyops.FileStat, map[string]any{"path": "nope"}, pyops.ErrNotFound, nil},
		{"stat dangling", pyops.FileStat, map[string]any{"path": "dangling", "follow": true}, pyops.ErrNotFound, nil},
		{"resolve", pyops.FileResolve, map[string]any{"path": "link-d/../a.txt"}, nil, func(t *testing.T, e *env, m map[string]any) {
			if m["path"] != filepath.Join(e.root, "a.txt") {
				t.Errorf("%v", m)
			}
		}},
		{"resolve strict missing", pyops.FileResolve, map[string]any{"path": "nope", "strict": true}, pyops.ErrNotFound, nil},
		{"list", pyops.FileList, map[string]any{"path": "."}, nil, func(t *testing.T, e *env, m map[string]any) {
			want := []string{".git", "a.txt", "bin.dat", "d", "dangling", "empty", "link-a", "link-d", "node_modules"}
			if got := names(m, "name"); !slices.Equal(got, want) {
				t.Errorf("%v", got)
			}
			for _, x := range m["entries"].([]any) {
				en := x.(map[string]any)
				want := map[string]string{"link-a": "file", "link-d": "dir", "dangling": ""}[en["name"].(string)]
				if en["type"] == "link" && en["target_type"] != want {
					t.Errorf("%s: target_type %q", en["name"], en["target_type"])
				}
			}
		}},
		{"list a file", pyops.FileList, map[string]any{"path": "a.txt"}, pyops.ErrNotDir, nil},
		{"list missing", pyops.FileList, map[string]any{"path": "nope"}, pyops.ErrNotFound, nil},
		{"walk", pyops.FileWalk, map[string]any{"path": "d"}, nil, func(t *testing.T, e *env, m map[string]any) {
			if got := names(m, "rel"); !slices.Equal(got, []string{"b.txt", "e", "e/c.txt"}) {
				t.Errorf("%v", got)
			}
		}},
		{"walk sees .git and node_modules, not links", pyops.FileWalk, map[string]any{"path": "."}, nil, func(t *testing.T, e *env, m map[string]any) {
			got := names(m, "rel")
			if !slices.Contains(got, ".git/HEAD") || !slices.Contains(got, "node_modules/m.js") || slices.Contains(got, "link-d/b.txt") {
				t.Errorf("%v", got)
			}
		}},
		{"walk following links", pyops.FileWalk, map[string]any{"path": ".", "follow_links": true}, nil, func(t *testing.T, e *env, m map[string]any) {
			got := names(m, "rel")
			// d is visited once: under d or under link-d, whichever comes first.
			if !slices.Contains(got, "d/b.txt") || slices.Contains(got, "link-d/b.txt") {
				t.Errorf("%v", got)
			}
		}},
		{"walk one level", pyops.FileWalk, map[string]any{"path": "d", "max_depth": 1}, nil, func(t *testing.T, e *env, m map[string]any) {
			if got := names(m, "rel"); !slices.Equal(got, []string{"b.txt", "e"}) {
				t.Errorf("%v", got)
			}
		}},
		{"open w new", pyops.FileOpen, map[string]any{"path": "new.txt", "mode": "w"}, nil, func(t *testing.T, e *env, m map[string]any) {
			if m["exists"] != false || e.exists("new.txt") {
				t.Errorf("%v", m)
			}
		}},
		{"open x existing", pyops.FileOpen, map[string]any{"path": "a.txt", "mode": "x"}, pyops.ErrExists, nil},
		{"open r+ missing", pyops.FileOpen, map[string]any{"path": "nope", "mode": "r+"}, pyops.ErrNotFound, nil},
		{"open a directory", pyops.FileOpen, map[string]any{"path": "d", "mode": "a"}, pyops.ErrIsDir, nil},
		{"open in a missing directory", pyops.FileOpen, map[string]any{"path": "no/x.txt", "mode": "w"}, pyops.ErrNotFound, nil},
		{"write new", pyops.FileWrite, map[string]any{"path": "new.txt", "content": text("x"), "first": true}, nil, func(t *testing.T, e *env, m map[string]any) {
			if e.read("new.txt") != "x" || m["size"] != int64(1) {
				t.Errorf("%v", m)
			}
		}},
		{"write replaces", pyops.FileWrite, map[string]any{"path": "a.txt", "content": text("new"), "first": true}, nil, func(t *testing.T, e *env, m map[string]any) {
			if e.read("a.txt") != "new" || len(e.backups()) != 1 {
				t.Errorf("%q, backups %v", e.read("a.txt"), e.backups())
			}
		}},
		{"write appends", pyops.FileWrite, map[string]any{"path": "a.txt", "content": text("!"), "append": true}, nil, func(t *testing.T, e *env, m map[string]any) {
			if e.read("a.txt") != "hello\nworld\n!" || m["size"] != int64(13) {
				t.Errorf("%q %v", e.read("a.txt"), m)
			}
		}},
		{"write text put in the args", pyops.FileWrite, map[string]any{"path": "t.txt", "text": "top"}, nil, func(t *testing.T, e *env, m map[string]any) {
			if e.read("t.txt") != "top" {
				t.Errorf("%q", e.read("t.txt"))
			}
		}},
		{"write bytes", pyops.FileWrite, map[string]any{"path": "b.bin", "content": map[string]any{"b64": "/wA="}}, nil, func(t *testing.T, e *env, m map[string]any) {
			if e.read("b.bin") != "\xff\x00" {
				t.Errorf("%q", e.read("b.bin"))
			}
		}},
		{"write a directory", pyops.FileWrite, map[string]any{"path": "d", "content": text("x")}, pyops.ErrIsDir, nil},
		{"mkdir", pyops.FileMkdir, map[string]any{"path": "n"}, nil, func(t *testing.T, e *env, m map[string]any) {
			if st, err := os.Stat(filepath.Join(e.root, "n")); err != nil || !st.IsDir() {
				t.Error(err)
			}
		}},
		{"mkdir existing", pyops.FileMkdir, map[string]any{"path": "d"}, pyops.ErrExists, nil},
		{"mkdir existing ok", pyops.FileMkdir, map[string]any{"path": "d", "exist_ok": true}, nil, nil},
		{"mkdir over a file, exist_ok", pyops.FileMkdir, map[string]any{"path": "a.txt", "exist_ok": true}, pyops.ErrExists, nil},
		{"mkdir without parents", pyops.FileMkdir, map[string]any{"path": "x/y"}, pyops.ErrNotFound, nil},
		{"mkdir parents", pyops.FileMkdir, map[string]any{"path": "x/y", "parents": true}, nil, func(t *testing.T, e *env, m map[string]any) {
			if !e.exists("x/y") {
				t.Error("not made")
			}
		}},
		{"touch new", pyops.FileTouch, map[string]any{"path": "t.txt"}, nil, func(t *testing.T, e *env, m map[string]any) {
			if e.read("t.txt") != "" {
				t.Error("not empty")
			}
		}},
		{"touch existing", pyops.FileTouch, map[string]any{"path": "a.txt", "exist_ok": false}, pyops.ErrExists, nil},
		{"remove", pyops.FileRemove, map[string]any{"path": "a.txt"}, nil, func(t *testing.T, e *env, m map[string]any) {
			if e.exists("a.txt") || len(e.backups()) != 1 {
				t.Errorf("still there, or no backup: %v", e.backups())
			}
		}},
		{"remove a link", pyops.FileRemove, map[string]any{"path": "link-d"}, nil, func(t *testing.T, e *env, m map[string]any) {
			if e.exists("link-d") || !e.exists("d/b.txt") {
				t.Error("the link stays, or its target went")
			}
		}},
		{"remove missing", pyops.FileRemove, map[string]any{"path": "nope"}, pyops.ErrNotFound, nil},
		{"remove missing ok", pyops.FileRemove, map[string]any{"path": "nope", "missing_ok": true}, nil, nil},
		{"remove a directory", pyops.FileRemove, map[string]any{"path": "d"}, pyops.ErrIsDir, nil},
		{"rmdir not empty", pyops.FileRemove, map[string]any{"path": "d", "kind": "dir"}, pyops.ErrNotEmpty, nil},
		{"rmdir a file", pyops.FileRemove, map[string]any{"path": "a.txt", "kind": "dir"}, pyops.ErrNotDir, nil},
		{"rmdir", pyops.FileRemove, map[string]any{"path": "empty", "kind": "dir"}, nil, nil},
		{"rmtree", pyops.FileRemove, map[string]any{"path": "d", "kind": "tree"}, nil, func(t *testing.T, e *env, m map[string]any) {
			if e.exists("d") {
				t.Error("still there")
			}
		}},
		{"remove a root", pyops.FileRemove, map[string]any{"path": ".", "kind": "tree"}, pyops.ErrDenied, nil},
		{"rename", pyops.FileRename, map[string]any{"src": "a.txt", "dst": "d/a2.txt"}, nil, func(t *testing.T, e *env, m map[string]any) {
			if e.exists("a.txt") || e.read("d/a2.txt") != "hello\nworld\n" {
				t.Error("not moved")
			}
		}},
		{"rename onto a file", pyops.FileRename, map[string]any{"src": "d/b.txt", "dst": "a.txt"}, nil, func(t *testing.T, e *env, m map[string]any) {
			if e.read("a.txt") != "b\n" || len(e.backups()) != 1 {
				t.Errorf("%q %v", e.read("a.txt"), e.backups())
			}
		}},
		{"rename onto a directory", pyops.FileRename, map[string]any{"src": "a.txt", "dst": "d"}, pyops.ErrIsDir, nil},
		{"rename a directory onto a full one", pyops.FileRename, map[string]any{"src": "empty", "dst": "d"}, pyops.ErrNotEmpty, nil},
		{"rename a directory onto an empty one", pyops.FileRename, map[string]any{"src": "d", "dst": "empty"}, nil, func(t *testing.T, e *env, m map[string]any) {
			if !e.exists("empty/e/c.txt") || e.exists("d") {
				t.Error("not moved")
			}
		}},
		{"rename missing", pyops.FileRename, map[string]any{"src": "nope", "dst": "x"}, pyops.ErrNotFound, nil},
		{"rename into a missing directory", pyops.FileRename, map[string]any{"src": "a.txt", "dst": "no/a.txt"}, pyops.ErrNotFound, nil},
		{"copy into a directory", pyops.FileCopy, map[string]any{"src": "a.txt", "dst": "d", "meta": true}, nil, func(t *testing.T, e *env, m map[string]any) {
			a, _ := os.Stat(filepath.Join(e.root, "a.txt"))
			c, _ := os.Stat(filepath.Join(e.root, "d/a.txt"))
			if m["path"] != "d/a.txt" || e.read("d/a.txt") != "hello\nworld\n" || !a.ModTime().Equal(c.ModTime()) {
				t.Errorf("%v", m)
			}
		}},
		{"copy a directory as a file", pyops.FileCopy, map[string]any{"src": "d", "dst": "x"}, pyops.ErrIsDir, nil},
		{"copytree", pyops.FileCopy, map[string]any{"src": "d", "dst": "d2", "tree": true}, nil, func(t *testing.T, e *env, m map[string]any) {
			if e.read("d2/e/c.txt") != "c\n" {
				t.Error("not copied")
			}
		}},
		{"copytree onto existing", pyops.FileCopy, map[string]any{"src": "d", "dst": "empty", "tree": true}, pyops.ErrExists, nil},
		{"copytree merged", pyops.FileCopy, map[string]any{"src": "d", "dst": "empty", "tree": true, "dirs_exist_ok": true}, nil, func(t *testing.T, e *env, m map[string]any) {
			if e.read("empty/e/c.txt") != "c\n" || e.read("empty/b.txt") != "b\n" {
				t.Error("not copied")
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, Options{Backups: true})
			e.files(tree)
			os.Symlink("a.txt", filepath.Join(e.root, "link-a"))
			os.Symlink(filepath.Join(e.root, "d"), filepath.Join(e.root, "link-d"))
			os.Symlink("gone", filepath.Join(e.root, "dangling"))
			m, err := e.op(newRun(t).ctx, tt.op, tt.args)
			if tt.kind == nil && err != nil || tt.kind != nil && !errors.Is(err, tt.kind) {
				t.Fatalf("%s(%v): %v (%s), want %v", tt.op, tt.args, err, kindName(err), tt.kind)
			}
			if tt.check != nil {
				tt.check(t, e, m)
			}
		})
	}
}

// The variants ask before destroying what exists and the run did not
// make (an overwrite, a delete, a rename onto a file, an rmtree), once
// per path; never for what the run made or for a new file. A declined
// question is PermissionError's kind with the user's answer in its text,
// and nothing changes.
func TestPyOpsConfirm(t *testing.T) {
	e := newEnv(t, Options{Backups: true})
	e.files(map[string]string{"a.txt": "a\n", "b.txt": "b\n", "t/x.txt": "x\n"})
	r := newRun(t)
	step := func(op string, args map[string]any, wantAsked []string) {
		t.Helper()
		r.asked = nil
		if _, err := e.op(r.ctx, op, args); err != nil {
			t.Fatalf("%s(%v): %v", op, args, err)
		}
		if !slices.Equal(r.asked, wantAsked) {
			t.Errorf("%s(%v) asked %q, want %q", op, args, r.asked, wantAsked)
		}
	}
	step(pyops.FileOpen, map[string]any{"path": "new.txt", "mode": "w"}, nil)
	step(pyops.FileWrite, map[string]any{"path": "new.txt", "content": text("1"), "first": true}, nil)
	step(pyops.FileOpen, map[string]any{"path": "new.txt", "mode": "w"}, nil) // the run made it
	step(pyops.FileRemove, map[string]any{"path": "new.txt"}, nil)
	step(pyops.FileOpen, map[string]any{"path": "a.txt", "mode": "a"}, nil) // an append destroys nothing
	step(pyops.FileOpen, map[string]any{"path": "a.txt", "mode": "w"}, []string{"overwrite a.txt (2 bytes; a backup is kept)"})
	step(pyops.FileWrite, map[string]any{"path": "a.txt", "content": text("A"), "first": true}, nil) // confirmed at open
	step(pyops.FileRename, map[string]any{"src": "a.txt", "dst": "b.txt"}, []string{"replace b.txt with a.txt (2 bytes; a backup is kept)"})
	step(pyops.FileMkdir, map[string]any{"path": "made/deep", "parents": true}, nil)
	step(pyops.FileWrite, map[string]any{"path": "made/deep/f.txt", "content": text("f")}, nil)
	step(pyops.FileRemove, map[string]any{"path": "made", "kind": "tree"}, nil) // all the run's
	step(pyops.FileRemove, map[string]any{"path": "t", "kind": "tree"}, []string{"delete the directory t and everything in it; a backup is kept"})
	// A file the run did not make, moved into a directory it made: an
	// rmtree of that directory asks.
	step(pyops.FileMkdir, map[string]any{"path": "m"}, nil)
	step(pyops.FileRename, map[string]any{"src": "b.txt", "dst": "m/b.txt"}, nil)
	step(pyops.FileRemove, map[string]any{"path": "m", "kind": "tree"}, []string{"delete the directory m and everything in it; a backup is kept"})

	// Declined: PermissionError's kind, the answer in the text, nothing changed.
	e.files(map[string]string{"keep.txt": "keep\n"})
	r.decline = true
	for _, c := range []struct {
		op   string
		args map[string]any
	}{
		{pyops.FileOpen, map[string]any{"path": "keep.txt", "mode": "w"}},
		{pyops.FileWrite, map[string]any{"path": "keep.txt", "content": text("gone")}},
		{pyops.FileRemove, map[string]any{"path": "keep.txt"}},
		{pyops.FileCopy, map[string]any{"src": "bin", "dst": "keep.txt"}},
	} {
		e.files(map[string]string{"bin": "other\n"})
		_, err := e.op(r.ctx, c.op, c.args)
		if !errors.Is(err, pyops.ErrDenied) || !strings.Contains(err.Error(), "not confirmed: the user declined") {
			t.Errorf("%s declined: %v", c.op, err)
		}
		if e.read("keep.txt") != "keep\n" {
			t.Fatalf("%s changed the file after a refusal", c.op)
		}
	}
}

// A file whose read this run showed with a secret hidden is not written
// back whole: the mask would replace the secret (PermissionError, saying
// why). Appending is allowed; the secret is never in what is read.
func TestPyOpsRedactedNotWritten(t *testing.T) {
	e := newEnv(t, Options{Redact: hideSecret})
	e.files(map[string]string{".env": "KEY=" + testSecret + "\n", "plain.txt": "plain\n"})
	r := newRun(t)
	m, err := e.op(r.ctx, pyops.FileRead, map[string]any{"path": ".env", "size": 6})
	if err != nil || contentOf(t, m) != "KEY=[s" || m["size"] != int64(len("KEY=[secret:API_KEY]\n")) {
		t.Fatalf("%v %v", m, err)
	}
	// The next chunk lines up with the text the program sees.
	m, _ = e.op(r.ctx, pyops.FileRead, map[string]any{"path": ".env", "offset": 6})
	if contentOf(t, m) != "ecret:API_KEY]\n" {
		t.Errorf("%q", contentOf(t, m))
	}
	for _, op := range []string{pyops.FileOpen, pyops.FileWrite} {
		_, err := e.op(r.ctx, op, map[string]any{"path": ".env", "mode": "w", "content": text("KEY=[secret:API_KEY]\n")})
		if !errors.Is(err, pyops.ErrDenied) || !strings.Contains(err.Error(), "writing it back would replace the secret with that mask") {
			t.Errorf("%s: %v", op, err)
		}
	}
	if _, err := e.op(r.ctx, pyops.FileWrite, map[string]any{"path": ".env", "content": text("MORE=1\n"), "append": true}); err != nil {
		t.Error(err)
	}
	if e.read(".env") != "KEY="+testSecret+"\nMORE=1\n" {
		t.Errorf("%q", e.read(".env"))
	}
	// Another run has not read it: its write goes through.
	if _, err := e.op(newRun(t).ctx, pyops.FileWrite, map[string]any{"path": "plain.txt", "content": text("x")}); err != nil {
		t.Error(err)
	}
}

// FileTemp makes the run's scratch directory, outside every root, and
// items in it; every operation of the run, the public tools' too, may
// then use it as a root; it is gone when the run's Scope closes, and
// another run cannot reach it.
func TestPyOpsTemp(t *testing.T) {
	e := newEnv(t, Options{Backups: true})
	r := newRun(t)
	m, err := e.op(r.ctx, pyops.FileTemp, map[string]any{"dir": true, "prefix": "job-"})
	if err != nil {
		t.Fatal(err)
	}
	dir := m["path"].(string)
	if !strings.Contains(dir, packs.ScratchPrefix) || !strings.HasPrefix(filepath.Base(dir), "job-") || strings.HasPrefix(dir, e.root) {
		t.Fatalf("scratch %s", dir)
	}
	f := filepath.Join(dir, "out.txt")
	if _, err := e.op(r.ctx, pyops.FileWrite, map[string]any{"path": f, "content": text("temp"), "first": true}); err != nil {
		t.Fatal(err)
	}
	if v, err := e.callCtx(r.ctx, "read", map[string]any{"path": f}); err != nil || v != "temp" {
		t.Errorf("file.read of a scratch file: %v %v", v, err)
	}
	r.asked = nil
	if _, err := e.op(r.ctx, pyops.FileRemove, map[string]any{"path": dir, "kind": "tree"}); err != nil || r.asked != nil {
		t.Errorf("rmtree of scratch: %v, asked %q", err, r.asked)
	}
	m, _ = e.op(r.ctx, pyops.FileTemp, map[string]any{"suffix": ".csv"})
	file := m["path"].(string)
	if st, err := os.Stat(file); err != nil || !st.Mode().IsRegular() || !strings.HasSuffix(file, ".csv") {
		t.Fatalf("temp file %s: %v", file, err)
	}
	if _, err := e.op(newRun(t).ctx, pyops.FileRead, map[string]any{"path": file}); !errors.Is(err, pyops.ErrDenied) {
		t.Errorf("another run reads the scratch: %v", err)
	}
	if _, err := e.op(r.ctx, pyops.FileTemp, map[string]any{"prefix": "../x"}); err == nil {
		t.Error("a prefix with a separator")
	}
	r.scope.Close()
	if _, err := os.Stat(filepath.Dir(file)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("scratch left after the run: %v", err)
	}
	if _, err := e.op(context.Background(), pyops.FileTemp, map[string]any{}); err == nil {
		t.Error("a temporary file without a run")
	}
}

// countMeter is a meter with a limit, as the runner's budget is.
type countMeter struct {
	limit   int64
	charged atomic.Int64
}

var errOverBudget = errors.New("memory limit exceeded")

func (m *countMeter) Charge(n int64) error {
	if m.charged.Add(n) > m.limit {
		return errOverBudget
	}
	return nil
}
func (m *countMeter) Release(n int64)  { m.charged.Add(-n) }
func (m *countMeter) Available() int64 { return m.limit - m.charged.Load() }

// A huge file is read in chunks, each charged to the call's meter before
// it is read: a chunk within the budget works, one past it fails with the
// budget's own error (untagged, so that the run ends), and a walk's
// entries are charged too. Past the scan cap a walk fails (ErrTooLarge).
func TestPyOpsBudgets(t *testing.T) {
	hooks := &testHooks{maxScan: 50}
	e := newEnv(t, Options{Redact: hideSecret, hooks: hooks})
	huge := filepath.Join(e.root, "huge.bin")
	f, _ := os.Create(huge)
	f.Truncate(MaxReadFile + 64<<20) // sparse: larger than any cap
	f.WriteAt([]byte("marker"), 40<<20)
	f.Close()
	r := newRun(t)
	m := &countMeter{limit: 10 << 20}
	ctx := meter.With(r.ctx, m)
	got, err := e.op(ctx, pyops.FileRead, map[string]any{"path": "huge.bin", "offset": 40 << 20, "size": 6})
	if err != nil || contentOf(t, got) != "marker" || got["size"] != int64(MaxReadFile+64<<20) {
		t.Fatalf("chunk of a huge file: %v", err)
	}
	if c := m.charged.Load(); c > 1<<20 {
		t.Errorf("charged %d bytes for a 6-byte chunk", c)
	}
	if _, err := e.op(meter.With(r.ctx, &countMeter{limit: 4 << 20}), pyops.FileRead, map[string]any{"path": "huge.bin", "offset": 0}); !errors.Is(err, errOverBudget) || pyops.KindOf(err) != nil {
		t.Errorf("an 8 MiB chunk past a 4 MiB budget: %v", err)
	}
	// Chunk after chunk within the budget: the meter is the call's.
	for off := int64(0); off < 32<<20; off += pyops.MaxChunk {
		if _, err := e.op(meter.With(r.ctx, &countMeter{limit: 9 << 20}), pyops.FileRead, map[string]any{"path": "huge.bin", "offset": off}); err != nil {
			t.Fatalf("chunk at %d: %v", off, err)
		}
	}
	// A huge file that holds a secret is not read with the secret shown.
	os.WriteFile(filepath.Join(e.root, "s.txt"), nil, 0o644)
	f, _ = os.OpenFile(huge, os.O_WRONLY, 0)
	f.WriteAt([]byte(testSecret), 50<<20)
	f.Close()
	_, err = e.op(r.ctx, pyops.FileRead, map[string]any{"path": "huge.bin", "offset": 50<<20 - 4})
	if !errors.Is(err, pyops.ErrDenied) || strings.Contains(err.Error(), testSecret) {
		t.Errorf("a huge file with a secret: %v", err)
	}
	// The scan cap, and the meter, of a walk.
	for i := range 60 {
		e.files(map[string]string{fmt.Sprintf("many/f%02d", i): ""})
	}
	if _, err := e.op(r.ctx, pyops.FileWalk, map[string]any{"path": "many"}); !errors.Is(err, pyops.ErrTooLarge) {
		t.Errorf("walk past the cap: %v", err)
	}
	if _, err := e.op(r.ctx, pyops.FileList, map[string]any{"path": "many"}); !errors.Is(err, pyops.ErrTooLarge) {
		t.Errorf("list past the cap: %v", err)
	}
	hooks.maxScan = 0
	if _, err := e.op(meter.With(r.ctx, &countMeter{limit: 1000}), pyops.FileWalk, map[string]any{"path": "many"}); !errors.Is(err, errOverBudget) {
		t.Errorf("walk past the budget: %v", err)
	}
}

// The hostile cases of SPEC §8.2 through the variants, each with the
// answer the public tool gives: '..' and absolute paths out, links out,
// a link loop, onetool's own files, a swap after the check, read_only.
// Every refusal is PermissionError's kind and names the roots (or says
// why), nothing outside changes, and no result holds what is outside.
func TestPyOpsHostile(t *testing.T) {
	tmp, _ := escapeFixture(t)
	root := filepath.Join(tmp, "root")
	rr, _ := roots.New(root)
	reg := packs.NewRegistry()
	if err := Register(reg, Options{Roots: rr, Backups: true}); err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, tmp: tmp, root: root, reg: reg}
	r := newRun(t)
	outside := filepath.Join(tmp, "outside", "secret.txt")
	for _, c := range []struct {
		op   string
		args map[string]any
	}{
		{pyops.FileRead, map[string]any{"path": "../outside/secret.txt"}},
		{pyops.FileRead, map[string]any{"path": outside}},
		{pyops.FileRead, map[string]any{"path": "/etc/passwd"}},
		{pyops.FileRead, map[string]any{"path": "file-out"}},
		{pyops.FileRead, map[string]any{"path": "link-out/secret.txt"}},
		{pyops.FileRead, map[string]any{"path": "chain1/secret.txt"}},
		{pyops.FileStat, map[string]any{"path": outside, "follow": true}},
		{pyops.FileStat, map[string]any{"path": "link-out"}},
		{pyops.FileResolve, map[string]any{"path": "rel-out"}},
		{pyops.FileList, map[string]any{"path": "link-out"}},
		{pyops.FileWalk, map[string]any{"path": "sub/up"}},
		{pyops.FileOpen, map[string]any{"path": "dangling", "mode": "w"}},
		{pyops.FileWrite, map[string]any{"path": "dangling2", "content": text("pwned")}},
		{pyops.FileWrite, map[string]any{"path": "../outside/new.txt", "content": text("pwned")}},
		{pyops.FileMkdir, map[string]any{"path": "link-out/d"}},
		{pyops.FileTouch, map[string]any{"path": "link-out/t"}},
		{pyops.FileRemove, map[string]any{"path": "link-out/secret.txt"}},
		{pyops.FileRemove, map[string]any{"path": "file-out"}},
		{pyops.FileRename, map[string]any{"src": "a.txt", "dst": "link-out/a.txt"}},
		{pyops.FileRename, map[string]any{"src": outside, "dst": "stolen.txt"}},
		{pyops.FileCopy, map[string]any{"src": "file-out", "dst": "stolen.txt"}},
		{pyops.FileCopy, map[string]any{"src": "sub", "dst": "link-out/sub", "tree": true}},
	} {
		before := snapshot(t, tmp)
		m, err := e.op(r.ctx, c.op, c.args)
		if !errors.Is(err, pyops.ErrDenied) || !strings.Contains(err.Error(), root) {
			t.Errorf("%s(%v): %v (%s), want PermissionError naming the root", c.op, c.args, err, kindName(err))
		}
		if fmt.Sprint(m) != "map[]" || strings.Contains(fmt.Sprint(err), secret) {
			t.Errorf("%s(%v) leaks: %v %v", c.op, c.args, m, err)
		}
		after := snapshot(t, tmp)
		if fmt.Sprint(before) != fmt.Sprint(after) {
			t.Errorf("%s(%v) changed the tree", c.op, c.args)
		}
	}
	// A loop of links ends a walk that follows links; the loop's own
	// entries are listed as links (os.walk's onerror is not called).
	m, err := e.op(r.ctx, pyops.FileWalk, map[string]any{"path": ".", "follow_links": true})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names(m, "rel") {
		if strings.Contains(n, "outside") || strings.Count(n, "/") > 3 {
			t.Errorf("the walk followed %s", n)
		}
	}
	if got := fmt.Sprint(m); strings.Contains(got, outMarker) {
		t.Error("the walk shows the outside")
	}
}

// A link swapped in after the check (hooks.located) still leads nowhere
// outside: the IO is through the root's os.Root. Each variant that
// touches sub/… is refused, or (listings) shows nothing outside.
func TestPyOpsSwappedAfterCheck(t *testing.T) {
	for _, c := range []struct {
		op   string
		args map[string]any
	}{
		{pyops.FileRead, map[string]any{"path": "sub/secret.txt"}},
		{pyops.FileStat, map[string]any{"path": "sub/secret.txt"}},
		{pyops.FileList, map[string]any{"path": "sub"}},
		{pyops.FileWalk, map[string]any{"path": "sub"}},
		{pyops.FileOpen, map[string]any{"path": "sub/secret.txt", "mode": "w"}},
		{pyops.FileWrite, map[string]any{"path": "sub/secret.txt", "content": text("pwned")}},
		{pyops.FileWrite, map[string]any{"path": "sub/secret.txt", "content": text("pwned"), "append": true}},
		{pyops.FileMkdir, map[string]any{"path": "sub/new"}},
		{pyops.FileTouch, map[string]any{"path": "sub/secret.txt"}},
		{pyops.FileRemove, map[string]any{"path": "sub/secret.txt"}},
		{pyops.FileRename, map[string]any{"src": "sub/secret.txt", "dst": "stolen.txt"}},
		{pyops.FileCopy, map[string]any{"src": "sub/secret.txt", "dst": "stolen.txt"}},
	} {
		t.Run(c.op+fmt.Sprint(c.args["append"]), func(t *testing.T) {
			tmp, _ := escapeFixture(t)
			root := filepath.Join(tmp, "root")
			os.WriteFile(filepath.Join(root, "sub", "secret.txt"), []byte("inside\n"), 0o644)
			rr, _ := roots.New(root)
			hooks := &testHooks{}
			reg := packs.NewRegistry()
			if err := Register(reg, Options{Roots: rr, Backups: true, hooks: hooks}); err != nil {
				t.Fatal(err)
			}
			e := &env{t: t, tmp: tmp, root: root, reg: reg}
			hooks.located = func(path string) {
				if strings.HasPrefix(path, "sub") {
					os.Rename(filepath.Join(root, "sub"), filepath.Join(root, "sub-old"))
					os.Symlink(filepath.Join(tmp, "outside"), filepath.Join(root, "sub"))
				}
			}
			before := snapshot(t, filepath.Join(tmp, "outside"))
			m, err := e.op(newRun(t).ctx, c.op, c.args)
			if fmt.Sprint(before) != fmt.Sprint(snapshot(t, filepath.Join(tmp, "outside"))) {
				t.Error("changed outside the root")
			}
			if strings.Contains(fmt.Sprint(m), secret) || strings.Contains(fmt.Sprint(m), outMarker) {
				t.Errorf("leaks: %v", m)
			}
			if err == nil && c.op != pyops.FileList && c.op != pyops.FileWalk {
				t.Errorf("no error: %v", m)
			} else if err != nil && !errors.Is(err, pyops.ErrDenied) && !errors.Is(err, pyops.ErrNotFound) {
				t.Errorf("%v (%s)", err, kindName(err))
			}
		})
	}
}

// onetool's own files (config, secrets, toolpacks) through the variants:
// refused by name, by link and by hard link (PermissionError's kind),
// left out of listings and walks, and never changed.
func TestPyOpsOwnFiles(t *testing.T) {
	e := ownFixture(t, "root", nil)
	r := newRun(t)
	before := ownSnapshot(t, e.root)
	for _, c := range []struct {
		op   string
		args map[string]any
	}{
		{pyops.FileRead, map[string]any{"path": ".onetool/secrets.yaml"}},
		{pyops.FileRead, map[string]any{"path": ".ONETOOL/secrets.yaml"}},
		{pyops.FileRead, map[string]any{"path": "seclink"}},
		{pyops.FileRead, map[string]any{"path": "hard.txt"}},
		{pyops.FileRead, map[string]any{"path": "cfg/inc.yaml"}},
		{pyops.FileStat, map[string]any{"path": "cfg/toolpacks/p.yaml"}},
		{pyops.FileList, map[string]any{"path": "cfglink"}},
		{pyops.FileOpen, map[string]any{"path": "hard.txt", "mode": "w"}},
		{pyops.FileWrite, map[string]any{"path": "dangle", "content": text("x")}},
		{pyops.FileWrite, map[string]any{"path": "cfg/toolpacks/evil.yaml", "content": text("x")}},
		{pyops.FileMkdir, map[string]any{"path": ".onetool/x"}},
		{pyops.FileMkdir, map[string]any{"path": "proj/.onetool", "exist_ok": true}},
		{pyops.FileTouch, map[string]any{"path": ".onetool/onetool.yaml"}},
		{pyops.FileRemove, map[string]any{"path": "cfg", "kind": "tree"}},
		{pyops.FileRemove, map[string]any{"path": "proj", "kind": "tree"}},
		{pyops.FileRename, map[string]any{"src": "a.txt", "dst": "cfg/inc.yaml"}},
		{pyops.FileRename, map[string]any{"src": "proj", "dst": "proj2"}},
		{pyops.FileCopy, map[string]any{"src": "hard.txt", "dst": "copy.txt"}},
	} {
		_, err := e.op(r.ctx, c.op, c.args)
		if !errors.Is(err, pyops.ErrDenied) || !errors.Is(err, roots.ErrProtected) {
			t.Errorf("%s(%v): %v (%s)", c.op, c.args, err, kindName(err))
		}
	}
	for _, op := range []string{pyops.FileList, pyops.FileWalk} {
		m, err := e.op(r.ctx, op, map[string]any{"path": ".", "follow_links": true})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names(m, "name") {
			if strings.EqualFold(n, ".onetool") || n == "inc.yaml" || n == "toolpacks" {
				t.Errorf("%s shows %s", op, n)
			}
		}
	}
	if _, err := e.op(r.ctx, pyops.FileCopy, map[string]any{"src": "cfg", "dst": "copied", "tree": true}); err != nil || e.exists("copied/inc.yaml") || e.exists("copied/toolpacks") {
		t.Errorf("copytree copied an own file (%v): %v", err, listAll(t, filepath.Join(e.root, "copied")))
	}
	if after := ownSnapshot(t, e.root); fmt.Sprint(before) != fmt.Sprint(after) {
		t.Errorf("own files changed:\n%v\n%v", before, after)
	}
}

// packs.file.read_only refuses every variant that writes, with the
// public tools' words, as PermissionError's kind; reads work.
func TestPyOpsReadOnly(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true})
	e.files(map[string]string{"a.txt": "a\n", "d/": ""})
	r := newRun(t)
	for _, c := range []struct {
		op   string
		args map[string]any
	}{
		{pyops.FileOpen, map[string]any{"path": "a.txt", "mode": "a"}},
		{pyops.FileWrite, map[string]any{"path": "n.txt", "content": text("x")}},
		{pyops.FileMkdir, map[string]any{"path": "m"}},
		{pyops.FileTouch, map[string]any{"path": "t"}},
		{pyops.FileTemp, map[string]any{}},
		{pyops.FileRemove, map[string]any{"path": "a.txt"}},
		{pyops.FileRename, map[string]any{"src": "a.txt", "dst": "b.txt"}},
		{pyops.FileCopy, map[string]any{"src": "a.txt", "dst": "b.txt"}},
	} {
		_, err := e.op(r.ctx, c.op, c.args)
		if !errors.Is(err, pyops.ErrDenied) || !strings.Contains(err.Error(), "the file pack is read-only (packs.file.read_only: true") {
			t.Errorf("%s: %v", c.op, err)
		}
	}
	if m, err := e.op(r.ctx, pyops.FileRead, map[string]any{"path": "a.txt"}); err != nil || contentOf(t, m) != "a\n" {
		t.Errorf("read: %v", err)
	}
	if got := listAll(t, e.root); !slices.Equal(got, []string{"a.txt", "d"}) {
		t.Errorf("tree changed: %v", got)
	}
}

// BenchmarkForRun measures what every file tool call now pays to find the
// run's scratch directory: a Scope lookup.
func BenchmarkForRun(b *testing.B) {
	rr, _ := roots.New(b.TempDir())
	p := newPack(Options{Roots: rr})
	for _, c := range []struct {
		name string
		ctx  context.Context
	}{{"no scope", context.Background()}, {"scope", packs.WithScope(context.Background(), packs.NewScope())}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				p.forRun(c.ctx)
			}
		})
	}
}

// With secrets configured, a file read chunk by chunk is scanned for them
// once per run, one block at a time: each chunk's read holds a chunk
// against the meter, not the whole file, and the scan is not repeated.
// A file that holds a secret still reads with it hidden, chunks lining up
// with the text the program sees.
func TestPyOpsChunksScannedOnce(t *testing.T) {
	var scanned atomic.Int64
	e := newEnv(t, Options{Redact: func(ctx context.Context, text string) (string, error) {
		scanned.Add(int64(len(text)))
		return hideSecret(ctx, text)
	}})
	line := strings.Repeat("y", 99) + "\n"
	e.files(map[string]string{
		"log.txt":    strings.Repeat(line, 200_000), // 20 MB
		"secret.txt": strings.Repeat(line, 30_000) + "key=" + testSecret + "\n" + strings.Repeat(line, 30_000),
	})
	r := newRun(t)
	var got strings.Builder
	for off := int64(0); ; off += 256 << 10 {
		m, err := e.op(meter.With(r.ctx, &countMeter{limit: 6 << 20}), pyops.FileRead, map[string]any{"path": "log.txt", "offset": off, "size": 256 << 10})
		if err != nil {
			t.Fatalf("chunk at %d: %v", off, err)
		}
		got.WriteString(contentOf(t, m))
		if m["eof"] == true {
			break
		}
	}
	if got.Len() != 20_000_000 {
		t.Errorf("read %d bytes, want 20000000", got.Len())
	}
	if n := scanned.Load(); n > 25_000_000 { // once, with the blocks' overlaps
		t.Errorf("scanned %d bytes for a 20 MB file: the scan is repeated", n)
	}
	got.Reset()
	for off := int64(0); ; off += 100_000 {
		m, err := e.op(r.ctx, pyops.FileRead, map[string]any{"path": "secret.txt", "offset": off, "size": 100_000})
		if err != nil {
			t.Fatal(err)
		}
		got.WriteString(contentOf(t, m))
		if m["eof"] == true {
			break
		}
	}
	want := strings.Repeat(line, 30_000) + "key=[secret:API_KEY]\n" + strings.Repeat(line, 30_000)
	if got.String() != want {
		t.Errorf("a file with a secret, read in chunks: %d bytes, want %d with the secret hidden", got.Len(), len(want))
	}
}
